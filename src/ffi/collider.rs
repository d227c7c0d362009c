//! `sinew_collider_*`: shapes the host moves from its bones each frame, and static
//! triangle meshes for level geometry.

use std::sync::Arc;

use crate::collider::{Collider, Geometry};
use crate::error::Error;
use crate::geometry::trimesh::{self, Degenerate, TriMesh};
use crate::geometry::{Pose, Shape, ShapeDesc, ShapeKind};

use crate::ffi::registry;
use crate::ffi::result::SinewResult;
use crate::ffi::types::{
    AbiEnum, SinewCollider, SinewColliderDesc, SinewColliderMeshDesc, SinewColliderMeshInfo, SinewMat4, SinewShape, SinewVec3, SinewWorld, as_vec3,
};

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

/// Fills `out_desc` with a 2 m square floor of two triangles at y = 0 facing +y (in static
/// memory), on layer 1, at the origin, which `sinew_collider_create_mesh` takes as passed.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_collider_mesh_desc_default(out_desc: *mut SinewColliderMeshDesc) -> SinewResult {
    ffi_guard!({
        let out = try_out!(out_desc, "out_desc");
        out.write(SinewColliderMeshDesc {
            vertices: trimesh::DEFAULT_VERTICES.as_ptr().cast(),
            vertex_count: trimesh::DEFAULT_VERTICES.len(),
            indices: trimesh::DEFAULT_INDICES.as_ptr(),
            index_count: trimesh::DEFAULT_INDICES.len(),
            skip_degenerate: 0,
            layers: 1,
            transform: SinewMat4::identity(),
            share: SinewCollider { id: 0 },
        });
        Ok(())
    })
}

/// Creates a static triangle-mesh collider (see `SinewColliderMeshDesc`): cooks the mesh and
/// its bounding-volume hierarchy, or shares the cooked mesh of `desc.share`. Cloth, ropes and
/// strands collide with the front of its triangles, swept over each substep.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_collider_create_mesh(world: SinewWorld, desc: *const SinewColliderMeshDesc, out_collider: *mut SinewCollider) -> SinewResult {
    ffi_guard!({
        let cell = registry::world(world)?;
        let d = try_ref!(desc, "desc");
        let out = try_out!(out_collider, "out_collider");
        let vertices: &[SinewVec3] = try_slice!(d.vertices, d.vertex_count, "desc.vertices");
        let indices: &[u32] = try_slice!(d.indices, d.index_count, "desc.indices");
        let degenerate = match d.skip_degenerate {
            0 => Degenerate::Refuse,
            1 => Degenerate::Skip,
            v => return Err(Error::invalid(format!("desc.skip_degenerate must be 0 or 1 (got {v})"))),
        };
        let pose = pose_of(&d.transform)?;
        let mesh = if d.share.id != 0 {
            if !vertices.is_empty() || !indices.is_empty() {
                return Err(Error::invalid(format!(
                    "desc.share names a mesh to share, so desc.vertices and desc.indices must be empty (got {} vertices, {} indices)",
                    vertices.len(),
                    indices.len()
                )));
            }
            // The source's world is locked only to take its mesh (before this world is).
            registry::with_collider(d.share, |c| match &c.geometry {
                Geometry::Mesh(m) => Ok(Arc::clone(m)),
                Geometry::Shape(_) => Err(Error::invalid("desc.share is not a mesh collider")),
            })?
        } else {
            // Cooked before the world is locked: a large mesh does not hold up its step.
            Arc::new(TriMesh::new(as_vec3(vertices), indices, degenerate)?)
        };
        let mut w = cell.lock()?;
        let (slot, serial) = w.add_collider(Collider::new_mesh(mesh, d.layers, pose))?;
        out.write(registry::collider_handle(&cell, slot, serial));
        Ok(())
    })
}

/// What a mesh collider is made of; `SINEW_INVALID_ARGUMENT` for a collider of another shape.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_collider_get_mesh_info(collider: SinewCollider, out_info: *mut SinewColliderMeshInfo) -> SinewResult {
    ffi_guard!({
        let out = try_out!(out_info, "out_info");
        let info = registry::with_collider(collider, |c| match &c.geometry {
            Geometry::Mesh(m) => {
                let (lo, hi) = m.bounds();
                Ok(SinewColliderMeshInfo {
                    vertex_count: m.vertices().len() as u32,
                    triangle_count: m.triangle_count() as u32,
                    skipped_triangles: m.skipped(),
                    node_count: m.node_count() as u32,
                    depth: m.depth(),
                    reserved: 0,
                    bytes: m.bytes() as u64,
                    bounds_min: lo.into(),
                    bounds_max: hi.into(),
                })
            }
            Geometry::Shape(_) => Err(Error::invalid("the collider is not a mesh collider")),
        })?;
        out.write(info);
        Ok(())
    })
}
