//! Reading the files and folders a user names, bounded whatever they are:
//! only regular files are opened (a FIFO blocks its reader until a writer
//! comes, a device like `/dev/zero` never ends), every read stops one byte
//! past its limit (the size in a file's metadata is not trusted: devices
//! and `/proc` files report 0), and a folder walk visits each real folder
//! once, so a symbolic-link loop is reported instead of followed.

use std::io::Read;
use std::path::{Path, PathBuf};

use crate::diag::{Diagnostic, SourceFile};
use crate::yaml::MAX_FILE_BYTES;

/// Reads at most `limit` bytes of the regular file at `path`. A file that
/// is not regular, cannot be read or holds more than `limit` bytes is an
/// error; `code` names the error of a file too large.
pub fn read_bounded(path: &Path, limit: usize, code: &'static str) -> Result<Vec<u8>, Diagnostic> {
    read_bounded_unnamed(path, limit, code).map_err(|d| named(d, path))
}

/// Names the file `path` in a diagnostic about it (a file with no text:
/// the diagnostic points at no line), so that `--format json` gives its
/// `file`.
fn named(d: Diagnostic, path: &Path) -> Diagnostic {
    d.in_file(&SourceFile::new(path.display().to_string(), String::new()))
}

fn read_bounded_unnamed(
    path: &Path,
    limit: usize,
    code: &'static str,
) -> Result<Vec<u8>, Diagnostic> {
    let shown = path.display();
    let io = |e: std::io::Error| Diagnostic::error("io::read", format!("cannot read {shown}: {e}"));
    let meta = std::fs::metadata(path).map_err(io)?;
    if meta.is_dir() {
        return Err(Diagnostic::error(
            "io::read",
            format!("cannot read {shown}: it is a folder"),
        ));
    }
    if !meta.is_file() {
        return Err(Diagnostic::error(
            "io::not-a-file",
            format!("{shown} is not a regular file (a device, a FIFO or a socket)"),
        )
        .help("name a file saved on disk"));
    }
    let too_large = |len: String| {
        Diagnostic::error(
            code,
            format!("{shown} is {len} bytes, over the limit of {limit} bytes"),
        )
        .help("check that this is the right file")
    };
    if meta.len() > limit as u64 {
        return Err(too_large(meta.len().to_string()));
    }
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .map_err(io)?
        .take(limit as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(io)?;
    if bytes.len() > limit {
        return Err(too_large(format!("more than {limit}")));
    }
    Ok(bytes)
}

/// Reads a UTF-8 text file (a flow, a room file, an Edgar input) of at
/// most [`MAX_FILE_BYTES`].
pub fn read_text(path: &Path) -> Result<String, Diagnostic> {
    let bytes = read_bounded(path, MAX_FILE_BYTES, "yaml::too-large")?;
    String::from_utf8(bytes).map_err(|e| {
        named(
            Diagnostic::error(
                "io::not-utf8",
                format!(
                    "{} is not UTF-8 text (byte {})",
                    path.display(),
                    e.utf8_error().valid_up_to()
                ),
            )
            .help("save the file as UTF-8"),
            path,
        )
    })
}

/// The folders a walk has entered, by their real (canonical) paths.
#[derive(Debug, Default)]
pub struct Visited(Vec<PathBuf>);

impl Visited {
    /// Whether the walk may enter the folder `dir`: false when its real
    /// path was entered before (a symbolic-link loop, or two links to one
    /// folder), with a warning in `diags`.
    pub fn enter(&mut self, dir: &Path, diags: &mut Vec<Diagnostic>) -> bool {
        let Ok(real) = std::fs::canonicalize(dir) else {
            return true;
        };
        if self.0.contains(&real) {
            diags.push(Diagnostic::warning(
                "io::folder-loop",
                format!(
                    "skipped {}: it is {}, already read (a symbolic link leads back to it)",
                    dir.display(),
                    real.display()
                ),
            ));
            return false;
        }
        self.0.push(real);
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("dungeonflow-files-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("scratch folder");
        dir
    }

    #[test]
    fn a_read_stops_past_its_limit() {
        let dir = scratch("limit");
        let file = dir.join("big.yaml");
        std::fs::write(&file, vec![b'a'; 65]).expect("written");
        let d = read_bounded(&file, 64, "yaml::too-large").expect_err("over the limit");
        assert_eq!(d.code, "yaml::too-large");
        assert_eq!(
            read_bounded(&file, 65, "x").expect("at the limit").len(),
            65
        );
        std::fs::remove_dir_all(dir).ok();
    }

    #[test]
    fn a_file_that_cannot_be_used_is_named_in_its_diagnostic() {
        // `validate --format json` gave `file: null` for these.
        let dir = scratch("named");
        let latin = dir.join("latin1.yaml");
        std::fs::write(&latin, b"name: caf\xe9\n").expect("written");
        for (path, code) in [
            (&latin, "io::not-utf8"),
            (&dir.join("missing.yaml"), "io::read"),
        ] {
            let d = read_text(path).expect_err("unusable");
            assert_eq!(d.code, code);
            let (file, _, _) = d.location().expect("a file");
            assert_eq!(file, path.display().to_string());
        }
        std::fs::remove_dir_all(dir).ok();
    }

    #[cfg(unix)]
    #[test]
    fn devices_and_fifos_are_not_read() {
        let d = read_text(Path::new("/dev/zero")).expect_err("a device");
        assert_eq!(d.code, "io::not-a-file");
        let dir = scratch("fifo");
        let fifo = dir.join("fifo.yaml");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        if made.is_ok_and(|s| s.success()) {
            // Opening a FIFO with no writer would block: refused first.
            let d = read_text(&fifo).expect_err("a FIFO");
            assert_eq!(d.code, "io::not-a-file");
        } else {
            eprintln!("note: mkfifo is missing; the FIFO case was skipped");
        }
        std::fs::remove_dir_all(dir).ok();
    }

    #[cfg(unix)]
    #[test]
    fn a_folder_is_entered_once_whatever_links_lead_to_it() {
        let dir = scratch("loop");
        std::fs::create_dir_all(dir.join("a")).expect("folder");
        std::os::unix::fs::symlink(&dir, dir.join("a/back")).expect("link");
        let (mut seen, mut diags) = (Visited::default(), Vec::new());
        assert!(seen.enter(&dir, &mut diags));
        assert!(seen.enter(&dir.join("a"), &mut diags));
        assert!(!seen.enter(&dir.join("a/back"), &mut diags));
        assert_eq!(diags.len(), 1);
        assert_eq!(diags[0].code, "io::folder-loop");
        std::fs::remove_dir_all(dir).ok();
    }
}
