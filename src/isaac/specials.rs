//! Special rooms on a grown floor: the boss at the farthest dead end, the
//! secret and super secret rooms, shop, treasure and the chance-based rooms,
//! and the labyrinth's extra rooms and second boss room.

use super::plan::{FloorPlan, RoomKind};
use super::shape::Shape;
use crate::rng::Rng;

/// Random tries before the secret-room rule is loosened the first time.
pub const SECRET_LOOSEN_1: u32 = 300;
/// Random tries before it is loosened the second time.
pub const SECRET_LOOSEN_2: u32 = 600;
/// Random tries in all before every cell is scanned in order.
pub const SECRET_TRIES: u32 = 900;

/// Dead ends that are still dead ends (one touching room), sorted farthest
/// first; among equally far ones, the later in the growth's list first.
pub fn ranked_dead_ends(plan: &FloorPlan, depths: &[u32]) -> Vec<usize> {
    let mut ends: Vec<(usize, usize)> = plan
        .dead_ends
        .iter()
        .enumerate()
        .filter(|&(_, &r)| plan.rooms[r].shape == Shape::Single && plan.touching(r).len() == 1)
        .map(|(order, &r)| (order, r))
        .collect();
    ends.sort_by_key(|&(order, r)| (std::cmp::Reverse(depths[r]), std::cmp::Reverse(order)));
    ends.into_iter().map(|(_, r)| r).collect()
}

/// A placement rule for secret-style rooms: the neighbours a cell needs,
/// and whether it must keep away from the dead ends.
#[derive(Clone, Copy, Debug)]
pub struct Rule {
    /// Occupied neighbours needed.
    pub neighbours: usize,
    /// Whether a dead end beside the cell rules it out.
    pub avoid_dead_ends: bool,
}

/// The secret room's rule, loosened after 300 and after 600 tries: first 3
/// neighbours and no dead end beside it, then dead ends may be beside it,
/// then 2 neighbours are enough.
pub const SECRET_RULES: [Rule; 3] = [
    Rule {
        neighbours: 3,
        avoid_dead_ends: true,
    },
    Rule {
        neighbours: 3,
        avoid_dead_ends: false,
    },
    Rule {
        neighbours: 2,
        avoid_dead_ends: false,
    },
];

/// A labyrinth's extra rooms: the secret rule, but they never touch a dead
/// end (which would stop being one); 3, then 2, then 1 neighbour.
pub const EXTRA_ROOM_RULES: [Rule; 3] = [
    Rule {
        neighbours: 3,
        avoid_dead_ends: true,
    },
    Rule {
        neighbours: 2,
        avoid_dead_ends: true,
    },
    Rule {
        neighbours: 1,
        avoid_dead_ends: true,
    },
];

/// The neighbours an empty `cell` would have as a secret-style room, and
/// whether one of them is among `dead_ends`; `None` if it may not hold one:
/// it never touches a boss room, and every neighbour must be able to open a
/// door into it.
fn secret_neighbours(plan: &FloorPlan, cell: usize, dead_ends: &[usize]) -> Option<(usize, bool)> {
    if plan.occupancy[cell] != 0 {
        return None;
    }
    let (mut count, mut beside_dead_end) = (0, false);
    for (side, n) in plan.occupied_neighbours(cell) {
        let r = plan.room_at(n)?;
        let room = &plan.rooms[r];
        if room.kind == RoomKind::Boss || !room.shape.door_side(side.opposite()) {
            return None;
        }
        beside_dead_end |= dead_ends.contains(&r);
        count += 1;
    }
    Some((count, beside_dead_end))
}

/// The neighbours `rule` counts for a cell with the standing
/// [`secret_neighbours`] gave it; `None` when the rule rules it out.
fn under(rule: &Rule, standing: Option<(usize, bool)>) -> Option<usize> {
    standing
        .filter(|&(_, beside_dead_end)| !(rule.avoid_dead_ends && beside_dead_end))
        .map(|(count, _)| count)
}

/// A cell for a secret room (or a labyrinth's extra room): the game tries
/// random cells, 300 under `rules[0]`, 300 under `rules[1]`, 300 under
/// `rules[2]`; then we take the cell with the most neighbours (at least one)
/// in grid order under the last rule's dead-end condition. `None` when no
/// cell qualifies.
///
/// The tries are not replayed one by one: a phase of `t` tries with `q` of
/// `n` cells qualifying succeeds with chance `1 - (1 - q/n)^t`, and then on
/// a uniformly chosen qualifying cell, which is the same distribution for a
/// fraction of the work.
pub fn secret_cell(
    plan: &FloorPlan,
    rng: &mut Rng,
    dead_ends: &[usize],
    rules: &[Rule; 3],
) -> Option<usize> {
    let grid = plan.grid;
    let mut qualifying: [Vec<usize>; 3] = Default::default();
    let mut best: Option<(usize, usize)> = None;
    for y in 0..grid.height {
        for x in 1..=grid.width {
            let c = grid.cell(x, y);
            let standing = secret_neighbours(plan, c, dead_ends);
            for (rule, list) in rules.iter().zip(&mut qualifying) {
                if under(rule, standing).is_some_and(|n| n >= rule.neighbours) {
                    list.push(c);
                }
            }
            if let Some(n) = under(&rules[2], standing).filter(|&n| n >= 1)
                && best.is_none_or(|(m, _)| n > m)
            {
                best = Some((n, c));
            }
        }
    }
    let cells = f64::from(grid.width * grid.height);
    let tries = [
        SECRET_LOOSEN_1,
        SECRET_LOOSEN_2 - SECRET_LOOSEN_1,
        SECRET_TRIES - SECRET_LOOSEN_2,
    ];
    for (list, t) in qualifying.iter().zip(tries) {
        let miss = 1.0 - list.len() as f64 / cells;
        if !list.is_empty() && rng.chance(1.0 - miss.powi(t as i32)) {
            return Some(list[rng.index(list.len())]);
        }
    }
    best.map(|(_, c)| c)
}

/// A cell for the super secret room: empty, touching exactly one room, which
/// is not a boss or secret room and can open a door into it. Random tries,
/// then a scan in grid order.
pub fn super_secret_cell(plan: &FloorPlan, rng: &mut Rng) -> Option<usize> {
    let grid = plan.grid;
    let ok = |cell: usize| {
        if plan.occupancy[cell] != 0 {
            return false;
        }
        let mut it = plan.occupied_neighbours(cell);
        match (it.next(), it.next()) {
            (Some((side, n)), None) => plan.room_at(n).is_some_and(|r| {
                let room = &plan.rooms[r];
                !matches!(room.kind, RoomKind::Boss | RoomKind::Secret)
                    && room.shape.door_side(side.opposite())
            }),
            _ => false,
        }
    };
    let cells = (grid.width * grid.height) as u32;
    for _ in 0..SECRET_TRIES {
        let k = rng.below(cells) as i32;
        let cell = grid.cell(1 + k % grid.width, k / grid.width);
        if ok(cell) {
            return Some(cell);
        }
    }
    (0..grid.cells()).find(|&c| {
        let (x, y) = grid.xy(c);
        grid.contains(x, y) && ok(c)
    })
}

/// A cell beside room `r` that touches nothing else (for a second boss
/// room), on a side where `r` can have a door.
pub fn lone_neighbour(plan: &FloorPlan, r: usize, rng: &mut Rng) -> Option<usize> {
    let room = &plan.rooms[r];
    let mut options: Vec<usize> = room
        .shape
        .exits()
        .filter_map(|((dx, dy), side)| {
            let cell = plan.grid.cell(room.anchor.0 + dx, room.anchor.1 + dy);
            plan.grid.step(cell, side)
        })
        .filter(|&n| plan.occupancy[n] == 0 && plan.occupied_neighbours(n).count() == 1)
        .collect();
    options.dedup();
    (!options.is_empty()).then(|| options[rng.index(options.len())])
}

/// Turns dead end `r` into a large boss room (2x2, 2x1 or 1x2, tried in a
/// random order) that still touches only the room before it. Returns whether
/// a shape fitted; on failure the plan is unchanged.
pub fn enlarge_boss(plan: &mut FloorPlan, r: usize, rng: &mut Rng) -> bool {
    let [parent] = plan.touching(r)[..] else {
        return false;
    };
    let (x, y) = plan.rooms[r].anchor;
    let mut shapes = Shape::BOSS;
    rng.shuffle(&mut shapes);
    plan.unmark(r);
    for shape in shapes {
        for &(dx, dy) in shape.offsets() {
            let anchor = (x - dx, y - dy);
            if !plan.fits(shape, anchor) {
                continue;
            }
            let old = (plan.rooms[r].shape, plan.rooms[r].anchor);
            plan.rooms[r].shape = shape;
            plan.rooms[r].anchor = anchor;
            plan.mark(r);
            if plan.touching(r) == [parent] {
                return true;
            }
            plan.unmark(r);
            (plan.rooms[r].shape, plan.rooms[r].anchor) = old;
        }
    }
    plan.mark(r);
    false
}
