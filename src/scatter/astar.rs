//! A* around main rooms, for links whose straight and L paths are blocked
//! (pathfinding's `astar`). Turns cost extra, so corridors stay straight
//! where they can; filler rooms may be crossed.

use pathfinding::prelude::astar;

use crate::geom::{Dir, Pos};

use super::band::{cross, fits, square};
use super::grid::Grid;
use super::rect::Rect;
use super::route::{door, door_ok};

/// Extra cost of a turn, in tiles.
const TURN: u32 = 3;
/// Tiles around the two rooms searched first; the whole area after.
const NEAR: i32 = 12;

/// A search state: before leaving (every door of the first room is a
/// start), or on a centreline tile, heading somewhere.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Node {
    Start,
    At(Pos, Dir),
}

/// A centreline from a door of `a` to a door of `b` whose band of `width`
/// stays out of every main room, searched near the two rooms first, then
/// over the whole area; `None` when there is none.
pub fn search(grid: &Grid, a: &Rect, b: &Rect, width: i32) -> Option<Vec<Pos>> {
    let area = grid.bounds();
    let near = a.footprint().union(&b.footprint()).grown(NEAR);
    let (x0, y0) = (near.x.max(area.x), near.y.max(area.y));
    let (x1, y1) = (
        near.right().min(area.right()),
        near.bottom().min(area.bottom()),
    );
    let near = Rect::new(x0, y0, x1 - x0 + 1, y1 - y0 + 1);
    search_in(grid, a, b, width, near).or_else(|| {
        (near != area)
            .then(|| search_in(grid, a, b, width, area))
            .flatten()
    })
}

/// [`search`] with the centreline kept inside `window`.
fn search_in(grid: &Grid, a: &Rect, b: &Rect, width: i32, window: Rect) -> Option<Vec<Pos>> {
    let target = b.footprint();
    let successors = |n: &Node| -> Vec<(Node, u32)> {
        match *n {
            Node::Start => Dir::ALL
                .into_iter()
                .flat_map(|side| {
                    let (lo, hi) = a.span_across(side);
                    let (first, last) = fits(lo, hi, width).unwrap_or((1, 0));
                    (first..=last).map(move |c| (side, door(a, side, c).step(side)))
                })
                .filter(|&(side, p)| window.contains(p) && grid.all_open(cross(p, side, width)))
                .map(|(side, p)| (Node::At(p, side), 0))
                .collect(),
            Node::At(p, d) => Dir::ALL
                .into_iter()
                .filter(|&d2| d2 != d.opposite())
                .filter(|&d2| d2 == d || grid.all_open(square(p, width)))
                .filter_map(|d2| {
                    let q = p.step(d2);
                    let ok = if target.contains(q) {
                        door_ok(b, q, d2.opposite(), width)
                    } else {
                        window.contains(q) && grid.all_open(cross(q, d2, width))
                    };
                    ok.then_some((Node::At(q, d2), 1 + if d2 == d { 0 } else { TURN }))
                })
                .collect(),
        }
    };
    let heuristic = |n: &Node| match n {
        Node::Start => 0,
        Node::At(p, _) => target.distance(*p) as u32,
    };
    let done = |n: &Node| matches!(n, Node::At(p, _) if target.contains(*p));
    let (nodes, _) = astar(&Node::Start, successors, heuristic, done)?;
    let mut path = Vec::with_capacity(nodes.len());
    for n in nodes {
        if let Node::At(p, d) = n {
            if path.is_empty() {
                // The door in `a`'s wall, one step back.
                path.push(p.step(d.opposite()));
            }
            path.push(p);
        }
    }
    Some(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn walled_in_room_has_no_way_out() {
        // Room 0 boxed in by four main rooms that touch it.
        let floors = [
            Rect::new(0, 0, 4, 4),
            Rect::new(-7, -7, 18, 5),
            Rect::new(-7, 6, 18, 5),
            Rect::new(-7, -1, 5, 6),
            Rect::new(6, -1, 5, 6),
            Rect::new(30, 0, 4, 4),
        ];
        let grid = Grid::new(&floors, &[0, 1, 2, 3, 4, 5], 6);
        assert_eq!(search(&grid, &floors[0], &floors[5], 1), None);
        // Without the east room there is a way, of width 1 to 3.
        let grid = Grid::new(&floors, &[0, 1, 2, 3, 5], 6);
        for width in 1..=3 {
            let path = search(&grid, &floors[0], &floors[5], width).expect("a way east");
            assert!(door_ok(&floors[0], path[0], Dir::East, width));
            assert!(floors[5].footprint().contains(*path.last().expect("end")));
        }
    }
}
