//! Flow files: the model, decoding from YAML, and validation against the
//! room library.

mod decode;
mod edges;
mod model;
mod params;
mod validate;

pub use decode::{CHAIN_LETTERS, load_flow_file};
pub use model::{
    Chain, Door, Flow, FlowEdge, FlowGraph, FlowNode, Generator, Injection, InjectionGroup,
    GroupMode, LayoutParams, NodeKind, Placement, RoomSpec, Rewrite,
};
pub use params::{IsaacParams, IsaacVariant, NestedParams, NestedOrdering, ScatterParams, Region, SizeDistribution};
pub use validate::validate_flow;
