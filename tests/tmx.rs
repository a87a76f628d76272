//! The TMX export read back by the Rust `tiled` crate (the loader behind
//! `bevy_ecs_tiled`): the map, its TSX tileset and the tileset's image load,
//! and layer sizes, tile classes, the `walkable` property and every object
//! agree with the level.

use std::collections::BTreeMap;

use dungeonflow::Project;
use dungeonflow::internals::generate::generate;
use dungeonflow::level::{ConnectionKind, Level, TileKind};
use dungeonflow::render::{render_tmx, write_atomic};
use tiled::{LayerType, Loader, ObjectShape, PropertyValue};

const TILE: f32 = 16.0;

fn level(project: &Project, flow: &str, seed: u64) -> Level {
    let flow = project.flow(flow).expect("bundled flow");
    generate(flow, &project.library, seed, &Default::default())
        .expect("generates")
        .level
}

/// Writes the export of `level` to a temporary folder and loads it.
fn load(level: &Level) -> tiled::Map {
    let dir = tempfile::tempdir().expect("temp dir");
    let export = render_tmx(level, "level.tsx", "level.tileset.png");
    write_atomic(&dir.path().join("level.tmx"), export.map_xml.as_bytes()).expect("map");
    write_atomic(
        &dir.path().join(&export.tileset_file),
        export.tileset_xml.as_bytes(),
    )
    .expect("tileset");
    write_atomic(&dir.path().join(&export.image_file), &export.image_png).expect("image");
    Loader::new()
        .load_tmx_map(dir.path().join("level.tmx"))
        .unwrap_or_else(|e| panic!("the tiled crate cannot load the map: {e}"))
}

fn string<'a>(properties: &'a tiled::Properties, name: &str) -> &'a str {
    match properties.get(name) {
        Some(PropertyValue::StringValue(s)) => s,
        other => panic!("property `{name}`: {other:?}"),
    }
}

fn check(level: &Level, map: &tiled::Map, what: &str) {
    assert_eq!(
        (map.width, map.height),
        (level.width as u32, level.height as u32),
        "{what}"
    );
    assert_eq!(string(&map.properties, "seed"), level.seed.to_string());
    // The tileset: one tile per kind but void, each with its class and
    // whether it can be walked on.
    let tileset = &map.tilesets()[0];
    assert_eq!(
        tileset.tilecount as usize,
        TileKind::ALL.len() - 1,
        "{what}"
    );
    let mut names = Vec::new();
    for (_, tile) in tileset.tiles() {
        let kind = TileKind::ALL
            .into_iter()
            .find(|k| k.name() == tile.user_type)
            .unwrap_or_else(|| panic!("{what}: unknown tile class `{}`", tile.user_type));
        assert_eq!(
            tile.properties.get("walkable"),
            Some(&PropertyValue::BoolValue(kind.is_walkable())),
            "{what}: {kind:?}"
        );
        names.push(tile.user_type.clone());
    }
    let layers: BTreeMap<String, tiled::Layer> =
        map.layers().map(|l| (l.name.clone(), l)).collect();
    // Every tile of the level, by the class of its tile in the map.
    let LayerType::Tiles(tiles) = layers["tiles"].layer_type() else {
        panic!("{what}: `tiles` is not a tile layer");
    };
    assert_eq!(tiles.width(), Some(level.width as u32), "{what}");
    assert_eq!(tiles.height(), Some(level.height as u32), "{what}");
    for y in 0..level.height {
        for x in 0..level.width {
            let kind = level.tile(x, y);
            let class = tiles
                .get_tile(x, y)
                .and_then(|t| t.get_tile())
                .map(|t| t.user_type.clone());
            if kind == TileKind::Void {
                assert_eq!(class, None, "{what}: void at ({x}, {y})");
            } else {
                assert_eq!(class.as_deref(), Some(kind.name()), "{what}: ({x}, {y})");
            }
        }
    }
    let objects = |name: &str| -> Vec<tiled::Object> {
        let LayerType::Objects(group) = layers[name].layer_type() else {
            panic!("{what}: `{name}` is not an object group");
        };
        group.objects().collect()
    };
    // Rooms: a rectangle each, named and classed, with its template.
    let rooms = objects("rooms");
    assert_eq!(rooms.len(), level.rooms.len(), "{what}");
    for (o, r) in rooms.iter().zip(&level.rooms) {
        assert_eq!(
            (o.name.as_str(), o.user_type.as_str()),
            (r.id.as_str(), r.category.as_str())
        );
        assert_eq!(
            (o.x, o.y),
            (r.x as f32 * TILE, r.y as f32 * TILE),
            "{what}: {}",
            r.id
        );
        if r.cells.len() == (r.width * r.height) as usize {
            assert_eq!(
                o.shape,
                ObjectShape::Rect {
                    width: r.width as f32 * TILE,
                    height: r.height as f32 * TILE
                }
            );
        } else {
            let ObjectShape::Polygon { points } = &o.shape else {
                panic!("{what}: shaped room {} is {:?}", r.id, o.shape);
            };
            // The outline encloses exactly the room's tiles.
            let n = points.len();
            let twice_area: f32 = (0..n)
                .map(|i| {
                    let (a, b) = (points[i], points[(i + 1) % n]);
                    a.0 * b.1 - b.0 * a.1
                })
                .sum();
            assert_eq!(
                twice_area.abs() / 2.0,
                r.cells.len() as f32 * TILE * TILE,
                "{what}"
            );
        }
        assert_eq!(string(&o.properties, "template"), r.template);
    }
    // Connections: a polyline along the passage (a point for a warp),
    // with both ends, the kind, one-way and the lock.
    let doors = objects("doors");
    assert_eq!(doors.len(), level.connections.len(), "{what}");
    for (o, c) in doors.iter().zip(&level.connections) {
        assert_eq!(string(&o.properties, "from"), c.from);
        assert_eq!(string(&o.properties, "to"), c.to);
        assert_eq!(
            string(&o.properties, "lock"),
            c.lock.as_deref().unwrap_or("")
        );
        assert_eq!(
            o.properties.get("one_way"),
            Some(&PropertyValue::BoolValue(c.one_way))
        );
        let secret = [&c.from, &c.to]
            .iter()
            .any(|r| level.room(r).is_some_and(|r| r.category == "secret"));
        assert_eq!(
            o.properties.get("secret"),
            Some(&PropertyValue::BoolValue(secret))
        );
        match (&o.shape, c.kind) {
            (ObjectShape::Point(..), ConnectionKind::Warp) => {}
            (ObjectShape::Polyline { points }, ConnectionKind::Door | ConnectionKind::Corridor) => {
                assert_eq!(points.first(), Some(&(0.0, 0.0)), "{what}");
                let [lx, ly] = *c.path.last().expect("a path");
                let end = points.last().expect("points");
                assert_eq!(
                    (o.x + end.0, o.y + end.1),
                    (lx as f32 * TILE + 8.0, ly as f32 * TILE + 8.0),
                    "{what}: {} -> {} ends on its last tile",
                    c.from,
                    c.to
                );
            }
            (shape, kind) => panic!("{what}: a {kind:?} drawn as {shape:?}"),
        }
    }
    let items = objects("items");
    assert_eq!(items.len(), level.items.len(), "{what}");
    for (o, i) in items.iter().zip(&level.items) {
        assert!(matches!(o.shape, ObjectShape::Point(..)));
        assert_eq!(string(&o.properties, "room"), i.room);
        assert_eq!(o.name, i.id);
    }
    let markers = objects("markers");
    assert_eq!(markers.len(), level.markers.len(), "{what}");
    for (o, m) in markers.iter().zip(&level.markers) {
        assert!(matches!(o.shape, ObjectShape::Point(..)));
        assert_eq!(
            (o.x, o.y),
            ((m.x as f32 + 0.5) * TILE, (m.y as f32 + 0.5) * TILE)
        );
        assert_eq!(o.user_type, m.kind);
        assert_eq!(string(&o.properties, "room"), m.room);
    }
}

#[test]
fn the_tiled_crate_reads_every_generator_s_levels() {
    let project = Project::bundled();
    let names: Vec<String> = project.flows.keys().cloned().collect();
    for name in &names {
        for seed in [1, 2] {
            let level = level(&project, name, seed);
            let map = load(&level);
            check(&level, &map, &format!("{name} seed {seed}"));
        }
    }
}

#[test]
fn markers_and_designer_properties_read_back_with_their_types() {
    use dungeonflow::internals::properties::PropertyValue as P;
    use dungeonflow::level::Marker;
    let mut level = level(&Project::bundled(), "keys_and_locks", 1);
    let room = level.rooms[1].clone();
    let [x, y] = room.cells[room.cells.len() / 2];
    level.markers.push(Marker {
        kind: "enemy".into(),
        room: room.id.clone(),
        x,
        y,
        properties: [
            ("hp".to_owned(), P::Int(12)),
            ("speed".to_owned(), P::Float(1.5)),
            ("elite".to_owned(), P::Bool(true)),
            ("name".to_owned(), P::Text("ogre <1>".into())),
            ("kind".to_owned(), P::Text("taken by the built-in".into())),
        ]
        .into(),
    });
    level.rooms[1].properties = [("difficulty".to_owned(), P::Int(3))].into();
    let map = load(&level);
    check(&level, &map, "markers");
    let layer = map
        .layers()
        .find(|l| l.name == "markers")
        .expect("a markers layer");
    let LayerType::Objects(group) = layer.layer_type() else {
        panic!("`markers` is not an object group");
    };
    let enemy = group.objects().last().expect("the marker");
    let props = &enemy.properties;
    assert_eq!(props.get("hp"), Some(&PropertyValue::IntValue(12)));
    assert_eq!(props.get("speed"), Some(&PropertyValue::FloatValue(1.5)));
    assert_eq!(props.get("elite"), Some(&PropertyValue::BoolValue(true)));
    assert_eq!(string(props, "name"), "ogre <1>");
    assert_eq!(string(props, "kind"), "enemy", "built-in names win");
    let rooms = map.layers().find(|l| l.name == "rooms").expect("rooms");
    let LayerType::Objects(rooms) = rooms.layer_type() else {
        panic!("`rooms` is not an object group");
    };
    let second = rooms.objects().nth(1).expect("room 1");
    assert_eq!(
        second.properties.get("difficulty"),
        Some(&PropertyValue::IntValue(3))
    );
}

#[test]
fn names_with_markup_characters_survive_the_xml() {
    // Room ids and lock names come from user flows: quotes, `<` and `&`
    // must be escaped, and read back as written.
    let mut level = level(&Project::bundled(), "keys_and_locks", 1);
    let odd = "a<b & \"c\"";
    let old = level.rooms[0].id.clone();
    level.rooms[0].id = odd.to_owned();
    for c in &mut level.connections {
        if c.from == old {
            c.from = odd.to_owned();
        }
    }
    let map = load(&level);
    check(&level, &map, "odd names");
}
