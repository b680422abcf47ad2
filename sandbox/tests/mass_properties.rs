//! Mass properties against closed forms: the polyhedral integrator on hand-
//! built meshes (a box and a tetrahedron, under rotation and translation)
//! against the analytic box and tetrahedron formulas, and the capsule's
//! closed form against a Monte Carlo estimate over its volume.

use collide::nalgebra::{Matrix3, Point3, Rotation3, Vector3};
use collide::{Capsule, Cuboid, Shape, Sphere};
use sandbox::MassProperties;

/// Faces of a box whose corner `i` has the signs of bits 0, 1, 2 on x, y, z,
/// counter-clockwise seen from outside.
const BOX_FACES: [[u32; 4]; 6] =
    [[0, 4, 6, 2], [1, 3, 7, 5], [0, 1, 5, 4], [2, 6, 7, 3], [0, 2, 3, 1], [4, 5, 7, 6]];

fn close(a: f32, b: f32, rel: f32) -> bool {
    (a - b).abs() <= rel * b.abs().max(1e-6)
}

#[test]
fn polyhedral_box_matches_the_analytic_box_under_rigid_transforms() {
    let h = Vector3::new(0.3, 0.7, 1.1);
    let density = 750.0;
    let analytic = MassProperties::from_shape(&Shape::Cuboid(Cuboid::new(h)), density);
    for (axis, angle, offset) in [
        (Vector3::x_axis(), 0.0, Vector3::zeros()),
        (Vector3::y_axis(), 0.7, Vector3::new(3.0, -2.0, 1.0)),
        (Vector3::z_axis(), 2.1, Vector3::new(-5.0, 4.0, 9.0)),
    ] {
        let rot = Rotation3::from_axis_angle(&axis, angle);
        let corners: Vec<Point3<f32>> =
            Cuboid::new(h).corners().iter().map(|c| rot * c + offset).collect();
        let faces = BOX_FACES.iter().map(|f| f.as_slice());
        let p = MassProperties::of_polyhedron(&corners, faces, density);
        assert!(close(p.mass, analytic.mass, 1e-4), "mass {} vs {}", p.mass, analytic.mass);
        assert!((p.local_center.coords - offset).norm() < 1e-3, "centre {:?}", p.local_center);
        let expected: Matrix3<f32> = rot.matrix() * analytic.inertia * rot.matrix().transpose();
        let err = (p.inertia - expected).abs().max();
        assert!(err < 1e-3 * expected.abs().max(), "inertia {:?} vs {expected:?}", p.inertia);
    }
}

#[test]
fn polyhedral_tetrahedron_matches_the_closed_form() {
    // Right tetrahedron with legs a: volume a³/6, centroid a/4 on each axis,
    // and second moments ∫x² = a⁵/60, ∫xy = a⁵/120 over the solid, shifted to
    // the centroid by the parallel-axis theorem.
    let a = 2.0f32;
    let v = [
        Point3::origin(),
        Point3::new(a, 0.0, 0.0),
        Point3::new(0.0, a, 0.0),
        Point3::new(0.0, 0.0, a),
    ];
    let faces: [&[u32]; 4] = [&[0, 2, 1], &[0, 1, 3], &[0, 3, 2], &[1, 2, 3]];
    let p = MassProperties::of_polyhedron(&v, faces.into_iter(), 1.0);
    let volume = a.powi(3) / 6.0;
    assert!(close(p.mass, volume, 1e-5));
    assert!((p.local_center.coords - Vector3::repeat(a / 4.0)).norm() < 1e-5);
    let x2 = a.powi(5) / 60.0;
    let xy = a.powi(5) / 120.0;
    let c = a / 4.0;
    let ixx = 2.0 * x2 - volume * 2.0 * c * c;
    let ixy = -(xy - volume * c * c);
    assert!(close(p.inertia[(0, 0)], ixx, 1e-4), "{} vs {ixx}", p.inertia[(0, 0)]);
    assert!(close(p.inertia[(0, 1)], ixy, 1e-4), "{} vs {ixy}", p.inertia[(0, 1)]);
}

#[test]
fn sphere_matches_the_closed_form() {
    let p = MassProperties::from_shape(&Shape::Sphere(Sphere::new(0.5)), 1000.0);
    let m = 4.0 / 3.0 * std::f32::consts::PI * 0.125 * 1000.0;
    assert!(close(p.mass, m, 1e-6));
    assert!(close(p.inertia[(1, 1)], 0.4 * m * 0.25, 1e-6));
}

#[test]
fn capsule_matches_a_monte_carlo_estimate() {
    let cap = Capsule::new(0.5, 0.3);
    let p = MassProperties::from_shape(&Shape::Capsule(cap), 1000.0);
    // Deterministic low-discrepancy samples over the bounding box.
    let (hx, hy) = (cap.radius, cap.half_height + cap.radius);
    let n = 200_000u32;
    let (mut inside, mut ixx, mut iyy) = (0u32, 0.0f64, 0.0f64);
    let golden = [0.819_172_5f64, 0.671_043_5, 0.549_700_5];
    for i in 0..n {
        let u = golden.map(|g| (0.5 + g * f64::from(i)).fract());
        let (x, y, z) = (
            (2.0 * u[0] - 1.0) * f64::from(hx),
            (2.0 * u[1] - 1.0) * f64::from(hy),
            (2.0 * u[2] - 1.0) * f64::from(hx),
        );
        let cy = y.clamp(-f64::from(cap.half_height), f64::from(cap.half_height));
        if x * x + (y - cy).powi(2) + z * z <= f64::from(cap.radius).powi(2) {
            inside += 1;
            ixx += y * y + z * z;
            iyy += x * x + z * z;
        }
    }
    let box_volume = 8.0 * f64::from(hx) * f64::from(hy) * f64::from(hx);
    let mass = box_volume * f64::from(inside) / f64::from(n) * 1000.0;
    let per_sample = box_volume / f64::from(n) * 1000.0;
    assert!(close(p.mass, mass as f32, 0.01), "mass {} vs {mass}", p.mass);
    assert!(close(p.inertia[(0, 0)], (ixx * per_sample) as f32, 0.02));
    assert!(close(p.inertia[(1, 1)], (iyy * per_sample) as f32, 0.02));
}
