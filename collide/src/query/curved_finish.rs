//! Finishing GJK's distance on a curved feature: once GJK's simplex has
//! settled on a rim circle of a cylinder or cone (or on a vertex or edge
//! facing one), the closest points of that feature are solved for directly.
//!
//! GJK converges only linearly when a closest feature is curved: each
//! iteration adds one more support point on the curve, a chord closer to
//! the arc, and on the suite's cylinder and cone pairs it takes about six
//! iterations to go from a relative gap of 1e-2 to the `REL_GAP` of 1e-6
//! (`gjk.rs`). Here GJK hands over at the coarse gap [`HANDOVER_GAP`]; the
//! simplex's support points then name the features (points on one rim of a
//! cylinder or on a cone's base rim: that rim; a cone's apex, a polytope's
//! vertex or edge: that point or segment), and the closest points are found
//! by a one-parameter minimisation, in f64, of `f(u) = ½ ‖p(u) − π(p(u))‖²`:
//! `p(u)` walks the curved feature (a rim, parametrised by the tangent of
//! the angle from the current witness, or an edge), and `π` is the exact
//! projection onto the other shape (a solid cylinder or cone in closed form,
//! or the polytope feature of GJK's simplex). `f′(u) = (p − π(p)) · p′(u)`
//! (the projection's own derivative drops out, as for any distance to a
//! convex set), and its root is found by the secant method after one Newton
//! step, which converges superlinearly where GJK converges linearly (the
//! "refinement on the curved feature" of a Newton or secant solve on the
//! support parameter; no paper is followed beyond that).
//!
//! Nothing here is trusted. The caller (`gjk.rs`) checks the answer with one
//! support call along it and accepts it only if it passes GJK's own two
//! convergence tests (the distance bounds within `REL_GAP`, the direction
//! settled); otherwise GJK carries on from its simplex as if nothing had
//! been tried. A wrong guess of the feature (a polytope face larger than the
//! simplex's triangle, a cap rather than a rim) costs time, never accuracy.

use nalgebra::{Matrix3, Point3, Vector3};

use crate::query::minkowski::{MinkowskiDifference, SupportPoint};
use crate::query::simplex::Simplex;
use crate::shape::ShapeRef;
use crate::support_map::SupportMap;

type V64 = Vector3<f64>;

/// Relative gap `(‖v‖² − v·w) / ‖v‖²` at which GJK hands over to the
/// feature solve. By then (about 4 iterations on the suite's curved pairs)
/// the simplex's support points lie on the closest features, and a rim's
/// witness is within about `√(2 · gap · d / R)` rad of the answer (0.2 rad
/// at a distance `d` of 0.5 m and a radius `R` of 0.35 m), well inside the
/// secant's reach. Scale-free.
pub(crate) const HANDOVER_GAP: f32 = 1e-2;

/// Cap on the secant iterations: from 0.2 rad it converges in 5 to 7.
const MAX_ITERATIONS: u32 = 12;

/// Converged when a step moves the parameter by less than this. A rim's
/// parameter is about an angle in radians (`|dp/du| ≤ r`), an edge's a
/// fraction of its length `L`, so the step moves the point by at most
/// `1e-7 · r` or `1e-7 · L`: the f32 resolution of a point at that distance
/// from its shape's origin, which is where the answer is rounded to. The
/// secant converges superlinearly, so the error left after such a step is
/// far smaller than the step. (It was 1e-10, which asked one more
/// evaluation on most solves for digits the f32 output drops; GJK's
/// certificate checks the answer either way.)
const STEP_TOLERANCE: f64 = 1e-7;

/// Largest rim parameter (the tangent of the angle from the starting
/// witness) the solve may reach, 45°: farther means the simplex did not name
/// the feature, and the solve gives up.
const MAX_RIM_PARAMETER: f64 = 1.0;

/// Smallest cosine between two of one rim's simplex points for them to name
/// that rim (60° apart): points spread farther apart lie on a cap.
const RIM_SPREAD_COS: f64 = 0.5;

/// Whether either shape is one the solve knows (a cylinder or a cone):
/// decided once per query, before GJK's loop.
#[inline]
pub(crate) fn applies<A, B>(md: &MinkowskiDifference<'_, A, B>) -> bool
where
    A: SupportMap + ?Sized,
    B: SupportMap + ?Sized,
{
    let (a, b) = md.shapes();
    round(a.as_shape_ref()).is_some() || round(b.as_shape_ref()).is_some()
}

/// A candidate pair of closest points (in A's frame), in f64 and as a
/// support point in f32, for GJK to check.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Candidate {
    /// `a − b` before rounding.
    pub(crate) v64: V64,
    /// The two points and their difference, rounded.
    pub(crate) point: SupportPoint,
}

/// The closest points of the features GJK's `simplex` has settled on, if
/// the simplex names a feature the solve handles; `None` otherwise.
#[inline(never)]
pub(crate) fn finish<A, B>(
    md: &MinkowskiDifference<'_, A, B>,
    simplex: &Simplex,
) -> Option<Candidate>
where
    A: SupportMap + ?Sized,
    B: SupportMap + ?Sized,
{
    let (a, b) = md.shapes();
    let frame_a = Frame::Identity;
    let rot: Matrix3<f64> = md.rotation_b_in_a().cast();
    let frame_b = Frame::Posed { rot, origin: md.pose_b_in_a().translation.vector.cast() };
    let side_a = Side::new(round(a.as_shape_ref()), frame_a, simplex, |p| p.a);
    let round_b = round(b.as_shape_ref());
    // A's rim against a round B: B's target is its whole solid, whatever
    // feature its points name, so B's points are not read at all.
    if let (Some(curve), Some(shape)) = (side_a.rim(), round_b) {
        let (pa, pb) = solve(&curve, &Target::Solid(shape, frame_b))?;
        return Some(Candidate::new(pa, pb));
    }
    let side_b = Side::new(round_b, frame_b, simplex, |p| p.b);
    let (pa, pb) = if let Some(curve) = side_a.rim() {
        let target = side_b.target()?;
        let (p, q) = solve(&curve, &target)?;
        (p, q)
    } else if let Some(curve) = side_b.rim() {
        let target = side_a.target()?;
        let (p, q) = solve(&curve, &target)?;
        (q, p)
    } else if let (Feature::Point(p), Some(shape)) = (side_a.feature, side_b.shape) {
        (p, Target::Solid(shape, side_b.frame).project(&p))
    } else if let (Some(shape), Feature::Point(p)) = (side_a.shape, side_b.feature) {
        (Target::Solid(shape, side_a.frame).project(&p), p)
    } else if let (Feature::Segment(s0, s1), Some(shape)) = (side_a.feature, side_b.shape) {
        solve(&Curve::Segment(s0, s1), &Target::Solid(shape, side_b.frame))?
    } else if let (Some(shape), Feature::Segment(s0, s1)) = (side_a.shape, side_b.feature) {
        let (p, q) = solve(&Curve::Segment(s0, s1), &Target::Solid(shape, side_a.frame))?;
        (q, p)
    } else {
        return None;
    };
    Some(Candidate::new(pa, pb))
}

impl Candidate {
    /// The candidate of the closest points `pa` of A and `pb` of B.
    #[inline]
    fn new(pa: V64, pb: V64) -> Self {
        let (a32, b32) = (Point3::from(pa.cast::<f32>()), Point3::from(pb.cast::<f32>()));
        Self { v64: pa - pb, point: SupportPoint { w: a32 - b32, a: a32, b: b32 } }
    }
}

/// A cylinder or a cone, as `(half_height, radius)`.
#[derive(Clone, Copy, Debug)]
enum Round {
    Cylinder(f64, f64),
    Cone(f64, f64),
}

#[inline]
fn round(shape: Option<ShapeRef<'_>>) -> Option<Round> {
    match shape {
        Some(ShapeRef::Cylinder(c)) => Some(Round::Cylinder(c.half_height.into(), c.radius.into())),
        Some(ShapeRef::Cone(c)) => Some(Round::Cone(c.half_height.into(), c.radius.into())),
        _ => None,
    }
}

/// A shape's local frame in A's frame: `p_a = rot · p_local + origin`.
/// A's own frame is told apart as [`Frame::Identity`], so that the solve's
/// many evaluations on A's side transform nothing: multiplying by an
/// identity matrix held in memory is a full 3×3 product in floating point
/// (the compiler may not drop `0 · x`, which is NaN for an infinite `x`),
/// though its result is the point itself (up to the sign of a zero).
#[derive(Clone, Copy, Debug)]
enum Frame {
    /// A's frame itself.
    Identity,
    /// A frame rotated by `rot` and moved by `origin`.
    Posed { rot: Matrix3<f64>, origin: V64 },
}

impl Frame {
    #[inline]
    fn local_from_a(&self, p: &V64) -> V64 {
        match self {
            Frame::Identity => *p,
            Frame::Posed { rot, origin } => rot.tr_mul(&(p - origin)),
        }
    }

    #[inline]
    fn a_from_local(&self, p: &V64) -> V64 {
        match self {
            Frame::Identity => *p,
            Frame::Posed { rot, origin } => rot * p + origin,
        }
    }

    /// The local vector `(x, 0, z)` (a rim's tangent) in A's frame: the
    /// rotation's first and third columns only, which gives the full
    /// product's value (its middle term is a zero).
    #[inline]
    fn rotate_xz(&self, x: f64, z: f64) -> V64 {
        match self {
            Frame::Identity => V64::new(x, 0.0, z),
            Frame::Posed { rot, .. } => rot.column(0) * x + rot.column(2) * z,
        }
    }
}

/// What one shape's simplex points say its closest feature is.
#[derive(Clone, Copy, Debug)]
enum Feature {
    /// A rim circle at local height `y`, starting from the witness's radial
    /// direction `(cos, sin)` in the local XZ plane.
    Rim { y: f64, start: (f64, f64) },
    /// A point (a cone's apex, a polytope's vertex), in A's frame.
    Point(V64),
    /// A polytope's edge, in A's frame.
    Segment(V64, V64),
    /// A polytope's face (or part of it), in A's frame.
    Triangle(V64, V64, V64),
    /// None the solve handles (a cap, a cylinder's side, a cone's side).
    Other,
}

/// One shape of the pair: its kind if round, its frame and its feature.
struct Side {
    shape: Option<Round>,
    frame: Frame,
    feature: Feature,
}

impl Side {
    /// Reads the feature from the simplex's points of this shape (`pick`
    /// takes A's or B's witness of a support point).
    fn new(
        shape: Option<Round>,
        frame: Frame,
        simplex: &Simplex,
        pick: impl Fn(&SupportPoint) -> Point3<f32>,
    ) -> Self {
        // The distinct points, and the witness (their barycentric blend).
        let mut points = [V64::zeros(); 3];
        let mut n = 0;
        let mut witness = V64::zeros();
        for (p, &l) in simplex.points().iter().zip(simplex.barycentric()) {
            let q: V64 = pick(p).coords.cast();
            witness += q * f64::from(l);
            if n < 3 && !points[..n].contains(&q) {
                points[n] = q;
                n += 1;
            }
        }
        let feature = match shape {
            None => match n {
                1 => Feature::Point(points[0]),
                2 => Feature::Segment(points[0], points[1]),
                3 => Feature::Triangle(points[0], points[1], points[2]),
                _ => Feature::Other,
            },
            Some(round) => {
                let local = points.map(|p| frame.local_from_a(&p));
                let local = &local[..n];
                rim_or_apex(round, local, &frame.local_from_a(&witness), &points[0])
            }
        };
        Self { shape, frame, feature }
    }

    /// The rim to walk, if the feature is one.
    fn rim(&self) -> Option<Curve> {
        match (self.feature, self.shape) {
            (Feature::Rim { y, start }, Some(Round::Cylinder(_, r) | Round::Cone(_, r))) => {
                Some(Curve::Rim { frame: self.frame, y, r, start })
            }
            _ => None,
        }
    }

    /// What to project onto: the solid if round, else the simplex's feature.
    fn target(&self) -> Option<Target> {
        match (self.shape, self.feature) {
            (Some(shape), _) => Some(Target::Solid(shape, self.frame)),
            (None, Feature::Point(p)) => Some(Target::Point(p)),
            (None, Feature::Segment(p, q)) => Some(Target::Segment(p, q)),
            (None, Feature::Triangle(p, q, r)) => Some(Target::Triangle(p, q, r)),
            _ => None,
        }
    }
}

/// A round shape's feature from its simplex points (local frame): one rim
/// (all points on it, within `RIM_SPREAD_COS` of each other), the apex of a
/// cone, or none the solve handles.
fn rim_or_apex(round: Round, local: &[V64], witness: &V64, first_in_a: &V64) -> Feature {
    let (h, rim_y) = match round {
        // Cylinder support points lie on the rim at ±h; a cone's on its base
        // rim at −h or at its apex, +h.
        Round::Cylinder(h, _) => (h, if local[0].y > 0.0 { h } else { -h }),
        Round::Cone(h, _) => (h, -h),
    };
    let on_rim = |p: &V64| (p.y > 0.0) == (rim_y > 0.0);
    if let Round::Cone(..) = round
        && local.len() == 1
        && !on_rim(&local[0])
    {
        return Feature::Point(*first_in_a);
    }
    if !local.iter().all(on_rim) {
        return Feature::Other;
    }
    // Pairwise spread, on the radial directions.
    for (i, p) in local.iter().enumerate() {
        for q in &local[..i] {
            let dot = p.x * q.x + p.z * q.z;
            let norms = ((p.x * p.x + p.z * p.z) * (q.x * q.x + q.z * q.z)).sqrt();
            if !(dot >= RIM_SPREAD_COS * norms) {
                return Feature::Other;
            }
        }
    }
    let radial = (witness.x * witness.x + witness.z * witness.z).sqrt();
    if !(radial > 1e-6 * h) {
        return Feature::Other;
    }
    Feature::Rim { y: rim_y, start: (witness.x / radial, witness.z / radial) }
}

/// What a point is projected onto.
#[derive(Clone, Copy, Debug)]
enum Target {
    /// A whole cylinder or cone, in its frame.
    Solid(Round, Frame),
    /// A polytope's vertex, edge or face (part), in A's frame.
    Point(V64),
    Segment(V64, V64),
    Triangle(V64, V64, V64),
}

impl Target {
    /// The point of the target closest to `p` (both in A's frame).
    fn project(&self, p: &V64) -> V64 {
        match self {
            Target::Solid(shape, frame) => {
                let local = frame.local_from_a(p);
                frame.a_from_local(&project_solid(*shape, &local))
            }
            Target::Point(q) => *q,
            Target::Segment(q0, q1) => closest_on_segment(p, q0, q1),
            Target::Triangle(q0, q1, q2) => closest_on_triangle(p, q0, q1, q2),
        }
    }
}

/// The point of a solid cylinder or cone closest to `p` (local frame).
fn project_solid(shape: Round, p: &V64) -> V64 {
    let rho = (p.x * p.x + p.z * p.z).sqrt();
    // The answer in the half-plane (ρ, y) through the axis and p.
    let (rho_q, y_q) = match shape {
        Round::Cylinder(h, r) => (rho.min(r), p.y.clamp(-h, h)),
        Round::Cone(h, r) => {
            // The triangle apex (0, h), rim (r, −h), base centre (0, −h).
            // Inside when above the base and below the side line
            // 2hρ + r(y − h) = 0.
            if p.y >= -h && 2.0 * h * rho + r * (p.y - h) <= 0.0 {
                (rho, p.y)
            } else {
                // Outside a convex polygon the closest point is on an edge:
                // the base or the side (the axis edge faces away from ρ ≥ 0).
                let base = (rho.clamp(0.0, r), -h);
                let (ex, ey) = (r, -2.0 * h);
                let t = ((rho * ex + (p.y - h) * ey) / (ex * ex + ey * ey)).clamp(0.0, 1.0);
                let side = (t * ex, h + t * ey);
                let d = |(x, y): (f64, f64)| (x - rho).powi(2) + (y - p.y).powi(2);
                if d(side) < d(base) { side } else { base }
            }
        }
    };
    let scale = if rho > 0.0 { rho_q / rho } else { 0.0 };
    V64::new(p.x * scale, y_q, p.z * scale)
}

fn closest_on_segment(p: &V64, a: &V64, b: &V64) -> V64 {
    let ab = b - a;
    let len_sq = ab.norm_squared();
    if !(len_sq > 0.0) {
        return *a;
    }
    a + ab * ((p - a).dot(&ab) / len_sq).clamp(0.0, 1.0)
}

/// Closest point of triangle `abc` to `p`, by Voronoi regions (Ericson,
/// *Real-Time Collision Detection*, §5.1.5).
fn closest_on_triangle(p: &V64, a: &V64, b: &V64, c: &V64) -> V64 {
    let (ab, ac, ap) = (b - a, c - a, p - a);
    let (d1, d2) = (ab.dot(&ap), ac.dot(&ap));
    if d1 <= 0.0 && d2 <= 0.0 {
        return *a;
    }
    let bp = p - b;
    let (d3, d4) = (ab.dot(&bp), ac.dot(&bp));
    if d3 >= 0.0 && d4 <= d3 {
        return *b;
    }
    let vc = d1 * d4 - d3 * d2;
    if vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0 {
        return a + ab * (d1 / (d1 - d3));
    }
    let cp = p - c;
    let (d5, d6) = (ab.dot(&cp), ac.dot(&cp));
    if d6 >= 0.0 && d5 <= d6 {
        return *c;
    }
    let vb = d5 * d2 - d1 * d6;
    if vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0 {
        return a + ac * (d2 / (d2 - d6));
    }
    let va = d3 * d6 - d5 * d4;
    if va <= 0.0 && d4 - d3 >= 0.0 && d5 - d6 >= 0.0 {
        return b + (c - b) * ((d4 - d3) / ((d4 - d3) + (d5 - d6)));
    }
    let denom = va + vb + vc;
    if !(denom != 0.0) {
        return closest_on_segment(p, a, b);
    }
    a + ab * (vb / denom) + ac * (vc / denom)
}

/// A curve walked by one parameter `u`.
#[derive(Clone, Copy, Debug)]
enum Curve {
    /// A rim circle of radius `r` at local height `y`: the point at
    /// parameter `u` lies at angle `atan u` from the radial `start`.
    Rim { frame: Frame, y: f64, r: f64, start: (f64, f64) },
    /// An edge from its first point (`u = 0`) to its second (`u = 1`).
    Segment(V64, V64),
}

impl Curve {
    /// The point at `u` and the derivative `dp/du`, in A's frame.
    #[inline]
    fn at(&self, u: f64) -> (V64, V64) {
        match self {
            Curve::Rim { frame, y, r, start: (c, s) } => {
                // (e₀ + u e₁)/√(1 + u²), e₀ the start, e₁ a quarter turn on.
                let k = 1.0 / (1.0 + u * u).sqrt();
                let (dx, dz) = ((c - u * s) * k, (s + u * c) * k);
                let point = frame.a_from_local(&V64::new(r * dx, *y, r * dz));
                // d/du: (e₁ − u e₀)/(1 + u²)^{3/2}.
                let k3 = r * k * k * k;
                let tangent = frame.rotate_xz((-s - u * c) * k3, (c - u * s) * k3);
                (point, tangent)
            }
            Curve::Segment(p0, p1) => (p0 + (p1 - p0) * u, p1 - p0),
        }
    }

    /// The parameter's range and its start.
    fn domain(&self) -> (f64, f64, f64) {
        match self {
            Curve::Rim { .. } => (-MAX_RIM_PARAMETER, MAX_RIM_PARAMETER, 0.0),
            Curve::Segment(..) => (0.0, 1.0, 0.5),
        }
    }
}

/// Minimises `½ ‖p(u) − π(p(u))‖²` over the curve: one Newton step (with the
/// curvature of the curve alone), then secant steps on the derivative
/// `(p − π(p)) · p′(u)`. Returns the curve's point and its projection, or
/// `None` if the solve left the curve's range, stalled or met NaN.
fn solve(curve: &Curve, target: &Target) -> Option<(V64, V64)> {
    let (lo, hi, start) = curve.domain();
    let slope = |u: f64| {
        let (p, dp) = curve.at(u);
        let q = target.project(&p);
        ((p - q).dot(&dp), p, q, dp)
    };
    let (mut u0, (mut g0, p, q, dp)) = (start, slope(start));
    // Newton's second derivative without the projection's own derivative:
    // ‖p′‖² + (p − q)·p″. For a rim p″ = −(p − centre) at u = 0; for an edge
    // p″ = 0. Where the target curves with the curve this overestimates, and
    // the first step falls short, which the secant steps make up.
    let mut second = dp.norm_squared();
    if let Curve::Rim { frame, y, .. } = curve {
        let centre = frame.a_from_local(&V64::new(0.0, *y, 0.0));
        second -= (p - q).dot(&(p - centre));
    }
    if !(second > 0.1 * dp.norm_squared()) {
        second = dp.norm_squared();
    }
    let mut u1 = (u0 - g0 / second).clamp(lo, hi);
    for _ in 0..MAX_ITERATIONS {
        let (g1, p1, q1, _) = slope(u1);
        let step = if g1 != g0 { g1 * (u1 - u0) / (g1 - g0) } else { 0.0 };
        let u2 = (u1 - step).clamp(lo, hi);
        if !((u2 - u1).abs() > STEP_TOLERANCE) {
            // NaN lands here too, and is refused. A rim's solve that ends on
            // its range's limit has left the feature the simplex named.
            let at_limit = matches!(curve, Curve::Rim { .. }) && u2.abs() >= MAX_RIM_PARAMETER;
            return (g1.is_finite() && !at_limit).then_some((p1, q1));
        }
        (u0, g0, u1) = (u1, g1, u2);
    }
    None
}

#[cfg(test)]
mod tests {
    use nalgebra::{Isometry3, Point3, Quaternion, Translation3, UnitQuaternion, Vector3};

    use crate::{Cone, Cylinder, Proximity, closest_points};

    /// A point of a rim circle of radius `r` at local height `y`, at angle
    /// `t`, placed by `pose`, in f64.
    fn rim_point(pose: &Isometry3<f32>, y: f64, r: f64, t: f64) -> Vector3<f64> {
        let pose: Isometry3<f64> = pose.cast();
        (pose * Point3::new(r * t.cos(), y, r * t.sin())).coords
    }

    /// The least distance between two rim circles, by brute force in f64: a
    /// 720 × 720 grid of angles, then a 21 × 21 grid around the best pair,
    /// halving its step down to 1e-12 rad. Independent of the solve (no
    /// projection, no secant).
    fn rim_rim_distance(a: (&Isometry3<f32>, f64, f64), b: (&Isometry3<f32>, f64, f64)) -> f64 {
        let dist =
            |ta: f64, tb: f64| (rim_point(a.0, a.1, a.2, ta) - rim_point(b.0, b.1, b.2, tb)).norm();
        let n = 720;
        let step = std::f64::consts::TAU / f64::from(n);
        let mut best = (f64::INFINITY, 0.0, 0.0);
        for i in 0..n {
            for j in 0..n {
                let (ta, tb) = (f64::from(i) * step, f64::from(j) * step);
                let d = dist(ta, tb);
                if d < best.0 {
                    best = (d, ta, tb);
                }
            }
        }
        let mut h = step;
        while h > 1e-12 {
            let (_, ca, cb) = best;
            for i in -10..=10 {
                for j in -10..=10 {
                    let (ta, tb) = (ca + f64::from(i) * h * 0.1, cb + f64::from(j) * h * 0.1);
                    let d = dist(ta, tb);
                    if d < best.0 {
                        best = (d, ta, tb);
                    }
                }
            }
            h *= 0.5;
        }
        best.0
    }

    /// f32 Debug output `[i, j, k, w]` back to the same unit quaternion.
    fn rotation(i: f32, j: f32, k: f32, w: f32) -> UnitQuaternion<f32> {
        UnitQuaternion::new_unchecked(Quaternion::new(w, i, j, k))
    }

    /// Pose 1024-stream of the `queries` suite's separated cylinder–cone row
    /// where GJK alone stopped 6.4e-5 m (1.2e-4 of the distance) short of
    /// the distance between the cylinder's top rim and the cone's base rim.
    #[test]
    fn cylinder_cone_rims_where_gjk_alone_stopped_short() {
        // The suite's pose, and the same pair scaled by 0.1 and 10 (sizes
        // and positions), where the solve's step tolerance is relative to
        // the rim's radius.
        for scale in [1.0f32, 0.1, 10.0] {
            let (h_cyl, r_cyl, h_cone, r_cone) =
                (0.4 * scale, 0.35 * scale, 0.45 * scale, 0.45 * scale);
            let cylinder = Cylinder::new(h_cyl, r_cyl);
            let cone = Cone::new(h_cone, r_cone);
            let pose_cylinder = Isometry3::from_parts(
                Translation3::new(4.204859 * scale, 1.9303846 * scale, -0.30117035 * scale),
                rotation(0.38065606, -0.25460178, 0.061362386, 0.88685596),
            );
            let pose_cone = Isometry3::from_parts(
                Translation3::new(3.9103057 * scale, 2.883737 * scale, 0.94957244 * scale),
                rotation(-0.020098913, 0.010812044, 0.0015454091, 0.99973834),
            );
            let oracle = rim_rim_distance(
                (&pose_cylinder, h_cyl.into(), r_cyl.into()),
                (&pose_cone, (-h_cone).into(), r_cone.into()),
            );
            for swap in [false, true] {
                let found = if swap {
                    closest_points(&cone, &pose_cone, &cylinder, &pose_cylinder)
                } else {
                    closest_points(&cylinder, &pose_cylinder, &cone, &pose_cone)
                };
                let Proximity::Separated { distance, point_a, point_b, .. } = found else {
                    panic!("separated shapes reported as {found:?}");
                };
                // The rim pair bounds the distance above; the answer's
                // points are on both rims, so it cannot lie below it by more
                // than f32 rounding. 2e-6 of the distance covers the f32
                // points.
                let d = f64::from(distance);
                assert!(
                    (d - oracle).abs() <= 2e-6 * oracle,
                    "scale {scale} swap {swap}: {d} vs {oracle}"
                );
                let (on_cylinder, on_cone) =
                    if swap { (point_b, point_a) } else { (point_a, point_b) };
                // On the rims to within 1e-5 of the shapes' size.
                let tol = 1e-5 * scale;
                let local = pose_cylinder.inverse_transform_point(&on_cylinder);
                assert!(
                    (local.y - h_cyl).abs() < tol && (local.coords.xz().norm() - r_cyl).abs() < tol,
                    "scale {scale} swap {swap}: {local:?} off the cylinder's rim"
                );
                let local = pose_cone.inverse_transform_point(&on_cone);
                assert!(
                    (local.y + h_cone).abs() < tol
                        && (local.coords.xz().norm() - r_cone).abs() < tol,
                    "scale {scale} swap {swap}: {local:?} off the cone's rim"
                );
            }
        }
    }
}
