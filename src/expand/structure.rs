//! The structural pass: chances, selectors and chains turn the flow tree into
//! rooms; loop edges are added between the rooms that exist.

use std::collections::{BTreeMap, BTreeSet};

use petgraph::graph::{DiGraph, NodeIndex};

use super::chain::chain_categories;
use crate::diag::Diagnostic;
use crate::flow::{Door, Flow, FlowEdge, FlowGraph, FlowNode, NodeKind};
use crate::graph::{Connection, EdgeKind, LevelGraph, Origin, RoomNode};
use crate::properties::Properties;
use crate::rng::Rng;

/// Builds the level graph of the flow's tree and loops.
pub fn build(flow: &Flow, g: &FlowGraph, rng: &mut Rng) -> Result<LevelGraph, Diagnostic> {
    let entrance = g
        .nodes
        .iter()
        .find(|n| n.category.value == "entrance")
        .ok_or_else(|| {
            Diagnostic::error("expand::no-entrance", "the flow has no entrance").in_file(&flow.file)
        })?;
    let mut b = Builder {
        g,
        rng,
        out: DiGraph::new(),
        ends: BTreeMap::new(),
        ids: BTreeSet::new(),
        next_key: 0,
    };
    b.visit(entrance, None, Door::Open, &Properties::new());
    b.add_loops();
    Ok(LevelGraph {
        graph: b.out,
        entrance: NodeIndex::new(0),
        flow: flow.name.value.clone(),
        seed: 0,
        notes: Vec::new(),
    })
}

struct Builder<'a> {
    g: &'a FlowGraph,
    rng: &'a mut Rng,
    out: DiGraph<RoomNode, Connection>,
    /// Flow node id -> (first room, last room) of what it became.
    ends: BTreeMap<String, (NodeIndex, NodeIndex)>,
    ids: BTreeSet<String>,
    next_key: u32,
}

impl Builder<'_> {
    fn unique_id(&mut self, wanted: String) -> String {
        let mut id = wanted.clone();
        let mut n = 2;
        while self.ids.contains(&id) {
            id = format!("{wanted}~{n}");
            n += 1;
        }
        self.ids.insert(id.clone());
        id
    }

    fn add_room(
        &mut self,
        node: &FlowNode,
        id: String,
        category: String,
        origin: Origin,
    ) -> NodeIndex {
        let id = self.unique_id(id);
        self.out.add_node(RoomNode {
            id,
            category,
            template: node.template.as_ref().map(|t| t.value.clone()),
            pool: node.pool.iter().map(|p| p.value.clone()).collect(),
            origin,
            keys: Vec::new(),
            fixed_template: node.template.is_some(),
            span: node.id.span.clone(),
            optional: node.optional,
            properties: node.properties.clone(),
            markers: crate::flow::marker_counts(&node.markers),
        })
    }

    /// The connection a door becomes, with the edge's data; a lock without
    /// a key id gets a fresh one.
    fn connection(&mut self, kind: EdgeKind, door: &Door, properties: &Properties) -> Connection {
        let lock = match door {
            Door::Locked(Some(k)) => Some(k.value.clone()),
            Door::Locked(None) => {
                self.next_key += 1;
                Some(format!("key{}", self.next_key))
            }
            _ => None,
        };
        Connection {
            kind,
            one_way: *door == Door::OneWay,
            lock,
            properties: properties.clone(),
        }
    }

    /// Adds what `node` becomes, joined to `parent` through `door` (with
    /// the edge's `properties`), then its children.
    fn visit(
        &mut self,
        node: &FlowNode,
        parent: Option<NodeIndex>,
        door: Door,
        properties: &Properties,
    ) {
        if !self.rng.chance(node.chance) {
            return;
        }
        let (first, last) = match &node.kind {
            NodeKind::Selector { pick } => {
                self.select(node, pick.value, parent);
                return;
            }
            NodeKind::Room => {
                let i = self.add_room(
                    node,
                    node.id.value.clone(),
                    node.category.value.clone(),
                    Origin::Node {
                        node: node.id.value.clone(),
                    },
                );
                (i, i)
            }
            NodeKind::Chain(chain) => {
                let cats = chain_categories(node, chain, self.rng);
                let mut rooms = Vec::with_capacity(cats.len());
                for (k, cat) in cats.into_iter().enumerate() {
                    let origin = Origin::Chain {
                        node: node.id.value.clone(),
                        index: k as u32,
                    };
                    let room =
                        self.add_room(node, format!("{}.{}", node.id.value, k + 1), cat, origin);
                    // Chain rooms never share one exact template.
                    if k > 0 {
                        self.out[room].template = None;
                        self.out[room].fixed_template = false;
                    }
                    if let Some(&prev) = rooms.last() {
                        self.out.add_edge(
                            prev,
                            room,
                            Connection::plain(EdgeKind::Tree, false, None),
                        );
                    }
                    rooms.push(room);
                }
                (rooms[0], rooms[rooms.len() - 1])
            }
        };
        self.out[first]
            .keys
            .extend(node.keys.iter().map(|k| k.value.clone()));
        if let Some(p) = parent {
            let conn = self.connection(EdgeKind::Tree, &door, properties);
            self.out.add_edge(p, first, conn);
        }
        self.ends.insert(node.id.value.clone(), (first, last));
        let g = self.g;
        for e in child_edges(g, &node.id.value) {
            if let Some(child) = g.node(&e.to.value) {
                let door = edge_door(e, child);
                self.visit(child, Some(last), door, &e.properties);
            }
        }
    }

    /// A selector keeps k of its children, drawn by weight without replacement.
    fn select(&mut self, node: &FlowNode, (lo, hi): (u32, u32), parent: Option<NodeIndex>) {
        let g = self.g;
        let kids: Vec<(&FlowEdge, &FlowNode)> = child_edges(g, &node.id.value)
            .into_iter()
            .filter_map(|e| g.node(&e.to.value).map(|n| (e, n)))
            .collect();
        let n = kids.len() as u32;
        let k = self.rng.range(lo.min(n), hi.min(n));
        let mut weights: Vec<f64> = kids.iter().map(|(_, c)| c.weight).collect();
        let mut chosen = Vec::new();
        for _ in 0..k {
            match self.rng.weighted(&weights) {
                Some(i) => {
                    chosen.push(i);
                    weights[i] = 0.0;
                }
                None => break,
            }
        }
        chosen.sort_unstable();
        for i in chosen {
            let (e, child) = kids[i];
            self.visit(child, parent, edge_door(e, child), &e.properties);
        }
    }

    fn add_loops(&mut self) {
        for e in &self.g.loops {
            let (Some(&(_, from)), Some(&(to, _))) =
                (self.ends.get(&e.from.value), self.ends.get(&e.to.value))
            else {
                continue; // one end did not come into existence
            };
            if from == to {
                continue;
            }
            let conn = self.connection(EdgeKind::Loop, &e.door, &e.properties);
            self.out.add_edge(from, to, conn);
        }
    }
}

fn child_edges<'a>(g: &'a FlowGraph, id: &str) -> Vec<&'a FlowEdge> {
    g.edges.iter().filter(|e| e.from.value == id).collect()
}

/// The door of a tree edge: the edge's own, else the child's `door:`.
fn edge_door(e: &FlowEdge, child: &FlowNode) -> Door {
    if e.door != Door::Open {
        e.door.clone()
    } else {
        child.door.clone()
    }
}
