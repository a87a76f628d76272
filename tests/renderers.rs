//! The picture renderers read back: the PNG decoded and its pixels checked
//! against the level, the SVG parsed and its shapes counted.

use dungeonflow::Project;
use dungeonflow::level::{Level, TileKind};
use dungeonflow::render::{Format, RenderOptions, palette};

fn level(flow: &str, seed: u64) -> Level {
    Project::bundled().generate(flow, seed).expect("generates")
}

/// The colour of the centre pixel of tile (x, y) at `scale`.
fn centre(image: &image::RgbImage, x: i32, y: i32, scale: u32) -> [u8; 3] {
    let p = image.get_pixel(x as u32 * scale + scale / 2, y as u32 * scale + scale / 2);
    p.0
}

fn tiles_of(level: &Level, kind: TileKind) -> Vec<(i32, i32)> {
    (0..level.height)
        .flat_map(|y| (0..level.width).map(move |x| (x, y)))
        .filter(|&(x, y)| level.tile(x, y) == kind)
        .collect()
}

fn decode_png(bytes: &[u8]) -> image::RgbImage {
    image::load_from_memory_with_format(bytes, image::ImageFormat::Png)
        .expect("a PNG")
        .to_rgb8()
}

#[test]
fn png_has_one_square_per_tile_in_the_right_colours() {
    // One level of each generator: flow graph, Isaac floor, scattered rooms.
    for level in [
        level("keys_and_locks", 1),
        level("isaac_rebirth", 2),
        level("scatter", 1),
    ] {
        let options = RenderOptions {
            scale: 10,
            ..RenderOptions::default()
        };
        let rendered = Format::Png.render(&level, &options, "l.png").expect("png");
        let image = decode_png(&rendered.main);
        assert_eq!(
            (image.width(), image.height()),
            (level.width as u32 * 10, level.height as u32 * 10)
        );
        // Each room's floor is tinted by its category.
        for room in &level.rooms {
            let floor = room
                .cells
                .iter()
                .find(|[x, y]| level.tile(*x, *y) == TileKind::Floor)
                .expect("a floor cell");
            assert_eq!(
                centre(&image, floor[0], floor[1], 10),
                dungeonflow::internals::category::colour(&room.category),
                "floor of {}",
                room.id
            );
        }
        for (x, y) in tiles_of(&level, TileKind::Wall) {
            assert_eq!(centre(&image, x, y, 10), palette::WALL, "wall at {x},{y}");
        }
        for (x, y) in tiles_of(&level, TileKind::Corridor) {
            let c = image.get_pixel(x as u32 * 10 + 5, y as u32 * 10 + 5).0;
            assert_eq!(c, palette::CORRIDOR, "corridor at {x},{y}");
        }
        let locked = tiles_of(&level, TileKind::LockedDoor);
        let has_keys = level.generator == "flow";
        assert_eq!(
            !locked.is_empty(),
            has_keys,
            "locked doors in {}",
            level.flow
        );
        for (x, y) in locked {
            // Red door with a key-coloured keyhole in the middle.
            assert_eq!(centre(&image, x, y, 10), palette::KEY);
            assert_eq!(
                image.get_pixel(x as u32 * 10 + 1, y as u32 * 10 + 1).0,
                palette::LOCKED_DOOR
            );
        }
        assert_eq!(!level.items.is_empty(), has_keys, "keys in {}", level.flow);
        for item in &level.items {
            assert_eq!(centre(&image, item.x, item.y, 10), palette::KEY);
        }
        // Outside the level stays dark.
        for (x, y) in tiles_of(&level, TileKind::Void).into_iter().take(50) {
            assert_eq!(centre(&image, x, y, 10), palette::VOID);
        }
    }
}

#[test]
fn png_one_way_doors_carry_an_arrow_and_labels_add_ink() {
    let level = level("keys_and_locks", 1);
    let plain = RenderOptions::default();
    let image = decode_png(
        &Format::Png
            .render(&level, &plain, "l.png")
            .expect("png")
            .main,
    );
    let one_way = tiles_of(&level, TileKind::OneWayDoor);
    assert!(!one_way.is_empty(), "the flow has one-way doors");
    for (x, y) in one_way {
        assert_eq!(
            centre(&image, x, y, plain.scale),
            palette::PAPER,
            "arrow at {x},{y}"
        );
    }
    let labelled = RenderOptions {
        labels: true,
        ..RenderOptions::default()
    };
    let with_labels = decode_png(
        &Format::Png
            .render(&level, &labelled, "l.png")
            .expect("png")
            .main,
    );
    for item in &level.items {
        assert_eq!(
            centre(&with_labels, item.x, item.y, labelled.scale),
            palette::KEY,
            "a label hides key {}",
            item.id
        );
    }
    let ink = |img: &image::RgbImage| img.pixels().filter(|p| p.0 == palette::INK).count();
    assert!(
        ink(&with_labels) > ink(&image) + 20 * level.rooms.len(),
        "labels are drawn"
    );
}

#[test]
fn png_refuses_a_picture_too_large_to_allocate() {
    let level = level("classic", 1);
    let huge = RenderOptions {
        scale: dungeonflow::render::MAX_SIDE,
        ..RenderOptions::default()
    };
    let d = Format::Png
        .render(&level, &huge, "l.png")
        .expect_err("too large");
    assert_eq!(d.code, "render::too-large");
}

#[test]
fn svg_parses_and_has_a_shape_per_room_door_key_and_edge() {
    // One level of each generator: flow graph, Isaac floor, scattered rooms.
    for level in [
        level("keys_and_locks", 1),
        level("isaac_rebirth", 2),
        level("scatter", 1),
    ] {
        let options = RenderOptions {
            labels: true,
            graph: true,
            ..RenderOptions::default()
        };
        let text = String::from_utf8(
            Format::Svg
                .render(&level, &options, "l.svg")
                .expect("svg")
                .main,
        )
        .expect("utf-8");
        let doc = roxmltree::Document::parse(&text).expect("well-formed XML");
        let root = doc.root_element();
        assert_eq!(root.tag_name().name(), "svg");
        assert_eq!(
            root.attribute("viewBox"),
            Some(format!("0 0 {} {}", level.width, level.height).as_str())
        );
        let with_class = |class: &str| {
            doc.descendants()
                .filter(|n| n.attribute("class") == Some(class))
                .collect::<Vec<_>>()
        };
        let rooms = with_class("room");
        let ids: Vec<&str> = rooms
            .iter()
            .filter_map(|n| n.attribute("data-id"))
            .collect();
        let expected: Vec<&str> = level.rooms.iter().map(|r| r.id.as_str()).collect();
        assert_eq!(ids, expected);
        for (node, room) in rooms.iter().zip(&level.rooms) {
            assert_eq!(
                node.attribute("data-category"),
                Some(room.category.as_str())
            );
            let fill = dungeonflow::internals::category::colour_hex(&room.category);
            assert_eq!(node.attribute("fill"), Some(fill.as_str()));
        }
        let doors =
            with_class("door").len() + with_class("locked").len() + with_class("one-way").len();
        let door_tiles = tiles_of(&level, TileKind::Door).len()
            + tiles_of(&level, TileKind::LockedDoor).len()
            + tiles_of(&level, TileKind::OneWayDoor).len();
        assert_eq!(doors, door_tiles);
        assert_eq!(
            with_class("arrow").len(),
            tiles_of(&level, TileKind::OneWayDoor).len()
        );
        let keys = with_class("keys")[0]
            .children()
            .filter(|n| n.is_element())
            .count();
        assert_eq!(keys, level.items.len());
        let graph = &with_class("graph")[0];
        let lines = graph.children().filter(|n| n.has_tag_name("line")).count();
        assert_eq!(lines, level.connections.len());
        let texts: Vec<String> = doc
            .descendants()
            .filter(|n| n.has_tag_name("text"))
            .filter_map(|n| n.text().map(str::to_owned))
            .collect();
        let ids: Vec<String> = level.rooms.iter().map(|r| r.id.clone()).collect();
        assert_eq!(texts, ids);
    }
}

#[test]
fn svg_without_options_has_no_graph_or_labels() {
    let level = level("classic", 3);
    let text = String::from_utf8(
        Format::Svg
            .render(&level, &RenderOptions::default(), "l.svg")
            .expect("svg")
            .main,
    )
    .expect("utf-8");
    let doc = roxmltree::Document::parse(&text).expect("well-formed XML");
    assert!(!doc.descendants().any(|n| n.has_tag_name("text")));
    assert!(
        !doc.descendants()
            .any(|n| n.attribute("class") == Some("graph"))
    );
}

#[test]
fn formats_follow_file_extensions() {
    use std::path::Path;
    assert_eq!(Format::from_path(Path::new("a/b.PNG")), Some(Format::Png));
    assert_eq!(Format::from_path(Path::new("b.svg")), Some(Format::Svg));
    assert_eq!(Format::from_path(Path::new("b.json")), Some(Format::Json));
    assert_eq!(Format::from_path(Path::new("b.txt")), Some(Format::Ascii));
    assert_eq!(Format::from_path(Path::new("b")), None);
    assert_eq!(Format::from_path(Path::new("b.tmj")), Some(Format::Tiled));
    assert_eq!(Format::from_path(Path::new("b.tmx")), Some(Format::Tmx));
    assert_eq!(Format::from_path(Path::new("b.ldtk")), None);
}

#[test]
fn an_output_extension_no_format_writes_is_an_error_naming_the_known_ones() {
    use std::path::Path;
    assert_eq!(Format::for_output(Path::new("level")).ok(), Some(None));
    assert_eq!(
        Format::for_output(Path::new("out/level.TMJ")).ok(),
        Some(Some(Format::Tiled))
    );
    for name in ["level.ldtk", "level.xyz"] {
        let d = Format::for_output(Path::new(name)).expect_err(name);
        assert_eq!(d.code, "render::unknown-extension");
        let help = d.help.clone().unwrap_or_default();
        for (extension, _) in Format::EXTENSIONS {
            assert!(help.contains(&format!(".{extension} (")), "{help}");
        }
        insta::assert_snapshot!(
            name.replace('.', "_"),
            format!("{}\nhelp: {help}", d.message)
        );
    }
}

#[test]
fn png_labels_never_hide_keys() {
    // Seed 12 of `classic` has its key at the centre of a room, under the label.
    let level = level("classic", 12);
    let options = RenderOptions {
        labels: true,
        ..RenderOptions::default()
    };
    let image = decode_png(
        &Format::Png
            .render(&level, &options, "l.png")
            .expect("png")
            .main,
    );
    assert!(!level.items.is_empty());
    let k = options.scale;
    for item in &level.items {
        // The whole gold diamond shows: about 18% of the tile.
        let gold = (0..k * k)
            .filter(|i| {
                let (px, py) = (item.x as u32 * k + i % k, item.y as u32 * k + i / k);
                image.get_pixel(px, py).0 == palette::KEY
            })
            .count();
        assert!(
            gold as f32 >= 0.15 * (k * k) as f32,
            "key {} shows {gold} gold pixels",
            item.id
        );
    }
}
