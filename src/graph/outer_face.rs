//! Which rooms of a loop composite a drawing must leave inside: a loop
//! composite is laid out alone and the rest of the level is attached around
//! it, so a room linked out of it that ends inside a loop must fit all it
//! leads to inside that loop. Three paths between the same two rooms (a
//! theta) always leave one path inside.

use std::collections::BTreeSet;

use petgraph::graph::{EdgeIndex, NodeIndex};
use petgraph::visit::EdgeRef;

use super::{Composite, CompositeKind, Decomposition, Ear, LevelGraph, ears_from};

/// The rooms around a loop composite's outside, in order (a cycle, first
/// room not repeated), as its ears are added. An ear between two of them is
/// drawn around the outside, enclosing the rooms of one of the two arcs
/// between its ends; an ear from a room already inside stays inside.
#[derive(Clone, Debug, PartialEq, Eq)]
struct OuterFace(Vec<NodeIndex>);

impl OuterFace {
    /// The outer face of a single cycle (`cycle`: its rooms in order).
    fn new(cycle: &[NodeIndex]) -> Self {
        OuterFace(cycle.to_vec())
    }

    /// The rooms on the outer face, in order around it.
    #[cfg(test)]
    fn rooms(&self) -> &[NodeIndex] {
        &self.0
    }

    /// Adds `ear`, drawn so that no room `linked` says has an edge out of
    /// the composite ends inside: around the outside when both ends are on
    /// it (enclosing the shorter arc between them that holds no such room),
    /// inside when an end is inside and its own rooms have no such edge.
    /// Otherwise returns the linked rooms each way of drawing it encloses,
    /// and leaves the face as it was.
    fn admit(
        &mut self,
        ear: &Ear,
        linked: impl Fn(NodeIndex) -> bool,
    ) -> Result<(), Vec<Vec<NodeIndex>>> {
        let k = ear.nodes.len();
        let (u, v) = (ear.nodes[0], ear.nodes[k - 1]);
        let inner = &ear.nodes[1..k - 1];
        let linked_of = |rooms: &[NodeIndex]| -> Vec<NodeIndex> {
            rooms.iter().copied().filter(|&x| linked(x)).collect()
        };
        let (Some(i), Some(j)) = (self.position(u), self.position(v)) else {
            let enclosed = linked_of(inner);
            return if enclosed.is_empty() {
                Ok(())
            } else {
                Err(vec![enclosed])
            };
        };
        if i == j {
            // A loop hanging from one room: it encloses nothing.
            self.0.splice(i + 1..i + 1, inner.iter().copied());
            return Ok(());
        }
        // The arcs from u to v and from v to u, ends excluded.
        let (u_to_v, v_to_u) = (self.arc(i, j), self.arc(j, i));
        let (in_u_to_v, in_v_to_u) = (linked_of(&u_to_v), linked_of(&v_to_u));
        let kept: Vec<NodeIndex> = match (in_u_to_v.is_empty(), in_v_to_u.is_empty()) {
            (true, true) if u_to_v.len() <= v_to_u.len() => v_to_u,
            (true, false) => v_to_u,
            (_, true) => u_to_v.into_iter().rev().collect(),
            (false, false) => return Err(vec![in_u_to_v, in_v_to_u]),
        };
        // Around the ear from u to v, then back along the kept arc.
        self.0 = ear.nodes.iter().copied().chain(kept).collect();
        Ok(())
    }

    fn position(&self, v: NodeIndex) -> Option<usize> {
        self.0.iter().position(|&x| x == v)
    }

    /// The rooms strictly between positions `from` and `to`, going forward.
    fn arc(&self, from: usize, to: usize) -> Vec<NodeIndex> {
        let n = self.0.len();
        (1..n)
            .map(|s| (from + s) % n)
            .take_while(|&p| p != to)
            .map(|p| self.0[p])
            .collect()
    }
}

/// A path of a loop composite that no drawing adds without enclosing a room
/// linked out of the composite.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Enclosure {
    /// Index of the loop composite.
    pub composite: usize,
    /// The path (an ear), first and last room already in the composite.
    pub path: Vec<NodeIndex>,
    /// For each way of drawing the path, the linked rooms it encloses.
    pub enclosed: Vec<Vec<NodeIndex>>,
}

/// Whether room `v` has a physical edge out of `comp` (what a drawing must
/// leave outside the composite's loops).
fn linked_out<'l>(level: &'l LevelGraph, comp: &Composite) -> impl Fn(NodeIndex) -> bool + 'l {
    let inside: BTreeSet<EdgeIndex> = comp.edges.iter().copied().collect();
    move |v| level.doors(v).any(|e| !inside.contains(&e.id()))
}

/// The ears of `ears` (the first a cycle) that no drawing adds, in order to
/// an [`OuterFace`], without enclosing a room `linked` says has an edge out
/// of the composite, each with the linked rooms each way of drawing it
/// encloses.
fn refused(ears: &[Ear], linked: impl Fn(NodeIndex) -> bool) -> Vec<(&Ear, Vec<Vec<NodeIndex>>)> {
    let first = &ears[0].nodes;
    let mut face = OuterFace::new(&first[..first.len() - 1]);
    ears[1..]
        .iter()
        .filter_map(|ear| {
            face.admit(ear, &linked)
                .err()
                .map(|enclosed| (ear, enclosed))
        })
        .collect()
}

/// Re-orders the ears of each loop composite of `d` that must enclose a
/// room linked out of it (an [`Enclosure`]) to start from another of its
/// rooms: the first, in room order, from which every ear can be added with
/// all linked rooms left outside, if any. Ears are drawn around what is
/// already laid out, so which rooms end inside depends on the order (the
/// bundled `maze`: median 1.86 to 1.10 ms and fewer layout attempts; a
/// 50-room graph whose loops overlap laid out 10 seeds of 10 against 5).
pub fn open_ear_orders(level: &LevelGraph, d: &mut Decomposition) {
    for comp in &mut d.composites {
        let CompositeKind::Loop(ears) = &comp.kind else {
            continue;
        };
        let linked = linked_out(level, comp);
        if ears.len() < 2 || refused(ears, &linked).is_empty() {
            continue;
        }
        let open = comp
            .nodes
            .iter()
            .filter_map(|&v| ears_from(level, comp, v))
            .find(|ears| refused(ears, &linked).is_empty());
        if let Some(ears) = open {
            comp.kind = CompositeKind::Loop(ears);
        }
    }
}

/// Every [`Enclosure`] of the loop composites of `d`: their ears added in
/// order to an [`OuterFace`], a room counting as linked when it has a
/// physical edge outside its composite.
pub fn enclosures(level: &LevelGraph, d: &Decomposition) -> Vec<Enclosure> {
    let mut out = Vec::new();
    for (c, comp) in d.composites.iter().enumerate() {
        let CompositeKind::Loop(ears) = &comp.kind else {
            continue;
        };
        if ears.len() < 2 {
            continue;
        }
        for (ear, enclosed) in refused(ears, linked_out(level, comp)) {
            out.push(Enclosure {
                composite: c,
                path: ear.nodes.clone(),
                enclosed,
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn n(i: usize) -> NodeIndex {
        NodeIndex::new(i)
    }

    fn ear(nodes: &[usize]) -> Ear {
        Ear {
            nodes: nodes.iter().map(|&i| n(i)).collect(),
            edges: (0..nodes.len() - 1).map(EdgeIndex::new).collect(),
        }
    }

    fn ids(face: &OuterFace) -> Vec<usize> {
        face.rooms().iter().map(|v| v.index()).collect()
    }

    #[test]
    fn an_ear_encloses_the_shorter_arc_free_of_linked_rooms() {
        // The ring 0 1 2 3 4 5; an ear 0 - 9 - 3.
        let ring = [0, 1, 2, 3, 4, 5].map(n);
        let mut face = OuterFace::new(&ring);
        assert_eq!(face.admit(&ear(&[0, 9, 3]), |_| false), Ok(()));
        // Both arcs are free and as long: 1 2 goes inside.
        assert_eq!(ids(&face), vec![0, 9, 3, 4, 5]);

        let mut face = OuterFace::new(&ring);
        // Room 4 links outside: the arc 1 2 goes inside.
        assert_eq!(face.admit(&ear(&[0, 9, 3]), |v| v == n(4)), Ok(()));
        assert_eq!(ids(&face), vec![0, 9, 3, 4, 5]);
        let mut face = OuterFace::new(&ring);
        // Room 1 links outside: the arc 4 5 goes inside instead.
        assert_eq!(face.admit(&ear(&[0, 9, 3]), |v| v == n(1)), Ok(()));
        assert_eq!(ids(&face), vec![0, 9, 3, 2, 1]);
    }

    #[test]
    fn a_theta_with_linked_rooms_on_both_other_paths_encloses_one() {
        // The ring 0 1 2 3 and an ear 0 9 2, rooms 1 and 3 linked outside:
        // whichever side the ear goes, one of them ends inside.
        let mut face = OuterFace::new(&[0, 1, 2, 3].map(n));
        let linked = |v: NodeIndex| v == n(1) || v == n(3);
        assert_eq!(
            face.admit(&ear(&[0, 9, 2]), linked),
            Err(vec![vec![n(1)], vec![n(3)]])
        );
        assert_eq!(
            ids(&face),
            vec![0, 1, 2, 3],
            "a refused ear changes nothing"
        );
    }

    #[test]
    fn ears_from_inside_keep_only_unlinked_rooms_and_hanging_loops_enclose_nothing() {
        let mut face = OuterFace::new(&[0, 1, 2, 3].map(n));
        // 1 goes inside.
        assert_eq!(face.admit(&ear(&[0, 8, 2]), |_| false), Ok(()));
        assert_eq!(ids(&face), vec![0, 8, 2, 3]);
        // From the inside room 1 to 3: only with unlinked inner rooms.
        assert_eq!(face.admit(&ear(&[1, 7, 3]), |_| false), Ok(()));
        assert_eq!(
            face.admit(&ear(&[1, 6, 3]), |v| v == n(6)),
            Err(vec![vec![n(6)]])
        );
        assert_eq!(ids(&face), vec![0, 8, 2, 3]);
        // A loop 2 5 4 2 hanging from 2 joins the face after 2.
        assert_eq!(face.admit(&ear(&[2, 5, 4, 2]), |_| true), Ok(()));
        assert_eq!(ids(&face), vec![0, 8, 2, 5, 4, 3]);
    }
}
