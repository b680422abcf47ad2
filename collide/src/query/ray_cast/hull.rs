//! Ray against a convex hull by half-space clipping (Haines, "Fast
//! Ray–Convex Polyhedron Intersection", Graphics Gems II, 1991; Ericson
//! §5.3.8): the hull is the intersection of its faces' half-spaces, so the
//! ray is inside it exactly on the intersection of the parameter intervals
//! where it is behind each face plane. Entering planes raise the entry,
//! leaving planes lower the exit; an empty interval is a miss. The face
//! planes are exact outputs of the hull construction (`HullFace`), so no
//! iteration is needed.
//!
//! Departure: a flat hull (a convex polygon, `ConvexHull::is_flat`) has two
//! faces of opposite normals and no side faces, so it is also clipped by the
//! planes through its edges perpendicular to the polygon, and its two face
//! planes are pushed out by a few ulps of rounding, so a ray that lies in
//! the polygon's plane enters it through an edge, with that edge's in-plane
//! normal, instead of missing a slab of zero width.

use nalgebra::Vector3;

use super::ray::{CastRay, LocalRayCast, Ray};
use crate::shape::ConvexHull;

impl CastRay for ConvexHull {
    fn cast_local_ray(&self, ray: &Ray, max_toi: f32) -> LocalRayCast {
        let mut clip = Clip::new(max_toi);
        let mut inside = true;
        // A flat hull's two faces bound a slab of zero width, which a ray
        // lying in the polygon's plane would miss or hit by the rounding of
        // its origin; they are pushed out by that rounding.
        let slack = if self.is_flat() { flat_slack(self, ray) } else { 0.0 };
        for face in self.faces() {
            let normal = face.normal.into_inner();
            inside &= clip.plane(ray, &normal, face.offset + slack);
        }
        if self.is_flat() {
            for (normal, offset) in self.side_planes() {
                inside &= clip.plane(ray, &normal, offset);
            }
        }
        if inside {
            return LocalRayCast::StartsInside;
        }
        clip.finish(max_toi)
    }
}

/// Relative f32 rounding of a point on a flat hull's plane, in ulps of the
/// largest coordinate in play (the ray's origin in the hull's frame, or the
/// hull's vertices): the rounding of moving the ray into the hull's frame
/// and of the plane offset.
const FLAT_SLACK_ULPS: f32 = 8.0;

/// Half-width given to a flat hull's slab: `FLAT_SLACK_ULPS` ulps of the
/// largest coordinate in play.
fn flat_slack(hull: &ConvexHull, ray: &Ray) -> f32 {
    let reach =
        hull.vertices().iter().fold(ray.origin.coords.amax(), |m, v| m.max(v.coords.amax()));
    FLAT_SLACK_ULPS * f32::EPSILON * reach
}

/// The parameter interval `[enter, exit]` where the ray is behind every
/// plane seen so far, and the normal of the plane that set `enter`.
struct Clip {
    enter: f32,
    exit: f32,
    normal: Option<Vector3<f32>>,
}

impl Clip {
    fn new(max_toi: f32) -> Self {
        Self { enter: 0.0, exit: max_toi, normal: None }
    }

    /// Clips by the half-space `normal · x ≤ offset`; returns whether the
    /// origin is in it.
    fn plane(&mut self, ray: &Ray, normal: &Vector3<f32>, offset: f32) -> bool {
        // Height of the origin below the plane (≥ 0 behind it) and the
        // rate at which the ray climbs towards it.
        let below = offset - normal.dot(&ray.origin.coords);
        let climb = normal.dot(&ray.dir);
        if climb < 0.0 {
            // Descending: behind the plane from t = below / climb on.
            let t = below / climb;
            if t > self.enter {
                self.enter = t;
                self.normal = Some(*normal);
            }
        } else if climb > 0.0 {
            // Climbing: behind it until t = below / climb.
            self.exit = self.exit.min(below / climb);
        } else if !(below >= 0.0) {
            // Parallel and in front (or NaN): never behind it.
            self.exit = f32::NEG_INFINITY;
        }
        below >= 0.0
    }

    fn finish(self, max_toi: f32) -> LocalRayCast {
        match self.normal {
            Some(normal) if self.enter <= self.exit => {
                LocalRayCast::within(self.enter, normal, max_toi)
            }
            _ => LocalRayCast::Miss,
        }
    }
}
