//! The trials of the corridor searches (ways to attach a part by corridor),
//! gathered into buffers that every search of a layout attempt reuses and
//! yielded shortest first.

use rustc_hash::FxHashMap;

use crate::geom::Pos;

/// A way to attach a part by corridor: its sort key (a corridor length plus
/// a jitter), the host's exit, the anchor's exit, and the corridor's far end
/// (the free tile in front of the anchor's exit). The corridor's start and
/// the part's offset follow from these. Kept small: a search on a map of
/// 1,000 rooms gathers tens of thousands of trials.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Trial {
    /// Corridor length plus jitter: smaller keys are tried first.
    pub key: f64,
    /// Index of the host room's exit.
    pub host_exit: u32,
    /// Index of the anchor room's exit.
    pub anchor_exit: u32,
    /// The corridor's last tile, in front of the anchor's exit.
    pub end: Pos,
}

/// The buffers of the corridor searches of a layout attempt.
#[derive(Debug, Default)]
pub struct SearchBuffers {
    /// The trials of the search.
    pub trials: Trials,
    /// Free tiles for a corridor's far end, with the corridor's length.
    pub ends: Vec<(Pos, u32)>,
    /// Tiles seen by [`reach`](super::corridor::reach).
    pub seen: Vec<bool>,
}

/// Buckets of [`Trials::search`] per tile of corridor length.
const BUCKETS_PER_TILE: f64 = 64.0;

/// The trials of one search, and the buffers to order them, kept for the
/// whole layout attempt: growing fresh vectors of tens of thousands of
/// trials for every search took a sixth of the time of 1,000-room levels.
#[derive(Debug, Default)]
pub struct Trials {
    /// Trials in the order gathered.
    gathered: Vec<Trial>,
    /// The bucket of each gathered trial.
    bucket_of: Vec<u32>,
    /// The same trials grouped by their key's bucket, shortest first.
    by_bucket: Vec<Trial>,
    /// Where each bucket starts in `by_bucket`, plus its end.
    starts: Vec<usize>,
    /// Where the next trial of each bucket goes while grouping.
    cursor: Vec<usize>,
    /// Whether the part fits at each offset looked at (see [`Trials::search`]).
    fits: FxHashMap<Pos, bool>,
}

impl Trials {
    /// Forgets the last search's trials (keeping the buffers).
    pub fn clear(&mut self) {
        self.gathered.clear();
        self.bucket_of.clear();
    }

    /// Adds a trial.
    pub fn push(&mut self, trial: Trial) {
        self.gathered.push(trial);
        self.bucket_of
            .push((trial.key.max(0.0) * BUCKETS_PER_TILE) as u32);
    }

    /// How many trials were gathered.
    pub fn len(&self) -> usize {
        self.gathered.len()
    }

    /// Starts looking at the gathered trials: yields them by key, smallest
    /// first, with an emptied cache for whether the part fits at an offset
    /// (trials from different host exits often put it in the same place).
    /// The order is a sort's, up to equal keys. A bucket sort: a key is a corridor
    /// length plus a jitter, so buckets of a fraction of a tile hold few
    /// trials each, and a bucket is sorted only when the iteration reaches
    /// it. A search that ends early never sorts the tens of thousands of
    /// trials a far search may gather, and one that looks at all of them
    /// does a few comparisons per trial.
    pub fn search(&mut self) -> (ShortestFirst<'_>, &mut FxHashMap<Pos, bool>) {
        let count = self.bucket_of.iter().max().map_or(0, |&b| b as usize + 1);
        self.starts.clear();
        self.starts.resize(count + 1, 0);
        for &b in &self.bucket_of {
            self.starts[b as usize + 1] += 1;
        }
        for b in 1..=count {
            self.starts[b] += self.starts[b - 1];
        }
        self.cursor.clear();
        self.cursor.extend_from_slice(&self.starts);
        self.by_bucket.clear();
        self.by_bucket.resize(self.gathered.len(), PLACEHOLDER);
        for (t, &b) in self.gathered.iter().zip(&self.bucket_of) {
            let slot = &mut self.cursor[b as usize];
            self.by_bucket[*slot] = *t;
            *slot += 1;
        }
        self.fits.clear();
        let yielded = ShortestFirst {
            trials: &mut self.by_bucket,
            starts: &self.starts,
            bucket: 0,
            next: 0,
            end: 0,
        };
        (yielded, &mut self.fits)
    }
}

/// Fills [`Trials::by_bucket`] before the trials are written over it.
const PLACEHOLDER: Trial = Trial {
    key: 0.0,
    host_exit: 0,
    anchor_exit: 0,
    end: Pos { x: 0, y: 0 },
};

/// The trials of [`Trials::search`], shortest first.
pub struct ShortestFirst<'a> {
    trials: &'a mut [Trial],
    starts: &'a [usize],
    /// The next bucket to enter.
    bucket: usize,
    /// The next trial to yield, and the end of its (sorted) bucket.
    next: usize,
    end: usize,
}

impl Iterator for ShortestFirst<'_> {
    type Item = Trial;

    fn next(&mut self) -> Option<Trial> {
        while self.next == self.end {
            let b = self.bucket;
            if b + 1 >= self.starts.len() {
                return None;
            }
            let (start, end) = (self.starts[b], self.starts[b + 1]);
            self.trials[start..end].sort_unstable_by(|x, y| x.key.total_cmp(&y.key));
            self.bucket += 1;
            self.next = start;
            self.end = end;
        }
        let t = self.trials[self.next];
        self.next += 1;
        Some(t)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_search_yields_every_trial_shortest_first_and_buffers_are_reused() {
        let mut rng = crate::rng::Rng::new(7);
        let mut trials = Trials::default();
        for n in [0, 1, 2, 1023, 3089, 5] {
            trials.clear();
            for i in 0..n {
                trials.push(Trial {
                    key: rng.unit() * 40.0 - 0.5,
                    host_exit: i,
                    anchor_exit: 0,
                    end: Pos::new(0, 0),
                });
            }
            assert_eq!(trials.len(), n as usize);
            let mut sorted = trials.gathered.clone();
            sorted.sort_by(|a, b| a.key.total_cmp(&b.key));
            let got: Vec<u32> = trials.search().0.map(|t| t.host_exit).collect();
            let want: Vec<u32> = sorted.iter().map(|t| t.host_exit).collect();
            assert_eq!(got, want, "{n} trials");
        }
    }
}
