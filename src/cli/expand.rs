//! `dungeonflow expand FLOW --seed N [--flag NAME]... [--format yaml|json|dot]`.

use std::process::ExitCode;

use super::common::{ProjectArgs, flag_set, pick_flow};
use crate::diag::Diagnostic;

/// Arguments of `expand`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// A bundled flow's name or a flow file.
    flow: String,
    /// The seed.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// A prerequisite flag for injections (repeatable).
    #[arg(long = "flag", value_name = "NAME")]
    flags: Vec<String>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Yaml)]
    format: Format,
    #[command(flatten)]
    project: ProjectArgs,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug)]
enum Format {
    Yaml,
    Json,
    Dot,
}

/// Prints the expanded graph.
pub fn run(args: &Args) -> Result<ExitCode, Vec<Diagnostic>> {
    let project = args.project.load(Some(&args.flow))?;
    let flow = pick_flow(&project, Some(&args.flow))?;
    let level = crate::expand::expand(flow, &project.library, args.seed, &flag_set(&args.flags))
        .map_err(|d| vec![d])?;
    let text = match args.format {
        Format::Yaml => serde_saphyr::to_string(&level.view()).unwrap_or_default(),
        Format::Json => serde_json::to_string_pretty(&level.view()).unwrap_or_default() + "\n",
        Format::Dot => level.to_dot(),
    };
    super::out::stdout(text)?;
    Ok(ExitCode::SUCCESS)
}
