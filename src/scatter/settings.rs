//! The scatter parameters made safe to run: every value clamped into the
//! range the generator handles, whatever a caller built by hand.

use crate::flow::{Region, ScatterParams, SizeDistribution};

/// Most rooms spawned (the YAML decoder's limit).
pub const MAX_ROOMS: usize = 2000;
/// Smallest room side (floor tiles).
pub const MIN_SIDE: i32 = 3;
/// Largest room side (floor tiles).
pub const MAX_SIDE: i32 = 64;
/// Largest spawn radius or half-axis, in tiles.
const MAX_RADIUS: f64 = 1000.0;

/// Sanitised [`ScatterParams`].
#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    /// Rooms spawned, `1..=MAX_ROOMS`.
    pub rooms: usize,
    /// Half-axes of the spawn region (equal for a circle), `1..=1000`.
    pub region: (f64, f64),
    /// Side distribution, its numbers finite.
    pub sizes: SizeDistribution,
    /// Smallest floor side, `MIN_SIDE..=MAX_SIDE`.
    pub min_side: i32,
    /// Largest floor side, `min_side..=MAX_SIDE`.
    pub max_side: i32,
    /// Largest width/height ratio, `>= 1`.
    pub max_aspect: f64,
    /// Main-room threshold (times the mean side), `> 0`.
    pub main_threshold: f64,
    /// Fraction of non-tree edges added back, `0..=1`.
    pub extra_edges: f64,
    /// Corridor width, `1..=3`.
    pub corridor_width: i32,
    /// Separation steps before giving up.
    pub max_steps: u32,
}

/// `x` when finite, else `default`.
fn finite(x: f64, default: f64) -> f64 {
    if x.is_finite() { x } else { default }
}

impl Settings {
    /// Clamps every parameter into its working range.
    pub fn new(p: &ScatterParams) -> Self {
        let radius = |r: f64| finite(r, 1.0).clamp(1.0, MAX_RADIUS);
        let region = match p.region {
            Region::Circle(r) => (radius(r), radius(r)),
            Region::Ellipse(a, b) => (radius(a), radius(b)),
        };
        let sizes = match p.sizes {
            SizeDistribution::Geometric(q) => SizeDistribution::Geometric(finite(q, 0.25)),
            SizeDistribution::SkewNormal { mean, sd, skew } => SizeDistribution::SkewNormal {
                mean: finite(mean, 6.0),
                sd: finite(sd, 0.0).abs(),
                skew: finite(skew, 0.0),
            },
        };
        let side = |s: u32| {
            i32::try_from(s)
                .unwrap_or(MAX_SIDE)
                .clamp(MIN_SIDE, MAX_SIDE)
        };
        let (a, b) = (side(p.min_side), side(p.max_side));
        Self {
            rooms: usize::try_from(p.rooms)
                .unwrap_or(MAX_ROOMS)
                .clamp(1, MAX_ROOMS),
            region,
            sizes,
            min_side: a.min(b),
            max_side: a.max(b),
            max_aspect: finite(p.max_aspect, 1.0).max(1.0),
            main_threshold: finite(p.main_threshold, 1.25).max(f64::MIN_POSITIVE),
            extra_edges: finite(p.extra_edges, 0.0).clamp(0.0, 1.0),
            corridor_width: i32::try_from(p.corridor_width).unwrap_or(3).clamp(1, 3),
            max_steps: p.max_steps,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hand_built_nonsense_is_clamped() {
        let p = ScatterParams {
            rooms: u32::MAX,
            region: Region::Ellipse(f64::NAN, -5.0),
            sizes: SizeDistribution::SkewNormal {
                mean: f64::INFINITY,
                sd: -2.0,
                skew: f64::NAN,
            },
            min_side: 90,
            max_side: 0,
            max_aspect: 0.2,
            main_threshold: -1.0,
            extra_edges: 7.0,
            corridor_width: 0,
            max_steps: 5,
        };
        let s = Settings::new(&p);
        assert_eq!(s.rooms, MAX_ROOMS);
        assert_eq!(s.region, (1.0, 1.0));
        assert_eq!(
            s.sizes,
            SizeDistribution::SkewNormal {
                mean: 6.0,
                sd: 2.0,
                skew: 0.0
            }
        );
        assert_eq!((s.min_side, s.max_side), (MIN_SIDE, MAX_SIDE));
        assert_eq!(s.max_aspect, 1.0);
        assert!(s.main_threshold > 0.0);
        assert_eq!(s.extra_edges, 1.0);
        assert_eq!(s.corridor_width, 1);
    }
}
