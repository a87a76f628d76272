//! The game crate of `examples/embedding/`: it uses dungeonflow as a library
//! with `default-features = false` (no command-line tool) and only the
//! public API, and its snapshot test is the one the guide tells a game
//! developer to write. The guide shows that test verbatim (checked on every
//! run); the full run (CI) also builds the crate and runs its tests, which
//! compare against its committed snapshots.

use std::path::PathBuf;
use std::process::Command;

#[path = "support/suite.rs"]
mod suite;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The fenced block of `markdown` whose first line is `first`.
fn block_starting_with<'a>(markdown: &'a str, first: &str) -> Option<&'a str> {
    markdown.split("```").find_map(|block| {
        let body = block
            .strip_prefix("rust\n")
            .or(block.strip_prefix("toml\n"))?;
        body.starts_with(first).then_some(body)
    })
}

#[test]
fn the_guide_shows_the_embedding_crates_snapshot_test_verbatim() {
    let guide = std::fs::read_to_string(root().join("docs/guide.md")).expect("the guide");
    let test = std::fs::read_to_string(root().join("examples/embedding/tests/levels.rs"))
        .expect("the embedding crate's test");
    let shown = block_starting_with(&guide, "// tests/levels.rs")
        .expect("a `// tests/levels.rs` block in docs/guide.md");
    assert_eq!(
        shown, test,
        "docs/guide.md must show examples/embedding/tests/levels.rs as it is"
    );
}

#[test]
fn the_embedding_crate_leaves_out_the_command_line_tool() {
    let manifest = std::fs::read_to_string(root().join("examples/embedding/Cargo.toml"))
        .expect("the embedding crate's manifest");
    assert!(
        manifest.contains(r#"dungeonflow = { path = "../..", default-features = false }"#),
        "the embedding crate depends on the engine alone:\n{manifest}"
    );
}

#[test]
fn the_embedding_crate_builds_and_its_snapshots_hold() {
    if !suite::full() {
        suite::note(
            "skipped building examples/embedding (a separate crate, about a minute); the full run (CI or DUNGEONFLOW_FULL=1) builds and tests it",
        );
        return;
    }
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let crate_dir = root().join("examples/embedding");
    let target = root().join("target/embedding");
    let run = |args: &[&str]| {
        let out = Command::new(&cargo)
            .args(args)
            .arg("--locked")
            .arg("--manifest-path")
            .arg(crate_dir.join("Cargo.toml"))
            .env("CARGO_TARGET_DIR", &target)
            .env("INSTA_UPDATE", "no")
            // Line tables are enough here: half the disk and link time.
            .env("CARGO_PROFILE_DEV_DEBUG", "line-tables-only")
            .current_dir(&crate_dir)
            .output()
            .expect("cargo runs");
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(out.status.success(), "cargo {args:?} failed:\n{text}");
        text
    };
    run(&["test"]);
    let printed = run(&["run", "--quiet", "--", "2"]);
    assert!(
        printed.starts_with("crypt, seed 2: "),
        "the game prints its level:\n{printed}"
    );
    assert!(printed.contains("spawn player_start in gate"), "{printed}");
    // Only the crate's own rooms: no bundled template in the level.
    let own: Vec<String> = std::fs::read_dir(crate_dir.join("rooms"))
        .expect("rooms")
        .map(|e| std::fs::read_to_string(e.expect("entry").path()).expect("room file"))
        .collect();
    for line in printed.lines().filter(|l| l.contains(" template ")) {
        let template = line
            .split(" template ")
            .nth(1)
            .and_then(|rest| rest.split_whitespace().next())
            .expect("a template name");
        assert!(
            own.iter()
                .any(|text| text.contains(&format!("name: {template}\n"))),
            "`{template}` is not one of the crate's rooms:\n{printed}"
        );
    }
}
