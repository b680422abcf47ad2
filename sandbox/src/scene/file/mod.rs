//! Custom scenes read from TOML files: optional step settings, the ground
//! flag and a list of bodies, each optionally repeated on a grid. A file is
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
//! ```

mod composite_shapes;
mod error;
mod location;
mod raw;
mod scene_file;
mod validate;

pub use error::SceneFileError;
pub use location::Location;
pub use scene_file::{MAX_SCENE_FILE_BYTES, SceneFile};
pub use validate::{MAX_CONTACT_HERTZ, MAX_HULL_POINTS, MAX_ITERATIONS, MAX_SUBSTEPS};
