//! A project of the bundled room templates and one flow written in a test.

use dungeonflow::SourceFile;
use dungeonflow::internals::project::{FileKind, Project, Source, bundled_sources};

/// The bundled room templates plus `flow` (a flow file's text), checked to
/// load without errors.
pub fn project_with(flow: &str) -> Project {
    let rooms: Vec<Source> = bundled_sources()
        .into_iter()
        .filter(|s| s.kind == FileKind::Room)
        .collect();
    let user = vec![Source {
        file: SourceFile::new("test.yaml", flow),
        kind: FileKind::Flow,
        bundled: false,
    }];
    let p = Project::from_layers(vec![rooms, user]);
    assert!(!p.has_errors(), "{:?}", p.diagnostics);
    p
}
