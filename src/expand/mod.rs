//! Expansion: a validated flow and a seed become the concrete [`LevelGraph`]
//! of one level (chains, selectors, chances, injections, keys, templates).
//!
//! Each sub-stage draws from its own derived random source, so adding an
//! injection does not reshuffle the structure and vice versa.

mod chain;
mod inject;
mod keys;
mod structure;
mod templates;

use std::collections::BTreeSet;

use crate::diag::Diagnostic;
use crate::flow::Flow;
use crate::graph::LevelGraph;
use crate::rng::Rng;
use crate::rooms::RoomLibrary;

pub use templates::{CROWDED, FALLBACK_LADDER, crowding};

/// Expands `flow` with `seed`. `flags` are the prerequisites the caller has
/// (`--flag NAME`): injections that require other flags are skipped.
///
/// Fails with a diagnostic pointing into the flow file when a room cannot get
/// a template or a mandatory injection has nowhere to go.
pub fn expand(
    flow: &Flow,
    library: &RoomLibrary,
    seed: u64,
    flags: &BTreeSet<String>,
) -> Result<LevelGraph, Diagnostic> {
    expand_with_history(flow, library, seed, flags, &TemplateHistory::default())
}

/// How often each template was used by earlier levels of a run (a game's
/// floors, a batch): a template's weight is divided by `1 + uses`, so rooms
/// the player has seen come back less often.
pub type TemplateHistory = std::collections::BTreeMap<String, u32>;

/// [`expand`] with the template uses of earlier levels lowering their weights.
/// Record a level's templates with [`record_templates`].
pub fn expand_with_history(
    flow: &Flow,
    library: &RoomLibrary,
    seed: u64,
    flags: &BTreeSet<String>,
    history: &TemplateHistory,
) -> Result<LevelGraph, Diagnostic> {
    let Some(graph) = flow.graph() else {
        return Err(Diagnostic::error(
            "expand::not-a-flow",
            format!(
                "flow `{}` uses another generator and has no graph to expand",
                flow.name.value
            ),
        )
        .in_file(&flow.file)
        .label(flow.name.span.clone(), "this file")
        .help("use `dungeonflow generate` for isaac, scatter and nested_puzzle files"));
    };
    let mut level = structure::build(flow, graph, &mut Rng::derive(seed, "structure"))?;
    level.seed = seed;
    inject::apply(
        flow,
        graph,
        &mut level,
        flags,
        &mut Rng::derive(seed, "injections"),
    )?;
    keys::place(&mut level, &mut Rng::derive(seed, "keys"));
    templates::choose(
        flow,
        library,
        history,
        &mut level,
        &mut Rng::derive(seed, "templates"),
    )?;
    Ok(level)
}

/// Chooses fresh templates for every room whose template the flow did not fix
/// (used when a layout attempt with the first choice failed).
pub fn repick_templates(
    flow: &Flow,
    library: &RoomLibrary,
    level: &mut LevelGraph,
    seed: u64,
) -> Result<(), Diagnostic> {
    for room in level.graph.node_weights_mut() {
        if !room.fixed_template {
            room.template = None;
        }
    }
    templates::choose(
        flow,
        library,
        &TemplateHistory::default(),
        level,
        &mut Rng::new(seed),
    )
}

/// Adds the templates of `level` to `history`.
pub fn record_templates(history: &mut TemplateHistory, level: &LevelGraph) {
    for t in level
        .graph
        .node_weights()
        .filter_map(|r| r.template.as_ref())
    {
        *history.entry(t.clone()).or_insert(0) += 1;
    }
}
