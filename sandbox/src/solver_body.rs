//! The small, contiguous per-step state the solver reads and writes for each
//! awake body, kept apart from the rarely-used body data (Box2D v3's
//! `b2BodyState`).

use collide::nalgebra::{Matrix3, UnitQuaternion, Vector3};

/// Velocity, the pose change accumulated over the step's substeps, and the
/// inverse mass properties of one awake body. Slot 0 of the solver's array
/// is a static dummy that stands in for every static or sleeping body: its
/// inverse mass is zero, so impulses never move it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct SolverBody {
    pub linear_velocity: Vector3<f32>,
    pub angular_velocity: Vector3<f32>,
    /// Displacement of the centre of mass since the start of the step.
    pub delta_position: Vector3<f32>,
    /// Rotation since the start of the step.
    pub delta_rotation: UnitQuaternion<f32>,
    pub inv_mass: f32,
    /// Inverse inertia tensor in world axes, frozen at the start of the step.
    pub inv_inertia: Matrix3<f32>,
}

impl SolverBody {
    /// The static stand-in.
    pub const STATIC: Self = Self {
        linear_velocity: Vector3::new(0.0, 0.0, 0.0),
        angular_velocity: Vector3::new(0.0, 0.0, 0.0),
        delta_position: Vector3::new(0.0, 0.0, 0.0),
        delta_rotation: UnitQuaternion::new_unchecked(collide::nalgebra::Quaternion::new(
            1.0, 0.0, 0.0, 0.0,
        )),
        inv_mass: 0.0,
        inv_inertia: Matrix3::new(0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0),
    };
}
