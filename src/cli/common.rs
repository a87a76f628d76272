//! Arguments and helpers shared by the commands that generate.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use crate::diag::Diagnostic;
use crate::flow::Flow;
use crate::project::{DEFAULT_FLOW, Project};

/// Where flows and rooms come from, besides the bundled content.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct ProjectArgs {
    /// Extra flow or room files, folders, or project folders (with `flows/` and
    /// `rooms/`); they add to and override the bundled content. `./flows` and
    /// `./rooms` are included when present.
    #[arg(long = "project", short = 'p', value_name = "PATH")]
    pub paths: Vec<PathBuf>,
}

impl ProjectArgs {
    /// Loads the project, with `flow` added when it names a file.
    pub fn load(&self, flow: Option<&str>) -> Project {
        let mut paths: Vec<PathBuf> = ["flows", "rooms"]
            .iter()
            .map(PathBuf::from)
            .filter(|p| p.is_dir())
            .collect();
        paths.extend(self.paths.iter().cloned());
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
        Project::load(&paths)
    }
}

/// The flow to run: by name or path, the default when `None`. Fails with the
/// flow's own diagnostics when it has errors.
pub fn pick_flow<'p>(
    project: &'p Project,
    name: Option<&str>,
) -> Result<&'p Flow, Vec<Diagnostic>> {
    project.find_flow(name.unwrap_or(DEFAULT_FLOW))
}

/// The `--flag` values as a set.
pub fn flag_set(flags: &[String]) -> BTreeSet<String> {
    flags.iter().cloned().collect()
}
