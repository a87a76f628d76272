//! A project: the room library and flows from the bundled content plus any
//! folders or files the user names.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use include_dir::{Dir, include_dir};

use crate::diag::{BUNDLED_PREFIX, Diagnostic, SourceFile};
use crate::error::Error;
use crate::files::Visited;
pub use crate::files::read_text;
use crate::flow::{CHAIN_LETTERS, Flow, Generator, NodeKind, load_flow_file, validate_flow};
use crate::generate::Options;
use crate::level::Level;
use crate::rooms::{RoomLibrary, RoomTemplate, load_room_file};

static BUNDLED_FLOWS: Dir<'_> = include_dir!("$CARGO_MANIFEST_DIR/flows");
static BUNDLED_ROOMS: Dir<'_> = include_dir!("$CARGO_MANIFEST_DIR/rooms");

/// The flow used when none is named (or a project's only flow, when it
/// has no flow of this name).
pub const DEFAULT_FLOW: &str = "classic";

/// The project file of a project folder: its settings, e.g. `bundled: true`
/// to draw from the bundled rooms and flows as well as its own.
pub const PROJECT_FILE: &str = "dungeonflow.yaml";

/// Fields of a [`PROJECT_FILE`].
pub(crate) const PROJECT_FIELDS: &[&str] = &["bundled"];

/// Whether a file holds room templates or a flow.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileKind {
    /// Room templates.
    Room,
    /// A flow.
    Flow,
}

/// A file to load, with its text.
#[derive(Clone, Debug)]
pub struct Source {
    /// The file and its text.
    pub file: Arc<SourceFile>,
    /// What it holds.
    pub kind: FileKind,
    /// Whether it is bundled content (embedded in the binary).
    pub bundled: bool,
}

impl Source {
    /// Room templates from text a game holds itself (e.g. read from its own
    /// asset archive); `name` is the file name diagnostics point at.
    pub fn room(name: impl Into<String>, text: impl Into<String>) -> Source {
        Source {
            file: SourceFile::new(name, text),
            kind: FileKind::Room,
            bundled: false,
        }
    }

    /// A flow from text a game holds itself; `name` is the file name
    /// diagnostics point at.
    pub fn flow(name: impl Into<String>, text: impl Into<String>) -> Source {
        Source {
            file: SourceFile::new(name, text),
            kind: FileKind::Flow,
            bundled: false,
        }
    }
}

/// Everything loaded: templates and flows, plus what was wrong with them.
#[derive(Debug, Default)]
pub struct Project {
    /// All room templates (engine internals: see [`Project::template_names`]).
    #[doc(hidden)]
    pub library: RoomLibrary,
    /// Usable (error-free) flows by name; later layers override earlier ones
    /// (engine internals: see [`Project::flow_names`]).
    #[doc(hidden)]
    pub flows: BTreeMap<String, Flow>,
    /// Every diagnostic found while loading and validating.
    pub diagnostics: Vec<Diagnostic>,
    /// Files read: name, kind, and whether bundled.
    pub files: Vec<(String, FileKind, bool)>,
}

impl Project {
    /// The bundled flows and rooms only.
    pub fn bundled() -> Project {
        Project::load(&[])
    }

    /// The bundled content, overridden and extended by `paths` (files, folders,
    /// or project folders holding `flows/` and `rooms/`).
    pub fn load(paths: &[PathBuf]) -> Project {
        Project::load_with(paths, true)
    }

    /// The content of `paths` (files, folders, or project folders holding
    /// `flows/` and `rooms/`), on top of the bundled content when `bundled`.
    pub fn load_with(paths: &[PathBuf], bundled: bool) -> Project {
        let mut layers = if bundled {
            vec![bundled_sources()]
        } else {
            Vec::new()
        };
        let mut io_diags = Vec::new();
        if !paths.is_empty() {
            let (mut user, mut visited) = (Vec::new(), Visited::default());
            for p in paths {
                collect_path(p, None, &mut user, &mut io_diags, &mut visited);
            }
            layers.push(user);
        }
        let mut project = Project::from_layers(layers);
        project.diagnostics.splice(0..0, io_diags);
        project
    }

    /// Builds a project from layers of sources; each layer may override the
    /// previous ones by template or flow name.
    pub fn from_layers(layers: Vec<Vec<Source>>) -> Project {
        let mut project = Project::default();
        // Each flow with whether it decoded without errors and whether its
        // graph is checked (see `misses_a_part`).
        let mut flows: BTreeMap<String, (Flow, bool, bool)> = BTreeMap::new();
        for layer in layers {
            let mut templates: Vec<RoomTemplate> = Vec::new();
            let mut layer_flows: BTreeMap<String, Arc<SourceFile>> = BTreeMap::new();
            for src in layer {
                project
                    .files
                    .push((src.file.name.clone(), src.kind, src.bundled));
                match src.kind {
                    FileKind::Room => {
                        let (t, d) = load_room_file(&src.file);
                        templates.extend(t);
                        project.diagnostics.extend(d);
                    }
                    FileKind::Flow => {
                        let (f, d) = load_flow_file(&src.file);
                        let clean = !d.iter().any(Diagnostic::is_error);
                        let checked = !misses_a_part(&d);
                        project.diagnostics.extend(d);
                        if let Some(f) = f {
                            if let Some(first) = layer_flows.get(&f.name.value) {
                                project.diagnostics.push(
                                    Diagnostic::error(
                                        "flow::duplicate-name",
                                        format!("two flows are named `{}`", f.name.value),
                                    )
                                    .in_file(&f.file)
                                    .label(f.name.span.clone(), "second flow with this name")
                                    .help(format!(
                                        "flow names are unique; the first is in {}",
                                        first.name
                                    )),
                                );
                                continue;
                            }
                            layer_flows.insert(f.name.value.clone(), Arc::clone(&f.file));
                            flows.insert(f.name.value.clone(), (f, clean, checked));
                        }
                    }
                }
            }
            project
                .library
                .add_layer(templates, &mut project.diagnostics);
        }
        // Only the flows that survive overriding are checked and kept.
        for (name, (flow, clean, checked)) in flows {
            let diags = if checked {
                validate_flow(&flow, &project.library)
            } else {
                Vec::new()
            };
            let usable = clean && !diags.iter().any(Diagnostic::is_error);
            project.diagnostics.extend(diags);
            if usable {
                project.flows.insert(name, flow);
            }
        }
        project
    }

    /// The names of the bundled templates a room of `flow` may be drawn
    /// from (by its nodes' and injections' categories, pools and
    /// templates), sorted: what a user's flow takes from the bundled
    /// content when a project asks for it.
    pub fn bundled_templates_for(&self, flow: &Flow) -> Vec<String> {
        let Generator::Flow(g) = &flow.generator else {
            return Vec::new();
        };
        // Each room's categories, pool and exact template.
        let mut wanted: Vec<(Vec<String>, Vec<String>, Option<String>)> = Vec::new();
        for n in &g.nodes {
            let mut categories = vec![n.category.value.clone()];
            if let NodeKind::Chain(chain) = &n.kind {
                categories.extend(
                    CHAIN_LETTERS
                        .iter()
                        .filter(|(c, _)| {
                            chain
                                .rules
                                .iter()
                                .any(|r| r.to.iter().any(|w| w.contains(*c)))
                                || chain.start.as_ref().is_some_and(|s| s.value.contains(*c))
                        })
                        .map(|(_, name)| (*name).to_owned()),
                );
            }
            let pool = n.pool.iter().map(|p| p.value.clone()).collect();
            wanted.push((
                categories,
                pool,
                n.template.as_ref().map(|t| t.value.clone()),
            ));
        }
        for group in &g.injections {
            for inj in &group.entries {
                let room = &inj.room;
                wanted.push((
                    vec![room.category.value.clone()],
                    room.pool.iter().map(|p| p.value.clone()).collect(),
                    room.template.as_ref().map(|t| t.value.clone()),
                ));
            }
        }
        let mut names = std::collections::BTreeSet::new();
        for (categories, pool, template) in &wanted {
            for category in categories {
                names.extend(
                    self.library
                        .choices(category, pool, template.as_deref())
                        .into_iter()
                        .filter(|t| t.origin.file.is_bundled())
                        .map(|t| t.name.clone()),
                );
            }
        }
        names.into_iter().collect()
    }

    /// Whether any error (not warning) was found.
    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(Diagnostic::is_error)
    }

    /// The flow named `name`, or loaded from the file at that path. A path
    /// (see [`is_path`]) names only the flow of that very file: never
    /// another flow that happens to share its file stem.
    pub fn flow(&self, name_or_path: &str) -> Option<&Flow> {
        if !is_path(name_or_path) {
            return self.flows.get(name_or_path);
        }
        let wanted = Path::new(name_or_path).canonicalize().ok();
        self.flows.values().find(|f| {
            f.file.name == name_or_path
                || wanted.is_some() && Path::new(&f.file.name).canonicalize().ok() == wanted
        })
    }

    /// The flow `wanted` (name or path), or why it cannot be used: its own
    /// errors when it has some, else "no flow named" with a suggestion.
    pub fn find_flow(&self, wanted: &str) -> Result<&Flow, Vec<Diagnostic>> {
        if let Some(flow) = self.flow(wanted) {
            return Ok(flow);
        }
        let own: Vec<Diagnostic> = self
            .diagnostics
            .iter()
            .filter(|d| {
                d.is_error()
                    && match &d.file {
                        Some(f) => {
                            f.name == wanted
                                || !is_path(wanted) && f.name.ends_with(&format!("/{wanted}.yaml"))
                        }
                        // A file that could not be read (too big, not
                        // UTF-8): its diagnostic names the path.
                        None => is_path(wanted) && d.message.starts_with(&format!("{wanted} ")),
                    }
            })
            .cloned()
            .collect();
        if !own.is_empty() {
            return Err(own);
        }
        if is_path(wanted) {
            let why = match std::fs::metadata(wanted) {
                Ok(m) if m.is_file() => "it holds no usable flow".to_owned(),
                Ok(_) => "it is not a file".to_owned(),
                Err(e) => e.to_string(),
            };
            return Err(vec![
                Diagnostic::error(
                    "project::unreadable-flow",
                    format!("cannot use the flow file `{wanted}`: {why}"),
                )
                .help("give the path of a flow file, or a flow's name (`dungeonflow validate` lists the problems of a file)"),
            ]);
        }
        let known: Vec<&str> = self.flows.keys().map(String::as_str).collect();
        Err(vec![
            Diagnostic::error("project::unknown-flow", format!("no flow named `{wanted}`"))
                .help(crate::diag::suggest(wanted, &known)),
        ])
    }

    /// Generates the level of flow `name` (a flow's name or its file's path)
    /// for `seed`, with default [`Options`]: the one call a game or a
    /// snapshot test needs. The same project, flow and seed give the same
    /// level on every machine.
    pub fn generate(&self, name: &str, seed: u64) -> Result<Level, Error> {
        self.generate_with(name, seed, &Options::default())
    }

    /// [`Project::generate`] with injection flags and limits.
    pub fn generate_with(&self, name: &str, seed: u64, options: &Options) -> Result<Level, Error> {
        let flow = self.find_flow(name).map_err(Error::Invalid)?;
        crate::generate::generate(flow, &self.library, seed, options)
            .map(|g| g.level)
            .map_err(|diagnostic| Error::Generation {
                flow: flow.name.value.clone(),
                seed,
                diagnostic: Box::new(diagnostic),
            })
    }

    /// `Ok` when no file of the project has an error (warnings are kept in
    /// [`Project::diagnostics`]), else every error found while loading and
    /// validating.
    pub fn check(&self) -> Result<(), Error> {
        let errors: Vec<Diagnostic> = self
            .diagnostics
            .iter()
            .filter(|d| d.is_error())
            .cloned()
            .collect();
        if errors.is_empty() {
            Ok(())
        } else {
            Err(Error::Invalid(errors))
        }
    }

    /// The names of the usable (error-free) flows, sorted.
    pub fn flow_names(&self) -> impl Iterator<Item = &str> {
        self.flows.keys().map(String::as_str)
    }

    /// The names of the room templates (rotated and mirrored variants
    /// included, as `name@rotate90`).
    pub fn template_names(&self) -> impl Iterator<Item = &str> {
        self.library.names()
    }
}

/// Whether `wanted` (a command's flow argument) is a path rather than a
/// flow's name: it has a folder separator or a `.yaml`/`.yml` ending.
pub fn is_path(wanted: &str) -> bool {
    wanted.contains('/')
        || wanted.contains('\\')
        || wanted.ends_with(".yaml")
        || wanted.ends_with(".yml")
}

/// The bundled flow and room files, as embedded in the binary.
pub fn bundled_sources() -> Vec<Source> {
    let mut out = Vec::new();
    for (dir, kind, prefix) in [
        (&BUNDLED_ROOMS, FileKind::Room, "rooms"),
        (&BUNDLED_FLOWS, FileKind::Flow, "flows"),
    ] {
        let mut files: Vec<&include_dir::File> = Vec::new();
        collect_embedded(dir, &mut files);
        files.sort_by_key(|f| f.path());
        for f in files {
            if let Some(text) = f.contents_utf8() {
                let name = format!("{BUNDLED_PREFIX}{prefix}/{}", f.path().display());
                out.push(Source {
                    file: SourceFile::new(name, text),
                    kind,
                    bundled: true,
                });
            }
        }
    }
    out
}

fn collect_embedded<'a>(dir: &'a Dir<'a>, out: &mut Vec<&'a include_dir::File<'a>>) {
    for f in dir.files() {
        if is_yaml(f.path()) {
            out.push(f);
        }
    }
    for d in dir.dirs() {
        collect_embedded(d, out);
    }
}

fn is_yaml(p: &Path) -> bool {
    matches!(p.extension().and_then(|e| e.to_str()), Some("yaml" | "yml"))
}

/// Reads the files named by `path` (recursively for folders).
pub fn collect_path(
    path: &Path,
    kind: Option<FileKind>,
    out: &mut Vec<Source>,
    diags: &mut Vec<Diagnostic>,
    visited: &mut Visited,
) {
    if path.is_dir() {
        if !visited.enter(path, diags) {
            return;
        }
        let sub = |name: &str| path.join(name);
        if kind.is_none() && (sub("flows").is_dir() || sub("rooms").is_dir()) {
            for (name, k) in [("rooms", FileKind::Room), ("flows", FileKind::Flow)] {
                if sub(name).is_dir() {
                    collect_path(&sub(name), Some(k), out, diags, visited);
                }
            }
            return;
        }
        let kind = kind.or(match path.file_name().and_then(|n| n.to_str()) {
            Some("rooms") => Some(FileKind::Room),
            Some("flows") => Some(FileKind::Flow),
            _ => None,
        });
        let mut entries: Vec<PathBuf> = match std::fs::read_dir(path) {
            Ok(rd) => rd.filter_map(|e| e.ok().map(|e| e.path())).collect(),
            Err(e) => {
                diags.push(Diagnostic::error(
                    "io::read",
                    format!("cannot read folder {}: {e}", path.display()),
                ));
                return;
            }
        };
        entries.sort();
        for e in entries {
            let settings = e.file_name().is_some_and(|n| n == PROJECT_FILE);
            if e.is_dir() || (is_yaml(&e) && !settings) {
                collect_path(&e, kind, out, diags, visited);
            }
        }
        return;
    }
    match read_text(path) {
        Ok(text) => {
            let kind = kind.unwrap_or_else(|| sniff_kind(path, &text));
            out.push(Source {
                file: SourceFile::new(path.display().to_string(), text),
                kind,
                bundled: false,
            });
        }
        Err(d) => diags.push(d),
    }
}

/// Whether the diagnostics of a flow file report an unknown or duplicated
/// top-level key (a misspelled `egdes:`, a second `edges:` block): the
/// flow then misses that part, and checking its graph would only report
/// what follows from the mistake.
fn misses_a_part(diags: &[Diagnostic]) -> bool {
    diags.iter().any(|d| {
        matches!(d.code, "yaml::unknown-field" | "yaml::duplicate-key")
            && d.message.ends_with(" in a flow file")
    })
}

/// Classifies a file outside `flows/` and `rooms/` by its top-level keys.
fn sniff_kind(path: &Path, text: &str) -> FileKind {
    let in_rooms = path.components().any(|c| c.as_os_str() == "rooms");
    let room_key = text
        .lines()
        .any(|l| l.starts_with("art:") || l.starts_with("rooms:"));
    if in_rooms || room_key {
        FileKind::Room
    } else {
        FileKind::Flow
    }
}

/// Reads the [`PROJECT_FILE`] of the project folder `dir`, when it has one:
/// whether it asks for the bundled content (`bundled: true`), and what was
/// wrong with the file.
pub fn read_project_file(dir: &Path) -> (Option<bool>, Vec<Diagnostic>) {
    let path = dir.join(PROJECT_FILE);
    if !path.is_file() {
        return (None, Vec::new());
    }
    let text = match read_text(&path) {
        Ok(text) => text,
        Err(d) => return (None, vec![d]),
    };
    let file = SourceFile::new(path.display().to_string(), text);
    let root = match crate::yaml::parse(&file) {
        Ok(root) => root,
        Err(d) => return (None, vec![d]),
    };
    let mut d = crate::yaml::Decoder::new(&file);
    let mut bundled = None;
    if matches!(root.value, crate::yaml::Value::Null) {
        return (None, Vec::new());
    }
    if let Some(mut f) = d.map(&root, "a project file") {
        bundled = f.get("bundled").and_then(|n| d.bool(n, "`bundled`"));
        f.finish(&mut d, "a project file", PROJECT_FIELDS);
    }
    (bundled, d.diags)
}

#[cfg(test)]
mod tests {
    use super::*;

    const ROOM: &str =
        "name: box\ncategory: normal\nart: |\n  ##A##\n  #...#\n  B...C\n  #...#\n  ##D##\n";

    #[test]
    fn a_project_of_strings_uses_only_its_rooms_and_names_its_files() {
        let flow = "name: pair\nlayout: { reuse_templates: true }\nnodes:\n  a: entrance\n  b: normal\n  c: normal\nedges:\n  - a -> b -> c\n";
        let gate = ROOM.replace("box", "gate").replace("normal", "entrance");
        let project = Project::from_layers(vec![vec![
            Source::room("game/box.yaml", ROOM),
            Source::room("game/gate.yaml", gate),
            Source::flow("game/pair.yaml", flow),
        ]]);
        assert!(!project.has_errors(), "{:?}", project.diagnostics);
        assert_eq!(project.library.templates().len(), 2);
        let level = project.generate("pair", 3).expect("a level");
        assert_eq!(level.rooms.len(), 3);
        let templates: Vec<&str> = level.rooms.iter().map(|r| r.template.as_str()).collect();
        assert_eq!(templates, ["gate", "box", "box"]);
    }

    #[test]
    fn a_mistake_in_a_string_points_at_the_name_it_was_given() {
        let broken = ROOM.replace("category: normal", "category: [normal]");
        let project = Project::from_layers(vec![vec![Source::room("game/box.yaml", broken)]]);
        let d = project.diagnostics.first().expect("a diagnostic");
        assert_eq!(
            d.file.as_ref().map(|f| f.name.as_str()),
            Some("game/box.yaml")
        );
    }
}
