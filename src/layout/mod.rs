//! Layout: the expanded graph becomes rooms on a tile grid.
//!
//! 1. [`decompose`](crate::graph::decompose) splits the graph into loop and tree composites;
//! 2. each composite is laid out on its own canvas (`tree`, `loops`) by
//!    joining room exits, with back-tracking and bounded rebuilds;
//! 3. `assemble` moves the canvases so their link exits meet (or sit a short
//!    corridor apart) and joins what is left with A* corridors (`corridor`).
//!
//! Every loop is bounded; a layout that cannot be made ends in a [`Failure`]
//! naming the stage, the composite and the node.

mod assemble;
mod box_grid;
mod build;
mod canvas;
mod compose;
mod context;
mod corridor;
mod drawn;
mod failure;
#[cfg(test)]
mod fixture;
mod hall;
mod loops;
mod radial;
mod ranked;
mod shape;
mod spread;
mod tree;
mod trials;
mod tutte;
mod untangle;

use std::collections::BTreeSet;

use petgraph::graph::{EdgeIndex, NodeIndex};

pub use build::build_level;
pub use canvas::{Canvas, Link, LinkKind, Mark, PlacedRoom};
pub use failure::Failure;
pub use shape::{Shape, ShapeExit};

use crate::flow::LayoutParams;
use crate::graph::{CompositeKind, Decomposition, LevelGraph};
use crate::rng::Rng;
use assemble::Reach;
use context::{Ctx, Join};

/// Candidate placements one layout attempt may evaluate before giving up,
/// per [`ROOMS_PER_BUDGET`] rooms of the level (and at least once).
pub const ATTEMPT_BUDGET: u64 = 400_000;

/// Rooms one [`ATTEMPT_BUDGET`] serves: a level of 200 rooms gets four.
pub const ROOMS_PER_BUDGET: usize = 50;

/// Rooms from which a level counts as crowded: its budgets (placements and
/// back-jumps) grow by one share per this many rooms, on top of their
/// growth with the level's size (see [`crowding`]).
pub const CROWDED_ROOMS: usize = 250;

/// How much more search a level of `rooms` rooms gets per room: 1 up to
/// [`CROWDED_ROOMS`] rooms, then `rooms / CROWDED_ROOMS` (2 at 500 rooms, 4
/// at 1,000). On large maps more composites find their host crowded (on
/// graphs whose loops share no room, a back-jump for 22% of the composites
/// at 100 rooms, 29% at 200, 36% at 500, 41% at 1,000), so budgets that
/// merely grow with the size leave ever less margin: with them a 1,000-room
/// attempt succeeded 3% of the time, most ending out of placements; with
/// this factor 36%.
pub fn crowding(rooms: usize) -> usize {
    (rooms / CROWDED_ROOMS).max(1)
}

/// The placement budget of one layout attempt of a level of `rooms` rooms.
pub fn attempt_budget(rooms: usize) -> u64 {
    ATTEMPT_BUDGET * ((rooms / ROOMS_PER_BUDGET).max(1) * crowding(rooms)) as u64
}

/// Template geometry of a whole library, prepared once.
#[derive(Clone, Debug)]
pub struct ShapeTable {
    /// One shape per template, in library order.
    pub shapes: Vec<Shape>,
    /// Indices of connector templates.
    pub connectors: Vec<usize>,
}

impl ShapeTable {
    /// Prepares every template of `library`.
    pub fn new(library: &crate::rooms::RoomLibrary) -> Self {
        let shapes: Vec<Shape> = library
            .templates()
            .iter()
            .enumerate()
            .map(|(i, t)| Shape::new(i, library.index_of(t.base_name()).unwrap_or(i), t))
            .collect();
        let connectors = shapes
            .iter()
            .enumerate()
            .filter(|(_, s)| s.category == "connector")
            .map(|(i, _)| i)
            .collect();
        Self { shapes, connectors }
    }
}

/// A planned attempt (`radial`) may spend this many [`attempt_budget`]s:
/// it routes a corridor for most rooms of a tree that needs one (a binary
/// tree of 255 rooms: about 15 million units).
pub const PLANNED_BUDGET_FACTOR: u64 = 16;

/// A forest's attempt composite by composite spends at most this share of
/// the level's work left (`1 / FOREST_COMPOSITE_SHARE`), so that its
/// planned attempts, which reach trees the composites cannot, always get
/// the rest. It binds from about 900 rooms, where one attempt's budget
/// (32 million units at 1,000 rooms, 128 million at 2,000) nears the
/// level's ([`MAX_LEVEL_BUDGET`]): random trees of 2,000 rooms failed
/// when the first attempt spent the whole level's work and no planned
/// attempt was made. On `tree(2000)` (graph 12,000, 10 seeds; graphs
/// 12,001..12,009 and 16,000..16,009, 3 seeds each): 59 of 67 levels laid
/// out with no cap, 65 with half, 67 with a quarter (direct doors 0.98,
/// 0.96, 0.92: more of them laid out on a plan); `tree(1000)` is
/// unchanged (40 of 40, 0.983).
pub const FOREST_COMPOSITE_SHARE: u64 = 4;

/// Attempts' worth of [`attempt_budget`] that all the layout attempts of
/// one level may spend together (see [`level_budget`]). Since corridor
/// searches count their steps (graphs 12,000.. and 16,000.. of the
/// families, 1,400 levels: 25 laid out 1,338, 40 lay out 1,360).
pub const LEVEL_BUDGET_ATTEMPTS: u64 = 40;

/// Most work all the layout attempts of one level may spend, whatever its
/// size (it binds from 350 rooms, 100 for a forest). A unit costs 20
/// to 60 ns (release build, one thread): a complete binary tree of 1,023
/// rooms that cannot be laid out ends in 5.2 s, a 1,000-room graph of
/// overlapping loops in 4.9 to 5.1 s (with 512 million units: 27 to 31 and
/// 21 to 46 s).
pub const MAX_LEVEL_BUDGET: u64 = 100_000_000;

/// Rooms from which a level gets [`LARGE_LEVEL_FACTOR`] times the work:
/// up to here a failing flow must end within 1 s, beyond within 10 s.
pub const LARGE_LEVEL_ROOMS: usize = 60;

/// How much more work a level of more than [`LARGE_LEVEL_ROOMS`] rooms
/// gets (still at most [`MAX_LEVEL_BUDGET`]). Measured on trees plus 10
/// loops of 100 rooms (10 graphs x 10 seeds per base): bases 12,000 and
/// 16,000 lay out 173 of 200 with 1, 179 with 3; held-out base 17,000 100
/// of 100 with both; a failure takes 3.4 s instead of 1.1 s.
pub const LARGE_LEVEL_FACTOR: u64 = 3;

/// The work (placements evaluated) all the layout attempts of a level of
/// `rooms` rooms may spend together: [`LEVEL_BUDGET_ATTEMPTS`] attempt
/// budgets (times [`PLANNED_BUDGET_FACTOR`] / 4 for a forest, whose planned
/// attempts cost more, and [`LARGE_LEVEL_FACTOR`] beyond
/// [`LARGE_LEVEL_ROOMS`] rooms), at most [`MAX_LEVEL_BUDGET`]. A flow that cannot be
/// laid out then ends in its diagnostic within a bounded time, whatever its
/// `attempts:` (most failing attempts spend their whole budget; most
/// successful levels need one attempt).
pub fn level_budget(rooms: usize, d: &Decomposition) -> u64 {
    let share = if is_forest(d) {
        PLANNED_BUDGET_FACTOR / 4
    } else {
        1
    };
    let large = if rooms > LARGE_LEVEL_ROOMS {
        LARGE_LEVEL_FACTOR
    } else {
        1
    };
    (attempt_budget(rooms) * LEVEL_BUDGET_ATTEMPTS * share * large).min(MAX_LEVEL_BUDGET)
}

/// Whether every composite of `d` is a tree (the level's physical edges
/// close no cycle).
fn is_forest(d: &Decomposition) -> bool {
    d.composites.iter().all(|c| c.kind == CompositeKind::Tree)
}

/// One layout attempt (the `attempt`-th of its level): places every room
/// of `level` on one map, spending at most its [`attempt_budget`] and what
/// is left of `work` (a forest's attempt composite by composite, at most a
/// [`FOREST_COMPOSITE_SHARE`] of it), which it lowers by what it spent. A forest's
/// attempts are laid out on a plan (`radial`) but for every fourth (the
/// first included), which like every other level's goes composite by
/// composite: most trees lay out on the first, with more direct doors. A
/// level with loops goes composite by composite for its first attempts
/// (`drawn_round`); then every attempt (every second when no composite
/// must enclose a linked room) lays it out on a drawing of its graph
/// (`drawn`), which reaches graphs the composites cannot
/// (branches inside loops, a third path between two rooms of a loop) at
/// the cost of more corridors. `enclosed`: whether some composite of the
/// level must have a linked room inside one of its loops (see
/// [`enclosures`](crate::graph::enclosures)). `keep_partial`: on failure,
/// put the fullest map the attempt reached into [`Failure::partial`].
#[allow(clippy::too_many_arguments)]
pub fn layout_once(
    level: &LevelGraph,
    library: &crate::rooms::RoomLibrary,
    table: &ShapeTable,
    decomposition: &Decomposition,
    params: &LayoutParams,
    rng: Rng,
    work: &mut u64,
    attempt: usize,
    enclosed: bool,
    keep_partial: bool,
) -> Result<Canvas, Failure> {
    let mut ctx = Ctx::new(level, library, table, params, rng);
    ctx.keep_partial = keep_partial;
    let forest = is_forest(decomposition);
    let planned = forest && !attempt.is_multiple_of(4);
    let drawn = if forest {
        None
    } else {
        drawn_round(attempt, enclosed)
    };
    if planned || drawn.is_some() {
        ctx.budget *= PLANNED_BUDGET_FACTOR;
    }
    let mut allowed = ctx.budget.min(*work);
    if forest && !planned {
        allowed = allowed.min(*work / FOREST_COMPOSITE_SHARE);
    }
    ctx.budget = allowed;
    ctx.work_left = *work;
    let result = if planned {
        radial::layout_forest(&mut ctx, decomposition)
    } else if let Some(round) = drawn {
        drawn::layout_drawn(&mut ctx, decomposition, round)
    } else {
        place_all(&mut ctx, decomposition)
    };
    *work -= allowed - ctx.budget;
    *work = work.saturating_sub(ctx.drawing_work);
    result
}

/// Attempts of a level with loops before the first laid out on a drawing
/// of its graph (`drawn`) when some composite must enclose a linked
/// room (the composites seldom manage it); from it, every attempt is
/// drawn. When the composite attempts were interleaved with the drawn
/// ones, such a level never laid out on one once its drawn attempts had
/// begun (graphs 60,000..60,079, families (30,5), (45,3) and (45,5), 10
/// seeds each: of the 226 levels that reached them, 205 laid out, each on
/// a drawn attempt; so did the 37 levels of the seven often-failing
/// graphs that laid out), yet they took half the time of a failing level.
/// Drawing every attempt from here took a failing 20-room level from 1.08
/// to 1.17 s to 0.85 to 0.98 s (median of its failing seeds, two runs);
/// the loop families lay out 4,775 of 4,800 levels instead of 4,776, the
/// seven graphs 36 of 70 instead of 37.
pub const DRAWN_FROM_ENCLOSED: usize = 5;

/// Attempts before the first drawn one for other levels with loops: those
/// the composites lay out, if not at once then within a few attempts,
/// with more direct doors (a bundled flow needs up to 8). From it, every
/// second attempt is drawn (84 levels of the families above laid out on
/// a later composite attempt, 91 on a drawn one).
pub const DRAWN_FROM: usize = 15;

/// Which drawn attempt (0, 1, ...) the `attempt`-th layout attempt of a
/// level with loops is, if it is one (`enclosed`: see [`layout_once`]).
fn drawn_round(attempt: usize, enclosed: bool) -> Option<usize> {
    if enclosed {
        return attempt.checked_sub(DRAWN_FROM_ENCLOSED);
    }
    (attempt >= DRAWN_FROM && (attempt - DRAWN_FROM).is_multiple_of(2))
        .then(|| (attempt - DRAWN_FROM) / 2)
}

/// Lays out every composite of `d` and joins them on one map.
fn place_all(ctx: &mut Ctx, d: &Decomposition) -> Result<Canvas, Failure> {
    let level = ctx.level;
    let params = ctx.params;
    let mut placed: Vec<bool> = vec![false; d.composites.len()];
    let mut links: Vec<EdgeIndex> = d.links.clone();
    links.sort();
    // Start from the room with the most connections (the entrance on ties).
    let mut roots: Vec<NodeIndex> = level.graph.node_indices().collect();
    roots.sort_by_key(|&n| {
        (
            std::cmp::Reverse(level.door_count(n)),
            n != level.entrance,
            n.index(),
        )
    });
    let mut map: Option<Canvas> = None;
    for root in roots {
        let c = d.composite_of[root.index()];
        if placed[c] {
            continue;
        }
        placed[c] = true;
        // On failure, the fuller of the map so far and this island is the
        // partial layout the diagnostic can show.
        let mut island = match lay_out(ctx, d, c, root, None) {
            Ok(island) => island,
            Err(f) => return Err(ctx.failed_on(f, &map)),
        };
        mark_absorbed(d, &island, Mark::default(), &mut placed);
        if let Err(f) = attach_all(ctx, d, &mut island, &mut placed, &links) {
            return Err(ctx.failed_on(f, map.iter().chain([&island])));
        }
        map = Some(match map {
            None => island,
            Some(mut m) => {
                place_island(ctx, &mut m, &island);
                m
            }
        });
    }
    let mut map = map.unwrap_or_default();
    // Links between rooms already on the map.
    for &e in &links {
        if map.realised(e) {
            continue;
        }
        let (a, b) = level.graph.edge_endpoints(e).expect("edge");
        if !corridor::connect(ctx, &mut map, a, b, e, corridor::Joint::Corridor) {
            return Err(Failure {
                stage: "assembly",
                composite: d.composite_of[a.index()],
                node: Some(b),
                reason: format!(
                    "no corridor of {}..{} tiles joins `{}` and `{}`",
                    params.corridor.0, params.corridor.1, level.graph[a].id, level.graph[b].id
                ),
                partial: ctx.keep_partial.then(|| Box::new(map)),
            });
        }
    }
    Ok(map)
}

/// Fewest back-jumps per layout attempt.
const ASSEMBLY_BACKTRACKS: usize = 2;

/// Failures of one composite after which its back-jumps reach one host
/// further back. With the budgets of [`crowding`], 8 beat 4: on 1,000-room
/// graphs (6 seeds of 5 graphs) 3.5 s of attempts per level laid out
/// against 5.3 s (every second failure: 20.7 s).
const ESCALATE_EVERY: usize = 8;

/// What to restore to undo one attached composite.
struct Attached {
    composite: usize,
    /// The composite holding the room it was attached to.
    via: usize,
    mark: Mark,
    /// Dead-end composites laid out with it ([`mark_absorbed`]).
    absorbed: Vec<usize>,
}

/// Flags placed every composite with a room placed on `island` since
/// `since` and not yet flagged (the dead-end branches a loop composite grew
/// inside its loops), and returns them.
fn mark_absorbed(
    d: &Decomposition,
    island: &Canvas,
    since: Mark,
    placed: &mut [bool],
) -> Vec<usize> {
    let mut absorbed = Vec::new();
    for room in island.rooms_since(since) {
        let t = d.composite_of[room.node.index()];
        if !placed[t] {
            placed[t] = true;
            absorbed.push(t);
        }
    }
    absorbed
}

/// Attaches every composite linked (transitively) to `island`, outwards
/// from it: first those whose host's composite was attached earliest, so
/// the map grows as a front and a room's links are made before later
/// composites crowd around it. Of those, the one whose host room has the
/// least room to spare first, and then the smallest: a room or two still
/// finds a door beside a crowded hub, which a large composite attached
/// before them would have walled in.
///
/// When a composite fits nowhere, the assembly jumps back: the composite
/// holding its host (or else the last one attached) and every composite
/// attached since are undone, and the one that failed goes first (at most
/// [`backtrack_budget`] times). Every [`ESCALATE_EVERY`] failures of the
/// same composite the jump reaches one host further back (the composite
/// its host's composite was attached to, and so on): a host is often
/// walled in by composites attached before its own.
///
/// Room-disjoint graphs of 500 rooms, 8 seeds of each of 5 graphs: the
/// front order, the escalation, the far corridor reach of
/// [`Reach::Far`] and the map's deeper open band of
/// [`Ctx::strands_exits`] took them from 1 to 39 of 40 levels.
fn attach_all(
    ctx: &mut Ctx,
    d: &Decomposition,
    island: &mut Canvas,
    placed: &mut [bool],
    links: &[EdgeIndex],
) -> Result<(), Failure> {
    let level = ctx.level;
    let mut history: Vec<Attached> = Vec::new();
    let mut urgent: Vec<usize> = Vec::new();
    let mut backtracks = 0;
    // When each composite was attached (0: before this assembly).
    let mut rank = vec![0; d.composites.len()];
    let mut failures = vec![0; d.composites.len()];
    ctx.on_map = true;
    loop {
        let next = links
            .iter()
            .filter_map(|&e| {
                let (a, b) = level.graph.edge_endpoints(e).expect("edge");
                let (ca, cb) = (d.composite_of[a.index()], d.composite_of[b.index()]);
                let (host, anchor, comp) = match (placed[ca], placed[cb]) {
                    (true, false) => (a, b, cb),
                    (false, true) => (b, a, ca),
                    _ => return None,
                };
                let hi = island.index_of(host)?;
                let slack =
                    ctx.open_exits(island, hi, 2) as i64 - ctx.pending_count(island, host) as i64;
                let size = d.composites[comp].nodes.len();
                let front = rank[d.composite_of[host.index()]];
                Some((
                    !urgent.contains(&comp),
                    front,
                    slack,
                    size,
                    e,
                    host,
                    anchor,
                    comp,
                ))
            })
            .min_by_key(|&(later, front, slack, size, e, ..)| (later, front, slack, size, e));
        let Some((.., e, host, anchor, comp)) = next else {
            return Ok(());
        };
        let host_composite = d.composite_of[host.index()];
        let mut before = Attached {
            composite: comp,
            via: host_composite,
            mark: island.mark(),
            absorbed: Vec::new(),
        };
        placed[comp] = true;
        let join = Join {
            host,
            anchor,
            edge: e,
        };
        match attach_composite(ctx, d, island, comp, join) {
            Ok(()) => {
                before.absorbed = mark_absorbed(d, island, before.mark, placed);
                history.push(before);
                rank[comp] = history.len();
            }
            Err(f) => {
                undo(ctx, island, placed, &before);
                if backtracks >= backtrack_budget(d) || ctx.budget == 0 {
                    return Err(f);
                }
                // Jump back to where the host's composite was attached (it
                // may have been walled in), or further back after repeated
                // failures, else undo the last composite.
                failures[comp] += 1;
                let mut target = host_composite;
                for _ in 0..(failures[comp] - 1) / ESCALATE_EVERY {
                    match history.iter().find(|h| h.composite == target) {
                        Some(h) => target = h.via,
                        None => break,
                    }
                }
                let Some(to) = history
                    .iter()
                    .rposition(|h| h.composite == target)
                    .or(history.len().checked_sub(1))
                else {
                    return Err(f);
                };
                backtracks += 1;
                for step in history.drain(to..).rev() {
                    undo(ctx, island, placed, &step);
                }
                urgent.retain(|&u| u != comp);
                urgent.insert(0, comp);
            }
        }
    }
}

/// Back-jumps one layout attempt may make: a few, more for graphs of many
/// composites (one per two, times the [`crowding`] of the level).
fn backtrack_budget(d: &Decomposition) -> usize {
    ASSEMBLY_BACKTRACKS.max(d.composites.len() / 2 * crowding(d.composite_of.len()))
}

/// Restores `island` to how it was before `step` attached its composite.
fn undo(ctx: &Ctx, island: &mut Canvas, placed: &mut [bool], step: &Attached) {
    island.rollback(ctx.shapes, step.mark);
    placed[step.composite] = false;
    for &t in &step.absorbed {
        placed[t] = false;
    }
}

/// Lays out composite `c` on its own canvas, from `root` (the anchor of
/// `join`, when it is to join a room on the map).
fn lay_out(
    ctx: &mut Ctx,
    d: &Decomposition,
    c: usize,
    root: NodeIndex,
    join: Option<Join>,
) -> Result<Canvas, Failure> {
    let comp = &d.composites[c];
    let on_map = std::mem::replace(&mut ctx.on_map, false);
    let canvas = match &comp.kind {
        CompositeKind::Loop(ears) => loops::layout_loop(ctx, d, c, ears, join),
        CompositeKind::Tree => tree::layout_tree(ctx, comp, c, root),
    };
    ctx.on_map = on_map;
    canvas
}

/// Rebuilds of a composite tried when its canvas fits nowhere on the map.
const ATTACH_REBUILDS: usize = 2;

/// Attaches composite `c` to the map through `join` (its host on the map,
/// its anchor in `c`): a tree grows room by room against the host;
/// failing that, the composite is laid out alone (up to [`ATTACH_REBUILDS`]
/// times) and moved so the link is a door or a short corridor; a loop then
/// grows ear by ear against the host; last, the composite goes anywhere a
/// corridor from the host can reach.
fn attach_composite(
    ctx: &mut Ctx,
    d: &Decomposition,
    map: &mut Canvas,
    c: usize,
    join: Join,
) -> Result<(), Failure> {
    let comp = &d.composites[c];
    if comp.kind == CompositeKind::Tree && tree::grow_on(ctx, map, comp, join) {
        return Ok(());
    }
    let mut gave_up = None;
    let mut last_part = None;
    for _ in 0..ATTACH_REBUILDS {
        let part = match lay_out(ctx, d, c, join.anchor, Some(join)) {
            Ok(part) => part,
            Err(f) => {
                gave_up = Some(f);
                break;
            }
        };
        if assemble::attach(ctx, map, &part, join)
            || assemble::attach_by_corridor(ctx, map, &part, join, Reach::Near)
        {
            return Ok(());
        }
        last_part = Some(part);
        if ctx.budget == 0 {
            break;
        }
    }
    if matches!(comp.kind, CompositeKind::Loop(_)) && loops::grow_on(ctx, map, comp, join) {
        return Ok(());
    }
    if let Some(part) = last_part
        && assemble::attach_by_corridor(ctx, map, &part, join, Reach::Far)
    {
        return Ok(());
    }
    Err(gave_up.unwrap_or_else(|| Failure {
        stage: "assembly",
        composite: c,
        node: Some(join.anchor),
        reason: format!(
            "the composite of {} rooms around `{}` fits against no free exit of `{}`",
            d.composites[c].nodes.len(),
            ctx.level.graph[join.anchor].id,
            ctx.level.graph[join.host].id
        ),
        partial: None,
    }))
}

/// Puts a detached wing (reached by warp) beside the map.
fn place_island(ctx: &Ctx, map: &mut Canvas, island: &Canvas) {
    let (Some((_, hi)), Some((lo, _))) = (map.bounds(ctx.shapes), island.bounds(ctx.shapes)) else {
        map.merge(ctx.shapes, island, crate::geom::Pos::new(0, 0));
        return;
    };
    let offset = crate::geom::Pos::new(hi.x + 4 - lo.x, -lo.y);
    map.merge(ctx.shapes, island, offset);
}

/// Every physical edge of the graph (tree and loop), for completeness checks.
pub fn physical_edges(level: &LevelGraph) -> BTreeSet<EdgeIndex> {
    use petgraph::visit::EdgeRef;
    level
        .graph
        .edge_references()
        .filter(|e| e.weight().kind != crate::graph::EdgeKind::Warp)
        .map(|e| e.id())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_enclosing_level_draws_every_attempt_once_drawing_begins() {
        let kinds: Vec<Option<usize>> = (0..9).map(|a| drawn_round(a, true)).collect();
        let mut expected = vec![None; DRAWN_FROM_ENCLOSED];
        expected.extend((0..9 - DRAWN_FROM_ENCLOSED).map(Some));
        assert_eq!(kinds, expected);
    }

    #[test]
    fn other_levels_with_loops_draw_every_second_attempt_after_the_first_fifteen() {
        assert!((0..DRAWN_FROM).all(|a| drawn_round(a, false).is_none()));
        let later: Vec<Option<usize>> = (DRAWN_FROM..DRAWN_FROM + 5)
            .map(|a| drawn_round(a, false))
            .collect();
        assert_eq!(later, [Some(0), None, Some(1), None, Some(2)]);
    }
}
