//! The tiles a corridor of some width covers along its centreline.
//!
//! A straight stretch covers the cross-section of `width` tiles at each
//! centreline tile; a turn covers the whole `width x width` square, so the
//! band stays `width` wide around corners.

use crate::geom::{Dir, Pos};

/// Offsets of a band's tiles from its centreline, across it.
fn offsets(width: i32) -> std::ops::RangeInclusive<i32> {
    -(width - 1) / 2..=width / 2
}

/// The cross-section at `p` of a band moving in `dir`.
pub fn cross(p: Pos, dir: Dir, width: i32) -> impl Iterator<Item = Pos> {
    offsets(width).map(move |k| match dir {
        Dir::North | Dir::South => Pos::new(p.x + k, p.y),
        Dir::East | Dir::West => Pos::new(p.x, p.y + k),
    })
}

/// The square covered where a band turns at `p`.
pub fn square(p: Pos, width: i32) -> impl Iterator<Item = Pos> {
    offsets(width).flat_map(move |dy| offsets(width).map(move |dx| Pos::new(p.x + dx, p.y + dy)))
}

/// The direction of the step from `a` to the neighbouring tile `b`.
pub fn step_dir(a: Pos, b: Pos) -> Option<Dir> {
    Dir::ALL.into_iter().find(|&d| a.step(d) == b)
}

/// The centreline position of a band of `width` centred in `lo..=hi`.
pub fn middle(lo: i32, hi: i32, width: i32) -> i32 {
    lo + (hi - lo + 1 - width).max(0) / 2 + (width - 1) / 2
}

/// Centreline positions where a band of `width` fits within `lo..=hi`.
pub fn fits(lo: i32, hi: i32, width: i32) -> Option<(i32, i32)> {
    let (a, b) = (lo + (width - 1) / 2, hi - width / 2);
    (a <= b).then_some((a, b))
}

/// The tiles from `a` to `b`, which share a row or a column.
pub fn line(a: Pos, b: Pos) -> Vec<Pos> {
    let (dx, dy) = ((b.x - a.x).signum(), (b.y - a.y).signum());
    let n = (b.x - a.x).abs().max((b.y - a.y).abs());
    (0..=n)
        .map(|k| Pos::new(a.x + k * dx, a.y + k * dy))
        .collect()
}

/// Tiles covered around the centreline tile `path[i]`: the cross-section in
/// its direction of travel, or the square where the path turns.
pub fn piece(path: &[Pos], i: usize, width: i32) -> Vec<Pos> {
    let before = i.checked_sub(1).and_then(|j| step_dir(path[j], path[i]));
    let after = path.get(i + 1).and_then(|&n| step_dir(path[i], n));
    match (before, after) {
        (Some(a), Some(b)) if a != b => square(path[i], width).collect(),
        (Some(d), _) | (None, Some(d)) => cross(path[i], d, width).collect(),
        (None, None) => square(path[i], width).collect(),
    }
}

/// Every tile covered by a band of `width` along `path`, sorted, once each.
pub fn band(path: &[Pos], width: i32) -> Vec<Pos> {
    let mut tiles: Vec<Pos> = (0..path.len())
        .flat_map(|i| piece(path, i, width))
        .collect();
    tiles.sort_unstable();
    tiles.dedup();
    tiles
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn widths_and_fits() {
        assert_eq!(cross(Pos::new(5, 5), Dir::North, 3).count(), 3);
        assert!(cross(Pos::new(5, 5), Dir::East, 2).all(|p| p.x == 5));
        assert_eq!(fits(2, 4, 3), Some((3, 3)));
        assert_eq!(fits(2, 4, 2), Some((2, 3)));
        assert_eq!(fits(2, 3, 3), None);
        assert_eq!(middle(2, 6, 1), 4);
        assert_eq!(middle(2, 7, 3), 4);
        assert_eq!(middle(2, 7, 2), 4);
    }

    #[test]
    fn an_l_of_width_three_is_three_wide_everywhere() {
        // East from (0, 0) to (4, 0), then south to (4, 4).
        let mut path: Vec<Pos> = (0..=4).map(|x| Pos::new(x, 0)).collect();
        path.extend((1..=4).map(|y| Pos::new(4, y)));
        let tiles = band(&path, 3);
        // Rows -1..=1 of columns 0..=5 (the arm and the corner square), then
        // columns 3..=5 of rows 2..=4.
        assert_eq!(tiles.len(), 18 + 9);
        assert!(tiles.contains(&Pos::new(5, -1)) && tiles.contains(&Pos::new(3, 4)));
        assert!(!tiles.contains(&Pos::new(2, 2)));
    }
}
