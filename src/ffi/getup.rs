//! `sinew_ragdoll_*` of a ragdoll in a game: powered ragdolls (muscle strength, pin weight,
//! hit reactions, balance loss: `ragdoll::drive`) and getting up (the snapshot, the blend,
//! which side is up, the get-up clip's root, "at rest": `ragdoll::getup`), and the two
//! free helpers `sinew_pose_blend` and `sinew_blend_alpha`.
//!
//! The conventions of `ffi/ragdoll.rs` hold: bone indices `< bone count`, input arrays of
//! exactly the bone count, output buffers of at least it, every value checked before anything
//! changes. Every call here allocates nothing (stack buffers of `MAX_BONES`).

use crate::math::{Quat, Vec3};
use crate::ragdoll::getup::blend_pose;
use crate::ragdoll::{GetUpQuery, LyingSide, MAX_BONES, blend_alpha, check_alpha};

use super::ragdoll::{bone_index, check_count, position, rotation, write_poses};
use crate::ffi::registry;
use crate::ffi::result::SinewResult;
use crate::ffi::types::{SinewQuat, SinewRagdoll, SinewVec3};

/// Which way a ragdoll lies (`SinewGetUpInfo.side`).
#[repr(u32)]
#[allow(non_camel_case_types)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SinewLyingSide {
    /// On its back: the front faces up (get up from the back).
    SINEW_LYING_FACE_UP = 1,
    /// On its front (get up from the front: the chapter's `GetUpFront`).
    SINEW_LYING_FACE_DOWN = 2,
    /// On its left side (the left arm on the ground).
    SINEW_LYING_LEFT_SIDE = 3,
    SINEW_LYING_RIGHT_SIDE = 4,
}

/// Event bits of `sinew_ragdoll_take_events`.
#[repr(u32)]
#[allow(non_camel_case_types)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SinewRagdollEvent {
    /// A driven ragdoll's root left its animated position by more than `balance_distance`:
    /// every muscle strength and pin weight was set to 0 (limp).
    SINEW_RAGDOLL_EVENT_BALANCE_LOST = 1,
}

const _: () = assert!(SinewRagdollEvent::SINEW_RAGDOLL_EVENT_BALANCE_LOST as u32 == crate::ragdoll::BALANCE_LOST);

/// What `sinew_ragdoll_get_up_info` needs to know; fill with `sinew_get_up_query_default` first.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SinewGetUpQuery {
    /// Bones standing for the pelvis, the chest and the head. Default the humanoid template's
    /// `SINEW_HUMANOID_PELVIS`, `SINEW_HUMANOID_MIDDLE_SPINE`, `SINEW_HUMANOID_HEAD`.
    pub pelvis: u32,
    pub chest: u32,
    pub head: u32,
    /// The world's up now. Default (0, 1, 0).
    pub up: SinewVec3,
    /// The character's forward and up in the bind pose (world). Default (0, 0, 1), (0, 1, 0) (Unity's).
    pub bind_forward: SinewVec3,
    pub bind_up: SinewVec3,
}

/// The answer of `sinew_ragdoll_get_up_info`.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SinewGetUpInfo {
    /// A `SinewLyingSide`.
    pub side: u32,
    /// 1: play the get-up-from-front clip (lying face down, or on a side nearer the front); 0: from the back.
    pub from_front: u32,
    /// The pelvis's and chest's averaged front axis along up: −1 face down … 1 face up.
    pub front_up: f32,
    /// Where the get-up clip's root goes: the pelvis projected onto the ground under the body,
    /// turned about up so that the character's bind forward points from the pelvis towards the
    /// head (face down) or towards the feet (face up).
    pub root_position: SinewVec3,
    pub root_rotation: SinewQuat,
    /// Unit direction from the pelvis to the head in the ground plane.
    pub heading: SinewVec3,
}

/// A bone's muscle and pin (`sinew_ragdoll_get_drive_state`).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SinewDriveState {
    /// As set by the host (a balance loss sets both to 0).
    pub muscle_strength: f32,
    pub pin_weight: f32,
    /// Acting now: as set × (1 − hit_loss).
    pub effective_strength: f32,
    pub effective_pin_weight: f32,
    /// What a hit took (0–1), recovering over `hit_recovery_time`.
    pub hit_loss: f32,
}

// ---- powered ragdoll ----

/// Muscle strength `strength` in [0, 1] of `bone`'s joint motor: 0 (the default) limp, 1 turning the joint
/// to the animated local rotation (from `sinew_ragdoll_set_targets`) at the settings'
/// `muscle_frequency`. Wakes the ragdoll.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_ragdoll_set_muscle_strength(ragdoll: SinewRagdoll, bone: u32, strength: f32) -> SinewResult {
    ffi_guard!({
        registry::with_ragdoll(ragdoll, |r, _| {
            let b = bone_index(r, bone, "bone")?;
            r.set_muscle_strength(Some(b), strength)
        })
    })
}

/// `sinew_ragdoll_set_muscle_strength` for every bone: `strength` in [0, 1].
#[unsafe(no_mangle)]
pub extern "C" fn sinew_ragdoll_set_muscle_strength_all(ragdoll: SinewRagdoll, strength: f32) -> SinewResult {
    ffi_guard!({
        registry::with_ragdoll(ragdoll, |r, _| r.set_muscle_strength(None, strength))
    })
}

/// Pin weight `weight` in [0, 1] pulling `bone` towards its animated world pose (PuppetMaster's pin
/// weight): 0 (the default) free, 1 following the animation within millimetres.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_ragdoll_set_pin_weight(ragdoll: SinewRagdoll, bone: u32, weight: f32) -> SinewResult {
    ffi_guard!({
        registry::with_ragdoll(ragdoll, |r, _| {
            let b = bone_index(r, bone, "bone")?;
            r.set_pin_weight(Some(b), weight)
        })
    })
}

/// `sinew_ragdoll_set_pin_weight` for every bone: `weight` in [0, 1].
#[unsafe(no_mangle)]
pub extern "C" fn sinew_ragdoll_set_pin_weight_all(ragdoll: SinewRagdoll, weight: f32) -> SinewResult {
    ffi_guard!({
        registry::with_ragdoll(ragdoll, |r, _| r.set_pin_weight(None, weight))
    })
}

/// `bone`'s muscle strength and pin weight as set and as acting after hits.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_ragdoll_get_drive_state(ragdoll: SinewRagdoll, bone: u32, out_state: *mut SinewDriveState) -> SinewResult {
    ffi_guard!({
        let out = try_out!(out_state, "out_state");
        let st = registry::with_ragdoll(ragdoll, |r, _| {
            let b = bone_index(r, bone, "bone")?;
            let (es, ep, loss) = r.drive_state(b)?;
            Ok(SinewDriveState { muscle_strength: r.muscle_strength(b)?, pin_weight: r.pin_weight(b)?, effective_strength: es, effective_pin_weight: ep, hit_loss: loss })
        })?;
        out.write(st);
        Ok(())
    })
}

/// Writes the ragdoll's event bits since the last call (`SinewRagdollEvent`) and clears them.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_ragdoll_take_events(ragdoll: SinewRagdoll, out_events: *mut u32) -> SinewResult {
    ffi_guard!({
        let out = try_out!(out_events, "out_events");
        let e = registry::with_ragdoll(ragdoll, |r, _| Ok(r.take_events()))?;
        out.write(e);
        Ok(())
    })
}

// ---- getting up ----

/// Takes the get-up snapshot: every bone where the last fixed step left it (also taken by
/// `sinew_ragdoll_set_kinematic(…, 1)`, the moment physics lets go).
#[unsafe(no_mangle)]
pub extern "C" fn sinew_ragdoll_capture_snapshot(ragdoll: SinewRagdoll) -> SinewResult {
    ffi_guard!({
        registry::with_ragdoll(ragdoll, |r, _| {
            r.capture_snapshot();
            Ok(())
        })
    })
}

/// Copies the snapshot's bone positions and rotations; each capacity at least the bone count.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_ragdoll_read_snapshot(
    ragdoll: SinewRagdoll,
    out_positions: *mut SinewVec3,
    position_capacity: usize,
    out_rotations: *mut SinewQuat,
    rotation_capacity: usize,
) -> SinewResult {
    ffi_guard!({
        let pbuf = try_out_buf!(out_positions, position_capacity, "out_positions");
        let qbuf = try_out_buf!(out_rotations, rotation_capacity, "out_rotations");
        registry::with_ragdoll(ragdoll, |r, _| {
            let n = r.bone_count();
            let p = pbuf.take_of(n, "the ragdoll", "bones")?;
            let q = qbuf.take_of(n, "the ragdoll", "bones")?;
            let mut pos = [Vec3::ZERO; MAX_BONES];
            let mut rot = [Quat::IDENTITY; MAX_BONES];
            r.read_snapshot(&mut pos[..n], &mut rot[..n])?;
            write_poses(p, q, &pos[..n], &rot[..n]);
            Ok(())
        })
    })
}

/// The chapter's get-up blend: from the snapshot to the animated pose (`anim_*`, one per
/// bone) by `alpha` in [0, 1] — position lerp, rotation slerp — into `out_*` (capacities at
/// least the bone count). At 0 exactly the snapshot, at 1 exactly the animated pose.
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub extern "C" fn sinew_ragdoll_blend_from_snapshot(
    ragdoll: SinewRagdoll,
    anim_positions: *const SinewVec3,
    anim_position_count: usize,
    anim_rotations: *const SinewQuat,
    anim_rotation_count: usize,
    alpha: f32,
    out_positions: *mut SinewVec3,
    position_capacity: usize,
    out_rotations: *mut SinewQuat,
    rotation_capacity: usize,
) -> SinewResult {
    ffi_guard!({
        let ap: &[SinewVec3] = try_slice!(anim_positions, anim_position_count, "anim_positions");
        let aq: &[SinewQuat] = try_slice!(anim_rotations, anim_rotation_count, "anim_rotations");
        let pbuf = try_out_buf!(out_positions, position_capacity, "out_positions");
        let qbuf = try_out_buf!(out_rotations, rotation_capacity, "out_rotations");
        registry::with_ragdoll(ragdoll, |r, _| {
            let n = r.bone_count();
            check_count(r, ap.len(), "anim_positions")?;
            check_count(r, aq.len(), "anim_rotations")?;
            let p = pbuf.take_of(n, "the ragdoll", "bones")?;
            let q = qbuf.take_of(n, "the ragdoll", "bones")?;
            let mut apos = [Vec3::ZERO; MAX_BONES];
            let mut arot = [Quat::IDENTITY; MAX_BONES];
            for k in 0..n {
                apos[k] = position(ap[k], || format!("anim_positions[{k}]"))?;
                rotation(aq[k], || format!("anim_rotations[{k}]"))?;
                // The host's own bits (checked unit above): at alpha 1 the blend returns them
                // exactly; only a blend in between normalises.
                arot[k] = aq[k].into();
            }
            let mut pos = [Vec3::ZERO; MAX_BONES];
            let mut rot = [Quat::IDENTITY; MAX_BONES];
            r.blend_from_snapshot(&apos[..n], &arot[..n], alpha, &mut pos[..n], &mut rot[..n])?;
            write_poses(p, q, &pos[..n], &rot[..n]);
            Ok(())
        })
    })
}

/// The same blend between any two poses of `count` bones the host keeps itself: `from_*` and
/// `to_*` hold `count` entries each, `out_*` at least `out_capacity` ≥ `count`; `alpha` in
/// [0, 1] as in `sinew_ragdoll_blend_from_snapshot`.
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub extern "C" fn sinew_pose_blend(
    from_positions: *const SinewVec3,
    from_rotations: *const SinewQuat,
    to_positions: *const SinewVec3,
    to_rotations: *const SinewQuat,
    count: usize,
    alpha: f32,
    out_positions: *mut SinewVec3,
    out_rotations: *mut SinewQuat,
    out_capacity: usize,
) -> SinewResult {
    ffi_guard!({
        let fp: &[SinewVec3] = try_slice!(from_positions, count, "from_positions");
        let fq: &[SinewQuat] = try_slice!(from_rotations, count, "from_rotations");
        let tp: &[SinewVec3] = try_slice!(to_positions, count, "to_positions");
        let tq: &[SinewQuat] = try_slice!(to_rotations, count, "to_rotations");
        let pbuf = try_out_buf!(out_positions, out_capacity, "out_positions");
        let qbuf = try_out_buf!(out_rotations, out_capacity, "out_rotations");
        let a = check_alpha(alpha)?;
        let p = pbuf.take_of(count, "the pose", "bones")?;
        let q = qbuf.take_of(count, "the pose", "bones")?;
        // Everything checked first: a refused call writes nothing.
        for k in 0..count {
            position(fp[k], || format!("from_positions[{k}]"))?;
            rotation(fq[k], || format!("from_rotations[{k}]"))?;
            position(tp[k], || format!("to_positions[{k}]"))?;
            rotation(tq[k], || format!("to_rotations[{k}]"))?;
        }
        // The host's own bits: at alpha 0 and 1 the blend returns them exactly (blend_pose
        // normalises only a blend in between).
        for k in 0..count {
            let from = (fp[k].into(), Quat::from(fq[k]));
            let to = (tp[k].into(), Quat::from(tq[k]));
            let (bp, bq) = blend_pose(from, to, a);
            p[k] = bp.into();
            q[k] = bq.into();
        }
        Ok(())
    })
}

/// `alpha` of a blend that started `time` s ago and lasts `blend_time` (s) in [0, ∞): the
/// chapter's `t / blendTime` held to [0, 1] (1 at once for a zero blend time).
#[unsafe(no_mangle)]
pub extern "C" fn sinew_blend_alpha(time: f32, blend_time: f32, out_alpha: *mut f32) -> SinewResult {
    ffi_guard!({
        let out = try_out!(out_alpha, "out_alpha");
        out.write(blend_alpha(time, blend_time)?);
        Ok(())
    })
}

/// Fills `out_query` with the defaults: the humanoid template's pelvis, middle spine and head,
/// up +Y, bind forward +Z, bind up +Y.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_get_up_query_default(out_query: *mut SinewGetUpQuery) -> SinewResult {
    ffi_guard!({
        let out = try_out!(out_query, "out_query");
        let d = GetUpQuery::default();
        out.write(SinewGetUpQuery {
            pelvis: d.pelvis as u32,
            chest: d.chest as u32,
            head: d.head as u32,
            up: d.up.into(),
            bind_forward: d.bind_forward.into(),
            bind_up: d.bind_up.into(),
        });
        Ok(())
    })
}

/// Which side the ragdoll lies on, which get-up clip to play, and where its root goes.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_ragdoll_get_up_info(ragdoll: SinewRagdoll, query: *const SinewGetUpQuery, out_info: *mut SinewGetUpInfo) -> SinewResult {
    ffi_guard!({
        let q = try_ref!(query, "query");
        let out = try_out!(out_info, "out_info");
        let query = GetUpQuery {
            pelvis: q.pelvis as usize,
            chest: q.chest as usize,
            head: q.head as usize,
            up: q.up.into(),
            bind_forward: q.bind_forward.into(),
            bind_up: q.bind_up.into(),
        };
        let info = registry::with_ragdoll(ragdoll, |r, _| r.get_up_info(&query))?;
        let side = match info.side {
            LyingSide::FaceUp => SinewLyingSide::SINEW_LYING_FACE_UP,
            LyingSide::FaceDown => SinewLyingSide::SINEW_LYING_FACE_DOWN,
            LyingSide::LeftSide => SinewLyingSide::SINEW_LYING_LEFT_SIDE,
            LyingSide::RightSide => SinewLyingSide::SINEW_LYING_RIGHT_SIDE,
        };
        out.write(SinewGetUpInfo {
            side: side as u32,
            from_front: info.from_front as u32,
            front_up: info.front_up,
            root_position: info.root_position.into(),
            root_rotation: info.root_rotation.into(),
            heading: info.heading.into(),
        });
        Ok(())
    })
}

/// Seconds every bone has been slower than the settings' `rest_speed` (up to the last step
/// the ragdoll was stepped in).
#[unsafe(no_mangle)]
pub extern "C" fn sinew_ragdoll_get_rest_time(ragdoll: SinewRagdoll, out_seconds: *mut f32) -> SinewResult {
    ffi_guard!({
        let out = try_out!(out_seconds, "out_seconds");
        let t = registry::with_ragdoll(ragdoll, |r, _| Ok(r.rest_time()))?;
        out.write(t);
        Ok(())
    })
}

/// Writes 1 once every bone has stayed slower than `rest_speed` for `seconds` (or the ragdoll
/// sleeps): the moment to start getting up.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_ragdoll_is_at_rest(ragdoll: SinewRagdoll, seconds: f32, out_at_rest: *mut u32) -> SinewResult {
    ffi_guard!({
        let out = try_out!(out_at_rest, "out_at_rest");
        let a = registry::with_ragdoll(ragdoll, |r, _| r.is_at_rest(seconds))?;
        out.write(a as u32);
        Ok(())
    })
}
