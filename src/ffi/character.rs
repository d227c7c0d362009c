//! The `sinew_body_*` calls that drive a body from a character: skinning, the animated-pose
//! limits, tethers, dynamics and the character's root (inertia, teleport, scale), LOD and
//! visibility; and the defaults of their descriptors (`sinew_dynamics_default`,
//! `sinew_lod_default`). The rest of `sinew_body_*` is in `body.rs`.

use crate::particles::skin::HostInfluence;
use crate::particles::{Dynamics, Lod};
use crate::geometry::Pose;

use crate::math::Mat4;

use crate::ffi::registry;
use crate::ffi::result::SinewResult;
use crate::ffi::types::{AbiEnum, SinewBody, SinewBoneWeight, SinewDynamics, SinewLod, SinewMat4, SinewTetherMode};

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
        let influence: Vec<HostInfluence> = w.iter().map(|bw| ([bw.bone0, bw.bone1, bw.bone2, bw.bone3], [bw.weight0, bw.weight1, bw.weight2, bw.weight3])).collect();
        let bind = if bind.is_empty() { None } else { Some(mat4s(bind)) };
        registry::with_body(body, |b, _| b.set_skinning(&influence, bind, bone_count))
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

/// Tethers every free particle to its nearest pinned one (long range attachments), computed
/// from the current pins: no particle gets farther from its anchor than `scale` in [1, 100] × its
/// rest distance, at any iteration count. `mode` is a `SinewTetherMode`.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_body_set_tethers(body: SinewBody, mode: u32, scale: f32) -> SinewResult {
    ffi_guard!({
        let mode = match SinewTetherMode::checked(mode)? {
            SinewTetherMode::SINEW_TETHER_NONE => None,
            SinewTetherMode::SINEW_TETHER_EUCLIDEAN => Some(false),
            SinewTetherMode::SINEW_TETHER_GEODESIC => Some(true),
        };
        registry::with_body(body, |b, _| b.set_tethers(mode, scale))
    })
}

/// Fills `out` with the default dynamics.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_dynamics_default(out: *mut SinewDynamics) -> SinewResult {
    ffi_guard!({
        let out = try_out!(out, "out");
        out.write(Dynamics::default().into());
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
        out.write(d.into());
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

/// Rides the body in a moving platform — a vehicle, an elevator, a ship's deck (Magica Cloth
/// 2's anchor): `transform` is where the anchor is at the end of the next step (rigid:
/// rotation and translation, column-major, scale 1; translation within ±1e6 m; a scale other
/// than 1 beyond 1e-3, shear, a mirror or a projective row is `SINEW_INVALID_ARGUMENT`, NaN or
/// infinity `SINEW_NON_FINITE`), `inertia` in [0, 1] how much of its motion the body feels as
/// world motion: 0 none (the body behaves as if the vehicle stood still and is carried rigidly
/// with it), 1 all (plain world physics; the default without an anchor). Each frame that steps
/// carries the body (positions and velocities) by `1 − inertia` of the anchor's rigid motion
/// since the last, so in a vehicle accelerating at `a` a cape pinned in it hangs at
/// `atan(inertia · a / g)` from the vertical; colliders the host moves with the anchor are met
/// as the body sees them (still, at inertia 0). A jump of the anchor beyond
/// `SinewDynamics.teleport_distance` carries the body whole without a jolt. The root's inertia
/// (`world_velocity_scale`, `world_acceleration_scale`) is then relative to the anchor. Call
/// it every frame the anchor moves, before `sinew_world_step`; the first call places the anchor
/// and moves nothing. A refused call changes nothing.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_body_set_anchor(body: SinewBody, transform: *const SinewMat4, inertia: f32) -> SinewResult {
    ffi_guard!({
        let m = try_ref!(transform, "transform");
        let pose = Pose::from_rigid_matrix(&(*m).into(), "anchor transform")?;
        registry::with_body(body, |b, _| b.set_anchor(pose, inertia))
    })
}

/// Takes the body out of its anchor (`sinew_body_set_anchor`): from the next step it feels
/// world motion only. Nothing for a body without one.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_body_clear_anchor(body: SinewBody) -> SinewResult {
    ffi_guard!({
        registry::with_body(body, |b, _| {
            b.clear_anchor();
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
        out.write(Lod::default().into());
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
