//! Scenes: the built-in benchmark scenes of `sandbox/SCENES.md`, custom
//! scenes read from TOML files, and [`SceneSource`](crate::tools::SceneSource),
//! which builds a world from either.

pub(crate) mod box3d;
pub(crate) mod builtin;
pub mod file;
pub(crate) mod source;
pub(crate) mod trees;
