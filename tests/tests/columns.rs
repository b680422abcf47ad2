//! Columns of unit cubes stand (issue 41): the sandbox's columns against
//! rapier3d's, run side by side. A column of `n` unit cubes (density 1000)
//! on a fixed ground box, sleeping off, 1,500 steps of 1/60 s (25 s) at the
//! sandbox's and rapier's default settings. The contract: no cube moves
//! more than [`MAX_SIDEWAYS`] sideways at any step, and the top cube sinks
//! no more than rapier3d's does in the same run (its largest sink over the
//! run, and its sink at the end).
//!
//! The oracle for "standing" is geometric (a column stacked exactly has
//! nowhere to go but straight down), and the oracle for the sink is the
//! other engine, which shares no code with the sandbox.
//!
//! The frictionless columns stand since the narrow phase keeps a resting
//! face contact's world normal while its reference face turns by less than
//! 1e-2 rad (`keep_resting_normal` in the sandbox's
//! `collision/contact_recycling.rs`), as box3d's recycled contacts do.
//! Before, the weight carried across a face tilted by 1e-5 to 1e-4 rad
//! (rounding, the sweeps' point order) pushed the cube above sideways,
//! which offset the load and tilted the cube below further: the unstable
//! mode of a soft-contact column (its linearised model grows e-fold every
//! 23 s with 2 cubes, 1.7 s with 10). Measured (first step a cube passed
//! 5 cm, sleeping off): before, 2 frictionless cubes drifted 2 mm in 10 s
//! (tilt 1e-6 or 0 at the start alike), 30 cubes passed 5 cm at step 72;
//! after, no cube of the 25-, 30- or 40-cube column moves sideways at all
//! (0.0 m over 1,500 steps, as box3d's: a 1 mm offset of its top cube
//! stays exactly 1 mm). Tried alone on the same columns before settling
//! on the normal (30 cubes unless said): the direct solve of a manifold's
//! normal rows (branch `solver-direct-normal`) 424; with it, normals kept
//! within 1e-3 rad stand, within 2e-3 without it the 30 and 40 fall at
//! steps 59 and 125, within 5e-3 they stand.
//!
//! The friction-0.6 columns of 30 and 40 cubes stand since a resting
//! pair keeps its manifold past the recycling cap and the solver takes its
//! lever arms as they were when the manifold was computed (the last
//! section below). Before, at the default settings they buckled (first
//! step past 5 cm: 333 and 297, sleeping off, the top cube tilted by 1e-6
//! rad; 327 and 295 untilted). rapier3d's own columns in the same runs
//! sway by 3.9 cm (30 cubes) and 5.2 cm (40 cubes, past the bound at step
//! 474) and come back.
//!
//! What the friction mode is. Reduced: it is the same mode at every
//! height from 27 cubes (20, 22 and 25 stand within 6.4 mm, 9.6 mm and
//! 2.4 cm; 27 passes 5 cm at step 376), a smooth bend of the whole column
//! in which each cube turns with the one below it and no face slips (the
//! largest slip between faces stays at the 1.1 mm the settling leaves
//! while the top cube is already 0.4 m out). It grows e-fold every 126
//! steps with 30 cubes (168 with 27, 102 with 40; measured as the steps
//! from 1 cm to 10 cm sideways over ln 10). That is Euler buckling of a
//! column of hinges: static friction pins each face's centre to the face
//! below, and what keeps a cube from turning about that pin is the
//! tilt stiffness of the soft contact springs, `Σ m_i ω² r_i²`
//! (125 ω² N m/rad for two unit cubes of 1 t), against the weight above
//! it times its height. The eigenvalues of that hinge chain (a linear
//! model, no solver in it, springs at `contact_hertz` and twice that
//! against the ground, the tilt stiffened by `TILT_BIAS_FRACTION`) put the
//! tallest column that stands at 22 cubes at 30 Hz, 26 at 50 Hz, 27 at 60,
//! 30 at 80, 35 at 100 and 39 at 120; the sandbox at those frequencies
//! (8 substeps, first step past 5 cm, "-" for stands): 20 cubes: -, -, -,
//! -, -, -; 25: 227, -, -, -, -, -; 27: 210, 376, 771, -, -, -; 30: 213,
//! 333, 388, 589, -, -; 35: 207, 314, 349, 353, 407, -; 40: 245, 297, 342,
//! 341, 306, 356. The model predicts every row's limit within one or two
//! cubes. At 16 substeps (so a stiffer spring stays below the quarter of
//! the substep rate that the soft step is stable to), 160 Hz and 200 Hz,
//! the 40-cube column stands (2.8 cm and 2.5 cm). Without friction
//! nothing pins the faces, and the frictionless columns stand (above).
//!
//! Each suspect alone (the top cube tilted by 1e-6 rad; first step past
//! 5 cm and steps per e-fold for 27 / 30 / 40 cubes; default: 376, 168 /
//! 333, 126 / 297, 102). None changes the growth by more than a quarter
//! except those that stiffen the tilt, which is what the model says:
//! - relax pass's friction anchor off (`ANCHOR_RATE_FRACTION` 0): 297, 130
//!   / 261, 101 / 260, 83 (faster: the anchor is not the cause);
//! - one sweep of a manifold's normal rows, as box3d (no
//!   `converge_normal`): 376, 168 / 333, 126 / 297, 102 (unchanged);
//! - the sweeps converged to 1e-4 of the slop (`SWEEP_SLOP_FRACTION`):
//!   938, 197 / 633, 131 / 629, 107 (the settling's kick is smaller, so the
//!   mode starts lower; it grows as fast);
//! - friction solved in the push pass too: 446, 169 / 388, 135 / 360, 104;
//! - friction before the normal rows in the relax pass: 421, 172 / 335,
//!   126 / 306, 99;
//! - friction not warm started: 472, 194 / 334, 125 / 300, 103;
//! - friction at the midpoint rather than each body's surface point:
//!   378, 172 / 325, 119 / 295, 99;
//! - load stiffening off (`max_contact_sag` 0; no column contact is in a
//!   mass-ratio chain): unchanged, bit for bit;
//! - load stiffening for every contact, not only mass-ratio chains
//!   (sag 2 mm): 27 stands (2.9 cm), 30 passes at 265 (0.23 m at most),
//!   40 at 187 (79 steps per e-fold: the stiffened springs outgrow the
//!   tilt bias, which then adds nothing);
//! - `TILT_BIAS_FRACTION` 0: 299, 112 / 289, 102 / 277, 96; 0.2: 27 and
//!   30 stand, 40 passes at 661 (475 steps per e-fold), but pyramid 20
//!   walks (see `TILT_BIAS_FRACTION`);
//! - 16 substeps (same 50 Hz): 27 stands, 30 at 273 (6.4 cm at most), 40
//!   at 216;
//! - the contacts against static bodies batched after the others (as
//!   Box2D's colouring keeps them out of the first colour): 405, 171 /
//!   344, 129 / 349, 110;
//! - contact recycling off (`contact_recycling`, so every manifold is
//!   found again each step): 459, 200 / 348, 132 / 299, 99.
//!
//! All of box3d's choices together (static contacts last, one normal
//! sweep, no anchor, no tilt bias): 283, 102 / 295, 108 (30 cubes with the
//! anchor off) / 379, 130; at 20 Hz even 20 cubes pass 5 cm (step 154),
//! as the model says. The direct normal solve of branch
//! `solver-direct-normal` (931 with 40 cubes) delays the mode as the
//! converged sweeps do.
//!
//! So, with the sandbox's contacts as they are, standing 30 and 40 cubes
//! needs springs whose tilt is stiffer than the default 50 Hz gives: at 8 substeps the soft step caps
//! them at 120 Hz, enough for 35 cubes; 40 cubes need 16 substeps. The
//! tests `..._with_stiffer_contacts` pin that: the 30-cube column at
//! 100 Hz and the 40-cube column at 16 substeps and 160 Hz stand beside
//! rapier3d.
//!
//! box3d (30c67b5, a scratch C probe of the same column, sleeping off,
//! 8 substeps, top cube tilted 1e-6 rad) does not follow the model: its
//! springs compress as ours do (its 40-cube column's top sinks 15.6 cm at
//! 50 Hz, the model's 15.5 cm), but its 40-cube column stands at 50, 30
//! and 20 Hz (0.9, 1.5 and 4.0 cm at most, swaying back), passes 5 cm
//! only at 15 Hz (step 387, slowly) and 10 Hz (121), and 80 cubes stand at
//! 50 Hz (2.0 cm); the model's limit at 20 Hz is about 12 cubes. So its
//! tilt is far stiffer than its springs: its faces stay pinned as ours do
//! (the largest slip between faces of its 40-cube column at 20 Hz stays
//! at 0.33 mm while it sways 4 cm), and its cubes tilt by 1e-3 rad
//! without buckling. With every contact-solver choice of box3d's above,
//! ours still follows the model.
//!
//! Where box3d's tilt stiffness comes from (differential runs of the same
//! box3d probe with one mechanism of box3d's switched to ours at a time,
//! 40 cubes at 20 / 50 Hz unless said; first step past 5 cm, or the
//! largest sway of a column that stands): box3d as built 4.0 cm / 0.9 cm.
//! Not the cause:
//! - the rotation's effect on the separations within a step left out
//!   altogether (zeroth order, where ours is first order): 4.0 / 0.86 cm;
//! - the static contacts at our damping ratio (box3d halves it against
//!   static bodies): step 1208 (slowly) / 0.91 cm.
//!
//! The cause is box3d's contact recycling. Its recycled manifold keeps
//! each point's anchors as they were when the manifold was computed:
//! world-frame offsets from the bodies' centres, which do not turn with
//! the bodies. The separations are refreshed from the bodies' motion (the
//! anchors turned by each body's rotation since), but the solver's
//! Jacobians, lever arms and friction centre use the stale anchors, and
//! box3d recycles while the relative pose moves less than 10 linear slops
//! (5 cm) and about 10°, i.e. for as long as a column stands. A cube's
//! support then acts where the points were, not where its tilt has moved
//! them, which removes the tilt's own overturning lever (the hinge chain's
//! destabilising term). Measured:
//! - recycling off (`enableContactRecycling` false): 132 / 127;
//! - at most 3 consecutive recycled steps (ours, `MAX_RECYCLED_STEPS`):
//!   208 / 186;
//! - recycle distance 1 mm (ours, `RECYCLE_DISTANCE`): 189 / stands
//!   3.9 cm; 5 mm: 372 / 1.2 cm;
//! - recycling as built, but the solver's anchors turned with the bodies
//!   (the only change): 186 / 311, and the 30-cube column at 50 Hz falls
//!   at step 318 (it stands at 0.64 cm as built). That is ours (327 to 333
//!   for 30 cubes, 295 to 330 for 40), and the hinge-chain model.
//!
//! Ours recycles at most 3 steps within 1 mm and refreshes the points'
//! world positions, so its lever arms always turn with the bodies. Tried
//! in ours (scratch switches, not committed, in
//! `/work/tmp/columns-5-stale-anchor-switches.patch`; 40 cubes at 50 Hz
//! unless said, first step past 5 cm and steps per e-fold; default 330,
//! 111):
//! - recycling kept on (250 steps, 9 mm, 5°; 97 % of the column's pairs
//!   recycled over the first 250 steps): 261 to 283, 102 to 109 (two
//!   builds of the switches; 30 cubes: 325);
//! - and the solver's lever arms taken as at the manifold's computation,
//!   as box3d's (the points turned back by each body's rotation since):
//!   304, 126 (30 cubes: 317; at 20 Hz: 73);
//! - the recycled separations measured along the world normal kept from
//!   the computation, as box3d's, rather than the normal fixed in A
//!   (`/work/tmp/columns-6-world-normal-switches.patch`): no change (330,
//!   114 alone; 304, 126 with long recycling and stale arms);
//! - recycling kept on without the test that refuses a point crossing
//!   between touching and separated (box3d has no such test; it refused
//!   124 times in the first 250 steps, against 9,000 recycled): 110, 37;
//!   with the stale lever arms: 180, 69; with box3d's solver choices as
//!   well: 106, 47.
//!
//! So the stale lever arms slow the mode in ours too (69 against 37 steps
//! per e-fold), but ours' long-recycled manifolds grow the mode faster
//! than fresh ones, which box3d's do not: something else in ours'
//! recycled manifold (not the normal it measures along: the points'
//! midpoints kept in A rather than an anchor on each body, the drift and
//! slip refusals that still refresh 3 % of the pairs) feeds it, and that
//! is where to look next. Freezing the lever
//! arms is not physical (a real face's support moves with the face), but,
//! like `keep_resting_normal`, it ignores a tilt that is an artefact of
//! the soft contact; whether ours should do the same (and what it does to
//! the pyramids' and stacks' contracts) is open (issue 41).
//!
//! The two remaining candidates, tried (scratch switches, not committed,
//! in `/work/tmp/columns3-1-each-anchor-refusal-switches.patch`; top cube
//! tilted 1e-6 rad, 50 Hz, 8 substeps, sleeping off; first step past 5 cm
//! and steps per e-fold for 30 / 40 cubes; on this main: default 356, 129
//! / 330, 111; recycling kept on (250 steps, 9 mm, 5°) 286, 77 / 261, 109;
//! and with the stale lever arms 316, 42 / 303, 126):
//! - (a) each body's lever arm to its own material point (the recycled
//!   midpoint less or plus half that point's slip across the normal; the
//!   midpoint itself already follows A and B half each, not A alone):
//!   alone 347, 128 / 310, 110; with long recycling 290, 70 / 270, 115;
//!   with the stale arms as well 308, 35 / 307, 127. No effect: the slips
//!   are below a millimetre.
//! - (b) long recycling without the drift, rotation and slip refusals
//!   (a manifold refreshed only by the same-side and speculative tests
//!   and the 250-step cap): 285, 76 / 212, 32 (faster); with the stale
//!   arms 317, 42 / 215, 35; with (a) too 309, 35 / 225, 40.
//! - (b) with the same-side refusal off as well, so that only the cap
//!   refreshes a manifold: 325, 121 / 284, 103; with the stale arms
//!   1280, 436 / 547, 175 (the 30 cubes sway 11.7 cm at most); with (a)
//!   too 1329 / 635, 173 (and the world normal kept, as box3d's: 1343 /
//!   632). The cap sets the rate: with the stale arms and a cap of 50,
//!   100 and 255 steps: 360, 153 / 317, 121; 496, 193 / 362, 140; 1325,
//!   446 / 553, 177.
//! - No cap at all, no refusal but the speculative distance, and the
//!   stale arms (box3d's recycling, which refreshes only past 5 cm or
//!   about 10°; its bounds give the same numbers): both columns stand,
//!   30 cubes within 8.6 mm and 40 within 1.7 cm over 1,500 steps (with
//!   (a) too: 7.2 mm and 1.2 cm). Without the stale arms the same
//!   recycling falls as the default does (328, 126 / 284, 102). At 20 Hz,
//!   where box3d's 40 cubes stand (4.0 cm), ours still fall (30 cubes at
//!   192, 96 per e-fold; 40 at 66, 45).
//!
//! So (a) is not it, and the refusals are: every manifold computed afresh
//! takes its points, and so its lever arms, from the tilted geometry, and
//! the stale arms hold the mode back only between refreshes; any refusal
//! left on (most are the same-side test's, then the cap) refreshes the
//! column often enough to undo them. Standing at 50 Hz takes stale lever
//! arms and manifolds kept for as long as the column stands, which is a
//! change to what recycling promises (a manifold is never recomputed
//! while a body rests, so a feature that comes within reach is not found
//! and a point that drifts stays where it was found); not made here, the
//! two tests stay ignored. With those switches on (no cap, no refusal but
//! the speculative distance, stale arms), `cargo test --release -p sandbox
//! --test sandbox_tests -- stack pyramid column sleep threads determinism`
//! passes 44 and fails 3: a dropped cube still moves at 22 m/s after 2 s
//! (`resting`), a ragdoll is still awake after 20 s, and a pair's contact
//! event at step 12 is missed (`contact_events`); with box3d's 5 cm and
//! 10° bounds in place of no bound the same tests fail (and
//! `cube_dropped_flat`, `cube_dropped_tilted` and the ragdolls on their
//! terrain mesh): dropped cubes fall through the ground, so ours' points
//! kept that long miss the landing (not traced further).
//!
//! Session 21: kept manifolds and stale lever arms for resting pairs only.
//! Measured on the tests' own columns (no tilt, 50 Hz, 8 substeps,
//! friction 0.6, sleeping off, 1,500 steps; 30 / 40 cubes: the largest
//! sway, or the first step past 5 cm), each variant one build of scratch
//! switches (not committed):
//! - main as it was: 327 / 295;
//! - the switches above for every pair (no cap, no refusal but the
//!   speculative distance, stale arms): 8.7 mm / 1.67 cm; in
//!   `sandbox_tests` `resting`, `ragdoll` and `contact_events`, 5 of 12
//!   fail as reported above (the tilted dropped cubes at 22.1 m/s, the
//!   ragdoll awake after 20 s, its terrain landing, an event missed at
//!   step 54);
//! - why they fail (the same switches for every pair, with one refusal
//!   put back at a time): with the drift of B's surface bounded at 5 cm
//!   (box3d's 10 slops) and no other bound, all 12 pass; with the turn
//!   bounded at 5° or 10° but the drift unbounded, the tilted dropped
//!   cubes still pass through the ground (11.5 m/s after 2 s) and the
//!   event at step 54 is missed. So it is the drift: the events' script
//!   teleports balls by `set_pose` at zero velocity, and a manifold kept
//!   through a 0.1 m jump keeps separations measured from the old pose;
//!   the dropped cube keeps the points it was found with while its
//!   surface moves centimetres (not traced to the step). The ragdolls
//!   pass whenever the drift is bounded (not traced further). With the
//!   5 cm bound (and 5° or 10°, no slip or same-side test) the columns
//!   stand as with no bound (8.7 mm / 1.67 cm);
//! - the same, gated on the pair resting (`pair_rests` in the sandbox's
//!   `collision/contact_recycling.rs`: every point within the linear slop
//!   of touching, the two surfaces slower than 5 mm/s at every point and
//!   by their relative turn times B's radius), with 5 cm, 5° and 5 cm
//!   slip and no same-side test for the resting pairs: 1.04 / 2.58 cm,
//!   and all of `sandbox_tests` passes (245, 5 ignored as on main). The
//!   columns do not change with the resting pairs' bounds at 1° or 10°, 1 cm, a slip
//!   of 1 mm, the same-side test on, or points within 1 cm rather than
//!   the slop (1.04 / 2.58 cm each); at a resting speed of 1 mm/s: 9.0 mm
//!   / 1.24 cm; 2 cm/s: 9.1 mm / 2.23 cm. Without the stale arms they fall
//!   (325 / 300): the kept manifold alone does nothing;
//! - gated, with every refusal test of a moving pair kept (parry's 1 mm,
//!   1°, 1 mm slip, the same-side test): 9.9 mm / 2.29 cm. That is what
//!   the sandbox does now: a resting pair only loses the cap and takes
//!   its lever arms from the manifold's computation
//!   (`LeverTurn`), so a pair that moves, lands, slides or is teleported
//!   is recomputed as before. The 30- and 40-cube tests pass (9.9 mm and
//!   2.29 cm at most; the top cubes sink at most 8.8 and 17.4 cm and end
//!   8.7 and 15.6 cm down, within rapier3d's), as do the 25-cube, the
//!   frictionless and the stiffer-contact columns, and all of
//!   `sandbox_tests` (245 passed, 5 ignored as on main; no golden value
//!   changed). `sandbox bench` against main's binary, interleaved, two
//!   runs each (the machine shared with four builds, so times move by
//!   20 % or more): pyramid 20 sleeping off: penetration 1.17 mm (main
//!   1.20), drift 9.83 mm (10.11), ms/step 4.58 / 3.68 (main 4.05 / 4.35);
//!   sleeping on: drift 9.74 mm (9.87); large-pyramid: penetration 8.92 mm
//!   and drift 23.2 cm alike, its hash changed (7f6882a6d2f8b867, main
//!   c1704b6082a3b217), and its narrow phase 29.5–31.5 ms a step against
//!   15.0–20.7 ms (pyramid 20 sleeping off: 0.50–0.58 ms against
//!   0.06–0.19 ms; quieter reruns of large-pyramid: 18.0–19.2 ms against
//!   10.7–11.1 ms, the whole step 95–102 ms against 83–85 ms). Not the
//!   resting test itself: asked only past the cap (where the alternative
//!   is a computation) the narrow phase took as long (18.6–19.2 ms on
//!   large-pyramid, 0.50 ms on pyramid 20; not committed). Not traced:
//!   the suspects are the manifold and slab records grown by the two
//!   rotations (72 bytes a pair), and resting pairs that the stale arms
//!   keep moving by a few ulps, so that they take the recycling path
//!   where main's took the unchanged-pose one (issue 41, open).

use collide::nalgebra::Vector3;
use collide::{Cuboid, Shape};
use rapier3d::prelude::{ColliderBuilder, PhysicsWorld, RigidBodyBuilder, Vector};
use sandbox::{BodyDesc, StepSettings, World};

/// One step, seconds (rapier's default `dt`, checked below).
const DT: f32 = 1.0 / 60.0;

/// Steps of the run: 25 s.
const STEPS: usize = 1500;

/// Largest sideways move (m) of any cube at any step: the bound.
const MAX_SIDEWAYS: f32 = 0.05;

/// Cube density (kg/m³), the sandbox's default, given to rapier too.
const DENSITY: f32 = 1000.0;

/// What one run measured.
#[derive(Debug)]
struct Run {
    /// Largest horizontal distance of any cube from the column's axis at
    /// any step, and the first step it passed [`MAX_SIDEWAYS`].
    max_sideways: f32,
    first_past_bound: Option<usize>,
    /// The top cube's largest sink over the run, and its sink at the end.
    top_sink_max: f32,
    top_sink_end: f32,
}

impl Run {
    fn new() -> Self {
        Self { max_sideways: 0.0, first_past_bound: None, top_sink_max: 0.0, top_sink_end: 0.0 }
    }

    /// Records cube `level`'s centre `p` after step `step`.
    fn record(&mut self, step: usize, level: usize, n: usize, p: Vector3<f32>) {
        let sideways = (p.x * p.x + p.z * p.z).sqrt();
        // Written so that NaN counts as past the bound.
        if !(sideways <= MAX_SIDEWAYS) && self.first_past_bound.is_none() {
            self.first_past_bound = Some(step);
        }
        self.max_sideways = self.max_sideways.max(sideways);
        if level == n - 1 {
            let sink = 0.5 + level as f32 - p.y;
            self.top_sink_max = self.top_sink_max.max(sink);
            self.top_sink_end = sink;
        }
    }
}

/// The sandbox column: cubes created bottom-up, centres on the y axis,
/// at the default settings with sleeping off, or `settings`.
fn sandbox_column(n: usize, friction: f32, settings: Option<StepSettings>) -> Run {
    let settings =
        settings.unwrap_or(StepSettings { sleep_enabled: false, ..StepSettings::default() });
    assert!(!settings.sleep_enabled);
    let mut world = World::with_settings(settings).unwrap();
    world
        .add_body(
            BodyDesc::fixed(Shape::from(Cuboid::new(Vector3::new(50.0, 0.5, 50.0))))
                .with_position(Vector3::new(0.0, -0.5, 0.0))
                .with_friction(friction),
        )
        .unwrap();
    let ids: Vec<_> = (0..n)
        .map(|level| {
            let cube = BodyDesc::dynamic(Shape::from(Cuboid::new(Vector3::repeat(0.5))))
                .with_position(Vector3::new(0.0, 0.5 + level as f32, 0.0))
                .with_density(DENSITY)
                .with_friction(friction);
            world.add_body(cube).unwrap()
        })
        .collect();
    let mut run = Run::new();
    for step in 1..=STEPS {
        world.step(DT);
        world.validate().unwrap();
        for (level, &id) in ids.iter().enumerate() {
            // A body leaves the world only past its bounds: fallen.
            let p = world.pose(id).map_or(Vector3::repeat(f32::NAN), |p| p.translation.vector);
            run.record(step, level, n, p);
        }
    }
    run
}

/// The rapier3d column: the same bodies, default `IntegrationParameters`,
/// no body allowed to sleep; rapier's default friction rule (the average)
/// gives the pair the same coefficient as the sandbox's geometric mean.
fn rapier_column(n: usize, friction: f32) -> Run {
    let mut world = PhysicsWorld::new();
    assert_eq!(world.integration_parameters.dt, DT, "rapier's default step changed");
    world.insert(
        RigidBodyBuilder::fixed().translation(Vector::new(0.0, -0.5, 0.0)),
        ColliderBuilder::cuboid(50.0, 0.5, 50.0).friction(friction),
    );
    let handles: Vec<_> = (0..n)
        .map(|level| {
            let body = RigidBodyBuilder::dynamic()
                .translation(Vector::new(0.0, 0.5 + level as f32, 0.0))
                .can_sleep(false);
            let cube = ColliderBuilder::cuboid(0.5, 0.5, 0.5).density(DENSITY).friction(friction);
            world.insert(body, cube).0
        })
        .collect();
    let mut run = Run::new();
    for step in 1..=STEPS {
        world.step();
        for (level, &h) in handles.iter().enumerate() {
            let t = world.bodies[h].position().translation;
            run.record(step, level, n, Vector3::new(t.x, t.y, t.z));
        }
    }
    run
}

/// Runs both columns and checks the contract.
fn assert_column_stands(n: usize, friction: f32) {
    assert_column_stands_with(n, friction, None);
}

/// [`assert_column_stands`] with the sandbox at `settings` (sleeping off).
fn assert_column_stands_with(n: usize, friction: f32, settings: Option<StepSettings>) {
    let ours = sandbox_column(n, friction, settings);
    let theirs = rapier_column(n, friction);
    let label = format!("{n} cubes, friction {friction}: sandbox {ours:?}, rapier3d {theirs:?}");
    assert!(ours.first_past_bound.is_none(), "{label}: a cube moved past {MAX_SIDEWAYS} m");
    assert!(ours.top_sink_max <= theirs.top_sink_max, "{label}: the top cube sank further");
    assert!(ours.top_sink_end <= theirs.top_sink_end, "{label}: the top cube ended lower");
    // The column really was loaded: the top cube sank (the springs carry
    // the weight), but by less than a cube.
    assert!(ours.top_sink_end > 0.0 && ours.top_sink_max < 1.0, "{label}");
}

#[test]
fn a_column_of_25_with_friction_stands_25_s() {
    assert_column_stands(25, 0.6);
}

/// Stood 9.9 mm at most (rapier3d: 3.9 cm), since resting pairs keep
/// their lever arms (see the header).
#[test]
fn a_column_of_30_with_friction_stands_25_s() {
    assert_column_stands(30, 0.6);
}

/// Stood 2.3 cm at most (rapier3d: 5.2 cm), since resting pairs keep
/// their lever arms (see the header).
#[test]
fn a_column_of_40_with_friction_stands_25_s() {
    assert_column_stands(40, 0.6);
}

#[test]
fn frictionless_columns_of_25_30_and_40_stand_25_s() {
    for n in [25, 30, 40] {
        assert_column_stands(n, 0.0);
    }
}

/// The diagnosis of the friction mode (see the header): the hinge-chain
/// model of the soft contacts puts the tallest column that stands at 35
/// cubes at 100 Hz, so the 30-cube column that buckled at 50 Hz while
/// its lever arms turned with the cubes stands there (2.0 cm at most,
/// measured then). Fails if the mode had another cause.
#[test]
fn a_column_of_30_with_friction_stands_25_s_with_stiffer_contacts() {
    let settings =
        StepSettings { sleep_enabled: false, contact_hertz: 100.0, ..StepSettings::default() };
    assert_column_stands_with(30, 0.6, Some(settings));
}

/// As above for 40 cubes, which need more than the 120 Hz that 8
/// substeps allow (the model: 39 cubes at 120 Hz): at 16 substeps and
/// 160 Hz the column stands (2.8 cm at most, measured).
#[test]
fn a_column_of_40_with_friction_stands_25_s_with_stiffer_contacts() {
    let settings = StepSettings {
        sleep_enabled: false,
        substeps: 16,
        contact_hertz: 160.0,
        ..StepSettings::default()
    };
    assert_column_stands_with(40, 0.6, Some(settings));
}
