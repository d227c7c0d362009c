//! A ragdoll created at a root transform (`sinew_ragdoll_create_at`,
//! `sinew_ragdoll_create_humanoid_at`): every bone is the root times the bone created at the
//! identity, its joints are unbroken, and — the root being a rotation about the vertical and a
//! translation, under which gravity and a floor at y = 0 are unchanged — it falls and comes to
//! rest in the same pose relative to its root as the one created at the origin. Bad roots are
//! refused with their codes and create nothing.

mod common;
use common::*;
use sinew::math::{Mat4, Quat, Vec3};

const DT: f32 = 1.0 / 60.0;

fn world() -> SinewWorld {
    let mut wd = world_desc();
    wd.thread_count = 1;
    create_world(&wd)
}

fn default_humanoid() -> SinewHumanoidBones {
    let mut h = std::mem::MaybeUninit::uninit();
    ok(sinew_humanoid_bones_default(h.as_mut_ptr()));
    unsafe { h.assume_init() }
}

fn mat(m: Mat4) -> SinewMat4 {
    SinewMat4 { m: m.to_cols_array() }
}

fn vec(v: SinewVec3) -> Vec3 {
    Vec3::new(v.x, v.y, v.z)
}

fn quat(q: SinewQuat) -> Quat {
    Quat::from_xyzw(q.x, q.y, q.z, q.w)
}

fn pose(r: SinewRagdoll) -> (Vec<Vec3>, Vec<Quat>) {
    let n = bone_count(r);
    let mut p = vec![v3(0.0, 0.0, 0.0); n];
    let mut q = vec![QUAT_IDENTITY; n];
    ok(sinew_ragdoll_read_pose(r, p.as_mut_ptr(), n, q.as_mut_ptr(), n));
    (p.into_iter().map(vec).collect(), q.into_iter().map(quat).collect())
}

/// The angle (rad) between two rotations.
fn angle(a: Quat, b: Quat) -> f32 {
    // From the vector part of the relative rotation: exact for small angles, where acos of
    // the dot product rounds to 0.
    2.0 * (a.inverse() * b).xyz().length().min(1.0).asin()
}

/// The largest distance between a joint's anchor on the child and on the parent (m), with the
/// anchors taken from the bind pose (the template's anchors are at the child's origin).
fn joint_gap(descs: &[SinewBoneDesc], p: &[Vec3], q: &[Quat]) -> f32 {
    let mut worst = 0.0f32;
    for (i, d) in descs.iter().enumerate().skip(1) {
        let parent = d.parent as usize;
        let (bind_c, bind_p) = (vec(d.position), vec(descs[parent].position));
        let (rot_c, rot_p) = (quat(d.rotation), quat(descs[parent].rotation));
        // The anchor (the child's origin at bind) in the parent's frame.
        let local = rot_p.inverse() * (bind_c - bind_p);
        let on_parent = q[parent] * local + p[parent];
        let _ = rot_c;
        worst = worst.max((on_parent - p[i]).length());
    }
    worst
}

fn root_pose() -> (Quat, Vec3) {
    (Quat::from_rotation_y(0.9), Vec3::new(4.0, 0.0, -7.5))
}

#[test]
fn every_bone_is_the_root_times_the_bone_at_the_identity() {
    let w = world();
    let h = default_humanoid();
    let mut at_origin = SinewRagdoll::default();
    ok(sinew_ragdoll_create_humanoid(w, &h, &ragdoll_settings(), &mut at_origin));
    // A root turned about a tilted axis as well: placement is any rigid transform.
    let rot = Quat::from_axis_angle(Vec3::new(0.3, 1.0, -0.4).normalize(), 2.2);
    let t = Vec3::new(-120.0, 3.5, 64.0);
    let root = mat(Mat4::from_rotation_translation(rot, t));
    let mut placed = SinewRagdoll::default();
    ok(sinew_ragdoll_create_humanoid_at(w, &h, &ragdoll_settings(), &root, &mut placed));
    let mut descs = vec![bone_desc(); 11];
    ok(sinew_humanoid_bone_descs(&h, descs.as_mut_ptr(), 11));
    let mut from_list = SinewRagdoll::default();
    ok(sinew_ragdoll_create_at(w, &ragdoll_settings(), descs.as_ptr(), descs.len(), &root, &mut from_list));
    let (p0, q0) = pose(at_origin);
    let (p1, q1) = pose(placed);
    let (p2, q2) = pose(from_list);
    let (mut dp, mut dq) = (0.0f32, 0.0f32);
    for i in 0..p0.len() {
        let (p, q) = (rot * p0[i] + t, rot * q0[i]);
        for (pi, qi) in [(p1[i], q1[i]), (p2[i], q2[i])] {
            dp = dp.max((pi - p).length());
            dq = dq.max(angle(qi, q));
        }
    }
    println!("placed humanoid vs root × humanoid at the origin: {dp:.2e} m, {dq:.2e} rad");
    // Float round-off at 140 m from the origin: an f32 step there is 1.5e-5 m.
    assert!(dp < 5e-5, "bone positions differ from root × bone by {dp} m");
    assert!(dq < 1e-5, "bone rotations differ from root × bone by {dq} rad");
    // The joints are unbroken as placed.
    let gap = joint_gap(&descs, &p1, &q1);
    assert!(gap < 5e-5, "a joint of the placed humanoid is open by {gap} m");
    ok(sinew_world_destroy(w));
}

/// Drops both humanoids, tilted forward, on a floor (y = 0) in worlds of their own. The root
/// turns about the vertical and moves along the floor, so gravity and the floor are the same
/// relative to it. In free fall (the first 10 frames, before the feet reach the floor) the
/// placed one's pose relative to its root is the other's within 1e-4 m and 1e-3 rad (the
/// round-off of the rotation, 9 m from the origin). Contacts amplify round-off (a limb landing
/// a micrometre apart bounces its own way: the two differ by millimetres 10 frames after the
/// landing and a forearm may settle 5 cm higher), so from there the law is the outcome: both
/// come to rest and sleep, the pelvis at the same height within 1 cm, facing the same way
/// relative to the root (pelvis forward within 0.3 rad), every bone at its counterpart's
/// height within 10 cm, and the joints as closed as the other's.
#[test]
fn it_falls_and_rests_as_the_one_at_the_origin_relative_to_its_root() {
    let (rot, t) = root_pose();
    let root = mat(Mat4::from_rotation_translation(rot, t));
    let h = default_humanoid();
    let mut descs = vec![bone_desc(); 11];
    ok(sinew_humanoid_bone_descs(&h, descs.as_mut_ptr(), 11));
    let make = |placed: bool| {
        let w = world();
        let mut floor = collider_desc();
        floor.shape = SinewShape::SINEW_SHAPE_PLANE as u32;
        create_collider(w, &floor);
        // Tilted forward so that it falls over: a pose fed in at creation, the same for both.
        let mut tilted = descs.clone();
        let tilt = Quat::from_rotation_x(0.35);
        for d in &mut tilted {
            let p = tilt * vec(d.position) + Vec3::new(0.0, 0.3, 0.0);
            let q = tilt * quat(d.rotation);
            d.position = v3(p.x, p.y, p.z);
            d.rotation = SinewQuat { x: q.x, y: q.y, z: q.z, w: q.w };
        }
        let mut r = SinewRagdoll::default();
        if placed {
            ok(sinew_ragdoll_create_at(w, &ragdoll_settings(), tilted.as_ptr(), tilted.len(), &root, &mut r));
        } else {
            ok(sinew_ragdoll_create(w, &ragdoll_settings(), tilted.as_ptr(), tilted.len(), &mut r));
        }
        (w, r, tilted)
    };
    let (w0, r0, tilted) = make(false);
    let (w1, r1, _) = make(true);
    let relative = |p: Vec3, q: Quat| (rot.inverse() * (p - t), rot.inverse() * q);
    let (mut flight_p, mut flight_q, mut worst_gap, mut worst_gap_origin) = (0.0f32, 0.0f32, 0.0f32, 0.0f32);
    let mut fell = 0.0f32;
    for frame in 0..300 {
        ok(sinew_world_step(w0, DT));
        ok(sinew_world_step(w1, DT));
        let (p0, q0) = pose(r0);
        let (p1, q1) = pose(r1);
        // In flight: the feet start 0.37 m above the floor and fall 0.14 m in 10 frames.
        if frame < 10 {
            for i in 0..p0.len() {
                let (rp, rq) = relative(p1[i], q1[i]);
                flight_p = flight_p.max((rp - p0[i]).length());
                flight_q = flight_q.max(angle(rq, q0[i]));
            }
        }
        worst_gap = worst_gap.max(joint_gap(&tilted, &p1, &q1));
        worst_gap_origin = worst_gap_origin.max(joint_gap(&tilted, &p0, &q0));
        fell = fell.max(vec(tilted[0].position).y - p0[0].y);
    }
    let (p0, q0) = pose(r0);
    let (p1, q1) = pose(r1);
    let height = (p1[0].y - p0[0].y).abs();
    let heights = (0..p0.len()).map(|i| (p1[i].y - p0[i].y).abs()).fold(0.0f32, f32::max);
    let facing = {
        let f0 = q0[0] * Vec3::Z;
        let f1 = relative(p1[0], q1[0]).1 * Vec3::Z;
        f0.angle_between(f1)
    };
    let mut asleep = [0u32; 2];
    ok(sinew_ragdoll_is_asleep(r0, &mut asleep[0]));
    ok(sinew_ragdoll_is_asleep(r1, &mut asleep[1]));
    println!(
        "in flight: {flight_p:.2e} m, {flight_q:.2e} rad; at rest: pelvis height {height:.2e} m, bone heights {heights:.2e} m, facing {facing:.3} rad; joints open at most {worst_gap:.2e} m (at the origin {worst_gap_origin:.2e} m); pelvis fell {fell:.2} m; asleep {asleep:?}"
    );
    assert!(flight_p < 1e-4 && flight_q < 1e-3, "in flight the relative pose differs by {flight_p} m, {flight_q} rad");
    assert!(fell > 0.5, "the humanoid falls over (its pelvis dropped {fell} m)");
    assert_eq!(asleep, [1, 1], "both come to rest and sleep");
    assert!(height < 0.01 && heights < 0.1 && facing < 0.3, "at rest: pelvis {height} m, bones {heights} m, facing {facing} rad apart");
    assert!(worst_gap < 1.5 * worst_gap_origin + 1e-3, "joints open {worst_gap} m placed, {worst_gap_origin} m at the origin");
    ok(sinew_world_destroy(w0));
    ok(sinew_world_destroy(w1));
}

/// The ragdoll count of a world.
fn ragdolls(w: SinewWorld) -> u32 {
    let mut s = std::mem::MaybeUninit::uninit();
    ok(sinew_world_get_stats(w, s.as_mut_ptr()));
    unsafe { s.assume_init() }.ragdoll_count
}

#[test]
fn bad_roots_are_refused_with_their_codes_and_create_nothing() {
    let w = world();
    let h = default_humanoid();
    let s = ragdoll_settings();
    let descs = vec![bone_desc(); 1];
    let rigid = Mat4::from_rotation_translation(Quat::from_rotation_y(0.5), Vec3::new(1.0, 0.0, 2.0));
    let cases: Vec<(SinewResult, &str, Option<SinewMat4>)> = vec![
        (SINEW_NULL_POINTER, "root", None),
        (SINEW_INVALID_ARGUMENT, "scale", Some(mat(rigid * Mat4::from_scale(Vec3::splat(2.0))))),
        (SINEW_INVALID_ARGUMENT, "non-uniform", Some(mat(rigid * Mat4::from_scale(Vec3::new(1.0, 1.5, 1.0))))),
        (SINEW_INVALID_ARGUMENT, "mirrored", Some(mat(rigid * Mat4::from_scale(Vec3::new(-1.0, 1.0, 1.0))))),
        (SINEW_NON_FINITE, "not finite", Some({
            let mut m = mat(rigid);
            m.m[13] = f32::NAN;
            m
        })),
        (SINEW_INVALID_ARGUMENT, "root", Some(mat(Mat4::from_translation(Vec3::new(2e6, 0.0, 0.0))))),
    ];
    for (code, words, m) in cases {
        let ptr = m.as_ref().map_or(std::ptr::null(), |m| m as *const SinewMat4);
        let mut r = SinewRagdoll::default();
        for result in [
            sinew_ragdoll_create_humanoid_at(w, &h, &s, ptr, &mut r),
            sinew_ragdoll_create_at(w, &s, descs.as_ptr(), 1, ptr, &mut r),
        ] {
            assert_eq!(result, code, "{}", last_error());
            let msg = last_error();
            assert!(msg.starts_with(&format!("{code:?}: ")) && msg.contains(words), "message {msg:?} should name {words:?}");
        }
        assert_eq!(r.id, 0, "nothing written to out_ragdoll");
        assert_eq!(ragdolls(w), 0, "no ragdoll created");
        ok(sinew_world_step(w, DT));
    }
    // A root at the world's edge that takes a bone beyond it: the bone is named.
    let edge = mat(Mat4::from_translation(Vec3::new(1e6, 0.0, 0.0)));
    let mut r = SinewRagdoll::default();
    let result = sinew_ragdoll_create_humanoid_at(w, &h, &s, &edge, &mut r);
    assert_ne!(result, SINEW_OK);
    assert!(last_error().contains("bone"), "{}", last_error());
    assert_eq!(ragdolls(w), 0);
    ok(sinew_world_destroy(w));
}
