//! Tree composites: depth-first, exit to exit, with back-tracking.

use std::collections::BTreeMap;

use petgraph::graph::{EdgeIndex, NodeIndex};

use super::canvas::Canvas;
use super::context::{Ctx, Join, TEMPLATE_REPICKS, exit_cell};
use super::failure::Failure;
use super::ranked::Ranked;
use crate::geom::Pos;
use crate::graph::Composite;

/// Children failures after which a node gives up.
const MAX_CHILD_FAILURES: u32 = 3;

type Adjacency = BTreeMap<NodeIndex, Vec<(NodeIndex, EdgeIndex)>>;

/// A depth-first walk over a tree composite: its adjacency, the deepest
/// room it tried (named when the walk gives up), and whether a room that
/// fits against no exit of its parent may be placed a corridor away (a
/// tree composite's last rebuild).
struct Walk {
    adj: Adjacency,
    deepest: NodeIndex,
    corridors: bool,
}

/// One room to place: `kid`, against the placed `parent`, through `edge`.
#[derive(Clone, Copy)]
struct Step {
    parent: NodeIndex,
    kid: NodeIndex,
    edge: EdgeIndex,
}

fn adjacency(ctx: &Ctx, comp: &Composite) -> Adjacency {
    let mut adj: Adjacency = BTreeMap::new();
    for &e in &comp.edges {
        let (a, b) = ctx.level.graph.edge_endpoints(e).expect("edge");
        adj.entry(a).or_default().push((b, e));
        adj.entry(b).or_default().push((a, e));
    }
    adj
}

/// Grows a tree composite straight onto the map, starting with `anchor`
/// against the placed `host` through `edge`: room by room, so each room can
/// take whatever free space the map has. Leaves the map unchanged on failure.
/// A first room with no placement against the host takes another template
/// as any tree room does ([`place_child`]); when every placement of it fails
/// (its subtree included), up to [`TEMPLATE_REPICKS`] other templates are
/// tried for it again (a door beats a corridor); failing that, it is placed
/// a corridor away and the rest grows from it.
pub fn grow_on(ctx: &mut Ctx, map: &mut Canvas, comp: &Composite, join: Join) -> bool {
    let Join { host, anchor, edge } = join;
    let mut walk = Walk {
        adj: adjacency(ctx, comp),
        deepest: anchor,
        corridors: false,
    };
    let step = Step {
        parent: host,
        kid: anchor,
        edge,
    };
    if place_child(ctx, map, &mut walk, step) {
        return true;
    }
    // Another template of the first room may fit where its own does not:
    // a door is better than a corridor.
    let own = ctx.shape_of[anchor.index()];
    for s in ctx.other_templates(anchor, TEMPLATE_REPICKS, &[]) {
        // A room of the subtree may have taken it since (templates are
        // used once unless the flow reuses them).
        if ctx.in_use(anchor, s) {
            continue;
        }
        ctx.shape_of[anchor.index()] = Some(s);
        if place_child(ctx, map, &mut walk, step) {
            return true;
        }
    }
    // Back to its own template, unless a room of the subtree took it.
    if own.is_some_and(|t| !ctx.in_use(anchor, t)) {
        ctx.shape_of[anchor.index()] = own;
    }
    corridor_child(ctx, map, &mut walk, step)
}

/// Places `step.kid` a corridor away from its placed parent (when no
/// placement against the parent fits), then the rest of its subtree. Leaves the canvas
/// unchanged on failure.
fn corridor_child(ctx: &mut Ctx, canvas: &mut Canvas, walk: &mut Walk, step: Step) -> bool {
    let Step { parent, kid, edge } = step;
    for _ in 0..CORRIDOR_STARTS {
        let mut alone = Canvas::default();
        if !place_root(ctx, &mut alone, kid) {
            return false;
        }
        let mark = canvas.mark();
        let join = Join {
            host: parent,
            anchor: kid,
            edge,
        };
        if !super::assemble::attach_by_corridor(
            ctx,
            canvas,
            &alone,
            join,
            super::assemble::Reach::Near,
        ) {
            continue;
        }
        if place_children(ctx, canvas, walk, kid) {
            return true;
        }
        canvas.rollback(ctx.shapes, mark);
    }
    false
}

/// Corridor placements of the first room tried by [`grow_on`].
const CORRIDOR_STARTS: usize = 3;

/// Lays out a tree composite from `root`, rebuilding it up to the flow's
/// `tree_rebuilds` times.
pub fn layout_tree(
    ctx: &mut Ctx,
    comp: &Composite,
    index: usize,
    root: NodeIndex,
) -> Result<Canvas, Failure> {
    let mut walk = Walk {
        adj: adjacency(ctx, comp),
        deepest: root,
        corridors: false,
    };
    let mut stuck = root;
    let rebuilds = ctx.params.tree_rebuilds.max(1);
    for attempt in 0..rebuilds {
        if attempt > 0 {
            ctx.repick(&comp.nodes);
        }
        // The last rebuild may place a room a corridor away from its parent.
        walk.corridors = attempt + 1 == rebuilds;
        let mut canvas = Canvas::default();
        if !place_root(ctx, &mut canvas, root) {
            break;
        }
        walk.deepest = root;
        if place_children(ctx, &mut canvas, &mut walk, root) && ctx.composite_open(&canvas) {
            return Ok(canvas);
        }
        stuck = walk.deepest;
        if ctx.budget == 0 {
            break;
        }
    }
    Err(Failure {
        stage: "tree",
        composite: index,
        node: Some(stuck),
        reason: format!(
            "no free exit of the rooms around it fits a template of `{}` without overlapping",
            ctx.level.graph[stuck].id
        ),
        partial: ctx.partial.take(),
    })
}

/// Places `node` alone at the origin with a shape able to serve all its edges.
pub fn place_root(ctx: &mut Ctx, canvas: &mut Canvas, node: NodeIndex) -> bool {
    let mut options = ctx.shape_options(node);
    ctx.rng.shuffle(&mut options);
    let edges = ctx.edges_of(node);
    for s in options {
        let shape = &ctx.shapes[s];
        if ctx.can_serve(node, shape, &vec![false; shape.exits.len()], edges) {
            canvas.add_room(ctx.shapes, node, s, Pos::new(0, 0));
            return true;
        }
    }
    false
}

/// Places the unplaced neighbours of the placed `node`, and their subtrees.
fn place_children(ctx: &mut Ctx, canvas: &mut Canvas, walk: &mut Walk, node: NodeIndex) -> bool {
    let kids: Vec<(NodeIndex, EdgeIndex)> = walk
        .adj
        .get(&node)
        .map_or(&[][..], Vec::as_slice)
        .iter()
        .copied()
        .filter(|(w, _)| canvas.room_of(*w).is_none())
        .collect();
    kids.into_iter().all(|(kid, edge)| {
        let step = Step {
            parent: node,
            kid,
            edge,
        };
        place_child(ctx, canvas, walk, step)
    })
}

/// Edges still to realise (the one being placed included) that make a room
/// a hub: its children are placed so as to keep its other exits clear, the
/// way a room with many neighbours leaves space for each.
const HUB_PENDING: usize = 3;
/// Weight of each exit left clear, against the other placement scores.
const HUB_WEIGHT: f64 = 4.0;
/// Free tiles ahead of an exit for it to count as clear.
const HUB_DEPTH: i32 = 5;
/// Best placements of a hub's child re-scored by the exits they leave clear.
const HUB_SCORED: usize = 48;

/// Places `step.kid` against its parent door to door, trying the best
/// placements (back-tracking over its subtree; with no placement at all, up
/// to [`TEMPLATE_REPICKS`] other templates first), then, in a last rebuild, a
/// corridor away. Leaves the canvas unchanged on failure.
fn place_child(ctx: &mut Ctx, canvas: &mut Canvas, walk: &mut Walk, step: Step) -> bool {
    let Step { parent, kid, edge } = step;
    let host = canvas.index_of(parent).expect("placed");
    // Other templates of its kind before the tree gives up on it.
    let mut cands = ctx.placements_or_other_template(canvas, host, kid, edge);
    if cands.is_empty() {
        walk.deepest = kid;
        ctx.note_partial(canvas);
        return walk.corridors && corridor_child(ctx, canvas, walk, step);
    }
    let hr = &canvas.rooms[host];
    let hs = &ctx.shapes[hr.shape];
    let used: Vec<Pos> = hs
        .exits
        .iter()
        .enumerate()
        .filter(|(i, _)| hr.used[*i])
        .map(|(_, e)| exit_cell(hr, e))
        .collect();
    let origin = ctx.centre(&canvas.rooms[0]);
    for c in &mut cands {
        let cell = exit_cell(hr, &hs.exits[c.host_exit]);
        // Prefer exits far from the exits already used, and rooms near the root.
        let spread = if used.is_empty() {
            0.0
        } else {
            used.iter()
                .map(|u| f64::from(u.manhattan(cell)))
                .sum::<f64>()
                / used.len() as f64
        };
        let (cx, cy) = ctx.candidate_centre(c);
        let far = ((cx - origin.0).abs() + (cy - origin.1).abs()) / 8.0;
        c.score = spread.min(12.0) - far + ctx.rng.unit() * 4.0;
    }
    // Only the best few that fit are tried (a hub's best re-scored first):
    // the others are never checked for overlap (nor fully ordered).
    let hub = ctx.pending_count(canvas, parent) >= HUB_PENDING;
    let wanted = if hub {
        HUB_SCORED
    } else {
        MAX_CHILD_FAILURES as usize + 1
    };
    let mut cands = ctx.first_fitting(canvas, &mut Ranked::new(cands), wanted);
    if hub {
        // A hub with many rooms still to place: of the best placements,
        // those keeping its exits clear first.
        let bands: Vec<(usize, Pos, Pos)> = ctx.open_bands(canvas, host, HUB_DEPTH, 0).collect();
        for c in &mut cands {
            // The host's exits left free by this placement (not the one it
            // takes, nor its group) whose band the new room leaves clear.
            let taken = hs.exits[c.host_exit].group;
            let shape = &ctx.shapes[c.shape];
            let clear = bands
                .iter()
                .filter(|&&(e, lo, hi)| {
                    e != c.host_exit
                        && (taken.is_none() || hs.exits[e].group != taken)
                        && !shape.covers(c.pos, lo, hi)
                })
                .count();
            c.score += HUB_WEIGHT * clear as f64;
        }
        cands.sort_by(|a, b| b.score.total_cmp(&a.score));
    }
    let mut failures = 0;
    for c in cands {
        if ctx.budget == 0 {
            break;
        }
        let mark = canvas.mark();
        let ni = ctx.commit(canvas, host, kid, edge, &c);
        if !ctx.strands_exits(canvas, ni) && place_children(ctx, canvas, walk, kid) {
            return true;
        }
        canvas.rollback(ctx.shapes, mark);
        failures += 1;
        if failures > MAX_CHILD_FAILURES {
            break;
        }
    }
    walk.corridors && ctx.budget > 0 && corridor_child(ctx, canvas, walk, step)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layout::LinkKind;
    use crate::layout::fixture::Fixture;

    /// What [`grow_on`] made of the fixture's guest, given the template
    /// `template` and a corridor wall `gap` tiles beyond the tile in front
    /// of the host's east door: the shape placed, the shape the node now
    /// has, and how the link was made (`None` when it failed).
    fn grow_guest(template: &str, gap: i32) -> Option<(usize, usize, LinkKind)> {
        let fx = Fixture::new();
        let mut ctx = fx.ctx();
        let join = fx.link();
        let (h, g, edge) = (join.host, join.anchor, join.edge);
        ctx.shape_of[g.index()] = Some(fx.template(template));
        let mut map = Canvas::default();
        map.add_room(ctx.shapes, h, fx.shape(h), Pos::new(0, 0));
        let wall: Vec<Pos> = (-4..=8).map(|y| Pos::new(5 + gap, y)).collect();
        map.add_corridor(&wall);
        let comp = Composite {
            kind: crate::graph::CompositeKind::Tree,
            nodes: vec![g],
            edges: Vec::new(),
        };
        if !grow_on(&mut ctx, &mut map, &comp, join) {
            return None;
        }
        let link = map.links.iter().find(|l| l.edge == edge)?;
        let now = ctx.shape_of[g.index()]?;
        Some((map.room_of(g)?.shape, now, link.kind))
    }

    #[test]
    fn a_first_room_too_big_for_the_gap_takes_another_template_with_a_door() {
        // The guest is 5 tiles wide, the nook 4: only the nook fits.
        let nook = Fixture::new().template("nook");
        assert_eq!(grow_guest("guest", 4), Some((nook, nook, LinkKind::Door)));
    }

    #[test]
    fn a_first_room_keeps_its_template_when_it_fits() {
        let guest = Fixture::new().template("guest");
        assert_eq!(grow_guest("guest", 5), Some((guest, guest, LinkKind::Door)));
    }
}
