//! Gameplay data in rooms: markers drawn in a template's legend, and
//! `properties:` on templates, flow nodes and edges, carried into the
//! level, its JSON, its snapshot and its Tiled export.

use std::collections::BTreeSet;

use dungeonflow::Project;
use dungeonflow::internals::project::Source;
use dungeonflow::internals::properties::PropertyValue;
use dungeonflow::level::{Level, TileKind};
use dungeonflow::render::render_tiled;
use serde_json::Value;

#[path = "support/suite.rs"]
mod suite;

const ROOMS: &str = "\
rooms:
  - name: camp
    category: entrance
    properties: { music: calm }
    legend:
      t: { marker: torch, tile: wall }
    art: |
      ##t##A##
      #......#
      #......B
      ########
  - name: arena
    category: normal
    properties: { difficulty: 2, lit: true }
    legend:
      e: { marker: enemy }
      c: { marker: chest, tile: floor, properties: { loot: gold, amount: 30 } }
    art: |
      ####A####
      #e.....e#
      #..e.e..#
      D...c...B
      #e.....e#
      ####C####
  - name: lair
    category: boss
    legend:
      b: { marker: boss_spawn, properties: { boss: ogre, scale: 1.5 } }
    art: |
      ###A###
      #.....#
      D..b..B
      #.....#
      ###C###
";

const FLOW: &str = "\
name: fight
nodes:
  start: entrance
  pit:
    category: normal
    properties: { difficulty: 5, name: The pit }
    markers: { enemy: 2..4 }
  end: boss
edges:
  - start -> pit
  - { from: pit, to: end, lock: boss_key, properties: { cutscene: ogre_intro } }
";

/// The three templates and the flow, and nothing else.
fn project() -> Project {
    let project = Project::from_layers(vec![vec![
        Source::room("rooms.yaml", ROOMS),
        Source::flow("fight.yaml", FLOW),
    ]]);
    assert!(
        project.diagnostics.iter().all(|d| !d.is_error()),
        "{:?}",
        project.diagnostics
    );
    project
}

fn marker_kinds(level: &Level, room: &str) -> Vec<String> {
    level
        .markers
        .iter()
        .filter(|m| m.room == room)
        .map(|m| m.kind.clone())
        .collect()
}

#[test]
fn templates_draw_markers_and_the_flow_counts_them() {
    let project = project();
    let arena = project.library.get("arena").expect("arena");
    assert_eq!(arena.markers.len(), 7, "6 enemies and a chest");
    assert_eq!(
        arena
            .markers
            .iter()
            .map(|m| (m.kind.as_str(), m.at.x, m.at.y))
            .take(3)
            .collect::<Vec<_>>(),
        [("enemy", 1, 1), ("enemy", 7, 1), ("enemy", 3, 2)],
        "reading order, art coordinates"
    );
    let mut enemy_counts = BTreeSet::new();
    for seed in 0..suite::seeds(200) {
        let level = project.generate("fight", seed).expect("lays out");
        level.check().expect("markers lie on their rooms' tiles");
        let pit = marker_kinds(&level, "pit");
        let enemies = pit.iter().filter(|k| *k == "enemy").count();
        assert!((2..=4).contains(&enemies), "seed {seed}: {enemies} enemies");
        enemy_counts.insert(enemies);
        assert_eq!(
            pit.iter().filter(|k| *k == "chest").count(),
            1,
            "kinds not counted keep all"
        );
        assert_eq!(marker_kinds(&level, "start"), ["torch"]);
        assert_eq!(marker_kinds(&level, "end"), ["boss_spawn"]);
        // Each marker sits where its template drew it, in the room's frame.
        for m in &level.markers {
            let room = level.room(&m.room).expect("room");
            let template = project.library.get(&room.template).expect("template");
            let (x, y) = (m.x - room.x, m.y - room.y);
            assert!(
                template
                    .markers
                    .iter()
                    .any(|t| t.kind == m.kind && (t.at.x, t.at.y) == (x, y)),
                "seed {seed}: {} at {x},{y} of {}",
                m.kind,
                template.name
            );
        }
        let torch = level
            .markers
            .iter()
            .find(|m| m.kind == "torch")
            .expect("torch");
        assert_eq!(
            level.tile(torch.x, torch.y),
            TileKind::Wall,
            "a torch on the wall"
        );
        let chest = level
            .markers
            .iter()
            .find(|m| m.kind == "chest")
            .expect("chest");
        assert_eq!(level.tile(chest.x, chest.y), TileKind::Floor);
        assert_eq!(chest.properties["loot"], PropertyValue::Text("gold".into()));
        assert_eq!(chest.properties["amount"], PropertyValue::Int(30));
    }
    assert_eq!(
        enemy_counts,
        BTreeSet::from([2, 3, 4]),
        "every count of the range is drawn"
    );
    // The same seed gives the same markers.
    let a = project.generate("fight", 11).expect("lays out");
    let b = project.generate("fight", 11).expect("lays out");
    assert_eq!(a.markers, b.markers);
}

#[test]
fn keys_never_lie_on_a_marker() {
    let project = Project::bundled();
    for flow in ["keys_and_locks", "classic", "shop_route"] {
        for seed in 0..suite::seeds(400) {
            let level = project.generate(flow, seed).expect("lays out");
            assert!(!level.markers.is_empty());
            for key in &level.items {
                assert!(
                    !level.markers.iter().any(|m| (m.x, m.y) == (key.x, key.y)),
                    "{flow} seed {seed}: key `{}` on a marker",
                    key.id
                );
            }
        }
    }
}

#[test]
fn properties_of_templates_nodes_and_edges_reach_the_level() {
    let level = project().generate("fight", 3).expect("lays out");
    let pit = level.room("pit").expect("pit");
    // The node's properties over the template's.
    assert_eq!(pit.properties["difficulty"], PropertyValue::Int(5));
    assert_eq!(pit.properties["lit"], PropertyValue::Bool(true));
    assert_eq!(
        pit.properties["name"],
        PropertyValue::Text("The pit".into())
    );
    let start = level.room("start").expect("start");
    assert_eq!(
        start.properties["music"],
        PropertyValue::Text("calm".into())
    );
    assert!(level.room("end").expect("end").properties.is_empty());
    let locked = level
        .connections
        .iter()
        .find(|c| c.from == "pit" && c.to == "end")
        .expect("pit -> end");
    assert_eq!(locked.lock.as_deref(), Some("boss_key"));
    assert_eq!(
        locked.properties["cutscene"],
        PropertyValue::Text("ogre_intro".into())
    );
    let spawn = level
        .markers
        .iter()
        .find(|m| m.kind == "boss_spawn")
        .expect("spawn");
    assert_eq!(spawn.properties["scale"], PropertyValue::Float(1.5));
}

#[test]
fn the_json_contract_carries_markers_and_properties_and_reads_back() {
    let level = project().generate("fight", 5).expect("lays out");
    let text = serde_json::to_string(&level).expect("json");
    let json: Value = serde_json::from_str(&text).expect("parses");
    assert_eq!(json["format"], "dungeonflow-level/1");
    let markers = json["markers"].as_array().expect("markers");
    assert_eq!(markers.len(), level.markers.len());
    for m in markers {
        for field in ["kind", "room", "x", "y"] {
            assert!(m.get(field).is_some(), "{field} in {m}");
        }
    }
    let pit = json["rooms"]
        .as_array()
        .expect("rooms")
        .iter()
        .find(|r| r["id"] == "pit")
        .expect("pit");
    assert_eq!(pit["properties"]["difficulty"], 5);
    assert_eq!(pit["properties"]["lit"], true);
    // Empty properties are left out; the field is additive.
    let end = json["rooms"]
        .as_array()
        .expect("rooms")
        .iter()
        .find(|r| r["id"] == "end")
        .expect("end");
    assert!(end.get("properties").is_none());
    assert_eq!(Level::from_json(&text).expect("reads back"), level);
    // The snapshot form lists them too.
    let snapshot = level.snapshot();
    assert!(snapshot.contains("markers:\n"), "{snapshot}");
    assert!(snapshot.contains("chest in pit at "), "{snapshot}");
    assert!(snapshot.contains("{amount: 30, loot: gold}"), "{snapshot}");
    assert!(snapshot.contains("{cutscene: ogre_intro}"), "{snapshot}");
}

#[test]
fn tiled_maps_hold_markers_as_points_and_properties_as_custom_properties() {
    let level = project().generate("fight", 5).expect("lays out");
    let map: Value =
        serde_json::from_str(&render_tiled(&level, "t.png").map_json).expect("tmj parses");
    let layer = |name: &str| {
        map["layers"]
            .as_array()
            .expect("layers")
            .iter()
            .find(|l| l["name"] == name)
            .unwrap_or_else(|| panic!("layer {name}"))
            .clone()
    };
    let markers = layer("markers");
    let objects = markers["objects"].as_array().expect("objects");
    assert_eq!(objects.len(), level.markers.len());
    for (o, m) in objects.iter().zip(&level.markers) {
        assert_eq!(o["type"], m.kind.as_str(), "the marker kind is the class");
        assert_eq!(o["point"], true);
        assert_eq!(o["x"], i64::from(m.x) * 16 + 8);
        assert_eq!(o["y"], i64::from(m.y) * 16 + 8);
    }
    let prop = |o: &Value, name: &str| {
        o["properties"]
            .as_array()
            .expect("properties")
            .iter()
            .find(|p| p["name"] == name)
            .map(|p| {
                (
                    p["type"].as_str().unwrap_or("").to_owned(),
                    p["value"].clone(),
                )
            })
    };
    let chest = objects
        .iter()
        .find(|o| o["type"] == "chest")
        .expect("chest");
    assert_eq!(prop(chest, "amount"), Some(("int".into(), 30.into())));
    assert_eq!(prop(chest, "room"), Some(("string".into(), "pit".into())));
    let rooms = layer("rooms");
    let pit = rooms["objects"]
        .as_array()
        .expect("rooms")
        .iter()
        .find(|o| o["name"] == "pit")
        .expect("pit");
    assert_eq!(prop(pit, "difficulty"), Some(("int".into(), 5.into())));
    assert_eq!(prop(pit, "lit"), Some(("bool".into(), true.into())));
    let doors = layer("doors");
    let locked = doors["objects"]
        .as_array()
        .expect("doors")
        .iter()
        .find(|o| o["name"] == "pit -> end")
        .expect("pit -> end");
    assert_eq!(
        prop(locked, "cutscene"),
        Some(("string".into(), "ogre_intro".into()))
    );
}

#[test]
fn validate_warns_of_markers_no_template_draws() {
    let flow = FLOW
        .replace(
            "markers: { enemy: 2..4 }",
            "markers: { enemy: 7..9, archer: 1 }",
        )
        .replace("name: fight", "name: misdrawn");
    let project = Project::from_layers(vec![vec![
        Source::room("rooms.yaml", ROOMS),
        Source::flow("misdrawn.yaml", &flow),
    ]]);
    let rendered: String = project
        .diagnostics
        .iter()
        .filter(|d| d.code.starts_with("flow::"))
        .map(|d| d.render(false))
        .collect();
    insta::assert_snapshot!(rendered);
    // A room keeps all of its markers when it has fewer than asked.
    let level = project.generate("misdrawn", 1).expect("lays out");
    assert_eq!(
        marker_kinds(&level, "pit")
            .iter()
            .filter(|k| *k == "enemy")
            .count(),
        6
    );
}
