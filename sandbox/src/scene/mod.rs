//! Scenes: the built-in benchmark scenes of `shared/SCENES.md`, and custom
//! scenes read from TOML files.

pub(crate) mod builtin;
pub mod file;
