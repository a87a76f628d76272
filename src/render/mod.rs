//! Renderers: every generator's [`Level`] goes through the same ones.

mod ascii;
mod tiled;

pub use ascii::render_ascii;
pub use tiled::{TiledExport, render_tiled};

use std::path::Path;

use crate::diag::Diagnostic;

/// Writes `bytes` to `path` atomically: a temporary file in the same folder,
/// renamed over the target, so a reader never sees a half-written file.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), Diagnostic> {
    use std::io::Write;
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let fail = |e: std::io::Error| {
        Diagnostic::error("io::write", format!("cannot write {}: {e}", path.display()))
    };
    let mut tmp = tempfile::NamedTempFile::new_in(dir).map_err(fail)?;
    tmp.write_all(bytes).map_err(fail)?;
    tmp.as_file().sync_all().map_err(fail)?;
    tmp.persist(path).map_err(|e| fail(e.error))?;
    Ok(())
}
