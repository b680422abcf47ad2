//! The checks a soak run makes after every step, each a function of the
//! world alone (plus the counts the driver keeps), and the energy bound of a
//! quiet window.
//!
//! **Energy.** In a quiet window (no input for its whole length) the solver
//! may only lose energy: gravity is conservative, symplectic Euler loses
//! `½ m g² dt²` per free-flying step, and contacts with restitution at most
//! 1 and friction only dissipate. So with `E₀` the total energy
//! ([`World::total_energy`]) when the window begins, every step must have
//!
//! `E ≤ E₀ + ENERGY_GROWTH_FRACTION · |E₀| + Σ m |g| LINEAR_SLOP`,
//!
//! the sum over the dynamic bodies alive at the window's start. The last
//! term is the one source of energy the solver is allowed: a resting
//! contact is held at up to [`LINEAR_SLOP`] of penetration, and pushing it
//! out (or a pile settling onto different contacts) may lift a body by that
//! much. It is small beside the 1 %: for a body resting on the ground with
//! its centre `h` above it, `m g LINEAR_SLOP / (m g h) = 0.005 / h`, half a
//! percent for a body of 1 m.

use collide::SupportMap as _;
use collide::nalgebra::{Isometry3, Vector3};

use crate::body::BodyKind;
use crate::tolerances::LINEAR_SLOP;
use crate::world::World;

use super::report::SoakFailure;

/// How far below the ground's top a dynamic body's lowest point may be
/// before the soak calls it sunk, metres: the 5 cm, ten times
/// [`LINEAR_SLOP`], far more than a resting contact's penetration and far
/// less than any body's size (the smallest is 5 cm thick).
pub const BELOW_GROUND_TOLERANCE: f32 = 0.05;

/// The fraction of its starting energy the world may gain in a quiet
/// window (the 1 %), on top of the contact-slop allowance.
pub const ENERGY_GROWTH_FRACTION: f64 = 0.01;

/// The energy a quiet window starting now may not exceed (see the module
/// documentation), and the energy now.
pub(super) fn energy_bound(world: &World) -> (f64, f64) {
    let start = world.total_energy();
    let g = f64::from(world.settings().gravity.norm());
    let slop: f64 = world
        .bodies()
        .filter(|&b| world.kind(b) == Some(BodyKind::Dynamic))
        .filter_map(|b| world.mass_properties(b))
        .map(|m| f64::from(m.mass) * g * f64::from(LINEAR_SLOP))
        .sum();
    (start, start + ENERGY_GROWTH_FRACTION * start.abs() + slop)
}

/// The lowest height of `shape` at `pose`: its support point along −y.
fn lowest_y(shape: &collide::Shape, pose: &Isometry3<f32>) -> f32 {
    let down_local = pose.inverse_transform_vector(&-Vector3::y());
    (pose * shape.local_support(&down_local)).y
}

/// Every state check of one step: finite poses and velocities, no dynamic
/// body sunk below `ground_top`, the body count, and the world's own
/// invariants. Failures are appended to `out`.
pub(super) fn check_world(
    world: &World,
    ground_top: f32,
    expected_bodies: usize,
    out: &mut Vec<SoakFailure>,
) {
    if let Err(e) = world.validate() {
        out.push(SoakFailure::Invariant(e));
    }
    for b in world.bodies() {
        let (Some(pose), Some(v), Some(w), Some(shape)) =
            (world.pose(b), world.linear_velocity(b), world.angular_velocity(b), world.shape(b))
        else {
            continue;
        };
        let state = pose.translation.vector.iter().chain(pose.rotation.coords.iter());
        if !state.chain(v.iter()).chain(w.iter()).all(|x| x.is_finite()) {
            out.push(SoakFailure::NonFinite { body: b });
            continue;
        }
        if world.kind(b) == Some(BodyKind::Dynamic) {
            let depth = ground_top - lowest_y(shape, pose);
            // Written so that a NaN depth fails.
            if !(depth <= BELOW_GROUND_TOLERANCE) {
                out.push(SoakFailure::BelowGround { body: b, depth });
            }
        }
    }
    let actual = world.body_count();
    if actual != expected_bodies {
        out.push(SoakFailure::BodyCount { expected: expected_bodies, actual });
    }
}

#[cfg(test)]
mod tests {
    use collide::Cuboid;
    use collide::nalgebra::{Isometry3, Vector3};

    use super::*;
    use crate::body::BodyDesc;

    /// A ground with its top at y = 0 and a unit cube resting on it.
    fn cube_on_ground() -> (World, crate::body::BodyId) {
        let mut world = World::new();
        let ground = Cuboid::new(Vector3::new(10.0, 0.5, 10.0));
        world
            .add_body(BodyDesc::fixed(ground.into()).with_position(Vector3::new(0.0, -0.5, 0.0)))
            .unwrap();
        let cube = Cuboid::new(Vector3::repeat(0.5));
        let id = world
            .add_body(BodyDesc::dynamic(cube.into()).with_position(Vector3::new(0.0, 0.5, 0.0)))
            .unwrap();
        (world, id)
    }

    #[test]
    fn a_sunk_body_and_a_wrong_count_fail_and_a_resting_one_does_not() {
        let (mut world, id) = cube_on_ground();
        let mut out = Vec::new();
        check_world(&world, 0.0, 2, &mut out);
        assert_eq!(out, []);
        // 4 cm deep is within the tolerance, 6 cm is not.
        world.set_pose(id, Isometry3::translation(0.0, 0.46, 0.0)).unwrap();
        check_world(&world, 0.0, 2, &mut out);
        assert_eq!(out, []);
        world.set_pose(id, Isometry3::translation(0.0, 0.44, 0.0)).unwrap();
        check_world(&world, 0.0, 3, &mut out);
        assert!(
            matches!(out[0], SoakFailure::BelowGround { body, depth } if body == id && (depth - 0.06).abs() < 1e-5),
            "{out:?}"
        );
        assert_eq!(out[1], SoakFailure::BodyCount { expected: 3, actual: 2 });
    }

    #[test]
    fn the_energy_bound_allows_the_slop_and_one_percent_and_no_more() {
        let (mut world, id) = cube_on_ground();
        let (start, bound) = energy_bound(&world);
        let m = f64::from(world.mass_properties(id).unwrap().mass);
        let g = f64::from(world.settings().gravity.norm());
        // The cube's centre is 0.5 m up: E = m g / 2, and the bound adds 1 %
        // of it and the slop's lift.
        assert!((start - 0.5 * m * g).abs() < 1e-3 * start);
        let expected = start * (1.0 + ENERGY_GROWTH_FRACTION) + m * g * f64::from(LINEAR_SLOP);
        assert!((bound - expected).abs() < 1e-9 * bound, "{bound} vs {expected}");
        // Lifting the cube by the slop stays within the bound; by 1 cm more
        // than the bound allows, it does not.
        let allowed_lift = (bound - start) / (m * g);
        for (lift, within) in [(f64::from(LINEAR_SLOP), true), (allowed_lift + 0.01, false)] {
            let y = 0.5 + lift as f32;
            world.set_pose(id, Isometry3::translation(0.0, y, 0.0)).unwrap();
            assert_eq!(world.total_energy() <= bound, within, "lift {lift}");
        }
    }
}
