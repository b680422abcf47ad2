//! Instance blocks: one instanced draw per mesh kind in which each instance
//! of the draw is a *block* of up to [`MAX_BLOCK`] bodies, not one body.
//!
//! Why: a software rasteriser runs its whole vertex pipeline (fetch, vertex
//! shader, clipping, primitive assembly) once per instance. Mesa's `draw`
//! module, which lavapipe uses, loops `draw_pt_arrays` over the instances,
//! so a 7-vertex cube pays that fixed cost 5050 times in pyramid 100, and
//! the fixed cost is larger than the cube's vertex work. On a GPU the same
//! small-mesh instancing also wastes wavefront lanes. A block packs many
//! bodies into one instance, so the fixed cost is paid per block.
//!
//! How: the mesh's vertices and indices are repeated `block` times (its
//! block mesh), each copy's vertices tagged with their copy number `k` and
//! the block size (packed into [`MeshVertex::block`]). The instance data
//! sits in a storage buffer; the vertex shader reads body
//! `instance_index * block + k` ("vertex pulling"). Each mesh kind's range
//! in the instance buffer starts on a multiple of its block size, and the
//! last partial block is padded with [`padding_instance`]s of zero scale,
//! whose triangles have zero area and are dropped by triangle setup.
//!
//! The block size keeps a block mesh near [`BLOCK_VERTICES`] vertices:
//! 64 cubes (7 vertices each), fifteen capsules at the 12-segment level of
//! detail (50 each), a dozen icosahedra (60 each).

use super::gpu_types::{GpuInstance, MeshVertex};
use super::mesh::MeshData;

/// The most bodies one block (one instance of a draw) holds.
pub(crate) const MAX_BLOCK: u32 = 64;

/// The vertex count a block mesh aims at: large enough that the fixed cost
/// per instance is small against the vertex work, small enough that a
/// scene with one body of a kind shades few padding vertices.
pub(crate) const BLOCK_VERTICES: u32 = 768;

/// The number of bodies per block for a mesh of `vertex_count` vertices:
/// at least 1, at most [`MAX_BLOCK`].
pub(crate) fn block_size(vertex_count: usize) -> u32 {
    let per_block = BLOCK_VERTICES as usize / vertex_count.max(1);
    per_block.clamp(1, MAX_BLOCK as usize) as u32
}

/// The packed tag of copy `k` in blocks of `block` bodies: the block size in
/// the high 16 bits and the copy number in the low 16 (see mesh.wgsl's
/// `body_index`). Both are at most [`MAX_BLOCK`].
pub(crate) fn block_tag(block: u32, k: u32) -> u32 {
    debug_assert!(block <= MAX_BLOCK && k < block);
    (block << 16) | k
}

/// The mesh repeated `block` times, copy `k`'s vertices tagged with
/// [`block_tag`]`(block, k)` and its indices offset by `k` meshes.
pub(crate) fn block_mesh(mesh: &MeshData, block: u32) -> MeshData {
    let n = mesh.vertices.len() as u32;
    let mut out = MeshData {
        vertices: Vec::with_capacity(mesh.vertices.len() * block as usize),
        indices: Vec::with_capacity(mesh.indices.len() * block as usize),
    };
    for k in 0..block {
        let tag = block_tag(block, k);
        out.vertices.extend(mesh.vertices.iter().map(|v| MeshVertex { block: tag, ..*v }));
        out.indices.extend(mesh.indices.iter().map(|&i| i + k * n));
    }
    out
}

/// The instance that fills the unused end of a mesh kind's last block: zero
/// scale puts every vertex on one point, so its triangles have no area and
/// triangle setup drops them (in the shadow pass too).
pub(crate) fn padding_instance() -> GpuInstance {
    GpuInstance {
        rotation: [0.0, 0.0, 0.0, 1.0],
        translation_half_height: [0.0; 4],
        scale: [0.0; 4],
        color: [0.0; 4],
    }
}

/// `count` rounded up to a whole number of blocks of `block` bodies.
pub(crate) fn padded_len(count: u32, block: u32) -> u32 {
    count.div_ceil(block) * block
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::mesh::unit_cube_corner;
    use crate::render::round_meshes::{Round, octahedral_round};

    #[test]
    fn block_sizes_keep_block_meshes_near_the_vertex_budget() {
        let cube = unit_cube_corner();
        assert_eq!(cube.vertices.len(), 7);
        assert_eq!(block_size(cube.vertices.len()), 64);
        // The octahedral capsule of frequency 3: 4 n^2 + 4 n + 2 vertices.
        let capsule = octahedral_round(3, Round::Capsule);
        assert_eq!(capsule.vertices.len(), 50);
        assert_eq!(block_size(capsule.vertices.len()), 15);
        assert_eq!(block_size(0), MAX_BLOCK);
        assert_eq!(block_size(100), 7);
        assert_eq!(block_size(10_000), 1);
    }

    #[test]
    fn block_mesh_repeats_the_mesh_with_offset_indices_and_tags() {
        let cube = unit_cube_corner();
        let block = 3;
        let b = block_mesh(&cube, block);
        let n = cube.vertices.len();
        assert_eq!(b.vertices.len(), 3 * n);
        assert_eq!(b.indices.len(), 3 * cube.indices.len());
        for k in 0..3 {
            for (j, v) in b.vertices[k * n..(k + 1) * n].iter().enumerate() {
                assert_eq!(v.position, cube.vertices[j].position);
                assert_eq!(v.normal, cube.vertices[j].normal);
                assert_eq!(v.block >> 16, block);
                assert_eq!(v.block & 0xffff, k as u32);
            }
            let m = cube.indices.len();
            for (j, &i) in b.indices[k * m..(k + 1) * m].iter().enumerate() {
                assert_eq!(i, cube.indices[j] + (k * n) as u32);
            }
        }
    }

    #[test]
    fn padding_rounds_up_to_whole_blocks() {
        assert_eq!(padded_len(0, 64), 0);
        assert_eq!(padded_len(1, 64), 64);
        assert_eq!(padded_len(64, 64), 64);
        assert_eq!(padded_len(5050, 64), 5056);
        assert_eq!(padded_len(7, 1), 7);
        assert_eq!(padding_instance().scale, [0.0; 4]);
    }
}
