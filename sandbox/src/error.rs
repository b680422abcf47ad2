//! Typed errors of the world's API.

use core::fmt;

/// Why a world operation was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum WorldError {
    /// The handle names a body that was removed (or never existed).
    UnknownBody,
    /// A position, rotation, velocity, impulse or material value is NaN or infinite.
    NonFinite,
    /// A dynamic body's shape and density give a mass or inertia that is not
    /// positive and finite.
    BadMass,
}

impl fmt::Display for WorldError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::UnknownBody => f.write_str("the body handle names no live body"),
            Self::NonFinite => f.write_str("a NaN or infinite value was given"),
            Self::BadMass => {
                f.write_str("the shape and density give a non-positive or non-finite mass")
            }
        }
    }
}

impl std::error::Error for WorldError {}
