//! Benchmarks: expansion and whole-level generation of every bundled flow,
//! Edgar's published inputs (when `../shared/bench/edgar` is present),
//! generated graphs of 50 to 1000 rooms, and the scatter generator. Each iteration uses the next seed,
//! so the figures are per level over a spread of seeds.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use dungeonflow::SourceFile;
use dungeonflow::internals::expand::expand;
use dungeonflow::internals::flow::Generator;
use dungeonflow::internals::generate::generate_with;
use dungeonflow::internals::layout::ShapeTable;
use dungeonflow::internals::project::{FileKind, Project, Source, bundled_sources};

#[path = "../tests/support/scaling.rs"]
mod scaling;
use scaling::{Loops, scaling_flow};

#[path = "../tests/support/families.rs"]
#[allow(dead_code)] // the bench uses one family
mod families;
use families::Family;

/// The allocator the `dungeonflow` binary uses.
#[cfg(feature = "mimalloc")]
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn bundled(c: &mut Criterion) {
    let project = Project::bundled();
    let table = ShapeTable::new(&project.library);
    let mut group = c.benchmark_group("expand");
    for (name, flow) in project.flows.iter().filter(|(_, f)| f.graph().is_some()) {
        let mut seed = 0;
        group.bench_function(name.as_str(), |b| {
            b.iter(|| {
                seed += 1;
                black_box(expand(flow, &project.library, seed, &Default::default()).ok())
            })
        });
    }
    group.finish();
    let mut group = c.benchmark_group("generate");
    for (name, flow) in project.flows.iter().filter(|(_, f)| f.graph().is_some()) {
        let mut seed = 0;
        group.bench_function(name.as_str(), |b| {
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

fn edgar(c: &mut Criterion) {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/bench/edgar");
    if !dir.is_dir() {
        return;
    }
    let read = |p: std::path::PathBuf| {
        SourceFile::new(
            p.display().to_string(),
            std::fs::read_to_string(&p).expect("readable"),
        )
    };
    let sets: Vec<_> = ["thesis_basic", "thesis_advanced"]
        .iter()
        .map(|s| read(dir.join(format!("rooms/{s}.yml"))))
        .collect();
    let mut group = c.benchmark_group("edgar");
    for input in [
        "example1_basic",
        "example2_basic",
        "example3_basic",
        "game2_basic",
        "dragonAge",
        "generating_one_layout",
        "backtracking",
    ] {
        let imported = dungeonflow::internals::edgar::import_with(
            &read(dir.join(format!("graphs/{input}.yml"))),
            &sets,
            false,
        )
        .expect("imports");
        let project = Project::from_layers(vec![vec![
            Source {
                file: SourceFile::new("rooms.yaml", imported.rooms),
                kind: FileKind::Room,
                bundled: false,
            },
            Source {
                file: SourceFile::new("flow.yaml", imported.flow),
                kind: FileKind::Flow,
                bundled: false,
            },
        ]]);
        let flow = project.flow(input).expect("flow");
        let table = ShapeTable::new(&project.library);
        let mut seed = 0;
        group.bench_function(input, |b| {
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

fn scaling(c: &mut Criterion) {
    let rooms: Vec<Source> = bundled_sources()
        .into_iter()
        .filter(|s| s.kind == FileKind::Room)
        .collect();
    let mut group = c.benchmark_group("scaling");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(20));
    let families = [
        (Loops::Overlapping, ""),
        (Loops::RoomDisjoint, "disjoint_loops_"),
    ];
    for (n, (loops, family)) in [50, 100, 200, 500, 1000]
        .into_iter()
        .flat_map(|n| families.map(|f| (n, f)))
    {
        let flow = scaling_flow(n, n as u64, loops);
        let project = Project::from_layers(vec![
            rooms.clone(),
            vec![Source {
                file: SourceFile::new("scale.yaml", flow),
                kind: FileKind::Flow,
                bundled: false,
            }],
        ]);
        assert!(
            !project.has_errors(),
            "{:?}",
            project.diagnostics.first().map(|d| &d.message)
        );
        let flow = project.flow(&format!("scale{n}")).expect("flow");
        let table = ShapeTable::new(&project.library);
        let mut seed = 0;
        group.bench_function(format!("{family}{n}_rooms"), |b| {
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

/// Every output format of one level of 1,000 rooms (a random tree of
/// `tests/support/families.rs`), with labels and the flow graph where the
/// format draws them.
fn render(c: &mut Criterion) {
    use dungeonflow::render::{Format, RenderOptions};
    let rooms: Vec<Source> = bundled_sources()
        .into_iter()
        .filter(|s| s.kind == FileKind::Room)
        .collect();
    let project = Project::from_layers(vec![
        rooms,
        vec![Source {
            file: SourceFile::new("tree.yaml", Family::Tree { rooms: 1000 }.flow(1)),
            kind: FileKind::Flow,
            bundled: false,
        }],
    ]);
    let flow = project.flow("family_1").expect("flow");
    let table = ShapeTable::new(&project.library);
    let level = (1..100)
        .find_map(|seed| {
            generate_with(flow, &project.library, &table, seed, &Default::default()).ok()
        })
        .expect("a seed lays out")
        .level;
    let options = RenderOptions {
        labels: true,
        scale: 4,
        graph: true,
    };
    let mut group = c.benchmark_group("render_1000_rooms");
    group.sample_size(10);
    for format in [
        Format::Ascii,
        Format::Json,
        Format::Svg,
        Format::Png,
        Format::Tiled,
    ] {
        group.bench_function(format!("{format:?}").to_lowercase(), |b| {
            b.iter(|| black_box(format.render(&level, &options, "level").ok()))
        });
    }
    group.finish();
}

/// The bundled `scatter` flow: one level of 150 spawned rooms per iteration.
fn scatter(c: &mut Criterion) {
    let project = Project::bundled();
    let flow = project.flow("scatter").expect("bundled scatter flow");
    match &flow.generator {
        Generator::Scatter(p) => assert_eq!(p.rooms, 150, "the bench measures 150 rooms"),
        other => panic!("`scatter` runs {}", other.name()),
    }
    let table = ShapeTable::new(&project.library);
    let mut group = c.benchmark_group("scatter");
    let mut seed = 0;
    group.bench_function("150_rooms", |b| {
        b.iter(|| {
            seed += 1;
            black_box(generate_with(flow, &project.library, &table, seed, &Default::default()).ok())
        })
    });
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(50).measurement_time(Duration::from_secs(5)).warm_up_time(Duration::from_secs(1));
    targets = bundled, edgar, scaling, scatter, render
}

criterion_main!(benches);
