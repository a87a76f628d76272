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
    /// The fullest map the attempt reached before it gave up, when the
    /// layout was asked to keep one (see [`keep_fuller`]).
    pub partial: Option<Box<Canvas>>,
}

/// Puts `candidate` into `kept` unless the canvas there already has as many
/// rooms: the partial layout a failure shows is the fullest one reached.
pub fn keep_fuller(kept: &mut Option<Box<Canvas>>, candidate: &Canvas) {
    if kept
        .as_ref()
        .is_none_or(|k| k.rooms.len() < candidate.rooms.len())
    {
        *kept = Some(Box::new(candidate.clone()));
    }
}

impl Failure {
    /// Whether the attempt laid the level out on a drawing of its graph
    /// (whose failures say less about the flow than the composites' do).
    pub fn drawn(&self) -> bool {
        self.stage == "drawn"
    }
}
