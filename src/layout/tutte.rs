//! A drawing of a level's graph without crossing links, to start from when
//! stress majorization alone crosses some: Tutte's barycentric drawing
//! (W. T. Tutte, "How to draw a graph", 1963). One cycle of the graph is
//! pinned on a circle and every other room of its block sits at the mean of
//! its linked rooms; when the cycle bounds a face of some drawing of the
//! graph without crossings, this drawing has none either (rooms of a path
//! end up on a straight line). The rest of the graph hangs from the block
//! as small radial trees. Cycles through each link are tried, shortest
//! first, and of the largest block's drawings that cross nothing the one
//! enclosing the fewest rooms is kept: which rooms lie inside which loop
//! follows from the graph, not from luck.

use super::untangle::{Point, mean_link};
use crate::rng::Rng;

/// Cycles tried as the outer one, at most.
const CYCLES: usize = 48;

/// Gauss-Seidel sweeps of the barycentric drawing.
const SWEEPS: usize = 400;

/// How far out, in mean links, the trees hanging from the block are drawn
/// at first: relaxation grows them again.
const UNFOLD: f64 = 0.5;

/// Shrinkings of the hanging trees tried, each half the one before.
const UNFOLD_TRIES: usize = 12;

/// The widest angle a tree hanging from a block room is drawn in: under
/// half a turn, a radial drawing crosses nothing.
const WEDGE: f64 = 0.9 * std::f64::consts::PI;

/// A drawing of the `n` rooms linked by `links` (each `(i, j)` once)
/// without crossing links, whose links are about as long as `want` (the
/// wanted distance between each two rooms, row-major) says, or `None`
/// when the graph has no cycle or no cycle tried gives one. With the
/// drawing, which rooms are on the block drawn by Tutte's method.
pub(super) fn planar_start(
    want: &[f64],
    links: &[(usize, usize)],
    n: usize,
    rng: &mut Rng,
) -> Option<(Vec<Point>, Vec<bool>)> {
    let mut around = vec![Vec::new(); n];
    for &(a, b) in links {
        around[a].push(b);
        around[b].push(a);
    }
    let core = two_core(&around);
    // (key, rooms of the block, drawing) of the best cycle so far.
    type Best = ((usize, usize), Vec<usize>, Vec<Point>);
    let mut best: Option<Best> = None;
    for cycle in cycles(&around, &core, rng) {
        let block = block_of(&around, &core, &cycle);
        let points = barycentric(&around, &block, &cycle, want);
        if crossings(&points, links, &block) > 0 {
            continue;
        }
        // The largest block first (the tangled one, as a rule), then the
        // drawing enclosing the fewest rooms.
        let rooms = block_rooms(&block);
        let key = (n - rooms.len(), enclosed(&points, &cycle, &block, &around));
        if best.as_ref().is_none_or(|b| key < b.0) {
            best = Some((key, rooms, points));
        }
    }
    let (_, rooms, drawn) = best?;
    let mut block = vec![false; n];
    for v in rooms {
        block[v] = true;
    }
    let step = mean_link(want, links, n);
    // The rest hangs from rooms of the block, smaller and smaller until it
    // crosses nothing.
    let mut scale = UNFOLD;
    for _ in 0..UNFOLD_TRIES {
        let points = hang(&drawn, &around, &block, step, scale);
        if crossings(&points, links, &vec![true; n]) == 0 {
            return Some((points, block));
        }
        scale /= 2.0;
    }
    None
}

/// Which rooms are left when dead ends are removed again and again.
fn two_core(around: &[Vec<usize>]) -> Vec<bool> {
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
fn shortest_cycle(
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
fn block_of(around: &[Vec<usize>], core: &[bool], cycle: &[usize]) -> Vec<bool> {
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
/// rooms of the block (rooms off the block stay at the origin).
fn barycentric(around: &[Vec<usize>], block: &[bool], cycle: &[usize], want: &[f64]) -> Vec<Point> {
    let n = around.len();
    let k = cycle.len();
    let perimeter: f64 = (0..k)
        .map(|i| want[cycle[i] * n + cycle[(i + 1) % k]])
        .sum();
    let radius = perimeter / std::f64::consts::TAU;
    let mut points = vec![(0.0, 0.0); n];
    let mut pinned = vec![false; n];
    for (i, &v) in cycle.iter().enumerate() {
        let angle = std::f64::consts::TAU * i as f64 / k as f64;
        points[v] = (radius * angle.cos(), radius * angle.sin());
        pinned[v] = true;
    }
    let free: Vec<usize> = (0..n).filter(|&v| block[v] && !pinned[v]).collect();
    for _ in 0..SWEEPS {
        for &v in &free {
            let linked: Vec<usize> = around[v].iter().copied().filter(|&w| block[w]).collect();
            let m = linked.len() as f64;
            points[v] = linked.iter().fold((0.0, 0.0), |(x, y), &w| {
                (x + points[w].0 / m, y + points[w].1 / m)
            });
        }
    }
    points
}

/// `drawn` (the block's rooms placed) with every other room drawn as a
/// tree hanging from the block room its part hangs from: in the widest
/// angle between that room's links in the block (at most [`WEDGE`]), each
/// subtree in a share of its parent's angle as large as its share of the
/// leaves, each step from the block `scale` times a mean link (`step`)
/// further out. Radial drawings of trees in a wedge under half a turn cross
/// nothing; shrunk enough, nor does the block.
fn hang(
    drawn: &[Point],
    around: &[Vec<usize>],
    block: &[bool],
    step: f64,
    scale: f64,
) -> Vec<Point> {
    let n = drawn.len();
    let mut points = drawn.to_vec();
    // Breadth first from the block: the tree the rest hangs by.
    let mut parent = vec![usize::MAX; n];
    let mut depth = vec![0usize; n];
    let mut order: Vec<usize> = (0..n).filter(|&v| block[v]).collect();
    let mut seen = block.to_vec();
    let mut next = 0;
    while next < order.len() {
        let v = order[next];
        next += 1;
        for &w in &around[v] {
            if !seen[w] {
                seen[w] = true;
                parent[w] = v;
                depth[w] = depth[v] + 1;
                order.push(w);
            }
        }
    }
    let mut children = vec![Vec::new(); n];
    for &v in &order {
        if parent[v] != usize::MAX {
            children[parent[v]].push(v);
        }
    }
    let mut leaves = vec![1usize; n];
    for &v in order.iter().rev() {
        if !children[v].is_empty() {
            leaves[v] = children[v].iter().map(|&c| leaves[c]).sum();
        }
    }
    // Each room's wedge (from, width), the block rooms' from their widest gap.
    let mut wedge = vec![(0.0, 0.0); n];
    for &v in order
        .iter()
        .filter(|&&v| block[v] && !children[v].is_empty())
    {
        let mut angles: Vec<f64> = around[v]
            .iter()
            .filter(|&&w| block[w])
            .map(|&w| (drawn[w].1 - drawn[v].1).atan2(drawn[w].0 - drawn[v].0))
            .collect();
        angles.sort_by(f64::total_cmp);
        let (mut start, mut gap) = (0.0, std::f64::consts::TAU);
        for i in 0..angles.len() {
            let next = if i + 1 < angles.len() {
                angles[i + 1]
            } else {
                angles[0] + std::f64::consts::TAU
            };
            if next - angles[i] > gap || i == 0 {
                (start, gap) = (angles[i], next - angles[i]);
            }
        }
        let width = (gap * 0.8).min(WEDGE);
        wedge[v] = (start + (gap - width) / 2.0, width);
    }
    for &v in &order {
        if children[v].is_empty() {
            continue;
        }
        let (mut from, width) = wedge[v];
        let total = leaves[v] as f64;
        for &c in &children[v] {
            let share = width * leaves[c] as f64 / total;
            wedge[c] = (from, share);
            let angle = from + share / 2.0;
            let r = scale * step * depth[c] as f64;
            let a = if block[v] {
                v
            } else {
                anchor_of(&parent, block, v)
            };
            points[c] = (drawn[a].0 + r * angle.cos(), drawn[a].1 + r * angle.sin());
            from += share;
        }
    }
    points
}

/// The block room the tree of `v` hangs from.
fn anchor_of(parent: &[usize], block: &[bool], mut v: usize) -> usize {
    while !block[v] {
        v = parent[v];
    }
    v
}

/// How many pairs of `links` between rooms of `among`, without a room in
/// common, cross.
fn crossings(points: &[Point], links: &[(usize, usize)], among: &[bool]) -> usize {
    let links: Vec<(usize, usize)> = links
        .iter()
        .copied()
        .filter(|&(a, b)| among[a] && among[b])
        .collect();
    super::untangle::crossings(points, &links)
}

/// How many rooms a drawing of `block` with `cycle` outermost encloses:
/// the block's rooms off the cycle and all that hangs from them.
fn enclosed(points: &[Point], cycle: &[usize], block: &[bool], around: &[Vec<usize>]) -> usize {
    let anchor = anchors(around, block);
    (0..points.len())
        .filter(|&v| {
            let a = anchor[v];
            a != usize::MAX
                && !cycle.contains(&a)
                && inside(points[a], cycle.iter().map(|&c| points[c]))
        })
        .count()
}

/// Whether `p` is inside the polygon of `corners` (ray casting).
fn inside(p: Point, corners: impl Iterator<Item = Point> + Clone) -> bool {
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
        let perimeter: f64 = (0..k).map(|i| want[face[i] * n + face[(i + 1) % k]]).sum();
        let needed = (4.0 * std::f64::consts::PI * held as f64).sqrt() * step;
        let factor = (needed / perimeter).clamp(1.0, MAX_STRETCH);
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
fn faces(points: &[Point], block: &[bool], links: &[(usize, usize)]) -> Vec<Vec<usize>> {
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
    use std::cmp::Reverse;
    use std::collections::BinaryHeap;
    let mut around: Vec<Vec<(usize, f64)>> = vec![Vec::new(); n];
    for (l, &(a, b)) in links.iter().enumerate() {
        around[a].push((b, length(l)));
        around[b].push((a, length(l)));
    }
    let mut out = vec![0.0; n * n];
    for s in 0..n {
        let mut best = vec![f64::INFINITY; n];
        best[s] = 0.0;
        let mut heap = BinaryHeap::from([Reverse((0u64, s))]);
        while let Some(Reverse((d, v))) = heap.pop() {
            let d = f64::from_bits(d);
            if d > best[v] {
                continue;
            }
            for &(w, len) in &around[v] {
                if d + len < best[w] {
                    best[w] = d + len;
                    heap.push(Reverse(((d + len).to_bits(), w)));
                }
            }
        }
        for t in 0..n {
            if best[t].is_finite() {
                out[s * n + t] = best[t];
            }
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
        let (points, block) = planar_start(&want, &links, n, &mut rng).expect("a planar start");
        assert_eq!(crossings(&points, &links, &vec![true; n]), 0);
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
    fn a_tree_has_no_planar_start() {
        let links = vec![(0, 1), (1, 2), (1, 3)];
        let want = shortest_paths(4, &links, |_| 10.0);
        assert!(planar_start(&want, &links, 4, &mut Rng::new(1)).is_none());
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
