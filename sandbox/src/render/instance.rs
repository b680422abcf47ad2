//! One mesh instance to draw: a shape with its size, a pose and a colour.
//!
//! Every instance of a [`MeshKind`] shares one GPU mesh and the renderer
//! draws each kind with one instanced draw call. The per-instance size lives
//! in [`DrawShape`], so one unit mesh serves every cuboid, sphere, capsule,
//! cylinder or cone (round kinds have one mesh per level of detail, picked
//! per instance: level_of_detail.rs).

use nalgebra::{Isometry3, Vector3};

use super::Color;

/// The id of a hull mesh registered with
/// [`Renderer::register_hull`](super::Renderer::register_hull).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct HullMeshId(pub u32);

/// Which GPU mesh an instance uses; the renderer issues one draw per kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MeshKind {
    /// The unit cube, scaled by half extents.
    Cube,
    /// The unit sphere, scaled by the radius.
    Sphere,
    /// The unit capsule: hemispheres pushed apart by the half height.
    Capsule,
    /// The unit cylinder along Y, scaled by radius and half height.
    Cylinder,
    /// The unit cone along Y (apex at +Y), scaled by radius and half height.
    Cone,
    /// A registered hull mesh.
    Hull(HullMeshId),
}

/// A shape with its size, in the body's local frame.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum DrawShape {
    /// A box centred on the local origin.
    Cuboid {
        /// Half the box size along local X, Y and Z.
        half_extents: Vector3<f32>,
    },
    /// A sphere centred on the local origin.
    Sphere {
        /// The radius.
        radius: f32,
    },
    /// A capsule along local Y centred on the local origin.
    Capsule {
        /// The radius of the hemispheres and the cylinder.
        radius: f32,
        /// Half the length of the cylinder part (the segment's half length).
        half_height: f32,
    },
    /// A cylinder along local Y centred on the local origin, with flat caps.
    Cylinder {
        /// The radius.
        radius: f32,
        /// Half the length along Y.
        half_height: f32,
    },
    /// A cone along local Y centred on the local origin: apex at
    /// `+half_height`, base disc at `-half_height` (as `collide`'s cone).
    Cone {
        /// The radius of the base.
        radius: f32,
        /// Half the distance from the base to the apex.
        half_height: f32,
    },
    /// A registered hull mesh, scaled per axis (use `(1, 1, 1)` for the
    /// mesh as registered).
    Hull {
        /// The mesh id.
        id: HullMeshId,
        /// Scale along local X, Y and Z.
        scale: Vector3<f32>,
    },
}

impl DrawShape {
    /// The mesh this shape is drawn with.
    pub fn mesh_kind(&self) -> MeshKind {
        match self {
            Self::Cuboid { .. } => MeshKind::Cube,
            Self::Sphere { .. } => MeshKind::Sphere,
            Self::Capsule { .. } => MeshKind::Capsule,
            Self::Cylinder { .. } => MeshKind::Cylinder,
            Self::Cone { .. } => MeshKind::Cone,
            Self::Hull { id, .. } => MeshKind::Hull(*id),
        }
    }

    /// The per-axis scale applied to the unit mesh, and the capsule half
    /// height that pushes its hemispheres apart along local Y.
    pub(crate) fn scale_and_half_height(&self) -> (Vector3<f32>, f32) {
        match *self {
            Self::Cuboid { half_extents } => (half_extents, 0.0),
            Self::Sphere { radius } => (Vector3::repeat(radius), 0.0),
            Self::Capsule { radius, half_height } => (Vector3::repeat(radius), half_height),
            Self::Cylinder { radius, half_height } | Self::Cone { radius, half_height } => {
                (Vector3::new(radius, half_height, radius), 0.0)
            }
            Self::Hull { scale, .. } => (scale, 0.0),
        }
    }

    /// The radius of a sphere around the local origin that bounds the shape
    /// (for a hull, `hull_radius` is the registered mesh's bound).
    pub(crate) fn bounding_radius(&self, hull_radius: f32) -> f32 {
        match *self {
            Self::Cuboid { half_extents } => half_extents.norm(),
            Self::Sphere { radius } => radius,
            Self::Capsule { radius, half_height } => radius + half_height,
            // The base rim is the farthest point of either.
            Self::Cylinder { radius, half_height } | Self::Cone { radius, half_height } => {
                radius.hypot(half_height)
            }
            Self::Hull { scale, .. } => hull_radius * scale.amax(),
        }
    }
}

/// A mesh instance in the frame.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DrawInstance {
    /// The shape and its size.
    pub shape: DrawShape,
    /// The pose of the shape's frame in the world.
    pub world_from_local: Isometry3<f32>,
    /// The body colour.
    pub color: Color,
    /// A sleeping body is drawn dimmer (see [`FrameScene::sleeping_brightness`](super::FrameScene::sleeping_brightness)).
    pub sleeping: bool,
}

impl DrawInstance {
    /// An awake instance.
    pub fn new(shape: DrawShape, world_from_local: Isometry3<f32>, color: Color) -> Self {
        Self { shape, world_from_local, color, sleeping: false }
    }
}
