//! The fuzzing corpus (`fuzz/corpus/TARGET/`: the seeds and every input
//! the fuzzers kept, minimised) replayed through the same bodies as the
//! libFuzzer targets: whatever a fuzzer once found stays fixed, and the
//! default suite exercises every target without cargo-fuzz. The default
//! run replays one file in twenty of each target and every `regression-*`
//! file (the findings); the full run (`CI` or `DUNGEONFLOW_FULL=1`) all.

use std::path::Path;

#[path = "../fuzz/bodies.rs"]
mod bodies;
#[path = "support/suite.rs"]
mod suite;

/// One corpus file in this many is replayed by the default run.
const SHORT_RUN_SHARE: usize = 20;

/// Runs `body` on the corpus files of `target` this run keeps; returns
/// how many.
fn replay(target: &str, body: fn(&[u8])) -> usize {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fuzz/corpus")
        .join(target);
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.expect("a corpus entry").path())
        .collect();
    files.sort();
    let kept: Vec<_> = files
        .iter()
        .enumerate()
        .filter(|(i, file)| {
            suite::full()
                || i % SHORT_RUN_SHARE == 0
                || file
                    .file_name()
                    .is_some_and(|n| n.to_string_lossy().starts_with("regression-"))
        })
        .map(|(_, file)| file)
        .collect();
    for file in &kept {
        let data = std::fs::read(file).expect("a readable corpus file");
        let outcome = std::panic::catch_unwind(|| body(&data));
        assert!(outcome.is_ok(), "{target}: {} panics", file.display());
    }
    kept.len()
}

#[test]
fn the_loaders_corpus_replays() {
    assert!(replay("loaders", bodies::loaders) > 0);
}

#[test]
fn the_level_json_corpus_replays() {
    assert!(replay("level_json", bodies::level_json) > 0);
}

#[test]
fn the_edgar_corpus_replays() {
    assert!(replay("edgar", bodies::edgar) > 0);
}

#[test]
fn the_expansion_corpus_replays() {
    assert!(replay("expansion", bodies::expansion) > 0);
}

#[test]
fn the_generation_corpus_replays() {
    assert!(replay("generation", bodies::generation) > 0);
}
