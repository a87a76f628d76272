//! Decoding flow files.

use std::sync::Arc;

use super::edges::{EdgeList, decode_door, decode_edge_entry};
use super::model::*;
use super::params::{decode_isaac, decode_nested, decode_scatter};
use crate::diag::{Diagnostic, SourceFile};
use crate::yaml::{Decoder, Fields, Node, Sp, Value, parse};

/// Fields of a flow file.
pub(crate) const FLOW_FIELDS: &[&str] = &[
    "name",
    "description",
    "stage",
    "tags",
    "weight",
    "generator",
    "params",
    "categories",
    "nodes",
    "edges",
    "loops",
    "injections",
    "layout",
];
/// Fields of a flow file that only flow graphs (no `generator:`) may have.
pub(crate) const GRAPH_ONLY: &[&str] = &[
    "categories",
    "nodes",
    "edges",
    "loops",
    "injections",
    "layout",
];
/// Fields of a node written as a mapping.
pub(crate) const NODE_FIELDS: &[&str] = &[
    "category",
    "template",
    "pool",
    "chance",
    "optional",
    "weight",
    "door",
    "lock",
    "keys",
    "chain",
    "start",
    "rules",
    "select",
    "properties",
    "markers",
];

/// Most markers of one kind a node may ask for.
pub const MAX_MARKERS: u32 = 1000;
/// Fields of an injection rule.
pub(crate) const INJECTION_FIELDS: &[&str] = &[
    "name",
    "room",
    "where",
    "chance",
    "weight",
    "requires",
    "lock",
    "min_distance",
    "frame",
];
/// Fields of an injection group.
pub(crate) const GROUP_FIELDS: &[&str] = &["group", "pick", "entries"];
/// Fields of `layout:`.
pub(crate) const LAYOUT_FIELDS: &[&str] = &[
    "corridor",
    "attempts",
    "tree_rebuilds",
    "loop_rebuilds",
    "reuse_templates",
];
/// Fields of an injection's `room:` written as a mapping.
pub(crate) const ROOM_SPEC_FIELDS: &[&str] =
    &["category", "template", "pool", "properties", "markers"];
/// Values of an injection group's `pick:`.
pub(crate) const GROUP_MODES: &[&str] = &["all", "one"];

/// Category letters of chain rewrite rules.
pub const CHAIN_LETTERS: &[(char, &str)] = &[
    ('c', "connector"),
    ('n', "normal"),
    ('b', "boss"),
    ('r', "reward"),
    ('s', "special"),
    ('h', "hub"),
    ('t', "secret"),
    ('e', "entrance"),
    ('x', "exit"),
    ('p', "shop"),
];

/// Loads one flow file. Returns the flow as far as it could be decoded (so
/// that structural checks still run on a file with a typo) and every
/// diagnostic found; checks that need the room library are done by
/// [`super::validate_flow`]. A flow returned with errors must not be generated.
pub fn load_flow_file(file: &Arc<SourceFile>) -> (Option<Flow>, Vec<Diagnostic>) {
    let root = match parse(file) {
        Ok(root) => root,
        Err(diag) => return (None, vec![diag]),
    };
    let mut d = Decoder::new(file);
    let flow = d
        .map(&root, "a flow file")
        .and_then(|f| decode_flow(&mut d, f));
    (flow, d.diags)
}

fn decode_flow(d: &mut Decoder, mut f: Fields) -> Option<Flow> {
    let name = f
        .require(d, "name", "the flow")
        .and_then(|n| d.name(n, "`name`"));
    let description = f
        .get("description")
        .and_then(|n| d.string(n, "`description`"))
        .map_or_else(String::new, |s| s.value);
    let stage = f
        .get("stage")
        .and_then(|n| d.count(n, "`stage`", 1000))
        .map(|s| s.value);
    let tags = names(d, f.get("tags"), "a tag")
        .into_iter()
        .map(|s| s.value)
        .collect();
    let weight = f
        .get("weight")
        .and_then(|n| d.weight(n, "`weight`"))
        .map_or(1.0, |w| w.value);
    let generator_name = match f.get("generator") {
        Some(n) => Some(d.one_of(n, "generator", &Generator::NAMES)?),
        None => None,
    };
    let kind = generator_name.as_ref().map_or("flow", |g| g.value.as_str());
    let params = f.get("params");
    let generator = match kind {
        "isaac" => Generator::Isaac(decode_isaac(d, params)),
        "scatter" => Generator::Scatter(decode_scatter(d, params)),
        "nested_puzzle" => Generator::NestedPuzzle(decode_nested(d, params)),
        _ => {
            if let Some(p) = params {
                d.error(
                    "flow::params-for-flow",
                    p.span.clone(),
                    "`params:` configures the isaac, scatter and nested_puzzle generators, not a flow graph",
                    "not used by `generator: flow`",
                    "remove `params:` or set `generator:`",
                );
            }
            Generator::Flow(decode_graph(d, &mut f))
        }
    };
    if kind != "flow" {
        for key in GRAPH_ONLY {
            if f.get(key).is_some() {
                d.error(
                    "flow::graph-key-for-generator",
                    f.key_span(key).unwrap_or_default(),
                    format!(
                        "`{key}` belongs to flow graphs, but this file uses `generator: {kind}`"
                    ),
                    "ignored by this generator",
                    format!("remove `{key}`, or drop `generator: {kind}` to write a flow graph"),
                );
            }
        }
    }
    f.finish(d, "a flow file", FLOW_FIELDS);
    Some(Flow {
        name: name?,
        description,
        stage,
        tags,
        weight,
        generator,
        file: Arc::clone(&d.file),
    })
}

fn names(d: &mut Decoder, node: Option<&Node>, what: &str) -> Vec<Sp<String>> {
    node.map_or_else(Vec::new, |n| {
        d.list(n, what)
            .into_iter()
            .filter_map(|x| d.name(x, what))
            .collect()
    })
}

fn decode_graph(d: &mut Decoder, f: &mut Fields) -> FlowGraph {
    let mut g = FlowGraph {
        categories: names(d, f.get("categories"), "a category"),
        complete: true,
        ..FlowGraph::default()
    };
    let errors_before = d.diags.iter().filter(|x| x.is_error()).count();
    if let Some(nodes) = f.require(d, "nodes", "the flow")
        && let Some(mut nf) = d.map_allowing_duplicates(nodes, "`nodes`")
    {
        let entries = nf.rest();
        if entries.len() > MAX_NODES {
            g.complete = false;
            d.error(
                "flow::too-many-nodes",
                nodes.span.clone(),
                format!(
                    "the flow declares {} nodes, over the limit of {MAX_NODES}",
                    entries.len()
                ),
                "too many nodes",
                "split the flow, or use chains for long runs of rooms",
            );
        } else {
            for (k, v) in entries {
                match decode_node(d, k, v) {
                    Some(node) => g.nodes.push(node),
                    None => g.complete = false,
                }
            }
        }
    } else {
        g.complete = false;
    }
    let _ = errors_before;
    for (key, list) in [("edges", EdgeList::Tree), ("loops", EdgeList::Loop)] {
        if let Some(n) = f.get(key) {
            if !matches!(n.value, Value::Seq(_) | Value::Null) {
                g.complete = false;
            }
            for entry in d.list(n, &format!("`{key}`")) {
                let edges = decode_edge_entry(d, entry, list);
                g.complete &= !edges.is_empty();
                match list {
                    EdgeList::Tree => g.edges.extend(edges),
                    EdgeList::Loop => g.loops.extend(edges),
                }
            }
        }
    }
    // Node fields may be wrong without changing the graph; ids and edges may not.
    g.complete &= d
        .diags
        .iter()
        .filter(|x| x.is_error() && matches!(x.code, "flow::bad-edge" | "flow::bad-node-id"))
        .count()
        == 0;
    if let Some(n) = f.get("injections") {
        for entry in d.list(n, "`injections`") {
            if let Some(group) = decode_injection_entry(d, entry) {
                g.injections.push(group);
            }
        }
    }
    if let Some(n) = f.get("layout") {
        g.layout = decode_layout(d, n);
    }
    g
}

fn decode_node(d: &mut Decoder, key: &Node, value: &Node) -> Option<FlowNode> {
    let id = d.name(key, "a node id")?;
    if !id
        .value
        .chars()
        .all(|c| c.is_alphanumeric() || c == '_' || c == '-' || c == '.')
    {
        d.error(
            "flow::bad-node-id",
            id.span.clone(),
            format!(
                "node id `{}` has characters other than letters, digits, `_`, `-` and `.`",
                id.value
            ),
            "invalid id",
            "node ids appear in edges like `a -> b`, so keep them to one word",
        );
    }
    let mut node = FlowNode {
        id: id.clone(),
        kind: NodeKind::Room,
        category: Sp::new(String::new(), value.span.clone()),
        template: None,
        pool: Vec::new(),
        chance: 1.0,
        optional: false,
        weight: 1.0,
        door: Door::Open,
        keys: Vec::new(),
        properties: Default::default(),
        markers: Vec::new(),
    };
    if let Value::Str(_) = value.value {
        if let Some(c) = d.string(value, "a node's category") {
            node.category = c;
        }
        return Some(node);
    }
    let Some(mut f) = d.map(value, "a node") else {
        return Some(node);
    };
    let category = f.get("category").and_then(|n| d.string(n, "`category`"));
    node.template = f.get("template").and_then(|n| d.name(n, "`template`"));
    node.pool = names(d, f.get("pool"), "a pool tag");
    node.chance = f
        .get("chance")
        .and_then(|n| d.chance(n, "`chance`"))
        .map_or(1.0, |c| c.value);
    node.optional = f
        .get("optional")
        .and_then(|n| d.bool(n, "`optional`"))
        .unwrap_or(false);
    node.weight = f
        .get("weight")
        .and_then(|n| d.weight(n, "`weight`"))
        .map_or(1.0, |w| w.value);
    node.door = decode_door(d, f.get("door"), f.get("lock"));
    node.keys = names(d, f.get("keys"), "a key id");
    node.properties = crate::properties::decode_properties(
        d,
        f.get("properties"),
        &format!("node `{}`", id.value),
    );
    node.markers = f
        .get("markers")
        .map(|n| decode_marker_counts(d, n))
        .unwrap_or_default();
    let chain = f.get("chain");
    let start = f.get("start");
    let rules = f.get("rules");
    let select = f.get("select");
    let category_misspelt = f.has_near_miss("category", NODE_FIELDS);
    f.finish(d, "a node", NODE_FIELDS);

    if let (Some(c), Some(s)) = (chain, select) {
        d.diags.push(
            Diagnostic::error(
                "flow::chain-and-select",
                "a node cannot be both a chain and a selector",
            )
            .in_file(&d.file)
            .label(c.span.clone(), "chain")
            .label(s.span.clone(), "selector")
            .help("use a chain node and a separate selector node"),
        );
        return None;
    }
    if let Some(s) = select {
        let pick = d
            .range(s, "`select`", MAX_NODES as u32)
            .unwrap_or_else(|| Sp::new((1, 1), s.span.clone()));
        node.kind = NodeKind::Selector { pick };
        if let Some(c) = category {
            d.error(
                "flow::selector-category",
                c.span,
                "a selector is not a room and has no category",
                "not used",
                "remove `category:`; the selected children keep theirs",
            );
        }
        node.category = Sp::new("selector".to_owned(), id.span);
        return Some(node);
    }
    if let Some(c) = chain {
        if let Some(chain) = decode_chain(d, c, start, rules) {
            node.kind = NodeKind::Chain(chain);
        }
    } else {
        for (n, field) in [(start, "start"), (rules, "rules")] {
            if let Some(n) = n {
                d.error(
                    "flow::rules-without-chain",
                    n.span.clone(),
                    format!("`{field}` only applies to chain nodes"),
                    "this node is not a chain",
                    "add `chain: MIN..MAX` or remove it",
                );
            }
        }
    }
    let has_rules = chain.is_some() && rules.is_some();
    match category {
        Some(c) => node.category = c,
        None if has_rules => node.category = Sp::new("normal".to_owned(), id.span.clone()),
        None if category_misspelt => {} // reported as an unknown field
        None => {
            d.error(
                "yaml::missing-field",
                value.span.clone(),
                format!("node `{}` has no `category`", id.value),
                "`category` missing here",
                "add `category: normal` (or entrance, hub, reward, boss, ...)",
            );
        }
    }
    Some(node)
}

/// `markers: { KIND: COUNT, ... }`, each count `N`, `MIN..MAX` or `[MIN, MAX]`.
fn decode_marker_counts(d: &mut Decoder, node: &Node) -> Vec<MarkerCount> {
    let Some(mut f) = d.map(node, "`markers`") else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for (k, v) in f.rest() {
        let (Some(kind), Some(count)) = (
            d.name(k, "a marker kind"),
            d.range(v, "a marker count", MAX_MARKERS),
        ) else {
            continue;
        };
        out.push(MarkerCount { kind, count });
    }
    f.finish(d, "`markers`", &[]);
    out
}

fn decode_chain(
    d: &mut Decoder,
    chain: &Node,
    start: Option<&Node>,
    rules: Option<&Node>,
) -> Option<Chain> {
    let length = d.range(chain, "the chain length", u32::MAX)?;
    if length.value.1 > MAX_CHAIN {
        d.error(
            "flow::chain-too-long",
            chain.span.clone(),
            format!(
                "a chain of up to {} rooms is over the limit of {MAX_CHAIN}",
                length.value.1
            ),
            "too long",
            "long runs of rooms are hard to lay out and tedious to play; split them with hubs",
        );
        return None;
    }
    if length.value.0 == 0 {
        let (lo, hi) = length.value;
        d.error(
            "flow::chain-empty",
            chain.span.clone(),
            if hi == 0 {
                "a chain of 0 rooms".to_owned()
            } else {
                format!("a chain of {lo}..{hi} rooms may have none")
            },
            "no rooms",
            "a chain has at least 1 room: use a length of at least 1, and give the node `chance:` to make it optional",
        );
        return None;
    }
    let start = start.and_then(|n| d.string(n, "`start`"));
    if let Some(s) = &start {
        check_letters(d, &s.value, s.span.clone());
    }
    let mut out = Vec::new();
    if let Some(rules) = rules
        && let Some(mut rf) = d.map(rules, "`rules`")
    {
        for (k, v) in rf.rest() {
            let Some(text) = d.string(k, "a rewrite rule") else {
                continue;
            };
            let Some(chance) = d.chance(v, "a rule's chance") else {
                continue;
            };
            if let Some(rule) = parse_rule(d, &text, chance.value) {
                out.push(rule);
            }
        }
    }
    Some(Chain {
        length,
        start,
        rules: out,
    })
}

fn check_letters(d: &mut Decoder, word: &str, span: std::ops::Range<usize>) -> bool {
    for c in word.chars() {
        if !CHAIN_LETTERS.iter().any(|(l, _)| *l == c) {
            let list: Vec<String> = CHAIN_LETTERS
                .iter()
                .map(|(l, n)| format!("{l} {n}"))
                .collect();
            d.error(
                "flow::bad-rule",
                span,
                format!("`{c}` is not a room letter"),
                "unknown letter",
                format!("letters: {}", list.join(", ")),
            );
            return false;
        }
    }
    true
}

fn parse_rule(d: &mut Decoder, text: &Sp<String>, chance: f64) -> Option<Rewrite> {
    let Some((lhs, rhs)) = text.value.split_once("->") else {
        d.error(
            "flow::bad-rule",
            text.span.clone(),
            format!("cannot read rewrite rule `{}`", text.value),
            "expected `x -> yz | zy`",
            "write a rule as `c -> nc | cn: 0.33` (a letter, an arrow, alternatives)",
        );
        return None;
    };
    let lhs = lhs.trim();
    let mut chars = lhs.chars();
    let (Some(from), None) = (chars.next(), chars.next()) else {
        d.error(
            "flow::bad-rule",
            text.span.clone(),
            format!("the left side `{lhs}` of a rewrite rule must be one letter"),
            "one letter expected",
            "rules rewrite one room letter: `n -> nn`",
        );
        return None;
    };
    let to: Vec<String> = rhs.split('|').map(|s| s.trim().to_owned()).collect();
    if to.iter().any(String::is_empty) {
        d.error(
            "flow::bad-rule",
            text.span.clone(),
            "an alternative of the rule is empty",
            "empty alternative",
            "every alternative after `->` needs at least one letter",
        );
        return None;
    }
    let all = std::iter::once(from.to_string())
        .chain(to.iter().cloned())
        .collect::<String>();
    if !check_letters(d, &all, text.span.clone()) {
        return None;
    }
    Some(Rewrite {
        from,
        to,
        chance,
        span: text.span.clone(),
    })
}

fn decode_room_spec(d: &mut Decoder, node: &Node) -> Option<RoomSpec> {
    if let Value::Str(_) = node.value {
        return Some(RoomSpec {
            category: d.string(node, "`room`")?,
            template: None,
            pool: Vec::new(),
            properties: Default::default(),
            markers: Vec::new(),
        });
    }
    let mut f = d.map(node, "`room`")?;
    let category = f
        .require(d, "category", "`room`")
        .and_then(|n| d.string(n, "`category`"));
    let template = f.get("template").and_then(|n| d.name(n, "`template`"));
    let pool = names(d, f.get("pool"), "a pool tag");
    let properties =
        crate::properties::decode_properties(d, f.get("properties"), "the injected room");
    let markers = f
        .get("markers")
        .map(|n| decode_marker_counts(d, n))
        .unwrap_or_default();
    f.finish(d, "`room`", ROOM_SPEC_FIELDS);
    Some(RoomSpec {
        category: category?,
        template,
        pool,
        properties,
        markers,
    })
}

fn decode_placements(d: &mut Decoder, node: &Node) -> Vec<(Placement, u32)> {
    let mut out: Vec<(Placement, u32)> = Vec::new();
    for item in d.list(node, "`where`") {
        let Some(text) = d.string(item, "a placement") else {
            continue;
        };
        let (name, times) = match text.value.rsplit_once(" x") {
            Some((n, t)) if t.trim().parse::<u32>().is_ok() => {
                (n.trim(), t.trim().parse::<u32>().unwrap_or(1))
            }
            _ => (text.value.trim(), 1),
        };
        match Placement::parse(name) {
            Some(p) if times > 0 => match out.iter_mut().find(|(q, _)| *q == p) {
                // Saturating: a count this large is refused by the flow's
                // size check (`flow::too-many-rooms`).
                Some(entry) => entry.1 = entry.1.saturating_add(times),
                None => out.push((p, times)),
            },
            Some(_) => d.error(
                "flow::bad-placement",
                item.span.clone(),
                "a placement repeated 0 times",
                "x0",
                "remove the entry, or repeat it at least once",
            ),
            None => d.error(
                "flow::unknown-placement",
                item.span.clone(),
                format!("unknown placement `{name}`"),
                "not a placement",
                crate::diag::suggest(name, &Placement::NAMES),
            ),
        }
    }
    if out.is_empty() && !d.has_errors() {
        d.error(
            "flow::bad-placement",
            node.span.clone(),
            "an injection needs at least one placement",
            "empty",
            "write e.g. `where: [random_node_child, end_of_chain x4]`",
        );
    }
    out
}

fn decode_injection(d: &mut Decoder, node: &Node) -> Option<Injection> {
    let mut f = d.map(node, "an injection")?;
    let name = f
        .get("name")
        .and_then(|n| d.name(n, "`name`"))
        .unwrap_or_else(|| Sp::new("injection".to_owned(), node.span.clone()));
    let room = f
        .require(d, "room", "the injection")
        .and_then(|n| decode_room_spec(d, n));
    let placements = f
        .require(d, "where", "the injection")
        .map(|n| decode_placements(d, n));
    let chance = f
        .get("chance")
        .and_then(|n| d.chance(n, "`chance`"))
        .map_or(1.0, |c| c.value);
    let weight = f
        .get("weight")
        .and_then(|n| d.weight(n, "`weight`"))
        .map_or(1.0, |w| w.value);
    let requires = names(d, f.get("requires"), "a flag");
    let lock_chance = f
        .get("lock")
        .and_then(|n| d.chance(n, "`lock`"))
        .map_or(0.0, |c| c.value);
    let min_distance = f
        .get("min_distance")
        .and_then(|n| d.count(n, "`min_distance`", 64))
        .map_or(0, |c| c.value);
    let frame = f
        .get("frame")
        .and_then(|n| d.count(n, "`frame`", 16))
        .map_or(2, |c| c.value);
    f.finish(d, "an injection", INJECTION_FIELDS);
    Some(Injection {
        name,
        room: room?,
        placements: placements?,
        chance,
        weight,
        requires,
        lock_chance,
        min_distance,
        frame,
        span: node.span.clone(),
    })
}

fn decode_injection_entry(d: &mut Decoder, node: &Node) -> Option<InjectionGroup> {
    let is_group = matches!(&node.value, Value::Map(entries) if entries.iter().any(|(k, _)| matches!(&k.value, Value::Str(s) if s == "group")));
    if !is_group {
        let rule = decode_injection(d, node)?;
        return Some(InjectionGroup {
            name: rule.name.clone(),
            mode: GroupMode::All,
            entries: vec![rule],
        });
    }
    let mut f = d.map(node, "an injection group")?;
    let name = f.get("group").and_then(|n| d.name(n, "`group`"));
    let mode = f
        .get("pick")
        .and_then(|n| d.one_of(n, "group mode", GROUP_MODES))
        .map_or(GroupMode::All, |m| {
            if m.value == "one" {
                GroupMode::One
            } else {
                GroupMode::All
            }
        });
    let entries = f.require(d, "entries", "the injection group").map(|n| {
        d.list(n, "`entries`")
            .into_iter()
            .filter_map(|e| decode_injection(d, e))
            .collect::<Vec<_>>()
    });
    f.finish(d, "an injection group", GROUP_FIELDS);
    Some(InjectionGroup {
        name: name?,
        mode,
        entries: entries?,
    })
}

fn decode_layout(d: &mut Decoder, node: &Node) -> LayoutParams {
    let mut p = LayoutParams::default();
    let Some(mut f) = d.map(node, "`layout`") else {
        return p;
    };
    if let Some(n) = f.get("corridor")
        && let Some(r) = d.range(n, "`corridor`", 200)
    {
        if r.value.1 < 1 {
            d.error(
                "flow::bad-layout",
                n.span.clone(),
                "corridors of at most 0 tiles",
                "too short",
                "allow corridors of at least 1 tile, e.g. 4..30",
            );
        } else {
            p.corridor = r.value;
        }
    }
    for (key, slot, max) in [
        ("attempts", &mut p.attempts, 1000),
        ("tree_rebuilds", &mut p.tree_rebuilds, 100),
        ("loop_rebuilds", &mut p.loop_rebuilds, 1000),
    ] {
        if let Some(n) = f.get(key)
            && let Some(v) = d.count(n, &format!("`{key}`"), max)
        {
            *slot = v.value.max(1);
        }
    }
    if let Some(b) = f
        .get("reuse_templates")
        .and_then(|n| d.bool(n, "`reuse_templates`"))
    {
        p.reuse_templates = b;
    }
    f.finish(d, "`layout`", LAYOUT_FIELDS);
    p
}
