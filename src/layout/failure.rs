//! Why a layout attempt gave up.

use petgraph::graph::NodeIndex;

/// The stage, composite and node that gave up, and why.
#[derive(Clone, Debug)]
pub struct Failure {
    /// `tree`, `loop`, `assembly` or `drawn`.
    pub stage: &'static str,
    /// Index of the composite.
    pub composite: usize,
    /// The node that could not be placed or joined.
    pub node: Option<NodeIndex>,
    /// Plain-language reason.
    pub reason: String,
}

impl Failure {
    /// Whether the attempt laid the level out on a drawing of its graph
    /// (whose failures say less about the flow than the composites' do).
    pub fn drawn(&self) -> bool {
        self.stage == "drawn"
    }
}
