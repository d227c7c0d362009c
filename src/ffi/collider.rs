//! `sinew_collider_*`: shapes the host moves from its bones each frame.

use crate::collider::Collider;
use crate::geometry::{Pose, Shape, ShapeDesc, ShapeKind};

use crate::ffi::registry;
use crate::ffi::result::SinewResult;
use crate::ffi::types::{AbiEnum, SinewCollider, SinewColliderDesc, SinewMat4, SinewShape, SinewVec3, SinewWorld};

/// Fills `out_desc` with a 0.1 m sphere on layer 1 at the origin.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_collider_desc_default(out_desc: *mut SinewColliderDesc) -> SinewResult {
    ffi_guard!({
        let out = try_out!(out_desc, "out_desc");
        out.write(SinewColliderDesc {
                shape: SinewShape::SINEW_SHAPE_SPHERE as u32,
                radius: 0.1,
                half_height: 0.25,
                radius0: 0.1,
                radius1: 0.1,
                half_extents: SinewVec3 { x: 0.1, y: 0.1, z: 0.1 },
                layers: 1,
                transform: SinewMat4::identity(),
            },
        );
        Ok(())
    })
}

/// The shape of a descriptor: the core checks every field, the ones this shape does not use too.
fn shape_of(d: &SinewColliderDesc) -> crate::error::Result<Shape> {
    let kind = match SinewShape::checked(d.shape)? {
        SinewShape::SINEW_SHAPE_SPHERE => ShapeKind::Sphere,
        SinewShape::SINEW_SHAPE_CAPSULE => ShapeKind::Capsule,
        SinewShape::SINEW_SHAPE_PLANE => ShapeKind::Plane,
        SinewShape::SINEW_SHAPE_BOX => ShapeKind::Box,
    };
    ShapeDesc { kind, radius: d.radius, half_height: d.half_height, radius0: d.radius0, radius1: d.radius1, half_extents: d.half_extents.into() }.shape()
}

fn pose_of(m: &SinewMat4) -> crate::error::Result<Pose> {
    Pose::from_matrix(&(*m).into())
}

/// Creates a collider.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_collider_create(world: SinewWorld, desc: *const SinewColliderDesc, out_collider: *mut SinewCollider) -> SinewResult {
    ffi_guard!({
        let cell = registry::world(world)?;
        let d = try_ref!(desc, "desc");
        let out = try_out!(out_collider, "out_collider");
        let collider = Collider::new(shape_of(d)?, d.layers, pose_of(&d.transform)?)?;
        let mut w = cell.lock()?;
        let (slot, serial) = w.add_collider(collider)?;
        out.write(registry::collider_handle(&cell, slot, serial));
        Ok(())
    })
}

/// Sets where the collider is at the end of the next `sinew_world_step` (rotation, uniform
/// scale, translation; column-major, e.g. a bone's `localToWorldMatrix`). During the step it
/// sweeps from where it was, so fast limbs do not pass through cloth. A mesh collider is
/// static: `SINEW_INVALID_ARGUMENT` (move it with `sinew_collider_teleport`).
#[unsafe(no_mangle)]
pub extern "C" fn sinew_collider_set_transform(collider: SinewCollider, transform: *const SinewMat4) -> SinewResult {
    ffi_guard!({
        let m = try_ref!(transform, "transform");
        let pose = pose_of(m)?;
        registry::with_collider(collider, |c| c.set_target(pose))
    })
}

/// Moves the collider without sweeping (a teleport: nothing between is touched).
#[unsafe(no_mangle)]
pub extern "C" fn sinew_collider_teleport(collider: SinewCollider, transform: *const SinewMat4) -> SinewResult {
    ffi_guard!({
        let m = try_ref!(transform, "transform");
        let pose = pose_of(m)?;
        registry::with_collider(collider, |c| {
            c.teleport(pose);
            Ok(())
        })
    })
}

/// Changes the collider's layer bits.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_collider_set_layers(collider: SinewCollider, layers: u32) -> SinewResult {
    ffi_guard!({
        registry::with_collider(collider, |c| {
            c.layers = layers;
            Ok(())
        })
    })
}

/// Destroys a collider. Bodies never hold colliders, so this is safe at any time.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_collider_destroy(collider: SinewCollider) -> SinewResult {
    ffi_guard!({
        let (cell, slot, serial) = registry::collider_owner(collider)?;
        let mut w = cell.lock()?;
        w.colliders.remove(slot, serial).map(drop).ok_or_else(|| registry::stale("collider", collider.id))
    })
}
