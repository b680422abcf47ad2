//! `cargo run -p benches --release --example curved_accuracy -- [PAIR...]`:
//! for the separated rows of the `queries` suite's curved pairs
//! (cylinder–cylinder, cylinder–cone, cone–cone by default), how many
//! support calls each library spends per `closest_points` call and how far
//! the distance each returns lies from an independent f64 oracle.
//!
//! The pairs `sphere-cylinder` and `sphere-cone` (run only when named) use
//! the same separated poses and oracle (poses where the oracle finds the
//! shapes overlapping are skipped and counted) and compare three answers:
//! collide's `closest_points` (the point projection of
//! `query/point_core_projection.rs`), collide's GJK on the same pair
//! (`try_contact_with`, the path `closest_points` took before), and
//! parry3d's `closest_points` dispatcher (no support calls counted: it
//! projects the ball's centre too).
//!
//! The oracle is the tests crate's direction search
//! ([`tests::direction_search`]) on the closed-form support functions of
//! [`tests::revolution::Revolution`]: the largest gap between the shapes
//! along a unit direction, which shares nothing with either library. The
//! error printed is `(distance − oracle) / oracle`: positive when a library
//! stopped short of the distance (GJK's estimate is an upper bound).
//!
//! collide's support calls are its GJK iterations as its [`IterationLog`]
//! records them (the curved pairs' feature solve adds one unrecorded
//! support call for its certificate where it runs); parry3d's are counted by a
//! wrapper around its own cylinder and cone that counts
//! `local_support_point` calls, run through the function its
//! `closest_points` dispatches support-map pairs to.

use std::cell::Cell;

use benches::{CONE, CYLINDER, Placement, SPHERE_RADIUS, pose_pairs};
use collide::nalgebra::{Isometry3, Vector3};
use collide::query::{IterationLog, try_contact_with};
use collide::{Cone, Contact, Cylinder, Proximity, Shape, Sphere, closest_points};
use parry3d::math::{Pose, Vector};
use parry3d::query::ClosestPoints;
use parry3d::query::closest_points::closest_points_support_map_support_map;
use parry3d::shape::SupportMap as ParrySupportMap;
use tests::direction_search::max_gap;
use tests::revolution::Revolution;

#[path = "../benches/shared/peer.rs"]
mod peer;
use peer::parry_pose_pairs;

/// A parry3d cylinder or cone that counts its support calls.
struct Counted<'c, S> {
    shape: S,
    calls: &'c Cell<u32>,
}

impl<S: ParrySupportMap> ParrySupportMap for Counted<'_, S> {
    fn local_support_point(&self, dir: Vector) -> Vector {
        self.calls.set(self.calls.get() + 1);
        self.shape.local_support_point(dir)
    }
}

/// One side of a pair in the three representations.
#[derive(Clone, Copy, PartialEq)]
enum Kind {
    Sphere,
    Cylinder,
    Cone,
}

impl Kind {
    fn collide(self) -> Shape {
        match self {
            Kind::Sphere => Sphere::new(SPHERE_RADIUS).into(),
            Kind::Cylinder => Cylinder::new(CYLINDER.0, CYLINDER.1).into(),
            Kind::Cone => Cone::new(CONE.0, CONE.1).into(),
        }
    }

    /// The oracle's support value `max x·n` in the shape's frame.
    fn support(self, n: &Vector3<f64>) -> f64 {
        match self {
            Kind::Sphere => f64::from(SPHERE_RADIUS) * n.norm(),
            Kind::Cylinder => Revolution::cylinder(CYLINDER.0.into(), CYLINDER.1.into()).support(n),
            Kind::Cone => Revolution::cone(CONE.0.into(), CONE.1.into()).support(n),
        }
    }

    fn name(self) -> &'static str {
        match self {
            Kind::Sphere => "sphere",
            Kind::Cylinder => "cylinder",
            Kind::Cone => "cone",
        }
    }
}

/// parry3d's distance and support calls for one pose pair.
fn parry_side(a: Kind, b: Kind, pose_a: &Pose, pose_b: &Pose) -> (f64, u32) {
    let calls = Cell::new(0);
    let pos12 = pose_a.inv_mul(pose_b);
    let cyl = parry3d::shape::Cylinder::new(CYLINDER.0, CYLINDER.1);
    let cone = parry3d::shape::Cone::new(CONE.0, CONE.1);
    let result = match (a, b) {
        (Kind::Cylinder, Kind::Cylinder) => closest_points_support_map_support_map(
            &pos12,
            &Counted { shape: cyl, calls: &calls },
            &Counted { shape: cyl, calls: &calls },
            f32::MAX,
        ),
        (Kind::Cylinder, Kind::Cone) => closest_points_support_map_support_map(
            &pos12,
            &Counted { shape: cyl, calls: &calls },
            &Counted { shape: cone, calls: &calls },
            f32::MAX,
        ),
        (Kind::Cone, Kind::Cylinder) => closest_points_support_map_support_map(
            &pos12,
            &Counted { shape: cone, calls: &calls },
            &Counted { shape: cyl, calls: &calls },
            f32::MAX,
        ),
        (Kind::Cone, Kind::Cone) => closest_points_support_map_support_map(
            &pos12,
            &Counted { shape: cone, calls: &calls },
            &Counted { shape: cone, calls: &calls },
            f32::MAX,
        ),
        (Kind::Sphere, other) => {
            // parry3d's own dispatcher, world-frame points; no calls counted.
            let ball = parry3d::shape::Ball::new(SPHERE_RADIUS);
            let shape: &dyn parry3d::shape::Shape = if other == Kind::Cone { &cone } else { &cyl };
            let distance =
                match parry3d::query::closest_points(pose_a, &ball, pose_b, shape, f32::MAX) {
                    Ok(ClosestPoints::WithinMargin(p, q)) => f64::from((q - p).length()),
                    _ => f64::NAN,
                };
            return (distance, 0);
        }
        (_, Kind::Sphere) => unreachable!("sphere pairs are listed sphere first"),
    };
    let distance = match result {
        ClosestPoints::WithinMargin(p, q) => f64::from((pos12 * q - p).length()),
        _ => f64::NAN,
    };
    // Each CSO point is one call on each shape.
    (distance, calls.get() / 2)
}

/// The oracle's separation of the posed pair.
fn oracle(a: Kind, b: Kind, pose_a: &Isometry3<f32>, pose_b: &Isometry3<f32>) -> f64 {
    let (pa, pb): (Isometry3<f64>, Isometry3<f64>) = (pose_a.cast(), pose_b.cast());
    let h = |k: Kind, p: &Isometry3<f64>, n: &Vector3<f64>| {
        k.support(&p.inverse_transform_vector(n)) + p.translation.vector.dot(n)
    };
    max_gap(&|n| -h(b, &pb, &-n) - h(a, &pa, n)).0
}

/// Quantiles of a sorted list.
fn quantiles(v: &mut [f64]) -> String {
    v.sort_by(f64::total_cmp);
    let q = |f: f64| v[((v.len() - 1) as f64 * f).round() as usize];
    format!("median {:.1e} p90 {:.1e} p99 {:.1e} max {:.1e}", q(0.5), q(0.9), q(0.99), q(1.0))
}

fn main() {
    let wanted: Vec<String> = std::env::args().skip(1).collect();
    let pairs =
        [(Kind::Cylinder, Kind::Cylinder), (Kind::Cylinder, Kind::Cone), (Kind::Cone, Kind::Cone)];
    let poses = pose_pairs(Placement::Separated);
    let parry_poses = parry_pose_pairs(&poses);
    for (a, b) in [(Kind::Sphere, Kind::Cylinder), (Kind::Sphere, Kind::Cone)] {
        let name = format!("{}-{}", a.name(), b.name());
        if wanted.contains(&name) {
            sphere_pair(a, b, &poses, &parry_poses);
        }
    }
    for (a, b) in pairs {
        let name = format!("{}-{}", a.name(), b.name());
        if !wanted.is_empty() && !wanted.contains(&name) {
            continue;
        }
        let (sa, sb) = (a.collide(), b.collide());
        let mut log = IterationLog::default();
        let (mut ours_err, mut theirs_err) = (Vec::new(), Vec::new());
        let (mut ours_calls, mut theirs_calls) = (0u64, 0u64);
        for ((pose_a, pose_b), (qa, qb)) in poses.iter().zip(&parry_poses) {
            let exact = oracle(a, b, pose_a, pose_b);
            let ours = match try_contact_with(&sa, pose_a, &sb, pose_b, &mut log) {
                Ok(Contact::Separated { distance, .. }) => f64::from(distance),
                other => panic!("{name}: {other:?}"),
            };
            // GJK's iterations (the feature solve's one certificate call
            // is not recorded).
            ours_calls += log.gjk.len() as u64;
            let (theirs, calls) = parry_side(a, b, qa, qb);
            theirs_calls += u64::from(calls);
            ours_err.push((ours - exact) / exact);
            theirs_err.push((theirs - exact) / exact);
        }
        let n = poses.len() as f64;
        let mut ours_abs: Vec<f64> = ours_err.iter().map(|e| e.abs()).collect();
        let mut theirs_abs: Vec<f64> = theirs_err.iter().map(|e| e.abs()).collect();
        println!(
            "{name} separated, {} poses: GJK iterations per call collide {:.2} parry3d {:.2}",
            poses.len(),
            ours_calls as f64 / n,
            theirs_calls as f64 / n
        );
        println!("  |relative distance error| collide: {}", quantiles(&mut ours_abs));
        println!("  |relative distance error| parry3d: {}", quantiles(&mut theirs_abs));
        let below = |v: &[f64]| v.iter().filter(|&&e| e < -1e-6).count();
        println!(
            "  below the oracle by > 1e-6 (impossible beyond rounding): collide {} parry3d {}",
            below(&ours_err),
            below(&theirs_err)
        );
    }
}

/// The sphere pairs' comparison (see the file's header).
fn sphere_pair(
    a: Kind,
    b: Kind,
    poses: &[(Isometry3<f32>, Isometry3<f32>)],
    parry_poses: &[(Pose, Pose)],
) {
    let name = format!("{}-{}", a.name(), b.name());
    let (sa, sb) = (a.collide(), b.collide());
    let mut log = IterationLog::default();
    let (mut projected, mut gjk, mut theirs) = (Vec::new(), Vec::new(), Vec::new());
    let mut skipped = 0;
    for ((pose_a, pose_b), (qa, qb)) in poses.iter().zip(parry_poses) {
        let exact = oracle(a, b, pose_a, pose_b);
        if !(exact > 0.0) {
            skipped += 1;
            continue;
        }
        let ours = match closest_points(&sa, pose_a, &sb, pose_b) {
            Proximity::Separated { distance, .. } => f64::from(distance),
            Proximity::Intersecting => f64::NAN,
        };
        let by_gjk = match try_contact_with(&sa, pose_a, &sb, pose_b, &mut log) {
            Ok(Contact::Separated { distance, .. }) => f64::from(distance),
            _ => f64::NAN,
        };
        let (by_parry, _) = parry_side(a, b, qa, qb);
        projected.push((ours - exact) / exact);
        gjk.push((by_gjk - exact) / exact);
        theirs.push((by_parry - exact) / exact);
    }
    println!("{name} separated, {} poses ({skipped} overlapping, skipped):", projected.len());
    for (label, errors) in
        [("collide closest_points", &projected), ("collide GJK", &gjk), ("parry3d", &theirs)]
    {
        let mut abs: Vec<f64> = errors.iter().map(|e| e.abs()).collect();
        let below = errors.iter().filter(|&&e| e < -1e-6).count();
        println!(
            "  |relative distance error| {label}: {} (below the oracle by > 1e-6: {below})",
            quantiles(&mut abs)
        );
    }
}
