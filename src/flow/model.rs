//! The flow model: what a level designer writes, decoded but not expanded.

use std::sync::Arc;

use super::params::{IsaacParams, NestedParams, ScatterParams};
use crate::diag::SourceFile;
use crate::properties::Properties;
use crate::yaml::Sp;

/// Largest number of nodes a flow file may declare.
pub const MAX_NODES: usize = 2048;
/// Longest chain a node may expand into.
pub const MAX_CHAIN: u32 = 64;
/// Most rooms a flow may expand into (counting every chain at its longest
/// and every injection at each of its placements), checked by `validate`:
/// layout and the solver stay bounded in time on any accepted flow.
pub const MAX_EXPANDED_ROOMS: u64 = 4096;

/// A flow file.
#[derive(Clone, Debug)]
pub struct Flow {
    /// The flow's name (unique in a project).
    pub name: Sp<String>,
    /// What the flow is about.
    pub description: String,
    /// Stage (floor) this flow belongs to, if any.
    pub stage: Option<u32>,
    /// Free tags.
    pub tags: Vec<String>,
    /// Relative weight when a stage picks one of its flows.
    pub weight: f64,
    /// Which generator runs it, with its parameters.
    pub generator: Generator,
    /// The file it came from.
    pub file: Arc<SourceFile>,
}

impl Flow {
    /// The flow graph, when this is a `generator: flow` file.
    pub fn graph(&self) -> Option<&FlowGraph> {
        match &self.generator {
            Generator::Flow(g) => Some(g),
            _ => None,
        }
    }
}

/// The generator a flow file selects.
#[derive(Clone, Debug)]
pub enum Generator {
    /// The Gungeon-style flow graph (the default).
    Flow(FlowGraph),
    /// The Binding of Isaac floor generator.
    Isaac(IsaacParams),
    /// The TinyKeep-style scatter generator.
    Scatter(ScatterParams),
    /// The nested lock-and-key puzzle generator.
    NestedPuzzle(NestedParams),
}

impl Generator {
    /// Names accepted by `generator:`.
    pub const NAMES: [&'static str; 4] = ["flow", "isaac", "scatter", "nested_puzzle"];

    /// The name written after `generator:`.
    pub fn name(&self) -> &'static str {
        match self {
            Generator::Flow(_) => Self::NAMES[0],
            Generator::Isaac(_) => Self::NAMES[1],
            Generator::Scatter(_) => Self::NAMES[2],
            Generator::NestedPuzzle(_) => Self::NAMES[3],
        }
    }
}

/// The graph part of a flow.
#[derive(Clone, Debug, Default)]
pub struct FlowGraph {
    /// User-defined categories declared by the flow.
    pub categories: Vec<Sp<String>>,
    /// Nodes in file order.
    pub nodes: Vec<FlowNode>,
    /// Tree edges, parent to child.
    pub edges: Vec<FlowEdge>,
    /// Loop-closing edges.
    pub loops: Vec<FlowEdge>,
    /// Injection rules and groups, in file order.
    pub injections: Vec<InjectionGroup>,
    /// Layout settings.
    pub layout: LayoutParams,
    /// Whether `nodes:` and every edge entry decoded, so that graph-wide checks
    /// (reachability, entrances) speak of the real graph, not of a fragment.
    pub complete: bool,
}

/// The marker counts as the level graph keeps them: kind, least, most.
pub fn marker_counts(counts: &[MarkerCount]) -> Vec<(String, (u32, u32))> {
    counts
        .iter()
        .map(|m| (m.kind.value.clone(), m.count.value))
        .collect()
}

impl FlowGraph {
    /// The node called `id`.
    pub fn node(&self, id: &str) -> Option<&FlowNode> {
        self.nodes.iter().find(|n| n.id.value == id)
    }
}

/// A node of the flow graph.
#[derive(Clone, Debug)]
pub struct FlowNode {
    /// Unique id.
    pub id: Sp<String>,
    /// Room, chain or selector.
    pub kind: NodeKind,
    /// Category of the room (of every room, for a chain without rules).
    pub category: Sp<String>,
    /// Exact template to use.
    pub template: Option<Sp<String>>,
    /// Tags: the template must carry one of them.
    pub pool: Vec<Sp<String>>,
    /// Chance that the node (and its sub-tree) exists.
    pub chance: f64,
    /// An optional node is dropped, not an error, when no template fits it.
    pub optional: bool,
    /// Weight when its parent is a selector.
    pub weight: f64,
    /// Door on the edge from its parent.
    pub door: Door,
    /// Keys placed in this room explicitly.
    pub keys: Vec<Sp<String>>,
    /// Gameplay data given to its rooms (over their templates' own).
    pub properties: Properties,
    /// How many of its template's markers of a kind each of its rooms keeps
    /// (`markers: { enemy: 2..4 }`); kinds not named keep all of theirs.
    pub markers: Vec<MarkerCount>,
}

/// How many markers of one kind a room keeps, drawn uniformly.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MarkerCount {
    /// The marker kind.
    pub kind: Sp<String>,
    /// Least and most kept.
    pub count: Sp<(u32, u32)>,
}

/// What a node stands for.
#[derive(Clone, Debug)]
pub enum NodeKind {
    /// One room.
    Room,
    /// A line of rooms.
    Chain(Chain),
    /// A control node choosing some of its children.
    Selector {
        /// How many children to keep.
        pick: Sp<(u32, u32)>,
    },
}

/// A chain: a node that becomes a line of rooms.
#[derive(Clone, Debug)]
pub struct Chain {
    /// Length range, uniform.
    pub length: Sp<(u32, u32)>,
    /// Start word for rewriting (letters), when rules are given.
    pub start: Option<Sp<String>>,
    /// Rewrite rules, applied in passes.
    pub rules: Vec<Rewrite>,
}

/// A rewrite rule `c -> nc | cn` with the chance it fires on each letter.
#[derive(Clone, Debug)]
pub struct Rewrite {
    /// The letter rewritten.
    pub from: char,
    /// The words it may become (one drawn uniformly).
    pub to: Vec<String>,
    /// Chance the rule fires for one occurrence.
    pub chance: f64,
    /// Span of the rule text.
    pub span: std::ops::Range<usize>,
}

/// The door on an edge.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Door {
    /// A plain door.
    Open,
    /// A locked door; the key id is generated when not given.
    Locked(Option<Sp<String>>),
    /// Passable only from parent to child.
    OneWay,
}

/// An edge between two flow nodes.
#[derive(Clone, Debug)]
pub struct FlowEdge {
    /// Parent (tree) or origin (loop).
    pub from: Sp<String>,
    /// Child (tree) or target (loop).
    pub to: Sp<String>,
    /// Door type.
    pub door: Door,
    /// Gameplay data given to the connection.
    pub properties: Properties,
    /// Span of the whole edge entry.
    pub span: std::ops::Range<usize>,
}

/// What an injection adds.
#[derive(Clone, Debug)]
pub struct RoomSpec {
    /// Category of the new room.
    pub category: Sp<String>,
    /// Exact template.
    pub template: Option<Sp<String>>,
    /// Tag pool.
    pub pool: Vec<Sp<String>>,
    /// Gameplay data given to the room.
    pub properties: Properties,
    /// How many of its template's markers of a kind the room keeps.
    pub markers: Vec<MarkerCount>,
}

/// Where an injected room may go.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Placement {
    /// Attach to a dead end (falls back to a random node child).
    EndOfChain,
    /// Attach as a child of any room far enough from the entrance.
    RandomNodeChild,
    /// Splice in before a combat room.
    BeforeAnyCombatRoom,
    /// Splice in at the start of a chain leaving a hub.
    HubAdjacentChainStart,
    /// Attach to a hub with no other link.
    HubAdjacentNoLink,
    /// Splice in after the boss room.
    AfterBoss,
    /// Bracket a run of combat rooms.
    CombatFrame,
    /// A detached wing reached by a warp.
    NoLinks,
}

impl Placement {
    /// Names accepted in `where:`.
    pub const NAMES: [&'static str; 8] = [
        "end_of_chain",
        "random_node_child",
        "before_any_combat_room",
        "hub_adjacent_chain_start",
        "hub_adjacent_no_link",
        "after_boss",
        "combat_frame",
        "no_links",
    ];

    /// Parses a YAML name.
    pub fn parse(s: &str) -> Option<Placement> {
        use Placement::*;
        let all = [
            EndOfChain,
            RandomNodeChild,
            BeforeAnyCombatRoom,
            HubAdjacentChainStart,
            HubAdjacentNoLink,
            AfterBoss,
            CombatFrame,
            NoLinks,
        ];
        Self::NAMES.iter().position(|n| *n == s).map(|i| all[i])
    }

    /// The YAML name.
    pub fn name(self) -> &'static str {
        Self::NAMES[self as usize]
    }
}

/// One injection rule.
#[derive(Clone, Debug)]
pub struct Injection {
    /// Name, for reports.
    pub name: Sp<String>,
    /// The room added.
    pub room: RoomSpec,
    /// Placements with their weights (repetition in YAML = weight).
    pub placements: Vec<(Placement, u32)>,
    /// Chance it spawns at all.
    pub chance: f64,
    /// Weight when its group picks one entry.
    pub weight: f64,
    /// Flags the caller must pass for it to be considered.
    pub requires: Vec<Sp<String>>,
    /// Chance the new room's door is locked.
    pub lock_chance: f64,
    /// Minimum tree distance from the entrance (for `random_node_child`).
    pub min_distance: u32,
    /// Number of combat rooms bracketed (for `combat_frame`).
    pub frame: u32,
    /// Span of the rule.
    pub span: std::ops::Range<usize>,
}

/// How a group of injections is applied.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GroupMode {
    /// Try every entry, in shuffled order.
    All,
    /// Pick one entry by weight.
    One,
}

/// Injections applied together. A lone rule is a group of one (mode `all`).
#[derive(Clone, Debug)]
pub struct InjectionGroup {
    /// Group name (the rule's name for a lone rule).
    pub name: Sp<String>,
    /// How entries are chosen.
    pub mode: GroupMode,
    /// The rules.
    pub entries: Vec<Injection>,
}

/// Layout settings of a flow.
#[derive(Clone, Debug, PartialEq)]
pub struct LayoutParams {
    /// Corridor length bounds, in tiles.
    pub corridor: (u32, u32),
    /// Attempts for the whole flow.
    pub attempts: u32,
    /// Rebuilds of one tree composite.
    pub tree_rebuilds: u32,
    /// Rebuilds of one loop composite.
    pub loop_rebuilds: u32,
    /// Whether a template may be used by several rooms of one level.
    pub reuse_templates: bool,
}

impl Default for LayoutParams {
    fn default() -> Self {
        Self {
            corridor: (4, 30),
            attempts: 50,
            tree_rebuilds: 5,
            loop_rebuilds: 100,
            reuse_templates: false,
        }
    }
}
