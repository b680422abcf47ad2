//! collide's point queries (`project_point`, `contains_point`,
//! `distance_to_point`) against independent `f64` oracles:
//!
//! * spheres and capsules: closed forms (distance to the centre or to the
//!   core segment, minus the radius);
//! * cuboids and hulls: brute force over the polytope's boundary triangles
//!   ([`Polytope`], built from the box's half extents or, by brute-force
//!   triple enumeration, from the hull's vertices; no collide hull code),
//!   and the nearest face plane from inside;
//! * users' own shapes (a [`SupportMap`] collide cannot see into, answered
//!   by GJK/EPA): the same oracles.
//!
//! Every case runs under seeded random poses at scales 1e-3, 1 and 1e3,
//! on random points near the shape and on points just inside, just outside
//! and on the surface. Each answer is checked for the signed distance, the
//! projected point, the inside flag (outside a rounding band), the solid
//! form, `contains_point`, and that the projected point lies on the
//! feature reported. Ported from parry: its cuboid solid/non-solid
//! distance example (`examples/solid_point_query3d.rs`).

use collide::nalgebra::{Isometry3, Point3, Vector3};
use collide::{
    Capsule, Cone, ConvexHull, Cuboid, Cylinder, End, PointFeature, ProjectPoint, ProjectionStatus,
    QueryError, Rounded, Segment, Shape, Sphere, SupportMap, Triangle, contains_point,
    distance_to_point, project_point, try_contains_point, try_distance_to_point, try_project_point,
};
use tests::SplitMix64;
use tests::closest::{closest_on_segment, closest_on_triangle};
use tests::generators::{cloud, half_extents, isometry};
use tests::polytope::Polytope;

const SEED: u64 = 0x9017;
/// Shapes per kind and scale.
const SHAPES: u64 = 40;
/// Random query points per shape (each also gives a just-inside, a
/// just-outside and an on-surface point).
const POINTS: usize = 12;
const SCALES: [f64; 3] = [1e-3, 1.0, 1e3];

/// Rounding allowed, relative to the shape's size plus the distance of the
/// query point from the world origin: moving the point into the shape's
/// frame and the result back costs a few f32 ulps of those lengths, and the
/// closed forms a few more. 4e-6 is about 32 ulps.
const TOL_REL: f64 = 4e-6;
/// collide's hull merges faces that are coplanar to within 1e-5 of the
/// cloud's bounding-box diagonal, so its faces may stand off the exact hull
/// of its vertices by that much (see `hull_vs_brute_force`).
const COPLANAR_REL: f64 = 1e-5;
/// How far, relative to the size, the just-inside and just-outside points
/// are from the surface: well clear of the tolerance band.
const NUDGE_REL: f64 = 1e-3;
/// GJK/EPA on a user's polytope converge to f32 rounding relative to the
/// size of the Minkowski difference (the shape plus the point's offset).
const GENERIC_TOL_REL: f64 = 2e-5;
/// On a curved surface without a margin EPA stops once its polytope's
/// face is within its relative tolerance of the support plane; near the
/// surface, at 1e3 scale with the point several sizes from the origin,
/// that leaves a few times [`GENERIC_TOL_REL`].
const CURVED_TOL_REL: f64 = 1e-4;

/// The exact answer, in the shape's frame.
struct Expected {
    /// Negative inside, positive outside.
    signed: f64,
    /// The nearest surface point; unique only outside (inside, several
    /// faces may be equally near).
    nearest: Point3<f64>,
}

/// What each shape kind's oracle needs.
enum Oracle {
    Sphere(f64),
    Capsule {
        half_height: f64,
        radius: f64,
    },
    Cylinder {
        half_height: f64,
        radius: f64,
    },
    Cone {
        half_height: f64,
        radius: f64,
    },
    Triangle([Point3<f64>; 3]),
    Segment([Point3<f64>; 2]),
    /// A polytope and the radius added around it (0 for boxes and hulls).
    Polytope(Polytope, f64),
}

impl Oracle {
    fn expected(&self, p: &Point3<f64>) -> Expected {
        match self {
            Oracle::Sphere(r) => round_about(&Point3::origin(), p, *r),
            Oracle::Capsule { half_height, radius } => {
                let a = Point3::new(0.0, -half_height, 0.0);
                let b = Point3::new(0.0, *half_height, 0.0);
                round_about(&closest_on_segment(p, &a, &b), p, *radius)
            }
            Oracle::Cylinder { half_height, radius } => cylinder_expected(*half_height, *radius, p),
            Oracle::Cone { half_height, radius } => cone_expected(*half_height, *radius, p),
            Oracle::Triangle([a, b, c]) => {
                let q = closest_on_triangle(p, a, b, c);
                Expected { signed: (p - q).norm(), nearest: q }
            }
            Oracle::Segment([a, b]) => {
                let q = closest_on_segment(p, a, b);
                Expected { signed: (p - q).norm(), nearest: q }
            }
            Oracle::Polytope(poly, radius) => {
                let core = polytope_expected(poly, p);
                if *radius == 0.0 {
                    return core;
                }
                // Rounded: the signed distance drops by the radius; the
                // nearest point moves out from the core's by the radius.
                let out = if core.signed > 0.0 {
                    (p - core.nearest) / core.signed
                } else {
                    (core.nearest - p) / (-core.signed).max(f64::MIN_POSITIVE)
                };
                Expected { signed: core.signed - radius, nearest: core.nearest + out * *radius }
            }
        }
    }
}

/// The unit radial direction of `p` about the Y axis (+X on the axis).
fn radial(p: &Point3<f64>) -> (f64, f64, f64) {
    let rho = p.x.hypot(p.z);
    if rho > 0.0 { (rho, p.x / rho, p.z / rho) } else { (0.0, 1.0, 0.0) }
}

/// A cylinder as the product of a disc and an interval: outside, the
/// Euclidean norm of the two excesses; inside, minus the smaller depth.
fn cylinder_expected(hh: f64, r: f64, p: &Point3<f64>) -> Expected {
    let (rho, ux, uz) = radial(p);
    let (dx, dy) = (rho - r, p.y.abs() - hh);
    let cap = hh.copysign(p.y);
    if dx <= 0.0 && dy <= 0.0 {
        let nearest =
            if dy >= dx { Point3::new(p.x, cap, p.z) } else { Point3::new(r * ux, p.y, r * uz) };
        return Expected { signed: dx.max(dy), nearest };
    }
    let (rq, yq) = (rho.min(r), p.y.clamp(-hh, hh));
    Expected { signed: dx.max(0.0).hypot(dy.max(0.0)), nearest: Point3::new(rq * ux, yq, rq * uz) }
}

/// A cone by its meridian section, the triangle apex `(0, h)`, rim
/// `(r, −h)`, base centre `(0, −h)` in `(ρ, y)`: outside, the nearest
/// point of that filled triangle; inside, minus the distance to the nearer
/// of the base line and the slant segment.
fn cone_expected(hh: f64, r: f64, p: &Point3<f64>) -> Expected {
    let (rho, ux, uz) = radial(p);
    let q2 = Point3::new(rho, p.y, 0.0);
    let (apex, rim, base) =
        (Point3::new(0.0, hh, 0.0), Point3::new(r, -hh, 0.0), Point3::new(0.0, -hh, 0.0));
    let near = closest_on_triangle(&q2, &apex, &rim, &base);
    let to_3d = |q: Point3<f64>| Point3::new(q.x * ux, q.y, q.x * uz);
    let dist = (q2 - near).norm();
    if dist > 1e-12 * (hh + r) {
        return Expected { signed: dist, nearest: to_3d(near) };
    }
    let on_slant = closest_on_segment(&q2, &apex, &rim);
    let (to_base, to_slant) = (p.y + hh, (q2 - on_slant).norm());
    if to_base <= to_slant {
        Expected { signed: -to_base, nearest: Point3::new(p.x, -hh, p.z) }
    } else {
        Expected { signed: -to_slant, nearest: to_3d(on_slant) }
    }
}

/// A ball of `radius` about `centre`, as seen from `p`.
fn round_about(centre: &Point3<f64>, p: &Point3<f64>, radius: f64) -> Expected {
    let offset = p - centre;
    let dist = offset.norm();
    let dir = if dist > 0.0 { offset / dist } else { Vector3::y() };
    Expected { signed: dist - radius, nearest: centre + dir * radius }
}

/// Brute force on a solid polytope: outside, the nearest of its boundary
/// triangles' nearest points; inside, the foot on the nearest face plane.
fn polytope_expected(poly: &Polytope, p: &Point3<f64>) -> Expected {
    let planes = poly.max_plane_distance(p);
    if planes <= 0.0 {
        let face = poly
            .faces
            .iter()
            .max_by(|f, g| {
                let h = |f: &tests::polytope::FacePlane| f.normal.dot(&p.coords) - f.offset;
                h(f).total_cmp(&h(g))
            })
            .expect("a solid polytope has faces");
        return Expected { signed: planes, nearest: p - face.normal * planes };
    }
    let mut best = (f64::INFINITY, *p);
    for &[a, b, c] in &poly.triangles {
        let v = &poly.vertices;
        let q = closest_on_triangle(p, &v[a], &v[b], &v[c]);
        let d = (p - q).norm();
        if d < best.0 {
            best = (d, q);
        }
    }
    Expected { signed: best.0, nearest: best.1 }
}

/// A shape under test with its oracle and its size.
struct Case {
    shape: Shape,
    oracle: Oracle,
    /// The largest distance of a point of the shape from its origin.
    size: f64,
    /// Extra tolerance on top of the rounding (a hull's merge tolerance).
    slack: f64,
}

fn sphere_case(rng: &mut SplitMix64, scale: f64) -> Case {
    let r = rng.log_range(0.1 * scale, 2.0 * scale) as f32;
    Case {
        shape: Sphere::new(r).into(),
        oracle: Oracle::Sphere(r as f64),
        size: r as f64,
        slack: 0.0,
    }
}

fn capsule_case(rng: &mut SplitMix64, scale: f64) -> Case {
    let (hh, r) = (
        rng.log_range(0.1 * scale, 2.0 * scale) as f32,
        rng.log_range(0.1 * scale, 2.0 * scale) as f32,
    );
    Case {
        shape: Capsule::new(hh, r).into(),
        oracle: Oracle::Capsule { half_height: hh as f64, radius: r as f64 },
        size: (hh + r) as f64,
        slack: 0.0,
    }
}

fn cuboid_case(rng: &mut SplitMix64, scale: f64) -> Case {
    let half = half_extents(rng, 0.1 * scale, 2.0 * scale);
    Case {
        shape: Cuboid::new(half).into(),
        oracle: Oracle::Polytope(Polytope::cuboid(half.cast()), 0.0),
        size: half.cast::<f64>().norm(),
        slack: 0.0,
    }
}

fn hull_case(rng: &mut SplitMix64, scale: f64) -> Case {
    let n = 4 + rng.below(13);
    let points = cloud(rng, n, 0.2 * scale, 2.0 * scale);
    let hull = ConvexHull::new(&points).expect("generated clouds make hulls");
    let vertices: Vec<Point3<f64>> = hull.vertices().iter().map(|v| v.cast()).collect();
    let poly = Polytope::from_cloud(&vertices).expect("a hull's vertices span volume");
    let size = hull.bounding_radius() as f64;
    // Only a merged face (more than three vertices) can stand off the
    // exact hull of the vertices.
    let merged = hull.faces().iter().any(|f| f.vertices.len() > 3);
    let slack = if merged { COPLANAR_REL * 2.0 * size } else { 0.0 };
    Case { shape: hull.into(), oracle: Oracle::Polytope(poly, 0.0), size, slack }
}

fn cylinder_case(rng: &mut SplitMix64, scale: f64) -> Case {
    let (hh, r) = (
        rng.log_range(0.1 * scale, 2.0 * scale) as f32,
        rng.log_range(0.1 * scale, 2.0 * scale) as f32,
    );
    Case {
        shape: Cylinder::new(hh, r).into(),
        oracle: Oracle::Cylinder { half_height: hh as f64, radius: r as f64 },
        size: (hh as f64).hypot(r as f64),
        slack: 0.0,
    }
}

fn cone_case(rng: &mut SplitMix64, scale: f64) -> Case {
    let (hh, r) = (
        rng.log_range(0.1 * scale, 2.0 * scale) as f32,
        rng.log_range(0.1 * scale, 2.0 * scale) as f32,
    );
    Case {
        shape: Cone::new(hh, r).into(),
        oracle: Oracle::Cone { half_height: hh as f64, radius: r as f64 },
        size: (hh as f64).hypot(r as f64),
        slack: 0.0,
    }
}

/// Three points in a ball of radius `scale`, well clear of collinear.
fn triangle_case(rng: &mut SplitMix64, scale: f64) -> Case {
    loop {
        let v: [Point3<f32>; 3] = std::array::from_fn(|_| {
            Point3::from(rng.unit_vector() * scale * rng.range(0.2, 1.0)).cast()
        });
        let v64 = v.map(|p| p.cast::<f64>());
        let (ab, ac) = (v64[1] - v64[0], v64[2] - v64[0]);
        if ab.cross(&ac).norm() < 0.05 * ab.norm() * ac.norm() {
            continue;
        }
        let size = v64.iter().map(|p| p.coords.norm()).fold(0.0, f64::max);
        return Case {
            shape: Triangle::new(v[0], v[1], v[2]).into(),
            oracle: Oracle::Triangle(v64),
            size,
            slack: 0.0,
        };
    }
}

fn segment_case(rng: &mut SplitMix64, scale: f64) -> Case {
    let v: [Point3<f32>; 2] = std::array::from_fn(|_| {
        Point3::from(rng.unit_vector() * scale * rng.range(0.2, 1.0)).cast()
    });
    let v64 = v.map(|p| p.cast::<f64>());
    let size = v64.iter().map(|p| p.coords.norm()).fold(0.0, f64::max);
    Case { shape: Segment::new(v[0], v[1]).into(), oracle: Oracle::Segment(v64), size, slack: 0.0 }
}

fn rounded_cuboid_case(rng: &mut SplitMix64, scale: f64) -> Case {
    let half = half_extents(rng, 0.1 * scale, 2.0 * scale);
    let r = rng.log_range(0.05 * scale, 0.5 * scale) as f32;
    Case {
        shape: Rounded::new(Shape::from(Cuboid::new(half)), r).into(),
        oracle: Oracle::Polytope(Polytope::cuboid(half.cast()), r as f64),
        size: half.cast::<f64>().norm() + r as f64,
        slack: 0.0,
    }
}

fn rounded_hull_case(rng: &mut SplitMix64, scale: f64) -> Case {
    let hull = hull_case(rng, scale);
    let r = rng.log_range(0.05 * scale, 0.5 * scale) as f32;
    let Oracle::Polytope(poly, _) = hull.oracle else { unreachable!("a hull case") };
    Case {
        shape: Rounded::new(hull.shape, r).into(),
        oracle: Oracle::Polytope(poly, r as f64),
        size: hull.size + r as f64,
        slack: hull.slack,
    }
}

/// The query points for one shape at one pose, in the world frame: random
/// points around it, and for each the points just inside, just outside and
/// on the surface beside its nearest surface point.
fn query_points(rng: &mut SplitMix64, case: &Case, pose: &Isometry3<f64>) -> Vec<Point3<f32>> {
    let mut out = Vec::new();
    for _ in 0..POINTS {
        let reach = case.size * rng.range(0.0, 2.5);
        let local = Point3::from(rng.unit_vector() * reach);
        out.push((pose * local).cast::<f32>());
        let e = case.oracle.expected(&local);
        // The outward direction at the nearest point (from inside, towards
        // the surface).
        let gap = e.signed.abs();
        if gap < 1e-9 * case.size {
            continue;
        }
        let outward = (local - e.nearest) * (e.signed.signum() / gap);
        let nudge = NUDGE_REL * case.size;
        for offset in [nudge, -nudge, 0.0] {
            out.push((pose * (e.nearest + outward * offset)).cast::<f32>());
        }
    }
    out
}

/// Checks every query at `p` (world) against the oracle; `Err` says what
/// failed. `generic_tol` routes the queries through [`UserShape`] (the
/// GJK/EPA fallback) with that relative tolerance. With `approximate`, a
/// generic answer may stop early
/// (on a curved shape, EPA approaches the surface but need not converge)
/// if it says so in its status, and then only its inside flag is checked.
fn check_point_with(
    case: &Case,
    pose: &Isometry3<f32>,
    p: &Point3<f32>,
    generic_tol: Option<f64>,
    approximate: bool,
) -> Result<(), String> {
    let user = UserShape(&case.shape);
    let pose64: Isometry3<f64> = pose.cast();
    let local = pose64.inverse_transform_point(&p.cast());
    let expected = case.oracle.expected(&local);
    let rel = generic_tol.unwrap_or(TOL_REL);

    let (distance, projection, solid, contains) = match generic_tol {
        None => (
            try_distance_to_point(&case.shape, pose, p),
            try_project_point(&case.shape, pose, p, false),
            try_project_point(&case.shape, pose, p, true),
            try_contains_point(&case.shape, pose, p),
        ),
        Some(_) => (
            try_distance_to_point(&user, pose, p),
            try_project_point(&user, pose, p, false),
            try_project_point(&user, pose, p, true),
            try_contains_point(&user, pose, p),
        ),
    };
    let (distance, projection, solid, contains) = (
        distance.map_err(|e| format!("distance: {e}"))? as f64,
        projection.map_err(|e| format!("project: {e}"))?,
        solid.map_err(|e| format!("solid project: {e}"))?,
        contains.map_err(|e| format!("contains: {e}"))?,
    );
    let tol = rel * (case.size + p.coords.cast::<f64>().norm()) + case.slack;
    let ctx = || format!("p {p:?}, expected signed {:.9e}, tol {tol:.3e}", expected.signed);
    if approximate && projection.status != ProjectionStatus::Exact {
        // Stopped early, and said so: only the inside flag (outside the
        // rounding band) and a finite answer are promised.
        let inside = expected.signed < 0.0;
        if expected.signed.abs() > tol && (projection.is_inside != inside || contains != inside) {
            return Err(format!(
                "inside {} after {:?}; {}",
                projection.is_inside,
                projection.status,
                ctx()
            ));
        }
        if !distance.is_finite() || !projection.point.coords.iter().all(|c| c.is_finite()) {
            return Err(format!("non-finite {projection:?}; {}", ctx()));
        }
        return Ok(());
    }

    if (distance - expected.signed).abs() > tol {
        return Err(format!("distance {distance:.9e}; {}", ctx()));
    }
    if projection.status != ProjectionStatus::Exact && !approximate {
        return Err(format!("status {:?}; {}", projection.status, ctx()));
    }
    // The inside flag, contains_point and the solid form agree with the
    // oracle wherever rounding cannot flip it.
    if expected.signed.abs() > tol {
        let inside = expected.signed < 0.0;
        if projection.is_inside != inside || contains != inside || solid.is_inside != inside {
            return Err(format!(
                "inside: projection {}, contains {contains}, solid {}; {}",
                projection.is_inside,
                solid.is_inside,
                ctx()
            ));
        }
    }
    if projection.is_inside != contains {
        return Err(format!(
            "contains {contains} but projection inside {}; {}",
            projection.is_inside,
            ctx()
        ));
    }
    // Triangles and segments have no interior: a point on them is its own
    // projection either way.
    let flat = matches!(case.shape, Shape::Triangle(_) | Shape::Segment(_));
    if solid.is_inside && flat && generic_tol.is_none() {
        if solid != projection {
            return Err(format!(
                "solid {solid:?} differs on a flat shape from {projection:?}; {}",
                ctx()
            ));
        }
    } else if solid.is_inside {
        if solid.point != *p || solid.feature != PointFeature::Interior {
            return Err(format!("solid inside gave {solid:?}; {}", ctx()));
        }
    } else if solid != projection {
        return Err(format!("solid {solid:?} differs outside from {projection:?}; {}", ctx()));
    }
    // The projected point: on the surface, at the distance measured, and
    // outside (where it is unique) the oracle's nearest point.
    let q_world = projection.point.cast::<f64>();
    let q = pose64.inverse_transform_point(&q_world);
    let on_surface = case.oracle.expected(&q).signed;
    if on_surface.abs() > tol {
        return Err(format!("projection {q:?} is {on_surface:.3e} off the surface; {}", ctx()));
    }
    if ((p.cast::<f64>() - q_world).norm() - expected.signed.abs()).abs() > tol {
        return Err(format!("projection {q:?} is not at the distance; {}", ctx()));
    }
    // Any point of a convex set within `d + e` of `p` lies within
    // `√(2de + e²)` of the nearest one (at distance `d`): a merged face,
    // which may tilt by up to `slack` across its width, moves the nearest
    // point by up to that.
    // GJK's relative convergence test leaves the same freedom.
    let near_tol = if case.slack > 0.0 || generic_tol.is_some() {
        let e = tol;
        (2.0 * expected.signed * e + e * e).sqrt()
    } else {
        tol
    };
    if expected.signed > tol && (q - expected.nearest).norm() > near_tol {
        return Err(format!("projection {q:?}, expected {:?}; {}", expected.nearest, ctx()));
    }
    if generic_tol.is_none() {
        let off = feature_distance(&case.shape, projection.feature, &q)?;
        if off > tol {
            return Err(format!(
                "projection {q:?} is {off:.3e} off {:?}; {}",
                projection.feature,
                ctx()
            ));
        }
    } else if projection.feature != PointFeature::Boundary {
        return Err(format!("a user's shape reported {:?}", projection.feature));
    }
    Ok(())
}

/// How far `q` (shape frame) is from `feature` of `shape`; an error if the
/// feature does not exist on that shape.
fn feature_distance(shape: &Shape, feature: PointFeature, q: &Point3<f64>) -> Result<f64, String> {
    let bad = || Err(format!("{feature:?} is not a feature of {shape:?}"));
    let segment = |a: Point3<f64>, b: Point3<f64>| (q - closest_on_segment(q, &a, &b)).norm();
    Ok(match (shape, feature) {
        (Shape::Sphere(s), PointFeature::Side) => (q.coords.norm() - s.radius as f64).abs(),
        (Shape::Capsule(c), f) => {
            let (hh, r) = (c.half_height as f64, c.radius as f64);
            let (core, beyond) = match f {
                PointFeature::Side => {
                    (Point3::new(0.0, q.y.clamp(-hh, hh), 0.0), (q.y.abs() - hh).max(0.0))
                }
                PointFeature::Cap(End::Top) => (Point3::new(0.0, hh, 0.0), (hh - q.y).max(0.0)),
                PointFeature::Cap(End::Bottom) => (Point3::new(0.0, -hh, 0.0), (q.y + hh).max(0.0)),
                _ => return bad(),
            };
            ((q - core).norm() - r).abs() + beyond
        }
        (Shape::Cuboid(c), f) => {
            let corners: Vec<Point3<f64>> = c.corners().iter().map(|v| v.cast()).collect();
            let h = c.half_extents.cast::<f64>();
            match f {
                PointFeature::Vertex(i) if i < 8 => (q - corners[i as usize]).norm(),
                PointFeature::Edge([i, j]) if i < j && j < 8 && (i ^ j).count_ones() == 1 => {
                    segment(corners[i as usize], corners[j as usize])
                }
                PointFeature::Face(k) if k < 6 => {
                    let axis = (k / 2) as usize;
                    let side = if k % 2 == 1 { h[axis] } else { -h[axis] };
                    let beyond = (0..3)
                        .filter(|&a| a != axis)
                        .map(|a| (q[a].abs() - h[a]).max(0.0))
                        .fold(0.0, f64::max);
                    (q[axis] - side).abs() + beyond
                }
                _ => return bad(),
            }
        }
        (Shape::ConvexHull(hull), f) => {
            let v = |i: u32| hull.vertices()[i as usize].cast::<f64>();
            let n = hull.vertices().len() as u32;
            match f {
                PointFeature::Vertex(i) if i < n => (q - v(i)).norm(),
                PointFeature::Edge([i, j])
                    if i < j && j < n && hull.neighbors(i as usize).contains(&j) =>
                {
                    segment(v(i), v(j))
                }
                PointFeature::Face(k) if (k as usize) < hull.faces().len() => {
                    // On the face's plane and (checked by the caller) on
                    // the hull's surface: so on the face.
                    let face = &hull.faces()[k as usize];
                    (face.normal.into_inner().cast::<f64>().dot(&q.coords) - face.offset as f64)
                        .abs()
                }
                _ => return bad(),
            }
        }
        (Shape::Cylinder(c), f) => {
            let (hh, r) = (c.half_height as f64, c.radius as f64);
            let rho = q.x.hypot(q.z);
            match f {
                PointFeature::Side => (rho - r).abs() + (q.y.abs() - hh).max(0.0),
                PointFeature::Cap(end) => (q.y - end_y(end, hh)).abs() + (rho - r).max(0.0),
                PointFeature::Rim(end) => (rho - r).abs() + (q.y - end_y(end, hh)).abs(),
                _ => return bad(),
            }
        }
        (Shape::Cone(c), f) => {
            let (hh, r) = (c.half_height as f64, c.radius as f64);
            let rho = q.x.hypot(q.z);
            let q2 = Point3::new(rho, q.y, 0.0);
            let (apex, rim) = (Point3::new(0.0, hh, 0.0), Point3::new(r, -hh, 0.0));
            match f {
                PointFeature::Apex => (q2 - apex).norm(),
                PointFeature::Rim(End::Bottom) => (q2 - rim).norm(),
                PointFeature::Cap(End::Bottom) => (q.y + hh).abs() + (rho - r).max(0.0),
                PointFeature::Side => (q2 - closest_on_segment(&q2, &apex, &rim)).norm(),
                _ => return bad(),
            }
        }
        (Shape::Triangle(t), f) => {
            let v = t.vertices().map(|p| p.cast::<f64>());
            match f {
                PointFeature::Vertex(i) if i < 3 => (q - v[i as usize]).norm(),
                PointFeature::Edge([i, j]) if i < j && j < 3 => {
                    segment(v[i as usize], v[j as usize])
                }
                PointFeature::Face(k) if k < 2 => {
                    (q - closest_on_triangle(q, &v[0], &v[1], &v[2])).norm()
                }
                _ => return bad(),
            }
        }
        (Shape::Segment(s), f) => {
            let (a, b) = (s.a.cast::<f64>(), s.b.cast::<f64>());
            match f {
                PointFeature::Vertex(0) => (q - a).norm(),
                PointFeature::Vertex(1) => (q - b).norm(),
                PointFeature::Edge([0, 1]) => segment(a, b),
                _ => return bad(),
            }
        }
        // A rounded shape names the inner shape's feature whose rounding
        // the point is on: it is the radius away from that feature.
        (Shape::Rounded(r), f) => (feature_distance(&r.inner, f, q)? - r.radius as f64).abs(),
        _ => return bad(),
    })
}

/// The height of a cap.
fn end_y(end: End, hh: f64) -> f64 {
    if end == End::Top { hh } else { -hh }
}

/// A shape collide cannot see into: only its support function (and its
/// margin and core support, so rounded shapes keep their exact margin), so
/// point queries take the GJK/EPA fallback.
struct UserShape<'s>(&'s Shape);

impl ProjectPoint for UserShape<'_> {}

impl SupportMap for UserShape<'_> {
    fn local_support(&self, dir: &Vector3<f32>) -> Point3<f32> {
        self.0.local_support(dir)
    }
    fn margin(&self) -> f32 {
        self.0.margin()
    }
    fn local_core_support(&self, dir: &Vector3<f32>) -> Point3<f32> {
        self.0.local_core_support(dir)
    }
}

type Make = fn(&mut SplitMix64, f64) -> Case;
const KINDS: [(&str, Make); 10] = [
    ("sphere", sphere_case),
    ("capsule", capsule_case),
    ("cuboid", cuboid_case),
    ("hull", hull_case),
    ("cylinder", cylinder_case),
    ("cone", cone_case),
    ("triangle", triangle_case),
    ("segment", segment_case),
    ("rounded cuboid", rounded_cuboid_case),
    ("rounded hull", rounded_hull_case),
];

/// Runs every kind at every scale; `generic` routes the queries through
/// [`UserShape`] (the GJK/EPA fallback) with that relative tolerance.
fn run(kinds: &[(&str, Make)], seed: u64, generic: Option<f64>) {
    run_with(kinds, seed, generic, false)
}

/// [`run`], allowing answers that say they stopped early (see
/// [`check_point_with`]).
fn run_with(kinds: &[(&str, Make)], seed: u64, generic: Option<f64>, approximate: bool) {
    let mut failures = Vec::new();
    let mut checked = 0usize;
    for (k, (name, make)) in kinds.iter().enumerate() {
        for (s, scale) in SCALES.iter().enumerate() {
            for i in 0..SHAPES {
                let mut rng = SplitMix64::for_case(seed, (k as u64 * 16 + s as u64) << 32 | i);
                let case = make(&mut rng, *scale);
                // The identity for the first shape, random poses after.
                let pose =
                    if i == 0 { Isometry3::identity() } else { isometry(&mut rng, 4.0 * scale) };
                for p in query_points(&mut rng, &case, &pose.cast()) {
                    checked += 1;
                    if let Err(e) = check_point_with(&case, &pose, &p, generic, approximate) {
                        failures.push(format!("{name} scale {scale} shape {i}: {e}"));
                    }
                }
            }
        }
    }
    assert!(checked > 1000, "only {checked} points checked");
    assert!(
        failures.is_empty(),
        "{} of {checked} failed:\n{}",
        failures.len(),
        failures[..failures.len().min(20)].join("\n")
    );
}

#[test]
fn closed_forms_match_oracles_at_every_scale_and_pose() {
    run(&KINDS, SEED, None);
}

/// Shapes on which GJK and EPA are exact: polytopes, and round shapes whose
/// roundness is a declared margin (added exactly after GJK/EPA on the
/// core).
const EXACT_BY_SUPPORT: [(&str, Make); 8] = [
    ("sphere", sphere_case),
    ("capsule", capsule_case),
    ("cuboid", cuboid_case),
    ("hull", hull_case),
    ("triangle", triangle_case),
    ("segment", segment_case),
    ("rounded cuboid", rounded_cuboid_case),
    ("rounded hull", rounded_hull_case),
];

#[test]
fn user_support_maps_match_oracles_through_gjk_and_epa() {
    run(&EXACT_BY_SUPPORT, SEED ^ 0x55, Some(GENERIC_TOL_REL));
}

/// Cylinders and cones given only by their support functions: curved
/// surfaces without a margin. GJK from outside converges; EPA from inside
/// approaches the surface and may stop early, which it must report (then
/// its depth can be off by tens of percent: the closed forms are the
/// answer for these shapes). Exact answers are held to the full check.
#[test]
fn curved_user_support_maps_are_exact_or_say_so() {
    let curved: [(&str, Make); 2] = [("cylinder", cylinder_case), ("cone", cone_case)];
    run_with(&curved, SEED ^ 0xc0, Some(CURVED_TOL_REL), true);
}

/// parry's `solid_point_query3d` example: a 1 × 2 × 2 half-extent box, the
/// origin inside (solid distance 0, surface distance 1) and (2, 2, 2)
/// outside at distance 1.
#[test]
fn parry_solid_point_query_example() {
    let cuboid = Cuboid::new(Vector3::new(1.0, 2.0, 2.0));
    let id = Isometry3::identity();
    let inside = Point3::origin();
    let outside = Point3::new(2.0, 2.0, 2.0);
    assert_eq!(distance_to_point(&cuboid, &id, &inside), -1.0);
    assert!(contains_point(&cuboid, &id, &inside));
    let solid = project_point(&cuboid, &id, &inside, true);
    assert_eq!((solid.point, solid.feature), (inside, PointFeature::Interior));
    let surface = project_point(&cuboid, &id, &inside, false);
    assert_eq!(
        (surface.point, surface.feature),
        (Point3::new(1.0, 0.0, 0.0), PointFeature::Face(1))
    );
    assert_eq!(distance_to_point(&cuboid, &id, &outside), 1.0);
    assert!(!contains_point(&cuboid, &id, &outside));
    let corner = project_point(&cuboid, &id, &outside, true);
    assert_eq!(
        (corner.point, corner.feature),
        (Point3::new(1.0, 2.0, 2.0), PointFeature::Vertex(7))
    );
}

/// Features of a unit cube named exactly: faces, edges, corners, from
/// outside and from inside, for every sign.
#[test]
fn cuboid_features_are_named_by_corner_bits() {
    let cube = Cuboid::new(Vector3::new(1.0, 2.0, 3.0));
    let id = Isometry3::identity();
    for axis in 0..3 {
        for (sign, bit) in [(-1.0f32, 0u32), (1.0, 1)] {
            let mut p = Point3::origin();
            p[axis] = sign * 10.0;
            assert_eq!(
                project_point(&cube, &id, &p, true).feature,
                PointFeature::Face(2 * axis as u32 + bit)
            );
        }
    }
    let far = Point3::new(-5.0, 5.0, -5.0);
    assert_eq!(project_point(&cube, &id, &far, true).feature, PointFeature::Vertex(0b010));
    let edge = Point3::new(5.0, 0.5, -5.0);
    assert_eq!(project_point(&cube, &id, &edge, true).feature, PointFeature::Edge([0b001, 0b011]));
    let deep = Point3::new(0.0, 1.5, 0.5);
    let up = project_point(&cube, &id, &deep, false);
    assert_eq!(
        (up.point, up.feature, up.is_inside),
        (Point3::new(0.0, 2.0, 0.5), PointFeature::Face(3), true)
    );
}

/// A flat hull (a square) is a polygon: points over it project onto its
/// face, points beside it onto an edge or corner, and points on it are in
/// it.
#[test]
fn flat_hull_projects_onto_its_polygon() {
    let square: Vec<Point3<f32>> = [[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]]
        .iter()
        .map(|&[x, y]| Point3::new(x, y, 0.5))
        .collect();
    let hull = ConvexHull::new(&square).expect("a square");
    assert!(hull.is_flat());
    let pose = Isometry3::translation(3.0, -2.0, 1.0);
    let at = |x: f32, y: f32, z: f32| pose * Point3::new(x, y, z);
    let above = project_point(&hull, &pose, &at(0.25, 0.5, 2.5), false);
    assert!((above.point - at(0.25, 0.5, 0.5)).norm() < 1e-6);
    // Face 0 or 1, whichever faces +Z.
    let up = if hull.faces()[0].normal.z > 0.0 { 0 } else { 1 };
    assert_eq!((above.feature, above.is_inside), (PointFeature::Face(up), false));
    let below = project_point(&hull, &pose, &at(0.25, 0.5, -2.5), false);
    assert_eq!(below.feature, PointFeature::Face(1 - up));
    assert!((distance_to_point(&hull, &pose, &at(0.25, 0.5, -1.5)) - 2.0).abs() < 1e-5);
    let beside = project_point(&hull, &pose, &at(2.0, 0.5, 0.5), false);
    assert!((beside.point - at(1.0, 0.5, 0.5)).norm() < 1e-6);
    assert!(matches!(beside.feature, PointFeature::Edge(_)), "{beside:?}");
    let corner = project_point(&hull, &pose, &at(2.0, 2.0, 1.0), false);
    assert!((corner.point - at(1.0, 1.0, 0.5)).norm() < 1e-6);
    assert!(matches!(corner.feature, PointFeature::Vertex(_)));
    let on = at(0.5, 0.5, 0.5);
    assert!(contains_point(&hull, &pose, &on));
    assert!(project_point(&hull, &pose, &on, true).is_inside);
    assert!(distance_to_point(&hull, &pose, &on).abs() < 1e-5);
    assert!(!contains_point(&hull, &pose, &at(0.5, 0.5, 0.51)));
    assert!(!contains_point(&hull, &pose, &at(1.01, 0.5, 0.5)));
}

/// Round shapes name their pieces: a capsule's side and caps.
#[test]
fn capsule_features_are_side_and_caps() {
    let capsule = Capsule::new(1.0, 0.5);
    let id = Isometry3::identity();
    let side = project_point(&capsule, &id, &Point3::new(2.0, 0.3, 0.0), true);
    assert_eq!((side.point, side.feature), (Point3::new(0.5, 0.3, 0.0), PointFeature::Side));
    let top = project_point(&capsule, &id, &Point3::new(0.0, 3.0, 0.0), true);
    assert_eq!((top.point, top.feature), (Point3::new(0.0, 1.5, 0.0), PointFeature::Cap(End::Top)));
    let bottom = project_point(&capsule, &id, &Point3::new(0.0, -1.2, 0.0), false);
    assert_eq!(
        (bottom.point, bottom.feature, bottom.is_inside),
        (Point3::new(0.0, -1.5, 0.0), PointFeature::Cap(End::Bottom), true)
    );
    // On the core segment itself, every direction is as good: +X.
    let core = project_point(&capsule, &id, &Point3::new(0.0, 0.2, 0.0), false);
    assert_eq!(core.point, Point3::new(0.5, 0.2, 0.0));
}

/// Bad input is a typed error from the `try_` forms and the documented
/// fallback from the bare ones, never an answer.
#[test]
fn bad_input_is_an_error_and_the_bare_forms_fall_back() {
    let id = Isometry3::identity();
    let ok = Point3::new(1.0, 2.0, 3.0);
    let nan = Point3::new(0.0, f32::NAN, 0.0);
    let inf_pose = Isometry3::translation(f32::INFINITY, 0.0, 0.0);
    let ball: Shape = Sphere::new(1.0).into();
    assert_eq!(try_project_point(&ball, &id, &nan, true), Err(QueryError::NonFiniteInput));
    assert_eq!(try_distance_to_point(&ball, &inf_pose, &ok), Err(QueryError::NonFiniteInput));
    assert_eq!(try_contains_point(&ball, &inf_pose, &ok), Err(QueryError::NonFiniteInput));
    assert_eq!(
        try_project_point(&Sphere::new(-1.0), &id, &ok, true),
        Err(QueryError::NegativeMargin)
    );
    let flipped = Cuboid::new(Vector3::new(1.0, -1.0, 1.0));
    assert_eq!(try_distance_to_point(&flipped, &id, &ok), Err(QueryError::NegativeExtent));
    let fallback = project_point(&ball, &id, &nan, false);
    assert!(fallback.point.coords.iter().all(|c| c.is_nan()));
    assert_eq!((fallback.is_inside, fallback.status), (false, ProjectionStatus::InvalidInput));
    assert!(distance_to_point(&ball, &id, &nan).is_nan());
    assert!(!contains_point(&ball, &inf_pose, &Point3::new(f32::INFINITY, 0.0, 0.0)));
    // A user's support map that returns NaN is an error, not "outside".
    struct Broken;
    impl ProjectPoint for Broken {}
    impl SupportMap for Broken {
        fn local_support(&self, _: &Vector3<f32>) -> Point3<f32> {
            Point3::new(f32::NAN, 0.0, 0.0)
        }
    }
    assert_eq!(try_project_point(&Broken, &id, &ok, false), Err(QueryError::NonFiniteInput));
    assert_eq!(try_contains_point(&Broken, &id, &ok), Err(QueryError::NonFiniteInput));
}

/// parry2d's `project_local_point_point_on_ab` regression, in 3D: a point
/// on an edge of a triangle projects onto itself, whichever vertex the
/// triangle starts at.
#[test]
fn point_on_a_triangle_edge_projects_to_itself_in_every_vertex_order() {
    let v = [Point3::new(2.0, 1.0, 0.0), Point3::new(0.0, 1.0, 0.0), Point3::new(1.0, 0.0, 0.0)];
    let on_edge = Point3::new(1.4, 1.0, 0.0);
    let id = Isometry3::identity();
    for turn in 0..3 {
        let t = Triangle::new(v[turn], v[(turn + 1) % 3], v[(turn + 2) % 3]);
        for solid in [false, true] {
            let p = project_point(&t, &id, &on_edge, solid);
            assert_eq!(p.point, on_edge, "turn {turn}");
            assert!(p.is_inside && matches!(p.feature, PointFeature::Edge(_)), "{p:?}");
        }
    }
}

/// Cylinders and cones name their side, caps, rims and apex.
#[test]
fn cylinder_and_cone_features_are_named() {
    let id = Isometry3::identity();
    let cyl = Cylinder::new(1.0, 0.5);
    let at = |x, y, z| Point3::new(x, y, z);
    let f = |s: &dyn Fn(Point3<f32>) -> collide::PointProjection, p| s(p).feature;
    let cp = |p| project_point(&cyl, &id, &p, true);
    assert_eq!(f(&cp, at(2.0, 0.0, 0.0)), PointFeature::Side);
    assert_eq!(f(&cp, at(0.1, 3.0, 0.0)), PointFeature::Cap(End::Top));
    assert_eq!(f(&cp, at(2.0, -3.0, 0.0)), PointFeature::Rim(End::Bottom));
    assert_eq!(cp(at(2.0, -3.0, 0.0)).point, at(0.5, -1.0, 0.0));
    let deep = project_point(&cyl, &id, &at(0.0, 0.9, 0.0), false);
    assert_eq!(
        (deep.point, deep.feature, deep.is_inside),
        (at(0.0, 1.0, 0.0), PointFeature::Cap(End::Top), true)
    );
    let cone = Cone::new(1.0, 0.5);
    let kp = |p| project_point(&cone, &id, &p, true);
    assert_eq!(f(&kp, at(0.0, 3.0, 0.0)), PointFeature::Apex);
    assert_eq!(kp(at(0.0, 3.0, 0.0)).point, at(0.0, 1.0, 0.0));
    assert_eq!(f(&kp, at(0.0, 0.0, 2.0)), PointFeature::Side);
    assert_eq!(f(&kp, at(0.1, -2.0, 0.0)), PointFeature::Cap(End::Bottom));
    assert_eq!(f(&kp, at(3.0, -1.5, 0.0)), PointFeature::Rim(End::Bottom));
    assert!(contains_point(&cone, &id, &at(0.0, 0.99, 0.0)));
    assert!(!contains_point(&cone, &id, &at(0.3, 0.5, 0.0)));
}

/// A user's cylinder inside a `Shape::Custom` is answered by GJK/EPA and
/// agrees with the closed form of collide's own cylinder from outside.
#[test]
fn custom_shape_cylinder_agrees_with_the_closed_form() {
    #[derive(Debug)]
    struct MyCylinder {
        half_height: f32,
        radius: f32,
    }
    impl SupportMap for MyCylinder {
        fn local_support(&self, d: &Vector3<f32>) -> Point3<f32> {
            let radial = (d.x * d.x + d.z * d.z).sqrt();
            let s = if radial > 0.0 { self.radius / radial } else { 0.0 };
            Point3::new(d.x * s, self.half_height.copysign(d.y), d.z * s)
        }
    }
    impl collide::CastRay for MyCylinder {}
    impl collide::CustomShape for MyCylinder {}
    let mine = Shape::Custom(std::sync::Arc::new(MyCylinder { half_height: 1.0, radius: 0.5 }));
    let ours: Shape = Cylinder::new(1.0, 0.5).into();
    let mut rng = SplitMix64::new(SEED ^ 0xcc);
    for _ in 0..200 {
        let pose = isometry(&mut rng, 3.0);
        let p = (pose.cast::<f64>() * Point3::from(rng.unit_vector() * rng.range(1.5, 3.0)))
            .cast::<f32>();
        let (a, b) = (project_point(&mine, &pose, &p, true), project_point(&ours, &pose, &p, true));
        assert_eq!(a.feature, PointFeature::Boundary);
        assert!(!a.is_inside && !b.is_inside);
        assert!((a.point - b.point).norm() < 1e-3, "{a:?} vs {b:?}");
        let (da, db) = (distance_to_point(&mine, &pose, &p), distance_to_point(&ours, &pose, &p));
        assert!((da - db).abs() < 1e-4 * (1.0 + db.abs()), "{da} vs {db}");
    }
}

/// The hull's inscribed-ball shortcut (a solid point well inside the ball
/// of radius [`ConvexHull::inradius`] about the origin is inside without a
/// face test) against the face planes in f64: points along every face's
/// normal just inside and just outside its plane, and in random directions
/// at radii about the inradius, under the identity and a random pose; and
/// a hull whose origin lies outside it (inradius 0, so no shortcut).
#[test]
fn inscribed_ball_shortcut_agrees_with_face_planes() {
    let mut rng = SplitMix64::new(SEED ^ 0xba11);
    let pts = cloud(&mut rng, 16, 0.5, 1.0);
    let hull = ConvexHull::new(&pts).expect("hull");
    let moved: Vec<_> = pts.iter().map(|p| p + Vector3::new(3.0, 0.0, 0.0)).collect();
    let off = ConvexHull::new(&moved).expect("hull");
    assert!(hull.inradius() > 0.0);
    assert_eq!(off.inradius(), 0.0);
    let r = hull.inradius();
    // The inradius is the least face offset: some face is that close.
    let nearest = hull.faces().iter().map(|f| f.offset).fold(f32::INFINITY, f32::min);
    assert_eq!(r, nearest);
    for h in [&hull, &off] {
        let inside_f64 = |p: &Point3<f32>| {
            h.faces().iter().all(|f| {
                let n = f.normal.into_inner().cast::<f64>();
                n.dot(&p.coords.cast::<f64>()) <= f64::from(f.offset)
            })
        };
        let mut points = Vec::new();
        for f in h.faces() {
            for s in [1.0 - 1e-4, 1.0 + 1e-4] {
                points.push(Point3::from(f.normal.into_inner() * f.offset * s));
            }
        }
        for _ in 0..200 {
            let d = Vector3::new(rng.range(-1.0, 1.0), rng.range(-1.0, 1.0), rng.range(-1.0, 1.0));
            let s = rng.range(0.9, 1.1) as f32;
            points.push(Point3::from(d.cast::<f32>().normalize() * r * s));
        }
        for pose in [Isometry3::identity(), isometry(&mut rng, 2.0)] {
            for local in &points {
                let world = pose * local;
                let solid = project_point(h, &pose, &world, true);
                let expected = inside_f64(local);
                // Rounding of the pose only matters within a few ulps of a
                // plane; these points are 1e-4 of the offset from every one
                // along a normal, or checked only away from the planes.
                let margin =
                    h.faces().iter().map(|f| (f.normal.dot(&local.coords) - f.offset).abs());
                if margin.fold(f32::INFINITY, f32::min) > 1e-5 {
                    assert_eq!(solid.is_inside, expected, "point {local:?}");
                    assert_eq!(contains_point(h, &pose, &world), expected, "point {local:?}");
                    if expected {
                        assert_eq!(solid.feature, PointFeature::Interior);
                    }
                }
            }
        }
    }
}
