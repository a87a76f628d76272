//! A drawing of a whole level's graph without crossing links, composed
//! from Tutte's drawings of its blocks ([`super::tutte`]): every block and
//! every tree of the graph is drawn in a frame of its own, its root room
//! at the origin and the rest to its right (`x > 0`), then fitted into the
//! angle it is given at its root in the drawing it hangs from.
//!
//! - A room's hanging parts share a fan: a part starting with a block gets
//!   the angle the block spans at the root, the others share the rest by
//!   their rooms.
//! - A part whose root has one link into it is a tree edge: its next room
//!   sits a link to the right, its own hanging parts beyond; it fits its
//!   angle by moving out along the edge, keeping its shape.
//! - A part whose root has several links into it starts with the root's
//!   block: Tutte's drawing of that block with a cycle or face through the
//!   root outermost (the one enclosing the least ground), turned so that
//!   the block lies right of the root, and squeezed (`y` scaled down,
//!   which keeps a drawing free of crossings) when its angle is too
//!   narrow. What hangs from the block's other rooms goes in the widest
//!   angle at each, each part shrunk by halves until it crosses nothing.

use std::f64::consts::PI;

use super::tutte::{
    Faces, barycentric, block_of, crossings_among, enclosed, faces, inside, perimeter,
    room_on_a_link, shortest_cycle,
};
use super::untangle::{Point, crossing_pairs};
use crate::rng::Rng;

/// The angle the parts hanging from a room reached by a tree edge share:
/// under half a turn, so that every part lies to the right of its root.
const FAN: f64 = 0.8 * PI;

/// The widest angle the parts hanging from a block room are given, of the
/// widest gap between that room's links in the block (at most 0.8 of it).
const WEDGE: f64 = 0.9 * PI;

/// The share of its angle a part hanging from a room fills: the rest
/// keeps it off its neighbours.
const MARGIN: f64 = 0.9;

/// Shrinkings of what hangs from a block tried, each half the one before.
const SHRINKS: usize = 12;

/// Rooms deep a drawing may nest parts before it is given up (a bound on
/// the recursion).
const MOST_NESTING: usize = 512;

/// Shortest cycles tried through each of the root's links of a block.
const CYCLES_PER_LINK: usize = 2;

/// Links of a block not at its root tried for a cycle whose drawing
/// crosses nothing, when none through the root's links gives one.
const MORE_CYCLES: usize = 48;

/// A drawing of a block: whether a room lies on a link and how many rooms
/// it encloses, its outer cycle, its points.
type Candidate = ((bool, usize), Vec<usize>, Vec<Point>);

/// Some rooms, each with its point in the part's own frame.
type Part = Vec<(usize, Point)>;

/// The drawing of the whole graph whose block `block` is drawn at `drawn`
/// (Tutte's drawing, crossing nothing), every other room hanging from it
/// as the module says; with it, which rooms lie on a block drawn by
/// Tutte's method. `None` when some part crosses however small it is drawn.
pub(super) fn compose(
    around: &[Vec<usize>],
    want: &[f64],
    ground: &[usize],
    links: &[(usize, usize)],
    (block, drawn): (&[bool], &[Point]),
    rng: &mut Rng,
) -> Option<(Vec<Point>, Vec<bool>)> {
    let n = around.len();
    let mut composer = Composer {
        around,
        want,
        ground,
        links,
        claimed: block.to_vec(),
        blocks: block.to_vec(),
        rng,
        nesting: 0,
    };
    let part: Part = (0..n)
        .filter(|&v| block[v])
        .map(|v| (v, drawn[v]))
        .collect();
    let whole = composer.decorate(part, None)?;
    if whole.len() != n {
        return None;
    }
    let mut points = vec![(0.0, 0.0); n];
    for (v, p) in whole {
        points[v] = p;
    }
    Some((points, composer.blocks))
}

/// The state of one composition.
struct Composer<'a> {
    around: &'a [Vec<usize>],
    want: &'a [f64],
    /// Each room's ground in tiles ([`enclosed`]).
    ground: &'a [usize],
    links: &'a [(usize, usize)],
    /// Rooms drawn, or being drawn, in some part.
    claimed: Vec<bool>,
    /// Rooms on a block drawn by Tutte's method.
    blocks: Vec<bool>,
    rng: &'a mut Rng,
    /// Parts nested now.
    nesting: usize,
}

impl Composer<'_> {
    /// The rooms not yet claimed that hang from `v`, as connected parts.
    fn hanging(&self, v: usize) -> Vec<Vec<usize>> {
        let mut seen = self.claimed.clone();
        let mut parts = Vec::new();
        for &c in &self.around[v] {
            if seen[c] {
                continue;
            }
            seen[c] = true;
            let mut part = vec![c];
            let mut next = 0;
            while next < part.len() {
                let x = part[next];
                next += 1;
                for &w in &self.around[x] {
                    if !seen[w] {
                        seen[w] = true;
                        part.push(w);
                    }
                }
            }
            parts.push(part);
        }
        parts
    }

    /// `v` at the origin and `parts` (hanging from it) in a fan of `fan`
    /// to its right. A part starting with a block gets the angle the
    /// block spans at `v` (squeezed when they are too many); the others
    /// share the rest by their rooms, each moved out along its tree edge
    /// until it fits its angle.
    fn hub(&mut self, v: usize, parts: Vec<Vec<usize>>, fan: f64) -> Option<Part> {
        self.nesting += 1;
        if self.nesting > MOST_NESTING {
            return None;
        }
        let total: usize = parts.iter().map(Vec::len).sum();
        let mut drawn = Vec::with_capacity(parts.len());
        for part in &parts {
            drawn.push(self.attach(v, part)?);
        }
        let weights: Vec<f64> = drawn
            .iter()
            .zip(&parts)
            .map(|((part, tree_edge), rooms)| {
                if *tree_edge {
                    fan * rooms.len() as f64 / total as f64
                } else {
                    2.0 * spread(part).unwrap_or(FAN / 2.0) / MARGIN
                }
            })
            .collect();
        let sum: f64 = weights.iter().sum();
        let mut from = -fan / 2.0;
        let mut out = vec![(v, (0.0, 0.0))];
        for ((part, tree_edge), weight) in drawn.into_iter().zip(weights) {
            let share = fan * weight / sum;
            let half = share / 2.0 * MARGIN;
            let fitted = if tree_edge {
                pushed(part, half)
            } else {
                squeezed(part, half)?
            };
            let angle = from + share / 2.0;
            out.extend(
                fitted
                    .into_iter()
                    .skip(1)
                    .map(|(w, p)| (w, turned(p, angle))),
            );
            from += share;
        }
        self.nesting -= 1;
        Some(out)
    }

    /// `v` at the origin and `part` (rooms hanging from it, connected)
    /// to its right, crossing nothing; and whether `v` has a single link
    /// into it (a tree edge).
    fn attach(&mut self, v: usize, part: &[usize]) -> Option<(Part, bool)> {
        let n = self.around.len();
        let mut inside = vec![false; n];
        for &w in part {
            inside[w] = true;
        }
        let into: Vec<usize> = self.around[v]
            .iter()
            .copied()
            .filter(|&w| inside[w])
            .collect();
        if let [c] = into[..] {
            self.claimed[c] = true;
            let parts = self.hanging(c);
            let beyond = self.hub(c, parts, FAN)?;
            let length = self.want[v * n + c];
            let mut out = vec![(v, (0.0, 0.0))];
            out.extend(beyond.into_iter().map(|(w, p)| (w, (p.0 + length, p.1))));
            return Some((out, true));
        }
        inside[v] = true;
        let first = shortest_cycle(self.around, &inside, v, *into.first()?, self.rng)?;
        let block = block_of(self.around, &inside, &first);
        let (cycle, points) = self.outermost(v, &into, &block)?;
        // The root at the origin, the centre of the outer cycle (a regular
        // polygon) to its right: the block lies right of the root.
        let k = cycle.len() as f64;
        let centre = cycle.iter().fold((0.0, 0.0), |(x, y), &c| {
            (x + points[c].0 / k, y + points[c].1 / k)
        });
        let origin = points[v];
        let angle = (centre.1 - origin.1).atan2(centre.0 - origin.0);
        // The root first, as in every part.
        self.blocks[v] = true;
        let mut drawn = vec![(v, (0.0, 0.0))];
        for w in (0..n).filter(|&w| block[w] && w != v) {
            self.claimed[w] = true;
            self.blocks[w] = true;
            let p = (points[w].0 - origin.0, points[w].1 - origin.1);
            drawn.push((w, turned(p, -angle)));
        }
        Some((self.decorate(drawn, Some(v))?, false))
    }

    /// Of Tutte's drawings of `block` crossing nothing with `v` on the
    /// outer cycle, one with no room on a link enclosing the least ground:
    /// the cycle and the drawing. The outer cycles tried are shortest
    /// cycles through `v`'s links (`into`), then, while none drew cleanly,
    /// through the block's other links; and the faces round `v` of every
    /// clean drawing.
    fn outermost(
        &mut self,
        v: usize,
        into: &[usize],
        block: &[bool],
    ) -> Option<(Vec<usize>, Vec<Point>)> {
        let faces = Faces {
            around: self.around,
            block,
            want: self.want,
            ground: self.ground,
            links: self.links,
        };
        // Cycles through `v`'s links, then through the block's other links.
        let mut ends: Vec<(usize, usize)> = into
            .iter()
            .filter(|&&c| block[c])
            .flat_map(|&c| [(v, c); CYCLES_PER_LINK])
            .collect();
        let others = self
            .links
            .iter()
            .filter(|&&(a, b)| block[a] && block[b] && a != v && b != v);
        ends.extend(others.take(MORE_CYCLES));
        let mut best: Option<Candidate> = None;
        for (a, b) in ends {
            if best.as_ref().is_some_and(|b| !b.0.0) && a != v {
                break;
            }
            let Some(cycle) = shortest_cycle(self.around, block, a, b, self.rng) else {
                continue;
            };
            let points = barycentric(self.around, block, &cycle, self.want);
            if crossings_among(&points, self.links, block) > 0 {
                continue;
            }
            let clean = !room_on_a_link(&points, self.links, block);
            if clean
                && let Some((held, face, better)) =
                    faces.fewer_enclosed(&points, Some(v), usize::MAX)
                && best.as_ref().is_none_or(|b| (false, held) < b.0)
            {
                best = Some(((false, held), face, better));
            }
            if cycle.contains(&v) {
                let key = (
                    !clean,
                    enclosed(&points, &cycle, block, self.around, self.ground),
                );
                if best.as_ref().is_none_or(|b| key < b.0) {
                    best = Some((key, cycle, points));
                }
            }
        }
        best.map(|(_, cycle, points)| (cycle, points))
    }

    /// `block` (a block's rooms drawn) with the parts hanging from each of
    /// its rooms but `root` drawn in the widest angle at that room, each
    /// part shrunk by halves while it crosses something (or, with a root,
    /// reaches left of it).
    fn decorate(&mut self, block: Part, root: Option<usize>) -> Option<Part> {
        let n = self.around.len();
        let mut at = vec![None; n];
        for &(v, p) in &block {
            at[v] = Some(p);
        }
        let mut hung: Vec<(Point, f64, Part)> = Vec::new();
        // The block's faces, traced once some room has parts to hang.
        let mut space: Option<FaceSpace> = None;
        for &(b, p) in &block {
            if Some(b) == root {
                continue;
            }
            let parts = self.hanging(b);
            if parts.is_empty() {
                continue;
            }
            let around: Vec<Point> = self.around[b].iter().filter_map(|&w| at[w]).collect();
            let rooms = parts.iter().map(Vec::len).sum();
            let (direction, width) = space
                .get_or_insert_with(|| FaceSpace::new(self, &block))
                .roomiest_gap(p, &around, rooms);
            let part = self.hub(b, parts, (width * 0.8).min(WEDGE))?;
            hung.push((p, direction, part));
        }
        if hung.is_empty() {
            return Some(block);
        }
        // Each part is shrunk by halves while it crosses something (or,
        // with a root, reaches left of it).
        let mut scales = vec![1.0f64; hung.len()];
        for _ in 0..SHRINKS {
            let mut all = block.clone();
            let mut owner = vec![usize::MAX; block.len()];
            for (i, (p, direction, part)) in hung.iter().enumerate() {
                all.extend(part.iter().skip(1).map(|&(w, q)| {
                    let q = turned(q, *direction);
                    (w, (p.0 + scales[i] * q.0, p.1 + scales[i] * q.1))
                }));
                owner.resize(all.len(), i);
            }
            let mut offending = vec![false; hung.len()];
            if let Some(r) = root {
                for (k, &(w, q)) in all.iter().enumerate() {
                    if w != r && q.0 <= 0.0 && owner[k] != usize::MAX {
                        offending[owner[k]] = true;
                    }
                }
            }
            let (points, links) = self.local(&all);
            for (k, l) in crossing_pairs(&points, &links) {
                let ends = [links[k].0, links[k].1, links[l].0, links[l].1];
                let owners: Vec<usize> = ends
                    .iter()
                    .map(|&end| owner[end])
                    .filter(|&o| o != usize::MAX)
                    .collect();
                if owners.is_empty() {
                    // Two links of the block: shrinking mends nothing.
                    return None;
                }
                for o in owners {
                    offending[o] = true;
                }
            }
            if !offending.contains(&true) {
                return Some(all);
            }
            for (scale, bad) in scales.iter_mut().zip(offending) {
                if bad {
                    *scale /= 2.0;
                }
            }
        }
        None
    }

    /// The points of `part` and the links between its rooms, by position
    /// in `part`.
    fn local(&self, part: &Part) -> (Vec<Point>, Vec<(usize, usize)>) {
        let mut local = vec![usize::MAX; self.around.len()];
        for (i, &(v, _)) in part.iter().enumerate() {
            local[v] = i;
        }
        let links = self
            .links
            .iter()
            .filter(|&&(a, b)| local[a] != usize::MAX && local[b] != usize::MAX)
            .map(|&(a, b)| (local[a], local[b]))
            .collect();
        (part.iter().map(|&(_, p)| p).collect(), links)
    }
}

/// `part` (its root first, at the origin, the rest right of it) with `y`
/// scaled down until every room is within `half` of the `x` axis as seen
/// from the root; `None` when a room is not right of the root.
fn squeezed(mut part: Part, half: f64) -> Option<Part> {
    let widest = spread(&part)?.tan();
    let allowed = half.tan();
    if widest > allowed {
        let factor = allowed / widest;
        for (_, p) in part.iter_mut() {
            p.1 *= factor;
        }
    }
    Some(part)
}

/// How far (as an angle) the rooms of `part` (its root first, at the
/// origin) reach from the `x` axis seen from the root; `None` when one is
/// not right of the root.
fn spread(part: &Part) -> Option<f64> {
    let mut widest = 0.0f64;
    for &(_, (x, y)) in part.iter().skip(1) {
        if x <= 0.0 {
            return None;
        }
        widest = widest.max((y / x).abs());
    }
    Some(widest.atan())
}

/// `part` (its root first, at the origin, the rest right of it) with
/// every room but the root moved right until each is within `half` of the
/// `x` axis as seen from the root: the root's one link into the part gets
/// longer, the part keeps its shape.
fn pushed(mut part: Part, half: f64) -> Part {
    let slope = half.tan();
    let by = part
        .iter()
        .skip(1)
        .map(|&(_, (x, y))| y.abs() / slope - x)
        .fold(0.0f64, f64::max);
    for (_, p) in part.iter_mut().skip(1) {
        p.0 += by;
    }
    part
}

/// `p` turned by `angle` about the origin.
fn turned(p: Point, angle: f64) -> Point {
    let (sin, cos) = angle.sin_cos();
    (p.0 * cos - p.1 * sin, p.0 * sin + p.1 * cos)
}

/// The faces of a block's drawing and the rooms hung into each so far:
/// where the parts hanging from the block's rooms go.
struct FaceSpace {
    /// The inner faces, each as the corners of its polygon.
    faces: Vec<Vec<Point>>,
    /// How long each face's links want to be, all round.
    perimeter: Vec<f64>,
    /// Rooms hung into each face so far.
    held: Vec<usize>,
}

impl FaceSpace {
    /// The inner faces of `block`'s drawing, none holding rooms yet.
    fn new(composer: &Composer, block: &Part) -> Self {
        let n = composer.around.len();
        let mut points = vec![(0.0, 0.0); n];
        let mut on = vec![false; n];
        for &(v, p) in block {
            points[v] = p;
            on[v] = true;
        }
        let found = faces(&points, &on, composer.links);
        let perimeter = found
            .iter()
            .map(|f| perimeter(f, composer.want, n))
            .collect();
        FaceSpace {
            held: vec![0; found.len()],
            faces: found
                .into_iter()
                .map(|f| f.into_iter().map(|v| points[v]).collect())
                .collect(),
            perimeter,
        }
    }

    /// The gap between the directions from `p` to `around` (its linked
    /// rooms of the block) where `rooms` rooms hanging from it go: the
    /// middle direction and the width. A gap onto the outer face first
    /// (it has room for anything), the widest of them; else the gap onto
    /// the inner face with the most perimeter for the rooms it would hold
    /// (a loop's links stretch only so far), then the widest. The rooms
    /// are counted against that face. A full turn for no linked room.
    fn roomiest_gap(&mut self, p: Point, around: &[Point], rooms: usize) -> (f64, f64) {
        let mut angles: Vec<f64> = around
            .iter()
            .map(|q| (q.1 - p.1).atan2(q.0 - p.0))
            .collect();
        if angles.is_empty() {
            return (0.0, 2.0 * PI);
        }
        angles.sort_by(f64::total_cmp);
        let reach = around
            .iter()
            .map(|q| (q.0 - p.0).hypot(q.1 - p.1))
            .fold(f64::MAX, f64::min);
        // The gaps round `p`: its middle direction, its width, the inner
        // face it opens onto (none: the outer face).
        let gaps = (0..angles.len()).map(|i| {
            let next = angles.get(i + 1).copied().unwrap_or(angles[0] + 2.0 * PI);
            let (direction, width) = (angles[i] + (next - angles[i]) / 2.0, next - angles[i]);
            let probe = (
                p.0 + 1e-3 * reach * direction.cos(),
                p.1 + 1e-3 * reach * direction.sin(),
            );
            let face =
                (0..self.faces.len()).find(|&f| inside(probe, self.faces[f].iter().copied()));
            (direction, width, face)
        });
        // Lower is roomier: the face's crowding, then a wider gap.
        let crowding = |face: Option<usize>| {
            face.map_or(0.0, |f| {
                (self.held[f] + rooms) as f64 / self.perimeter[f].powi(2)
            })
        };
        let (direction, width, face) = gaps
            .min_by(|a, b| {
                crowding(a.2)
                    .total_cmp(&crowding(b.2))
                    .then(b.1.total_cmp(&a.1))
            })
            .expect("a gap");
        if let Some(f) = face {
            self.held[f] += rooms;
        }
        (direction, width)
    }
}

#[cfg(test)]
mod tests {
    use super::super::untangle::neighbours;
    use super::*;

    #[test]
    fn a_squeezed_part_fits_its_angle_and_keeps_its_x() {
        let part = vec![(0, (0.0, 0.0)), (1, (1.0, 2.0)), (2, (2.0, -1.0))];
        let out = squeezed(part, 0.25 * PI).expect("right of the root");
        let near = |p: Point, q: Point| (p.0 - q.0).abs() < 1e-9 && (p.1 - q.1).abs() < 1e-9;
        assert!(near(out[1].1, (1.0, 1.0)), "{:?}", out[1]);
        assert!(near(out[2].1, (2.0, -0.5)), "{:?}", out[2]);
        assert!(squeezed(vec![(0, (0.0, 0.0)), (1, (-1.0, 0.0))], 1.0).is_none());
    }

    #[test]
    fn a_pushed_part_fits_its_angle_and_keeps_its_shape() {
        let part = vec![(0, (0.0, 0.0)), (1, (1.0, 1.0)), (2, (2.0, 1.0))];
        let out = pushed(part, 0.125 * PI);
        let by = 1.0 / (0.125 * PI).tan() - 1.0;
        assert!((out[1].1.0 - (1.0 + by)).abs() < 1e-9);
        assert!((out[2].1.0 - (2.0 + by)).abs() < 1e-9);
        assert_eq!((out[1].1.1, out[2].1.1), (1.0, 1.0));
        assert!(spread(&out).expect("right of the root") <= 0.125 * PI + 1e-9);
    }

    #[test]
    fn hanging_rooms_go_outside_else_into_the_face_with_most_room() {
        // A square 0-1-2-3 split by the path 1-4-5-3 into a small face
        // (0 1 4 5 3) and a large one (1 2 3 5 4): 4 and 5 lie on both.
        let points: [Point; 6] = [
            (0.0, 0.0),
            (10.0, 0.0),
            (30.0, 10.0),
            (0.0, 10.0),
            (7.0, 3.0),
            (7.0, 7.0),
        ];
        let links = vec![(0, 1), (1, 2), (2, 3), (0, 3), (1, 4), (4, 5), (3, 5)];
        let n = points.len();
        let around = neighbours(n, &links);
        let want: Vec<f64> = (0..n * n)
            .map(|k| {
                let (p, q) = (points[k / n], points[k % n]);
                (p.0 - q.0).hypot(p.1 - q.1)
            })
            .collect();
        let mut rng = Rng::new(1);
        let composer = Composer {
            around: &around,
            want: &want,
            ground: &vec![1; n],
            links: &links,
            claimed: vec![true; n],
            blocks: vec![true; n],
            rng: &mut rng,
            nesting: 0,
        };
        let block: Part = points.iter().copied().enumerate().collect();
        let mut space = FaceSpace::new(&composer, &block);
        assert_eq!(space.faces.len(), 2);
        let gap_of = |space: &mut FaceSpace, v: usize, rooms: usize| {
            let around: Vec<Point> = around[v].iter().map(|&w| points[w]).collect();
            space.roomiest_gap(points[v], &around, rooms).0
        };
        // Room 4 looks left-down into the small face (towards 0) and
        // right into the large one: its rooms go right, though the small
        // face's angle at it is the wider.
        let right = gap_of(&mut space, 4, 100);
        assert!(right.cos() > 0.0, "{right}");
        // Room 2 is on the outer face: outwards, whatever the faces hold.
        let out = gap_of(&mut space, 2, 3);
        assert!(out.cos() > 0.9, "{out}");
        // The large face now holds a hundred rooms; another twenty from
        // room 5 would crowd it more than the small face, which gets them
        // (room 5's wider angle looks into the large face).
        let left = gap_of(&mut space, 5, 20);
        assert!(left.cos() < 0.0, "{left}");
    }

    #[test]
    fn with_no_inner_face_the_roomiest_gap_is_the_widest() {
        let mut space = FaceSpace {
            faces: Vec::new(),
            perimeter: Vec::new(),
            held: Vec::new(),
        };
        let (direction, width) = space.roomiest_gap((0.0, 0.0), &[(1.0, 0.0), (0.0, 1.0)], 3);
        assert!((width - 1.5 * PI).abs() < 1e-9);
        assert!((direction - (0.5 * PI + 0.75 * PI)).abs() < 1e-9);
    }
}
