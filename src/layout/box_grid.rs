//! Rooms' boxes and the links between them bucketed by square cells, so
//! that the boxes a box may overlap, the links a link may cross and the
//! boxes a link may run through are found without looking at every other:
//! the spreading of a large drawing ([`spread`](super::spread)) asks this
//! for every move.

use super::untangle::Point;

/// Square cells over the ground some points start on and a border round
/// it. A point beyond counts as in the nearest cell on the edge, which
/// keeps neighbours neighbours: two points less than a cell apart along
/// an axis are in the same column (row) or in neighbouring ones.
#[derive(Clone, Copy, Debug)]
struct Cells {
    side: f64,
    origin: Point,
    columns: usize,
    rows: usize,
}

/// Cells of border added round the starting ground on each side, per
/// cell across it.
const BORDER: f64 = 0.5;

/// A rectangle of cells: first and last column, first and last row.
type Span = (usize, usize, usize, usize);

impl Cells {
    /// Cells of side `side` over `points`.
    fn over(points: &[Point], side: f64) -> Self {
        let side = side.max(1.0);
        let (mut lo, mut hi) = ((0.0f64, 0.0f64), (0.0f64, 0.0f64));
        if let Some(&first) = points.first() {
            (lo, hi) = (first, first);
        }
        for p in points {
            lo = (lo.0.min(p.0), lo.1.min(p.1));
            hi = (hi.0.max(p.0), hi.1.max(p.1));
        }
        let across = |lo: f64, hi: f64| ((hi - lo) / side).ceil().max(1.0);
        let (wide, high) = (across(lo.0, hi.0), across(lo.1, hi.1));
        let border = (BORDER * wide.max(high)).ceil().max(1.0);
        Cells {
            side,
            origin: (lo.0 - border * side, lo.1 - border * side),
            columns: (wide + 2.0 * border + 1.0) as usize,
            rows: (high + 2.0 * border + 1.0) as usize,
        }
    }

    fn count(&self) -> usize {
        self.columns * self.rows
    }

    /// The column and row of the cell holding `p` (clamped to the grid).
    fn column_row(&self, p: Point) -> (usize, usize) {
        let index = |x: f64, origin: f64, count: usize| {
            (((x - origin) / self.side).floor().max(0.0) as usize).min(count - 1)
        };
        (
            index(p.0, self.origin.0, self.columns),
            index(p.1, self.origin.1, self.rows),
        )
    }

    /// The cells the rectangle with corners `a` and `b` touches, grown by
    /// `grow` cells on every side.
    fn span(&self, a: Point, b: Point, grow: usize) -> Span {
        let (c0, r0) = self.column_row((a.0.min(b.0), a.1.min(b.1)));
        let (c1, r1) = self.column_row((a.0.max(b.0), a.1.max(b.1)));
        (
            c0.saturating_sub(grow),
            (c1 + grow).min(self.columns - 1),
            r0.saturating_sub(grow),
            (r1 + grow).min(self.rows - 1),
        )
    }

    fn each(&self, (c0, c1, r0, r1): Span) -> impl Iterator<Item = usize> + '_ {
        (r0..=r1).flat_map(move |r| (c0..=c1).map(move |c| r * self.columns + c))
    }
}

/// Removes `item` from `bucket` (order is not kept).
fn take_out(bucket: &mut Vec<usize>, item: usize) {
    if let Some(k) = bucket.iter().position(|&u| u == item) {
        bucket.swap_remove(k);
    }
}

/// Boxes of rooms bucketed by the cell their centre lies in. A cell is
/// twice the grid's reach wide (the largest half side of a box and half
/// its margin): two boxes nearer than their margins allow lie in the same
/// cell or in neighbouring ones.
pub(super) struct BoxGrid {
    cells: Cells,
    buckets: Vec<Vec<usize>>,
    /// The cell each box is in.
    cell_of: Vec<usize>,
}

impl BoxGrid {
    /// Boxes at `points`, none of whose half sides and half margin
    /// together exceed `reach`.
    pub(super) fn new(points: &[Point], reach: f64) -> Self {
        let cells = Cells::over(points, 2.0 * reach);
        let mut grid = BoxGrid {
            cells,
            buckets: vec![Vec::new(); cells.count()],
            cell_of: Vec::with_capacity(points.len()),
        };
        for (v, &p) in points.iter().enumerate() {
            let c = grid.cell_at(p);
            grid.buckets[c].push(v);
            grid.cell_of.push(c);
        }
        grid
    }

    fn cell_at(&self, p: Point) -> usize {
        let (c, r) = self.cells.column_row(p);
        r * self.cells.columns + c
    }

    /// Box `v` now lies at `to`.
    pub(super) fn moved(&mut self, v: usize, to: Point) {
        let (from, into) = (self.cell_of[v], self.cell_at(to));
        if from != into {
            take_out(&mut self.buckets[from], v);
            self.buckets[into].push(v);
            self.cell_of[v] = into;
        }
    }

    /// Puts into `out` every box in the cell of `at` and its eight
    /// neighbours: every box that may overlap a box at `at`.
    pub(super) fn near(&self, at: Point, out: &mut Vec<usize>) {
        self.around(at, at, out);
    }

    /// Puts into `out` every box that may meet the segment from `a` to
    /// `b`: those in the cells its bounding rectangle touches and their
    /// neighbours.
    pub(super) fn around(&self, a: Point, b: Point, out: &mut Vec<usize>) {
        out.clear();
        for c in self.cells.each(self.cells.span(a, b, 1)) {
            out.extend_from_slice(&self.buckets[c]);
        }
    }
}

/// Links (segments between two boxes' centres) bucketed by every cell of
/// a [`BoxGrid`] their bounding rectangle touches: two segments that
/// cross share a cell, and a segment that runs through a box touches the
/// box's cell or a neighbour of it.
pub(super) struct LinkGrid {
    cells: Cells,
    buckets: Vec<Vec<usize>>,
    /// The cells each link is in.
    span_of: Vec<Span>,
    /// The round of the last query that found each link (to report it
    /// once).
    seen: Vec<u32>,
    round: u32,
}

impl LinkGrid {
    /// `links` between boxes at `points`, over the cells of `boxes`.
    pub(super) fn new(boxes: &BoxGrid, points: &[Point], links: &[(usize, usize)]) -> Self {
        let cells = boxes.cells;
        let mut grid = LinkGrid {
            cells,
            buckets: vec![Vec::new(); cells.count()],
            span_of: Vec::with_capacity(links.len()),
            seen: vec![0; links.len()],
            round: 0,
        };
        for (k, &(a, b)) in links.iter().enumerate() {
            let span = cells.span(points[a], points[b], 0);
            for c in cells.each(span) {
                grid.buckets[c].push(k);
            }
            grid.span_of.push(span);
        }
        grid
    }

    /// Link `k` now runs from `a` to `b`.
    pub(super) fn moved(&mut self, k: usize, a: Point, b: Point) {
        let (old, new) = (self.span_of[k], self.cells.span(a, b, 0));
        if old != new {
            for c in self.cells.each(old) {
                take_out(&mut self.buckets[c], k);
            }
            for c in self.cells.each(new) {
                self.buckets[c].push(k);
            }
            self.span_of[k] = new;
        }
    }

    /// Puts into `out`, once each, every link in the cells the rectangle
    /// with corners `a` and `b` touches, grown by `grow` cells: with
    /// `grow` 0 every link whose segment may cross the segment from `a` to
    /// `b`; with 1 and `a == b`, every link that may run through a box
    /// centred there.
    pub(super) fn around(&mut self, a: Point, b: Point, grow: usize, out: &mut Vec<usize>) {
        out.clear();
        self.round = self.round.wrapping_add(1);
        if self.round == 0 {
            self.seen.fill(0);
            self.round = 1;
        }
        for c in self.cells.each(self.cells.span(a, b, grow)) {
            for &k in &self.buckets[c] {
                if self.seen[k] != self.round {
                    self.seen[k] = self.round;
                    out.push(k);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layout::untangle::segments_cross;

    /// Forty points spread over 60 x 45 tiles, then moved, some far
    /// beyond that ground, and the grids told.
    fn wandering(reach: f64, links: &[(usize, usize)]) -> (Vec<Point>, BoxGrid, LinkGrid) {
        let mut points: Vec<Point> = (0..40)
            .map(|i| {
                let i = f64::from(i);
                ((i * 7.3) % 60.0, (i * 11.9) % 45.0)
            })
            .collect();
        let mut boxes = BoxGrid::new(&points, reach);
        let mut link_grid = LinkGrid::new(&boxes, &points, links);
        for (v, p) in points.iter_mut().enumerate() {
            let f = v as f64;
            *p = (
                p.0 + (f * 13.7) % 90.0 - 45.0,
                p.1 + (f * 5.1) % 200.0 - 100.0,
            );
            boxes.moved(v, *p);
        }
        points[3] = (points[5].0 + 11.5, points[5].1 - 11.5);
        boxes.moved(3, points[3]);
        for (k, &(a, b)) in links.iter().enumerate() {
            link_grid.moved(k, points[a], points[b]);
        }
        (points, boxes, link_grid)
    }

    /// Whether a point of the segment from `a` to `b` is nearer to `p`
    /// than `reach` along both axes.
    fn passes_near(a: Point, b: Point, p: Point, reach: f64) -> bool {
        (0..=40).any(|s| {
            let t = f64::from(s) / 40.0;
            let q = (a.0 + (b.0 - a.0) * t, a.1 + (b.1 - a.1) * t);
            (p.0 - q.0).abs() < reach && (p.1 - q.1).abs() < reach
        })
    }

    #[test]
    fn a_box_finds_every_box_within_reach_wherever_they_wander() {
        let reach = 6.0;
        let (points, boxes, _) = wandering(reach, &[]);
        let mut near = Vec::new();
        for (v, &p) in points.iter().enumerate() {
            boxes.near(p, &mut near);
            for (u, &q) in points.iter().enumerate() {
                if (p.0 - q.0).abs() < 2.0 * reach && (p.1 - q.1).abs() < 2.0 * reach {
                    assert!(near.contains(&u), "box {u} near box {v}");
                }
            }
            assert_eq!(near.iter().filter(|&&u| u == v).count(), 1);
        }
        // Far boxes are not all looked at.
        boxes.near(points[10], &mut near);
        assert!(near.len() < points.len() / 2, "{}", near.len());
    }

    #[test]
    fn a_link_finds_every_link_it_crosses_and_every_box_it_meets() {
        let reach = 6.0;
        let links: Vec<(usize, usize)> = (0..39).map(|i| (i, (i * 7 + 3) % 40)).collect();
        let (points, boxes, mut grid) = wandering(reach, &links);
        let (mut found, mut near) = (Vec::new(), Vec::new());
        for (k, &(a, b)) in links.iter().enumerate() {
            let (a, b) = (points[a], points[b]);
            grid.around(a, b, 0, &mut found);
            let mut once = found.clone();
            once.sort_unstable();
            once.dedup();
            assert_eq!(once.len(), found.len(), "each link once");
            for (l, &(c, d)) in links.iter().enumerate() {
                if segments_cross(a, b, points[c], points[d]) {
                    assert!(found.contains(&l), "link {l} crosses link {k}");
                }
            }
            boxes.around(a, b, &mut near);
            for (v, &p) in points.iter().enumerate() {
                if passes_near(a, b, p, reach) {
                    assert!(near.contains(&v), "box {v} near link {k}");
                }
            }
        }
        // A box finds every link that comes within its reach.
        for (v, &p) in points.iter().enumerate() {
            grid.around(p, p, 1, &mut found);
            for (k, &(a, b)) in links.iter().enumerate() {
                if passes_near(points[a], points[b], p, reach) {
                    assert!(found.contains(&k), "link {k} near box {v}");
                }
            }
        }
    }
}
