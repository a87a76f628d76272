//! `dungeonflow validate [PATH...] [--format json]`.

use std::path::PathBuf;
use std::process::ExitCode;

use crate::diag::Diagnostic;
use crate::project::{FileKind, Project};

/// Arguments of `validate`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Flow or room files, folders, or project folders holding `flows/` and
    /// `rooms/` (default: `./flows` and `./rooms` when present, else the bundled content).
    paths: Vec<PathBuf>,
    /// Check the project's flows against the bundled rooms as well as its own
    /// (like `bundled: true` in its `dungeonflow.yaml`).
    #[arg(long)]
    bundled: bool,
    /// Output format of the diagnostics.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    format: Format,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum Format {
    /// Rendered diagnostics on stderr.
    Human,
    /// One JSON document on stdout: `{ "diagnostics": [...], "errors": N, "warnings": N }`.
    Json,
}

/// Runs `validate`; exits 1 when any error was found.
pub fn run(args: &Args) -> Result<ExitCode, Vec<Diagnostic>> {
    let paths = if args.paths.is_empty() {
        ["flows", "rooms"]
            .iter()
            .map(PathBuf::from)
            .filter(|p| p.is_dir())
            .collect()
    } else {
        args.paths.clone()
    };
    let project =
        super::common::open_project(&paths, super::common::wants_bundled(&paths, args.bundled));
    // With user files, report on those only: the bundled content is checked by its own tests.
    let user_only = !paths.is_empty();
    let shown: Vec<Diagnostic> = project
        .diagnostics
        .iter()
        .filter(|d| !user_only || !d.file.as_ref().is_some_and(|f| f.is_bundled()))
        .cloned()
        .collect();
    let errors = shown.iter().filter(|d| d.is_error()).count();
    let warnings = shown.len() - errors;
    match args.format {
        Format::Json => {
            let json = serde_json::json!({
                "diagnostics": shown.iter().map(Diagnostic::to_json).collect::<Vec<_>>(),
                "errors": errors,
                "warnings": warnings,
            });
            super::out::stdout(serde_json::to_string_pretty(&json).unwrap_or_default() + "\n")?;
        }
        Format::Human => {
            super::report(&shown);
            let count = |k| {
                project
                    .files
                    .iter()
                    .filter(|(_, kind, bundled)| *kind == k && (!user_only || !bundled))
                    .count()
            };
            if user_only {
                bundled_notes(&project);
            }
            super::out::stderr(&format!(
                "checked {} flow files and {} room files: {errors} errors, {warnings} warnings\n",
                count(FileKind::Flow),
                count(FileKind::Room),
            ));
        }
    }
    Ok(if errors > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// Names, for each of the user's flows, the bundled templates its rooms may
/// be drawn from (when the project asks for the bundled content).
fn bundled_notes(project: &Project) {
    for flow in project.flows.values() {
        if flow.file.is_bundled() {
            continue;
        }
        let names = project.bundled_templates_for(flow);
        if !names.is_empty() {
            super::out::stderr(&format!(
                "note: flow `{}` may draw from {} bundled templates: {}\n",
                flow.name.value,
                names.len(),
                names.join(", ")
            ));
        }
    }
}
