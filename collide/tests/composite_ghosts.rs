//! Ghost contacts on meshes and heightfields: a box resting or sliding on a
//! flat floor of many triangles must only ever be pushed straight up (the
//! seams between coplanar triangles are inactive edges), a sphere over the
//! seam of two coplanar triangles gets the face normal, while a real
//! convex ridge keeps its edge normal and a concave valley its two faces'.
//!
//! Oracle: the flat floor's only normal is +y; the ridge's normal is the
//! direction from the ridge line to the sphere's centre, in closed form.

use collide::composite::{self, HeightField, ManifoldSet, TriMesh};
use collide::nalgebra::{Isometry3, Point3, Translation3, UnitQuaternion, Vector3};
use collide::{Contact, Cuboid, Shape, Sphere, SupportMap};

/// Largest angle (radians) a floor contact's normal may make with +y.
const UP_ANGLE: f32 = 1e-3;

/// A flat floor of `n × n` cells of 1 m at y = 0, two triangles per cell
/// (the `trees` scene's cut), as a mesh.
fn flat_mesh(n: usize) -> Shape {
    let c = 1.0f32;
    let half = n as f32 * c / 2.0;
    let mut vertices = Vec::new();
    for i in 0..=n {
        for j in 0..=n {
            vertices.push(Point3::new(-half + c * i as f32, 0.0, -half + c * j as f32));
        }
    }
    let mut triangles = Vec::new();
    for i in 0..n as u32 {
        for j in 0..n as u32 {
            let v1 = j + (n as u32 + 1) * i;
            let (v2, v3) = (v1 + 1, v1 + 1 + n as u32 + 1);
            let v4 = v3 - 1;
            triangles.push([v1, v2, v3]);
            triangles.push([v3, v4, v1]);
        }
    }
    TriMesh::try_new(vertices, triangles).unwrap().into()
}

/// The same floor as a heightfield of `(n + 1)²` samples.
fn flat_field(n: usize) -> Shape {
    HeightField::try_new(n + 1, n + 1, vec![0.0; (n + 1) * (n + 1)], [1.0, 1.0]).unwrap().into()
}

/// Angle between `n` and +y.
fn tilt(n: &Vector3<f32>) -> f32 {
    n.normalize().dot(&Vector3::y()).clamp(-1.0, 1.0).acos()
}

/// The `trees` scene's bottom prism, as the sandbox builds it: a hexagonal
/// prism of radius 0.75 spanning y from 0.25 to 3.25 in its own frame, so
/// its frame's origin lies 0.25 m below its base, outside it.
fn offset_prism() -> Shape {
    let mut points = Vec::new();
    for k in 0..6 {
        let a = std::f32::consts::TAU * k as f32 / 6.0;
        let (c, s) = (0.75 * a.cos(), 0.75 * a.sin());
        points.push(Point3::new(c, 0.25, s));
        points.push(Point3::new(c, 3.25, s));
    }
    collide::ConvexHull::new(&points).unwrap().into()
}

/// Checks [`offset_prism`] standing (upright or leaning) on `floor` with
/// its lowest corner 1 cm into it, so its frame's origin is below the
/// floor: every manifold's normal within [`UP_ANGLE`] of +y and every
/// separation about −1 cm or above (not the prism's 3 m height, pushed
/// down through the floor), the same from the swapped order (normal −y),
/// and the single deepest contact 1 cm deep, pushed up.
fn offset_prism_rests_on(floor: &Shape, label: &str) {
    let prism = offset_prism();
    let Shape::ConvexHull(hull) = &prism else { unreachable!() };
    let mut set = ManifoldSet::new();
    for ix in 0..=4 {
        for iz in 0..=4 {
            for (yaw, roll) in [(0.0f32, 0.0f32), (0.4, 0.0), (0.0, 0.2), (0.7, -0.2)] {
                let (x, z) = (-1.0 + 0.45 * ix as f32, -1.0 + 0.45 * iz as f32);
                let rotation = UnitQuaternion::from_euler_angles(roll, yaw, 0.0);
                let lowest =
                    hull.vertices().iter().map(|p| (rotation * p).y).fold(f32::INFINITY, f32::min);
                let pose = Isometry3::from_parts(Translation3::new(x, -lowest - 0.01, z), rotation);
                assert!(pose.translation.vector.y < -0.05, "the origin must be below the floor");
                let at = format!("{label}: ({x}, {z}) yaw {yaw} roll {roll}");
                composite::try_contact_manifolds(
                    floor,
                    &Isometry3::identity(),
                    &prism,
                    &pose,
                    0.01,
                    &mut set,
                )
                .unwrap();
                assert!(!set.is_empty(), "{at}: no contact");
                for (p, n, _) in set.points() {
                    assert!(tilt(n) <= UP_ANGLE, "{at}: normal {n:?}");
                    assert!(p.separation >= -0.0101, "{at}: separation {}", p.separation);
                }
                composite::try_contact_manifolds(
                    &prism,
                    &pose,
                    floor,
                    &Isometry3::identity(),
                    0.01,
                    &mut set,
                )
                .unwrap();
                assert!(!set.is_empty(), "{at} swapped: no contact");
                for (p, n, _) in set.points() {
                    assert!(tilt(&-n) <= UP_ANGLE, "{at} swapped: normal {n:?}");
                    assert!(p.separation >= -0.0101, "{at} swapped: separation {}", p.separation);
                }
                let c =
                    composite::try_contact(floor, &Isometry3::identity(), &prism, &pose).unwrap();
                let Contact::Penetrating(pen) = c.answer else { panic!("{at}: {c:?}") };
                assert!(tilt(&pen.normal) <= UP_ANGLE, "{at}: contact normal {:?}", pen.normal);
                assert!((pen.depth - 0.01).abs() < 1e-4, "{at}: depth {}", pen.depth);
            }
        }
    }
}

#[test]
fn a_prism_whose_origin_is_below_a_flat_mesh_is_pushed_up() {
    offset_prism_rests_on(&flat_mesh(6), "mesh");
}

#[test]
fn a_prism_whose_origin_is_below_a_flat_heightfield_is_pushed_up() {
    offset_prism_rests_on(&flat_field(6), "heightfield");
}

#[test]
fn a_prism_whose_origin_is_below_one_triangle_is_pushed_up() {
    // One large triangle (its edges are boundaries, so active), the prism
    // well inside it.
    let triangle: Shape = TriMesh::try_new(
        vec![
            Point3::new(-20.0, 0.0, -20.0),
            Point3::new(-20.0, 0.0, 40.0),
            Point3::new(40.0, 0.0, -20.0),
        ],
        vec![[0, 1, 2]],
    )
    .unwrap()
    .into();
    offset_prism_rests_on(&triangle, "triangle");
}

/// Checks a unit cube at many offsets over `floor` (and a few yaws and
/// small tilts), 1 mm deep: every manifold's normal within [`UP_ANGLE`] of
/// +y, every point's separation about −1 mm or above, at least three
/// points in all, and the same from the swapped order (normal −y).
fn cube_rests_on(floor: &Shape, label: &str) {
    let cube: Shape = Cuboid::new(Vector3::repeat(0.5)).into();
    let mut set = ManifoldSet::new();
    let mut checked = 0;
    for ix in 0..=20 {
        for iz in 0..=20 {
            for (yaw, roll) in [(0.0f32, 0.0f32), (0.3, 0.0), (0.785, 0.0), (0.2, 0.01)] {
                let (x, z) = (-1.0 + 0.1 * ix as f32, -1.0 + 0.1 * iz as f32);
                let rotation = UnitQuaternion::from_euler_angles(roll, yaw, 0.0);
                // Lowest corner 1 mm into the floor.
                let lowest = (0..8)
                    .map(|k| {
                        let p = Vector3::new(
                            if k & 1 == 0 { -0.5 } else { 0.5 },
                            if k & 2 == 0 { -0.5 } else { 0.5 },
                            if k & 4 == 0 { -0.5 } else { 0.5 },
                        );
                        (rotation * p).y
                    })
                    .fold(f32::INFINITY, f32::min);
                let pose =
                    Isometry3::from_parts(Translation3::new(x, -lowest - 0.001, z), rotation);
                composite::try_contact_manifolds(
                    floor,
                    &Isometry3::identity(),
                    &cube,
                    &pose,
                    0.01,
                    &mut set,
                )
                .unwrap();
                let points: Vec<_> = set.points().collect();
                assert!(
                    points.len() >= 3 || roll > 0.0,
                    "{label}: ({x}, {z}) yaw {yaw}: {} points",
                    points.len()
                );
                assert!(
                    !points.is_empty(),
                    "{label}: ({x}, {z}) yaw {yaw} roll {roll}: no contact"
                );
                for (p, n, parts) in &points {
                    assert!(
                        tilt(n) <= UP_ANGLE,
                        "{label}: ({x}, {z}) yaw {yaw} roll {roll}: normal {n:?} on {parts:?}"
                    );
                    assert!(
                        p.separation >= -0.0011,
                        "{label}: ({x}, {z}): separation {}",
                        p.separation
                    );
                    assert!(parts.a.is_some() && parts.b.is_none());
                }
                // Swapped: the normal from the cube to the floor is -y.
                composite::try_contact_manifolds(
                    &cube,
                    &pose,
                    floor,
                    &Isometry3::identity(),
                    0.01,
                    &mut set,
                )
                .unwrap();
                for (_, n, parts) in set.points() {
                    assert!(tilt(&-n) <= UP_ANGLE, "{label} swapped: ({x}, {z}): normal {n:?}");
                    assert!(parts.a.is_none() && parts.b.is_some());
                }
                // The single deepest contact too.
                let c =
                    composite::try_contact(floor, &Isometry3::identity(), &cube, &pose).unwrap();
                let Contact::Penetrating(pen) = c.answer else {
                    panic!("{label}: ({x}, {z}): {c:?}")
                };
                assert!(tilt(&pen.normal) <= UP_ANGLE, "{label}: contact normal {:?}", pen.normal);
                assert!((pen.depth - 0.001).abs() < 1e-4, "{label}: depth {}", pen.depth);
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 21 * 21 * 4);
}

#[test]
fn cube_resting_across_a_flat_mesh_floor_is_only_pushed_up() {
    cube_rests_on(&flat_mesh(6), "mesh");
}

#[test]
fn cube_resting_across_a_flat_heightfield_is_only_pushed_up() {
    cube_rests_on(&flat_field(6), "heightfield");
}

/// A cube sliding along x across many seams, in 1 cm steps, at a few
/// depths: never a sideways normal.
#[test]
fn cube_sliding_across_seams_is_only_pushed_up() {
    let cube: Shape = Cuboid::new(Vector3::repeat(0.5)).into();
    for (floor, label) in [(flat_mesh(8), "mesh"), (flat_field(8), "heightfield")] {
        let mut set = ManifoldSet::new();
        for step in 0..600 {
            for (z, depth) in [(0.0f32, 0.001f32), (0.37, 0.004), (-1.5, 0.0005)] {
                let x = -3.0 + 0.01 * step as f32;
                let pose = Isometry3::translation(x, 0.5 - depth, z);
                composite::try_contact_manifolds(
                    &floor,
                    &Isometry3::identity(),
                    &cube,
                    &pose,
                    0.02,
                    &mut set,
                )
                .unwrap();
                assert!(set.points().count() >= 4, "{label}: x = {x}");
                for (p, n, _) in set.points() {
                    assert!(tilt(n) <= UP_ANGLE, "{label}: x = {x}, z = {z}: normal {n:?}");
                    assert!(
                        (p.separation + depth).abs() < 2e-4,
                        "{label}: x = {x}: {}",
                        p.separation
                    );
                }
            }
        }
    }
}

/// A ball rolling over the diagonal seam of two coplanar triangles, 1 mm
/// deep: the face normal everywhere, from either order, and the right depth.
#[test]
fn sphere_over_the_seam_of_two_coplanar_triangles_gets_the_face_normal() {
    let floor: Shape = TriMesh::try_new(
        vec![
            Point3::new(-1.0, 0.0, -1.0),
            Point3::new(-1.0, 0.0, 1.0),
            Point3::new(1.0, 0.0, 1.0),
            Point3::new(1.0, 0.0, -1.0),
        ],
        vec![[0, 1, 2], [2, 3, 0]],
    )
    .unwrap()
    .into();
    let ball: Shape = Sphere::new(0.25).into();
    let mut set = ManifoldSet::new();
    // Across the diagonal x = z, in 0.5 mm steps either side of it.
    for k in -40..=40 {
        let off = 0.0005 * k as f32;
        let pose = Isometry3::translation(0.1 + off, 0.249, 0.1 - off);
        composite::try_contact_manifolds(
            &floor,
            &Isometry3::identity(),
            &ball,
            &pose,
            0.0,
            &mut set,
        )
        .unwrap();
        assert!(!set.is_empty(), "offset {off}: no contact");
        for (p, n, _) in set.points() {
            assert!(tilt(n) <= UP_ANGLE, "offset {off}: normal {n:?}");
            assert!((p.separation + 0.001).abs() < 1e-5, "offset {off}: {}", p.separation);
        }
        let pen = composite::try_penetration(&floor, &Isometry3::identity(), &ball, &pose)
            .unwrap()
            .expect("overlapping");
        assert!(tilt(&pen.answer.normal) <= UP_ANGLE, "offset {off}: {:?}", pen.answer.normal);
        assert!((pen.answer.depth - 0.001).abs() < 1e-5);
    }
}

/// A roof: two triangles meeting at a ridge along z at x = 0, y = 1,
/// sloping 45° down either side. The ridge is convex, so a ball over it
/// keeps the normal from the ridge line to its centre.
fn roof() -> Shape {
    TriMesh::try_new(
        vec![
            Point3::new(0.0, 1.0, -2.0),
            Point3::new(0.0, 1.0, 2.0),
            Point3::new(-1.0, 0.0, -2.0),
            Point3::new(-1.0, 0.0, 2.0),
            Point3::new(1.0, 0.0, -2.0),
            Point3::new(1.0, 0.0, 2.0),
        ],
        // Left slope faces (-1, 1, 0), right slope (1, 1, 0).
        vec![[0, 2, 3], [0, 3, 1], [0, 1, 5], [0, 5, 4]],
    )
    .unwrap()
    .into()
}

#[test]
fn a_real_convex_ridge_keeps_its_edge_normal() {
    let roof = roof();
    let r = 0.3f32;
    let mut set = ManifoldSet::new();
    for k in -4..=4 {
        // The centre's direction from the ridge, within the edge's normal
        // cone (less than 45° from +y), 1 mm deep.
        let angle = 0.15 * k as f32;
        let dir = Vector3::new(angle.sin(), angle.cos(), 0.0);
        let centre = Point3::new(0.0, 1.0, 0.3) + dir * (r - 0.001);
        let pose = Isometry3::translation(centre.x, centre.y, centre.z);
        let ball: Shape = Sphere::new(r).into();
        composite::try_contact_manifolds(
            &roof,
            &Isometry3::identity(),
            &ball,
            &pose,
            0.0,
            &mut set,
        )
        .unwrap();
        assert!(!set.is_empty(), "angle {angle}");
        for (p, n, _) in set.points() {
            assert!((n - dir).norm() < 1e-3, "angle {angle}: normal {n:?}, expected {dir:?}");
            assert!((p.separation + 0.001).abs() < 1e-4, "angle {angle}: {}", p.separation);
        }
        let pen = composite::try_penetration(&roof, &Isometry3::identity(), &ball, &pose)
            .unwrap()
            .expect("overlapping");
        assert!((pen.answer.normal.into_inner() - dir).norm() < 1e-3, "angle {angle}");
    }
}

#[test]
fn a_concave_valley_gives_each_face_its_own_normal() {
    // The roof upside down: a V valley, faces (1, 1, 0) and (-1, 1, 0)
    // (normalised), meeting at y = 0 along z.
    let valley: Shape = TriMesh::try_new(
        vec![
            Point3::new(0.0, 0.0, -2.0),
            Point3::new(0.0, 0.0, 2.0),
            Point3::new(-1.0, 1.0, -2.0),
            Point3::new(-1.0, 1.0, 2.0),
            Point3::new(1.0, 1.0, -2.0),
            Point3::new(1.0, 1.0, 2.0),
        ],
        vec![[0, 3, 2], [0, 1, 3], [0, 5, 1], [0, 4, 5]],
    )
    .unwrap()
    .into();
    let r = 0.3f32;
    // Resting in the valley: touching both faces, 1 mm deep into each.
    let centre_y = (r - 0.001) * 2f32.sqrt();
    let ball: Shape = Sphere::new(r).into();
    let mut set = ManifoldSet::new();
    composite::try_contact_manifolds(
        &valley,
        &Isometry3::identity(),
        &ball,
        &Isometry3::translation(0.0, centre_y, 0.0),
        0.0,
        &mut set,
    )
    .unwrap();
    let s = 0.5f32.sqrt();
    let (left, right) = (Vector3::new(s, s, 0.0), Vector3::new(-s, s, 0.0));
    assert!(set.len() >= 2, "{set:?}");
    for (_, n, parts) in set.points() {
        assert!(
            (n - left).norm() < 1e-3 || (n - right).norm() < 1e-3,
            "normal {n:?} on {parts:?} is neither face's"
        );
    }
    assert!(set.points().any(|(_, n, _)| (n - left).norm() < 1e-3));
    assert!(set.points().any(|(_, n, _)| (n - right).norm() < 1e-3));
}

/// Ported from Jolt's `ConvexVsTrianglesTest` (rewritten for this API): a
/// ball of radius 0.5 against the triangle (0,0,0), (0,0,4), (4,0,0) posed
/// at (1, 2, 3) turned 45° about x. Alone, every edge is active: a ball
/// 0.1 beside an edge or corner (and 1e-6 above the plane) is pushed along
/// the edge's or corner's normal, 0.4 deep; over the face, along ±y from
/// either side; 0.1 above, a contact only within a prediction of at least
/// 0.1. With a coplanar neighbour across the edge, the edge is inactive
/// and the ball beside it (now over the neighbour) is pushed along the
/// face normal.
#[test]
fn ball_against_one_triangle_as_jolt_convex_vs_triangles() {
    let (r, gap, eps, len) = (0.5f32, 0.1f32, 1e-6f32, 4.0f32);
    let pose = Isometry3::from_parts(
        Translation3::new(1.0, 2.0, 3.0),
        UnitQuaternion::from_axis_angle(&Vector3::x_axis(), std::f32::consts::FRAC_PI_4),
    );
    let (v1, v2, v3) = (Point3::origin(), Point3::new(0.0, 0.0, len), Point3::new(len, 0.0, 0.0));
    let lone: Shape = TriMesh::try_new(vec![v1, v2, v3], vec![[0, 1, 2]]).unwrap().into();
    let ball: Shape = Sphere::new(r).into();
    let s = 0.5f32.sqrt();
    // (ball centre, expected normal from the triangle to the ball), in the
    // triangle's frame.
    let cases = [
        (Point3::new(1.0, gap, 1.0), Vector3::y()),
        (Point3::new(1.0, -gap, 1.0), -Vector3::y()),
        (Point3::new(-gap, eps, 0.5 * len), -Vector3::x()),
        (Point3::new(0.5 * len + gap * s, eps, 0.5 * len + gap * s), Vector3::new(s, 0.0, s)),
        (Point3::new(0.5 * len, eps, -gap), -Vector3::z()),
        (Point3::new(-gap * s, eps, -gap * s), Vector3::new(-s, 0.0, -s)),
        (Point3::new(-gap * s, eps, len + gap * s), Vector3::new(-s, 0.0, s)),
        (Point3::new(len + gap * s, eps, -gap * s), Vector3::new(s, 0.0, -s)),
    ];
    let mut set = ManifoldSet::new();
    for (centre, normal) in cases {
        let at = pose * Isometry3::translation(centre.x, centre.y, centre.z);
        let expected = pose.rotation * normal;
        let pen = composite::try_penetration(&lone, &pose, &ball, &at).unwrap().expect("overlap");
        assert!(
            (pen.answer.normal.into_inner() - expected).norm() < 1e-4,
            "{centre:?}: {:?}",
            pen.answer.normal
        );
        assert!((pen.answer.depth - (r - gap)).abs() < 1e-4, "{centre:?}: {}", pen.answer.depth);
        assert_eq!(pen.parts.a, Some(0));
        // The contact on the ball is its point along -normal.
        assert!((pen.answer.point_b - (at * Point3::origin() - expected * r)).norm() < 1e-4);
        composite::try_contact_manifolds(&lone, &pose, &ball, &at, 0.0, &mut set).unwrap();
        assert_eq!(set.len(), 1);
        assert!((set.manifolds()[0].manifold.normal - expected).norm() < 1e-4);
    }
    // 0.1 above: no contact without prediction, one within 0.5 of it, none
    // from 0.6 above.
    for (height, prediction, contacts) in [(gap, 0.0, 0), (gap, 0.5, 1), (0.5 + gap, 0.5, 0)] {
        let at = pose * Isometry3::translation(1.0, r + height, 1.0);
        composite::try_contact_manifolds(&lone, &pose, &ball, &at, prediction, &mut set).unwrap();
        assert_eq!(set.points().count(), contacts, "height {height}, prediction {prediction}");
        for (p, n, _) in set.points() {
            assert!(
                (p.separation - height).abs() < 1e-4
                    && (n - pose.rotation * Vector3::y()).norm() < 1e-4
            );
        }
    }
    // A coplanar neighbour across edge (v1, v2): that edge is now inactive,
    // so the ball beside it gets the face normal, from either triangle.
    let pair: Shape = TriMesh::try_new(
        vec![v1, v2, v3, Point3::new(-len, 0.0, 0.5 * len)],
        vec![[0, 1, 2], [1, 0, 3]],
    )
    .unwrap()
    .into();
    let at = pose * Isometry3::translation(-gap, r - 0.01, 0.5 * len);
    composite::try_contact_manifolds(&pair, &pose, &ball, &at, 0.0, &mut set).unwrap();
    assert!(!set.is_empty());
    for (p, n, _) in set.points() {
        assert!((n - pose.rotation * Vector3::y()).norm() < 1e-4, "{n:?}");
        assert!((p.separation + 0.01).abs() < 1e-4);
    }
    let pen = composite::try_penetration(&pair, &pose, &ball, &at).unwrap().expect("overlap");
    assert!((pen.answer.normal.into_inner() - pose.rotation * Vector3::y()).norm() < 1e-4);
    assert!((pen.answer.depth - 0.01).abs() < 1e-4);
}

/// A seeded generator of numbers in `[lo, hi)` (for the sampled tests).
struct Lcg(u64);

impl Lcg {
    fn range(&mut self, lo: f32, hi: f32) -> f32 {
        self.0 =
            self.0.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        lo + (hi - lo) * ((self.0 >> 40) as f32 / (1u64 << 24) as f32)
    }

    fn rotation(&mut self) -> UnitQuaternion<f32> {
        let axis =
            Vector3::new(self.range(-1.0, 1.0), self.range(-1.0, 1.0), self.range(-1.0, 1.0));
        UnitQuaternion::from_scaled_axis(axis.normalize() * self.range(0.0, std::f32::consts::PI))
    }
}

/// Over a lone triangle, whose three edges are boundaries and so active,
/// no contact is a ghost: the mesh's manifold must be the convex query's
/// own, [`collide::contact_manifold`] of the shape and the triangle. A
/// shape lying wholly above the triangle with its deepest point over it
/// takes the face path (no GJK); one beside an edge, or dipping below the
/// plane, takes the collision query. Both kinds are sampled (counted), at
/// random poses of four shapes around a tilted triangle, with the mesh as
/// A and as B.
///
/// Oracle: the same shape against the triangle as a convex shape; the
/// normals agree within 1e-3 and the deepest separations within 1e-4 of
/// the shape's size.
#[test]
fn over_a_triangle_of_active_edges_the_mesh_manifold_is_the_convex_queries() {
    let corners =
        [Point3::new(-2.0, 0.0, -1.5), Point3::new(2.0, 0.3, -1.0), Point3::new(0.0, -0.2, 2.0)];
    let mesh: Shape = TriMesh::try_new(corners.to_vec(), vec![[0, 1, 2]]).unwrap().into();
    let triangle: Shape =
        collide::Triangle::try_new(corners[0], corners[1], corners[2]).unwrap().into();
    let n = (corners[1] - corners[0]).cross(&(corners[2] - corners[0])).normalize();
    let centroid = Point3::from((corners[0].coords + corners[1].coords + corners[2].coords) / 3.0);
    let shapes: [Shape; 4] = [
        Cuboid::new(Vector3::new(0.3, 0.2, 0.4)).into(),
        offset_prism(),
        Sphere::new(0.3).into(),
        collide::Capsule::new(0.4, 0.2).into(),
    ];
    let id = Isometry3::identity();
    let prediction = 0.2;
    let mut rng = Lcg(37);
    let (mut over, mut beside, mut within) = (0, 0, 0);
    let mut set = ManifoldSet::new();
    for case in 0..1200 {
        let shape = &shapes[case % shapes.len()];
        let size = match shape {
            Shape::ConvexHull(_) => 3.0,
            _ => 0.8,
        };
        // A point over or beside the triangle, lifted along its normal by
        // the shape's own depth plus a gap from a little below to beyond
        // the prediction.
        let along = Vector3::new(rng.range(-3.0, 3.0), 0.0, rng.range(-2.5, 3.0));
        let foot = centroid + along - n * n.dot(&along);
        let rotation = rng.rotation();
        let probe = Isometry3::from_parts(Translation3::from(foot.coords), rotation);
        let reach = probe.rotation.inverse_transform_vector(&-n);
        let low = probe * shape.local_support(&reach);
        let lift = n.dot(&(foot - low)) + rng.range(-0.05, 0.3);
        let pose = Isometry3::from_parts(Translation3::from(foot.coords + n * lift), rotation);
        // Which path: the shape's deepest point along -n, over the face
        // and not below its plane.
        let deepest = pose * shape.local_support(&pose.rotation.inverse_transform_vector(&-n));
        let height = n.dot(&(deepest - corners[0]));
        let face_path = height >= 0.0 && inside(&corners, &n, &deepest);
        for mesh_is_a in [false, true] {
            let single = if mesh_is_a {
                collide::contact_manifold(&triangle, &id, shape, &pose, prediction)
            } else {
                collide::contact_manifold(shape, &pose, &triangle, &id, prediction)
            };
            if mesh_is_a {
                composite::try_contact_manifolds(&mesh, &id, shape, &pose, prediction, &mut set)
            } else {
                composite::try_contact_manifolds(shape, &pose, &mesh, &id, prediction, &mut set)
            }
            .unwrap();
            let label = format!("case {case}, mesh is A: {mesh_is_a}, height {height}");
            match single {
                collide::ManifoldOutcome::Within(m) if !m.is_empty() => {
                    assert_eq!(set.len(), 1, "{label}");
                    let got = &set.manifolds()[0].manifold;
                    assert!(
                        (got.normal - m.normal).norm() < 1e-3,
                        "{label}: {:?} {:?}",
                        got.normal,
                        m.normal
                    );
                    assert!(
                        (got.min_separation() - m.min_separation()).abs() < 1e-4 * size,
                        "{label}: {} {}",
                        got.min_separation(),
                        m.min_separation()
                    );
                    within += 1;
                    if face_path {
                        over += 1;
                    } else {
                        beside += 1;
                    }
                }
                _ => assert!(set.is_empty(), "{label}: {:?}", set.manifolds()[0].manifold),
            }
        }
    }
    assert!(over > 200 && beside > 200, "over {over}, beside {beside}, within {within}");
}

/// Whether `p` projects into the triangle `t` of unit normal `n`.
fn inside(t: &[Point3<f32>; 3], n: &Vector3<f32>, p: &Point3<f32>) -> bool {
    (0..3).all(|i| (t[(i + 1) % 3] - t[i]).cross(&(p - t[i])).dot(n) >= 0.0)
}
