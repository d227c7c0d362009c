//! `sinew_strands_*` (hair) and the garment generators `sinew_cloth_create_cape` /
//! `sinew_cloth_create_skirt`.

use crate::particles::Material;
use crate::cloth::generators::{CapeSpec, SkirtSpec};
use crate::ffi::cloth::as_vec3;
use crate::ffi::guard::write;
use crate::ffi::registry;
use crate::ffi::result::SinewResult;
use crate::ffi::types::{SinewBody, SinewCapeDesc, SinewMat4, SinewSkirtDesc, SinewStrandsDesc, SinewVec3, SinewWorld};
use crate::strands::{StrandsSpec, straight};

fn strand_material() -> Material {
    Material { particle_mass: 0.001, thickness: 0.005, bend_compliance: 0.0, damping: 1.0, ..Material::default() }
}

/// Fills `out_desc`: no strands yet, 8 particles 2 cm apart, head at the origin.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_strands_desc_default(out_desc: *mut SinewStrandsDesc) -> SinewResult {
    ffi_guard!({
        let out = try_out!(out_desc, "out_desc");
        write(
            out,
            // One straight strand from the head's origin (`strands::DEFAULT_ROOTS`), in static
            // memory, so the default creates hair as passed.
            SinewStrandsDesc {
                points: std::ptr::null(),
                point_count: 0,
                roots: crate::strands::DEFAULT_ROOTS.as_ptr().cast(),
                directions: crate::strands::DEFAULT_DIRECTIONS.as_ptr().cast(),
                strand_count: crate::strands::DEFAULT_ROOTS.len(),
                particles_per_strand: 8,
                segment_length: 0.02,
                head: SinewMat4::identity(),
                material: strand_material().into(),
            },
        );
        Ok(())
    })
}

/// Creates a hair body (see `SinewStrandsDesc`).
#[unsafe(no_mangle)]
pub extern "C" fn sinew_strands_create(world: SinewWorld, desc: *const SinewStrandsDesc, out_body: *mut SinewBody) -> SinewResult {
    ffi_guard!({
        let cell = registry::world(world)?;
        let d = try_ref!(desc, "desc");
        let out = try_out!(out_body, "out_body");
        let per = d.particles_per_strand as usize;
        let generated;
        let points: &[crate::math::Vec3] = if d.points.is_null() {
            let roots: &[SinewVec3] = try_slice!(d.roots, d.strand_count, "desc.roots");
            let dirs: &[SinewVec3] = try_slice!(d.directions, d.strand_count, "desc.directions");
            crate::strands::check_straight(as_vec3(roots), as_vec3(dirs), per, d.segment_length)?;
            generated = straight(as_vec3(roots), as_vec3(dirs), per, d.segment_length);
            &generated
        } else {
            crate::strands::check_segment_length(d.segment_length, false)?;
            as_vec3(try_slice!(d.points, d.point_count, "desc.points"))
        };
        let spec = StrandsSpec { points, particles_per_strand: per, head: d.head.into(), material: d.material.into() };
        let mut w = cell.lock()?;
        let (slot, serial) = w.create_strands(&spec)?;
        write(out, registry::body_handle(&cell, slot, serial));
        Ok(())
    })
}

/// Fills `out_desc` with a 12 × 16 cape, 0.5 m wide, 0.9 m long, all bones at the origin.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_cape_desc_default(out_desc: *mut SinewCapeDesc) -> SinewResult {
    ffi_guard!({
        let out = try_out!(out_desc, "out_desc");
        write(
            out,
            // The core's default (`CapeSpec::default`): bones on a standing adult's shoulders,
            // which the cape needs apart (at the origin it was refused).
            {
                let c = CapeSpec::default();
                let m = |k: usize| SinewMat4 { m: c.bones[k].to_cols_array() };
                SinewCapeDesc {
                    columns: c.columns,
                    rows: c.rows,
                    width: c.width,
                    length: c.length,
                    back_offset: c.back_offset,
                    left_shoulder: m(0),
                    neck: m(1),
                    right_shoulder: m(2),
                    material: c.material.into(),
                }
            },
        );
        Ok(())
    })
}

/// Creates a cape (see `SinewCapeDesc`); move it each frame with
/// `sinew_body_set_bone_matrices(body, {left, neck, right}, 3)`.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_cloth_create_cape(world: SinewWorld, desc: *const SinewCapeDesc, out_body: *mut SinewBody) -> SinewResult {
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
        write(out, registry::body_handle(&cell, slot, serial));
        Ok(())
    })
}

/// Fills `out_desc` with a 24 × 10 skirt, 0.16 m to 0.3 m radius, 0.45 m long.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_skirt_desc_default(out_desc: *mut SinewSkirtDesc) -> SinewResult {
    ffi_guard!({
        let out = try_out!(out_desc, "out_desc");
        write(
            out,
            SinewSkirtDesc {
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

/// Creates a skirt (see `SinewSkirtDesc`); move it each frame with
/// `sinew_body_set_bone_matrices(body, &waist, 1)`.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_cloth_create_skirt(world: SinewWorld, desc: *const SinewSkirtDesc, out_body: *mut SinewBody) -> SinewResult {
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
        write(out, registry::body_handle(&cell, slot, serial));
        Ok(())
    })
}
