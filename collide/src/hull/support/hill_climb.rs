//! Hill climbing over the hull's vertex graph.
//!
//! On a convex polytope every vertex that is not a support point along `d`
//! has a neighbour with a strictly larger `v · d` (the same fact the simplex
//! method of linear programming rests on), so walking to a strictly better
//! neighbour until none exists ends at a support point. Requiring *strict*
//! improvement makes the walk unable to cycle, even on coplanar faces where
//! many vertices tie; the visit count is still capped, in case rounding on a
//! nearly-flat hull makes the graph look non-convex. This is the approach of
//! Cameron (1997) and of PhysX's hill-climbing hulls, written here from the
//! description.

use nalgebra::{Point3, Vector3};

/// The hull's vertex adjacency in compressed-sparse-row form:
/// `neighbors[start[v]..start[v + 1]]` are the vertices sharing an edge with `v`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Adjacency<'h> {
    pub(crate) start: &'h [u32],
    pub(crate) neighbors: &'h [u32],
}

/// Climbs from vertex `from` to a support vertex along `dir`. Returns its index.
#[inline]
pub(crate) fn climb(
    vertices: &[Point3<f32>],
    adjacency: Adjacency<'_>,
    dir: &Vector3<f32>,
    from: usize,
) -> usize {
    // Each strict improvement visits a new vertex, so the vertex count bounds
    // the walk; the cap only matters if rounding breaks convexity.
    let max_steps = vertices.len();
    let mut current = from.min(vertices.len() - 1);
    let mut current_dot = vertices[current].coords.dot(dir);
    for _ in 0..max_steps {
        let s = adjacency.start[current] as usize;
        let e = adjacency.start[current + 1] as usize;
        let mut next = current;
        let mut next_dot = current_dot;
        for &n in &adjacency.neighbors[s..e] {
            let d = vertices[n as usize].coords.dot(dir);
            if d > next_dot {
                next_dot = d;
                next = n as usize;
            }
        }
        // `!(>)` so that a NaN direction stops the walk at once.
        if !(next_dot > current_dot) {
            break;
        }
        current = next;
        current_dot = next_dot;
    }
    current
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hull::support::brute_force::{SoaVertices, support_scalar};
    use crate::hull::support::cube_map::CubeMap;

    /// A cube's corners (bit i of the index is the sign of axis i) and its
    /// edges, written out by hand: corners differing in one bit are adjacent.
    fn cube() -> (Vec<Point3<f32>>, Vec<u32>, Vec<u32>) {
        let v: Vec<_> = (0..8)
            .map(|i| {
                let s = |b: u32| if i >> b & 1 == 1 { 1.0 } else { -1.0 };
                Point3::new(s(0), s(1), s(2))
            })
            .collect();
        let mut start = vec![0];
        let mut nb = Vec::new();
        for i in 0..8u32 {
            nb.extend([i ^ 1, i ^ 2, i ^ 4]);
            start.push(nb.len() as u32);
        }
        (v, start, nb)
    }

    #[test]
    fn every_strategy_finds_a_cube_corner_support() {
        let (v, start, nb) = cube();
        let adj = Adjacency { start: &start, neighbors: &nb };
        let soa = SoaVertices::new(&v);
        let map = CubeMap::new(&v, adj);
        for k in 0..200 {
            let t = k as f32 * 0.37;
            let d = Vector3::new(t.sin(), (1.3 * t).cos(), (0.7 * t).sin() - 0.2);
            let best = v[support_scalar(&v, &d)].coords.dot(&d);
            for got in [soa.support(&d), climb(&v, adj, &d, 0), climb(&v, adj, &d, map.seed(&d))] {
                assert!((v[got].coords.dot(&d) - best).abs() <= 1e-6, "direction {d:?}");
            }
        }
    }

    #[test]
    fn climbing_a_flat_face_does_not_cycle() {
        let (v, start, nb) = cube();
        let adj = Adjacency { start: &start, neighbors: &nb };
        // Along +Y four corners tie; the climb must stop on one of them.
        let got = climb(&v, adj, &Vector3::y(), 0);
        assert_eq!(v[got].y, 1.0);
    }
}
