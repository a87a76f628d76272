//! Stage 6: the plan drawn into a [`Level`]: room floors and wall rings,
//! corridors with walls on every void tile next to them, doors where
//! corridors pass through walls, and one connection per stretch of corridor
//! between two rooms.

use std::collections::BTreeSet;

use crate::geom::Pos;
use crate::level::{Connection, ConnectionKind, Level, Room, TileKind};

use super::band::band;
use super::grid::Grid;
use super::plan::Plan;
use super::rect::Rect;

/// Template name of main rooms.
pub const MAIN_TEMPLATE: &str = "scatter-main";
/// Template name of the filler rooms kept on corridors.
pub const FILLER_TEMPLATE: &str = "scatter-filler";

impl Plan {
    /// The level of this plan. Rooms: the entrance first, the other main
    /// rooms outwards from it, then the kept filler rooms.
    pub fn level(&self, flow: &str, seed: u64) -> Level {
        let order: Vec<usize> = self.roles.order.iter().chain(&self.kept).copied().collect();
        let floors: Vec<Rect> = order.iter().map(|&r| self.floors[r]).collect();
        let owners = Grid::new(&floors, &[], 0);
        let bands: Vec<Vec<Pos>> = self
            .routes
            .iter()
            .map(|r| band(&r.path, self.width))
            .collect();
        let bounds = floors
            .iter()
            .map(Rect::footprint)
            .chain(bands.iter().flatten().map(|p| Rect::new(p.x, p.y, 1, 1)))
            .reduce(|a, b| a.union(&b))
            .unwrap_or(Rect::new(0, 0, 1, 1))
            .grown(1);
        let at = |p: Pos| ((p.y - bounds.y) * bounds.w + (p.x - bounds.x)) as usize;
        let local = |p: Pos| [p.x - bounds.x, p.y - bounds.y];
        let mut tiles = vec![TileKind::Void; bounds.w as usize * bounds.h as usize];
        for f in &floors {
            for p in f.footprint().tiles() {
                tiles[at(p)] = if f.contains(p) {
                    TileKind::Floor
                } else {
                    TileKind::Wall
                };
            }
        }
        for p in bands.iter().flatten().copied() {
            match owners.owner(p) {
                Some(k) if !floors[k].contains(p) => tiles[at(p)] = TileKind::Door,
                Some(_) => {}
                None => tiles[at(p)] = TileKind::Corridor,
            }
        }
        for p in bounds.grown(-1).tiles() {
            let next_to_corridor = || {
                Rect::new(p.x - 1, p.y - 1, 3, 3)
                    .tiles()
                    .any(|q| tiles[at(q)] == TileKind::Corridor)
            };
            if tiles[at(p)] == TileKind::Void && next_to_corridor() {
                tiles[at(p)] = TileKind::Wall;
            }
        }
        let ids = self.ids(&order);
        let rooms = order
            .iter()
            .zip(&floors)
            .zip(&ids)
            .map(|((&r, f), id)| {
                let print = f.footprint();
                let main = self.main.binary_search(&r).is_ok();
                Room {
                    id: id.clone(),
                    category: self.category(r).to_owned(),
                    template: if main { MAIN_TEMPLATE } else { FILLER_TEMPLATE }.to_owned(),
                    transform: None,
                    x: print.x - bounds.x,
                    y: print.y - bounds.y,
                    width: print.w,
                    height: print.h,
                    cells: print.tiles().map(local).collect(),
                    properties: Default::default(),
                }
            })
            .collect();
        let mut seen = BTreeSet::new();
        let mut connections = Vec::new();
        for route in &self.routes {
            for (a, b, path) in stretches(&owners, &route.path) {
                if seen.insert((a.min(b), a.max(b))) {
                    connections.push(Connection {
                        from: ids[a].clone(),
                        to: ids[b].clone(),
                        kind: if path.len() == 2 {
                            ConnectionKind::Door
                        } else {
                            ConnectionKind::Corridor
                        },
                        one_way: false,
                        lock: None,
                        path: path.into_iter().map(local).collect(),
                        properties: Default::default(),
                    });
                }
            }
        }
        Level {
            generator: "scatter".to_owned(),
            flow: flow.to_owned(),
            seed,
            width: bounds.w,
            height: bounds.h,
            tiles,
            rooms,
            connections,
            items: Vec::new(),
            markers: Vec::new(),
        }
    }

    /// Category of room `r`: `entrance`, `boss`, `normal` for the other
    /// main rooms, `connector` for filler rooms.
    fn category(&self, r: usize) -> &'static str {
        if self.roles.entrance() == Some(r) {
            "entrance"
        } else if self.roles.boss == Some(r) {
            "boss"
        } else if self.main.binary_search(&r).is_ok() {
            "normal"
        } else {
            "connector"
        }
    }

    /// Ids of the rooms of `order`: `entrance`, `boss`, main rooms `m1`,
    /// `m2`, ... and filler rooms `f1`, `f2`, ... in that order.
    fn ids(&self, order: &[usize]) -> Vec<String> {
        let (mut m, mut f) = (0, 0);
        order
            .iter()
            .map(|&r| match self.category(r) {
                "entrance" | "boss" => self.category(r).to_owned(),
                "normal" => {
                    m += 1;
                    format!("m{m}")
                }
                _ => {
                    f += 1;
                    format!("f{f}")
                }
            })
            .collect()
    }
}

/// The stretches of a corridor's centreline between two rooms, as
/// `(room, room, path)`: the last tile in the first room, the tiles outside
/// every room, the first tile in the next room. A corridor through a filler
/// room gives two stretches; leaving and re-entering one room gives none.
fn stretches(owners: &Grid, path: &[Pos]) -> Vec<(usize, usize, Vec<Pos>)> {
    let mut out = Vec::new();
    let Some(&first) = path.first() else {
        return out;
    };
    let (mut room, mut last, mut run) = (owners.owner(first), first, Vec::new());
    for &p in &path[1..] {
        let Some(k) = owners.owner(p) else {
            run.push(p);
            continue;
        };
        if let Some(j) = room.filter(|&j| j != k) {
            let mut stretch = vec![last];
            stretch.append(&mut run);
            stretch.push(p);
            out.push((j, k, stretch));
        }
        (room, last) = (Some(k), p);
        run.clear();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_corridor_through_a_filler_room_is_two_stretches() {
        let floors = [
            Rect::new(0, 0, 3, 3),
            Rect::new(6, 0, 3, 3),
            Rect::new(14, 0, 3, 3),
        ];
        let owners = Grid::new(&floors, &[], 0);
        // From room 0's east wall (x = 3) to room 2's west wall (x = 13).
        let path: Vec<Pos> = (3..=13).map(|x| Pos::new(x, 1)).collect();
        let s = stretches(&owners, &path);
        assert_eq!(s.len(), 2);
        assert_eq!((s[0].0, s[0].1, s[0].2.len()), (0, 1, 3)); // 3, 4, 5
        assert_eq!((s[1].0, s[1].1, s[1].2.len()), (1, 2, 5)); // 9 ..= 13
    }
}
