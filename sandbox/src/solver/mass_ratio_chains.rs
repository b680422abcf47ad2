//! Which manifolds belong to a chain of bodies of very different masses: a
//! heavy body resting on a light one, and every contact of that light body.
//!
//! Gauss-Seidel converges badly across a light body pressed between a
//! heavy one and its support: solving the heavy–light contact moves mostly
//! the light body, solving the support contact then stops the light body,
//! and the heavy body keeps all but a fraction `m / M` of its velocity
//! error after each sweep. The soft step's relax pass, one sweep per
//! substep, then leaves the heavy body the push-out velocity it should
//! remove, and the stack bounces and walks; the soft contact springs,
//! whose stiffness follows the light body's mass while the load follows
//! the heavy one's, sink under it (the root causes of the 1000:1 stack's
//! collapse). The solver treats these manifolds apart: their springs are
//! stiffened for their load (see [`crate::solver::load_stiffening`]) and
//! their batches get
//! [`StepSettings::mass_ratio_iterations`](crate::StepSettings) push and
//! relax sweeps per substep. In scenes of comparable masses no manifold
//! qualifies and the step is unchanged, bit for bit.

use crate::solver::solver_body::SolverMass;

/// Two dynamic bodies in contact whose masses differ by more than this
/// factor form a chain. Stacks up to 10:1 stand within 2 mm with one relax
/// sweep and the base spring; the chains' treatment is for the ratios
/// beyond.
pub(crate) const UNBALANCED_MASS_RATIO: f32 = 10.0;

/// Marks, for each manifold given by its two solver bodies, whether it is
/// part of a mass-ratio chain: it touches a body that is in contact with a
/// dynamic body more than [`UNBALANCED_MASS_RATIO`] times heavier or
/// lighter. `in_chain` is a per-body scratch, `out` gets one flag per pair.
/// Returns whether any manifold is in a chain.
pub(crate) fn mark_chains(
    pairs: &[(u32, u32)],
    masses: &[SolverMass],
    in_chain: &mut Vec<bool>,
    out: &mut Vec<bool>,
) -> bool {
    in_chain.clear();
    in_chain.resize(masses.len(), false);
    out.clear();
    let mut any = false;
    for &(a, b) in pairs {
        let (inv_a, inv_b) = (masses[a as usize].inv_mass, masses[b as usize].inv_mass);
        // Static and sleeping bodies (index 0, inverse mass 0) never count;
        // written so that NaN does not qualify.
        let unbalanced = inv_a > 0.0
            && inv_b > 0.0
            && (inv_a > UNBALANCED_MASS_RATIO * inv_b || inv_b > UNBALANCED_MASS_RATIO * inv_a);
        if unbalanced {
            in_chain[a as usize] = true;
            in_chain[b as usize] = true;
            any = true;
        }
    }
    if any {
        // Index 0 (the static stand-in) is never marked, so a support
        // contact joins the chain through its dynamic body only.
        out.extend(pairs.iter().map(|&(a, b)| in_chain[a as usize] || in_chain[b as usize]));
    } else {
        out.resize(pairs.len(), false);
    }
    any
}

#[cfg(test)]
mod tests {
    use super::*;
    use collide::nalgebra::Matrix3;

    fn mass(inv_mass: f32) -> SolverMass {
        SolverMass { inv_mass, inv_inertia: Matrix3::identity() * inv_mass }
    }

    #[test]
    fn heavy_on_light_marks_the_light_bodys_support_and_spares_others() {
        // 0 static, 1 light, 2 heavy on 1, 3 and 4 equal bodies elsewhere.
        let masses = [mass(0.0), mass(1.0), mass(0.001), mass(1.0), mass(1.0)];
        let pairs = [(0, 1), (1, 2), (0, 3), (3, 4)];
        let (mut scratch, mut out) = (Vec::new(), Vec::new());
        assert!(mark_chains(&pairs, &masses, &mut scratch, &mut out));
        assert_eq!(out, [true, true, false, false]);
    }

    #[test]
    fn comparable_masses_form_no_chain() {
        let masses = [mass(0.0), mass(1.0), mass(1.0 / UNBALANCED_MASS_RATIO), mass(f32::NAN)];
        let pairs = [(0, 1), (1, 2), (2, 3)];
        let (mut scratch, mut out) = (Vec::new(), Vec::new());
        assert!(!mark_chains(&pairs, &masses, &mut scratch, &mut out));
        assert_eq!(out, [false, false, false]);
    }
}
