//! [`LevelGraph`]: the concrete rooms of one level and how they connect,
//! before any geometry.

use petgraph::graph::{DiGraph, EdgeIndex, EdgeReference, NodeIndex};
use petgraph::visit::EdgeRef;
use serde::Serialize;

use crate::properties::Properties;

/// Where an expanded room came from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Origin {
    /// A room node of the flow.
    Node {
        /// The flow node id.
        node: String,
    },
    /// One room of a chain node.
    Chain {
        /// The flow node id.
        node: String,
        /// 0-based position in the chain.
        index: u32,
    },
    /// Added by an injection rule.
    Injection {
        /// The rule's name.
        rule: String,
    },
    /// A room of the nested lock-and-key puzzle generator.
    Nested {
        /// Nesting depth (the entrance is 0).
        depth: u32,
    },
}

/// One room of the level.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RoomNode {
    /// Unique id: the flow node id, `node.N` for chain rooms, `rule.N` for injected rooms.
    pub id: String,
    /// Category.
    pub category: String,
    /// Chosen template (`None` for connectors until layout picks one).
    pub template: Option<String>,
    /// Tag pool for the template choice.
    #[serde(skip)]
    pub pool: Vec<String>,
    /// Where it came from.
    pub origin: Origin,
    /// Keys lying in this room.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub keys: Vec<String>,
    /// An exact template requested by the flow.
    #[serde(skip)]
    pub fixed_template: bool,
    /// Span of the flow node or rule it came from (for diagnostics).
    #[serde(skip)]
    pub span: std::ops::Range<usize>,
    /// Dropped instead of failing when no template fits.
    #[serde(skip)]
    pub optional: bool,
    /// Gameplay data from the flow node (laid over the template's own).
    #[serde(skip_serializing_if = "Properties::is_empty")]
    pub properties: Properties,
    /// How many of its template's markers of a kind the room keeps (least,
    /// most); kinds not listed keep all.
    #[serde(skip)]
    pub markers: Vec<(String, (u32, u32))>,
}

/// How two rooms are joined.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum EdgeKind {
    /// A tree edge, parent to child.
    Tree,
    /// A loop-closing edge.
    Loop,
    /// A warp (teleporter) to a detached wing: no physical connection.
    Warp,
}

/// An edge of the level graph.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Connection {
    /// Tree, loop or warp.
    pub kind: EdgeKind,
    /// Passable only from the edge's source to its target.
    pub one_way: bool,
    /// The key that opens it, when locked.
    pub lock: Option<String>,
    /// Gameplay data from the flow edge.
    #[serde(skip_serializing_if = "Properties::is_empty")]
    pub properties: Properties,
}

impl Connection {
    /// A connection with no gameplay data.
    pub fn plain(kind: EdgeKind, one_way: bool, lock: Option<String>) -> Self {
        Self {
            kind,
            one_way,
            lock,
            properties: Properties::new(),
        }
    }
}

/// The expanded graph of one level. Edges point from parent to child (tree)
/// or from origin to target (loops, warps).
#[derive(Clone, Debug)]
pub struct LevelGraph {
    /// Rooms and connections.
    pub graph: DiGraph<RoomNode, Connection>,
    /// The entrance room.
    pub entrance: NodeIndex,
    /// Name of the flow it was expanded from.
    pub flow: String,
    /// Seed it was expanded with.
    pub seed: u64,
    /// What the expansion decided not to do (an injection that found no place, ...).
    pub notes: Vec<String>,
}

impl LevelGraph {
    /// The room at `i`.
    pub fn room(&self, i: NodeIndex) -> &RoomNode {
        &self.graph[i]
    }

    /// Number of rooms.
    pub fn len(&self) -> usize {
        self.graph.node_count()
    }

    /// Whether the graph has no rooms.
    pub fn is_empty(&self) -> bool {
        self.graph.node_count() == 0
    }

    /// The tree parent of a room.
    pub fn parent(&self, i: NodeIndex) -> Option<NodeIndex> {
        self.graph
            .edges_directed(i, petgraph::Direction::Incoming)
            .find(|e| e.weight().kind == EdgeKind::Tree)
            .map(|e| e.source())
    }

    /// Tree children, in insertion order.
    pub fn children(&self, i: NodeIndex) -> Vec<NodeIndex> {
        let mut v: Vec<(EdgeIndex, NodeIndex)> = self
            .graph
            .edges_directed(i, petgraph::Direction::Outgoing)
            .filter(|e| e.weight().kind == EdgeKind::Tree)
            .map(|e| (e.id(), e.target()))
            .collect();
        v.sort();
        v.into_iter().map(|(_, n)| n).collect()
    }

    /// The physical connections (tree and loop edges, not warps) touching a
    /// room, in either direction.
    pub fn doors(&self, i: NodeIndex) -> impl Iterator<Item = EdgeReference<'_, Connection>> {
        self.graph
            .edges_directed(i, petgraph::Direction::Incoming)
            .chain(self.graph.edges_directed(i, petgraph::Direction::Outgoing))
            .filter(|e| e.weight().kind != EdgeKind::Warp)
    }

    /// The room at the other end of each of a room's physical connections
    /// ([`LevelGraph::doors`]), with the connection.
    pub fn door_ends(&self, i: NodeIndex) -> impl Iterator<Item = (NodeIndex, EdgeIndex)> + '_ {
        self.doors(i).map(move |e| {
            let other = if e.source() == i {
                e.target()
            } else {
                e.source()
            };
            (other, e.id())
        })
    }

    /// How many physical connections touch a room ([`LevelGraph::doors`]).
    pub fn door_count(&self, i: NodeIndex) -> usize {
        self.doors(i).count()
    }

    /// Tree depth of every room (entrance 0), in node index order.
    pub fn depths(&self) -> Vec<u32> {
        let mut depth = vec![u32::MAX; self.graph.node_count()];
        let mut stack = vec![(self.entrance, 0)];
        while let Some((n, d)) = stack.pop() {
            depth[n.index()] = d;
            for c in self.children(n) {
                stack.push((c, d + 1));
            }
        }
        // Detached (warp) wings count from their warp source.
        for _ in 0..self.graph.node_count() {
            let mut changed = false;
            for e in self.graph.edge_references() {
                if e.weight().kind != EdgeKind::Tree
                    && depth[e.target().index()] == u32::MAX
                    && depth[e.source().index()] != u32::MAX
                {
                    depth[e.target().index()] = depth[e.source().index()] + 1;
                    changed = true;
                }
                if e.weight().kind == EdgeKind::Tree
                    && depth[e.target().index()] == u32::MAX
                    && depth[e.source().index()] != u32::MAX
                {
                    depth[e.target().index()] = depth[e.source().index()] + 1;
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        depth
    }

    /// Index of the room with id `id`.
    pub fn find(&self, id: &str) -> Option<NodeIndex> {
        self.graph.node_indices().find(|&i| self.graph[i].id == id)
    }
}
