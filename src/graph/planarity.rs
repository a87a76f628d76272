//! Whether a graph of rooms can be drawn without crossing passages, and when
//! it cannot, the rooms that prove it.
//!
//! Rooms joined door to door or by corridors draw the graph in the plane, so
//! a level exists only for a planar graph. The test is the left-right
//! planarity test of `rustworkx-core` (linear time). A non-planar graph
//! contains a subdivided K5 or K3,3 (Kuratowski's theorem); it is found by
//! deleting every edge whose removal leaves the graph non-planar (dead ends
//! pruned first, edges dropped in doubling runs): a few dozen planarity
//! tests.

use std::collections::BTreeSet;

use petgraph::graph::{NodeIndex, UnGraph};
use rustworkx_core::planar::is_planar;

/// Which of Kuratowski's two graphs a [`Crossing`] is a subdivision of.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kuratowski {
    /// Five rooms, each joined to the four others.
    K5,
    /// Two sets of three rooms, each room joined to the three of the other set.
    K33,
}

/// Proof that a graph cannot be drawn without crossings: a subdivision of
/// K5 or K3,3 in it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Crossing {
    /// K5 or K3,3.
    pub kind: Kuratowski,
    /// The branch rooms (5 or 6), by index; for a K3,3 the first three are
    /// one side and the last three the other.
    pub rooms: Vec<usize>,
    /// The edges of the subdivision (the paths joining the branch rooms),
    /// each as `(smaller, larger)`.
    pub edges: Vec<(usize, usize)>,
}

/// `None` when the graph of `nodes` rooms and `edges` (pairs of room
/// indices; parallel edges and self-loops do not matter) is planar, else a
/// Kuratowski subgraph naming the rooms involved.
pub fn crossing(nodes: usize, edges: &[(usize, usize)]) -> Option<Crossing> {
    let edges: Vec<(usize, usize)> = edges
        .iter()
        .filter(|(a, b)| a != b && *a < nodes && *b < nodes)
        .map(|&(a, b)| (a.min(b), a.max(b)))
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    // Fewer than 9 edges or 5 rooms of degree 3 cannot hold K5 or K3,3.
    if edges.len() < 9 || planar(nodes, &edges) {
        return None;
    }
    Some(classify(
        nodes,
        minimal(nodes, without_leaves(nodes, edges)),
    ))
}

impl Crossing {
    /// A label for each room of [`Self::rooms`]: "one of the five" for a
    /// K5, else the side of the K3,3 it is on.
    pub fn labels(&self) -> impl Iterator<Item = &'static str> + '_ {
        (0..self.rooms.len()).map(|i| match (self.kind, i < 3) {
            (Kuratowski::K5, _) => "one of the five",
            (Kuratowski::K33, true) => "one side",
            (Kuratowski::K33, false) => "other side",
        })
    }

    /// What the rooms do that no drawing can, naming each room by `name`
    /// (of its index).
    pub fn describe(&self, name: impl Fn(usize) -> String) -> String {
        let list = |rooms: &[usize]| {
            let names: Vec<String> = rooms.iter().map(|&r| format!("`{}`", name(r))).collect();
            match names.split_last() {
                Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
                _ => names.concat(),
            }
        };
        match self.kind {
            Kuratowski::K5 => format!(
                "rooms {} are each joined to the four others (directly or through other rooms): no map can draw that without two passages crossing (a K5)",
                list(&self.rooms)
            ),
            Kuratowski::K33 => format!(
                "rooms {} are each joined to each of {} (directly or through other rooms): no map can draw that without two passages crossing (a K3,3)",
                list(&self.rooms[..3.min(self.rooms.len())]),
                list(&self.rooms[3.min(self.rooms.len())..])
            ),
        }
    }
}

fn planar(nodes: usize, edges: &[(usize, usize)]) -> bool {
    let mut g: UnGraph<(), ()> = UnGraph::with_capacity(nodes, edges.len());
    for _ in 0..nodes {
        g.add_node(());
    }
    for &(a, b) in edges {
        g.add_edge(NodeIndex::new(a), NodeIndex::new(b), ());
    }
    is_planar(&g)
}

fn degrees(nodes: usize, edges: &[(usize, usize)]) -> Vec<usize> {
    let mut degree = vec![0; nodes];
    for &(a, b) in edges {
        degree[a] += 1;
        degree[b] += 1;
    }
    degree
}

/// A minimal non-planar subset of the non-planar `edges`: every edge the
/// graph stays non-planar without is dropped. Edges are dropped in runs
/// that double while the graph stays non-planar and halve when it turns
/// planar, so the planarity tests number about the witness's edges times
/// the logarithm of all edges rather than one per edge.
fn minimal(nodes: usize, mut kept: Vec<(usize, usize)>) -> Vec<(usize, usize)> {
    let (mut i, mut run) = (0, 1);
    while i < kept.len() {
        let take = run.min(kept.len() - i);
        let removed: Vec<(usize, usize)> = kept.drain(i..i + take).collect();
        if planar(nodes, &kept) {
            // Something in the run is needed: put it back and look closer.
            kept.splice(i..i, removed);
            if take == 1 {
                i += 1;
            } else {
                run = take / 2;
            }
        } else {
            run = take * 2;
        }
    }
    kept
}

/// `edges` less every edge to a room of degree one, repeatedly (no
/// Kuratowski subgraph goes through a dead end).
fn without_leaves(nodes: usize, mut edges: Vec<(usize, usize)>) -> Vec<(usize, usize)> {
    loop {
        let degree = degrees(nodes, &edges);
        let before = edges.len();
        edges.retain(|&(a, b)| degree[a] > 1 && degree[b] > 1);
        if edges.len() == before {
            return edges;
        }
    }
}

/// Names the branch rooms of a minimal non-planar subgraph.
fn classify(nodes: usize, edges: Vec<(usize, usize)>) -> Crossing {
    let degree = degrees(nodes, &edges);
    let branch: Vec<usize> = (0..nodes).filter(|&v| degree[v] >= 3).collect();
    if branch.len() != 6 {
        return Crossing {
            kind: Kuratowski::K5,
            rooms: branch,
            edges,
        };
    }
    // K3,3: the side of the first branch room is the branch rooms its paths
    // do not reach.
    let reached = path_ends(&edges, &degree, branch[0]);
    let mut rooms: Vec<usize> = branch
        .iter()
        .copied()
        .filter(|v| !reached.contains(v))
        .collect();
    rooms.extend(branch.iter().copied().filter(|v| reached.contains(v)));
    Crossing {
        kind: Kuratowski::K33,
        rooms,
        edges,
    }
}

/// The branch rooms the paths leaving `from` end at (through rooms of
/// degree two).
fn path_ends(edges: &[(usize, usize)], degree: &[usize], from: usize) -> BTreeSet<usize> {
    let next = |v: usize, prev: usize| {
        edges.iter().find_map(|&(a, b)| match (a == v, b == v) {
            (true, _) if b != prev => Some(b),
            (_, true) if a != prev => Some(a),
            _ => None,
        })
    };
    let mut ends = BTreeSet::new();
    for &(a, b) in edges.iter().filter(|(a, b)| *a == from || *b == from) {
        let (mut prev, mut v) = (from, if a == from { b } else { a });
        while degree[v] == 2 {
            match next(v, prev) {
                Some(w) => (prev, v) = (v, w),
                None => break,
            }
        }
        ends.insert(v);
    }
    ends
}

#[cfg(test)]
mod tests {
    use super::*;

    fn complete(n: usize) -> Vec<(usize, usize)> {
        (0..n)
            .flat_map(|a| (a + 1..n).map(move |b| (a, b)))
            .collect()
    }

    #[test]
    fn k4_and_a_grid_are_planar() {
        assert_eq!(crossing(4, &complete(4)), None);
        let grid: Vec<(usize, usize)> = (0..16)
            .flat_map(|v| {
                let right = (v % 4 < 3).then_some((v, v + 1));
                let down = (v < 12).then_some((v, v + 4));
                right.into_iter().chain(down)
            })
            .collect();
        assert_eq!(crossing(16, &grid), None);
    }

    #[test]
    fn a_subdivided_k5_with_a_tail_names_its_five_rooms() {
        // K5 on rooms 0..5, the edge 0-1 through room 5, a tail 4-6-7.
        let mut edges: Vec<(usize, usize)> =
            complete(5).into_iter().filter(|&e| e != (0, 1)).collect();
        edges.extend([(0, 5), (5, 1), (4, 6), (6, 7)]);
        let c = crossing(8, &edges).expect("not planar");
        assert_eq!(c.kind, Kuratowski::K5);
        assert_eq!(c.rooms, vec![0, 1, 2, 3, 4]);
        assert_eq!(c.edges.len(), 11);
    }

    #[test]
    fn k33_inside_a_larger_graph_names_both_sides() {
        // Sides {0, 1, 2} and {3, 4, 5}, plus a planar ring 6..10 hanging
        // off room 0 and a chord.
        let mut edges: Vec<(usize, usize)> =
            (0..3).flat_map(|a| (3..6).map(move |b| (a, b))).collect();
        edges.extend([(0, 6), (6, 7), (7, 8), (8, 9), (9, 6), (7, 9)]);
        let c = crossing(10, &edges).expect("not planar");
        assert_eq!(c.kind, Kuratowski::K33);
        assert_eq!(c.rooms, vec![0, 1, 2, 3, 4, 5]);
        assert_eq!(c.edges.len(), 9);
    }
}
