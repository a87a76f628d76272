//! Batch statistics over many seeds of one flow: success rate, failure
//! reasons, time per level, and level measures (keys, locks, the solver's
//! critical path and backtracking among them).

use std::collections::BTreeMap;
use std::time::Instant;

#[cfg(feature = "parallel")]
use rayon::prelude::*;
use serde::Serialize;

use crate::flow::Flow;
use crate::generate::generate_with;
use crate::layout::ShapeTable;
use crate::level::ConnectionKind;
use crate::puzzle::{Puzzle, analyse};
use crate::rooms::RoomLibrary;

/// Distribution summary of one measure.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Summary {
    /// Smallest value.
    pub min: f64,
    /// Median.
    pub median: f64,
    /// 99th percentile.
    pub p99: f64,
    /// Largest value.
    pub max: f64,
    /// Mean.
    pub mean: f64,
}

impl Summary {
    /// Summarises `values` (empty gives zeros).
    pub fn of(mut values: Vec<f64>) -> Summary {
        if values.is_empty() {
            return Summary::default();
        }
        values.sort_by(f64::total_cmp);
        let at = |q: f64| values[((values.len() - 1) as f64 * q).round() as usize];
        Summary {
            min: values[0],
            median: at(0.5),
            p99: at(0.99),
            max: values[values.len() - 1],
            mean: values.iter().sum::<f64>() / values.len() as f64,
        }
    }
}

/// What `dungeonflow stats` reports.
#[derive(Clone, Debug, Serialize)]
pub struct Stats {
    /// Flow name.
    pub flow: String,
    /// Seeds run.
    pub seeds: u64,
    /// Levels generated.
    pub succeeded: u64,
    /// Failure reasons (the diagnostic's message without the seed) by count.
    pub failures: BTreeMap<String, u64>,
    /// Milliseconds per level (successful ones).
    pub time_ms: Summary,
    /// Rooms per level.
    pub rooms: Summary,
    /// Share of connections realised as direct doors.
    pub direct_door_share: Summary,
    /// Corridor tiles per level.
    pub corridor_tiles: Summary,
    /// Longest corridor of each level, in tiles.
    pub longest_corridor: Summary,
    /// Map area (width x height).
    pub area: Summary,
    /// Share of the map's area covered by rooms and corridors.
    pub fill: Summary,
    /// Rooms with one connection (not counting the entrance).
    pub dead_ends: Summary,
    /// Connections on the shortest path from the entrance to the boss (or exit).
    pub critical_path: Summary,
    /// Layout attempts used.
    pub attempts: Summary,
    /// Levels the solver's independent re-check (on the laid-out level)
    /// found solvable (`generate` refuses unsolvable ones, so this equals
    /// `succeeded`).
    pub solvable: u64,
    /// Keys per level.
    pub keys: Summary,
    /// Locked doors per level.
    pub locks: Summary,
    /// Rooms entered by the solver's walkthrough, from the entrance through
    /// every key to the goal (revisits counted).
    pub key_path: Summary,
    /// Rooms the walkthrough enters again (backtracking).
    pub backtracking: Summary,
    /// Locked doors that can be walked around.
    pub bypassed_locks: Summary,
}

/// Measures of one generated level.
struct Sample {
    ms: f64,
    rooms: f64,
    doors: f64,
    corridor: f64,
    longest: f64,
    area: f64,
    fill: f64,
    dead_ends: f64,
    critical: f64,
    attempts: f64,
    solvable: bool,
    keys: f64,
    locks: f64,
    key_path: f64,
    backtracking: f64,
    bypassed: f64,
}

/// Generates seeds `0..seeds` of `flow` (in parallel with the `parallel`
/// feature) and summarises them.
pub fn run(flow: &Flow, library: &RoomLibrary, seeds: u64, progress: &(dyn Fn() + Sync)) -> Stats {
    let table = ShapeTable::new(library);
    #[cfg(feature = "parallel")]
    let all = (0..seeds).into_par_iter();
    #[cfg(not(feature = "parallel"))]
    let all = 0..seeds;
    let results: Vec<Result<Sample, String>> = all
        .map(|seed| {
            let start = Instant::now();
            let out = generate_with(flow, library, &table, seed, &Default::default());
            let ms = start.elapsed().as_secs_f64() * 1000.0;
            progress();
            match out {
                Ok(g) => Ok(sample(&g, ms)),
                Err(d) => Err(d.message.replace(&format!(" (seed {seed})"), "")),
            }
        })
        .collect();
    let mut failures = BTreeMap::new();
    let mut ok = Vec::new();
    for r in results {
        match r {
            Ok(s) => ok.push(s),
            Err(m) => *failures.entry(m).or_insert(0) += 1,
        }
    }
    let pick = |f: fn(&Sample) -> f64| Summary::of(ok.iter().map(f).collect());
    Stats {
        flow: flow.name.value.clone(),
        seeds,
        succeeded: ok.len() as u64,
        failures,
        time_ms: pick(|s| s.ms),
        rooms: pick(|s| s.rooms),
        direct_door_share: pick(|s| s.doors),
        corridor_tiles: pick(|s| s.corridor),
        longest_corridor: pick(|s| s.longest),
        area: pick(|s| s.area),
        fill: pick(|s| s.fill),
        dead_ends: pick(|s| s.dead_ends),
        critical_path: pick(|s| s.critical),
        attempts: pick(|s| s.attempts),
        solvable: ok.iter().filter(|s| s.solvable).count() as u64,
        keys: pick(|s| s.keys),
        locks: pick(|s| s.locks),
        key_path: pick(|s| s.key_path),
        backtracking: pick(|s| s.backtracking),
        bypassed_locks: pick(|s| s.bypassed),
    }
}

fn sample(g: &crate::generate::Generated, ms: f64) -> Sample {
    let level = &g.level;
    // Re-solved from the laid-out level rather than taken from `g.analysis`,
    // so the batch re-checks what a game would load.
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
    let area = f64::from(level.width * level.height);
    let used = level
        .tiles
        .iter()
        .filter(|t| **t != crate::level::TileKind::Void)
        .count() as f64;
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
    Sample {
        ms,
        rooms: level.rooms.len() as f64,
        doors: if physical.is_empty() {
            1.0
        } else {
            doors as f64 / physical.len() as f64
        },
        corridor: corridors.iter().sum::<usize>() as f64,
        longest: corridors.iter().copied().max().unwrap_or(0) as f64,
        area,
        fill: if area > 0.0 { used / area } else { 0.0 },
        dead_ends: dead_ends as f64,
        critical: critical_path(level) as f64,
        attempts: f64::from(g.attempts),
        solvable: puzzle.solvable,
        keys: puzzle.keys as f64,
        locks: puzzle.locks as f64,
        key_path: walk.map_or(0.0, |w| w.length as f64),
        backtracking: walk.map_or(0.0, |w| w.backtracking as f64),
        bypassed: puzzle.bypasses.len() as f64,
    }
}

/// Connections on the shortest walk from the first room to the boss (or the
/// exit, or the farthest room), one-way doors honoured.
pub fn critical_path(level: &crate::level::Level) -> usize {
    let dist = level.steps_from_entrance();
    let goal = ["boss", "exit"]
        .iter()
        .find_map(|c| level.rooms.iter().position(|r| r.category == *c));
    match goal.and_then(|g| dist[g]) {
        Some(d) => d,
        None => dist.iter().flatten().copied().max().unwrap_or(0),
    }
}
