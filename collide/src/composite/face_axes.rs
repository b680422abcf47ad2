//! A triangle of a mesh or heightfield proven farther than the prediction
//! distance from a small hull by a face axis, before any collision query:
//! the hull's face planes (moved to the world once for a whole walk) and
//! the triangle's side planes.
//!
//! Method: the separating-axis theorem for two convex polytopes (Ericson,
//! *Real-Time Collision Detection*, §5.2.1; Gregorius, "The Separating
//! Axis Test between Convex Polyhedra", GDC 2013), as box3d's triangle–hull
//! manifold (`manifold.c`) runs it: the gap between the two shapes'
//! projections on any unit axis is a lower bound on their distance, so a
//! gap wider than the prediction proves that GJK will find them farther
//! apart than it, and that the pair gives no manifold. Departures: only
//! the face axes of the hull and the side planes of the triangle are
//! tried (the triangle's own normal is the walk's plane test, see
//! `pairs`; the edge–edge axes, which box3d prunes with the Gauss map, are
//! left to GJK), and only for rejection: a pair no axis here separates
//! takes the collision query exactly as before, so the manifolds are the
//! same bit for bit.
//!
//! On the `trees` scene's wave mesh, a quarter of the triangles with an
//! active edge that a prism's walk visits are farther from it than the
//! prediction, and these axes prove it for about three in five of those.

use arrayvec::ArrayVec;
use nalgebra::{Isometry3, Point3, Vector3};

use super::hull_corners::HullCorners;
use crate::manifold::CLIP_FRACTION;
use crate::shape::Shape;

/// Hulls with at most this many faces have their face planes moved to
/// the world for the walk (8 for the `trees` scene's hexagonal prisms);
/// a hull with more (at most 60 for the 32 vertices of
/// [`MAX_CULLED_HULL_VERTICES`](super::hull_corners::MAX_CULLED_HULL_VERTICES))
/// would cost more per triangle than the queries it spares.
pub(crate) const MAX_FACE_AXES: usize = 16;

/// A gap must exceed the prediction by this fraction of the pair's size
/// (its [`shape_scale`](crate::manifold::shape_scale)) to reject: twice
/// the clip tolerance, 1 mm on a unit pair. It covers the rounding of the
/// planes moved to the world (about 1e-7 of the coordinates' magnitude,
/// 10 µm at the `trees` scene's 75 m) and of GJK's distance (an upper
/// bound on the true one, converged to far finer than this), so that no
/// pair GJK would have found within the prediction is rejected.
const GAP_TOLERANCE_FRACTION: f32 = 2.0 * CLIP_FRACTION;

/// A small hull's face planes in the world frame: outward unit normals
/// and offsets (`normal · x = offset` on the face).
#[derive(Clone, Debug)]
pub(crate) struct HullPlanes {
    planes: ArrayVec<(Vector3<f32>, f32), MAX_FACE_AXES>,
}

impl HullPlanes {
    /// The face planes of `shape` at `pose`, if it is a hull of at most
    /// [`MAX_FACE_AXES`] faces.
    pub(crate) fn of(shape: &Shape, pose: &Isometry3<f32>) -> Option<Self> {
        let Shape::ConvexHull(h) = shape else {
            return None;
        };
        if h.faces().len() > MAX_FACE_AXES {
            return None;
        }
        let planes = h
            .faces()
            .iter()
            .map(|f| {
                let normal = pose.rotation * f.normal.into_inner();
                (normal, f.offset + normal.dot(&pose.translation.vector))
            })
            .collect();
        Some(Self { planes })
    }
}

/// Whether a face axis separates the hull of world `corners` and face
/// `planes` from the triangle `tri` (world, unit normal `normal`) by more
/// than `margin` (plus [`GAP_TOLERANCE_FRACTION`] of `scale`, the pair's
/// size): every corner of the triangle beyond one of the hull's face
/// planes, or every corner of the hull beyond one of the triangle's side
/// planes (the plane through an edge containing `normal`, facing away
/// from the opposite corner). Written so that NaN rejects nothing.
pub(crate) fn beyond_a_face_axis(
    corners: &HullCorners,
    planes: &HullPlanes,
    tri: &[Point3<f32>; 3],
    normal: &Vector3<f32>,
    margin: f32,
    scale: f32,
) -> bool {
    let limit = margin + GAP_TOLERANCE_FRACTION * scale;
    // The hull's faces first: three dot products each, and on the `trees`
    // scene they reject more often than the triangle's sides.
    let beyond_a_face = planes
        .planes
        .iter()
        .any(|(n, offset)| tri.iter().all(|c| n.dot(&c.coords) - offset > limit));
    if beyond_a_face {
        return true;
    }
    (0..3).any(|k| {
        let (p0, p1, opposite) = (tri[k], tri[(k + 1) % 3], tri[(k + 2) % 3]);
        let Some(mut side) = (p1 - p0).cross(normal).try_normalize(0.0) else {
            return false;
        };
        if side.dot(&(opposite - p0)) > 0.0 {
            side = -side;
        }
        // The triangle reaches `side · p0` along `side` (its edge); the
        // hull starts at its nearest corner.
        corners.iter().all(|v| side.dot(&(v - p0)) > limit)
    })
}

#[cfg(test)]
mod tests;
