//! Renderers: every generator's [`Level`] goes through the same ones. A
//! [`Format`] turns a level into bytes ([`Rendered`]); [`write_rendered`]
//! puts them on disk atomically.

mod ascii;
mod minimap;
#[cfg(feature = "png")]
mod outline;
pub mod palette;
#[cfg(feature = "png")]
mod png;
mod scene;
mod svg;
#[cfg(feature = "png")]
mod tiled;
#[cfg(feature = "png")]
mod tmx;

pub use ascii::render_ascii;
pub use minimap::render_minimap;
#[cfg(feature = "png")]
pub use png::{MAX_SIDE, paint, render_png};
pub use svg::render_svg;
#[cfg(feature = "png")]
pub use tiled::{TiledExport, render_tiled};
#[cfg(feature = "png")]
pub use tmx::{TmxExport, render_tmx};

use std::path::Path;

use crate::diag::Diagnostic;
use crate::level::Level;

/// An output format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum Format {
    /// The tile grid as text with a legend.
    Ascii,
    /// The `dungeonflow-level/1` JSON contract.
    Json,
    /// A top-down picture.
    Png,
    /// Rooms as vector shapes, optionally with the flow graph.
    Svg,
    /// A Tiled map (`.tmj`) and its tileset image, written beside it.
    Tiled,
    /// A Tiled map as TMX (`.tmx`), with its tileset (`.tsx`) and the
    /// tileset's image written beside it.
    Tmx,
    /// An Isaac floor's cell grid, one character per cell.
    Minimap,
}

impl Format {
    /// The output file extensions and the format each asks for.
    pub const EXTENSIONS: [(&'static str, Format); 6] = [
        ("txt", Format::Ascii),
        ("json", Format::Json),
        ("png", Format::Png),
        ("svg", Format::Svg),
        ("tmj", Format::Tiled),
        ("tmx", Format::Tmx),
    ];

    /// The format a file name's extension asks for (one of
    /// [`Self::EXTENSIONS`], any case).
    pub fn from_path(path: &Path) -> Option<Format> {
        let extension = path.extension()?.to_str()?.to_ascii_lowercase();
        Self::EXTENSIONS
            .iter()
            .find(|(e, _)| *e == extension)
            .map(|&(_, f)| f)
    }

    /// The format an output file asks for by its extension: none when it
    /// has no extension, an error naming the known extensions when it has
    /// one no format writes (`-o level.tmz` must not quietly hold ASCII).
    pub fn for_output(path: &Path) -> Result<Option<Format>, Diagnostic> {
        let Some(extension) = path.extension() else {
            return Ok(None);
        };
        if let Some(format) = Self::from_path(path) {
            return Ok(Some(format));
        }
        let extension = extension.to_string_lossy();
        let known = Self::EXTENSIONS
            .iter()
            .map(|(e, f)| format!(".{e} ({})", f.describe()))
            .collect::<Vec<_>>()
            .join(", ");
        let help = format!(
            "known extensions: {known}; or name the format with --format and keep the file name"
        );
        Err(Diagnostic::error(
            "render::unknown-extension",
            format!(
                "`{}`: no output format has the extension `.{extension}`",
                path.display()
            ),
        )
        .help(help))
    }

    /// The extension of the files it writes (`txt` for the text formats
    /// without one of their own).
    pub fn extension(self) -> &'static str {
        Self::EXTENSIONS
            .iter()
            .find(|(_, f)| *f == self)
            .map_or("txt", |(e, _)| e)
    }

    /// A few words naming the format.
    fn describe(self) -> &'static str {
        match self {
            Format::Ascii => "the tile grid as text",
            Format::Json => "the level JSON",
            Format::Png => "a picture",
            Format::Svg => "vector shapes",
            Format::Tiled => "a Tiled map, JSON",
            Format::Tmx => "a Tiled map, TMX",
            Format::Minimap => "an Isaac minimap",
        }
    }

    /// Whether the output is text that can go to a terminal.
    pub fn is_text(self) -> bool {
        matches!(
            self,
            Format::Ascii | Format::Json | Format::Svg | Format::Minimap
        )
    }

    /// Whether the output needs files beside it (so cannot go to stdout).
    pub fn has_companions(self) -> bool {
        matches!(self, Format::Tiled | Format::Tmx)
    }

    /// Renders `level`. `file_name` is the name the main output will have on
    /// disk; formats with companion files name them after it.
    pub fn render(
        self,
        level: &Level,
        options: &RenderOptions,
        file_name: &str,
    ) -> Result<Rendered, Diagnostic> {
        #[cfg(not(feature = "png"))]
        let _ = file_name;
        let main = match self {
            Format::Ascii => render_ascii(level, options.labels).into_bytes(),
            Format::Json => (serde_json::to_string_pretty(level).map_err(|e| {
                Diagnostic::error("render::json", format!("cannot write JSON: {e}"))
            })? + "\n")
                .into_bytes(),
            #[cfg(feature = "png")]
            Format::Png => render_png(level, options)?,
            #[cfg(not(feature = "png"))]
            Format::Png | Format::Tiled | Format::Tmx => return Err(without_png(self)),
            Format::Svg => render_svg(level, options).into_bytes(),
            Format::Minimap => render_minimap(level)?.into_bytes(),
            #[cfg(feature = "png")]
            Format::Tiled => {
                let stem = file_name.strip_suffix(".tmj").unwrap_or(file_name);
                let export = render_tiled(level, &format!("{stem}.tileset.png"));
                return Ok(Rendered {
                    main: export.map_json.into_bytes(),
                    companions: vec![(export.tileset_file, export.tileset_png)],
                });
            }
            #[cfg(feature = "png")]
            Format::Tmx => {
                let stem = file_name.strip_suffix(".tmx").unwrap_or(file_name);
                let export = render_tmx(
                    level,
                    &format!("{stem}.tsx"),
                    &format!("{stem}.tileset.png"),
                );
                return Ok(Rendered {
                    main: export.map_xml.into_bytes(),
                    companions: vec![
                        (export.tileset_file, export.tileset_xml.into_bytes()),
                        (export.image_file, export.image_png),
                    ],
                });
            }
        };
        Ok(Rendered {
            main,
            companions: Vec::new(),
        })
    }
}

/// The error of a PNG picture or a Tiled map (whose tileset is a PNG)
/// asked of a build without the `png` feature.
#[cfg(not(feature = "png"))]
fn without_png(format: Format) -> Diagnostic {
    Diagnostic::error(
        "render::no-png",
        format!("this build of dungeonflow cannot write {format:?} output"),
    )
    .help("enable the crate's `png` feature (on by default with `cli`)")
}

/// What a renderer may be asked for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RenderOptions {
    /// Write room ids on the map.
    pub labels: bool,
    /// Pixels per tile (PNG, and the size of an SVG).
    pub scale: u32,
    /// Draw the flow graph over the map (SVG).
    pub graph: bool,
}

impl Default for RenderOptions {
    fn default() -> Self {
        RenderOptions {
            labels: false,
            scale: 12,
            graph: false,
        }
    }
}

/// A rendered level: the main file's bytes and companion files (by file
/// name, written beside it).
#[derive(Clone, Debug, Default)]
pub struct Rendered {
    /// The main output.
    pub main: Vec<u8>,
    /// Files the main output refers to, such as a tileset image.
    pub companions: Vec<(String, Vec<u8>)>,
}

/// Writes a rendered level to `path` and its companions beside it, each
/// atomically; companions first, so the main file never refers to a
/// missing one.
pub fn write_rendered(path: &Path, rendered: &Rendered) -> Result<(), Diagnostic> {
    let dir = path.parent().unwrap_or(Path::new(""));
    for (name, bytes) in &rendered.companions {
        write_atomic(&dir.join(name), bytes)?;
    }
    write_atomic(path, &rendered.main)
}

/// Writes `bytes` to `path` atomically: a temporary file in the same folder,
/// renamed over the target, so a reader never sees a half-written file. A
/// symbolic link to a file is followed (the link stays, its file is
/// replaced or, when the link dangles, made where it points); a read-only
/// file is refused, never replaced, and a file keeps its owner (or is
/// refused when only its owner or the superuser could give it back); a device, pipe or socket (`-o
/// /dev/null`, a FIFO) is written in place, since renaming a file over it
/// would replace the device itself.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), Diagnostic> {
    use std::io::Write;
    let fail = |e: std::io::Error| {
        Diagnostic::error("io::write", format!("cannot write {}: {e}", path.display()))
    };
    let resolved = match std::fs::metadata(path) {
        Ok(meta) if !meta.is_file() && !meta.is_dir() => {
            let mut out = std::fs::OpenOptions::new()
                .write(true)
                .open(path)
                .map_err(fail)?;
            return out.write_all(bytes).map_err(fail);
        }
        Ok(meta) if meta.is_file() && meta.permissions().readonly() => {
            return Err(Diagnostic::error(
                "io::read-only",
                format!("{} is read-only: it was left as it is", path.display()),
            )
            .help("remove its write protection, or write the level to another file"));
        }
        Ok(meta) if meta.is_file() => std::fs::canonicalize(path).map_err(fail)?,
        // A link to a file not made yet: the file is made where it points.
        Err(_) if path.is_symlink() => {
            let target = std::fs::read_link(path).map_err(fail)?;
            path.parent().unwrap_or(Path::new("")).join(target)
        }
        _ => path.to_path_buf(),
    };
    let path = resolved.as_path();
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let mut tmp = tempfile::NamedTempFile::new_in(dir).map_err(fail)?;
    tmp.write_all(bytes).map_err(fail)?;
    if let Some(permissions) = permissions_for(path) {
        tmp.as_file().set_permissions(permissions).map_err(fail)?;
    }
    #[cfg(unix)]
    if keep_owner(tmp.as_file(), path).is_err() {
        return Err(Diagnostic::error(
            "io::owner",
            format!(
                "{} belongs to another user, who would lose it if it were replaced: it was left as it is",
                path.display()
            ),
        )
        .help("write the level to another file, or run as the file's owner"));
    }
    tmp.as_file().sync_all().map_err(fail)?;
    tmp.persist(path).map_err(|e| fail(e.error))?;
    Ok(())
}

/// Gives the temporary file `tmp` the owner and group of the file at
/// `path` it is to replace (a rename would otherwise hand the file to
/// whoever ran the command); an error when they differ and cannot be given
/// (only the superuser may give a file away).
#[cfg(unix)]
fn keep_owner(tmp: &std::fs::File, path: &Path) -> std::io::Result<()> {
    use std::os::unix::fs::{MetadataExt, fchown};
    let Ok(old) = std::fs::metadata(path) else {
        return Ok(());
    };
    let new = tmp.metadata()?;
    if (old.uid(), old.gid()) == (new.uid(), new.gid()) {
        return Ok(());
    }
    fchown(tmp, Some(old.uid()), Some(old.gid()))
}

/// The permissions of the file being replaced, or the usual ones for a new
/// file on Unix (a temporary file starts private); `None` keeps the
/// temporary file's own.
fn permissions_for(path: &Path) -> Option<std::fs::Permissions> {
    if let Ok(meta) = std::fs::metadata(path) {
        return Some(meta.permissions());
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        Some(std::fs::Permissions::from_mode(0o644))
    }
    #[cfg(not(unix))]
    None
}
