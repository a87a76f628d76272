//! The Binding of Isaac floor generator (`generator: isaac`): the original
//! game's 9x8 floor plan, Rebirth's 13x13 plan with large rooms, and the
//! Curse of the Labyrinth. The rules are in the guide's "Isaac floors"
//! section.
//!
//! [`plan`] makes the cell plan; [`rasterise`] turns it into a [`Level`]
//! every renderer reads.

mod build;
mod grid;
mod grow;
mod plan;
mod raster;
mod shape;
mod specials;

pub use build::{
    LABYRINTH_MAX_ROOMS, LARGE_BOSS_CHANCE, MAX_RESTARTS, PlanFailure, Restart, plan, plan_within,
    pools, room_count,
};
pub use grid::{Dir, Grid};
pub use grow::{LARGE_ROOM_CHANCE, LARGE_ROOM_REMOVAL, MAX_REQUEUES, REQUEUE_ABOVE};
pub use plan::{Door, FloorPlan, PlanRoom, RoomKind};
pub use raster::{CELL_HEIGHT, CELL_WIDTH, rasterise};
pub use shape::Shape;
pub use specials::{
    EXTRA_ROOM_RULES, Rule, SECRET_LOOSEN_1, SECRET_LOOSEN_2, SECRET_RULES, SECRET_TRIES,
};

use crate::diag::Diagnostic;
use crate::flow::{Flow, IsaacParams};
use crate::generate::DirectGenerator;
use crate::level::Level;

impl DirectGenerator for IsaacParams {
    fn level(&self, flow: &Flow, seed: u64) -> Result<(Level, u32), Diagnostic> {
        floor(self, flow, seed, MAX_RESTARTS)
    }
}

/// The level of `flow`'s floor for `seed` with the attempts it took, trying
/// at most `attempts` floors; an `isaac::no-floor` error naming the reasons
/// the tries failed otherwise.
pub fn floor(
    params: &IsaacParams,
    flow: &Flow,
    seed: u64,
    attempts: u32,
) -> Result<(Level, u32), Diagnostic> {
    let failure = match plan_within(params, seed, attempts) {
        Ok(p) => return Ok((rasterise(&p, &flow.name.value, seed), p.restarts + 1)),
        Err(failure) => failure,
    };
    let reasons = failure
        .reasons
        .iter()
        .map(|(why, n)| format!("{n}x {}", why.describe()))
        .collect::<Vec<_>>()
        .join(", ");
    Err(Diagnostic::error(
        "isaac::no-floor",
        format!(
            "flow `{}` (seed {seed}): no floor of {} rooms in {} attempt(s) ({reasons})",
            flow.name.value, failure.target, failure.attempts
        ),
    )
    .in_file(&flow.file)
    .label(flow.name.span.clone(), "this flow")
    .help("a floor is started over until every rule holds; try another seed, or a lower `level` (fewer rooms leave more room to grow)"))
}
