//! The sandbox's everyday contact: a box of half extent 0.5 resting on a
//! 100 m ground slab (half extents (50, 0.5, 50), top face at y = 0), sunk
//! 0.1–5 mm, at random x/z and with small random tilts. The depth must be the
//! overlap and the normal must be ±Y (from A to B), under the identity and
//! with the whole scene moved by a random rigid transform.

use tests::generators;
use tests::nalgebra::{Isometry3, Translation3, Vector3};
use tests::runner::Batch;
use tests::{Expected, Pair, Params, SplitMix64, TestShape, Tolerances, check_pair};

const SEED: u64 = 0x620D;
const CASES: u64 = 5_000;
/// Largest tilt of the box, radians (about 3 degrees).
const MAX_TILT: f64 = 0.05;
/// The normal must be within ~0.26 degrees of ±Y: `1 - |n.y| <= this`.
const NORMAL_TOL: f32 = 1e-5;

fn slab_case(rng: &mut SplitMix64) -> Result<(Pair, f64), String> {
    let slab = TestShape::new(Params::Cuboid { half: Vector3::new(50.0, 0.5, 50.0) })?;
    let cube = TestShape::new(Params::Cuboid { half: Vector3::repeat(0.5) })?;
    let rotation = rng.small_rotation(MAX_TILT);
    // Lowest corner of the tilted box below its centre: h * sum_k |R_{y,k}|.
    let m = rotation.to_rotation_matrix();
    let reach = 0.5 * (m[(1, 0)].abs() + m[(1, 1)].abs() + m[(1, 2)].abs());
    let overlap = rng.range(1e-4, 5e-3);
    let centre = Vector3::new(
        rng.range(-45.0, 45.0) as f32,
        (f64::from(reach) - overlap) as f32,
        rng.range(-45.0, 45.0) as f32,
    );
    let pair = Pair {
        a: slab,
        pose_a: Isometry3::translation(0.0, -0.5, 0.0),
        b: cube,
        pose_b: Isometry3::from_parts(Translation3::from(centre), rotation),
    };
    Ok((pair, overlap))
}

#[test]
fn box_resting_on_ground_slab() {
    let mut batch = Batch::default();
    for i in 0..CASES {
        let mut rng = SplitMix64::for_case(SEED, i);
        let result = slab_case(&mut rng).and_then(|(pair, overlap)| {
            // The oracle itself must see the intended overlap along +Y (up to
            // the f32 rounding of the pose).
            let (a, b) = pair.oracles();
            match tests::expected_separation(&a, &b) {
                Expected::Overlapping { depth, normal, .. }
                    if (depth - overlap).abs() < 1e-6 && normal.y > 0.999_999 => {}
                other => return Err(format!("oracle sees {other:?}, intended {overlap}")),
            }
            // Under the identity and a random world transform (the whole
            // scene moved), with the slab as A and as B.
            let world = generators::isometry(&mut rng, 10.0);
            let up = world.rotation * Vector3::y();
            let cases = [
                (pair.clone(), Vector3::y()),
                (pair.swapped(), -Vector3::y()),
                (pair.moved(&world), up),
                (pair.swapped().moved(&world), -up),
            ];
            for (p, want) in cases {
                let m = check_pair(&p, &Tolerances::METRES)?;
                let pen = m.penetration.ok_or_else(|| {
                    format!(
                        "{p}\n  expected depth {overlap:e}, got {:?}\n  - no penetration reported",
                        m.proximity
                    )
                })?;
                if !(1.0 - pen.normal.dot(&want) <= NORMAL_TOL) {
                    return Err(format!(
                        "{p}\n  - normal is not the slab's ±Y: {:?}, want {want:?}",
                        pen.normal
                    ));
                }
            }
            Ok(())
        });
        batch.cases += 1;
        if let Err(e) = result {
            batch.failures.push((i, e));
        }
    }
    batch.assert_ok("ground slab", SEED);
}

/// Small shapes of every kind near a ground slab 40 km across (the soak's
/// ground), up to 15 km from its centre, from 5 cm inside it to 5 cm above,
/// turned at random: the depth or distance must match the f64 oracle to
/// 1e-5 of the shape's size, as it does for shapes near a small box. Before
/// collide cut large boxes to a window around the other shape, the slab's
/// corners' rounding (1e-3 m) reached every answer: a hull 5 cm deep read
/// as touching, one 1.4 cm above as overlapping.
#[test]
fn shapes_near_a_40_km_slab_far_from_its_centre() {
    use collide::{Proximity, try_closest_points, try_penetration};
    let slab =
        TestShape::new(Params::Cuboid { half: Vector3::new(20000.0, 0.5, 20000.0) }).expect("slab");
    let slab_pose = Isometry3::translation(0.0, -0.5, 0.0);
    let mut batch = Batch::default();
    for i in 0..2000 {
        let mut rng = SplitMix64::for_case(SEED ^ 0x40, i);
        let result = (|| -> Result<(), String> {
            let shape = TestShape::new(generators::params(&mut rng, 0.5))?;
            let rotation = rng.rotation();
            let far = [0.0, 1569.0, 15000.0][(i % 3) as usize];
            let (x, z) = (rng.range(-1.0, 1.0) * far, rng.range(-1.0, 1.0) * far);
            // Place the lowest point at the wanted height.
            let probe = Isometry3::from_parts(Translation3::new(x as f32, 0.0, z as f32), rotation);
            let (a0, b0) =
                (Pair { a: slab.clone(), pose_a: slab_pose, b: shape.clone(), pose_b: probe })
                    .oracles();
            let low = -tests::expected_separation(&a0, &b0).signed();
            let height = rng.range(-0.05, 0.05);
            let lifted = Translation3::new(x as f32, (height + low) as f32, z as f32);
            let pair = Pair {
                a: slab.clone(),
                pose_a: slab_pose,
                b: shape.clone(),
                pose_b: Isometry3::from_parts(lifted, rotation),
            };
            let (a, b) = pair.oracles();
            let truth = tests::expected_separation(&a, &b).signed();
            let tol = 1e-5 * generators::bounding_radius(&b) + 1e-6;
            for swap in [false, true] {
                let p = if swap { pair.swapped() } else { pair.clone() };
                let got = if truth >= 0.0 {
                    match try_closest_points(&p.a.shape, &p.pose_a, &p.b.shape, &p.pose_b) {
                        Ok(Proximity::Separated { distance, .. }) => f64::from(distance),
                        Ok(Proximity::Intersecting) => 0.0,
                        Err(e) => return Err(format!("error {e}")),
                    }
                } else {
                    match try_penetration(&p.a.shape, &p.pose_a, &p.b.shape, &p.pose_b) {
                        Ok(Some(pen)) => -f64::from(pen.depth),
                        Ok(None) => 0.0,
                        Err(e) => return Err(format!("error {e}")),
                    }
                };
                if !((got - truth).abs() <= tol) {
                    return Err(format!(
                        "{} at ({x:.0}, {z:.0}), swap {swap}: signed distance {got:e}, oracle \
                         {truth:e}",
                        shape.params.kind()
                    ));
                }
            }
            Ok(())
        })();
        batch.cases += 1;
        if let Err(e) = result {
            batch.failures.push((i, e));
        }
    }
    batch.assert_ok("40 km slab", SEED ^ 0x40);
}
