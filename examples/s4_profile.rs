//! A short S4 run for profilers (callgrind, perf): Sinew only, one round of `steps` steps
//! (default 120) on `threads` threads (default 1), printing the mean step time per second of
//! simulated time and the joint errors at the end.
//!
//! cargo run --release --example s4_profile -- [steps] [threads]   (S4_SOLVER=precise for the precise pipeline)
#![allow(dead_code)]

#[path = "s4/mod.rs"]
mod s4;

use s4::Solver;
use std::time::Instant;

fn main() {
    let mut args = std::env::args().skip(1);
    let steps: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(120);
    let threads: u32 = args.next().and_then(|s| s.parse().ok()).unwrap_or(1);
    let descs = s4::scene::ragdolls(&s4::scene::template());
    let pool = sinew::world::WorkerPool::new(threads).expect("pool");
    pool.install(|| {
        // S4_SOLVER=precise: the precise ragdoll pipeline (`RigidSolver::Precise`).
        let solver = if std::env::var("S4_SOLVER").is_ok_and(|v| v == "precise") { sinew::ragdoll::RigidSolver::Precise } else { sinew::ragdoll::RigidSolver::Fast };
        let mut s = s4::sinew_side::SinewS4::with_solver(&descs, solver);
        let mut chunk = 0.0f64;
        let mut total = 0.0f64;
        for i in 0..steps {
            let t = Instant::now();
            s.step();
            let us = t.elapsed().as_secs_f64() * 1e6;
            chunk += us;
            total += us;
            if (i + 1) % 60 == 0 {
                println!("t={:>4.1}s us_per_step={:.0} asleep={}", (i + 1) as f32 / 60.0, chunk / 60.0, s.asleep_count());
                if std::env::var("S4_SPEEDS").is_ok() {
                    println!("  {:?}", s.fastest_bones().iter().map(|v| (v * 1000.0).round() / 1000.0).collect::<Vec<_>>());
                }
                chunk = 0.0;
            }
        }
        let e = s.errors();
        println!("steps={steps} threads={threads} us_per_step={:.0} joint_sep_mm={:.3} limit_deg={:.2} pose_hash={:#018x}", total / steps as f64, e.separation * 1e3, e.limit.to_degrees(), s.pose_hash());
    });
}
