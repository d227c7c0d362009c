//! `sinew_body_*`: what every particle body (cloth, rope, strands) answers to, its material
//! (`sinew_material_default`, `sinew_material_preset`) and its readback. The calls that drive a body from a character
//! (skinning, pose limits, tethers, dynamics, root, LOD) are in `character.rs`.
//!
//! Indices are the host's vertex indices (for a welded mesh, its own numbering). Every
//! readback takes an output buffer and its capacity under the one rule of `guard.rs`.

use crate::particles::{Body, BodyKind, Material};
use crate::error::Error;

use crate::ffi::registry;
use crate::ffi::result::SinewResult;
use crate::ffi::types::{AbiEnum, SinewBody, SinewBodyInfo, SinewBodyKind, SinewMat4, SinewMaterial, SinewMaterialPreset, SinewVec3, as_vec3, as_vec3_mut};

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
/// Each body's `thickness` is its particles' radius; in a pair it must be at most the body's
/// mean stretch edge (its grid or lattice spacing), or the pair is refused naming the body —
/// and a thicker material on a paired body later — because a contact distance of many
/// spacings meets hundreds of the other body's particles each (its cost grows as
/// (thickness / spacing)³). For contact of a body with itself, set `self_collision` in its
/// material.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_body_set_collision_pair(a: SinewBody, b: SinewBody, enabled: u32) -> SinewResult {
    ffi_guard!({
        let (cell, slot_a, serial_a) = registry::body_owner(a)?;
        let (cell_b, slot_b, serial_b) = registry::body_owner(b)?;
        if !std::sync::Arc::ptr_eq(&cell, &cell_b) {
            return Err(Error::invalid("the two bodies belong to different worlds"));
        }
        let mut w = cell.lock()?;
        // `World::set_body_pair` checks that both bodies exist (SINEW_INVALID_HANDLE).
        w.set_body_pair((slot_a, serial_a), (slot_b, serial_b), enabled != 0)
    })
}

/// Describes a body: kind, particle, vertex, constraint and triangle counts.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_body_get_info(body: SinewBody, out_info: *mut SinewBodyInfo) -> SinewResult {
    ffi_guard!({
        let out = try_out!(out_info, "out_info");
        let info = registry::with_body(body, |b, _| Ok(info(b)))?;
        out.write(info);
        Ok(())
    })
}

fn info(b: &Body) -> SinewBodyInfo {
    let t = &b.topology;
    let kind = match b.kind {
        BodyKind::Cloth => SinewBodyKind::SINEW_BODY_CLOTH,
        BodyKind::Rope => SinewBodyKind::SINEW_BODY_ROPE,
        BodyKind::Strands => SinewBodyKind::SINEW_BODY_STRANDS,
        BodyKind::SoftBody => SinewBodyKind::SINEW_BODY_SOFT,
    };
    SinewBodyInfo {
        kind: kind as u32,
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
        mass: b.total_mass(),
    }
}

/// Number of vertices `sinew_body_read_positions` writes.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_body_get_vertex_count(body: SinewBody, out_count: *mut usize) -> SinewResult {
    ffi_guard!({
        let out = try_out!(out_count, "out_count");
        let n = registry::with_body(body, |b, _| Ok(b.topology.vertex_count()))?;
        out.write(n);
        Ok(())
    })
}

/// Fills `out_material` with the default material.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_material_default(out_material: *mut SinewMaterial) -> SinewResult {
    ffi_guard!({
        let out = try_out!(out_material, "out_material");
        out.write(Material::default().into());
        Ok(())
    })
}

/// Fills `out_material` with the material preset `preset` (a `SinewMaterialPreset`) in
/// physical units: a fabric's areal density (kg/m²), bending (N·m) and membrane (N/m)
/// stiffness; a rope's or hair's linear density (kg/m); a solid's density (kg/m³), Young's
/// modulus and Poisson's ratio; and its thickness, damping and friction. The other fields are
/// `sinew_material_default`'s. A value no preset has is `SINEW_INVALID_ARGUMENT` ("unknown
/// material preset 10") and leaves `out_material` untouched. The table and its sources:
/// docs/materials.md.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_material_preset(preset: u32, out_material: *mut SinewMaterial) -> SinewResult {
    ffi_guard!({
        let out = try_out!(out_material, "out_material");
        let p = SinewMaterialPreset::checked(preset)?;
        out.write(Material::preset(p.into()).into());
        Ok(())
    })
}

/// Reads the body's material.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_body_get_material(body: SinewBody, out_material: *mut SinewMaterial) -> SinewResult {
    ffi_guard!({
        let out = try_out!(out_material, "out_material");
        let m = registry::with_body(body, |b, _| Ok(b.material))?;
        out.write(m.into());
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

/// Sets where vertices `indices[k]` are at this host frame: they read back there at once, and
/// the simulation carries them along their path across the fixed steps at their own velocity
/// (no velocity spike, whatever the host's rate). A vertex not yet pinned becomes pinned. A
/// jump of the targets' centre beyond `teleport_distance` teleports the body. Targets beyond
/// ±1e6 m are refused. `position_count` must equal `index_count`.
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
        registry::with_body(body, |b, _| b.teleport(&(*m).into()))
    })
}

/// Copies vertex positions (interpolated between fixed steps) into `out_positions`, in the
/// host's vertex order; `capacity` must be at least the vertex count.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_body_read_positions(body: SinewBody, out_positions: *mut SinewVec3, capacity: usize) -> SinewResult {
    ffi_guard!({
        let buf = try_out_buf!(out_positions, capacity, "out_positions");
        registry::with_body(body, |b, alpha| {
            let out = buf.take(b.topology.vertex_count(), "vertices")?;
            b.read_positions(alpha, as_vec3_mut(out));
            Ok(())
        })
    })
}

/// Copies unit, area-weighted vertex normals into `out_normals` (a rope's are +Y);
/// `capacity` must be at least the vertex count.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_body_read_normals(body: SinewBody, out_normals: *mut SinewVec3, capacity: usize) -> SinewResult {
    ffi_guard!({
        let buf = try_out_buf!(out_normals, capacity, "out_normals");
        registry::with_body(body, |b, alpha| {
            let out = buf.take(b.topology.vertex_count(), "vertices")?;
            b.read_normals(alpha, as_vec3_mut(out))
        })
    })
}

/// Number of indices `sinew_body_read_indices` writes (3 per triangle; 0 for ropes).
#[unsafe(no_mangle)]
pub extern "C" fn sinew_body_get_index_count(body: SinewBody, out_count: *mut usize) -> SinewResult {
    ffi_guard!({
        let out = try_out!(out_count, "out_count");
        let n = registry::with_body(body, |b, _| Ok(b.topology.render_triangles.len() * 3))?;
        out.write(n);
        Ok(())
    })
}

/// Copies the body's triangles as host vertex indices; `capacity` must be at least the index
/// count. After a tear the vertex count grows and the triangles change;
/// `SinewBodyInfo.topology_version` tells when to read them again.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_body_read_indices(body: SinewBody, out_indices: *mut u32, capacity: usize) -> SinewResult {
    ffi_guard!({
        let buf = try_out_buf!(out_indices, capacity, "out_indices");
        registry::with_body(body, |b, _| {
            let tris = &b.topology.render_triangles;
            let out = buf.take(tris.len() * 3, "indices")?;
            for (o, t) in out.chunks_exact_mut(3).zip(tris) {
                o.copy_from_slice(t);
            }
            Ok(())
        })
    })
}

/// For each host vertex, the original vertex it was copied from (itself unless the cloth
/// tore), so a host can copy UVs and colours to vertices a tear added; `capacity` must be at
/// least the vertex count.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_body_read_vertex_sources(body: SinewBody, out_sources: *mut u32, capacity: usize) -> SinewResult {
    ffi_guard!({
        let buf = try_out_buf!(out_sources, capacity, "out_sources");
        registry::with_body(body, |b, _| {
            let out = buf.take(b.topology.vertex_count(), "vertices")?;
            match &b.topology.vertex_source {
                Some(src) => out.copy_from_slice(src),
                None => out.iter_mut().enumerate().for_each(|(i, o)| *o = i as u32),
            }
            Ok(())
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
        lo_out.write(lo.into());
        hi_out.write(hi.into());
        Ok(())
    })
}

/// Wall time (ns) the body's fixed steps took in the last `sinew_world_step` (or step_end)
/// that ran any: bodies stepped together (side by side in SIMD lanes, or as a collision pair)
/// share their group's time by particle count. 0 while the body is frozen or asleep. For
/// profiling (a debug window); it never changes the simulation.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_body_get_step_time_ns(body: SinewBody, out_ns: *mut u64) -> SinewResult {
    ffi_guard!({
        let out = try_out!(out_ns, "out_ns");
        let ns = registry::with_body(body, |b, _| Ok(b.step_time_ns()))?;
        out.write(ns);
        Ok(())
    })
}

/// Largest `|length/rest − 1|` over the body's constraints (the benchmark's stretch ratio).
#[unsafe(no_mangle)]
pub extern "C" fn sinew_body_get_max_stretch(body: SinewBody, out_stretch: *mut f32) -> SinewResult {
    ffi_guard!({
        let out = try_out!(out_stretch, "out_stretch");
        let s = registry::with_body(body, |b, _| Ok(b.max_stretch()))?;
        out.write(s);
        Ok(())
    })
}
