//! Compliance is in m/N at the world's default settings (8 substeps × 1 iteration), through
//! the C ABI (docs/validation.md, "Hanging chain stretch"; issue 11, part 2).
//!
//! A chain of N free particles of mass m below a pin, compliance α per link: link k (from the
//! top, 1..N) carries the weight of the N − k + 1 particles below it, (N − k + 1)·m·g, and
//! stretches by α times that; summed over the links, the total stretch is
//! α·m·g·(N + (N − 1) + … + 1) = α·m·g·N(N+1)/2, whatever the time step.

mod common;
use common::*;

/// Rest stretch of a chain of `n` free particles of mass `m` and compliance `alpha` per link,
/// in a world at `rate` Hz with the default substeps and iterations, stepped by host frames
/// of `1/host` s for `seconds`. The total length is read end to end (the chain hangs
/// straight), which rounds less than a sum of link lengths.
pub fn chain_stretch(n: usize, m: f32, alpha: f32, rate: f32, host: f32, seconds: f32) -> f32 {
    chain_stretch_damped(n, m, alpha, rate, host, seconds, 4.0)
}

/// [`chain_stretch`] with a damping rate of `damping` (1/s).
pub fn chain_stretch_damped(n: usize, m: f32, alpha: f32, rate: f32, host: f32, seconds: f32, damping: f32) -> f32 {
    let mut wd = world_desc();
    wd.fixed_rate_hz = rate;
    wd.thread_count = 1;
    let world = create_world(&wd);
    let rest = 0.1f32;
    let rope = hanging_chain(world, v3(0.0, 0.0, 0.0), n, rest, m, alpha, damping);
    let frames = (seconds * host).round() as usize;
    for _ in 0..frames {
        ok(sinew_world_step(world, 1.0 / host));
    }
    let p = read_positions(rope);
    ok(sinew_world_destroy(world));
    dist(p[0], p[n]) - n as f32 * rest
}

fn law(n: usize, m: f32, alpha: f32) -> f32 {
    alpha * m * 9.81 * (n * (n + 1)) as f32 / 2.0
}

/// 5 to 40 particles, compliances over three decades, internal rates of 30, 60 and 120 Hz:
/// the default configuration gives the law within 2 %.
#[test]
fn hanging_chain_obeys_the_compliance_law_at_the_defaults() {
    let defaults = world_desc();
    assert_eq!((defaults.substeps, defaults.iterations, defaults.fixed_rate_hz), (8, 1, 60.0), "this test is about the defaults");
    let m = 0.02f32;
    let mut worst = (0.0f32, String::new());
    for n in [5usize, 17, 40] {
        for alpha in [1e-5f32, 1e-4, 1e-3, 1e-2] {
            for rate in [30.0f32, 60.0, 120.0] {
                let got = chain_stretch(n, m, alpha, rate, rate, 15.0);
                let want = law(n, m, alpha);
                let err = (got / want - 1.0).abs();
                let line = format!("n {n}, alpha {alpha:e} m/N, {rate} Hz: stretch {got:.4e} m, law {want:.4e} m ({:+.2} %)", (got / want - 1.0) * 100.0);
                println!("{line}");
                if err > worst.0 {
                    worst = (err, line);
                }
            }
        }
    }
    assert!(worst.0 < 0.02, "worst: {}", worst.1);
}

/// The host's frame rate (30 to 144 Hz against the default 60 Hz world) changes nothing at rest.
#[test]
fn hanging_chain_obeys_the_compliance_law_at_any_host_rate() {
    let (n, m, alpha) = (24usize, 0.015f32, 3e-4f32);
    let want = law(n, m, alpha);
    for host in [30.0f32, 45.0, 90.0, 144.0] {
        let got = chain_stretch(n, m, alpha, 60.0, host, 12.0);
        let err = (got / want - 1.0).abs();
        assert!(err < 0.02, "host {host} Hz: stretch {got:.4e} m, law {want:.4e} m ({:+.2} %)", (got / want - 1.0) * 100.0);
    }
}

/// Damping slows motion; it must not take weight off a body at rest. With 240 substeps/s
/// (a 30 Hz world) and damping rates from 0.5 to 30 /s the rest stretch is the law's: it
/// once scaled gravity's impulse by (1 − c·h), 12.5 % too little at 30 /s.
#[test]
fn rest_stretch_does_not_depend_on_damping() {
    let (n, m, alpha) = (9usize, 0.03f32, 5e-4f32);
    let want = law(n, m, alpha);
    for damping in [0.5f32, 5.0, 30.0] {
        let got = chain_stretch_damped(n, m, alpha, 30.0, 60.0, 15.0, damping);
        let err = got / want - 1.0;
        assert!(err.abs() < 0.005, "damping {damping}/s: stretch {got:.4e} m, law {want:.4e} m ({:+.2} %)", err * 100.0);
    }
}

/// Rest stretch of a vertical cloth strip, 2 particles wide and `n` links tall, of particle
/// mass `m` and stretch compliance `alpha` (shear and bend nearly free, so the two columns
/// carry the weight as two chains), in a world at `rate` Hz with `iterations` per substep,
/// relative to the chain law.
fn strip_error(n: u32, m: f32, alpha: f32, rate: f32, iterations: u32) -> f32 {
    let mut wd = world_desc();
    wd.fixed_rate_hz = rate;
    wd.iterations = iterations;
    wd.thread_count = 1;
    let world = create_world(&wd);
    let mut gd = grid_desc();
    (gd.columns, gd.rows, gd.spacing) = (2, n + 1, 0.1);
    // Rows along −y: a quarter turn about x.
    gd.orientation = SinewQuat { x: std::f32::consts::FRAC_1_SQRT_2, y: 0.0, z: 0.0, w: std::f32::consts::FRAC_1_SQRT_2 };
    gd.material.particle_mass = m;
    gd.material.stretch_compliance = alpha;
    gd.material.shear_compliance = 1e3;
    gd.material.bend_compliance = 1e3;
    gd.material.damping = 4.0;
    let cloth = create_grid(world, &gd);
    for _ in 0..(15.0 * rate) as usize {
        ok(sinew_world_step(world, 1.0 / rate));
    }
    let p = read_positions(cloth);
    ok(sinew_world_destroy(world));
    let got = dist(p[0], p[2 * n as usize]) - n as f32 * 0.1;
    got / law(n as usize, m, alpha) - 1.0
}

/// Cloth is projected by colour batches, one Gauss–Seidel pass per iteration, so at the
/// defaults (one iteration) it stretches by about h²/(α·m) more than its compliance says
/// (docs/design.md, "Chains"; `WorldSettings::iterations`). Within 2 % where α·m ≥ 50·h²
/// (h = the substep): 8.7e-4 kg·m/N at 30 Hz, 2.2e-4 at 60 Hz, 5.4e-5 at 120 Hz; a stiffer
/// cloth needs iterations — 4 for α·m = 1e-5 at 60 Hz.
#[test]
fn cloth_compliance_at_the_defaults_and_with_iterations() {
    let (n, m) = (16u32, 0.01f32);
    for (rate, alpha, iterations) in [(30.0f32, 0.1f32, 1u32), (60.0, 3e-2, 1), (120.0, 1e-2, 1), (60.0, 1e-3, 4)] {
        let err = strip_error(n, m, alpha, rate, iterations);
        println!("cloth strip, {rate} Hz, alpha {alpha:e}, {iterations} iteration(s): {:+.2} %", err * 100.0);
        assert!(err.abs() < 0.02, "cloth strip at {rate} Hz, alpha {alpha:e} m/N, {iterations} iteration(s): {:+.2} % off the law", err * 100.0);
    }
}
