//! The continuous stage's sweep of one convex shape against a surface (a
//! triangle mesh or a heightfield standing still): the triangles whose
//! boxes the shape's swept box overlaps are listed (through the mesh's
//! BVH, or the field's cell range), at most [`MAX_SWEPT_TRIANGLES`] of
//! them, and each is swept against the shape with collide's convex
//! [`try_time_of_impact`], the earliest answer kept (an overlap at the
//! start first), as Box2D v3's continuous stage sweeps a bullet against
//! the mesh triangles its swept box meets.
//!
//! Departure from collide's own composite `time_of_impact`, which answers
//! the same question: that one visits the triangles in a cube about the
//! moving shape's centre of half-width its radius plus its travel, so a
//! cube shot at 2,000 m/s (33 m a step) straight down onto a floor of 1 m
//! cells visits about 2,000 triangles where its swept box, a column, holds
//! two to eight. The swept box here is the one the stage already holds
//! (the shape's boxes at the step's two poses grown by its turn's arc).
//! A sweep whose box holds more triangles than the cap is not swept: the
//! speculative contacts alone stand for it, as they did for every surface
//! pair before this stage swept surfaces.

use collide::nalgebra::{Isometry3, Point3};
use collide::{QueryError, Shape, Sweep, TimeOfImpact, Triangle, try_time_of_impact};

use crate::collision::aabb::Aabb;

/// Most triangles one shape is swept against in a step. A 1 m shape
/// moving a few metres a step over cells of its own size meets tens of
/// them; a body shot at 2,000 m/s at 45° across 1 m cells (23 m along x
/// and 7 m along z a step) has about 320 under its swept box. Each is a
/// convex time of impact of about a microsecond, so the cap bounds a
/// shape's sweep to about a millisecond.
pub(crate) const MAX_SWEPT_TRIANGLES: usize = 1024;

/// What [`sweep_against_surface`] found.
#[derive(Clone, Copy, Debug)]
pub(crate) enum SurfaceSweep {
    /// The earliest answer over the triangles under the swept box, the
    /// convex shape as A and the surface as B (`Miss` when there are none).
    Swept(TimeOfImpact),
    /// More than [`MAX_SWEPT_TRIANGLES`] triangles under the swept box:
    /// not swept.
    TooManyTriangles,
}

/// Sweeps `convex` (moving by `sweep`) against `surface`, a triangle mesh
/// or heightfield standing still at `surface_pose`, over `[0, max_toi]`
/// with collide's `target_distance`, visiting the triangles whose boxes
/// `swept_box` (world frame, holding the convex shape at every pose of its
/// sweep) overlaps. Any other `surface` shape answers `Miss`.
///
/// # Errors
/// collide's, for a non-finite sweep.
pub(crate) fn sweep_against_surface(
    convex: &Shape,
    sweep: &Sweep,
    surface: &Shape,
    surface_pose: &Isometry3<f32>,
    swept_box: &Aabb,
    max_toi: f32,
    target_distance: f32,
) -> Result<SurfaceSweep, QueryError> {
    let local_box = box_in_frame(swept_box, surface_pose).expanded(target_distance.max(0.0));
    if !matches!(surface, Shape::TriMesh(_) | Shape::HeightField(_)) {
        return Ok(SurfaceSweep::Swept(TimeOfImpact::Miss));
    }
    // Counted first, so that a box over too many triangles sweeps none,
    // then swept in the same order as they are visited. Most sweeps (the
    // parts of a body far above the surface) meet none and stop here.
    match surface_triangle_count(surface, &local_box) {
        None => return Ok(SurfaceSweep::TooManyTriangles),
        Some(0) => return Ok(SurfaceSweep::Swept(TimeOfImpact::Miss)),
        Some(_) => {}
    }
    let fixed = Sweep::fixed(*surface_pose);
    let mut best = TimeOfImpact::Miss;
    let mut limit = max_toi;
    let mut failed = None;
    visit_surface_triangles(surface, &local_box, |index| {
        let Some(triangle) = surface_triangle(surface, index) else { return true };
        match try_time_of_impact(convex, sweep, &triangle, &fixed, limit, target_distance) {
            Err(error) => {
                failed = Some(error);
                return false;
            }
            Ok(answer @ TimeOfImpact::InitiallyOverlapping) => {
                best = answer;
                return false;
            }
            // Written so that a NaN time is not taken.
            Ok(answer @ TimeOfImpact::Hit { toi, .. }) if toi < rank(&best) => {
                limit = toi;
                best = answer;
            }
            Ok(answer @ TimeOfImpact::IterationLimit { toi_lower_bound })
                if toi_lower_bound < rank(&best) =>
            {
                best = answer;
            }
            Ok(_) => {}
        }
        true
    });
    match failed {
        Some(error) => Err(error),
        None => Ok(SurfaceSweep::Swept(best)),
    }
}

/// How many triangles of `surface` (a triangle mesh or heightfield; any
/// other shape has none) [`visit_surface_triangles`] visits for
/// `local_box` (in the surface's frame); `None` when there are more than
/// [`MAX_SWEPT_TRIANGLES`] (the count stops there).
pub(crate) fn surface_triangle_count(surface: &Shape, local_box: &Aabb) -> Option<usize> {
    let mut count = 0usize;
    visit_surface_triangles(surface, local_box, |_| {
        count += 1;
        count <= MAX_SWEPT_TRIANGLES
    });
    (count <= MAX_SWEPT_TRIANGLES).then_some(count)
}

/// Calls `on_triangle` with the index of each triangle of `surface` (a
/// triangle mesh or heightfield; any other shape has none) whose box
/// `local_box` (in the surface's frame) overlaps, through the mesh's BVH or
/// the field's cell range, in a fixed order, until it returns `false`.
pub(crate) fn visit_surface_triangles(
    surface: &Shape,
    local_box: &Aabb,
    mut on_triangle: impl FnMut(u32) -> bool,
) {
    match surface {
        Shape::TriMesh(mesh) => {
            mesh.bvh().query_aabb(local_box, on_triangle);
        }
        Shape::HeightField(field) => {
            for_each_field_triangle(field, local_box, &mut on_triangle);
        }
        _ => {}
    }
}

/// Triangle `index` of `surface` (a triangle mesh or heightfield) in the
/// surface's frame, as [`visit_surface_triangles`] visits them; `None`
/// for another shape or an index it does not have.
pub(crate) fn surface_triangle(surface: &Shape, index: u32) -> Option<Triangle> {
    match surface {
        Shape::TriMesh(mesh) => mesh.triangle(index),
        Shape::HeightField(field) => field.triangle(index),
        _ => None,
    }
}

/// The time an answer is ranked by: a hit's time, a capped sweep's proven
/// bound, infinity for a miss (an overlap never reaches the ranking).
fn rank(answer: &TimeOfImpact) -> f32 {
    match answer {
        TimeOfImpact::Hit { toi, .. } => *toi,
        TimeOfImpact::IterationLimit { toi_lower_bound } => *toi_lower_bound,
        TimeOfImpact::InitiallyOverlapping => f32::NEG_INFINITY,
        TimeOfImpact::Miss => f32::INFINITY,
    }
}

/// The box, in the frame of `pose`, of the world box `world`: the box of
/// its eight corners carried into that frame.
fn box_in_frame(world: &Aabb, pose: &Isometry3<f32>) -> Aabb {
    let corner = |k: usize| {
        let pick = |bit: usize, axis: usize| {
            if k >> bit & 1 == 1 { world.max[axis] } else { world.min[axis] }
        };
        pose.inverse_transform_point(&Point3::new(pick(0, 0), pick(1, 1), pick(2, 2)))
    };
    let first = corner(0);
    (1..8).fold(Aabb::new(first, first), |b, k| {
        let p = corner(k);
        Aabb::new(b.min.inf(&p), b.max.sup(&p))
    })
}

/// Calls `on_triangle` with the index of every triangle of `field` in the
/// cells `local_box` (field frame) overlaps whose height range meets the
/// box's, until it returns `false`. The field's layout (collide's): cells
/// of `cell[0]` along x by `cell[1]` along z, centred on the origin, cell
/// `(row r, column c)` numbered `r (columns − 1) + c` with triangles
/// `2 cell` and `2 cell + 1`.
fn for_each_field_triangle(
    field: &collide::composite::HeightField,
    local_box: &Aabb,
    on_triangle: &mut impl FnMut(u32) -> bool,
) {
    let whole = field.local_aabb();
    if !whole.overlaps(local_box) {
        return;
    }
    let [dx, dz] = field.cell();
    let (columns, rows) = (field.columns(), field.rows());
    // The inclusive range of cells [lo, hi] covers, clamped; NaN covers none.
    let range = |lo: f32, hi: f32, origin: f32, d: f32, cells: usize| {
        let (first, last) = (((lo - origin) / d).floor(), ((hi - origin) / d).floor());
        if !(first <= last) {
            return None;
        }
        let clamp = |x: f32| (x.max(0.0) as usize).min(cells - 1);
        Some((clamp(first), clamp(last)))
    };
    let Some((c0, c1)) = range(local_box.min.x, local_box.max.x, whole.min.x, dx, columns - 1)
    else {
        return;
    };
    let Some((r0, r1)) = range(local_box.min.z, local_box.max.z, whole.min.z, dz, rows - 1) else {
        return;
    };
    for r in r0..=r1 {
        for c in c0..=c1 {
            let cell = (r * (columns - 1) + c) as u32;
            for index in [2 * cell, 2 * cell + 1] {
                let Some(t) = field.triangle(index) else { continue };
                let (lo, hi) = (t.a.y.min(t.b.y).min(t.c.y), t.a.y.max(t.b.y).max(t.c.y));
                if hi < local_box.min.y || lo > local_box.max.y {
                    continue;
                }
                if !on_triangle(index) {
                    return;
                }
            }
        }
    }
}
