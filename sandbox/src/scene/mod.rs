//! Scenes: the built-in benchmark scenes of `sandbox/SCENES.md`, custom
//! scenes read from TOML files, and [`SceneSource`](crate::tools::SceneSource),
//! which builds a world from either.

pub(crate) mod box3d;
pub(crate) mod builtin;
pub(crate) mod driver;
pub mod file;
pub(crate) mod joints;
pub(crate) mod ragdoll;
pub(crate) mod source;
pub(crate) mod trees;
