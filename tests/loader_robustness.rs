//! Bad input never panics the loaders: arbitrary bytes, and valid files
//! mutated line by line and byte by byte, through decoding and validation.

use dungeonflow::SourceFile;
use dungeonflow::internals::flow::load_flow_file;
use dungeonflow::internals::project::{Project, bundled_sources};
use proptest::prelude::*;

/// The fuzz targets' bodies: the loaders and the level reader and solver
/// run here as the fuzzers run them.
#[path = "../fuzz/bodies.rs"]
#[allow(dead_code)] // the generation bodies are replayed in fuzz_corpus.rs
mod bodies;
#[path = "support/suite.rs"]
mod suite;

fn corpus() -> Vec<String> {
    bundled_sources()
        .into_iter()
        .map(|s| s.file.text.clone())
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: if suite::full() { 512 } else { 64 }, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_text_never_panics(text in "\\PC{0,400}") {
        bodies::loaders(text.as_bytes());
    }

    #[test]
    fn yamlish_text_never_panics(text in "([a-z_]{1,8}: ?(\\[|\\{|-|~|&a|\\*a|[0-9.]{1,4}|[a-z >|-]{0,12})\n {0,4}){0,30}") {
        bodies::loaders(text.as_bytes());
    }

    #[test]
    fn mutated_valid_files_never_panic(file in 0usize..1000, cut in 0usize..10_000, len in 0usize..64, junk in "[\\[\\]{}:#~A-Z.+ \n-]{0,8}") {
        let files = corpus();
        let text = &files[file % files.len()];
        let mut bytes = text.as_bytes().to_vec();
        let at = cut % (bytes.len() + 1);
        let end = (at + len).min(bytes.len());
        bytes.splice(at..end, junk.bytes());
        bodies::loaders(&bytes);
    }
}

#[test]
fn alias_bomb_fails_fast_with_a_limit_diagnostic() {
    let mut text = String::from("a: &a [x, x, x, x, x, x, x, x, x, x]\n");
    for (i, name) in ["b", "c", "d", "e", "f", "g", "h", "i"].iter().enumerate() {
        let prev = ["a", "b", "c", "d", "e", "f", "g", "h"][i];
        text += &format!(
            "{name}: &{name} [{}]\n",
            vec![format!("*{prev}"); 10].join(", ")
        );
    }
    let (flow, diags) = load_flow_file(&SourceFile::new("bomb.yaml", text));
    assert!(flow.is_none());
    assert_eq!(diags[0].code, "yaml::limit");
}

/// A level file whose width was edited to a billion tiles is refused: the
/// reader once reserved rows x width tiles before checking a row, and a
/// property test's edit made it ask for 66 GB and abort.
#[test]
fn a_level_with_a_huge_width_is_refused_without_reserving_it() {
    let mut value: serde_json::Value =
        serde_json::from_str(&level_corpus()[0]).expect("a level is JSON");
    value["width"] = serde_json::json!(1_000_000_000);
    let err = dungeonflow::level::Level::from_json(&value.to_string()).expect_err("refused");
    assert!(err.contains("the width is 1000000000"), "{err}");
}

/// Level JSON of two bundled flows (one with keys and locks), as
/// `generate -o level.json` writes it.
fn level_corpus() -> &'static [String] {
    static LEVELS: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    LEVELS.get_or_init(|| {
        let project = Project::bundled();
        ["keys_and_locks", "fork"]
            .iter()
            .map(|name| {
                let level = project.generate(name, 1).expect("a bundled flow lays out");
                serde_json::to_string(&level).expect("a level serialises")
            })
            .collect()
    })
}

/// The leaves (numbers, strings, booleans, nulls) of a JSON value, in order.
fn leaves(v: &mut serde_json::Value) -> Vec<&mut serde_json::Value> {
    match v {
        serde_json::Value::Array(items) => items.iter_mut().flat_map(leaves).collect(),
        serde_json::Value::Object(map) => map.values_mut().flat_map(leaves).collect(),
        leaf => vec![leaf],
    }
}

/// A replacement for `leaf`, mostly of its own type (so that the level
/// still reads and reaches the checks and the solver): other ids, numbers
/// out of range, and now and then another type.
fn replacement(leaf: &serde_json::Value, k: usize) -> serde_json::Value {
    use serde_json::{Value, json};
    let strings = ["", "start", "boss", "entrance", "key", "door", "red"];
    let numbers = [
        json!(-1),
        json!(0),
        json!(1_000_000_000),
        json!(4_294_967_296u64),
        json!(7),
    ];
    let others = [
        json!(null),
        json!([]),
        json!({}),
        json!(true),
        json!([[0, 0]]),
    ];
    match leaf {
        _ if k % 8 == 7 => others[k % others.len()].clone(),
        Value::String(_) => json!(strings[k % strings.len()]),
        Value::Number(_) => numbers[k % numbers.len()].clone(),
        Value::Bool(b) => json!(!b),
        _ => others[k % others.len()].clone(),
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: if suite::full() { 512 } else { 48 }, ..ProptestConfig::default() })]

    /// What `solve` does with a level file: read it, check its entrance,
    /// solve it. A level with some values replaced (ids, coordinates,
    /// types) is refused or solved, never a panic.
    #[test]
    fn edited_level_json_never_panics_the_reader_or_the_solver(file in 0usize..2, edits in proptest::collection::vec((0usize..100_000, 0usize..64), 1..4)) {
        let mut value: serde_json::Value =
            serde_json::from_str(&level_corpus()[file]).expect("a level is JSON");
        for (at, with) in edits {
            let mut all = leaves(&mut value);
            let n = all.len();
            let leaf = &mut all[at % n];
            **leaf = replacement(leaf, with);
        }
        bodies::level_json(value.to_string().as_bytes());
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: if suite::full() { 256 } else { 32 }, ..ProptestConfig::default() })]

    /// What `solve` does with a level file: read it, check its entrance,
    /// solve it. A mutated level is refused or solved, never a panic.
    #[test]
    fn mutated_level_json_never_panics_the_reader_or_the_solver(file in 0usize..2, cut in 0usize..200_000, len in 0usize..48, junk in "[\\[\\]{}:,\"0-9a-z -]{0,12}") {
        let levels = level_corpus();
        let mut bytes = levels[file].as_bytes().to_vec();
        let at = cut % (bytes.len() + 1);
        let end = (at + len).min(bytes.len());
        bytes.splice(at..end, junk.bytes());
        bodies::level_json(&bytes);
    }
}
