//! `dungeonflow stats FLOW --seeds N [--threads T] [--json]`, or
//! `dungeonflow stats [FLOW] --from FILE.jsonl...` to merge the records of
//! `bake` runs (shards) into the same report. Exits 1 when no seed lays out
//! (the report then says "no level").

use std::process::ExitCode;
use std::sync::atomic::{AtomicU64, Ordering};

use super::common::{ProjectArgs, pick_flow};
use crate::diag::Diagnostic;
use crate::stats::{Stats, Summary};

/// Most seeds one `stats` run takes: every seed's measures are kept for
/// the medians (about 120 bytes each), and a million levels of a few
/// milliseconds already take an hour or more.
pub const MAX_SEEDS: u64 = 1_000_000;

/// Most worker threads `stats` starts.
pub const MAX_THREADS: u64 = 256;

/// Arguments of `stats`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// A bundled flow's name or a flow file (with `--from`: the flow whose
    /// records to keep, when the files hold several).
    #[arg(required_unless_present = "from")]
    flow: Option<String>,
    /// Merge the JSON Lines records of `bake` runs instead of generating
    /// (a seed recorded twice counts once).
    #[arg(long, num_args = 1.., value_name = "FILE.jsonl")]
    from: Vec<std::path::PathBuf>,
    /// Seeds to run (0..N), 1 to 1,000,000.
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..=MAX_SEEDS))]
    seeds: u64,
    /// Worker threads, 1 to 256 (default: all cores).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=MAX_THREADS))]
    threads: Option<u64>,
    /// Print JSON instead of a table.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    project: ProjectArgs,
}

/// Runs the batch and prints the report.
pub fn run(args: &Args) -> Result<ExitCode, Vec<Diagnostic>> {
    let stats = if args.from.is_empty() {
        generated(args)?
    } else {
        super::records::merge(&args.from, args.flow.as_deref())?
    };
    if args.json {
        super::out::stdout(serde_json::to_string_pretty(&stats).unwrap_or_default() + "\n")?;
    } else {
        super::out::stdout(table(&stats))?;
    }
    // No level at all: nothing was measured, and a script must not take
    // the run for a success.
    Ok(if stats.succeeded == 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}

/// The report of seeds `0..N` generated now.
fn generated(args: &Args) -> Result<Stats, Vec<Diagnostic>> {
    let name = args.flow.as_deref();
    let project = args.project.load(name)?;
    let flow = pick_flow(&project, name)?;
    let pool = super::common::thread_pool(args.threads)?;
    let done = AtomicU64::new(0);
    let bar = std::io::IsTerminal::is_terminal(&std::io::stderr())
        .then(|| indicatif::ProgressBar::new(args.seeds));
    let tick = || {
        done.fetch_add(1, Ordering::Relaxed);
        if let Some(b) = &bar {
            b.inc(1);
        }
    };
    let stats = pool.install(|| crate::stats::run(flow, &project.library, args.seeds, &tick));
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    Ok(stats)
}

fn table(s: &Stats) -> String {
    let mut out = format!(
        "flow `{}`: {} of {} seeds laid out ({:.2}%)\n",
        s.flow,
        s.succeeded,
        s.seeds,
        100.0 * s.succeeded as f64 / s.seeds.max(1) as f64
    );
    for (reason, n) in &s.failures {
        out += &format!("  {n:>6} x {reason}\n");
    }
    if s.succeeded == 0 {
        out += "no level: nothing to measure\n";
        return out;
    }
    out += &format!(
        "solvable: {} of {} levels ({:.2}%)\n",
        s.solvable,
        s.succeeded,
        100.0 * s.solvable as f64 / s.succeeded.max(1) as f64
    );
    out += &format!(
        "{:<22}{:>10}{:>10}{:>10}{:>10}{:>10}\n",
        "", "min", "median", "p99", "max", "mean"
    );
    let row = |name: &str, m: &Summary| {
        format!(
            "{name:<22}{:>10.2}{:>10.2}{:>10.2}{:>10.2}{:>10.2}\n",
            m.min, m.median, m.p99, m.max, m.mean
        )
    };
    match &s.time_ms {
        Some(m) => out += &row("time per level (ms)", m),
        None => out += "time per level (ms)   not recorded (bake with --timings)\n",
    }
    for (name, m) in [
        ("rooms", &s.rooms),
        ("direct door share", &s.direct_door_share),
        ("corridor tiles", &s.corridor_tiles),
        ("longest corridor", &s.longest_corridor),
        ("map area", &s.area),
        ("fill ratio", &s.fill),
        ("dead ends", &s.dead_ends),
        ("critical path", &s.critical_path),
        ("layout attempts", &s.attempts),
        ("keys", &s.keys),
        ("locks", &s.locks),
        ("path with keys", &s.key_path),
        ("backtracking", &s.backtracking),
        ("bypassed locks", &s.bypassed_locks),
    ] {
        out += &row(name, m);
    }
    out
}
