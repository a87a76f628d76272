//! What each fuzz target does with its input, shared by the libFuzzer
//! targets (`fuzz/fuzz_targets/`) and the corpus replay of the default
//! test suite (`tests/fuzz_corpus.rs`). Every body only requires that the
//! engine returns: a panic, an abort or a hang is the finding.

use std::collections::BTreeSet;
use std::sync::OnceLock;

use dungeonflow::SourceFile;
use dungeonflow::internals::edgar;
use dungeonflow::internals::flow::{Flow, load_flow_file, validate_flow};
use dungeonflow::internals::generate::generate_with;
use dungeonflow::internals::layout::ShapeTable;
use dungeonflow::internals::project::Project;
use dungeonflow::internals::puzzle::{Puzzle, analyse};
use dungeonflow::internals::rooms::load_room_file;
use dungeonflow::level::Level;

/// Most rooms an expanded fuzzed flow may have to be generated: keeps
/// one input to a fraction of a second (larger flows are expanded only).
const MOST_GENERATED_ROOMS: usize = 48;

/// The bundled project and its shapes, prepared once per process.
fn bundled() -> &'static (Project, ShapeTable) {
    static BUNDLED: OnceLock<(Project, ShapeTable)> = OnceLock::new();
    BUNDLED.get_or_init(|| {
        let project = Project::bundled();
        let table = ShapeTable::new(&project.library);
        (project, table)
    })
}

/// A seed taken from the input, so that the fuzzer explores seeds too.
fn seed_of(data: &[u8]) -> u64 {
    data.iter()
        .fold(0u64, |h, &b| h.rotate_left(5) ^ u64::from(b))
}

/// `data` as a flow the bundled library validates without errors.
fn valid_flow(data: &[u8]) -> Option<Flow> {
    let text = std::str::from_utf8(data).ok()?;
    let file = SourceFile::new("fuzz.yaml", text);
    let (flow, diagnostics) = load_flow_file(&file);
    let flow = flow?;
    let library = &bundled().0.library;
    let mut all = diagnostics;
    all.extend(validate_flow(&flow, library));
    (!all.iter().any(|d| d.is_error())).then_some(flow)
}

/// Any bytes through the flow and room loaders and the flow validator.
pub fn loaders(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let file = SourceFile::new("fuzz.yaml", text);
    if let (Some(flow), _) = load_flow_file(&file) {
        let _ = validate_flow(&flow, &bundled().0.library);
    }
    let _ = load_room_file(&file);
}

/// Any bytes read as a `dungeonflow-level/1` JSON level, then solved as
/// `dungeonflow solve` does (the entrance checked first) and checked.
pub fn level_json(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(level) = Level::from_json(text) else {
        return;
    };
    let _ = level.check();
    if level.check_entrance().is_ok() {
        let _ = analyse(&Puzzle::from_level(&level));
    }
}

/// Any bytes as an Edgar graph file and a room set (split at the first
/// NUL byte), imported, and the import validated as `import-edgar` does
/// before it writes.
pub fn edgar(data: &[u8]) {
    let (graph, rooms) = match data.iter().position(|&b| b == 0) {
        Some(i) => (&data[..i], &data[i + 1..]),
        None => (data, &[][..]),
    };
    let (Ok(graph), Ok(rooms)) = (std::str::from_utf8(graph), std::str::from_utf8(rooms)) else {
        return;
    };
    let graph = SourceFile::new("graph.yml", graph);
    let sets = if rooms.is_empty() {
        Vec::new()
    } else {
        vec![SourceFile::new("rooms.yml", rooms)]
    };
    let Ok(imported) = edgar::import(&graph, &sets) else {
        return;
    };
    let _ = Project::from_layers(vec![imported.sources()]);
}

/// Any bytes as a flow; one the validator accepts is expanded with a seed
/// taken from the input.
pub fn expansion(data: &[u8]) {
    let Some(flow) = valid_flow(data) else {
        return;
    };
    if flow.graph().is_some() {
        let library = &bundled().0.library;
        let _ =
            dungeonflow::internals::expand::expand(&flow, library, seed_of(data), &BTreeSet::new());
    }
}

/// Any bytes as a flow; one the validator accepts, of at most
/// [`MOST_GENERATED_ROOMS`] rooms once expanded, is generated (the
/// whole pipeline, bounded by its layout budget) and a level it returns
/// must pass `Level::check`.
pub fn generation(data: &[u8]) {
    let Some(flow) = valid_flow(data) else {
        return;
    };
    let (project, table) = bundled();
    let seed = seed_of(data);
    if flow.graph().is_some() {
        match dungeonflow::internals::expand::expand(
            &flow,
            &project.library,
            seed,
            &BTreeSet::new(),
        ) {
            Ok(graph) if graph.len() <= MOST_GENERATED_ROOMS => {}
            _ => return,
        }
    }
    if let Ok(generated) = generate_with(&flow, &project.library, table, seed, &Default::default())
        && let Err(e) = generated.level.check()
    {
        panic!("a generated level breaks an invariant: {e}");
    }
}
