//! Decomposition: the ears of a loop composite re-ordered to start at any of
//! its rooms (what in-place loop growth relies on) cover the composite, and
//! a composite whose smallest cycle would enclose a linked room starts from
//! another.

use std::collections::BTreeSet;

use dungeonflow::Project;
use dungeonflow::internals::expand::expand;
use dungeonflow::internals::graph::{CompositeKind, decompose, ears_from, enclosures};

#[path = "support/families.rs"]
#[allow(dead_code)]
mod families;
#[path = "support/project.rs"]
mod project;
use project::project_with;

/// The level graph of `flow` (named `name`), expanded with seed 1.
fn expanded(flow: &str, name: &str) -> dungeonflow::internals::graph::LevelGraph {
    let project = project_with(flow);
    expand(
        project.flow(name).expect("flow"),
        &project.library,
        1,
        &BTreeSet::new(),
    )
    .expect("expands")
}

/// Checks that `ears` grow from the first cycle, each hanging on rooms
/// already laid out, with no edge twice; returns how many edges they have.
fn grown_edges(ears: &[dungeonflow::internals::graph::Ear]) -> usize {
    let mut placed = BTreeSet::from([ears[0].nodes[0]]);
    let mut edges = BTreeSet::new();
    for (i, ear) in ears.iter().enumerate() {
        let (a, b) = (ear.nodes[0], *ear.nodes.last().expect("ends"));
        assert!(placed.contains(&a) && placed.contains(&b), "ear {i} hangs");
        placed.extend(ear.nodes.iter().copied());
        for &e in &ear.edges {
            assert!(edges.insert(e), "ear {i} repeats an edge");
        }
    }
    edges.len()
}

/// The rooms and edges of the one composite `flow` decomposes into, its
/// ears checked with [`grown_edges`] and no link left.
fn one_loop_composite(flow: &str, name: &str) -> (usize, usize) {
    let d = decompose(&expanded(flow, name));
    assert_eq!(d.composites.len(), 1, "{:?}", d.composites);
    assert!(d.links.is_empty(), "links {:?}", d.links);
    assert!(d.composite_of.iter().all(|&c| c == 0));
    let comp = &d.composites[0];
    let CompositeKind::Loop(ears) = &comp.kind else {
        panic!("a loop composite");
    };
    assert_eq!(grown_edges(ears), comp.edges.len(), "every edge in one ear");
    (comp.nodes.len(), comp.edges.len())
}

#[test]
fn ears_from_any_room_cover_the_loop_composite() {
    let project = Project::bundled();
    let mut checked = 0;
    for name in ["maze", "giant_loop", "loop_series", "two_wings", "cells"] {
        let flow = project.flow(name).expect("bundled flow");
        for seed in 0..20 {
            let graph = expand(flow, &project.library, seed, &BTreeSet::new()).expect("expands");
            let d = decompose(&graph);
            for comp in &d.composites {
                if !matches!(comp.kind, CompositeKind::Loop(_)) {
                    continue;
                }
                for &anchor in &comp.nodes {
                    let ears = ears_from(&graph, comp, anchor).unwrap_or_else(|| {
                        panic!(
                            "{name} seed {seed}: no ears from {}",
                            graph.graph[anchor].id
                        )
                    });
                    let first = &ears[0];
                    assert_eq!(first.nodes.first(), Some(&anchor));
                    assert_eq!(first.nodes.last(), Some(&anchor), "a closed cycle first");
                    assert!(first.nodes.len() >= 3, "a cycle of at least two rooms");
                    let mut placed = BTreeSet::from([anchor]);
                    let mut edges = Vec::new();
                    for (i, ear) in ears.iter().enumerate() {
                        assert_eq!(ear.edges.len() + 1, ear.nodes.len());
                        let (a, b) = (ear.nodes[0], *ear.nodes.last().expect("ends"));
                        assert!(placed.contains(&a) && placed.contains(&b), "ear {i} hangs");
                        for (k, &e) in ear.edges.iter().enumerate() {
                            let (x, y) = graph.graph.edge_endpoints(e).expect("edge");
                            let pair = BTreeSet::from([x, y]);
                            let want = BTreeSet::from([ear.nodes[k], ear.nodes[k + 1]]);
                            assert_eq!(pair, want, "ear {i} edge {k} joins its rooms");
                        }
                        for inner in &ear.nodes[1..ear.nodes.len() - 1] {
                            assert!(placed.insert(*inner), "ear {i} revisits a room");
                        }
                        edges.extend(ear.edges.iter().copied());
                    }
                    edges.sort();
                    let mut want = comp.edges.clone();
                    want.sort();
                    assert_eq!(edges, want, "every edge of the composite once");
                    let nodes: BTreeSet<_> = comp.nodes.iter().copied().collect();
                    assert_eq!(placed, nodes, "every room of the composite");
                    checked += 1;
                }
            }
        }
    }
    assert!(checked > 500, "only {checked} anchors checked");
}

#[test]
fn the_split_covers_every_edge_once_and_starts_from_a_smallest_cycle() {
    use dungeonflow::internals::graph::{EdgeKind, smallest_cycle};
    use petgraph::visit::EdgeRef;

    let project = Project::bundled();
    let (mut loops, mut reordered) = (0, 0);
    for (name, flow) in &project.flows {
        for seed in 0..10 {
            let Ok(graph) = expand(flow, &project.library, seed, &BTreeSet::new()) else {
                continue;
            };
            let physical: BTreeSet<_> = graph
                .graph
                .edge_references()
                .filter(|e| e.weight().kind != EdgeKind::Warp && e.source() != e.target())
                .map(|e| e.id())
                .collect();
            let d = decompose(&graph);
            let mut covered: Vec<_> = d
                .composites
                .iter()
                .flat_map(|c| c.edges.iter().copied())
                .chain(d.links.iter().copied())
                .collect();
            covered.sort();
            let once: Vec<_> = physical.iter().copied().collect();
            assert_eq!(covered, once, "{name} seed {seed}: every edge once");
            for (i, c) in d.composites.iter().enumerate() {
                for n in &c.nodes {
                    assert_eq!(d.composite_of[n.index()], i, "{name} seed {seed}");
                }
            }
            // The first loop composite starts from a smallest cycle of the
            // graph, unless that order had to enclose a linked room and
            // another order of the composite does not.
            let shortest = smallest_cycle(&graph, &physical).map(|(nodes, _)| nodes.len());
            let first = d
                .composites
                .iter()
                .enumerate()
                .find_map(|(i, c)| match &c.kind {
                    CompositeKind::Loop(ears) => Some((i, ears[0].nodes.len() - 1)),
                    CompositeKind::Tree => None,
                });
            if first.map(|f| f.1) != shortest {
                let (i, _) = first.expect("a loop composite");
                let enclosing = enclosures(&graph, &d).iter().any(|e| e.composite == i);
                assert!(!enclosing, "{name} seed {seed}: re-ordered yet enclosing");
                reordered += 1;
            }
            loops += usize::from(first.is_some());
        }
    }
    assert!(loops > 50, "only {loops} graphs with a loop");
    assert!(reordered < loops / 4, "{reordered} of {loops} re-ordered");
}

#[test]
fn a_loop_whose_smallest_cycle_would_enclose_a_linked_room_starts_elsewhere() {
    // Three paths join `a` and `c`: through `b`, through `d` (the 4-cycle
    // `a b c d` is the smallest) and through `e f`. `b` and `d` have
    // branches out of the loop, so whichever path is drawn last around the
    // other two encloses the middle one: grown from `a b c d`, `e f` goes
    // around it and encloses `b` or `d` with its branch; grown from a cycle
    // through `e f`, the last path encloses `e f`, which has no branch.
    let flow = "name: theta\nnodes:\n  a: entrance\n  b: normal\n  c: normal\n  d: normal\n  e: normal\n  f: normal\n  x: normal\n  y: normal\nedges:\n  - a -> b\n  - b -> c\n  - a -> d\n  - a -> e\n  - e -> f\n  - b -> x\n  - d -> y\nloops:\n  - d <-> c\n  - f <-> c\n";
    let graph = expanded(flow, "theta");
    let d = decompose(&graph);
    let ears = d
        .composites
        .iter()
        .find_map(|c| match &c.kind {
            CompositeKind::Loop(ears) => Some(ears),
            CompositeKind::Tree => None,
        })
        .expect("a loop composite");
    let ids = |i: usize| -> Vec<&str> {
        ears[i]
            .nodes
            .iter()
            .map(|&v| graph.graph[v].id.as_str())
            .collect()
    };
    assert!(ids(0).contains(&"e"), "first cycle {:?}", ids(0));
    assert!(
        enclosures(&graph, &d).is_empty(),
        "ears {:?}",
        (0..ears.len()).map(ids).collect::<Vec<_>>()
    );
}

#[test]
fn a_cycle_through_two_loop_composites_merges_them_into_one() {
    // Triangles `a1 a2 a3` and `b1 b2 b3` are found first (smallest cycle
    // first); the cycle `a1 c1 c2 c3 b1` then runs through both. Left as
    // links, its rooms would close a cycle of composites that only a
    // corridor at the end of the assembly could close; merged, they are
    // ears of one loop composite.
    let flow = "name: chain_of_loops\nnodes:\n  a1: entrance\n  a2: normal\n  a3: normal\n  b1: normal\n  b2: normal\n  b3: normal\n  c1: normal\n  c2: normal\n  c3: normal\nedges:\n  - a1 -> a2\n  - a2 -> a3\n  - a1 -> c1\n  - c1 -> c2\n  - c2 -> c3\n  - c3 -> b1\n  - b1 -> b2\n  - b2 -> b3\nloops:\n  - a3 <-> a1\n  - b3 <-> b1\n  - b1 <-> a1\n";
    assert_eq!(one_loop_composite(flow, "chain_of_loops"), (9, 11));
}

#[test]
fn two_paths_between_two_loop_composites_merge_them_into_one() {
    // Triangles `a1 a2 a3` and `b1 b2 b3`, joined by two paths, `a1 p1 p2
    // b1` and `a2 q1 q2 b2`: the cycle through both paths runs over an edge
    // of each triangle, so no cycle is left among the edges the triangles
    // leave. Left as links, the paths would close a cycle of composites.
    let flow = "name: ladder\nnodes:\n  a1: entrance\n  a2: normal\n  a3: normal\n  b1: normal\n  b2: normal\n  b3: normal\n  p1: normal\n  p2: normal\n  q1: normal\n  q2: normal\nedges:\n  - a1 -> a2\n  - a2 -> a3\n  - a1 -> p1\n  - p1 -> p2\n  - p2 -> b1\n  - b1 -> b2\n  - b2 -> b3\n  - a2 -> q1\n  - q1 -> q2\nloops:\n  - a3 <-> a1\n  - b3 <-> b1\n  - q2 <-> b2\n";
    assert_eq!(one_loop_composite(flow, "ladder"), (10, 12));
}

#[test]
fn no_cycle_of_composites_is_left_on_graphs_of_overlapping_loops() {
    // A link that joins two composites already joined by other links closes
    // a cycle of composites: the assembly attaches composites one link at a
    // time, so such a link could only be made by a corridor at the end.
    use families::Family;
    use petgraph::unionfind::UnionFind;
    let families = [
        Family::TreeLoops {
            rooms: 20,
            loops: 3,
        },
        Family::TreeLoops {
            rooms: 45,
            loops: 5,
        },
        Family::TreeLoops {
            rooms: 100,
            loops: 10,
        },
        Family::Cactus { cycles: 12 },
        Family::Theta {
            paths: 3,
            length: 4,
        },
        Family::LoopGrid {
            width: 3,
            height: 2,
        },
        Family::RingChords {
            rooms: 16,
            chords: 3,
        },
    ];
    let mut links = 0;
    for family in families {
        for seed in 0..12 {
            let name = format!("family_{seed}");
            let graph = expanded(&family.flow(seed), &name);
            let d = decompose(&graph);
            let mut joined = UnionFind::<usize>::new(d.composites.len());
            for &l in &d.links {
                let (a, b) = graph.graph.edge_endpoints(l).expect("edge");
                assert!(
                    joined.union(d.composite_of[a.index()], d.composite_of[b.index()]),
                    "{} graph {seed}: link {}-{} closes a cycle of composites",
                    family.label(),
                    graph.graph[a].id,
                    graph.graph[b].id
                );
                links += 1;
            }
        }
    }
    assert!(links > 200, "only {links} links checked");
}
