//! Reduction of a clipped polygon's contact candidates to at most
//! [`MAX_MANIFOLD_POINTS`], as Box2D and Jolt reduce clipped polygons: keep
//! the deepest point, the point farthest from it, then the points making
//! the largest triangle on each side of the line through the first two.

use nalgebra::{Point3, Vector3};

use super::contact_manifold::{ContactManifold, MAX_MANIFOLD_POINTS, ManifoldPoint};

/// A candidate contact: world midpoint, separation, feature id, and the
/// points on A's and B's surfaces when they are not the midpoint less and
/// plus half the separation along the normal (`None`).
pub(crate) type Candidate = (Point3<f32>, f32, u32, Option<[Point3<f32>; 2]>);

/// Writes into `out` (cleared first, keeping `normal`) at most four of
/// `candidates` that keep the deepest point and span the largest area.
pub(crate) fn reduce(candidates: &[Candidate], normal: &Vector3<f32>, out: &mut ContactManifold) {
    *out = ContactManifold::empty(*normal);
    let push = |out: &mut ContactManifold, &(p, s, id, ends): &Candidate| {
        let mut point = ManifoldPoint::from_midpoint(p, s, id, normal);
        if let Some([point_a, point_b]) = ends {
            (point.point_a, point.point_b) = (point_a, point_b);
        }
        out.push(point);
    };
    if candidates.len() <= MAX_MANIFOLD_POINTS {
        for c in candidates {
            push(out, c);
        }
        return;
    }
    let argbest = |score: &dyn Fn(&Candidate) -> f32| {
        let mut best = 0;
        let mut best_score = f32::NEG_INFINITY;
        for (i, c) in candidates.iter().enumerate() {
            let s = score(c);
            if s > best_score {
                best_score = s;
                best = i;
            }
        }
        best
    };
    let i0 = argbest(&|c| -c.1);
    let p0 = candidates[i0].0;
    let i1 = argbest(&|c| (c.0 - p0).norm_squared());
    let p1 = candidates[i1].0;
    let area = |c: &Candidate| (p1 - p0).cross(&(c.0 - p0)).dot(normal);
    let i2 = argbest(&|c| area(c));
    let i3 = argbest(&|c| -area(c));
    for i in [i0, i1, i2, i3] {
        if !out.points().iter().any(|p| p.id == candidates[i].2) {
            push(out, &candidates[i]);
        }
    }
}
