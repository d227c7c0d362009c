//! `sinew_cloth_*`: grid and mesh cloth, and the garment generators (cape, skirt).

use crate::particles::Material;
use crate::cloth::generators::{CapeSpec, SkirtSpec};
use crate::cloth::{GridPins, GridSpec, MeshSpec};

use crate::ffi::registry;
use crate::ffi::result::SinewResult;
use crate::ffi::types::{
    AbiEnum, SinewBody, SinewClothCapeDesc, SinewClothGridDesc, SinewClothMeshDesc, SinewClothSkirtDesc, SinewMat4, SinewPinMode, SinewQuat,
    SinewVec3, SinewWorld, as_vec3,
};

/// Fills `out_desc` with a 16 × 16 grid, 0.1 m spacing, at the origin, top row pinned.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_cloth_grid_desc_default(out_desc: *mut SinewClothGridDesc) -> SinewResult {
    ffi_guard!({
        let out = try_out!(out_desc, "out_desc");
        out.write(SinewClothGridDesc {
                columns: 16,
                rows: 16,
                spacing: 0.1,
                origin: SinewVec3::default(),
                orientation: SinewQuat { x: 0.0, y: 0.0, z: 0.0, w: 1.0 },
                pin_mode: SinewPinMode::SINEW_PIN_TOP_ROW as u32,
                reserved: 0,
                pin_indices: std::ptr::null(),
                pin_count: 0,
                material: Material::default().into(),
                reserved_end: 0,
            },
        );
        Ok(())
    })
}

/// Fills `out_desc` with a 0.5 m square of two triangles (in static memory; weld distance
/// 1e-5 m, default material), which `sinew_cloth_create_mesh` takes as passed.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_cloth_mesh_desc_default(out_desc: *mut SinewClothMeshDesc) -> SinewResult {
    ffi_guard!({
        let out = try_out!(out_desc, "out_desc");
        // The core's default mesh (a 0.5 m square, `MeshSpec::default`), in static memory.
        let m = MeshSpec::default();
        out.write(SinewClothMeshDesc {
            positions: m.positions.as_ptr().cast(),
            vertex_count: m.positions.len(),
            indices: m.indices.as_ptr(),
            index_count: m.indices.len(),
            inverse_masses: std::ptr::null(),
            inverse_mass_count: 0,
            weld_distance: m.weld_distance,
            material: m.material.into(),
        });
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
        let pins = match SinewPinMode::checked(d.pin_mode)? {
            SinewPinMode::SINEW_PIN_NONE => GridPins::None,
            SinewPinMode::SINEW_PIN_TOP_ROW => GridPins::TopRow,
            SinewPinMode::SINEW_PIN_TOP_CORNERS => GridPins::TopCorners,
            SinewPinMode::SINEW_PIN_LIST => GridPins::List(try_slice!(d.pin_indices, d.pin_count, "desc.pin_indices").to_vec()),
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
        out.write(registry::body_handle(&cell, slot, serial));
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
        out.write(registry::body_handle(&cell, slot, serial));
        Ok(())
    })
}

/// Fills `out_desc` with a 12 × 16 cape, 0.5 m wide, 0.9 m long, with its bones on a standing
/// adult's shoulders (left, neck, right), which `sinew_cloth_create_cape` takes as passed.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_cloth_cape_desc_default(out_desc: *mut SinewClothCapeDesc) -> SinewResult {
    ffi_guard!({
        let out = try_out!(out_desc, "out_desc");
        // The core's default (`CapeSpec::default`): bones on a standing adult's shoulders,
        // which the cape needs apart.
        let c = CapeSpec::default();
        let m = |k: usize| SinewMat4 { m: c.bones[k].to_cols_array() };
        out.write(SinewClothCapeDesc {
            columns: c.columns,
            rows: c.rows,
            width: c.width,
            length: c.length,
            back_offset: c.back_offset,
            left_shoulder: m(0),
            neck: m(1),
            right_shoulder: m(2),
            material: c.material.into(),
        });
        Ok(())
    })
}

/// Creates a cape (see `SinewClothCapeDesc`); move it each frame with
/// `sinew_body_set_bone_matrices(body, {left, neck, right}, 3)`.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_cloth_create_cape(world: SinewWorld, desc: *const SinewClothCapeDesc, out_body: *mut SinewBody) -> SinewResult {
    ffi_guard!({
        let cell = registry::world(world)?;
        let d = try_ref!(desc, "desc");
        let out = try_out!(out_body, "out_body");
        let spec = CapeSpec {
            columns: d.columns,
            rows: d.rows,
            width: d.width,
            length: d.length,
            back_offset: d.back_offset,
            bones: [d.left_shoulder.into(), d.neck.into(), d.right_shoulder.into()],
            material: d.material.into(),
        };
        let mut w = cell.lock()?;
        let (slot, serial) = w.create_cape(&spec)?;
        out.write(registry::body_handle(&cell, slot, serial));
        Ok(())
    })
}

/// Fills `out_desc` with a 24 × 10 skirt, 0.16 m to 0.3 m radius, 0.45 m long.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_cloth_skirt_desc_default(out_desc: *mut SinewClothSkirtDesc) -> SinewResult {
    ffi_guard!({
        let out = try_out!(out_desc, "out_desc");
        out.write(SinewClothSkirtDesc {
                columns: 24,
                rows: 10,
                radius_top: 0.16,
                radius_bottom: 0.3,
                length: 0.45,
                waist: SinewMat4::identity(),
                material: Material::default().into(),
            },
        );
        Ok(())
    })
}

/// Creates a skirt (see `SinewClothSkirtDesc`); move it each frame with
/// `sinew_body_set_bone_matrices(body, &waist, 1)`.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_cloth_create_skirt(world: SinewWorld, desc: *const SinewClothSkirtDesc, out_body: *mut SinewBody) -> SinewResult {
    ffi_guard!({
        let cell = registry::world(world)?;
        let d = try_ref!(desc, "desc");
        let out = try_out!(out_body, "out_body");
        let spec = SkirtSpec {
            columns: d.columns,
            rows: d.rows,
            radius_top: d.radius_top,
            radius_bottom: d.radius_bottom,
            length: d.length,
            waist: d.waist.into(),
            material: d.material.into(),
        };
        let mut w = cell.lock()?;
        let (slot, serial) = w.create_skirt(&spec)?;
        out.write(registry::body_handle(&cell, slot, serial));
        Ok(())
    })
}
