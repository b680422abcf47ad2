//! The GJK simplex in the plane (point, segment or triangle) and its
//! closest point to the origin.
//!
//! The sub-simplex search follows the Voronoi-region tests of C. Ericson,
//! *Real-Time Collision Detection* (2005), §5.1.2 and §5.1.5, specialised to
//! the query point being the origin; it replaces Johnson's sub-algorithm of
//! the original GJK paper. Every vertex keeps its two witness points, and the
//! barycentric weights of the closest point are stored so the witnesses on A
//! and B come out of the same combination.

#![allow(
    clippy::neg_cmp_op_on_partial_ord,
    reason = "negated comparisons are deliberate: NaN must take the exit branch"
)]

use nalgebra::Vector2;

use super::minkowski::SupportPoint2;

/// Up to three points of the core difference, with the barycentric weights of
/// the simplex point closest to the origin.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Simplex2 {
    points: [SupportPoint2; 3],
    weights: [f32; 3],
    len: usize,
}

impl Simplex2 {
    /// A one-point simplex.
    pub fn new(p: SupportPoint2) -> Self {
        Self { points: [p; 3], weights: [1.0, 0.0, 0.0], len: 1 }
    }

    /// The simplex's vertices.
    #[inline]
    pub fn points(&self) -> &[SupportPoint2] {
        &self.points[..self.len]
    }

    /// Adds a vertex; the simplex must have fewer than three.
    pub fn push(&mut self, p: SupportPoint2) {
        debug_assert!(self.len < 3, "a planar GJK simplex has at most three vertices");
        self.points[self.len] = p;
        self.weights[self.len] = 0.0;
        self.len += 1;
    }

    /// Whether `w` is within `tol` of a vertex: GJK's duplicate-support test.
    pub fn has_vertex_near(&self, w: &Vector2<f32>, tol: f32) -> bool {
        self.points().iter().any(|p| (p.w - w).norm_squared() <= tol * tol)
    }

    /// The point of the simplex closest to the origin, with its witnesses,
    /// from the weights stored by the last [`reduce`](Self::reduce).
    pub fn closest(&self) -> SupportPoint2 {
        let mut out = SupportPoint2 {
            w: Vector2::zeros(),
            a: nalgebra::Point2::origin(),
            b: nalgebra::Point2::origin(),
        };
        for (p, &l) in self.points().iter().zip(&self.weights) {
            out.w += p.w * l;
            out.a.coords += p.a.coords * l;
            out.b.coords += p.b.coords * l;
        }
        out
    }

    /// Keeps only the vertices of the feature closest to the origin and
    /// stores its barycentric weights. Returns `false` when the origin lies
    /// inside the triangle (the closest point is the origin itself).
    pub fn reduce(&mut self) -> bool {
        match self.len {
            1 => {
                self.weights[0] = 1.0;
                true
            }
            2 => {
                self.reduce_segment(0, 1);
                true
            }
            _ => self.reduce_triangle(),
        }
    }

    fn set(&mut self, kept: &[(usize, f32)]) {
        let old = self.points;
        for (slot, &(i, l)) in kept.iter().enumerate() {
            self.points[slot] = old[i];
            self.weights[slot] = l;
        }
        self.len = kept.len();
    }

    /// Closest point of segment `points[i]..points[j]` to the origin.
    fn reduce_segment(&mut self, i: usize, j: usize) {
        let (p, q) = (self.points[i].w, self.points[j].w);
        let e = q - p;
        // Parameter of the origin's projection on the line; a zero-length
        // segment gives NaN, which the first test sends to the vertex.
        let t = -p.dot(&e) / e.norm_squared();
        if !(t > 0.0) {
            self.set(&[(i, 1.0)]);
        } else if t >= 1.0 {
            self.set(&[(j, 1.0)]);
        } else {
            self.set(&[(i, 1.0 - t), (j, t)]);
        }
    }

    /// Ericson's ClosestPtPointTriangle with the query point at the origin.
    fn reduce_triangle(&mut self) -> bool {
        let [a, b, c] = [self.points[0].w, self.points[1].w, self.points[2].w];
        let (ab, ac) = (b - a, c - a);

        // Vertex region of a.
        let d1 = -ab.dot(&a);
        let d2 = -ac.dot(&a);
        if d1 <= 0.0 && d2 <= 0.0 {
            self.set(&[(0, 1.0)]);
            return true;
        }
        // Vertex region of b.
        let d3 = -ab.dot(&b);
        let d4 = -ac.dot(&b);
        if d3 >= 0.0 && d4 <= d3 {
            self.set(&[(1, 1.0)]);
            return true;
        }
        // Edge region of ab.
        let vc = d1 * d4 - d3 * d2;
        if vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0 {
            let t = d1 / (d1 - d3);
            self.set(&[(0, 1.0 - t), (1, t)]);
            return true;
        }
        // Vertex region of c.
        let d5 = -ab.dot(&c);
        let d6 = -ac.dot(&c);
        if d6 >= 0.0 && d5 <= d6 {
            self.set(&[(2, 1.0)]);
            return true;
        }
        // Edge region of ac.
        let vb = d5 * d2 - d1 * d6;
        if vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0 {
            let t = d2 / (d2 - d6);
            self.set(&[(0, 1.0 - t), (2, t)]);
            return true;
        }
        // Edge region of bc.
        let va = d3 * d6 - d5 * d4;
        if va <= 0.0 && d4 - d3 >= 0.0 && d5 - d6 >= 0.0 {
            let t = (d4 - d3) / ((d4 - d3) + (d5 - d6));
            self.set(&[(1, 1.0 - t), (2, t)]);
            return true;
        }
        // Inside: the weights are the normalised sub-areas. A collinear
        // triangle (zero total area) cannot contain the origin in its
        // interior; rounding can still land here, so fall back to the best
        // edge.
        let total = va + vb + vc;
        if !(total > 0.0) {
            self.reduce_degenerate_triangle();
            return true;
        }
        self.weights = [va / total, vb / total, vc / total];
        false
    }

    /// Best of the three edges of a collinear triangle.
    fn reduce_degenerate_triangle(&mut self) {
        let original = *self;
        let mut best = original;
        let mut best_dist2 = f32::INFINITY;
        for (i, j) in [(0, 1), (0, 2), (1, 2)] {
            let mut candidate = original;
            candidate.reduce_segment(i, j);
            let d2 = candidate.closest().w.norm_squared();
            if d2 < best_dist2 {
                best_dist2 = d2;
                best = candidate;
            }
        }
        *self = best;
    }
}
