//! Tiled export: the `.tmj` map agrees with the level (tiles, rooms, doors,
//! keys), its tileset image decodes, and the real Tiled (`tmxrasterizer`)
//! loads the `.tmj` and the `.tmx` maps with their tilesets and draws every
//! tile from them.

use std::collections::BTreeSet;
use std::path::Path;
use std::process::Command;

use dungeonflow::Project;
use dungeonflow::internals::generate::generate;
use dungeonflow::level::{ConnectionKind, Level, TileKind};
use dungeonflow::render::{TiledExport, render_tiled, render_tmx, write_atomic};
use image::RgbaImage;
use serde_json::Value;

#[path = "support/suite.rs"]
mod suite;

const TILE: i64 = 16;
const TILESET: &str = "level.tileset.png";

fn level(project: &Project, flow: &str, seed: u64) -> Level {
    let flow = project.flow(flow).expect("bundled flow");
    generate(flow, &project.library, seed, &Default::default())
        .expect("generates")
        .level
}

/// Every bundled flow (every generator), seeds 1 and 2.
fn levels() -> Vec<Level> {
    let project = Project::bundled();
    let names: Vec<String> = project.flows.keys().cloned().collect();
    assert!(names.len() >= 5, "bundled flows: {names:?}");
    names
        .iter()
        .flat_map(|n| [1, 2].map(|seed| level(&project, n, seed)))
        .collect()
}

fn parse(export: &TiledExport) -> Value {
    serde_json::from_str(&export.map_json).expect("the map is JSON")
}

fn layer<'a>(map: &'a Value, name: &str) -> &'a Value {
    map["layers"]
        .as_array()
        .expect("layers")
        .iter()
        .find(|l| l["name"] == name)
        .unwrap_or_else(|| panic!("no layer `{name}`"))
}

fn objects<'a>(map: &'a Value, name: &str) -> &'a Vec<Value> {
    let group = layer(map, name);
    assert_eq!(group["type"], "objectgroup", "{name}");
    group["objects"].as_array().expect("objects")
}

/// A property's value, checking its declared type.
fn prop<'a>(v: &'a Value, name: &str, kind: &str) -> &'a Value {
    let p = v["properties"]
        .as_array()
        .expect("properties")
        .iter()
        .find(|p| p["name"] == name)
        .unwrap_or_else(|| panic!("no property `{name}` in {v}"));
    assert_eq!(p["type"], kind, "type of `{name}`");
    &p["value"]
}

/// The gid the map's tileset gives a kind (0 for void), found by tile class.
fn gid_of(map: &Value, kind: TileKind) -> i64 {
    if kind == TileKind::Void {
        return 0;
    }
    let tileset = &map["tilesets"][0];
    let tile = tileset["tiles"]
        .as_array()
        .expect("tiles")
        .iter()
        .find(|t| t["type"] == kind.name())
        .unwrap_or_else(|| panic!("no tile of class `{}`", kind.name()));
    assert_eq!(
        prop(tile, "walkable", "bool"),
        kind.is_walkable(),
        "{kind:?}"
    );
    tileset["firstgid"].as_i64().expect("firstgid") + tile["id"].as_i64().expect("id")
}

fn centre(x: i32, y: i32) -> (i64, i64) {
    (x as i64 * TILE + TILE / 2, y as i64 * TILE + TILE / 2)
}

fn decode(png: &[u8]) -> RgbaImage {
    image::load_from_memory_with_format(png, image::ImageFormat::Png)
        .expect("a PNG")
        .to_rgba8()
}

/// Checks a shaped room's polygon (pixels, relative to the room's corner):
/// axis-aligned sides, within the room's box, enclosing exactly its tiles'
/// area.
fn check_outline(points: &[(i64, i64)], room: &dungeonflow::level::Room, what: &str) {
    assert!(points.len() > 4, "{what}: {} has {points:?}", room.id);
    let n = points.len();
    let mut twice_area = 0;
    for i in 0..n {
        let (a, b) = (points[i], points[(i + 1) % n]);
        assert!(
            a.0 == b.0 || a.1 == b.1,
            "{what}: {} side {a:?} {b:?}",
            room.id
        );
        assert!((0..=room.width as i64 * TILE).contains(&a.0), "{what}");
        assert!((0..=room.height as i64 * TILE).contains(&a.1), "{what}");
        twice_area += a.0 * b.1 - b.0 * a.1;
    }
    assert_eq!(
        twice_area.abs() / 2,
        room.cells.len() as i64 * TILE * TILE,
        "{what}: {} outline area",
        room.id
    );
}

/// Checks the map against the level.
fn check_map(level: &Level, map: &Value) {
    let what = format!("{} seed {}", level.flow, level.seed);
    assert_eq!(map["type"], "map");
    assert_eq!(map["orientation"], "orthogonal");
    assert_eq!(map["renderorder"], "right-down");
    assert_eq!(map["infinite"], false);
    assert_eq!(map["width"], level.width, "{what}");
    assert_eq!(map["height"], level.height, "{what}");
    assert_eq!(map["tilewidth"], TILE);
    assert_eq!(map["tileheight"], TILE);
    assert_eq!(prop(map, "format", "string"), "dungeonflow-level/1");
    assert_eq!(prop(map, "generator", "string"), level.generator.as_str());
    assert_eq!(prop(map, "flow", "string"), level.flow.as_str());
    assert_eq!(prop(map, "seed", "string"), level.seed.to_string().as_str());

    // The embedded tileset.
    let tilesets = map["tilesets"].as_array().expect("tilesets");
    assert_eq!(tilesets.len(), 1);
    let ts = &tilesets[0];
    assert_eq!(ts["firstgid"], 1);
    assert_eq!(ts["image"], TILESET);
    assert_eq!(ts["tilewidth"], TILE);
    assert_eq!(ts["tileheight"], TILE);
    assert_eq!(
        ts["tilecount"],
        TileKind::ALL.len() - 1,
        "one tile per kind but void"
    );
    assert_eq!(ts["columns"], ts["tilecount"]);
    assert_eq!(
        ts["imagewidth"],
        ts["columns"].as_i64().expect("columns") * TILE
    );
    assert_eq!(ts["imageheight"], TILE);
    assert_eq!(ts["margin"], 0);
    assert_eq!(ts["spacing"], 0);

    // Layer ids are unique and below `nextlayerid`.
    let layer_ids: Vec<i64> = map["layers"]
        .as_array()
        .expect("layers")
        .iter()
        .map(|l| l["id"].as_i64().expect("layer id"))
        .collect();
    assert_eq!(
        layer_ids.iter().collect::<BTreeSet<_>>().len(),
        layer_ids.len()
    );
    assert_eq!(
        map["nextlayerid"],
        layer_ids.iter().max().expect("layers") + 1
    );

    // The tile layer: one gid per tile, row by row.
    let tiles = layer(map, "tiles");
    assert_eq!(tiles["type"], "tilelayer");
    assert_eq!(tiles["width"], level.width);
    assert_eq!(tiles["height"], level.height);
    let data = tiles["data"].as_array().expect("data");
    assert_eq!(data.len(), (level.width * level.height) as usize, "{what}");
    for y in 0..level.height {
        for x in 0..level.width {
            let gid = &data[(y * level.width + x) as usize];
            assert_eq!(
                gid.as_i64(),
                Some(gid_of(map, level.tile(x, y))),
                "{what}: tile ({x}, {y})"
            );
        }
    }

    // Rooms: one rectangle per room, in pixels, with its properties.
    let rooms = objects(map, "rooms");
    assert_eq!(rooms.len(), level.rooms.len(), "{what}");
    for room in &level.rooms {
        let o = rooms
            .iter()
            .find(|o| o["name"] == room.id.as_str())
            .unwrap_or_else(|| panic!("{what}: no object for room {}", room.id));
        assert_eq!(o["type"], room.category.as_str());
        assert_eq!(o["x"], room.x as i64 * TILE);
        assert_eq!(o["y"], room.y as i64 * TILE);
        if room.cells.len() == (room.width * room.height) as usize {
            assert_eq!(o["width"], room.width as i64 * TILE);
            assert_eq!(o["height"], room.height as i64 * TILE);
            assert!(o.get("polygon").is_none(), "{what}: {}", room.id);
        } else {
            let points: Vec<(i64, i64)> = o["polygon"]
                .as_array()
                .unwrap_or_else(|| panic!("{what}: shaped room {} is no polygon", room.id))
                .iter()
                .map(|p| (p["x"].as_i64().expect("x"), p["y"].as_i64().expect("y")))
                .collect();
            check_outline(&points, room, &what);
        }
        assert_eq!(prop(o, "id", "string"), room.id.as_str());
        assert_eq!(prop(o, "category", "string"), room.category.as_str());
        assert_eq!(prop(o, "template", "string"), room.template.as_str());
    }

    // Doors: one object per connection, from its first tile to its last.
    let doors = objects(map, "doors");
    assert_eq!(doors.len(), level.connections.len(), "{what}");
    for (o, c) in doors.iter().zip(&level.connections) {
        let kind = match c.kind {
            ConnectionKind::Door => "door",
            ConnectionKind::Corridor => "corridor",
            ConnectionKind::Warp => "warp",
        };
        assert_eq!(o["type"], kind);
        assert_eq!(prop(o, "from", "string"), c.from.as_str());
        assert_eq!(prop(o, "to", "string"), c.to.as_str());
        assert_eq!(prop(o, "kind", "string"), kind);
        assert_eq!(prop(o, "one_way", "bool"), c.one_way);
        assert_eq!(
            prop(o, "lock", "string"),
            c.lock.as_deref().unwrap_or_default()
        );
        let secret = [&c.from, &c.to]
            .iter()
            .any(|r| level.room(r).is_some_and(|r| r.category == "secret"));
        assert_eq!(prop(o, "secret", "bool"), secret, "{what}");
        match (c.path.first(), c.path.last()) {
            (Some(first), Some(last)) => {
                let line = o["polyline"].as_array().expect("a polyline");
                let at = |p: &Value| {
                    (
                        o["x"].as_i64().expect("x") + p["x"].as_i64().expect("px"),
                        o["y"].as_i64().expect("y") + p["y"].as_i64().expect("py"),
                    )
                };
                assert_eq!(at(&line[0]), centre(first[0], first[1]), "{what}");
                assert_eq!(
                    at(line.last().expect("points")),
                    centre(last[0], last[1]),
                    "{what}"
                );
            }
            _ => {
                assert_eq!(o["point"], true, "{what}: a warp is a point");
                let room = level.room(&c.from).expect("from room");
                let (x, y) = (o["x"].as_i64().expect("x"), o["y"].as_i64().expect("y"));
                assert!(
                    (room.x as i64 * TILE..(room.x + room.width) as i64 * TILE).contains(&x)
                        && (room.y as i64 * TILE..(room.y + room.height) as i64 * TILE)
                            .contains(&y),
                    "{what}: warp point in its room"
                );
            }
        }
    }

    // Items: one point per key at its tile's centre.
    let items = objects(map, "items");
    assert_eq!(items.len(), level.items.len(), "{what}");
    for (o, item) in items.iter().zip(&level.items) {
        assert_eq!(o["point"], true);
        assert_eq!(o["name"], item.id.as_str());
        assert_eq!(o["type"], item.kind.as_str());
        assert_eq!(
            (o["x"].as_i64().expect("x"), o["y"].as_i64().expect("y")),
            centre(item.x, item.y)
        );
        assert_eq!(prop(o, "id", "string"), item.id.as_str());
        assert_eq!(prop(o, "room", "string"), item.room.as_str());
    }

    // Markers: one point per marker at its tile's centre, of its kind.
    let markers = objects(map, "markers");
    assert_eq!(markers.len(), level.markers.len(), "{what}");
    for (o, m) in markers.iter().zip(&level.markers) {
        assert_eq!(o["point"], true);
        assert_eq!(o["type"], m.kind.as_str());
        assert_eq!(
            (o["x"].as_i64().expect("x"), o["y"].as_i64().expect("y")),
            centre(m.x, m.y)
        );
        assert_eq!(prop(o, "room", "string"), m.room.as_str());
    }

    // Object ids are unique across groups; `nextobjectid` is past them.
    let ids: Vec<i64> = [rooms, doors, items, markers]
        .into_iter()
        .flatten()
        .map(|o| o["id"].as_i64().expect("object id"))
        .collect();
    assert_eq!(
        ids.iter().collect::<BTreeSet<_>>().len(),
        ids.len(),
        "{what}"
    );
    assert_eq!(
        map["nextobjectid"],
        ids.iter().max().copied().unwrap_or(0) + 1
    );
}

#[test]
fn maps_match_their_levels() {
    let (mut polygons, mut secrets) = (0, 0);
    for level in levels() {
        let export = render_tiled(&level, TILESET);
        assert_eq!(export.tileset_file, TILESET);
        let map = parse(&export);
        check_map(&level, &map);
        assert_eq!(export, render_tiled(&level, TILESET), "deterministic");
        polygons += objects(&map, "rooms")
            .iter()
            .filter(|o| o.get("polygon").is_some())
            .count();
        secrets += objects(&map, "doors")
            .iter()
            .filter(|o| prop(o, "secret", "bool") == true)
            .count();
    }
    // The bundled flows have shaped rooms and secret rooms: both checked.
    assert!(
        polygons > 0 && secrets > 0,
        "{polygons} polygons, {secrets} secret doors"
    );
}

#[test]
fn the_tileset_image_has_one_distinct_tile_per_kind() {
    let level = level(&Project::bundled(), "classic", 1);
    let export = render_tiled(&level, TILESET);
    let map = parse(&export);
    let img = decode(&export.tileset_png);
    let columns = map["tilesets"][0]["columns"].as_u64().expect("columns") as u32;
    assert_eq!(columns, TileKind::ALL.len() as u32 - 1);
    assert_eq!(img.dimensions(), (columns * 16, 16));
    assert!(img.pixels().all(|p| p[3] == 255), "opaque tiles");
    let tiles: BTreeSet<Vec<u8>> = (0..columns)
        .map(|i| {
            image::imageops::crop_imm(&img, i * 16, 0, 16, 16)
                .to_image()
                .into_raw()
        })
        .collect();
    assert_eq!(tiles.len(), columns as usize, "tiles differ");
}

#[test]
fn warps_and_keys_become_objects() {
    let project = Project::bundled();
    let mut warp = false;
    let mut key = false;
    let mut lock = false;
    let mut one_way = false;
    // Keys and locks from `keys_and_locks`, warps from `maze` (its `no_links` injection).
    for flow in ["keys_and_locks", "two_wings", "maze"] {
        let flow = project.flow(flow).expect("bundled flow");
        for seed in 0..20 {
            // Some seeds of these bigger flows cannot be laid out: skip them.
            let Ok(generated) = generate(flow, &project.library, seed, &Default::default()) else {
                continue;
            };
            let level = generated.level;
            let c = &level.connections;
            let found = (
                c.iter().any(|c| c.kind == ConnectionKind::Warp),
                !level.items.is_empty(),
                c.iter().any(|c| c.lock.is_some()),
                c.iter().any(|c| c.one_way),
            );
            if found.0 && !warp || found.1 && !key || found.2 && !lock || found.3 && !one_way {
                check_map(&level, &parse(&render_tiled(&level, TILESET)));
            }
            warp |= found.0;
            key |= found.1;
            lock |= found.2;
            one_way |= found.3;
        }
    }
    assert!(warp, "a bundled flow makes warps");
    assert!(key, "a bundled flow makes keys");
    assert!(lock, "a bundled flow makes locks");
    assert!(one_way, "a bundled flow makes one-way doors");
}

/// Runs `tmxrasterizer` with `args`, then the map and output paths.
fn rasterize(map: &Path, out: &Path, args: &[&str]) {
    let result = Command::new("tmxrasterizer")
        .env("QT_QPA_PLATFORM", "offscreen")
        .args(args)
        .arg(map)
        .arg(out)
        .output();
    let output = match result {
        Ok(o) => o,
        Err(e) => panic!("cannot run tmxrasterizer: {e}"),
    };
    assert!(
        output.status.success(),
        "tmxrasterizer {args:?} {} failed ({}): {}{}",
        map.display(),
        output.status,
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(out.exists(), "tmxrasterizer wrote no {}", out.display());
}

#[test]
fn tiled_renders_exported_maps_with_their_tileset() {
    if !suite::program(
        "tmxrasterizer",
        "Debian's `tiled` package: `apt-get install tiled`",
    ) {
        return;
    }
    let project = Project::bundled();
    let dir = tempfile::tempdir().expect("temp dir");
    for (flow, seed) in [("classic", 1), ("keys_and_locks", 1), ("two_wings", 3)] {
        let level = level(&project, flow, seed);
        let base = format!("{flow}-{seed}");
        let tileset = format!("{base}.tileset.png");
        // The JSON map, with its tileset embedded.
        let export = render_tiled(&level, &tileset);
        let map_path = dir.path().join(format!("{base}.tmj"));
        write_atomic(&map_path, export.map_json.as_bytes()).expect("map written");
        write_atomic(&dir.path().join(&tileset), &export.tileset_png).expect("tileset written");
        check_render(
            &level,
            &map_path,
            &export.tileset_png,
            &format!("{base}.tmj"),
        );
        // The TMX map, with its tileset in a TSX file.
        let tmx = render_tmx(&level, &format!("{base}.tsx"), &tileset);
        let map_path = dir.path().join(format!("{base}.tmx"));
        write_atomic(&map_path, tmx.map_xml.as_bytes()).expect("map written");
        write_atomic(
            &dir.path().join(&tmx.tileset_file),
            tmx.tileset_xml.as_bytes(),
        )
        .expect("tileset written");
        check_render(&level, &map_path, &tmx.image_png, &format!("{base}.tmx"));
    }
}

/// Renders the map at `map_path` with Tiled, whole and its tile layer alone,
/// and checks every tile is drawn from the tileset image `sheet`.
fn check_render(level: &Level, map_path: &Path, sheet: &[u8], what: &str) {
    let size = (level.width as u32 * 16, level.height as u32 * 16);
    // Every layer: Tiled reads the object groups too.
    let full = map_path.with_extension("full.png");
    rasterize(map_path, &full, &[]);
    assert_eq!(
        decode(&std::fs::read(&full).expect("read")).dimensions(),
        size,
        "{what}"
    );
    // The tile layer alone: each tile is drawn from the tileset image.
    let tiles_only = map_path.with_extension("tiles.png");
    rasterize(map_path, &tiles_only, &["--show-layer", "tiles"]);
    let render = decode(&std::fs::read(&tiles_only).expect("read"));
    assert_eq!(render.dimensions(), size, "{what}");
    let sheet = decode(sheet);
    let kinds: Vec<TileKind> = TileKind::ALL
        .into_iter()
        .filter(|&k| k != TileKind::Void)
        .collect();
    let expected = |kind: TileKind, px: u32, py: u32| {
        let i = kinds.iter().position(|&k| k == kind).expect("kind") as u32;
        *sheet.get_pixel(i * 16 + px, py)
    };
    // The floor and wall colours, named so a failure is readable.
    let (fx, fy) = first(level, TileKind::Floor);
    let (wx, wy) = first(level, TileKind::Wall);
    assert_eq!(
        render.get_pixel(fx * 16 + 8, fy * 16 + 8),
        &expected(TileKind::Floor, 8, 8),
        "{what}: floor colour at tile ({fx}, {fy})"
    );
    assert_eq!(
        render.get_pixel(wx * 16 + 8, wy * 16 + 8),
        &expected(TileKind::Wall, 8, 8),
        "{what}: wall colour at tile ({wx}, {wy})"
    );
    // Then every tile, at a few pixels; void stays transparent.
    for y in 0..level.height {
        for x in 0..level.width {
            let kind = level.tile(x, y);
            for (px, py) in [(8, 8), (0, 0), (15, 15), (3, 12)] {
                let got = render.get_pixel(x as u32 * 16 + px, y as u32 * 16 + py);
                if kind == TileKind::Void {
                    assert_eq!(got[3], 0, "{what}: void at ({x}, {y})");
                } else {
                    assert_eq!(
                        got,
                        &expected(kind, px, py),
                        "{what}: {kind:?} at ({x}, {y}), pixel ({px}, {py})"
                    );
                }
            }
        }
    }
}

/// The first tile of `kind`, row by row.
fn first(level: &Level, kind: TileKind) -> (u32, u32) {
    (0..level.height)
        .flat_map(|y| (0..level.width).map(move |x| (x, y)))
        .find(|&(x, y)| level.tile(x, y) == kind)
        .map(|(x, y)| (x as u32, y as u32))
        .unwrap_or_else(|| panic!("no {kind:?} tile"))
}
