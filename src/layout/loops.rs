//! Loop composites: each ear grows from both anchored ends alternately, first
//! spreading apart, then (past half way) bending back together; the last room
//! closes the loop with a door when one of its exits meets the other end (in
//! its own template or one of up to 8 others of its kind), else with a small
//! hall built between two exits, else with a corridor. The last room but one
//! first tries its best placements for one after which the last room closes
//! door to door.

use petgraph::graph::{EdgeIndex, NodeIndex};

use super::canvas::{Canvas, PlacedRoom};
use super::context::{Candidate, Ctx, Join, TEMPLATE_REPICKS};
use super::corridor::{Joint, connect, direct_pair, link_direct};
use super::failure::Failure;
use super::ranked::Ranked;
use super::shape::{Shape, ShapeExit};
use super::tree::place_root;
use crate::geom::{Dir, Pos};
use crate::graph::{
    Composite, CompositeKind, Decomposition, Ear, ears_from, enclosure_plan, leaves_linked_outside,
    other_ear_orders,
};
use rustc_hash::FxHashMap;

/// Candidates of the closing room tried with a corridor.
const CLOSING_TRIES: usize = 6;

/// Rebuilds of a loop composite from one ear order before the next of
/// its [`other_ear_orders`] is tried.
const REBUILDS_PER_ORDER: u32 = 4;

/// Lays out loop composite `c` of `d`, rebuilding it up to `loop_rebuilds`
/// times: from `ears` first, then by turns from its other ear orders,
/// every [`REBUILDS_PER_ORDER`] rebuilds. Before an ear that encloses a
/// room linked out of the composite however it is drawn, that room's
/// dead-end branches are grown ([`Decomposition::dead_end_branches`]): the
/// canvas may hold rooms of those composites too. With `join`, a
/// layout is kept only when the host's room could be placed against the
/// anchor on it: a composite that walls in the room it joins by can never
/// be attached.
pub fn layout_loop(
    ctx: &mut Ctx,
    d: &Decomposition,
    c: usize,
    ears: &[Ear],
    join: Option<Join>,
) -> Result<Canvas, Failure> {
    let comp = &d.composites[c];
    let mut stuck = (ears[0].nodes[0], "");
    let mut others: Option<Vec<Vec<Ear>>> = None;
    // Per ear order: its steps, and whether its linked rooms all lie on its
    // outer face (then they must face out: `Ctx::faces_out`).
    let mut planned: Vec<Option<(Vec<GrowStep>, bool)>> = Vec::new();
    for attempt in 0..ctx.params.loop_rebuilds.max(1) {
        if attempt > 0 {
            ctx.repick(&comp.nodes);
        }
        let turn = (attempt / REBUILDS_PER_ORDER) as usize;
        let (which, order) = if turn == 0 {
            (0, ears)
        } else {
            let others = &*others.get_or_insert_with(|| other_ear_orders(ctx.level, d, comp, ears));
            match turn % (others.len() + 1) {
                0 => (0, ears),
                i => (i, others[i - 1].as_slice()),
            }
        };
        if planned.len() <= which {
            planned.resize_with(which + 1, || None);
        }
        let (steps, outward) = planned[which].get_or_insert_with(|| {
            (
                steps_of(ctx, d, comp, order, join),
                leaves_linked_outside(ctx.level, comp, order),
            )
        });
        let outward = *outward;
        let first = order[0].nodes[0];
        let mut canvas = Canvas::default();
        if !place_root(ctx, &mut canvas, first) {
            break;
        }
        let mut regrowths = EAR_REGROWTHS * steps.len();
        match grow_steps(
            ctx,
            &mut canvas,
            order,
            steps,
            &mut regrowths,
            &mut |ctx, canvas| {
                ctx.composite_open(canvas)
                    && admits(ctx, canvas, join)
                    && (!outward || ctx.faces_out(canvas, |v| pocket_need(ctx, d, canvas, v)))
            },
        ) {
            Ok(()) => return Ok(canvas),
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
        composite: c,
        node: Some(node),
        reason: format!(
            "loop of {size} rooms could not be {why} at `{}` after {} attempts (corridors {}..{} tiles)",
            ctx.level.graph[node].id,
            ctx.params.loop_rebuilds,
            ctx.params.corridor.0,
            ctx.params.corridor.1
        ),
        partial: None,
    })
}

/// Free tiles a pocket of a laid-out loop composite must have for room
/// `v` to make its links into it: [`POCKET_GROUND`] times the tiles of the
/// rooms of the largest composite at the other end of a link `v` has still
/// to make on `canvas`.
fn pocket_need(ctx: &Ctx, d: &Decomposition, canvas: &Canvas, v: NodeIndex) -> usize {
    let tiles = |c: usize| -> usize {
        d.composites[c]
            .nodes
            .iter()
            .filter_map(|&w| ctx.ground(w))
            .sum()
    };
    ctx.level
        .door_ends(v)
        .filter(|&(_, e)| !canvas.realised(e))
        .map(|(w, _)| tiles(d.composite_of[w.index()]))
        .max()
        .unwrap_or(0)
        * POCKET_GROUND
}

/// How much free ground a pocket must have for the rooms to be placed in
/// it, per tile of the rooms: with their doors, corridors and the gaps
/// between them.
const POCKET_GROUND: usize = 2;

/// One step of a loop composite's layout.
enum GrowStep<'d> {
    /// An ear (by its index in the ear order), both ends placed.
    Ear(usize),
    /// A dead-end composite grown against its placed host.
    Branch(&'d Composite, Join),
}

/// The steps laying out `order` (ears of `comp`, joining the map by
/// `join`): each ear after the dead-end branches of the linked rooms its
/// [`enclosure_plan`] has it enclose, or before them when those rooms are
/// its own (an ear from a room already inside).
fn steps_of<'d>(
    ctx: &Ctx,
    d: &'d Decomposition,
    comp: &Composite,
    order: &[Ear],
    join: Option<Join>,
) -> Vec<GrowStep<'d>> {
    let plan = enclosure_plan(ctx.level, d, comp, order).unwrap_or_default();
    // The composite joined by (already on the map) may be a dead end of
    // this one too: it is never grown again.
    let mut grown: Vec<usize> = join
        .map(|j| d.composite_of[j.host.index()])
        .into_iter()
        .collect();
    let mut steps = Vec::new();
    let mut placed: Vec<NodeIndex> = Vec::new();
    for (i, ear) in order.iter().enumerate() {
        let rooms = plan.get(i).cloned().unwrap_or_default();
        let (before, after): (Vec<NodeIndex>, Vec<NodeIndex>) =
            rooms.into_iter().partition(|v| placed.contains(v));
        branch_steps(ctx, d, &before, &mut grown, &mut steps);
        steps.push(GrowStep::Ear(i));
        placed.extend(ear.nodes.iter().copied());
        branch_steps(ctx, d, &after, &mut grown, &mut steps);
    }
    steps
}

/// Appends to `steps` the dead-end branches of `hosts` not yet `grown`.
fn branch_steps<'d>(
    ctx: &Ctx,
    d: &'d Decomposition,
    hosts: &[NodeIndex],
    grown: &mut Vec<usize>,
    steps: &mut Vec<GrowStep<'d>>,
) {
    for &host in hosts {
        for (t, edge) in d.dead_end_branches(ctx.level, host) {
            if grown.contains(&t) {
                continue;
            }
            grown.push(t);
            let (a, b) = ctx.level.graph.edge_endpoints(edge).expect("edge");
            let anchor = if a == host { b } else { a };
            steps.push(GrowStep::Branch(
                &d.composites[t],
                Join { host, anchor, edge },
            ));
        }
    }
}

/// Extra growths of earlier steps, per step of the composite, that one
/// rebuild may spend when a later step fails.
const EAR_REGROWTHS: usize = 1;

/// Grows `steps` in order on `canvas`, then asks `done` whether the result
/// will do. When a step (or `done`) fails, the step before it is undone
/// and grown again (a depth-first search over ear layouts, as Edgar
/// searches over chain layouts), spending at most `regrowths` growths
/// beyond the first of each step: a later ear often fails for where an
/// earlier one bent, not for the composite as a whole.
fn grow_steps(
    ctx: &mut Ctx,
    canvas: &mut Canvas,
    order: &[Ear],
    steps: &[GrowStep],
    regrowths: &mut usize,
    done: &mut dyn FnMut(&mut Ctx, &Canvas) -> bool,
) -> Result<(), (NodeIndex, &'static str)> {
    let Some((step, rest)) = steps.split_first() else {
        if done(ctx, canvas) {
            return Ok(());
        }
        // A finished composite that will not do is rebuilt afresh: its
        // templates, not the bend of its last ear, wall its links in.
        *regrowths = 0;
        return Err((canvas.rooms[0].node, "left open for its links"));
    };
    let mark = canvas.mark();
    loop {
        let grown = match step {
            GrowStep::Ear(i) => grow_ear(ctx, canvas, &order[*i]),
            GrowStep::Branch(branch, join) => {
                let grown = match branch.kind {
                    CompositeKind::Tree => super::tree::grow_on(ctx, canvas, branch, *join),
                    CompositeKind::Loop(_) => grow_on(ctx, canvas, branch, *join),
                };
                if grown {
                    Ok(())
                } else {
                    Err((join.anchor, "placed"))
                }
            }
        };
        match grown.and_then(|()| grow_steps(ctx, canvas, order, rest, regrowths, done)) {
            Ok(()) => return Ok(()),
            Err(stuck) => {
                canvas.rollback(ctx.shapes, mark);
                if *regrowths == 0 || ctx.budget == 0 || rest.is_empty() {
                    return Err(stuck);
                }
                *regrowths -= 1;
            }
        }
    }
}

/// Whether the host's room of `join` could be placed against its anchor on
/// `canvas` (always, without a join).
fn admits(ctx: &mut Ctx, canvas: &Canvas, join: Option<Join>) -> bool {
    join.is_none_or(|j| {
        let ai = canvas.index_of(j.anchor).expect("anchor laid out");
        ctx.placements(canvas, ai, j.host, j.edge)
            .iter()
            .any(|c| ctx.fits(canvas, c))
    })
}

/// Placements of the anchor tried by [`grow_on`].
const IN_PLACE_STARTS: usize = 4;

/// Grows a loop composite straight onto the map: the anchor of `join`
/// against its placed host, then the composite's ears re-ordered to
/// start at the anchor ([`ears_from`]), room by room, so the loop bends
/// around what the map already holds. When the anchor fits against no exit
/// of the host, up to [`TEMPLATE_REPICKS`](super::context::TEMPLATE_REPICKS) other
/// templates are tried for it.
/// Leaves the map unchanged on failure.
pub fn grow_on(ctx: &mut Ctx, map: &mut Canvas, comp: &Composite, join: Join) -> bool {
    let Join { host, anchor, edge } = join;
    let Some(ears) = ears_from(ctx.level, comp, anchor) else {
        return false;
    };
    let hi = map.index_of(host).expect("host on map");
    let mark = map.mark();
    // Another template of the anchor may fit where its own does not.
    let mut cands = ctx.placements_or_other_template(map, hi, anchor, edge);
    for c in &mut cands {
        c.score = ctx.rng.unit();
    }
    let mut cands = Ranked::new(cands);
    for c in &ctx.first_fitting(map, &mut cands, IN_PLACE_STARTS) {
        let ni = ctx.commit(map, hi, anchor, edge, c);
        let grown =
            !ctx.strands_exits(map, ni) && ears.iter().all(|ear| grow_ear(ctx, map, ear).is_ok());
        if grown {
            return true;
        }
        map.rollback(ctx.shapes, mark);
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
        return if connect(
            ctx,
            canvas,
            ear.nodes[0],
            ear.nodes[1],
            ear.edges[0],
            Joint::HallOrCorridor,
        ) {
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
    let mut arc = Arc {
        ear,
        ring,
        size,
        backtracks: 0,
        stuck: (ear.nodes[1], "placed"),
        searched: Vec::new(),
    };
    if arc.grow(ctx, canvas, 1, k - 2, true) {
        Ok(())
    } else {
        Err(arc.stuck)
    }
}

/// Placements of an ear's last room but one tried for a door-to-door
/// closing before any closing.
const DOOR_LOOKAHEAD: usize = 2;

/// Other templates the last room tries in a look-ahead closing.
const LOOKAHEAD_REPICKS: usize = 2;

/// How the last room of an ear may close its loop.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Closing {
    /// Door to door only.
    DoorOnly,
    /// By a door, else a hall, else a corridor.
    Any,
}

/// Placements undone and retried per ear before it gives up.
const ARC_BACKTRACKS: usize = 3;

/// Candidates tried per room of an ear.
const ARC_BRANCHES: usize = 2;

/// The state of one ear's growth: its rooms are placed from both ends
/// alternately, back-tracking over the last placements when a room (or the
/// closing) fails.
struct Arc<'e> {
    ear: &'e Ear,
    /// Rooms on the ring the ear is drawn as.
    ring: f64,
    /// Mean room size.
    size: f64,
    backtracks: usize,
    /// The room that failed last, and how.
    stuck: (NodeIndex, &'static str),
    /// Templates of the last room the look-ahead searched door to door, in
    /// vain, for the placement of the last room but one now on the canvas:
    /// set before the last room's closing, which does not search them again.
    searched: Vec<Option<usize>>,
}

impl Arc<'_> {
    /// Places the ear's rooms `lo..=hi` (their outer neighbours placed),
    /// next from the left end when `left`.
    fn grow(
        &mut self,
        ctx: &mut Ctx,
        canvas: &mut Canvas,
        lo: usize,
        hi: usize,
        left: bool,
    ) -> bool {
        let ear = self.ear;
        if lo == hi {
            let mut searched = std::mem::take(&mut self.searched);
            return self.close(ctx, canvas, lo, Closing::Any, &mut searched);
        }
        let span = (hi - lo + 1) as f64;
        let ring = self.ring;
        let wanted =
            ring * self.size / std::f64::consts::PI * (std::f64::consts::PI * span / ring).sin();
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
        let hi_room = canvas.index_of(host).expect("placed");
        let mut cands = arc_candidates(ctx, canvas, hi_room, node, edge, target, wanted);
        let mark = canvas.mark();
        // What the look-ahead searched after each of the placements it
        // tried: the loop below tries the same ones first.
        let mut looked_ahead: Vec<Vec<Option<usize>>> = Vec::new();
        if hi == lo + 1 {
            // The last room but one: placements after which the last room
            // closes the loop door to door come first: the best by the
            // ring, then (rarer, and costlier to find) those leaving it a
            // place touching both ends.
            let (last, target_edge) = if left {
                (hi, ear.edges[hi])
            } else {
                (lo, ear.edges[lo - 1])
            };
            let best = ctx.first_fitting(canvas, &mut cands, DOOR_LOOKAHEAD);
            for c in &best {
                let ni = ctx.commit(canvas, hi_room, node, edge, c);
                let mut searched = Vec::new();
                if !ctx.strands_exits(canvas, ni)
                    && self.close(ctx, canvas, last, Closing::DoorOnly, &mut searched)
                {
                    return true;
                }
                looked_ahead.push(searched);
                canvas.rollback(ctx.shapes, mark);
            }
            let bridged = bridging_placements(
                ctx,
                canvas,
                (hi_room, node, &cands),
                (ear.nodes[last], target, target_edge),
            );
            for c in bridged
                .iter()
                .filter(|c| !best.iter().any(|b| same_placement(c, b)))
            {
                let ni = ctx.commit(canvas, hi_room, node, edge, c);
                if !ctx.strands_exits(canvas, ni)
                    && self.close(ctx, canvas, last, Closing::DoorOnly, &mut Vec::new())
                {
                    return true;
                }
                canvas.rollback(ctx.shapes, mark);
            }
        }
        let mut looked_ahead = looked_ahead.into_iter();
        let mut tried = 0;
        let mut next = 0;
        while let Some(c) = ctx.next_fitting(canvas, &mut cands, &mut next) {
            let ni = ctx.commit(canvas, hi_room, node, edge, &c);
            self.searched = looked_ahead.next().unwrap_or_default();
            let onward = if left {
                (ear.nodes[lo + 1], ear.edges[lo])
            } else {
                (ear.nodes[hi - 1], ear.edges[hi - 1])
            };
            if !ctx.strands_exits(canvas, ni) && ctx.onward_fits(canvas, ni, onward) {
                let (lo2, hi2) = if left { (lo + 1, hi) } else { (lo, hi - 1) };
                if self.grow(ctx, canvas, lo2, hi2, !left) {
                    return true;
                }
                tried += 1;
                self.backtracks += 1;
            }
            canvas.rollback(ctx.shapes, mark);
            if tried >= ARC_BRANCHES || self.backtracks > ARC_BACKTRACKS || ctx.budget == 0 {
                return false;
            }
        }
        if tried == 0 {
            self.stuck = (node, "placed");
        }
        false
    }

    /// Places the ear's last room, `lo`: it joins its arc on one side and
    /// closes the loop on the other. Its templates in `searched` were
    /// searched door to door in vain (see [`close_with`]); those searched
    /// here are added.
    fn close(
        &mut self,
        ctx: &mut Ctx,
        canvas: &mut Canvas,
        lo: usize,
        how: Closing,
        searched: &mut Vec<Option<usize>>,
    ) -> bool {
        let ear = self.ear;
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
            if close_with(
                ctx,
                canvas,
                (node, host, edge),
                (other, other_edge),
                how,
                searched,
            ) {
                return true;
            }
        }
        if how == Closing::Any {
            self.stuck = (node, "closed");
        }
        false
    }
}

/// Ways to place `node` against the placed room `host`, best first: those
/// keeping its distance to the other open end `target` near `wanted`. They
/// are not checked for overlap: the caller checks the few it tries.
fn arc_candidates(
    ctx: &mut Ctx,
    canvas: &Canvas,
    host: usize,
    node: NodeIndex,
    edge: EdgeIndex,
    target: NodeIndex,
    wanted: f64,
) -> Ranked {
    let goal = ctx.centre(canvas.room_of(target).expect("placed"));
    let mut cands = ctx.placements(canvas, host, node, edge);
    for c in &mut cands {
        let d = dist(ctx.candidate_centre(c), goal);
        c.score = -(d - wanted).abs() + ctx.rng.unit() * 4.0;
    }
    Ranked::new(cands)
}

/// Places `node` against `host` and realises its edge to `other`: directly
/// when some placement (in its template or, re-picked, another) makes two
/// exits meet, else by a hall or a corridor unless `how` is door only.
/// `searched` holds the templates (`None`: the connectors) whose placements
/// meeting both ends door to door were looked for, in vain, from the other
/// end: a room meeting both ends is the same placement whichever end it is
/// placed against, so they are not looked for again (and the re-picks draw
/// other templates); the templates searched here are added.
fn close_with(
    ctx: &mut Ctx,
    canvas: &mut Canvas,
    (node, host, edge): (NodeIndex, NodeIndex, EdgeIndex),
    (other, other_edge): (NodeIndex, EdgeIndex),
    how: Closing,
    searched: &mut Vec<Option<usize>>,
) -> bool {
    let hi = canvas.index_of(host).expect("placed");
    let oi = canvas.index_of(other).expect("placed");
    let goal = ctx.centre(&canvas.rooms[oi]);
    // A placement whose free exit meets the other end: two doors, no corridor.
    // Only placements with an exit on a tile in front of one of the other
    // end's usable exits can; they are found without placing anything.
    let fronts = open_fronts(ctx, canvas, oi, other_edge);
    let own = ctx.shape_of[node.index()];
    let spots = if searched.contains(&own) {
        DoorSpots::none()
    } else {
        searched.push(own);
        DoorSpots::new(ctx, &ctx.shape_options(node), &fronts, &canvas.rooms[hi])
    };
    // Every placement when a hall or corridor may follow; else only those
    // that can meet the other end.
    // (None checked for overlap yet: only the few tried are.)
    let mut cands: Vec<Candidate> = match how {
        Closing::Any => ctx.placements(canvas, hi, node, edge),
        Closing::DoorOnly if spots.is_empty() => Vec::new(),
        Closing::DoorOnly => ctx.placements_where(canvas, hi, node, edge, |c| spots.meets(c)),
    };
    for c in &mut cands {
        c.score = -dist(ctx.candidate_centre(c), goal) + ctx.rng.unit() * 2.0;
    }
    let mark = canvas.mark();
    let mut touching: Vec<Candidate> = cands.iter().copied().filter(|c| spots.meets(c)).collect();
    touching.sort_by(|a, b| b.score.total_cmp(&a.score));
    if close_by_door(ctx, canvas, (hi, node, edge), (oi, other_edge), &touching) {
        return true;
    }
    // Another template of the room's kind may span the gap door to door.
    let repicks = if how == Closing::Any {
        TEMPLATE_REPICKS
    } else {
        LOOKAHEAD_REPICKS
    };
    let except: Vec<usize> = searched.iter().flatten().copied().collect();
    let closed = ctx.try_other_templates(node, repicks, &except, |ctx| {
        searched.push(ctx.shape_of[node.index()]);
        let spots = DoorSpots::new(ctx, &ctx.shape_options(node), &fronts, &canvas.rooms[hi]);
        if spots.is_empty() {
            return false;
        }
        let touching = ctx.placements_where(canvas, hi, node, edge, |c| spots.meets(c));
        close_by_door(ctx, canvas, (hi, node, edge), (oi, other_edge), &touching)
    });
    if closed {
        return true;
    }
    if how == Closing::DoorOnly {
        return false;
    }
    let mut cands = Ranked::new(cands);
    let mut tries = 0;
    let mut next = 0;
    while let Some(c) = ctx.next_fitting(canvas, &mut cands, &mut next) {
        let ni = ctx.commit(canvas, hi, node, edge, &c);
        if !ctx.strands_exits(canvas, ni) {
            tries += 1;
            if connect(ctx, canvas, node, other, other_edge, Joint::HallOrCorridor) {
                return true;
            }
        }
        canvas.rollback(ctx.shapes, mark);
        if tries >= CLOSING_TRIES {
            break;
        }
    }
    false
}

/// The tiles in front of the usable exits of placed room `oi` for
/// `edge`, each with the facing and width of an exit that would meet it
/// there.
fn open_fronts(ctx: &Ctx, canvas: &Canvas, oi: usize, edge: EdgeIndex) -> Vec<(Pos, Dir, usize)> {
    let room = &canvas.rooms[oi];
    let shape = &ctx.shapes[room.shape];
    let pending = ctx.pending(canvas, room.node, Some(edge));
    ctx.usable_exits(room, &pending, edge)
        .into_iter()
        .map(|e| front_of(room.pos, &shape.exits[e]))
        .collect()
}

/// The tile in front of exit `x` of a shape standing at `pos`, with the
/// facing and width of an exit that would meet it there.
fn front_of(pos: Pos, x: &ShapeExit) -> (Pos, Dir, usize) {
    let cell = Pos::new(pos.x + x.cells[0].x, pos.y + x.cells[0].y);
    (cell.step(x.dir), x.dir.opposite(), x.cells.len())
}

/// Bridging placements of the last room but one tried after the best two
/// by the ring.
const BRIDGING_TRIES: usize = 3;

/// Placements of the last room looked at by [`bridging_fronts`]: two
/// shapes (a piece and its quarter turn) against a room with doors all
/// along its sides have a hundred or more, and a few dozen find a bridge
/// when there is one.
const BRIDGING_PLACEMENTS: usize = 24;

/// Fronts [`bridging_fronts`] keeps.
const BRIDGING_FRONTS: usize = 384;

/// Up to [`BRIDGING_TRIES`] of `cands` (placements of the last room but
/// one, `node`, against room `host`) that fit and put an exit where the
/// `last` room, door to door with the other end `target` (by
/// `target_edge`) and fitting the canvas, would meet it: after one of
/// them the loop closes door to door unless the two new rooms overlap.
/// Only when the last room is a corridor piece (two exits): it closes a
/// loop only across a gap of exactly its length, which the best placements
/// by the ring rarely leave. (For any last room, the bundled flows closed
/// more loops door to door, but a 1,000-room graph laid out on 2 seeds of
/// 8 instead of 4 within its budget. Looking two or three rooms ahead the
/// same way closed more of Edgar's loops door to door, but took up to
/// twice as long.)
fn bridging_placements(
    ctx: &mut Ctx,
    canvas: &Canvas,
    (host, node, cands): (usize, NodeIndex, &Ranked),
    (last, target, target_edge): (NodeIndex, NodeIndex, EdgeIndex),
) -> Vec<Candidate> {
    let piece = |s: &usize| ctx.shapes[*s].exits.len() == 2;
    if !ctx.shape_options(last).iter().all(piece) {
        return Vec::new();
    }
    let ti = canvas.index_of(target).expect("placed");
    let fronts = open_fronts(ctx, canvas, ti, target_edge);
    if fronts.is_empty() {
        return Vec::new();
    }
    let fronts = bridging_fronts(ctx, canvas, last, &fronts);
    if fronts.is_empty() {
        return Vec::new();
    }
    let spots = DoorSpots::new(ctx, &ctx.shape_options(node), &fronts, &canvas.rooms[host]);
    if spots.is_empty() {
        return Vec::new();
    }
    let mut meeting = cands.filtered(|c| spots.meets(c));
    ctx.first_fitting(canvas, &mut meeting, BRIDGING_TRIES)
}

/// The fronts (as in [`open_fronts`]) of the other exits of room `node`
/// wherever it fits with an exit on one of `fronts`.
fn bridging_fronts(
    ctx: &mut Ctx,
    canvas: &Canvas,
    node: NodeIndex,
    fronts: &[(Pos, Dir, usize)],
) -> Vec<(Pos, Dir, usize)> {
    let shapes = ctx.shapes;
    // Every placement with an exit on a front; a sample of them when there
    // are many (the first ones would all lie on one side).
    let mut placements: Vec<(usize, usize, Pos)> = Vec::new();
    for s in ctx.shape_options(node) {
        let meeting = meeting_fronts(&shapes[s], fronts.iter().copied());
        placements.extend(meeting.map(|(j, pos)| (s, j, pos)));
    }
    if placements.len() > BRIDGING_PLACEMENTS {
        ctx.rng.shuffle(&mut placements);
        placements.truncate(BRIDGING_PLACEMENTS);
    }
    ctx.budget = ctx.budget.saturating_sub(placements.len() as u64);
    let mut out = Vec::new();
    for (s, j, pos) in placements {
        let shape = &shapes[s];
        if out.len() >= BRIDGING_FRONTS || !canvas.fits(shape, pos) {
            continue;
        }
        for (k, y) in shape.exits.iter().enumerate() {
            if k != j {
                out.push(front_of(pos, y));
            }
        }
    }
    out.sort_unstable();
    out.dedup();
    out
}

/// Where `shape` stands with an exit on one of `fronts` (the tile, and the
/// facing and width of an exit that meets it there): that exit and the
/// shape's position, front by front.
fn meeting_fronts<'a>(
    shape: &'a Shape,
    fronts: impl Iterator<Item = (Pos, Dir, usize)> + 'a,
) -> impl Iterator<Item = (usize, Pos)> + 'a {
    fronts.flat_map(move |(front, dir, width)| {
        shape
            .exits
            .iter()
            .enumerate()
            .filter(move |(_, x)| x.dir == dir && x.cells.len() == width)
            .map(move |(j, x)| (j, Pos::new(front.x - x.cells[0].x, front.y - x.cells[0].y)))
    })
}

/// Whether two candidates are the same placement.
fn same_placement(a: &Candidate, b: &Candidate) -> bool {
    (a.shape, a.pos, a.exit, a.host_exit) == (b.shape, b.pos, b.exit, b.host_exit)
}

/// Where rooms of some shapes would stand with an exit on one of the tiles
/// in front of the other end's usable exits (`fronts`: the tile, and the
/// facing and width of an exit that meets it there), so a candidate is
/// checked with one lookup. Only placements against `host` are looked
/// for: a front farther from it than a shape spans is out of that shape's
/// reach, and when every front is, there are none.
struct DoorSpots(FxHashMap<(usize, Pos), (usize, bool)>);

impl DoorSpots {
    fn new(ctx: &Ctx, shapes: &[usize], fronts: &[(Pos, Dir, usize)], host: &PlacedRoom) -> Self {
        let mut spots: FxHashMap<(usize, Pos), (usize, bool)> =
            FxHashMap::with_capacity_and_hasher(fronts.len() * 4, Default::default());
        let hs = &ctx.shapes[host.shape];
        for &s in shapes {
            let shape = &ctx.shapes[s];
            // A placement covers a tile in front of the host (one beside
            // its art) and the front it meets.
            let within = |f: Pos| {
                f.x >= host.pos.x - shape.width
                    && f.x < host.pos.x + hs.width + shape.width
                    && f.y >= host.pos.y - shape.height
                    && f.y < host.pos.y + hs.height + shape.height
            };
            let near = fronts.iter().copied().filter(|f| within(f.0));
            for (j, pos) in meeting_fronts(shape, near) {
                spots
                    .entry((s, pos))
                    .and_modify(|e| e.1 |= e.0 != j)
                    .or_insert((j, false));
            }
        }
        DoorSpots(spots)
    }

    /// No spots at all.
    fn none() -> Self {
        DoorSpots(FxHashMap::default())
    }

    /// Whether no placement can meet a front.
    fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Whether `c` puts an exit other than the one joining its host on a
    /// front.
    fn meets(&self, c: &Candidate) -> bool {
        self.0
            .get(&(c.shape, c.pos))
            .is_some_and(|&(j, several)| several || j != c.exit)
    }
}

/// Tries `touching` placements of `node` against room `hi` (by `edge`),
/// skipping those that overlap, until one meets room `oi` exit to exit,
/// and realises `other_edge` there as a door.
fn close_by_door(
    ctx: &mut Ctx,
    canvas: &mut Canvas,
    (hi, node, edge): (usize, NodeIndex, EdgeIndex),
    (oi, other_edge): (usize, EdgeIndex),
    touching: &[Candidate],
) -> bool {
    let mark = canvas.mark();
    for c in touching {
        if !ctx.fits(canvas, c) {
            continue;
        }
        let ni = ctx.commit(canvas, hi, node, edge, c);
        if let Some((en, eo)) = direct_pair(ctx, canvas, ni, oi, other_edge) {
            link_direct(ctx, canvas, ni, en, oi, eo, other_edge);
            return true;
        }
        canvas.rollback(ctx.shapes, mark);
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::{CompositeKind, decompose};
    use crate::layout::fixture::Fixture;
    use crate::rng::Rng;

    /// A host open to the east, and two templates for the rooms of a loop:
    /// `wide` (6 tiles) and `narrow` (4), each with a door on every side,
    /// the west one on the host's door row.
    const LOOP_ROOMS: &str = "rooms:\n  - name: host\n    category: entrance\n    art: |\n      #####\n      #...#\n      #...A\n      #...#\n      #####\n  - name: wide\n    category: normal\n    art: |\n      ##B###\n      #....#\n      A....C\n      #....#\n      ##D###\n  - name: narrow\n    category: normal\n    art: |\n      #B##\n      #..#\n      A..C\n      #..#\n      #D##\n";

    /// The host joined to a loop of three rooms.
    const LOOP_FLOW: &str = "name: ring\nlayout: { reuse_templates: true }\nnodes:\n  h: entrance\n  g: normal\n  a: normal\n  b: normal\nedges:\n  - h -> g\n  - g -> a\n  - a -> b\nloops:\n  - b <-> g\n";

    #[test]
    fn a_loop_grown_in_place_gives_its_anchor_a_template_that_fits() {
        let fx = Fixture::with(LOOP_ROOMS, LOOP_FLOW);
        let mut ctx = fx.ctx();
        let join = fx.link();
        let (wide, narrow) = (fx.template("wide"), fx.template("narrow"));
        ctx.shape_of[join.anchor.index()] = Some(wide);
        let d = decompose(&fx.level);
        let comp = d
            .composites
            .iter()
            .find(|c| matches!(c.kind, CompositeKind::Loop(_)))
            .expect("a loop composite");
        // The host, and a corridor wall 4 tiles past the tile in front of
        // its door, along the door's rows only: the wide room cannot stand
        // there, the narrow one can, and the rest of the loop has room.
        let mut map = Canvas::default();
        map.add_room(ctx.shapes, join.host, fx.shape(join.host), Pos::new(0, 0));
        let wall: Vec<Pos> = (0..=4).map(|y| Pos::new(9, y)).collect();
        map.add_corridor(&wall);
        assert!(grow_on(&mut ctx, &mut map, comp, join));
        assert_eq!(map.room_of(join.anchor).expect("placed").shape, narrow);
        let door = map
            .links
            .iter()
            .find(|l| l.edge == join.edge)
            .expect("link");
        assert_eq!(door.kind, crate::layout::LinkKind::Door);
        for n in [&comp.nodes[..], &[join.host]].concat() {
            assert!(map.room_of(n).is_some(), "every room of the loop is placed");
        }
    }

    #[test]
    fn a_closing_room_takes_another_template_to_meet_both_ends_door_to_door() {
        let fx = Fixture::with(LOOP_ROOMS, LOOP_FLOW);
        let mut ctx = fx.ctx();
        let node = |id: &str| fx.level.find(id).expect(id);
        let (g, a, b) = (node("g"), node("a"), node("b"));
        let (wide, narrow) = (fx.template("wide"), fx.template("narrow"));
        for n in [g, a, b] {
            ctx.shape_of[n.index()] = Some(wide);
        }
        // `g` and `b` side by side with a 4-tile gap between their facing
        // doors' rows: `a`, the ear's last room, closes the loop door to
        // door only as the 4-wide `narrow`, not as its own 6-wide `wide`.
        let mut canvas = Canvas::default();
        canvas.add_room(ctx.shapes, g, wide, Pos::new(0, 0));
        canvas.add_room(ctx.shapes, b, wide, Pos::new(10, 0));
        let edge = |x, y| fx.level.graph.find_edge(x, y).expect("edge");
        assert!(close_with(
            &mut ctx,
            &mut canvas,
            (a, g, edge(g, a)),
            (b, edge(a, b)),
            Closing::Any,
            &mut Vec::new()
        ));
        assert_eq!(canvas.room_of(a).expect("placed").shape, narrow);
        for e in [edge(g, a), edge(a, b)] {
            let link = canvas.links.iter().find(|l| l.edge == e).expect("link");
            assert_eq!(link.kind, crate::layout::LinkKind::Door);
        }
    }

    /// A hub with doors east and south; `square`, a door on every side;
    /// `bar`, 10 tiles wide with two doors north, 5 tiles apart.
    const LOOKAHEAD_ROOMS: &str = "rooms:\n  - name: hub\n    category: entrance\n    art: |\n      #####\n      #...#\n      #...A\n      #...#\n      ##B##\n  - name: square\n    category: normal\n    art: |\n      ##B##\n      #...#\n      A...C\n      #...#\n      ##D##\n  - name: bar\n    category: normal\n    art: |\n      ##A####B##\n      #........#\n      #........#\n      #........#\n      ##########\n";

    /// A loop of three rooms: the hub `g`, then `a` and `b`.
    const LOOKAHEAD_FLOW: &str = "name: triangle\nlayout: { reuse_templates: true }\nnodes:\n  g: entrance\n  a: normal\n  b: normal\nedges:\n  - g -> a\n  - a -> b\nloops:\n  - b <-> g\n";

    #[test]
    fn the_last_room_but_one_is_placed_where_the_last_closes_door_to_door() {
        let fx = Fixture::with(LOOKAHEAD_ROOMS, LOOKAHEAD_FLOW);
        let node = |id: &str| fx.level.find(id).expect(id);
        let (g, a, b) = (node("g"), node("a"), node("b"));
        let edge = |x, y| fx.level.graph.find_edge(x, y).expect("edge");
        let ear = Ear {
            nodes: vec![g, a, b, g],
            edges: vec![edge(g, a), edge(a, b), edge(b, g)],
        };
        // `a` (a square) fits against the hub's east door and against its
        // south door, both free of overlap, and seeds rank either first.
        // Only east of the hub does it leave a place where `b` (the bar)
        // meets both with doors: below the two, its doors under the hub's
        // south door and `a`'s. South of the hub, `b` has no such place
        // (nor as a square) and the loop closes with a hall or a corridor.
        for seed in 0..24 {
            let mut ctx = fx.ctx();
            ctx.rng = Rng::new(seed);
            ctx.shape_of[g.index()] = Some(fx.template("hub"));
            ctx.shape_of[a.index()] = Some(fx.template("square"));
            ctx.shape_of[b.index()] = Some(fx.template("bar"));
            let mut canvas = Canvas::default();
            canvas.add_room(ctx.shapes, g, fx.template("hub"), Pos::new(0, 0));
            assert!(grow_ear(&mut ctx, &mut canvas, &ear).is_ok(), "seed {seed}");
            assert_eq!(
                canvas.room_of(a).expect("placed").pos,
                Pos::new(5, 0),
                "seed {seed}: `a` east of the hub"
            );
            assert_eq!(canvas.room_of(b).expect("placed").pos, Pos::new(0, 5));
            for e in &ear.edges {
                let link = canvas.links.iter().find(|l| l.edge == *e).expect("link");
                assert_eq!(link.kind, crate::layout::LinkKind::Door, "seed {seed}");
            }
        }
    }

    /// A tall hub (east and south doors), a room with west and south
    /// doors, a corridor piece with north and south doors, and a wide room
    /// with eight doors on its north side.
    const BRIDGING_ROOMS: &str = "rooms:\n  - name: hub\n    category: entrance\n    art: |\n      #####\n      #...#\n      #...A\n      #...#\n      #...#\n      #...#\n      #...#\n      ##B##\n  - name: corner\n    category: normal\n    art: |\n      #####\n      #...#\n      A...#\n      #...#\n      ##B##\n  - name: piece\n    category: normal\n    art: |\n      #A#\n      #.#\n      #B#\n  - name: wide\n    category: normal\n    art: |\n      #ABCDEFGH#\n      #........#\n      #........#\n      #........#\n      ##########\n";

    /// A loop of four: the hub `g`, `a`, the corridor piece `p`, `b`.
    const BRIDGING_FLOW: &str = "name: square\nlayout: { reuse_templates: true }\nnodes:\n  g: entrance\n  a: normal\n  p: normal\n  b: normal\nedges:\n  - g -> a\n  - a -> p\n  - p -> b\nloops:\n  - b <-> g\n";

    /// The fixture of [`BRIDGING_ROOMS`] with the hub placed and every
    /// room given its template, and the loop's ear.
    fn bridging_fixture() -> (Fixture, Ear) {
        let fx = Fixture::with(BRIDGING_ROOMS, BRIDGING_FLOW);
        let node = |id: &str| fx.level.find(id).expect(id);
        let (g, a, p, b) = (node("g"), node("a"), node("p"), node("b"));
        let edge = |x, y| fx.level.graph.find_edge(x, y).expect("edge");
        let ear = Ear {
            nodes: vec![g, a, p, b, g],
            edges: vec![edge(g, a), edge(a, p), edge(p, b), edge(b, g)],
        };
        (fx, ear)
    }

    fn bridging_ctx<'f>(fx: &'f Fixture, ear: &Ear, seed: u64) -> (Ctx<'f>, Canvas) {
        let mut ctx = fx.ctx();
        ctx.rng = Rng::new(seed);
        for (n, t) in ear.nodes[..4]
            .iter()
            .zip(["hub", "corner", "piece", "wide"])
        {
            ctx.shape_of[n.index()] = Some(fx.template(t));
        }
        let mut canvas = Canvas::default();
        canvas.add_room(ctx.shapes, ear.nodes[0], fx.template("hub"), Pos::new(0, 0));
        (ctx, canvas)
    }

    #[test]
    fn a_corridor_piece_closes_its_loop_door_to_door_between_two_rooms() {
        let (fx, ear) = bridging_fixture();
        let (a, p, b) = (ear.nodes[1], ear.nodes[2], ear.nodes[3]);
        // `a` can only sit east of the hub, and the piece only below `a`,
        // its south door at (7, 8). `b` takes the hub's south door by any
        // of its eight: only by its second, third or fourth does another
        // lie under the piece (at x = 7), and the best two by the ring
        // that the look-ahead tries miss them on some seeds.
        for seed in 0..32 {
            let (mut ctx, mut canvas) = bridging_ctx(&fx, &ear, seed);
            assert!(grow_ear(&mut ctx, &mut canvas, &ear).is_ok(), "seed {seed}");
            assert_eq!(canvas.room_of(a).expect("placed").pos, Pos::new(5, 0));
            assert_eq!(canvas.room_of(p).expect("placed").pos, Pos::new(6, 5));
            let bx = canvas.room_of(b).expect("placed").pos;
            assert!((-1..=1).contains(&bx.x) && bx.y == 8, "seed {seed}: {bx:?}");
            for e in &ear.edges {
                let link = canvas.links.iter().find(|l| l.edge == *e).expect("link");
                assert_eq!(link.kind, crate::layout::LinkKind::Door, "seed {seed}");
            }
        }
    }

    #[test]
    fn a_corridor_piece_facing_a_wall_leads_nowhere() {
        let (fx, ear) = bridging_fixture();
        let (a, p, b) = (ear.nodes[1], ear.nodes[2], ear.nodes[3]);
        let (mut ctx, mut canvas) = bridging_ctx(&fx, &ear, 0);
        canvas.add_room(ctx.shapes, a, fx.template("corner"), Pos::new(5, 0));
        let pi = canvas.add_room(ctx.shapes, p, fx.template("piece"), Pos::new(6, 5));
        let pb = ear.edges[2];
        assert!(ctx.onward_fits(&canvas, pi, (b, pb)));
        // A corridor across the ground below the piece: `b` no longer fits
        // against its free door.
        canvas.add_corridor(&(-12..=20).map(|x| Pos::new(x, 9)).collect::<Vec<_>>());
        assert!(!ctx.onward_fits(&canvas, pi, (b, pb)));
        // A room with more exits is never checked, walled in or not.
        let mut walled = Canvas::default();
        let bi = walled.add_room(ctx.shapes, b, fx.template("wide"), Pos::new(0, 20));
        walled.add_corridor(&(-12..=20).map(|x| Pos::new(x, 19)).collect::<Vec<_>>());
        assert!(ctx.onward_fits(&walled, bi, (p, pb)));
    }

    #[test]
    fn door_spots_hold_only_fronts_a_room_against_the_host_can_cover() {
        let fx = Fixture::with(LOOP_ROOMS, LOOP_FLOW);
        let ctx = fx.ctx();
        let g = fx.level.find("g").expect("g");
        let (wide, narrow) = (fx.template("wide"), fx.template("narrow"));
        let mut canvas = Canvas::default();
        canvas.add_room(ctx.shapes, g, wide, Pos::new(0, 0));
        let host = &canvas.rooms[0];
        // The tile in front of a west door (facing east to be met) of a
        // room standing `x` tiles east of the host, on the host's door row.
        let front = |x: i32| [(Pos::new(x - 1, 2), Dir::East, 1)];
        // A room 6 tiles wide against the host's east door spans x = 6..=11:
        // a front at x = 9 is within reach, one at x = 29 is not.
        let near = DoorSpots::new(&ctx, &[narrow, wide], &front(10), host);
        assert!(!near.is_empty());
        let far = DoorSpots::new(&ctx, &[narrow, wide], &front(30), host);
        assert!(far.is_empty());
        // The narrow room (west door at (0, 2), east door at (3, 2)) placed
        // with its west door on the host's east front meets x = 9 with its
        // east door.
        let c = Candidate {
            shape: narrow,
            pos: Pos::new(6, 0),
            host_exit: 0,
            exit: 0,
            score: 0.0,
        };
        assert_eq!(ctx.shapes[narrow].exits[0].dir, Dir::West);
        assert!(near.meets(&c), "the east door meets the front");
    }

    #[test]
    fn a_composite_admits_its_host_only_when_the_anchor_is_not_walled_in() {
        let fx = Fixture::new();
        let mut ctx = fx.ctx();
        let join = fx.link();
        let g = join.anchor;
        // The composite: the guest alone, its door to the west at (0, 2).
        let mut canvas = Canvas::default();
        canvas.add_room(ctx.shapes, g, fx.shape(g), Pos::new(0, 0));
        assert!(admits(&mut ctx, &canvas, None), "no link, nothing to admit");
        assert!(admits(&mut ctx, &canvas, Some(join)));
        // A corridor tile where the host would stand in front of that door.
        canvas.add_corridor(&[Pos::new(-3, 2)]);
        assert!(!admits(&mut ctx, &canvas, Some(join)));
    }
}
