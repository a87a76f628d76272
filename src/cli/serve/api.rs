//! The JSON answers of the page's API. Each one loads the (cached) project
//! and stays within the command line's limits: generation is bounded by
//! the layout's work budget, stats by [`MAX_STATS_SEEDS`].

use serde_json::{Value, json};

use super::State;
use crate::diag::Diagnostic;
use crate::flow::Flow;
use crate::generate::{Options, generate_keeping_partial};
use crate::layout::ShapeTable;
use crate::project::Project;
use crate::puzzle::{Puzzle, Step};
use crate::render::{RenderOptions, render_svg};
use crate::stats::Measures;

/// Most seeds the stats panel runs.
pub const MAX_STATS_SEEDS: u64 = 1000;

/// Seeds the stats panel runs unless asked otherwise.
const DEFAULT_STATS_SEEDS: u64 = 200;

/// A diagnostic as the page shows it: the command line's text, and where.
fn diagnostic(d: &Diagnostic) -> Value {
    let j = d.to_json();
    json!({
        "code": j.code,
        "severity": j.severity,
        "message": j.message,
        "file": j.file,
        "line": j.line,
        "column": j.column,
        "text": d.render(false),
    })
}

fn failure(diags: &[Diagnostic]) -> Value {
    json!({ "ok": false, "diagnostics": diags.iter().map(diagnostic).collect::<Vec<_>>() })
}

/// The flows, the project's diagnostics and the version of its files.
pub fn project(state: &State) -> Value {
    match state.project() {
        Ok(p) => json!({
            "ok": true,
            "version": state.version.load(std::sync::atomic::Ordering::SeqCst),
            "flows": p.flows.keys().collect::<Vec<_>>(),
            "default": p.flows.keys().find(|f| *f == crate::project::DEFAULT_FLOW)
                .or_else(|| p.flows.keys().next()),
            "diagnostics": p.diagnostics.iter().map(diagnostic).collect::<Vec<_>>(),
        }),
        Err(d) => failure(&d),
    }
}

/// The flow and seed a request names, or why not.
fn flow_and_seed<'p>(
    project: &'p Project,
    flow: Option<&str>,
    seed: Option<&str>,
) -> Result<(&'p Flow, u64), Vec<Diagnostic>> {
    let name = flow.unwrap_or(crate::project::DEFAULT_FLOW);
    let flow = super::super::common::pick_flow(project, Some(name))?;
    let seed = match seed {
        None => 1,
        Some(s) => s.parse().map_err(|_| {
            vec![Diagnostic::error(
                "serve::bad-seed",
                format!("`{s}` is not a seed (a whole number from 0 to 18446744073709551615)"),
            )]
        })?,
    };
    Ok((flow, seed))
}

/// `answer` for the flow and seed a request names, in the current project;
/// the diagnostics when there is no such flow or seed.
fn with_flow(
    state: &State,
    flow: Option<&str>,
    seed: Option<&str>,
    answer: impl FnOnce(&Project, &Flow, u64) -> Value,
) -> Value {
    let project = match state.project() {
        Ok(p) => p,
        Err(d) => return failure(&d),
    };
    match flow_and_seed(&project, flow, seed) {
        Ok((flow, seed)) => answer(&project, flow, seed),
        Err(d) => failure(&d),
    }
}

/// The page's drawing of a level: SVG with room ids.
fn preview_svg(level: &crate::level::Level) -> String {
    render_svg(
        level,
        &RenderOptions {
            labels: true,
            ..RenderOptions::default()
        },
    )
}

/// One level: its SVG, its rooms (for hovering), the solver's critical path
/// and a summary; or the diagnostics when it cannot be made.
pub fn level(state: &State, flow: Option<&str>, seed: Option<&str>) -> Value {
    with_flow(state, flow, seed, level_of)
}

fn level_of(project: &Project, flow: &Flow, seed: u64) -> Value {
    let start = std::time::Instant::now();
    let table = ShapeTable::new(&project.library);
    let mut partial = None;
    let generated = match generate_keeping_partial(
        flow,
        &project.library,
        &table,
        seed,
        &Options::default(),
        Some(&mut partial),
    ) {
        Ok(g) => g,
        Err(d) => {
            let mut answer = failure(&[d]);
            if let Some(p) = partial {
                answer["partial"] = json!({
                    "svg": preview_svg(&p.level),
                    "rooms": p.level.rooms.len(),
                    "of": p.of,
                });
            }
            return answer;
        }
    };
    let ms = start.elapsed().as_secs_f64() * 1000.0;
    let level = &generated.level;
    let measures = Measures::of(&generated);
    let svg = preview_svg(level);
    let rooms: Vec<Value> = level
        .rooms
        .iter()
        .map(|r| {
            let n = r.cells.len().max(1) as f64;
            let cx = r.cells.iter().map(|c| f64::from(c[0])).sum::<f64>() / n + 0.5;
            let cy = r.cells.iter().map(|c| f64::from(c[1])).sum::<f64>() / n + 0.5;
            json!({
                "id": r.id,
                "category": r.category,
                "template": r.template,
                "properties": r.properties,
                "center": [cx, cy],
            })
        })
        .collect();
    let path: Vec<&str> = generated
        .analysis
        .solution
        .iter()
        .flat_map(|s| &s.steps)
        .filter_map(|step| match step {
            Step::Start { room } | Step::Walk { room, .. } => Some(room.as_str()),
            _ => None,
        })
        .collect();
    json!({
        "ok": true,
        "flow": flow.name.value,
        "seed": seed,
        "svg": svg,
        "rooms": rooms,
        "path": path,
        "summary": format!(
            "{} rooms, {}x{} tiles, {:.0}% direct doors, {} corridor tiles, {} attempt(s), {:.1} ms",
            level.rooms.len(), level.width, level.height, 100.0 * measures.direct_doors,
            measures.corridor_tiles, generated.attempts, ms
        ),
    })
}

/// The flow's graph as written and as expanded with the seed.
pub fn graph(state: &State, flow: Option<&str>, seed: Option<&str>) -> Value {
    with_flow(state, flow, seed, graph_of)
}

fn graph_of(project: &Project, flow: &Flow, seed: u64) -> Value {
    let written = flow.graph().and_then(Puzzle::from_flow).map(|p| {
        json!({
            "nodes": p.rooms.iter().map(|r| json!({"id": r.id, "category": r.category})).collect::<Vec<_>>(),
            "edges": p.doors.iter().map(|d| json!({
                "from": p.rooms[d.from].id, "to": p.rooms[d.to].id,
                "one_way": d.one_way, "lock": d.lock,
            })).collect::<Vec<_>>(),
        })
    });
    let expanded = flow.graph().map(|_| {
        match crate::expand::expand(flow, &project.library, seed, &Default::default()) {
            Ok(g) => {
                let v = g.view();
                json!({
                    "nodes": v.rooms.iter().map(|r| json!({"id": r.id, "category": r.category})).collect::<Vec<_>>(),
                    "edges": v.edges.iter().map(|e| json!({
                        "from": e.from, "to": e.to, "one_way": e.one_way, "lock": e.lock,
                    })).collect::<Vec<_>>(),
                })
            }
            Err(d) => failure(&[d]),
        }
    });
    json!({ "ok": true, "flow": flow.name.value, "seed": seed, "written": written, "expanded": expanded })
}

/// Success rate, median time and direct doors over seeds `0..N`.
pub fn stats(state: &State, flow: Option<&str>, seeds: Option<&str>) -> Value {
    with_flow(state, flow, None, |project, flow, _| {
        stats_of(project, flow, seeds)
    })
}

fn stats_of(project: &Project, flow: &Flow, seeds: Option<&str>) -> Value {
    let n = seeds
        .and_then(|s| s.parse::<u64>().ok())
        .unwrap_or(DEFAULT_STATS_SEEDS)
        .clamp(1, MAX_STATS_SEEDS);
    let s = crate::stats::run(flow, &project.library, n, &|| {});
    json!({
        "ok": true,
        "flow": s.flow,
        "seeds": s.seeds,
        "succeeded": s.succeeded,
        "median_ms": s.time_ms.as_ref().map(|t| t.median),
        "direct_doors": s.direct_door_share.median,
        "rooms": s.rooms.median,
        "failures": s.failures,
    })
}
