//! Times docs/benchmarks.md's scenes with Sinew and with the chapter's algorithm, in one run.
//!
//! ```text
//! cargo run --release --example bench [-- --scene S1] [--threads N] [--steps N]
//! ```
//!
//! Per scene, thread count and solver one line: the median wall time of one 1/60 s step over
//! the measured steps (after 60 warm-up steps), particles, constraints, the largest stretch
//! `|length/rest − 1|` at the end, and the ratio to the chapter's time in this same run
//! (the machine is shared: compare ratios, not microseconds across runs). Then a markdown
//! table of the same numbers.
//!
//! `S2-LOD` is S2 with a camera at a corner of the grid and level of detail on every cloth
//! (2 substeps beyond 4 m, frozen beyond 9 m): its lines add `frozen=N reduced=N` (cloths
//! frozen, cloths on reduced substeps, at the end) and `ratio_to_s2=` (to Sinew's plain S2
//! with the same solver and threads, when this run measured it); `ratio_to_chapter` is to
//! the chapter's S2, which simulates every cloth. Only the `sinew` solver runs it: LOD lowers
//! substeps, and `sinew-plain` has one.
//!
//! With no `--scene`, it also prints S1's memory per particle and per constraint, whether
//! S2's cloths share one cooked topology, and a scaling table (32² to 256² cloths).
//!
//! `S1-self` is S1 with self-collision (particle radius 0.01 m): with S3 it prices collision
//! (S3 − S1) and self-collision (S1-self − S1); both ratios are to the chapter's S1.
//!
//! Solvers:
//! - `chapter`: the chapter's Verlet cloth in plain Rust (`benches/chapter`), one thread;
//! - `sinew`: the scene's iteration budget K as K substeps × 1 iteration ("Small Steps");
//! - `sinew-plain`: 1 substep × K iterations, the chapter's scheme inside Sinew.
//!
//! All rigid (compliance 0), no damping. S3's sphere is a Sinew collider with the
//! material's default thickness and friction; the chapter has no collisions, so S3's ratio
//! is to the chapter's S1 time (the same cloth without the sphere).
//!
//! `S4` (ragdolls, [`s4`]) runs rounds of 600 steps from the drop (`--steps` sets the steps
//! per round, `--rounds` the rounds) and prints its own lines and table: Sinew, and with
//! `--features rapier` rapier3d on the same bodies and joints.
//!
//! `S5` and `S5-PILE` (16 jelly cubes, [`s5`]) run 60 warm-up steps and `--steps` timed ones
//! from the drop and print their own lines and table: the median step with its min–max, the
//! time per particle-substep, the worst volume error over the last 60 steps, the deepest
//! penetration of the plane, and for the pile the largest winding number of a particle inside
//! another cube.

#[path = "../benches/chapter/mod.rs"]
mod chapter;
mod paced;
mod s4;
mod s5;
mod s6;
mod s7;

use std::time::Instant;

use chapter::scenes::{self, Scene, sinew_world};
use sinew::world::WorkerPool;

struct Args {
    /// Print the memory and scaling reports (on unless scenes were chosen).
    report: bool,
    scenes: Vec<String>,
    threads: Vec<u32>,
    steps: usize,
    /// S4's steps per round and measured rounds.
    s4_steps: usize,
    s4_rounds: usize,
    /// `--split SUBSTEPSxITERATIONS`: the `sinew` solver's split instead of the scene's.
    split: Option<(u32, u32)>,
}

fn parse_args() -> Args {
    let mut args = Args { report: false, scenes: Vec::new(), threads: Vec::new(), steps: scenes::MEASURED_STEPS, s4_steps: s4::scene::STEPS, s4_rounds: s4::scene::ROUNDS, split: None };
    let mut it = std::env::args().skip(1);
    while let Some(a) = it.next() {
        let mut value = |name: &str| it.next().unwrap_or_else(|| usage(&format!("{name} needs a value")));
        match a.as_str() {
            "--scene" => args.scenes.push(value("--scene").to_uppercase()),
            "--threads" => args.threads.push(value("--threads").parse().unwrap_or_else(|_| usage("--threads takes a number"))),
            "--steps" => {
                args.steps = value("--steps").parse().unwrap_or_else(|_| usage("--steps takes a number"));
                args.s4_steps = args.steps;
            }
            "--split" => {
                let v = value("--split");
                let parsed = v.split_once('x').and_then(|(a, b)| Some((a.parse().ok()?, b.parse().ok()?)));
                args.split = Some(parsed.filter(|&(a, b)| a > 0 && b > 0).unwrap_or_else(|| usage("--split takes SUBSTEPSxITERATIONS, e.g. 12x1")));
            }
            "--no-lanes" => LANES_OFF.store(true, std::sync::atomic::Ordering::Relaxed),
            "--rounds" => args.s4_rounds = value("--rounds").parse().unwrap_or_else(|_| usage("--rounds takes a number")),
            "--bench" => {} // passed by `cargo bench --examples`
            "-h" | "--help" => usage(""),
            other => usage(&format!("unknown argument {other}")),
        }
    }
    if args.scenes.is_empty() {
        args.scenes = ["S1", "S2", "S2-LOD", "S3", "S1-SELF", "S4", "S5", "S5-PILE", "S6", "S6-CROWD", "S7", "S1-PACED", "S2-PACED"].map(String::from).to_vec();
        args.report = true;
    }
    if args.threads.is_empty() {
        args.threads = vec![1, 2];
    }
    if args.steps == 0 || args.s4_rounds == 0 || args.threads.contains(&0) {
        usage("--steps, --rounds and --threads must be at least 1");
    }
    args
}

fn usage(err: &str) -> ! {
    if !err.is_empty() {
        eprintln!("error: {err}");
    }
    eprintln!("usage: bench [--scene S1|S2|S2-LOD|S3|S1-self|S4|S5|S5-pile|S6|S6-crowd|S7|S1-paced|S2-paced]... [--threads N]... [--steps N] [--rounds N (S4)] [--split SxI] [--no-lanes]");
    std::process::exit(if err.is_empty() { 0 } else { 2 })
}

/// `--no-lanes`: the cloth scenes' worlds step every body alone (`World::lanes` off), to
/// measure what stepping identical grids side by side in SIMD lanes gains.
static LANES_OFF: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// One measured configuration.
struct Row {
    scene: &'static str,
    solver: &'static str,
    threads: u32,
    us_per_step: f64,
    /// Substeps and iterations per substep per 1/60 s step (the chapter: 1 × K).
    substeps: u32,
    iterations: u32,
    particles: usize,
    constraints: usize,
    /// The largest stretch over the last 60 measured steps, each step sampled.
    stretch60: f32,
    /// The largest stretch at the end.
    max_stretch: f32,
    ratio: f64,
    /// With LOD: cloths frozen and cloths on reduced substeps at the end.
    lod: Option<(usize, usize)>,
    /// With LOD: time over Sinew's time for the scene without LOD (same solver and threads).
    ratio_to_plain: Option<f64>,
}

impl Row {
    fn print(&self) {
        let mut extra = String::new();
        if let Some((frozen, reduced)) = self.lod {
            extra += &format!(" frozen={frozen} reduced={reduced}");
        }
        if let Some(r) = self.ratio_to_plain {
            extra += &format!(" ratio_to_s2={r:.2}");
        }
        println!(
            "scene={} solver={} threads={} us_per_step={:.1} ratio={:.3} substeps={} iterations={} ns_per_particle_substep={:.2} stretch60={:.4} max_stretch={:.4} particles={} constraints={}{extra}",
            self.scene,
            self.solver,
            self.threads,
            self.us_per_step,
            self.ratio,
            self.substeps,
            self.iterations,
            self.ns_per_particle_substep(),
            self.stretch60,
            self.max_stretch,
            self.particles,
            self.constraints
        );
    }

    fn ns_per_particle_substep(&self) -> f64 {
        self.us_per_step * 1000.0 / (self.particles as f64 * self.substeps as f64)
    }
}

/// Steps measured at the end of a run whose stretch is sampled (`stretch60`).
const STRETCH_WINDOW: usize = 60;

fn median_us(mut times: Vec<f64>) -> f64 {
    times.sort_by(f64::total_cmp);
    let n = times.len();
    if n % 2 == 1 { times[n / 2] } else { 0.5 * (times[n / 2 - 1] + times[n / 2]) }
}

/// Runs warm-up then `steps` timed steps; returns the median step time (µs).
fn time_steps(steps: usize, mut step: impl FnMut()) -> f64 {
    time_steps_sampled(steps, |s| {
        if s == Sample::Step {
            step();
        }
        0.0
    })
    .0
}

#[derive(Clone, Copy, PartialEq)]
enum Sample {
    /// Run one step (timed).
    Step,
    /// Return the largest stretch now (untimed).
    Stretch,
}

/// As [`time_steps`], and after each of the last [`STRETCH_WINDOW`] steps (outside the timing)
/// asks `run` for the stretch; returns the median and the largest stretch it returned.
fn time_steps_sampled(steps: usize, mut run: impl FnMut(Sample) -> f32) -> (f64, f32) {
    for _ in 0..scenes::WARM_UP_STEPS {
        run(Sample::Step);
    }
    let mut times = Vec::with_capacity(steps);
    let mut largest = 0.0f32;
    for i in 0..steps {
        let t = Instant::now();
        run(Sample::Step);
        times.push(t.elapsed().as_secs_f64() * 1e6);
        if i + STRETCH_WINDOW >= steps {
            largest = largest.max(run(Sample::Stretch));
        }
    }
    (median_us(times), largest)
}

fn run_chapter(scene: &Scene, steps: usize) -> Row {
    let mut cloths = scenes::chapter(scene);
    let (us, stretch60) = time_steps_sampled(steps, |s| match s {
        Sample::Step => {
            scenes::chapter_step(&mut cloths);
            0.0
        }
        Sample::Stretch => scenes::chapter_max_stretch(&cloths),
    });
    Row {
        scene: scene.name,
        solver: "chapter",
        threads: 1,
        us_per_step: us,
        substeps: 1,
        iterations: scene.iterations as u32,
        stretch60,
        particles: cloths.iter().map(|c| c.particles.len()).sum(),
        constraints: cloths.iter().map(|c| c.constraints.len()).sum(),
        max_stretch: scenes::chapter_max_stretch(&cloths),
        ratio: 1.0,
        lod: None,
        ratio_to_plain: None,
    }
}


fn run_sinew(scene: &Scene, solver: &'static str, substeps: u32, iterations: u32, threads: u32, steps: usize, chapter_us: f64) -> Row {
    let mut world = sinew_world(scene, substeps, iterations);
    world.lanes = !LANES_OFF.load(std::sync::atomic::Ordering::Relaxed);
    let pool = WorkerPool::new(threads).expect("worker pool");
    // The whole loop runs inside the pool, so the timings hold no hand-off to the pool.
    let (us, stretch60) = pool.install(|| {
        time_steps_sampled(steps, |s| match s {
            Sample::Step => {
                world.step(scenes::DT).expect("step");
                0.0
            }
            Sample::Stretch => world.bodies.values().map(|b| b.max_stretch()).fold(0.0, f32::max),
        })
    });
    assert_eq!(world.stats().steps as usize, scenes::WARM_UP_STEPS + steps, "one fixed step per 1/60 s frame");
    let st = world.stats();
    Row {
        scene: scene.name,
        solver,
        threads,
        us_per_step: us,
        substeps,
        iterations,
        stretch60,
        particles: st.particle_count as usize,
        constraints: st.constraint_count as usize,
        max_stretch: world.bodies.values().map(|b| b.max_stretch()).fold(0.0, f32::max),
        ratio: us / chapter_us,
        lod: scene.lod.map(|_| {
            let frozen = world.bodies.values().filter(|b| b.is_frozen()).count();
            let reduced = world.bodies.values().filter(|b| !b.is_frozen() && b.lod_substeps().is_some()).count();
            (frozen, reduced)
        }),
        ratio_to_plain: None,
    }
}

/// Bytes per particle and per constraint of S1, and how S2's 64 cloths share one cooked
/// topology.
fn memory_report() {
    let s1 = sinew_world(&scenes::s1(), 10, 1);
    let mut s1 = s1;
    let pool = WorkerPool::new(1).expect("pool");
    pool.install(|| s1.step(scenes::DT).expect("step"));
    let body = s1.bodies.values().next().expect("S1 has a cloth");
    let (pb, cb) = body.memory();
    let (n, k) = (body.particle_count(), body.topology().constraints.len());
    println!(
        "memory: S1 bytes_per_particle={:.1} bytes_per_constraint={:.1} (state {pb} B for {n} particles, constraints {cb} B for {k})",
        pb as f64 / n as f64,
        cb as f64 / k as f64
    );
    let s2 = sinew_world(&scenes::s2(), 8, 1);
    let first = s2.bodies.values().next().expect("S2 has cloths");
    let sharing = std::sync::Arc::strong_count(first.topology());
    println!("memory: S2 {} cloths share {} cooked topology ({} owners of the first one)", s2.bodies.len(), if sharing == s2.bodies.len() { 1 } else { 0 }, sharing);
}

/// S1's cloth at 32², 64², 128² and 256²: time per step should grow linearly with particles.
fn scaling_report(steps: usize) {
    println!("scaling: cloth S1-like (row 0 pinned, spacing 0.05, 10 substeps x 1), 1 thread");
    println!("| cloth | particles | constraints | µs/step | ns per particle-substep |");
    println!("|---|---|---|---|---|");
    for n in [32usize, 64, 128, 256] {
        let mut scene = scenes::s1();
        scene.cols = n;
        scene.rows = n;
        let mut world = sinew_world(&scene, 10, 1);
        let pool = WorkerPool::new(1).expect("pool");
        let measured = (steps * 64 * 64 / (n * n)).clamp(steps.min(20), steps);
        let us = pool.install(|| time_steps(measured, || world.step(scenes::DT).expect("step")));
        let st = world.stats();
        println!(
            "| {n}x{n} | {} | {} | {us:.1} | {:.2} |",
            st.particle_count,
            st.constraint_count,
            us * 1000.0 / (st.particle_count as f64 * 10.0)
        );
    }
}

fn main() {
    let args = parse_args();
    let mut rows: Vec<Row> = Vec::new();
    let mut s4_rows = Vec::new();
    let mut s5_rows = Vec::new();
    let mut s6_rows = Vec::new();
    for name in &args.scenes {
        let scene = match name.as_str() {
            "S1" => scenes::s1(),
            "S2" => scenes::s2(),
            "S2-LOD" => scenes::s2_lod(),
            "S3" => scenes::s3(),
            "S1-SELF" => scenes::s1_self(),
            "S4" => {
                s4_rows = s4::run(&args.threads, args.s4_steps, args.s4_rounds);
                continue;
            }
            "S1-PACED" | "S2-PACED" => {
                paced::run(name, &args.threads, args.steps).iter().for_each(paced::Line::print);
                continue;
            }
            "S5" | "S5-PILE" => {
                s5_rows.extend(s5::run(name == "S5-PILE", &args.threads, args.steps));
                continue;
            }
            "S7" => {
                s7::run(&args.threads, args.s4_steps, args.s4_rounds);
                continue;
            }
            "S6" | "S6-CROWD" => {
                s6_rows.extend(s6::run(name == "S6-CROWD", &args.threads, args.steps));
                continue;
            }
            other => usage(&format!("unknown scene {other}")),
        };
        // The chapter runs the scene itself, or for S3 (no collisions in the chapter) S1, or
        // for S2-LOD (no level of detail in the chapter) S2.
        let yardstick = match (&scene.sphere, &scene.lod, scene.self_collision) {
            (Some(_), _, _) | (_, _, true) => scenes::s1(),
            (None, Some(_), _) => scenes::s2(),
            (None, None, false) => scene.clone(),
        };
        let measured = rows.iter().find(|r| r.solver == "chapter" && r.scene == yardstick.name).map(|r| r.us_per_step);
        let chapter_us = match measured {
            Some(us) => us,
            None => {
                let row = run_chapter(&yardstick, args.steps);
                row.print();
                let us = row.us_per_step;
                rows.push(row);
                us
            }
        };
        let k = scene.iterations as u32;
        // LOD lowers the substeps of far cloths; `sinew-plain` has one substep to lower.
        // `sinew`: the split at NvCloth's stretch (or `--split`); `sinew-k`: the budget as K
        // substeps; `sinew-plain`: as K iterations of one substep (the chapter's scheme).
        let (sub, it) = args.split.unwrap_or(scene.split);
        let solvers: &[(&'static str, u32, u32)] = if scene.lod.is_some() { &[("sinew", sub, it)] } else { &[("sinew", sub, it), ("sinew-k", k, 1), ("sinew-plain", 1, k)] };
        for &(solver, substeps, iterations) in solvers {
            for &threads in &args.threads {
                let mut row = run_sinew(&scene, solver, substeps, iterations, threads, args.steps, chapter_us);
                if scene.lod.is_some() {
                    let plain = rows.iter().find(|r| r.scene == yardstick.name && r.solver == solver && r.threads == threads);
                    row.ratio_to_plain = plain.map(|p| row.us_per_step / p.us_per_step);
                }
                row.print();
                rows.push(row);
            }
        }
    }
    if args.report {
        memory_report();
        scaling_report(args.steps);
    }
    if !rows.is_empty() {
        println!();
        println!("| scene | solver | threads | µs/step | ratio | max stretch | LOD |");
        println!("|---|---|---|---|---|---|---|");
    }
    for r in &rows {
        let lod = match (r.lod, r.ratio_to_plain) {
            (Some((f, red)), Some(p)) => format!("{f} frozen, {red} reduced; {p:.2} × S2"),
            (Some((f, red)), None) => format!("{f} frozen, {red} reduced"),
            _ => String::new(),
        };
        println!(
            "| {} | {} | {} | {:.1} | {:.2} | {:.4} | {lod} |",
            r.scene, r.solver, r.threads, r.us_per_step, r.ratio, r.max_stretch
        );
    }
    s4::table(&s4_rows);
    s5::table(&s5_rows);
    s6::table(&s6_rows);
}
