//! The distance from a point core (a sphere's centre) to a cylinder or a
//! cone, by the exact point projection onto that shape instead of GJK.
//!
//! For a point `p` outside a convex set `C`, the nearest point `q = π(p)`
//! of `C` is the whole answer of a distance query between `C` and the point:
//! the core distance is `‖p − q‖`, and the support plane through `q`
//! perpendicular to `p − q` separates them. The crate has that projection in
//! closed form for these kinds (`query/point`: the disc-and-interval clamp of
//! a cylinder, the 2D triangle of a cone's section), exact to f32 rounding;
//! GJK instead converges on their curved surfaces only linearly (and then
//! hands over to `curved_finish`), a few thousand instructions where the
//! projection takes about a hundred. A sphere against one of them is the
//! point core at its centre plus the sphere's radius as margin, as
//! `point_core.rs` sets it up; the margins are added afterwards exactly as
//! after GJK. No paper is followed: this is the reduction of a distance
//! query to a point projection, as parry's ball–convex distance also makes.
//!
//! Hulls are left to GJK, which ends in a few iterations on their flat
//! features and measured cheaper than the hull's projection; every other
//! shape (and a point inside the core) is left to GJK and EPA as well.

use nalgebra::{Point3, Unit, Vector3};

use crate::query::point::ProjectPoint;
use crate::shape::ShapeRef;
use crate::support_map::SupportMap;

/// Core distance, relative to the size of the coordinates in play (the
/// point's and its projection's, in the shape's frame), at or below which
/// the point counts as on the core: GJK's `TOUCH_REL`, for the same reason
/// (below ~1e-6 of the coordinates, the direction `p − q` is f32 rounding).
const TOUCH_REL: f32 = 1e-6;

/// What the projection says about a point core and a general shape's core.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Projected {
    /// The point lies in the core (inside or on it, as computed in f32 in
    /// the shape's frame).
    Inside,
    /// The point lies outside the core.
    Outside {
        /// `‖p − q‖`, the distance between the cores.
        core_distance: f32,
        /// `(p − q) / ‖p − q‖`: from the general shape to the point.
        normal: Unit<Vector3<f32>>,
        /// `q`, the core's point nearest to the point.
        core_point: Point3<f32>,
    },
}

/// The projection of `point` (in `general`'s frame) onto `general`'s core,
/// if `general` is a cylinder or a cone (whose cores are the shapes
/// themselves); `None` for any other shape, which GJK then handles. For the
/// crate's concrete shape types the kind test folds to a constant.
#[inline(always)]
pub(crate) fn project_onto_core<G: SupportMap + ?Sized>(
    general: &G,
    point: &Point3<f32>,
) -> Option<Projected> {
    let projection = match general.as_shape_ref()? {
        ShapeRef::Cylinder(cylinder) => cylinder.project_local_point(point, true),
        ShapeRef::Cone(cone) => cone.project_local_point(point, true),
        // A hull's projection (a face scan, then a Voronoi test or a face
        // search) cost more than GJK on a sphere–hull pair: 1583 against
        // 1538 instructions a call on the `queries` suite's separated
        // sphere–hull32 row (callgrind), as GJK ends there in a few
        // iterations on a flat feature.
        ShapeRef::ConvexHull(_)
        | ShapeRef::Sphere(_)
        | ShapeRef::Cuboid(_)
        | ShapeRef::Capsule(_) => return None,
    }
    .ok()?;
    debug_assert!(general.margin() == 0.0, "a cylinder or cone has no margin");
    if projection.is_inside {
        return Some(Projected::Inside);
    }
    let gap = point - projection.point;
    let core_distance = gap.norm();
    // Outside by no more than rounding (or NaN): no direction to report,
    // and the cores touch.
    let largest = |p: &Point3<f32>| p.x.abs().max(p.y.abs()).max(p.z.abs());
    let scale = largest(point).max(largest(&projection.point));
    if !(core_distance > TOUCH_REL * scale) {
        return Some(Projected::Inside);
    }
    Some(Projected::Outside {
        core_distance,
        normal: Unit::new_unchecked(gap / core_distance),
        core_point: projection.point,
    })
}

#[cfg(test)]
mod tests {
    use nalgebra::{Isometry3, Point3, Translation3, UnitQuaternion, Vector3};

    use crate::{Cone, ConvexHull, Cylinder, Proximity, Shape, Sphere, closest_points};

    type V64 = Vector3<f64>;

    /// A small deterministic generator (SplitMix64), uniform in `[0, 1)`.
    struct Rng(u64);

    impl Rng {
        fn next(&mut self) -> f64 {
            self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = self.0;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            ((z ^ (z >> 31)) >> 11) as f64 / (1u64 << 53) as f64
        }

        fn unit(&mut self) -> V64 {
            loop {
                let v = V64::new(self.next(), self.next(), self.next()) * 2.0 - V64::repeat(1.0);
                let n = v.norm();
                if n > 0.1 && n <= 1.0 {
                    return v / n;
                }
            }
        }
    }

    /// The oracle's shapes, in f64 and written here: a support point in the
    /// shape's frame for a unit direction. Shares nothing with the
    /// projection (nor with GJK's support functions).
    enum Oracle {
        Cylinder(f64, f64),
        Cone(f64, f64),
        Hull(Vec<V64>),
    }

    impl Oracle {
        /// A point of the shape farthest along `n`, and the shape's size.
        fn support(&self, n: &V64) -> V64 {
            let radial = |r: f64| {
                let rho = (n.x * n.x + n.z * n.z).sqrt();
                if rho > 0.0 { (n.x * r / rho, n.z * r / rho) } else { (r, 0.0) }
            };
            match self {
                Oracle::Cylinder(h, r) => {
                    let (x, z) = radial(*r);
                    V64::new(x, if n.y >= 0.0 { *h } else { -h }, z)
                }
                Oracle::Cone(h, r) => {
                    let (x, z) = radial(*r);
                    let rim = V64::new(x, -h, z);
                    if n.y * h >= rim.dot(n) { V64::new(0.0, *h, 0.0) } else { rim }
                }
                Oracle::Hull(points) => {
                    *points.iter().max_by(|p, q| p.dot(n).total_cmp(&q.dot(n))).unwrap()
                }
            }
        }
    }

    /// `(collide's shape, the oracle, its size)` for the three kinds at
    /// `scale`.
    fn kinds(rng: &mut Rng, scale: f64) -> Vec<(Shape, Oracle, f64)> {
        let (h, r) = (0.4 * scale, 0.35 * scale);
        let (h32, r32) = (h as f32, r as f32);
        let cloud: Vec<Point3<f32>> =
            (0..32).map(|_| Point3::from((rng.unit() * 0.5 * scale).cast::<f32>())).collect();
        let hull = ConvexHull::new(&cloud).expect("a 32-point cloud spans a solid");
        let vertices = hull.vertices().iter().map(|p| p.coords.cast()).collect();
        vec![
            (Cylinder::new(h32, r32).into(), Oracle::Cylinder(h32.into(), r32.into()), 2.0 * scale),
            (Cone::new(h32, r32).into(), Oracle::Cone(h32.into(), r32.into()), 2.0 * scale),
            (hull.into(), Oracle::Hull(vertices), scale),
        ]
    }

    fn pose(rng: &mut Rng, extent: f64) -> Isometry3<f32> {
        let axis = rng.unit();
        let angle = rng.next() * std::f64::consts::TAU;
        let t = (rng.unit() * extent).cast::<f32>();
        Isometry3::from_parts(
            Translation3::from(t),
            UnitQuaternion::from_scaled_axis(axis.cast::<f32>() * angle as f32),
        )
    }

    /// A sphere whose centre sits at distance `radius + gap` along an
    /// outward normal `n` from the shape's support point `x(n)` is exactly
    /// `gap` from the shape, and `x(n)` is the shape's nearest point (for a
    /// convex set, `n` lies in the normal cone at `x(n)`). Random normals,
    /// poses and scales from 1e-3 to 1e3, gaps from far (ten sizes) down to
    /// just missing (1e-4 of the size) and just touching or overlapping,
    /// with the sphere as A and as B.
    #[test]
    fn sphere_distance_to_hull_cylinder_and_cone_matches_the_normal_ray_oracle() {
        let mut rng = Rng(0x5eed_0037);
        for scale in [1e-3, 1e-1, 1.0, 10.0, 1e3] {
            for (shape, oracle, size) in kinds(&mut rng, scale) {
                for case in 0..200 {
                    let pose_shape = pose(&mut rng, 3.0 * scale);
                    let n = rng.unit();
                    let radius = size * (0.05 + 0.5 * rng.next());
                    let gap = match case % 5 {
                        0 => 1e-4 * size,
                        1 => -1e-4 * size,
                        2 => 0.0,
                        _ => size * 10f64.powf(2.0 * rng.next() - 1.0),
                    };
                    let x_local = oracle.support(&n);
                    let pose64: Isometry3<f64> = pose_shape.cast();
                    let x = pose64 * Point3::from(x_local);
                    let centre = x + pose64.rotation * n * (radius + gap);
                    let sphere = Sphere::new(radius as f32);
                    let pose_sphere =
                        Isometry3::translation(centre.x as f32, centre.y as f32, centre.z as f32);
                    // The f32 inputs round the centre, the radius and the
                    // pose by a few ulps of the coordinates (up to ~4 sizes
                    // out): 1e-5 of the size covers them.
                    let tol = 1e-5 * size + 1e-6 * (centre.coords.norm() + radius);
                    for swap in [false, true] {
                        let found = if swap {
                            closest_points(&shape, &pose_shape, &sphere, &pose_sphere)
                        } else {
                            closest_points(&sphere, &pose_sphere, &shape, &pose_shape)
                        };
                        let label = format!("scale {scale} case {case} swap {swap}: {found:?}");
                        match found {
                            Proximity::Separated { distance, point_a, point_b } => {
                                assert!(gap > -tol, "{label}: separated, gap {gap}");
                                assert!(
                                    (f64::from(distance) - gap).abs() <= tol,
                                    "{label}: gap {gap}"
                                );
                                let on_shape = if swap { point_a } else { point_b };
                                let on_sphere = if swap { point_b } else { point_a };
                                let off = (on_shape.coords.cast::<f64>() - x.coords).norm();
                                // Projection onto a convex set moves a point
                                // by no more than the query point moved: the
                                // inputs' rounding, as for the distance.
                                assert!(off <= tol, "{label}: {off} from x(n)");
                                let r = (on_sphere.coords.cast::<f64>() - centre.coords).norm();
                                assert!((r - radius).abs() <= tol, "{label}: {r} off the sphere");
                            }
                            Proximity::Intersecting => {
                                assert!(gap < tol, "{label}: intersecting, gap {gap}");
                            }
                        }
                    }
                }
            }
        }
    }
}
