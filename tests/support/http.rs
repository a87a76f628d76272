//! A tiny HTTP/1.1 client over a plain TCP stream, enough for the tests to
//! talk to `serve` and to ChromeDriver without an HTTP crate.

#![allow(dead_code)] // each test binary uses the part it needs

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::time::Duration;

/// Status, headers (lower-case names) and body of one exchange.
pub struct Reply {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: String,
}

/// Sends `method path` to `addr` with `host` and an optional JSON body,
/// and reads the whole answer (the server closes the connection).
pub fn request(addr: &str, method: &str, path: &str, host: &str, json: Option<&str>) -> Reply {
    let mut stream = TcpStream::connect(addr).expect("connects");
    stream
        .set_read_timeout(Some(Duration::from_secs(60)))
        .expect("timeout");
    let body = json.unwrap_or("");
    let mut head = format!("{method} {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n");
    if json.is_some() {
        head += &format!(
            "Content-Type: application/json\r\nContent-Length: {}\r\n",
            body.len()
        );
    }
    head += "\r\n";
    stream.write_all(head.as_bytes()).expect("send");
    stream.write_all(body.as_bytes()).expect("send");
    let mut reader = BufReader::new(stream);
    let mut line = String::new();
    reader.read_line(&mut line).expect("status line");
    let status = line
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .expect("a status");
    let mut headers = Vec::new();
    loop {
        line.clear();
        reader.read_line(&mut line).expect("header");
        let l = line.trim_end();
        if l.is_empty() {
            break;
        }
        if let Some((k, v)) = l.split_once(':') {
            headers.push((k.trim().to_ascii_lowercase(), v.trim().to_owned()));
        }
    }
    let chunked = headers
        .iter()
        .any(|(k, v)| k == "transfer-encoding" && v.contains("chunked"));
    let length = headers
        .iter()
        .find(|(k, _)| k == "content-length")
        .and_then(|(_, v)| v.parse::<usize>().ok());
    let mut raw = Vec::new();
    match length {
        // Servers that keep the connection open (ChromeDriver) say how long
        // the body is.
        Some(n) => {
            raw.resize(n, 0);
            reader.read_exact(&mut raw).expect("the body");
        }
        None => {
            let _ = reader.read_to_end(&mut raw);
        }
    }
    let body = if chunked { dechunk(&raw) } else { raw };
    Reply {
        status,
        headers,
        body: String::from_utf8_lossy(&body).into_owned(),
    }
}

/// `GET path` as a browser on this machine asks it.
pub fn get(addr: &str, path: &str) -> Reply {
    request(addr, "GET", path, "127.0.0.1", None)
}

fn dechunk(mut raw: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    loop {
        let Some(end) = raw.windows(2).position(|w| w == b"\r\n") else {
            return out;
        };
        let size = std::str::from_utf8(&raw[..end])
            .ok()
            .and_then(|s| usize::from_str_radix(s.trim(), 16).ok())
            .unwrap_or(0);
        if size == 0 || raw.len() < end + 2 + size {
            return out;
        }
        out.extend_from_slice(&raw[end + 2..end + 2 + size]);
        raw = &raw[(end + 4 + size).min(raw.len())..];
    }
}
