//! The library's error type: why a project or a generation gave no level,
//! carrying the [`Diagnostic`]s that say where and why.

use crate::diag::Diagnostic;

/// Why [`Project::generate`](crate::Project::generate) (or
/// [`Project::check`](crate::Project::check)) gave no level.
///
/// Every variant carries [`Diagnostic`]s with the file, line and column of
/// the YAML node at fault when there is one; [`Error::render`] prints them
/// as the command-line tool does. The two kinds call for different actions
/// in a game: [`Error::Invalid`] is a mistake in the assets (fix the files),
/// [`Error::Generation`] is one seed that gave no level (try another seed,
/// or make the flow easier to lay out).
#[derive(Clone, Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The flow, or the files it needs, has errors, or no flow has that
    /// name: no seed can give a level until the files change.
    #[error("{}", summary("invalid input", .0))]
    Invalid(Vec<Diagnostic>),
    /// The flow is valid but this seed gave no level within its attempts
    /// and limits (`layout::failed`, `generate::unsolvable`, ...).
    #[error("flow `{flow}` gave no level with seed {seed}: {}", .diagnostic.message)]
    Generation {
        /// The flow's name.
        flow: String,
        /// The seed that failed.
        seed: u64,
        /// Why, naming the composite or room that could not be placed.
        diagnostic: Box<Diagnostic>,
    },
}

impl Error {
    /// Every diagnostic of the error, in order.
    pub fn diagnostics(&self) -> &[Diagnostic] {
        match self {
            Error::Invalid(all) => all,
            Error::Generation { diagnostic, .. } => std::slice::from_ref(&**diagnostic),
        }
    }

    /// The diagnostics rendered as the command-line tool prints them (source
    /// excerpt, line and column, help), with ANSI colours when `color`.
    pub fn render(&self, color: bool) -> String {
        self.diagnostics().iter().map(|d| d.render(color)).collect()
    }
}

/// "invalid input: FIRST MESSAGE (and N more)".
fn summary(what: &str, all: &[Diagnostic]) -> String {
    let errors: Vec<&Diagnostic> = all.iter().filter(|d| d.is_error()).collect();
    match errors.split_first() {
        None => what.to_owned(),
        Some((first, [])) => format!("{what}: {}", first.message),
        Some((first, rest)) => format!("{what}: {} (and {} more)", first.message, rest.len()),
    }
}
