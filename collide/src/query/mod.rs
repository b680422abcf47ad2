//! GJK/EPA queries between two posed support maps.

mod api;

pub use api::{
    Penetration, Proximity, closest_points, intersects, penetration, try_closest_points,
    try_intersects, try_penetration,
};
