//! Tests of contact recycling: recycled separations against the geometry,
//! refusals past the recycle distance and on a sign change, and worlds in
//! which recycling must recompute (rolling, slow slides).

use collide::nalgebra::{Translation3, UnitQuaternion};
use collide::{Cuboid, Shape, Sphere};

use super::*;
use crate::collision::pair_manifold::collide_pair;
use crate::{BodyDesc, StepSettings, World};

/// Separations of a recycled manifold agree with the analytic answer to
/// this (metres): float rounding of metre-sized poses, far below the
/// millimetre motions tested.
const SEPARATION_TOLERANCE: f32 = 1.0e-5;

fn ground() -> Shape {
    Cuboid::new(Vector3::new(5.0, 0.5, 5.0)).into()
}

fn cube() -> Shape {
    Cuboid::new(Vector3::new(0.5, 0.5, 0.5)).into()
}

/// A few rigid transforms (seeded xorshift) under which every case runs,
/// and the identity.
fn frames() -> Vec<Isometry3<f32>> {
    let mut state = 0x9E37_79B9_u32;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 17;
        state ^= state << 5;
        state as f32 / u32::MAX as f32 * 2.0 - 1.0
    };
    let mut out = vec![Isometry3::identity()];
    for _ in 0..4 {
        let t = Vector3::new(next(), next(), next()) * 20.0;
        let axis = Vector3::new(next(), next(), next());
        out.push(Isometry3::from_parts(
            Translation3::from(t),
            UnitQuaternion::from_scaled_axis(axis * 3.0),
        ));
    }
    out
}

/// The ground (A, top face at y = 0 in its frame's parent `frame`) and
/// a cube (B) whose pose relative to the ground's top is `cube_local`:
/// a freshly computed manifold with its surface points recorded.
fn computed(
    frame: &Isometry3<f32>,
    cube_local: &Isometry3<f32>,
) -> (Isometry3<f32>, Isometry3<f32>, Manifold) {
    let pose_a = frame * Isometry3::translation(0.0, -0.5, 0.0);
    let pose_b = frame * cube_local;
    let mut m = Manifold::default();
    collide_pair(&ground(), &pose_a, &cube(), &pose_b, SPECULATIVE_DISTANCE, &mut m);
    // As the world does after every computation: record the points in
    // A's frame (no old manifold to warm start from).
    m.inherit_impulses(&Manifold::default(), &pose_a);
    (pose_a, pose_b, m)
}

fn recycle(
    m: &mut Manifold,
    pose_a: &Isometry3<f32>,
    pose_b_then: &Isometry3<f32>,
    pose_b_now: &Isometry3<f32>,
) -> bool {
    let then = pose_a.inv_mul(pose_b_then);
    let now = pose_a.inv_mul(pose_b_now);
    let normal_in_a = pose_a.rotation.inverse_transform_vector(&m.normal);
    let radius_b = 0.5 * 3f32.sqrt();
    let points_b = PointsOfB::Within(radius_b);
    try_recycle(m, &then, &normal_in_a, &now, pose_a, &points_b, SPECULATIVE_DISTANCE).is_some()
}

/// A motion of the cube, in the ground's top frame, about the cube's
/// centre: `scale` times a move whose drift bound is 0.63 of it.
fn nudge(cube_local: &Isometry3<f32>, scale: f32) -> Isometry3<f32> {
    let shift = Vector3::new(0.3, -0.2, 0.1) * scale;
    let turn = UnitQuaternion::from_scaled_axis(Vector3::z() * 0.3 * scale);
    Isometry3::from_parts(
        Translation3::from(cube_local.translation.vector + shift),
        turn * cube_local.rotation,
    )
}

#[test]
fn recycled_box_on_ground_separations_are_the_corner_heights() {
    // Tilted by 2 mrad, 2 mm deep: the four bottom corners sit between
    // 1 and 3 mm below the ground's top.
    let cube_local = Isometry3::from_parts(
        Translation3::new(0.3, 0.498, -0.2),
        UnitQuaternion::from_scaled_axis(Vector3::x() * 0.002),
    );
    for frame in frames() {
        let (pose_a, pose_b, mut m) = computed(&frame, &cube_local);
        assert_eq!(m.points.len(), 4);
        let moved_local = nudge(&cube_local, RECYCLE_DISTANCE);
        let moved = frame * moved_local;
        assert!(recycle(&mut m, &pose_a, &pose_b, &moved), "small move refused");
        let up = frame.rotation * Vector3::y();
        assert!((m.normal - up).norm() < 1.0e-5, "normal {:?}", m.normal);
        // Oracle: each bottom corner's height over the ground's top.
        let corners: Vec<Point3<f32>> = [(1.0, 1.0), (1.0, -1.0), (-1.0, 1.0), (-1.0, -1.0)]
            .iter()
            .map(|&(x, z)| moved_local * Point3::new(0.5 * x, -0.5, 0.5 * z))
            .collect();
        for p in &m.points {
            let p_local = frame.inverse_transform_point(&p.point);
            let corner = corners
                .iter()
                .min_by(|c, d| {
                    let h = |q: &&Point3<f32>| (q.xz() - p_local.xz()).norm();
                    h(c).total_cmp(&h(d))
                })
                .unwrap();
            assert!(
                (p.separation - corner.y).abs() < SEPARATION_TOLERANCE,
                "separation {} vs corner height {}",
                p.separation,
                corner.y
            );
            // The world point is midway between the corner and its point
            // on the ground, which stayed put: half the slip away across.
            let across = (p_local.xz() - corner.xz()).norm();
            assert!(across <= 0.5 * RECYCLE_DISTANCE, "{across} m across");
            assert!((p_local.y - 0.5 * corner.y).abs() < SEPARATION_TOLERANCE);
        }
        // Second oracle: the narrow phase on the new poses.
        let mut fresh = Manifold::default();
        collide_pair(&ground(), &pose_a, &cube(), &moved, SPECULATIVE_DISTANCE, &mut fresh);
        let mut got: Vec<f32> = m.points.iter().map(|p| p.separation).collect();
        let mut want: Vec<f32> = fresh.points.iter().map(|p| p.separation).collect();
        got.sort_by(f32::total_cmp);
        want.sort_by(f32::total_cmp);
        for (g, w) in got.iter().zip(&want) {
            assert!((g - w).abs() < SEPARATION_TOLERANCE, "{got:?} vs {want:?}");
        }
    }
}

#[test]
fn a_move_past_the_recycle_distance_is_refused() {
    let cube_local = Isometry3::translation(0.0, 0.498, 0.0);
    for frame in frames() {
        for shift in [Vector3::x(), Vector3::y(), Vector3::z()] {
            let (pose_a, pose_b, mut m) = computed(&frame, &cube_local);
            let before = m.clone();
            let moved = frame
                * Isometry3::translation(0.0, 0.498, 0.0)
                * Isometry3::from_parts(
                    Translation3::from(shift * (1.1 * RECYCLE_DISTANCE)),
                    UnitQuaternion::identity(),
                );
            assert!(!recycle(&mut m, &pose_a, &pose_b, &moved), "shift {shift:?}");
            assert_eq!(m, before, "a refused manifold is left as it was");
        }
        // A turn whose arc at the cube's corners passes the distance.
        let (pose_a, pose_b, mut m) = computed(&frame, &cube_local);
        let turned = frame
            * cube_local
            * UnitQuaternion::from_scaled_axis(Vector3::y() * (1.5 * RECYCLE_DISTANCE));
        assert!(!recycle(&mut m, &pose_a, &pose_b, &turned));
    }
}

#[test]
fn a_point_changing_from_separated_to_penetrating_is_refused() {
    // 0.1 of the recycle distance above the ground, then 0.3 of it down.
    let gap = 0.1 * RECYCLE_DISTANCE;
    let cube_local = Isometry3::translation(0.0, 0.5 + gap, 0.0);
    for frame in frames() {
        let (pose_a, pose_b, mut m) = computed(&frame, &cube_local);
        assert!(m.points.iter().all(|p| p.separation > 0.0));
        let lowered = frame * Isometry3::translation(0.0, 0.5 - 2.0 * gap, 0.0);
        assert!(!recycle(&mut m, &pose_a, &pose_b, &lowered), "sign change recycled");
        // The same distance upwards keeps the sign and is recycled.
        let raised = frame * Isometry3::translation(0.0, 0.5 + 4.0 * gap, 0.0);
        assert!(recycle(&mut m, &pose_a, &pose_b, &raised), "same-sign move refused");
    }
}

#[test]
fn an_empty_manifold_is_never_recycled() {
    let cube_local = Isometry3::translation(0.0, 0.5 + 2.0 * SPECULATIVE_DISTANCE, 0.0);
    let (pose_a, pose_b, mut m) = computed(&Isometry3::identity(), &cube_local);
    assert!(m.points.is_empty());
    assert!(!recycle(&mut m, &pose_a, &pose_b, &pose_b));
}

/// A world of the ground and one body, with recycling on or off.
fn world_with(body: BodyDesc, contact_recycling: bool) -> World {
    let settings =
        StepSettings { contact_recycling, sleep_enabled: false, ..StepSettings::default() };
    let mut world = World::with_settings(settings).unwrap();
    world.add_body(BodyDesc::fixed(ground()).with_position(Vector3::new(0.0, -0.5, 0.0))).unwrap();
    world.add_body(body).unwrap();
    world
}

#[test]
fn a_rolling_ball_gets_its_contact_recomputed_under_it() {
    // Rolling at 20 cm/s, the ball moves 3.3 mm a step, past the
    // recycle distance, and turns so slowly that the contact point
    // kept on its surface would rise only 11 µm in a step: the drift
    // test, not the sign test, must refuse.
    let ball = BodyDesc::dynamic(Sphere::new(0.5).into())
        .with_position(Vector3::new(-2.0, 0.5, 0.0))
        .with_linear_velocity(Vector3::new(0.2, 0.0, 0.0))
        .with_angular_velocity(Vector3::new(0.0, 0.0, -0.4));
    let mut world = world_with(ball, true);
    let id = world.bodies().nth(1).unwrap();
    for step in 0..90 {
        let centre = world.pose(id).unwrap().translation.vector;
        world.step(1.0 / 60.0);
        let contact = world.contacts().next().expect("the ball's pair");
        assert_eq!(contact.points().len(), 1, "step {step}");
        let p = contact.points()[0].point;
        // The manifold is found at the poses the step starts from; a
        // recycled one lags the ball by at most the recycle distance.
        let off = (p.coords.xz() - centre.xz()).norm();
        assert!(off <= RECYCLE_DISTANCE + 1.0e-5, "step {step}: {off} m off");
    }
}

/// Steps a frictionless cube sliding on the ground at `speed` for 60
/// steps and returns, per step, whether its manifold is exactly the one
/// the narrow phase computes at the poses the step started from.
fn fresh_each_step(speed: f32, contact_recycling: bool) -> Vec<bool> {
    let sliding = BodyDesc::dynamic(cube())
        .with_position(Vector3::new(0.0, 0.5, 0.0))
        .with_linear_velocity(Vector3::new(speed, 0.0, 0.0))
        .with_friction(0.0);
    let mut world = world_with(sliding, contact_recycling);
    let ids: Vec<_> = world.bodies().collect();
    (0..60)
        .map(|_| {
            let pose_a = *world.pose(ids[0]).unwrap();
            let pose_b = *world.pose(ids[1]).unwrap();
            world.step(1.0 / 60.0);
            let mut fresh = Manifold::default();
            collide_pair(&ground(), &pose_a, &cube(), &pose_b, 1.0, &mut fresh);
            let got = world.contacts.iter().next().expect("the cube's pair").1;
            got.normal == fresh.normal
                && got.points.len() == fresh.points.len()
                && got
                    .points
                    .iter()
                    .zip(&fresh.points)
                    .all(|(g, f)| (g.point, g.separation, g.id) == (f.point, f.separation, f.id))
        })
        .collect()
}

#[test]
fn a_slow_slide_is_recomputed_after_the_most_recycled_steps() {
    // 9 mm/s: 0.15 mm a step, past the unchanged-pose reuse, and only
    // 0.6 mm (under the recycle distance) after four steps, so only the
    // step cap forces the recomputations.
    let fresh = fresh_each_step(0.009, true);
    let mut run = 0;
    let mut longest = 0;
    for &f in &fresh[1..] {
        run = if f { 0 } else { run + 1 };
        longest = longest.max(run);
    }
    assert_eq!(longest as u32, MAX_RECYCLED_STEPS, "{fresh:?}");
}

#[test]
fn without_recycling_every_moving_manifold_is_computed_afresh() {
    // A frictionless cube sliding at 3 cm/s moves 0.5 mm a step: more
    // than the unchanged-pose reuse allows, less than recycling allows.
    let run = |contact_recycling: bool| fresh_each_step(0.03, contact_recycling).iter().all(|&f| f);
    assert!(run(false), "recycling off: a manifold was not computed afresh");
    assert!(!run(true), "recycling on: no manifold was recycled");
}

/// Culling by clearance is safe: whenever [`distance_bound`] keeps a pair
/// empty, the shapes' true distance at the new pose (collide's GJK
/// distance, an independent code path from the SAT and clipping that
/// produced the clearance) is beyond the speculative distance. Random
/// pairs of every shape kind of the scenes, random gaps, random small
/// moves and turns; enough of them must be culled for the test to mean
/// something.
#[test]
fn a_pair_kept_apart_is_apart() {
    use collide::Capsule;
    let mut state = 0x2545_F491_u32;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 17;
        state ^= state << 5;
        state as f32 / u32::MAX as f32
    };
    let shapes: Vec<Shape> = vec![
        cube(),
        Sphere::new(0.5).into(),
        Capsule::new(0.5, 0.3).into(),
        crate::icosahedron(0.6).unwrap().into(),
        ground(),
    ];
    let speculative = SPECULATIVE_DISTANCE;
    let (mut culled, mut checked) = (0, 0);
    for trial in 0..4000 {
        let a = &shapes[trial % shapes.len()];
        let b = &shapes[(trial / shapes.len()) % 4];
        let random_turn = |next: &mut dyn FnMut() -> f32, scale: f32| {
            let axis = Vector3::new(next() - 0.5, next() - 0.5, next() - 0.5);
            UnitQuaternion::from_scaled_axis(axis * scale)
        };
        let pose_a = Isometry3::from_parts(
            Translation3::new(next() * 4.0 - 2.0, next() * 4.0 - 2.0, 0.0),
            random_turn(&mut next, 6.0),
        );
        // B in a random direction from A, then slid towards A along the
        // closest-points direction until the gap is between the
        // speculative distance and 8 cm more, where culling is decided.
        let dir = Vector3::new(next() - 0.5, next() - 0.5, next() - 0.5).normalize();
        let far = Isometry3::from_parts(
            Translation3::from(pose_a.translation.vector + dir * 4.0),
            random_turn(&mut next, 6.0),
        );
        let collide::Proximity::Separated { distance, point_a, point_b } =
            collide::closest_points(a, &pose_a, b, &far)
        else {
            continue;
        };
        let target = speculative + next() * 0.08;
        let towards_a = (point_a - point_b) / distance;
        let pose_b = Isometry3::from_parts(
            Translation3::from(far.translation.vector + towards_a * (distance - target)),
            far.rotation,
        );
        let mut m = Manifold::default();
        let clearance = collide_pair(a, &pose_a, b, &pose_b, speculative, &mut m);
        if clearance <= 0.0 {
            continue;
        }
        assert!(m.points.is_empty(), "a clearance comes with an empty manifold");
        // A small relative motion of B: up to 3 cm and 3°.
        let step = Isometry3::from_parts(
            Translation3::from(Vector3::new(next() - 0.5, next() - 0.5, next() - 0.5) * 0.06),
            random_turn(&mut next, 0.1),
        );
        let moved_b =
            Isometry3::from_parts(Translation3::from(pose_b.translation.vector), pose_b.rotation)
                * step;
        let radius_b = match b {
            Shape::Cuboid(c) => c.half_extents.norm(),
            Shape::Sphere(s) => s.radius,
            Shape::Capsule(c) => c.half_height + c.radius,
            _ => 0.6,
        };
        let (before, now) = (pose_a.inv_mul(&pose_b), pose_a.inv_mul(&moved_b));
        checked += 1;
        if distance_bound(clearance, &before, &now, &PointsOfB::Within(radius_b)) > speculative {
            culled += 1;
            let distance = match collide::closest_points(a, &pose_a, b, &moved_b) {
                collide::Proximity::Separated { distance, .. } => distance,
                collide::Proximity::Intersecting => 0.0,
            };
            assert!(
                distance > speculative - SEPARATION_TOLERANCE,
                "trial {trial}: kept apart, yet {distance} m apart after the move"
            );
        }
    }
    assert!(culled > 300 && culled < checked, "{culled} of {checked} pairs culled");
}

/// The fresh manifold of a cube resting flat on the ground (1 mm deep),
/// both turned by `tilt` about the world z axis: its normal is the
/// ground's top face's (the ground is A, its face the reference).
fn resting_manifold(tilt: f32) -> Manifold {
    let frame = Isometry3::rotation(Vector3::z() * tilt);
    let (_, _, m) = computed(&frame, &Isometry3::translation(0.0, 0.499, 0.0));
    m
}

#[test]
fn a_face_contact_keeps_its_world_normal_through_a_turn_below_the_bound() {
    for tilt in [1.0e-6, 1.0e-4, 0.5 * RESTING_NORMAL_CHORD, 0.9 * RESTING_NORMAL_CHORD] {
        for sign in [1.0, -1.0] {
            let mut m = resting_manifold(sign * tilt);
            assert!(m.points.len() >= FACE_CONTACT_POINTS, "a face contact: {m:?}");
            // The independent oracle: the ground's top face turned by the tilt.
            let fresh = Vector3::new(-(sign * tilt).sin(), (sign * tilt).cos(), 0.0);
            assert!((m.normal - fresh).norm() < 1.0e-6, "tilt {tilt}: {:?}", m.normal);
            let before = Vector3::y();
            keep_resting_normal(&before, &mut m);
            assert_eq!(m.normal, before, "tilt {}: the normal turned", sign * tilt);
        }
    }
}

#[test]
fn a_face_contact_takes_the_new_normal_past_the_bound() {
    for tilt in [1.1 * RESTING_NORMAL_CHORD, 0.1, 0.5] {
        let mut m = resting_manifold(tilt);
        let fresh = m.normal;
        keep_resting_normal(&Vector3::y(), &mut m);
        assert_eq!(m.normal, fresh, "tilt {tilt}: the old normal was kept");
        assert!((m.normal - Vector3::y()).norm() > RESTING_NORMAL_CHORD);
    }
}

#[test]
fn a_point_or_edge_contact_and_a_nan_normal_take_the_new_normal() {
    let mut m = resting_manifold(1.0e-4);
    let fresh = m.normal;
    m.points.truncate(FACE_CONTACT_POINTS - 1);
    keep_resting_normal(&Vector3::y(), &mut m);
    assert_eq!(m.normal, fresh, "an edge contact kept the old normal");
    let mut m = resting_manifold(1.0e-4);
    let fresh = m.normal;
    keep_resting_normal(&Vector3::new(f32::NAN, 1.0, 0.0), &mut m);
    assert_eq!(m.normal, fresh, "a NaN old normal was kept");
}

/// The manifold of a cube resting flat on the ground, `depth` deep, in
/// the world frame.
fn flat_manifold(depth: f32) -> Manifold {
    computed(&Isometry3::identity(), &Isometry3::translation(0.0, 0.5 - depth, 0.0)).2
}

#[test]
fn a_pair_rests_only_touching_and_slower_than_the_resting_speed() {
    let radius_b = 0.5 * 3f32.sqrt();
    let still = |_: &Point3<f32>| Vector3::zeros();
    let m = flat_manifold(1.0e-3);
    assert_eq!(m.points.len(), 4, "{m:?}");
    assert!(pair_rests(&m, still, &Vector3::zeros(), radius_b));
    // Just under and just over the speed, sliding, and turning in place.
    for (speed, rests) in [(0.9 * RESTING_SPEED, true), (1.1 * RESTING_SPEED, false)] {
        let slide = |_: &Point3<f32>| Vector3::new(speed, 0.0, 0.0);
        assert_eq!(pair_rests(&m, slide, &Vector3::zeros(), radius_b), rests, "slide {speed}");
        let spin = Vector3::y() * (speed / radius_b);
        assert_eq!(pair_rests(&m, still, &spin, radius_b), rests, "spin {speed}");
    }
    // One point moving (the cube pivots on the others).
    let pivot = m.points[0].point;
    let lift = |p: &Point3<f32>| {
        if *p == pivot { Vector3::new(0.0, 2.0 * RESTING_SPEED, 0.0) } else { Vector3::zeros() }
    };
    assert!(!pair_rests(&m, lift, &Vector3::zeros(), radius_b));
    // A speculative manifold (the cube a centimetre above) does not rest,
    // nor an empty one, nor a NaN velocity.
    let above = flat_manifold(-2.0 * LINEAR_SLOP);
    assert_eq!(above.points.len(), 4, "{above:?}");
    assert!(!pair_rests(&above, still, &Vector3::zeros(), radius_b));
    assert!(!pair_rests(&Manifold::default(), still, &Vector3::zeros(), radius_b));
    let nan = |_: &Point3<f32>| Vector3::new(f32::NAN, 0.0, 0.0);
    assert!(!pair_rests(&m, nan, &Vector3::zeros(), radius_b));
    assert!(!pair_rests(&m, still, &Vector3::new(0.0, f32::NAN, 0.0), radius_b));
}

#[test]
fn a_resting_cube_keeps_its_manifold_past_the_cap_and_a_sliding_one_does_not() {
    // Resting (0 m/s, sleeping off), the cube's manifold is recycled for
    // far longer runs than the cap once it has settled; sliding at
    // 9 mm/s (above the resting speed) it is capped as before.
    let longest_recycled_run = |speed: f32| {
        let fresh = fresh_each_step(speed, true);
        let (mut run, mut longest) = (0, 0);
        for &f in &fresh[1..] {
            run = if f { 0 } else { run + 1 };
            longest = longest.max(run);
        }
        (longest, fresh)
    };
    let (resting, fresh) = longest_recycled_run(0.0);
    assert!(resting > 4 * MAX_RECYCLED_STEPS as usize, "{fresh:?}");
    let (sliding, fresh) = longest_recycled_run(0.009);
    assert_eq!(sliding as u32, MAX_RECYCLED_STEPS, "{fresh:?}");
}

#[test]
fn a_resting_manifold_carries_each_bodys_turn_since_it_was_computed() {
    // A cube settled on the ground, then turned about the vertical by
    // 2e-4 rad at rest (its corners keep their heights, and move 0.14 mm:
    // within every recycling bound, and past the reuse tolerance of
    // 1e-4 rad, so the step recycles whether the settled manifold was
    // last computed or recycled): the manifold's lever turn is that turn
    // undone for the cube and the identity for the fixed ground. The cube
    // is first pressed 0.5 mm deeper for a step (its manifold computed
    // afresh with every point penetrating), so that the turn changes no
    // point from separated to penetrating (which refuses recycling)
    // whatever separations it settled at.
    let settings = StepSettings { sleep_enabled: false, ..StepSettings::default() };
    let mut world = World::with_settings(settings).unwrap();
    world.add_body(BodyDesc::fixed(ground()).with_position(Vector3::new(0.0, -0.5, 0.0))).unwrap();
    let cube_id = world
        .add_body(BodyDesc::dynamic(cube()).with_position(Vector3::new(0.0, 0.5, 0.0)))
        .unwrap();
    for _ in 0..60 {
        world.step(1.0 / 60.0);
    }
    let pose = *world.pose(cube_id).unwrap();
    let computed_rotation = pose.rotation;
    let pressed = Translation3::from(pose.translation.vector - Vector3::y() * 5.0e-4);
    world.set_pose(cube_id, Isometry3::from_parts(pressed, pose.rotation)).unwrap();
    world.set_linear_velocity(cube_id, Vector3::zeros()).unwrap();
    world.set_angular_velocity(cube_id, Vector3::zeros()).unwrap();
    world.step(1.0 / 60.0);
    let pose = *world.pose(cube_id).unwrap();
    let angle = 2.0e-4;
    let turn = UnitQuaternion::from_scaled_axis(Vector3::y() * angle);
    let turned = turn * pose.rotation;
    world.set_pose(cube_id, Isometry3::from_parts(pose.translation, turned)).unwrap();
    world.set_linear_velocity(cube_id, Vector3::zeros()).unwrap();
    world.set_angular_velocity(cube_id, Vector3::zeros()).unwrap();
    world.step(1.0 / 60.0);
    let m = world.contacts.iter().next().expect("the cube's pair").1;
    let lever = m.lever_turn.unwrap_or_else(|| panic!("no lever turn on a resting pair: {m:?}"));
    // The pair's first body is the ground or the cube: the one that turned.
    let (ground_turn, cube_turn) =
        if lever.a.angle() < lever.b.angle() { (lever.a, lever.b) } else { (lever.b, lever.a) };
    assert!(ground_turn.angle() < 1.0e-7, "{lever:?}");
    assert!(cube_turn.angle() > 0.5 * angle, "{lever:?}");
    // The cube's whole turn since the manifold was computed (at the
    // pressed pose), undone: the turn, and the tilt the press step gave.
    let expected = computed_rotation * turned.inverse();
    let back = cube_turn * expected.inverse();
    assert!(back.angle() < 0.01 * angle, "{lever:?}: not the turn undone ({expected:?})");
}

#[test]
fn a_resting_manifold_moved_with_a_is_its_recycling_moved_rigidly() {
    // A recycled manifold, then both bodies moved together by one rigid
    // motion (the relative pose unchanged): moving it with A must give the
    // recycled world points and normal carried by that motion, and the
    // recycled separations (oracle: the rigid motion applied directly).
    let cube_local = Isometry3::from_parts(
        Translation3::new(0.3, 0.498, -0.2),
        UnitQuaternion::from_scaled_axis(Vector3::x() * 0.002),
    );
    let carry = Isometry3::from_parts(
        Translation3::new(1.0, -2.0, 3.0),
        UnitQuaternion::from_scaled_axis(Vector3::new(0.1, 0.3, -0.2)),
    );
    for frame in frames() {
        let (pose_a, pose_b, mut m) = computed(&frame, &cube_local);
        let normal_in_a = pose_a.rotation.inverse_transform_vector(&m.normal);
        let moved = frame * nudge(&cube_local, RECYCLE_DISTANCE);
        let (then, now) = (pose_a.inv_mul(&pose_b), pose_a.inv_mul(&moved));
        let points_b = PointsOfB::Within(0.5 * 3f32.sqrt());
        let midpoints_in_a = try_recycle(
            &mut m,
            &then,
            &normal_in_a,
            &now,
            &pose_a,
            &points_b,
            SPECULATIVE_DISTANCE,
        )
        .expect("small move refused");
        let rested = RestedAt { relative: now, midpoints_in_a };
        let recycled = m.clone();
        moved_with_a(&mut m, &rested, &normal_in_a, &(carry * pose_a));
        assert!((m.normal - carry.rotation * recycled.normal).norm() < 1.0e-5, "{m:?}");
        assert_eq!(m.points.len(), recycled.points.len());
        for (p, q) in m.points.iter().zip(&recycled.points) {
            // Coordinates up to about 40 m: f32 rounding of a few ulps.
            assert!((p.point - carry * q.point).norm() < 1.0e-4, "{p:?} vs {q:?}");
            assert_eq!(p.separation, q.separation);
        }
    }
}

/// The drift bound of a shape's ball holds every point of the ball, by
/// brute force over random points, poses and turns (up to 1 rad), and is
/// never larger than the bound about B's origin at the ball's farthest
/// distance, which is what a body of one shape uses.
#[test]
fn a_ball_bounds_the_drift_of_its_points_within_the_bound_about_b_origin() {
    use crate::body::shape_store::ShapeBall;
    let mut state = 0x1234_5679_u32;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 17;
        state ^= state << 5;
        state as f32 / u32::MAX as f32 - 0.5
    };
    let random = |next: &mut dyn FnMut() -> f32| Vector3::new(next(), next(), next());
    let mut tighter = 0;
    for _ in 0..2000 {
        let centre = Point3::from(random(&mut next) * 60.0);
        let ball = ShapeBall { centre, radius: 2.0 * next() + 1.0 };
        let then = Isometry3::from_parts(
            Translation3::from(random(&mut next) * 10.0),
            UnitQuaternion::from_scaled_axis(random(&mut next) * 6.0),
        );
        let now = Isometry3::from_parts(
            Translation3::from(then.translation.vector + random(&mut next) * 0.2),
            UnitQuaternion::from_scaled_axis(random(&mut next) * 2.0) * then.rotation,
        );
        let points = PointsOfB::Ball(ball);
        let (drift, half_sine) = points.drift(&then, &now);
        let (about_origin, origin_sine) = PointsOfB::Within(points.farthest()).drift(&then, &now);
        assert_eq!(half_sine, origin_sine);
        // Rounding of products of values up to 60 m.
        let rounding = 1.0e-5 * (1.0 + centre.coords.norm());
        assert!(drift <= about_origin + rounding, "{drift} > {about_origin}");
        tighter += usize::from(drift < 0.5 * about_origin);
        for _ in 0..16 {
            // Up to the ball's radius from its centre, many on its surface.
            let offset = (random(&mut next) * 4.0 * ball.radius).cap_magnitude(ball.radius);
            let p = centre + offset;
            let moved = (now * p - then * p).norm();
            assert!(moved <= drift + rounding, "a point moved {moved} > {drift}");
        }
    }
    // The bound is worth having: often far below the one about the origin.
    assert!(tighter > 100, "{tighter}");
}
