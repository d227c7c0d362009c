//! `sinew_rope_*`.


use crate::rope::RopeSpec;

use crate::ffi::registry;
use crate::ffi::result::SinewResult;
use crate::ffi::types::{SinewBody, SinewRopeDesc, SinewVec3, SinewWorld, as_vec3};

/// Fills `out_desc` with 1 m of rope (points in static memory), unpinned, bend on, default
/// material, which `sinew_rope_create` takes as passed.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_rope_desc_default(out_desc: *mut SinewRopeDesc) -> SinewResult {
    ffi_guard!({
        let out = try_out!(out_desc, "out_desc");
        // The core's default rope (1 m, unpinned, `RopeSpec::default`), in static memory.
        let r = RopeSpec::default();
        out.write(SinewRopeDesc {
            points: r.points.as_ptr().cast(),
            point_count: r.points.len(),
            pin_indices: std::ptr::null(),
            pin_count: r.pins.len(),
            bend: r.bend as u32,
            material: r.material.into(),
        });
        Ok(())
    })
}

/// Creates a rope through `desc.points`.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_rope_create(world: SinewWorld, desc: *const SinewRopeDesc, out_body: *mut SinewBody) -> SinewResult {
    ffi_guard!({
        let cell = registry::world(world)?;
        let d = try_ref!(desc, "desc");
        let out = try_out!(out_body, "out_body");
        let points: &[SinewVec3] = try_slice!(d.points, d.point_count, "desc.points");
        let spec = RopeSpec {
            points: as_vec3(points),
            pins: try_slice!(d.pin_indices, d.pin_count, "desc.pin_indices"),
            bend: d.bend != 0,
            material: d.material.into(),
        };
        let mut w = cell.lock()?;
        let (slot, serial) = w.create_rope(&spec)?;
        out.write(registry::body_handle(&cell, slot, serial));
        Ok(())
    })
}
