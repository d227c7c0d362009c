//! The main demo: a curtain hanging from a moving bar, and a rope from the bar's end.
//!
//! ```text
//! cargo run --release --example demo [-- --out DIR]      (default DIR: out/)
//! ```
//!
//! It drives Sinew only through the exported C ABI (`sinew::ffi::*`, the same functions
//! `include/sinew.h` declares), checks every `SinewResult`, and writes
//! - `DIR/demo.png`: four moments of the run as a 2 × 2 contact sheet, drawn by the small
//!   software rasterizer below (perspective camera, depth buffer, Lambert shading from the
//!   normals Sinew reads back, two-sided with a different tint per side, a ground grid
//!   with the cloth's shadow);
//! - `DIR/summary.txt`: counts, stretch, lowest point, pin check and step time (also printed).
//!
//! The scene: a 40 × 30 grid cloth (0.05 m spacing) whose top row is pinned to a horizontal
//! bar through `sinew_body_set_pin_targets`; a rope hangs from one end of the bar. For 3 s the
//! bar swings sideways twice, turns about the vertical and moves forward on a smooth path
//! that starts and ends at rest; then it stops and everything settles for 5 s. 60 host
//! frames per second.
//!
//! The PNG encoder is written here too (zlib stored blocks, CRC-32, Adler-32), so the demo
//! needs no dependency beyond Sinew itself. It exits non-zero if any call fails or any
//! position or normal read back is not finite.

use std::f32::consts::PI;
use std::path::{Path, PathBuf};
use std::time::Instant;

use glam::Vec3;
use sinew::ffi::SINEW_ABI_VERSION;
use sinew::ffi::body::*;
use sinew::ffi::cloth::*;
use sinew::ffi::result::SinewResult;
use sinew::ffi::rope::*;
use sinew::ffi::types::*;
use sinew::ffi::world::*;

type Res<T> = Result<T, String>;

// --- scene ---------------------------------------------------------------------------

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
    gd.pin_mode = SINEW_PIN_TOP_ROW;
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
}

impl Camera {
    fn new(eye: Vec3, target: Vec3, w: usize, h: usize) -> Camera {
        let fwd = (target - eye).normalize();
        let right = fwd.cross(Vec3::Y).normalize();
        let up = right.cross(fwd);
        Camera { eye, right, up, fwd, w, h, focal_px: h as f32 / 2.0 / (FOV_Y / 2.0).tan() }
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
}

/// Direction towards the light: from the upper right, a little in front of the curtain, so
/// that folds catch light on one side and fall into shade on the other.
fn light_dir() -> Vec3 {
    Vec3::new(0.8, 0.75, 0.45).normalize()
}

/// Where `p` casts its shadow on the ground (y = 0), as (x, z).
fn shadow_point(p: Vec3) -> (f32, f32) {
    let l = light_dir();
    let q = p - l * (p.y / l.y);
    (q.x, q.z)
}

/// Ground-space shadow coverage in [0, 1] over [-EXT, EXT]².
struct ShadowMap {
    cells: Vec<f32>,
}

const SHADOW_N: usize = 512;
const SHADOW_EXT: f32 = 4.0;

impl ShadowMap {
    fn cell(x: f32, z: f32) -> (f32, f32) {
        ((x + SHADOW_EXT) / (2.0 * SHADOW_EXT) * SHADOW_N as f32, (z + SHADOW_EXT) / (2.0 * SHADOW_EXT) * SHADOW_N as f32)
    }

    fn build(s: &Snapshot) -> ShadowMap {
        let mut cells = vec![0.0f32; SHADOW_N * SHADOW_N];
        let mut tri = |a: (f32, f32), b: (f32, f32), c: (f32, f32)| {
            let [a, b, c] = [a, b, c].map(|(x, z)| Self::cell(x, z));
            fill_triangle_2d(a, b, c, SHADOW_N, SHADOW_N, |x, y, _| cells[y * SHADOW_N + x] = 1.0);
        };
        for_each_cloth_triangle(|i, j, k| tri(shadow_point(s.cloth[i]), shadow_point(s.cloth[j]), shadow_point(s.cloth[k])));
        // Thin things as slim quads.
        let mut segs: Vec<(Vec3, Vec3, f32)> = s.rope.windows(2).map(|w| (w[0], w[1], 0.012)).collect();
        segs.push((s.bar.0, s.bar.1, 0.025));
        for (a, b, r) in segs {
            let (pa, pb) = (shadow_point(a), shadow_point(b));
            let d = Vec3::new(pb.0 - pa.0, 0.0, pb.1 - pa.1).normalize_or_zero();
            let (ox, oz) = (-d.z * r, d.x * r);
            let q = [(pa.0 + ox, pa.1 + oz), (pb.0 + ox, pb.1 + oz), (pb.0 - ox, pb.1 - oz), (pa.0 - ox, pa.1 - oz)];
            tri(q[0], q[1], q[2]);
            tri(q[0], q[2], q[3]);
        }
        // Soften the edge: a separable box blur, radius 2 cells (about 3 cm).
        let r = 2isize;
        for pass in 0..2 {
            let src = cells.clone();
            for y in 0..SHADOW_N {
                for x in 0..SHADOW_N {
                    let mut sum = 0.0;
                    for k in -r..=r {
                        let (xx, yy) = if pass == 0 { (x as isize + k, y as isize) } else { (x as isize, y as isize + k) };
                        if xx >= 0 && yy >= 0 && (xx as usize) < SHADOW_N && (yy as usize) < SHADOW_N {
                            sum += src[yy as usize * SHADOW_N + xx as usize];
                        }
                    }
                    cells[y * SHADOW_N + x] = sum / (2 * r + 1) as f32;
                }
            }
        }
        ShadowMap { cells }
    }

    fn at(&self, x: f32, z: f32) -> f32 {
        let (cx, cy) = Self::cell(x, z);
        if cx < 0.0 || cy < 0.0 || cx >= SHADOW_N as f32 || cy >= SHADOW_N as f32 {
            return 0.0;
        }
        self.cells[cy as usize * SHADOW_N + cx as usize]
    }
}

/// Calls `f(i, j, k)` for the two triangles of every grid quad (particle = row·COLS + col).
fn for_each_cloth_triangle(mut f: impl FnMut(usize, usize, usize)) {
    let c = COLS as usize;
    for row in 0..ROWS as usize - 1 {
        for col in 0..c - 1 {
            let a = row * c + col;
            let (b, d, e) = (a + 1, a + c, a + c + 1);
            // Alternate the diagonal so folds do not all lean one way.
            if (row + col) % 2 == 0 {
                f(a, d, b);
                f(b, d, e);
            } else {
                f(a, d, e);
                f(a, e, b);
            }
        }
    }
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

fn background(cam: &Camera, shadow: &ShadowMap, canvas: &mut Canvas) {
    let sky_top = Vec3::new(0.42, 0.58, 0.80);
    let sky_low = Vec3::new(0.86, 0.90, 0.95);
    let ground = Vec3::new(0.80, 0.78, 0.72);
    let line = Vec3::new(0.55, 0.53, 0.50);
    let l = light_dir();
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

fn draw_cloth(cam: &Camera, s: &Snapshot, canvas: &mut Canvas) {
    let l = light_dir();
    let front_tint = Vec3::new(0.78, 0.13, 0.16);
    let back_tint = Vec3::new(0.92, 0.80, 0.52);
    let proj: Vec<(f32, f32, f32, f32)> = s.cloth.iter().map(|&p| cam.project(p)).collect();
    let (w, h) = (canvas.w, canvas.h);
    let c = COLS as usize;
    for_each_cloth_triangle(|i, j, k| {
        let (p0, p1, p2) = (s.cloth[i], s.cloth[j], s.cloth[k]);
        if [proj[i], proj[j], proj[k]].iter().any(|q| q.3 <= 0.05) {
            return; // behind the camera
        }
        // The triangle's normal, turned to agree with Sinew's vertex normals; which side of
        // it the camera sees picks the tint and flips the shading normal.
        let mut g = (p1 - p0).cross(p2 - p0);
        if g.dot(s.normals[i] + s.normals[j] + s.normals[k]) < 0.0 {
            g = -g;
        }
        let front = g.dot(cam.eye - p0) >= 0.0;
        let sign = if front { 1.0 } else { -1.0 };
        let tint = if front { front_tint } else { back_tint };
        let uv = |v: usize| Vec3::new((v % c) as f32, (v / c) as f32, 0.0);
        let (u0, u1, u2) = (uv(i), uv(j), uv(k));
        let (a, b, cc) = (proj[i], proj[j], proj[k]);
        fill_triangle_2d((a.0, a.1), (b.0, b.1), (cc.0, cc.1), w, h, |x, y, [wa, wb, wc]| {
            let z = a.2 * wa + b.2 * wb + cc.2 * wc;
            let n = (s.normals[i] * wa + s.normals[j] * wb + s.normals[k] * wc).normalize_or_zero() * sign;
            let diffuse = n.dot(l).max(0.0);
            let view = (cam.eye - (p0 * wa + p1 * wb + p2 * wc)).normalize();
            let spec = n.dot((l + view).normalize()).max(0.0).powi(24) * 0.12;
            // A faint 5 × 5-cell check makes folds and stretch readable.
            let t = u0 * wa + u1 * wb + u2 * wc;
            let check = if ((t.x / 5.0).floor() + (t.y / 5.0).floor()) as i32 % 2 == 0 { 1.0 } else { 0.88 };
            let col = tint * check * (0.12 + 0.88 * diffuse) + Vec3::splat(spec);
            canvas.plot(x, y, z, col);
        });
    });
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
    let l = light_dir();
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

fn render_panel(s: &Snapshot) -> Vec<Vec3> {
    let (w, h) = (PANEL_W * SS, PANEL_H * SS);
    let cam = Camera::new(Vec3::new(2.1, 2.35, 4.3), Vec3::new(0.15, 1.15, 0.15), w, h);
    let shadow = ShadowMap::build(s);
    let mut canvas = Canvas::new(w, h);
    background(&cam, &shadow, &mut canvas);
    draw_cloth(&cam, s, &mut canvas);
    let rope_color = Vec3::new(0.55, 0.38, 0.20);
    for seg in s.rope.windows(2) {
        draw_stick(&cam, seg[0], seg[1], 0.012, rope_color, &mut canvas);
    }
    draw_stick(&cam, s.bar.0, s.bar.1, 0.025, Vec3::new(0.45, 0.47, 0.52), &mut canvas);
    // Box-filter down to the panel size.
    let mut out = vec![Vec3::ZERO; PANEL_W * PANEL_H];
    for y in 0..PANEL_H {
        for x in 0..PANEL_W {
            let mut sum = Vec3::ZERO;
            for sy in 0..SS {
                for sx in 0..SS {
                    sum += canvas.color[(y * SS + sy) * w + x * SS + sx];
                }
            }
            out[y * PANEL_W + x] = sum / (SS * SS) as f32;
        }
    }
    out
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
        '=' => [0, 7, 0, 7, 0],
        ':' => [0, 2, 0, 2, 0],
        '-' => [0, 0, 7, 0, 0],
        'A' => [2, 5, 7, 5, 5],
        'B' => [6, 5, 6, 5, 6],
        'C' => [3, 4, 4, 4, 3],
        'D' => [6, 5, 5, 5, 6],
        'E' => [7, 4, 6, 4, 7],
        'G' => [3, 4, 5, 5, 3],
        'I' => [7, 2, 2, 2, 7],
        'K' => [5, 5, 6, 5, 5],
        'L' => [4, 4, 4, 4, 7],
        'N' => [6, 5, 5, 5, 5],
        'P' => [6, 5, 6, 4, 4],
        'R' => [6, 5, 6, 5, 5],
        'S' => [3, 4, 2, 1, 6],
        'T' => [7, 2, 2, 2, 2],
        'U' => [5, 5, 5, 5, 7],
        'W' => [5, 5, 5, 7, 5],
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

fn contact_sheet(snapshots: &[Snapshot]) -> (usize, usize, Vec<u8>) {
    let (w, h) = (PANEL_W * 2, PANEL_H * 2);
    let mut img = vec![Vec3::ONE; w * h];
    let panels: Vec<Vec<Vec3>> = std::thread::scope(|sc| {
        let handles: Vec<_> = snapshots.iter().map(|s| sc.spawn(|| render_panel(s))).collect();
        handles.into_iter().map(|h| h.join().expect("render thread")).collect()
    });
    for (k, (panel, s)) in panels.iter().zip(snapshots).enumerate() {
        let (ox, oy) = ((k % 2) * PANEL_W, (k / 2) * PANEL_H);
        for y in 0..PANEL_H {
            img[(oy + y) * w + ox..(oy + y) * w + ox + PANEL_W].copy_from_slice(&panel[y * PANEL_W..(y + 1) * PANEL_W]);
        }
        let scale = 3;
        let text_w = s.caption.chars().count() * 4 * scale;
        for y in oy + 8..oy + 8 + 5 * scale + 12 {
            for x in ox + 8..ox + 8 + text_w + 10 {
                img[y * w + x] *= 0.35;
            }
        }
        draw_text(&mut img, w, ox + 14, oy + 14, scale, &s.caption, Vec3::ONE);
    }
    // Thin dividers between panels.
    for y in 0..h {
        for x in [PANEL_W - 1, PANEL_W] {
            img[y * w + x] = Vec3::splat(0.1);
        }
    }
    for x in 0..w {
        for y in [PANEL_H - 1, PANEL_H] {
            img[y * w + x] = Vec3::splat(0.1);
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

fn run() -> Res<()> {
    let mut out_dir = PathBuf::from("out");
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--out" => out_dir = PathBuf::from(args.next().ok_or("--out needs a directory")?),
            "-h" | "--help" => {
                println!("usage: cargo run --release --example demo [-- --out DIR]   (default DIR: out)");
                return Ok(());
            }
            other => return Err(format!("unknown argument {other:?}; try --help")),
        }
    }
    std::fs::create_dir_all(&out_dir).map_err(|e| format!("cannot create {}: {e}", out_dir.display()))?;
    let png_path = out_dir.join("demo.png");

    let run = simulate(&png_path)?;
    let (w, h, rgb) = contact_sheet(&run.snapshots);
    std::fs::write(&png_path, png_rgb(w, h, &rgb)).map_err(|e| format!("cannot write {}: {e}", png_path.display()))?;
    let summary_path = out_dir.join("summary.txt");
    std::fs::write(&summary_path, &run.summary).map_err(|e| format!("cannot write {}: {e}", summary_path.display()))?;
    print!("{}", run.summary);
    println!("summary            : {}", summary_path.display());
    Ok(())
}

fn main() {
    if let Err(e) = run() {
        eprintln!("demo failed: {e}");
        std::process::exit(1);
    }
}
