//! Users' own convex shapes as members of [`Shape`](crate::Shape): any type
//! with a support function, shared behind an `Arc`.

use std::fmt;

use crate::mass_properties::MassProperties;
use crate::query::CastRay;

/// A convex shape defined outside this crate, which can be stored in a
/// [`Shape::Custom`](crate::Shape::Custom) and so join every query and a
/// physics world's bodies.
///
/// It needs three impls:
/// * [`SupportMap`](crate::SupportMap): the support function, the one
///   required method (plus, for a rounded shape, its margin and core);
/// * [`CastRay`]: empty to take the default, a ray cast by GJK on the
///   support function (van den Bergen's method, as shape casts use), or a
///   closed form of your own;
/// * `CustomShape` itself: empty to take the defaults, or with
///   [`mass_properties`](CustomShape::mass_properties) for exact mass.
///
/// Its box comes from [`SupportMap::aabb`](crate::SupportMap::aabb), exact
/// by default.
///
/// ```
/// use std::sync::Arc;
/// use collide::{CastRay, CustomShape, Shape, SupportMap, Sphere, intersects};
/// use collide::nalgebra::{Isometry3, Point3, Vector3};
///
/// /// A cylinder along Y, written by a user.
/// #[derive(Debug)]
/// struct MyCylinder { half_height: f32, radius: f32 }
/// impl SupportMap for MyCylinder {
///     fn local_support(&self, d: &Vector3<f32>) -> Point3<f32> {
///         let radial = (d.x * d.x + d.z * d.z).sqrt();
///         let s = if radial > 0.0 { self.radius / radial } else { 0.0 };
///         Point3::new(d.x * s, self.half_height.copysign(d.y), d.z * s)
///     }
/// }
/// impl CastRay for MyCylinder {}
/// impl CustomShape for MyCylinder {}
///
/// let mine = Shape::Custom(Arc::new(MyCylinder { half_height: 1.0, radius: 0.5 }));
/// let ball: Shape = Sphere::new(0.5).into();
/// assert!(intersects(&mine, &Isometry3::identity(), &ball, &Isometry3::translation(0.9, 0.0, 0.0)));
/// assert!(!intersects(&mine, &Isometry3::identity(), &ball, &Isometry3::translation(1.1, 0.0, 0.0)));
/// ```
pub trait CustomShape: CastRay + Send + Sync + fmt::Debug {
    /// The shape's mass properties at `density` (kg/m³), in its own frame,
    /// if you know them. The default `None` makes
    /// [`MassProperties::from_shape`] take the numerical fallback,
    /// [`MassProperties::from_support`].
    fn mass_properties(&self, density: f32) -> Option<MassProperties> {
        let _ = density;
        None
    }
}
