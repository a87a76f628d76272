//! Levels with loops laid out on a drawing of their graph: the general
//! fallback when the composite-by-composite layout fails.
//!
//! A loop composite laid out alone and then attached from outside needs
//! every room that links out of it on its outer face; branches that must
//! lie inside a loop, or a third path between two rooms of a loop, defeat
//! it. Here the whole graph is drawn first, each room a point, by stress
//! majorization (Gansner, Koren and North, "Graph drawing by stress
//! majorization", 2004): the distance between two rooms in the drawing
//! approaches the length of a shortest path between them, each link as
//! long as the two rooms' half sizes plus a gap. A drawing places a branch inside a loop when the graph says so
//! and leaves every loop the ground its rooms need. The points are then
//! spread into boxes of the rooms' sizes ([`spread`]), so that no room's
//! target lies on another's ground. The rooms are then
//! placed breadth first from the room nearest the middle, each against a
//! placed neighbour as near its point as a door or a corridor within the
//! flow's bound takes it ([`radial::place`]); a room's links to other
//! placed rooms close as soon as it lands, by a door, a small hall or a
//! corridor.

use petgraph::graph::{EdgeIndex, NodeIndex};

use super::canvas::Canvas;
use super::context::{Ctx, OPEN_DEPTH};
use super::failure::Failure;
use super::radial::{self, Plan, Target};
use super::spread;
use super::tutte::{planar_start, stretched};
use super::untangle::{Point, Tangle, crossings, majorized};
use crate::graph::{Decomposition, EdgeKind};

/// Sweeps of the stress majorization over every room.
const SWEEPS: usize = 120;

/// Drawings made from random points; the one with the fewest crossing
/// links (then the least stress) is kept.
const DRAWINGS: usize = 6;

/// Tiles between two linked rooms in the drawing, beyond their half sizes:
/// one per drawn attempt, in turn. A tight drawing keeps corridors short;
/// a loose one leaves the ground a loop's corridors need to go round the
/// rooms inside it.
const LINK_GAPS: [f64; 3] = [8.0, 14.0, 20.0];

/// Door placements within this many room sides of a room's point are
/// taken without looking for a corridor nearer: rooms keep to the drawing.
const DOOR_NEAR: f64 = 0.25;

/// Lays out every connected part of the level on a drawing of its graph,
/// the parts side by side.
pub fn layout_drawn(ctx: &mut Ctx, d: &Decomposition, round: usize) -> Result<Canvas, Failure> {
    let gap = LINK_GAPS[round % LINK_GAPS.len()];
    radial::lay_out_parts(ctx, d, |ctx, start| plan(ctx, start, gap))
}

/// The plan of the connected part holding `start`: every room's point in
/// the drawing, relative to the room nearest the drawing's middle, which is
/// placed first; the others breadth first from it, each below the linked
/// room that reached it first.
fn plan(ctx: &mut Ctx, start: NodeIndex, gap: f64) -> Plan {
    let rooms: Vec<NodeIndex> = radial::bfs(ctx, start)
        .into_iter()
        .map(|(v, _)| v)
        .collect();
    let side = radial::room_side(ctx, &rooms);
    let (points, links) = draw(ctx, &rooms, gap);
    let points = spread_boxes(ctx, &rooms, &points, &links);
    let n = rooms.len() as f64;
    let middle = points
        .iter()
        .fold((0.0, 0.0), |(x, y), p| (x + p.0 / n, y + p.1 / n));
    let root_at = (0..rooms.len())
        .min_by(|&a, &b| {
            radial::distance(points[a], middle)
                .total_cmp(&radial::distance(points[b], middle))
                .then(a.cmp(&b))
        })
        .expect("a room");
    let root = rooms[root_at];
    let origin = points[root_at];
    let mut point = vec![(0.0, 0.0); ctx.level.graph.node_count()];
    for (v, p) in rooms.iter().zip(&points) {
        point[v.index()] = (p.0 - origin.0, p.1 - origin.1);
    }
    let walk = radial::bfs(ctx, root);
    let doors_first = dead_end_heads(ctx, &walk);
    let mut targets = vec![None; ctx.level.graph.node_count()];
    for &(v, parent) in &walk {
        targets[v.index()] = Some(Target {
            parent,
            at: point[v.index()],
        });
    }
    Plan {
        order: walk.into_iter().map(|(v, _)| v).collect(),
        targets,
        side,
        stage: "drawn",
        door_near: DOOR_NEAR,
        doors_first,
        aims_from_neighbours: true,
        open_depth: OPEN_DEPTH,
        jumps_per_room: 1,
        corridor_search: radial::CORRIDOR_SEARCH,
    }
}

/// Which rooms of `walk` (breadth first from the plan's root, each with
/// the room and link that reached it) head a dead-end tree: no room of
/// their planned subtree links to a room outside it but through the
/// subtree's own links. No loop waits to close on such a room, so it may
/// take any door that fits ([`Plan::doors_first`](radial::Plan::doors_first)).
/// On graphs 12,000.. and 16,000.. of the families (30,5), (45,5), (60,5)
/// and (100,10), 10 seeds each, the levels laid out on a drawing went from
/// 0.02 to 0.13 direct doors to 0.26 to 0.62, and from 15 to 7 to 12 corridor
/// tiles a room; 768 of 800 levels laid out instead of 766. Rooms beyond
/// any link on no loop taking doors too, the rest of their part following
/// them, gave more doors still but 762.
fn dead_end_heads(ctx: &Ctx, walk: &[(NodeIndex, Option<(NodeIndex, EdgeIndex)>)]) -> Vec<bool> {
    let n = ctx.level.graph.node_count();
    let mut tree_link = vec![false; ctx.level.graph.edge_count()];
    let mut parent_of = vec![None; n];
    for &(v, via) in walk {
        if let Some((p, e)) = via {
            tree_link[e.index()] = true;
            parent_of[v.index()] = Some(p);
        }
    }
    let mut closed = vec![true; n];
    for &(v, _) in walk.iter().rev() {
        if radial::neighbours(ctx, v).any(|(_, e)| !tree_link[e.index()]) {
            closed[v.index()] = false;
        }
        match parent_of[v.index()] {
            Some(p) => closed[p.index()] &= closed[v.index()],
            // The root is placed first, wherever.
            None => closed[v.index()] = false,
        }
    }
    closed
}

/// A point for each of `rooms` (a connected part of the level) whose
/// distances approach the length of the shortest path between the rooms
/// ([`lengths`]): stress majorization from random points, each sweep
/// moving every room to where its distances to all the others fit best
/// given theirs (weights: the inverse square of the wanted distance, so
/// near rooms count most).
fn draw(ctx: &mut Ctx, rooms: &[NodeIndex], gap: f64) -> (Vec<Point>, Vec<(usize, usize)>) {
    let n = rooms.len();
    let (want, links) = lengths(ctx, rooms, gap);
    let spread = want.iter().fold(0.0f64, |m, &w| m.max(w)) / 2.0;
    let mut best: Option<(usize, f64, Vec<Point>)> = None;
    let per_drawing = (SWEEPS * n * n) as u64;
    let drawings = (MAX_MAJORIZED_PAIRS / per_drawing.max(1)).clamp(1, DRAWINGS as u64);
    charge(ctx, drawings * per_drawing);
    for _ in 0..drawings {
        let mut points: Vec<Point> = (0..n)
            .map(|_| (ctx.rng.unit() * spread, ctx.rng.unit() * spread))
            .collect();
        majorize(&mut points, &want);
        let key = (crossings(&points, &links), stress(&points, &want));
        if best.as_ref().is_none_or(|b| (key.0, key.1) < (b.0, b.1)) {
            best = Some((key.0, key.1, points));
        }
    }
    let mut points = best.map(|b| b.2).unwrap_or_default();
    if crossings(&points, &links) > 0 {
        let ground: Vec<usize> = rooms
            .iter()
            .map(|&v| ctx.ground(v).unwrap_or(UNKNOWN_GROUND))
            .collect();
        untangle(ctx, &mut points, &want, &ground, &links);
    }
    (points, links)
}

/// Most of a corridor's length two linked rooms' boxes may be apart in a
/// spread drawing: the rest is for the corridor's bends. Measured with
/// 0.5, 0.7 and 0.9 on six hard graphs of the families (60 levels, an
/// earlier version of the annealing): 33, 32 and 32 laid out; 0.7 kept.
const SPREAD_REACH: f64 = 0.7;

/// `points`, a drawing of `rooms` with `links` between them, spread into
/// boxes of their templates' sizes ([`spread::spread`]).
fn spread_boxes(
    ctx: &mut Ctx,
    rooms: &[NodeIndex],
    points: &[Point],
    links: &[(usize, usize)],
) -> Vec<Point> {
    let half = half_sizes(ctx, rooms);
    let reach = f64::from(ctx.params.corridor.1) * SPREAD_REACH;
    let (points, spent) = spread::spread(points, &half, links, reach, &mut ctx.rng);
    charge(ctx, spent);
    points
}

/// Half the side of a room with no template ([`radial::UNKNOWN_SIDE`]),
/// as [`half_sizes`] gives it.
const UNKNOWN_HALF: f64 = radial::UNKNOWN_SIDE as f64 / 2.0;

/// The ground of a room with no template: its square's tiles.
const UNKNOWN_GROUND: usize = (radial::UNKNOWN_SIDE * radial::UNKNOWN_SIDE) as usize;

/// Half the width and height of each of `rooms`' first template.
fn half_sizes(ctx: &Ctx, rooms: &[NodeIndex]) -> Vec<(f64, f64)> {
    rooms
        .iter()
        .map(|&v| {
            ctx.shape_options(v)
                .first()
                .map_or((UNKNOWN_HALF, UNKNOWN_HALF), |&s| {
                    let shape = &ctx.shapes[s];
                    (f64::from(shape.width) / 2.0, f64::from(shape.height) / 2.0)
                })
        })
        .collect()
}

/// Redraws `points`, whose links cross, without crossings where it can
/// (`ground`: each room's tiles, which the loops drawn round it enclose):
/// Tutte's drawings of the graph's blocks composed into one, each loop
/// round what it holds stretched, relaxed without crossing
/// ([`planar_start`]); else the
/// drawing itself annealed ([`Tangle::untangle`]). A drawing that still
/// crosses is kept as it is: placement may manage anyway.
fn untangle(
    ctx: &mut Ctx,
    points: &mut Vec<Point>,
    want: &[f64],
    ground: &[usize],
    links: &[(usize, usize)],
) {
    if let Some((mut start, block)) = planar_start(want, ground, links, points.len(), &mut ctx.rng)
    {
        let want = stretched(&start, &block, want, links);
        let mut tangle = Tangle::new(&mut start, &want, links).with_allowance(MAX_DRAWING_PAIRS);
        tangle.relax();
        charge(ctx, tangle.spent());
        if tangle.crossings() == 0 {
            *points = start;
            return;
        }
    }
    let mut tangle = Tangle::new(points, want, links).with_allowance(MAX_DRAWING_PAIRS);
    tangle.untangle(&mut ctx.rng);
    charge(ctx, tangle.spent());
}

/// Pairs a drawing looks at per unit of the layout's work budget (a
/// placement checked for overlap takes about as long as four crossing
/// tests).
pub const PAIRS_PER_UNIT: u64 = 4;

/// [`PAIRS_PER_UNIT`] of a level of more than
/// [`LARGE_LEVEL_ROOMS`](super::LARGE_LEVEL_ROOMS) rooms, whose failure
/// may take up to 10 s rather than 1. Timed on failing levels of 300 and
/// 1,000 rooms (one thread), four pairs took 22 to 32 ns (majorizing 22,
/// redrawing 24 to 27, spreading 27 to 32), a unit of the same drawn
/// attempts' placements 78 to 120 ns: at four pairs a unit, a failing
/// level of 300 rooms spent its 100 million units in 3.6 s (two drawn
/// attempts after its five composite ones), while a level that spends its
/// units placing takes up to about 8 s. At eight, 483 of 500 levels of
/// 300 rooms lay out instead of 474 (50 graphs, 20 of them new), a
/// failure taking up to 7.5 s instead of 4.3; at sixteen a failure took
/// 11.4 s. Levels of up to 60 rooms keep four: at eight their failures
/// took about 1.5 times as long, past their 1-second aim.
pub const LARGE_PAIRS_PER_UNIT: u64 = 8;

/// Counts `pairs` pairs looked at by a drawing against the level's work
/// ([`Ctx::drawing_work`]): however many drawn attempts a level makes,
/// their drawings end with its work budget.
fn charge(ctx: &mut Ctx, pairs: u64) {
    ctx.drawing_work += pairs / pairs_per_unit(ctx.level.graph.node_count());
}

/// Pairs a drawing of a level of `rooms` rooms looks at per unit of work.
fn pairs_per_unit(rooms: usize) -> u64 {
    if rooms > super::LARGE_LEVEL_ROOMS {
        LARGE_PAIRS_PER_UNIT
    } else {
        PAIRS_PER_UNIT
    }
}

/// Most pairs (of links, of a room and a link, of two rooms) one
/// untangling or relaxation of a drawing looks at: about 2 s on one
/// thread. Relaxing a drawing of 100 rooms looks at about 46 million, of
/// 300 rooms 340 to 400 million; unbounded, a drawing of 1,000 rooms whose
/// loops overlap took minutes.
pub const MAX_DRAWING_PAIRS: u64 = 400_000_000;

/// Most pairs of rooms the stress majorization of one drawing looks at,
/// over all its random starts ([`DRAWINGS`] up to about 400 rooms, fewer
/// from there, at least one): about a second.
pub const MAX_MAJORIZED_PAIRS: u64 = 120_000_000;

/// [`SWEEPS`] sweeps of stress majorization of `points` towards the
/// distances `want` (row-major).
fn majorize(points: &mut [Point], want: &[f64]) {
    let n = points.len();
    for _ in 0..SWEEPS {
        for i in 0..n {
            if let Some(p) = majorized(points, want, i) {
                points[i] = p;
            }
        }
    }
}

/// The stress of `points`: the weighted squared misfit of every distance.
fn stress(points: &[Point], want: &[f64]) -> f64 {
    let n = points.len();
    let mut total = 0.0;
    for i in 0..n {
        for j in i + 1..n {
            let want = want[i * n + j];
            if want > 0.0 {
                let now = radial::distance(points[i], points[j]);
                total += (now - want).powi(2) / (want * want);
            }
        }
    }
    total
}

/// The links between `rooms` (`local`: each room's position in `rooms`,
/// `usize::MAX` for others), each once as `(i, j)` with `i < j`.
fn links_between(ctx: &Ctx, rooms: &[NodeIndex], local: &[usize]) -> Vec<(usize, usize)> {
    let graph = &ctx.level.graph;
    let mut links: Vec<(usize, usize)> = rooms
        .iter()
        .flat_map(|&v| {
            ctx.edges_of(v).iter().filter_map(|&e| {
                let (a, b) = graph.edge_endpoints(e).expect("edge");
                let (i, j) = (local[a.index()], local[b.index()]);
                (i != usize::MAX && j != usize::MAX).then_some((i.min(j), i.max(j)))
            })
        })
        .collect();
    links.sort_unstable();
    links.dedup();
    links
}

/// Each room's position in `rooms`, `usize::MAX` for rooms not in it.
fn positions(ctx: &Ctx, rooms: &[NodeIndex]) -> Vec<usize> {
    let mut local = vec![usize::MAX; ctx.level.graph.node_count()];
    for (i, v) in rooms.iter().enumerate() {
        local[v.index()] = i;
    }
    local
}

/// The length of a shortest path between every two of `rooms` (row-major,
/// by position in `rooms`; 0 between a room and itself), a link between
/// two rooms being as long as their half sizes and `gap`; and the links
/// between `rooms`, each once as `(i, j)` with `i < j`.
fn lengths(ctx: &Ctx, rooms: &[NodeIndex], gap: f64) -> (Vec<f64>, Vec<(usize, usize)>) {
    use petgraph::visit::{EdgeFiltered, EdgeRef, UndirectedAdaptor};
    let n = rooms.len();
    let graph = &ctx.level.graph;
    let local = positions(ctx, rooms);
    let mut half = vec![0.0; graph.node_count()];
    for &v in rooms {
        half[v.index()] = radial::mean_side(ctx, v) / 2.0;
    }
    let links = links_between(ctx, rooms, &local);
    // Passages only (as in `ctx.edges_of`), either way: no warp, no link
    // of a room to itself.
    let physical = EdgeFiltered::from_fn(UndirectedAdaptor(graph), |e| {
        e.weight().kind != EdgeKind::Warp && e.source() != e.target()
    });
    let mut out = vec![0.0; n * n];
    for (s, &v) in rooms.iter().enumerate() {
        let reached = petgraph::algo::dijkstra(&physical, v, None, |e| {
            half[e.source().index()] + half[e.target().index()] + gap
        });
        for (w, length) in reached {
            let j = local[w.index()];
            if j != usize::MAX {
                out[s * n + j] = length;
            }
        }
    }
    (out, links)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layout::fixture::Fixture;

    /// One 9x9 template per category, two doors on each side.
    const ROOMS: &str = "rooms:\n  - name: hall\n    category: entrance\n    art: |\n      ##A###B##\n      #.......#\n      C.......D\n      #.......#\n      #.......#\n      #.......#\n      E.......F\n      #.......#\n      ##G###H##\n  - name: cell\n    category: normal\n    art: |\n      ##A###B##\n      #.......#\n      C.......D\n      #.......#\n      #.......#\n      #.......#\n      E.......F\n      #.......#\n      ##G###H##\n";

    /// Three paths between `h` and `g`, a branch from each path's middle
    /// room, and a loop from one branch back to a path: whichever way the
    /// paths are drawn, a path and its branch lie inside a loop.
    const THETA: &str = "name: theta\nlayout: { reuse_templates: true }\nnodes:\n  h: entrance\n  a: normal\n  b: normal\n  c: normal\n  d: normal\n  e: normal\n  f: normal\n  g: normal\n  x: normal\n  y: normal\n  z: normal\nedges:\n  - h -> a\n  - a -> b\n  - b -> g\n  - h -> c\n  - c -> d\n  - h -> e\n  - e -> f\n  - a -> x\n  - c -> y\n  - e -> z\nloops:\n  - d <-> g\n  - f <-> g\n  - y <-> d\n";

    #[test]
    fn a_drawing_keeps_rooms_near_the_distances_their_links_want() {
        let fixture = Fixture::with(ROOMS, THETA);
        let mut ctx = fixture.ctx();
        let rooms: Vec<NodeIndex> = fixture.level.graph.node_indices().collect();
        let gap = LINK_GAPS[0];
        let (points, links) = draw(&mut ctx, &rooms, gap);
        let (want, _) = lengths(&ctx, &rooms, gap);
        let n = rooms.len();
        assert_eq!(links.len(), 13);
        // The paths and the branches inside the loops cross nothing.
        assert_eq!(crossings(&points, &links), 0);
        // No two rooms much closer than half a link (the rooms inside a
        // loop relax only as far as their links cross nothing): their
        // ground barely overlaps.
        for i in 0..n {
            for j in i + 1..n {
                let now = radial::distance(points[i], points[j]);
                assert!(now > 0.45 * (9.0 + gap), "rooms {i} and {j}: {now}");
            }
        }
        for &(i, j) in &links {
            // Two 9x9 rooms: half sizes 4.5 each, plus the gap.
            assert_eq!(want[i * n + j], 9.0 + gap);
            let now = radial::distance(points[i], points[j]);
            assert!(
                (now - want[i * n + j]).abs() < 0.5 * want[i * n + j],
                "link {i}-{j}: {now} for {}",
                want[i * n + j]
            );
        }
    }

    #[test]
    fn the_rooms_of_dead_end_trees_take_doors_first_whatever_the_root() {
        // THETA's loops hold every room but the branches `x` and `z`.
        let fixture = Fixture::with(ROOMS, THETA);
        let mut ctx = fixture.ctx();
        let id = |v: NodeIndex| fixture.level.graph[v].id.clone();
        for root in fixture.level.graph.node_indices() {
            let walk = radial::bfs(&mut ctx, root);
            let flags = dead_end_heads(&ctx, &walk);
            let mut got: Vec<String> = walk
                .iter()
                .filter(|(v, _)| flags[v.index()])
                .map(|&(v, _)| id(v))
                .collect();
            got.sort();
            // From a branch, the rooms beyond it are the whole level.
            let want = match id(root).as_str() {
                "x" => vec!["z"],
                "z" => vec!["x"],
                _ => vec!["x", "z"],
            };
            assert_eq!(got, want, "from `{}`", id(root));
        }
    }
}
