//! The checks a [`JointDesc`]'s values pass before the world takes them,
//! each against its [`JointField::rule`] (the scene files' `[[joint]]`
//! entries follow the same rules). Which bodies it joins is checked by
//! the world, which knows them.

use collide::nalgebra::{Isometry3, Vector3};

use crate::error::{JointField, WorldError};
use crate::joint::desc::{JointDesc, JointFrames, Softness};

/// Checks `values` against `field`'s rule.
fn check(field: JointField, values: impl IntoIterator<Item = f32>) -> Result<(), WorldError> {
    let rule = field.rule();
    rule.check(values).map_err(|value| WorldError::InvalidJoint { field, rule, value })
}

/// Checks a range: each end against `field`'s rule, then their order.
fn check_range(field: JointField, (lower, upper): (f32, f32)) -> Result<(), WorldError> {
    check(field, [lower, upper])?;
    if lower > upper {
        return Err(WorldError::JointRangeReversed { field, lower, upper });
    }
    Ok(())
}

/// Checks a local frame: a position within the world bound, a finite unit
/// quaternion.
fn check_frame(frame: &Isometry3<f32>) -> Result<(), WorldError> {
    check(JointField::FramePosition, frame.translation.vector.iter().copied())?;
    let q = &frame.rotation.coords;
    let norm = match q.iter().find(|c| !c.is_finite()) {
        Some(&non_finite) => non_finite,
        None => q.norm(),
    };
    check(JointField::FrameRotation, [norm])
}

/// Checks an axis: finite, then of non-zero length.
fn check_axis(axis: &Vector3<f32>) -> Result<(), WorldError> {
    let rule = crate::error::Rule::Finite;
    rule.check(axis.iter().copied()).map_err(|value| WorldError::InvalidJoint {
        field: JointField::Axis,
        rule,
        value,
    })?;
    check(JointField::Axis, [axis.norm()])
}

/// Checks a spring's frequency and damping ratio.
fn check_softness(
    softness: &Softness,
    hertz: JointField,
    zeta: JointField,
) -> Result<(), WorldError> {
    check(hertz, [softness.hertz])?;
    check(zeta, [softness.damping_ratio])
}

/// Checks a break threshold: positive, or infinite for never.
fn check_threshold(field: JointField, value: f32) -> Result<(), WorldError> {
    if value == f32::INFINITY { Ok(()) } else { check(field, [value]) }
}

/// Checks every value of `desc` (not its bodies).
///
/// # Errors
/// [`WorldError::InvalidJoint`] naming the first value that breaks its
/// rule, or [`WorldError::JointRangeReversed`] for a range whose lower end
/// is above its upper end.
pub(crate) fn check_desc(desc: &JointDesc) -> Result<(), WorldError> {
    match &desc.frames {
        JointFrames::World { anchor_a, anchor_b, axis } => {
            check(
                JointField::Anchor,
                anchor_a.coords.iter().chain(anchor_b.coords.iter()).copied(),
            )?;
            check_axis(axis)?;
        }
        JointFrames::Local { frame_a, frame_b } => {
            check_frame(frame_a)?;
            check_frame(frame_b)?;
        }
    }
    if let Some(limits) = desc.limits {
        check_range(JointField::Limits, limits)?;
        if desc.kind == crate::JointKind::Distance {
            let rule = crate::error::Rule::NonNegative;
            rule.check([limits.0]).map_err(|value| WorldError::InvalidJoint {
                field: JointField::Limits,
                rule,
                value,
            })?;
        }
    }
    if let Some(cone) = desc.cone_limit {
        check(JointField::ConeLimit, [cone])?;
    }
    if let Some(twist) = desc.twist_limits {
        check_range(JointField::TwistLimits, twist)?;
    }
    if let Some(motor) = desc.motor {
        check(JointField::MotorSpeed, [motor.speed])?;
        check(JointField::MotorMaxForce, [motor.max_force])?;
    }
    check(JointField::Friction, [desc.friction])?;
    for softness in
        [&desc.softness, &desc.linear_softness, &desc.angular_softness].into_iter().flatten()
    {
        check_softness(softness, JointField::SoftnessHertz, JointField::SoftnessDampingRatio)?;
    }
    if let Some(spring) = &desc.spring {
        check_softness(spring, JointField::SpringHertz, JointField::SpringDampingRatio)?;
    }
    if let Some(length) = desc.rest_length {
        check(JointField::RestLength, [length])?;
    }
    check_threshold(JointField::BreakForce, desc.break_force)?;
    check_threshold(JointField::BreakTorque, desc.break_torque)
}
