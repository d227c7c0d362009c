//! The moving-platform anchor (`sinew_body_set_anchor`, `sinew_ragdoll_set_anchor`) against
//! its laws:
//! - in a vehicle accelerating at `a`, a chain and a cloth strip pinned in it hang at
//!   `atan(s·a/g)` from the vertical (s the anchor's inertia), for s = 0, 0.5, 1 and two
//!   accelerations;
//! - an anchor at constant velocity, or turning at a constant rate about the vertical, leaves
//!   a body of inertia 0 at rest in the anchor's frame, asleep and carried;
//! - a jump of the anchor beyond the teleport distance carries the body with no stretch and no
//!   change of its motion relative to the anchor (against a twin that does not jump);
//! - a ragdoll lying on a platform collider moved with the anchor, inertia 0, keeps its pose
//!   relative to the platform while the vehicle accelerates and turns;
//! - bad input refused with its code, the world stepping on.

mod common;
use common::*;
use sinew::math::{Mat4, Quat, Vec3};

const DT: f32 = 1.0 / 60.0;
const G: f32 = 9.81;

fn world() -> SinewWorld {
    let mut wd = world_desc();
    wd.thread_count = 1;
    create_world(&wd)
}

fn mat(m: Mat4) -> SinewMat4 {
    SinewMat4 { m: m.to_cols_array() }
}

fn vec(v: SinewVec3) -> Vec3 {
    Vec3::new(v.x, v.y, v.z)
}

fn sv(v: Vec3) -> SinewVec3 {
    v3(v.x, v.y, v.z)
}

/// The vehicle's position along x at time `t` when its acceleration rises smoothly from 0 to
/// `a` over `ramp` seconds (`a/2·(1 − cos(πt/ramp))`) and stays `a` after: slow enough that
/// the hanging body is not set swinging (its period is about 1.6 s).
fn vehicle_x(a: f32, ramp: f32, t: f32) -> f32 {
    let pi = std::f32::consts::PI;
    let at = |t: f32| 0.5 * a * (0.5 * t * t + ramp * ramp / (pi * pi) * ((pi * t / ramp).cos() - 1.0));
    if t <= ramp {
        return at(t);
    }
    let v_ramp = 0.5 * a * ramp;
    at(ramp) + v_ramp * (t - ramp) + 0.5 * a * (t - ramp) * (t - ramp)
}

/// A body hanging from pins fixed in a vehicle that accelerates along +x: the pins' targets
/// and the anchor move with it every frame. Returns the mean angle (degrees) of the body's
/// particles from the vertical below their pins' centroid (positive: trailing, towards −x),
/// averaged over the frames from 6 s to 10 s.
fn hanging_angle(make: impl Fn(SinewWorld) -> (SinewBody, Vec<u32>), s: f32, a: f32, root: Option<SinewDynamics>) -> f32 {
    let w = world();
    let (body, pins) = make(w);
    if let Some(d) = root {
        ok(sinew_body_set_dynamics(body, &d));
    }
    let n = read_positions(body).len();
    let start = read_positions(body);
    let rest: Vec<Vec3> = pins.iter().map(|&i| vec(start[i as usize])).collect();
    let (mut sum, mut count) = (0.0f64, 0);
    for frame in 1..=600 {
        let t = frame as f32 * DT;
        let x = vehicle_x(a, 3.0, t);
        let targets: Vec<SinewVec3> = rest.iter().map(|p| sv(*p + Vec3::X * x)).collect();
        ok(sinew_body_set_pin_targets(body, pins.as_ptr(), pins.len(), targets.as_ptr(), targets.len()));
        ok(sinew_body_set_anchor(body, &mat(Mat4::from_translation(Vec3::X * x)), s));
        if root.is_some() {
            // The character stands still in the vehicle: its root moves with it.
            ok(sinew_body_set_root_transform(body, &mat(Mat4::from_translation(Vec3::X * x))));
        }
        ok(sinew_world_step(w, DT));
        if t > 6.0 {
            let p = read_positions(body);
            let top = targets.iter().fold(Vec3::ZERO, |acc, q| acc + vec(*q)) / targets.len() as f32;
            let mut mean = 0.0f64;
            let free: Vec<usize> = (0..n).filter(|i| !pins.contains(&(*i as u32))).collect();
            for &i in &free {
                let d = vec(p[i]) - top;
                mean += (-d.x).atan2(-d.y).to_degrees() as f64;
            }
            sum += mean / free.len() as f64;
            count += 1;
        }
    }
    ok(sinew_world_destroy(w));
    (sum / count as f64) as f32
}

/// A chain of 10 links of 0.1 m (0.01 kg particles, stiff, no bend), pinned at its top; no
/// damping (a damping rate acts on world velocities, which grow with the vehicle's: its drag
/// would tilt the chain further).
fn chain(w: SinewWorld) -> (SinewBody, Vec<u32>) {
    (hanging_chain(w, v3(0.0, 2.0, 0.0), 10, 0.1, 0.01, 1e-6, 0.0), vec![0])
}

/// A cape: a cloth strip 0.4 m wide and 0.8 m long (5 × 9 particles) hanging across the
/// vehicle's motion (its width along z), pinned along its top row, undamped.
fn strip(w: SinewWorld) -> (SinewBody, Vec<u32>) {
    let mut gd = grid_desc();
    gd.columns = 5;
    gd.rows = 9;
    gd.spacing = 0.1;
    // The grid's local XZ plane stood up: its columns along z, its rows down −y.
    let q = Quat::from_mat3(&sinew::math::Mat3::from_cols(Vec3::Z, -Vec3::X, -Vec3::Y));
    gd.orientation = SinewQuat { x: q.x, y: q.y, z: q.z, w: q.w };
    gd.origin = v3(0.0, 1.6, 0.0);
    gd.pin_mode = SinewPinMode::SINEW_PIN_NONE as u32;
    gd.material.damping = 0.0;
    let body = create_grid(w, &gd);
    let p = read_positions(body);
    let top = p.iter().map(|q| q.y).fold(f32::MIN, f32::max);
    let pins: Vec<u32> = (0..p.len() as u32).filter(|&i| (p[i as usize].y - top).abs() < 1e-5).collect();
    ok(sinew_body_pin(body, pins.as_ptr(), pins.len()));
    (body, pins)
}

/// The law: steady state in the vehicle's frame is a pendulum under `g` and the inertial
/// acceleration the body feels, `−s·a` (the anchor carries the share `1 − s` of the vehicle's
/// motion; the body's own velocity must supply the rest, `s·a` of acceleration, from its pins).
/// Tolerance 0.35°: the ramp leaves a residual swing of the body's modes, not averaged away
/// whole by the 4 s window (measured: at most 0.2°, at 31°).
#[test]
fn a_body_pinned_in_an_accelerating_vehicle_hangs_at_atan_s_a_over_g() {
    for (name, make) in [("chain", chain as fn(SinewWorld) -> (SinewBody, Vec<u32>)), ("cape strip", strip)] {
        for a in [3.0f32, 6.0] {
            for s in [0.0f32, 0.5, 1.0] {
                let law = (s * a / G).atan().to_degrees();
                let got = hanging_angle(make, s, a, None);
                println!("{name}: a = {a} m/s², s = {s}: {got:.3}° (law {law:.3}°)");
                assert!((got - law).abs() < 0.35, "{name}, a = {a}, s = {s}: {got}° against atan(s·a/g) = {law}°");
            }
        }
    }
}

/// A character standing still in the vehicle (its root set to the vehicle's transform every
/// frame) whose body follows its root rigidly (`world_velocity_scale` 0, `world_acceleration_scale`
/// 0): the root's inertia is taken relative to the anchor, where the root does not move, so
/// the body still hangs at `atan(s·a/g)` — not at 0, as a root taken in world space would
/// carry it.
#[test]
fn the_roots_inertia_is_relative_to_the_anchor() {
    let mut d = dynamics();
    d.world_velocity_scale = 0.0;
    d.world_acceleration_scale = 0.0;
    for s in [0.5f32, 1.0] {
        let law = (s * 3.0 / G).atan().to_degrees();
        let got = hanging_angle(chain, s, 3.0, Some(d));
        println!("root carried rigidly, standing in the vehicle, s = {s}: {got:.3}° (law {law:.3}°)");
        assert!((got - law).abs() < 0.35, "s = {s}: {got}° against {law}°");
    }
}

/// An anchor moving at 10 m/s, then turning at 0.5 rad/s about a vertical axis 3 m from the
/// chain: a body of inertia 0 stays at rest in the anchor's frame (its particles within 1e-4 m
/// of where they hung, in anchor coordinates), and it falls asleep and stays asleep while
/// carried (the moving pin targets, compared after the carry, do not wake it).
#[test]
fn constant_motion_of_the_anchor_leaves_a_body_of_inertia_0_at_rest_in_its_frame() {
    let w = world();
    let (body, pins) = chain(w);
    let anchor_at = |t: f32| {
        if t < 3.0 {
            Mat4::from_translation(Vec3::new(10.0 * t, 0.0, 0.0))
        } else {
            let turn = Mat4::from_translation(Vec3::new(30.0 + 3.0, 0.0, 0.0)) * Mat4::from_rotation_y(0.5 * (t - 3.0)) * Mat4::from_translation(Vec3::new(-3.0, 0.0, 0.0));
            turn
        }
    };
    let top = Vec3::new(0.0, 2.0, 0.0);
    // Settle hanging (anchor still), then record the rest shape in anchor coordinates.
    for _ in 0..120 {
        ok(sinew_body_set_anchor(body, &mat(anchor_at(0.0)), 0.0));
        ok(sinew_world_step(w, DT));
    }
    let rest: Vec<Vec3> = read_positions(body).into_iter().map(vec).collect();
    let (mut worst, mut asleep_frames) = (0.0f32, 0);
    for frame in 1..=480 {
        let t = frame as f32 * DT;
        let m = anchor_at(t);
        let target = sv(m.transform_point3(top));
        ok(sinew_body_set_pin_targets(body, pins.as_ptr(), 1, &target, 1));
        ok(sinew_body_set_anchor(body, &mat(m), 0.0));
        ok(sinew_world_step(w, DT));
        let p = read_positions(body);
        let inv = m.inverse();
        for (i, q) in p.iter().enumerate() {
            worst = worst.max((inv.transform_point3(vec(*q)) - rest[i]).length());
        }
        if frame > 120 && body_info(body).sleeping == 1 {
            asleep_frames += 1;
        }
    }
    println!("inertia 0, anchor at 10 m/s then turning: {worst:.2e} m from rest in the anchor's frame; asleep {asleep_frames} of the last 360 frames");
    assert!(worst < 1e-4, "the body moved {worst} m relative to its anchor");
    assert!(asleep_frames > 300, "carried asleep: {asleep_frames} of 360 frames asleep");
    ok(sinew_world_destroy(w));
}

/// Two worlds, each with a chain pinned in an anchor (inertia 0.5) and released swinging from
/// horizontal. At 0.3 s one anchor jumps 40 m and turns 90° about the vertical (its pin's
/// target with it); the other stays. Relative to their anchors the two chains move alike
/// within 1 mm over the next second — no stretch spike, no change of velocity — and the
/// jumping chain's longest link never exceeds the twin's by more than 1e-4 m.
#[test]
fn an_anchor_teleport_carries_the_body_without_a_jolt() {
    let make = || {
        let w = world();
        let points: Vec<SinewVec3> = (0..=10).map(|i| v3(i as f32 * 0.1, 2.0, 0.0)).collect();
        let pins = [0u32];
        let mut rd = rope_desc();
        rd.points = points.as_ptr();
        rd.point_count = points.len();
        rd.pin_indices = pins.as_ptr();
        rd.pin_count = 1;
        let body = create_rope(w, &rd);
        (w, body)
    };
    let (w0, still) = make();
    let (w1, jumping) = make();
    let jump = Mat4::from_translation(Vec3::new(40.0, 0.0, -12.0)) * Mat4::from_rotation_y(std::f32::consts::FRAC_PI_2);
    let longest = |p: &[SinewVec3]| p.windows(2).map(|q| (vec(q[1]) - vec(q[0])).length()).fold(0.0f32, f32::max);
    let (mut worst, mut stretch) = (0.0f32, 0.0f32);
    for frame in 1..=80 {
        let m = if frame >= 18 { jump } else { Mat4::IDENTITY };
        let target = sv(m.transform_point3(Vec3::new(0.0, 2.0, 0.0)));
        ok(sinew_body_set_anchor(still, &mat(Mat4::IDENTITY), 0.5));
        ok(sinew_body_set_anchor(jumping, &mat(m), 0.5));
        ok(sinew_body_set_pin_targets(jumping, [0u32].as_ptr(), 1, &target, 1));
        ok(sinew_world_step(w0, DT));
        ok(sinew_world_step(w1, DT));
        let (a, b) = (read_positions(still), read_positions(jumping));
        let inv = m.inverse();
        for i in 0..a.len() {
            worst = worst.max((inv.transform_point3(vec(b[i])) - vec(a[i])).length());
        }
        stretch = stretch.max(longest(&b) - longest(&a));
    }
    println!("anchor jump of 41.8 m and 90°: relative motion within {worst:.2e} m of the twin's, longest link {stretch:.2e} m beyond the twin's");
    assert!(worst < 1e-3, "after the jump the chain moves {worst} m differently from its twin, relative to the anchor");
    assert!(stretch < 1e-4, "a link stretched {stretch} m beyond the twin's");
    ok(sinew_world_destroy(w0));
    ok(sinew_world_destroy(w1));
}

fn pose(r: SinewRagdoll) -> Vec<Vec3> {
    let n = bone_count(r);
    let mut p = vec![v3(0.0, 0.0, 0.0); n];
    let mut q = vec![QUAT_IDENTITY; n];
    ok(sinew_ragdoll_read_pose(r, p.as_mut_ptr(), n, q.as_mut_ptr(), n));
    p.into_iter().map(vec).collect()
}

/// A humanoid lying face up on a 4 m × 4 m platform (a box collider the host moves with the
/// vehicle), inertia 0. It settles for 2 s with the vehicle still; then the vehicle accelerates
/// at 3 m/s² along x for 2 s and turns at 0.6 rad/s about the vertical for 2 s. In the
/// vehicle's frame its bones follow a twin's whose vehicle stands still, within 2 mm. (Both
/// are woken every frame — the moving platform wakes the rider anyway — and an awake lying
/// humanoid creeps by itself, 1.2 cm over these 4 s, so the twin, not the rest pose, is the
/// reference.) With inertia 1 the same ride is felt: the test can fail.
#[test]
fn a_ragdoll_of_inertia_0_on_a_platform_rides_with_its_anchor_at_rest() {
    let run = |inertia: f32, moving: bool| {
        let w = world();
        let mut box_desc = collider_desc();
        box_desc.shape = SinewShape::SINEW_SHAPE_BOX as u32;
        box_desc.half_extents = v3(2.0, 0.1, 2.0);
        let platform_at = |m: Mat4| mat(m * Mat4::from_translation(Vec3::new(0.0, 0.4, 0.0)));
        box_desc.transform = platform_at(Mat4::IDENTITY);
        let platform = create_collider(w, &box_desc);
        let mut h = std::mem::MaybeUninit::uninit();
        ok(sinew_humanoid_bones_default(h.as_mut_ptr()));
        let h: SinewHumanoidBones = unsafe { h.assume_init() };
        // Lying face up: turned −90° about x, its back on the platform's top at 0.5 m.
        let root = mat(Mat4::from_translation(Vec3::new(0.0, 0.62, 0.9)) * Mat4::from_quat(Quat::from_rotation_x(-std::f32::consts::FRAC_PI_2)));
        let mut r = SinewRagdoll::default();
        ok(sinew_ragdoll_create_humanoid_at(w, &h, &ragdoll_settings(), &root, &mut r));
        let vehicle = |t: f32| {
            if t < 2.0 || !moving {
                Mat4::IDENTITY
            } else if t < 4.0 {
                Mat4::from_translation(Vec3::new(1.5 * (t - 2.0) * (t - 2.0), 0.0, 0.0))
            } else {
                Mat4::from_translation(Vec3::new(6.0 + 6.0 * (t - 4.0), 0.0, 0.0)) * Mat4::from_rotation_y(0.6 * (t - 4.0))
            }
        };
        let mut track = Vec::new();
        for frame in 1..=360 {
            let t = frame as f32 * DT;
            let m = vehicle(t);
            ok(sinew_collider_set_transform(platform, &platform_at(m)));
            ok(sinew_ragdoll_set_anchor(r, &mat(m), inertia));
            if t > 2.0 {
                ok(sinew_ragdoll_wake(r));
            }
            ok(sinew_world_step(w, DT));
            let inv = m.inverse();
            track.push(pose(r).into_iter().map(|q| inv.transform_point3(q)).collect::<Vec<Vec3>>());
        }
        ok(sinew_world_destroy(w));
        track
    };
    let still = run(0.0, false);
    let apart = |track: &[Vec<Vec3>]| {
        track.iter().zip(&still).skip(120).flat_map(|(a, b)| a.iter().zip(b).map(|(p, q)| (*p - *q).length())).fold(0.0f32, f32::max)
    };
    let (carried, felt) = (apart(&run(0.0, true)), apart(&run(1.0, true)));
    println!("humanoid on a platform, in the vehicle's frame against a twin standing still: {carried:.2e} m at inertia 0, {felt:.2e} m at inertia 1");
    assert!(carried < 2e-3, "at inertia 0 a bone moved {carried} m relative to the vehicle beyond its twin");
    assert!(felt > 5.0 * carried.max(1e-3), "at inertia 1 the ride is felt ({felt} m): the test can fail");
}

#[test]
fn bad_anchors_are_refused_with_their_codes() {
    let w = world();
    let body = hanging_chain(w, v3(0.0, 2.0, 0.0), 4, 0.1, 0.01, 0.0, 0.1);
    let mut r = SinewRagdoll::default();
    let mut h = std::mem::MaybeUninit::uninit();
    ok(sinew_humanoid_bones_default(h.as_mut_ptr()));
    let h: SinewHumanoidBones = unsafe { h.assume_init() };
    ok(sinew_ragdoll_create_humanoid(w, &h, &ragdoll_settings(), &mut r));
    let good = mat(Mat4::from_translation(Vec3::new(1.0, 0.0, 0.0)));
    let mut nan = good;
    nan.m[0] = f32::NAN;
    let scaled = mat(Mat4::from_scale(Vec3::splat(2.0)));
    let sheared = SinewMat4 { m: [1.0, 0.0, 0.0, 0.0, 0.5, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0] };
    let far = mat(Mat4::from_translation(Vec3::new(0.0, 2e6, 0.0)));
    let cases: [(Option<&SinewMat4>, f32, SinewResult, &str); 8] = [
        (None, 0.5, SINEW_NULL_POINTER, "transform"),
        (Some(&nan), 0.5, SINEW_NON_FINITE, "anchor transform"),
        (Some(&scaled), 0.5, SINEW_INVALID_ARGUMENT, "scale"),
        (Some(&sheared), 0.5, SINEW_INVALID_ARGUMENT, "anchor transform"),
        (Some(&far), 0.5, SINEW_INVALID_ARGUMENT, "anchor"),
        (Some(&good), 1.5, SINEW_INVALID_ARGUMENT, "[0, 1]"),
        (Some(&good), -0.1, SINEW_INVALID_ARGUMENT, "[0, 1]"),
        (Some(&good), f32::NAN, SINEW_NON_FINITE, "inertia"),
    ];
    for (m, inertia, code, words) in cases {
        let ptr = m.map_or(std::ptr::null(), |m| m as *const SinewMat4);
        for result in [sinew_body_set_anchor(body, ptr, inertia), sinew_ragdoll_set_anchor(r, ptr, inertia)] {
            assert_eq!(result, code, "{}", last_error());
            let msg = last_error();
            assert!(msg.starts_with(&format!("{code:?}: ")) && msg.contains(words), "{msg:?} should name {words:?}");
        }
        ok(sinew_world_step(w, DT));
    }
    // Accepted at the ends of the range, then cleared; stale handles refused.
    ok(sinew_body_set_anchor(body, &good, 0.0));
    ok(sinew_ragdoll_set_anchor(r, &good, 1.0));
    ok(sinew_world_step(w, DT));
    ok(sinew_body_clear_anchor(body));
    ok(sinew_ragdoll_clear_anchor(r));
    ok(sinew_body_destroy(body));
    ok(sinew_ragdoll_destroy(r));
    assert_eq!(sinew_body_set_anchor(body, &good, 0.5), SINEW_INVALID_HANDLE);
    assert_eq!(sinew_body_clear_anchor(body), SINEW_INVALID_HANDLE);
    assert_eq!(sinew_ragdoll_set_anchor(r, &good, 0.5), SINEW_INVALID_HANDLE);
    assert_eq!(sinew_ragdoll_clear_anchor(r), SINEW_INVALID_HANDLE);
    ok(sinew_world_step(w, DT));
    ok(sinew_world_destroy(w));
}

/// The same anchored scene — a chain and a cloth strip in an accelerating, turning vehicle at
/// inertia 0.5, a humanoid on its platform at inertia 0 — on 1, 2 and 4 threads: the same bits.
#[test]
fn anchored_scenes_give_the_same_bits_on_any_thread_count() {
    let run = |threads: u32| {
        let mut wd = world_desc();
        wd.thread_count = threads;
        let w = create_world(&wd);
        let (rope, rope_pins) = chain(w);
        let (cape, cape_pins) = strip(w);
        let mut box_desc = collider_desc();
        box_desc.shape = SinewShape::SINEW_SHAPE_BOX as u32;
        box_desc.half_extents = v3(2.0, 0.1, 2.0);
        box_desc.transform = mat(Mat4::from_translation(Vec3::new(0.0, -0.1, 3.0)));
        let platform = create_collider(w, &box_desc);
        let mut h = std::mem::MaybeUninit::uninit();
        ok(sinew_humanoid_bones_default(h.as_mut_ptr()));
        let h: SinewHumanoidBones = unsafe { h.assume_init() };
        let mut r = SinewRagdoll::default();
        ok(sinew_ragdoll_create_humanoid_at(w, &h, &ragdoll_settings(), &mat(Mat4::from_translation(Vec3::new(0.0, 0.0, 3.0))), &mut r));
        let rests: Vec<Vec<Vec3>> = [rope, cape].iter().map(|b| read_positions(*b).into_iter().map(vec).collect()).collect();
        let mut out = Vec::new();
        for frame in 1..=180 {
            let t = frame as f32 * DT;
            let m = Mat4::from_translation(Vec3::new(0.5 * 3.0 * t * t, 0.0, 0.0)) * Mat4::from_rotation_y(0.3 * t);
            for ((body, pins), rest) in [(rope, &rope_pins), (cape, &cape_pins)].into_iter().zip(&rests) {
                let targets: Vec<SinewVec3> = pins.iter().map(|&i| sv(m.transform_point3(rest[i as usize]))).collect();
                ok(sinew_body_set_pin_targets(body, pins.as_ptr(), pins.len(), targets.as_ptr(), targets.len()));
                ok(sinew_body_set_anchor(body, &mat(m), 0.5));
            }
            ok(sinew_collider_set_transform(platform, &mat(m * Mat4::from_translation(Vec3::new(0.0, -0.1, 3.0)))));
            ok(sinew_ragdoll_set_anchor(r, &mat(m), 0.0));
            ok(sinew_world_step(w, DT));
        }
        for body in [rope, cape] {
            out.extend(read_positions(body).into_iter().flat_map(|p| [p.x.to_bits(), p.y.to_bits(), p.z.to_bits()]));
        }
        out.extend(pose(r).into_iter().flat_map(|p| [p.x.to_bits(), p.y.to_bits(), p.z.to_bits()]));
        ok(sinew_world_destroy(w));
        out
    };
    let one = run(1);
    for threads in [2, 4] {
        assert!(run(threads) == one, "{threads} threads differ from one");
    }
}

/// A humanoid asleep on a platform that the host moves with the vehicle, inertia 0: the
/// platform's motion is the anchor's, so it does not wake the ragdoll, which is carried asleep
/// through 3 s of driving at 8 m/s while turning at 0.4 rad/s, its pose in the vehicle's frame
/// within 1e-4 m of where it fell asleep. A platform moved otherwise (slid 1 cm within the
/// vehicle) wakes it: the check can fail.
#[test]
fn a_platform_moving_with_the_anchor_does_not_wake_a_sleeper_of_inertia_0() {
    let w = world();
    let mut box_desc = collider_desc();
    box_desc.shape = SinewShape::SINEW_SHAPE_BOX as u32;
    box_desc.half_extents = v3(2.0, 0.1, 2.0);
    let platform_at = |m: Mat4| mat(m * Mat4::from_translation(Vec3::new(0.0, 0.4, 0.0)));
    box_desc.transform = platform_at(Mat4::IDENTITY);
    let platform = create_collider(w, &box_desc);
    let mut h = std::mem::MaybeUninit::uninit();
    ok(sinew_humanoid_bones_default(h.as_mut_ptr()));
    let h: SinewHumanoidBones = unsafe { h.assume_init() };
    let root = mat(Mat4::from_translation(Vec3::new(0.0, 0.62, 0.9)) * Mat4::from_quat(Quat::from_rotation_x(-std::f32::consts::FRAC_PI_2)));
    let mut r = SinewRagdoll::default();
    ok(sinew_ragdoll_create_humanoid_at(w, &h, &ragdoll_settings(), &root, &mut r));
    let asleep = || {
        let mut a = 0u32;
        ok(sinew_ragdoll_is_asleep(r, &mut a));
        a == 1
    };
    let mut frame = 0;
    while !asleep() && frame < 600 {
        ok(sinew_ragdoll_set_anchor(r, &mat(Mat4::IDENTITY), 0.0));
        ok(sinew_world_step(w, DT));
        frame += 1;
    }
    assert!(asleep(), "the humanoid comes to rest on the still platform");
    let rest = pose(r);
    let (mut worst, mut woke) = (0.0f32, 0);
    for f in 1..=180 {
        let t = f as f32 * DT;
        let m = Mat4::from_translation(Vec3::new(8.0 * t, 0.0, 0.0)) * Mat4::from_rotation_y(0.4 * t);
        ok(sinew_collider_set_transform(platform, &platform_at(m)));
        ok(sinew_ragdoll_set_anchor(r, &mat(m), 0.0));
        ok(sinew_world_step(w, DT));
        woke += usize::from(!asleep());
        let inv = m.inverse();
        for (p, q) in pose(r).iter().zip(&rest) {
            worst = worst.max((inv.transform_point3(*p) - *q).length());
        }
    }
    // The platform slides 1 cm within the vehicle: that is felt.
    let m = Mat4::from_translation(Vec3::new(8.0 * 181.0 * DT, 0.0, 0.0)) * Mat4::from_rotation_y(0.4 * 181.0 * DT);
    ok(sinew_collider_set_transform(platform, &platform_at(m * Mat4::from_translation(Vec3::new(0.01, 0.0, 0.0)))));
    ok(sinew_ragdoll_set_anchor(r, &mat(m), 0.0));
    ok(sinew_world_step(w, DT));
    let slid_wakes = !asleep();
    println!("asleep on a platform moving with the anchor: awake {woke} of 180 frames, {worst:.2e} m from rest in the vehicle's frame; a platform sliding in the vehicle wakes it: {slid_wakes}");
    assert_eq!(woke, 0, "the platform moving with the anchor woke the sleeper");
    assert!(worst < 1e-4, "carried asleep, a bone moved {worst} m in the vehicle's frame");
    assert!(slid_wakes, "a platform moving within the vehicle wakes the sleeper");
    ok(sinew_world_destroy(w));
}
