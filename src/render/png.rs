//! PNG: a top-down picture of the level, one square of `scale` pixels per
//! tile, rooms tinted by category, doors, locks, one-way arrows and keys
//! marked, optional room labels.

use image::{ImageEncoder, Rgb, RgbImage};

use super::RenderOptions;
use super::palette;
use super::scene::Scene;
use crate::diag::Diagnostic;
use crate::level::{Level, TileKind};

/// Largest picture side in pixels; a bigger level needs a smaller `--scale`.
pub const MAX_SIDE: u32 = 16_384;

/// Encodes the level as a PNG.
pub fn render_png(level: &Level, options: &RenderOptions) -> Result<Vec<u8>, Diagnostic> {
    let image = paint(level, options)?;
    let mut bytes = Vec::new();
    image::codecs::png::PngEncoder::new(&mut bytes)
        .write_image(
            image.as_raw(),
            image.width(),
            image.height(),
            image::ExtendedColorType::Rgb8,
        )
        .map_err(|e| Diagnostic::error("render::png", format!("cannot encode the PNG: {e}")))?;
    Ok(bytes)
}

/// Paints the level into an RGB image.
pub fn paint(level: &Level, options: &RenderOptions) -> Result<RgbImage, Diagnostic> {
    let scale = options.scale.max(1);
    let (w, h) = (level.width.max(1) as u32, level.height.max(1) as u32);
    if w.saturating_mul(scale) > MAX_SIDE || h.saturating_mul(scale) > MAX_SIDE {
        return Err(Diagnostic::error(
            "render::too-large",
            format!("a {w}x{h} level at {scale} pixels per tile is larger than {MAX_SIDE} pixels"),
        )
        .help("pass a smaller --scale"));
    }
    let scene = Scene::new(level);
    let mut image = RgbImage::from_pixel(w * scale, h * scale, Rgb(palette::VOID));
    for y in 0..level.height {
        for x in 0..level.width {
            paint_tile(&mut image, &scene, x, y, scale);
        }
    }
    for (cell, step) in scene.one_way_steps() {
        paint_in_tile(&mut image, cell, scale, |u, v| {
            in_arrow(u, v, step).then_some(palette::PAPER)
        });
    }
    if options.labels {
        for (i, room) in level.rooms.iter().enumerate() {
            let (cx, cy) = scene.label_anchor(i);
            let zoom = if scale >= 16 { 2 } else { 1 };
            let at = ((cx * scale as f32) as i64, (cy * scale as f32) as i64);
            draw_text(&mut image, &room.id, at, zoom);
        }
    }
    // Markers and keys last, so that a label never hides one.
    for m in &level.markers {
        let colour = palette::marker(&m.kind);
        paint_in_tile(&mut image, [m.x, m.y], scale, |u, v| {
            let r2 = (u - 0.5).powi(2) + (v - 0.5).powi(2);
            (r2 <= 0.09).then_some(if r2 > 0.05 { palette::INK } else { colour })
        });
    }
    for item in &level.items {
        paint_in_tile(&mut image, [item.x, item.y], scale, |u, v| {
            let d = (u - 0.5).abs() + (v - 0.5).abs();
            (d <= 0.4).then_some(if d > 0.3 { palette::INK } else { palette::KEY })
        });
    }
    Ok(image)
}

/// The base colour of a tile, then its mark (pillar, keyhole, grid line).
fn paint_tile(image: &mut RgbImage, scene: &Scene, x: i32, y: i32, scale: u32) {
    let kind = scene.level.tile(x, y);
    let floor = scene
        .category(x, y)
        .map_or(crate::category::colour("normal"), crate::category::colour);
    let base = match kind {
        TileKind::Void => return,
        TileKind::Wall => palette::WALL,
        TileKind::Floor | TileKind::Pillar => floor,
        TileKind::Door => palette::DOOR,
        TileKind::LockedDoor => palette::LOCKED_DOOR,
        TileKind::OneWayDoor => palette::ONE_WAY_DOOR,
        TileKind::Corridor => palette::CORRIDOR,
        TileKind::Pit => palette::PIT,
    };
    let grid = shade(base, 0.92);
    paint_in_tile(image, [x, y], scale, |u, v| {
        let r2 = (u - 0.5).powi(2) + (v - 0.5).powi(2);
        Some(match kind {
            TileKind::Pillar if r2 <= 0.14 => palette::PILLAR,
            TileKind::LockedDoor if r2 <= 0.03 => palette::KEY,
            TileKind::Floor | TileKind::Corridor if scale >= 6 && (u < 0.01 || v < 0.01) => grid,
            _ => base,
        })
    });
}

/// Calls `colour(u, v)` for each pixel of tile `cell` (u, v in 0..1 from
/// the tile's top left) and sets the pixels it returns a colour for.
fn paint_in_tile(
    image: &mut RgbImage,
    cell: [i32; 2],
    scale: u32,
    colour: impl Fn(f32, f32) -> Option<[u8; 3]>,
) {
    let (x0, y0) = (cell[0] as u32 * scale, cell[1] as u32 * scale);
    for py in 0..scale {
        for px in 0..scale {
            let u = (px as f32 + 0.5) / scale as f32;
            let v = (py as f32 + 0.5) / scale as f32;
            if let Some(c) = colour(u, v)
                && x0 + px < image.width()
                && y0 + py < image.height()
            {
                image.put_pixel(x0 + px, y0 + py, Rgb(c));
            }
        }
    }
}

/// Whether (u, v) lies in a triangle pointing along `step`.
fn in_arrow(u: f32, v: f32, step: [i32; 2]) -> bool {
    let (dx, dy) = (step[0] as f32, step[1] as f32);
    let (px, py) = (u - 0.5, v - 0.5);
    let along = px * dx + py * dy;
    let across = (px * dy - py * dx).abs();
    (-0.3..=0.3).contains(&along) && across <= (0.3 - along) * 0.6
}

fn shade(c: [u8; 3], f: f32) -> [u8; 3] {
    c.map(|v| (v as f32 * f) as u8)
}

/// Draws `text` centred on `at` (pixels) with the 8x8 bitmap font, dark
/// on a light halo, clipped to the image.
fn draw_text(image: &mut RgbImage, text: &str, at: (i64, i64), zoom: i64) {
    let glyphs: Vec<[u8; 8]> = text
        .chars()
        .map(|c| {
            font8x8::legacy::BASIC_LEGACY[if c.is_ascii() {
                c as usize
            } else {
                b'?' as usize
            }]
        })
        .collect();
    let width = glyphs.len() as i64 * 8 * zoom;
    let left = at.0 - width / 2;
    let top = at.1 - 4 * zoom;
    let mut plot = |x: i64, y: i64, c: [u8; 3]| {
        if x >= 0 && y >= 0 && x < image.width() as i64 && y < image.height() as i64 {
            image.put_pixel(x as u32, y as u32, Rgb(c));
        }
    };
    for pass in [palette::PAPER, palette::INK] {
        let halo = if pass == palette::PAPER { 1 } else { 0 };
        for (i, glyph) in glyphs.iter().enumerate() {
            for (row, bits) in glyph.iter().enumerate() {
                for col in 0..8 {
                    if bits & (1 << col) == 0 {
                        continue;
                    }
                    let gx = left + (i as i64 * 8 + col) * zoom;
                    let gy = top + row as i64 * zoom;
                    for oy in -halo..zoom + halo {
                        for ox in -halo..zoom + halo {
                            plot(gx + ox, gy + oy, pass);
                        }
                    }
                }
            }
        }
    }
}
