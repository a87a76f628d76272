//! A project folder of its own for CLI tests: a copy of the flow and rooms
//! of `examples/embedding/` (the `crypt` flow) in a temporary folder.

#![allow(dead_code)] // each test binary uses the part it needs

use std::path::Path;

/// The copy; deleted when dropped.
pub fn example_project() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tmp");
    copy_example_to(dir.path());
    dir
}

/// Copies the example's `flows/` and `rooms/` into `to`.
pub fn copy_example_to(to: &Path) {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/embedding");
    for sub in ["flows", "rooms"] {
        std::fs::create_dir_all(to.join(sub)).expect("mkdir");
        for e in std::fs::read_dir(src.join(sub)).expect("read") {
            let p = e.expect("entry").path();
            std::fs::copy(&p, to.join(sub).join(p.file_name().expect("name"))).expect("copy");
        }
    }
}

/// Adds the flow `trap` to the project at `to`: a loop whose rooms each
/// carry two `niche` rooms, whose only exit faces up, with corridors of 2
/// or 3 tiles. The loop lays out and some niches attach, then the layout
/// gives up while joining the rest (a partial layout to show).
pub fn add_trap(to: &Path) {
    std::fs::write(
        to.join("rooms/niche.yaml"),
        "name: niche\ncategory: secret\nart: |\n  ##A##\n  #...#\n  #####\n",
    )
    .expect("write");
    let niches: String = (1..=6).map(|i| format!("  n{i}: secret\n")).collect();
    std::fs::write(
        to.join("flows/trap.yaml"),
        format!(
            "name: trap\nlayout: {{ corridor: 2..3, reuse_templates: true }}\nnodes:\n  gate: entrance\n  a: normal\n  b: normal\n  c: boss\n{niches}edges:\n  - gate -> a -> b -> c\n  - a -> n1\n  - a -> n2\n  - b -> n3\n  - b -> n4\n  - c -> n5\n  - c -> n6\nloops:\n  - c <-> gate\n"
        ),
    )
    .expect("write");
}

/// Replaces `from` (which must be there) by `to` in the project file
/// `file` of `dir`, as a designer's save would.
pub fn edit(dir: &Path, file: &str, from: &str, to: &str) {
    let path = dir.join(file);
    let text = std::fs::read_to_string(&path).expect("read");
    assert!(text.contains(from), "`{from}` is not in {file}");
    std::fs::write(&path, text.replace(from, to)).expect("write");
}
