//! Scenes S6 and S6-CROWD (docs/benchmarks.md): characters of 13 tapered capsules walking round
//! circles, each wearing a skinned cape, a skirt and a ponytail, at the library's defaults.
//!
//! - **S6**: 16 characters on a 4 × 4 grid 2 m apart, every body at full detail. Per thread
//!   count one line: the median of the timed steps (each `World::step` timed alone; the host's
//!   inputs are set between steps, outside the timing), its ratio to the chapter's S1 and
//!   Sinew's own S1 measured in this run, the time per particle and substep, the largest
//!   stretch over the last 60 steps, and how many characters one thread steps in 1 ms.
//! - **S6-CROWD**: 64 characters on an 8 × 8 grid 2 m apart, with level of detail on every
//!   body and a camera going round the crowd: the time of a whole host frame (inputs and step),
//!   the stretch of the simulated bodies and, apart, of the frozen ones (a frozen body is
//!   carried rigidly with its pins' targets: it keeps the stretch it froze with).
//!
//! `character.rs` builds and drives one character.

mod character;

use std::time::Instant;

use character::Character;
use sinew::math::Vec3;
use sinew::particles::Lod;
use sinew::world::{WorkerPool, World, WorldSettings};

use crate::chapter::scenes;

pub const DT: f32 = 1.0 / 60.0;
pub const WARM_UP_STEPS: usize = 60;
/// Characters on a square grid this far apart (m), centred on the origin.
pub const GRID_SPACING: f32 = 2.0;
/// S6: 4 × 4 characters; S6-CROWD: 8 × 8.
pub const SIDE: usize = 4;
pub const CROWD_SIDE: usize = 8;
/// The stretch is the worst over this many last steps.
pub const STRETCH_STEPS: usize = 60;

/// S6-CROWD's camera: round the crowd's centre on a circle of this radius (m), at eye height,
/// once every `CAMERA_PERIOD` seconds, starting on +X.
pub const CAMERA_RADIUS: f32 = 8.0;
pub const CAMERA_HEIGHT: f32 = 1.7;
pub const CAMERA_PERIOD: f32 = 10.0;
/// S6-CROWD's level of detail: 2 substeps beyond 5 m from the camera, frozen beyond 12 m.
pub const CROWD_LOD: Lod = Lod { reduce_distance: 5.0, reduced_substeps: 2, freeze_distance: 12.0, freeze_when_invisible: true };

pub fn camera_at(t: f32) -> Vec3 {
    let a = std::f32::consts::TAU * t / CAMERA_PERIOD;
    Vec3::new(CAMERA_RADIUS * a.cos(), CAMERA_HEIGHT, CAMERA_RADIUS * a.sin())
}

/// The scene: a world at its defaults (readback not interpolated, so each 1/60 s frame is one
/// fixed step) and `side × side` characters.
pub fn build(side: usize, lod: Option<Lod>) -> (World, Vec<Character>) {
    let settings = WorldSettings { interpolate: false, ..WorldSettings::default() };
    let mut world = World::new(settings).expect("default world settings");
    let mut chars = Vec::with_capacity(side * side);
    for row in 0..side {
        for col in 0..side {
            let at = |k: usize| (k as f32 - (side - 1) as f32 / 2.0) * GRID_SPACING;
            chars.push(Character::new(&mut world, Vec3::new(at(col), 0.0, at(row)), chars.len(), lod));
        }
    }
    (world, chars)
}

pub struct Row {
    pub scene: &'static str,
    pub threads: u32,
    pub us_per_step: f64,
    pub ratio: f64,
    pub substeps: u32,
    pub ns_per_particle_substep: f64,
    pub stretch60: f32,
    pub particles: usize,
    pub constraints: usize,
    pub characters: usize,
    /// Sinew's own S1 at the same thread count in this run (ns per particle-substep).
    pub s1_ns: f64,
    /// S6-CROWD: median host frame (inputs and step, ms), bodies frozen and reduced at the
    /// end, and the largest stretch of a body while frozen over the last 60 steps.
    pub crowd: Option<(f64, usize, usize, f32)>,
}

impl Row {
    fn line(&self) -> String {
        let mut s = format!(
            "scene={} solver=sinew threads={} us_per_step={:.1} ratio={:.2} substeps={} ns_per_particle_substep={:.2} stretch60={:.4} particles={} constraints={} characters={} vs_s1={:.2}",
            self.scene,
            self.threads,
            self.us_per_step,
            self.ratio,
            self.substeps,
            self.ns_per_particle_substep,
            self.stretch60,
            self.particles,
            self.constraints,
            self.characters,
            self.ns_per_particle_substep / self.s1_ns,
        );
        match self.crowd {
            Some((ms, frozen, reduced, frozen_stretch)) => s += &format!(" ms_per_frame={ms:.3} frozen={frozen} reduced={reduced} stretch60_frozen={frozen_stretch:.4}"),
            // Characters one thread steps in 1 ms at full detail.
            None => s += &format!(" chars_per_ms={:.2}", 1000.0 / (self.us_per_step * self.threads as f64 / self.characters as f64)),
        }
        s
    }
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n % 2 == 1 { v[n / 2] } else { 0.5 * (v[n / 2 - 1] + v[n / 2]) }
}

/// The yardsticks in this run: the chapter's S1 (µs per step) and Sinew's S1 at `threads`
/// (ns per particle-substep), each the median over `steps` steps after the warm-up.
fn s1_yardsticks(threads: &[u32], steps: usize) -> (f64, Vec<f64>) {
    let s1 = scenes::s1();
    let mut cloths = scenes::chapter(&s1);
    let mut times = Vec::with_capacity(steps);
    for k in 0..scenes::WARM_UP_STEPS + steps {
        let t = Instant::now();
        scenes::chapter_step(&mut cloths);
        if k >= scenes::WARM_UP_STEPS {
            times.push(t.elapsed().as_secs_f64() * 1e6);
        }
    }
    let chapter_us = median(times);
    let ns = threads
        .iter()
        .map(|&n| {
            let mut world = scenes::sinew_world(&s1, 10, 1);
            let pool = WorkerPool::new(n).expect("worker pool");
            let us = pool.install(|| {
                let mut times = Vec::with_capacity(steps);
                for k in 0..scenes::WARM_UP_STEPS + steps {
                    let t = Instant::now();
                    world.step(scenes::DT).expect("step");
                    if k >= scenes::WARM_UP_STEPS {
                        times.push(t.elapsed().as_secs_f64() * 1e6);
                    }
                }
                median(times)
            });
            us * 1000.0 / (world.stats().particle_count as f64 * 10.0)
        })
        .collect();
    (chapter_us, ns)
}

/// Runs S6 (or S6-CROWD) at each thread count; prints and returns its lines.
pub fn run(crowd: bool, threads: &[u32], steps: usize) -> Vec<Row> {
    let (chapter_us, s1_ns) = s1_yardsticks(threads, steps);
    let mut rows = Vec::new();
    for (&n, &s1_ns) in threads.iter().zip(&s1_ns) {
        let (side, lod) = if crowd { (CROWD_SIDE, Some(CROWD_LOD)) } else { (SIDE, None) };
        let (mut world, chars) = build(side, lod);
        let pool = WorkerPool::new(n).expect("worker pool");
        let substeps = world.settings.substeps;
        let (mut step_us, mut frame_us) = (Vec::with_capacity(steps), Vec::with_capacity(steps));
        // Over the bodies simulated in the sampled step, and over those frozen in it.
        let (mut stretch60, mut frozen_stretch) = (0.0f32, 0.0f32);
        let total = WARM_UP_STEPS + steps;
        pool.install(|| {
            for frame in 1..=total {
                let t = frame as f32 * DT;
                let start = Instant::now();
                for c in &chars {
                    c.drive(&mut world, t);
                }
                if crowd {
                    world.set_camera(camera_at(t)).expect("camera");
                }
                let stepping = Instant::now();
                world.step(DT).expect("step");
                let end = Instant::now();
                if frame > WARM_UP_STEPS {
                    step_us.push((end - stepping).as_secs_f64() * 1e6);
                    frame_us.push((end - start).as_secs_f64() * 1e6);
                }
                if frame + STRETCH_STEPS > total {
                    for b in world.bodies.values() {
                        let worst = if b.is_frozen() { &mut frozen_stretch } else { &mut stretch60 };
                        *worst = worst.max(b.max_stretch());
                    }
                }
            }
        });
        let st = world.stats();
        assert_eq!(st.steps as usize, total, "one fixed step per 1/60 s frame");
        assert_eq!(world.events().len(), 0, "no body was put back on a finite state");
        let us = median(step_us);
        let particles = st.particle_count as usize;
        let crowd_figures = crowd.then(|| {
            let frozen = world.bodies.values().filter(|b| b.is_frozen()).count();
            let reduced = world.bodies.values().filter(|b| !b.is_frozen() && b.lod_substeps().is_some()).count();
            (median(frame_us) / 1000.0, frozen, reduced, frozen_stretch)
        });
        let row = Row {
            scene: if crowd { "S6-CROWD" } else { "S6" },
            threads: n,
            us_per_step: us,
            ratio: us / chapter_us,
            substeps,
            ns_per_particle_substep: us * 1000.0 / (particles as f64 * substeps as f64),
            stretch60,
            particles,
            constraints: st.constraint_count as usize,
            characters: chars.len(),
            s1_ns,
            crowd: crowd_figures,
        };
        println!("{}", row.line());
        rows.push(row);
    }
    rows
}

/// A markdown table of S6 lines.
pub fn table(rows: &[Row]) {
    if rows.is_empty() {
        return;
    }
    println!();
    println!("| scene | threads | µs/step | ratio | ns per particle-substep | × S1 | stretch60 | ms/frame | chars per ms |");
    println!("|---|---|---|---|---|---|---|---|---|");
    for r in rows {
        let (ms, per_ms) = match r.crowd {
            Some((ms, ..)) => (format!("{ms:.3}"), String::new()),
            None => (String::new(), format!("{:.2}", 1000.0 / (r.us_per_step * r.threads as f64 / r.characters as f64))),
        };
        println!(
            "| {} | {} | {:.1} | {:.2} | {:.2} | {:.2} | {:.4} | {ms} | {per_ms} |",
            r.scene,
            r.threads,
            r.us_per_step,
            r.ratio,
            r.ns_per_particle_substep,
            r.ns_per_particle_substep / r.s1_ns,
            r.stretch60
        );
    }
}
