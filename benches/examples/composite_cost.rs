//! `cargo run -p benches --release --example composite_cost -- ROW CONVEX ENGINE N`:
//! runs one manifold row of the `composites` suite N times over the same
//! seeded inputs, for instruction counts under callgrind (run once with
//! N = 0 to subtract the setup) or a quick wall-clock ratio (ENGINE `both`
//! times collide and parry3d alternately and prints ns per call for each).
//!
//! ROW is `mesh_manifolds` or `field_manifolds`, CONVEX `cuboid` or
//! `hull`, ENGINE `collide`, `parry3d` or `both`. With ENGINE `stats`, it
//! prints how many manifolds and points collide finds per call instead.

use std::hint::black_box;
use std::time::Instant;

use benches::surface::{CELL, CELLS_X, CELLS_Z, hull_points, indices, poses_near_surface, samples};
use collide::composite::{self, HeightField, ManifoldSet, TriMesh};
use collide::nalgebra::{Isometry3, Vector3};
use collide::{ConvexHull, Cuboid, Shape};
use parry3d::math::{Pose, Vector};
use parry3d::query::{ContactManifold, DefaultQueryDispatcher, PersistentQueryDispatcher};
use parry3d::shape::{SharedShape, TriMeshFlags};
use parry3d::utils::Array2;
use rand::SeedableRng;
use rand::rngs::StdRng;

#[path = "../benches/shared/peer.rs"]
mod peer;
use peer::{parry_pose, parry_vec};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [row, convex, engine, n] = &args[..] else {
        eprintln!("usage: composite_cost ROW CONVEX ENGINE N");
        std::process::exit(2);
    };
    let n: usize = n.parse().expect("N");
    let points = samples(CELLS_X, CELLS_Z, CELL);
    let tris = indices(CELLS_X, CELLS_Z);
    let (surface, parry_surface): (Shape, SharedShape) = if row == "mesh_manifolds" {
        (
            TriMesh::try_new(points.clone(), tris.clone()).unwrap().into(),
            SharedShape::trimesh_with_flags(
                points.iter().map(parry_vec).collect(),
                tris,
                TriMeshFlags::FIX_INTERNAL_EDGES,
            )
            .unwrap(),
        )
    } else {
        let heights: Vec<f32> = points.iter().map(|p| p.y).collect();
        let (rows, cols) = (CELLS_Z + 1, CELLS_X + 1);
        let column_major: Vec<f32> = (0..cols)
            .flat_map(|j| (0..rows).map(move |i| (i, j)))
            .map(|(i, j)| heights[i * cols + j])
            .collect();
        (
            HeightField::try_new(rows, cols, heights, [CELL, CELL]).unwrap().into(),
            SharedShape::heightfield(
                Array2::new(rows, cols, column_major),
                Vector::new(CELLS_X as f32 * CELL, 1.0, CELLS_Z as f32 * CELL),
            ),
        )
    };
    let (shape, parry_shape): (Shape, SharedShape) = if convex == "cuboid" {
        (Cuboid::new(Vector3::repeat(0.5)).into(), SharedShape::cuboid(0.5, 0.5, 0.5))
    } else {
        let p = hull_points();
        (
            ConvexHull::new(&p).unwrap().into(),
            SharedShape::convex_hull(&p.iter().map(parry_vec).collect::<Vec<_>>()).unwrap(),
        )
    };
    // The suite draws its rays first from the same generator; the poses
    // here are a stream of the same distribution.
    let mut rng = StdRng::seed_from_u64(0x38_c0de);
    let (half_x, half_z) = (0.5 * CELLS_X as f32 * CELL - 1.0, 0.5 * CELLS_Z as f32 * CELL - 1.0);
    let poses = poses_near_surface(&mut rng, half_x, half_z);
    let parry_poses: Vec<Pose> = poses.iter().map(parry_pose).collect();
    let id = Isometry3::identity();
    let set = std::cell::RefCell::new(ManifoldSet::new());
    let run_collide = |n: usize| {
        let mut set = set.borrow_mut();
        for i in 0..n {
            let pose = black_box(&poses[i % poses.len()]);
            composite::contact_manifolds(&surface, &id, &shape, pose, 0.02, &mut set);
            black_box(set.len());
        }
    };
    let manifolds = std::cell::RefCell::new(Vec::<ContactManifold<(), ()>>::new());
    let workspace = std::cell::RefCell::new(None);
    let run_parry = |n: usize| {
        let (mut manifolds, mut workspace) = (manifolds.borrow_mut(), workspace.borrow_mut());
        for i in 0..n {
            let pose = black_box(&parry_poses[i % parry_poses.len()]);
            black_box(
                DefaultQueryDispatcher
                    .contact_manifolds(
                        pose,
                        &*parry_surface,
                        &*parry_shape,
                        0.02,
                        &mut manifolds,
                        &mut workspace,
                    )
                    .ok(),
            );
            black_box(manifolds.len());
        }
    };
    match engine.as_str() {
        "collide" => run_collide(n),
        "parry3d" => run_parry(n),
        "stats" => {
            let (mut m, mut p) = (0, 0);
            let mut set = set.borrow_mut();
            for pose in &poses {
                composite::contact_manifolds(&surface, &id, &shape, pose, 0.02, &mut set);
                m += set.len();
                p += set.points().count();
            }
            let (mut pm, mut pp) = (0, 0);
            let (mut manifolds, mut workspace) = (manifolds.borrow_mut(), workspace.borrow_mut());
            for pose in &parry_poses {
                DefaultQueryDispatcher
                    .contact_manifolds(
                        pose,
                        &*parry_surface,
                        &*parry_shape,
                        0.02,
                        &mut manifolds,
                        &mut workspace,
                    )
                    .unwrap();
                pm += manifolds.iter().filter(|m| !m.points.is_empty()).count();
                pp += manifolds.iter().map(|m| m.points.len()).sum::<usize>();
            }
            let k = poses.len() as f64;
            println!(
                "{row}/{convex}: collide {:.2} manifolds, {:.2} points; parry3d {:.2} manifolds, {:.2} points, per call",
                m as f64 / k,
                p as f64 / k,
                pm as f64 / k,
                pp as f64 / k
            );
        }
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
            println!("{row}/{convex} collide {c:.0} ns parry3d {p:.0} ns ratio {:.2}", c / p);
        }
    }
}
