//! 2D time of impact under rigid motion with rotation: the first time two
//! planar shapes, each moving with constant linear and angular velocity,
//! come within a target distance of each other.
//!
//! Follows conservative advancement (Mirtich, "Impulse-based Dynamic
//! Simulation of Rigid Body Systems", 1996, §2.3), as the 3D
//! [`time_of_impact`](crate::time_of_impact) does and as Box2D's
//! `b2TimeOfImpact` is used on a `b2Sweep`. At time `t` the shapes are `d`
//! apart along the unit normal `n` from A's closest point to B's. Every
//! point of A moves along `n` at most at `v_a·n + |ω_a| r_a` (`r_a` bounds
//! the distance of A's core points from its centre of rotation), and every
//! point of B towards A at most at `−v_b·n + |ω_b| r_b`, so the distance
//! cannot fall below the target before `t + (d − target) / μ`, where `μ` is
//! the sum of the two bounds. The loop jumps there, measures again, and
//! stops once `d` is within the tolerance of the target. Each jump is
//! proven safe, so the reported time is never late.
//!
//! Departures, the same as in 3D:
//! * **Aim.** The jumps aim half a tolerance above the target, so the
//!   advancement reaches the stop test `d ≤ target + tolerance` in finitely
//!   many steps, and a pure translation never lands in contact.
//! * **Distance.** Each step measures with the query behind
//!   [`try_closest_points2`](super::try_closest_points2) (2D GJK) instead
//!   of Box2D's separating-axis root finder; the rotation radius is bounded
//!   from four core support points, not stored with the shape.
//! * **Normal.** The advancement's normal is GJK's closest point of the
//!   core difference, not the difference of the closest points, which on a
//!   large shape carry its vertices' rounding.
//! * **Exits.** Hitting [`MAX_ITERATIONS`], a step too small to change `t`
//!   in f32, or a distance query that finds the shapes overlapping after a
//!   jump (rounding) reports [`TimeOfImpact2::IterationLimit`] with the
//!   proven lower bound, never a miss; comparisons are written so NaN takes
//!   those exits.

use nalgebra::{Isometry2, Point2, Translation2, Unit, UnitComplex, Vector2};

use super::query::try_separation2;
use super::results::Separation2;
use super::support_map::SupportMap2;
use crate::error::QueryError;

/// Iteration cap. Each step covers at least `(d − target) / μ`: a motion
/// that is mostly translation along the normal converges in a handful of
/// steps, a spin that turns the closest features slowly towards each other
/// in a few dozen. 64 leaves room for that and guards against a support
/// function that breaks its contract (the 3D cap too).
pub const MAX_ITERATIONS: u32 = 64;

/// Tolerance on the distance at the time of impact, relative to the
/// smaller shape's size (half its core's box diagonal, at most its
/// rotation radius) plus margin: the stop test is
/// `d ≤ target + tolerance`. 2D GJK's distances are accurate to ~1e-5 of
/// the coordinate scale; 1e-3 of the smaller shape (0.1 mm on a 10 cm
/// body) is well above that and far below anything a physics step
/// resolves.
const TOLERANCE_REL: f32 = 1e-3;

/// One planar shape's motion over the query: its pose at time 0, the point
/// it turns about, and constant linear and angular velocities.
///
/// At time `t` the centre (`local_center` in the shape's frame) is at
/// `c₀ + v t` and the rotation angle is `θ₀ + ω t`, the shape turning about
/// its centre.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sweep2 {
    /// The shape's pose at time 0 (`world_from_local`).
    pub pose: Isometry2<f32>,
    /// The centre of rotation in the shape's frame (for a rigid body, its
    /// centre of mass).
    pub local_center: Point2<f32>,
    /// Velocity of the centre, world frame, in length per unit time.
    pub linear_velocity: Vector2<f32>,
    /// Angular velocity, counter-clockwise, in radians per unit time.
    pub angular_velocity: f32,
}

impl Sweep2 {
    /// A shape that does not move.
    pub fn fixed(pose: Isometry2<f32>) -> Self {
        Self {
            pose,
            local_center: Point2::origin(),
            linear_velocity: Vector2::zeros(),
            angular_velocity: 0.0,
        }
    }

    /// The motion that turns `start` into `end` over a unit of time, about
    /// `local_center`: the centre on a straight line, the rotation along the
    /// shorter arc (at most half a turn).
    ///
    /// ```
    /// use collide::dim2::Sweep2;
    /// use collide::nalgebra::{Isometry2, Point2, Vector2};
    /// let start = Isometry2::translation(1.0, 0.0);
    /// let end = Isometry2::new(Vector2::new(3.0, 0.0), 1.0);
    /// let sweep = Sweep2::between(&start, &end, Point2::origin());
    /// let p = sweep.pose_at(1.0);
    /// assert!((p.translation.vector - end.translation.vector).norm() < 1e-6);
    /// assert!(p.rotation.angle_to(&end.rotation).abs() < 1e-6);
    /// ```
    pub fn between(
        start: &Isometry2<f32>,
        end: &Isometry2<f32>,
        local_center: Point2<f32>,
    ) -> Self {
        Self {
            pose: *start,
            local_center,
            linear_velocity: end * local_center - start * local_center,
            angular_velocity: start.rotation.angle_to(&end.rotation),
        }
    }

    /// The pose at time `t`.
    pub fn pose_at(&self, t: f32) -> Isometry2<f32> {
        let center = self.pose * self.local_center + self.linear_velocity * t;
        let rotation = UnitComplex::new(self.angular_velocity * t) * self.pose.rotation;
        Isometry2::from_parts(
            Translation2::from(center.coords - rotation * self.local_center.coords),
            rotation,
        )
    }

    /// Whether every number is finite.
    fn is_finite(&self) -> bool {
        let p = &self.pose;
        [
            p.translation.vector.x,
            p.translation.vector.y,
            p.rotation.re,
            p.rotation.im,
            self.local_center.x,
            self.local_center.y,
            self.linear_velocity.x,
            self.linear_velocity.y,
            self.angular_velocity,
        ]
        .iter()
        .all(|x| x.is_finite())
    }
}

/// How a 2D time-of-impact query ended. Points and normals are in the world
/// frame, at the time of impact; the planar
/// [`TimeOfImpact`](crate::TimeOfImpact).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TimeOfImpact2 {
    /// The shapes come within the target distance at time `toi`: they are
    /// farther apart than the target before it (the time is never late), and
    /// `distance ≤ target + tolerance` at it.
    Hit {
        /// Time of impact, in `[0, max_toi]`.
        toi: f32,
        /// Distance between the shapes at `toi`.
        distance: f32,
        /// Unit normal from A's closest point to B's, at `toi`.
        normal: Unit<Vector2<f32>>,
        /// Point of A closest to B at `toi`.
        point_a: Point2<f32>,
        /// Point of B closest to A at `toi`.
        point_b: Point2<f32>,
    },
    /// The shapes stay farther apart than the target over `[0, max_toi]`.
    Miss,
    /// The shapes overlap at time 0.
    InitiallyOverlapping,
    /// The iteration cap was reached, or rounding stopped the advancement
    /// making progress, before the shapes were found within the target or
    /// apart for good. They are proven farther apart than the target before
    /// `toi_lower_bound`.
    IterationLimit {
        /// A time before which the shapes are certainly farther apart than
        /// the target.
        toi_lower_bound: f32,
    },
}

/// The first time in `[0, max_toi]` at which A, moving by `sweep_a`, and B,
/// moving by `sweep_b`, come within `target_distance` of each other
/// (`target_distance = 0`: first contact).
///
/// Returns [`TimeOfImpact2::Miss`] for bad input (as
/// [`intersects2`](super::intersects2) returns `false`);
/// [`try_time_of_impact2`] reports it as an error.
///
/// ```
/// use collide::dim2::{Circle, Sweep2, TimeOfImpact2, time_of_impact2};
/// use collide::nalgebra::{Isometry2, Point2, Vector2};
/// let c = Circle::new(1.0);
/// let moving = Sweep2 {
///     pose: Isometry2::identity(),
///     local_center: Point2::origin(),
///     linear_velocity: Vector2::new(2.0, 0.0),
///     angular_velocity: 0.0,
/// };
/// let fixed = Sweep2::fixed(Isometry2::translation(6.0, 0.0));
/// let TimeOfImpact2::Hit { toi, .. } = time_of_impact2(&c, &moving, &c, &fixed, 5.0, 0.0)
/// else { panic!() };
/// assert!(toi <= 2.0 && toi > 2.0 - 1e-3); // never late
/// ```
pub fn time_of_impact2<A: SupportMap2 + ?Sized, B: SupportMap2 + ?Sized>(
    a: &A,
    sweep_a: &Sweep2,
    b: &B,
    sweep_b: &Sweep2,
    max_toi: f32,
    target_distance: f32,
) -> TimeOfImpact2 {
    try_time_of_impact2(a, sweep_a, b, sweep_b, max_toi, target_distance)
        .unwrap_or(TimeOfImpact2::Miss)
}

/// [`time_of_impact2`], reporting bad input as an error.
///
/// Shapes separated but already within the target at time 0 give a hit at
/// time 0; overlapping ones [`TimeOfImpact2::InitiallyOverlapping`].
///
/// # Errors
/// [`QueryError::NonFiniteInput`] for a NaN or infinite sweep, margin or
/// support point, or a NaN `max_toi` or `target_distance` (an infinite
/// `max_toi` means no limit); [`QueryError::NegativeMargin`] for a negative
/// radius.
///
/// ```
/// use collide::dim2::{Rectangle, Sweep2, TimeOfImpact2, try_time_of_impact2};
/// use collide::nalgebra::{Isometry2, Point2, Vector2};
/// // A plate 2 cm thick and 2 m tall, centred 0.6 m left of a wall whose
/// // face is x = 0, spinning at 3 rad/s without moving: after turning by θ
/// // its lower corner is at x = −0.6 + 0.01 cos θ + sin θ.
/// let plate = Rectangle::new(Vector2::new(0.01, 1.0));
/// let wall = Rectangle::new(Vector2::new(0.5, 10.0));
/// let spin = Sweep2 {
///     pose: Isometry2::translation(-0.6, 0.0),
///     local_center: Point2::origin(),
///     linear_velocity: Vector2::zeros(),
///     angular_velocity: 3.0,
/// };
/// let fixed = Sweep2::fixed(Isometry2::translation(0.5, 0.0));
/// match try_time_of_impact2(&plate, &spin, &wall, &fixed, 1.0, 0.0).unwrap() {
///     TimeOfImpact2::Hit { toi, distance, normal, .. } => {
///         let theta = 3.0 * toi;
///         let corner_x = -0.6 + 0.01 * theta.cos() + theta.sin();
///         // Never late, and within the tolerance (0.1 % of the plate's
///         // 1 m radius) of touching.
///         assert!(corner_x <= 1e-6 && corner_x > -2e-3, "{corner_x}");
///         assert!((distance + corner_x).abs() < 1e-5);
///         assert!(normal.x > 0.999);
///     }
///     other => panic!("{other:?}"),
/// }
/// ```
pub fn try_time_of_impact2<A: SupportMap2 + ?Sized, B: SupportMap2 + ?Sized>(
    a: &A,
    sweep_a: &Sweep2,
    b: &B,
    sweep_b: &Sweep2,
    max_toi: f32,
    target_distance: f32,
) -> Result<TimeOfImpact2, QueryError> {
    if !(sweep_a.is_finite() && sweep_b.is_finite())
        || max_toi.is_nan()
        || !target_distance.is_finite()
    {
        return Err(QueryError::NonFiniteInput);
    }
    let max_toi = max_toi.max(0.0);
    let target = target_distance.max(0.0);
    let ((radius_a, size_a), margin_a) = rotation_radius(a, sweep_a)?;
    let ((radius_b, size_b), margin_b) = rotation_radius(b, sweep_b)?;
    let tolerance = TOLERANCE_REL * (size_a + margin_a).min(size_b + margin_b);
    let aim = target + 0.5 * tolerance;
    // Bound on how fast spin moves the shapes' support points along any
    // direction (see `rotation_radius`).
    let spin_speed =
        sweep_a.angular_velocity.abs() * radius_a + sweep_b.angular_velocity.abs() * radius_b;
    let relative_velocity = sweep_a.linear_velocity - sweep_b.linear_velocity;

    let mut t = 0.0f32;
    for iteration in 0..MAX_ITERATIONS {
        let (pose_a, pose_b) = (sweep_a.pose_at(t), sweep_b.pose_at(t));
        let Separation2 { distance, normal, point_a, point_b } =
            match try_separation2(a, &pose_a, b, &pose_b)? {
                Some(separation) => separation,
                None if iteration == 0 => return Ok(TimeOfImpact2::InitiallyOverlapping),
                // A jump never reaches the target, so this is rounding at a
                // distance near the tolerance: `t` is still a proven bound.
                None => return Ok(TimeOfImpact2::IterationLimit { toi_lower_bound: t }),
            };
        // Stop test: within the tolerance of the target.
        if distance <= target + tolerance {
            return Ok(TimeOfImpact2::Hit { toi: t, distance, normal, point_a, point_b });
        }
        // μ bounds the rate at which the gap along `normal` closes; a gap
        // that cannot close (μ ≤ 0) never will, and NaN misses too, though
        // the input was checked.
        let closing_speed = relative_velocity.dot(&normal) + spin_speed;
        if !(closing_speed > 0.0) {
            return Ok(TimeOfImpact2::Miss);
        }
        let next = t + (distance - aim) / closing_speed;
        debug_assert!(!(next < t), "conservative advancement moved backwards");
        // The gap stays above the aim (and the target) up to `next`.
        if !(next <= max_toi) {
            return Ok(TimeOfImpact2::Miss);
        }
        // Progress test: a step too small to change `t` cannot converge.
        if !(next > t) {
            return Ok(TimeOfImpact2::IterationLimit { toi_lower_bound: t });
        }
        t = next;
    }
    Ok(TimeOfImpact2::IterationLimit { toi_lower_bound: t })
}

/// A bound on the distance of any point of `shape`'s core from the sweep's
/// centre of rotation (the farthest corner of the core's bounding box, four
/// core support points), and the shape's margin.
///
/// The core is enough for the speed bound: a support point of
/// `core ⊕ disc(r)` is a core support point plus `r n`, whose spin velocity
/// `ω × r n` has no component along `n`, so a circle spinning about its own
/// centre never closes a gap, however fast it turns.
fn rotation_radius<S: SupportMap2 + ?Sized>(
    shape: &S,
    sweep: &Sweep2,
) -> Result<((f32, f32), f32), QueryError> {
    let margin = shape.margin();
    if !margin.is_finite() {
        return Err(QueryError::NonFiniteInput);
    }
    if margin < 0.0 {
        return Err(QueryError::NegativeMargin);
    }
    let mut far = Vector2::zeros();
    let mut half = Vector2::zeros();
    for axis in 0..2 {
        let mut dir = Vector2::zeros();
        dir[axis] = 1.0;
        let hi = shape.local_core_support(&dir)[axis] - sweep.local_center[axis];
        let lo = shape.local_core_support(&-dir)[axis] - sweep.local_center[axis];
        far[axis] = hi.abs().max(lo.abs());
        half[axis] = 0.5 * (hi - lo);
    }
    let radius = far.norm();
    if !radius.is_finite() {
        return Err(QueryError::NonFiniteInput);
    }
    // The size, for the tolerance, is half the core's box diagonal, never
    // more than the radius (the 3D query's `Reach::size`): a shape far
    // from its frame's origin turns about a far centre, and 1e-3 of that
    // reach is no tolerance for its distance.
    Ok(((radius, half.norm().min(radius)), margin))
}
