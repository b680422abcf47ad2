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
        // A cuboid's thinnest direction among them is an axis, where the
        // half-width is the half extent exactly: along a unit `d`, the
        // half-width is `Σ |d_k| h_k >= min h · Σ |d_k| >= min h`, and a
        // diagonal's is at least `√2 · min h` (face) or `√3 · min h`
        // (body), far above any rounding. So the smallest half extent is
        // the support sweep's answer bit for bit, without its 26 support
        // calls (a million fixed tiles spent a third of their creation
        // time there).
        Shape::Cuboid(c) => {
            let h = c.half_extents;
            return f32::INFINITY.min(h.x).min(h.y).min(h.z);
        }
        _ => {}
    }
    half_width_by_support(shape)
}

/// Half the smallest width of `shape` over [`WIDTH_DIRECTIONS`], from its
/// support points in each direction and its opposite.
fn half_width_by_support(shape: &Shape) -> f32 {
    WIDTH_DIRECTIONS
        .iter()
        .map(|d| {
            let d = Vector3::from(*d).normalize();
            0.5 * (shape.local_support(&d) - shape.local_support(&-d)).dot(&d)
        })
        .fold(f32::INFINITY, f32::min)
}

#[cfg(test)]
mod tests {
    use collide::Cuboid;

    use super::*;
    use crate::rng::Lcg;

    /// The cuboid's closed form gives the support sweep's answer, bit for
    /// bit: on cubes, plates, rods and random boxes from 1e-3 to 1e3.
    #[test]
    fn cuboid_half_width_is_the_support_sweeps_bit_for_bit() {
        let mut rng = Lcg(39);
        let mut cases = vec![
            Vector3::new(0.5, 0.5, 0.5),
            Vector3::new(5.0, 0.25, 5.0),
            Vector3::new(1.0e-3, 1.0e3, 1.0e3),
            Vector3::new(1.0e3, 1.0e3, 1.0e-3),
            Vector3::new(0.3, 0.3000001, 0.2999999),
        ];
        for _ in 0..1000 {
            let size = |rng: &mut Lcg| 10f32.powf(rng.range(-3.0, 3.0));
            cases.push(Vector3::new(size(&mut rng), size(&mut rng), size(&mut rng)));
        }
        for h in cases {
            let cuboid: Shape = Cuboid::new(h).into();
            let closed = thinnest_half_width(&cuboid);
            let swept = half_width_by_support(&cuboid);
            assert_eq!(closed.to_bits(), swept.to_bits(), "half extents {h:?}");
        }
    }
}
