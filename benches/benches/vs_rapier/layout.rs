//! The benchmark scenes transcribed from `sandbox/SCENES.md` a second time,
//! independently of `sandbox::build_scene`, as a list of body specifications
//! that the rapier side is built from. `sandbox_side` checks this list body
//! by body against the world `sandbox::build_scene` made, so a difference
//! between the two builds stops the run instead of skewing the comparison.
//! Besides the common scenes it transcribes box3d's `many-pyramids` (its
//! own ground, density and sleeping), for the scaling sweep.

use nalgebra::{Point3, UnitQuaternion, Vector3};
use sandbox::Scene;

/// Half-extents of every scene cube, metres (SCENES.md).
pub const CUBE_HALF: f32 = 0.5;
/// Half-extents of the ground cuboid, metres (SCENES.md).
pub const GROUND_HALF: [f32; 3] = [50.0, 0.5, 50.0];
/// Centre height of the ground cuboid, so its top face is at y = 0.
pub const GROUND_Y: f32 = -0.5;
/// Density of every dynamic body of the SCENES.md common scenes, kg/m³.
pub const DENSITY: f32 = 1000.0;
/// Density of `many-pyramids`' cubes, kg/m³ (box3d's 100, SCENES.md).
pub const MANY_PYRAMIDS_DENSITY: f32 = 100.0;
/// Cubes along the base of each of `many-pyramids`' small pyramids.
pub const SMALL_PYRAMID_BASE: usize = 10;
/// Friction coefficient of every body, ground included.
pub const FRICTION: f32 = 0.6;
/// Restitution coefficient of every body, ground included.
pub const RESTITUTION: f32 = 0.0;
/// Radius of the mixed scene's spheres, metres.
pub const SPHERE_RADIUS: f32 = 0.5;
/// Half-height of the core segment of the mixed scene's capsules, metres.
pub const CAPSULE_HALF_HEIGHT: f32 = 0.5;
/// Radius of the mixed scene's capsules, metres.
pub const CAPSULE_RADIUS: f32 = 0.3;
/// Circumradius of the mixed scene's icosahedron hulls, metres.
pub const ICOSAHEDRON_CIRCUMRADIUS: f32 = 0.6;

/// The shape of one dynamic body.
#[derive(Clone, Debug, PartialEq)]
pub enum ShapeSpec {
    /// A cube of half-extent [`CUBE_HALF`].
    Cube,
    /// A sphere of radius [`SPHERE_RADIUS`].
    Sphere,
    /// A capsule along local Y.
    Capsule,
    /// The convex hull of these vertices (the icosahedron's, from
    /// `sandbox::icosahedron`, so both engines get the very same points).
    Hull(Vec<Point3<f32>>),
}

impl ShapeSpec {
    /// Radius of a sphere about the body origin that contains the shape.
    pub fn bounding_radius(&self) -> f32 {
        match self {
            ShapeSpec::Cube => CUBE_HALF * 3.0f32.sqrt(),
            ShapeSpec::Sphere => SPHERE_RADIUS,
            ShapeSpec::Capsule => CAPSULE_HALF_HEIGHT + CAPSULE_RADIUS,
            ShapeSpec::Hull(v) => v.iter().map(|p| p.coords.norm()).fold(0.0, f32::max),
        }
    }
}

/// The static ground cuboid a scene stands on, centred on the y axis.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GroundSpec {
    /// Half-extents, metres.
    pub half_extents: [f32; 3],
    /// Height of its centre, metres (its top face is at y = 0 in every scene).
    pub centre_y: f32,
}

/// The ground common to SCENES.md's scenes: (50, 0.5, 50) centred at y = -0.5.
pub const COMMON_GROUND: GroundSpec = GroundSpec { half_extents: GROUND_HALF, centre_y: GROUND_Y };

/// The ground of `scene` at `size`: the common one, or for `many-pyramids`
/// a cuboid of half-extents (g, 1, g) centred at y = -1 with
/// g = 0.5 · 11 · N (SCENES.md, "box3d's benchmark scenes").
pub fn ground(scene: Scene, size: usize) -> GroundSpec {
    match scene {
        Scene::ManyPyramids => {
            let g = many_pyramids_half_width(size);
            GroundSpec { half_extents: [g, 1.0, g], centre_y: -1.0 }
        }
        _ => COMMON_GROUND,
    }
}

/// Whether the scene lets its bodies sleep when the run does: every body of
/// `many-pyramids` is created never to sleep (SCENES.md), so that scene
/// runs with sleeping off in both engines whatever the run asks.
// `vs_rapier`, which includes this file too, runs no such scene.
#[allow(dead_code)]
pub fn may_sleep(scene: Scene) -> bool {
    !matches!(scene, Scene::ManyPyramids)
}

/// `many-pyramids`' g, the ground's half-width: 0.5 · 11 · N, exact in f32
/// (a multiple of 0.5 far below 2²³).
fn many_pyramids_half_width(n: usize) -> f32 {
    CUBE_HALF * n as f32 * (SMALL_PYRAMID_BASE as f32 + 1.0)
}

/// One dynamic body in creation order.
#[derive(Clone, Debug)]
pub struct BodySpec {
    /// Its shape.
    pub shape: ShapeSpec,
    /// Its density, kg/m³.
    pub density: f32,
    /// Start position of the shape frame, metres.
    pub position: Vector3<f32>,
    /// Start orientation of the shape frame.
    pub rotation: UnitQuaternion<f32>,
}

/// The dynamic bodies of `scene` at `size`, in SCENES.md's creation order
/// (the ground, created first, is [`ground`]'s).
pub fn dynamic_bodies(scene: Scene, size: usize) -> Result<Vec<BodySpec>, collide::HullError> {
    let cube = |x: f32, y: f32| BodySpec {
        shape: ShapeSpec::Cube,
        density: DENSITY,
        position: Vector3::new(x, y, 0.0),
        rotation: UnitQuaternion::identity(),
    };
    let mut out = Vec::new();
    match scene {
        Scene::Pyramid => {
            for r in 0..size {
                let c = size - r;
                for j in 0..c {
                    out.push(cube(j as f32 - (c as f32 - 1.0) / 2.0, 0.5 + r as f32));
                }
            }
        }
        Scene::Stack => {
            for i in 0..size {
                out.push(cube(0.0, 0.5 + i as f32));
            }
        }
        Scene::Wall => {
            for r in 0..size {
                let shift = if r % 2 == 1 { 0.5 } else { 0.0 };
                for j in 0..20 {
                    out.push(cube(j as f32 - 9.5 + shift, 0.5 + r as f32));
                }
            }
        }
        Scene::FallingBoxes | Scene::Mixed => {
            let hull = sandbox::icosahedron(ICOSAHEDRON_CIRCUMRADIUS)?.vertices().to_vec();
            for k in 0..size {
                let shape = match (scene, k % 4) {
                    (Scene::FallingBoxes, _) | (_, 0) => ShapeSpec::Cube,
                    (_, 1) => ShapeSpec::Sphere,
                    (_, 2) => ShapeSpec::Capsule,
                    _ => ShapeSpec::Hull(hull.clone()),
                };
                let (layer, row, col) =
                    ((k / 100) as f32, ((k % 100) / 10) as f32, (k % 10) as f32);
                let (roll, pitch, yaw) =
                    (0.1 * (k % 7) as f32, 0.1 * (k % 5) as f32, 0.1 * (k % 3) as f32);
                out.push(BodySpec {
                    shape,
                    density: DENSITY,
                    position: Vector3::new((col - 4.5) * 1.5, 2.0 + layer * 1.5, (row - 4.5) * 1.5),
                    rotation: UnitQuaternion::from_euler_angles(roll, pitch, yaw),
                });
            }
        }
        Scene::ManyPyramids => many_pyramids(size, &mut out),
        // Compared with box3d itself (benches/VS_BOX3D.md), not with rapier.
        Scene::LargePyramid
        | Scene::ConvexPile
        | Scene::Washer
        | Scene::Junkyard
        | Scene::LargeWorld
        | Scene::JointGrid
        | Scene::Trees => {
            panic!("{scene} is one of box3d's scenes, not part of the rapier comparison")
        }
        // Joint scenes: the rapier comparison builds no joints.
        Scene::Chain | Scene::Bridge | Scene::Ragdolls => {
            panic!("{scene} has joints, not part of the rapier comparison")
        }
    }
    Ok(out)
}

/// `many-pyramids` at N (SCENES.md): N × N pyramids of base 10, pyramid row
/// a (in z) outermost, then column b (in x), then layer i, then cube j.
///
/// SCENES.md writes row a's z in closed form, −g + 1 + a · 2(g − 1)/(N − 1);
/// box3d's file, which SCENES.md defers to, adds the f32 spacing up row by
/// row instead, and so does this transcription, so that both engines start
/// at the same bits (the two forms differ by rounding only, a few ulps of
/// g; the scaling bench's smoke test checks that bound). Every x and y is a
/// multiple of 0.5 of a few hundred at most, so exact in f32.
fn many_pyramids(n: usize, out: &mut Vec<BodySpec>) {
    let g = many_pyramids_half_width(n);
    // Infinite for N = 1, whose single row never adds it.
    let spacing_z = 2.0 * (g - 1.0) / (n as f32 - 1.0);
    let mut z = -g + 1.0;
    for _a in 0..n {
        for b in 0..n {
            let centre_x = -g + (SMALL_PYRAMID_BASE as f32 + 1.0) * b as f32 + 1.0;
            for i in 0..SMALL_PYRAMID_BASE {
                for j in i..SMALL_PYRAMID_BASE {
                    out.push(BodySpec {
                        shape: ShapeSpec::Cube,
                        density: MANY_PYRAMIDS_DENSITY,
                        position: Vector3::new(
                            0.5 * i as f32 + (j - i) as f32 + centre_x,
                            i as f32 + 0.5,
                            z,
                        ),
                        rotation: UnitQuaternion::identity(),
                    });
                }
            }
        }
        z += spacing_z;
    }
}
