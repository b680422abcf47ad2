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
//!
//! The reduction is decided before it is applied: `Simplex::reduction`
//! returns which points stay, with their barycentrics, and `apply` then
//! gathers them. The tetrahedron's candidate faces are compared without
//! copying the simplex, and GJK keeps the simplex it had before the newest
//! point (for its stall exit) by popping that point rather than by copying
//! the whole simplex every iteration.

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
    /// The direction (A's frame) each point was found along, zero where
    /// unknown: what a [`GjkCache`](crate::GjkCache) keeps to find the same
    /// support points at the pair's next poses.
    dirs: [Vector3<f32>; 4],
    bary: [f32; 4],
    len: usize,
}

/// What reducing the simplex found.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Reduction {
    /// The tetrahedron encloses the origin.
    Enclosing,
    /// The sub-simplex holding the point closest to the origin.
    Closest(SubSimplex),
}

/// A sub-simplex chosen by the reduction, not yet applied: which points it
/// keeps (indices into the simplex, in their new order), their barycentric
/// coordinates, and the closest point `Σ λᵢ wᵢ` they give. Deciding first and
/// applying once means no candidate ever copies the whole simplex, and the
/// simplex before the reduction stays at hand for GJK's stall exit.
#[derive(Clone, Copy, Debug)]
pub(crate) struct SubSimplex {
    keep: [usize; 3],
    bary: [f64; 3],
    len: usize,
    closest: V64,
}

impl SubSimplex {
    /// The sub-simplex of the points `at` (the simplex's points `keep`)
    /// with barycentrics `bary`.
    #[inline(always)]
    fn new<const N: usize>(keep: [usize; N], at: [V64; N], bary: [f64; N]) -> Self {
        let mut sub = Self { keep: [0; 3], bary: [0.0; 3], len: N, closest: V64::zeros() };
        for (slot, ((&i, p), &l)) in keep.iter().zip(at.iter()).zip(bary.iter()).enumerate() {
            sub.keep[slot] = i;
            sub.bary[slot] = l;
            sub.closest += p * l;
        }
        sub
    }

    /// The point closest to the origin, in f32.
    #[inline]
    pub(crate) fn closest(&self) -> Vector3<f32> {
        self.closest.cast()
    }

    /// The point closest to the origin, in f64, before rounding to f32.
    #[inline]
    pub(crate) fn closest64(&self) -> V64 {
        self.closest
    }
}

impl Default for Simplex {
    fn default() -> Self {
        Self::new()
    }
}

impl Simplex {
    /// An empty simplex.
    pub const fn new() -> Self {
        Self {
            points: [SupportPoint::ZERO; 4],
            dirs: [Vector3::new(0.0, 0.0, 0.0); 4],
            bary: [0.0; 4],
            len: 0,
        }
    }

    /// The one-point simplex of `p`, its closest point `p.w` itself.
    #[inline]
    pub(crate) fn single(p: SupportPoint) -> Self {
        let mut s = Self::new();
        s.points[0] = p;
        s.bary[0] = 1.0;
        s.len = 1;
        s
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

    /// Whether a point with the same witnesses `a` and `b` is in the
    /// simplex: the duplicate-support test of the shape cast, whose `w` are
    /// shifted by the moving query point and so cannot be compared.
    #[inline]
    pub(crate) fn contains_witnesses(&self, p: &SupportPoint) -> bool {
        self.points().iter().any(|q| q.a == p.a && q.b == p.b)
    }

    /// Re-expresses every point relative to the query point `x`:
    /// `w = (a − b) − x`, from the witnesses, so no shift accumulates.
    #[inline]
    pub(crate) fn rebase(&mut self, x: &Vector3<f32>) {
        for p in &mut self.points[..self.len] {
            p.w = (p.a - p.b) - x;
        }
    }

    /// Largest squared norm of the points: the size scale of the simplex.
    #[inline]
    pub(crate) fn max_norm_squared(&self) -> f32 {
        self.points().iter().fold(0.0, |m, p| larger(m, p.w.norm_squared()))
    }

    /// Adds `p`, found as the support point along `dir` (A's frame; zero
    /// if unknown).
    #[inline]
    pub(crate) fn push(&mut self, p: SupportPoint, dir: Vector3<f32>) {
        debug_assert!(self.len < 4, "GJK pushed onto a full simplex");
        self.points[self.len] = p;
        self.dirs[self.len] = dir;
        self.len += 1;
    }

    /// The directions (A's frame) the points were found along, oldest
    /// first, zero where unknown.
    #[inline]
    pub(crate) fn dirs(&self) -> &[Vector3<f32>] {
        &self.dirs[..self.len]
    }

    /// Drops the newest point: undoes [`push`](Simplex::push) when no
    /// [`apply`](Simplex::apply) came in between.
    #[inline]
    pub(crate) fn pop(&mut self) {
        debug_assert!(self.len > 0, "GJK popped an empty simplex");
        self.len -= 1;
    }

    /// The closest point `Σ λᵢ wᵢ` to the origin.
    pub fn closest_point(&self) -> Vector3<f32> {
        self.points()
            .iter()
            .zip(self.barycentric())
            .fold(Vector3::zeros(), |v, (p, l)| v + p.w * *l)
    }

    /// Witness points `(Σ λᵢ aᵢ, Σ λᵢ bᵢ)` of the closest point, in A's frame.
    #[inline]
    pub fn witnesses(&self) -> (Point3<f32>, Point3<f32>) {
        let mut a = Vector3::zeros();
        let mut b = Vector3::zeros();
        for (p, l) in self.points().iter().zip(self.barycentric()) {
            a += p.a.coords * *l;
            b += p.b.coords * *l;
        }
        (a.into(), b.into())
    }

    /// Largest squared norm of the points `sub` keeps: the size scale of the
    /// simplex it leaves.
    #[inline]
    pub(crate) fn max_norm_squared_of(&self, sub: &SubSimplex) -> f32 {
        // `& 3` (a no-op on valid indices) spares the bounds checks.
        sub.keep[..sub.len.min(3)]
            .iter()
            .fold(0.0, |m, &i| larger(m, self.points[i & 3].w.norm_squared()))
    }

    /// Keeps only the points `sub` keeps, with its barycentrics.
    #[inline]
    #[allow(clippy::needless_range_loop)]
    pub(crate) fn apply(&mut self, sub: &SubSimplex) {
        // Only the points that move are copied. Segments and triangles keep
        // their points in increasing order, so each slot's source has not
        // been written yet and the gather can run in place; a tetrahedron's
        // face may keep its points out of order, and then every source is
        // read (from a copy) before any slot is written. Copying all four
        // 36-byte points every iteration was a tenth of a separated box
        // pair's distance query.
        let keep = &sub.keep;
        let in_order = match sub.len {
            3 => keep[0] < keep[1] && keep[1] < keep[2],
            2 => keep[0] < keep[1],
            _ => true,
        };
        // Slots counted up to `len ≤ 3` (not an iterator over `keep`): the
        // compiler then knows every slot is in range.
        let len = sub.len.min(3);
        if in_order {
            for slot in 0..len {
                let from = keep[slot] & 3;
                if from != slot {
                    self.points[slot] = self.points[from];
                    self.dirs[slot] = self.dirs[from];
                }
                self.bary[slot] = sub.bary[slot] as f32;
            }
        } else {
            let (old, old_dirs) = (self.points, self.dirs);
            for slot in 0..len {
                self.points[slot] = old[keep[slot] & 3];
                self.dirs[slot] = old_dirs[keep[slot] & 3];
                self.bary[slot] = sub.bary[slot] as f32;
            }
        }
        self.len = sub.len;
    }

    /// For a tetrahedron, the sub-simplex of its face nearest the origin,
    /// whichever side of it the origin is on: the shape cast's answer when
    /// the origin lies on the tetrahedron's boundary, which the reduction
    /// calls enclosed. `None` for fewer than four points.
    pub(crate) fn nearest_face(&self) -> Option<SubSimplex> {
        if self.len != 4 {
            return None;
        }
        let w = self.points.map(|p| w64(&p));
        FACES
            .iter()
            .map(|&([i, j, k], _)| triangle([i, j, k], w[i], w[j], w[k]))
            .min_by(|x, y| x.closest.norm_squared().total_cmp(&y.closest.norm_squared()))
    }

    /// Finds the smallest sub-simplex containing the point closest to the
    /// origin (or that the tetrahedron encloses the origin), without changing
    /// the simplex: [`apply`](Simplex::apply) the answer to reduce it.
    pub(crate) fn reduction(&self) -> Reduction {
        // Only the points in use are widened to f64.
        let w = |i: usize| w64(&self.points[i]);
        match self.len {
            // A single point is its own closest point, taken as it is (an
            // f64 sum would turn a -0.0 coordinate into +0.0).
            1 => Reduction::Closest(SubSimplex {
                closest: w(0),
                ..SubSimplex::new([0], [w(0)], [1.0])
            }),
            2 => Reduction::Closest(segment([0, 1], w(0), w(1))),
            3 => Reduction::Closest(triangle([0, 1, 2], w(0), w(1), w(2))),
            4 => tetrahedron(&[w(0), w(1), w(2), w(3)], f64::from(self.max_norm_squared())),
            _ => {
                debug_assert!(false, "reducing an empty simplex");
                Reduction::Closest(SubSimplex::new([], [], []))
            }
        }
    }
}

/// Closest point of segment `ab`, the simplex's points `keep`
/// (Ericson §5.1.2 with P at the origin).
#[inline(always)]
fn segment([i, j]: [usize; 2], a: V64, b: V64) -> SubSimplex {
    let ab = b - a;
    let t = -a.dot(&ab);
    let len_sq = ab.norm_squared();
    // `!(t > 0)` also catches NaN, which then keeps a single point.
    if !(t > 0.0) {
        SubSimplex::new([i], [a], [1.0])
    } else if t >= len_sq {
        SubSimplex::new([j], [b], [1.0])
    } else {
        let s = t / len_sq;
        SubSimplex::new([i, j], [a, b], [1.0 - s, s])
    }
}

/// Closest point of triangle `abc`, the simplex's points `keep` (Ericson
/// §5.1.5 with P at the origin).
#[inline]
fn triangle(keep: [usize; 3], a: V64, b: V64, c: V64) -> SubSimplex {
    let ab = b - a;
    let ac = c - a;
    triangle_with_normal(keep, a, b, c, ab.cross(&ac), ab, ac)
}

/// [`triangle`] given its edges `ab`, `ac` and normal `n = ab × ac`, which
/// the tetrahedron's face tests have already computed.
///
/// Departure from Ericson's order: the interior is tested first. GJK on
/// curved shapes spends most of its iterations on triangles whose closest
/// point lies inside (the simplex straddles the closest point of a curved
/// patch), and there the three signed areas alone decide it; the vertex and
/// edge regions' six dot products are computed only when one of the areas
/// is not positive. Where all three are positive the origin's projection is
/// strictly inside, so no vertex or edge region can hold it, and the answer
/// is the one the full test would give.
#[inline(always)]
fn triangle_with_normal(
    [i, j, k]: [usize; 3],
    a: V64,
    b: V64,
    c: V64,
    n: V64,
    ab: V64,
    ac: V64,
) -> SubSimplex {
    let n_sq = n.norm_squared();
    let edge_sq = ab.norm_squared().max(ac.norm_squared());
    if !(n_sq > DEGENERATE_REL_SQ * edge_sq * edge_sq) {
        return degenerate_triangle([i, j, k], a, b, c);
    }
    // Signed areas of the sub-triangles opposite each vertex, scaled by
    // |n|: their sum is |n|², and a negative one puts the origin's
    // projection outside the opposite edge.
    let va = n.dot(&b.cross(&c));
    let vb = n.dot(&c.cross(&a));
    let vc = n.dot(&a.cross(&b));
    if va > 0.0 && vb > 0.0 && vc > 0.0 {
        let sum = va + vb + vc;
        return SubSimplex::new([i, j, k], [a, b, c], [va / sum, vb / sum, vc / sum]);
    }

    // Vertex region A.
    let d1 = -ab.dot(&a);
    let d2 = -ac.dot(&a);
    if d1 <= 0.0 && d2 <= 0.0 {
        return SubSimplex::new([i], [a], [1.0]);
    }
    // Vertex region B.
    let d3 = -ab.dot(&b);
    let d4 = -ac.dot(&b);
    if d3 >= 0.0 && d4 <= d3 {
        return SubSimplex::new([j], [b], [1.0]);
    }
    // Vertex region C.
    let d5 = -ab.dot(&c);
    let d6 = -ac.dot(&c);
    if d6 >= 0.0 && d5 <= d6 {
        return SubSimplex::new([k], [c], [1.0]);
    }
    if vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0 {
        let s = d1 / (d1 - d3);
        return SubSimplex::new([i, j], [a, b], [1.0 - s, s]);
    }
    if vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0 {
        let s = d2 / (d2 - d6);
        return SubSimplex::new([i, k], [a, c], [1.0 - s, s]);
    }
    if va <= 0.0 && d4 >= d3 && d5 >= d6 {
        let s = (d4 - d3) / ((d4 - d3) + (d5 - d6));
        return SubSimplex::new([j, k], [b, c], [1.0 - s, s]);
    }
    let sum = va + vb + vc;
    SubSimplex::new([i, j, k], [a, b, c], [va / sum, vb / sum, vc / sum])
}

/// A zero-area triangle: the closest point lies on its longest edge.
fn degenerate_triangle([i, j, k]: [usize; 3], a: V64, b: V64, c: V64) -> SubSimplex {
    let mut best = segment([i, j], a, b);
    for s in [segment([j, k], b, c), segment([i, k], a, c)] {
        if s.closest.norm_squared() < best.closest.norm_squared() {
            best = s;
        }
    }
    best
}

/// A tetrahedron's faces, each with its opposite vertex.
const FACES: [([usize; 3], usize); 4] =
    [([0, 1, 2], 3), ([0, 3, 1], 2), ([0, 2, 3], 1), ([1, 3, 2], 0)];

/// Closest point of the tetrahedron (Ericson §5.1.6): the best of the faces
/// whose plane separates the origin from the opposite vertex, or
/// [`Reduction::Enclosing`] when no face does. `scale_sq` is the largest
/// squared norm of the points.
///
/// Departure: the first such face whose closest point lies inside it (not on
/// an edge or vertex) is the answer, and the other faces are not solved.
/// The tetrahedron lies behind that face's plane and the origin strictly in
/// front of it, so no point of the tetrahedron is closer than the origin's
/// projection onto the plane, which that face holds. (A flat tetrahedron has
/// no front and back, so there every candidate is still compared.)
fn tetrahedron(w: &[V64; 4], scale_sq: f64) -> Reduction {
    let mut best: Option<SubSimplex> = None;
    // Read from the static table (not a copy of it), so that once the loop
    // is unrolled every index is a constant and needs no bounds check.
    for &([i, j, k], l) in FACES.iter() {
        let ab = w[j] - w[i];
        let ac = w[k] - w[i];
        let n = ab.cross(&ac);
        let side_origin = -n.dot(&w[i]);
        let side_opposite = n.dot(&(w[l] - w[i]));
        // A flat tetrahedron has no inside: every face is a candidate.
        let flat = !(side_opposite.abs() > DEGENERATE_REL_SQ.sqrt() * scale_sq * scale_sq.sqrt());
        if flat || side_origin * side_opposite < 0.0 {
            let s = triangle_with_normal([i, j, k], w[i], w[j], w[k], n, ab, ac);
            if !flat && s.len == 3 {
                return Reduction::Closest(s);
            }
            if best.is_none_or(|b| s.closest.norm_squared() < b.closest.norm_squared()) {
                best = Some(s);
            }
        }
    }
    match best {
        Some(s) => Reduction::Closest(s),
        None => Reduction::Enclosing,
    }
}

/// The larger of two squared norms, which are never NaN (the points are
/// finite): one comparison, where `f32::max` also spends instructions on
/// NaN. Equal to `f32::max` for such values.
#[inline(always)]
pub(crate) fn larger(x: f32, y: f32) -> f32 {
    if x > y { x } else { y }
}

/// A support point's `w` in f64 (exact: every f32 is an f64).
#[inline]
fn w64(p: &SupportPoint) -> V64 {
    p.w.cast()
}
