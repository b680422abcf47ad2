//! The probe scene in the app: key bindings, the 2D view, drawing the
//! probe (3D and 2D) into a frame, and its HUD section. The probe's state
//! and geometry, free of the window and the GPU, are in [`crate::tools::probe`].

pub mod draw2;
pub mod draw3;
pub mod hud;
pub mod keys;
pub mod palette;
pub mod primitives;
pub mod session;
#[cfg(test)]
mod tests;

pub use keys::{probe_key_action, repeats};
pub use session::{OrthoView, ProbeSession};

use crate::probe::{Dim, Probe};
use crate::render::FrameScene;

/// Fills `frame` with the probe in its current dimension (the camera and
/// the ground are the controller's, see `Controller::aim`).
pub fn fill(probe: &Probe, frame: &mut FrameScene) {
    match probe.dim {
        Dim::Three => draw3::fill3(probe, frame),
        Dim::Two => draw2::fill2(probe, frame),
    }
}
