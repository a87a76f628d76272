//! Plain, serialisable views of a [`LevelGraph`] (for `expand` and snapshots).

use petgraph::visit::EdgeRef;
use serde::Serialize;

use super::{EdgeKind, LevelGraph, Origin};

/// A level graph as printed by `dungeonflow expand`.
#[derive(Debug, Serialize)]
pub struct GraphView {
    /// Flow name.
    pub flow: String,
    /// Seed.
    pub seed: u64,
    /// Rooms in creation order.
    pub rooms: Vec<RoomView>,
    /// Edges in creation order.
    pub edges: Vec<EdgeView>,
    /// What expansion decided not to do.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
}

/// One room.
#[derive(Debug, Serialize)]
pub struct RoomView {
    /// Room id.
    pub id: String,
    /// Category.
    pub category: String,
    /// Template (absent for connectors, which layout chooses).
    pub template: Option<String>,
    /// Where it came from.
    pub origin: Origin,
    /// Keys lying in it.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub keys: Vec<String>,
}

/// One edge.
#[derive(Debug, Serialize)]
pub struct EdgeView {
    /// Source room id.
    pub from: String,
    /// Target room id.
    pub to: String,
    /// Tree, loop or warp.
    pub kind: EdgeKind,
    /// One-way from `from` to `to`.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub one_way: bool,
    /// Key id, when locked.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lock: Option<String>,
}

impl LevelGraph {
    /// The plain view of this graph.
    pub fn view(&self) -> GraphView {
        GraphView {
            flow: self.flow.clone(),
            seed: self.seed,
            rooms: self
                .graph
                .node_weights()
                .map(|r| RoomView {
                    id: r.id.clone(),
                    category: r.category.clone(),
                    template: r.template.clone(),
                    origin: r.origin.clone(),
                    keys: r.keys.clone(),
                })
                .collect(),
            edges: self
                .graph
                .edge_references()
                .map(|e| EdgeView {
                    from: self.graph[e.source()].id.clone(),
                    to: self.graph[e.target()].id.clone(),
                    kind: e.weight().kind,
                    one_way: e.weight().one_way,
                    lock: e.weight().lock.clone(),
                })
                .collect(),
            notes: self.notes.clone(),
        }
    }

    /// Graphviz DOT: rooms coloured by category, loops dashed, one-way
    /// edges with an open arrow, locks labelled, warps dotted.
    pub fn to_dot(&self) -> String {
        let mut s = format!(
            "digraph \"{}\" {{\n  rankdir=TB;\n  node [shape=box, style=\"rounded,filled\", fontname=\"Helvetica\"];\n",
            self.flow
        );
        for r in self.graph.node_weights() {
            let label = match &r.template {
                Some(t) => format!("{}\\n{}", r.id, t),
                None => r.id.clone(),
            };
            let keys = if r.keys.is_empty() {
                String::new()
            } else {
                format!("\\nkeys: {}", r.keys.join(", "))
            };
            s += &format!(
                "  \"{}\" [label=\"{label}{keys}\", fillcolor=\"{}\"];\n",
                r.id,
                crate::category::colour_hex(&r.category)
            );
        }
        for e in self.graph.edge_references() {
            let c = e.weight();
            let mut attrs = Vec::new();
            match c.kind {
                EdgeKind::Tree => {}
                EdgeKind::Loop => attrs.push("style=dashed, constraint=false".to_owned()),
                EdgeKind::Warp => attrs.push("style=dotted, label=\"warp\"".to_owned()),
            }
            if c.one_way {
                attrs.push("arrowhead=empty".to_owned());
            } else if c.kind != EdgeKind::Tree {
                attrs.push("dir=both".to_owned());
            }
            if let Some(k) = &c.lock {
                attrs.push(format!("label=\"locked: {k}\", color=firebrick"));
            }
            s += &format!(
                "  \"{}\" -> \"{}\"{};\n",
                self.graph[e.source()].id,
                self.graph[e.target()].id,
                if attrs.is_empty() {
                    String::new()
                } else {
                    format!(" [{}]", attrs.join(", "))
                }
            );
        }
        s + "}\n"
    }
}
