//! The measures of one generated level, as `stats` summarises them, `bake`
//! records them and `bake --where` filters on them.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::generate::Generated;
use crate::level::{ConnectionKind, Level, TileKind};
use crate::puzzle::{Puzzle, analyse};

/// Measures of one level. Counts are whole numbers; `direct_doors` and
/// `fill` are shares from 0 to 1.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Measures {
    /// Rooms.
    pub rooms: u32,
    /// Share of the physical connections (not warps) that are direct doors.
    pub direct_doors: f64,
    /// Corridor tiles.
    pub corridor_tiles: u32,
    /// Longest corridor, in tiles.
    pub longest_corridor: u32,
    /// Map area (width x height).
    pub area: u32,
    /// Share of the map's area covered by rooms and corridors.
    pub fill: f64,
    /// Rooms with one connection (not counting the entrance).
    pub dead_ends: u32,
    /// Connections on the shortest walk from the entrance to the boss (or
    /// the exit, or the farthest room).
    pub critical_path: u32,
    /// Layout attempts used.
    pub attempts: u32,
    /// Whether the solver, run again on the laid-out level, finds it
    /// solvable (`generate` refuses unsolvable levels, so always true).
    pub solvable: bool,
    /// Keys.
    pub keys: u32,
    /// Locked doors.
    pub locks: u32,
    /// Rooms entered by the solver's walkthrough, from the entrance through
    /// every key to the goal (revisits counted).
    pub key_path: u32,
    /// Rooms the walkthrough enters again.
    pub backtracking: u32,
    /// Locked doors that can be walked around.
    pub bypassed_locks: u32,
}

/// A measure's value, for filters.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Value {
    /// A count or a share.
    Number(f64),
    /// A yes/no measure.
    Bool(bool),
}

impl Measures {
    /// The names of the measures, in the order of the JSON record.
    pub const NAMES: [&'static str; 15] = [
        "rooms",
        "direct_doors",
        "corridor_tiles",
        "longest_corridor",
        "area",
        "fill",
        "dead_ends",
        "critical_path",
        "attempts",
        "solvable",
        "keys",
        "locks",
        "key_path",
        "backtracking",
        "bypassed_locks",
    ];

    /// Measures `generated`. The solver runs again on the laid-out level
    /// rather than trusting the generator's analysis, so a batch re-checks
    /// what a game would load.
    pub fn of(generated: &Generated) -> Measures {
        let level = &generated.level;
        let puzzle = analyse(&Puzzle::from_level(level));
        let walk = puzzle.solution.as_ref();
        let physical: Vec<_> = level
            .connections
            .iter()
            .filter(|c| c.kind != ConnectionKind::Warp)
            .collect();
        let doors = physical
            .iter()
            .filter(|c| c.kind == ConnectionKind::Door)
            .count();
        let corridors: Vec<usize> = physical
            .iter()
            .filter(|c| c.kind == ConnectionKind::Corridor)
            .map(|c| c.path.len().saturating_sub(2))
            .collect();
        let area = (level.width.max(0) * level.height.max(0)) as u32;
        let used = level.tiles.iter().filter(|t| **t != TileKind::Void).count();
        let mut degree: BTreeMap<&str, usize> = BTreeMap::new();
        for c in &level.connections {
            *degree.entry(c.from.as_str()).or_default() += 1;
            *degree.entry(c.to.as_str()).or_default() += 1;
        }
        let dead_ends = level
            .rooms
            .iter()
            .skip(1)
            .filter(|r| degree.get(r.id.as_str()) == Some(&1))
            .count();
        let count = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
        Measures {
            rooms: count(level.rooms.len()),
            direct_doors: if physical.is_empty() {
                1.0
            } else {
                doors as f64 / physical.len() as f64
            },
            corridor_tiles: count(corridors.iter().sum()),
            longest_corridor: count(corridors.iter().copied().max().unwrap_or(0)),
            area,
            fill: if area > 0 {
                used as f64 / f64::from(area)
            } else {
                0.0
            },
            dead_ends: count(dead_ends),
            critical_path: count(critical_path(level)),
            attempts: generated.attempts,
            solvable: puzzle.solvable,
            keys: count(puzzle.keys),
            locks: count(puzzle.locks),
            key_path: count(walk.map_or(0, |w| w.length)),
            backtracking: count(walk.map_or(0, |w| w.backtracking)),
            bypassed_locks: count(puzzle.bypasses.len()),
        }
    }

    /// The measure called `name` (one of [`Measures::NAMES`]).
    pub fn value(&self, name: &str) -> Option<Value> {
        let n = |v: u32| Some(Value::Number(f64::from(v)));
        match name {
            "rooms" => n(self.rooms),
            "direct_doors" => Some(Value::Number(self.direct_doors)),
            "corridor_tiles" => n(self.corridor_tiles),
            "longest_corridor" => n(self.longest_corridor),
            "area" => n(self.area),
            "fill" => Some(Value::Number(self.fill)),
            "dead_ends" => n(self.dead_ends),
            "critical_path" => n(self.critical_path),
            "attempts" => n(self.attempts),
            "solvable" => Some(Value::Bool(self.solvable)),
            "keys" => n(self.keys),
            "locks" => n(self.locks),
            "key_path" => n(self.key_path),
            "backtracking" => n(self.backtracking),
            "bypassed_locks" => n(self.bypassed_locks),
            _ => None,
        }
    }
}

/// Connections on the shortest walk from the first room to the boss (or the
/// exit, or the farthest room), one-way doors honoured.
fn critical_path(level: &Level) -> usize {
    let dist = level.steps_from_entrance();
    let goal = ["boss", "exit"]
        .iter()
        .find_map(|c| level.rooms.iter().position(|r| r.category == *c));
    match goal.and_then(|g| dist[g]) {
        Some(d) => d,
        None => dist.iter().flatten().copied().max().unwrap_or(0),
    }
}
