//! Turning a laid-out map into a [`Level`]: tiles, rooms, connections, keys.

use std::collections::{BTreeSet, HashMap};

use petgraph::visit::EdgeRef;

use super::ShapeTable;
use super::canvas::{Canvas, LinkKind};
use crate::geom::Pos;
use crate::graph::{EdgeKind, LevelGraph};
use crate::level::{Connection, ConnectionKind, Item, Level, Room, TileKind};
use crate::rooms::{RoomLibrary, Tile};

/// Rasterises `map` (every room of `graph` placed, every physical edge
/// realised) into a level whose origin leaves one tile of margin.
pub fn build_level(
    graph: &LevelGraph,
    library: &RoomLibrary,
    table: &ShapeTable,
    map: &Canvas,
    generator: &str,
) -> Level {
    let (lo, hi) = map
        .bounds(&table.shapes)
        .unwrap_or((Pos::new(0, 0), Pos::new(0, 0)));
    let (ox, oy) = (lo.x - 1, lo.y - 1);
    let (width, height) = (hi.x - lo.x + 3, hi.y - lo.y + 3);
    let mut tiles = vec![TileKind::Void; (width * height) as usize];
    let at = |p: Pos| ((p.y - oy) * width + (p.x - ox)) as usize;
    let mut rooms_by_node: Vec<Option<usize>> = vec![None; graph.graph.node_count()];
    let mut order: Vec<&super::canvas::PlacedRoom> = map.rooms.iter().collect();
    order.sort_by_key(|r| r.node.index());
    let mut rooms = Vec::with_capacity(order.len());
    for r in &order {
        let shape = &table.shapes[r.shape];
        let template = &library.templates()[shape.template];
        let mut cells = Vec::with_capacity(shape.footprint.len());
        for c in &shape.footprint {
            let p = Pos::new(r.pos.x + c.x, r.pos.y + c.y);
            tiles[at(p)] = match template.tile(*c) {
                Tile::Floor => TileKind::Floor,
                Tile::Pillar => TileKind::Pillar,
                Tile::Pit => TileKind::Pit,
                Tile::Wall | Tile::Void => TileKind::Wall,
            };
            cells.push([p.x - ox, p.y - oy]);
        }
        for (i, e) in shape.exits.iter().enumerate() {
            if r.used[i] {
                for c in &e.cells {
                    tiles[at(Pos::new(r.pos.x + c.x, r.pos.y + c.y))] = TileKind::Door;
                }
            }
        }
        rooms_by_node[r.node.index()] = Some(rooms.len());
        let node = &graph.graph[r.node];
        rooms.push(Room {
            id: node.id.clone(),
            category: node.category.clone(),
            template: template.name.clone(),
            x: r.pos.x - ox,
            y: r.pos.y - oy,
            width: shape.width,
            height: shape.height,
            cells,
        });
    }
    for &c in &map.corridor {
        tiles[at(c)] = TileKind::Corridor;
    }
    for &c in &map.corridor {
        for dy in -1..=1 {
            for dx in -1..=1 {
                let i = at(Pos::new(c.x + dx, c.y + dy));
                if tiles[i] == TileKind::Void {
                    tiles[i] = TileKind::Wall;
                }
            }
        }
    }
    let links: HashMap<_, _> = map.links.iter().map(|l| (l.edge, l)).collect();
    let mut connections = Vec::new();
    for e in graph.graph.edge_references() {
        let w = e.weight();
        let (kind, path) = match (w.kind, links.get(&e.id())) {
            (EdgeKind::Warp, _) | (_, None) => (ConnectionKind::Warp, Vec::new()),
            (_, Some(l)) => {
                let kind = if l.kind == LinkKind::Door {
                    ConnectionKind::Door
                } else {
                    ConnectionKind::Corridor
                };
                (
                    kind,
                    l.path
                        .iter()
                        .map(|p| [p.x - ox, p.y - oy])
                        .collect::<Vec<_>>(),
                )
            }
        };
        if let (Some(first), Some(last)) = (path.first(), path.last()) {
            let glyph = if w.lock.is_some() {
                Some(TileKind::LockedDoor)
            } else if w.one_way {
                Some(TileKind::OneWayDoor)
            } else {
                None
            };
            if let Some(g) = glyph {
                for &[x, y] in [first, last] {
                    tiles[(y * width + x) as usize] = g;
                }
            }
        }
        connections.push(Connection {
            from: graph.graph[e.source()].id.clone(),
            to: graph.graph[e.target()].id.clone(),
            kind,
            one_way: w.one_way,
            lock: w.lock.clone(),
            path,
        });
    }
    let mut taken: BTreeSet<(i32, i32)> = BTreeSet::new();
    let mut items = Vec::new();
    for n in graph.graph.node_indices() {
        let Some(ri) = rooms_by_node[n.index()] else {
            continue;
        };
        for key in &graph.graph[n].keys {
            let room = &rooms[ri];
            let (cx, cy) = (room.x * 2 + room.width, room.y * 2 + room.height);
            let spot = room
                .cells
                .iter()
                .filter(|[x, y]| {
                    tiles[(y * width + x) as usize] == TileKind::Floor && !taken.contains(&(*x, *y))
                })
                .min_by_key(|[x, y]| ((x * 2 - cx).abs() + (y * 2 - cy).abs(), *y, *x));
            if let Some(&[x, y]) = spot {
                taken.insert((x, y));
                items.push(Item {
                    kind: "key".to_owned(),
                    id: key.clone(),
                    room: room.id.clone(),
                    x,
                    y,
                });
            }
        }
    }
    Level {
        generator: generator.to_owned(),
        flow: graph.flow.clone(),
        seed: graph.seed,
        width,
        height,
        tiles,
        rooms,
        connections,
        items,
    }
}
