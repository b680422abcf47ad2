//! Bad input is an error, never a clamp: every value the world's API
//! refuses is named in a typed [`WorldError`], and the world is unchanged
//! after the error. The oracle for "unchanged" is a twin world built the
//! same way that never saw the bad call: both are compared body by body,
//! bit for bit, and then stepped side by side. The values on the edge of
//! each rule are accepted.

use crate::common;

use collide::nalgebra::{Isometry3, Point3, Quaternion, Translation3, UnitQuaternion, Vector3};
use collide::{Capsule, Cuboid, Shape, Sphere};
use sandbox::tools::{LoadError, SceneSource};
use sandbox::{
    BodyDesc, BodyField, BodyId, BodyShape, MAX_SUBSTEPS, MAX_THREADS, Scene, Setting,
    SettingsError, StepOutcome, StepSettings, WORLD_BOUND, World, WorldError, build_scene,
};

/// Short for the value every rule refuses.
const NAN: f32 = f32::NAN;

/// Steps the worlds compared after a refused call are stepped for.
const TWIN_STEPS: usize = 90;

fn cube() -> Shape {
    Cuboid::new(Vector3::repeat(0.5)).into()
}

/// A small pyramid on the ground (asleep within 4 s) and a ball thrown
/// away from it (rolling on, awake): the scene every refused call is made
/// on. Returns the world and its dynamic bodies.
fn scene() -> (World, Vec<BodyId>) {
    let mut world = common::world(true);
    let mut ids = build_scene(&mut world, Scene::Pyramid, 3).unwrap();
    ids.push(
        world
            .add_body(
                BodyDesc::dynamic(Sphere::new(0.3).into())
                    .with_position(Vector3::new(-4.0, 2.0, 0.0))
                    .with_linear_velocity(Vector3::new(-3.0, 2.0, 0.5)),
            )
            .unwrap(),
    );
    (world, ids)
}

/// Twin worlds: the same scene, stepped the same `warm_up` steps.
fn twins(warm_up: usize) -> (World, World, Vec<BodyId>) {
    let (mut a, ids) = scene();
    let (mut b, ids_b) = scene();
    assert_eq!(ids, ids_b);
    common::run(&mut a, warm_up);
    common::run(&mut b, warm_up);
    (a, b, ids)
}

/// Everything the API shows of one body, as bits: the pose's matrix, the
/// velocities, and whether it is awake.
type BodyBits = (Vec<u32>, Vec<u32>, Vec<u32>, bool);

/// [`BodyBits`] of `id`, `None` for a stale handle.
fn body_bits(w: &World, id: BodyId) -> Option<BodyBits> {
    let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect();
    Some((
        bits(w.pose(id)?.to_homogeneous().as_slice()),
        bits(w.linear_velocity(id)?.as_slice()),
        bits(w.angular_velocity(id)?.as_slice()),
        w.is_awake(id)?,
    ))
}

/// Asserts that `hit` (which saw a refused call) and `twin` (which did not)
/// agree on the body count, the settings and every body, bit for bit, now
/// and after each of [`TWIN_STEPS`] steps.
fn assert_unchanged(hit: &mut World, twin: &mut World, what: &str) {
    for step in 0..=TWIN_STEPS {
        assert_eq!(hit.body_count(), twin.body_count(), "{what}: body count, step {step}");
        assert_eq!(hit.settings(), twin.settings(), "{what}: settings, step {step}");
        let ids: Vec<BodyId> = twin.bodies().collect();
        assert_eq!(hit.bodies().collect::<Vec<_>>(), ids, "{what}: handles, step {step}");
        for id in ids {
            assert_eq!(body_bits(hit, id), body_bits(twin, id), "{what}: {id:?}, step {step}");
        }
        assert_eq!(hit.pose_hash(), twin.pose_hash(), "{what}: pose hash, step {step}");
        if step < TWIN_STEPS {
            common::step(hit);
            common::step(twin);
        }
    }
}

/// The bodies, and one bad value of every other field: each is
/// refused with the field, the rule and the value, and the world is as if
/// the call had not been made.
#[test]
fn refused_bodies_name_their_field_and_leave_the_world_unchanged() {
    let mut not_unit = Isometry3::identity();
    not_unit.rotation = UnitQuaternion::new_unchecked(Quaternion::new(2.0, 0.0, 0.0, 0.0));
    let cases: [(&str, BodyDesc, BodyField, f32); 15] = [
        (
            "inside-out cuboid",
            BodyDesc::fixed(Cuboid::new(Vector3::new(-5.0, 0.5, -5.0)).into()),
            BodyField::CuboidHalfExtents,
            -5.0,
        ),
        (
            "zero-size box",
            BodyDesc::dynamic(Cuboid::new(Vector3::zeros()).into()),
            BodyField::CuboidHalfExtents,
            0.0,
        ),
        (
            "flat fixed box",
            BodyDesc::fixed(Cuboid::new(Vector3::new(1.0, 0.0, 1.0)).into()),
            BodyField::CuboidHalfExtents,
            0.0,
        ),
        ("friction -1", BodyDesc::dynamic(cube()).with_friction(-1.0), BodyField::Friction, -1.0),
        (
            "restitution 7",
            BodyDesc::dynamic(cube()).with_restitution(7.0),
            BodyField::Restitution,
            7.0,
        ),
        (
            "restitution -0.5",
            BodyDesc::dynamic(cube()).with_restitution(-0.5),
            BodyField::Restitution,
            -0.5,
        ),
        (
            "a body at x = 1e6",
            BodyDesc::dynamic(cube()).with_position(Vector3::new(1e6, 0.0, 0.0)),
            BodyField::Position,
            1e6,
        ),
        (
            "a fixed body at z = -2e4",
            BodyDesc::fixed(cube()).with_position(Vector3::new(0.0, 0.0, -2.0 * WORLD_BOUND)),
            BodyField::Position,
            -2.0 * WORLD_BOUND,
        ),
        ("density 0", BodyDesc::dynamic(cube()).with_density(0.0), BodyField::Density, 0.0),
        (
            "density -1 (fixed)",
            BodyDesc::fixed(cube()).with_density(-1.0),
            BodyField::Density,
            -1.0,
        ),
        (
            "sphere radius 0",
            BodyDesc::dynamic(Sphere::new(0.0).into()),
            BodyField::SphereRadius,
            0.0,
        ),
        (
            "capsule half height -1",
            BodyDesc::dynamic(Capsule::new(-1.0, 0.5).into()),
            BodyField::CapsuleHalfHeight,
            -1.0,
        ),
        (
            "capsule radius -0.5",
            BodyDesc::dynamic(Capsule::new(1.0, -0.5).into()),
            BodyField::CapsuleRadius,
            -0.5,
        ),
        (
            "rotation of norm 2",
            BodyDesc { pose: not_unit, ..BodyDesc::dynamic(cube()) },
            BodyField::Rotation,
            2.0,
        ),
        (
            "infinite angular velocity",
            BodyDesc::dynamic(cube()).with_angular_velocity(Vector3::new(0.0, f32::INFINITY, 0.0)),
            BodyField::AngularVelocity,
            f32::INFINITY,
        ),
    ];
    for (what, desc, field, value) in cases {
        let (mut hit, mut twin, _) = twins(10);
        let e = hit.add_body(desc).unwrap_err();
        assert_eq!(e, WorldError::InvalidBody { field, rule: field.rule(), value }, "{what}");
        let shown = e.to_string();
        assert!(shown.starts_with(field.name()), "{what}: {shown}");
        assert!(shown.contains(&field.rule().to_string()), "{what}: {shown}");
        assert!(shown.ends_with(&format!("got {value}")), "{what}: {shown}");
        assert_unchanged(&mut hit, &mut twin, what);
    }
}

/// NaN is refused in every field, by the field's rule.
#[test]
fn nan_is_refused_in_every_field_of_a_body() {
    let v = Vector3::new(0.0, NAN, 0.0);
    let mut nan_rotation = Isometry3::identity();
    nan_rotation.rotation = UnitQuaternion::new_unchecked(Quaternion::new(NAN, 0.0, 0.0, 0.0));
    let cases: [(BodyDesc, BodyField); 9] = [
        (BodyDesc::dynamic(cube()).with_position(v), BodyField::Position),
        (BodyDesc { pose: nan_rotation, ..BodyDesc::dynamic(cube()) }, BodyField::Rotation),
        (BodyDesc::dynamic(cube()).with_linear_velocity(v), BodyField::LinearVelocity),
        (BodyDesc::dynamic(cube()).with_angular_velocity(v), BodyField::AngularVelocity),
        (BodyDesc::dynamic(cube()).with_density(NAN), BodyField::Density),
        (BodyDesc::dynamic(cube()).with_friction(NAN), BodyField::Friction),
        (BodyDesc::dynamic(cube()).with_restitution(NAN), BodyField::Restitution),
        (
            BodyDesc::dynamic(Cuboid::new(Vector3::new(1.0, NAN, 1.0)).into()),
            BodyField::CuboidHalfExtents,
        ),
        (BodyDesc::dynamic(Sphere::new(NAN).into()), BodyField::SphereRadius),
    ];
    let mut world = common::world(true);
    for (desc, field) in cases {
        match world.add_body(desc) {
            Err(WorldError::InvalidBody { field: f, value, .. }) if f == field => {
                assert!(value.is_nan(), "{field}: {value}");
            }
            other => panic!("{field}: {other:?}"),
        }
    }
    assert_eq!(world.body_count(), 0);
}

/// The settings, and one bad value of every other setting: each is
/// refused by `validate`, by `with_settings` and by `set_settings`, with
/// the setting, and `set_settings` leaves the world as it was.
#[test]
fn refused_settings_name_the_setting_and_leave_the_world_unchanged() {
    let d = StepSettings::default();
    let cases: [(StepSettings, Setting, f64); 16] = [
        (
            StepSettings { gravity: Vector3::new(0.0, f32::NAN, 0.0), ..d },
            Setting::Gravity,
            f64::NAN,
        ),
        (StepSettings { substeps: 0, ..d }, Setting::Substeps, 0.0),
        (StepSettings { substeps: MAX_SUBSTEPS + 1, ..d }, Setting::Substeps, 65.0),
        (StepSettings { contact_hertz: -5.0, ..d }, Setting::ContactHertz, -5.0),
        (StepSettings { contact_hertz: 0.0, ..d }, Setting::ContactHertz, 0.0),
        (StepSettings { contact_hertz: 1000.5, ..d }, Setting::ContactHertz, 1000.5),
        (StepSettings { threads: 1_000_000, ..d }, Setting::Threads, 1e6),
        (StepSettings { threads: 0, ..d }, Setting::Threads, 0.0),
        (StepSettings { push_iterations: 0, ..d }, Setting::PushIterations, 0.0),
        (StepSettings { relax_iterations: 17, ..d }, Setting::RelaxIterations, 17.0),
        (StepSettings { mass_ratio_iterations: 17, ..d }, Setting::MassRatioIterations, 17.0),
        (StepSettings { contact_damping_ratio: -1.0, ..d }, Setting::ContactDampingRatio, -1.0),
        (
            StepSettings { max_contact_sag: f32::INFINITY, ..d },
            Setting::MaxContactSag,
            f64::INFINITY,
        ),
        (StepSettings { max_push_out_velocity: -3.0, ..d }, Setting::MaxPushOutVelocity, -3.0),
        (StepSettings { sleep_velocity: -0.05, ..d }, Setting::SleepVelocity, -0.05f32 as f64),
        (StepSettings { time_to_sleep: f32::NAN, ..d }, Setting::TimeToSleep, f64::NAN),
    ];
    for (bad, setting, value) in cases {
        let what = format!("{setting} = {value}");
        let e = bad.validate().unwrap_err();
        assert_eq!((e.setting, e.rule), (setting, setting.rule()), "{what}");
        assert!((e.value.is_nan() && value.is_nan()) || e.value == value, "{what}: {}", e.value);
        assert!(e.to_string().starts_with(setting.name()), "{what}: {e}");
        assert!(e.to_string().contains(&setting.rule().to_string()), "{what}: {e}");
        assert!(
            matches!(World::with_settings(bad), Err(WorldError::InvalidSettings(s)) if same(&s, &e)),
            "{what}: with_settings took it"
        );
        // Once while the pyramid still moves, once when it sleeps (the
        // refused change must not wake it).
        for warm_up in [10, 240] {
            let (mut hit, mut twin, _) = twins(warm_up);
            assert!(
                matches!(hit.set_settings(bad), Err(WorldError::InvalidSettings(s)) if same(&s, &e)),
                "{what}: set_settings took it"
            );
            assert_unchanged(&mut hit, &mut twin, &what);
        }
    }
}

/// The same error, NaN values included.
fn same(a: &SettingsError, b: &SettingsError) -> bool {
    (a.setting, a.rule, a.value.to_bits()) == (b.setting, b.rule, b.value.to_bits())
}

/// Each setter refuses bad values with the field named, and leaves the
/// world unchanged: a sleeping body stays asleep, a moving one moves on.
#[test]
fn refused_setter_values_leave_the_world_unchanged() {
    type Call = fn(&mut World, BodyId) -> Result<(), WorldError>;
    let cases: [(&str, Call, BodyField); 9] = [
        (
            "set_pose NaN position",
            |w, id| w.set_pose(id, Isometry3::translation(NAN, 1.0, 0.0)),
            BodyField::Position,
        ),
        (
            "set_pose at x = 1e6",
            |w, id| w.set_pose(id, Isometry3::translation(1e6, 1.0, 0.0)),
            BodyField::Position,
        ),
        (
            "set_pose NaN rotation",
            |w, id| {
                let q = UnitQuaternion::new_unchecked(Quaternion::new(1.0, NAN, 0.0, 0.0));
                w.set_pose(id, Isometry3::from_parts(Translation3::new(0.0, 1.0, 0.0), q))
            },
            BodyField::Rotation,
        ),
        (
            "set_pose rotation of norm 0.5",
            |w, id| {
                let q = UnitQuaternion::new_unchecked(Quaternion::new(0.5, 0.0, 0.0, 0.0));
                w.set_pose(id, Isometry3::from_parts(Translation3::new(0.0, 1.0, 0.0), q))
            },
            BodyField::Rotation,
        ),
        (
            "set_linear_velocity NaN",
            |w, id| w.set_linear_velocity(id, Vector3::new(1.0, NAN, 0.0)),
            BodyField::LinearVelocity,
        ),
        (
            "set_angular_velocity infinite",
            |w, id| w.set_angular_velocity(id, Vector3::new(0.0, 0.0, -f32::INFINITY)),
            BodyField::AngularVelocity,
        ),
        (
            "apply_impulse NaN impulse",
            |w, id| w.apply_impulse(id, Vector3::new(NAN, 0.0, 0.0), Point3::origin()),
            BodyField::Impulse,
        ),
        (
            "apply_impulse NaN point",
            |w, id| w.apply_impulse(id, Vector3::x(), Point3::new(0.0, 0.0, NAN)),
            BodyField::ImpulsePoint,
        ),
        (
            "apply_impulse infinite impulse",
            |w, id| w.apply_impulse(id, Vector3::new(0.0, f32::INFINITY, 0.0), Point3::origin()),
            BodyField::Impulse,
        ),
    ];
    for (what, call, field) in cases {
        // The pyramid's top cube while the scene moves, then asleep.
        for warm_up in [10, 240] {
            let (mut hit, mut twin, ids) = twins(warm_up);
            let top = ids[ids.len() - 2];
            if warm_up == 240 {
                assert_eq!(hit.is_awake(top), Some(false), "{what}: the pyramid did not sleep");
            }
            match call(&mut hit, top) {
                Err(WorldError::InvalidBody { field: f, rule, .. }) if f == field => {
                    assert_eq!(rule, field.rule(), "{what}");
                }
                other => panic!("{what}: {other:?}"),
            }
            assert_unchanged(&mut hit, &mut twin, what);
        }
    }
}

/// A step of a `dt` that is not positive and finite is reported and
/// changes nothing.
#[test]
fn a_bad_time_step_leaves_the_world_unchanged() {
    for dt in [0.0, -1.0 / 60.0, f32::NAN, f32::INFINITY] {
        let (mut hit, mut twin, _) = twins(10);
        assert!(matches!(hit.step(dt), StepOutcome::IgnoredDt { .. }), "dt {dt}");
        assert_unchanged(&mut hit, &mut twin, &format!("dt {dt}"));
    }
}

/// The values on the edge of each rule are taken as given, not clamped.
#[test]
fn values_on_the_edge_of_each_rule_are_accepted() {
    let mut w = common::world(true);
    let edge = [
        BodyDesc::dynamic(cube()).with_friction(0.0),
        BodyDesc::dynamic(cube()).with_restitution(0.0),
        BodyDesc::dynamic(cube()).with_restitution(1.0),
        BodyDesc::dynamic(Capsule::new(0.0, 0.5).into()),
        BodyDesc::fixed(cube()).with_position(Vector3::new(WORLD_BOUND, -WORLD_BOUND, 0.0)),
    ];
    for (i, desc) in edge.into_iter().enumerate() {
        let (friction, restitution) = (desc.shapes[0].friction, desc.shapes[0].restitution);
        let at_bound = i == 4;
        let desc = if at_bound {
            desc
        } else {
            desc.with_position(Vector3::new(-WORLD_BOUND + 10.0 * i as f32, 0.0, 0.0))
        };
        let id = w.add_body(desc).unwrap_or_else(|e| panic!("body {i}: {e}"));
        assert!(w.pose(id).is_some());
        if at_bound {
            continue;
        }
        // Pairs combine frictions as the geometric mean and restitutions as
        // the maximum: against a fixed neighbour of friction 1 and
        // restitution 0, the body's own values show, unclamped.
        let beside = w.pose(id).unwrap().translation.vector + Vector3::new(0.0, 0.0, 1.0);
        let neighbour =
            w.add_body(BodyDesc::fixed(cube()).with_position(beside).with_friction(1.0)).unwrap();
        common::step(&mut w);
        let pair = w
            .contacts()
            .find(|c| {
                let pair = [c.body_a, c.body_b];
                pair.contains(&id) && pair.contains(&neighbour)
            })
            .unwrap_or_else(|| panic!("body {i}: no pair with its neighbour"));
        assert_eq!((pair.friction, pair.restitution), (friction.sqrt(), restitution), "body {i}");
        w.remove_body(neighbour).unwrap();
    }
    for substeps in [1, MAX_SUBSTEPS] {
        let settings = StepSettings { substeps, ..StepSettings::default() };
        assert_eq!(settings.validate(), Ok(()));
        let mut world = World::with_settings(settings).unwrap();
        build_scene(&mut world, Scene::Stack, 2).unwrap();
        common::run(&mut world, 2);
        w.set_settings(settings).unwrap();
        assert_eq!(w.settings().substeps, substeps);
    }
    for threads in [1, MAX_THREADS] {
        let settings = StepSettings { threads, ..StepSettings::default() };
        assert_eq!(World::with_settings(settings).unwrap().settings().threads, threads);
    }
    // A pose read back from the world after steps of a spinning body is a
    // rotation the world takes back.
    let spinner = w
        .add_body(
            BodyDesc::dynamic(cube())
                .with_position(Vector3::new(0.0, 50.0, 0.0))
                .with_angular_velocity(Vector3::new(3.0, 7.0, 1.0)),
        )
        .unwrap();
    common::run(&mut w, 120);
    let pose = *w.pose(spinner).unwrap();
    assert_eq!(w.set_pose(spinner, pose), Ok(()));
}

/// Poses a settled pyramid: all asleep.
fn asleep_pyramid(gravity: Vector3<f32>) -> (World, Vec<BodyId>) {
    let mut w = World::with_settings(StepSettings { gravity, ..StepSettings::default() }).unwrap();
    let ids = build_scene(&mut w, Scene::Pyramid, 4).unwrap();
    common::run(&mut w, 300);
    assert!(ids.iter().all(|&b| w.is_awake(b) == Some(false)), "the pyramid did not fall asleep");
    (w, ids)
}

/// The app's gravity slider left bodies asleep in mid-air: a change of
/// gravity wakes every sleeping body, and they move as the new gravity
/// says. Turned sideways with no vertical part, there is no friction, so
/// every cube slides as a free body: x = g t² / 2 (within 5%).
#[test]
fn changing_gravity_wakes_sleeping_bodies_and_they_move() {
    let (mut w, ids) = asleep_pyramid(Vector3::new(0.0, -9.81, 0.0));
    let before: Vec<f32> = ids.iter().map(|&b| w.pose(b).unwrap().translation.x).collect();
    let g = 4.0;
    w.set_settings(StepSettings { gravity: Vector3::new(g, 0.0, 0.0), ..*w.settings() }).unwrap();
    assert!(ids.iter().all(|&b| w.is_awake(b) == Some(true)), "gravity did not wake the pyramid");
    let steps = 60;
    common::run(&mut w, steps);
    let t = steps as f32 * common::DT;
    let expected = 0.5 * g * t * t;
    for (&b, x0) in ids.iter().zip(before) {
        let moved = w.pose(b).unwrap().translation.x - x0;
        assert!((moved - expected).abs() < 0.05 * expected, "{b:?} moved {moved}, not {expected}");
    }
}

/// Bodies asleep in mid-air at zero gravity fall when gravity comes back
/// (the 1,000 cubes at gravity −4): y drops by g t² / 2.
#[test]
fn bodies_asleep_in_mid_air_fall_when_gravity_returns() {
    let mut w = common::world(true);
    w.set_settings(StepSettings { gravity: Vector3::zeros(), ..*w.settings() }).unwrap();
    let ids: Vec<BodyId> = (0..4)
        .map(|i| {
            let at = Vector3::new(3.0 * i as f32, 20.0, 0.0);
            w.add_body(BodyDesc::dynamic(cube()).with_position(at)).unwrap()
        })
        .collect();
    common::run(&mut w, 60);
    assert!(ids.iter().all(|&b| w.is_awake(b) == Some(false)), "the floating cubes did not sleep");
    let g = 4.0;
    w.set_settings(StepSettings { gravity: Vector3::new(0.0, -g, 0.0), ..*w.settings() }).unwrap();
    let steps = 60;
    common::run(&mut w, steps);
    let t = steps as f32 * common::DT;
    let expected = 0.5 * g * t * t;
    for &b in &ids {
        let fell = 20.0 - w.pose(b).unwrap().translation.y;
        assert!((fell - expected).abs() < 0.05 * expected, "{b:?} fell {fell}, not {expected}");
    }
}

/// Settings that change no motion (threads, contact recycling, the sleep
/// thresholds) leave a sleeping pyramid asleep; each motion setting wakes
/// it.
#[test]
fn only_settings_that_change_motion_wake_bodies() {
    let d = StepSettings::default();
    let keep = [
        StepSettings { threads: 2, ..d },
        StepSettings { contact_recycling: false, ..d },
        StepSettings { sleep_velocity: 0.02, time_to_sleep: 1.0, ..d },
        d,
    ];
    let wake = [
        StepSettings { gravity: Vector3::new(0.0, -4.0, 0.0), ..d },
        StepSettings { substeps: 4, ..d },
        StepSettings { push_iterations: 2, ..d },
        StepSettings { relax_iterations: 2, ..d },
        StepSettings { mass_ratio_iterations: 8, ..d },
        StepSettings { contact_hertz: 30.0, ..d },
        StepSettings { max_contact_sag: 0.01, ..d },
        StepSettings { contact_damping_ratio: 5.0, ..d },
        StepSettings { max_push_out_velocity: 1.0, ..d },
        StepSettings { restitution_threshold: 0.5, ..d },
        StepSettings { sleep_enabled: false, ..d },
    ];
    for (settings, wakes) in keep.iter().map(|s| (s, false)).chain(wake.iter().map(|s| (s, true))) {
        let (mut w, ids) = asleep_pyramid(d.gravity);
        w.set_settings(*settings).unwrap();
        for &b in &ids {
            assert_eq!(w.is_awake(b), Some(wakes), "{settings:?}");
        }
    }
}

/// Loading a scene with refused settings is a `LoadError` whose one-line
/// message names the setting once (the world error's message already holds
/// the settings error's, so it is not repeated as a cause).
#[test]
fn refused_settings_when_loading_a_scene_are_named_once() {
    let settings = StepSettings { threads: 100, ..StepSettings::default() };
    let e = SceneSource::named(Scene::Stack).build(settings).unwrap_err();
    assert!(
        matches!(&e, LoadError::Settings(WorldError::InvalidSettings(s)) if s.setting == Setting::Threads),
        "{e:?}"
    );
    let shown = e.render();
    assert_eq!(shown.matches("threads must be").count(), 1, "{shown}");
    assert!(shown.ends_with("got 100"), "{shown}");
}

/// A mesh or a heightfield on a dynamic body is refused with its kind
/// named (a surface has no volume, so no mass), and the world is
/// unchanged; fixed and kinematic ones are taken, and compounds of solid
/// parts on bodies of every kind.
#[test]
fn dynamic_meshes_and_heightfields_are_refused_by_kind() {
    use collide::{Compound, HeightField, TriMesh};
    let quad = vec![
        Point3::new(-1.0, 0.0, -1.0),
        Point3::new(1.0, 0.0, -1.0),
        Point3::new(1.0, 0.0, 1.0),
        Point3::new(-1.0, 0.0, 1.0),
    ];
    let mesh = TriMesh::try_new(quad, vec![[0, 1, 2], [2, 3, 0]]).unwrap();
    let field = HeightField::try_new(2, 2, vec![0.0; 4], [1.0, 1.0]).unwrap();
    let parts =
        vec![(cube(), Isometry3::identity()), (cube(), Isometry3::translation(1.0, 0.0, 0.0))];
    let compound: Shape = Compound::try_new(parts).unwrap().into();
    let surfaces: [(Shape, &str); 2] = [(mesh.into(), "mesh"), (field.into(), "heightfield")];
    for (shape, kind) in surfaces {
        let (mut hit, mut twin, _) = twins(0);
        let e = hit.add_body(BodyDesc::dynamic(shape.clone())).unwrap_err();
        assert_eq!(e, WorldError::UnsupportedShape { kind }, "{e}");
        assert!(e.to_string().contains(kind), "{e}");
        assert_unchanged(&mut hit, &mut twin, kind);
        // Also as the second shape of a body whose first has a mass.
        let (mut hit, mut twin, _) = twins(0);
        let desc = BodyDesc::dynamic(cube()).with_shape(BodyShape::new(shape.clone()));
        assert_eq!(hit.add_body(desc), Err(WorldError::UnsupportedShape { kind }));
        assert_unchanged(&mut hit, &mut twin, kind);
        for desc in [BodyDesc::fixed(shape.clone()), BodyDesc::kinematic(shape.clone())] {
            let mut world = World::new();
            assert!(world.add_body(desc).is_ok(), "{kind}");
        }
    }
    for desc in [
        BodyDesc::dynamic(compound.clone()),
        BodyDesc::fixed(compound.clone()),
        BodyDesc::kinematic(compound.clone()),
    ] {
        let mut world = World::new();
        assert!(world.add_body(desc).is_ok());
    }
}
