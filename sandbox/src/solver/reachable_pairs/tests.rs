//! Tests of the reachable-pair cull: bodies falling side by side solve no
//! speculative contact with each other, a fast approach and a landing
//! column are solved in time, and a brute-force sweep of free motion over
//! the step finds no touching pair left unsolved.

use collide::nalgebra::{Isometry3, Translation3, UnitQuaternion, Vector3};
use collide::{Cuboid, Proximity, Shape, Sphere, closest_points};

use crate::rng::Lcg;
use crate::tolerances::{LINEAR_SLOP, SPECULATIVE_DISTANCE};
use crate::{BodyDesc, BodyId, StepSettings, World};

const DT: f32 = 1.0 / 60.0;

fn cube() -> Shape {
    Cuboid::new(Vector3::new(0.5, 0.5, 0.5)).into()
}

fn weightless() -> World {
    World::with_settings(StepSettings { gravity: Vector3::zeros(), ..StepSettings::default() })
        .unwrap()
}

fn add_cube(world: &mut World, position: Vector3<f32>, velocity: Vector3<f32>) -> BodyId {
    let id = world.add_body(BodyDesc::dynamic(cube()).with_position(position)).unwrap();
    world.set_linear_velocity(id, velocity).unwrap();
    id
}

/// The cached pair of two bodies, if the broad phase found it.
fn pair(world: &World, a: BodyId, b: BodyId) -> Option<&crate::collision::pair_cache::CachedPair> {
    let (a, b) = (a.index.min(b.index), a.index.max(b.index));
    world.contacts.pairs.iter().find(|c| (c.body_a, c.body_b) == (a, b))
}

/// Two cubes falling side by side at 20 m/s, 15 cm apart (their fat boxes
/// overlap): their summed reach (0.67 m) gives the narrow phase
/// speculative points, but nothing can close the gap, so the solver takes
/// none, and the gap stays.
#[test]
fn side_by_side_falling_cubes_solve_no_speculative_contact() {
    let mut world = World::new();
    let fall = Vector3::new(0.0, -20.0, 0.0);
    let a = add_cube(&mut world, Vector3::new(0.0, 100.0, 0.0), fall);
    let b = add_cube(&mut world, Vector3::new(1.15, 100.0, 0.0), fall);
    world.step(DT);
    let c = pair(&world, a, b).expect("the broad phase pairs cubes whose fat boxes overlap");
    assert!(c.point_count > 0, "the narrow phase keeps speculative points out to the summed reach");
    assert!(!c.reachable, "side-by-side fall solved as reachable");
    assert_eq!(world.solved_contact_point_count(), 0);
    let gap = world.pose(b).unwrap().translation.x - world.pose(a).unwrap().translation.x - 1.0;
    assert!((gap - 0.15).abs() < 1.0e-5, "gap {gap}");
}

/// A cube approaching a resting one at 20 m/s from 0.2 m closes the gap
/// within the step (0.33 m of travel): the pair is solved and the cube
/// stops at the surface instead of running 13 cm into it.
#[test]
fn fast_approach_is_solved_in_time() {
    let mut world = weightless();
    let a = add_cube(&mut world, Vector3::zeros(), Vector3::zeros());
    let b = add_cube(&mut world, Vector3::new(1.2, 0.0, 0.0), Vector3::new(-20.0, 0.0, 0.0));
    world.step(DT);
    assert!(pair(&world, a, b).unwrap().reachable);
    assert!(world.solved_contact_point_count() > 0);
    let gap = world.pose(b).unwrap().translation.x - world.pose(a).unwrap().translation.x - 1.0;
    assert!(gap > -LINEAR_SLOP && gap < 0.2, "gap {gap}");
}

/// A column of four cubes falling together at 10 m/s with 4 cm gaps, the
/// lowest 4 cm above the ground: no pair of cubes has relative motion, yet
/// once the lowest one lands within the step the others run into it one
/// after another (each 2.4 ms after the one below, well within the step)
/// unless their pairs are solved. The cubes are added top first, so each
/// pair only becomes reachable on a later pass than the pair below it
/// (pairs are visited in slot order): the passes must go on until no
/// disturbance changes.
#[test]
fn landing_column_solves_every_pair_above_the_impact() {
    let mut world = weightless();
    let ground = BodyDesc::fixed(Cuboid::new(Vector3::new(5.0, 0.5, 5.0)).into())
        .with_position(Vector3::new(0.0, -0.5, 0.0));
    world.add_body(ground).unwrap();
    let fall = Vector3::new(0.0, -10.0, 0.0);
    let gap = 0.04;
    let column: Vec<BodyId> = (0..4)
        .rev()
        .map(|k| {
            add_cube(&mut world, Vector3::new(0.0, 0.5 + gap + k as f32 * (1.0 + gap), 0.0), fall)
        })
        .collect();
    world.step(DT);
    for w in column.windows(2) {
        assert!(pair(&world, w[0], w[1]).unwrap().reachable);
    }
    let lowest = world.pose(column[3]).unwrap().translation.y - 0.5;
    assert!(lowest > -LINEAR_SLOP, "lowest cube {lowest} m into the ground");
    for w in column.windows(2) {
        let (upper, lower) = (world.pose(w[0]).unwrap(), world.pose(w[1]).unwrap());
        let gap = upper.translation.y - lower.translation.y - 1.0;
        assert!(gap > -LINEAR_SLOP, "cubes {:?} run {gap} m into each other", (w[0], w[1]));
    }
}

/// Samples of the step at which the brute-force sweep checks for touching.
const SWEEP_SAMPLES: u32 = 32;

/// Bodies scattered in a 10 m cube, all drifting at about 21 m/s in one
/// direction with a spread of ±2 m/s and spinning at up to 4 rad/s, no
/// gravity: the free motion of every pair of bodies over the step is swept
/// by brute force (exact distance at 33 instants), and every pair found
/// touching at some instant must be solved. Independent of the broad phase,
/// the manifolds and the bound's formula; the counts keep it from passing
/// vacuously (some pairs touch, many speculative pairs are dropped).
#[test]
fn no_pair_that_touches_within_the_step_is_left_unsolved() {
    let (mut touching, mut dropped) = (0, 0);
    for seed in 1..=4u64 {
        let mut rng = Lcg(seed);
        let mut world = weightless();
        let mut placed: Vec<(Shape, Isometry3<f32>)> = Vec::new();
        let mut ids = Vec::new();
        let drift = Vector3::new(3.0, -20.0, 5.0);
        while placed.len() < 150 {
            let shape: Shape = if rng.chance(0.5) { cube() } else { Sphere::new(0.5).into() };
            let t = Vector3::new(rng.range(0.0, 10.0), rng.range(0.0, 10.0), rng.range(0.0, 10.0));
            let axis =
                Vector3::new(rng.range(-1.0, 1.0), rng.range(-1.0, 1.0), rng.range(-1.0, 1.0));
            let pose = Isometry3::from_parts(
                Translation3::from(t),
                UnitQuaternion::from_scaled_axis(axis * 2.0),
            );
            let clear = placed.iter().all(|(s, p)| {
                matches!(closest_points(s, p, &shape, &pose), Proximity::Separated { distance, .. } if distance > 0.01)
            });
            if !clear {
                continue;
            }
            let desc =
                BodyDesc::dynamic(shape.clone()).with_position(t).with_rotation(pose.rotation);
            let id = world.add_body(desc).unwrap();
            let spread = |rng: &mut Lcg| {
                Vector3::new(rng.range(-2.0, 2.0), rng.range(-2.0, 2.0), rng.range(-2.0, 2.0))
            };
            let v = drift + spread(&mut rng);
            let w = spread(&mut rng) * 2.0;
            world.set_linear_velocity(id, v).unwrap();
            world.set_angular_velocity(id, w).unwrap();
            placed.push((shape, pose));
            ids.push((id, v, w));
        }
        world.step(DT);
        let at = |k: usize, t: f32| {
            let (_, v, w) = ids[k];
            let pose = &placed[k].1;
            Isometry3::from_parts(
                Translation3::from(pose.translation.vector + v * t),
                UnitQuaternion::from_scaled_axis(w * t) * pose.rotation,
            )
        };
        for i in 0..ids.len() {
            for j in i + 1..ids.len() {
                let touches = (0..=SWEEP_SAMPLES).any(|s| {
                    let t = DT * s as f32 / SWEEP_SAMPLES as f32;
                    let proximity =
                        closest_points(&placed[i].0, &at(i, t), &placed[j].0, &at(j, t));
                    matches!(proximity, Proximity::Intersecting)
                });
                let c = pair(&world, ids[i].0, ids[j].0);
                if touches {
                    touching += 1;
                    let c = c.unwrap_or_else(|| {
                        panic!("seed {seed}: pair ({i}, {j}) touches but was not found")
                    });
                    assert!(
                        c.point_count > 0 && c.reachable,
                        "seed {seed}: pair ({i}, {j}) touches but was not solved"
                    );
                } else if c.is_some_and(|c| c.point_count > 0 && !c.reachable) {
                    dropped += 1;
                }
            }
        }
    }
    assert!(touching > 4 && dropped > 4 * touching, "{touching} touching, {dropped} dropped");
}

/// A column of four cubes falling at 40 m/s with 0.5 m gaps, the lowest
/// 10 cm above the ground: it lands 2 ms into the step, the cube above
/// can arrive 12 ms later (still within the 16.7 ms step), the next one
/// only 24 ms later. So the landing disturbs the lowest two cubes, and the
/// pairs above stay unsolved although every cube's reach (0.67 m) exceeds
/// the gaps.
#[test]
fn landing_disturbs_only_the_cubes_that_can_arrive_within_the_step() {
    let mut world = weightless();
    let ground = BodyDesc::fixed(Cuboid::new(Vector3::new(5.0, 0.5, 5.0)).into())
        .with_position(Vector3::new(0.0, -0.5, 0.0));
    world.add_body(ground).unwrap();
    let fall = Vector3::new(0.0, -40.0, 0.0);
    let column: Vec<BodyId> = (0..4)
        .map(|k| add_cube(&mut world, Vector3::new(0.0, 0.6 + k as f32 * 1.5, 0.0), fall))
        .collect();
    world.step(DT);
    let reachable: Vec<bool> = column
        .windows(2)
        .map(|w| {
            let c = pair(&world, w[0], w[1]).unwrap();
            assert!(c.point_count > 0);
            c.reachable
        })
        .collect();
    assert_eq!(reachable, [true, false, false]);
}

/// A resting column of cubes on the ground, each pair pressed together
/// (every gap closed, so the fixed point is skipped): every pair with points
/// is solved, as the rule says of a closed gap (`nearest ≤ speculative
/// distance + gravity's drift`), and the solver takes all of their points.
#[test]
fn resting_column_with_every_gap_closed_solves_every_pair() {
    let mut world = World::new();
    let ground = BodyDesc::fixed(Cuboid::new(Vector3::new(50.0, 0.5, 50.0)).into())
        .with_position(Vector3::new(0.0, -0.5, 0.0));
    world.add_body(ground).unwrap();
    for i in 0..6 {
        add_cube(&mut world, Vector3::new(0.0, 0.5 + i as f32, 0.0), Vector3::zeros());
    }
    // Fewer steps than the time to sleep (0.5 s): every cube stays awake.
    for _ in 0..20 {
        world.step(DT);
    }
    let gravity_drift = DT * DT * 9.81;
    let with_points: Vec<u32> = (0..world.contacts.pairs.len() as u32)
        .filter(|&k| world.contacts.pairs[k as usize].point_count > 0)
        .collect();
    assert_eq!(with_points.len(), 6, "one manifold under each cube");
    for &k in &with_points {
        let c = &world.contacts.pairs[k as usize];
        assert!(c.nearest <= SPECULATIVE_DISTANCE + gravity_drift, "pair {k} open: {}", c.nearest);
        assert!(c.reachable, "pair {k}, closed, not solved");
    }
    let points: usize = with_points
        .iter()
        .map(|&k| usize::from(world.contacts.pairs[k as usize].point_count))
        .sum();
    assert_eq!(world.solved_contact_point_count(), points);
}
