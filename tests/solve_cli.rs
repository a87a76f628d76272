//! `dungeonflow solve` and `generate --solve` as a user runs them, with the
//! walkthroughs of a few fixed levels pinned by insta snapshots.

use std::process::{Command, Output};

fn df(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_dungeonflow"))
        .args(args)
        .output()
        .expect("runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Generates `flow` at `seed` into a JSON file in `dir` and returns its path.
fn level_file(dir: &std::path::Path, flow: &str, seed: u64) -> String {
    let path = dir.join(format!("{flow}-{seed}.json"));
    let path = path.to_str().expect("utf-8").to_owned();
    let out = df(&["generate", flow, "--seed", &seed.to_string(), "-o", &path]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    path
}

/// Rewrites the level JSON at `path` as `edit` changes it.
fn edit_level(path: &str, edit: impl FnOnce(&mut serde_json::Value)) {
    let mut v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).expect("read")).expect("json");
    edit(&mut v);
    std::fs::write(path, v.to_string()).expect("write");
}

#[test]
fn solve_prints_the_walkthrough_of_generated_levels() {
    let dir = tempfile::tempdir().expect("tmp");
    for (flow, seed) in [
        ("keys_and_locks", 1),
        ("keys_and_locks", 7),
        ("nested", 1),
        ("classic", 2),
    ] {
        let path = level_file(dir.path(), flow, seed);
        let out = df(&["solve", &path]);
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        assert!(out.stderr.is_empty(), "{}", text(&out.stderr));
        insta::assert_snapshot!(format!("solve_{flow}_seed{seed}"), text(&out.stdout));
    }
}

#[test]
fn solve_with_key_levels() {
    let dir = tempfile::tempdir().expect("tmp");
    let flow = dir.path().join("tower.yaml");
    std::fs::write(
        &flow,
        "name: tower\ngenerator: nested_puzzle\nparams: { depth: 4, branching: 1..2, ordering: key_levels }\n",
    )
    .expect("write");
    let json = dir.path().join("tower.json");
    let out = df(&[
        "generate",
        flow.to_str().expect("utf-8"),
        "--seed",
        "3",
        "-o",
        json.to_str().expect("utf-8"),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let out = df(&["solve", json.to_str().expect("utf-8")]);
    assert_eq!(out.status.code(), Some(0));
    insta::assert_snapshot!("solve_tower_key_levels_seed3", text(&out.stdout));
}

#[test]
fn generate_solve_prints_the_walkthrough_after_the_level() {
    let out = df(&["generate", "keys_and_locks", "--seed", "1", "--solve"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let (level, walkthrough) = stdout
        .split_once("level `keys_and_locks`")
        .expect("a walkthrough");
    assert!(level.contains("legend:"), "the ASCII level comes first");
    let dir = tempfile::tempdir().expect("tmp");
    let path = level_file(dir.path(), "keys_and_locks", 1);
    let solved = text(&df(&["solve", &path]).stdout);
    assert_eq!(
        format!("level `keys_and_locks`{walkthrough}"),
        solved,
        "same as `solve`"
    );

    // With a file, the walkthrough still goes to stdout.
    let file = dir.path().join("x.png");
    let out = df(&[
        "generate",
        "nested",
        "--seed",
        "2",
        "--solve",
        "-o",
        file.to_str().expect("utf-8"),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains(": solvable\n"));

    // JSON on stdout stays parseable: the walkthrough goes to stderr.
    let out = df(&[
        "generate", "nested", "--seed", "2", "--solve", "--format", "json",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("only JSON on stdout");
    assert_eq!(v["generator"], "nested_puzzle");
    assert!(text(&out.stderr).contains("critical path:"));
}

#[test]
fn solve_reports_an_unsolvable_level_with_exit_3() {
    let dir = tempfile::tempdir().expect("tmp");
    let path = level_file(dir.path(), "keys_and_locks", 1);
    edit_level(&path, |v| {
        // Move the red key into the ossuary, behind the red door.
        for item in v["items"].as_array_mut().expect("items") {
            if item["id"] == "red" {
                item["room"] = "ossuary".into();
            }
        }
    });
    let out = df(&["solve", &path]);
    assert_eq!(out.status.code(), Some(3));
    let stdout = text(&out.stdout);
    assert!(stdout.contains("NOT SOLVABLE"), "{stdout}");
    assert!(
        stdout.contains("key `red` lies in `ossuary`, behind its own lock `court -> crypt.1`"),
        "{stdout}"
    );
    insta::assert_snapshot!("solve_unsolvable", stdout);
}

#[test]
fn solve_refuses_bad_files_with_a_diagnostic() {
    let dir = tempfile::tempdir().expect("tmp");
    let good = std::fs::read_to_string(level_file(dir.path(), "classic", 1)).expect("read");
    let v: serde_json::Value = serde_json::from_str(&good).expect("json");
    let mut wrong_format = v.clone();
    wrong_format["format"] = "dungeonflow-level/9".into();
    let mut unknown_room = v.clone();
    unknown_room["connections"][0]["to"] = "nowhere".into();
    let mut stray_item = v.clone();
    stray_item["items"] =
        serde_json::json!([{ "kind": "key", "id": "k", "room": "void", "x": 0, "y": 0 }]);
    let mut ragged = v.clone();
    ragged["tiles"][0] = "#".into();
    let mut no_rooms = v.clone();
    no_rooms["rooms"] = serde_json::json!([]);
    no_rooms["connections"] = serde_json::json!([]);
    no_rooms["items"] = serde_json::json!([]);
    let cases = [
        (
            "not_json",
            "this is not JSON".to_owned(),
            "not a level file",
        ),
        ("empty", String::new(), "not a level file"),
        ("array", "[1, 2]".to_owned(), "not a level file"),
        (
            "no_tiles",
            r#"{"format": "dungeonflow-level/1"}"#.to_owned(),
            "not a level file",
        ),
        (
            "wrong_format",
            wrong_format.to_string(),
            "expected `dungeonflow-level/1`",
        ),
        (
            "unknown_room",
            unknown_room.to_string(),
            "which is not in `rooms`",
        ),
        (
            "stray_item",
            stray_item.to_string(),
            "which is not in `rooms`",
        ),
        ("ragged", ragged.to_string(), "characters, the width is"),
        ("no_rooms", no_rooms.to_string(), "no rooms"),
    ];
    for (name, content, expected) in cases {
        let path = dir.path().join(format!("{name}.json"));
        std::fs::write(&path, content).expect("write");
        let out = df(&["solve", path.to_str().expect("utf-8")]);
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{name}: {stderr}");
        assert!(stderr.contains("solve::bad-level"), "{name}: {stderr}");
        // The message may be wrapped: compare without whitespace and margins.
        let squeeze = |s: &str| s.replace(|c: char| c.is_whitespace() || c == '│', "");
        assert!(
            squeeze(&stderr).contains(&squeeze(expected)),
            "{name}: {stderr}"
        );
        assert!(!stderr.contains("panicked"), "{name}: {stderr}");
        assert!(out.stdout.is_empty(), "{name}");
    }
    let out = df(&[
        "solve",
        dir.path().join("missing.json").to_str().expect("utf-8"),
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("solve::read"));
}

#[test]
fn solve_refuses_a_level_whose_first_room_is_not_the_entrance() {
    // The solver used to start from whatever room came first and invent
    // reasons for what it found.
    let dir = tempfile::tempdir().expect("tmp");
    let path = level_file(dir.path(), "fork", 1);
    edit_level(&path, |v| {
        v["rooms"].as_array_mut().expect("rooms").swap(0, 1)
    });
    let out = df(&["solve", &path]);
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(err.contains("solve::bad-level"), "{err}");
    assert!(err.contains("is its entrance"), "{err}");
    assert!(out.stdout.is_empty());
}
