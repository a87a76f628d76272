//! Decomposition: the ears of a loop composite re-ordered to start at any of
//! its rooms (what in-place loop growth relies on) cover the composite.

use std::collections::BTreeSet;

use dungeonflow::Project;
use dungeonflow::expand::expand;
use dungeonflow::graph::{CompositeKind, decompose, ears_from};

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
    use dungeonflow::graph::{EdgeKind, smallest_cycle};
    use petgraph::visit::EdgeRef;

    let project = Project::bundled();
    let mut loops = 0;
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
            // The first loop composite starts from a smallest cycle of the graph.
            let shortest = smallest_cycle(&graph, &physical).map(|(nodes, _)| nodes.len());
            let first = d.composites.iter().find_map(|c| match &c.kind {
                CompositeKind::Loop(ears) => Some(ears[0].nodes.len() - 1),
                CompositeKind::Tree => None,
            });
            assert_eq!(first, shortest, "{name} seed {seed}");
            loops += usize::from(first.is_some());
        }
    }
    assert!(loops > 50, "only {loops} graphs with a loop");
}
