//! The whole pipeline for one level. Graph generators (flow expansion, the
//! nested puzzle generator) make a solvable [`LevelGraph`], which is
//! decomposed, laid out (with bounded attempts) and built into a [`Level`];
//! direct generators ([`DirectGenerator`]: Isaac, scatter) build the level
//! themselves. [`generate`] is the one entry point for every generator.

use std::collections::BTreeSet;

use crate::diag::Diagnostic;
use crate::expand::{expand, repick_templates};
use crate::flow::{Flow, FlowGraph, Generator, LayoutParams, NestedParams};
use crate::graph::{Enclosure, LevelGraph, crossing, decompose, enclosures};
use crate::layout::{ShapeTable, build_level, layout_once, level_budget, physical_edges};
use crate::level::Level;
use crate::puzzle::{Analysis, Puzzle, analyse, nested};
use crate::rng::Rng;
use crate::rooms::RoomLibrary;
use petgraph::graph::NodeIndex;

/// Layout attempts between two fresh template choices.
const ATTEMPTS_PER_TEMPLATE_CHOICE: u32 = 5;

/// Graphs drawn (the seed's, then derived seeds) before giving up on a
/// solvable one.
pub const GRAPH_TRIES: u32 = 10;

/// Attempts a flow needs for its second half to use a fresh expansion.
const MIN_ATTEMPTS_TO_REEXPAND: u32 = 10;

/// What a caller may set for one generation, beyond the flow and the seed.
///
/// ```
/// let options = dungeonflow::Options::default()
///     .flag("met_merchant")
///     .max_attempts(10);
/// assert!(options.flags.contains("met_merchant"));
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Options {
    /// Prerequisite flags: injection rules with `requires: NAME` fire only
    /// when `NAME` is here (e.g. a story event the player has reached).
    pub flags: BTreeSet<String>,
    /// At most this many layout attempts, fewer than the flow's own
    /// `layout: { attempts }` when a game must bound its loading time
    /// (`None`: the flow's). The level work budget still applies. Isaac and
    /// scatter floors keep their own bounds.
    pub max_attempts: Option<u32>,
}

impl Options {
    /// Adds the prerequisite flag `name`.
    pub fn flag(mut self, name: impl Into<String>) -> Self {
        self.flags.insert(name.into());
        self
    }

    /// Caps the layout attempts at `attempts` (at least 1).
    pub fn max_attempts(mut self, attempts: u32) -> Self {
        self.max_attempts = Some(attempts.max(1));
        self
    }
}

/// A generated level with what led to it.
#[derive(Clone, Debug)]
pub struct Generated {
    /// The level.
    pub level: Level,
    /// The expanded graph it realises (`None` for direct generators, which
    /// make no graph before the level).
    pub graph: Option<LevelGraph>,
    /// Layout attempts used (1 = first try).
    pub attempts: u32,
    /// The solver's verdict on the level (always solvable) with its
    /// walkthrough.
    pub analysis: Analysis,
}

/// A generator that builds its [`Level`] itself, without the flow layout
/// engine (Isaac floors, scattered rooms). It must terminate on every input
/// and say why when it cannot make a level.
pub trait DirectGenerator {
    /// The level of `flow` for `seed`, with the attempts it used.
    fn level(&self, flow: &Flow, seed: u64) -> Result<(Level, u32), Diagnostic>;
}

/// The direct generator of `flow`, if it has one.
fn direct_generator(flow: &Flow) -> Option<&dyn DirectGenerator> {
    match &flow.generator {
        Generator::Flow(_) | Generator::NestedPuzzle(_) => None,
        Generator::Isaac(p) => Some(p),
        Generator::Scatter(p) => Some(p),
    }
}

/// Where the rooms of a level come from: the one thing that differs between
/// the generators that end in the layout engine.
#[derive(Clone, Copy, Debug)]
pub enum GraphSource<'a> {
    /// Expansion of a flow graph (`generator: flow`).
    Flow(&'a FlowGraph),
    /// The nested lock-and-key puzzle generator (`generator: nested_puzzle`).
    NestedPuzzle(&'a NestedParams),
}

impl<'a> GraphSource<'a> {
    /// The source of `flow`'s generator; a `generate::unavailable` error for
    /// generators that do not make a graph yet.
    pub fn of(flow: &'a Flow) -> Result<Self, Diagnostic> {
        match &flow.generator {
            Generator::Flow(g) => Ok(GraphSource::Flow(g)),
            Generator::NestedPuzzle(p) => Ok(GraphSource::NestedPuzzle(p)),
            other => Err(Diagnostic::error(
                "generate::unavailable",
                format!("the `{}` generator is not implemented yet", other.name()),
            )
            .in_file(&flow.file)
            .label(flow.name.span.clone(), "this flow")
            .help("flow-graph and nested_puzzle files work today; see the README's roadmap")),
        }
    }

    /// The generator's name, as written in the level.
    pub fn name(self) -> &'static str {
        match self {
            GraphSource::Flow(_) => "flow",
            GraphSource::NestedPuzzle(_) => "nested_puzzle",
        }
    }

    /// Layout settings.
    pub fn layout(self) -> LayoutParams {
        match self {
            GraphSource::Flow(g) => g.layout.clone(),
            GraphSource::NestedPuzzle(_) => LayoutParams::default(),
        }
    }

    /// The entry point: the level graph for `seed`, templates chosen.
    pub fn build(
        self,
        flow: &Flow,
        library: &RoomLibrary,
        seed: u64,
        flags: &BTreeSet<String>,
    ) -> Result<LevelGraph, Diagnostic> {
        match self {
            GraphSource::Flow(_) => expand(flow, library, seed, flags),
            GraphSource::NestedPuzzle(p) => nested::build(flow, p, library, seed),
        }
    }
}

/// Generates one level of `flow` with `seed`.
pub fn generate(
    flow: &Flow,
    library: &RoomLibrary,
    seed: u64,
    options: &Options,
) -> Result<Generated, Diagnostic> {
    let table = ShapeTable::new(library);
    generate_with(flow, library, &table, seed, options)
}

/// A solvable graph and its analysis: the one of `seed`, else of seeds
/// derived from it (at most [`GRAPH_TRIES`] in all).
fn solvable_graph(
    source: GraphSource<'_>,
    flow: &Flow,
    library: &RoomLibrary,
    seed: u64,
    flags: &BTreeSet<String>,
) -> Result<(LevelGraph, Analysis), Diagnostic> {
    let mut why = String::new();
    for attempt in 0..GRAPH_TRIES {
        let s = match attempt {
            0 => seed,
            _ => Rng::derive(seed, &format!("graph/{attempt}")).next_seed(),
        };
        let mut graph = source.build(flow, library, s, flags)?;
        graph.seed = seed;
        let analysis = analyse(&Puzzle::from_graph(&graph));
        if analysis.solvable {
            return Ok((graph, analysis));
        }
        if why.is_empty() {
            why = analysis
                .problems
                .iter()
                .map(|p| p.message.as_str())
                .collect::<Vec<_>>()
                .join("; ");
        }
    }
    Err(Diagnostic::error(
        "generate::unsolvable",
        format!(
            "flow `{}` (seed {seed}) gave no solvable level in {GRAPH_TRIES} draws: {why}",
            flow.name.value
        ),
    )
    .in_file(&flow.file)
    .label(flow.name.span.clone(), "this flow")
    .help("place each key in a room reachable before its lock (or leave `keys:` out), and point one-way doors away from the rooms the player still needs"))
}

/// [`generate`] with the library's shapes prepared once (for batches).
pub fn generate_with(
    flow: &Flow,
    library: &RoomLibrary,
    table: &ShapeTable,
    seed: u64,
    options: &Options,
) -> Result<Generated, Diagnostic> {
    generate_keeping_partial(flow, library, table, seed, options, None)
}

/// The rooms a failed layout attempt had placed, for a preview to draw.
#[derive(Clone, Debug)]
pub struct PartialLayout {
    /// A level of the rooms placed (and their connections).
    pub level: Level,
    /// Rooms of the graph that attempt laid out (after any re-expansion).
    pub of: usize,
}

/// [`generate_with`] that, when no attempt lays the level out, puts into
/// `partial` the fullest map the last described attempt reached when it
/// gave up (none when that attempt kept none, such as a loop that would
/// not close, or when the failure came before layout).
pub fn generate_keeping_partial(
    flow: &Flow,
    library: &RoomLibrary,
    table: &ShapeTable,
    seed: u64,
    options: &Options,
    mut partial: Option<&mut Option<PartialLayout>>,
) -> Result<Generated, Diagnostic> {
    let flags = &options.flags;
    if let Some(direct) = direct_generator(flow) {
        let (level, attempts) = direct.level(flow, seed)?;
        let analysis = analyse(&Puzzle::from_level(&level));
        return Ok(Generated {
            level,
            graph: None,
            attempts,
            analysis,
        });
    }
    let source = GraphSource::of(flow)?;
    let params = source.layout();
    let (mut graph, mut graph_analysis) = solvable_graph(source, flow, library, seed, flags)?;
    refuse_crossings(flow, &graph, seed)?;
    let mut decomposition = decompose(&graph);
    let mut enclosed = !enclosures(&graph, &decomposition).is_empty();
    let mut last = None;
    let attempts = options
        .max_attempts
        .map_or(params.attempts, |cap| params.attempts.min(cap))
        .max(1);
    let mut work = level_budget(graph.len(), &decomposition);
    let mut made = 0;
    for attempt in 0..attempts {
        if work == 0 {
            break;
        }
        made += 1;
        if attempt > 0 && attempt == attempts / 2 && attempts >= MIN_ATTEMPTS_TO_REEXPAND {
            // Half the attempts failed: this expansion may be too crowded to
            // lay out; draw the flow's random choices again.
            let again = Rng::derive(seed, "re-expansion").next_seed();
            (graph, graph_analysis) = solvable_graph(source, flow, library, again, flags)?;
            graph.seed = seed;
            refuse_crossings(flow, &graph, seed)?;
            decomposition = decompose(&graph);
            enclosed = !enclosures(&graph, &decomposition).is_empty();
        } else if attempt > 0 && attempt % ATTEMPTS_PER_TEMPLATE_CHOICE == 0 {
            repick_templates(
                flow,
                library,
                &mut graph,
                Rng::derive(seed, &format!("templates/{attempt}")).next_seed(),
            )?;
        }
        match layout_once(
            &graph,
            library,
            table,
            &decomposition,
            &params,
            Rng::derive(seed, &format!("layout/{attempt}")),
            &mut work,
            attempt as usize,
            enclosed,
            partial.is_some(),
        ) {
            Ok(map) => {
                let level = build_level(&graph, library, table, &map, source.name());
                // A level with every room and key of its graph is the same
                // puzzle as the graph (one connection per edge, in order), so
                // the graph's analysis holds; otherwise (a key found no floor
                // tile) the level is solved again, so that no unsolvable
                // level is ever returned.
                let analysis = if carries_graph(&level, &graph) {
                    graph_analysis.clone()
                } else {
                    analyse(&Puzzle::from_level(&level))
                };
                if !analysis.solvable {
                    return Err(Diagnostic::error(
                        "generate::unsolvable",
                        format!(
                            "flow `{}` (seed {seed}): the laid-out level is not solvable although its graph is: {}",
                            flow.name.value,
                            analysis.problems.first().map_or("", |p| p.message.as_str())
                        ),
                    )
                    .in_file(&flow.file));
                }
                return Ok(Generated {
                    level,
                    graph: Some(graph),
                    attempts: attempt + 1,
                    analysis,
                });
            }
            // The diagnostic tells the last failure of the composite
            // layout, which names the composite and the room that gave up.
            Err(f) => {
                if !f.drawn() || last.is_none() {
                    if let Some(keep) = partial.as_deref_mut() {
                        *keep = f.partial.as_ref().map(|map| PartialLayout {
                            level: build_level(&graph, library, table, map, source.name()),
                            of: graph.len(),
                        });
                    }
                    last = Some(f);
                }
            }
        }
    }
    let f = last.expect("at least one attempt");
    let node = f.node.map(|n| graph.graph[n].clone());
    let mut d = Diagnostic::error(
        "layout::failed",
        format!("flow `{}` (seed {seed}) could not be laid out in {made} attempts{}: {} stage, composite {}: {}", flow.name.value, if work == 0 { " (the level's layout work budget is spent)" } else { "" }, f.stage, f.composite, f.reason),
    )
    .in_file(&flow.file);
    if let Some(n) = node {
        d = d.label(n.span, format!("`{}` gave up here", n.id));
    }
    let loosen = loosen_help(params.corridor);
    match enclosures(&graph, &decomposition).first() {
        Some(e) => {
            for &v in e.enclosed.iter().flatten() {
                let room = &graph.graph[v];
                d = d.label(
                    room.span.clone(),
                    format!("`{}` links out of a loop", room.id),
                );
            }
            let ring = &decomposition.composites[e.composite].nodes;
            Err(d.help(format!(
                "{}; else {loosen}",
                enclosure_help(&graph, ring, e)
            )))
        }
        None => Err(d.help(loosen)),
    }
}

/// The help of a layout that failed for want of room, for a flow whose
/// corridors are `min..max` tiles long: the longer corridors it suggests
/// reach twice as far (at least as far as the default bound's). A ring
/// that must hold rooms grows with its corridors: a flow of 45 rooms whose
/// loops put 13 rooms inside a ring of five (graph 60,058 of the families)
/// lays out on none of 10 seeds with `4..30`, on 1 with `4..40`, on 6 with
/// `4..50` and on 5 with `4..60`.
fn loosen_help((min, max): (u32, u32)) -> String {
    format!(
        "loosen the flow: shorter loops, fewer rooms on one hub, longer corridors (`layout: {{ corridor: {min}..{} }}`), or rooms with more exits",
        max.saturating_mul(2)
            .max(crate::flow::LayoutParams::default().corridor.1)
    )
}

/// A `layout::non-planar` error when the physical edges of `graph` cannot
/// be drawn without crossings (see [`crossing`]): no attempt could lay it
/// out. `validate` refuses what every expansion keeps; this catches what a
/// seed's choices (selectors, chances, injections) add.
fn refuse_crossings(flow: &Flow, graph: &LevelGraph, seed: u64) -> Result<(), Diagnostic> {
    let edges: Vec<(usize, usize)> = physical_edges(graph)
        .into_iter()
        .filter_map(|e| graph.graph.edge_endpoints(e))
        .map(|(a, b)| (a.index(), b.index()))
        .collect();
    let Some(c) = crossing(graph.graph.node_count(), &edges) else {
        return Ok(());
    };
    let room = |i: usize| &graph.graph[NodeIndex::new(i)];
    let mut d = Diagnostic::error(
        "layout::non-planar",
        format!(
            "flow `{}` (seed {seed}) cannot be laid out: {}",
            flow.name.value,
            c.describe(|i| room(i).id.clone())
        ),
    )
    .in_file(&flow.file)
    .help("remove or move one of the loop edges between these rooms (or the injection or choice that joins them)");
    for (&r, label) in c.rooms.iter().zip(c.labels()) {
        d = d.label(room(r).span.clone(), format!("`{}`: {label}", room(r).id));
    }
    Err(d)
}

/// Why `e` makes a level hard to lay out, and what to change.
/// `ring` holds the rooms of the loop composite `e` is about.
fn enclosure_help(graph: &LevelGraph, ring: &[NodeIndex], e: &Enclosure) -> String {
    let ids = |rooms: &[NodeIndex]| {
        rooms
            .iter()
            .map(|&v| format!("`{}`", graph.graph[v].id))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let path = e
        .path
        .iter()
        .map(|&v| graph.graph[v].id.as_str())
        .collect::<Vec<_>>()
        .join(" ");
    let (a, b) = (
        &graph.graph[e.path[0]].id,
        &graph.graph[e.path[e.path.len() - 1]].id,
    );
    // Each way's enclosed rooms with all they lead to.
    let inside = |rooms: &[NodeIndex]| rooms.len() + rooms_beyond(graph, ring, rooms);
    let count = |n: usize| format!("{n} room{}", if n == 1 { "" } else { "s" });
    match e.enclosed.as_slice() {
        [one, other] => format!(
            "the path `{path}` joins `{a}` and `{b}` a third way, and rooms on every way link out of the loop: laid out as one loop, {} or {} end up inside it with all they lead to ({} or {}), which seldom fits (the whole-level fallback may find another face for them); keep loop edges from joining the same two rooms a third way, or move those branches",
            ids(one),
            ids(other),
            inside(one),
            count(inside(other))
        ),
        _ => {
            let rooms = e.enclosed.concat();
            format!(
                "the path `{path}` runs inside a loop as the loop is laid out, and {} on it {} out of it: {} would lie inside the loop, which seldom fits (the whole-level fallback may find another face for them); move that loop edge or those branches",
                ids(&rooms),
                if rooms.len() == 1 { "links" } else { "link" },
                count(inside(&rooms))
            )
        }
    }
}

/// How many rooms outside `ring` (a loop composite's rooms) the rooms
/// `from` lead to: all that must go inside the loop with them.
fn rooms_beyond(graph: &LevelGraph, ring: &[NodeIndex], from: &[NodeIndex]) -> usize {
    let mut seen = vec![false; graph.graph.node_count()];
    for &v in ring.iter().chain(from) {
        seen[v.index()] = true;
    }
    let mut stack = from.to_vec();
    let mut count = 0;
    while let Some(v) = stack.pop() {
        for (w, _) in graph.door_ends(v) {
            if !std::mem::replace(&mut seen[w.index()], true) {
                count += 1;
                stack.push(w);
            }
        }
    }
    count
}

/// Whether `level` holds a room for every node of `graph` and an item for
/// every key: then its puzzle ([`Puzzle::from_level`]) is the graph's
/// ([`Puzzle::from_graph`]), as `build_level` writes rooms in node order
/// and one connection per edge in edge order.
fn carries_graph(level: &Level, graph: &LevelGraph) -> bool {
    let keys: usize = graph.graph.node_weights().map(|r| r.keys.len()).sum();
    level.rooms.len() == graph.graph.node_count() && level.items.len() == keys
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_help_of_a_cramped_layout_suggests_corridors_twice_as_long() {
        assert!(loosen_help((4, 30)).contains("`layout: { corridor: 4..60 }`"));
        assert!(loosen_help((6, 45)).contains("`layout: { corridor: 6..90 }`"));
        // Short corridors: at least the default bound.
        assert!(loosen_help((1, 8)).contains("`layout: { corridor: 1..30 }`"));
    }

    #[test]
    fn a_level_missing_a_key_does_not_carry_its_graph() {
        let project = crate::Project::bundled();
        let flow = project.flow("keys_and_locks").expect("bundled flow");
        let g = generate(flow, &project.library, 3, &Options::default()).expect("a level");
        let graph = g.graph.expect("a flow level has a graph");
        let mut level = g.level;
        assert!(!level.items.is_empty(), "the flow places keys");
        assert!(carries_graph(&level, &graph));
        level.items.pop();
        assert!(!carries_graph(&level, &graph));
    }

    /// The loops' rooms of degree three form a K4 (`a b c d`): its
    /// subdivided edges `a x b` and `c y d` share no face, so one of the
    /// branches off `x` (three rooms) and `y` (one room) lies inside a
    /// loop.
    const K4: &str = "name: k4\nnodes:\n  e: entrance\n  a: normal\n  b: normal\n  c: normal\n  d: normal\n  x: normal\n  y: normal\n  x1: normal\n  x2: normal\n  x3: normal\n  y1: boss\nedges:\n  - e -> a\n  - a -> x\n  - x -> b\n  - a -> c\n  - a -> d\n  - c -> y\n  - x -> x1\n  - x1 -> x2\n  - x1 -> x3\n  - y -> y1\nloops:\n  - b <-> c\n  - b <-> d\n  - y <-> d\n";

    #[test]
    fn the_help_on_an_enclosure_counts_the_rooms_that_would_lie_inside() {
        let mut layer = crate::bundled_sources();
        layer.retain(|s| s.kind == crate::FileKind::Room);
        layer.push(crate::Source {
            file: crate::SourceFile::new("k4.yaml", K4),
            kind: crate::FileKind::Flow,
            bundled: false,
        });
        let project = crate::Project::from_layers(vec![layer]);
        assert!(!project.has_errors(), "{:?}", project.diagnostics);
        let flow = project.flow("k4").expect("flow");
        let source = GraphSource::of(flow).expect("a flow graph");
        let (graph, _) =
            solvable_graph(source, flow, &project.library, 0, &BTreeSet::new()).expect("graph");
        let d = decompose(&graph);
        let found = enclosures(&graph, &d);
        let e = found.first().expect("a branch must lie inside a loop");
        let help = enclosure_help(&graph, &d.composites[e.composite].nodes, e);
        let id = |v: NodeIndex| graph.graph[v].id.as_str();
        let enclosed: Vec<&str> = e.enclosed.concat().into_iter().map(id).collect();
        // Whichever branch the decomposition encloses, the count is the
        // room on the loop and all it leads to.
        let want = match enclosed.as_slice() {
            ["x"] => "`x` on it links out of it: 4 rooms would lie inside the loop",
            ["y"] => "`y` on it links out of it: 2 rooms would lie inside the loop",
            other => panic!("unexpected enclosed rooms {other:?}: {help}"),
        };
        assert!(help.contains(want), "{help}");
    }
}
