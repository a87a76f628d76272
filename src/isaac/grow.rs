//! Breadth-first growth of the floor from the start cell, with the four
//! give-up rules, the dead-end list, the start's re-queueing and (Rebirth)
//! large shapes.

use std::collections::VecDeque;

use super::grid::Dir;
use super::plan::{FloorPlan, RoomKind};
use super::shape::Shape;
use crate::rng::Rng;

/// Floors wanting more rooms than this re-queue the start room.
pub const REQUEUE_ABOVE: u32 = 16;
/// Times the start room is re-queued when the queue runs dry short of the
/// target (our choice: the articles only say "periodically").
pub const MAX_REQUEUES: u32 = 4;
/// Chance that Rebirth tries a large shape for a new room.
pub const LARGE_ROOM_CHANCE: f64 = 0.15;
/// Chance that a placed large shape leaves the pool.
pub const LARGE_ROOM_REMOVAL: f64 = 0.95;

/// Grows rooms from the start until the queue runs dry; returns the rooms
/// grown. Fills `plan.rooms` and `plan.dead_ends`.
pub fn grow(plan: &mut FloorPlan, rng: &mut Rng, large: bool) -> u32 {
    let mut pool: Vec<Shape> = if large {
        Shape::LARGE.to_vec()
    } else {
        Vec::new()
    };
    let (sx, sy) = plan.grid.xy(plan.grid.start());
    plan.place(Shape::Single, (sx, sy), RoomKind::Start);
    let mut queue = VecDeque::from([0usize]);
    let mut requeues = 0;
    loop {
        let Some(r) = queue.pop_front() else {
            if (plan.rooms.len() as u32) < plan.target
                && plan.target > REQUEUE_ABOVE
                && requeues < MAX_REQUEUES
            {
                requeues += 1;
                queue.push_back(0);
                continue;
            }
            break;
        };
        let mut created = false;
        let room = plan.rooms[r].clone();
        for ((dx, dy), side) in room.shape.exits() {
            let cell = plan.grid.cell(room.anchor.0 + dx, room.anchor.1 + dy);
            let Some(next) = plan.grid.step(cell, side) else {
                continue;
            };
            if let Some(new) = visit(plan, rng, &mut pool, next, side) {
                queue.push_back(new);
                created = true;
            }
        }
        if !created && r != 0 && !plan.dead_ends.contains(&r) {
            plan.dead_ends.push(r);
        }
    }
    plan.rooms.len() as u32
}

/// Tries to open a room at `cell`, entered through its side facing `from`;
/// the four give-up rules in the original order.
fn visit(
    plan: &mut FloorPlan,
    rng: &mut Rng,
    pool: &mut Vec<Shape>,
    cell: usize,
    from: Dir,
) -> Option<usize> {
    if plan.occupancy[cell] != 0
        || plan.occupied_neighbours(cell).nth(1).is_some()
        || plan.rooms.len() as u32 >= plan.target
        || rng.chance(0.5)
    {
        return None;
    }
    if !pool.is_empty()
        && rng.chance(LARGE_ROOM_CHANCE)
        && let Some((i, anchor)) = fit_large(plan, rng, pool, cell, from.opposite())
    {
        let shape = pool[i];
        if rng.chance(LARGE_ROOM_REMOVAL) {
            pool.remove(i);
        }
        return Some(plan.place(shape, anchor, RoomKind::Normal));
    }
    let (x, y) = plan.grid.xy(cell);
    Some(plan.place(Shape::Single, (x, y), RoomKind::Normal))
}

/// A large shape of the pool (index) and its anchor such that one of its
/// cells is `cell` with a door on side `entry`, and the rest of it fits in
/// empty space. Shapes are tried in a random order.
fn fit_large(
    plan: &FloorPlan,
    rng: &mut Rng,
    pool: &[Shape],
    cell: usize,
    entry: Dir,
) -> Option<(usize, (i32, i32))> {
    let (x, y) = plan.grid.xy(cell);
    let first = rng.index(pool.len());
    (0..pool.len())
        .map(|k| (first + k) % pool.len())
        .find_map(|i| {
            let shape = pool[i];
            shape
                .exits()
                .filter(|&(_, side)| side == entry)
                .map(|((dx, dy), _)| (x - dx, y - dy))
                .find(|&anchor| plan.fits(shape, anchor))
                .map(|anchor| (i, anchor))
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::isaac::grid::Grid;

    #[test]
    fn growth_stops_at_the_target() {
        for seed in 0..200 {
            let mut plan = FloorPlan::new(Grid::ORIGINAL, 9);
            let grown = grow(&mut plan, &mut Rng::new(seed), false);
            assert!(grown <= 9);
            assert_eq!(grown as usize, plan.rooms.len());
        }
    }
}
