//! Soft bodies (chapter section 9): particle bodies that keep a volume — the chapter's
//! jelly, a 3D lattice of particles joined by distance constraints in every direction plus
//! shape matching — and whatever a tetrahedral mesh describes.
//!
//! A soft body is a [`Body`] of kind `SoftBody`: it runs the particle pipeline (prediction,
//! pins, skinning, colliders with friction, pair and self contact through its surface
//! triangles, LOD, sleep, teleport, readback) with three more constraint groups after the
//! distance constraints (`particles::stages`):
//!
//! - **volume**: each tetrahedron keeps its rest volume with compliance `volume_compliance`
//!   (`solver::constraints::volume`);
//! - **shape matching**: each cluster pulls its particles towards its rest shape moved by its
//!   centre of mass and best-fit rotation (`solver::constraints::shape_match`), rigid or in
//!   linear mode, with plasticity; one global cluster or overlapping blocks of
//!   `cluster_cells³` lattice cells;
//! - the distance constraints of the lattice (axis neighbours as stretch, diagonals as shear)
//!   or of the tetrahedra's edges, as the material's compliances.
//!
//! **Stiffness and the time step.** `shape_stiffness` is the fraction of the way to the goal
//! per 1/60 s: a substep of `h` moves `1 − (1 − k)^(60 h)` of it, so the result does not
//! depend on the substep count. `chapter_stiffness` applies `k` per substep as the chapter's
//! pseudo-code does (`x += (goal − x) · stiffness`), for comparison.

pub mod embed;

use std::sync::Arc;

use crate::error::{Error, MAX_COORDINATE, MAX_PARTICLES, Result, check_length, check_position};
use crate::math::{Quat, Vec3};
use crate::particles::{Body, BodyKind, Material, Topology};
use crate::solver::constraints::distance::{self, DistanceConstraints, KIND_SHEAR, KIND_STRETCH};
use crate::solver::constraints::shape_match::Clusters;
use crate::solver::constraints::volume::{Tets, signed_volume};
use crate::solver::contact::triangle::VertexTriangles;

pub use crate::particles::soft::{Soft, SoftSettings, SoftShape, surface_volume};

/// A box of `nx × ny × nz` particles (the chapter's jelly).
#[derive(Clone, Debug, PartialEq)]
pub struct LatticeSpec {
    pub nx: u32,
    pub ny: u32,
    pub nz: u32,
    /// Distance between neighbouring particles (m).
    pub spacing: f32,
    /// Centre of the box and its orientation.
    pub origin: Vec3,
    pub orientation: Quat,
    /// Distance constraints to all 26 neighbours (else the 6 axis neighbours, the 12 face
    /// diagonals and the axis neighbours two over as bend).
    pub all_neighbours: bool,
    /// Shape-matching clusters: 0 one global cluster; `c` overlapping blocks of `c³` cells.
    pub cluster_cells: u32,
    pub material: Material,
    pub soft: SoftSettings,
}

impl Default for LatticeSpec {
    fn default() -> Self {
        LatticeSpec {
            nx: 4,
            ny: 4,
            nz: 4,
            spacing: 0.05,
            origin: Vec3::ZERO,
            orientation: Quat::IDENTITY,
            all_neighbours: true,
            cluster_cells: 0,
            material: Material { bend_compliance: 0.0, ..Material::default() },
            soft: SoftSettings::default(),
        }
    }
}


impl LatticeSpec {
    pub fn particle_count(&self) -> u64 {
        (self.nx as u64).saturating_mul(self.ny as u64).saturating_mul(self.nz as u64)
    }

    pub fn validate(&self) -> Result<()> {
        if self.nx < 2 || self.ny < 2 || self.nz < 2 {
            return Err(Error::invalid(format!("a lattice needs at least 2 particles along each axis (got {} x {} x {})", self.nx, self.ny, self.nz)));
        }
        let n = self.particle_count();
        if n > MAX_PARTICLES as u64 {
            return Err(Error::too_large(format!("a {} x {} x {} lattice has {n} particles; the limit per body is {MAX_PARTICLES}", self.nx, self.ny, self.nz)));
        }
        check_length(self.spacing, "lattice spacing")?;
        check_position(self.origin, "lattice origin")?;
        let reach = self.origin.abs().max_element() + self.spacing * self.nx.max(self.ny).max(self.nz) as f32;
        if reach > MAX_COORDINATE {
            return Err(Error::invalid(format!("the lattice at {} reaches beyond the world's extent of ±{MAX_COORDINATE} m", self.origin)));
        }
        let q = self.orientation;
        if !q.is_finite() {
            return Err(Error::non_finite("lattice orientation is not finite"));
        }
        if !crate::error::is_unit(q.length()) {
            return Err(Error::invalid(format!("lattice orientation must be a unit quaternion (length {})", q.length())));
        }
        if self.cluster_cells > 1024 {
            return Err(Error::invalid(format!("cluster_cells must be at most 1024 (got {})", self.cluster_cells)));
        }
        self.material.validate()?;
        self.soft.validate()
    }

    /// Particle index of lattice point `(i, j, k)`.
    #[inline]
    pub fn id(&self, i: u32, j: u32, k: u32) -> u32 {
        (k * self.ny + j) * self.nx + i
    }

    /// Rest positions (world).
    pub fn positions(&self) -> Vec<Vec3> {
        let half = Vec3::new((self.nx - 1) as f32, (self.ny - 1) as f32, (self.nz - 1) as f32) * 0.5;
        let mut x = Vec::with_capacity(self.particle_count() as usize);
        for k in 0..self.nz {
            for j in 0..self.ny {
                for i in 0..self.nx {
                    let local = (Vec3::new(i as f32, j as f32, k as f32) - half) * self.spacing;
                    x.push(self.origin + self.orientation * local);
                }
            }
        }
        x
    }
}

/// The 6 tetrahedra of a cube around its diagonal from corner 0 to corner 7 (corner
/// `c = i + 2j + 4k`): conforming between neighbouring cells.
pub(crate) const CUBE_TETS: [[usize; 4]; 6] = [[0, 1, 3, 7], [0, 3, 2, 7], [0, 2, 6, 7], [0, 6, 4, 7], [0, 4, 5, 7], [0, 5, 1, 7]];

/// Cooks a lattice: constraints (coloured), tetrahedra, surface triangles, clusters.
pub fn lattice_topology(spec: &LatticeSpec) -> Result<(Topology, SoftShape)> {
    let (nx, ny, nz) = (spec.nx, spec.ny, spec.nz);
    let rest = spec.positions();
    let n = rest.len();
    let mut k = DistanceConstraints::default();
    let inside = |i: i64, j: i64, l: i64| i >= 0 && j >= 0 && l >= 0 && i < nx as i64 && j < ny as i64 && l < nz as i64;
    let mut dirs: Vec<([i64; 3], u8)> = Vec::new();
    for dz in -1..=1i64 {
        for dy in -1..=1i64 {
            for dx in -1..=1i64 {
                let d = [dx, dy, dz];
                // Each undirected edge once: the first non-zero component positive.
                let first = d.iter().copied().find(|&c| c != 0);
                if first != Some(1) {
                    continue;
                }
                let nonzero = d.iter().filter(|&&c| c != 0).count();
                if !spec.all_neighbours && nonzero == 3 {
                    continue;
                }
                dirs.push((d, if nonzero == 1 { KIND_STRETCH } else { KIND_SHEAR }));
            }
        }
    }
    if !spec.all_neighbours {
        for d in [[2, 0, 0], [0, 2, 0], [0, 0, 2]] {
            dirs.push((d, distance::KIND_BEND));
        }
    }
    for l in 0..nz as i64 {
        for j in 0..ny as i64 {
            for i in 0..nx as i64 {
                for (d, kind) in &dirs {
                    let (a2, b2, c2) = (i + d[0], j + d[1], l + d[2]);
                    if inside(a2, b2, c2) {
                        let a = spec.id(i as u32, j as u32, l as u32);
                        let b = spec.id(a2 as u32, b2 as u32, c2 as u32);
                        k.push(a, b, rest[a as usize].distance(rest[b as usize]), *kind);
                    }
                }
            }
        }
    }
    let constraints = distance::colour(&k, n);
    // Tetrahedra, 6 per cell, each positive in the rest pose.
    let mut tets = Tets::default();
    for l in 0..nz - 1 {
        for j in 0..ny - 1 {
            for i in 0..nx - 1 {
                let corner = |c: usize| spec.id(i + (c & 1) as u32, j + ((c >> 1) & 1) as u32, l + ((c >> 2) & 1) as u32);
                for t in CUBE_TETS {
                    let mut idx = t.map(corner);
                    let p = idx.map(|v| rest[v as usize]);
                    let mut vol = signed_volume(p[0], p[1], p[2], p[3]);
                    if vol < 0.0 {
                        idx.swap(2, 3);
                        vol = -vol;
                    }
                    tets.index.push(idx);
                    tets.rest.push(vol);
                }
            }
        }
    }
    let triangles = lattice_surface(spec, &rest);
    let clusters = lattice_clusters(spec, &rest);
    let topology = Topology {
        particle_count: n,
        constraints,
        render_triangles: triangles.clone(),
        adjacency: VertexTriangles::build(n, &triangles),
        triangles,
        rest: rest.clone(),
        closed: true,
        ..Default::default()
    };
    let surface_volume = surface_volume(&topology.rest, &topology.triangles);
    Ok((topology, SoftShape { tets, clusters, surface_volume }))
}

/// The lattice's boundary faces as outward-wound triangles.
fn lattice_surface(spec: &LatticeSpec, rest: &[Vec3]) -> Vec<[u32; 3]> {
    let (nx, ny, nz) = (spec.nx, spec.ny, spec.nz);
    let mut tris = Vec::new();
    let centre = rest.iter().sum::<Vec3>() / rest.len() as f32;
    // Each face: a grid over two axes at the min or max of the third.
    let mut quad = |a: u32, b: u32, c: u32, d: u32| {
        // a-b-c-d around the quad; wound so the normal points away from the centre.
        let (pa, pb, pc) = (rest[a as usize], rest[b as usize], rest[c as usize]);
        let n = (pb - pa).cross(pc - pa);
        let mid = (pa + rest[c as usize]) * 0.5;
        if n.dot(mid - centre) >= 0.0 {
            tris.push([a, b, c]);
            tris.push([a, c, d]);
        } else {
            tris.push([a, c, b]);
            tris.push([a, d, c]);
        }
    };
    for side in [0, nz - 1] {
        for j in 0..ny - 1 {
            for i in 0..nx - 1 {
                quad(spec.id(i, j, side), spec.id(i + 1, j, side), spec.id(i + 1, j + 1, side), spec.id(i, j + 1, side));
            }
        }
    }
    for side in [0, ny - 1] {
        for l in 0..nz - 1 {
            for i in 0..nx - 1 {
                quad(spec.id(i, side, l), spec.id(i + 1, side, l), spec.id(i + 1, side, l + 1), spec.id(i, side, l + 1));
            }
        }
    }
    for side in [0, nx - 1] {
        for l in 0..nz - 1 {
            for j in 0..ny - 1 {
                quad(spec.id(side, j, l), spec.id(side, j + 1, l), spec.id(side, j + 1, l + 1), spec.id(side, j, l + 1));
            }
        }
    }
    tris
}

/// One global cluster, or overlapping blocks of `cluster_cells³` cells (each sharing its
/// boundary layer of particles with its neighbours).
fn lattice_clusters(spec: &LatticeSpec, rest: &[Vec3]) -> Clusters {
    let c = spec.cluster_cells;
    if c == 0 {
        return Clusters::build(rest, &[(0..rest.len() as u32).collect()]);
    }
    let starts = |n: u32| -> Vec<u32> {
        let cells = n - 1;
        let mut s: Vec<u32> = (0..cells.div_ceil(c)).map(|b| b * c).collect();
        // The last block ends at the last cell.
        if let Some(last) = s.last_mut() {
            *last = (*last).min(cells.saturating_sub(c));
        }
        s.dedup();
        s
    };
    let mut lists = Vec::new();
    for &l0 in &starts(spec.nz) {
        for &j0 in &starts(spec.ny) {
            for &i0 in &starts(spec.nx) {
                let mut list = Vec::new();
                for l in l0..=(l0 + c).min(spec.nz - 1) {
                    for j in j0..=(j0 + c).min(spec.ny - 1) {
                        for i in i0..=(i0 + c).min(spec.nx - 1) {
                            list.push(spec.id(i, j, l));
                        }
                    }
                }
                lists.push(list);
            }
        }
    }
    Clusters::build(rest, &lists)
}

/// A soft body's dynamics as created: no aerodynamic drag or lift (cloth's thin-sheet model
/// does not fit a closed volume; a host may set them), the rest as for cloth.
pub(crate) fn soft_dynamics() -> crate::particles::Dynamics {
    crate::particles::Dynamics { drag: 0.0, lift: 0.0, ..Default::default() }
}

/// A lattice soft body.
pub fn lattice_body(spec: &LatticeSpec) -> Result<Body> {
    spec.validate()?;
    let (topology, shape) = lattice_topology(spec)?;
    let x = topology.rest.clone();
    let w = vec![1.0 / spec.material.particle_mass; x.len()];
    let mut body = Body::new(BodyKind::SoftBody, Arc::new(topology), spec.material, x, w)?;
    body.soft = Some(Box::new(Soft::new(Arc::new(shape), spec.soft)));
    body.dynamics = soft_dynamics();
    body.finish_material()
}

/// A soft body from a tetrahedral mesh: `positions` and `tets` (4 indices each, any
/// orientation: each is stored positive). Degenerate tetrahedra (volume below 1e-12 of the
/// mesh's bounding box) are refused with their index. Distance constraints on every edge,
/// one global shape-matching cluster, the boundary faces as the surface.
pub fn tet_body(positions: &[Vec3], tet_indices: &[[u32; 4]], material: Material, soft: SoftSettings) -> Result<Body> {
    material.validate()?;
    soft.validate()?;
    crate::error::check_positions(positions, "tet mesh positions")?;
    let n = positions.len();
    if n < 4 || tet_indices.is_empty() {
        return Err(Error::invalid(format!("a tet mesh needs at least 4 positions and 1 tetrahedron (got {n}, {})", tet_indices.len())));
    }
    if n > MAX_PARTICLES {
        return Err(Error::too_large(format!("a tet mesh of {n} positions exceeds the limit of {MAX_PARTICLES} per body")));
    }
    let (lo, hi) = positions.iter().fold((Vec3::splat(f32::INFINITY), Vec3::splat(f32::NEG_INFINITY)), |(l, h), p| (l.min(*p), h.max(*p)));
    let extent = (hi - lo).max_element().max(1e-9);
    let mut tets = Tets::default();
    let mut edges = std::collections::BTreeSet::new();
    let mut faces: std::collections::BTreeMap<[u32; 3], ([u32; 3], u32)> = std::collections::BTreeMap::new();
    for (t, idx) in tet_indices.iter().enumerate() {
        if let Some(&bad) = idx.iter().find(|&&i| i as usize >= n) {
            return Err(Error::out_of_range(format!("tetrahedron {t} has index {bad}; there are {n} positions")));
        }
        // A repeated corner is degenerate whatever the volume's rounding says (the triple
        // product of two equal edges is not exactly 0 in f32).
        if (0..4).any(|a| (a + 1..4).any(|b| idx[a] == idx[b])) {
            return Err(Error::invalid(format!("tetrahedron {t} ({idx:?}) is degenerate: it repeats a corner")));
        }
        let mut idx = *idx;
        let p = idx.map(|i| positions[i as usize]);
        let mut vol = signed_volume(p[0], p[1], p[2], p[3]);
        if vol.abs() <= 1e-12 * extent * extent * extent {
            return Err(Error::invalid(format!("tetrahedron {t} ({idx:?}) is degenerate: volume {vol} m³")));
        }
        if vol < 0.0 {
            idx.swap(2, 3);
            vol = -vol;
        }
        tets.index.push(idx);
        tets.rest.push(vol);
        for a in 0..4 {
            for b in a + 1..4 {
                edges.insert((idx[a].min(idx[b]), idx[a].max(idx[b])));
            }
        }
        // Faces wound outward for a positive tet: (b, c, d) opposite a, etc.
        let [a, b, c, d] = idx;
        for f in [[b, c, d], [a, d, c], [a, b, d], [a, c, b]] {
            let mut key = f;
            key.sort_unstable();
            faces.entry(key).and_modify(|e| e.1 += 1).or_insert((f, 1));
        }
    }
    let mut k = DistanceConstraints::default();
    for &(a, b) in &edges {
        k.push(a, b, positions[a as usize].distance(positions[b as usize]), KIND_STRETCH);
    }
    let triangles: Vec<[u32; 3]> = faces.values().filter(|(_, count)| *count == 1).map(|(f, _)| *f).collect();
    let topology = Topology {
        particle_count: n,
        constraints: distance::colour(&k, n),
        render_triangles: triangles.clone(),
        adjacency: VertexTriangles::build(n, &triangles),
        triangles,
        rest: positions.to_vec(),
        closed: true,
        ..Default::default()
    };
    let clusters = Clusters::build(positions, &[(0..n as u32).collect()]);
    let mut body = Body::new(BodyKind::SoftBody, Arc::new(topology), material, positions.to_vec(), vec![1.0 / material.particle_mass; n])?;
    let surface_volume = surface_volume(&body.topology.rest, &body.topology.triangles);
    body.soft = Some(Box::new(Soft::new(Arc::new(SoftShape { tets, clusters, surface_volume }), soft)));
    body.dynamics = soft_dynamics();
    body.finish_material()
}

/// A balloon: a closed render mesh as a surface (welded like a cloth mesh: stretch on its
/// edges, bend across them) holding a gas (`soft.pressure`), no tetrahedra, no shape
/// matching. The triangles must be closed and wound outward.
pub fn balloon_body(mesh: &crate::cloth::MeshSpec, soft: SoftSettings) -> Result<Body> {
    soft.validate()?;
    let mut body = crate::cloth::mesh_body(mesh)?;
    let mut topology = (*body.topology).clone();
    topology.closed = true;
    let v0 = surface_volume(&topology.rest, &topology.triangles);
    if !(v0 > 0.0) {
        return Err(Error::invalid(format!("the balloon's triangles enclose no volume ({v0} m³): the mesh must be closed and wound outward")));
    }
    body.topology = Arc::new(topology);
    body.kind = BodyKind::SoftBody;
    body.soft = Some(Box::new(Soft::new(Arc::new(SoftShape { tets: Tets::default(), clusters: Clusters::default(), surface_volume: v0 }), soft)));
    body.dynamics = soft_dynamics();
    body.finish_material()
}

