//! The one seeded random source of every generator.
//!
//! ChaCha8 gives the same raw stream on every platform; the samplers below are
//! written on `next_u32`/`next_u64` only, so levels stay the same across `rand`
//! releases (whose range and shuffle algorithms have changed before).

use rand_chacha::ChaCha8Rng;
use rand_core::{Rng as _, SeedableRng};

/// A portable, seeded random source.
#[derive(Clone, Debug)]
pub struct Rng(ChaCha8Rng);

impl Rng {
    /// A source seeded with `seed`.
    pub fn new(seed: u64) -> Self {
        Self(ChaCha8Rng::seed_from_u64(seed))
    }

    /// An independent source for one stage, so a change in one stage does not
    /// reshuffle the random draws of the others.
    pub fn derive(seed: u64, stage: &str) -> Self {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for b in stage.bytes() {
            h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
        Self::new(splitmix64(seed ^ h))
    }

    /// A fresh sub-seed drawn from this source.
    pub fn next_seed(&mut self) -> u64 {
        self.0.next_u64()
    }

    /// 32 random bits.
    pub fn next_u32(&mut self) -> u32 {
        self.0.next_u32()
    }

    /// A uniform integer in `0..n` (`n > 0`), without modulo bias.
    pub fn below(&mut self, n: u32) -> u32 {
        debug_assert!(n > 0);
        if n <= 1 {
            return 0;
        }
        let threshold = n.wrapping_neg() % n;
        loop {
            let m = u64::from(self.next_u32()) * u64::from(n);
            if (m as u32) >= threshold {
                return (m >> 32) as u32;
            }
        }
    }

    /// A uniform index into a slice of length `len` (`len > 0`).
    pub fn index(&mut self, len: usize) -> usize {
        self.below(u32::try_from(len).unwrap_or(u32::MAX)) as usize
    }

    /// A uniform integer in `lo..=hi`.
    pub fn range(&mut self, lo: u32, hi: u32) -> u32 {
        if hi <= lo {
            return lo;
        }
        lo + self.below(hi - lo + 1)
    }

    /// A uniform float in `[0, 1)` with 53 bits of precision.
    pub fn unit(&mut self) -> f64 {
        (self.0.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// True with probability `p` (`p >= 1` always, `p <= 0` never).
    pub fn chance(&mut self, p: f64) -> bool {
        if p >= 1.0 {
            return true;
        }
        if p <= 0.0 {
            return false;
        }
        self.unit() < p
    }

    /// An index drawn with probability proportional to `weights`; `None` when
    /// no weight is positive.
    pub fn weighted(&mut self, weights: &[f64]) -> Option<usize> {
        let total: f64 = weights.iter().filter(|w| **w > 0.0).sum();
        if total <= 0.0 {
            return None;
        }
        let mut r = self.unit() * total;
        let mut last = None;
        for (i, &w) in weights.iter().enumerate() {
            if w <= 0.0 {
                continue;
            }
            if r < w {
                return Some(i);
            }
            r -= w;
            last = Some(i);
        }
        last
    }

    /// Shuffles in place (Fisher-Yates).
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.index(i + 1);
            items.swap(i, j);
        }
    }
}

fn splitmix64(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_stream_and_pinned_values() {
        let mut a = Rng::new(42);
        let mut b = Rng::new(42);
        let xs: Vec<u32> = (0..8).map(|_| a.below(1000)).collect();
        let ys: Vec<u32> = (0..8).map(|_| b.below(1000)).collect();
        assert_eq!(xs, ys);
        // Pinned: a change here changes every level ever generated.
        insta::assert_debug_snapshot!(xs);
    }

    #[test]
    fn below_is_uniform() {
        let mut r = Rng::new(7);
        let mut counts = [0u32; 6];
        for _ in 0..60_000 {
            counts[r.below(6) as usize] += 1;
        }
        for c in counts {
            assert!((9_500..10_500).contains(&c), "{counts:?}");
        }
    }

    #[test]
    fn weighted_follows_weights_and_skips_zero() {
        let mut r = Rng::new(9);
        let mut counts = [0u32; 3];
        for _ in 0..40_000 {
            counts[r.weighted(&[1.0, 0.0, 3.0]).expect("positive")] += 1;
        }
        assert_eq!(counts[1], 0);
        let share = f64::from(counts[2]) / 40_000.0;
        assert!((share - 0.75).abs() < 0.01, "{share}");
        assert_eq!(r.weighted(&[0.0, 0.0]), None);
    }

    #[test]
    fn derived_stages_differ() {
        assert_ne!(
            Rng::derive(1, "a").next_u32(),
            Rng::derive(1, "b").next_u32()
        );
        assert_eq!(
            Rng::derive(1, "a").next_u32(),
            Rng::derive(1, "a").next_u32()
        );
    }
}
