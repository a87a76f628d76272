//! The floor grid and its cell numbering.
//!
//! A cell is numbered `stride * y + x` with `x` from 1 to `width` and
//! `stride = width + 1`: column 0 is never used, as in the original game, so
//! the original 9x8 grid runs from cell 01 (top left) to 79 (bottom right) and
//! its neighbours are ±1 and ±10.

/// A side of a cell, in the original's visiting order (left, right, up, down).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dir {
    /// Towards x - 1.
    Left,
    /// Towards x + 1.
    Right,
    /// Towards y - 1.
    Up,
    /// Towards y + 1.
    Down,
}

impl Dir {
    /// Every side, in visiting order.
    pub const ALL: [Dir; 4] = [Dir::Left, Dir::Right, Dir::Up, Dir::Down];

    /// The side facing this one.
    pub fn opposite(self) -> Dir {
        match self {
            Dir::Left => Dir::Right,
            Dir::Right => Dir::Left,
            Dir::Up => Dir::Down,
            Dir::Down => Dir::Up,
        }
    }

    /// Whether it runs along x.
    pub fn is_horizontal(self) -> bool {
        matches!(self, Dir::Left | Dir::Right)
    }

    /// The step in cell coordinates.
    pub fn delta(self) -> (i32, i32) {
        match self {
            Dir::Left => (-1, 0),
            Dir::Right => (1, 0),
            Dir::Up => (0, -1),
            Dir::Down => (0, 1),
        }
    }
}

/// A floor grid of `width` x `height` cells.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Grid {
    /// Cells across.
    pub width: i32,
    /// Cells down.
    pub height: i32,
}

impl Grid {
    /// The original game's 9x8 grid.
    pub const ORIGINAL: Grid = Grid {
        width: 9,
        height: 8,
    };
    /// Rebirth's 13x13 grid.
    pub const REBIRTH: Grid = Grid {
        width: 13,
        height: 13,
    };

    /// Distance between rows in cell numbers.
    pub fn stride(self) -> usize {
        (self.width + 1) as usize
    }

    /// Length of an array indexed by cell number.
    pub fn cells(self) -> usize {
        self.stride() * self.height as usize
    }

    /// The start cell: 35 on the original grid, the centre cell otherwise.
    pub fn start(self) -> usize {
        if self == Grid::ORIGINAL {
            35
        } else {
            self.cell(self.width / 2 + 1, self.height / 2)
        }
    }

    /// The number of the cell at column `x` (1-based) and row `y` (0-based).
    pub fn cell(self, x: i32, y: i32) -> usize {
        y as usize * self.stride() + x as usize
    }

    /// Column (1-based) and row (0-based) of a cell.
    pub fn xy(self, cell: usize) -> (i32, i32) {
        let s = self.stride();
        ((cell % s) as i32, (cell / s) as i32)
    }

    /// Whether column `x`, row `y` is on the grid.
    pub fn contains(self, x: i32, y: i32) -> bool {
        (1..=self.width).contains(&x) && (0..self.height).contains(&y)
    }

    /// The neighbour of `cell` on side `dir`, if on the grid.
    pub fn step(self, cell: usize, dir: Dir) -> Option<usize> {
        let (x, y) = self.xy(cell);
        let (dx, dy) = dir.delta();
        self.contains(x + dx, y + dy)
            .then(|| self.cell(x + dx, y + dy))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn original_numbering_matches_the_game() {
        let g = Grid::ORIGINAL;
        assert_eq!(g.cell(1, 0), 1);
        assert_eq!(g.cell(9, 7), 79);
        assert_eq!(g.start(), 35);
        assert_eq!(g.step(35, Dir::Left), Some(34));
        assert_eq!(g.step(35, Dir::Down), Some(45));
        assert_eq!(g.step(1, Dir::Left), None);
        assert_eq!(g.step(9, Dir::Right), None);
        assert_eq!(g.step(5, Dir::Up), None);
        assert_eq!(g.step(75, Dir::Down), None);
    }

    #[test]
    fn rebirth_starts_in_the_centre() {
        let g = Grid::REBIRTH;
        assert_eq!(g.xy(g.start()), (7, 6));
        assert_eq!(g.cells(), 14 * 13);
    }
}
