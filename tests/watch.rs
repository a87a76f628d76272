//! `watch`: the level is written again after each change of a flow or room
//! file, with file events and with polling; a broken file leaves the last
//! good level in place and says why.

use std::io::Read;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

#[path = "support/example_project.rs"]
mod example;
use example::{edit, example_project};

/// The watching process, killed when dropped (a failed assertion too).
struct Watching(Option<Child>);

impl Watching {
    /// Stops it and returns what it printed on stderr.
    fn stop(mut self) -> String {
        let mut child = self.0.take().expect("running");
        let _ = child.kill();
        let mut err = String::new();
        if let Some(mut stderr) = child.stderr.take() {
            stderr.read_to_string(&mut err).expect("read");
        }
        let _ = child.wait();
        err
    }
}

impl Drop for Watching {
    fn drop(&mut self) {
        if let Some(child) = &mut self.0 {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

fn start(dir: &Path, extra: &[&str]) -> Watching {
    let mut args = vec!["watch", "crypt", "-o", "level.json", "--seed", "3"];
    args.extend(extra);
    Watching(Some(
        Command::new(env!("CARGO_BIN_EXE_dungeonflow"))
            .current_dir(dir)
            .args(&args)
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("starts"),
    ))
}

/// Waits up to `within` for `ready`, checking every 20 ms.
fn wait_for(within: Duration, mut ready: impl FnMut() -> bool) -> bool {
    let start = Instant::now();
    while start.elapsed() < within {
        if ready() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    false
}

fn rooms_in(file: &Path) -> Option<usize> {
    let text = std::fs::read_to_string(file).ok()?;
    let v: serde_json::Value = serde_json::from_str(&text).ok()?;
    v["rooms"].as_array().map(Vec::len)
}

fn follows_edits(extra: &[&str]) {
    let dir = example_project();
    let out = dir.path().join("level.json");
    let watching = start(dir.path(), extra);
    assert!(
        wait_for(Duration::from_secs(20), || rooms_in(&out).is_some()),
        "the first level is written"
    );
    let first = rooms_in(&out).expect("rooms");
    // A longer chain: more rooms, within 2 s of the save.
    edit(
        dir.path(),
        "flows/crypt.yaml",
        "west: { chain: 1..2",
        "west: { chain: 4..4",
    );
    assert!(
        wait_for(Duration::from_secs(2), || rooms_in(&out)
            .is_some_and(|n| n > first)),
        "the level follows the edit within 2 s ({first} rooms before)"
    );
    let good = std::fs::read(&out).expect("level");
    // A broken room file: the level stays, the error is printed.
    let room = dir.path().join("rooms/vault.yaml");
    let mut broken = std::fs::read_to_string(&room).expect("room");
    broken += "bad: [\n";
    std::fs::write(&room, broken).expect("break");
    std::thread::sleep(Duration::from_millis(1500));
    assert_eq!(
        std::fs::read(&out).expect("level"),
        good,
        "the last good level stays"
    );
    let err = watching.stop();
    assert!(
        err.contains("[1] wrote level.json: flow `crypt` seed 3"),
        "{err}"
    );
    assert!(err.contains("[2] wrote level.json"), "{err}");
    assert!(
        err.contains("no level") && err.contains("unclosed bracket"),
        "{err}"
    );
    assert!(err.contains("rooms/vault.yaml:"), "{err}");
}

#[test]
fn file_events_regenerate_the_level_after_each_save() {
    follows_edits(&[]);
}

#[test]
fn polling_regenerates_the_level_too() {
    follows_edits(&["--poll"]);
}

#[test]
fn a_bad_output_extension_is_refused_at_once() {
    let dir = example_project();
    let out = Command::new(env!("CARGO_BIN_EXE_dungeonflow"))
        .current_dir(dir.path())
        .args(["watch", "crypt", "-o", "level.xyz"])
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("render::unknown-extension"));
}
