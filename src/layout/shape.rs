//! Template geometry prepared for fast placement: footprint, row bit masks,
//! bounding box, exits with their local cells.

use crate::geom::{Dir, Pos};
use crate::rooms::{ExitKind, RoomTemplate, Tile};

/// One exit of a shape.
#[derive(Clone, Debug)]
pub struct ShapeExit {
    /// Local cells, in order along the wall.
    pub cells: Vec<Pos>,
    /// Facing.
    pub dir: Dir,
    /// Exit group index (`None` when ungrouped).
    pub group: Option<u16>,
    /// Which connections it may serve.
    pub kind: ExitKind,
}

impl ShapeExit {
    /// Whether this exit can meet `other` face to face: opposite facings,
    /// the same width.
    pub fn mates(&self, other: &ShapeExit) -> bool {
        self.dir == other.dir.opposite() && self.cells.len() == other.cells.len()
    }
}

/// A template ready for placement.
#[derive(Clone, Debug)]
pub struct Shape {
    /// Index of the template in the library.
    pub template: usize,
    /// Index of the template it is a variant of (its own when drawn as is):
    /// a level uses each template once, whichever way it is turned.
    pub base: usize,
    /// Width of the art.
    pub width: i32,
    /// Height of the art.
    pub height: i32,
    /// Solid cells (the footprint), row-major.
    pub footprint: Vec<Pos>,
    /// The solid cells of each row as bits (bit `x` for column `x`; art is
    /// at most 128 tiles wide).
    pub rows: Vec<u128>,
    /// Exits.
    pub exits: Vec<ShapeExit>,
    /// Category of the template.
    pub category: String,
    /// Choice weight of the template.
    pub weight: f64,
}

impl Shape {
    /// Prepares the template at `index` of the library, a version of the
    /// template at `base` (its own index when drawn as is).
    pub fn new(index: usize, base: usize, t: &RoomTemplate) -> Shape {
        let mut groups: Vec<&str> = Vec::new();
        let exits = t
            .exits
            .iter()
            .map(|e| ShapeExit {
                cells: e.cells.clone(),
                dir: e.dir,
                group: e
                    .group
                    .as_deref()
                    .map(|g| match groups.iter().position(|x| *x == g) {
                        Some(i) => i as u16,
                        None => {
                            groups.push(g);
                            (groups.len() - 1) as u16
                        }
                    }),
                kind: e.kind,
            })
            .collect();
        let solid: Vec<bool> = t.tiles.iter().map(|tile| *tile != Tile::Void).collect();
        let footprint = (0..t.height)
            .flat_map(|y| (0..t.width).map(move |x| Pos::new(x, y)))
            .filter(|p| solid[(p.y * t.width + p.x) as usize])
            .collect();
        let rows = (0..t.height)
            .map(|y| {
                (0..t.width.min(128))
                    .filter(|&x| solid[(y * t.width + x) as usize])
                    .fold(0u128, |m, x| m | 1 << x)
            })
            .collect();
        Shape {
            template: index,
            base,
            width: t.width,
            height: t.height,
            footprint,
            rows,
            exits,
            category: t.category.clone(),
            weight: t.weight,
        }
    }

    /// Whether this shape, placed at `pos`, has a solid cell in the
    /// rectangle from `lo` to `hi` (inclusive).
    pub fn covers(&self, pos: Pos, lo: Pos, hi: Pos) -> bool {
        let x0 = (lo.x - pos.x).max(0);
        let x1 = (hi.x - pos.x).min(self.width.min(128) - 1);
        let y0 = (lo.y - pos.y).max(0);
        let y1 = (hi.y - pos.y).min(self.height - 1);
        if x0 > x1 || y0 > y1 {
            return false;
        }
        let span = (x1 - x0 + 1) as u32;
        let mask = if span == 128 {
            u128::MAX
        } else {
            ((1u128 << span) - 1) << x0
        };
        (y0..=y1).any(|y| self.rows[y as usize] & mask != 0)
    }
}
