//! EPA (expanding polytope algorithm) in the plane: penetration depth, normal
//! and witness points of two overlapping cores.
//!
//! Follows G. van den Bergen, "Proximity queries and penetration depth
//! computation on 3D game objects" (GDC 2001), in its planar form: the
//! polytope is a convex polygon of support points of `D = core(A) - core(B)`
//! around the origin; each step takes the edge closest to the origin, asks
//! for the support point along its outward normal, and splits the edge there
//! until the support point adds less than a tolerance. Departures: the
//! polygon lives in fixed-capacity arrays (no allocation); GJK's 1- or
//! 2-point simplices are grown to a polygon as Jolt does, and a core
//! difference that is a point or a segment (circle cores, segment polygons)
//! is answered exactly on the spot; hitting [`MAX_ITERATIONS`] returns the
//! best edge found, never "no contact". Witness points come from the
//! barycentric coordinates of the origin's projection on the closest edge.

use nalgebra::{Point2, Unit, Vector2};

use super::gjk::TOUCH_REL_TOL;
use super::minkowski::{CoreDifference2, SupportPoint2};
use super::record::{EpaStep2, Recorder2};
use super::simplex::Simplex2;
use super::support_map::SupportMap2;

/// Iteration cap: each iteration inserts one vertex. Polygonal cores converge
/// once their few edges near the answer are found; the cap only bounds huge
/// near-circular polygons, for which the best edge is still returned.
pub(crate) const MAX_ITERATIONS: usize = 128;

/// Polygon capacity: the (at most four-vertex) start plus one vertex per
/// iteration.
const CAPACITY: usize = MAX_ITERATIONS + 4;

/// Converged when the support point along the closest edge's normal lies at
/// most this fraction of the coordinate scale beyond the edge, so the depth
/// is exact to that much. 1e-6 is a few f32 ulps of the support points,
/// three orders below the depth accuracy the queries promise.
const GAP_REL_TOL: f32 = 1e-6;

/// Penetration of the cores, in A's frame.
#[derive(Clone, Copy, Debug)]
pub(crate) struct EpaResult {
    /// Depth of the cores' overlap (zero when they merely touch).
    pub depth: f32,
    /// Outward normal of `D` at the closest boundary point: A to B.
    pub normal: Unit<Vector2<f32>>,
    /// Witness on A's core.
    pub point_a: Point2<f32>,
    /// Witness on B's core; `point_a - point_b = depth * normal`.
    pub point_b: Point2<f32>,
    /// False when the loop hit [`MAX_ITERATIONS`] or stalled (best edge).
    #[cfg_attr(not(test), allow(dead_code))]
    pub converged: bool,
}

/// The support polygon of `D`, counter-clockwise; edge `i` runs from vertex
/// `i` to vertex `i + 1 (mod len)`.
struct Polytope {
    vertices: [SupportPoint2; CAPACITY],
    /// Outward unit normal of each edge.
    normals: [Vector2<f32>; CAPACITY],
    /// Signed distance of each edge's line from the origin (positive when the
    /// origin is inside); `INFINITY` for a zero-length edge so it is never
    /// picked.
    dists: [f32; CAPACITY],
    len: usize,
}

impl Polytope {
    fn new(start: &[SupportPoint2]) -> Self {
        debug_assert!((3..=4).contains(&start.len()));
        let mut p = Self {
            vertices: [start[0]; CAPACITY],
            normals: [Vector2::zeros(); CAPACITY],
            dists: [f32::INFINITY; CAPACITY],
            len: start.len(),
        };
        p.vertices[..start.len()].copy_from_slice(start);
        for i in 0..p.len {
            p.update_edge(i);
        }
        p
    }

    fn next(&self, i: usize) -> usize {
        if i + 1 == self.len { 0 } else { i + 1 }
    }

    fn update_edge(&mut self, i: usize) {
        let (a, b) = (self.vertices[i].w, self.vertices[self.next(i)].w);
        let e = b - a;
        let len = e.norm();
        if len > 0.0 {
            // For a counter-clockwise polygon the outward normal is the edge
            // turned clockwise.
            let n = Vector2::new(e.y, -e.x) / len;
            self.normals[i] = n;
            self.dists[i] = n.dot(&a);
        } else {
            self.normals[i] = Vector2::zeros();
            self.dists[i] = f32::INFINITY;
        }
    }

    /// Index of the edge closest to the origin.
    fn closest_edge(&self) -> usize {
        let mut best = 0;
        for i in 1..self.len {
            if self.dists[i] < self.dists[best] {
                best = i;
            }
        }
        best
    }

    /// Splits edge `i` at `p`.
    fn insert_after(&mut self, i: usize, p: SupportPoint2) {
        debug_assert!(self.len < CAPACITY);
        let at = i + 1;
        self.vertices.copy_within(at..self.len, at + 1);
        self.normals.copy_within(at..self.len, at + 1);
        self.dists.copy_within(at..self.len, at + 1);
        self.vertices[at] = p;
        self.len += 1;
        self.update_edge(i);
        self.update_edge(at);
    }

    /// The answer for edge `i`: the origin's projection on it.
    fn result(&self, i: usize, converged: bool) -> EpaResult {
        let (p, q) = (self.vertices[i], self.vertices[self.next(i)]);
        on_line(&p, &q, self.normals[i], converged)
    }
}

/// The result on the line through `p` and `q` with outward unit `normal`:
/// the witnesses interpolate the origin's projection on the segment.
fn on_line(
    p: &SupportPoint2,
    q: &SupportPoint2,
    normal: Vector2<f32>,
    converged: bool,
) -> EpaResult {
    let e = q.w - p.w;
    let t = -p.w.dot(&e) / e.norm_squared();
    // A zero-length segment gives NaN: use its one point.
    let t = if t > 0.0 { t.min(1.0) } else { 0.0 };
    let x = p.lerp(q, t);
    EpaResult {
        depth: normal.dot(&x.w).max(0.0),
        normal: Unit::new_unchecked(normal),
        point_a: x.a,
        point_b: x.b,
        converged,
    }
}

/// Penetration of the cores given GJK's final simplex, which holds or
/// touches the origin. `None` only for a non-finite support point.
pub(crate) fn epa<A, B, R>(
    diff: &mut CoreDifference2<'_, A, B>,
    simplex: &Simplex2,
    recorder: &mut R,
) -> Option<EpaResult>
where
    A: SupportMap2 + ?Sized,
    B: SupportMap2 + ?Sized,
    R: Recorder2 + ?Sized,
{
    let start = match simplex.points() {
        [p] => return grow_point(diff, p, recorder),
        [p, q] => return from_segment(diff, p, q, recorder),
        [p, q, r] => {
            let area2 = (q.w - p.w).perp(&(r.w - p.w));
            let lengths = (q.w - p.w).norm() * (r.w - p.w).norm();
            // A triangle flatter than the collinearity tolerance is a segment:
            // keep its two farthest-apart vertices.
            if !(area2.abs() > TOUCH_REL_TOL * lengths) {
                let pairs = [(p, q), (p, r), (q, r)];
                let (s, t) = pairs
                    .into_iter()
                    .max_by(|x, y| {
                        (x.0.w - x.1.w).norm_squared().total_cmp(&(y.0.w - y.1.w).norm_squared())
                    })
                    .unwrap_or((p, q));
                return from_segment(diff, s, t, recorder);
            }
            if area2 > 0.0 { [*p, *q, *r] } else { [*p, *r, *q] }
        }
        _ => {
            debug_assert!(false, "a GJK simplex has one to three vertices");
            return None;
        }
    };
    expand(diff, Polytope::new(&start), recorder)
}

/// GJK stopped on one point `p` at (or within tolerance of) the origin.
/// Look along A->B: if D does not extend past `p` that way the origin is on
/// D's boundary there (depth zero, e.g. two circle cores, a point), otherwise
/// the new support point makes a segment through the origin.
fn grow_point<A, B, R>(
    diff: &mut CoreDifference2<'_, A, B>,
    p: &SupportPoint2,
    recorder: &mut R,
) -> Option<EpaResult>
where
    A: SupportMap2 + ?Sized,
    B: SupportMap2 + ?Sized,
    R: Recorder2 + ?Sized,
{
    let offset = diff.offset_b_in_a();
    let dir = if offset.norm_squared() > 0.0 { offset.normalize() } else { Vector2::x() };
    let s = diff.support(&dir);
    if !s.is_finite() {
        return None;
    }
    let tol = GAP_REL_TOL * diff.scale();
    if !(s.w.dot(&dir) - p.w.dot(&dir) > tol) {
        return Some(on_line(p, p, dir, true));
    }
    // |s - p| >= (s - p)·dir > tol, so the segment is not degenerate.
    grow_segment(diff, p, &s, recorder)
}

/// A segment from GJK, or a point if it is shorter than the tolerance.
fn from_segment<A, B, R>(
    diff: &mut CoreDifference2<'_, A, B>,
    p: &SupportPoint2,
    q: &SupportPoint2,
    recorder: &mut R,
) -> Option<EpaResult>
where
    A: SupportMap2 + ?Sized,
    B: SupportMap2 + ?Sized,
    R: Recorder2 + ?Sized,
{
    if (q.w - p.w).norm() > GAP_REL_TOL * diff.scale() {
        grow_segment(diff, p, q, recorder)
    } else {
        grow_point(diff, p, recorder)
    }
}

/// GJK stopped on a segment `p..q` through (or within tolerance of) the
/// origin. If D does not extend past the segment's line on one side, the
/// origin is on D's boundary (depth zero; D itself is a segment when neither
/// side extends); otherwise the supports on both sides make a quadrilateral
/// around the origin for [`expand`].
fn grow_segment<A, B, R>(
    diff: &mut CoreDifference2<'_, A, B>,
    p: &SupportPoint2,
    q: &SupportPoint2,
    recorder: &mut R,
) -> Option<EpaResult>
where
    A: SupportMap2 + ?Sized,
    B: SupportMap2 + ?Sized,
    R: Recorder2 + ?Sized,
{
    let e = q.w - p.w;
    let len = e.norm();
    debug_assert!(len > 0.0, "callers pass a segment longer than the tolerance");
    // Both normals of the segment, the one facing A->B first, so the answer
    // for a flat D (circle core on a segment) is the side B is on and
    // swapping A and B negates it.
    let mut n = Vector2::new(e.y, -e.x) / len;
    if n.dot(&diff.offset_b_in_a()) < 0.0 {
        n = -n;
    }
    let tol = GAP_REL_TOL * diff.scale();
    let s_pos = diff.support(&n);
    if !s_pos.is_finite() {
        return None;
    }
    if !(s_pos.w.dot(&n) - p.w.dot(&n) > tol) {
        return Some(on_line(p, q, n, true));
    }
    let s_neg = diff.support(&-n);
    if !s_neg.is_finite() {
        return None;
    }
    if !(p.w.dot(&n) - s_neg.w.dot(&n) > tol) {
        return Some(on_line(p, q, -n, true));
    }
    // Counter-clockwise: with n the clockwise turn of p->q, walking
    // p, s(n), q, s(-n) keeps the interior on the left.
    let start = if Vector2::new(e.y, -e.x).dot(&n) > 0.0 {
        [*p, s_pos, *q, s_neg]
    } else {
        [*p, s_neg, *q, s_pos]
    };
    expand(diff, Polytope::new(&start), recorder)
}

/// The EPA loop proper.
fn expand<A, B, R>(
    diff: &mut CoreDifference2<'_, A, B>,
    mut poly: Polytope,
    recorder: &mut R,
) -> Option<EpaResult>
where
    A: SupportMap2 + ?Sized,
    B: SupportMap2 + ?Sized,
    R: Recorder2 + ?Sized,
{
    let mut best_result = poly.result(poly.closest_edge(), false);
    let mut previous_dist = f32::NEG_INFINITY;
    for _ in 0..MAX_ITERATIONS {
        let i = poly.closest_edge();
        let dist = poly.dists[i];
        // Progress: the polygon only grows, so its distance to the origin (a
        // lower bound on the depth) never falls; if rounding makes it fall,
        // stop with the previous best edge. Written so that NaN stops too.
        if !(dist >= previous_dist) {
            return Some(best_result);
        }
        previous_dist = dist;
        best_result = poly.result(i, false);

        let n = poly.normals[i];
        let s = diff.support(&n);
        recorder.epa_step(&EpaStep2 {
            vertices: &poly.vertices[..poly.len],
            closest_edge: i,
            support: s,
        });
        if !s.is_finite() {
            return None;
        }
        // D reaches no farther than `s` along n, so the depth lies in
        // [dist, s·n]: stop when that bracket is below tolerance.
        let tol = GAP_REL_TOL * diff.scale();
        if !(s.w.dot(&n) - dist > tol) {
            return Some(poly.result(i, true));
        }
        // A support point already in the polygon adds nothing.
        let j = poly.next(i);
        let dup2 = tol * tol;
        if (s.w - poly.vertices[i].w).norm_squared() <= dup2
            || (s.w - poly.vertices[j].w).norm_squared() <= dup2
        {
            return Some(poly.result(i, true));
        }
        if poly.len == CAPACITY {
            break;
        }
        poly.insert_after(i, s);
    }
    // Out of iterations or capacity: the closest edge of the grown polygon is
    // the best (largest) lower bound, unless rounding made it fall.
    let i = poly.closest_edge();
    if poly.dists[i] >= previous_dist { Some(poly.result(i, false)) } else { Some(best_result) }
}

#[cfg(test)]
mod tests {
    use nalgebra::{Isometry2, Point2, Vector2};

    use super::*;
    use crate::dim2::gjk::{GjkOutcome, gjk};
    use crate::dim2::record::NoRecord2;
    use crate::dim2::{Circle, Rectangle};

    fn run<A: SupportMap2, B: SupportMap2>(a: &A, b: &B, pose_b_in_a: Isometry2<f32>) -> EpaResult {
        let mut diff = CoreDifference2::new(a, b, pose_b_in_a);
        let GjkOutcome::Intersecting(simplex) = gjk(&mut diff, None, &mut NoRecord2) else {
            panic!("cores expected to overlap");
        };
        epa(&mut diff, &simplex, &mut NoRecord2).expect("finite input")
    }

    /// A disc given by its exact support, without the core/margin split, so
    /// EPA must approximate its curved boundary.
    struct TrueDisc(f32);
    impl SupportMap2 for TrueDisc {
        fn local_support(&self, dir: &Vector2<f32>) -> Point2<f32> {
            let len = dir.norm();
            if len > 0.0 { Point2::from(dir * (self.0 / len)) } else { Point2::new(self.0, 0.0) }
        }
    }

    #[test]
    fn overlapping_rectangles_converge_to_the_exact_depth() {
        let r = Rectangle::new(Vector2::new(1.0, 0.5));
        let hit = run(&r, &r, Isometry2::new(Vector2::new(0.3, 0.8), 0.0));
        assert!(hit.converged);
        assert!((hit.depth - 0.2).abs() < 1e-6, "depth {}", hit.depth);
        assert!((hit.normal.y - 1.0).abs() < 1e-6);
        let gap = hit.point_a - hit.point_b;
        assert!((gap - hit.normal.into_inner() * hit.depth).norm() < 1e-6);
    }

    #[test]
    fn point_cores_answer_on_the_spot() {
        // Two circle cores at the same place: D is the origin itself.
        let c = Circle::new(1.0);
        let hit = run(&c, &c, Isometry2::identity());
        assert!(hit.converged);
        assert_eq!(hit.depth, 0.0);
        assert!((hit.normal.norm() - 1.0).abs() < 1e-6);
    }

    #[test]
    fn iteration_cap_returns_the_best_edge() {
        // Concentric curved discs: every edge of the polygon is equally close,
        // so EPA refines all of them and runs out of iterations long before the
        // 1e-6 gap; it must still return its best edge, which for a polygon
        // inscribed in D (radius 2) with ~130 vertices is within 0.1%.
        let d = TrueDisc(1.0);
        let hit = run(&d, &d, Isometry2::identity());
        assert!(!hit.converged);
        assert!(hit.depth <= 2.0 + 1e-5 && hit.depth >= 2.0 * (1.0 - 1e-3), "depth {}", hit.depth);
    }
}
