//! collide's composite shapes (`TriMesh`, `HeightField`, `Compound`) and
//! the queries of `collide::composite` against brute force over every
//! triangle or part:
//!
//! * in f64, sharing no code with collide: point projection and sphere
//!   distance (closest point on each triangle), ray casts (Möller–Trumbore
//!   on each triangle), exact boxes (every vertex transformed), compound
//!   mass properties (closed forms, and a midpoint-rule volume integral);
//! * through collide's convex query on every triangle or part, with no
//!   hierarchy (so the hierarchy's culling, the expansion of composites into
//!   parts, the part indices and the swapping of A and B are what is
//!   tested): intersection, distance, penetration, shape casts and time of
//!   impact, for cuboids and hulls.
//!
//! Every case runs under seeded random poses; distances are checked for
//! rotation and translation invariance, scale (1e-2, 1e2) and A/B swaps.
//! Every bad input is a typed error, and the convex queries refuse
//! composites instead of treating them as their hull. Ported from parry
//! (rewritten): the pyramid mesh-vs-mesh cast of its issue 194 test, the
//! tiny-mesh distance of issue 17, the off-centre compound part of issue
//! 387, and heightfield point projection (issue 332).

use collide::composite::{
    self, CompositeError, Compound, HeightField, ManifoldSet, PartIds, TriMesh,
};
use collide::nalgebra::{Isometry3, Point3, Translation3, UnitQuaternion, Vector3};
use collide::{
    ConvexHull, Cuboid, MassProperties, Proximity, QueryError, Ray, RayCast, Shape, ShapeCast,
    Sphere, SupportMap, Sweep, TimeOfImpact, Triangle,
};
use tests::SplitMix64;
use tests::closest::closest_on_triangle;
use tests::generators::isometry;

const SEED: u64 = 0x0038;

/// Rounding allowed on distances and times, relative to the scene's size:
/// f32 queries on shapes a few metres across at up to 10 m from the origin.
const TOL: f64 = 2e-4;

/// A bumpy grid of `n × n` cells of width `c`: heights from `rng`, as the
/// documented heightfield layout (rows along x, stacked along z, centred)
/// and the same triangles as an indexed mesh written out here.
struct Terrain {
    rows: usize,
    heights: Vec<f32>,
    cell: f32,
}

impl Terrain {
    fn random(rng: &mut SplitMix64, n: usize, cell: f32, bump: f64) -> Self {
        let heights = (0..(n + 1) * (n + 1)).map(|_| rng.range(-bump, bump) as f32).collect();
        Self { rows: n + 1, heights, cell }
    }

    fn sample(&self, row: usize, col: usize) -> Point3<f32> {
        let half = 0.5 * (self.rows - 1) as f32;
        Point3::new(
            (col as f32 - half) * self.cell,
            self.heights[row * self.rows + col],
            (row as f32 - half) * self.cell,
        )
    }

    /// Triangles in the heightfield's documented order: cell (r, c) gives
    /// (p00, p01, p11) then (p00, p11, p10), p01 one row on (+z).
    fn triangles(&self) -> Vec<[Point3<f32>; 3]> {
        let n = self.rows - 1;
        let mut out = Vec::new();
        for r in 0..n {
            for c in 0..n {
                let (p00, p10) = (self.sample(r, c), self.sample(r, c + 1));
                let (p01, p11) = (self.sample(r + 1, c), self.sample(r + 1, c + 1));
                out.push([p00, p01, p11]);
                out.push([p00, p11, p10]);
            }
        }
        out
    }

    fn field(&self) -> Shape {
        HeightField::try_new(self.rows, self.rows, self.heights.clone(), [self.cell, self.cell])
            .unwrap()
            .into()
    }

    fn mesh(&self) -> Shape {
        let n = self.rows;
        let vertices: Vec<Point3<f32>> = (0..n)
            .flat_map(|r| (0..n).map(move |c| (r, c)))
            .map(|(r, c)| self.sample(r, c))
            .collect();
        let mut triangles = Vec::new();
        for r in 0..n as u32 - 1 {
            for c in 0..n as u32 - 1 {
                let v = |rr: u32, cc: u32| rr * n as u32 + cc;
                triangles.push([v(r, c), v(r + 1, c), v(r + 1, c + 1)]);
                triangles.push([v(r, c), v(r + 1, c + 1), v(r, c + 1)]);
            }
        }
        TriMesh::try_new(vertices, triangles).unwrap().into()
    }
}

fn f64p(p: &Point3<f32>) -> Point3<f64> {
    p.cast::<f64>()
}

/// World triangles in f64.
fn world_triangles(tris: &[[Point3<f32>; 3]], pose: &Isometry3<f32>) -> Vec<[Point3<f64>; 3]> {
    let pose = pose.cast::<f64>();
    tris.iter().map(|t| t.map(|p| pose * f64p(&p))).collect()
}

/// Distance from `p` to the nearest triangle, and its index.
fn brute_point_distance(tris: &[[Point3<f64>; 3]], p: &Point3<f64>) -> (f64, usize) {
    tris.iter()
        .enumerate()
        .map(|(i, [a, b, c])| ((closest_on_triangle(p, a, b, c) - p).norm(), i))
        .fold((f64::INFINITY, 0), |best, x| if x.0 < best.0 { x } else { best })
}

/// Möller–Trumbore, two-sided: the ray parameter of the hit, if any.
fn ray_triangle(o: &Point3<f64>, d: &Vector3<f64>, [a, b, c]: &[Point3<f64>; 3]) -> Option<f64> {
    let (e1, e2) = (b - a, c - a);
    let p = d.cross(&e2);
    let det = e1.dot(&p);
    if det.abs() < 1e-300 {
        return None;
    }
    let s = o - a;
    let u = s.dot(&p) / det;
    let q = s.cross(&e1);
    let v = d.dot(&q) / det;
    let t = e2.dot(&q) / det;
    (u >= 0.0 && v >= 0.0 && u + v <= 1.0 && t >= 0.0).then_some(t)
}

fn scene_pose(rng: &mut SplitMix64) -> Isometry3<f32> {
    isometry(rng, 10.0)
}

#[test]
fn heightfield_triangles_follow_the_documented_layout() {
    let mut rng = SplitMix64::new(SEED);
    let t = Terrain::random(&mut rng, 5, 0.7, 0.3);
    let Shape::HeightField(field) = t.field() else { unreachable!() };
    let Shape::TriMesh(mesh) = t.mesh() else { unreachable!() };
    for (i, tri) in t.triangles().iter().enumerate() {
        let from_field = field.triangle(i as u32).unwrap();
        let from_mesh = mesh.triangle(i as u32).unwrap();
        assert_eq!([from_field.a, from_field.b, from_field.c], *tri, "triangle {i}");
        assert_eq!(from_mesh, from_field);
        assert_eq!(mesh.active_edges(i as u32), field.active_edges(i as u32), "edges of {i}");
    }
    assert!(field.triangle(50).is_none() && mesh.triangle(50).is_none());
}

#[test]
fn point_projection_matches_brute_force_over_triangles() {
    let mut rng = SplitMix64::new(SEED + 1);
    for case in 0..20 {
        let t = Terrain::random(&mut rng, 8, 0.5, 0.4);
        let pose = scene_pose(&mut rng);
        let tris = world_triangles(&t.triangles(), &pose);
        for shape in [t.mesh(), t.field()] {
            for _ in 0..30 {
                let local =
                    Point3::new(rng.range(-3.0, 3.0), rng.range(-1.5, 1.5), rng.range(-3.0, 3.0));
                let p = pose.cast::<f64>() * local;
                let (expected, _) = brute_point_distance(&tris, &p);
                let got =
                    composite::try_project_point(&shape, &pose, &p.cast::<f32>(), true).unwrap();
                let d = (f64p(&got.answer.point) - p).norm();
                assert!((d - expected).abs() < TOL * 10.0, "case {case}: {d} vs {expected}");
                let dist =
                    composite::try_distance_to_point(&shape, &pose, &p.cast::<f32>()).unwrap();
                if !got.answer.is_inside {
                    assert!((dist.answer as f64 - expected).abs() < TOL * 10.0);
                }
                // The part reported holds the projection.
                let part = got.parts.a.unwrap() as usize;
                let [a, b, c] = &tris[part];
                let on_part = (closest_on_triangle(&p, a, b, c) - p).norm();
                assert!((on_part - expected).abs() < TOL * 10.0, "case {case}: part {part}");
                assert!(
                    !composite::contains_point(&shape, &pose, &p.cast::<f32>()) || expected < 1e-4
                );
            }
        }
    }
}

#[test]
fn sphere_distance_and_overlap_match_brute_force_either_way_round() {
    let mut rng = SplitMix64::new(SEED + 2);
    for case in 0..20 {
        let t = Terrain::random(&mut rng, 8, 0.5, 0.4);
        let pose = scene_pose(&mut rng);
        let tris = world_triangles(&t.triangles(), &pose);
        for shape in [t.mesh(), t.field()] {
            for _ in 0..20 {
                let r = rng.range(0.05, 0.8);
                let local =
                    Point3::new(rng.range(-2.5, 2.5), rng.range(-1.0, 2.0), rng.range(-2.5, 2.5));
                let centre = pose.cast::<f64>() * local;
                let (to_centre, _) = brute_point_distance(&tris, &centre);
                let expected = to_centre - r;
                let ball: Shape = Sphere::new(r as f32).into();
                let ball_pose = Isometry3::from_parts(
                    Translation3::from(centre.coords.cast::<f32>()),
                    rng.rotation(),
                );
                let ab = composite::try_closest_points(&shape, &pose, &ball, &ball_pose).unwrap();
                let ba = composite::try_closest_points(&ball, &ball_pose, &shape, &pose).unwrap();
                let hit = composite::try_intersects(&shape, &pose, &ball, &ball_pose).unwrap();
                let hit_swapped =
                    composite::try_intersects(&ball, &ball_pose, &shape, &pose).unwrap();
                if expected > TOL * 10.0 {
                    let Proximity::Separated { distance, .. } = ab.answer else {
                        panic!("case {case}: expected {expected}, got {ab:?}")
                    };
                    assert!((distance as f64 - expected).abs() < TOL * 10.0, "case {case}");
                    let Proximity::Separated { distance: d2, .. } = ba.answer else { panic!() };
                    assert!((d2 - distance).abs() < 1e-5);
                    assert_eq!(ab.parts, ba.parts.swapped());
                    assert!(hit.is_none() && hit_swapped.is_none());
                } else if expected < -TOL * 10.0 {
                    assert_eq!(ab.answer, Proximity::Intersecting, "case {case}");
                    assert_eq!(ba.answer, Proximity::Intersecting);
                    let parts = hit.expect("overlap");
                    assert!(hit_swapped.is_some());
                    // The part reported really overlaps.
                    let [a, b, c] = &tris[parts.a.unwrap() as usize];
                    assert!(
                        (closest_on_triangle(&centre, a, b, c) - centre).norm() <= r + TOL * 10.0
                    );
                    let pen = composite::try_penetration(&shape, &pose, &ball, &ball_pose)
                        .unwrap()
                        .expect("overlap");
                    assert!(pen.answer.depth > 0.0);
                }
            }
        }
    }
}

#[test]
fn ray_casts_match_brute_force_moller_trumbore() {
    let mut rng = SplitMix64::new(SEED + 3);
    let mut hits = 0;
    for case in 0..30 {
        let t = Terrain::random(&mut rng, 10, 0.4, 0.3);
        let pose = scene_pose(&mut rng);
        let tris = world_triangles(&t.triangles(), &pose);
        for shape in [t.mesh(), t.field()] {
            for _ in 0..30 {
                let from =
                    Point3::new(rng.range(-3.0, 3.0), rng.range(0.5, 3.0), rng.range(-3.0, 3.0));
                let to =
                    Point3::new(rng.range(-2.5, 2.5), rng.range(-0.5, 0.2), rng.range(-2.5, 2.5));
                let (o, e) = (pose.cast::<f64>() * from, pose.cast::<f64>() * to);
                let d = e - o;
                let expected = tris
                    .iter()
                    .enumerate()
                    .filter_map(|(i, tri)| ray_triangle(&o, &d, tri).map(|t| (t, i)))
                    .fold(None, |best: Option<(f64, usize)>, x| match best {
                        Some(b) if b.0 <= x.0 => Some(b),
                        _ => Some(x),
                    });
                let ray = Ray::new(o.cast::<f32>(), d.cast::<f32>());
                let got = composite::try_cast_ray(&shape, &pose, &ray, 10.0).unwrap();
                // The convex entry point refuses a composite.
                assert!(matches!(
                    collide::try_cast_ray(&shape, &pose, &ray, 10.0),
                    Err(QueryError::NotConvex { .. })
                ));
                match (expected, got.answer) {
                    (Some((t, _)), RayCast::Hit { toi, normal, .. }) => {
                        hits += 1;
                        assert!((toi as f64 - t).abs() < TOL * 10.0, "case {case}: {toi} vs {t}");
                        let tri = &tris[got.parts.a.unwrap() as usize];
                        let on = ray_triangle(&o, &d, tri).expect("the reported triangle is hit");
                        assert!((on - t).abs() < TOL * 10.0);
                        assert!(normal.dot(&ray.dir) <= 0.0);
                    }
                    (None, RayCast::Miss) => {}
                    (exp, got) => {
                        // Only grazing rays (within rounding of an edge) may differ.
                        panic!("case {case}: expected {exp:?}, got {got:?}");
                    }
                }
            }
        }
    }
    assert!(hits > 500, "{hits}");
}

/// A random convex shape: a cuboid, a hull of a random cloud, or a sphere.
fn random_convex(rng: &mut SplitMix64, k: usize) -> Shape {
    match k % 3 {
        0 => Cuboid::new(Vector3::new(
            rng.range(0.1, 0.6) as f32,
            rng.range(0.1, 0.6) as f32,
            rng.range(0.1, 0.6) as f32,
        ))
        .into(),
        1 => {
            let cloud: Vec<Point3<f32>> = (0..12)
                .map(|_| (rng.unit_vector() * rng.range(0.2, 0.6)).cast::<f32>().into())
                .collect();
            ConvexHull::new(&cloud).unwrap().into()
        }
        _ => Sphere::new(rng.range(0.1, 0.5) as f32).into(),
    }
}

/// Every part of a composite at world poses, for brute force: the triangles
/// as `Shape::Triangle`s, or the compound's parts.
fn all_parts(shape: &Shape, pose: &Isometry3<f32>) -> Vec<(Shape, Isometry3<f32>)> {
    match shape {
        Shape::TriMesh(m) => (0..m.triangle_count() as u32)
            .map(|i| (Shape::from(m.triangle(i).unwrap()), *pose))
            .collect(),
        Shape::HeightField(f) => (0..f.triangle_count() as u32)
            .map(|i| (Shape::from(f.triangle(i).unwrap()), *pose))
            .collect(),
        Shape::Compound(c) => c.parts().iter().map(|(s, p)| (s.clone(), pose * p)).collect(),
        _ => vec![(shape.clone(), *pose)],
    }
}

fn random_compound(rng: &mut SplitMix64, parts: usize) -> Shape {
    let parts = (0..parts)
        .map(|k| {
            let local = Isometry3::from_parts(
                Translation3::new(
                    rng.range(-2.0, 2.0) as f32,
                    rng.range(-1.0, 1.0) as f32,
                    rng.range(-2.0, 2.0) as f32,
                ),
                rng.rotation(),
            );
            (random_convex(rng, k), local)
        })
        .collect();
    Compound::try_new(parts).unwrap().into()
}

#[test]
fn convex_queries_against_composites_match_brute_force_over_parts() {
    let mut rng = SplitMix64::new(SEED + 4);
    let mut overlaps = 0;
    for case in 0..24 {
        let t = Terrain::random(&mut rng, 6, 0.6, 0.3);
        let composites = [t.mesh(), t.field(), random_compound(&mut rng, 12)];
        let pose = scene_pose(&mut rng);
        for (which, shape) in composites.iter().enumerate() {
            let parts = all_parts(shape, &pose);
            for k in 0..12 {
                let other = random_convex(&mut rng, k);
                let local =
                    Point3::new(rng.range(-2.0, 2.0), rng.range(-1.0, 1.5), rng.range(-2.0, 2.0));
                let other_pose = Isometry3::from_parts(
                    Translation3::from((pose.cast::<f64>() * local).coords.cast::<f32>()),
                    rng.rotation(),
                );
                let label = format!("case {case}, composite {which}, shape {k}");
                // Brute force with collide's convex queries on every part.
                let brute_hit =
                    parts.iter().any(|(s, p)| collide::intersects(s, p, &other, &other_pose));
                let brute_distance = parts
                    .iter()
                    .map(|(s, p)| match collide::closest_points(s, p, &other, &other_pose) {
                        Proximity::Intersecting => 0.0,
                        Proximity::Separated { distance, .. } => distance,
                    })
                    .fold(f32::INFINITY, f32::min);
                let hit = composite::try_intersects(shape, &pose, &other, &other_pose).unwrap();
                assert_eq!(hit.is_some(), brute_hit, "{label}");
                let swapped = composite::try_intersects(&other, &other_pose, shape, &pose).unwrap();
                assert_eq!(swapped.map(PartIds::swapped).is_some(), brute_hit, "{label}");
                let near =
                    composite::try_closest_points(shape, &pose, &other, &other_pose).unwrap();
                match near.answer {
                    Proximity::Intersecting => assert!(brute_hit, "{label}"),
                    Proximity::Separated { distance, point_a, point_b } => {
                        assert!(
                            (distance - brute_distance).abs() < 1e-4,
                            "{label}: {distance} vs {brute_distance}"
                        );
                        assert!(((point_a - point_b).norm() - distance).abs() < 1e-4);
                    }
                }
                if which == 2 && brute_hit {
                    overlaps += 1;
                    // A compound: the deepest part's depth, no correction.
                    let deepest = parts
                        .iter()
                        .filter_map(|(s, p)| collide::penetration(s, p, &other, &other_pose))
                        .map(|p| p.depth)
                        .fold(0.0f32, f32::max);
                    let pen = composite::try_penetration(shape, &pose, &other, &other_pose)
                        .unwrap()
                        .expect("overlap");
                    assert!((pen.answer.depth - deepest).abs() < 1e-4, "{label}");
                    let back = composite::try_penetration(&other, &other_pose, shape, &pose)
                        .unwrap()
                        .expect("overlap");
                    assert!((back.answer.depth - deepest).abs() < 1e-4, "{label}");
                    assert_eq!(back.parts, pen.parts.swapped());
                    let mut set = ManifoldSet::new();
                    composite::try_contact_manifolds(
                        shape,
                        &pose,
                        &other,
                        &other_pose,
                        0.0,
                        &mut set,
                    )
                    .unwrap();
                    assert!(!set.is_empty(), "{label}");
                }
            }
        }
    }
    assert!(overlaps > 20, "{overlaps}");
}

#[test]
fn shape_casts_and_times_of_impact_match_brute_force_over_parts() {
    let mut rng = SplitMix64::new(SEED + 5);
    let mut hits = 0;
    for case in 0..16 {
        let t = Terrain::random(&mut rng, 6, 0.6, 0.3);
        let composites = [t.mesh(), t.field(), random_compound(&mut rng, 10)];
        let pose = scene_pose(&mut rng);
        for (which, shape) in composites.iter().enumerate() {
            let parts = all_parts(shape, &pose);
            for k in 0..8 {
                let other = random_convex(&mut rng, k);
                let start =
                    Point3::new(rng.range(-2.0, 2.0), rng.range(2.0, 3.0), rng.range(-2.0, 2.0));
                let end =
                    Point3::new(rng.range(-2.0, 2.0), rng.range(-1.0, 0.0), rng.range(-2.0, 2.0));
                let pose64 = pose.cast::<f64>();
                let other_pose = Isometry3::from_parts(
                    Translation3::from((pose64 * start).coords.cast::<f32>()),
                    rng.rotation(),
                );
                let vel = ((pose64 * end) - (pose64 * start)).cast::<f32>();
                let zero = Vector3::zeros();
                let label = format!("case {case}, composite {which}, shape {k}");
                let brute = parts
                    .iter()
                    .filter_map(|(s, p)| {
                        match collide::shape_cast(&other, &other_pose, &vel, s, p, &zero, 1.0) {
                            ShapeCast::Hit { toi, .. } => Some(toi),
                            _ => None,
                        }
                    })
                    .fold(f32::INFINITY, f32::min);
                let got =
                    composite::try_shape_cast(&other, &other_pose, &vel, shape, &pose, &zero, 1.0)
                        .unwrap();
                match got.answer {
                    ShapeCast::Hit { toi, .. } => {
                        hits += 1;
                        assert!((toi - brute).abs() < 1e-3, "{label}: {toi} vs {brute}");
                        assert!(got.parts.b.is_some() && got.parts.a.is_none());
                    }
                    ShapeCast::Miss => assert!(brute.is_infinite(), "{label}: brute {brute}"),
                    other => panic!("{label}: {other:?}"),
                }
                // Swapped: the composite moves the other way.
                let back =
                    composite::try_shape_cast(shape, &pose, &-vel, &other, &other_pose, &zero, 1.0)
                        .unwrap();
                match back.answer {
                    ShapeCast::Hit { toi, .. } => {
                        assert!((toi - brute).abs() < 1e-3, "{label} swapped")
                    }
                    ShapeCast::Miss => assert!(brute.is_infinite(), "{label} swapped"),
                    other => panic!("{label}: {other:?}"),
                }
                // Rigid motion with a spin: brute force over parts with the
                // convex time of impact.
                let sweep = Sweep {
                    pose: other_pose,
                    local_center: Point3::origin(),
                    linear_velocity: vel,
                    angular_velocity: Vector3::new(0.0, 2.0, 1.0),
                };
                let fixed = Sweep::fixed(pose);
                let brute_toi = parts
                    .iter()
                    .filter_map(|(s, p)| {
                        let part_sweep = Sweep::fixed(*p);
                        match collide::time_of_impact(&other, &sweep, s, &part_sweep, 1.0, 0.0) {
                            TimeOfImpact::Hit { toi, .. } => Some(toi),
                            _ => None,
                        }
                    })
                    .fold(f32::INFINITY, f32::min);
                let got =
                    composite::try_time_of_impact(&other, &sweep, shape, &fixed, 1.0, 0.0).unwrap();
                match got.answer {
                    TimeOfImpact::Hit { toi, .. } => {
                        assert!((toi - brute_toi).abs() < 2e-3, "{label}: {toi} vs {brute_toi}")
                    }
                    TimeOfImpact::Miss => assert!(brute_toi.is_infinite(), "{label}: {brute_toi}"),
                    other => panic!("{label}: {other:?}"),
                }
            }
        }
    }
    assert!(hits > 100, "{hits}");
}

#[test]
fn exact_boxes_match_every_vertex() {
    let mut rng = SplitMix64::new(SEED + 6);
    for case in 0..30 {
        let t = Terrain::random(&mut rng, 7, 0.3, 0.5);
        let pose = scene_pose(&mut rng);
        let world: Vec<Point3<f64>> =
            t.triangles().iter().flatten().map(|p| pose.cast::<f64>() * f64p(p)).collect();
        let lo = world.iter().fold(Point3::from(Vector3::repeat(f64::INFINITY)), |a, p| a.inf(p));
        let hi =
            world.iter().fold(Point3::from(Vector3::repeat(f64::NEG_INFINITY)), |a, p| a.sup(p));
        for shape in [t.mesh(), t.field()] {
            let b = shape.aabb(&pose);
            assert!((f64p(&b.min) - lo).amax() < 1e-5, "case {case}: {:?} vs {lo:?}", b.min);
            assert!((f64p(&b.max) - hi).amax() < 1e-5, "case {case}");
        }
        // A compound of cuboids: every corner of every part.
        let parts: Vec<(Shape, Isometry3<f32>)> = (0..5)
            .map(|_| {
                let h = Vector3::new(rng.range(0.1, 1.0), rng.range(0.1, 1.0), rng.range(0.1, 1.0));
                (Cuboid::new(h.cast::<f32>()).into(), isometry(&mut rng, 3.0))
            })
            .collect();
        let corners: Vec<Point3<f64>> = parts
            .iter()
            .flat_map(|(s, p)| {
                let Shape::Cuboid(c) = s else { unreachable!() };
                let h = c.half_extents.cast::<f64>();
                let world = (pose * p).cast::<f64>();
                (0..8).map(move |k| {
                    let sign = |b: usize| if k >> b & 1 == 0 { -1.0 } else { 1.0 };
                    world * Point3::new(sign(0) * h.x, sign(1) * h.y, sign(2) * h.z)
                })
            })
            .collect();
        let lo = corners.iter().fold(Point3::from(Vector3::repeat(f64::INFINITY)), |a, p| a.inf(p));
        let hi =
            corners.iter().fold(Point3::from(Vector3::repeat(f64::NEG_INFINITY)), |a, p| a.sup(p));
        let compound: Shape = Compound::try_new(parts).unwrap().into();
        let b = compound.aabb(&pose);
        assert!(
            (f64p(&b.min) - lo).amax() < 1e-4 && (f64p(&b.max) - hi).amax() < 1e-4,
            "case {case}"
        );
    }
}

/// Mass properties of a box of half extents `h` and density `rho`.
fn box_inertia(h: Vector3<f64>, rho: f64) -> (f64, Vector3<f64>) {
    let m = rho * 8.0 * h.x * h.y * h.z;
    let (x2, y2, z2) = (4.0 * h.x * h.x, 4.0 * h.y * h.y, 4.0 * h.z * h.z);
    (m, Vector3::new(y2 + z2, x2 + z2, x2 + y2) * (m / 12.0))
}

#[test]
fn compound_mass_properties_match_closed_forms_and_integration() {
    let rho = 1000.0;
    // Two unit cubes side by side are one 2 × 1 × 1 box.
    let cube: Shape = Cuboid::new(Vector3::repeat(0.5)).into();
    let pair = Compound::try_new(vec![
        (cube.clone(), Isometry3::translation(-0.5, 0.0, 0.0)),
        (cube.clone(), Isometry3::translation(0.5, 0.0, 0.0)),
    ])
    .unwrap();
    let (m, diag) = box_inertia(Vector3::new(1.0, 0.5, 0.5), rho);
    let p = pair.mass_properties(rho as f32);
    assert!((p.mass as f64 - m).abs() < 1e-3 * m);
    assert!(p.local_center.coords.norm() < 1e-6);
    for k in 0..3 {
        assert!((p.inertia[(k, k)] as f64 - diag[k]).abs() < 1e-4 * diag[k], "axis {k}");
    }
    // Turning each cube about its own centre changes nothing.
    let turned = Compound::try_new(vec![
        (
            cube.clone(),
            Isometry3::new(
                Vector3::new(-0.5, 0.0, 0.0),
                Vector3::new(0.0, std::f32::consts::FRAC_PI_2, 0.0),
            ),
        ),
        (
            cube.clone(),
            Isometry3::new(
                Vector3::new(0.5, 0.0, 0.0),
                Vector3::new(std::f32::consts::PI, 0.0, 0.0),
            ),
        ),
    ])
    .unwrap()
    .mass_properties(rho as f32);
    assert!((turned.inertia - p.inertia).norm() < 1e-2);

    // An L of two boxes, rotated and moved, against a midpoint-rule volume
    // integral of the L in f64.
    let a = Vector3::new(1.0f32, 0.25, 0.5);
    let b = Vector3::new(0.25, 0.75, 0.5);
    let place = Isometry3::new(Vector3::new(0.3, -0.2, 0.1), Vector3::new(0.2, 0.5, -0.3));
    let l = Compound::try_new(vec![
        (Cuboid::new(a).into(), place * Isometry3::translation(0.0, -0.5, 0.0)),
        (Cuboid::new(b).into(), place * Isometry3::translation(0.75, 0.5, 0.0)),
    ])
    .unwrap()
    .mass_properties(rho as f32);
    // Integrate in the L's own frame, then rotate.
    let inside = |p: &Point3<f64>| {
        let in_a = (p.x).abs() <= 1.0 && (p.y + 0.5).abs() <= 0.25 && p.z.abs() <= 0.5;
        let in_b = (p.x - 0.75).abs() <= 0.25 && (p.y - 0.5).abs() <= 0.75 && p.z.abs() <= 0.5;
        in_a || in_b
    };
    let n = 120;
    let (lo, hi) = (Point3::new(-1.0, -0.75, -0.5), Point3::new(1.0, 1.25, 0.5));
    let step = (hi - lo) / n as f64;
    let dv = step.x * step.y * step.z;
    let (mut mass, mut first, mut second) =
        (0.0, Vector3::zeros(), collide::nalgebra::Matrix3::<f64>::zeros());
    for i in 0..n {
        for j in 0..n {
            for k in 0..n {
                let p = lo
                    + step.component_mul(&Vector3::new(
                        i as f64 + 0.5,
                        j as f64 + 0.5,
                        k as f64 + 0.5,
                    ));
                if inside(&p) {
                    mass += rho * dv;
                    first += p.coords * rho * dv;
                    second += p.coords * p.coords.transpose() * rho * dv;
                }
            }
        }
    }
    let c = first / mass;
    let cov = second / mass - c * c.transpose();
    let inertia_local = (collide::nalgebra::Matrix3::identity() * cov.trace() - cov) * mass;
    let r = place.rotation.to_rotation_matrix().into_inner().cast::<f64>();
    let expected_inertia = r * inertia_local * r.transpose();
    let expected_centre = place.cast::<f64>() * Point3::from(c);
    assert!((l.mass as f64 - mass).abs() < 1e-3 * mass, "{} vs {mass}", l.mass);
    assert!((f64p(&l.local_center) - expected_centre).norm() < 1e-3);
    assert!((l.inertia.cast::<f64>() - expected_inertia).norm() < 5e-3 * expected_inertia.norm());

    // Via the Shape: a compound is solid and has this mass; meshes and
    // heightfields are surfaces, massless.
    let shape: Shape = pair.into();
    assert!(shape.is_solid() && shape.is_composite());
    assert!((MassProperties::from_shape(&shape, rho as f32).mass as f64 - m).abs() < 1e-3 * m);
    let field: Shape = HeightField::try_new(2, 2, vec![0.0; 4], [1.0, 1.0]).unwrap().into();
    assert!(!field.is_solid());
    assert_eq!(MassProperties::from_shape(&field, 1000.0).mass, 0.0);
}

#[test]
fn distances_are_invariant_under_rigid_motion_and_scale() {
    let mut rng = SplitMix64::new(SEED + 7);
    for case in 0..20 {
        let t = Terrain::random(&mut rng, 6, 0.5, 0.3);
        let ball_r = rng.range(0.1, 0.4) as f32;
        let centre = Point3::new(
            rng.range(-1.0, 1.0) as f32,
            rng.range(0.6, 1.5) as f32,
            rng.range(-1.0, 1.0) as f32,
        );
        let base = composite::closest_points(
            &t.mesh(),
            &Isometry3::identity(),
            &Sphere::new(ball_r).into(),
            &Isometry3::translation(centre.x, centre.y, centre.z),
        );
        let Proximity::Separated { distance: d0, .. } = base.answer else { panic!("case {case}") };
        let world = isometry(&mut rng, 10.0);
        for shape in [t.mesh(), t.field()] {
            let moved = composite::closest_points(
                &shape,
                &world,
                &Sphere::new(ball_r).into(),
                &(world * Isometry3::translation(centre.x, centre.y, centre.z)),
            );
            let Proximity::Separated { distance, .. } = moved.answer else { panic!() };
            assert!((distance - d0).abs() < 1e-4, "case {case}: {distance} vs {d0}");
            // The part found is at that distance (another may tie with it).
            let tri = t.triangles()[moved.parts.a.unwrap() as usize];
            let on =
                closest_on_triangle(&f64p(&centre), &f64p(&tri[0]), &f64p(&tri[1]), &f64p(&tri[2]));
            assert!(((on - f64p(&centre)).norm() - ball_r as f64 - d0 as f64).abs() < 1e-4);
        }
        for scale in [1e-2f32, 1e2] {
            let scaled = Terrain {
                rows: t.rows,
                heights: t.heights.iter().map(|h| h * scale).collect(),
                cell: t.cell * scale,
            };
            let c = centre * scale;
            let d = composite::closest_points(
                &scaled.mesh(),
                &Isometry3::identity(),
                &Sphere::new(ball_r * scale).into(),
                &Isometry3::translation(c.x, c.y, c.z),
            );
            let Proximity::Separated { distance, .. } = d.answer else { panic!() };
            assert!(
                (distance / scale - d0).abs() < 1e-4 * (1.0 + d0),
                "case {case}, scale {scale}"
            );
        }
    }
}

#[test]
fn every_bad_input_is_a_typed_error() {
    let o = Point3::origin();
    let (x, z) = (Point3::new(1.0, 0.0, 0.0), Point3::new(0.0, 0.0, 1.0));
    assert_eq!(TriMesh::try_new(vec![o, x, z], vec![]), Err(CompositeError::Empty));
    assert_eq!(
        TriMesh::try_new(vec![o, x, z], vec![[0, 1, 7]]),
        Err(CompositeError::IndexOutOfRange { triangle: 0, index: 7, vertex_count: 3 })
    );
    assert_eq!(
        TriMesh::try_new(vec![o, x, Point3::new(2.0, 0.0, 0.0)], vec![[0, 1, 2]]),
        Err(CompositeError::DegenerateTriangle { triangle: 0 })
    );
    assert_eq!(
        TriMesh::try_new(vec![o, x, z], vec![[0, 1, 2], [0, 0, 1]]),
        Err(CompositeError::DegenerateTriangle { triangle: 1 })
    );
    assert_eq!(
        TriMesh::try_new(vec![o, x, Point3::new(f32::NAN, 0.0, 0.0)], vec![[0, 1, 2]]),
        Err(CompositeError::NonFiniteVertex { index: 2 })
    );
    assert_eq!(
        HeightField::try_new(1, 3, vec![0.0; 3], [1.0, 1.0]),
        Err(CompositeError::BadGrid { row: 1 })
    );
    assert_eq!(
        HeightField::try_new(2, 2, vec![0.0; 3], [1.0, 1.0]),
        Err(CompositeError::BadGrid { row: 2 })
    );
    assert_eq!(
        HeightField::try_from_rows(&[vec![0.0, 0.0], vec![0.0]], [1.0, 1.0]),
        Err(CompositeError::BadGrid { row: 1 })
    );
    for cell in [[0.0, 1.0], [1.0, -1.0], [f32::NAN, 1.0], [1.0, f32::INFINITY]] {
        assert_eq!(
            HeightField::try_new(2, 2, vec![0.0; 4], cell),
            Err(CompositeError::BadCellSize)
        );
    }
    assert_eq!(
        HeightField::try_new(2, 2, vec![0.0, 0.0, f32::INFINITY, 0.0], [1.0, 1.0]),
        Err(CompositeError::NonFiniteVertex { index: 2 })
    );
    assert_eq!(Compound::try_new(vec![]), Err(CompositeError::Empty));
    let ball: Shape = Sphere::new(0.5).into();
    let field: Shape = HeightField::try_new(2, 2, vec![0.0; 4], [1.0, 1.0]).unwrap().into();
    assert_eq!(
        Compound::try_new(vec![
            (ball.clone(), Isometry3::identity()),
            (field.clone(), Isometry3::identity())
        ]),
        Err(CompositeError::NonConvexPart { part: 1 })
    );
    assert_eq!(
        Compound::try_new(vec![(ball.clone(), Isometry3::translation(f32::NAN, 0.0, 0.0))]),
        Err(CompositeError::BadPart { part: 0 })
    );
    assert_eq!(
        Compound::try_new(vec![(Sphere::new(-1.0).into(), Isometry3::identity())]),
        Err(CompositeError::BadPart { part: 0 })
    );
    // Every error displays.
    assert!(CompositeError::DegenerateTriangle { triangle: 3 }.to_string().contains('3'));

    // Queries: a NaN pose, point or ray is an error, never "no contact".
    let nan = Isometry3::translation(f32::NAN, 0.0, 0.0);
    let id = Isometry3::identity();
    let bad = Err(QueryError::NonFiniteInput);
    assert_eq!(composite::try_intersects(&field, &nan, &ball, &id), bad);
    assert_eq!(
        composite::try_closest_points(&ball, &id, &field, &nan).map(|_| ()),
        bad.map(|_: Option<PartIds>| ())
    );
    assert!(composite::try_contact(&field, &id, &ball, &nan).is_err());
    assert!(composite::try_penetration(&field, &nan, &ball, &id).is_err());
    assert!(
        composite::try_contact_manifolds(
            &field,
            &id,
            &ball,
            &id,
            f32::NAN,
            &mut ManifoldSet::new()
        )
        .is_err()
    );
    assert!(
        composite::try_cast_ray(
            &field,
            &id,
            &Ray::new(Point3::new(0.0, f32::NAN, 0.0), Vector3::y()),
            1.0
        )
        .is_err()
    );
    assert!(
        composite::try_shape_cast(
            &ball,
            &id,
            &Vector3::new(f32::NAN, 0.0, 0.0),
            &field,
            &id,
            &Vector3::zeros(),
            1.0
        )
        .is_err()
    );
    assert!(
        composite::try_time_of_impact(
            &ball,
            &Sweep::fixed(nan),
            &field,
            &Sweep::fixed(id),
            1.0,
            0.0
        )
        .is_err()
    );
    assert!(
        composite::try_project_point(&field, &id, &Point3::new(f32::NAN, 0.0, 0.0), true).is_err()
    );
    // The bare forms answer their fallbacks.
    assert!(composite::intersects(&field, &nan, &ball, &id).is_none());
    let mut set = ManifoldSet::new();
    composite::contact_manifolds(&field, &nan, &ball, &id, 0.1, &mut set);
    assert!(set.is_empty());

    // The convex queries refuse a composite instead of using its hull.
    let bump: Shape = TriMesh::try_new(
        vec![Point3::new(-1.0, 0.0, -1.0), Point3::new(0.0, 1.0, 1.0), Point3::new(1.0, 0.0, -1.0)],
        vec![[0, 1, 2]],
    )
    .unwrap()
    .into();
    let not_convex = |kind| Err::<(), _>(QueryError::NotConvex { kind });
    assert_eq!(collide::try_intersects(&bump, &id, &ball, &id).map(|_| ()), not_convex("mesh"));
    assert_eq!(collide::try_contact(&ball, &id, &bump, &id).map(|_| ()), not_convex("mesh"));
    assert_eq!(
        collide::try_contact(&ball, &id, &field, &id).map(|_| ()),
        not_convex("heightfield")
    );
    assert_eq!(
        collide::try_contact_manifold(&bump, &id, &ball, &id, 0.0).map(|_| ()),
        not_convex("mesh")
    );
    assert_eq!(
        collide::try_shape_cast(&bump, &id, &Vector3::x(), &ball, &id, &Vector3::zeros(), 1.0)
            .map(|_| ()),
        not_convex("mesh")
    );
    let ray = Ray::new(Point3::new(0.0, 3.0, 0.0), -Vector3::y());
    assert_eq!(
        collide::try_cast_ray(&field, &id, &ray, 5.0).map(|_| ()),
        not_convex("heightfield")
    );
    let l: Shape = Compound::try_new(vec![(ball.clone(), id)]).unwrap().into();
    assert_eq!(collide::try_project_point(&l, &id, &o, true).map(|_| ()), not_convex("compound"));
    assert!(QueryError::NotConvex { kind: "mesh" }.to_string().contains("collide::composite"));
    assert!(bump.margin().is_nan() && bump.local_support(&Vector3::x()).x.is_nan());
}

#[test]
fn mesh_against_mesh_cast_of_two_pyramids_parry_issue_194() {
    // Two triangle pyramids (three faces each, open at the bottom) 1000 m
    // apart along x; the first moves at 1e5 m/s. They span x in [-1, 1],
    // so they meet after 998 m: t = 0.00998.
    let pyramid: Shape = TriMesh::try_new(
        vec![
            Point3::new(0.0, 1.0, 0.0),
            Point3::new(-1.0, -0.5, 0.0),
            Point3::new(0.0, -0.5, -1.0),
            Point3::new(1.0, -0.5, 0.0),
        ],
        vec![[0, 1, 2], [0, 2, 3], [0, 3, 1]],
    )
    .unwrap()
    .into();
    let cast = composite::try_shape_cast(
        &pyramid,
        &Isometry3::identity(),
        &Vector3::new(1e5, 0.0, 0.0),
        &pyramid,
        &Isometry3::translation(1000.0, 0.0, 0.0),
        &Vector3::zeros(),
        1.0,
    )
    .unwrap();
    let ShapeCast::Hit { toi, .. } = cast.answer else { panic!("{cast:?}") };
    assert!((toi - 0.00998).abs() < 1e-7, "{toi}");
    assert!(cast.parts.a.is_some() && cast.parts.b.is_some());
}

#[test]
fn tiny_closed_mesh_distances_parry_issue_17() {
    // A closed cube mesh 1e-10 m across: distances to points near and far
    // are finite and right.
    let s = 1e-10f32;
    let corners: Vec<Point3<f32>> = (0..8)
        .map(|k| {
            let c = |b: usize| if k >> b & 1 == 0 { -0.5 * s } else { 0.5 * s };
            Point3::new(c(0), c(1), c(2))
        })
        .collect();
    // Two triangles per face, outward.
    let faces =
        [[0, 2, 3, 1], [4, 5, 7, 6], [0, 1, 5, 4], [2, 6, 7, 3], [0, 4, 6, 2], [1, 3, 7, 5]];
    let triangles = faces.iter().flat_map(|[a, b, c, d]| [[*a, *b, *c], [*a, *c, *d]]).collect();
    let cube: Shape = TriMesh::try_new(corners, triangles).unwrap().into();
    for (p, expected) in [
        (Point3::new(0.0, 0.0, 2.0 * s), 1.5 * s),
        (Point3::new(0.0, 0.0, 0.0), 0.5 * s),
        (Point3::new(1.0, -2.0, 3.0), 14f32.sqrt()),
    ] {
        let d = composite::try_distance_to_point(&cube, &Isometry3::identity(), &p).unwrap();
        assert!(d.answer.is_finite());
        assert!(
            (d.answer - expected).abs() <= 1e-3 * expected,
            "{p:?}: {} vs {expected}",
            d.answer
        );
    }
}

#[test]
fn off_centre_compound_part_agrees_with_the_swapped_order_parry_issue_387() {
    let cube: Shape = Cuboid::new(Vector3::repeat(1.0)).into();
    let compound: Shape = Compound::try_new(vec![
        (cube.clone(), Isometry3::translation(5.0, 0.0, 0.0)),
        (cube, Isometry3::translation(-5.0, -2.0, 0.0)),
    ])
    .unwrap()
    .into();
    let ball: Shape = Sphere::new(1.0).into();
    let ball_pose = Isometry3::translation(5.0, 3.0, 0.0);
    let ab = composite::try_contact(&compound, &Isometry3::identity(), &ball, &ball_pose).unwrap();
    let ba = composite::try_contact(&ball, &ball_pose, &compound, &Isometry3::identity()).unwrap();
    let collide::Contact::Separated { distance, normal, point_a, point_b } = ab.answer else {
        panic!()
    };
    assert!((distance - 1.0).abs() < 1e-4);
    assert!((normal.y - 1.0).abs() < 1e-4);
    assert!((point_a - Point3::new(5.0, 1.0, 0.0)).norm() < 1e-4);
    assert!((point_b - Point3::new(5.0, 2.0, 0.0)).norm() < 1e-4);
    assert_eq!(ab.parts.a, Some(0));
    let collide::Contact::Separated { distance: d2, normal: n2, point_a: a2, point_b: b2 } =
        ba.answer
    else {
        panic!()
    };
    assert!((d2 - distance).abs() < 1e-6 && (n2.into_inner() + normal.into_inner()).norm() < 1e-5);
    assert!((a2 - point_b).norm() < 1e-5 && (b2 - point_a).norm() < 1e-5);
    assert_eq!(ba.parts, ab.parts.swapped());
}

#[test]
fn heightfield_point_projection_above_and_below_parry_issue_332() {
    // A tilted plane y = 0.5 x sampled on a 5 × 5 grid: points above and
    // below project along its normal, onto the right cell.
    let heights: Vec<f32> = (0..5).flat_map(|_| (0..5).map(|c| 0.5 * (c as f32 - 2.0))).collect();
    let field: Shape = HeightField::try_new(5, 5, heights, [1.0, 1.0]).unwrap().into();
    let n = Vector3::new(-0.5f32, 1.0, 0.0).normalize();
    for (x, z, h) in [(0.3f32, 0.2f32, 0.7f32), (-1.1, 0.9, -0.4), (1.2, -1.3, 0.05)] {
        let on = Point3::new(x, 0.5 * x, z);
        let p = on + n * h;
        let got = composite::try_project_point(&field, &Isometry3::identity(), &p, false).unwrap();
        assert!((got.answer.point - on).norm() < 1e-5, "{p:?}: {:?}", got.answer.point);
        let tri = match &field {
            Shape::HeightField(f) => f.triangle(got.parts.a.unwrap()).unwrap(),
            _ => unreachable!(),
        };
        let t = Triangle::new(tri.a, tri.b, tri.c);
        let d = collide::distance_to_point(&t, &Isometry3::identity(), &on);
        assert!(d < 1e-5);
    }
}

#[test]
fn bodies_of_a_pose_with_rotation_use_the_exact_rotated_box() {
    // Regression guard for the fast path of unrotated poses: a rotated
    // field's box is not its local box moved.
    let field: Shape = HeightField::try_new(2, 3, vec![0.0; 6], [1.0, 1.0]).unwrap().into();
    let turned = Isometry3::from_parts(
        Translation3::new(0.0, 0.0, 0.0),
        UnitQuaternion::from_euler_angles(0.0, std::f32::consts::FRAC_PI_2, 0.0),
    );
    let b = field.aabb(&turned);
    // 2 m along x, 1 m along z, turned a quarter about y: 1 m along x.
    assert!(
        (b.max.x - b.min.x - 1.0).abs() < 1e-5 && (b.max.z - b.min.z - 2.0).abs() < 1e-5,
        "{b:?}"
    );
}

/// Regression: of several parts hit at the same parameter, a composite
/// query answered with whichever one its hierarchy happened to visit last,
/// so the answer changed with the tree's shape (a four-wide tree visits
/// parts in another order than a binary one). The oracle is brute force
/// over the list: exact copies of one part, scattered at random places in
/// it among parts that cannot be hit, must answer with the first copy.
/// Rays (hits on copies of a triangle, and a ray starting inside copies of
/// a cuboid) and shape casts (a sphere dropped on copies of a cuboid).
#[test]
fn equal_hits_answer_with_the_smallest_part_whatever_the_visit_order() {
    let mut rng = SplitMix64::new(SEED + 11);
    let p = |x: f64, y: f64, z: f64| Point3::new(x as f32, y as f32, z as f32);
    let shared = [p(-1.0, 1.0, -1.0), p(0.0, 1.0, 1.0), p(1.0, 1.0, -1.0)];
    let block = |rng: &mut SplitMix64, copy: bool| {
        let at = if copy {
            Vector3::new(0.0, 1.0, 0.0)
        } else {
            Vector3::new(rng.range(-9.0, 9.0), rng.range(-9.0, -3.0), rng.range(-9.0, 9.0))
                .cast::<f32>()
        };
        let shape: Shape = Cuboid::new(Vector3::new(0.5, 0.5, 0.5)).into();
        (shape, Isometry3::translation(at.x, at.y, at.z))
    };
    for case in 0..24 {
        let n = 20 + rng.below(60);
        // At least two copies, at random places.
        let first = rng.below(n / 2);
        let copy: Vec<bool> =
            (0..n).map(|i| i == first || i == n - 1 - first || rng.below(5) == 0).collect();
        let expected = copy.iter().position(|&c| c).map(|i| i as u32);

        let mut vertices = Vec::new();
        let mut triangles = Vec::new();
        for (i, &c) in copy.iter().enumerate() {
            let tri = if c {
                shared
            } else {
                let (x, y, z) = (rng.range(-9.0, 9.0), rng.range(-9.0, -3.0), rng.range(-9.0, 9.0));
                [p(x, y, z), p(x, y, z + 1.0), p(x + 1.0, y, z)]
            };
            vertices.extend(tri);
            let v = 3 * i as u32;
            triangles.push([v, v + 1, v + 2]);
        }
        let mesh: Shape = TriMesh::try_new(vertices, triangles).unwrap().into();
        let origin = p(rng.range(-0.3, 0.3), 5.0, rng.range(-0.3, 0.3));
        let ray = Ray::new(origin, -Vector3::y());
        let got = composite::try_cast_ray(&mesh, &Isometry3::identity(), &ray, 100.0).unwrap();
        assert!(matches!(got.answer, RayCast::Hit { toi, .. } if toi == 4.0), "case {case}");
        assert_eq!(got.parts.a, expected, "case {case}: mesh ray");

        let parts: Vec<(Shape, Isometry3<f32>)> =
            copy.iter().map(|&c| block(&mut rng, c)).collect();
        let compound: Shape = Compound::try_new(parts).unwrap().into();
        let inside = Ray::new(p(0.1, 1.2, -0.1), Vector3::new(0.3, 1.0, 0.2));
        let got =
            composite::try_cast_ray(&compound, &Isometry3::identity(), &inside, 100.0).unwrap();
        assert_eq!(got.answer, RayCast::StartsInside, "case {case}");
        assert_eq!(got.parts.a, expected, "case {case}: ray inside the compound");

        let ball: Shape = Sphere::new(0.25).into();
        let ball_pose = Isometry3::translation(origin.x, 4.0, origin.z);
        let vel = Vector3::new(0.0, -4.0, 0.0);
        let zero = Vector3::zeros();
        let got = composite::try_shape_cast(
            &ball,
            &ball_pose,
            &vel,
            &compound,
            &Isometry3::identity(),
            &zero,
            1.0,
        )
        .unwrap();
        assert!(matches!(got.answer, ShapeCast::Hit { .. }), "case {case}: {:?}", got.answer);
        assert_eq!(got.parts.b, expected, "case {case}: shape cast onto the compound");
    }
}

/// A long box lying tilted on a flat floor of cells far smaller than it,
/// one end sunk 2 cm and the other lifted: more than
/// [`composite::MAX_PART_MANIFOLDS`] triangles lie within the prediction,
/// and the set keeps the deepest (the analytic oracle: the sunk end's
/// lowest corner, 2 cm below the floor; the lifted end's triangles are
/// all shallower), whichever end the walk reaches
/// first, on a mesh and a heightfield, either way round. Before, the set
/// kept the first 32 found: the `trees` scene's prisms on its finest wave
/// lost the triangles they sank into and were sent back by the continuous
/// stage step after step.
#[test]
fn a_long_box_on_a_fine_floor_keeps_its_deepest_triangles() {
    let floor = Terrain { rows: 61, heights: vec![0.0; 61 * 61], cell: 0.1 };
    let half = Vector3::new(1.5, 0.1, 0.2);
    let long_box: Shape = Cuboid::new(half).into();
    let sunk = 0.02f32;
    for surface in [floor.mesh(), floor.field()] {
        for tilt in [0.08f32, -0.08] {
            for yaw in [0.0f32, 0.3, 1.2] {
                let rotation = UnitQuaternion::from_scaled_axis(Vector3::new(0.0, yaw, 0.0))
                    * UnitQuaternion::from_scaled_axis(Vector3::new(0.0, 0.0, tilt));
                let mut pose = Isometry3::from_parts(Translation3::new(0.2, 0.0, -0.1), rotation);
                let lowest =
                    (pose * long_box.local_support(&(rotation.inverse() * -Vector3::y()))).y;
                pose.translation.vector.y = -sunk - lowest;
                let label = format!("tilt {tilt}, yaw {yaw}");
                for swap in [false, true] {
                    let mut set = ManifoldSet::new();
                    let (identity, pred) = (Isometry3::identity(), 0.5);
                    if swap {
                        composite::try_contact_manifolds(
                            &long_box, &pose, &surface, &identity, pred, &mut set,
                        )
                    } else {
                        composite::try_contact_manifolds(
                            &surface, &identity, &long_box, &pose, pred, &mut set,
                        )
                    }
                    .unwrap();
                    assert!(set.overflow() > 0, "{label}: the case must overflow the set");
                    assert_eq!(set.len(), composite::MAX_PART_MANIFOLDS, "{label}");
                    let least =
                        set.points().map(|(p, _, _)| p.separation).fold(f32::INFINITY, f32::min);
                    assert!((least + sunk).abs() < 1e-3, "{label}, swap {swap}: {least}");
                }
            }
        }
    }
}
