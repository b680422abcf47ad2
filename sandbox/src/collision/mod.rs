//! Collision: bounding boxes and the broad phase that pairs them, the pair
//! cache, the narrow phase (which asks collide's `contact_manifold` for each
//! pair's contact points), the solver-side manifold with its impulses and
//! anchors, contact recycling, and ray casts and box queries against the
//! bodies through a query tree.

pub(crate) mod aabb;
pub(crate) mod body_shapes;
pub(crate) mod broad_phase;
pub(crate) mod composite_manifold;
pub(crate) mod contact_recycling;
pub(crate) mod contact_view;
pub(crate) mod live_pairs;
pub(crate) mod manifold;
pub(crate) mod narrow_phase;
pub(crate) mod packed_box_tree;
pub(crate) mod pair_cache;
pub(crate) mod pair_manifold;
pub(crate) mod pair_sort;
pub(crate) mod push_out;
pub(crate) mod query_tree;
pub(crate) mod ray_cast;
pub(crate) mod sensor_pairs;
pub(crate) mod shape_pairs;
pub(crate) mod static_boxes;
pub(crate) mod surface_depth;
pub(crate) mod sweep_fast_bodies;
pub(crate) mod sweep_surface;
