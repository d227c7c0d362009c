//! `#[repr(C)]` types of the C ABI. Vectors and matrices match Unity's memory layout, so
//! `Vector3[]` and `Matrix4x4[]` pass without copying.

use crate::particles::Material;
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
    /// Constraint kernel: `SINEW_KERNEL_AUTO` (the fastest this CPU runs) or a specific one;
    /// all give the same bits. Default auto.
    pub kernel: u32,
}

/// The fastest kernel the CPU runs.
pub const SINEW_KERNEL_AUTO: u32 = 0;
/// One constraint at a time: the reference.
pub const SINEW_KERNEL_SCALAR: u32 = 1;
/// Four lanes (SSE2, every x86-64 CPU).
pub const SINEW_KERNEL_SSE2: u32 = 2;
/// Eight lanes (AVX).
pub const SINEW_KERNEL_AVX: u32 = 3;

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
pub const SINEW_BODY_STRANDS: u32 = 3;

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
    /// Bumped whenever the body's triangles or vertex count change (tearing): read the
    /// indices and vertex count again.
    pub topology_version: u32,
    /// 1 while LOD keeps the body frozen.
    pub frozen: u32,
    /// Substeps the body ran in its last step (LOD may lower them).
    pub substeps: u32,
    /// 1 while the body sleeps: at rest, not stepped (`SinewDynamics.sleep_threshold`); its
    /// `substeps` then read 0.
    pub sleeping: u32,
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
            kernel: SINEW_KERNEL_AUTO,
        }
    }
}

impl TryFrom<SinewWorldDesc> for WorldSettings {
    type Error = crate::error::Error;

    fn try_from(d: SinewWorldDesc) -> crate::error::Result<Self> {
        use crate::solver::constraints::distance_simd::Kernel;
        let kernel = match d.kernel {
            SINEW_KERNEL_AUTO => Kernel::detect(),
            SINEW_KERNEL_SCALAR => Kernel::Scalar,
            SINEW_KERNEL_SSE2 => Kernel::Sse2,
            SINEW_KERNEL_AVX => Kernel::Avx,
            other => return Err(crate::error::Error::invalid(format!("unknown kernel {other}"))),
        };
        Ok(WorldSettings {
            gravity: d.gravity.into(),
            fixed_rate_hz: d.fixed_rate_hz,
            substeps: d.substeps,
            iterations: d.iterations,
            thread_count: d.thread_count,
            max_steps_per_frame: d.max_steps_per_frame,
            interpolate: d.interpolate != 0,
            kernel,
        })
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

/// Four bone influences of one vertex, laid out as Unity's `BoneWeight` (weights, then bone
/// indices), so a `BoneWeight[]` passes as it is.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SinewBoneWeight {
    pub weight0: f32,
    pub weight1: f32,
    pub weight2: f32,
    pub weight3: f32,
    pub bone0: i32,
    pub bone1: i32,
    pub bone2: i32,
    pub bone3: i32,
}

/// How a body responds to its character's motion, the wind, and strain; fill with
/// `sinew_dynamics_default` first.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SinewDynamics {
    /// Share of the root's motion the particles feel as world motion, [0, 1] (Unity's
    /// `worldVelocityScale`): 1 leaves the cloth behind, 0 carries it with the root. Default 1.
    pub world_velocity_scale: f32,
    /// Share of the root's change of velocity the particles feel, [0, 1] (Unity's
    /// `worldAccelerationScale`). Default 1.
    pub world_acceleration_scale: f32,
    /// Largest particle speed relative to the root (m/s); 0 = no limit. Default 0.
    pub max_speed: f32,
    /// A root that moves farther than this in one frame teleports the body with it (m);
    /// 0 = never. Default 0.
    pub teleport_distance: f32,
    /// Pull of free particles towards the skinned pose (1/s). Default 0.
    pub pose_stiffness: f32,
    /// Multiplies the world's wind for this body. Default 1.
    pub wind_scale: f32,
    /// Aerodynamic drag coefficient. Default 1.
    pub drag: f32,
    /// Aerodynamic lift coefficient. Default 0.3.
    pub lift: f32,
    /// Stretch/shear constraints strained beyond 1 + this tear; 0 = never. Default 0.
    pub tear_threshold: f32,
    /// The body sleeps — is not stepped, costs nothing, reads back unchanged — once every
    /// particle has stayed slower than this (m/s) for `sleep_time`; it wakes when the host
    /// moves its pins, bones or root, a collider near it moves, wind blows on it, gravity
    /// changes or a call changes the body (Unity Cloth's `sleepThreshold`). 0 = never sleeps.
    /// Default 0.005.
    pub sleep_threshold: f32,
    /// Seconds of simulated time below `sleep_threshold` before the body sleeps; 0 = never.
    /// Default 1.
    pub sleep_time: f32,
}

/// Level of detail; fill with `sinew_lod_default` first. Bodies paired for contact
/// (`sinew_body_set_collision_pair`) step together at the world's rate and ignore their LOD.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SinewLod {
    /// Beyond this camera distance (m) the body runs `reduced_substeps`; 0 = never. Default 0.
    pub reduce_distance: f32,
    /// Substeps per fixed step when reduced, 1–64. Default 2.
    pub reduced_substeps: u32,
    /// Beyond this camera distance (m) the body freezes; 0 = never. Default 0.
    pub freeze_distance: f32,
    /// 1: freeze while `sinew_body_set_visible(body, 0)`. Default 1.
    pub freeze_when_invisible: u32,
}

/// The world's wind; fill with `sinew_wind_default` first.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SinewWind {
    /// Direction the wind blows towards (normalised). Default +X.
    pub direction: SinewVec3,
    /// Mean speed (m/s). Default 0 (calm).
    pub speed: f32,
    /// Turbulent velocity as a fraction of `speed`. Default 0.3.
    pub turbulence: f32,
    /// Size of turbulent eddies (m). Default 1.
    pub turbulence_scale: f32,
    /// How fast turbulence changes (Hz). Default 0.5.
    pub turbulence_frequency: f32,
    /// Gust amplitude as a fraction of `speed`. Default 0.3.
    pub gust_strength: f32,
    /// Gust frequency (Hz). Default 0.2.
    pub gust_frequency: f32,
    /// Air density (kg/m³). Default 1.2.
    pub air_density: f32,
}

impl From<crate::particles::Dynamics> for SinewDynamics {
    fn from(d: crate::particles::Dynamics) -> Self {
        SinewDynamics {
            world_velocity_scale: d.world_velocity_scale,
            world_acceleration_scale: d.world_acceleration_scale,
            max_speed: d.max_speed,
            teleport_distance: d.teleport_distance,
            pose_stiffness: d.pose_stiffness,
            wind_scale: d.wind_scale,
            drag: d.drag,
            lift: d.lift,
            tear_threshold: d.tear_threshold,
            sleep_threshold: d.sleep_threshold,
            sleep_time: d.sleep_time,
        }
    }
}

impl From<SinewDynamics> for crate::particles::Dynamics {
    fn from(d: SinewDynamics) -> Self {
        crate::particles::Dynamics {
            world_velocity_scale: d.world_velocity_scale,
            world_acceleration_scale: d.world_acceleration_scale,
            max_speed: d.max_speed,
            teleport_distance: d.teleport_distance,
            pose_stiffness: d.pose_stiffness,
            wind_scale: d.wind_scale,
            drag: d.drag,
            lift: d.lift,
            tear_threshold: d.tear_threshold,
            sleep_threshold: d.sleep_threshold,
            sleep_time: d.sleep_time,
        }
    }
}

impl From<crate::particles::Lod> for SinewLod {
    fn from(l: crate::particles::Lod) -> Self {
        SinewLod {
            reduce_distance: l.reduce_distance,
            reduced_substeps: l.reduced_substeps,
            freeze_distance: l.freeze_distance,
            freeze_when_invisible: l.freeze_when_invisible as u32,
        }
    }
}

impl From<SinewLod> for crate::particles::Lod {
    fn from(l: SinewLod) -> Self {
        crate::particles::Lod {
            reduce_distance: l.reduce_distance,
            reduced_substeps: l.reduced_substeps,
            freeze_distance: l.freeze_distance,
            freeze_when_invisible: l.freeze_when_invisible != 0,
        }
    }
}

impl From<crate::wind::Wind> for SinewWind {
    fn from(w: crate::wind::Wind) -> Self {
        SinewWind {
            direction: w.direction.into(),
            speed: w.speed,
            turbulence: w.turbulence,
            turbulence_scale: w.turbulence_scale,
            turbulence_frequency: w.turbulence_frequency,
            gust_strength: w.gust_strength,
            gust_frequency: w.gust_frequency,
            air_density: w.air_density,
        }
    }
}

impl From<SinewWind> for crate::wind::Wind {
    fn from(w: SinewWind) -> Self {
        crate::wind::Wind {
            direction: w.direction.into(),
            speed: w.speed,
            turbulence: w.turbulence,
            turbulence_scale: w.turbulence_scale,
            turbulence_frequency: w.turbulence_frequency,
            gust_strength: w.gust_strength,
            gust_frequency: w.gust_frequency,
            air_density: w.air_density,
        }
    }
}

/// Hair: `strand_count` strands of `particles_per_strand` particles in one body. Either
/// `points` (every strand's particles, strand after strand, e.g. a curled ponytail) or, when
/// `points` is null, straight strands from `roots` along `directions`, `segment_length`
/// apart. The first two particles of each strand are pinned to the head bone, whose current
/// transform is `head`; move it each frame with `sinew_body_set_bone_matrices(body, &head, 1)`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct SinewStrandsDesc {
    pub points: *const SinewVec3,
    pub point_count: usize,
    pub roots: *const SinewVec3,
    pub directions: *const SinewVec3,
    pub strand_count: usize,
    /// ≥ 3.
    pub particles_per_strand: u32,
    /// Distance between particles of a straight strand (m). Default 0.02.
    pub segment_length: f32,
    pub head: SinewMat4,
    pub material: SinewMaterial,
}

/// A cape hanging from the line between two shoulders, `back_offset` behind the neck,
/// skinned to three bones (left shoulder, neck, right shoulder; their transforms now), top
/// row pinned, geodesic tethers on.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct SinewCapeDesc {
    pub columns: u32,
    pub rows: u32,
    /// Width across the shoulders (m). Default 0.5.
    pub width: f32,
    /// Length down the back (m). Default 0.9.
    pub length: f32,
    /// Distance behind the neck (m). Default 0.08.
    pub back_offset: f32,
    pub left_shoulder: SinewMat4,
    pub neck: SinewMat4,
    pub right_shoulder: SinewMat4,
    pub material: SinewMaterial,
}

/// A skirt: a ring around the waist bone's local Y axis, skinned to it, top ring pinned,
/// geodesic tethers on.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct SinewSkirtDesc {
    /// Particles around the ring, ≥ 3.
    pub columns: u32,
    pub rows: u32,
    /// Radius at the waist (m). Default 0.16.
    pub radius_top: f32,
    /// Radius at the hem (m). Default 0.3.
    pub radius_bottom: f32,
    /// Length down the legs (m). Default 0.45.
    pub length: f32,
    /// The waist bone's transform now.
    pub waist: SinewMat4,
    pub material: SinewMaterial,
}
