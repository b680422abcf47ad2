//! Convex hulls: construction (our own quickhull on triangles with exact
//! visibility, then merging of coplanar triangles into polygon faces) and the
//! support strategies a hull can answer queries with; a coplanar cloud
//! becomes a flat hull, a convex polygon (`flat`).

mod face_merge;
mod face_planes;
mod flat;
mod quickhull;
pub(crate) mod support;

pub(crate) use face_merge::merge_faces;
pub(crate) use face_planes::FacePlanes;
pub(crate) use flat::flat_polygon;
pub(crate) use quickhull::{Cloud, triangle_hull};
