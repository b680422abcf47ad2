//! The world's length tolerances. All assume bodies around a metre in size
//! (the scenes' cubes are 1 m); a world of millimetre parts would scale them.

/// Penetration the solver leaves in place so contacts stay touching instead
/// of jittering in and out: 5 mm, half a percent of a 1 m cube (Box2D's value).
pub const LINEAR_SLOP: f32 = 0.005;

/// Pairs closer than this get speculative contact points, so a fast body
/// meets the ground at the step it arrives rather than one step late: 2 cm,
/// the distance a body falling at 1.2 m/s covers in one 1/60 s step.
pub const SPECULATIVE_DISTANCE: f32 = 4.0 * LINEAR_SLOP;

/// How far a body's broad-phase box is fattened beyond its tight box, so most
/// steps need no broad-phase update: 10 cm, a tenth of a cube.
pub const AABB_MARGIN: f32 = 0.1;

/// A static-friction anchor whose two points have drifted farther apart than
/// this along the surface is replaced: 1 mm, a fifth of the linear slop. A
/// resting contact's anchor gap stays far below it (tenths of a millimetre),
/// while a rolling body's contact point leaves its anchor at once, so rolling
/// is never pulled back by more than the anchor rate times 1 mm (~1 cm/s).
pub const ANCHOR_RESET_DISTANCE: f32 = 0.2 * LINEAR_SLOP;
