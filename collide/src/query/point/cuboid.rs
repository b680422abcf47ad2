//! Point projection onto an axis-aligned box centred on the origin, in
//! closed form (Ericson, *Real-Time Collision Detection*, §5.1.3): outside,
//! the nearest point clamps each coordinate to the box, and the number of
//! coordinates on the box's bounds says whether it lies on a face (one), an
//! edge (two) or a corner (three); inside, it is the foot on the nearest
//! face plane.

use nalgebra::{Point3, Vector3};

use super::projection::{PointFeature, PointProjection};

/// Projects `p` (shape frame) onto the box `[-half, half]`. Feature
/// indices follow [`PointFeature`]'s cuboid convention.
#[inline]
pub(super) fn project(half: &Vector3<f32>, p: &Point3<f32>, solid: bool) -> PointProjection {
    let outside = (0..3).any(|k| p[k].abs() > half[k]);
    if !outside {
        return inside(half, p, solid);
    }
    let mut point = *p;
    // Bit k set in `bound`: the nearest point's coordinate k is on one of
    // the box's bounds (clamped, or already there), so the point is on
    // that face plane. Bit k set in `positive`: the positive one. Corner
    // indices use the same bits.
    let mut bound = 0u32;
    let mut positive = 0u32;
    for k in 0..3 {
        if p[k] >= half[k] {
            point[k] = half[k];
            bound |= 1 << k;
            positive |= 1 << k;
        } else if p[k] <= -half[k] {
            point[k] = -half[k];
            bound |= 1 << k;
        }
    }
    let feature = match bound.count_ones() {
        1 => {
            let axis = bound.trailing_zeros();
            PointFeature::Face(2 * axis + (positive >> axis & 1))
        }
        2 => {
            // The free axis varies along the edge: its two corners differ
            // in that bit only.
            let free = (!bound & 0b111).trailing_zeros();
            PointFeature::Edge([positive, positive | 1 << free])
        }
        _ => PointFeature::Vertex(positive),
    };
    PointProjection::exact(point, false, feature)
}

/// `p` inside the closed box: itself when `solid`, or else its foot on the
/// face plane nearest to it (ties go to the lower axis; the positive side
/// when the coordinate is zero).
#[inline]
fn inside(half: &Vector3<f32>, p: &Point3<f32>, solid: bool) -> PointProjection {
    if solid {
        return PointProjection::interior(*p);
    }
    let mut axis = 0;
    let mut depth = f32::INFINITY;
    for k in 0..3 {
        let d = half[k] - p[k].abs();
        if d < depth {
            depth = d;
            axis = k;
        }
    }
    let up = p[axis] >= 0.0;
    let mut point = *p;
    point[axis] = if up { half[axis] } else { -half[axis] };
    PointProjection::exact(point, true, PointFeature::Face(2 * axis as u32 + up as u32))
}
