//! The expanded level graph and its split into composites.

mod composites;
mod export;
mod level_graph;
mod outer_face;
mod planarity;

pub use composites::{
    Composite, CompositeKind, Decomposition, Ear, MAX_TREE_ROOMS, decompose, ears_from,
    smallest_cycle,
};
pub use export::{EdgeView, GraphView, RoomView};
pub use outer_face::{
    Enclosure, enclosure_plan, enclosures, leaves_linked_outside, other_ear_orders,
};
pub use planarity::{Crossing, Kuratowski, crossing};

pub use level_graph::{Connection, EdgeKind, LevelGraph, Origin, RoomNode};
