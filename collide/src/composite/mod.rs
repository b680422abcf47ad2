//! Triangle meshes, heightfields and compounds, and every query between
//! them and convex shapes.
//!
//! The three types are [`Shape`](crate::Shape) variants
//! ([`Shape::TriMesh`](crate::Shape::TriMesh),
//! [`Shape::HeightField`](crate::Shape::HeightField),
//! [`Shape::Compound`](crate::Shape::Compound)), so a world stores them as it
//! stores any shape. They are not convex, so the convex queries refuse them
//! (see [`Shape`](crate::Shape)); the queries here take any pair of shapes
//! (convex pairs go straight to the convex query), walk the composite's
//! parts that can matter through its bounding-volume hierarchy (or, for a
//! heightfield, its grid), run the convex query on each pair of convex
//! parts, and answer with the indices of the parts found ([`OnParts`],
//! [`PartIds`]). No query allocates.
//!
//! Contacts with a mesh or heightfield are corrected for *ghost* contacts
//! (see `edges`): a contact on an internal edge a smooth surface would not
//! have gets the face's normal, so a box sliding over a flat floor of many
//! triangles is only ever pushed up.
//!
//! ```
//! use collide::composite::{self, ManifoldSet, TriMesh};
//! use collide::{Cuboid, Shape};
//! use collide::nalgebra::{Isometry3, Point3, Vector3};
//!
//! // A 2 × 2 m floor of two triangles, and a cube resting 1 mm into it.
//! let floor: Shape = TriMesh::try_new(
//!     vec![
//!         Point3::new(-1.0, 0.0, -1.0), Point3::new(-1.0, 0.0, 1.0),
//!         Point3::new(1.0, 0.0, 1.0), Point3::new(1.0, 0.0, -1.0),
//!     ],
//!     vec![[0, 1, 2], [2, 3, 0]],
//! )
//! .unwrap()
//! .into();
//! let cube: Shape = Cuboid::new(Vector3::repeat(0.25)).into();
//! let pose = Isometry3::translation(0.1, 0.249, 0.0);
//! let mut set = ManifoldSet::new();
//! composite::try_contact_manifolds(&floor, &Isometry3::identity(), &cube, &pose, 0.01, &mut set)
//!     .unwrap();
//! // One manifold per triangle under the cube (it straddles the diagonal),
//! // every point pushed straight up, 1 mm deep.
//! assert_eq!(set.len(), 2);
//! assert!(set.points().all(|(p, n, _)| (n.y - 1.0).abs() < 1e-6 && (p.separation + 0.001).abs() < 1e-5));
//! ```

mod bounding_aabb;
mod compound;
mod earliest;
mod edges;
mod error;
mod exact_aabb;
mod expansion;
mod face_axes;
mod ghost;
mod heightfield;
mod hull_corners;
mod manifolds;
mod pairs;
mod part_caches;
mod parts;
mod point;
mod proximity;
mod ray;
mod results;
mod shape_cast;
mod support_span;
mod time_of_impact;
mod trimesh;

pub use bounding_aabb::bounding_aabb;
pub use compound::Compound;
pub use edges::{EdgeKind, FLAT_EDGE_ANGLE};
pub use error::CompositeError;
pub use heightfield::HeightField;
pub use manifolds::{
    contact_manifolds, contact_manifolds_cached, try_contact_manifolds,
    try_contact_manifolds_cached,
};
pub use part_caches::{MAX_PART_CACHES, PartCaches};
pub use point::{
    contains_point, distance_to_point, project_point, try_contains_point, try_distance_to_point,
    try_project_point,
};
pub use proximity::{
    closest_points, contact, intersects, penetration, try_closest_points, try_contact,
    try_intersects, try_penetration,
};
pub use ray::{cast_ray, try_cast_ray};
pub use results::{MAX_PART_MANIFOLDS, ManifoldSet, OnParts, PartIds, PartManifold};
pub use shape_cast::{shape_cast, try_shape_cast};
pub use time_of_impact::{time_of_impact, try_time_of_impact};
pub use trimesh::TriMesh;

pub(crate) use parts::CompositeRef;
pub(crate) use point::project_local;
pub(crate) use ray::cast_local;
