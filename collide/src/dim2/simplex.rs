//! The GJK simplex in the plane (point, segment or triangle) and its
//! closest point to the origin.
//!
//! The sub-simplex search replaces Johnson's sub-algorithm of the original
//! GJK paper with direct geometric tests, in the spirit of C. Ericson,
//! *Real-Time Collision Detection* (2005), §5.1.2 and §5.1.5: a segment is
//! clamped by the origin's projection parameter; a triangle first tests
//! whether it contains the origin by orientation signs, and otherwise keeps
//! its closest edge. Departure: the point on an edge is computed as the
//! projection on the edge's normal rather than `p + t (q - p)`, which loses
//! all precision on long edges passing near the origin. Every vertex keeps
//! its two witness points, and the barycentric weights of the closest point
//! are stored so the witnesses on A and B come out of the same combination.

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

    /// A simplex with no vertex yet (the shape cast's start).
    pub fn empty() -> Self {
        let origin = SupportPoint2 {
            w: Vector2::zeros(),
            a: nalgebra::Point2::origin(),
            b: nalgebra::Point2::origin(),
        };
        Self { points: [origin; 3], weights: [0.0; 3], len: 0 }
    }

    /// Whether a vertex came from the same pair of witnesses as `p`: the
    /// shape cast's duplicate-support test, which survives [`rebase`](Self::rebase).
    pub fn contains_witnesses(&self, p: &SupportPoint2) -> bool {
        self.points().iter().any(|q| q.a == p.a && q.b == p.b)
    }

    /// Re-expresses every vertex relative to the query point `x`
    /// (`w = a − b − x`), exactly from its witnesses, so no shift
    /// accumulates over the shape cast's jumps.
    pub fn rebase(&mut self, x: &Vector2<f32>) {
        for p in &mut self.points[..self.len] {
            p.w = p.a - p.b - x;
        }
    }

    /// Keeps the edge of a triangle closest to the origin (and its weights),
    /// whether or not the triangle contains the origin: the shape cast's
    /// answer when the query point ends on the boundary of the difference.
    pub fn keep_nearest_edge(&mut self) {
        debug_assert!(self.len == 3, "only a triangle has edges to choose from");
        if self.len == 3 {
            self.keep_best_edge();
        }
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
        if self.len == 2 {
            // On an edge, `p + t (q - p)` cancels catastrophically when the
            // edge is long and passes near the origin: its absolute error is
            // about eps * |p|, which tilts v enough that the next support
            // point lands on the wrong side. The edge's normal is exact to
            // f32 precision, so project the origin onto it instead:
            // v = n (n·p) / |n|² with n = perp(q - p).
            let (p, q) = (self.points[0].w, self.points[1].w);
            let e = q - p;
            let ee = e.norm_squared();
            if ee > 0.0 {
                out.w = Vector2::new(-e.y, e.x) * (e.perp(&p) / ee);
            }
        }
        out
    }

    /// Keeps only the vertices of the feature closest to the origin and
    /// stores its barycentric weights. Returns `false` when the origin lies
    /// inside the triangle (the closest point is the origin itself).
    pub fn reduce(&mut self) -> bool {
        match self.len {
            0 => true,
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

    /// Triangle case. Containment comes first, from the signs of the three
    /// determinants `cross(a, b)`, `cross(b, c)`, `cross(c, a)` (twice the
    /// signed areas of the triangles the origin makes with each edge): each
    /// is one product difference of input coordinates, exact to about
    /// `eps * |a| * |b|`. Ericson's region tests multiply differences of dot
    /// products instead, and misjudge the thin triangles GJK builds when
    /// nearly parallel edges touch. Outside, the closest point lies on the
    /// boundary: the best of the three edges.
    fn reduce_triangle(&mut self) -> bool {
        let [a, b, c] = [self.points[0].w, self.points[1].w, self.points[2].w];
        let (c_ab, c_bc, c_ca) = (a.perp(&b), b.perp(&c), c.perp(&a));
        let total = c_ab + c_bc + c_ca;
        let same_sign = (c_ab >= 0.0 && c_bc >= 0.0 && c_ca >= 0.0)
            || (c_ab <= 0.0 && c_bc <= 0.0 && c_ca <= 0.0);
        if same_sign && total != 0.0 {
            // Barycentric weights: each vertex's weight is the area opposite it.
            self.weights = [c_bc / total, c_ca / total, c_ab / total];
            return false;
        }
        self.keep_best_edge();
        true
    }

    /// Of a triangle's three edges, keeps the one closest to the origin.
    fn keep_best_edge(&mut self) {
        let original = *self;
        let mut best = original;
        let mut best_dist2 = f32::INFINITY;
        for (i, j) in [(0, 1), (1, 2), (0, 2)] {
            let mut candidate = original;
            candidate.reduce_segment(i, j);
            let d2 = candidate.closest().w.norm_squared();
            // `<` keeps the first of equal edges; NaN never wins.
            if d2 < best_dist2 {
                best_dist2 = d2;
                best = candidate;
            }
        }
        *self = best;
    }
}
