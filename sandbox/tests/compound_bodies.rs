//! Bodies of several shapes: the L-shaped body's mass properties against
//! closed forms (box inertia plus the parallel-axis theorem, in f64), and
//! the L at rest on its long side; its shapes never collide with each
//! other; contacts name the shapes.

// The closed forms index vectors and matrices by axis, as written on paper.
#![allow(clippy::needless_range_loop)]

use collide::nalgebra::{Matrix3, UnitQuaternion, Vector3};
use collide::{Cuboid, Sphere};
use sandbox::{BodyDesc, BodyShape, World};

use crate::common::{DT, world};

/// The L: a foot of half extents (1, 0.25, 0.25) at the body's origin and
/// a post of half extents (0.25, 0.75, 0.25) standing on its left end.
fn l_shapes() -> Vec<BodyShape> {
    vec![
        BodyShape::new(Cuboid::new(Vector3::new(1.0, 0.25, 0.25)).into()),
        BodyShape::new(Cuboid::new(Vector3::new(0.25, 0.75, 0.25)).into())
            .with_position(Vector3::new(-0.75, 1.0, 0.0)),
    ]
}

/// Closed form in f64: each box's mass, centre and inertia about its
/// centre (m (b² + c²) / 3 on the diagonal), shifted to the common centre
/// by the parallel-axis theorem, m (|d|² E − d dᵀ).
fn l_closed_form(density: f64) -> (f64, [f64; 3], [[f64; 3]; 3]) {
    let boxes = [([1.0, 0.25, 0.25], [0.0, 0.0, 0.0]), ([0.25, 0.75, 0.25], [-0.75, 1.0, 0.0])];
    let masses: Vec<f64> = boxes.iter().map(|(h, _)| density * 8.0 * h[0] * h[1] * h[2]).collect();
    let mass: f64 = masses.iter().sum();
    let mut center = [0.0; 3];
    for ((_, c), m) in boxes.iter().zip(&masses) {
        for k in 0..3 {
            center[k] += m * c[k] / mass;
        }
    }
    let mut inertia = [[0.0; 3]; 3];
    for ((h, c), m) in boxes.iter().zip(&masses) {
        let sq = h.map(|x| x * x);
        let own = [m * (sq[1] + sq[2]) / 3.0, m * (sq[0] + sq[2]) / 3.0, m * (sq[0] + sq[1]) / 3.0];
        let d: Vec<f64> = (0..3).map(|k| c[k] - center[k]).collect();
        let d2: f64 = d.iter().map(|x| x * x).sum();
        for r in 0..3 {
            for col in 0..3 {
                let e = if r == col { 1.0 } else { 0.0 };
                inertia[r][col] +=
                    m * (d2 * e - d[r] * d[col]) + if r == col { own[r] } else { 0.0 };
            }
        }
    }
    (mass, center, inertia)
}

fn assert_inertia_close(got: &Matrix3<f32>, want: &[[f64; 3]; 3], what: &str) {
    for r in 0..3 {
        for c in 0..3 {
            let (g, w) = (f64::from(got[(r, c)]), want[r][c]);
            assert!((g - w).abs() <= 1e-4 * w.abs().max(1.0), "{what}: I[{r}][{c}] {g} vs {w}");
        }
    }
}

#[test]
fn l_shaped_body_mass_matches_the_closed_form_in_any_shape_order() {
    let (mass, center, inertia) = l_closed_form(1000.0);
    for reversed in [false, true] {
        let mut shapes = l_shapes();
        if reversed {
            shapes.reverse();
        }
        let mut w = World::new();
        let id = w.add_body(BodyDesc::dynamic_shapes(shapes)).unwrap();
        let m = w.mass_properties(id).unwrap();
        assert!((f64::from(m.mass) - mass).abs() < 1e-3 * mass, "{} vs {mass}", m.mass);
        for k in 0..3 {
            assert!((f64::from(m.local_center[k]) - center[k]).abs() < 1e-5, "centre {k}");
        }
        assert_inertia_close(&m.inertia, &inertia, "inertia");
        assert_eq!(w.shape_count(id), Some(2));
    }
}

#[test]
fn l_shaped_body_mass_is_the_same_with_the_shapes_turned_in_the_body() {
    // The same L built turned a quarter about z inside the body: the
    // inertia is the closed form's, turned (R I Rᵀ), and the centre turned.
    let q = UnitQuaternion::from_axis_angle(&Vector3::z_axis(), std::f32::consts::FRAC_PI_2);
    let turned: Vec<BodyShape> = l_shapes()
        .into_iter()
        .map(|s| {
            let pose = q * s.local_pose;
            BodyShape {
                local_pose: collide::nalgebra::Isometry3::from_parts(
                    pose.translation,
                    pose.rotation,
                ),
                ..s
            }
        })
        .collect();
    let mut w = World::new();
    let id = w.add_body(BodyDesc::dynamic_shapes(turned)).unwrap();
    let m = w.mass_properties(id).unwrap();
    let (_, center, inertia) = l_closed_form(1000.0);
    // A quarter turn about z: (x, y) -> (-y, x).
    let want_center = [-center[1], center[0], center[2]];
    for k in 0..3 {
        assert!((f64::from(m.local_center[k]) - want_center[k]).abs() < 1e-5, "centre {k}");
    }
    let r = [[0.0, -1.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 1.0]];
    let mut want = [[0.0; 3]; 3];
    for i in 0..3 {
        for j in 0..3 {
            for k in 0..3 {
                for l in 0..3 {
                    want[i][j] += r[i][k] * inertia[k][l] * r[j][l];
                }
            }
        }
    }
    assert_inertia_close(&m.inertia, &want, "turned inertia");
}

#[test]
fn l_shaped_body_rests_stably_on_its_long_side() {
    let mut w = world(true);
    sandbox::add_ground(&mut w).unwrap();
    // Dropped 5 cm above the ground, slightly turned about y.
    let l = BodyDesc::dynamic_shapes(l_shapes())
        .with_position(Vector3::new(0.3, 0.30, -0.2))
        .with_rotation(UnitQuaternion::from_euler_angles(0.0, 0.4, 0.0));
    let id = w.add_body(l).unwrap();
    for step in 0..240 {
        w.step(DT);
        w.validate().unwrap_or_else(|e| panic!("step {step}: {e}"));
    }
    let pose = *w.pose(id).unwrap();
    // The foot's bottom face lies on the ground: the body's origin (the
    // foot's centre) 0.25 up, the body upright, still, and the post's
    // top (1.75 above the body's origin) 2.0 up.
    assert!((pose.translation.y - 0.25).abs() < 0.01, "{pose:?}");
    let up = pose.rotation * Vector3::y();
    assert!(up.y > 0.9999, "tipped: up {up:?}");
    assert!(w.linear_velocity(id).unwrap().norm() < 0.01);
    assert!(w.angular_velocity(id).unwrap().norm() < 0.01);
    let top = pose * collide::nalgebra::Point3::new(-0.75, 1.75, 0.0);
    assert!((top.y - 2.0).abs() < 0.01, "{top:?}");
    // Only the foot touches the ground, and the contacts say so.
    let shapes: Vec<u32> = w.contacts().filter(|c| c.body_b == id).map(|c| c.shape_b).collect();
    assert_eq!(shapes, vec![0], "the foot (shape 0) alone touches the ground");
}

/// A world without gravity, default otherwise.
fn weightless() -> World {
    World::with_settings(sandbox::StepSettings {
        gravity: Vector3::zeros(),
        ..sandbox::StepSettings::default()
    })
    .unwrap()
}

#[test]
fn shapes_of_one_body_never_collide_with_each_other() {
    // Two spheres of one body, overlapping by half: no contact between
    // them, no push, in a world without gravity.
    let mut w = weightless();
    let shapes = vec![
        BodyShape::new(Sphere::new(0.5).into()),
        BodyShape::new(Sphere::new(0.5).into()).with_position(Vector3::new(0.5, 0.0, 0.0)),
    ];
    let id = w.add_body(BodyDesc::dynamic_shapes(shapes)).unwrap();
    for _ in 0..30 {
        w.step(DT);
        assert_eq!(w.contacts().count(), 0);
        assert!(w.contact_events().is_empty());
    }
    assert_eq!(w.linear_velocity(id).unwrap(), Vector3::zeros());
}

#[test]
fn each_shape_of_a_spinning_body_gets_the_margin_of_its_own_motion() {
    // Three balls in a row along x, 2 m apart, 0.12 m above a fixed slab,
    // turning about z at 3 rad/s in a world without gravity: over a step
    // the outer balls' bottoms move 0.1 m up or down, the middle one's
    // 0.025 m sideways. The
    // outer balls get speculative points on the slab (their margin, the
    // mean of the body's reach, 0.125 m, and their own bound, 0.125 m, is
    // beyond the gap); the middle one none (its margin, the mean of 0.125
    // and its own 0.025 m, is short of the gap). With the whole body's
    // reach for every shape, the middle ball got points too.
    let mut w = weightless();
    let slab = BodyDesc::fixed(Cuboid::new(Vector3::new(10.0, 0.5, 10.0)).into())
        .with_position(Vector3::new(0.0, -0.5, 0.0));
    w.add_body(slab).unwrap();
    let balls = [-2.0, 0.0, 2.0]
        .map(|x| BodyShape::new(Sphere::new(0.5).into()).with_position(Vector3::new(x, 0.0, 0.0)));
    let row = BodyDesc::dynamic_shapes(balls.to_vec())
        .with_position(Vector3::new(0.0, 0.62, 0.0))
        .with_angular_velocity(Vector3::new(0.0, 0.0, 3.0));
    let id = w.add_body(row).unwrap();
    w.step(DT);
    let mut with_points: Vec<u32> = w
        .contacts()
        .filter(|c| !c.points().is_empty())
        .map(|c| if c.body_b == id { c.shape_b } else { c.shape_a })
        .collect();
    with_points.sort_unstable();
    assert_eq!(with_points, vec![0, 2], "shapes of the row with speculative points");
}
