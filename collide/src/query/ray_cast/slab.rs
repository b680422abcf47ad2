//! The parameter interval in which a ray lies between two planes
//! `y = -h` and `y = h`: the caps of cylinders and cones along local Y.

/// Where a ray `o + t d` (its y components given) is within `|y| ≤ h`:
/// the entry and exit parameters, infinite for a ray parallel to the
/// planes between them, or `None` for one parallel and outside.
#[inline]
pub(crate) fn slab_interval(o_y: f64, d_y: f64, h: f64) -> Option<(f64, f64)> {
    if d_y != 0.0 {
        let (near, far) = if d_y > 0.0 { (-h, h) } else { (h, -h) };
        Some(((near - o_y) / d_y, (far - o_y) / d_y))
    } else if o_y.abs() <= h {
        Some((f64::NEG_INFINITY, f64::INFINITY))
    } else {
        None
    }
}
