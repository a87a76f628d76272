//! `dungeonflow solve LEVEL.json`: the critical path of a generated level.

use std::path::PathBuf;
use std::process::ExitCode;

use crate::diag::Diagnostic;
use crate::level::Level;
use crate::puzzle::{Analysis, Puzzle, analyse};

/// Arguments of `solve`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// A `dungeonflow-level/1` JSON file (`generate -o level.json`).
    level: PathBuf,
}

/// The largest level file `solve` reads: a level of the most rooms a flow
/// may expand to, written as JSON, is well under it.
pub const MAX_LEVEL_BYTES: usize = 256 * 1024 * 1024;

/// Reads the level and prints the solver's report. Exit 0 when solvable,
/// [`NOT_SOLVABLE`] when not, 1 when the file is not a level.
pub fn run(args: &Args) -> Result<ExitCode, Vec<Diagnostic>> {
    let shown = args.level.display();
    let unread = |why: String| {
        vec![
            Diagnostic::error("solve::read", format!("cannot read {shown}: {why}"))
                .help("pass a level written by `dungeonflow generate FLOW -o level.json`"),
        ]
    };
    let bytes = crate::files::read_bounded(&args.level, MAX_LEVEL_BYTES, "solve::too-large")
        .map_err(|d| unread(d.message))?;
    let text = String::from_utf8(bytes).map_err(|e| unread(e.to_string()))?;
    let not_a_level = |e: String| {
        vec![
            Diagnostic::error("solve::bad-level", format!("{shown}: {e}"))
                .help("pass a `dungeonflow-level/1` file written by `dungeonflow generate FLOW -o level.json`"),
        ]
    };
    let level = Level::from_json(&text).map_err(|e| not_a_level(e.to_string()))?;
    // The solver walks from the first room: a file edited by hand may
    // have put another room there.
    level
        .check_entrance()
        .map_err(|e| not_a_level(e.to_string()))?;
    let analysis = analyse(&Puzzle::from_level(&level));
    super::out::stdout(analysis.report(&title(&level)))?;
    Ok(exit_code(&analysis))
}

/// How a level is named in a report.
pub fn title(level: &Level) -> String {
    format!(
        "level `{}` seed {} ({} generator, {} rooms)",
        level.flow,
        level.seed,
        level.generator,
        level.rooms.len()
    )
}

/// The exit code of a level that is not solvable: 3, apart from clap's 2
/// for a wrong command line.
pub const NOT_SOLVABLE: u8 = 3;

/// 0 when solvable, [`NOT_SOLVABLE`] when not.
pub fn exit_code(analysis: &Analysis) -> ExitCode {
    if analysis.solvable {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(NOT_SOLVABLE)
    }
}
