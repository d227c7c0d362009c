//! `sinew_softbody_*`: soft bodies (chapter section 9) from a lattice (the chapter's jelly)
//! or a tetrahedral mesh, their settings and their volume. A soft body is a particle body:
//! its handle is a `SinewBody`, and every `sinew_body_*` call (pins, colliders' layers,
//! pairs, teleport, readback of positions, normals and indices of its surface, sleeping)
//! works on it as on cloth.

use crate::error::{Error, Result};
use crate::particles::Material;
use crate::softbody::{LatticeSpec, SoftSettings};

use crate::ffi::registry;
use crate::ffi::result::SinewResult;
use crate::ffi::types::{SinewBody, SinewMaterial, SinewQuat, SinewVec3, SinewWorld, as_vec3};

/// A soft body's settings; fill with `sinew_soft_settings_default` first.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SinewSoftSettings {
    /// Compliance of the tetrahedra's volume constraints (m³/(N·m)), in [0, 1000]; 0 keeps every
    /// volume. Default 0.
    pub volume_compliance: f32,
    /// Shape matching: the fraction of the way to the rest shape (moved by the centre of mass
    /// and the best-fit rotation) per 1/60 s, in [0, 1]; 0 off. Default 0.5.
    pub shape_stiffness: f32,
    /// Nonzero (a C boolean: any value but 0): apply `shape_stiffness` per substep, as the
    /// chapter's pseudo-code does. Default 0.
    pub chapter_stiffness: u32,
    /// Linear mode's β, in [0, 1]: goals from the best linear map (volume kept) mixed with the
    /// rotation. Default 0.
    pub shape_linear: f32,
    /// Plasticity: the deformation (‖S − 1‖) beyond which the rest shape creeps, in
    /// [0, 1000]. Default 0.1.
    pub plastic_yield: f32,
    /// The creep rate (1/s), in [0, 1000]; 0 elastic. Default 0.
    pub plastic_creep: f32,
    /// The largest permanent deformation, in [0, 1000]. Default 0.5.
    pub plastic_max: f32,
    /// Gas inside the closed surface (a balloon): its pressure at the rest volume (Pa), in
    /// [0, 1e7], ideal and isothermal (`p = pressure · V₀/V`); the surface feels
    /// `p − external_pressure`, in one implicit step per substep: any pressure in the range
    /// stays finite (the skin stops the gas where its pressure meets the skin's pull), and
    /// the gas changes the enclosed volume by at most 25 % a substep (a flat or crushed skin
    /// inflates over a few substeps, not in one). An internal force: it moves no centre of
    /// mass. Default 0 (no gas).
    pub pressure: f32,
    /// The pressure outside (Pa), in [0, 1e7]. Default 0.
    pub external_pressure: f32,
}

impl From<SoftSettings> for SinewSoftSettings {
    fn from(s: SoftSettings) -> Self {
        SinewSoftSettings {
            volume_compliance: s.volume_compliance,
            shape_stiffness: s.shape_stiffness,
            chapter_stiffness: s.chapter_stiffness as u32,
            shape_linear: s.shape_linear,
            plastic_yield: s.plastic_yield,
            plastic_creep: s.plastic_creep,
            plastic_max: s.plastic_max,
            pressure: s.pressure,
            external_pressure: s.external_pressure,
        }
    }
}

impl From<SinewSoftSettings> for SoftSettings {
    fn from(s: SinewSoftSettings) -> Self {
        SoftSettings {
            volume_compliance: s.volume_compliance,
            shape_stiffness: s.shape_stiffness,
            chapter_stiffness: s.chapter_stiffness != 0,
            shape_linear: s.shape_linear,
            plastic_yield: s.plastic_yield,
            plastic_creep: s.plastic_creep,
            plastic_max: s.plastic_max,
            pressure: s.pressure,
            external_pressure: s.external_pressure,
        }
    }
}

/// A box of `nx × ny × nz` particles (the chapter's jelly); fill with
/// `sinew_soft_lattice_desc_default` first.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct SinewSoftLatticeDesc {
    /// Particles along X, in [2, ∞) (at most 2²² particles in all). Default 4.
    pub nx: u32,
    /// Particles along Y, in [2, ∞). Default 4.
    pub ny: u32,
    /// Particles along Z, in [2, ∞). Default 4.
    pub nz: u32,
    /// Distance between neighbouring particles (m), in [1e-5, 1000]. Default 0.05.
    pub spacing: f32,
    /// Centre and orientation of the box. Default the origin, identity.
    pub origin: SinewVec3,
    pub orientation: SinewQuat,
    /// 1: distance constraints to all 26 neighbours; 0: the 6 axis neighbours, 12 face
    /// diagonals and bend constraints two over. Default 1.
    pub all_neighbours: u32,
    /// Shape-matching clusters, in [0, 1024]: 0 one for the whole body; c: overlapping blocks
    /// of c³ cells. Default 0.
    pub cluster_cells: u32,
    /// The particles' material (mass each, damping, compliances of the axis edges as stretch
    /// and of the diagonals as shear, thickness, friction). Default the cloth default with bend
    /// compliance 0.
    pub material: SinewMaterial,
    pub soft: SinewSoftSettings,
}

/// Fills `out_settings` with the defaults (see `SinewSoftSettings`).
#[unsafe(no_mangle)]
pub extern "C" fn sinew_soft_settings_default(out_settings: *mut SinewSoftSettings) -> SinewResult {
    ffi_guard!({
        let out = try_out!(out_settings, "out_settings");
        out.write(SoftSettings::default().into());
        Ok(())
    })
}

/// Fills `out_desc` with a 4 × 4 × 4 lattice 5 cm apart at the origin (see `SinewSoftLatticeDesc`).
#[unsafe(no_mangle)]
pub extern "C" fn sinew_soft_lattice_desc_default(out_desc: *mut SinewSoftLatticeDesc) -> SinewResult {
    ffi_guard!({
        let out = try_out!(out_desc, "out_desc");
        let d = LatticeSpec::default();
        out.write(SinewSoftLatticeDesc {
            nx: d.nx,
            ny: d.ny,
            nz: d.nz,
            spacing: d.spacing,
            origin: d.origin.into(),
            orientation: d.orientation.into(),
            all_neighbours: d.all_neighbours as u32,
            cluster_cells: d.cluster_cells,
            material: d.material.into(),
            soft: d.soft.into(),
        });
        Ok(())
    })
}

/// Creates a lattice soft body (the chapter's jelly): distance constraints, 6 tetrahedra per
/// cell (volume), shape matching, the box's faces as its surface.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_softbody_create_lattice(world: SinewWorld, desc: *const SinewSoftLatticeDesc, out_body: *mut SinewBody) -> SinewResult {
    ffi_guard!({
        let cell = registry::world(world)?;
        let d = try_ref!(desc, "desc");
        let out = try_out!(out_body, "out_body");
        let spec = LatticeSpec {
            nx: d.nx,
            ny: d.ny,
            nz: d.nz,
            spacing: d.spacing,
            origin: d.origin.into(),
            orientation: d.orientation.into(),
            all_neighbours: d.all_neighbours != 0,
            cluster_cells: d.cluster_cells,
            material: d.material.into(),
            soft: d.soft.into(),
        };
        let mut w = cell.lock()?;
        let (slot, serial) = w.create_soft_lattice(&spec)?;
        out.write(registry::body_handle(&cell, slot, serial));
        Ok(())
    })
}

/// Creates a soft body from a tetrahedral mesh: `position_count` positions and `tet_count`
/// tetrahedra of 4 indices each (`indices` holds `4 · tet_count`; any orientation, each is
/// kept positive; a degenerate or out-of-range one is refused with its index). Distance
/// constraints on every edge, one shape-matching cluster, the boundary faces as its surface.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_softbody_create_tets(
    world: SinewWorld,
    positions: *const SinewVec3,
    position_count: usize,
    indices: *const u32,
    index_count: usize,
    material: *const SinewMaterial,
    settings: *const SinewSoftSettings,
    out_body: *mut SinewBody,
) -> SinewResult {
    ffi_guard!({
        let cell = registry::world(world)?;
        let p: &[SinewVec3] = try_slice!(positions, position_count, "positions");
        let idx: &[u32] = try_slice!(indices, index_count, "indices");
        let m = try_ref!(material, "material");
        let s = try_ref!(settings, "settings");
        let out = try_out!(out_body, "out_body");
        if idx.len() % 4 != 0 {
            return Err(Error::invalid(format!("indices holds {} entries: 4 per tetrahedron", idx.len())));
        }
        let tets: Vec<[u32; 4]> = idx.chunks_exact(4).map(|c| [c[0], c[1], c[2], c[3]]).collect();
        let material: Material = (*m).into();
        let mut w = cell.lock()?;
        let (slot, serial) = w.create_soft_tets(as_vec3(p), &tets, material, (*s).into())?;
        out.write(registry::body_handle(&cell, slot, serial));
        Ok(())
    })
}

/// A closed render mesh to make a soft body of; fill with `sinew_soft_mesh_desc_default` first.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct SinewSoftMeshDesc {
    /// The host's vertices (seams may split them) and triangle list (3 indices each); the
    /// surface must be closed.
    pub positions: *const SinewVec3,
    pub vertex_count: usize,
    pub indices: *const u32,
    pub index_count: usize,
    /// Cubes of the simulation lattice along the mesh's longest side, in [1, 64]. Default 8.
    pub resolution: u32,
    /// As `SinewSoftLatticeDesc.cluster_cells`, in [0, 1024]. Default 0.
    pub cluster_cells: u32,
    pub material: SinewMaterial,
    pub soft: SinewSoftSettings,
}

/// Fills `out_desc` with no mesh (null, 0), resolution 8, one cluster, the lattice's default
/// material and settings.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_soft_mesh_desc_default(out_desc: *mut SinewSoftMeshDesc) -> SinewResult {
    ffi_guard!({
        let out = try_out!(out_desc, "out_desc");
        let d = LatticeSpec::default();
        out.write(SinewSoftMeshDesc {
            positions: std::ptr::null(),
            vertex_count: 0,
            indices: std::ptr::null(),
            index_count: 0,
            resolution: 8,
            cluster_cells: 0,
            material: d.material.into(),
            soft: d.soft.into(),
        });
        Ok(())
    })
}

/// Creates a soft body from a closed render mesh, what a Unity user has: a lattice over the
/// mesh's voxels (`resolution` cubes along its longest side) is simulated and the mesh's
/// vertices are embedded in it (trilinear weights). `sinew_body_read_positions` /
/// `_read_normals` / `_read_indices` answer in the host's vertex order and count, seams
/// included: at rest, exactly the mesh as given.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_softbody_create_from_mesh(world: SinewWorld, desc: *const SinewSoftMeshDesc, out_body: *mut SinewBody) -> SinewResult {
    ffi_guard!({
        let cell = registry::world(world)?;
        let d = try_ref!(desc, "desc");
        let out = try_out!(out_body, "out_body");
        let p: &[SinewVec3] = try_slice!(d.positions, d.vertex_count, "desc.positions");
        let idx: &[u32] = try_slice!(d.indices, d.index_count, "desc.indices");
        let spec = crate::softbody::embed::SoftMeshSpec {
            positions: as_vec3(p),
            indices: idx,
            resolution: d.resolution,
            cluster_cells: d.cluster_cells,
            material: d.material.into(),
            soft: d.soft.into(),
        };
        let mut w = cell.lock()?;
        let (slot, serial) = w.create_soft_mesh(&spec)?;
        out.write(registry::body_handle(&cell, slot, serial));
        Ok(())
    })
}

/// Creates a balloon: the closed mesh of `mesh` (welded, its edges stretch constraints and
/// bend across them, as `sinew_cloth_create_mesh` makes a cloth) as a surface holding a gas
/// of `settings.pressure` at its rest volume; no tetrahedra, no shape matching. The triangles
/// must be closed and wound outward (refused if they enclose no volume).
#[unsafe(no_mangle)]
pub extern "C" fn sinew_softbody_create_balloon(world: SinewWorld, mesh: *const crate::ffi::types::SinewClothMeshDesc, settings: *const SinewSoftSettings, out_body: *mut SinewBody) -> SinewResult {
    ffi_guard!({
        let cell = registry::world(world)?;
        let d = try_ref!(mesh, "mesh");
        let s = try_ref!(settings, "settings");
        let out = try_out!(out_body, "out_body");
        let positions: &[SinewVec3] = try_slice!(d.positions, d.vertex_count, "mesh.positions");
        let spec = crate::cloth::MeshSpec {
            positions: as_vec3(positions),
            indices: try_slice!(d.indices, d.index_count, "mesh.indices"),
            inverse_masses: try_slice!(d.inverse_masses, d.inverse_mass_count, "mesh.inverse_masses"),
            weld_distance: d.weld_distance,
            material: d.material.into(),
        };
        let mut w = cell.lock()?;
        let (slot, serial) = w.create_balloon(&spec, (*s).into())?;
        out.write(registry::body_handle(&cell, slot, serial));
        Ok(())
    })
}

fn soft_only<R>(body: SinewBody, f: impl FnOnce(&mut crate::particles::Body) -> Result<R>) -> Result<R> {
    registry::with_body(body, |b, _| {
        if b.soft().is_none() {
            return Err(Error::invalid("not a soft body (made by sinew_softbody_create_*)"));
        }
        f(b)
    })
}

/// Replaces a soft body's settings (all checked first; wakes it).
#[unsafe(no_mangle)]
pub extern "C" fn sinew_softbody_set_settings(body: SinewBody, settings: *const SinewSoftSettings) -> SinewResult {
    ffi_guard!({
        let s = try_ref!(settings, "settings");
        soft_only(body, |b| b.set_soft_settings((*s).into()))
    })
}

/// Copies a soft body's settings.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_softbody_get_settings(body: SinewBody, out_settings: *mut SinewSoftSettings) -> SinewResult {
    ffi_guard!({
        let out = try_out!(out_settings, "out_settings");
        let s = soft_only(body, |b| Ok(b.soft().expect("checked").settings))?;
        out.write(s.into());
        Ok(())
    })
}

/// The volume its tetrahedra enclose now and at rest (m³, the rest one scaled by the body's
/// scale), after the newest fixed step.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_softbody_get_volume(body: SinewBody, out_volume: *mut f32, out_rest_volume: *mut f32) -> SinewResult {
    ffi_guard!({
        let out = try_out!(out_volume, "out_volume");
        let out_rest = try_out!(out_rest_volume, "out_rest_volume");
        let (v, r) = soft_only(body, |b| Ok(b.soft_volume().expect("checked")))?;
        out.write(v);
        out_rest.write(r);
        Ok(())
    })
}

/// The centre of mass of a particle body's particles (m), after the newest fixed step.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_body_get_center_of_mass(body: SinewBody, out_center: *mut SinewVec3) -> SinewResult {
    ffi_guard!({
        let out = try_out!(out_center, "out_center");
        let c = registry::with_body(body, |b, _| Ok(b.center_of_mass()))?;
        out.write(c.into());
        Ok(())
    })
}
