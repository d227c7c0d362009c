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

/// The events of the world's last step (`sinew_world_read_events`).
pub fn events(w: SinewWorld) -> Vec<SinewEvent> {
    let mut n = 0usize;
    ok(sinew_world_get_event_count(w, &mut n));
    let mut out = vec![SinewEvent { body: SinewBody { id: 0 }, kind: 0, reason: 0 }; n];
    ok(sinew_world_read_events(w, out.as_mut_ptr(), out.len()));
    out
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


pub fn mesh_collider_desc() -> SinewColliderMeshDesc {
    let mut d = std::mem::MaybeUninit::uninit();
    ok(sinew_collider_mesh_desc_default(d.as_mut_ptr()));
    unsafe { d.assume_init() }
}

/// A mesh collider from `vertices` and a triangle list, on layer 1, at `transform`.
pub fn create_mesh_collider(world: SinewWorld, vertices: &[SinewVec3], indices: &[u32], transform: SinewMat4) -> SinewCollider {
    let mut d = mesh_collider_desc();
    (d.vertices, d.vertex_count, d.indices, d.index_count) = (vertices.as_ptr(), vertices.len(), indices.as_ptr(), indices.len());
    d.transform = transform;
    let mut c = SinewCollider::default();
    ok(sinew_collider_create_mesh(world, &d, &mut c));
    c
}

/// A square of side `2·half` at y = 0 facing +y: two triangles.
pub fn floor_mesh(half: f32) -> (Vec<SinewVec3>, Vec<u32>) {
    (vec![v3(-half, 0.0, -half), v3(-half, 0.0, half), v3(half, 0.0, half), v3(half, 0.0, -half)], vec![0, 1, 2, 0, 2, 3])
}

/// An icosahedron subdivided `levels` times onto the sphere of `radius` about `centre`, each
/// face wound to face outwards.
pub fn sphere_mesh(centre: SinewVec3, radius: f32, levels: u32) -> (Vec<SinewVec3>, Vec<u32>) {
    let t = (1.0 + 5f64.sqrt()) / 2.0;
    let mut v: Vec<[f64; 3]> = vec![
        [-1.0, t, 0.0], [1.0, t, 0.0], [-1.0, -t, 0.0], [1.0, -t, 0.0],
        [0.0, -1.0, t], [0.0, 1.0, t], [0.0, -1.0, -t], [0.0, 1.0, -t],
        [t, 0.0, -1.0], [t, 0.0, 1.0], [-t, 0.0, -1.0], [-t, 0.0, 1.0],
    ];
    let mut f: Vec<[u32; 3]> = vec![
        [0, 11, 5], [0, 5, 1], [0, 1, 7], [0, 7, 10], [0, 10, 11], [1, 5, 9], [5, 11, 4], [11, 10, 2], [10, 7, 6], [7, 1, 8],
        [3, 9, 4], [3, 4, 2], [3, 2, 6], [3, 6, 8], [3, 8, 9], [4, 9, 5], [2, 4, 11], [6, 2, 10], [8, 6, 7], [9, 8, 1],
    ];
    let norm = |p: [f64; 3]| {
        let l = (p[0] * p[0] + p[1] * p[1] + p[2] * p[2]).sqrt();
        [p[0] / l, p[1] / l, p[2] / l]
    };
    for p in &mut v {
        *p = norm(*p);
    }
    for _ in 0..levels {
        let mut mid = std::collections::HashMap::new();
        let mut next = Vec::new();
        for [a, b, c] in f {
            let mut m = |i: u32, j: u32| {
                *mid.entry((i.min(j), i.max(j))).or_insert_with(|| {
                    let (p, q) = (v[i as usize], v[j as usize]);
                    v.push(norm([p[0] + q[0], p[1] + q[1], p[2] + q[2]]));
                    v.len() as u32 - 1
                })
            };
            let (ab, bc, ca) = (m(a, b), m(b, c), m(c, a));
            next.extend([[a, ab, ca], [b, bc, ab], [c, ca, bc], [ab, bc, ca]]);
        }
        f = next;
    }
    let pos: Vec<SinewVec3> =
        v.iter().map(|p| v3(centre.x + (p[0] * radius as f64) as f32, centre.y + (p[1] * radius as f64) as f32, centre.z + (p[2] * radius as f64) as f32)).collect();
    let mut idx = Vec::new();
    for [a, b, c] in f {
        let (pa, pb, pc) = (v[a as usize], v[b as usize], v[c as usize]);
        let (e1, e2) = ([pb[0] - pa[0], pb[1] - pa[1], pb[2] - pa[2]], [pc[0] - pa[0], pc[1] - pa[1], pc[2] - pa[2]]);
        let n = [e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], e1[0] * e2[1] - e1[1] * e2[0]];
        let out = n[0] * pa[0] + n[1] * pa[1] + n[2] * pa[2] > 0.0;
        idx.extend(if out { [a, b, c] } else { [a, c, b] });
    }
    (pos, idx)
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
