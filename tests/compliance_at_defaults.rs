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
    let points: Vec<SinewVec3> = (0..=n).map(|i| v3(0.0, -(i as f32) * rest, 0.0)).collect();
    let pins = [0u32];
    let mut rd = rope_desc();
    rd.points = points.as_ptr();
    rd.point_count = points.len();
    rd.pin_indices = pins.as_ptr();
    rd.pin_count = 1;
    rd.bend = 0;
    rd.material.particle_mass = m;
    rd.material.damping = damping;
    rd.material.stretch_compliance = alpha;
    let rope = create_rope(world, &rd);
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
