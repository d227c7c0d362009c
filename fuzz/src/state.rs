//! Everything the ABI lets a host read about a world, folded into one hash, with every float
//! read checked finite on the way. Two equal hashes around a refused call mean the call
//! changed nothing a host can see.

use sinew::ffi::body::*;
use sinew::ffi::character::*;
use sinew::ffi::collider::*;
use sinew::ffi::getup::*;
use sinew::ffi::ragdoll::*;
use sinew::ffi::result::SinewResult::{self, *};
use sinew::ffi::softbody::*;
use sinew::ffi::types::*;
use sinew::ffi::world::*;

/// FNV-1a taken a 32-bit word at a time (not byte by byte: a quarter of the multiplies, and
/// the hash only has to tell two states of one run apart).
pub struct Hash(pub u64);

impl Hash {
    pub fn new() -> Self {
        Hash(0xcbf2_9ce4_8422_2325)
    }
    pub fn word(&mut self, w: u32) {
        self.0 = (self.0 ^ w as u64).wrapping_mul(0x0100_0000_01b3);
    }
    pub fn result(&mut self, r: SinewResult) {
        self.word(r as u32);
    }
    pub fn f(&mut self, what: &str, v: f32) {
        assert!(v.is_finite(), "{what}: a readback is not finite ({v})");
        self.word(v.to_bits());
    }
    pub fn v3(&mut self, what: &str, v: SinewVec3) {
        self.f(what, v.x);
        self.f(what, v.y);
        self.f(what, v.z);
    }
    pub fn quat(&mut self, what: &str, q: SinewQuat) {
        for v in [q.x, q.y, q.z, q.w] {
            self.f(what, v);
        }
    }
}

impl Default for Hash {
    fn default() -> Self {
        Hash::new()
    }
}

/// The objects of one world the harness knows to be alive.
#[derive(Default, Clone)]
pub struct Live {
    pub bodies: Vec<SinewBody>,
    pub colliders: Vec<SinewCollider>,
    pub ragdolls: Vec<SinewRagdoll>,
}

/// The hash of what a host can read of `world` and its objects; panics on a non-finite
/// readback or a panic at the boundary. Normals are not in it (they follow from the positions
/// and indices it holds, and computing them was a tenth of a run): [`check_normals`] reads
/// them, in `abi_calls` before a world is destroyed and at the end of an input.
pub fn hash_world(world: SinewWorld, live: &Live) -> u64 {
    let mut h = Hash::new();
    let mut stats = SinewWorldStats::default();
    let r = sinew_world_get_stats(world, &mut stats);
    guard(r, "sinew_world_get_stats");
    h.result(r);
    if r == SINEW_OK {
        for w in [stats.body_count, stats.particle_count, stats.constraint_count, stats.thread_count, stats.last_frame_steps, stats.recovered_bodies, stats.ragdoll_count, stats.bone_count, stats.recovered_ragdolls, stats.capped_particles] {
            h.word(w);
        }
        h.word(stats.steps as u32);
        h.f("stats.alpha", stats.alpha);
    }
    let mut events = 0usize;
    let r = sinew_world_get_event_count(world, &mut events);
    guard(r, "sinew_world_get_event_count");
    h.word(events as u32);
    for &b in &live.bodies {
        hash_body(&mut h, b);
    }
    for &c in &live.colliders {
        let mut info = SinewColliderMeshInfo::default();
        let r = sinew_collider_get_mesh_info(c, &mut info);
        guard(r, "sinew_collider_get_mesh_info");
        h.result(r);
        if r == SINEW_OK {
            for w in [info.vertex_count, info.triangle_count, info.skipped_triangles, info.node_count, info.depth, info.bytes as u32] {
                h.word(w);
            }
            h.v3("collider mesh bounds", info.bounds_min);
            h.v3("collider mesh bounds", info.bounds_max);
        }
    }
    for &r in &live.ragdolls {
        hash_ragdoll(&mut h, r);
    }
    h.0
}

/// Reads every body's normals and panics if one is not finite or the read panicked.
pub fn check_normals(live: &Live) {
    let mut buf = Vec::new();
    for &b in &live.bodies {
        let mut n = 0usize;
        if sinew_body_get_vertex_count(b, &mut n) != SINEW_OK {
            continue;
        }
        buf.resize(n, SinewVec3::default());
        let r = sinew_body_read_normals(b, buf.as_mut_ptr(), n);
        guard(r, "sinew_body_read_normals");
        if r == SINEW_OK {
            let bad = buf.iter().find(|p| !(p.x.is_finite() && p.y.is_finite() && p.z.is_finite()));
            assert!(bad.is_none(), "body normal: a readback is not finite ({bad:?})");
        }
    }
}

#[track_caller]
fn guard(r: SinewResult, what: &str) {
    crate::input::check(r, what);
}

fn hash_body(h: &mut Hash, b: SinewBody) {
    let mut info = SinewBodyInfo::default();
    let r = sinew_body_get_info(b, &mut info);
    guard(r, "sinew_body_get_info");
    h.result(r);
    if r != SINEW_OK {
        return;
    }
    for w in [info.kind, info.particle_count, info.vertex_count, info.constraint_count, info.batch_count, info.triangle_count, info.pinned_count, info.recoveries, info.topology_version, info.frozen, info.substeps, info.sleeping] {
        h.word(w);
    }
    let n = info.vertex_count as usize;
    let mut buf = vec![SinewVec3::default(); n];
    let r = sinew_body_read_positions(b, buf.as_mut_ptr(), n);
    guard(r, "sinew_body_read_positions");
    h.result(r);
    for &p in &buf {
        h.v3("body position", p);
    }
    let (mut lo, mut hi) = (SinewVec3::default(), SinewVec3::default());
    let r = sinew_body_get_bounds(b, &mut lo, &mut hi);
    guard(r, "sinew_body_get_bounds");
    h.result(r);
    if r == SINEW_OK {
        h.v3("body bounds", lo);
        h.v3("body bounds", hi);
    }
    let mut m = std::mem::MaybeUninit::<SinewMaterial>::zeroed();
    let r = sinew_body_get_material(b, m.as_mut_ptr());
    guard(r, "sinew_body_get_material");
    h.result(r);
    if r == SINEW_OK {
        // SAFETY: written on success (and zeroed before).
        let m = unsafe { m.assume_init() };
        for v in [m.particle_mass, m.damping, m.gravity_scale, m.stretch_compliance, m.shear_compliance, m.bend_compliance, m.thickness, m.static_friction, m.kinetic_friction] {
            h.f("material", v);
        }
        h.word(m.collision_mask);
        h.word(m.self_collision);
    }
    let mut d = std::mem::MaybeUninit::<SinewDynamics>::zeroed();
    let r = sinew_body_get_dynamics(b, d.as_mut_ptr());
    guard(r, "sinew_body_get_dynamics");
    h.result(r);
    if r == SINEW_OK {
        // SAFETY: as above.
        let d = unsafe { d.assume_init() };
        for v in [d.world_velocity_scale, d.world_acceleration_scale, d.max_speed, d.teleport_distance, d.pose_stiffness, d.wind_scale, d.drag, d.lift, d.tear_threshold, d.sleep_threshold, d.sleep_time] {
            h.f("dynamics", v);
        }
    }
    let mut count = 0usize;
    let r = sinew_body_get_index_count(b, &mut count);
    guard(r, "sinew_body_get_index_count");
    h.word(count as u32);
    if r == SINEW_OK {
        let mut idx = vec![0u32; count];
        let r = sinew_body_read_indices(b, idx.as_mut_ptr(), count);
        guard(r, "sinew_body_read_indices");
        h.result(r);
        for &i in &idx {
            assert!((i as usize) < n.max(1), "an index {i} past the vertex count {n}");
            h.word(i);
        }
    }
    let mut s = std::mem::MaybeUninit::<SinewSoftSettings>::zeroed();
    let r = sinew_softbody_get_settings(b, s.as_mut_ptr());
    guard(r, "sinew_softbody_get_settings");
    h.result(r);
    if r == SINEW_OK {
        let (mut vol, mut rest) = (0.0f32, 0.0f32);
        let r = sinew_softbody_get_volume(b, &mut vol, &mut rest);
        guard(r, "sinew_softbody_get_volume");
        h.result(r);
        if r == SINEW_OK {
            h.f("soft volume", vol);
            h.f("soft rest volume", rest);
        }
    }
    let mut c = SinewVec3::default();
    let r = sinew_body_get_center_of_mass(b, &mut c);
    guard(r, "sinew_body_get_center_of_mass");
    h.result(r);
    if r == SINEW_OK {
        h.v3("centre of mass", c);
    }
}

fn hash_ragdoll(h: &mut Hash, rd: SinewRagdoll) {
    let mut n = 0usize;
    let r = sinew_ragdoll_get_bone_count(rd, &mut n);
    guard(r, "sinew_ragdoll_get_bone_count");
    h.result(r);
    if r != SINEW_OK {
        return;
    }
    h.word(n as u32);
    let mut pos = vec![SinewVec3::default(); n];
    let mut rot = vec![SinewQuat { x: 0.0, y: 0.0, z: 0.0, w: 1.0 }; n];
    let r = sinew_ragdoll_read_pose(rd, pos.as_mut_ptr(), n, rot.as_mut_ptr(), n);
    guard(r, "sinew_ragdoll_read_pose");
    h.result(r);
    for i in 0..n {
        h.v3("bone position", pos[i]);
        h.quat("bone rotation", rot[i]);
    }
    let mut ang = vec![SinewVec3::default(); n];
    let r = sinew_ragdoll_read_velocities(rd, pos.as_mut_ptr(), n, ang.as_mut_ptr(), n);
    guard(r, "sinew_ragdoll_read_velocities");
    h.result(r);
    for i in 0..n {
        h.v3("bone velocity", pos[i]);
        h.v3("bone angular velocity", ang[i]);
    }
    let mut asleep = 0u32;
    let r = sinew_ragdoll_is_asleep(rd, &mut asleep);
    guard(r, "sinew_ragdoll_is_asleep");
    h.word(asleep);
    for bone in 0..n as u32 {
        let mut k = 0u32;
        let r = sinew_ragdoll_is_bone_kinematic(rd, bone, &mut k);
        guard(r, "sinew_ragdoll_is_bone_kinematic");
        h.word(k);
        let mut st = std::mem::MaybeUninit::<SinewDriveState>::zeroed();
        let r = sinew_ragdoll_get_drive_state(rd, bone, st.as_mut_ptr());
        guard(r, "sinew_ragdoll_get_drive_state");
        h.result(r);
        if r == SINEW_OK {
            // SAFETY: written on success.
            let st = unsafe { st.assume_init() };
            for v in [st.muscle_strength, st.pin_weight, st.effective_strength, st.effective_pin_weight, st.hit_loss] {
                h.f("drive state", v);
                assert!((0.0..=1.0).contains(&v), "a drive state outside [0, 1]: {st:?}");
            }
        }
    }
}
