//! Helpers shared by the integration tests: they drive the library through its C ABI.
#![allow(dead_code)]

pub use sinew::ffi::body::*;
pub use sinew::ffi::cloth::*;
pub use sinew::ffi::result::SinewResult;
pub use sinew::ffi::result::SinewResult::*;
pub use sinew::ffi::rope::*;
pub use sinew::ffi::types::*;
pub use sinew::ffi::world::*;

pub fn v3(x: f32, y: f32, z: f32) -> SinewVec3 {
    SinewVec3 { x, y, z }
}

pub fn dist(a: SinewVec3, b: SinewVec3) -> f32 {
    ((a.x - b.x).powi(2) + (a.y - b.y).powi(2) + (a.z - b.z).powi(2)).sqrt()
}

/// Asserts `SINEW_OK`, showing the native message otherwise.
#[track_caller]
pub fn ok(r: SinewResult) {
    assert_eq!(r, SINEW_OK, "call failed: {}", last_error());
}

pub fn last_error() -> String {
    let p = sinew_last_error_message();
    unsafe { std::ffi::CStr::from_ptr(p) }.to_string_lossy().into_owned()
}

pub fn world_desc() -> SinewWorldDesc {
    let mut d = std::mem::MaybeUninit::uninit();
    ok(sinew_world_desc_default(d.as_mut_ptr()));
    unsafe { d.assume_init() }
}

pub fn rope_desc() -> SinewRopeDesc {
    let mut d = std::mem::MaybeUninit::uninit();
    ok(sinew_rope_desc_default(d.as_mut_ptr()));
    unsafe { d.assume_init() }
}

pub fn grid_desc() -> SinewClothGridDesc {
    let mut d = std::mem::MaybeUninit::uninit();
    ok(sinew_cloth_grid_desc_default(d.as_mut_ptr()));
    unsafe { d.assume_init() }
}

pub fn mesh_desc() -> SinewClothMeshDesc {
    let mut d = std::mem::MaybeUninit::uninit();
    ok(sinew_cloth_mesh_desc_default(d.as_mut_ptr()));
    unsafe { d.assume_init() }
}

pub fn create_world(d: &SinewWorldDesc) -> SinewWorld {
    let mut w = SinewWorld::default();
    ok(sinew_world_create(d, &mut w));
    w
}

pub fn create_rope(world: SinewWorld, d: &SinewRopeDesc) -> SinewBody {
    let mut b = SinewBody::default();
    ok(sinew_rope_create(world, d, &mut b));
    b
}

pub fn create_grid(world: SinewWorld, d: &SinewClothGridDesc) -> SinewBody {
    let mut b = SinewBody::default();
    ok(sinew_cloth_create_grid(world, d, &mut b));
    b
}

pub fn read_positions(body: SinewBody) -> Vec<SinewVec3> {
    let mut n = 0usize;
    ok(sinew_body_get_vertex_count(body, &mut n));
    let mut out = vec![SinewVec3::default(); n];
    ok(sinew_body_read_positions(body, out.as_mut_ptr(), n));
    out
}

pub use sinew::ffi::collider::*;

pub fn collider_desc() -> SinewColliderDesc {
    let mut d = std::mem::MaybeUninit::uninit();
    ok(sinew_collider_desc_default(d.as_mut_ptr()));
    unsafe { d.assume_init() }
}

pub fn create_collider(world: SinewWorld, d: &SinewColliderDesc) -> SinewCollider {
    let mut c = SinewCollider::default();
    ok(sinew_collider_create(world, d, &mut c));
    c
}

/// Column-major translation matrix.
pub fn translation(x: f32, y: f32, z: f32) -> SinewMat4 {
    let mut m = SinewMat4::identity();
    m.m[12] = x;
    m.m[13] = y;
    m.m[14] = z;
    m
}

/// Column-major rotation about Z by `angle` radians, then translation.
pub fn rotation_z(angle: f32, t: SinewVec3) -> SinewMat4 {
    let (s, c) = angle.sin_cos();
    SinewMat4 { m: [c, s, 0.0, 0.0, -s, c, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, t.x, t.y, t.z, 1.0] }
}

pub use sinew::ffi::character::*;
#[allow(unused_imports)]
pub use sinew::ffi::strands::*;

pub fn dynamics() -> SinewDynamics {
    let mut d = std::mem::MaybeUninit::uninit();
    ok(sinew_dynamics_default(d.as_mut_ptr()));
    unsafe { d.assume_init() }
}

pub fn lod() -> SinewLod {
    let mut d = std::mem::MaybeUninit::uninit();
    ok(sinew_lod_default(d.as_mut_ptr()));
    unsafe { d.assume_init() }
}

pub fn wind() -> SinewWind {
    let mut d = std::mem::MaybeUninit::uninit();
    ok(sinew_wind_default(d.as_mut_ptr()));
    unsafe { d.assume_init() }
}

/// Column-major uniform scale `s` about the origin, then translation.
pub fn scale_translation(s: f32, t: SinewVec3) -> SinewMat4 {
    SinewMat4 { m: [s, 0.0, 0.0, 0.0, 0.0, s, 0.0, 0.0, 0.0, 0.0, s, 0.0, t.x, t.y, t.z, 1.0] }
}

/// Skins every vertex of `body` rigidly to one bone (bind pose: the first matrices set).
pub fn skin_to_one_bone(body: SinewBody) {
    let mut n = 0usize;
    ok(sinew_body_get_vertex_count(body, &mut n));
    let w = vec![SinewBoneWeight { weight0: 1.0, ..Default::default() }; n];
    ok(sinew_body_set_skinning(body, w.as_ptr(), n, std::ptr::null(), 0, 1));
}

pub fn body_info(body: SinewBody) -> SinewBodyInfo {
    let mut i = SinewBodyInfo::default();
    ok(sinew_body_get_info(body, &mut i));
    i
}

/// A rope hanging straight down from `top`: particle 0 pinned there, `n` free particles
/// `rest` apart below it, no bend constraints, particle mass `m`, stretch compliance `alpha`,
/// damping rate `damping` — the chain of the compliance law α·m·g·N(N+1)/2.
pub fn hanging_chain(world: SinewWorld, top: SinewVec3, n: usize, rest: f32, m: f32, alpha: f32, damping: f32) -> SinewBody {
    let points: Vec<SinewVec3> = (0..=n).map(|i| v3(top.x, top.y - (i as f32) * rest, top.z)).collect();
    let pins = [0u32];
    let mut rd = rope_desc();
    rd.points = points.as_ptr();
    rd.point_count = points.len();
    rd.pin_indices = pins.as_ptr();
    rd.pin_count = 1;
    rd.bend = 0;
    rd.material.particle_mass = m;
    rd.material.damping = damping;
    rd.material.stretch_compliance = alpha;
    create_rope(world, &rd)
}


pub use sinew::ffi::ragdoll::*;

pub fn bone_desc() -> SinewBoneDesc {
    let mut d = std::mem::MaybeUninit::uninit();
    ok(sinew_bone_desc_default(d.as_mut_ptr()));
    unsafe { d.assume_init() }
}

pub fn joint_desc() -> SinewJointDesc {
    let mut d = std::mem::MaybeUninit::uninit();
    ok(sinew_joint_desc_default(d.as_mut_ptr()));
    unsafe { d.assume_init() }
}

pub fn ragdoll_settings() -> SinewRagdollSettings {
    let mut d = std::mem::MaybeUninit::uninit();
    ok(sinew_ragdoll_settings_default(d.as_mut_ptr()));
    unsafe { d.assume_init() }
}

pub const QUAT_IDENTITY: SinewQuat = SinewQuat { x: 0.0, y: 0.0, z: 0.0, w: 1.0 };

/// A hanging chain of `n` capsule bones from `top` downwards, 0.3 m apart: bone 0 the root,
/// bone 1 on a hinge about X (−90°..90°), the others on swing-twist joints (30°, 30°, ±20°).
pub fn chain_bones(top: SinewVec3, n: usize) -> Vec<SinewBoneDesc> {
    (0..n)
        .map(|i| {
            let mut b = bone_desc();
            b.parent = i as i32 - 1;
            b.position = v3(top.x, top.y - 0.3 * i as f32, top.z);
            b.shape_offset = v3(0.0, -0.15, 0.0);
            b.joint.kind = match i {
                0 => SinewJointKind::SINEW_JOINT_FREE,
                1 => SinewJointKind::SINEW_JOINT_HINGE,
                _ => SinewJointKind::SINEW_JOINT_SWING_TWIST,
            } as u32;
            b
        })
        .collect()
}

pub fn create_ragdoll(world: SinewWorld, settings: &SinewRagdollSettings, bones: &[SinewBoneDesc]) -> SinewRagdoll {
    let mut r = SinewRagdoll::default();
    ok(sinew_ragdoll_create(world, settings, bones.as_ptr(), bones.len(), &mut r));
    r
}

pub fn bone_count(r: SinewRagdoll) -> usize {
    let mut n = 0usize;
    ok(sinew_ragdoll_get_bone_count(r, &mut n));
    n
}
