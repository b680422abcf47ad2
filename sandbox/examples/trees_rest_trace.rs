//! Why box3d's `trees` keep moving: steps the scene as `sandbox bench`
//! does (one thread, sleeping on) and, over a window of steps, prints per
//! awake tree its linear and angular speed (the spin split into the part
//! about the tree's long axis and the part across it), the fastest corner
//! of its box (the sleep test's measure) against box3d's
//! `|v| + |modified cross(|ω|, max extent)|`, and its contacts: the mesh
//! manifolds (prisms touching the waves), how many of their points kept
//! their feature id from the step before, and the tree–tree manifolds.
//! Each step it also counts the *frozen* trees: awake, spinning, yet not
//! turned over the step (the continuous stage moved them back to the
//! step's start pose and kept their velocity). With TREE given, that
//! tree's centre, axes, velocities and every mesh manifold are printed;
//! with `DUMP_STEP=S` also, before step S, collide's part manifolds of each
//! of its prisms against the mesh (within 0.1 m), before the sandbox folds
//! them into one manifold per prism.
//!
//! ```text
//! [DUMP_STEP=S] cargo run --release -p sandbox --example trees_rest_trace -- \
//!     [FIRST] [LAST] [EVERY] [TREE]
//! ```
//! (defaults 300, 600, 25, every tree; the lines are printed at every
//! EVERY-th step from FIRST to LAST).

use std::collections::HashMap;

use collide::Shape;
use collide::nalgebra::Vector3;
use sandbox::{BodyId, BodyKind, Scene, StepSettings, World, build_scene};

/// One step, as the benchmark's.
const DT: f32 = 1.0 / 60.0;

/// The lower and upper corners of the box of `id`'s shapes in its own axes
/// from its centre of mass: what the sleep test measures lever arms with.
fn box_from_center(world: &World, id: BodyId) -> [Vector3<f32>; 2] {
    let center = world.mass_properties(id).map_or(Vector3::zeros(), |m| m.local_center.coords);
    let (mut lo, mut hi) = (Vector3::repeat(f32::MAX), Vector3::repeat(f32::MIN));
    for t in 0..world.shape_count(id).unwrap_or(0) {
        if let Some(Shape::ConvexHull(h)) = world.body_shape(id, t).map(|s| s.shape) {
            for p in h.vertices() {
                lo = lo.inf(&p.coords);
                hi = hi.sup(&p.coords);
            }
        }
    }
    [lo - center, hi - center]
}

fn main() {
    let args: Vec<u64> = std::env::args().skip(1).filter_map(|a| a.parse().ok()).collect();
    let first = args.first().copied().unwrap_or(300);
    let last = args.get(1).copied().unwrap_or(600);
    let every = args.get(2).copied().unwrap_or(25).max(1);
    let only = args.get(3).copied();
    let mut world = World::with_settings(StepSettings::default()).expect("settings");
    let trees = build_scene(&mut world, Scene::Trees, 1).expect("scene");
    let ground = world.bodies().find(|&b| world.kind(b) == Some(BodyKind::Fixed)).expect("ground");
    let boxes: Vec<_> = trees.iter().map(|&t| box_from_center(&world, t)).collect();
    // Feature ids of each tree's mesh points, by prism, at the last step.
    let mut last_ids: HashMap<(usize, usize), Vec<u32>> = HashMap::new();
    let mut last_poses: Vec<_> = trees.iter().map(|&t| *world.pose(t).expect("pose")).collect();
    let mut frozen_steps = vec![0u32; trees.len()];
    let dump_at: Option<u64> = std::env::var("DUMP_STEP").ok().and_then(|v| v.parse().ok());
    for step in 1..=last {
        if let (Some(d), Some(t)) = (dump_at, only)
            && d == step
        {
            dump_parts(&world, ground, trees[t as usize]);
        }
        world.step(DT);
        if step < first {
            continue;
        }
        let awake: Vec<usize> =
            (0..trees.len()).filter(|&n| world.is_awake(trees[n]) == Some(true)).collect();
        // A tree whose pose did not turn although its spin says it should
        // have (by a tenth of the spin's turn over the step at least).
        let mut frozen = vec![false; trees.len()];
        for &n in &awake {
            let pose = *world.pose(trees[n]).expect("pose");
            let turned = (pose.rotation * last_poses[n].rotation.inverse()).angle();
            let spin = world.angular_velocity(trees[n]).map_or(0.0, |w| w.norm()) * DT;
            frozen[n] = spin > 1e-3 && turned < 0.1 * spin;
            if frozen[n] {
                frozen_steps[n] += 1;
            }
        }
        for (n, &t) in trees.iter().enumerate() {
            last_poses[n] = *world.pose(t).expect("pose");
        }
        let mut ids_now: HashMap<(usize, usize), Vec<u32>> = HashMap::new();
        let mut mesh_manifolds = vec![0usize; trees.len()];
        let mut kept = vec![(0usize, 0usize); trees.len()];
        let mut tree_pairs = vec![0usize; trees.len()];
        let mut min_sep = vec![f32::MAX; trees.len()];
        for c in world.contacts() {
            let (a, b) = (c.body_a, c.body_b);
            let tree_of = |id: BodyId| trees.iter().position(|&t| t == id);
            if a == ground || b == ground {
                let (tree, prism) = if a == ground { (b, c.shape_b) } else { (a, c.shape_a) };
                let Some(n) = tree_of(tree) else { continue };
                if c.points().is_empty() {
                    continue;
                }
                mesh_manifolds[n] += 1;
                let ids: Vec<u32> = c.points().iter().map(|p| p.feature_id).collect();
                for p in c.points() {
                    min_sep[n] = min_sep[n].min(p.separation);
                }
                if let Some(old) = last_ids.get(&(n, prism as usize)) {
                    kept[n].0 += ids.iter().filter(|i| old.contains(i)).count();
                }
                kept[n].1 += ids.len();
                if only == Some(n as u64) && step % every == 0 {
                    let pts: Vec<String> = c
                        .points()
                        .iter()
                        .map(|p| {
                            format!(
                                "{:08x}@({:.2},{:.3},{:.2}) s{:+.4} i{:.1}",
                                p.feature_id,
                                p.point.x,
                                p.point.y,
                                p.point.z,
                                p.separation,
                                p.normal_impulse
                            )
                        })
                        .collect();
                    println!(
                        "    prism {prism:2} n ({:+.3},{:+.3},{:+.3}) {}",
                        c.normal.x,
                        c.normal.y,
                        c.normal.z,
                        pts.join(" ")
                    );
                }
                ids_now.insert((n, prism as usize), ids);
            } else if let (Some(n), Some(m)) = (tree_of(a), tree_of(b))
                && !c.points().is_empty()
            {
                tree_pairs[n] += 1;
                tree_pairs[m] += 1;
            }
        }
        last_ids = ids_now;
        if step % every != 0 {
            continue;
        }
        println!(
            "step {step}: {} awake, {} frozen now, frozen steps so far {:?}",
            awake.len(),
            frozen.iter().filter(|&&f| f).count(),
            frozen_steps.iter().enumerate().filter(|(_, s)| **s > 0).collect::<Vec<_>>()
        );
        for &n in &awake {
            if only.is_some_and(|o| o as usize != n) {
                continue;
            }
            let id = trees[n];
            let (Some(pose), Some(v), Some(w)) =
                (world.pose(id), world.linear_velocity(id), world.angular_velocity(id))
            else {
                continue;
            };
            let (v_b, w_b) = (
                pose.rotation.inverse_transform_vector(&v),
                pose.rotation.inverse_transform_vector(&w),
            );
            let bx = &boxes[n];
            let mut corner = 0.0f32;
            for k in 0..8 {
                let r = Vector3::new(bx[k & 1].x, bx[(k >> 1) & 1].y, bx[(k >> 2) & 1].z);
                corner = corner.max((v_b + w_b.cross(&r)).norm());
            }
            let ext = bx[0].abs().sup(&bx[1].abs());
            let wa = w_b.abs();
            // box3d's modified cross: (|ω_y| e_z + |ω_z| e_y, ...).
            let arc = Vector3::new(
                wa.y * ext.z + wa.z * ext.y,
                wa.z * ext.x + wa.x * ext.z,
                wa.x * ext.y + wa.y * ext.x,
            );
            let up = pose.rotation * Vector3::y();
            if only.is_some() {
                let c = pose
                    * world
                        .mass_properties(id)
                        .map_or(collide::nalgebra::Point3::origin(), |m| m.local_center);
                let side = pose.rotation * Vector3::x();
                println!(
                    "  centre ({:.3},{:.4},{:.3}) side ({:+.3},{:+.3},{:+.3}) v ({:+.3},{:+.3},{:+.3}) w ({:+.3},{:+.3},{:+.3})",
                    c.x, c.y, c.z, side.x, side.y, side.z, v.x, v.y, v.z, w.x, w.y, w.z
                );
            }
            println!(
                "  tree {n:2} frozen {} |v| {:.3} |w| {:.3} w_axis {:+.3} w_across {:.3} corner {:.3} box3d {:.3} \
                 axis_y {:+.2} mesh {} ids kept {}/{} trees {} min_sep {:.4}",
                frozen[n],
                v.norm(),
                w.norm(),
                w_b.y,
                (w_b.x * w_b.x + w_b.z * w_b.z).sqrt(),
                corner,
                v.norm() + arc.norm(),
                up.y,
                mesh_manifolds[n],
                kept[n].0,
                kept[n].1,
                tree_pairs[n],
                min_sep[n],
            );
        }
    }
}

/// Prints, for each prism of `tree` at its present pose, the part
/// manifolds collide finds against the ground mesh (within 0.1 m), before
/// the sandbox folds them into one manifold per prism.
fn dump_parts(world: &World, ground: BodyId, tree: BodyId) {
    let (Some(mesh), Some(pose)) = (world.shape(ground), world.pose(tree)) else { return };
    let ground_pose = *world.pose(ground).expect("ground pose");
    println!("dump before this step: tree pose {pose:?}");
    for t in 0..world.shape_count(tree).unwrap_or(0) {
        let Some(s) = world.body_shape(tree, t) else { continue };
        let prism_pose = pose * s.local_pose;
        let mut set = collide::composite::ManifoldSet::new();
        collide::composite::contact_manifolds(
            mesh,
            &ground_pose,
            &s.shape,
            &prism_pose,
            0.1,
            &mut set,
        );
        for pm in set.manifolds() {
            let n = pm.manifold.normal;
            let pts: Vec<String> = pm
                .manifold
                .points()
                .iter()
                .map(|p| {
                    format!(
                        "{}@({:.2},{:.3},{:.2}) s{:+.4}",
                        p.id, p.point.x, p.point.y, p.point.z, p.separation
                    )
                })
                .collect();
            println!(
                "  prism {t:2} tri {:?} n ({:+.3},{:+.3},{:+.3}) {}",
                pm.parts.a,
                n.x,
                n.y,
                n.z,
                pts.join(" ")
            );
        }
    }
}
