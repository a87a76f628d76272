//! `dungeonflow schema flow|room [-o FILE]`.

use std::path::PathBuf;
use std::process::ExitCode;

use crate::diag::Diagnostic;
use crate::render::write_atomic;

/// Arguments of `schema`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Which file format.
    #[arg(value_enum)]
    kind: FileFormat,
    /// Write to this file (atomically) instead of stdout.
    #[arg(short, long)]
    output: Option<PathBuf>,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum FileFormat {
    /// Flow files (`flows/*.yaml`).
    Flow,
    /// Room template files (`rooms/*.yaml`).
    Room,
}

/// Prints or writes the JSON Schema of a file format.
pub fn run(args: &Args) -> Result<ExitCode, Vec<Diagnostic>> {
    let schema = match args.kind {
        FileFormat::Flow => crate::schema::flow_schema(),
        FileFormat::Room => crate::schema::room_schema(),
    };
    let text = serde_json::to_string_pretty(&schema).unwrap_or_default() + "\n";
    match &args.output {
        Some(path) => {
            write_atomic(path, text.as_bytes()).map_err(|d| vec![d])?;
            super::out::stderr(&format!("wrote {}\n", path.display()));
        }
        None => super::out::stdout(text)?,
    }
    Ok(ExitCode::SUCCESS)
}
