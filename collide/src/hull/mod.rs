//! Hull construction: our own quickhull (triangles, exact visibility) followed
//! by merging of coplanar triangles into polygon faces. Hull support
//! strategies will live here later.

mod face_merge;
mod quickhull;

pub(crate) use face_merge::merge_faces;
pub(crate) use quickhull::{Cloud, triangle_hull};
