//! The small, contiguous per-step state the solver reads and writes for each
//! awake body, kept apart from the rarely-used body data (Box2D v3's
//! `b2BodyState`), and the inverse mass the contact preparation reads.

use crate::prefetch::prefetch_ptr;
use collide::nalgebra::{Matrix3, Quaternion, UnitQuaternion, Vector3};
use wide::f32x4;

/// Velocity and the pose change accumulated over the step's substeps of one
/// awake body: all that the inner solver loops touch. Slot 0 of the
/// solver's array is a static stand-in for every static or sleeping body;
/// its inverse mass is zero, so impulses never move it.
///
/// The twelve floats are stored as three SIMD rows of four, in the order
/// `v.x v.y v.z ω.x | ω.y ω.z Δp.x Δp.y | Δp.z Δθ.x Δθ.y Δθ.z`, so the SIMD
/// batches load a body with three aligned loads and store its velocities
/// back with two (see `contact_solver::simd_batch`):
/// - `v`, `ω`: linear and angular velocity;
/// - `Δp`: displacement of the centre of mass since the start of the step;
/// - `Δθ`: the turn since the start of the step as `sin φ · u` (angle φ
///   about unit axis u; see `integrate::turn_vector`). The contact solver
///   moves anchors by the first-order displacement `Δθ × r`, as PhysX's
///   TGS does with the summed angle; `sin φ · u` agrees with that to third
///   order for small turns and stays bounded by the lever for large ones (a
///   capsule tumbling at 240 rad/s turns 4 rad in a step), and the product
///   `Δθ · (r × n)` still reuses the precomputed angular Jacobian. The
///   exact rotation, a quaternion, lives in [`SolverMotion`], touched only
///   by integration.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct SolverBody {
    rows: [f32x4; 3],
}

impl SolverBody {
    /// The static stand-in.
    pub const STATIC: Self = Self { rows: [f32x4::ZERO; 3] };

    /// A body moving at `v` and `ω` with no pose change yet.
    #[inline]
    pub fn new(linear_velocity: &Vector3<f32>, angular_velocity: &Vector3<f32>) -> Self {
        let mut body = Self::STATIC;
        body.set_velocities(linear_velocity, angular_velocity);
        body
    }

    /// The three rows as stored (see the type's notes), for a SIMD gather.
    #[inline(always)]
    pub fn rows(&self) -> [f32x4; 3] {
        self.rows
    }

    /// Linear velocity `v`.
    #[inline]
    pub fn linear_velocity(&self) -> Vector3<f32> {
        let r0 = self.rows[0].as_array();
        Vector3::new(r0[0], r0[1], r0[2])
    }

    /// Angular velocity `ω`.
    #[inline]
    pub fn angular_velocity(&self) -> Vector3<f32> {
        let (r0, r1) = (self.rows[0].as_array(), self.rows[1].as_array());
        Vector3::new(r0[3], r1[0], r1[1])
    }

    /// Displacement of the centre of mass since the start of the step, `Δp`.
    #[inline]
    pub fn delta_position(&self) -> Vector3<f32> {
        let (r1, r2) = (self.rows[1].as_array(), self.rows[2].as_array());
        Vector3::new(r1[2], r1[3], r2[0])
    }

    /// Rotation since the start of the step, `Δθ` (see the type's notes).
    #[inline]
    pub fn delta_angle(&self) -> Vector3<f32> {
        let r2 = self.rows[2].as_array();
        Vector3::new(r2[1], r2[2], r2[3])
    }

    /// Sets `v` and `ω`.
    #[inline]
    pub fn set_velocities(&mut self, v: &Vector3<f32>, w: &Vector3<f32>) {
        let [r0, r1, _] = &mut self.rows;
        let (r0, r1) = (r0.as_mut_array(), r1.as_mut_array());
        [r0[0], r0[1], r0[2], r0[3]] = [v.x, v.y, v.z, w.x];
        [r1[0], r1[1]] = [w.y, w.z];
    }

    /// Sets `Δp` and `Δθ`.
    #[inline]
    pub fn set_deltas(&mut self, p: &Vector3<f32>, a: &Vector3<f32>) {
        let [_, r1, r2] = &mut self.rows;
        let (r1, r2) = (r1.as_mut_array(), r2.as_mut_array());
        [r1[2], r1[3]] = [p.x, p.y];
        [r2[0], r2[1], r2[2], r2[3]] = [p.z, a.x, a.y, a.z];
    }

    /// Replaces the first two rows (`v`, `ω`, and `Δp.x Δp.y`, which the
    /// SIMD batches write back as they read them).
    #[inline]
    pub fn set_first_rows(&mut self, row0: f32x4, row1: f32x4) {
        self.rows[0] = row0;
        self.rows[1] = row1;
    }
}

/// The solver bodies one task of a sweep may write: a contiguous run of
/// the solver array, addressed by solver index, whose first body is the
/// static stand-in the task's manifolds use (see
/// [`crate::solver::regions`]); that one is read but never written. Tasks
/// that run at once hold disjoint windows, so the borrow checker, not a
/// promise, keeps them from writing the same body.
#[derive(Debug)]
pub(crate) struct BodyWindow<'a> {
    bodies: &'a mut [SolverBody],
    /// Solver index of `bodies[0]`, the stand-in.
    first: u32,
}

impl<'a> BodyWindow<'a> {
    /// The window whose first body, the stand-in, has solver index `first`.
    pub fn new(bodies: &'a mut [SolverBody], first: u32) -> Self {
        Self { bodies, first }
    }

    /// Every solver body, with stand-in 0 first.
    pub fn whole(bodies: &'a mut [SolverBody]) -> Self {
        Self::new(bodies, 0)
    }

    /// The rows of the body with solver index `index`. Panics if the body is
    /// outside the window (a task reaching a body it does not own).
    #[inline(always)]
    pub fn rows(&self, index: u32) -> [f32x4; 3] {
        self.bodies[index.wrapping_sub(self.first) as usize].rows
    }

    /// Asks for the cache line of the body with solver index `index` (see
    /// [`crate::prefetch`]). No bounds test: a prefetch never faults, so an
    /// index outside the window only wastes the hint, and the passes ask
    /// for the eight bodies of every batch ahead (a bounds-tested loop over
    /// them was a tenth of the push pass's instructions on washer).
    #[inline(always)]
    pub fn prefetch(&self, index: u32) {
        let at = self.bodies.as_ptr().wrapping_add(index.wrapping_sub(self.first) as usize);
        prefetch_ptr(at);
    }

    /// [`SolverBody::set_first_rows`] on the body with solver index
    /// `index`, unless it is the stand-in.
    #[inline(always)]
    pub fn set_first_rows(&mut self, index: u32, row0: f32x4, row1: f32x4) {
        if index != self.first {
            self.bodies[index.wrapping_sub(self.first) as usize].set_first_rows(row0, row1);
        }
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
