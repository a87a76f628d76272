//! Room shapes: the 1x1 room and Rebirth's eleven others.

use super::grid::Dir;

/// A room shape, as cell offsets from the top-left of its bounding box.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Shape {
    /// One cell.
    Single,
    /// One cell, narrow: doors only left and right.
    NarrowH,
    /// One cell, narrow: doors only up and down.
    NarrowV,
    /// Two cells side by side.
    Wide,
    /// Two cells one above the other.
    Tall,
    /// Two cells side by side, narrow: doors only at the two ends.
    LongNarrowH,
    /// Two cells one above the other, narrow: doors only at the two ends.
    LongNarrowV,
    /// Four cells.
    Big,
    /// A 2x2 without its top-left cell.
    LNoTopLeft,
    /// A 2x2 without its top-right cell.
    LNoTopRight,
    /// A 2x2 without its bottom-left cell.
    LNoBottomLeft,
    /// A 2x2 without its bottom-right cell.
    LNoBottomRight,
}

impl Shape {
    /// Rebirth's eleven shapes besides the 1x1 room.
    pub const LARGE: [Shape; 11] = [
        Shape::Big,
        Shape::Wide,
        Shape::Tall,
        Shape::LNoTopLeft,
        Shape::LNoTopRight,
        Shape::LNoBottomLeft,
        Shape::LNoBottomRight,
        Shape::NarrowH,
        Shape::NarrowV,
        Shape::LongNarrowH,
        Shape::LongNarrowV,
    ];

    /// Large shapes a boss room may take.
    pub const BOSS: [Shape; 3] = [Shape::Big, Shape::Wide, Shape::Tall];

    /// Cell offsets `(dx, dy)` from the bounding box's top-left.
    pub fn offsets(self) -> &'static [(i32, i32)] {
        match self {
            Shape::Single | Shape::NarrowH | Shape::NarrowV => &[(0, 0)],
            Shape::Wide | Shape::LongNarrowH => &[(0, 0), (1, 0)],
            Shape::Tall | Shape::LongNarrowV => &[(0, 0), (0, 1)],
            Shape::Big => &[(0, 0), (1, 0), (0, 1), (1, 1)],
            Shape::LNoTopLeft => &[(1, 0), (0, 1), (1, 1)],
            Shape::LNoTopRight => &[(0, 0), (0, 1), (1, 1)],
            Shape::LNoBottomLeft => &[(0, 0), (1, 0), (1, 1)],
            Shape::LNoBottomRight => &[(0, 0), (1, 0), (0, 1)],
        }
    }

    /// The axis a narrow room runs along (`Some(true)` = horizontal).
    pub fn narrow(self) -> Option<bool> {
        match self {
            Shape::NarrowH | Shape::LongNarrowH => Some(true),
            Shape::NarrowV | Shape::LongNarrowV => Some(false),
            _ => None,
        }
    }

    /// Whether a door may open on side `dir` of one of its cells (the other
    /// side being outside the room): narrow rooms have walls along their
    /// length.
    pub fn door_side(self, dir: Dir) -> bool {
        self.narrow().is_none_or(|h| h == dir.is_horizontal())
    }

    /// Whether the shape contains offset `(dx, dy)`.
    pub fn has(self, dx: i32, dy: i32) -> bool {
        self.offsets().contains(&(dx, dy))
    }

    /// The exits: `(offset, side)` for every side of a cell that faces out of
    /// the room and may hold a door (up to 8 for a 2x2).
    pub fn exits(self) -> impl Iterator<Item = ((i32, i32), Dir)> {
        self.offsets().iter().flat_map(move |&(dx, dy)| {
            Dir::ALL.into_iter().filter_map(move |d| {
                let (sx, sy) = d.delta();
                (!self.has(dx + sx, dy + sy) && self.door_side(d)).then_some(((dx, dy), d))
            })
        })
    }

    /// A short name for templates and the guide (`1x1`, `2x2`, `L-tl`...).
    pub fn name(self) -> &'static str {
        match self {
            Shape::Single => "1x1",
            Shape::NarrowH => "IH",
            Shape::NarrowV => "IV",
            Shape::Wide => "2x1",
            Shape::Tall => "1x2",
            Shape::LongNarrowH => "IIH",
            Shape::LongNarrowV => "IIV",
            Shape::Big => "2x2",
            Shape::LNoTopLeft => "L-no-tl",
            Shape::LNoTopRight => "L-no-tr",
            Shape::LNoBottomLeft => "L-no-bl",
            Shape::LNoBottomRight => "L-no-br",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exit_counts() {
        assert_eq!(Shape::Single.exits().count(), 4);
        assert_eq!(Shape::Big.exits().count(), 8);
        assert_eq!(Shape::Wide.exits().count(), 6);
        assert_eq!(Shape::LNoTopLeft.exits().count(), 8);
        assert_eq!(Shape::NarrowH.exits().count(), 2);
        assert_eq!(Shape::LongNarrowV.exits().count(), 2);
        assert!(Shape::LongNarrowH.exits().all(|(_, d)| d.is_horizontal()));
    }
}
