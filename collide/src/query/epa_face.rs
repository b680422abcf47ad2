//! [`EpaFace`]: one triangle of EPA's polytope. Its own file so that the
//! recorder (`record.rs`), which shows the polytope's faces, and EPA
//! (`epa.rs`), which records into it, do not import each other.

use nalgebra::Vector3;

/// A triangle of the polytope, wound counter-clockwise seen from outside.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EpaFace {
    /// Indices of the three vertices.
    pub vertices: [u16; 3],
    /// Outward unit normal, in A's frame.
    pub normal: Vector3<f32>,
    /// Signed distance of the face's plane from the origin along `normal`
    /// (negative when the origin lies outside the face).
    pub distance: f32,
}
