//! Every relative link of the README, ARCHITECTURE.md, CHANGELOG.md and
//! `docs/*.md` resolves inside the repository (a file or folder that exists,
//! and for `#anchor` a heading of that file), and no document points outside
//! the repository.

use std::path::{Path, PathBuf};

/// The GitHub anchor of a Markdown heading: lower case, spaces to dashes,
/// punctuation other than `-` and `_` dropped.
fn anchor(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

fn anchors(text: &str) -> Vec<String> {
    let mut fenced = false;
    text.lines()
        .filter(|l| {
            if l.starts_with("```") {
                fenced = !fenced;
            }
            !fenced
        })
        .filter_map(|l| l.strip_prefix('#'))
        .map(|l| anchor(l.trim_start_matches('#')))
        .collect()
}

/// The targets of the inline links `[text](target)` of `text`.
fn links(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(i) = rest.find("](") {
        rest = &rest[i + 2..];
        if let Some(end) = rest.find(')') {
            out.push(rest[..end].to_owned());
        }
    }
    out
}

fn documents() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut docs: Vec<PathBuf> = ["README.md", "ARCHITECTURE.md", "CHANGELOG.md"]
        .iter()
        .map(|name| root.join(name))
        .collect();
    let mut more: Vec<PathBuf> = std::fs::read_dir(root.join("docs"))
        .expect("docs/")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    more.sort();
    docs.extend(more);
    docs
}

#[test]
fn relative_links_resolve_inside_the_repository() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .canonicalize()
        .expect("root");
    let mut broken = Vec::new();
    for doc in documents() {
        let text = std::fs::read_to_string(&doc).expect("readable");
        assert!(
            !text.contains("../shared"),
            "{} mentions ../shared, which is not in the repository",
            doc.display()
        );
        for link in links(&text) {
            if link.contains("://") || link.starts_with("mailto:") {
                continue;
            }
            let (path, fragment) = link.split_once('#').unwrap_or((&link, ""));
            let target = if path.is_empty() {
                doc.clone()
            } else {
                doc.parent().expect("folder").join(path)
            };
            let Ok(found) = target.canonicalize() else {
                broken.push(format!("{}: {link} (no such file)", doc.display()));
                continue;
            };
            if !found.starts_with(&root) {
                broken.push(format!(
                    "{}: {link} (outside the repository)",
                    doc.display()
                ));
            } else if !fragment.is_empty()
                && found.extension().is_some_and(|e| e == "md")
                && !anchors(&std::fs::read_to_string(&found).expect("readable"))
                    .iter()
                    .any(|a| a == fragment)
            {
                broken.push(format!("{}: {link} (no such heading)", doc.display()));
            }
        }
    }
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

#[test]
fn every_top_level_document_is_checked() {
    let names: Vec<String> = documents()
        .iter()
        .filter_map(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
        .collect();
    for name in [
        "README.md",
        "ARCHITECTURE.md",
        "CHANGELOG.md",
        "guide.md",
        "formats.md",
    ] {
        assert!(
            names.iter().any(|n| n == name),
            "{name} is not checked: {names:?}"
        );
    }
}

#[test]
fn anchors_follow_githubs_rule() {
    assert_eq!(
        anchor(" Locks, keys and solvability"),
        "locks-keys-and-solvability"
    );
    assert_eq!(anchor("The level JSON contract"), "the-level-json-contract");
    assert_eq!(
        links("see [a](b.md#c) and [d](https://e)"),
        ["b.md#c", "https://e"]
    );
}
