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
