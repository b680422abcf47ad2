//! The probe's colours, shared by the 3D and 2D pictures and named for what
//! they show, so that the two modes and the HUD agree.

use crate::render::Color;

/// Shapes are outlined only when their meshes have at most this many
/// edges: a sampled sphere's hundreds of edges would be a grey smear.
pub const MAX_OUTLINE_EDGES: usize = 120;

/// The Minkowski difference's fill (translucent blue).
pub const MINKOWSKI: Color = Color::rgba(0.22, 0.45, 0.95, 0.28);
/// Its outline.
pub const MINKOWSKI_EDGE: Color = Color::rgb(0.25, 0.40, 0.85);
/// The outline of the cores' difference (rounded shapes).
pub const CORE_EDGE: Color = Color::rgb(0.30, 0.30, 0.38);
/// The Minkowski origin's marker and axes.
pub const ORIGIN: Color = Color::WHITE;
/// The X, Y and Z axes at the Minkowski origin.
pub const AXIS_X: Color = Color::rgb(0.85, 0.15, 0.15);
/// See [`AXIS_X`].
pub const AXIS_Y: Color = Color::rgb(0.15, 0.65, 0.15);
/// See [`AXIS_X`].
pub const AXIS_Z: Color = Color::rgb(0.15, 0.25, 0.85);
/// The penetration vector, from `point_b` to `point_a`.
pub const PENETRATION: Color = Color::rgb(1.0, 0.82, 0.05);
/// The segment between the closest points of separated shapes.
pub const CLOSEST: Color = Color::rgb(0.10, 0.10, 0.12);
/// The witness (or closest) point on A.
pub const WITNESS_A: Color = Color::rgb(1.0, 1.0, 1.0);
/// The witness (or closest) point on B.
pub const WITNESS_B: Color = Color::rgb(0.95, 0.30, 0.95);
/// GJK's simplex.
pub const SIMPLEX: Color = Color::rgb(1.0, 0.50, 0.05);
/// EPA's polytope edges.
pub const POLYTOPE: Color = Color::rgb(0.05, 0.55, 0.60);
/// EPA's closest face (or edge, in 2D).
pub const CLOSEST_FACE: Color = Color::rgb(1.0, 0.88, 0.20);
/// A step's search direction.
pub const DIRECTION: Color = Color::rgb(0.85, 0.10, 0.85);
/// A step's support point.
pub const SUPPORT: Color = Color::rgb(0.85, 0.10, 0.85);

/// Opacity of the fills in 2D, where they lie on a pale background and
/// hide nothing (the 3D shapes keep their colours' 0.5 so the vectors
/// inside them show).
pub const FLAT_SHAPE_ALPHA: f32 = 0.75;
/// Opacity of the 2D Minkowski difference's fill.
pub const FLAT_MINKOWSKI_ALPHA: f32 = 0.45;

/// A's and B's colours: green when separated, red when intersecting (B a
/// little lighter), translucent.
pub fn shape_colors(intersecting: bool) -> (Color, Color) {
    if intersecting {
        (Color::rgba(0.85, 0.12, 0.10, 0.5), Color::rgba(0.98, 0.35, 0.30, 0.5))
    } else {
        (Color::rgba(0.10, 0.65, 0.20, 0.5), Color::rgba(0.35, 0.85, 0.40, 0.5))
    }
}
