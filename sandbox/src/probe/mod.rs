//! The probe: two convex shapes, one moved by the user, and what GJK and
//! EPA make of them, in 3D and in 2D. This module is the part without a
//! window or a GPU: the shapes on offer, the query with its recorded
//! iterations, the Minkowski-difference meshes built with collide's own
//! hull algorithms, and the state the keys and the mouse change. The app
//! (`app::probe`, behind the `render` feature) draws it and binds the keys.

mod counting;
mod minkowski_mesh;
mod shape_choice;
mod state;
#[cfg(test)]
mod tests;
mod trace2;
mod trace3;

pub use counting::Counted;
pub use minkowski_mesh::{
    HullMesh, difference_mesh, difference_polygon2, shape_mesh, shape_outline2, sphere_directions,
};
pub use shape_choice::{ShapeKind, ShapeKind2, UnknownShape};
pub use state::{Dim, MOVE_STEP, Pictures, Probe, ProbeAction, RESOLVED_DEPTH, TURN_STEP};
pub use trace2::{StepAnswer2, Trace2, edge_line};
pub use trace3::{StepAnswer, Trace3, TraceStep, face_plane};
