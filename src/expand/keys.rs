//! Automatic key placement: a key that no room holds goes into a random room
//! the player reaches before its lock (the lock's source or one of its
//! ancestors on the tree side), so every level stays solvable.

use std::collections::BTreeSet;

use petgraph::graph::NodeIndex;
use petgraph::visit::EdgeRef;

use crate::graph::{EdgeKind, LevelGraph};
use crate::rng::Rng;

/// Places every key that no room holds yet.
pub fn place(level: &mut LevelGraph, rng: &mut Rng) {
    let held: BTreeSet<String> = level
        .graph
        .node_weights()
        .flat_map(|r| r.keys.iter().cloned())
        .collect();
    let mut locks: Vec<(String, NodeIndex)> = level
        .graph
        .edge_references()
        .filter_map(|e| e.weight().lock.clone().map(|k| (k, e.source())))
        .filter(|(k, _)| !held.contains(k))
        .collect();
    locks.sort();
    locks.dedup_by(|a, b| a.0 == b.0);
    for (key, source) in locks {
        let before = ancestors(level, source);
        let room = before[rng.index(before.len())];
        level.graph[room].keys.push(key);
    }
}

/// `n` and the rooms above it: tree parents, then across the warp into a wing.
pub fn ancestors(level: &LevelGraph, n: NodeIndex) -> Vec<NodeIndex> {
    let mut out = vec![n];
    let mut cur = n;
    while out.len() <= level.len() {
        let up = level.parent(cur).or_else(|| {
            level
                .graph
                .edges_directed(cur, petgraph::Direction::Incoming)
                .find(|e| e.weight().kind == EdgeKind::Warp)
                .map(|e| e.source())
        });
        match up {
            Some(p) => {
                out.push(p);
                cur = p;
            }
            None => break,
        }
    }
    out
}
