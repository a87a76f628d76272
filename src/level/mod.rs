//! The `Level` model every generator produces and every renderer reads: a
//! tile grid, rooms with their footprints, connections with their paths, and
//! items. [`Level::check`] verifies its invariants.

mod check;
mod json;
mod read;
mod snapshot;

use serde::{Deserialize, Serialize};

use crate::properties::Properties;

pub use check::LevelError;
pub use json::LEVEL_FORMAT;

/// What a tile of the level is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, PartialOrd, Ord)]
#[serde(rename_all = "snake_case")]
pub enum TileKind {
    /// Nothing.
    Void,
    /// Wall.
    Wall,
    /// Room floor.
    Floor,
    /// An open door.
    Door,
    /// A locked door.
    LockedDoor,
    /// A one-way door.
    OneWayDoor,
    /// Corridor floor.
    Corridor,
    /// A pillar on the floor (solid).
    Pillar,
    /// A pit (impassable).
    Pit,
}

impl TileKind {
    /// Every kind, in legend order.
    pub const ALL: [TileKind; 9] = [
        TileKind::Void,
        TileKind::Wall,
        TileKind::Floor,
        TileKind::Door,
        TileKind::LockedDoor,
        TileKind::OneWayDoor,
        TileKind::Corridor,
        TileKind::Pillar,
        TileKind::Pit,
    ];

    /// The character of this kind in ASCII and JSON tiles.
    pub fn glyph(self) -> char {
        match self {
            TileKind::Void => ' ',
            TileKind::Wall => '#',
            TileKind::Floor => '.',
            TileKind::Door => '+',
            TileKind::LockedDoor => '=',
            TileKind::OneWayDoor => '>',
            TileKind::Corridor => ',',
            TileKind::Pillar => 'o',
            TileKind::Pit => '^',
        }
    }

    /// The legend name.
    pub fn name(self) -> &'static str {
        match self {
            TileKind::Void => "void",
            TileKind::Wall => "wall",
            TileKind::Floor => "floor",
            TileKind::Door => "door",
            TileKind::LockedDoor => "locked_door",
            TileKind::OneWayDoor => "one_way_door",
            TileKind::Corridor => "corridor",
            TileKind::Pillar => "pillar",
            TileKind::Pit => "pit",
        }
    }

    /// Whether a player can stand on it.
    pub fn is_walkable(self) -> bool {
        matches!(
            self,
            TileKind::Floor
                | TileKind::Door
                | TileKind::LockedDoor
                | TileKind::OneWayDoor
                | TileKind::Corridor
        )
    }
}

/// A room of the level.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Room {
    /// Room id (unique in the level).
    pub id: String,
    /// Category.
    pub category: String,
    /// Template name (as drawn, for a rotated or mirrored variant).
    pub template: String,
    /// How the template was turned: `rotate90`, `rotate180`, `rotate270`,
    /// `mirror_x` or `mirror_y` (left out of the JSON when drawn as is).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub transform: Option<String>,
    /// Left of its bounding box.
    pub x: i32,
    /// Top of its bounding box.
    pub y: i32,
    /// Bounding box width.
    pub width: i32,
    /// Bounding box height.
    pub height: i32,
    /// Every cell of its footprint (floor and walls), row by row.
    pub cells: Vec<[i32; 2]>,
    /// Gameplay data: its template's `properties:` with its flow node's
    /// laid over them (left out of the JSON when empty).
    #[serde(default, skip_serializing_if = "Properties::is_empty")]
    pub properties: Properties,
}

/// How a connection is realised.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ConnectionKind {
    /// The rooms touch through a door.
    Door,
    /// A corridor joins them.
    Corridor,
    /// A teleporter: no tiles.
    Warp,
}

/// A connection between two rooms.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Connection {
    /// Source room id.
    pub from: String,
    /// Target room id.
    pub to: String,
    /// Door, corridor or warp.
    pub kind: ConnectionKind,
    /// Passable only from `from` to `to`.
    pub one_way: bool,
    /// Key id that opens it.
    pub lock: Option<String>,
    /// Door and corridor tiles from `from` to `to`, 4-connected (empty for warps).
    pub path: Vec<[i32; 2]>,
    /// Gameplay data from the flow edge (left out of the JSON when empty).
    #[serde(default, skip_serializing_if = "Properties::is_empty")]
    pub properties: Properties,
}

/// A marker of a room's template that the level keeps: a spot where the
/// game puts an enemy, a chest, a torch...
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Marker {
    /// What it marks, as the template's legend names it.
    pub kind: String,
    /// Room id.
    pub room: String,
    /// Tile column.
    pub x: i32,
    /// Tile row.
    pub y: i32,
    /// Its data, from the legend entry (left out of the JSON when empty).
    #[serde(default, skip_serializing_if = "Properties::is_empty")]
    pub properties: Properties,
}

/// Something lying in a room.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Item {
    /// `key`.
    pub kind: String,
    /// Key id.
    pub id: String,
    /// Room id.
    pub room: String,
    /// Tile column.
    pub x: i32,
    /// Tile row.
    pub y: i32,
}

/// A generated level.
#[derive(Clone, Debug, PartialEq)]
pub struct Level {
    /// `flow`, `isaac`, `scatter` or `nested_puzzle`.
    pub generator: String,
    /// Name of the flow file.
    pub flow: String,
    /// Seed.
    pub seed: u64,
    /// Width in tiles.
    pub width: i32,
    /// Height in tiles.
    pub height: i32,
    /// Row-major tiles.
    pub tiles: Vec<TileKind>,
    /// Rooms; the first is the entrance.
    pub rooms: Vec<Room>,
    /// Connections.
    pub connections: Vec<Connection>,
    /// Items (keys).
    pub items: Vec<Item>,
    /// Markers of the rooms' templates, room by room in reading order.
    pub markers: Vec<Marker>,
}

impl Level {
    /// The tile at (x, y), `Void` outside.
    pub fn tile(&self, x: i32, y: i32) -> TileKind {
        if x < 0 || y < 0 || x >= self.width || y >= self.height {
            TileKind::Void
        } else {
            self.tiles[(y * self.width + x) as usize]
        }
    }

    /// The tile rows as strings of glyphs.
    pub fn rows(&self) -> Vec<String> {
        (0..self.height)
            .map(|y| (0..self.width).map(|x| self.tile(x, y).glyph()).collect())
            .collect()
    }

    /// The room with id `id`.
    pub fn room(&self, id: &str) -> Option<&Room> {
        self.rooms.iter().find(|r| r.id == id)
    }
}
