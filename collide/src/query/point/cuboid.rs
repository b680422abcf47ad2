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
///
/// Written with comparisons turned into bits and a component-wise clamp
/// rather than a branch per axis: on a stream of points around a box,
/// which axes clamp is unpredictable, and a mispredicted branch per axis
/// cost more than the whole projection.
#[inline(always)]
pub(super) fn project(half: &Vector3<f32>, p: &Point3<f32>, solid: bool) -> PointProjection {
    let h = half;
    let outside = (p.x.abs() > h.x) | (p.y.abs() > h.y) | (p.z.abs() > h.z);
    if !outside {
        return inside(half, p, solid);
    }
    // Bit k of `positive` / `negative`: the nearest point's coordinate k is
    // on the box's positive / negative bound (clamped, or already there),
    // so it lies on that face plane. Corner indices use the same bits (a
    // zero extent, on both bounds at once, counts as positive).
    let bits = |x: f32, y: f32, z: f32| {
        (x >= 0.0) as u32 | ((y >= 0.0) as u32) << 1 | ((z >= 0.0) as u32) << 2
    };
    let positive = bits(p.x - h.x, p.y - h.y, p.z - h.z);
    let negative = bits(-h.x - p.x, -h.y - p.y, -h.z - p.z);
    let bound = positive | negative;
    let point = Point3::from(p.coords.sup(&-h).inf(h));
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
