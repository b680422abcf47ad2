//! `cargo run -p benches --release --example row_cost -- QUERY PAIR PLACEMENT ENGINE N`:
//! runs one row of the `queries` suite N times over the same seeded inputs,
//! for instruction counts under callgrind (run once with N = 0 to subtract
//! the setup) or a quick wall-clock ratio with `time` (ENGINE `both` times
//! collide and parry3d alternately and prints ns per call for each).
//!
//! QUERY is `intersects`, `closest_points` or `penetration`, with PAIR one
//! of the `queries` or new-shape pairs (e.g. `sphere-cuboid`,
//! `cylinder-cone`) and PLACEMENT `overlapping` or `separated`; or
//! `contact_manifold` (collide's [`contact_manifold`] beside parry3d's
//! `contact_manifold_convex_convex` into an emptied manifold) with PAIR one
//! of the `queries` pairs or `cylinder-cuboid` (a cylinder of the capsule's
//! size, as that row uses); or `cast_ray`, with PAIR a kind of the cast rows
//! (e.g. `sphere`) or `mixed` and PLACEMENT ignored (write `-`); or
//! `shape_cast` with PAIR `mixed`; or `project_point`, with PAIR `cuboid`,
//! `hull32` or `hull1024` and PLACEMENT `inside` or `outside`. ENGINE is
//! `collide`, `parry3d` or `both`. PAIR `mixed` (PLACEMENT ignored) runs
//! the mixed-pair rows of `intersects`, `closest_points` or `penetration`.
//! Each row runs the same inputs, in the same order, as the criterion row
//! of the same name.

use std::hint::black_box;
use std::time::Instant;

use benches::{
    CAPSULE, CAST_SHAPES, NEW_SHAPE_PAIRS, Placement, QUERY_PAIRS, QueryShape, STREAM_LEN,
    cast_rays, mixed_pairs, pose_pairs,
};
use collide::nalgebra::{Isometry3, Point3, Vector3};
use collide::{
    Cylinder, Ray, Shape, Sphere, SupportStrategy, cast_ray, closest_points, contact_manifold,
    intersects, penetration, project_point, shape_cast,
};
use parry3d::math::{Pose, Vector};
use parry3d::query::{ContactManifold, DefaultQueryDispatcher, PersistentQueryDispatcher};
use parry3d::shape::SharedShape;

#[path = "../benches/shared/peer.rs"]
mod peer;
use peer::{parry_pose, parry_shape};

/// collide's shape of `s` at the suites' size, adaptive hull strategy.
fn collide_shape(s: QueryShape) -> Shape {
    benches::collide_shape(s, SupportStrategy::Auto, 1.0)
}

/// Runs `collide` and `parry3d` (each given a count) as ENGINE says:
/// one of them, or both alternately, printing ns per call and the ratio.
fn run(
    label: &str,
    engine: &str,
    n: usize,
    run_collide: &dyn Fn(usize),
    run_parry: &dyn Fn(usize),
) {
    match engine {
        "collide" => run_collide(n),
        "parry3d" => run_parry(n),
        _ => {
            let (mut tc, mut tp) = (f64::MAX, f64::MAX);
            for _ in 0..7 {
                let t = Instant::now();
                run_collide(n);
                tc = tc.min(t.elapsed().as_secs_f64());
                let t = Instant::now();
                run_parry(n);
                tp = tp.min(t.elapsed().as_secs_f64());
            }
            let (c, p) = (tc * 1e9 / n as f64, tp * 1e9 / n as f64);
            println!("{label} collide {c:.1} ns parry3d {p:.1} ns ratio {:.2}", c / p);
        }
    }
}

/// The `cast_ray/{kind}` and `shape_cast/mixed` rows.
fn casts(query: &str, kind: &str, engine: &str, n: usize) {
    let cases = cast_rays();
    let set: Vec<usize> = match CAST_SHAPES.iter().position(|s| s.name() == kind) {
        Some(k) => (0..cases.len()).filter(|&i| cases[i].shape == k).collect(),
        None if kind == "mixed" => (0..cases.len()).collect(),
        None => panic!("kind {kind}"),
    };
    let shapes: Vec<Shape> = CAST_SHAPES.iter().map(|&s| collide_shape(s)).collect();
    let parry_shapes: Vec<SharedShape> = CAST_SHAPES.iter().map(|&s| parry_shape(s, 1.0)).collect();
    let parry_cases: Vec<(Pose, parry3d::query::Ray)> = cases
        .iter()
        .map(|k| {
            let (o, d) = (k.origin, k.dir);
            (
                parry_pose(&k.pose),
                parry3d::query::Ray::new(Vector::new(o.x, o.y, o.z), Vector::new(d.x, d.y, d.z)),
            )
        })
        .collect();
    let ball = Sphere::new(0.25);
    let parry_ball = SharedShape::ball(0.25);
    let shape_cast_row = query == "shape_cast";
    let run_collide = |n: usize| {
        for i in 0..n {
            let k = &cases[set[i % set.len()]];
            if shape_cast_row {
                let at = Isometry3::translation(k.origin.x, k.origin.y, k.origin.z);
                black_box(shape_cast(
                    &ball,
                    black_box(&at),
                    black_box(&k.dir),
                    &shapes[k.shape],
                    black_box(&k.pose),
                    &Vector3::zeros(),
                    1.0,
                ));
            } else {
                let ray = Ray::new(k.origin, k.dir);
                black_box(cast_ray(&shapes[k.shape], black_box(&k.pose), black_box(&ray), 1.0));
            }
        }
    };
    let run_parry = |n: usize| {
        for i in 0..n {
            let j = set[i % set.len()];
            let (pose, ray) = &parry_cases[j];
            let shape = &parry_shapes[cases[j].shape];
            if shape_cast_row {
                let at = Pose::from_translation(ray.origin);
                black_box(
                    parry3d::query::cast_shapes(
                        black_box(&at),
                        black_box(ray.dir),
                        &*parry_ball,
                        black_box(pose),
                        Vector::ZERO,
                        &**shape,
                        parry3d::query::ShapeCastOptions::with_max_time_of_impact(1.0),
                    )
                    .ok(),
                );
            } else {
                black_box(shape.cast_ray_and_get_normal(
                    black_box(pose),
                    black_box(ray),
                    1.0,
                    true,
                ));
            }
        }
    };
    run(&format!("{query} {kind}"), engine, n, &run_collide, &run_parry);
}

/// The `{query}/mixed` rows: the three pair queries over
/// [`mixed_pairs`], as the suite's `mixed_pair_queries` runs them.
fn mixed(query: &str, engine: &str, n: usize) {
    let cases = mixed_pairs();
    let ours: Vec<(Shape, Shape)> = cases
        .iter()
        .map(|k| {
            let shape = |kind: usize, scale| {
                benches::collide_shape(CAST_SHAPES[kind], SupportStrategy::Auto, scale)
            };
            (shape(k.kinds.0, k.scales.0), shape(k.kinds.1, k.scales.1))
        })
        .collect();
    let theirs: Vec<(SharedShape, SharedShape, Pose, Pose)> = cases
        .iter()
        .map(|k| {
            (
                parry_shape(CAST_SHAPES[k.kinds.0], k.scales.0),
                parry_shape(CAST_SHAPES[k.kinds.1], k.scales.1),
                parry_pose(&k.pose_a),
                parry_pose(&k.pose_b),
            )
        })
        .collect();
    let q = ["intersects", "closest_points", "penetration"]
        .iter()
        .position(|x| *x == query)
        .expect("query");
    let run_collide = |n: usize| {
        for i in 0..n {
            let j = i & (STREAM_LEN - 1);
            let ((a, b), k) = (&ours[j], &cases[j]);
            let (pose_a, pose_b) = (black_box(&k.pose_a), black_box(&k.pose_b));
            match q {
                0 => {
                    black_box(intersects(a, pose_a, b, pose_b));
                }
                1 => {
                    black_box(closest_points(a, pose_a, b, pose_b));
                }
                _ => {
                    black_box(penetration(a, pose_a, b, pose_b));
                }
            }
        }
    };
    let run_parry = |n: usize| {
        for i in 0..n {
            let (pa, pb, pose_a, pose_b) = &theirs[i & (STREAM_LEN - 1)];
            let (pose_a, pose_b) = (black_box(pose_a), black_box(pose_b));
            match q {
                0 => {
                    black_box(parry3d::query::intersection_test(pose_a, &**pa, pose_b, &**pb).ok());
                }
                1 => {
                    black_box(
                        parry3d::query::closest_points(pose_a, &**pa, pose_b, &**pb, f32::MAX).ok(),
                    );
                }
                _ => {
                    black_box(parry3d::query::contact(pose_a, &**pa, pose_b, &**pb, 0.0).ok());
                }
            }
        }
    };
    run(&format!("{query} mixed"), engine, n, &run_collide, &run_parry);
}

/// The `project_point/{shape}-{inside|outside}` rows.
fn points(shape: &str, placement: &str, engine: &str, n: usize) {
    let reach = if placement == "inside" { 0.3f32 } else { 1.0 };
    let kind = [QueryShape::Cuboid, QueryShape::Hull(32), QueryShape::Hull(1024)]
        .into_iter()
        .find(|s| s.name() == shape)
        .expect("shape");
    let stream: Vec<(Isometry3<f32>, Point3<f32>)> = pose_pairs(Placement::Overlapping)
        .iter()
        .map(|(a, b)| {
            let (from, to) = (a.translation.vector, b.translation.vector);
            (*a, Point3::from(from + (to - from) * reach))
        })
        .collect();
    let parry_stream: Vec<(Pose, Vector)> =
        stream.iter().map(|(pose, p)| (parry_pose(pose), Vector::new(p.x, p.y, p.z))).collect();
    let (ours, theirs) = (collide_shape(kind), parry_shape(kind, 1.0));
    let run_collide = |n: usize| {
        for i in 0..n {
            let (pose, point) = &stream[i & (STREAM_LEN - 1)];
            black_box(project_point(&ours, black_box(pose), black_box(point), true));
        }
    };
    let run_parry = |n: usize| {
        for i in 0..n {
            let (pose, point) = &parry_stream[i & (STREAM_LEN - 1)];
            black_box(theirs.project_point(black_box(pose), black_box(*point), true));
        }
    };
    run(&format!("project_point {shape}-{placement}"), engine, n, &run_collide, &run_parry);
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [query, pair, placement, engine, n] = &args[..] else {
        eprintln!("usage: row_cost QUERY PAIR PLACEMENT ENGINE N");
        std::process::exit(2);
    };
    let n: usize = n.parse().expect("N");
    match query.as_str() {
        "cast_ray" | "shape_cast" => return casts(query, pair, engine, n),
        "project_point" => return points(pair, placement, engine, n),
        _ if pair == "mixed" => return mixed(query, engine, n),
        _ => {}
    }
    let placement =
        if placement == "overlapping" { Placement::Overlapping } else { Placement::Separated };
    let poses = pose_pairs(placement);
    let parry_poses: Vec<(Pose, Pose)> =
        poses.iter().map(|(a, b)| (parry_pose(a), parry_pose(b))).collect();
    let (a, b, pa, pb) = if pair == "cylinder-cuboid" {
        (
            Cylinder::new(CAPSULE.0, CAPSULE.1).into(),
            collide_shape(QueryShape::Cuboid),
            SharedShape::cylinder(CAPSULE.0, CAPSULE.1),
            parry_shape(QueryShape::Cuboid, 1.0),
        )
    } else {
        let (sa, sb) = *QUERY_PAIRS
            .iter()
            .chain(NEW_SHAPE_PAIRS.iter())
            .find(|(a, b)| format!("{}-{}", a.name(), b.name()) == *pair)
            .expect("pair");
        (collide_shape(sa), collide_shape(sb), parry_shape(sa, 1.0), parry_shape(sb, 1.0))
    };
    // In a cell: `run` takes both loops as `Fn`.
    let manifold = std::cell::RefCell::new(ContactManifold::<(), ()>::new());
    let run_collide = |n: usize| {
        for i in 0..n {
            let (pose_a, pose_b) = &poses[i & (STREAM_LEN - 1)];
            let (pose_a, pose_b) = (black_box(pose_a), black_box(pose_b));
            match query.as_str() {
                "intersects" => {
                    black_box(intersects(&a, pose_a, &b, pose_b));
                }
                "closest_points" => {
                    black_box(closest_points(&a, pose_a, &b, pose_b));
                }
                "contact_manifold" => {
                    black_box(contact_manifold(&a, pose_a, &b, pose_b, 0.0));
                }
                _ => {
                    black_box(penetration(&a, pose_a, &b, pose_b));
                }
            }
        }
    };
    let run_parry = |n: usize| {
        for i in 0..n {
            let (pose_a, pose_b) = &parry_poses[i & (STREAM_LEN - 1)];
            let (pose_a, pose_b) = (black_box(pose_a), black_box(pose_b));
            match query.as_str() {
                "intersects" => {
                    black_box(parry3d::query::intersection_test(pose_a, &*pa, pose_b, &*pb).ok());
                }
                "closest_points" => {
                    black_box(
                        parry3d::query::closest_points(pose_a, &*pa, pose_b, &*pb, f32::MAX).ok(),
                    );
                }
                "contact_manifold" => {
                    // As the suite's row: emptied, so parry computes the
                    // manifold afresh.
                    let mut manifold = manifold.borrow_mut();
                    manifold.clear();
                    let pos12 = pose_a.inv_mul(pose_b);
                    black_box(
                        DefaultQueryDispatcher
                            .contact_manifold_convex_convex(
                                &pos12,
                                &*pa,
                                &*pb,
                                None,
                                None,
                                0.0,
                                &mut *manifold,
                            )
                            .ok(),
                    );
                    black_box(manifold.points.len());
                }
                _ => {
                    black_box(parry3d::query::contact(pose_a, &*pa, pose_b, &*pb, 0.0).ok());
                }
            }
        }
    };
    run(&format!("{query} {pair}-{}", placement.name()), engine, n, &run_collide, &run_parry);
}
