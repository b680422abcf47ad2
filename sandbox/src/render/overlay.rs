//! Debug overlays drawn after the opaque meshes: lines, point markers and
//! translucent triangle meshes.
//!
//! Lines and points are depth tested against the scene but do not write
//! depth. Translucent meshes are alpha blended in the order given, without
//! writing depth, so they never hide what lies behind them.

use nalgebra::Point3;

use super::Color;

/// A line segment, e.g. a contact normal or an AABB edge.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DebugLine {
    /// The start point in the world.
    pub start: Point3<f32>,
    /// The end point in the world.
    pub end: Point3<f32>,
    /// The line colour.
    pub color: Color,
}

/// A small screen-facing square, e.g. a contact point.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PointMarker {
    /// The point in the world.
    pub position: Point3<f32>,
    /// The side of the square in pixels.
    pub size_px: f32,
    /// The marker colour.
    pub color: Color,
}

/// A translucent triangle mesh, e.g. a Minkowski difference.
#[derive(Debug, Clone, PartialEq)]
pub struct TranslucentMesh {
    /// Vertex positions in the world.
    pub positions: Vec<Point3<f32>>,
    /// Counter-clockwise triangles as indices into `positions`.
    pub triangles: Vec<[u32; 3]>,
    /// The colour; alpha below 1 makes it see-through.
    pub color: Color,
}
