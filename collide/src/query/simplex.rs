//! GJK's simplex: up to four Minkowski-difference points with their
//! witnesses, and the sub-algorithm that finds the simplex point closest to
//! the origin.
//!
//! The closest-point routines follow the Voronoi-region tests of Ericson,
//! *Real-Time Collision Detection* (2005), §5.1.5–5.1.6, with two departures:
//! the face barycentrics use the triple-product form `n · (b × c)`, which
//! loses less precision in f32 than the difference-of-products form, and a
//! degenerate (zero-area or zero-volume) simplex falls back to its
//! lower-dimensional faces instead of dividing by zero, and the arithmetic is
//! done in f64. Support points are exact f32 values, so their products are
//! exact in f64; in f32, the closest point of a simplex whose vertices are
//! ~100 m out (a large ground slab against a small box) carries an absolute
//! error of ~1e-5 m, which turns the *direction* of a sub-millimetre `v`
//! into noise. Only this sub-algorithm needs the extra precision. The simplex is reduced
//! to the smallest sub-simplex that contains the closest point, as in
//! Gilbert, Johnson and Keerthi (1988).

use nalgebra::{Point3, Vector3};

type V64 = Vector3<f64>;

use crate::query::minkowski::SupportPoint;

/// Relative size below which a triangle's doubled area (`|n|²`, compared with
/// the squared edge lengths) or a tetrahedron's volume counts as zero. f32
/// carries about 7 significant digits; a shape with a relative thickness
/// below ~1e-6 cannot be resolved, so 1e-10 on squared quantities is safely
/// below anything meaningful and above rounding noise.
const DEGENERATE_REL_SQ: f64 = 1e-10;

/// Up to four Minkowski-difference points, with the barycentric coordinates of
/// the point of their convex hull closest to the origin.
#[derive(Clone, Copy, Debug)]
pub struct Simplex {
    points: [SupportPoint; 4],
    bary: [f32; 4],
    len: usize,
}

/// What reducing the simplex found.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Reduction {
    /// The tetrahedron encloses the origin.
    Enclosing,
    /// The closest point of the simplex to the origin.
    Closest(Vector3<f32>),
}

impl Default for Simplex {
    fn default() -> Self {
        Self::new()
    }
}

impl Simplex {
    /// An empty simplex.
    pub const fn new() -> Self {
        Self { points: [SupportPoint::ZERO; 4], bary: [0.0; 4], len: 0 }
    }

    /// The simplex's points, oldest first, in A's frame.
    #[inline]
    pub fn points(&self) -> &[SupportPoint] {
        &self.points[..self.len]
    }

    /// Barycentric coordinates of the closest point, one per point.
    #[inline]
    pub fn barycentric(&self) -> &[f32] {
        &self.bary[..self.len]
    }

    /// Number of points, 0 to 4.
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the simplex has no points.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Whether `w` is (bitwise) one of the simplex's points: GJK's
    /// duplicate-support test.
    #[inline]
    pub(crate) fn contains(&self, w: &Vector3<f32>) -> bool {
        self.points().iter().any(|p| p.w == *w)
    }

    /// Largest squared norm of the points: the size scale of the simplex.
    #[inline]
    pub(crate) fn max_norm_squared(&self) -> f32 {
        self.points().iter().fold(0.0, |m, p| m.max(p.w.norm_squared()))
    }

    #[inline]
    pub(crate) fn push(&mut self, p: SupportPoint) {
        debug_assert!(self.len < 4, "GJK pushed onto a full simplex");
        self.points[self.len] = p;
        self.len += 1;
    }

    /// The closest point `Σ λᵢ wᵢ` to the origin.
    pub fn closest_point(&self) -> Vector3<f32> {
        self.points()
            .iter()
            .zip(self.barycentric())
            .fold(Vector3::zeros(), |v, (p, l)| v + p.w * *l)
    }

    /// Witness points `(Σ λᵢ aᵢ, Σ λᵢ bᵢ)` of the closest point, in A's frame.
    pub fn witnesses(&self) -> (Point3<f32>, Point3<f32>) {
        let mut a = Vector3::zeros();
        let mut b = Vector3::zeros();
        for (p, l) in self.points().iter().zip(self.barycentric()) {
            a += p.a.coords * *l;
            b += p.b.coords * *l;
        }
        (a.into(), b.into())
    }

    /// Keeps only the points listed in `keep` with the given barycentrics.
    fn retain<const N: usize>(&mut self, keep: [usize; N], bary: [f64; N]) -> V64 {
        let old = self.points;
        let mut v = V64::zeros();
        for (slot, (&i, &l)) in keep.iter().zip(bary.iter()).enumerate() {
            self.points[slot] = old[i];
            self.bary[slot] = l as f32;
            v += w64(&old[i]) * l;
        }
        self.len = N;
        v
    }

    /// Reduces the simplex to the smallest sub-simplex containing its point
    /// closest to the origin, and returns that point (or that the tetrahedron
    /// encloses the origin).
    pub(crate) fn reduce(&mut self) -> Reduction {
        match self.len {
            1 => {
                self.bary[0] = 1.0;
                Reduction::Closest(self.points[0].w)
            }
            2 => Reduction::Closest(self.reduce_segment(0, 1).cast()),
            3 => Reduction::Closest(self.reduce_triangle(0, 1, 2).cast()),
            4 => self.reduce_tetrahedron(),
            _ => {
                debug_assert!(false, "reducing an empty simplex");
                Reduction::Closest(Vector3::zeros())
            }
        }
    }

    /// Closest point of segment `ij` (Ericson §5.1.2 with P at the origin).
    fn reduce_segment(&mut self, i: usize, j: usize) -> V64 {
        let (a, b) = (w64(&self.points[i]), w64(&self.points[j]));
        let ab = b - a;
        let t = -a.dot(&ab);
        let len_sq = ab.norm_squared();
        // `!(t > 0)` also catches NaN, which then keeps a single point.
        if !(t > 0.0) {
            self.retain([i], [1.0])
        } else if t >= len_sq {
            self.retain([j], [1.0])
        } else {
            let s = t / len_sq;
            self.retain([i, j], [1.0 - s, s])
        }
    }

    /// Closest point of triangle `ijk` (Ericson §5.1.5 with P at the origin).
    fn reduce_triangle(&mut self, i: usize, j: usize, k: usize) -> V64 {
        let (a, b, c) = (w64(&self.points[i]), w64(&self.points[j]), w64(&self.points[k]));
        let ab = b - a;
        let ac = c - a;
        let n = ab.cross(&ac);
        let n_sq = n.norm_squared();
        let edge_sq = ab.norm_squared().max(ac.norm_squared());
        if !(n_sq > DEGENERATE_REL_SQ * edge_sq * edge_sq) {
            return self.reduce_degenerate_triangle(i, j, k);
        }

        // Vertex region A.
        let d1 = -ab.dot(&a);
        let d2 = -ac.dot(&a);
        if d1 <= 0.0 && d2 <= 0.0 {
            return self.retain([i], [1.0]);
        }
        // Vertex region B.
        let d3 = -ab.dot(&b);
        let d4 = -ac.dot(&b);
        if d3 >= 0.0 && d4 <= d3 {
            return self.retain([j], [1.0]);
        }
        // Vertex region C.
        let d5 = -ab.dot(&c);
        let d6 = -ac.dot(&c);
        if d6 >= 0.0 && d5 <= d6 {
            return self.retain([k], [1.0]);
        }
        // Signed areas of the sub-triangles opposite each vertex, scaled by
        // |n|: their sum is |n|², and a negative one puts the origin's
        // projection outside the opposite edge.
        let va = n.dot(&b.cross(&c));
        let vb = n.dot(&c.cross(&a));
        let vc = n.dot(&a.cross(&b));
        if vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0 {
            let s = d1 / (d1 - d3);
            return self.retain([i, j], [1.0 - s, s]);
        }
        if vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0 {
            let s = d2 / (d2 - d6);
            return self.retain([i, k], [1.0 - s, s]);
        }
        if va <= 0.0 && d4 >= d3 && d5 >= d6 {
            let s = (d4 - d3) / ((d4 - d3) + (d5 - d6));
            return self.retain([j, k], [1.0 - s, s]);
        }
        let sum = va + vb + vc;
        self.retain([i, j, k], [va / sum, vb / sum, vc / sum])
    }

    /// A zero-area triangle: the closest point lies on its longest edge.
    fn reduce_degenerate_triangle(&mut self, i: usize, j: usize, k: usize) -> V64 {
        let mut best = *self;
        let mut best_v = best.reduce_segment(i, j);
        for (p, q) in [(j, k), (i, k)] {
            let mut s = *self;
            let v = s.reduce_segment(p, q);
            if v.norm_squared() < best_v.norm_squared() {
                best = s;
                best_v = v;
            }
        }
        *self = best;
        best_v
    }

    /// Closest point of the tetrahedron (Ericson §5.1.6): the best of the
    /// faces whose plane separates the origin from the opposite vertex, or
    /// [`Reduction::Enclosing`] when no face does.
    fn reduce_tetrahedron(&mut self) -> Reduction {
        const FACES: [([usize; 3], usize); 4] =
            [([0, 1, 2], 3), ([0, 3, 1], 2), ([0, 2, 3], 1), ([1, 3, 2], 0)];
        let scale_sq = f64::from(self.max_norm_squared());
        let mut best: Option<(Simplex, V64)> = None;
        for ([i, j, k], l) in FACES {
            let p = self.points.map(|p| w64(&p));
            let n = (p[j] - p[i]).cross(&(p[k] - p[i]));
            let side_origin = -n.dot(&p[i]);
            let side_opposite = n.dot(&(p[l] - p[i]));
            // A flat tetrahedron has no inside: every face is a candidate.
            let flat =
                !(side_opposite.abs() > DEGENERATE_REL_SQ.sqrt() * scale_sq * scale_sq.sqrt());
            if flat || side_origin * side_opposite < 0.0 {
                let mut s = *self;
                let v = s.reduce_triangle(i, j, k);
                if best.is_none_or(|(_, bv)| v.norm_squared() < bv.norm_squared()) {
                    best = Some((s, v));
                }
            }
        }
        match best {
            Some((s, v)) => {
                *self = s;
                Reduction::Closest(v.cast())
            }
            None => Reduction::Enclosing,
        }
    }
}

/// A support point's `w` in f64 (exact: every f32 is an f64).
#[inline]
fn w64(p: &SupportPoint) -> V64 {
    p.w.cast()
}
