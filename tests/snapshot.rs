//! Snapshot and restore (`sinew_world_save_state` / `sinew_world_load_state`, docs/snapshots.md):
//! a restored world continues bit for bit as the original did — every object kind, on one and
//! two threads, after sleeping, LOD, tearing, ragdoll mode switches and a get-up blend, moved
//! pins, asynchronous steps; in the same world (rewind) and in a second world built by the
//! same calls (networked rollback). A truncated, corrupted or mismatched snapshot is refused
//! and changes nothing.

mod common;
use common::*;
mod soft_common;
use soft_common::*;
use sinew::ffi::snapshot::*;
use sinew::ffi::getup::*;

const DT: f32 = 1.0 / 60.0;

fn fnv(h: &mut u64, bits: u32) {
    for b in bits.to_le_bytes() {
        *h = (*h ^ b as u64).wrapping_mul(0x100000001b3);
    }
}

/// Every object kind, with what changes state beyond plain stepping.
struct Scene {
    world: SinewWorld,
    cloth: SinewBody,
    torn: SinewBody,
    rope: SinewBody,
    strands: SinewBody,
    jelly: SinewBody,
    far: SinewBody,
    cape: SinewBody,
    skinned: SinewBody,
    jelly2: SinewBody,
    ragdoll: SinewRagdoll,
    ball: SinewCollider,
    bind: (Vec<SinewVec3>, Vec<SinewQuat>),
}

fn bodies(s: &Scene) -> [SinewBody; 9] {
    [s.cloth, s.torn, s.rope, s.strands, s.jelly, s.far, s.cape, s.skinned, s.jelly2]
}

/// The skinned cape's three bones at time `t`: shoulders and neck walking along x.
fn cape_bones(t: f32) -> [SinewMat4; 3] {
    let x = -2.0 + 0.3 * t;
    [translation(x - 0.2, 1.5, -2.0), translation(x, 1.6, -2.0), translation(x + 0.2, 1.5, -2.0)]
}

fn pose(r: SinewRagdoll) -> (Vec<SinewVec3>, Vec<SinewQuat>) {
    let n = bone_count(r);
    let mut p = vec![v3(0.0, 0.0, 0.0); n];
    let mut q = vec![SinewQuat { x: 0.0, y: 0.0, z: 0.0, w: 1.0 }; n];
    ok(sinew_ragdoll_read_pose(r, p.as_mut_ptr(), n, q.as_mut_ptr(), n));
    (p, q)
}

fn build(threads: u32) -> Scene {
    let mut wd = world_desc();
    wd.thread_count = threads;
    let world = create_world(&wd);
    let mut floor = collider_desc();
    floor.shape = SinewShape::SINEW_SHAPE_PLANE as u32;
    create_collider(world, &floor);
    let mut bd = collider_desc();
    bd.radius = 0.15;
    bd.transform = translation(0.0, 0.6, 0.3);
    let ball = create_collider(world, &bd);

    let mut gd = grid_desc();
    gd.columns = 8;
    gd.rows = 8;
    gd.spacing = 0.05;
    gd.origin = v3(0.0, 1.0, 0.0);
    gd.material.self_collision = 1;
    let cloth = create_grid(world, &gd);
    gd.material.self_collision = 0;

    // Torn by a corner pulled away in the first frames.
    gd.columns = 6;
    gd.rows = 6;
    gd.origin = v3(-1.0, 1.0, 0.0);
    let torn = create_grid(world, &gd);
    let mut d = dynamics();
    d.tear_threshold = 0.3;
    ok(sinew_body_set_dynamics(torn, &d));

    // A rope dropped on the floor: it comes to rest and sleeps.
    let pts: Vec<SinewVec3> = (0..12).map(|i| v3(1.0 + i as f32 * 0.05, 0.05, 0.0)).collect();
    let mut rd = rope_desc();
    rd.points = pts.as_ptr();
    rd.point_count = pts.len();
    let rope = create_rope(world, &rd);
    let mut still = dynamics();
    still.wind_scale = 0.0;
    ok(sinew_body_set_dynamics(rope, &still));

    let roots = [v3(0.0, 1.6, -1.0), v3(0.05, 1.6, -1.0), v3(0.1, 1.6, -1.0)];
    let dirs = [v3(0.0, -1.0, 0.0); 3];
    let mut sd = std::mem::MaybeUninit::uninit();
    ok(sinew_strands_desc_default(sd.as_mut_ptr()));
    let mut sd: SinewStrandsDesc = unsafe { sd.assume_init() };
    sd.roots = roots.as_ptr();
    sd.root_count = 3;
    sd.directions = dirs.as_ptr();
    sd.direction_count = 3;
    sd.particles_per_strand = 6;
    let mut strands = SinewBody::default();
    ok(sinew_strands_create(world, &sd, &mut strands));

    let jelly = create_lattice(world, &jelly_desc(4, 0.05, v3(-1.0, 0.4, -1.0), 1));
    // A plastic jelly dropped onto the first, the two paired for contact.
    let mut jd = jelly_desc(3, 0.05, v3(-1.0, 0.8, -1.0), 0);
    jd.soft.plastic_yield = 0.01;
    jd.soft.plastic_creep = 5.0;
    jd.soft.plastic_max = 0.5;
    let jelly2 = create_lattice(world, &jd);
    ok(sinew_body_set_collision_pair(jelly, jelly2, 1));

    // A skinned cape (tethers, max distances) on a walking character's shoulders.
    let mut cd = std::mem::MaybeUninit::uninit();
    ok(sinew_cloth_cape_desc_default(cd.as_mut_ptr()));
    let mut cd: SinewClothCapeDesc = unsafe { cd.assume_init() };
    cd.columns = 6;
    cd.rows = 8;
    [cd.left_shoulder, cd.neck, cd.right_shoulder] = cape_bones(0.0);
    let mut skinned = SinewBody::default();
    ok(sinew_cloth_create_cape(world, &cd, &mut skinned));

    let mut wi = wind();
    wi.direction = v3(1.0, 0.0, 0.3);
    wi.speed = 3.0;
    wi.turbulence = 0.5;
    ok(sinew_world_set_wind(world, &wi));

    // Far from the camera: reduced substeps, then frozen.
    gd.origin = v3(30.0, 1.0, 0.0);
    let far = create_grid(world, &gd);
    let mut l = lod();
    l.reduce_distance = 10.0;
    l.freeze_distance = 28.0;
    ok(sinew_body_set_lod(far, &l));
    ok(sinew_world_set_camera(world, v3(0.0, 1.0, 5.0)));

    let mut h = std::mem::MaybeUninit::uninit();
    ok(sinew_humanoid_bones_default(h.as_mut_ptr()));
    let mut h: SinewHumanoidBones = unsafe { h.assume_init() };
    // The whole rig 2.5 m along x (`up` and `forward` are directions).
    for p in [
        &mut h.pelvis, &mut h.left_hip, &mut h.left_knee, &mut h.left_foot, &mut h.right_hip, &mut h.right_knee, &mut h.right_foot,
        &mut h.left_arm, &mut h.left_elbow, &mut h.left_hand, &mut h.right_arm, &mut h.right_elbow, &mut h.right_hand, &mut h.middle_spine, &mut h.head,
    ] {
        p.x += 2.5;
    }
    let mut ragdoll = SinewRagdoll::default();
    ok(sinew_ragdoll_create_humanoid(world, &h, &ragdoll_settings(), &mut ragdoll));
    let bind = pose(ragdoll);
    ok(sinew_ragdoll_set_kinematic(ragdoll, 1));

    // A cape on the ragdoll's spine, colliding with its bones.
    gd.columns = 5;
    gd.rows = 6;
    gd.pin_mode = SinewPinMode::SINEW_PIN_NONE as u32;
    gd.origin = v3(h.middle_spine.x, h.middle_spine.y, h.middle_spine.z - 0.2);
    let cape = create_grid(world, &gd);
    let pins = [0u32, 4];
    let bones = [SinewHumanoidBone::SINEW_HUMANOID_MIDDLE_SPINE as u32; 2];
    let offs = [v3(-0.1, 0.0, -0.2), v3(0.1, 0.0, -0.2)];
    ok(sinew_body_attach_to_ragdoll(cape, ragdoll, pins.as_ptr(), 2, bones.as_ptr(), 2, offs.as_ptr(), 2));
    ok(sinew_body_set_ragdoll_collision(cape, ragdoll, 1));
    Scene { world, cloth, torn, rope, strands, jelly, far, cape, skinned, jelly2, ragdoll, ball, bind }
}

/// The host's inputs of frame `f`, then its step (asynchronous in some frames; frame lengths
/// that leave the accumulator between steps in others).
fn frame(s: &Scene, f: u32) {
    let t = f as f32 * DT;
    let top: Vec<u32> = (0..8).collect();
    let targets: Vec<SinewVec3> = (0..8).map(|c| v3(c as f32 * 0.05 - 0.175 + 0.1 * (2.0 * t).sin(), 1.0, -0.175)).collect();
    ok(sinew_body_set_pin_targets(s.cloth, top.as_ptr(), 8, targets.as_ptr(), 8));
    if f < 30 {
        let corner = [35u32];
        let pull = [v3(-1.0 + 0.04 * f as f32, 0.3, 0.5)];
        ok(sinew_body_set_pin_targets(s.torn, corner.as_ptr(), 1, pull.as_ptr(), 1));
    } else if f == 30 {
        ok(sinew_body_unpin(s.torn, [35u32].as_ptr(), 1));
    }
    ok(sinew_collider_set_transform(s.ball, &translation(0.3 * (1.5 * t).sin(), 0.6, 0.3)));
    ok(sinew_body_set_root_transform(s.strands, &translation(0.1 * t.sin(), 0.0, 0.0)));
    let bones = cape_bones(t);
    ok(sinew_body_set_bone_matrices(s.skinned, bones.as_ptr(), 3));
    if f == 200 {
        // Closer: the far body leaves its frozen state for reduced substeps.
        ok(sinew_world_set_camera(s.world, v3(5.0, 1.0, 0.0)));
    }
    // The ragdoll: animated, dies at 40, gets up from 130 (snapshot, blend over 40 frames),
    // dies again at 260.
    let r = s.ragdoll;
    match f {
        40 | 260 => ok(sinew_ragdoll_set_kinematic(r, 0)),
        130 => ok(sinew_ragdoll_set_kinematic(r, 1)),
        _ => {}
    }
    if f < 40 {
        let (p, q) = &s.bind;
        let p: Vec<SinewVec3> = p.iter().map(|v| v3(v.x + 0.2 * t, v.y, v.z)).collect();
        ok(sinew_ragdoll_set_targets(r, p.as_ptr(), p.len(), q.as_ptr(), q.len()));
    } else if (130..=170).contains(&f) {
        let (p, q) = &s.bind;
        let n = p.len();
        let mut a = 0.0;
        ok(sinew_blend_alpha((f - 130) as f32 * DT, 40.0 * DT, &mut a));
        let (mut op, mut oq) = (vec![v3(0.0, 0.0, 0.0); n], vec![SinewQuat { x: 0.0, y: 0.0, z: 0.0, w: 1.0 }; n]);
        ok(sinew_ragdoll_blend_from_snapshot(r, p.as_ptr(), n, q.as_ptr(), n, a, op.as_mut_ptr(), n, oq.as_mut_ptr(), n));
        ok(sinew_ragdoll_set_targets(r, op.as_ptr(), n, oq.as_ptr(), n));
    }
    if f == 270 {
        let mut bone = 0u32;
        ok(sinew_ragdoll_apply_impulse(r, v3(2.5, 1.0, 0.0), v3(5.0, 0.0, 0.0), &mut bone));
    }
    let dt = match f % 11 {
        4 => 1.0 / 144.0,
        9 => 1.0 / 30.0,
        _ => DT,
    };
    if f % 7 == 3 {
        ok(sinew_world_step_begin(s.world, dt));
        ok(sinew_world_step_end(s.world));
    } else {
        ok(sinew_world_step(s.world, dt));
    }
}

fn run(s: &Scene, frames: std::ops::Range<u32>) {
    for f in frames {
        frame(s, f);
    }
}

/// FNV-1a of everything the host reads back: every body's positions (interpolated), the
/// ragdoll's pose.
fn readback(s: &Scene) -> u64 {
    let mut h = 0xcbf29ce484222325u64;
    for b in bodies(s) {
        for p in read_positions(b) {
            [p.x, p.y, p.z].iter().for_each(|v| fnv(&mut h, v.to_bits()));
        }
    }
    let (p, q) = pose(s.ragdoll);
    p.iter().for_each(|v| [v.x, v.y, v.z].iter().for_each(|x| fnv(&mut h, x.to_bits())));
    q.iter().for_each(|v| [v.x, v.y, v.z, v.w].iter().for_each(|x| fnv(&mut h, x.to_bits())));
    h
}

fn save(w: SinewWorld) -> Vec<u8> {
    let mut n = 0usize;
    ok(sinew_world_save_state(w, std::ptr::null_mut(), 0, &mut n));
    let mut buf = vec![0u8; n];
    let mut written = 0usize;
    ok(sinew_world_save_state(w, buf.as_mut_ptr(), buf.len(), &mut written));
    assert_eq!(written, n);
    buf
}

fn load(w: SinewWorld, data: &[u8]) -> SinewResult {
    sinew_world_load_state(w, data.as_ptr(), data.len())
}

fn info(b: SinewBody) -> SinewBodyInfo {
    body_info(b)
}

/// What the scene went through before the snapshot at frame 300: the test must see it.
fn assert_scene_covers_everything(s: &Scene) {
    assert!(info(s.torn).topology_version > 0, "the torn cloth tore");
    assert_eq!(info(s.rope).sleeping, 1, "the rope on the floor sleeps");
    assert!(info(s.far).substeps < world_desc().substeps, "the far body runs reduced substeps");
}

const SAVE_AT: u32 = 300;
const MORE: u32 = 1000;

#[test]
fn a_restored_world_continues_with_the_same_bits_on_one_and_two_threads() {
    let mut hashes = Vec::new();
    for threads in [1, 2] {
        let s = build(threads);
        run(&s, 0..150);
        assert_eq!(info(s.far).frozen, 1, "the far body is frozen before the camera comes closer");
        run(&s, 150..SAVE_AT);
        assert_scene_covers_everything(&s);
        let snap = save(s.world);
        let at_save = readback(&s);
        run(&s, SAVE_AT..SAVE_AT + MORE);
        let (first, first_state) = (readback(&s), save(s.world));
        assert_ne!(first, at_save, "the scene moves after the snapshot");
        ok(load(s.world, &snap));
        assert_eq!(readback(&s), at_save, "{threads} thread(s): the load restores what the host read at the save");
        assert_eq!(save(s.world), snap, "{threads} thread(s): saving right after a load gives the same bytes");
        run(&s, SAVE_AT..SAVE_AT + MORE);
        assert_eq!(readback(&s), first, "{threads} thread(s): 1000 steps after the load differ from 1000 steps after the save");
        assert_eq!(save(s.world), first_state, "{threads} thread(s): the state 1000 steps on differs");
        hashes.push(first);
        ok(sinew_world_destroy(s.world));
    }
    assert_eq!(hashes[0], hashes[1], "one and two threads differ");
}

#[test]
fn a_second_world_built_by_the_same_calls_takes_the_snapshot_and_continues_identically() {
    // The networked-rollback case: the peer's world was built by the same calls in the same
    // order, but it is somewhere else in time (here 100 frames behind) and on another thread
    // count; its handles have other serials.
    let a = build(1);
    run(&a, 0..SAVE_AT);
    let snap = save(a.world);
    run(&a, SAVE_AT..SAVE_AT + MORE);
    let expected = readback(&a);
    let b = build(2);
    run(&b, 0..SAVE_AT - 100);
    ok(load(b.world, &snap));
    run(&b, SAVE_AT..SAVE_AT + MORE);
    assert_eq!(readback(&b), expected, "the second world continued differently");
    // The snapshots differ only in the serials of the handles (process-wide counters): each
    // loads into the other world, and then both read back the same.
    let (sa, sb) = (save(a.world), save(b.world));
    assert_eq!(sa.len(), sb.len());
    ok(load(b.world, &sa));
    ok(load(a.world, &sb));
    assert_eq!(readback(&a), expected);
    assert_eq!(readback(&b), expected);
    ok(sinew_world_destroy(a.world));
    ok(sinew_world_destroy(b.world));
}

/// A small world (two short ropes, a ragdoll of two bones, a collider) whose snapshot is a
/// few hundred bytes.
fn small() -> (SinewWorld, SinewBody, SinewRagdoll) {
    let w = create_world(&world_desc());
    let pts: Vec<SinewVec3> = (0..4).map(|i| v3(i as f32 * 0.1, 1.0, 0.0)).collect();
    let mut rd = rope_desc();
    rd.points = pts.as_ptr();
    rd.point_count = pts.len();
    rd.pin_indices = [0u32].as_ptr();
    rd.pin_count = 1;
    let rope = create_rope(w, &rd);
    let r = create_ragdoll(w, &ragdoll_settings(), &chain_bones(v3(1.0, 1.0, 0.0), 2));
    create_collider(w, &collider_desc());
    for _ in 0..10 {
        ok(sinew_world_step(w, DT));
    }
    (w, rope, r)
}

fn refused(r: SinewResult, code: SinewResult, what: &str) -> String {
    assert_eq!(r, code, "{what}: {}", last_error());
    let m = last_error();
    assert!(m.contains("nothing was changed") || code != SINEW_INVALID_ARGUMENT, "{what}: the message says nothing changed: {m}");
    m
}

#[test]
fn every_flipped_byte_and_every_truncation_is_refused_and_changes_nothing() {
    let (w, _, _) = small();
    let snap = save(w);
    assert!(snap.len() < 2048, "a small snapshot: {} bytes", snap.len());
    println!("{} bytes, each flipped three ways", snap.len());
    for _ in 0..3 {
        ok(sinew_world_step(w, DT));
    }
    let before = save(w);
    let mut bad = snap.clone();
    for i in 0..snap.len() {
        for flip in [0x01u8, 0x80, 0xFF] {
            bad[i] ^= flip;
            let r = load(w, &bad);
            assert_eq!(r, SINEW_INVALID_ARGUMENT, "byte {i} ^ {flip:#x} was accepted");
            bad[i] ^= flip;
        }
    }
    let m = { let mut b = snap.clone(); b[snap.len() / 2] ^= 4; load(w, &b); last_error() };
    assert!(m.contains("checksum"), "a flipped byte in the state is a checksum error: {m}");
    for n in 0..snap.len() {
        refused(load(w, &snap[..n]), SINEW_INVALID_ARGUMENT, &format!("truncated to {n} bytes"));
    }
    let mut longer = snap.clone();
    longer.push(0);
    refused(load(w, &longer), SINEW_INVALID_ARGUMENT, "one byte too many");
    assert_eq!(save(w), before, "a refused load changed the world");
    ok(load(w, &snap));
    ok(sinew_world_destroy(w));
}

/// Re-seals a snapshot whose bytes were edited (the trailer is the CRC-32 of the rest): to
/// test the checks behind the checksum.
fn reseal(b: &mut [u8]) {
    let n = b.len();
    let crc = sinew::state::crc32(&b[..n - 4]);
    b[n - 4..].copy_from_slice(&crc.to_le_bytes());
}

#[test]
fn a_snapshot_of_another_world_or_version_is_refused_with_its_reason() {
    let (w, rope, r) = small();
    let snap = save(w);
    let before = save(w);
    // Header fields, each with a valid checksum.
    for (word, what) in [(0usize, "not a Sinew snapshot"), (1, "format version"), (2, "ABI version")] {
        let mut b = snap.clone();
        b[4 * word] ^= 1;
        reseal(&mut b);
        let m = refused(load(w, &b), SINEW_INVALID_ARGUMENT, what);
        assert!(m.contains(what), "{what}: {m}");
    }
    // A different object set: one body more, one fewer, another particle count.
    let (w2, _, _) = small();
    let pts = [v3(0.0, 2.0, 0.0), v3(0.1, 2.0, 0.0), v3(0.2, 2.0, 0.0)];
    let mut rd = rope_desc();
    rd.points = pts.as_ptr();
    rd.point_count = 3;
    let extra = create_rope(w2, &rd);
    let theirs = save(w2);
    let m = refused(load(w2, &snap), SINEW_INVALID_ARGUMENT, "one body more");
    assert!(m.contains("body count"), "{m}");
    assert_eq!(save(w2), theirs);
    let m = refused(load(w, &theirs), SINEW_INVALID_ARGUMENT, "one body fewer");
    assert!(m.contains("body count"), "{m}");
    ok(sinew_body_destroy(extra));
    ok(sinew_world_destroy(w2));
    let w3 = create_world(&world_desc());
    let pts5: Vec<SinewVec3> = (0..5).map(|i| v3(i as f32 * 0.1, 1.0, 0.0)).collect();
    rd.points = pts5.as_ptr();
    rd.point_count = 5;
    create_rope(w3, &rd);
    create_ragdoll(w3, &ragdoll_settings(), &chain_bones(v3(1.0, 1.0, 0.0), 2));
    create_collider(w3, &collider_desc());
    let m = refused(load(w3, &snap), SINEW_INVALID_ARGUMENT, "another particle count");
    assert!(m.contains("particle count"), "{m}");
    ok(sinew_world_destroy(w3));
    // A ragdoll's or body's own snapshot is not a world's.
    let mut n = 0usize;
    ok(sinew_body_save_state(rope, std::ptr::null_mut(), 0, &mut n));
    let mut own = vec![0u8; n];
    ok(sinew_body_save_state(rope, own.as_mut_ptr(), n, &mut n));
    let m = refused(load(w, &own), SINEW_INVALID_ARGUMENT, "a body's snapshot into a world");
    assert!(m.contains("what the snapshot holds"), "{m}");
    let m = refused(sinew_ragdoll_load_state(r, own.as_ptr(), own.len()), SINEW_INVALID_ARGUMENT, "a body's snapshot into a ragdoll");
    assert!(m.contains("what the snapshot holds"), "{m}");
    assert_eq!(save(w), before, "a refused load changed the world");
    ok(sinew_world_destroy(w));
}

#[test]
fn a_body_torn_since_the_snapshot_refuses_it() {
    let w = create_world(&world_desc());
    let mut gd = grid_desc();
    gd.columns = 6;
    gd.rows = 6;
    gd.spacing = 0.05;
    let cloth = create_grid(w, &gd);
    let mut d = dynamics();
    d.tear_threshold = 0.3;
    ok(sinew_body_set_dynamics(cloth, &d));
    ok(sinew_world_step(w, DT));
    let snap = save(w);
    for f in 0..30 {
        let pull = [v3(0.04 * f as f32, 0.3, 0.5)];
        ok(sinew_body_set_pin_targets(cloth, [35u32].as_ptr(), 1, pull.as_ptr(), 1));
        ok(sinew_world_step(w, DT));
    }
    assert!(info(cloth).topology_version > 0, "the cloth tore");
    let before = save(w);
    let m = refused(load(w, &snap), SINEW_INVALID_ARGUMENT, "torn since");
    assert!(m.contains("torn since"), "{m}");
    assert_eq!(save(w), before);
    ok(sinew_world_destroy(w));
}

#[test]
fn the_size_query_and_a_short_buffer_and_a_busy_world() {
    let (w, rope, r) = small();
    let mut n = 0usize;
    ok(sinew_world_save_state(w, std::ptr::null_mut(), 0, &mut n));
    assert!(n > 16);
    let mut buf = vec![0xAAu8; n];
    let mut reported = 0usize;
    refused(sinew_world_save_state(w, buf.as_mut_ptr(), n - 1, &mut reported), SINEW_BUFFER_TOO_SMALL, "one byte short");
    assert_eq!(reported, n, "a short buffer learns the size it needs");
    assert!(buf.iter().all(|&b| b == 0xAA), "nothing was written into the short buffer");
    assert!(last_error().contains(&n.to_string()), "{}", last_error());
    refused(sinew_world_save_state(w, std::ptr::null_mut(), 5, &mut reported), SINEW_NULL_POINTER, "null buffer, capacity 5");
    refused(sinew_world_save_state(w, buf.as_mut_ptr(), n, std::ptr::null_mut()), SINEW_NULL_POINTER, "null out_size");
    refused(sinew_world_load_state(w, std::ptr::null(), 3), SINEW_NULL_POINTER, "null data");
    let snap = save(w);
    ok(sinew_world_step_begin(w, DT));
    refused(load(w, &snap), SINEW_BUSY, "load during an asynchronous step");
    refused(sinew_world_save_state(w, buf.as_mut_ptr(), n, &mut reported), SINEW_BUSY, "save during an asynchronous step");
    refused(sinew_body_load_state(rope, snap.as_ptr(), snap.len()), SINEW_BUSY, "body load during an asynchronous step");
    ok(sinew_world_step_end(w));
    ok(load(w, &snap));
    // Stale handles.
    ok(sinew_ragdoll_destroy(r));
    refused(sinew_ragdoll_save_state(r, buf.as_mut_ptr(), n, &mut reported), SINEW_INVALID_HANDLE, "destroyed ragdoll");
    refused(load(w, &snap), SINEW_INVALID_ARGUMENT, "the ragdoll is gone");
    ok(sinew_world_destroy(w));
    refused(load(w, &snap), SINEW_INVALID_HANDLE, "destroyed world");
}

#[test]
fn one_body_and_one_ragdoll_restore_alone() {
    let (w, rope, r) = small();
    let mut n = 0usize;
    ok(sinew_body_save_state(rope, std::ptr::null_mut(), 0, &mut n));
    let mut body_snap = vec![0u8; n];
    ok(sinew_body_save_state(rope, body_snap.as_mut_ptr(), n, &mut n));
    ok(sinew_ragdoll_save_state(r, std::ptr::null_mut(), 0, &mut n));
    let mut rag_snap = vec![0u8; n];
    ok(sinew_ragdoll_save_state(r, rag_snap.as_mut_ptr(), n, &mut n));
    let (rope_then, rag_then) = (read_positions(rope), pose(r));
    for _ in 0..20 {
        ok(sinew_world_step(w, DT));
    }
    assert_ne!(read_positions(rope).iter().map(|p| p.y.to_bits()).collect::<Vec<_>>(), rope_then.iter().map(|p| p.y.to_bits()).collect::<Vec<_>>());
    ok(sinew_body_load_state(rope, body_snap.as_ptr(), body_snap.len()));
    ok(sinew_ragdoll_load_state(r, rag_snap.as_ptr(), rag_snap.len()));
    let bits = |v: &[SinewVec3]| v.iter().flat_map(|p| [p.x.to_bits(), p.y.to_bits(), p.z.to_bits()]).collect::<Vec<_>>();
    assert_eq!(bits(&read_positions(rope)), bits(&rope_then));
    assert_eq!(bits(&pose(r).0), bits(&rag_then.0));
    ok(sinew_world_destroy(w));
}

#[test]
fn a_forged_snapshot_with_a_valid_checksum_cannot_break_the_world() {
    // The checksum stops accidents, not forgery; behind it every length, index, flag and
    // float is checked too. Each word of a small snapshot set to a NaN pattern, to 1.7e38 and
    // to a huge count, resealed: either refused (changing nothing) or loaded; then 5 steps
    // succeed and everything reads back finite.
    let (w, rope, r) = small();
    let snap = save(w);
    let (mut refused_count, mut loaded) = (0, 0);
    for k in 4..snap.len() / 4 - 1 {
        for word in [0xFFFF_FFFFu32, 0x7F00_0000, 0x0001_0000] {
            let mut b = snap.clone();
            b[4 * k..4 * k + 4].copy_from_slice(&word.to_le_bytes());
            reseal(&mut b);
            let before = save(w);
            match load(w, &b) {
                SINEW_OK => loaded += 1,
                SINEW_INVALID_ARGUMENT => {
                    refused_count += 1;
                    assert_eq!(save(w), before, "word {k} = {word:#x}: a refused load changed the world");
                    continue;
                }
                other => panic!("word {k} = {word:#x}: {other:?}: {}", last_error()),
            }
            for _ in 0..5 {
                let res = sinew_world_step(w, DT);
                assert_eq!(res, SINEW_OK, "word {k} = {word:#x}: the step after the load: {}", last_error());
            }
            let p = read_positions(rope);
            assert!(p.iter().all(|v| v.x.is_finite() && v.y.is_finite() && v.z.is_finite()), "word {k} = {word:#x}: the rope reads back non-finite");
            let (bp, bq) = pose(r);
            assert!(bp.iter().all(|v| v.x.is_finite() && v.y.is_finite() && v.z.is_finite()) && bq.iter().all(|q| q.w.is_finite()), "word {k} = {word:#x}: the ragdoll reads back non-finite");
            ok(load(w, &snap));
        }
    }
    println!("forged words: {refused_count} refused, {loaded} loaded and stepped");
}

/// The anchor's transform at frame `f`: a vehicle accelerating at 3 m/s² along x, turning
/// slowly about y.
fn anchor_at(f: u32) -> SinewMat4 {
    let t = f as f32 * DT;
    let (s, c) = (0.2 * t).sin_cos();
    let x = 1.5 * t * t;
    SinewMat4 { m: [c, 0.0, -s, 0.0, 0.0, 1.0, 0.0, 0.0, s, 0.0, c, 0.0, x, 0.0, 0.0, 1.0] }
}

#[test]
fn an_anchored_body_and_ragdoll_continue_with_the_same_bits() {
    // A chain and a ragdoll riding in a moving anchor (`sinew_body_set_anchor`,
    // `sinew_ragdoll_set_anchor`): what the next frame carries them by comes from where the
    // anchor was at the previous frame, so the snapshot must hold it.
    let w = create_world(&world_desc());
    let chain = hanging_chain(w, v3(0.0, 2.0, 0.0), 8, 0.1, 0.01, 1e-6, 0.01);
    let r = create_ragdoll(w, &ragdoll_settings(), &chain_bones(v3(0.5, 1.5, 0.0), 3));
    let frame = |f: u32| {
        ok(sinew_body_set_anchor(chain, &anchor_at(f), 0.5));
        ok(sinew_ragdoll_set_anchor(r, &anchor_at(f), 0.25));
        ok(sinew_world_step(w, DT));
    };
    let hash = || {
        let mut h = 0xcbf29ce484222325u64;
        for p in read_positions(chain) {
            [p.x, p.y, p.z].iter().for_each(|v| fnv(&mut h, v.to_bits()));
        }
        let (p, q) = pose(r);
        p.iter().for_each(|v| [v.x, v.y, v.z].iter().for_each(|x| fnv(&mut h, x.to_bits())));
        q.iter().for_each(|v| [v.x, v.y, v.z, v.w].iter().for_each(|x| fnv(&mut h, x.to_bits())));
        h
    };
    (0..60).for_each(frame);
    let snap = save(w);
    (60..120).for_each(frame);
    let first = hash();
    ok(load(w, &snap));
    (60..120).for_each(frame);
    assert_eq!(hash(), first, "60 frames in the anchor after the load differ from 60 frames after the save");
    // Taken out of the anchor after the save: the load puts it back.
    ok(sinew_body_clear_anchor(chain));
    ok(sinew_ragdoll_clear_anchor(r));
    ok(load(w, &snap));
    (60..120).for_each(frame);
    assert_eq!(hash(), first, "an anchor cleared after the save is not restored by the load");
    ok(sinew_world_destroy(w));
}
