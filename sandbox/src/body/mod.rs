//! Bodies: their handles and descriptions, the checks their values pass,
//! their mass properties, and the world's storage of them.

pub(crate) mod checks;
mod desc;
pub(crate) mod mass_properties;
pub(crate) mod storage;

pub use desc::{BodyDesc, BodyId, BodyKind};
