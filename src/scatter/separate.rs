//! Stage 2: separation steering. Every room that overlaps another moves away
//! from it along the axis of least overlap, on the tile grid, until no two
//! footprints (floor and wall ring) share a tile. Rooms marked `apart` (the
//! main rooms, in a second pass) also keep `gap` free tiles between them, so
//! that a corridor can always pass between two of them.

use crate::rng::Rng;

use super::rect::Rect;

/// Separation that did not finish within its steps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stuck {
    /// Steps run.
    pub steps: u32,
    /// Pairs of rooms still overlapping.
    pub overlapping: usize,
}

/// Which rooms keep a gap between them, and how wide it is.
#[derive(Clone, Copy, Debug)]
pub struct Spacing<'a> {
    /// Rooms (by index) that keep `gap` tiles from each other; all other
    /// pairs may touch.
    pub apart: &'a [bool],
    /// Free tiles between the footprints of two `apart` rooms.
    pub gap: i32,
}

impl Spacing<'_> {
    /// Rooms may touch, none overlap.
    pub const TOUCHING: Spacing<'static> = Spacing { apart: &[], gap: 0 };

    fn between(&self, a: usize, b: usize) -> i32 {
        let apart = |i: usize| self.apart.get(i).copied().unwrap_or(false);
        if apart(a) && apart(b) { self.gap } else { 0 }
    }
}

/// Moves the rooms (given by their floors) apart until no two footprints
/// overlap or come closer than `spacing` asks, in at most `max_steps`
/// steps; the steps used, or how far it got.
pub fn separate(
    floors: &mut [Rect],
    spacing: Spacing,
    max_steps: u32,
    rng: &mut Rng,
) -> Result<u32, Stuck> {
    let mut sweep = Sweep::default();
    let mut moved = vec![true; floors.len()];
    for step in 0..max_steps {
        sweep.run(floors, spacing, &moved);
        if sweep.pairs.is_empty() {
            return Ok(step);
        }
        moved.fill(false);
        for &(a, b) in &sweep.pairs {
            if push_apart(floors, a, b, spacing.between(a, b), rng) {
                (moved[a], moved[b]) = (true, true);
            }
        }
    }
    match overlapping_pairs(floors, spacing).len() {
        0 => Ok(max_steps),
        overlapping => Err(Stuck {
            steps: max_steps,
            overlapping,
        }),
    }
}

/// Pairs `(a, b)`, `a < b`, of rooms whose footprints share a tile or come
/// closer than `spacing` asks, sorted.
pub fn overlapping_pairs(floors: &[Rect], spacing: Spacing) -> Vec<(usize, usize)> {
    let mut sweep = Sweep::default();
    sweep.run(floors, spacing, &vec![true; floors.len()]);
    sweep.pairs.sort_unstable();
    sweep.pairs
}

/// Sweep and prune along x, keeping its buffers between steps. Rooms move
/// little in one step, so their order by left edge is nearly sorted and an
/// insertion sort restores it in about linear time; and only rooms that
/// moved in the last step can have come too close, so only their
/// neighbourhoods are searched.
#[derive(Debug, Default)]
struct Sweep {
    /// Rooms by left edge (then index).
    order: Vec<usize>,
    /// Pairs found by the last run, in sweep order.
    pairs: Vec<(usize, usize)>,
}

impl Sweep {
    /// Finds the pairs too close of which at least one room is `moved`.
    fn run(&mut self, floors: &[Rect], spacing: Spacing, moved: &[bool]) {
        let left = |i: usize| (floors[i].x, i);
        if self.order.len() != floors.len() {
            self.order = (0..floors.len()).collect();
        }
        for k in 1..self.order.len() {
            let mut j = k;
            while j > 0 && left(self.order[j - 1]) > left(self.order[j]) {
                self.order.swap(j - 1, j);
                j -= 1;
            }
        }
        let widest = floors.iter().map(|f| f.w + 2).max().unwrap_or(0);
        self.pairs.clear();
        for (k, &a) in self.order.iter().enumerate() {
            if !moved[a] {
                continue;
            }
            let pa = floors[a].footprint();
            let close = |b: usize, pairs: &mut Vec<(usize, usize)>| {
                if pa
                    .grown(spacing.between(a, b))
                    .intersects(&floors[b].footprint())
                {
                    pairs.push((a.min(b), a.max(b)));
                }
            };
            // To the left, rooms that did not move (the others find `a`).
            for &b in self.order[..k].iter().rev() {
                if floors[b].x - 1 + widest + spacing.gap < pa.x {
                    break;
                }
                if !moved[b] {
                    close(b, &mut self.pairs);
                }
            }
            for &b in &self.order[k + 1..] {
                if floors[b].x - 1 > pa.right() + spacing.gap {
                    break;
                }
                close(b, &mut self.pairs);
            }
        }
    }
}

/// Moves `a` and `b` apart (half the overlap each) along the axis where they
/// overlap least, if they still overlap or are less than `gap` apart;
/// whether they moved.
fn push_apart(floors: &mut [Rect], a: usize, b: usize, gap: i32, rng: &mut Rng) -> bool {
    let (fa, fb) = (floors[a].footprint().grown(gap), floors[b].footprint());
    let (ox, oy) = fa.overlap(&fb);
    if ox <= 0 || oy <= 0 {
        return false;
    }
    let ((ax, ay), (bx, by)) = (fa.centre2(), fb.centre2());
    let (dx, dy) = (bx - ax, by - ay);
    let along_x = ox < oy || (ox == oy && dx.abs() >= dy.abs());
    let (overlap, d) = if along_x { (ox, dx) } else { (oy, dy) };
    let sign = match d.signum() {
        0 if rng.chance(0.5) => -1,
        0 => 1,
        s => s as i32,
    };
    // `b` moves by `sign * mb`, `a` by `-sign * ma`; the odd tile at random.
    let mb = (overlap + i32::from(rng.chance(0.5))) / 2;
    let ma = overlap - mb;
    let (sa, sb) = (-sign * ma, sign * mb);
    if along_x {
        floors[a] = floors[a].moved(sa, 0);
        floors[b] = floors[b].moved(sb, 0);
    } else {
        floors[a] = floors[a].moved(0, sa);
        floors[b] = floors[b].moved(0, sb);
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rooms_on_one_point_separate_and_touch_at_most() {
        let mut floors = vec![Rect::new(0, 0, 5, 4); 30];
        let steps =
            separate(&mut floors, Spacing::TOUCHING, 1000, &mut Rng::new(1)).expect("converges");
        assert!(steps > 0);
        assert!(overlapping_pairs(&floors, Spacing::TOUCHING).is_empty());
        // Separation pushes no further than it must: some walls touch.
        let touching = (0..30)
            .flat_map(|a| (a + 1..30).map(move |b| (a, b)))
            .filter(|&(a, b)| {
                let (ox, oy) = floors[a].footprint().overlap(&floors[b].footprint());
                (ox == 0 && oy > 0) || (oy == 0 && ox > 0)
            })
            .count();
        assert!(touching > 0);
    }

    #[test]
    fn no_steps_leaves_overlaps_and_says_how_many() {
        let mut floors = vec![Rect::new(0, 0, 5, 5); 3];
        assert_eq!(
            separate(&mut floors, Spacing::TOUCHING, 0, &mut Rng::new(1)),
            Err(Stuck {
                steps: 0,
                overlapping: 3
            })
        );
        let mut apart = vec![Rect::new(0, 0, 3, 3), Rect::new(10, 0, 3, 3)];
        assert_eq!(
            separate(&mut apart, Spacing::TOUCHING, 0, &mut Rng::new(1)),
            Ok(0)
        );
    }

    #[test]
    fn rooms_kept_apart_leave_the_gap() {
        let mut floors = vec![Rect::new(0, 0, 4, 4); 12];
        let apart: Vec<bool> = (0..12).map(|i| i % 3 == 0).collect();
        let spacing = Spacing {
            apart: &apart,
            gap: 3,
        };
        separate(&mut floors, spacing, 1000, &mut Rng::new(2)).expect("converges");
        for a in 0..12 {
            for b in a + 1..12 {
                let g = if apart[a] && apart[b] { 3 } else { 0 };
                let (fa, fb) = (floors[a].footprint(), floors[b].footprint());
                assert!(!fa.grown(g).intersects(&fb), "{a} {b}: {fa:?} {fb:?}");
            }
        }
    }

    #[test]
    fn sweep_finds_the_same_pairs_as_brute_force() {
        let mut rng = Rng::new(4);
        let floors: Vec<Rect> = (0..200)
            .map(|_| {
                Rect::new(
                    rng.below(60) as i32,
                    rng.below(60) as i32,
                    3 + rng.below(8) as i32,
                    3 + rng.below(8) as i32,
                )
            })
            .collect();
        let mut brute = Vec::new();
        for a in 0..floors.len() {
            for b in a + 1..floors.len() {
                if floors[a].footprint().intersects(&floors[b].footprint()) {
                    brute.push((a, b));
                }
            }
        }
        assert_eq!(overlapping_pairs(&floors, Spacing::TOUCHING), brute);
    }
}
