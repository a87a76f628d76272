//! Template choice: every room but connectors gets a template of its category
//! (and pool), never the same one twice in a level, with enough usable exits
//! for its connections.

use std::collections::BTreeSet;

use petgraph::graph::NodeIndex;

use crate::diag::Diagnostic;
use crate::flow::Flow;
use crate::graph::LevelGraph;
use crate::rng::Rng;
use crate::rooms::{RoomLibrary, RoomTemplate};

/// Within a rung, templates with at least one exit more than the room needs
/// are preferred (they leave the layout a choice of sides).
///
/// What is tried, in order, when no unused template of a room's category fits:
/// 1. the category with the node's pool (tags), 2. the category with any tags,
/// 3. `normal` (for categories other than entrance, exit and boss), 4. `hub`
/// (for normal rooms: hubs have the most exits). Then expansion fails.
pub const FALLBACK_LADDER: &str = "pool -> category -> normal -> hub";

/// Categories that never fall back to another one.
const NO_FALLBACK: &[&str] = &["entrance", "exit", "boss"];

/// Chooses a template for every room that has none.
pub fn choose(flow: &Flow, library: &RoomLibrary, level: &mut LevelGraph, rng: &mut Rng) -> Result<(), Diagnostic> {
    let mut used: BTreeSet<String> = level
        .graph
        .node_weights()
        .filter(|r| r.fixed_template)
        .filter_map(|r| r.template.clone())
        .collect();
    let order: Vec<NodeIndex> = level.graph.node_indices().collect();
    for n in order {
        if level.graph.node_weight(n).is_none_or(|r| r.category == "connector" || r.fixed_template) {
            continue;
        }
        let (has_parent, outgoing) = degree(level, n);
        let room = &level.graph[n];
        let mut rungs: Vec<(String, Vec<String>)> = Vec::new();
        if !room.pool.is_empty() {
            rungs.push((room.category.clone(), room.pool.clone()));
        }
        rungs.push((room.category.clone(), Vec::new()));
        if !NO_FALLBACK.contains(&room.category.as_str()) && room.category != "normal" {
            rungs.push(("normal".to_owned(), Vec::new()));
        }
        if !NO_FALLBACK.contains(&room.category.as_str()) {
            rungs.push(("hub".to_owned(), Vec::new()));
        }
        let mut pick = None;
        let needed = outgoing + usize::from(has_parent);
        for (category, pool) in &rungs {
            let mut options: Vec<&RoomTemplate> = library
                .candidates(category, pool)
                .filter(|t| !used.contains(&t.name) && t.fits_degree(has_parent, outgoing))
                .collect();
            // A spare exit leaves the layout a choice of sides: prefer it.
            if options.iter().any(|t| t.usable_exits() > needed) {
                options.retain(|t| t.usable_exits() > needed);
            }
            let weights: Vec<f64> = options.iter().map(|t| t.weight).collect();
            if let Some(i) = rng.weighted(&weights) {
                pick = Some(options[i].name.clone());
                break;
            }
        }
        match pick {
            Some(name) => {
                used.insert(name.clone());
                level.graph[n].template = Some(name);
            }
            None => return Err(dry(flow, library, level, n, has_parent, outgoing)),
        }
    }
    Ok(())
}

/// Whether a room has a tree parent, and how many other doors it needs.
pub fn degree(level: &LevelGraph, n: NodeIndex) -> (bool, usize) {
    let has_parent = level.parent(n).is_some();
    let doors = level.door_count(n);
    (has_parent, doors - usize::from(has_parent))
}

fn dry(flow: &Flow, library: &RoomLibrary, level: &LevelGraph, n: NodeIndex, has_parent: bool, outgoing: usize) -> Diagnostic {
    let room = &level.graph[n];
    let total = library.candidates(&room.category, &[]).count();
    let same = level.graph.node_weights().filter(|r| r.category == room.category).count();
    let needed = outgoing + usize::from(has_parent);
    Diagnostic::error(
        "expand::category-dry",
        format!(
            "no unused template with {needed} usable exits is left for room `{}` (category `{}`): the level has {same} `{}` rooms and the library {total} such templates",
            room.id, room.category, room.category
        ),
    )
    .in_file(&flow.file)
    .label(room.span.clone(), "this room")
    .help(format!("add templates of category `{}` with at least {needed} exits, or shorten the flow (fallback ladder: {FALLBACK_LADDER})", room.category))
}
