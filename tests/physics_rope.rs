//! The chapter's rope (section 7) and the hanging-chain stretch law, through the C ABI.

mod common;
use common::*;

/// Section 7: 6 particles, REST 0.5, dt 1/60, gravity −9.8, 5 relaxation passes, first
/// particle pinned. Compliance 0, one substep, K = 5 iterations must print the chapter's
/// three lines.
#[test]
fn chapter_rope_reproduces_the_printed_tips() {
    let mut wd = world_desc();
    wd.gravity = v3(0.0, -9.8, 0.0);
    wd.substeps = 1;
    wd.iterations = 5;
    wd.fixed_rate_hz = 60.0;
    wd.interpolate = 0;
    let world = create_world(&wd);
    let points: Vec<SinewVec3> = (0..6).map(|i| v3(i as f32 * 0.5, 0.0, 0.0)).collect();
    let pins = [0u32];
    let mut rd = rope_desc();
    rd.points = points.as_ptr();
    rd.point_count = points.len();
    rd.pin_indices = pins.as_ptr();
    rd.pin_count = 1;
    rd.bend = 0;
    rd.material.damping = 0.0;
    rd.material.stretch_compliance = 0.0;
    let rope = create_rope(world, &rd);
    let mut lines = Vec::new();
    let mut out = vec![SinewVec3::default(); 6];
    for frame in 0..3 {
        ok(sinew_world_step(world, 1.0 / 60.0));
        ok(sinew_body_read_positions(rope, out.as_mut_ptr(), out.len()));
        lines.push(format!("frame {frame}: tip = ({:.4}, {:.4})", out[5].x, out[5].y));
    }
    assert_eq!(
        lines,
        ["frame 0: tip = (2.5000, -0.0027)", "frame 1: tip = (2.5000, -0.0082)", "frame 2: tip = (2.4999, -0.0163)"]
    );
    ok(sinew_world_destroy(world));
}

/// Settles a chain of `n` particles of mass `m` hanging from a pin, with compliance `alpha`
/// per segment, stepping the world at `rate` Hz; returns the total stretch.
fn chain_stretch(n: usize, m: f32, alpha: f32, rate: f32) -> f32 {
    let mut wd = world_desc();
    wd.fixed_rate_hz = rate;
    wd.substeps = 8;
    wd.iterations = 8;
    wd.interpolate = 0;
    wd.thread_count = 1;
    let world = create_world(&wd);
    let rest = 0.1f32;
    // Hanging straight down from the pin: particle 0 pinned, n free particles below.
    let rope = hanging_chain(world, v3(0.0, 0.0, 0.0), n, rest, m, alpha, 2.0);
    let seconds = 10.0;
    let frames = (seconds * rate) as usize;
    for _ in 0..frames {
        ok(sinew_world_step(world, 1.0 / rate));
    }
    let mut out = vec![SinewVec3::default(); n + 1];
    ok(sinew_body_read_positions(rope, out.as_mut_ptr(), out.len()));
    ok(sinew_world_destroy(world));
    let length: f32 = out.windows(2).map(|w| dist(w[0], w[1])).sum();
    length - n as f32 * rest
}

#[test]
fn hanging_chain_stretch_matches_the_compliance_law_at_every_rate() {
    let (n, m, alpha) = (10usize, 0.05f32, 2e-3f32);
    let expected = alpha * m * 9.81 * (n * (n + 1)) as f32 / 2.0;
    for rate in [30.0f32, 60.0, 120.0] {
        let got = chain_stretch(n, m, alpha, rate);
        let err = (got - expected).abs() / expected;
        assert!(err < 0.02, "rate {rate} Hz: stretch {got} m, expected {expected} m ({:.2}% off)", err * 100.0);
    }
}
