//! Joints: their handles and descriptions, the checks their values pass,
//! the world's storage of them, the body pairs they keep from colliding,
//! and the view the app draws them from.

pub(crate) mod checks;
pub(crate) mod desc;
pub(crate) mod joined_pairs;
pub(crate) mod storage;
pub(crate) mod view;

pub use desc::{
    DEFAULT_JOINT_SOFTNESS, JointDesc, JointFrames, JointId, JointKind, Motor, Softness,
};
pub use view::JointView;
