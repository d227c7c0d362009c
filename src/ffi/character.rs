//! Character cloth: skinning, the animated-pose limits, tethers, the character's root
//! (inertia, teleport, scale), LOD, wind and tearing readback.

use crate::particles::{Dynamics, Lod};
use crate::geometry::Pose;
use crate::error::{Error, ErrorKind};
use crate::ffi::guard::write;
use crate::ffi::registry;
use crate::ffi::result::SinewResult;
use crate::ffi::types::{SinewBody, SinewBoneWeight, SinewDynamics, SinewLod, SinewMat4, SinewVec3, SinewWind, SinewWorld};
use crate::math::Mat4;
use crate::wind::Wind;

fn mat4s(m: &[SinewMat4]) -> Vec<Mat4> {
    m.iter().map(|m| (*m).into()).collect()
}

/// Sets linear blend skinning: per host vertex four bones and weights (Unity's `BoneWeight`
/// layout), and `bone_count` bind poses (each maps a rest position, as the body was created,
/// into its bone's space). With no bind poses (`bind_pose_count` 0) the inverse of the first
/// bone matrices set is used, i.e. the body was created in the pose of that first frame.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_body_set_skinning(
    body: SinewBody,
    weights: *const SinewBoneWeight,
    weight_count: usize,
    bind_poses: *const SinewMat4,
    bind_pose_count: usize,
    bone_count: u32,
) -> SinewResult {
    ffi_guard!({
        let w: &[SinewBoneWeight] = try_slice!(weights, weight_count, "weights");
        let bind: &[SinewMat4] = try_slice!(bind_poses, bind_pose_count, "bind_poses");
        if bone_count == 0 || bone_count > u16::MAX as u32 {
            return Err(Error::invalid(format!("bone_count must be within [1, 65535] (got {bone_count})")));
        }
        let mut influence = Vec::with_capacity(w.len());
        for (i, bw) in w.iter().enumerate() {
            let bones = [bw.bone0, bw.bone1, bw.bone2, bw.bone3];
            if let Some(b) = bones.iter().find(|&&b| b < 0 || b as u32 >= bone_count) {
                return Err(Error::out_of_range(format!("vertex {i} names bone {b} of {bone_count}")));
            }
            influence.push((bones.map(|b| b as u16), [bw.weight0, bw.weight1, bw.weight2, bw.weight3]));
        }
        let bind = if bind.is_empty() { None } else { Some(mat4s(bind)) };
        registry::with_body(body, |b, _| b.set_skinning(&influence, bind, bone_count as usize))
    })
}

/// This frame's bone matrices (Unity's `localToWorldMatrix`, column-major), one per bone.
/// Pinned vertices follow their skinned position across the next step's substeps; the first
/// call places the whole body on the skinned pose.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_body_set_bone_matrices(body: SinewBody, matrices: *const SinewMat4, matrix_count: usize) -> SinewResult {
    ffi_guard!({
        let m: &[SinewMat4] = try_slice!(matrices, matrix_count, "matrices");
        registry::with_body(body, |b, _| b.set_bone_matrices_with(m.len(), |k| m[k].into()))
    })
}

/// Puts the body back on its skinned pose (or its created shape), at rest.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_body_reset_pose(body: SinewBody) -> SinewResult {
    ffi_guard!({
        registry::with_body(body, |b, _| {
            b.reset_to_pose();
            Ok(())
        })
    })
}

/// Per vertex, how far (m) each may move from its skinned position (Unity's
/// `ClothSkinningCoefficient.maxDistance`). 0 fixes it to the skinned pose; a negative value
/// or infinity means unlimited. Count 0 removes the limits. Needs skinning.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_body_set_max_distances(body: SinewBody, distances: *const f32, count: usize) -> SinewResult {
    ffi_guard!({
        let d = try_slice!(distances, count, "distances");
        registry::with_body(body, |b, _| b.set_max_distances(d))
    })
}

/// Per vertex backstops (Unity's `collisionSphereDistance`): a sphere of `radii[i]` placed
/// `offsets[i] + radii[i]` behind the skinned position along the skinned normal, which the
/// vertex cannot enter. Counts 0 remove them. Needs skinning.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_body_set_backstops(body: SinewBody, offsets: *const f32, offset_count: usize, radii: *const f32, radius_count: usize) -> SinewResult {
    ffi_guard!({
        let o = try_slice!(offsets, offset_count, "offsets");
        let r = try_slice!(radii, radius_count, "radii");
        registry::with_body(body, |b, _| b.set_backstops(o, r))
    })
}

/// No tethers.
pub const SINEW_TETHER_NONE: u32 = 0;
/// Tethers by straight-line distance to the nearest pinned vertex.
pub const SINEW_TETHER_EUCLIDEAN: u32 = 1;
/// Tethers by distance along the cloth to the nearest pinned vertex.
pub const SINEW_TETHER_GEODESIC: u32 = 2;

/// Tethers every free particle to its nearest pinned one (long range attachments), computed
/// from the current pins: no particle gets farther from its anchor than `scale` (≥ 1) × its
/// rest distance, at any iteration count.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_body_set_tethers(body: SinewBody, mode: u32, scale: f32) -> SinewResult {
    ffi_guard!({
        let mode = match mode {
            SINEW_TETHER_NONE => None,
            SINEW_TETHER_EUCLIDEAN => Some(false),
            SINEW_TETHER_GEODESIC => Some(true),
            other => return Err(Error::invalid(format!("unknown tether mode {other}"))),
        };
        registry::with_body(body, |b, _| b.set_tethers(mode, scale))
    })
}

/// Fills `out` with the default dynamics.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_dynamics_default(out: *mut SinewDynamics) -> SinewResult {
    ffi_guard!({
        let out = try_out!(out, "out");
        write(out, Dynamics::default().into());
        Ok(())
    })
}

/// Changes how the body responds to its root's motion, the wind and strain.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_body_set_dynamics(body: SinewBody, dynamics: *const SinewDynamics) -> SinewResult {
    ffi_guard!({
        let d = try_ref!(dynamics, "dynamics");
        registry::with_body(body, |b, _| b.set_dynamics((*d).into()))
    })
}

/// Reads the body's dynamics.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_body_get_dynamics(body: SinewBody, out: *mut SinewDynamics) -> SinewResult {
    ffi_guard!({
        let out = try_out!(out, "out");
        let d = registry::with_body(body, |b, _| Ok(b.dynamics))?;
        write(out, d.into());
        Ok(())
    })
}

/// Where the character's root is at the end of the next step (rotation, uniform scale,
/// translation). Its motion drives inertia (`world_velocity_scale`,
/// `world_acceleration_scale`), the automatic teleport and the body's scale: a root scaled
/// ×2 relative to its first transform doubles rest lengths, thickness and limits.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_body_set_root_transform(body: SinewBody, transform: *const SinewMat4) -> SinewResult {
    ffi_guard!({
        let m = try_ref!(transform, "transform");
        let pose = Pose::from_matrix(&(*m).into())?;
        registry::with_body(body, |b, _| {
            b.set_root(pose);
            Ok(())
        })
    })
}

/// Fills `out` with the default LOD settings (no reduction, no distance freeze, freeze
/// when invisible).
#[unsafe(no_mangle)]
pub extern "C" fn sinew_lod_default(out: *mut SinewLod) -> SinewResult {
    ffi_guard!({
        let out = try_out!(out, "out");
        write(out, Lod::default().into());
        Ok(())
    })
}

/// Sets the body's level-of-detail rules.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_body_set_lod(body: SinewBody, lod: *const SinewLod) -> SinewResult {
    ffi_guard!({
        let l = try_ref!(lod, "lod");
        registry::with_body(body, |b, _| b.set_lod((*l).into()))
    })
}

/// Tells Sinew whether the host renders the body (1) or not (0); an invisible body freezes
/// when its LOD says so, keeping its pose, and resumes without a jump.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_body_set_visible(body: SinewBody, visible: u32) -> SinewResult {
    ffi_guard!({
        registry::with_body(body, |b, _| {
            b.visible = visible != 0;
            Ok(())
        })
    })
}

/// The camera position LOD distances are measured from.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_world_set_camera(world: SinewWorld, position: SinewVec3) -> SinewResult {
    ffi_guard!({
        let cell = registry::world(world)?;
        cell.lock()?.set_camera(position.into())
    })
}

/// Fills `out` with calm air (speed 0) and default turbulence and gusts.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_wind_default(out: *mut SinewWind) -> SinewResult {
    ffi_guard!({
        let out = try_out!(out, "out");
        write(out, Wind::default().into());
        Ok(())
    })
}

/// Sets the world's wind.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_world_set_wind(world: SinewWorld, wind: *const SinewWind) -> SinewResult {
    ffi_guard!({
        let cell = registry::world(world)?;
        let w = try_ref!(wind, "wind");
        let mut wind: Wind = (*w).into();
        wind.validate()?;
        cell.lock()?.wind = wind;
        Ok(())
    })
}

/// Number of indices `sinew_body_read_indices` writes (3 per triangle; 0 for ropes).
#[unsafe(no_mangle)]
pub extern "C" fn sinew_body_get_index_count(body: SinewBody, out_count: *mut usize) -> SinewResult {
    ffi_guard!({
        let out = try_out!(out_count, "out_count");
        let n = registry::with_body(body, |b, _| Ok(b.topology.render_triangles.len() * 3))?;
        write(out, n);
        Ok(())
    })
}

/// Copies the body's triangles as host vertex indices. After a tear the vertex count grows
/// and the triangles change; `SinewBodyInfo.topology_version` tells when to read them again.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_body_read_indices(body: SinewBody, out_indices: *mut u32, capacity: usize) -> SinewResult {
    ffi_guard!({
        if out_indices.is_null() && capacity > 0 {
            return Err(crate::ffi::guard::null("out_indices"));
        }
        registry::with_body(body, |b, _| {
            let tris = &b.topology.render_triangles;
            let n = tris.len() * 3;
            if capacity < n {
                return Err(Error::new(ErrorKind::BufferTooSmall, format!("out_indices holds {capacity} but the body has {n} indices")));
            }
            let out = try_slice_mut!(out_indices, n, "out_indices");
            for (o, t) in out.chunks_exact_mut(3).zip(tris) {
                o.copy_from_slice(t);
            }
            Ok(())
        })
    })
}

/// For each host vertex, the original vertex it was copied from (itself unless the cloth
/// tore), so a host can copy UVs and colours to vertices a tear added.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_body_read_vertex_sources(body: SinewBody, out_sources: *mut u32, capacity: usize) -> SinewResult {
    ffi_guard!({
        if out_sources.is_null() {
            return Err(crate::ffi::guard::null("out_sources"));
        }
        registry::with_body(body, |b, _| {
            let n = b.topology.vertex_count();
            if capacity < n {
                return Err(Error::new(ErrorKind::BufferTooSmall, format!("out_sources holds {capacity} but the body has {n} vertices")));
            }
            let out = try_slice_mut!(out_sources, n, "out_sources");
            match &b.topology.vertex_source {
                Some(src) => out.copy_from_slice(src),
                None => out.iter_mut().enumerate().for_each(|(i, o)| *o = i as u32),
            }
            Ok(())
        })
    })
}
