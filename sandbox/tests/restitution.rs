//! Restitution against the analytic bounce: a sphere dropped from height h
//! with restitution e rises to e² h, so the measured speed ratio
//! sqrt(rise / drop) must be within 5 % of e; below the threshold speed it
//! does not bounce at all.

use crate::common;

use collide::Sphere;
use collide::nalgebra::Vector3;
use common::world;
use sandbox::{BodyDesc, add_ground};

const RADIUS: f32 = 0.5;

/// Drops a sphere whose bottom starts `drop` metres above the ground and
/// returns the apex height of the bottom after the first bounce.
fn rebound_height(restitution: f32, drop: f32) -> f32 {
    let mut w = world(false);
    add_ground(&mut w).unwrap();
    let id = w
        .add_body(
            BodyDesc::dynamic(Sphere::new(RADIUS).into())
                .with_position(Vector3::new(0.0, RADIUS + drop, 0.0))
                .with_restitution(restitution),
        )
        .unwrap();
    let mut bounced = false;
    let mut apex = 0.0f32;
    for _ in 0..600 {
        common::step(&mut w);
        let vy = w.linear_velocity(id).unwrap().y;
        let y = w.pose(id).unwrap().translation.y - RADIUS;
        if vy > 0.0 {
            bounced = true;
        }
        if bounced {
            apex = apex.max(y);
            if vy < 0.0 {
                break;
            }
        }
    }
    apex
}

#[test]
fn sphere_rebounds_with_speed_ratio_e() {
    let drop = 2.0;
    for e in [0.2f32, 0.5, 0.8] {
        let rise = rebound_height(e, drop);
        let ratio = (rise / drop).sqrt();
        assert!((ratio - e).abs() < 0.05 * e, "e = {e}: rebound speed ratio {ratio}");
    }
}

#[test]
fn sphere_does_not_bounce_below_threshold_speed() {
    // Impact speed sqrt(2 g h) = 0.77 m/s, below the 1 m/s threshold.
    let rise = rebound_height(0.8, 0.03);
    assert!(rise < 1e-3, "bounced {rise} m below the restitution threshold");
}
