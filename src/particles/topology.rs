//! The cooked topology of one body design: constraints, triangles, the map between the
//! host's vertices and the particles, the rest shape and, for an untorn grid, the grid
//! kernel's layout. Immutable and `Arc`-shared by every body of the design ("settings vs
//! state", after Jolt's `SoftBodySharedSettings` and NvCloth's `Fabric`); a body that tears
//! takes its own copy first (`tear.rs`).
//!
//! Constraints are kept per group. The distance group holds structural, shear and bend
//! constraints as one structure of arrays sorted into batches with no particle in common
//! (graph colouring), so a batch runs in SIMD lanes; the per-instance groups (tethers, motion
//! limits) live on the body, since they depend on where it is pinned and skinned.

use crate::error::{Error, Result};
use crate::math::Vec3;
use crate::solver::constraints::distance::DistanceConstraints;
use crate::solver::constraints::distance_simd::Kernel;
use crate::solver::constraints::grid_simd::{self, GridLayout};
use crate::solver::contact::triangle::VertexTriangles;

/// Cooked topology of one body design: immutable and shared until a body tears, when that
/// body takes its own copy.
#[derive(Clone, Debug, Default)]
pub struct Topology {
    pub particle_count: usize,
    pub constraints: DistanceConstraints,
    /// Triangles over particle indices, for normals and aerodynamics (empty for ropes).
    pub triangles: Vec<[u32; 3]>,
    /// The same triangles over host vertex indices (what `sinew_body_read_indices` returns).
    pub render_triangles: Vec<[u32; 3]>,
    /// Host vertex → particle, for meshes whose seams were welded; `None` means identity.
    pub vertex_to_particle: Option<Vec<u32>>,
    /// Host vertex → the original vertex it was copied from when the cloth tore (identity
    /// until then), so the host can copy UVs to new vertices.
    pub vertex_source: Option<Vec<u32>>,
    /// Particle positions in the rest shape, up to a rigid motion (for self-collision:
    /// particles that touch at rest never collide; and tether lengths).
    pub rest: Vec<Vec3>,
    /// For an untorn grid: its shape and what each batch is, for the gather-free kernel.
    pub grid: Option<GridLayout>,
    /// Particle → triangles, for particle–triangle contact.
    pub adjacency: VertexTriangles,
    /// The triangles bound a closed volume, wound outward (a soft body): other bodies'
    /// particles are kept outside them.
    pub closed: bool,
    /// A soft body made from a render mesh: the host's vertices embedded in the lattice
    /// (`softbody::embed`); `render_triangles` are then the mesh's, over its vertices.
    pub embedding: Option<super::embedding::Embedding>,
}

impl Topology {
    /// Number of vertices the host sees (its own count for a welded mesh).
    pub fn vertex_count(&self) -> usize {
        if let Some(e) = &self.embedding {
            return e.len();
        }
        self.vertex_to_particle.as_ref().map_or(self.particle_count, |m| m.len())
    }

    /// Maps a host vertex index to a particle index.
    pub fn particle_of(&self, vertex: u32) -> Result<usize> {
        let n = self.vertex_count();
        if vertex as usize >= n {
            return Err(Error::out_of_range(format!("vertex index {vertex} out of range (count {n})")));
        }
        if let Some(e) = &self.embedding {
            return Ok(e.main_particle(vertex as usize));
        }
        Ok(self.vertex_to_particle.as_ref().map_or(vertex as usize, |m| m[vertex as usize] as usize))
    }
}

impl Topology {
    /// The grid layout, when the grid kernel runs this topology with kernel `kernel`.
    pub(crate) fn grid_kernel(&self, kernel: Kernel) -> Option<&GridLayout> {
        self.grid.as_ref().filter(|_| kernel == Kernel::Avx && grid_simd::supported())
    }
}
