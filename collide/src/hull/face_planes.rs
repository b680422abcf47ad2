//! A hull's face planes in SIMD lanes, for the scan that finds the face
//! plane a point is highest above (the first step of point projection,
//! `query::point::hull`).
//!
//! The scan is the brute-force support kernel's (`support::brute_force`)
//! on four coordinates instead of three: a face's height of `p` above its
//! plane, `n · p − offset`, is the dot product of `(n, offset)` with
//! `(p, −1)`. The planes are stored as structure-of-arrays in blocks of
//! [`BLOCK`] lanes, the last block padded with planes that no point is above
//! (zero normal, infinite offset); the scan keeps, per lane, the largest
//! height and the block it came from, compiled for several instruction sets
//! and chosen at run time. Read from the faces themselves (a normal, an
//! offset and a vertex list, 40 bytes apart) the same scan was about 16
//! instructions a face and two thirds of projecting a point onto a
//! 1024-point hull from outside.
//!
//! The heights are summed in the order of `normal.dot(p) − offset` (no fused
//! multiply-add), and of equal heights the face listed first wins, so the
//! scan picks exactly the face a loop over the faces with `>` would pick.
//!
//! The same scan, with a zero subtracted from each real face's dot product
//! instead of its offset, finds the face whose normal is most aligned with
//! a direction ([`FacePlanes::most_aligned`]): the first step of a hull's
//! supporting feature (`manifold::supporting_feature`), which read the faces
//! 40 bytes apart with a branch per face.

use nalgebra::Vector3;

use crate::shape::HullFace;

/// Planes per block: one AVX-512 register, two AVX ones, four SSE or NEON
/// ones; sixteen independent running maxima also keep the loop from waiting
/// on its own compare-and-select chain.
const BLOCK: usize = 16;

/// One block of planes: the normals' coordinates and the offsets, a lane
/// per face.
#[derive(Clone, Copy, Debug, PartialEq)]
struct PlaneBlock {
    nx: [f32; BLOCK],
    ny: [f32; BLOCK],
    nz: [f32; BLOCK],
    offset: [f32; BLOCK],
    /// What [`FacePlanes::most_aligned`] subtracts: 0 for a face (so the
    /// height is the dot product itself, bit for bit), +∞ for a padding
    /// lane, which then never wins.
    pad: [f32; BLOCK],
}

/// The face planes of a hull, in blocks of [`BLOCK`] lanes.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct FacePlanes {
    blocks: std::sync::Arc<[PlaneBlock]>,
}

impl FacePlanes {
    /// The planes of `faces`, in their order.
    pub(crate) fn new(faces: &[HullFace]) -> Self {
        let blocks = (0..faces.len().div_ceil(BLOCK))
            .map(|b| {
                // Padding lanes: zero normal and infinite offset, a height of
                // −∞ for every finite point, which never beats a real face.
                let lane = |l: usize, f: &dyn Fn(&HullFace) -> f32, pad: f32| {
                    faces.get(b * BLOCK + l).map_or(pad, f)
                };
                PlaneBlock {
                    nx: core::array::from_fn(|l| lane(l, &|f| f.normal.x, 0.0)),
                    ny: core::array::from_fn(|l| lane(l, &|f| f.normal.y, 0.0)),
                    nz: core::array::from_fn(|l| lane(l, &|f| f.normal.z, 0.0)),
                    offset: core::array::from_fn(|l| lane(l, &|f| f.offset, f32::INFINITY)),
                    pad: core::array::from_fn(|l| lane(l, &|_| 0.0, f32::INFINITY)),
                }
            })
            .collect();
        Self { blocks }
    }

    /// The first face whose plane `p` is highest above (`n · p − offset`
    /// largest), or `None` when no height beats −∞ (no faces, or a NaN
    /// point, whose heights are all NaN).
    #[inline]
    pub(crate) fn highest(&self, p: &Vector3<f32>) -> Option<usize> {
        highest_plane(&self.blocks, p.x, p.y, p.z, false)
    }

    /// The first face whose normal has the largest dot product with `dir`
    /// (`n · dir` largest; exactly the face a loop over the faces keeping
    /// the first `>` picks), or `None` when no dot product beats −∞ (no
    /// faces, or a NaN direction).
    #[inline]
    pub(crate) fn most_aligned(&self, dir: &Vector3<f32>) -> Option<usize> {
        highest_plane(&self.blocks, dir.x, dir.y, dir.z, true)
    }
}

/// The scan: per lane, the largest height (`n · p` less the offset, or
/// less the padding term for `aligned`) and the first block that gave it
/// (`>` with selects, so a NaN height never replaces a maximum); then the
/// largest of the lane maxima, and of the lanes holding it the one whose
/// face comes first. Multiversioned as the support kernel is; products are
/// summed in the same order in every version, so all pick the same face.
///
/// The loops index fixed-size lane arrays by lane (not iterators), the form
/// the vectoriser maps onto whole registers, as in the support kernel.
#[allow(clippy::needless_range_loop)]
#[multiversion::multiversion(targets(
    "x86_64+avx512f+avx512vl",
    "x86_64+avx2+fma",
    "x86_64+avx",
    "x86_64+sse4.1",
    "aarch64+neon"
))]
fn highest_plane(blocks: &[PlaneBlock], px: f32, py: f32, pz: f32, aligned: bool) -> Option<usize> {
    let mut best = [f32::NEG_INFINITY; BLOCK];
    let mut best_block = [0u32; BLOCK];
    for (b, block) in blocks.iter().enumerate() {
        let sub = if aligned { &block.pad } else { &block.offset };
        let mut heights = [0.0f32; BLOCK];
        for l in 0..BLOCK {
            heights[l] = (block.nx[l] * px + block.ny[l] * py + block.nz[l] * pz) - sub[l];
        }
        for l in 0..BLOCK {
            let better = heights[l] > best[l];
            best_block[l] = if better { b as u32 } else { best_block[l] };
            best[l] = if better { heights[l] } else { best[l] };
        }
    }
    let mut max = f32::NEG_INFINITY;
    for &h in &best {
        max = if h > max { h } else { max };
    }
    if !(max > f32::NEG_INFINITY) {
        return None;
    }
    // Of the lanes holding the maximum, the first face: within a lane the
    // first block is kept (`>`), so the smallest index over those lanes is
    // the first face of all with that height.
    let mut first = usize::MAX;
    for l in 0..BLOCK {
        let index = best_block[l] as usize * BLOCK + l;
        first = if best[l] == max && index < first { index } else { first };
    }
    Some(first)
}

#[cfg(test)]
mod tests {
    use nalgebra::{Point3, Vector3};

    use crate::shape::{ConvexHull, HullFace};

    /// The first face of largest `score`, by a plain loop over the faces:
    /// the reference both scans must agree with (NaN never wins).
    fn first_best_by_loop(hull: &ConvexHull, score: impl Fn(&HullFace) -> f32) -> Option<usize> {
        let mut best = None;
        let mut best_score = f32::NEG_INFINITY;
        for (i, face) in hull.faces().iter().enumerate() {
            let s = score(face);
            if s > best_score {
                best_score = s;
                best = Some(i);
            }
        }
        best
    }

    /// The first face of largest height of `p` above it.
    fn by_loop(hull: &ConvexHull, p: &Vector3<f32>) -> Option<usize> {
        first_best_by_loop(hull, |face| face.normal.dot(p) - face.offset)
    }

    /// The first face of largest `n · dir`.
    fn aligned_by_loop(hull: &ConvexHull, dir: &Vector3<f32>) -> Option<usize> {
        first_best_by_loop(hull, |face| face.normal.dot(dir))
    }

    /// The hull of `n` points spread over the unit sphere (many faces,
    /// across several blocks).
    fn sphere_hull(n: usize) -> ConvexHull {
        let points: Vec<Point3<f32>> = (0..n)
            .map(|i| {
                let (t, z) = (i as f32 * 2.4, 1.0 - 2.0 * (i as f32 + 0.5) / n as f32);
                let r = (1.0 - z * z).sqrt();
                Point3::new(r * t.cos(), r * t.sin(), z)
            })
            .collect();
        ConvexHull::new(&points).unwrap()
    }

    /// The unit cube as a hull: exact ties between faces over its edges and
    /// corners.
    fn cube_hull() -> ConvexHull {
        let corners: Vec<Point3<f32>> = (0..8)
            .map(|i| Point3::new((i & 1) as f32, ((i >> 1) & 1) as f32, (i >> 2) as f32))
            .collect();
        ConvexHull::new(&corners).unwrap()
    }

    #[test]
    fn the_scan_picks_the_loops_face_on_every_hull_size() {
        // Points on a sphere (many faces, across several blocks) and a cube
        // (exact ties between faces for points over its edges and corners).
        for n in [4usize, 20, 100, 1000] {
            let hull = sphere_hull(n);
            for k in 0..500 {
                let k = k as f32;
                let p = Vector3::new((k * 0.37).sin(), (k * 0.91).cos(), (k * 0.13).sin()) * 3.0;
                assert_eq!(hull.face_planes().highest(&p), by_loop(&hull, &p), "n = {n}, {p:?}");
            }
        }
        let cube = cube_hull();
        for p in [Vector3::new(2.0, 2.0, 0.5), Vector3::new(2.0, 2.0, 2.0), Vector3::zeros()] {
            assert_eq!(cube.face_planes().highest(&p), by_loop(&cube, &p), "{p:?}");
        }
        let nan = Vector3::new(f32::NAN, 0.0, 0.0);
        assert_eq!(cube.face_planes().highest(&nan), None);
    }

    /// The aligned scan against the loop, over hulls of one to many blocks
    /// of faces, directions of every scale, and a cube's exact ties (along
    /// its edges and corners, where two or three faces share the largest dot
    /// product and the first must win); a NaN direction finds none, and a
    /// zero one the first face, as the loop does.
    #[test]
    fn the_aligned_scan_picks_the_loops_face() {
        for n in [4usize, 10, 20, 100, 1000] {
            let hull = sphere_hull(n);
            for k in 0..500 {
                let k = k as f32;
                let scale = [1e-3f32, 1.0, 1e3][k as usize % 3];
                let d = Vector3::new((k * 0.37).sin(), (k * 0.91).cos(), (k * 0.13).sin()) * scale;
                let got = hull.face_planes().most_aligned(&d);
                assert_eq!(got, aligned_by_loop(&hull, &d), "n = {n}, {d:?}");
            }
        }
        let cube = cube_hull();
        for d in [
            Vector3::new(1.0, 1.0, 0.0),
            Vector3::new(-1.0, 0.0, -1.0),
            Vector3::new(1.0, -1.0, 1.0),
            Vector3::new(0.0, 0.0, -2.0),
            Vector3::zeros(),
        ] {
            assert_eq!(cube.face_planes().most_aligned(&d), aligned_by_loop(&cube, &d), "{d:?}");
        }
        assert_eq!(cube.face_planes().most_aligned(&Vector3::zeros()), Some(0));
        let nan = Vector3::new(0.0, f32::NAN, 0.0);
        assert_eq!(cube.face_planes().most_aligned(&nan), None);
    }
}
