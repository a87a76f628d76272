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
    /// This failure with `partial` as the map it gave up on, unless the one
    /// it holds already has as many rooms.
    pub fn on(mut self, partial: Option<&Canvas>) -> Failure {
        if let Some(c) = partial
            && self
                .partial
                .as_ref()
                .is_none_or(|p| p.rooms.len() < c.rooms.len())
        {
            self.partial = Some(Box::new(c.clone()));
        }
        self
    }

    /// Whether the attempt laid the level out on a drawing of its graph
    /// (whose failures say less about the flow than the composites' do).
    pub fn drawn(&self) -> bool {
        self.stage == "drawn"
    }
}
