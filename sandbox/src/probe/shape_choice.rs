//! The shapes the probe offers, in 3D (sphere, cuboid, capsule, and a hull
//! that is either a seeded random point cloud or an icosahedron) and in 2D
//! (circle, rectangle, polygon), each about one metre across so that any
//! two of them make a legible pair.

use core::fmt;

use collide::dim2::{Circle, Polygon, Rectangle, Shape2};
use collide::nalgebra::{Point2, Point3, Vector2, Vector3};
use collide::{Capsule, ConvexHull, Cuboid, Shape, Sphere};

use crate::rng::Lcg;
use crate::scene::builtin::icosahedron;

/// Points in the random hull's cloud: enough for a dozen or two faces.
const CLOUD_POINTS: usize = 24;

/// A 3D shape the probe can show.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ShapeKind {
    /// A ball of radius 0.6.
    Sphere,
    /// A box with half-extents (0.6, 0.45, 0.5).
    Cuboid,
    /// A capsule along Y with half-height 0.45 and radius 0.35.
    Capsule,
    /// The hull of a seeded random cloud in a 0.65 m ball.
    Cloud,
    /// An icosahedron of circumradius 0.7.
    Icosahedron,
}

impl ShapeKind {
    /// Every kind, in the HUD's order.
    pub const ALL: [ShapeKind; 5] = [
        ShapeKind::Sphere,
        ShapeKind::Cuboid,
        ShapeKind::Capsule,
        ShapeKind::Cloud,
        ShapeKind::Icosahedron,
    ];

    /// The command-line and HUD name.
    pub fn name(self) -> &'static str {
        match self {
            ShapeKind::Sphere => "sphere",
            ShapeKind::Cuboid => "cuboid",
            ShapeKind::Capsule => "capsule",
            ShapeKind::Cloud => "cloud",
            ShapeKind::Icosahedron => "icosahedron",
        }
    }

    /// The shape; `seed` picks the random cloud (other kinds ignore it).
    pub fn build(self, seed: u64) -> Shape {
        match self {
            ShapeKind::Sphere => Sphere::new(0.6).into(),
            ShapeKind::Cuboid => Cuboid::new(Vector3::new(0.6, 0.45, 0.5)).into(),
            ShapeKind::Capsule => Capsule::new(0.45, 0.35).into(),
            ShapeKind::Cloud => random_hull(seed),
            ShapeKind::Icosahedron => match icosahedron(0.7) {
                Ok(hull) => hull.into(),
                // The icosahedron's twelve points always make a hull.
                Err(_) => Sphere::new(0.6).into(),
            },
        }
    }
}

/// The hull of [`CLOUD_POINTS`] points drawn uniformly in a ball of radius
/// 0.65 m (rejection sampling), seeded by `seed`. Seeds whose cloud rounding
/// made degenerate fall back to the next seed.
fn random_hull(seed: u64) -> Shape {
    for attempt in 0..u64::from(u8::MAX) {
        let mut rng = Lcg(seed.wrapping_add(attempt).wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
        let mut points = Vec::with_capacity(CLOUD_POINTS);
        while points.len() < CLOUD_POINTS {
            let p = Vector3::new(rng.range(-1.0, 1.0), rng.range(-1.0, 1.0), rng.range(-1.0, 1.0));
            if p.norm_squared() <= 1.0 {
                points.push(Point3::from(p * 0.65));
            }
        }
        if let Ok(hull) = ConvexHull::new(&points) {
            return hull.into();
        }
    }
    // Not met in practice: 24 random points are never all coplanar.
    Sphere::new(0.6).into()
}

impl fmt::Display for ShapeKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A 2D shape the probe can show.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ShapeKind2 {
    /// A circle of radius 0.6.
    Circle,
    /// A rectangle with half-extents (0.65, 0.4).
    Rectangle,
    /// A convex pentagon about 1.3 m across.
    Polygon,
}

impl ShapeKind2 {
    /// Every kind, in the HUD's order.
    pub const ALL: [ShapeKind2; 3] =
        [ShapeKind2::Circle, ShapeKind2::Rectangle, ShapeKind2::Polygon];

    /// The command-line and HUD name.
    pub fn name(self) -> &'static str {
        match self {
            ShapeKind2::Circle => "circle",
            ShapeKind2::Rectangle => "rectangle",
            ShapeKind2::Polygon => "polygon",
        }
    }

    /// The shape.
    pub fn build(self) -> Shape2 {
        match self {
            ShapeKind2::Circle => Circle::new(0.6).into(),
            ShapeKind2::Rectangle => Rectangle::new(Vector2::new(0.65, 0.4)).into(),
            ShapeKind2::Polygon => {
                let corners = [(-0.6, -0.45), (0.55, -0.5), (0.7, 0.2), (0.05, 0.7), (-0.55, 0.35)];
                match Polygon::new(&corners.map(|(x, y)| Point2::new(x, y))) {
                    Ok(p) => p.into(),
                    // Five distinct corners always make a polygon.
                    Err(_) => Circle::new(0.6).into(),
                }
            }
        }
    }
}

impl fmt::Display for ShapeKind2 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A name that is not a probe shape, for the command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownShape(pub String);

impl fmt::Display for UnknownShape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown probe shape `{}`; expected one of: ", self.0)?;
        let names: Vec<&str> = ShapeKind::ALL
            .iter()
            .map(|k| k.name())
            .chain(ShapeKind2::ALL.iter().map(|k| k.name()))
            .collect();
        f.write_str(&names.join(", "))
    }
}

impl std::error::Error for UnknownShape {}

impl core::str::FromStr for ShapeKind {
    type Err = UnknownShape;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        ShapeKind::ALL.into_iter().find(|k| k.name() == s).ok_or_else(|| UnknownShape(s.into()))
    }
}

impl core::str::FromStr for ShapeKind2 {
    type Err = UnknownShape;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        ShapeKind2::ALL.into_iter().find(|k| k.name() == s).ok_or_else(|| UnknownShape(s.into()))
    }
}
