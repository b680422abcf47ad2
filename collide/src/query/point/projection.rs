//! What a point projection reports: the nearest point of the shape, whether
//! the query point is inside, the feature the nearest point lies on, and
//! whether the answer is exact.

use nalgebra::{Isometry3, Point3};

/// One end of a shape built along its local Y axis (a capsule, a cylinder,
/// a cone).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum End {
    /// The end at `-half_height` on local Y.
    Bottom,
    /// The end at `+half_height` on local Y.
    Top,
}

/// The feature of a shape that a projected point lies on.
///
/// Polyhedral shapes name their vertices, edges and faces by index:
///
/// * a [`ConvexHull`](crate::ConvexHull) by indices into its
///   [`vertices`](crate::ConvexHull::vertices) and
///   [`faces`](crate::ConvexHull::faces);
/// * a [`Cuboid`](crate::Cuboid) by its corners' indices in
///   [`Cuboid::corners`](crate::Cuboid::corners) (bit `k` of a corner's
///   index set means the positive side on axis `k`) and by face indices
///   `2·axis + 1` for the face on the positive side of `axis` (0 = X,
///   1 = Y, 2 = Z) and `2·axis` for the negative side.
///
/// An [`Edge`](PointFeature::Edge) lists its two vertices in increasing
/// order, so an edge has one name whichever face it was reached from.
///
/// Round shapes name their smooth pieces: a sphere is all
/// [`Side`](PointFeature::Side); a capsule has a `Side` (the cylinder) and
/// two hemispherical [`Cap`](PointFeature::Cap)s.
///
/// A projection lands on the *closed* feature: a point on a face's border
/// may be reported as the face. On shapes this crate does not know (a
/// user's [`SupportMap`](crate::SupportMap)) the feature is
/// [`Boundary`](PointFeature::Boundary).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum PointFeature {
    /// The query point itself, inside a solid shape (only when the
    /// projection was asked for with `solid = true`).
    Interior,
    /// A vertex, by index.
    Vertex(u32),
    /// An edge, by its two vertex indices, smaller first.
    Edge([u32; 2]),
    /// A planar face, by index.
    Face(u32),
    /// The curved side of a round shape: the whole surface of a sphere, the
    /// cylindrical part of a capsule.
    Side,
    /// An end cap of a shape along local Y: a capsule's hemisphere.
    Cap(End),
    /// The circle where a flat cap meets a curved side.
    Rim(End),
    /// A cone's tip.
    Apex,
    /// Some point of the surface of a shape that names no features (a
    /// user's [`SupportMap`](crate::SupportMap), answered by GJK/EPA).
    Boundary,
}

/// How exact a [`PointProjection`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ProjectionStatus {
    /// Exact to f32 rounding: a closed form, or GJK/EPA run to
    /// convergence.
    Exact,
    /// GJK or EPA stopped at its iteration cap or capacity; the point is
    /// the best estimate found.
    IterationLimit,
    /// GJK or EPA stopped because rounding made further progress
    /// impossible; the point is the best estimate found.
    NumericalLimit,
    /// The input was not valid (non-finite, or a negative size) and the
    /// point is NaN: only from the bare [`project_point`](crate::project_point),
    /// whose `try_` form reports the error instead.
    InvalidInput,
}

/// The point of a shape nearest a query point, in the world frame.
///
/// See [`project_point`](crate::project_point).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PointProjection {
    /// The projected point, world frame: the nearest point of the shape's
    /// surface, or the query point itself when it is inside and the
    /// projection is solid.
    pub point: Point3<f32>,
    /// Whether the query point lies in the closed shape (inside it or on
    /// its surface, as computed in f32 in the shape's frame).
    pub is_inside: bool,
    /// The feature [`point`](PointProjection::point) lies on.
    pub feature: PointFeature,
    /// Whether the answer is exact.
    pub status: ProjectionStatus,
}

impl PointProjection {
    /// An exact projection onto `feature` at `point`.
    #[inline]
    pub(crate) fn exact(point: Point3<f32>, is_inside: bool, feature: PointFeature) -> Self {
        Self { point, is_inside, feature, status: ProjectionStatus::Exact }
    }

    /// The query point itself, inside a solid shape.
    #[inline]
    pub(crate) fn interior(point: Point3<f32>) -> Self {
        Self::exact(point, true, PointFeature::Interior)
    }

    /// This projection, made in the shape's frame, taken to the world.
    #[inline]
    pub(crate) fn to_world(self, pose: &Isometry3<f32>) -> Self {
        Self { point: pose * self.point, ..self }
    }
}
