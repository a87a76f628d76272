//! Arguments and helpers shared by the commands that generate.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use crate::diag::Diagnostic;
use crate::flow::Flow;
use crate::project::{DEFAULT_FLOW, Project, read_project_file};

/// Where flows and rooms come from.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct ProjectArgs {
    /// Flow or room files, folders, or project folders (with `flows/` and
    /// `rooms/`). `./flows` and `./rooms` are included when present. A project
    /// uses only its own rooms and flows unless it asks for the bundled ones;
    /// with no project at all, the bundled content is used.
    #[arg(long = "project", short = 'p', value_name = "PATH")]
    pub paths: Vec<PathBuf>,
    /// Draw from the bundled rooms and flows as well as the project's own
    /// (like `bundled: true` in the project's `dungeonflow.yaml`).
    #[arg(long)]
    pub bundled: bool,
}

impl ProjectArgs {
    /// Loads the project, with `flow` added when it names a file; fails
    /// with the errors of its project file (`dungeonflow.yaml`), if any.
    pub fn load(&self, flow: Option<&str>) -> Result<Project, Vec<Diagnostic>> {
        let mut paths = project_paths(&self.paths);
        let bundled = wants_bundled(&paths, self.bundled);
        if bundled.1.iter().any(Diagnostic::is_error) {
            return Err(bundled.1);
        }
        if let Some(f) = flow
            && Path::new(f).is_file()
        {
            paths.push(PathBuf::from(f));
        }
        // A file inside a folder already given is loaded once.
        let folders: Vec<PathBuf> = paths
            .iter()
            .filter(|p| p.is_dir())
            .filter_map(|p| p.canonicalize().ok())
            .collect();
        let mut seen = Vec::new();
        paths.retain(|p| {
            let Ok(c) = p.canonicalize() else { return true };
            let inside = p.is_file() && folders.iter().any(|f| c.starts_with(f));
            !inside && !seen.contains(&c) && {
                seen.push(c);
                true
            }
        });
        Ok(open_project(&paths, bundled))
    }
}

/// The user's paths: `./flows` and `./rooms` when present, then `given`.
pub fn project_paths(given: &[PathBuf]) -> Vec<PathBuf> {
    let mut paths: Vec<PathBuf> = ["flows", "rooms"]
        .iter()
        .map(PathBuf::from)
        .filter(|p| p.is_dir())
        .collect();
    paths.extend(given.iter().cloned());
    paths
}

/// Whether a project at `paths` draws from the bundled content: with no
/// project folder among them (files only, or nothing), yes; else when
/// `asked` (`--bundled`) or the project file of a folder given (or of the
/// folder holding a `flows/` or `rooms/` folder given) says
/// `bundled: true`. Returns the answer and what was wrong with the project
/// files, each file read once.
pub fn wants_bundled(paths: &[PathBuf], asked: bool) -> (bool, Vec<Diagnostic>) {
    let mut folders = BTreeSet::new();
    for dir in paths.iter().filter(|p| p.is_dir()) {
        let Ok(dir) = dir.canonicalize() else {
            continue;
        };
        if dir
            .file_name()
            .is_some_and(|n| n == "flows" || n == "rooms")
            && let Some(parent) = dir.parent()
        {
            folders.insert(parent.to_path_buf());
        }
        folders.insert(dir);
    }
    if folders.is_empty() {
        return (true, Vec::new());
    }
    let mut diags = Vec::new();
    let mut from_file = false;
    for dir in folders {
        let (bundled, d) = read_project_file(&dir);
        from_file |= bundled == Some(true);
        diags.extend(d);
    }
    (asked || from_file, diags)
}

/// Loads `paths` on top of the bundled content when `bundled` says so, with
/// the project files' diagnostics first.
pub fn open_project(paths: &[PathBuf], (bundled, diags): (bool, Vec<Diagnostic>)) -> Project {
    let mut project = Project::load_with(paths, bundled);
    project.diagnostics.splice(0..0, diags);
    project
}

/// The flow to run: by name or path, the default when `None`. Fails with the
/// flow's own diagnostics when it has errors.
pub fn pick_flow<'p>(
    project: &'p Project,
    name: Option<&str>,
) -> Result<&'p Flow, Vec<Diagnostic>> {
    match name {
        Some(name) => project.find_flow(name),
        // A project without the default flow: its only flow, if it has one.
        None if project.flow(DEFAULT_FLOW).is_none() && project.flows.len() == 1 => {
            Ok(project.flows.values().next().expect("one flow"))
        }
        None => project.find_flow(DEFAULT_FLOW),
    }
}

/// The `--flag` values as a set.
pub fn flag_set(flags: &[String]) -> BTreeSet<String> {
    flags.iter().cloned().collect()
}

/// The worker threads of `--threads T` (all cores when not given).
pub fn thread_pool(threads: Option<u64>) -> Result<rayon::ThreadPool, Vec<Diagnostic>> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads.unwrap_or(0) as usize)
        .build()
        .map_err(|e| vec![Diagnostic::error("cli::threads", e.to_string())])
}
