//! Any bytes as a flow; a small valid one generated and checked: never a panic, never a hang.
#![no_main]

#[path = "../bodies.rs"]
#[allow(dead_code)] // each target uses one of the bodies
mod bodies;

libfuzzer_sys::fuzz_target!(|data: &[u8]| bodies::generation(data));
