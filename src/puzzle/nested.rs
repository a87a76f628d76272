//! The nested lock-and-key puzzle generator (`generator: nested_puzzle`),
//! after the seed article: rooms inside rooms, each behind a locked door
//! whose key lies in a room the player must already have reached.
//!
//! - **Rooms.** Start with the entrance (depth 0). Work through a queue of
//!   rooms: a room at the maximum depth is finished; otherwise it gets
//!   `branching` children (drawn uniformly from the range; 1 = the seed's
//!   single line), each one level deeper, queued in turn. At most
//!   [`MAX_ROOMS`] rooms are made (the queue is breadth-first, so a capped
//!   level is filled level by level).
//! - **Categories.** The entrance; one room of the deepest level (drawn at
//!   random) is the `boss` room, the goal; the other rooms without children
//!   are `reward` rooms; rooms with [`HUB_CHILDREN`] children or more are
//!   `hub` rooms; the rest are `normal`. Templates are chosen as the
//!   expansion chooses them (same ladder, no template used twice).
//! - **Locks and keys.** Every door from a room to its child is locked.
//!   - `ordering: ancestor` (the seed's rule): the child's own key,
//!     `key-<child id>`, lies in a random ancestor of the child (its parent, the
//!     parent's parent, ... up to the entrance), a room the player has
//!     reached before the door.
//!   - `ordering: key_levels` (metazelda's stronger ordering): a room's
//!     depth is its key level; one key, `level-<n>`, opens every door into
//!     level `n`, and it lies in the *hardest* room of level `n - 1`: the
//!     room of that level farthest (in doors) from the room where the key of
//!     level `n - 1` lies, that is the longest walk from where the player
//!     opens level `n - 1` (ties drawn at random; the key of level 1 lies in
//!     the entrance). Key `n` therefore needs keys `1..n-1`.
//!
//! The resulting [`LevelGraph`] is laid out by the normal layout engine.

use std::collections::VecDeque;

use petgraph::graph::{DiGraph, NodeIndex};

use crate::diag::Diagnostic;
use crate::expand::repick_templates;
use crate::flow::{Flow, NestedOrdering, NestedParams};
use crate::graph::{Connection, EdgeKind, LevelGraph, Origin, RoomNode};
use crate::rng::Rng;
use crate::rooms::RoomLibrary;

/// Most rooms one nested puzzle makes.
pub const MAX_ROOMS: usize = 40;

/// A room with this many children or more is a `hub` (hub templates have the
/// most exits).
pub const HUB_CHILDREN: usize = 3;

/// One room of the puzzle tree.
#[derive(Clone, Debug)]
struct Cell {
    parent: Option<usize>,
    depth: u32,
}

/// Builds the level graph of a nested puzzle with `seed`, templates chosen.
pub fn build(
    flow: &Flow,
    params: &NestedParams,
    library: &RoomLibrary,
    seed: u64,
) -> Result<LevelGraph, Diagnostic> {
    let cells = rooms(params, &mut Rng::derive(seed, "nested/rooms"));
    let mut rng = Rng::derive(seed, "nested/keys");
    let deepest = cells.iter().map(|c| c.depth).max().unwrap_or(0);
    let at_bottom: Vec<usize> = (0..cells.len())
        .filter(|&i| cells[i].depth == deepest && i > 0)
        .collect();
    let boss = (!at_bottom.is_empty()).then(|| at_bottom[rng.index(at_bottom.len())]);
    let children: Vec<usize> = (0..cells.len())
        .map(|i| cells.iter().filter(|c| c.parent == Some(i)).count())
        .collect();
    let mut graph: DiGraph<RoomNode, Connection> = DiGraph::new();
    let mut ids = Vec::with_capacity(cells.len());
    for (i, c) in cells.iter().enumerate() {
        let (id, category) = if i == 0 {
            ("entrance".to_owned(), "entrance")
        } else if Some(i) == boss {
            ("boss".to_owned(), "boss")
        } else if children[i] == 0 {
            (format!("room{i}"), "reward")
        } else if children[i] >= HUB_CHILDREN {
            (format!("room{i}"), "hub")
        } else {
            (format!("room{i}"), "normal")
        };
        ids.push(id.clone());
        graph.add_node(RoomNode {
            id,
            category: category.to_owned(),
            template: None,
            pool: Vec::new(),
            origin: Origin::Nested { depth: c.depth },
            keys: Vec::new(),
            fixed_template: false,
            span: flow.name.span.clone(),
            optional: false,
            properties: Default::default(),
            markers: Vec::new(),
        });
    }
    let locks = match params.ordering {
        NestedOrdering::Ancestor => ancestor_keys(&cells, &ids, &mut rng),
        NestedOrdering::KeyLevels => level_keys(&cells, &mut rng),
    };
    for (i, c) in cells.iter().enumerate() {
        if let Some(p) = c.parent {
            graph.add_edge(
                NodeIndex::new(p),
                NodeIndex::new(i),
                Connection::plain(EdgeKind::Tree, false, Some(locks.door[i].clone())),
            );
        }
    }
    for (key, room) in locks.keys {
        graph[NodeIndex::new(room)].keys.push(key);
    }
    let mut level = LevelGraph {
        graph,
        entrance: NodeIndex::new(0),
        flow: flow.name.value.clone(),
        seed,
        notes: Vec::new(),
    };
    if cells.len() >= MAX_ROOMS && deepest < params.depth {
        level.notes.push(format!(
            "stopped at {MAX_ROOMS} rooms, depth {deepest} of {}",
            params.depth
        ));
    }
    repick_templates(
        flow,
        library,
        &mut level,
        Rng::derive(seed, "nested/templates").next_seed(),
    )?;
    Ok(level)
}

/// The seed's room generator, with branching: a breadth-first queue.
fn rooms(params: &NestedParams, rng: &mut Rng) -> Vec<Cell> {
    let mut cells = vec![Cell {
        parent: None,
        depth: 0,
    }];
    let mut queue = VecDeque::from([0]);
    while let Some(current) = queue.pop_front() {
        if cells[current].depth >= params.depth {
            continue; // finished: at the maximum depth
        }
        let (lo, hi) = params.branching;
        let children = rng.range(lo.min(hi), hi.max(lo));
        for _ in 0..children {
            if cells.len() >= MAX_ROOMS {
                break;
            }
            cells.push(Cell {
                parent: Some(current),
                depth: cells[current].depth + 1,
            });
            queue.push_back(cells.len() - 1);
        }
    }
    cells
}

/// The key of each room's door (`door[0]` unused) and where each key lies.
struct Locks {
    door: Vec<String>,
    keys: Vec<(String, usize)>,
}

/// Rooms above `i`: its parent, the parent's parent, ..., the entrance.
fn ancestors(cells: &[Cell], i: usize) -> Vec<usize> {
    let mut out = Vec::new();
    let mut cur = cells[i].parent;
    while let Some(p) = cur {
        out.push(p);
        cur = cells[p].parent;
    }
    out
}

/// The seed's rule: each room's key in a random ancestor.
fn ancestor_keys(cells: &[Cell], ids: &[String], rng: &mut Rng) -> Locks {
    let mut door = vec![String::new(); cells.len()];
    let mut keys = Vec::new();
    for i in 1..cells.len() {
        let key = format!("key-{}", ids[i]);
        let above = ancestors(cells, i);
        keys.push((key.clone(), above[rng.index(above.len())]));
        door[i] = key;
    }
    Locks { door, keys }
}

/// Doors between rooms `a` and `b` of the tree.
fn distance(cells: &[Cell], a: usize, b: usize) -> u32 {
    let (mut a, mut b) = (a, b);
    let mut d = 0;
    while a != b {
        if cells[a].depth >= cells[b].depth {
            a = cells[a].parent.unwrap_or(a);
        } else {
            b = cells[b].parent.unwrap_or(b);
        }
        d += 1;
    }
    d
}

/// Key levels: one key per depth, in the hardest room of the level above.
fn level_keys(cells: &[Cell], rng: &mut Rng) -> Locks {
    let door = cells.iter().map(|c| format!("level-{}", c.depth)).collect();
    let deepest = cells.iter().map(|c| c.depth).max().unwrap_or(0);
    let mut keys = Vec::new();
    let mut holder = 0; // the key of level 1 lies in the entrance
    for n in 1..=deepest {
        if n > 1 {
            let level: Vec<usize> = (0..cells.len())
                .filter(|&i| cells[i].depth == n - 1)
                .collect();
            let far = level
                .iter()
                .map(|&i| distance(cells, holder, i))
                .max()
                .unwrap_or(0);
            let hardest: Vec<usize> = level
                .into_iter()
                .filter(|&i| distance(cells, holder, i) == far)
                .collect();
            holder = hardest[rng.index(hardest.len())];
        }
        keys.push((format!("level-{n}"), holder));
    }
    Locks { door, keys }
}
