//! The JSON Schemas of `dungeonflow schema` agree with the decoders: they are
//! valid draft-07 schemas, accept every bundled file and every example of the
//! documentation, and accept or reject edited documents exactly as the decoder
//! does. (Which fields each closed object has is compared with the decoders'
//! field lists by the unit tests of `src/schema.rs`.)

use std::path::{Path, PathBuf};
use std::process::Command;

use dungeonflow::SourceFile;
use dungeonflow::internals::flow::load_flow_file;
use dungeonflow::internals::rooms::load_room_file;
use dungeonflow::internals::schema::{DRAFT, flow_schema, room_schema};
use jsonschema::Validator;
use serde_json::{Value, json};

/// Parses YAML as the loader does (only `true` and `false` are booleans).
fn yaml(text: &str) -> Value {
    serde_saphyr::from_str_with_options(text, serde_saphyr::options! { strict_booleans: true })
        .expect("valid YAML")
}

fn validator(schema: &Value) -> Validator {
    jsonschema::draft7::new(schema).expect("the schema compiles")
}

/// The schema's complaints about `doc`, as `path: message`.
fn complaints(validator: &Validator, doc: &Value) -> Vec<String> {
    validator
        .iter_errors(doc)
        .map(|e| format!("{}: {e}", e.instance_path()))
        .collect()
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Flow,
    Room,
}

impl Kind {
    fn validator(self) -> Validator {
        validator(&match self {
            Kind::Flow => flow_schema(),
            Kind::Room => room_schema(),
        })
    }

    /// The decoder's errors for `text` (decoding only: no checks against the library).
    fn decoder_errors(self, text: &str) -> Vec<String> {
        let file = SourceFile::new("edited.yaml", text);
        let diags = match self {
            Kind::Flow => load_flow_file(&file).1,
            Kind::Room => load_room_file(&file).1,
        };
        diags
            .iter()
            .filter(|d| d.is_error())
            .map(|d| format!("{}: {}", d.code, d.message))
            .collect()
    }
}

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn yaml_files(dir: &str) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(root().join(dir))
        .expect("folder")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "yaml"))
        .collect();
    files.sort();
    files
}

#[test]
fn schemas_are_valid_draft_07_schemas() {
    for schema in [flow_schema(), room_schema()] {
        assert_eq!(schema["$schema"], DRAFT);
        assert_eq!(DRAFT, "http://json-schema.org/draft-07/schema#");
        if let Err(e) = jsonschema::draft7::meta::validate(&schema) {
            panic!("{} is not a valid schema: {e}", schema["title"]);
        }
        validator(&schema);
    }
}

#[test]
fn every_bundled_flow_and_room_file_validates() {
    for (dir, kind, at_least) in [("flows", Kind::Flow, 9), ("rooms", Kind::Room, 100)] {
        let validator = kind.validator();
        let files = yaml_files(dir);
        assert!(files.len() >= at_least, "{dir}: {} files", files.len());
        for path in files {
            let doc = yaml(&std::fs::read_to_string(&path).expect("readable"));
            let found = complaints(&validator, &doc);
            assert!(found.is_empty(), "{}: {found:#?}", path.display());
        }
    }
}

/// Every complete YAML example of the documentation (not those with a line
/// `...`, nor the Kubernetes manifest of the guide's baking section).
fn documented_examples() -> Vec<(String, Kind, String)> {
    let mut out = Vec::new();
    for doc in ["docs/formats.md", "docs/guide.md", "README.md"] {
        let text = std::fs::read_to_string(root().join(doc)).expect("readable");
        for (i, block) in text.split("```yaml\n").skip(1).enumerate() {
            let block = block.split("```").next().unwrap_or_default();
            if block.lines().any(|l| l.trim() == "...") || block.starts_with("apiVersion:") {
                continue;
            }
            let kind = if block.lines().any(|l| l.trim_start().starts_with("art:")) {
                Kind::Room
            } else {
                Kind::Flow
            };
            out.push((format!("{doc} example {}", i + 1), kind, block.to_owned()));
        }
    }
    out
}

#[test]
fn every_documented_example_validates_and_decodes() {
    let examples = documented_examples();
    let generators = examples
        .iter()
        .filter(|(_, _, text)| text.contains("generator:"))
        .count();
    assert!(examples.len() >= 8 && generators >= 3, "{examples:#?}");
    for (name, kind, text) in examples {
        assert_eq!(kind.decoder_errors(&text), Vec::<String>::new(), "{name}");
        let found = complaints(&kind.validator(), &yaml(&text));
        assert!(found.is_empty(), "{name}: {found:#?}");
    }
}

type Edit = fn(&mut Value);

/// Edits of a bundled file, each expected to be accepted (`true`) or rejected.
fn flow_edits() -> Vec<(&'static str, Edit, bool)> {
    vec![
        ("unchanged", |_| {}, true),
        ("a single tag", |f| f["tags"] = json!("loop"), true),
        ("no tags", |f| f["tags"] = Value::Null, true),
        ("a name that is a number", |f| f["name"] = json!(7), true),
        ("generator: flow", |f| f["generator"] = json!("flow"), true),
        (
            "chain as a list",
            |f| f["nodes"]["west"]["chain"] = json!([2, 3]),
            true,
        ),
        (
            "chain as a number",
            |f| f["nodes"]["west"]["chain"] = json!(3),
            true,
        ),
        (
            "a category of one's own",
            |f| {
                f["categories"] = json!(["lab"]);
                f["nodes"]["east"] = json!("lab");
            },
            true,
        ),
        (
            "door and lock",
            |f| {
                f["nodes"]["vault"] =
                    json!({"category": "reward", "door": "locked", "lock": "gold"})
            },
            true,
        ),
        (
            "edges in long form",
            |f| {
                f["edges"][1] = json!({"from": "gallery", "to": "vault", "door": "locked"});
                f["loops"][0] = json!({"from": "east", "to": "hall", "one_way": false});
            },
            true,
        ),
        (
            "an injection group",
            |f| {
                f["injections"]
                    .as_array_mut()
                    .expect("list")
                    .push(json!({"group": "extras", "pick": "one", "entries": [
                        {"room": {"category": "special", "pool": ["shrine"]}, "where": "hub_adjacent_no_link", "weight": 2},
                        {"name": "late", "room": "reward", "where": ["after_boss x2"], "requires": "hard", "lock": 0.5},
                    ]}))
            },
            true,
        ),
        (
            "every layout setting",
            |f| {
                f["layout"] = json!({"corridor": [4, 20], "attempts": 10, "tree_rebuilds": 3,
                    "loop_rebuilds": 50, "reuse_templates": true})
            },
            true,
        ),
        (
            "unknown field `catgory` in a node",
            |f| f["nodes"]["hall"] = json!({"catgory": "hub"}),
            false,
        ),
        (
            "chance as a string",
            |f| f["nodes"]["shrine"]["chance"] = json!("high"),
            false,
        ),
        (
            "chance above 1",
            |f| f["nodes"]["shrine"]["chance"] = json!(1.5),
            false,
        ),
        (
            "a wrong generator name",
            |f| f["generator"] = json!("isac"),
            false,
        ),
        (
            "params for a flow graph",
            |f| f["params"] = json!({"level": 2}),
            false,
        ),
        (
            "an unknown top-level field",
            |f| f["stages"] = json!(1),
            false,
        ),
        ("a negative stage", |f| f["stage"] = json!(-1), false),
        ("a negative weight", |f| f["weight"] = json!(-1), false),
        ("tags as a mapping", |f| f["tags"] = json!({"a": 1}), false),
        (
            "no nodes",
            |f| {
                f.as_object_mut().expect("mapping").remove("nodes");
            },
            false,
        ),
        (
            "a node as a list",
            |f| f["nodes"]["hall"] = json!(["hub"]),
            false,
        ),
        (
            "a node id with a space",
            |f| f["nodes"]["great hall"] = json!("hub"),
            false,
        ),
        (
            "a chain written 2-3",
            |f| f["nodes"]["west"]["chain"] = json!("2-3"),
            false,
        ),
        (
            "a selector with a category",
            |f| f["nodes"]["side"]["category"] = json!("reward"),
            false,
        ),
        (
            "a selector that is also a chain",
            |f| f["nodes"]["side"]["chain"] = json!(2),
            false,
        ),
        (
            "an open door with a lock",
            |f| f["nodes"]["vault"]["door"] = json!("open"),
            false,
        ),
        (
            "rules without a chain",
            |f| f["nodes"]["east"]["start"] = json!("n"),
            false,
        ),
        (
            "a rule with an unknown letter",
            |f| f["nodes"]["road"]["rules"] = json!({"q -> nn": 0.5}),
            false,
        ),
        (
            "door: closed",
            |f| f["nodes"]["east"]["door"] = json!("closed"),
            false,
        ),
        (
            "a locked one-way door",
            |f| f["nodes"]["vault"]["door"] = json!("one_way"),
            false,
        ),
        (
            "an edge mapping with an unknown field",
            |f| f["edges"][1] = json!({"from": "gallery", "to": "vault", "kind": "door"}),
            false,
        ),
        (
            "a two-way arrow in edges",
            |f| f["edges"][1] = json!("gallery <-> vault"),
            false,
        ),
        (
            "a loop through three nodes",
            |f| f["loops"][0] = json!("east <-> hall <-> west"),
            false,
        ),
        (
            "an unknown placement",
            |f| f["injections"][0]["where"] = json!(["dead_end"]),
            false,
        ),
        (
            "a placement repeated 0 times",
            |f| f["injections"][0]["where"] = json!(["end_of_chain x0"]),
            false,
        ),
        (
            "an injection without a room",
            |f| {
                f["injections"][0]
                    .as_object_mut()
                    .expect("mapping")
                    .remove("room");
            },
            false,
        ),
        (
            "an injection group picking `some`",
            |f| {
                f["injections"][0] = json!({"group": "g", "pick": "some", "entries": []});
            },
            false,
        ),
        (
            "an unknown layout setting",
            |f| f["layout"] = json!({"corridors": "4..30"}),
            false,
        ),
    ]
}

fn generator_files() -> Vec<(&'static str, Value, bool)> {
    let isaac = json!({"name": "basement", "generator": "isaac",
        "params": {"level": 2, "variant": "rebirth", "curses": "labyrinth",
                   "specials": {"arcade": 0.5, "vault": 0.1}, "pools": ["easy"]}});
    let scatter = json!({"name": "caverns", "generator": "scatter",
        "params": {"rooms": 80, "region": {"ellipse": [60, 30]},
                   "sizes": {"distribution": "skew_normal", "mean": 5, "sd": 2, "skew": 3, "side": [3, 12]},
                   "corridor_width": 2, "max_steps": 500}});
    let nested = json!({"name": "puzzle", "generator": "nested_puzzle",
        "params": {"depth": 3, "branching": "1..2", "ordering": "key_levels"}});
    let edited = |base: &Value, edit: &dyn Fn(&mut Value)| {
        let mut doc = base.clone();
        edit(&mut doc);
        doc
    };
    vec![
        ("isaac", isaac.clone(), true),
        ("scatter", scatter.clone(), true),
        ("nested_puzzle", nested.clone(), true),
        (
            "isaac without params",
            json!({"name": "b", "generator": "isaac"}),
            true,
        ),
        (
            "isaac with nodes",
            edited(&isaac, &|f| f["nodes"] = json!({"start": "entrance"})),
            false,
        ),
        (
            "an unknown isaac param",
            edited(&isaac, &|f| f["params"]["floor"] = json!(1)),
            false,
        ),
        (
            "an unknown isaac special room",
            edited(&isaac, &|f| f["params"]["specials"]["shop"] = json!(0.5)),
            false,
        ),
        (
            "an unknown isaac pool",
            edited(&isaac, &|f| f["params"]["pools"] = json!(["expert"])),
            false,
        ),
        (
            "scatter params for isaac",
            edited(&isaac, &|f| f["params"] = json!({"rooms": 80})),
            false,
        ),
        (
            "corridors 0 tiles wide",
            edited(&scatter, &|f| f["params"]["corridor_width"] = json!(0)),
            false,
        ),
        (
            "a square region",
            edited(&scatter, &|f| f["params"]["region"] = json!({"square": 3})),
            false,
        ),
        (
            "an unknown size distribution",
            edited(&scatter, &|f| {
                f["params"]["sizes"]["distribution"] = json!("uniform")
            }),
            false,
        ),
        (
            "depth 0",
            edited(&nested, &|f| f["params"]["depth"] = json!(0)),
            false,
        ),
        (
            "a random ordering",
            edited(&nested, &|f| f["params"]["ordering"] = json!("random")),
            false,
        ),
    ]
}

fn room_edits() -> Vec<(&'static str, Edit, bool)> {
    vec![
        ("unchanged", |_| {}, true),
        ("a single tag", |r| r["tags"] = json!("small"), true),
        ("a weight", |r| r["weight"] = json!(2.5), true),
        (
            "a category of one's own",
            |r| r["category"] = json!("lab"),
            true,
        ),
        (
            "a legend",
            |r| {
                r["legend"]["t"] = json!("pillar");
                r["legend"]["%"] = json!("pit");
            },
            true,
        ),
        (
            "exit attributes",
            |r| {
                r["exits"] = json!({"A": {"kind": "entrance_only", "group": "north"},
                    "C": null, "D": {"kind": "exit_only"}})
            },
            true,
        ),
        (
            "several templates under `rooms:`",
            |r| {
                let mut other = r.clone();
                other["name"] = json!("normal_kennel_copy");
                *r = json!({"rooms": [r.clone(), other]});
            },
            true,
        ),
        ("an unknown field", |r| r["tag"] = json!(["small"]), false),
        (
            "a name with a space",
            |r| r["name"] = json!("my kennel"),
            false,
        ),
        (
            "no art",
            |r| {
                r.as_object_mut().expect("mapping").remove("art");
            },
            false,
        ),
        ("a negative weight", |r| r["weight"] = json!(-1), false),
        (
            "an upper-case legend key",
            |r| r["legend"] = json!({"T": "pillar"}),
            false,
        ),
        (
            "a legend key of two characters",
            |r| r["legend"]["tt"] = json!("wall"),
            false,
        ),
        (
            "an unknown tile kind",
            |r| r["legend"]["t"] = json!("lava"),
            false,
        ),
        (
            "an unknown exit kind",
            |r| r["exits"]["A"]["kind"] = json!("entrance"),
            false,
        ),
        (
            "an unknown exit field",
            |r| r["exits"]["A"] = json!({"knd": "any"}),
            false,
        ),
        (
            "`at` with one number",
            |r| r["exits"]["A"]["at"] = json!([1]),
            false,
        ),
        (
            "an unknown direction",
            |r| r["exits"]["A"]["dir"] = json!("up"),
            false,
        ),
        (
            "`rooms:` beside a template",
            |r| r["rooms"] = json!([]),
            false,
        ),
    ]
}

/// Checks that the schema and the decoder both give the expected verdict on `doc`.
fn check_agreement(kind: Kind, validator: &Validator, case: &str, doc: &Value, valid: bool) {
    // JSON is YAML: the decoder reads the edited document as written out here.
    let decoder = kind.decoder_errors(&serde_json::to_string_pretty(doc).expect("json"));
    let schema = complaints(validator, doc);
    assert_eq!(
        decoder.is_empty(),
        valid,
        "{case}: the decoder says {decoder:#?}"
    );
    assert_eq!(
        schema.is_empty(),
        valid,
        "{case}: the schema says {schema:#?}"
    );
}

#[test]
fn schemas_accept_and_reject_edited_files_as_the_decoders_do() {
    let flow_validator = Kind::Flow.validator();
    let classic = yaml(&std::fs::read_to_string(root().join("flows/classic.yaml")).expect("flow"));
    for (case, edit, valid) in flow_edits() {
        let mut doc = classic.clone();
        edit(&mut doc);
        check_agreement(Kind::Flow, &flow_validator, case, &doc, valid);
    }
    for (case, doc, valid) in generator_files() {
        check_agreement(Kind::Flow, &flow_validator, case, &doc, valid);
    }
    let room_validator = Kind::Room.validator();
    let kennel =
        yaml(&std::fs::read_to_string(root().join("rooms/normal_kennel.yaml")).expect("room"));
    for (case, edit, valid) in room_edits() {
        let mut doc = kennel.clone();
        edit(&mut doc);
        check_agreement(Kind::Room, &room_validator, case, &doc, valid);
    }
}

#[test]
fn complaints_point_at_the_mistake() {
    let validator = Kind::Flow.validator();
    let classic = yaml(&std::fs::read_to_string(root().join("flows/classic.yaml")).expect("flow"));
    let cases: [(Edit, &str); 3] = [
        (
            |f| f["nodes"]["hall"] = json!({"catgory": "hub"}),
            "/nodes/hall",
        ),
        (
            |f| f["nodes"]["shrine"]["chance"] = json!("high"),
            "/nodes/shrine",
        ),
        (|f| f["generator"] = json!("isac"), "/generator"),
    ];
    for (edit, pointer) in cases {
        let mut doc = classic.clone();
        edit(&mut doc);
        let found = complaints(&validator, &doc);
        assert!(
            found.iter().any(|c| c.starts_with(pointer)),
            "expected a complaint at {pointer}: {found:#?}"
        );
    }
}

fn df(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_dungeonflow"))
        .args(args)
        .output()
        .expect("runs")
}

#[test]
fn the_command_prints_or_writes_each_schema() {
    let out = df(&["schema", "flow"]);
    assert!(out.status.success());
    let printed: Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(printed, flow_schema());

    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("room.schema.json");
    let out = df(&["schema", "room", "-o", path.to_str().expect("utf-8")]);
    assert!(out.status.success());
    assert!(out.stdout.is_empty());
    let written: Value =
        serde_json::from_str(&std::fs::read_to_string(&path).expect("written")).expect("json");
    assert_eq!(written, room_schema());

    let out = df(&["schema", "tiles"]);
    assert_eq!(out.status.code(), Some(2));
}
