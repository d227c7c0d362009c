//! Frame-paced stepping (docs/benchmarks.md, `S1-PACED` and `S2-PACED`): S1 or S2 stepped
//! once per 1/60 s frame with the host busy in between, as a game steps it.
//!
//! Each frame of 16.7 ms the host thread first works for [`HOST_WORK`] on its own, then calls
//! the step (timed alone, and only it), then waits for the frame's end (a game's vsync):
//!
//! - `host=spin`: the work is arithmetic on the host thread (a game's update and render);
//! - `host=sleep`: the host sleeps instead (a game waiting on the GPU or on its own jobs);
//! - `host=none`: no work and no wait, the steps back to back through the same call.
//!
//! The step is called as `sinew_world_step` calls it: a one-thread world steps on the host
//! thread itself (`World::sequential`), a world with more threads hands the step to its
//! pool and waits for it (`WorkerPool::install`), the pool set up as `sinew_world_create`
//! sets it up (`WorldSettings::wake_ahead_us`). So the paced lines price what a game pays
//! once per frame: the hand-off to the workers and back, and the second worker's wake-up.
//! Thread counts above one run twice: without waking ahead (`wake_ahead_us=0`, the default)
//! and with `SUGGESTED_WAKE_AHEAD_US` (500).
//!
//! Configurations run interleaved, in [`ROUNDS`] rounds of their share of the frames, each
//! with its own world and pool (60 warm-up frames first), so that a drift of the shared
//! machine falls on all of them. Per scene, host mode and thread count, one line:
//! `us_per_step` (median), `us_p90`, `ratio` (to the chapter's time on the same scene, in this
//! run, back to back), `stretch60` (after each of the last round's last 60 frames),
//! `advantage` (the 1-thread median over this line's, same host mode) and `vs_back_to_back`
//! (this median over `host=none`'s, same threads and wake-ahead).

use std::hint::black_box;
use std::time::{Duration, Instant};

use crate::chapter::scenes::{self, Scene, sinew_world};
use sinew::world::{SUGGESTED_WAKE_AHEAD_US, WorkerPool, World};

/// The host's frame and its own work in it.
pub const FRAME: Duration = Duration::from_micros(16_667);
pub const HOST_WORK: Duration = Duration::from_millis(12);
/// Rounds the measured frames are split into, configurations interleaved.
pub const ROUNDS: usize = 5;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Host {
    Spin,
    Sleep,
    None,
}

impl Host {
    fn name(self) -> &'static str {
        match self {
            Host::Spin => "spin",
            Host::Sleep => "sleep",
            Host::None => "none",
        }
    }
}

/// One measured configuration.
pub struct Line {
    pub scene: String,
    pub host: Host,
    pub threads: u32,
    pub wake_ahead_us: u32,
    pub us_per_step: f64,
    pub us_p90: f64,
    pub substeps: u32,
    pub particles: usize,
    pub constraints: usize,
    pub stretch60: f32,
    pub ratio: f64,
    pub advantage: Option<f64>,
    pub vs_back_to_back: Option<f64>,
}

impl Line {
    pub fn print(&self) {
        let opt = |v: Option<f64>| v.map_or("n/a".to_owned(), |v| format!("{v:.2}"));
        println!(
            "scene={} solver=sinew threads={} host={} wake_ahead_us={} us_per_step={:.1} ratio={:.3} substeps={} ns_per_particle_substep={:.2} stretch60={:.4} us_p90={:.1} advantage={} vs_back_to_back={} particles={} constraints={}",
            self.scene,
            self.threads,
            self.host.name(),
            self.wake_ahead_us,
            self.us_per_step,
            self.ratio,
            self.substeps,
            self.us_per_step * 1000.0 / (self.particles as f64 * self.substeps as f64),
            self.stretch60,
            self.us_p90,
            opt(self.advantage),
            opt(self.vs_back_to_back),
            self.particles,
            self.constraints
        );
    }
}

/// A world and its pool stepped as a game steps it.
struct Config {
    host: Host,
    threads: u32,
    wake_ahead_us: u32,
    world: World,
    pool: WorkerPool,
    times: Vec<f64>,
    stretch: Vec<f32>,
}

impl Config {
    fn new(scene: &Scene, host: Host, threads: u32, wake_ahead_us: u32) -> Config {
        let mut world = sinew_world(scene, scene.iterations as u32, 1);
        world.settings.wake_ahead_us = wake_ahead_us;
        // As `sinew_world_create`.
        let mut pool = WorkerPool::new(threads).expect("worker pool");
        pool.set_wake_ahead(Duration::from_micros(world.settings.wake_ahead_us as u64)).expect("pacer");
        world.sequential = pool.thread_count() == 1;
        Config { host, threads, wake_ahead_us, world, pool, times: Vec::new(), stretch: Vec::new() }
    }

    /// As `sinew_world_step`.
    fn step(&mut self) {
        let world = &mut self.world;
        if world.sequential {
            world.step(scenes::DT).expect("step");
        } else {
            self.pool.install(|| world.step(scenes::DT)).expect("step");
        }
    }

    /// `frames` frames; each step's time is kept when `measure`, and the stretch after the
    /// last `sampled` of them (outside the timing).
    fn run(&mut self, frames: usize, measure: bool, sampled: usize) {
        let mut frame_start = Instant::now();
        for i in 0..frames {
            match self.host {
                Host::Spin => spin_until(frame_start + HOST_WORK),
                Host::Sleep => sleep_until(frame_start + HOST_WORK),
                Host::None => {}
            }
            let t = Instant::now();
            self.step();
            let us = t.elapsed().as_secs_f64() * 1e6;
            if measure {
                self.times.push(us);
            }
            if i + sampled >= frames {
                self.stretch.push(self.world.bodies.values().map(|b| b.max_stretch()).fold(0.0, f32::max));
            }
            if self.host != Host::None {
                sleep_until(frame_start + FRAME);
                frame_start += FRAME;
                // A late frame starts the next one at once (no catching up).
                frame_start = frame_start.max(Instant::now());
            }
        }
    }
}

/// The host's own work: arithmetic on its thread until `deadline`.
fn spin_until(deadline: Instant) {
    let mut x = 1.000_1f64;
    while Instant::now() < deadline {
        for _ in 0..256 {
            x = black_box(x * 1.000_000_1 + 1e-9);
        }
    }
    black_box(x);
}

fn sleep_until(deadline: Instant) {
    let now = Instant::now();
    if deadline > now {
        std::thread::sleep(deadline - now);
    }
}

fn quantile(times: &[f64], q: f64) -> f64 {
    let mut t = times.to_vec();
    t.sort_by(f64::total_cmp);
    let n = t.len();
    if q == 0.5 && n % 2 == 0 {
        return 0.5 * (t[n / 2 - 1] + t[n / 2]);
    }
    t[((n - 1) as f64 * q).round() as usize]
}

/// `S1-PACED` or `S2-PACED`: every host mode at every thread count of `threads`, `steps`
/// measured frames each.
pub fn run(name: &str, threads: &[u32], steps: usize) -> Vec<Line> {
    let scene = match name {
        "S1-PACED" => scenes::s1(),
        "S2-PACED" => scenes::s2(),
        other => panic!("not a paced scene: {other}"),
    };
    // The chapter's time on the same scene, back to back, as every bench line's yardstick.
    let mut cloths = scenes::chapter(&scene);
    for _ in 0..scenes::WARM_UP_STEPS {
        scenes::chapter_step(&mut cloths);
    }
    let chapter: Vec<f64> = (0..steps)
        .map(|_| {
            let t = Instant::now();
            scenes::chapter_step(&mut cloths);
            t.elapsed().as_secs_f64() * 1e6
        })
        .collect();
    let chapter_us = quantile(&chapter, 0.5);
    // Two threads and more without waking ahead (the default) and with the suggested time.
    let wake = |t: u32| if t > 1 { vec![0, SUGGESTED_WAKE_AHEAD_US] } else { vec![0] };
    let mut configs: Vec<Config> = Vec::new();
    for host in [Host::None, Host::Spin, Host::Sleep] {
        for &t in threads {
            for a in wake(t) {
                configs.push(Config::new(&scene, host, t, a));
            }
        }
    }
    for c in &mut configs {
        c.run(scenes::WARM_UP_STEPS, false, 0);
    }
    for r in 0..ROUNDS {
        let frames = steps * (r + 1) / ROUNDS - steps * r / ROUNDS;
        for c in &mut configs {
            c.run(frames, true, if r == ROUNDS - 1 { 60 } else { 0 });
        }
    }
    let median = |host: Host, threads: u32, a: u32| configs.iter().find(|c| c.host == host && c.threads == threads && c.wake_ahead_us == a).map(|c| quantile(&c.times, 0.5));
    configs
        .iter()
        .map(|c| {
            let st = c.world.stats();
            assert_eq!(st.steps as usize, scenes::WARM_UP_STEPS + steps, "one fixed step per 1/60 s frame");
            let us = quantile(&c.times, 0.5);
            Line {
                scene: name.to_owned(),
                host: c.host,
                threads: c.threads,
                wake_ahead_us: c.wake_ahead_us,
                us_per_step: us,
                us_p90: quantile(&c.times, 0.9),
                substeps: scene.iterations as u32,
                particles: st.particle_count as usize,
                constraints: st.constraint_count as usize,
                stretch60: c.stretch.iter().copied().fold(0.0, f32::max),
                ratio: us / chapter_us,
                advantage: median(c.host, 1, 0).map(|one| one / us),
                vs_back_to_back: median(Host::None, c.threads, c.wake_ahead_us).map(|b| us / b),
            }
        })
        .collect()
}
