//! Turning a laid-out map into a [`Level`]: tiles, rooms, connections, keys.

use std::collections::{BTreeSet, HashMap};

use petgraph::visit::EdgeRef;

use super::ShapeTable;
use super::canvas::{Canvas, LinkKind};
use crate::geom::Pos;
use crate::graph::RoomNode;
use crate::graph::{EdgeKind, LevelGraph};
use crate::level::{Connection, ConnectionKind, Item, Level, Marker, Room, TileKind};
use crate::properties::merged;
use crate::rng::Rng;
use crate::rooms::{RoomLibrary, RoomTemplate, Tile};

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
    let mut markers = Vec::new();
    let mut marker_rng = Rng::derive(graph.seed, "markers");
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
        markers.extend(
            kept_markers(template, node, &mut marker_rng).map(|m| Marker {
                kind: m.kind.clone(),
                room: node.id.clone(),
                x: r.pos.x + m.at.x - ox,
                y: r.pos.y + m.at.y - oy,
                properties: m.properties.clone(),
            }),
        );
        rooms.push(Room {
            id: node.id.clone(),
            category: node.category.clone(),
            template: template.base_name().to_owned(),
            transform: template
                .variant
                .as_ref()
                .map(|v| v.transform.name().to_owned()),
            x: r.pos.x - ox,
            y: r.pos.y - oy,
            width: shape.width,
            height: shape.height,
            cells,
            properties: merged(&template.properties, &node.properties),
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
            properties: w.properties.clone(),
        });
    }
    // A key never lies on a marker's tile.
    let mut taken: BTreeSet<(i32, i32)> = markers.iter().map(|m| (m.x, m.y)).collect();
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
        markers,
    }
}

/// The markers of `template` the room of `node` keeps, in reading order:
/// for each kind the node counts (`markers: { enemy: 2..4 }`), a count
/// drawn from its range and that many of the template's markers of the
/// kind drawn at random (all of them when it has fewer); every marker of
/// the other kinds.
fn kept_markers<'t>(
    template: &'t RoomTemplate,
    node: &RoomNode,
    rng: &mut Rng,
) -> impl Iterator<Item = &'t crate::rooms::TemplateMarker> {
    let mut keep = vec![true; template.markers.len()];
    for (kind, (lo, hi)) in &node.markers {
        let mut of_kind: Vec<usize> = (0..template.markers.len())
            .filter(|&i| &template.markers[i].kind == kind)
            .collect();
        let count = rng.range(*lo, *hi) as usize;
        rng.shuffle(&mut of_kind);
        for &i in of_kind.iter().skip(count) {
            keep[i] = false;
        }
    }
    template
        .markers
        .iter()
        .zip(keep)
        .filter_map(|(m, kept)| kept.then_some(m))
}
