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
        let mut ways = self.ways(ear, &linked);
        let chosen = match ways.as_slice() {
            [(_, enclosed, _)] if !enclosed.is_empty() => return Err(vec![enclosed.clone()]),
            [_] => 0,
            [(_, e0, r0), (_, e1, r1)] if e0.is_empty() && (!e1.is_empty() || r0 <= r1) => 0,
            [_, (_, e1, _)] if e1.is_empty() => 1,
            _ => return Err(ways.into_iter().map(|(_, enclosed, _)| enclosed).collect()),
        };
        *self = ways.swap_remove(chosen).0;
        Ok(())
    }

    /// Every way of drawing `ear` ([`Self::admit`] picks one): the face
    /// after it, the rooms `linked` says have an edge out that it encloses,
    /// and how many rooms it encloses in all.
    fn ways(
        &self,
        ear: &Ear,
        linked: &dyn Fn(NodeIndex) -> bool,
    ) -> Vec<(OuterFace, Vec<NodeIndex>, usize)> {
        let k = ear.nodes.len();
        let (u, v) = (ear.nodes[0], ear.nodes[k - 1]);
        let inner = &ear.nodes[1..k - 1];
        let linked_of = |rooms: &[NodeIndex]| -> Vec<NodeIndex> {
            rooms.iter().copied().filter(|&x| linked(x)).collect()
        };
        let (Some(i), Some(j)) = (self.position(u), self.position(v)) else {
            return vec![(self.clone(), linked_of(inner), inner.len())];
        };
        if i == j {
            let mut face = self.clone();
            face.0.splice(i + 1..i + 1, inner.iter().copied());
            return vec![(face, Vec::new(), 0)];
        }
        let (u_to_v, v_to_u) = (self.arc(i, j), self.arc(j, i));
        let around =
            |kept: Vec<NodeIndex>| OuterFace(ear.nodes.iter().copied().chain(kept).collect());
        vec![
            (around(v_to_u.clone()), linked_of(&u_to_v), u_to_v.len()),
            (
                around(u_to_v.iter().rev().copied().collect()),
                linked_of(&v_to_u),
                v_to_u.len(),
            ),
        ]
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

/// Whether `ears` (an ear order of loop composite `comp`) can be drawn
/// with every room that links out of the composite on its outer face.
pub fn leaves_linked_outside(level: &LevelGraph, comp: &Composite, ears: &[Ear]) -> bool {
    ears.len() < 2 || refused(ears, linked_out(level, comp)).is_empty()
}

/// Ears searched exhaustively by [`plan`]; past them, one way per ear.
const PLANNED_EARS: usize = 14;

/// The best way to draw `ears` in order, each ear around the outside (or
/// inside, from a room already inside): for each ear, the linked rooms it
/// encloses. A linked room may end inside only when `absorbable` says its
/// links all lead to dead-end branches (laid out with the composite,
/// inside the loop); of the drawings that allow, the one enclosing the
/// fewest linked rooms, then the fewest rooms. `None` when every drawing
/// walls in a room with a link the assembly must make.
pub fn plan(
    ears: &[Ear],
    linked: &dyn Fn(NodeIndex) -> bool,
    absorbable: &dyn Fn(NodeIndex) -> bool,
) -> Option<Vec<Vec<NodeIndex>>> {
    let first = &ears[0].nodes;
    let face = OuterFace::new(&first[..first.len() - 1]);
    let mut best: Option<(usize, Vec<Vec<NodeIndex>>)> = None;
    let mut chosen = vec![Vec::new()];
    search(
        &ears[1..],
        face,
        0,
        &mut chosen,
        &mut best,
        linked,
        absorbable,
    );
    best.map(|(_, p)| p)
}

/// Depth-first search of [`plan`]: the ways of drawing `rest` from `face`,
/// `cost` so far, `chosen` the enclosed linked rooms of the ears drawn.
#[allow(clippy::too_many_arguments)]
fn search(
    rest: &[Ear],
    face: OuterFace,
    cost: usize,
    chosen: &mut Vec<Vec<NodeIndex>>,
    best: &mut Option<(usize, Vec<Vec<NodeIndex>>)>,
    linked: &dyn Fn(NodeIndex) -> bool,
    absorbable: &dyn Fn(NodeIndex) -> bool,
) {
    if best.as_ref().is_some_and(|(b, _)| *b <= cost) {
        return;
    }
    let Some((ear, rest)) = rest.split_first() else {
        *best = Some((cost, chosen.clone()));
        return;
    };
    let mut ways = face.ways(ear, linked);
    ways.retain(|(_, enclosed, _)| enclosed.iter().all(|&v| absorbable(v)));
    ways.sort_by_key(|(_, enclosed, rooms)| (enclosed.len(), *rooms));
    if chosen.len() > PLANNED_EARS {
        ways.truncate(1);
    }
    for (face, enclosed, rooms) in ways {
        let step = enclosed.len() * 1000 + rooms;
        chosen.push(enclosed);
        search(rest, face, cost + step, chosen, best, linked, absorbable);
        chosen.pop();
        if chosen.len() > PLANNED_EARS && best.is_some() {
            return;
        }
    }
}

/// Whether room `v` of `comp` has only links the layout can make inside a
/// loop: each to a dead-end branch ([`Decomposition::dead_end_branches`]).
fn absorbable_in<'l>(
    level: &'l LevelGraph,
    d: &'l Decomposition,
    comp: &Composite,
) -> impl Fn(NodeIndex) -> bool + 'l {
    let inside: BTreeSet<EdgeIndex> = comp.edges.iter().copied().collect();
    move |v| {
        let branches = d.dead_end_branches(level, v);
        level
            .doors(v)
            .filter(|e| !inside.contains(&e.id()))
            .all(|e| branches.iter().any(|&(_, l)| l == e.id()))
    }
}

/// The `plan` of `ears`, an ear order of composite `comp` of `d`: for
/// each ear, the linked rooms it encloses (whose dead-end branches the
/// layout grows with the composite).
pub fn enclosure_plan(
    level: &LevelGraph,
    d: &Decomposition,
    comp: &Composite,
    ears: &[Ear],
) -> Option<Vec<Vec<NodeIndex>>> {
    plan(
        ears,
        &linked_out(level, comp),
        &absorbable_in(level, d, comp),
    )
}

/// Re-orders the ears of each loop composite of `d` that must enclose a
/// room linked out of it (an [`Enclosure`]) to start from another of its
/// rooms: the first, in room order, from which every ear can be added with
/// all linked rooms left outside, if any; else the first with a [`plan`]
/// that encloses only dead-end branches, when its own order has none. Ears
/// are drawn around what is already laid out, so which rooms end inside
/// depends on the order (the bundled `maze`: median 1.86 to 1.10 ms and
/// fewer layout attempts; a 50-room graph whose loops overlap laid out 10
/// seeds of 10 against 5).
pub fn open_ear_orders(level: &LevelGraph, d: &mut Decomposition) {
    for c in 0..d.composites.len() {
        let comp = &d.composites[c];
        let CompositeKind::Loop(ears) = &comp.kind else {
            continue;
        };
        let linked = linked_out(level, comp);
        if ears.len() < 2 || refused(ears, &linked).is_empty() {
            continue;
        }
        let orders = distinct_ear_orders(level, comp, ears);
        let better = match orders.iter().position(|o| refused(o, &linked).is_empty()) {
            Some(open) => Some(open),
            None if enclosure_plan(level, d, comp, ears).is_none() => orders
                .iter()
                .position(|o| enclosure_plan(level, d, comp, o).is_some()),
            None => None,
        };
        if let Some(i) = better {
            d.composites[c].kind = CompositeKind::Loop(orders.into_iter().nth(i).expect("found"));
        }
    }
}

/// Other ear orders of loop composite `comp` of `d` (its first order,
/// `ears`, excluded): those of `distinct_ear_orders` that enclose no room
/// linked out of the composite first, then those with a `plan` enclosing
/// only dead-end branches, then (only when there are none of either) the
/// rest. A layout that keeps failing for where its first cycle lies tries
/// the composite drawn from another.
pub fn other_ear_orders(
    level: &LevelGraph,
    d: &Decomposition,
    comp: &Composite,
    ears: &[Ear],
) -> Vec<Vec<Ear>> {
    let linked = linked_out(level, comp);
    let mut classes: [Vec<Vec<Ear>>; 3] = Default::default();
    for order in distinct_ear_orders(level, comp, ears) {
        let class = if refused(&order, &linked).is_empty() {
            0
        } else if enclosure_plan(level, d, comp, &order).is_some() {
            1
        } else {
            2
        };
        classes[class].push(order);
    }
    let [mut open, planned, rest] = classes;
    open.extend(planned);
    if open.is_empty() { rest } else { open }
}

/// The ear orders of `comp` from each of its rooms ([`ears_from`]), in
/// room order, each once, `ears` left out.
fn distinct_ear_orders(level: &LevelGraph, comp: &Composite, ears: &[Ear]) -> Vec<Vec<Ear>> {
    let rooms = |order: &[Ear]| -> Vec<NodeIndex> {
        order.iter().flat_map(|e| e.nodes.iter().copied()).collect()
    };
    let mut seen: BTreeSet<Vec<NodeIndex>> = BTreeSet::from([rooms(ears)]);
    comp.nodes
        .iter()
        .filter_map(|&v| ears_from(level, comp, v))
        .filter(|order| seen.insert(rooms(order)))
        .collect()
}

/// Every [`Enclosure`] of the loop composites of `d`: their ears added in
/// order to an `OuterFace`, a room counting as linked when it has a
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
    fn a_plan_encloses_a_linked_room_only_when_its_links_are_dead_ends() {
        // The ring 0 1 2 3, an ear 0 9 2; rooms 1 and 3 linked outside.
        let ears = [ear(&[0, 1, 2, 3, 0]), ear(&[0, 9, 2])];
        let linked = |v: NodeIndex| v == n(1) || v == n(3);
        // Room 3 leads only to dead ends: it goes inside.
        let dead_end_3 = |v: NodeIndex| v == n(3);
        assert_eq!(
            plan(&ears, &linked, &dead_end_3),
            Some(vec![vec![], vec![n(3)]])
        );
        let dead_end_1 = |v: NodeIndex| v == n(1);
        assert_eq!(
            plan(&ears, &linked, &dead_end_1),
            Some(vec![vec![], vec![n(1)]])
        );
        // Neither: no drawing will do.
        assert_eq!(plan(&ears, &linked, &|_| false), None);
        // Nothing linked: the ear encloses a free arc.
        assert_eq!(
            plan(&ears, &|_| false, &|_| false),
            Some(vec![vec![], vec![]])
        );
    }

    #[test]
    fn a_plan_draws_an_early_ear_the_way_a_later_ear_needs() {
        // The ring 0 1 2 3; the ear 0 8 2 encloses 1 or 3 (greedily 1);
        // then the ear 1 9 8, room 9 linked outside, must start from a room
        // on the outside: only enclosing 3 allows that.
        let ears = [ear(&[0, 1, 2, 3, 0]), ear(&[0, 8, 2]), ear(&[1, 9, 8])];
        let linked = |v: NodeIndex| v == n(9);
        assert_eq!(refused(&ears, linked).len(), 1, "greedy drawing fails");
        assert_eq!(
            plan(&ears, &linked, &|_| false),
            Some(vec![vec![], vec![], vec![]])
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
