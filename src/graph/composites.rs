//! Splitting a level graph into composites: loop composites (found smallest
//! cycle first, repeatedly) and tree composites, plus the links between them.

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
}

/// Splits the physical (non-warp) edges of `level` into composites.
pub fn decompose(level: &LevelGraph) -> Decomposition {
    let n = level.graph.node_count();
    let mut remaining: BTreeSet<EdgeIndex> = level
        .graph
        .edge_references()
        .filter(|e| e.weight().kind != EdgeKind::Warp && e.source() != e.target())
        .map(|e| e.id())
        .collect();
    let mut owner: Vec<Option<usize>> = vec![None; n];
    let mut loops: Vec<(Vec<Ear>, BTreeSet<NodeIndex>, Vec<EdgeIndex>)> = Vec::new();
    let mut deferred: Vec<EdgeIndex> = Vec::new();

    loop {
        // An open ear (a path through new rooms between two rooms of one loop
        // composite) is taken before any new cycle: both its ends are placed,
        // so its layout bends towards a known room instead of closing on itself.
        if let Some((c, ear)) = shortest_open_ear(level, &remaining, &owner, loops.len()) {
            for e in &ear.edges {
                remaining.remove(e);
            }
            for v in &ear.nodes {
                owner[v.index()] = Some(c);
                loops[c].1.insert(*v);
            }
            loops[c].2.extend(ear.edges.iter().copied());
            loops[c].0.push(ear);
            continue;
        }
        let Some((cycle_nodes, cycle_edges)) = smallest_cycle(level, &remaining) else {
            break;
        };
        for e in &cycle_edges {
            remaining.remove(e);
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
        for (ear, same) in split_at_anchors(&cycle_nodes, &cycle_edges, &owner) {
            match same {
                Some(c) => {
                    for v in &ear.nodes {
                        owner[v.index()] = Some(c);
                        loops[c].1.insert(*v);
                    }
                    loops[c].2.extend(ear.edges.iter().copied());
                    loops[c].0.push(ear);
                }
                // A path between two different loop composites: its edges
                // are joined at assembly like tree edges.
                None => deferred.extend(ear.edges),
            }
        }
    }
    let rest: Vec<EdgeIndex> = remaining.iter().copied().chain(deferred).collect();

    let mut composites: Vec<Composite> = loops
        .into_iter()
        .map(|(ears, nodes, edges)| Composite {
            kind: CompositeKind::Loop(ears),
            nodes: nodes.into_iter().collect(),
            edges,
        })
        .collect();
    let mut composite_of: Vec<usize> = owner.iter().map(|o| o.unwrap_or(usize::MAX)).collect();

    // Tree composites: components of the remaining edges among nodes in no loop.
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
        while let Some(v) = queue.pop_front() {
            comp.nodes.push(v);
            for &(w, e) in adj.get(&v).map_or(&[][..], Vec::as_slice) {
                if composite_of[w.index()] == usize::MAX {
                    composite_of[w.index()] = id;
                    comp.edges.push(e);
                    inside.insert(e);
                    queue.push_back(w);
                }
            }
        }
        composites.push(comp);
    }
    let links = rest.into_iter().filter(|e| !inside.contains(e)).collect();
    Decomposition {
        composites,
        composite_of,
        links,
    }
}

/// Longest ear searched for, in rooms.
const MAX_EAR: usize = 12;

type Adj = BTreeMap<NodeIndex, Vec<(NodeIndex, EdgeIndex)>>;

/// The shortest open ear of any loop composite over `rest` edges.
fn shortest_open_ear(
    level: &LevelGraph,
    rest: &BTreeSet<EdgeIndex>,
    owner: &[Option<usize>],
    composites: usize,
) -> Option<(usize, Ear)> {
    if composites == 0 {
        return None;
    }
    let mut adj: Adj = BTreeMap::new();
    for &e in rest {
        let (x, y) = level.graph.edge_endpoints(e).expect("edge");
        adj.entry(x).or_default().push((y, e));
        adj.entry(y).or_default().push((x, e));
    }
    let mut best: Option<(usize, Ear)> = None;
    for &a in adj.keys().filter(|v| owner[v.index()].is_some()) {
        let c = owner[a.index()].expect("owned");
        if let Some(ear) = ear_from(&adj, owner, c, a, MAX_EAR)
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
    adj: &Adj,
    owner: &[Option<usize>],
    c: usize,
    a: NodeIndex,
    max_len: usize,
) -> Option<Ear> {
    adj.get(&a)?;

    let mut back: BTreeMap<NodeIndex, (NodeIndex, EdgeIndex)> = BTreeMap::new();
    let mut queue = VecDeque::from([(a, 0usize)]);
    while let Some((v, depth)) = queue.pop_front() {
        if depth >= max_len {
            break;
        }
        for &(w, e) in adj.get(&v).map_or(&[][..], Vec::as_slice) {
            if w == a || back.contains_key(&w) {
                continue;
            }
            match owner[w.index()] {
                Some(o) if o == c => {
                    let mut nodes = vec![w, v];
                    let mut edges = vec![e];
                    let mut cur = v;
                    while let Some(&(p, pe)) = back.get(&cur) {
                        nodes.push(p);
                        edges.push(pe);
                        cur = p;
                    }
                    nodes.reverse();
                    edges.reverse();
                    return Some(Ear { nodes, edges });
                }
                Some(_) => {}
                None => {
                    back.insert(w, (v, e));
                    queue.push_back((w, depth + 1));
                }
            }
        }
    }
    None
}

/// The ears of loop composite `comp` re-ordered to start at `anchor`: the
/// shortest cycle through it first, then, repeatedly, the shortest ear whose
/// ends are already covered (a chord, an open path, or a closed cycle back to
/// one node). Lets a loop grow from whichever room the assembly attaches it
/// by. `None` when `anchor` is on no cycle of the composite.
pub fn ears_from(level: &LevelGraph, comp: &Composite, anchor: NodeIndex) -> Option<Vec<Ear>> {
    let mut remaining: BTreeSet<EdgeIndex> = comp.edges.iter().copied().collect();
    let mut owner: Vec<Option<usize>> = vec![None; level.graph.node_count()];
    let adjacency = |remaining: &BTreeSet<EdgeIndex>| {
        let mut adj: Adj = BTreeMap::new();
        for &e in remaining {
            let (x, y) = level.graph.edge_endpoints(e).expect("edge");
            adj.entry(x).or_default().push((y, e));
            adj.entry(y).or_default().push((x, e));
        }
        adj
    };
    let mut ears: Vec<Ear> = Vec::new();
    let mut next = Some(cycle_through(&adjacency(&remaining), &owner, anchor)?);
    while let Some(ear) = next {
        for e in &ear.edges {
            remaining.remove(e);
        }
        for v in &ear.nodes {
            owner[v.index()] = Some(0);
        }
        ears.push(ear);
        if remaining.is_empty() {
            return Some(ears);
        }
        let adj = adjacency(&remaining);
        next = adj
            .keys()
            .filter(|v| owner[v.index()].is_some())
            .filter_map(|&a| {
                ear_from(&adj, &owner, 0, a, usize::MAX).or_else(|| cycle_through(&adj, &owner, a))
            })
            .min_by_key(|ear| ear.nodes.len());
    }
    None
}

/// The shortest cycle from `a` back to itself through rooms not yet in
/// `owner`, as a closed ear.
fn cycle_through(adj: &Adj, owner: &[Option<usize>], a: NodeIndex) -> Option<Ear> {
    let mut best: Option<Ear> = None;
    for &(x, first) in adj.get(&a)? {
        if x == a || owner[x.index()].is_some() {
            continue;
        }
        let mut back: BTreeMap<NodeIndex, (NodeIndex, EdgeIndex)> = BTreeMap::new();
        back.insert(x, (a, first));
        let mut queue = VecDeque::from([x]);
        let mut closing = None;
        'bfs: while let Some(v) = queue.pop_front() {
            for &(w, e) in adj.get(&v).map_or(&[][..], Vec::as_slice) {
                if e == first {
                    continue;
                }
                if w == a {
                    closing = Some((v, e));
                    break 'bfs;
                }
                if owner[w.index()].is_none() && !back.contains_key(&w) {
                    back.insert(w, (v, e));
                    queue.push_back(w);
                }
            }
        }
        let Some((last, closing_edge)) = closing else {
            continue;
        };
        let mut nodes = vec![a, last];
        let mut edges = vec![closing_edge];
        let mut cur = last;
        while cur != a {
            let (p, pe) = back[&cur];
            nodes.push(p);
            edges.push(pe);
            cur = p;
        }
        nodes.reverse();
        edges.reverse();
        if best.as_ref().is_none_or(|b| nodes.len() < b.nodes.len()) {
            best = Some(Ear { nodes, edges });
        }
    }
    best
}

/// Splits a cycle that touches existing loop composites into ears between
/// consecutive anchored nodes. Each ear comes with the composite it belongs to
/// (`None` when its two ends lie in different composites).
fn split_at_anchors(
    nodes: &[NodeIndex],
    edges: &[EdgeIndex],
    owner: &[Option<usize>],
) -> Vec<(Ear, Option<usize>)> {
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
            let a = owner[ear.nodes[0].index()];
            let b = owner[nodes[i].index()];
            let same = if a == b { a } else { None };
            out.push((
                std::mem::replace(
                    &mut ear,
                    Ear {
                        nodes: vec![nodes[i]],
                        edges: Vec::new(),
                    },
                ),
                same,
            ));
        }
    }
    out
}

/// Length, the two ends and the closing edge of the best cycle, with the BFS tree it was found in.
type Best = (
    usize,
    usize,
    usize,
    EdgeIndex,
    Vec<Option<(usize, EdgeIndex)>>,
);

/// The smallest cycle over `edges` (undirected; parallel edges count), as its
/// nodes in order and the edges between them (`edges[i]` joins node i and i+1,
/// the last one closes the cycle). BFS from every node, skipping the parent edge.
pub fn smallest_cycle(
    level: &LevelGraph,
    edges: &BTreeSet<EdgeIndex>,
) -> Option<(Vec<NodeIndex>, Vec<EdgeIndex>)> {
    let n = level.graph.node_count();
    let mut adj: Vec<Vec<(usize, EdgeIndex)>> = vec![Vec::new(); n];
    for &e in edges {
        let (a, b) = level.graph.edge_endpoints(e).expect("edge");
        adj[a.index()].push((b.index(), e));
        adj[b.index()].push((a.index(), e));
    }
    // Only nodes on some cycle matter: peel off degree-1 nodes.
    let mut degree: Vec<usize> = adj.iter().map(Vec::len).collect();
    let mut alive = vec![true; n];
    let mut stack: Vec<usize> = (0..n).filter(|&v| degree[v] <= 1).collect();
    while let Some(v) = stack.pop() {
        if !alive[v] {
            continue;
        }
        alive[v] = false;
        for &(w, _) in &adj[v] {
            if alive[w] {
                degree[w] -= 1;
                if degree[w] == 1 {
                    stack.push(w);
                }
            }
        }
    }
    let mut best: Option<Best> = None;
    let mut dist = vec![usize::MAX; n];
    let mut parent: Vec<Option<(usize, EdgeIndex)>> = vec![None; n];
    for s in (0..n).filter(|&v| alive[v]) {
        let limit = best.as_ref().map_or(usize::MAX, |b| b.0);
        let mut touched = vec![s];
        dist[s] = 0;
        parent[s] = None;
        let mut queue = VecDeque::from([s]);
        'bfs: while let Some(u) = queue.pop_front() {
            if 2 * dist[u] >= limit {
                break;
            }
            for &(w, e) in &adj[u] {
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
                        best = Some((len, u, w, e, parent.clone()));
                        if len <= 2 {
                            break 'bfs;
                        }
                    }
                }
            }
        }
        for v in touched {
            dist[v] = usize::MAX;
            parent[v] = None;
        }
    }
    let (_, u, w, e, par) = best?;
    // Walk u and w up to their common ancestor.
    let up = |mut v: usize| {
        let mut path = vec![(v, None)];
        while let Some((p, pe)) = par[v] {
            path.push((p, Some(pe)));
            v = p;
        }
        path
    };
    let pu = up(u);
    let pw = up(w);
    let in_pw: BTreeMap<usize, usize> = pw.iter().enumerate().map(|(i, (v, _))| (*v, i)).collect();
    let (iu, iw) = pu
        .iter()
        .enumerate()
        .find_map(|(i, (v, _))| in_pw.get(v).map(|&j| (i, j)))?;
    // Cycle: lca .. u (down), then w .. lca (up), closing with e.
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
    Some((nodes, cedges))
}
