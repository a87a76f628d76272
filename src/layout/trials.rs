//! The trials of the corridor searches (ways to attach a part by corridor),
//! gathered into buffers that every search of a layout attempt reuses and
//! yielded shortest first: all at once ([`Trials`]) or, for the far
//! search, corridor length by corridor length as the search goes
//! ([`ByLength`]).

use std::cmp::Ordering;
use std::collections::BinaryHeap;

use rustc_hash::FxHashMap;

use super::canvas::Canvas;
use super::corridor::Flood;
use crate::geom::{Dir, Pos};
use crate::rng::Rng;

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
    /// The trials of a far search, listed as it goes.
    pub by_length: ByLength,
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

    /// The emptied cache of [`Trials::search`] alone, for a search whose
    /// trials come from elsewhere (a [`ByLength`] far search).
    pub fn fits_cache(&mut self) -> &mut FxHashMap<Pos, bool> {
        self.fits.clear();
        &mut self.fits
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

/// The trials of a far corridor search, listed one corridor length at a
/// time as the search reaches it. A trial's key is its corridor's length
/// plus a jitter of less than the `jitter` given to [`ByLength::start`],
/// never less than the length, so once every length up to `L` is listed,
/// the listed trials keyed below `L + 1` come before any trial not yet
/// listed. A far search lists tens of thousands of trials (every free
/// tile a corridor reaches, times the anchor's exits) and a failing one
/// looks at a tenth of them: listing them all took a quarter of the time
/// of small levels that fail.
#[derive(Debug, Default)]
pub struct ByLength {
    /// The host exits: index, width, and the flood of the ground their
    /// corridors reach (the first `hosts.len()` of `floods`).
    hosts: Vec<(u32, usize)>,
    /// Floods, kept for the next searches.
    floods: Vec<Flood>,
    /// The anchor's exits: index, the step from a corridor's end back to
    /// the exit's door tile, and the exit's width.
    anchors: Vec<(u32, Dir, usize)>,
    /// Listed trials not yet yielded, smallest key on top.
    pending: BinaryHeap<Pending>,
    /// The next corridor length to list.
    length: u32,
    /// The longest corridor.
    max: u32,
    /// The jitter added to a trial's length.
    jitter: f64,
    /// Trials listed since [`ByLength::start`].
    listed: u64,
}

/// A listed trial of a [`ByLength`] search, ordered for a min-heap by key,
/// then by the order listed.
#[derive(Clone, Copy, Debug)]
struct Pending {
    trial: Trial,
    order: u64,
}

impl PartialEq for Pending {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Pending {}

impl PartialOrd for Pending {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Pending {
    fn cmp(&self, other: &Self) -> Ordering {
        other
            .trial
            .key
            .total_cmp(&self.trial.key)
            .then(other.order.cmp(&self.order))
    }
}

impl ByLength {
    /// Starts a search for corridors of `min` to `max` tiles whose keys get
    /// a jitter of up to `jitter` tiles (forgetting the last search, keeping
    /// the buffers).
    pub fn start(&mut self, min: u32, max: u32, jitter: f64) {
        self.hosts.clear();
        self.anchors.clear();
        self.pending.clear();
        self.length = min.max(1);
        self.max = max;
        self.jitter = jitter;
        self.listed = 0;
    }

    /// Adds a host exit of `width` tiles whose corridors start on `front`
    /// (free on `map`, which must stay as it is during the search).
    pub fn add_host(&mut self, map: &Canvas, exit: u32, width: usize, front: Pos) {
        if self.floods.len() == self.hosts.len() {
            self.floods.push(Flood::default());
        }
        self.floods[self.hosts.len()].start(map, front, self.max);
        self.hosts.push((exit, width));
    }

    /// Adds an anchor exit of `width` tiles whose door is a step `back`
    /// from a corridor's end.
    pub fn add_anchor(&mut self, exit: u32, back: Dir, width: usize) {
        self.anchors.push((exit, back, width));
    }

    /// Trials listed so far.
    pub fn listed(&self) -> u64 {
        self.listed
    }

    /// The trial with the next smallest key, listing the next corridor
    /// lengths as needed: an end is a trial with every anchor exit of the
    /// host exit's width whose door tile is clear on `map` (which must be
    /// as it was when the search started).
    pub fn next(&mut self, map: &Canvas, rng: &mut Rng) -> Option<Trial> {
        loop {
            let listed_all = self.length > self.max;
            match self.pending.peek() {
                Some(p) if listed_all || p.trial.key < f64::from(self.length) => {
                    return self.pending.pop().map(|p| p.trial);
                }
                None if listed_all => return None,
                _ => self.list_length(map, rng),
            }
        }
    }

    /// Lists the trials of corridors of the next length.
    fn list_length(&mut self, map: &Canvas, rng: &mut Rng) {
        let len = self.length;
        for (&(host_exit, host_width), flood) in self.hosts.iter().zip(&mut self.floods) {
            for &(end, _) in flood.layer(map, len) {
                for &(exit, back, width) in &self.anchors {
                    if width != host_width || !map.is_clear(end.step(back)) {
                        continue;
                    }
                    self.pending.push(Pending {
                        trial: Trial {
                            key: f64::from(len) + rng.unit() * self.jitter,
                            host_exit,
                            anchor_exit: exit,
                            end,
                        },
                        order: self.listed,
                    });
                    self.listed += 1;
                }
            }
        }
        self.length += 1;
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

    /// A map with a corridor wall, and a search from two host exits (one
    /// of width 2) for an anchor with three exits (one of width 2).
    fn walled_search(by_length: &mut ByLength) -> Canvas {
        let mut map = Canvas::default();
        let wall: Vec<Pos> = (-6..=6).map(|y| Pos::new(3, y)).collect();
        map.add_corridor(&wall);
        by_length.start(2, 12, 6.0);
        by_length.add_host(&map, 0, 1, Pos::new(0, 0));
        by_length.add_host(&map, 1, 2, Pos::new(0, 4));
        by_length.add_anchor(0, Dir::West, 1);
        by_length.add_anchor(1, Dir::North, 1);
        by_length.add_anchor(2, Dir::East, 2);
        map
    }

    #[test]
    fn a_far_search_yields_every_trial_by_key_and_lists_only_what_it_needs() {
        let mut by_length = ByLength::default();
        let map = walled_search(&mut by_length);
        let mut rng = Rng::new(3);
        let all: Vec<Trial> = std::iter::from_fn(|| by_length.next(&map, &mut rng)).collect();
        assert!(all.windows(2).all(|w| w[0].key <= w[1].key), "by key");
        assert_eq!(by_length.listed(), all.len() as u64);
        // Every trial as the rules say: length from the flood, the key's
        // jitter below 6 tiles, widths matching, the anchor's door clear.
        let mut flood = Flood::default();
        let mut want = 0;
        for (host, width, from) in [(0, 1, Pos::new(0, 0)), (1, 2, Pos::new(0, 4))] {
            flood.start(&map, from, 12);
            for len in 1..=12 {
                for &(end, _) in flood.layer(&map, len) {
                    for (exit, back, w) in
                        [(0, Dir::West, 1), (1, Dir::North, 1), (2, Dir::East, 2)]
                    {
                        if len < 2 || w != width || !map.is_clear(end.step(back)) {
                            continue;
                        }
                        want += 1;
                        let t = all
                            .iter()
                            .find(|t| t.host_exit == host && t.anchor_exit == exit && t.end == end)
                            .expect("listed");
                        assert!(t.key >= f64::from(len) && t.key < f64::from(len) + 6.0);
                    }
                }
            }
        }
        assert_eq!(all.len(), want, "each trial once");
        assert!(all.iter().any(|t| t.end.x > 3), "round the wall");

        // A search that stops early lists the lengths it reached and six more.
        let map = walled_search(&mut by_length);
        let first: Vec<Trial> = (0..5)
            .map_while(|_| by_length.next(&map, &mut rng))
            .collect();
        assert_eq!(first.len(), 5);
        let longest = first.last().expect("five").key.floor() as usize;
        let within = all
            .iter()
            .filter(|t| (t.key.floor() as usize) <= longest + 6)
            .count();
        assert!(
            (by_length.listed() as usize) <= within && (by_length.listed() as usize) < all.len(),
            "listed {} of {}",
            by_length.listed(),
            all.len()
        );
    }
}
