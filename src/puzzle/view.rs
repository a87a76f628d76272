//! [`Puzzle`]: what the solver needs to know about a level.

use std::collections::BTreeMap;

use petgraph::visit::EdgeRef;

use crate::flow::{Door, FlowGraph, NodeKind};
use crate::graph::LevelGraph;
use crate::level::Level;

/// A room as the solver sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PuzzleRoom {
    /// Room id.
    pub id: String,
    /// Category (the goal is the `boss` room, else the `exit`).
    pub category: String,
    /// Keys lying in the room.
    pub keys: Vec<String>,
}

/// A door (any connection: door, corridor or warp) between two rooms.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PuzzleDoor {
    /// Index of the source room.
    pub from: usize,
    /// Index of the target room.
    pub to: usize,
    /// Passable only from `from` to `to`.
    pub one_way: bool,
    /// The key that opens it.
    pub lock: Option<String>,
}

/// Rooms, doors and keys of one level: the input of [`super::analyse`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Puzzle {
    /// The rooms.
    pub rooms: Vec<PuzzleRoom>,
    /// The doors.
    pub doors: Vec<PuzzleDoor>,
    /// Index of the entrance.
    pub entrance: usize,
}

impl Puzzle {
    /// The view of a generated level: its rooms (the first is the entrance),
    /// its connections and its key items. Connections or items naming an
    /// unknown room are left out ([`Level::check`] reports them).
    pub fn from_level(level: &Level) -> Puzzle {
        let index: BTreeMap<&str, usize> = level
            .rooms
            .iter()
            .enumerate()
            .map(|(i, r)| (r.id.as_str(), i))
            .collect();
        let mut rooms: Vec<PuzzleRoom> = level
            .rooms
            .iter()
            .map(|r| PuzzleRoom {
                id: r.id.clone(),
                category: r.category.clone(),
                keys: Vec::new(),
            })
            .collect();
        for item in level.items.iter().filter(|i| i.kind == "key") {
            if let Some(&r) = index.get(item.room.as_str()) {
                rooms[r].keys.push(item.id.clone());
            }
        }
        let doors = level
            .connections
            .iter()
            .filter_map(|c| {
                Some(PuzzleDoor {
                    from: *index.get(c.from.as_str())?,
                    to: *index.get(c.to.as_str())?,
                    one_way: c.one_way,
                    lock: c.lock.clone(),
                })
            })
            .collect();
        Puzzle {
            rooms,
            doors,
            entrance: 0,
        }
    }

    /// The view of an expanded graph (before layout).
    pub fn from_graph(graph: &LevelGraph) -> Puzzle {
        let rooms = graph
            .graph
            .node_weights()
            .map(|r| PuzzleRoom {
                id: r.id.clone(),
                category: r.category.clone(),
                keys: r.keys.clone(),
            })
            .collect();
        let doors = graph
            .graph
            .edge_references()
            .map(|e| PuzzleDoor {
                from: e.source().index(),
                to: e.target().index(),
                one_way: e.weight().one_way,
                lock: e.weight().lock.clone(),
            })
            .collect();
        Puzzle {
            rooms,
            doors,
            entrance: graph.entrance.index(),
        }
    }

    /// The view of a flow's structure, for `validate`: one room per node
    /// (a chain is one room, a selector is skipped and its children hang off
    /// its parent), every node present whatever its chance, every tree edge
    /// and loop a door. A lock whose key no node holds gets its key in the
    /// room in front of it, as the expansion's automatic placement always
    /// allows; an unnamed lock gets a key `<node>-lock`.
    ///
    /// `None` when the flow has no entrance.
    pub fn from_flow(g: &FlowGraph) -> Option<Puzzle> {
        let entrance_id = g
            .nodes
            .iter()
            .find(|n| n.category.value == "entrance")?
            .id
            .value
            .as_str();
        let is_selector = |id: &str| is_selector(g, id);
        let mut index: BTreeMap<&str, usize> = BTreeMap::new();
        let mut rooms = Vec::new();
        for n in g.nodes.iter().filter(|n| !is_selector(&n.id.value)) {
            if index.contains_key(n.id.value.as_str()) {
                continue;
            }
            index.insert(&n.id.value, rooms.len());
            rooms.push(PuzzleRoom {
                id: n.id.value.clone(),
                category: n.category.value.clone(),
                keys: n.keys.iter().map(|k| k.value.clone()).collect(),
            });
        }
        let parent: BTreeMap<&str, &str> = g
            .edges
            .iter()
            .map(|e| (e.to.value.as_str(), e.from.value.as_str()))
            .collect();
        let held: std::collections::BTreeSet<String> =
            rooms.iter().flat_map(|r| r.keys.iter().cloned()).collect();
        let mut doors = Vec::new();
        let mut auto: Vec<(usize, String)> = Vec::new();
        let mut add = |from: usize, to: usize, door: &Door, target: &str| {
            let lock = match door {
                Door::Locked(Some(k)) => Some(k.value.clone()),
                Door::Locked(None) => Some(format!("{target}-lock")),
                _ => None,
            };
            if let Some(k) = &lock
                && !held.contains(k)
            {
                auto.push((from, k.clone()));
            }
            doors.push(PuzzleDoor {
                from,
                to,
                one_way: *door == Door::OneWay,
                lock,
            });
        };
        for e in &g.edges {
            let Some(child) = g.node(&e.to.value) else {
                continue;
            };
            if is_selector(&child.id.value) {
                continue;
            }
            let (Some(from), Some(&to)) = (
                effective(g, &parent, &index, &e.from.value),
                index.get(e.to.value.as_str()),
            ) else {
                continue;
            };
            let door = if e.door != Door::Open {
                &e.door
            } else {
                &child.door
            };
            add(from, to, door, &e.to.value);
        }
        for e in &g.loops {
            if let (Some(&from), Some(&to)) = (
                index.get(e.from.value.as_str()),
                index.get(e.to.value.as_str()),
            ) {
                add(from, to, &e.door, &e.to.value);
            }
        }
        auto.sort();
        auto.dedup_by(|a, b| a.1 == b.1);
        for (room, key) in auto {
            rooms[room].keys.push(key);
        }
        Some(Puzzle {
            entrance: *index.get(entrance_id)?,
            rooms,
            doors,
        })
    }

    /// The goal: the first `boss` room, else the first `exit` room.
    pub fn goal(&self) -> Option<usize> {
        ["boss", "exit"]
            .iter()
            .find_map(|c| self.rooms.iter().position(|r| r.category == *c))
    }

    /// Every distinct key id lying in a room or named by a lock, sorted.
    pub fn key_ids(&self) -> Vec<String> {
        let mut keys: Vec<String> = self
            .rooms
            .iter()
            .flat_map(|r| r.keys.iter().cloned())
            .chain(self.doors.iter().filter_map(|d| d.lock.clone()))
            .collect();
        keys.sort();
        keys.dedup();
        keys
    }
}

fn is_selector(g: &FlowGraph, id: &str) -> bool {
    g.node(id)
        .is_some_and(|n| matches!(n.kind, NodeKind::Selector { .. }))
}

/// The room a node hangs off once selectors are skipped.
fn effective<'g>(
    g: &'g FlowGraph,
    parent: &BTreeMap<&'g str, &'g str>,
    index: &BTreeMap<&'g str, usize>,
    mut id: &'g str,
) -> Option<usize> {
    for _ in 0..=g.nodes.len() {
        if !is_selector(g, id) {
            return index.get(id).copied();
        }
        id = parent.get(id)?;
    }
    None
}
