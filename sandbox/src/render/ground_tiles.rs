//! The ground as a grid of tiles, each drawn by the cheapest of four
//! fragment shaders that still gives its exact picture.
//!
//! The ground's per-pixel work is the grid lines (anti-aliased with
//! screen-space derivatives) and the sun's shadow lookup. Both vanish on
//! most of the ground of a wide view: the grid fades out completely
//! [`GRID_FADE_END_CELLS`] cells from the eye, and a shadow falls only where
//! the light's ray from a ground point meets a caster. On a software
//! rasteriser the ground is most of the screen, so a per-pixel branch would
//! not help (both sides run); instead the ground is cut into
//! [`TILES_PER_SIDE`]² tiles, and each tile is drawn by the pipeline
//! variant with only the terms that can be non-zero on it
//! ([`GroundVariant`]). The fog and the lighting, which are smooth over the
//! ground, are evaluated per vertex in every variant.
//!
//! Shadows are found per caster: each caster's bounding sphere, seen along
//! the light, shades a bounded patch of ground, and the patches are marked
//! on a grid [`SHADOW_LEVELS`] halvings finer than the tiles. A tile whose
//! cells are partly marked is split, quadtree fashion, down to that grid,
//! and a tile wholly marked or wholly clear is kept whole, so the shadow
//! lookup runs near the casters' shadows rather than over the whole region
//! the shadow map covers. Where a tile meets smaller neighbours it is drawn
//! as a fan through their corners on its edges, so the ground has no
//! T-junctions, which could leave pixel-sized cracks.
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

/// Halvings of a tile where it meets a shadow's edge: shadows are resolved
/// on a grid of `TILES_PER_SIDE << SHADOW_LEVELS` cells per side.
pub(crate) const SHADOW_LEVELS: usize = 4;

/// Cells per side of the finest grid.
const FINE_CELLS: usize = TILES_PER_SIDE << SHADOW_LEVELS;

/// What casts shadows this frame: the unit vector toward the light, and a
/// bounding sphere (centre xyz, radius) per caster.
#[derive(Debug, Clone, Copy)]
pub(crate) struct ShadowCasters<'a> {
    pub to_light: Vector3<f32>,
    pub spheres: &'a [[f32; 4]],
}

/// How much of a quadtree node the shadows mark.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Marked {
    None,
    Some,
    All,
}

/// A tile of the quadtree that is drawn whole: its finest cells
/// `[x, x + size) x [z, z + size)`, and whether shadows are looked up on it.
#[derive(Debug, Clone, Copy)]
struct Leaf {
    x: usize,
    z: usize,
    size: usize,
    shadow: bool,
}

/// This frame's ground triangles, grouped by variant: `vertices` holds the
/// xz corners, and `ranges[v]` the vertex range of variant `GroundVariant::ALL[v]`.
#[derive(Debug, Default)]
pub(crate) struct GroundTiles {
    pub vertices: Vec<[f32; 2]>,
    pub ranges: [(u32, u32); 4],
    /// Scratch, kept between frames: the marks of every quadtree level
    /// (level 0 the tiles, level `SHADOW_LEVELS` the finest grid), the
    /// leaves, the size of the leaf over each finest cell, and the leaves'
    /// variants.
    marks: Vec<Vec<Marked>>,
    leaves: Vec<Leaf>,
    leaf_size: Vec<u8>,
    variants: Vec<GroundVariant>,
}

impl GroundTiles {
    /// Rebuilds the tiles of a ground of half side `half_extent` and grid
    /// cell `cell`, seen from `eye`, with shadows from `shadow` (none when
    /// `None`). Reuses the allocations.
    pub fn rebuild(
        &mut self,
        half_extent: f32,
        cell: f32,
        eye: &Point3<f32>,
        shadow: Option<&ShadowCasters<'_>>,
    ) {
        self.vertices.clear();
        self.ranges = [(0, 0); 4];
        if !(half_extent > 0.0 && half_extent.is_finite()) {
            return;
        }
        self.mark_shadows(half_extent, shadow);
        self.build_leaves();
        let fine = 2.0 * half_extent / FINE_CELLS as f32;
        // Every vertex is placed by this one formula, so that neighbours'
        // shared corners are bitwise equal.
        let at =
            |i: usize| if i == FINE_CELLS { half_extent } else { -half_extent + fine * i as f32 };
        let grid_reach = GRID_FADE_END_CELLS * cell;
        self.variants.clear();
        for leaf in &self.leaves {
            let (min, max) =
                ([at(leaf.x), at(leaf.z)], [at(leaf.x + leaf.size), at(leaf.z + leaf.size)]);
            // The nearest point of the tile to the eye, in 3D (the tile is
            // at y = 0); NaN-safe: a non-finite eye draws the grid.
            let dx = (min[0] - eye.x).max(eye.x - max[0]).max(0.0);
            let dz = (min[1] - eye.z).max(eye.z - max[1]).max(0.0);
            let grid = !((dx * dx + dz * dz + eye.y * eye.y).sqrt() >= grid_reach);
            self.variants.push(GroundVariant::new(grid, leaf.shadow));
        }
        for (v, kind) in GroundVariant::ALL.iter().enumerate() {
            let start = self.vertices.len() as u32;
            for (leaf, _) in self.leaves.iter().zip(&self.variants).filter(|(_, k)| *k == kind) {
                emit_leaf(leaf, &self.leaf_size, &at, &mut self.vertices);
            }
            self.ranges[v] = (start, self.vertices.len() as u32);
        }
    }

    /// Marks the finest cells any caster can shade, and fills the coarser
    /// levels from them. With no shadows nothing is marked; with a light
    /// too low for bounded shadows, or a caster that is not finite,
    /// everything is.
    fn mark_shadows(&mut self, half_extent: f32, shadow: Option<&ShadowCasters<'_>>) {
        self.marks.resize_with(SHADOW_LEVELS + 1, Vec::new);
        let finest = &mut self.marks[SHADOW_LEVELS];
        finest.clear();
        let everywhere = shadow.is_some_and(|s| !(s.to_light.y > GRAZING_LIGHT));
        finest.resize(FINE_CELLS * FINE_CELLS, if everywhere { Marked::All } else { Marked::None });
        if let Some(casters) = shadow.filter(|_| !everywhere) {
            let cells_per_metre = FINE_CELLS as f32 / (2.0 * half_extent);
            for sphere in casters.spheres {
                match shaded_cells(sphere, &casters.to_light, half_extent, cells_per_metre) {
                    Shade::Nowhere => {}
                    Shade::Everywhere => {
                        finest.fill(Marked::All);
                        break;
                    }
                    Shade::Cells { x, z } => {
                        for row in z.0..z.1 {
                            finest[row * FINE_CELLS + x.0..row * FINE_CELLS + x.1]
                                .fill(Marked::All);
                        }
                    }
                }
            }
        }
        for level in (0..SHADOW_LEVELS).rev() {
            let n = TILES_PER_SIDE << level;
            let (coarse, fine) = self.marks.split_at_mut(level + 1);
            let (coarse, fine) = (&mut coarse[level], &fine[0]);
            coarse.clear();
            coarse.extend((0..n * n).map(|k| {
                let (i, j) = (k % n, k / n);
                let child = |di: usize, dj: usize| fine[(2 * j + dj) * 2 * n + 2 * i + di];
                match [child(0, 0), child(1, 0), child(0, 1), child(1, 1)] {
                    [Marked::None, Marked::None, Marked::None, Marked::None] => Marked::None,
                    [Marked::All, Marked::All, Marked::All, Marked::All] => Marked::All,
                    _ => Marked::Some,
                }
            }));
        }
    }

    /// Walks the quadtree from every tile, keeping nodes that are wholly
    /// marked or clear (or finest) as leaves, and records each finest
    /// cell's leaf size.
    fn build_leaves(&mut self) {
        self.leaves.clear();
        self.leaf_size.clear();
        self.leaf_size.resize(FINE_CELLS * FINE_CELLS, 0);
        // Depth-first with an explicit stack: (level, i, j) at that level.
        let mut stack: Vec<(usize, usize, usize)> = Vec::with_capacity(4 * SHADOW_LEVELS + 4);
        for j in 0..TILES_PER_SIDE {
            for i in 0..TILES_PER_SIDE {
                stack.push((0, i, j));
                while let Some((level, i, j)) = stack.pop() {
                    let n = TILES_PER_SIDE << level;
                    let mark = self.marks[level][j * n + i];
                    if mark == Marked::Some && level < SHADOW_LEVELS {
                        for (di, dj) in [(1, 1), (0, 1), (1, 0), (0, 0)] {
                            stack.push((level + 1, 2 * i + di, 2 * j + dj));
                        }
                        continue;
                    }
                    let size = 1 << (SHADOW_LEVELS - level);
                    let leaf =
                        Leaf { x: i * size, z: j * size, size, shadow: mark != Marked::None };
                    for row in leaf.z..leaf.z + size {
                        self.leaf_size[row * FINE_CELLS + leaf.x..row * FINE_CELLS + leaf.x + size]
                            .fill(size as u8);
                    }
                    self.leaves.push(leaf);
                }
            }
        }
    }
}

/// The finest cells a caster can shade.
enum Shade {
    Nowhere,
    Everywhere,
    /// Half-open ranges of cell columns and rows.
    Cells {
        x: (usize, usize),
        z: (usize, usize),
    },
}

/// The cells whose ground points may see the light through `sphere`
/// (centre xyz, radius). A ground point `g` is shaded when the line
/// `g + t l` passes within the radius of the centre `c`: an ellipse around
/// `c - l c.y / l.y` with semi-axes `r` across the light and `r / l.y`
/// along it, so the square of half side `r / l.y` contains it. A sphere
/// wholly below the ground shades nothing; a non-finite one, everything.
fn shaded_cells(
    sphere: &[f32; 4],
    l: &Vector3<f32>,
    half_extent: f32,
    cells_per_metre: f32,
) -> Shade {
    let [cx, cy, cz, r] = *sphere;
    if !(cx.is_finite() && cy.is_finite() && cz.is_finite() && r.is_finite()) {
        return Shade::Everywhere;
    }
    let r = r.max(0.0);
    if cy + r < 0.0 {
        return Shade::Nowhere;
    }
    let t = cy / l.y;
    let reach = r / l.y;
    let (px, pz) = (cx - l.x * t, cz - l.z * t);
    // Cell range covering [p - reach, p + reach], clamped to the ground;
    // the float-to-usize casts saturate, and NaN cannot occur here.
    let cells = |p: f32| {
        let lo = ((p - reach + half_extent) * cells_per_metre).floor();
        let hi = ((p + reach + half_extent) * cells_per_metre).floor() + 1.0;
        (lo.max(0.0) as usize, (hi.max(0.0) as usize).min(FINE_CELLS))
    };
    let (x, z) = (cells(px), cells(pz));
    if x.0 >= x.1 || z.0 >= z.1 {
        return Shade::Nowhere;
    }
    Shade::Cells { x, z }
}

/// Appends the triangles of `leaf`: two when no smaller neighbour has a
/// corner on its edges, otherwise a fan from its centre through its corners
/// and those of its smaller neighbours, counter-clockwise seen from above
/// (+y) like the two.
fn emit_leaf(leaf: &Leaf, leaf_size: &[u8], at: &impl Fn(usize) -> f32, out: &mut Vec<[f32; 2]>) {
    let (x0, z0, s) = (leaf.x, leaf.z, leaf.size);
    let (x1, z1) = (x0 + s, z0 + s);
    // Whether the neighbour leaf holding finest cell (x, z) has a corner at
    // the grid point whose coordinate along the shared edge is `along`.
    let corner_at = |x: usize, z: usize, along: usize| {
        let size = leaf_size[z * FINE_CELLS + x] as usize;
        size != 0 && along.is_multiple_of(size)
    };
    // The boundary, counter-clockwise from above: up the -x edge, along the
    // +z edge, down the +x edge, back along the -z edge. Each side lists its
    // start corner and the inner points where a neighbour has a corner.
    let mut ring: [[usize; 2]; 4 * (1 << SHADOW_LEVELS)] = [[0; 2]; 4 * (1 << SHADOW_LEVELS)];
    let mut len = 0;
    let mut push = |p: [usize; 2]| {
        ring[len] = p;
        len += 1;
    };
    push([x0, z0]);
    for z in z0 + 1..z1 {
        if x0 > 0 && corner_at(x0 - 1, z, z) {
            push([x0, z]);
        }
    }
    push([x0, z1]);
    for x in x0 + 1..x1 {
        if z1 < FINE_CELLS && corner_at(x, z1, x) {
            push([x, z1]);
        }
    }
    push([x1, z1]);
    for z in (z0 + 1..z1).rev() {
        if x1 < FINE_CELLS && corner_at(x1, z, z) {
            push([x1, z]);
        }
    }
    push([x1, z0]);
    for x in (x0 + 1..x1).rev() {
        if z0 > 0 && corner_at(x, z0 - 1, x) {
            push([x, z0]);
        }
    }
    let point = |p: [usize; 2]| [at(p[0]), at(p[1])];
    if len == 4 {
        let [a, b, c, d] = [ring[0], ring[1], ring[2], ring[3]].map(point);
        out.extend([a, b, c, a, c, d]);
        return;
    }
    let centre = [0.5 * (at(x0) + at(x1)), 0.5 * (at(z0) + at(z1))];
    for k in 0..len {
        out.extend([centre, point(ring[k]), point(ring[(k + 1) % len])]);
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

#[cfg(test)]
mod tests {
    use super::*;

    fn tiles(eye: Point3<f32>, shadow: Option<&ShadowCasters<'_>>) -> GroundTiles {
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

    /// Signed areas (seen from above, negative when counter-clockwise
    /// from +y, see `tiles_cover_the_ground_exactly_once`) of every triangle.
    fn areas(t: &GroundTiles) -> impl Iterator<Item = f32> + '_ {
        t.vertices.chunks(3).map(|p| {
            let (a, b, c) = (p[0], p[1], p[2]);
            0.5 * ((b[0] - a[0]) * (c[1] - a[1]) - (c[0] - a[0]) * (b[1] - a[1]))
        })
    }

    /// Area of the ground whose tiles look up the shadow map.
    fn shadow_area(t: &GroundTiles) -> f32 {
        let mut area = 0.0;
        for (v, &(start, end)) in t.ranges.iter().enumerate() {
            if GroundVariant::ALL[v].shadow() {
                let part = GroundTiles {
                    vertices: t.vertices[start as usize..end as usize].to_vec(),
                    ..Default::default()
                };
                area -= areas(&part).sum::<f32>();
            }
        }
        area
    }

    /// Brute force: every ground point on a fine lattice whose ray toward
    /// the light meets a caster sphere must be on a tile with the lookup.
    fn assert_every_shaded_point_looks_up(t: &GroundTiles, casters: &ShadowCasters<'_>) -> usize {
        let l = casters.to_light;
        let mut shaded = 0;
        for i in 0..400 {
            for j in 0..400 {
                let p = Point3::new(-240.0 + 1.2 * i as f32, 0.0, -240.0 + 1.2 * j as f32);
                let hit = casters.spheres.iter().any(|&[x, y, z, r]| {
                    let to_center = Point3::new(x, y, z) - p;
                    let along = to_center.dot(&l).max(0.0);
                    (to_center - l * along).norm() <= r
                });
                if hit {
                    shaded += 1;
                    assert!(variant_at(t, p.x, p.z).shadow(), "({}, {})", p.x, p.z);
                }
            }
        }
        shaded
    }

    #[test]
    fn shadows_are_looked_up_wherever_a_caster_can_shade_the_ground() {
        // A lone ball up high, a low sun over a row of cubes, a tall
        // stack, and a ball sunk halfway into the ground.
        let mut spheres = vec![[100.0, 30.0, 100.0, 5.0], [-50.0, 0.0, 20.0, 2.0]];
        spheres.extend((0..40).map(|k| [-100.0 + 2.0 * k as f32, 0.5, -60.0, 0.87]));
        spheres.extend((0..30).map(|k| [60.0, 0.5 + k as f32, -150.0, 0.87]));
        for to_light in [
            Vector3::new(1.0, 1.0, 0.0),
            Vector3::new(-0.3, 1.0, 0.5),
            Vector3::new(0.2, 0.25, -1.0),
            Vector3::y(),
        ] {
            let casters = ShadowCasters { to_light: to_light.normalize(), spheres: &spheres };
            let t = tiles(Point3::new(0.0, 500.0, 0.0), Some(&casters));
            let shaded = assert_every_shaded_point_looks_up(&t, &casters);
            assert!(shaded > 100, "{to_light:?}: the casters' shadows land on the ground");
            // Far from every shadow, no lookup.
            assert!(!variant_at(&t, -230.0, 230.0).shadow(), "{to_light:?}");
            // The lookup stays near the shadows: the refined tiles cover
            // little more than the shaded lattice points (1.44 m² each),
            // where one tile (20 m wide) per shadow would cover far more.
            let area = shadow_area(&t);
            assert!(
                area < 6.0 * 1.44 * shaded as f32,
                "{to_light:?}: {area} m² for {shaded} points"
            );
        }
    }

    /// Tiles of different sizes meet only at shared corners: every edge
    /// inside the ground is used once in each direction, by exactly two
    /// triangles, so rasterisation leaves no cracks.
    #[test]
    fn refined_tiles_meet_without_t_junctions() {
        let spheres: Vec<[f32; 4]> = (0..25)
            .map(|k| [-200.0 + 17.0 * k as f32, 1.0 + k as f32, 13.0 * (k % 7) as f32, 1.5])
            .collect();
        let casters =
            ShadowCasters { to_light: Vector3::new(0.4, 0.8, 0.2).normalize(), spheres: &spheres };
        let t = tiles(Point3::new(3.0, 10.0, 7.0), Some(&casters));
        assert!(t.vertices.len() > 6 * TILES_PER_SIDE * TILES_PER_SIDE, "some tiles are split");
        let key = |p: [f32; 2]| (p[0].to_bits(), p[1].to_bits());
        let mut edges = std::collections::HashMap::new();
        for tri in t.vertices.chunks(3) {
            for k in 0..3 {
                *edges.entry((key(tri[k]), key(tri[(k + 1) % 3]))).or_insert(0) += 1;
            }
        }
        let on_rim = |p: (u32, u32)| {
            let (x, z) = (f32::from_bits(p.0), f32::from_bits(p.1));
            x.abs() == 240.0 || z.abs() == 240.0
        };
        for (&(a, b), &count) in &edges {
            assert_eq!(count, 1, "edge {a:?}-{b:?} used {count} times one way");
            if !(on_rim(a) && on_rim(b)) {
                assert_eq!(edges.get(&(b, a)), Some(&1), "edge {a:?}-{b:?} has no twin");
            }
        }
        let area: f32 = areas(&t)
            .map(|a| {
                assert!(a < 0.0, "a triangle winds the wrong way or is degenerate");
                -a
            })
            .sum();
        assert!((area - 480.0 * 480.0).abs() < 1.0, "area {area}");
    }

    #[test]
    fn a_grazing_light_or_a_missing_shadow_map_is_all_or_nothing() {
        let eye = Point3::new(0.0, 500.0, 0.0);
        let spheres = [[0.0, 0.0, 0.0, 1.0]];
        let casters = ShadowCasters {
            to_light: Vector3::new(1.0, 0.001, 0.0).normalize(),
            spheres: &spheres,
        };
        let t = tiles(eye, Some(&casters));
        assert_eq!(t.ranges[2].1 - t.ranges[2].0, t.vertices.len() as u32);
        let t = tiles(eye, None);
        assert_eq!(t.ranges[0].1 - t.ranges[0].0, t.vertices.len() as u32);
        // A caster with a NaN centre shades everywhere (the safe side); one
        // wholly below the ground shades nothing.
        let casters =
            ShadowCasters { to_light: Vector3::y(), spheres: &[[f32::NAN, 1.0, 0.0, 1.0]] };
        let t = tiles(eye, Some(&casters));
        assert_eq!(t.ranges[2].1 - t.ranges[2].0, t.vertices.len() as u32);
        let casters = ShadowCasters { to_light: Vector3::y(), spheres: &[[0.0, -3.0, 0.0, 1.0]] };
        let t = tiles(eye, Some(&casters));
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
