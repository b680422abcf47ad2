//! The ground as a grid of tiles, each drawn by the cheapest of four
//! fragment shaders that still gives its exact picture.
//!
//! The ground's per-pixel work is the grid lines (anti-aliased with
//! screen-space derivatives) and the sun's shadow lookup. Both vanish on
//! most of the ground of a wide view: the grid fades out completely
//! [`GRID_FADE_END_CELLS`] cells from the eye, and a shadow falls only where
//! the light's ray from a ground point meets the sphere the shadow map was
//! fitted to. On a software rasteriser the ground is most of the screen, so
//! a per-pixel branch would not help (both sides run); instead the ground is
//! cut into [`TILES_PER_SIDE`]² tiles, and each tile is drawn by the
//! pipeline variant with only the terms that can be non-zero on it
//! ([`GroundVariant`]). The fog and the lighting, which are smooth over the
//! ground, are evaluated per vertex in every variant.
//!
//! The tests are conservative: a tile gets a term whenever any of its
//! points might need it, so the image is the same as with every term
//! everywhere, up to the per-vertex fog.

use nalgebra::{Point3, Vector3};

/// Tiles along each side of the square ground.
pub(crate) const TILES_PER_SIDE: usize = 24;

/// Distance from the eye, in grid cells, beyond which no grid line is drawn
/// (`fade` in ground.wgsl reaches 0).
pub(crate) const GRID_FADE_END_CELLS: f32 = 90.0;

/// Below this height of the light above the horizon (the y component of
/// the unit vector toward it), shadows are drawn on every tile: their
/// footprint on the ground becomes unbounded.
const GRAZING_LIGHT: f32 = 0.02;

/// Which per-pixel terms a ground tile's shader evaluates.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum GroundVariant {
    /// Neither: the per-vertex fogged, sunlit colour.
    Plain,
    /// Grid lines only.
    Grid,
    /// The shadow lookup only.
    Shadow,
    /// Both.
    GridShadow,
}

impl GroundVariant {
    /// Every variant, in the order of [`GroundTiles::ranges`].
    pub const ALL: [GroundVariant; 4] = [Self::Plain, Self::Grid, Self::Shadow, Self::GridShadow];

    fn new(grid: bool, shadow: bool) -> Self {
        match (grid, shadow) {
            (false, false) => Self::Plain,
            (true, false) => Self::Grid,
            (false, true) => Self::Shadow,
            (true, true) => Self::GridShadow,
        }
    }

    /// Whether the variant draws grid lines.
    pub fn grid(self) -> bool {
        matches!(self, Self::Grid | Self::GridShadow)
    }

    /// Whether the variant looks up the shadow map.
    pub fn shadow(self) -> bool {
        matches!(self, Self::Shadow | Self::GridShadow)
    }
}

/// The region where the shadow map can darken the ground: the sphere its
/// casters were fitted in, seen along the unit vector toward the light.
#[derive(Debug, Clone, Copy)]
pub(crate) struct ShadowReach {
    pub center: Point3<f32>,
    pub radius: f32,
    pub to_light: Vector3<f32>,
}

/// This frame's ground triangles, grouped by variant: `vertices` holds the
/// xz corners, and `ranges[v]` the vertex range of variant `GroundVariant::ALL[v]`.
#[derive(Debug, Default)]
pub(crate) struct GroundTiles {
    pub vertices: Vec<[f32; 2]>,
    pub ranges: [(u32, u32); 4],
}

impl GroundTiles {
    /// Rebuilds the tiles of a ground of half side `half_extent` and grid
    /// cell `cell`, seen from `eye`, with shadows reaching `shadow` (none
    /// when `None`). Reuses the allocation.
    pub fn rebuild(
        &mut self,
        half_extent: f32,
        cell: f32,
        eye: &Point3<f32>,
        shadow: Option<&ShadowReach>,
    ) {
        self.vertices.clear();
        self.ranges = [(0, 0); 4];
        if !(half_extent > 0.0 && half_extent.is_finite()) {
            return;
        }
        let side = 2.0 * half_extent / TILES_PER_SIDE as f32;
        let grid_reach = GRID_FADE_END_CELLS * cell;
        let footprint = shadow.map(footprint);
        let mut variants = [GroundVariant::Plain; TILES_PER_SIDE * TILES_PER_SIDE];
        for (index, variant) in variants.iter_mut().enumerate() {
            let (i, j) = (index % TILES_PER_SIDE, index / TILES_PER_SIDE);
            let min = [-half_extent + side * i as f32, -half_extent + side * j as f32];
            let max = [min[0] + side, min[1] + side];
            // The nearest point of the tile to the eye, in 3D (the tile is
            // at y = 0); NaN-safe: a non-finite eye draws the grid.
            let dx = (min[0] - eye.x).max(eye.x - max[0]).max(0.0);
            let dz = (min[1] - eye.z).max(eye.z - max[1]).max(0.0);
            let grid = !((dx * dx + dz * dz + eye.y * eye.y).sqrt() >= grid_reach);
            let shadow = match &footprint {
                None => false,
                Some(None) => true,
                Some(Some((lo, hi))) => {
                    min[0] <= hi[0] && lo[0] <= max[0] && min[1] <= hi[1] && lo[1] <= max[1]
                }
            };
            *variant = GroundVariant::new(grid, shadow);
        }
        for (v, kind) in GroundVariant::ALL.iter().enumerate() {
            let start = self.vertices.len() as u32;
            for (index, _) in variants.iter().enumerate().filter(|(_, k)| *k == kind) {
                let (i, j) = (index % TILES_PER_SIDE, index / TILES_PER_SIDE);
                let x0 = -half_extent + side * i as f32;
                let z0 = -half_extent + side * j as f32;
                // The last row and column end exactly on the edge.
                let x1 = if i + 1 == TILES_PER_SIDE { half_extent } else { x0 + side };
                let z1 = if j + 1 == TILES_PER_SIDE { half_extent } else { z0 + side };
                // Counter-clockwise seen from above (+y), as the old quad.
                self.vertices.extend([[x0, z0], [x0, z1], [x1, z1], [x0, z0], [x1, z1], [x1, z0]]);
            }
            self.ranges[v] = (start, self.vertices.len() as u32);
        }
    }
}

impl GroundTiles {
    /// Draws every tile with `variant`: with [`GroundVariant::GridShadow`],
    /// every term everywhere, the picture the classification must keep.
    #[cfg(test)]
    pub fn draw_all_as(&mut self, variant: GroundVariant) {
        let all = (0, self.vertices.len() as u32);
        self.ranges = GroundVariant::ALL.map(|v| if v == variant { all } else { (all.1, all.1) });
    }
}

/// The xz rectangle on the ground that contains every ground point whose
/// ray toward the light meets the shadow sphere, or `None` when the light
/// is too low for a bounded one (shadows everywhere). The sphere's box is
/// projected along the light onto y = 0 and the rectangle is the hull of
/// the eight projected corners; parts of the box below the ground project
/// to points past the footprint, which only makes it larger.
fn footprint(reach: &ShadowReach) -> Option<([f32; 2], [f32; 2])> {
    let l = reach.to_light;
    if !(l.y > GRAZING_LIGHT) || !(reach.radius.is_finite()) {
        return None;
    }
    let r = reach.radius.max(0.0);
    let mut lo = [f32::INFINITY; 2];
    let mut hi = [f32::NEG_INFINITY; 2];
    for corner in 0..8 {
        let s = |bit: usize| if corner & (1 << bit) == 0 { -r } else { r };
        let q = reach.center.coords + Vector3::new(s(0), s(1), s(2));
        // q - l t lands on y = 0 at t = q.y / l.y.
        let t = q.y / l.y;
        let p = [q.x - l.x * t, q.z - l.z * t];
        for a in 0..2 {
            lo[a] = lo[a].min(p[a]);
            hi[a] = hi[a].max(p[a]);
        }
    }
    (lo.iter().chain(&hi).all(|v| v.is_finite())).then_some((lo, hi))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tiles(eye: Point3<f32>, shadow: Option<&ShadowReach>) -> GroundTiles {
        let mut t = GroundTiles::default();
        t.rebuild(240.0, 1.0, &eye, shadow);
        t
    }

    fn variant_at(t: &GroundTiles, x: f32, z: f32) -> GroundVariant {
        let mut found = None;
        for (v, &(start, end)) in t.ranges.iter().enumerate() {
            for tri in t.vertices[start as usize..end as usize].chunks(3) {
                let (xs, zs): (Vec<f32>, Vec<f32>) = tri.iter().map(|p| (p[0], p[1])).unzip();
                let inside = x >= xs.iter().cloned().fold(f32::INFINITY, f32::min)
                    && x <= xs.iter().cloned().fold(f32::NEG_INFINITY, f32::max)
                    && z >= zs.iter().cloned().fold(f32::INFINITY, f32::min)
                    && z <= zs.iter().cloned().fold(f32::NEG_INFINITY, f32::max);
                if inside {
                    found = Some(GroundVariant::ALL[v]);
                }
            }
        }
        found.expect("point not covered")
    }

    #[test]
    fn tiles_cover_the_ground_exactly_once() {
        let t = tiles(Point3::new(3.0, 10.0, 7.0), None);
        assert_eq!(t.vertices.len(), 6 * TILES_PER_SIDE * TILES_PER_SIDE);
        let area: f32 = t
            .vertices
            .chunks(3)
            .map(|p| {
                let (a, b, c) = (p[0], p[1], p[2]);
                // Signed area seen from above with x right and z down the
                // page: counter-clockwise from +y is negative here.
                0.5 * ((b[0] - a[0]) * (c[1] - a[1]) - (c[0] - a[0]) * (b[1] - a[1]))
            })
            .map(|a| {
                assert!(a < 0.0, "a triangle winds the wrong way or is degenerate");
                -a
            })
            .sum();
        assert!((area - 480.0 * 480.0).abs() < 1.0, "area {area}");
        let mut end = 0;
        for &(s, e) in &t.ranges {
            assert_eq!(s, end);
            end = e;
        }
        assert_eq!(end as usize, t.vertices.len());
    }

    #[test]
    fn the_grid_is_drawn_exactly_where_it_has_not_faded_out() {
        let eye = Point3::new(0.0, 20.0, 0.0);
        let t = tiles(eye, None);
        assert_eq!(variant_at(&t, 0.5, 0.5), GroundVariant::Grid);
        // 20 m up, 80 m out: 82 m away, inside the 90-cell reach.
        assert_eq!(variant_at(&t, 80.0, 0.5), GroundVariant::Grid);
        // Every point of a tile beyond the reach is plain: its nearest
        // point is farther than 90 cells.
        for x in [150.0, -200.0] {
            for z in [0.0, 170.0] {
                assert_eq!(variant_at(&t, x, z), GroundVariant::Plain, "({x}, {z})");
            }
        }
        // A high eye sees no grid at all.
        let t = tiles(Point3::new(0.0, 100.0, 0.0), None);
        assert!(t.vertices.len() as u32 == t.ranges[0].1 - t.ranges[0].0);
    }

    #[test]
    fn shadows_are_looked_up_wherever_a_caster_can_shade_the_ground() {
        let reach = ShadowReach {
            center: Point3::new(100.0, 5.0, 100.0),
            radius: 5.0,
            to_light: Vector3::new(1.0, 1.0, 0.0).normalize(),
        };
        let eye = Point3::new(0.0, 500.0, 0.0);
        let t = tiles(eye, Some(&reach));
        // Brute force: march rays from ground points toward the light; any
        // that meets the sphere needs the shadow variant.
        let mut shaded = 0;
        for i in 0..200 {
            for j in 0..200 {
                let p = Point3::new(-240.0 + 2.4 * i as f32, 0.0, -240.0 + 2.4 * j as f32);
                let to_center = reach.center - p;
                let along = to_center.dot(&reach.to_light).max(0.0);
                let miss = (to_center - reach.to_light * along).norm();
                if miss <= reach.radius {
                    shaded += 1;
                    assert!(variant_at(&t, p.x, p.z).shadow(), "({}, {})", p.x, p.z);
                }
            }
        }
        assert!(shaded > 10, "the sphere's shadow lands on the ground");
        // Far from the footprint, no lookup.
        assert!(!variant_at(&t, -200.0, -200.0).shadow());
    }

    #[test]
    fn a_grazing_light_or_a_missing_shadow_map_is_all_or_nothing() {
        let eye = Point3::new(0.0, 500.0, 0.0);
        let reach = ShadowReach {
            center: Point3::origin(),
            radius: 1.0,
            to_light: Vector3::new(1.0, 0.001, 0.0).normalize(),
        };
        let t = tiles(eye, Some(&reach));
        assert_eq!(t.ranges[2].1 - t.ranges[2].0, t.vertices.len() as u32);
        let t = tiles(eye, None);
        assert_eq!(t.ranges[0].1 - t.ranges[0].0, t.vertices.len() as u32);
    }

    #[test]
    fn bad_input_gives_no_ground_or_the_safe_variant() {
        let mut t = GroundTiles::default();
        t.rebuild(f32::NAN, 1.0, &Point3::origin(), None);
        assert!(t.vertices.is_empty());
        t.rebuild(0.0, 1.0, &Point3::origin(), None);
        assert!(t.vertices.is_empty());
        // A NaN eye draws the grid (the safe side) rather than dropping it.
        t.rebuild(10.0, 1.0, &Point3::new(f32::NAN, 1.0, 0.0), None);
        assert_eq!(t.ranges[1].1 - t.ranges[1].0, t.vertices.len() as u32);
    }
}
