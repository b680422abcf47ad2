//! Splits the awake bodies into regions, so that the solver's sweeps run on
//! several threads and still give the same bits for any number of threads.
//!
//! **Method: domain decomposition of the Gauss–Seidel sweep.** The awake
//! bodies are cut into up to [`MAX_REGIONS`] slabs of about equal count
//! across the widest axis perpendicular to gravity, so the cuts run along
//! gravity and a stack's load path stays inside one region. The solver
//! numbers its bodies region by region, so each region is one contiguous
//! run of the solver array. Each manifold then goes to one *task*:
//! - both bodies in region `r`, or one of them static or asleep: `r`'s
//!   interior;
//! - bodies in neighbouring regions `r` and `r + 1`: the seam between them;
//! - anything else (a body reaching across a whole slab): the leftovers.
//!
//! A push or relax sweep runs the tasks in six phases: the seams after
//! even regions, the seams after odd regions, every interior, the two
//! seam phases again, then the leftovers. The warm start visits the seams
//! once, as it must apply each impulse once. The tasks of one phase write
//! disjoint runs of bodies, so they may run at once and in any order; each
//! solves its manifolds in their contact order. What a sweep computes
//! therefore depends on the bodies' positions alone, never on the thread
//! count. A sweep's phases are the stages of one chained job
//! (`chained_stages.rs`): the threads are forked once a sweep, not once a
//! phase, and wait on each other between phases.
//!
//! **Stand-ins.** The solver's array holds one static stand-in (zero
//! velocity, zero inverse mass) before each region's bodies, and a
//! manifold against a static or sleeping body uses its interior task's
//! stand-in. So each task's bodies, stand-in included, are one contiguous
//! run that no other task of its phase touches, and the SIMD gather reads
//! any index without a test for the static case. With one region the
//! array is exactly the single-threaded one: stand-in 0, then the bodies.
//! When kinematic bodies are awake, each region holds a copy of each
//! right after its stand-in, and a manifold between a kinematic body and
//! a dynamic one uses the copy in the dynamic body's region: it lands in
//! that region's interior, as one against a static body does. (Before,
//! the washer's drum, one body in the middle region, put its manifolds
//! with bodies two regions away in the leftovers, solved on one thread,
//! one manifold per batch.)
//!
//! **Where it departs from Box2D v3**, which graph-colours the constraints
//! and solves colour after colour: a colour scatters neighbouring
//! manifolds, and measured here that made the 100-row pyramid slide 2.3 m
//! by step 600 where the contact order leaves 0.46 m (see
//! [`crate::solver::constraint_batches`]). A region keeps the contact order
//! inside it, and only the seams' manifolds move. Where they move to was
//! measured on the 100-row pyramid (4 regions): it falls asleep at step
//! 208 in the contact order, at 236 with the seams solved once before the
//! interiors, at about 205 with them once after, and at 190 with them both
//! before and after, which costs an extra visit of the seams (about 3 % of
//! its manifolds, 10-20 % of a pile's cut into 15 thin slabs). Without
//! sleeping its top sinks 0.61 m by step 600 in the contact order, 0.81,
//! 0.97 and 0.89 m in the three others; all collapse by step 800 there.
//! Below [`BODIES_PER_REGION`] awake bodies there is a single region, and
//! the sweep is exactly the single-threaded one.

use std::ops::Range;

use arrayvec::ArrayVec;
use collide::nalgebra::{Point3, Vector3};

use crate::shared_slice::SharedSlice;
use crate::solver::simd_batch::ConstraintBatch;
use crate::solver::solver_body::{BodyWindow, SolverBody};
use crate::workers::Workers;

/// Most regions: enough tasks for a work-stealing pool to balance 2 to 8
/// threads, few enough that the seams stay a small share of the manifolds.
pub(crate) const MAX_REGIONS: usize = 16;

/// Awake bodies per region. A region must hold far more manifolds than a
/// seam for the reordering to stay small, and enough work to pay for
/// handing it to a thread (a few microseconds per phase).
pub(crate) const BODIES_PER_REGION: usize = 1024;

/// Histogram bins per region used to place the cuts: the regions' counts
/// come out equal to within about one bin's share (1/64 of a region) unless
/// many bodies share a coordinate.
const BINS_PER_REGION: usize = 64;

/// The phases of a sweep: even seams, odd seams, interiors, leftovers.
const PHASES: usize = 4;

/// Most phases one sweep runs: [`Seams::Twice`]'s six.
const MAX_PHASES_A_SWEEP: usize = 6;

/// How a sweep visits the seams (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Seams {
    /// Once, before the interiors: for the warm start, which must apply
    /// each manifold's impulse exactly once.
    Once,
    /// Before the interiors and again after them: for the push and relax
    /// sweeps.
    Twice,
}

impl Seams {
    /// The phases a sweep runs, in order.
    fn phases(self) -> &'static [usize] {
        match self {
            Seams::Once => &[0, 1, 2, 3],
            Seams::Twice => &[0, 1, 2, 0, 1, 3],
        }
    }
}

/// One task of a sweep: the solver bodies its manifolds may write, and its
/// SIMD batches (a contiguous run of the solver's batch array).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Task {
    /// Solver indices, starting with the stand-in its manifolds use for
    /// static and sleeping bodies.
    pub bodies: Range<u32>,
    pub batches: Range<u32>,
}

impl Task {
    /// The solver index of the static stand-in this task's manifolds use.
    pub fn stand_in(&self) -> u32 {
        self.bodies.start
    }
}

/// The regions of one step, their tasks, and the scratch they are built in.
#[derive(Debug, Default)]
pub(crate) struct Regions {
    /// Number of regions this step.
    count: usize,
    /// Solver index of each region's static stand-in, which its bodies
    /// follow, and the number of solver bodies at `starts[count]`.
    starts: [u32; MAX_REGIONS + 1],
    /// Positions in the awake list (as given to [`Self::split`]), region
    /// after region (see [`Self::members`]).
    order: Vec<u32>,
    /// Where each region's members start in `order`.
    member_starts: [u32; MAX_REGIONS + 1],
    /// Per solver index: its region (the stand-in's entry is unused).
    solver_region: Vec<u8>,
    /// Per awake body: its histogram bin, then its region.
    bin_of: Vec<u32>,
    /// Bodies per histogram bin.
    bins: Vec<u32>,
    /// Per slot: its task.
    slot_task: Vec<u16>,
    /// The slots, task after task, each task's in contact order.
    task_slots: Vec<u32>,
    /// Where each task's slots start in `task_slots` (one more entry than tasks).
    task_slot_starts: Vec<u32>,
    /// The tasks, phase after phase.
    pub tasks: Vec<Task>,
    /// Phase `p` is `tasks[phase_starts[p]..phase_starts[p + 1]]`.
    phase_starts: [usize; PHASES + 1],
}

impl Regions {
    /// Number of regions this step.
    pub fn count(&self) -> usize {
        self.count
    }

    /// Cuts the awake bodies, whose centres of mass are `centers`, into
    /// regions across the widest axis perpendicular to `gravity`, and
    /// orders them region by region in [`Self::order`] (each region's
    /// bodies in their given order).
    pub fn split(&mut self, centers: &[Point3<f32>], gravity: &Vector3<f32>) {
        self.split_sharing(centers, gravity, 0);
    }

    /// [`Self::split`], with room for `shared` bodies after each region's
    /// static stand-in: the solver's copies of the awake kinematic bodies
    /// (see [`crate::solver::solve`]), which every region holds one of so
    /// that a kinematic body's manifolds stay in the interior of the
    /// region of the body they touch.
    pub fn split_sharing(&mut self, centers: &[Point3<f32>], gravity: &Vector3<f32>, shared: u32) {
        let n = centers.len();
        let count = (n / BODIES_PER_REGION).clamp(1, MAX_REGIONS);
        self.count = count;
        self.bin_of.clear();
        if count == 1 {
            self.bin_of.resize(n, 0);
        } else {
            self.cut(centers, gravity, count);
        }
        // Counting sort by region: stable, so each region keeps the order given.
        let mut counts = [0u32; MAX_REGIONS];
        for &r in &self.bin_of {
            counts[r as usize] += 1;
        }
        self.member_starts[0] = 0;
        self.starts[0] = 0;
        for (r, &inside) in counts[..count].iter().enumerate() {
            self.member_starts[r + 1] = self.member_starts[r] + inside;
            self.starts[r + 1] = self.starts[r] + 1 + shared + inside;
        }
        let mut next = self.member_starts;
        self.order.clear();
        self.order.resize(n, 0);
        for (k, &r) in self.bin_of.iter().enumerate() {
            self.order[next[r as usize] as usize] = k as u32;
            next[r as usize] += 1;
        }
        self.solver_region.clear();
        for r in 0..count {
            let len = (self.starts[r + 1] - self.starts[r]) as usize;
            self.solver_region.extend(std::iter::repeat_n(r as u8, len));
        }
    }

    /// The solver index of each region's static stand-in, then the number
    /// of solver bodies: one more entry than there are regions.
    pub fn starts(&self) -> &[u32] {
        &self.starts[..=self.count]
    }

    /// The solver index of region `r`'s static stand-in.
    pub fn start(&self, r: usize) -> u32 {
        self.starts[r]
    }

    /// The region of solver index `index` (a stand-in's is its region's).
    pub fn region_of(&self, index: u32) -> usize {
        usize::from(self.solver_region[index as usize])
    }

    /// The solver indices of the regions' static stand-ins.
    pub fn stand_ins(&self) -> impl Iterator<Item = u32> + '_ {
        self.stand_in_indices().iter().copied()
    }

    /// The solver indices of the regions' static stand-ins, increasing.
    pub fn stand_in_indices(&self) -> &[u32] {
        &self.starts[..self.count]
    }

    /// Region `r`'s members, as positions in the awake list given to
    /// [`Self::split`], in that list's order. The solver lays out region
    /// after region: its static stand-in, then these bodies.
    pub fn members(&self, r: usize) -> &[u32] {
        &self.order[self.member_starts[r] as usize..self.member_starts[r + 1] as usize]
    }

    /// Sets `bin_of` to each body's region, for `count` > 1 regions.
    fn cut(&mut self, centers: &[Point3<f32>], gravity: &Vector3<f32>, count: usize) {
        let axis = widest_level_axis(centers, gravity);
        let (lo, hi) = centers
            .iter()
            .map(|c| c[axis])
            .filter(|x| x.is_finite())
            .fold((f32::INFINITY, f32::NEG_INFINITY), |(lo, hi), x| (lo.min(x), hi.max(x)));
        let bin_count = count * BINS_PER_REGION;
        // All on one plane (or nothing finite): one bin, hence one region.
        let scale = if hi > lo { bin_count as f32 / (hi - lo) } else { 0.0 };
        self.bins.clear();
        self.bins.resize(bin_count, 0);
        for c in centers {
            // `as` saturates, and sends NaN to bin 0.
            let bin = (((c[axis] - lo) * scale) as usize).min(bin_count - 1);
            self.bin_of.push(bin as u32);
            self.bins[bin] += 1;
        }
        // A bin goes to the region its first body would fall in by rank.
        let n = centers.len();
        let mut before = 0usize;
        for b in &mut self.bins {
            let inside = *b as usize;
            *b = ((before * count / n).min(count - 1)) as u32;
            before += inside;
        }
        for bin in &mut self.bin_of {
            *bin = self.bins[*bin as usize];
        }
    }

    /// Assigns each manifold to a task from its solver body pair (`pairs`,
    /// one per slot; 0 is the static stand-in), and lays out the tasks,
    /// phase after phase, with the bodies each may write. Their batches
    /// are set afterwards with [`Self::set_batches`].
    pub fn assign(&mut self, pairs: &[(u32, u32)]) {
        let k = self.count;
        let even_seams = k / 2;
        let seams = k - 1;
        let leftover = (seams + k) as u16;
        let task_count = k + seams + 1;
        let region = |index: u32| usize::from(self.solver_region[index as usize]);
        self.slot_task.clear();
        if k == 1 {
            // One region: every manifold is its interior's (task 0).
            self.slot_task.resize(pairs.len(), 0);
        }
        for &(a, b) in pairs.iter().filter(|_| k > 1) {
            let task = match (a, b) {
                (0, 0) => leftover,
                (0, x) | (x, 0) => (seams + region(x)) as u16,
                _ => {
                    let (ra, rb) = (region(a), region(b));
                    let (r, s) = (ra.min(rb), ra.max(rb));
                    if r == s {
                        (seams + r) as u16
                    } else if s == r + 1 && r % 2 == 0 {
                        (r / 2) as u16
                    } else if s == r + 1 {
                        (even_seams + r / 2) as u16
                    } else {
                        leftover
                    }
                }
            };
            self.slot_task.push(task);
        }
        // Counting sort of the slots by task, stable.
        self.task_slot_starts.clear();
        self.task_slot_starts.resize(task_count + 1, 0);
        for &t in &self.slot_task {
            self.task_slot_starts[usize::from(t) + 1] += 1;
        }
        for t in 0..task_count {
            self.task_slot_starts[t + 1] += self.task_slot_starts[t];
        }
        self.task_slots.clear();
        self.task_slots.resize(pairs.len(), 0);
        let mut next = std::mem::take(&mut self.task_slot_starts);
        for (slot, &t) in self.slot_task.iter().enumerate() {
            let at = &mut next[usize::from(t)];
            self.task_slots[*at as usize] = slot as u32;
            *at += 1;
        }
        // `next[t]` now holds task t's end, which is task t + 1's start.
        next.rotate_right(1);
        next[0] = 0;
        self.task_slot_starts = next;

        let s = &self.starts;
        self.tasks.clear();
        self.phase_starts[0] = 0;
        for parity in [0, 1] {
            let seams = (parity..seams).step_by(2);
            self.tasks.extend(seams.map(|r| Task { bodies: s[r]..s[r + 2], batches: 0..0 }));
            self.phase_starts[1 + parity] = self.tasks.len();
        }
        self.tasks.extend((0..k).map(|r| Task { bodies: s[r]..s[r + 1], batches: 0..0 }));
        self.phase_starts[3] = self.tasks.len();
        self.tasks.push(Task { bodies: s[0]..s[k], batches: 0..0 });
        self.phase_starts[PHASES] = self.tasks.len();
        debug_assert_eq!(self.tasks.len(), task_count);
    }

    /// The slots of task `task`, in contact order.
    pub fn task_slots(&self, task: usize) -> &[u32] {
        let range = self.task_slot_starts[task]..self.task_slot_starts[task + 1];
        &self.task_slots[range.start as usize..range.end as usize]
    }

    /// Records that task `task`'s manifolds are the batches `batches`.
    pub fn set_batches(&mut self, task: usize, batches: Range<u32>) {
        self.tasks[task].batches = batches;
    }

    /// Runs one sweep: `f` on each task's batches and body window, phase
    /// after phase as `seams` says, the tasks of a phase on the workers'
    /// threads. The result is the same for any thread count (see the module
    /// docs).
    pub fn sweep<F>(
        &self,
        workers: &Workers,
        seams: Seams,
        batches: &mut [ConstraintBatch],
        bodies: &mut [SolverBody],
        f: F,
    ) where
        F: Fn(&mut [ConstraintBatch], BodyWindow<'_>) + Sync,
    {
        // A slice of zero-sized units, one per batch: it allocates nothing.
        let mut none = vec![(); batches.len()];
        self.sweep_with(workers, seams, batches, &mut none, bodies, |batches, _, window| {
            f(batches, window)
        });
    }

    /// [`Self::sweep`], handing `f` with each task's batches the same run
    /// of `per_batch`, which holds one entry per batch.
    pub fn sweep_with<T, F>(
        &self,
        workers: &Workers,
        seams: Seams,
        batches: &mut [ConstraintBatch],
        per_batch: &mut [T],
        bodies: &mut [SolverBody],
        f: F,
    ) where
        T: Send,
        F: Fn(&mut [ConstraintBatch], &mut [T], BodyWindow<'_>) + Sync,
    {
        debug_assert_eq!(batches.len(), per_batch.len());
        // One region and nothing in the leftovers: its interior is the
        // only task with batches in every phase (there are no seams), so
        // the sweep is that task alone, on this thread, as the phases
        // below would run it.
        let interiors = self.phase_starts[2]..self.phase_starts[3];
        if interiors == (0..1)
            && self.tasks[self.phase_starts[3]..].iter().all(|t| t.batches.is_empty())
        {
            let task = &self.tasks[0];
            let (b, w) = (task.batches.start as usize..task.batches.end as usize, &task.bodies);
            let window = &mut bodies[w.start as usize..w.end as usize];
            f(&mut batches[b.clone()], &mut per_batch[b], BodyWindow::new(window, w.start));
            return;
        }
        // The phases are the stages of one chained job on the workers
        // (`Workers::for_each_stage`): the threads are forked once a
        // sweep, not once a phase (six a push or relax sweep, each a few
        // tens of microseconds of work on washer), and wait on each other
        // between phases.
        let mut stages = ArrayVec::<ArrayVec<u16, MAX_REGIONS>, { MAX_PHASES_A_SWEEP }>::new();
        for &p in seams.phases() {
            let range = self.phase_starts[p]..self.phase_starts[p + 1];
            let busy = range.filter(|&t| !self.tasks[t].batches.is_empty()).map(|t| t as u16);
            let busy: ArrayVec<u16, MAX_REGIONS> = busy.collect();
            if !busy.is_empty() {
                stages.push(busy);
            }
        }
        let (batches, per_batch) = (SharedSlice::new(batches), SharedSlice::new(per_batch));
        let bodies = SharedSlice::new(bodies);
        workers.for_each_stage(
            stages.len(),
            |stage| stages[stage].len(),
            |stage, k| {
                let task = &self.tasks[usize::from(stages[stage][k])];
                let b = task.batches.start as usize..task.batches.end as usize;
                let w = task.bodies.start as usize..task.bodies.end as usize;
                // SAFETY: the tasks of one phase (one stage) hold disjoint
                // runs of batches and of solver bodies (see the module
                // docs), and each task is handed to one call; the chain
                // starts no phase before the one before it has finished.
                #[allow(unsafe_code)]
                let (mine, extra, window) = unsafe {
                    (batches.run_mut(b.clone()), per_batch.run_mut(b), bodies.run_mut(w))
                };
                f(mine, extra, BodyWindow::new(window, task.bodies.start));
            },
        );
    }
}

/// The axis along which the centres spread the most, counting only the
/// part of each axis perpendicular to `gravity` (any axis without gravity).
fn widest_level_axis(centers: &[Point3<f32>], gravity: &Vector3<f32>) -> usize {
    let down = gravity.try_normalize(0.0).unwrap_or_else(Vector3::zeros);
    let mut lo = [f32::INFINITY; 3];
    let mut hi = [f32::NEG_INFINITY; 3];
    for c in centers.iter().filter(|c| c.coords.iter().all(|x| x.is_finite())) {
        for axis in 0..3 {
            lo[axis] = lo[axis].min(c[axis]);
            hi[axis] = hi[axis].max(c[axis]);
        }
    }
    let width = |axis: usize| (hi[axis] - lo[axis]).max(0.0) * (1.0 - down[axis] * down[axis]);
    (1..3).fold(0, |best, axis| if width(axis) > width(best) { axis } else { best })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row_of(n: usize) -> Vec<Point3<f32>> {
        (0..n).map(|i| Point3::new((i * 7919 % n) as f32, (i % 13) as f32 * 30.0, 0.0)).collect()
    }

    /// Regions are contiguous in x, of about equal count, numbered in
    /// order, and each keeps its bodies' given order.
    #[test]
    fn regions_are_equal_slabs_across_the_level_axis() {
        let centers = row_of(5000);
        let mut regions = Regions::default();
        regions.split(&centers, &Vector3::new(0.0, -9.81, 0.0));
        assert_eq!(regions.count(), 4);
        let mut previous_max = f32::NEG_INFINITY;
        for r in 0..4 {
            let members = regions.members(r);
            let share = members.len() as f32 / 5000.0;
            assert!((share - 0.25).abs() < 0.25 / BINS_PER_REGION as f32 + 1e-3, "{r}: {share}");
            assert!(members.windows(2).all(|w| w[0] < w[1]), "region {r} reordered");
            let xs = members.iter().map(|&k| centers[k as usize].x);
            let (min, max) = xs.fold((f32::MAX, f32::MIN), |(a, b), x| (a.min(x), b.max(x)));
            assert!(min > previous_max, "region {r} overlaps the one before");
            previous_max = max;
        }
    }

    /// The cut axis is the widest one perpendicular to gravity: x (the
    /// widest) under gravity along y, y once gravity is along x, and x
    /// without gravity.
    #[test]
    fn the_cut_axis_is_perpendicular_to_gravity() {
        let centers: Vec<_> =
            (0..100).map(|i| Point3::new(i as f32 * 10.0, i as f32, (i % 3) as f32)).collect();
        assert_eq!(widest_level_axis(&centers, &Vector3::new(0.0, -9.81, 0.0)), 0);
        assert_eq!(widest_level_axis(&centers, &Vector3::new(-9.81, 0.0, 0.0)), 1);
        assert_eq!(widest_level_axis(&centers, &Vector3::zeros()), 0);
    }

    /// Every slot lands in exactly one task whose body window holds both
    /// its dynamic bodies, and the tasks of a phase have disjoint windows.
    #[test]
    fn every_manifold_lands_in_a_task_that_may_write_its_bodies() {
        let centers = row_of(9000);
        let mut regions = Regions::default();
        regions.split(&centers, &Vector3::new(0.0, -9.81, 0.0));
        assert_eq!(regions.count(), 8);
        let mut rng = crate::rng::Lcg(7);
        let mut rand = |n: u32| rng.below(n as usize) as u32;
        // Solver index of the awake body at position k.
        let mut solver_of = vec![0u32; 9000];
        for r in 0..regions.count() {
            for (j, &k) in regions.members(r).iter().enumerate() {
                solver_of[k as usize] = regions.starts[r] + 1 + j as u32;
            }
        }
        assert_eq!(regions.starts[8], 9000 + 8, "one stand-in per region");
        // `row_of` puts one body at each whole x.
        let mut by_x = vec![0u32; 9000];
        for (k, c) in centers.iter().enumerate() {
            by_x[c.x as usize] = k as u32;
        }
        let pairs: Vec<(u32, u32)> = (0..20_000)
            .map(|i| {
                let a = rand(9000);
                // Mostly near neighbours in x, some far, some static.
                let b = match i % 10 {
                    0 => return (0, solver_of[a as usize]),
                    1 => rand(9000),
                    _ => by_x[(centers[a as usize].x as usize + 1) % 9000],
                };
                (solver_of[a as usize], solver_of[b as usize])
            })
            .collect();
        regions.assign(&pairs);
        let mut seen = vec![0u32; pairs.len()];
        for (t, task) in regions.tasks.iter().enumerate() {
            for &slot in regions.task_slots(t) {
                seen[slot as usize] += 1;
                let (a, b) = pairs[slot as usize];
                for x in [a, b].into_iter().filter(|&x| x != 0) {
                    assert!(task.bodies.contains(&x), "task {t} {task:?} cannot write {x}");
                }
            }
            assert!(regions.task_slots(t).windows(2).all(|w| w[0] < w[1]), "task {t} order");
        }
        assert!(seen.iter().all(|&s| s == 1));
        for p in 0..PHASES {
            let tasks = &regions.tasks[regions.phase_starts[p]..regions.phase_starts[p + 1]];
            for w in tasks.windows(2) {
                assert!(w[0].bodies.end <= w[1].bodies.start, "phase {p}: {:?}", w);
            }
        }
        // Most manifolds stay inside a region.
        let interior: usize = (7..15).map(|t| regions.task_slots(t).len()).sum();
        assert!(interior > pairs.len() * 8 / 10, "{interior} of {}", pairs.len());
    }

    /// A small awake set is one region: one interior task holding every
    /// manifold in contact order, so the sweep is the single-threaded one.
    #[test]
    fn few_bodies_make_one_region_in_contact_order() {
        let centers = row_of(BODIES_PER_REGION * 2 - 1);
        let mut regions = Regions::default();
        regions.split(&centers, &Vector3::new(0.0, -9.81, 0.0));
        assert_eq!(regions.count(), 1);
        assert!(regions.order.iter().enumerate().all(|(k, &o)| k as u32 == o));
        let pairs: Vec<(u32, u32)> = (0..500).map(|i| (i % 7, 1 + i % 100)).collect();
        regions.assign(&pairs);
        assert_eq!(regions.tasks.len(), 2);
        assert_eq!(regions.task_slots(0), (0..500).collect::<Vec<u32>>().as_slice());
    }
}
