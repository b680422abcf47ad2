//! A compound: convex shapes, each at a pose in the compound's frame, with
//! a bounding-volume hierarchy over the parts' boxes.
//!
//! A compound is the union of its parts: a point is inside it when it is
//! inside a part, and it touches another shape when a part does. Its mass
//! properties are the parts' combined exactly (each part's inertia turned
//! into the compound's axes and moved to the common centre of mass by the
//! parallel-axis theorem); overlapping parts count their common volume
//! twice, as in every engine that sums parts.

use nalgebra::{Isometry3, Matrix3, Point3};

use super::error::CompositeError;
use crate::aabb::Aabb;
use crate::bvh::StaticBvh;
use crate::mass_properties::MassProperties;
use crate::shape::Shape;
use crate::support_map::SupportMap;

/// Most parts a compound takes: the hierarchy's `2^31` limit.
const MAX_PARTS: usize = (1 << 31) - 1;

/// Convex parts at local poses, with a hierarchy over them.
///
/// ```
/// use collide::composite::Compound;
/// use collide::{Cuboid, Shape};
/// use collide::nalgebra::{Isometry3, Vector3};
/// // An L of two unit cubes.
/// let cube: Shape = Cuboid::new(Vector3::repeat(0.5)).into();
/// let l = Compound::try_new(vec![
///     (cube.clone(), Isometry3::identity()),
///     (cube, Isometry3::translation(1.0, 0.0, 0.0)),
/// ])
/// .unwrap();
/// let props = l.mass_properties(1000.0);
/// assert!((props.mass - 2000.0).abs() < 1e-2);
/// assert!((props.local_center.x - 0.5).abs() < 1e-6);
/// ```
#[derive(Clone, Debug)]
pub struct Compound {
    parts: Vec<(Shape, Isometry3<f32>)>,
    bvh: StaticBvh,
}

impl PartialEq for Compound {
    fn eq(&self, other: &Self) -> bool {
        self.parts == other.parts
    }
}

impl Compound {
    /// A compound of `parts`, each a convex shape and its pose in the
    /// compound's frame (`compound_from_part`).
    ///
    /// # Errors
    /// [`CompositeError::Empty`] without parts;
    /// [`CompositeError::NonConvexPart`] for a mesh, heightfield or
    /// compound part; [`CompositeError::BadPart`] for a non-finite pose,
    /// or a shape whose radius is negative or whose box is not finite;
    /// [`CompositeError::TooLarge`] past `2^31` parts.
    pub fn try_new(parts: Vec<(Shape, Isometry3<f32>)>) -> Result<Self, CompositeError> {
        if parts.is_empty() {
            return Err(CompositeError::Empty);
        }
        if parts.len() > MAX_PARTS {
            return Err(CompositeError::TooLarge { count: parts.len() });
        }
        let mut boxes = Vec::with_capacity(parts.len());
        for (part, (shape, pose)) in parts.iter().enumerate() {
            if shape.is_composite() {
                return Err(CompositeError::NonConvexPart { part });
            }
            let pose_finite = pose
                .translation
                .vector
                .iter()
                .chain(pose.rotation.coords.iter())
                .all(|x| x.is_finite());
            let margin = shape.margin();
            let aabb = shape.aabb(pose);
            let box_ok = aabb.min.iter().chain(aabb.max.iter()).all(|x| x.is_finite())
                && aabb.min.iter().zip(aabb.max.iter()).all(|(lo, hi)| lo <= hi);
            if !(pose_finite && margin >= 0.0 && box_ok) {
                return Err(CompositeError::BadPart { part });
            }
            boxes.push(aabb);
        }
        let bvh = StaticBvh::try_new(&boxes)
            .map_err(|_| CompositeError::TooLarge { count: parts.len() })?;
        Ok(Self { parts, bvh })
    }

    /// The parts and their poses in the compound's frame, as given.
    pub fn parts(&self) -> &[(Shape, Isometry3<f32>)] {
        &self.parts
    }

    /// The hierarchy over the parts' boxes (item `i` is part `i`), in the
    /// compound's frame.
    pub fn bvh(&self) -> &StaticBvh {
        &self.bvh
    }

    /// The compound's box in its own frame.
    pub fn local_aabb(&self) -> Aabb {
        self.bvh.root_aabb().unwrap_or(Aabb::new(Point3::origin(), Point3::origin()))
    }

    /// The exact axis-aligned box at `pose`: the union of the parts' exact
    /// boxes.
    pub fn aabb(&self, pose: &Isometry3<f32>) -> Aabb {
        let mut iter = self.parts.iter().map(|(shape, local)| shape.aabb(&(pose * local)));
        let first = iter.next().unwrap_or(Aabb::new(Point3::origin(), Point3::origin()));
        iter.fold(first, |acc, b| acc.merged(&b))
    }

    /// The mass properties of the compound filled with `density`: mass and
    /// centre of mass summed over the parts, inertia by the parallel-axis
    /// theorem, `I = Σ (R Iᵢ Rᵀ + mᵢ (|dᵢ|² 1 − dᵢ dᵢᵀ))` with `R` a part's
    /// rotation and `dᵢ` its centre of mass less the compound's. Parts
    /// without volume add nothing. Accumulated in f64.
    pub fn mass_properties(&self, density: f32) -> MassProperties {
        let each: Vec<(MassProperties, &Isometry3<f32>)> = self
            .parts
            .iter()
            .map(|(shape, pose)| (MassProperties::from_shape(shape, density), pose))
            .collect();
        let mass: f64 = each.iter().map(|(p, _)| p.mass as f64).sum();
        if !(mass > 0.0) {
            return MassProperties::zero();
        }
        let centre = each.iter().fold(nalgebra::Vector3::<f64>::zeros(), |acc, (p, pose)| {
            acc + (*pose * p.local_center).coords.cast::<f64>() * p.mass as f64
        }) / mass;
        let mut inertia = Matrix3::<f64>::zeros();
        for (p, pose) in &each {
            let r = pose.rotation.to_rotation_matrix().into_inner().cast::<f64>();
            let d = (*pose * p.local_center).coords.cast::<f64>() - centre;
            let m = p.mass as f64;
            inertia += r * p.inertia.cast::<f64>() * r.transpose()
                + (Matrix3::identity() * d.norm_squared() - d * d.transpose()) * m;
        }
        MassProperties {
            mass: mass as f32,
            local_center: Point3::from(centre.cast::<f32>()),
            inertia: inertia.cast::<f32>(),
        }
    }
}
