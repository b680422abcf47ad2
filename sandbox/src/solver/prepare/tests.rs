//! Tests of constraint preparation: each lane's effective masses against
//! explicitly built Jacobian rows, lanes independent of each other, and the
//! passes compiled per point count bit-identical to the all-point passes.

use collide::nalgebra::{Matrix3, SMatrix, SVector, UnitQuaternion};

use super::*;
use crate::collision::manifold::ContactPoint;
use crate::solver::contact_solver::Softness;
use crate::solver::load_stiffening::LoadStiffening;
use crate::solver::solver_body::BodyWindow;

/// Relative tolerance of the effective-mass entries against the oracle:
/// both sides round f32 products of O(1) lever arms and inertias, so a
/// few hundred ulps (about 1e-5) apart; 1e-4 of the largest entry of K
/// leaves room for that and still catches a wrong term or sign.
const RELATIVE_TOLERANCE: f32 = 1.0e-4;

/// A Jacobian row over the 12 velocities `(v_A, ω_A, v_B, ω_B)`.
type Row = SVector<f32, 12>;

fn row(lin_a: Vector3<f32>, ang_a: Vector3<f32>, lin_b: Vector3<f32>, ang_b: Vector3<f32>) -> Row {
    let mut r = Row::zeros();
    r.fixed_rows_mut::<3>(0).copy_from(&lin_a);
    r.fixed_rows_mut::<3>(3).copy_from(&ang_a);
    r.fixed_rows_mut::<3>(6).copy_from(&lin_b);
    r.fixed_rows_mut::<3>(9).copy_from(&ang_b);
    r
}

/// Seeded uniform numbers in `[lo, hi)`.
struct Rng(u32);

impl Rng {
    fn uniform(&mut self, lo: f32, hi: f32) -> f32 {
        self.0 = self.0.wrapping_mul(1664525).wrapping_add(1013904223);
        lo + (hi - lo) * ((self.0 >> 8) as f32 / (1u32 << 24) as f32)
    }

    fn vector(&mut self, scale: f32) -> Vector3<f32> {
        Vector3::new(
            self.uniform(-scale, scale),
            self.uniform(-scale, scale),
            self.uniform(-scale, scale),
        )
    }
}

/// A random dynamic body: mass and a rotated diagonal inertia (SPD).
fn random_mass(rng: &mut Rng) -> SolverMass {
    let rotation = UnitQuaternion::from_scaled_axis(rng.vector(3.0));
    let diagonal =
        Vector3::new(rng.uniform(0.2, 3.0), rng.uniform(0.2, 3.0), rng.uniform(0.2, 3.0));
    let r = rotation.to_rotation_matrix();
    SolverMass {
        inv_mass: rng.uniform(0.1, 2.0),
        inv_inertia: r.matrix() * Matrix3::from_diagonal(&diagonal) * r.matrix().transpose(),
    }
}

/// The static body (solver index 0) and `count` random dynamic ones,
/// moving, spinning and already displaced and turned by up to `scales`
/// (`[speed, spin, shift, turn]`, per component): their masses and bodies.
fn random_bodies(
    rng: &mut Rng,
    count: usize,
    scales: [f32; 4],
) -> (Vec<SolverMass>, Vec<SolverBody>) {
    let [speed, spin, shift, turn] = scales;
    let mut masses = vec![SolverMass::STATIC];
    masses.extend((0..count).map(|_| random_mass(rng)));
    let mut bodies = vec![SolverBody::STATIC];
    bodies.extend((0..count).map(|_| {
        let mut body = SolverBody::new(&rng.vector(speed), &rng.vector(spin));
        body.set_deltas(&rng.vector(shift), &rng.vector(turn));
        body
    }));
    (masses, bodies)
}

fn random_manifold(rng: &mut Rng, count: usize) -> Manifold {
    let mut m = Manifold { normal: rng.vector(1.0).normalize(), ..Manifold::default() };
    for i in 0..count {
        let mut p =
            ContactPoint::new(Point3::from(rng.vector(1.0)), rng.uniform(-0.01, 0.01), i as u32);
        p.normal_impulse = rng.uniform(0.0, 2.0);
        m.points.push(p);
    }
    m.friction_impulse = rng.vector(0.5);
    m.twist_impulse = rng.uniform(-0.1, 0.1);
    m
}

fn params() -> SolverParams {
    SolverParams {
        dynamic_softness: Softness::new(30.0, 10.0, 1.0 / 240.0),
        static_softness: Softness::new(60.0, 10.0, 1.0 / 240.0),
        load_stiffening: LoadStiffening {
            zeta: 10.0,
            h: 1.0 / 240.0,
            omega_sq_per_load: 0.0,
            max_omega: 0.0,
            block_max_omega: 0.0,
        },
        max_push_out: 3.0,
        restitution_threshold: 1.0,
        inv_h: 240.0,
        sweep_tolerance: 0.012,
        tilt_bias_rate: 0.0,
        prefetch: false,
    }
}

fn lane(w: &W, l: usize) -> f32 {
    w.as_array()[l]
}

fn close(got: f32, want: f32, scale: f32) -> bool {
    (got - want).abs() <= RELATIVE_TOLERANCE * scale
}

/// Every lane's masses and couplings match `K = J M⁻¹ Jᵀ` built from
/// explicit Jacobian rows (normal rows at the points, tangent rows and
/// the twist row at the points' centre), for batches of one to four
/// manifolds of one to four points; unused points and lanes are zero.
#[test]
fn lanes_match_explicit_effective_mass() {
    let mut rng = Rng(7);
    for trial in 0..200 {
        let lanes = 1 + trial % LANES;
        let bodies = vec![SolverBody::STATIC; 1 + 2 * LANES];
        let mut masses = vec![SolverMass::STATIC];
        masses.extend((0..2 * LANES).map(|_| random_mass(&mut rng)));
        let manifolds: Vec<Manifold> =
            (0..lanes).map(|l| random_manifold(&mut rng, 1 + (trial / LANES + l) % 4)).collect();
        let inputs: Vec<ContactInput<'_>> = manifolds
            .iter()
            .enumerate()
            .map(|(l, m)| {
                // Lane 1 of every batch is against the static stand-in.
                let body_a = if l == 1 { 0 } else { 1 + 2 * l as u32 };
                let centers = [rng.vector(1.0), rng.vector(1.0)];
                plain_input(m, [body_a, 2 + 2 * l as u32], centers)
            })
            .collect();
        let mut batch = ConstraintBatch::default();
        prepare(&inputs, &bodies, &masses, &params(), 0, &mut batch);
        for (l, input) in inputs.iter().enumerate() {
            let (ma, mb) = (&masses[input.body_a as usize], &masses[input.body_b as usize]);
            let inv_m = inverse_mass_matrix(ma, mb);
            let k = |p: &Row, q: &Row| (p.transpose() * inv_m * q)[0];
            let m = input.manifold;
            let (normal_rows, tangent_rows, twist_row) = explicit_rows(input, &batch, l);
            let scale =
                normal_rows.iter().map(|r| k(r, r)).fold(k(&twist_row, &twist_row), f32::max);
            for (i, ri) in normal_rows.iter().enumerate() {
                let kii = k(ri, ri);
                let mass = lane(&batch.normal_mass[i], l);
                assert!(close(mass * kii, 1.0, 1.0), "trial {trial} lane {l} point {i}");
                // The angular Jacobians: A's stored, B's from the shift.
                let (rn_a, rn_b) = (batch.rn_a[i].get(l), batch.rn_b(i).get(l));
                let row_a: Vector3<f32> = -ri.fixed_rows::<3>(3);
                let row_b: Vector3<f32> = ri.fixed_rows::<3>(9).into();
                let lever = row_a.amax().max(row_b.amax()).max(1.0);
                assert!(
                    (rn_a - row_a).amax() <= RELATIVE_TOLERANCE * lever,
                    "trial {trial} r_A × n"
                );
                assert!(
                    (rn_b - row_b).amax() <= RELATIVE_TOLERANCE * lever,
                    "trial {trial} r_B × n"
                );
                assert!(close(lane(&batch.twist_coupling[i], l), k(&twist_row, ri), scale));
                for j in 0..i {
                    let got = lane(&batch.coupling[pair_index(j, i)], l);
                    assert!(close(got, k(ri, &normal_rows[j]), scale), "trial {trial} K_{i}{j}");
                }
                for kk in 0..2 {
                    let got = lane(&batch.tangent_coupling[kk][i], l);
                    assert!(
                        close(got, k(&tangent_rows[kk], ri), scale),
                        "trial {trial} tangent {kk}"
                    );
                }
                assert_eq!(lane(&batch.normal_impulse[i], l), m.points[i].normal_impulse);
            }
            for i in m.points.len()..MAX_MANIFOLD_POINTS {
                assert_eq!(lane(&batch.normal_mass[i], l), 0.0);
                assert_eq!(lane(&batch.normal_impulse[i], l), 0.0);
                assert_eq!(batch.rn_a[i].get(l), Vector3::zeros());
            }
            // The 2×2 tangent block times its stored inverse is the identity.
            let ktt = |a: usize, b: usize| k(&tangent_rows[a], &tangent_rows[b]);
            let inv = [0, 1, 2].map(|e| lane(&batch.tangent_mass[e], l));
            let product = [
                ktt(0, 0) * inv[0] + ktt(0, 1) * inv[1],
                ktt(0, 0) * inv[1] + ktt(0, 1) * inv[2],
                ktt(1, 1) * inv[2] + ktt(0, 1) * inv[1],
            ];
            assert!(close(product[0], 1.0, 1.0) && close(product[1], 0.0, 1.0));
            assert!(close(product[2], 1.0, 1.0), "trial {trial} lane {l}: {product:?}");
            for kk in 0..2 {
                let got = lane(&batch.twist_tangent_coupling[kk], l);
                assert!(close(got, k(&tangent_rows[kk], &twist_row), scale));
            }
            let twist_mass = lane(&batch.twist_mass, l);
            assert!(close(twist_mass * k(&twist_row, &twist_row), 1.0, 1.0));
        }
        for l in lanes..LANES {
            assert_eq!((batch.body_a[l], batch.body_b[l]), (0, 0));
            for i in 0..MAX_MANIFOLD_POINTS {
                assert_eq!(lane(&batch.normal_mass[i], l), 0.0);
            }
            assert_eq!(lane(&batch.twist_mass, l), 0.0);
            assert_eq!(lane(&batch.tangent_mass[0], l), 0.0);
        }
    }
}

/// Lane `l`'s Jacobian rows, built from its input alone (the tangents
/// excepted, which are the batch's, checked orthonormal here): the normal
/// rows at the points, the two tangent rows and the twist row at the
/// points' centre.
fn explicit_rows(
    input: &ContactInput<'_>,
    batch: &ConstraintBatch,
    l: usize,
) -> (Vec<Row>, [Row; 2], Row) {
    let m = input.manifold;
    let n = m.normal;
    let normal_rows: Vec<Row> = m
        .points
        .iter()
        .map(|p| {
            let (ra, rb) = (p.point - input.center_a, p.point - input.center_b);
            row(-n, -ra.cross(&n), n, rb.cross(&n))
        })
        .collect();
    let centre =
        m.points.iter().map(|p| p.point.coords).sum::<Vector3<f32>>() / m.points.len() as f32;
    // Friction acts at each body's own surface point below the centre,
    // half the mean separation from the midpoint.
    let half_gap = 0.5 * m.points.iter().map(|p| p.separation).sum::<f32>() / m.points.len() as f32;
    let (ca, cb) = (
        centre - n * half_gap - input.center_a.coords,
        centre + n * half_gap - input.center_b.coords,
    );
    let axes = batch.friction_axes();
    let t = [0, 1].map(|k| axes.tangents[k].get(l));
    for k in 0..2 {
        assert!((t[k].norm() - 1.0).abs() < 1e-5 && t[k].dot(&n).abs() < 1e-5);
    }
    assert!(t[0].dot(&t[1]).abs() < 1e-5);
    let tangent_rows = t.map(|t| row(-t, -ca.cross(&t), t, cb.cross(&t)));
    let twist_row = row(Vector3::zeros(), -n, Vector3::zeros(), n);
    (normal_rows, tangent_rows, twist_row)
}

/// The block-diagonal inverse mass matrix of two bodies, over the 12
/// velocities `(v_A, ω_A, v_B, ω_B)`.
fn inverse_mass_matrix(ma: &SolverMass, mb: &SolverMass) -> SMatrix<f32, 12, 12> {
    let mut inv_m = SMatrix::<f32, 12, 12>::zeros();
    inv_m.fixed_view_mut::<3, 3>(0, 0).copy_from(&(Matrix3::identity() * ma.inv_mass));
    inv_m.fixed_view_mut::<3, 3>(3, 3).copy_from(&ma.inv_inertia);
    inv_m.fixed_view_mut::<3, 3>(6, 6).copy_from(&(Matrix3::identity() * mb.inv_mass));
    inv_m.fixed_view_mut::<3, 3>(9, 9).copy_from(&mb.inv_inertia);
    inv_m
}

/// The warm start changes each lane's bodies by `M⁻¹ Jᵀ λ`, with `J` the
/// explicit rows and `λ` the lane's stored impulses (normal at every
/// point, both tangents, twist): the batch's inverse inertias, lever arms
/// and signs against an oracle, lanes against the static stand-in
/// included (which must stay at rest).
#[test]
fn warm_start_moves_bodies_by_explicit_impulses() {
    use crate::solver::simd_batch;
    let mut rng = Rng(47);
    for trial in 0..50 {
        let mut masses = vec![SolverMass::STATIC];
        masses.extend((0..2 * LANES).map(|_| random_mass(&mut rng)));
        let mut bodies = vec![SolverBody::STATIC];
        bodies.extend((0..2 * LANES).map(|_| SolverBody::new(&rng.vector(1.0), &rng.vector(1.0))));
        let manifolds: Vec<Manifold> =
            (0..LANES).map(|l| random_manifold(&mut rng, 1 + (trial + l) % 4)).collect();
        let inputs: Vec<ContactInput<'_>> = (0..LANES)
            .map(|l| {
                // Lane 1 is against the static stand-in.
                let body_a = if l == 1 { 0 } else { 1 + 2 * l as u32 };
                let centers = [rng.vector(1.0), rng.vector(1.0)];
                plain_input(&manifolds[l], [body_a, 2 + 2 * l as u32], centers)
            })
            .collect();
        let mut batch = ConstraintBatch::default();
        prepare(&inputs, &bodies, &masses, &params(), 0, &mut batch);
        let mut after = bodies.clone();
        simd_batch::warm_start(
            std::slice::from_ref(&batch),
            BodyWindow::whole(&mut after),
            &params(),
        );
        assert_eq!(after[0], SolverBody::STATIC, "trial {trial}: the stand-in moved");
        for (l, input) in inputs.iter().enumerate() {
            let (ia, ib) = (input.body_a as usize, input.body_b as usize);
            let inv_m = inverse_mass_matrix(&masses[ia], &masses[ib]);
            let (normal_rows, tangent_rows, twist_row) = explicit_rows(input, &batch, l);
            let mut impulse = twist_row * lane(&batch.twist_impulse, l);
            for (i, r) in normal_rows.iter().enumerate() {
                impulse += r * lane(&batch.normal_impulse[i], l);
            }
            for k in 0..2 {
                impulse += tangent_rows[k] * lane(&batch.tangent_impulse[k], l);
            }
            let want = inv_m * impulse;
            let got = |i: usize, sign: f32| {
                let (b0, b1) = (&bodies[i], &after[i]);
                let dv = b1.linear_velocity() - b0.linear_velocity();
                let dw = b1.angular_velocity() - b0.angular_velocity();
                (dv * sign, dw * sign)
            };
            let scale = want.amax().max(1.0);
            let check = |what: &str, got: Vector3<f32>, want: Vector3<f32>| {
                assert!(
                    (got - want).amax() <= RELATIVE_TOLERANCE * scale,
                    "trial {trial} lane {l} {what}: {got:?} against {want:?}"
                );
            };
            if ia != 0 {
                let (dv, dw) = got(ia, 1.0);
                check("v_A", dv, want.fixed_rows::<3>(0).into());
                check("ω_A", dw, want.fixed_rows::<3>(3).into());
            }
            let (dv, dw) = got(ib, 1.0);
            check("v_B", dv, want.fixed_rows::<3>(6).into());
            check("ω_B", dw, want.fixed_rows::<3>(9).into());
        }
    }
}

/// A manifold's lane holds the same bits whichever lane it is in and
/// whatever its neighbours are: the lanes never mix.
#[test]
fn lanes_are_independent() {
    let mut rng = Rng(11);
    let bodies = vec![SolverBody::STATIC; 9];
    let mut masses = vec![SolverMass::STATIC];
    masses.extend((0..8).map(|_| random_mass(&mut rng)));
    let manifolds: Vec<Manifold> = (0..4).map(|l| random_manifold(&mut rng, 1 + l)).collect();
    fn input(m: &Manifold, a: u32) -> ContactInput<'_> {
        ContactInput {
            manifold: m,
            body_a: a,
            body_b: a + 1,
            center_a: Point3::new(0.1, 0.2, 0.3),
            center_b: Point3::new(-0.3, 0.1, 0.0),
            friction: 0.4,
            restitution: 0.0,
            anchor_gap: Vector3::new(0.001, 0.0, -0.002),
            in_chain: false,
            block_solved: false,
        }
    }
    let forward: Vec<_> = (0..4).map(|l| input(&manifolds[l], 1 + 2 * l as u32)).collect();
    let reverse: Vec<_> = (0..4).rev().map(|l| input(&manifolds[l], 1 + 2 * l as u32)).collect();
    let (mut a, mut b, mut alone) =
        (ConstraintBatch::default(), ConstraintBatch::default(), ConstraintBatch::default());
    prepare(&forward, &bodies, &masses, &params(), 0, &mut a);
    prepare(&reverse, &bodies, &masses, &params(), 0, &mut b);
    prepare(&forward[2..3], &bodies, &masses, &params(), 0, &mut alone);
    let bits = |batch: &ConstraintBatch, l: usize| {
        let mut v: Vec<u32> = Vec::new();
        for i in 0..MAX_MANIFOLD_POINTS {
            for w in [&batch.rn_a[i], &batch.rn_b(i)] {
                v.extend([w.x, w.y, w.z].map(|x| lane(&x, l).to_bits()));
            }
            v.push(lane(&batch.normal_mass[i], l).to_bits());
            v.push(lane(&batch.lever_arm[i], l).to_bits());
            v.push(lane(&batch.tangent_coupling[1][i], l).to_bits());
        }
        v.extend(batch.coupling.iter().map(|w| lane(w, l).to_bits()));
        v.extend(batch.tangent_mass.iter().map(|w| lane(w, l).to_bits()));
        v.extend(
            [
                batch.center_a.x,
                batch.friction_axes().rt_b[1].z,
                batch.inv_inertia_b.yz,
                batch.tangent_impulse[0],
            ]
            .map(|w| lane(&w, l).to_bits()),
        );
        v
    };
    for l in 0..4 {
        assert_eq!(bits(&a, l), bits(&b, 3 - l), "lane {l}");
    }
    assert_eq!(bits(&a, 2), bits(&alone, 0));
}

/// The passes compiled for a batch's largest point count give the same
/// bits as the passes over all four points (forced by a point count of
/// zero): the points every lane lacks are exact zeros, so skipping them
/// changes nothing. Batches of every largest count, over substeps of warm
/// start, push and relax, with bodies shared across batches; and the
/// same again with prefetching on.
#[test]
fn passes_per_point_count_match_the_all_point_passes() {
    use crate::solver::simd_batch;
    let mut rng = Rng(23);
    for largest in 1..=MAX_MANIFOLD_POINTS {
        let (masses, bodies) = random_bodies(&mut rng, 8, [1.0, 1.0, 0.01, 0.01]);
        // Two batches of four manifolds, (0,1) (2,3) (4,5) (6,7) then
        // (1,2) (3,4) (5,6) (7,8), body 0 static: counts 1..=largest,
        // one lane of each at `largest`.
        let manifolds: Vec<Manifold> = (0..8)
            .map(|k| random_manifold(&mut rng, if k % 4 == 0 { largest } else { 1 + k % largest }))
            .collect();
        let input = |k: usize| ContactInput {
            manifold: &manifolds[k],
            body_a: 2 * (k as u32 % 4) + k as u32 / 4,
            body_b: 2 * (k as u32 % 4) + k as u32 / 4 + 1,
            center_a: Point3::from(rng_free_vector(k, 0.3)),
            center_b: Point3::from(rng_free_vector(k + 8, 0.3)),
            friction: 0.5,
            restitution: 0.0,
            anchor_gap: rng_free_vector(k + 16, 0.002),
            in_chain: false,
            block_solved: false,
        };
        let inputs: Vec<ContactInput<'_>> = (0..8).map(input).collect();
        let mut batches = vec![ConstraintBatch::default(), ConstraintBatch::default()];
        for (batch, lanes) in batches.iter_mut().zip(inputs.chunks(LANES)) {
            prepare(lanes, &bodies, &masses, &params(), 0, batch);
            assert_eq!(batch.point_count as usize, largest);
        }
        let mut all_points = batches.clone();
        for batch in &mut all_points {
            batch.point_count = 0;
        }
        let run = |batches: &mut Vec<ConstraintBatch>, prefetch: bool| {
            let mut bodies = bodies.clone();
            let params = SolverParams { prefetch, ..params() };
            for _ in 0..3 {
                simd_batch::warm_start(batches, BodyWindow::whole(&mut bodies), &params);
                for _ in 0..2 {
                    simd_batch::push(batches, BodyWindow::whole(&mut bodies), &params);
                }
                for _ in 0..2 {
                    simd_batch::relax(batches, BodyWindow::whole(&mut bodies), &params);
                }
            }
            let bits = |v: &Vector3<f32>| v.map(f32::to_bits);
            let body_bits: Vec<_> = bodies
                .iter()
                .flat_map(|b| [bits(&b.linear_velocity()), bits(&b.angular_velocity())])
                .collect();
            let impulse_bits: Vec<u32> = batches
                .iter()
                .flat_map(|c| {
                    c.normal_impulse.iter().chain(&c.tangent_impulse).chain([&c.twist_impulse])
                })
                .flat_map(|w| w.to_array().map(f32::to_bits))
                .collect();
            (body_bits, impulse_bits)
        };
        let mut prefetched = batches.clone();
        let expected = run(&mut batches, false);
        assert_eq!(expected, run(&mut all_points, false), "largest count {largest}");
        // Prefetching is a hint: the same bits with it.
        assert_eq!(expected, run(&mut prefetched, true), "largest count {largest}, prefetched");
    }
}

/// A contact between `bodies` (solver indices) with their centres of mass
/// at `centers`: friction 0.5, no restitution, no anchor, in no chain.
fn plain_input(
    manifold: &Manifold,
    bodies: [u32; 2],
    centers: [Vector3<f32>; 2],
) -> ContactInput<'_> {
    ContactInput {
        manifold,
        body_a: bodies[0],
        body_b: bodies[1],
        center_a: Point3::from(centers[0]),
        center_b: Point3::from(centers[1]),
        friction: 0.5,
        restitution: 0.0,
        anchor_gap: Vector3::zeros(),
        in_chain: false,
        block_solved: false,
    }
}

/// A fixed pseudo-random vector of size `scale` for index `k` (no state).
fn rng_free_vector(k: usize, scale: f32) -> Vector3<f32> {
    let mut rng = Rng(1000 + k as u32);
    rng.vector(scale)
}

/// The warm start skips a batch only when no lane holds an impulse: a
/// batch with every impulse zero leaves the bodies' bits as they were, and
/// one nonzero impulse anywhere (a normal at any point, either tangent, the
/// twist, in any lane) moves them.
#[test]
fn warm_start_skips_only_batches_without_impulses() {
    use crate::solver::simd_batch;
    let mut rng = Rng(31);
    let mut masses = vec![SolverMass::STATIC];
    masses.extend((0..8).map(|_| random_mass(&mut rng)));
    let mut bodies = vec![SolverBody::STATIC];
    bodies.extend((0..8).map(|_| SolverBody::new(&rng.vector(1.0), &rng.vector(1.0))));
    let manifolds: Vec<Manifold> =
        (0..LANES).map(|_| random_manifold(&mut rng, MAX_MANIFOLD_POINTS)).collect();
    let inputs: Vec<ContactInput<'_>> = (0..LANES)
        .map(|k| {
            let bodies = [2 * k as u32 + 1, 2 * k as u32 + 2];
            plain_input(
                &manifolds[k],
                bodies,
                [rng_free_vector(k, 0.3), rng_free_vector(k + 8, 0.3)],
            )
        })
        .collect();
    let mut unloaded = ConstraintBatch::default();
    prepare(&inputs, &bodies, &masses, &params(), 0, &mut unloaded);
    unloaded.normal_impulse = [W::ZERO; MAX_MANIFOLD_POINTS];
    unloaded.tangent_impulse = [W::ZERO; 2];
    unloaded.twist_impulse = W::ZERO;
    let bits = |bodies: &[SolverBody]| -> Vec<[u32; 3]> {
        bodies
            .iter()
            .flat_map(|b| [b.linear_velocity(), b.angular_velocity()])
            .map(|v| [v.x, v.y, v.z].map(f32::to_bits))
            .collect()
    };
    let after = |batch: &ConstraintBatch| {
        let mut bodies = bodies.clone();
        let window = BodyWindow::whole(&mut bodies);
        simd_batch::warm_start(std::slice::from_ref(batch), window, &params());
        bits(&bodies)
    };
    assert_eq!(after(&unloaded), bits(&bodies), "no impulse: bodies untouched");
    let one_lane = |lane: usize, set: &dyn Fn(&mut ConstraintBatch, W)| {
        let mut batch = unloaded.clone();
        let mut value = [0.0; LANES];
        value[lane] = 0.25;
        set(&mut batch, W::from(value));
        batch
    };
    let mut loaded: Vec<(String, ConstraintBatch)> = Vec::new();
    for lane in 0..LANES {
        for point in 0..MAX_MANIFOLD_POINTS {
            let batch = one_lane(lane, &|c, w| c.normal_impulse[point] = w);
            loaded.push((format!("lane {lane} normal {point}"), batch));
        }
        for k in 0..2 {
            let batch = one_lane(lane, &|c, w| c.tangent_impulse[k] = w);
            loaded.push((format!("lane {lane} tangent {k}"), batch));
        }
        loaded.push((format!("lane {lane} twist"), one_lane(lane, &|c, w| c.twist_impulse = w)));
    }
    for (what, batch) in &loaded {
        assert_ne!(after(batch), bits(&bodies), "{what}: the impulse was not applied");
    }
}

/// The scalar current separation the direct chain solve reads has the
/// bits of the SIMD passes' (both are computed from the bodies' pose
/// changes, none is stored), in every lane and point.
#[test]
fn scalar_and_simd_current_separations_agree() {
    let mut rng = Rng(53);
    let mut masses = vec![SolverMass::STATIC];
    masses.extend((0..2 * LANES).map(|_| random_mass(&mut rng)));
    let mut bodies = vec![SolverBody::STATIC];
    bodies.extend((0..2 * LANES).map(|_| {
        let mut b = SolverBody::new(&rng.vector(1.0), &rng.vector(1.0));
        b.set_deltas(&rng.vector(0.1), &rng.vector(0.1));
        b
    }));
    let manifolds: Vec<Manifold> = (0..LANES).map(|l| random_manifold(&mut rng, 1 + l)).collect();
    let inputs: Vec<ContactInput<'_>> = (0..LANES)
        .map(|l| {
            let centers = [rng.vector(1.0), rng.vector(1.0)];
            plain_input(&manifolds[l], [1 + 2 * l as u32, 2 + 2 * l as u32], centers)
        })
        .collect();
    let mut batch = ConstraintBatch::default();
    prepare(&inputs, &bodies, &masses, &params(), 0, &mut batch);
    let mut window_bodies = bodies.clone();
    let window = BodyWindow::whole(&mut window_bodies);
    let (ba, bb) = batch.gather_pair(&window);
    let simd = batch.current_separations::<MAX_MANIFOLD_POINTS>(&ba, &bb);
    let mut moved = 0;
    for (l, input) in inputs.iter().enumerate() {
        let (a, b) = (&bodies[input.body_a as usize], &bodies[input.body_b as usize]);
        for p in 0..input.manifold.points.len() {
            let scalar = batch.current_separation(p, l, a, b);
            assert_eq!(scalar.to_bits(), lane(&simd[p], l).to_bits(), "lane {l} point {p}");
            moved += usize::from(scalar != input.manifold.points[p].separation);
        }
    }
    assert!(moved > 0, "the pose changes must move the separations");
}

/// The passes skip a batch (`ConstraintBatch::is_quiet`) only when running
/// it would change nothing: over 3,000 one-lane batches of speculative
/// manifolds (1 to 4 points, 0.5 to 30 mm apart, no impulse) between
/// bodies moving, spinning and already displaced at random (half of them
/// against the static body), every batch the passes skip leaves the bodies
/// and the impulses bit for bit as they were under a full push and a full
/// relax. The counts keep the check from passing vacuously: many batches
/// are skipped, many take an impulse, and at least a third of those that take
/// none are skipped (the bound is not so loose as to skip nothing).
#[test]
fn skipped_batches_are_those_a_pass_leaves_unchanged() {
    use crate::solver::simd_batch::{pass_unskipped, skips};
    let mut rng = Rng(71);
    let (mut skipped, mut changed, mut unchanged) = (0, 0, 0);
    let trials = 3000;
    for trial in 0..trials {
        let (masses, bodies) = random_bodies(&mut rng, 2, [2.0, 1.0, 0.005, 0.005]);
        let count = 1 + trial % MAX_MANIFOLD_POINTS;
        let mut manifold = random_manifold(&mut rng, count);
        for p in manifold.points.iter_mut() {
            p.separation = rng.uniform(0.0005, 0.03);
            p.normal_impulse = 0.0;
        }
        manifold.friction_impulse = Vector3::zeros();
        manifold.twist_impulse = 0.0;
        let pair = if trial % 2 == 0 { [1, 2] } else { [0, 2] };
        let input = plain_input(&manifold, pair, [rng.vector(0.5), rng.vector(0.5)]);
        let mut batch = ConstraintBatch::default();
        prepare(std::slice::from_ref(&input), &bodies, &masses, &params(), 0, &mut batch);
        let skip = skips(&batch, &BodyWindow::whole(&mut bodies.clone()), &params());
        let bits = |batch: &ConstraintBatch, bodies: &[SolverBody]| {
            let body_bits: Vec<[u32; 6]> = bodies
                .iter()
                .map(|b| {
                    let (v, w) = (b.linear_velocity(), b.angular_velocity());
                    [v.x, v.y, v.z, w.x, w.y, w.z].map(f32::to_bits)
                })
                .collect();
            let impulses: Vec<f32> = batch
                .normal_impulse
                .iter()
                .chain(&batch.tangent_impulse)
                .chain([&batch.twist_impulse])
                .flat_map(|w| w.to_array())
                .collect();
            (body_bits, impulses.iter().all(|&x| x == 0.0))
        };
        let before = bits(&batch, &bodies);
        let mut moved = false;
        for push in [true, false] {
            let (mut c, mut b) = (batch.clone(), bodies.clone());
            pass_unskipped(&mut c, &mut BodyWindow::whole(&mut b), &params(), push);
            moved |= bits(&c, &b) != before;
        }
        if skip {
            assert!(!moved, "trial {trial}: a skipped batch would have changed");
            skipped += 1;
        } else if moved {
            changed += 1;
        } else {
            unchanged += 1;
        }
    }
    assert!(skipped > trials / 5, "{skipped} of {trials} skipped");
    assert!(changed > trials / 10, "{changed} of {trials} took an impulse");
    assert!(2 * skipped > unchanged, "{skipped} skipped, {unchanged} unchanged but not skipped");
}
