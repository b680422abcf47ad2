//! Contact manifolds: up to four contact points sharing one normal, with
//! feature ids that persist across frames, for every pair of shapes
//! ([`contact_manifold`]).

mod api;
mod box_box;
mod box_box_cached;
mod contact_manifold;
mod face_clipping;
mod feature_scale;
mod polygon_clip;
mod rectangle_clip;
mod reduce;
mod sat_cache;
mod sphere_pairs;
mod supporting_feature;
#[cfg(test)]
mod test_rng;

pub use api::{
    contact_manifold, contact_manifold_cached, contact_manifold_sat_cached, try_contact_manifold,
    try_contact_manifold_cached, try_contact_manifold_sat_cached,
};
pub use contact_manifold::{ContactManifold, MAX_MANIFOLD_POINTS, ManifoldOutcome, ManifoldPoint};
pub use sat_cache::SatCache;

pub(crate) use api::check_input;
pub(crate) use face_clipping::{
    SupportingFeature, feature_misses_triangle, manifold_along, outside_a_triangle_edge,
    outside_a_triangle_edge_either_way,
};
pub(crate) use feature_scale::{CLIP_FRACTION, shape_scale};
