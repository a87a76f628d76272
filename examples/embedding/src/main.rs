//! A game's level loader in miniature: it loads the crate's own rooms and
//! flow (none of dungeonflow's bundled demo rooms), generates the crypt for
//! a seed, and turns the level into what the game spawns: rooms with their
//! data, the player's start, the monsters and the chests.
//!
//! `cargo run -- [SEED]` (default: 1).

use std::path::PathBuf;
use std::process::ExitCode;

use dungeonflow::level::ConnectionKind;
use dungeonflow::{Options, Project};

fn main() -> ExitCode {
    let seed = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(1);
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let project = Project::load_with(&[root.join("flows"), root.join("rooms")], false);
    // A game bounds its loading time: at most 20 layout attempts.
    let options = Options::default().max_attempts(20);
    let level = match project
        .check()
        .and_then(|()| project.generate_with("crypt", seed, &options))
    {
        Ok(level) => level,
        Err(error) => {
            eprint!("{}", error.render(false));
            return ExitCode::FAILURE;
        }
    };
    println!(
        "crypt, seed {seed}: {} rooms on {}x{} tiles",
        level.rooms.len(),
        level.width,
        level.height
    );
    for room in &level.rooms {
        let data: Vec<String> = room
            .properties
            .iter()
            .map(|(key, value)| format!("{key}={value}"))
            .collect();
        println!(
            "  {:<10} {:<8} template {:<20} {}",
            room.id,
            room.category,
            room.template,
            data.join(" ")
        );
    }
    for marker in &level.markers {
        println!(
            "  spawn {:<12} in {:<10} at ({}, {})",
            marker.kind, marker.room, marker.x, marker.y
        );
    }
    let corridors = level
        .connections
        .iter()
        .filter(|c| c.kind == ConnectionKind::Corridor)
        .count();
    println!(
        "  {} passages, {corridors} of them corridors",
        level.connections.len()
    );
    ExitCode::SUCCESS
}
