//! Box2D's shape tests (`test/test_shape.c`: `ShapeMassTest`,
//! `ShapeAABBTest`, `RayCastShapeTest`), carried to 3D and to the kinds
//! collide added, written anew here:
//!
//! - mass: closed forms for a ball and a box, and each curved solid's mass
//!   and inertia bracketed between a polyhedron inscribed in it and one
//!   circumscribed about it (Box2D brackets its capsule between an
//!   inscribed hull and the enclosing box);
//! - boxes: the exact AABB of each kind at the identity and at a quarter
//!   turn, corner by corner;
//! - ray casts: one ray, `(-4, 0, 0) + t (8, 0, 0)` with `t ≤ 1`, at each
//!   kind, with the fraction and normal worked out by hand;
//!
//! and the rounded box's closed-form mass properties against an f64 grid
//! integration of its indicator and against the support-point fallback.

use std::f64::consts::PI;

use collide::nalgebra::{Isometry3, Point3, UnitQuaternion, Vector3};
use collide::{
    Capsule, Cone, ConvexHull, Cuboid, Cylinder, MassProperties, Ray, RayCast, Rounded, Segment,
    Shape, Sphere, SupportMap, Triangle, cast_ray,
};

const EPS: f32 = f32::EPSILON;

fn mass(shape: impl Into<Shape>) -> MassProperties {
    shape.into().mass_properties(1.0)
}

fn hull_mass(points: &[Point3<f32>]) -> MassProperties {
    mass(ConvexHull::new(points).expect("a solid hull"))
}

/// `inner ≤ exact ≤ outer` in mass and in each principal moment.
fn bracketed(name: &str, inner: &MassProperties, exact: &MassProperties, outer: &MassProperties) {
    assert!(
        inner.mass < exact.mass && exact.mass < outer.mass,
        "{name} mass: {} {} {}",
        inner.mass,
        exact.mass,
        outer.mass
    );
    for k in 0..3 {
        let (i, e, o) = (inner.inertia[(k, k)], exact.inertia[(k, k)], outer.inertia[(k, k)]);
        assert!(i < e && e < o, "{name} inertia[{k}]: {i} {e} {o}");
    }
}

/// Points on circles of `radius` at heights `ys` (`n` a circle), with
/// the circles rotated by half a step when `offset`.
fn rings(radius: f32, ys: &[f32], n: usize) -> Vec<Point3<f32>> {
    let mut points = Vec::new();
    for &y in ys {
        for i in 0..n {
            let a = 2.0 * std::f32::consts::PI * i as f32 / n as f32;
            points.push(Point3::new(radius * a.cos(), y, radius * a.sin()));
        }
    }
    points
}

#[test]
fn ball_and_box_masses_are_their_closed_forms() {
    // Box2D: a unit circle has mass π and inertia π/2 at density 1; a ball
    // has 4π/3 and 2/5 m r² about every axis, centred where it is.
    let m = mass(Sphere::new(1.0));
    assert!((m.mass - 4.0 / 3.0 * std::f32::consts::PI).abs() < 4.0 * EPS);
    assert_eq!(m.local_center, Point3::origin());
    for k in 0..3 {
        assert!((m.inertia[(k, k)] - 0.4 * m.mass).abs() < 8.0 * EPS);
    }
    // Box2D: a 2×2 box has mass 4 and inertia 8/3; a 2×2×2 cube has mass 8
    // and m (1 + 1)/3 = 16/3 about every axis.
    let m = mass(Cuboid::new(Vector3::repeat(1.0)));
    assert!((m.mass - 8.0).abs() < 8.0 * EPS);
    for k in 0..3 {
        assert!((m.inertia[(k, k)] - 16.0 / 3.0).abs() < 16.0 * EPS);
        for j in 0..3 {
            if j != k {
                assert_eq!(m.inertia[(k, j)], 0.0);
            }
        }
    }
}

#[test]
fn curved_solids_lie_between_inscribed_and_circumscribed_polyhedra() {
    let n = 32;
    // Circumscribed n-gon: its vertices at r / cos(π/n).
    let out = |r: f32| r / (std::f32::consts::PI / n as f32).cos();
    // Capsule (Box2D's own case): a hull of points on its surface inside,
    // the enclosing box outside.
    let (h, r) = (1.0f32, 1.0f32);
    let mut inside = Vec::new();
    for k in 0..=8 {
        // Quarter meridians of both caps.
        let a = std::f32::consts::FRAC_PI_2 * k as f32 / 8.0;
        inside.extend(rings(r * a.cos(), &[h + r * a.sin(), -h - r * a.sin()], n));
    }
    bracketed(
        "capsule",
        &hull_mass(&inside),
        &mass(Capsule::new(h, r)),
        &mass(Cuboid::new(Vector3::new(r, h + r, r))),
    );
    // Cylinder: inscribed and circumscribed prisms.
    let (h, r) = (0.7f32, 0.4f32);
    bracketed(
        "cylinder",
        &hull_mass(&rings(r, &[-h, h], n)),
        &mass(Cylinder::new(h, r)),
        &hull_mass(&rings(out(r), &[-h, h], n)),
    );
    // Cone: inscribed and circumscribed pyramids.
    let (h, r) = (0.5f32, 0.6f32);
    let pyramid = |radius: f32| {
        let mut p = rings(radius, &[-h], n);
        p.push(Point3::new(0.0, h, 0.0));
        p
    };
    let exact = mass(Cone::new(h, r));
    bracketed("cone", &hull_mass(&pyramid(r)), &exact, &hull_mass(&pyramid(out(r))));
    // Both pyramids have their centre of mass a quarter up, as the cone.
    assert!((exact.local_center.y + 0.5 * h).abs() < 1e-6);
    // Rounded box: the hull of its support points in 26 directions (the box
    // and its rims sampled) inside, the box grown by r outside.
    let (half, r) = (Vector3::new(0.5f32, 0.3, 0.2), 0.1f32);
    let rounded = Rounded::new(Cuboid::new(half), r);
    let mut dirs = Vec::new();
    for x in -4..=4 {
        for y in -4..=4 {
            for z in -4..=4 {
                if (x, y, z) != (0, 0, 0) {
                    dirs.push(Vector3::new(x as f32, y as f32, z as f32));
                }
            }
        }
    }
    let inside: Vec<_> = dirs.iter().map(|d| rounded.local_support(d)).collect();
    bracketed(
        "rounded cuboid",
        &hull_mass(&inside),
        &mass(rounded),
        &mass(Cuboid::new(half.add_scalar(r))),
    );
}

/// The rounded box's indicator integrated on an `n³` midpoint grid over its
/// box, in f64: volume and `∫x², ∫y², ∫z²`.
fn rounded_box_grid(h: Vector3<f64>, r: f64, n: usize) -> (f64, Vector3<f64>) {
    let ext = h.add_scalar(r);
    let cell = ext * 2.0 / n as f64;
    let dv = cell.x * cell.y * cell.z;
    let (mut volume, mut second) = (0.0, Vector3::zeros());
    let centre = |i: usize, k: usize| -ext[k] + (i as f64 + 0.5) * cell[k];
    for i in 0..n {
        let x = centre(i, 0);
        let dx = (x.abs() - h.x).max(0.0);
        for j in 0..n {
            let y = centre(j, 1);
            let dy = (y.abs() - h.y).max(0.0);
            for k in 0..n {
                let z = centre(k, 2);
                let dz = (z.abs() - h.z).max(0.0);
                // Within r of the box.
                if dx * dx + dy * dy + dz * dz <= r * r {
                    volume += dv;
                    second += Vector3::new(x * x, y * y, z * z) * dv;
                }
            }
        }
    }
    (volume, second)
}

#[test]
fn rounded_box_mass_matches_grid_integration_and_the_fallback() {
    for (half, r, density) in [
        (Vector3::new(0.5f32, 0.3, 0.2), 0.1f32, 1000.0f32),
        (Vector3::new(1.0, 1.0, 1.0), 0.5, 1.0),
        (Vector3::new(0.02, 0.5, 0.3), 0.2, 7.0),
        // Scale: a millimetre box and a 100 m one.
        (Vector3::new(2e-3, 1e-3, 1.5e-3), 5e-4, 1000.0),
        (Vector3::new(100.0, 60.0, 40.0), 20.0, 1.0),
    ] {
        let shape = Rounded::new(Cuboid::new(half), r);
        let exact = mass(shape);
        let scaled = |p: MassProperties| (p.mass * density, p.inertia * density);
        let got = Shape::from(shape).mass_properties(density);
        let (want_mass, want_inertia) = scaled(exact);
        assert!((got.mass / want_mass - 1.0).abs() < 1e-6, "density scales the mass");
        assert!(
            (got.inertia - want_inertia).norm() <= 1e-6 * want_inertia.norm(),
            "and the inertia"
        );
        assert_eq!(got.local_center, Point3::origin());
        let (volume, second) = rounded_box_grid(half.cast(), f64::from(r), 240);
        let rho = f64::from(density);
        let want_mass = rho * volume;
        assert!(
            (f64::from(got.mass) / want_mass - 1.0).abs() < 2e-3,
            "{half:?} {r}: mass {} vs grid {want_mass}",
            got.mass
        );
        for (k, (i, j)) in [(1, 2), (0, 2), (0, 1)].into_iter().enumerate() {
            let want = rho * (second[i] + second[j]);
            let rel = f64::from(got.inertia[(k, k)]) / want - 1.0;
            assert!(
                rel.abs() < 3e-3,
                "{half:?} {r}: inertia[{k}] {} vs grid {want}",
                got.inertia[(k, k)]
            );
        }
        for a in 0..3 {
            for b in 0..3 {
                if a != b {
                    assert_eq!(got.inertia[(a, b)], 0.0);
                }
            }
        }
        // The support-point fallback lies inside the shape: lighter, within 1 %.
        let fallback = MassProperties::from_support(&shape, density);
        assert!(
            fallback.mass <= got.mass && fallback.mass > 0.99 * got.mass,
            "{half:?}: fallback {} vs {}",
            fallback.mass,
            got.mass
        );
        for k in 0..3 {
            let (f, e) = (fallback.inertia[(k, k)], got.inertia[(k, k)]);
            assert!(
                f <= e * (1.0 + 1e-6) && f > 0.99 * e,
                "{half:?}: fallback inertia[{k}] {f} vs {e}"
            );
        }
    }
    // A rounded box of zero radius is the box; its volume closed form is
    // 8abc + 8r(ab + bc + ca) + 2πr²(a + b + c) + 4πr³/3.
    let (a, b, c, r) = (0.5f64, 0.3, 0.2, 0.1);
    let volume = 8.0 * a * b * c
        + 8.0 * r * (a * b + b * c + c * a)
        + 2.0 * PI * r * r * (a + b + c)
        + 4.0 / 3.0 * PI * r.powi(3);
    let got = mass(Rounded::new(Cuboid::new(Vector3::new(a as f32, b as f32, c as f32)), r as f32));
    assert!((f64::from(got.mass) / volume - 1.0).abs() < 1e-6);
}

fn assert_box(shape: impl Into<Shape>, pose: &Isometry3<f32>, min: [f32; 3], max: [f32; 3]) {
    let shape: Shape = shape.into();
    let b = shape.aabb(pose);
    for k in 0..3 {
        let tol = 4.0 * EPS * (1.0 + min[k].abs().max(max[k].abs()));
        assert!(
            (b.min[k] - min[k]).abs() <= tol && (b.max[k] - max[k]).abs() <= tol,
            "{}: {b:?} vs {min:?}..{max:?}",
            shape.kind_name()
        );
    }
}

#[test]
fn boxes_of_each_kind_are_exact() {
    let id = Isometry3::identity();
    // Box2D's three: a unit circle at (1, 0), a 2×2 box, a vertical segment.
    assert_box(
        Sphere::new(1.0),
        &Isometry3::translation(1.0, 0.0, 0.0),
        [0.0, -1.0, -1.0],
        [2.0, 1.0, 1.0],
    );
    assert_box(Cuboid::new(Vector3::repeat(1.0)), &id, [-1.0; 3], [1.0; 3]);
    let seg = Segment::new(Point3::new(0.0, 1.0, 0.0), Point3::new(0.0, -1.0, 0.0));
    assert_box(seg, &id, [0.0, -1.0, 0.0], [0.0, 1.0, 0.0]);
    // The new kinds, at the identity and turned a quarter about Z (local Y
    // to world −X).
    let quarter = Isometry3::from_parts(
        Vector3::new(1.0, 2.0, 3.0).into(),
        UnitQuaternion::from_axis_angle(&Vector3::z_axis(), std::f32::consts::FRAC_PI_2),
    );
    assert_box(Cylinder::new(1.0, 0.5), &id, [-0.5, -1.0, -0.5], [0.5, 1.0, 0.5]);
    assert_box(Cylinder::new(1.0, 0.5), &quarter, [0.0, 1.5, 2.5], [2.0, 2.5, 3.5]);
    assert_box(Cone::new(1.0, 0.5), &id, [-0.5, -1.0, -0.5], [0.5, 1.0, 0.5]);
    assert_box(Cone::new(1.0, 0.5), &quarter, [0.0, 1.5, 2.5], [2.0, 2.5, 3.5]);
    let tri = Triangle::new(
        Point3::new(-1.0, 0.0, 0.0),
        Point3::new(2.0, 0.5, 0.0),
        Point3::new(0.0, 0.0, -3.0),
    );
    assert_box(tri, &id, [-1.0, 0.0, -3.0], [2.0, 0.5, 0.0]);
    // Turned: the corners go to (−y, x, z) + (1, 2, 3): (1, 1, 3),
    // (0.5, 4, 3) and (1, 2, 0).
    assert_box(tri, &quarter, [0.5, 1.0, 0.0], [1.0, 4.0, 3.0]);
    assert_box(
        Rounded::new(Cuboid::new(Vector3::new(1.0, 0.5, 0.25)), 0.25),
        &quarter,
        [0.25, 0.75, 2.5],
        [1.75, 3.25, 3.5],
    );
    assert_box(Rounded::new(seg, 0.5), &id, [-0.5, -1.5, -0.5], [0.5, 1.5, 0.5]);
}

/// Box2D's ray: from (−4, 0, 0) along (8, 0, 0), at most one length.
fn box2d_ray(shape: impl Into<Shape>, pose: &Isometry3<f32>) -> (f32, Vector3<f32>) {
    let ray = Ray::new(Point3::new(-4.0, 0.0, 0.0), Vector3::new(8.0, 0.0, 0.0));
    match cast_ray(&shape.into(), pose, &ray, 1.0) {
        RayCast::Hit { toi, normal, .. } => (toi, normal.into_inner()),
        other => panic!("expected a hit, got {other:?}"),
    }
}

#[test]
fn box2ds_ray_hits_each_kind_where_worked_out() {
    let id = Isometry3::identity();
    let minus_x = -Vector3::x();
    let close = |(t, n): (f32, Vector3<f32>), want_t: f32, want_n: Vector3<f32>| {
        assert!((t - want_t).abs() <= 2.0 * EPS, "fraction {t} vs {want_t}");
        assert!((n - want_n).norm() <= 4.0 * EPS, "normal {n:?} vs {want_n:?}");
    };
    // Box2D's: a unit circle at (1, 0) is met at x = 0, fraction 1/2; the
    // 2×2 box at x = −1, fraction 3/8; the segment x = 0 at 1/2.
    close(box2d_ray(Sphere::new(1.0), &Isometry3::translation(1.0, 0.0, 0.0)), 0.5, minus_x);
    close(box2d_ray(Cuboid::new(Vector3::repeat(1.0)), &id), 3.0 / 8.0, minus_x);
    let seg = Segment::new(Point3::new(0.0, 1.0, 0.0), Point3::new(0.0, -1.0, 0.0));
    close(box2d_ray(seg, &id), 0.5, minus_x);
    // The new kinds: a cylinder's side at x = −r; a cone's side at
    // x = −k (h − 0) with k = r/2h, whose outward normal is (−1, k, 0)
    // normalised; a triangle in the plane x = 0 from either side.
    close(box2d_ray(Cylinder::new(1.0, 0.5), &id), 3.5 / 8.0, minus_x);
    let (h, r) = (1.0f32, 1.0f32);
    let k = r / (2.0 * h);
    close(
        box2d_ray(Cone::new(h, r), &id),
        (4.0 - k * h) / 8.0,
        Vector3::new(-1.0, k, 0.0).normalize(),
    );
    let tri = Triangle::new(
        Point3::new(0.0, -1.0, -1.0),
        Point3::new(0.0, 1.0, -1.0),
        Point3::new(0.0, 0.0, 1.0),
    );
    close(box2d_ray(tri, &id), 0.5, minus_x);
    let flipped = Triangle::new(tri.a, tri.c, tri.b);
    close(box2d_ray(flipped, &id), 0.5, minus_x);
    // A cylinder lying along X (turned a quarter about Z): its cap at x = −h.
    let along_x = Isometry3::rotation(Vector3::z() * std::f32::consts::FRAC_PI_2);
    let (t, n) = box2d_ray(Cylinder::new(1.0, 0.5), &along_x);
    assert!((t - 3.0 / 8.0).abs() < 4.0 * EPS && (n - minus_x).norm() < 1e-6, "{t} {n:?}");
}

// parry's regression tests for cylinders (issue 396: coaxial cylinders
// reported apart; issue 157: a cylinder touching a thin box), rewritten for
// collide with their answers worked out by hand.

#[test]
fn coaxial_overlapping_cylinders_intersect_parry_issue_396() {
    use collide::{intersects, penetration};
    let big = Shape::from(Cylinder::new(50.0, 100.0));
    let small = Shape::from(Cylinder::new(1.5, 1.0));
    let capsule = Shape::from(Capsule::new(50.0, 10.0));
    let id = Isometry3::identity();
    for (a, b) in [(&big, &small), (&big, &capsule), (&small, &big)] {
        assert!(intersects(a, &id, b, &id));
        assert!(penetration(a, &id, b, &id).is_some());
    }
    for offset in [
        Vector3::new(0.01, 0.0, 0.0),
        Vector3::new(0.0, 0.01, 0.0),
        Vector3::new(0.0, 0.0, -0.01),
        Vector3::new(3.0, 5.0, -2.0),
    ] {
        assert!(
            intersects(&big, &id, &small, &Isometry3::translation(offset.x, offset.y, offset.z)),
            "{offset:?}"
        );
    }
    for angle in [0.01f32, 0.5, std::f32::consts::FRAC_PI_2] {
        assert!(
            intersects(&big, &id, &small, &Isometry3::rotation(Vector3::z() * angle)),
            "{angle}"
        );
    }
    // Apart along the axis (the caps 50 + 1.5 = 51.5 apart at contact) and
    // across it (100 + 1 = 101), and apart when turned.
    for dy in [51.6f32, 60.0, 200.0] {
        assert!(!intersects(&big, &id, &small, &Isometry3::translation(0.0, dy, 0.0)), "{dy}");
    }
    for dx in [101.1f32, 110.0, 500.0] {
        assert!(!intersects(&big, &id, &small, &Isometry3::translation(dx, 0.0, 0.0)), "{dx}");
    }
    let turned = Isometry3::new(Vector3::new(0.0, 53.0, 0.0), Vector3::new(0.0, 0.0, 0.7));
    assert!(!intersects(&big, &id, &small, &turned));
}

#[test]
fn a_cylinder_touching_a_thin_box_overlaps_parry_issue_157() {
    use collide::{intersects, penetration};
    let cyl = Shape::from(Cylinder::new(0.925, 0.5));
    let cyl_at = Isometry3::translation(10.97, 0.925, 61.02);
    let plate = Shape::from(Cuboid::new(Vector3::new(0.05, 0.75, 0.5)));
    let plate_at = Isometry3::translation(11.5, 0.75, 60.5);
    // Seen from above, the plate's corner nearest the axis is (11.45, 61.0):
    // √(0.48² + 0.02²) ≈ 0.4804 from it, inside the radius 0.5 by ≈ 0.0196,
    // and the heights overlap, so they overlap by at most that much.
    let inside = 0.5 - (0.48f64.powi(2) + 0.02f64.powi(2)).sqrt();
    assert!(intersects(&cyl, &cyl_at, &plate, &plate_at));
    assert!(intersects(&plate, &plate_at, &cyl, &cyl_at));
    let hit = penetration(&cyl, &cyl_at, &plate, &plate_at).expect("overlapping");
    assert!(hit.depth > 0.0 && f64::from(hit.depth) <= inside + 1e-5, "depth {}", hit.depth);
}
