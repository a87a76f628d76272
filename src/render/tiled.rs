//! Tiled: a `.tmj` map (JSON) with an embedded tileset whose image, drawn
//! here, is written beside the map.
//!
//! Layers: `tiles` (one gid per tile, 0 = void), and the object groups
//! `rooms` (one rectangle per room, a polygon of its outline for a shaped
//! room), `doors` (one object per connection, `secret` into a secret room) and
//! `items` (one point per key) and `markers` (one point per marker, of the
//! marker's class). Rooms, doors and markers carry the designer's
//! `properties` as custom properties. Every tile of the tileset has a class naming
//! its kind and a `walkable` property, so a game reads collision from it.

use serde::Serialize;
use serde_json::Value;

use super::outline::outline;
use crate::level::{Connection, ConnectionKind, Item, LEVEL_FORMAT, Level, Marker, Room, TileKind};
use crate::properties::{Properties, PropertyValue};

/// Width and height of a tile, in pixels.
const TILE: u32 = 16;

/// A Tiled export: the map JSON and the tileset image it references by file name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TiledExport {
    /// The `.tmj` map.
    pub map_json: String,
    /// The tileset image (PNG).
    pub tileset_png: Vec<u8>,
    /// The tileset image's file name, as the map references it.
    pub tileset_file: String,
}

/// The level as a Tiled map and its tileset image. `tileset_file` is the
/// tileset image's file name (e.g. "level.tileset.png"), referenced
/// relatively from the map, so both files go in the same folder.
pub fn render_tiled(level: &Level, tileset_file: &str) -> TiledExport {
    let map = tiled_map(level, tileset_file);
    TiledExport {
        map_json: serde_json::to_string(&map).expect("a map serialises") + "\n",
        tileset_png: tileset_png(&tileset_kinds()),
        tileset_file: tileset_file.to_owned(),
    }
}

/// The level as a Tiled map, its tileset's image named `image` (the model
/// both the `.tmj` and the `.tmx` writers serialise).
pub(super) fn tiled_map<'a>(level: &Level, image: &'a str) -> Map<'a> {
    let kinds = tileset_kinds();
    let mut objects = ObjectIds(0);
    let rooms: Vec<Object> = level
        .rooms
        .iter()
        .map(|r| room_object(objects.next(), r))
        .collect();
    let doors: Vec<Object> = level
        .connections
        .iter()
        .map(|c| door_object(objects.next(), level, c))
        .collect();
    let items: Vec<Object> = level
        .items
        .iter()
        .map(|i| item_object(objects.next(), i))
        .collect();
    let markers: Vec<Object> = level
        .markers
        .iter()
        .map(|m| marker_object(objects.next(), m))
        .collect();
    let layers = vec![
        Layer::Tiles(TileLayer {
            id: 1,
            name: "tiles",
            x: 0,
            y: 0,
            width: level.width,
            height: level.height,
            opacity: 1.0,
            visible: true,
            data: level.tiles.iter().map(|&k| gid(&kinds, k)).collect(),
        }),
        object_group(2, "rooms", rooms),
        object_group(3, "doors", doors),
        object_group(4, "items", items),
        object_group(5, "markers", markers),
    ];
    let columns = kinds.len() as u32;
    Map {
        kind: "map",
        version: "1.8",
        tiledversion: "1.8.2",
        orientation: "orthogonal",
        renderorder: "right-down",
        infinite: false,
        width: level.width,
        height: level.height,
        tilewidth: TILE,
        tileheight: TILE,
        nextlayerid: layers.len() as u32 + 1,
        nextobjectid: objects.0 + 1,
        properties: vec![
            Property::string("format", LEVEL_FORMAT),
            Property::string("generator", &level.generator),
            Property::string("flow", &level.flow),
            // A string: Tiled's int properties are 32-bit, seeds are 64-bit.
            Property::string("seed", &level.seed.to_string()),
        ],
        tilesets: vec![Tileset {
            firstgid: 1,
            name: "dungeonflow",
            tilewidth: TILE,
            tileheight: TILE,
            tilecount: columns,
            columns,
            image,
            imagewidth: columns * TILE,
            imageheight: TILE,
            margin: 0,
            spacing: 0,
            tiles: kinds
                .iter()
                .enumerate()
                .map(|(id, &k)| TileInfo {
                    id: id as u32,
                    class: k.name(),
                    properties: vec![Property::bool("walkable", k.is_walkable())],
                })
                .collect(),
        }],
        layers,
    }
}

/// The kinds with a tile in the tileset, in tile id order (all but void).
pub(super) fn tileset_kinds() -> Vec<TileKind> {
    TileKind::ALL
        .into_iter()
        .filter(|&k| k != TileKind::Void)
        .collect()
}

/// The gid of a kind: 0 for void, else 1 + its tile id (its index in `kinds`).
fn gid(kinds: &[TileKind], kind: TileKind) -> u32 {
    kinds
        .iter()
        .position(|&k| k == kind)
        .map_or(0, |i| i as u32 + 1)
}

/// Hands out object ids 1, 2, 3, ...; `.0` is the last one given.
struct ObjectIds(u32);

impl ObjectIds {
    fn next(&mut self) -> u32 {
        self.0 += 1;
        self.0
    }
}

/// The centre of tile (x, y), in pixels.
fn centre(x: i32, y: i32) -> (i32, i32) {
    let half = TILE as i32 / 2;
    (x * TILE as i32 + half, y * TILE as i32 + half)
}

/// A room: its bounding rectangle, or (a room whose tiles do not fill it)
/// the polygon of its outline, points relative to the object's position.
fn room_object(id: u32, room: &Room) -> Object {
    let t = TILE as i32;
    let fills_its_box = room.cells.len() == (room.width * room.height) as usize;
    let polygon = (!fills_its_box)
        .then(|| outline(&room.cells))
        .filter(|corners| corners.len() > 4)
        .map(|corners| {
            corners
                .iter()
                .map(|&(x, y)| Point {
                    x: (x - room.x) * t,
                    y: (y - room.y) * t,
                })
                .collect::<Vec<_>>()
        });
    let (width, height) = if polygon.is_some() {
        (0, 0)
    } else {
        (room.width * t, room.height * t)
    };
    Object {
        id,
        name: room.id.clone(),
        class: room.category.clone(),
        x: room.x * t,
        y: room.y * t,
        width,
        height,
        rotation: 0,
        visible: true,
        point: false,
        polyline: None,
        polygon,
        properties: with_designer(
            [
                Property::string("id", &room.id),
                Property::string("category", &room.category),
                Property::string("template", &room.template),
            ]
            .into_iter()
            .chain(
                room.transform
                    .as_deref()
                    .map(|t| Property::string("transform", t)),
            )
            .collect(),
            &room.properties,
        ),
    }
}

/// A polyline from `from` to `to` through the tile centres of the path
/// (first, turning and last tiles); a warp has no tiles and is a point at the
/// centre of its `from` room.
fn door_object(id: u32, level: &Level, c: &Connection) -> Object {
    // A passage into or out of a secret room is a secret one.
    let secret = [&c.from, &c.to]
        .into_iter()
        .any(|r| level.room(r).is_some_and(|r| r.category == "secret"));
    let kind = match c.kind {
        ConnectionKind::Door => "door",
        ConnectionKind::Corridor => "corridor",
        ConnectionKind::Warp => "warp",
    };
    let corners: Vec<[i32; 2]> = c
        .path
        .iter()
        .enumerate()
        .filter(|&(i, p)| {
            let (Some(prev), Some(next)) = (i.checked_sub(1).map(|j| c.path[j]), c.path.get(i + 1))
            else {
                return true;
            };
            // Keep the tile unless it is in line with both neighbours.
            [p[0] - prev[0], p[1] - prev[1]] != [next[0] - p[0], next[1] - p[1]]
        })
        .map(|(_, p)| *p)
        .collect();
    let (origin, polyline) = match corners.first() {
        Some(first) => {
            let (ox, oy) = centre(first[0], first[1]);
            let points = corners
                .iter()
                .map(|p| {
                    let (x, y) = centre(p[0], p[1]);
                    Point {
                        x: x - ox,
                        y: y - oy,
                    }
                })
                .collect();
            ((ox, oy), Some(points))
        }
        None => {
            let t = TILE as i32;
            let origin = level.room(&c.from).map_or((0, 0), |r| {
                (r.x * t + r.width * t / 2, r.y * t + r.height * t / 2)
            });
            (origin, None)
        }
    };
    Object {
        id,
        name: format!("{} -> {}", c.from, c.to),
        class: kind.to_owned(),
        x: origin.0,
        y: origin.1,
        width: 0,
        height: 0,
        rotation: 0,
        visible: true,
        point: polyline.is_none(),
        polyline,
        polygon: None,
        properties: with_designer(
            vec![
                Property::string("from", &c.from),
                Property::string("to", &c.to),
                Property::string("kind", kind),
                Property::bool("one_way", c.one_way),
                Property::string("lock", c.lock.as_deref().unwrap_or_default()),
                Property::bool("secret", secret),
            ],
            &c.properties,
        ),
    }
}

fn item_object(id: u32, item: &Item) -> Object {
    point_object(
        id,
        [item.x, item.y],
        (&item.id, &item.kind),
        vec![
            Property::string("id", &item.id),
            Property::string("kind", &item.kind),
            Property::string("room", &item.room),
        ],
    )
}

/// A point at the centre of tile `at`, with its name and class.
fn point_object(
    id: u32,
    at: [i32; 2],
    (name, class): (&str, &str),
    properties: Vec<Property>,
) -> Object {
    let (x, y) = centre(at[0], at[1]);
    Object {
        id,
        name: name.to_owned(),
        class: class.to_owned(),
        x,
        y,
        width: 0,
        height: 0,
        rotation: 0,
        visible: true,
        point: true,
        polyline: None,
        polygon: None,
        properties,
    }
}

/// A point at the centre of the marker's tile, of the marker's kind.
fn marker_object(id: u32, marker: &Marker) -> Object {
    point_object(
        id,
        [marker.x, marker.y],
        (&marker.kind, &marker.kind),
        with_designer(
            vec![
                Property::string("kind", &marker.kind),
                Property::string("room", &marker.room),
            ],
            &marker.properties,
        ),
    )
}

fn object_group(id: u32, name: &'static str, objects: Vec<Object>) -> Layer {
    Layer::Objects(ObjectGroup {
        id,
        name,
        x: 0,
        y: 0,
        opacity: 1.0,
        visible: true,
        draworder: "topdown",
        objects,
    })
}

/// The tileset image: one 16x16 tile per kind, side by side.
pub(super) fn tileset_png(kinds: &[TileKind]) -> Vec<u8> {
    let mut img = image::RgbaImage::new(kinds.len() as u32 * TILE, TILE);
    for (i, &kind) in kinds.iter().enumerate() {
        for y in 0..TILE {
            for x in 0..TILE {
                let [r, g, b] = tile_pixel(kind, x as i32, y as i32);
                img.put_pixel(i as u32 * TILE + x, y, image::Rgba([r, g, b, 255]));
            }
        }
    }
    let mut png = Vec::new();
    img.write_to(&mut std::io::Cursor::new(&mut png), image::ImageFormat::Png)
        .expect("a PNG encodes in memory");
    png
}

/// The colour of pixel (x, y) of a kind's tile.
fn tile_pixel(kind: TileKind, x: i32, y: i32) -> [u8; 3] {
    let last = TILE as i32 - 1;
    let edge = x.min(y).min(last - x).min(last - y);
    // Twice the offset from the tile centre, so the centre is (0, 0).
    let (dx, dy) = (2 * x - last, 2 * y - last);
    let floor = || {
        if x == 0 || y == 0 {
            [196, 188, 170]
        } else {
            [214, 206, 188]
        }
    };
    match kind {
        TileKind::Void => [0, 0, 0],
        TileKind::Wall => {
            if x == 0 || y == 0 {
                [112, 112, 122]
            } else if x == last || y == last {
                [34, 34, 38]
            } else {
                [64, 64, 72]
            }
        }
        TileKind::Floor => floor(),
        TileKind::Door => match (edge, x) {
            (0, _) => [92, 58, 26],
            (_, 12) if (7..=9).contains(&y) => [230, 200, 80],
            (_, 5 | 10) => [112, 72, 34],
            _ => [139, 90, 43],
        },
        TileKind::LockedDoor => {
            let keyhole = (2 * x - 15).pow(2) + (2 * y - 13).pow(2) <= 12
                || ((7..=8).contains(&x) && (8..=11).contains(&y));
            if edge == 0 {
                [110, 20, 20]
            } else if keyhole {
                [30, 10, 10]
            } else if (4..=11).contains(&x) && (3..=12).contains(&y) {
                [232, 192, 64]
            } else {
                [190, 36, 36]
            }
        }
        TileKind::OneWayDoor => {
            // A chevron `>` pointing right, two pixels thick.
            let tip = 4 + (15 - (2 * y - 15).abs()) / 2;
            if edge == 0 {
                [160, 90, 20]
            } else if (3..=12).contains(&y) && (tip..tip + 2).contains(&x) {
                [60, 30, 10]
            } else {
                [240, 144, 32]
            }
        }
        TileKind::Corridor => {
            if (x * 7 + y * 13) % 11 == 0 {
                [180, 148, 102]
            } else {
                [200, 168, 120]
            }
        }
        TileKind::Pillar => {
            let r2 = dx * dx + dy * dy;
            if r2 > 169 {
                floor()
            } else if r2 >= 121 {
                [80, 80, 90]
            } else if dx + dy < -6 && r2 < 64 {
                [196, 196, 206]
            } else {
                [150, 150, 160]
            }
        }
        TileKind::Pit => match edge {
            0 => [40, 70, 150],
            1 => [24, 40, 100],
            _ => [10, 10, 24],
        },
    }
}

#[derive(Serialize)]
pub(super) struct Map<'a> {
    #[serde(rename = "type")]
    pub(super) kind: &'static str,
    pub(super) version: &'static str,
    pub(super) tiledversion: &'static str,
    pub(super) orientation: &'static str,
    pub(super) renderorder: &'static str,
    pub(super) infinite: bool,
    pub(super) width: i32,
    pub(super) height: i32,
    pub(super) tilewidth: u32,
    pub(super) tileheight: u32,
    pub(super) nextlayerid: u32,
    pub(super) nextobjectid: u32,
    pub(super) properties: Vec<Property>,
    pub(super) tilesets: Vec<Tileset<'a>>,
    pub(super) layers: Vec<Layer>,
}

#[derive(Serialize)]
pub(super) struct Tileset<'a> {
    pub(super) firstgid: u32,
    pub(super) name: &'static str,
    pub(super) tilewidth: u32,
    pub(super) tileheight: u32,
    pub(super) tilecount: u32,
    pub(super) columns: u32,
    pub(super) image: &'a str,
    pub(super) imagewidth: u32,
    pub(super) imageheight: u32,
    pub(super) margin: u32,
    pub(super) spacing: u32,
    pub(super) tiles: Vec<TileInfo>,
}

#[derive(Serialize)]
pub(super) struct TileInfo {
    pub(super) id: u32,
    #[serde(rename = "type")]
    pub(super) class: &'static str,
    pub(super) properties: Vec<Property>,
}

#[derive(Serialize)]
#[serde(tag = "type")]
pub(super) enum Layer {
    #[serde(rename = "tilelayer")]
    Tiles(TileLayer),
    #[serde(rename = "objectgroup")]
    Objects(ObjectGroup),
}

#[derive(Serialize)]
pub(super) struct TileLayer {
    pub(super) id: u32,
    pub(super) name: &'static str,
    pub(super) x: i32,
    pub(super) y: i32,
    pub(super) width: i32,
    pub(super) height: i32,
    pub(super) opacity: f64,
    pub(super) visible: bool,
    pub(super) data: Vec<u32>,
}

#[derive(Serialize)]
pub(super) struct ObjectGroup {
    pub(super) id: u32,
    pub(super) name: &'static str,
    pub(super) x: i32,
    pub(super) y: i32,
    pub(super) opacity: f64,
    pub(super) visible: bool,
    pub(super) draworder: &'static str,
    pub(super) objects: Vec<Object>,
}

#[derive(Serialize)]
pub(super) struct Object {
    pub(super) id: u32,
    pub(super) name: String,
    #[serde(rename = "type")]
    pub(super) class: String,
    pub(super) x: i32,
    pub(super) y: i32,
    pub(super) width: i32,
    pub(super) height: i32,
    pub(super) rotation: i32,
    pub(super) visible: bool,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub(super) point: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) polyline: Option<Vec<Point>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) polygon: Option<Vec<Point>>,
    pub(super) properties: Vec<Property>,
}

#[derive(Serialize)]
pub(super) struct Point {
    pub(super) x: i32,
    pub(super) y: i32,
}

/// A custom property: `{name, type, value}`.
#[derive(Serialize)]
pub(super) struct Property {
    pub(super) name: String,
    #[serde(rename = "type")]
    pub(super) kind: &'static str,
    pub(super) value: Value,
}

impl Property {
    fn string(name: &str, value: &str) -> Self {
        Property {
            name: name.to_owned(),
            kind: "string",
            value: Value::from(value),
        }
    }

    fn bool(name: &str, value: bool) -> Self {
        Property {
            name: name.to_owned(),
            kind: "bool",
            value: Value::from(value),
        }
    }

    /// A designer's property: a whole number beyond Tiled's 32-bit `int`
    /// becomes a `string` of its digits (a `float` would round it).
    fn designer(name: &str, value: &PropertyValue) -> Self {
        let (kind, value) = match value {
            PropertyValue::Bool(b) => ("bool", Value::from(*b)),
            PropertyValue::Int(i) if i32::try_from(*i).is_ok() => ("int", Value::from(*i)),
            PropertyValue::Int(i) => ("string", Value::from(i.to_string())),
            PropertyValue::Float(x) => ("float", Value::from(*x)),
            PropertyValue::Text(t) => ("string", Value::from(t.as_str())),
        };
        Property {
            name: name.to_owned(),
            kind,
            value,
        }
    }
}

/// `built_in` followed by the designer's `properties` whose names it does
/// not take.
fn with_designer(mut built_in: Vec<Property>, properties: &Properties) -> Vec<Property> {
    let extra: Vec<Property> = properties
        .iter()
        .filter(|(name, _)| built_in.iter().all(|p| &p.name != *name))
        .map(|(name, value)| Property::designer(name, value))
        .collect();
    built_in.extend(extra);
    built_in
}
