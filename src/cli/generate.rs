//! `dungeonflow generate [FLOW] [--seed N] [--flag NAME]... [--format F] [-o FILE]`.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;

use super::common::{ProjectArgs, flag_set, pick_flow};
use crate::diag::Diagnostic;
use crate::render::{Format, RenderOptions};

/// Arguments of `generate`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// A bundled flow's name or a flow file (default: the bundled `classic`).
    flow: Option<String>,
    /// The seed (default: a random one, printed so the level can be reproduced).
    #[arg(long)]
    seed: Option<u64>,
    /// A prerequisite flag for injections (repeatable).
    #[arg(long = "flag", value_name = "NAME")]
    flags: Vec<String>,
    /// Output format (default: from the extension of `-o`, else ascii).
    #[arg(long, value_enum)]
    format: Option<Format>,
    /// Write to this file (atomically) instead of stdout.
    #[arg(short, long)]
    output: Option<PathBuf>,
    /// Write room ids on the map (ASCII, PNG, SVG).
    #[arg(long)]
    labels: bool,
    /// Pixels per tile in a PNG (and the size of an SVG).
    #[arg(long, default_value_t = 12, value_parser = clap::value_parser!(u32).range(1..=64))]
    scale: u32,
    /// Draw the flow graph over an SVG.
    #[arg(long)]
    graph: bool,
    /// Print the solver's walkthrough (critical path, keys, locks,
    /// backtracking) after the level: on stdout after an ASCII level or when
    /// the level goes to a file (`-o`), on stderr when stdout carries JSON,
    /// SVG or PNG.
    #[arg(long)]
    solve: bool,
    #[command(flatten)]
    project: ProjectArgs,
}

/// Generates one level and prints or writes it.
pub fn run(args: &Args) -> Result<ExitCode, Vec<Diagnostic>> {
    // An output the tool cannot write is refused before any work.
    let by_extension = match (args.format, args.output.as_deref()) {
        (None, Some(path)) => Format::for_output(path).map_err(|d| vec![d])?,
        _ => None,
    };
    let format = args.format.or(by_extension).unwrap_or(Format::Ascii);
    let project = args.project.load(args.flow.as_deref())?;
    let flow = pick_flow(&project, args.flow.as_deref())?;
    let seed = args.seed.unwrap_or_else(random_seed);
    let generation = crate::generate::Options {
        flags: flag_set(&args.flags),
        ..Default::default()
    };
    let generated = crate::generate::generate(flow, &project.library, seed, &generation)
        .map_err(|d| vec![d])?;
    let options = RenderOptions {
        labels: args.labels,
        scale: args.scale,
        graph: args.graph,
    };
    let file_name = args
        .output
        .as_ref()
        .and_then(|p| p.file_name())
        .map_or("level".into(), |n| n.to_string_lossy().into_owned());
    let rendered = format
        .render(&generated.level, &options, &file_name)
        .map_err(|d| vec![d])?;
    let mut machine_on_stdout = false;
    match &args.output {
        Some(path) => {
            super::out::write_project_output(&project, path, &rendered).map_err(|d| vec![d])?;
            super::out::stderr(&format!(
                "wrote {} (flow `{}`, seed {seed})\n",
                path.display(),
                flow.name.value
            ));
        }
        None if format.has_companions() => {
            return Err(vec![
                Diagnostic::error(
                    "cli::needs-file",
                    "a Tiled map comes with a tileset image and needs -o FILE.tmj",
                )
                .help("for example: -o level.tmj (writes level.tmj and level.tileset.png)"),
            ]);
        }
        None if !format.is_text() && std::io::stdout().is_terminal() => {
            return Err(vec![
                Diagnostic::error(
                    "cli::binary-output",
                    format!("{format:?} output is binary and stdout is a terminal"),
                )
                .help("pass -o FILE (the format then also follows its extension)"),
            ]);
        }
        None => {
            machine_on_stdout = !matches!(format, Format::Ascii | Format::Minimap);
            super::out::stdout(&rendered.main)?;
        }
    }
    if args.solve {
        let report = generated
            .analysis
            .report(&super::solve::title(&generated.level));
        if machine_on_stdout {
            super::out::stderr(&report);
        } else {
            super::out::stdout(report)?;
        }
    }
    if args.seed.is_none() {
        super::out::stderr(&format!(
            "seed: {seed} (pass --seed {seed} to get this level again)\n"
        ));
    }
    Ok(ExitCode::SUCCESS)
}

/// A seed from the operating system's randomness (only when none is given;
/// generation itself never reads time or global randomness).
pub(super) fn random_seed() -> u64 {
    use std::hash::{BuildHasher, RandomState};
    RandomState::new().hash_one(0x5eed_u64) % 1_000_000
}
