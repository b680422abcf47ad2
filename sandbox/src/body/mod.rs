//! Bodies: their handles and descriptions, their mass properties, and the
//! world's storage of them.

mod desc;
pub(crate) mod mass_properties;
pub(crate) mod storage;
pub(crate) mod thickness;

pub use desc::{BodyDesc, BodyId, BodyKind};
