//! Trees laid out on a plan. A tree whose rooms multiply with depth (a
//! binary tree doubles its rooms at every step) walls in its own inner
//! rooms when each room takes the nearest free place: the rooms at depth
//! `d` need an area that grows like their count, not like `d`. So each
//! room first gets a target: the rooms at depth `d` lie on a ring whose
//! radius grows with the square root of the rooms inside it (so every ring
//! has the area its rooms need) and no more than a corridor's reach from
//! the ring inside it (inner rings are pushed outward so that the outer
//! ones, where a bushy tree's rooms are, get their area), each subtree
//! keeps a sector of angles in proportion to the arc its rooms need on
//! the rings (so subtrees never compete for ground). The rooms are then
//! placed depth by depth. The rings give directions more than places: each
//! room aims from where its parent landed towards a target beyond its ring,
//! so it goes as far out as a corridor within the flow's bound reaches;
//! the rooms of small subtrees (twigs) take a door of their parent first
//! (the one nearest that aim), leaving the ground farther out to the large
//! subtrees.

use std::collections::VecDeque;
use std::f64::consts::TAU;

use petgraph::graph::{EdgeIndex, NodeIndex};

use super::assemble::{Limits, Reach, attach_by_corridor, link_ends, try_corridor_trials};
use super::canvas::{Canvas, Mark};
use super::context::{Ctx, Join, exit_cell};
use super::corridor::{self, Joint};
use super::failure::Failure;
use super::ranked::Ranked;
use super::tree::place_root;
use super::trials::Trial;
use crate::geom::Pos;
use crate::graph::Decomposition;

/// Where a room of the plan goes: its parent (with the edge to it) and the
/// point its centre aims at, relative to the root's centre.
#[derive(Clone, Copy, Debug)]
pub(super) struct Target {
    pub(super) parent: Option<(NodeIndex, EdgeIndex)>,
    pub(super) at: (f64, f64),
}

/// A planned tree: its rooms in the order they are placed (root first,
/// then depth by depth, each ring by angle), with their targets and the
/// side of the square of ground each room needs ([`room_side`]).
pub(super) struct Plan {
    pub(super) order: Vec<NodeIndex>,
    pub(super) targets: Vec<Option<Target>>,
    pub(super) side: f64,
    /// The stage a failure names.
    pub(super) stage: &'static str,
    /// Door placements within this many room sides of the target are
    /// taken without looking for a corridor nearer.
    pub(super) door_near: f64,
    /// Rooms (by index) that take any door that fits before a corridor,
    /// wherever it leaves them (empty: none).
    pub(super) doors_first: Vec<bool>,
    /// Whether a room aims where the rooms it links to that are already
    /// placed put it ([`aim_from_neighbours`]); else it aims at its target
    /// or, when its parent landed more than a corridor from that, at its
    /// planned offset from its parent. Either way the aim is then drawn in
    /// to a corridor's reach of where its parent landed ([`within_reach`]).
    /// A drawing's rooms land off their points, and its spreading may leave
    /// a link too long; a tree's plan keeps its rings a corridor apart and
    /// spreads children across wide sectors on purpose (aiming from
    /// neighbours took a 300-room tree from 67 to 221 ms, 0.88 to 0.81
    /// direct doors).
    pub(super) aims_from_neighbours: bool,
    /// Free tiles a placed room keeps ahead of as many of its exits as it
    /// has links still to make ([`Ctx::map_open_depth`]).
    pub(super) open_depth: i32,
    /// Jumps back of one placement of the plan, per room (plus
    /// [`MIN_JUMPS`]).
    pub(super) jumps_per_room: usize,
    /// Most tiles, along each axis, a room's centre is placed from where it
    /// aims when it goes a corridor away from its parent.
    pub(super) corridor_search: i32,
}

/// Extra side of a room's square of ground beyond its template's mean
/// side: the ground between rooms where corridors run.
const GAP: f64 = 10.0;

/// [`Plan::corridor_search`] of a drawing's plan, whose rooms must land
/// where their loops can close.
pub(super) const CORRIDOR_SEARCH: i32 = 6;

/// [`Plan::corridor_search`] of a tree's plan. A tree's room that aims as
/// far as a corridor reaches ([`AIM_BEYOND`]) often finds the ground just
/// there taken; a corridor to a place a few tiles off still keeps it out
/// of its neighbours' way. See [`AIM_BEYOND`] for the measurements.
const TREE_CORRIDOR_SEARCH: i32 = 10;

/// How far beyond its ring a tree's room aims: its target is this many
/// times its planned offset from the root, so that it goes from where its
/// parent landed, in the direction the plan gives, as far as a corridor
/// reaches ([`within_reach`]). Aiming at the ring itself, a room that
/// landed short of its ring aimed its children short as well: rooms fell
/// inward ring after ring and walled each other in, while the middle of
/// the map stayed empty. With [`TWIG_ROOMS`] and
/// [`TREE_CORRIDOR_SEARCH`], on trees whose rooms attach anywhere (graphs
/// 12,000..12,009 of the families, seeds 0 and 1): `uniform-tree(1000)`
/// laid out 16 of 20 levels instead of 0. With twigs aiming at their
/// parent (a first version): 10 of 20; aiming at 1.5 or 3 times gave 7
/// and 10; a corridor's reach of 0.9 corridors instead of [`AIM_REACH`]
/// 1.2 gave none, 1.4 gave 2.
const AIM_BEYOND: f64 = 2.0;

/// Rooms a tree's subtree may hold for its rooms to take any door that
/// fits before a corridor ([`Plan::doors_first`]; the door nearest their
/// aim): a small subtree needs no ground of its own farther out, and close
/// to its parent it leaves the outer ground to the large subtrees. On
/// `uniform-tree(1000)` (above) subtrees of up to 3, 5 and 8 rooms laid
/// out 16 of 20 levels each; with every room taking doors first, none. Twigs
/// aiming at their parent instead of beyond their ring laid out 10, 10
/// and 5 (4, 5, 8 rooms).
const TWIG_ROOMS: usize = 5;

/// A tree's door placements within this many room sides of the target are
/// taken without looking for a corridor ([`Plan::door_near`]).
const DOOR_NEAR: f64 = 0.75;

/// [`DOOR_NEAR`] of a plan whose rings have room to spare (less than
/// [`CROWDED`]): a door that lands off its target leaves its ring ground
/// enough, and a corridor there only spreads the level. On 80 trees whose
/// rooms attach to any earlier room (never tuned on; 10 seeds each, all
/// laid out before and after), direct doors went from 0.62 to 0.77 at 100
/// rooms and from 0.75 to 0.88 at 50, corridor tiles from 856 to 410 and
/// 317 to 124, median time from 41 to 60 ms and 17 to 18 ms. Taken for
/// every plan, a complete binary tree of 255 rooms laid out on none of 5
/// seeds.
const ROOMY_DOOR_NEAR: f64 = 1.5;

/// The [`ring_crowding`] from which a plan's rings count as crowded: complete
/// binary trees of 127 to 511 rooms have 0.97 to 2.06, trees whose rooms
/// attach anywhere 0.42 to 0.61, recent rooms' trees of 1,000 rooms 0.28.
const CROWDED: f64 = 0.8;

/// Placements by corridor that fit which are routed before giving up.
const CORRIDOR_FITS: usize = 8;

/// Corridor trials looked at per room.
const CORRIDOR_LOOKS: usize = 3000;

/// Rooms undone by a jump back, per failure of the room that jumps.
const JUMP: usize = 4;
/// Failures of a room, jumping back no further than its parent, after
/// which its parent is placed again elsewhere.
const ESCALATE_AFTER: usize = 2;
/// Times a room is placed again for walling in a child before the blame
/// passes to its parent.
const CLIMB_AFTER: usize = 3;
/// Places a room placed again avoids: the last few that walled in a
/// child of it.
const MOST_AVOIDED: usize = 4;
/// Jumps back of one plan: [`Plan::jumps_per_room`] per room, plus this
/// many.
const MIN_JUMPS: usize = 8;

/// Free tiles a room of a tree's plan keeps ahead of as many exits as it
/// has children still to place: a bundled room's mean side (about 9) and
/// the shortest corridor, so that a child fits there, where the map's
/// usual band ([`OPEN_DEPTH`](super::context::OPEN_DEPTH), 4 tiles) only
/// keeps a corridor's way open. In a bushy tree the rooms of a ring landed
/// against the exits their neighbours' children needed, walling them in.
/// On five bushy trees of 1,000 rooms (3 seeds each, with the other two
/// changes of [`within_reach`]), 10 tiles laid out 7 of 15 levels, 13
/// tiles 10, 16 tiles 5.
pub(super) const TREE_OPEN_DEPTH: i32 = 13;

/// [`Plan::jumps_per_room`] of a tree's plan. A tree is planned once per
/// attempt (a drawing is planned again, and placed more than once), and
/// the failures of a bushy tree's placement are local: a room walled in
/// by its ring neighbours, freed by undoing a few of them.
const TREE_JUMPS_PER_ROOM: usize = 3;

/// Most a ring's radius grows from the one inside it, in corridors of the
/// flow's longest: a room's children stay within a corridor's reach.
const RING_STEP: f64 = 0.9;

/// Most tiles a ring's radius grows from the one inside it, however long
/// the flow's corridors: [`RING_STEP`] of the default longest corridor
/// (30 tiles). Rings are pushed outward from the deepest one, at most a
/// step apart, which spreads a bushy tree's middle rings; with a longer
/// step the push stops short, the middle rings keep the radii their area
/// gives (their rooms crowded on a line) and their rooms wall in their
/// children. Without this cap, a complete binary tree of 511 rooms laid
/// out on every seed with corridors of `4..30` and on none of 6 with
/// `4..90` (1 of 4 with `4..48`); with it, 6 of 6 (and 4 of 4 with
/// `4..48`), and 255 rooms with `4..60` took 112 ms instead of 295.
const MOST_RING_STEP: f64 = 27.0;

/// Best door placements that fit which are tried.
const DOOR_TRIES: usize = 6;

/// Farthest a room aims from its placed parent, in corridors of the
/// flow's longest, beyond the two rooms' mean half sides (along both axes
/// together): see [`within_reach`].
const AIM_REACH: f64 = 1.2;

/// Most times the rooms of one plan of more than [`PLACE_AGAIN_ABOVE`]
/// rooms are placed, each on a new canvas with the attempt's random
/// choices going on, while the placements have cost less than the plan's
/// drawing ([`Ctx::drawing_work`]; a forest's plan costs nothing to
/// make). A drawing of 100 rooms costs about five placements, of 300 rooms
/// about ten; where one placement walls a room in, the next often does
/// not.
const MAX_PLACEMENTS: usize = 5;

/// Rooms a plan must have to be placed more than once: up to 60 rooms a
/// drawing costs about as much as a placement, and a level does better
/// drawing again (on the families (30,5) to (60,5), placing again laid
/// out 892 of 900 levels instead of 896).
const PLACE_AGAIN_ABOVE: usize = 60;

/// Lays out a level whose physical edges form a forest (no loop
/// composite) on a plan: each tree around its centre room, the trees
/// side by side.
pub fn layout_forest(ctx: &mut Ctx, d: &Decomposition) -> Result<Canvas, Failure> {
    lay_out_parts(ctx, d, plan)
}

/// Lays out every connected part of the level on the plan `plan_of` makes
/// of the part holding a room, the parts side by side.
pub(super) fn lay_out_parts(
    ctx: &mut Ctx,
    d: &Decomposition,
    mut plan_of: impl FnMut(&mut Ctx, NodeIndex) -> Plan,
) -> Result<Canvas, Failure> {
    ctx.on_map = true;
    let n = ctx.level.graph.node_count();
    let mut done = vec![false; n];
    let mut map: Option<Canvas> = None;
    for start in ctx.level.graph.node_indices() {
        if done[start.index()] {
            continue;
        }
        let drawn_before = ctx.drawing_work;
        let plan = plan_of(ctx, start);
        let drawing = ctx.drawing_work - drawn_before;
        for &v in &plan.order {
            done[v.index()] = true;
        }
        let budget_before = ctx.budget;
        let mut island = place(ctx, d, &plan);
        let mut placements = 1;
        while island.is_err() && place_again(ctx, &plan, placements, budget_before, drawing) {
            island = place(ctx, d, &plan);
            placements += 1;
        }
        let island = island?;
        map = Some(match map {
            None => island,
            Some(mut m) => {
                super::place_island(ctx, &mut m, &island);
                m
            }
        });
    }
    Ok(map.unwrap_or_default())
}

/// Whether `plan`, placed `placements` times without success, is placed
/// again: a plan of more than [`PLACE_AGAIN_ABOVE`] rooms, at most
/// [`MAX_PLACEMENTS`] times, while its placements (the attempt's budget
/// was `budget_before` at the first) have cost less than its `drawing`,
/// and they and the attempt's drawings less than what was left of the
/// level's work when the attempt began (the placements of a level's
/// other connected parts are not counted). The rooms land elsewhere each
/// time (other templates, doors and corridors).
fn place_again(
    ctx: &Ctx,
    plan: &Plan,
    placements: usize,
    budget_before: u64,
    drawing: u64,
) -> bool {
    let placing = budget_before - ctx.budget;
    plan.order.len() > PLACE_AGAIN_ABOVE
        && placements < MAX_PLACEMENTS
        && ctx.budget > 0
        && placing < drawing
        && placing + ctx.drawing_work < ctx.work_left
}

pub(super) fn neighbours<'a>(
    ctx: &'a Ctx,
    v: NodeIndex,
) -> impl Iterator<Item = (NodeIndex, EdgeIndex)> + 'a {
    ctx.edges_of(v).iter().map(move |&e| {
        let (a, b) = ctx.level.graph.edge_endpoints(e).expect("edge");
        (if a == v { b } else { a }, e)
    })
}

/// Breadth-first from `root`: each room once, with its parent, in order.
/// A room reached over two links of the same pair of rooms (a loop edge
/// repeating a tree edge) takes the first of them in the shuffled order.
pub(super) fn bfs(
    ctx: &mut Ctx,
    root: NodeIndex,
) -> Vec<(NodeIndex, Option<(NodeIndex, EdgeIndex)>)> {
    let mut seen = vec![false; ctx.level.graph.node_count()];
    seen[root.index()] = true;
    let mut out = vec![(root, None)];
    let mut queue = VecDeque::from([root]);
    while let Some(v) = queue.pop_front() {
        let mut kids: Vec<(NodeIndex, EdgeIndex)> = neighbours(ctx, v)
            .filter(|(w, _)| !seen[w.index()])
            .collect();
        ctx.rng.shuffle(&mut kids);
        for (w, e) in kids {
            if std::mem::replace(&mut seen[w.index()], true) {
                continue;
            }
            out.push((w, Some((v, e))));
            queue.push_back(w);
        }
    }
    out
}

/// The centre of the tree holding `start`: the middle of a longest path.
fn centre(ctx: &mut Ctx, start: NodeIndex) -> NodeIndex {
    let far = bfs(ctx, start).last().expect("a room").0;
    let walk = bfs(ctx, far);
    let end = walk.last().expect("a room").0;
    let parent: std::collections::HashMap<NodeIndex, NodeIndex> = walk
        .iter()
        .filter_map(|&(v, p)| p.map(|(p, _)| (v, p)))
        .collect();
    let mut path = vec![end];
    while let Some(&p) = parent.get(path.last().expect("a room")) {
        path.push(p);
    }
    path[path.len() / 2]
}

/// The plan of the tree holding `start` (see the module documentation).
fn plan(ctx: &mut Ctx, start: NodeIndex) -> Plan {
    let root = centre(ctx, start);
    let walk = bfs(ctx, root);
    let n = ctx.level.graph.node_count();
    let mut depth = vec![0usize; n];
    for &(v, p) in &walk {
        if let Some((p, _)) = p {
            depth[v.index()] = depth[p.index()] + 1;
        }
    }
    // Rooms per depth, and the radius of each ring.
    let deepest = walk
        .iter()
        .map(|(v, _)| depth[v.index()])
        .max()
        .unwrap_or(0);
    let mut count = vec![0usize; deepest + 1];
    for (v, _) in &walk {
        count[depth[v.index()]] += 1;
    }
    let rooms: Vec<NodeIndex> = walk.iter().map(|&(v, _)| v).collect();
    let side = room_side(ctx, &rooms);
    let step = (f64::from(ctx.params.corridor.1) * RING_STEP).min(MOST_RING_STEP);
    let radius = ring_radii(&count, side, step);
    let door_near = if ring_crowding(&count, &radius, side - GAP) < CROWDED {
        ROOMY_DOOR_NEAR
    } else {
        DOOR_NEAR
    };
    // Sectors: a room's sector split among its children by the angles
    // their subtrees need.
    let (need, children_need) = angles_needed(ctx, &walk, &depth, &radius);
    let mut sector = vec![(0.0f64, TAU); n];
    sector[root.index()] = (ctx.rng.unit() * TAU, TAU);
    let mut used = vec![0.0f64; n];
    let mut targets = vec![None; n];
    for &(v, p) in &walk {
        if let Some((p, _)) = p {
            let (a, w) = sector[p.index()];
            let share = w * need[v.index()] / children_need[p.index()];
            sector[v.index()] = (a + used[p.index()], share);
            used[p.index()] += share;
        }
        let (a, w) = sector[v.index()];
        let (angle, r) = (a + w / 2.0, radius[depth[v.index()]]);
        targets[v.index()] = Some(Target {
            parent: p,
            at: (r * angle.cos(), r * angle.sin()),
        });
    }
    // Every target lies beyond its ring.
    for t in targets.iter_mut().flatten() {
        t.at = (t.at.0 * AIM_BEYOND, t.at.1 * AIM_BEYOND);
    }
    let angle = |v: NodeIndex| {
        let (a, w) = sector[v.index()];
        a + w / 2.0
    };
    let mut order = rooms;
    order.sort_by(|&a, &b| {
        (depth[a.index()], angle(a))
            .partial_cmp(&(depth[b.index()], angle(b)))
            .expect("finite angles")
    });
    Plan {
        order,
        targets,
        side,
        stage: "tree",
        door_near,
        doors_first: twigs(&walk, n),
        aims_from_neighbours: false,
        open_depth: TREE_OPEN_DEPTH,
        jumps_per_room: TREE_JUMPS_PER_ROOM,
        corridor_search: TREE_CORRIDOR_SEARCH,
    }
}

/// Which rooms of `walk` (breadth first from the plan's root, each with
/// the room and link that reached it; `n` rooms in the level) lie in a
/// twig: a subtree of at most [`TWIG_ROOMS`] rooms below the root.
fn twigs(walk: &[(NodeIndex, Option<(NodeIndex, EdgeIndex)>)], n: usize) -> Vec<bool> {
    let mut size = vec![1usize; n];
    // Deepest first: a room's children are summed before it is reached.
    for &(v, parent) in walk.iter().rev() {
        if let Some((p, _)) = parent {
            size[p.index()] += size[v.index()];
        }
    }
    let mut twig = vec![false; n];
    for &(v, parent) in walk {
        twig[v.index()] = parent.is_some() && size[v.index()] <= TWIG_ROOMS;
    }
    twig
}

/// The angle each room's subtree needs on the rings of the plan (`radius`
/// per depth, rooms at `depth`, `walk` breadth first from the root): the
/// larger of the room's own (its template's mean side and
/// [`SECTOR_MARGIN`] along its ring) and its children's together, as
/// their sectors lie within its own; and, per room, its children's
/// together. A share of its parent's sector in
/// proportion to its rooms gave a room of an inner ring with few rooms
/// below it a sliver narrower than itself (a dead end of the fifth ring
/// of a 300-room tree: 2 tiles of arc for a room 10 wide), so its target
/// lay in its neighbours' ground and it landed in their way. On bushy
/// trees of 300 rooms (`bushy-tree(300)`, 60 graphs never used before, 4
/// to 6 seeds each, and graphs 12,000..12,009, 4 seeds) 239 of 240
/// levels laid out instead of 235, `uniform-tree(300)` 40 of 40 instead
/// of 39.
fn angles_needed(
    ctx: &Ctx,
    walk: &[(NodeIndex, Option<(NodeIndex, EdgeIndex)>)],
    depth: &[usize],
    radius: &[f64],
) -> (Vec<f64>, Vec<f64>) {
    let n = ctx.level.graph.node_count();
    let (mut need, mut children) = (vec![0.0f64; n], vec![0.0f64; n]);
    // Deepest first: a room's children are summed before it is reached.
    for &(v, parent) in walk.iter().rev() {
        let d = depth[v.index()];
        let own = if d > 0 {
            (mean_side(ctx, v) + SECTOR_MARGIN) / radius[d].max(1.0)
        } else {
            0.0
        };
        need[v.index()] = children[v.index()].max(own);
        if let Some((p, _)) = parent {
            children[p.index()] += need[v.index()];
        }
    }
    (need, children)
}

/// Tiles along its ring a room's sector holds beyond its template's mean
/// side ([`angles_needed`]).
const SECTOR_MARGIN: f64 = 2.0;

/// The radius of each ring, from the rooms at each depth (`count`): each
/// ring holds the area its rooms and those inside need (a square of
/// `side` each), every ring within `step` of the one inside it. Rings are
/// pushed outward from the deepest one so that the outer rings, where a
/// bushy tree's rooms are, get their area; when even the deepest ring at
/// `step` per depth is short of it, every ring is drawn in by the same
/// factor, so the crowding is shared by all depths.
fn ring_radii(count: &[usize], side: f64, step: f64) -> Vec<f64> {
    let mut inside = 0usize;
    let mut radius: Vec<f64> = count
        .iter()
        .enumerate()
        .map(|(d, &c)| {
            let by_area = if d == 0 {
                0.0
            } else {
                side * ((inside as f64 + c as f64 / 2.0) / std::f64::consts::PI).sqrt()
            };
            inside += c;
            by_area
        })
        .collect();
    let squeeze = radius
        .iter()
        .enumerate()
        .skip(1)
        .map(|(d, &r)| d as f64 * step / r)
        .fold(1.0f64, f64::min);
    for r in &mut radius {
        *r *= squeeze;
    }
    for d in (1..radius.len().saturating_sub(1)).rev() {
        radius[d] = radius[d].max(radius[d + 1] - step);
    }
    radius
}

/// How crowded the most crowded ring is: its rooms (`count` per depth) side
/// by side, each `width` tiles wide, over the ring's length (`radius` per
/// depth); above 1 they cannot all lie on it.
fn ring_crowding(count: &[usize], radius: &[f64], width: f64) -> f64 {
    count
        .iter()
        .zip(radius)
        .skip(1)
        .map(|(&c, &r)| c as f64 * width / (TAU * r.max(1.0)))
        .fold(0.0, f64::max)
}

/// The side of the square of ground one room of `rooms` needs: their
/// templates' mean side, plus [`GAP`].
pub(super) fn room_side(ctx: &Ctx, rooms: &[NodeIndex]) -> f64 {
    let sides: Vec<f64> = rooms.iter().map(|&v| mean_side(ctx, v)).collect();
    sides.iter().sum::<f64>() / sides.len().max(1) as f64 + GAP
}

/// The side of the square a room with no template is taken to be.
pub(super) const UNKNOWN_SIDE: u32 = 6;

/// The mean of the width and height of `v`'s template ([`UNKNOWN_SIDE`]
/// when it has none).
pub(super) fn mean_side(ctx: &Ctx, v: NodeIndex) -> f64 {
    ctx.shape_options(v)
        .first()
        .map_or(f64::from(UNKNOWN_SIDE), |&s| {
            f64::from(ctx.shapes[s].width + ctx.shapes[s].height) / 2.0
        })
}

/// Places the rooms of `plan` in order on a new canvas, jumping back over
/// the last few placed when one fits nowhere. A room that still fits
/// nowhere right after its parent is walled in by its parent's place: the
/// parent is placed again, away from where it was (and after
/// [`CLIMB_AFTER`] such tries, the blame passes to the grandparent). A
/// room's links to rooms already placed, other than the one to its parent
/// (the links closing a
/// loop of a [`drawn`](super::drawn) plan), are made as soon as it lands:
/// a door, a small hall or a corridor; when one cannot be made the room
/// counts as failed.
pub(super) fn place(ctx: &mut Ctx, d: &Decomposition, plan: &Plan) -> Result<Canvas, Failure> {
    let open_depth = std::mem::replace(&mut ctx.map_open_depth, plan.open_depth);
    let placed = place_rooms(ctx, d, plan);
    ctx.map_open_depth = open_depth;
    placed
}

/// [`place`], with the plan's open band set.
fn place_rooms(ctx: &mut Ctx, d: &Decomposition, plan: &Plan) -> Result<Canvas, Failure> {
    let mut canvas = Canvas::default();
    let root = plan.order[0];
    let fail = |ctx: &Ctx, v: NodeIndex, parent: Option<NodeIndex>, unjoined: Option<NodeIndex>| {
        let id = |n: NodeIndex| &ctx.level.graph[n].id;
        let (min, max) = ctx.params.corridor;
        Failure {
            stage: plan.stage,
            composite: d.composite_of[v.index()],
            node: Some(v),
            reason: match (parent, unjoined) {
                (_, Some(w)) => format!(
                    "no door, hall or corridor of {min}..{max} tiles joins `{}` to `{}` wherever `{}` goes",
                    id(v),
                    id(w),
                    id(v)
                ),
                (Some(p), None) => format!(
                    "neither a door of `{}` nor a corridor of {min}..{max} tiles from it reaches a free place for `{}`",
                    id(p),
                    id(v)
                ),
                (None, None) => format!("no template of `{}` serves its links", id(v)),
            },
            partial: None,
        }
    };
    if !place_root(ctx, &mut canvas, root) {
        return Err(fail(ctx, root, None, None));
    }
    let origin = ctx.centre(&canvas.rooms[0]);
    let side = plan.side;
    let mut order = plan.order.clone();
    // The canvas before each room from the second on was placed.
    let mut marks: Vec<Mark> = Vec::with_capacity(order.len());
    let mut failures = vec![0usize; ctx.level.graph.node_count()];
    // Centres where a room's placement walled in a child of it.
    let mut avoided: Vec<Vec<(f64, f64)>> = vec![Vec::new(); ctx.level.graph.node_count()];
    // Times each room was placed again for walling in a child.
    let mut escalated = vec![0usize; ctx.level.graph.node_count()];
    let mut jumps = 0;
    let most_jumps = order.len() * plan.jumps_per_room + MIN_JUMPS;
    let mut i = 1;
    while i < order.len() {
        let v = order[i];
        let target = plan.targets[v.index()].expect("planned");
        let (parent, edge) = target.parent.expect("a room below the root");
        let mut at = (origin.0 + target.at.0, origin.1 + target.at.1);
        let placed = ctx.centre(canvas.room_of(parent).expect("parent placed"));
        if plan.aims_from_neighbours {
            at = aim_from_neighbours(ctx, &canvas, plan, v);
        } else if distance(placed, at) > f64::from(ctx.params.corridor.1) + side {
            // A parent placed away from its own target: its child aims as
            // far and in the same direction from it as planned.
            let planned = plan.targets[parent.index()].expect("planned").at;
            at = (
                placed.0 + target.at.0 - planned.0,
                placed.1 + target.at.1 - planned.1,
            );
        }
        at = within_reach(ctx, (parent, placed), v, at);
        let mark = canvas.mark();
        let mut unjoined = None;
        // Against its parent, else (a room closing a loop) against another
        // placed room it links to.
        let mut hosts = vec![(parent, edge)];
        hosts.extend(neighbours(ctx, v).filter(|&(w, e)| e != edge && canvas.room_of(w).is_some()));
        let avoid = std::mem::take(&mut avoided[v.index()]);
        let door_near = if plan.doors_first.get(v.index()).copied().unwrap_or(false) {
            f64::INFINITY
        } else {
            plan.door_near
        };
        let placed_ok = hosts.into_iter().any(|(host, e)| {
            ctx.budget > 0
                && place_near(
                    ctx,
                    &mut canvas,
                    v,
                    (host, e),
                    at,
                    (side, door_near, plan.corridor_search),
                    &avoid,
                    &mut unjoined,
                )
        });
        avoided[v.index()] = avoid;
        if placed_ok {
            marks.push(mark);
            i += 1;
            continue;
        }
        // Jump back: undo the rooms placed just before (more each time the
        // same room fails, never its parent) and place this one first.
        failures[v.index()] += 1;
        let after_parent = order[..i]
            .iter()
            .position(|&u| u == parent)
            .expect("parent placed before")
            + 1;
        let to = i
            .saturating_sub(JUMP * failures[v.index()])
            .max(after_parent);
        if jumps >= most_jumps || ctx.budget == 0 {
            return Err(ctx.failed_on(fail(ctx, v, Some(parent), unjoined), [&canvas]));
        }
        let walled_in = to == i || failures[v.index()] > ESCALATE_AFTER;
        let (undo_from, insert_at) = if to == after_parent && walled_in && after_parent > 1 {
            // Right after its parent (or often) and still no place: the
            // parent's place walls it in. Undo the parent too and place it
            // again, away from where it was; a parent placed again often
            // to no avail passes the blame to its own parent.
            let mut culprit = parent;
            let mut at_index = after_parent - 1;
            while escalated[culprit.index()] >= CLIMB_AFTER {
                let Some((up, _)) = plan.targets[culprit.index()].and_then(|t| t.parent) else {
                    break;
                };
                let Some(up_index) = order[..at_index].iter().position(|&u| u == up) else {
                    break;
                };
                if up_index == 0 {
                    break;
                }
                escalated[culprit.index()] = 0;
                culprit = up;
                at_index = up_index;
            }
            escalated[culprit.index()] += 1;
            let spot = ctx.centre(canvas.room_of(culprit).expect("placed"));
            let avoid = &mut avoided[culprit.index()];
            if avoid.len() == MOST_AVOIDED {
                avoid.remove(0);
            }
            avoid.push(spot);
            (at_index, after_parent)
        } else if to == i {
            return Err(ctx.failed_on(fail(ctx, v, Some(parent), unjoined), [&canvas]));
        } else {
            (to, to)
        };
        jumps += 1;
        canvas.rollback(ctx.shapes, marks[undo_from - 1]);
        marks.truncate(undo_from - 1);
        order.remove(i);
        order.insert(insert_at, v);
        i = undo_from;
    }
    Ok(canvas)
}

/// Makes every link of the just placed `v` to a placed room other than
/// through `edge` (its parent's): returns the room it could not join.
fn close_links(
    ctx: &mut Ctx,
    canvas: &mut Canvas,
    v: NodeIndex,
    edge: EdgeIndex,
) -> Option<NodeIndex> {
    let others: Vec<(NodeIndex, EdgeIndex)> = neighbours(ctx, v)
        .filter(|&(w, e)| e != edge && !canvas.realised(e) && canvas.room_of(w).is_some())
        .collect();
    others
        .into_iter()
        .find(|&(w, e)| !corridor::connect(ctx, canvas, v, w, e, Joint::HallOrCorridor))
        .map(|(w, _)| w)
}

/// The distance between two points.
pub(super) fn distance(a: (f64, f64), b: (f64, f64)) -> f64 {
    ((a.0 - b.0).powi(2) + (a.1 - b.1).powi(2)).sqrt()
}

/// Where `v` aims on `canvas`, from the rooms it links to that are placed
/// (its parent at least): each says its own centre plus `v`'s planned
/// offset from it, and `v` aims at the mean. When they landed on their
/// targets, that is `v`'s target; when they landed off them, as a
/// drawing's rooms do, it is where `v` keeps its planned place among them,
/// so that its links to them can close. On the graph families (30,5) to
/// (100,10), 30 graphs x 10 seeds each: 1,192 of 1,200 levels laid out
/// instead of 1,189; on 30 graphs of (100,10) never used before, 286 of
/// 300 instead of 278 (following only when two or more are placed: 1,192
/// and 280).
fn aim_from_neighbours(ctx: &Ctx, canvas: &Canvas, plan: &Plan, v: NodeIndex) -> (f64, f64) {
    let planned = |w: NodeIndex| plan.targets[w.index()].expect("planned").at;
    let mine = planned(v);
    let (mut sum, mut count) = ((0.0, 0.0), 0.0);
    for (w, _) in neighbours(ctx, v) {
        if let Some(room) = canvas.room_of(w) {
            let (c, theirs) = (ctx.centre(room), planned(w));
            sum = (
                sum.0 + c.0 + mine.0 - theirs.0,
                sum.1 + c.1 + mine.1 - theirs.1,
            );
            count += 1.0;
        }
    }
    (sum.0 / count, sum.1 / count)
}

/// Where `v` aims, given its target `at` and its `parent` placed with its
/// centre at `placed`: `at`, or, when that is farther than a corridor
/// reaches ([`AIM_REACH`]), the point on the way to it that is just within
/// reach. A drawing whose spreading
/// left a link too long would otherwise find no corridor near the target
/// and put the room at the parent's door nearest to it, often on the
/// parent's other side, where the loops through it cannot close. On the
/// graph families (30,5), (45,5), (60,5) and (100,10), 30 graphs x 10
/// seeds each: 1,185 of 1,200 levels laid out instead of 1,174, none
/// fewer on any graph (drawing in at 1.0 corridors: 1,185; at 1.4: 1,180).
/// A tree's room whose target lies beyond a corridor (its parent landed
/// off its own, or the rings are far apart along both axes together) did
/// the same, in its neighbours' sectors: drawn in, with
/// [`TREE_OPEN_DEPTH`] and [`TREE_JUMPS_PER_ROOM`], bushy trees of 300
/// rooms laid out on 15 of 15 levels instead of about a third.
fn within_reach(
    ctx: &Ctx,
    (parent, placed): (NodeIndex, (f64, f64)),
    v: NodeIndex,
    at: (f64, f64),
) -> (f64, f64) {
    let reach = f64::from(ctx.params.corridor.1) * AIM_REACH
        + (mean_side(ctx, parent) + mean_side(ctx, v)) / 2.0;
    let (dx, dy) = (at.0 - placed.0, at.1 - placed.1);
    let far = dx.abs() + dy.abs();
    if far <= reach {
        return at;
    }
    (placed.0 + dx * reach / far, placed.1 + dy * reach / far)
}

/// Places `v` against its placed `parent` through `edge`, its centre as
/// near `at` as it can: a door when one lands within `door_near` room
/// sides (`side`) of it or no corridor lands nearer, else a corridor
/// (its centre at most `search` tiles from `at` along each axis); failing both,
/// a corridor from the parent to anywhere it reaches. A placement stands
/// only once `v`'s other links to placed rooms are made
/// ([`close_links`]); the room it could not join to is kept in `unjoined`.
#[allow(clippy::too_many_arguments)]
fn place_near(
    ctx: &mut Ctx,
    canvas: &mut Canvas,
    v: NodeIndex,
    (parent, edge): (NodeIndex, EdgeIndex),
    at: (f64, f64),
    (side, door_near, search): (f64, f64, i32),
    avoid: &[(f64, f64)],
    unjoined: &mut Option<NodeIndex>,
) -> bool {
    let shunned = |p: (f64, f64)| avoid.iter().any(|&a| distance(a, p) < side / 2.0);
    let mut closes =
        |ctx: &mut Ctx, canvas: &mut Canvas, mark: Mark| match close_links(ctx, canvas, v, edge) {
            None => true,
            Some(w) => {
                *unjoined = Some(w);
                canvas.rollback(ctx.shapes, mark);
                false
            }
        };
    let host = canvas.index_of(parent).expect("parent placed");
    let mut cands = ctx.placements_or_other_template(canvas, host, v, edge);
    cands.retain(|c| !shunned(ctx.candidate_centre(c)));
    for c in &mut cands {
        c.score = -distance(ctx.candidate_centre(c), at);
    }
    let doors = ctx.first_fitting(canvas, &mut Ranked::new(cands), DOOR_TRIES);
    let best_door = doors.first().map(|c| -c.score);
    // Whether a corridor near the target may still be found.
    let mut corridor_may_fit = true;
    if best_door.is_none_or(|d| d > door_near * side) {
        let mark = canvas.mark();
        match corridor_near(ctx, canvas, v, (parent, edge), (at, search), &shunned) {
            Some(d) if best_door.is_none_or(|b| b > d) => {
                if closes(ctx, canvas, mark) {
                    return true;
                }
            }
            Some(_) => canvas.rollback(ctx.shapes, mark),
            None => corridor_may_fit = false,
        }
    }
    for c in doors {
        let mark = canvas.mark();
        let ni = ctx.commit(canvas, host, v, edge, &c);
        if ctx.strands_exits(canvas, ni) {
            canvas.rollback(ctx.shapes, mark);
        } else if closes(ctx, canvas, mark) {
            return true;
        }
    }
    let mark = canvas.mark();
    if corridor_may_fit
        && corridor_near(ctx, canvas, v, (parent, edge), (at, search), &shunned).is_some()
        && closes(ctx, canvas, mark)
    {
        return true;
    }
    // Anywhere a corridor from the parent reaches.
    let Some((part, join)) = alone(ctx, v, parent, edge) else {
        return false;
    };
    [Reach::Near, Reach::Far].into_iter().any(|reach| {
        let mark = canvas.mark();
        attach_by_corridor(ctx, canvas, &part, join, reach) && closes(ctx, canvas, mark)
    })
}

/// `v` alone on a canvas of its own, and its join to its placed `parent`.
fn alone(
    ctx: &mut Ctx,
    v: NodeIndex,
    parent: NodeIndex,
    edge: EdgeIndex,
) -> Option<(Canvas, Join)> {
    let mut part = Canvas::default();
    place_root(ctx, &mut part, v).then_some((
        part,
        Join {
            host: parent,
            anchor: v,
            edge,
        },
    ))
}

/// Places `v` alone with its centre near `at` (at most `search` tiles off
/// along each axis) and joins it to its placed `parent` by a corridor
/// within the flow's bound. Returns how far from `at` its centre landed.
fn corridor_near(
    ctx: &mut Ctx,
    canvas: &mut Canvas,
    v: NodeIndex,
    (parent, edge): (NodeIndex, EdgeIndex),
    (at, search): ((f64, f64), i32),
    shunned: &dyn Fn((f64, f64)) -> bool,
) -> Option<f64> {
    let (part, join) = alone(ctx, v, parent, edge)?;
    let (hi, ai, host_exits, anchor_exits) = link_ends(ctx, canvas, &part, join);
    let (min, max) = ctx.params.corridor;
    let (cx, cy) = ctx.centre(&part.rooms[ai]);
    let mut buffers = std::mem::take(&mut ctx.search);
    buffers.trials.clear();
    // The part's offsets around `at` that are not shunned, with their
    // distance from it: the same for every pair of exits.
    let (ox, oy) = ((at.0 - cx).round() as i32, (at.1 - cy).round() as i32);
    let offsets: Vec<(Pos, f64)> = (-search..=search)
        .flat_map(|dy| (-search..=search).map(move |dx| (dx, dy)))
        .map(|(dx, dy)| {
            (
                Pos::new(ox + dx, oy + dy),
                f64::from(dx * dx + dy * dy).sqrt(),
            )
        })
        .filter(|&(o, _)| !shunned((cx + f64::from(o.x), cy + f64::from(o.y))))
        .collect();
    for &he in &host_exits {
        let hx = &ctx.shapes[canvas.rooms[hi].shape].exits[he];
        let front = exit_cell(&canvas.rooms[hi], hx).step(hx.dir);
        if !canvas.corridor_may_run(front) {
            continue;
        }
        for &ae in &anchor_exits {
            let ax = &ctx.shapes[part.rooms[ai].shape].exits[ae];
            if ax.cells.len() != hx.cells.len() {
                continue;
            }
            let local = exit_cell(&part.rooms[ai], ax);
            for &(offset, off_target) in &offsets {
                let end = Pos::new(offset.x + local.x, offset.y + local.y).step(ax.dir);
                let len = front.manhattan(end) as u32 + 1;
                if len < min || len > max {
                    continue;
                }
                buffers.trials.push(Trial {
                    key: off_target + 0.25 * f64::from(len),
                    host_exit: he as u32,
                    anchor_exit: ae as u32,
                    end,
                });
            }
        }
    }
    ctx.budget = ctx.budget.saturating_sub(buffers.trials.len() as u64 / 8);
    let (mut order, fits) = buffers.trials.search();
    let kept = try_corridor_trials(
        ctx,
        canvas,
        &part,
        (hi, ai),
        edge,
        (&mut |_: &mut Ctx, _: &Canvas| order.next(), fits),
        Limits {
            fits: CORRIDOR_FITS,
            looked: CORRIDOR_LOOKS,
            guard: true,
        },
    );
    ctx.search = buffers;
    kept.then(|| distance(ctx.centre(canvas.room_of(v).expect("placed")), at))
}

#[cfg(test)]
mod tests {
    use super::{
        CROWDED, MAX_PLACEMENTS, PLACE_AGAIN_ABOVE, Plan, TWIG_ROOMS, Target, aim_from_neighbours,
        bfs, place_again, ring_crowding, ring_radii, twigs, within_reach,
    };
    use crate::geom::Pos;
    use crate::layout::canvas::Canvas;
    use crate::layout::fixture::Fixture;

    #[test]
    fn a_walk_reaches_a_room_linked_twice_to_its_parent_once() {
        let rooms = "rooms:\n  - name: host\n    category: entrance\n    art: |\n      ##B##\n      #...#\n      #...A\n      #...#\n      #####\n  - name: guest\n    category: normal\n    art: |\n      ##B##\n      #...#\n      A...#\n      #...#\n      #####\n";
        let flow = "name: pair\nnodes:\n  h: entrance\n  g: normal\nedges:\n  - h -> g\nloops:\n  - h <-> g\n";
        let fixture = Fixture::with(rooms, flow);
        assert_eq!(fixture.level.graph.edge_count(), 2, "two links, one pair");
        let link = fixture.link();
        for seed in 0..8 {
            let mut ctx = fixture.ctx();
            ctx.rng = crate::rng::Rng::new(seed);
            let walk = bfs(&mut ctx, link.host);
            let rooms: Vec<_> = walk.iter().map(|(v, _)| *v).collect();
            assert_eq!(rooms, vec![link.host, link.anchor], "seed {seed}");
        }
    }

    #[test]
    fn a_room_aims_at_its_planned_offset_from_where_its_neighbour_landed() {
        let fixture = Fixture::new();
        let ctx = fixture.ctx();
        let link = fixture.link();
        let (host, guest) = (link.host, link.anchor);
        let mut targets = vec![None; ctx.level.graph.node_count()];
        targets[host.index()] = Some(Target {
            parent: None,
            at: (0.0, 0.0),
        });
        targets[guest.index()] = Some(Target {
            parent: Some((host, link.edge)),
            at: (20.0, -6.0),
        });
        let plan = Plan {
            order: vec![host, guest],
            targets,
            side: 10.0,
            stage: "drawn",
            door_near: 0.25,
            doors_first: Vec::new(),
            aims_from_neighbours: true,
            open_depth: crate::layout::context::OPEN_DEPTH,
            jumps_per_room: 1,
            corridor_search: super::CORRIDOR_SEARCH,
        };
        for at in [Pos::new(0, 0), Pos::new(-13, 40)] {
            let mut canvas = Canvas::default();
            canvas.add_room(ctx.shapes, host, fixture.shape(host), at);
            let landed = ctx.centre(&canvas.rooms[0]);
            let aim = aim_from_neighbours(&ctx, &canvas, &plan, guest);
            assert_eq!(aim, (landed.0 + 20.0, landed.1 - 6.0), "host at {at:?}");
        }
    }

    #[test]
    fn a_target_beyond_a_corridor_is_drawn_in_along_its_line() {
        let fixture = Fixture::new();
        let ctx = fixture.ctx();
        let link = fixture.link();
        let longest = f64::from(ctx.params.corridor.1);
        let placed = (3.0, -2.0);
        let aim = |at| within_reach(&ctx, (link.host, placed), link.anchor, at);
        // Near: kept as it is.
        assert_eq!(aim((13.0, 4.0)), (13.0, 4.0));
        // Far: on the same line from the parent, a corridor and the rooms'
        // half sides away (along both axes together), no farther.
        let (x, y) = aim((3.0 + 200.0, -2.0 - 100.0));
        let (dx, dy) = (x - placed.0, y - placed.1);
        assert!((dx / dy + 2.0).abs() < 1e-9, "off its line: {dx}, {dy}");
        let far = dx.abs() + dy.abs();
        assert!(far > longest && far < 2.0 * longest, "{far}");
        let again = aim((x, y));
        assert!(
            (again.0 - x).abs() + (again.1 - y).abs() < 1e-6,
            "the drawn-in point is within reach"
        );
    }

    #[test]
    fn a_large_drawing_is_placed_again_while_it_cost_more_and_the_level_has_work() {
        let fixture = Fixture::new();
        let mut ctx = fixture.ctx();
        let plan = |rooms: usize| Plan {
            order: (0..rooms).map(petgraph::graph::NodeIndex::new).collect(),
            targets: Vec::new(),
            side: 10.0,
            stage: "drawn",
            door_near: 0.25,
            doors_first: Vec::new(),
            aims_from_neighbours: true,
            open_depth: crate::layout::context::OPEN_DEPTH,
            jumps_per_room: 1,
            corridor_search: super::CORRIDOR_SEARCH,
        };
        let (large, small) = (plan(PLACE_AGAIN_ABOVE + 1), plan(PLACE_AGAIN_ABOVE));
        // A drawing of 8 million units, one placement of 1.5 million so far.
        let (before, drawing) = (12_000_000, 8_000_000);
        ctx.budget = before - 1_500_000;
        ctx.drawing_work = drawing;
        ctx.work_left = 90_000_000;
        assert!(place_again(&ctx, &large, 1, before, drawing));
        assert!(
            !place_again(&ctx, &small, 1, before, drawing),
            "a new drawing does better"
        );
        assert!(!place_again(&ctx, &large, MAX_PLACEMENTS, before, drawing));
        // Placements that cost as much as the drawing.
        ctx.budget = before - drawing;
        assert!(!place_again(&ctx, &large, 2, before, drawing));
        // A drawing that took the level's work left (one of 1,000 rooms:
        // placing again took a failing level from 6.5 to 10.7 s).
        ctx.budget = before - 1_500_000;
        ctx.work_left = drawing;
        assert!(!place_again(&ctx, &large, 1, before, drawing));
        // A forest's plan costs nothing to make: placed once.
        ctx.work_left = u64::MAX;
        assert!(!place_again(&ctx, &large, 1, before, 0));
    }

    #[test]
    fn a_twig_is_a_subtree_of_a_few_rooms_below_the_root() {
        use petgraph::graph::{EdgeIndex, NodeIndex};
        // Room 1 heads 7 rooms (1, 3 to 8), room 3 heads 5, room 2 is a
        // dead end of the root.
        let links = [
            (0, 1),
            (0, 2),
            (1, 3),
            (1, 4),
            (3, 5),
            (3, 6),
            (3, 7),
            (5, 8),
        ];
        assert_eq!(TWIG_ROOMS, 5, "the sizes below are written for 5");
        let mut walk = vec![(NodeIndex::new(0), None)];
        for (e, &(p, v)) in links.iter().enumerate() {
            walk.push((
                NodeIndex::new(v),
                Some((NodeIndex::new(p), EdgeIndex::new(e))),
            ));
        }
        let twig = twigs(&walk, 9);
        let heads: Vec<usize> = (0..9).filter(|&v| !twig[v]).collect();
        assert_eq!(heads, vec![0, 1], "{twig:?}");
    }

    /// Rooms per depth of a complete binary tree `depth` levels deep.
    fn binary(depth: usize) -> Vec<usize> {
        (0..depth).map(|d| 1 << d).collect()
    }

    #[test]
    fn rings_hold_their_area_within_a_step_of_each_other() {
        let (side, step) = (20.0, 27.0);
        let count = binary(8);
        let radius = ring_radii(&count, side, step);
        let mut inside = 0;
        for (d, &c) in count.iter().enumerate().skip(1) {
            inside += count[d - 1];
            let area = side * ((inside as f64 + c as f64 / 2.0) / std::f64::consts::PI).sqrt();
            assert!(radius[d] >= area - 1e-9, "ring {d}: {} < {area}", radius[d]);
            assert!(radius[d] - radius[d - 1] <= step + 1e-9, "ring {d}");
        }
        // Pushed outward: the ring inside the deepest is a step from it,
        // not at its own (smaller) area.
        assert!((radius[7] - radius[6] - step).abs() < 1e-9);
    }

    #[test]
    fn a_bushy_tree_crowds_its_rings_and_a_sparse_one_does_not() {
        let (side, step, width) = (20.0, 27.0, 10.0);
        for depth in [7, 9] {
            let count = binary(depth);
            let radius = ring_radii(&count, side, step);
            let crowd = ring_crowding(&count, &radius, width);
            assert!(crowd >= CROWDED, "binary tree of depth {depth}: {crowd}");
        }
        // Rooms per depth of a tree that widens slowly: 1, 3, 5, ... 19.
        let count: Vec<usize> = (0..10)
            .map(|d| if d == 0 { 1 } else { 2 * d + 1 })
            .collect();
        let radius = ring_radii(&count, side, step);
        let crowd = ring_crowding(&count, &radius, width);
        assert!(crowd < CROWDED, "slowly widening tree: {crowd}");
        // Ten rooms side by side on a ring of length 100 fill it.
        let full = ring_crowding(&[1, 10], &[0.0, 100.0 / std::f64::consts::TAU], 10.0);
        assert!((full - 1.0).abs() < 1e-9, "{full}");
    }

    #[test]
    fn a_tree_too_bushy_for_its_corridors_squeezes_every_ring_alike() {
        let (side, step) = (20.0, 27.0);
        let radius = ring_radii(&binary(11), side, step);
        assert_eq!(radius[0], 0.0);
        for (d, r) in radius.iter().enumerate().skip(1) {
            assert!(*r <= d as f64 * step + 1e-9, "ring {d} out of reach: {r}");
            assert!(r - radius[d - 1] <= step + 1e-9, "ring {d}");
            assert!(*r > radius[d - 1], "ring {d} not outside ring {}", d - 1);
        }
    }
}
