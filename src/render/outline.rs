//! The outline of a room: the corners of the boundary of its tiles, for
//! exports that draw rooms as polygons.

use std::collections::{BTreeMap, BTreeSet};

/// The corners (in tile units, a tile spanning `x..x+1`, `y..y+1`) of the
/// outer boundary of `cells`, clockwise on a y-down grid, starting at the
/// top-left corner; no two consecutive edges in line. Empty for no cells.
pub fn outline(cells: &[[i32; 2]]) -> Vec<(i32, i32)> {
    let set: BTreeSet<(i32, i32)> = cells.iter().map(|&[x, y]| (x, y)).collect();
    // Each boundary edge, from its start corner, the region on its right.
    let mut edges: BTreeMap<(i32, i32), Vec<(i32, i32)>> = BTreeMap::new();
    for &(x, y) in &set {
        let mut edge = |a: (i32, i32), b: (i32, i32)| edges.entry(a).or_default().push(b);
        if !set.contains(&(x, y - 1)) {
            edge((x, y), (x + 1, y));
        }
        if !set.contains(&(x + 1, y)) {
            edge((x + 1, y), (x + 1, y + 1));
        }
        if !set.contains(&(x, y + 1)) {
            edge((x + 1, y + 1), (x, y + 1));
        }
        if !set.contains(&(x - 1, y)) {
            edge((x, y + 1), (x, y));
        }
    }
    // The top-left corner of the topmost, leftmost tile is on the outer
    // boundary.
    let Some(&(sx, sy)) = set.iter().min_by_key(|&&(x, y)| (y, x)) else {
        return Vec::new();
    };
    let start = (sx, sy);
    let mut path = vec![start];
    let mut at = start;
    let mut heading = (1, 0);
    // Where two tiles touch only at a corner, keep to the tile being walked
    // around: turn right first, then straight on.
    while let Some(next) = edges.get_mut(&at).and_then(|out| {
        out.sort_by_key(|&b| turn_rank(heading, (b.0 - at.0, b.1 - at.1)));
        (!out.is_empty()).then(|| out.remove(0))
    }) {
        heading = (next.0 - at.0, next.1 - at.1);
        at = next;
        if at == start {
            break;
        }
        path.push(at);
    }
    drop_collinear(path)
}

/// 0 for a right turn from `heading` to `step` (y down), 1 straight on, 2
/// a left turn.
fn turn_rank(heading: (i32, i32), step: (i32, i32)) -> u8 {
    let cross = heading.0 * step.1 - heading.1 * step.0;
    match cross.signum() {
        1 => 0,
        0 => 1,
        _ => 2,
    }
}

/// The corners of a closed path: points in line with both neighbours go.
fn drop_collinear(path: Vec<(i32, i32)>) -> Vec<(i32, i32)> {
    let n = path.len();
    (0..n)
        .filter(|&i| {
            let (p, c, q) = (path[(i + n - 1) % n], path[i], path[(i + 1) % n]);
            (c.0 - p.0) * (q.1 - c.1) != (c.1 - p.1) * (q.0 - c.0)
        })
        .map(|i| path[i])
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cells(art: &str) -> Vec<[i32; 2]> {
        art.lines()
            .enumerate()
            .flat_map(|(y, row)| {
                row.chars()
                    .enumerate()
                    .filter(|&(_, c)| c == '#')
                    .map(move |(x, _)| [x as i32, y as i32])
            })
            .collect()
    }

    #[test]
    fn a_rectangle_has_its_four_corners() {
        assert_eq!(
            outline(&cells("###\n###")),
            [(0, 0), (3, 0), (3, 2), (0, 2)]
        );
    }

    #[test]
    fn an_l_has_six_corners_clockwise() {
        assert_eq!(
            outline(&cells("#..\n#..\n###")),
            [(0, 0), (1, 0), (1, 2), (3, 2), (3, 3), (0, 3)]
        );
    }

    #[test]
    fn a_ring_gives_its_outer_boundary_and_a_plus_its_twelve_corners() {
        assert_eq!(outline(&cells("###\n#.#\n###")).len(), 4);
        assert_eq!(outline(&cells(".#.\n###\n.#.")).len(), 12);
        assert!(outline(&[]).is_empty());
    }

    #[test]
    fn at_a_corner_two_tiles_share_the_walk_keeps_to_the_first() {
        // A room's tiles are joined side by side; tiles meeting only at a
        // corner are not one outline, and the walk does not cross over.
        assert_eq!(outline(&cells("#.\n.#")), [(0, 0), (1, 0), (1, 1), (0, 1)]);
    }
}
