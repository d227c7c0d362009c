//! `#[repr(C)]` types of the C ABI. Vectors and matrices match Unity's memory layout, so
//! `Vector3[]` and `Matrix4x4[]` pass without copying.

use crate::body::Material;
use crate::math::{Mat4, Quat, Vec3};
use crate::world::{WorldSettings, WorldStats};

/// A 3D vector (12 bytes; Unity's `Vector3`).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SinewVec3 {
    pub x: f32,
    pub y: f32,
    pub z: f32,
}

/// A rotation quaternion (16 bytes; Unity's `Quaternion`).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SinewQuat {
    pub x: f32,
    pub y: f32,
    pub z: f32,
    pub w: f32,
}

/// A 4×4 matrix, 16 floats, column-major (Unity's `Matrix4x4`); translation in `m[12..15]`.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SinewMat4 {
    pub m: [f32; 16],
}

/// Handle to a world. `id == 0` is never valid.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SinewWorld {
    pub id: u64,
}

/// Handle to a body (cloth, rope). `id == 0` is never valid.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SinewBody {
    pub id: u64,
}

/// World settings; fill with `sinew_world_desc_default` first.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SinewWorldDesc {
    /// m/s². Default (0, −9.81, 0).
    pub gravity: SinewVec3,
    /// Internal step rate (Hz), independent of the host frame rate. Default 60.
    pub fixed_rate_hz: f32,
    /// Substeps per fixed step, 1–64. Default 8.
    pub substeps: u32,
    /// Constraint passes per substep, 1–256. Default 1.
    pub iterations: u32,
    /// Worker threads; 0 = one per core. Default 0.
    pub thread_count: u32,
    /// Most fixed steps one `sinew_world_step` may take; longer frames run in slow motion. Default 4.
    pub max_steps_per_frame: u32,
    /// 1: readback interpolates between fixed steps; 0: newest state. Default 1.
    pub interpolate: u32,
}

/// Per-body material; fill with `sinew_material_default` first.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SinewMaterial {
    /// Mass of each particle (kg). Default 0.01.
    pub particle_mass: f32,
    /// Linear velocity damping rate (1/s). Default 0.3.
    pub damping: f32,
    /// Multiplies the world's gravity. Default 1.
    pub gravity_scale: f32,
    /// Compliance of stretch (structural) constraints, m/N; 0 = rigid. Default 0.
    pub stretch_compliance: f32,
    /// Compliance of shear (diagonal) constraints, m/N. Default 0.
    pub shear_compliance: f32,
    /// Compliance of bend constraints, m/N. Default 0.001.
    pub bend_compliance: f32,
    /// Particle radius for collisions (m). Default 0.01.
    pub thickness: f32,
    /// Friction against colliders: sticks while sliding < static × push-out. Default 0.5.
    pub static_friction: f32,
    /// Friction while sliding. Default 0.4.
    pub kinetic_friction: f32,
    /// Meets colliders whose `layers & collision_mask != 0`. Default all bits.
    pub collision_mask: u32,
    /// 1: particles of the body keep 2 × thickness apart. Default 0.
    pub self_collision: u32,
}

/// Pin no grid particle.
pub const SINEW_PIN_NONE: u32 = 0;
/// Pin every particle of row 0.
pub const SINEW_PIN_TOP_ROW: u32 = 1;
/// Pin the two ends of row 0.
pub const SINEW_PIN_TOP_CORNERS: u32 = 2;
/// Pin the particles listed in `pin_indices` (`row * columns + column`).
pub const SINEW_PIN_LIST: u32 = 3;

/// A rectangular cloth. Particle `row * columns + column` starts at
/// `origin + orientation * ((column − (columns−1)/2)·spacing, 0, (row − (rows−1)/2)·spacing)`:
/// flat in the local XZ plane, centred on `origin`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct SinewClothGridDesc {
    /// ≥ 2.
    pub columns: u32,
    /// ≥ 2.
    pub rows: u32,
    /// Distance between neighbours (m).
    pub spacing: f32,
    pub origin: SinewVec3,
    pub orientation: SinewQuat,
    /// One of `SINEW_PIN_*`.
    pub pin_mode: u32,
    /// With `SINEW_PIN_LIST`: particle indices to pin.
    pub pin_indices: *const u32,
    pub pin_count: usize,
    pub material: SinewMaterial,
}

/// A render mesh as the host has it: vertices may be split at UV seams; coincident
/// vertices are welded into one particle, and readback answers in the host's vertex order.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct SinewClothMeshDesc {
    pub positions: *const SinewVec3,
    pub vertex_count: usize,
    /// Triangle list, 3 indices per triangle.
    pub indices: *const u32,
    pub index_count: usize,
    /// Optional, per vertex (null with count 0 for none): 0 pins the vertex.
    pub inverse_masses: *const f32,
    pub inverse_mass_count: usize,
    /// Vertices closer than this (m) are welded. Default 1e-5.
    pub weld_distance: f32,
    pub material: SinewMaterial,
}

/// A rope through `points`, each joined to the next.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct SinewRopeDesc {
    pub points: *const SinewVec3,
    pub point_count: usize,
    pub pin_indices: *const u32,
    pub pin_count: usize,
    /// 1: also join each point to the one two over, with `bend_compliance`. Default 1.
    pub bend: u32,
    pub material: SinewMaterial,
}

/// Handle to a collider. `id == 0` is never valid.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SinewCollider {
    pub id: u64,
}

/// Collider shapes.
pub const SINEW_SHAPE_SPHERE: u32 = 1;
/// Tapered capsule along local Y: radius0 at (0, −half_height, 0), radius1 at (0, +half_height, 0).
pub const SINEW_SHAPE_CAPSULE: u32 = 2;
/// Half-space: solid below the local XZ plane (normal local +Y).
pub const SINEW_SHAPE_PLANE: u32 = 3;
/// Oriented box with `half_extents`.
pub const SINEW_SHAPE_BOX: u32 = 4;

/// A collider; fill with `sinew_collider_desc_default` first. Sizes are in the local frame of
/// `transform` (rotation, uniform scale, translation), so a bone's scale scales the shape.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SinewColliderDesc {
    /// One of `SINEW_SHAPE_*`. Default sphere.
    pub shape: u32,
    /// Sphere radius (m). Default 0.1.
    pub radius: f32,
    /// Capsule: half the distance between the two sphere centres (m). Default 0.25.
    pub half_height: f32,
    /// Capsule radius at −half_height (m). Default 0.1.
    pub radius0: f32,
    /// Capsule radius at +half_height (m). Default 0.1.
    pub radius1: f32,
    /// Box half extents (m). Default (0.1, 0.1, 0.1).
    pub half_extents: SinewVec3,
    /// Layer bits; bodies meet it when `layers & material.collision_mask != 0`. Default 1.
    pub layers: u32,
    /// Initial transform, column-major. Default identity.
    pub transform: SinewMat4,
}

impl SinewMat4 {
    /// The identity transform.
    pub const fn identity() -> SinewMat4 {
        SinewMat4 { m: [1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0] }
    }
}

/// Body kinds reported by `sinew_body_get_info`.
pub const SINEW_BODY_CLOTH: u32 = 1;
pub const SINEW_BODY_ROPE: u32 = 2;

/// What a body is made of.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SinewBodyInfo {
    /// `SINEW_BODY_*`.
    pub kind: u32,
    /// Simulated particles (after welding).
    pub particle_count: u32,
    /// Vertices the host reads back (its own count for a mesh).
    pub vertex_count: u32,
    pub constraint_count: u32,
    /// Independent constraint batches (graph colours).
    pub batch_count: u32,
    pub triangle_count: u32,
    pub pinned_count: u32,
    /// Steps rolled back because the state became non-finite.
    pub recoveries: u32,
}

/// World counters.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SinewWorldStats {
    pub body_count: u32,
    pub particle_count: u32,
    pub constraint_count: u32,
    /// Worker threads.
    pub thread_count: u32,
    /// Fixed steps since creation.
    pub steps: u64,
    /// Fixed steps taken by the last `sinew_world_step`.
    pub last_frame_steps: u32,
    /// Readback interpolation factor in [0, 1].
    pub alpha: f32,
}

// Conversions between the C types and the core's.

impl From<SinewVec3> for Vec3 {
    fn from(v: SinewVec3) -> Vec3 {
        Vec3::new(v.x, v.y, v.z)
    }
}

impl From<Vec3> for SinewVec3 {
    fn from(v: Vec3) -> SinewVec3 {
        SinewVec3 { x: v.x, y: v.y, z: v.z }
    }
}

impl From<SinewQuat> for Quat {
    fn from(q: SinewQuat) -> Quat {
        Quat::from_xyzw(q.x, q.y, q.z, q.w)
    }
}

impl From<SinewMat4> for Mat4 {
    fn from(m: SinewMat4) -> Mat4 {
        Mat4::from_cols_array(&m.m)
    }
}

impl SinewMat4 {
    pub fn is_finite(&self) -> bool {
        self.m.iter().all(|v| v.is_finite())
    }
}

impl From<WorldSettings> for SinewWorldDesc {
    fn from(s: WorldSettings) -> Self {
        SinewWorldDesc {
            gravity: s.gravity.into(),
            fixed_rate_hz: s.fixed_rate_hz,
            substeps: s.substeps,
            iterations: s.iterations,
            thread_count: s.thread_count,
            max_steps_per_frame: s.max_steps_per_frame,
            interpolate: s.interpolate as u32,
        }
    }
}

impl From<SinewWorldDesc> for WorldSettings {
    fn from(d: SinewWorldDesc) -> Self {
        WorldSettings {
            gravity: d.gravity.into(),
            fixed_rate_hz: d.fixed_rate_hz,
            substeps: d.substeps,
            iterations: d.iterations,
            thread_count: d.thread_count,
            max_steps_per_frame: d.max_steps_per_frame,
            interpolate: d.interpolate != 0,
        }
    }
}

impl From<Material> for SinewMaterial {
    fn from(m: Material) -> Self {
        SinewMaterial {
            particle_mass: m.particle_mass,
            damping: m.damping,
            gravity_scale: m.gravity_scale,
            stretch_compliance: m.stretch_compliance,
            shear_compliance: m.shear_compliance,
            bend_compliance: m.bend_compliance,
            thickness: m.thickness,
            static_friction: m.static_friction,
            kinetic_friction: m.kinetic_friction,
            collision_mask: m.collision_mask,
            self_collision: m.self_collision as u32,
        }
    }
}

impl From<SinewMaterial> for Material {
    fn from(m: SinewMaterial) -> Self {
        Material {
            particle_mass: m.particle_mass,
            damping: m.damping,
            gravity_scale: m.gravity_scale,
            stretch_compliance: m.stretch_compliance,
            shear_compliance: m.shear_compliance,
            bend_compliance: m.bend_compliance,
            thickness: m.thickness,
            static_friction: m.static_friction,
            kinetic_friction: m.kinetic_friction,
            collision_mask: m.collision_mask,
            self_collision: m.self_collision != 0,
        }
    }
}

impl From<WorldStats> for SinewWorldStats {
    fn from(s: WorldStats) -> Self {
        SinewWorldStats {
            body_count: s.body_count,
            particle_count: s.particle_count,
            constraint_count: s.constraint_count,
            thread_count: 0,
            steps: s.steps,
            last_frame_steps: s.last_frame_steps,
            alpha: s.alpha,
        }
    }
}


// SinewVec3 must stay layout-compatible with glam's Vec3 so readback is a plain copy.
const _: () = assert!(std::mem::size_of::<SinewVec3>() == 12 && std::mem::size_of::<Vec3>() == 12);
const _: () = assert!(std::mem::size_of::<SinewMat4>() == 64);
