//! Stage 1: rooms at random points of the spawn region, snapped to the tile
//! grid.

use crate::rng::Rng;

use super::rect::Rect;
use super::settings::Settings;
use super::sizes::size;

/// Draws before a point of the square falls into the disc (each hits with
/// probability pi/4, so this is never reached in practice).
const DISC_TRIES: u32 = 64;

/// The floors of `s.rooms` rooms, centred on random points of the region.
pub fn spawn(s: &Settings, rng: &mut Rng) -> Vec<Rect> {
    (0..s.rooms)
        .map(|_| {
            let (u, v) = unit_disc(rng);
            let (cx, cy) = (u * s.region.0, v * s.region.1);
            let (w, h) = size(s, rng);
            let x = (cx - f64::from(w) / 2.0).round() as i32;
            let y = (cy - f64::from(h) / 2.0).round() as i32;
            Rect::new(x, y, w, h)
        })
        .collect()
}

/// A point uniform in the unit disc. The reference's polar formula gives the
/// same distribution; rejection needs no `sin`/`cos`, whose last bit may
/// differ between platforms, so a seed spawns the same rooms everywhere.
fn unit_disc(rng: &mut Rng) -> (f64, f64) {
    for _ in 0..DISC_TRIES {
        let (u, v) = (2.0 * rng.unit() - 1.0, 2.0 * rng.unit() - 1.0);
        if u * u + v * v <= 1.0 {
            return (u, v);
        }
    }
    (0.0, 0.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::flow::{Region, ScatterParams};

    #[test]
    fn rooms_spawn_inside_the_ellipse_and_fill_it() {
        let s = Settings::new(&ScatterParams {
            rooms: 2000,
            region: Region::Ellipse(60.0, 20.0),
            ..ScatterParams::default()
        });
        let rooms = spawn(&s, &mut Rng::new(5));
        assert_eq!(rooms.len(), 2000);
        let mut right_half = 0;
        for r in &rooms {
            let (cx, cy) = r.centre2();
            let (x, y) = (cx as f64 / 2.0, cy as f64 / 2.0);
            // Snapping moves a centre by at most one tile.
            assert!((x / 61.0).powi(2) + (y / 21.0).powi(2) <= 1.0, "{r:?}");
            right_half += usize::from(x > 0.0);
        }
        assert!((900..1100).contains(&right_half), "{right_half}");
    }
}
