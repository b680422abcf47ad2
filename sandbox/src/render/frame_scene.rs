//! The frame description the renderer draws: everything it reads per frame.
//!
//! The app fills a `FrameScene` from the physics world (or from anything
//! else); the renderer never sees the world itself. Keep one `FrameScene`
//! alive and [`clear`](FrameScene::clear) it each frame to reuse its vectors.

use super::{
    Camera, Color, DebugLine, DirectionalLight, DrawInstance, PointMarker, TranslucentMesh,
};

/// A vertical sky gradient.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Sky {
    /// The colour straight up.
    pub zenith: Color,
    /// The colour at the horizon.
    pub horizon: Color,
    /// The colour looking straight down (below the ground's edge).
    pub nadir: Color,
}

impl Default for Sky {
    fn default() -> Self {
        Self {
            zenith: Color::rgb(0.36, 0.58, 0.88),
            horizon: Color::rgb(0.80, 0.87, 0.94),
            nadir: Color::rgb(0.55, 0.57, 0.60),
        }
    }
}

/// The ground plane at `y = 0` with a procedural grid.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Ground {
    /// Half the side of the square ground, centred on the origin.
    pub half_extent: f32,
    /// The distance between minor grid lines; every fifth line is major.
    pub cell_size: f32,
    /// The ground colour.
    pub color: Color,
    /// The grid line colour.
    pub line_color: Color,
}

impl Default for Ground {
    fn default() -> Self {
        Self {
            half_extent: 200.0,
            cell_size: 1.0,
            color: Color::rgb(0.72, 0.72, 0.70),
            line_color: Color::rgb(0.50, 0.50, 0.49),
        }
    }
}

/// Everything drawn in one frame.
#[derive(Debug, Clone, PartialEq)]
pub struct FrameScene {
    /// The camera.
    pub camera: Camera,
    /// The sun and its shadow.
    pub light: DirectionalLight,
    /// The sky gradient behind everything.
    pub sky: Sky,
    /// The ground grid at `y = 0`, or `None` for no ground.
    pub ground: Option<Ground>,
    /// Mesh instances, in any order; the renderer groups them by mesh.
    pub instances: Vec<DrawInstance>,
    /// Brightness factor applied to sleeping instances, `0..=1`.
    pub sleeping_brightness: f32,
    /// Debug lines.
    pub lines: Vec<DebugLine>,
    /// Point markers.
    pub points: Vec<PointMarker>,
    /// Translucent meshes, blended in order.
    pub translucent: Vec<TranslucentMesh>,
}

impl FrameScene {
    /// An empty scene with the default light, sky and ground.
    pub fn new(camera: Camera) -> Self {
        Self {
            camera,
            light: DirectionalLight::default(),
            sky: Sky::default(),
            ground: Some(Ground::default()),
            instances: Vec::new(),
            sleeping_brightness: 0.55,
            lines: Vec::new(),
            points: Vec::new(),
            translucent: Vec::new(),
        }
    }

    /// Removes all instances and overlays, keeping the allocations.
    pub fn clear(&mut self) {
        self.instances.clear();
        self.lines.clear();
        self.points.clear();
        self.translucent.clear();
    }

    /// Adds the twelve edges of an axis-aligned box as debug lines.
    pub fn push_aabb(
        &mut self,
        min: nalgebra::Point3<f32>,
        max: nalgebra::Point3<f32>,
        color: Color,
    ) {
        let corner = |i: usize| {
            nalgebra::Point3::new(
                if i & 1 == 0 { min.x } else { max.x },
                if i & 2 == 0 { min.y } else { max.y },
                if i & 4 == 0 { min.z } else { max.z },
            )
        };
        // Two corners share an edge when their indices differ in one bit.
        for a in 0..8 {
            for bit in [1, 2, 4] {
                if a & bit == 0 {
                    self.lines.push(DebugLine { start: corner(a), end: corner(a | bit), color });
                }
            }
        }
    }
}
