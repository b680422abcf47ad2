//! The small, contiguous per-step state the solver reads and writes for each
//! awake body, kept apart from the rarely-used body data (Box2D v3's
//! `b2BodyState`), and the inverse mass the contact preparation reads.

use collide::nalgebra::{Matrix3, Quaternion, UnitQuaternion, Vector3};
use wide::f32x4;

/// Velocity and the pose change accumulated over the step's substeps of one
/// awake body: all that the inner solver loops touch. Slot 0 of the
/// solver's array is a static stand-in for every static or sleeping body;
/// its inverse mass is zero, so impulses never move it.
#[derive(Clone, Copy, Debug)]
#[repr(C)]
pub(crate) struct SolverBody {
    pub linear_velocity: Vector3<f32>,
    pub angular_velocity: Vector3<f32>,
    /// Displacement of the centre of mass since the start of the step.
    pub delta_position: Vector3<f32>,
    /// Rotation since the start of the step as the sum of the substeps'
    /// `ω h` (a rotation vector). The contact solver moves anchors by the
    /// first-order displacement `Δθ × r`, as PhysX's TGS does: within one
    /// step `|Δθ|` is small (0.1 rad turns a 1 m lever by 5 mm of
    /// second-order error) and the product `Δθ · (r × n)` reuses the
    /// precomputed angular Jacobian. The exact rotation, a quaternion, lives
    /// in [`SolverMotion`], touched only by integration.
    pub delta_angle: Vector3<f32>,
}

impl SolverBody {
    /// The static stand-in.
    pub const STATIC: Self = Self {
        linear_velocity: Vector3::new(0.0, 0.0, 0.0),
        angular_velocity: Vector3::new(0.0, 0.0, 0.0),
        delta_position: Vector3::new(0.0, 0.0, 0.0),
        delta_angle: Vector3::new(0.0, 0.0, 0.0),
    };

    /// The twelve floats in field order as three rows of four, for the
    /// SIMD batches to transpose into lanes.
    #[inline]
    pub fn rows(&self) -> [f32x4; 3] {
        let (v, w) = (&self.linear_velocity, &self.angular_velocity);
        let (p, a) = (&self.delta_position, &self.delta_angle);
        [
            f32x4::new([v.x, v.y, v.z, w.x]),
            f32x4::new([w.y, w.z, p.x, p.y]),
            f32x4::new([p.z, a.x, a.y, a.z]),
        ]
    }
}

/// The rotation accumulated over the step's substeps, as a unit quaternion
/// (renormalised after every substep); parallel to the solver bodies.
#[derive(Clone, Copy, Debug)]
pub(crate) struct SolverMotion {
    pub delta_rotation: UnitQuaternion<f32>,
}

impl SolverMotion {
    /// No rotation yet.
    pub const IDENTITY: Self =
        Self { delta_rotation: UnitQuaternion::new_unchecked(Quaternion::new(1.0, 0.0, 0.0, 0.0)) };
}

/// Inverse mass and world inverse inertia of a solver body, frozen at the
/// start of the step. Read only when contacts are prepared.
#[derive(Clone, Copy, Debug)]
pub(crate) struct SolverMass {
    pub inv_mass: f32,
    pub inv_inertia: Matrix3<f32>,
}

impl SolverMass {
    /// The static stand-in's: infinite mass and inertia.
    pub const STATIC: Self = Self {
        inv_mass: 0.0,
        inv_inertia: Matrix3::new(0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0),
    };
}
