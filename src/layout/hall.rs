//! Loop-closing halls: when the two rooms left to join sit a few tiles apart,
//! the loop is closed with a small rectangular room built between their two
//! exits (as Enter the Gungeon does) rather than a corridor. The hall's floor
//! is laid as corridor tiles (walls come around it like around any corridor)
//! and the connection runs through it.

use petgraph::graph::EdgeIndex;

use super::canvas::Canvas;
use super::context::{Ctx, exit_cell};
use super::corridor::link_corridor;
use crate::geom::{Dir, Pos};

/// Shortest side of a hall's floor, in tiles.
const MIN_SIDE: i32 = 3;
/// Largest floor area of a hall, in tiles.
const MAX_AREA: i32 = 120;
/// Largest ratio of a hall's long side to its short side.
const MAX_ASPECT: i32 = 5;

/// A rectangle of tiles, corners inclusive.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Rect {
    lo: Pos,
    hi: Pos,
}

impl Rect {
    fn width(self) -> i32 {
        self.hi.x - self.lo.x + 1
    }

    fn height(self) -> i32 {
        self.hi.y - self.lo.y + 1
    }

    fn tiles(self) -> impl Iterator<Item = Pos> {
        (self.lo.y..=self.hi.y)
            .flat_map(move |y| (self.lo.x..=self.hi.x).map(move |x| Pos::new(x, y)))
    }

    /// The tiles of the ring one tile outside the rectangle.
    fn ring(self) -> impl Iterator<Item = Pos> {
        let outer = Rect {
            lo: Pos::new(self.lo.x - 1, self.lo.y - 1),
            hi: Pos::new(self.hi.x + 1, self.hi.y + 1),
        };
        outer.tiles().filter(move |p| {
            p.x < self.lo.x || p.x > self.hi.x || p.y < self.lo.y || p.y > self.hi.y
        })
    }

    /// The rectangle grown by one tile towards `dir`.
    fn grown(self, dir: Dir) -> Rect {
        let (dx, dy) = dir.delta();
        Rect {
            lo: Pos::new(self.lo.x + dx.min(0), self.lo.y + dy.min(0)),
            hi: Pos::new(self.hi.x + dx.max(0), self.hi.y + dy.max(0)),
        }
    }
}

/// One end of a hall: the tile in front of an exit's first cell, and the
/// direction the exit faces.
#[derive(Clone, Copy)]
struct End {
    front: Pos,
    dir: Dir,
}

impl End {
    /// Whether `p` lies ahead of the exit (on its side of the wall).
    fn ahead(self, p: Pos) -> bool {
        let (dx, dy) = self.dir.delta();
        (p.x - self.front.x) * dx + (p.y - self.front.y) * dy >= 0
    }
}

/// Builds a hall between a free exit of placed room `a` and one of placed
/// room `b` (from `a_exits` and `b_exits`, which may serve `edge`) and
/// realises `edge` through it. Returns false, changing nothing, when no hall
/// fits: its floor must be free, ahead of both exits, at least
/// [`MIN_SIDE`] tiles a side, at most [`MAX_AREA`] tiles, no longer than
/// [`MAX_ASPECT`] times its width, with no corridor around it, the way
/// through it within the flow's corridor bounds, and no room left without
/// open exits for its other links.
pub fn build_hall(
    ctx: &Ctx,
    canvas: &mut Canvas,
    (a, a_exits): (usize, &[usize]),
    (b, b_exits): (usize, &[usize]),
    edge: EdgeIndex,
) -> bool {
    let (min, max) = (ctx.params.corridor.0 as i32, ctx.params.corridor.1 as i32);
    let mut best: Option<(i32, usize, usize, Rect, Pos, Pos)> = None;
    for &ea in a_exits {
        let xa = &ctx.shapes[canvas.rooms[a].shape].exits[ea];
        let ca = exit_cell(&canvas.rooms[a], xa);
        let end_a = End {
            front: ca.step(xa.dir),
            dir: xa.dir,
        };
        for &eb in b_exits {
            let xb = &ctx.shapes[canvas.rooms[b].shape].exits[eb];
            if xb.cells.len() != xa.cells.len() {
                continue;
            }
            let cb = exit_cell(&canvas.rooms[b], xb);
            let end_b = End {
                front: cb.step(xb.dir),
                dir: xb.dir,
            };
            let way = end_a.front.manhattan(end_b.front) + 1;
            if way < min || way > max {
                continue;
            }
            let fronts = [(&canvas.rooms[a], xa), (&canvas.rooms[b], xb)]
                .into_iter()
                .flat_map(|(r, x)| {
                    x.cells
                        .iter()
                        .map(move |c| Pos::new(r.pos.x + c.x, r.pos.y + c.y).step(x.dir))
                });
            let Some(rect) = hall_around(fronts, end_a, end_b) else {
                continue;
            };
            // The smallest hall wins: only a smaller one is worth checking.
            let area = rect.width() * rect.height();
            if best.is_none_or(|(ba, ..)| area < ba) && clear(canvas, rect) {
                best = Some((area, ea, eb, rect, end_a.front, end_b.front));
            }
        }
    }
    // `s` and `t`: the hall tiles in front of the two exits.
    let Some((_, ea, eb, rect, s, t)) = best else {
        return false;
    };
    let floor: Vec<Pos> = rect.tiles().collect();
    // Across the hall: along x first, then along y (both inside the rectangle).
    let (step_x, step_y) = ((t.x - s.x).signum(), (t.y - s.y).signum());
    let way = (0..=(t.x - s.x).abs())
        .map(|k| Pos::new(s.x + step_x * k, s.y))
        .chain((1..=(t.y - s.y).abs()).map(|k| Pos::new(t.x, s.y + step_y * k)))
        .collect();
    let mark = canvas.mark();
    link_corridor(ctx, canvas, (a, ea), (b, eb), edge, &floor, way);
    let ring: Vec<Pos> = rect.ring().collect();
    canvas.ring_hall(&ring);
    // The hall must not take the ground some room needs for its other links.
    let near = canvas.rooms_near(
        ctx.shapes,
        Pos::new(rect.lo.x - 1, rect.lo.y - 1),
        rect.width() + 2,
        rect.height() + 2,
    );
    let strands = near
        .into_iter()
        .chain([a, b])
        .any(|i| ctx.strands_exits(canvas, i));
    if strands {
        canvas.rollback(ctx.shapes, mark);
    }
    !strands
}

/// The smallest rectangle holding every tile in `fronts`, grown to
/// [`MIN_SIDE`] where it can stay ahead of both exits; `None` when it
/// cannot, or breaks the size rules.
fn hall_around(fronts: impl Iterator<Item = Pos>, a: End, b: End) -> Option<Rect> {
    let mut rect = fronts.fold(None, |r: Option<Rect>, p| {
        Some(r.map_or(Rect { lo: p, hi: p }, |r| Rect {
            lo: Pos::new(r.lo.x.min(p.x), r.lo.y.min(p.y)),
            hi: Pos::new(r.hi.x.max(p.x), r.hi.y.max(p.y)),
        }))
    })?;
    let ahead = |r: Rect| {
        [
            r.lo,
            r.hi,
            Pos::new(r.lo.x, r.hi.y),
            Pos::new(r.hi.x, r.lo.y),
        ]
        .into_iter()
        .all(|p| a.ahead(p) && b.ahead(p))
    };
    if !ahead(rect) {
        return None;
    }
    // Grow the short sides in turn, on whichever side stays ahead of both exits.
    for i in 0..2 * MIN_SIDE as usize {
        let dirs: &[Dir] = match (rect.width() < MIN_SIDE, rect.height() < MIN_SIDE) {
            (false, false) => break,
            (true, _) => &[Dir::East, Dir::West],
            (false, true) => &[Dir::South, Dir::North],
        };
        let turn = i % 2;
        let next = [dirs[turn], dirs[1 - turn]]
            .into_iter()
            .map(|d| rect.grown(d))
            .find(|&r| ahead(r))?;
        rect = next;
    }
    let (w, h) = (rect.width(), rect.height());
    let fits =
        w >= MIN_SIDE && h >= MIN_SIDE && w * h <= MAX_AREA && w.max(h) <= MAX_ASPECT * w.min(h);
    fits.then_some(rect)
}

/// Whether the hall's floor is free ground and no corridor runs beside it
/// (which would open it onto another connection).
fn clear(canvas: &Canvas, rect: Rect) -> bool {
    rect.tiles().all(|p| canvas.corridor_may_run(p)) && rect.ring().all(|p| !canvas.is_corridor(p))
}
