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
    CAPSULE, CAST_SHAPES, NEW_SHAPE_PAIRS, PairQuery, Placement, QUERY_PAIRS, QueryShape,
    STREAM_LEN, cast_rays, collide_pair_query, mixed_pairs, mixed_shapes, point_stream, pose_pairs,
};
use collide::nalgebra::{Isometry3, Vector3};
use collide::{
    Cylinder, Ray, Shape, Sphere, SupportStrategy, cast_ray, contact_manifold, project_point,
    shape_cast,
};
use parry3d::math::{Pose, Vector};
use parry3d::query::ContactManifold;
use parry3d::shape::SharedShape;

#[path = "../benches/shared/peer.rs"]
mod peer;
use peer::{
    parry_cast_cases, parry_manifold, parry_mixed_pairs, parry_pair_query, parry_points,
    parry_pose_pairs, parry_shape,
};

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
    let parry_cases = parry_cast_cases(&cases);
    let ball = Sphere::new(0.25);
    let parry_ball = SharedShape::ball(0.25);
    let shape_cast_row = query == "shape_cast";
    if engine == "harness" {
        for i in 0..n {
            let k = &cases[set[i % set.len()]];
            let ray = Ray::new(k.origin, k.dir);
            black_box((&shapes[k.shape], black_box(&k.pose), black_box(&ray)));
        }
        return;
    }
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
fn mixed(query: PairQuery, engine: &str, n: usize) {
    let cases = mixed_pairs();
    let ours = mixed_shapes(&cases);
    let theirs = parry_mixed_pairs(&cases);
    let run_collide = |n: usize| {
        for i in 0..n {
            let j = i & (STREAM_LEN - 1);
            let ((a, b), k) = (&ours[j], &cases[j]);
            collide_pair_query(query, a, black_box(&k.pose_a), b, black_box(&k.pose_b));
        }
    };
    let run_parry = |n: usize| {
        for i in 0..n {
            let (pa, pb, pose_a, pose_b) = &theirs[i & (STREAM_LEN - 1)];
            parry_pair_query(query, &**pa, black_box(pose_a), &**pb, black_box(pose_b));
        }
    };
    run(&format!("{} mixed", query.name()), engine, n, &run_collide, &run_parry);
}

/// The `project_point/{shape}-{inside|outside}` rows.
fn points(shape: &str, placement: &str, engine: &str, n: usize) {
    let reach = if placement == "inside" { 0.3f32 } else { 1.0 };
    let kind = [QueryShape::Cuboid, QueryShape::Hull(32), QueryShape::Hull(1024)]
        .into_iter()
        .find(|s| s.name() == shape)
        .expect("shape");
    let stream = point_stream(reach);
    let parry_stream = parry_points(&stream);
    let (ours, theirs) = (collide_shape(kind), parry_shape(kind, 1.0));
    if engine == "harness" {
        for i in 0..n {
            let (pose, point) = &stream[i & (STREAM_LEN - 1)];
            black_box((&ours, black_box(pose), black_box(point)));
        }
        return;
    }
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
    let pair_query = PairQuery::from_name(query);
    match (query.as_str(), pair_query) {
        ("cast_ray" | "shape_cast", _) => return casts(query, pair, engine, n),
        ("project_point", _) => return points(pair, placement, engine, n),
        (_, Some(q)) if pair == "mixed" => return mixed(q, engine, n),
        _ => {}
    }
    let placement =
        if placement == "overlapping" { Placement::Overlapping } else { Placement::Separated };
    let poses = pose_pairs(placement);
    let parry_poses = parry_pose_pairs(&poses);
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
            match pair_query {
                Some(q) => collide_pair_query(q, &a, pose_a, &b, pose_b),
                None => {
                    black_box(contact_manifold(&a, pose_a, &b, pose_b, 0.0));
                }
            }
        }
    };
    let run_parry = |n: usize| {
        for i in 0..n {
            let (pose_a, pose_b) = &parry_poses[i & (STREAM_LEN - 1)];
            let (pose_a, pose_b) = (black_box(pose_a), black_box(pose_b));
            match pair_query {
                Some(q) => parry_pair_query(q, &*pa, pose_a, &*pb, pose_b),
                None => parry_manifold(&*pa, pose_a, &*pb, pose_b, &mut manifold.borrow_mut()),
            }
        }
    };
    run(&format!("{query} {pair}-{}", placement.name()), engine, n, &run_collide, &run_parry);
}
