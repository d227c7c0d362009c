//! Scene S4 (docs/benchmarks.md): 40 humanoid ragdolls dropped onto a plane, in Sinew and,
//! with the cargo feature `rapier`, in rapier3d, built from the same descriptions and
//! measured the same way ([`measure`]).
//!
//! A round builds the scene anew and runs `steps` 1/60 s steps from the drop (600: 10 s),
//! timing each step alone; between steps, outside the timing, it reads every bone pose and
//! measures the joints, and notes whether every ragdoll sleeps. One unmeasured round first,
//! then `rounds` measured ones (5). Per solver and thread count one line:
//!
//! - `us_per_step`: the median over rounds of a round's mean step time (µs), the whole
//!   10 s — fall, impact, settling and sleep — as a game pays it; `us_min`/`us_max` the
//!   fastest and slowest round; `us_first_2s` the same median over the first 120 steps only
//!   (fall and impacts, before anything can sleep);
//! - `joint_sep_mm`, `limit_deg`: the worst joint separation (mm) and limit violation (°)
//!   over every joint after the last step; `joint_sep_peak_mm`, `limit_peak_deg` the worst
//!   over every step of the run; each the worst over the measured rounds; `limit_axes_deg`,
//!   `limit_axes_peak_deg` the limits read per axis as rapier defines them
//!   ([`measure::axes_violation`]);
//! - `sleep_s`: the time from which every ragdoll sleeps until the end of the round (s;
//!   the latest over the rounds), `none` if some ragdoll is awake at the end of a round.

pub mod measure;
#[cfg(feature = "rapier")]
pub mod rapier_side;
pub mod scene;
pub mod sinew_side;

use std::any::Any;
use std::panic::{self, AssertUnwindSafe};
use std::time::Instant;

use sinew::ragdoll::RagdollDesc;
use sinew::world::WorkerPool;

use measure::Errors;
use scene::DT;

/// What a solver gives the rounds.
pub trait Solver {
    fn step(&mut self);
    /// The worst joint errors now.
    fn errors(&mut self) -> Errors;
    fn all_asleep(&self) -> bool;
}

/// One round's figures.
#[derive(Clone, Copy, Debug)]
pub struct Round {
    pub steps: usize,
    pub mean_us: f64,
    pub first_2s_us: f64,
    pub end: Errors,
    pub peak: Errors,
    pub sleep_s: Option<f32>,
}

/// Runs one round on an already built scene.
pub fn round(s: &mut impl Solver, steps: usize) -> Round {
    let first = steps.min(120);
    let (mut total, mut first_total) = (0.0f64, 0.0f64);
    let mut peak = Errors::default();
    let mut sleep_s = None;
    for i in 0..steps {
        let t = Instant::now();
        s.step();
        let us = t.elapsed().as_secs_f64() * 1e6;
        total += us;
        if i < first {
            first_total += us;
        }
        peak = peak.max(s.errors());
        match (s.all_asleep(), sleep_s) {
            (true, None) => sleep_s = Some((i + 1) as f32 * DT),
            (false, _) => sleep_s = None,
            _ => {}
        }
    }
    Round { steps, mean_us: total / steps as f64, first_2s_us: first_total / first as f64, end: s.errors(), peak, sleep_s }
}

/// One line of output.
pub struct Row {
    pub solver: &'static str,
    pub threads: u32,
    /// Substeps (or rapier's solver iterations) × iterations per substep.
    pub effort: String,
    /// Substeps per step (rapier: its solver iterations), for `ns_per_body_substep`.
    pub substeps: u32,
    pub bodies: usize,
    pub joints: usize,
    pub rounds: Vec<Round>,
    /// Time over rapier's (default effort, same threads) in this run: the whole round's mean,
    /// and the first 2 s's.
    pub ratio_to_rapier: Option<f64>,
    pub ratio_first_to_rapier: Option<f64>,
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n % 2 == 1 { v[n / 2] } else { 0.5 * (v[n / 2 - 1] + v[n / 2]) }
}

impl Row {
    pub fn us(&self) -> f64 {
        median(self.rounds.iter().map(|r| r.mean_us).collect())
    }
    fn us_first(&self) -> f64 {
        median(self.rounds.iter().map(|r| r.first_2s_us).collect())
    }
    fn spread(&self) -> (f64, f64) {
        let m = self.rounds.iter().map(|r| r.mean_us);
        (m.clone().fold(f64::INFINITY, f64::min), m.fold(0.0, f64::max))
    }
    fn end(&self) -> Errors {
        self.rounds.iter().fold(Errors::default(), |e, r| e.max(r.end))
    }
    fn peak(&self) -> Errors {
        self.rounds.iter().fold(Errors::default(), |e, r| e.max(r.peak))
    }
    fn sleep(&self) -> String {
        let s: Option<Vec<f32>> = self.rounds.iter().map(|r| r.sleep_s).collect();
        match s {
            Some(v) => format!("{:.2}", v.into_iter().fold(0.0, f32::max)),
            None => "none".into(),
        }
    }

    pub fn print(&self) {
        let (lo, hi) = self.spread();
        let (end, peak) = (self.end(), self.peak());
        let mut ratio = self.ratio_to_rapier.map_or(String::new(), |r| format!(" ratio_to_rapier={r:.2}"));
        if let Some(r) = self.ratio_first_to_rapier {
            ratio += &format!(" ratio_first_2s_to_rapier={r:.2}");
        }
        println!(
            "scene=S4 solver={} threads={} us_per_step={:.1} substeps={} ns_per_body_substep={:.1} joint_sep_mm={:.3} limit_deg={:.2} sleep_s={} us_min={:.1} us_max={:.1} us_first_2s={:.1} joint_sep_peak_mm={:.3} limit_peak_deg={:.2} limit_axes_deg={:.2} limit_axes_peak_deg={:.2} effort={} bodies={} joints={} ragdolls={} rounds={} steps={}{ratio}",
            self.solver,
            self.threads,
            self.us(),
            self.substeps,
            self.us() * 1e3 / (self.bodies as f64 * self.substeps as f64),
            end.separation * 1e3,
            end.limit.to_degrees(),
            self.sleep(),
            lo,
            hi,
            self.us_first(),
            peak.separation * 1e3,
            peak.limit.to_degrees(),
            end.limit_axes.to_degrees(),
            peak.limit_axes.to_degrees(),
            self.effort,
            self.bodies,
            self.joints,
            scene::GRID_COLUMNS * scene::GRID_ROWS + scene::PILE_COUNT,
            self.rounds.len(),
            self.rounds.first().map_or(0, |r| r.steps),
        );
    }
}

/// Whether a panic is a `todo!()` (a part of the library not written yet).
pub fn is_todo(payload: &Box<dyn Any + Send>) -> bool {
    let msg = payload.downcast_ref::<&str>().map(|s| s.to_string()).or_else(|| payload.downcast_ref::<String>().cloned());
    msg.is_some_and(|m| m.contains("not yet implemented"))
}

/// The rounds of one solver and thread count: `make` builds the scene (outside the timing).
fn rounds<S: Solver>(pool: &WorkerPool, rounds: usize, steps: usize, make: impl Fn() -> S + Sync, check: impl Fn(&Round, &S) + Sync) -> Vec<Round> {
    pool.install(|| {
        (0..=rounds)
            .map(|_| {
                let mut s = make();
                let r = round(&mut s, steps);
                check(&r, &s);
                r
            })
            .skip(1)
            .collect()
    })
}

/// Runs S4 for every thread count: rapier (when built with it) at its default effort and at
/// Sinew's, then Sinew; prints each line as it is measured and returns them.
pub fn run(threads: &[u32], steps: usize, n_rounds: usize) -> Vec<Row> {
    measure::self_check();
    let template = scene::template();
    let descs: Vec<RagdollDesc> = scene::ragdolls(&template);
    let bodies = descs.iter().map(|d| d.bones.len()).sum();
    let joints = descs.iter().map(|d| measure::frames(d).len()).sum();
    let substeps = sinew_side::settings().substeps;
    let iterations = sinew_side::settings().iterations;
    // `todo!` panics of the library's unwritten parts are reported as lines, not printed.
    let default_hook = panic::take_hook();
    panic::set_hook(Box::new(move |info| {
        let todo = info.payload().downcast_ref::<&str>().is_some_and(|m| m.contains("not yet implemented"))
            || info.payload().downcast_ref::<String>().is_some_and(|m| m.contains("not yet implemented"));
        if !todo {
            default_hook(info);
        }
    }));
    let mut out = Vec::new();
    for &t in threads {
        let pool = WorkerPool::new(t).expect("worker pool");
        let row = |solver, effort: String, substeps: u32, rounds| Row { solver, threads: t, effort, substeps, bodies, joints, rounds, ratio_to_rapier: None, ratio_first_to_rapier: None };
        #[cfg_attr(not(feature = "rapier"), allow(unused_mut))]
        let mut rapier_us: Option<(f64, f64)> = None;
        #[cfg(feature = "rapier")]
        {
            let default_iterations = rapier3d::prelude::IntegrationParameters::default().num_solver_iterations;
            for (solver, n) in [("rapier", None), ("rapier-matched", Some(substeps as usize))] {
                let r = rounds(&pool, n_rounds, steps, || rapier_side::RapierS4::new(&descs, n), |_, _| {});
                let r = row(solver, format!("{}x1", n.unwrap_or(default_iterations)), n.unwrap_or(default_iterations) as u32, r);
                r.print();
                if solver == "rapier" {
                    rapier_us = Some((r.us(), r.us_first()));
                }
                out.push(r);
            }
        }
        let sinew = panic::catch_unwind(AssertUnwindSafe(|| rounds(&pool, n_rounds, steps, || sinew_side::SinewS4::new(&descs), sinew_side::check)));
        match sinew {
            Ok(r) => {
                let mut r = row("sinew", format!("{substeps}x{iterations}"), substeps, r);
                r.ratio_to_rapier = rapier_us.map(|us| r.us() / us.0);
                r.ratio_first_to_rapier = rapier_us.map(|us| r.us_first() / us.1);
                r.print();
                let plain_us = r.us();
                out.push(r);
                // The precise pipeline the default replaced (`RigidSolver::Precise`), side by side.
                let f = rounds(&pool, n_rounds, steps, || sinew_side::SinewS4::with_solver(&descs, sinew::ragdoll::RigidSolver::Precise), sinew_side::check);
                let mut f = row("sinew-precise", format!("{substeps}x{iterations}"), substeps, f);
                f.ratio_to_rapier = rapier_us.map(|us| f.us() / us.0);
                f.ratio_first_to_rapier = rapier_us.map(|us| f.us_first() / us.1);
                f.print();
                out.push(f);
                // Powered (muscles on every joint): the cost of a powered ragdoll against a
                // plain one, in the same run (PuppetMaster's vendor puts a puppet at about two).
                let p = rounds(&pool, n_rounds, steps, || sinew_side::SinewS4::new_powered(&descs), sinew_side::check);
                let mut p = row("sinew-powered", format!("{substeps}x{iterations}"), substeps, p);
                p.ratio_to_rapier = rapier_us.map(|us| p.us() / us.0);
                p.ratio_first_to_rapier = rapier_us.map(|us| p.us_first() / us.1);
                p.print();
                println!("scene=S4 solver=sinew-powered threads={t} ratio_to_plain={:.2}", p.us() / plain_us);
                out.push(p);
            }
            Err(p) if is_todo(&p) => println!("scene=S4 solver=sinew threads={t} TODO: not measured, Sinew's ragdolls are not written yet (todo!)"),
            Err(p) => panic::resume_unwind(p),
        }
    }
    let _ = panic::take_hook();
    out
}

/// The S4 rows as a markdown table.
pub fn table(rows: &[Row]) {
    if rows.is_empty() {
        return;
    }
    println!();
    println!("| S4 solver | threads | effort | µs/step (median, min–max) | first 2 s µs | joint sep. end / peak (mm) | limit end / peak (°) | per-axis limit end / peak (°) | all asleep (s) | ratio to rapier |");
    println!("|---|---|---|---|---|---|---|---|---|---|");
    for r in rows {
        let (lo, hi) = r.spread();
        let (e, p) = (r.end(), r.peak());
        println!(
            "| {} | {} | {} | {:.0} ({:.0}–{:.0}) | {:.0} | {:.3} / {:.3} | {:.2} / {:.2} | {:.2} / {:.2} | {} | {} |",
            r.solver,
            r.threads,
            r.effort,
            r.us(),
            lo,
            hi,
            r.us_first(),
            e.separation * 1e3,
            p.separation * 1e3,
            e.limit.to_degrees(),
            p.limit.to_degrees(),
            e.limit_axes.to_degrees(),
            p.limit_axes.to_degrees(),
            r.sleep(),
            r.ratio_to_rapier.map_or("—".into(), |x| format!("{x:.2}")),
        );
    }
}
