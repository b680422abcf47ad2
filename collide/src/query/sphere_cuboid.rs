//! Exact closed-form contact between a sphere and a box (either order).
//!
//! The method is the classic one (Ericson, *Real-Time Collision Detection*,
//! §5.1.3, also what parry's `contact_ball_convex`/`ball_cuboid` paths do):
//! take the sphere's centre into the box's frame and clamp it to the box.
//! If the centre is outside, the clamped point is the box point closest to
//! it, and the distance from the centre to it, minus the radii, is the
//! signed separation along their difference. If the centre is inside (or on
//! the surface), the smallest way out is through the face of least slack
//! `half_k − |c_k|`, and the depth is that slack plus the radii.
//!
//! Where it departs: both shapes are treated as *rounded* (a point core plus
//! a margin, a box core plus a margin), so any margin a box-cored shape
//! reports is added the same way as the sphere's radius. Ties between faces
//! of equal slack go to the first axis (x, then y, then z), and a centre on
//! the mid-plane of that axis (`c_k = 0`, including the box's exact centre)
//! leaves through the positive face, so the answer is deterministic. The
//! computation runs in the box's frame (where the box is exact) and only
//! the answer is rotated to the world.

use nalgebra::{Isometry3, Point3, Unit, Vector3};

use crate::query::results::{Contact, Penetration};

/// The box's half extents clamped to `c`: the point of the box core closest
/// to `c` (all in the box's frame).
#[inline]
fn clamp_to_box(half: &Vector3<f32>, c: &Point3<f32>) -> Point3<f32> {
    // Two comparisons (not `clamp`, which panics on a negative extent, nor
    // `max`/`min`, whose NaN rule costs several instructions each where
    // these are one packed max and one min): a NaN in `c` fails both and
    // stays NaN instead of silently picking a face. For numbers the result
    // is `max` then `min`, exactly.
    let clamp = |x: f32, h: f32| {
        let above = if x < -h { -h } else { x };
        if above > h { h } else { above }
    };
    Point3::new(clamp(c.x, half.x), clamp(c.y, half.y), clamp(c.z, half.z))
}

/// Whether a point core with margin `r_point` and a box core with margin
/// `r_box` overlap or touch, the point `c` given in the box's frame.
#[inline]
pub(crate) fn point_box_intersects(
    half: &Vector3<f32>,
    c: &Point3<f32>,
    (r_box, r_point): (f32, f32),
) -> bool {
    // The same expression, in the same order, as `point_box_contact`'s
    // separation test, so the two never classify a pair differently.
    (c - clamp_to_box(half, c)).norm() - r_box - r_point <= 0.0
}

/// Exact contact of a box core (shape A, half extents `half`, margin
/// `r_box`) and a point core (shape B at `c`, margin `r_point`), in the
/// box's frame. The normal points from the box to the point.
///
/// Always inlined, like [`Contact::to_world`]: called, the point and the
/// contact would go through the stack in pieces that the next load reads
/// across, a store-forwarding stall measured at a third of a sphere–box
/// distance query.
#[inline(always)]
pub(crate) fn point_box_contact(
    half: &Vector3<f32>,
    c: &Point3<f32>,
    (r_box, r_point): (f32, f32),
) -> Contact {
    let q = clamp_to_box(half, c);
    // Each component of `c − q` is zero or the difference of two nearby
    // floats (exact by Sterbenz's lemma when within a factor of two), so even
    // a tiny positive length has a reliable direction: no tolerance needed.
    let outside = c - q;
    let d = outside.norm();
    if d > 0.0 {
        let normal = Unit::new_unchecked(outside / d);
        return apart(r_box, r_point, d, normal, q, *c);
    }
    // Inside or on the surface: leave through the face of least slack. The
    // strict `<` keeps the first axis on ties.
    let slack = Vector3::new(half.x - c.x.abs(), half.y - c.y.abs(), half.z - c.z.abs());
    let mut axis = 0;
    if slack.y < slack[axis] {
        axis = 1;
    }
    if slack.z < slack[axis] {
        axis = 2;
    }
    // `c_k < 0` leaves through the negative face; zero (the mid-plane, the
    // exact centre) through the positive one.
    let sign = if c[axis] < 0.0 { -1.0 } else { 1.0 };
    let mut normal = Vector3::zeros();
    normal[axis] = sign;
    let mut on_face = *c;
    on_face[axis] = sign * half[axis];
    // The cores overlap by the slack: a signed core distance of −slack.
    apart(r_box, r_point, -slack[axis], Unit::new_unchecked(normal), on_face, *c)
}

/// The contact of the two cores at signed distance `core_distance` along
/// `normal` (box to point), with the margins added back.
#[inline]
fn apart(
    r_box: f32,
    r_point: f32,
    core_distance: f32,
    normal: Unit<Vector3<f32>>,
    core_box: Point3<f32>,
    core_point: Point3<f32>,
) -> Contact {
    let point_a = core_box + normal.into_inner() * r_box;
    let point_b = core_point - normal.into_inner() * r_point;
    let distance = core_distance - r_box - r_point;
    if distance > 0.0 {
        Contact::Separated { distance, normal, point_a, point_b }
    } else {
        Contact::Penetrating(Penetration { depth: -distance, normal, point_a, point_b })
    }
}

/// The same contact with the shapes' roles exchanged: B's witness becomes
/// A's and the normal flips; depth and distance are unchanged.
#[inline]
pub(crate) fn swapped(c: Contact) -> Contact {
    match c {
        Contact::Separated { distance, normal, point_a, point_b } => {
            Contact::Separated { distance, normal: -normal, point_a: point_b, point_b: point_a }
        }
        Contact::Penetrating(p) => Contact::Penetrating(Penetration {
            depth: p.depth,
            normal: -p.normal,
            point_a: p.point_b,
            point_b: p.point_a,
        }),
    }
}

/// The point core's position in the box's frame, from its world position.
#[inline]
pub(crate) fn in_box_frame(pose_box: &Isometry3<f32>, point_world: &Point3<f32>) -> Point3<f32> {
    pose_box.inverse_transform_point(point_world)
}

#[cfg(test)]
mod tests {
    //! The closed form against GJK/EPA on the same inputs (a box that hides
    //! its `core_box`, so the generic path runs) and against hand-worked
    //! answers for the special cases.

    use super::*;
    use crate::{Cuboid, Sphere, SupportMap};
    use crate::{GjkCache, try_contact_cached as contact};
    use nalgebra::{Translation3, UnitQuaternion};

    /// A cuboid that only exposes its support function, so queries on it
    /// take the GJK/EPA path.
    struct OpaqueBox(Cuboid);
    impl SupportMap for OpaqueBox {
        fn local_support(&self, dir: &Vector3<f32>) -> Point3<f32> {
            self.0.local_support(dir)
        }
    }

    /// Tiny deterministic generator (xorshift), so the test needs no crate.
    struct Rng(u64);
    impl Rng {
        fn unit(&mut self) -> f32 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            (self.0 >> 40) as f32 / (1u64 << 24) as f32
        }
        fn range(&mut self, lo: f32, hi: f32) -> f32 {
            lo + (hi - lo) * self.unit()
        }
        fn pose(&mut self, spread: f32) -> Isometry3<f32> {
            let axis = Vector3::new(self.range(-1.0, 1.0), self.range(-1.0, 1.0), 0.5);
            let rot = UnitQuaternion::from_scaled_axis(axis * self.range(0.0, 3.0));
            let t =
                Vector3::new(self.range(-1.0, 1.0), self.range(-1.0, 1.0), self.range(-1.0, 1.0));
            Isometry3::from_parts(Translation3::from(t * spread), rot)
        }
    }

    /// Signed separation: distance if apart, −depth if penetrating.
    fn signed(c: &Contact) -> f32 {
        match c {
            Contact::Separated { distance, .. } => *distance,
            Contact::Penetrating(p) => -p.depth,
        }
    }

    fn parts(c: &Contact) -> (Vector3<f32>, Point3<f32>, Point3<f32>) {
        match c {
            Contact::Separated { normal, point_a, point_b, .. } => {
                (normal.into_inner(), *point_a, *point_b)
            }
            Contact::Penetrating(p) => (p.normal.into_inner(), p.point_a, p.point_b),
        }
    }

    #[test]
    fn agrees_with_gjk_epa_on_random_pairs() {
        // GJK/EPA's own tolerances are ~1e-4 relative on unit shapes; the
        // comparison allows 1e-3 of the pair's size, far below any real
        // disagreement (a wrong face or a sign error is O(size)).
        const AGREE_REL: f32 = 1e-3;
        let mut rng = Rng(0x5EED_CAFE);
        let mut compared = [0usize; 2];
        for _ in 0..4000 {
            let half = Vector3::new(rng.range(0.1, 2.0), rng.range(0.1, 2.0), rng.range(0.1, 2.0));
            let r = rng.range(0.05, 1.5);
            let (cube, ball) = (Cuboid::new(half), Sphere::new(r));
            let pose_box = rng.pose(1.0);
            let pose_ball = rng.pose(2.5);
            let size = half.norm() + r;
            let tol = AGREE_REL * size;
            for box_first in [true, false] {
                let cache = &mut GjkCache::default();
                let (exact, gjk) = if box_first {
                    (
                        contact(&cube, &pose_box, &ball, &pose_ball, cache).unwrap(),
                        contact(&OpaqueBox(cube), &pose_box, &ball, &pose_ball, cache).unwrap(),
                    )
                } else {
                    (
                        contact(&ball, &pose_ball, &cube, &pose_box, cache).unwrap(),
                        contact(&ball, &pose_ball, &OpaqueBox(cube), &pose_box, cache).unwrap(),
                    )
                };
                let (se, sg) = (signed(&exact), signed(&gjk));
                assert!((se - sg).abs() <= tol, "separation {se} vs GJK/EPA {sg}");
                // Normals and witnesses are unique unless the pair is nearly
                // touching (no normal) or the centre is near a slack tie.
                if se.abs() > tol {
                    let (ne, ae, be) = parts(&exact);
                    let (ng, ag, bg) = parts(&gjk);
                    let deep_tie = se < 0.0 && {
                        let c =
                            in_box_frame(&pose_box, &Point3::from(pose_ball.translation.vector));
                        let s = half - c.coords.abs();
                        let mut v = [s.x, s.y, s.z];
                        v.sort_by(f32::total_cmp);
                        c.coords.abs() <= half && v[1] - v[0] < tol
                    };
                    if !deep_tie {
                        assert!((ne - ng).norm() < 0.02, "normal {ne} vs GJK/EPA {ng}");
                        assert!((ae - ag).norm() < 10.0 * tol, "point_a {ae} vs {ag}");
                        assert!((be - bg).norm() < 10.0 * tol, "point_b {be} vs {bg}");
                        compared[usize::from(se < 0.0)] += 1;
                    }
                }
            }
        }
        assert!(compared[0] > 1000 && compared[1] > 1000, "coverage {compared:?}");
    }

    /// Counts GJK and EPA iterations, to tell which path a query took.
    #[derive(Default)]
    struct Steps(usize);
    impl crate::query::Recorder for Steps {
        fn gjk_step(&mut self, _: &crate::query::GjkStep) {
            self.0 += 1;
        }
        fn epa_step(&mut self, _: &crate::query::EpaStep<'_>) {
            self.0 += 1;
        }
    }

    #[test]
    fn both_orders_take_the_closed_form_and_the_recorded_path_runs_gjk() {
        let (cube, ball) = (Cuboid::new(Vector3::new(1.0, 0.5, 2.0)), Sphere::new(0.3));
        let pose_box = Isometry3::rotation(Vector3::new(0.3, -0.2, 0.9));
        for x in [0.2, 1.1, 3.0] {
            let pose_ball = Isometry3::translation(x, 0.1, -0.2);
            // The closed form, by hand: in the box's frame, then the world.
            let centre = in_box_frame(&pose_box, &Point3::from(pose_ball.translation.vector));
            let by_hand = point_box_contact(&cube.half_extents, &centre, (0.0, ball.radius))
                .to_world(&pose_box);
            let cache = &mut GjkCache::default();
            assert_eq!(contact(&cube, &pose_box, &ball, &pose_ball, cache).unwrap(), by_hand);
            assert_eq!(
                contact(&ball, &pose_ball, &cube, &pose_box, cache).unwrap(),
                swapped(by_hand)
            );
            // The recorded entry point runs the general path for every pair.
            for (a, b) in [(&cube as &dyn SupportMap, &ball as &dyn SupportMap), (&ball, &cube)] {
                let mut steps = Steps::default();
                let pose_a = if a.core_box().is_some() { &pose_box } else { &pose_ball };
                let pose_b = if b.core_box().is_some() { &pose_box } else { &pose_ball };
                crate::query::try_contact_with(a, pose_a, b, pose_b, &mut steps).unwrap();
                assert!(steps.0 > 0, "the recorded path must go through GJK");
            }
        }
    }

    #[test]
    fn centre_at_box_centre_leaves_through_first_axis_positive_face() {
        // A 1×2×3 half-extent box: x has the least slack, 1.
        let half = Vector3::new(1.0, 2.0, 3.0);
        let c = point_box_contact(&half, &Point3::origin(), (0.0, 0.25));
        let Contact::Penetrating(p) = c else { panic!("{c:?}") };
        assert_eq!(p.depth, 1.25);
        assert_eq!(p.normal.into_inner(), Vector3::x());
        assert_eq!(p.point_a, Point3::new(1.0, 0.0, 0.0));
        assert_eq!(p.point_b, Point3::new(-0.25, 0.0, 0.0));
        // A cube: all slacks tie; the first axis wins.
        let c = point_box_contact(&Vector3::repeat(1.0), &Point3::origin(), (0.0, 0.5));
        let Contact::Penetrating(p) = c else { panic!("{c:?}") };
        assert_eq!((p.depth, p.normal.into_inner()), (1.5, Vector3::x()));
    }

    #[test]
    fn margins_are_added_like_radii() {
        // Box core 1, margin 0.1; point 1.5 out along y with margin 0.2:
        // 0.2 apart, witnesses on each rounded surface.
        let c = point_box_contact(&Vector3::repeat(1.0), &Point3::new(0.0, 1.5, 0.0), (0.1, 0.2));
        let Contact::Separated { distance, normal, point_a, point_b } = c else { panic!() };
        assert!((distance - 0.2).abs() < 1e-6);
        assert_eq!(normal.into_inner(), Vector3::y());
        assert!((point_a.y - 1.1).abs() < 1e-6 && (point_b.y - 1.3).abs() < 1e-6);
    }
}
