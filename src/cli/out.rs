//! Writing to the terminal without panicking: a full disk or a closed
//! pipe is an outcome to report, not a crash.

use std::io::{ErrorKind, Write};
use std::path::Path;

use crate::diag::Diagnostic;

/// Writes `bytes` to standard output and flushes it. A write error (a full
/// disk, `> /dev/full`) is a `cli::write-failed` diagnostic; a closed pipe
/// (the reader stopped early, as `| head` does) ends the process quietly
/// with success, as other command-line tools do, since nobody is left to
/// read the rest.
pub fn stdout(bytes: impl AsRef<[u8]>) -> Result<(), Vec<Diagnostic>> {
    let mut out = std::io::stdout().lock();
    match out.write_all(bytes.as_ref()).and_then(|()| out.flush()) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == ErrorKind::BrokenPipe => std::process::exit(0),
        Err(e) => Err(vec![
            Diagnostic::error(
                "cli::write-failed",
                format!("cannot write to standard output: {e}"),
            )
            .help("free some space, or write to a file with -o FILE where the command has it"),
        ]),
    }
}

/// Writes `text` to standard error, ignoring errors (there is nowhere left
/// to report them).
pub fn stderr(text: &str) {
    let _ = std::io::stderr().lock().write_all(text.as_bytes());
}

/// Writes `rendered` to `path` and its companions beside it (atomically),
/// after refusing any of those targets that is one of the project's own
/// (not bundled) input files.
pub fn write_project_output(
    project: &crate::project::Project,
    path: &Path,
    rendered: &crate::render::Rendered,
) -> Result<(), Diagnostic> {
    let dir = path.parent().unwrap_or(Path::new(""));
    let inputs = || {
        project
            .files
            .iter()
            .filter(|(_, _, bundled)| !bundled)
            .map(|(name, ..)| name.as_str())
    };
    for target in std::iter::once(path.to_path_buf())
        .chain(rendered.companions.iter().map(|(name, _)| dir.join(name)))
    {
        refuse_input_as_output(&target, inputs())?;
    }
    crate::render::write_rendered(path, rendered)
}

/// Refuses an output path that names one of `inputs` (the flow or room
/// files the command read): writing the level there would destroy them.
/// Paths are compared after resolving links, so `./flows/../flows/a.yaml`
/// and a symbolic link to an input are caught too.
fn refuse_input_as_output<'a>(
    output: &Path,
    inputs: impl IntoIterator<Item = &'a str>,
) -> Result<(), Diagnostic> {
    let Ok(target) = output.canonicalize() else {
        return Ok(()); // a file that does not exist yet is no input
    };
    for input in inputs {
        if Path::new(input).canonicalize().is_ok_and(|p| p == target) {
            return Err(Diagnostic::error(
                "cli::output-is-input",
                format!(
                    "-o {} names the input file {input}, which would be replaced by the output",
                    output.display()
                ),
            )
            .help("write the output to another file"));
        }
    }
    Ok(())
}
