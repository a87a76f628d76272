//! Stage 5b: which filler rooms the corridors keep. A corridor that passes
//! cleanly through a filler room (in through its wall, across its floor, out
//! through its wall, each opening no wider than the corridor) makes it part
//! of the path; one that only grazes it (a corner, along a wall) drops it.

use rustc_hash::FxHashSet;

use crate::geom::{Dir, Pos};

use super::band::band;
use super::grid::Grid;
use super::rect::Rect;

/// The filler rooms one corridor touches.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Crossings {
    /// Crossed cleanly: the corridor can run through them.
    pub clean: Vec<usize>,
    /// Touched any other way.
    pub clipped: Vec<usize>,
}

/// The filler rooms touched by a corridor of `width` along `path`.
pub fn crossings(grid: &Grid, floors: &[Rect], path: &[Pos], width: i32) -> Crossings {
    let tiles = band(path, width);
    let mut touched: Vec<usize> = tiles
        .iter()
        .filter_map(|&p| grid.owner(p))
        .filter(|&r| !grid.is_main(r))
        .collect();
    touched.sort_unstable();
    touched.dedup();
    let set: FxHashSet<Pos> = tiles.into_iter().collect();
    let mut out = Crossings::default();
    for f in touched {
        if crosses_cleanly(&floors[f], &set, path, width) {
            out.clean.push(f);
        } else {
            out.clipped.push(f);
        }
    }
    out
}

/// Whether the band `set` (centreline `path`) passes through the room with
/// floor `floor`: the centreline reaches the floor, no band tile is on a
/// corner of the wall ring, each band tile on the ring has band tiles on
/// both sides of the wall, and no opening is wider than `width`.
fn crosses_cleanly(floor: &Rect, set: &FxHashSet<Pos>, path: &[Pos], width: i32) -> bool {
    if !path.iter().any(|&p| floor.contains(p)) {
        return false;
    }
    let ring = floor.footprint();
    let corners = [
        Pos::new(ring.x, ring.y),
        Pos::new(ring.right(), ring.y),
        Pos::new(ring.x, ring.bottom()),
        Pos::new(ring.right(), ring.bottom()),
    ];
    if corners.iter().any(|c| set.contains(c)) {
        return false;
    }
    Dir::ALL.into_iter().all(|side| {
        let wall: Vec<Pos> = match side {
            Dir::North => (floor.x..=floor.right())
                .map(|x| Pos::new(x, ring.y))
                .collect(),
            Dir::South => (floor.x..=floor.right())
                .map(|x| Pos::new(x, ring.bottom()))
                .collect(),
            Dir::West => (floor.y..=floor.bottom())
                .map(|y| Pos::new(ring.x, y))
                .collect(),
            Dir::East => (floor.y..=floor.bottom())
                .map(|y| Pos::new(ring.right(), y))
                .collect(),
        };
        let mut run = 0;
        wall.iter().all(|&t| {
            if !set.contains(&t) {
                run = 0;
                return true;
            }
            run += 1;
            run <= width && set.contains(&t.step(side)) && set.contains(&t.step(side.opposite()))
        })
    })
}

/// The filler rooms to keep: crossed cleanly by the corridor of exactly one
/// link and touched by no other corridor, sorted. Keeping a room crossed by
/// two links would join them into one hub of corridors.
pub fn kept_fillers(all: &[&Crossings], rooms: usize) -> Vec<usize> {
    let mut by: Vec<Option<usize>> = vec![None; rooms];
    let mut dropped = vec![false; rooms];
    for (link, c) in all.iter().enumerate() {
        for &f in &c.clipped {
            dropped[f] = true;
        }
        for &f in &c.clean {
            match by[f] {
                Some(other) if other != link => dropped[f] = true,
                _ => by[f] = Some(link),
            }
        }
    }
    (0..rooms)
        .filter(|&f| by[f].is_some() && !dropped[f])
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scatter::band::line;

    #[test]
    fn through_the_middle_is_clean_along_the_wall_or_a_corner_is_not() {
        // Main rooms 0 and 1 far apart, filler 2 (floor 10..=14 x 10..=14).
        let floors = [
            Rect::new(0, 10, 3, 5),
            Rect::new(30, 10, 3, 5),
            Rect::new(10, 10, 5, 5),
        ];
        let grid = Grid::new(&floors, &[0, 1], 4);
        for width in 1..=3 {
            let through = crossings(
                &grid,
                &floors,
                &line(Pos::new(3, 12), Pos::new(29, 12)),
                width,
            );
            assert_eq!(through.clean, vec![2], "width {width}");
        }
        // Along the top wall row (y = 9).
        let along = crossings(&grid, &floors, &line(Pos::new(3, 9), Pos::new(29, 9)), 1);
        assert_eq!(along.clipped, vec![2]);
        // Just outside the top wall, but three wide: the band covers the wall.
        let graze = crossings(&grid, &floors, &line(Pos::new(3, 8), Pos::new(29, 8)), 3);
        assert_eq!(graze.clipped, vec![2]);
        // Through the floor's first row, three wide: the band hits the corners.
        let edge = crossings(&grid, &floors, &line(Pos::new(3, 10), Pos::new(29, 10)), 3);
        assert_eq!(edge.clipped, vec![2]);
        // Clear of it.
        let clear = crossings(&grid, &floors, &line(Pos::new(3, 7), Pos::new(29, 7)), 1);
        assert_eq!(clear, Crossings::default());
    }

    #[test]
    fn a_filler_is_kept_only_by_one_link() {
        let a = Crossings {
            clean: vec![1, 2],
            clipped: vec![],
        };
        let b = Crossings {
            clean: vec![2, 3],
            clipped: vec![4],
        };
        let c = Crossings {
            clean: vec![4],
            clipped: vec![],
        };
        assert_eq!(kept_fillers(&[&a, &b, &c], 6), vec![1, 3]);
    }
}
