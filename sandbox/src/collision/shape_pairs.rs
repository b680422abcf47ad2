//! Shape pairs: which shapes of two bodies the narrow phase pairs. The
//! broad phase is two-level: its first level pairs bodies (each body's box
//! holds all its shapes), and here, the second, a body pair where either
//! body has several shapes keeps only the shape pairs whose own fat boxes
//! overlap (`ShapeStore::fat`, refitted by the broad phase; a body of one
//! shape is tested with its body box, which is its shape's). So a drum of
//! 40 hulls around a cube pairs the cube only with the hulls near it, as a
//! broad phase of one box per shape would, while the first level, the
//! body pairs and everything keyed by them (the pair cache, islands,
//! sleeping), stay as they are, and a world of one-shape bodies is not
//! touched at all.
//!
//! A world whose bodies all have one solid shape with the default filter
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

use crate::body::shape_store::ShapeRange;
use crate::body::storage::Bodies;
use crate::collision::aabb::Aabb;
use crate::workers::Workers;

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

/// Body pairs one worker expands at a time in [`expand_pairs_on`]: each
/// costs tens of nanoseconds for two one-shape bodies and a few hundred
/// for a cube beside washer's drum of 40 hulls.
const BODY_PAIRS_PER_RUN: usize = 4096;

/// The expanded shape pairs of one merge, kept so that a warm merge
/// allocates nothing.
#[derive(Debug, Default)]
pub(crate) struct ShapePairScratch {
    /// Pairs of two solid shapes, for the pair cache.
    pub solid: Vec<ShapeKey>,
    /// Pairs with a sensor, for the sensor pairs.
    pub sensor: Vec<ShapeKey>,
    /// Per run of [`BODY_PAIRS_PER_RUN`] body pairs expanded on the
    /// workers: its solid and its sensor pairs.
    runs: Vec<(Vec<ShapeKey>, Vec<ShapeKey>)>,
}

/// [`expand_pairs`] into `scratch`'s lists, on the workers when the step
/// splits: each fixed run of body pairs is expanded into its own lists,
/// which are then joined in order, so the lists are the same as one
/// thread's (the runs' bounds depend on the pairs alone).
pub(crate) fn expand_pairs_on(
    bodies: &Bodies,
    pairs: &[(u32, u32)],
    body_fat: &[Aabb],
    scratch: &mut ShapePairScratch,
    workers: &Workers,
) {
    let ShapePairScratch { solid, sensor, runs } = scratch;
    if !workers.splits() || pairs.len() <= BODY_PAIRS_PER_RUN {
        expand_pairs(bodies, pairs, body_fat, solid, sensor);
        return;
    }
    let count = pairs.len().div_ceil(BODY_PAIRS_PER_RUN);
    if runs.len() < count {
        runs.resize_with(count, Default::default);
    }
    workers.for_each(&mut runs[..count], |k, (run_solid, run_sensor)| {
        let first = k * BODY_PAIRS_PER_RUN;
        let run = &pairs[first..pairs.len().min(first + BODY_PAIRS_PER_RUN)];
        expand_pairs(bodies, run, body_fat, run_solid, run_sensor);
    });
    solid.clear();
    sensor.clear();
    for (run_solid, run_sensor) in &runs[..count] {
        solid.extend_from_slice(run_solid);
        sensor.extend_from_slice(run_sensor);
    }
}

/// Whether the bodies in slots `a` and `b` may touch at all: not when a
/// joint joins them that does not let them collide (Box2D's
/// `collideConnected`; see [`crate::joint::joined_pairs`]).
#[inline]
pub(crate) fn bodies_may_collide(bodies: &Bodies, a: u32, b: u32) -> bool {
    !bodies.joined.contains(a, b)
}

/// Whether the bodies in slots `a` and `b` may give any shape pair at all
/// in [`expand_pairs`]: a test the broad phase makes as it finds a pair,
/// so that pairs which could only be dropped here are never listed,
/// sorted and merged (joint-grid's 40,000 pairs a step, all filtered or
/// joined). It refuses only pairs that [`expand_pairs`] gives nothing
/// for, so the expansion of what is left is the same: bodies of one
/// shape each whose shapes are both sensors or whose filters exclude each
/// other (the per-shape test of [`expand_pairs`], exact for one shape
/// each), and bodies a joint keeps apart ([`bodies_may_collide`]). A pair
/// with a body of several shapes is left to the expansion's own tests.
/// The filter comes first: it is two loads and a compare, where the
/// joined test is a hash lookup (box3d's pair callback orders its tests
/// the same way, `b3ShouldShapesCollide` before `b3ShouldBodiesCollide`).
#[inline]
pub(crate) fn body_pair_may_touch(bodies: &Bodies, a: u32, b: u32) -> bool {
    let (range_a, range_b) = (bodies.shape_ranges[a as usize], bodies.shape_ranges[b as usize]);
    if range_a.count == 1 && range_b.count == 1 {
        let shapes = &bodies.shapes;
        let (ka, kb) = (range_a.first as usize, range_b.first as usize);
        if (shapes.sensors[ka] && shapes.sensors[kb])
            || !shapes.filters[ka].collides_with(&shapes.filters[kb])
        {
            return false;
        }
    }
    bodies_may_collide(bodies, a, b)
}

/// Expands the broad phase's sorted body `pairs` into the sorted shape
/// pairs that may touch, the solid ones into `solid` and those with a
/// sensor into `sensor` (both cleared first).
///
/// `body_fat` is each body's fat box (the broad phase's), read for the
/// body of one shape in a pair with a body of several (whose shapes' own
/// fat boxes are read from the shape store).
pub(crate) fn expand_pairs(
    bodies: &Bodies,
    pairs: &[(u32, u32)],
    body_fat: &[Aabb],
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
        // The boxes of a body's shapes: their own for a body of several
        // shapes, else its body's. Two one-shape bodies need no second test.
        let one_each = range_a.count == 1 && range_b.count == 1;
        let boxes_of = |range: ShapeRange, body: u32| {
            if range.count > 1 {
                &shapes.fat[range.slots()]
            } else {
                std::slice::from_ref(&body_fat[body as usize])
            }
        };
        let (boxes_a, boxes_b) = (boxes_of(range_a, a), boxes_of(range_b, b));
        // The boxes are tested before the sensors and filters: a cube in
        // washer's drum overlaps the boxes of 2 or 3 of its 40 hulls, and
        // the box test reads one contiguous array where the others read
        // two each (the tests only refuse, so their order changes nothing
        // but the cost).
        //
        // The loops walk the box slices alone and find each shape's slot
        // from its index: zipped with the ranges of slots as well, the
        // inner loop took about 51.5 instructions a box, now 48 (callgrind,
        // washer's first 150 steps, where this function is 7 % of the run:
        // 8,000 cubes against the drum's 40 hulls, every step).
        for (ia, box_a) in boxes_a.iter().enumerate() {
            let ka = range_a.first as usize + ia;
            for (ib, box_b) in boxes_b.iter().enumerate() {
                if !one_each && !box_a.overlaps(box_b) {
                    continue;
                }
                let kb = range_b.first as usize + ib;
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

#[cfg(test)]
mod tests {
    use collide::nalgebra::{UnitQuaternion, Vector3};
    use collide::{Cuboid, Shape};

    use crate::body::{BodyDesc, BodyShape};
    use crate::collision::aabb::Aabb;
    use crate::settings::StepSettings;
    use crate::world::World;

    /// Boxes on the ring of the drum: each 1 × 1 × 4 m, centred at radius
    /// `RING_RADIUS` about the z axis.
    const RING_BOXES: usize = 36;
    const RING_RADIUS: f32 = 6.0;

    /// The world box of shape `k` (slot) of the world's bodies, computed
    /// from the shape and its pose alone.
    fn shape_box(world: &World, k: usize) -> Aabb {
        let shapes = &world.bodies.shapes;
        let body = shapes.bodies[k] as usize;
        Aabb::of_shape(&shapes.shapes[k], &shapes.world_pose(k, &world.bodies.poses[body]))
    }

    /// A spinning drum of box shapes around a cloud of cubes, in zero
    /// gravity: after every step, each drum–cube pair in the pair cache
    /// had shape boxes near each other when the step began (so a cube is
    /// paired only with the drum shapes near it, not all of them), every
    /// drum–cube shape pair whose boxes overlapped then is cached (none
    /// missed), and the drum's pairs are a small fraction of drum shapes ×
    /// cubes.
    #[test]
    fn a_drum_of_many_shapes_pairs_only_its_shapes_near_a_cube() {
        let settings = StepSettings { gravity: Vector3::zeros(), ..StepSettings::default() };
        let mut world = World::with_settings(settings).unwrap();
        let ring: Vec<BodyShape> = (0..RING_BOXES)
            .map(|i| {
                let angle = i as f32 * std::f32::consts::TAU / RING_BOXES as f32;
                let shape: Shape = Cuboid::new(Vector3::new(0.5, 0.5, 2.0)).into();
                BodyShape::new(shape)
                    .with_position(Vector3::new(angle.cos(), angle.sin(), 0.0) * RING_RADIUS)
                    .with_rotation(UnitQuaternion::from_axis_angle(&Vector3::z_axis(), angle))
            })
            .collect();
        let drum = world
            .add_body(
                BodyDesc::kinematic_shapes(ring).with_angular_velocity(Vector3::new(0.0, 0.0, 0.5)),
            )
            .unwrap();
        // Cubes spread inside the drum, clear of its wall (which starts at
        // radius 5.5), drifting outwards so that they meet it.
        let mut cubes = 0;
        for i in 0..5 {
            for j in 0..5 {
                let p = Vector3::new(-3.0 + 1.5 * i as f32, -3.0 + 1.5 * j as f32, 0.0);
                let shape: Shape = Cuboid::new(Vector3::repeat(0.4)).into();
                world
                    .add_body(
                        BodyDesc::dynamic(shape).with_position(p).with_linear_velocity(p * 0.3),
                    )
                    .unwrap();
                cubes += 1;
            }
        }
        let drum_slot = drum.index();
        let mut most_pairs = 0;
        for step in 0..120 {
            // The boxes the broad phase saw: those at the step's start.
            let boxes: Vec<Aabb> =
                (0..world.bodies.shapes.shapes.len()).map(|k| shape_box(&world, k)).collect();
            world.step(1.0 / 60.0);
            let cache = &world.contacts;
            let ranges = &world.bodies.shape_ranges;
            let mut cached = std::collections::BTreeSet::new();
            let mut drum_pairs = 0;
            for index in 0..cache.pairs.len() {
                let (a, b, shapes) = cache.key_of(index);
                if a as usize != drum_slot && b as usize != drum_slot {
                    continue;
                }
                drum_pairs += 1;
                let ka = ranges[a as usize].first as usize + usize::from(shapes.a);
                let kb = ranges[b as usize].first as usize + usize::from(shapes.b);
                cached.insert((ka, kb));
                // A fat box reaches past its shape's box by at most about
                // twice its margin and reach (a box is refitted only once
                // the shape leaves it): for either shape here well under
                // 0.5 m, while the drum's shapes are 1 m wide, so this
                // still leaves out all but the few shapes near a cube.
                let grow = |b: Aabb| b.expanded(1.0);
                assert!(
                    grow(boxes[ka]).overlaps(&boxes[kb]),
                    "step {step}: drum pair ({ka}, {kb}) is far apart"
                );
            }
            for kd in ranges[drum_slot].slots() {
                for (body, range) in ranges.iter().enumerate() {
                    if body == drum_slot || !world.bodies.records[body].alive {
                        continue;
                    }
                    let kc = range.first as usize;
                    let key = if drum_slot < body { (kd, kc) } else { (kc, kd) };
                    if boxes[kd].overlaps(&boxes[kc]) {
                        assert!(cached.contains(&key), "step {step}: missed pair {key:?}");
                    }
                }
            }
            most_pairs = most_pairs.max(drum_pairs);
        }
        assert!(most_pairs > 0, "the cubes never came near the drum");
        assert!(
            most_pairs * 8 < RING_BOXES * cubes,
            "{most_pairs} drum pairs of {} shape pairs",
            RING_BOXES * cubes
        );
    }
}
