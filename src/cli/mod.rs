//! The command-line front: parses arguments and calls the library.

mod bake;
mod common;
mod expand;
mod generate;
mod import_edgar;
mod out;
mod records;
mod schema;
mod serve;
mod solve;
mod stats;
mod validate;
mod watch;

use std::io::IsTerminal;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use crate::diag::Diagnostic;

/// Generate game dungeons from flow graphs and room templates.
#[derive(Parser, Debug)]
#[command(name = "dungeonflow", version, about, long_about = None)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Check flows and room templates and report every problem with its line and column.
    Validate(validate::Args),
    /// Generate a level: ASCII on stdout, or JSON, PNG, SVG or a Tiled map with -o FILE.
    Generate(generate::Args),
    /// Convert an Edgar level graph and room sets into a flow and templates.
    ImportEdgar(import_edgar::Args),
    /// Solve a generated level (JSON): its critical path, keys, locks and backtracking.
    Solve(solve::Args),
    /// Generate many seeds of a flow and report success rate, timings and level measures.
    Stats(stats::Args),
    /// Generate a range of seeds (or one shard of it) into JSON Lines records or level files.
    Bake(bake::Args),
    /// Write a level again whenever a flow or room file changes.
    Watch(watch::Args),
    /// Serve a local web page to browse a project's levels while editing it.
    Serve(serve::Args),
    /// Expand a flow with a seed and print the graph of rooms (yaml, json or dot).
    Expand(expand::Args),
    /// Print the JSON Schema of flow or room files, for editor validation and completion.
    Schema(schema::Args),
}

/// Runs the command line and returns the process exit code.
pub fn run() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Validate(args) => validate::run(&args),
        Command::Expand(args) => expand::run(&args),
        Command::Generate(args) => generate::run(&args),
        Command::ImportEdgar(args) => import_edgar::run(&args),
        Command::Solve(args) => solve::run(&args),
        Command::Stats(args) => stats::run(&args),
        Command::Bake(args) => bake::run(&args),
        Command::Watch(args) => watch::run(&args),
        Command::Serve(args) => serve::run(&args),
        Command::Schema(args) => schema::run(&args),
    };
    match result {
        Ok(code) => code,
        Err(diags) => {
            report(&diags);
            ExitCode::from(1)
        }
    }
}

/// Prints diagnostics to stderr, with colour when stderr is a terminal.
pub fn report(diags: &[Diagnostic]) {
    let color = std::io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none();
    for d in diags {
        out::stderr(&d.render(color));
    }
}
