//! Any bytes as a level JSON file, read and solved: never a panic, never a hang.
#![no_main]

#[path = "../bodies.rs"]
#[allow(dead_code)] // each target uses one of the bodies
mod bodies;

libfuzzer_sys::fuzz_target!(|data: &[u8]| bodies::level_json(data));
