//! Ragdolls through the C ABI, against laws: free fall, kinematic targets followed and their
//! velocity carried into the dynamic switch, an impulse changing velocity by impulse/mass,
//! readback forms agreeing, the humanoid template from one call. These need the rigid-body
//! core (`src/ragdoll`, `solver/rigid`); until it lands they answer SINEW_PANIC (a `todo!`
//! caught by the guard) and fail here.

mod common;
use common::*;

const DT: f32 = 1.0 / 60.0;

/// A world without damping surprises: default settings, 60 Hz, one thread.
fn world() -> SinewWorld {
    let mut wd = world_desc();
    wd.thread_count = 1;
    create_world(&wd)
}

fn settings_undamped() -> SinewRagdollSettings {
    let mut s = ragdoll_settings();
    s.linear_damping = 0.0;
    s.angular_damping = 0.0;
    s.sleep_threshold = 0.0;
    s
}

/// One sphere bone of `mass` kg at `p`.
fn ball(world: SinewWorld, p: SinewVec3, mass: f32, settings: &SinewRagdollSettings) -> SinewRagdoll {
    let mut b = bone_desc();
    b.position = p;
    b.shape = SinewShape::SINEW_SHAPE_SPHERE as u32;
    b.radius = 0.1;
    b.mass = mass;
    create_ragdoll(world, settings, &[b])
}

fn pose(r: SinewRagdoll) -> (Vec<SinewVec3>, Vec<SinewQuat>) {
    let n = bone_count(r);
    let mut p = vec![v3(0.0, 0.0, 0.0); n];
    let mut q = vec![QUAT_IDENTITY; n];
    ok(sinew_ragdoll_read_pose(r, p.as_mut_ptr(), n, q.as_mut_ptr(), n));
    (p, q)
}

fn velocities(r: SinewRagdoll) -> (Vec<SinewVec3>, Vec<SinewVec3>) {
    let n = bone_count(r);
    let mut l = vec![v3(0.0, 0.0, 0.0); n];
    let mut a = vec![v3(0.0, 0.0, 0.0); n];
    ok(sinew_ragdoll_read_velocities(r, l.as_mut_ptr(), n, a.as_mut_ptr(), n));
    (l, a)
}

#[test]
fn a_dynamic_bone_falls_freely() {
    let w = world();
    let r = ball(w, v3(0.0, 10.0, 0.0), 1.0, &settings_undamped());
    for _ in 0..30 {
        ok(sinew_world_step(w, DT));
    }
    let t = 30.0 * DT;
    let (p, q) = pose(r);
    let expected = 10.0 - 0.5 * 9.81 * t * t;
    assert!((p[0].y - expected).abs() < 0.01 * (10.0 - expected), "y {} vs free fall {expected}", p[0].y);
    assert!(p[0].x.abs() < 1e-5 && p[0].z.abs() < 1e-5);
    assert!((q[0].w.abs() - 1.0).abs() < 1e-5, "no spin from gravity");
    let (l, _) = velocities(r);
    assert!((l[0].y + 9.81 * t).abs() < 0.01 * 9.81 * t, "vy {} vs {}", l[0].y, -9.81 * t);
    ok(sinew_world_destroy(w));
}

#[test]
fn a_kinematic_bone_follows_its_target_and_keeps_its_velocity_when_released() {
    let w = world();
    ok(sinew_world_set_gravity(w, v3(0.0, 0.0, 0.0)));
    let mut st = settings_undamped();
    st.kinematic = 1;
    let r = ball(w, v3(0.0, 1.0, 0.0), 1.0, &st);
    let mut k = 0u32;
    ok(sinew_ragdoll_is_bone_kinematic(r, 0, &mut k));
    assert_eq!(k, 1);
    // 3 m/s along +X: 0.05 m per 1/60 s frame.
    let mut x = 0.0;
    for _ in 0..20 {
        x += 0.05;
        let p = [v3(x, 1.0, 0.0)];
        ok(sinew_ragdoll_set_targets(r, p.as_ptr(), 1, [QUAT_IDENTITY].as_ptr(), 1));
        ok(sinew_world_step(w, DT));
        let (got, _) = pose(r);
        assert!(dist(got[0], p[0]) < 1e-4, "kinematic bone at {:?}, target {:?}", got[0], p[0]);
    }
    let (l, _) = velocities(r);
    assert!((l[0].x - 3.0).abs() < 0.01 * 3.0, "tracked velocity {:?}", l[0]);
    ok(sinew_ragdoll_set_kinematic(r, 0));
    ok(sinew_ragdoll_is_bone_kinematic(r, 0, &mut k));
    assert_eq!(k, 0);
    ok(sinew_world_step(w, DT));
    let (l, _) = velocities(r);
    assert!((l[0].x - 3.0).abs() < 0.01 * 3.0, "velocity after the switch {:?}", l[0]);
    // The matrix form drives it the same way.
    ok(sinew_ragdoll_set_bone_kinematic(r, 0, 1));
    let m = [translation(5.0, 1.0, 0.0)];
    ok(sinew_ragdoll_set_target_matrices(r, m.as_ptr(), 1));
    ok(sinew_world_step(w, DT));
    assert!(dist(pose(r).0[0], v3(5.0, 1.0, 0.0)) < 1e-4);
    ok(sinew_world_destroy(w));
}

#[test]
fn an_impulse_changes_velocity_by_impulse_over_mass() {
    let w = world();
    ok(sinew_world_set_gravity(w, v3(0.0, 0.0, 0.0)));
    let r = ball(w, v3(0.0, 1.0, 0.0), 2.0, &settings_undamped());
    ok(sinew_ragdoll_apply_bone_impulse(r, 0, v3(0.0, 1.0, 0.0), v3(1.0, 0.0, 0.0)));
    ok(sinew_world_step(w, DT));
    let (l, a) = velocities(r);
    assert!((l[0].x - 0.5).abs() < 1e-4 && l[0].y.abs() < 1e-5, "v {:?} after 1 N·s on 2 kg", l[0]);
    assert!(a[0].x.abs() + a[0].y.abs() + a[0].z.abs() < 1e-4, "an impulse at the centre does not spin: {:?}", a[0]);
    // The nearest-bone form: a point next to bone 2 of a chain hits bone 2.
    let chain = create_ragdoll(w, &settings_undamped(), &chain_bones(v3(3.0, 2.0, 0.0), 3));
    let mut bone = 99u32;
    ok(sinew_ragdoll_apply_impulse(chain, v3(3.2, 1.3, 0.0), v3(-1.0, 0.0, 0.0), &mut bone));
    assert_eq!(bone, 2);
    ok(sinew_world_step(w, DT));
    assert!(velocities(chain).0[2].x < 0.0);
    // An explosion pushes bones away from its centre.
    let b2 = ball(w, v3(-3.0, 1.0, 0.0), 1.0, &settings_undamped());
    ok(sinew_ragdoll_apply_explosion(b2, v3(-3.5, 1.0, 0.0), 2.0, 2.0));
    ok(sinew_world_step(w, DT));
    assert!(velocities(b2).0[0].x > 0.0);
    // A force over one frame of 1/60 s: Δv = F·t/m.
    let b3 = ball(w, v3(6.0, 1.0, 0.0), 1.0, &settings_undamped());
    ok(sinew_ragdoll_add_force(b3, 0, v3(6.0, 1.0, 0.0), v3(0.0, 0.0, 60.0)));
    ok(sinew_world_step(w, DT));
    assert!((velocities(b3).0[0].z - 1.0).abs() < 1e-3, "{:?}", velocities(b3).0[0]);
    ok(sinew_world_destroy(w));
}

#[test]
fn set_pose_teleports_and_readback_forms_agree() {
    let w = world();
    let r = create_ragdoll(w, &ragdoll_settings(), &chain_bones(v3(0.0, 2.0, 0.0), 3));
    ok(sinew_world_step(w, DT));
    let p = [v3(1.0, 3.0, 0.0), v3(1.0, 2.7, 0.0), v3(1.0, 2.4, 0.0)];
    let q = [QUAT_IDENTITY; 3];
    ok(sinew_ragdoll_set_pose(r, p.as_ptr(), 3, q.as_ptr(), 3, 0));
    let (got, _) = pose(r);
    for (a, b) in got.iter().zip(&p) {
        assert!(dist(*a, *b) < 1e-5, "{a:?} vs {b:?}");
    }
    assert!(velocities(r).0.iter().all(|v| v.x == 0.0 && v.y == 0.0 && v.z == 0.0), "at rest after set_pose(keep_velocity 0)");
    ok(sinew_world_step(w, DT));
    let (pos, rot) = pose(r);
    let mut m = vec![SinewMat4 { m: [0.0; 16] }; 3];
    ok(sinew_ragdoll_read_matrices(r, m.as_mut_ptr(), 3));
    for i in 0..3 {
        assert!(dist(v3(m[i].m[12], m[i].m[13], m[i].m[14]), pos[i]) < 1e-5);
        assert!((rot[i].x * rot[i].x + rot[i].y * rot[i].y + rot[i].z * rot[i].z + rot[i].w * rot[i].w - 1.0).abs() < 1e-4);
        assert_eq!(m[i].m[15], 1.0);
    }
    ok(sinew_world_destroy(w));
}

#[test]
fn the_humanoid_template_from_one_call_and_as_an_editable_list() {
    let w = world();
    let mut h = std::mem::MaybeUninit::uninit();
    ok(sinew_humanoid_bones_default(h.as_mut_ptr()));
    let h: SinewHumanoidBones = unsafe { h.assume_init() };
    assert!(h.head.y > h.pelvis.y && h.total_mass == 20.0);
    let mut r = SinewRagdoll::default();
    ok(sinew_ragdoll_create_humanoid(w, &h, &ragdoll_settings(), &mut r));
    assert_eq!(bone_count(r), SinewHumanoidBone::SINEW_HUMANOID_BONE_COUNT as usize);
    let mut descs = vec![bone_desc(); 11];
    ok(sinew_humanoid_bone_descs(&h, descs.as_mut_ptr(), 11));
    assert_eq!(descs[0].parent, -1);
    assert!(descs.iter().enumerate().skip(1).all(|(i, d)| d.parent >= 0 && (d.parent as usize) < i));
    assert_eq!(descs[SinewHumanoidBone::SINEW_HUMANOID_LEFT_KNEE as usize].joint.kind, SinewJointKind::SINEW_JOINT_HINGE as u32);
    descs[SinewHumanoidBone::SINEW_HUMANOID_HEAD as usize].mass = 3.0;
    let edited = create_ragdoll(w, &ragdoll_settings(), &descs);
    assert_eq!(bone_count(edited), 11);
    // A cape on it: pinned to the spine, colliding with the bones.
    let mut gd = grid_desc();
    gd.origin = v3(h.middle_spine.x, h.middle_spine.y, h.middle_spine.z - 0.2);
    gd.pin_mode = SinewPinMode::SINEW_PIN_NONE as u32;
    let cape = create_grid(w, &gd);
    let pins = [0u32, 1];
    let bones = [SinewHumanoidBone::SINEW_HUMANOID_MIDDLE_SPINE as u32; 2];
    let offs = [v3(-0.1, 0.0, -0.2), v3(0.1, 0.0, -0.2)];
    ok(sinew_body_attach_to_ragdoll(cape, r, pins.as_ptr(), 2, bones.as_ptr(), 2, offs.as_ptr(), 2));
    ok(sinew_body_set_ragdoll_collision(cape, r, 1));
    ok(sinew_ragdoll_set_bone_pair_collision(r, 1, 3, 0));
    let mut asleep = 7u32;
    ok(sinew_ragdoll_wake(r));
    ok(sinew_ragdoll_is_asleep(r, &mut asleep));
    assert_eq!(asleep, 0);
    for _ in 0..30 {
        ok(sinew_world_step(w, DT));
    }
    let (p, _) = pose(r);
    assert!(p[0].y < h.pelvis.y - 0.1, "the ragdoll falls: pelvis {:?}", p[0]);
    ok(sinew_ragdoll_destroy(r));
    ok(sinew_world_step(w, DT));
    ok(sinew_world_destroy(w));
}

// ---- powered ragdolls and getting up: every error code, and a refused call changes nothing ----

use sinew::ffi::getup::*;

const HB: usize = SinewHumanoidBone::SINEW_HUMANOID_BONE_COUNT as usize;
const HEAD: u32 = SinewHumanoidBone::SINEW_HUMANOID_HEAD as u32;

fn humanoid(w: SinewWorld) -> SinewRagdoll {
    let mut h = std::mem::MaybeUninit::uninit();
    ok(sinew_humanoid_bones_default(h.as_mut_ptr()));
    let h: SinewHumanoidBones = unsafe { h.assume_init() };
    let mut r = SinewRagdoll::default();
    ok(sinew_ragdoll_create_humanoid(w, &h, &ragdoll_settings(), &mut r));
    r
}

fn humanoid_bind() -> Vec<SinewBoneDesc> {
    let mut h = std::mem::MaybeUninit::uninit();
    ok(sinew_humanoid_bones_default(h.as_mut_ptr()));
    let h: SinewHumanoidBones = unsafe { h.assume_init() };
    let mut d = vec![bone_desc(); HB];
    ok(sinew_humanoid_bone_descs(&h, d.as_mut_ptr(), HB));
    d
}

fn drive_states(r: SinewRagdoll) -> Vec<SinewDriveState> {
    (0..bone_count(r) as u32)
        .map(|b| {
            let mut s = SinewDriveState::default();
            ok(sinew_ragdoll_get_drive_state(r, b, &mut s));
            s
        })
        .collect()
}

fn snapshot(r: SinewRagdoll) -> (Vec<SinewVec3>, Vec<SinewQuat>) {
    let n = bone_count(r);
    let mut p = vec![v3(0.0, 0.0, 0.0); n];
    let mut q = vec![QUAT_IDENTITY; n];
    ok(sinew_ragdoll_read_snapshot(r, p.as_mut_ptr(), n, q.as_mut_ptr(), n));
    (p, q)
}

/// `r` is `code` and the message starts with the code's name.
#[track_caller]
fn refused(r: SinewResult, code: SinewResult) {
    assert_eq!(r, code, "{}", last_error());
    assert!(last_error().starts_with(&format!("{code:?}: ")), "message {:?} for {code:?}", last_error());
}

#[test]
fn refused_muscle_and_pin_calls_change_no_drive_state() {
    let w = world();
    let r = humanoid(w);
    ok(sinew_world_step(w, DT));
    ok(sinew_ragdoll_set_muscle_strength(r, HEAD, 0.25));
    ok(sinew_ragdoll_set_pin_weight(r, 2, 0.5));
    let before = drive_states(r);
    assert_eq!((before[HEAD as usize].muscle_strength, before[2].pin_weight, before[0].pin_weight), (0.25, 0.5, 0.0));
    let calls: Vec<(SinewResult, SinewResult)> = vec![
        (sinew_ragdoll_set_muscle_strength(r, HB as u32, 0.5), SINEW_OUT_OF_RANGE),
        (sinew_ragdoll_set_muscle_strength(r, u32::MAX, 0.5), SINEW_OUT_OF_RANGE),
        (sinew_ragdoll_set_muscle_strength(r, HEAD, 1.0 + f32::EPSILON), SINEW_INVALID_ARGUMENT),
        (sinew_ragdoll_set_muscle_strength(r, HEAD, -0.0001), SINEW_INVALID_ARGUMENT),
        (sinew_ragdoll_set_muscle_strength(r, HEAD, f32::NAN), SINEW_NON_FINITE),
        (sinew_ragdoll_set_muscle_strength_all(r, 7.0), SINEW_INVALID_ARGUMENT),
        (sinew_ragdoll_set_muscle_strength_all(r, f32::NEG_INFINITY), SINEW_NON_FINITE),
        (sinew_ragdoll_set_pin_weight(r, HB as u32, 0.5), SINEW_OUT_OF_RANGE),
        (sinew_ragdoll_set_pin_weight(r, 2, 1.5), SINEW_INVALID_ARGUMENT),
        (sinew_ragdoll_set_pin_weight(r, 2, f32::INFINITY), SINEW_NON_FINITE),
        (sinew_ragdoll_set_pin_weight_all(r, -1.0), SINEW_INVALID_ARGUMENT),
        (sinew_ragdoll_set_pin_weight_all(r, f32::NAN), SINEW_NON_FINITE),
        (sinew_ragdoll_get_drive_state(r, HB as u32, &mut SinewDriveState::default()), SINEW_OUT_OF_RANGE),
        (sinew_ragdoll_get_drive_state(r, 0, std::ptr::null_mut()), SINEW_NULL_POINTER),
        (sinew_ragdoll_take_events(r, std::ptr::null_mut()), SINEW_NULL_POINTER),
    ];
    for (i, (got, want)) in calls.into_iter().enumerate() {
        assert_eq!(got, want, "call {i}");
        assert_eq!(drive_states(r), before, "refused call {i} changed a drive state");
    }
    // The messages name the problem.
    refused(sinew_ragdoll_set_pin_weight(r, 2, 1.5), SINEW_INVALID_ARGUMENT);
    assert!(last_error().contains("pin weight must be within [0, 1] (got 1.5)"), "{}", last_error());
    refused(sinew_ragdoll_set_muscle_strength(r, 11, 0.5), SINEW_OUT_OF_RANGE);
    assert!(last_error().contains("bone 11 is out of range: the ragdoll has 11 bones"), "{}", last_error());
    // An output is written only on success.
    let mut st = SinewDriveState { muscle_strength: 9.0, pin_weight: 9.0, effective_strength: 9.0, effective_pin_weight: 9.0, hit_loss: 9.0 };
    let sentinel = st;
    refused(sinew_ragdoll_get_drive_state(r, 99, &mut st), SINEW_OUT_OF_RANGE);
    assert_eq!(st, sentinel);
    // The world steps the same after all that: the refused calls did not wake or drive anything new.
    ok(sinew_world_step(w, DT));
    let mut e = 5u32;
    ok(sinew_ragdoll_take_events(r, &mut e));
    assert_eq!(e, 0);
    // A stale handle and a busy world are refused the same way.
    let doomed = humanoid(w);
    ok(sinew_ragdoll_destroy(doomed));
    refused(sinew_ragdoll_set_muscle_strength(doomed, 0, 0.5), SINEW_INVALID_HANDLE);
    refused(sinew_ragdoll_set_muscle_strength_all(doomed, 0.5), SINEW_INVALID_HANDLE);
    refused(sinew_ragdoll_set_pin_weight(doomed, 0, 0.5), SINEW_INVALID_HANDLE);
    refused(sinew_ragdoll_set_pin_weight_all(doomed, 0.5), SINEW_INVALID_HANDLE);
    refused(sinew_ragdoll_get_drive_state(doomed, 0, &mut st), SINEW_INVALID_HANDLE);
    refused(sinew_ragdoll_take_events(doomed, &mut e), SINEW_INVALID_HANDLE);
    assert_eq!((st, e), (sentinel, 0));
    ok(sinew_world_step_begin(w, DT));
    assert_eq!(sinew_ragdoll_set_pin_weight_all(r, 1.0), SINEW_BUSY);
    assert_eq!(sinew_ragdoll_set_muscle_strength(r, 0, 1.0), SINEW_BUSY);
    ok(sinew_world_step_end(w));
    assert_eq!(drive_states(r), before, "busy calls changed a drive state");
    ok(sinew_world_destroy(w));
}

#[test]
fn refused_snapshot_and_blend_calls_write_nothing_and_keep_the_snapshot() {
    let w = world();
    let r = humanoid(w);
    let small = create_ragdoll(w, &ragdoll_settings(), &chain_bones(v3(3.0, 2.0, 0.0), 3));
    for _ in 0..10 {
        ok(sinew_world_step(w, DT));
    }
    ok(sinew_ragdoll_capture_snapshot(r));
    let snap = snapshot(r);
    let bind = humanoid_bind();
    let ap: Vec<SinewVec3> = bind.iter().map(|b| b.position).collect();
    let aq: Vec<SinewQuat> = bind.iter().map(|b| b.rotation).collect();
    let (mut op, mut oq) = (vec![v3(-1.0, -1.0, -1.0); HB + 1], vec![QUAT_IDENTITY; HB + 1]);
    let (sp, sq) = (op.clone(), oq.clone());
    let blend = |r: SinewRagdoll, ap: &[SinewVec3], an: usize, aq: &[SinewQuat], qn: usize, alpha: f32, op: &mut [SinewVec3], pc: usize, oq: &mut [SinewQuat], qc: usize| {
        sinew_ragdoll_blend_from_snapshot(r, ap.as_ptr(), an, aq.as_ptr(), qn, alpha, op.as_mut_ptr(), pc, oq.as_mut_ptr(), qc)
    };
    let mut bad_p = ap.clone();
    bad_p[4].x = f32::NAN;
    let mut far_p = ap.clone();
    far_p[4].x = 2e6;
    let mut bad_q = aq.clone();
    bad_q[7].w += 0.5;
    let mut nan_q = aq.clone();
    nan_q[1].y = f32::INFINITY;
    let n = HB;
    let calls: Vec<(SinewResult, SinewResult)> = vec![
        (sinew_ragdoll_read_snapshot(r, std::ptr::null_mut(), n, oq.as_mut_ptr(), n), SINEW_NULL_POINTER),
        (sinew_ragdoll_read_snapshot(r, op.as_mut_ptr(), n, std::ptr::null_mut(), n), SINEW_NULL_POINTER),
        (sinew_ragdoll_read_snapshot(r, op.as_mut_ptr(), n - 1, oq.as_mut_ptr(), n), SINEW_BUFFER_TOO_SMALL),
        (sinew_ragdoll_read_snapshot(r, op.as_mut_ptr(), n, oq.as_mut_ptr(), 0), SINEW_BUFFER_TOO_SMALL),
        (sinew_ragdoll_read_snapshot(r, std::ptr::null_mut(), 0, std::ptr::null_mut(), 0), SINEW_BUFFER_TOO_SMALL),
        (sinew_ragdoll_blend_from_snapshot(r, std::ptr::null(), n, aq.as_ptr(), n, 0.5, op.as_mut_ptr(), n, oq.as_mut_ptr(), n), SINEW_NULL_POINTER),
        (sinew_ragdoll_blend_from_snapshot(r, ap.as_ptr(), n, std::ptr::null(), n, 0.5, op.as_mut_ptr(), n, oq.as_mut_ptr(), n), SINEW_NULL_POINTER),
        (sinew_ragdoll_blend_from_snapshot(r, ap.as_ptr(), n, aq.as_ptr(), n, 0.5, std::ptr::null_mut(), n, oq.as_mut_ptr(), n), SINEW_NULL_POINTER),
        (sinew_ragdoll_blend_from_snapshot(r, ap.as_ptr(), n, aq.as_ptr(), n, 0.5, op.as_mut_ptr(), n, std::ptr::null_mut(), n), SINEW_NULL_POINTER),
        (blend(r, &ap, n - 1, &aq, n, 0.5, &mut op, n, &mut oq, n), SINEW_INVALID_ARGUMENT),
        (blend(r, &ap, n, &aq, 1, 0.5, &mut op, n, &mut oq, n), SINEW_INVALID_ARGUMENT),
        (blend(small, &ap, n, &aq, n, 0.5, &mut op, n, &mut oq, n), SINEW_INVALID_ARGUMENT),
        (blend(r, &ap, usize::MAX, &aq, n, 0.5, &mut op, n, &mut oq, n), SINEW_TOO_LARGE),
        (blend(r, &ap, n, &aq, n, 0.5, &mut op, n - 1, &mut oq, n), SINEW_BUFFER_TOO_SMALL),
        (blend(r, &ap, n, &aq, n, 0.5, &mut op, n, &mut oq, 2), SINEW_BUFFER_TOO_SMALL),
        (blend(r, &ap, n, &aq, n, -0.01, &mut op, n, &mut oq, n), SINEW_INVALID_ARGUMENT),
        (blend(r, &ap, n, &aq, n, 1.01, &mut op, n, &mut oq, n), SINEW_INVALID_ARGUMENT),
        (blend(r, &ap, n, &aq, n, f32::NAN, &mut op, n, &mut oq, n), SINEW_NON_FINITE),
        (blend(r, &ap, n, &aq, n, f32::INFINITY, &mut op, n, &mut oq, n), SINEW_NON_FINITE),
        (blend(r, &bad_p, n, &aq, n, 0.5, &mut op, n, &mut oq, n), SINEW_NON_FINITE),
        (blend(r, &far_p, n, &aq, n, 0.5, &mut op, n, &mut oq, n), SINEW_INVALID_ARGUMENT),
        (blend(r, &ap, n, &bad_q, n, 0.5, &mut op, n, &mut oq, n), SINEW_INVALID_ARGUMENT),
        (blend(r, &ap, n, &nan_q, n, 0.5, &mut op, n, &mut oq, n), SINEW_NON_FINITE),
    ];
    for (i, (got, want)) in calls.into_iter().enumerate() {
        assert_eq!(got, want, "call {i}: {}", last_error());
        assert!(op == sp && oq == sq, "refused call {i} wrote its outputs");
        assert_eq!(snapshot(r), snap, "refused call {i} changed the snapshot");
    }
    refused(blend(r, &ap, n, &bad_q, n, 0.5, &mut op, n, &mut oq, n), SINEW_INVALID_ARGUMENT);
    assert!(last_error().contains("anim_rotations[7] is not a unit quaternion"), "{}", last_error());
    refused(blend(r, &ap, n, &aq, n, 1.01, &mut op, n, &mut oq, n), SINEW_INVALID_ARGUMENT);
    assert!(last_error().contains("alpha must be within [0, 1]"), "{}", last_error());
    // Stale handles.
    let doomed = humanoid(w);
    ok(sinew_ragdoll_destroy(doomed));
    refused(sinew_ragdoll_capture_snapshot(doomed), SINEW_INVALID_HANDLE);
    refused(sinew_ragdoll_read_snapshot(doomed, op.as_mut_ptr(), n, oq.as_mut_ptr(), n), SINEW_INVALID_HANDLE);
    refused(blend(doomed, &ap, n, &aq, n, 0.5, &mut op, n, &mut oq, n), SINEW_INVALID_HANDLE);
    refused(sinew_ragdoll_capture_snapshot(SinewRagdoll::default()), SINEW_INVALID_HANDLE);
    assert!(op == sp && oq == sq);
    ok(sinew_world_step_begin(w, DT));
    assert_eq!(sinew_ragdoll_capture_snapshot(r), SINEW_BUSY);
    ok(sinew_world_step_end(w));
    assert_eq!(snapshot(r), snap, "a busy capture changed the snapshot");
    // The accepted blend's ends are exact, even for a rotation a little off unit length:
    // the host's own bits come back at 1, the snapshot's at 0.
    let mut odd_q = aq.clone();
    odd_q[3] = SinewQuat { x: 0.0, y: 0.70710677, z: 0.0, w: 0.70710677 };
    odd_q[5] = SinewQuat { x: 0.0, y: 0.0, z: 0.0, w: 1.0004 };
    ok(blend(r, &ap, n, &odd_q, n, 1.0, &mut op, n, &mut oq, n));
    assert!(op[..n] == ap[..] && oq[..n].iter().zip(&odd_q).all(|(a, b)| a.x.to_bits() == b.x.to_bits() && a.w.to_bits() == b.w.to_bits() && a.y.to_bits() == b.y.to_bits()));
    ok(blend(r, &ap, n, &odd_q, n, 0.0, &mut op, n, &mut oq, n));
    assert!(op[..n] == snap.0[..] && oq[..n] == snap.1[..]);
    ok(sinew_world_destroy(w));
}

#[test]
fn refused_pose_blend_and_blend_alpha_write_nothing() {
    let fp = [v3(0.0, 0.0, 0.0), v3(1.0, 1.0, 1.0)];
    let tp = [v3(2.0, 0.0, 0.0), v3(1.0, 1.0, 3.0)];
    let fq = [QUAT_IDENTITY; 2];
    let tq = [SinewQuat { x: 0.70710677, y: 0.0, z: 0.0, w: 0.70710677 }, QUAT_IDENTITY];
    let (mut op, mut oq) = ([v3(-5.0, -5.0, -5.0); 2], [QUAT_IDENTITY; 2]);
    let (sp, sq) = (op, oq);
    let null_v = std::ptr::null::<SinewVec3>();
    let null_q = std::ptr::null::<SinewQuat>();
    let mut bad_t = tp;
    bad_t[1].z = f32::NAN;
    let mut bad_f = fq;
    bad_f[0].w = 0.0;
    let cases: Vec<(SinewResult, SinewResult)> = vec![
        (sinew_pose_blend(null_v, fq.as_ptr(), tp.as_ptr(), tq.as_ptr(), 2, 0.5, op.as_mut_ptr(), oq.as_mut_ptr(), 2), SINEW_NULL_POINTER),
        (sinew_pose_blend(fp.as_ptr(), null_q, tp.as_ptr(), tq.as_ptr(), 2, 0.5, op.as_mut_ptr(), oq.as_mut_ptr(), 2), SINEW_NULL_POINTER),
        (sinew_pose_blend(fp.as_ptr(), fq.as_ptr(), null_v, tq.as_ptr(), 2, 0.5, op.as_mut_ptr(), oq.as_mut_ptr(), 2), SINEW_NULL_POINTER),
        (sinew_pose_blend(fp.as_ptr(), fq.as_ptr(), tp.as_ptr(), null_q, 2, 0.5, op.as_mut_ptr(), oq.as_mut_ptr(), 2), SINEW_NULL_POINTER),
        (sinew_pose_blend(fp.as_ptr(), fq.as_ptr(), tp.as_ptr(), tq.as_ptr(), 2, 0.5, std::ptr::null_mut(), oq.as_mut_ptr(), 2), SINEW_NULL_POINTER),
        (sinew_pose_blend(fp.as_ptr(), fq.as_ptr(), tp.as_ptr(), tq.as_ptr(), 2, 0.5, op.as_mut_ptr(), std::ptr::null_mut(), 2), SINEW_NULL_POINTER),
        (sinew_pose_blend(fp.as_ptr(), fq.as_ptr(), tp.as_ptr(), tq.as_ptr(), 2, 0.5, op.as_mut_ptr(), oq.as_mut_ptr(), 1), SINEW_BUFFER_TOO_SMALL),
        (sinew_pose_blend(fp.as_ptr(), fq.as_ptr(), tp.as_ptr(), tq.as_ptr(), usize::MAX, 0.5, op.as_mut_ptr(), oq.as_mut_ptr(), 2), SINEW_TOO_LARGE),
        (sinew_pose_blend(fp.as_ptr(), fq.as_ptr(), tp.as_ptr(), tq.as_ptr(), 2, -1.0, op.as_mut_ptr(), oq.as_mut_ptr(), 2), SINEW_INVALID_ARGUMENT),
        (sinew_pose_blend(fp.as_ptr(), fq.as_ptr(), tp.as_ptr(), tq.as_ptr(), 2, 2.0, op.as_mut_ptr(), oq.as_mut_ptr(), 2), SINEW_INVALID_ARGUMENT),
        (sinew_pose_blend(fp.as_ptr(), fq.as_ptr(), tp.as_ptr(), tq.as_ptr(), 2, f32::NAN, op.as_mut_ptr(), oq.as_mut_ptr(), 2), SINEW_NON_FINITE),
        (sinew_pose_blend(fp.as_ptr(), fq.as_ptr(), bad_t.as_ptr(), tq.as_ptr(), 2, 0.5, op.as_mut_ptr(), oq.as_mut_ptr(), 2), SINEW_NON_FINITE),
        (sinew_pose_blend(fp.as_ptr(), bad_f.as_ptr(), tp.as_ptr(), tq.as_ptr(), 2, 0.5, op.as_mut_ptr(), oq.as_mut_ptr(), 2), SINEW_INVALID_ARGUMENT),
    ];
    for (i, (got, want)) in cases.into_iter().enumerate() {
        assert_eq!(got, want, "case {i}: {}", last_error());
        assert!(op == sp && oq == sq, "refused case {i} wrote its outputs");
    }
    ok(sinew_pose_blend(null_v, null_q, null_v, null_q, 0, 0.5, std::ptr::null_mut(), std::ptr::null_mut(), 0));
    ok(sinew_pose_blend(fp.as_ptr(), fq.as_ptr(), tp.as_ptr(), tq.as_ptr(), 2, 1.0, op.as_mut_ptr(), oq.as_mut_ptr(), 2));
    assert!(op == tp && oq == tq, "at 1 the to pose bit for bit");
    ok(sinew_pose_blend(fp.as_ptr(), fq.as_ptr(), tp.as_ptr(), tq.as_ptr(), 2, 0.0, op.as_mut_ptr(), oq.as_mut_ptr(), 2));
    assert!(op == fp && oq == fq, "at 0 the from pose bit for bit");

    let mut a = -3.0f32;
    refused(sinew_blend_alpha(0.1, 0.5, std::ptr::null_mut()), SINEW_NULL_POINTER);
    refused(sinew_blend_alpha(f32::NAN, 0.5, &mut a), SINEW_NON_FINITE);
    refused(sinew_blend_alpha(0.1, f32::INFINITY, &mut a), SINEW_NON_FINITE);
    refused(sinew_blend_alpha(0.1, -0.5, &mut a), SINEW_INVALID_ARGUMENT);
    assert!(last_error().contains("blend_time must be >= 0"), "{}", last_error());
    assert_eq!(a, -3.0, "out_alpha untouched");
    for (t, bt, want) in [(0.25, 0.5, 0.5), (-1.0, 0.5, 0.0), (9.0, 0.5, 1.0), (0.0, 0.0, 1.0), (-1.0, 0.0, 1.0)] {
        ok(sinew_blend_alpha(t, bt, &mut a));
        assert_eq!(a, want, "blend_alpha({t}, {bt})");
    }
}

#[test]
fn refused_get_up_and_rest_calls_write_nothing() {
    let w = world();
    let r = humanoid(w);
    let small = create_ragdoll(w, &ragdoll_settings(), &chain_bones(v3(3.0, 2.0, 0.0), 3));
    ok(sinew_world_step(w, DT));
    refused(sinew_get_up_query_default(std::ptr::null_mut()), SINEW_NULL_POINTER);
    let mut q = std::mem::MaybeUninit::uninit();
    ok(sinew_get_up_query_default(q.as_mut_ptr()));
    let q: SinewGetUpQuery = unsafe { q.assume_init() };
    assert_eq!((q.pelvis, q.chest, q.head), (0, SinewHumanoidBone::SINEW_HUMANOID_MIDDLE_SPINE as u32, HEAD));
    assert_eq!((q.up, q.bind_forward, q.bind_up), (v3(0.0, 1.0, 0.0), v3(0.0, 0.0, 1.0), v3(0.0, 1.0, 0.0)));
    let sentinel = SinewGetUpInfo { side: 99, from_front: 99, front_up: 99.0, root_position: v3(9.0, 9.0, 9.0), root_rotation: QUAT_IDENTITY, heading: v3(9.0, 9.0, 9.0) };
    let mut info = sentinel;
    let with = |f: &dyn Fn(&mut SinewGetUpQuery)| {
        let mut b = q;
        f(&mut b);
        b
    };
    let cases: Vec<(SinewRagdoll, SinewGetUpQuery, SinewResult, &str)> = vec![
        (small, q, SINEW_OUT_OF_RANGE, "chest bone 5 is out of range"),
        (r, with(&|b| b.pelvis = 11), SINEW_OUT_OF_RANGE, "pelvis bone 11"),
        (r, with(&|b| b.head = u32::MAX), SINEW_OUT_OF_RANGE, "head bone"),
        (r, with(&|b| b.head = b.pelvis), SINEW_INVALID_ARGUMENT, "different bones"),
        (r, with(&|b| b.up = v3(0.0, f32::NAN, 0.0)), SINEW_NON_FINITE, "up"),
        (r, with(&|b| b.up = v3(0.0, 0.0, 0.0)), SINEW_INVALID_ARGUMENT, "up must have a length"),
        (r, with(&|b| b.bind_forward = v3(1e30, 0.0, 0.0)), SINEW_INVALID_ARGUMENT, "bind_forward must have a length"),
        (r, with(&|b| b.bind_up = v3(f32::INFINITY, 0.0, 0.0)), SINEW_NON_FINITE, "bind_up"),
        (r, with(&|b| b.bind_forward = v3(0.0, 3.0, 0.0)), SINEW_INVALID_ARGUMENT, "parallel"),
    ];
    for (rd, query, code, text) in cases {
        refused(sinew_ragdoll_get_up_info(rd, &query, &mut info), code);
        assert!(last_error().contains(text), "{} (wanted {text:?})", last_error());
        assert_eq!(info, sentinel, "a refused get_up_info wrote its output");
    }
    refused(sinew_ragdoll_get_up_info(r, std::ptr::null(), &mut info), SINEW_NULL_POINTER);
    refused(sinew_ragdoll_get_up_info(r, &q, std::ptr::null_mut()), SINEW_NULL_POINTER);
    ok(sinew_ragdoll_get_up_info(r, &q, &mut info));
    assert!((1..=4).contains(&info.side) && info.from_front <= 1);

    let (mut secs, mut at) = (-4.0f32, 4u32);
    refused(sinew_ragdoll_get_rest_time(r, std::ptr::null_mut()), SINEW_NULL_POINTER);
    refused(sinew_ragdoll_is_at_rest(r, 0.5, std::ptr::null_mut()), SINEW_NULL_POINTER);
    refused(sinew_ragdoll_is_at_rest(r, f32::NAN, &mut at), SINEW_NON_FINITE);
    refused(sinew_ragdoll_is_at_rest(r, -0.1, &mut at), SINEW_INVALID_ARGUMENT);
    assert!(last_error().contains("seconds must be >= 0"), "{}", last_error());
    let doomed = humanoid(w);
    ok(sinew_ragdoll_destroy(doomed));
    refused(sinew_ragdoll_get_up_info(doomed, &q, &mut info), SINEW_INVALID_HANDLE);
    refused(sinew_ragdoll_get_rest_time(doomed, &mut secs), SINEW_INVALID_HANDLE);
    refused(sinew_ragdoll_is_at_rest(doomed, 0.5, &mut at), SINEW_INVALID_HANDLE);
    assert_eq!((secs, at), (-4.0, 4), "refused rest calls wrote their outputs");
    ok(sinew_ragdoll_get_rest_time(r, &mut secs));
    ok(sinew_ragdoll_is_at_rest(r, 0.0, &mut at));
    assert!(secs >= 0.0 && at <= 1);
    ok(sinew_world_destroy(w));
}
