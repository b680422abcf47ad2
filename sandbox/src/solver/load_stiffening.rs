//! Contact springs stiffened for the load they carry, so a heavy body on a
//! light one does not sink into it.
//!
//! The soft step's contact spring is set by a frequency `ω` on the
//! contact's effective mass `m` (the lighter body's, roughly), so its
//! stiffness is `m ω²`. In steady state the push leaves `Δλ = 0` at zero
//! velocity, so (parent module's notation, `λ` the per-substep impulse)
//! `m · mass_scale · bias_rate · s = -impulse_scale · λ`, which with
//! `impulse_scale / mass_scale = 1 / (hω(2ζ + hω))` and
//! `bias_rate = ω / (2ζ + hω)` is
//!
//! `s = -λ / (m h ω²) = -F / (m ω²)`,
//!
//! the spring's compression `F / k` under the load `F = λ / h`. A load
//! carried by a light body grows with the mass above it while `m` does
//! not: a 1000:1 cube on a light one compressed the ground contact by 3 cm,
//! and an alternating 1000:1 stack collapsed. Box2D v3 keeps one frequency
//! per contact kind (twice as stiff against static bodies); here, a
//! contact whose warm-start impulses say its spring would compress by more
//! than the step's `max_contact_sag` gets the frequency that compresses it
//! by exactly that much, from the largest point load of the manifold:
//!
//! `ω² = max_i(λ_i / m_i) / (h · s_max)`,
//!
//! `λ_i / m_i` being the velocity change point `i`'s impulse alone makes.
//! The spring then stiffens as a real contact does under load (Hertz), and
//! the soft step stays stable: the implicit spring is unconditionally
//! stable for one row, and a stiff one tends to a rigid row with a
//! Baumgarte rate below `1 / h` (`bias_rate · h = hω / (2ζ + hω) < 1`),
//! whose push-out velocity the relax pass removes. Lightly loaded contacts
//! (every contact of the equal-mass scenes but the deepest of tall piles)
//! keep the base frequency bit for bit.

use super::simd_batch::W;

/// What the load stiffening needs of the step.
#[derive(Clone, Copy, Debug)]
pub(crate) struct LoadStiffening {
    /// Damping ratio of the contact spring.
    pub zeta: f32,
    /// Substep length (s).
    pub h: f32,
    /// `1 / (h · s_max)` (1/(m·s)): turns a point's load `λ / m` (m/s)
    /// into the `ω²` that compresses its spring by `s_max`; 0 turns the
    /// stiffening off.
    pub omega_sq_per_load: f32,
    /// Highest frequency (rad/s) a dynamic-dynamic contact is stiffened to.
    pub max_omega: f32,
    /// Highest frequency (rad/s) a contact of a chain solved directly is
    /// stiffened to (see [`crate::solver::chain_block_solve`]): the direct
    /// solve is the implicit spring, stable at any frequency.
    pub block_max_omega: f32,
}

/// Each lane's spring coefficients `(mass_scale, bias_rate, impulse_scale)`,
/// raised to the frequency whose compression under `load` (the largest
/// `λ_i / m_i` of the lane's points, m/s) is the step's largest sag, where
/// that is above the lane's base frequency `base_omega`, up to
/// `max_omega`; other lanes, and lanes whose load is not a finite positive
/// number, keep `base`.
#[inline(always)]
pub(crate) fn stiffen_for_load(
    load: W,
    base_omega: W,
    max_omega: W,
    base: (W, W, W),
    p: &LoadStiffening,
) -> (W, W, W) {
    let wanted = (load * W::splat(p.omega_sq_per_load)).sqrt();
    // NaN compares false: such lanes keep the base spring, as do infinite
    // loads (checked before the cap, which would hide them).
    let stiffer = wanted.simd_gt(base_omega) & wanted.simd_lt(W::splat(f32::INFINITY));
    if stiffer.none() {
        return base;
    }
    let omega = wanted.min(max_omega);
    let h = W::splat(p.h);
    let a1 = W::splat(2.0 * p.zeta) + h * omega;
    let a2 = h * omega * a1;
    let a3 = W::ONE / (W::ONE + a2);
    let (mass_scale, bias_rate, impulse_scale) = base;
    (
        stiffer.select(a2 * a3, mass_scale),
        stiffer.select(omega / a1, bias_rate),
        stiffer.select(a3, impulse_scale),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::contact_solver::Softness;

    /// Relative tolerance on the steady-state compression: the
    /// coefficients round a few f32 products and one division each.
    const RELATIVE_TOLERANCE: f32 = 1e-4;

    const H: f32 = 1.0 / 480.0;
    const ZETA: f32 = 10.0;
    const MAX_SAG: f32 = 0.002;

    fn params() -> LoadStiffening {
        LoadStiffening {
            zeta: ZETA,
            h: H,
            omega_sq_per_load: 1.0 / (H * MAX_SAG),
            max_omega: 2.0 * std::f32::consts::PI * 0.25 / H,
            block_max_omega: 2.0 * std::f32::consts::PI * 4.0 / H,
        }
    }

    fn base() -> (Softness, (W, W, W)) {
        let s = Softness::new(50.0, ZETA, H);
        (s, (W::splat(s.mass_scale), W::splat(s.bias_rate), W::splat(s.impulse_scale)))
    }

    /// The push's steady state, `m · mass_scale · bias_rate · s =
    /// -impulse_scale · λ` at zero velocity, solved for the compression
    /// `-s` of a point with unit effective mass and per-substep impulse
    /// `λ = load`: the oracle is the soft-step update itself, not the
    /// closed form the module derives.
    fn steady_compression(load: f32, (mass_scale, bias_rate, impulse_scale): (W, W, W)) -> f32 {
        let lane = |w: W| w.as_array()[0];
        lane(impulse_scale) * load / (lane(mass_scale) * lane(bias_rate))
    }

    #[test]
    fn a_heavily_loaded_spring_compresses_by_the_largest_sag() {
        let (soft, coefficients) = base();
        // The load whose base compression is four times the largest sag,
        // and whose stiffened frequency (twice the base) stays under the cap.
        let load = 4.0 * MAX_SAG * H * soft.omega * soft.omega;
        let stiff = stiffen_for_load(
            W::splat(load),
            W::splat(soft.omega),
            W::splat(params().max_omega),
            coefficients,
            &params(),
        );
        let sag = steady_compression(load, stiff);
        assert!((sag - MAX_SAG).abs() < RELATIVE_TOLERANCE * MAX_SAG, "compressed by {sag}");
        assert!(steady_compression(load, coefficients) > 3.9 * MAX_SAG);
    }

    #[test]
    fn light_loads_and_non_finite_loads_keep_the_base_spring() {
        let (soft, coefficients) = base();
        let light = 0.5 * MAX_SAG * H * soft.omega * soft.omega;
        for load in [0.0, light, f32::NAN, f32::INFINITY] {
            let out = stiffen_for_load(
                W::splat(load),
                W::splat(soft.omega),
                W::splat(params().max_omega),
                coefficients,
                &params(),
            );
            assert_eq!(
                [out.0, out.1, out.2].map(|w| w.to_array()),
                [coefficients.0, coefficients.1, coefficients.2].map(|w| w.to_array()),
                "load {load}"
            );
        }
    }

    #[test]
    fn the_stiffened_frequency_is_capped() {
        let (soft, coefficients) = base();
        let max_omega = params().max_omega;
        let huge = 1e6 * MAX_SAG * H * max_omega * max_omega;
        let capped = stiffen_for_load(
            W::splat(huge),
            W::splat(soft.omega),
            W::splat(max_omega),
            coefficients,
            &params(),
        );
        let at_cap = Softness::new(0.25 / H, ZETA, H);
        let lane = |w: W| w.as_array()[0];
        for (got, want) in [
            (lane(capped.0), at_cap.mass_scale),
            (lane(capped.1), at_cap.bias_rate),
            (lane(capped.2), at_cap.impulse_scale),
        ] {
            assert!((got - want).abs() <= RELATIVE_TOLERANCE * want.abs(), "{got} vs {want}");
        }
    }
}
