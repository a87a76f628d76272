//! Expansion properties over many seeds of every bundled flow, statistical
//! checks of chances and weights, and snapshots of `expand` output.

use std::collections::{BTreeMap, BTreeSet, VecDeque};

#[path = "support/project.rs"]
mod project;
use project::project_with;

use dungeonflow::internals::expand::expand;
use dungeonflow::internals::flow::{Flow, NodeKind};
use dungeonflow::internals::graph::{EdgeKind, LevelGraph, Origin};
use dungeonflow::internals::project::Project;

#[path = "support/suite.rs"]
mod suite;

fn seeds() -> u64 {
    std::env::var("DUNGEONFLOW_SEEDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| suite::seeds(1000))
}

/// Rooms per flow node id.
fn rooms_of(g: &LevelGraph) -> BTreeMap<String, usize> {
    let mut m = BTreeMap::new();
    for r in g.graph.node_weights() {
        let node = match &r.origin {
            Origin::Node { node } | Origin::Chain { node, .. } => node.clone(),
            Origin::Injection { rule } => format!("+{rule}"),
            Origin::Nested { depth } => format!("nested/{depth}"),
        };
        *m.entry(node).or_insert(0) += 1;
    }
    m
}

fn check_properties(flow: &Flow, project: &Project, seed: u64) {
    let g = expand(flow, &project.library, seed, &Default::default()).expect("expands");
    let name = &flow.name.value;
    let graph = flow.graph().expect("flow graph");
    let counts = rooms_of(&g);
    // Chain lengths within their range (chains without rewrite rules).
    for node in &graph.nodes {
        if let NodeKind::Chain(chain) = &node.kind
            && chain.rules.is_empty()
            && let Some(&n) = counts.get(&node.id.value)
        {
            let (lo, hi) = chain.length.value;
            assert!(
                (lo as usize..=hi as usize).contains(&n),
                "{name} seed {seed}: chain {} has {n} rooms",
                node.id.value
            );
        }
    }
    // Selectors keep k in range of children (when the selector's parent exists
    // and its children are certain).
    for node in &graph.nodes {
        let NodeKind::Selector { pick } = &node.kind else {
            continue;
        };
        let kids: Vec<_> = graph
            .edges
            .iter()
            .filter(|e| e.from.value == node.id.value)
            .map(|e| e.to.value.clone())
            .collect();
        let certain = kids
            .iter()
            .all(|k| graph.node(k).is_some_and(|n| n.chance >= 1.0));
        let parent = graph
            .edges
            .iter()
            .find(|e| e.to.value == node.id.value)
            .map(|e| e.from.value.clone());
        if certain && parent.is_some_and(|p| counts.contains_key(&p)) && node.chance >= 1.0 {
            let kept = kids.iter().filter(|k| counts.contains_key(*k)).count() as u32;
            let (lo, hi) = pick.value;
            assert!(
                kept >= lo.min(kids.len() as u32) && kept <= hi,
                "{name} seed {seed}: selector {} kept {kept}",
                node.id.value
            );
        }
    }
    // Exactly one entrance.
    assert_eq!(
        g.graph
            .node_weights()
            .filter(|r| r.category == "entrance")
            .count(),
        1,
        "{name} seed {seed}"
    );
    // No template twice (connectors are chosen at layout).
    let mut seen = BTreeSet::new();
    for r in g.graph.node_weights() {
        if let Some(t) = &r.template {
            assert!(
                seen.insert(t.clone()),
                "{name} seed {seed}: template {t} twice"
            );
        }
    }
    // Connected through tree and loop edges, except warp wings.
    let mut reached = vec![false; g.len()];
    let mut queue = VecDeque::from([g.entrance]);
    reached[g.entrance.index()] = true;
    while let Some(v) = queue.pop_front() {
        for e in g
            .graph
            .edges_directed(v, petgraph::Direction::Outgoing)
            .chain(g.graph.edges_directed(v, petgraph::Direction::Incoming))
        {
            use petgraph::visit::EdgeRef;
            let w = if e.source() == v {
                e.target()
            } else {
                e.source()
            };
            if !reached[w.index()] {
                reached[w.index()] = true;
                queue.push_back(w);
            }
        }
    }
    assert!(
        reached.iter().all(|r| *r),
        "{name} seed {seed}: disconnected"
    );
    let wings = g
        .graph
        .edge_weights()
        .filter(|c| c.kind == EdgeKind::Warp)
        .count();
    if wings == 0 {
        // Without warps the physical edges alone connect everything.
        assert!(dungeonflow::internals::layout::physical_edges(&g).len() + 1 >= g.len());
    }
    // Every room's template has enough usable exits for its connections.
    for n in g.graph.node_indices() {
        let Some(t) = g.graph[n]
            .template
            .as_deref()
            .and_then(|t| project.library.get(t))
        else {
            continue;
        };
        let has_parent = g.parent(n).is_some();
        let doors = g.door_count(n);
        assert!(
            t.fits_degree(has_parent, doors - usize::from(has_parent)),
            "{name} seed {seed}: {} does not fit {}",
            t.name,
            g.graph[n].id
        );
    }
}

#[test]
fn expansion_properties_hold_for_every_bundled_flow() {
    let project = Project::bundled();
    for flow in project.flows.values().filter(|f| f.graph().is_some()) {
        for seed in 0..seeds() {
            check_properties(flow, &project, seed);
        }
    }
}

#[test]
fn secret_room_injection_follows_its_chance_and_placements() {
    // One dead end (`tail`) and four rooms that can host a child: the secret
    // room spawns with p = 0.9 and sits on the dead end with
    // p = 4/5 (end_of_chain) + 1/5 * 1/4 (random_node_child) = 0.85.
    let p = project_with(
        "name: t\nnodes:\n  start: entrance\n  a: normal\n  b: normal\n  tail: normal\nedges:\n  - start -> a -> b -> tail\ninjections:\n  - name: secret_room\n    room: secret\n    where: [random_node_child, end_of_chain x4]\n    chance: 0.9\n",
    );
    let flow = p.flow("t").expect("flow");
    let n = 4000;
    let (mut spawned, mut on_tail) = (0, 0);
    for seed in 0..n {
        let g = expand(flow, &p.library, seed, &Default::default()).expect("expands");
        if let Some(s) = g.find("secret_room.1") {
            spawned += 1;
            if g.parent(s).is_some_and(|q| g.graph[q].id == "tail") {
                on_tail += 1;
            }
        }
    }
    let spawn_rate = f64::from(spawned) / n as f64;
    let tail_share = f64::from(on_tail) / f64::from(spawned);
    println!("secret room: spawned {spawn_rate:.4}, on the dead end {tail_share:.4}");
    assert!((spawn_rate - 0.9).abs() < 0.02, "spawn rate {spawn_rate}");
    assert!(
        (tail_share - 0.85).abs() < 0.025,
        "dead-end share {tail_share}"
    );
}

#[test]
fn selector_follows_child_weights() {
    let p = project_with(
        "name: t\nnodes:\n  start: entrance\n  pick: { select: 1 }\n  light: { category: normal, weight: 1 }\n  heavy: { category: normal, weight: 3 }\nedges:\n  - start -> pick\n  - pick -> light\n  - pick -> heavy\n",
    );
    let flow = p.flow("t").expect("flow");
    let n = 4000;
    let heavy = (0..n)
        .filter(|&seed| {
            expand(flow, &p.library, seed, &Default::default())
                .expect("expands")
                .find("heavy")
                .is_some()
        })
        .count();
    let share = heavy as f64 / n as f64;
    println!("selector: heavy picked {share:.4}");
    assert!((share - 0.75).abs() < 0.025, "{share}");
}

#[test]
fn node_chance_follows_its_value() {
    let p = project_with(
        "name: t\nnodes:\n  start: entrance\n  maybe: { category: normal, chance: 0.3 }\nedges:\n  - start -> maybe\n",
    );
    let flow = p.flow("t").expect("flow");
    let n = 4000;
    let kept = (0..n)
        .filter(|&s| {
            expand(flow, &p.library, s, &Default::default())
                .expect("ok")
                .find("maybe")
                .is_some()
        })
        .count();
    let share = kept as f64 / n as f64;
    assert!((share - 0.3).abs() < 0.025, "{share}");
}

#[test]
fn expand_output_is_pinned_for_every_bundled_flow() {
    let project = Project::bundled();
    for (name, flow) in project.flows.iter().filter(|(_, f)| f.graph().is_some()) {
        let g = expand(flow, &project.library, 1, &Default::default()).expect("expands");
        insta::assert_yaml_snapshot!(format!("expand_{name}_seed1"), g.view());
    }
}

#[test]
fn an_impossible_injection_is_a_diagnostic() {
    let p = project_with(
        "name: t\nnodes:\n  start: entrance\n  a: normal\nedges:\n  - start -> a\ninjections:\n  - name: boss_prize\n    room: reward\n    where: [after_boss]\n    chance: 1\n",
    );
    let flow = p.flow("t").expect("flow");
    let d = expand(flow, &p.library, 0, &Default::default()).expect_err("no boss room");
    assert_eq!(d.code, "expand::injection-unplaced");
    assert!(d.location().is_some_and(|(_, line, _)| line == 8), "{d}");
}

#[test]
fn templates_seen_in_earlier_levels_come_back_less_often() {
    use dungeonflow::internals::expand::{TemplateHistory, expand_with_history};
    let p =
        project_with("name: t\nnodes:\n  start: entrance\n  a: normal\nedges:\n  - start -> a\n");
    let flow = p.flow("t").expect("flow");
    let pick = |history: &TemplateHistory, seed| {
        let g = expand_with_history(flow, &p.library, seed, &Default::default(), history)
            .expect("expands");
        g.graph[g.find("a").expect("a")]
            .template
            .clone()
            .expect("template")
    };
    let fresh = TemplateHistory::default();
    let favourite = pick(&fresh, 0);
    let seen: TemplateHistory = [(favourite.clone(), 9)].into_iter().collect();
    let n = 4000;
    let before = (0..n).filter(|&s| pick(&fresh, s) == favourite).count() as f64;
    let after = (0..n).filter(|&s| pick(&seen, s) == favourite).count() as f64;
    // Weight divided by 1 + 9: about ten times rarer (the others' share grows slightly).
    assert!(
        after * 6.0 < before && after > 0.0,
        "before {before}, after {after}"
    );
}

#[test]
fn a_library_too_small_for_the_flow_names_reuse_templates() {
    // Seven boss rooms in a row; the bundled library has six boss templates.
    let bosses: String = (1..=7).map(|i| format!("  b{i}: boss\n")).collect();
    let chain: Vec<String> = (1..=7).map(|i| format!("b{i}")).collect();
    let text = format!(
        "name: t\nnodes:\n  start: entrance\n{bosses}edges:\n  - start -> {}\n",
        chain.join(" -> ")
    );
    let p = project_with(&text);
    let flow = p.flow("t").expect("flow");
    let d = expand(flow, &p.library, 0, &Default::default()).expect_err("too few bosses");
    assert_eq!(d.code, "expand::category-dry");
    insta::assert_snapshot!(d.render(false));
    // The setting named in the help makes the same flow expand.
    let reused =
        project_with(&text.replace("name: t\n", "name: t\nlayout: { reuse_templates: true }\n"));
    let flow = reused.flow("t").expect("flow");
    assert!(expand(flow, &reused.library, 0, &Default::default()).is_ok());
}
