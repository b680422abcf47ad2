//! The user's view of one contact: which bodies, where they touch in the
//! world, along which normal, how deep, and the impulses the contact
//! applied over the last step. Built on demand from the pair cache by
//! [`World::contacts`](crate::World::contacts), never stored; the solver's
//! own record of a contact (its warm-start impulses, anchors and points in
//! body frames) stays inside the crate.

use collide::nalgebra::{Point3, Vector3};

use crate::body::BodyId;
use crate::collision::manifold::{MAX_MANIFOLD_POINTS, Manifold};

/// One point of a [`ContactView`].
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ContactPointView {
    /// The point midway between the two surfaces, world frame.
    pub point: Point3<f32>,
    /// Signed distance between the surfaces along the contact normal, m:
    /// negative when the bodies overlap (the crate's convention), positive
    /// for a speculative point that has not closed yet.
    pub separation: f32,
    /// The normal impulse the point applied over the last step that solved
    /// it, N·s (B is pushed along the normal, A against it). Summed over
    /// the step's substeps and restitution, so a ball of mass `m` resting
    /// on the ground under gravity `g` reports about `m g dt`.
    pub normal_impulse: f32,
    /// The feature pair the point comes from: the same features give the
    /// same id from step to step.
    pub feature_id: u32,
}

impl ContactPointView {
    /// How deep the bodies overlap at the point, m (zero when apart).
    pub fn depth(&self) -> f32 {
        (-self.separation).max(0.0)
    }

    /// The mean normal force over a step of `dt` seconds, N:
    /// [`normal_impulse`](Self::normal_impulse) / `dt`. Pass the `dt` of
    /// the last [`World::step`](crate::World::step).
    pub fn normal_force(&self, dt: f32) -> f32 {
        self.normal_impulse / dt
    }
}

/// A pair of bodies in contact, as [`World::contacts`](crate::World::contacts)
/// lists them: up to four points sharing one normal.
///
/// ```
/// use sandbox::{BodyDesc, World};
/// use collide::{Cuboid, Sphere};
/// use collide::nalgebra::Vector3;
///
/// let mut world = World::new();
/// let ground = world.add_body(BodyDesc::fixed(Cuboid::new(Vector3::new(5.0, 0.5, 5.0)).into())
///     .with_position(Vector3::new(0.0, -0.5, 0.0))).unwrap();
/// let ball = world.add_body(BodyDesc::dynamic(Sphere::new(0.5).into())
///     .with_position(Vector3::new(0.0, 0.5, 0.0))).unwrap();
/// let dt = 1.0 / 60.0;
/// for _ in 0..60 {
///     world.step(dt);
/// }
/// let contact = world.contacts().find(|c| c.body_b == ball).unwrap();
/// assert_eq!(contact.body_a, ground);
/// // The normal points from A (the ground) to B (the ball): up.
/// assert!((contact.normal - Vector3::y()).norm() < 1e-3);
/// let [point] = contact.points() else { panic!("a ball touches at one point") };
/// assert!(point.point.y.abs() < 0.01 && point.depth() < 0.01);
/// // The ground carries the ball's weight: m g over the step.
/// let weight = world.mass_properties(ball).unwrap().mass * 9.81;
/// assert!((contact.normal_force(dt) - weight).abs() < 0.02 * weight);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ContactView {
    /// Body A: the one in the smaller slot.
    pub body_a: BodyId,
    /// Body B.
    pub body_b: BodyId,
    /// Which of body A's shapes touches (its index among the body's
    /// shapes; 0 for a body of one shape).
    pub shape_a: u32,
    /// Which of body B's shapes touches.
    pub shape_b: u32,
    /// Unit contact normal from A to B, world frame.
    pub normal: Vector3<f32>,
    /// Combined friction coefficient.
    pub friction: f32,
    /// Combined restitution coefficient.
    pub restitution: f32,
    /// The friction impulse the contact applied to B over the last step
    /// that solved it (A got the opposite), at the points' centre, world
    /// frame, N·s.
    pub friction_impulse: Vector3<f32>,
    /// The points; only the first `point_count` are meaningful.
    points: [ContactPointView; MAX_MANIFOLD_POINTS],
    point_count: u8,
}

impl ContactView {
    /// The view of `manifold`, the contact between bodies `body_a` and
    /// `body_b` with the combined `friction` and `restitution`.
    pub(crate) fn new(
        body_a: BodyId,
        body_b: BodyId,
        friction: f32,
        restitution: f32,
        manifold: &Manifold,
    ) -> Self {
        let mut points = [ContactPointView::default(); MAX_MANIFOLD_POINTS];
        for (view, p) in points.iter_mut().zip(&manifold.points) {
            *view = ContactPointView {
                point: p.point,
                separation: p.separation,
                normal_impulse: p.step_normal_impulse,
                feature_id: p.id,
            };
        }
        Self {
            body_a,
            body_b,
            shape_a: 0,
            shape_b: 0,
            normal: manifold.normal,
            friction,
            restitution,
            friction_impulse: manifold.step_friction_impulse,
            points,
            point_count: manifold.points.len() as u8,
        }
    }

    /// The contact points (one to four).
    pub fn points(&self) -> &[ContactPointView] {
        &self.points[..usize::from(self.point_count)]
    }

    /// The deepest overlap among the points, m (zero when none overlaps).
    pub fn depth(&self) -> f32 {
        self.points().iter().fold(0.0, |d, p| d.max(p.depth()))
    }

    /// The normal impulse of all the points over the last step, N·s.
    pub fn normal_impulse(&self) -> f32 {
        self.points().iter().map(|p| p.normal_impulse).sum()
    }

    /// The mean total normal force over a step of `dt` seconds, N:
    /// [`normal_impulse`](Self::normal_impulse) / `dt`.
    pub fn normal_force(&self, dt: f32) -> f32 {
        self.normal_impulse() / dt
    }
}
