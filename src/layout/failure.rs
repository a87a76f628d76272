//! Why a layout attempt gave up.

use petgraph::graph::NodeIndex;

use super::canvas::Canvas;

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
    /// The rooms laid out when it gave up, when the attempt had any on one
    /// map (composite by composite attempts only).
    pub partial: Option<Box<Canvas>>,
}

impl Failure {
    /// This failure with `partial` as the map it gave up on.
    pub fn on(mut self, partial: Option<&Canvas>) -> Failure {
        if self.partial.is_none() {
            self.partial = partial.map(|c| Box::new(c.clone()));
        }
        self
    }

    /// Whether the attempt laid the level out on a drawing of its graph
    /// (whose failures say less about the flow than the composites' do).
    pub fn drawn(&self) -> bool {
        self.stage == "drawn"
    }
}
