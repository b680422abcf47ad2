//! Mass, centre of mass and inertia tensor of every shape, from its density.
//!
//! Cuboids, spheres, capsules, cylinders and cones use their closed forms,
//! and so do rounded spheres and capsules (which are spheres and capsules)
//! and rounded cuboids (a box, six slabs, twelve quarter cylinders and
//! eight ball octants).
//! Triangles and segments have no volume: their mass is zero. Other rounded
//! shapes and users' own shapes that give no mass properties of their own
//! take the numerical fallback [`MassProperties::from_support`]: the
//! polyhedron spanned by support points in a fixed set of directions. Convex hulls use the
//! polyhedral mass properties of Mirtich ("Fast and Accurate Computation of
//! Polyhedral Mass Properties", 1996) in the compact form given by Eberly
//! ("Polyhedral Mass Properties (Revisited)", 2002): the divergence theorem
//! turns each volume integral into a sum over the surface triangles, and each
//! triangle contributes polynomial sub-expressions of its vertex coordinates.
//! Departure: faces are fanned into triangles from their first vertex, and the
//! integrals are accumulated in `f64` so hulls far from their origin keep the
//! precision `f32` would lose in the parallel-axis subtraction.

use nalgebra::{Matrix3, Point3, Vector3};

use crate::shape::{Capsule, Cone, ConvexHull, Cuboid, Cylinder, Rounded, Shape, Sphere};
use crate::support_map::SupportMap;

/// Mass, centre of mass and inertia tensor of a rigid body.
///
/// ```
/// use collide::{Cuboid, MassProperties, Shape};
/// use collide::nalgebra::Vector3;
/// let cube: Shape = Cuboid::new(Vector3::repeat(0.5)).into();
/// let props = MassProperties::from_shape(&cube, 1000.0);
/// assert!((props.mass - 1000.0).abs() < 1e-3);
/// // I = m (b² + c²) / 3 for half-extents b = c = 0.5.
/// assert!((props.inertia[(0, 0)] - 1000.0 * 0.5 / 3.0).abs() < 1e-2);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MassProperties {
    /// Mass in kilograms.
    pub mass: f32,
    /// Centre of mass, in the shape's frame.
    pub local_center: Point3<f32>,
    /// Inertia tensor about the centre of mass, axes of the shape's frame, kg·m².
    pub inertia: Matrix3<f32>,
}

impl MassProperties {
    /// The mass properties of `shape` filled with uniform `density` (kg/m³).
    ///
    /// Exact for every kind but two: a [`Shape::Rounded`] around anything
    /// but a sphere or capsule, and a [`Shape::Custom`] whose
    /// [`CustomShape::mass_properties`](crate::CustomShape::mass_properties)
    /// answers `None`, take [`MassProperties::from_support`]. A triangle or
    /// segment has no volume, so its mass and inertia are zero (a world
    /// cannot move it).
    pub fn from_shape(shape: &Shape, density: f32) -> Self {
        match shape {
            Shape::Cuboid(c) => cuboid(c, density),
            Shape::Sphere(s) => sphere(s, density),
            Shape::Capsule(c) => capsule(c, density),
            Shape::ConvexHull(h) => hull(h, density),
            Shape::Cylinder(c) => cylinder(c, density),
            Shape::Cone(c) => cone(c, density),
            Shape::Triangle(_) | Shape::Segment(_) => Self::zero(),
            Shape::Rounded(r) => rounded(r, density),
            Shape::Custom(c) => {
                c.mass_properties(density).unwrap_or_else(|| Self::from_support(&**c, density))
            }
        }
    }

    /// No mass and no inertia: what a shape without volume weighs.
    pub const fn zero() -> Self {
        Self {
            mass: 0.0,
            local_center: Point3::new(0.0, 0.0, 0.0),
            inertia: Matrix3::new(0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0),
        }
    }

    /// The numerical fallback for any convex shape: the mass properties of
    /// the convex polyhedron spanned by its support points along
    /// [`FALLBACK_DIRECTIONS`] directions spread evenly over the sphere (a
    /// Fibonacci lattice), computed exactly as for a hull.
    ///
    /// The polyhedron lies inside the shape and touches it at every sample,
    /// so the answer is exact for polytopes whose every vertex is some
    /// direction's unique support point, and slightly light for curved
    /// shapes: for a ball, the volume comes out about 0.3 % low and the
    /// inertia about 0.5 % low. It allocates, so call it once per shape, not
    /// per step. A shape whose support points do not span a volume (flat or
    /// thinner than rounding) gets [`MassProperties::zero`].
    ///
    /// ```
    /// use collide::{MassProperties, Sphere};
    /// let exact = 4.0 / 3.0 * std::f32::consts::PI * 1000.0;
    /// let p = MassProperties::from_support(&Sphere::new(1.0), 1000.0);
    /// assert!((p.mass / exact - 1.0).abs() < 0.01);
    /// ```
    pub fn from_support<S: SupportMap + ?Sized>(shape: &S, density: f32) -> Self {
        let golden = std::f32::consts::PI * (3.0 - 5f32.sqrt());
        let n = FALLBACK_DIRECTIONS;
        let points: Vec<Point3<f32>> = (0..n)
            .map(|i| {
                let y = 1.0 - 2.0 * (i as f32 + 0.5) / n as f32;
                let r = (1.0 - y * y).max(0.0).sqrt();
                let phi = golden * i as f32;
                shape.local_support(&Vector3::new(r * phi.cos(), y, r * phi.sin()))
            })
            .collect();
        match ConvexHull::new(&points) {
            Ok(h) if !h.is_flat() => hull(&h, density),
            _ => Self::zero(),
        }
    }

    /// The mass properties of a closed polyhedron given by its vertices and
    /// its faces (vertex index lists, counter-clockwise seen from outside),
    /// by Eberly's form of Mirtich's surface integrals.
    ///
    /// A degenerate or inside-out mesh yields zero or negative volume; it is
    /// returned as is and the caller decides (a world rejects non-positive
    /// mass).
    ///
    /// ```
    /// use collide::MassProperties;
    /// use collide::nalgebra::Point3;
    /// // The unit right tetrahedron: volume 1/6, centroid (1/4, 1/4, 1/4).
    /// let v = [Point3::origin(), Point3::new(1.0, 0.0, 0.0), Point3::new(0.0, 1.0, 0.0), Point3::new(0.0, 0.0, 1.0)];
    /// let faces: [&[u32]; 4] = [&[0, 2, 1], &[0, 1, 3], &[0, 3, 2], &[1, 2, 3]];
    /// let p = MassProperties::of_polyhedron(&v, faces.into_iter(), 6.0);
    /// assert!((p.mass - 1.0).abs() < 1e-5);
    /// assert!((p.local_center.x - 0.25).abs() < 1e-5);
    /// ```
    pub fn of_polyhedron<'a>(
        vertices: &[Point3<f32>],
        faces: impl Iterator<Item = &'a [u32]>,
        density: f32,
    ) -> Self {
        polyhedron(vertices, faces, density)
    }
}

/// How many support directions [`MassProperties::from_support`] samples:
/// enough that a ball's volume comes out within 0.5 %, few enough that the
/// hull of the samples builds in well under a millisecond.
pub const FALLBACK_DIRECTIONS: usize = 1024;

impl Shape {
    /// The mass properties of this shape filled with `density` (kg/m³); see
    /// [`MassProperties::from_shape`].
    #[inline]
    pub fn mass_properties(&self, density: f32) -> MassProperties {
        MassProperties::from_shape(self, density)
    }
}

fn diagonal(mass: f32, ixx: f32, iyy: f32, izz: f32) -> MassProperties {
    MassProperties {
        mass,
        local_center: Point3::origin(),
        inertia: Matrix3::from_diagonal(&Vector3::new(ixx, iyy, izz)),
    }
}

fn cuboid(c: &Cuboid, density: f32) -> MassProperties {
    let h = c.half_extents;
    let m = 8.0 * h.x * h.y * h.z * density;
    let (x2, y2, z2) = (h.x * h.x, h.y * h.y, h.z * h.z);
    diagonal(m, m * (y2 + z2) / 3.0, m * (x2 + z2) / 3.0, m * (x2 + y2) / 3.0)
}

fn sphere(s: &Sphere, density: f32) -> MassProperties {
    let r = s.radius;
    let m = 4.0 / 3.0 * std::f32::consts::PI * r * r * r * density;
    let i = 0.4 * m * r * r;
    diagonal(m, i, i, i)
}

/// A cylinder of height `2h` plus two hemispheres. Each hemisphere's inertia
/// about a transverse axis through the capsule centre is
/// `(83/320) m r² + m (h + 3r/8)²` (its own centroid sits `3r/8` from the
/// flat face); summed over both caps of total mass `ms` this simplifies to
/// `ms (2r²/5 + h² + 3hr/4)`.
fn capsule(c: &Capsule, density: f32) -> MassProperties {
    let (h, r) = (c.half_height, c.radius);
    let pi = std::f32::consts::PI;
    let m_cyl = pi * r * r * 2.0 * h * density;
    let m_caps = 4.0 / 3.0 * pi * r * r * r * density;
    let axial = m_cyl * r * r / 2.0 + m_caps * 0.4 * r * r;
    let transverse =
        m_cyl * (r * r / 4.0 + h * h / 3.0) + m_caps * (0.4 * r * r + h * h + 0.75 * h * r);
    diagonal(m_cyl + m_caps, transverse, axial, transverse)
}

/// A disc of radius `r` swept along `2h`: `m = π r² 2h ρ`, `I_yy = m r²/2`
/// about the axis and `m (3r² + (2h)²)/12` about a transverse axis through
/// the centre.
fn cylinder(c: &Cylinder, density: f32) -> MassProperties {
    let (h, r) = (c.half_height, c.radius);
    let m = std::f32::consts::PI * r * r * 2.0 * h * density;
    let transverse = m * (3.0 * r * r + 4.0 * h * h) / 12.0;
    diagonal(m, transverse, m * r * r / 2.0, transverse)
}

/// A cone of height `H = 2h` and base radius `r`: `m = π r² H ρ / 3`,
/// centre of mass `H/4` above the base (at `y = -h/2`), `I_yy = 3 m r²/10`
/// about the axis and `m (3r²/20 + 3H²/80)` about a transverse axis through
/// the centre of mass.
fn cone(c: &Cone, density: f32) -> MassProperties {
    let (h, r) = (c.half_height, c.radius);
    let height = 2.0 * h;
    let m = std::f32::consts::PI * r * r * height * density / 3.0;
    let transverse = m * (3.0 * r * r / 20.0 + 3.0 * height * height / 80.0);
    let mut p = diagonal(m, transverse, 0.3 * m * r * r, transverse);
    p.local_center = Point3::new(0.0, -0.5 * h, 0.0);
    p
}

/// A rounded sphere is a bigger sphere and a rounded capsule a fatter
/// capsule, and a rounded box has its own closed form
/// ([`rounded_cuboid`]), all exact; anything else takes the numerical
/// fallback.
fn rounded(r: &Rounded<Shape>, density: f32) -> MassProperties {
    match &r.inner {
        Shape::Sphere(s) => sphere(&Sphere::new(s.radius + r.radius), density),
        Shape::Capsule(c) => capsule(&Capsule::new(c.half_height, c.radius + r.radius), density),
        Shape::Cuboid(c) => rounded_cuboid(&c.half_extents, r.radius, density),
        _ => MassProperties::from_support(r, density),
    }
}

/// A box of half extents `h` grown by `r`, cut into pieces whose moments
/// are textbook: the box itself; six slabs of thickness `r` on its faces
/// (boxes too); twelve quarter cylinders of radius `r` along its edges; and
/// eight ball octants of radius `r` at its corners. The pieces are
/// symmetric in pairs about every axis, so the centre of mass is the
/// origin and the products of inertia vanish; the inertia is
/// `I_xx = ρ (∫y² + ∫z²)` and so on, summed over the pieces in f64.
///
/// A piece at offset `e ≥ 0` from the origin along an axis, bulging
/// outwards, has `∫(e + u)² = e² V + 2 e ∫u + ∫u²`, where for a quarter
/// disc of radius `r` (per unit length) `A = π r²/4`, `∫u = r³/3`,
/// `∫u² = π r⁴/16`, and for a ball octant `V = π r³/6`, `∫u = π r⁴/16`,
/// `∫u² = π r⁵/30`.
fn rounded_cuboid(h: &Vector3<f32>, r: f32, density: f32) -> MassProperties {
    use std::f64::consts::PI;
    let h = h.cast::<f64>();
    let r = f64::from(r);
    // Second moments ∫x², ∫y², ∫z² and the volume.
    let mut second = Vector3::<f64>::zeros();
    let mut volume = 0.0;
    // An axis-aligned box spanning [lo_k, hi_k] on each axis k.
    let mut add_box = |lo: Vector3<f64>, hi: Vector3<f64>| {
        let len = hi - lo;
        let v = len.x * len.y * len.z;
        volume += v;
        for k in 0..3 {
            second[k] += (hi[k].powi(3) - lo[k].powi(3)) / 3.0 * (v / len[k]);
        }
    };
    add_box(-h, h);
    for k in 0..3 {
        // The two slabs on the faces normal to axis k.
        let (mut lo, mut hi) = (-h, h);
        lo[k] = h[k];
        hi[k] = h[k] + r;
        add_box(lo, hi);
        let (lo, hi) = (-hi, -lo);
        add_box(lo, hi);
    }
    // Quarter cylinders: four along each axis k, of length 2 h_k, their
    // axes at (±h_i, ±h_j) across it.
    let (area, first, second_disc) = (PI * r * r / 4.0, r.powi(3) / 3.0, PI * r.powi(4) / 16.0);
    for k in 0..3 {
        let length = 2.0 * h[k];
        volume += 4.0 * area * length;
        for i in 0..3 {
            second[i] += 4.0
                * if i == k {
                    // ∫ over the length of z², times the disc's area.
                    area * 2.0 * h[k].powi(3) / 3.0
                } else {
                    length * (h[i] * h[i] * area + 2.0 * h[i] * first + second_disc)
                };
        }
    }
    // Ball octants at the eight corners.
    let (octant, first, second_ball) =
        (PI * r.powi(3) / 6.0, PI * r.powi(4) / 16.0, PI * r.powi(5) / 30.0);
    volume += 8.0 * octant;
    for i in 0..3 {
        second[i] += 8.0 * (h[i] * h[i] * octant + 2.0 * h[i] * first + second_ball);
    }
    let rho = f64::from(density);
    let inertia = |i: usize, j: usize| (rho * (second[i] + second[j])) as f32;
    diagonal((rho * volume) as f32, inertia(1, 2), inertia(0, 2), inertia(0, 1))
}

fn hull(h: &ConvexHull, density: f32) -> MassProperties {
    polyhedron(h.vertices(), h.faces().iter().map(|f| f.vertices.as_slice()), density)
}

/// Mass properties of a closed polyhedron: see [`MassProperties::of_polyhedron`].
fn polyhedron<'a>(
    vertices: &[Point3<f32>],
    faces: impl Iterator<Item = &'a [u32]>,
    density: f32,
) -> MassProperties {
    // Integrals of 1, x, y, z, x², y², z², xy, yz, zx over the volume.
    let mut integral = [0.0f64; 10];
    let at = |i: u32| vertices.get(i as usize).map(|p| p.coords.cast::<f64>());
    for face in faces {
        let Some(&first) = face.first() else { continue };
        let Some(p0) = at(first) else { continue };
        for pair in face[1..].windows(2) {
            let (Some(p1), Some(p2)) = (at(pair[0]), at(pair[1])) else { continue };
            let d = (p1 - p0).cross(&(p2 - p0));
            let [fx, fy, fz] = [0, 1, 2].map(|k| Subexpressions::new(p0[k], p1[k], p2[k]));
            integral[0] += d.x * fx.f1;
            integral[1] += d.x * fx.f2;
            integral[2] += d.y * fy.f2;
            integral[3] += d.z * fz.f2;
            integral[4] += d.x * fx.f3;
            integral[5] += d.y * fy.f3;
            integral[6] += d.z * fz.f3;
            integral[7] += d.x * (p0.y * fx.g0 + p1.y * fx.g1 + p2.y * fx.g2);
            integral[8] += d.y * (p0.z * fy.g0 + p1.z * fy.g1 + p2.z * fy.g2);
            integral[9] += d.z * (p0.x * fz.g0 + p1.x * fz.g1 + p2.x * fz.g2);
        }
    }
    const SCALE: [f64; 10] = [
        1.0 / 6.0,
        1.0 / 24.0,
        1.0 / 24.0,
        1.0 / 24.0,
        1.0 / 60.0,
        1.0 / 60.0,
        1.0 / 60.0,
        1.0 / 120.0,
        1.0 / 120.0,
        1.0 / 120.0,
    ];
    for (v, s) in integral.iter_mut().zip(SCALE) {
        *v *= s;
    }
    let volume = integral[0];
    let c = if volume > 0.0 {
        Vector3::new(integral[1], integral[2], integral[3]) / volume
    } else {
        Vector3::zeros()
    };
    // Second moments about the origin, shifted to the centroid (parallel axes).
    let ixx = integral[5] + integral[6] - volume * (c.y * c.y + c.z * c.z);
    let iyy = integral[4] + integral[6] - volume * (c.z * c.z + c.x * c.x);
    let izz = integral[4] + integral[5] - volume * (c.x * c.x + c.y * c.y);
    let ixy = -(integral[7] - volume * c.x * c.y);
    let iyz = -(integral[8] - volume * c.y * c.z);
    let izx = -(integral[9] - volume * c.z * c.x);
    let rho = f64::from(density);
    let inertia = Matrix3::new(ixx, ixy, izx, ixy, iyy, iyz, izx, iyz, izz) * rho;
    MassProperties {
        mass: (volume * rho) as f32,
        local_center: Point3::from(c.cast::<f32>()),
        inertia: inertia.cast::<f32>(),
    }
}

/// Eberly's per-axis polynomial sub-expressions of one triangle's coordinates.
struct Subexpressions {
    f1: f64,
    f2: f64,
    f3: f64,
    g0: f64,
    g1: f64,
    g2: f64,
}

impl Subexpressions {
    fn new(w0: f64, w1: f64, w2: f64) -> Self {
        let t0 = w0 + w1;
        let f1 = t0 + w2;
        let t1 = w0 * w0;
        let t2 = t1 + w1 * t0;
        let f2 = t2 + w2 * f1;
        let f3 = w0 * t1 + w1 * t2 + w2 * f2;
        Self {
            f1,
            f2,
            f3,
            g0: f2 + w0 * (f1 + w0),
            g1: f2 + w1 * (f1 + w1),
            g2: f2 + w2 * (f1 + w2),
        }
    }
}
