//! `cargo run -p benches --release --example bvh_cost -- QUERY ENGINE N`:
//! runs N queries of the `bvh` suite (cycling through its 1024 seeded
//! inputs, as the criterion rows do) for instruction counts under
//! callgrind: run once with N = 0 to subtract the setup (building the
//! trees and checking every engine against brute force is most of it).
//! Prints the nodes (or lanes) and items each collide query visited, per
//! query, for the static tree.
//!
//! QUERY is `ray` (`bvh_ray_closest`) or `aabb` (`bvh_aabb_overlap`);
//! ENGINE `static`, `dynamic` (built by insertions), `dynamic-rebuilt`
//! (the same after `DynamicTree::rebuild`) or `parry3d`. Also prints the
//! boxes each dynamic tree tests per box query.

use std::hint::black_box;

use collide::bvh::{DynamicTree, StaticBvh};
use parry3d::bounding_volume::Aabb as ParryAabb;
use parry3d::partitioning::{Bvh, BvhBuildStrategy};

#[path = "../benches/shared/bvh_inputs.rs"]
mod bvh_inputs;
use bvh_inputs::{
    Inputs, QUERIES, brute_ray, dynamic_ray, inputs, parry_box, parry_ray, static_ray,
};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [query, engine, n] = &args[..] else {
        eprintln!("usage: bvh_cost QUERY ENGINE N");
        std::process::exit(2);
    };
    let n: usize = n.parse().expect("N");
    let Inputs { boxes, rays, queries } = inputs();
    let bvh = StaticBvh::try_new(&boxes).unwrap();
    let mut tree = DynamicTree::new();
    for (i, b) in boxes.iter().enumerate() {
        tree.try_insert(*b, 0.0, i as u32).unwrap();
    }
    let mut rebuilt = tree.clone();
    rebuilt.rebuild();
    let parry_leaves: Vec<ParryAabb> = boxes.iter().map(parry_box).collect();
    let parry = Bvh::from_leaves(BvhBuildStrategy::Binned, &parry_leaves);
    let parry_queries: Vec<ParryAabb> = queries.iter().map(parry_box).collect();
    // The same answers as brute force (the suite checks every engine).
    for ray in &rays {
        let t = brute_ray(&boxes, ray).map(|(_, t)| t);
        assert_eq!(static_ray(&bvh, &boxes, ray).map(|(_, t)| t), t);
        assert_eq!(dynamic_ray(&tree, &boxes, ray).map(|(_, t)| t), t);
        assert_eq!(dynamic_ray(&rebuilt, &boxes, ray).map(|(_, t)| t), t);
        assert_eq!(parry_ray(&parry, &boxes, ray).map(|(_, t)| t), t);
    }
    let mut total = 0usize;
    for k in 0..n {
        let i = k % QUERIES;
        total += match (query.as_str(), engine.as_str()) {
            ("ray", "static") => {
                static_ray(&bvh, &boxes, black_box(&rays[i])).map_or(0, |h| h.0 as usize)
            }
            ("ray", "dynamic") => {
                dynamic_ray(&tree, &boxes, black_box(&rays[i])).map_or(0, |h| h.0 as usize)
            }
            ("ray", "dynamic-rebuilt") => {
                dynamic_ray(&rebuilt, &boxes, black_box(&rays[i])).map_or(0, |h| h.0 as usize)
            }
            ("ray", "parry3d") => {
                parry_ray(&parry, &boxes, black_box(&rays[i])).map_or(0, |h| h.0 as usize)
            }
            ("aabb", "static") => {
                let mut c = 0;
                bvh.query_aabb(black_box(&queries[i]), |_| {
                    c += 1;
                    true
                });
                c
            }
            ("aabb", "dynamic") => {
                let mut c = 0;
                tree.query_aabb(black_box(&queries[i]), |_| {
                    c += 1;
                    true
                });
                c
            }
            ("aabb", "dynamic-rebuilt") => {
                let mut c = 0;
                rebuilt.query_aabb(black_box(&queries[i]), |_| {
                    c += 1;
                    true
                });
                c
            }
            ("aabb", "parry3d") => parry.intersect_aabb(black_box(&parry_queries[i])).count(),
            _ => {
                eprintln!("unknown QUERY or ENGINE");
                std::process::exit(2);
            }
        };
    }
    // Lanes the static tree's box queries test: four a node visited.
    let mut nodes = 0usize;
    for q in &queries {
        bvh.visit(
            |b| {
                nodes += 1;
                b.overlaps(q)
            },
            |_| true,
        );
    }
    // Boxes each dynamic tree tests per box query (a record's two).
    let tested = |t: &DynamicTree<u32>| {
        let mut boxes = 0usize;
        for q in &queries {
            t.visit(
                |b| {
                    boxes += 1;
                    b.overlaps(q)
                },
                |_| true,
            );
        }
        boxes as f64 / QUERIES as f64
    };
    println!(
        "{query} {engine} {n}: checksum {total}; static tree: {} nodes, {:.1} boxes tested per box \
         query; dynamic: {:.1} (height {}), rebuilt: {:.1} (height {})",
        bvh.node_count(),
        nodes as f64 / QUERIES as f64,
        tested(&tree),
        tree.height(),
        tested(&rebuilt),
        rebuilt.height(),
    );
}
