//! The one view of a mesh, heightfield or compound the queries walk: its
//! convex parts (triangles, or a compound's shapes at their local poses)
//! overlapping a box, or swept by a moving box, each handed to a callback
//! as a borrowed [`Shape`] with its index, its pose in the composite's
//! frame and, for a triangle, its corners and active edges.
//!
//! A triangle is built on the stack for the callback (a `Shape::Triangle`
//! holds no heap data), so no walk allocates.

use nalgebra::{Isometry3, Point3, Vector3};

use super::compound::Compound;
use super::heightfield::HeightField;
use super::trimesh::TriMesh;
use crate::aabb::Aabb;
use crate::bvh::RayControl;
use crate::shape::{Shape, Triangle};

/// A composite shape, borrowed.
#[derive(Clone, Copy, Debug)]
pub(crate) enum CompositeRef<'s> {
    Mesh(&'s TriMesh),
    Field(&'s HeightField),
    Compound(&'s Compound),
}

impl<'s> CompositeRef<'s> {
    /// The composite behind `shape`, if it is one.
    pub(crate) fn of(shape: &'s Shape) -> Option<Self> {
        match shape {
            Shape::TriMesh(m) => Some(Self::Mesh(m)),
            Shape::HeightField(f) => Some(Self::Field(f)),
            Shape::Compound(c) => Some(Self::Compound(c)),
            _ => None,
        }
    }

    /// The box of the whole composite in its own frame.
    pub(crate) fn local_aabb(&self) -> Aabb {
        match self {
            Self::Mesh(m) => m.local_aabb(),
            Self::Field(f) => f.local_aabb(),
            Self::Compound(c) => c.local_aabb(),
        }
    }

    /// Whether the parts are triangles of a surface (whose contacts get
    /// the identified-edge correction) rather than solid parts.
    pub(crate) fn is_surface(&self) -> bool {
        !matches!(self, Self::Compound(_))
    }
}

/// A triangle part's corners (composite frame) and active-edge mask.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Face {
    pub(crate) corners: [Point3<f32>; 3],
    pub(crate) active: u8,
    /// The convex shape it is paired with, measured along
    /// [`normal`](Self::normal) by the walk's plane test, when it ran
    /// (world frame, as the corners then are).
    pub(crate) span: Option<Span>,
}

/// A convex shape's support points along a face's unit normal `n`: the
/// lowest (along `-n`) and the highest (along `n`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Span {
    pub(crate) lowest: Point3<f32>,
    pub(crate) highest: Point3<f32>,
    /// The face's unit normal `n` they were measured along (what
    /// [`Face::normal`] gives), kept so the face's later users need not
    /// find it again.
    pub(crate) normal: Vector3<f32>,
}

impl Face {
    /// The unit front normal, in the frame of the corners (`None` for a
    /// sliver): the one the span was measured along, if it was.
    #[inline]
    pub(crate) fn normal(&self) -> Option<Vector3<f32>> {
        if let Some(span) = &self.span {
            return Some(span.normal);
        }
        let [a, b, c] = self.corners;
        (b - a).cross(&(c - a)).try_normalize(0.0)
    }
}

/// One convex part, as a walk hands it to its callback.
pub(crate) struct Part<'p> {
    /// The triangle's or the compound part's index.
    pub(crate) index: u32,
    /// The part.
    pub(crate) shape: &'p Shape,
    /// Its pose in the composite's frame (`composite_from_part`).
    pub(crate) pose: &'p Isometry3<f32>,
    /// For a triangle: its corners and active edges.
    pub(crate) face: Option<Face>,
}

/// Calls `f` with triangle `index` of corners `corners` and mask `active`.
#[inline]
fn with_triangle<R>(
    index: u32,
    corners: [Point3<f32>; 3],
    active: u8,
    f: impl FnOnce(Part<'_>) -> R,
) -> R {
    let [a, b, c] = corners;
    let shape = Shape::Triangle(Triangle::new(a, b, c));
    let identity = Isometry3::identity();
    f(Part {
        index,
        shape: &shape,
        pose: &identity,
        face: Some(Face { corners, active, span: None }),
    })
}

impl CompositeRef<'_> {
    /// Calls `on_part` with every part whose box overlaps `aabb` (composite
    /// frame) until it returns `false`; returns whether it was stopped.
    pub(crate) fn visit_overlapping(
        &self,
        aabb: &Aabb,
        mut on_part: impl FnMut(Part<'_>) -> bool,
    ) -> bool {
        match self {
            Self::Mesh(m) => {
                let t = m.bvh().query_aabb(aabb, |i| {
                    with_triangle(i, m.corners(i), m.active_edges(i), &mut on_part)
                });
                t == crate::bvh::Traversal::Stopped
            }
            Self::Field(hf) => hf.visit_triangles(aabb, |i, corners| {
                with_triangle(i, corners, hf.active_edges(i), &mut on_part)
            }),
            Self::Compound(c) => {
                let t = c.bvh().query_aabb(aabb, |i| {
                    let (shape, pose) = &c.parts()[i as usize];
                    on_part(Part { index: i, shape, pose, face: None })
                });
                t == crate::bvh::Traversal::Stopped
            }
        }
    }

    /// Calls `on_part` with every part whose box `aabb` (composite frame)
    /// touches while moving by `t · motion`, `t ∈ [0, max_toi]`, with the
    /// first such `t` (nearest first in a hierarchy; a heightfield hands
    /// over the cells of the swept box in grid order with `t = 0`). The
    /// callback steers the walk as for [`StaticBvh::cast_aabb`](crate::StaticBvh::cast_aabb).
    pub(crate) fn visit_swept(
        &self,
        aabb: &Aabb,
        motion: &Vector3<f32>,
        max_toi: f32,
        mut on_part: impl FnMut(Part<'_>, f32) -> RayControl,
    ) {
        match self {
            Self::Mesh(m) => {
                m.bvh().cast_aabb(aabb, motion, max_toi, |i, t| {
                    with_triangle(i, m.corners(i), m.active_edges(i), |p| on_part(p, t))
                });
            }
            Self::Field(hf) => {
                let Some((t0, t1)) = overlap_interval(aabb, motion, &hf.local_aabb(), max_toi)
                else {
                    return;
                };
                let start = Aabb::new(aabb.min + motion * t0, aabb.max + motion * t0);
                // An unbounded interval means no motion (every axis bounds a moving box).
                let span = if t1.is_finite() { t1 - t0 } else { 0.0 };
                let swept = start.swept(&(motion * span));
                hf.visit_triangles(&swept, |i, corners| {
                    let control = with_triangle(i, corners, hf.active_edges(i), |p| on_part(p, t0));
                    control != RayControl::Stop
                });
            }
            Self::Compound(c) => {
                c.bvh().cast_aabb(aabb, motion, max_toi, |i, t| {
                    let (shape, pose) = &c.parts()[i as usize];
                    on_part(Part { index: i, shape, pose, face: None }, t)
                });
            }
        }
    }
}

/// The times `t ∈ [0, max_toi]` over which `aabb` moved by `t · motion`
/// overlaps `target`, as one interval, or `None` if it never does. Each
/// axis bounds `t` by a slab; comparisons are written so that NaN gives
/// `None`.
fn overlap_interval(
    aabb: &Aabb,
    motion: &Vector3<f32>,
    target: &Aabb,
    max_toi: f32,
) -> Option<(f32, f32)> {
    let (mut t0, mut t1) = (0.0f32, max_toi);
    for k in 0..3 {
        // Overlap on axis k: aabb.min + t m ≤ target.max and aabb.max + t m ≥ target.min.
        let (lo, hi, m) = (target.min[k] - aabb.max[k], target.max[k] - aabb.min[k], motion[k]);
        if m == 0.0 {
            if !(lo <= 0.0 && 0.0 <= hi) {
                return None;
            }
        } else {
            let (a, b) = (lo / m, hi / m);
            t0 = t0.max(a.min(b));
            t1 = t1.min(a.max(b));
        }
    }
    (t0 <= t1).then_some((t0, t1))
}
