//! `serve`: the JSON API, the event stream, the refusals (other hosts,
//! paths outside its routes, methods that write), and the page itself in
//! headless Chromium driven through ChromeDriver (the full run requires
//! them; a default run without them skips that test with a note).

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

#[path = "support/example_project.rs"]
mod example;
#[path = "support/http.rs"]
mod http;
#[path = "support/suite.rs"]
mod suite;
use example::{add_trap, edit, example_project};

/// A running server, stopped when dropped.
struct Server {
    child: Child,
    addr: String,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn serve(dir: &Path) -> Server {
    let mut child = Command::new(env!("CARGO_BIN_EXE_dungeonflow"))
        .current_dir(dir)
        .args(["serve", "--port", "0"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("starts");
    let mut line = String::new();
    BufReader::new(child.stdout.take().expect("stdout"))
        .read_line(&mut line)
        .expect("the address line");
    let addr = line
        .split("http://")
        .nth(1)
        .and_then(|rest| rest.split('/').next())
        .unwrap_or_else(|| panic!("no address in {line:?}"))
        .to_owned();
    assert!(addr.starts_with("127.0.0.1:"), "{addr}");
    Server { child, addr }
}

fn api(server: &Server, path: &str) -> Value {
    let reply = http::get(&server.addr, path);
    assert_eq!(reply.status, 200, "{path}: {}", reply.body);
    serde_json::from_str(&reply.body).expect("JSON")
}

#[test]
fn the_api_gives_levels_graphs_stats_and_diagnostics() {
    let dir = example_project();
    add_trap(dir.path());
    let server = serve(dir.path());
    let p = api(&server, "/api/project");
    assert_eq!(p["flows"], json!(["crypt", "trap"]));
    assert_eq!(p["default"], "crypt");
    let level = api(&server, "/api/level?flow=crypt&seed=2");
    assert_eq!(level["ok"], true, "{level}");
    assert!(level["svg"].as_str().expect("svg").starts_with("<svg"));
    let rooms = level["rooms"].as_array().expect("rooms");
    let gate = rooms.iter().find(|r| r["id"] == "gate").expect("the gate");
    assert_eq!(gate["properties"]["music"], "crypt_theme");
    assert_eq!(
        level["path"][0], "gate",
        "the critical path starts at the entrance"
    );
    assert_eq!(
        level["path"].as_array().expect("path").last(),
        Some(&json!("lair"))
    );
    let graph = api(&server, "/api/graph?flow=crypt&seed=2");
    let written: Vec<&str> = graph["written"]["nodes"]
        .as_array()
        .expect("nodes")
        .iter()
        .filter_map(|n| n["id"].as_str())
        .collect();
    assert!(
        written.contains(&"ossuary") && written.contains(&"west"),
        "{written:?}"
    );
    let expanded = graph["expanded"]["nodes"].as_array().expect("nodes");
    assert_eq!(
        expanded.len(),
        rooms.len(),
        "the expanded graph has the level's rooms"
    );
    // A flow that does not lay out: the diagnostic, and the rooms placed
    // when the layout gave up.
    let trap = api(&server, "/api/level?flow=trap&seed=1");
    assert_eq!(trap["ok"], false);
    assert_eq!(trap["diagnostics"][0]["code"], "layout::failed");
    let placed = trap["partial"]["rooms"].as_u64().expect("a partial layout");
    assert!((4..10).contains(&placed), "{placed} of 10 rooms");
    assert_eq!(trap["partial"]["of"], 10);
    let partial_svg = trap["partial"]["svg"].as_str().expect("svg");
    assert!(partial_svg.matches("data-id=\"").count() as u64 >= placed);
    let stats = api(&server, "/api/stats?flow=crypt&seeds=5");
    assert_eq!(
        (stats["seeds"].as_u64(), stats["succeeded"].as_u64()),
        (Some(5), Some(5))
    );
    // A seed that is not a number, an unknown flow: diagnostics, not errors.
    let bad = api(&server, "/api/level?flow=crypt&seed=x");
    assert_eq!(bad["diagnostics"][0]["code"], "serve::bad-seed");
    let unknown = api(&server, "/api/level?flow=crpyt");
    assert_eq!(unknown["diagnostics"][0]["code"], "project::unknown-flow");
    // A broken file: the diagnostic names file, line and column, with the
    // command line's text.
    edit(
        dir.path(),
        "rooms/vault.yaml",
        "category: reward",
        "category: [reward",
    );
    let deadline = Instant::now() + Duration::from_secs(5);
    let broken = loop {
        let p = api(&server, "/api/project");
        if p["diagnostics"].as_array().is_some_and(|d| !d.is_empty()) || Instant::now() > deadline {
            break p;
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let d = &broken["diagnostics"][0];
    assert_eq!(d["file"], "rooms/vault.yaml", "{d}");
    let place = format!("rooms/vault.yaml:{}:{}", d["line"], d["column"]);
    let text = d["text"].as_str().expect("text");
    assert!(
        text.contains(&place) && text.contains("category: [reward"),
        "{d}"
    );
}

#[test]
fn only_its_own_routes_are_served_for_local_hosts_and_nothing_writes() {
    let dir = example_project();
    std::fs::write(dir.path().join("secret.txt"), "top secret").expect("write");
    let before = walk(dir.path());
    let server = serve(dir.path());
    for path in [
        "/../../etc/passwd",
        "/%2e%2e/%2e%2e/etc/passwd",
        "/..%2f..%2f..%2fetc%2fpasswd",
        "/app.js/../../Cargo.toml",
        "//etc/passwd",
        "/secret.txt",
        "/flows/crypt.yaml",
        "/./secret.txt",
        "/%2fsecret.txt",
        "/api/../secret.txt",
        "/app.js%00.txt",
    ] {
        let reply = http::get(&server.addr, path);
        assert_eq!(reply.status, 404, "{path}");
        assert!(
            !reply.body.contains("root:")
                && !reply.body.contains("secret")
                && !reply.body.contains("nodes:"),
            "{path}: {}",
            reply.body
        );
    }
    for (path, kind) in [
        ("/", "text/html"),
        ("/app.js", "text/javascript"),
        ("/app.css", "text/css"),
    ] {
        let reply = http::get(&server.addr, path);
        assert_eq!(reply.status, 200, "{path}");
        assert!(
            reply
                .headers
                .iter()
                .any(|(k, v)| k == "content-type" && v.starts_with(kind))
        );
        assert!(
            reply
                .headers
                .iter()
                .any(|(k, _)| k == "content-security-policy")
        );
    }
    // Another host name (DNS rebinding) is refused on a loopback server.
    let reply = http::request(&server.addr, "GET", "/api/project", "evil.example", None);
    assert_eq!(reply.status, 421);
    for host in ["localhost", "localhost:1234", "[::1]:80"] {
        assert_eq!(
            http::request(&server.addr, "GET", "/", host, None).status,
            200,
            "{host}"
        );
    }
    for method in ["POST", "PUT", "DELETE"] {
        let reply = http::request(&server.addr, method, "/api/level", "127.0.0.1", Some("{}"));
        assert_eq!(reply.status, 405, "{method}");
    }
    assert_eq!(walk(dir.path()), before, "no file was written");
}

fn walk(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).expect("read") {
        let p = e.expect("entry").path();
        if p.is_dir() {
            out.extend(walk(&p));
        } else {
            out.push(p);
        }
    }
    out.sort();
    out
}

#[test]
fn the_event_stream_tells_of_a_change_and_a_slow_request_blocks_nothing() {
    let dir = example_project();
    let server = serve(dir.path());
    let mut stream = TcpStream::connect(&server.addr).expect("connects");
    stream
        .write_all(b"GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        .expect("send");
    stream
        .set_read_timeout(Some(Duration::from_secs(3)))
        .expect("timeout");
    let mut seen = String::new();
    let mut buf = [0u8; 512];
    while !seen.contains("event: hello") {
        let n = stream.read(&mut buf).expect("the hello event");
        seen += &String::from_utf8_lossy(&buf[..n]);
    }
    assert!(seen.contains("text/event-stream"), "{seen}");
    // A stats run of 1,000 seeds (the most) on its own connection...
    let addr = server.addr.clone();
    let slow = std::thread::spawn(move || http::get(&addr, "/api/stats?flow=crypt&seeds=999999"));
    std::thread::sleep(Duration::from_millis(100));
    // ...while the page still loads and the files change.
    assert_eq!(http::get(&server.addr, "/").status, 200);
    edit(
        dir.path(),
        "flows/crypt.yaml",
        "west: { chain: 1..2",
        "west: { chain: 3..3",
    );
    let start = Instant::now();
    while !seen.contains("event: change") {
        let n = stream.read(&mut buf).expect("a change event within 3 s");
        seen += &String::from_utf8_lossy(&buf[..n]);
    }
    assert!(
        start.elapsed() < Duration::from_secs(2),
        "{:?}",
        start.elapsed()
    );
    let level = api(&server, "/api/level?flow=crypt&seed=1");
    assert!(
        level["rooms"]
            .as_array()
            .expect("rooms")
            .iter()
            .any(|r| r["id"] == "west.3")
    );
    let stats: Value = serde_json::from_str(&slow.join().expect("stats").body).expect("json");
    assert_eq!(stats["seeds"], 1000, "the seed count is capped");
}

/// A ChromeDriver session.
struct Browser {
    driver: Child,
    addr: String,
    session: String,
}

impl Browser {
    fn start() -> Option<Browser> {
        if !suite::program(
            "chromedriver",
            "Debian: apt-get install chromium chromium-driver",
        ) {
            return None;
        }
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .expect("a free port")
            .local_addr()
            .expect("addr")
            .port();
        let driver = Command::new("chromedriver")
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromedriver starts");
        let addr = format!("127.0.0.1:{port}");
        let ready = Instant::now() + Duration::from_secs(20);
        while TcpStream::connect(&addr).is_err() {
            assert!(Instant::now() < ready, "chromedriver does not listen");
            std::thread::sleep(Duration::from_millis(50));
        }
        let binary = [
            "/usr/bin/chromium",
            "/usr/bin/chromium-browser",
            "/usr/bin/google-chrome",
        ]
        .into_iter()
        .find(|p| Path::new(p).exists());
        let mut options = json!({
            "args": ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1500,950"]
        });
        if let Some(b) = binary {
            options["binary"] = json!(b);
        }
        let caps = json!({"capabilities": {"alwaysMatch": {"browserName": "chrome", "goog:chromeOptions": options}}});
        let reply = http::request(
            &addr,
            "POST",
            "/session",
            "127.0.0.1",
            Some(&caps.to_string()),
        );
        let v: Value = serde_json::from_str(&reply.body).expect("json");
        let session = v["value"]["sessionId"]
            .as_str()
            .unwrap_or_else(|| panic!("no session: {}", reply.body))
            .to_owned();
        Some(Browser {
            driver,
            addr,
            session,
        })
    }

    fn post(&self, what: &str, body: Value) -> Value {
        let path = format!("/session/{}/{what}", self.session);
        let reply = http::request(
            &self.addr,
            "POST",
            &path,
            "127.0.0.1",
            Some(&body.to_string()),
        );
        serde_json::from_str::<Value>(&reply.body).expect("json")["value"].clone()
    }

    fn run(&self, script: &str) -> Value {
        self.post("execute/sync", json!({"script": script, "args": []}))
    }

    /// Polls `script` until `done` holds for its value, or `within` passes.
    fn wait(&self, within: Duration, script: &str, done: impl Fn(&Value) -> bool) -> Value {
        let deadline = Instant::now() + within;
        loop {
            let v = self.run(script);
            if done(&v) || Instant::now() > deadline {
                return v;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    fn screenshot(&self, to: &Path) {
        let path = format!("/session/{}/screenshot", self.session);
        let reply = http::get(&self.addr, &path);
        let v: Value = serde_json::from_str(&reply.body).expect("json");
        use base64::Engine;
        let png = base64::engine::general_purpose::STANDARD
            .decode(v["value"].as_str().expect("base64"))
            .expect("decodes");
        std::fs::write(to, png).expect("write the screenshot");
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        let path = format!("/session/{}", self.session);
        let _ = http::request(&self.addr, "DELETE", &path, "127.0.0.1", None);
        let _ = self.driver.kill();
        let _ = self.driver.wait();
    }
}

const STATE: &str = "return {state: document.body.dataset.state || '', \
    svg: document.querySelector('#level svg [data-id]') !== null, \
    summary: document.getElementById('summary').textContent, \
    diagnostics: document.getElementById('diagnostics').textContent, \
    written: document.querySelectorAll('#graph-written circle').length, \
    flows: [...document.querySelectorAll('#flow option')].map(o => o.value)};";

#[test]
fn the_page_in_a_real_browser_follows_edits_within_two_seconds() {
    let Some(browser) = Browser::start() else {
        return;
    };
    let dir = example_project();
    add_trap(dir.path());
    let server = serve(dir.path());
    browser.post(
        "url",
        json!({"url": format!("http://{}/?flow=crypt&seed=2", server.addr)}),
    );
    let first = browser.wait(Duration::from_secs(20), STATE, |v| {
        v["state"] == "level" && v["written"].as_u64() > Some(0)
    });
    assert_eq!(first["state"], "level", "{first}");
    assert_eq!(first["svg"], true, "the level SVG is drawn: {first}");
    assert_eq!(first["flows"], json!(["crypt", "trap"]));
    assert!(
        first["diagnostics"]
            .as_str()
            .expect("text")
            .contains("No problem found"),
        "{first}"
    );
    assert_eq!(first["written"], 6, "the flow as written has its six nodes");
    // Hovering a room shows its template and properties.
    browser.run("document.querySelector('#level svg [data-id=\"gate\"]').dispatchEvent(new MouseEvent('mouseover', {bubbles: true}));");
    let room = browser.run("return document.getElementById('room').textContent;");
    assert!(
        room.as_str()
            .is_some_and(|t| t.contains("gate") && t.contains("crypt_theme")),
        "{room}"
    );
    browser.run("document.getElementById('path').click();");
    let path = browser.run("return document.querySelectorAll('#level .path').length;");
    assert_eq!(path, 1, "the critical path is drawn");
    let shot = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/serve-page.png");
    browser.screenshot(&shot);
    // A flow that does not lay out: the rooms placed when it gave up.
    browser.run("const f = document.getElementById('flow'); f.value = 'trap'; f.dispatchEvent(new Event('change'));");
    let trap = browser.wait(Duration::from_secs(20), STATE, |v| v["state"] == "partial");
    assert_eq!(trap["state"], "partial", "{trap}");
    assert_eq!(trap["svg"], true, "{trap}");
    assert!(
        trap["summary"]
            .as_str()
            .is_some_and(|t| t.contains("of 10")),
        "{trap}"
    );
    assert!(
        trap["diagnostics"]
            .as_str()
            .is_some_and(|t| t.contains("layout::failed")),
        "{trap}"
    );
    browser
        .screenshot(&Path::new(env!("CARGO_MANIFEST_DIR")).join("target/serve-page-partial.png"));
    browser.run("const f = document.getElementById('flow'); f.value = 'crypt'; f.dispatchEvent(new Event('change'));");
    browser.wait(Duration::from_secs(20), STATE, |v| v["state"] == "level");
    // An edit on disk shows on the page within 2 s.
    edit(
        dir.path(),
        "flows/crypt.yaml",
        "west: { chain: 1..2",
        "west: { chain: 4..4",
    );
    let start = Instant::now();
    let after = browser.wait(Duration::from_secs(2), STATE, |v| {
        v["summary"] != first["summary"]
    });
    assert_ne!(
        after["summary"],
        first["summary"],
        "no change within {:?}",
        start.elapsed()
    );
    // A mistake shows in the diagnostics panel with file, line and column.
    edit(
        dir.path(),
        "rooms/vault.yaml",
        "category: reward",
        "category: [reward",
    );
    let shows = |v: &Value| {
        v["diagnostics"]
            .as_str()
            .is_some_and(|t| t.contains("╭─[rooms/vault.yaml:") && t.contains("category: [reward"))
    };
    let broken = browser.wait(Duration::from_secs(3), STATE, shows);
    assert!(shows(&broken), "{broken}");
    browser.screenshot(&Path::new(env!("CARGO_MANIFEST_DIR")).join("target/serve-page-error.png"));
}

#[test]
fn a_tree_that_cannot_be_laid_out_shows_the_rooms_placed_before() {
    // Two rooms whose only exits face up, corridors of 2 to 3 tiles: the
    // entrance lands, the next room never does.
    let dir = tempfile::tempdir().expect("tmp");
    std::fs::create_dir_all(dir.path().join("flows")).expect("mkdir");
    std::fs::create_dir_all(dir.path().join("rooms")).expect("mkdir");
    std::fs::write(
        dir.path().join("rooms/up.yaml"),
        "rooms:\n  - name: up_entrance\n    category: entrance\n    art: |\n      ##A##\n      #...#\n      #####\n  - name: up_room\n    category: normal\n    art: |\n      ##A##\n      #...#\n      #####\n",
    )
    .expect("write");
    std::fs::write(
        dir.path().join("flows/stuck.yaml"),
        "name: stuck\nlayout: { corridor: 2..3 }\nnodes:\n  start: entrance\n  next: normal\nedges:\n  - start -> next\n",
    )
    .expect("write");
    let server = serve(dir.path());
    let level = api(&server, "/api/level?flow=stuck&seed=1");
    assert_eq!(level["ok"], false);
    assert_eq!(
        (
            level["partial"]["rooms"].as_u64(),
            level["partial"]["of"].as_u64()
        ),
        (Some(1), Some(2))
    );
    // Either room may be the one placed (an attempt may start from either).
    let svg = level["partial"]["svg"].as_str().expect("svg");
    assert_eq!(svg.matches("data-id=").count(), 1, "{svg}");
}
