//! The `dungeonflow-level/1` JSON contract.

use std::collections::BTreeMap;

use serde::{Serialize, Serializer};

use super::{Connection, Item, Level, Marker, Room, TileKind};

/// Value of the `format` field.
pub const LEVEL_FORMAT: &str = "dungeonflow-level/1";

#[derive(Serialize)]
struct LevelJson<'a> {
    format: &'static str,
    generator: &'a str,
    flow: &'a str,
    seed: u64,
    width: i32,
    height: i32,
    legend: BTreeMap<String, &'static str>,
    tiles: Vec<String>,
    rooms: &'a [Room],
    connections: &'a [Connection],
    items: &'a [Item],
    markers: &'a [Marker],
}

impl Serialize for Level {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        LevelJson {
            format: LEVEL_FORMAT,
            generator: &self.generator,
            flow: &self.flow,
            seed: self.seed,
            width: self.width,
            height: self.height,
            legend: TileKind::ALL
                .iter()
                .map(|k| (k.glyph().to_string(), k.name()))
                .collect(),
            tiles: self.rows(),
            rooms: &self.rooms,
            connections: &self.connections,
            items: &self.items,
            markers: &self.markers,
        }
        .serialize(s)
    }
}
