//! The write-back stage: the solved poses and velocities of the awake
//! bodies go from the solver's compact bodies back to the body storage,
//! the velocities clamped to the speed limits as they go, and each body's
//! travel bound grows by how far any of its points moved.

use collide::nalgebra::{Isometry3, Translation3, UnitQuaternion, Vector3};

use crate::body::storage::{Bodies, MOVERS_SHARE_FOR_ALL_SLOTS};
use crate::slot_visits;
use crate::solver::integrate::clamped;
use crate::solver::solve::{BODIES_PER_CHUNK, SolverScratch};
use crate::stage_times::{Stage, StageTimes};
use crate::workers::{Workers, slots_in};

/// Writes the solved poses and velocities of the awake bodies back to the
/// body storage, and grows each body's travel bound by how far any of its
/// points moved. Runs on the workers in fixed runs of [`BODIES_PER_CHUNK`]
/// body slots, each writing only its own slots: the same bits for any
/// thread count.
pub(crate) fn write_back(
    bodies: &mut Bodies,
    scratch: &SolverScratch,
    workers: &Workers,
    times: &mut StageTimes,
) {
    let _timer = times.time(Stage::WriteBack);
    let Bodies { records, poses, linear_velocities, angular_velocities, travel, .. } = bodies;
    let awake = &scratch.awake_slots[..];
    // The body `slot` at `j` in the runs (`j = slot - first`).
    let write = |slot: u32,
                 j: usize,
                 poses: &mut [Isometry3<f32>],
                 travel: &mut [f64],
                 linear: &mut [Vector3<f32>],
                 angular: &mut [Vector3<f32>]| {
        let i = slot as usize;
        let k = scratch.solver_index[i] as usize;
        let sb = &scratch.bodies[k];
        let motion = &scratch.motions[k];
        let r = &records[i];
        let pose = poses[j];
        let delta_position = sb.delta_position();
        let center = pose * r.mass.local_center + delta_position;
        let rotation = UnitQuaternion::new_normalize(
            motion.delta_rotation.into_inner() * pose.rotation.into_inner(),
        );
        let translation = center.coords - rotation * r.mass.local_center.coords;
        poses[j] = Isometry3::from_parts(Translation3::from(translation), rotation);
        // Any point moved by at most the centre's displacement plus the
        // rotation's arc at the body's extent (2 sin(θ/2) r).
        let turn = motion.delta_rotation.imag().norm();
        travel[j] += f64::from(delta_position.norm() + 2.0 * turn * r.extent);
        // The step's last clamp of the speeds, fused here (see `clamped`).
        (linear[j], angular[j]) =
            clamped(sb.linear_velocity(), sb.angular_velocity(), scratch.max_spin);
    };
    if awake.len() < poses.len() / MOVERS_SHARE_FOR_ALL_SLOTS {
        // Few awake bodies among many slots (a world of fixed bodies):
        // only theirs, on this thread; each body's arithmetic is its own,
        // so the bits are those of the runs below.
        slot_visits::count(awake.len());
        for &slot in awake {
            let i = slot as usize;
            write(
                slot,
                i,
                &mut poses[..],
                &mut travel[..],
                &mut linear_velocities[..],
                &mut angular_velocities[..],
            );
        }
        return;
    }
    slot_visits::count(poses.len());
    let slices =
        (&mut poses[..], &mut travel[..], &mut linear_velocities[..], &mut angular_velocities[..]);
    workers.for_each_zipped_run(
        slices,
        BODIES_PER_CHUNK,
        |first, (poses, travel, linear, angular)| {
            for &slot in slots_in(awake, first..first + poses.len()) {
                write(slot, slot as usize - first, poses, travel, linear, angular);
            }
        },
    );
}
