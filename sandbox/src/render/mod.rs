//! A self-contained wgpu renderer for the sandbox, behind the `render` feature.
//!
//! The renderer never sees the physics [`World`](crate::World). It draws a
//! [`FrameScene`]: a plain description of one frame (camera, light, sky,
//! ground, mesh instances and debug overlays) that the app layer fills from
//! the world each frame. Physics never imports `render`, and `render` only
//! reads that view.
//!
//! [`Renderer`] records its passes into a caller's command encoder and
//! resolves into the caller's texture view, so the app owns the surface and
//! can draw a UI into the same view afterwards. [`OffscreenRenderer`] is the
//! headless path used by tests and screenshots.
//!
//! ```no_run
//! use nalgebra::{Isometry3, Point3, Vector3};
//! use sandbox::render::{Camera, Color, DrawInstance, DrawShape, FrameScene, OffscreenRenderer};
//!
//! let mut offscreen = OffscreenRenderer::new(320, 180)?;
//! let camera = Camera::looking_at(Point3::new(4.0, 3.0, 6.0), Point3::origin());
//! let mut scene = FrameScene::new(camera);
//! scene.instances.push(DrawInstance::new(
//!     DrawShape::Cuboid { half_extents: Vector3::new(0.5, 0.5, 0.5) },
//!     Isometry3::translation(0.0, 0.5, 0.0),
//!     Color::RED,
//! ));
//! let (image, _stats) = offscreen.render(&scene)?;
//! image.save("/tmp/cube.png").ok();
//! # Ok::<(), sandbox::render::RenderError>(())
//! ```

mod camera;
mod color;
mod error;
mod frame_scene;
mod gpu_types;
mod ground_tiles;
mod growable_buffer;
mod instance;
mod instance_blocks;
mod layer;
mod level_of_detail;
mod light;
mod mesh;
mod offscreen;
mod overlay;
mod pipelines;
mod renderer;
mod round_meshes;
mod stats;
mod targets;
#[cfg(test)]
pub(crate) mod tests;
mod view_culling;

pub use camera::{Camera, Projection, orthographic_rh_zo, perspective_rh_zo};
pub use color::Color;
pub use error::RenderError;
pub use frame_scene::{FrameScene, Ground, Sky};
pub use instance::{DrawInstance, DrawShape, HullMeshId, MeshKind};
pub use layer::CachedLayer;
pub use light::{DirectionalLight, ShadowFit};
pub use offscreen::{Gpu, OffscreenRenderer};
pub use overlay::{DebugLine, PointMarker, TranslucentMesh};
pub use renderer::{CPU_MSAA_SAMPLES, MSAA_SAMPLES, Renderer, default_msaa_samples};
pub use stats::FrameStats;
