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
/// When no unused template of a room's category fits, these rungs are tried
/// in order: the category with the node's pool (tags); the category with any
/// tags; `normal` (not for entrance, exit and boss rooms); `hub` (hubs have
/// the most exits). Then expansion fails.
pub const FALLBACK_LADDER: &str = "pool -> category -> normal -> hub";

/// Categories that never fall back to another one.
const NO_FALLBACK: &[&str] = &["entrance", "exit", "boss"];

/// Chooses a template for every room that has none.
pub fn choose(
    flow: &Flow,
    library: &RoomLibrary,
    history: &super::TemplateHistory,
    level: &mut LevelGraph,
    rng: &mut Rng,
) -> Result<(), Diagnostic> {
    let reuse = flow.graph().is_some_and(|g| g.layout.reuse_templates);
    // Templates used, by the name they were drawn under: a rotated or
    // mirrored variant is the same template.
    let base = |name: &str| {
        library
            .get(name)
            .map_or(name, RoomTemplate::base_name)
            .to_owned()
    };
    let mut used: BTreeSet<String> = level
        .graph
        .node_weights()
        .filter(|r| r.fixed_template)
        .filter_map(|r| r.template.as_deref().map(base))
        .collect();
    // Rooms are served in index order; dropping an optional room re-indexes
    // the graph, so the scan restarts after a drop (rooms already served keep
    // their template).
    let mut next = 0;
    while next < level.graph.node_count() {
        let n = NodeIndex::new(next);
        next += 1;
        let room = &level.graph[n];
        if room.template.is_some() && !room.fixed_template {
            continue;
        }
        if room.fixed_template {
            continue;
        }
        let (has_parent, outgoing) = degree(level, n);
        if room.category == "connector"
            && library
                .candidates("connector", &[])
                .any(|t| t.fits_degree(has_parent, outgoing))
        {
            continue; // the layout picks a connector of the right orientation
        }
        let room = &level.graph[n];
        let mut rungs: Vec<(&str, &[String])> = Vec::with_capacity(4);
        if !room.pool.is_empty() {
            rungs.push((&room.category, &room.pool));
        }
        rungs.push((&room.category, &[]));
        if !NO_FALLBACK.contains(&room.category.as_str()) && room.category != "normal" {
            rungs.push(("normal", &[]));
        }
        if !NO_FALLBACK.contains(&room.category.as_str()) {
            rungs.push(("hub", &[]));
        }
        let needed = outgoing + usize::from(has_parent);
        let pick = rungs.into_iter().find_map(|(category, pool)| {
            let mut options: Vec<&RoomTemplate> = library
                .candidates(category, pool)
                .filter(|t| !used.contains(t.base_name()) && t.fits_degree(has_parent, outgoing))
                .collect();
            // A spare exit leaves the layout a choice of sides: prefer it.
            if options.iter().any(|t| t.usable_exits() > needed) {
                options.retain(|t| t.usable_exits() > needed);
            }
            let crowded = crowding(options.iter().map(|t| t.width + t.height), needed);
            let weights: Vec<f64> = options
                .iter()
                .zip(crowded)
                .map(|(t, c)| {
                    t.weight / f64::from(1 + history.get(&t.name).copied().unwrap_or(0)) * c
                })
                .collect();
            rng.weighted(&weights).map(|i| options[i].name.clone())
        });
        match pick {
            Some(name) => {
                if !reuse {
                    used.insert(base(&name));
                }
                level.graph[n].template = Some(name);
            }
            None if level.graph[n].optional => {
                let note = format!(
                    "optional room `{}` dropped with its sub-tree: no unused `{}` template fits it",
                    level.graph[n].id, level.graph[n].category
                );
                drop_subtree(level, n);
                level.notes.push(note);
                next = 0;
            }
            None => return Err(dry(flow, library, level, n, has_parent, outgoing)),
        }
    }
    Ok(())
}

/// Removes a room and everything below it on the tree side (and what hangs
/// off those rooms by warps).
fn drop_subtree(level: &mut LevelGraph, n: NodeIndex) {
    use petgraph::visit::EdgeRef;
    let mut doomed = vec![n];
    let mut i = 0;
    while i < doomed.len() {
        let v = doomed[i];
        for e in level.graph.edges_directed(v, petgraph::Direction::Outgoing) {
            if e.weight().kind != crate::graph::EdgeKind::Loop && !doomed.contains(&e.target()) {
                doomed.push(e.target());
            }
        }
        i += 1;
    }
    doomed.sort_by_key(|v| std::cmp::Reverse(v.index()));
    for v in doomed {
        level.graph.remove_node(v);
    }
}

/// Connections from which a room counts as a crowded hub.
pub const CROWDED: usize = 4;

/// Weight factors favouring roomy templates for crowded hubs, one per
/// option given by its half-perimeter (`width + height`): a room with
/// `needed >= CROWDED` connections must fit that many neighbours around its
/// walls, so each option's factor is its half-perimeter relative to the
/// roomiest option's, to the power `2 * (needed - 3)`; 1 for other rooms.
pub fn crowding(half_perimeters: impl Iterator<Item = i32> + Clone, needed: usize) -> Vec<f64> {
    let roomiest = f64::from(half_perimeters.clone().max().unwrap_or(1).max(1));
    half_perimeters
        .map(|h| {
            if needed < CROWDED {
                1.0
            } else {
                (f64::from(h) / roomiest).powi(2 * (needed as i32 - 3))
            }
        })
        .collect()
}

/// Whether a room has a tree parent, and how many other doors it needs.
pub fn degree(level: &LevelGraph, n: NodeIndex) -> (bool, usize) {
    let has_parent = level.parent(n).is_some();
    let doors = level.door_count(n);
    (has_parent, doors - usize::from(has_parent))
}

fn dry(
    flow: &Flow,
    library: &RoomLibrary,
    level: &LevelGraph,
    n: NodeIndex,
    has_parent: bool,
    outgoing: usize,
) -> Diagnostic {
    let room = &level.graph[n];
    let total = library.candidates(&room.category, &[]).count();
    let same = level
        .graph
        .node_weights()
        .filter(|r| r.category == room.category)
        .count();
    let needed = outgoing + usize::from(has_parent);
    let exits = if needed == 1 { "exit" } else { "exits" };
    let such = if total == 1 { "template" } else { "templates" };
    Diagnostic::error(
        "expand::category-dry",
        format!(
            "no unused template with {needed} usable {exits} is left for room `{}` (category `{}`): the level has {same} `{}` rooms and the library {total} such {such}",
            room.id, room.category, room.category
        ),
    )
    .in_file(&flow.file)
    .label(room.span.clone(), "this room")
    .help(format!("let rooms share templates (`layout: {{ reuse_templates: true }}`), add templates of category `{}` with at least {needed} {exits}, or shorten the flow (fallback ladder: {FALLBACK_LADDER})", room.category))
}
