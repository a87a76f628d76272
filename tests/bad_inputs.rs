//! Every file of `tests/bad/` holds one mistake. The validator must report it
//! with the expected code and a label on the offending line; the rendered
//! diagnostics are pinned by insta snapshots.

use std::path::{Path, PathBuf};

use dungeonflow::internals::project::{FileKind, Project, Source, read_text};
use dungeonflow::{Diagnostic, SourceFile};

fn bad_files() -> Vec<(PathBuf, FileKind)> {
    let mut out = Vec::new();
    for (dir, kind) in [
        ("tests/bad/flows", FileKind::Flow),
        ("tests/bad/rooms", FileKind::Room),
    ] {
        let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
            .unwrap_or_else(|e| panic!("{dir}: {e}"))
            .map(|e| e.expect("dir entry").path())
            .filter(|p| p.extension().is_some_and(|e| e == "yaml"))
            .collect();
        files.sort();
        out.extend(files.into_iter().map(|f| (f, kind)));
    }
    out
}

/// Diagnostics of one bad file, validated against the bundled content.
fn diagnostics_for(path: &Path, kind: FileKind) -> Vec<Diagnostic> {
    let mut layer = Vec::new();
    // Files that need a partner (duplicate names) are loaded with it.
    let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or("");
    let partners: Vec<PathBuf> = match stem.strip_suffix("_a") {
        Some(base) => vec![
            path.to_path_buf(),
            path.with_file_name(format!("{base}_b.yaml")),
        ],
        None => vec![path.to_path_buf()],
    };
    for p in &partners {
        let text = read_text(p).expect("readable");
        let name = p.to_string_lossy().replace('\\', "/");
        layer.push(Source {
            file: SourceFile::new(name, text),
            kind,
            bundled: false,
        });
    }
    let mut bundled = dungeonflow::internals::project::bundled_sources();
    bundled.retain(|s| s.kind == FileKind::Room);
    let project = Project::from_layers(vec![bundled, layer]);
    project
        .diagnostics
        .into_iter()
        .filter(|d| d.file.as_ref().is_none_or(|f| !f.is_bundled()))
        .collect()
}

#[test]
fn corpus_is_large_enough() {
    assert!(
        bad_files().len() >= 30,
        "tests/bad holds {} files",
        bad_files().len()
    );
}

#[test]
fn each_bad_file_reports_its_expected_error_with_a_location() {
    for (path, kind) in bad_files() {
        let text = std::fs::read_to_string(&path).expect("readable");
        let stem = path
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or_default()
            .to_owned();
        if stem.ends_with("_b") {
            continue; // checked with its `_a` partner
        }
        let expected = text
            .lines()
            .find_map(|l| l.strip_prefix("# expect: "))
            .unwrap_or_else(|| panic!("{}: no `# expect:` line", path.display()))
            .trim()
            .to_owned();
        let diags = diagnostics_for(&path, kind);
        let errors: Vec<&Diagnostic> = diags.iter().filter(|d| d.is_error()).collect();
        assert!(
            errors.iter().any(|d| d.code == expected),
            "{}: expected {expected}, got {:?}",
            path.display(),
            errors.iter().map(|d| d.code).collect::<Vec<_>>()
        );
        for d in &errors {
            let (_, line, _) = d
                .location()
                .unwrap_or_else(|| panic!("{}: {} has no location", path.display(), d.code));
            assert!(line >= 1);
            assert!(
                !d.labels.is_empty() || d.code.starts_with("yaml::too-large"),
                "{}: {} has no label",
                path.display(),
                d.code
            );
        }
        let rendered: String = diags.iter().map(|d| d.render(false)).collect();
        insta::assert_snapshot!(stem, rendered);
    }
}

#[test]
fn a_key_that_opens_nothing_is_named_in_its_warning() {
    // The label printed a literal `{key}`.
    let text = "name: misspelled_lock\nnodes:\n  start: entrance\n  vault: { category: normal, keys: [red] }\n  crypt: { category: normal, lock: rde }\n  boss: boss\nedges:\n  - start -> vault\n  - vault -> crypt\n  - crypt -> boss\n";
    let layer = vec![Source {
        file: SourceFile::new("misspelled_lock.yaml".to_owned(), text.to_owned()),
        kind: FileKind::Flow,
        bundled: false,
    }];
    let mut bundled = dungeonflow::internals::project::bundled_sources();
    bundled.retain(|s| s.kind == FileKind::Room);
    let project = Project::from_layers(vec![bundled, layer]);
    let warning = project
        .diagnostics
        .iter()
        .find(|d| d.code == "flow::unused-key")
        .expect("the unused key is reported");
    let rendered = warning.render(false);
    assert!(rendered.contains("no `lock: red` anywhere"), "{rendered}");
    assert!(!rendered.contains("{key}"), "{rendered}");
}

#[test]
fn a_room_without_exits_of_its_links_widths_is_refused_up_front() {
    // `bend`'s only 1-wide exit cannot serve both its 1-wide neighbours;
    // its 2-wide exit fits neither. Every layout attempt would fail.
    let rooms = "rooms:\n  - name: gate\n    category: entrance\n    art: |\n      ###A###\n      #.....#\n      B.....C\n      ###D###\n  - name: bend\n    category: normal\n    art: |\n      ##AA#~~\n      #...#~~\n      #...###\n      #.....B\n      #######\n  - name: lair\n    category: boss\n    art: |\n      ###A###\n      #.....#\n      D.....B\n      ###C###\n";
    let flow = "name: narrow\nnodes:\n  start: entrance\n  bend: { category: normal, template: bend }\n  boss: boss\nedges:\n  - start -> bend -> boss\n";
    let project = Project::from_layers(vec![vec![
        Source::room("rooms.yaml", rooms),
        Source::flow("narrow.yaml", flow),
    ]]);
    let rendered: String = project
        .diagnostics
        .iter()
        .filter(|d| d.code == "flow::exit-widths")
        .map(|d| d.render(false))
        .collect();
    insta::assert_snapshot!(rendered);
    // A 2-wide door on the boss room makes it fit.
    let wider = rooms.replace(
        "category: boss\n    art: |\n      ###A###",
        "category: boss\n    art: |\n      ##AA###",
    );
    let project = Project::from_layers(vec![vec![
        Source::room("rooms.yaml", wider.as_str()),
        Source::flow("narrow.yaml", flow),
    ]]);
    assert!(
        project
            .diagnostics
            .iter()
            .all(|d| d.code != "flow::exit-widths"),
        "{:?}",
        project.diagnostics
    );
    assert!(project.generate("narrow", 1).is_ok());
}
