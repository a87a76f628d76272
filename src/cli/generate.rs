//! `dungeonflow generate [FLOW] [--seed N] [--flag NAME]... [--format ascii|json] [-o FILE]`.

use std::path::PathBuf;
use std::process::ExitCode;

use super::common::{ProjectArgs, flag_set, pick_flow};
use crate::diag::Diagnostic;
use crate::render::{render_ascii, write_atomic};

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
    /// Write room ids on the ASCII map.
    #[arg(long)]
    labels: bool,
    #[command(flatten)]
    project: ProjectArgs,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum Format {
    Ascii,
    Json,
}

/// Generates one level and prints or writes it.
pub fn run(args: &Args) -> Result<ExitCode, Vec<Diagnostic>> {
    let project = args.project.load(args.flow.as_deref());
    let flow = pick_flow(&project, args.flow.as_deref())?;
    let seed = args.seed.unwrap_or_else(random_seed);
    let generated = crate::generate::generate(flow, &project.library, seed, &flag_set(&args.flags))
        .map_err(|d| vec![d])?;
    let format = args.format.unwrap_or(
        match args
            .output
            .as_ref()
            .and_then(|p| p.extension())
            .and_then(|e| e.to_str())
        {
            Some("json") => Format::Json,
            _ => Format::Ascii,
        },
    );
    let text = match format {
        Format::Ascii => render_ascii(&generated.level, args.labels),
        Format::Json => serde_json::to_string_pretty(&generated.level).unwrap_or_default() + "\n",
    };
    match &args.output {
        Some(path) => {
            write_atomic(path, text.as_bytes()).map_err(|d| vec![d])?;
            eprintln!(
                "wrote {} (flow `{}`, seed {seed})",
                path.display(),
                flow.name.value
            );
        }
        None => print!("{text}"),
    }
    if args.seed.is_none() {
        eprintln!("seed: {seed} (pass --seed {seed} to get this level again)");
    }
    Ok(ExitCode::SUCCESS)
}

/// A seed from the operating system's randomness (only when none is given;
/// generation itself never reads time or global randomness).
fn random_seed() -> u64 {
    use std::hash::{BuildHasher, RandomState};
    RandomState::new().hash_one(0x5eed_u64) % 1_000_000
}
