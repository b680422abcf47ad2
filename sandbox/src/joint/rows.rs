//! The rows every joint kind is built from, in the soft step's form
//! (box3d's `spherical_joint.c`, `revolute_joint.c`, ...): the joint's two
//! bodies as the substep sees them ([`JointBodies`]: velocities, and the
//! frames and anchors moved by each body's motion since the step began),
//! and the rows that act on them: the three-row point constraint, the
//! three-row angular lock, single linear and angular rows, and the
//! one-sided limit rule. Each row takes a [`Pass`]: the push pass corrects
//! position errors with the joint's softness, the relax pass (no bias)
//! holds velocities rigidly.

use collide::nalgebra::{Matrix2, Matrix3, UnitQuaternion, Vector2, Vector3};

use crate::joint::prepare::{JointSide, NO_INDEX, PreparedJoint};
use crate::joint::soft::Soft;
use crate::solver::solver_body::{SolverBody, SolverMotion};

/// Which pass a row is solved in.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Pass {
    /// The position-correcting softness (the joint's in the push pass,
    /// [`Soft::RIGID`] in the relax pass).
    pub soft: Soft,
    /// Whether position errors are corrected (the push pass).
    pub use_bias: bool,
    /// The inverse substep, for speculative limits.
    pub inv_h: f32,
}

/// A joint's two bodies within one solve of one joint.
#[derive(Clone, Copy, Debug)]
pub(crate) struct JointBodies {
    pub va: Vector3<f32>,
    pub wa: Vector3<f32>,
    pub vb: Vector3<f32>,
    pub wb: Vector3<f32>,
    /// Each frame's world rotation now.
    pub qa: UnitQuaternion<f32>,
    pub qb: UnitQuaternion<f32>,
    /// Each anchor relative to its centre of mass now, world frame.
    pub ra: Vector3<f32>,
    pub rb: Vector3<f32>,
    /// B's anchor minus A's, world frame, now.
    pub d: Vector3<f32>,
}

/// Reads the velocities and motion of one side.
#[inline]
fn read_side(
    side: &JointSide,
    bodies: &[SolverBody],
    motions: &[SolverMotion],
) -> (Vector3<f32>, Vector3<f32>, Vector3<f32>, UnitQuaternion<f32>) {
    if side.index == NO_INDEX {
        return (Vector3::zeros(), Vector3::zeros(), Vector3::zeros(), UnitQuaternion::identity());
    }
    let body = &bodies[side.index as usize];
    let dq = motions[side.index as usize].delta_rotation;
    (body.linear_velocity(), body.angular_velocity(), body.delta_position(), dq)
}

impl JointBodies {
    /// The joint's bodies as the solver arrays hold them now.
    #[inline]
    pub fn read(j: &PreparedJoint, bodies: &[SolverBody], motions: &[SolverMotion]) -> Self {
        let (va, wa, dpa, dqa) = read_side(&j.a, bodies, motions);
        let (vb, wb, dpb, dqb) = read_side(&j.b, bodies, motions);
        let ra = dqa * j.a.anchor;
        let rb = dqb * j.b.anchor;
        Self {
            va,
            wa,
            vb,
            wb,
            qa: dqa * j.a.frame_rotation,
            qb: dqb * j.b.frame_rotation,
            ra,
            rb,
            d: (dpb - dpa) + j.delta_center + (rb - ra),
        }
    }

    /// Writes the velocities back to the bodies the joint moves.
    #[inline]
    pub fn write(&self, j: &PreparedJoint, bodies: &mut [SolverBody]) {
        if j.a.moves {
            bodies[j.a.index as usize].set_velocities(&self.va, &self.wa);
        }
        if j.b.moves {
            bodies[j.b.index as usize].set_velocities(&self.vb, &self.wb);
        }
    }

    /// The rotation from A's frame to B's, with a non-negative scalar part
    /// (so angles read from it lie in [-π, π]).
    #[inline]
    pub fn relative_rotation(&self) -> UnitQuaternion<f32> {
        let q = self.qa.inverse() * self.qb;
        if q.w < 0.0 { UnitQuaternion::new_unchecked(-q.into_inner()) } else { q }
    }

    /// Applies a linear impulse `p` at the anchors (to B, its opposite to A).
    #[inline]
    pub fn apply_point(&mut self, j: &PreparedJoint, p: &Vector3<f32>) {
        self.va -= p * j.a.inv_mass;
        self.wa -= j.a.inv_inertia * self.ra.cross(p);
        self.vb += p * j.b.inv_mass;
        self.wb += j.b.inv_inertia * self.rb.cross(p);
    }

    /// Applies an angular impulse `l` (to B, its opposite to A).
    #[inline]
    pub fn apply_angular(&mut self, j: &PreparedJoint, l: &Vector3<f32>) {
        self.wa -= j.a.inv_inertia * l;
        self.wb += j.b.inv_inertia * l;
    }

    /// Applies impulse `lambda` along the linear row `u` whose lever on A
    /// is `la` (B's is its anchor).
    #[inline]
    pub fn apply_linear_row(
        &mut self,
        j: &PreparedJoint,
        u: &Vector3<f32>,
        la: &Vector3<f32>,
        lambda: f32,
    ) {
        let p = u * lambda;
        self.va -= p * j.a.inv_mass;
        self.wa -= j.a.inv_inertia * la.cross(&p);
        self.vb += p * j.b.inv_mass;
        self.wb += j.b.inv_inertia * self.rb.cross(&p);
    }

    /// The relative velocity along the linear row `u` with lever `la` on A.
    #[inline]
    pub fn linear_row_speed(&self, u: &Vector3<f32>, la: &Vector3<f32>) -> f32 {
        u.dot(&(self.vb + self.wb.cross(&self.rb) - self.va - self.wa.cross(la)))
    }

    /// The effective mass of the linear row `u` with lever `la` on A.
    #[inline]
    pub fn linear_row_mass(&self, j: &PreparedJoint, u: &Vector3<f32>, la: &Vector3<f32>) -> f32 {
        let (ca, cb) = (la.cross(u), self.rb.cross(u));
        let k = j.a.inv_mass
            + j.b.inv_mass
            + ca.dot(&(j.a.inv_inertia * ca))
            + cb.dot(&(j.b.inv_inertia * cb));
        if k > 0.0 { 1.0 / k } else { 0.0 }
    }

    /// The effective mass of the angular row about `u`.
    #[inline]
    pub fn angular_row_mass(&self, j: &PreparedJoint, u: &Vector3<f32>) -> f32 {
        let k = u.dot(&((j.a.inv_inertia + j.b.inv_inertia) * u));
        if k > 0.0 { 1.0 / k } else { 0.0 }
    }

    /// The relative angular speed about `u`.
    #[inline]
    pub fn angular_speed(&self, u: &Vector3<f32>) -> f32 {
        u.dot(&(self.wb - self.wa))
    }

    /// The point constraint: B's anchor on A's (three rows solved as a
    /// block, `K = (m_a + m_b) I - [r_a]× I_a⁻¹ [r_a]× - [r_b]× I_b⁻¹ [r_b]×`).
    /// `soft` is the pass's (or a weld's linear spring).
    pub fn solve_point(
        &mut self,
        j: &PreparedJoint,
        soft: &Soft,
        use_bias: bool,
        impulse: &mut Vector3<f32>,
    ) {
        let cdot = self.vb + self.wb.cross(&self.rb) - self.va - self.wa.cross(&self.ra);
        let bias = if use_bias { self.d * soft.bias_rate } else { Vector3::zeros() };
        let (sa, sb) = (self.ra.cross_matrix(), self.rb.cross_matrix());
        let k = Matrix3::identity() * (j.a.inv_mass + j.b.inv_mass)
            - sa * j.a.inv_inertia * sa
            - sb * j.b.inv_inertia * sb;
        let Some(x) = k.cholesky().map(|c| c.solve(&(cdot + bias))) else {
            return;
        };
        let lambda = -x * soft.mass_scale - *impulse * soft.impulse_scale;
        *impulse += lambda;
        self.apply_point(j, &lambda);
    }

    /// The angular lock: the frames keep their relative rotation (three
    /// rows as a block, `K = I_a⁻¹ + I_b⁻¹`). The error is the rotation
    /// vector of the relative rotation, small-angle (`2 q_v`), in the world.
    pub fn solve_angular_lock(
        &mut self,
        j: &PreparedJoint,
        soft: &Soft,
        use_bias: bool,
        impulse: &mut Vector3<f32>,
    ) {
        let k = j.a.inv_inertia + j.b.inv_inertia;
        let cdot = self.wb - self.wa;
        let bias = if use_bias {
            let rel = self.relative_rotation();
            self.qa * (rel.imag() * 2.0) * soft.bias_rate
        } else {
            Vector3::zeros()
        };
        let Some(x) = k.cholesky().map(|c| c.solve(&(cdot + bias))) else {
            return;
        };
        let lambda = -x * soft.mass_scale - *impulse * soft.impulse_scale;
        *impulse += lambda;
        self.apply_angular(j, &lambda);
    }

    /// A revolute joint's alignment: B's frame z axis stays on A's (two
    /// angular rows across A's axis, as a block). The error along each row
    /// `e` is `e · (z_a × z_b)`, the sine of the misalignment about it.
    pub fn solve_axis_alignment(
        &mut self,
        j: &PreparedJoint,
        pass: &Pass,
        impulse: &mut Vector2<f32>,
    ) {
        let (ex, ey) = (self.qa * Vector3::x(), self.qa * Vector3::y());
        let (za, zb) = (self.qa * Vector3::z(), self.qb * Vector3::z());
        let inv_i = j.a.inv_inertia + j.b.inv_inertia;
        let k = Matrix2::new(
            ex.dot(&(inv_i * ex)),
            ex.dot(&(inv_i * ey)),
            ey.dot(&(inv_i * ex)),
            ey.dot(&(inv_i * ey)),
        );
        let dw = self.wb - self.wa;
        let mut rhs = Vector2::new(ex.dot(&dw), ey.dot(&dw));
        if pass.use_bias {
            let c = za.cross(&zb);
            rhs += Vector2::new(ex.dot(&c), ey.dot(&c)) * pass.soft.bias_rate;
        }
        let Some(x) = k.cholesky().map(|c| c.solve(&rhs)) else {
            return;
        };
        let lambda = -x * pass.soft.mass_scale - *impulse * pass.soft.impulse_scale;
        *impulse += lambda;
        self.apply_angular(j, &(ex * lambda.x + ey * lambda.y));
    }
}

/// The change of a one-sided limit row's accumulated impulse (kept ≥ 0),
/// box3d's rule: while the limit is not reached (`c > 0`) the row only
/// stops the bodies from closing the gap within the substep (speculative,
/// `bias = c / h`); once passed, the push pass pushes back with the
/// joint's softness and the relax pass holds the velocity.
#[inline]
pub(crate) fn limit_delta(c: f32, cdot: f32, mass: f32, pass: &Pass, accumulated: &mut f32) -> f32 {
    let (bias, mass_scale, impulse_scale) = if c > 0.0 {
        (c * pass.inv_h, 1.0, 0.0)
    } else if pass.use_bias {
        (c * pass.soft.bias_rate, pass.soft.mass_scale, pass.soft.impulse_scale)
    } else {
        (0.0, 1.0, 0.0)
    };
    let old = *accumulated;
    let delta = -mass_scale * mass * (cdot + bias) - impulse_scale * old;
    // NaN-safe: a NaN sum leaves the impulse at zero.
    *accumulated = if old + delta > 0.0 { old + delta } else { 0.0 };
    *accumulated - old
}

/// The change of a motor (or friction) row's accumulated impulse, kept
/// within `± max_impulse`: drives the relative speed `cdot` to `speed`.
#[inline]
pub(crate) fn motor_delta(
    cdot: f32,
    speed: f32,
    mass: f32,
    max_impulse: f32,
    accumulated: &mut f32,
) -> f32 {
    let old = *accumulated;
    let target = old - mass * (cdot - speed);
    *accumulated = target.clamp(-max_impulse, max_impulse);
    if accumulated.is_nan() {
        *accumulated = 0.0;
    }
    *accumulated - old
}

/// The twist angle of `rel` about its z axis (the swing-twist
/// decomposition's twist), in [-π, π] for a rotation with `w ≥ 0`.
#[inline]
pub(crate) fn twist_angle(rel: &UnitQuaternion<f32>) -> f32 {
    2.0 * rel.k.atan2(rel.w)
}
