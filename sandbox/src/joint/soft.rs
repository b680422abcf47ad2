//! The soft-step coefficients of a joint row (Catto, "Soft Constraints",
//! GDC 2011, as Box2D v3 uses them): a spring of angular frequency
//! `ω = 2π f` and damping ratio `ζ` on a position error `C`, integrated
//! implicitly over a substep `h`, turns a row's velocity equation
//! `J v + b = 0` into
//!
//! `λ = -m_eff · mass_scale · (J v + bias_rate · C) - impulse_scale · λ_acc`
//!
//! with `bias_rate = ω / (2ζ + hω)`, `mass_scale = hω(2ζ + hω) / (1 + hω(2ζ + hω))`
//! and `impulse_scale = 1 / (1 + hω(2ζ + hω))`. The same derivation as the
//! contact solver's (`solver/contact_solver.rs`), kept here so that the
//! joint module does not reach into the contact solver's fields.

use crate::joint::desc::Softness;

/// Highest frequency of a joint's position correction, as a fraction of
/// the substep rate: box3d's cap (`b3PrepareJoint`, a quarter), above
/// which one sweep per substep no longer holds a soft row stably.
pub(crate) const MAX_JOINT_HERTZ_PER_SUBSTEP_RATE: f32 = 0.25;

/// Spring coefficients of a soft row for one substep length.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Soft {
    pub bias_rate: f32,
    pub mass_scale: f32,
    pub impulse_scale: f32,
}

impl Soft {
    /// A rigid velocity row: no position bias, the full mass, no
    /// relaxation of the accumulated impulse (the relax pass's rows).
    pub const RIGID: Self = Self { bias_rate: 0.0, mass_scale: 1.0, impulse_scale: 0.0 };

    /// The coefficients of `softness` over a substep `h`. A frequency of
    /// zero gives no spring at all (bias and mass scale zero), which the
    /// callers use only for springs they skip.
    pub fn new(softness: &Softness, h: f32) -> Self {
        let hertz = softness.hertz;
        if !(hertz > 0.0) {
            return Self { bias_rate: 0.0, mass_scale: 0.0, impulse_scale: 1.0 };
        }
        let omega = 2.0 * std::f32::consts::PI * hertz;
        let a1 = 2.0 * softness.damping_ratio + h * omega;
        let a2 = h * omega * a1;
        let a3 = 1.0 / (1.0 + a2);
        Self { bias_rate: omega / a1, mass_scale: a2 * a3, impulse_scale: a3 }
    }

    /// A joint's position-correcting softness over a substep `h`: its
    /// frequency capped at [`MAX_JOINT_HERTZ_PER_SUBSTEP_RATE`] of the
    /// substep rate; a frequency of zero is rigid, the limit of an
    /// infinitely stiff spring (`bias = C / h`, the full mass, no
    /// relaxation: the whole error is corrected within the substep, and
    /// the relax pass then removes the velocity that corrected it).
    pub fn capped(softness: &Softness, h: f32) -> Self {
        if !(softness.hertz > 0.0) {
            return Self { bias_rate: 1.0 / h, mass_scale: 1.0, impulse_scale: 0.0 };
        }
        let cap = MAX_JOINT_HERTZ_PER_SUBSTEP_RATE / h;
        Self::new(&Softness { hertz: softness.hertz.min(cap), ..*softness }, h)
    }
}
