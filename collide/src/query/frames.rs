//! Frame changes written out so that they are always inlined and give
//! nalgebra's bits: B's pose in A's frame, and a quaternion rotation. Every
//! query that moves B into A's frame or a result back to the world uses
//! these, so results do not depend on which path computed them.

use nalgebra::{Isometry3, UnitQuaternion, Vector3};

/// B's pose in A's frame: `pose_a.inv_mul(pose_b)` written out, the same
/// operations in the same order (so the same bits), but always inlined:
/// nalgebra's is a call whose result comes back through the stack, about a
/// sixth of a separated box pair's verdict.
#[inline(always)]
pub(crate) fn b_in_a(pose_a: &Isometry3<f32>, pose_b: &Isometry3<f32>) -> Isometry3<f32> {
    let inv_rot_a = pose_a.rotation.inverse();
    let a_to_b = pose_b.translation.vector - pose_a.translation.vector;
    Isometry3::from_parts(inv_rot_a.transform_vector(&a_to_b).into(), inv_rot_a * pose_b.rotation)
}

/// `q * v` for a unit quaternion as nalgebra computes it (the same
/// operations in the same order, so the same bits), but always inlined:
/// nalgebra's was left as a call, a quarter of a sphere–box distance query.
#[inline(always)]
pub(crate) fn rotate(q: &UnitQuaternion<f32>, v: &Vector3<f32>) -> Vector3<f32> {
    let u = q.as_ref().vector();
    let cross = |a: &Vector3<f32>, b: &Vector3<f32>| {
        Vector3::new(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x)
    };
    let u = Vector3::new(u.x, u.y, u.z);
    let t = cross(&u, v) * 2.0;
    t * q.as_ref().scalar() + cross(&u, &t) + v
}

#[cfg(test)]
mod tests {
    use super::*;
    use nalgebra::{Point3, Translation3};

    /// A deterministic spread of unit quaternions and vectors.
    fn samples() -> impl Iterator<Item = (UnitQuaternion<f32>, Vector3<f32>)> {
        let mut next = crate::test_stream::stream(0x9E37_79B9);
        (0..2000).map(move |_| {
            let axis = Vector3::new(next(), next(), next());
            let q = UnitQuaternion::from_scaled_axis(axis * 3.0);
            (q, Vector3::new(next(), next(), next()) * 1e3 * next())
        })
    }

    /// The inlined copies promise nalgebra's bits, so that results (and the
    /// sandbox's pose hashes) do not depend on which one ran.
    #[test]
    fn the_inlined_rotation_and_relative_pose_equal_nalgebras_bit_for_bit() {
        for (q, v) in samples() {
            assert_eq!(rotate(&q, &v), q * v, "{q:?} {v:?}");
            let a = Isometry3::from_parts(Translation3::from(v), q);
            let b = Isometry3::from_parts(Translation3::from(v.yzx() * 0.5), q * q);
            let (ours, theirs) = (b_in_a(&a, &b), a.inv_mul(&b));
            assert_eq!(ours.translation, theirs.translation);
            assert_eq!(ours.rotation.coords, theirs.rotation.coords);
            let p = Point3::from(v.zxy() * 0.25);
            assert_eq!(Point3::from(rotate(&a.rotation, &p.coords) + a.translation.vector), a * p);
        }
    }
}
