//! `dungeonflow import-edgar GRAPH.yml ROOMS.yml... [-o DIR]`.

use std::path::PathBuf;
use std::process::ExitCode;

use crate::diag::{Diagnostic, SourceFile};
use crate::edgar::Imported;
use crate::project::{Project, read_text};
use crate::render::write_atomic;

/// Arguments of `import-edgar`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// An Edgar level graph (`graphs/*.yml`).
    graph: PathBuf,
    /// Edgar room sets (`rooms/*.yml`) the graph may name.
    rooms: Vec<PathBuf>,
    /// Project folder to write `flows/NAME.yaml` and `rooms/NAME_rooms.yaml` into.
    #[arg(short, long, default_value = ".")]
    output: PathBuf,
    /// Join the rooms of every passage directly, leaving out the graph's
    /// `corridors:` section (with a warning), as Edgar's benchmarks without
    /// corridors do.
    #[arg(long)]
    no_corridors: bool,
}

/// Writes the imported flow and rooms.
pub fn run(args: &Args) -> Result<ExitCode, Vec<Diagnostic>> {
    let load = |p: &PathBuf| {
        read_text(p)
            .map(|t| SourceFile::new(p.display().to_string(), t))
            .map_err(|d| vec![d])
    };
    let graph = load(&args.graph)?;
    let rooms = args.rooms.iter().map(load).collect::<Result<Vec<_>, _>>()?;
    let imported =
        crate::edgar::import_with(&graph, &rooms, !args.no_corridors).map_err(|d| vec![d])?;
    refuse_invalid(&imported, &args.graph)?;
    super::report(&imported.warnings);
    for (dir, file, text) in imported.files() {
        let folder = args.output.join(dir);
        std::fs::create_dir_all(&folder).map_err(|e| {
            vec![Diagnostic::error(
                "io::write",
                format!("cannot create {}: {e}", folder.display()),
            )]
        })?;
        write_atomic(&folder.join(file), text.as_bytes()).map_err(|d| vec![d])?;
    }
    super::out::stderr(&format!(
        "imported flow `{}` into {} (run: dungeonflow generate {} -p {})\n",
        imported.name,
        args.output.display(),
        imported.name,
        args.output.display()
    ));
    Ok(ExitCode::SUCCESS)
}

/// Validates the flow and room files an import would write, as `validate`
/// would once they are written: an input that converts to files the
/// engine refuses is an error, and nothing is written.
fn refuse_invalid(imported: &Imported, graph: &std::path::Path) -> Result<(), Vec<Diagnostic>> {
    let sources = imported.sources();
    let project = Project::from_layers(vec![sources]);
    if !project.has_errors() {
        return Ok(());
    }
    let mut diags = vec![
        Diagnostic::error(
            "edgar::invalid-import",
            format!(
                "{} converts to a flow and rooms that do not validate; nothing was written",
                graph.display()
            ),
        )
        .help("the problems below are in the files the import would write; fix the Edgar input"),
    ];
    diags.extend(project.diagnostics.into_iter().filter(Diagnostic::is_error));
    Err(diags)
}
