//! dungeonflow: generate game dungeons from flow graphs and room templates.
//!
//! The pipeline (see ARCHITECTURE.md): load → validate → expand → decompose
//! → lay out → assemble → render. The stages are internal; a game uses the
//! few types re-exported here, the [`level`] model and the [`render`]ers.
//!
//! # Generating a level from a game
//!
//! Load a [`Project`] (the bundled flows and rooms here; [`Project::load_with`]
//! reads your `flows/` and `rooms/` folders, [`Project::from_layers`] files
//! your game read from its own archive), generate a flow with a seed (and
//! [`Options`] when it needs flags or a tighter bound), and read the
//! [`Level`]: rooms with their tiles and properties, the connections between
//! them (doors and corridors, with their locks), the keys and the markers
//! (spawn points, chests, ...). A failure is an [`Error`] that carries the
//! [`Diagnostic`]s, with file, line and column.
//!
//! ```
//! use dungeonflow::Project;
//! use dungeonflow::level::ConnectionKind;
//!
//! let project = Project::bundled();
//! let level = project.generate("classic", 7).expect("classic lays out");
//! assert_eq!(level.seed, 7);
//! let entrance = level
//!     .rooms
//!     .iter()
//!     .find(|room| room.category == "entrance")
//!     .expect("an entrance");
//! // Every room's cells are on the level's tile grid.
//! for room in &level.rooms {
//!     for &[x, y] in &room.cells {
//!         assert!(x >= 0 && y >= 0 && x < level.width && y < level.height);
//!     }
//! }
//! // Doors and corridors have a path of tiles from one room to the other.
//! let passages = level
//!     .connections
//!     .iter()
//!     .filter(|c| c.kind != ConnectionKind::Warp)
//!     .inspect(|c| assert!(c.path.len() >= 2))
//!     .count();
//! assert!(passages >= level.rooms.len() - 1);
//! println!("{} rooms from `{}`, {passages} passages", level.rooms.len(), entrance.id);
//! // Keys lie in rooms; markers are the templates' spawn points and props.
//! for key in &level.items {
//!     assert!(level.room(&key.room).is_some());
//! }
//! let start = level.markers.iter().find(|m| m.kind == "player_start");
//! assert_eq!(start.map(|m| m.room.as_str()), Some(entrance.id.as_str()));
//! // The same seed gives the same level.
//! assert_eq!(project.generate("classic", 7).expect("again"), level);
//! ```
//!
//! Rooms and flows a game ships in its own archive load from strings. A
//! mistake is an [`Error`] pointing at the line and column; a valid flow
//! takes [`Options`]:
//!
//! ```
//! use dungeonflow::{Error, Options, Project, Source};
//!
//! let art = "art: |\n  ##A##\n  #...#\n  B...C\n  #...#\n  ##D##\n";
//! let gate = format!("name: gate\ncategory: entrance\n{art}");
//! let cell = format!("name: cell\ncategory: normal\n{art}");
//! let flow = "name: tiny\nlayout: { reuse_templates: true }\nnodes:\n  a: entrance\n  b: normal\n  c: normal\nedges:\n  - a -> b -> c\n";
//! let project = Project::from_layers(vec![vec![
//!     Source::room("assets/gate.yaml", gate),
//!     Source::room("assets/cell.yaml", cell),
//!     Source::flow("assets/tiny.yaml", flow),
//! ]]);
//! project.check().expect("valid files");
//! let options = Options::default().max_attempts(10);
//! let level = project.generate_with("tiny", 1, &options).expect("a level");
//! assert_eq!(level.rooms.len(), 3);
//!
//! let broken = Project::from_layers(vec![vec![Source::flow(
//!     "assets/broken.yaml",
//!     "name: broken\nnodes:\n  a: entrance\nedges:\n  - a -> nowhere\n",
//! )]]);
//! let Err(Error::Invalid(diagnostics)) = broken.generate("broken", 1) else {
//!     panic!("an undefined node is a mistake in the file");
//! };
//! let (line, column) = diagnostics[0].location().map(|(_, l, c)| (l, c)).expect("a place");
//! assert_eq!((line, column), (5, 10));
//! ```
#![deny(missing_docs)]

mod category;
#[doc(hidden)]
#[cfg(feature = "cli")]
pub mod cli;
mod diag;
mod edgar;
mod error;
mod expand;
mod files;
mod flow;
mod generate;
mod geom;
mod graph;
mod isaac;
mod layout;
pub mod level;
mod project;
mod properties;
mod puzzle;
pub mod render;
mod rng;
mod rooms;
mod scatter;
mod schema;
mod stats;
mod yaml;

pub use diag::{Diagnostic, JsonDiagnostic, Label, Severity, SourceFile};
pub use error::Error;
pub use generate::Options;
pub use level::Level;
pub use project::{FileKind, Project, Source, bundled_sources};
pub use properties::{Properties, PropertyValue};

/// Re-exports every public item of each internal module under
/// `internals::NAME` (a module itself cannot be re-exported while private).
macro_rules! internal_modules {
    ($($name:ident),* $(,)?) => {
        $(
            #[doc(hidden)]
            pub mod $name {
                pub use crate::$name::*;
            }
        )*
    };
}

/// The engine's stages, for this crate's own tests, benchmarks and fuzz
/// targets. Not part of the public API: anything here may change in any
/// release.
#[doc(hidden)]
pub mod internals {
    internal_modules!(
        category, diag, edgar, expand, files, flow, generate, geom, graph, isaac, layout, level,
        project, properties, puzzle, render, rng, rooms, scatter, schema, stats, yaml,
    );
}
