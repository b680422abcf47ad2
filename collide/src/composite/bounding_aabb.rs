//! A box around a shape at a pose that is cheap rather than tight, for
//! culling: a composite's own box in its frame, turned into the world
//! (the axis-aligned box of that oriented box, `|R| · half extents` about
//! the turned centre), instead of its exact box, which visits every part
//! (a compound) or every vertex of its hull (a mesh). A convex shape's box
//! is its exact one, which costs a few support points.
//!
//! A looser box only lets more candidates through a box test; it never
//! drops one, so every query that culls with it answers as with the exact
//! box.

use nalgebra::Isometry3;

use super::CompositeRef;
use crate::aabb::Aabb;
use crate::shape::Shape;
use crate::support_map::SupportMap;

/// A box holding `shape` at `pose`: exact for a convex shape, for a mesh,
/// heightfield or compound its local box turned by the pose (exact when
/// the pose does not rotate). Cheaper than
/// [`Shape::aabb`](crate::SupportMap::aabb) for a composite, at most
/// `√3` times as wide on each axis.
///
/// ```
/// use collide::composite::{Compound, bounding_aabb};
/// use collide::{Cuboid, Shape, SupportMap};
/// use collide::nalgebra::{Isometry3, Vector3};
/// let cube: Shape = Cuboid::new(Vector3::repeat(0.5)).into();
/// let pair: Shape = Compound::try_new(vec![
///     (cube.clone(), Isometry3::identity()),
///     (cube, Isometry3::translation(2.0, 0.0, 0.0)),
/// ])
/// .unwrap()
/// .into();
/// let pose = Isometry3::new(Vector3::new(0.0, 1.0, 0.0), Vector3::new(0.3, 0.2, 0.1));
/// let (loose, exact) = (bounding_aabb(&pair, &pose), pair.aabb(&pose));
/// // Looser than the exact box (to rounding), never tighter.
/// assert!(loose.expanded(1e-5).contains(&exact));
/// ```
pub fn bounding_aabb(shape: &Shape, pose: &Isometry3<f32>) -> Aabb {
    match CompositeRef::of(shape) {
        Some(composite) => turned_box(&composite.local_aabb(), pose),
        None => shape.aabb(pose),
    }
}

/// The axis-aligned box of `local` (a box in a frame) placed at `pose`.
pub(crate) fn turned_box(local: &Aabb, pose: &Isometry3<f32>) -> Aabb {
    let centre = pose * local.center();
    let rotation = pose.rotation.to_rotation_matrix();
    let half = rotation.matrix().abs() * local.half_extents();
    Aabb::new(centre - half, centre + half)
}

#[cfg(test)]
mod tests {
    use nalgebra::{Point3, Vector3};

    use super::*;
    use crate::composite::TriMesh;

    /// The oracle: the box of the eight turned corners, brute force.
    fn corners_box(local: &Aabb, pose: &Isometry3<f32>) -> Aabb {
        let mut lo = Point3::from(Vector3::repeat(f32::INFINITY));
        let mut hi = Point3::from(Vector3::repeat(f32::NEG_INFINITY));
        for k in 0..8 {
            let pick = |bit: usize, axis: usize| {
                if k & bit == 0 { local.min[axis] } else { local.max[axis] }
            };
            let p = pose * Point3::new(pick(1, 0), pick(2, 1), pick(4, 2));
            lo = lo.inf(&p);
            hi = hi.sup(&p);
        }
        Aabb::new(lo, hi)
    }

    #[test]
    fn a_turned_box_is_the_box_of_its_turned_corners_and_holds_the_exact_box() {
        let mesh: Shape = TriMesh::try_new(
            vec![
                Point3::new(-3.0, 0.1, -1.0),
                Point3::new(-3.0, -0.2, 2.0),
                Point3::new(4.0, 0.3, 2.0),
                Point3::new(4.0, 0.0, -1.0),
            ],
            vec![[0, 1, 2], [2, 3, 0]],
        )
        .unwrap()
        .into();
        let local = CompositeRef::of(&mesh).unwrap().local_aabb();
        for (i, axis) in
            [Vector3::zeros(), Vector3::new(0.4, -1.3, 2.2), Vector3::new(-2.9, 0.1, 0.7)]
                .iter()
                .enumerate()
        {
            let pose = Isometry3::new(Vector3::new(i as f32, -5.0, 100.0), *axis);
            let (loose, oracle) = (bounding_aabb(&mesh, &pose), corners_box(&local, &pose));
            assert!((loose.min - oracle.min).norm() < 1e-4, "{loose:?} {oracle:?}");
            assert!((loose.max - oracle.max).norm() < 1e-4, "{loose:?} {oracle:?}");
            let exact = mesh.aabb(&pose);
            assert!(loose.expanded(1e-4).contains(&exact), "{loose:?} {exact:?}");
        }
    }
}
