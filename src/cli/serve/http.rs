//! Routes, query strings and responses. Only the routes below exist: the
//! page, its script and style (built into the binary), the JSON API and the
//! event stream. Any other path is 404, whatever it holds (`..`, `%2e%2e`),
//! and nothing is ever read from disk by path.

use std::io::{Read, Write};
use std::sync::atomic::Ordering;
use std::sync::mpsc::{RecvTimeoutError, channel};
use std::time::Duration;

use tiny_http::{Header, Method, Request, Response, StatusCode};

use super::{MAX_BUSY, State, api};

const INDEX_HTML: &str = include_str!("assets/index.html");
const APP_JS: &str = include_str!("assets/app.js");
const APP_CSS: &str = include_str!("assets/app.css");

/// How often an idle event stream sends a comment, so that a closed page
/// is noticed and proxies keep the stream open.
const KEEP_ALIVE: Duration = Duration::from_secs(15);

/// Answers one request.
pub fn answer(state: &State, request: Request) {
    if state.loopback && !host_is_loopback(&request) {
        let _ = request.respond(text(421, "this server answers only for localhost\n"));
        return;
    }
    if !matches!(request.method(), Method::Get | Method::Head) {
        let _ = request.respond(text(405, "only GET\n"));
        return;
    }
    let url = request.url().to_owned();
    let (path, query) = url.split_once('?').unwrap_or((&url, ""));
    let query = parse_query(query);
    let get = |name: &str| {
        query
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    };
    let response = match path {
        "/" | "/index.html" => asset(INDEX_HTML, "text/html; charset=utf-8"),
        "/app.js" => asset(APP_JS, "text/javascript; charset=utf-8"),
        "/app.css" => asset(APP_CSS, "text/css; charset=utf-8"),
        "/events" => return stream_events(state, request),
        "/api/project" => json(api::project(state)),
        "/api/level" | "/api/graph" | "/api/stats" => {
            if state.busy.fetch_add(1, Ordering::SeqCst) >= MAX_BUSY {
                state.busy.fetch_sub(1, Ordering::SeqCst);
                let _ = request.respond(text(503, "busy generating; try again\n"));
                return;
            }
            let body = match path {
                "/api/level" => api::level(state, get("flow"), get("seed")),
                "/api/graph" => api::graph(state, get("flow"), get("seed")),
                _ => api::stats(state, get("flow"), get("seeds")),
            };
            state.busy.fetch_sub(1, Ordering::SeqCst);
            json(body)
        }
        _ => text(404, "not found\n"),
    };
    let _ = request.respond(response);
}

/// 503 without a thread of its own, when too many connections are open.
pub fn respond_busy(request: Request) {
    let _ = request.respond(text(503, "too many connections\n"));
}

fn host_is_loopback(request: &Request) -> bool {
    let Some(host) = request
        .headers()
        .iter()
        .find(|h| h.field.equiv("Host"))
        .map(|h| h.value.as_str().to_ascii_lowercase())
    else {
        return true; // HTTP/1.0 without Host: a local tool
    };
    let name = match host.strip_prefix('[') {
        Some(v6) => v6.split(']').next().unwrap_or(""),
        None => host.split(':').next().unwrap_or(""),
    };
    matches!(name, "localhost" | "127.0.0.1" | "::1")
}

fn header(name: &str, value: &str) -> Header {
    Header::from_bytes(name.as_bytes(), value.as_bytes()).expect("a valid header")
}

fn with_safety<R: Read>(response: Response<R>) -> Response<R> {
    response
        .with_header(header("X-Content-Type-Options", "nosniff"))
        .with_header(header(
            "Content-Security-Policy",
            "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'",
        ))
        .with_header(header("Cache-Control", "no-store"))
}

fn asset(body: &'static str, kind: &str) -> Response<std::io::Cursor<Vec<u8>>> {
    with_safety(Response::from_string(body).with_header(header("Content-Type", kind)))
}

fn text(status: u16, body: &str) -> Response<std::io::Cursor<Vec<u8>>> {
    with_safety(
        Response::from_string(body)
            .with_status_code(StatusCode(status))
            .with_header(header("Content-Type", "text/plain; charset=utf-8")),
    )
}

fn json(value: serde_json::Value) -> Response<std::io::Cursor<Vec<u8>>> {
    with_safety(
        Response::from_string(value.to_string())
            .with_header(header("Content-Type", "application/json")),
    )
}

/// `a=1&b=x%20y` as pairs, `+` and `%XX` decoded (invalid escapes kept).
pub fn parse_query(query: &str) -> Vec<(String, String)> {
    query
        .split('&')
        .filter(|p| !p.is_empty())
        .map(|pair| {
            let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
            (decode(k), decode(v))
        })
        .collect()
}

fn decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' if i + 2 < bytes.len() => {
                let hex = |c: u8| (c as char).to_digit(16);
                match (hex(bytes[i + 1]), hex(bytes[i + 2])) {
                    (Some(high), Some(low)) => {
                        out.push((high * 16 + low) as u8);
                        i += 3;
                        continue;
                    }
                    _ => out.push(b'%'),
                }
            }
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The event stream: `event: change` with the new version after every change
/// of the project's files, until the page goes away (a write fails; a
/// comment every [`KEEP_ALIVE`] finds out). Written straight to the socket
/// and flushed event by event: a buffered response would hold them back.
fn stream_events(state: &State, request: Request) {
    let (tx, rx) = channel::<u64>();
    state
        .listeners
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .push(tx);
    let mut out = request.into_writer();
    let hello = format!(
        "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-store\r\n\
         X-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n\
         retry: 1000\nevent: hello\ndata: {}\n\n",
        state.version.load(Ordering::SeqCst)
    );
    let mut next = hello;
    loop {
        if out
            .write_all(next.as_bytes())
            .and_then(|()| out.flush())
            .is_err()
        {
            return;
        }
        next = match rx.recv_timeout(KEEP_ALIVE) {
            Ok(version) => format!("event: change\ndata: {version}\n\n"),
            Err(RecvTimeoutError::Timeout) => ": still here\n\n".to_owned(),
            Err(RecvTimeoutError::Disconnected) => return,
        };
    }
}
