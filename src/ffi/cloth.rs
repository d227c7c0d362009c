//! `sinew_cloth_*`: grid and mesh cloth.

use crate::cloth::{GridPins, GridSpec, MeshSpec};
use crate::error::Error;
use crate::ffi::guard::write;
use crate::ffi::registry;
use crate::ffi::result::SinewResult;
use crate::ffi::types::{
    SINEW_PIN_LIST, SINEW_PIN_NONE, SINEW_PIN_TOP_CORNERS, SINEW_PIN_TOP_ROW, SinewBody, SinewClothGridDesc, SinewClothMeshDesc, SinewQuat,
    SinewVec3, SinewWorld,
};
use crate::math::Vec3;
use crate::particles::Material;

/// Fills `out_desc` with a 16 × 16 grid, 0.1 m spacing, at the origin, top row pinned.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_cloth_grid_desc_default(out_desc: *mut SinewClothGridDesc) -> SinewResult {
    ffi_guard!({
        let out = try_out!(out_desc, "out_desc");
        write(
            out,
            SinewClothGridDesc {
                columns: 16,
                rows: 16,
                spacing: 0.1,
                origin: SinewVec3::default(),
                orientation: SinewQuat { x: 0.0, y: 0.0, z: 0.0, w: 1.0 },
                pin_mode: SINEW_PIN_TOP_ROW,
                pin_indices: std::ptr::null(),
                pin_count: 0,
                material: Material::default().into(),
            },
        );
        Ok(())
    })
}

/// Fills `out_desc` with an empty mesh description (weld distance 1e-5 m, default material).
#[unsafe(no_mangle)]
pub extern "C" fn sinew_cloth_mesh_desc_default(out_desc: *mut SinewClothMeshDesc) -> SinewResult {
    ffi_guard!({
        let out = try_out!(out_desc, "out_desc");
        write(
            out,
            // The core's default mesh (a 0.5 m square, `MeshSpec::default`), in static memory.
            {
                let m = MeshSpec::default();
                SinewClothMeshDesc {
                    positions: m.positions.as_ptr().cast(),
                    vertex_count: m.positions.len(),
                    indices: m.indices.as_ptr(),
                    index_count: m.indices.len(),
                    inverse_masses: std::ptr::null(),
                    inverse_mass_count: 0,
                    weld_distance: m.weld_distance,
                    material: m.material.into(),
                }
            },
        );
        Ok(())
    })
}

/// Creates a rectangular cloth (see `SinewClothGridDesc` for the layout).
#[unsafe(no_mangle)]
pub extern "C" fn sinew_cloth_create_grid(world: SinewWorld, desc: *const SinewClothGridDesc, out_body: *mut SinewBody) -> SinewResult {
    ffi_guard!({
        let cell = registry::world(world)?;
        let d = try_ref!(desc, "desc");
        let out = try_out!(out_body, "out_body");
        let pins = match d.pin_mode {
            SINEW_PIN_NONE => GridPins::None,
            SINEW_PIN_TOP_ROW => GridPins::TopRow,
            SINEW_PIN_TOP_CORNERS => GridPins::TopCorners,
            SINEW_PIN_LIST => GridPins::List(try_slice!(d.pin_indices, d.pin_count, "desc.pin_indices").to_vec()),
            other => return Err(Error::invalid(format!("unknown pin_mode {other}"))),
        };
        let spec = GridSpec {
            columns: d.columns,
            rows: d.rows,
            spacing: d.spacing,
            origin: d.origin.into(),
            orientation: d.orientation.into(),
            pins,
            material: d.material.into(),
        };
        let mut w = cell.lock()?;
        let (slot, serial) = w.create_grid(&spec)?;
        write(out, registry::body_handle(&cell, slot, serial));
        Ok(())
    })
}

/// Creates a cloth from a render mesh; coincident vertices are welded.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_cloth_create_mesh(world: SinewWorld, desc: *const SinewClothMeshDesc, out_body: *mut SinewBody) -> SinewResult {
    ffi_guard!({
        let cell = registry::world(world)?;
        let d = try_ref!(desc, "desc");
        let out = try_out!(out_body, "out_body");
        let positions: &[SinewVec3] = try_slice!(d.positions, d.vertex_count, "desc.positions");
        let spec = MeshSpec {
            positions: as_vec3(positions),
            indices: try_slice!(d.indices, d.index_count, "desc.indices"),
            inverse_masses: try_slice!(d.inverse_masses, d.inverse_mass_count, "desc.inverse_masses"),
            weld_distance: d.weld_distance,
            material: d.material.into(),
        };
        let mut w = cell.lock()?;
        let (slot, serial) = w.create_mesh(&spec)?;
        write(out, registry::body_handle(&cell, slot, serial));
        Ok(())
    })
}

/// Views C vectors as glam vectors (same 12-byte layout, checked in `types.rs`).
pub fn as_vec3(v: &[SinewVec3]) -> &[Vec3] {
    // SAFETY: both are three packed f32 with alignment 4.
    unsafe { std::slice::from_raw_parts(v.as_ptr().cast(), v.len()) }
}

/// Mutable view, as [`as_vec3`].
pub fn as_vec3_mut(v: &mut [SinewVec3]) -> &mut [Vec3] {
    // SAFETY: as above.
    unsafe { std::slice::from_raw_parts_mut(v.as_mut_ptr().cast(), v.len()) }
}
