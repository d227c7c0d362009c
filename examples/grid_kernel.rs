//! Times the grid kernel run by run on one square cloth: where an iteration's time goes.
//!
//! ```text
//! cargo run --release --example grid_kernel [-- COLUMNS]     (default 64)
//! ```
//!
//! Each of the grid's twelve batches (runs) is projected over and over on the same
//! particles; the best of 60 trials is printed per run, in µs and ns per projection, then a
//! whole iteration. Best-of rather than median: this measures the kernel, not the machine's
//! noise. Under `valgrind --tool=callgrind` the same program gives instruction counts.

use std::time::Instant;

use sinew::cloth::grid_topology;
use sinew::math::Vec3;
use sinew::solver::constraints::grid_simd;
use sinew::solver::layout::soa::Soa;

fn best_of(trials: usize, reps: usize, mut f: impl FnMut()) -> f64 {
    let mut best = f64::MAX;
    for _ in 0..trials {
        let t = Instant::now();
        for _ in 0..reps {
            f();
        }
        best = best.min(t.elapsed().as_secs_f64() / reps as f64);
    }
    best
}

fn main() {
    let n: u32 = std::env::args().nth(1).map_or(64, |s| s.parse().expect("COLUMNS is a number"));
    if !grid_simd::supported() {
        eprintln!("this CPU has no AVX: the grid kernel does not run");
        return;
    }
    let topo = grid_topology(n, n, 0.05).expect("valid grid");
    let layout = topo.grid.clone().expect("grids carry their layout");
    let k = &topo.constraints;
    let count = topo.particle_count;
    // Slightly disturbed rest positions, the first row pinned (as S1).
    let x: Vec<Vec3> = (0..count).map(|i| topo.rest[i] + Vec3::new((i as f32 * 0.37).sin(), (i as f32 * 0.11).cos(), (i as f32 * 0.23).sin()) * 0.003).collect();
    let w: Vec<f32> = (0..count).map(|i| if i < n as usize { 0.0 } else { 1.0 }).collect();
    let mut soa = Soa::default();
    soa.load(&x, &w);
    let mut lambda = vec![0.0f32; k.len()];
    let rigid = [0.0f32; 3];
    println!("{n}x{n} grid, {} constraints in {} runs", k.len(), layout.runs.len());
    for (b, run) in k.batches.iter().zip(&layout.runs) {
        let range = b.start as usize..b.end as usize;
        // SAFETY: AVX checked above; `k` is this grid's own constraints.
        let t = best_of(60, 40, || unsafe { grid_simd::solve_run(&layout, *run, &mut soa, k, range.clone(), &mut lambda, &rigid, 1.0) });
        println!("{:<14} {:>6} constraints {:>8.2} µs {:>6.2} ns/projection", format!("{run:?}"), range.len(), t * 1e6, t * 1e9 / range.len() as f64);
    }
    let t = best_of(60, 40, || {
        for (b, run) in k.batches.iter().zip(&layout.runs) {
            // SAFETY: as above.
            unsafe { grid_simd::solve_run(&layout, *run, &mut soa, k, b.start as usize..b.end as usize, &mut lambda, &rigid, 1.0) };
        }
    });
    println!("iteration      {:>6} constraints {:>8.2} µs {:>6.2} ns/projection", k.len(), t * 1e6, t * 1e9 / k.len() as f64);
}
