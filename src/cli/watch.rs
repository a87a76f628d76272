//! `dungeonflow watch [PATHS...] FLOW -o FILE [--seed N] [--poll]`: writes
//! the level again whenever a flow or room file changes, for a designer who
//! keeps the picture open beside the editor.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender, channel};
use std::time::{Duration, Instant};

use notify::{Config, Event, PollWatcher, RecommendedWatcher, RecursiveMode, Watcher};

use super::common::{ProjectArgs, flag_set, pick_flow};
use crate::diag::Diagnostic;
use crate::render::{Format, RenderOptions};

/// How long to wait for a burst of file events (an editor's save writes
/// several) to end before generating again.
const SETTLE: Duration = Duration::from_millis(150);

/// How often the polling watcher looks at the files.
const POLL_EVERY: Duration = Duration::from_millis(500);

/// Arguments of `watch`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Flow and room files or folders to load and watch (added to `-p`,
    /// `./flows` and `./rooms`), then the flow: a name or a flow file.
    #[arg(value_name = "PATHS", num_args = 0.., required = true)]
    paths_and_flow: Vec<String>,
    /// The output file (atomically replaced each time); its extension
    /// picks the format unless --format names one.
    #[arg(short, long)]
    output: PathBuf,
    /// Output format (default: from the extension of `-o`).
    #[arg(long, value_enum)]
    format: Option<Format>,
    /// The seed (default: a random one, printed, kept for the whole session).
    #[arg(long)]
    seed: Option<u64>,
    /// A prerequisite flag for injections (repeatable).
    #[arg(long = "flag", value_name = "NAME")]
    flags: Vec<String>,
    /// Write room ids on the map (ASCII, PNG, SVG).
    #[arg(long)]
    labels: bool,
    /// Pixels per tile in a PNG (and the size of an SVG).
    #[arg(long, default_value_t = 12, value_parser = clap::value_parser!(u32).range(1..=64))]
    scale: u32,
    /// Look at the files every half second instead of waiting for file
    /// events (for network mounts and containers, where events may not
    /// arrive). Used anyway when the system's file events are unavailable.
    #[arg(long)]
    poll: bool,
    #[command(flatten)]
    project: ProjectArgs,
}

/// Generates once, then again after every change, until interrupted.
pub fn run(args: &Args) -> Result<ExitCode, Vec<Diagnostic>> {
    let (flow, extra) = args
        .paths_and_flow
        .split_last()
        .expect("clap requires the flow");
    let format = match args.format {
        Some(f) => f,
        None => Format::for_output(&args.output)
            .map_err(|d| vec![d])?
            .unwrap_or(Format::Ascii),
    };
    let mut project_args = args.project.clone();
    project_args.paths.extend(extra.iter().map(PathBuf::from));
    let seed = args.seed.unwrap_or_else(super::generate::random_seed);
    let session = Session {
        project: project_args,
        flow: flow.clone(),
        output: args.output.clone(),
        format,
        seed,
        flags: args.flags.clone(),
        render: RenderOptions {
            labels: args.labels,
            scale: args.scale,
            graph: false,
        },
    };
    let (tx, rx) = channel();
    let watched = session.watched_paths();
    let _watcher = start_watching(&watched, args.poll, tx)?;
    super::out::stderr(&format!(
        "watching {} (seed {seed}); Ctrl-C stops\n",
        if watched.is_empty() {
            "nothing".to_owned()
        } else {
            watched
                .iter()
                .map(|p| p.display().to_string())
                .collect::<Vec<_>>()
                .join(", ")
        }
    ));
    let mut run = 1;
    session.generate_once(run);
    while wait_for_change(&rx) {
        run += 1;
        session.generate_once(run);
    }
    Ok(ExitCode::SUCCESS)
}

/// A watcher of `paths` (folders recursively) sending its events to `tx`:
/// the system's file events, or polling when `poll` is asked or events are
/// unavailable. Watching stops when it is dropped.
pub(super) fn start_watching(
    paths: &[PathBuf],
    poll: bool,
    tx: Sender<notify::Result<Event>>,
) -> Result<Box<dyn Watcher + Send>, Vec<Diagnostic>> {
    let mut watcher: Box<dyn Watcher + Send> = match (
        poll,
        RecommendedWatcher::new(tx.clone(), Config::default()),
    ) {
        (false, Ok(w)) => Box::new(w),
        (asked, made) => {
            if let (false, Err(e)) = (asked, made) {
                super::out::stderr(&format!(
                    "note: file events are unavailable ({e}); looking at the files every {} ms\n",
                    POLL_EVERY.as_millis()
                ));
            }
            let config = Config::default()
                .with_poll_interval(POLL_EVERY)
                .with_compare_contents(true);
            Box::new(PollWatcher::new(tx, config).map_err(|e| {
                vec![Diagnostic::error(
                    "watch::unavailable",
                    format!("cannot watch files: {e}"),
                )]
            })?)
        }
    };
    if paths.is_empty() {
        super::out::stderr(
            "note: nothing to watch: give the flow or room files or folders (or run in a project folder with flows/ or rooms/)\n",
        );
    }
    for path in paths {
        let mode = if path.is_dir() {
            RecursiveMode::Recursive
        } else {
            RecursiveMode::NonRecursive
        };
        watcher.watch(path, mode).map_err(|e| {
            vec![Diagnostic::error(
                "watch::unavailable",
                format!("cannot watch `{}`: {e}", path.display()),
            )]
        })?;
    }
    Ok(watcher)
}

/// The folders and files of a project (and the flow file, when `flow` is
/// one) a change in which calls for a new level.
pub(super) fn watched_paths(project: &ProjectArgs, flow: Option<&str>) -> Vec<PathBuf> {
    let mut paths = super::common::project_paths(&project.paths);
    if let Some(flow) = flow
        && Path::new(flow).is_file()
    {
        paths.push(PathBuf::from(flow));
    }
    if let Some(dir) = paths.iter().find_map(|p| p.is_dir().then_some(p.clone()))
        && let Some(parent) = dir.parent()
    {
        // The project file (`dungeonflow.yaml`) beside `flows/`.
        let file = parent.join(crate::project::PROJECT_FILE);
        if file.is_file() {
            paths.push(file);
        }
    }
    paths.retain(|p| p.exists());
    paths.sort();
    paths.dedup();
    paths
}

/// Blocks until a flow or room file changes and the burst of events has
/// settled; false when the watcher is gone.
pub(super) fn wait_for_change(rx: &Receiver<notify::Result<Event>>) -> bool {
    loop {
        match rx.recv() {
            Ok(event) if touches_yaml(&event) => break,
            Ok(_) => continue,
            Err(_) => return false,
        }
    }
    let mut last = Instant::now();
    loop {
        match rx.recv_timeout(SETTLE.saturating_sub(last.elapsed())) {
            Ok(_) => last = Instant::now(),
            Err(RecvTimeoutError::Timeout) => return true,
            Err(RecvTimeoutError::Disconnected) => return false,
        }
    }
}

/// Whether an event is about a YAML file: the output (which may sit in a
/// watched folder) and editors' temporary files do not count.
fn touches_yaml(event: &notify::Result<Event>) -> bool {
    let Ok(event) = event else {
        return true;
    };
    !event.kind.is_access()
        && event
            .paths
            .iter()
            .any(|p| matches!(p.extension().and_then(|e| e.to_str()), Some("yaml" | "yml")))
}

/// What every run generates.
struct Session {
    project: ProjectArgs,
    flow: String,
    output: PathBuf,
    format: Format,
    seed: u64,
    flags: Vec<String>,
    render: RenderOptions,
}

impl Session {
    /// The folders and files a change in which calls for a new level.
    fn watched_paths(&self) -> Vec<PathBuf> {
        watched_paths(&self.project, Some(&self.flow))
    }

    /// Loads the project, generates and writes the level, and prints what
    /// happened: the level's one-line summary or the diagnostics.
    fn generate_once(&self, run: u32) {
        match self.try_once() {
            Ok(summary) => super::out::stderr(&format!("[{run}] {summary}\n")),
            Err(diags) => {
                super::out::stderr(&format!(
                    "[{run}] no level ({} problem{}); {} left as it was\n",
                    diags.len(),
                    if diags.len() == 1 { "" } else { "s" },
                    self.output.display()
                ));
                super::report(&diags);
            }
        }
    }

    fn try_once(&self) -> Result<String, Vec<Diagnostic>> {
        let project = self.project.load(Some(&self.flow))?;
        // A mistake in any file (say a room being edited) is shown, and the
        // last good level stays, as a compiler keeps the last good build.
        project.check().map_err(|e| e.diagnostics().to_vec())?;
        let flow = pick_flow(&project, Some(&self.flow))?;
        let options = crate::generate::Options {
            flags: flag_set(&self.flags),
            ..Default::default()
        };
        let generated = crate::generate::generate(flow, &project.library, self.seed, &options)
            .map_err(|d| vec![d])?;
        let name = self
            .output
            .file_name()
            .map_or("level".into(), |n| n.to_string_lossy().into_owned());
        let rendered = self
            .format
            .render(&generated.level, &self.render, &name)
            .map_err(|d| vec![d])?;
        super::out::write_project_output(&project, &self.output, &rendered).map_err(|d| vec![d])?;
        let level = &generated.level;
        let measures = crate::stats::Measures::of(&generated);
        Ok(format!(
            "wrote {}: flow `{}` seed {}, {} rooms, {}x{} tiles, {:.0}% direct doors, {} attempt{}",
            self.output.display(),
            flow.name.value,
            self.seed,
            level.rooms.len(),
            level.width,
            level.height,
            100.0 * measures.direct_doors,
            generated.attempts,
            if generated.attempts == 1 { "" } else { "s" }
        ))
    }
}
