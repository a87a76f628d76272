//! Room sizes: sides drawn from the configured distribution, clamped to the
//! side range, with a bounded width/height ratio.
//!
//! Only `+ - * /` and `sqrt` are used (IEEE-exact), so a seed gives the same
//! sizes on every platform.

use crate::flow::SizeDistribution;
use crate::rng::Rng;

use super::settings::Settings;

/// Width and height of one room's floor.
pub fn size(s: &Settings, rng: &mut Rng) -> (i32, i32) {
    let mut w = side(s, rng);
    let mut h = side(s, rng);
    if f64::from(w) > f64::from(h) * s.max_aspect {
        w = (f64::from(h) * s.max_aspect).floor() as i32;
    } else if f64::from(h) > f64::from(w) * s.max_aspect {
        h = (f64::from(w) * s.max_aspect).floor() as i32;
    }
    (
        w.clamp(s.min_side, s.max_side),
        h.clamp(s.min_side, s.max_side),
    )
}

/// One side, in `min_side..=max_side`.
fn side(s: &Settings, rng: &mut Rng) -> i32 {
    match s.sizes {
        SizeDistribution::Geometric(p) => {
            // The smallest side plus the failures before the first success of
            // a `p` coin, cut at the largest side: at most max - min draws.
            let mut side = s.min_side;
            while side < s.max_side && !rng.chance(p) {
                side += 1;
            }
            side
        }
        SizeDistribution::SkewNormal { mean, sd, skew } => {
            let x = (mean + sd * skew_normal(skew, rng)).round();
            // `as` saturates, so huge values land on the bounds.
            (x as i32).clamp(s.min_side, s.max_side)
        }
    }
}

/// A skew normal variate with shape `alpha`, standardised to mean 0 and
/// deviation 1 (Azzalini's representation `d|Z0| + sqrt(1 - d^2) Z1`).
fn skew_normal(alpha: f64, rng: &mut Rng) -> f64 {
    let d = alpha / (1.0 + alpha * alpha).sqrt();
    let x = d * normal(rng).abs() + (1.0 - d * d).sqrt() * normal(rng);
    // sqrt(2 / pi): the mean of |Z0|.
    let m = std::f64::consts::FRAC_2_SQRT_PI * std::f64::consts::FRAC_1_SQRT_2;
    (x - d * m) / (1.0 - d * d * m * m).sqrt()
}

/// An approximately standard normal variate: the sum of twelve uniforms
/// minus six (Irwin-Hall; within +-6, exact arithmetic).
fn normal(rng: &mut Rng) -> f64 {
    (0..12).map(|_| rng.unit()).sum::<f64>() - 6.0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::flow::ScatterParams;

    fn settings(sizes: SizeDistribution, aspect: f64) -> Settings {
        Settings::new(&ScatterParams {
            sizes,
            max_aspect: aspect,
            min_side: 3,
            max_side: 20,
            ..ScatterParams::default()
        })
    }

    fn mean_side(s: &Settings) -> f64 {
        let mut rng = Rng::new(1);
        let n = 20_000;
        (0..n).map(|_| f64::from(side(s, &mut rng))).sum::<f64>() / f64::from(n)
    }

    #[test]
    fn geometric_sides_have_the_geometric_mean() {
        // 3 + (1 - p) / p, the tail above 20 being negligible for p = 0.25.
        let mean = mean_side(&settings(SizeDistribution::Geometric(0.25), 3.0));
        assert!((mean - 6.0).abs() < 0.1, "{mean}");
    }

    #[test]
    fn skew_normal_sides_have_the_configured_mean_and_skew() {
        let s = settings(
            SizeDistribution::SkewNormal {
                mean: 9.0,
                sd: 2.0,
                skew: 4.0,
            },
            3.0,
        );
        let mean = mean_side(&s);
        assert!((mean - 9.0).abs() < 0.1, "{mean}");
        let mut rng = Rng::new(2);
        let xs: Vec<f64> = (0..20_000).map(|_| skew_normal(4.0, &mut rng)).collect();
        let m = xs.iter().sum::<f64>() / xs.len() as f64;
        let third = xs.iter().map(|x| (x - m).powi(3)).sum::<f64>() / xs.len() as f64;
        assert!(
            m.abs() < 0.05 && third > 0.3,
            "mean {m}, third moment {third}"
        );
    }

    #[test]
    fn sizes_respect_bounds_and_aspect() {
        for dist in [
            SizeDistribution::Geometric(0.05),
            SizeDistribution::SkewNormal {
                mean: 10.0,
                sd: 20.0,
                skew: -3.0,
            },
        ] {
            let s = settings(dist, 1.5);
            let mut rng = Rng::new(3);
            for _ in 0..5_000 {
                let (w, h) = size(&s, &mut rng);
                assert!((3..=20).contains(&w) && (3..=20).contains(&h));
                let (lo, hi) = (w.min(h), w.max(h));
                assert!(f64::from(hi) <= f64::from(lo) * 1.5, "{w}x{h}");
            }
        }
    }
}
