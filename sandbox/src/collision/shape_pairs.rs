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

use wide::f32x4;

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
    /// The fat boxes of the shapes of bodies of several shapes, as lanes.
    lanes: BoxLanes,
}

/// Boxes tested four at a time against one box in [`expand_pairs`].
const LANES: usize = 4;

/// The fat boxes of the shapes of every body of several shapes, one array
/// per bound and axis, indexed by shape slot (the entries of other shapes
/// are never read, and left as they are), with [`LANES`] entries of
/// padding at the end: the expansion tests a box against such a body's
/// shapes four at a time, as the broad phase's sweep tests its lanes.
/// Refilled at each expansion from `ShapeStore::fat` (a copy of those
/// shapes' boxes: `trees`' 1,100 prisms, washer's 40 hulls).
#[derive(Debug, Default)]
struct BoxLanes {
    min: [Vec<f32>; 3],
    max: [Vec<f32>; 3],
}

impl BoxLanes {
    /// Copies the fat box of every shape of every body of several shapes.
    fn fill(&mut self, bodies: &Bodies) {
        let fat = &bodies.shapes.fat;
        for v in self.min.iter_mut().chain(self.max.iter_mut()) {
            if v.len() < fat.len() + LANES {
                v.resize(fat.len() + LANES, 0.0);
            }
        }
        for &body in &bodies.multi_shape {
            for k in bodies.shape_ranges[body as usize].slots() {
                let b = &fat[k];
                for axis in 0..3 {
                    self.min[axis][k] = b.min[axis];
                    self.max[axis][k] = b.max[axis];
                }
            }
        }
    }

    /// Calls `f` with the index (within `range`, increasing) of every
    /// shape of `range` whose box overlaps `query`: the six comparisons of
    /// [`Aabb::overlaps`], four boxes at a time. The lanes past the range's
    /// end are masked off.
    #[inline]
    fn for_each_overlap(&self, range: ShapeRange, query: &Aabb, mut f: impl FnMut(usize)) {
        let load = |v: &[f32], j: usize| {
            let mut four = [0.0; LANES];
            four.copy_from_slice(&v[j..j + LANES]);
            f32x4::from(four)
        };
        let q_min = [0, 1, 2].map(|k| f32x4::splat(query.min[k]));
        let q_max = [0, 1, 2].map(|k| f32x4::splat(query.max[k]));
        let (first, count) = (range.first as usize, range.count as usize);
        let mut i = 0;
        while i < count {
            let j = first + i;
            let mut hits = f32x4::splat(0.0).simd_le(f32x4::splat(0.0));
            for k in 0..3 {
                hits = hits
                    & q_min[k].simd_le(load(&self.max[k], j))
                    & load(&self.min[k], j).simd_le(q_max[k]);
            }
            let left = count - i;
            let mut bits = hits.to_bitmask() & if left < LANES { (1 << left) - 1 } else { !0 };
            while bits != 0 {
                f(i + bits.trailing_zeros() as usize);
                bits &= bits - 1;
            }
            i += LANES;
        }
    }
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
    let ShapePairScratch { solid, sensor, runs, lanes } = scratch;
    lanes.fill(bodies);
    let lanes = &*lanes;
    if !workers.splits() || pairs.len() <= BODY_PAIRS_PER_RUN {
        expand_pairs(bodies, pairs, body_fat, lanes, solid, sensor);
        return;
    }
    let count = pairs.len().div_ceil(BODY_PAIRS_PER_RUN);
    if runs.len() < count {
        runs.resize_with(count, Default::default);
    }
    workers.for_each(&mut runs[..count], |k, (run_solid, run_sensor)| {
        let first = k * BODY_PAIRS_PER_RUN;
        let run = &pairs[first..pairs.len().min(first + BODY_PAIRS_PER_RUN)];
        expand_pairs(bodies, run, body_fat, lanes, run_solid, run_sensor);
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
/// fat boxes are read from the shape store, and as `lanes`, filled from
/// it).
fn expand_pairs(
    bodies: &Bodies,
    pairs: &[(u32, u32)],
    body_fat: &[Aabb],
    lanes: &BoxLanes,
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
        // The sensor and filter tests, then the pair's place in its list,
        // for shapes `ia` and `ib` whose boxes overlap.
        let mut keep = |ia: usize, ib: usize| {
            let (ka, kb) = (range_a.first as usize + ia, range_b.first as usize + ib);
            let (sensor_a, sensor_b) = (shapes.sensors[ka], shapes.sensors[kb]);
            if (sensor_a && sensor_b) || !shapes.filters[ka].collides_with(&shapes.filters[kb]) {
                return;
            }
            let key = (a, b, ShapePair { a: ia as u16, b: ib as u16 });
            if sensor_a || sensor_b { sensor.push(key) } else { solid.push(key) }
        };
        // The boxes are tested before the sensors and filters: a cube in
        // washer's drum overlaps the boxes of 2 or 3 of its 40 hulls, and
        // the box tests read the lanes four boxes at a time where the
        // others read two arrays per pair (the tests only refuse, so their
        // order changes nothing but the cost). The pairs come in the order
        // of `ia`, then `ib`, whichever side the lanes are on. One box at a
        // time, a cube against the drum took about 48 instructions a hull
        // (callgrind, washer's first 150 steps, where the expansion was 7 %
        // of the run).
        if one_each {
            keep(0, 0);
        } else if range_b.count > 1 {
            for (ia, box_a) in boxes_a.iter().enumerate() {
                lanes.for_each_overlap(range_b, box_a, |ib| keep(ia, ib));
            }
        } else {
            lanes.for_each_overlap(range_a, &boxes_b[0], |ia| keep(ia, 0));
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

    /// The lanes' four-at-a-time test gives exactly the shapes a box at a
    /// time finds, in order, for bodies of 2 to 13 shapes starting at any
    /// slot (so every remainder of a last, partial group of four), with
    /// the slots around the body holding boxes that overlap everything:
    /// a lane read past the body's end and not masked off would report one.
    #[test]
    fn lanes_find_the_overlaps_one_box_at_a_time_finds() {
        use super::{BoxLanes, ShapeRange};
        use collide::nalgebra::Point3;
        let mut rng = crate::rng::Lcg(0x0001_a9e5);
        let mut random_box = || {
            let c = Point3::new(rng.next(), rng.next(), rng.next()) * 4.0;
            let h = Vector3::new(rng.next(), rng.next(), rng.next()) * 1.5;
            Aabb::new(c - h, c + h)
        };
        let everything = Aabb::new(Point3::new(-1e9, -1e9, -1e9), Point3::new(1e9, 1e9, 1e9));
        let (mut tested, mut found) = (0, 0);
        for count in 2..=13u32 {
            for first in 0..4u32 {
                let boxes: Vec<Aabb> = (0..count).map(|_| random_box()).collect();
                let len = (first + count) as usize + 8;
                let mut lanes = BoxLanes::default();
                for v in lanes.min.iter_mut().chain(lanes.max.iter_mut()) {
                    v.resize(len, 0.0);
                }
                for k in 0..len {
                    let i = k.wrapping_sub(first as usize);
                    let b = if i < count as usize { &boxes[i] } else { &everything };
                    for axis in 0..3 {
                        lanes.min[axis][k] = b.min[axis];
                        lanes.max[axis][k] = b.max[axis];
                    }
                }
                let range = ShapeRange { first, count };
                for _ in 0..50 {
                    let query = random_box();
                    let mut by_lanes = Vec::new();
                    lanes.for_each_overlap(range, &query, |i| by_lanes.push(i));
                    let one_by_one: Vec<usize> =
                        (0..count as usize).filter(|&i| query.overlaps(&boxes[i])).collect();
                    assert_eq!(by_lanes, one_by_one, "{count} shapes from slot {first}");
                    tested += 1;
                    found += one_by_one.len();
                }
            }
        }
        // The boxes are dense enough that the test is not of empty lists.
        assert!(found > tested, "{found} overlaps in {tested} queries");
    }

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
