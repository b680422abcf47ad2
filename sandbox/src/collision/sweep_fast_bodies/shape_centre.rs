//! The point the continuous stage tests for "this shape passed through
//! that one": a point inside the shape that met the other, not the centre
//! of mass of its body. For a body of one convex shape the two are the
//! same point (its centre of mass lies inside its shape), and that body's
//! centre is used as before, to the bit. For a body of several shapes the
//! centre of mass need not lie in the shape that met anything, nor on its
//! side of a plane of impact: `washer`'s drum is a ring of 36 wall hulls
//! about an empty middle, and its centre of mass sits on the drum's axis,
//! on the side of every wall where the cubes are. Tested against the plane
//! where a cube met a wall, the drum's centre read as "behind the plane",
//! a drum that had passed through the cube, and the cube went back by up
//! to half a step though nothing had passed (issue 39's washer, session
//! 27's diagnosis: 56 such moves in 200 steps at size 10).
//!
//! The point of a convex shape taken here is a convex combination of its
//! points, so it lies in the shape: the mean of a hull's vertices, the
//! origin of the kinds that are symmetric about it (ball, box, capsule,
//! cylinder, cone), the inner shape's point for a rounded one, and for any
//! other convex kind the mean of its six axis support points. A composite
//! (a mesh, a heightfield, a compound shape) has no inside: its body's
//! centre of mass is kept.

use collide::nalgebra::{Isometry3, Point3, Vector3};
use collide::{Shape, SupportMap};

use crate::body::storage::Bodies;

/// A point inside shape slot `k` of body `i`, the body at `pose`, world
/// frame: the body's centre of mass for a body of one shape, else the
/// shape's own inner point (see the module docs).
pub(crate) fn shape_centre(
    bodies: &Bodies,
    i: usize,
    k: usize,
    pose: &Isometry3<f32>,
) -> Point3<f32> {
    let body_centre = || pose * bodies.records[i].mass.local_center;
    if bodies.shape_ranges[i].count == 1 {
        return body_centre();
    }
    let shapes = &bodies.shapes;
    match inner_point(&shapes.shapes[k]) {
        Some(local) => shapes.world_pose(k, pose) * local,
        None => body_centre(),
    }
}

/// A point inside a convex shape, in its own frame; `None` for a composite.
fn inner_point(shape: &Shape) -> Option<Point3<f32>> {
    match shape {
        Shape::Sphere(_) | Shape::Cuboid(_) | Shape::Capsule(_) | Shape::Cylinder(_) => {
            Some(Point3::origin())
        }
        // Along local Y, apex up, from -h to h: the origin is on its axis
        // halfway up, inside.
        Shape::Cone(_) => Some(Point3::origin()),
        Shape::ConvexHull(hull) => {
            let vertices = hull.vertices();
            let sum = vertices.iter().fold(Vector3::zeros(), |s, v| s + v.coords);
            Some(Point3::from(sum / vertices.len().max(1) as f32))
        }
        Shape::Rounded(rounded) => inner_point(&rounded.inner),
        _ if shape.is_composite() => None,
        _ => {
            let axes = [Vector3::x(), Vector3::y(), Vector3::z()];
            let sum = axes.iter().fold(Vector3::zeros(), |s, d| {
                s + shape.local_support(d).coords + shape.local_support(&-d).coords
            });
            Some(Point3::from(sum / 6.0))
        }
    }
}
