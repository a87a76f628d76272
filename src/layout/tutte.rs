//! A drawing of a level's graph without crossing links, to start from when
//! stress majorization alone crosses some: Tutte's barycentric drawing
//! (W. T. Tutte, "How to draw a graph", 1963). One cycle of the graph is
//! pinned on a circle and every other room of its block sits at the mean of
//! its linked rooms; when the cycle bounds a face of some drawing of the
//! graph without crossings, this drawing has none either (rooms of a path
//! end up on a straight line, so such a path is bent off any link it
//! lies on). Cycles through each link are tried, shortest first, then the
//! faces of some of the drawings, and of the largest block's drawings that
//! cross nothing the one enclosing the least ground is kept: which rooms
//! lie inside which loop follows from the graph, not from luck. The rest
//! of the graph is composed onto the block, its other blocks drawn the
//! same way ([`compose`]).

use super::compose::compose;
use super::untangle::{Point, mean_link, neighbours, to_segment};
use crate::rng::Rng;

/// Cycles tried as the outer one, at most.
const CYCLES: usize = 48;

/// Drawings of the largest block whose faces are tried as its outer cycle.
const FACE_DRAWINGS: usize = 8;

/// Gauss-Seidel sweeps of the barycentric drawing.
const SWEEPS: usize = 400;

/// A drawing of the `n` rooms linked by `links` (each `(i, j)` once)
/// without crossing links, whose links are about as long as `want` (the
/// wanted distance between each two rooms, row-major) says, or `None`
/// when the graph has no cycle or no cycle tried gives one. With the
/// drawing, which rooms are on a block drawn by Tutte's method.
pub(super) fn planar_start(
    want: &[f64],
    ground: &[usize],
    links: &[(usize, usize)],
    n: usize,
    rng: &mut Rng,
) -> Option<(Vec<Point>, Vec<bool>)> {
    let around = neighbours(n, links);
    let core = two_core(&around);
    // (key, rooms of the block, drawing) of the best cycle so far.
    type Best = ((usize, bool, usize), Vec<usize>, Vec<Point>);
    let mut best: Option<Best> = None;
    // Clean drawings, by block: their faces are outer cycles to try too.
    let mut clean: Vec<(Vec<usize>, Vec<Point>)> = Vec::new();
    for cycle in cycles(&around, &core, rng) {
        let block = block_of(&around, &core, &cycle);
        let points = barycentric(&around, &block, &cycle, want);
        if crossings_among(&points, links, &block) > 0 {
            continue;
        }
        // The largest block first (the tangled one, as a rule), then a
        // drawing with no room on a link, then the one enclosing the least
        // ground.
        let rooms = block_rooms(&block);
        let unclean = room_on_a_link(&points, links, &block);
        let key = (
            n - rooms.len(),
            unclean,
            enclosed(&points, &cycle, &block, &around, ground),
        );
        if !unclean && clean.len() < FACE_DRAWINGS * 4 {
            clean.push((rooms.clone(), points.clone()));
        }
        if best.as_ref().is_none_or(|b| key < b.0) {
            best = Some((key, rooms, points));
        }
    }
    let ((_, unclean, held), rooms, mut drawn) = best?;
    let mut block = vec![false; n];
    for &v in &rooms {
        block[v] = true;
    }
    let faces = Faces {
        around: &around,
        block: &block,
        want,
        ground,
        links,
    };
    let mut held = if unclean { usize::MAX } else { held };
    let same_block = clean.iter().filter(|(r, _)| *r == rooms).map(|(_, p)| p);
    for points in same_block.take(FACE_DRAWINGS) {
        if let Some((fewer, _, better)) = faces.fewer_enclosed(points, None, held) {
            (held, drawn) = (fewer, better);
        }
    }
    compose(&around, want, ground, links, (&block, &drawn), rng)
}

/// A block of the graph, to redraw with one of the faces of a drawing of
/// it outermost.
pub(super) struct Faces<'a> {
    pub around: &'a [Vec<usize>],
    pub block: &'a [bool],
    pub want: &'a [f64],
    /// Each room's ground in tiles (see [`enclosed`]).
    pub ground: &'a [usize],
    pub links: &'a [(usize, usize)],
}

impl Faces<'_> {
    /// Of Tutte's drawings of the block with an inner face of `drawing`
    /// (crossing nothing) outermost, the face holding `through` if given,
    /// the one enclosing the least ground if less than `held`: how much,
    /// the face and the drawing. Shortest cycles miss faces a drawing has.
    pub fn fewer_enclosed(
        &self,
        drawing: &[Point],
        through: Option<usize>,
        held: usize,
    ) -> Option<(usize, Vec<usize>, Vec<Point>)> {
        let mut best: Option<(usize, Vec<usize>, Vec<Point>)> = None;
        for face in faces(drawing, self.block, self.links) {
            if through.is_some_and(|v| !face.contains(&v)) {
                continue;
            }
            let points = barycentric(self.around, self.block, &face, self.want);
            if !drawn_cleanly(&points, self.links, self.block) {
                continue;
            }
            let now = enclosed(&points, &face, self.block, self.around, self.ground);
            if now < best.as_ref().map_or(held, |b| b.0) {
                best = Some((now, face, points));
            }
        }
        best
    }
}

/// Which rooms are left when dead ends are removed again and again.
pub(super) fn two_core(around: &[Vec<usize>]) -> Vec<bool> {
    let n = around.len();
    let mut degree: Vec<usize> = around.iter().map(Vec::len).collect();
    let mut core = vec![true; n];
    let mut stack: Vec<usize> = (0..n).filter(|&v| degree[v] <= 1).collect();
    while let Some(v) = stack.pop() {
        if !core[v] {
            continue;
        }
        core[v] = false;
        for &w in &around[v] {
            if core[w] {
                degree[w] -= 1;
                if degree[w] <= 1 {
                    stack.push(w);
                }
            }
        }
    }
    core
}

/// For each room, the room of `block` the rest of the graph hangs from
/// it by (itself for a room of the block).
fn anchors(around: &[Vec<usize>], block: &[bool]) -> Vec<usize> {
    let n = around.len();
    let mut anchor: Vec<usize> = (0..n)
        .map(|v| if block[v] { v } else { usize::MAX })
        .collect();
    let mut queue: Vec<usize> = (0..n).filter(|&v| block[v]).collect();
    let mut next = 0;
    while next < queue.len() {
        let v = queue[next];
        next += 1;
        for &w in &around[v] {
            if anchor[w] == usize::MAX {
                anchor[w] = anchor[v];
                queue.push(w);
            }
        }
    }
    anchor
}

/// Cycles of the 2-core to pin: for each of its links, a shortest cycle
/// through it (found twice, neighbours in random order), each once, at most
/// [`CYCLES`].
fn cycles(around: &[Vec<usize>], core: &[bool], rng: &mut Rng) -> Vec<Vec<usize>> {
    let n = around.len();
    let mut seen: Vec<Vec<usize>> = Vec::new();
    let mut out = Vec::new();
    for u in 0..n {
        for &v in &around[u] {
            if u > v || !core[u] || !core[v] {
                continue;
            }
            for _ in 0..2 {
                let Some(cycle) = shortest_cycle(around, core, u, v, rng) else {
                    continue;
                };
                let mut key = cycle.clone();
                key.sort_unstable();
                if !seen.contains(&key) {
                    seen.push(key);
                    out.push(cycle);
                    if out.len() >= CYCLES {
                        return out;
                    }
                }
            }
        }
    }
    out
}

/// A shortest path from `u` to `v` in the 2-core other than their link,
/// breadth first with neighbours in random order: with the link, a cycle.
pub(super) fn shortest_cycle(
    around: &[Vec<usize>],
    core: &[bool],
    u: usize,
    v: usize,
    rng: &mut Rng,
) -> Option<Vec<usize>> {
    let n = around.len();
    let mut from = vec![usize::MAX; n];
    from[u] = u;
    let mut queue = vec![u];
    let mut next = 0;
    while next < queue.len() {
        let x = queue[next];
        next += 1;
        let mut order = around[x].clone();
        rng.shuffle(&mut order);
        for w in order {
            if !core[w] || from[w] != usize::MAX || (x == u && w == v) {
                continue;
            }
            from[w] = x;
            if w == v {
                let mut path = vec![v];
                let mut at = v;
                while at != u {
                    at = from[at];
                    path.push(at);
                }
                return Some(path);
            }
            queue.push(w);
        }
    }
    None
}

/// The rooms of the 2-core (`core`) in one block with `cycle`: no single
/// room cuts them off it.
pub(super) fn block_of(around: &[Vec<usize>], core: &[bool], cycle: &[usize]) -> Vec<bool> {
    let n = around.len();
    let mut block = core.to_vec();
    for cut in 0..n {
        if !core[cut] {
            continue;
        }
        let mut seen = vec![false; n];
        seen[cut] = true;
        let mut queue: Vec<usize> = cycle.iter().copied().filter(|&c| c != cut).collect();
        for &c in &queue {
            seen[c] = true;
        }
        let mut next = 0;
        while next < queue.len() {
            let v = queue[next];
            next += 1;
            for &w in &around[v] {
                if core[w] && !seen[w] {
                    seen[w] = true;
                    queue.push(w);
                }
            }
        }
        for v in 0..n {
            if !seen[v] {
                block[v] = false;
            }
        }
    }
    block
}

/// The rooms of `block`.
fn block_rooms(block: &[bool]) -> Vec<usize> {
    (0..block.len()).filter(|&v| block[v]).collect()
}

/// Tutte's drawing of `block` with `cycle` pinned on a circle as long as
/// its links want: every other room of the block at the mean of its linked
/// rooms of the block (rooms off the block stay at the origin). A path of
/// rooms with two links each lies on the straight line between its ends,
/// over their link or another such path when there is one: such a path
/// is bent ([`bent`]).
pub(super) fn barycentric(
    around: &[Vec<usize>],
    block: &[bool],
    cycle: &[usize],
    want: &[f64],
) -> Vec<Point> {
    let n = around.len();
    let k = cycle.len();
    let radius = perimeter(cycle, want, n) / std::f64::consts::TAU;
    let mut points = vec![(0.0, 0.0); n];
    let mut pinned = vec![false; n];
    for (i, &v) in cycle.iter().enumerate() {
        let angle = std::f64::consts::TAU * i as f64 / k as f64;
        points[v] = (radius * angle.cos(), radius * angle.sin());
        pinned[v] = true;
    }
    let paths = paths(around, block, cycle);
    let links: Vec<(usize, usize)> = (0..n)
        .filter(|&v| block[v])
        .flat_map(|v| {
            around[v]
                .iter()
                .filter(move |&&w| block[w] && v < w)
                .map(move |&w| (v, w))
        })
        .collect();
    // The rooms of bent paths stay where bent while the others settle
    // again round them (a room linked to a bent one may have sat on a
    // link too); then the paths are bent again from their ends' new places.
    for _ in 0..BENT_ROUNDS {
        settle(&mut points, around, block, &pinned);
        for path in &paths {
            if bent(&mut points, &links, block, path) {
                for &v in &path[1..path.len() - 1] {
                    pinned[v] = true;
                }
            }
        }
    }
    points
}

/// Rounds of settling and bending in [`barycentric`].
const BENT_ROUNDS: usize = 2;

/// [`SWEEPS`] Gauss-Seidel sweeps moving every room of `block` not
/// `pinned` to the mean of its linked rooms of the block.
fn settle(points: &mut [Point], around: &[Vec<usize>], block: &[bool], pinned: &[bool]) {
    let free: Vec<usize> = (0..around.len())
        .filter(|&v| block[v] && !pinned[v])
        .collect();
    for _ in 0..SWEEPS {
        for &v in &free {
            let linked: Vec<usize> = around[v].iter().copied().filter(|&w| block[w]).collect();
            let m = linked.len() as f64;
            points[v] = linked.iter().fold((0.0, 0.0), |(x, y), &w| {
                (x + points[w].0 / m, y + points[w].1 / m)
            });
        }
    }
}

/// How many times a bent path is tried, each bending half as far.
const BENDS: usize = 6;

/// The paths of rooms with two links in `block`, off `cycle`: each
/// with its two ends (rooms with more links, or on the cycle) first and
/// last.
fn paths(around: &[Vec<usize>], block: &[bool], cycle: &[usize]) -> Vec<Vec<usize>> {
    let linked =
        |v: usize| -> Vec<usize> { around[v].iter().copied().filter(|&w| block[w]).collect() };
    let inner = |v: usize| block[v] && !cycle.contains(&v) && linked(v).len() == 2;
    let mut seen = vec![false; around.len()];
    let mut out = Vec::new();
    for v in 0..around.len() {
        if seen[v] || !inner(v) {
            continue;
        }
        seen[v] = true;
        let mut halves = Vec::new();
        for first in linked(v) {
            let mut half = Vec::new();
            let (mut prev, mut at) = (v, first);
            while inner(at) && !seen[at] {
                seen[at] = true;
                half.push(at);
                let next = linked(at).into_iter().find(|&w| w != prev);
                (prev, at) = (at, next.unwrap_or(prev));
            }
            half.push(at);
            halves.push(half);
        }
        let mut path: Vec<usize> = halves[0].iter().rev().copied().collect();
        path.push(v);
        path.extend(&halves[1]);
        out.push(path);
    }
    out
}

/// Bends `path` (its ends first and last) when a room of it lies on a
/// link, or another room on one of its links: its rooms go on an arch
/// over the line between its ends, either side, lower and lower, until
/// they and their links are clear of the block's other `links`. Whether
/// it was bent.
fn bent(points: &mut [Point], links: &[(usize, usize)], block: &[bool], path: &[usize]) -> bool {
    let own: Vec<(usize, usize)> = path
        .windows(2)
        .map(|w| (w[0].min(w[1]), w[0].max(w[1])))
        .collect();
    let clear = |points: &[Point]| {
        let rooms_clear = path[1..path.len() - 1].iter().all(|&v| {
            links
                .iter()
                .all(|&(a, b)| v == a || v == b || !on_link(points, v, (a, b)))
        });
        let links_clear = own.iter().all(|&(a, b)| {
            (0..points.len()).all(|v| !block[v] || v == a || v == b || !on_link(points, v, (a, b)))
                && links.iter().all(|&(c, d)| {
                    a == c
                        || a == d
                        || b == c
                        || b == d
                        || !super::untangle::segments_cross(
                            points[a], points[b], points[c], points[d],
                        )
                })
        });
        rooms_clear && links_clear
    };
    if clear(points) {
        return false;
    }
    let (a, b) = (points[path[0]], points[path[path.len() - 1]]);
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let normal = (-dy, dx);
    let last = (path.len() - 1) as f64;
    let before: Vec<Point> = path.iter().map(|&v| points[v]).collect();
    let mut height = 0.3;
    for _ in 0..BENDS {
        for side in [1.0, -1.0] {
            for (i, &v) in path.iter().enumerate().take(path.len() - 1).skip(1) {
                let t = i as f64 / last;
                let lift = side * height * (std::f64::consts::PI * t).sin();
                points[v] = (
                    a.0 + t * dx + lift * normal.0,
                    a.1 + t * dy + lift * normal.1,
                );
            }
            if clear(points) {
                return true;
            }
        }
        height /= 2.0;
    }
    for (&v, &p) in path.iter().zip(&before) {
        points[v] = p;
    }
    false
}

/// Whether no two links between rooms of `among` cross and no such room
/// lies on a link of two others ([`room_on_a_link`]).
pub(super) fn drawn_cleanly(points: &[Point], links: &[(usize, usize)], among: &[bool]) -> bool {
    !room_on_a_link(points, links, among) && crossings_among(points, links, among) == 0
}

/// Whether a room of `among` lies on a link between two others of
/// `among`, as a room linked only to the two ends of a link does in
/// Tutte's drawing: a path drawn over the link.
pub(super) fn room_on_a_link(points: &[Point], links: &[(usize, usize)], among: &[bool]) -> bool {
    links
        .iter()
        .filter(|&&(a, b)| among[a] && among[b])
        .any(|&(a, b)| {
            (0..points.len()).any(|v| among[v] && v != a && v != b && on_link(points, v, (a, b)))
        })
}

/// Whether room `v` lies on the link `(a, b)` (within a millionth of a
/// tile).
fn on_link(points: &[Point], v: usize, (a, b): (usize, usize)) -> bool {
    to_segment(points[v], points[a], points[b]) < 1e-6
}

/// How many pairs of `links` between rooms of `among`, without a room in
/// common, cross.
pub(super) fn crossings_among(points: &[Point], links: &[(usize, usize)], among: &[bool]) -> usize {
    let links: Vec<(usize, usize)> = links
        .iter()
        .copied()
        .filter(|&(a, b)| among[a] && among[b])
        .collect();
    super::untangle::crossings(points, &links)
}

/// How much ground a drawing of `block` with `cycle` outermost encloses:
/// the `ground` (tiles) of the block's rooms off the cycle and of all
/// that hangs from them. Counting tiles rather than rooms, two ways of
/// drawing a block that enclose as many rooms differ by the ground their
/// loops must go round: graph 70,002 `tree+loops(20,3)` of the families
/// encloses eight rooms either way, 1,665 or 1,294 tiles of them.
pub(super) fn enclosed(
    points: &[Point],
    cycle: &[usize],
    block: &[bool],
    around: &[Vec<usize>],
    ground: &[usize],
) -> usize {
    let anchor = anchors(around, block);
    (0..points.len())
        .filter(|&v| {
            let a = anchor[v];
            a != usize::MAX
                && !cycle.contains(&a)
                && inside(points[a], cycle.iter().map(|&c| points[c]))
        })
        .map(|v| ground[v])
        .sum()
}

/// How long the links round `cycle` (rooms in order, the last linked to
/// the first) want to be, all told (`want`: the wanted distance between
/// each two of `n` rooms, row-major).
pub(super) fn perimeter(cycle: &[usize], want: &[f64], n: usize) -> f64 {
    let k = cycle.len();
    (0..k)
        .map(|i| want[cycle[i] * n + cycle[(i + 1) % k]])
        .sum()
}

/// Whether `p` is inside the polygon of `corners` (ray casting).
pub(super) fn inside(p: Point, corners: impl Iterator<Item = Point> + Clone) -> bool {
    let list: Vec<Point> = corners.collect();
    let mut odd = false;
    for i in 0..list.len() {
        let (a, b) = (list[i], list[(i + 1) % list.len()]);
        if (a.1 > p.1) != (b.1 > p.1) && p.0 < a.0 + (p.1 - a.1) * (b.0 - a.0) / (b.1 - a.1) {
            odd = !odd;
        }
    }
    odd
}

/// The distances to relax a planar start towards (see [`planar_start`]):
/// each link around a face of `block` that holds rooms hanging into it is
/// lengthened until the face's perimeter could go round them (a circle
/// holding a square of a mean link's side per room), at most
/// [`MAX_STRETCH`] times; then the distance between two rooms is again the
/// shortest path between them. A loop drawn round a branch grows, so that
/// its rooms and corridors leave the branch its ground.
pub(super) fn stretched(
    points: &[Point],
    block: &[bool],
    want: &[f64],
    links: &[(usize, usize)],
) -> Vec<f64> {
    let n = points.len();
    let step = mean_link(want, links, n);
    let mut stretch = vec![1.0f64; links.len()];
    let index = |a: usize, b: usize| links.iter().position(|&l| l == (a.min(b), a.max(b)));
    for face in faces(points, block, links) {
        let polygon = face.iter().map(|&v| points[v]);
        let held = (0..n)
            .filter(|&v| !block[v] && inside(points[v], polygon.clone()))
            .count();
        if held == 0 {
            continue;
        }
        let k = face.len();
        let needed = (4.0 * std::f64::consts::PI * held as f64).sqrt() * step;
        let factor = (needed / perimeter(&face, want, n)).clamp(1.0, MAX_STRETCH);
        for i in 0..k {
            if let Some(l) = index(face[i], face[(i + 1) % k]) {
                stretch[l] = stretch[l].max(factor);
            }
        }
    }
    shortest_paths(n, links, |l| want[links[l].0 * n + links[l].1] * stretch[l])
}

/// How much longer than wanted a link around a face holding rooms may be
/// drawn: corridors of the usual bound reach about this far.
const MAX_STRETCH: f64 = 2.0;

/// The inner faces of the drawing of the links between rooms of `block`
/// (crossing nothing), each as its rooms in order: every link is followed
/// on to the next link clockwise round the room it reaches. The face
/// whose area has the other sign (the outer one) is left out.
pub(super) fn faces(points: &[Point], block: &[bool], links: &[(usize, usize)]) -> Vec<Vec<usize>> {
    let n = points.len();
    let mut around: Vec<Vec<usize>> = vec![Vec::new(); n];
    for &(a, b) in links {
        if block[a] && block[b] {
            around[a].push(b);
            around[b].push(a);
        }
    }
    let angle = |v: usize, w: usize| (points[w].1 - points[v].1).atan2(points[w].0 - points[v].0);
    for (v, list) in around.iter_mut().enumerate() {
        list.sort_by(|&a, &b| angle(v, a).total_cmp(&angle(v, b)));
    }
    let mut used = std::collections::HashSet::new();
    let mut out = Vec::new();
    for u in 0..n {
        for &v in &around[u] {
            if used.contains(&(u, v)) {
                continue;
            }
            let mut face = Vec::new();
            let (mut a, mut b) = (u, v);
            while used.insert((a, b)) {
                face.push(a);
                let list = &around[b];
                let at = list.iter().position(|&x| x == a).expect("a link both ways");
                let next = list[(at + list.len() - 1) % list.len()];
                (a, b) = (b, next);
            }
            out.push(face);
        }
    }
    let area = |f: &Vec<usize>| {
        (0..f.len())
            .map(|i| {
                let (p, q) = (points[f[i]], points[f[(i + 1) % f.len()]]);
                p.0 * q.1 - q.0 * p.1
            })
            .sum::<f64>()
            / 2.0
    };
    // The outer face is the one of largest area; inner faces have the
    // other sign.
    let outer_sign = out
        .iter()
        .map(area)
        .max_by(|a, b| a.abs().total_cmp(&b.abs()))
        .map_or(1.0, f64::signum);
    out.into_iter()
        .filter(|f| area(f).signum() != outer_sign)
        .collect()
}

/// The length of a shortest path between every two of `n` rooms (row-major;
/// 0 for none and from a room to itself), link `l` being `length(l)` long.
fn shortest_paths(n: usize, links: &[(usize, usize)], length: impl Fn(usize) -> f64) -> Vec<f64> {
    use petgraph::graph::{NodeIndex, UnGraph};
    let mut graph = UnGraph::<(), f64>::with_capacity(n, links.len());
    for _ in 0..n {
        graph.add_node(());
    }
    for (l, &(a, b)) in links.iter().enumerate() {
        graph.add_edge(NodeIndex::new(a), NodeIndex::new(b), length(l));
    }
    let mut out = vec![0.0; n * n];
    for s in 0..n {
        for (t, d) in petgraph::algo::dijkstra(&graph, NodeIndex::new(s), None, |e| *e.weight()) {
            out[s * n + t.index()] = d;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Links of a square `0 1 2 3` with a diagonal path `0 4 2` and a
    /// branch `4 5 6` off its middle: whichever way it is drawn, the branch
    /// lies inside one of the square's two halves or outside the square.
    fn square_with_branch() -> (usize, Vec<(usize, usize)>) {
        (
            7,
            vec![
                (0, 1),
                (1, 2),
                (2, 3),
                (0, 3),
                (0, 4),
                (2, 4),
                (4, 5),
                (5, 6),
            ],
        )
    }

    #[test]
    fn the_start_crosses_nothing_and_keeps_the_branch_outside() {
        let (n, links) = square_with_branch();
        let want = shortest_paths(n, &links, |_| 10.0);
        let mut rng = Rng::new(7);
        let (points, block) =
            planar_start(&want, &vec![1; n], &links, n, &mut rng).expect("a planar start");
        assert_eq!(crossings_among(&points, &links, &vec![true; n]), 0);
        assert_eq!(block, vec![true, true, true, true, true, false, false]);
        // The outer cycle runs through room 4, so its branch hangs outside
        // every face: no inner face of the drawing holds a room.
        for face in faces(&points, &block, &links) {
            let polygon = face.iter().map(|&v| points[v]);
            assert!(!inside(points[5], polygon.clone()), "face {face:?}");
            assert!(!inside(points[6], polygon), "face {face:?}");
        }
    }

    #[test]
    fn blocks_hanging_from_blocks_are_drawn_by_tutte_without_crossings() {
        // A square 0 1 2 3 split by the path 0 4 2; from room 2 a square
        // 2 5 6 7 split by 5-7; from room 6, past a link, a triangle
        // 8 9 10 with a dead end 11.
        let (_, square) = square_with_branch();
        let mut links = square[..6].to_vec();
        links.extend([
            (2, 5),
            (5, 6),
            (6, 7),
            (2, 7),
            (5, 7),
            (6, 8),
            (8, 9),
            (9, 10),
            (8, 10),
            (9, 11),
        ]);
        let n = 12;
        let want = shortest_paths(n, &links, |_| 10.0);
        for seed in 0..8 {
            let mut rng = Rng::new(seed);
            let (points, block) =
                planar_start(&want, &vec![1; n], &links, n, &mut rng).expect("a start");
            assert_eq!(
                crossings_among(&points, &links, &vec![true; n]),
                0,
                "seed {seed}"
            );
            let mut on_blocks: Vec<usize> = (0..n).filter(|&v| block[v]).collect();
            on_blocks.sort_unstable();
            assert_eq!(on_blocks, (0..=10).collect::<Vec<_>>(), "seed {seed}");
            // Every link is drawn, no two rooms at one point.
            for a in 0..n {
                for b in a + 1..n {
                    let d = super::super::radial::distance(points[a], points[b]);
                    assert!(d > 1e-6, "rooms {a} and {b} meet (seed {seed})");
                }
            }
        }
    }

    #[test]
    fn the_drawing_encloses_the_lighter_of_two_branches_as_many_rooms_each() {
        // A square 0 1 2 3 with two diagonal paths, 1 4 3 and 0 6 2: one
        // must run inside the square. Each path's middle room has a dead
        // end (5 and 7), so either way two rooms are enclosed; 5 has ten
        // times the ground of 7, so the drawing encloses 6 and 7.
        let links = vec![
            (0, 1),
            (1, 2),
            (2, 3),
            (0, 3),
            (1, 4),
            (3, 4),
            (4, 5),
            (0, 6),
            (2, 6),
            (6, 7),
        ];
        let n = 8;
        let want = shortest_paths(n, &links, |_| 10.0);
        for (heavy, light) in [(5, 7), (7, 5)] {
            let mut ground = vec![100; n];
            ground[heavy] = 1_000;
            for seed in 0..8 {
                let mut rng = Rng::new(seed);
                let (points, _) =
                    planar_start(&want, &ground, &links, n, &mut rng).expect("a start");
                let square = [0, 1, 2, 3].map(|v| points[v]);
                assert!(inside(points[light], square.into_iter()), "seed {seed}");
                assert!(!inside(points[heavy], square.into_iter()), "seed {seed}");
            }
        }
    }

    #[test]
    fn a_tree_has_no_planar_start() {
        let links = vec![(0, 1), (1, 2), (1, 3)];
        let want = shortest_paths(4, &links, |_| 10.0);
        assert!(planar_start(&want, &[1; 4], &links, 4, &mut Rng::new(1)).is_none());
    }

    #[test]
    fn faces_of_a_square_split_by_a_path_are_its_two_halves() {
        let points = [
            (0.0, 0.0),
            (10.0, 0.0),
            (10.0, 10.0),
            (0.0, 10.0),
            (5.0, 5.0),
        ];
        let links = [(0, 1), (1, 2), (2, 3), (0, 3), (0, 4), (2, 4)];
        let mut inner: Vec<Vec<usize>> = faces(&points, &[true; 5], &links)
            .into_iter()
            .map(|mut f| {
                f.sort_unstable();
                f
            })
            .collect();
        inner.sort();
        assert_eq!(inner, vec![vec![0, 1, 2, 4], vec![0, 2, 3, 4]]);
    }

    #[test]
    fn a_face_holding_rooms_has_its_links_stretched() {
        // A square with a branch of three rooms hanging inside it from
        // room 0.
        let points = [
            (0.0, 0.0),
            (20.0, 0.0),
            (20.0, 20.0),
            (0.0, 20.0),
            (3.0, 3.0),
            (5.0, 5.0),
            (7.0, 7.0),
        ];
        let links = vec![(0, 1), (1, 2), (2, 3), (0, 3), (0, 4), (4, 5), (5, 6)];
        let want = shortest_paths(7, &links, |_| 10.0);
        let block = [true, true, true, true, false, false, false];
        let longer = stretched(&points, &block, &want, &links);
        // sqrt(4 pi 3) * 10 = 61.4 round a face of 40: each side 1.53 times
        // as long; the branch keeps its length.
        assert!((longer[1] - 15.35).abs() < 0.1, "{}", longer[1]);
        assert_eq!(longer[4], 10.0);
        assert!((longer[2] - 30.7).abs() < 0.2, "{}", longer[2]);
    }
}
