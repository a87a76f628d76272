//! Splitting a level graph into composites: loop composites (found smallest
//! cycle first, repeatedly) and tree composites, plus the links between them.
//! A cycle through rooms of two or more loop composites merges them into
//! one, so that no cycle of composites is left for the assembly to close.

use std::collections::{BTreeMap, BTreeSet, VecDeque};

use petgraph::graph::{EdgeIndex, NodeIndex};
use petgraph::visit::EdgeRef;

use super::{EdgeKind, LevelGraph};

/// A path laid out as a unit inside a loop composite: nodes in order, with the
/// edge between each consecutive pair. The first and last node are already
/// placed when the ear is laid out (they are the same node for a closed loop),
/// except for the composite's first ear, whose first node is placed freely.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ear {
    /// Nodes, first and last anchored.
    pub nodes: Vec<NodeIndex>,
    /// `edges[i]` joins `nodes[i]` and `nodes[i + 1]`.
    pub edges: Vec<EdgeIndex>,
}

/// Loop or tree.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CompositeKind {
    /// Cycles: laid out ear by ear.
    Loop(Vec<Ear>),
    /// A tree: laid out depth-first from the node the assembly attaches it by.
    Tree,
}

/// A part of the level laid out on its own canvas.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Composite {
    /// Loop (with its ears) or tree.
    pub kind: CompositeKind,
    /// Its rooms.
    pub nodes: Vec<NodeIndex>,
    /// Edges inside it (realised when the composite is laid out).
    pub edges: Vec<EdgeIndex>,
}

/// The composites of a level and the edges between them.
#[derive(Clone, Debug)]
pub struct Decomposition {
    /// Composites, loops first (in the order found), then trees.
    pub composites: Vec<Composite>,
    /// Composite of each node (by node index).
    pub composite_of: Vec<usize>,
    /// Physical edges not inside any composite: joined at assembly.
    pub links: Vec<EdgeIndex>,
    /// How many of `links` touch each composite.
    pub link_counts: Vec<usize>,
}

impl Decomposition {
    /// The dead-end branches of room `v`: each composite (tree or loop)
    /// joined to the rest of the level only by a link to `v`, with that link. A
    /// layout may grow one with `v`'s composite, inside a loop around `v`.
    pub fn dead_end_branches(&self, level: &LevelGraph, v: NodeIndex) -> Vec<(usize, EdgeIndex)> {
        let own = self.composite_of[v.index()];
        level
            .door_ends(v)
            .filter_map(|(w, e)| {
                let t = self.composite_of[w.index()];
                if t == own {
                    return None;
                }
                (self.link_counts[t] == 1).then_some((t, e))
            })
            .collect()
    }
}

/// Splits the physical (non-warp) edges of `level` into composites.
pub fn decompose(level: &LevelGraph) -> Decomposition {
    let n = level.graph.node_count();
    let mut remaining = Remaining::new(
        level,
        level
            .graph
            .edge_references()
            .filter(|e| e.weight().kind != EdgeKind::Warp && e.source() != e.target())
            .map(|e| e.id()),
    );
    let mut scratch = Scratch::new(n);
    let mut owner: Vec<Option<usize>> = vec![None; n];
    let mut loops: Vec<LoopParts> = Vec::new();
    let mut merged: BTreeSet<usize> = BTreeSet::new();

    loop {
        // An open ear (a path through new rooms between two rooms of one loop
        // composite) is taken before any new cycle: both its ends are placed,
        // so its layout bends towards a known room instead of closing on itself.
        if let Some((c, ear)) = shortest_open_ear(&remaining, &owner, loops.len(), &mut scratch) {
            for &e in &ear.edges {
                remaining.take(e);
            }
            for v in &ear.nodes {
                owner[v.index()] = Some(c);
                loops[c].1.insert(*v);
            }
            loops[c].2.extend(ear.edges.iter().copied());
            loops[c].0.push(ear);
            continue;
        }
        let Some((cycle_nodes, cycle_edges)) = smallest_cycle_in(&remaining) else {
            // No cycle is left among the remaining edges, but one may still
            // run through loop composites (paths between them, over rooms
            // in none): it merges them as well.
            let Some((edges, touched)) = cycle_through_composites(&remaining, &owner) else {
                break;
            };
            let into = merge(&mut loops, &mut owner, &touched);
            merged.insert(into);
            for &e in &edges {
                remaining.take(e);
                for v in remaining.ends(e) {
                    owner[v.index()] = Some(into);
                    loops[into].1.insert(v);
                }
            }
            loops[into].2.extend(edges);
            continue;
        };
        for &e in &cycle_edges {
            remaining.take(e);
        }
        let touched: BTreeSet<usize> = cycle_nodes
            .iter()
            .filter_map(|v| owner[v.index()])
            .collect();
        if touched.is_empty() {
            let mut nodes = cycle_nodes.clone();
            nodes.push(cycle_nodes[0]);
            let id = loops.len();
            for v in &cycle_nodes {
                owner[v.index()] = Some(id);
            }
            loops.push((
                vec![Ear {
                    nodes,
                    edges: cycle_edges.clone(),
                }],
                cycle_nodes.iter().copied().collect(),
                cycle_edges,
            ));
            continue;
        }
        // A cycle through rooms of several loop composites merges them: its
        // paths between them become ears of one composite, laid out on one
        // canvas, instead of links closing a cycle of composites that only a
        // corridor found at the end of the assembly could close.
        let into = merge(&mut loops, &mut owner, &touched);
        if touched.len() > 1 {
            merged.insert(into);
        }
        for ear in split_at_anchors(&cycle_nodes, &cycle_edges, &owner) {
            for v in &ear.nodes {
                owner[v.index()] = Some(into);
                loops[into].1.insert(*v);
            }
            loops[into].2.extend(ear.edges.iter().copied());
            loops[into].0.push(ear);
        }
    }
    let rest: Vec<EdgeIndex> = remaining.live().collect();

    let mut renumber = vec![usize::MAX; loops.len()];
    let mut composites: Vec<Composite> = Vec::new();
    for (old, (ears, nodes, edges)) in loops.into_iter().enumerate() {
        if nodes.is_empty() {
            continue;
        }
        renumber[old] = composites.len();
        let mut comp = Composite {
            kind: CompositeKind::Loop(ears),
            nodes: nodes.into_iter().collect(),
            edges,
        };
        if merged.contains(&old)
            && let CompositeKind::Loop(ears) = &comp.kind
            && let Some(again) = ears_from(level, &comp, ears[0].nodes[0])
        {
            comp.kind = CompositeKind::Loop(again);
        }
        composites.push(comp);
    }
    let mut composite_of: Vec<usize> = owner
        .iter()
        .map(|o| o.map_or(usize::MAX, |c| renumber[c]))
        .collect();

    // Tree composites: components of the remaining edges among nodes in no
    // loop, cut breadth-first into parts of at most MAX_TREE_ROOMS rooms.
    let mut adj: BTreeMap<NodeIndex, Vec<(NodeIndex, EdgeIndex)>> = BTreeMap::new();
    for &e in &rest {
        let (a, b) = level.graph.edge_endpoints(e).expect("edge");
        if owner[a.index()].is_none() && owner[b.index()].is_none() {
            adj.entry(a).or_default().push((b, e));
            adj.entry(b).or_default().push((a, e));
        }
    }
    let mut inside: BTreeSet<EdgeIndex> = BTreeSet::new();
    for start in level.graph.node_indices() {
        if composite_of[start.index()] != usize::MAX {
            continue;
        }
        let id = composites.len();
        let mut comp = Composite {
            kind: CompositeKind::Tree,
            nodes: Vec::new(),
            edges: Vec::new(),
        };
        let mut queue = VecDeque::from([start]);
        composite_of[start.index()] = id;
        let mut size = 1;
        while let Some(v) = queue.pop_front() {
            comp.nodes.push(v);
            for &(w, e) in adj.get(&v).map_or(&[][..], Vec::as_slice) {
                if composite_of[w.index()] == usize::MAX && size < MAX_TREE_ROOMS {
                    size += 1;
                    composite_of[w.index()] = id;
                    comp.edges.push(e);
                    inside.insert(e);
                    queue.push_back(w);
                }
            }
        }
        composites.push(comp);
    }
    let links: Vec<EdgeIndex> = rest.into_iter().filter(|e| !inside.contains(e)).collect();
    let mut link_counts = vec![0; composites.len()];
    for &l in &links {
        let (a, b) = level.graph.edge_endpoints(l).expect("edge");
        let (ca, cb) = (composite_of[a.index()], composite_of[b.index()]);
        link_counts[ca] += 1;
        if cb != ca {
            link_counts[cb] += 1;
        }
    }
    let mut d = Decomposition {
        composites,
        composite_of,
        links,
        link_counts,
    };
    super::outer_face::open_ear_orders(level, &mut d);
    d
}

/// A loop composite as it is being found: its ears, rooms and edges.
type LoopParts = (Vec<Ear>, BTreeSet<NodeIndex>, Vec<EdgeIndex>);

/// Moves the loop composites of `touched` (at least one) into the first of
/// them, which it returns; the others are left empty.
fn merge(loops: &mut [LoopParts], owner: &mut [Option<usize>], touched: &BTreeSet<usize>) -> usize {
    let mut ids = touched.iter().copied();
    let into = ids.next().expect("a composite to merge into");
    for t in ids {
        let (ears, nodes, edges) = std::mem::take(&mut loops[t]);
        for v in &nodes {
            owner[v.index()] = Some(into);
        }
        loops[into].0.extend(ears);
        loops[into].1.extend(nodes);
        loops[into].2.extend(edges);
    }
    into
}

/// Most rooms of one tree composite. A larger tree is cut into composites
/// of at most this many rooms, joined by links, so that the assembly lays a
/// large tree out part by part and jumps back over parts when one is walled
/// in (a single tree composite can only back-track room by room inside its
/// canvas). Measured on random trees (5 graphs x 4 seeds each): 300 rooms
/// laid out 0 of 20 without a cap and 20 of 20 with 12 (median 50 ms); 100
/// rooms 18 of 20 (median 348 ms) against 20 of 20 (6 ms); 20 rooms per
/// part did no better.
pub const MAX_TREE_ROOMS: usize = 12;

/// Longest ear searched for, in rooms. A longer path between two rooms of
/// a loop composite is left to the assembly as tree edges and one link,
/// which a corridor within the flow's bound must close: a long path seldom
/// lets it. Edgar's `dragonAge` with a corridor room on every passage has
/// an ear of 13 rooms: with 12 its levels took 6 attempts at the median
/// (3.8 ms), with 24 one (1.1 ms); `example2_corridors` went from 2.6 to
/// 0.36 ms. The graph families (trees plus short loops) lay out the same
/// levels with either.
const MAX_EAR: usize = 24;

/// The edges not yet in a composite, as adjacency lists built once (in edge
/// order) from which taken edges are skipped: no rebuild per step.
struct Remaining {
    /// Neighbours of each node (by index) over the edges, taken or not.
    adj: Vec<Vec<(NodeIndex, EdgeIndex)>>,
    /// The edges, in order.
    order: Vec<EdgeIndex>,
    /// Whether each edge (by index) is still to be taken.
    live: Vec<bool>,
    /// The two ends of each edge (by index).
    endpoints: Vec<(NodeIndex, NodeIndex)>,
    /// Live edges at each node (by index).
    degree: Vec<usize>,
    /// Live edges in all.
    count: usize,
}

impl Remaining {
    /// `edges` of `level`, all live.
    fn new(level: &LevelGraph, edges: impl Iterator<Item = EdgeIndex>) -> Self {
        let mut order: Vec<EdgeIndex> = edges.collect();
        order.sort();
        let mut adj = vec![Vec::new(); level.graph.node_count()];
        let mut live = vec![false; level.graph.edge_count()];
        let mut endpoints = vec![(NodeIndex::end(), NodeIndex::end()); live.len()];
        for &e in &order {
            let (x, y) = level.graph.edge_endpoints(e).expect("edge");
            adj[x.index()].push((y, e));
            adj[y.index()].push((x, e));
            live[e.index()] = true;
            endpoints[e.index()] = (x, y);
        }
        let degree = adj.iter().map(Vec::len).collect();
        Remaining {
            adj,
            endpoints,
            count: order.len(),
            order,
            live,
            degree,
        }
    }

    /// Takes `e` out.
    fn take(&mut self, e: EdgeIndex) {
        if std::mem::replace(&mut self.live[e.index()], false) {
            self.count -= 1;
            for v in self.ends(e) {
                self.degree[v.index()] -= 1;
            }
        }
    }

    /// The two ends of `e`.
    fn ends(&self, e: EdgeIndex) -> [NodeIndex; 2] {
        let (x, y) = self.endpoints[e.index()];
        [x, y]
    }

    /// The live edges at `v`, with the node at their other end.
    fn at(&self, v: NodeIndex) -> impl Iterator<Item = (NodeIndex, EdgeIndex)> + '_ {
        self.adj[v.index()]
            .iter()
            .copied()
            .filter(|&(_, e)| self.live[e.index()])
    }

    /// Nodes with a live edge, in order.
    fn nodes(&self) -> impl Iterator<Item = NodeIndex> + '_ {
        (0..self.adj.len())
            .filter(|&v| self.degree[v] > 0)
            .map(NodeIndex::new)
    }

    /// The live edges, in order.
    fn live(&self) -> impl Iterator<Item = EdgeIndex> + '_ {
        self.order.iter().copied().filter(|e| self.live[e.index()])
    }

    fn is_empty(&self) -> bool {
        self.count == 0
    }
}

/// Per-node marks of one breadth-first search, reset after it by the nodes
/// it touched: no allocation per search.
struct Scratch {
    /// The node and edge each reached node was reached from.
    back: Vec<Option<(NodeIndex, EdgeIndex)>>,
    touched: Vec<usize>,
}

impl Scratch {
    fn new(n: usize) -> Self {
        Scratch {
            back: vec![None; n],
            touched: Vec::new(),
        }
    }

    fn reached(&self, v: NodeIndex) -> bool {
        self.back[v.index()].is_some()
    }

    fn reach(&mut self, v: NodeIndex, from: (NodeIndex, EdgeIndex)) {
        self.back[v.index()] = Some(from);
        self.touched.push(v.index());
    }

    /// The ear from the search's start `a` along the reached nodes to
    /// `last`, then over `closing` to `end` (`a` itself for a cycle).
    fn ear_to(&self, a: NodeIndex, last: NodeIndex, closing: EdgeIndex, end: NodeIndex) -> Ear {
        let (mut nodes, mut edges) = (vec![end, last], vec![closing]);
        let mut v = last;
        while v != a {
            let Some((p, pe)) = self.back[v.index()] else {
                break;
            };
            nodes.push(p);
            edges.push(pe);
            v = p;
        }
        nodes.reverse();
        edges.reverse();
        Ear { nodes, edges }
    }

    fn reset(&mut self) {
        for v in self.touched.drain(..) {
            self.back[v] = None;
        }
    }
}

/// The shortest open ear of any loop composite over the remaining edges.
fn shortest_open_ear(
    rest: &Remaining,
    owner: &[Option<usize>],
    composites: usize,
    scratch: &mut Scratch,
) -> Option<(usize, Ear)> {
    if composites == 0 {
        return None;
    }
    let mut best: Option<(usize, Ear)> = None;
    for a in rest.nodes().filter(|v| owner[v.index()].is_some()) {
        let c = owner[a.index()].expect("owned");
        if let Some(ear) = ear_from(rest, owner, c, a, MAX_EAR, scratch)
            && best
                .as_ref()
                .is_none_or(|(_, b)| ear.nodes.len() < b.nodes.len())
        {
            best = Some((c, ear));
        }
    }
    best
}

/// The shortest path from `a`, through rooms in no loop, to another room of
/// loop composite `c`.
fn ear_from(
    rest: &Remaining,
    owner: &[Option<usize>],
    c: usize,
    a: NodeIndex,
    max_len: usize,
    scratch: &mut Scratch,
) -> Option<Ear> {
    let mut found = None;
    let mut queue = VecDeque::from([(a, 0usize)]);
    'bfs: while let Some((v, depth)) = queue.pop_front() {
        if depth >= max_len {
            break;
        }
        for (w, e) in rest.at(v) {
            if w == a || scratch.reached(w) {
                continue;
            }
            match owner[w.index()] {
                Some(o) if o == c => {
                    found = Some(scratch.ear_to(a, v, e, w));
                    break 'bfs;
                }
                Some(_) => {}
                None => {
                    scratch.reach(w, (v, e));
                    queue.push_back((w, depth + 1));
                }
            }
        }
    }
    scratch.reset();
    found
}

/// The ears of loop composite `comp` re-ordered to start at `anchor`: the
/// shortest cycle through it first, then, repeatedly, the shortest ear whose
/// ends are already covered (a chord, an open path, or a closed cycle back to
/// one node). Lets a loop grow from whichever room the assembly attaches it
/// by. `None` when `anchor` is on no cycle of the composite.
pub fn ears_from(level: &LevelGraph, comp: &Composite, anchor: NodeIndex) -> Option<Vec<Ear>> {
    let mut remaining = Remaining::new(level, comp.edges.iter().copied());
    let mut scratch = Scratch::new(level.graph.node_count());
    let mut owner: Vec<Option<usize>> = vec![None; level.graph.node_count()];
    let mut ears: Vec<Ear> = Vec::new();
    let mut next = Some(cycle_through(&remaining, &owner, anchor, &mut scratch)?);
    while let Some(ear) = next {
        for &e in &ear.edges {
            remaining.take(e);
        }
        for v in &ear.nodes {
            owner[v.index()] = Some(0);
        }
        ears.push(ear);
        if remaining.is_empty() {
            return Some(ears);
        }
        let placed: Vec<NodeIndex> = remaining
            .nodes()
            .filter(|v| owner[v.index()].is_some())
            .collect();
        next = placed
            .into_iter()
            .filter_map(|a| {
                ear_from(&remaining, &owner, 0, a, usize::MAX, &mut scratch)
                    .or_else(|| cycle_through(&remaining, &owner, a, &mut scratch))
            })
            .min_by_key(|ear| ear.nodes.len());
    }
    None
}

/// The shortest cycle from `a` back to itself through rooms not yet in
/// `owner`, as a closed ear.
fn cycle_through(
    rest: &Remaining,
    owner: &[Option<usize>],
    a: NodeIndex,
    scratch: &mut Scratch,
) -> Option<Ear> {
    let mut best: Option<Ear> = None;
    let mut any = false;
    for (x, first) in rest.at(a) {
        any = true;
        if x == a || owner[x.index()].is_some() {
            continue;
        }
        scratch.reach(x, (a, first));
        let mut queue = VecDeque::from([x]);
        let mut closing = None;
        'bfs: while let Some(v) = queue.pop_front() {
            for (w, e) in rest.at(v) {
                if e == first {
                    continue;
                }
                if w == a {
                    closing = Some((v, e));
                    break 'bfs;
                }
                if owner[w.index()].is_none() && !scratch.reached(w) {
                    scratch.reach(w, (v, e));
                    queue.push_back(w);
                }
            }
        }
        let cycle = closing.map(|(last, closing_edge)| scratch.ear_to(a, last, closing_edge, a));
        scratch.reset();
        if let Some(ear) = cycle
            && best
                .as_ref()
                .is_none_or(|b| ear.nodes.len() < b.nodes.len())
        {
            best = Some(ear);
        }
    }
    if !any {
        return None;
    }
    best
}

/// The shortest cycle over the live edges of `rest` once each loop
/// composite (by `owner`) is drawn together into one room, among those that
/// run through two composites or more and through at most [`MAX_EAR`] other
/// rooms: its edges, and the composites it runs through. A cycle through a
/// single composite is an open ear, taken before.
fn cycle_through_composites(
    rest: &Remaining,
    owner: &[Option<usize>],
) -> Option<(Vec<EdgeIndex>, BTreeSet<usize>)> {
    let n = rest.adj.len();
    let key = |v: NodeIndex| owner[v.index()].map_or(v.index(), |c| n + c);
    let composites = owner.iter().flatten().max().map_or(0, |&c| c + 1);
    if composites < 2 {
        return None;
    }
    let mut adj: Vec<Vec<(usize, EdgeIndex)>> = vec![Vec::new(); n + composites];
    for e in rest.live() {
        let [x, y] = rest.ends(e);
        let (kx, ky) = (key(x), key(y));
        if kx != ky {
            adj[kx].push((ky, e));
            adj[ky].push((kx, e));
        }
    }
    let mut best: Option<(Vec<EdgeIndex>, BTreeSet<usize>)> = None;
    let mut back: Vec<Option<(usize, EdgeIndex)>> = vec![None; adj.len()];
    let mut depth = vec![usize::MAX; adj.len()];
    for e in rest.live() {
        let [x, y] = rest.ends(e);
        let (from, to) = (key(x), key(y));
        if from == to || (from < n && to < n) {
            continue;
        }
        let limit = best.as_ref().map_or(MAX_EAR + 2, |(b, _)| b.len() - 1);
        let mut touched = vec![from];
        depth[from] = 0;
        let mut queue = VecDeque::from([from]);
        'bfs: while let Some(u) = queue.pop_front() {
            if depth[u] + 1 >= limit {
                break;
            }
            for &(w, f) in &adj[u] {
                if f == e || depth[w] != usize::MAX {
                    continue;
                }
                depth[w] = depth[u] + 1;
                back[w] = Some((u, f));
                touched.push(w);
                if w == to {
                    break 'bfs;
                }
                queue.push_back(w);
            }
        }
        if depth[to] != usize::MAX {
            let mut edges = vec![e];
            let mut through = BTreeSet::new();
            let mut v = to;
            while v != from {
                if v >= n {
                    through.insert(v - n);
                }
                let (p, f) = back[v].expect("reached");
                edges.push(f);
                v = p;
            }
            if from >= n {
                through.insert(from - n);
            }
            // The cycle has as many rooms (each composite counting as one)
            // as edges.
            let rooms = edges.len() - through.len();
            if through.len() >= 2 && rooms <= MAX_EAR {
                best = Some((edges, through));
            }
        }
        for v in touched {
            depth[v] = usize::MAX;
            back[v] = None;
        }
    }
    best
}

/// Splits a cycle that touches an existing loop composite into ears
/// between consecutive nodes the composite already has.
fn split_at_anchors(nodes: &[NodeIndex], edges: &[EdgeIndex], owner: &[Option<usize>]) -> Vec<Ear> {
    let k = nodes.len();
    let start = (0..k)
        .find(|&i| owner[nodes[i].index()].is_some())
        .expect("touched");
    let mut out = Vec::new();
    let mut ear = Ear {
        nodes: vec![nodes[start]],
        edges: Vec::new(),
    };
    for step in 1..=k {
        let i = (start + step) % k;
        ear.edges.push(edges[(start + step - 1) % k]);
        ear.nodes.push(nodes[i]);
        if owner[nodes[i].index()].is_some() {
            out.push(std::mem::replace(
                &mut ear,
                Ear {
                    nodes: vec![nodes[i]],
                    edges: Vec::new(),
                },
            ));
        }
    }
    out
}

/// The smallest cycle over `edges` (undirected; parallel edges count), as its
/// nodes in order and the edges between them (`edges[i]` joins node i and i+1,
/// the last one closes the cycle).
pub fn smallest_cycle(
    level: &LevelGraph,
    edges: &BTreeSet<EdgeIndex>,
) -> Option<(Vec<NodeIndex>, Vec<EdgeIndex>)> {
    smallest_cycle_in(&Remaining::new(level, edges.iter().copied()))
}

/// [`smallest_cycle`] over the live edges of `rest`: a breadth-first search
/// from every node on some cycle, skipping the parent edge.
fn smallest_cycle_in(rest: &Remaining) -> Option<(Vec<NodeIndex>, Vec<EdgeIndex>)> {
    let n = rest.adj.len();
    // Only nodes on some cycle matter: peel off degree-1 nodes.
    let mut degree = rest.degree.clone();
    let mut alive = vec![true; n];
    let mut stack: Vec<usize> = (0..n).filter(|&v| degree[v] <= 1).collect();
    while let Some(v) = stack.pop() {
        if !alive[v] {
            continue;
        }
        alive[v] = false;
        for (w, _) in rest.at(NodeIndex::new(v)) {
            let w = w.index();
            if alive[w] {
                degree[w] -= 1;
                if degree[w] == 1 {
                    stack.push(w);
                }
            }
        }
    }
    let mut best: Option<(usize, Vec<NodeIndex>, Vec<EdgeIndex>)> = None;
    let mut dist = vec![usize::MAX; n];
    let mut parent: Vec<Option<(usize, EdgeIndex)>> = vec![None; n];
    let mut touched = Vec::new();
    let mut queue = VecDeque::new();
    for s in (0..n).filter(|&v| alive[v]) {
        let limit = best.as_ref().map_or(usize::MAX, |b| b.0);
        touched.push(s);
        dist[s] = 0;
        parent[s] = None;
        queue.clear();
        queue.push_back(s);
        'bfs: while let Some(u) = queue.pop_front() {
            if 2 * dist[u] >= limit {
                break;
            }
            for (w, e) in rest.at(NodeIndex::new(u)) {
                let w = w.index();
                if !alive[w] || parent[u].is_some_and(|(_, pe)| pe == e) {
                    continue;
                }
                if dist[w] == usize::MAX {
                    dist[w] = dist[u] + 1;
                    parent[w] = Some((u, e));
                    touched.push(w);
                    queue.push_back(w);
                } else {
                    let len = dist[u] + dist[w] + 1;
                    if best.as_ref().is_none_or(|b| len < b.0) {
                        let (nodes, edges) = cycle_of(&parent, u, w, e);
                        best = Some((len, nodes, edges));
                        if len <= 2 {
                            break 'bfs;
                        }
                    }
                }
            }
        }
        for v in touched.drain(..) {
            dist[v] = usize::MAX;
            parent[v] = None;
        }
    }
    best.map(|(_, nodes, edges)| (nodes, edges))
}

/// The cycle closed by edge `e` between `u` and `w` in a breadth-first tree
/// (`parent` of each node): from the two's common ancestor down to `u`,
/// then `e`, then from `w` back up.
fn cycle_of(
    parent: &[Option<(usize, EdgeIndex)>],
    u: usize,
    w: usize,
    e: EdgeIndex,
) -> (Vec<NodeIndex>, Vec<EdgeIndex>) {
    let up = |mut v: usize| {
        let mut path = vec![(v, None)];
        while let Some((p, pe)) = parent[v] {
            path.push((p, Some(pe)));
            v = p;
        }
        path
    };
    let (pu, pw) = (up(u), up(w));
    // Both paths end at the search's start: the first node of `pu` also on
    // `pw` is the common ancestor.
    let (iu, iw) = pu
        .iter()
        .enumerate()
        .find_map(|(i, (v, _))| pw.iter().position(|(x, _)| x == v).map(|j| (i, j)))
        .expect("both paths reach the start");
    let mut nodes = Vec::new();
    let mut cedges = Vec::new();
    for i in (0..=iu).rev() {
        nodes.push(NodeIndex::new(pu[i].0));
        if i > 0 {
            cedges.push(pu[i].1.expect("parent edge"));
        }
    }
    cedges.push(e);
    for j in 0..iw {
        nodes.push(NodeIndex::new(pw[j].0));
        cedges.push(pw[j + 1].1.expect("parent edge"));
    }
    (nodes, cedges)
}
