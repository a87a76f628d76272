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
