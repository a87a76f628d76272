//! Template geometry prepared for fast placement: solid mask, bounding box,
//! exits with their local cells.

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

/// A template ready for placement.
#[derive(Clone, Debug)]
pub struct Shape {
    /// Index of the template in the library.
    pub template: usize,
    /// Width of the art.
    pub width: i32,
    /// Height of the art.
    pub height: i32,
    /// Row-major: whether the cell belongs to the room (wall or inside).
    pub solid: Vec<bool>,
    /// Solid cells (the footprint), row-major.
    pub footprint: Vec<Pos>,
    /// Exits.
    pub exits: Vec<ShapeExit>,
    /// Category of the template.
    pub category: String,
    /// Tags of the template (what flow pools name).
    pub tags: Vec<String>,
    /// Choice weight of the template.
    pub weight: f64,
}

impl Shape {
    /// Prepares a template.
    pub fn new(index: usize, t: &RoomTemplate) -> Shape {
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
        Shape {
            template: index,
            width: t.width,
            height: t.height,
            solid,
            footprint,
            exits,
            category: t.category.clone(),
            tags: t.tags.clone(),
            weight: t.weight,
        }
    }

    /// Whether the local cell is part of the room.
    pub fn is_solid(&self, p: Pos) -> bool {
        p.x >= 0
            && p.y >= 0
            && p.x < self.width
            && p.y < self.height
            && self.solid[(p.y * self.width + p.x) as usize]
    }
}
