//! `import-edgar`: a graph and a room set in Edgar's format become a flow
//! and templates that validate and lay out; hostile or malformed inputs
//! end in a diagnostic with exit 1 and write nothing.

use std::path::Path;
use std::process::{Command, Output};

fn df(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_dungeonflow"))
        .args(args)
        .output()
        .expect("the binary runs")
}

const ROOMS: &str = "name: shapes
default:
  doorMode: !OverlapMode
    doorLength: 1
    cornerDistance: 1
roomDescriptions:
  square:
    shape: [[0,0], [0,8], [8,8], [8,0]]
  wide:
    shape: [[0,0], [0,6], [12,6], [12,0]]
";

/// A ring of four rooms with a branch, every room of set `shapes`.
const GRAPH: &str = "roomsRange:
  from: 0
  to: 4
passages:
  - [0,1]
  - [1,2]
  - [2,3]
  - [3,0]
  - [2,4]
defaultRoomShapes:
  -
    setName: shapes
";

/// Writes `graph` as `name` and the room set beside it, imports them into
/// `out/` and returns the command's output.
fn import(dir: &Path, name: &str, graph: &str, rooms: &str) -> Output {
    let (g, r) = (dir.join(name), dir.join("shapes.yml"));
    std::fs::write(&g, graph).expect("graph written");
    std::fs::write(&r, rooms).expect("rooms written");
    let out = dir.join("out");
    df(&[
        "import-edgar",
        &g.display().to_string(),
        &r.display().to_string(),
        "-o",
        &out.display().to_string(),
    ])
}

#[test]
fn an_edgar_graph_imports_to_a_project_that_lays_out() {
    let dir = tempfile::tempdir().expect("tmp");
    // A file name that is no valid flow name, with YAML's special characters.
    let out = import(dir.path(), "my \"ring\": v2.yml", GRAPH, ROOMS);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    let project = dir.path().join("out");
    let flows: Vec<_> = std::fs::read_dir(project.join("flows"))
        .expect("flows written")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(flows.len(), 1, "{flows:?}");
    let name = flows[0].trim_end_matches(".yaml").to_owned();
    assert!(
        name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'),
        "{name}"
    );
    let p = project.display().to_string();
    let validated = df(&["validate", &p]);
    assert!(
        validated.status.success(),
        "{}",
        String::from_utf8_lossy(&validated.stderr)
    );
    let generated = df(&["generate", &name, "-p", &p, "--seed", "3"]);
    let text = String::from_utf8_lossy(&generated.stdout);
    assert!(
        generated.status.success(),
        "{}",
        String::from_utf8_lossy(&generated.stderr)
    );
    assert!(text.contains("5 rooms"), "{text}");
}

#[test]
fn hostile_edgar_inputs_end_in_a_diagnostic_and_write_nothing() {
    let door = ROOMS.replace("doorLength: 1", "doorLength: 2147483647");
    let huge = ROOMS.replace("[12,6], [12,0]", "[400,6], [400,0]");
    let negative = ROOMS.replace("[[0,0], [0,8]", "[[-4,0], [-4,8]");
    let cases: [(&str, String, &str, &str); 5] = [
        ("door length", GRAPH.to_owned(), door.as_str(), "doorLength"),
        (
            "rooms range",
            GRAPH.replace("to: 4", "to: 2000000000"),
            ROOMS,
            "roomsRange",
        ),
        (
            "passage outside the range",
            GRAPH.replace("[2,4]", "[2,9]"),
            ROOMS,
            "outside `roomsRange`",
        ),
        (
            "unknown set",
            GRAPH.replace("setName: shapes", "setName: shapez"),
            ROOMS,
            "`shapez`",
        ),
        (
            "huge shape",
            GRAPH.to_owned(),
            huge.as_str(),
            "outside 0..128",
        ),
    ];
    for (what, graph, rooms, says) in cases.into_iter().chain([(
        "negative corner",
        GRAPH.to_owned(),
        negative.as_str(),
        "outside 0..128",
    )]) {
        let dir = tempfile::tempdir().expect("tmp");
        let out = import(dir.path(), "g.yml", &graph, rooms);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{what}: {err}");
        assert!(err.contains(says), "{what}: {err}");
        assert!(
            err.contains("g.yml") || err.contains("shapes.yml"),
            "{what}: {err}"
        );
        assert!(!dir.path().join("out").exists(), "{what}: files written");
    }
}

#[test]
fn an_import_that_would_not_validate_writes_nothing() {
    // Two shapes whose names slug to the same template name.
    let rooms = ROOMS
        .replace("  wide:", "  squ-are:")
        .replace("  square:", "  squ_are:");
    let dir = tempfile::tempdir().expect("tmp");
    let graph = GRAPH.to_owned();
    let out = import(dir.path(), "g.yml", &graph, &rooms);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("edgar::invalid-import"), "{err}");
    assert!(!dir.path().join("out").exists(), "files written");
}

/// A second room set, `more`, with one shape.
const MORE: &str = "name: more
default:
  doorMode: !OverlapMode
    doorLength: 1
    cornerDistance: 1
roomDescriptions:
  tall:
    shape: [[0,0], [0,12], [6,12], [6,0]]
";

/// Imports `graph` with the room set files `sets` (name, text) into `out/`.
fn import_sets(dir: &Path, graph: &str, sets: &[(&str, &str)]) -> Output {
    let g = dir.join("g.yml");
    std::fs::write(&g, graph).expect("graph written");
    let mut args = vec!["import-edgar".to_owned(), g.display().to_string()];
    for (name, text) in sets {
        let file = dir.join(name);
        std::fs::write(&file, text).expect("set written");
        args.push(file.display().to_string());
    }
    args.extend(["-o".to_owned(), dir.join("out").display().to_string()]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    df(&args)
}

#[test]
fn every_room_set_a_graph_lists_is_used_and_each_must_be_given() {
    let graph = format!("{GRAPH}  -\n    setName: more\n");
    let dir = tempfile::tempdir().expect("tmp");
    let out = import_sets(
        dir.path(),
        &graph,
        &[("shapes.yml", ROOMS), ("more.yml", MORE)],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let flow = std::fs::read_to_string(dir.path().join("out/flows/g.yaml")).expect("flow");
    for line in flow.lines().filter(|l| l.contains("pool:")) {
        for shape in ["square", "wide", "tall"] {
            assert!(
                line.contains(&format!("g_{shape}")),
                "{shape} missing: {line}"
            );
        }
    }
    // The second set named and not given: an error naming it, no files.
    let dir = tempfile::tempdir().expect("tmp");
    let out = import_sets(dir.path(), &graph, &[("shapes.yml", ROOMS)]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("`more`"), "{err}");
    assert!(!dir.path().join("out").exists(), "files written");
}

#[test]
fn a_room_with_no_shape_is_an_error_not_a_fallback() {
    let graph = format!("{GRAPH}rooms:\n  4:\n    roomShapes: []\n");
    let dir = tempfile::tempdir().expect("tmp");
    let out = import_sets(dir.path(), &graph, &[("shapes.yml", ROOMS)]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("room 4 has no room shape"), "{err}");
    assert!(!dir.path().join("out").exists(), "files written");
}

#[test]
fn edgar_corridors_left_out_are_a_warning_naming_the_section() {
    let graph = format!("{GRAPH}corridors:\n  enable: true\n  offsets: [2]\n");
    let dir = tempfile::tempdir().expect("tmp");
    let out = import_sets(dir.path(), &graph, &[("shapes.yml", ROOMS)]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(err.contains("edgar::corridors-ignored"), "{err}");
    assert!(err.contains("g.yml:"), "{err}");
    // Without the section, no warning.
    let dir = tempfile::tempdir().expect("tmp");
    let out = import_sets(dir.path(), GRAPH, &[("shapes.yml", ROOMS)]);
    assert!(!String::from_utf8_lossy(&out.stderr).contains("corridors-ignored"));
}
