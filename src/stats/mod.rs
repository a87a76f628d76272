//! Batch statistics over many seeds of one flow: success rate, failure
//! reasons, time per level, and level measures (keys, locks, the solver's
//! critical path and backtracking among them); the records `bake` writes
//! for each seed, and the filter it keeps levels by.

use std::collections::BTreeMap;
use std::time::Instant;

#[cfg(feature = "parallel")]
use rayon::prelude::*;
use serde::Serialize;

mod filter;
mod measures;
mod record;

pub use filter::Filter;
pub use measures::Measures;
pub use record::{Failure, RECORD_FORMAT, Record, RecordLine};

use crate::flow::Flow;
use crate::generate::generate_with;
use crate::layout::ShapeTable;
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
    /// Milliseconds per level (successful ones), when they were timed
    /// (records of `bake` carry no time unless baked with `--timings`).
    pub time_ms: Option<Summary>,
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

/// What became of one seed: its level's measures or the reason it failed
/// (the diagnostic's message without the seed), with the milliseconds it
/// took when they were measured.
pub struct Outcome {
    /// The measures, or the failure reason.
    pub result: Result<Measures, String>,
    /// Milliseconds, when timed.
    pub ms: Option<f64>,
}

impl Outcome {
    /// The outcome a bake record describes.
    pub fn of_record(record: &Record) -> Outcome {
        Outcome {
            result: match (&record.measures, &record.failure) {
                (Some(m), _) => Ok(m.clone()),
                (None, Some(f)) => Err(f.reason(record.seed)),
                (None, None) => Err("no level and no reason recorded".to_owned()),
            },
            ms: record.time_ms,
        }
    }
}

/// Generates seeds `0..seeds` of `flow` (in parallel with the `parallel`
/// feature) and summarises them.
pub fn run(flow: &Flow, library: &RoomLibrary, seeds: u64, progress: &(dyn Fn() + Sync)) -> Stats {
    let table = ShapeTable::new(library);
    #[cfg(feature = "parallel")]
    let all = (0..seeds).into_par_iter();
    #[cfg(not(feature = "parallel"))]
    let all = 0..seeds;
    let outcomes: Vec<Outcome> = all
        .map(|seed| {
            let start = Instant::now();
            let out = generate_with(flow, library, &table, seed, &Default::default());
            let ms = start.elapsed().as_secs_f64() * 1000.0;
            progress();
            Outcome {
                result: match out {
                    Ok(g) => Ok(Measures::of(&g)),
                    Err(d) => Err(Failure::of(&d).reason(seed)),
                },
                ms: Some(ms),
            }
        })
        .collect();
    Stats::of(&flow.name.value, &outcomes)
}

impl Stats {
    /// Summarises the outcomes of the seeds of flow `flow`. The time is
    /// summarised over the successful seeds that were timed (`None` when
    /// none was).
    pub fn of(flow: &str, outcomes: &[Outcome]) -> Stats {
        let mut failures = BTreeMap::new();
        let mut ok = Vec::new();
        let mut times = Vec::new();
        for o in outcomes {
            match &o.result {
                Ok(m) => {
                    ok.push(m);
                    times.extend(o.ms);
                }
                Err(reason) => *failures.entry(reason.clone()).or_insert(0) += 1,
            }
        }
        let pick = |f: fn(&Measures) -> f64| Summary::of(ok.iter().map(|m| f(m)).collect());
        Stats {
            flow: flow.to_owned(),
            seeds: outcomes.len() as u64,
            succeeded: ok.len() as u64,
            failures,
            time_ms: (!times.is_empty()).then(|| Summary::of(times)),
            rooms: pick(|m| f64::from(m.rooms)),
            direct_door_share: pick(|m| m.direct_doors),
            corridor_tiles: pick(|m| f64::from(m.corridor_tiles)),
            longest_corridor: pick(|m| f64::from(m.longest_corridor)),
            area: pick(|m| f64::from(m.area)),
            fill: pick(|m| m.fill),
            dead_ends: pick(|m| f64::from(m.dead_ends)),
            critical_path: pick(|m| f64::from(m.critical_path)),
            attempts: pick(|m| f64::from(m.attempts)),
            solvable: ok.iter().filter(|m| m.solvable).count() as u64,
            keys: pick(|m| f64::from(m.keys)),
            locks: pick(|m| f64::from(m.locks)),
            key_path: pick(|m| f64::from(m.key_path)),
            backtracking: pick(|m| f64::from(m.backtracking)),
            bypassed_locks: pick(|m| f64::from(m.bypassed_locks)),
        }
    }
}
