//! A body's mass properties from its shapes': each shape's mass, centre
//! and inertia ([`MassProperties::from_shape`]) moved into the body's frame
//! (the centre by the shape's pose, the inertia tensor turned by its
//! rotation, `R I Rᵀ`), then summed about the common centre of mass by the
//! parallel-axis theorem: `I = Σ (I_k + m_k (|d_k|² E − d_k d_kᵀ))` with
//! `d_k` the shape's centre less the body's. The body's frame stays the
//! user's frame; the centre of mass is `local_center` in it.

use collide::MassProperties;
use collide::nalgebra::{Matrix3, Point3, Vector3};

use crate::body::body_shape::BodyShape;

/// The mass properties of `shapes` together, each filled with its own
/// density, in the body's frame. A single shape at the body's origin gives
/// exactly (bit for bit) [`MassProperties::from_shape`]'s answer.
pub(crate) fn combined_mass(shapes: &[BodyShape]) -> MassProperties {
    if let [only] = shapes
        && only.local_pose == collide::nalgebra::Isometry3::identity()
    {
        return MassProperties::from_shape(&only.shape, only.density);
    }
    let parts = shapes.iter().map(|s| {
        let own = MassProperties::from_shape(&s.shape, s.density);
        let rotation = s.local_pose.rotation.to_rotation_matrix();
        let center = s.local_pose * own.local_center;
        let inertia = rotation.matrix() * own.inertia * rotation.matrix().transpose();
        (own.mass, center, inertia)
    });
    let mass: f32 = parts.clone().map(|(m, _, _)| m).sum();
    let weighted: Vector3<f32> = parts.clone().map(|(m, c, _)| c.coords * m).sum();
    // A body of no mass (all flat shapes) keeps its centre at its origin;
    // the world refuses it as dynamic anyway.
    let center = if mass > 0.0 { Point3::from(weighted / mass) } else { Point3::origin() };
    let inertia = parts
        .map(|(m, c, inertia)| {
            let d = c - center;
            inertia + (Matrix3::identity() * d.norm_squared() - d * d.transpose()) * m
        })
        .sum();
    MassProperties { mass, local_center: center, inertia }
}

#[cfg(test)]
mod tests {
    use super::*;
    use collide::Cuboid;
    use collide::nalgebra::{UnitQuaternion, Vector3};

    /// A box's inertia about its centre, closed form: m (b² + c²) / 3 etc.
    /// for half extents (a, b, c).
    fn box_inertia(m: f64, h: [f64; 3]) -> [f64; 3] {
        let [a, b, c] = h.map(|x| x * x);
        [m * (b + c) / 3.0, m * (a + c) / 3.0, m * (a + b) / 3.0]
    }

    #[test]
    fn one_shape_at_the_origin_is_from_shape_bit_for_bit() {
        let s = BodyShape::new(Cuboid::new(Vector3::new(0.3, 0.7, 1.1)).into()).with_density(7.0);
        assert_eq!(
            combined_mass(std::slice::from_ref(&s)),
            MassProperties::from_shape(&s.shape, 7.0)
        );
    }

    #[test]
    fn two_halves_of_a_box_make_the_box() {
        // A 2 × 1 × 1 box as two unit cubes side by side, one turned a
        // quarter about x (a cube looks the same turned).
        let cube = || BodyShape::new(Cuboid::new(Vector3::repeat(0.5)).into());
        let halves = [
            cube().with_position(Vector3::new(-0.5, 2.0, 0.0)),
            cube()
                .with_position(Vector3::new(0.5, 2.0, 0.0))
                .with_rotation(UnitQuaternion::from_euler_angles(1.5707964, 0.0, 0.0)),
        ];
        let m = combined_mass(&halves);
        let whole = box_inertia(2000.0, [1.0, 0.5, 0.5]);
        assert!((m.mass - 2000.0).abs() < 1e-2);
        assert!((m.local_center - Point3::new(0.0, 2.0, 0.0)).norm() < 1e-5);
        for (i, want) in whole.iter().enumerate() {
            assert!((f64::from(m.inertia[(i, i)]) - want).abs() < 1e-2, "{i}: {m:?}");
        }
        assert!(m.inertia.iter().enumerate().all(|(k, x)| k % 4 == 0 || x.abs() < 1e-2));
    }
}
