//! Stage 4b: the minimum spanning tree of the triangulation (petgraph), plus
//! a seeded fraction of the other triangulation edges, for a few loops. Only
//! edges no longer than the tree's longest are added back: the long, thin
//! triangles along the hull would otherwise give corridors around the whole
//! map.

use petgraph::algo::min_spanning_tree;
use petgraph::data::Element;
use petgraph::graph::UnGraph;

use crate::rng::Rng;

/// The edges that become corridors, as index pairs `(a, b)`, `a < b`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Links {
    /// The minimum spanning tree (a forest only if the input graph is not
    /// connected), sorted.
    pub tree: Vec<(usize, usize)>,
    /// Triangulation edges added back, sorted.
    pub extra: Vec<(usize, usize)>,
}

/// Squared length of the edge `(a, b)`.
fn length2(points: &[(i64, i64)], (a, b): (usize, usize)) -> i64 {
    let (dx, dy) = (points[a].0 - points[b].0, points[a].1 - points[b].1);
    dx * dx + dy * dy
}

/// The minimum spanning tree of `edges` over `points` (Euclidean length,
/// ties broken by the edge's indices), and `round(fraction x candidates)`
/// chosen at random from the candidates: the other edges no longer than the
/// tree's longest edge.
pub fn spanning(
    points: &[(i64, i64)],
    edges: &[(usize, usize)],
    fraction: f64,
    rng: &mut Rng,
) -> Links {
    let mut g: UnGraph<(), (i64, usize, usize)> = UnGraph::with_capacity(points.len(), edges.len());
    let nodes: Vec<_> = points.iter().map(|_| g.add_node(())).collect();
    for &(a, b) in edges {
        g.add_edge(nodes[a], nodes[b], (length2(points, (a, b)), a, b));
    }
    let mut tree: Vec<(usize, usize)> = min_spanning_tree(&g)
        .filter_map(|e| match e {
            Element::Edge { weight, .. } => Some((weight.1, weight.2)),
            Element::Node { .. } => None,
        })
        .collect();
    tree.sort_unstable();
    let longest = tree.iter().map(|&e| length2(points, e)).max().unwrap_or(0);
    let mut rest: Vec<(usize, usize)> = edges
        .iter()
        .copied()
        .filter(|&e| tree.binary_search(&e).is_err() && length2(points, e) <= longest)
        .collect();
    rest.sort_unstable();
    let k = ((fraction.clamp(0.0, 1.0) * rest.len() as f64).round() as usize).min(rest.len());
    rng.shuffle(&mut rest);
    let mut extra = rest[..k].to_vec();
    extra.sort_unstable();
    Links { tree, extra }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tree_and_short_extra_edges_of_a_grid() {
        // A 3 x 2 grid, 10 apart: 7 sides and 2 diagonals.
        let pts = [(0, 0), (10, 0), (20, 0), (0, 10), (10, 10), (20, 10)];
        let edges = crate::scatter::triangulate::delaunay(&pts);
        assert_eq!(edges.len(), 9);
        let none = spanning(&pts, &edges, 0.0, &mut Rng::new(1));
        assert_eq!(none.tree.len(), 5);
        assert!(none.tree.iter().all(|&e| length2(&pts, e) == 100));
        assert!(none.extra.is_empty());
        // The two sides left are candidates, the diagonals are too long.
        let all = spanning(&pts, &edges, 1.0, &mut Rng::new(1));
        assert_eq!(all.tree, none.tree);
        assert_eq!(all.extra.len(), 2);
        assert!(all.extra.iter().all(|&e| length2(&pts, e) == 100));
        let half = spanning(&pts, &edges, 0.5, &mut Rng::new(1));
        assert_eq!(half.extra.len(), 1);
        assert!(all.extra.contains(&half.extra[0]));
    }

    #[test]
    fn degenerate_inputs() {
        assert_eq!(spanning(&[], &[], 0.5, &mut Rng::new(1)), Links::default());
        assert_eq!(
            spanning(&[(0, 0)], &[], 0.5, &mut Rng::new(1)),
            Links::default()
        );
        let two = spanning(&[(0, 0), (4, 0)], &[(0, 1)], 1.0, &mut Rng::new(1));
        assert_eq!(two.tree, vec![(0, 1)]);
        assert!(two.extra.is_empty());
    }
}
