//! Closed-form answers for sphere–sphere and sphere–box pairs.
//!
//! Sphere–sphere: the centres' distance minus the radii. Sphere–box: clamp the
//! sphere's centre into the box in the box's frame (Ericson §5.1.3); if the
//! centre is outside, the clamped point is the closest point of the box; if
//! it is inside, the nearest face is the one with the smallest slack
//! `half_k − |c_k|` and the depth is that slack plus the radius. The sphere is
//! always shape A, so normals point from the sphere to the other shape.

use nalgebra::{Isometry3, Point3, Vector3};

use crate::separation::Expected;

/// Sphere A (centre `ca`, radius `ra`) against sphere B.
///
/// ```
/// use tests::analytic::sphere_sphere;
/// use tests::Expected;
/// use tests::nalgebra::Point3;
/// let e = sphere_sphere(Point3::origin(), 1.0, Point3::new(0.0, 1.5, 0.0), 1.0);
/// assert!(matches!(e, Expected::Overlapping { depth, normal, .. } if depth == 0.5 && normal.y == 1.0));
/// ```
pub fn sphere_sphere(ca: Point3<f64>, ra: f64, cb: Point3<f64>, rb: f64) -> Expected {
    let delta = cb - ca;
    let d = delta.norm();
    let normal = if d > 0.0 { delta / d } else { Vector3::x() };
    if d < ra + rb {
        let runner_up = if d > 0.0 { f64::INFINITY } else { ra + rb };
        Expected::Overlapping { depth: ra + rb - d, normal, runner_up }
    } else {
        Expected::Separated {
            distance: d - ra - rb,
            point_a: ca + normal * ra,
            point_b: cb - normal * rb,
        }
    }
}

/// Sphere A (world centre `centre`, radius `r`) against box B with half
/// extents `half` posed at `box_pose`.
///
/// ```
/// use tests::analytic::sphere_cuboid;
/// use tests::Expected;
/// use tests::nalgebra::{Isometry3, Point3, Vector3};
/// let e = sphere_cuboid(Point3::new(0.0, 2.0, 0.0), 0.5, Vector3::repeat(1.0), &Isometry3::identity());
/// assert!(matches!(e, Expected::Separated { distance, .. } if distance == 0.5));
/// ```
pub fn sphere_cuboid(
    centre: Point3<f64>,
    r: f64,
    half: Vector3<f64>,
    box_pose: &Isometry3<f64>,
) -> Expected {
    let c = box_pose.inverse_transform_point(&centre);
    let clamped = Point3::from(c.coords.zip_map(&half, |x, h| x.clamp(-h, h)));
    let outside = c - clamped;
    let d = outside.norm();
    if d > 0.0 {
        // Centre outside the box: the closest box point is the clamp, and the
        // normal from the sphere to the box points from the centre to it.
        let normal_local = -outside / d;
        let normal = box_pose.rotation * normal_local;
        let point_b = box_pose * clamped;
        if d < r {
            return Expected::Overlapping { depth: r - d, normal, runner_up: f64::INFINITY };
        }
        return Expected::Separated { distance: d - r, point_a: centre + normal * r, point_b };
    }
    // Centre inside: push out through the face with the least slack. The
    // sphere must move outward through it, i.e. B moves the opposite way.
    let slack = half.zip_map(&c.coords, |h, x| h - x.abs());
    let axis = slack.imin();
    let mut out_local = Vector3::zeros();
    out_local[axis] = if c[axis] < 0.0 { -1.0 } else { 1.0 };
    let normal = box_pose.rotation * -out_local;
    let mut sorted = [slack.x, slack.y, slack.z];
    sorted.sort_by(f64::total_cmp);
    // Opposite face of the same axis, or the next-least-slack axis.
    let other_side = 2.0 * half[axis] - slack[axis];
    let runner_up = r + sorted[1].min(other_side);
    Expected::Overlapping { depth: r + slack[axis], normal, runner_up }
}
