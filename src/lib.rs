//! dungeonflow: generate game dungeons from flow graphs and room templates.
//!
//! The pipeline (see ARCHITECTURE.md):
//! load ([`project`]) → validate ([`flow::validate_flow`]) → expand → decompose →
//! lay out → assemble → render. Every stage is a module with one entry point and
//! plain data between stages.
//!
//! # Generating a level from a game
//!
//! Load a [`Project`] (the bundled flows and rooms here; [`Project::load`]
//! reads your `flows/` and `rooms/` folders), generate a flow with a seed,
//! and read the [`Level`](level::Level): rooms with their tiles, the
//! connections between them (doors and corridors, with their locks) and the
//! keys.
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
//! // The same seed gives the same level.
//! assert_eq!(project.generate("classic", 7).expect("again"), level);
//! ```
#![deny(missing_docs)]

pub mod category;
#[cfg(feature = "cli")]
pub mod cli;
pub mod diag;
pub mod edgar;
pub mod expand;
pub mod files;
pub mod flow;
pub mod generate;
pub mod geom;
pub mod graph;
pub mod isaac;
pub mod layout;
pub mod level;
pub mod project;
pub mod properties;
pub mod puzzle;
pub mod render;
pub mod rng;
pub mod rooms;
pub mod scatter;
pub mod schema;
pub mod stats;
pub mod yaml;

pub use diag::{Diagnostic, Severity, SourceFile};
pub use project::Project;
