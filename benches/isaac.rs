//! Isaac floors per second: the cell plan alone (what the public JavaScript
//! demo of the original algorithm makes, about 1.4 ms a floor) and the whole
//! level (plan and tiles). Each iteration uses the next seed.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use dungeonflow::internals::flow::{IsaacParams, IsaacVariant};
use dungeonflow::internals::isaac::{plan, rasterise};

/// The allocator the `dungeonflow` binary uses.
#[cfg(feature = "mimalloc")]
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn floors() -> [(&'static str, IsaacParams); 4] {
    let p = |level, variant, labyrinth| IsaacParams {
        level,
        variant,
        labyrinth,
        ..IsaacParams::default()
    };
    [
        ("original_level_1", p(1, IsaacVariant::Original, false)),
        ("original_level_4", p(4, IsaacVariant::Original, false)),
        ("rebirth_level_3", p(3, IsaacVariant::Rebirth, false)),
        ("labyrinth_level_3", p(3, IsaacVariant::Original, true)),
    ]
}

fn isaac(c: &mut Criterion) {
    let mut group = c.benchmark_group("isaac_plan");
    for (name, params) in floors() {
        let mut seed = 0;
        group.bench_function(name, |b| {
            b.iter(|| {
                seed += 1;
                black_box(plan(&params, seed).ok())
            })
        });
    }
    group.finish();
    let mut group = c.benchmark_group("isaac_level");
    for (name, params) in floors() {
        let mut seed = 0;
        group.bench_function(name, |b| {
            b.iter(|| {
                seed += 1;
                black_box(plan(&params, seed).ok().map(|p| rasterise(&p, name, seed)))
            })
        });
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(50).measurement_time(Duration::from_secs(3)).warm_up_time(Duration::from_secs(1));
    targets = isaac
}

criterion_main!(benches);
