//! Energy of undamped motion, through the C ABI (docs/validation.md, "Energy of an undamped
//! pendulum"; issue 11, part 3).
//!
//! Sinew's substep is symplectic Euler followed by a projection of each constraint, and the
//! velocity is the substep's displacement over h. Projected along its direction at the
//! predicted positions (PBD/XPBD), a constraint loses energy at first order: for a pendulum
//! of speed v about m·v²·(v²/L + g·cos θ)·h²/L per substep, so the amplitude lost per period
//! falls like h. Projected along its direction at the substep's start (SHAKE, which with
//! this position update is the symplectic RATTLE scheme) it keeps it, with an energy error
//! that stays bounded. Ropes and strands (batches solved in order) are projected along the
//! start direction; cloth (colour batches, in SIMD lanes) still along the predicted one —
//! the cloth test below measures what that costs. The reference models below are the two
//! schemes in exact arithmetic.

mod common;
use common::*;

const G: f64 = 9.81;

/// Complete elliptic integral of the first kind, K(k), by the arithmetic-geometric mean.
fn elliptic_k(k: f64) -> f64 {
    let (mut a, mut b) = (1.0f64, (1.0 - k * k).sqrt());
    for _ in 0..40 {
        (a, b) = ((a + b) / 2.0, (a * b).sqrt());
    }
    std::f64::consts::PI / (2.0 * a)
}

/// Period of a pendulum of length `l` swinging to `amplitude` radians.
fn period(l: f64, amplitude: f64) -> f64 {
    4.0 * elliptic_k((amplitude / 2.0).sin()) * (l / G).sqrt()
}

/// What a pendulum swung: its amplitude (rad) at each turning point and the times it crossed
/// the bottom going the same way (s), from positions read every frame.
struct Swing {
    amplitudes: Vec<f64>,
    crossings: Vec<f64>,
}

/// The method in exact arithmetic (f64): symplectic Euler, then the bob projected onto the
/// circle along its predicted direction (PBD, as Sinew does) or along its direction at the
/// substep's start (SHAKE); velocity = displacement / h. Sampled like Sinew, once per frame.
fn reference(l: f64, substeps: u32, seconds: f64, shake: bool) -> Swing {
    let h = 1.0 / 60.0 / substeps as f64;
    let (mut x, mut y, mut vx, mut vy) = (l, 0.0f64, 0.0f64, 0.0f64);
    let mut frames = vec![(x, y)];
    for _ in 0..(seconds * 60.0) as usize {
        for _ in 0..substeps {
            let (px, py) = (x, y);
            vy -= G * h;
            x += vx * h;
            y += vy * h;
            if shake {
                let (nx, ny) = (px / l, py / l);
                let qn = x * nx + y * ny;
                let s = -qn + (qn * qn - (x * x + y * y - l * l)).sqrt();
                (x, y) = (x + s * nx, y + s * ny);
            } else {
                let d = (x * x + y * y).sqrt();
                (x, y) = (x * l / d, y * l / d);
            }
            (vx, vy) = ((x - px) / h, (y - py) / h);
        }
        frames.push((x, y));
    }
    swing(&frames)
}

/// Turning points and crossings from frame positions (pivot at the origin, bob released
/// at (L, 0)).
fn swing(frames: &[(f64, f64)]) -> Swing {
    let dt = 1.0 / 60.0;
    let angle = |(x, y): (f64, f64)| x.atan2(-y);
    let mut amplitudes = Vec::new();
    let mut crossings = Vec::new();
    for i in 1..frames.len() - 1 {
        let (a0, a1, a2) = (angle(frames[i - 1]).abs(), angle(frames[i]).abs(), angle(frames[i + 1]).abs());
        if a1 >= a0 && a1 > a2 && a1 > 0.5 {
            // Parabola through the three samples: the turning point between frames.
            let denom = a0 - 2.0 * a1 + a2;
            let peak = if denom < 0.0 { a1 - (a2 - a0).powi(2) / (8.0 * denom) } else { a1 };
            amplitudes.push(peak);
        }
        let (x0, x1) = (frames[i].0, frames[i + 1].0);
        if x0 > 0.0 && x1 <= 0.0 {
            crossings.push((i as f64 + x0 / (x0 - x1)) * dt);
        }
    }
    Swing { amplitudes, crossings }
}

/// Sinew: a two-particle rope (pivot pinned, rigid link, no bend, no damping) released at
/// rest from horizontal, in a 60 Hz world with `substeps` × 1.
fn sinew(l: f32, substeps: u32, seconds: f32) -> Swing {
    let mut wd = world_desc();
    wd.substeps = substeps;
    wd.iterations = 1;
    wd.interpolate = 0;
    wd.thread_count = 1;
    let world = create_world(&wd);
    let pts = [v3(0.0, 0.0, 0.0), v3(l, 0.0, 0.0)];
    let pins = [0u32];
    let mut rd = rope_desc();
    rd.points = pts.as_ptr();
    rd.point_count = 2;
    rd.pin_indices = pins.as_ptr();
    rd.pin_count = 1;
    rd.bend = 0;
    rd.material.damping = 0.0;
    rd.material.stretch_compliance = 0.0;
    let rope = create_rope(world, &rd);
    let mut frames = vec![(l as f64, 0.0)];
    for _ in 0..(seconds * 60.0) as usize {
        ok(sinew_world_step(world, 1.0 / 60.0));
        let p = read_positions(rope);
        frames.push((p[1].x as f64, p[1].y as f64));
    }
    ok(sinew_world_destroy(world));
    swing(&frames)
}

/// Degrees of amplitude lost per period (a period spans two turning points).
fn loss_per_period(s: &Swing) -> f64 {
    let a = &s.amplitudes;
    let n = a.len() - 1;
    (a[0] - a[n]).to_degrees() / (n as f64 / 2.0)
}

/// An undamped pendulum keeps its amplitude: at 8 to 64 substeps of a 60 Hz world, released
/// at 90°, it swings back to 90° within 0.06° per period and every turning point is within
/// 0.4° of 90° — what SHAKE's projection (along the link's direction at the substep's start)
/// gives in exact arithmetic (0.0000°), up to float32 round-off, which grows with the number
/// of substeps (measured drift −0.002, +0.004, +0.008, −0.033°/period; worst turning point
/// 90.29° at 64 substeps, 0.03° at 8). Before ropes were
/// projected that way it lost what PBD's projection (along the direction at the predicted
/// position) loses, first order in h: 4.26, 2.52, 1.39, 0.72° per period at 8, 16, 32, 64
/// substeps (2.1° at 20: 90° → 80° in five periods), matching the exact-arithmetic PBD model
/// to 1 %, so none of it was round-off or a hidden damping term.
#[test]
fn undamped_pendulum_keeps_its_amplitude() {
    let l = 0.8f64;
    let seconds = 5.0 * period(l, std::f64::consts::FRAC_PI_2) + 0.3;
    for substeps in [8u32, 16, 32, 64] {
        let ours = sinew(l as f32, substeps, seconds as f32);
        let (pbd, shake) = (loss_per_period(&reference(l, substeps, seconds, false)), loss_per_period(&reference(l, substeps, seconds, true)));
        let loss = loss_per_period(&ours);
        println!("{substeps:3} substeps: Sinew {loss:+.4}°/period (PBD model {pbd:.3}, SHAKE model {shake:+.4}); last turning point {:.3}°", ours.amplitudes.last().unwrap().to_degrees());
        assert!(ours.amplitudes.len() >= 10, "{substeps} substeps: only {} turning points", ours.amplitudes.len());
        assert!(loss.abs() < 0.06, "{substeps} substeps: the amplitude changes by {loss:+.3}° per period");
        for a in &ours.amplitudes {
            assert!((a.to_degrees() - 90.0).abs() < 0.4, "{substeps} substeps: turning point at {:.3}°", a.to_degrees());
        }
    }
}

/// The period of each swing is the elliptic-integral period of the amplitude swung in it
/// (the mean of its turning points): what the issue measured as "1.8 % short" was the
/// amplitude decaying. The error is the integrator's, O(h²): below 0.1 % from 20 substeps (measured: 0.005 % at 20, 0.014 % at 40,
/// which is the frame sampling of the crossings, not h).
#[test]
fn pendulum_period_is_the_elliptic_integral_period_of_its_amplitude() {
    let l = 1.3f64;
    let seconds = 4.0 * period(l, std::f64::consts::FRAC_PI_2) + 0.3;
    for substeps in [20u32, 40] {
        let s = sinew(l as f32, substeps, seconds as f32);
        for (k, w) in s.crossings.windows(2).enumerate() {
            // Crossing k is at (k + ¼) periods; turning points (the release is not one of
            // `amplitudes`) at (j + 1)/2 periods: this period holds turning points 2k and 2k+1.
            let mean = (s.amplitudes[2 * k] + s.amplitudes[2 * k + 1]) / 2.0;
            let want = period(l, mean);
            let err = (w[1] - w[0]) / want - 1.0;
            println!("{substeps} substeps, period {k}: {:.4} s at {:.2}°, elliptic {want:.4} s ({:+.3} %)", w[1] - w[0], mean.to_degrees(), err * 100.0);
            assert!(err.abs() < 0.001, "{substeps} substeps, period {k}: {:+.3} % off the elliptic-integral period", err * 100.0);
        }
    }
}

/// Kinetic plus potential energy of a body's free particles of mass `m` (J), velocities by
/// central differences of frames `a` and `c` around `b`.
fn energy(a: &[SinewVec3], b: &[SinewVec3], c: &[SinewVec3], free: impl Fn(usize) -> bool, m: f64) -> f64 {
    let dt = 1.0 / 60.0;
    (0..b.len())
        .filter(|&i| free(i))
        .map(|i| {
            let v = [(c[i].x - a[i].x) as f64, (c[i].y - a[i].y) as f64, (c[i].z - a[i].z) as f64].map(|d| d / (2.0 * dt));
            m * (0.5 * (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]) + G * b[i].y as f64)
        })
        .sum()
}

/// A cloth released flat from its pinned edge swings without damping; the energy it has lost
/// after 3 s, as a share of the potential energy it fell through (m·g·Σ drop), falls as the
/// substeps grow. Measured: 74, 64, 59, 24 % at 8, 16, 32, 64 substeps. A cloth loses far
/// more than a pendulum: besides the projection's first-order loss, one Gauss–Seidel pass
/// per substep leaves its rigid structural constraints unconverged, and the stretch it
/// leaves is removed in later substeps along directions that take kinetic energy with it
/// (an inelastic collision between neighbours). The bound is loose because energy read at
/// one instant of a swinging, flapping cloth is: it must never gain energy, and 64 substeps
/// must lose less than half of what 8 lose.
#[test]
fn swinging_cloth_loses_less_energy_with_more_substeps() {
    let m = 0.01f64;
    let mut lost = Vec::new();
    for substeps in [8u32, 16, 32, 64] {
        let mut wd = world_desc();
        wd.substeps = substeps;
        wd.iterations = 1;
        wd.interpolate = 0;
        wd.thread_count = 1;
        let world = create_world(&wd);
        let mut gd = grid_desc();
        (gd.columns, gd.rows, gd.spacing) = (10, 10, 0.05);
        gd.material.damping = 0.0;
        gd.material.particle_mass = m as f32;
        let cloth = create_grid(world, &gd);
        let free = |i: usize| i >= 10;
        let frames = 180;
        let mut window = Vec::new();
        for f in 0..=frames {
            ok(sinew_world_step(world, 1.0 / 60.0));
            if f + 2 >= frames {
                window.push(read_positions(cloth));
            }
        }
        ok(sinew_world_destroy(world));
        let e = energy(&window[0], &window[1], &window[2], free, m);
        // The potential energy it fell through: the mean drop of the free particles.
        let drop: f64 = window[1].iter().enumerate().filter(|&(i, _)| free(i)).map(|(_, p)| -(p.y as f64) * m * G).sum();
        let share = -e / drop;
        println!("cloth, {substeps:2} substeps: energy {e:+.5} J after 3 s, {:.2} % of the {drop:.4} J released", share * 100.0);
        lost.push(share);
    }
    assert!(lost.iter().all(|&l| l > -0.01), "an undamped cloth must not gain energy: {lost:?}");
    assert!(lost[3] < lost[0] / 2.0, "8 → 64 substeps should cut the loss by more than half: {lost:?}");
}
