//! Edge syntax: `a -> b -> c` paths for tree edges, `a -> b` (one-way) and
//! `a <-> b` (two-way) for loops, or the long form `{from, to, door, lock}`.

use std::ops::Range;

use super::model::{Door, FlowEdge};
use crate::yaml::{Decoder, Node, Sp, Value};

/// Fields of an edge written as a mapping.
pub(crate) const EDGE_FIELDS: &[&str] = &["from", "to", "door", "lock", "one_way", "properties"];
/// Values of `door:`.
pub(crate) const DOOR_KINDS: &[&str] = &["open", "locked", "one_way"];

/// Which list an edge is in.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum EdgeList {
    /// `edges:` (tree, parent to child).
    Tree,
    /// `loops:` (loop-closing).
    Loop,
}

/// Decodes one entry of `edges:` or `loops:` into one or more edges.
pub fn decode_edge_entry(d: &mut Decoder, node: &Node, list: EdgeList) -> Vec<FlowEdge> {
    match &node.value {
        Value::Str(text) => decode_edge_string(d, node, text, list),
        Value::Map(_) => decode_edge_map(d, node).into_iter().collect(),
        _ => {
            d.error(
                "flow::bad-edge",
                node.span.clone(),
                format!(
                    "an edge must be a string like `a -> b` or a mapping, found {}",
                    node.value.kind_name()
                ),
                "not an edge",
                "write `- a -> b -> c`, or `- { from: a, to: b, door: locked }`",
            );
            Vec::new()
        }
    }
}

/// Locates each token of `text` inside the node's source span, left to right.
fn token_spans(source: &str, span: &Range<usize>, tokens: &[&str]) -> Vec<Range<usize>> {
    let hay = source.get(span.clone()).unwrap_or("");
    let mut cursor = 0;
    tokens
        .iter()
        .map(|t| match hay.get(cursor..).and_then(|h| h.find(t)) {
            Some(i) if !t.is_empty() => {
                let start = span.start + cursor + i;
                cursor += i + t.len();
                start..start + t.len()
            }
            _ => span.clone(),
        })
        .collect()
}

fn decode_edge_string(d: &mut Decoder, node: &Node, text: &str, list: EdgeList) -> Vec<FlowEdge> {
    // Split into names and arrows, keeping their order.
    let mut names = Vec::new();
    let mut arrows = Vec::new();
    let mut rest = text.trim();
    loop {
        let next = [("<->", true), ("->", false)]
            .iter()
            .filter_map(|(a, two)| rest.find(a).map(|i| (i, *a, *two)))
            .min_by_key(|(i, a, _)| (*i, usize::MAX - a.len()));
        match next {
            Some((i, arrow, two_way)) => {
                names.push(rest[..i].trim());
                arrows.push(two_way);
                rest = &rest[i + arrow.len()..];
            }
            None => {
                names.push(rest.trim());
                break;
            }
        }
    }
    let spans = token_spans(&d.file.text, &node.span, &names);
    if names.len() < 2
        || names
            .iter()
            .any(|n| n.is_empty() || n.contains(char::is_whitespace))
    {
        let example = if list == EdgeList::Tree {
            "`a -> b -> c`"
        } else {
            "`a -> b` (one-way) or `a <-> b`"
        };
        d.error(
            "flow::bad-edge",
            node.span.clone(),
            format!("cannot read `{text}` as an edge"),
            "expected node names joined by arrows",
            format!("write {example}; node ids have no spaces"),
        );
        return Vec::new();
    }
    if list == EdgeList::Tree && arrows.iter().any(|two| *two) {
        d.error(
            "flow::bad-edge",
            node.span.clone(),
            "`<->` is for loops; tree edges go from parent to child with `->`",
            "two-way arrow in `edges`",
            "move this edge under `loops:`, or write `parent -> child`",
        );
        return Vec::new();
    }
    if list == EdgeList::Loop && names.len() > 2 {
        d.error(
            "flow::bad-edge",
            node.span.clone(),
            "a loop entry joins exactly two nodes",
            "more than two nodes",
            "write one loop per line: `a -> b` or `a <-> b`",
        );
        return Vec::new();
    }
    (0..names.len() - 1)
        .map(|i| FlowEdge {
            from: Sp::new(names[i].to_owned(), spans[i].clone()),
            to: Sp::new(names[i + 1].to_owned(), spans[i + 1].clone()),
            door: if list == EdgeList::Loop && !arrows[i] {
                Door::OneWay
            } else {
                Door::Open
            },
            properties: Default::default(),
            span: node.span.clone(),
        })
        .collect()
}

fn decode_edge_map(d: &mut Decoder, node: &Node) -> Option<FlowEdge> {
    let mut f = d.map(node, "an edge")?;
    let from = f
        .require(d, "from", "the edge")
        .and_then(|n| d.name(n, "`from`"));
    let to = f
        .require(d, "to", "the edge")
        .and_then(|n| d.name(n, "`to`"));
    let door = decode_door(d, f.get("door"), f.get("lock"));
    let one_way = f.get("one_way").and_then(|n| d.bool(n, "`one_way`"));
    let properties = crate::properties::decode_properties(d, f.get("properties"), "the edge");
    f.finish(d, "an edge", EDGE_FIELDS);
    let door = match (door, one_way) {
        (Door::Open, Some(true)) => Door::OneWay,
        (door, _) => door,
    };
    Some(FlowEdge {
        from: from?,
        to: to?,
        door,
        properties,
        span: node.span.clone(),
    })
}

/// Decodes `door:` (`open`, `locked`, `one_way`) and `lock: KEY` into a [`Door`].
pub fn decode_door(d: &mut Decoder, door: Option<&Node>, lock: Option<&Node>) -> Door {
    let key = lock.and_then(|n| d.name(n, "`lock`"));
    let kind = door.and_then(|n| d.one_of(n, "door type", DOOR_KINDS));
    match kind.as_ref().map(|k| k.value.as_str()) {
        Some("one_way") => {
            if let Some(k) = key {
                d.error(
                    "flow::bad-door",
                    k.span,
                    "a one-way door cannot also be locked",
                    "lock on a one-way door",
                    "remove `lock:` or use `door: locked`",
                );
            }
            Door::OneWay
        }
        Some("open") if key.is_some() => {
            let k = key.expect("checked");
            d.error(
                "flow::bad-door",
                k.span,
                "`door: open` contradicts `lock:`",
                "an open door has no lock",
                "remove one of the two",
            );
            Door::Open
        }
        Some("locked") => Door::Locked(key),
        _ => key.map_or(Door::Open, |k| Door::Locked(Some(k))),
    }
}
