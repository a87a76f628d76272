//! Any bytes through the flow and room loaders and the flow validator:
//! never a panic, never a hang.
#![no_main]

use std::sync::OnceLock;

use dungeonflow::flow::{load_flow_file, validate_flow};
use dungeonflow::rooms::load_room_file;
use dungeonflow::{Project, SourceFile};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    static PROJECT: OnceLock<Project> = OnceLock::new();
    let project = PROJECT.get_or_init(Project::bundled);
    let Ok(text) = std::str::from_utf8(data) else { return };
    let file = SourceFile::new("fuzz.yaml", text);
    if let (Some(flow), _) = load_flow_file(&file) {
        let _ = validate_flow(&flow, &project.library);
    }
    let _ = load_room_file(&file);
});
