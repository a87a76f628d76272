//! A stable text form of a level for snapshot tests: the tile grid, then
//! one line per room, connection and item. It depends only on the level, so
//! a snapshot changes exactly when the generated level does.

use std::fmt::Write;

use super::{ConnectionKind, Level};
use crate::properties::Properties;

impl Level {
    /// The level as stable text, made for `insta::assert_snapshot!`.
    pub fn snapshot(&self) -> String {
        let mut out = format!(
            "{} `{}` seed {}: {}x{} tiles, {} rooms, {} connections\n",
            self.generator,
            self.flow,
            self.seed,
            self.width,
            self.height,
            self.rooms.len(),
            self.connections.len()
        );
        for row in self.rows() {
            out += row.trim_end();
            out.push('\n');
        }
        out += "rooms:\n";
        for r in &self.rooms {
            let _ = write!(
                out,
                "  {} ({}, {}) at {},{} size {}x{}",
                r.id, r.category, r.template, r.x, r.y, r.width, r.height
            );
            if let Some(t) = &r.transform {
                let _ = write!(out, " {t}");
            }
            out += &properties(&r.properties);
            out.push('\n');
        }
        out += "connections:\n";
        for c in &self.connections {
            let kind = match c.kind {
                ConnectionKind::Door => "door",
                ConnectionKind::Corridor => "corridor",
                ConnectionKind::Warp => "warp",
            };
            let _ = write!(
                out,
                "  {} {} {} by {kind}",
                c.from,
                if c.one_way { "->" } else { "--" },
                c.to
            );
            if let (Some(first), Some(last)) = (c.path.first(), c.path.last()) {
                let _ = write!(
                    out,
                    ", {} tiles from {},{} to {},{}",
                    c.path.len(),
                    first[0],
                    first[1],
                    last[0],
                    last[1]
                );
            }
            if let Some(key) = &c.lock {
                let _ = write!(out, ", locked by {key}");
            }
            out += &properties(&c.properties);
            out.push('\n');
        }
        if !self.items.is_empty() {
            out += "items:\n";
            for i in &self.items {
                let _ = writeln!(
                    out,
                    "  {} {} in {} at {},{}",
                    i.kind, i.id, i.room, i.x, i.y
                );
            }
        }
        if !self.markers.is_empty() {
            out += "markers:\n";
            for m in &self.markers {
                let _ = writeln!(
                    out,
                    "  {} in {} at {},{}{}",
                    m.kind,
                    m.room,
                    m.x,
                    m.y,
                    properties(&m.properties)
                );
            }
        }
        out
    }
}

/// ` {a: 1, b: x}`, or nothing when there are no properties.
fn properties(p: &Properties) -> String {
    if p.is_empty() {
        return String::new();
    }
    let items: Vec<String> = p.iter().map(|(k, v)| format!("{k}: {v}")).collect();
    format!(" {{{}}}", items.join(", "))
}
