//! Axis-aligned rectangles of tiles: room floors and their footprints.

use crate::geom::{Dir, Pos};

/// A rectangle of tiles; `x, y` is its top-left tile.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rect {
    /// Left column.
    pub x: i32,
    /// Top row.
    pub y: i32,
    /// Width in tiles.
    pub w: i32,
    /// Height in tiles.
    pub h: i32,
}

impl Rect {
    /// A rectangle.
    pub const fn new(x: i32, y: i32, w: i32, h: i32) -> Self {
        Self { x, y, w, h }
    }

    /// Last column (inclusive).
    pub fn right(&self) -> i32 {
        self.x + self.w - 1
    }

    /// Last row (inclusive).
    pub fn bottom(&self) -> i32 {
        self.y + self.h - 1
    }

    /// This rectangle grown by `by` tiles on every side.
    pub fn grown(&self, by: i32) -> Rect {
        Rect::new(self.x - by, self.y - by, self.w + 2 * by, self.h + 2 * by)
    }

    /// The footprint of a room with this floor: the floor and its one-tile
    /// wall ring.
    pub fn footprint(&self) -> Rect {
        self.grown(1)
    }

    /// This rectangle moved by `(dx, dy)`.
    pub fn moved(&self, dx: i32, dy: i32) -> Rect {
        Rect::new(self.x + dx, self.y + dy, self.w, self.h)
    }

    /// Whether `p` lies inside.
    pub fn contains(&self, p: Pos) -> bool {
        p.x >= self.x && p.x <= self.right() && p.y >= self.y && p.y <= self.bottom()
    }

    /// Overlap width and height with `other` (not positive when they share
    /// no tile along that axis).
    pub fn overlap(&self, other: &Rect) -> (i32, i32) {
        (
            self.right().min(other.right()) - self.x.max(other.x) + 1,
            self.bottom().min(other.bottom()) - self.y.max(other.y) + 1,
        )
    }

    /// Whether the two rectangles share a tile.
    pub fn intersects(&self, other: &Rect) -> bool {
        let (ox, oy) = self.overlap(other);
        ox > 0 && oy > 0
    }

    /// The smallest rectangle holding both.
    pub fn union(&self, other: &Rect) -> Rect {
        let (x, y) = (self.x.min(other.x), self.y.min(other.y));
        let r = self.right().max(other.right());
        let b = self.bottom().max(other.bottom());
        Rect::new(x, y, r - x + 1, b - y + 1)
    }

    /// The centre, doubled so that it stays whole: `(2x + w, 2y + h)`.
    pub fn centre2(&self) -> (i64, i64) {
        (
            2 * i64::from(self.x) + i64::from(self.w),
            2 * i64::from(self.y) + i64::from(self.h),
        )
    }

    /// The tile range of this rectangle across a move in `dir`: its columns
    /// for a vertical move, its rows for a horizontal one.
    pub fn span_across(&self, dir: Dir) -> (i32, i32) {
        match dir {
            Dir::North | Dir::South => (self.x, self.right()),
            Dir::East | Dir::West => (self.y, self.bottom()),
        }
    }

    /// Manhattan distance from `p` to the nearest tile of the rectangle.
    pub fn distance(&self, p: Pos) -> i32 {
        let dx = (self.x - p.x).max(p.x - self.right()).max(0);
        let dy = (self.y - p.y).max(p.y - self.bottom()).max(0);
        dx + dy
    }

    /// Every tile, row by row.
    pub fn tiles(&self) -> impl Iterator<Item = Pos> + '_ {
        (self.y..=self.bottom())
            .flat_map(move |y| (self.x..=self.right()).map(move |x| Pos::new(x, y)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn footprints_touching_share_no_tile() {
        let a = Rect::new(0, 0, 3, 3);
        // Floors two tiles apart: the walls would be the same tile.
        let b = Rect::new(4, 0, 3, 3);
        assert!(a.footprint().intersects(&b.footprint()));
        // Three tiles apart: two walls side by side.
        let c = Rect::new(5, 0, 3, 3);
        assert!(!a.footprint().intersects(&c.footprint()));
        assert_eq!(a.footprint().overlap(&c.footprint()).0, 0);
    }

    #[test]
    fn distance_and_union() {
        let r = Rect::new(2, 2, 3, 2);
        assert_eq!(r.distance(Pos::new(3, 3)), 0);
        assert_eq!(r.distance(Pos::new(0, 0)), 4);
        assert_eq!(r.union(&Rect::new(10, 0, 1, 1)), Rect::new(2, 0, 9, 4));
        assert_eq!(r.tiles().count(), 6);
    }
}
