//! The interactive app and the offscreen commands, behind the `render`
//! feature: the fixed-step clock, the orbit camera, the simulation the app
//! steps, the controller that input drives, the HUD, the winit window, and
//! the headless screenshot and recording paths. Physics never imports this
//! module; it reads the world through [`World::view`](crate::World::view).

pub mod clock;
pub mod contact_flash;
pub mod controller;
pub mod headless;
pub mod hud;
pub mod hud_refresh;
mod joint_limit_lines;
pub mod key_list;
pub mod notice;
pub mod orbit_camera;
pub mod probe;
mod readback;
pub mod scene_drawer;
pub mod scene_files;
pub mod scripted_keys;
pub mod simulation;
pub mod support_mesh;
mod surface_mesh;
pub mod surface_size;
pub mod view_region;
pub mod window;

pub use clock::{FIXED_DT, FixedStepClock, FrameSteps, MAX_STEPS_PER_FRAME};
pub use controller::{Action, Button, Controller, Modifiers, key_action};
pub use headless::{FRAMES_IN_FLIGHT, Headless, HeadlessReport, record, screenshot};
pub use orbit_camera::OrbitCamera;
pub use scene_drawer::{DebugDraw, SceneDrawer};
pub use scripted_keys::ScriptedKeys;
pub use simulation::{Simulation, StepTiming};
pub use surface_size::{SurfaceChange, SurfaceSize};
pub use view_region::ViewRegion;
pub use window::{WindowError, WindowOptions, run_window};

#[cfg(test)]
mod hud_layer_tests;
#[cfg(test)]
mod hud_tests;
#[cfg(test)]
mod scene_drawer_tests;
#[cfg(test)]
mod tests;
