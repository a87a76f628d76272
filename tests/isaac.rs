//! Statistical tests of the Isaac generator over 10,000 seeds per floor
//! type: the rules of the original game, Rebirth and the labyrinth, checked
//! on the plans with adjacency computed here, not by the generator.

use std::collections::{BTreeMap, BTreeSet, VecDeque};

use dungeonflow::internals::flow::{IsaacParams, IsaacVariant};
use dungeonflow::internals::isaac::{FloorPlan, RoomKind, Shape, plan};

#[path = "support/suite.rs"]
mod suite;

/// Seeds per floor type in the full run (see `suite::seeds`).
const FULL: u64 = 10_000;

fn seeds() -> u64 {
    suite::seeds(FULL)
}

fn params(level: u32, variant: IsaacVariant, labyrinth: bool) -> IsaacParams {
    IsaacParams {
        level,
        variant,
        labyrinth,
        ..IsaacParams::default()
    }
}

fn original(level: u32) -> IsaacParams {
    params(level, IsaacVariant::Original, false)
}

fn rebirth(level: u32) -> IsaacParams {
    params(level, IsaacVariant::Rebirth, false)
}

/// A plan's rooms as the test sees them: cell -> room, from each room's
/// shape and anchor.
struct View<'a> {
    plan: &'a FloorPlan,
    owner: BTreeMap<(i32, i32), usize>,
}

impl<'a> View<'a> {
    /// Panics if two rooms claim a cell or a cell is off the grid.
    fn new(plan: &'a FloorPlan) -> Self {
        let mut owner = BTreeMap::new();
        for (r, room) in plan.rooms.iter().enumerate() {
            for &(dx, dy) in room.shape.offsets() {
                let (x, y) = (room.anchor.0 + dx, room.anchor.1 + dy);
                assert!(
                    (1..=plan.grid.width).contains(&x) && (0..plan.grid.height).contains(&y),
                    "room {r} off the grid at ({x}, {y})"
                );
                if let Some(other) = owner.insert((x, y), r) {
                    panic!("rooms {other} and {r} overlap at ({x}, {y})");
                }
            }
        }
        Self { plan, owner }
    }

    fn cells(&self, r: usize) -> impl Iterator<Item = (i32, i32)> + '_ {
        self.owner
            .iter()
            .filter(move |(_, o)| **o == r)
            .map(|(c, _)| *c)
    }

    /// Rooms sharing a cell side with room `r`.
    fn touching(&self, r: usize) -> BTreeSet<usize> {
        self.cells(r)
            .flat_map(|(x, y)| [(x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)])
            .filter_map(|c| self.owner.get(&c).copied())
            .filter(|&o| o != r)
            .collect()
    }

    /// Occupied cells beside an empty or room cell.
    fn occupied_around(&self, (x, y): (i32, i32)) -> Vec<usize> {
        [(x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)]
            .iter()
            .filter_map(|c| self.owner.get(c).copied())
            .collect()
    }

    fn of_kind(&self, kind: RoomKind) -> Vec<usize> {
        (0..self.plan.rooms.len())
            .filter(|&r| self.plan.rooms[r].kind == kind)
            .collect()
    }

    /// Breadth-first distances from the start over touching rooms, leaving
    /// out `skip`.
    fn depths(&self, skip: &dyn Fn(usize) -> bool) -> Vec<Option<u32>> {
        let mut depth = vec![None; self.plan.rooms.len()];
        depth[0] = Some(0);
        let mut queue = VecDeque::from([0]);
        while let Some(r) = queue.pop_front() {
            for o in self.touching(r) {
                if !skip(o) && depth[o].is_none() {
                    depth[o] = Some(depth[r].unwrap() + 1);
                    queue.push_back(o);
                }
            }
        }
        depth
    }
}

fn is_secret(plan: &FloorPlan, r: usize) -> bool {
    matches!(plan.rooms[r].kind, RoomKind::Secret | RoomKind::SuperSecret)
}

/// The formula's count (before the secret rooms) for `extra` in {0, 1}.
fn formula(p: &IsaacParams, extra: u32) -> u32 {
    let base = match p.variant {
        // random(2) + 5 + level * 2.6, rounded down.
        IsaacVariant::Original => (10 * extra + 50 + 26 * p.level) / 10,
        // 3.33 * level + 5..6, rounded down, at most 20.
        IsaacVariant::Rebirth => ((100 * extra + 500 + 333 * p.level) / 100).min(20),
    };
    if p.labyrinth {
        (base * 18 / 10).min(43)
    } else {
        base
    }
}

#[test]
fn room_counts_follow_the_formula_with_an_even_coin() {
    let cases = [
        original(1),
        original(2),
        original(5),
        rebirth(1),
        rebirth(3),
        params(3, IsaacVariant::Original, true),
    ];
    for p in cases {
        let mut extra_one = 0;
        for seed in 0..seeds() {
            let plan = plan(&p, seed).unwrap();
            let count = plan
                .rooms
                .iter()
                .enumerate()
                .filter(|(r, _)| !is_secret(&plan, *r))
                .count() as u32;
            match count {
                c if c == formula(&p, 0) => {}
                c if c == formula(&p, 1) => extra_one += 1,
                c => panic!(
                    "{p:?} seed {seed}: {c} rooms, the formula gives {} or {}",
                    formula(&p, 0),
                    formula(&p, 1)
                ),
            }
        }
        let share = f64::from(extra_one) / seeds() as f64;
        eprintln!(
            "level {} {:?} labyrinth {}: random(2) = 1 on {:.2}% of floors",
            p.level,
            p.variant,
            p.labyrinth,
            share * 100.0
        );
        if formula(&p, 0) != formula(&p, 1) {
            assert!(
                (share - 0.5).abs() < suite::tolerance(0.02, FULL),
                "{p:?}: random(2) = 1 on {share}"
            );
        }
    }
}

#[test]
fn original_floors_are_trees_with_the_boss_at_the_farthest_dead_end() {
    for level in [1, 2, 4, 8] {
        let p = original(level);
        for seed in 0..seeds() {
            let plan = plan(&p, seed).unwrap();
            let view = View::new(&plan);
            let rooms: Vec<usize> = (0..plan.rooms.len())
                .filter(|&r| !is_secret(&plan, r))
                .collect();
            // No loop among the rooms the growth made: a connected graph with
            // one edge fewer than rooms.
            let edges: usize = rooms
                .iter()
                .map(|&r| {
                    view.touching(r)
                        .iter()
                        .filter(|&&o| !is_secret(&plan, o))
                        .count()
                })
                .sum::<usize>()
                / 2;
            assert_eq!(edges + 1, rooms.len(), "level {level} seed {seed}: a loop");
            let depth = view.depths(&|r| is_secret(&plan, r));
            assert!(
                rooms.iter().all(|&r| depth[r].is_some()),
                "seed {seed}: cut off"
            );
            let dead_ends: Vec<usize> = rooms
                .iter()
                .copied()
                .filter(|&r| {
                    r != 0
                        && view
                            .touching(r)
                            .iter()
                            .filter(|&&o| !is_secret(&plan, o))
                            .count()
                            == 1
                })
                .collect();
            let [boss] = view.of_kind(RoomKind::Boss)[..] else {
                panic!("seed {seed}: not one boss room");
            };
            assert!(
                dead_ends.contains(&boss),
                "seed {seed}: boss not at a dead end"
            );
            let farthest = dead_ends.iter().map(|&r| depth[r]).max().unwrap();
            assert_eq!(
                depth[boss], farthest,
                "level {level} seed {seed}: a dead end farther than the boss"
            );
            assert!(
                !view.touching(boss).contains(&0),
                "seed {seed}: boss beside the start"
            );
            // Shop and treasure room on dead ends.
            for kind in [RoomKind::Shop, RoomKind::Treasure] {
                let [r] = view.of_kind(kind)[..] else {
                    panic!("seed {seed}: not one {kind:?}");
                };
                assert!(
                    dead_ends.contains(&r),
                    "seed {seed}: {kind:?} not at a dead end"
                );
            }
        }
    }
}

/// Checks the secret rooms of a floor; returns the secret room's neighbours.
fn check_secrets(plan: &FloorPlan, seed: u64) -> usize {
    let view = View::new(plan);
    let bosses = view.of_kind(RoomKind::Boss);
    let [secret] = view.of_kind(RoomKind::Secret)[..] else {
        panic!("seed {seed}: not one secret room");
    };
    let around = view.touching(secret);
    assert!(
        !around.is_empty(),
        "seed {seed}: secret room touches nothing"
    );
    assert!(
        bosses.iter().all(|b| !around.contains(b)),
        "seed {seed}: secret room beside the boss"
    );
    let [hidden] = view.of_kind(RoomKind::SuperSecret)[..] else {
        panic!("seed {seed}: not one super secret room");
    };
    let cell = view.cells(hidden).next().unwrap();
    let next = view.occupied_around(cell);
    assert_eq!(
        next.len(),
        1,
        "seed {seed}: super secret room borders {} rooms",
        next.len()
    );
    assert!(
        !bosses.contains(&next[0]),
        "seed {seed}: super secret room beside the boss"
    );
    view.occupied_around(view.cells(secret).next().unwrap())
        .len()
}

#[test]
fn secret_rooms_sit_at_crossings_and_never_beside_the_boss() {
    // (floor, least share of secret rooms with 3+ neighbours). A first
    // floor of 7 or 8 rooms seldom has a cell with three neighbours at all.
    let cases = [
        (original(1), 0.15),
        (original(3), 0.8),
        (original(6), 0.95),
        (rebirth(2), 0.8),
        (rebirth(5), 0.9),
        (params(3, IsaacVariant::Original, true), 0.9),
    ];
    for (p, least) in cases {
        let mut by_neighbours = [0u32; 5];
        for seed in 0..seeds() {
            by_neighbours[check_secrets(&plan(&p, seed).unwrap(), seed)] += 1;
        }
        let share = |n: usize| f64::from(by_neighbours[n..].iter().sum::<u32>()) / seeds() as f64;
        eprintln!(
            "level {} {:?} labyrinth {}: secret room with 3+ neighbours on {:.1}% of floors, 2+ on {:.1}%",
            p.level,
            p.variant,
            p.labyrinth,
            share(3) * 100.0,
            share(2) * 100.0
        );
        assert!(
            share(3) >= suite::at_least(least, FULL),
            "{p:?}: {}",
            share(3)
        );
        assert!(
            share(2) >= suite::at_least(0.95, FULL),
            "{p:?}: {}",
            share(2)
        );
    }
}

#[test]
fn labyrinth_floors_have_two_adjacent_boss_rooms_and_at_most_45_rooms() {
    for p in [
        params(2, IsaacVariant::Original, true),
        params(12, IsaacVariant::Original, true),
        params(6, IsaacVariant::Rebirth, true),
    ] {
        for seed in 0..seeds() / 2 {
            let plan = plan(&p, seed).unwrap();
            let view = View::new(&plan);
            assert!(
                plan.rooms.len() <= 45,
                "seed {seed}: {} rooms",
                plan.rooms.len()
            );
            let [a, b] = view.of_kind(RoomKind::Boss)[..] else {
                panic!("seed {seed}: not two boss rooms");
            };
            assert!(
                view.touching(a).contains(&b),
                "seed {seed}: boss rooms apart"
            );
            // The second boss room is the end of the line.
            assert_eq!(view.touching(b).len(), 1, "seed {seed}");
            let specials = [RoomKind::Shop, RoomKind::Treasure]
                .iter()
                .map(|k| view.of_kind(*k).len())
                .sum::<usize>();
            assert_eq!(specials, 4, "seed {seed}: shop and treasure doubled");
        }
    }
}

#[test]
fn rebirth_shapes_never_overlap_and_every_door_joins_two_rooms() {
    let mut shapes: BTreeMap<&str, u32> = BTreeMap::new();
    let mut large_bosses = 0;
    for seed in 0..seeds() {
        let plan = plan(&rebirth(4), seed).unwrap();
        // View::new panics on overlap or a cell off the grid.
        let view = View::new(&plan);
        for room in &plan.rooms {
            *shapes.entry(room.shape.name()).or_default() += 1;
        }
        let boss = view.of_kind(RoomKind::Boss)[0];
        if plan.rooms[boss].shape != Shape::Single {
            large_bosses += 1;
        }
        // Every room is reached through doors alone.
        let mut reached = BTreeSet::from([0]);
        let doors = plan.doors();
        loop {
            let before = reached.len();
            for d in &doors {
                assert_ne!(d.a, d.b);
                assert_eq!(plan.room_at(d.a_cell), Some(d.a));
                assert_eq!(
                    plan.room_at(d.b_cell),
                    Some(d.b),
                    "seed {seed}: a door into nothing"
                );
                if reached.contains(&d.a) || reached.contains(&d.b) {
                    reached.insert(d.a);
                    reached.insert(d.b);
                }
            }
            if reached.len() == before {
                break;
            }
        }
        assert_eq!(
            reached.len(),
            plan.rooms.len(),
            "seed {seed}: a room without a door"
        );
        // No narrow room has a door on its long side.
        for d in &doors {
            for (r, side) in [(d.a, d.side), (d.b, d.side.opposite())] {
                assert!(
                    plan.rooms[r].shape.door_side(side),
                    "seed {seed}: door in a narrow room's wall"
                );
            }
        }
    }
    eprintln!(
        "Rebirth level 4 shapes over {} floors: {shapes:?}; large boss rooms: {large_bosses}",
        seeds()
    );
    for shape in Shape::LARGE {
        assert!(
            shapes.get(shape.name()).copied().unwrap_or(0) > 0,
            "{} never placed",
            shape.name()
        );
    }
    assert!(large_bosses > 0);
}

#[test]
fn bundled_isaac_levels_pass_the_level_checks_and_repeat_by_seed() {
    let project = dungeonflow::Project::bundled();
    let names = ["isaac", "isaac_rebirth", "isaac_labyrinth"];
    for name in names {
        for seed in 0..suite::seeds(2_000) {
            let level = project
                .generate(name, seed)
                .unwrap_or_else(|d| panic!("{name} {seed}: {d:?}"));
            level
                .check()
                .unwrap_or_else(|e| panic!("{name} {seed}: {e}"));
            assert_eq!(level.generator, "isaac");
            assert_eq!(level.rooms[0].category, "entrance");
            // Every door tile belongs to a connection.
            let on_paths: BTreeSet<[i32; 2]> = level
                .connections
                .iter()
                .flat_map(|c| c.path.iter().copied())
                .collect();
            for y in 0..level.height {
                for x in 0..level.width {
                    if level.tile(x, y) == dungeonflow::level::TileKind::Door {
                        assert!(
                            on_paths.contains(&[x, y]),
                            "{name} {seed}: stray door at ({x}, {y})"
                        );
                    }
                }
            }
            if seed % 100 == 0 {
                assert_eq!(
                    project.generate(name, seed).unwrap(),
                    level,
                    "{name} {seed}: not repeatable"
                );
                let minimap = dungeonflow::render::render_minimap(&level).unwrap();
                let rows = (level.height / dungeonflow::internals::isaac::CELL_HEIGHT) as usize;
                let marked: String = minimap.lines().skip(1).take(rows).collect();
                assert_eq!(marked.matches('S').count(), 1, "{name} {seed}: {minimap}");
                assert!(
                    marked.contains('B') && marked.contains('?') && marked.contains('!'),
                    "{name} {seed}: {minimap}"
                );
            }
        }
    }
}

#[test]
fn a_floor_out_of_attempts_says_why() {
    let p = rebirth(1);
    // Rebirth's first floor needs 5 dead ends from 8 or 9 rooms, so many
    // first tries fail.
    let seed = (0..1_000)
        .find(|&s| dungeonflow::internals::isaac::plan_within(&p, s, 1).is_err())
        .expect("a seed whose first try fails");
    let failure = dungeonflow::internals::isaac::plan_within(&p, seed, 1).unwrap_err();
    assert_eq!(failure.attempts, 1);
    assert_eq!(failure.reasons.values().sum::<u32>(), 1);
    assert!(plan(&p, seed).unwrap().restarts >= 1);

    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("first.yaml");
    std::fs::write(
        &path,
        "name: first\ngenerator: isaac\nparams: { level: 1, variant: rebirth }\n",
    )
    .unwrap();
    let project = dungeonflow::Project::load(&[path]);
    let flow = project.flow("first").unwrap();
    let Err(d) = dungeonflow::internals::isaac::floor(&p, flow, seed, 1) else {
        panic!("one attempt should not be enough for seed {seed}");
    };
    assert_eq!(d.code, "isaac::no-floor");
    insta::assert_snapshot!(
        d.render(false)
            .replace(&dir.path().display().to_string(), "<dir>")
    );
}
