//! `dungeonflow bake FLOW --seeds A..B [--shard K/N] [-o DIR | --format jsonl]`:
//! a deterministic slice of a large batch, for any cluster runner to fan
//! out. Every seed gives one record (JSON Lines); levels go to a folder or
//! into the records. A failed seed is a record, not an exit code.

use std::collections::BTreeSet;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use rayon::prelude::*;
use sha2::{Digest, Sha256};

use super::common::{ProjectArgs, flag_set, pick_flow};
use crate::diag::Diagnostic;
use crate::flow::Flow;
use crate::generate::{Options, generate_with};
use crate::layout::ShapeTable;
use crate::level::Level;
use crate::render::{Format, RenderOptions, write_atomic, write_rendered};
use crate::rooms::RoomLibrary;
use crate::stats::{Failure, Filter, Measures, RECORD_FORMAT, Record, RecordLine};

/// Most shards a run may be cut into.
pub const MAX_SHARDS: u64 = 1_000_000;

/// Most seeds one run (one shard) takes: a run is a slice of work for one
/// machine, and a billion levels already take days.
pub const MAX_RUN_SEEDS: u64 = 1_000_000_000;

/// Seeds generated between two writes of the records, per thread.
const CHUNK_PER_THREAD: usize = 16;

/// What `bake` writes: JSON Lines on stdout, or one file per level.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BakeFormat {
    /// One JSON record per seed on stdout.
    Jsonl,
    /// Level files as `generate` writes them (with `-o DIR`).
    Level(Format),
}

impl BakeFormat {
    fn level_format(self) -> Option<Format> {
        match self {
            BakeFormat::Jsonl => None,
            BakeFormat::Level(format) => Some(format),
        }
    }
}

fn parse_format(text: &str) -> Result<BakeFormat, String> {
    if text.eq_ignore_ascii_case("jsonl") {
        return Ok(BakeFormat::Jsonl);
    }
    <Format as clap::ValueEnum>::from_str(text, true)
        .map(BakeFormat::Level)
        .map_err(|_| {
            let levels: Vec<String> = <Format as clap::ValueEnum>::value_variants()
                .iter()
                .filter_map(|f| clap::ValueEnum::to_possible_value(f).map(|v| v.get_name().to_owned()))
                .collect();
            format!(
                "`{text}` is not a format: jsonl (records on stdout) or a level format for -o DIR: {}",
                levels.join(", ")
            )
        })
}

/// Arguments of `bake`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// A bundled flow's name or a flow file.
    flow: String,
    /// The seeds: `A..B` (A up to B, B left out) or `A..=B`.
    #[arg(long, value_parser = parse_seeds, value_name = "A..B")]
    seeds: (u64, u64),
    /// Only the seeds of shard K of N (0-based): those whose value modulo N
    /// is K, so the shards of any N together make the whole range.
    #[arg(long, value_parser = parse_shard, value_name = "K/N", default_value = "0/1")]
    shard: (u64, u64),
    /// Write one level file per seed into this folder (made if missing),
    /// with the records beside them; a re-run skips the seeds recorded there.
    #[arg(short, long, value_name = "DIR")]
    output: Option<PathBuf>,
    /// `jsonl` (the default without -o) or the format of the level files
    /// (the default with -o: json).
    #[arg(long, value_parser = parse_format, value_name = "FORMAT")]
    format: Option<BakeFormat>,
    /// Keep only the levels that meet a condition on their measures, e.g.
    /// 'rooms >= 20 && direct_doors >= 0.9 && solvable'.
    #[arg(long = "where", value_name = "CONDITION")]
    condition: Option<String>,
    /// Put each kept level (the JSON contract) into its record (stdout only).
    #[arg(long)]
    levels: bool,
    /// Record each seed's time in milliseconds (records then differ from
    /// run to run).
    #[arg(long)]
    timings: bool,
    /// A prerequisite flag for injections (repeatable).
    #[arg(long = "flag", value_name = "NAME")]
    flags: Vec<String>,
    /// Worker threads, 1 to 256 (default: all cores).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=super::stats::MAX_THREADS))]
    threads: Option<u64>,
    #[command(flatten)]
    project: ProjectArgs,
}

fn parse_seeds(text: &str) -> Result<(u64, u64), String> {
    let usage = || format!("`{text}` is not a seed range: write A..B (B left out) or A..=B");
    let (a, b, inclusive) = match text.split_once("..=") {
        Some((a, b)) => (a, b, true),
        None => {
            let (a, b) = text.split_once("..").ok_or_else(usage)?;
            (a, b, false)
        }
    };
    let a: u64 = a.trim().parse().map_err(|_| usage())?;
    let b: u64 = b.trim().parse().map_err(|_| usage())?;
    let end = if inclusive {
        b.checked_add(1).ok_or_else(|| {
            format!(
                "`{text}`: a range ends at {} at most; write A..{} for the last seeds",
                u64::MAX,
                u64::MAX
            )
        })?
    } else {
        b
    };
    if end <= a {
        return Err(format!(
            "`{text}` holds no seed: the end must be past the start"
        ));
    }
    Ok((a, end))
}

fn parse_shard(text: &str) -> Result<(u64, u64), String> {
    let usage = || format!("`{text}` is not a shard: write K/N with 0 <= K < N, as 3/8");
    let (k, n) = text.split_once('/').ok_or_else(usage)?;
    let k: u64 = k.trim().parse().map_err(|_| usage())?;
    let n: u64 = n.trim().parse().map_err(|_| usage())?;
    if n == 0 || k >= n {
        return Err(usage());
    }
    if n > MAX_SHARDS {
        return Err(format!("`{text}`: at most {MAX_SHARDS} shards"));
    }
    Ok((k, n))
}

/// Bakes the seeds of the shard and writes their records and levels.
pub fn run(args: &Args) -> Result<ExitCode, Vec<Diagnostic>> {
    let format = args.format.unwrap_or(if args.output.is_some() {
        BakeFormat::Level(Format::Json)
    } else {
        BakeFormat::Jsonl
    });
    let misuse = |message: &str, help: &str| {
        Err(vec![
            Diagnostic::error("bake::bad-arguments", message.to_owned()).help(help.to_owned()),
        ])
    };
    match (&args.output, format.level_format()) {
        (Some(_), None) => {
            return misuse(
                "`--format jsonl` writes the records to standard output, not to a folder",
                "leave out -o DIR, or pick a level format for the folder's files (json, png, svg, ascii, tiled, tmx)",
            );
        }
        (None, Some(_)) => {
            return misuse(
                "level files need a folder",
                "give -o DIR, or use `--format jsonl` (with --levels to put each level in its record)",
            );
        }
        _ => {}
    }
    if args.levels && args.output.is_some() {
        return misuse(
            "`--levels` puts levels into the records on standard output; with -o DIR they are files",
            "leave out --levels, or -o DIR",
        );
    }
    let filter = match &args.condition {
        Some(text) => Some(Filter::parse(text).map_err(|d| vec![d])?),
        None => None,
    };
    let project = args.project.load(Some(&args.flow))?;
    let flow = pick_flow(&project, Some(&args.flow))?;
    let options = Options {
        flags: flag_set(&args.flags),
        ..Default::default()
    };
    let baker = Baker {
        flow,
        library: &project.library,
        table: ShapeTable::new(&project.library),
        inputs: inputs_hash(flow, &project.library, &options.flags),
        options,
        filter,
        timings: args.timings,
        levels: args.levels,
        files: args.output.clone().zip(format.level_format()),
    };
    let pool = super::common::thread_pool(args.threads)?;
    let (k, n) = args.shard;
    let (a, b) = args.seeds;
    // The first seed of the range in the shard (none past the end), then
    // every N-th.
    let first = a
        .checked_add((k + n - a % n) % n)
        .filter(|first| *first < b);
    let count = first.map_or(0, |f| (b - f).div_ceil(n));
    if count > MAX_RUN_SEEDS {
        return Err(vec![
            Diagnostic::error(
                "bake::too-many-seeds",
                format!("this run has {count} seeds; one run takes at most {MAX_RUN_SEEDS}"),
            )
            .help("cut the range into more shards (--shard K/N) or smaller ranges"),
        ]);
    }
    let mut sink = match &args.output {
        Some(dir) => Sink::folder(dir, &flow.name.value, args.shard)?,
        None => Sink::Stdout,
    };
    let mut all = first.into_iter().flat_map(|f| (f..b).step_by(n as usize));
    let show = std::io::stdout().is_terminal() && std::io::stderr().is_terminal();
    let bar = show.then(|| indicatif::ProgressBar::new(count));
    let mut tally = Tally::default();
    let (mut baked_seeds, mut already) = (0u64, 0u64);
    let chunk = CHUNK_PER_THREAD * pool.current_num_threads().max(1);
    loop {
        let mut seeds = Vec::with_capacity(chunk);
        for seed in all.by_ref() {
            if sink.has(seed) {
                already += 1;
                continue;
            }
            seeds.push(seed);
            if seeds.len() == chunk {
                break;
            }
        }
        if seeds.is_empty() {
            break;
        }
        let baked: Vec<Baked> = pool.install(|| {
            seeds
                .par_iter()
                .map(|&seed| baker.bake(seed))
                .collect::<Result<_, _>>()
        })?;
        for one in &baked {
            tally.count(&one.record);
        }
        match &bar {
            Some(bar) => bar.suspend(|| sink.write(&baked))?,
            None => sink.write(&baked)?,
        }
        baked_seeds += seeds.len() as u64;
        if let Some(bar) = &bar {
            bar.set_position(baked_seeds + already);
        }
    }
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    sink.finish()?;
    let shard = if n > 1 {
        format!(", shard {k}/{n}")
    } else {
        String::new()
    };
    super::out::stderr(&format!(
        "baked `{}` seeds {a}..{b}{shard}: {} seeds, {} levels ({} kept), {} failed; {already} already recorded\n",
        flow.name.value, baked_seeds, tally.levels, tally.kept, tally.failed,
    ));
    Ok(ExitCode::SUCCESS)
}

/// What stays the same for every seed of a run.
struct Baker<'a> {
    flow: &'a Flow,
    library: &'a RoomLibrary,
    table: ShapeTable,
    inputs: String,
    options: Options,
    filter: Option<Filter>,
    timings: bool,
    levels: bool,
    /// The folder of the level files and their format (`-o DIR`).
    files: Option<(PathBuf, Format)>,
}

/// One seed's record, with its level when it is kept and wanted.
struct Baked {
    record: Record,
    level: Option<Level>,
}

impl Baker<'_> {
    fn bake(&self, seed: u64) -> Result<Baked, Vec<Diagnostic>> {
        let start = Instant::now();
        let out = generate_with(self.flow, self.library, &self.table, seed, &self.options);
        let ms = start.elapsed().as_secs_f64() * 1000.0;
        let mut record = Record {
            format: RECORD_FORMAT.to_owned(),
            flow: self.flow.name.value.clone(),
            seed,
            version: env!("CARGO_PKG_VERSION").to_owned(),
            inputs: self.inputs.clone(),
            ok: false,
            kept: false,
            measures: None,
            failure: None,
            time_ms: self.timings.then_some(ms),
        };
        let generated = match out {
            Ok(g) => g,
            Err(d) => {
                record.failure = Some(Failure::of(&d));
                return Ok(Baked {
                    record,
                    level: None,
                });
            }
        };
        let measures = Measures::of(&generated);
        record.ok = true;
        record.kept = self.filter.as_ref().is_none_or(|f| f.keeps(&measures));
        record.measures = Some(measures);
        let kept = record.kept;
        // The level file is on disk before its record is written, so a
        // recorded seed always has its file. Files are written by the
        // workers, in parallel (each waits for its disk sync).
        if let (Some((dir, format)), true) = (&self.files, kept) {
            let name = level_file_name(&record.flow, seed, *format);
            let rendered = format
                .render(&generated.level, &RenderOptions::default(), &name)
                .map_err(|d| vec![d])?;
            write_rendered(&dir.join(name), &rendered).map_err(|d| vec![d])?;
        }
        Ok(Baked {
            record,
            level: (kept && self.levels).then_some(generated.level),
        })
    }
}

/// `FLOW-SEED.EXT`, the flow's name made safe for a file name.
fn level_file_name(flow: &str, seed: u64, format: Format) -> String {
    format!("{}-{seed}.{}", safe_name(flow), format.extension())
}

fn safe_name(flow: &str) -> String {
    flow.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// A hash of what a level is made from: the flow file, every room file of
/// the library and the flags. Each file is hashed by its content alone (not
/// its path, which differs between machines), and the file hashes are
/// sorted, so the same files give the same hash everywhere.
fn inputs_hash(flow: &Flow, library: &RoomLibrary, flags: &BTreeSet<String>) -> String {
    let mut files: Vec<[u8; 32]> = Vec::new();
    let mut seen = BTreeSet::new();
    let mut add = |name: &str, text: &str| {
        if seen.insert(name.to_owned()) {
            files.push(Sha256::digest(text.as_bytes()).into());
        }
    };
    for t in library.templates() {
        add(&t.origin.file.name, &t.origin.file.text);
    }
    files.sort_unstable();
    let mut all = Sha256::new();
    all.update(b"flow\0");
    all.update(Sha256::digest(flow.file.text.as_bytes()));
    all.update(b"rooms\0");
    for f in &files {
        all.update(f);
    }
    all.update(b"flags\0");
    for flag in flags {
        all.update(flag.as_bytes());
        all.update(b"\0");
    }
    let digest = all.finalize();
    let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
    format!("sha256:{hex}")
}

#[derive(Default)]
struct Tally {
    levels: u64,
    kept: u64,
    failed: u64,
}

impl Tally {
    fn count(&mut self, r: &Record) {
        self.levels += u64::from(r.ok);
        self.kept += u64::from(r.kept);
        self.failed += u64::from(!r.ok);
    }
}

/// Where the records and levels go.
enum Sink {
    Stdout,
    Folder {
        /// This shard's records file.
        records: PathBuf,
        /// The records already in it and those written since.
        written: Vec<Record>,
        /// Seeds recorded in any records file of the flow in the folder.
        done: BTreeSet<u64>,
    },
}

impl Sink {
    /// The folder `dir` (made if missing) with the records already there.
    fn folder(dir: &Path, flow: &str, (k, n): (u64, u64)) -> Result<Sink, Vec<Diagnostic>> {
        let io = |what: &str, e: std::io::Error| {
            vec![Diagnostic::error(
                "io::write-failed",
                format!("cannot {what} `{}`: {e}", dir.display()),
            )]
        };
        std::fs::create_dir_all(dir).map_err(|e| io("make the folder", e))?;
        let stem = safe_name(flow);
        let records = dir.join(if n == 1 {
            format!("{stem}.jsonl")
        } else {
            format!("{stem}.shard-{k}-of-{n}.jsonl")
        });
        let mut done = BTreeSet::new();
        let mut written = Vec::new();
        for entry in std::fs::read_dir(dir).map_err(|e| io("read the folder", e))? {
            let path = entry.map_err(|e| io("read the folder", e))?.path();
            let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
            let ours = name == format!("{stem}.jsonl")
                || name.starts_with(&format!("{stem}.shard-")) && name.ends_with(".jsonl");
            if !ours {
                continue;
            }
            let found = super::records::read(&path).map_err(|d| vec![d])?;
            done.extend(found.iter().filter(|r| r.flow == flow).map(|r| r.seed));
            if path == records {
                written = found;
            }
        }
        if records.exists() {
            // Drop a line a run cut short left half-written.
            write_atomic(&records, lines(&written).as_bytes()).map_err(|d| vec![d])?;
        }
        Ok(Sink::Folder {
            records,
            written,
            done,
        })
    }

    /// Whether `seed` is recorded already.
    fn has(&self, seed: u64) -> bool {
        match self {
            Sink::Stdout => false,
            Sink::Folder { done, .. } => done.contains(&seed),
        }
    }

    fn write(&mut self, baked: &[Baked]) -> Result<(), Vec<Diagnostic>> {
        match self {
            Sink::Stdout => super::out::stdout(jsonl(baked.iter().map(|b| RecordLine {
                record: &b.record,
                level: b.level.as_ref(),
            }))),
            Sink::Folder {
                records, written, ..
            } => {
                // Whole lines, appended once the chunk's levels are on disk.
                let new: Vec<Record> = baked.iter().map(|b| b.record.clone()).collect();
                append(records, &lines(&new)).map_err(|e| {
                    vec![Diagnostic::error(
                        "io::write-failed",
                        format!("cannot append to `{}`: {e}", records.display()),
                    )]
                })?;
                written.extend(new);
                Ok(())
            }
        }
    }

    /// Rewrites the records file (atomically) in seed order.
    fn finish(self) -> Result<(), Vec<Diagnostic>> {
        if let Sink::Folder {
            records,
            mut written,
            ..
        } = self
        {
            written.sort_by_key(|r| r.seed);
            written.dedup_by_key(|r| r.seed);
            write_atomic(&records, lines(&written).as_bytes()).map_err(|d| vec![d])?;
        }
        Ok(())
    }
}

/// `lines` as JSON Lines, each ended by a newline.
fn jsonl<'a>(lines: impl Iterator<Item = RecordLine<'a>>) -> String {
    lines.map(|line| line.to_json() + "\n").collect()
}

/// `records`, without levels, as JSON Lines.
fn lines(records: &[Record]) -> String {
    jsonl(records.iter().map(|record| RecordLine {
        record,
        level: None,
    }))
}

fn append(path: &Path, text: &str) -> std::io::Result<()> {
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)?;
    file.write_all(text.as_bytes())?;
    file.flush()
}
