//! `sinew_strands_*`: hair.

use crate::particles::Material;

use crate::math::Vec3;
use crate::strands::{StrandsSpec, straight};

use crate::ffi::registry;
use crate::ffi::result::SinewResult;
use crate::ffi::types::{AbiEnum, SinewBody, SinewMat4, SinewStrandsDesc, SinewStrandsMode, SinewVec3, SinewWorld, as_vec3};

fn strand_material() -> Material {
    Material { particle_mass: 0.001, thickness: 0.005, bend_compliance: 0.0, damping: 1.0, ..Material::default() }
}

/// Fills `out_desc`: one straight strand from the head's origin (in static memory), 8 particles
/// 2 cm apart, head at the origin, which `sinew_strands_create` takes as passed.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_strands_desc_default(out_desc: *mut SinewStrandsDesc) -> SinewResult {
    ffi_guard!({
        let out = try_out!(out_desc, "out_desc");
        out.write(SinewStrandsDesc {
                mode: SinewStrandsMode::SINEW_STRANDS_STRAIGHT as u32,
                reserved: 0,
                points: std::ptr::null(),
                point_count: 0,
                // One straight strand from the head's origin (`strands::DEFAULT_ROOTS`), in
                // static memory, so the default creates hair as passed.
                roots: crate::strands::DEFAULT_ROOTS.as_ptr().cast(),
                directions: crate::strands::DEFAULT_DIRECTIONS.as_ptr().cast(),
                root_count: crate::strands::DEFAULT_ROOTS.len(),
                direction_count: crate::strands::DEFAULT_DIRECTIONS.len(),
                particles_per_strand: 8,
                segment_length: 0.02,
                head: SinewMat4::identity(),
                material: strand_material().into(),
                reserved_end: 0,
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
        let points: &[Vec3] = match SinewStrandsMode::checked(d.mode)? {
            SinewStrandsMode::SINEW_STRANDS_STRAIGHT => {
                let roots: &[SinewVec3] = try_slice!(d.roots, d.root_count, "desc.roots");
                let dirs: &[SinewVec3] = try_slice!(d.directions, d.direction_count, "desc.directions");
                generated = straight(as_vec3(roots), as_vec3(dirs), per, d.segment_length)?;
                &generated
            }
            SinewStrandsMode::SINEW_STRANDS_POINTS => {
                crate::strands::check_segment_length(d.segment_length, false)?;
                as_vec3(try_slice!(d.points, d.point_count, "desc.points"))
            }
        };
        let spec = StrandsSpec { points, particles_per_strand: per, head: d.head.into(), material: d.material.into() };
        let mut w = cell.lock()?;
        let (slot, serial) = w.create_strands(&spec)?;
        out.write(registry::body_handle(&cell, slot, serial));
        Ok(())
    })
}
