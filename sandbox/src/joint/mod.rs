//! Joints: their handles and descriptions, the checks their values pass,
//! the world's storage of them, the body pairs they keep from colliding,
//! the view the app draws them from, and their solver: preparation once
//! per step, then warm start, push and relax in each substep of the soft
//! step (`solve_joints.rs`), with one file of rows per kind; the point
//! joints are coloured (`joint_colours.rs`) and solved four at a time in
//! SIMD lanes (`point_batches.rs`, `wide.rs`).

pub(crate) mod checks;
pub(crate) mod desc;
mod distance;
pub(crate) mod joined_pairs;
mod joint_colours;
pub(crate) mod point_batches;
mod point_substeps;
pub(crate) mod prepare;
mod prismatic;
mod revolute;
pub(crate) mod rows;
pub(crate) mod soft;
pub(crate) mod solve_joints;
mod spherical;
pub(crate) mod storage;
mod tree_solve;
pub(crate) mod view;
mod weld;
mod wide;

pub use desc::{
    DEFAULT_JOINT_SOFTNESS, JointDesc, JointFrames, JointId, JointKind, Motor, Softness,
};
pub use view::JointView;
