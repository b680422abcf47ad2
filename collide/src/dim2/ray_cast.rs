//! 2D ray casts: where a half-line first meets a circle, a rectangle or a
//! convex polygon, in closed form, with the 3D casts' conventions (see
//! [`crate::cast_ray`]).
//!
//! The methods are the planar cases of the 3D ones: the smaller root of the
//! circle's quadratic (discriminant by Lagrange's identity, the
//! cancellation-free root, f64), slabs for the rectangle (Kay and Kajiya
//! 1986), and half-plane clipping for the polygon (Haines 1991, in 2D: one
//! half-plane per counter-clockwise edge). Departure: a two-vertex polygon (a
//! segment) has no width, so it is clipped by its line's two sides widened
//! by a few ulps of rounding and by the two lines through its ends
//! perpendicular to it, as the 3D flat hull is.

use nalgebra::{Isometry2, Point2, Unit, Vector2};

use super::circle::Circle;
use super::polygon::Polygon;
use super::rectangle::Rectangle;
use super::shape::Shape2;
use super::support_map::SupportMap2;
use crate::error::QueryError;

/// A 2D half-line `origin + t · dir`, `t ≥ 0`; `t` is in multiples of `dir`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ray2 {
    /// Where the ray starts.
    pub origin: Point2<f32>,
    /// Its direction; need not be unit, may be zero (a point).
    pub dir: Vector2<f32>,
}

impl Ray2 {
    /// The ray from `origin` along `dir`.
    #[inline]
    pub const fn new(origin: Point2<f32>, dir: Vector2<f32>) -> Self {
        Self { origin, dir }
    }

    /// The point at parameter `t`.
    #[inline]
    pub fn point_at(&self, t: f32) -> Point2<f32> {
        self.origin + self.dir * t
    }
}

/// Where a 2D ray meets a shape.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum RayCast2 {
    /// The ray enters the shape through its boundary.
    Hit {
        /// Ray parameter of the entry point, in `[0, max_toi]`.
        toi: f32,
        /// The entry point, world frame.
        point: Point2<f32>,
        /// Outward unit normal there, world frame; on a corner, that of the
        /// edge entered last.
        normal: Unit<Vector2<f32>>,
    },
    /// The origin lies in the closed shape.
    StartsInside,
    /// No entry with `toi ≤ max_toi`.
    Miss,
}

/// A 2D shape with a closed-form ray cast and a containment test in its
/// own frame; [`cast_ray2`] is the posed, world-frame query.
pub trait CastRay2: SupportMap2 {
    /// The cast in the shape's frame, for a ray whose origin is outside the
    /// shape: `Some((toi, normal))` for an entry at most `max_toi` along the
    /// ray (the normal outward, nonzero, not necessarily unit), `None` for a
    /// miss.
    fn cast_local_ray(&self, ray: &Ray2, max_toi: f32) -> Option<(f32, Vector2<f32>)>;

    /// Whether the point (shape frame) is in the closed shape.
    fn contains_local(&self, p: &Point2<f32>) -> bool;
}

/// Casts `ray` (world frame) at `shape` placed at `pose`: the first entry
/// point with `toi ≤ max_toi`, [`RayCast2::StartsInside`], or
/// [`RayCast2::Miss`].
///
/// Returns [`RayCast2::Miss`] for bad input (as [`intersects2`](super::intersects2)
/// returns `false`); [`try_cast_ray2`] reports it as an error.
///
/// ```
/// use collide::dim2::{cast_ray2, Circle, Ray2, RayCast2};
/// use collide::nalgebra::{Isometry2, Point2, Vector2};
/// let ray = Ray2::new(Point2::new(-5.0, 0.0), Vector2::x());
/// let hit = cast_ray2(&Circle::new(1.0), &Isometry2::identity(), &ray, 10.0);
/// assert!(matches!(hit, RayCast2::Hit { toi, .. } if toi == 4.0));
/// let bad = Isometry2::translation(f32::NAN, 0.0);
/// assert_eq!(cast_ray2(&Circle::new(1.0), &bad, &ray, 10.0), RayCast2::Miss);
/// ```
pub fn cast_ray2<S: CastRay2 + ?Sized>(
    shape: &S,
    pose: &Isometry2<f32>,
    ray: &Ray2,
    max_toi: f32,
) -> RayCast2 {
    try_cast_ray2(shape, pose, ray, max_toi).unwrap_or(RayCast2::Miss)
}

/// [`cast_ray2`], reporting bad input as an error.
///
/// # Errors
/// [`QueryError::NonFiniteInput`] for a NaN or infinite pose, ray or shape
/// parameter or a NaN `max_toi`; [`QueryError::NegativeMargin`] for a
/// negative radius.
///
/// ```
/// use collide::dim2::{try_cast_ray2, Circle, Ray2, RayCast2};
/// use collide::nalgebra::{Isometry2, Point2, Vector2};
/// let ray = Ray2::new(Point2::new(-5.0, 0.0), Vector2::x());
/// match try_cast_ray2(&Circle::new(1.0), &Isometry2::identity(), &ray, 10.0).unwrap() {
///     RayCast2::Hit { toi, normal, .. } => {
///         assert_eq!(toi, 4.0);
///         assert_eq!(normal.into_inner(), -Vector2::x());
///     }
///     other => panic!("{other:?}"),
/// }
/// ```
pub fn try_cast_ray2<S: CastRay2 + ?Sized>(
    shape: &S,
    pose: &Isometry2<f32>,
    ray: &Ray2,
    max_toi: f32,
) -> Result<RayCast2, QueryError> {
    let inputs = [
        pose.translation.vector.x,
        pose.translation.vector.y,
        pose.rotation.re,
        pose.rotation.im,
        ray.origin.x,
        ray.origin.y,
        ray.dir.x,
        ray.dir.y,
        shape.margin(),
    ];
    if !inputs.iter().all(|x| x.is_finite()) || max_toi.is_nan() {
        return Err(QueryError::NonFiniteInput);
    }
    if shape.margin() < 0.0 {
        return Err(QueryError::NegativeMargin);
    }
    let local = Ray2::new(
        pose.inverse_transform_point(&ray.origin),
        pose.inverse_transform_vector(&ray.dir),
    );
    if shape.contains_local(&local.origin) {
        return Ok(RayCast2::StartsInside);
    }
    Ok(match shape.cast_local_ray(&local, max_toi) {
        Some((toi, normal)) => {
            let normal = Unit::try_new(pose.rotation * normal, 0.0)
                .or_else(|| Unit::try_new(-ray.dir, 0.0))
                .ok_or(QueryError::NonFiniteInput)?;
            RayCast2::Hit { toi, point: ray.point_at(toi), normal }
        }
        None => RayCast2::Miss,
    })
}

/// `Some` for a parameter at most `max_toi` (NaN misses).
fn within(toi: f32, normal: Vector2<f32>, max_toi: f32) -> Option<(f32, Vector2<f32>)> {
    if toi <= max_toi { Some((toi.max(0.0), normal)) } else { None }
}

impl CastRay2 for Circle {
    fn cast_local_ray(&self, ray: &Ray2, max_toi: f32) -> Option<(f32, Vector2<f32>)> {
        let m = ray.origin.coords.cast::<f64>();
        let d = ray.dir.cast::<f64>();
        let r = f64::from(self.radius);
        let power = m.norm_squared() - r * r;
        let b = m.dot(&d);
        // Outside and receding (or NaN): a miss.
        if !(b < 0.0) || !(power > 0.0) {
            return None;
        }
        let perp = m.perp(&d);
        let disc = d.norm_squared() * r * r - perp * perp;
        if !(disc >= 0.0) {
            return None;
        }
        let t = power / (disc.sqrt() - b);
        let normal = m + d * t;
        let normal = if normal.norm_squared() > 0.0 { normal } else { -d };
        within(t as f32, normal.cast(), max_toi)
    }

    fn contains_local(&self, p: &Point2<f32>) -> bool {
        let (p, r) = (p.coords.cast::<f64>(), f64::from(self.radius));
        p.norm_squared() <= r * r
    }
}

impl CastRay2 for Rectangle {
    fn cast_local_ray(&self, ray: &Ray2, max_toi: f32) -> Option<(f32, Vector2<f32>)> {
        let (o, d, h) = (ray.origin, ray.dir, self.half_extents);
        let (mut enter, mut exit) = (0.0f32, max_toi);
        let mut entered = None;
        for k in 0..2 {
            if d[k] == 0.0 {
                // Parallel to this slab: inside it always, or never.
                if !(o[k].abs() <= h[k]) {
                    return None;
                }
                continue;
            }
            let (near, far) = if d[k] > 0.0 { (-h[k], h[k]) } else { (h[k], -h[k]) };
            let (t_near, t_far) = ((near - o[k]) / d[k], (far - o[k]) / d[k]);
            if t_near > enter {
                enter = t_near;
                entered = Some(k);
            }
            exit = exit.min(t_far);
            if !(enter <= exit) {
                return None;
            }
        }
        let k = entered?;
        let mut normal = Vector2::zeros();
        normal[k] = -d[k].signum();
        within(enter, normal, max_toi)
    }

    fn contains_local(&self, p: &Point2<f32>) -> bool {
        p.x.abs() <= self.half_extents.x && p.y.abs() <= self.half_extents.y
    }
}

/// Rounding half-width given to a segment's zero width, in ulps of the
/// largest coordinate in play.
const SEGMENT_SLACK_ULPS: f32 = 8.0;

impl Polygon {
    /// The half-planes `normal · x ≤ offset` whose intersection is the
    /// polygon: one per counter-clockwise edge; for a segment, its line's
    /// two sides (widened by `slack`) and the two lines through its ends.
    fn half_planes(&self, slack: f32) -> impl Iterator<Item = (Vector2<f32>, f32)> + '_ {
        let v = self.vertices();
        let n = v.len();
        let segment = n == 2;
        let edges = (0..n).map(move |i| {
            let (a, b) = (v[i], v[(i + 1) % n]);
            // Outward for a counter-clockwise polygon: the edge turned clockwise.
            let e = b - a;
            let normal = Vector2::new(e.y, -e.x);
            (normal, normal.dot(&a.coords) + if segment { slack * normal.norm() } else { 0.0 })
        });
        let ends = (0..if segment { 2 } else { 0 }).map(move |i| {
            let (from, to) = (v[1 - i], v[i]);
            let out = to - from;
            (out, out.dot(&to.coords))
        });
        edges.chain(ends)
    }

    fn slack(&self, p: &Point2<f32>) -> f32 {
        let reach = self.vertices().iter().fold(p.coords.amax(), |m, v| m.max(v.coords.amax()));
        SEGMENT_SLACK_ULPS * f32::EPSILON * reach
    }
}

impl CastRay2 for Polygon {
    fn cast_local_ray(&self, ray: &Ray2, max_toi: f32) -> Option<(f32, Vector2<f32>)> {
        let (mut enter, mut exit) = (0.0f32, max_toi);
        let mut entered = None;
        for (normal, offset) in self.half_planes(self.slack(&ray.origin)) {
            let below = offset - normal.dot(&ray.origin.coords);
            let climb = normal.dot(&ray.dir);
            if climb < 0.0 {
                let t = below / climb;
                if t > enter {
                    enter = t;
                    entered = Some(normal);
                }
            } else if climb > 0.0 {
                exit = exit.min(below / climb);
            } else if !(below >= 0.0) {
                return None;
            }
        }
        match entered {
            Some(normal) if enter <= exit => within(enter, normal, max_toi),
            _ => None,
        }
    }

    fn contains_local(&self, p: &Point2<f32>) -> bool {
        self.half_planes(self.slack(p)).all(|(normal, offset)| normal.dot(&p.coords) <= offset)
    }
}

impl CastRay2 for Shape2 {
    fn cast_local_ray(&self, ray: &Ray2, max_toi: f32) -> Option<(f32, Vector2<f32>)> {
        match self {
            Shape2::Circle(s) => s.cast_local_ray(ray, max_toi),
            Shape2::Rectangle(s) => s.cast_local_ray(ray, max_toi),
            Shape2::Polygon(s) => s.cast_local_ray(ray, max_toi),
        }
    }

    fn contains_local(&self, p: &Point2<f32>) -> bool {
        match self {
            Shape2::Circle(s) => s.contains_local(p),
            Shape2::Rectangle(s) => s.contains_local(p),
            Shape2::Polygon(s) => s.contains_local(p),
        }
    }
}
