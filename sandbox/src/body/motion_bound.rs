//! A bound on how far a body's points move between two of its poses: the
//! shift of the frame's origin plus the chord that the rotation between the
//! poses sweeps at the body's radius. Contact recycling bounds a pair's
//! drift with it, and a teleport decides with it whether a body moved.

use collide::nalgebra::Isometry3;

/// How far any point within `radius` of a frame's origin can have moved
/// between the frame's poses `then` and `now`, and the sine of half the
/// rotation between the two. Used for B's frame seen from A (the relative
/// pose), and for a body in the world.
pub(crate) fn motion_bound(then: &Isometry3<f32>, now: &Isometry3<f32>, radius: f32) -> (f32, f32) {
    // A point r lies at R·r + t. Between the two poses it moves by
    // Δt + (R_now − R_then)·r, and |(R_now − R_then)·r| is at most
    // 2·sin(θ/2)·|r| for the rotation θ between them.
    let half_sine = (then.rotation.inverse() * now.rotation).imag().norm();
    let shift = (now.translation.vector - then.translation.vector).norm();
    (shift + 2.0 * half_sine * radius, half_sine)
}
