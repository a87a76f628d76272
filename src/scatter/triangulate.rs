//! Stage 4a: the Delaunay triangulation of the main rooms' centres (spade,
//! exact predicates: collinear and cocircular centres are handled).

use spade::{DelaunayTriangulation, Point2, Triangulation};

/// Edges `(a, b)`, `a < b`, sorted, of the Delaunay triangulation of
/// `points` (indices into `points`). Collinear points give the path along
/// their line; one point gives no edge. Points must be distinct (room
/// centres are, once rooms do not overlap); a repeated point is skipped.
pub fn delaunay(points: &[(i64, i64)]) -> Vec<(usize, usize)> {
    let mut t: DelaunayTriangulation<Point2<f64>> = DelaunayTriangulation::new();
    // Vertex index -> point index.
    let mut owner: Vec<Option<usize>> = Vec::new();
    for (i, &(x, y)) in points.iter().enumerate() {
        // Whole numbers far below 2^53: exact as f64.
        let Ok(v) = t.insert(Point2::new(x as f64, y as f64)) else {
            continue;
        };
        if owner.len() <= v.index() {
            owner.resize(v.index() + 1, None);
        }
        owner[v.index()].get_or_insert(i);
    }
    let mut edges: Vec<(usize, usize)> = t
        .undirected_edges()
        .filter_map(|e| {
            let [a, b] = e.vertices();
            let (a, b) = (owner[a.fix().index()]?, owner[b.fix().index()]?);
            (a != b).then_some((a.min(b), a.max(b)))
        })
        .collect();
    edges.sort_unstable();
    edges.dedup();
    edges
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn degenerate_inputs() {
        assert!(delaunay(&[]).is_empty());
        assert!(delaunay(&[(3, 4)]).is_empty());
        assert_eq!(delaunay(&[(0, 0), (10, 4)]), vec![(0, 1)]);
        // Collinear, out of order: the path along the line.
        assert_eq!(
            delaunay(&[(0, 0), (20, 20), (10, 10), (30, 30)]),
            vec![(0, 2), (1, 2), (1, 3)]
        );
        // A repeated point is skipped.
        assert_eq!(delaunay(&[(0, 0), (0, 0), (5, 0)]), vec![(0, 2)]);
    }

    #[test]
    fn a_square_with_its_centre_has_eight_edges() {
        let e = delaunay(&[(0, 0), (10, 0), (10, 10), (0, 10), (5, 5)]);
        assert_eq!(e.len(), 8);
        assert!((0..4).all(|i| e.contains(&(i, 4))));
    }

    #[test]
    fn planar_edge_count() {
        // A triangulation of n points has at most 3n - 6 edges.
        let pts: Vec<(i64, i64)> = (0..50).map(|i| ((i * 37) % 101, (i * 53) % 97)).collect();
        let e = delaunay(&pts);
        assert!(e.len() >= pts.len() - 1 && e.len() <= 3 * pts.len() - 6);
    }
}
