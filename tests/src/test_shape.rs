//! A collide shape paired with its independent oracle twin, and a posed pair
//! of them.
//!
//! Both twins are built from the same *parameters* (radius, half extents,
//! point cloud), so the oracle never reads collide's hull: a wrong vertex or
//! face in collide's quickhull shows up as a disagreement rather than being
//! copied into the expected answer.

use core::fmt;

use collide::{Capsule, ConvexHull, Cuboid, Shape, Sphere};
use nalgebra::{Isometry3, Point3, Translation3, UnitQuaternion, Vector3};

use crate::oracle_shape::OracleShape;

/// The parameters a test shape is built from.
#[derive(Clone, Debug, PartialEq)]
pub enum Params {
    /// A ball of the given radius.
    Sphere {
        /// Radius.
        radius: f32,
    },
    /// A box with the given half extents.
    Cuboid {
        /// Half extents.
        half: Vector3<f32>,
    },
    /// A capsule along local Y.
    Capsule {
        /// Half length of the core segment.
        half_height: f32,
        /// Radius.
        radius: f32,
    },
    /// The convex hull of a point cloud.
    Hull {
        /// The cloud, in the shape's frame.
        points: Vec<Point3<f32>>,
    },
}

impl Params {
    /// The same shape scaled by `s` about its origin.
    pub fn scaled(&self, s: f32) -> Self {
        match self {
            Self::Sphere { radius } => Self::Sphere { radius: radius * s },
            Self::Cuboid { half } => Self::Cuboid { half: half * s },
            Self::Capsule { half_height, radius } => {
                Self::Capsule { half_height: half_height * s, radius: radius * s }
            }
            Self::Hull { points } => Self::Hull { points: points.iter().map(|p| p * s).collect() },
        }
    }

    /// A short name of the shape kind.
    pub fn kind(&self) -> &'static str {
        match self {
            Self::Sphere { .. } => "sphere",
            Self::Cuboid { .. } => "cuboid",
            Self::Capsule { .. } => "capsule",
            Self::Hull { .. } => "hull",
        }
    }
}

/// A collide [`Shape`] and the [`OracleShape`] built from the same parameters.
#[derive(Clone, Debug)]
pub struct TestShape {
    /// The parameters both twins were built from.
    pub params: Params,
    /// The shape under test.
    pub shape: Shape,
    /// Its oracle twin, in the shape's frame.
    pub oracle: OracleShape,
}

impl TestShape {
    /// Builds both twins. Fails (with a message) if collide rejects the
    /// parameters or the brute-force hull finds the cloud degenerate.
    ///
    /// ```
    /// use tests::{Params, TestShape};
    /// let s = TestShape::new(Params::Sphere { radius: 1.0 }).unwrap();
    /// assert_eq!(s.oracle.radius, 1.0);
    /// ```
    pub fn new(params: Params) -> Result<Self, String> {
        let (shape, oracle) = match &params {
            Params::Sphere { radius } => {
                (Shape::from(Sphere::new(*radius)), OracleShape::sphere(f64::from(*radius)))
            }
            Params::Cuboid { half } => {
                (Shape::from(Cuboid::new(*half)), OracleShape::cuboid(half.cast::<f64>()))
            }
            Params::Capsule { half_height, radius } => (
                Shape::from(Capsule::new(*half_height, *radius)),
                OracleShape::capsule(f64::from(*half_height), f64::from(*radius)),
            ),
            Params::Hull { points } => {
                let cloud: Vec<Point3<f64>> = points.iter().map(|p| p.cast::<f64>()).collect();
                let oracle = OracleShape::hull(&cloud)
                    .ok_or_else(|| format!("brute-force hull: degenerate cloud {points:?}"))?;
                let hull = ConvexHull::new(points).map_err(|e| {
                    format!("ConvexHull::new rejected a valid cloud ({e}): {points:?}")
                })?;
                (Shape::from(hull), oracle)
            }
        };
        Ok(Self { params, shape, oracle })
    }
}

/// Two posed test shapes.
#[derive(Clone, Debug)]
pub struct Pair {
    /// Shape A.
    pub a: TestShape,
    /// Pose of A in the world.
    pub pose_a: Isometry3<f32>,
    /// Shape B.
    pub b: TestShape,
    /// Pose of B in the world.
    pub pose_b: Isometry3<f32>,
}

impl Pair {
    /// The same pair with A and B exchanged.
    pub fn swapped(&self) -> Self {
        Self { a: self.b.clone(), pose_a: self.pose_b, b: self.a.clone(), pose_b: self.pose_a }
    }

    /// The same relative configuration seen through `world`: both poses are
    /// premultiplied by it.
    pub fn moved(&self, world: &Isometry3<f32>) -> Self {
        Self { pose_a: world * self.pose_a, pose_b: world * self.pose_b, ..self.clone() }
    }

    /// The pair with B translated by `offset` (world frame).
    pub fn with_b_offset(&self, offset: &Vector3<f32>) -> Self {
        let mut out = self.clone();
        out.pose_b.translation.vector += offset;
        out
    }

    /// Both shapes and poses scaled by `s` about the world origin.
    pub fn scaled(&self, s: f32) -> Result<Self, String> {
        let scale_pose = |p: &Isometry3<f32>| {
            Isometry3::from_parts(Translation3::from(p.translation.vector * s), p.rotation)
        };
        Ok(Self {
            a: TestShape::new(self.a.params.scaled(s))?,
            pose_a: scale_pose(&self.pose_a),
            b: TestShape::new(self.b.params.scaled(s))?,
            pose_b: scale_pose(&self.pose_b),
        })
    }

    /// The oracle twins in world space.
    pub fn oracles(&self) -> (OracleShape, OracleShape) {
        (self.a.oracle.posed(&self.pose_a), self.b.oracle.posed(&self.pose_b))
    }
}

/// Formats a pose as `t=(x, y, z) q=(w, i, j, k)` with full precision, so a
/// failing case can be pasted back into a test.
#[derive(Debug)]
pub struct ShowPose<'a>(pub &'a Isometry3<f32>);

impl fmt::Display for ShowPose<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let t = self.0.translation.vector;
        let q: &UnitQuaternion<f32> = &self.0.rotation;
        write!(
            f,
            "t=({:?}, {:?}, {:?}) q=({:?}, {:?}, {:?}, {:?})",
            t.x, t.y, t.z, q.w, q.i, q.j, q.k
        )
    }
}

impl fmt::Display for Pair {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "  A = {:?}\n    pose_a {}", self.a.params, ShowPose(&self.pose_a))?;
        write!(f, "  B = {:?}\n    pose_b {}", self.b.params, ShowPose(&self.pose_b))
    }
}
