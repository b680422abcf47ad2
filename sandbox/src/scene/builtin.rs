//! The benchmark scenes, built exactly as `sandbox/SCENES.md` defines them so
//! the same scene can be run in another engine and compared. box3d's
//! scenes are built in `scene/box3d.rs`.

use core::fmt;
use core::str::FromStr;

use collide::nalgebra::{Point3, UnitQuaternion, Vector3};
use collide::{Capsule, ConvexHull, Cuboid, Shape, Sphere};

use crate::body::{BodyDesc, BodyId};
use crate::error::WorldError;
use crate::scene::box3d::{
    build_convex_pile, build_junkyard, build_large_pyramid, build_large_world, build_many_pyramids,
    build_washer,
};
use crate::scene::driver::{DROPPED_SPHERES, SceneDriver};
use crate::scene::joints::{build_bridge, build_chain, build_joint_grid, build_ragdolls};
use crate::scene::trees::build_trees;
use crate::world::World;

/// One of the named scenes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scene {
    /// A 2D pyramid of cubes, `size` at the base.
    Pyramid,
    /// `size` cubes dropped in a 10×10 grid of layers, slightly rotated.
    FallingBoxes,
    /// A single column of `size` cubes.
    Stack,
    /// A brick wall of `size` rows of 20 cubes.
    Wall,
    /// The falling-boxes layout cycling cube, sphere, capsule and hull.
    Mixed,
    /// box3d's `large_pyramid`: a pyramid of `size` (100) cubes at the
    /// base, density 100, sleeping off.
    LargePyramid,
    /// box3d's `many_pyramids`: `size` × `size` (14 × 14) pyramids of 55
    /// cubes, density 100, sleeping off.
    ManyPyramids,
    /// box3d's `convex_pile`: `size` (80) layers of 8 × 8 hulls of 32
    /// points, density 1.
    ConvexPile,
    /// `size` (20) capsule links hanging from a static body by ball joints,
    /// with a ball 1,000 times a link's mass at the end.
    Chain,
    /// `size` (40) planks on hinges between two static posts.
    Bridge,
    /// `size` × `size` (5 × 5) ragdolls dropped on the ground.
    Ragdolls,
    /// box3d's `joint_grid`: `size` × `size` (100 × 100) spheres held by
    /// ball joints, the top row static, sleeping off, no ground.
    JointGrid,
    /// box3d's `washer`: a kinematic drum of 40 hulls turning at 25°/s
    /// around `size`³ (20³) small cubes.
    Washer,
    /// box3d's `junkyard`: `size` (24) layers of 21 × 21 rock hulls in a
    /// walled yard, swept by a kinematic pusher driven to a target pose
    /// before each step.
    Junkyard,
    /// box3d's `large_world`: `size` × `size` (1000 × 1000) static floor
    /// tiles, onto which 100 spheres are dropped during the run.
    LargeWorld,
    /// box3d's `trees` (trees100 at size 1, trees50 at 2, trees25 at 4):
    /// 50 trees of 22 hexagonal prisms on a static wave mesh of
    /// 150 `size` × 200 `size` cells (`60,000 size²` triangles).
    Trees,
}

impl Scene {
    /// Every scene, in documentation order.
    pub const ALL: [Scene; 16] = [
        Scene::Pyramid,
        Scene::FallingBoxes,
        Scene::Stack,
        Scene::Wall,
        Scene::Mixed,
        Scene::LargePyramid,
        Scene::ManyPyramids,
        Scene::ConvexPile,
        Scene::Chain,
        Scene::Bridge,
        Scene::Ragdolls,
        Scene::JointGrid,
        Scene::Washer,
        Scene::Junkyard,
        Scene::LargeWorld,
        Scene::Trees,
    ];

    /// The scene's command-line name.
    pub fn name(self) -> &'static str {
        match self {
            Scene::Pyramid => "pyramid",
            Scene::FallingBoxes => "falling-boxes",
            Scene::Stack => "stack",
            Scene::Wall => "wall",
            Scene::Mixed => "mixed",
            Scene::LargePyramid => "large-pyramid",
            Scene::ManyPyramids => "many-pyramids",
            Scene::ConvexPile => "convex-pile",
            Scene::Chain => "chain",
            Scene::Bridge => "bridge",
            Scene::Ragdolls => "ragdolls",
            Scene::JointGrid => "joint-grid",
            Scene::Washer => "washer",
            Scene::Junkyard => "junkyard",
            Scene::LargeWorld => "large-world",
            Scene::Trees => "trees",
        }
    }

    /// How many dynamic bodies the scene creates at `size` (the ground
    /// aside; for `joint-grid`, its static top row too), or `None` if the
    /// count overflows a `u64`. `large-world`'s static floor tiles are
    /// counted with its dropped spheres (its size is about them), and
    /// `washer`'s drum and `junkyard`'s pusher, kinematic, are not.
    pub fn body_count(self, size: usize) -> Option<u64> {
        let n = u64::try_from(size).ok()?;
        match self {
            // Rows of N, N - 1, ..., 1 cubes.
            Scene::Pyramid | Scene::LargePyramid => n.checked_mul(n.checked_add(1)?).map(|x| x / 2),
            Scene::FallingBoxes | Scene::Stack | Scene::Mixed => Some(n),
            Scene::Wall => n.checked_mul(20),
            // Pyramids of base 10: 55 cubes each.
            Scene::ManyPyramids => n.checked_mul(n)?.checked_mul(55),
            Scene::ConvexPile => n.checked_mul(64),
            // The links and the ball.
            Scene::Chain => n.checked_add(1),
            Scene::Bridge => Some(n),
            Scene::Ragdolls => {
                n.checked_mul(n)?.checked_mul(crate::scene::ragdoll::RAGDOLL_PART_COUNT as u64)
            }
            Scene::JointGrid => n.checked_mul(n),
            Scene::Washer => n.checked_mul(n)?.checked_mul(n),
            Scene::Junkyard => n.checked_mul(21 * 21),
            Scene::LargeWorld => n.checked_mul(n)?.checked_add(DROPPED_SPHERES as u64),
            // Fifty trees whatever the size (which sets the ground's cells).
            Scene::Trees => Some(crate::scene::trees::TREE_COUNT as u64),
        }
    }

    /// How many joints the scene creates at `size`, or `None` if the
    /// count overflows a `u64`.
    ///
    /// ```
    /// use sandbox::Scene;
    /// assert_eq!(Scene::Chain.joint_count(20), Some(21));
    /// assert_eq!(Scene::Pyramid.joint_count(20), Some(0));
    /// // box3d's 19,800 but for the 99 between static spheres.
    /// assert_eq!(Scene::JointGrid.joint_count(100), Some(19_701));
    /// ```
    pub fn joint_count(self, size: usize) -> Option<u64> {
        let n = u64::try_from(size).ok()?;
        match self {
            // One per link and one for the ball; one per plank and one
            // for the far post.
            Scene::Chain | Scene::Bridge => n.checked_add(1),
            Scene::Ragdolls => {
                n.checked_mul(n)?.checked_mul(crate::scene::ragdoll::RAGDOLL_JOINT_COUNT as u64)
            }
            // n columns of n − 1 vertical joints, n − 1 columns of n − 1
            // horizontal ones below the static row.
            Scene::JointGrid => {
                let m = n.saturating_sub(1);
                n.checked_mul(m)?.checked_add(m.checked_mul(m)?)
            }
            _ => Some(0),
        }
    }

    /// The size used when none is given.
    pub fn default_size(self) -> usize {
        match self {
            Scene::Pyramid | Scene::Stack => 20,
            Scene::FallingBoxes => 1000,
            Scene::Wall => 10,
            Scene::Mixed => 500,
            Scene::LargePyramid => 100,
            Scene::ManyPyramids => 14,
            Scene::ConvexPile => 80,
            Scene::Chain => 20,
            Scene::Bridge => 40,
            Scene::Ragdolls => 5,
            Scene::JointGrid => 100,
            Scene::Washer => 20,
            Scene::Junkyard => 24,
            Scene::LargeWorld => 1000,
            Scene::Trees => 1,
        }
    }

    /// The steps `sandbox bench` runs when not told: 600 (10 s) for the
    /// sandbox's own scenes, and for box3d's the steps its `benchmark` app
    /// times, so the two are compared on the same run.
    pub fn default_steps(self) -> u64 {
        match self {
            Scene::Pyramid | Scene::FallingBoxes | Scene::Stack | Scene::Wall | Scene::Mixed => 600,
            Scene::Chain | Scene::Bridge | Scene::Ragdolls => 600,
            Scene::LargePyramid => 200,
            Scene::ManyPyramids | Scene::JointGrid => 100,
            Scene::ConvexPile | Scene::Junkyard | Scene::LargeWorld | Scene::Trees => 500,
            Scene::Washer => 1000,
        }
    }

    /// Whether the scene is one of box3d's benchmark scenes, which bring
    /// their own ground, densities and sleep setting (see `scene/box3d.rs`).
    pub fn is_box3d(self) -> bool {
        matches!(
            self,
            Scene::LargePyramid
                | Scene::ManyPyramids
                | Scene::ConvexPile
                | Scene::Washer
                | Scene::Junkyard
                | Scene::LargeWorld
                | Scene::JointGrid
                | Scene::Trees
        )
    }
}

impl fmt::Display for Scene {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A scene name that is not one of [`Scene::ALL`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownScene(pub String);

impl fmt::Display for UnknownScene {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown scene `{}`; expected one of:", self.0)?;
        for s in Scene::ALL {
            write!(f, " {s}")?;
        }
        Ok(())
    }
}

impl std::error::Error for UnknownScene {}

impl FromStr for Scene {
    type Err = UnknownScene;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Scene::ALL
            .into_iter()
            .find(|scene| scene.name() == s)
            .ok_or_else(|| UnknownScene(s.to_owned()))
    }
}

/// Why a scene could not be built.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum SceneError {
    /// The icosahedron hull of the mixed scene, or convex-pile's hull,
    /// could not be built.
    Hull(collide::HullError),
    /// The world refused a body or a joint.
    World(WorldError),
    /// The scene's mesh could not be built (`trees`' ground at a size too
    /// large to index).
    Composite(collide::composite::CompositeError),
    /// The scene at this size would create more than [`MAX_SCENE_BODIES`]
    /// bodies; nothing was built.
    TooManyBodies {
        /// The scene asked for.
        scene: Scene,
        /// Its size.
        size: usize,
        /// The bodies it would create (`None`: more than a `u64` counts).
        bodies: Option<u64>,
    },
}

impl fmt::Display for SceneError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Hull(_) => f.write_str("building the scene's hull failed"),
            Self::Composite(_) => f.write_str("building the scene's mesh failed"),
            Self::World(_) => f.write_str("adding a body or a joint failed"),
            Self::TooManyBodies { scene, size, bodies } => {
                match bodies {
                    Some(n) => write!(f, "{scene} of size {size} would create {n} bodies")?,
                    None => write!(f, "{scene} of size {size} would create over 2^64 bodies")?,
                }
                write!(f, ", more than the limit of {MAX_SCENE_BODIES}")
            }
        }
    }
}

impl std::error::Error for SceneError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::Hull(e) => Some(e),
            Self::Composite(e) => Some(e),
            Self::World(e) => Some(e),
            Self::TooManyBodies { .. } => None,
        }
    }
}

impl From<WorldError> for SceneError {
    fn from(e: WorldError) -> Self {
        Self::World(e)
    }
}

/// Most bodies one scene, built-in or from a file, may create: two
/// million, room for `large-world`'s million static tiles and its spheres
/// (a static body of one cuboid takes about 0.5 kB between the body
/// arrays, its shape and the broad phase, so a million is about half a
/// gigabyte). Checked before anything is allocated.
pub const MAX_SCENE_BODIES: u64 = 2_000_000;

/// Bodies a scene creates beyond [`Scene::body_count`]: the ground, and
/// `washer`'s drum or `junkyard`'s pusher. [`build_scene`] reserves room
/// for these too, so that none of them grows (doubles) the per-body arrays.
const SCENE_BODIES_UNCOUNTED: usize = 2;

/// The half-extents of every scene cube, metres.
const CUBE_HALF: f32 = 0.5;

/// Adds the ground: a fixed box (50, 0.5, 50) centred at (0, -0.5, 0).
pub fn add_ground(world: &mut World) -> Result<BodyId, WorldError> {
    world.add_body(
        BodyDesc::fixed(Cuboid::new(Vector3::new(50.0, 0.5, 50.0)).into())
            .with_position(Vector3::new(0.0, -0.5, 0.0)),
    )
}

fn cube() -> Shape {
    Cuboid::new(Vector3::repeat(CUBE_HALF)).into()
}

/// Builds `scene` of the given size into `world` (ground first, then the
/// bodies in the documented order) and returns the dynamic bodies' handles.
///
/// box3d's scenes bring their own ground (a box of their half-extents with
/// its top at y = 0) and, like box3d's own scene code, their own sleep
/// setting: `large-pyramid` and `many-pyramids` turn the world's sleeping
/// off.
///
/// # Errors
/// [`SceneError::TooManyBodies`] past [`MAX_SCENE_BODIES`], before any body
/// is added; otherwise whatever the world refuses.
///
/// ```
/// use sandbox::{Scene, World, build_scene};
/// let mut world = World::new();
/// let bodies = build_scene(&mut world, Scene::Pyramid, 20).unwrap();
/// assert_eq!(bodies.len(), 210);
/// ```
pub fn build_scene(
    world: &mut World,
    scene: Scene,
    size: usize,
) -> Result<Vec<BodyId>, SceneError> {
    build_scene_with_driver(world, scene, size).map(|(ids, _)| ids)
}

/// Builds `scene` as [`build_scene`] does and returns, with the dynamic
/// bodies' handles, the scene's [`SceneDriver`]: what it does before each
/// step (`junkyard` moves its pusher, `large-world` drops its spheres;
/// the others nothing). Whoever steps the scene calls
/// [`SceneDriver::before_step`] before every step.
///
/// # Errors
/// As [`build_scene`].
pub fn build_scene_with_driver(
    world: &mut World,
    scene: Scene,
    size: usize,
) -> Result<(Vec<BodyId>, SceneDriver), SceneError> {
    let bodies = scene.body_count(size);
    let Some(count) = bodies.filter(|&n| n <= MAX_SCENE_BODIES) else {
        return Err(SceneError::TooManyBodies { scene, size, bodies });
    };
    // Room for the whole scene at once, so the per-body arrays (and the
    // per-slot arrays sized to their capacity) hold the scene's bodies
    // rather than the next power of two past them: pyramid 100's 5,051
    // bodies otherwise leave 8,192 slots in every one of them.
    let count = count as usize; // At most MAX_SCENE_BODIES.
    world.reserve_bodies(count + SCENE_BODIES_UNCOUNTED)?;
    let mut ids = Vec::with_capacity(count);
    match scene {
        Scene::Washer => {
            build_washer(world, size, &mut ids)?;
            return Ok((ids, SceneDriver::nothing()));
        }
        Scene::Junkyard => {
            let driver = build_junkyard(world, size, &mut ids)?;
            return Ok((ids, driver));
        }
        Scene::LargeWorld => {
            let driver = build_large_world(world, size)?;
            return Ok((ids, driver));
        }
        _ => {}
    }
    let ids = build_scene_bodies(world, scene, size, ids)?;
    Ok((ids, SceneDriver::nothing()))
}

/// The scenes that need no driver, into `ids`.
fn build_scene_bodies(
    world: &mut World,
    scene: Scene,
    size: usize,
    mut ids: Vec<BodyId>,
) -> Result<Vec<BodyId>, SceneError> {
    match scene {
        Scene::LargePyramid => {
            build_large_pyramid(world, size, &mut ids)?;
            return Ok(ids);
        }
        Scene::ManyPyramids => {
            build_many_pyramids(world, size, &mut ids)?;
            return Ok(ids);
        }
        Scene::ConvexPile => {
            build_convex_pile(world, size, &mut ids)?;
            return Ok(ids);
        }
        Scene::Chain => {
            build_chain(world, size, &mut ids)?;
            return Ok(ids);
        }
        Scene::Bridge => {
            build_bridge(world, size, &mut ids)?;
            return Ok(ids);
        }
        Scene::Ragdolls => {
            build_ragdolls(world, size, &mut ids)?;
            return Ok(ids);
        }
        Scene::JointGrid => {
            build_joint_grid(world, size, &mut ids)?;
            return Ok(ids);
        }
        Scene::Trees => {
            build_trees(world, size, &mut ids)?;
            return Ok(ids);
        }
        _ => {}
    }
    add_ground(world)?;
    let mut add = |world: &mut World,
                   shape: Shape,
                   p: Vector3<f32>,
                   q: UnitQuaternion<f32>|
     -> Result<(), SceneError> {
        ids.push(world.add_body(BodyDesc::dynamic(shape).with_position(p).with_rotation(q))?);
        Ok(())
    };
    let id = UnitQuaternion::identity();
    match scene {
        Scene::Pyramid => {
            for r in 0..size {
                let c = size - r;
                for j in 0..c {
                    let x = j as f32 - (c as f32 - 1.0) / 2.0;
                    add(world, cube(), Vector3::new(x, 0.5 + r as f32, 0.0), id)?;
                }
            }
        }
        Scene::Stack => {
            for i in 0..size {
                add(world, cube(), Vector3::new(0.0, 0.5 + i as f32, 0.0), id)?;
            }
        }
        Scene::Wall => {
            for r in 0..size {
                let shift = if r % 2 == 1 { 0.5 } else { 0.0 };
                for j in 0..20 {
                    add(
                        world,
                        cube(),
                        Vector3::new(j as f32 - 9.5 + shift, 0.5 + r as f32, 0.0),
                        id,
                    )?;
                }
            }
        }
        Scene::FallingBoxes => {
            for k in 0..size {
                let (p, q) = falling_pose(k);
                add(world, cube(), p, q)?;
            }
        }
        Scene::Mixed => {
            let hull = icosahedron(0.6).map_err(SceneError::Hull)?;
            for k in 0..size {
                let (p, q) = falling_pose(k);
                let shape = match k % 4 {
                    0 => cube(),
                    1 => Sphere::new(0.5).into(),
                    2 => Capsule::new(0.5, 0.3).into(),
                    _ => hull.clone().into(),
                };
                add(world, shape, p, q)?;
            }
        }
        // Built above.
        Scene::LargePyramid
        | Scene::ManyPyramids
        | Scene::ConvexPile
        | Scene::Chain
        | Scene::Bridge
        | Scene::Ragdolls
        | Scene::JointGrid
        | Scene::Washer
        | Scene::Junkyard
        | Scene::LargeWorld
        | Scene::Trees => {}
    }
    Ok(ids)
}

/// The pose of body `k` in the falling-boxes layout.
fn falling_pose(k: usize) -> (Vector3<f32>, UnitQuaternion<f32>) {
    let layer = (k / 100) as f32;
    let row = ((k % 100) / 10) as f32;
    let col = (k % 10) as f32;
    let p = Vector3::new((col - 4.5) * 1.5, 2.0 + layer * 1.5, (row - 4.5) * 1.5);
    let roll = 0.1 * (k % 7) as f32;
    let pitch = 0.1 * (k % 5) as f32;
    let yaw = 0.1 * (k % 3) as f32;
    (p, UnitQuaternion::from_euler_angles(roll, pitch, yaw))
}

/// The convex hull of the 12 vertices of an icosahedron of the given
/// circumradius: the cyclic permutations of `(0, ±1, ±φ)`, scaled.
pub fn icosahedron(circumradius: f32) -> Result<ConvexHull, collide::HullError> {
    let phi = (1.0 + 5.0f32.sqrt()) / 2.0;
    let scale = circumradius / (1.0 + phi * phi).sqrt();
    let mut points = Vec::with_capacity(12);
    for (a, b) in [(1.0, phi), (-1.0, phi), (1.0, -phi), (-1.0, -phi)] {
        points.push(Point3::new(0.0, a, b) * scale);
        points.push(Point3::new(a, b, 0.0) * scale);
        points.push(Point3::new(b, 0.0, a) * scale);
    }
    ConvexHull::new(&points)
}
