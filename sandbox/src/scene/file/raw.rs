//! The raw, spanned form of a scene file: exactly what serde reads from the
//! TOML, before validation. Every value is wrapped in [`toml::Spanned`], so
//! that validation can still say where in the file a bad value sits.

use core::fmt;
use core::marker::PhantomData;

use serde::Deserialize;
use serde::de::{self, Deserializer, IgnoredAny, SeqAccess, Visitor};
use toml::Spanned;

pub(super) type RawNumber = Spanned<f64>;
pub(super) type RawVec3 = Spanned<Exact<RawNumber, 3>>;
/// A mesh's triangles: each three vertex indices, every value spanned.
pub(super) type RawTriangles = Spanned<Vec<Spanned<Exact<Spanned<i64>, 3>>>>;

/// An array of exactly `N` values. Serde reads a `[T; N]` from the first
/// `N` elements of a longer array and ignores the rest, so
/// `position = [1, 2, 3, 4]` was accepted as `[1, 2, 3]`; this refuses it
/// with serde's own "invalid length" message.
pub(super) struct Exact<T, const N: usize>(pub(super) [T; N]);

impl<'de, T: Deserialize<'de>, const N: usize> Deserialize<'de> for Exact<T, N> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct ExactVisitor<T, const N: usize>(PhantomData<T>);

        impl<'de, T: Deserialize<'de>, const N: usize> Visitor<'de> for ExactVisitor<T, N> {
            type Value = Exact<T, N>;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "an array of length {N}")
            }

            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
                let mut items = Vec::with_capacity(N);
                while items.len() < N {
                    match seq.next_element()? {
                        Some(item) => items.push(item),
                        None => return Err(de::Error::invalid_length(items.len(), &self)),
                    }
                }
                // Count the surplus (bounded by the file's length) to name
                // the array's real length.
                let mut len = N;
                while seq.next_element::<IgnoredAny>()?.is_some() {
                    len += 1;
                }
                if len > N {
                    return Err(de::Error::invalid_length(len, &self));
                }
                items.try_into().map(Exact).map_err(|_| de::Error::invalid_length(N, &self))
            }
        }

        deserializer.deserialize_seq(ExactVisitor(PhantomData))
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawFile {
    pub(super) ground: Option<bool>,
    pub(super) settings: Option<RawSettings>,
    #[serde(default)]
    pub(super) body: Vec<Spanned<RawBody>>,
    /// Joints between the bodies (see `joint.rs`).
    #[serde(default)]
    pub(super) joint: Vec<Spanned<RawJoint>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawSettings {
    pub(super) gravity: Option<RawVec3>,
    pub(super) substeps: Option<Spanned<i64>>,
    pub(super) push_iterations: Option<Spanned<i64>>,
    pub(super) relax_iterations: Option<Spanned<i64>>,
    pub(super) contact_hertz: Option<RawNumber>,
    pub(super) contact_recycling: Option<bool>,
    pub(super) sleep: Option<bool>,
}

#[derive(Clone, Copy, Deserialize)]
#[serde(rename_all = "lowercase")]
pub(super) enum RawKind {
    Dynamic,
    /// Also read as `static`, the word earlier files used.
    #[serde(alias = "static")]
    Fixed,
    Kinematic,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawBody {
    pub(super) kind: Option<RawKind>,
    /// The body's one shape; or `shapes`, a list of them.
    pub(super) shape: Option<Spanned<RawShape>>,
    pub(super) shapes: Option<Spanned<Vec<Spanned<RawBodyShape>>>>,
    /// Defaults for every shape of the body (each entry of `shapes` may
    /// set its own).
    pub(super) sensor: Option<bool>,
    pub(super) filter: Option<Spanned<RawFilter>>,
    pub(super) position: Option<RawVec3>,
    pub(super) rotation: Option<Spanned<RawRotation>>,
    pub(super) linear_velocity: Option<RawVec3>,
    pub(super) angular_velocity: Option<RawVec3>,
    pub(super) density: Option<RawNumber>,
    pub(super) friction: Option<RawNumber>,
    pub(super) restitution: Option<RawNumber>,
    pub(super) rolling_resistance: Option<RawNumber>,
    /// The body's own sleep threshold, m/s.
    pub(super) sleep_threshold: Option<RawNumber>,
    pub(super) repeat: Option<Spanned<RawRepeat>>,
}

#[derive(Clone, Copy, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub(super) enum RawShapeKind {
    Sphere,
    Cuboid,
    Capsule,
    Hull,
    Cylinder,
    Cone,
    Triangle,
    Rounded,
    Mesh,
    Heightfield,
    Compound,
}

impl RawShapeKind {
    pub fn name(self) -> &'static str {
        match self {
            Self::Sphere => "sphere",
            Self::Cuboid => "cuboid",
            Self::Capsule => "capsule",
            Self::Hull => "hull",
            Self::Cylinder => "cylinder",
            Self::Cone => "cone",
            Self::Triangle => "triangle",
            Self::Rounded => "rounded",
            Self::Mesh => "mesh",
            Self::Heightfield => "heightfield",
            Self::Compound => "compound",
        }
    }

    /// Whether the type is a mesh, a heightfield or a compound.
    pub fn is_composite(self) -> bool {
        matches!(self, Self::Mesh | Self::Heightfield | Self::Compound)
    }
}

/// One entry of a body's `shapes`: a shape, its pose in the body and its
/// own material, filter and sensor flag (each defaulting to the body's).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawBodyShape {
    pub(super) shape: Spanned<RawShape>,
    pub(super) position: Option<RawVec3>,
    pub(super) rotation: Option<Spanned<RawRotation>>,
    pub(super) density: Option<RawNumber>,
    pub(super) friction: Option<RawNumber>,
    pub(super) restitution: Option<RawNumber>,
    pub(super) rolling_resistance: Option<RawNumber>,
    pub(super) sensor: Option<bool>,
    pub(super) filter: Option<Spanned<RawFilter>>,
}

/// A collision filter: category and mask bits (whole numbers that fit 32
/// bits, written in any TOML integer form, `0xFFFFFFFD` included) and a
/// group index (a 32-bit signed whole number). Each defaults as
/// `Filter::default`'s.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawFilter {
    pub(super) category: Option<Spanned<i64>>,
    pub(super) mask: Option<Spanned<i64>>,
    pub(super) group: Option<Spanned<i64>>,
}

/// One struct for every shape type, so that each parameter keeps its span;
/// which parameters a type takes is checked after parsing.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawShape {
    #[serde(rename = "type")]
    pub(super) kind: Spanned<RawShapeKind>,
    pub(super) radius: Option<RawNumber>,
    pub(super) half_extents: Option<RawVec3>,
    pub(super) half_height: Option<RawNumber>,
    pub(super) points: Option<Spanned<Vec<RawVec3>>>,
    /// The shape a `rounded` shape rounds.
    pub(super) shape: Option<Box<Spanned<RawShape>>>,
    /// A mesh's vertices and triangles (corner indices).
    pub(super) vertices: Option<Spanned<Vec<RawVec3>>>,
    pub(super) triangles: Option<RawTriangles>,
    /// A heightfield's rows of heights (each along x) and its cell size.
    pub(super) heights: Option<Spanned<Vec<Spanned<Vec<RawNumber>>>>>,
    pub(super) cell: Option<Spanned<Exact<RawNumber, 2>>>,
    /// A compound's parts.
    pub(super) parts: Option<Spanned<Vec<Spanned<RawPart>>>>,
}

/// One part of a compound: a convex shape and its pose in the compound.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawPart {
    pub(super) shape: Spanned<RawShape>,
    pub(super) position: Option<RawVec3>,
    pub(super) rotation: Option<Spanned<RawRotation>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawRotation {
    pub(super) euler: Option<RawVec3>,
    pub(super) quaternion: Option<Spanned<Exact<RawNumber, 4>>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawRepeat {
    pub(super) count: Spanned<Exact<Spanned<i64>, 3>>,
    pub(super) step: RawVec3,
}

/// The kind of a `[[joint]]`.
#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub(super) enum RawJointKind {
    Spherical,
    Revolute,
    Prismatic,
    Weld,
    Distance,
}

impl RawJointKind {
    pub fn name(self) -> &'static str {
        match self {
            Self::Spherical => "spherical",
            Self::Revolute => "revolute",
            Self::Prismatic => "prismatic",
            Self::Weld => "weld",
            Self::Distance => "distance",
        }
    }
}

/// One `[[joint]]` entry: one struct for every kind, so that each value
/// keeps its span; which keys a kind takes is checked after parsing.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawJoint {
    pub(super) kind: Spanned<RawJointKind>,
    /// Creation-order indices of the two bodies (the ground is 0 when
    /// the file has one).
    pub(super) bodies: Spanned<Exact<Spanned<i64>, 2>>,
    /// World-space anchor at creation (a distance joint's anchor on its
    /// first body).
    pub(super) anchor: RawVec3,
    /// A distance joint's anchor on its second body.
    pub(super) anchor_b: Option<RawVec3>,
    pub(super) axis: Option<RawVec3>,
    pub(super) limits: Option<Spanned<Exact<RawNumber, 2>>>,
    pub(super) cone_limit: Option<RawNumber>,
    pub(super) motor: Option<Spanned<RawMotor>>,
    pub(super) friction: Option<RawNumber>,
    pub(super) softness: Option<Spanned<RawSoftness>>,
    pub(super) spring: Option<Spanned<RawSoftness>>,
    pub(super) collide_connected: Option<bool>,
    pub(super) break_force: Option<RawNumber>,
    pub(super) break_torque: Option<RawNumber>,
}

/// A joint motor: target speed and the most force or torque it may use.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawMotor {
    pub(super) speed: RawNumber,
    pub(super) max_force: RawNumber,
}

/// A spring: frequency and damping ratio.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawSoftness {
    pub(super) hertz: RawNumber,
    pub(super) damping_ratio: RawNumber,
}
