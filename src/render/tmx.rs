//! Tiled TMX: the map of the `.tmj` export (see [`tiled`](super::tiled)) as
//! XML, with its tileset in a TSX file beside it. TMX is what the Rust
//! `tiled` crate (and so `bevy_ecs_tiled`), Godot's YATI importer and
//! Unity's SuperTiled2Unity read. The tile layer is CSV; object classes are
//! written as `type`, as in the `.tmj` (map version 1.8).

use std::borrow::Cow;
use std::io;

use quick_xml::Writer;
use quick_xml::events::attributes::Attribute;
use quick_xml::events::{BytesDecl, BytesText, Event};
use quick_xml::name::QName;
use serde_json::Value;

use super::tiled::{Layer, Map, Object, ObjectGroup, Property, TileLayer};
use super::tiled::{tiled_map, tileset_kinds, tileset_png};
use crate::level::Level;

/// A TMX export: the map, its TSX tileset and the tileset's image, each
/// referenced from the one before by file name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TmxExport {
    /// The `.tmx` map.
    pub map_xml: String,
    /// The `.tsx` tileset.
    pub tileset_xml: String,
    /// The tileset's file name, as the map references it.
    pub tileset_file: String,
    /// The tileset image (PNG).
    pub image_png: Vec<u8>,
    /// The tileset image's file name, as the tileset references it.
    pub image_file: String,
}

/// The level as a TMX map whose tileset is the TSX file `tileset_file`,
/// whose image is `image_file` (names relative to the map: all three files
/// go in the same folder).
pub fn render_tmx(level: &Level, tileset_file: &str, image_file: &str) -> TmxExport {
    let map = tiled_map(level, image_file);
    TmxExport {
        map_xml: xml(|w| write_map(w, &map, tileset_file)),
        tileset_xml: xml(|w| write_tileset(w, &map)),
        tileset_file: tileset_file.to_owned(),
        image_png: tileset_png(&tileset_kinds()),
        image_file: image_file.to_owned(),
    }
}

type Xml = Writer<Vec<u8>>;

/// An XML document (declaration, then what `body` writes), as text.
fn xml(body: impl FnOnce(&mut Xml) -> io::Result<()>) -> String {
    let mut w = Writer::new_with_indent(Vec::new(), b' ', 1);
    w.write_event(Event::Decl(BytesDecl::new("1.0", Some("UTF-8"), None)))
        .and_then(|()| body(&mut w))
        .expect("XML writes to memory");
    String::from_utf8(w.into_inner()).expect("XML of UTF-8 text") + "\n"
}

fn write_map(w: &mut Xml, map: &Map, tileset_file: &str) -> io::Result<()> {
    let tileset = &map.tilesets[0];
    w.create_element("map")
        .with_attributes([
            ("version", map.version),
            ("tiledversion", map.tiledversion),
            ("orientation", map.orientation),
            ("renderorder", map.renderorder),
        ])
        .with_attributes(attrs(&[
            ("width", i64::from(map.width)),
            ("height", i64::from(map.height)),
            ("tilewidth", i64::from(map.tilewidth)),
            ("tileheight", i64::from(map.tileheight)),
            ("infinite", i64::from(map.infinite)),
            ("nextlayerid", i64::from(map.nextlayerid)),
            ("nextobjectid", i64::from(map.nextobjectid)),
        ]))
        .write_inner_content(|w| {
            write_properties(w, &map.properties)?;
            w.create_element("tileset")
                .with_attribute(("firstgid", tileset.firstgid.to_string().as_str()))
                .with_attribute(("source", tileset_file))
                .write_empty()?;
            for layer in &map.layers {
                match layer {
                    Layer::Tiles(t) => write_tile_layer(w, t)?,
                    Layer::Objects(g) => write_object_group(w, g)?,
                }
            }
            Ok(())
        })?;
    Ok(())
}

/// The map's tileset as a TSX document, of the map's Tiled version.
fn write_tileset(w: &mut Xml, map: &Map) -> io::Result<()> {
    let t = &map.tilesets[0];
    w.create_element("tileset")
        .with_attributes([
            ("version", map.version),
            ("tiledversion", map.tiledversion),
            ("name", t.name),
        ])
        .with_attributes(attrs(&[
            ("tilewidth", i64::from(t.tilewidth)),
            ("tileheight", i64::from(t.tileheight)),
            ("tilecount", i64::from(t.tilecount)),
            ("columns", i64::from(t.columns)),
        ]))
        .write_inner_content(|w| {
            w.create_element("image")
                .with_attribute(("source", t.image))
                .with_attributes(attrs(&[
                    ("width", i64::from(t.imagewidth)),
                    ("height", i64::from(t.imageheight)),
                ]))
                .write_empty()?;
            for tile in &t.tiles {
                w.create_element("tile")
                    .with_attribute(("id", tile.id.to_string().as_str()))
                    .with_attribute(("type", tile.class))
                    .write_inner_content(|w| write_properties(w, &tile.properties))?;
            }
            Ok(())
        })?;
    Ok(())
}

fn write_tile_layer(w: &mut Xml, t: &TileLayer) -> io::Result<()> {
    let rows: Vec<String> = t
        .data
        .chunks(t.width.max(1) as usize)
        .map(|row| row.iter().map(u32::to_string).collect::<Vec<_>>().join(","))
        .collect();
    // Tiled writes one row a line, each but the last ending in a comma.
    let csv = format!("\n{}\n", rows.join(",\n"));
    w.create_element("layer")
        .with_attribute(("id", t.id.to_string().as_str()))
        .with_attribute(("name", t.name))
        .with_attributes(attrs(&[
            ("width", i64::from(t.width)),
            ("height", i64::from(t.height)),
        ]))
        .write_inner_content(|w| {
            w.create_element("data")
                .with_attribute(("encoding", "csv"))
                .write_text_content(BytesText::new(&csv))?;
            Ok(())
        })?;
    Ok(())
}

fn write_object_group(w: &mut Xml, g: &ObjectGroup) -> io::Result<()> {
    let group = w
        .create_element("objectgroup")
        .with_attribute(("id", g.id.to_string().as_str()))
        .with_attribute(("name", g.name));
    if g.objects.is_empty() {
        group.write_empty()?;
        return Ok(());
    }
    group.write_inner_content(|w| {
        for o in &g.objects {
            write_object(w, o)?;
        }
        Ok(())
    })?;
    Ok(())
}

fn write_object(w: &mut Xml, o: &Object) -> io::Result<()> {
    let mut place = vec![("x", i64::from(o.x)), ("y", i64::from(o.y))];
    if o.width != 0 || o.height != 0 {
        place.extend([
            ("width", i64::from(o.width)),
            ("height", i64::from(o.height)),
        ]);
    }
    w.create_element("object")
        .with_attribute(("id", o.id.to_string().as_str()))
        .with_attribute(("name", o.name.as_str()))
        .with_attribute(("type", o.class.as_str()))
        .with_attributes(attrs(&place))
        .write_inner_content(|w| {
            write_properties(w, &o.properties)?;
            if o.point {
                w.create_element("point").write_empty()?;
            }
            for (tag, points) in [("polyline", &o.polyline), ("polygon", &o.polygon)] {
                if let Some(points) = points {
                    let points: Vec<String> =
                        points.iter().map(|p| format!("{},{}", p.x, p.y)).collect();
                    w.create_element(tag)
                        .with_attribute(("points", points.join(" ").as_str()))
                        .write_empty()?;
                }
            }
            Ok(())
        })?;
    Ok(())
}

/// `<properties>`: a string property has no `type` attribute, others do.
fn write_properties(w: &mut Xml, properties: &[Property]) -> io::Result<()> {
    if properties.is_empty() {
        return Ok(());
    }
    w.create_element("properties").write_inner_content(|w| {
        for p in properties {
            let value = match &p.value {
                Value::String(s) => s.clone(),
                other => other.to_string(),
            };
            let element = w
                .create_element("property")
                .with_attribute(("name", p.name.as_str()));
            let element = if p.kind == "string" {
                element
            } else {
                element.with_attribute(("type", p.kind))
            };
            element
                .with_attribute(("value", value.as_str()))
                .write_empty()?;
        }
        Ok(())
    })?;
    Ok(())
}

/// Numeric attributes, ready for `with_attributes`.
fn attrs(pairs: &[(&'static str, i64)]) -> Vec<Attribute<'static>> {
    pairs
        .iter()
        .map(|&(k, v)| Attribute {
            key: QName(k),
            value: Cow::Owned(v.to_string()),
        })
        .collect()
}
