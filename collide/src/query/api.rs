//! The public query functions: intersection, closest points, penetration, and
//! the combined contact query a physics engine wants.
//!
//! Every function moves B into A's frame once, runs GJK (and EPA when the
//! cores overlap) on the cores there, adds the margins analytically, and
//! takes the answer to the world frame. Pairs whose cores are both points or
//! segments (sphere and capsule pairs) take an exact closed-form path, and so
//! do sphere–box pairs, in either order (see `sphere_cuboid`), and box pairs
//! wherever their separating axes settle the answer (`box_box`,
//! `box_box_depth`, `box_box_distance`).
//!
//! Non-finite input (a NaN or infinite pose, margin or support point) is an
//! error in the `try_*` functions. The plain functions document what they
//! return instead; they never panic and never hang.

use crate::query::bounding_balls::bounding_balls_apart;
use nalgebra::{Isometry3, Point3, Unit, UnitQuaternion, Vector3};

use crate::core::Core;
use crate::error::QueryError;
use crate::finite::all_finite;
use crate::query::box_box::boxes_overlap;
use crate::query::box_box_depth::box_penetration;
use crate::query::box_box_distance::box_distance;
use crate::query::epa::epa;
use crate::query::frames::{b_in_a, rotate};
use crate::query::gjk::{GjkOutcome, GjkResult, GjkSettings, gjk_in};
use crate::query::gjk_cache::GjkCache;
use crate::query::input::{CheckedPair, check_input};
use crate::query::minkowski::MinkowskiDifference;
use crate::query::point_core::PointCore;
use crate::query::point_core_projection::{Projected, project_onto_core};
use crate::query::record::{NoRecord, Recorder};
use crate::query::results::{Contact, Penetration, Proximity, Separation};
use crate::query::segment::closest_points_segments;
use crate::query::sphere_cuboid::{in_box_frame, point_box_contact, point_box_intersects, swapped};
use crate::query::window::{needs_window, window};
use crate::shape::{ShapeRef, with_shape_pair};
use crate::support_map::SupportMap;

/// Core distance, relative to the size of the cores, below which the
/// closed-form sphere/capsule path treats the cores as intersecting: the
/// direction between closest points is then lost in f32 rounding.
const SEGMENT_TOUCH_REL: f32 = 1e-6;

/// Squared sine of the angle above which the cross product of two core
/// segments gives their common perpendicular to better than the closest
/// points' difference does: at ~0.6° the cross product's direction error is
/// ~1e-5 rad, while for nearly parallel segments it grows as ε / sin θ.
const COMMON_PERPENDICULAR_SIN_SQ: f32 = 1e-4;

/// Squared sine of the angle below which two core segments count as
/// parallel, so that their cross product gives no reliable direction. 1e-12
/// on the squared sine is ~1e-6 rad, the f32 rounding floor.
const PARALLEL_REL_SQ: f32 = 1e-12;

/// A pair that has an exact closed form, with what the closed form needs.
enum ClosedForm {
    /// Two point cores (spheres), in the world frame.
    Points([Point3<f32>; 2]),
    /// Point or segment cores (spheres and capsules), both in A's frame;
    /// points are segments with equal ends.
    Segments([Point3<f32>; 2], [Point3<f32>; 2]),
    /// A point core and a box core, in either order.
    SphereBox(SphereBox),
    /// Two boxes without margins: whether they overlap has a closed form
    /// (separating axes), and so, for most poses, do the depth and the
    /// distance.
    Boxes {
        /// Whether they overlap or touch.
        overlap: bool,
        /// The half extents, A's then B's.
        halves: (Vector3<f32>, Vector3<f32>),
        /// B's pose in A's frame, for GJK/EPA when more is wanted.
        pose_b_in_a: Isometry3<f32>,
    },
}

/// A sphere–box pair, in either order, as the closed form wants it.
struct SphereBox {
    /// The box core's half extents.
    half: Vector3<f32>,
    /// The sphere's centre (its point core) in the box's frame.
    centre_in_box: Point3<f32>,
    /// The margins, box's first.
    margins: (f32, f32),
    /// Whether the box is shape A.
    box_is_a: bool,
}

/// The pair's closed form, if its cores have one; `None` sends it to
/// GJK/EPA. The cores are already validated (finite).
#[inline(always)]
fn closed_form(
    input: &CheckedPair,
    pose_a: &Isometry3<f32>,
    pose_b: &Isometry3<f32>,
) -> Result<Option<ClosedForm>, QueryError> {
    let (ra, rb) = input.margins;
    Ok(Some(match input.cores {
        // Two points (spheres) are compared in the world frame directly.
        (Core::Point(pa), Core::Point(pb)) => {
            ClosedForm::Points([place(pose_a, pa), place(pose_b, pb)])
        }
        // Segments in A's frame, where A's segment is exact: in the world,
        // each end picks up the rounding of a rotation and a large
        // translation, enough to make parallel capsules look slightly skew.
        (Core::Point(_) | Core::Segment(_), Core::Point(_) | Core::Segment(_)) => {
            let (sa, sb) = (as_segment(&input.cores.0), as_segment(&input.cores.1));
            let pose_b_in_a = b_in_a(pose_a, pose_b);
            // Written out with the inlined `rotate` (nalgebra's bits): as
            // `sb.map(|p| pose_b_in_a * p)` each end would go through a call.
            let moved = |p: Point3<f32>| {
                Point3::from(
                    rotate(&pose_b_in_a.rotation, &p.coords) + pose_b_in_a.translation.vector,
                )
            };
            ClosedForm::Segments(sa, [moved(sb[0]), moved(sb[1])])
        }
        (Core::Box(half), Core::Point(p)) => {
            ClosedForm::SphereBox(sphere_box(half, pose_a, place(pose_b, p), (ra, rb), true)?)
        }
        (Core::Point(p), Core::Box(half)) => {
            ClosedForm::SphereBox(sphere_box(half, pose_b, place(pose_a, p), (rb, ra), false)?)
        }
        (Core::Box(half_a), Core::Box(half_b)) if ra == 0.0 && rb == 0.0 => {
            let pose_b_in_a = b_in_a(pose_a, pose_b);
            ClosedForm::Boxes {
                overlap: boxes_overlap(&half_a, &half_b, &pose_b_in_a),
                halves: (half_a, half_b),
                pose_b_in_a,
            }
        }
        _ => return Ok(None),
    }))
}

/// A point or segment core as a segment (a point has equal ends).
#[inline]
fn as_segment(core: &Core) -> [Point3<f32>; 2] {
    match *core {
        Core::Point(p) => [p, p],
        Core::Segment(s) => s,
        _ => unreachable!("only point and segment cores reach the segment closed form"),
    }
}

/// The sphere–box closed form's input: the sphere's centre (given in the
/// world) taken into the box's frame.
#[inline(always)]
fn sphere_box(
    half: Vector3<f32>,
    pose_box: &Isometry3<f32>,
    centre_world: Point3<f32>,
    margins: (f32, f32),
    box_is_a: bool,
) -> Result<SphereBox, QueryError> {
    let centre_in_box = in_box_frame(pose_box, &centre_world);
    // Finite poses can still overflow here (coordinates near f32::MAX).
    if !all_finite(centre_in_box.coords.as_slice()) {
        return Err(QueryError::NonFiniteInput);
    }
    Ok(SphereBox { half, centre_in_box, margins, box_is_a })
}

/// A point core placed in the world. A sphere's core (the local origin) is
/// just the pose's translation, which skips a rotation.
#[inline(always)]
fn place(pose: &Isometry3<f32>, p: Point3<f32>) -> Point3<f32> {
    if p.x == 0.0 && p.y == 0.0 && p.z == 0.0 {
        // Component by component: copied whole, the vector would go through
        // the stack as an 8- and a 4-byte store read back by one 8-byte
        // load across both, which stalls store forwarding (~15% of a
        // sphere-box verdict).
        let t = &pose.translation.vector;
        Point3::new(t.x, t.y, t.z)
    } else {
        pose * p
    }
}

/// Whether the shapes overlap or touch.
///
/// Returns `false` for non-finite input; [`try_intersects`] reports it.
///
/// ```
/// use collide::{intersects, Cuboid, Sphere};
/// use collide::nalgebra::{Isometry3, Vector3};
/// let cube = Cuboid::new(Vector3::repeat(1.0));
/// let ball = Sphere::new(0.5);
/// assert!(intersects(&cube, &Isometry3::identity(), &ball, &Isometry3::translation(1.4, 0.0, 0.0)));
/// assert!(!intersects(&cube, &Isometry3::identity(), &ball, &Isometry3::translation(1.6, 0.0, 0.0)));
/// ```
pub fn intersects<A: SupportMap + ?Sized, B: SupportMap + ?Sized>(
    a: &A,
    pose_a: &Isometry3<f32>,
    b: &B,
    pose_b: &Isometry3<f32>,
) -> bool {
    try_intersects(a, pose_a, b, pose_b).unwrap_or(false)
}

/// [`intersects`], reporting bad input as an error.
pub fn try_intersects<A: SupportMap + ?Sized, B: SupportMap + ?Sized>(
    a: &A,
    pose_a: &Isometry3<f32>,
    b: &B,
    pose_b: &Isometry3<f32>,
) -> Result<bool, QueryError> {
    run::<_, _, AskIntersects>(a, pose_a, b, pose_b, &mut GjkCache::default())
}

/// Distance and closest points, or [`Proximity::Intersecting`].
///
/// Returns `Separated` with NaN distance and points for non-finite input;
/// [`try_closest_points`] reports it as an error.
///
/// ```
/// use collide::{closest_points, Proximity, Sphere};
/// use collide::nalgebra::Isometry3;
/// let s = Sphere::new(1.0);
/// match closest_points(&s, &Isometry3::identity(), &s, &Isometry3::translation(3.0, 0.0, 0.0)) {
///     Proximity::Separated { distance, point_a, point_b } => {
///         assert!((distance - 1.0).abs() < 1e-6);
///         assert!((point_a.x - 1.0).abs() < 1e-6 && (point_b.x - 2.0).abs() < 1e-6);
///     }
///     Proximity::Intersecting => unreachable!(),
/// }
/// ```
pub fn closest_points<A: SupportMap + ?Sized, B: SupportMap + ?Sized>(
    a: &A,
    pose_a: &Isometry3<f32>,
    b: &B,
    pose_b: &Isometry3<f32>,
) -> Proximity {
    try_closest_points(a, pose_a, b, pose_b).unwrap_or(Proximity::Separated {
        distance: f32::NAN,
        point_a: Point3::new(f32::NAN, f32::NAN, f32::NAN),
        point_b: Point3::new(f32::NAN, f32::NAN, f32::NAN),
    })
}

/// [`closest_points`], reporting bad input as an error.
pub fn try_closest_points<A: SupportMap + ?Sized, B: SupportMap + ?Sized>(
    a: &A,
    pose_a: &Isometry3<f32>,
    b: &B,
    pose_b: &Isometry3<f32>,
) -> Result<Proximity, QueryError> {
    run::<_, _, AskDistance>(a, pose_a, b, pose_b, &mut GjkCache::default())
}

/// [`try_closest_points`] with the normal: `None` when the shapes
/// intersect. GJK starts from `cache`'s simplex and leaves its own there
/// (see [`GjkCache`]): the time of impact carries one cache from each
/// advance to the next.
pub(crate) fn try_separation<A: SupportMap + ?Sized, B: SupportMap + ?Sized>(
    a: &A,
    pose_a: &Isometry3<f32>,
    b: &B,
    pose_b: &Isometry3<f32>,
    cache: &mut GjkCache,
) -> Result<Option<Separation>, QueryError> {
    run::<_, _, AskSeparation>(a, pose_a, b, pose_b, cache)
}

/// Penetration depth, normal and witness points, or `None` if the shapes do
/// not overlap. Shapes that just touch give `Some` with a depth near zero.
///
/// Returns `None` for non-finite input; [`try_penetration`] reports it as
/// an error.
///
/// ```
/// use collide::{penetration, Cuboid};
/// use collide::nalgebra::{Isometry3, Vector3};
/// let cube = Cuboid::new(Vector3::repeat(0.5));
/// let hit = penetration(&cube, &Isometry3::identity(), &cube, &Isometry3::translation(0.0, 0.9, 0.0))
///     .expect("the cubes overlap by 0.1");
/// assert!((hit.depth - 0.1).abs() < 1e-5);
/// assert!((hit.normal.y - 1.0).abs() < 1e-5); // from A up to B
/// assert!(((hit.point_a - hit.point_b) - hit.normal.into_inner() * hit.depth).norm() < 1e-5);
/// ```
pub fn penetration<A: SupportMap + ?Sized, B: SupportMap + ?Sized>(
    a: &A,
    pose_a: &Isometry3<f32>,
    b: &B,
    pose_b: &Isometry3<f32>,
) -> Option<Penetration> {
    try_penetration(a, pose_a, b, pose_b).ok().flatten()
}

/// [`penetration`], reporting bad input as an error.
pub fn try_penetration<A: SupportMap + ?Sized, B: SupportMap + ?Sized>(
    a: &A,
    pose_a: &Isometry3<f32>,
    b: &B,
    pose_b: &Isometry3<f32>,
) -> Result<Option<Penetration>, QueryError> {
    run::<_, _, AskPenetration>(a, pose_a, b, pose_b, &mut GjkCache::default())
}

/// What [`contact`] and [`contact_cached`] return for bad input: separated
/// by a NaN distance, with a NaN normal and NaN points, as
/// [`closest_points`] does. Every comparison with the distance is false.
const CONTACT_NOT_COMPUTED: Contact = Contact::Separated {
    distance: f32::NAN,
    normal: Unit::new_unchecked(Vector3::new(f32::NAN, f32::NAN, f32::NAN)),
    point_a: Point3::new(f32::NAN, f32::NAN, f32::NAN),
    point_b: Point3::new(f32::NAN, f32::NAN, f32::NAN),
};

/// The pair's contact state in one query: the distance, normal and closest
/// points if separated, the penetration if not.
///
/// Returns `Separated` with a NaN distance, normal and points for bad input
/// (as [`closest_points`] does); [`try_contact`] reports it as an error.
///
/// ```
/// use collide::{Contact, Cuboid, contact};
/// use collide::nalgebra::{Isometry3, Vector3};
/// let cube = Cuboid::new(Vector3::repeat(0.5));
/// match contact(&cube, &Isometry3::identity(), &cube, &Isometry3::translation(0.0, 1.02, 0.0)) {
///     Contact::Separated { distance, normal, .. } => {
///         assert!((distance - 0.02).abs() < 1e-5 && (normal.y - 1.0).abs() < 1e-5);
///     }
///     Contact::Penetrating(p) => panic!("{p:?}"),
/// }
/// let bad = Isometry3::translation(f32::NAN, 0.0, 0.0);
/// let Contact::Separated { distance, .. } = contact(&cube, &bad, &cube, &bad) else { panic!() };
/// assert!(distance.is_nan());
/// ```
pub fn contact<A: SupportMap + ?Sized, B: SupportMap + ?Sized>(
    a: &A,
    pose_a: &Isometry3<f32>,
    b: &B,
    pose_b: &Isometry3<f32>,
) -> Contact {
    try_contact(a, pose_a, b, pose_b).unwrap_or(CONTACT_NOT_COMPUTED)
}

/// [`contact`], reporting bad input as an error.
///
/// # Errors
/// [`QueryError::NonFiniteInput`] for a NaN or infinite pose, shape
/// parameter or support point; [`QueryError::NegativeMargin`] and
/// [`QueryError::NegativeExtent`] for a negative radius or half extent.
///
/// ```
/// use collide::{Contact, QueryError, Sphere, try_contact};
/// use collide::nalgebra::Isometry3;
/// let ball = Sphere::new(0.5);
/// let hit = try_contact(&ball, &Isometry3::identity(), &ball, &Isometry3::translation(0.8, 0.0, 0.0));
/// let Ok(Contact::Penetrating(p)) = hit else { panic!("{hit:?}") };
/// assert!((p.depth - 0.2).abs() < 1e-6);
/// let bad = Isometry3::translation(0.0, f32::INFINITY, 0.0);
/// assert_eq!(try_contact(&ball, &bad, &ball, &bad), Err(QueryError::NonFiniteInput));
/// ```
pub fn try_contact<A: SupportMap + ?Sized, B: SupportMap + ?Sized>(
    a: &A,
    pose_a: &Isometry3<f32>,
    b: &B,
    pose_b: &Isometry3<f32>,
) -> Result<Contact, QueryError> {
    run::<_, _, AskContact>(a, pose_a, b, pose_b, &mut GjkCache::default())
}

/// [`contact`] for repeated queries on the same pair: `cache` warm-starts
/// GJK from the previous call's separating direction, which usually saves
/// most iterations when the pair moves little between calls.
///
/// Bad input gives what [`contact`] gives; [`try_contact_cached`] reports
/// it as an error.
pub fn contact_cached<A: SupportMap + ?Sized, B: SupportMap + ?Sized>(
    a: &A,
    pose_a: &Isometry3<f32>,
    b: &B,
    pose_b: &Isometry3<f32>,
    cache: &mut GjkCache,
) -> Contact {
    try_contact_cached(a, pose_a, b, pose_b, cache).unwrap_or(CONTACT_NOT_COMPUTED)
}

/// [`contact_cached`], reporting bad input as an error.
///
/// # Errors
/// As [`try_contact`].
///
/// ```
/// use collide::{Contact, Cuboid, GjkCache, try_contact_cached};
/// use collide::nalgebra::{Isometry3, Vector3};
/// let cube = Cuboid::new(Vector3::repeat(0.5));
/// let mut cache = GjkCache::default();
/// for step in 0..3 {
///     let pose_b = Isometry3::translation(0.0, 1.02 - 0.02 * step as f32, 0.0);
///     match try_contact_cached(&cube, &Isometry3::identity(), &cube, &pose_b, &mut cache).unwrap() {
///         Contact::Separated { distance, .. } => assert!(step < 1 && distance > 0.0),
///         Contact::Penetrating(p) => assert!(step >= 1 && p.depth < 0.03),
///     }
/// }
/// ```
pub fn try_contact_cached<A: SupportMap + ?Sized, B: SupportMap + ?Sized>(
    a: &A,
    pose_a: &Isometry3<f32>,
    b: &B,
    pose_b: &Isometry3<f32>,
    cache: &mut GjkCache,
) -> Result<Contact, QueryError> {
    run::<_, _, AskContact>(a, pose_a, b, pose_b, cache)
}

/// [`try_contact`] through the general path, GJK and then EPA on overlap,
/// for every pair (the closed forms [`try_contact`] takes for spheres,
/// capsules and boxes are skipped), reporting every GJK and EPA iteration
/// to `recorder`. GJK starts cold, as [`try_contact`]'s does.
///
/// With [`NoRecord`] this is the general algorithm on its own, for
/// comparing it with the closed forms or studying it on any pair.
///
/// # Errors
/// As [`try_contact`].
///
/// ```
/// use collide::{Contact, Sphere, try_contact};
/// use collide::query::{IterationLog, try_contact_with};
/// use collide::nalgebra::Isometry3;
/// let ball = Sphere::new(0.5);
/// let (pose_a, pose_b) = (Isometry3::identity(), Isometry3::translation(0.0, 0.8, 0.0));
/// let mut log = IterationLog::default();
/// let general = try_contact_with(&ball, &pose_a, &ball, &pose_b, &mut log);
/// let closed = try_contact(&ball, &pose_a, &ball, &pose_b);
/// assert!(!log.gjk.is_empty()); // GJK ran, on the spheres' point cores
/// match (general.unwrap(), closed.unwrap()) {
///     (Contact::Penetrating(g), Contact::Penetrating(c)) => assert!((g.depth - c.depth).abs() < 1e-6),
///     other => panic!("{other:?}"),
/// }
/// ```
pub fn try_contact_with<A, B, R>(
    a: &A,
    pose_a: &Isometry3<f32>,
    b: &B,
    pose_b: &Isometry3<f32>,
    recorder: &mut R,
) -> Result<Contact, QueryError>
where
    A: SupportMap + ?Sized,
    B: SupportMap + ?Sized,
    R: Recorder + ?Sized,
{
    check_input(a, pose_a, b, pose_b)?;
    recorder.begin(pose_a);
    let md = MinkowskiDifference::new(a, b, b_in_a(pose_a, pose_b));
    exact(match gjk_epa(&md, Want::Contact, true, &mut GjkCache::default(), recorder)? {
        Local::Contact(c) => Local::Contact(c.to_world(pose_a)),
        other => other,
    })
}

/// The contact of a [`Want::Contact`] query.
fn exact(local: Local) -> Result<Contact, QueryError> {
    match local {
        Local::Contact(c) => Ok(c),
        // Want::Contact runs GJK to convergence and EPA on overlap, so these
        // early answers cannot occur; map them conservatively all the same.
        Local::Apart | Local::Overlapping => {
            debug_assert!(false, "an exact query stopped early");
            Err(QueryError::NonFiniteInput)
        }
    }
}

/// What a query needs to know, so GJK can stop as early as the answer
/// allows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Want {
    /// Separated with distance and points, or penetrating with depth.
    Contact,
    /// The depth if penetrating; if separated, nothing more.
    Penetration,
    /// The distance and points if separated; if overlapping, nothing more.
    Distance,
    /// Only whether the shapes overlap or touch.
    Intersects,
}

/// A [`Want`] as a type, with the public answer it becomes, so that [`run`]
/// is compiled once per kind of query: each copy has its `want` as a
/// constant and keeps only its own early answers, small enough for the
/// compiler to inline a pair's whole path into it, and it returns the
/// query's own answer (a `bool` for an intersection test) rather than a
/// [`Local`] through memory.
trait Ask {
    /// What the query needs to know.
    const WANT: Want;
    /// The public function's answer.
    type Answer;
    /// Whether a point core against a cylinder or a cone is answered
    /// by the exact point projection (`point_core_projection`) rather than
    /// GJK. Only [`closest_points`] does: [`try_separation`] keeps GJK, as
    /// the time of impact (and through it the sandbox's sweeps) was measured
    /// and tested with it.
    const PROJECT_POINT_CORE: bool = false;
    /// Whether GJK starts from the caller's cached simplex and leaves its
    /// own behind ([`GjkCache`]): a full contact, and the separation that
    /// the time of impact asks for at each advance (the shapes barely move
    /// between two). The other queries' caches are temporaries.
    const SEEDS: bool = false;
    /// The answer from a query's result, in the world frame.
    fn answer(local: Local) -> Result<Self::Answer, QueryError>;
}

/// [`Want::Contact`] as a type.
struct AskContact;
/// [`Want::Penetration`] as a type.
struct AskPenetration;
/// [`Want::Distance`] as a type.
struct AskDistance;
/// [`Want::Intersects`] as a type.
struct AskIntersects;

impl Ask for AskContact {
    const WANT: Want = Want::Contact;
    const SEEDS: bool = true;
    type Answer = Contact;
    #[inline(always)]
    fn answer(local: Local) -> Result<Contact, QueryError> {
        exact(local)
    }
}

impl Ask for AskPenetration {
    const WANT: Want = Want::Penetration;
    type Answer = Option<Penetration>;
    #[inline(always)]
    fn answer(local: Local) -> Result<Option<Penetration>, QueryError> {
        match local {
            Local::Contact(Contact::Penetrating(p)) => Ok(Some(p)),
            Local::Contact(Contact::Separated { .. }) | Local::Apart => Ok(None),
            Local::Overlapping => {
                debug_assert!(false, "a penetration query never stops as merely overlapping");
                Err(QueryError::NonFiniteInput)
            }
        }
    }
}

impl Ask for AskDistance {
    const WANT: Want = Want::Distance;
    type Answer = Proximity;
    const PROJECT_POINT_CORE: bool = true;
    #[inline(always)]
    fn answer(local: Local) -> Result<Proximity, QueryError> {
        match local {
            Local::Contact(Contact::Separated { distance, point_a, point_b, .. }) => {
                Ok(Proximity::Separated { distance, point_a, point_b })
            }
            Local::Contact(Contact::Penetrating(_)) | Local::Overlapping => {
                Ok(Proximity::Intersecting)
            }
            Local::Apart => {
                debug_assert!(false, "a distance query never stops as merely apart");
                Err(QueryError::NonFiniteInput)
            }
        }
    }
}

/// [`Want::Distance`] as a type, keeping the normal ([`try_separation`]).
struct AskSeparation;

impl Ask for AskSeparation {
    const WANT: Want = Want::Distance;
    const SEEDS: bool = true;
    type Answer = Option<Separation>;
    #[inline(always)]
    fn answer(local: Local) -> Result<Option<Separation>, QueryError> {
        match local {
            Local::Contact(Contact::Separated { distance, normal, point_a, point_b }) => {
                Ok(Some(Separation { distance, normal, point_a, point_b }))
            }
            Local::Contact(Contact::Penetrating(_)) | Local::Overlapping => Ok(None),
            Local::Apart => {
                debug_assert!(false, "a distance query never stops as merely apart");
                Err(QueryError::NonFiniteInput)
            }
        }
    }
}

impl Ask for AskIntersects {
    const WANT: Want = Want::Intersects;
    type Answer = bool;
    #[inline(always)]
    fn answer(local: Local) -> Result<bool, QueryError> {
        match local {
            Local::Overlapping => Ok(true),
            Local::Apart => Ok(false),
            Local::Contact(_) => {
                debug_assert!(false, "an intersection query stops as overlapping or apart");
                Err(QueryError::NonFiniteInput)
            }
        }
    }
}

/// A query's answer in A's frame, before it is taken to the world.
enum Local {
    Contact(Contact),
    /// Proven apart; the distance was not needed, so not computed.
    Apart,
    /// Proven overlapping; the depth was not needed, so not computed.
    Overlapping,
}

/// GJK on the cores, EPA if they overlap and the depth is wanted; margins
/// added analytically. Always inlined (GJK and EPA themselves are calls):
/// called, its answer came back through the stack in pieces that the
/// caller's wider loads read across, a store-forwarding stall of about a
/// tenth of a sphere–hull query's time.
#[inline(always)]
fn gjk_epa<A, B, R>(
    md: &MinkowskiDifference<'_, A, B>,
    want: Want,
    seeds: bool,
    cache: &mut GjkCache,
    recorder: &mut R,
) -> Result<Local, QueryError>
where
    A: SupportMap + ?Sized,
    B: SupportMap + ?Sized,
    R: Recorder + ?Sized,
{
    let sum = md.margin_sum();
    let settings = match want {
        Want::Contact => GjkSettings::EXACT,
        // Farther apart than the margins: no contact, whatever the distance.
        Want::Penetration => GjkSettings { stop_beyond: sum, stop_within: -1.0 },
        // Closer than the margins: overlapping, whatever the depth.
        Want::Distance => GjkSettings { stop_beyond: f32::INFINITY, stop_within: sum },
        // Never asked here (see `gjk_verdict`); the verdict's settings.
        Want::Intersects => GjkSettings { stop_beyond: sum, stop_within: sum },
    };
    let mut g = GjkResult::empty();
    // The feature solve only where the distance and its points are wanted.
    let finish = matches!(want, Want::Contact | Want::Distance);
    // A full contact (or a time of impact's separation) starts from the
    // caller's cached simplex, if any.
    if seeds {
        cache.seed(md, &mut g.simplex);
    }
    gjk_in(md, cache.initial_dir(md.pose_b_in_a()), &settings, finish, recorder, &mut g);
    let core_distance = match g.outcome {
        GjkOutcome::Separated { distance } | GjkOutcome::IterationLimit { distance }
            if want == Want::Intersects =>
        {
            return Ok(if distance <= sum { Local::Overlapping } else { Local::Apart });
        }
        GjkOutcome::Separated { distance } | GjkOutcome::IterationLimit { distance } => distance,
        GjkOutcome::NonFinite => return Err(QueryError::NonFiniteInput),
        GjkOutcome::Beyond { .. } => {
            if seeds {
                cache.store(g.direction);
                cache.clear_seed();
            }
            return Ok(Local::Apart);
        }
        GjkOutcome::Within { .. } => return Ok(Local::Overlapping),
        GjkOutcome::Overlapping if matches!(want, Want::Distance | Want::Intersects) => {
            return Ok(Local::Overlapping);
        }
        GjkOutcome::Overlapping => {
            let e = epa(md, &g.simplex, recorder)?;
            debug_assert!(e.depth >= 0.0);
            if !e.depth.is_finite() {
                return Err(QueryError::NonFiniteInput);
            }
            if seeds {
                cache.store(-e.normal.into_inner());
                cache.clear_seed();
            }
            let (ra, rb) = md.margins();
            return Ok(Local::Contact(Contact::Penetrating(Penetration {
                depth: e.depth + ra + rb,
                normal: e.normal,
                point_a: e.point_a + e.normal.into_inner() * ra,
                point_b: e.point_b - e.normal.into_inner() * rb,
            })));
        }
    };
    // Only a seeding query's cache is the caller's; the other queries' is
    // a temporary, dropped on return.
    if seeds {
        cache.store(g.direction);
        cache.store_seed(&g.simplex, md);
    }
    let (core_a, core_b) = g.simplex.witnesses();
    // v = a − b points from B's core to A's, so A→B is −v.
    let normal = Unit::try_new(-g.direction, 0.0).ok_or(QueryError::NonFiniteInput)?;
    Ok(Local::Contact(cores_apart(md.margins(), core_distance, normal, core_a, core_b)))
}

/// Whether the shapes overlap, by GJK alone: it stops as soon as either
/// bound settles the verdict, and needs no cache (an intersection query
/// has none to fill).
#[inline]
fn gjk_verdict<A, B>(md: &MinkowskiDifference<'_, A, B>) -> Result<bool, QueryError>
where
    A: SupportMap + ?Sized,
    B: SupportMap + ?Sized,
{
    let sum = md.margin_sum();
    let settings = GjkSettings { stop_beyond: sum, stop_within: sum };
    let mut r = GjkResult::empty();
    gjk_in(md, -md.pose_b_in_a().translation.vector, &settings, false, &mut NoRecord, &mut r);
    match r.outcome {
        GjkOutcome::Overlapping | GjkOutcome::Within { .. } => Ok(true),
        GjkOutcome::Beyond { .. } => Ok(false),
        GjkOutcome::Separated { distance } | GjkOutcome::IterationLimit { distance } => {
            Ok(distance <= sum)
        }
        GjkOutcome::NonFinite => Err(QueryError::NonFiniteInput),
    }
}

/// Runs a query: a closed form if the pair has one, else GJK/EPA in A's
/// frame; the answer is taken to the world. The crate's own shapes are
/// matched once here, so the rest runs on concrete types, each pair of
/// kinds in its own function ([`run_pair`]).
fn run<A, B, W>(
    a: &A,
    pose_a: &Isometry3<f32>,
    b: &B,
    pose_b: &Isometry3<f32>,
    cache: &mut GjkCache,
) -> Result<W::Answer, QueryError>
where
    A: SupportMap + ?Sized,
    B: SupportMap + ?Sized,
    W: Ask,
{
    match (a.as_shape_ref(), b.as_shape_ref()) {
        (Some(ra), Some(rb)) => {
            with_shape_pair!(ra, rb, |x, y| run_pair::<_, _, W>(x, pose_a, y, pose_b, cache))
        }
        _ => run_on::<_, _, W>(a, pose_a, b, pose_b, cache).and_then(W::answer),
    }
}

/// [`run`] on one pair of the crate's own kinds, kept out of line: the
/// dispatch in [`run`] then ends in a jump to it, and the smallest pairs
/// (two spheres, a sphere and a box) do not share one large function, and
/// its register saves and stack frame, with every other pair's path.
#[inline(never)]
fn run_pair<A, B, W>(
    a: &A,
    pose_a: &Isometry3<f32>,
    b: &B,
    pose_b: &Isometry3<f32>,
    cache: &mut GjkCache,
) -> Result<W::Answer, QueryError>
where
    A: SupportMap + ?Sized,
    B: SupportMap + ?Sized,
    W: Ask,
{
    run_on::<_, _, W>(a, pose_a, b, pose_b, cache).and_then(W::answer)
}

/// [`run_on`] for a pair with a box to cut to a window (rare, so kept out
/// of line): on the window, or on the shapes as given if no window
/// applies after all (bad parameters, which the query then reports).
#[cold]
#[inline(never)]
fn run_windowed<A, B, W>(
    a: &A,
    pose_a: &Isometry3<f32>,
    b: &B,
    pose_b: &Isometry3<f32>,
    cache: &mut GjkCache,
) -> Result<Local, QueryError>
where
    A: SupportMap + ?Sized,
    B: SupportMap + ?Sized,
    W: Ask,
{
    if let (Some(ShapeRef::Cuboid(boxed)), Some(other)) = (a.as_shape_ref(), b.as_shape_ref())
        && let Some((cut, pose)) = window(boxed, pose_a, other, pose_b)
    {
        return run_on::<_, _, W>(&cut, &pose, b, pose_b, cache);
    }
    if let (Some(other), Some(ShapeRef::Cuboid(boxed))) = (a.as_shape_ref(), b.as_shape_ref())
        && let Some((cut, pose)) = window(boxed, pose_b, other, pose_a)
    {
        return run_on::<_, _, W>(a, pose_a, &cut, &pose, cache);
    }
    run_direct::<_, _, W>(a, pose_a, b, pose_b, cache)
}

/// [`run`] on shapes of known types.
#[inline]
fn run_on<A, B, W>(
    a: &A,
    pose_a: &Isometry3<f32>,
    b: &B,
    pose_b: &Isometry3<f32>,
    cache: &mut GjkCache,
) -> Result<Local, QueryError>
where
    A: SupportMap + ?Sized,
    B: SupportMap + ?Sized,
    W: Ask,
{
    // A box much larger than the other shape is cut to a window around it
    // first (see `window`): the answer is the same, without the rounding of
    // its far corners. For shapes of known types the test folds to one
    // comparison, or to nothing when neither is a box.
    if needs_window(a.as_shape_ref(), b.as_shape_ref()) {
        return run_windowed::<_, _, W>(a, pose_a, b, pose_b, cache);
    }
    run_direct::<_, _, W>(a, pose_a, b, pose_b, cache)
}

/// [`run_on`] without the window test.
#[inline(always)]
fn run_direct<A, B, W>(
    a: &A,
    pose_a: &Isometry3<f32>,
    b: &B,
    pose_b: &Isometry3<f32>,
    cache: &mut GjkCache,
) -> Result<Local, QueryError>
where
    A: SupportMap + ?Sized,
    B: SupportMap + ?Sized,
    W: Ask,
{
    let want = W::WANT;
    let input = check_input(a, pose_a, b, pose_b)?;
    let local = match closed_form(&input, pose_a, pose_b)? {
        // Points are in the world already.
        Some(ClosedForm::Points([pa, pb])) => return Ok(point_query(input.margins, pa, pb, want)),
        Some(ClosedForm::Segments(sa, sb)) => segment_query(input.margins, sa, sb, want),
        Some(ClosedForm::SphereBox(sb)) => {
            if want == Want::Intersects {
                return Ok(verdict(point_box_intersects(&sb.half, &sb.centre_in_box, sb.margins)));
            }
            // Solved in the box's frame (where the box is exact), taken to the
            // world by the box's pose, then given A's point of view.
            let in_box = point_box_contact(&sb.half, &sb.centre_in_box, sb.margins);
            // Like GJK's early stops: a penetration query on a separated pair
            // and a distance query on an overlapping one need nothing taken
            // to the world.
            let separated = matches!(in_box, Contact::Separated { .. });
            if let Some(early) = early_answer(want, separated) {
                return Ok(early);
            }
            let world = in_box.to_world(if sb.box_is_a { pose_a } else { pose_b });
            return Ok(Local::Contact(if sb.box_is_a { world } else { swapped(world) }));
        }
        // The separating-axis test settles an intersection query, a
        // distance query on an overlapping pair and a penetration query on a
        // separated one, and gives the depth of an overlapping pair and the
        // distance of a separated one where they are well conditioned.
        Some(ClosedForm::Boxes { overlap, halves, pose_b_in_a }) => {
            match early_answer(want, !overlap) {
                Some(early) => return Ok(early),
                None => {
                    let closed = if overlap {
                        box_penetration(&halves.0, &halves.1, &pose_b_in_a)
                            .map(Contact::Penetrating)
                    } else {
                        box_distance(&halves.0, &halves.1, &pose_b_in_a)
                    };
                    match closed {
                        Some(c) => Local::Contact(c),
                        None => gjk_epa(
                            &MinkowskiDifference::new(a, b, pose_b_in_a),
                            want,
                            W::SEEDS,
                            cache,
                            &mut NoRecord,
                        )?,
                    }
                }
            }
        }
        None => {
            // Bounding balls apart settle an intersection test and a
            // penetration query on a separated pair before any support call.
            if matches!(want, Want::Intersects | Want::Penetration)
                && bounding_balls_apart(a, pose_a, b, pose_b)
                && let Some(early) = early_answer(want, true)
            {
                return Ok(early);
            }
            // A point core against a general shape: GJK in the general
            // shape's frame (see `point_core`). Not for a full contact, whose
            // cache holds a direction in A's frame.
            if want != Want::Contact {
                if let (Core::Point(p), Core::General) = input.cores {
                    return point_core_query(
                        b,
                        pose_b,
                        p,
                        pose_a,
                        input.margins.0,
                        want,
                        W::PROJECT_POINT_CORE,
                    )
                    .map(|local| swap_local(local, pose_b));
                }
                if let (Core::General, Core::Point(p)) = input.cores {
                    return point_core_query(
                        a,
                        pose_a,
                        p,
                        pose_b,
                        input.margins.1,
                        want,
                        W::PROJECT_POINT_CORE,
                    )
                    .map(|local| to_world_local(local, pose_a));
                }
            }
            let md = MinkowskiDifference::new(a, b, b_in_a(pose_a, pose_b));
            if want == Want::Intersects {
                return gjk_verdict(&md).map(verdict);
            }
            gjk_epa(&md, want, W::SEEDS, cache, &mut NoRecord)?
        }
    };
    Ok(match local {
        Local::Contact(c) => Local::Contact(c.to_world(pose_a)),
        other => other,
    })
}

/// A query between a general shape (`general`, placed by `pose_general`)
/// and a point core (`point`, in its own shape's frame, which `pose_point`
/// places, with `margin`), run in the general shape's frame with the general
/// shape as A; the answer stays in that frame (see `point_core`). Only for
/// queries without a caller's cache. With `project`, a cylinder or a cone
/// answers by its exact point projection (`point_core_projection`)
/// instead of GJK. Always inlined into the pair's
/// `run_pair`: called, its answer came back through the stack in pieces
/// that the caller's wider loads read across, a store-forwarding stall
/// that was an eighth of a sphere–hull query's time (when it was inlined
/// into the 16-pair `run`, before `run_pair`, it cost 3 % more
/// instructions instead).
#[inline(always)]
fn point_core_query<G: SupportMap + ?Sized>(
    general: &G,
    pose_general: &Isometry3<f32>,
    point: Point3<f32>,
    pose_point: &Isometry3<f32>,
    margin: f32,
    want: Want,
    project: bool,
) -> Result<Local, QueryError> {
    let point_in_general = pose_general.inverse_transform_point(&place(pose_point, point));
    if project && let Some(projected) = project_onto_core(general, &point_in_general) {
        return Ok(match projected {
            Projected::Inside => Local::Overlapping,
            Projected::Outside { core_distance, normal, core_point } => {
                Local::Contact(cores_apart(
                    (general.margin(), margin),
                    core_distance,
                    normal,
                    core_point,
                    point_in_general,
                ))
            }
        });
    }
    let point_core = PointCore { margin };
    let md = MinkowskiDifference::new(
        general,
        &point_core,
        Isometry3::from_parts(point_in_general.into(), UnitQuaternion::identity()),
    );
    if want == Want::Intersects {
        return gjk_verdict(&md).map(verdict);
    }
    gjk_epa(&md, want, false, &mut GjkCache::default(), &mut NoRecord)
}

/// A local answer taken to the world by `world_from_local`.
#[inline(always)]
fn to_world_local(local: Local, world_from_local: &Isometry3<f32>) -> Local {
    match local {
        Local::Contact(c) => Local::Contact(c.to_world(world_from_local)),
        other => other,
    }
}

/// A local answer of the swapped pair (B as A) taken to the world by
/// `world_from_local` and given A's point of view again.
#[inline(always)]
fn swap_local(local: Local, world_from_local: &Isometry3<f32>) -> Local {
    match local {
        Local::Contact(c) => Local::Contact(swapped(c.to_world(world_from_local))),
        other => other,
    }
}

/// The larger of two numbers known not to be NaN (validated input): one
/// comparison, where `f32::max` also spends several instructions on NaN
/// handling. Equal to `f32::max` for such input, up to the sign of zero.
#[inline(always)]
fn finite_max(x: f32, y: f32) -> f32 {
    if x > y { x } else { y }
}

/// An intersection query's answer.
#[inline(always)]
fn verdict(overlap: bool) -> Local {
    if overlap { Local::Overlapping } else { Local::Apart }
}

/// The answer a query can give from the verdict alone, before any normal or
/// witness point is computed: every intersection query, a penetration query
/// on a separated pair and a distance query on an overlapping one.
#[inline(always)]
fn early_answer(want: Want, separated: bool) -> Option<Local> {
    match (want, separated) {
        (Want::Intersects, _) => Some(verdict(!separated)),
        (Want::Penetration, true) => Some(Local::Apart),
        (Want::Distance, false) => Some(Local::Overlapping),
        _ => None,
    }
}

/// The contact of two cores a positive distance apart along `normal`
/// (A→B), once the margins are added back.
#[inline(always)]
fn cores_apart(
    (ra, rb): (f32, f32),
    core_distance: f32,
    normal: Unit<Vector3<f32>>,
    core_a: Point3<f32>,
    core_b: Point3<f32>,
) -> Contact {
    let point_a = core_a + normal.into_inner() * ra;
    let point_b = core_b - normal.into_inner() * rb;
    let distance = core_distance - ra - rb;
    if distance > 0.0 {
        Contact::Separated { distance, normal, point_a, point_b }
    } else {
        Contact::Penetrating(Penetration { depth: -distance, normal, point_a, point_b })
    }
}

/// Exact answer for two point cores (spheres): the gap between them is the
/// answer. The verdict needs only the gap's length, so every query but a
/// full contact returns before the normal is formed.
#[inline(always)]
fn point_query((ra, rb): (f32, f32), a: Point3<f32>, b: Point3<f32>, want: Want) -> Local {
    let gap = b - a;
    if want == Want::Intersects {
        // No square root: the squared gap against the squared reach.
        let sum = ra + rb;
        return verdict(gap.norm_squared() <= sum * sum);
    }
    let d = gap.norm();
    // The same expression as `cores_apart`'s, so the early verdict and the
    // full contact never disagree.
    if let Some(early) = early_answer(want, d - ra - rb > 0.0) {
        return early;
    }
    Local::Contact(point_contact((ra, rb), a, b, gap, d))
}

/// Exact contact of two point cores, given their gap `b − a` and its length.
#[inline]
fn point_contact(
    (ra, rb): (f32, f32),
    a: Point3<f32>,
    b: Point3<f32>,
    gap: Vector3<f32>,
    d: f32,
) -> Contact {
    let largest = |p: &Point3<f32>| finite_max(finite_max(p.x.abs(), p.y.abs()), p.z.abs());
    let touch = SEGMENT_TOUCH_REL * finite_max(finite_max(largest(&a), largest(&b)), ra + rb);
    let normal =
        if d > touch { Unit::new_unchecked(gap / d) } else { crossing_normal([a, a], [b, b]) };
    cores_apart((ra, rb), d, normal, a, b)
}

/// Exact answer for two point-or-segment cores (spheres and capsules). As
/// for points, the verdict comes before the normal, and only a full contact
/// forms it.
#[inline]
fn segment_query(
    (ra, rb): (f32, f32),
    seg_a: [Point3<f32>; 2],
    seg_b: [Point3<f32>; 2],
    want: Want,
) -> Local {
    if want == Want::Intersects {
        let c = closest_points_segments(seg_a, seg_b);
        return verdict((c.on_first - c.on_second).norm() <= ra + rb);
    }
    if seg_a[0] == seg_a[1] && seg_b[0] == seg_b[1] {
        return point_query((ra, rb), seg_a[0], seg_b[0], want);
    }
    let closest = closest_points_segments(seg_a, seg_b);
    let (core_a, core_b) = (closest.on_first, closest.on_second);
    let gap = core_b - core_a;
    let mut d = gap.norm();
    let da = seg_a[1] - seg_a[0];
    let db = seg_b[1] - seg_b[0];
    let cross = da.cross(&db);
    // When the closest points are interior to two non-parallel segments,
    // they lie on the lines' common perpendicular: the normal is the cross
    // product and the distance the lines' separation along it. Taking them
    // from there avoids dividing the tiny difference of two nearly-equal
    // closest points by its own length, which for nearly-crossing cores
    // tilts the normal.
    let well_skewed =
        cross.norm_squared() > COMMON_PERPENDICULAR_SIN_SQ * da.norm_squared() * db.norm_squared();
    let on_common_perpendicular = well_skewed && closest.interior();
    let mut line_gap = 0.0;
    if on_common_perpendicular {
        line_gap = cross.normalize().dot(&(seg_b[0] - seg_a[0]));
        d = line_gap.abs();
    }
    // The same expression as `cores_apart`'s, so the early verdict and the
    // full contact never disagree.
    if let Some(early) = early_answer(want, d - ra - rb > 0.0) {
        return early;
    }
    let scale = seg_a.iter().chain(seg_b.iter()).fold(0.0f32, |m, p| m.max(p.coords.norm()));
    let touch = SEGMENT_TOUCH_REL * scale.max(ra + rb);
    let normal = if on_common_perpendicular {
        if d > touch {
            Unit::new_normalize(cross * line_gap.signum())
        } else {
            crossing_normal(seg_a, seg_b)
        }
    } else if d > touch {
        Unit::new_unchecked(gap / d)
    } else {
        // The cores cross: the shortest way apart is perpendicular to both,
        // oriented from A's centre towards B's.
        crossing_normal(seg_a, seg_b)
    };
    Local::Contact(cores_apart((ra, rb), d, normal, core_a, core_b))
}

/// The separating direction for crossing point/segment cores: the common
/// perpendicular of two non-parallel segments, else the perpendicular to the
/// segment (or any direction, for points) closest to the line of centres;
/// oriented from A's centre to B's.
fn crossing_normal(seg_a: [Point3<f32>; 2], seg_b: [Point3<f32>; 2]) -> Unit<Vector3<f32>> {
    let da = seg_a[1] - seg_a[0];
    let db = seg_b[1] - seg_b[0];
    let centres = nalgebra::center(&seg_b[0], &seg_b[1]) - nalgebra::center(&seg_a[0], &seg_a[1]);
    let cross = da.cross(&db);
    let scale_sq = da.norm_squared() * db.norm_squared();
    let candidate = if cross.norm_squared() > PARALLEL_REL_SQ * scale_sq && scale_sq > 0.0 {
        cross
    } else {
        let axis = if da.norm_squared() >= db.norm_squared() { da } else { db };
        match axis.try_normalize(0.0) {
            Some(u) => centres - u * u.dot(&centres),
            None => centres,
        }
    };
    let n = Unit::try_new(candidate, 0.0).unwrap_or_else(|| {
        // Coincident centres on a common line: any perpendicular will do.
        let axis = if da.norm_squared() >= db.norm_squared() { da } else { db };
        let helper = if axis.x.abs() < 0.9 * axis.norm() { Vector3::x() } else { Vector3::z() };
        Unit::try_new(axis.cross(&helper), 0.0).unwrap_or_else(Vector3::y_axis)
    });
    if n.dot(&centres) < 0.0 { -n } else { n }
}
