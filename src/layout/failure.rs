//! Why a layout attempt gave up.

use petgraph::graph::NodeIndex;

/// The stage, composite and node that gave up, and why.
#[derive(Clone, Debug)]
pub struct Failure {
    /// `tree`, `loop` or `assembly`.
    pub stage: &'static str,
    /// Index of the composite.
    pub composite: usize,
    /// The node that could not be placed or joined.
    pub node: Option<NodeIndex>,
    /// Plain-language reason.
    pub reason: String,
}
