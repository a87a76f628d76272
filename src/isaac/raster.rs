//! A floor plan as a [`Level`]: each cell becomes a block of tiles (a 13x7
//! floor inside its walls), large rooms span their cells' blocks, narrow
//! rooms keep a 3-tile band, and each door sits in the middle of its cell's
//! side.

use super::grid::Dir;
use super::plan::{FloorPlan, RoomKind};
use crate::level::{Connection, ConnectionKind, Level, Room, TileKind};

/// Tiles across one cell: a 13-tile floor and its two walls.
pub const CELL_WIDTH: i32 = 15;
/// Tiles down one cell: a 7-tile floor and its two walls.
pub const CELL_HEIGHT: i32 = 9;
/// Rows of a cell a horizontal narrow room keeps (3 floor rows and walls).
const NARROW_ROWS: std::ops::RangeInclusive<i32> = 2..=6;
/// Columns of a cell a vertical narrow room keeps.
const NARROW_COLUMNS: std::ops::RangeInclusive<i32> = 5..=9;

/// The level of a finished plan.
pub fn rasterise(plan: &FloorPlan, flow: &str, seed: u64) -> Level {
    let cells: Vec<(i32, i32)> = (0..plan.rooms.len())
        .flat_map(|r| plan.cells(r).map(|c| plan.grid.xy(c)))
        .collect();
    let min_x = cells.iter().map(|c| c.0).min().unwrap_or(1);
    let min_y = cells.iter().map(|c| c.1).min().unwrap_or(0);
    let max_x = cells.iter().map(|c| c.0).max().unwrap_or(1);
    let max_y = cells.iter().map(|c| c.1).max().unwrap_or(0);
    let width = (max_x - min_x + 1) * CELL_WIDTH;
    let height = (max_y - min_y + 1) * CELL_HEIGHT;
    let origin = |cell: usize| {
        let (x, y) = plan.grid.xy(cell);
        ((x - min_x) * CELL_WIDTH, (y - min_y) * CELL_HEIGHT)
    };

    let mut owner = vec![usize::MAX; (width * height) as usize];
    for r in 0..plan.rooms.len() {
        let narrow = plan.rooms[r].shape.narrow();
        for cell in plan.cells(r) {
            let (bx, by) = origin(cell);
            for ly in 0..CELL_HEIGHT {
                for lx in 0..CELL_WIDTH {
                    let kept = match narrow {
                        Some(true) => NARROW_ROWS.contains(&ly),
                        Some(false) => NARROW_COLUMNS.contains(&lx),
                        None => true,
                    };
                    if kept {
                        owner[((by + ly) * width + bx + lx) as usize] = r;
                    }
                }
            }
        }
    }
    let on_map = |x: i32, y: i32| (0..width).contains(&x) && (0..height).contains(&y);
    let mut tiles = vec![TileKind::Void; owner.len()];
    let mut footprints: Vec<Vec<[i32; 2]>> = vec![Vec::new(); plan.rooms.len()];
    for y in 0..height {
        for x in 0..width {
            let r = owner[(y * width + x) as usize];
            if r == usize::MAX {
                continue;
            }
            let inner = (-1..=1).all(|dy| {
                (-1..=1).all(|dx| {
                    on_map(x + dx, y + dy) && owner[((y + dy) * width + x + dx) as usize] == r
                })
            });
            tiles[(y * width + x) as usize] = if inner {
                TileKind::Floor
            } else {
                TileKind::Wall
            };
            footprints[r].push([x, y]);
        }
    }

    let depths = plan.depths();
    let door_tile = |cell: usize, side: Dir| {
        let (bx, by) = origin(cell);
        let (lx, ly) = match side {
            Dir::Left => (0, CELL_HEIGHT / 2),
            Dir::Right => (CELL_WIDTH - 1, CELL_HEIGHT / 2),
            Dir::Up => (CELL_WIDTH / 2, 0),
            Dir::Down => (CELL_WIDTH / 2, CELL_HEIGHT - 1),
        };
        [bx + lx, by + ly]
    };
    let ids: Vec<String> = (0..plan.rooms.len()).map(|r| room_id(plan, r)).collect();
    let mut connections = Vec::new();
    for door in plan.doors() {
        let here = door_tile(door.a_cell, door.side);
        let there = door_tile(door.b_cell, door.side.opposite());
        for [x, y] in [here, there] {
            tiles[(y * width + x) as usize] = TileKind::Door;
        }
        let (from, to, path) = if depths[door.b] < depths[door.a] {
            (door.b, door.a, vec![there, here])
        } else {
            (door.a, door.b, vec![here, there])
        };
        connections.push(Connection {
            from: ids[from].clone(),
            to: ids[to].clone(),
            kind: ConnectionKind::Door,
            one_way: false,
            lock: None,
            path,
            properties: Default::default(),
        });
    }

    let rooms = plan
        .rooms
        .iter()
        .enumerate()
        .map(|(r, room)| {
            let cells = std::mem::take(&mut footprints[r]);
            let x = cells.iter().map(|c| c[0]).min().unwrap_or(0);
            let y = cells.iter().map(|c| c[1]).min().unwrap_or(0);
            let right = cells.iter().map(|c| c[0]).max().unwrap_or(0);
            let bottom = cells.iter().map(|c| c[1]).max().unwrap_or(0);
            let kind = if room.pool.is_empty() {
                room.kind.category()
            } else {
                room.pool
            };
            Room {
                id: ids[r].clone(),
                category: room.kind.category().to_owned(),
                template: format!("{kind}/{}", room.shape.name()),
                transform: None,
                x,
                y,
                width: right - x + 1,
                height: bottom - y + 1,
                cells,
                properties: Default::default(),
            }
        })
        .collect();
    Level {
        generator: "isaac".to_owned(),
        flow: flow.to_owned(),
        seed,
        width,
        height,
        tiles,
        rooms,
        connections,
        items: Vec::new(),
        markers: Vec::new(),
    }
}

/// A room's id: its kind and its first cell number (`start-35`, `room-36`,
/// `boss-58`...), so ids name places on the grid.
fn room_id(plan: &FloorPlan, r: usize) -> String {
    let first = plan.cells(r).min().unwrap_or(0);
    let kind = match plan.rooms[r].kind {
        RoomKind::Start => "start",
        RoomKind::Normal | RoomKind::Extra => "room",
        other => other.category(),
    };
    format!("{kind}-{first:02}")
}
