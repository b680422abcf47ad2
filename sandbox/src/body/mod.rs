//! Bodies: their handles and descriptions, the shapes they are made of and
//! the filters between those, the checks their values pass, their mass
//! properties, and the world's storage of them.

pub(crate) mod body_shape;
pub(crate) mod checks;
mod desc;
pub(crate) mod filter;
pub(crate) mod mass;
pub(crate) mod memory_budget;
pub(crate) mod motion_bound;
pub(crate) mod shape_store;
pub(crate) mod storage;
pub(crate) mod thickness;

pub use body_shape::{BodyShape, DEFAULT_DENSITY, DEFAULT_FRICTION, MAX_BODY_SHAPES};
pub use desc::{BodyDesc, BodyId, BodyKind};
pub use filter::Filter;
pub use memory_budget::{BYTES_PER_BODY, BYTES_PER_SHAPE, DEFAULT_MEMORY_BUDGET};
