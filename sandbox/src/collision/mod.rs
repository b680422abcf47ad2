//! Collision: bounding boxes and the broad phase that pairs them, the pair
//! cache, the narrow phase and the manifold routines it calls (box–box SAT,
//! closed forms, collide's GJK/EPA with face clipping), contact recycling,
//! and ray casts and box queries against the bodies through a query tree.

pub(crate) mod aabb;
pub(crate) mod box_box;
pub(crate) mod broad_phase;
pub(crate) mod contact_recycling;
pub(crate) mod contact_view;
pub(crate) mod convex_manifold;
pub(crate) mod live_pairs;
pub(crate) mod manifold;
pub(crate) mod narrow_phase;
pub(crate) mod pair_cache;
pub(crate) mod pair_manifold;
pub(crate) mod pair_sort;
pub(crate) mod polygon_clip;
pub(crate) mod push_out;
pub(crate) mod query_tree;
pub(crate) mod ray_cast;
pub(crate) mod rectangle_clip;
pub(crate) mod sweep_fast_bodies;
