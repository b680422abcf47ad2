//! A body's thickness: half its smallest width, which bounds how far it
//! can move in a step before it could have crossed a thin wall unseen. The
//! body storage keeps it per body (`BodyRecord::min_extent`), and the
//! sweep of fast bodies reads it there.

use collide::nalgebra::Vector3;
use collide::{Shape, SupportMap};

/// Directions over which a body's thinnest half-width is taken: the axes,
/// the face diagonals and the body diagonals of the shape's frame.
const WIDTH_DIRECTIONS: [[f32; 3]; 13] = [
    [1.0, 0.0, 0.0],
    [0.0, 1.0, 0.0],
    [0.0, 0.0, 1.0],
    [1.0, 1.0, 0.0],
    [1.0, -1.0, 0.0],
    [1.0, 0.0, 1.0],
    [1.0, 0.0, -1.0],
    [0.0, 1.0, 1.0],
    [0.0, 1.0, -1.0],
    [1.0, 1.0, 1.0],
    [1.0, 1.0, -1.0],
    [1.0, -1.0, 1.0],
    [-1.0, 1.0, 1.0],
];

/// Half the smallest width of `shape` over [`WIDTH_DIRECTIONS`]: an upper
/// bound on its half-thickness, about how far it can move before it could
/// have crossed a thin wall unseen (a plate's half-thickness, a sphere's
/// radius).
pub(crate) fn thinnest_half_width(shape: &Shape) -> f32 {
    match shape {
        // A compound is as thin as its thinnest part.
        Shape::Compound(c) => {
            let parts = c.parts().iter().map(|(part, _)| thinnest_half_width(part));
            return parts.fold(f32::INFINITY, f32::min);
        }
        // A mesh or a heightfield (fixed or kinematic only) is a surface:
        // whether a body crosses it unseen depends on that body's own
        // thickness, which a pair takes as its thinnest.
        Shape::TriMesh(_) | Shape::HeightField(_) => return f32::INFINITY,
        _ => {}
    }
    WIDTH_DIRECTIONS
        .iter()
        .map(|d| {
            let d = Vector3::from(*d).normalize();
            0.5 * (shape.local_support(&d) - shape.local_support(&-d)).dot(&d)
        })
        .fold(f32::INFINITY, f32::min)
}
