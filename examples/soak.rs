//! A long soak through the C ABI: one scripted scene with every object kind, stepped for N
//! fixed steps, recording memory, time per step, rest-shape drift and NaN, and asserting
//! that memory stays flat after warm-up, that nothing goes non-finite and that rest shapes
//! do not drift.
//!
//! ```text
//! cargo run --release --example soak -- [--steps N] [--window W] [--csv FILE] [--svg FILE]
//! ```
//!
//! (default 2,000 steps in windows of 200: the short form scripts/test.sh runs; the long
//! form is `--steps 1000000`, docs/reliability.md gives its figures).
//!
//! The scene, in a world of 2 worker threads: a grid cloth pinned along its top row, a
//! tearing cloth (torn by a swinging sphere, destroyed and made anew every 20 windows), a
//! skinned cape on a moving frame, a rope, hair strands, a soft-body lattice and a tet cube,
//! a humanoid ragdoll switched between animated (kinematic) and physics every window and
//! given impulses, a sphere and a capsule moved on closed paths, a box and a mesh floor.
//! Every step alternates between `sinew_world_step` and `step_begin`/`step_end`; every
//! window the rope is teleported away and back, the camera moves so that the LOD reduces
//! and freezes bodies, and the probe cloth is teleported, stepped and put back on its rest
//! shape.
//!
//! Per window it prints and records: RSS (from /proc/self/statm), the bytes live on the heap
//! (a counting allocator), mean and worst time per step, the probe's rest-shape drift (largest distance from its created positions after
//! `sinew_body_reset_pose`), the soft bodies' rest-volume change, non-finite readbacks, and
//! the world's recovery count. It fails (exit 1) when:
//! - RSS grows after warm-up (the first quarter of the run, at least 2 windows) by more than
//!   [`RSS_SLACK_KB`];
//! - any readback of any body or bone is non-finite;
//! - the probe's rest shape drifts by more than [`DRIFT_BOUND_M`] or a rest volume changes by
//!   more than [`VOLUME_BOUND`] (relative).
//! Time per step is printed, never asserted (the machine is shared).

use std::alloc::{GlobalAlloc, Layout, System};
use std::io::Write;
use std::sync::atomic::{AtomicI64, Ordering};
use std::time::Instant;

use sinew::ffi::body::*;
use sinew::ffi::character::*;
use sinew::ffi::cloth::*;
use sinew::ffi::collider::*;
use sinew::ffi::ragdoll::*;
use sinew::ffi::result::SinewResult::{self, *};
use sinew::ffi::rope::*;
use sinew::ffi::softbody::*;
use sinew::ffi::strands::*;
use sinew::ffi::types::*;
use sinew::ffi::world::*;

/// Counts the bytes live on the heap (every thread): a leak shows here exactly, where RSS
/// also moves with the allocator's fragmentation.
struct Live;

static LIVE: AtomicI64 = AtomicI64::new(0);

// SAFETY: forwards to the system allocator, only counting.
unsafe impl GlobalAlloc for Live {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        LIVE.fetch_add(layout.size() as i64, Ordering::Relaxed);
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size() as i64, Ordering::Relaxed);
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        LIVE.fetch_add(new_size as i64 - layout.size() as i64, Ordering::Relaxed);
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Live = Live;

/// RSS growth allowed after warm-up: the allocator's own bookkeeping moves by a few pages.
const RSS_SLACK_KB: i64 = 2048;
/// The probe cloth, put back on its rest shape, lies within this of where it was created (m).
const DRIFT_BOUND_M: f32 = 1e-5;
/// Rest volumes of the soft bodies change by at most this (relative).
const VOLUME_BOUND: f32 = 1e-6;

const DT: f32 = 1.0 / 60.0;

fn last_error() -> String {
    // SAFETY: the library returns a NUL-terminated string valid until the next failing call.
    unsafe { std::ffi::CStr::from_ptr(sinew_last_error_message()) }.to_string_lossy().into_owned()
}

#[track_caller]
fn ok(r: SinewResult) {
    if r != SINEW_OK {
        eprintln!("soak: {} failed: {r:?}: {}", std::panic::Location::caller(), last_error());
        std::process::exit(1);
    }
}

fn default_of<T>(f: extern "C" fn(*mut T) -> SinewResult) -> T {
    let mut d = std::mem::MaybeUninit::uninit();
    ok(f(d.as_mut_ptr()));
    // SAFETY: the default function succeeded and wrote the whole value.
    unsafe { d.assume_init() }
}

fn v3(x: f32, y: f32, z: f32) -> SinewVec3 {
    SinewVec3 { x, y, z }
}

fn translation(x: f32, y: f32, z: f32) -> SinewMat4 {
    SinewMat4 { m: [1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, x, y, z, 1.0] }
}

/// Rotation by `a` about Y, then translation.
fn yaw(a: f32, t: SinewVec3) -> SinewMat4 {
    let (s, c) = a.sin_cos();
    SinewMat4 { m: [c, 0.0, -s, 0.0, 0.0, 1.0, 0.0, 0.0, s, 0.0, c, 0.0, t.x, t.y, t.z, 1.0] }
}

fn rss_kb() -> i64 {
    let statm = std::fs::read_to_string("/proc/self/statm").unwrap_or_default();
    let pages: i64 = statm.split_whitespace().nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
    // SAFETY: sysconf has no preconditions.
    pages * page_size() / 1024
}

fn page_size() -> i64 {
    unsafe extern "C" {
        fn sysconf(name: i32) -> i64;
    }
    const SC_PAGESIZE: i32 = 30;
    // SAFETY: sysconf(_SC_PAGESIZE) has no preconditions.
    unsafe { sysconf(SC_PAGESIZE) }
}

fn positions(b: SinewBody) -> Vec<SinewVec3> {
    let mut n = 0usize;
    ok(sinew_body_get_vertex_count(b, &mut n));
    let mut out = vec![SinewVec3::default(); n];
    ok(sinew_body_read_positions(b, out.as_mut_ptr(), n));
    out
}

fn finite(p: &[SinewVec3]) -> bool {
    p.iter().all(|v| v.x.is_finite() && v.y.is_finite() && v.z.is_finite())
}

struct Args {
    steps: usize,
    window: usize,
    csv: Option<String>,
    svg: Option<String>,
}

fn args() -> Args {
    let mut a = Args { steps: 2000, window: 200, csv: None, svg: None };
    let mut it = std::env::args().skip(1);
    while let Some(k) = it.next() {
        let mut value = || it.next().unwrap_or_else(|| panic!("{k} needs a value"));
        match k.as_str() {
            "--steps" => a.steps = value().parse().expect("--steps N"),
            "--window" => a.window = value().parse().expect("--window W"),
            "--csv" => a.csv = Some(value()),
            "--svg" => a.svg = Some(value()),
            other => panic!("unknown argument {other} (--steps N, --window W, --csv FILE, --svg FILE)"),
        }
    }
    a.window = a.window.clamp(1, a.steps.max(1));
    a
}

struct Scene {
    world: SinewWorld,
    cloth: SinewBody,
    tearing: SinewBody,
    cape: SinewBody,
    rope: SinewBody,
    strands: SinewBody,
    jelly: SinewBody,
    tet: SinewBody,
    probe: SinewBody,
    probe_rest: Vec<SinewVec3>,
    doll: SinewRagdoll,
    sphere: SinewCollider,
    capsule: SinewCollider,
    rest_volumes: [f32; 2],
}

fn tearing_cloth(w: SinewWorld) -> SinewBody {
    let mut d = default_of(sinew_cloth_grid_desc_default);
    (d.columns, d.rows, d.spacing) = (16, 16, 0.05);
    d.origin = v3(3.0, 2.0, 0.0);
    d.pin_mode = SinewPinMode::SINEW_PIN_TOP_ROW as u32;
    let mut b = SinewBody::default();
    ok(sinew_cloth_create_grid(w, &d, &mut b));
    let mut dy = default_of(sinew_dynamics_default);
    dy.tear_threshold = 0.3;
    ok(sinew_body_set_dynamics(b, &dy));
    b
}

fn ragdoll(w: SinewWorld) -> SinewRagdoll {
    let mut h = default_of(sinew_humanoid_bones_default);
    let lift = 1.0;
    for p in [&mut h.pelvis, &mut h.left_hip, &mut h.left_knee, &mut h.left_foot, &mut h.right_hip, &mut h.right_knee, &mut h.right_foot, &mut h.left_arm, &mut h.left_elbow, &mut h.left_hand, &mut h.right_arm, &mut h.right_elbow, &mut h.right_hand, &mut h.middle_spine, &mut h.head] {
        p.x -= 3.0;
        p.y += lift;
    }
    let mut r = SinewRagdoll::default();
    ok(sinew_ragdoll_create_humanoid(w, &h, &default_of(sinew_ragdoll_settings_default), &mut r));
    r
}

fn build() -> Scene {
    let mut wd = default_of(sinew_world_desc_default);
    wd.thread_count = 2;
    let mut world = SinewWorld::default();
    ok(sinew_world_create(&wd, &mut world));

    let mut g = default_of(sinew_cloth_grid_desc_default);
    (g.columns, g.rows, g.spacing) = (24, 24, 0.05);
    g.origin = v3(0.0, 2.5, 0.0);
    g.pin_mode = SinewPinMode::SINEW_PIN_TOP_ROW as u32;
    let mut cloth = SinewBody::default();
    ok(sinew_cloth_create_grid(world, &g, &mut cloth));

    // The probe: pinned at its corners far from everything, so that only teleports and
    // resets move it.
    g.columns = 8;
    g.rows = 8;
    g.origin = v3(0.0, 5.0, 20.0);
    g.pin_mode = SinewPinMode::SINEW_PIN_TOP_CORNERS as u32;
    let mut probe = SinewBody::default();
    ok(sinew_cloth_create_grid(world, &g, &mut probe));
    let probe_rest = positions(probe);

    let mut cd = default_of(sinew_cloth_cape_desc_default);
    (cd.left_shoulder, cd.neck, cd.right_shoulder) = (translation(-0.2, 1.5, 4.0), translation(0.0, 1.6, 4.0), translation(0.2, 1.5, 4.0));
    let mut cape = SinewBody::default();
    ok(sinew_cloth_create_cape(world, &cd, &mut cape));

    let pts: Vec<SinewVec3> = (0..20).map(|i| v3(-1.0 + 0.05 * i as f32, 3.0, -2.0)).collect();
    let pin = [0u32];
    let mut rd = default_of(sinew_rope_desc_default);
    (rd.points, rd.point_count, rd.pin_indices, rd.pin_count) = (pts.as_ptr(), pts.len(), pin.as_ptr(), 1);
    let mut rope = SinewBody::default();
    ok(sinew_rope_create(world, &rd, &mut rope));

    let roots = [v3(2.0, 1.8, -2.0), v3(2.05, 1.8, -2.0), v3(2.1, 1.8, -2.0)];
    let dirs = [v3(0.0, -1.0, 0.0); 3];
    let mut sd = default_of(sinew_strands_desc_default);
    (sd.roots, sd.root_count, sd.directions, sd.direction_count) = (roots.as_ptr(), 3, dirs.as_ptr(), 3);
    let mut strands = SinewBody::default();
    ok(sinew_strands_create(world, &sd, &mut strands));

    let mut ld = default_of(sinew_soft_lattice_desc_default);
    ld.origin = v3(-1.5, 0.5, 2.0);
    let mut jelly = SinewBody::default();
    ok(sinew_softbody_create_lattice(world, &ld, &mut jelly));

    const CUBE_TETS: [u32; 20] = [0, 1, 2, 4, 3, 1, 2, 7, 5, 1, 4, 7, 6, 2, 4, 7, 1, 2, 4, 7];
    let p: Vec<SinewVec3> = (0..8).map(|c| v3(1.5 + 0.2 * (c & 1) as f32, 0.5 + 0.2 * ((c >> 1) & 1) as f32, 2.0 + 0.2 * ((c >> 2) & 1) as f32)).collect();
    let mut m = default_of(sinew_material_default);
    m.particle_mass = 0.1;
    let mut tet = SinewBody::default();
    ok(sinew_softbody_create_tets(world, p.as_ptr(), 8, CUBE_TETS.as_ptr(), 20, &m, &default_of(sinew_soft_settings_default), &mut tet));

    let mut rest_volumes = [0.0f32; 2];
    for (i, b) in [jelly, tet].into_iter().enumerate() {
        let mut v = 0.0;
        ok(sinew_softbody_get_volume(b, &mut v, &mut rest_volumes[i]));
    }

    let mut c = default_of(sinew_collider_desc_default);
    c.shape = SinewShape::SINEW_SHAPE_SPHERE as u32;
    c.radius = 0.3;
    c.transform = translation(3.4, 1.6, 0.3);
    let mut sphere = SinewCollider::default();
    ok(sinew_collider_create(world, &c, &mut sphere));
    c.shape = SinewShape::SINEW_SHAPE_CAPSULE as u32;
    c.radius = 0.1;
    c.half_height = 0.3;
    c.transform = translation(0.5, 2.0, 0.3);
    let mut capsule = SinewCollider::default();
    ok(sinew_collider_create(world, &c, &mut capsule));
    c.shape = SinewShape::SINEW_SHAPE_BOX as u32;
    c.half_extents = v3(10.0, 0.1, 10.0);
    c.transform = translation(0.0, -0.1, 0.0);
    let mut floor = SinewCollider::default();
    ok(sinew_collider_create(world, &c, &mut floor));
    let verts = [v3(-10.0, 0.0, 10.0), v3(10.0, 0.0, 10.0), v3(10.0, 0.0, 30.0), v3(-10.0, 0.0, 30.0)];
    let tris = [0u32, 1, 2, 0, 2, 3];
    let mut md = default_of(sinew_collider_mesh_desc_default);
    (md.vertices, md.vertex_count, md.indices, md.index_count) = (verts.as_ptr(), 4, tris.as_ptr(), 6);
    let mut mesh_floor = SinewCollider::default();
    ok(sinew_collider_create_mesh(world, &md, &mut mesh_floor));

    // LOD: the cloth reduces its substeps past 6 m from the camera and freezes past 12 m.
    let mut lod = default_of(sinew_lod_default);
    (lod.reduce_distance, lod.reduced_substeps, lod.freeze_distance) = (6.0, 1, 12.0);
    for b in [cloth, cape, strands] {
        ok(sinew_body_set_lod(b, &lod));
    }

    Scene { world, cloth, tearing: tearing_cloth(world), cape, rope, strands, jelly, tet, probe, probe_rest, doll: ragdoll(world), sphere, capsule, rest_volumes }
}

/// Windows between two remakings of the tearing cloth and the ragdoll.
const REMAKE_EVERY: usize = 20;

struct Window {
    step: usize,
    rss_kb: i64,
    heap_bytes: i64,
    /// The lowest live heap seen between two steps of the window (sampled before every step):
    /// free of the transients a single sample can catch.
    heap_low: i64,
    mean_us: f64,
    worst_us: f64,
    drift_m: f32,
    volume_change: f32,
    non_finite: usize,
    recoveries: u32,
}

fn main() {
    let a = args();
    let mut s = build();
    // Every window's record, allocated before the first step: a vector growing here would show
    // in the live heap it measures (64 bytes a window: the growth an earlier soak reported).
    let mut rows: Vec<Window> = Vec::with_capacity(a.steps.div_ceil(a.window) + 1);
    let mut non_finite_total = 0usize;
    let (mut window_time, mut worst) = (0.0f64, 0.0f64);
    let mut heap_low = i64::MAX;
    let mut bone_pos = vec![SinewVec3::default(); 64];
    let mut bone_rot = vec![SinewQuat { x: 0.0, y: 0.0, z: 0.0, w: 1.0 }; 64];
    println!("soak: {} steps, windows of {}, 2 worker threads", a.steps, a.window);
    println!("{:>9} {:>9} {:>11} {:>9} {:>9} {:>10} {:>10} {:>6} {:>6}", "step", "rss_kb", "heap_bytes", "mean_us", "worst_us", "drift_m", "dvol_rel", "nan", "recov");
    for step in 0..a.steps {
        let t = step as f32 * DT;
        // Colliders on closed paths; the cape's frame turns.
        ok(sinew_collider_set_transform(s.sphere, &translation(3.4 + 0.6 * (t * 1.3).sin(), 1.6, 0.3)));
        ok(sinew_collider_set_transform(s.capsule, &translation(0.6 * (t * 0.7).sin(), 2.0, 0.3 + 0.2 * (t * 0.9).cos())));
        ok(sinew_body_set_root_transform(s.cape, &yaw(0.5 * (t * 0.5).sin(), v3(0.0, 0.0, 0.0))));
        heap_low = heap_low.min(LIVE.load(Ordering::Relaxed));
        let start = Instant::now();
        if step % 2 == 0 {
            ok(sinew_world_step(s.world, DT));
        } else {
            ok(sinew_world_step_begin(s.world, DT));
            ok(sinew_world_step_end(s.world));
        }
        let us = start.elapsed().as_secs_f64() * 1e6;
        window_time += us;
        worst = worst.max(us);

        let k = step % a.window;
        let window = step / a.window;
        // Scripted events, spread over the window.
        if k == a.window / 4 {
            // Teleport the rope 5 m away and back next step.
            ok(sinew_body_teleport(s.rope, &translation(5.0, 0.0, 0.0)));
        } else if k == a.window / 4 + 1 {
            ok(sinew_body_teleport(s.rope, &translation(-5.0, 0.0, 0.0)));
        }
        if k == a.window / 3 {
            // Ragdoll: physics on odd windows (with a push), animated on even ones.
            let dynamic = window % 2 == 1;
            ok(sinew_ragdoll_set_kinematic(s.doll, if dynamic { 0 } else { 1 }));
            if dynamic {
                let mut bone = 0u32;
                ok(sinew_ragdoll_apply_impulse(s.doll, v3(-3.0, 2.0, 0.0), v3(1.0, 0.5, 0.0), &mut bone));
            }
        }
        if k == a.window / 2 {
            // The camera: near, mid (reduced substeps), far (frozen), by window.
            let z = [0.0, 8.0, 20.0][window % 3];
            ok(sinew_world_set_camera(s.world, v3(0.0, 2.0, z)));
        }
        if k == a.window * 3 / 4 {
            ok(sinew_body_teleport(s.probe, &yaw(0.7, v3(1.0, 0.0, -1.0))));
        }
        if window % REMAKE_EVERY == REMAKE_EVERY - 1 && k == a.window - 2 {
            // The tearing cloth and the ragdoll, made anew (frees and allocates).
            ok(sinew_body_destroy(s.tearing));
            s.tearing = tearing_cloth(s.world);
            ok(sinew_ragdoll_destroy(s.doll));
            s.doll = ragdoll(s.world);
        }
        if k == a.window - 1 {
            // End of the window: readbacks, drift, memory.
            let mut nan = 0;
            for b in [s.cloth, s.tearing, s.cape, s.rope, s.strands, s.jelly, s.tet, s.probe] {
                if !finite(&positions(b)) {
                    nan += 1;
                }
            }
            let mut n = 0usize;
            ok(sinew_ragdoll_get_bone_count(s.doll, &mut n));
            ok(sinew_ragdoll_read_pose(s.doll, bone_pos.as_mut_ptr(), n, bone_rot.as_mut_ptr(), n));
            if !finite(&bone_pos[..n]) {
                nan += 1;
            }
            non_finite_total += nan;
            ok(sinew_body_reset_pose(s.probe));
            let now = positions(s.probe);
            let drift = now.iter().zip(&s.probe_rest).map(|(p, q)| ((p.x - q.x).powi(2) + (p.y - q.y).powi(2) + (p.z - q.z).powi(2)).sqrt()).fold(0.0f32, f32::max);
            let mut dvol = 0.0f32;
            for (i, b) in [s.jelly, s.tet].into_iter().enumerate() {
                let (mut v, mut rest) = (0.0, 0.0);
                ok(sinew_softbody_get_volume(b, &mut v, &mut rest));
                dvol = dvol.max(((rest - s.rest_volumes[i]) / s.rest_volumes[i]).abs());
            }
            let mut stats = SinewWorldStats::default();
            ok(sinew_world_get_stats(s.world, &mut stats));
            let row = Window { step: step + 1, rss_kb: rss_kb(), heap_bytes: LIVE.load(Ordering::Relaxed), heap_low, mean_us: window_time / a.window as f64, worst_us: worst, drift_m: drift, volume_change: dvol, non_finite: nan, recoveries: stats.recovered_bodies + stats.recovered_ragdolls };
            let print_every = (a.steps / a.window / 40).max(1);
            if rows.len() % print_every == 0 || step + 1 == a.steps {
                println!("{:>9} {:>9} {:>11} {:>9.1} {:>9.1} {:>10.2e} {:>10.2e} {:>6} {:>6}", row.step, row.rss_kb, row.heap_bytes, row.mean_us, row.worst_us, row.drift_m, row.volume_change, row.non_finite, row.recoveries);
            }
            rows.push(row);
            (window_time, worst, heap_low) = (0.0, 0.0, i64::MAX);
        }
    }
    ok(sinew_world_destroy(s.world));

    if let Some(path) = &a.csv {
        let mut f = std::fs::File::create(path).expect("csv file");
        writeln!(f, "step,rss_kb,heap_bytes,heap_low_bytes,mean_step_us,worst_step_us,probe_drift_m,rest_volume_change,non_finite,recoveries").unwrap();
        for r in &rows {
            writeln!(f, "{},{},{},{},{:.2},{:.2},{:e},{:e},{},{}", r.step, r.rss_kb, r.heap_bytes, r.heap_low, r.mean_us, r.worst_us, r.drift_m, r.volume_change, r.non_finite, r.recoveries).unwrap();
        }
        println!("wrote {path}");
    }
    if let Some(path) = &a.svg {
        std::fs::write(path, svg(&rows)).expect("svg file");
        println!("wrote {path}");
    }

    // Verdicts.
    // The first quarter, and in a run long enough the first remaking of the torn cloth and the
    // ragdoll (window 20) too: the scratch buffers reach their size there (+24 bytes once).
    let mut warm = (rows.len() / 4).max(2);
    if rows.len() > 2 * REMAKE_EVERY {
        warm = warm.max(REMAKE_EVERY + 1);
    }
    let warm = warm.min(rows.len().saturating_sub(1));
    let mut failed = false;
    if rows.len() > warm {
        let base = rows[warm - 1].rss_kb;
        let peak = rows[warm..].iter().map(|r| r.rss_kb).max().unwrap();
        let last = rows.last().unwrap().rss_kb;
        let first_t = rows[warm..].iter().take(5).map(|r| r.mean_us).sum::<f64>() / rows[warm..].len().min(5) as f64;
        let last_t = rows.iter().rev().take(5).map(|r| r.mean_us).sum::<f64>() / rows.len().min(5) as f64;
        println!("rss after warm-up (step {}): {base} KB; peak after: {peak} KB (+{} KB); at the end: {last} KB", rows[warm - 1].step, peak - base);
        let (h0, h1) = (rows[warm - 1].heap_bytes, rows.last().unwrap().heap_bytes);
        let per = (h1 - h0) as f64 / (rows.last().unwrap().step - rows[warm - 1].step).max(1) as f64 * 1e5;
        println!("live heap after warm-up: {h0} bytes; at the end: {h1} bytes ({:+} bytes, {per:+.0} bytes per 100,000 steps)", h1 - h0);
        // A window's figure can hold a transient: a worker frees the box of an asynchronous
        // step's job just after the host's step_end returns (40 bytes, caught by several
        // windows' samples in a row on a loaded machine). The floor cannot: each window's lowest
        // figure over its steps (sampled before every step), and the lowest of those in the
        // last quarter of the windows after warm-up may not exceed that of the first quarter.
        let after = &rows[warm..];
        let k = (after.len() / 4).max(1);
        let floor = |r: &[Window]| r.iter().map(|r| r.heap_low).min().unwrap_or(0);
        let (first, last) = (floor(&after[..k]), floor(&after[after.len() - k..]));
        let transient = after.iter().map(|r| r.heap_bytes).max().unwrap_or(0) - first;
        println!("live heap floor after warm-up: {first} bytes in the first windows, {last} in the last ({:+}); transients up to {transient} bytes", last - first);
        if last > first {
            println!("FAIL the live heap's floor grew by {} bytes after warm-up (allowed: 0)", last - first);
            failed = true;
        }
        println!("mean step time: {first_t:.1} us in the first windows after warm-up, {last_t:.1} us in the last (not asserted)");
        if peak - base > RSS_SLACK_KB {
            println!("FAIL memory grew by {} KB after warm-up (allowed {RSS_SLACK_KB} KB)", peak - base);
            failed = true;
        }
    }
    let drift = rows.iter().map(|r| r.drift_m).fold(0.0f32, f32::max);
    let dvol = rows.iter().map(|r| r.volume_change).fold(0.0f32, f32::max);
    println!("largest probe rest-shape drift: {drift:.2e} m (bound {DRIFT_BOUND_M:e}); largest rest-volume change: {dvol:.2e} (bound {VOLUME_BOUND:e})");
    println!("non-finite readbacks: {non_finite_total}; recoveries at the end: {}", rows.last().map_or(0, |r| r.recoveries));
    if drift > DRIFT_BOUND_M || dvol > VOLUME_BOUND {
        println!("FAIL a rest shape drifted");
        failed = true;
    }
    if non_finite_total > 0 {
        println!("FAIL {non_finite_total} non-finite readbacks");
        failed = true;
    }
    println!("soak: {} passed, {} failed", if failed { 0 } else { 1 }, if failed { 1 } else { 0 });
    if failed {
        std::process::exit(1);
    }
}

/// RSS (MB) and mean step time (µs) against step, as a small SVG.
fn svg(rows: &[Window]) -> String {
    let (w, h, pad) = (640.0, 260.0, 40.0);
    let max_step = rows.last().map_or(1, |r| r.step) as f64;
    let max_rss = rows.iter().map(|r| r.rss_kb).max().unwrap_or(1) as f64 / 1024.0 * 1.1;
    let max_t = rows.iter().map(|r| r.mean_us).fold(1.0, f64::max) * 1.1;
    let line = |f: &dyn Fn(&Window) -> f64, top: f64| -> String {
        rows.iter().map(|r| format!("{:.1},{:.1}", pad + (w - 2.0 * pad) * r.step as f64 / max_step, h - pad - (h - 2.0 * pad) * f(r) / top)).collect::<Vec<_>>().join(" ")
    };
    format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" font-family=\"sans-serif\" font-size=\"11\">\n\
         <rect width=\"{w}\" height=\"{h}\" fill=\"white\"/>\n\
         <line x1=\"{pad}\" y1=\"{y0}\" x2=\"{x1}\" y2=\"{y0}\" stroke=\"black\"/><line x1=\"{pad}\" y1=\"{pad}\" x2=\"{pad}\" y2=\"{y0}\" stroke=\"black\"/>\n\
         <polyline fill=\"none\" stroke=\"#1f77b4\" stroke-width=\"1.5\" points=\"{rss}\"/>\n\
         <polyline fill=\"none\" stroke=\"#ff7f0e\" stroke-width=\"1\" points=\"{time}\"/>\n\
         <text x=\"{pad}\" y=\"16\">soak: RSS (blue, 0-{max_rss:.0} MB) and mean step time (orange, 0-{max_t:.0} us) over {max_step:.0} steps</text>\n\
         <text x=\"{pad}\" y=\"{yl}\">0</text><text x=\"{xr}\" y=\"{yl}\" text-anchor=\"end\">{max_step:.0} steps</text>\n\
         </svg>\n",
        y0 = h - pad,
        x1 = w - pad,
        rss = line(&|r| r.rss_kb as f64 / 1024.0, max_rss),
        time = line(&|r| r.mean_us, max_t),
        yl = h - pad + 14.0,
        xr = w - pad,
    )
}
