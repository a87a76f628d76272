//! What the picture renderers (PNG, SVG) share: which room owns each tile,
//! where each room's label goes, and which way a one-way door points.

use crate::level::{Connection, Level, TileKind};

/// Facts about a level that pictures need, computed once.
pub struct Scene<'a> {
    /// The level.
    pub level: &'a Level,
    /// Index of the room owning each tile (row-major), if any.
    owner: Vec<Option<usize>>,
}

impl<'a> Scene<'a> {
    /// Indexes the rooms' footprints.
    pub fn new(level: &'a Level) -> Scene<'a> {
        let mut owner = vec![None; level.tiles.len()];
        for (i, room) in level.rooms.iter().enumerate() {
            for &[x, y] in &room.cells {
                if let Some(slot) = index(level, x, y).and_then(|k| owner.get_mut(k)) {
                    *slot = Some(i);
                }
            }
        }
        Scene { level, owner }
    }

    /// The room owning tile (x, y).
    pub fn owner(&self, x: i32, y: i32) -> Option<usize> {
        index(self.level, x, y).and_then(|k| self.owner[k])
    }

    /// The category of the room owning (x, y), if any.
    #[cfg(feature = "png")]
    pub fn category(&self, x: i32, y: i32) -> Option<&'a str> {
        let level = self.level;
        self.owner(x, y).map(|i| level.rooms[i].category.as_str())
    }

    /// Centre of a room's floor, in tiles (fractional): the label position.
    pub fn label_anchor(&self, room: usize) -> (f32, f32) {
        let r = &self.level.rooms[room];
        let floor: Vec<&[i32; 2]> = r
            .cells
            .iter()
            .filter(|[x, y]| self.level.tile(*x, *y) == TileKind::Floor)
            .collect();
        let cells = if floor.is_empty() {
            r.cells.iter().collect()
        } else {
            floor
        };
        let n = cells.len().max(1) as f32;
        let cx = cells.iter().map(|c| c[0] as f32 + 0.5).sum::<f32>() / n;
        let cy = cells.iter().map(|c| c[1] as f32 + 0.5).sum::<f32>() / n;
        // Snap to the nearest floor cell so labels of L-shaped rooms stay inside.
        let best = cells
            .iter()
            .min_by(|a, b| {
                let da = (a[0] as f32 + 0.5 - cx).powi(2) + (a[1] as f32 + 0.5 - cy).powi(2);
                let db = (b[0] as f32 + 0.5 - cx).powi(2) + (b[1] as f32 + 0.5 - cy).powi(2);
                da.total_cmp(&db)
            })
            .map(|c| (c[0] as f32 + 0.5, c[1] as f32 + 0.5));
        best.unwrap_or((
            r.x as f32 + r.width as f32 / 2.0,
            r.y as f32 + r.height as f32 / 2.0,
        ))
    }

    /// The one-way doors: each door tile with the unit step (dx, dy) a
    /// player takes through it.
    pub fn one_way_steps(&self) -> Vec<([i32; 2], [i32; 2])> {
        self.level
            .connections
            .iter()
            .filter(|c| c.one_way)
            .flat_map(|c| self.steps_of(c))
            .collect()
    }

    fn steps_of(&self, c: &Connection) -> Vec<([i32; 2], [i32; 2])> {
        let to = self.level.rooms.iter().position(|r| r.id == c.to);
        c.path
            .iter()
            .enumerate()
            .filter(|(_, [x, y])| self.level.tile(*x, *y) == TileKind::OneWayDoor)
            .map(|(i, &cell)| (cell, self.step_at(c, i, to)))
            .collect()
    }

    /// Direction of travel at path index `i`: along the path when it has a
    /// neighbour, otherwise towards the target room's side of the door.
    fn step_at(&self, c: &Connection, i: usize, to: Option<usize>) -> [i32; 2] {
        let here = c.path[i];
        if let Some(next) = c.path.get(i + 1) {
            return [next[0] - here[0], next[1] - here[1]];
        }
        if i > 0 {
            let prev = c.path[i - 1];
            return [here[0] - prev[0], here[1] - prev[1]];
        }
        let sides = [[1, 0], [-1, 0], [0, 1], [0, -1]];
        sides
            .into_iter()
            .find(|[dx, dy]| to.is_some() && self.owner(here[0] + dx, here[1] + dy) == to)
            .unwrap_or([1, 0])
    }
}

fn index(level: &Level, x: i32, y: i32) -> Option<usize> {
    (x >= 0 && y >= 0 && x < level.width && y < level.height)
        .then(|| (y * level.width + x) as usize)
}
