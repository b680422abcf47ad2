//! Bounding-volume hierarchies over axis-aligned boxes: a [`DynamicTree`]
//! whose proxies are inserted, moved and removed one at a time (a broad
//! phase, a world's query structure), and a [`StaticBvh`] built once over a
//! slice of boxes (the triangles of a mesh, the parts of a compound), whose
//! nodes hold four children's boxes each, tested together. Both
//! answer the same queries, each with a callback that can stop early: boxes
//! overlapping a box, ray casts visited front to back with a shrinking
//! limit, casts of a moving box, and a walk guided by a user's own test.

mod branch;
mod collapse;
mod dynamic_tree;
mod error;
mod sah_split;
mod slab;
mod stack;
mod static_bvh;
mod traversal;
mod wide_node;
mod wide_traversal;

pub use dynamic_tree::{DynamicTree, ProxyId};
pub use error::{BvhError, TreeDefect};
pub use stack::INLINE_STACK_DEPTH;
pub use static_bvh::{MAX_LEAF_ITEMS, StaticBvh};
pub use traversal::{RayControl, Traversal};
