//! `sinew_body_*`: what every particle body (cloth, rope) answers to.
//!
//! Indices are the host's vertex indices (for a welded mesh, its own numbering).

use crate::particles::{Body, BodyKind};
use crate::error::{Error, ErrorKind};

use crate::ffi::cloth::{as_vec3, as_vec3_mut};
use crate::ffi::guard::write;
use crate::ffi::registry;
use crate::ffi::result::SinewResult;
use crate::ffi::types::{SINEW_BODY_CLOTH, SINEW_BODY_ROPE, SINEW_BODY_STRANDS, SinewBody, SinewBodyInfo, SinewMat4, SinewMaterial, SinewVec3};

fn buffer_check(len: usize, needed: usize, name: &str) -> crate::error::Result<()> {
    if len < needed {
        return Err(Error::new(ErrorKind::BufferTooSmall, format!("{name} holds {len} elements but the body has {needed} vertices")));
    }
    Ok(())
}

/// Destroys a body; its handle becomes invalid. A second destroy is `SINEW_INVALID_HANDLE`.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_body_destroy(body: SinewBody) -> SinewResult {
    ffi_guard!({
        let (cell, slot, serial) = registry::body_owner(body)?;
        let mut w = cell.lock()?;
        w.remove_body(slot, serial).map(drop).ok_or_else(|| registry::stale("body", body.id))
    })
}

/// Turns particle contact between two bodies of one world on (`enabled` = 1) or off (0).
/// Each body's `thickness` is its particles' radius. For contact of a body with itself, set
/// `self_collision` in its material.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_body_set_collision_pair(a: SinewBody, b: SinewBody, enabled: u32) -> SinewResult {
    ffi_guard!({
        let (cell, slot_a, serial_a) = registry::body_owner(a)?;
        let (cell_b, slot_b, serial_b) = registry::body_owner(b)?;
        if !std::sync::Arc::ptr_eq(&cell, &cell_b) {
            return Err(Error::invalid("the two bodies belong to different worlds"));
        }
        let mut w = cell.lock()?;
        if w.bodies.get(slot_a, serial_a).is_none() {
            return Err(registry::stale("body", a.id));
        }
        if w.bodies.get(slot_b, serial_b).is_none() {
            return Err(registry::stale("body", b.id));
        }
        w.set_body_pair((slot_a, serial_a), (slot_b, serial_b), enabled != 0)
    })
}

/// Describes a body: kind, particle, vertex, constraint and triangle counts.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_body_get_info(body: SinewBody, out_info: *mut SinewBodyInfo) -> SinewResult {
    ffi_guard!({
        let out = try_out!(out_info, "out_info");
        let info = registry::with_body(body, |b, _| Ok(info(b)))?;
        write(out, info);
        Ok(())
    })
}

fn info(b: &Body) -> SinewBodyInfo {
    let t = &b.topology;
    SinewBodyInfo {
        kind: match b.kind {
            BodyKind::Cloth => SINEW_BODY_CLOTH,
            BodyKind::Rope => SINEW_BODY_ROPE,
            BodyKind::Strands => SINEW_BODY_STRANDS,
        },
        particle_count: b.particle_count() as u32,
        vertex_count: t.vertex_count() as u32,
        constraint_count: t.constraints.len() as u32,
        batch_count: t.constraints.batches.len() as u32,
        triangle_count: t.triangles.len() as u32,
        pinned_count: b.pinned_count() as u32,
        recoveries: b.recoveries,
        topology_version: b.topology_version,
        frozen: b.frozen as u32,
        substeps: b.last_substeps,
        sleeping: b.is_asleep() as u32,
    }
}

/// Number of vertices `sinew_body_read_positions` writes.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_body_get_vertex_count(body: SinewBody, out_count: *mut usize) -> SinewResult {
    ffi_guard!({
        let out = try_out!(out_count, "out_count");
        let n = registry::with_body(body, |b, _| Ok(b.topology.vertex_count()))?;
        write(out, n);
        Ok(())
    })
}

/// Reads the body's material.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_body_get_material(body: SinewBody, out_material: *mut SinewMaterial) -> SinewResult {
    ffi_guard!({
        let out = try_out!(out_material, "out_material");
        let m = registry::with_body(body, |b, _| Ok(b.material))?;
        write(out, m.into());
        Ok(())
    })
}

/// Changes the body's material from the next step on.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_body_set_material(body: SinewBody, material: *const SinewMaterial) -> SinewResult {
    ffi_guard!({
        let m = try_ref!(material, "material");
        registry::with_body(body, |b, _| b.set_material((*m).into()))
    })
}

/// Pins vertices where they are.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_body_pin(body: SinewBody, indices: *const u32, index_count: usize) -> SinewResult {
    ffi_guard!({
        let idx = try_slice!(indices, index_count, "indices");
        registry::with_body(body, |b, _| b.pin(idx))
    })
}

/// Releases pinned vertices; they keep the velocity of their pin's motion.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_body_unpin(body: SinewBody, indices: *const u32, index_count: usize) -> SinewResult {
    ffi_guard!({
        let idx = try_slice!(indices, index_count, "indices");
        registry::with_body(body, |b, _| b.unpin(idx))
    })
}

/// Sets where vertices `indices[k]` should be at the end of the next `sinew_world_step`:
/// they travel there in a straight line across its substeps (no velocity spike). A vertex
/// not yet pinned becomes pinned. `position_count` must equal `index_count`.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_body_set_pin_targets(
    body: SinewBody,
    indices: *const u32,
    index_count: usize,
    positions: *const SinewVec3,
    position_count: usize,
) -> SinewResult {
    ffi_guard!({
        let idx = try_slice!(indices, index_count, "indices");
        let pos: &[SinewVec3] = try_slice!(positions, position_count, "positions");
        registry::with_body(body, |b, _| b.set_pin_targets(idx, as_vec3(pos)))
    })
}

/// Moves the whole body by a rigid transform (rotation + translation, column-major),
/// carrying its velocities along, so nothing flies off.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_body_teleport(body: SinewBody, transform: *const SinewMat4) -> SinewResult {
    ffi_guard!({
        let m = try_ref!(transform, "transform");
        if !m.is_finite() {
            return Err(Error::non_finite("teleport transform is not finite"));
        }
        registry::with_body(body, |b, _| b.teleport(&(*m).into()))
    })
}

/// Copies vertex positions (interpolated between fixed steps) into `out_positions`, in the
/// host's vertex order; `capacity` must be at least the vertex count.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_body_read_positions(body: SinewBody, out_positions: *mut SinewVec3, capacity: usize) -> SinewResult {
    ffi_guard!({
        if out_positions.is_null() {
            return Err(crate::ffi::guard::null("out_positions"));
        }
        registry::with_body(body, |b, alpha| {
            let n = b.topology.vertex_count();
            buffer_check(capacity, n, "out_positions")?;
            let out = try_slice_mut!(out_positions, n, "out_positions");
            b.read_positions(alpha, as_vec3_mut(out));
            Ok(())
        })
    })
}

/// Copies unit, area-weighted vertex normals into `out_normals` (a rope's are +Y).
#[unsafe(no_mangle)]
pub extern "C" fn sinew_body_read_normals(body: SinewBody, out_normals: *mut SinewVec3, capacity: usize) -> SinewResult {
    ffi_guard!({
        if out_normals.is_null() {
            return Err(crate::ffi::guard::null("out_normals"));
        }
        registry::with_body(body, |b, alpha| {
            let n = b.topology.vertex_count();
            buffer_check(capacity, n, "out_normals")?;
            let out = try_slice_mut!(out_normals, n, "out_normals");
            b.read_normals(alpha, as_vec3_mut(out))
        })
    })
}

/// Axis-aligned bounds of the body's particles.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_body_get_bounds(body: SinewBody, out_min: *mut SinewVec3, out_max: *mut SinewVec3) -> SinewResult {
    ffi_guard!({
        let lo_out = try_out!(out_min, "out_min");
        let hi_out = try_out!(out_max, "out_max");
        let (lo, hi) = registry::with_body(body, |b, _| Ok(b.bounds()))?;
        write(lo_out, lo.into());
        write(hi_out, hi.into());
        Ok(())
    })
}

/// Largest `|length/rest − 1|` over the body's constraints (the benchmark's stretch ratio).
#[unsafe(no_mangle)]
pub extern "C" fn sinew_body_get_max_stretch(body: SinewBody, out_stretch: *mut f32) -> SinewResult {
    ffi_guard!({
        let out = try_out!(out_stretch, "out_stretch");
        let s = registry::with_body(body, |b, _| Ok(b.max_stretch()))?;
        write(out, s);
        Ok(())
    })
}
