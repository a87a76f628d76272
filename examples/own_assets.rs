//! A game that ships its rooms and flows in its own asset archive: the
//! templates and the flow are loaded from strings, without the bundled
//! rooms, and a level is generated and printed as ASCII. A mistake in the
//! text is reported with the name given to it.
//!
//! `cargo run --example own_assets -- [SEED]` (default: 7).

use dungeonflow::render::render_ascii;
use dungeonflow::{Project, Source};

/// The game's room templates, one file each: name and text.
const ROOMS: [(&str, &str); 4] = [
    (
        "assets/gate.yaml",
        "name: gate\ncategory: entrance\nart: |\n  ###A###\n  #.....#\n  B.....C\n  #.....#\n  ###D###\n",
    ),
    (
        "assets/cell.yaml",
        "name: cell\ncategory: normal\nart: |\n  ##A##\n  #...#\n  B...C\n  #...#\n  ##D##\n",
    ),
    (
        "assets/hall.yaml",
        "name: hall\ncategory: normal\nart: |\n  ####A####\n  #.......#\n  B..o.o..C\n  #.......#\n  ####D####\n",
    ),
    (
        "assets/lair.yaml",
        "name: lair\ncategory: boss\nart: |\n  ####A####\n  #.......#\n  #..o.o..#\n  B.......C\n  #..o.o..#\n  #.......#\n  ####D####\n",
    ),
];

/// The game's flow: a gate, a loop of cells around a hall, the lair.
const FLOW: &str = "\
name: keep
layout: { reuse_templates: true }
nodes:
  gate: entrance
  west: { chain: 2..3, category: normal }
  east: { chain: 2..3, category: normal }
  hall: normal
  lair: boss
edges:
  - gate -> west -> hall -> lair
  - gate -> east
loops:
  - east <-> hall
";

fn main() -> std::process::ExitCode {
    let seed = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(7);
    // One layer: the game's own files only (add `dungeonflow::bundled_sources()`
    // as a first layer to draw from the bundled rooms as well).
    let mut files: Vec<Source> = ROOMS
        .iter()
        .map(|&(name, text)| Source::room(name, text))
        .collect();
    files.push(Source::flow("assets/keep.yaml", FLOW));
    let project = Project::from_layers(vec![files]);
    // `check` refuses a project with an error in any file, even one the
    // flow does not use; `generate` alone would refuse only the flow's own.
    match project
        .check()
        .and_then(|()| project.generate("keep", seed))
    {
        Ok(level) => {
            print!("{}", render_ascii(&level, true));
            std::process::ExitCode::SUCCESS
        }
        Err(error) => {
            eprint!("{}", error.render(false));
            std::process::ExitCode::FAILURE
        }
    }
}
