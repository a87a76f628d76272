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
    import_sets_with(dir, graph, sets, &[])
}

/// [`import_sets`] with more arguments to `import-edgar`.
fn import_sets_with(dir: &Path, graph: &str, sets: &[(&str, &str)], more: &[&str]) -> Output {
    let g = dir.join("g.yml");
    std::fs::write(&g, graph).expect("graph written");
    let mut args = vec!["import-edgar".to_owned(), g.display().to_string()];
    for (name, text) in sets {
        let file = dir.join(name);
        std::fs::write(&file, text).expect("set written");
        args.push(file.display().to_string());
    }
    args.extend(more.iter().map(|a| a.to_string()));
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

/// [`GRAPH`] with an enabled `corridors:` section: corridor shapes of set
/// `set` as long as `offset`.
fn with_corridors(offset: i32, set: &str) -> String {
    format!(
        "{GRAPH}corridors:\n  enable: true\n  offsets: [{offset}]\n  corridorShapes:\n    -\n      setName: {set}\n"
    )
}

/// Edgar's corridor set of the thesis: a room 2 tiles square whose doors
/// are its top and bottom sides.
const CORRIDORS: &str = "name: halls
roomDescriptions:
  2-square:
    shape: [[0,0], [0,2], [2,2], [2,0]]
    doorMode: !SpecificPositionsMode
      doorPositions:
        - [[0,0], [2,0]]
        - [[0,2], [2,2]]
";

#[test]
fn edgar_corridors_become_a_corridor_room_on_every_passage() {
    let graph = with_corridors(2, "halls");
    // Doors 2 tiles wide, as wide as the corridors.
    let rooms = ROOMS.replace("doorLength: 1", "doorLength: 2");
    let dir = tempfile::tempdir().expect("tmp");
    let out = import_sets(
        dir.path(),
        &graph,
        &[("shapes.yml", &rooms), ("halls.yml", CORRIDORS)],
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(!err.contains("warning"), "{err}");
    let project = dungeonflow::Project::load(&[dir.path().join("out")]);
    assert!(!project.has_errors(), "the import validates");
    let passages = [(0, 1), (1, 2), (2, 3), (3, 0), (2, 4)];
    for seed in 0..20 {
        let level = project.generate("g", seed).expect("lays out");
        level.check().expect("the level keeps its invariants");
        assert_eq!(level.rooms.len(), 5 + passages.len(), "seed {seed}");
        for (a, b) in passages {
            // The corridor room is named after the passage's rooms in the
            // order the spanning tree meets them.
            let id = [format!("c{a}_{b}"), format!("c{b}_{a}")];
            let hall = level
                .rooms
                .iter()
                .find(|r| id.contains(&r.id))
                .unwrap_or_else(|| panic!("seed {seed}: no corridor room for [{a}, {b}]"));
            assert_eq!(hall.category, "connector");
            assert_eq!(hall.template, "g_corridor_2_square", "seed {seed}");
            // A floor 2 tiles wide and 2 long inside its walls.
            assert_eq!(
                hall.width.min(hall.height),
                4,
                "seed {seed}: {}",
                hall.template
            );
            for end in [format!("r{a}"), format!("r{b}")] {
                assert!(
                    level.connections.iter().any(|c| {
                        (c.from == hall.id && c.to == end) || (c.to == hall.id && c.from == end)
                    }),
                    "seed {seed}: `{}` is not joined to `{end}`",
                    hall.id
                );
            }
        }
        // No passage joins two rooms directly.
        assert!(
            level
                .connections
                .iter()
                .all(|c| c.from.starts_with('c') || c.to.starts_with('c'))
        );
    }
}

/// A corridor set shaped like Edgar's own `corridors` set: a bent
/// corridor (floor tiles (0,0), (0,1), (1,1), one door below the first and
/// one right of the last) and a straight one, both 1 tile wide.
const BENT: &str = "name: bends
roomDescriptions:
  2-l-shape:
    shape: [[0,0], [0,2], [2,2], [2,1], [1,1], [1,0]]
    doorMode: !SpecificPositionsMode
      doorPositions:
        - [[0,0], [1,0]]
        - [[2,1], [2,2]]
  1-3-rectangle:
    shape: [[0,0], [0,3], [1,3], [1,0]]
    doorMode: !SpecificPositionsMode
      doorPositions:
        - [[0,0], [1,0]]
        - [[0,3], [1,3]]
";

#[test]
fn bent_edgar_corridors_become_turned_templates_that_lay_out() {
    // Both shapes have 3 floor tiles over a width of 1: offset 3 takes both.
    let graph = with_corridors(3, "bends");
    let dir = tempfile::tempdir().expect("tmp");
    let out = import_sets(
        dir.path(),
        &graph,
        &[("shapes.yml", ROOMS), ("bends.yml", BENT)],
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    let project = dungeonflow::Project::load(&[dir.path().join("out")]);
    assert!(!project.has_errors(), "the import validates");
    // The bent corridor in its four turns, the straight one in two (the
    // loader names a turn `TEMPLATE@rotate90`, ...).
    let names: Vec<&str> = project.template_names().collect();
    let turns = |of: &str| {
        names
            .iter()
            .filter(|n| n.split('@').next() == Some(of))
            .count()
    };
    let (bent, straight) = (
        turns("g_corridor_2_l_shape"),
        turns("g_corridor_1_3_rectangle"),
    );
    assert_eq!((bent, straight), (4, 2), "{names:?}");
    let mut turns_used = std::collections::BTreeSet::new();
    for seed in 0..40 {
        let level = project.generate("g", seed).expect("lays out");
        level.check().expect("the level keeps its invariants");
        for hall in level.rooms.iter().filter(|r| r.category == "connector") {
            if hall.template == "g_corridor_2_l_shape" {
                // 3 floor tiles and the 12 walls round them.
                assert_eq!(hall.cells.len(), 15, "seed {seed}: {:?}", hall.transform);
                turns_used.insert(hall.transform.clone());
            }
        }
        assert!(
            level
                .connections
                .iter()
                .all(|c| c.from.starts_with('c') || c.to.starts_with('c')),
            "seed {seed}: a passage joins two rooms directly"
        );
    }
    assert!(turns_used.len() >= 2, "bent corridors used: {turns_used:?}");
}

#[test]
fn edgar_corridors_name_what_is_missing() {
    let section = "corridors:\n  enable: true\n  offsets: [OFFSET]\n  corridorShapes:\n    -\n      setName: halls\n";
    let cases = [
        (
            section.replace("OFFSET", "2"),
            vec![("shapes.yml", ROOMS)],
            "`halls`",
        ),
        (
            section.replace("OFFSET", "5"),
            vec![("shapes.yml", ROOMS), ("halls.yml", CORRIDORS)],
            "as long as an offset",
        ),
        (
            "corridors:\n  enable: true\n".to_owned(),
            vec![("shapes.yml", ROOMS)],
            "names no `corridorShapes`",
        ),
    ];
    for (section, sets, says) in cases {
        let dir = tempfile::tempdir().expect("tmp");
        let out = import_sets(dir.path(), &format!("{GRAPH}{section}"), &sets);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{err}");
        assert!(err.contains(says), "{says}: {err}");
        assert!(!dir.path().join("out").exists(), "files written");
    }
    // Doors 1 tile wide, corridors 2: imported, with a warning that they
    // never join.
    let dir = tempfile::tempdir().expect("tmp");
    let out = import_sets(
        dir.path(),
        &format!("{GRAPH}{}", section.replace("OFFSET", "2")),
        &[("shapes.yml", ROOMS), ("halls.yml", CORRIDORS)],
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(err.contains("edgar::corridor-width"), "{err}");
    assert!(
        err.contains("2 tiles wide, but the rooms' doors are 1 wide"),
        "{err}"
    );
    // A disabled section imports the passages as direct links.
    let dir = tempfile::tempdir().expect("tmp");
    let out = import_sets(
        dir.path(),
        &format!("{GRAPH}corridors:\n  enable: false\n"),
        &[("shapes.yml", ROOMS)],
    );
    assert!(out.status.success());
    let flow = std::fs::read_to_string(dir.path().join("out/flows/g.yaml")).expect("flow");
    assert!(!flow.contains("connector"), "{flow}");
}

#[test]
fn a_graph_imports_without_its_corridors_only_when_asked_with_a_warning() {
    let graph = with_corridors(1, "corridors");
    // Edgar's own corridor set, not given: an error that names the way out.
    let dir = tempfile::tempdir().expect("tmp");
    let out = import_sets(dir.path(), &graph, &[("shapes.yml", ROOMS)]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("`corridors`") && err.contains("--no-corridors"),
        "{err}"
    );
    // Asked: the passages join their rooms directly, and a warning says so.
    let out = import_sets_with(
        dir.path(),
        &graph,
        &[("shapes.yml", ROOMS)],
        &["--no-corridors"],
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(err.contains("edgar::corridors-left-out"), "{err}");
    assert!(err.contains("g.yml:"), "{err}");
    let flow = std::fs::read_to_string(dir.path().join("out/flows/g.yaml")).expect("flow");
    assert!(
        flow.contains("r0 -> r1") && !flow.contains("connector"),
        "{flow}"
    );
}
