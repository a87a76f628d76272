//! Layout generality on graph families the engine was not tuned on
//! (`tests/support/families.rs`): first a report of every family (levels
//! laid out, refused up front, failed; median time; direct doors; corridor
//! tiles per room), then criterion's time per level for a few families.
//!
//! `cargo bench --bench families` runs both. `FAMILIES_GRAPHS` (default 10)
//! graphs per family and `FAMILIES_SEEDS` (default 10) seeds per graph set
//! the report's size; `FAMILIES_BASE` (default 1) the first graph seed, so
//! a run on fresh graphs is `FAMILIES_BASE=1000 cargo bench --bench
//! families`. `FAMILIES_MAX_ROOMS=N` leaves out the families of more rooms;
//! `FAMILIES_ONLY=TEXT` keeps the families whose label contains `TEXT`
//! (e.g. `binary`); `FAMILIES_REPORT_ONLY=1` skips criterion; `FAMILIES_DUMP=DIR`
//! only writes each family's first graph to `DIR` as a flow file.

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::Criterion;
use dungeonflow::SourceFile;
use dungeonflow::internals::generate::generate_with;
use dungeonflow::internals::layout::ShapeTable;
use dungeonflow::internals::project::{FileKind, Project, Source, bundled_sources};
use dungeonflow::level::ConnectionKind;
use rayon::prelude::*;

#[path = "../tests/support/families.rs"]
mod families;
use families::Family;

/// The allocator the `dungeonflow` binary uses.
#[cfg(feature = "mimalloc")]
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// The families of the report, smallest first.
fn report_families() -> Vec<Family> {
    use Family::*;
    vec![
        TreeLoops {
            rooms: 20,
            loops: 3,
        },
        TreeLoops {
            rooms: 30,
            loops: 2,
        },
        TreeLoops {
            rooms: 30,
            loops: 5,
        },
        Tree { rooms: 45 },
        TreeLoops {
            rooms: 45,
            loops: 3,
        },
        TreeLoops {
            rooms: 45,
            loops: 5,
        },
        Tree { rooms: 60 },
        TreeLoops {
            rooms: 60,
            loops: 5,
        },
        Tree { rooms: 100 },
        UniformTree { rooms: 100 },
        TreeLoops {
            rooms: 100,
            loops: 10,
        },
        Theta {
            paths: 3,
            length: 4,
        },
        LoopGrid {
            width: 3,
            height: 2,
        },
        LoopGrid {
            width: 4,
            height: 4,
        },
        RingChords {
            rooms: 16,
            chords: 3,
        },
        RingChords {
            rooms: 24,
            chords: 5,
        },
        Cactus { cycles: 6 },
        Cactus { cycles: 12 },
        BinaryTree { depth: 7 },
        BinaryTree { depth: 8 },
        BushyTree { rooms: 100 },
        Tree { rooms: 300 },
        UniformTree { rooms: 300 },
        BushyTree { rooms: 300 },
        TreeLoops {
            rooms: 300,
            loops: 10,
        },
        BinaryTree { depth: 10 },
        Tree { rooms: 1000 },
        UniformTree { rooms: 1000 },
        BushyTree { rooms: 1000 },
        BinaryTree { depth: 11 },
        Tree { rooms: 2000 },
    ]
}

fn env(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// The bundled rooms plus the family's graph `graph` as a flow.
fn project(rooms: &[Source], family: Family, graph: u64) -> Project {
    Project::from_layers(vec![
        rooms.to_vec(),
        vec![Source {
            file: SourceFile::new("family.yaml", family.flow(graph)),
            kind: FileKind::Flow,
            bundled: false,
        }],
    ])
}

/// What one seed of one graph gave.
enum Outcome {
    Refused(String),
    Failed(String),
    Laid {
        time: Duration,
        doors: f64,
        corridor_per_room: f64,
    },
}

fn run(rooms: &[Source], family: Family, graph: u64, seeds: u64) -> Vec<Outcome> {
    let project = project(rooms, family, graph);
    let name = format!("family_{graph}");
    if project.has_errors() {
        let why = project
            .diagnostics
            .iter()
            .find(|d| d.is_error())
            .map(|d| d.code.to_owned())
            .unwrap_or_default();
        return (0..seeds).map(|_| Outcome::Refused(why.clone())).collect();
    }
    let flow = project.flow(&name).expect("the family's flow");
    let table = ShapeTable::new(&project.library);
    (0..seeds)
        .into_par_iter()
        .map(|seed| {
            let start = Instant::now();
            match generate_with(flow, &project.library, &table, seed, &Default::default()) {
                Ok(g) => {
                    let level = &g.level;
                    let doors = level
                        .connections
                        .iter()
                        .filter(|c| c.kind == ConnectionKind::Door)
                        .count();
                    let corridor: usize = level
                        .connections
                        .iter()
                        .filter(|c| c.kind == ConnectionKind::Corridor)
                        .map(|c| c.path.len())
                        .sum();
                    Outcome::Laid {
                        time: start.elapsed(),
                        doors: doors as f64 / level.connections.len().max(1) as f64,
                        corridor_per_room: corridor as f64 / level.rooms.len() as f64,
                    }
                }
                Err(d) if d.code.starts_with("layout::") => Outcome::Failed(d.code.to_owned()),
                Err(d) => Outcome::Refused(d.code.to_owned()),
            }
        })
        .collect()
}

fn median(mut v: Vec<f64>) -> f64 {
    if v.is_empty() {
        return f64::NAN;
    }
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn report(rooms: &[Source]) {
    let graphs = env("FAMILIES_GRAPHS", 10);
    let seeds = env("FAMILIES_SEEDS", 10);
    let base = env("FAMILIES_BASE", 1);
    println!(
        "families: {graphs} graphs (seeds {base}..) x {seeds} seeds each, release build, {} threads",
        rayon::current_num_threads()
    );
    println!(
        "| family | laid out | refused | failed | median ms | direct doors | corridor tiles/room |"
    );
    println!("|---|---|---|---|---|---|---|");
    let largest = env("FAMILIES_MAX_ROOMS", u64::MAX);
    let only = std::env::var("FAMILIES_ONLY").unwrap_or_default();
    for family in report_families() {
        if family.graph(base).rooms as u64 > largest || !family.label().contains(&only) {
            continue;
        }
        let outcomes: Vec<Outcome> = (base..base + graphs)
            .flat_map(|g| run(rooms, family, g, seeds))
            .collect();
        let total = outcomes.len();
        let (mut laid, mut refused, mut failed) = (Vec::new(), 0, 0);
        let mut codes = std::collections::BTreeMap::new();
        for o in outcomes {
            match o {
                Outcome::Laid {
                    time,
                    doors,
                    corridor_per_room,
                } => laid.push((time.as_secs_f64() * 1e3, doors, corridor_per_room)),
                Outcome::Refused(c) => {
                    refused += 1;
                    *codes.entry(c).or_insert(0) += 1;
                }
                Outcome::Failed(c) => {
                    failed += 1;
                    *codes.entry(c).or_insert(0) += 1;
                }
            }
        }
        println!(
            "| {} | {:.1}% ({}/{total}) | {refused} | {failed} | {:.1} | {:.3} | {:.2} | {}",
            family.label(),
            laid.len() as f64 * 100.0 / total as f64,
            laid.len(),
            median(laid.iter().map(|l| l.0).collect()),
            median(laid.iter().map(|l| l.1).collect()),
            median(laid.iter().map(|l| l.2).collect()),
            codes
                .iter()
                .map(|(c, n)| format!("{c} x{n}"))
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
}

fn timing(c: &mut Criterion, rooms: &[Source]) {
    use Family::*;
    let mut group = c.benchmark_group("families");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(10));
    for family in [
        TreeLoops {
            rooms: 45,
            loops: 3,
        },
        Tree { rooms: 100 },
        TreeLoops {
            rooms: 100,
            loops: 10,
        },
        BinaryTree { depth: 8 },
        Tree { rooms: 1000 },
    ] {
        let project = project(rooms, family, 1);
        if project.has_errors() {
            continue;
        }
        let flow = project.flow("family_1").expect("flow");
        let table = ShapeTable::new(&project.library);
        let mut seed = 0;
        group.bench_function(family.label(), |b| {
            b.iter(|| {
                seed += 1;
                black_box(
                    generate_with(flow, &project.library, &table, seed, &Default::default()).ok(),
                )
            })
        });
    }
    group.finish();
}

fn main() {
    let rooms: Vec<Source> = bundled_sources()
        .into_iter()
        .filter(|s| s.kind == FileKind::Room)
        .collect();
    if let Ok(dir) = std::env::var("FAMILIES_DUMP") {
        // Writes the first graph of each family as a flow file, to try with
        // the command line.
        std::fs::create_dir_all(&dir).expect("dump directory created");
        for family in report_families() {
            let path = std::path::Path::new(&dir).join(format!("{}.yaml", family.label()));
            std::fs::write(&path, family.flow(env("FAMILIES_BASE", 1))).expect("written");
        }
        return;
    }
    report(&rooms);
    if env("FAMILIES_REPORT_ONLY", 0) == 0 {
        let mut c = Criterion::default().configure_from_args();
        timing(&mut c, &rooms);
        c.final_summary();
    }
}
