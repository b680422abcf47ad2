//! A shape's *core* (the shape without its margin) when it is one of the
//! simple kinds the queries have exact closed forms for: a point (a
//! sphere), a segment (a capsule) or an axis-aligned box (a cuboid).
//!
//! A query asks each shape for its core once, with one call, and picks its
//! path from the pair of answers: a closed form for point, segment and box
//! pairs, GJK/EPA on the support functions for everything else. Asking once
//! matters for the smallest pairs, where the answer costs a few dozen
//! instructions and a query that asked
//! [`core_segment`](crate::SupportMap::core_segment) and
//! [`core_box`](crate::SupportMap::core_box) of each shape separately,
//! through an enum dispatch each, spent more on asking than on answering.
//! ([`Core::from_parts`] lives in `support_map.rs`, beside the trait it
//! reads.)

use nalgebra::{Point3, Vector3};

use crate::finite::all_finite;

/// What a shape's core is, in the shape's own frame.
///
/// ```
/// use collide::{Capsule, ConvexHull, Core, Cuboid, Shape, Sphere, SupportMap};
/// use collide::nalgebra::{Point3, Vector3};
/// let ball: Shape = Sphere::new(0.5).into();
/// assert_eq!(ball.core(), Core::Point(Point3::origin()));
/// let half = Vector3::new(1.0, 2.0, 3.0);
/// assert_eq!(Cuboid::new(half).core(), Core::Box(half));
/// assert!(matches!(Capsule::new(1.0, 0.5).core(), Core::Segment(_)));
/// let tetra = ConvexHull::new(&[
///     Point3::origin(), Point3::new(1.0, 0.0, 0.0), Point3::new(0.0, 1.0, 0.0), Point3::new(0.0, 0.0, 1.0),
/// ]).unwrap();
/// assert_eq!(tetra.core(), Core::General);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub enum Core {
    /// A single point (a sphere's centre).
    Point(Point3<f32>),
    /// A segment `[start, end]` with distinct ends (a capsule's axis).
    Segment([Point3<f32>; 2]),
    /// A box centred on the local origin and aligned with the local axes,
    /// given by its half extents.
    Box(Vector3<f32>),
    /// Any other convex set: only its support function is known.
    General,
}

impl Core {
    /// Whether the core's numbers (coordinates, half extents) are finite.
    #[inline(always)]
    pub(crate) fn is_finite(&self) -> bool {
        match self {
            Core::Point(p) => all_finite(p.coords.as_slice()),
            Core::Segment([p, q]) => {
                all_finite(p.coords.as_slice()) & all_finite(q.coords.as_slice())
            }
            Core::Box(h) => all_finite(h.as_slice()),
            Core::General => true,
        }
    }
}
