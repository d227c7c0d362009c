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
