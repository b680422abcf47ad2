//! Shape pairs: which shapes of two bodies the narrow phase pairs. The
//! broad phase pairs bodies (each body's box holds all its shapes); a
//! world whose bodies all have one solid shape with the default filter
//! pairs those shapes one to one, and the pair cache keys its pairs by
//! body pair alone. Once a body with several shapes, a sensor or a filter
//! is added, the cache keys its pairs by body pair then [`ShapePair`], and
//! each body pair the broad phase reports is expanded here into the pairs
//! of shapes that may touch: never two shapes of one body (a body pair
//! has two bodies), never two sensors, never a pair the shapes' filters
//! exclude ([`Filter::collides_with`](crate::Filter::collides_with)), never
//! two bodies [`bodies_may_collide`] refuses. Pairs with a sensor go to the
//! sensor list, the others to the pair cache: a filtered pair never
//! reaches the narrow phase, and a sensor pair never reaches the solver.

use crate::body::storage::Bodies;

/// Which shapes of a pair's two bodies a cached pair is: each shape's
/// index among its body's shapes (so at most
/// [`MAX_BODY_SHAPES`](crate::MAX_BODY_SHAPES), which fits).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) struct ShapePair {
    /// Shape of body A.
    pub a: u16,
    /// Shape of body B.
    pub b: u16,
}

/// A pair of shapes: body A's slot, body B's slot (A's is smaller), and
/// which of their shapes. Sorted as tuples are: by bodies, then shapes.
pub(crate) type ShapeKey = (u32, u32, ShapePair);

/// The expanded shape pairs of one merge, kept so that a warm merge
/// allocates nothing.
#[derive(Debug, Default)]
pub(crate) struct ShapePairScratch {
    /// Pairs of two solid shapes, for the pair cache.
    pub solid: Vec<ShapeKey>,
    /// Pairs with a sensor, for the sensor pairs.
    pub sensor: Vec<ShapeKey>,
}

/// Whether the bodies in slots `a` and `b` may touch at all: not when a
/// joint joins them that does not let them collide (Box2D's
/// `collideConnected`; see [`crate::joint::joined_pairs`]).
#[inline]
pub(crate) fn bodies_may_collide(bodies: &Bodies, a: u32, b: u32) -> bool {
    !bodies.joined.contains(a, b)
}

/// Expands the broad phase's sorted body `pairs` into the sorted shape
/// pairs that may touch, the solid ones into `solid` and those with a
/// sensor into `sensor` (both cleared first).
pub(crate) fn expand_pairs(
    bodies: &Bodies,
    pairs: &[(u32, u32)],
    solid: &mut Vec<ShapeKey>,
    sensor: &mut Vec<ShapeKey>,
) {
    solid.clear();
    sensor.clear();
    let shapes = &bodies.shapes;
    for &(a, b) in pairs {
        if !bodies_may_collide(bodies, a, b) {
            continue;
        }
        let (range_a, range_b) = (bodies.shape_ranges[a as usize], bodies.shape_ranges[b as usize]);
        for (ia, ka) in range_a.slots().enumerate() {
            for (ib, kb) in range_b.slots().enumerate() {
                let (sensor_a, sensor_b) = (shapes.sensors[ka], shapes.sensors[kb]);
                if (sensor_a && sensor_b) || !shapes.filters[ka].collides_with(&shapes.filters[kb])
                {
                    continue;
                }
                let key = (a, b, ShapePair { a: ia as u16, b: ib as u16 });
                if sensor_a || sensor_b { sensor.push(key) } else { solid.push(key) }
            }
        }
    }
}
