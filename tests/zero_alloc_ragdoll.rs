//! After warm-up, a step with ragdolls allocates nothing: a humanoid alone, a pile of three
//! falling onto each other (one island), an animated one driven by targets every frame, a
//! cape on a ragdoll's spine colliding with its bones, impulses and readback — through the C
//! ABI, at one and two threads.

mod common;
use common::*;
use sinew::ffi::getup::*;

mod counting;

#[global_allocator]
static GLOBAL: counting::Counting = counting::Counting;

const BONES: usize = SinewHumanoidBone::SINEW_HUMANOID_BONE_COUNT as usize;

fn humanoid_at(w: SinewWorld, x: f32, y: f32, kinematic: bool) -> SinewRagdoll {
    let mut h = std::mem::MaybeUninit::uninit();
    ok(sinew_humanoid_bones_default(h.as_mut_ptr()));
    let mut h: SinewHumanoidBones = unsafe { h.assume_init() };
    let shift = |p: &mut SinewVec3| {
        p.x += x;
        p.y += y;
    };
    for p in [
        &mut h.pelvis, &mut h.left_hip, &mut h.left_knee, &mut h.left_foot, &mut h.right_hip, &mut h.right_knee, &mut h.right_foot,
        &mut h.left_arm, &mut h.left_elbow, &mut h.left_hand, &mut h.right_arm, &mut h.right_elbow, &mut h.right_hand,
        &mut h.middle_spine, &mut h.head,
    ] {
        shift(p);
    }
    let mut st = ragdoll_settings();
    st.kinematic = kinematic as u32;
    let mut r = SinewRagdoll::default();
    ok(sinew_ragdoll_create_humanoid(w, &h, &st, &mut r));
    r
}

struct Scene {
    w: SinewWorld,
    ragdolls: Vec<SinewRagdoll>,
    animated: SinewRagdoll,
    cape: SinewBody,
}

fn scene(threads: u32) -> Scene {
    let mut wd = world_desc();
    wd.thread_count = threads;
    let w = create_world(&wd);
    let mut cd = collider_desc();
    cd.shape = SinewShape::SINEW_SHAPE_PLANE as u32;
    cd.transform = translation(0.0, 0.0, 0.0);
    create_collider(w, &cd);
    let mut ragdolls = vec![humanoid_at(w, 0.0, 0.2, false)];
    // A pile: three lying... standing above one another, each 1.9 m higher.
    for k in 0..3 {
        ragdolls.push(humanoid_at(w, 4.0 + 0.1 * k as f32, 0.2 + 1.9 * k as f32, false));
    }
    let animated = humanoid_at(w, -4.0, 0.0, true);
    // A cape on the first one's spine, meeting its bones.
    let mut gd = grid_desc();
    (gd.columns, gd.rows, gd.spacing) = (8, 10, 0.05);
    gd.origin = v3(0.0, 1.4, -0.15);
    gd.orientation = SinewQuat { x: std::f32::consts::FRAC_1_SQRT_2, y: 0.0, z: 0.0, w: std::f32::consts::FRAC_1_SQRT_2 };
    gd.pin_mode = SinewPinMode::SINEW_PIN_NONE as u32;
    let cape = create_grid(w, &gd);
    let top: Vec<u32> = (0..8).collect();
    let bones = vec![SinewHumanoidBone::SINEW_HUMANOID_MIDDLE_SPINE as u32; 8];
    let offsets: Vec<SinewVec3> = (0..8).map(|i| v3(-0.175 + 0.05 * i as f32, 0.2, -0.15)).collect();
    ok(sinew_body_attach_to_ragdoll(cape, ragdolls[0], top.as_ptr(), 8, bones.as_ptr(), 8, offsets.as_ptr(), 8));
    ok(sinew_body_set_ragdoll_collision(cape, ragdolls[0], 1));
    Scene { w, ragdolls, animated, cape }
}

fn frame(s: &Scene, f: usize, pos: &mut [SinewVec3], rot: &mut [SinewQuat], cape: &mut [SinewVec3]) {
    // The top of the pile is powered (muscles, pins to its own pose), and the get-up calls
    // run every frame on the first.
    if f == 0 {
        ok(sinew_ragdoll_set_muscle_strength_all(s.ragdolls[3], 1.0));
        ok(sinew_ragdoll_set_pin_weight_all(s.ragdolls[3], 0.5));
    }
    ok(sinew_ragdoll_read_pose(s.ragdolls[3], pos.as_mut_ptr(), BONES, rot.as_mut_ptr(), BONES));
    ok(sinew_ragdoll_set_targets(s.ragdolls[3], pos.as_ptr(), BONES, rot.as_ptr(), BONES));
    let mut events = 0u32;
    ok(sinew_ragdoll_take_events(s.ragdolls[3], &mut events));
    let mut state = sinew::ffi::getup::SinewDriveState::default();
    ok(sinew_ragdoll_get_drive_state(s.ragdolls[3], 0, &mut state));
    ok(sinew_ragdoll_capture_snapshot(s.ragdolls[0]));
    let mut blended_p = [SinewVec3::default(); BONES];
    let mut blended_q = [SinewQuat { x: 0.0, y: 0.0, z: 0.0, w: 1.0 }; BONES];
    ok(sinew_ragdoll_blend_from_snapshot(s.ragdolls[0], pos.as_ptr(), BONES, rot.as_ptr(), BONES, 0.5, blended_p.as_mut_ptr(), BONES, blended_q.as_mut_ptr(), BONES));
    let mut query = std::mem::MaybeUninit::uninit();
    ok(sinew_get_up_query_default(query.as_mut_ptr()));
    let query = unsafe { query.assume_init() };
    let mut info = std::mem::MaybeUninit::uninit();
    ok(sinew_ragdoll_get_up_info(s.ragdolls[0], &query, info.as_mut_ptr()));
    let (mut rest, mut at_rest) = (0.0f32, 0u32);
    ok(sinew_ragdoll_get_rest_time(s.ragdolls[0], &mut rest));
    ok(sinew_ragdoll_is_at_rest(s.ragdolls[0], 0.5, &mut at_rest));
    // The animated one walks on the spot: its own pose, shifted a little each frame.
    ok(sinew_ragdoll_read_pose(s.animated, pos.as_mut_ptr(), BONES, rot.as_mut_ptr(), BONES));
    let dz = 0.01 * ((f as f32) * 0.1).sin();
    for p in pos.iter_mut() {
        p.z += dz;
    }
    ok(sinew_ragdoll_set_targets(s.animated, pos.as_ptr(), BONES, rot.as_ptr(), BONES));
    if f % 40 == 0 {
        let mut hit = 0u32;
        ok(sinew_ragdoll_apply_impulse(s.ragdolls[0], v3(0.0, 1.3, 0.3), v3(0.0, 0.0, -3.0), &mut hit));
        ok(sinew_ragdoll_add_force(s.ragdolls[3], 0, v3(4.0, 5.0, 0.0), v3(20.0, 0.0, 0.0)));
    }
    // The first one and its cape ride in a moving platform (the anchor's carry and the
    // colliders it sees, for the ragdoll's island and the cape in its company).
    let anchor = translation(0.02 * ((f as f32) * 0.05).sin(), 0.0, 0.001 * f as f32);
    ok(sinew_ragdoll_set_anchor(s.ragdolls[0], &anchor, 0.5));
    ok(sinew_body_set_anchor(s.cape, &anchor, 0.5));
    ok(sinew_world_step(s.w, 1.0 / 60.0));
    for &r in &s.ragdolls {
        ok(sinew_ragdoll_read_pose(r, pos.as_mut_ptr(), BONES, rot.as_mut_ptr(), BONES));
    }
    let mut m = [SinewMat4::identity(); BONES];
    ok(sinew_ragdoll_read_matrices(s.ragdolls[1], m.as_mut_ptr(), BONES));
    ok(sinew_body_read_positions(s.cape, cape.as_mut_ptr(), cape.len()));
}

#[test]
fn ragdoll_steps_allocate_nothing_after_warm_up() {
    for threads in [1u32, 2] {
        let s = scene(threads);
        let mut pos = vec![SinewVec3::default(); BONES];
        let mut rot = vec![SinewQuat { x: 0.0, y: 0.0, z: 0.0, w: 1.0 }; BONES];
        let mut cape = vec![SinewVec3::default(); 80];
        // Warm-up: the pile falls, lands and settles (its contact buffers reach their most),
        // the cape drapes.
        for f in 0..240 {
            frame(&s, f, &mut pos, &mut rot, &mut cape);
        }
        counting::start();
        for f in 240..420 {
            frame(&s, f, &mut pos, &mut rot, &mut cape);
        }
        let n = counting::stop();
        assert!(cape.iter().all(|p| p.x.is_finite() && p.y.is_finite() && p.z.is_finite()));
        ok(sinew_world_destroy(s.w));
        if threads == 1 {
            assert_eq!(n, 0, "one thread: {n} heap allocations in 180 frames");
        } else {
            // rayon's job queue takes a new block now and then (see tests/zero_alloc.rs).
            assert!(n <= 180 / 32, "{threads} threads: {n} heap allocations in 180 frames");
        }
    }
}
