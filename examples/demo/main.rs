//! The main demo: a curtain hanging from a moving bar with a rope from the bar's end, and a
//! capsule character wearing a cape and a ponytail that walks, runs, stops, teleports, turns
//! and stands in the wind.
//!
//! ```text
//! cargo run --release --example demo [-- --out DIR]      (default DIR: out/)
//! ```
//!
//! It drives Sinew only through the exported C ABI (`sinew::ffi::*`, the same functions
//! `include/sinew.h` declares), checks every `SinewResult`, and writes
//! - `DIR/demo.png`: four moments of the curtain run as a 2 × 2 contact sheet, drawn by the
//!   small software rasterizer below (perspective camera, depth buffer, Lambert shading from
//!   the normals Sinew reads back, two-sided with a different tint per side, a ground grid
//!   with the cloth's shadow);
//! - `DIR/character.png`: six moments of the character run as a 3 × 2 contact sheet (the
//!   capsules tessellated into shaded solids, the cape two-sided, the hair as thin strands,
//!   a camera that follows the character, its path and the teleport's two ends on the ground);
//! - `DIR/ragdoll.png`: six moments of a powered ragdoll with a cape that walks, is hit,
//!   falls, comes to rest, gets up and stands (`ragdoll.rs`);
//! - `DIR/softbody.png`: eight moments of two jelly cubes, one dropped onto the floor, squashing
//!   and springing back, the other landing on it (`softbody.rs`);
//! - `DIR/presets.png`: the five cloth presets (`sinew_material_preset`) each draped over a
//!   sphere (`presets.rs`; `--presets-only` draws just this one);
//! - `DIR/summary.txt`: counts, stretch, teleport checks and step times of both (also printed).
//!
//! The curtain: a 40 × 30 grid cloth (0.05 m spacing) whose top row is pinned to a horizontal
//! bar through `sinew_body_set_pin_targets`; a rope hangs from one end of the bar. For 3 s the
//! bar swings sideways twice, turns about the vertical and moves forward on a smooth path
//! that starts and ends at rest; then it stops and everything settles for 5 s.
//!
//! The character: 13 tapered capsule colliders (torso, neck, head, upper and lower arms and
//! legs, feet) posed every frame by a procedural walk/run cycle and moved with
//! `sinew_collider_set_transform`; a cape (`sinew_cloth_create_cape`) driven through
//! `sinew_body_set_bone_matrices` by the left shoulder, neck and right shoulder; a ponytail
//! of 64 strands (`sinew_strands_create`) on the head bone; both with the character's root
//! (`sinew_body_set_root_transform`) and dynamics (`sinew_body_set_dynamics`: 70 % world
//! velocity, a speed limit, automatic teleport beyond 3 m). It walks, speeds up to a run,
//! stops, is moved 20 m in one frame (the bodies must follow by themselves: the summary
//! compares stretch and particle speeds in that frame with the frame before), walks on
//! through a quarter turn, and ends standing in a wind (`sinew_world_set_wind`).
//!
//! Both scenes run at 60 host frames per second. The PNG encoder is written here too (zlib
//! stored blocks, CRC-32, Adler-32), so the demo needs no dependency beyond Sinew itself. It
//! exits non-zero if any call fails or any position or normal read back is not finite.

mod presets;
mod ragdoll;
mod softbody;
mod units;

use std::f32::consts::PI;
use std::path::{Path, PathBuf};
use std::time::Instant;

use glam::{Mat4, Quat, Vec3};
use sinew::ffi::SINEW_ABI_VERSION;
use sinew::ffi::body::*;
use sinew::ffi::character::*;
use sinew::ffi::cloth::*;
use sinew::ffi::collider::*;
use sinew::ffi::result::SinewResult;
use sinew::ffi::rope::*;
use sinew::ffi::strands::*;
use sinew::ffi::types::*;
use sinew::ffi::world::*;

type Res<T> = Result<T, String>;

// --- curtain scene -------------------------------------------------------------------

const COLS: u32 = 40;
const ROWS: u32 = 30;
const SPACING: f32 = 0.05;
const BAR_Y: f32 = 2.0;
/// Half the drawn bar's length (m); the cloth spans ±0.975 m.
const BAR_HALF: f32 = 1.2;
/// Where the rope hangs, along the bar from its centre (m).
const ROPE_AT: f32 = 1.12;
const ROPE_POINTS: usize = 28;
const ROPE_SEGMENT: f32 = 0.04;
const DT: f32 = 1.0 / 60.0;
const MOVE_FRAMES: u32 = 180;
const SETTLE_FRAMES: u32 = 300;
const TOTAL_FRAMES: u32 = MOVE_FRAMES + SETTLE_FRAMES;
/// Frames pictured, with their captions.
const KEY_FRAMES: [(u32, &str); 4] = [(55, "BAR SWINGS"), (120, "BAR TURNS"), (160, "BAR SLOWS"), (TOTAL_FRAMES, "AT REST")];

/// The bar at time `t`: centre and unit direction along it. Every term's rate of change
/// vanishes at both ends of the motion, so the bar starts and stops at rest.
fn bar_pose(t: f32) -> (Vec3, Vec3) {
    let u = (t / (MOVE_FRAMES as f32 * DT)).clamp(0.0, 1.0);
    let env = (PI * u).sin();
    let side = 0.45 * (4.0 * PI * u).sin() * env;
    let lift = 0.12 * env * env;
    let forward = 0.5 * u * u * u * (u * (6.0 * u - 15.0) + 10.0); // smootherstep
    let yaw = 0.35 * (2.0 * PI * u).sin() * env;
    let centre = Vec3::new(side, BAR_Y + lift, forward);
    let along = Vec3::new(yaw.cos(), 0.0, -yaw.sin());
    (centre, along)
}

fn cloth_pin_targets(t: f32) -> Vec<SinewVec3> {
    let (c, d) = bar_pose(t);
    (0..COLS).map(|col| sv(c + d * ((col as f32 - (COLS - 1) as f32 / 2.0) * SPACING))).collect()
}

fn rope_anchor(t: f32) -> Vec3 {
    let (c, d) = bar_pose(t);
    c + d * ROPE_AT
}

// --- C ABI plumbing ------------------------------------------------------------------

fn check(r: SinewResult, call: &str) -> Res<()> {
    if r == SinewResult::SINEW_OK {
        Ok(())
    } else {
        let msg = unsafe { std::ffi::CStr::from_ptr(sinew_last_error_message()) }.to_string_lossy().into_owned();
        Err(format!("{call} returned {r:?}: {msg}"))
    }
}

fn sv(v: Vec3) -> SinewVec3 {
    SinewVec3 { x: v.x, y: v.y, z: v.z }
}

fn gv(v: SinewVec3) -> Vec3 {
    Vec3::new(v.x, v.y, v.z)
}

/// Reads positions (or normals) and fails on any non-finite value.
fn read(body: SinewBody, normals: bool, what: &str) -> Res<Vec<Vec3>> {
    let mut n = 0usize;
    check(sinew_body_get_vertex_count(body, &mut n), "sinew_body_get_vertex_count")?;
    let mut out = vec![SinewVec3::default(); n];
    if normals {
        check(sinew_body_read_normals(body, out.as_mut_ptr(), n), "sinew_body_read_normals")?;
    } else {
        check(sinew_body_read_positions(body, out.as_mut_ptr(), n), "sinew_body_read_positions")?;
    }
    let out: Vec<Vec3> = out.into_iter().map(gv).collect();
    if let Some(i) = out.iter().position(|p| !p.is_finite()) {
        return Err(format!("{what}: vertex {i} is not finite ({:?})", out[i]));
    }
    Ok(out)
}

fn body_info(body: SinewBody) -> Res<SinewBodyInfo> {
    let mut info = SinewBodyInfo::default();
    check(sinew_body_get_info(body, &mut info), "sinew_body_get_info")?;
    Ok(info)
}

fn max_stretch(body: SinewBody) -> Res<f32> {
    let mut s = f32::NAN;
    check(sinew_body_get_max_stretch(body, &mut s), "sinew_body_get_max_stretch")?;
    if !s.is_finite() {
        return Err("sinew_body_get_max_stretch answered a non-finite stretch".into());
    }
    Ok(s)
}

/// What one picture panel needs.
struct Snapshot {
    caption: String,
    cloth: Vec<Vec3>,
    normals: Vec<Vec3>,
    rope: Vec<Vec3>,
    bar: (Vec3, Vec3),
}

struct RunResult {
    snapshots: Vec<Snapshot>,
    summary: String,
}

fn simulate(png_path: &Path) -> Res<RunResult> {
    if sinew_abi_version() != SINEW_ABI_VERSION {
        return Err(format!("library ABI {} differs from the header's {SINEW_ABI_VERSION}", sinew_abi_version()));
    }

    let mut wd = std::mem::MaybeUninit::<SinewWorldDesc>::uninit();
    check(sinew_world_desc_default(wd.as_mut_ptr()), "sinew_world_desc_default")?;
    let mut wd = unsafe { wd.assume_init() };
    // Many small substeps of one pass each beat fewer substeps with more passes at the same
    // cost ("Small Steps in Physics Simulation").
    wd.substeps = 16;
    wd.iterations = 1;
    let mut world = SinewWorld::default();
    check(sinew_world_create(&wd, &mut world), "sinew_world_create")?;

    // The curtain: the grid's local XZ plane turned upright (+90° about X), so row 0 is the
    // top edge, centred under the bar.
    let mut gd = std::mem::MaybeUninit::<SinewClothGridDesc>::uninit();
    check(sinew_cloth_grid_desc_default(gd.as_mut_ptr()), "sinew_cloth_grid_desc_default")?;
    let mut gd = unsafe { gd.assume_init() };
    let height = (ROWS - 1) as f32 * SPACING;
    let h = std::f32::consts::FRAC_1_SQRT_2;
    gd.columns = COLS;
    gd.rows = ROWS;
    gd.spacing = SPACING;
    gd.origin = sv(Vec3::new(0.0, BAR_Y - height / 2.0, 0.0));
    gd.orientation = SinewQuat { x: h, y: 0.0, z: 0.0, w: h };
    gd.pin_mode = SinewPinMode::SINEW_PIN_TOP_ROW as u32;
    gd.material.bend_compliance = 0.002;
    // Some air drag, so the curtain comes to rest within the settle time.
    gd.material.damping = 1.5;
    let mut cloth = SinewBody::default();
    check(sinew_cloth_create_grid(world, &gd, &mut cloth), "sinew_cloth_create_grid")?;

    let mut rd = std::mem::MaybeUninit::<SinewRopeDesc>::uninit();
    check(sinew_rope_desc_default(rd.as_mut_ptr()), "sinew_rope_desc_default")?;
    let mut rd = unsafe { rd.assume_init() };
    let a0 = rope_anchor(0.0);
    let points: Vec<SinewVec3> = (0..ROPE_POINTS).map(|i| sv(a0 - Vec3::Y * (i as f32 * ROPE_SEGMENT))).collect();
    let rope_pin = [0u32];
    rd.points = points.as_ptr();
    rd.point_count = points.len();
    rd.pin_indices = rope_pin.as_ptr();
    rd.pin_count = rope_pin.len();
    rd.material.damping = 1.5;
    let mut rope = SinewBody::default();
    check(sinew_rope_create(world, &rd, &mut rope), "sinew_rope_create")?;

    // The starting layout must be where the pins say: row 0 exactly on the bar.
    let start = read(cloth, false, "cloth at start")?;
    let start_err = cloth_pin_targets(0.0).iter().enumerate().map(|(i, t)| gv(*t).distance(start[i])).fold(0.0f32, f32::max);
    if start_err > 1e-4 {
        return Err(format!("grid layout differs from the documented one: top row is {start_err} m off the bar"));
    }

    let pin_indices: Vec<u32> = (0..COLS).collect();
    let mut snapshots = Vec::new();
    let mut step_seconds = Vec::with_capacity(TOTAL_FRAMES as usize);
    let mut cloth_lowest_ever = f32::INFINITY;
    // Fastest cloth particle over the last frame (m/s): how settled the end is.
    let mut previous = start;
    let mut end_speed = 0.0f32;
    for frame in 1..=TOTAL_FRAMES {
        let t = frame as f32 * DT;
        let targets = cloth_pin_targets(t);
        check(
            sinew_body_set_pin_targets(cloth, pin_indices.as_ptr(), pin_indices.len(), targets.as_ptr(), targets.len()),
            "sinew_body_set_pin_targets (cloth)",
        )?;
        let anchor = [sv(rope_anchor(t))];
        check(sinew_body_set_pin_targets(rope, rope_pin.as_ptr(), 1, anchor.as_ptr(), 1), "sinew_body_set_pin_targets (rope)")?;

        let t0 = Instant::now();
        check(sinew_world_step(world, DT), "sinew_world_step")?;
        step_seconds.push(t0.elapsed().as_secs_f64());

        let cloth_now = read(cloth, false, &format!("cloth positions, frame {frame}"))?;
        let rope_now = read(rope, false, &format!("rope positions, frame {frame}"))?;
        cloth_lowest_ever = cloth_now.iter().map(|p| p.y).fold(cloth_lowest_ever, f32::min);
        end_speed = cloth_now.iter().zip(&previous).map(|(a, b)| a.distance(*b) / DT).fold(0.0, f32::max);
        previous.copy_from_slice(&cloth_now);
        if let Some(&(_, label)) = KEY_FRAMES.iter().find(|(f, _)| *f == frame) {
            let normals = read(cloth, true, &format!("cloth normals, frame {frame}"))?;
            let (c, d) = bar_pose(t);
            snapshots.push(Snapshot {
                caption: format!("T={t:.2}S {label}"),
                cloth: cloth_now,
                normals,
                rope: rope_now,
                bar: (c - d * BAR_HALF, c + d * BAR_HALF),
            });
        }
    }

    // Final checks and numbers, all read through the ABI.
    let t_end = TOTAL_FRAMES as f32 * DT;
    let cloth_end = read(cloth, false, "final cloth")?;
    let rope_end = read(rope, false, "final rope")?;
    let targets = cloth_pin_targets(t_end);
    let cloth_pin_err = (0..COLS as usize).map(|i| gv(targets[i]).distance(cloth_end[i])).fold(0.0f32, f32::max);
    let rope_pin_err = rope_anchor(t_end).distance(rope_end[0]);
    let pin_err = cloth_pin_err.max(rope_pin_err);
    let on_bar = match pin_err {
        0.0 => "yes, exactly".to_string(),
        e if e <= 1e-5 => format!("yes, within {e:.1e} m"),
        e => format!("NO, {e:.3e} m off"),
    };

    let mut stats = SinewWorldStats::default();
    check(sinew_world_get_stats(world, &mut stats), "sinew_world_get_stats")?;
    let ci = body_info(cloth)?;
    let ri = body_info(rope)?;
    let (cloth_stretch, rope_stretch) = (max_stretch(cloth)?, max_stretch(rope)?);
    let (mut lo, mut hi) = (SinewVec3::default(), SinewVec3::default());
    check(sinew_body_get_bounds(cloth, &mut lo, &mut hi), "sinew_body_get_bounds")?;
    if ci.recoveries + ri.recoveries > 0 {
        return Err(format!("the solver rolled back {} non-finite steps", ci.recoveries + ri.recoveries));
    }
    let mean_us = step_seconds.iter().sum::<f64>() / step_seconds.len() as f64 * 1e6;
    let mut sorted = step_seconds.clone();
    sorted.sort_by(f64::total_cmp);
    let median_us = sorted[sorted.len() / 2] * 1e6;

    let summary = format!(
        "sinew demo: a curtain on a moving bar and a rope, through the C ABI (version {abi})\n\
         frames simulated   : {frames} at 1/60 s ({steps} fixed steps, {sub} substeps x {it} iterations); bar moves {mv:.1} s, then rests {st:.1} s\n\
         particles          : {p} (cloth {cp} = {COLS} x {ROWS}, rope {rp})\n\
         constraints        : {k} (cloth {ck}, rope {rk})\n\
         max stretch ratio  : cloth {cs:.5} ({csp:.2} %), rope {rs:.5} ({rsp:.2} %)\n\
         lowest cloth point : y = {low:.3} m at the end (bar at y = {BAR_Y:.3} m, cloth {ht:.2} m tall); lowest during the run {lowe:.3} m\n\
         at rest            : fastest cloth particle {end_speed:.3} m/s in the last frame\n\
         pins on the bar    : {on_bar} (all {COLS} cloth pins and the rope's end)\n\
         time per step      : {mean_us:.1} us average, {median_us:.1} us median over {frames} steps ({thr} threads)\n\
         picture            : {png}\n",
        abi = sinew_abi_version(),
        frames = TOTAL_FRAMES,
        steps = stats.steps,
        sub = wd.substeps,
        it = wd.iterations,
        mv = MOVE_FRAMES as f32 * DT,
        st = SETTLE_FRAMES as f32 * DT,
        p = stats.particle_count,
        cp = ci.particle_count,
        rp = ri.particle_count,
        k = stats.constraint_count,
        ck = ci.constraint_count,
        rk = ri.constraint_count,
        cs = cloth_stretch,
        csp = cloth_stretch * 100.0,
        rs = rope_stretch,
        rsp = rope_stretch * 100.0,
        low = lo.y,
        ht = height,
        lowe = cloth_lowest_ever,
        thr = stats.thread_count,
        png = png_path.display(),
    );

    check(sinew_body_destroy(rope), "sinew_body_destroy (rope)")?;
    check(sinew_body_destroy(cloth), "sinew_body_destroy (cloth)")?;
    check(sinew_world_destroy(world), "sinew_world_destroy")?;
    Ok(RunResult { snapshots, summary })
}

// --- character scene -----------------------------------------------------------------
//
// A capsule character (the colliders are its body) wearing a cape and a ponytail. The host
// side of a game is played here by hand: a procedural walk/run cycle poses a small skeleton
// every frame, and the skeleton's frames become collider transforms, the cape's three bones,
// the hair's head bone and both bodies' root transform.

const CH_FRAMES: u32 = 690;
const WALK_SPEED: f32 = 1.4;
const RUN_SPEED: f32 = 5.0;
/// (time in s, root speed in m/s): the speed eases (smoothstep) from key to key.
const SPEED_KEYS: [(f32, f32); 10] = [
    (0.5, 0.0),
    (1.3, WALK_SPEED),
    (2.5, WALK_SPEED),
    (3.3, RUN_SPEED),
    (4.8, RUN_SPEED),
    (5.15, 0.0),
    (7.4, 0.0),
    (8.0, WALK_SPEED),
    (9.3, WALK_SPEED),
    (9.8, 0.0),
];
/// The character turns left by a quarter turn between these times (s), while walking.
const TURN: (f32, f32) = (7.7, 9.0);
/// In this frame the root lands `TELEPORT_JUMP` from where it was: the cape and the hair
/// must come along by themselves (`teleport_distance`), with no stretch and no spike.
const TELEPORT_FRAME: u32 = 408;
const TELEPORT_JUMP: Vec3 = Vec3::new(20.0, 0.0, 0.0);
/// Wind from ahead on the character's right from this time (s) to the end.
const WIND_START: f32 = 10.0;
const WIND_SPEED: f32 = 6.0;
/// Which frame a panel shows.
#[derive(Clone, Copy, Debug)]
enum Pick {
    At(u32),
    /// The frame in [t0, t1) s whose cape angle is the window's median: a typical moment.
    Typical(f32, f32),
    /// The frame in [t0, t1) s where the cape swings furthest forward.
    MostForward(f32, f32),
}

/// The panels, with their captions.
const CH_PANELS: [(Pick, &str); 6] = [
    (Pick::At(140), "WALK"),
    (Pick::Typical(3.8, 4.8), "RUN"),
    (Pick::MostForward(4.8, 6.0), "STOP"),
    (Pick::At(TELEPORT_FRAME - 1), "BEFORE TELEPORT"),
    (Pick::At(TELEPORT_FRAME), "TELEPORTED +20 M"),
    (Pick::At(CH_FRAMES - 20), "TURNED 90, WIND"),
];

impl Pick {
    fn wants(self, frame: u32, t: f32) -> bool {
        match self {
            Pick::At(f) => f == frame,
            Pick::Typical(t0, t1) | Pick::MostForward(t0, t1) => (t0..t1).contains(&t),
        }
    }

    /// Chooses among the candidates (cape angle, panel), in frame order.
    fn choose<T>(self, mut candidates: Vec<(f32, T)>) -> Option<T> {
        let i = match self {
            Pick::At(_) => 0,
            Pick::Typical(..) => {
                let mut angles: Vec<f32> = candidates.iter().map(|c| c.0).collect();
                angles.sort_by(f32::total_cmp);
                let median = *angles.get(angles.len() / 2)?;
                (0..candidates.len()).min_by(|&a, &b| (candidates[a].0 - median).abs().total_cmp(&(candidates[b].0 - median).abs()))?
            }
            Pick::MostForward(..) => (0..candidates.len()).min_by(|&a, &b| candidates[a].0.total_cmp(&candidates[b].0))?,
        };
        (i < candidates.len()).then(|| candidates.swap_remove(i).1)
    }
}

const HAIR_STRANDS: usize = 64;
const HAIR_PER_STRAND: usize = 12;
const CAPE_COLS: u32 = 14;
const CAPE_ROWS: u32 = 20;
const CAPE_WIDTH: f32 = 0.52;
const CAPE_LENGTH: f32 = 0.95;

fn smoothstep(u: f32) -> f32 {
    let u = u.clamp(0.0, 1.0);
    u * u * (3.0 - 2.0 * u)
}

fn root_speed(t: f32) -> f32 {
    let mut last = (0.0, 0.0);
    for &(tk, vk) in &SPEED_KEYS {
        if t < tk {
            return last.1 + (vk - last.1) * smoothstep((t - last.0) / (tk - last.0));
        }
        last = (tk, vk);
    }
    last.1
}

fn root_yaw(t: f32) -> f32 {
    std::f32::consts::FRAC_PI_2 * smoothstep((t - TURN.0) / (TURN.1 - TURN.0))
}

/// Where the character is and how it moves in one frame.
#[derive(Clone, Copy, Debug)]
struct Motion {
    position: Vec3,
    yaw: f32,
    speed: f32,
    /// Gait cycle angle (rad): the left leg is forward at π/2.
    phase: f32,
    /// How much of a gait there is (0 standing, 1 walking or faster), and how much running.
    gait: f32,
    run: f32,
    /// Torso pitch forward (rad).
    lean: f32,
    /// The camera's yaw: the heading, followed with a lag.
    camera_yaw: f32,
}

impl Motion {
    fn root(&self) -> Mat4 {
        Mat4::from_rotation_translation(Quat::from_rotation_y(self.yaw), self.position)
    }
}

/// The whole script, frame by frame (index = frame, 0 = the pose the bodies are made in).
fn character_script() -> Vec<Motion> {
    let mut out = Vec::with_capacity(CH_FRAMES as usize + 1);
    let (mut position, mut phase, mut camera_yaw) = (Vec3::ZERO, 0.0f32, 0.0f32);
    for frame in 0..=CH_FRAMES {
        let t = frame as f32 * DT;
        let (speed, yaw) = (root_speed(t), root_yaw(t));
        if frame > 0 {
            let mid = t - DT / 2.0;
            let heading = Quat::from_rotation_y(root_yaw(mid)) * Vec3::Z;
            position += heading * root_speed(mid) * DT;
            // Cadence rises with speed: about 0.95 strides/s walking, 1.45 running.
            phase += std::f32::consts::TAU * (0.75 + 0.14 * speed) * DT;
            camera_yaw += (yaw - camera_yaw) * (DT / 0.8).min(1.0);
        }
        if frame == TELEPORT_FRAME {
            position += TELEPORT_JUMP;
        }
        let accel = (root_speed(t + DT) - root_speed(t - DT)) / (2.0 * DT);
        let gait = (speed / 1.2).clamp(0.0, 1.0);
        let run = ((speed - WALK_SPEED) / (RUN_SPEED - WALK_SPEED)).clamp(0.0, 1.0);
        // Lean into the run, and against a change of speed (back when braking).
        let lean = 0.04 * gait + 0.2 * run + (0.02 * accel).clamp(-0.12, 0.15);
        out.push(Motion { position, yaw, speed, phase, gait, run, lean, camera_yaw });
    }
    out
}

/// Bone frames of the character (rigid, world space). Index 0 of a pair is the left side
/// (+X in the character's frame: it faces +Z with +Y up).
#[derive(Clone, Copy, Debug)]
struct Rig {
    chest: Mat4,
    neck: Mat4,
    head: Mat4,
    /// The shoulder joints without the arm's swing: the cape's shoulder bones.
    shoulder: [Mat4; 2],
    upper_arm: [Mat4; 2],
    forearm: [Mat4; 2],
    thigh: [Mat4; 2],
    shin: [Mat4; 2],
    foot: [Mat4; 2],
}

const HIP_HEIGHT: f32 = 0.97;
const THIGH: f32 = 0.44;
const SHIN: f32 = 0.44;
const UPPER_ARM: f32 = 0.28;
const FOREARM: f32 = 0.26;

fn tr(x: f32, y: f32, z: f32) -> Mat4 {
    Mat4::from_translation(Vec3::new(x, y, z))
}

fn rx(a: f32) -> Mat4 {
    Mat4::from_rotation_x(a)
}

fn rig(m: &Motion) -> Rig {
    let (a, r, phi) = (m.gait, m.run, m.phase);
    // The pelvis rises and falls twice per stride, and sits lower in a run.
    let bob = a * (0.012 + 0.03 * r) * (2.0 * phi).cos() - 0.025 * r;
    let pelvis = m.root() * tr(0.0, HIP_HEIGHT + bob, 0.0) * Mat4::from_rotation_y(0.1 * a * phi.sin());
    // The upper body leans; its shoulders turn against the hips.
    let chest = pelvis * rx(m.lean) * Mat4::from_rotation_y(-(0.16 + 0.14 * r) * a * phi.sin());
    // The neck turns with the chest (it carries the cape's collar); the head looks ahead.
    let neck = chest * tr(0.0, 0.47, 0.0);
    let head = neck * rx(-0.6 * m.lean) * tr(0.0, 0.1, 0.0) * rx(-0.2 * m.lean);
    let mut rig = Rig { chest, neck, head, shoulder: [Mat4::IDENTITY; 2], upper_arm: [Mat4::IDENTITY; 2], forearm: [Mat4::IDENTITY; 2], thigh: [Mat4::IDENTITY; 2], shin: [Mat4::IDENTITY; 2], foot: [Mat4::IDENTITY; 2] };
    for s in 0..2 {
        let side = if s == 0 { 1.0 } else { -1.0 };
        let ph = phi + s as f32 * PI;
        // Leg forward (a negative angle about X swings −Y towards +Z) while its arm goes back.
        let swing = (0.42 + 0.1 * r) * a * ph.sin();
        // The knee folds while the leg swings forward; in a run, from just after push-off.
        let knee = a * (0.08 + (0.55 + 1.2 * r) * (ph + 0.7 * r).cos().max(0.0).powf(1.5)) + 0.2 * r * a;
        rig.thigh[s] = pelvis * tr(side * 0.1, -0.03, 0.0) * rx(-swing) * Mat4::from_rotation_z(side * 0.03);
        rig.shin[s] = rig.thigh[s] * tr(0.0, -THIGH, 0.0) * rx(knee);
        rig.foot[s] = rig.shin[s] * tr(0.0, -SHIN, 0.0) * rx(0.7 * (swing - knee - m.lean));
        rig.shoulder[s] = chest * tr(side * 0.2, 0.43, 0.0);
        let arm = (0.3 + 0.5 * r) * a * ph.sin();
        rig.upper_arm[s] = rig.shoulder[s] * rx(arm) * Mat4::from_rotation_z(side * (0.07 + 0.12 * r));
        rig.forearm[s] = rig.upper_arm[s] * tr(0.0, -UPPER_ARM, 0.0) * rx(-(0.12 + 0.15 * a + 1.15 * r));
    }
    // Plant the lower foot on the ground: the whole skeleton moves up or down to meet it.
    let lowest = foot_parts()
        .iter()
        .map(|p| {
            let c = capsule_shape(p, &rig);
            (c.c0.y - c.r0).min(c.c1.y - c.r1)
        })
        .fold(f32::INFINITY, f32::min);
    let lift = Mat4::from_translation(Vec3::new(0.0, m.position.y - lowest, 0.0));
    for f in [&mut rig.chest, &mut rig.neck, &mut rig.head] {
        *f = lift * *f;
    }
    for pair in [&mut rig.shoulder, &mut rig.upper_arm, &mut rig.forearm, &mut rig.thigh, &mut rig.shin, &mut rig.foot] {
        pair.iter_mut().for_each(|f| *f = lift * *f);
    }
    rig
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Paint {
    Shirt,
    Skin,
    Trousers,
    Boots,
    /// Skin with a hair cap on the top and back, and eyes.
    Head,
    Hair,
}

impl Paint {
    /// Colour at a point whose normal in the part's own frame is `n`.
    fn color(self, n: Vec3) -> Vec3 {
        let skin = Vec3::new(0.86, 0.62, 0.47);
        match self {
            Paint::Shirt => Vec3::new(0.28, 0.43, 0.66),
            Paint::Skin => skin,
            Paint::Trousers => Vec3::new(0.20, 0.21, 0.26),
            Paint::Boots => Vec3::new(0.33, 0.19, 0.10),
            Paint::Hair => Vec3::new(0.30, 0.16, 0.07),
            Paint::Head => {
                let eye = |x: f32| (n - Vec3::new(x, 0.05, 0.93).normalize()).length() < 0.12;
                if n.y > 0.35 - 0.5 * (-n.z).max(0.0) && !(n.z > 0.3 && n.y < 0.55) {
                    Paint::Hair.color(n)
                } else if eye(0.33) || eye(-0.33) {
                    Vec3::new(0.08, 0.06, 0.05)
                } else {
                    skin
                }
            }
        }
    }
}

#[derive(Clone, Copy, Debug)]
enum Bone {
    Chest,
    Neck,
    Head,
    UpperArm(usize),
    Forearm(usize),
    Thigh(usize),
    Shin(usize),
    Foot(usize),
}

impl Rig {
    fn frame(&self, b: Bone) -> Mat4 {
        match b {
            Bone::Chest => self.chest,
            Bone::Neck => self.neck,
            Bone::Head => self.head,
            Bone::UpperArm(s) => self.upper_arm[s],
            Bone::Forearm(s) => self.forearm[s],
            Bone::Thigh(s) => self.thigh[s],
            Bone::Shin(s) => self.shin[s],
            Bone::Foot(s) => self.foot[s],
        }
    }
}

/// A tapered capsule on a bone: along the bone's Y axis (its Z axis when `along_z`), centred
/// at `centre` in the bone's frame; `r0` at the −Y end (the far end of a limb), `r1` at +Y.
#[derive(Clone, Copy, Debug)]
struct Part {
    bone: Bone,
    centre: Vec3,
    along_z: bool,
    half_height: f32,
    r0: f32,
    r1: f32,
    paint: Paint,
}

impl Part {
    const fn on(bone: Bone, centre: Vec3, half_height: f32, r0: f32, r1: f32, paint: Paint) -> Part {
        Part { bone, centre, along_z: false, half_height, r0, r1, paint }
    }

    /// The collider's transform (rigid): the shape's local Y axis along the capsule.
    fn transform(&self, rig: &Rig) -> Mat4 {
        let axis = if self.along_z { rx(PI / 2.0) } else { Mat4::IDENTITY };
        rig.frame(self.bone) * Mat4::from_translation(self.centre) * axis
    }
}

/// The character's body: every part is a Sinew collider.
fn body_parts() -> Vec<Part> {
    use Bone::*;
    let mut parts = vec![
        Part::on(Chest, Vec3::new(0.0, 0.19, 0.0), 0.15, 0.12, 0.14, Paint::Shirt),
        Part::on(Neck, Vec3::new(0.0, 0.02, 0.0), 0.04, 0.05, 0.045, Paint::Skin),
        Part::on(Head, Vec3::new(0.0, 0.1, 0.01), 0.025, 0.09, 0.1, Paint::Head),
    ];
    for s in 0..2 {
        parts.extend([
            Part::on(UpperArm(s), Vec3::new(0.0, -UPPER_ARM / 2.0, 0.0), UPPER_ARM / 2.0, 0.043, 0.055, Paint::Shirt),
            Part::on(Forearm(s), Vec3::new(0.0, -FOREARM / 2.0, 0.0), FOREARM / 2.0, 0.034, 0.042, Paint::Skin),
            Part::on(Thigh(s), Vec3::new(0.0, -THIGH / 2.0, 0.0), THIGH / 2.0, 0.056, 0.08, Paint::Trousers),
            Part::on(Shin(s), Vec3::new(0.0, -SHIN / 2.0, 0.0), SHIN / 2.0, 0.043, 0.056, Paint::Trousers),
        ]);
    }
    parts.extend(foot_parts());
    parts
}

fn foot_parts() -> [Part; 2] {
    [0, 1].map(|s| Part { along_z: true, ..Part::on(Bone::Foot(s), Vec3::new(0.0, -0.015, 0.055), 0.065, 0.042, 0.046, Paint::Boots) })
}

/// Drawn only (not colliders): nose and the ponytail's tie.
fn decorations() -> [Part; 2] {
    [
        Part::on(Bone::Head, Vec3::new(0.0, 0.075, 0.11), 0.008, 0.017, 0.014, Paint::Skin),
        Part::on(Bone::Head, HAIR_TIE, 0.0, 0.024, 0.024, Paint::Hair),
    ]
}

/// Where the ponytail is tied, in the head bone's frame.
const HAIR_TIE: Vec3 = Vec3::new(0.0, 0.165, -0.085);

/// The ponytail as the head bone has it at rest: `HAIR_STRANDS` strands from a small disc at
/// the tie, leaving backwards and a little up, curving down and fanning out.
fn ponytail_local() -> Vec<Vec3> {
    let mut pts = Vec::with_capacity(HAIR_STRANDS * HAIR_PER_STRAND);
    let segment = 0.026;
    let golden = PI * (3.0 - 5f32.sqrt());
    for s in 0..HAIR_STRANDS {
        // Sunflower spiral over the disc, so the roots spread evenly.
        let rr = 0.022 * ((s as f32 + 0.5) / HAIR_STRANDS as f32).sqrt();
        let (sn, cs) = (s as f32 * golden).sin_cos();
        let (dx, dy) = (rr * cs, rr * sn);
        let mut p = HAIR_TIE + Vec3::new(dx, dy, 0.0);
        for i in 0..HAIR_PER_STRAND {
            pts.push(p);
            let u = i as f32 / (HAIR_PER_STRAND - 1) as f32;
            // Tangent from 25° above backwards to straight down.
            let beta = 0.44 - (0.44 + PI / 2.0) * u.powf(0.8);
            let spread = Vec3::new(dx, dy * 0.5, 0.0) * 1.6;
            p += (Vec3::new(0.0, beta.sin(), -beta.cos()) * segment) + spread * (segment / 0.1);
        }
    }
    pts
}

fn m4(m: Mat4) -> SinewMat4 {
    SinewMat4 { m: m.to_cols_array() }
}

/// A capsule for the renderer: end centres and radii, its frame's rotation (to paint in the
/// part's frame) and its paint.
#[derive(Clone, Copy, Debug)]
struct CapsuleShape {
    c0: Vec3,
    c1: Vec3,
    r0: f32,
    r1: f32,
    frame: Quat,
    paint: Paint,
}

fn capsule_shape(part: &Part, rig: &Rig) -> CapsuleShape {
    let m = part.transform(rig);
    let (_, frame_rot, _) = rig.frame(part.bone).to_scale_rotation_translation();
    CapsuleShape {
        c0: m.transform_point3(Vec3::new(0.0, -part.half_height, 0.0)),
        c1: m.transform_point3(Vec3::new(0.0, part.half_height, 0.0)),
        r0: part.r0,
        r1: part.r1,
        frame: frame_rot,
        paint: part.paint,
    }
}

/// What one character panel needs.
struct CharacterSnapshot {
    caption: String,
    capsules: Vec<CapsuleShape>,
    cape: Vec<Vec3>,
    cape_normals: Vec<Vec3>,
    /// +1 when Sinew's normals point away from the back (the cape's outside), else −1.
    cape_outside: f32,
    cape_triangles: Vec<[usize; 3]>,
    hair: Vec<Vec3>,
    eye: Vec3,
    target: Vec3,
    light: Vec3,
    /// The root's path so far, drawn on the ground.
    trail: Vec<Vec3>,
    /// Ground discs: centre, radius, colour (where the teleport started and landed).
    pads: Vec<(Vec3, f32, Vec3)>,
}

/// Cape angle behind the vertical (degrees, positive = trailing behind the back), measured in
/// the root's frame from the top row's middle to the hem's middle.
fn cape_angle(cape: &[Vec3], root: &Mat4) -> f32 {
    let inv = root.inverse();
    let c = CAPE_COLS as usize;
    let mean = |row: usize| cape[row * c..(row + 1) * c].iter().map(|p| inv.transform_point3(*p)).sum::<Vec3>() / c as f32;
    let d = mean(CAPE_ROWS as usize - 1) - mean(0);
    (-d.z).atan2(-d.y).to_degrees()
}

/// Largest stretch `length/rest − 1` over the cape's grid edges (rows and columns), from the
/// generator's layout: `width/(columns−1)` across, `length/(rows−1)` down. Unlike
/// `sinew_body_get_max_stretch` it leaves out bend pairs, which shorten wherever cloth folds.
fn cape_edge_stretch(cape: &[Vec3]) -> f32 {
    let (c, r) = (CAPE_COLS as usize, CAPE_ROWS as usize);
    let (across, down) = (CAPE_WIDTH / (c - 1) as f32, CAPE_LENGTH / (r - 1) as f32);
    let mut worst = 0.0f32;
    for row in 0..r {
        for col in 0..c {
            let i = row * c + col;
            if col + 1 < c {
                worst = worst.max(cape[i].distance(cape[i + 1]) / across - 1.0);
            }
            if row + 1 < r {
                worst = worst.max(cape[i].distance(cape[i + c]) / down - 1.0);
            }
        }
    }
    worst
}

/// Largest particle speed relative to the character's root over one frame (m/s).
fn relative_speed(prev: &[Vec3], now: &[Vec3], root_prev: &Mat4, root_now: &Mat4) -> f32 {
    let (ip, inow) = (root_prev.inverse(), root_now.inverse());
    prev.iter().zip(now).map(|(a, b)| (inow.transform_point3(*b) - ip.transform_point3(*a)).length() / DT).fold(0.0, f32::max)
}

fn read_indices(body: SinewBody) -> Res<Vec<[usize; 3]>> {
    let mut n = 0usize;
    check(sinew_body_get_index_count(body, &mut n), "sinew_body_get_index_count")?;
    let mut idx = vec![0u32; n];
    check(sinew_body_read_indices(body, idx.as_mut_ptr(), n), "sinew_body_read_indices")?;
    Ok(idx.chunks(3).map(|t| [t[0] as usize, t[1] as usize, t[2] as usize]).collect())
}

struct CharacterRun {
    snapshots: Vec<CharacterSnapshot>,
    summary: String,
}

fn simulate_character(png_path: &Path) -> Res<CharacterRun> {
    let script = character_script();
    let parts = body_parts();
    let rig0 = rig(&script[0]);

    let mut wd = std::mem::MaybeUninit::<SinewWorldDesc>::uninit();
    check(sinew_world_desc_default(wd.as_mut_ptr()), "sinew_world_desc_default")?;
    let mut wd = unsafe { wd.assume_init() };
    wd.substeps = 16;
    wd.iterations = 1;
    let mut world = SinewWorld::default();
    check(sinew_world_create(&wd, &mut world), "sinew_world_create (character)")?;

    // The body: one tapered capsule collider per part.
    let mut colliders = Vec::with_capacity(parts.len());
    for part in &parts {
        let mut cd = std::mem::MaybeUninit::<SinewColliderDesc>::uninit();
        check(sinew_collider_desc_default(cd.as_mut_ptr()), "sinew_collider_desc_default")?;
        let mut cd = unsafe { cd.assume_init() };
        cd.shape = SinewShape::SINEW_SHAPE_CAPSULE as u32;
        cd.half_height = part.half_height;
        cd.radius0 = part.r0;
        cd.radius1 = part.r1;
        cd.transform = m4(part.transform(&rig0));
        let mut c = SinewCollider::default();
        check(sinew_collider_create(world, &cd, &mut c), "sinew_collider_create")?;
        colliders.push(c);
    }

    // The cape, on the shoulders and neck as they are now.
    let mut cd = std::mem::MaybeUninit::<SinewClothCapeDesc>::uninit();
    check(sinew_cloth_cape_desc_default(cd.as_mut_ptr()), "sinew_cloth_cape_desc_default")?;
    let mut cd = unsafe { cd.assume_init() };
    cd.columns = CAPE_COLS;
    cd.rows = CAPE_ROWS;
    cd.width = CAPE_WIDTH;
    cd.length = CAPE_LENGTH;
    cd.back_offset = 0.16;
    cd.left_shoulder = m4(rig0.shoulder[0]);
    cd.neck = m4(rig0.neck);
    cd.right_shoulder = m4(rig0.shoulder[1]);
    // About 0.6 kg/m², a heavy cotton: light enough for the air to lift it in a run.
    cd.material.particle_mass = 0.28 / (CAPE_COLS * CAPE_ROWS) as f32;
    cd.material.thickness = 0.012;
    cd.material.bend_compliance = 0.01;
    // Air drag beyond the aerodynamics, so the cape settles within a second or two of a stop;
    // low friction, so it slides round the legs instead of sticking to them.
    cd.material.damping = 1.0;
    cd.material.static_friction = 0.2;
    cd.material.kinetic_friction = 0.16;
    let mut cape = SinewBody::default();
    check(sinew_cloth_create_cape(world, &cd, &mut cape), "sinew_cloth_create_cape")?;

    // The ponytail, on the head as it is now.
    let hair_local = ponytail_local();
    let hair_points: Vec<SinewVec3> = hair_local.iter().map(|p| sv(rig0.head.transform_point3(*p))).collect();
    let mut hd = std::mem::MaybeUninit::<SinewStrandsDesc>::uninit();
    check(sinew_strands_desc_default(hd.as_mut_ptr()), "sinew_strands_desc_default")?;
    let mut hd = unsafe { hd.assume_init() };
    hd.mode = SinewStrandsMode::SINEW_STRANDS_POINTS as u32;
    hd.points = hair_points.as_ptr();
    hd.point_count = hair_points.len();
    hd.particles_per_strand = HAIR_PER_STRAND as u32;
    hd.head = m4(rig0.head);
    let mut hair = SinewBody::default();
    check(sinew_strands_create(world, &hd, &mut hair), "sinew_strands_create")?;

    // Dynamics: feel 70 % of the character's motion as motion through the world, cap the
    // speed relative to it, and carry everything along when the root jumps more than 3 m.
    for (body, name, pose) in [(cape, "cape", None), (hair, "hair", Some(3.0f32))] {
        let mut d = std::mem::MaybeUninit::<SinewDynamics>::uninit();
        check(sinew_body_get_dynamics(body, d.as_mut_ptr()), "sinew_body_get_dynamics")?;
        let mut d = unsafe { d.assume_init() };
        d.world_velocity_scale = 0.7;
        d.world_acceleration_scale = 1.0;
        d.max_speed = 10.0;
        d.teleport_distance = 3.0;
        if let Some(k) = pose {
            d.pose_stiffness = k;
        }
        check(sinew_body_set_dynamics(body, &d), &format!("sinew_body_set_dynamics ({name})"))?;
        // LOD as a game would set it; the camera follows the character, so it stays full.
        // Both distances lie beyond the 20 m jump: Sinew picks a frame's LOD before it
        // applies the frame's root motion, so in the teleport frame it measures from where
        // the body was.
        let mut l = std::mem::MaybeUninit::<SinewLod>::uninit();
        check(sinew_lod_default(l.as_mut_ptr()), "sinew_lod_default")?;
        let mut l = unsafe { l.assume_init() };
        l.reduce_distance = 25.0;
        l.reduced_substeps = 4;
        l.freeze_distance = 60.0;
        check(sinew_body_set_lod(body, &l), &format!("sinew_body_set_lod ({name})"))?;
    }
    let cape_triangles = read_indices(cape)?;
    let cape_info0 = body_info(cape)?;
    if cape_info0.vertex_count != CAPE_COLS * CAPE_ROWS {
        return Err(format!("the cape has {} vertices, not {} x {}", cape_info0.vertex_count, CAPE_COLS, CAPE_ROWS));
    }
    // Which way Sinew's normals face: the outside of the cape faces away from the back.
    let cape_outside = {
        let n = read(cape, true, "cape normals at start")?;
        let back = rig0.chest.transform_vector3(-Vec3::Z);
        if n.iter().sum::<Vec3>().dot(back) >= 0.0 { 1.0 } else { -1.0 }
    };

    // Candidate panels (cape angle, picture) per panel, chosen from when the run is over.
    let mut panels: Vec<Vec<(f32, CharacterSnapshot)>> = CH_PANELS.iter().map(|_| Vec::new()).collect();
    let mut step_seconds = Vec::with_capacity(CH_FRAMES as usize);
    let mut prev_cape = read(cape, false, "cape at start")?;
    let mut prev_hair = read(hair, false, "hair at start")?;
    let mut prev_root = script[0].root();
    // Measurements.
    let (mut walk_angle, mut walk_n) = (0.0f32, 0);
    let (mut run_angle, mut run_n, mut run_max) = (0.0f32, 0, f32::MIN);
    let mut stop_min = f32::MAX;
    let mut stop_min_frame = 0;
    let mut rest_angle = 0.0f32;
    let mut rest_speed = 0.0f32;
    let (mut stretch_before, mut stretch_at, mut stretch_after) = (0.0f32, 0.0f32, 0.0f32);
    let (mut speed_before, mut speed_at) = ([0.0f32; 2], [0.0f32; 2]);
    let mut stretch_run_max = [0.0f32; 2];
    let mut edge_stretch_max = 0.0f32;
    let mut edge_stretch_frames = 0u32;
    let mut wind_angle = (f32::MIN, 0.0f32, 0u32); // (largest, sum, count) of the cape's angle in the wind
    let mut camera_distance = 0.0f32;
    let mut lod_seen = (u32::MAX, 0u32, 0u32); // (fewest substeps, most substeps, frames frozen)
    let stop_frame = (SPEED_KEYS[5].0 / DT).round() as u32;
    let teleport_from = script[TELEPORT_FRAME as usize - 1].position;
    let teleport_to = script[TELEPORT_FRAME as usize].position;

    for frame in 1..=CH_FRAMES {
        let m = script[frame as usize];
        let t = frame as f32 * DT;
        let r = rig(&m);
        let root = m.root();
        // The host's frame: colliders, root and bones where they are at the end of it.
        for (part, c) in parts.iter().zip(&colliders) {
            let x = m4(part.transform(&r));
            if frame == TELEPORT_FRAME {
                // The body jumps; sweeping its colliders through the 20 m between would
                // drag at nothing, but a host teleports them all the same.
                check(sinew_collider_teleport(*c, &x), "sinew_collider_teleport")?;
            } else {
                check(sinew_collider_set_transform(*c, &x), "sinew_collider_set_transform")?;
            }
        }
        for (body, name) in [(cape, "cape"), (hair, "hair")] {
            check(sinew_body_set_root_transform(body, &m4(root)), &format!("sinew_body_set_root_transform ({name})"))?;
        }
        let cape_bones = [m4(r.shoulder[0]), m4(r.neck), m4(r.shoulder[1])];
        check(sinew_body_set_bone_matrices(cape, cape_bones.as_ptr(), 3), "sinew_body_set_bone_matrices (cape)")?;
        check(sinew_body_set_bone_matrices(hair, &m4(r.head), 1), "sinew_body_set_bone_matrices (hair)")?;
        if frame == (WIND_START / DT).round() as u32 {
            let mut w = std::mem::MaybeUninit::<SinewWind>::uninit();
            check(sinew_wind_default(w.as_mut_ptr()), "sinew_wind_default")?;
            let mut w = unsafe { w.assume_init() };
            // From ahead on the character's right: back and towards its left, so it meets the
            // cape's face (wind along a hanging cape only grazes it).
            w.direction = sv(root.transform_vector3(Vec3::new(0.7, 0.0, -1.0).normalize()));
            w.speed = WIND_SPEED;
            w.turbulence = 0.3;
            w.gust_strength = 0.4;
            check(sinew_world_set_wind(world, &w), "sinew_world_set_wind")?;
        }
        // The camera follows the character; LOD measures from it.
        let cam_rot = Quat::from_rotation_y(m.camera_yaw);
        let target = m.position + cam_rot * Vec3::new(0.0, 0.95, -0.15);
        let eye = m.position + cam_rot * Vec3::new(2.6, 1.45, -1.1);
        check(sinew_world_set_camera(world, sv(eye)), "sinew_world_set_camera")?;

        let t0 = Instant::now();
        check(sinew_world_step(world, DT), "sinew_world_step (character)")?;
        step_seconds.push(t0.elapsed().as_secs_f64());

        let cape_now = read(cape, false, &format!("cape positions, frame {frame}"))?;
        let hair_now = read(hair, false, &format!("hair positions, frame {frame}"))?;
        let speeds = [relative_speed(&prev_cape, &cape_now, &prev_root, &root), relative_speed(&prev_hair, &hair_now, &prev_root, &root)];
        let stretch = [max_stretch(cape)?, max_stretch(hair)?];
        let edge = cape_edge_stretch(&cape_now);
        edge_stretch_max = edge_stretch_max.max(edge);
        edge_stretch_frames += (edge > 0.05) as u32;
        let angle = cape_angle(&cape_now, &root);
        for k in 0..2 {
            stretch_run_max[k] = stretch_run_max[k].max(stretch[k]);
        }
        if (1.6..2.5).contains(&t) {
            walk_angle += angle;
            walk_n += 1;
        }
        if (3.8..4.8).contains(&t) {
            run_angle += angle;
            run_n += 1;
            run_max = run_max.max(angle);
        }
        if frame > stop_frame - 20 && t < 6.5 && angle < stop_min {
            stop_min = angle;
            stop_min_frame = frame;
        }
        match frame {
            f if f == TELEPORT_FRAME - 1 => {
                stretch_before = stretch[0];
                speed_before = speeds;
                rest_angle = angle;
                rest_speed = speeds[0];
            }
            f if f == TELEPORT_FRAME => {
                stretch_at = stretch[0];
                speed_at = speeds;
            }
            f if f > TELEPORT_FRAME && f <= TELEPORT_FRAME + 30 => stretch_after = stretch_after.max(stretch[0]),
            _ => {}
        }
        if t >= WIND_START {
            wind_angle.0 = wind_angle.0.max(angle);
            if t >= WIND_START + 0.5 {
                wind_angle.1 += angle;
                wind_angle.2 += 1;
            }
        }
        for body in [cape, hair] {
            let i = body_info(body)?;
            lod_seen = (lod_seen.0.min(i.substeps), lod_seen.1.max(i.substeps), lod_seen.2 + i.frozen);
        }
        camera_distance = camera_distance.max(eye.distance(m.position + Vec3::Y));

        for (k, &(pick, label)) in CH_PANELS.iter().enumerate() {
            if !pick.wants(frame, t) {
                continue;
            }
            let mut capsules: Vec<CapsuleShape> = parts.iter().map(|p| capsule_shape(p, &r)).collect();
            capsules.extend(decorations().iter().map(|p| capsule_shape(p, &r)));
            let detail = match frame {
                f if f + 1 >= TELEPORT_FRAME && f <= TELEPORT_FRAME => format!(" X={:.0}", m.position.x),
                f if f > TELEPORT_FRAME => format!(" {WIND_SPEED:.0} M/S"),
                _ => format!(" {:.1} M/S", m.speed),
            };
            let snapshot = CharacterSnapshot {
                caption: format!("T={t:.2}S {label}{detail}"),
                capsules,
                cape: cape_now.clone(),
                cape_normals: read(cape, true, &format!("cape normals, frame {frame}"))?,
                cape_outside,
                cape_triangles: cape_triangles.clone(),
                hair: hair_now.clone(),
                eye,
                target,
                // Over the camera's left shoulder and high: the cape's outside and the
                // character's side facing the camera are lit.
                light: cam_rot * Vec3::new(0.7, 1.3, -1.0),
                trail: script[..=frame as usize].iter().map(|s| s.position).collect(),
                pads: vec![(teleport_from, 0.45, Vec3::new(0.25, 0.45, 0.85)), (teleport_to, 0.45, Vec3::new(0.95, 0.55, 0.15))],
            };
            panels[k].push((angle, snapshot));
        }
        prev_cape = cape_now;
        prev_hair = hair_now;
        prev_root = root;
    }

    let snapshots: Vec<CharacterSnapshot> =
        panels.into_iter().zip(CH_PANELS).map(|(c, (pick, _))| pick.choose(c).expect("every panel's window holds frames")).collect();
    let mut stats = SinewWorldStats::default();
    check(sinew_world_get_stats(world, &mut stats), "sinew_world_get_stats")?;
    let (ci, hi) = (body_info(cape)?, body_info(hair)?);
    if ci.recoveries + hi.recoveries > 0 {
        return Err(format!("the solver rolled back {} non-finite steps", ci.recoveries + hi.recoveries));
    }
    let mut sorted = step_seconds.clone();
    sorted.sort_by(f64::total_cmp);
    let median_us = sorted[sorted.len() / 2] * 1e6;
    let mean_us = step_seconds.iter().sum::<f64>() / step_seconds.len() as f64 * 1e6;
    let calm = |before: f32, at: f32| at <= 1.5 * before + 0.1;
    let spikes = match (calm(speed_before[0], speed_at[0]), calm(speed_before[1], speed_at[1])) {
        (true, true) => "no spike",
        (false, true) => "SPIKE in the cape",
        (true, false) => "SPIKE in the hair",
        (false, false) => "SPIKE in cape and hair",
    };
    let stretch_ok = if stretch_at.max(stretch_after) <= 2.0 * stretch_before + 0.01 { "no jump" } else { "JUMPED" };
    let jump = teleport_to.distance(teleport_from);

    let summary = format!(
        "\ncharacter demo: capsule character with a cape and a ponytail, through the C ABI\n\
         frames simulated   : {frames} at 1/60 s ({sub} substeps x {it} iterations): walk {ws} m/s, run {rs} m/s, stop, teleport, turn, wind\n\
         particles          : {p} (cape {cp} = {CAPE_COLS} x {CAPE_ROWS}, hair {hp} = {HAIR_STRANDS} strands x {HAIR_PER_STRAND})\n\
         constraints        : {k} (cape {ck}, hair {hk}); {nc} tapered capsule colliders move with the walk cycle\n\
         dynamics           : world_velocity_scale 0.7, max_speed 10 m/s, teleport_distance 3 m (cape and hair)\n\
         cape angle         : behind the back: walking {wa:.0} deg, running {ra:.0} deg (up to {rm:.0}); after the stop it\n\
         \x20                    swings forward to {sm:.0} deg (t = {st:.2} s); at t = {rt:.2} s it hangs at {rest:.0} deg, fastest particle {rsp:.2} m/s\n\
         teleport           : the root jumps {jump:.2} m in frame {TELEPORT_FRAME} (t = {tt:.2} s); only the root transform tells Sinew\n\
         \x20 cape stretch     : {sb:.4} the frame before, {sa:.4} in the teleport frame, at most {saf:.4} over the next 30 frames: {stretch_ok}\n\
         \x20 particle speed   : relative to the character, frame before -> teleport frame: cape {cb:.2} -> {ca:.2} m/s,\n\
         \x20                    hair {hb:.2} -> {ha:.2} m/s: {spikes}\n\
         wind               : {wsp} m/s from ahead-right from t = {wst:.1} s: the cape blows back {wm:.0} deg on average, up to {wx:.0}\n\
         max stretch        : worst frame of the run: cape grid edges {ecm:.4} (over 0.05 in {ecf} frames); all constraints:\n\
         \x20                    cape {scm:.4}, hair {shm:.4} (sinew_body_get_max_stretch: with bend pairs, which shorten in folds)\n\
         LOD                : reduce at 25 m, freeze at 60 m; camera at most {cd:.1} m away: {lmin}-{lmax} substeps, {lf} frozen frames\n\
         time per step      : {mean_us:.1} us average, {median_us:.1} us median over {frames} steps ({thr} threads)\n\
         picture            : {png}\n",
        frames = CH_FRAMES,
        sub = wd.substeps,
        it = wd.iterations,
        ws = WALK_SPEED,
        rs = RUN_SPEED,
        p = stats.particle_count,
        cp = ci.particle_count,
        hp = hi.particle_count,
        k = stats.constraint_count,
        ck = ci.constraint_count,
        hk = hi.constraint_count,
        nc = colliders.len(),
        wa = walk_angle / walk_n.max(1) as f32,
        ra = run_angle / run_n.max(1) as f32,
        rm = run_max,
        sm = stop_min,
        st = stop_min_frame as f32 * DT,
        rest = rest_angle,
        rt = (TELEPORT_FRAME - 1) as f32 * DT,
        rsp = rest_speed,
        tt = TELEPORT_FRAME as f32 * DT,
        sb = stretch_before,
        sa = stretch_at,
        saf = stretch_after,
        cb = speed_before[0],
        ca = speed_at[0],
        hb = speed_before[1],
        ha = speed_at[1],
        wsp = WIND_SPEED,
        wst = WIND_START,
        wm = wind_angle.1 / wind_angle.2.max(1) as f32,
        wx = wind_angle.0,
        scm = stretch_run_max[0],
        ecm = edge_stretch_max,
        ecf = edge_stretch_frames,
        shm = stretch_run_max[1],
        cd = camera_distance,
        lmin = lod_seen.0,
        lmax = lod_seen.1,
        lf = lod_seen.2,
        thr = stats.thread_count,
        png = png_path.display(),
    );

    for c in colliders {
        check(sinew_collider_destroy(c), "sinew_collider_destroy")?;
    }
    check(sinew_body_destroy(hair), "sinew_body_destroy (hair)")?;
    check(sinew_body_destroy(cape), "sinew_body_destroy (cape)")?;
    check(sinew_world_destroy(world), "sinew_world_destroy (character)")?;
    Ok(CharacterRun { snapshots, summary })
}

// --- rendering -----------------------------------------------------------------------

const PANEL_W: usize = 600;
const PANEL_H: usize = 450;
/// Supersampling per axis; each output pixel averages SS × SS samples.
const SS: usize = 3;
const FOV_Y: f32 = 0.70; // rad, about 40°

struct Camera {
    eye: Vec3,
    /// Right, up and forward unit vectors of the view.
    right: Vec3,
    up: Vec3,
    fwd: Vec3,
    w: usize,
    h: usize,
    /// Pixels per metre at one metre's distance.
    focal_px: f32,
    /// Unit direction towards the (one, distant) light.
    light: Vec3,
}

impl Camera {
    fn new(eye: Vec3, target: Vec3, light: Vec3, w: usize, h: usize) -> Camera {
        let fwd = (target - eye).normalize();
        let right = fwd.cross(Vec3::Y).normalize();
        let up = right.cross(fwd);
        Camera { eye, right, up, fwd, w, h, focal_px: h as f32 / 2.0 / (FOV_Y / 2.0).tan(), light: light.normalize() }
    }

    /// Screen x, y (pixels, y down), a depth key (−1/distance: smaller is nearer, and linear
    /// in screen space so it interpolates across a triangle), and the view distance.
    fn project(&self, p: Vec3) -> (f32, f32, f32, f32) {
        let d = p - self.eye;
        let z = d.dot(self.fwd);
        let x = self.w as f32 / 2.0 + d.dot(self.right) / z * self.focal_px;
        let y = self.h as f32 / 2.0 - d.dot(self.up) / z * self.focal_px;
        (x, y, -1.0 / z, z)
    }

    fn ray(&self, sx: f32, sy: f32) -> Vec3 {
        let x = (sx - self.w as f32 / 2.0) / self.focal_px;
        let y = (self.h as f32 / 2.0 - sy) / self.focal_px;
        (self.fwd + self.right * x + self.up * y).normalize()
    }
}

struct Canvas {
    w: usize,
    h: usize,
    color: Vec<Vec3>,
    depth: Vec<f32>,
}

impl Canvas {
    fn new(w: usize, h: usize) -> Canvas {
        Canvas { w, h, color: vec![Vec3::ZERO; w * h], depth: vec![f32::INFINITY; w * h] }
    }

    /// Writes `c` at pixel (x, y) if `z` is nearer than what is there.
    fn plot(&mut self, x: usize, y: usize, z: f32, c: Vec3) {
        let i = y * self.w + x;
        if z < self.depth[i] {
            self.depth[i] = z;
            self.color[i] = c;
        }
    }

    /// Box-filters the supersampled canvas down to one panel.
    fn downsample(&self) -> Vec<Vec3> {
        let mut out = vec![Vec3::ZERO; PANEL_W * PANEL_H];
        for y in 0..PANEL_H {
            for x in 0..PANEL_W {
                let mut sum = Vec3::ZERO;
                for sy in 0..SS {
                    for sx in 0..SS {
                        sum += self.color[(y * SS + sy) * self.w + x * SS + sx];
                    }
                }
                out[y * PANEL_W + x] = sum / (SS * SS) as f32;
            }
        }
        out
    }
}

/// The curtain's light: from the upper right, a little in front of the curtain, so that folds
/// catch light on one side and fall into shade on the other.
const CURTAIN_LIGHT: Vec3 = Vec3::new(0.8, 0.75, 0.45);

/// Ground-space coverage in [0, 1] over a square of half-size `ext` around `centre`, of
/// things projected onto the ground (y = 0) along `along`: a shadow (along the light) or a
/// mark on the ground (along +Y).
struct GroundMap {
    cells: Vec<f32>,
    centre: (f32, f32),
    ext: f32,
    along: Vec3,
}

const SHADOW_N: usize = 512;

impl GroundMap {
    fn new(centre: (f32, f32), ext: f32, along: Vec3) -> GroundMap {
        GroundMap { cells: vec![0.0; SHADOW_N * SHADOW_N], centre, ext, along: along.normalize() }
    }

    /// Where `p` lands on the ground, as (x, z).
    fn ground_point(&self, p: Vec3) -> (f32, f32) {
        let q = p - self.along * (p.y / self.along.y);
        (q.x, q.z)
    }

    fn cell(&self, x: f32, z: f32) -> (f32, f32) {
        let n = SHADOW_N as f32;
        ((x - self.centre.0 + self.ext) / (2.0 * self.ext) * n, (z - self.centre.1 + self.ext) / (2.0 * self.ext) * n)
    }

    /// The shadow of a world triangle.
    fn triangle(&mut self, a: Vec3, b: Vec3, c: Vec3) {
        self.ground_triangle(self.ground_point(a), self.ground_point(b), self.ground_point(c));
    }

    fn ground_triangle(&mut self, a: (f32, f32), b: (f32, f32), c: (f32, f32)) {
        let [a, b, c] = [a, b, c].map(|(x, z)| self.cell(x, z));
        let cells = &mut self.cells;
        fill_triangle_2d(a, b, c, SHADOW_N, SHADOW_N, |x, y, _| cells[y * SHADOW_N + x] = 1.0);
    }

    /// The shadow of a thin round stick, as a slim quad.
    fn stick(&mut self, a: Vec3, b: Vec3, r: f32) {
        let (pa, pb) = (self.ground_point(a), self.ground_point(b));
        let d = Vec3::new(pb.0 - pa.0, 0.0, pb.1 - pa.1).normalize_or_zero();
        let (ox, oz) = (-d.z * r, d.x * r);
        let q = [(pa.0 + ox, pa.1 + oz), (pb.0 + ox, pb.1 + oz), (pb.0 - ox, pb.1 - oz), (pa.0 - ox, pa.1 - oz)];
        self.ground_triangle(q[0], q[1], q[2]);
        self.ground_triangle(q[0], q[2], q[3]);
    }

    /// Softens the edge: a separable box blur, radius 2 cells.
    fn blur(mut self) -> GroundMap {
        let r = 2isize;
        for pass in 0..2 {
            let src = self.cells.clone();
            for y in 0..SHADOW_N {
                for x in 0..SHADOW_N {
                    let mut sum = 0.0;
                    for k in -r..=r {
                        let (xx, yy) = if pass == 0 { (x as isize + k, y as isize) } else { (x as isize, y as isize + k) };
                        if xx >= 0 && yy >= 0 && (xx as usize) < SHADOW_N && (yy as usize) < SHADOW_N {
                            sum += src[yy as usize * SHADOW_N + xx as usize];
                        }
                    }
                    self.cells[y * SHADOW_N + x] = sum / (2 * r + 1) as f32;
                }
            }
        }
        self
    }

    fn at(&self, x: f32, z: f32) -> f32 {
        let (cx, cy) = self.cell(x, z);
        if cx < 0.0 || cy < 0.0 || cx >= SHADOW_N as f32 || cy >= SHADOW_N as f32 {
            return 0.0;
        }
        self.cells[cy as usize * SHADOW_N + cx as usize]
    }
}

/// The curtain's two triangles per grid quad (particle = row·COLS + col).
fn curtain_triangles() -> Vec<[usize; 3]> {
    let c = COLS as usize;
    let mut tris = Vec::new();
    for row in 0..ROWS as usize - 1 {
        for col in 0..c - 1 {
            let a = row * c + col;
            let (b, d, e) = (a + 1, a + c, a + c + 1);
            // Alternate the diagonal so folds do not all lean one way.
            if (row + col) % 2 == 0 {
                tris.extend([[a, d, b], [b, d, e]]);
            } else {
                tris.extend([[a, d, e], [a, e, b]]);
            }
        }
    }
    tris
}

/// Rasterizes a 2D triangle (either winding) over a `w × h` grid of pixel centres, calling
/// `f(x, y, [barycentrics])` for each covered pixel.
fn fill_triangle_2d(a: (f32, f32), b: (f32, f32), c: (f32, f32), w: usize, h: usize, mut f: impl FnMut(usize, usize, [f32; 3])) {
    let area = (b.0 - a.0) * (c.1 - a.1) - (b.1 - a.1) * (c.0 - a.0);
    if area.abs() < 1e-12 || !area.is_finite() {
        return;
    }
    let x0 = a.0.min(b.0).min(c.0).floor().max(0.0) as usize;
    let y0 = a.1.min(b.1).min(c.1).floor().max(0.0) as usize;
    let x1 = (a.0.max(b.0).max(c.0).ceil().max(0.0) as usize).min(w);
    let y1 = (a.1.max(b.1).max(c.1).ceil().max(0.0) as usize).min(h);
    let edge = |p: (f32, f32), q: (f32, f32), x: f32, y: f32| (q.0 - p.0) * (y - p.1) - (q.1 - p.1) * (x - p.0);
    for y in y0..y1 {
        let py = y as f32 + 0.5;
        for x in x0..x1 {
            let px = x as f32 + 0.5;
            let wa = edge(b, c, px, py) / area;
            let wb = edge(c, a, px, py) / area;
            let wc = 1.0 - wa - wb;
            if wa >= 0.0 && wb >= 0.0 && wc >= 0.0 {
                f(x, y, [wa, wb, wc]);
            }
        }
    }
}

/// Sky, and a ground plane with a 0.5 m grid, flat coloured discs (`pads`: centre, radius,
/// colour), a trail, and the shadow.
fn background(cam: &Camera, shadow: &GroundMap, pads: &[(Vec3, f32, Vec3)], trail: Option<&GroundMap>, canvas: &mut Canvas) {
    let sky_top = Vec3::new(0.42, 0.58, 0.80);
    let sky_low = Vec3::new(0.86, 0.90, 0.95);
    let ground = Vec3::new(0.80, 0.78, 0.72);
    let line = Vec3::new(0.55, 0.53, 0.50);
    let l = cam.light;
    for y in 0..canvas.h {
        for x in 0..canvas.w {
            let d = cam.ray(x as f32 + 0.5, y as f32 + 0.5);
            let sky = sky_low.lerp(sky_top, d.y.max(0.0).powf(0.6));
            let c = if d.y < -1e-4 {
                let t = -cam.eye.y / d.y;
                let g = cam.eye + d * t;
                // Grid lines every 0.5 m, about one pixel wide whatever the distance.
                let width = 1.2 * t / cam.focal_px / 0.5;
                let near_line = |v: f32| {
                    let f = (v / 0.5).rem_euclid(1.0);
                    f.min(1.0 - f) < width
                };
                let mut c = if near_line(g.x) || near_line(g.z) { line } else { ground };
                for &(centre, r, color) in pads {
                    if Vec3::new(g.x - centre.x, 0.0, g.z - centre.z).length() < r {
                        c = color;
                    }
                }
                if let Some(t) = trail {
                    c = c.lerp(Vec3::new(0.45, 0.33, 0.22), t.at(g.x, g.z));
                }
                c *= 0.35 + 0.65 * l.y * (1.0 - 0.6 * shadow.at(g.x, g.z));
                // Haze towards the horizon.
                c.lerp(sky_low, (t / 25.0).clamp(0.0, 1.0))
            } else {
                sky
            };
            canvas.color[y * canvas.w + x] = c;
        }
    }
}

/// A two-sided cloth with Sinew's vertex normals: the side the normals face (`outside` 1) or
/// the other (`outside` −1) takes `front_tint`. A faint check of `check_cells` × `check_cells`
/// grid cells (vertex `i` at column `i % columns`, row `i / columns`) makes folds and stretch
/// readable.
#[allow(clippy::too_many_arguments)]
fn draw_sheet(
    cam: &Camera,
    pos: &[Vec3],
    normals: &[Vec3],
    tris: &[[usize; 3]],
    outside: f32,
    (columns, check_cells): (usize, f32),
    (front_tint, back_tint): (Vec3, Vec3),
    canvas: &mut Canvas,
) {
    let l = cam.light;
    let proj: Vec<(f32, f32, f32, f32)> = pos.iter().map(|&p| cam.project(p)).collect();
    let (w, h) = (canvas.w, canvas.h);
    for &[i, j, k] in tris {
        let (p0, p1, p2) = (pos[i], pos[j], pos[k]);
        if [proj[i], proj[j], proj[k]].iter().any(|q| q.3 <= 0.05) {
            continue; // behind the camera
        }
        // The triangle's normal, turned to agree with Sinew's vertex normals; which side of
        // it the camera sees picks the tint and flips the shading normal.
        let mut g = (p1 - p0).cross(p2 - p0);
        if g.dot(normals[i] + normals[j] + normals[k]) < 0.0 {
            g = -g;
        }
        let facing = g.dot(cam.eye - p0) >= 0.0;
        let sign = if facing { 1.0 } else { -1.0 };
        let tint = if (sign * outside) > 0.0 { front_tint } else { back_tint };
        let uv = |v: usize| Vec3::new((v % columns) as f32, (v / columns) as f32, 0.0);
        let (u0, u1, u2) = (uv(i), uv(j), uv(k));
        let (a, b, cc) = (proj[i], proj[j], proj[k]);
        fill_triangle_2d((a.0, a.1), (b.0, b.1), (cc.0, cc.1), w, h, |x, y, [wa, wb, wc]| {
            let z = a.2 * wa + b.2 * wb + cc.2 * wc;
            let n = (normals[i] * wa + normals[j] * wb + normals[k] * wc).normalize_or_zero() * sign;
            let diffuse = n.dot(l).max(0.0);
            let view = (cam.eye - (p0 * wa + p1 * wb + p2 * wc)).normalize();
            let spec = n.dot((l + view).normalize()).max(0.0).powi(24) * 0.12;
            let t = u0 * wa + u1 * wb + u2 * wc;
            let check = if ((t.x / check_cells).floor() + (t.y / check_cells).floor()) as i32 % 2 == 0 { 1.0 } else { 0.88 };
            let col = tint * check * (0.12 + 0.88 * diffuse) + Vec3::splat(spec);
            canvas.plot(x, y, z, col);
        });
    }
}

/// A shaded round stick from `a` to `b` of world radius `r`, drawn as a screen-space capsule.
fn draw_stick(cam: &Camera, a: Vec3, b: Vec3, r: f32, color: Vec3, canvas: &mut Canvas) {
    let (pa, pb) = (cam.project(a), cam.project(b));
    if pa.3 <= 0.05 || pb.3 <= 0.05 {
        return;
    }
    let (ra, rb) = (r * cam.focal_px / pa.3, r * cam.focal_px / pb.3);
    let rmax = ra.max(rb);
    let x0 = (pa.0.min(pb.0) - rmax).floor().max(0.0) as usize;
    let y0 = (pa.1.min(pb.1) - rmax).floor().max(0.0) as usize;
    let x1 = ((pa.0.max(pb.0) + rmax).ceil().max(0.0) as usize).min(canvas.w);
    let y1 = ((pa.1.max(pb.1) + rmax).ceil().max(0.0) as usize).min(canvas.h);
    let (dx, dy) = (pb.0 - pa.0, pb.1 - pa.1);
    let len2 = (dx * dx + dy * dy).max(1e-9);
    // Light across the stick: which screen side faces the light.
    let axis = (b - a).normalize_or_zero();
    let l = cam.light;
    let across = (l - axis * axis.dot(l)).normalize_or_zero();
    let side_dir = {
        let q = cam.project(a + across * r);
        Vec3::new(q.0 - pa.0, q.1 - pa.1, 0.0).normalize_or_zero()
    };
    for y in y0..y1 {
        for x in x0..x1 {
            let (px, py) = (x as f32 + 0.5, y as f32 + 0.5);
            let s = (((px - pa.0) * dx + (py - pa.1) * dy) / len2).clamp(0.0, 1.0);
            let (qx, qy) = (pa.0 + dx * s, pa.1 + dy * s);
            let rad = ra + (rb - ra) * s;
            let (ox, oy) = (px - qx, py - qy);
            let d2 = ox * ox + oy * oy;
            if d2 > rad * rad {
                continue;
            }
            let bulge = (1.0 - d2 / (rad * rad)).sqrt();
            let lit = 0.5 + 0.5 * (ox * side_dir.x + oy * side_dir.y) / rad;
            let shade = 0.3 + 0.7 * (lit * 0.7 + bulge * 0.3);
            let z = pa.2 + (pb.2 - pa.2) * s - bulge * 1e-5;
            canvas.plot(x, y, z, color * shade);
        }
    }
}

/// A tessellated tapered capsule: rings of vertices, each with its world normal.
struct CapsuleMesh {
    pos: Vec<Vec3>,
    normal: Vec<Vec3>,
    /// Vertices per ring (the first repeated at the end).
    ring: usize,
}

/// The convex hull of the spheres (c0, r0) and (c1, r1): two caps joined by the cone that
/// touches both, whose normal leans by `asin((r0 − r1)/L)` towards the axis.
fn tessellate_capsule(c: &CapsuleShape) -> CapsuleMesh {
    const AROUND: usize = 28;
    const CAP_RINGS: usize = 8;
    let d = c.c1 - c.c0;
    let len = d.length();
    let axis = if len > 1e-6 { d / len } else { c.frame * Vec3::Y };
    let u = axis.any_orthonormal_vector();
    let v = axis.cross(u);
    let phi0 = if len > 1e-6 { ((c.r0 - c.r1) / len).clamp(-1.0, 1.0).asin() } else { 0.0 };
    let mut pos = Vec::new();
    let mut normal = Vec::new();
    let mut ring = |centre: Vec3, r: f32, phi: f32| {
        for k in 0..=AROUND {
            let th = std::f32::consts::TAU * k as f32 / AROUND as f32;
            let n = (u * th.cos() + v * th.sin()) * phi.cos() + axis * phi.sin();
            pos.push(centre + n * r);
            normal.push(n);
        }
    };
    for i in 0..=CAP_RINGS {
        ring(c.c0, c.r0, -PI / 2.0 + (phi0 + PI / 2.0) * i as f32 / CAP_RINGS as f32);
    }
    for i in 0..=CAP_RINGS {
        ring(c.c1, c.r1, phi0 + (PI / 2.0 - phi0) * i as f32 / CAP_RINGS as f32);
    }
    CapsuleMesh { pos, normal, ring: AROUND + 1 }
}

/// A capsule as a shaded solid: Lambert plus sky light and a soft highlight, painted per pixel
/// from the normal in the part's own frame.
fn draw_capsule(cam: &Camera, c: &CapsuleShape, canvas: &mut Canvas) {
    let mesh = tessellate_capsule(c);
    let l = cam.light;
    let to_local = c.frame.inverse();
    let proj: Vec<(f32, f32, f32, f32)> = mesh.pos.iter().map(|&p| cam.project(p)).collect();
    let (w, h) = (canvas.w, canvas.h);
    let rings = mesh.pos.len() / mesh.ring;
    for r in 0..rings - 1 {
        for k in 0..mesh.ring - 1 {
            let (a, b) = (r * mesh.ring + k, (r + 1) * mesh.ring + k);
            for [i, j, m] in [[a, b, a + 1], [a + 1, b, b + 1]] {
                if [proj[i], proj[j], proj[m]].iter().any(|q| q.3 <= 0.05) {
                    continue;
                }
                // Closed and convex: only the side facing the camera shows.
                let centre = (mesh.pos[i] + mesh.pos[j] + mesh.pos[m]) / 3.0;
                if (mesh.normal[i] + mesh.normal[j] + mesh.normal[m]).dot(cam.eye - centre) < 0.0 {
                    continue;
                }
                let (pa, pb, pc) = (proj[i], proj[j], proj[m]);
                fill_triangle_2d((pa.0, pa.1), (pb.0, pb.1), (pc.0, pc.1), w, h, |x, y, [wa, wb, wc]| {
                    let z = pa.2 * wa + pb.2 * wb + pc.2 * wc;
                    let n = (mesh.normal[i] * wa + mesh.normal[j] * wb + mesh.normal[m] * wc).normalize_or_zero();
                    let base = c.paint.color(to_local * n);
                    let diffuse = n.dot(l).max(0.0);
                    let p = mesh.pos[i] * wa + mesh.pos[j] * wb + mesh.pos[m] * wc;
                    let half = (l + (cam.eye - p).normalize()).normalize();
                    let spec = n.dot(half).max(0.0).powi(30) * 0.15;
                    let col = base * (0.16 + 0.1 * (0.5 + 0.5 * n.y) + 0.74 * diffuse) + Vec3::splat(spec);
                    canvas.plot(x, y, z, col);
                });
            }
        }
    }
}

fn render_curtain_panel(s: &Snapshot) -> Vec<Vec3> {
    let (w, h) = (PANEL_W * SS, PANEL_H * SS);
    let cam = Camera::new(Vec3::new(2.1, 2.35, 4.3), Vec3::new(0.15, 1.15, 0.15), CURTAIN_LIGHT, w, h);
    let tris = curtain_triangles();
    let mut shadow = GroundMap::new((0.0, 0.0), 4.0, cam.light);
    for &[i, j, k] in &tris {
        shadow.triangle(s.cloth[i], s.cloth[j], s.cloth[k]);
    }
    for seg in s.rope.windows(2) {
        shadow.stick(seg[0], seg[1], 0.012);
    }
    shadow.stick(s.bar.0, s.bar.1, 0.025);
    let shadow = shadow.blur();
    let mut canvas = Canvas::new(w, h);
    background(&cam, &shadow, &[], None, &mut canvas);
    let tints = (Vec3::new(0.78, 0.13, 0.16), Vec3::new(0.92, 0.80, 0.52));
    draw_sheet(&cam, &s.cloth, &s.normals, &tris, 1.0, (COLS as usize, 5.0), tints, &mut canvas);
    let rope_color = Vec3::new(0.55, 0.38, 0.20);
    for seg in s.rope.windows(2) {
        draw_stick(&cam, seg[0], seg[1], 0.012, rope_color, &mut canvas);
    }
    draw_stick(&cam, s.bar.0, s.bar.1, 0.025, Vec3::new(0.45, 0.47, 0.52), &mut canvas);
    canvas.downsample()
}

/// Hair strand colour: a little variation per strand, lighter towards the tips.
fn strand_color(strand: usize, along: f32) -> Vec3 {
    let v = ((strand * 37) % 11) as f32 / 10.0;
    Vec3::new(0.30, 0.16, 0.07) * (0.8 + 0.4 * v) * (1.0 + 0.5 * along)
}

fn render_character_panel(s: &CharacterSnapshot) -> Vec<Vec3> {
    let (w, h) = (PANEL_W * SS, PANEL_H * SS);
    let cam = Camera::new(s.eye, s.target, s.light, w, h);
    let mut shadow = GroundMap::new((s.target.x, s.target.z), 3.0, cam.light);
    for c in &s.capsules {
        let mesh = tessellate_capsule(c);
        for r in 0..mesh.pos.len() / mesh.ring - 1 {
            for k in 0..mesh.ring - 1 {
                let (a, b) = (r * mesh.ring + k, (r + 1) * mesh.ring + k);
                shadow.triangle(mesh.pos[a], mesh.pos[b], mesh.pos[a + 1]);
                shadow.triangle(mesh.pos[a + 1], mesh.pos[b], mesh.pos[b + 1]);
            }
        }
    }
    for &[i, j, k] in &s.cape_triangles {
        shadow.triangle(s.cape[i], s.cape[j], s.cape[k]);
    }
    for strand in s.hair.chunks(HAIR_PER_STRAND) {
        for seg in strand.windows(2) {
            shadow.stick(seg[0], seg[1], 0.004);
        }
    }
    let shadow = shadow.blur();
    let mut canvas = Canvas::new(w, h);
    let mut trail = GroundMap::new((s.target.x, s.target.z), 3.0, Vec3::Y);
    for seg in s.trail.windows(2) {
        if seg[0].distance(seg[1]) < 1.0 {
            trail.stick(seg[0], seg[1], 0.035);
        }
    }
    background(&cam, &shadow, &s.pads, Some(&trail.blur()), &mut canvas);
    for c in &s.capsules {
        draw_capsule(&cam, c, &mut canvas);
    }
    let tints = (Vec3::new(0.62, 0.06, 0.10), Vec3::new(0.90, 0.74, 0.36));
    draw_sheet(&cam, &s.cape, &s.cape_normals, &s.cape_triangles, s.cape_outside, (CAPE_COLS as usize, 2.0), tints, &mut canvas);
    for (n, strand) in s.hair.chunks(HAIR_PER_STRAND).enumerate() {
        for (i, seg) in strand.windows(2).enumerate() {
            let along = i as f32 / (HAIR_PER_STRAND - 2) as f32;
            draw_stick(&cam, seg[0], seg[1], 0.0045 * (1.0 - 0.4 * along), strand_color(n, along), &mut canvas);
        }
    }
    canvas.downsample()
}

/// 3 × 5 glyphs, one row per 3 bits, top row first.
fn glyph(ch: char) -> [u8; 5] {
    match ch {
        '0' | 'O' => [7, 5, 5, 5, 7],
        '1' => [2, 6, 2, 2, 7],
        '2' => [7, 1, 7, 4, 7],
        '3' => [7, 1, 7, 1, 7],
        '4' => [5, 5, 7, 1, 1],
        '5' => [7, 4, 7, 1, 7],
        '6' => [7, 4, 7, 5, 7],
        '7' => [7, 1, 1, 1, 1],
        '8' => [7, 5, 7, 5, 7],
        '9' => [7, 5, 7, 1, 7],
        '.' => [0, 0, 0, 0, 2],
        ',' => [0, 0, 0, 2, 4],
        '=' => [0, 7, 0, 7, 0],
        ':' => [0, 2, 0, 2, 0],
        '-' => [0, 0, 7, 0, 0],
        '+' => [0, 2, 7, 2, 0],
        '/' => [1, 1, 2, 4, 4],
        '(' => [1, 2, 2, 2, 1],
        ')' => [4, 2, 2, 2, 4],
        'A' => [2, 5, 7, 5, 5],
        'B' => [6, 5, 6, 5, 6],
        'C' => [3, 4, 4, 4, 3],
        'D' => [6, 5, 5, 5, 6],
        'E' => [7, 4, 6, 4, 7],
        'F' => [7, 4, 6, 4, 4],
        'G' => [3, 4, 5, 5, 3],
        'H' => [5, 5, 7, 5, 5],
        'I' => [7, 2, 2, 2, 7],
        'J' => [1, 1, 1, 5, 7],
        'K' => [5, 5, 6, 5, 5],
        'L' => [4, 4, 4, 4, 7],
        'M' => [5, 7, 7, 5, 5],
        'N' => [6, 5, 5, 5, 5],
        'P' => [6, 5, 6, 4, 4],
        'Q' => [7, 5, 5, 7, 1],
        'R' => [6, 5, 6, 5, 5],
        'S' => [3, 4, 2, 1, 6],
        'T' => [7, 2, 2, 2, 2],
        'U' => [5, 5, 5, 5, 7],
        'V' => [5, 5, 5, 5, 2],
        'W' => [5, 5, 5, 7, 5],
        'X' => [5, 5, 2, 5, 5],
        'Y' => [5, 5, 2, 2, 2],
        'Z' => [7, 1, 2, 4, 7],
        _ => [0; 5],
    }
}

fn draw_text(img: &mut [Vec3], img_w: usize, x0: usize, y0: usize, scale: usize, text: &str, color: Vec3) {
    for (n, ch) in text.chars().enumerate() {
        let g = glyph(ch);
        for (row, bits) in g.iter().enumerate() {
            for col in 0..3 {
                if bits >> (2 - col) & 1 == 1 {
                    for dy in 0..scale {
                        for dx in 0..scale {
                            let x = x0 + (n * 4 + col) * scale + dx;
                            let y = y0 + row * scale + dy;
                            img[y * img_w + x] = color;
                        }
                    }
                }
            }
        }
    }
}

/// Panels (each `PANEL_W × PANEL_H`, rendered in parallel) with their captions, `columns`
/// to a row, as 8-bit RGB.
fn contact_sheet<S: Sync>(snapshots: &[S], columns: usize, render: fn(&S) -> Vec<Vec3>, caption: fn(&S) -> &str) -> (usize, usize, Vec<u8>) {
    let rows = snapshots.len().div_ceil(columns);
    let (w, h) = (PANEL_W * columns, PANEL_H * rows);
    let mut img = vec![Vec3::ONE; w * h];
    let panels: Vec<Vec<Vec3>> = std::thread::scope(|sc| {
        let handles: Vec<_> = snapshots.iter().map(|s| sc.spawn(move || render(s))).collect();
        handles.into_iter().map(|h| h.join().expect("render thread")).collect()
    });
    for (k, (panel, s)) in panels.iter().zip(snapshots).enumerate() {
        let (ox, oy) = ((k % columns) * PANEL_W, (k / columns) * PANEL_H);
        for y in 0..PANEL_H {
            img[(oy + y) * w + ox..(oy + y) * w + ox + PANEL_W].copy_from_slice(&panel[y * PANEL_W..(y + 1) * PANEL_W]);
        }
        let scale = 3;
        let text = caption(s);
        let text_w = text.chars().count() * 4 * scale;
        for y in oy + 8..oy + 8 + 5 * scale + 12 {
            for x in ox + 8..(ox + 8 + text_w + 10).min(ox + PANEL_W) {
                img[y * w + x] *= 0.35;
            }
        }
        draw_text(&mut img, w, ox + 14, oy + 14, scale, text, Vec3::ONE);
    }
    // Thin dividers between panels.
    for y in 0..h {
        for c in 1..columns {
            for x in [c * PANEL_W - 1, c * PANEL_W] {
                img[y * w + x] = Vec3::splat(0.1);
            }
        }
    }
    for x in 0..w {
        for r in 1..rows {
            for y in [r * PANEL_H - 1, r * PANEL_H] {
                img[y * w + x] = Vec3::splat(0.1);
            }
        }
    }
    // Linear shading values to sRGB-ish bytes (gamma 2.2).
    let bytes = img.iter().flat_map(|c| c.to_array().map(|v| (v.clamp(0.0, 1.0).powf(1.0 / 2.2) * 255.0 + 0.5) as u8)).collect();
    (w, h, bytes)
}

// --- PNG -----------------------------------------------------------------------------

fn crc32(parts: &[&[u8]]) -> u32 {
    let mut table = [0u32; 256];
    for (n, t) in table.iter_mut().enumerate() {
        let mut c = n as u32;
        for _ in 0..8 {
            c = if c & 1 != 0 { 0xEDB8_8320 ^ (c >> 1) } else { c >> 1 };
        }
        *t = c;
    }
    let mut crc = !0u32;
    for &b in parts.iter().flat_map(|p| p.iter()) {
        crc = table[((crc ^ b as u32) & 0xFF) as usize] ^ (crc >> 8);
    }
    !crc
}

fn adler32(data: &[u8]) -> u32 {
    let (mut a, mut b) = (1u32, 0u32);
    for chunk in data.chunks(5552) {
        for &x in chunk {
            a += x as u32;
            b += a;
        }
        a %= 65521;
        b %= 65521;
    }
    (b << 16) | a
}

/// A zlib stream of stored (uncompressed) deflate blocks.
fn zlib_stored(data: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(data.len() + data.len() / 65535 * 5 + 16);
    out.extend_from_slice(&[0x78, 0x01]);
    let mut blocks = data.chunks(65535).peekable();
    if blocks.peek().is_none() {
        out.extend_from_slice(&[1, 0, 0, 0xFF, 0xFF]);
    }
    while let Some(block) = blocks.next() {
        out.push(blocks.peek().is_none() as u8); // BFINAL, BTYPE = 00
        let len = block.len() as u16;
        out.extend_from_slice(&len.to_le_bytes());
        out.extend_from_slice(&(!len).to_le_bytes());
        out.extend_from_slice(block);
    }
    out.extend_from_slice(&adler32(data).to_be_bytes());
    out
}

fn png_rgb(w: usize, h: usize, rgb: &[u8]) -> Vec<u8> {
    let mut raw = Vec::with_capacity((w * 3 + 1) * h);
    for row in rgb.chunks(w * 3) {
        raw.push(0); // filter: none
        raw.extend_from_slice(row);
    }
    let mut png = b"\x89PNG\r\n\x1a\n".to_vec();
    let mut chunk = |kind: &[u8; 4], data: &[u8]| {
        png.extend_from_slice(&(data.len() as u32).to_be_bytes());
        png.extend_from_slice(kind);
        png.extend_from_slice(data);
        png.extend_from_slice(&crc32(&[kind, data]).to_be_bytes());
    };
    let mut ihdr = Vec::new();
    ihdr.extend_from_slice(&(w as u32).to_be_bytes());
    ihdr.extend_from_slice(&(h as u32).to_be_bytes());
    ihdr.extend_from_slice(&[8, 2, 0, 0, 0]); // 8-bit RGB, deflate, no filter variants, no interlace
    chunk(b"IHDR", &ihdr);
    chunk(b"IDAT", &zlib_stored(&raw));
    chunk(b"IEND", &[]);
    png
}

// --- main ----------------------------------------------------------------------------

fn write_png(path: &Path, (w, h, rgb): (usize, usize, Vec<u8>)) -> Res<()> {
    std::fs::write(path, png_rgb(w, h, &rgb)).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

fn run() -> Res<()> {
    let mut out_dir = PathBuf::from("out");
    let mut presets_only = false;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--out" => out_dir = PathBuf::from(args.next().ok_or("--out needs a directory")?),
            "--presets-only" => presets_only = true,
            "-h" | "--help" => {
                println!("usage: cargo run --release --example demo [-- --out DIR] [--presets-only]   (default DIR: out)");
                return Ok(());
            }
            other => return Err(format!("unknown argument {other:?}; try --help")),
        }
    }
    std::fs::create_dir_all(&out_dir).map_err(|e| format!("cannot create {}: {e}", out_dir.display()))?;
    let png_path = out_dir.join("demo.png");
    let character_path = out_dir.join("character.png");
    let ragdoll_path = out_dir.join("ragdoll.png");
    let softbody_path = out_dir.join("softbody.png");
    let presets_path = out_dir.join("presets.png");
    let units_path = out_dir.join("units.png");
    let cloths = presets::simulate_presets()?;
    write_png(&presets_path, contact_sheet(&cloths.snapshots, 5, presets::render_preset_panel, |s| &s.caption))?;
    if presets_only {
        print!("{}picture            : {}\n", cloths.summary, presets_path.display());
        return Ok(());
    }

    let curtain = simulate(&png_path)?;
    let character = simulate_character(&character_path)?;
    write_png(&png_path, contact_sheet(&curtain.snapshots, 2, render_curtain_panel, |s| &s.caption))?;
    write_png(&character_path, contact_sheet(&character.snapshots, 3, render_character_panel, |s| &s.caption))?;
    let falling = ragdoll::simulate_ragdoll()?;
    write_png(&ragdoll_path, contact_sheet(&falling.snapshots, 3, ragdoll::render_ragdoll_panel, |s| &s.caption))?;
    let jellies = softbody::simulate_softbody()?;
    write_png(&softbody_path, contact_sheet(&jellies.snapshots, 4, softbody::render_softbody_panel, |s| &s.caption))?;
    let units = units::simulate_units()?;
    write_png(&units_path, contact_sheet(&units.snapshots, 1, units::render_units_panel, |s| &s.caption))?;
    let summary = format!(
        "{}{}{}{}picture            : {}\n{}picture            : {}\n{}picture            : {}\n",
        curtain.summary,
        character.summary,
        falling.summary,
        jellies.summary,
        softbody_path.display(),
        cloths.summary,
        presets_path.display(),
        units.summary,
        units_path.display()
    );
    let summary_path = out_dir.join("summary.txt");
    std::fs::write(&summary_path, &summary).map_err(|e| format!("cannot write {}: {e}", summary_path.display()))?;
    print!("{summary}");
    println!("summary            : {}", summary_path.display());
    Ok(())
}

fn main() {
    if let Err(e) = run() {
        eprintln!("demo failed: {e}");
        std::process::exit(1);
    }
}
