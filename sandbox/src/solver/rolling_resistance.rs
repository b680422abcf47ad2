//! Rolling resistance, box3d's (`contact_solver.c`, "Rolling resistance"):
//! a contact whose shapes have a rolling resistance `μ_r` resists the
//! relative angular velocity of its two bodies with an angular impulse
//! `P_r`, a three-dimensional row on `ω_b − ω_a`, clamped to a ball:
//!
//! `P_r += −M_r (ω_b − ω_a)`, `M_r = (I_a⁻¹ + I_b⁻¹)⁻¹`, then
//! `|P_r| ≤ μ_r · R · Σ λ_n`,
//!
//! with `R` the larger of the two shapes' rolling radii and `Σ λ_n` the
//! manifold's accumulated normal impulse. A ball rolling on flat ground
//! then feels a torque of `μ_r R N` against its spin: with `I ω̇ = −μ_r R N`
//! and no slip (`v = ω R`), `(m + I / R²) v̇ = −μ_r N`, a deceleration of
//! `μ_r g / (1 + I / (m R²))` (5/7 of `μ_r g` for a solid ball).
//!
//! Like box3d, the row is solved in the relax pass (no position bias),
//! after the sweeps, and warm started each substep from the impulse it
//! has accumulated; like box3d, that impulse is kept with the manifold
//! from step to step (`Manifold::rolling_impulse`), so a resting contact
//! starts each step already resisting. This file used to start each step
//! at zero, which let each step's first substep turn a body freely until
//! the relax rebuilt the impulse. On box3d's `trees` scene (long prisms
//! lying on single mesh points, whose roll inertia is about 1/1600 of
//! their cross inertia), keeping the impulse took 500 steps' max
//! penetration from 0.076 to 0.029 m, max drift from 7.5 to 5.2 m, and
//! the awake trees at step 500 from 21 to 17 (2026-11-30).
//! Departure: box3d solves the row in its own colour pass beside each
//! contact; here the rows are relaxed one after the other, in manifold
//! order, after the contact sweeps. Rows exist only for manifolds whose
//! shapes have a rolling resistance, so a world without any does nothing
//! here and its steps are bitwise as before.

use collide::nalgebra::{Matrix3, Vector3};
use collide::{Shape, SupportMap};

use crate::body::storage::Bodies;
use crate::collision::pair_cache::PairCache;
use crate::solver::contact_solver::ConstraintSlot;
use crate::solver::simd_batch::ConstraintBatch;
use crate::solver::solver_body::{SolverBody, SolverMass};

/// A hull's rolling radius as a fraction of its thinnest half width:
/// box3d takes a quarter of a hull's inner radius, so a box tipping over
/// an edge is not held back as a ball of its size would be.
const HULL_ROLLING_FRACTION: f32 = 0.25;

/// The radius at which `shape` rolls, for its contacts' rolling resistance:
/// a sphere's or capsule's radius (a rounded shape's rounding included),
/// [`HULL_ROLLING_FRACTION`] of any other convex shape's thinnest half
/// width, and none for a mesh, a heightfield or a compound (a surface does
/// not roll; a compound's parts are its shapes' business).
pub(crate) fn rolling_radius(shape: &Shape) -> f32 {
    match shape {
        Shape::Sphere(s) => s.radius,
        Shape::Capsule(c) => c.radius,
        Shape::Rounded(r) => r.radius + rolling_radius(&r.inner),
        s if s.is_composite() => 0.0,
        s => {
            let half = crate::body::thickness::thinnest_half_width(s);
            let margin = s.margin();
            if half.is_finite() && margin.is_finite() { HULL_ROLLING_FRACTION * half } else { 0.0 }
        }
    }
}

/// One manifold's rolling row.
#[derive(Clone, Copy, Debug)]
struct RollingRow {
    /// The manifold's batch and lane, to read its normal impulses.
    batch: u32,
    lane: u32,
    /// The manifold's slab slot, to read and store the impulse.
    manifold: u32,
    /// The solver indices of its bodies (0: static, never moved).
    body_a: u32,
    body_b: u32,
    /// `μ_r · R`: the impulse bound per unit of normal impulse.
    bound_per_normal: f32,
    /// The bodies' world inverse inertias and the row's mass.
    inv_inertia_a: Matrix3<f32>,
    inv_inertia_b: Matrix3<f32>,
    mass: Matrix3<f32>,
    /// The accumulated angular impulse, world frame, N·m·s.
    impulse: Vector3<f32>,
}

/// The step's rolling rows, kept between steps so that a warm step
/// allocates nothing.
#[derive(Debug, Default)]
pub(crate) struct RollingRows {
    rows: Vec<RollingRow>,
}

impl RollingRows {
    /// Finds the rows of this step: one per solved manifold (`slots`, with
    /// their bodies' solver indices in `pairs`) whose shapes have a rolling
    /// resistance. Cheap when no shape in the world has one.
    pub fn prepare(
        &mut self,
        slots: &[ConstraintSlot],
        pairs: &[(u32, u32)],
        masses: &[SolverMass],
        contacts: &PairCache,
        bodies: &Bodies,
    ) {
        self.rows.clear();
        if bodies.shapes.rolling_shapes == 0 {
            return;
        }
        let store = &bodies.shapes;
        for (slot, &(index_a, index_b)) in slots.iter().zip(pairs) {
            let c = &contacts.pairs[slot.contact as usize];
            let shapes =
                contacts.shape_pairs.get(slot.contact as usize).copied().unwrap_or_default();
            let ka = bodies.shape_ranges[c.body_a as usize].first as usize + usize::from(shapes.a);
            let kb = bodies.shape_ranges[c.body_b as usize].first as usize + usize::from(shapes.b);
            let (ma, mb) = (&store.materials[ka], &store.materials[kb]);
            let resistance = ma.rolling_resistance.max(mb.rolling_resistance);
            if !(resistance > 0.0) {
                continue;
            }
            let radius = ma.rolling_radius.max(mb.rolling_radius);
            let bound_per_normal = resistance * radius;
            if !(bound_per_normal > 0.0) {
                continue;
            }
            let inertia =
                |index: u32| masses.get(index as usize).map_or(Matrix3::zeros(), |m| m.inv_inertia);
            let (inv_inertia_a, inv_inertia_b) = (
                if index_a != 0 { inertia(index_a) } else { Matrix3::zeros() },
                if index_b != 0 { inertia(index_b) } else { Matrix3::zeros() },
            );
            let Some(mass) = (inv_inertia_a + inv_inertia_b).try_inverse() else {
                continue;
            };
            // The last step's impulse, kept with the manifold (zero for a
            // new contact, and for a non-finite one).
            let kept = contacts.slab.manifold(c.manifold).rolling_impulse;
            let impulse = if kept.iter().all(|x| x.is_finite()) { kept } else { Vector3::zeros() };
            self.rows.push(RollingRow {
                batch: slot.batch,
                lane: slot.lane,
                manifold: c.manifold,
                body_a: index_a,
                body_b: index_b,
                bound_per_normal,
                inv_inertia_a,
                inv_inertia_b,
                mass,
                impulse,
            });
        }
    }

    /// Whether there is nothing to do this step.
    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    /// Stores each row's accumulated impulse with its manifold, for the
    /// next step's warm start. One pass, in row order, on this thread.
    pub fn store(&self, contacts: &mut PairCache) {
        for row in &self.rows {
            if let Some(cached) = contacts.slab.get_mut(row.manifold) {
                cached.manifold.rolling_impulse = row.impulse;
            }
        }
    }

    /// Applies each row's accumulated impulse again (the substep's warm
    /// start).
    pub fn warm_start(&self, bodies: &mut [SolverBody]) {
        for row in &self.rows {
            apply(row, &row.impulse, bodies);
        }
    }

    /// One relax sweep of the rows, in order, after the contact sweeps.
    pub fn relax(&mut self, batches: &[ConstraintBatch], bodies: &mut [SolverBody]) {
        for row in &mut self.rows {
            let angular = |index: u32, bodies: &[SolverBody]| {
                if index == 0 {
                    Vector3::zeros()
                } else {
                    bodies[index as usize].angular_velocity()
                }
            };
            let relative = angular(row.body_b, bodies) - angular(row.body_a, bodies);
            let batch = &batches[row.batch as usize];
            let lane = row.lane as usize;
            let normal: f32 = batch.normal_impulse.iter().map(|w| w.as_array()[lane]).sum();
            let bound = row.bound_per_normal * normal.max(0.0);
            let old = row.impulse;
            let mut new = old - row.mass * relative;
            let norm_sq = new.norm_squared();
            // Written so that NaN leaves the impulse clamped to zero.
            if !(norm_sq <= bound * bound) {
                new = if norm_sq > 0.0 && norm_sq.is_finite() {
                    new * (bound / norm_sq.sqrt())
                } else {
                    Vector3::zeros()
                };
            }
            row.impulse = new;
            apply(row, &(new - old), bodies);
        }
    }
}

/// Applies the angular impulse `p` (to B; its opposite to A).
fn apply(row: &RollingRow, p: &Vector3<f32>, bodies: &mut [SolverBody]) {
    for (index, inv_inertia, sign) in
        [(row.body_a, &row.inv_inertia_a, -1.0f32), (row.body_b, &row.inv_inertia_b, 1.0)]
    {
        if index == 0 {
            continue;
        }
        let body = &mut bodies[index as usize];
        let (v, w) = (body.linear_velocity(), body.angular_velocity());
        body.set_velocities(&v, &(w + inv_inertia * p * sign));
    }
}
