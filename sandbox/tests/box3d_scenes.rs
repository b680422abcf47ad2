//! box3d's benchmark scenes as `shared/SCENES.md` ("box3d's benchmark
//! scenes") defines them: `large-pyramid`, `many-pyramids` and
//! `convex-pile`. The oracle is the text's closed forms, written out here
//! apart from the builder: body and shape counts, the ground, densities,
//! the sleep setting, the first, last and a few middle positions, and
//! `convex-pile`'s hull drawn from PEEL's generator as the text gives it.

use collide::Shape;
use collide::nalgebra::{Point3, Vector3};
use sandbox::{BodyId, BodyKind, Scene, StepSettings, World, build_scene};

fn built(scene: Scene, size: usize) -> (World, Vec<BodyId>) {
    let mut world = World::with_settings(StepSettings::default()).unwrap();
    let ids = build_scene(&mut world, scene, size).unwrap();
    (world, ids)
}

fn position(world: &World, id: BodyId) -> Vector3<f32> {
    world.pose(id).unwrap().translation.vector
}

fn assert_near(got: Vector3<f32>, want: Vector3<f32>, what: &str) {
    assert!((got - want).norm() < 1e-4, "{what}: at {got:?}, SCENES.md puts it at {want:?}");
}

/// The ground is the first body: fixed, a cuboid of half-extents
/// `(g, 1, g)` centred at `(0, -1, 0)`.
fn assert_ground(world: &World, g: f32) {
    let ground = world.bodies().next().unwrap();
    assert_eq!(world.kind(ground), Some(BodyKind::Fixed));
    let Some(Shape::Cuboid(c)) = world.shape(ground) else {
        panic!("the ground is a {:?}", world.shape(ground));
    };
    assert_eq!(c.half_extents, Vector3::new(g, 1.0, g));
    assert_eq!(position(world, ground), Vector3::new(0.0, -1.0, 0.0));
}

/// Every scene body is dynamic, with one shape, a cube of half-extent 0.5
/// (`cube`), and the mass its density gives.
fn assert_bodies(world: &World, ids: &[BodyId], mass: f32, cube: bool) {
    for &b in ids {
        assert_eq!(world.kind(b), Some(BodyKind::Dynamic));
        let shape = world.shape(b).unwrap();
        if cube {
            assert!(
                matches!(shape, Shape::Cuboid(c) if c.half_extents == Vector3::repeat(0.5)),
                "{shape:?}"
            );
        } else {
            assert!(matches!(shape, Shape::ConvexHull(_)), "{shape:?}");
        }
        let m = world.mass_properties(b).unwrap().mass;
        assert!((m - mass).abs() < 1e-3 * mass, "mass {m}, expected {mass}");
    }
}

#[test]
fn large_pyramid_is_pyramid_100_at_density_100_with_sleeping_off() {
    let (world, ids) = built(Scene::LargePyramid, Scene::LargePyramid.default_size());
    assert_eq!(ids.len(), 5050);
    assert_eq!(world.body_count(), 5051, "the ground and the cubes, one shape each");
    assert_eq!(Scene::LargePyramid.body_count(100), Some(5050));
    assert_ground(&world, 400.0);
    assert_bodies(&world, &ids, 100.0, true);
    assert!(!world.settings().sleep_enabled);
    // Where `pyramid` of size 100 puts cube j of row r.
    let mut k = 0;
    for r in 0..100 {
        let c = 100 - r;
        for j in 0..c {
            let want = Vector3::new(j as f32 - (c as f32 - 1.0) / 2.0, 0.5 + r as f32, 0.0);
            assert_near(position(&world, ids[k]), want, &format!("row {r} cube {j}"));
            k += 1;
        }
    }
    assert_eq!(Scene::LargePyramid.default_steps(), 200);
}

#[test]
fn many_pyramids_counts_and_positions_follow_scenes_md() {
    let n = Scene::ManyPyramids.default_size();
    assert_eq!(n, 14);
    let (world, ids) = built(Scene::ManyPyramids, n);
    assert_eq!(ids.len(), 10_780);
    assert_eq!(world.body_count(), 10_781);
    assert_eq!(Scene::ManyPyramids.body_count(n), Some(10_780));
    let g = 0.5 * 11.0 * n as f32;
    assert_ground(&world, g);
    assert_bodies(&world, &ids, 100.0, true);
    assert!(!world.settings().sleep_enabled, "its cubes never sleep");
    // Pyramid (a, b), layer i, cube j in i..10: the 55 cubes of each
    // pyramid in turn, row by row of pyramids.
    let cube_at = |a: usize, b: usize, i: usize, j: usize| {
        let centre_x = -g + 11.0 * b as f32 + 1.0;
        let z = -g + 1.0 + a as f32 * 2.0 * (g - 1.0) / (n as f32 - 1.0);
        Vector3::new(0.5 * i as f32 + (j - i) as f32 + centre_x, i as f32 + 0.5, z)
    };
    let index = |a: usize, b: usize, i: usize, j: usize| {
        // Layers before i hold 10, 9, ..., 11 - i cubes.
        let before: usize = (0..i).map(|l| 10 - l).sum();
        (a * n + b) * 55 + before + (j - i)
    };
    for (a, b, i, j) in [(0, 0, 0, 0), (0, 0, 9, 9), (0, 1, 3, 7), (6, 11, 4, 4), (13, 13, 0, 9)] {
        let k = index(a, b, i, j);
        assert_near(position(&world, ids[k]), cube_at(a, b, i, j), &format!("({a}, {b}) {i} {j}"));
    }
    assert_eq!(index(13, 13, 9, 9), ids.len() - 1);
    // The rows span the ground less a metre at each side.
    assert_near(position(&world, ids[0]), Vector3::new(-g + 1.0, 0.5, -g + 1.0), "first");
    assert!((position(&world, ids[ids.len() - 1]).z - (g - 1.0)).abs() < 1e-4);
    // At N = 1: one pyramid, the ground 5.5 wide.
    let (world, ids) = built(Scene::ManyPyramids, 1);
    assert_eq!(ids.len(), 55);
    assert_ground(&world, 5.5);
    assert_near(position(&world, ids[0]), Vector3::new(-4.5, 0.5, -4.5), "N = 1");
    assert_eq!(Scene::ManyPyramids.default_steps(), 100);
}

/// PEEL's generator as SCENES.md states it, written out apart from the
/// scene builder.
fn peel_points() -> Vec<Point3<f32>> {
    let mut state: u32 = 42;
    let mut coordinate = || {
        state = state.wrapping_mul(2_147_001_325).wrapping_add(715_136_305);
        (state & 0xFFFF) as f32 / 65535.0 - 0.5
    };
    (0..32)
        .map(|_| {
            loop {
                let p = Vector3::new(coordinate(), coordinate(), coordinate());
                if p.norm_squared() <= 0.25 {
                    break Point3::from(p.normalize() * 2.0);
                }
            }
        })
        .collect()
}

#[test]
fn convex_pile_counts_hull_and_positions_follow_scenes_md() {
    let layers = Scene::ConvexPile.default_size();
    assert_eq!(layers, 80);
    let (world, ids) = built(Scene::ConvexPile, layers);
    assert_eq!(ids.len(), 5120);
    assert_eq!(world.body_count(), 5121);
    assert_ground(&world, 250.0);
    assert!(world.settings().sleep_enabled, "convex-pile keeps sleeping on");
    let Some(Shape::ConvexHull(hull)) = world.shape(ids[0]) else {
        panic!("not a hull: {:?}", world.shape(ids[0]));
    };
    // Points on a sphere are all extreme: the hull keeps every one of them.
    let points = peel_points();
    assert_eq!(hull.vertices().len(), 32);
    for v in hull.vertices() {
        assert!((v.coords.norm() - 2.0).abs() < 1e-5, "vertex {v:?} off the sphere");
        let nearest = points.iter().map(|p| (p - v).norm()).fold(f32::INFINITY, f32::min);
        assert!(nearest < 1e-5, "vertex {v:?} is not one of PEEL's points");
    }
    // Density 1: the mass is the hull's volume.
    assert_bodies(&world, &ids, hull.volume(), false);
    for (layer, z, x) in [(0, 0, 0), (0, 0, 7), (0, 7, 0), (1, 0, 0), (41, 3, 5), (79, 7, 7)] {
        let k = layer * 64 + z * 8 + x;
        let want =
            Vector3::new((x as f32 - 4.0) * 4.0, 2.0 + 4.0 * layer as f32, (z as f32 - 4.0) * 4.0);
        assert_near(position(&world, ids[k]), want, &format!("layer {layer} z {z} x {x}"));
    }
    assert_eq!(Scene::ConvexPile.default_steps(), 500);
}

#[test]
fn box3d_scenes_are_named_and_listed() {
    for (scene, name) in [
        (Scene::LargePyramid, "large-pyramid"),
        (Scene::ManyPyramids, "many-pyramids"),
        (Scene::ConvexPile, "convex-pile"),
        (Scene::JointGrid, "joint-grid"),
        (Scene::Washer, "washer"),
        (Scene::Junkyard, "junkyard"),
        (Scene::LargeWorld, "large-world"),
        (Scene::Trees, "trees"),
    ] {
        assert_eq!(scene.name(), name);
        assert_eq!(name.parse::<Scene>(), Ok(scene));
        assert!(Scene::ALL.contains(&scene));
        assert!(scene.is_box3d());
    }
    assert!(Scene::ALL.iter().filter(|s| s.is_box3d()).count() == 8);
}

/// `sandbox bench --scene NAME` runs each, by default for box3d's step
/// count.
#[cfg(feature = "cli")]
#[test]
fn bench_runs_box3d_scenes_for_box3d_step_counts() {
    use std::process::Command;
    for (name, size, steps) in [("many-pyramids", "1", 100), ("convex-pile", "1", 500)] {
        let out = Command::new(env!("CARGO_BIN_EXE_sandbox"))
            .args(["bench", "--scene", name, "--size", size, "--json"])
            .output()
            .expect("runs the binary");
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "{name}: {}", String::from_utf8_lossy(&out.stderr));
        let last = stdout.lines().last().unwrap_or_default();
        assert!(last.contains(&format!("\"steps\":{steps},")), "{name}: {last}");
        assert!(last.contains(&format!("\"scene\":\"{name}\"")), "{name}: {last}");
    }
    let out = Command::new(env!("CARGO_BIN_EXE_sandbox"))
        .args(["bench", "--scene", "large-pyramid", "--size", "4", "--steps", "3", "--json"])
        .output()
        .expect("runs the binary");
    let last = String::from_utf8_lossy(&out.stdout).lines().last().unwrap_or_default().to_owned();
    assert!(last.contains("\"steps\":3,") && last.contains("\"bodies\":10,"), "{last}");
    assert!(last.contains("\"sleep\":false"), "{last}");
}
