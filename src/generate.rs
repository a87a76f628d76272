//! The whole pipeline for one level: expand, decompose, lay out (with
//! bounded attempts), build the [`Level`].

use std::collections::BTreeSet;

use crate::diag::Diagnostic;
use crate::expand::{expand, repick_templates};
use crate::flow::{Flow, Generator};
use crate::graph::{LevelGraph, decompose};
use crate::layout::{ShapeTable, build_level, layout_once};
use crate::level::Level;
use crate::rng::Rng;
use crate::rooms::RoomLibrary;

/// Layout attempts between two fresh template choices.
const ATTEMPTS_PER_TEMPLATE_CHOICE: u32 = 5;

/// A generated level with what led to it.
#[derive(Clone, Debug)]
pub struct Generated {
    /// The level.
    pub level: Level,
    /// The expanded graph it realises.
    pub graph: LevelGraph,
    /// Layout attempts used (1 = first try).
    pub attempts: u32,
}

/// Generates one level of `flow` with `seed`.
pub fn generate(
    flow: &Flow,
    library: &RoomLibrary,
    seed: u64,
    flags: &BTreeSet<String>,
) -> Result<Generated, Diagnostic> {
    let table = ShapeTable::new(library);
    generate_with(flow, library, &table, seed, flags)
}

/// [`generate`] with the library's shapes prepared once (for batches).
pub fn generate_with(
    flow: &Flow,
    library: &RoomLibrary,
    table: &ShapeTable,
    seed: u64,
    flags: &BTreeSet<String>,
) -> Result<Generated, Diagnostic> {
    let params = match &flow.generator {
        Generator::Flow(g) => g.layout.clone(),
        other => {
            let name = other.name();
            return Err(Diagnostic::error(
                "generate::unavailable",
                format!("the `{name}` generator is not implemented yet"),
            )
            .in_file(&flow.file)
            .label(flow.name.span.clone(), "this flow")
            .help("flow-graph files work today; see the README's roadmap"));
        }
    };
    let mut graph = expand(flow, library, seed, flags)?;
    let decomposition = decompose(&graph);
    let mut last = None;
    for attempt in 0..params.attempts.max(1) {
        if attempt > 0 && attempt % ATTEMPTS_PER_TEMPLATE_CHOICE == 0 {
            repick_templates(
                flow,
                library,
                &mut graph,
                Rng::derive(seed, &format!("templates/{attempt}")).next_seed(),
            )?;
        }
        match layout_once(
            &graph,
            library,
            table,
            &decomposition,
            &params,
            Rng::derive(seed, &format!("layout/{attempt}")),
        ) {
            Ok(map) => {
                let level = build_level(&graph, library, table, &map, "flow");
                return Ok(Generated {
                    level,
                    graph,
                    attempts: attempt + 1,
                });
            }
            Err(f) => last = Some(f),
        }
    }
    let f = last.expect("at least one attempt");
    let node = f.node.map(|n| graph.graph[n].clone());
    let mut d = Diagnostic::error(
        "layout::failed",
        format!("flow `{}` (seed {seed}) could not be laid out in {} attempts: {} stage, composite {}: {}", flow.name.value, params.attempts, f.stage, f.composite, f.reason),
    )
    .in_file(&flow.file)
    .help("loosen the flow: shorter loops, fewer rooms on one hub, longer corridors (`layout: { corridor: 4..40 }`), or rooms with more exits");
    if let Some(n) = node {
        d = d.label(n.span, format!("`{}` gave up here", n.id));
    }
    Err(d)
}
