//! Generates many seeds of a flow on every core (plain threads, no extra
//! crate) and reports how many laid out and the spread of their sizes: what
//! a game does to pre-bake levels or to check a flow it authored.
//!
//! `cargo run --release --example many_seeds -- [FLOW] [SEEDS]` (default:
//! `classic`, 200).

use std::sync::atomic::{AtomicU64, Ordering};

use dungeonflow::Project;

fn main() {
    let mut args = std::env::args().skip(1);
    let flow = args.next().unwrap_or_else(|| "classic".to_owned());
    let seeds: u64 = args.next().and_then(|s| s.parse().ok()).unwrap_or(200);
    let project = Project::bundled();
    let next = AtomicU64::new(0);
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    // Each thread takes the next seed until none is left; the same seed
    // gives the same level whichever thread draws it.
    let results: Vec<(u64, Result<usize, String>)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| {
                    let mut out = Vec::new();
                    loop {
                        let seed = next.fetch_add(1, Ordering::Relaxed);
                        if seed >= seeds {
                            return out;
                        }
                        let result = project
                            .generate(&flow, seed)
                            .map(|level| level.rooms.len())
                            .map_err(|e| e.diagnostics().first().map_or("", |d| d.code).to_owned());
                        out.push((seed, result));
                    }
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().expect("a worker"))
            .collect()
    });
    let mut rooms: Vec<usize> = results.iter().filter_map(|(_, r)| r.clone().ok()).collect();
    rooms.sort_unstable();
    let failed: Vec<&(u64, Result<usize, String>)> =
        results.iter().filter(|(_, r)| r.is_err()).collect();
    println!(
        "{flow}: {} of {seeds} seeds laid out on {threads} threads",
        rooms.len()
    );
    if let (Some(min), Some(max)) = (rooms.first(), rooms.last()) {
        println!(
            "rooms per level: {min} to {max}, median {}",
            rooms[rooms.len() / 2]
        );
    }
    for (seed, error) in failed.iter().take(5) {
        println!(
            "seed {seed}: {}",
            error.as_ref().err().map_or("", String::as_str)
        );
    }
}
