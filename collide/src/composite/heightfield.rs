//! A heightfield: a grid of heights over the x–z plane of its frame, two
//! triangles per cell, centred on the frame's origin.
//!
//! Besides the heights, the field stores one byte per cell: the identified
//! edges (see [`super::edges`]) of its two triangles, classified once at
//! build from the neighbouring heights (a query used to classify each
//! triangle's three edges at every visit, 11 % of a cube's manifold query
//! against the `trees` wave, sines included). A query computes the range
//! of cells its box covers and builds their triangles on the fly, so no
//! query allocates and the field costs about 5 bytes per sample.
//!
//! Layout: `rows × columns` samples, row-major. A row is a line of samples
//! along x; rows follow each other along z. Sample `(row, column)` is at
//! `x = (column − (columns − 1) / 2) · dx`, `z = (row − (rows − 1) / 2) · dz`.
//! Cell `(row, column)` spans samples `row..=row + 1`, `column..=column + 1`
//! and is cut along its diagonal from `(row, column)` to
//! `(row + 1, column + 1)` into triangle `2 · cell` and `2 · cell + 1`,
//! with `cell = row · (columns − 1) + column`, both facing +y.

use nalgebra::{Isometry3, Point3};

use super::edges::{ALL_EDGES_ACTIVE, classify_edge};
use super::error::CompositeError;
use super::exact_aabb::aabb_of_points;
use crate::aabb::Aabb;
use crate::shape::{ConvexHull, Triangle};

/// Most samples a heightfield takes (its triangle indices must fit a `u32`).
const MAX_SAMPLES: usize = 1 << 30;

/// A grid of heights with a cell size `[dx, dz]`, centred on its frame.
///
/// ```
/// use collide::composite::HeightField;
/// use collide::nalgebra::Isometry3;
/// // 3 × 3 samples, 1 m cells: spans x and z in [-1, 1].
/// let field = HeightField::try_new(3, 3, vec![0.0, 0.0, 0.0, 0.0, 0.5, 0.0, 0.0, 0.0, 0.0], [1.0, 1.0])
///     .unwrap();
/// assert_eq!(field.triangle_count(), 8);
/// let b = field.aabb(&Isometry3::identity());
/// assert_eq!((b.min.x, b.max.x, b.max.y), (-1.0, 1.0, 0.5));
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct HeightField {
    rows: usize,
    columns: usize,
    heights: Vec<f32>,
    cell: [f32; 2],
    /// The lowest and highest sample.
    height_range: [f32; 2],
    /// The vertices of the surface's convex hull, for its exact box.
    hull_points: Vec<Point3<f32>>,
    /// Per cell, the active edges of its triangle `2 · cell` in bits 0–2
    /// and of `2 · cell + 1` in bits 3–5.
    edge_masks: Vec<u8>,
}

impl HeightField {
    /// A field of `rows × columns` samples given row-major (see the module
    /// docs for the layout) with cells `cell = [dx, dz]`.
    ///
    /// # Errors
    /// [`CompositeError::BadGrid`] for fewer than two rows or columns or a
    /// sample count other than `rows · columns`;
    /// [`CompositeError::BadCellSize`]; [`CompositeError::NonFiniteVertex`]
    /// for a NaN or infinite height; [`CompositeError::TooLarge`] past
    /// `2^30` samples.
    pub fn try_new(
        rows: usize,
        columns: usize,
        heights: Vec<f32>,
        cell: [f32; 2],
    ) -> Result<Self, CompositeError> {
        if rows < 2 || columns < 2 || rows.checked_mul(columns) != Some(heights.len()) {
            return Err(CompositeError::BadGrid { row: rows });
        }
        if heights.len() > MAX_SAMPLES {
            return Err(CompositeError::TooLarge { count: heights.len() });
        }
        if !cell.iter().all(|d| d.is_finite() && *d > 0.0) {
            return Err(CompositeError::BadCellSize);
        }
        if let Some(index) = heights.iter().position(|h| !h.is_finite()) {
            return Err(CompositeError::NonFiniteVertex { index });
        }
        let lo = heights.iter().copied().fold(f32::INFINITY, f32::min);
        let hi = heights.iter().copied().fold(f32::NEG_INFINITY, f32::max);
        let mut field = Self {
            rows,
            columns,
            heights,
            cell,
            height_range: [lo, hi],
            hull_points: Vec::new(),
            edge_masks: Vec::new(),
        };
        let cells = (rows - 1) * (columns - 1);
        field.edge_masks = (0..cells as u32)
            .map(|cell| field.classify_edges(2 * cell) | field.classify_edges(2 * cell + 1) << 3)
            .collect();
        let samples: Vec<Point3<f32>> = (0..rows)
            .flat_map(|r| (0..columns).map(move |c| (r, c)))
            .map(|(r, c)| field.sample(r, c))
            .collect();
        field.hull_points = match ConvexHull::new(&samples) {
            Ok(hull) => hull.vertices().to_vec(),
            Err(_) => samples,
        };
        Ok(field)
    }

    /// A field from its rows (each a line of samples along x), as scene
    /// files give it.
    ///
    /// # Errors
    /// As [`HeightField::try_new`]; [`CompositeError::BadGrid`] names the
    /// first row whose length differs from row 0's.
    pub fn try_from_rows(rows: &[Vec<f32>], cell: [f32; 2]) -> Result<Self, CompositeError> {
        let columns = rows.first().map_or(0, Vec::len);
        if let Some(row) = rows.iter().position(|r| r.len() != columns) {
            return Err(CompositeError::BadGrid { row });
        }
        Self::try_new(rows.len(), columns, rows.concat(), cell)
    }

    /// Number of rows (samples along z).
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// Number of columns (samples along x).
    pub fn columns(&self) -> usize {
        self.columns
    }

    /// The cell size `[dx, dz]`.
    pub fn cell(&self) -> [f32; 2] {
        self.cell
    }

    /// The heights, row-major.
    pub fn heights(&self) -> &[f32] {
        &self.heights
    }

    /// Number of triangles: two per cell.
    pub fn triangle_count(&self) -> usize {
        2 * (self.rows - 1) * (self.columns - 1)
    }

    /// Sample `(row, column)` in the field's frame.
    #[inline]
    pub(crate) fn sample(&self, row: usize, column: usize) -> Point3<f32> {
        let [dx, dz] = self.cell;
        Point3::new(
            (column as f32 - 0.5 * (self.columns - 1) as f32) * dx,
            self.heights[row * self.columns + column],
            (row as f32 - 0.5 * (self.rows - 1) as f32) * dz,
        )
    }

    /// Triangle `index` in the field's frame, or `None` past the end.
    pub fn triangle(&self, index: u32) -> Option<Triangle> {
        if index as usize >= self.triangle_count() {
            return None;
        }
        let [a, b, c] = self.corners(index);
        Some(Triangle::new(a, b, c))
    }

    /// The (row, column) of the cell holding triangle `index`, and which of
    /// its two triangles it is.
    #[inline]
    fn cell_of(&self, index: u32) -> (usize, usize, u32) {
        let cell = index as usize / 2;
        (cell / (self.columns - 1), cell % (self.columns - 1), index % 2)
    }

    /// Triangle `index`'s corners; the index must be in range.
    #[inline]
    pub(crate) fn corners(&self, index: u32) -> [Point3<f32>; 3] {
        let (r, c, k) = self.cell_of(index);
        let p00 = self.sample(r, c);
        let p11 = self.sample(r + 1, c + 1);
        if k == 0 { [p00, self.sample(r + 1, c), p11] } else { [p00, p11, self.sample(r, c + 1)] }
    }

    /// The active edges of triangle `index` (as
    /// [`TriMesh::active_edges`](super::TriMesh::active_edges)), from the
    /// neighbouring cells' heights (classified at build). 0 past the end.
    #[inline]
    pub fn active_edges(&self, index: u32) -> u8 {
        match self.edge_masks.get(index as usize / 2) {
            Some(mask) => (mask >> (3 * (index % 2))) & ALL_EDGES_ACTIVE,
            None => 0,
        }
    }

    /// Classifies the edges of triangle `index` (in range) from the
    /// neighbouring cells' heights.
    fn classify_edges(&self, index: u32) -> u8 {
        let corners = self.corners(index);
        let [a, b, c] = corners;
        let Some(normal) = (b - a).cross(&(c - a)).try_normalize(0.0) else {
            return ALL_EDGES_ACTIVE;
        };
        let (r, c, k) = self.cell_of(index);
        let (rows, cols) = (self.rows, self.columns);
        // The far corner across each edge, where a neighbour exists (see
        // the module docs for the cut).
        let far: [Option<(usize, usize)>; 3] = if k == 0 {
            [(c > 0).then(|| (r, c - 1)), (r + 2 < rows).then(|| (r + 2, c + 1)), Some((r, c + 1))]
        } else {
            [Some((r + 1, c)), (c + 2 < cols).then(|| (r + 1, c + 2)), (r > 0).then(|| (r - 1, c))]
        };
        let mut mask = ALL_EDGES_ACTIVE;
        for (e, far) in far.iter().enumerate() {
            if let Some((fr, fc)) = *far {
                let kind = classify_edge(
                    &normal,
                    &corners[e],
                    &corners[(e + 1) % 3],
                    &self.sample(fr, fc),
                );
                if !kind.is_active() {
                    mask &= !(1 << e);
                }
            }
        }
        mask
    }

    /// The field's box in its own frame.
    pub fn local_aabb(&self) -> Aabb {
        let hx = 0.5 * (self.columns - 1) as f32 * self.cell[0];
        let hz = 0.5 * (self.rows - 1) as f32 * self.cell[1];
        Aabb::new(
            Point3::new(-hx, self.height_range[0], -hz),
            Point3::new(hx, self.height_range[1], hz),
        )
    }

    /// The field's exact axis-aligned box at `pose`.
    pub fn aabb(&self, pose: &Isometry3<f32>) -> Aabb {
        if pose.rotation == nalgebra::UnitQuaternion::identity() {
            let b = self.local_aabb();
            let t = pose.translation.vector;
            return Aabb::new(b.min + t, b.max + t);
        }
        aabb_of_points(&self.hull_points, pose)
    }

    /// Calls `on_triangle` with every triangle whose box overlaps `aabb`
    /// (field frame), cell by cell, until it returns `false`; returns
    /// whether it was stopped.
    pub(crate) fn visit_triangles(
        &self,
        aabb: &Aabb,
        mut on_triangle: impl FnMut(u32, [Point3<f32>; 3]) -> bool,
    ) -> bool {
        let Some((r0, r1, c0, c1)) = self.cell_range(aabb) else {
            return false;
        };
        for r in r0..=r1 {
            for c in c0..=c1 {
                let cell = (r * (self.columns - 1) + c) as u32;
                for k in 0..2 {
                    let index = 2 * cell + k;
                    let tri = self.corners(index);
                    let lo = tri[0].y.min(tri[1].y).min(tri[2].y);
                    let hi = tri[0].y.max(tri[1].y).max(tri[2].y);
                    if hi < aabb.min.y || lo > aabb.max.y {
                        continue;
                    }
                    if !on_triangle(index, tri) {
                        return true;
                    }
                }
            }
        }
        false
    }

    /// The inclusive ranges of rows and columns of the cells `aabb`
    /// overlaps, or `None` when it misses the field (or is not finite).
    fn cell_range(&self, aabb: &Aabb) -> Option<(usize, usize, usize, usize)> {
        let field = self.local_aabb();
        if !field.overlaps(aabb) {
            return None;
        }
        let [dx, dz] = self.cell;
        let range = |lo: f32, hi: f32, origin: f32, d: f32, cells: usize| {
            let first = ((lo - origin) / d).floor();
            let last = ((hi - origin) / d).floor();
            // NaN fails both comparisons and is refused.
            if !(first <= last) {
                return None;
            }
            let clamp = |x: f32| (x.max(0.0) as usize).min(cells - 1);
            Some((clamp(first), clamp(last)))
        };
        let (c0, c1) = range(aabb.min.x, aabb.max.x, field.min.x, dx, self.columns - 1)?;
        let (r0, r1) = range(aabb.min.z, aabb.max.z, field.min.z, dz, self.rows - 1)?;
        Some((r0, r1, c0, c1))
    }
}
