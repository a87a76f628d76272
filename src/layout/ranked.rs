//! Candidates read best first, ordered only as far as they are read: most
//! callers try a handful of a room's hundreds of placements (Edgar's rooms
//! have a door position on every wall tile), so sorting them all is wasted.

use super::context::Candidate;

/// Placements ordered in chunks this long, each taken from the rest by a
/// selection before it is sorted.
const CHUNK: usize = 16;

/// A list of candidates handed out highest score first. Each time the
/// ordered front runs out, the best [`CHUNK`] of the rest are moved to it
/// and sorted.
#[derive(Debug)]
pub struct Ranked {
    cands: Vec<Candidate>,
    /// How many at the front are in their final order.
    ordered: usize,
}

impl Ranked {
    /// `cands`, to be read best first.
    pub fn new(cands: Vec<Candidate>) -> Self {
        Ranked { cands, ordered: 0 }
    }

    /// Those of the candidates `keep` accepts, to be read best first.
    pub fn filtered(&self, keep: impl Fn(&Candidate) -> bool) -> Self {
        Ranked::new(self.cands.iter().copied().filter(|c| keep(c)).collect())
    }

    /// The `i`-th best candidate (from 0), if there are that many.
    pub fn get(&mut self, i: usize) -> Option<Candidate> {
        while self.ordered <= i && self.ordered < self.cands.len() {
            let rest = &mut self.cands[self.ordered..];
            let k = CHUNK.min(rest.len());
            let best_first = |a: &Candidate, b: &Candidate| b.score.total_cmp(&a.score);
            if k < rest.len() {
                rest.select_nth_unstable_by(k - 1, best_first);
            }
            rest[..k].sort_unstable_by(best_first);
            self.ordered += k;
        }
        self.cands.get(i).copied()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geom::Pos;

    fn cand(score: f64) -> Candidate {
        Candidate {
            shape: 0,
            pos: Pos::new(0, 0),
            host_exit: 0,
            exit: 0,
            score,
        }
    }

    #[test]
    fn candidates_come_out_in_the_order_of_a_full_sort() {
        let mut rng = crate::rng::Rng::new(7);
        for n in [0, 1, 5, CHUNK, CHUNK + 1, 3 * CHUNK + 7, 200] {
            let scores: Vec<f64> = (0..n).map(|_| rng.unit() * 100.0 - 50.0).collect();
            let mut ranked = Ranked::new(scores.iter().map(|&s| cand(s)).collect());
            let mut want = scores.clone();
            want.sort_by(|a, b| b.total_cmp(a));
            // Read partly, then from the start again, then past the end.
            let some: Vec<f64> = (0..n.min(3))
                .map(|i| ranked.get(i).unwrap().score)
                .collect();
            assert_eq!(some, want[..n.min(3)]);
            let all: Vec<f64> = (0..n).map(|i| ranked.get(i).unwrap().score).collect();
            assert_eq!(all, want, "{n} candidates");
            assert!(ranked.get(n).is_none());
        }
    }
}
