//! Families of flow graphs like designers draw, for measuring how general the
//! layout is on inputs it was not tuned on: random trees (of recent rooms,
//! of any room, bushy), trees plus short loops, theta graphs, grids of
//! small loops, chains of loops (cacti), rings with chords and complete
//! binary trees.
//!
//! Each graph is drawn from its own seed; room 0 is the entrance, the room
//! farthest from it (a dead end where there is one) the boss, every other
//! room `normal`, and from 50 rooms on templates may be reused.

use dungeonflow::internals::rng::Rng;

/// Most links a generated room gets (the bundled normal rooms have four
/// exits at most).
pub const MAX_LINKS: usize = 4;

/// A family of graphs and its size parameters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Family {
    /// A random tree of `rooms` rooms, each attached mostly to a recent one.
    Tree { rooms: usize },
    /// A random tree of `rooms` rooms, each attached to any room before it
    /// (bushy near the entrance, with long thin branches).
    UniformTree { rooms: usize },
    /// A random tree of `rooms` rooms, each attached to a random room that
    /// still has a free link (up to three children a room): a tree whose
    /// rooms multiply with depth like a complete one's, unevenly.
    BushyTree { rooms: usize },
    /// A random tree plus `loops` two-way edges between rooms 3 to 7 tree
    /// steps apart (they may share rooms and overlap).
    TreeLoops { rooms: usize, loops: usize },
    /// `paths` paths of `length` rooms each between two rooms, and a short
    /// branch off every path's middle room.
    Theta { paths: usize, length: usize },
    /// A grid of `width` x `height` square loops of four rooms each.
    LoopGrid { width: usize, height: usize },
    /// A complete binary tree of `2^depth - 1` rooms.
    BinaryTree { depth: u32 },
    /// `cycles` loops of 3 to 7 rooms, each hung on a room of the ones
    /// before, with up to two dead ends after each (a cactus: no two loops
    /// share a link).
    Cactus { cycles: usize },
    /// A ring of `rooms` rooms with up to `chords` links across it between
    /// rooms at least 3 apart along it, no two crossing.
    RingChords { rooms: usize, chords: usize },
}

impl Family {
    /// A short name for reports, e.g. `tree+loops(45,3)`.
    pub fn label(self) -> String {
        match self {
            Family::Tree { rooms } => format!("tree({rooms})"),
            Family::UniformTree { rooms } => format!("uniform-tree({rooms})"),
            Family::BushyTree { rooms } => format!("bushy-tree({rooms})"),
            Family::TreeLoops { rooms, loops } => format!("tree+loops({rooms},{loops})"),
            Family::Theta { paths, length } => format!("theta({paths}x{length})"),
            Family::LoopGrid { width, height } => format!("loop-grid({width}x{height})"),
            Family::BinaryTree { depth } => format!("binary-tree({})", (1 << depth) - 1),
            Family::Cactus { cycles } => format!("cactus({cycles})"),
            Family::RingChords { rooms, chords } => format!("ring+chords({rooms},{chords})"),
        }
    }

    /// The graph of this family drawn from `seed` (families without chance
    /// ignore it).
    pub fn graph(self, seed: u64) -> Graph {
        let mut rng = Rng::derive(seed, "family");
        match self {
            Family::Tree { rooms } => random_tree(rooms, RECENT, &mut rng),
            Family::UniformTree { rooms } => random_tree(rooms, rooms, &mut rng),
            Family::BushyTree { rooms } => bushy_tree(rooms, &mut rng),
            Family::TreeLoops { rooms, loops } => {
                let mut g = random_tree(rooms, RECENT, &mut rng);
                add_loops(&mut g, loops, &mut rng);
                g
            }
            Family::Theta { paths, length } => theta(paths, length),
            Family::LoopGrid { width, height } => loop_grid(width, height),
            Family::Cactus { cycles } => cactus(cycles, &mut rng),
            Family::RingChords { rooms, chords } => ring_chords(rooms, chords, &mut rng),
            Family::BinaryTree { depth } => binary_tree(depth),
        }
    }

    /// The flow file of the graph drawn from `seed`.
    pub fn flow(self, seed: u64) -> String {
        self.graph(seed).flow(&format!("family_{seed}"))
    }
}

/// An undirected graph of rooms: `tree` edges (parent first) span it, `loops`
/// close cycles.
#[derive(Clone, Debug, Default)]
pub struct Graph {
    pub rooms: usize,
    pub tree: Vec<(usize, usize)>,
    pub loops: Vec<(usize, usize)>,
}

impl Graph {
    fn degree(&self, v: usize) -> usize {
        self.tree
            .iter()
            .chain(&self.loops)
            .filter(|&&(a, b)| a == v || b == v)
            .count()
    }

    fn neighbours(&self) -> Vec<Vec<usize>> {
        let mut adj = vec![Vec::new(); self.rooms];
        for &(a, b) in self.tree.iter().chain(&self.loops) {
            adj[a].push(b);
            adj[b].push(a);
        }
        adj
    }

    /// Breadth-first steps from room `from` over every edge.
    fn steps(&self, from: usize) -> Vec<usize> {
        let adj = self.neighbours();
        let mut depth = vec![usize::MAX; self.rooms];
        depth[from] = 0;
        let mut queue = std::collections::VecDeque::from([from]);
        while let Some(v) = queue.pop_front() {
            for &w in &adj[v] {
                if depth[w] == usize::MAX {
                    depth[w] = depth[v] + 1;
                    queue.push_back(w);
                }
            }
        }
        depth
    }

    /// The boss room: the farthest dead end from the entrance, else the
    /// farthest room of fewest links.
    pub fn boss(&self) -> usize {
        let depth = self.steps(0);
        (1..self.rooms)
            .max_by_key(|&v| {
                (
                    std::cmp::Reverse(self.degree(v).max(1)),
                    depth[v],
                    std::cmp::Reverse(v),
                )
            })
            .unwrap_or(0)
    }

    /// The flow file: `r0` the entrance, the [`Self::boss`] room `boss`,
    /// tree edges as `edges:`, the rest as two-way `loops:`.
    pub fn flow(&self, name: &str) -> String {
        let boss = self.boss();
        let id = |v: usize| {
            if v == boss {
                "boss".to_owned()
            } else {
                format!("r{v}")
            }
        };
        let mut flow = format!("name: {name}\n");
        if self.rooms >= 50 {
            flow += "layout: { reuse_templates: true }\n";
        }
        flow += "nodes:\n  r0: entrance\n";
        for v in 1..self.rooms {
            let category = if v == boss { "boss" } else { "normal" };
            flow += &format!("  {}: {category}\n", id(v));
        }
        flow += "edges:\n";
        for &(a, b) in &self.tree {
            flow += &format!("  - {} -> {}\n", id(a), id(b));
        }
        if !self.loops.is_empty() {
            flow += "loops:\n";
            for &(a, b) in &self.loops {
                flow += &format!("  - {} <-> {}\n", id(a), id(b));
            }
        }
        flow
    }
}

/// The rooms before it a room of a [`Family::Tree`] may attach to.
const RECENT: usize = 8;

/// Each room attaches to one of the `window` rooms before it, at most
/// [`MAX_LINKS`] links a room (the entrance and the rooms near it keep
/// room for loops less often than the rest: designers' trees are bushy near
/// the start).
fn random_tree(rooms: usize, window: usize, rng: &mut Rng) -> Graph {
    let mut g = Graph {
        rooms,
        ..Graph::default()
    };
    let mut links = vec![0; rooms];
    for v in 1..rooms {
        let lo = v.saturating_sub(window);
        let mut p = lo + rng.index(v - lo);
        let mut tries = 0;
        while links[p] >= MAX_LINKS - usize::from(p > 0) && tries < v {
            p = (p + 1) % v;
            tries += 1;
        }
        links[p] += 1;
        links[v] += 1;
        g.tree.push((p, v));
    }
    g
}

/// Each room attaches to a room drawn from those with fewer than
/// [`MAX_LINKS`] links: the rooms of each depth multiply by up to three.
fn bushy_tree(rooms: usize, rng: &mut Rng) -> Graph {
    let mut g = Graph {
        rooms,
        ..Graph::default()
    };
    let mut links = vec![0; rooms];
    let mut open = vec![0];
    for v in 1..rooms {
        let i = rng.index(open.len());
        let p = open[i];
        links[p] += 1;
        links[v] += 1;
        if links[p] == MAX_LINKS {
            open.swap_remove(i);
        }
        open.push(v);
        g.tree.push((p, v));
    }
    g
}

/// Adds up to `k` two-way edges between rooms 3 to 7 tree steps apart, each
/// room keeping at most [`MAX_LINKS`] links.
fn add_loops(g: &mut Graph, k: usize, rng: &mut Rng) {
    let adj = g.neighbours();
    let mut tries = 0;
    while g.loops.len() < k && tries < 200 * k.max(1) {
        tries += 1;
        let a = rng.index(g.rooms);
        let steps = 3 + rng.index(5);
        // A random walk away from `a` along tree edges, never turning back.
        let (mut prev, mut b) = (usize::MAX, a);
        for _ in 0..steps {
            let next: Vec<usize> = adj[b].iter().copied().filter(|&w| w != prev).collect();
            if next.is_empty() {
                break;
            }
            prev = b;
            b = next[rng.index(next.len())];
        }
        let exists = g
            .tree
            .iter()
            .chain(&g.loops)
            .any(|&(x, y)| (x, y) == (a, b) || (x, y) == (b, a));
        if a == b
            || exists
            || g.degree(a) >= MAX_LINKS
            || g.degree(b) >= MAX_LINKS
            || g.steps(a)[b] < 3
        {
            continue;
        }
        g.loops.push((a, b));
    }
}

/// Room 0 (the entrance) leads to room 1, the first end of `paths` paths of
/// `length` rooms that all meet again at the second end, which leads on to
/// a last room; every path's middle room has a branch of one room.
fn theta(paths: usize, length: usize) -> Graph {
    let mut g = Graph::default();
    let add = |g: &mut Graph| {
        g.rooms += 1;
        g.rooms - 1
    };
    let entrance = add(&mut g);
    let first = add(&mut g);
    g.tree.push((entrance, first));
    let second = add(&mut g);
    for p in 0..paths {
        let mut prev = first;
        for i in 0..length {
            let v = add(&mut g);
            g.tree.push((prev, v));
            if i == length / 2 {
                let branch = add(&mut g);
                g.tree.push((v, branch));
            }
            prev = v;
        }
        if p == 0 {
            g.tree.push((prev, second));
        } else {
            g.loops.push((prev, second));
        }
    }
    let last = add(&mut g);
    g.tree.push((second, last));
    g
}

/// The corners of a `width` x `height` grid of squares, entered at a corner:
/// a spanning tree of rows and the first column, every other grid edge a
/// loop; plus an entrance room before the first corner and a last room after
/// the opposite one.
fn loop_grid(width: usize, height: usize) -> Graph {
    let (w, h) = (width + 1, height + 1);
    let corner = |x: usize, y: usize| 1 + y * w + x;
    let mut g = Graph {
        rooms: w * h + 2,
        ..Graph::default()
    };
    g.tree.push((0, corner(0, 0)));
    for y in 0..h {
        if y > 0 {
            g.tree.push((corner(0, y - 1), corner(0, y)));
        }
        for x in 1..w {
            g.tree.push((corner(x - 1, y), corner(x, y)));
        }
    }
    for y in 1..h {
        for x in 1..w {
            g.loops.push((corner(x, y - 1), corner(x, y)));
        }
    }
    g.tree.push((corner(w - 1, h - 1), w * h + 1));
    g
}

/// A complete binary tree whose root is the entrance.
fn binary_tree(depth: u32) -> Graph {
    let rooms = (1usize << depth) - 1;
    Graph {
        rooms,
        tree: (1..rooms).map(|v| ((v - 1) / 2, v)).collect(),
        loops: Vec::new(),
    }
}

/// [`Family::Cactus`]: each loop starts and ends on a room drawn from those
/// with at most two links, so every room keeps to [`MAX_LINKS`].
fn cactus(cycles: usize, rng: &mut Rng) -> Graph {
    let mut g = Graph {
        rooms: 1,
        ..Graph::default()
    };
    let mut links = vec![0];
    // A new room linked to room `a` by a tree edge.
    let link = |g: &mut Graph, links: &mut Vec<usize>, a: usize| {
        let b = g.rooms;
        g.rooms += 1;
        links.push(1);
        links[a] += 1;
        g.tree.push((a, b));
        b
    };
    for _ in 0..cycles {
        let open: Vec<usize> = (0..g.rooms)
            .filter(|&v| links[v] <= MAX_LINKS - 2)
            .collect();
        let hub = open[rng.index(open.len())];
        let mut prev = hub;
        for _ in 0..2 + rng.index(5) {
            prev = link(&mut g, &mut links, prev);
        }
        g.loops.push((prev, hub));
        links[prev] += 1;
        links[hub] += 1;
        for _ in 0..rng.index(3) {
            let open: Vec<usize> = (0..g.rooms).filter(|&v| links[v] < MAX_LINKS).collect();
            link(&mut g, &mut links, open[rng.index(open.len())]);
        }
    }
    g
}

/// [`Family::RingChords`]: rooms `0..rooms` in a ring (the ring's links a
/// path and one loop edge closing it), then chords drawn at random, kept
/// when they cross no chord kept before and their rooms have a free link.
fn ring_chords(rooms: usize, chords: usize, rng: &mut Rng) -> Graph {
    let mut g = Graph {
        rooms,
        tree: (1..rooms).map(|v| (v - 1, v)).collect(),
        loops: vec![(rooms - 1, 0)],
    };
    let mut links = vec![2; rooms];
    let mut kept: Vec<(usize, usize)> = Vec::new();
    for _ in 0..200 * chords.max(1) {
        if kept.len() == chords {
            break;
        }
        let (a, b) = (rng.index(rooms), rng.index(rooms));
        let (a, b) = (a.min(b), a.max(b));
        let crosses =
            |&(c, d): &(usize, usize)| (c < a && a < d && d < b) || (a < c && c < b && b < d);
        if b - a < 3
            || rooms - (b - a) < 3
            || links[a] >= MAX_LINKS
            || links[b] >= MAX_LINKS
            || kept.iter().any(|&k| k == (a, b) || crosses(&k))
        {
            continue;
        }
        kept.push((a, b));
        links[a] += 1;
        links[b] += 1;
    }
    g.loops.extend(kept);
    g
}
