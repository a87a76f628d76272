//! Reading a `dungeonflow-level/1` JSON file back into a [`Level`].

use std::collections::BTreeSet;

use serde::Deserialize;

use super::{Connection, Item, LEVEL_FORMAT, Level, Marker, Room, TileKind};

/// The file as written by [`Level`]'s `Serialize` (the legend is implied by
/// the format and not read).
#[derive(Deserialize)]
struct LevelFile {
    format: String,
    #[serde(default)]
    generator: String,
    #[serde(default)]
    flow: String,
    #[serde(default)]
    seed: u64,
    width: i32,
    height: i32,
    tiles: Vec<String>,
    rooms: Vec<Room>,
    #[serde(default)]
    connections: Vec<Connection>,
    #[serde(default)]
    items: Vec<Item>,
    #[serde(default)]
    markers: Vec<Marker>,
}

impl Level {
    /// Parses a `dungeonflow-level/1` JSON text. Checks what a reader relies
    /// on: the format field, the tile grid's size and characters, unique room
    /// ids, at least one room, and connections and items that name known
    /// rooms (the geometry is not re-checked; see [`Level::check`]).
    pub fn from_json(text: &str) -> Result<Level, String> {
        let file: LevelFile =
            serde_json::from_str(text).map_err(|e| format!("not a level file: {e}"))?;
        if file.format != LEVEL_FORMAT {
            return Err(format!(
                "format is `{}`, expected `{LEVEL_FORMAT}`",
                file.format
            ));
        }
        if file.width < 0 || file.height < 0 || file.tiles.len() != file.height as usize {
            return Err(format!(
                "{} tile rows for a height of {}",
                file.tiles.len(),
                file.height
            ));
        }
        // The rows' own lengths bound the grid: a width edited to billions
        // must not reserve memory before the rows are checked against it.
        let mut tiles = Vec::with_capacity(file.tiles.iter().map(String::len).sum());
        for (y, row) in file.tiles.iter().enumerate() {
            if row.chars().count() != file.width as usize {
                return Err(format!(
                    "tile row {y} has {} characters, the width is {}",
                    row.chars().count(),
                    file.width
                ));
            }
            for c in row.chars() {
                let kind = TileKind::ALL
                    .iter()
                    .find(|k| k.glyph() == c)
                    .ok_or_else(|| format!("tile row {y} has an unknown character {c:?}"))?;
                tiles.push(*kind);
            }
        }
        if file.rooms.is_empty() {
            return Err("the level has no rooms".to_owned());
        }
        let mut ids = BTreeSet::new();
        for r in &file.rooms {
            if !ids.insert(r.id.as_str()) {
                return Err(format!("room id `{}` is used twice", r.id));
            }
        }
        for c in &file.connections {
            for end in [&c.from, &c.to] {
                if !ids.contains(end.as_str()) {
                    return Err(format!(
                        "connection {} -> {} names room `{end}`, which is not in `rooms`",
                        c.from, c.to
                    ));
                }
            }
        }
        for i in &file.items {
            if !ids.contains(i.room.as_str()) {
                return Err(format!(
                    "{} `{}` lies in room `{}`, which is not in `rooms`",
                    i.kind, i.id, i.room
                ));
            }
        }
        for m in &file.markers {
            if !ids.contains(m.room.as_str()) {
                return Err(format!(
                    "marker `{}` at ({}, {}) lies in room `{}`, which is not in `rooms`",
                    m.kind, m.x, m.y, m.room
                ));
            }
        }
        Ok(Level {
            generator: file.generator,
            flow: file.flow,
            seed: file.seed,
            width: file.width,
            height: file.height,
            tiles,
            rooms: file.rooms,
            connections: file.connections,
            items: file.items,
            markers: file.markers,
        })
    }
}
