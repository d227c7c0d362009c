//! `sinew_ragdoll_*`: ragdolls (rigid bones joined by joints) from a bone list or from the
//! humanoid template, their descriptors' defaults (`sinew_bone_desc_default`,
//! `sinew_joint_desc_default`, `sinew_ragdoll_settings_default`, `sinew_humanoid_bones_default`),
//! the template's bone list (`sinew_humanoid_bone_descs`), and the two calls that join a
//! particle body to a ragdoll (`sinew_body_attach_to_ragdoll`, `sinew_body_set_ragdoll_collision`).
//!
//! Conventions of the per-bone calls:
//! - bone indices are `uint32_t`, `< bone count` (else `SINEW_OUT_OF_RANGE`, naming both);
//! - per-bone input arrays hold exactly the bone count (else `SINEW_INVALID_ARGUMENT`), output
//!   buffers at least it (the buffer rule of `guard.rs`: `SINEW_BUFFER_TOO_SMALL`);
//! - a bone transform is a world position and a unit rotation quaternion (x, y, z, w: Unity's
//!   `Transform.position` / `rotation`), or a column-major matrix with scale 1 (Unity's
//!   `Matrix4x4`); rotations within 1e-3 of unit length are normalised, others refused;
//! - every float is checked before the ragdoll is touched (`SINEW_NON_FINITE`, or
//!   `SINEW_INVALID_ARGUMENT` beyond its range), so a failing call changes nothing.
//!
//! The per-frame calls (targets, pose readback) allocate nothing: poses are converted in
//! stack buffers of `MAX_BONES`.

use std::sync::Arc;

use crate::error::{Error, ErrorKind, Result, check_finite_with, check_position_with, check_rotation, is_unit};
use crate::geometry::{Pose, Shape, ShapeDesc, ShapeKind};
use crate::math::{Mat4, Quat, Vec3};
use crate::ragdoll::humanoid::HumanoidBones;
use crate::ragdoll::{BoneDesc, JointDesc, JointKind, MAX_BONES, Ragdoll, RagdollDesc, RagdollSettings};

use crate::ffi::registry;
use crate::ffi::result::SinewResult;
use crate::ffi::types::{
    AbiEnum, SinewBody, SinewBoneDesc, SinewHumanoidBones, SinewJointDesc, SinewJointKind, SinewMat4, SinewQuat, SinewRagdoll,
    SinewRagdollSettings, SinewShape, SinewVec3, SinewWorld, as_vec3, as_vec3_mut,
};

// The C enum of the template's bones is the core's numbering (`ragdoll::humanoid::bone`).
const _: () = {
    use crate::ffi::types::SinewHumanoidBone as H;
    use crate::ragdoll::humanoid::bone;
    assert!(H::SINEW_HUMANOID_PELVIS as usize == bone::PELVIS);
    assert!(H::SINEW_HUMANOID_LEFT_HIP as usize == bone::LEFT_HIP);
    assert!(H::SINEW_HUMANOID_LEFT_KNEE as usize == bone::LEFT_KNEE);
    assert!(H::SINEW_HUMANOID_RIGHT_HIP as usize == bone::RIGHT_HIP);
    assert!(H::SINEW_HUMANOID_RIGHT_KNEE as usize == bone::RIGHT_KNEE);
    assert!(H::SINEW_HUMANOID_MIDDLE_SPINE as usize == bone::MIDDLE_SPINE);
    assert!(H::SINEW_HUMANOID_HEAD as usize == bone::HEAD);
    assert!(H::SINEW_HUMANOID_LEFT_ARM as usize == bone::LEFT_ARM);
    assert!(H::SINEW_HUMANOID_LEFT_ELBOW as usize == bone::LEFT_ELBOW);
    assert!(H::SINEW_HUMANOID_RIGHT_ARM as usize == bone::RIGHT_ARM);
    assert!(H::SINEW_HUMANOID_RIGHT_ELBOW as usize == bone::RIGHT_ELBOW);
    assert!(H::SINEW_HUMANOID_BONE_COUNT as usize == bone::COUNT);
};

const REST: Pose = Pose { rotation: Quat::IDENTITY, position: Vec3::ZERO, scale: 1.0 };

// ---- descriptors ----

const JOINT_DEFAULT_LIMITS: (f32, f32, f32, f32, f32, f32) = (-90.0, 90.0, 30.0, 30.0, -20.0, 20.0);

impl From<JointDesc> for SinewJointDesc {
    fn from(j: JointDesc) -> Self {
        let (mut hinge_min, mut hinge_max, mut swing1, mut swing2, mut low_twist, mut high_twist) = JOINT_DEFAULT_LIMITS;
        let kind = match j.kind {
            JointKind::Free => SinewJointKind::SINEW_JOINT_FREE,
            JointKind::Fixed => SinewJointKind::SINEW_JOINT_FIXED,
            JointKind::Hinge { min, max } => {
                (hinge_min, hinge_max) = (min, max);
                SinewJointKind::SINEW_JOINT_HINGE
            }
            JointKind::SwingTwist { swing1: s1, swing2: s2, low_twist: lo, high_twist: hi } => {
                (swing1, swing2, low_twist, high_twist) = (s1, s2, lo, hi);
                SinewJointKind::SINEW_JOINT_SWING_TWIST
            }
        };
        SinewJointDesc {
            kind: kind as u32,
            anchor: j.anchor.into(),
            axis: j.axis.into(),
            swing_axis: j.swing_axis.into(),
            hinge_min,
            hinge_max,
            swing1,
            swing2,
            low_twist,
            high_twist,
            limit_spring: j.limit_spring,
            limit_damper: j.limit_damper,
            friction: j.friction,
        }
    }
}

/// The core joint of bone `bone`'s descriptor; the limits its kind does not use must be finite.
fn joint_to_core(bone: usize, j: &SinewJointDesc) -> Result<JointDesc> {
    let kind = SinewJointKind::checked(j.kind).map_err(|e| Error::new(e.kind, format!("bone {bone}: joint {}", e.message)))?;
    let unused = |v: f32, name: &str, by: &str| check_finite_with(v, || format!("bone {bone}: joint {name} (unused by {by})")).map(drop);
    let by = match kind {
        SinewJointKind::SINEW_JOINT_FREE => "a free joint",
        SinewJointKind::SINEW_JOINT_FIXED => "a fixed joint",
        SinewJointKind::SINEW_JOINT_HINGE => "a hinge",
        SinewJointKind::SINEW_JOINT_SWING_TWIST => "a swing-twist joint",
    };
    if kind != SinewJointKind::SINEW_JOINT_HINGE {
        unused(j.hinge_min, "hinge_min", by)?;
        unused(j.hinge_max, "hinge_max", by)?;
    }
    if kind != SinewJointKind::SINEW_JOINT_SWING_TWIST {
        for (v, name) in [(j.swing1, "swing1"), (j.swing2, "swing2"), (j.low_twist, "low_twist"), (j.high_twist, "high_twist")] {
            unused(v, name, by)?;
        }
    }
    let kind = match kind {
        SinewJointKind::SINEW_JOINT_FREE => JointKind::Free,
        SinewJointKind::SINEW_JOINT_FIXED => JointKind::Fixed,
        SinewJointKind::SINEW_JOINT_HINGE => JointKind::Hinge { min: j.hinge_min, max: j.hinge_max },
        SinewJointKind::SINEW_JOINT_SWING_TWIST => {
            JointKind::SwingTwist { swing1: j.swing1, swing2: j.swing2, low_twist: j.low_twist, high_twist: j.high_twist }
        }
    };
    Ok(JointDesc {
        kind,
        anchor: j.anchor.into(),
        axis: j.axis.into(),
        swing_axis: j.swing_axis.into(),
        limit_spring: j.limit_spring,
        limit_damper: j.limit_damper,
        friction: j.friction,
    })
}

impl From<BoneDesc> for SinewBoneDesc {
    fn from(b: BoneDesc) -> Self {
        // The sizes the shape does not use keep the defaults of `sinew_bone_desc_default`.
        let (mut radius, mut half_height, mut radius0, mut radius1, mut half_extents) = (0.05, 0.1, 0.05, 0.05, Vec3::new(0.05, 0.1, 0.05));
        let shape = match b.shape {
            Shape::Sphere { radius: r } => {
                radius = r;
                SinewShape::SINEW_SHAPE_SPHERE
            }
            Shape::Capsule { half_height: h, radius0: r0, radius1: r1 } => {
                (half_height, radius0, radius1) = (h, r0, r1);
                SinewShape::SINEW_SHAPE_CAPSULE
            }
            Shape::Box { half_extents: e } => {
                half_extents = e;
                SinewShape::SINEW_SHAPE_BOX
            }
            Shape::Plane => SinewShape::SINEW_SHAPE_PLANE,
        };
        SinewBoneDesc {
            parent: b.parent,
            position: b.bind.position.into(),
            rotation: b.bind.rotation.into(),
            shape: shape as u32,
            radius,
            half_height,
            radius0,
            radius1,
            half_extents: half_extents.into(),
            shape_offset: b.shape_offset.into(),
            shape_rotation: b.shape_rotation.into(),
            mass: b.mass,
            density: b.density,
            joint: b.joint.into(),
        }
    }
}

/// The core bone of descriptor `bone`; the core's `RagdollDesc::validate` checks the rest
/// (parent order, unit rotations, ranges), naming the bone.
fn bone_to_core(bone: usize, d: &SinewBoneDesc) -> Result<BoneDesc> {
    let at = |e: Error| Error::new(e.kind, format!("bone {bone}: {}", e.message));
    let kind = match SinewShape::checked(d.shape).map_err(at)? {
        SinewShape::SINEW_SHAPE_SPHERE => ShapeKind::Sphere,
        SinewShape::SINEW_SHAPE_CAPSULE => ShapeKind::Capsule,
        SinewShape::SINEW_SHAPE_BOX => ShapeKind::Box,
        SinewShape::SINEW_SHAPE_PLANE => {
            return Err(Error::invalid(format!("bone {bone}: a bone's shape must be a sphere, capsule or box (got SINEW_SHAPE_PLANE)")));
        }
    };
    let shape = ShapeDesc { kind, radius: d.radius, half_height: d.half_height, radius0: d.radius0, radius1: d.radius1, half_extents: d.half_extents.into() }
        .shape()
        .map_err(at)?;
    Ok(BoneDesc {
        parent: d.parent,
        bind: Pose { rotation: d.rotation.into(), position: d.position.into(), scale: 1.0 },
        shape,
        shape_offset: d.shape_offset.into(),
        shape_rotation: d.shape_rotation.into(),
        mass: d.mass,
        density: d.density,
        joint: joint_to_core(bone, &d.joint)?,
    })
}

/// The core description of a bone list: its count checked before anything is converted.
fn desc_to_core(settings: &SinewRagdollSettings, bones: &[SinewBoneDesc]) -> Result<RagdollDesc> {
    if bones.is_empty() {
        return Err(Error::invalid("a ragdoll needs at least one bone (bone_count is 0)"));
    }
    if bones.len() > MAX_BONES {
        return Err(Error::too_large(format!("a ragdoll holds at most {MAX_BONES} bones (bone_count is {})", bones.len())));
    }
    let bones = bones.iter().enumerate().map(|(i, d)| bone_to_core(i, d)).collect::<Result<Vec<_>>>()?;
    Ok(RagdollDesc { bones, settings: (*settings).into() })
}


/// The humanoid template's description from a rig's bone positions, with `settings` checked.
fn humanoid_desc(bones: &SinewHumanoidBones, settings: &SinewRagdollSettings) -> Result<RagdollDesc> {
    let settings: RagdollSettings = (*settings).into();
    settings.validate()?;
    let mut desc = HumanoidBones::from(*bones).ragdoll()?;
    desc.settings = settings;
    Ok(desc)
}

/// Adds the ragdoll `desc` describes to the world of `cell` and writes its handle.
fn create(cell: &registry::WorldCell, desc: &RagdollDesc, out: crate::ffi::guard::Out<SinewRagdoll>) -> Result<()> {
    let mut w = cell.lock()?;
    let (slot, serial) = w.create_ragdoll(desc)?;
    out.write(registry::ragdoll_handle(cell, slot, serial));
    Ok(())
}

/// Fills `out_desc` with a free joint at the bone's origin: axis +X, swing axis +Y, hinge
/// limits ±90°, swing 30° × 30°, twist ±20°, hard limits, no friction.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_joint_desc_default(out_desc: *mut SinewJointDesc) -> SinewResult {
    ffi_guard!({
        let out = try_out!(out_desc, "out_desc");
        out.write(JointDesc::default().into());
        Ok(())
    })
}

/// Fills `out_desc` with a root bone at the origin: a 1 kg capsule (half_height 0.1 m, radii
/// 0.05 m) along the bone's Y, density 1000 kg/m³ (used when `mass` is 0), a free joint.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_bone_desc_default(out_desc: *mut SinewBoneDesc) -> SinewResult {
    ffi_guard!({
        let out = try_out!(out_desc, "out_desc");
        out.write(BoneDesc::default().into());
        Ok(())
    })
}

/// Fills `out_settings` with the default ragdoll settings (stabilised masses, self-collision
/// without parent–child pairs, friction 0.6, dynamic).
#[unsafe(no_mangle)]
pub extern "C" fn sinew_ragdoll_settings_default(out_settings: *mut SinewRagdollSettings) -> SinewResult {
    ffi_guard!({
        let out = try_out!(out_settings, "out_settings");
        out.write(RagdollSettings::default().into());
        Ok(())
    })
}

/// Fills `out_bones` with a 1.8 m humanoid standing at the origin, facing +Z, 20 kg.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_humanoid_bones_default(out_bones: *mut SinewHumanoidBones) -> SinewResult {
    ffi_guard!({
        let out = try_out!(out_bones, "out_bones");
        out.write(HumanoidBones::standing(Vec3::ZERO).into());
        Ok(())
    })
}

/// Writes the humanoid template's bone list (`SINEW_HUMANOID_BONE_COUNT` bones, in the order of
/// `SinewHumanoidBone`) for `bones` into `out_bones`, to edit before `sinew_ragdoll_create`;
/// `capacity` must be at least `SINEW_HUMANOID_BONE_COUNT`.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_humanoid_bone_descs(bones: *const SinewHumanoidBones, out_bones: *mut SinewBoneDesc, capacity: usize) -> SinewResult {
    ffi_guard!({
        let h = try_ref!(bones, "bones");
        let buf = try_out_buf!(out_bones, capacity, "out_bones");
        let h: HumanoidBones = (*h).into();
        let out = buf.take_of(crate::ragdoll::humanoid::bone::COUNT, "the humanoid template", "bones")?;
        let desc = h.ragdoll()?;
        if desc.bones.len() != out.len() {
            return Err(Error::new(ErrorKind::Panic, format!("the humanoid template made {} bones, not {}", desc.bones.len(), out.len())));
        }
        for (o, b) in out.iter_mut().zip(desc.bones) {
            *o = b.into();
        }
        Ok(())
    })
}

// ---- creation ----

/// Creates a ragdoll from `bone_count` bones (at most 256), in its bind pose and at rest.
/// Every bone is checked (its index in the message): parents before children, a root's joint
/// free, unit rotations, shapes, masses, limits in degrees.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_ragdoll_create(
    world: SinewWorld,
    settings: *const SinewRagdollSettings,
    bones: *const SinewBoneDesc,
    bone_count: usize,
    out_ragdoll: *mut SinewRagdoll,
) -> SinewResult {
    ffi_guard!({
        let cell = registry::world(world)?;
        let s = try_ref!(settings, "settings");
        let b: &[SinewBoneDesc] = try_slice!(bones, bone_count, "bones");
        let out = try_out!(out_ragdoll, "out_ragdoll");
        let desc = desc_to_core(s, b)?;
        create(&cell, &desc, out)
    })
}

/// Creates the humanoid template's ragdoll (`SINEW_HUMANOID_BONE_COUNT` bones, in the order of
/// `SinewHumanoidBone`: the Ragdoll Wizard's bodies, masses and limits) from a rig's bone
/// positions, with `settings`.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_ragdoll_create_humanoid(
    world: SinewWorld,
    bones: *const SinewHumanoidBones,
    settings: *const SinewRagdollSettings,
    out_ragdoll: *mut SinewRagdoll,
) -> SinewResult {
    ffi_guard!({
        let cell = registry::world(world)?;
        let h = try_ref!(bones, "bones");
        let s = try_ref!(settings, "settings");
        let out = try_out!(out_ragdoll, "out_ragdoll");
        let desc = humanoid_desc(h, s)?;
        create(&cell, &desc, out)
    })
}

/// As `sinew_ragdoll_create`, with the bones placed at `root`: each bone's bind pose is
/// `root × bind` (the bones as given, turned and moved by the root), so a bone list made at
/// the origin — `sinew_humanoid_bone_descs` of the default humanoid — is created anywhere
/// without moving its bones one by one. `root` is column-major (Unity's `Matrix4x4`,
/// `Transform.localToWorldMatrix`), rigid: rotation and translation, translation within
/// ±1e6 m; a scale other than 1 (beyond 1e-3), shear, a mirror or a projective row is refused
/// (`SINEW_INVALID_ARGUMENT`), NaN or infinity is `SINEW_NON_FINITE`.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_ragdoll_create_at(
    world: SinewWorld,
    settings: *const SinewRagdollSettings,
    bones: *const SinewBoneDesc,
    bone_count: usize,
    root: *const SinewMat4,
    out_ragdoll: *mut SinewRagdoll,
) -> SinewResult {
    ffi_guard!({
        let cell = registry::world(world)?;
        let s = try_ref!(settings, "settings");
        let b: &[SinewBoneDesc] = try_slice!(bones, bone_count, "bones");
        let root = try_ref!(root, "root");
        let out = try_out!(out_ragdoll, "out_ragdoll");
        let mut desc = desc_to_core(s, b)?;
        desc.place_at(&Pose::from_rigid_matrix(&(*root).into(), "root")?)?;
        create(&cell, &desc, out)
    })
}

/// As `sinew_ragdoll_create_humanoid`, with the humanoid placed at `root` (rigid, as
/// `sinew_ragdoll_create_at` takes it): every bone is `root ×` the bone the same call without
/// a root makes. With the default bones (`sinew_humanoid_bones_default`: feet at the origin,
/// facing +Z) the root is where the character stands and the way it faces (its +Z).
#[unsafe(no_mangle)]
pub extern "C" fn sinew_ragdoll_create_humanoid_at(
    world: SinewWorld,
    bones: *const SinewHumanoidBones,
    settings: *const SinewRagdollSettings,
    root: *const SinewMat4,
    out_ragdoll: *mut SinewRagdoll,
) -> SinewResult {
    ffi_guard!({
        let cell = registry::world(world)?;
        let h = try_ref!(bones, "bones");
        let s = try_ref!(settings, "settings");
        let root = try_ref!(root, "root");
        let out = try_out!(out_ragdoll, "out_ragdoll");
        let mut desc = humanoid_desc(h, s)?;
        desc.place_at(&Pose::from_rigid_matrix(&(*root).into(), "root")?)?;
        create(&cell, &desc, out)
    })
}

/// Destroys a ragdoll; particle bodies attached to it are released. A second destroy is
/// `SINEW_INVALID_HANDLE`.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_ragdoll_destroy(ragdoll: SinewRagdoll) -> SinewResult {
    ffi_guard!({
        let (cell, slot, serial) = registry::ragdoll_owner(ragdoll)?;
        let mut w = cell.lock()?;
        w.remove_ragdoll(slot, serial).map(drop).ok_or_else(|| registry::stale("ragdoll", ragdoll.id))
    })
}

/// Number of bones: the length of every per-bone buffer.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_ragdoll_get_bone_count(ragdoll: SinewRagdoll, out_count: *mut usize) -> SinewResult {
    ffi_guard!({
        let out = try_out!(out_count, "out_count");
        let n = registry::with_ragdoll(ragdoll, |r, _| Ok(r.bone_count()))?;
        out.write(n);
        Ok(())
    })
}

// ---- checks ----

pub(super) fn bone_index(r: &Ragdoll, bone: u32, name: &str) -> Result<usize> {
    let n = r.bone_count();
    if (bone as usize) < n {
        Ok(bone as usize)
    } else {
        Err(Error::out_of_range(format!("{name} {bone} is out of range: the ragdoll has {n} bones")))
    }
}

pub(super) fn check_count(r: &Ragdoll, len: usize, name: &str) -> Result<()> {
    let n = r.bone_count();
    if len == n {
        Ok(())
    } else {
        Err(Error::invalid(format!("{name} has {len} entries but the ragdoll has {n} bones (one per bone)")))
    }
}

/// A unit rotation from the host (normalised), or why not; the name is made only on failure.
pub(super) fn rotation(q: SinewQuat, name: impl Fn() -> String) -> Result<Quat> {
    check_rotation(q.into(), name)
}

/// A position from the host, within the world's extent, or why not.
pub(super) fn position(p: SinewVec3, name: impl Fn() -> String) -> Result<Vec3> {
    check_position_with(p.into(), name)
}

/// Poses from positions and rotations, into `out` (one per bone), all checked first.
fn poses_from_pairs<'a>(positions: &[SinewVec3], rotations: &[SinewQuat], out: &'a mut [Pose; MAX_BONES]) -> Result<&'a [Pose]> {
    for (k, (p, q)) in positions.iter().zip(rotations).enumerate() {
        out[k] = Pose { position: position(*p, || format!("positions[{k}]"))?, rotation: rotation(*q, || format!("rotations[{k}]"))?, scale: 1.0 };
    }
    Ok(&out[..positions.len()])
}

/// As `poses_from_pairs`, each rotation's bits kept as given (checked, not divided by its
/// length): `set_pose` hands them back to `read_pose` exactly.
fn poses_as_given<'a>(positions: &[SinewVec3], rotations: &[SinewQuat], out: &'a mut [Pose; MAX_BONES]) -> Result<&'a [Pose]> {
    poses_from_pairs(positions, rotations, out)?;
    for (o, q) in out.iter_mut().zip(rotations) {
        o.rotation = (*q).into();
    }
    Ok(&out[..positions.len()])
}

/// Poses from column-major matrices of scale 1, into `out`.
fn poses_from_matrices<'a>(matrices: &[SinewMat4], out: &'a mut [Pose; MAX_BONES]) -> Result<&'a [Pose]> {
    for (k, m) in matrices.iter().enumerate() {
        let pose = Pose::from_matrix(&(*m).into()).map_err(|e| Error::new(e.kind, format!("matrices[{k}]: {}", e.message)))?;
        if !is_unit(pose.scale) {
            return Err(Error::invalid(format!(
                "matrices[{k}] has scale {}; bones are rigid (scale 1): pass the bone's position and rotation (sinew_ragdoll_set_targets) instead",
                pose.scale
            )));
        }
        out[k] = Pose { scale: 1.0, ..pose };
    }
    Ok(&out[..matrices.len()])
}

// ---- animation ----

/// Makes every bone kinematic (`kinematic` = 1: animated by `sinew_ragdoll_set_targets`) or
/// dynamic (0: physics). Bones switched to dynamic keep the velocity their animation gave them.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_ragdoll_set_kinematic(ragdoll: SinewRagdoll, kinematic: u32) -> SinewResult {
    ffi_guard!({
        registry::with_ragdoll(ragdoll, |r, _| {
            r.set_kinematic(kinematic != 0);
            Ok(())
        })
    })
}

/// Makes one bone kinematic (1) or dynamic (0): a partial ragdoll.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_ragdoll_set_bone_kinematic(ragdoll: SinewRagdoll, bone: u32, kinematic: u32) -> SinewResult {
    ffi_guard!({
        registry::with_ragdoll(ragdoll, |r, _| {
            let b = bone_index(r, bone, "bone")?;
            r.set_bone_kinematic(b, kinematic != 0)
        })
    })
}

/// Writes 1 to `out_kinematic` when `bone` is kinematic, 0 when it is dynamic.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_ragdoll_is_bone_kinematic(ragdoll: SinewRagdoll, bone: u32, out_kinematic: *mut u32) -> SinewResult {
    ffi_guard!({
        let out = try_out!(out_kinematic, "out_kinematic");
        let k = registry::with_ragdoll(ragdoll, |r, _| {
            let b = bone_index(r, bone, "bone")?;
            r.is_bone_kinematic(b)
        })?;
        out.write(k as u32);
        Ok(())
    })
}

/// Where the host's animation puts every bone at this host frame: world positions and unit
/// rotations, one of each per bone (both counts must be the bone count). Kinematic bones move
/// there across the next step's substeps (like pins, no spikes) and their velocity is tracked;
/// dynamic bones ignore their target. Allocates nothing.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_ragdoll_set_targets(
    ragdoll: SinewRagdoll,
    positions: *const SinewVec3,
    position_count: usize,
    rotations: *const SinewQuat,
    rotation_count: usize,
) -> SinewResult {
    ffi_guard!({
        let p: &[SinewVec3] = try_slice!(positions, position_count, "positions");
        let q: &[SinewQuat] = try_slice!(rotations, rotation_count, "rotations");
        registry::with_ragdoll(ragdoll, |r, _| {
            check_count(r, p.len(), "positions")?;
            check_count(r, q.len(), "rotations")?;
            let mut buf = [REST; MAX_BONES];
            let poses = poses_from_pairs(p, q, &mut buf)?;
            r.set_targets(poses)
        })
    })
}

/// As `sinew_ragdoll_set_targets`, from one column-major matrix per bone (Unity's
/// `localToWorldMatrix` of a bone of scale 1; a scale other than 1 is refused).
#[unsafe(no_mangle)]
pub extern "C" fn sinew_ragdoll_set_target_matrices(ragdoll: SinewRagdoll, matrices: *const SinewMat4, matrix_count: usize) -> SinewResult {
    ffi_guard!({
        let m: &[SinewMat4] = try_slice!(matrices, matrix_count, "matrices");
        registry::with_ragdoll(ragdoll, |r, _| {
            check_count(r, m.len(), "matrices")?;
            let mut buf = [REST; MAX_BONES];
            let poses = poses_from_matrices(m, &mut buf)?;
            r.set_targets(poses)
        })
    })
}

/// Teleports every bone to the given world positions and rotations (one per bone);
/// `keep_velocity` = 1 keeps the bones' velocities, 0 sets them at rest. Wakes the ragdoll.
/// Until the next fixed step moves a bone, `sinew_ragdoll_read_pose` returns exactly the bits
/// given here (at any alpha), `sinew_ragdoll_read_matrices` their matrices: a recorded pose
/// replays bit for bit (docs/design.md, *Recording a ragdoll*).
#[unsafe(no_mangle)]
pub extern "C" fn sinew_ragdoll_set_pose(
    ragdoll: SinewRagdoll,
    positions: *const SinewVec3,
    position_count: usize,
    rotations: *const SinewQuat,
    rotation_count: usize,
    keep_velocity: u32,
) -> SinewResult {
    ffi_guard!({
        let p: &[SinewVec3] = try_slice!(positions, position_count, "positions");
        let q: &[SinewQuat] = try_slice!(rotations, rotation_count, "rotations");
        registry::with_ragdoll(ragdoll, |r, _| {
            check_count(r, p.len(), "positions")?;
            check_count(r, q.len(), "rotations")?;
            let mut buf = [REST; MAX_BONES];
            let poses = poses_as_given(p, q, &mut buf)?;
            r.set_pose(poses, keep_velocity != 0)
        })
    })
}

// ---- impulses and forces ----

/// Applies `impulse` (N·s, each component within ±1e6) at world `point` to the bone whose
/// shape's surface is nearest to it (linear and angular), and writes that bone to `out_bone`.
/// Wakes the ragdoll.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_ragdoll_apply_impulse(ragdoll: SinewRagdoll, point: SinewVec3, impulse: SinewVec3, out_bone: *mut u32) -> SinewResult {
    ffi_guard!({
        let out = try_out!(out_bone, "out_bone");
        let bone = registry::with_ragdoll(ragdoll, |r, _| r.apply_impulse(point.into(), impulse.into()))?;
        out.write(bone as u32);
        Ok(())
    })
}

/// Applies `impulse` (N·s) at world `point` to bone `bone`. Wakes the ragdoll.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_ragdoll_apply_bone_impulse(ragdoll: SinewRagdoll, bone: u32, point: SinewVec3, impulse: SinewVec3) -> SinewResult {
    ffi_guard!({
        registry::with_ragdoll(ragdoll, |r, _| {
            let b = bone_index(r, bone, "bone")?;
            r.apply_bone_impulse(b, point.into(), impulse.into())
        })
    })
}

/// A radial impulse from `centre`: each bone within `radius` (m) in (0, 1000] gets
/// `impulse·(1 − d/radius)` N·s (`impulse` in [-1e6, 1e6]; negative pulls inwards) away from the centre
/// at its centre of mass, d the distance to its surface. Wakes the ragdoll.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_ragdoll_apply_explosion(ragdoll: SinewRagdoll, centre: SinewVec3, impulse: f32, radius: f32) -> SinewResult {
    ffi_guard!({
        registry::with_ragdoll(ragdoll, |r, _| r.apply_explosion(centre.into(), impulse, radius))
    })
}

/// A force (N, each component within ±1e7) at world `point` on bone `bone`, applied over the
/// fixed steps of the next `sinew_world_step` (then cleared: call it every frame to push).
#[unsafe(no_mangle)]
pub extern "C" fn sinew_ragdoll_add_force(ragdoll: SinewRagdoll, bone: u32, point: SinewVec3, force: SinewVec3) -> SinewResult {
    ffi_guard!({
        registry::with_ragdoll(ragdoll, |r, _| {
            let b = bone_index(r, bone, "bone")?;
            r.add_force(b, point.into(), force.into())
        })
    })
}

// ---- readback ----

/// Copies bone poses out of the stack buffers the core filled (glam's `Quat` is 16-byte
/// aligned, `SinewQuat` 4, so they cannot be filled in place).
pub(super) fn write_poses(out_p: &mut [SinewVec3], out_q: &mut [SinewQuat], pos: &[Vec3], rot: &[Quat]) {
    as_vec3_mut(out_p).copy_from_slice(pos);
    for (o, v) in out_q.iter_mut().zip(rot) {
        *o = (*v).into();
    }
}

/// Copies every bone's world position and rotation (x, y, z, w), interpolated between fixed
/// steps by the world's alpha like `sinew_body_read_positions` (a bone not moved since
/// `sinew_ragdoll_set_pose`: the pose given there, bit for bit); each capacity must be at
/// least the bone count. Allocates nothing.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_ragdoll_read_pose(
    ragdoll: SinewRagdoll,
    out_positions: *mut SinewVec3,
    position_capacity: usize,
    out_rotations: *mut SinewQuat,
    rotation_capacity: usize,
) -> SinewResult {
    ffi_guard!({
        let pbuf = try_out_buf!(out_positions, position_capacity, "out_positions");
        let qbuf = try_out_buf!(out_rotations, rotation_capacity, "out_rotations");
        registry::with_ragdoll(ragdoll, |r, alpha| {
            let n = r.bone_count();
            let p = pbuf.take_of(n, "the ragdoll", "bones")?;
            let q = qbuf.take_of(n, "the ragdoll", "bones")?;
            // glam's Quat is 16-byte aligned, SinewQuat 4: read into a stack buffer, then copy.
            let mut rot = [Quat::IDENTITY; MAX_BONES];
            let mut pos = [Vec3::ZERO; MAX_BONES];
            r.read_pose(alpha, &mut pos[..n], &mut rot[..n])?;
            write_poses(p, q, &pos[..n], &rot[..n]);
            Ok(())
        })
    })
}

/// Copies every bone's world transform as a column-major matrix (Unity's `Matrix4x4`:
/// rotation in the first three columns, translation in `m[12..15]`), interpolated as
/// `sinew_ragdoll_read_pose`; `capacity` must be at least the bone count. Allocates nothing.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_ragdoll_read_matrices(ragdoll: SinewRagdoll, out_matrices: *mut SinewMat4, capacity: usize) -> SinewResult {
    ffi_guard!({
        let buf = try_out_buf!(out_matrices, capacity, "out_matrices");
        registry::with_ragdoll(ragdoll, |r, alpha| {
            let n = r.bone_count();
            let out = buf.take_of(n, "the ragdoll", "bones")?;
            let mut m = [Mat4::IDENTITY; MAX_BONES];
            r.read_matrices(alpha, &mut m[..n])?;
            for (o, v) in out.iter_mut().zip(&m[..n]) {
                *o = SinewMat4 { m: v.to_cols_array() };
            }
            Ok(())
        })
    })
}

/// Copies every bone's linear velocity (m/s, of its origin) and angular velocity (rad/s, world
/// axes) at the newest fixed step; each capacity must be at least the bone count.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_ragdoll_read_velocities(
    ragdoll: SinewRagdoll,
    out_linear: *mut SinewVec3,
    linear_capacity: usize,
    out_angular: *mut SinewVec3,
    angular_capacity: usize,
) -> SinewResult {
    ffi_guard!({
        let lbuf = try_out_buf!(out_linear, linear_capacity, "out_linear");
        let abuf = try_out_buf!(out_angular, angular_capacity, "out_angular");
        registry::with_ragdoll(ragdoll, |r, _| {
            let n = r.bone_count();
            let l = lbuf.take_of(n, "the ragdoll", "bones")?;
            let a = abuf.take_of(n, "the ragdoll", "bones")?;
            r.read_velocities(as_vec3_mut(l), as_vec3_mut(a))
        })
    })
}

/// Writes 1 to `out_asleep` while the ragdoll sleeps (at rest, not stepped), else 0.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_ragdoll_is_asleep(ragdoll: SinewRagdoll, out_asleep: *mut u32) -> SinewResult {
    ffi_guard!({
        let out = try_out!(out_asleep, "out_asleep");
        let a = registry::with_ragdoll(ragdoll, |r, _| Ok(r.is_asleep()))?;
        out.write(a as u32);
        Ok(())
    })
}

/// Wall time (ns) of the ragdoll's solve in the last `sinew_world_step` (or step_end) that ran
/// fixed steps: ragdolls that touch are solved together and share the time by bone count. 0
/// while it sleeps. For profiling; it never changes the simulation.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_ragdoll_get_step_time_ns(ragdoll: SinewRagdoll, out_ns: *mut u64) -> SinewResult {
    ffi_guard!({
        let out = try_out!(out_ns, "out_ns");
        let ns = registry::with_ragdoll(ragdoll, |r, _| Ok(r.step_time_ns()))?;
        out.write(ns);
        Ok(())
    })
}

/// Rides the ragdoll in a moving platform, as `sinew_body_set_anchor` does a particle body
/// (the same transform rules; `inertia` in [0, 1]): each frame that steps carries every
/// bone — pose, velocities, the targets' start — by `1 − inertia` of the anchor's rigid motion;
/// the world's colliders are seen through the rest of that carry when every ragdoll of its
/// island rides in the same anchor (a platform moving with the anchor is still to a ragdoll of
/// inertia 0); a jump beyond 2 m carries it whole.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_ragdoll_set_anchor(ragdoll: SinewRagdoll, transform: *const SinewMat4, inertia: f32) -> SinewResult {
    ffi_guard!({
        let m = try_ref!(transform, "transform");
        let pose = Pose::from_rigid_matrix(&(*m).into(), "anchor transform")?;
        registry::with_ragdoll(ragdoll, |r, _| r.set_anchor(pose, inertia))
    })
}

/// Takes the ragdoll out of its anchor: from the next step it feels world motion only.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_ragdoll_clear_anchor(ragdoll: SinewRagdoll) -> SinewResult {
    ffi_guard!({
        registry::with_ragdoll(ragdoll, |r, _| {
            r.clear_anchor();
            Ok(())
        })
    })
}

/// Wakes a sleeping ragdoll (nothing for an awake one).
#[unsafe(no_mangle)]
pub extern "C" fn sinew_ragdoll_wake(ragdoll: SinewRagdoll) -> SinewResult {
    ffi_guard!({
        registry::with_ragdoll(ragdoll, |r, _| {
            r.wake();
            Ok(())
        })
    })
}

/// Turns collision between bones `a` and `b` (two different bones) of the ragdoll on (1) or off (0).
#[unsafe(no_mangle)]
pub extern "C" fn sinew_ragdoll_set_bone_pair_collision(ragdoll: SinewRagdoll, a: u32, b: u32, enabled: u32) -> SinewResult {
    ffi_guard!({
        registry::with_ragdoll(ragdoll, |r, _| {
            let a = bone_index(r, a, "bone a")?;
            let b = bone_index(r, b, "bone b")?;
            if a == b {
                return Err(Error::invalid(format!("bone a and bone b are both {a}: a bone never collides with itself")));
            }
            r.set_bone_pair_collision(a, b, enabled != 0)
        })
    })
}

/// Solves the ragdoll's joints in the fast pipeline by the direct tree solve (1: exact at any
/// mass ratio, several times the cost) or by one Gauss–Seidel pass (0). Chosen at creation: 1
/// when a bone's mass differs from its parent's by more than 4 times (a sweep converges like the
/// mass ratio along a chain). The precise pipeline (`SINEW_RIGID_PRECISE`) always solves
/// directly. Wakes the ragdoll.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_ragdoll_set_direct_joint_solve(ragdoll: SinewRagdoll, enabled: u32) -> SinewResult {
    ffi_guard!({
        registry::with_ragdoll(ragdoll, |r, _| {
            r.set_direct_joint_solve(enabled != 0);
            Ok(())
        })
    })
}

/// Writes 1 to `out_enabled` when the ragdoll's joints are solved directly
/// (`sinew_ragdoll_set_direct_joint_solve`), else 0.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_ragdoll_get_direct_joint_solve(ragdoll: SinewRagdoll, out_enabled: *mut u32) -> SinewResult {
    ffi_guard!({
        let out = try_out!(out_enabled, "out_enabled");
        let on = registry::with_ragdoll(ragdoll, |r, _| Ok(r.direct_joint_solve()))?;
        out.write(on as u32);
        Ok(())
    })
}

// ---- particle bodies on ragdolls ----

/// A world, and the (slot, serial) of a body and of a ragdoll in it.
type Shared = (Arc<registry::WorldCell>, (usize, u32), (usize, u32));

/// The world of a body and a ragdoll, refused unless they are the same.
fn shared_world(body: SinewBody, ragdoll: SinewRagdoll) -> Result<Shared> {
    let (cell, bs, bser) = registry::body_owner(body)?;
    let (rcell, rs, rser) = registry::ragdoll_owner(ragdoll)?;
    if !Arc::ptr_eq(&cell, &rcell) {
        return Err(Error::invalid("the body and the ragdoll belong to different worlds"));
    }
    Ok((cell, (bs, bser), (rs, rser)))
}

/// Pins vertices of a particle body to bones of a ragdoll of the same world: vertex
/// `vertices[k]` (the host's vertex index, as for `sinew_body_pin`) follows bone `bones[k]` at
/// `offsets[k]` (m, in the bone's frame) at every substep, with no host round trip. The three
/// counts must be equal. A vertex attached again moves to its new bone; a bad entry refuses the
/// whole call and changes nothing.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_body_attach_to_ragdoll(
    body: SinewBody,
    ragdoll: SinewRagdoll,
    vertices: *const u32,
    vertex_count: usize,
    bones: *const u32,
    bone_count: usize,
    offsets: *const SinewVec3,
    offset_count: usize,
) -> SinewResult {
    ffi_guard!({
        let v = try_slice!(vertices, vertex_count, "vertices");
        let b = try_slice!(bones, bone_count, "bones");
        let o: &[SinewVec3] = try_slice!(offsets, offset_count, "offsets");
        if v.len() != b.len() || v.len() != o.len() {
            return Err(Error::invalid(format!(
                "vertices, bones and offsets must have one entry per pin (counts {}, {}, {})",
                v.len(),
                b.len(),
                o.len()
            )));
        }
        let (cell, bid, rid) = shared_world(body, ragdoll)?;
        let mut w = cell.lock()?;
        let n_vertices = w.bodies.get(bid.0, bid.1).ok_or_else(|| registry::stale("body", body.id))?.topology.vertex_count();
        let r = w.ragdolls.get(rid.0, rid.1).ok_or_else(|| registry::stale("ragdoll", ragdoll.id))?;
        for (k, &i) in v.iter().enumerate() {
            if i as usize >= n_vertices {
                return Err(Error::out_of_range(format!("vertices[{k}] = {i} is out of range: the body has {n_vertices} vertices")));
            }
        }
        for (k, &bone) in b.iter().enumerate() {
            bone_index(r, bone, &format!("bones[{k}] = bone"))?;
        }
        for (k, off) in o.iter().enumerate() {
            position(*off, || format!("offsets[{k}]"))?;
        }
        w.attach_pins_to_ragdoll(bid, rid, v, b, as_vec3(o))
    })
}

/// Makes a particle body of the same world and the ragdoll's bones collide (1), or stops it
/// (0). Both ways: while its particles can reach the bones the body steps in the ragdoll's
/// company, in the same substeps, and each contact moves body and bone by their inverse
/// masses (a jelly dropped on a ragdoll pushes it). A body also pinned to the ragdoll
/// (`sinew_body_attach_to_ragdoll`) meets its bones one way, as colliders (a pin does not
/// pass the cloth's load to the bone), and a body paired with another body
/// (`sinew_body_set_collision_pair`) meets every ragdoll's bones one way.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_body_set_ragdoll_collision(body: SinewBody, ragdoll: SinewRagdoll, enabled: u32) -> SinewResult {
    ffi_guard!({
        let (cell, bid, rid) = shared_world(body, ragdoll)?;
        let mut w = cell.lock()?;
        w.bodies.get(bid.0, bid.1).ok_or_else(|| registry::stale("body", body.id))?;
        w.ragdolls.get(rid.0, rid.1).ok_or_else(|| registry::stale("ragdoll", ragdoll.id))?;
        w.set_ragdoll_collision(bid, rid, enabled != 0)
    })
}
