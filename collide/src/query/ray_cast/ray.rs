//! The ray type, the ray-cast outcome, the per-shape [`CastRay`] trait and
//! the posed entry point [`cast_ray`].
//!
//! A cast moves the ray into the shape's frame (the inverse pose applied to
//! its origin and direction, once), intersects it there in closed form, and
//! takes only the answer back: the hit point is recomputed from the *world*
//! ray as `origin + toi · dir`, so it carries no rounding of the round trip,
//! and the normal is rotated. Each shape's closed form is in its own file
//! (`sphere`, `cuboid`, `capsule`, `hull`, `cylinder`, `cone`, `triangle`,
//! `segment`), as parry keeps one file per
//! shape; the methods are the textbook ones (Ericson, *Real-Time Collision
//! Detection*, §5.3.2 ray–sphere, §5.3.3 slabs, §5.3.8 ray–polyhedron by
//! half-space clipping after Haines, Graphics Gems II), written here from
//! those descriptions.
//!
//! **Starting inside.** A ray whose origin lies in the closed shape (inside
//! or exactly on the surface) reports [`RayCast::StartsInside`], whatever its
//! direction: a solid shape is hit at once. Callers who want the exit point
//! can cast the reversed ray from beyond the shape.

use nalgebra::{Isometry3, Point3, Unit, Vector3};

use crate::error::QueryError;
use crate::query::input::check_shape;
use crate::shape::Shape;
use crate::support_map::SupportMap;

/// A half-line `origin + t · dir`, `t ≥ 0`.
///
/// `t` (the *time of impact*, `toi`) is measured in multiples of `dir`: with
/// a unit `dir` it is the distance along the ray; with a velocity it is a
/// time.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ray {
    /// Where the ray starts.
    pub origin: Point3<f32>,
    /// Its direction; need not be unit. A zero direction makes the ray a
    /// point, which is [`RayCast::StartsInside`] or [`RayCast::Miss`].
    pub dir: Vector3<f32>,
}

impl Ray {
    /// The ray from `origin` along `dir`.
    #[inline]
    pub const fn new(origin: Point3<f32>, dir: Vector3<f32>) -> Self {
        Self { origin, dir }
    }

    /// The point at parameter `t`: `origin + t · dir`.
    #[inline]
    pub fn point_at(&self, t: f32) -> Point3<f32> {
        self.origin + self.dir * t
    }

    /// This ray seen from a frame placed at `pose` (the ray given in the
    /// frame `pose` maps from).
    #[inline]
    pub(crate) fn in_frame(&self, pose: &Isometry3<f32>) -> Self {
        Self {
            origin: pose.inverse_transform_point(&self.origin),
            dir: pose.inverse_transform_vector(&self.dir),
        }
    }
}

/// Where a ray meets a shape.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum RayCast {
    /// The ray enters the shape through its surface.
    Hit {
        /// Ray parameter of the entry point, in `[0, max_toi]`.
        toi: f32,
        /// The entry point, `origin + toi · dir`, world frame.
        point: Point3<f32>,
        /// Outward unit surface normal at the entry point, world frame
        /// (`normal · dir ≤ 0`). On an edge or corner, the normal of the
        /// face entered last.
        normal: Unit<Vector3<f32>>,
    },
    /// The ray's origin lies in the closed shape (inside, or on its surface).
    StartsInside,
    /// The ray does not meet the shape with `toi ≤ max_toi`.
    Miss,
}

/// A shape that can be ray cast in its own frame.
///
/// Implemented by every shape of this crate and by [`Shape`]; [`cast_ray`]
/// is the posed, world-frame query. The method has a default, GJK on the
/// support function ([`cast_local_ray_by_support`](crate::query::cast_local_ray_by_support)),
/// so any [`SupportMap`] becomes castable with an empty
/// `impl CastRay for MyShape {}`; shapes with a closed form override it.
pub trait CastRay: SupportMap {
    /// The first point of the shape on `ray` (given in the shape's frame)
    /// with parameter at most `max_toi`: the parameter and the outward
    /// normal there, in the shape's frame. The normal need not be unit but
    /// is nonzero and finite for finite input.
    fn cast_local_ray(&self, ray: &Ray, max_toi: f32) -> LocalRayCast {
        crate::query::ray_cast::cast_local_ray_by_support(self, ray, max_toi)
    }

    /// [`try_cast_ray`] once the pose, the ray and `max_toi` are known
    /// good: checks the shape's own numbers (its margin and core: finite,
    /// no negative radius or half extent) and casts.
    ///
    /// [`try_cast_ray`] checks its other input and calls this. The default
    /// moves the ray into the shape's frame, calls
    /// [`cast_local_ray`](Self::cast_local_ray) and takes the answer back;
    /// a shape overrides it where a cast in world axes is cheaper (a
    /// sphere, the same in every orientation, needs no rotation), and
    /// [`Shape`] overrides it to pick the kind once for the check and the
    /// cast. Called directly with a non-finite pose or ray, its answer is
    /// unspecified (but it does not panic).
    ///
    /// # Errors
    /// [`QueryError::NonFiniteInput`], [`QueryError::NegativeMargin`] or
    /// [`QueryError::NegativeExtent`] for a bad shape.
    ///
    /// ```
    /// use collide::{CastRay, QueryError, Ray, RayCast, Sphere};
    /// use collide::nalgebra::{Isometry3, Point3, Vector3};
    /// let ray = Ray::new(Point3::new(-3.0, 0.0, 0.0), Vector3::x());
    /// let pose = Isometry3::identity();
    /// let hit = Sphere::new(1.0).try_cast_ray_at(&pose, &ray, 10.0).unwrap();
    /// assert!(matches!(hit, RayCast::Hit { toi, .. } if toi == 2.0));
    /// let bad = Sphere::new(-1.0).try_cast_ray_at(&pose, &ray, 10.0);
    /// assert_eq!(bad, Err(QueryError::NegativeMargin));
    /// ```
    #[inline]
    fn try_cast_ray_at(
        &self,
        pose: &Isometry3<f32>,
        ray: &Ray,
        max_toi: f32,
    ) -> Result<RayCast, QueryError> {
        check_shape(self)?;
        cast_in_shape_frame(self, pose, ray, max_toi)
    }
}

/// A ray cast's answer in the shape's frame, before it is taken to the
/// world.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum LocalRayCast {
    /// Entry at parameter `toi` with (not necessarily unit) outward
    /// `normal`, in the shape's frame.
    Hit {
        /// Ray parameter of the entry point.
        toi: f32,
        /// Outward normal, shape frame, nonzero.
        normal: Vector3<f32>,
    },
    /// The origin is in the closed shape.
    StartsInside,
    /// No entry with `toi ≤ max_toi`.
    Miss,
}

impl LocalRayCast {
    /// A hit at `toi`, unless it lies beyond `max_toi`. Written so that a
    /// NaN parameter misses.
    #[inline]
    pub(crate) fn within(toi: f32, normal: Vector3<f32>, max_toi: f32) -> Self {
        if toi <= max_toi { Self::Hit { toi: toi.max(0.0), normal } } else { Self::Miss }
    }
}

/// Casts `ray` (world frame) at `shape` placed at `pose`: the first entry
/// point with `toi ≤ max_toi`, [`RayCast::StartsInside`], or
/// [`RayCast::Miss`].
///
/// Returns [`RayCast::Miss`] for bad input (as
/// [`intersects`](crate::intersects) returns `false`); [`try_cast_ray`]
/// reports it as an error.
///
/// ```
/// use collide::{cast_ray, Ray, RayCast, Sphere};
/// use collide::nalgebra::{Isometry3, Point3, Vector3};
/// let ray = Ray::new(Point3::origin(), Vector3::x());
/// let hit = cast_ray(&Sphere::new(1.0), &Isometry3::translation(5.0, 0.0, 0.0), &ray, 10.0);
/// assert!(matches!(hit, RayCast::Hit { toi, .. } if (toi - 4.0).abs() < 1e-6));
/// let bad = Ray::new(Point3::new(f32::NAN, 0.0, 0.0), Vector3::x());
/// assert_eq!(cast_ray(&Sphere::new(1.0), &Isometry3::identity(), &bad, 10.0), RayCast::Miss);
/// ```
pub fn cast_ray<S: CastRay + ?Sized>(
    shape: &S,
    pose: &Isometry3<f32>,
    ray: &Ray,
    max_toi: f32,
) -> RayCast {
    try_cast_ray(shape, pose, ray, max_toi).unwrap_or(RayCast::Miss)
}

/// [`cast_ray`], reporting bad input as an error.
///
/// # Errors
/// [`QueryError::NonFiniteInput`] for a NaN or infinite pose, ray, shape
/// parameter or `max_toi` (an infinite `max_toi` is allowed: no limit);
/// [`QueryError::NegativeMargin`] / [`QueryError::NegativeExtent`] for a
/// negative radius or half extent.
///
/// ```
/// use collide::{try_cast_ray, Cuboid, Ray, RayCast};
/// use collide::nalgebra::{Isometry3, Point3, Vector3};
/// let cube = Cuboid::new(Vector3::repeat(1.0));
/// let pose = Isometry3::translation(5.0, 0.0, 0.0);
/// let ray = Ray::new(Point3::origin(), Vector3::x());
/// match try_cast_ray(&cube, &pose, &ray, 100.0).unwrap() {
///     RayCast::Hit { toi, point, normal } => {
///         assert_eq!(toi, 4.0);
///         assert_eq!(point, Point3::new(4.0, 0.0, 0.0));
///         assert_eq!(normal.into_inner(), -Vector3::x());
///     }
///     other => panic!("{other:?}"),
/// }
/// // From the cube's centre: inside. Too short: a miss.
/// let inside = Ray::new(Point3::new(5.0, 0.0, 0.0), Vector3::y());
/// assert_eq!(try_cast_ray(&cube, &pose, &inside, 1.0).unwrap(), RayCast::StartsInside);
/// assert_eq!(try_cast_ray(&cube, &pose, &ray, 3.9).unwrap(), RayCast::Miss);
/// ```
pub fn try_cast_ray<S: CastRay + ?Sized>(
    shape: &S,
    pose: &Isometry3<f32>,
    ray: &Ray,
    max_toi: f32,
) -> Result<RayCast, QueryError> {
    if !ray_screen(pose, ray, max_toi) {
        check_ray_input(pose, ray, max_toi)?;
    }
    shape.try_cast_ray_at(pose, ray, max_toi)
}

/// The posed cast through the shape's frame: the ray moved in (its origin
/// relative to the pose, then both vectors rotated back), the local closed
/// form, and the answer taken out (the hit point recomputed on the world
/// ray, the normal rotated).
#[inline(always)]
pub(crate) fn cast_in_shape_frame<S: CastRay + ?Sized>(
    shape: &S,
    pose: &Isometry3<f32>,
    ray: &Ray,
    max_toi: f32,
) -> Result<RayCast, QueryError> {
    let rel_world = ray.origin - pose.translation.vector;
    let local = Ray {
        origin: Point3::from(pose.rotation.inverse_transform_vector(&rel_world.coords)),
        dir: pose.rotation.inverse_transform_vector(&ray.dir),
    };
    posed(shape.cast_local_ray(&local, max_toi), ray, |normal| world_normal(pose, normal, ray))
}

/// A cast's answer on the world ray `ray`: a hit's point recomputed as
/// `origin + toi · dir` on that ray (no round trip through the shape's
/// frame), its normal taken to the world by `normal_to_world`. The one
/// tail of every posed cast, the shape-frame one and the world-axes ones.
#[inline(always)]
fn posed(
    cast: LocalRayCast,
    ray: &Ray,
    normal_to_world: impl FnOnce(Vector3<f32>) -> Result<Unit<Vector3<f32>>, QueryError>,
) -> Result<RayCast, QueryError> {
    Ok(match cast {
        LocalRayCast::Hit { toi, normal } => {
            RayCast::Hit { toi, point: ray.point_at(toi), normal: normal_to_world(normal)? }
        }
        LocalRayCast::StartsInside => RayCast::StartsInside,
        LocalRayCast::Miss => RayCast::Miss,
    })
}

/// A local normal taken to the world and made unit. A local normal of
/// exactly unit length (a box face's) stays unit under the rotation, up to
/// rounding, so only others pay for the square root and the division.
#[inline(always)]
fn world_normal(
    pose: &Isometry3<f32>,
    normal: Vector3<f32>,
    ray: &Ray,
) -> Result<Unit<Vector3<f32>>, QueryError> {
    if normal.norm_squared() == 1.0 {
        Ok(Unit::new_unchecked(pose.rotation * normal))
    } else {
        unit_normal(pose.rotation * normal, ray)
    }
}

/// A cast computed in world axes whose normal is already unit (to f32
/// rounding), as the ball's and the capsule's closed forms give it: the
/// posed answer without a normalisation.
#[inline(always)]
pub(crate) fn world_cast_unit(cast: LocalRayCast, ray: &Ray) -> Result<RayCast, QueryError> {
    posed(cast, ray, |normal| Ok(Unit::new_unchecked(normal)))
}

/// `normal` made unit; a zero normal (which the closed forms avoid) falls
/// back to facing the ray.
#[inline(always)]
fn unit_normal(normal: Vector3<f32>, ray: &Ray) -> Result<Unit<Vector3<f32>>, QueryError> {
    Unit::try_new(normal, 0.0)
        .or_else(|| Unit::try_new(-ray.dir, 0.0))
        .ok_or(QueryError::NonFiniteInput)
}

/// A screen for a cast's numbers: true only if the pose's rotation, the
/// origin relative to the pose's translation (non-finite exactly when the
/// origin or the translation is, as ∞ − ∞ is NaN) and the direction are
/// finite and `max_toi` is not NaN.
///
/// A sum of finite numbers is finite unless it overflows, and one with an
/// infinity or a NaN among its terms is ±∞ or NaN, so one sum of the ten
/// numbers (added as a tree, so the additions do not wait on each other)
/// times zero is zero only for finite input; overflow on finite input only
/// fails the screen, and [`check_ray_input`] then decides. (This is the
/// screen of the pair queries' input check, in `input.rs`.)
#[inline(always)]
fn ray_screen(pose: &Isometry3<f32>, ray: &Ray, max_toi: f32) -> bool {
    let q = &pose.rotation.coords;
    let (o, d) = (&(ray.origin - pose.translation.vector).coords, &ray.dir);
    let sum = ((q.x + q.y) + (q.z + q.w)) + ((o.x + o.y) + (o.z + d.x)) + (d.y + d.z);
    (sum * 0.0 == 0.0) & !max_toi.is_nan()
}

/// The full check of a cast's numbers, run when [`ray_screen`] fails:
/// the pose, the ray and `max_toi` (which may be `+∞`, no limit).
#[cold]
fn check_ray_input(pose: &Isometry3<f32>, ray: &Ray, max_toi: f32) -> Result<(), QueryError> {
    let finite = |v: &[f32]| v.iter().all(|x| x.is_finite());
    if !finite(pose.translation.vector.as_slice())
        || !finite(pose.rotation.coords.as_slice())
        || !finite(ray.origin.coords.as_slice())
        || !finite(ray.dir.as_slice())
        || max_toi.is_nan()
    {
        return Err(QueryError::NonFiniteInput);
    }
    Ok(())
}

impl CastRay for Shape {
    #[inline]
    fn cast_local_ray(&self, ray: &Ray, max_toi: f32) -> LocalRayCast {
        match self {
            Shape::Sphere(s) => s.cast_local_ray(ray, max_toi),
            Shape::Cuboid(s) => s.cast_local_ray(ray, max_toi),
            Shape::Capsule(s) => s.cast_local_ray(ray, max_toi),
            Shape::ConvexHull(s) => s.cast_local_ray(ray, max_toi),
            Shape::Cylinder(s) => s.cast_local_ray(ray, max_toi),
            Shape::Cone(s) => s.cast_local_ray(ray, max_toi),
            Shape::Triangle(s) => s.cast_local_ray(ray, max_toi),
            Shape::Segment(s) => s.cast_local_ray(ray, max_toi),
            Shape::Rounded(s) => (**s).cast_local_ray(ray, max_toi),
            Shape::Custom(s) => s.cast_local_ray(ray, max_toi),
            Shape::TriMesh(_) | Shape::HeightField(_) | Shape::Compound(_) => {
                match crate::composite::CompositeRef::of(self) {
                    Some(c) => crate::composite::cast_local(c, ray, max_toi).0,
                    None => LocalRayCast::Miss,
                }
            }
        }
    }

    // One match picks the kind for both the shape's check and its cast;
    // the kinds without a specialised check take the default (three
    // dispatches).
    #[inline]
    fn try_cast_ray_at(
        &self,
        pose: &Isometry3<f32>,
        ray: &Ray,
        max_toi: f32,
    ) -> Result<RayCast, QueryError> {
        match self {
            Shape::Sphere(s) => s.try_cast_ray_at(pose, ray, max_toi),
            Shape::Cuboid(s) => s.try_cast_ray_at(pose, ray, max_toi),
            Shape::Capsule(s) => s.try_cast_ray_at(pose, ray, max_toi),
            Shape::ConvexHull(s) => s.try_cast_ray_at(pose, ray, max_toi),
            Shape::Cylinder(s) => s.try_cast_ray_at(pose, ray, max_toi),
            Shape::Cone(s) => s.try_cast_ray_at(pose, ray, max_toi),
            Shape::Rounded(s) => (**s).try_cast_ray_at(pose, ray, max_toi),
            _ => {
                check_shape(self)?;
                cast_in_shape_frame(self, pose, ray, max_toi)
            }
        }
    }
}

// Rounded shapes take the GJK cast on their core (the radius added
// exactly); the other kinds have closed forms in their own files.
impl<S: SupportMap> CastRay for crate::shape::Rounded<S> {}

impl<T: CastRay + ?Sized> CastRay for &T {
    #[inline]
    fn cast_local_ray(&self, ray: &Ray, max_toi: f32) -> LocalRayCast {
        (**self).cast_local_ray(ray, max_toi)
    }
    #[inline]
    fn try_cast_ray_at(
        &self,
        pose: &Isometry3<f32>,
        ray: &Ray,
        max_toi: f32,
    ) -> Result<RayCast, QueryError> {
        (**self).try_cast_ray_at(pose, ray, max_toi)
    }
}
