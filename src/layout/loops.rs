//! Loop composites: each ear grows from both anchored ends alternately, first
//! spreading apart, then (past half way) bending back together; the last room
//! closes the loop with a door when one of its exits meets the other end, else
//! with a corridor.

use petgraph::graph::{EdgeIndex, NodeIndex};

use super::canvas::Canvas;
use super::context::{Candidate, Ctx};
use super::corridor::{connect, direct_pair, link_direct};
use super::failure::Failure;
use super::tree::place_root;
use crate::graph::Ear;

/// Candidates of the closing room tried with a corridor.
const CLOSING_TRIES: usize = 6;

/// Lays out a loop composite, rebuilding it up to `loop_rebuilds` times.
pub fn layout_loop(ctx: &mut Ctx, ears: &[Ear], index: usize) -> Result<Canvas, Failure> {
    let first = ears[0].nodes[0];
    let mut stuck = (first, "");
    let nodes: Vec<NodeIndex> = ears.iter().flat_map(|e| e.nodes.iter().copied()).collect();
    for attempt in 0..ctx.params.loop_rebuilds.max(1) {
        if attempt > 0 {
            ctx.repick(&nodes);
        }
        let mut canvas = Canvas::default();
        if !place_root(ctx, &mut canvas, first) {
            break;
        }
        match ears
            .iter()
            .try_for_each(|ear| grow_ear(ctx, &mut canvas, ear))
        {
            Ok(()) if ctx.composite_open(&canvas) => return Ok(canvas),
            Ok(()) => stuck = (first, "left open for its links"),
            Err(s) => stuck = s,
        }
        if ctx.budget == 0 {
            break;
        }
    }
    let size: usize = ears.iter().map(|e| e.nodes.len() - 1).sum();
    let (node, why) = stuck;
    Err(Failure {
        stage: "loop",
        composite: index,
        node: Some(node),
        reason: format!(
            "loop of {size} rooms could not be {why} at `{}` after {} attempts (corridors {}..{} tiles)",
            ctx.level.graph[node].id,
            ctx.params.loop_rebuilds,
            ctx.params.corridor.0,
            ctx.params.corridor.1
        ),
    })
}

/// Placements of the anchor tried by [`grow_on`].
const IN_PLACE_STARTS: usize = 4;

/// Grows a loop composite straight onto the map: `anchor` against the
/// placed `host` through `edge`, then every ear room by room, so the loop
/// bends around what the map already holds. Only for an anchor on the first
/// cycle (which is turned to start there). Leaves the map unchanged on
/// failure. The fallback when no separately laid-out canvas fits.
pub fn grow_on(
    ctx: &mut Ctx,
    map: &mut Canvas,
    ears: &[Ear],
    host: NodeIndex,
    anchor: NodeIndex,
    edge: EdgeIndex,
) -> bool {
    let Some(first) = ears.first() else {
        return false;
    };
    let cycle = first.nodes.len() - 1;
    if first.nodes[0] != first.nodes[cycle] {
        return false;
    }
    let Some(j) = first.nodes[..cycle].iter().position(|&n| n == anchor) else {
        return false;
    };
    let turned = Ear {
        nodes: first.nodes[j..cycle]
            .iter()
            .chain(&first.nodes[..=j])
            .copied()
            .collect(),
        edges: first.edges[j..]
            .iter()
            .chain(&first.edges[..j])
            .copied()
            .collect(),
    };
    let hi = map.index_of(host).expect("host on map");
    let mut cands = ctx.attach_candidates(map, hi, anchor, edge);
    for c in &mut cands {
        c.score = ctx.rng.unit();
    }
    cands.sort_by(|a, b| b.score.total_cmp(&a.score));
    let (mark, used) = (map.mark(), map.rooms[hi].used.clone());
    for c in cands.iter().take(IN_PLACE_STARTS) {
        let ni = ctx.commit(map, hi, anchor, edge, c);
        let grown = !ctx.strands_exits(map, ni)
            && std::iter::once(&turned)
                .chain(&ears[1..])
                .all(|ear| grow_ear(ctx, map, ear).is_ok());
        if grown {
            return true;
        }
        map.rollback(ctx.shapes, mark);
        map.rooms[hi].used.clone_from(&used);
        if ctx.budget == 0 {
            break;
        }
    }
    false
}

fn size_of(ctx: &Ctx, node: NodeIndex) -> f64 {
    let s = &ctx.shapes[ctx.shape_options(node)[0]];
    f64::from(s.width + s.height) / 2.0
}

fn dist(a: (f64, f64), b: (f64, f64)) -> f64 {
    ((a.0 - b.0).powi(2) + (a.1 - b.1).powi(2)).sqrt()
}

/// Places the inner nodes of an ear; its first and last nodes are placed.
fn grow_ear(
    ctx: &mut Ctx,
    canvas: &mut Canvas,
    ear: &Ear,
) -> Result<(), (NodeIndex, &'static str)> {
    let k = ear.nodes.len();
    if k == 2 {
        return if connect(ctx, canvas, ear.nodes[0], ear.nodes[1], ear.edges[0]) {
            Ok(())
        } else {
            Err((ear.nodes[1], "closed"))
        };
    }
    // The ear is drawn as a ring: the open ends keep the distance of a chord
    // spanning the rooms still to place. A ring of n rooms of size s has
    // circumference n*s; the chord over m of them is (n*s/pi)*sin(pi*m/n).
    // An open ear's ring also runs through the placed part between its ends.
    let size = ear.nodes.iter().map(|&n| size_of(ctx, n)).sum::<f64>() / k as f64;
    let (a, b) = (ear.nodes[0], ear.nodes[k - 1]);
    let between = if a == b {
        0.0
    } else {
        dist(
            ctx.centre(canvas.room_of(a).expect("placed")),
            ctx.centre(canvas.room_of(b).expect("placed")),
        ) / size
    };
    let ring = (k - 1) as f64 + between.max(1.0) * f64::from(u8::from(a != b));
    let (mut lo, mut hi) = (1, k - 2);
    let mut left = true;
    while lo < hi {
        let span = (hi - lo + 1) as f64;
        let wanted =
            ring * size / std::f64::consts::PI * (std::f64::consts::PI * span / ring).sin();
        let (node, host, edge, target) = if left {
            (
                ear.nodes[lo],
                ear.nodes[lo - 1],
                ear.edges[lo - 1],
                ear.nodes[hi + 1],
            )
        } else {
            (
                ear.nodes[hi],
                ear.nodes[hi + 1],
                ear.edges[hi],
                ear.nodes[lo - 1],
            )
        };
        if !place_on_arc(ctx, canvas, node, host, edge, target, wanted) {
            return Err((node, "placed"));
        }
        if left {
            lo += 1;
        } else {
            hi -= 1;
        }
        left = !left;
    }
    // The last room joins its arc on one side and closes the loop on the other.
    let node = ear.nodes[lo];
    let sides = [
        (
            ear.nodes[lo - 1],
            ear.edges[lo - 1],
            ear.nodes[lo + 1],
            ear.edges[lo],
        ),
        (
            ear.nodes[lo + 1],
            ear.edges[lo],
            ear.nodes[lo - 1],
            ear.edges[lo - 1],
        ),
    ];
    for (host, edge, other, other_edge) in sides {
        if close_with(ctx, canvas, node, host, edge, other, other_edge) {
            return Ok(());
        }
    }
    Err((node, "closed"))
}

/// Places `node` against `host`, keeping its distance to the other open end
/// `target` near `wanted`.
fn place_on_arc(
    ctx: &mut Ctx,
    canvas: &mut Canvas,
    node: NodeIndex,
    host: NodeIndex,
    edge: EdgeIndex,
    target: NodeIndex,
    wanted: f64,
) -> bool {
    let hi = canvas.index_of(host).expect("placed");
    let goal = ctx.centre(canvas.room_of(target).expect("placed"));
    let mut cands = ctx.attach_candidates(canvas, hi, node, edge);
    if cands.is_empty() {
        return false;
    }
    for c in &mut cands {
        let d = dist(ctx.candidate_centre(c), goal);
        c.score = -(d - wanted).abs() + ctx.rng.unit() * 4.0;
    }
    cands.sort_by(|a, b| b.score.total_cmp(&a.score));
    let mark = canvas.mark();
    for c in &cands {
        let ni = ctx.commit(canvas, hi, node, edge, c);
        if !ctx.strands_exits(canvas, ni) {
            return true;
        }
        canvas.rollback(ctx.shapes, mark);
        canvas.rooms[hi].used[c.host_exit] = false;
    }
    false
}

/// Places `node` against `host` and realises its edge to `other`: directly
/// when some placement makes two exits meet, else by a corridor.
fn close_with(
    ctx: &mut Ctx,
    canvas: &mut Canvas,
    node: NodeIndex,
    host: NodeIndex,
    edge: EdgeIndex,
    other: NodeIndex,
    other_edge: EdgeIndex,
) -> bool {
    let hi = canvas.index_of(host).expect("placed");
    let oi = canvas.index_of(other).expect("placed");
    let goal = ctx.centre(&canvas.rooms[oi]);
    let mut cands: Vec<Candidate> = ctx.attach_candidates(canvas, hi, node, edge);
    for c in &mut cands {
        c.score = -dist(ctx.candidate_centre(c), goal) + ctx.rng.unit() * 2.0;
    }
    cands.sort_by(|a, b| b.score.total_cmp(&a.score));
    let mark = canvas.mark();
    let undo = |canvas: &mut Canvas, ctx: &Ctx, c: &Candidate| {
        canvas.rollback(ctx.shapes, mark);
        canvas.rooms[hi].used[c.host_exit] = false;
    };
    // A placement whose free exit meets the other end: two doors, no corridor.
    for c in &cands {
        let ni = ctx.commit(canvas, hi, node, edge, c);
        if let Some((en, eo)) = direct_pair(ctx, canvas, ni, oi, other_edge) {
            link_direct(ctx, canvas, ni, en, oi, eo, other_edge);
            return true;
        }
        undo(canvas, ctx, c);
    }
    let mut tries = 0;
    for c in &cands {
        let ni = ctx.commit(canvas, hi, node, edge, c);
        if !ctx.strands_exits(canvas, ni) {
            tries += 1;
            if connect(ctx, canvas, node, other, other_edge) {
                return true;
            }
        }
        undo(canvas, ctx, c);
        if tries >= CLOSING_TRIES {
            break;
        }
    }
    false
}
