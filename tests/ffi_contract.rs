//! The C ABI contract on bad input: every class gets its own code and a readable message,
//! outputs are untouched on failure, the body is unchanged and the world keeps stepping.

mod common;
use common::*;

struct Scene {
    world: SinewWorld,
    cloth: SinewBody,
}

fn scene() -> Scene {
    let mut wd = world_desc();
    wd.thread_count = 2;
    let world = create_world(&wd);
    let mut gd = grid_desc();
    gd.columns = 6;
    gd.rows = 5;
    let cloth = create_grid(world, &gd);
    ok(sinew_world_step(world, 1.0 / 60.0));
    Scene { world, cloth }
}

fn snapshot(b: SinewBody) -> (Vec<SinewVec3>, SinewBodyInfo, SinewMaterial) {
    let mut info = SinewBodyInfo::default();
    ok(sinew_body_get_info(b, &mut info));
    let mut m = std::mem::MaybeUninit::uninit();
    ok(sinew_body_get_material(b, m.as_mut_ptr()));
    (read_positions(b), info, unsafe { m.assume_init() })
}

/// Runs a call that must fail with `code`; checks the message, that the body is unchanged
/// and that the world still steps afterwards.
#[track_caller]
fn expect_failure(s: &Scene, code: SinewResult, call: impl FnOnce() -> SinewResult) -> String {
    let before = snapshot(s.cloth);
    let got = call();
    let msg = last_error();
    assert_eq!(got, code, "message: {msg}");
    let name = format!("{code:?}");
    assert!(msg.starts_with(&name) && msg.len() > name.len() + 5, "message should name {name} and say why: {msg:?}");
    assert_eq!(snapshot(s.cloth), before, "a failing call changed the body");
    ok(sinew_world_step(s.world, 1.0 / 60.0));
    msg
}

#[test]
fn null_pointers() {
    let s = scene();
    let mut out = vec![SinewVec3::default(); 30];
    expect_failure(&s, SINEW_NULL_POINTER, || sinew_world_create(std::ptr::null(), &mut SinewWorld::default()));
    let wd = world_desc();
    expect_failure(&s, SINEW_NULL_POINTER, || sinew_world_create(&wd, std::ptr::null_mut()));
    let m = expect_failure(&s, SINEW_NULL_POINTER, || sinew_body_read_positions(s.cloth, std::ptr::null_mut(), 30));
    assert!(m.contains("out_positions"), "{m}");
    expect_failure(&s, SINEW_NULL_POINTER, || sinew_body_set_pin_targets(s.cloth, std::ptr::null(), 1, out.as_ptr(), 1));
    expect_failure(&s, SINEW_NULL_POINTER, || sinew_body_teleport(s.cloth, std::ptr::null()));
    expect_failure(&s, SINEW_NULL_POINTER, || sinew_body_get_bounds(s.cloth, out.as_mut_ptr(), std::ptr::null_mut()));
    expect_failure(&s, SINEW_NULL_POINTER, || sinew_cloth_create_grid(s.world, std::ptr::null(), &mut SinewBody::default()));
    let mut md = mesh_desc();
    // The default mesh has geometry (it works as passed); a null buffer with a count is refused.
    md.positions = std::ptr::null();
    md.vertex_count = 3;
    md.index_count = 3;
    expect_failure(&s, SINEW_NULL_POINTER, || sinew_cloth_create_mesh(s.world, &md, &mut SinewBody::default()));
    expect_failure(&s, SINEW_NULL_POINTER, || sinew_world_desc_default(std::ptr::null_mut()));
    let m = expect_failure(&s, SINEW_NULL_POINTER, || sinew_material_preset(SinewMaterialPreset::SINEW_MATERIAL_DENIM as u32, std::ptr::null_mut()));
    assert!(m.contains("out_material"), "{m}");
    ok(sinew_world_destroy(s.world));
}

#[test]
fn short_buffers_and_mismatched_lengths() {
    let s = scene();
    let mut out = vec![SinewVec3 { x: 7.0, y: 7.0, z: 7.0 }; 29];
    expect_failure(&s, SINEW_BUFFER_TOO_SMALL, || sinew_body_read_positions(s.cloth, out.as_mut_ptr(), 29));
    expect_failure(&s, SINEW_BUFFER_TOO_SMALL, || sinew_body_read_normals(s.cloth, out.as_mut_ptr(), 29));
    assert!(out.iter().all(|v| v.x == 7.0), "nothing is written on failure");
    let idx = [0u32, 1];
    let t = [v3(0.0, 0.0, 0.0)];
    expect_failure(&s, SINEW_INVALID_ARGUMENT, || sinew_body_set_pin_targets(s.cloth, idx.as_ptr(), 2, t.as_ptr(), 1));
    // A length no buffer can have.
    expect_failure(&s, SINEW_TOO_LARGE, || sinew_body_pin(s.cloth, idx.as_ptr(), usize::MAX));
    ok(sinew_world_destroy(s.world));
}

#[test]
fn out_of_range_indices() {
    let s = scene();
    let idx = [3u32, 30];
    let t = [v3(0.0, 0.0, 0.0), v3(1.0, 0.0, 0.0)];
    let m = expect_failure(&s, SINEW_OUT_OF_RANGE, || sinew_body_set_pin_targets(s.cloth, idx.as_ptr(), 2, t.as_ptr(), 2));
    assert!(m.contains("30"), "{m}");
    expect_failure(&s, SINEW_OUT_OF_RANGE, || sinew_body_pin(s.cloth, idx.as_ptr(), 2));
    expect_failure(&s, SINEW_OUT_OF_RANGE, || sinew_body_unpin(s.cloth, idx.as_ptr(), 2));
    let mut gd = grid_desc();
    let pins = [0u32, 256];
    gd.pin_mode = SinewPinMode::SINEW_PIN_LIST as u32;
    gd.pin_indices = pins.as_ptr();
    gd.pin_count = 2;
    expect_failure(&s, SINEW_OUT_OF_RANGE, || sinew_cloth_create_grid(s.world, &gd, &mut SinewBody::default()));
    let pos = [v3(0.0, 0.0, 0.0), v3(1.0, 0.0, 0.0), v3(0.0, 0.0, 1.0)];
    let tri = [0u32, 1, 3];
    let mut md = mesh_desc();
    md.positions = pos.as_ptr();
    md.vertex_count = 3;
    md.indices = tri.as_ptr();
    md.index_count = 3;
    expect_failure(&s, SINEW_OUT_OF_RANGE, || sinew_cloth_create_mesh(s.world, &md, &mut SinewBody::default()));
    ok(sinew_world_destroy(s.world));
}

#[test]
fn non_finite_inputs() {
    let s = scene();
    let idx = [0u32];
    let t = [v3(f32::NAN, 0.0, 0.0)];
    expect_failure(&s, SINEW_NON_FINITE, || sinew_body_set_pin_targets(s.cloth, idx.as_ptr(), 1, t.as_ptr(), 1));
    expect_failure(&s, SINEW_NON_FINITE, || sinew_world_step(s.world, f32::NAN));
    expect_failure(&s, SINEW_NON_FINITE, || sinew_world_step(s.world, f32::INFINITY));
    let mut m = SinewMat4 { m: [0.0; 16] };
    m.m[0] = 1.0;
    m.m[5] = 1.0;
    m.m[10] = 1.0;
    m.m[15] = 1.0;
    m.m[12] = f32::INFINITY;
    expect_failure(&s, SINEW_NON_FINITE, || sinew_body_teleport(s.cloth, &m));
    let mut gd = grid_desc();
    gd.origin.y = f32::NAN;
    expect_failure(&s, SINEW_NON_FINITE, || sinew_cloth_create_grid(s.world, &gd, &mut SinewBody::default()));
    let mut gd = grid_desc();
    gd.material.stretch_compliance = f32::NAN;
    expect_failure(&s, SINEW_NON_FINITE, || sinew_cloth_create_grid(s.world, &gd, &mut SinewBody::default()));
    let mut mat = std::mem::MaybeUninit::uninit();
    ok(sinew_material_default(mat.as_mut_ptr()));
    let mut mat = unsafe { mat.assume_init() };
    mat.damping = f32::NAN;
    expect_failure(&s, SINEW_NON_FINITE, || sinew_body_set_material(s.cloth, &mat));
    let pts = [v3(0.0, 0.0, 0.0), v3(f32::NAN, 1.0, 0.0)];
    let mut rd = rope_desc();
    rd.points = pts.as_ptr();
    rd.point_count = 2;
    expect_failure(&s, SINEW_NON_FINITE, || sinew_rope_create(s.world, &rd, &mut SinewBody::default()));
    expect_failure(&s, SINEW_NON_FINITE, || sinew_world_set_gravity(s.world, v3(0.0, f32::NEG_INFINITY, 0.0)));
    ok(sinew_world_destroy(s.world));
}

#[test]
fn stale_wrong_kind_and_foreign_handles() {
    let s = scene();
    let mut gd = grid_desc();
    gd.columns = 3;
    gd.rows = 3;
    let doomed = create_grid(s.world, &gd);
    ok(sinew_body_destroy(doomed));
    expect_failure(&s, SINEW_INVALID_HANDLE, || sinew_body_destroy(doomed));
    let mut out = vec![SinewVec3::default(); 9];
    expect_failure(&s, SINEW_INVALID_HANDLE, || sinew_body_read_positions(doomed, out.as_mut_ptr(), 9));
    // A world handle where a body is expected, and the reverse.
    expect_failure(&s, SINEW_INVALID_HANDLE, || sinew_body_destroy(SinewBody { id: s.world.id }));
    expect_failure(&s, SINEW_INVALID_HANDLE, || sinew_world_step(SinewWorld { id: s.cloth.id }, 0.01));
    expect_failure(&s, SINEW_INVALID_HANDLE, || sinew_world_step(SinewWorld { id: 0 }, 0.01));
    expect_failure(&s, SINEW_INVALID_HANDLE, || sinew_body_destroy(SinewBody { id: u64::MAX }));
    // A body of a destroyed world stays invalid even when a new world takes its slot.
    let other = create_world(&world_desc());
    let orphan = create_grid(other, &gd);
    ok(sinew_world_destroy(other));
    let _reuse = create_world(&world_desc());
    expect_failure(&s, SINEW_INVALID_HANDLE, || sinew_body_read_positions(orphan, out.as_mut_ptr(), 9));
    expect_failure(&s, SINEW_INVALID_HANDLE, || sinew_world_destroy(other));
    ok(sinew_world_destroy(_reuse));
    ok(sinew_world_destroy(s.world));
    assert_eq!(sinew_world_destroy(s.world), SINEW_INVALID_HANDLE);
}

#[test]
fn zero_negative_and_absurd_sizes() {
    let s = scene();
    let mut gd = grid_desc();
    gd.columns = 0;
    expect_failure(&s, SINEW_INVALID_ARGUMENT, || sinew_cloth_create_grid(s.world, &gd, &mut SinewBody::default()));
    let mut gd = grid_desc();
    gd.spacing = -0.1;
    expect_failure(&s, SINEW_INVALID_ARGUMENT, || sinew_cloth_create_grid(s.world, &gd, &mut SinewBody::default()));
    let mut gd = grid_desc();
    gd.spacing = 0.0;
    expect_failure(&s, SINEW_INVALID_ARGUMENT, || sinew_cloth_create_grid(s.world, &gd, &mut SinewBody::default()));
    let mut gd = grid_desc();
    gd.pin_mode = 99;
    expect_failure(&s, SINEW_INVALID_ARGUMENT, || sinew_cloth_create_grid(s.world, &gd, &mut SinewBody::default()));
    let mut gd = grid_desc();
    gd.columns = 100_000;
    gd.rows = 100_000;
    let m = expect_failure(&s, SINEW_TOO_LARGE, || sinew_cloth_create_grid(s.world, &gd, &mut SinewBody::default()));
    assert!(m.contains("100000"), "{m}");
    expect_failure(&s, SINEW_INVALID_ARGUMENT, || sinew_world_step(s.world, -0.016));
    let mut mat = std::mem::MaybeUninit::uninit();
    ok(sinew_material_default(mat.as_mut_ptr()));
    let mut mat = unsafe { mat.assume_init() };
    mat.particle_mass = 0.0;
    expect_failure(&s, SINEW_INVALID_ARGUMENT, || sinew_body_set_material(s.cloth, &mat));
    let mut wd = world_desc();
    wd.substeps = 0;
    expect_failure(&s, SINEW_INVALID_ARGUMENT, || sinew_world_create(&wd, &mut SinewWorld::default()));
    let mut wd = world_desc();
    wd.fixed_rate_hz = 0.0;
    expect_failure(&s, SINEW_INVALID_ARGUMENT, || sinew_world_create(&wd, &mut SinewWorld::default()));
    let mut wd = world_desc();
    wd.thread_count = 100_000;
    expect_failure(&s, SINEW_INVALID_ARGUMENT, || sinew_world_create(&wd, &mut SinewWorld::default()));
    let pts = [v3(0.0, 0.0, 0.0)];
    let mut rd = rope_desc();
    rd.points = pts.as_ptr();
    rd.point_count = 1;
    expect_failure(&s, SINEW_INVALID_ARGUMENT, || sinew_rope_create(s.world, &rd, &mut SinewBody::default()));
    // A huge step is clamped to max_steps_per_frame (slow motion), not an error or a hang.
    ok(sinew_world_step(s.world, 1.0e9));
    let mut st = SinewWorldStats::default();
    ok(sinew_world_get_stats(s.world, &mut st));
    assert_eq!(st.last_frame_steps, world_desc().max_steps_per_frame);
    ok(sinew_world_destroy(s.world));
}

#[test]
fn calls_during_an_async_step_are_busy() {
    let s = scene();
    let before = read_positions(s.cloth);
    ok(sinew_world_step_begin(s.world, 1.0 / 60.0));
    let mut out = vec![SinewVec3::default(); 30];
    let mut stats = SinewWorldStats::default();
    let idx = [0u32];
    for r in [
        sinew_body_read_positions(s.cloth, out.as_mut_ptr(), 30),
        sinew_body_pin(s.cloth, idx.as_ptr(), 1),
        sinew_world_step(s.world, 0.01),
        sinew_world_step_begin(s.world, 0.01),
        sinew_world_get_stats(s.world, &mut stats),
        sinew_body_destroy(s.cloth),
        sinew_world_destroy(s.world),
    ] {
        assert_eq!(r, SINEW_BUSY, "{}", last_error());
        assert!(last_error().starts_with("SINEW_BUSY"));
    }
    ok(sinew_world_step_end(s.world));
    assert_eq!(sinew_world_step_end(s.world), SINEW_INVALID_ARGUMENT, "end without begin");
    let after = read_positions(s.cloth);
    assert_ne!(before, after, "the async step ran");
    ok(sinew_world_step(s.world, 1.0 / 60.0));
    ok(sinew_world_destroy(s.world));
}

#[test]
fn async_step_equals_sync_step_bit_for_bit() {
    let a = scene();
    let b = scene();
    for _ in 0..20 {
        ok(sinew_world_step(a.world, 1.0 / 60.0));
        ok(sinew_world_step_begin(b.world, 1.0 / 60.0));
        ok(sinew_world_step_end(b.world));
    }
    assert_eq!(read_positions(a.cloth), read_positions(b.cloth));
    ok(sinew_world_destroy(a.world));
    ok(sinew_world_destroy(b.world));
}

// Needs the library's `debug-panic` feature (scripts/test.sh passes `--features debug-panic`).
#[cfg(feature = "debug-panic")]
#[test]
fn a_panic_is_caught_and_the_library_keeps_working() {
    let s = scene();
    let m = expect_failure(&s, SINEW_PANIC, || sinew_debug_trigger_panic());
    assert!(m.contains("deliberate panic"), "{m}");
    ok(sinew_world_step(s.world, 1.0 / 60.0));
    ok(sinew_world_destroy(s.world));
}

/// Without the feature the panic test cannot run; it shows up as ignored instead of vanishing.
#[cfg(not(feature = "debug-panic"))]
#[test]
#[ignore = "needs `--features debug-panic` (sinew_debug_trigger_panic)"]
fn a_panic_is_caught_and_the_library_keeps_working() {
    panic!("build with --features debug-panic to run this test");
}

#[test]
fn error_messages_are_per_thread_and_outputs_untouched() {
    let s = scene();
    assert_eq!(sinew_world_step(s.world, f32::NAN), SINEW_NON_FINITE);
    let here = last_error();
    let there = std::thread::spawn(|| {
        let fresh = last_error();
        assert_eq!(sinew_body_destroy(SinewBody { id: 1 }), SINEW_INVALID_HANDLE);
        (fresh, last_error())
    })
    .join()
    .unwrap();
    assert_eq!(there.0, "", "a thread with no failure has an empty message");
    assert!(there.1.starts_with("SINEW_INVALID_HANDLE"));
    assert_eq!(last_error(), here, "another thread's failure does not overwrite this one");
    let mut out = SinewBody { id: 12345 };
    let gd = SinewClothGridDesc { columns: 1, ..grid_desc() };
    assert_eq!(sinew_cloth_create_grid(s.world, &gd, &mut out), SINEW_INVALID_ARGUMENT);
    assert_eq!(out.id, 12345, "out-pointer written on failure");
    ok(sinew_world_destroy(s.world));
}

#[test]
fn abi_version_matches_the_header() {
    let header = include_str!("../include/sinew.h");
    let line = header.lines().find(|l| l.starts_with("#define SINEW_ABI_VERSION")).expect("version in header");
    let v: u32 = line.split_whitespace().last().unwrap().parse().unwrap();
    assert_eq!(sinew_abi_version(), v);
}

/// The header is an allow-list: its only macros are its include guard, the ABI version and the
/// debug-panic switch, so no crate-internal constant (such as `NO_ANCHOR`) reaches it.
#[test]
fn header_defines_only_the_abi_macros() {
    let header = include_str!("../include/sinew.h");
    let defines: Vec<&str> = header.lines().filter_map(|l| l.trim_start().strip_prefix("#define ")).collect();
    let names: Vec<&str> = defines.iter().map(|d| d.split_whitespace().next().unwrap()).collect();
    assert_eq!(names, ["SINEW_H", "SINEW_ABI_VERSION"], "{defines:?}");
    assert!(header.contains("#if defined(SINEW_DEBUG_PANIC)\n"), "sinew_debug_trigger_panic is declared only under SINEW_DEBUG_PANIC");
    assert!(!header.contains("NO_ANCHOR"));
}

/// One rule for every output buffer (src/ffi/guard.rs): null goes only with capacity 0, and a
/// capacity below the count is SINEW_BUFFER_TOO_SMALL, so (null, 0) succeeds exactly when
/// there is nothing to write.
#[test]
fn one_buffer_rule_for_every_readback() {
    let s = scene();
    // Each call gets its own buffer of `n` elements (or null), alive for the whole call.
    fn v3s(n: usize, null: bool, f: impl FnOnce(*mut SinewVec3) -> SinewResult) -> SinewResult {
        let mut buf = vec![SinewVec3::default(); n];
        f(if null { std::ptr::null_mut() } else { buf.as_mut_ptr() })
    }
    fn u32s(n: usize, null: bool, f: impl FnOnce(*mut u32) -> SinewResult) -> SinewResult {
        let mut buf = vec![0u32; n];
        f(if null { std::ptr::null_mut() } else { buf.as_mut_ptr() })
    }
    type Read = fn(SinewBody, usize, bool) -> SinewResult;
    let reads: [(&str, Read); 4] = [
        ("read_positions", |b, n, null| v3s(n, null, |p| sinew_body_read_positions(b, p, n))),
        ("read_normals", |b, n, null| v3s(n, null, |p| sinew_body_read_normals(b, p, n))),
        ("read_indices", |b, n, null| u32s(n, null, |p| sinew_body_read_indices(b, p, n))),
        ("read_vertex_sources", |b, n, null| u32s(n, null, |p| sinew_body_read_vertex_sources(b, p, n))),
    ];
    for (name, read) in &reads {
        assert_eq!(read(s.cloth, 0, true), SINEW_BUFFER_TOO_SMALL, "{name}(null, 0) with something to write");
        assert_eq!(read(s.cloth, 30, true), SINEW_NULL_POINTER, "{name}(null, 30)");
        assert_eq!(read(s.cloth, 1, false), SINEW_BUFFER_TOO_SMALL, "{name}(buffer, 1)");
        assert!(last_error().contains("holds 1 elements"), "{name}: {}", last_error());
        assert_eq!(read(s.cloth, 1000, false), SINEW_OK, "{name}(buffer, 1000): a longer buffer is fine");
    }
    // A rope has no triangles: (null, 0) reads its zero indices.
    let pts = [v3(0.0, 0.0, 0.0), v3(0.1, 0.0, 0.0), v3(0.2, 0.0, 0.0)];
    let mut rd = rope_desc();
    rd.points = pts.as_ptr();
    rd.point_count = 3;
    let rope = create_rope(s.world, &rd);
    ok(sinew_body_read_indices(rope, std::ptr::null_mut(), 0));
    // Input slices: null with length 0 is empty, null with a length is SINEW_NULL_POINTER.
    ok(sinew_body_pin(s.cloth, std::ptr::null(), 0));
    assert_eq!(sinew_body_pin(s.cloth, std::ptr::null(), 1), SINEW_NULL_POINTER);
    ok(sinew_world_destroy(s.world));
}

/// A mode field or argument holds a `u32`; a value no enum variant has is refused, not
/// transmuted.
#[test]
fn unknown_enum_values_are_invalid_arguments() {
    let s = scene();
    let mut wd = world_desc();
    wd.kernel = SinewKernel::SINEW_KERNEL_AVX as u32 + 1;
    let m = expect_failure(&s, SINEW_INVALID_ARGUMENT, || sinew_world_create(&wd, &mut SinewWorld::default()));
    assert!(m.contains("unknown kernel 4"), "{m}");
    let mut wd = world_desc();
    wd.rigid_solver = SinewRigidSolver::SINEW_RIGID_PRECISE as u32 + 1;
    let m = expect_failure(&s, SINEW_INVALID_ARGUMENT, || sinew_world_create(&wd, &mut SinewWorld::default()));
    assert!(m.contains("unknown rigid_solver 2"), "{m}");
    let mut cd = collider_desc();
    for bad in [0, SinewShape::SINEW_SHAPE_BOX as u32 + 1, u32::MAX] {
        cd.shape = bad;
        let m = expect_failure(&s, SINEW_INVALID_ARGUMENT, || sinew_collider_create(s.world, &cd, &mut SinewCollider::default()));
        assert!(m.contains(&format!("unknown collider shape {bad}")), "{m}");
    }
    let mut gd = grid_desc();
    gd.pin_mode = SinewPinMode::SINEW_PIN_LIST as u32 + 1;
    expect_failure(&s, SINEW_INVALID_ARGUMENT, || sinew_cloth_create_grid(s.world, &gd, &mut SinewBody::default()));
    expect_failure(&s, SINEW_INVALID_ARGUMENT, || sinew_body_set_tethers(s.cloth, SinewTetherMode::SINEW_TETHER_GEODESIC as u32 + 1, 1.0));
    let mut sd = std::mem::MaybeUninit::uninit();
    ok(sinew_strands_desc_default(sd.as_mut_ptr()));
    let mut sd: SinewStrandsDesc = unsafe { sd.assume_init() };
    assert_eq!(sd.mode, SinewStrandsMode::SINEW_STRANDS_STRAIGHT as u32, "straight strands by default");
    sd.mode = SinewStrandsMode::SINEW_STRANDS_POINTS as u32 + 1;
    let m = expect_failure(&s, SINEW_INVALID_ARGUMENT, || sinew_strands_create(s.world, &sd, &mut SinewBody::default()));
    assert!(m.contains("unknown strands mode 2"), "{m}");
    // A preset no variant has: refused, and the output keeps what it held.
    for bad in [SinewMaterialPreset::SINEW_MATERIAL_FLESH as u32 + 1, u32::MAX] {
        let mut out = std::mem::MaybeUninit::uninit();
        ok(sinew_material_default(out.as_mut_ptr()));
        let mut out: SinewMaterial = unsafe { out.assume_init() };
        out.density = 123.0;
        let before = out;
        let m = expect_failure(&s, SINEW_INVALID_ARGUMENT, || sinew_material_preset(bad, &mut out));
        assert!(m.contains(&format!("unknown material preset {bad}")), "{m}");
        assert_eq!(out, before, "a refused preset wrote its output");
    }
    ok(sinew_world_destroy(s.world));
}

// ---- ragdolls: every new call's bad inputs (these need only the checks, not the rigid-body core) ----

/// The scene, plus a 3-bone ragdoll in its world.
fn ragdoll_scene() -> (Scene, SinewRagdoll) {
    let s = scene();
    let r = create_ragdoll(s.world, &ragdoll_settings(), &chain_bones(v3(0.0, 2.0, 0.0), 3));
    assert_eq!(bone_count(r), 3);
    (s, r)
}

#[test]
fn ragdoll_null_pointers() {
    let (s, r) = ragdoll_scene();
    let bones = chain_bones(v3(0.0, 2.0, 0.0), 3);
    let set = ragdoll_settings();
    let mut out = SinewRagdoll::default();
    let m = expect_failure(&s, SINEW_NULL_POINTER, || sinew_ragdoll_create(s.world, std::ptr::null(), bones.as_ptr(), 3, &mut out));
    assert!(m.contains("settings"), "{m}");
    let m = expect_failure(&s, SINEW_NULL_POINTER, || sinew_ragdoll_create(s.world, &set, std::ptr::null(), 3, &mut out));
    assert!(m.contains("bones"), "{m}");
    expect_failure(&s, SINEW_NULL_POINTER, || sinew_ragdoll_create(s.world, &set, bones.as_ptr(), 3, std::ptr::null_mut()));
    assert_eq!(out, SinewRagdoll::default(), "nothing written on failure");
    let h = SinewHumanoidBones { pelvis: v3(0.0, 1.0, 0.0), up: v3(0.0, 1.0, 0.0), forward: v3(0.0, 0.0, 1.0), total_mass: 20.0, ..unsafe { std::mem::zeroed() } };
    expect_failure(&s, SINEW_NULL_POINTER, || sinew_ragdoll_create_humanoid(s.world, std::ptr::null(), &set, &mut out));
    expect_failure(&s, SINEW_NULL_POINTER, || sinew_ragdoll_create_humanoid(s.world, &h, std::ptr::null(), &mut out));
    expect_failure(&s, SINEW_NULL_POINTER, || sinew_ragdoll_create_humanoid(s.world, &h, &set, std::ptr::null_mut()));
    expect_failure(&s, SINEW_NULL_POINTER, || sinew_humanoid_bone_descs(std::ptr::null(), std::ptr::null_mut(), 0));
    let m = expect_failure(&s, SINEW_NULL_POINTER, || sinew_humanoid_bone_descs(&h, std::ptr::null_mut(), 11));
    assert!(m.contains("out_bones"), "{m}");
    expect_failure(&s, SINEW_NULL_POINTER, || sinew_bone_desc_default(std::ptr::null_mut()));
    expect_failure(&s, SINEW_NULL_POINTER, || sinew_joint_desc_default(std::ptr::null_mut()));
    expect_failure(&s, SINEW_NULL_POINTER, || sinew_ragdoll_settings_default(std::ptr::null_mut()));
    expect_failure(&s, SINEW_NULL_POINTER, || sinew_humanoid_bones_default(std::ptr::null_mut()));
    expect_failure(&s, SINEW_NULL_POINTER, || sinew_ragdoll_get_bone_count(r, std::ptr::null_mut()));
    expect_failure(&s, SINEW_NULL_POINTER, || sinew_ragdoll_is_bone_kinematic(r, 0, std::ptr::null_mut()));
    expect_failure(&s, SINEW_NULL_POINTER, || sinew_ragdoll_is_asleep(r, std::ptr::null_mut()));
    let m = expect_failure(&s, SINEW_NULL_POINTER, || sinew_ragdoll_apply_impulse(r, v3(0.0, 0.0, 0.0), v3(1.0, 0.0, 0.0), std::ptr::null_mut()));
    assert!(m.contains("out_bone"), "{m}");
    let q = [QUAT_IDENTITY; 3];
    let p = [v3(0.0, 0.0, 0.0); 3];
    expect_failure(&s, SINEW_NULL_POINTER, || sinew_ragdoll_set_targets(r, std::ptr::null(), 3, q.as_ptr(), 3));
    expect_failure(&s, SINEW_NULL_POINTER, || sinew_ragdoll_set_targets(r, p.as_ptr(), 3, std::ptr::null(), 3));
    expect_failure(&s, SINEW_NULL_POINTER, || sinew_ragdoll_set_target_matrices(r, std::ptr::null(), 3));
    expect_failure(&s, SINEW_NULL_POINTER, || sinew_ragdoll_set_pose(r, std::ptr::null(), 3, q.as_ptr(), 3, 0));
    let mut qo = [QUAT_IDENTITY; 3];
    let mut po = [v3(0.0, 0.0, 0.0); 3];
    let mut mo = [SinewMat4 { m: [0.0; 16] }; 3];
    expect_failure(&s, SINEW_NULL_POINTER, || sinew_ragdoll_read_pose(r, std::ptr::null_mut(), 3, qo.as_mut_ptr(), 3));
    expect_failure(&s, SINEW_NULL_POINTER, || sinew_ragdoll_read_pose(r, po.as_mut_ptr(), 3, std::ptr::null_mut(), 3));
    expect_failure(&s, SINEW_NULL_POINTER, || sinew_ragdoll_read_matrices(r, std::ptr::null_mut(), 3));
    expect_failure(&s, SINEW_NULL_POINTER, || sinew_ragdoll_read_velocities(r, std::ptr::null_mut(), 3, po.as_mut_ptr(), 3));
    let one = [0u32];
    expect_failure(&s, SINEW_NULL_POINTER, || sinew_body_attach_to_ragdoll(s.cloth, r, std::ptr::null(), 1, one.as_ptr(), 1, p.as_ptr(), 1));
    expect_failure(&s, SINEW_NULL_POINTER, || sinew_body_attach_to_ragdoll(s.cloth, r, one.as_ptr(), 1, one.as_ptr(), 1, std::ptr::null(), 1));
    // Short buffers are refused before anything is read.
    let m = expect_failure(&s, SINEW_BUFFER_TOO_SMALL, || sinew_ragdoll_read_pose(r, po.as_mut_ptr(), 2, qo.as_mut_ptr(), 3));
    assert!(m.contains("holds 2 elements but the ragdoll has 3 bones"), "{m}");
    expect_failure(&s, SINEW_BUFFER_TOO_SMALL, || sinew_ragdoll_read_pose(r, po.as_mut_ptr(), 3, qo.as_mut_ptr(), 0));
    expect_failure(&s, SINEW_BUFFER_TOO_SMALL, || sinew_ragdoll_read_pose(r, std::ptr::null_mut(), 0, std::ptr::null_mut(), 0));
    expect_failure(&s, SINEW_BUFFER_TOO_SMALL, || sinew_ragdoll_read_matrices(r, mo.as_mut_ptr(), 1));
    expect_failure(&s, SINEW_BUFFER_TOO_SMALL, || sinew_ragdoll_read_velocities(r, po.as_mut_ptr(), 3, qo.as_mut_ptr().cast(), 0));
    let mut descs = vec![bone_desc(); 11];
    let m = expect_failure(&s, SINEW_BUFFER_TOO_SMALL, || sinew_humanoid_bone_descs(&h, descs.as_mut_ptr(), 10));
    assert!(m.contains("the humanoid template has 11 bones"), "{m}");
    assert!(mo.iter().all(|m| m.m == [0.0; 16]) && po.iter().all(|p| p.x == 0.0), "nothing written on failure");
    ok(sinew_world_destroy(s.world));
}

#[test]
fn ragdoll_descriptions_are_checked_bone_by_bone() {
    let (s, _r) = ragdoll_scene();
    let set = ragdoll_settings();
    let create = |bones: &[SinewBoneDesc], set: &SinewRagdollSettings| {
        let mut out = SinewRagdoll::default();
        let r = sinew_ragdoll_create(s.world, set, bones.as_ptr(), bones.len(), &mut out);
        assert_eq!(out, SinewRagdoll::default(), "out written on failure");
        r
    };
    let good = chain_bones(v3(0.0, 2.0, 0.0), 3);
    let bad = |f: &dyn Fn(&mut Vec<SinewBoneDesc>)| {
        let mut b = good.clone();
        f(&mut b);
        b
    };
    let cases: Vec<(SinewResult, &str, Vec<SinewBoneDesc>)> = vec![
        (SINEW_OUT_OF_RANGE, "bone 1: parent", bad(&|b| b[1].parent = 2)),
        (SINEW_OUT_OF_RANGE, "bone 2: parent", bad(&|b| b[2].parent = 2)),
        (SINEW_OUT_OF_RANGE, "bone 1: parent", bad(&|b| b[1].parent = -2)),
        (SINEW_INVALID_ARGUMENT, "bone 0", bad(&|b| b[0].joint.kind = SinewJointKind::SINEW_JOINT_HINGE as u32)),
        (SINEW_NON_FINITE, "bone 2", bad(&|b| b[2].position.y = f32::NAN)),
        (SINEW_INVALID_ARGUMENT, "bone 1", bad(&|b| b[1].position.x = 1e7)),
        (SINEW_NON_FINITE, "bone 1", bad(&|b| b[1].rotation.w = f32::INFINITY)),
        (SINEW_INVALID_ARGUMENT, "bone 1: bind rotation", bad(&|b| b[1].rotation.w = 2.0)),
        (SINEW_INVALID_ARGUMENT, "bone 2: a bone's shape", bad(&|b| b[2].shape = SinewShape::SINEW_SHAPE_PLANE as u32)),
        (SINEW_INVALID_ARGUMENT, "bone 2: unknown collider shape 9", bad(&|b| b[2].shape = 9)),
        (SINEW_INVALID_ARGUMENT, "bone 1: joint unknown joint kind 4", bad(&|b| b[1].joint.kind = 4)),
        (SINEW_NON_FINITE, "unused", bad(&|b| b[1].radius = f32::NAN)),
        (SINEW_NON_FINITE, "swing1 (unused by a hinge)", bad(&|b| b[1].joint.swing1 = f32::NAN)),
        (SINEW_INVALID_ARGUMENT, "bone 1: joint hinge limits", bad(&|b| (b[1].joint.hinge_min, b[1].joint.hinge_max) = (10.0, -10.0))),
        (SINEW_INVALID_ARGUMENT, "hinge max", bad(&|b| b[1].joint.hinge_max = 270.0)),
        (SINEW_INVALID_ARGUMENT, "swing1", bad(&|b| b[2].joint.swing1 = 200.0)),
        (SINEW_INVALID_ARGUMENT, "twist limits", bad(&|b| (b[2].joint.low_twist, b[2].joint.high_twist) = (30.0, -30.0))),
        (SINEW_INVALID_ARGUMENT, "axis", bad(&|b| b[1].joint.axis = v3(0.0, 0.0, 0.0))),
        (SINEW_INVALID_ARGUMENT, "swing_axis", bad(&|b| b[2].joint.swing_axis = b[2].joint.axis)),
        (SINEW_INVALID_ARGUMENT, "mass", bad(&|b| b[1].mass = -1.0)),
        (SINEW_INVALID_ARGUMENT, "density", bad(&|b| (b[1].mass, b[1].density) = (0.0, 0.0))),
        (SINEW_INVALID_ARGUMENT, "capsule", bad(&|b| b[0].radius0 = -0.1)),
        (SINEW_INVALID_ARGUMENT, "at least one bone", vec![]),
        (SINEW_TOO_LARGE, "at most 256 bones", chain_bones(v3(0.0, 2.0, 0.0), 1).repeat(257)),
    ];
    for (code, text, bones) in &cases {
        let m = expect_failure(&s, *code, || create(bones, &set));
        assert!(m.contains(text), "expected {code:?} mentioning {text:?}: {m}");
    }
    let mut st = set;
    st.max_mass_ratio = 0.5;
    expect_failure(&s, SINEW_INVALID_ARGUMENT, || create(&good, &st));
    st = set;
    st.friction = f32::NAN;
    expect_failure(&s, SINEW_NON_FINITE, || create(&good, &st));
    st = set;
    st.restitution = 2.0;
    expect_failure(&s, SINEW_INVALID_ARGUMENT, || create(&good, &st));
    expect_failure(&s, SINEW_TOO_LARGE, || sinew_ragdoll_create(s.world, &set, good.as_ptr(), usize::MAX, &mut SinewRagdoll::default()));
    // A humanoid with a NaN bone, parallel up and forward, no mass.
    let h = SinewHumanoidBones {
        pelvis: v3(0.0, 1.0, 0.0),
        up: v3(0.0, 1.0, 0.0),
        forward: v3(0.0, 0.0, 1.0),
        total_mass: 20.0,
        ..unsafe { std::mem::zeroed() }
    };
    let mut out = SinewRagdoll::default();
    let mut descs = vec![bone_desc(); 11];
    for (code, text, h) in [
        (SINEW_NON_FINITE, "humanoid head position", SinewHumanoidBones { head: v3(f32::NAN, 0.0, 0.0), ..h }),
        (SINEW_INVALID_ARGUMENT, "humanoid left_hand position", SinewHumanoidBones { left_hand: v3(0.0, 2e6, 0.0), ..h }),
        (SINEW_INVALID_ARGUMENT, "parallel", SinewHumanoidBones { forward: v3(0.0, -2.0, 0.0), ..h }),
        (SINEW_INVALID_ARGUMENT, "forward direction", SinewHumanoidBones { forward: v3(0.0, 0.0, 0.0), ..h }),
        (SINEW_NON_FINITE, "up direction", SinewHumanoidBones { up: v3(0.0, f32::INFINITY, 0.0), ..h }),
        (SINEW_INVALID_ARGUMENT, "total_mass", SinewHumanoidBones { total_mass: 0.0, ..h }),
        (SINEW_NON_FINITE, "total_mass", SinewHumanoidBones { total_mass: f32::NAN, ..h }),
    ] {
        let m = expect_failure(&s, code, || sinew_ragdoll_create_humanoid(s.world, &h, &set, &mut out));
        assert!(m.contains(text), "{m}");
        let m = expect_failure(&s, code, || sinew_humanoid_bone_descs(&h, descs.as_mut_ptr(), 11));
        assert!(m.contains(text), "{m}");
    }
    st = set;
    st.sleep_time = -1.0;
    expect_failure(&s, SINEW_INVALID_ARGUMENT, || sinew_ragdoll_create_humanoid(s.world, &h, &st, &mut out));
    assert_eq!(out, SinewRagdoll::default());
    ok(sinew_world_destroy(s.world));
}

#[test]
fn ragdoll_per_bone_calls_check_lengths_indices_and_floats() {
    let (s, r) = ragdoll_scene();
    let p = [v3(0.0, 2.0, 0.0), v3(0.0, 1.7, 0.0), v3(0.0, 1.4, 0.0)];
    let q = [QUAT_IDENTITY; 3];
    let mats = [translation(0.0, 2.0, 0.0), translation(0.0, 1.7, 0.0), translation(0.0, 1.4, 0.0)];
    // Lengths: one per bone, exactly.
    let m = expect_failure(&s, SINEW_INVALID_ARGUMENT, || sinew_ragdoll_set_targets(r, p.as_ptr(), 2, q.as_ptr(), 3));
    assert!(m.contains("positions has 2 entries but the ragdoll has 3 bones"), "{m}");
    expect_failure(&s, SINEW_INVALID_ARGUMENT, || sinew_ragdoll_set_targets(r, p.as_ptr(), 3, q.as_ptr(), 1));
    expect_failure(&s, SINEW_INVALID_ARGUMENT, || sinew_ragdoll_set_targets(r, std::ptr::null(), 0, std::ptr::null(), 0));
    expect_failure(&s, SINEW_INVALID_ARGUMENT, || sinew_ragdoll_set_target_matrices(r, mats.as_ptr(), 2));
    expect_failure(&s, SINEW_INVALID_ARGUMENT, || sinew_ragdoll_set_pose(r, p.as_ptr(), 3, q.as_ptr(), 2, 1));
    expect_failure(&s, SINEW_TOO_LARGE, || sinew_ragdoll_set_targets(r, p.as_ptr(), usize::MAX, q.as_ptr(), 3));
    // Floats.
    let mut pn = p;
    pn[1].y = f32::NAN;
    let m = expect_failure(&s, SINEW_NON_FINITE, || sinew_ragdoll_set_targets(r, pn.as_ptr(), 3, q.as_ptr(), 3));
    assert!(m.contains("positions[1]"), "{m}");
    pn[1].y = 2e6;
    expect_failure(&s, SINEW_INVALID_ARGUMENT, || sinew_ragdoll_set_pose(r, pn.as_ptr(), 3, q.as_ptr(), 3, 0));
    let mut qn = q;
    qn[2].w = f32::NAN;
    let m = expect_failure(&s, SINEW_NON_FINITE, || sinew_ragdoll_set_targets(r, p.as_ptr(), 3, qn.as_ptr(), 3));
    assert!(m.contains("rotations[2]"), "{m}");
    qn[2].w = 0.5;
    let m = expect_failure(&s, SINEW_INVALID_ARGUMENT, || sinew_ragdoll_set_pose(r, p.as_ptr(), 3, qn.as_ptr(), 3, 1));
    assert!(m.contains("unit quaternion"), "{m}");
    let mut mn = mats;
    mn[0].m[13] = f32::INFINITY;
    expect_failure(&s, SINEW_NON_FINITE, || sinew_ragdoll_set_target_matrices(r, mn.as_ptr(), 3));
    let mut mn = mats;
    for k in [0, 5, 10] {
        mn[1].m[k] = 2.0;
    }
    let m = expect_failure(&s, SINEW_INVALID_ARGUMENT, || sinew_ragdoll_set_target_matrices(r, mn.as_ptr(), 3));
    assert!(m.contains("matrices[1] has scale 2"), "{m}");
    mn[1].m[5] = 1.0;
    expect_failure(&s, SINEW_INVALID_ARGUMENT, || sinew_ragdoll_set_target_matrices(r, mn.as_ptr(), 3));
    let o = v3(0.0, 1.0, 0.0);
    let mut bone = 77u32;
    expect_failure(&s, SINEW_NON_FINITE, || sinew_ragdoll_apply_impulse(r, v3(f32::NAN, 0.0, 0.0), o, &mut bone));
    expect_failure(&s, SINEW_NON_FINITE, || sinew_ragdoll_apply_impulse(r, o, v3(0.0, f32::INFINITY, 0.0), &mut bone));
    expect_failure(&s, SINEW_INVALID_ARGUMENT, || sinew_ragdoll_apply_impulse(r, o, v3(0.0, 1e9, 0.0), &mut bone));
    assert_eq!(bone, 77, "out_bone untouched on failure");
    expect_failure(&s, SINEW_NON_FINITE, || sinew_ragdoll_apply_bone_impulse(r, 0, o, v3(f32::NAN, 0.0, 0.0)));
    expect_failure(&s, SINEW_INVALID_ARGUMENT, || sinew_ragdoll_apply_bone_impulse(r, 0, v3(-3e6, 0.0, 0.0), o));
    expect_failure(&s, SINEW_NON_FINITE, || sinew_ragdoll_apply_explosion(r, o, f32::NAN, 1.0));
    expect_failure(&s, SINEW_NON_FINITE, || sinew_ragdoll_apply_explosion(r, v3(0.0, f32::NAN, 0.0), 1.0, 1.0));
    expect_failure(&s, SINEW_INVALID_ARGUMENT, || sinew_ragdoll_apply_explosion(r, o, 1.0, 0.0));
    expect_failure(&s, SINEW_INVALID_ARGUMENT, || sinew_ragdoll_apply_explosion(r, o, 1.0, -2.0));
    expect_failure(&s, SINEW_NON_FINITE, || sinew_ragdoll_apply_explosion(r, o, 1.0, f32::INFINITY));
    expect_failure(&s, SINEW_INVALID_ARGUMENT, || sinew_ragdoll_apply_explosion(r, o, 1e9, 1.0));
    expect_failure(&s, SINEW_NON_FINITE, || sinew_ragdoll_add_force(r, 1, o, v3(0.0, 0.0, f32::NEG_INFINITY)));
    expect_failure(&s, SINEW_INVALID_ARGUMENT, || sinew_ragdoll_add_force(r, 1, o, v3(0.0, 0.0, 1e9)));
    // Bone indices.
    for code_and_call in [
        expect_failure(&s, SINEW_OUT_OF_RANGE, || sinew_ragdoll_set_bone_kinematic(r, 3, 1)),
        expect_failure(&s, SINEW_OUT_OF_RANGE, || sinew_ragdoll_is_bone_kinematic(r, 3, &mut 0)),
        expect_failure(&s, SINEW_OUT_OF_RANGE, || sinew_ragdoll_apply_bone_impulse(r, 3, o, o)),
        expect_failure(&s, SINEW_OUT_OF_RANGE, || sinew_ragdoll_add_force(r, u32::MAX, o, o)),
        expect_failure(&s, SINEW_OUT_OF_RANGE, || sinew_ragdoll_set_bone_pair_collision(r, 0, 3, 1)),
    ] {
        assert!(code_and_call.contains("out of range: the ragdoll has 3 bones"), "{code_and_call}");
    }
    let m = expect_failure(&s, SINEW_INVALID_ARGUMENT, || sinew_ragdoll_set_bone_pair_collision(r, 2, 2, 1));
    assert!(m.contains("itself"), "{m}");
    // Bodies on ragdolls.
    let pins = [0u32, 1];
    let bones = [0u32, 2];
    let offs = [v3(0.0, 0.1, 0.0), v3(0.0, -0.1, 0.0)];
    expect_failure(&s, SINEW_INVALID_ARGUMENT, || sinew_body_attach_to_ragdoll(s.cloth, r, pins.as_ptr(), 2, bones.as_ptr(), 1, offs.as_ptr(), 2));
    expect_failure(&s, SINEW_INVALID_ARGUMENT, || sinew_body_attach_to_ragdoll(s.cloth, r, pins.as_ptr(), 2, bones.as_ptr(), 2, offs.as_ptr(), 1));
    let far = [0u32, 30];
    let m = expect_failure(&s, SINEW_OUT_OF_RANGE, || sinew_body_attach_to_ragdoll(s.cloth, r, far.as_ptr(), 2, bones.as_ptr(), 2, offs.as_ptr(), 2));
    assert!(m.contains("vertices[1] = 30") && m.contains("30 vertices"), "{m}");
    let bad_bones = [0u32, 3];
    let m = expect_failure(&s, SINEW_OUT_OF_RANGE, || sinew_body_attach_to_ragdoll(s.cloth, r, pins.as_ptr(), 2, bad_bones.as_ptr(), 2, offs.as_ptr(), 2));
    assert!(m.contains("bones[1] = bone 3"), "{m}");
    let nan_off = [v3(0.0, 0.0, 0.0), v3(f32::NAN, 0.0, 0.0)];
    expect_failure(&s, SINEW_NON_FINITE, || sinew_body_attach_to_ragdoll(s.cloth, r, pins.as_ptr(), 2, bones.as_ptr(), 2, nan_off.as_ptr(), 2));
    // A ragdoll of another world.
    let other = create_world(&world_desc());
    let foreign = create_ragdoll(other, &ragdoll_settings(), &chain_bones(v3(0.0, 1.0, 0.0), 2));
    let m = expect_failure(&s, SINEW_INVALID_ARGUMENT, || sinew_body_set_ragdoll_collision(s.cloth, foreign, 1));
    assert!(m.contains("different worlds"), "{m}");
    expect_failure(&s, SINEW_INVALID_ARGUMENT, || sinew_body_attach_to_ragdoll(s.cloth, foreign, pins.as_ptr(), 2, bones.as_ptr(), 2, offs.as_ptr(), 2));
    ok(sinew_world_destroy(other));
    assert_eq!(bone_count(r), 3, "the ragdoll is unchanged");
    ok(sinew_world_destroy(s.world));
}

#[test]
fn ragdoll_stale_wrong_kind_and_foreign_handles() {
    let (s, r) = ragdoll_scene();
    let doomed = create_ragdoll(s.world, &ragdoll_settings(), &chain_bones(v3(1.0, 2.0, 0.0), 2));
    ok(sinew_ragdoll_destroy(doomed));
    let o = v3(0.0, 1.0, 0.0);
    let p = [o; 2];
    let q = [QUAT_IDENTITY; 2];
    let mats = [translation(0.0, 1.0, 0.0); 2];
    let mut pv = [o; 2];
    let mut qv = [QUAT_IDENTITY; 2];
    let mut mv = [translation(0.0, 0.0, 0.0); 2];
    let (mut n, mut k, mut bone) = (0usize, 0u32, 0u32);
    let pins = [0u32];
    let b0 = [0u32];
    let off = [o];
    let mut stale = |x: SinewRagdoll| -> Vec<SinewResult> {
        vec![
            sinew_ragdoll_destroy(x),
            sinew_ragdoll_get_bone_count(x, &mut n),
            sinew_ragdoll_set_kinematic(x, 1),
            sinew_ragdoll_set_bone_kinematic(x, 0, 1),
            sinew_ragdoll_is_bone_kinematic(x, 0, &mut k),
            sinew_ragdoll_set_targets(x, p.as_ptr(), 2, q.as_ptr(), 2),
            sinew_ragdoll_set_target_matrices(x, mats.as_ptr(), 2),
            sinew_ragdoll_set_pose(x, p.as_ptr(), 2, q.as_ptr(), 2, 0),
            sinew_ragdoll_apply_impulse(x, o, o, &mut bone),
            sinew_ragdoll_apply_bone_impulse(x, 0, o, o),
            sinew_ragdoll_apply_explosion(x, o, 1.0, 1.0),
            sinew_ragdoll_add_force(x, 0, o, o),
            sinew_ragdoll_read_pose(x, pv.as_mut_ptr(), 2, qv.as_mut_ptr(), 2),
            sinew_ragdoll_read_matrices(x, mv.as_mut_ptr(), 2),
            sinew_ragdoll_read_velocities(x, pv.as_mut_ptr(), 2, pv.as_mut_ptr(), 2),
            sinew_ragdoll_is_asleep(x, &mut k),
            sinew_ragdoll_wake(x),
            sinew_ragdoll_set_bone_pair_collision(x, 0, 1, 0),
            sinew_ragdoll_set_direct_joint_solve(x, 1),
            sinew_ragdoll_get_direct_joint_solve(x, &mut k),
            sinew_body_attach_to_ragdoll(s.cloth, x, pins.as_ptr(), 1, b0.as_ptr(), 1, off.as_ptr(), 1),
            sinew_body_set_ragdoll_collision(s.cloth, x, 1),
        ]
    };
    // Destroyed, a body or world handle as a ragdoll, zero, made up.
    for x in [doomed, SinewRagdoll { id: s.cloth.id }, SinewRagdoll { id: s.world.id }, SinewRagdoll { id: 0 }, SinewRagdoll { id: u64::MAX }] {
        for (i, got) in stale(x).into_iter().enumerate() {
            assert_eq!(got, SINEW_INVALID_HANDLE, "call {i} with {x:?}: {}", last_error());
            assert!(last_error().contains("ragdoll handle"), "call {i}: {}", last_error());
        }
        ok(sinew_world_step(s.world, 1.0 / 60.0));
    }
    // A ragdoll handle where a body is expected.
    expect_failure(&s, SINEW_INVALID_HANDLE, || sinew_body_destroy(SinewBody { id: r.id }));
    expect_failure(&s, SINEW_INVALID_HANDLE, || sinew_body_set_ragdoll_collision(SinewBody { id: r.id }, r, 1));
    // A ragdoll of a destroyed world stays invalid when a new world takes its slot.
    let other = create_world(&world_desc());
    let orphan = create_ragdoll(other, &ragdoll_settings(), &chain_bones(o, 2));
    ok(sinew_world_destroy(other));
    let reuse = create_world(&world_desc());
    expect_failure(&s, SINEW_INVALID_HANDLE, || sinew_ragdoll_get_bone_count(orphan, &mut n));
    expect_failure(&s, SINEW_INVALID_HANDLE, || sinew_ragdoll_destroy(orphan));
    ok(sinew_world_destroy(reuse));
    assert_eq!(bone_count(r), 3);
    ok(sinew_world_destroy(s.world));
    assert_eq!(sinew_ragdoll_get_bone_count(r, &mut n), SINEW_INVALID_HANDLE, "destroyed with its world");
}

#[test]
fn ragdoll_calls_during_an_async_step_are_busy() {
    let (s, r) = ragdoll_scene();
    ok(sinew_world_step_begin(s.world, 1.0 / 60.0));
    let (mut n, mut k) = (0usize, 0u32);
    let mut out = SinewRagdoll::default();
    let bones = chain_bones(v3(0.0, 1.0, 0.0), 2);
    for got in [
        sinew_ragdoll_get_bone_count(r, &mut n),
        sinew_ragdoll_set_kinematic(r, 1),
        sinew_ragdoll_is_asleep(r, &mut k),
        sinew_ragdoll_destroy(r),
        sinew_ragdoll_create(s.world, &ragdoll_settings(), bones.as_ptr(), 2, &mut out),
    ] {
        assert_eq!(got, SINEW_BUSY, "{}", last_error());
    }
    ok(sinew_world_step_end(s.world));
    assert_eq!(bone_count(r), 3);
    ok(sinew_ragdoll_destroy(r));
    assert_eq!(sinew_ragdoll_destroy(r), SINEW_INVALID_HANDLE, "a second destroy");
    ok(sinew_world_step(s.world, 1.0 / 60.0));
    ok(sinew_world_destroy(s.world));
}

#[test]
fn ragdoll_defaults_create_as_passed() {
    let s = scene();
    let one = [bone_desc()];
    let r = create_ragdoll(s.world, &ragdoll_settings(), &one);
    assert_eq!(bone_count(r), 1);
    let j = joint_desc();
    assert_eq!(j.kind, SinewJointKind::SINEW_JOINT_FREE as u32);
    assert_eq!((j.hinge_min, j.hinge_max, j.swing1, j.swing2, j.low_twist, j.high_twist), (-90.0, 90.0, 30.0, 30.0, -20.0, 20.0));
    let st = ragdoll_settings();
    assert_eq!((st.stabilize, st.self_collision, st.collide_parent_child, st.kinematic, st.collider_mask), (1, 1, 0, 0, u32::MAX));
    // Every shape kind a bone may have.
    for shape in [SinewShape::SINEW_SHAPE_SPHERE, SinewShape::SINEW_SHAPE_CAPSULE, SinewShape::SINEW_SHAPE_BOX] {
        let mut b = bone_desc();
        b.shape = shape as u32;
        b.mass = 0.0;
        create_ragdoll(s.world, &st, &[b]);
    }
    create_ragdoll(s.world, &st, &chain_bones(v3(0.0, 3.0, 0.0), 3));
    ok(sinew_world_step(s.world, 1.0 / 60.0));
    let mut stats = SinewWorldStats::default();
    ok(sinew_world_get_stats(s.world, &mut stats));
    assert_eq!((stats.ragdoll_count, stats.bone_count, stats.recovered_ragdolls), (5, 7, 0), "{stats:?}");
    ok(sinew_ragdoll_destroy(r));
    ok(sinew_world_get_stats(s.world, &mut stats));
    assert_eq!((stats.ragdoll_count, stats.bone_count), (4, 6));
    ok(sinew_world_destroy(s.world));
}

/// Every material preset is accepted by a body as it is, reads back as set, and a 1 m² denim
/// cloth weighs 0.4 kg (its areal density) at any spacing.
#[test]
fn material_presets_are_accepted() {
    let s = scene();
    for v in 0..=SinewMaterialPreset::SINEW_MATERIAL_FLESH as u32 {
        let mut m = std::mem::MaybeUninit::uninit();
        ok(sinew_material_preset(v, m.as_mut_ptr()));
        let m: SinewMaterial = unsafe { m.assume_init() };
        assert!(m.density > 0.0, "preset {v}");
        assert_eq!(sinew_body_set_material(s.cloth, &m), SINEW_OK, "preset {v}: {}", last_error());
        let mut back = std::mem::MaybeUninit::uninit();
        ok(sinew_body_get_material(s.cloth, back.as_mut_ptr()));
        assert_eq!(unsafe { back.assume_init() }, m, "preset {v} reads back");
        ok(sinew_world_step(s.world, 1.0 / 60.0));
    }
    let mut denim = std::mem::MaybeUninit::uninit();
    ok(sinew_material_preset(SinewMaterialPreset::SINEW_MATERIAL_DENIM as u32, denim.as_mut_ptr()));
    let denim: SinewMaterial = unsafe { denim.assume_init() };
    assert_eq!(denim.density, 0.4);
    for n in [3u32, 11, 21] {
        let mut gd = grid_desc();
        (gd.columns, gd.rows, gd.spacing) = (n, n, 1.0 / (n - 1) as f32);
        gd.material = denim;
        let b = create_grid(s.world, &gd);
        let mass = body_info(b).mass;
        assert!((mass - 0.4).abs() < 1e-5, "a 1 m² denim grid of {n}×{n} weighs {mass} kg");
        ok(sinew_body_destroy(b));
    }
    ok(sinew_world_destroy(s.world));
}
