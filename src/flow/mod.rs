//! Flow files: the model, decoding from YAML, and validation against the
//! room library.

mod decode;
mod edges;
mod model;
mod params;
mod validate;

pub use decode::{CHAIN_LETTERS, load_flow_file};
pub use model::{
    Chain, Door, Flow, FlowEdge, FlowGraph, FlowNode, Generator, GroupMode, Injection,
    InjectionGroup, LayoutParams, NodeKind, Placement, Rewrite, RoomSpec,
};
pub use params::{
    IsaacParams, IsaacVariant, NestedOrdering, NestedParams, Region, ScatterParams,
    SizeDistribution,
};
pub use validate::validate_flow;
