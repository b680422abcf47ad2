//! Custom scenes read from TOML files: optional step settings, the ground
//! flag, a list of bodies, each optionally repeated on a grid, and joints
//! between them. A file is
//! at most [`MAX_SCENE_FILE_BYTES`] long, and the work and memory of reading
//! it are bounded by that, [`MAX_HULL_POINTS`] and `MAX_SCENE_BODIES`.
//!
//! Reading goes in three steps, a module each: `raw` (serde and the `toml`
//! crate read flat structs whose every value keeps its span), `validate`
//! (each value checked and converted, naming the line and column of the
//! first bad one) and `scene_file` (the validated [`SceneFile`], which
//! builds into a world). `error` holds [`SceneFileError`] and shows it as
//! a compiler would; `location` turns byte offsets into lines and columns.
//!
//! The format:
//!
//! ```toml
//! ground = true                 # the SCENES.md ground; default true
//!
//! [settings]                    # every key optional; defaults: StepSettings::default()
//! gravity = [0.0, -9.81, 0.0]
//! substeps = 8                  # 1 to MAX_SUBSTEPS (64)
//! push_iterations = 1           # soft sweeps per substep, 1 to 16
//! relax_iterations = 1          # rigid sweeps per substep, 1 to 16
//! contact_hertz = 50.0          # contact spring frequency, (0, 1000]
//! contact_recycling = true      # move touching manifolds instead of recomputing
//! sleep = true
//!
//! [[body]]
//! kind = "dynamic"              # or "fixed" ("static" is read too), or "kinematic"
//!                               # (moved by its velocities alone); default "dynamic"
//! shape = { type = "cuboid", half_extents = [0.5, 0.5, 0.5] }
//! # or { type = "sphere", radius = 0.5 }
//! # or { type = "capsule", half_height = 0.5, radius = 0.3 }   (along local Y)
//! # or { type = "hull", points = [[x, y, z], ...] }   (at most MAX_HULL_POINTS)
//! # or { type = "cylinder", half_height = 0.5, radius = 0.3 }  (along local Y)
//! # or { type = "cone", half_height = 0.5, radius = 0.3 }  (along local Y, apex up)
//! # or { type = "triangle", points = [[x, y, z], [x, y, z], [x, y, z]] }  (fixed only)
//! # or { type = "rounded", radius = 0.05, shape = { type = "cuboid", ... } }
//! # or { type = "mesh", vertices = [[x, y, z], ...], triangles = [[i, j, k], ...] }
//! #    (fixed or kinematic only; indices from 0, corners not on one line)
//! # or { type = "heightfield", heights = [[h, ...], ...], cell = [dx, dz] }
//! #    (fixed or kinematic only; each row along x, rows along z, centred
//! #    on the body; at least 2 × 2 heights, every row as long)
//! # or { type = "compound", parts = [{ shape = {...}, position = [...], rotation = {...} }, ...] }
//! #    (convex parts, each at its pose in the compound)
//! position = [0.0, 0.5, 0.0]    # default origin
//! rotation = { euler = [0.1, 0.2, 0.3] }   # roll, pitch, yaw (radians), nalgebra's
//! # or rotation = { quaternion = [1.0, 0.0, 0.0, 0.0] }   # w, x, y, z; normalised
//! linear_velocity = [0.0, 0.0, 0.0]
//! angular_velocity = [0.0, 0.0, 0.0]
//! density = 1000.0
//! friction = 0.6
//! restitution = 0.0
//! rolling_resistance = 0.0      # zero or positive; box3d's rolling resistance
//! sleep_threshold = 0.05        # m/s; default the world's sleep_velocity
//! repeat = { count = [1, 5, 1], step = [0.0, 1.0, 0.0] }   # optional grid
//!
//! [[joint]]                     # after the bodies; see sandbox::JointDesc
//! kind = "revolute"             # "spherical", "revolute", "prismatic", "weld", "distance"
//! bodies = [1, 2]               # creation-order indices; the ground, when present, is 0
//! anchor = [0.0, 1.0, 0.0]      # world frame, at creation
//! anchor_b = [0.0, 2.0, 0.0]    # distance only (required): the anchor on the second body
//! axis = [0.0, 0.0, 1.0]        # revolute and prismatic (required); spherical: cone and
//!                               # twist axis (required with limits); default z
//! limits = [-0.5, 0.5]          # revolute angle (rad), prismatic slide (m), distance length
//!                               # range (m, >= 0), spherical twist (rad, in [-π, π])
//! cone_limit = 0.5              # spherical only, rad in (0, π]
//! motor = { speed = 1.0, max_force = 10.0 }   # revolute and prismatic
//! friction = 0.1                # revolute, prismatic, spherical: N·m or N
//! softness = { hertz = 60.0, damping_ratio = 2.0 }
//! spring = { hertz = 2.0, damping_ratio = 0.5 }   # distance only
//! collide_connected = false     # default false
//! break_force = 1e4             # N; break_torque, N·m; default never
//! ```
//!
//! Each key a joint's kind does not take, each missing one it needs,
//! limits in the wrong order, a body index past the bodies and a joint of
//! a body to itself are reported at their line and column.

mod composite_shapes;
mod error;
mod joint;
mod location;
mod raw;
mod scene_file;
mod validate;

pub use error::SceneFileError;
pub use location::Location;
pub use scene_file::{MAX_SCENE_FILE_BYTES, SceneFile};
pub use validate::{MAX_CONTACT_HERTZ, MAX_HULL_POINTS, MAX_ITERATIONS, MAX_SUBSTEPS};
