//! The `[[joint]]` entries of a scene file: each one's raw values checked
//! (finite numbers, limits in order, a non-zero axis, body indices that
//! name two different bodies of the file) into a [`JointEntry`] that
//! remembers where it was written, so that a joint the world later refuses
//! is still reported at its line and column. Which keys each kind takes is
//! a table, as for the shapes in `validate.rs`: a key that does not apply
//! to the kind is an error, not silently ignored.

use core::ops::Range;

use collide::nalgebra::{Point3, Unit, Vector3};
use toml::Spanned;

use crate::body::BodyId;
use crate::error::{JointField, Rule};
use crate::joint::{JointDesc, Softness};
use crate::scene::file::error::SceneFileError;
use crate::scene::file::location::Location;
use crate::scene::file::raw::{RawJoint, RawJointKind, RawSoftness};
use crate::scene::file::validate::Validator;

/// An axis shorter than this names no direction: its direction would be
/// lost to rounding when normalised in f32. Written axes are unit-sized
/// (`[0, 1, 0]`), so any deliberate one is far longer.
const MIN_AXIS_NORM: f32 = 1e-6;

/// A spring's frequency and damping ratio, as written.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Spring {
    pub(super) hertz: f32,
    pub(super) damping_ratio: f32,
}

/// A joint motor: target speed (rad/s or m/s) and the most torque or force
/// it may use.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Motor {
    pub(super) speed: f32,
    pub(super) max_force: f32,
}

/// One validated `[[joint]]` entry: every value checked, bodies named by
/// their creation-order index (the ground, when the file has one, is 0).
#[derive(Clone, Debug, PartialEq)]
pub(super) struct JointEntry {
    pub(super) location: Location,
    pub(super) kind: RawJointKind,
    pub(super) bodies: [usize; 2],
    pub(super) anchor: Vector3<f32>,
    pub(super) anchor_b: Option<Vector3<f32>>,
    pub(super) axis: Option<Unit<Vector3<f32>>>,
    pub(super) limits: Option<[f32; 2]>,
    pub(super) cone_limit: Option<f32>,
    pub(super) motor: Option<Motor>,
    pub(super) friction: Option<f32>,
    pub(super) softness: Option<Spring>,
    pub(super) spring: Option<Spring>,
    pub(super) collide_connected: bool,
    pub(super) break_force: Option<f32>,
    pub(super) break_torque: Option<f32>,
}

/// The keys every kind takes besides `kind`, `bodies` and `anchor`.
const COMMON_KEYS: [&str; 4] = ["softness", "collide_connected", "break_force", "break_torque"];

/// The keys `kind` takes besides [`COMMON_KEYS`], `kind`, `bodies` and
/// `anchor`.
fn kind_keys(kind: RawJointKind) -> &'static [&'static str] {
    match kind {
        // `axis` is the cone's axis and the twist axis.
        RawJointKind::Spherical => &["axis", "cone_limit", "limits", "friction"],
        RawJointKind::Revolute | RawJointKind::Prismatic => {
            &["axis", "limits", "motor", "friction"]
        }
        RawJointKind::Weld => &[],
        RawJointKind::Distance => &["anchor_b", "limits", "spring"],
    }
}

impl Validator<'_> {
    /// Checks one `[[joint]]` entry of a file with `body_count` bodies
    /// (the ground included when the file has one).
    pub(super) fn joint(
        &self,
        raw: &Spanned<RawJoint>,
        body_count: usize,
    ) -> Result<JointEntry, SceneFileError> {
        let j = raw.get_ref();
        let kind = *j.kind.get_ref();
        let name = kind.name();
        let given: [(&str, Option<Range<usize>>); 10] = [
            ("anchor_b", j.anchor_b.as_ref().map(Spanned::span)),
            ("axis", j.axis.as_ref().map(Spanned::span)),
            ("limits", j.limits.as_ref().map(Spanned::span)),
            ("cone_limit", j.cone_limit.as_ref().map(Spanned::span)),
            ("motor", j.motor.as_ref().map(Spanned::span)),
            ("friction", j.friction.as_ref().map(Spanned::span)),
            ("softness", j.softness.as_ref().map(Spanned::span)),
            ("spring", j.spring.as_ref().map(Spanned::span)),
            ("break_force", j.break_force.as_ref().map(Spanned::span)),
            ("break_torque", j.break_torque.as_ref().map(Spanned::span)),
        ];
        let takes = kind_keys(kind);
        for (key, span) in &given {
            if let Some(span) = span
                && !takes.contains(key)
                && !COMMON_KEYS.contains(key)
            {
                return Err(SceneFileError::Joint {
                    location: self.locator.span(span.clone()),
                    message: format!("`{key}` does not apply to a {name} joint"),
                });
            }
        }
        let bodies = self.joint_bodies(raw, body_count)?;
        let anchor_rule = JointField::Anchor.rule();
        let anchor = self.vector_in(&j.anchor, "joint anchor", anchor_rule)?;
        let anchor_b = j
            .anchor_b
            .as_ref()
            .map(|a| self.vector_in(a, "joint anchor_b", anchor_rule))
            .transpose()?;
        let axis = j.axis.as_ref().map(|a| self.axis(a)).transpose()?;
        let missing = |key: &str| SceneFileError::Joint {
            location: self.locator.of(raw),
            message: format!("a {name} joint needs `{key}`"),
        };
        match kind {
            RawJointKind::Revolute | RawJointKind::Prismatic if axis.is_none() => {
                return Err(missing("axis"));
            }
            RawJointKind::Distance if anchor_b.is_none() => return Err(missing("anchor_b")),
            _ => {}
        }
        let limits = match &j.limits {
            Some(l) => Some(self.limits(l, kind)?),
            None => None,
        };
        let cone_limit = j
            .cone_limit
            .as_ref()
            .map(|c| self.number_in(c, "cone_limit", JointField::ConeLimit.rule()))
            .transpose()?;
        if kind == RawJointKind::Spherical
            && axis.is_none()
            && let Some(at) = j
                .cone_limit
                .as_ref()
                .map(Spanned::span)
                .or_else(|| j.limits.as_ref().map(Spanned::span))
        {
            return Err(SceneFileError::Joint {
                location: self.locator.span(at),
                message: "a spherical joint's cone and twist limits need `axis` (the cone's \
                          axis and the twist axis)"
                    .to_owned(),
            });
        }
        let motor = j
            .motor
            .as_ref()
            .map(|m| {
                let m = m.get_ref();
                let (speed, max_force) = (JointField::MotorSpeed, JointField::MotorMaxForce);
                Ok::<_, SceneFileError>(Motor {
                    speed: self.number_in(&m.speed, speed.name(), speed.rule())?,
                    max_force: self.number_in(&m.max_force, max_force.name(), max_force.rule())?,
                })
            })
            .transpose()?;
        let field = |raw: &Option<crate::scene::file::raw::RawNumber>, field: JointField| {
            raw.as_ref().map(|n| self.number_in(n, field.name(), field.rule())).transpose()
        };
        let friction = field(&j.friction, JointField::Friction)?;
        let softness = j
            .softness
            .as_ref()
            .map(|s| self.spring(s, JointField::SoftnessHertz, JointField::SoftnessDampingRatio))
            .transpose()?;
        let spring = j
            .spring
            .as_ref()
            .map(|s| self.spring(s, JointField::SpringHertz, JointField::SpringDampingRatio))
            .transpose()?;
        let break_force = field(&j.break_force, JointField::BreakForce)?;
        let break_torque = field(&j.break_torque, JointField::BreakTorque)?;
        Ok(JointEntry {
            location: self.locator.of(raw),
            kind,
            bodies,
            anchor,
            anchor_b,
            axis,
            limits,
            cone_limit,
            motor,
            friction,
            softness,
            spring,
            collide_connected: j.collide_connected.unwrap_or(false),
            break_force,
            break_torque,
        })
    }

    /// The two body indices: each names a body of the file, and they differ.
    fn joint_bodies(
        &self,
        raw: &Spanned<RawJoint>,
        body_count: usize,
    ) -> Result<[usize; 2], SceneFileError> {
        let pair = &raw.get_ref().bodies;
        let mut out = [0usize; 2];
        for (i, b) in pair.get_ref().0.iter().enumerate() {
            let v = *b.get_ref();
            out[i] = match usize::try_from(v) {
                Ok(n) if n < body_count => n,
                _ => {
                    let expected = match body_count {
                        0 => "a body's index, but the file has no bodies".to_owned(),
                        n => format!("a body's index, from 0 to {}", n - 1),
                    };
                    return Err(SceneFileError::OutOfRange {
                        location: self.locator.of(b),
                        what: format!("joint bodies[{i}]"),
                        value: v as f64,
                        expected,
                    });
                }
            };
        }
        if out[0] == out[1] {
            return Err(SceneFileError::Joint {
                location: self.locator.of(pair),
                message: format!("a joint needs two different bodies, got body {} twice", out[0]),
            });
        }
        Ok(out)
    }

    /// A direction: finite and long enough to normalise.
    fn axis(
        &self,
        raw: &crate::scene::file::raw::RawVec3,
    ) -> Result<Unit<Vector3<f32>>, SceneFileError> {
        let v = self.vector(raw, "joint axis")?;
        // Written so that NaN (from an overflowing norm) fails.
        match Unit::try_new(v, MIN_AXIS_NORM) {
            Some(axis) if axis.iter().all(|c| c.is_finite()) => Ok(axis),
            _ => Err(SceneFileError::Joint {
                location: self.locator.of(raw),
                message: format!(
                    "a joint axis needs a length of at least {MIN_AXIS_NORM:e} to name a \
                     direction, got [{}, {}, {}]",
                    v.x, v.y, v.z
                ),
            }),
        }
    }

    /// `[lo, hi]`: finite, `lo <= hi`; for a distance joint, lengths (zero
    /// or more); for a spherical joint, twist angles in `[-π, π]`.
    fn limits(
        &self,
        raw: &Spanned<crate::scene::file::raw::Exact<crate::scene::file::raw::RawNumber, 2>>,
        kind: RawJointKind,
    ) -> Result<[f32; 2], SceneFileError> {
        let rule = match kind {
            RawJointKind::Distance => Rule::NonNegative,
            RawJointKind::Spherical => JointField::TwistLimits.rule(),
            _ => JointField::Limits.rule(),
        };
        let [lo, hi] = &raw.get_ref().0;
        let (l, h) =
            (self.number_in(lo, "limits[0]", rule)?, self.number_in(hi, "limits[1]", rule)?);
        if l > h {
            return Err(SceneFileError::Joint {
                location: self.locator.of(raw),
                message: format!(
                    "joint limits must be [low, high] with low <= high, got [{l}, {h}]"
                ),
            });
        }
        Ok([l, h])
    }

    /// A spring's frequency and damping ratio, by the rules of the API's
    /// `hertz` and `damping_ratio` fields.
    fn spring(
        &self,
        raw: &Spanned<RawSoftness>,
        hertz: JointField,
        damping_ratio: JointField,
    ) -> Result<Spring, SceneFileError> {
        let s = raw.get_ref();
        Ok(Spring {
            hertz: self.number_in(&s.hertz, hertz.name(), hertz.rule())?,
            damping_ratio: self.number_in(
                &s.damping_ratio,
                damping_ratio.name(),
                damping_ratio.rule(),
            )?,
        })
    }
}

impl JointEntry {
    /// The joint's description between `a` and `b` (the bodies its
    /// indices name).
    pub(super) fn desc(&self, a: BodyId, b: BodyId) -> JointDesc {
        let anchor = Point3::from(self.anchor);
        let axis = self.axis.map(Unit::into_inner);
        let mut desc = match self.kind {
            RawJointKind::Spherical => JointDesc::spherical(a, b, anchor),
            RawJointKind::Revolute => {
                JointDesc::revolute(a, b, anchor, axis.unwrap_or_else(Vector3::z))
            }
            RawJointKind::Prismatic => {
                JointDesc::prismatic(a, b, anchor, axis.unwrap_or_else(Vector3::z))
            }
            RawJointKind::Weld => JointDesc::weld(a, b, anchor),
            RawJointKind::Distance => JointDesc::distance(
                a,
                b,
                anchor,
                Point3::from(self.anchor_b.unwrap_or(self.anchor)),
            ),
        };
        if let (RawJointKind::Spherical, Some(axis)) = (self.kind, axis) {
            desc = desc.with_axis(axis);
        }
        if let Some([lo, hi]) = self.limits {
            desc = match self.kind {
                RawJointKind::Spherical => desc.with_twist_limits(lo, hi),
                _ => desc.with_limits(lo, hi),
            };
        }
        if let Some(cone) = self.cone_limit {
            desc = desc.with_cone_limit(cone);
        }
        if let Some(m) = self.motor {
            desc = desc.with_motor(m.speed, m.max_force);
        }
        if let Some(f) = self.friction {
            desc = desc.with_friction(f);
        }
        if let Some(s) = self.softness {
            desc = desc.with_softness(Softness::new(s.hertz, s.damping_ratio));
        }
        if let Some(s) = self.spring {
            desc = desc.with_spring(Softness::new(s.hertz, s.damping_ratio));
        }
        if let Some(f) = self.break_force {
            desc = desc.with_break_force(f);
        }
        if let Some(t) = self.break_torque {
            desc = desc.with_break_torque(t);
        }
        desc.with_collide_connected(self.collide_connected)
    }
}
