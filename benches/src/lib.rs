//! Seeded inputs shared by the criterion suites and the report command.
//!
//! Every benchmark draws its inputs from here, generated up front from a
//! fixed seed, and cycles through them, so runs are comparable across
//! machines and strategies, and the parry3d comparison sees exactly the same
//! shapes and poses as collide.
#![deny(missing_docs)]

use collide::nalgebra::{Isometry3, Point3, Translation3, UnitQuaternion, Vector3};
use collide::{
    Capsule, Cone, ConvexHull, Cuboid, Cylinder, Rounded, Shape, Sphere, SupportMap,
    SupportStrategy, closest_points, intersects, penetration,
};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

pub mod surface;

/// The seed behind every generated input.
pub const SEED: u64 = 0x5eed_c011_1de5;

/// Hull sizes (vertex counts) of the `support` suite.
pub const HULL_SIZES: [usize; 9] = [8, 16, 32, 64, 128, 256, 1024, 4096, 16384];

/// How many inputs each stream holds; benchmarks cycle through them. A power
/// of two, so the cycle index is a mask.
pub const STREAM_LEN: usize = 1024;

/// The surface the hull's points are drawn on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cloud {
    /// Uniform on the unit sphere.
    Sphere,
    /// The sphere stretched to semi-axes (2, 1, 0.25): long, flat hulls.
    Ellipsoid,
}

impl Cloud {
    /// Name used in benchmark ids and the report.
    pub fn name(self) -> &'static str {
        match self {
            Cloud::Sphere => "sphere",
            Cloud::Ellipsoid => "ellipsoid",
        }
    }
}

fn rng(stream: u64) -> StdRng {
    StdRng::seed_from_u64(SEED ^ stream.wrapping_mul(0x9e37_79b9_7f4a_7c15))
}

/// A rotation about a uniformly random axis by an angle uniform in [0, π).
fn random_rotation(rng: &mut StdRng) -> UnitQuaternion<f32> {
    UnitQuaternion::from_scaled_axis(unit_vector(rng) * rng.random_range(0.0..std::f32::consts::PI))
}

/// A point uniform in the cube [-5, 5)³ where the pair streams place
/// their first shape.
fn random_position(rng: &mut StdRng) -> Vector3<f32> {
    Vector3::new(
        rng.random_range(-5.0..5.0),
        rng.random_range(-5.0..5.0),
        rng.random_range(-5.0..5.0),
    )
}

fn unit_vector(rng: &mut StdRng) -> Vector3<f32> {
    // Rejection sampling in the unit ball gives a uniform direction.
    loop {
        let v: Vector3<f32> = Vector3::new(
            rng.random_range(-1.0..1.0),
            rng.random_range(-1.0..1.0),
            rng.random_range(-1.0..1.0),
        );
        let n = v.norm();
        if n > 1e-3 && n <= 1.0 {
            return v / n;
        }
    }
}

/// `n` points on the given surface. Every point of a sphere or ellipsoid is
/// extreme, so the hull has (almost always exactly) `n` vertices.
pub fn cloud(kind: Cloud, n: usize) -> Vec<Point3<f32>> {
    let mut r = rng(n as u64 + 17 * kind as u64);
    let scale = match kind {
        Cloud::Sphere => Vector3::new(1.0, 1.0, 1.0),
        Cloud::Ellipsoid => Vector3::new(2.0, 1.0, 0.25),
    };
    (0..n).map(|_| Point3::from(unit_vector(&mut r).component_mul(&scale))).collect()
}

/// [`STREAM_LEN`] uniformly random unit directions.
pub fn random_directions() -> Vec<Vector3<f32>> {
    let mut r = rng(1);
    (0..STREAM_LEN).map(|_| unit_vector(&mut r)).collect()
}

/// [`STREAM_LEN`] directions turning slowly (0.01 rad per step about a
/// tilted axis), as a resting contact's normal does from frame to frame.
pub fn turning_directions() -> Vec<Vector3<f32>> {
    let axis = Vector3::new(0.3, 1.0, 0.2).normalize();
    let start = Vector3::new(1.0, -0.2, 0.4).normalize();
    (0..STREAM_LEN)
        .map(|k| UnitQuaternion::from_scaled_axis(axis * (0.01 * k as f32)) * start)
        .collect()
}

/// Whether a query pair should overlap or be apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Placement {
    /// Centres 0.8 apart (every benchmark shape has a radius near 0.5).
    Overlapping,
    /// Centres 1.6 apart.
    Separated,
}

impl Placement {
    /// Name used in benchmark ids.
    pub fn name(self) -> &'static str {
        match self {
            Placement::Overlapping => "overlapping",
            Placement::Separated => "separated",
        }
    }
}

/// [`STREAM_LEN`] pose pairs `(pose_a, pose_b)`: random orientations, B's
/// centre at a fixed distance from A's in a random direction.
pub fn pose_pairs(placement: Placement) -> Vec<(Isometry3<f32>, Isometry3<f32>)> {
    let mut r = rng(2 + placement as u64);
    let gap = match placement {
        Placement::Overlapping => 0.8,
        Placement::Separated => 1.6,
    };
    (0..STREAM_LEN)
        .map(|_| {
            let a_at = random_position(&mut r);
            let b_at = a_at + unit_vector(&mut r) * gap;
            let pose_a = Isometry3::from_parts(Translation3::from(a_at), random_rotation(&mut r));
            let pose_b = Isometry3::from_parts(Translation3::from(b_at), random_rotation(&mut r));
            (pose_a, pose_b)
        })
        .collect()
}

/// The shapes of the `queries` suite, all about 1 m across.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum QueryShape {
    /// Radius 0.5.
    Sphere,
    /// Half-extents (0.5, 0.4, 0.3).
    Cuboid,
    /// Half-height 0.3, radius 0.25.
    Capsule,
    /// Hull of a seeded cloud of this many points on a sphere of radius 0.5.
    Hull(usize),
    /// Half-height 0.4, radius 0.35, along Y.
    Cylinder,
    /// Half-height 0.45, base radius 0.45, along Y, apex up.
    Cone,
    /// Half-extents (0.4, 0.3, 0.2) rounded by 0.1: the cuboid's outer size.
    RoundedCuboid,
}

impl QueryShape {
    /// Name used in benchmark ids.
    pub fn name(self) -> String {
        match self {
            QueryShape::Sphere => "sphere".into(),
            QueryShape::Cuboid => "cuboid".into(),
            QueryShape::Capsule => "capsule".into(),
            QueryShape::Hull(n) => format!("hull{n}"),
            QueryShape::Cylinder => "cylinder".into(),
            QueryShape::Cone => "cone".into(),
            QueryShape::RoundedCuboid => "rounded_cuboid".into(),
        }
    }

    /// The hull's points, radius 0.5, for hull shapes.
    pub fn hull_points(self) -> Option<Vec<Point3<f32>>> {
        match self {
            QueryShape::Hull(n) => {
                Some(cloud(Cloud::Sphere, n).into_iter().map(|p| p * 0.5).collect())
            }
            _ => None,
        }
    }
}

/// Half-extents of [`QueryShape::Cuboid`].
pub const CUBOID_HALF_EXTENTS: [f32; 3] = [0.5, 0.4, 0.3];
/// Radius of [`QueryShape::Sphere`].
pub const SPHERE_RADIUS: f32 = 0.5;
/// Half-height and radius of [`QueryShape::Capsule`].
pub const CAPSULE: (f32, f32) = (0.3, 0.25);

/// Half-height and radius of [`QueryShape::Cylinder`].
pub const CYLINDER: (f32, f32) = (0.4, 0.35);
/// Half-height and base radius of [`QueryShape::Cone`].
pub const CONE: (f32, f32) = (0.45, 0.45);
/// Inner half-extents and rounding radius of [`QueryShape::RoundedCuboid`].
pub const ROUNDED_CUBOID: ([f32; 3], f32) = ([0.4, 0.3, 0.2], 0.1);

/// The pairs of the `queries` suite's rows for the kinds collide added:
/// cylinder, cone and rounded cuboid against each other and against a hull
/// of 32 points.
pub const NEW_SHAPE_PAIRS: [(QueryShape, QueryShape); 9] = [
    (QueryShape::Cylinder, QueryShape::Cylinder),
    (QueryShape::Cylinder, QueryShape::Cone),
    (QueryShape::Cylinder, QueryShape::RoundedCuboid),
    (QueryShape::Cone, QueryShape::Cone),
    (QueryShape::Cone, QueryShape::RoundedCuboid),
    (QueryShape::RoundedCuboid, QueryShape::RoundedCuboid),
    (QueryShape::Cylinder, QueryShape::Hull(32)),
    (QueryShape::Cone, QueryShape::Hull(32)),
    (QueryShape::RoundedCuboid, QueryShape::Hull(32)),
];

/// Every kind the cast rows aim at: the mixed set of [`cast_rays`].
pub const CAST_SHAPES: [QueryShape; 7] = [
    QueryShape::Sphere,
    QueryShape::Cuboid,
    QueryShape::Capsule,
    QueryShape::Hull(32),
    QueryShape::Cylinder,
    QueryShape::Cone,
    QueryShape::RoundedCuboid,
];

/// One ray of the cast rows: a shape of [`CAST_SHAPES`] (by index) at
/// `pose`, and a ray from `origin` along `dir` with `max_toi = 1`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CastCase {
    /// Index into [`CAST_SHAPES`].
    pub shape: usize,
    /// The shape's pose.
    pub pose: Isometry3<f32>,
    /// Where the ray (or the moving shape's centre) starts.
    pub origin: Point3<f32>,
    /// The ray's direction per unit of `toi`; `toi ≤ 1` reaches 1.5 m past
    /// the shape's centre.
    pub dir: Vector3<f32>,
}

/// [`STREAM_LEN`] cast cases cycling through every kind of [`CAST_SHAPES`]:
/// a random pose, an origin 1.5 m to 3 m from the shape's centre in a
/// random direction, aimed at a random point within 0.6 m of the centre
/// (so most rays hit and some graze or miss), overshooting it by 1.5 m.
pub fn cast_rays() -> Vec<CastCase> {
    let mut r = rng(7);
    (0..STREAM_LEN)
        .map(|k| {
            let centre = Vector3::new(
                r.random_range(-5.0..5.0),
                r.random_range(-5.0..5.0),
                r.random_range(-5.0..5.0),
            );
            let rot = UnitQuaternion::from_scaled_axis(
                unit_vector(&mut r) * r.random_range(0.0..std::f32::consts::PI),
            );
            let pose = Isometry3::from_parts(Translation3::from(centre), rot);
            let origin = Point3::from(centre + unit_vector(&mut r) * r.random_range(1.5..3.0));
            let aim = Point3::from(centre + unit_vector(&mut r) * r.random_range(0.0..0.6));
            let to_aim = aim - origin;
            let dir = to_aim + to_aim.normalize() * 1.5;
            CastCase { shape: k % CAST_SHAPES.len(), pose, origin, dir }
        })
        .collect()
}

/// The collide shape of a [`QueryShape`], every size multiplied by
/// `scale`, hulls with `strategy` (the other kinds ignore it). Every
/// suite and cost example builds its collide shapes here, and its parry3d
/// shapes with the same sizes in `benches/benches/shared/peer.rs`.
pub fn collide_shape(s: QueryShape, strategy: SupportStrategy, scale: f32) -> Shape {
    match s {
        QueryShape::Sphere => Sphere::new(SPHERE_RADIUS * scale).into(),
        QueryShape::Cuboid => Cuboid::new(Vector3::from(CUBOID_HALF_EXTENTS) * scale).into(),
        QueryShape::Capsule => Capsule::new(CAPSULE.0 * scale, CAPSULE.1 * scale).into(),
        QueryShape::Hull(_) => {
            let points: Vec<Point3<f32>> =
                s.hull_points().expect("hull shape").iter().map(|p| p * scale).collect();
            ConvexHull::new(&points).expect("sphere cloud").with_strategy(strategy).into()
        }
        QueryShape::Cylinder => Cylinder::new(CYLINDER.0 * scale, CYLINDER.1 * scale).into(),
        QueryShape::Cone => Cone::new(CONE.0 * scale, CONE.1 * scale).into(),
        QueryShape::RoundedCuboid => Rounded::new(
            Cuboid::new(Vector3::from(ROUNDED_CUBOID.0) * scale),
            ROUNDED_CUBOID.1 * scale,
        )
        .into(),
    }
}

/// One case of the mixed-pair rows (issue 41): two shapes of
/// [`CAST_SHAPES`] (by index), each at its own scale, at their poses.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MixedPair {
    /// Indices into [`CAST_SHAPES`] of A and B.
    pub kinds: (usize, usize),
    /// Factors on A's and B's sizes: log-uniform over 0.1–10, so the
    /// shapes (about 1 m across at scale 1) are 0.1 m to 10 m across.
    pub scales: (f32, f32),
    /// A's pose.
    pub pose_a: Isometry3<f32>,
    /// B's pose.
    pub pose_b: Isometry3<f32>,
    /// Whether the shapes overlap (even cases) or are apart (odd cases).
    pub overlapping: bool,
}

/// collide's shapes of [`mixed_pairs`]' cases, A and B, at their scales
/// (adaptive hull strategy); parry3d's are `peer::parry_mixed_pairs`.
pub fn mixed_shapes(cases: &[MixedPair]) -> Vec<(Shape, Shape)> {
    let shape = |kind: usize, scale| collide_shape(CAST_SHAPES[kind], SupportStrategy::Auto, scale);
    cases.iter().map(|k| (shape(k.kinds.0, k.scales.0), shape(k.kinds.1, k.scales.1))).collect()
}

/// The three pair queries of the `queries` rows, picked before the timed
/// loop so that the loop matches on a small enum, not a string.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PairQuery {
    /// `intersects` (parry3d: `intersection_test`).
    Intersects,
    /// `closest_points` (parry3d: `closest_points` with no margin limit).
    ClosestPoints,
    /// `penetration` (parry3d: `contact` with a zero prediction).
    Penetration,
}

impl PairQuery {
    /// The three, in the order of the suite's rows.
    pub const ALL: [Self; 3] = [Self::Intersects, Self::ClosestPoints, Self::Penetration];

    /// The row name: `intersects`, `closest_points` or `penetration`.
    pub fn name(self) -> &'static str {
        match self {
            Self::Intersects => "intersects",
            Self::ClosestPoints => "closest_points",
            Self::Penetration => "penetration",
        }
    }

    /// The query of a row name, if it is one of the three.
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|q| q.name() == name)
    }
}

/// Runs `query` through collide on one pair, its answer passed through
/// `black_box` (the shared body of the suite's and `row_cost`'s loops).
#[inline(always)]
pub fn collide_pair_query(
    query: PairQuery,
    a: &Shape,
    pose_a: &Isometry3<f32>,
    b: &Shape,
    pose_b: &Isometry3<f32>,
) {
    match query {
        PairQuery::Intersects => {
            std::hint::black_box(intersects(a, pose_a, b, pose_b));
        }
        PairQuery::ClosestPoints => {
            std::hint::black_box(closest_points(a, pose_a, b, pose_b));
        }
        PairQuery::Penetration => {
            std::hint::black_box(penetration(a, pose_a, b, pose_b));
        }
    }
}

/// The stream of the `project_point` rows: each overlapping pose pair's
/// first pose, with the point at `reach` of the way from its centre to
/// the second pose's centre (0.8 away): 0.3 puts it inside every shape
/// (0.24 from the centre), 1.0 outside (0.8).
pub fn point_stream(reach: f32) -> Vec<(Isometry3<f32>, Point3<f32>)> {
    pose_pairs(Placement::Overlapping)
        .iter()
        .map(|(a, b)| {
            let (from, to) = (a.translation.vector, b.translation.vector);
            (*a, Point3::from(from + (to - from) * reach))
        })
        .collect()
}

/// The scales of [`mixed_pairs`]' shapes: log-uniform over this range.
pub const MIXED_SCALES: (f32, f32) = (0.1, 10.0);

/// Bisection steps placing a mixed pair at its contact distance: the
/// bracket starts at most 2 × 10 × 0.7 m wide, so 40 halvings resolve it
/// to ~1e-11 m, below f32's resolution at any of its distances.
const PLACEMENT_STEPS: u32 = 40;

/// [`STREAM_LEN`] cases of the mixed-pair rows: random kinds of every
/// [`CAST_SHAPES`] kind, random scales ([`MIXED_SCALES`]), random
/// orientations, A's centre within 5 m of the origin and B's in a random
/// direction from it; half of them overlapping.
///
/// Each pair is placed by its contact distance along that direction,
/// `t₀`, found by bisection on collide's `intersects` (the shapes touch
/// at `t₀`, overlap nearer and are apart farther, as the centres lie in
/// both convex shapes): even cases at `t₀ · U(0.2, 0.98)`, odd ones at
/// `t₀ · U(1.02, 1.5)`, so separated pairs are near misses whose bounding
/// balls mostly still overlap, not trivially apart.
pub fn mixed_pairs() -> Vec<MixedPair> {
    let mut r = rng(11);
    let (lo, hi) = (MIXED_SCALES.0.ln(), MIXED_SCALES.1.ln());
    (0..STREAM_LEN)
        .map(|k| {
            let kinds =
                (r.random_range(0..CAST_SHAPES.len()), r.random_range(0..CAST_SHAPES.len()));
            let scales = (r.random_range(lo..hi).exp(), r.random_range(lo..hi).exp());
            let a_at = random_position(&mut r);
            let (rot_a, rot_b, dir) =
                (random_rotation(&mut r), random_rotation(&mut r), unit_vector(&mut r));
            let a = collide_shape(CAST_SHAPES[kinds.0], SupportStrategy::Auto, scales.0);
            let b = collide_shape(CAST_SHAPES[kinds.1], SupportStrategy::Auto, scales.1);
            let pose_a = Isometry3::from_parts(Translation3::from(a_at), rot_a);
            let pose_b_at =
                |t: f32| Isometry3::from_parts(Translation3::from(a_at + dir * t), rot_b);
            let (mut near, mut far) = (0.0f32, a.bounding_radius() + b.bounding_radius());
            for _ in 0..PLACEMENT_STEPS {
                let mid = 0.5 * (near + far);
                if intersects(&a, &pose_a, &b, &pose_b_at(mid)) {
                    near = mid;
                } else {
                    far = mid;
                }
            }
            let overlapping = k % 2 == 0;
            let t = if overlapping {
                near * r.random_range(0.2..0.98)
            } else {
                far * r.random_range(1.02..1.5)
            };
            MixedPair { kinds, scales, pose_a, pose_b: pose_b_at(t), overlapping }
        })
        .collect()
}

/// The pairs of the `queries` suite.
pub const QUERY_PAIRS: [(QueryShape, QueryShape); 9] = [
    (QueryShape::Sphere, QueryShape::Sphere),
    (QueryShape::Sphere, QueryShape::Cuboid),
    (QueryShape::Capsule, QueryShape::Capsule),
    (QueryShape::Capsule, QueryShape::Cuboid),
    (QueryShape::Cuboid, QueryShape::Cuboid),
    (QueryShape::Sphere, QueryShape::Hull(32)),
    (QueryShape::Hull(32), QueryShape::Hull(32)),
    (QueryShape::Hull(64), QueryShape::Hull(64)),
    (QueryShape::Hull(1024), QueryShape::Hull(1024)),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inputs_are_reproducible_and_unit_length() {
        assert_eq!(random_directions(), random_directions());
        assert_eq!(cloud(Cloud::Ellipsoid, 64), cloud(Cloud::Ellipsoid, 64));
        for d in random_directions().iter().chain(turning_directions().iter()) {
            assert!((d.norm() - 1.0).abs() < 1e-5);
        }
    }

    #[test]
    fn cast_rays_cover_every_kind_and_start_outside() {
        let cases = cast_rays();
        assert_eq!(cases, cast_rays());
        for k in 0..CAST_SHAPES.len() {
            assert!(cases.iter().filter(|c| c.shape == k).count() >= STREAM_LEN / 8);
        }
        for c in &cases {
            // 1.5 m or more from the centre: outside every shape (all
            // within 0.7 m of their centres).
            assert!((c.origin.coords - c.pose.translation.vector).norm() >= 1.5 - 1e-5);
        }
    }

    #[test]
    fn mixed_pairs_cover_every_kind_half_overlapping() {
        let cases = mixed_pairs();
        assert_eq!(cases, mixed_pairs());
        for k in 0..CAST_SHAPES.len() {
            assert!(cases.iter().any(|c| c.kinds.0 == k) && cases.iter().any(|c| c.kinds.1 == k));
        }
        for c in &cases {
            let a = collide_shape(CAST_SHAPES[c.kinds.0], SupportStrategy::Auto, c.scales.0);
            let b = collide_shape(CAST_SHAPES[c.kinds.1], SupportStrategy::Auto, c.scales.1);
            assert_eq!(intersects(&a, &c.pose_a, &b, &c.pose_b), c.overlapping, "{c:?}");
            assert!(c.scales.0 >= MIXED_SCALES.0 && c.scales.0 <= MIXED_SCALES.1);
        }
        assert_eq!(cases.iter().filter(|c| c.overlapping).count(), STREAM_LEN / 2);
    }

    #[test]
    fn placements_put_centres_where_promised() {
        for (p, gap) in [(Placement::Overlapping, 0.8), (Placement::Separated, 1.6)] {
            for (a, b) in pose_pairs(p) {
                let d = (b.translation.vector - a.translation.vector).norm();
                assert!((d - gap).abs() < 1e-4);
            }
        }
    }
}
