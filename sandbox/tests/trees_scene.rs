//! box3d's `trees` scene as `shared/SCENES.md` defines it: its body, shape
//! and triangle counts at sizes 1 and 2, its prisms' spans and the trees'
//! starting poses and velocities, each against the text's formulas
//! evaluated here on their own; and a few steps run.

use collide::Shape;
use collide::nalgebra::Vector3;
use sandbox::{BodyKind, Scene, World, build_scene};

use crate::common::step;

/// The spans of the 22 prisms along the tree's y and their radii, from
/// the text: `y_0 = 1`, `r_0 = 0.75`, `l = 1.5`, each spanning
/// `[y_t − r_t, y_t + l + r_t]`, `y_(t+1) = y_t + l + 2 r_t`,
/// `r_(t+1) = 0.95 r_t`.
fn prism_spans() -> Vec<(f64, f64, f64)> {
    let (mut y, mut r, l) = (1.0f64, 0.75f64, 1.5f64);
    let mut out = Vec::new();
    for _ in 0..22 {
        out.push((y - r, y + l + r, r));
        y += l + 2.0 * r;
        r *= 0.95;
    }
    out
}

#[test]
fn trees_has_the_counts_and_poses_scenes_md_gives() {
    assert_eq!(Scene::Trees.name(), "trees");
    assert_eq!("trees".parse::<Scene>(), Ok(Scene::Trees));
    assert_eq!(Scene::Trees.default_size(), 1);
    assert_eq!(Scene::Trees.default_steps(), 500);
    assert!(Scene::ALL.contains(&Scene::Trees));
    for size in [1usize, 2] {
        let mut world = World::new();
        let trees = build_scene(&mut world, Scene::Trees, size).unwrap();
        assert_eq!(trees.len(), 50);
        assert_eq!(world.body_count(), 51, "the ground and 50 trees");
        let ground = world.bodies().find(|&id| world.kind(id) == Some(BodyKind::Fixed)).unwrap();
        let Some(Shape::TriMesh(mesh)) = world.shape(ground) else {
            panic!("the ground is {:?}", world.shape(ground).map(Shape::kind_name))
        };
        // (150 s) × (200 s) cells, two triangles each; vertices on the grid.
        assert_eq!(mesh.triangle_count(), 2 * 150 * size * 200 * size);
        assert_eq!(mesh.vertices().len(), (150 * size + 1) * (200 * size + 1));
        let c = 1.0 / size as f64;
        let z_count = 200 * size;
        for (i, j) in [(0usize, 0usize), (3, 7), (150 * size, 200 * size), (17, 123)] {
            let v = mesh.vertices()[j + (z_count + 1) * i];
            let x = -c * (150 * size) as f64 / 2.0 + c * i as f64;
            let y = 0.4
                * (2.0 * std::f64::consts::PI * 0.1 * c * i as f64).sin()
                * (2.0 * std::f64::consts::PI * 0.05 * c * j as f64).sin();
            let z = -c * z_count as f64 / 2.0 + c * j as f64;
            let got = [f64::from(v.x), f64::from(v.y), f64::from(v.z)];
            for (g, w) in got.iter().zip([x, y, z]) {
                assert!((g - w).abs() < 1e-4, "vertex ({i}, {j}): {got:?} vs {:?}", [x, y, z]);
            }
        }
        let spans = prism_spans();
        for (n, &id) in trees.iter().enumerate() {
            assert_eq!(world.kind(id), Some(BodyKind::Dynamic));
            assert_eq!(world.shape_count(id), Some(22));
            assert_eq!(world.sleep_threshold(id), Some(0.2));
            let pose = world.pose(id).unwrap();
            assert_eq!(pose.translation.vector, Vector3::new(0.0, 1.0, -70.0 + 3.0 * n as f32));
            let sign = if n % 2 == 0 { -1.0 } else { 1.0 };
            let w = world.angular_velocity(id).unwrap();
            let want_w = sign * 0.5 * (0.5 + 0.5 * n as f32 / 50.0);
            assert!((w - Vector3::new(0.0, 0.0, want_w)).norm() < 1e-6, "tree {n}: {w:?}");
            // The frame's origin starts still: v = ω × (centre − origin).
            let center = world.mass_properties(id).unwrap().local_center;
            let v = world.linear_velocity(id).unwrap();
            assert!((v - w.cross(&center.coords)).norm() < 1e-5, "tree {n}: {v:?}");
            for (t, &(low, high, r)) in spans.iter().enumerate() {
                let s = world.body_shape(id, t).unwrap();
                assert_eq!((s.friction, s.rolling_resistance, s.density), (0.9, 0.05, 1.0));
                let Shape::ConvexHull(hull) = &s.shape else { panic!("prism {t}") };
                assert_eq!(hull.vertices().len(), 12, "prism {t}");
                for p in hull.vertices() {
                    let (y, radial) = (f64::from(p.y), f64::from(p.x.hypot(p.z)));
                    let at_end = (y - low).abs() < 1e-4 || (y - high).abs() < 1e-4;
                    assert!(at_end && (radial - r).abs() < 1e-4, "prism {t}: {p:?}");
                }
            }
        }
    }
}

#[test]
fn trees_steps() {
    let mut world = World::new();
    let trees = build_scene(&mut world, Scene::Trees, 1).unwrap();
    for _ in 0..30 {
        step(&mut world);
    }
    // Standing on the waves, not through them: no prism's corner below
    // the lowest wave (−0.4 m) by more than the contacts' softness.
    for &id in &trees {
        let pose = *world.pose(id).unwrap();
        for t in 0..22 {
            let Shape::ConvexHull(hull) = world.body_shape(id, t).unwrap().shape else { panic!() };
            let lowest = hull.vertices().iter().map(|p| (pose * p).y).fold(f32::MAX, f32::min);
            assert!(lowest > -0.4 - 0.02, "{id:?} prism {t} sank to {lowest}");
        }
    }
    assert!(world.contact_point_count() > 0);
}

#[test]
fn trees_contacts_never_push_through_the_waves() {
    // A tilted tree's bottom prism, resting on the waves, has its frame's
    // origin below them; its contacts once got the triangles' normals
    // flipped, pushing it down through the mesh about 3.3 m deep.
    let mut world = World::new();
    build_scene(&mut world, Scene::Trees, 1).unwrap();
    for n in 0..60 {
        step(&mut world);
        for c in world.view().contacts() {
            for p in c.points() {
                assert!(
                    p.separation >= -0.1,
                    "step {n}: {:?}/{} vs {:?}/{}: separation {} normal {:?}",
                    c.body_a,
                    c.shape_a,
                    c.body_b,
                    c.shape_b,
                    p.separation,
                    c.normal
                );
            }
        }
    }
}
