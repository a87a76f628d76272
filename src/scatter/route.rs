//! Stage 5a: one corridor per link, from a door in one main room's wall to a
//! door in the other's. Straight when the floors overlap across the gap by
//! the corridor's width, else L-shaped; A* ([`super::astar`]) where every
//! straight and L path runs into a main room.

use crate::geom::{Dir, Pos};

use super::astar::search;
use rustc_hash::FxHashSet;

use super::band::{band, fits, line, middle, piece, step_dir};
use super::fillers::{Crossings, crossings};
use super::grid::Grid;
use super::rect::Rect;

/// How a corridor was drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// One straight stretch.
    Straight,
    /// Two straight stretches with one turn.
    Bent,
    /// Found by A* around main rooms.
    Searched,
}

/// The corridor of one link.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Route {
    /// Room it leaves.
    pub from: usize,
    /// Room it reaches.
    pub to: usize,
    /// Its centreline, 4-connected, from a tile of `from`'s wall to a tile
    /// of `to`'s wall.
    pub path: Vec<Pos>,
    /// How it was drawn.
    pub shape: Shape,
    /// Filler rooms it touches.
    pub crossings: Crossings,
}

/// The door tile `along` a side of a room's wall.
pub fn door(floor: &Rect, side: Dir, along: i32) -> Pos {
    match side {
        Dir::North => Pos::new(along, floor.y - 1),
        Dir::South => Pos::new(along, floor.bottom() + 1),
        Dir::West => Pos::new(floor.x - 1, along),
        Dir::East => Pos::new(floor.right() + 1, along),
    }
}

/// Whether `tile` is a door of a corridor of `width` leaving `floor`
/// through its `side` wall: on that wall, the whole opening along the floor.
pub fn door_ok(floor: &Rect, tile: Pos, side: Dir, width: i32) -> bool {
    let along = match side {
        Dir::North | Dir::South => tile.x,
        Dir::East | Dir::West => tile.y,
    };
    let (lo, hi) = floor.span_across(side);
    door(floor, side, along) == tile
        && fits(lo, hi, width).is_some_and(|(a, b)| (a..=b).contains(&along))
}

/// Band tiles of `path` that run alongside the corridors already drawn
/// (`taken`) without joining them, next to them or one wall away: two
/// corridors side by side look like a mistake, sharing one is fine.
fn alongside(path: &[Pos], width: i32, taken: &FxHashSet<Pos>) -> usize {
    band(path, width)
        .into_iter()
        .filter(|t| {
            !taken.contains(t)
                && Dir::ALL
                    .iter()
                    .any(|&d| taken.contains(&t.step(d)) || taken.contains(&t.step(d).step(d)))
        })
        .count()
}

/// The corridor from main room `from` to main room `to`: the first group of
/// shapes (straight, then L) with a path clear of other main rooms, the
/// path touching the fewest filler rooms without crossing them cleanly,
/// then running the least alongside the corridors `taken` already; else A*;
/// `None` when even A* finds no way.
pub fn route(
    grid: &Grid,
    floors: &[Rect],
    (from, to): (usize, usize),
    width: i32,
    taken: &FxHashSet<Pos>,
) -> Option<Route> {
    let (a, b) = (&floors[from], &floors[to]);
    for (shape, paths) in [
        (Shape::Straight, straight(a, b, width)),
        (Shape::Bent, bent(a, b, width)),
    ] {
        // The first path with the lowest score; none beats a perfect one.
        let mut best: Option<((usize, usize), Crossings, Vec<Pos>)> = None;
        for path in paths {
            if !clear(grid, a, b, &path, width) {
                continue;
            }
            let crossings = crossings(grid, floors, &path, width);
            let score = (crossings.clipped.len(), alongside(&path, width, taken));
            if best.as_ref().is_none_or(|(s, _, _)| score < *s) {
                best = Some((score, crossings, path));
                if score == (0, 0) {
                    break;
                }
            }
        }
        if let Some((_, crossings, path)) = best {
            return Some(Route {
                from,
                to,
                path,
                shape,
                crossings,
            });
        }
    }
    let path = search(grid, a, b, width)?;
    Some(Route {
        from,
        to,
        crossings: crossings(grid, floors, &path, width),
        path,
        shape: Shape::Searched,
    })
}

/// Centreline positions where a band of `width` fits within `lo..=hi`,
/// the middle one first, then outwards.
fn positions(lo: i32, hi: i32, width: i32) -> Vec<i32> {
    let Some((first, last)) = fits(lo, hi, width) else {
        return Vec::new();
    };
    let mid = middle(lo, hi, width).clamp(first, last);
    let mut at: Vec<i32> = (first..=last).collect();
    at.sort_by_key(|&c| ((c - mid).abs(), c));
    at
}

/// Straight paths from `a` to `b` across the gap between them, for every
/// position where the corridor fits both floors, the middle one first.
fn straight(a: &Rect, b: &Rect, width: i32) -> Vec<Vec<Pos>> {
    let mut out = Vec::new();
    for dir in Dir::ALL {
        let beyond = match dir {
            Dir::North => b.bottom() < a.y,
            Dir::South => b.y > a.bottom(),
            Dir::West => b.right() < a.x,
            Dir::East => b.x > a.right(),
        };
        if !beyond {
            continue;
        }
        let ((alo, ahi), (blo, bhi)) = (a.span_across(dir), b.span_across(dir));
        out.extend(
            positions(alo.max(blo), ahi.min(bhi), width)
                .into_iter()
                .map(|c| line(door(a, dir, c), door(b, dir.opposite(), c))),
        );
    }
    out
}

/// L paths tried per link.
const MAX_BENT: usize = 48;

/// L paths from `a` to `b`: out of `a` through the wall facing `b` along a
/// row (or column) of `a`, turning at a column (or row) of `b` into `b`;
/// both turns of the L, the rows and columns nearest the rooms' middles
/// first. Paths whose turn lies inside either room are left out.
fn bent(a: &Rect, b: &Rect, width: i32) -> Vec<Vec<Pos>> {
    let mut out = Vec::new();
    for vertical_first in [false, true] {
        // `u` is the axis of the first stretch, `v` the other one: x and y
        // for the horizontal-first path, y and x for the vertical-first one.
        let (u_of, v_of) = if vertical_first {
            (Dir::East, Dir::North)
        } else {
            (Dir::North, Dir::East)
        };
        let (ax, ay) = (a.span_across(u_of), a.span_across(v_of));
        let (bx, by) = (b.span_across(u_of), b.span_across(v_of));
        let to_pos = |u: i32, v: i32| {
            if vertical_first {
                Pos::new(v, u)
            } else {
                Pos::new(u, v)
            }
        };
        let vs = positions(ay.0, ay.1, width);
        let us = positions(bx.0, bx.1, width);
        for (i, &v) in vs.iter().enumerate() {
            for (j, &u) in us.iter().enumerate() {
                let out_at = if u > ax.1 {
                    ax.1 + 1
                } else if u < ax.0 {
                    ax.0 - 1
                } else {
                    continue;
                };
                let in_at = if v < by.0 {
                    by.0 - 1
                } else if v > by.1 {
                    by.1 + 1
                } else {
                    continue;
                };
                let corner = to_pos(u, v);
                let mut path = line(to_pos(out_at, v), corner);
                path.extend(line(corner, to_pos(u, in_at)).into_iter().skip(1));
                out.push((i + j, vertical_first, path));
            }
        }
    }
    out.sort_by_key(|(rank, vertical_first, _)| (*rank, *vertical_first));
    out.into_iter().take(MAX_BENT).map(|(_, _, p)| p).collect()
}

/// Whether a candidate `path` is a corridor from `a` to `b`: it leaves and
/// enters through proper doors, and the band around every other tile stays
/// in the area, out of every main room.
fn clear(grid: &Grid, a: &Rect, b: &Rect, path: &[Pos], width: i32) -> bool {
    let n = path.len();
    if n < 2 {
        return false;
    }
    let (Some(out), Some(into)) = (
        step_dir(path[0], path[1]),
        step_dir(path[n - 2], path[n - 1]),
    ) else {
        return false;
    };
    door_ok(a, path[0], out, width)
        && door_ok(b, path[n - 1], into.opposite(), width)
        && (1..n - 1).all(|i| grid.all_open(piece(path, i, width)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn route_between(floors: &[Rect], main: &[usize], width: i32) -> Route {
        let grid = Grid::new(floors, main, 8);
        route(&grid, floors, (0, 1), width, &FxHashSet::default()).expect("a route")
    }

    #[test]
    fn overlapping_rooms_get_a_straight_corridor_in_the_middle() {
        let floors = [Rect::new(0, 0, 6, 6), Rect::new(2, 12, 8, 4)];
        let r = route_between(&floors, &[0, 1], 1);
        assert_eq!(r.shape, Shape::Straight);
        // Overlap x 2..=5: middle column 3; from y = 6 (a's wall) to 11.
        assert_eq!(r.path, line(Pos::new(3, 6), Pos::new(3, 11)));
        let wide = route_between(&floors, &[0, 1], 3);
        assert_eq!(wide.path[0], Pos::new(3, 6));
    }

    #[test]
    fn a_corridor_keeps_off_the_side_of_another() {
        let floors = [Rect::new(0, 0, 6, 4), Rect::new(0, 20, 6, 4)];
        let grid = Grid::new(&floors, &[0, 1], 8);
        let free = route(&grid, &floors, (0, 1), 1, &FxHashSet::default()).expect("a route");
        assert_eq!(free.path[0], Pos::new(2, 4));
        // A corridor already runs down column 4: columns 2 and 3 would run
        // beside it, column 1 is the nearest to the middle that does not.
        let taken: FxHashSet<Pos> = line(Pos::new(4, 4), Pos::new(4, 19)).into_iter().collect();
        let r = route(&grid, &floors, (0, 1), 1, &taken).expect("a route");
        assert_eq!(r.path[0], Pos::new(1, 4));
        // Down column 2 itself: sharing it is fine.
        let taken: FxHashSet<Pos> = line(Pos::new(2, 4), Pos::new(2, 19)).into_iter().collect();
        let r = route(&grid, &floors, (0, 1), 1, &taken).expect("a route");
        assert_eq!(r.path[0], Pos::new(2, 4));
    }

    #[test]
    fn diagonal_rooms_get_an_l() {
        let floors = [Rect::new(0, 0, 5, 5), Rect::new(20, 20, 5, 5)];
        for width in 1..=3 {
            let r = route_between(&floors, &[0, 1], width);
            assert_eq!(r.shape, Shape::Bent);
            let turns = r
                .path
                .windows(3)
                .filter(|w| w[1].x - w[0].x != w[2].x - w[1].x)
                .count();
            assert_eq!(turns, 1);
        }
    }

    #[test]
    fn a_main_room_in_the_way_forces_a_search() {
        // A wall of a main room between the two, overlapping both in x and
        // blocking both L paths too.
        let floors = [
            Rect::new(0, 0, 6, 4),
            Rect::new(0, 30, 6, 4),
            Rect::new(-10, 12, 30, 4),
        ];
        let r = route_between(&floors, &[0, 1, 2], 1);
        assert_eq!(r.shape, Shape::Searched);
        let grid = Grid::new(&floors, &[0, 1, 2], 8);
        assert!(r.path.iter().all(|p| !floors[2].footprint().contains(*p)));
        assert!(r.path.windows(2).all(|w| w[0].manhattan(w[1]) == 1));
        assert!(clear(&grid, &floors[0], &floors[1], &r.path, 1));
    }

    #[test]
    fn a_filler_in_the_way_is_crossed() {
        let floors = [
            Rect::new(0, 0, 6, 4),
            Rect::new(0, 30, 6, 4),
            Rect::new(-2, 12, 10, 5),
        ];
        let r = route_between(&floors, &[0, 1], 1);
        assert_eq!(r.shape, Shape::Straight);
        assert_eq!(r.crossings.clean, vec![2]);
    }
}
