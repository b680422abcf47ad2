//! Unit tests of the probe's geometry, against oracles that share no code
//! with the recording: the plain queries (`collide::contact`, the 2D
//! `try_penetration2`/`try_closest_points2`) for the recorded steps, and the
//! query's own answer for which side of the Minkowski mesh the origin is.

use collide::Contact;
use collide::dim2::{Proximity2, try_closest_points2, try_penetration2};
use collide::nalgebra::{
    Isometry2, Isometry3, Point2, Point3, Translation3, UnitQuaternion, Vector2, Vector3,
};

use super::*;
use crate::rng::Lcg;

/// Random pairs per kind pair.
const PAIRS: usize = 40;
/// Agreement of the rebuilt and the plain answer, metres: the closed forms
/// and GJK on the cores agree to f32 rounding on metre-sized shapes (1e-6);
/// 1e-4 m is the accuracy the probe promises (and the resolve test's bound).
const DISTANCE_TOL: f32 = 1e-4;
/// Normals are compared only when the pair is at least this far from
/// touching (metres), where a 1e-4 m error could not turn them.
const NORMAL_MIN_GAP: f32 = 1e-3;
/// Agreement of normals, as |n1 − n2|.
const NORMAL_TOL: f32 = 1e-3;

fn rotation(rng: &mut Lcg) -> UnitQuaternion<f32> {
    let axis = Vector3::new(rng.range(-1.0, 1.0), rng.range(-1.0, 1.0), rng.range(-1.0, 1.0));
    UnitQuaternion::from_scaled_axis(axis.normalize() * rng.range(0.0, std::f32::consts::PI))
}

fn pose(rng: &mut Lcg, reach: f32) -> Isometry3<f32> {
    let t =
        Vector3::new(rng.range(-reach, reach), rng.range(-reach, reach), rng.range(-reach, reach));
    Isometry3::from_parts(Translation3::from(t), rotation(rng))
}

fn pose2(rng: &mut Lcg, reach: f32) -> Isometry2<f32> {
    Isometry2::new(
        Vector2::new(rng.range(-reach, reach), rng.range(-reach, reach)),
        rng.range(-3.0, 3.0),
    )
}

#[test]
fn recorded_3d_steps_end_in_the_plain_query_answer_on_random_pairs() {
    let mut rng = Lcg(12);
    let (mut penetrating, mut separated, mut with_epa) = (0, 0, 0);
    for ka in ShapeKind::ALL {
        for kb in ShapeKind::ALL {
            let (a, b) = (ka.build(3), kb.build(4));
            for case in 0..PAIRS {
                let (pa, pb) = (pose(&mut rng, 0.3), pose(&mut rng, 1.2));
                let trace = Trace3::run(&a, &pa, &b, &pb).unwrap();
                // The oracle: the plain query, run again on its own.
                let plain = collide::try_contact(&a, &pa, &b, &pb).unwrap();
                let (plain_signed, plain_normal) = match plain {
                    Contact::Separated { distance, normal, .. } => (distance, normal),
                    Contact::Penetrating(p) => (-p.depth, p.normal),
                };
                let steps = trace
                    .answer_from_steps()
                    .unwrap_or_else(|| panic!("{ka}/{kb} case {case}: no recorded step"));
                let what = format!("{ka}/{kb} case {case}: plain {plain:?}, steps {steps:?}");
                assert!((steps.signed_distance - plain_signed).abs() <= DISTANCE_TOL, "{what}");
                if plain_signed.abs() > NORMAL_MIN_GAP {
                    let n = steps.normal.unwrap_or_else(|| panic!("no normal: {what}"));
                    assert!(
                        (n.into_inner() - plain_normal.into_inner()).norm() <= NORMAL_TOL,
                        "{what}"
                    );
                }
                if plain_signed < 0.0 {
                    penetrating += 1;
                } else {
                    separated += 1;
                }
                with_epa += usize::from(!trace.log.epa.is_empty());
            }
        }
    }
    // The seeded cases cover both outcomes and EPA's steps.
    assert!(
        penetrating > 100 && separated > 100 && with_epa > 100,
        "{penetrating} {separated} {with_epa}"
    );
}

#[test]
fn recorded_2d_steps_end_in_the_plain_query_answer_on_random_pairs() {
    let mut rng = Lcg(21);
    let (mut penetrating, mut separated) = (0, 0);
    for ka in ShapeKind2::ALL {
        for kb in ShapeKind2::ALL {
            let (a, b) = (ka.build(), kb.build());
            for case in 0..PAIRS {
                let (pa, pb) = (pose2(&mut rng, 0.3), pose2(&mut rng, 1.2));
                let trace = Trace2::run(&a, &pa, &b, &pb).unwrap();
                let (plain_signed, plain_normal) = match try_penetration2(&a, &pa, &b, &pb).unwrap()
                {
                    Some(p) => (-p.depth, Some(p.normal)),
                    None => match try_closest_points2(&a, &pa, &b, &pb).unwrap() {
                        Proximity2::Separated { distance, point_a, point_b } => {
                            (distance, collide::nalgebra::Unit::try_new(point_b - point_a, 0.0))
                        }
                        Proximity2::Intersecting => panic!("{ka}/{kb} {case}: queries disagree"),
                    },
                };
                let what = format!("{ka}/{kb} case {case}: plain {plain_signed} {plain_normal:?}");
                let Some(steps) = trace.answer_from_steps() else {
                    // Only a point or segment core difference ends without
                    // a step to read, and none of the probe's pairs has one.
                    panic!("no recorded answer: {what}");
                };
                let what = format!("{what}, steps {steps:?}");
                assert!((steps.signed_distance - plain_signed).abs() <= DISTANCE_TOL, "{what}");
                if plain_signed.abs() > NORMAL_MIN_GAP {
                    let (n, m) = (steps.normal.unwrap(), plain_normal.unwrap());
                    assert!((n.into_inner() - m.into_inner()).norm() <= NORMAL_TOL, "{what}");
                }
                if plain_signed < 0.0 {
                    penetrating += 1;
                } else {
                    separated += 1;
                }
            }
        }
    }
    assert!(penetrating > 50 && separated > 50, "{penetrating} {separated}");
}

/// Whether `p` lies inside the closed triangle mesh (within `slack`).
fn mesh_contains(mesh: &HullMesh, p: &Point3<f32>, slack: f32) -> bool {
    mesh.triangles.iter().all(|&[i, j, k]| {
        let [a, b, c] = [i, j, k].map(|i| mesh.positions[i as usize]);
        let n = (b - a).cross(&(c - a)).normalize();
        n.dot(&(p - a)) <= slack
    })
}

/// The origin lies in the Minkowski mesh exactly when the shapes
/// intersect: checked against the query for pairs clear of touching (a
/// rounded shape's sampled mesh lies within 1 cm inside it).
#[test]
fn the_origin_is_in_the_minkowski_mesh_iff_the_shapes_intersect() {
    let mut rng = Lcg(5);
    let mut checked = [0, 0];
    for ka in ShapeKind::ALL {
        for kb in ShapeKind::ALL {
            let (a, b) = (ka.build(7), kb.build(8));
            for _ in 0..12 {
                let (pa, pb) = (pose(&mut rng, 0.3), pose(&mut rng, 1.2));
                let plain = collide::try_contact(&a, &pa, &b, &pb).unwrap();
                let signed = match plain {
                    Contact::Separated { distance, .. } => distance,
                    Contact::Penetrating(p) => -p.depth,
                };
                if signed.abs() < 0.02 {
                    continue;
                }
                let mesh = difference_mesh(&a, &b, &pa.inv_mul(&pb), false).unwrap();
                let inside = mesh_contains(&mesh, &Point3::origin(), 0.0);
                assert_eq!(inside, signed < 0.0, "{ka}/{kb}: {plain:?}");
                checked[usize::from(inside)] += 1;
            }
        }
    }
    assert!(checked[0] > 50 && checked[1] > 50, "{checked:?}");
}

#[test]
fn the_origin_is_in_the_2d_minkowski_polygon_iff_the_shapes_intersect() {
    let mut rng = Lcg(9);
    let mut checked = [0, 0];
    for ka in ShapeKind2::ALL {
        for kb in ShapeKind2::ALL {
            let (a, b) = (ka.build(), kb.build());
            for _ in 0..30 {
                let (pa, pb) = (pose2(&mut rng, 0.3), pose2(&mut rng, 1.2));
                let signed = match try_penetration2(&a, &pa, &b, &pb).unwrap() {
                    Some(p) => -p.depth,
                    None => match try_closest_points2(&a, &pa, &b, &pb).unwrap() {
                        Proximity2::Separated { distance, .. } => distance,
                        Proximity2::Intersecting => unreachable!("the queries disagree"),
                    },
                };
                if signed.abs() < 0.02 {
                    continue;
                }
                let polygon = difference_polygon2(&a, &b, &pa.inv_mul(&pb));
                let inside = (0..polygon.len()).all(|i| {
                    let (p, q) = (polygon[i], polygon[(i + 1) % polygon.len()]);
                    (q - p).perp(&(Point2::origin() - p)) >= 0.0
                });
                assert_eq!(inside, signed < 0.0, "{ka}/{kb}: {signed}");
                checked[usize::from(inside)] += 1;
            }
        }
    }
    assert!(checked[0] > 30 && checked[1] > 30, "{checked:?}");
}

#[test]
fn stepping_walks_gjk_then_epa_and_clamps_at_both_ends() {
    let mut probe = Probe::default();
    assert!(probe.intersecting(), "the starting pose overlaps");
    let trace = probe.trace3().unwrap();
    let (gjk, epa) = (trace.log.gjk.len(), trace.log.epa.len());
    assert!(gjk > 0 && epa > 0);
    probe.apply(ProbeAction::NextStep);
    assert_eq!(probe.step, Some(0));
    for _ in 0..gjk {
        probe.apply(ProbeAction::NextStep);
    }
    assert_eq!(probe.trace3().unwrap().step(probe.step.unwrap()), Some(TraceStep::Epa(0)));
    for _ in 0..1000 {
        probe.apply(ProbeAction::NextStep);
    }
    assert_eq!(probe.step, Some(gjk + epa - 1));
    probe.apply(ProbeAction::FinalState);
    probe.apply(ProbeAction::PreviousStep);
    assert_eq!(probe.step, Some(gjk + epa - 1));
    probe.apply(ProbeAction::FinalState);
    assert_eq!(probe.step, None);
}

/// Resolve pushes B out by the penetration vector until the pair just
/// touches, in 3D and in 2D, for every pair of shapes.
#[test]
fn resolve_leaves_every_pair_just_touching() {
    for ka in ShapeKind::ALL {
        for kb in ShapeKind::ALL {
            let mut probe = Probe::new(Dim::Three, [ka, kb]);
            // Deep in: B's centre 0.35 m from A's.
            let offset = probe.pose_a.translation.vector + Vector3::new(0.3, 0.15, 0.1)
                - probe.pose_b.translation.vector;
            probe.apply(ProbeAction::Move(offset));
            assert!(probe.signed_distance().unwrap() < -0.1, "{ka}/{kb} not deep");
            probe.apply(ProbeAction::ToggleResolve);
            for _ in 0..5 {
                probe.tick();
            }
            let d = probe.signed_distance().unwrap();
            assert!(d.abs() <= DISTANCE_TOL, "{ka}/{kb}: {d}");
        }
    }
    for ka in ShapeKind2::ALL {
        for kb in ShapeKind2::ALL {
            let mut probe = Probe::new(Dim::Two, [ShapeKind::Sphere; 2]);
            probe.set_kinds2([ka, kb]);
            let offset = probe.pose_a2.translation.vector + Vector2::new(0.3, 0.15)
                - probe.pose_b2.translation.vector;
            probe.apply(ProbeAction::Move(Vector3::new(offset.x, offset.y, 0.0)));
            assert!(probe.signed_distance().unwrap() < -0.1, "{ka}/{kb} not deep");
            probe.apply(ProbeAction::ToggleResolve);
            for _ in 0..5 {
                probe.tick();
            }
            let d = probe.signed_distance().unwrap();
            assert!(d.abs() <= DISTANCE_TOL, "{ka}/{kb}: {d}");
        }
    }
}

#[test]
fn support_calls_are_counted_and_zero_for_closed_forms() {
    let mut probe = Probe::new(Dim::Three, [ShapeKind::Sphere, ShapeKind::Sphere]);
    let t = probe.trace3().unwrap();
    assert!(t.closed_form && t.support_calls == 0);
    // The recorded run still ran GJK on the point cores.
    assert!(!t.log.gjk.is_empty());
    probe.apply(ProbeAction::ShapeB(ShapeKind::Cuboid));
    probe.apply(ProbeAction::ShapeA(ShapeKind::Cloud));
    let t = probe.trace3().unwrap();
    // GJK and EPA each call both supports once per iteration, and EPA's
    // growth of GJK's simplex may add a few.
    let iterations = t.gjk.iterations + t.epa.map_or(0, |e| e.iterations);
    assert!(
        !t.closed_form && t.support_calls >= 2 * iterations,
        "{} {iterations}",
        t.support_calls
    );
}
