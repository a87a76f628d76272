//! dungeonflow: generate game dungeons from flow graphs and room templates.
//!
//! The pipeline (see ARCHITECTURE.md):
//! load ([`project`]) → validate ([`flow::validate_flow`]) → expand → decompose →
//! lay out → assemble → render. Every stage is a module with one entry point and
//! plain data between stages.

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
