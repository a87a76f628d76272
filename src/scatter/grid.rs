//! Which room's footprint covers each tile, over the area corridors may use.

use crate::geom::Pos;

use super::rect::Rect;

/// Footprint owners over a bounded area.
#[derive(Clone, Debug)]
pub struct Grid {
    bounds: Rect,
    /// `0` for no room, `i + 1` for room `i`.
    owner: Vec<u32>,
    main: Vec<bool>,
}

impl Grid {
    /// The footprints of `floors` (none of which overlap), the rooms listed
    /// in `main` marked as main, over their extent grown by `margin`.
    pub fn new(floors: &[Rect], main: &[usize], margin: i32) -> Grid {
        let bounds = floors
            .iter()
            .map(Rect::footprint)
            .reduce(|a, b| a.union(&b))
            .unwrap_or(Rect::new(0, 0, 1, 1))
            .grown(margin);
        let mut grid = Grid {
            bounds,
            owner: vec![0; bounds.w as usize * bounds.h as usize],
            main: vec![false; floors.len()],
        };
        for &m in main {
            grid.main[m] = true;
        }
        for (i, f) in floors.iter().enumerate() {
            for p in f.footprint().tiles() {
                if let Some(k) = grid.index(p) {
                    grid.owner[k] = i as u32 + 1;
                }
            }
        }
        grid
    }

    /// The area covered.
    pub fn bounds(&self) -> Rect {
        self.bounds
    }

    fn index(&self, p: Pos) -> Option<usize> {
        self.bounds
            .contains(p)
            .then(|| ((p.y - self.bounds.y) * self.bounds.w + (p.x - self.bounds.x)) as usize)
    }

    /// The room whose footprint covers `p`.
    pub fn owner(&self, p: Pos) -> Option<usize> {
        self.index(p)
            .and_then(|k| self.owner[k].checked_sub(1))
            .map(|r| r as usize)
    }

    /// Whether room `room` is a main room.
    pub fn is_main(&self, room: usize) -> bool {
        self.main.get(room).copied().unwrap_or(false)
    }

    /// Whether a corridor may cover `p`: inside the area and outside every
    /// main room's footprint (filler rooms may be crossed).
    pub fn open(&self, p: Pos) -> bool {
        self.index(p)
            .is_some_and(|k| self.owner[k] == 0 || !self.main[self.owner[k] as usize - 1])
    }

    /// Whether every tile of `tiles` is [`open`](Self::open).
    pub fn all_open(&self, tiles: impl IntoIterator<Item = Pos>) -> bool {
        tiles.into_iter().all(|p| self.open(p))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn owners_and_open_tiles() {
        let floors = [Rect::new(0, 0, 3, 3), Rect::new(6, 0, 3, 3)];
        let g = Grid::new(&floors, &[0], 2);
        assert_eq!(g.bounds(), Rect::new(-3, -3, 15, 9));
        assert_eq!(g.owner(Pos::new(-1, -1)), Some(0));
        assert_eq!(g.owner(Pos::new(9, 3)), Some(1));
        assert_eq!(g.owner(Pos::new(4, 0)), None);
        assert!(!g.open(Pos::new(3, 1)));
        assert!(g.open(Pos::new(5, 1)) && g.open(Pos::new(7, 1)));
        assert!(!g.open(Pos::new(-4, 0)));
        assert!(g.is_main(0) && !g.is_main(1) && !g.is_main(7));
    }
}
