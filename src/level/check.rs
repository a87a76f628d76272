//! The invariants of a [`Level`].

use std::collections::{BTreeMap, HashMap, VecDeque};

use super::{ConnectionKind, Level};

/// A broken invariant.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct LevelError(pub String);

impl Level {
    /// Checks that the first room, where the player starts, is the entrance.
    pub fn check_entrance(&self) -> Result<(), LevelError> {
        match self.rooms.first() {
            Some(first) if first.category != "entrance" => Err(LevelError(format!(
                "the first room `{}` is a `{}` room: the first room of a level is its entrance",
                first.id, first.category
            ))),
            _ => Ok(()),
        }
    }

    /// Checks every invariant: tile count; the first room is the entrance;
    /// unique room ids; room cells inside the map and never shared; each
    /// connection path 4-connected, walkable, running from (or next to)
    /// `from` to `to` and crossing no third room; every room reachable from
    /// the first room (one-way doors honoured); items inside their rooms;
    /// markers on their rooms' tiles.
    pub fn check(&self) -> Result<(), LevelError> {
        let fail = |m: String| Err(LevelError(m));
        if self.tiles.len() != (self.width.max(0) * self.height.max(0)) as usize {
            return fail(format!(
                "{} tiles for a {}x{} map",
                self.tiles.len(),
                self.width,
                self.height
            ));
        }
        self.check_entrance()?;
        let mut index: BTreeMap<&str, usize> = BTreeMap::new();
        for (i, r) in self.rooms.iter().enumerate() {
            if index.insert(&r.id, i).is_some() {
                return fail(format!("room id `{}` used twice", r.id));
            }
        }
        let mut owner: HashMap<(i32, i32), usize> = HashMap::new();
        for (i, r) in self.rooms.iter().enumerate() {
            for &[x, y] in &r.cells {
                if x < 0 || y < 0 || x >= self.width || y >= self.height {
                    return fail(format!(
                        "room `{}` has cell ({x}, {y}) outside the map",
                        r.id
                    ));
                }
                if let Some(&j) = owner.get(&(x, y)) {
                    return fail(format!(
                        "rooms `{}` and `{}` overlap at ({x}, {y})",
                        self.rooms[j].id, r.id
                    ));
                }
                owner.insert((x, y), i);
            }
        }
        let near = |room: usize, [x, y]: [i32; 2]| {
            [(0, 0), (1, 0), (-1, 0), (0, 1), (0, -1)]
                .iter()
                .any(|(dx, dy)| owner.get(&(x + dx, y + dy)) == Some(&room))
        };
        for c in &self.connections {
            let (Some(&a), Some(&b)) = (index.get(c.from.as_str()), index.get(c.to.as_str()))
            else {
                return fail(format!(
                    "connection {} -> {} names an unknown room",
                    c.from, c.to
                ));
            };
            if c.kind == ConnectionKind::Warp {
                if !c.path.is_empty() {
                    return fail(format!("warp {} -> {} has tiles", c.from, c.to));
                }
                continue;
            }
            let (Some(&first), Some(&last)) = (c.path.first(), c.path.last()) else {
                return fail(format!("connection {} -> {} has no path", c.from, c.to));
            };
            if !near(a, first) || !near(b, last) {
                return fail(format!(
                    "path of {} -> {} does not run from one room to the other",
                    c.from, c.to
                ));
            }
            for w in c.path.windows(2) {
                if (w[0][0] - w[1][0]).abs() + (w[0][1] - w[1][1]).abs() != 1 {
                    return fail(format!(
                        "path of {} -> {} jumps from {:?} to {:?}",
                        c.from, c.to, w[0], w[1]
                    ));
                }
            }
            for &[x, y] in &c.path {
                if !self.tile(x, y).is_walkable() {
                    return fail(format!(
                        "path of {} -> {} crosses a {} tile at ({x}, {y})",
                        c.from,
                        c.to,
                        self.tile(x, y).name()
                    ));
                }
                if let Some(&o) = owner.get(&(x, y))
                    && o != a
                    && o != b
                {
                    return fail(format!(
                        "path of {} -> {} crosses room `{}`",
                        c.from, c.to, self.rooms[o].id
                    ));
                }
            }
        }
        if let Some(unreached) = self.unreachable_rooms().first() {
            return fail(format!(
                "room `{unreached}` cannot be reached from the entrance"
            ));
        }
        for item in &self.items {
            let Some(&r) = index.get(item.room.as_str()) else {
                return fail(format!(
                    "{} `{}` lies in unknown room `{}`",
                    item.kind, item.id, item.room
                ));
            };
            if owner.get(&(item.x, item.y)) != Some(&r) || !self.tile(item.x, item.y).is_walkable()
            {
                return fail(format!(
                    "{} `{}` is not on the floor of room `{}`",
                    item.kind, item.id, item.room
                ));
            }
        }
        for m in &self.markers {
            if index
                .get(m.room.as_str())
                .is_none_or(|&r| owner.get(&(m.x, m.y)) != Some(&r))
            {
                return fail(format!(
                    "marker `{}` at ({}, {}) is not on a tile of room `{}`",
                    m.kind, m.x, m.y, m.room
                ));
            }
        }
        Ok(())
    }

    /// Ids of rooms that cannot be reached from the first room, passing
    /// one-way connections only forwards (locks ignored).
    pub fn unreachable_rooms(&self) -> Vec<String> {
        self.rooms
            .iter()
            .zip(self.steps_from_entrance())
            .filter(|(_, d)| d.is_none())
            .map(|(r, _)| r.id.clone())
            .collect()
    }

    /// Connections walked from the first room to each room (`None` when
    /// unreachable), passing one-way connections only forwards, locks ignored.
    pub fn steps_from_entrance(&self) -> Vec<Option<usize>> {
        let index: BTreeMap<&str, usize> = self
            .rooms
            .iter()
            .enumerate()
            .map(|(i, r)| (r.id.as_str(), i))
            .collect();
        let mut adj: Vec<Vec<usize>> = vec![Vec::new(); self.rooms.len()];
        for c in &self.connections {
            if let (Some(&a), Some(&b)) = (index.get(c.from.as_str()), index.get(c.to.as_str())) {
                adj[a].push(b);
                if !c.one_way {
                    adj[b].push(a);
                }
            }
        }
        let mut dist = vec![None; self.rooms.len()];
        let mut queue = VecDeque::new();
        if !self.rooms.is_empty() {
            dist[0] = Some(0);
            queue.push_back(0);
        }
        while let Some(v) = queue.pop_front() {
            let next = dist[v].map(|d| d + 1);
            for &w in &adj[v] {
                if dist[w].is_none() {
                    dist[w] = next;
                    queue.push_back(w);
                }
            }
        }
        dist
    }
}
