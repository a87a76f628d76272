//! Flow files: the model, decoding from YAML, and validation against the
//! room library.

mod decode;
mod edges;
mod model;
mod params;
mod validate;

pub use decode::{CHAIN_LETTERS, MAX_MARKERS, load_flow_file};
pub use model::{
    Chain, Door, Flow, FlowEdge, FlowGraph, FlowNode, Generator, GroupMode, Injection,
    InjectionGroup, LayoutParams, MarkerCount, NodeKind, Placement, Rewrite, RoomSpec,
    marker_counts,
};
pub use params::{
    IsaacParams, IsaacVariant, NestedOrdering, NestedParams, Region, ScatterParams,
    SizeDistribution,
};
pub use validate::validate_flow;

// Accepted values of the decoder, which the JSON Schema is built from, and
// known fields, which its tests compare with the schema's objects.
#[cfg(test)]
pub(crate) use decode::{
    FLOW_FIELDS, GROUP_FIELDS, INJECTION_FIELDS, LAYOUT_FIELDS, NODE_FIELDS, ROOM_SPEC_FIELDS,
};
pub(crate) use decode::{GRAPH_ONLY, GROUP_MODES};
pub(crate) use edges::DOOR_KINDS;
#[cfg(test)]
pub(crate) use edges::EDGE_FIELDS;
pub use model::MAX_EXPANDED_ROOMS;
pub(crate) use model::{MAX_CHAIN, MAX_NODES};
pub(crate) use params::{
    ISAAC_CURSES, ISAAC_POOLS, ISAAC_SPECIALS, ISAAC_VARIANTS, NESTED_ORDERINGS, SIZE_DISTRIBUTIONS,
};
#[cfg(test)]
pub(crate) use params::{ISAAC_FIELDS, NESTED_FIELDS, REGION_FIELDS, SCATTER_FIELDS, SIZES_FIELDS};
