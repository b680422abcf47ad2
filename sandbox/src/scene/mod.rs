//! Scenes: the built-in benchmark scenes of `shared/SCENES.md`, custom
//! scenes read from TOML files, and [`SceneSource`](crate::SceneSource),
//! which builds a world from either.

pub(crate) mod builtin;
pub mod file;
pub(crate) mod source;
