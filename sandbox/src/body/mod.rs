//! Bodies: their handles and descriptions, the checks their values pass,
//! their mass properties, and the world's storage of them.

pub(crate) mod checks;
mod desc;
pub(crate) mod motion_bound;
pub(crate) mod storage;
pub(crate) mod thickness;

pub use desc::{BodyDesc, BodyId, BodyKind};
