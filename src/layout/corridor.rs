//! Joining two placed rooms: directly when two free exits face each other,
//! otherwise (closing a loop) with a small hall between two exits when one
//! fits, otherwise with an A* corridor (from `pathfinding`) within the flow's
//! length bounds.

use petgraph::graph::{EdgeIndex, NodeIndex};

use super::canvas::{Canvas, Link, LinkKind};
use super::context::{Ctx, exit_cell};
use crate::geom::{Dir, Pos};

/// Exit pairs tried with A* before giving up on a connection.
const PAIRS_TRIED: usize = 8;

/// Free exits of the placed room `room` that may serve `edge`.
fn usable_exits(ctx: &Ctx, canvas: &Canvas, room: usize, edge: EdgeIndex) -> Vec<usize> {
    let r = &canvas.rooms[room];
    ctx.usable_exits(r, &ctx.pending(canvas, r.node, Some(edge)), edge)
}

/// Realises `edge` as a door between exit `ea` of room `a` and exit `eb` of
/// room `b`, which touch face to face.
pub fn link_direct(
    ctx: &Ctx,
    canvas: &mut Canvas,
    a: usize,
    ea: usize,
    b: usize,
    eb: usize,
    edge: EdgeIndex,
) {
    let pa = mark(ctx, canvas, a, ea);
    let pb = mark(ctx, canvas, b, eb);
    let source_is_a = ctx.level.graph.edge_endpoints(edge).expect("edge").0 == canvas.rooms[a].node;
    let path = if source_is_a {
        vec![pa, pb]
    } else {
        vec![pb, pa]
    };
    canvas.add_link(Link {
        edge,
        kind: LinkKind::Door,
        path,
    });
}

/// Two free exits, one of each room, that touch face to face.
pub fn direct_pair(
    ctx: &Ctx,
    canvas: &Canvas,
    a: usize,
    b: usize,
    edge: EdgeIndex,
) -> Option<(usize, usize)> {
    let a_exits = usable_exits(ctx, canvas, a, edge);
    let b_exits = usable_exits(ctx, canvas, b, edge);
    facing_pair(ctx, canvas, (a, &a_exits), (b, &b_exits))
}

/// An exit of `a_exits` (of room `a`) and one of `b_exits` (of room `b`)
/// that touch face to face.
fn facing_pair(
    ctx: &Ctx,
    canvas: &Canvas,
    (a, a_exits): (usize, &[usize]),
    (b, b_exits): (usize, &[usize]),
) -> Option<(usize, usize)> {
    let (ra, rb) = (&canvas.rooms[a], &canvas.rooms[b]);
    let (sa, sb) = (&ctx.shapes[ra.shape], &ctx.shapes[rb.shape]);
    for &ea in a_exits {
        let xa = &sa.exits[ea];
        let front = exit_cell(ra, xa).step(xa.dir);
        for &eb in b_exits {
            let xb = &sb.exits[eb];
            if xb.mates(xa) && exit_cell(rb, xb) == front {
                return Some((ea, eb));
            }
        }
    }
    None
}

/// How [`connect`] may join two rooms whose exits do not touch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Joint {
    /// A corridor only.
    Corridor,
    /// A small hall built between the exits when one fits (closing a
    /// loop), else a corridor.
    HallOrCorridor,
}

/// Realises `edge` between the placed rooms of `a` and `b`: a door when two
/// exits touch, else as `joint` says. Returns false when nothing fits.
pub fn connect(
    ctx: &mut Ctx,
    canvas: &mut Canvas,
    a: NodeIndex,
    b: NodeIndex,
    edge: EdgeIndex,
    joint: Joint,
) -> bool {
    let (Some(ia), Some(ib)) = (canvas.index_of(a), canvas.index_of(b)) else {
        return false;
    };
    let a_exits = usable_exits(ctx, canvas, ia, edge);
    let b_exits = usable_exits(ctx, canvas, ib, edge);
    if let Some((ea, eb)) = facing_pair(ctx, canvas, (ia, &a_exits), (ib, &b_exits)) {
        link_direct(ctx, canvas, ia, ea, ib, eb, edge);
        return true;
    }
    let (min, max) = (
        ctx.params.corridor.0 as usize,
        ctx.params.corridor.1 as usize,
    );
    let mut pairs = Vec::new();
    if joint == Joint::HallOrCorridor
        && super::hall::build_hall(ctx, canvas, (ia, &a_exits), (ib, &b_exits), edge)
    {
        return true;
    }
    for &ea in &a_exits {
        let xa = &ctx.shapes[canvas.rooms[ia].shape].exits[ea];
        let s = exit_cell(&canvas.rooms[ia], xa).step(xa.dir);
        if !canvas.corridor_may_run(s) {
            continue;
        }
        for &eb in &b_exits {
            let xb = &ctx.shapes[canvas.rooms[ib].shape].exits[eb];
            if xb.cells.len() != xa.cells.len() {
                continue;
            }
            let t = exit_cell(&canvas.rooms[ib], xb).step(xb.dir);
            let est = s.manhattan(t) as usize + 1;
            if est > max || !canvas.corridor_may_run(t) {
                continue;
            }
            pairs.push((est as f64 + ctx.rng.unit() * 3.0, ea, eb, s, t, xa.dir));
        }
    }
    pairs.sort_by(|x, y| x.0.total_cmp(&y.0));
    for &(_, ea, eb, s, t, da) in pairs.iter().take(PAIRS_TRIED) {
        let Some(tiles) = route_charged(ctx, canvas, s, t, da, max) else {
            continue;
        };
        if tiles.len() < min || tiles.len() > max {
            continue;
        }
        link_corridor(ctx, canvas, (ia, ea), (ib, eb), edge, &tiles, tiles.clone());
        return true;
    }
    false
}

/// Realises `edge` as a corridor from exit `ea` of room `a` to exit `eb` of
/// room `b`: lays `floor` as corridor tiles and records the path through
/// the two exits and `way` (the walk across the floor, from `a`'s side).
pub fn link_corridor(
    ctx: &Ctx,
    canvas: &mut Canvas,
    (a, ea): (usize, usize),
    (b, eb): (usize, usize),
    edge: EdgeIndex,
    floor: &[Pos],
    way: Vec<Pos>,
) {
    let pa = mark(ctx, canvas, a, ea);
    let pb = mark(ctx, canvas, b, eb);
    canvas.add_corridor(floor);
    let mut path = Vec::with_capacity(way.len() + 2);
    path.push(pa);
    path.extend(way);
    path.push(pb);
    if ctx.level.graph.edge_endpoints(edge).expect("edge").0 != canvas.rooms[a].node {
        path.reverse();
    }
    canvas.add_link(Link {
        edge,
        kind: LinkKind::Corridor,
        path,
    });
}

fn mark(ctx: &Ctx, canvas: &mut Canvas, room: usize, exit: usize) -> Pos {
    canvas.use_exit(room, exit);
    exit_cell(
        &canvas.rooms[room],
        &ctx.shapes[canvas.rooms[room].shape].exits[exit],
    )
}

/// Units of the layout's work budget one step of a corridor search costs
/// (a placement checked for overlap is one): measured on binary trees of
/// 255 and 1,023 rooms, a search of a thousand steps took about as long as
/// 2,000 such checks.
pub const ROUTE_STEP_COST: u64 = 2;

/// [`route`], its steps taken from the attempt's budget.
pub fn route_charged(
    ctx: &mut Ctx,
    canvas: &Canvas,
    s: Pos,
    t: Pos,
    out_dir: Dir,
    max: usize,
) -> Option<Vec<Pos>> {
    let mut steps = 0;
    let routed = route(canvas, s, t, out_dir, max, &mut steps);
    ctx.budget = ctx
        .budget
        .saturating_sub(steps.saturating_mul(ROUTE_STEP_COST));
    routed
}

/// Shortest corridor from `s` to `t` over free tiles, penalising turns and
/// running alongside other corridors.
/// The search stays inside a box around the two ends sized by `max`, on
/// tiles some corridor of at most `max` tiles could pass through; what
/// it learns of each tile of the box is kept, so no tile is looked up twice.
/// Adds the steps of the search (tiles left, with the direction they were
/// entered from) to `steps`: a search that finds no way looks at every
/// tile it can reach in the box, so its work varies a hundredfold.
pub fn route(
    canvas: &Canvas,
    s: Pos,
    t: Pos,
    out_dir: Dir,
    max: usize,
    steps: &mut u64,
) -> Option<Vec<Pos>> {
    const KNOWN: u8 = 1;
    const FREE: u8 = 2;
    const CROWDED: u8 = 4;
    const CROWD_KNOWN: u8 = 8;
    let slack = ((max as i32 - s.manhattan(t)) / 2).clamp(2, 12);
    let (x0, x1) = (s.x.min(t.x) - slack, s.x.max(t.x) + slack);
    let (y0, y1) = (s.y.min(t.y) - slack, s.y.max(t.y) + slack);
    let width = (x1 - x0 + 1) as usize;
    let reach = max as i32;
    let mut tiles = vec![0u8; width * (y1 - y0 + 1) as usize];
    // What a tile is: free or not, and (when `crowd` asks) whether a
    // corridor runs beside it.
    let mut look = |p: Pos, crowd: bool| -> u8 {
        // A tile no corridor of at most `max` tiles passes through is out.
        if p.x < x0 || p.x > x1 || p.y < y0 || p.y > y1 || s.manhattan(p) + p.manhattan(t) >= reach
        {
            return KNOWN;
        }
        let cell = &mut tiles[(p.y - y0) as usize * width + (p.x - x0) as usize];
        if *cell == 0 {
            *cell = KNOWN | if canvas.corridor_may_run(p) { FREE } else { 0 };
        }
        if crowd && *cell & (FREE | CROWD_KNOWN) == FREE {
            let crowded = Dir::ALL.iter().any(|d| canvas.is_corridor(p.step(*d)));
            *cell |= CROWD_KNOWN | if crowded { CROWDED } else { 0 };
        }
        *cell
    };
    // Most searches that find no way fail for want of any way at all, or of
    // one short enough: a breadth-first walk over the tiles (not the tiles
    // with their directions) tells that for a tenth of the cost.
    if !within_reach(
        s,
        t,
        max,
        (x0, y0, x1, y1),
        &mut |p| look(p, false) & FREE != 0,
        steps,
    ) {
        return None;
    }
    let (path, _) = pathfinding::directed::astar::astar(
        &(s, out_dir),
        |&(p, d)| {
            *steps += 1;
            let mut next = [None; 4];
            for (slot, nd) in next.iter_mut().zip(Dir::ALL) {
                let q = p.step(nd);
                let tile = look(q, true);
                if nd != d.opposite() && tile & FREE != 0 {
                    let turn = if nd == d { 0 } else { 6 };
                    let crowd = if tile & CROWDED != 0 { 25 } else { 0 };
                    *slot = Some(((q, nd), 10 + turn + crowd));
                }
            }
            next.into_iter().flatten()
        },
        |&(p, _)| 10 * p.manhattan(t) as u32,
        |&(p, _)| p == t,
    )?;
    Some(path.into_iter().map(|(p, _)| p).collect())
}

/// Tiles of the breadth-first walk of [`within_reach`] that cost one step
/// of a corridor search.
const WALK_TILES_PER_STEP: u64 = 2;

/// Whether some path of free tiles (as `free` tells, inside the box
/// `x0, y0, x1, y1`) leads from `s` to `t` in at most `max` tiles, `s`
/// and `t` included. Adds its work to `steps`, a step per
/// [`WALK_TILES_PER_STEP`] tiles reached.
fn within_reach(
    s: Pos,
    t: Pos,
    max: usize,
    (x0, y0, x1, y1): (i32, i32, i32, i32),
    free: &mut impl FnMut(Pos) -> bool,
    steps: &mut u64,
) -> bool {
    let width = (x1 - x0 + 1) as usize;
    let index = |p: Pos| (p.y - y0) as usize * width + (p.x - x0) as usize;
    let inside = |p: Pos| p.x >= x0 && p.x <= x1 && p.y >= y0 && p.y <= y1;
    if s == t || !inside(s) || !inside(t) {
        return true;
    }
    let mut seen = vec![false; width * (y1 - y0 + 1) as usize];
    seen[index(s)] = true;
    let (mut front, mut next) = (vec![s], Vec::new());
    let mut reached = 0u64;
    // Tiles of the path so far, `s` included.
    let mut tiles = 1;
    let found = 'walk: loop {
        if front.is_empty() || tiles >= max {
            break false;
        }
        tiles += 1;
        for &p in &front {
            for d in Dir::ALL {
                let q = p.step(d);
                if q == t {
                    break 'walk true;
                }
                if !inside(q) || seen[index(q)] || !free(q) {
                    continue;
                }
                seen[index(q)] = true;
                reached += 1;
                if q.manhattan(t) as usize + tiles < max + 1 {
                    next.push(q);
                }
            }
        }
        std::mem::swap(&mut front, &mut next);
        next.clear();
    };
    *steps += reached.div_ceil(WALK_TILES_PER_STEP);
    found
}

/// The tiles a corridor starting on one free tile can reach over free
/// ground, one corridor length at a time: a breadth-first search that goes
/// only as far as its caller asks. A far corridor search reaches thousands
/// of tiles from each host exit and most searches end in the first few
/// lengths. Its buffers are kept for the next search.
#[derive(Debug, Default)]
pub struct Flood {
    /// The first tile of the corridor.
    from: Pos,
    /// The longest corridor, in tiles.
    max: u32,
    /// Tiles reached, with the length of the shortest corridor to them, by
    /// nondecreasing length.
    queue: Vec<(Pos, u32)>,
    /// The next tile of `queue` to search from.
    head: usize,
    /// The search that saw each tile of the square of side `2 max + 1`
    /// round `from` (a search number, so the buffer is never cleared).
    seen: Vec<u32>,
    /// This search's number.
    search: u32,
}

impl Flood {
    /// Starts a search from `from` for corridors of at most `max` tiles.
    pub fn start(&mut self, canvas: &Canvas, from: Pos, max: u32) {
        self.from = from;
        self.max = max;
        self.queue.clear();
        self.head = 0;
        let side = 2 * max as usize + 1;
        if self.seen.len() != side * side || self.search == u32::MAX {
            self.seen.clear();
            self.seen.resize(side * side, 0);
            self.search = 0;
        }
        self.search += 1;
        if max > 0 && canvas.corridor_may_run(from) {
            let i = self.index(from);
            self.seen[i] = self.search;
            self.queue.push((from, 1));
        }
    }

    /// Where `p` (within `max` of `from`) is in `seen`.
    fn index(&self, p: Pos) -> usize {
        let (r, side) = (self.max as i32, 2 * self.max as usize + 1);
        ((p.y - self.from.y + r) as usize) * side + (p.x - self.from.x + r) as usize
    }

    /// The tiles whose shortest corridor from `from` has `len` tiles
    /// (`from` itself has 1), around what blocks, on `canvas` as it was
    /// when the search started. `len` must not decrease between calls.
    pub fn layer(&mut self, canvas: &Canvas, len: u32) -> &[(Pos, u32)] {
        let r = self.max as i32;
        while self.head < self.queue.len() && self.queue[self.head].1 < len {
            let (p, l) = self.queue[self.head];
            self.head += 1;
            if l == self.max {
                continue;
            }
            for d in Dir::ALL {
                let q = p.step(d);
                if q.manhattan(self.from) > r {
                    continue;
                }
                let i = self.index(q);
                if self.seen[i] == self.search {
                    continue;
                }
                self.seen[i] = self.search;
                if canvas.corridor_may_run(q) {
                    self.queue.push((q, l + 1));
                }
            }
        }
        let rest = &self.queue[self.head..];
        let end = rest
            .iter()
            .position(|&(_, l)| l != len)
            .unwrap_or(rest.len());
        &rest[..end]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A canvas with a corridor wall on x = 1 from y = -5 to 5.
    fn walled() -> Canvas {
        let mut canvas = Canvas::default();
        let wall: Vec<Pos> = (-5..=5).map(|y| Pos::new(1, y)).collect();
        canvas.add_corridor(&wall);
        canvas
    }

    /// Every layer of a flood from `from`, the flood reused from a search
    /// with another bound.
    fn reach_all(canvas: &Canvas, from: Pos, max: u32) -> Vec<(Pos, u32)> {
        let mut flood = Flood::default();
        flood.start(canvas, Pos::new(9, 9), 3);
        assert_eq!(
            flood.layer(canvas, 3).len(),
            8,
            "a free diamond's ring of 2"
        );
        flood.start(canvas, from, max);
        (1..=max + 1)
            .flat_map(|len| flood.layer(canvas, len).to_vec())
            .collect()
    }

    #[test]
    fn a_flood_goes_around_what_blocks_it_and_stops_at_the_bound() {
        let canvas = walled();
        let length = |max: u32, p: Pos| {
            reach_all(&canvas, Pos::new(0, 0), max)
                .into_iter()
                .find(|&(q, _)| q == p)
                .map(|(_, len)| len)
        };
        assert_eq!(length(20, Pos::new(0, 0)), Some(1));
        assert_eq!(length(20, Pos::new(0, 3)), Some(4));
        // Across the wall: 6 tiles up, 2 across, 6 down, plus the first tile.
        assert_eq!(length(20, Pos::new(2, 0)), Some(15));
        assert_eq!(length(14, Pos::new(2, 0)), None);
        let all = reach_all(&canvas, Pos::new(0, 0), 14);
        assert!(
            all.iter()
                .all(|&(p, len)| len <= 14 && canvas.corridor_may_run(p))
        );
        assert!(
            all.iter()
                .all(|&(p, len)| len as i32 > p.manhattan(Pos::new(0, 0)))
        );
        let mut tiles: Vec<Pos> = all.iter().map(|&(p, _)| p).collect();
        tiles.sort_by_key(|p| (p.x, p.y));
        tiles.dedup();
        assert_eq!(tiles.len(), all.len(), "each tile once");
    }

    #[test]
    fn a_search_counts_its_steps_and_one_refused_by_the_walk_counts_only_the_walk() {
        let canvas = walled();
        let mut straight = 0;
        let path = route(
            &canvas,
            Pos::new(-3, 0),
            Pos::new(-3, 4),
            Dir::South,
            30,
            &mut straight,
        );
        assert_eq!(path.map(|p| p.len()), Some(5));
        assert!((4..=40).contains(&straight), "{straight} steps");
        // Across the wall takes 15 tiles: with at most 14 the walk refuses
        // it, counting at most the 15 by 13 tiles of its box, 2 a step.
        let mut lost = 0;
        let none = route(
            &canvas,
            Pos::new(0, 0),
            Pos::new(2, 0),
            Dir::North,
            14,
            &mut lost,
        );
        assert!(none.is_none());
        assert!((1..=98).contains(&lost), "{lost} steps");
        // The steps add up over searches.
        let mut both = straight;
        route(
            &canvas,
            Pos::new(-3, 0),
            Pos::new(-3, 4),
            Dir::South,
            30,
            &mut both,
        );
        assert_eq!(both, 2 * straight);
    }

    #[test]
    fn the_walk_before_a_search_knows_the_shortest_corridor_across_a_wall() {
        let canvas = walled();
        let (s, t) = (Pos::new(0, 0), Pos::new(2, 0));
        // Around the wall: 6 tiles up, 2 across, 6 down, plus the first tile.
        for (max, fits) in [(15, true), (14, false), (40, true), (3, false)] {
            let slack = ((max as i32 - s.manhattan(t)) / 2).clamp(2, 12);
            let area = (s.x - slack, s.y - slack, t.x + slack, t.y + slack);
            let mut free =
                |p: Pos| canvas.corridor_may_run(p) && s.manhattan(p) + p.manhattan(t) < max as i32;
            assert_eq!(
                within_reach(s, t, max, area, &mut free, &mut 0),
                fits,
                "at most {max} tiles"
            );
            if !fits {
                assert!(route(&canvas, s, t, Dir::North, max, &mut 0).is_none());
            }
        }
        // A way blocked all round: the walk says so whatever the bound.
        let mut boxed = Canvas::default();
        let ring: Vec<Pos> = (-2..=2)
            .flat_map(|i| {
                [
                    Pos::new(i, -2),
                    Pos::new(i, 2),
                    Pos::new(-2, i),
                    Pos::new(2, i),
                ]
            })
            .collect();
        boxed.add_corridor(&ring);
        let mut steps = 0;
        let inside = |p: Pos| boxed.corridor_may_run(p);
        assert!(!within_reach(
            Pos::new(0, 0),
            Pos::new(5, 0),
            30,
            (-12, -12, 17, 12),
            &mut { inside },
            &mut steps
        ));
        assert_eq!(steps, 4, "the 8 free tiles inside the ring, 2 a step");
    }

    #[test]
    fn reach_from_a_taken_tile_is_empty() {
        assert!(reach_all(&walled(), Pos::new(1, 0), 20).is_empty());
    }
}
