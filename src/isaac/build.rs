//! One floor plan from the parameters and a seed: room count, growth,
//! consistency checks and restarts, special rooms.

use std::collections::BTreeMap;

use super::grid::Grid;
use super::grow::grow;
use super::plan::{FloorPlan, RoomKind};
use super::shape::Shape;
use super::specials::{
    EXTRA_ROOM_RULES, SECRET_RULES, enlarge_boss, lone_neighbour, ranked_dead_ends, secret_cell,
    super_secret_cell,
};
use crate::flow::{IsaacParams, IsaacVariant};
use crate::rng::Rng;

/// Floors started over before giving up.
pub const MAX_RESTARTS: u32 = 5000;
/// Most rooms on a labyrinth floor, secret rooms included.
pub const LABYRINTH_MAX_ROOMS: u32 = 45;
/// Most rooms the Rebirth formula gives a normal floor.
pub const REBIRTH_MAX_ROOMS: u32 = 20;
/// Chance that a Rebirth boss room is large.
pub const LARGE_BOSS_CHANCE: f64 = 0.25;

/// Why a floor was started over.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Restart {
    /// The growth stopped short of the room count.
    TooFewRooms,
    /// Fewer dead ends than special rooms need.
    TooFewDeadEnds,
    /// The boss room touches the start room.
    BossBesideStart,
    /// No farthest dead end can take a large boss room.
    NoLargeBoss,
    /// No free cell beside the boss for the labyrinth's second boss room.
    NoSecondBoss,
    /// No cell for a labyrinth's extra room.
    NoExtraCell,
    /// No cell for the secret room.
    NoSecretCell,
    /// No cell for the super secret room.
    NoSuperSecretCell,
}

impl Restart {
    /// What went wrong, in words.
    pub fn describe(self) -> &'static str {
        match self {
            Restart::TooFewRooms => "the growth stopped short of the room count",
            Restart::TooFewDeadEnds => "too few dead ends for the special rooms",
            Restart::BossBesideStart => "the boss room touched the start room",
            Restart::NoLargeBoss => "no farthest dead end could take a large boss room",
            Restart::NoSecondBoss => "no free cell beside the boss for the second boss room",
            Restart::NoExtraCell => "no cell for an extra labyrinth room",
            Restart::NoSecretCell => "no cell for the secret room",
            Restart::NoSuperSecretCell => "no cell for the super secret room",
        }
    }
}

/// A floor that could not be made within its attempts.
#[derive(Clone, Debug, PartialEq)]
pub struct PlanFailure {
    /// Attempts made.
    pub attempts: u32,
    /// The room count asked for.
    pub target: u32,
    /// How often each reason ended an attempt.
    pub reasons: BTreeMap<Restart, u32>,
}

/// The formula's room count for `extra` (0 or 1, the game's `random(2)`):
/// `random(2) + 5 + level * 2.6` in the original, `3.33 * level + 5..6`
/// (at most 20) in Rebirth; a labyrinth floor has 80% more, at most 45 with
/// the two secret rooms.
pub fn room_count(params: &IsaacParams, extra: u32) -> u32 {
    let level = params.level;
    let base = match params.variant {
        IsaacVariant::Original => extra + 5 + level * 26 / 10,
        IsaacVariant::Rebirth => (extra + 5 + level * 333 / 100).min(REBIRTH_MAX_ROOMS),
    };
    if params.labyrinth {
        (base * 18 / 10).min(LABYRINTH_MAX_ROOMS - 2)
    } else {
        base
    }
}

/// The grid of a variant.
pub fn grid(variant: IsaacVariant) -> Grid {
    match variant {
        IsaacVariant::Original => Grid::ORIGINAL,
        IsaacVariant::Rebirth => Grid::REBIRTH,
    }
}

/// The floor plan of `seed`: the room count is drawn once, then the floor
/// is grown and checked, and started over (at most [`MAX_RESTARTS`] times)
/// until every rule holds.
pub fn plan(params: &IsaacParams, seed: u64) -> Result<FloorPlan, PlanFailure> {
    plan_within(params, seed, MAX_RESTARTS)
}

/// [`plan`] with at most `attempts` tries.
pub fn plan_within(
    params: &IsaacParams,
    seed: u64,
    attempts: u32,
) -> Result<FloorPlan, PlanFailure> {
    let mut rng = Rng::derive(seed, "isaac");
    let extra = rng.below(2);
    let total = room_count(params, extra);
    // A labyrinth floor grows all its rooms but the second boss room.
    let target = if params.labyrinth { total - 1 } else { total };
    let mut reasons = BTreeMap::new();
    for restart in 0..attempts {
        let mut plan = FloorPlan::new(grid(params.variant), target);
        match attempt(&mut plan, params, &mut rng) {
            Ok(()) => {
                plan.restarts = restart;
                return Ok(plan);
            }
            Err(why) => *reasons.entry(why).or_insert(0) += 1,
        }
    }
    Err(PlanFailure {
        attempts,
        target: total,
        reasons,
    })
}

/// Dead ends a floor needs: boss, shop and treasure (doubled on a labyrinth
/// floor); Rebirth's minimum of 5, +1 after the first floor, +1 on a
/// labyrinth (XL) floor.
fn dead_ends_needed(params: &IsaacParams) -> usize {
    match params.variant {
        IsaacVariant::Original if params.labyrinth => 5,
        IsaacVariant::Original => 3,
        IsaacVariant::Rebirth => 5 + usize::from(params.level > 1) + usize::from(params.labyrinth),
    }
}

/// One try at a floor of `plan.target` rooms (before the second boss room
/// of a labyrinth and the two secret rooms).
fn attempt(plan: &mut FloorPlan, params: &IsaacParams, rng: &mut Rng) -> Result<(), Restart> {
    let rebirth = params.variant == IsaacVariant::Rebirth;
    let grown = grow(plan, rng, rebirth);
    if grown < plan.target && !params.labyrinth {
        return Err(Restart::TooFewRooms);
    }
    if params.labyrinth {
        // Where the growth stops short, extra rooms go where secret rooms
        // would, closing loops. The second boss room is placed below.
        let growth_ends = plan.dead_ends.clone();
        for _ in grown..plan.target {
            let cell = secret_cell(plan, rng, &growth_ends, &EXTRA_ROOM_RULES)
                .ok_or(Restart::NoExtraCell)?;
            let (x, y) = plan.grid.xy(cell);
            plan.place(Shape::Single, (x, y), RoomKind::Extra);
        }
    }
    let depths = plan.depths();
    let ends = ranked_dead_ends(plan, &depths);
    if ends.len() < dead_ends_needed(params) {
        return Err(Restart::TooFewDeadEnds);
    }
    let mut boss = ends[0];
    if rebirth && rng.chance(LARGE_BOSS_CHANCE) {
        boss = ends
            .iter()
            .copied()
            .take_while(|&e| depths[e] == depths[ends[0]])
            .find(|&e| enlarge_boss(plan, e, rng))
            .ok_or(Restart::NoLargeBoss)?;
    }
    if plan.touching(boss).contains(&0) {
        return Err(Restart::BossBesideStart);
    }
    plan.rooms[boss].kind = RoomKind::Boss;
    if params.labyrinth {
        let cell = lone_neighbour(plan, boss, rng).ok_or(Restart::NoSecondBoss)?;
        let (x, y) = plan.grid.xy(cell);
        plan.place(Shape::Single, (x, y), RoomKind::Boss);
    }
    let cell = secret_cell(plan, rng, &ends, &SECRET_RULES).ok_or(Restart::NoSecretCell)?;
    let (x, y) = plan.grid.xy(cell);
    plan.place(Shape::Single, (x, y), RoomKind::Secret);
    let cell = super_secret_cell(plan, rng).ok_or(Restart::NoSuperSecretCell)?;
    let (x, y) = plan.grid.xy(cell);
    plan.place(Shape::Single, (x, y), RoomKind::SuperSecret);
    assign_specials(plan, params, &ends, boss, rng)?;
    assign_pools(plan, params, rng);
    Ok(())
}

/// Shop and treasure room (two of each on a labyrinth floor), then each
/// optional room by its chance, on the dead ends left: random ones in the
/// original, farthest first in Rebirth, only the 6 farthest on a labyrinth.
fn assign_specials(
    plan: &mut FloorPlan,
    params: &IsaacParams,
    ends: &[usize],
    boss: usize,
    rng: &mut Rng,
) -> Result<(), Restart> {
    let mut free: Vec<usize> = ends.iter().copied().filter(|&e| e != boss).collect();
    if params.labyrinth {
        free.truncate(5);
    }
    let farthest_first = params.variant == IsaacVariant::Rebirth;
    let mut take = |rng: &mut Rng| -> Option<usize> {
        if free.is_empty() {
            None
        } else if farthest_first {
            Some(free.remove(0))
        } else {
            Some(free.remove(rng.index(free.len())))
        }
    };
    let copies = if params.labyrinth { 2 } else { 1 };
    for _ in 0..copies {
        for kind in [RoomKind::Shop, RoomKind::Treasure] {
            let r = take(rng).ok_or(Restart::TooFewDeadEnds)?;
            plan.rooms[r].kind = kind;
        }
    }
    for name in crate::flow::ISAAC_SPECIALS {
        if let Some(&chance) = params.specials.get(*name)
            && rng.chance(chance)
            && let Some(r) = take(rng)
        {
            plan.rooms[r].kind = RoomKind::Special(name);
        }
    }
    Ok(())
}

/// The pools normal rooms draw from: as configured, else all three on a
/// labyrinth floor, easy and medium on a chapter's first floor (odd level),
/// medium and hard on its second.
pub fn pools(params: &IsaacParams) -> Vec<&'static str> {
    let all = crate::flow::ISAAC_POOLS;
    if !params.pools.is_empty() {
        all.iter()
            .copied()
            .filter(|p| params.pools.iter().any(|q| q == p))
            .collect()
    } else if params.labyrinth {
        all.to_vec()
    } else if params.level % 2 == 1 {
        all[..2].to_vec()
    } else {
        all[1..].to_vec()
    }
}

/// Gives every normal room a pool.
fn assign_pools(plan: &mut FloorPlan, params: &IsaacParams, rng: &mut Rng) {
    let pools = pools(params);
    for room in &mut plan.rooms {
        if matches!(room.kind, RoomKind::Normal | RoomKind::Extra) {
            room.pool = pools[rng.index(pools.len())];
        }
    }
}
