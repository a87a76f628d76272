//! The nested lock-and-key puzzle generator: the shape of its graphs (depth,
//! branching, one boss in the deepest level), where keys go under both
//! orderings, and its levels in every output.

use std::collections::BTreeMap;

use dungeonflow::Project;
use dungeonflow::internals::flow::{Generator, NestedOrdering, NestedParams};
use dungeonflow::internals::generate::GraphSource;
use dungeonflow::internals::graph::{LevelGraph, Origin};
use dungeonflow::internals::puzzle::nested::MAX_ROOMS;
use petgraph::graph::NodeIndex;
use petgraph::visit::EdgeRef;

#[path = "support/suite.rs"]
mod suite;

/// Seeds per flow in the full run (see `suite::seeds`).
const FULL: u64 = 2_000;

/// A project with nested flows of several shapes, by name.
fn project() -> (Project, Vec<String>) {
    let dir = tempfile::tempdir().expect("tmp");
    let shapes = [
        ("line", "{ depth: 5 }"),
        ("pairs", "{ depth: 3, branching: 2..2 }"),
        ("mixed", "{ depth: 4, branching: 1..2 }"),
        ("wide", "{ depth: 3, branching: 1..4 }"),
        ("deep_capped", "{ depth: 12, branching: 2..2 }"),
        ("levels_line", "{ depth: 6, ordering: key_levels }"),
        (
            "levels_mixed",
            "{ depth: 4, branching: 1..3, ordering: key_levels }",
        ),
    ];
    let mut paths = Vec::new();
    for (name, params) in shapes {
        let path = dir.path().join(format!("{name}.yaml"));
        std::fs::write(
            &path,
            format!("name: {name}\ngenerator: nested_puzzle\nparams: {params}\n"),
        )
        .expect("write");
        paths.push(path);
    }
    let project = Project::load(&paths);
    assert!(!project.has_errors(), "{:?}", project.diagnostics);
    (project, shapes.iter().map(|s| s.0.to_owned()).collect())
}

fn params(project: &Project, name: &str) -> NestedParams {
    match &project.flow(name).expect("flow").generator {
        Generator::NestedPuzzle(p) => p.clone(),
        _ => panic!("{name} is not a nested puzzle"),
    }
}

fn graph(project: &Project, name: &str, seed: u64) -> LevelGraph {
    let flow = project.flow(name).expect("flow");
    GraphSource::of(flow)
        .expect("a graph source")
        .build(flow, &project.library, seed, &Default::default())
        .unwrap_or_else(|d| panic!("{name} {seed}: {d}"))
}

fn depth_of(g: &LevelGraph, n: NodeIndex) -> u32 {
    match g.graph[n].origin {
        Origin::Nested { depth } => depth,
        ref o => panic!("origin {o:?}"),
    }
}

/// The door into `n` and its lock.
fn lock_of(g: &LevelGraph, n: NodeIndex) -> String {
    let e = g
        .graph
        .edges_directed(n, petgraph::Direction::Incoming)
        .next()
        .expect("a door in");
    e.weight().lock.clone().expect("locked")
}

fn holder(g: &LevelGraph, key: &str) -> NodeIndex {
    let holders: Vec<NodeIndex> = g
        .graph
        .node_indices()
        .filter(|&n| g.graph[n].keys.iter().any(|k| k == key))
        .collect();
    assert_eq!(holders.len(), 1, "key {key} lies in one room");
    holders[0]
}

fn ancestors(g: &LevelGraph, n: NodeIndex) -> Vec<NodeIndex> {
    let mut out = Vec::new();
    let mut cur = n;
    while let Some(p) = g.parent(cur) {
        out.push(p);
        cur = p;
    }
    out
}

fn distance(g: &LevelGraph, a: NodeIndex, b: NodeIndex) -> usize {
    let mut up_a = vec![a];
    up_a.extend(ancestors(g, a));
    let mut up_b = vec![b];
    up_b.extend(ancestors(g, b));
    let common = up_a
        .iter()
        .position(|x| up_b.contains(x))
        .expect("a common ancestor");
    common
        + up_b
            .iter()
            .position(|x| *x == up_a[common])
            .expect("common")
}

#[test]
fn depth_branching_and_rooms_follow_the_params() {
    let (project, names) = project();
    for name in &names {
        let p = params(&project, name);
        let mut max_rooms = 0;
        for seed in 0..suite::seeds(FULL) {
            let g = graph(&project, name, seed);
            max_rooms = max_rooms.max(g.len());
            assert!(g.len() <= MAX_ROOMS, "{name} {seed}");
            assert_eq!(g.entrance.index(), 0);
            assert_eq!(g.room(g.entrance).category, "entrance");
            let depths = g.depths();
            let deepest = *depths.iter().max().expect("rooms");
            assert!(deepest <= p.depth, "{name} {seed}: depth {deepest}");
            let capped = g.len() == MAX_ROOMS;
            for n in g.graph.node_indices() {
                let d = depth_of(&g, n);
                assert_eq!(d, depths[n.index()], "{name} {seed}: origin depth");
                let kids = g.children(n).len() as u32;
                assert!(kids <= p.branching.1, "{name} {seed}: {kids} children");
                if d < p.depth && !capped {
                    assert!(kids >= p.branching.0, "{name} {seed}: {kids} children");
                }
                if d == p.depth {
                    assert_eq!(kids, 0, "{name} {seed}: past the maximum depth");
                }
                // Every door is locked, and a tree edge.
                if n != g.entrance {
                    assert!(!lock_of(&g, n).is_empty());
                    assert!(g.parent(n).is_some());
                }
                let category = &g.room(n).category;
                match kids {
                    0 if n != g.entrance => {
                        assert!(category == "boss" || category == "reward", "{category}");
                    }
                    k if n != g.entrance && k >= 3 => assert_eq!(category, "hub"),
                    _ if n != g.entrance => assert_eq!(category, "normal"),
                    _ => {}
                }
                assert!(g.room(n).template.is_some(), "{name} {seed}: a template");
            }
            // One boss, in the deepest level.
            let bosses: Vec<NodeIndex> = g
                .graph
                .node_indices()
                .filter(|&n| g.room(n).category == "boss")
                .collect();
            assert_eq!(bosses.len(), 1, "{name} {seed}");
            assert_eq!(depths[bosses[0].index()], deepest);
        }
        if name == "deep_capped" {
            assert_eq!(max_rooms, MAX_ROOMS, "a deep binary tree is capped");
        }
    }
}

#[test]
fn with_ancestor_ordering_each_key_lies_in_an_ancestor_of_its_lock() {
    let (project, names) = project();
    for name in names.iter().filter(|n| !n.starts_with("levels")) {
        assert_eq!(params(&project, name).ordering, NestedOrdering::Ancestor);
        // How often each ancestor distance is drawn: the choice is uniform.
        let mut spread: BTreeMap<usize, u32> = BTreeMap::new();
        for seed in 0..suite::seeds(FULL) {
            let g = graph(&project, name, seed);
            for n in g.graph.node_indices().filter(|&n| n != g.entrance) {
                let key = lock_of(&g, n);
                assert_eq!(key, format!("key-{}", g.room(n).id));
                let h = holder(&g, &key);
                let above = ancestors(&g, n);
                let at = above.iter().position(|&a| a == h);
                assert!(at.is_some(), "{name} {seed}: {key} not in an ancestor");
                if above.len() == 2 {
                    *spread.entry(at.unwrap_or(0)).or_default() += 1;
                }
            }
        }
        if let (Some(a), Some(b)) = (spread.get(&0), spread.get(&1)) {
            let share = f64::from(*a) / f64::from(a + b);
            assert!(
                (share - 0.5).abs() < suite::tolerance(0.05, FULL),
                "{name}: {spread:?}"
            );
        }
    }
}

#[test]
fn with_key_levels_key_n_lies_in_the_hardest_room_of_level_n_minus_1() {
    let (project, names) = project();
    for name in names.iter().filter(|n| n.starts_with("levels")) {
        assert_eq!(params(&project, name).ordering, NestedOrdering::KeyLevels);
        for seed in 0..suite::seeds(FULL) {
            let g = graph(&project, name, seed);
            let depths = g.depths();
            let deepest = *depths.iter().max().expect("rooms");
            for n in g.graph.node_indices().filter(|&n| n != g.entrance) {
                assert_eq!(lock_of(&g, n), format!("level-{}", depths[n.index()]));
            }
            let mut previous = g.entrance;
            assert_eq!(holder(&g, "level-1"), g.entrance, "{name} {seed}");
            for level in 2..=deepest {
                let h = holder(&g, &format!("level-{level}"));
                assert_eq!(depths[h.index()], level - 1, "{name} {seed}");
                // Hardest: no room of level n-1 is farther from where the
                // key of level n-1 lies.
                let far = g
                    .graph
                    .node_indices()
                    .filter(|m| depths[m.index()] == level - 1)
                    .map(|m| distance(&g, previous, m))
                    .max()
                    .expect("rooms");
                assert_eq!(
                    distance(&g, previous, h),
                    far,
                    "{name} {seed} level {level}"
                );
                previous = h;
            }
            let keys: usize = g.graph.node_weights().map(|r| r.keys.len()).sum();
            assert_eq!(keys, deepest as usize, "{name} {seed}: one key per level");
        }
    }
}

#[test]
fn the_same_seed_gives_the_same_puzzle() {
    let (project, names) = project();
    for name in &names {
        for seed in [0, 9, 4242] {
            let (a, b) = (graph(&project, name, seed), graph(&project, name, seed));
            let rooms =
                |g: &LevelGraph| format!("{:?}", g.graph.node_weights().collect::<Vec<_>>());
            assert_eq!(rooms(&a), rooms(&b));
            let edges = |g: &LevelGraph| {
                g.graph
                    .edge_references()
                    .map(|e| (e.source(), e.target(), e.weight().lock.clone()))
                    .collect::<Vec<_>>()
            };
            assert_eq!(edges(&a), edges(&b));
        }
    }
}

#[test]
fn nested_levels_show_their_keys_and_locks_in_every_output() {
    use dungeonflow::level::TileKind;
    use dungeonflow::render::{Format, RenderOptions};
    let project = Project::bundled();
    let level = project.generate("nested", 3).expect("generates");
    level.check().expect("valid");
    assert_eq!(level.generator, "nested_puzzle");
    let keys: usize = level
        .connections
        .iter()
        .filter(|c| c.lock.is_some())
        .count();
    assert_eq!(level.items.len(), keys, "one key per locked door");
    assert_eq!(
        keys,
        level.rooms.len() - 1,
        "every room but the entrance is locked"
    );
    let locked_tiles = level
        .tiles
        .iter()
        .filter(|t| **t == TileKind::LockedDoor)
        .count();
    assert_eq!(locked_tiles, 2 * keys, "two locked door tiles per door");
    let options = RenderOptions::default();
    let ascii = String::from_utf8(
        Format::Ascii
            .render(&level, &options, "l.txt")
            .expect("ascii")
            .main,
    )
    .expect("utf-8");
    let drawn: usize = ascii
        .lines()
        .skip(1)
        .take_while(|l| !l.starts_with("legend"))
        .map(|l| l.matches('k').count())
        .sum();
    assert_eq!(drawn, keys, "a `k` per key");
    let json: serde_json::Value = serde_json::from_slice(
        &Format::Json
            .render(&level, &options, "l.json")
            .expect("json")
            .main,
    )
    .expect("json");
    assert_eq!(json["items"].as_array().map(Vec::len), Some(keys));
    assert_eq!(json["generator"], "nested_puzzle");
    let svg = String::from_utf8(
        Format::Svg
            .render(&level, &options, "l.svg")
            .expect("svg")
            .main,
    )
    .expect("utf-8");
    assert_eq!(svg.matches("class=\"locked\"").count(), locked_tiles);
    let png = Format::Png.render(&level, &options, "l.png").expect("png");
    assert!(png.main.starts_with(b"\x89PNG"));
    let tiled = dungeonflow::render::render_tiled(&level, "l.tileset.png");
    let map: serde_json::Value = serde_json::from_str(&tiled.map_json).expect("tmj");
    let items = map["layers"]
        .as_array()
        .expect("layers")
        .iter()
        .find(|l| l["name"] == "items")
        .expect("an items layer");
    assert_eq!(items["objects"].as_array().map(Vec::len), Some(keys));
}
