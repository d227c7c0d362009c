//! Cloth: grid and render-mesh cloth (chapter sections 6 and 8).
//!
//! A grid has structural (to the right and below), shear (both diagonals) and bend (the
//! particle two over in each direction) distance constraints. Their batches are laid out
//! by the grid's structure — 2 colours per direction and kind, 12 in all (NvCloth cooks a
//! grid into the same 12 phases) — so every batch is a regular, independent run.
//!
//! A mesh is welded first (render meshes split vertices at UV seams); its edges become
//! stretch constraints, and the two vertices opposite each interior edge a bend constraint.
//! Its batches come from greedy graph colouring.

pub mod generators;
#[cfg(test)]
mod kernel_tests;

use std::sync::Arc;

use crate::particles::{Body, BodyKind, MAX_MASS_SCALE, MIN_MASS_SCALE, Material, Topology};
use crate::error::{Error, MAX_COORDINATE, MAX_LENGTH, MAX_PARTICLES, Result, check_length, check_position, check_positions, check_within, try_filled};
use crate::math::{FastMap, FastSet, Quat, Vec3};
use crate::solver::constraints::distance::{self, DistanceConstraints, KIND_BEND, KIND_SHEAR, KIND_STRETCH};
use crate::solver::constraints::grid_simd::{GridLayout, GridRun};
use crate::solver::contact::triangle::VertexTriangles;

/// Which grid particles start pinned.
#[derive(Clone, Debug, PartialEq)]
pub enum GridPins {
    None,
    /// Every particle of row 0.
    TopRow,
    /// The two ends of row 0.
    TopCorners,
    /// Particles by index (`row * columns + column`).
    List(Vec<u32>),
}

#[derive(Clone, Debug, PartialEq)]
pub struct GridSpec {
    pub columns: u32,
    pub rows: u32,
    /// Distance between neighbouring particles (m).
    pub spacing: f32,
    /// Centre of the grid (m).
    pub origin: Vec3,
    /// The grid lies in its local XZ plane, columns along +X, rows along +Z.
    pub orientation: Quat,
    pub pins: GridPins,
    pub material: Material,
}

/// What makes two grids share one cooked topology.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GridKey {
    pub columns: u32,
    pub rows: u32,
    pub spacing_bits: u32,
}

impl GridSpec {
    pub fn key(&self) -> GridKey {
        GridKey { columns: self.columns, rows: self.rows, spacing_bits: self.spacing.to_bits() }
    }

    pub fn validate(&self) -> Result<()> {
        if self.columns < 2 || self.rows < 2 {
            return Err(Error::invalid(format!("a grid needs at least 2 columns and 2 rows (got {} x {})", self.columns, self.rows)));
        }
        let n = self.columns as u64 * self.rows as u64;
        if n > MAX_PARTICLES as u64 {
            return Err(Error::too_large(format!(
                "a {} x {} grid has {n} particles; the limit per body is {MAX_PARTICLES}",
                self.columns, self.rows
            )));
        }
        check_length(self.spacing, "grid spacing")?;
        check_position(self.origin, "grid origin")?;
        let reach = self.origin.abs().max_element() + self.spacing * self.columns.max(self.rows) as f32;
        if reach > MAX_COORDINATE {
            return Err(Error::invalid(format!(
                "a {} x {} grid of spacing {} m at {} reaches beyond the world's extent of ±{MAX_COORDINATE} m",
                self.columns, self.rows, self.spacing, self.origin
            )));
        }
        let q = self.orientation;
        if !(q.x.is_finite() && q.y.is_finite() && q.z.is_finite() && q.w.is_finite()) {
            return Err(Error::non_finite("grid orientation is not finite"));
        }
        if !crate::error::is_unit(q.length()) {
            return Err(Error::invalid(format!("grid orientation must be a unit quaternion (length {})", q.length())));
        }
        if let GridPins::List(list) = &self.pins
            && let Some(&bad) = list.iter().find(|&&i| i as u64 >= n) {
                return Err(Error::out_of_range(format!("pin index {bad} out of range (grid has {n} particles)")));
            }
        self.material.validate()
    }
}

/// Cooks the constraints of a `columns × rows` grid with the given spacing.
pub fn grid_topology(columns: u32, rows: u32, spacing: f32) -> Result<Topology> {
    let (c, r) = (columns, rows);
    let id = |row: u32, col: u32| row * c + col;
    let diag = spacing * std::f32::consts::SQRT_2;
    let mut k = DistanceConstraints::default();
    let mut runs = Vec::new();
    // Closes a batch and records what it is (empty batches are dropped by `close_batch`).
    let close = |k: &mut DistanceConstraints, runs: &mut Vec<GridRun>, run: GridRun| {
        let before = k.batches.len();
        k.close_batch(true);
        if k.batches.len() > before {
            runs.push(run);
        }
    };
    let expected = (6 * c as usize) * r as usize;
    for v in [&mut k.a, &mut k.b] {
        v.try_reserve_exact(expected).map_err(|_| Error::new(crate::error::ErrorKind::OutOfMemory, "out of memory cooking grid constraints"))?;
    }
    // Structural, along rows then along columns: colour by parity of the lower index.
    for parity in 0..2 {
        for row in 0..r {
            for col in (parity..c.saturating_sub(1)).step_by(2) {
                k.push(id(row, col), id(row, col + 1), spacing, KIND_STRETCH);
            }
        }
        close(&mut k, &mut runs, GridRun::Horizontal(parity));
    }
    for parity in 0..2 {
        for row in (parity..r - 1).step_by(2) {
            for col in 0..c {
                k.push(id(row, col), id(row + 1, col), spacing, KIND_STRETCH);
            }
        }
        close(&mut k, &mut runs, GridRun::Vertical(parity));
    }
    // Shear: the edges of one diagonal direction between rows `row` and `row + 1` share no
    // particle (each touches one column of each row), so row parity separates them — and
    // a batch reads whole rows, `a` and `b` both contiguous.
    for parity in 0..2 {
        for row in (parity..r - 1).step_by(2) {
            for col in 0..c - 1 {
                k.push(id(row, col), id(row + 1, col + 1), diag, KIND_SHEAR);
            }
        }
        close(&mut k, &mut runs, GridRun::ShearDown(parity));
    }
    for parity in 0..2 {
        for row in (parity..r - 1).step_by(2) {
            for col in 0..c - 1 {
                k.push(id(row, col + 1), id(row + 1, col), diag, KIND_SHEAR);
            }
        }
        close(&mut k, &mut runs, GridRun::ShearUp(parity));
    }
    // Bend, two over: edges starting at columns 4m, 4m+1 and at 4m+2, 4m+3 alternate.
    for phase in 0..2 {
        for row in 0..r {
            for col in (0..c.saturating_sub(2)).filter(|col| (col / 2) % 2 == phase) {
                k.push(id(row, col), id(row, col + 2), 2.0 * spacing, KIND_BEND);
            }
        }
        close(&mut k, &mut runs, GridRun::BendH(phase));
    }
    for phase in 0..2 {
        for row in (0..r.saturating_sub(2)).filter(|row| (row / 2) % 2 == phase) {
            for col in 0..c {
                k.push(id(row, col), id(row + 2, col), 2.0 * spacing, KIND_BEND);
            }
        }
        close(&mut k, &mut runs, GridRun::BendV(phase));
    }
    let mut triangles = Vec::with_capacity(2 * (c as usize - 1) * (r as usize - 1));
    for row in 0..r - 1 {
        for col in 0..c - 1 {
            // Wound so that the normal of the flat grid is +Y.
            triangles.push([id(row, col), id(row + 1, col), id(row, col + 1)]);
            triangles.push([id(row, col + 1), id(row + 1, col), id(row + 1, col + 1)]);
        }
    }
    let rest = (0..r).flat_map(|row| (0..c).map(move |col| Vec3::new(col as f32, 0.0, row as f32) * spacing)).collect();
    Ok(Topology {
        particle_count: (c * r) as usize,
        constraints: k,
        render_triangles: triangles.clone(),
        adjacency: VertexTriangles::build((c * r) as usize, &triangles),
        triangles,
        vertex_to_particle: None,
        vertex_source: None,
        rest,
        grid: Some(GridLayout { columns: c, rows: r, runs }),
        closed: false,
        embedding: None,
    })
}

/// Builds a grid body on a (possibly shared) topology.
pub fn grid_body(spec: &GridSpec, topology: Arc<Topology>) -> Result<Body> {
    let (c, r) = (spec.columns, spec.rows);
    let n = (c * r) as usize;
    let mut x = try_filled(n, Vec3::ZERO, "positions")?;
    let half = Vec3::new((c - 1) as f32, 0.0, (r - 1) as f32) * 0.5;
    for row in 0..r {
        for col in 0..c {
            let local = (Vec3::new(col as f32, 0.0, row as f32) - half) * spec.spacing;
            x[(row * c + col) as usize] = spec.origin + spec.orientation * local;
        }
    }
    let mut w = try_filled(n, 1.0 / spec.material.particle_mass, "inverse masses")?;
    match &spec.pins {
        GridPins::None => {}
        GridPins::TopRow => w[..c as usize].fill(0.0),
        GridPins::TopCorners => {
            w[0] = 0.0;
            w[c as usize - 1] = 0.0;
        }
        GridPins::List(list) => list.iter().for_each(|&i| w[i as usize] = 0.0),
    }
    Body::new(BodyKind::Cloth, topology, spec.material, x, w)?.finish_material()
}

/// A render mesh as the host has it.
#[derive(Clone, Debug)]
pub struct MeshSpec<'a> {
    pub positions: &'a [Vec3],
    pub indices: &'a [u32],
    /// Per host vertex; 0 pins it. Empty: every vertex gets the material's mass.
    pub inverse_masses: &'a [f32],
    /// Vertices closer than this (m) are welded into one particle.
    pub weld_distance: f32,
    pub material: Material,
}

/// The default mesh: a 0.5 m square in the XZ plane centred on the origin, two triangles,
/// nothing pinned (so a mesh made from the defaults is a cloth that falls).
pub(crate) static DEFAULT_MESH_POSITIONS: [Vec3; 4] =
    [Vec3::new(-0.25, 0.0, -0.25), Vec3::new(0.25, 0.0, -0.25), Vec3::new(-0.25, 0.0, 0.25), Vec3::new(0.25, 0.0, 0.25)];
pub(crate) static DEFAULT_MESH_INDICES: [u32; 6] = [0, 2, 1, 1, 2, 3];

impl Default for MeshSpec<'static> {
    fn default() -> Self {
        MeshSpec {
            positions: &DEFAULT_MESH_POSITIONS,
            indices: &DEFAULT_MESH_INDICES,
            inverse_masses: &[],
            weld_distance: 1e-5,
            material: Material::default(),
        }
    }
}

impl MeshSpec<'_> {
    pub fn validate(&self) -> Result<()> {
        let n = self.positions.len();
        if n < 3 {
            return Err(Error::invalid(format!("a mesh needs at least 3 vertices (got {n})")));
        }
        if n > MAX_PARTICLES {
            return Err(Error::too_large(format!("{n} vertices; the limit per body is {MAX_PARTICLES}")));
        }
        if self.indices.is_empty() || !self.indices.len().is_multiple_of(3) {
            return Err(Error::invalid(format!("index count must be a nonzero multiple of 3 (got {})", self.indices.len())));
        }
        if self.indices.len() > 8 * MAX_PARTICLES {
            return Err(Error::too_large(format!("{} indices is more than this library handles per body", self.indices.len())));
        }
        check_positions(self.positions, "mesh position")?;
        if let Some(k) = self.indices.iter().position(|&i| i as usize >= n) {
            return Err(Error::out_of_range(format!("index {k} refers to vertex {} but the mesh has {n}", self.indices[k])));
        }
        if !self.inverse_masses.is_empty() {
            if self.inverse_masses.len() != n {
                return Err(Error::invalid(format!(
                    "inverse mass count {} differs from vertex count {n}",
                    self.inverse_masses.len()
                )));
            }
            // 0 (immovable), or the inverse of the material's particle mass range, [1e-9, 1e9] kg:
            // a smaller nonzero one is a mass whose reciprocal overflows (1e-40 → inf kg).
            if let Some(k) = self.inverse_masses.iter().position(|w| !(*w == 0.0 || (1e-9..=1e9).contains(w))) {
                return Err(Error::invalid(format!("inverse mass {k} must be 0 or within [1e-9, 1e9] 1/kg (got {})", self.inverse_masses[k])));
            }
            // With a density, a nonzero inverse mass is a painted multiplier on the vertex's
            // share, 1 / (inverse mass × particle_mass), within [MIN, MAX]_MASS_SCALE.
            if self.material.density > 0.0 {
                let pm = self.material.particle_mass;
                if let Some(k) = self.inverse_masses.iter().position(|w| *w != 0.0 && !(MIN_MASS_SCALE..=MAX_MASS_SCALE).contains(&(1.0 / (w * pm)))) {
                    return Err(Error::invalid(format!(
                        "inverse mass {k} is {}: with material.density {} it scales the vertex's mass by 1 / (inverse mass × particle_mass {pm}) = {}, which must be within [{MIN_MASS_SCALE}, {MAX_MASS_SCALE}] (0 pins)",
                        self.inverse_masses[k],
                        self.material.density,
                        1.0 / (self.inverse_masses[k] * pm)
                    )));
                }
            }
        }
        check_within(self.weld_distance, MAX_LENGTH, "weld distance")?;
        self.material.validate()
    }
}

/// Welds coincident vertices. Returns host vertex → particle and the particles' first vertex.
pub(crate) fn weld(positions: &[Vec3], tolerance: f32) -> (Vec<u32>, Vec<usize>) {
    let cell = tolerance.max(1e-7) * 2.0;
    let key = |p: Vec3| ((p.x / cell).floor() as i64, (p.y / cell).floor() as i64, (p.z / cell).floor() as i64);
    // Each occupied cell's first and last particle; `next[q]` the particle after q in its
    // cell (in the order they were made), or `NONE`.
    const NONE: u32 = u32::MAX;
    let mut grid: FastMap<(i64, i64, i64), (u32, u32)> = FastMap::default();
    let mut next: Vec<u32> = Vec::new();
    let mut remap = Vec::with_capacity(positions.len());
    let mut first: Vec<usize> = Vec::new();
    for (v, &p) in positions.iter().enumerate() {
        let (kx, ky, kz) = key(p);
        let mut found = None;
        'search: for dx in -1..=1 {
            for dy in -1..=1 {
                for dz in -1..=1 {
                    if let Some(&(head, _)) = grid.get(&(kx.saturating_add(dx), ky.saturating_add(dy), kz.saturating_add(dz))) {
                        let mut q = head;
                        while q != NONE {
                            if (positions[first[q as usize]] - p).length() <= tolerance {
                                found = Some(q);
                                break 'search;
                            }
                            q = next[q as usize];
                        }
                    }
                }
            }
        }
        let particle = found.unwrap_or_else(|| {
            let q = first.len() as u32;
            first.push(v);
            next.push(NONE);
            let cell = grid.entry((kx, ky, kz)).or_insert((q, q));
            if cell.1 != q {
                next[cell.1 as usize] = q;
                cell.1 = q;
            }
            q
        });
        remap.push(particle);
    }
    (remap, first)
}

/// Cooks a mesh: weld, edges, bends across adjacent triangles, colouring.
pub fn mesh_body(spec: &MeshSpec) -> Result<Body> {
    spec.validate()?;
    let (remap, first) = weld(spec.positions, spec.weld_distance);
    let n = first.len();
    let x: Vec<Vec3> = first.iter().map(|&v| spec.positions[v]).collect();
    let mut triangles = Vec::with_capacity(spec.indices.len() / 3);
    let mut render_triangles = Vec::with_capacity(spec.indices.len() / 3);
    for t in spec.indices.chunks_exact(3) {
        let tri = [remap[t[0] as usize], remap[t[1] as usize], remap[t[2] as usize]];
        if tri[0] != tri[1] && tri[1] != tri[2] && tri[0] != tri[2] {
            triangles.push(tri);
            render_triangles.push([t[0], t[1], t[2]]);
        }
    }
    if triangles.is_empty() {
        return Err(Error::invalid("every triangle of the mesh is degenerate after welding"));
    }
    // Edge → the vertices opposite it, in triangle order (deterministic).
    let mut edges: FastMap<(u32, u32), Vec<u32>> = FastMap::default();
    let mut edge_order = Vec::new();
    for t in &triangles {
        for e in 0..3 {
            let (a, b, opposite) = (t[e], t[(e + 1) % 3], t[(e + 2) % 3]);
            let k = (a.min(b), a.max(b));
            let list = edges.entry(k).or_insert_with(|| {
                edge_order.push(k);
                Vec::new()
            });
            list.push(opposite);
        }
    }
    let mut raw = DistanceConstraints::default();
    for &(a, b) in &edge_order {
        raw.push(a, b, (x[b as usize] - x[a as usize]).length(), KIND_STRETCH);
    }
    let mut bend_pairs = FastSet::default();
    for &k in &edge_order {
        if let [p, q] = edges[&k][..] {
            let pair = (p.min(q), p.max(q));
            if p != q && !edges.contains_key(&pair) && bend_pairs.insert(pair) {
                raw.push(pair.0, pair.1, (x[pair.1 as usize] - x[pair.0 as usize]).length(), KIND_BEND);
            }
        }
    }
    let constraints = distance::colour(&raw, n);
    let mut w = try_filled(n, 1.0 / spec.material.particle_mass, "inverse masses")?;
    if !spec.inverse_masses.is_empty() {
        // A particle is pinned when any of its welded vertices is; otherwise it takes the
        // mean of their inverse masses.
        let mut sum = vec![0.0f32; n];
        let mut count = vec![0u32; n];
        let mut pinned = vec![false; n];
        for (v, &p) in remap.iter().enumerate() {
            let wi = spec.inverse_masses[v];
            pinned[p as usize] |= wi == 0.0;
            sum[p as usize] += wi;
            count[p as usize] += 1;
        }
        for p in 0..n {
            w[p] = if pinned[p] { 0.0 } else { sum[p] / count[p] as f32 };
        }
    }
    // With a density, the inverse masses are a painted map: each free particle's mass is its
    // share × density × 1/(w × particle_mass) (1 where the host gave 1/particle_mass).
    let mass_scale = (spec.material.density > 0.0 && w.iter().any(|&wi| wi != 0.0 && wi * spec.material.particle_mass != 1.0))
        .then(|| w.iter().map(|&wi| if wi == 0.0 { 1.0 } else { 1.0 / (wi * spec.material.particle_mass) }).collect::<Vec<f32>>());
    let adjacency = VertexTriangles::build(n, &triangles);
    let topology = Topology {
        particle_count: n,
        constraints,
        triangles,
        render_triangles,
        vertex_to_particle: Some(remap),
        vertex_source: None,
        rest: x.clone(),
        grid: None,
        adjacency,
        closed: false,
        embedding: None,
    };
    let mut body = Body::new(BodyKind::Cloth, Arc::new(topology), spec.material, x, w)?;
    body.mass_scale = mass_scale;
    body.finish_material()
}

/// Convenience for Rust callers and the benchmark scenes: a grid with its own topology.
pub fn new_grid(spec: &GridSpec) -> Result<Body> {
    spec.validate()?;
    let topo = Arc::new(grid_topology(spec.columns, spec.rows, spec.spacing)?);
    grid_body(spec, topo)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grid_batches_are_independent_and_complete() {
        let t = grid_topology(7, 5, 0.1).unwrap();
        let k = &t.constraints;
        // structural 6*5 + 7*4, shear 2*6*4, bend 5*5 + 7*3
        assert_eq!(k.len(), 30 + 28 + 48 + 25 + 21);
        assert_eq!(k.batches.len(), 12);
        for b in &k.batches {
            let mut seen = std::collections::HashSet::new();
            for i in b.start as usize..b.end as usize {
                assert!(seen.insert(k.a[i]) && seen.insert(k.b[i]), "batch {b:?} shares a particle");
            }
        }
    }

    #[test]
    fn weld_merges_seam_duplicates() {
        let p = [Vec3::ZERO, Vec3::X, Vec3::Z, Vec3::X, Vec3::new(1.0, 0.0, 1.0), Vec3::Z];
        let (remap, first) = weld(&p, 1e-5);
        assert_eq!(first.len(), 4);
        assert_eq!(remap[1], remap[3]);
        assert_eq!(remap[2], remap[5]);
    }
}
