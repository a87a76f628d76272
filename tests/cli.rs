//! The command line as a user runs it.

use std::collections::BTreeSet;
use std::process::Command;

fn df(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_dungeonflow"))
        .args(args)
        .output()
        .expect("runs")
}

/// Runs the binary and asserts it succeeded (showing its stderr if not).
fn df_ok(args: &[&str]) {
    let out = df(args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn validate_passes_on_bundled_content_and_fails_on_each_bad_file() {
    let ok = df(&["validate"]);
    assert!(
        ok.status.success(),
        "{}",
        String::from_utf8_lossy(&ok.stderr)
    );
    for dir in ["tests/bad/flows", "tests/bad/rooms"] {
        for entry in std::fs::read_dir(dir).expect("dir") {
            let path = entry.expect("entry").path();
            if path.to_string_lossy().ends_with("_b.yaml") {
                continue;
            }
            let mut args = vec!["validate".to_owned(), path.to_string_lossy().into_owned()];
            if let Some(partner) = path.to_string_lossy().strip_suffix("_a.yaml") {
                args.push(format!("{partner}_b.yaml"));
            }
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            let out = df(&args);
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(1), "{}: {stderr}", path.display());
            // Each diagnostic names the file with line:column.
            let located = stderr.lines().any(has_line_col);
            assert!(located, "{}: no line:column in\n{stderr}", path.display());
        }
    }
}

#[test]
fn validate_json_is_machine_readable() {
    let out = df(&[
        "validate",
        "--format",
        "json",
        "tests/bad/flows/10_no_entrance.yaml",
    ]);
    assert_eq!(out.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    let d = &v["diagnostics"][0];
    assert_eq!(d["code"], "flow::no-entrance");
    assert!(d["line"].as_u64().is_some() && d["column"].as_u64().is_some());
    assert!(
        d["file"]
            .as_str()
            .is_some_and(|f| f.ends_with("10_no_entrance.yaml"))
    );
}

#[test]
fn generate_json_follows_the_contract_and_writes_atomically() {
    let dir = tempfile::tempdir().expect("tmp");
    let path = dir.path().join("level.json");
    df_ok(&[
        "generate",
        "classic",
        "--seed",
        "4",
        "-o",
        path.to_str().expect("utf8"),
    ]);
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).expect("written")).expect("json");
    assert_eq!(v["format"], "dungeonflow-level/1");
    assert_eq!(v["generator"], "flow");
    assert_eq!(v["flow"], "classic");
    assert_eq!(v["seed"], 4);
    let (w, h) = (
        v["width"].as_u64().expect("w") as usize,
        v["height"].as_u64().expect("h") as usize,
    );
    let rows = v["tiles"].as_array().expect("tiles");
    assert_eq!(rows.len(), h);
    assert!(
        rows.iter()
            .all(|r| r.as_str().expect("row").chars().count() == w)
    );
    for kind in ["void", "wall", "floor", "door", "corridor"] {
        assert!(
            v["legend"]
                .as_object()
                .expect("legend")
                .values()
                .any(|k| k == kind),
            "legend lacks {kind}"
        );
    }
    for key in [
        "id", "category", "template", "x", "y", "width", "height", "cells",
    ] {
        assert!(v["rooms"][0].get(key).is_some(), "room lacks {key}");
    }
    for key in ["from", "to", "kind", "one_way", "lock", "path"] {
        assert!(
            v["connections"][0].get(key).is_some(),
            "connection lacks {key}"
        );
    }
    // Only the finished file is left in the folder: no temporary files.
    assert_eq!(std::fs::read_dir(dir.path()).expect("dir").count(), 1);
}

#[test]
fn generate_without_seed_prints_the_seed_it_used() {
    let out = df(&["generate"]);
    assert!(out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    let seed: u64 = stderr
        .split("--seed ")
        .nth(1)
        .and_then(|s| s.split_whitespace().next())
        .and_then(|s| s.parse().ok())
        .expect("seed printed");
    let again = df(&["generate", "--seed", &seed.to_string()]);
    assert_eq!(
        out.stdout, again.stdout,
        "the printed seed reproduces the level"
    );
}

#[test]
fn expand_prints_yaml_json_and_dot() {
    let yaml = df(&["expand", "classic", "--seed", "2"]);
    assert!(yaml.status.success());
    assert!(String::from_utf8_lossy(&yaml.stdout).contains("category: entrance"));
    let json = df(&["expand", "classic", "--seed", "2", "--format", "json"]);
    let v: serde_json::Value = serde_json::from_slice(&json.stdout).expect("json");
    assert!(v["rooms"].as_array().is_some_and(|r| r.len() >= 15));
    let dot = df(&["expand", "classic", "--seed", "2", "--format", "dot"]);
    assert!(String::from_utf8_lossy(&dot.stdout).starts_with("digraph"));
}

#[test]
fn unknown_flow_is_a_diagnostic_with_a_suggestion() {
    let out = df(&["generate", "clasic"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("did you mean `classic`"));
}

/// Whether a line holds `FILE.yaml:LINE:COLUMN`.
#[test]
fn generate_writes_png_and_svg_by_extension_or_flag() {
    let dir = tempfile::tempdir().expect("temp dir");
    let png = dir.path().join("level.png");
    let svg = dir.path().join("level.svg");
    for (path, extra) in [(&png, "--labels"), (&svg, "--graph")] {
        let out = df(&[
            "generate",
            "--seed",
            "4",
            extra,
            "-o",
            path.to_str().expect("utf-8 path"),
        ]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let bytes = std::fs::read(&png).expect("png written");
    assert!(bytes.starts_with(b"\x89PNG\r\n\x1a\n"));
    let text = std::fs::read_to_string(&svg).expect("svg written");
    assert!(text.starts_with("<svg") && text.contains("class=\"graph\""));
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&png).expect("meta").permissions().mode();
        assert_eq!(mode & 0o777, 0o644, "a new file is readable by others");
    }
    // Piped (not a terminal), PNG bytes may go to stdout.
    let piped = df(&["generate", "--seed", "4", "--format", "png"]);
    assert!(piped.status.success());
    assert!(piped.stdout.starts_with(b"\x89PNG"));
}

#[test]
fn an_output_extension_no_format_writes_is_refused_before_any_work() {
    let dir = tempfile::tempdir().expect("temp dir");
    let ldtk = dir.path().join("level.ldtk");
    let out = df(&[
        "generate",
        "--seed",
        "4",
        "-o",
        ldtk.to_str().expect("utf-8"),
    ]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("render::unknown-extension"), "{stderr}");
    assert!(stderr.contains(".tmj"), "{stderr}");
    assert!(!ldtk.exists(), "nothing is written");
    assert_eq!(std::fs::read_dir(dir.path()).expect("dir").count(), 0);
    // A format named on the command line wins over the extension.
    df_ok(&[
        "generate",
        "--seed",
        "4",
        "--format",
        "json",
        "-o",
        ldtk.to_str().expect("utf-8"),
    ]);
    let text = std::fs::read_to_string(&ldtk).expect("written");
    assert!(text.contains("dungeonflow-level/1"));
    // An unknown --format is refused with the known ones listed.
    let out = df(&["generate", "--format", "ldtk"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("possible values: ascii, json"));
}

#[test]
fn generate_tiled_writes_the_map_and_its_tileset_beside_it() {
    let dir = tempfile::tempdir().expect("temp dir");
    let map = dir.path().join("crypt.tmj");
    generate_seed_2(&map);
    let json: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&map).expect("map")).expect("json");
    assert_eq!(json["tilesets"][0]["image"], "crypt.tileset.png");
    let tileset = std::fs::read(dir.path().join("crypt.tileset.png")).expect("tileset");
    assert!(tileset.starts_with(b"\x89PNG"));
    needs_a_file("tiled");
}

/// Generates the default flow, seed 2, into `path`.
fn generate_seed_2(path: &std::path::Path) {
    df_ok(&[
        "generate",
        "--seed",
        "2",
        "-o",
        path.to_str().expect("utf-8"),
    ]);
}

/// A format with files beside the map cannot go to stdout: there is
/// nowhere to put them.
fn needs_a_file(format: &str) {
    let to_stdout = df(&["generate", "--seed", "2", "--format", format]);
    assert_eq!(to_stdout.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&to_stdout.stderr).contains("cli::needs-file"));
}

#[test]
fn generate_tmx_writes_the_map_its_tsx_tileset_and_the_image() {
    let dir = tempfile::tempdir().expect("temp dir");
    let map = dir.path().join("crypt.tmx");
    generate_seed_2(&map);
    let xml = std::fs::read_to_string(&map).expect("map");
    let doc = roxmltree::Document::parse(&xml).expect("the map is XML");
    let tileset = doc
        .descendants()
        .find(|n| n.has_tag_name("tileset"))
        .expect("a tileset");
    assert_eq!(tileset.attribute("source"), Some("crypt.tsx"));
    let tsx = std::fs::read_to_string(dir.path().join("crypt.tsx")).expect("tsx");
    let tsx = roxmltree::Document::parse(&tsx).expect("the tileset is XML");
    let image = tsx
        .descendants()
        .find(|n| n.has_tag_name("image"))
        .expect("an image");
    assert_eq!(image.attribute("source"), Some("crypt.tileset.png"));
    let png = std::fs::read(dir.path().join("crypt.tileset.png")).expect("image");
    assert!(png.starts_with(b"\x89PNG"));
    assert_eq!(std::fs::read_dir(dir.path()).expect("dir").count(), 3);
    needs_a_file("tmx");
}

fn has_line_col(line: &str) -> bool {
    line.split(".yaml:").skip(1).any(|rest| {
        let mut parts = rest.splitn(3, ':');
        let digits = |s: Option<&str>| {
            s.is_some_and(|s| {
                !s.is_empty() && s.chars().take_while(char::is_ascii_digit).count() > 0
            })
        };
        digits(parts.next()) && digits(parts.next())
    })
}

#[test]
fn isaac_floors_print_a_minimap_and_other_levels_refuse_one() {
    let out = df(&[
        "generate",
        "isaac_rebirth",
        "--seed",
        "3",
        "--format",
        "minimap",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    insta::assert_snapshot!(String::from_utf8_lossy(&out.stdout));
    let out = df(&["generate", "classic", "--seed", "3", "--format", "minimap"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("render::minimap-isaac-only"));
}

#[cfg(unix)]
#[test]
fn an_output_that_is_a_pipe_or_a_link_is_written_through_not_replaced() {
    use std::os::unix::fs::FileTypeExt;
    let dir = tempfile::tempdir().expect("tmp");

    // A FIFO (like /dev/null, not a regular file): renaming a temporary
    // file over it would replace it, and its reader would never see a byte.
    let fifo = dir.path().join("level.pipe");
    let made = Command::new("mkfifo").arg(&fifo).status().expect("mkfifo");
    assert!(made.success());
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || std::fs::read_to_string(fifo).expect("read the pipe"))
    };
    df_ok(&[
        "generate",
        "classic",
        "--seed",
        "4",
        "--format",
        "json",
        "-o",
        fifo.to_str().expect("utf8"),
    ]);
    let meta = std::fs::symlink_metadata(&fifo).expect("still there");
    assert!(
        meta.file_type().is_fifo(),
        "replaced by {:?}",
        meta.file_type()
    );
    let text = reader.join().expect("reader");
    let v: serde_json::Value = serde_json::from_str(&text).expect("json through the pipe");
    assert_eq!(v["seed"], 4);

    // A symbolic link to a file stays a link; its file gets the level.
    let file = dir.path().join("real.txt");
    std::fs::write(&file, "old").expect("write");
    let link = dir.path().join("link.txt");
    std::os::unix::fs::symlink(&file, &link).expect("symlink");
    let out = df(&[
        "generate",
        "classic",
        "--seed",
        "4",
        "-o",
        link.to_str().expect("utf8"),
    ]);
    assert!(out.status.success());
    assert!(
        std::fs::symlink_metadata(&link)
            .expect("link")
            .file_type()
            .is_symlink()
    );
    assert!(
        std::fs::read_to_string(&file)
            .expect("file")
            .contains("seed 4")
    );
}

#[test]
fn stats_refuses_seed_and_thread_counts_out_of_range() {
    // 2^64 - 1 seeds panicked allocating; 4,000 threads took 20 s and 457 MB.
    for (args, what) in [
        (["--seeds", "18446744073709551615"], "1..=1000000"),
        (["--seeds", "0"], "1..=1000000"),
        (["--threads", "4000"], "1..=256"),
    ] {
        let out = df(&["stats", "classic", args[0], args[1]]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(what), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
    df_ok(&["stats", "classic", "--seeds", "2", "--threads", "1"]);
}

#[test]
fn stats_of_a_flow_that_never_lays_out_says_no_level_and_exits_1() {
    // Seven boss rooms, six boss templates: no seed expands.
    let dir = tempfile::tempdir().expect("tmp");
    let bosses: String = (1..=7).map(|i| format!("  b{i}: boss\n")).collect();
    let chain: Vec<String> = (1..=7).map(|i| format!("b{i}")).collect();
    let flow = dir.path().join("bosses.yaml");
    std::fs::write(
        &flow,
        format!(
            "name: bosses\nnodes:\n  start: entrance\n{bosses}edges:\n  - start -> {}\n",
            chain.join(" -> ")
        ),
    )
    .expect("write");
    let path = flow.to_string_lossy();
    let out = df(&["stats", &path, "--seeds", "3", "--threads", "1"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(text.contains("0 of 3 seeds laid out"), "{text}");
    assert!(text.contains("no level"), "{text}");
    assert!(!text.contains("time per level"), "{text}");
    let out = df(&["stats", &path, "--seeds", "3", "--json"]);
    assert_eq!(out.status.code(), Some(1));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(json["succeeded"], 0);
}

#[test]
fn a_flow_path_runs_that_file_or_fails_with_its_own_diagnostic() {
    // `mine/fork.yaml` shares its stem with the bundled `fork`: a broken
    // copy used to run the bundled flow silently, with exit 0.
    let dir = tempfile::tempdir().expect("tmp");
    let path = |name: &str| dir.path().join(name).display().to_string();
    std::fs::write(path("fork.yaml"), "name: [unclosed\n").expect("written");
    std::fs::write(path("latin1.yaml"), b"name: caf\xe9\n").expect("written");
    std::fs::write(
        path("mine.yaml"),
        "name: renamed\nnodes:\n  a: entrance\n  b: boss\nedges:\n  - a -> b\n",
    )
    .expect("written");
    for (file, code) in [
        ("fork.yaml", "yaml::syntax"),
        ("latin1.yaml", "io::not-utf8"),
        ("missing.yaml", "project::unreadable-flow"),
    ] {
        for command in ["generate", "expand", "stats"] {
            let out =
                df(&[command, &path(file), "--seed", "1"]
                    [..if command == "stats" { 2 } else { 4 }]);
            let err = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(1), "{command} {file}: {err}");
            assert!(err.contains(code), "{command} {file}: {err}");
            assert!(out.stdout.is_empty(), "{command} {file} printed a level");
        }
    }
    // A valid file runs whatever its `name:`.
    let out = df(&["generate", &path("mine.yaml"), "--seed", "1"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("flow `renamed`"));
}

/// Runs the binary with its standard output sent to `out`.
fn df_into(args: &[&str], out: std::process::Stdio) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_dungeonflow"))
        .args(args)
        .stdout(out)
        .output()
        .expect("runs")
}

#[test]
fn a_full_disk_on_stdout_is_an_error_not_a_panic_or_a_silent_loss() {
    if !std::path::Path::new("/dev/full").exists() {
        eprintln!("skipped: this system has no /dev/full");
        return;
    }
    for args in [
        &["generate", "classic", "--seed", "1"][..],
        &["generate", "classic", "--seed", "1", "--format", "json"],
        &["expand", "classic", "--seed", "1"],
        &["schema", "flow"],
        &["validate", "--format", "json"],
        &["stats", "fork", "--seeds", "2"],
    ] {
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .expect("/dev/full opens");
        let out = df_into(args, full.into());
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {stderr}");
        assert!(
            stderr.contains("cli::write-failed") && !stderr.contains("panicked"),
            "{args:?}: {stderr}"
        );
    }
}

#[test]
fn a_reader_that_stops_early_ends_the_command_quietly() {
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_dungeonflow"))
        .args(["expand", "classic", "--seed", "1", "--format", "json"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("runs");
    // The reader goes away before reading anything: the write hits a
    // closed pipe.
    drop(child.stdout.take());
    let out = child.wait_with_output().expect("ends");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(stderr.is_empty(), "{stderr}");
}

#[test]
fn an_output_naming_an_input_file_is_refused_and_the_input_kept() {
    let dir = tempfile::tempdir().expect("tempdir");
    let flow = dir.path().join("mine.yaml");
    let text = std::fs::read_to_string("flows/fork.yaml")
        .expect("bundled fork")
        .replace("name: fork", "name: mine");
    std::fs::write(&flow, &text).expect("written");
    // The same file by another spelling of its path (`--format`: a
    // `.yaml` output is otherwise refused for its extension).
    let other = dir.path().join(".").join("mine.yaml");
    let out = df(&[
        "generate",
        flow.to_str().expect("utf-8"),
        "--seed",
        "1",
        "--format",
        "json",
        "-o",
        other.to_str().expect("utf-8"),
    ]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("cli::output-is-input"), "{stderr}");
    assert_eq!(std::fs::read_to_string(&flow).expect("kept"), text);
}

#[cfg(unix)]
#[test]
fn fifos_devices_and_folder_loops_in_a_project_end_with_a_diagnostic() {
    // A FIFO named `*.yaml` used to block every command; a link back to
    // the project made the folder walk go round; /dev/zero was read
    // until memory ran out.
    let dir = tempfile::tempdir().expect("tmp");
    let project = dir.path();
    std::fs::create_dir_all(project.join("flows")).expect("flows");
    std::fs::create_dir_all(project.join("rooms")).expect("rooms");
    std::os::unix::fs::symlink(project, project.join("rooms/back")).expect("link");
    let made = Command::new("mkfifo")
        .arg(project.join("flows/pipe.yaml"))
        .status()
        .is_ok_and(|s| s.success());
    let out = df(&["validate", &project.display().to_string()]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("io::folder-loop"), "{err}");
    if made {
        assert_eq!(out.status.code(), Some(1), "{err}");
        assert!(err.contains("io::not-a-file"), "{err}");
    } else {
        eprintln!("note: mkfifo is missing; the FIFO case was skipped");
    }
    for args in [&["validate", "/dev/zero"][..], &["solve", "/dev/zero"]] {
        let out = df(args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
        assert!(err.contains("not a regular file"), "{args:?}: {err}");
    }
}

/// `generate fork --seed 1 -o PATH`.
fn generate_to(path: &std::path::Path) -> std::process::Output {
    df(&[
        "generate",
        "fork",
        "--seed",
        "1",
        "-o",
        &path.display().to_string(),
    ])
}

#[cfg(unix)]
#[test]
fn a_replaced_output_keeps_its_owner() {
    use std::os::unix::fs::MetadataExt;
    let dir = tempfile::tempdir().expect("tmp");
    let theirs = dir.path().join("theirs.json");
    std::fs::write(&theirs, "theirs").expect("written");
    // Only the superuser can make a file someone else's (and give the
    // level back to them); others have nothing to check here.
    if std::os::unix::fs::chown(&theirs, Some(4242), Some(4242)).is_err() {
        use std::io::Write;
        let _ = writeln!(
            std::io::stderr().lock(),
            "note: skipped a_replaced_output_keeps_its_owner: not run by the superuser"
        );
        return;
    }
    let out = generate_to(&theirs);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let level = std::fs::read_to_string(&theirs).expect("replaced");
    assert!(level.contains("dungeonflow-level/1"));
    let meta = std::fs::metadata(&theirs).expect("there");
    assert_eq!((meta.uid(), meta.gid()), (4242, 4242));
}

#[cfg(unix)]
#[test]
fn a_read_only_output_is_kept_and_a_dangling_link_is_followed() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().expect("tmp");
    // A read-only file is kept.
    let kept = dir.path().join("kept.json");
    std::fs::write(&kept, "mine").expect("written");
    std::fs::set_permissions(&kept, std::fs::Permissions::from_mode(0o444)).expect("chmod");
    let out = generate_to(&kept);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("io::read-only"), "{err}");
    assert_eq!(std::fs::read_to_string(&kept).expect("still there"), "mine");
    // A link to a file not made yet: the level goes where it points and
    // the link stays a link.
    std::fs::create_dir(dir.path().join("there")).expect("folder");
    let link = dir.path().join("link.json");
    std::os::unix::fs::symlink("there/level.json", &link).expect("link");
    let out = generate_to(&link);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(link.is_symlink());
    let level = std::fs::read_to_string(dir.path().join("there/level.json")).expect("made");
    assert!(level.contains("dungeonflow-level/1"));
}

/// Runs the binary in the folder `dir`.
fn df_in(dir: &std::path::Path, args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_dungeonflow"))
        .current_dir(dir)
        .args(args)
        .output()
        .expect("runs")
}

/// A project folder with one room template of each category the flow uses
/// but the boss, and a flow `lair` of an entrance, two normal rooms and a
/// boss.
fn own_project(dir: &std::path::Path) {
    std::fs::create_dir_all(dir.join("flows")).expect("flows/");
    std::fs::create_dir_all(dir.join("rooms")).expect("rooms/");
    std::fs::write(
        dir.join("rooms/mine.yaml"),
        "rooms:\n  - name: my_gate\n    category: entrance\n    art: |\n      ##A##\n      #...#\n      B...C\n      #...#\n      ##D##\n  - name: my_cell\n    category: normal\n    art: |\n      ##A##\n      #...#\n      B...C\n      #...#\n      ##D##\n",
    )
    .expect("rooms");
    std::fs::write(
        dir.join("flows/lair.yaml"),
        "name: lair\nlayout: { reuse_templates: true }\nnodes:\n  gate: entrance\n  a: normal\n  b: normal\n  boss: { category: boss, optional: true }\nedges:\n  - gate -> a -> b -> boss\n",
    )
    .expect("flow");
}

#[test]
fn a_project_uses_only_its_own_rooms_unless_it_asks_for_the_bundled_ones() {
    let dir = tempfile::tempdir().expect("tmp");
    own_project(dir.path());
    // No `classic` here: `generate` runs the project's only flow, from its
    // own rooms (the optional boss has no template of its own: dropped).
    for seed in ["1", "2", "3"] {
        let out = df_in(
            dir.path(),
            &["generate", "--seed", seed, "--format", "json"],
        );
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let level: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
        assert_eq!(level["flow"], "lair");
        let templates: BTreeSet<&str> = level["rooms"]
            .as_array()
            .expect("rooms")
            .iter()
            .map(|r| r["template"].as_str().expect("template"))
            .collect();
        assert_eq!(
            templates,
            BTreeSet::from(["my_gate", "my_cell"]),
            "seed {seed}"
        );
    }
    // Asked for, the bundled rooms fill the boss in: by flag or project file.
    let bundled_boss = |out: std::process::Output| {
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let level: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
        level["rooms"]
            .as_array()
            .expect("rooms")
            .iter()
            .any(|r| r["category"] == "boss")
    };
    let args = ["generate", "lair", "--seed", "1", "--format", "json"];
    assert!(bundled_boss(df_in(
        dir.path(),
        &[&args[..], &["--bundled"]].concat()
    )));
    // From elsewhere, with `-p`, the same.
    let elsewhere = tempfile::tempdir().expect("tmp");
    let p = dir.path().display().to_string();
    let with_p = ["generate", "lair", "-p", &p, "--format", "json"];
    assert!(!bundled_boss(df_in(elsewhere.path(), &with_p)));
    std::fs::write(dir.path().join("dungeonflow.yaml"), "bundled: true\n").expect("written");
    assert!(bundled_boss(df_in(dir.path(), &args)));
    assert!(bundled_boss(df_in(elsewhere.path(), &with_p)));
    // `validate` names the bundled templates the flow may draw from.
    let out = df_in(dir.path(), &["validate"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(
        err.contains("note: flow `lair` may draw from") && err.contains("boss_crypt"),
        "{err}"
    );
    assert!(
        !err.contains("my_cell"),
        "only bundled ones are named: {err}"
    );
}

#[test]
fn without_the_bundled_rooms_a_missing_category_says_how_to_get_them() {
    // (Run inside the project: the crate's own folder holds `flows/` and
    // `rooms/`, copies of the bundled content.)
    let dir = tempfile::tempdir().expect("tmp");
    own_project(dir.path());
    std::fs::write(
        dir.path().join("flows/lair.yaml"),
        "name: lair\nnodes:\n  gate: entrance\n  boss: boss\nedges:\n  - gate -> boss\n",
    )
    .expect("flow");
    let out = df_in(dir.path(), &["validate"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("flow::no-template"), "{err}");
    assert!(err.contains("bundled: true"), "{err}");
    assert!(
        df_in(dir.path(), &["validate", "--bundled"])
            .status
            .success()
    );
    // A mistake in the project file is reported once, with its place, and
    // stops the commands that generate too.
    std::fs::write(dir.path().join("dungeonflow.yaml"), "bundeld: true\n").expect("written");
    for args in [
        &["validate"][..],
        &["validate", "."],
        &["generate", "--seed", "1"],
    ] {
        let out = df_in(dir.path(), args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
        assert_eq!(
            err.matches("unknown field `bundeld`").count(),
            1,
            "{args:?}: {err}"
        );
        assert!(err.contains("dungeonflow.yaml:1:1"), "{err}");
    }
}

#[test]
fn a_lone_flow_file_draws_from_the_bundled_rooms_in_validate_as_in_generate() {
    let dir = tempfile::tempdir().expect("tmp");
    std::fs::write(
        dir.path().join("solo.yaml"),
        "name: solo\nnodes:\n  a: entrance\n  b: normal\n  c: boss\nedges:\n  - a -> b -> c\n",
    )
    .expect("written");
    for command in ["validate", "generate"] {
        let out = df_in(dir.path(), &[command, "solo.yaml"]);
        assert!(
            out.status.success(),
            "{command}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}
