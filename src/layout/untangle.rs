//! Untangling a drawing of a level's graph: a drawing made by stress
//! majorization puts a branch that must lie inside a loop outside it, its
//! link crossing the loop's (the distances it fits are shortest paths,
//! which know nothing of faces). Rooms are placed after the drawing, so a
//! crossing there is a room that later finds no ground. Here simulated
//! annealing moves rooms, and swings whole dead-end branches about the room
//! they hang from, until no two links cross, the crossings weighing far
//! more than the stress; then the drawing is relaxed again by moves that
//! cross nothing, so a loop grows round what it encloses.

use super::radial::distance;
use crate::rng::Rng;

/// A room's point in a drawing.
pub(super) type Point = (f64, f64);

/// Annealing moves per room of the drawing.
const MOVES_PER_ROOM: usize = 400;

/// What one crossing costs, in units of stress (a misfit of a whole
/// distance costs 1).
const CROSSING_COST: f64 = 1000.0;

/// Starting temperature of the annealing, in units of stress.
const START_TEMPERATURE: f64 = 5.0;

/// How near, in mean links, a room may come to a link not its own in a
/// relaxed drawing (unless it was nearer already).
const CLEARANCE: f64 = 0.35;

/// Sweeps of crossing-free relaxation after the drawing is untangled. The
/// relaxation is most of a drawn attempt's cost (about 5.5 million units
/// of a 60-room level's 15.6 million with 300 sweeps), so fewer sweeps
/// leave budget for more attempts. The families `tree+loops` (30,5),
/// (45,5), (60,5) and (100,10) on graphs 12,000.., 16,000.. and 17,000..
/// (1,200 levels): 1,140 laid out with 300 sweeps, 1,153 with 100, 1,161
/// with 50, 1,148 with 25 (drawings too loose for (100,10)); (300,10) on
/// graphs 12,000.. and 16,000..: 186 of 200 with 300 and with 50.
const RELAX_SWEEPS: usize = 50;

/// Parts of the drawing found once, before any move: a part hangs from
/// the rest of the graph by one room (a cut room) or two (a separation
/// pair), so it turns or mirrors as a whole without stretching a link.
#[derive(Default)]
struct Parts {
    /// Per room: the rooms that move with it (itself and what hangs from it
    /// alone).
    with: Vec<Vec<usize>>,
    /// A part and the room it hangs from: turned about that room.
    swings: Vec<(usize, Vec<usize>)>,
    /// A part and the two rooms it hangs from: mirrored across their line.
    flips: Vec<(usize, usize, Vec<usize>)>,
}

/// Separation-pair parts kept at most: a long loop has one per pair of its
/// rooms.
const MAX_FLIPS: usize = 4000;

/// A drawing being untangled: the points, the distances they should have
/// (row-major, 0 for none) and the links drawn as straight segments.
pub(super) struct Tangle<'a> {
    points: &'a mut [Point],
    want: &'a [f64],
    links: &'a [(usize, usize)],
    /// Links of each room, by index in `links`.
    links_of: Vec<Vec<usize>>,
    parts: Parts,
    /// Pairs (of links, of a room and a link, of rooms) looked at so far.
    spent: std::cell::Cell<u64>,
    /// Most pairs the annealing and the relaxation may look at together.
    allowance: u64,
}

impl<'a> Tangle<'a> {
    /// The drawing `points` of rooms whose distances should be `want`,
    /// linked by `links` (each `(i, j)` once).
    pub(super) fn new(
        points: &'a mut [Point],
        want: &'a [f64],
        links: &'a [(usize, usize)],
    ) -> Self {
        let n = points.len();
        let links_of = links_by_room(n, links);
        let parts = parts(n, links, &links_of);
        Tangle {
            points,
            want,
            links,
            links_of,
            parts,
            spent: std::cell::Cell::new(0),
            allowance: u64::MAX,
        }
    }

    /// Lets the annealing and the relaxation look at no more than
    /// `pairs` pairs together: each stops once they are spent.
    pub(super) fn with_allowance(mut self, pairs: u64) -> Self {
        self.allowance = pairs;
        self
    }

    /// The pairs looked at so far.
    pub(super) fn spent(&self) -> u64 {
        self.spent.get()
    }

    /// Counts `pairs` more pairs looked at.
    fn spend(&self, pairs: usize) {
        self.spent.set(self.spent.get() + pairs as u64);
    }

    /// Whether the allowance is spent.
    fn exhausted(&self) -> bool {
        self.spent.get() >= self.allowance
    }

    /// Untangles the drawing (see the module documentation); returns how
    /// many crossings are left (0 unless the annealing ran out of moves).
    pub(super) fn untangle(&mut self, rng: &mut Rng) -> usize {
        let n = self.points.len();
        let mut crossings = self.crossings();
        if crossings > 0 {
            crossings = self.anneal(rng, crossings, MOVES_PER_ROOM * n);
        }
        if crossings == 0 {
            self.relax();
        }
        crossings
    }

    /// How many pairs of links cross.
    pub(super) fn crossings(&self) -> usize {
        crossings(self.points, self.links)
    }

    /// Simulated annealing from `crossings` crossings, for at most `moves`
    /// moves; returns the crossings left.
    fn anneal(&mut self, rng: &mut Rng, mut crossings: usize, moves: usize) -> usize {
        let n = self.points.len();
        let reach = self.mean_link();
        for step in 0..moves {
            if self.exhausted() {
                break;
            }
            let temperature = START_TEMPERATURE * (1.0 - step as f64 / moves as f64) + 1e-3;
            let (moved, to) = match rng.below(3) {
                0 if !self.parts.swings.is_empty() => {
                    self.swing(rng.index(self.parts.swings.len()), rng)
                }
                1 if !self.parts.flips.is_empty() => self.flip(rng.index(self.parts.flips.len())),
                _ => self.shift(rng.index(n), reach, rng),
            };
            let touched = self.touched(&moved);
            let was = self.crossings_of(&touched);
            let before = was as f64 * CROSSING_COST + self.stress_of(&moved);
            let old: Vec<Point> = moved.iter().map(|&v| self.points[v]).collect();
            for (&v, &p) in moved.iter().zip(&to) {
                self.points[v] = p;
            }
            let now = self.crossings_of(&touched);
            let after = now as f64 * CROSSING_COST + self.stress_of(&moved);
            let delta = after - before;
            if delta <= 0.0 || rng.unit() < (-delta / temperature).exp() {
                crossings = crossings + now - was;
                if crossings == 0 {
                    return 0;
                }
            } else {
                for (&v, &p) in moved.iter().zip(&old) {
                    self.points[v] = p;
                }
            }
        }
        crossings
    }

    /// Moves room `v` (with what hangs from it alone) to a random
    /// point within `reach` of its linked rooms' middle.
    fn shift(&self, v: usize, reach: f64, rng: &mut Rng) -> (Vec<usize>, Vec<Point>) {
        let around = &self.links_of[v];
        let (mut x, mut y) = self.points[v];
        if !around.is_empty() {
            let k = around.len() as f64;
            (x, y) = around.iter().fold((0.0, 0.0), |(x, y), &l| {
                let (a, b) = self.links[l];
                let w = self.points[if a == v { b } else { a }];
                (x + w.0 / k, y + w.1 / k)
            });
        }
        let angle = rng.unit() * std::f64::consts::TAU;
        let r = reach * rng.unit();
        let target = (x + r * angle.cos(), y + r * angle.sin());
        let from = self.points[v];
        let moved = self.parts.with[v].clone();
        let to = moved
            .iter()
            .map(|&u| {
                let p = self.points[u];
                (p.0 + target.0 - from.0, p.1 + target.1 - from.1)
            })
            .collect();
        (moved, to)
    }

    /// Mirrors the `k`-th separation-pair part across the line through
    /// the two rooms it hangs from.
    fn flip(&self, k: usize) -> (Vec<usize>, Vec<Point>) {
        let (a, b, rooms) = &self.parts.flips[k];
        let (pa, pb) = (self.points[*a], self.points[*b]);
        let (dx, dy) = (pb.0 - pa.0, pb.1 - pa.1);
        let length = dx * dx + dy * dy;
        let to = rooms
            .iter()
            .map(|&u| {
                let p = self.points[u];
                if length < 1e-9 {
                    return p;
                }
                let t = ((p.0 - pa.0) * dx + (p.1 - pa.1) * dy) / length;
                let foot = (pa.0 + t * dx, pa.1 + t * dy);
                (2.0 * foot.0 - p.0, 2.0 * foot.1 - p.1)
            })
            .collect();
        (rooms.clone(), to)
    }

    /// Turns the `k`-th cut-room part about the room it hangs from by a
    /// random angle.
    fn swing(&self, k: usize, rng: &mut Rng) -> (Vec<usize>, Vec<Point>) {
        let (hub, rooms) = &self.parts.swings[k];
        let centre = self.points[*hub];
        let angle = (rng.unit() * 2.0 - 1.0) * std::f64::consts::PI;
        let (sin, cos) = angle.sin_cos();
        let to = rooms
            .iter()
            .map(|&u| {
                let (dx, dy) = (self.points[u].0 - centre.0, self.points[u].1 - centre.1);
                (
                    centre.0 + dx * cos - dy * sin,
                    centre.1 + dx * sin + dy * cos,
                )
            })
            .collect();
        (rooms.clone(), to)
    }

    /// Relaxes the untangled drawing: sweeps of stress majorization in
    /// which a room goes to its best point, or half or a quarter of the way
    /// there, only where its links cross no other.
    pub(super) fn relax(&mut self) {
        let n = self.points.len();
        let wanted = CLEARANCE * self.mean_link();
        for _ in 0..RELAX_SWEEPS {
            if self.exhausted() {
                return;
            }
            for i in 0..n {
                let Some(target) = self.majorized(i) else {
                    continue;
                };
                let from = self.points[i];
                let touched = self.links_of[i].clone();
                let was = self.crossings_of(&touched);
                let clear = self.clearance(i).min(wanted);
                for fraction in [1.0, 0.5, 0.25] {
                    self.points[i] = (
                        from.0 + (target.0 - from.0) * fraction,
                        from.1 + (target.1 - from.1) * fraction,
                    );
                    if self.crossings_of(&touched) <= was && self.clearance(i) >= clear {
                        break;
                    }
                    self.points[i] = from;
                }
            }
        }
    }

    /// How near room `i` comes to a link not its own, or its links to a
    /// room not on them.
    fn clearance(&self, i: usize) -> f64 {
        let p = self.points[i];
        self.spend(self.links.len() + self.links_of[i].len() * self.points.len());
        let mut least = f64::INFINITY;
        for &(a, b) in self.links {
            if a != i && b != i {
                least = least.min(to_segment(p, self.points[a], self.points[b]));
            }
        }
        for &l in &self.links_of[i] {
            let (a, b) = self.links[l];
            for w in 0..self.points.len() {
                if w != a && w != b {
                    least = least.min(to_segment(self.points[w], self.points[a], self.points[b]));
                }
            }
        }
        least
    }

    /// Where stress majorization would move room `i` given the others.
    fn majorized(&self, i: usize) -> Option<Point> {
        self.spend(self.points.len());
        majorized(self.points, self.want, i)
    }

    /// The mean wanted length of a link.
    fn mean_link(&self) -> f64 {
        mean_link(self.want, self.links, self.points.len())
    }

    /// The links of the rooms `moved`, each once.
    fn touched(&self, moved: &[usize]) -> Vec<usize> {
        let mut out: Vec<usize> = moved
            .iter()
            .flat_map(|&v| self.links_of[v].iter().copied())
            .collect();
        out.sort_unstable();
        out.dedup();
        out
    }

    /// Crossings of the links `touched` with any link (each crossing pair
    /// once).
    fn crossings_of(&self, touched: &[usize]) -> usize {
        self.spend(touched.len() * self.links.len());
        let mut count = 0;
        for (i, &k) in touched.iter().enumerate() {
            for l in 0..self.links.len() {
                // A pair of touched links is counted from its first.
                if touched[..i].binary_search(&l).is_ok() || l == k {
                    continue;
                }
                if self.cross(k, l) {
                    count += 1;
                }
            }
        }
        count
    }

    /// Whether links `k` and `l`, with no room in common, cross.
    fn cross(&self, k: usize, l: usize) -> bool {
        let (a, b) = self.links[k];
        let (c, d) = self.links[l];
        if a == c || a == d || b == c || b == d {
            return false;
        }
        segments_cross(
            self.points[a],
            self.points[b],
            self.points[c],
            self.points[d],
        )
    }

    /// The stress between the rooms `moved` and all the others.
    fn stress_of(&self, moved: &[usize]) -> f64 {
        let n = self.points.len();
        self.spend(moved.len() * n);
        let mut inside = vec![false; n];
        for &v in moved {
            inside[v] = true;
        }
        let mut total = 0.0;
        for &i in moved {
            for (j, &moved_too) in inside.iter().enumerate() {
                let want = self.want[i * n + j];
                if moved_too || want <= 0.0 {
                    continue;
                }
                let now = distance(self.points[i], self.points[j]);
                total += (now - want).powi(2) / (want * want);
            }
        }
        total
    }
}

/// Where stress majorization would move room `i` of `points` given the
/// others, towards the distances `want` (row-major; weights the inverse
/// square of each, so near rooms count most); `None` when it wants no
/// distance to any.
pub(super) fn majorized(points: &[Point], want: &[f64], i: usize) -> Option<Point> {
    let n = points.len();
    let (mut sx, mut sy, mut sw) = (0.0, 0.0, 0.0);
    let (xi, yi) = points[i];
    for j in 0..n {
        let want = want[i * n + j];
        if j == i || want <= 0.0 {
            continue;
        }
        let w = 1.0 / (want * want);
        let (xj, yj) = points[j];
        let (dx, dy) = (xi - xj, yi - yj);
        let now = (dx * dx + dy * dy).sqrt().max(1e-9);
        sx += w * (xj + want * dx / now);
        sy += w * (yj + want * dy / now);
        sw += w;
    }
    (sw > 0.0).then(|| (sx / sw, sy / sw))
}

/// The mean wanted length of `links` (`want` row-major over `n` rooms).
pub(super) fn mean_link(want: &[f64], links: &[(usize, usize)], n: usize) -> f64 {
    let total: f64 = links.iter().map(|&(a, b)| want[a * n + b]).sum();
    total / links.len().max(1) as f64
}

/// How many pairs of `links` (drawn as straight segments between
/// `points`) without a room in common cross.
pub(super) fn crossings(points: &[Point], links: &[(usize, usize)]) -> usize {
    crossing_pairs(points, links).count()
}

/// The pairs of `links` (by index, drawn as straight segments between
/// `points`) without a room in common that cross.
pub(super) fn crossing_pairs<'a>(
    points: &'a [Point],
    links: &'a [(usize, usize)],
) -> impl Iterator<Item = (usize, usize)> + 'a {
    links.iter().enumerate().flat_map(move |(k, &(a, b))| {
        links[k + 1..]
            .iter()
            .enumerate()
            .filter(move |&(_, &(c, d))| {
                a != c
                    && a != d
                    && b != c
                    && b != d
                    && segments_cross(points[a], points[b], points[c], points[d])
            })
            .map(move |(j, _)| (k, k + 1 + j))
    })
}

/// The distance from `p` to the segment `ab`.
pub(super) fn to_segment(p: Point, a: Point, b: Point) -> f64 {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let length = dx * dx + dy * dy;
    let t = if length < 1e-12 {
        0.0
    } else {
        (((p.0 - a.0) * dx + (p.1 - a.1) * dy) / length).clamp(0.0, 1.0)
    };
    distance(p, (a.0 + t * dx, a.1 + t * dy))
}

/// Whether segments `ab` and `cd` cross at a point inside both (an end of
/// one on the other counts: a room drawn on a link is as bad).
pub(super) fn segments_cross(a: Point, b: Point, c: Point, d: Point) -> bool {
    let side = |p: Point, q: Point, r: Point| {
        ((q.0 - p.0) * (r.1 - p.1) - (q.1 - p.1) * (r.0 - p.0)).signum()
    };
    side(a, b, c) * side(a, b, d) < 0.0 && side(c, d, a) * side(c, d, b) < 0.0
}

/// The parts of the graph of `n` rooms and `links` (see [`Parts`]): for
/// each room, and each pair of rooms, the pieces the graph falls into
/// without it; every piece but the largest hangs from it.
fn parts(n: usize, links: &[(usize, usize)], links_of: &[Vec<usize>]) -> Parts {
    let mut out = Parts {
        with: (0..n).map(|v| vec![v]).collect(),
        ..Parts::default()
    };
    for (v, pieces) in hanging_from_each(n, links, links_of)
        .into_iter()
        .enumerate()
    {
        for piece in pieces {
            out.with[v].extend(&piece);
            out.swings.push((v, piece));
        }
    }
    'pairs: for a in 0..n {
        for b in a + 1..n {
            for piece in hanging(n, links, links_of, &[a, b]) {
                // Pieces of one room alone hang from one room too: swung.
                let touches = |x: usize| {
                    links_of[x].iter().any(|&l| {
                        let (p, q) = links[l];
                        piece.contains(&p) || piece.contains(&q)
                    })
                };
                if touches(a) && touches(b) {
                    out.flips.push((a, b, piece));
                    if out.flips.len() >= MAX_FLIPS {
                        break 'pairs;
                    }
                }
            }
        }
    }
    out
}

/// The links of each of `n` rooms, by index in `links`.
pub(super) fn links_by_room(n: usize, links: &[(usize, usize)]) -> Vec<Vec<usize>> {
    let mut links_of = vec![Vec::new(); n];
    for (k, &(a, b)) in links.iter().enumerate() {
        links_of[a].push(k);
        links_of[b].push(k);
    }
    links_of
}

/// For each of `n` rooms, the pieces that hang from it alone ([`hanging`]
/// with the room cut).
pub(super) fn hanging_from_each(
    n: usize,
    links: &[(usize, usize)],
    links_of: &[Vec<usize>],
) -> Vec<Vec<Vec<usize>>> {
    (0..n).map(|v| hanging(n, links, links_of, &[v])).collect()
}

/// The linked rooms of each of `n` rooms.
pub(super) fn neighbours(n: usize, links: &[(usize, usize)]) -> Vec<Vec<usize>> {
    let mut around = vec![Vec::new(); n];
    for &(a, b) in links {
        around[a].push(b);
        around[b].push(a);
    }
    around
}

/// The pieces of the graph without the rooms `cut`, but its largest
/// (the first found, on a tie).
fn hanging(
    n: usize,
    links: &[(usize, usize)],
    links_of: &[Vec<usize>],
    cut: &[usize],
) -> Vec<Vec<usize>> {
    let mut pieces = pieces(n, links, links_of, cut);
    if pieces.len() < 2 {
        return Vec::new();
    }
    let largest = (0..pieces.len())
        .max_by_key(|&i| (pieces[i].len(), std::cmp::Reverse(i)))
        .expect("a piece");
    pieces.swap_remove(largest);
    pieces
}

/// The pieces (connected parts) of the graph without the rooms `cut`,
/// each breadth first from its lowest room, in the order of those rooms.
pub(super) fn pieces(
    n: usize,
    links: &[(usize, usize)],
    links_of: &[Vec<usize>],
    cut: &[usize],
) -> Vec<Vec<usize>> {
    let mut seen = vec![false; n];
    for &c in cut {
        seen[c] = true;
    }
    let mut pieces: Vec<Vec<usize>> = Vec::new();
    for s in 0..n {
        if seen[s] {
            continue;
        }
        seen[s] = true;
        let mut piece = vec![s];
        let mut next = 0;
        while next < piece.len() {
            let v = piece[next];
            next += 1;
            for &l in &links_of[v] {
                let (a, b) = links[l];
                let w = if a == v { b } else { a };
                if !seen[w] {
                    seen[w] = true;
                    piece.push(w);
                }
            }
        }
        pieces.push(piece);
    }
    pieces
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A square drawn as a bow tie (its sides 1-2 and 3-0 cross), with the
    /// distances of a square of side 10.
    fn bow_tie() -> (Vec<Point>, Vec<f64>, Vec<(usize, usize)>) {
        let points = vec![(0.0, 0.0), (10.0, 0.0), (0.0, 10.0), (10.0, 10.0)];
        let d = 10.0;
        let diagonal = d * 2.0;
        let want = vec![
            0.0, d, diagonal, d, //
            d, 0.0, d, diagonal, //
            diagonal, d, 0.0, d, //
            d, diagonal, d, 0.0,
        ];
        (points, want, vec![(0, 1), (1, 2), (2, 3), (0, 3)])
    }

    #[test]
    fn annealing_untwists_a_bow_tie() {
        let (mut points, want, links) = bow_tie();
        let mut tangle = Tangle::new(&mut points, &want, &links);
        assert_eq!(tangle.crossings(), 1);
        assert_eq!(tangle.untangle(&mut Rng::new(3)), 0);
        assert_eq!(tangle.crossings(), 0);
    }

    #[test]
    fn relaxing_never_adds_a_crossing() {
        let (mut points, want, links) = bow_tie();
        // Untwisted but squashed: relaxation spreads it without crossing.
        points[2] = (10.0, 10.0);
        points[3] = (0.0, 10.0);
        points[1] = (1.0, 0.0);
        let mut tangle = Tangle::new(&mut points, &want, &links);
        tangle.relax();
        assert_eq!(tangle.crossings(), 0);
        let side = distance(tangle.points[0], tangle.points[1]);
        assert!((side - 10.0).abs() < 3.0, "{side}");
    }

    #[test]
    fn an_allowance_stops_the_relaxation_and_the_annealing() {
        let (mut free, want, links) = bow_tie();
        let mut unbounded = Tangle::new(&mut free, &want, &links);
        unbounded.relax();
        let full = unbounded.spent();
        // The allowance is checked before each sweep: one sweep at most
        // goes past it.
        let (mut points, ..) = bow_tie();
        let mut bounded = Tangle::new(&mut points, &want, &links).with_allowance(full / 10);
        bounded.relax();
        assert!(
            full > 0 && bounded.spent() < full / 5,
            "{} of {full}",
            bounded.spent()
        );
        // Nothing allowed: the annealing makes no move.
        let (mut points, ..) = bow_tie();
        let before = points.clone();
        let mut stopped = Tangle::new(&mut points, &want, &links).with_allowance(0);
        assert_eq!(stopped.untangle(&mut Rng::new(3)), 1);
        assert_eq!(points, before);
    }

    #[test]
    fn crossing_segments_are_counted_once_and_shared_rooms_never() {
        let square = [(0.0, 0.0), (4.0, 0.0), (4.0, 4.0), (0.0, 4.0)];
        // The two diagonals cross; the sides meet only at shared rooms.
        assert_eq!(crossings(&square, &[(0, 2), (1, 3)]), 1);
        assert_eq!(crossings(&square, &[(0, 1), (1, 2), (2, 3), (3, 0)]), 0);
        assert_eq!(crossings(&square, &[(0, 1), (2, 3)]), 0);
    }

    #[test]
    fn segments_cross_only_inside_both() {
        assert!(segments_cross(
            (0.0, 0.0),
            (2.0, 2.0),
            (0.0, 2.0),
            (2.0, 0.0)
        ));
        assert!(!segments_cross(
            (0.0, 0.0),
            (0.9, 0.9),
            (0.0, 2.0),
            (2.0, 0.0)
        ));
        assert!(!segments_cross(
            (0.0, 0.0),
            (2.0, 0.0),
            (0.0, 1.0),
            (2.0, 1.0)
        ));
        assert_eq!(to_segment((1.0, 1.0), (0.0, 0.0), (2.0, 0.0)), 1.0);
        assert_eq!(to_segment((3.0, 0.0), (0.0, 0.0), (2.0, 0.0)), 1.0);
    }

    #[test]
    fn parts_hang_by_one_room_or_two() {
        // A square 0 1 2 3 with a tail 3 4.
        let links = [(0, 1), (1, 2), (2, 3), (0, 3), (3, 4)];
        let mut links_of = vec![Vec::new(); 5];
        for (k, &(a, b)) in links.iter().enumerate() {
            links_of[a].push(k);
            links_of[b].push(k);
        }
        let parts = parts(5, &links, &links_of);
        assert_eq!(parts.swings, vec![(3, vec![4])]);
        assert_eq!(parts.with[3], vec![3, 4]);
        // Rooms 1 and 3 cut off rooms 0 and 2 from each other: one of
        // them (not the first, kept as the largest on a tie) mirrors
        // across 1-3; the tail hangs from room 3 alone.
        assert!(parts.flips.contains(&(1, 3, vec![2])));
        assert!(parts.flips.iter().all(|f| f.2 != vec![4]));
    }
}
