//! The world's axis-aligned boxes are collide's [`Aabb`]: every shape's
//! exact box at a pose comes from [`collide::SupportMap::aabb`].

pub use collide::Aabb;
