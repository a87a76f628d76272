//! The scatter generator (`generator: scatter`), after TinyKeep: rooms
//! spawned in a circle or ellipse, pushed apart by separation steering; the
//! large ones become main rooms, joined along the minimum spanning tree of
//! their Delaunay triangulation plus a few of its other edges; corridors run
//! straight or L-shaped (A* around main rooms when blocked) and keep the
//! small rooms they pass through.
//!
//! Stages, each a module with plain data in and out, run in order by
//! [`plan`]: `spawn`, `separate`, `select` (main rooms), `triangulate`,
//! `spanning` (tree and extra edges), `route` (with `astar`), `fillers`;
//! then [`Plan::level`] draws the level (`raster`).

mod astar;
mod band;
mod fillers;
mod grid;
mod plan;
mod raster;
mod rect;
mod roles;
mod route;
mod select;
mod separate;
mod settings;
mod sizes;
mod spanning;
mod spawn;
mod triangulate;

pub use fillers::Crossings;
pub use plan::{ATTEMPTS, Failure, Plan};
pub use raster::{FILLER_TEMPLATE, MAIN_TEMPLATE};
pub use rect::Rect;
pub use roles::Roles;
pub use route::{Route, Shape};
pub use separate::Stuck;
pub use settings::Settings;

use crate::diag::Diagnostic;
use crate::flow::{Flow, ScatterParams};
use crate::generate::DirectGenerator;
use crate::level::Level;

/// The plan of the level of `params` for `seed`, with the attempts used.
pub fn plan(params: &ScatterParams, seed: u64) -> Result<(Plan, u32), Failure> {
    plan::plan(&Settings::new(params), seed)
}

impl DirectGenerator for ScatterParams {
    fn level(&self, flow: &Flow, seed: u64) -> Result<(Level, u32), Diagnostic> {
        let name = &flow.name.value;
        let (plan, attempts) = plan(self, seed).map_err(|f| failure(flow, seed, f))?;
        Ok((plan.level(name, seed), attempts))
    }
}

/// The diagnostic of a failed plan, pointing at the flow.
fn failure(flow: &Flow, seed: u64, f: Failure) -> Diagnostic {
    let name = &flow.name.value;
    let d = match f {
        Failure::Stuck(s) => Diagnostic::error(
            "scatter::not-separated",
            format!(
                "flow `{name}` (seed {seed}): separation steering did not converge in {ATTEMPTS} attempts: {} pairs of rooms still overlap when `max_steps` ({}) runs out",
                s.overlapping, s.steps
            ),
        )
        .help("raise `max_steps`, spawn fewer or smaller rooms (`rooms`, `sizes: { side }`), or spread them over a larger `region`"),
        Failure::NoRoute(a, b) => Diagnostic::error(
            "scatter::no-corridor",
            format!(
                "flow `{name}` (seed {seed}): in {ATTEMPTS} attempts, no corridor could join the main rooms at ({}, {}) and ({}, {}): other main rooms wall them in",
                a.x, a.y, b.x, b.y
            ),
        )
        .help("lower `corridor_width`, or raise `main_threshold` so that fewer rooms are main rooms"),
    };
    d.in_file(&flow.file)
        .label(flow.name.span.clone(), "this flow")
}
