//! SVG: rooms as shapes tinted by category with labels, walls, corridors,
//! doors (locked and one-way marked), keys, and optionally the flow graph
//! drawn over the map. One user unit per tile, so coordinates are tiles.

use std::fmt::Write;

use super::RenderOptions;
use super::palette::{self, hex};
use super::scene::Scene;
use crate::level::{ConnectionKind, Level, TileKind};

/// Writes the level as an SVG document.
pub fn render_svg(level: &Level, options: &RenderOptions) -> String {
    let scene = Scene::new(level);
    let (w, h) = (level.width.max(1), level.height.max(1));
    let scale = options.scale.max(1) as i32;
    let mut out = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {w} {h}\" width=\"{}\" height=\"{}\">\n",
        w * scale,
        h * scale
    );
    out += &format!(
        "<title>{} `{}` seed {}</title>\n",
        level.generator,
        escape(&level.flow),
        level.seed
    );
    out += "<style>text{font:0.9px sans-serif;text-anchor:middle;dominant-baseline:central;\
            paint-order:stroke;stroke:#fff;stroke-width:0.25px}\
            .graph line{stroke:#2255cc;stroke-width:0.25}.graph .warp{stroke-dasharray:0.6 0.4}\
            .graph circle{fill:#2255cc}</style>\n";
    out += "<defs><marker id=\"arrow\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" \
            markerWidth=\"4\" markerHeight=\"4\" orient=\"auto\">\
            <path d=\"M0 0L10 5L0 10z\" fill=\"#2255cc\"/></marker></defs>\n";
    out += &format!(
        "<rect width=\"{w}\" height=\"{h}\" fill=\"{}\"/>\n",
        hex(palette::VOID)
    );
    out += &runs_path(&scene, "walls", &hex(palette::WALL), |k, _| {
        k == TileKind::Wall
    });
    out += &runs_path(&scene, "corridors", &hex(palette::CORRIDOR), |k, _| {
        k == TileKind::Corridor
    });
    out += "<g class=\"rooms\">\n";
    for (i, room) in level.rooms.iter().enumerate() {
        // Only the room's own box is scanned: a whole-map scan per room
        // made large levels quadratic (4,097 rooms: 15.9 s).
        let area = Area {
            x: room.x.max(0)..(room.x + room.width).min(level.width),
            y: room.y.max(0)..(room.y + room.height).min(level.height),
        };
        let shape = runs_path_in(
            &scene,
            area,
            "room",
            &crate::category::colour_hex(&room.category),
            |k, o| matches!(k, TileKind::Floor | TileKind::Pillar) && o == Some(i),
        );
        let attrs = format!(
            " data-id=\"{}\" data-category=\"{}\" data-template=\"{}\"",
            escape(&room.id),
            escape(&room.category),
            escape(&room.template)
        );
        out += &shape.replacen("<path", &format!("<path{attrs}"), 1);
    }
    out += "</g>\n";
    out += &runs_path(&scene, "pits", &hex(palette::PIT), |k, _| {
        k == TileKind::Pit
    });
    out += &pillars(level);
    out += &doors(&scene);
    if options.graph {
        out += &graph(&scene);
    }
    if options.labels {
        out += &labels(&scene);
    }
    // Keys last, so that a label never hides one.
    out += &markers(level);
    out += &keys(level);
    out += "</svg>\n";
    out
}

/// One `<path>` covering every tile for which `keep(kind, owner)` holds, as
/// horizontal runs (empty string when there is none).
fn runs_path(
    scene: &Scene,
    class: &str,
    fill: &str,
    keep: impl Fn(TileKind, Option<usize>) -> bool,
) -> String {
    let level = scene.level;
    let all = Area {
        x: 0..level.width,
        y: 0..level.height,
    };
    runs_path_in(scene, all, class, fill, keep)
}

/// Tiles `x` by `y` of the map.
struct Area {
    x: std::ops::Range<i32>,
    y: std::ops::Range<i32>,
}

/// [`runs_path`] over the tiles of `area` only.
fn runs_path_in(
    scene: &Scene,
    area: Area,
    class: &str,
    fill: &str,
    keep: impl Fn(TileKind, Option<usize>) -> bool,
) -> String {
    let level = scene.level;
    let mut d = String::new();
    for y in area.y {
        let mut x = area.x.start;
        while x < area.x.end {
            if !keep(level.tile(x, y), scene.owner(x, y)) {
                x += 1;
                continue;
            }
            let start = x;
            while x < area.x.end && keep(level.tile(x, y), scene.owner(x, y)) {
                x += 1;
            }
            let _ = write!(d, "M{start} {y}h{}v1h-{}z", x - start, x - start);
        }
    }
    if d.is_empty() {
        return String::new();
    }
    format!("<path class=\"{class}\" fill=\"{fill}\" d=\"{d}\"/>\n")
}

fn pillars(level: &Level) -> String {
    let mut out = format!("<g class=\"pillars\" fill=\"{}\">\n", hex(palette::PILLAR));
    for y in 0..level.height {
        for x in 0..level.width {
            if level.tile(x, y) == TileKind::Pillar {
                let _ = writeln!(out, "<circle cx=\"{x}.5\" cy=\"{y}.5\" r=\"0.37\"/>");
            }
        }
    }
    out + "</g>\n"
}

fn doors(scene: &Scene) -> String {
    let level = scene.level;
    let mut out = String::from("<g class=\"doors\">\n");
    for y in 0..level.height {
        for x in 0..level.width {
            let (class, fill) = match level.tile(x, y) {
                TileKind::Door => ("door", palette::DOOR),
                TileKind::LockedDoor => ("locked", palette::LOCKED_DOOR),
                TileKind::OneWayDoor => ("one-way", palette::ONE_WAY_DOOR),
                _ => continue,
            };
            let _ = writeln!(
                out,
                "<rect class=\"{class}\" x=\"{x}\" y=\"{y}\" width=\"1\" height=\"1\" fill=\"{}\"/>",
                hex(fill)
            );
        }
    }
    for ([x, y], [dx, dy]) in scene.one_way_steps() {
        let (cx, cy) = (x as f32 + 0.5, y as f32 + 0.5);
        let (fx, fy) = (dx as f32, dy as f32);
        let tip = (cx + 0.3 * fx, cy + 0.3 * fy);
        let back = (cx - 0.3 * fx, cy - 0.3 * fy);
        let _ = writeln!(
            out,
            "<polygon class=\"arrow\" fill=\"{}\" points=\"{},{} {},{} {},{}\"/>",
            hex(palette::PAPER),
            tip.0,
            tip.1,
            back.0 - 0.3 * fy,
            back.1 - 0.3 * fx,
            back.0 + 0.3 * fy,
            back.1 + 0.3 * fx
        );
    }
    out + "</g>\n"
}

fn markers(level: &Level) -> String {
    let mut out = format!(
        "<g class=\"markers\" stroke=\"{}\" stroke-width=\"0.08\">\n",
        hex(palette::INK)
    );
    for m in &level.markers {
        let _ = writeln!(
            out,
            "<circle data-kind=\"{}\" data-room=\"{}\" cx=\"{}\" cy=\"{}\" r=\"0.28\" fill=\"{}\"><title>{} in {}</title></circle>",
            escape(&m.kind),
            escape(&m.room),
            m.x as f32 + 0.5,
            m.y as f32 + 0.5,
            hex(palette::marker(&m.kind)),
            escape(&m.kind),
            escape(&m.room)
        );
    }
    out + "</g>\n"
}

fn keys(level: &Level) -> String {
    let mut out = format!(
        "<g class=\"keys\" fill=\"{}\" stroke=\"{}\" stroke-width=\"0.1\">\n",
        hex(palette::KEY),
        hex(palette::INK),
    );
    for item in &level.items {
        let (cx, cy) = (item.x as f32 + 0.5, item.y as f32 + 0.5);
        let _ = writeln!(
            out,
            "<polygon data-id=\"{}\" points=\"{cx},{} {},{cy} {cx},{} {},{cy}\"><title>{} {}</title></polygon>",
            escape(&item.id),
            cy - 0.4,
            cx + 0.4,
            cy + 0.4,
            cx - 0.4,
            escape(&item.kind),
            escape(&item.id)
        );
    }
    out + "</g>\n"
}

fn labels(scene: &Scene) -> String {
    let mut out = String::from("<g class=\"labels\">\n");
    for (i, room) in scene.level.rooms.iter().enumerate() {
        let (x, y) = scene.label_anchor(i);
        let _ = writeln!(out, "<text x=\"{x}\" y=\"{y}\">{}</text>", escape(&room.id));
    }
    out + "</g>\n"
}

/// The connections as lines between room label anchors; one-way ones end in
/// an arrow, warps are dashed.
fn graph(scene: &Scene) -> String {
    let level = scene.level;
    let anchor = |id: &str| {
        level
            .rooms
            .iter()
            .position(|r| r.id == id)
            .map(|i| scene.label_anchor(i))
    };
    let mut out = String::from("<g class=\"graph\">\n");
    for c in &level.connections {
        let (Some(a), Some(b)) = (anchor(&c.from), anchor(&c.to)) else {
            continue;
        };
        let class = if c.kind == ConnectionKind::Warp {
            " class=\"warp\""
        } else {
            ""
        };
        let marker = if c.one_way {
            " marker-end=\"url(#arrow)\""
        } else {
            ""
        };
        let _ = writeln!(
            out,
            "<line{class} x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\"{marker}/>",
            a.0, a.1, b.0, b.1
        );
    }
    for i in 0..level.rooms.len() {
        let (x, y) = scene.label_anchor(i);
        let _ = writeln!(out, "<circle cx=\"{x}\" cy=\"{y}\" r=\"0.35\"/>");
    }
    out + "</g>\n"
}

/// Escapes text for XML content and attributes.
fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}
