//! Hull construction (quickhull) and hull support strategies.

pub(crate) mod support;
