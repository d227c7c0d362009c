//! A recorded ragdoll replays exactly (issue 29, the recorder): `sinew_ragdoll_set_pose` then
//! `sinew_ragdoll_read_pose` / `read_matrices` give back the very bits that were set, at any
//! interpolation alpha, until the ragdoll moves. A humanoid falls for 90 host frames of 1/50 s
//! in a 60 Hz world (so alpha runs through (0, 1)), its poses are recorded, and a second humanoid
//! in another world is posed frame by frame: every frame reads back the recorded bits. Before
//! the exact readback this failed at the first frame (the bone → body → bone conversion
//! rounds the pose by a few ULP).

mod common;
use common::*;

const HB: usize = SinewHumanoidBone::SINEW_HUMANOID_BONE_COUNT as usize;
const HOST_DT: f32 = 1.0 / 50.0;

fn humanoid(w: SinewWorld) -> SinewRagdoll {
    let mut h = std::mem::MaybeUninit::uninit();
    ok(sinew_humanoid_bones_default(h.as_mut_ptr()));
    let h: SinewHumanoidBones = unsafe { h.assume_init() };
    let mut r = SinewRagdoll::default();
    ok(sinew_ragdoll_create_humanoid(w, &h, &ragdoll_settings(), &mut r));
    r
}

fn world() -> SinewWorld {
    let mut d = world_desc();
    d.thread_count = 1;
    create_world(&d)
}

fn read(r: SinewRagdoll) -> (Vec<SinewVec3>, Vec<SinewQuat>) {
    let mut p = vec![v3(0.0, 0.0, 0.0); HB];
    let mut q = vec![QUAT_IDENTITY; HB];
    ok(sinew_ragdoll_read_pose(r, p.as_mut_ptr(), HB, q.as_mut_ptr(), HB));
    (p, q)
}

fn bits(p: &[SinewVec3], q: &[SinewQuat]) -> Vec<u32> {
    p.iter().flat_map(|v| [v.x, v.y, v.z]).chain(q.iter().flat_map(|v| [v.x, v.y, v.z, v.w])).map(f32::to_bits).collect()
}

fn matrix_bits(r: SinewRagdoll) -> Vec<u32> {
    let mut m = vec![SinewMat4::identity(); HB];
    ok(sinew_ragdoll_read_matrices(r, m.as_mut_ptr(), HB));
    m.iter().flat_map(|m| m.m).map(f32::to_bits).collect()
}

/// The matrix of a pose as `read_matrices` writes it (glam's rotation-translation matrix).
fn matrices_of(p: &[SinewVec3], q: &[SinewQuat]) -> Vec<u32> {
    p.iter()
        .zip(q)
        .flat_map(|(p, q)| {
            let m = glam::Mat4::from_rotation_translation(glam::Quat::from_xyzw(q.x, q.y, q.z, q.w), glam::Vec3::new(p.x, p.y, p.z));
            m.to_cols_array()
        })
        .map(f32::to_bits)
        .collect()
}

/// Records `frames` host frames of a humanoid dropped with a spin, as read back each frame.
fn record(frames: usize) -> Vec<(Vec<SinewVec3>, Vec<SinewQuat>)> {
    let w = world();
    let r = humanoid(w);
    let mut hit = 0;
    ok(sinew_ragdoll_apply_impulse(r, v3(0.1, 1.5, 0.0), v3(0.0, 0.0, 30.0), &mut hit));
    let frames = (0..frames)
        .map(|_| {
            ok(sinew_world_step(w, HOST_DT));
            read(r)
        })
        .collect();
    ok(sinew_world_destroy(w));
    frames
}

#[test]
fn a_recording_replays_to_the_same_bits_every_frame() {
    let recording = record(90);
    let w = world();
    let r = humanoid(w);
    ok(sinew_ragdoll_set_kinematic(r, 1));
    let mut differs_from_the_bind_pose = 0;
    let mut alpha_inside = 0;
    let bind = bits(&read(r).0, &read(r).1);
    for (i, (p, q)) in recording.iter().enumerate() {
        // A game replaying steps its world, then poses the ragdoll and reads it: the replaying
        // world is stepped at the recording's rate, so alpha runs through (0, 1) as it did.
        ok(sinew_world_step(w, HOST_DT));
        let mut stats = SinewWorldStats::default();
        ok(sinew_world_get_stats(w, &mut stats));
        alpha_inside += (stats.alpha > 0.0 && stats.alpha < 1.0) as usize;
        ok(sinew_ragdoll_set_pose(r, p.as_ptr(), HB, q.as_ptr(), HB, 0));
        let (rp, rq) = read(r);
        assert_eq!(bits(&rp, &rq), bits(p, q), "frame {i}: read_pose after set_pose is not the recorded bits");
        assert_eq!(matrix_bits(r), matrices_of(p, q), "frame {i}: read_matrices is not the recorded pose's matrix");
        differs_from_the_bind_pose += (bits(p, q) != bind) as usize;
    }
    assert!(alpha_inside > recording.len() / 2, "alpha was inside (0, 1) at {alpha_inside} frames only");
    assert_eq!(differs_from_the_bind_pose, recording.len(), "the recording has frames at the bind pose: it tests nothing");
    ok(sinew_world_destroy(w));
}

#[test]
fn the_pose_is_read_back_as_given_not_through_the_body_frame() {
    // A pose no step produced (the bind pose turned by 40° about the origin) reads back as given.
    let w = world();
    let r = humanoid(w);
    let (mut p, mut q) = read(r);
    let tilt = glam::Quat::from_axis_angle(glam::Vec3::new(0.3, 0.8, 0.5).normalize(), 0.7);
    for (p, r) in p.iter_mut().zip(q.iter_mut()) {
        let t = tilt * glam::Quat::from_xyzw(r.x, r.y, r.z, r.w);
        *r = SinewQuat { x: t.x, y: t.y, z: t.z, w: t.w };
        let x = tilt * glam::Vec3::new(p.x, p.y, p.z);
        *p = v3(x.x, x.y, x.z);
    }
    ok(sinew_ragdoll_set_pose(r, p.as_ptr(), HB, q.as_ptr(), HB, 0));
    let (rp, rq) = read(r);
    assert_eq!(bits(&rp, &rq), bits(&p, &q));
    // A step lets go of the pose: the dynamic ragdoll falls (gravity, v = 0 at the start), and
    // what it reads is the simulated pose, lower than the one set.
    ok(sinew_world_step(w, 1.0 / 60.0));
    let (fp, _) = read(r);
    for (a, b) in fp.iter().zip(&p) {
        assert!(a.y < b.y, "a bone did not fall after the step: {} -> {}", b.y, a.y);
    }
    ok(sinew_world_destroy(w));
}
