//! A cloth 5 km from the origin behaves like one at the origin (issue 11, "Far from the
//! origin"), through the C ABI: same shape relative to its pinned edge, same stretch, no
//! jitter at rest.
//!
//! float32 coordinates near 5000 m are 4.9e-4 m apart (one ulp), against a substep motion
//! at rest of g·h² = 4.3e-5 m (60 Hz × 8): what a body far out can resolve is 0.5 mm of
//! position, and 0.5 mm per substep (0.23 m/s) of velocity.

mod common;
use common::*;

struct Hang {
    /// Positions relative to particle 0 (pinned), after settling.
    shape: Vec<[f64; 3]>,
    max_stretch: f32,
    /// Largest particle speed between two frames at rest (m/s), as the host sees it.
    jitter: f64,
}

fn hang(offset: [f32; 3]) -> Hang {
    let mut wd = world_desc();
    wd.thread_count = 1;
    let world = create_world(&wd);
    let mut gd = grid_desc();
    (gd.columns, gd.rows, gd.spacing) = (14, 12, 0.05);
    gd.origin = v3(offset[0], offset[1], offset[2]);
    gd.material.stretch_compliance = 1e-4;
    gd.material.damping = 3.0;
    let cloth = create_grid(world, &gd);
    let frames = 8 * 60;
    let mut last = Vec::new();
    let mut jitter = 0.0f64;
    for f in 0..frames {
        ok(sinew_world_step(world, 1.0 / 60.0));
        let p = read_positions(cloth);
        if f >= frames - 30 {
            for (a, b) in last.iter().zip(&p) {
                jitter = jitter.max(dist(*a, *b) as f64 * 60.0);
            }
        }
        last = p;
    }
    let mut max_stretch = 0.0f32;
    ok(sinew_body_get_max_stretch(cloth, &mut max_stretch));
    ok(sinew_world_destroy(world));
    let o = last[0];
    let shape = last.iter().map(|p| [(p.x - o.x) as f64, (p.y - o.y) as f64, (p.z - o.z) as f64]).collect();
    Hang { shape, max_stretch, jitter }
}

#[test]
fn a_cloth_5_km_out_hangs_like_one_at_the_origin() {
    let near = hang([0.0, 0.0, 0.0]);
    let far = hang([5000.0, 0.0, 5000.0]);
    let shape = near.shape.iter().zip(&far.shape).map(|(a, b)| ((a[0] - b[0]).powi(2) + (a[1] - b[1]).powi(2) + (a[2] - b[2]).powi(2)).sqrt()).fold(0.0f64, f64::max);
    println!("shape: {:.2} mm apart; max stretch {:.5} near, {:.5} far; jitter {:.2e} m/s near, {:.2e} m/s far", shape * 1e3, near.max_stretch, far.max_stretch, near.jitter, far.jitter);
    assert!(shape < 3e-3, "shapes differ by {:.2} mm", shape * 1e3);
    // Read back in world float32, a link 5 km out is known to an ulp at each end: 4.9e-4 m
    // over its 0.05 m is 0.98 % of stretch (the simulation itself keeps the local precision).
    let ulp = 5000.0f32.next_up() - 5000.0;
    let tol = 0.1 * near.max_stretch + ulp / 0.05;
    assert!((far.max_stretch - near.max_stretch).abs() < tol, "max stretch {} far vs {} near (tolerance {tol})", far.max_stretch, near.max_stretch);
    assert!(far.jitter < 1e-3, "a cloth at rest 5 km out moves at {:.2e} m/s (at the origin {:.2e})", far.jitter, near.jitter);
}

/// The same with the pinned edge swinging at 1.5 m/s and the cloth falling onto a sphere: pin
/// paths and collider poses move into the body's frame too. Shapes relative to the pinned
/// corner agree within a few mm on every frame. The inputs are multiples of 2⁻¹¹ m (one
/// float32 step at 5 km), so both bodies are given the same scene: rounded to 0.5 mm, a
/// folding cloth's motion diverges by centimetres from any input difference, near the
/// origin too.
#[test]
fn a_moving_cloth_over_a_sphere_5_km_out_moves_like_one_at_the_origin() {
    let run = |o: [f32; 3]| {
        let mut wd = world_desc();
        wd.thread_count = 1;
        let world = create_world(&wd);
        let mut gd = grid_desc();
        let step = 1.0 / 2048.0f32;
        (gd.columns, gd.rows, gd.spacing) = (12, 12, 100.0 * step);
        gd.origin = v3(o[0], o[1], o[2]);
        let cloth = create_grid(world, &gd);
        let start = read_positions(cloth);
        let mut cd = collider_desc();
        cd.radius = 0.2;
        cd.transform = translation(o[0] + 563.0 * step, o[1] - 717.0 * step, o[2] + 205.0 * step);
        create_collider(world, &cd);
        let idx: Vec<u32> = (0..12).collect();
        let mut shapes = Vec::new();
        for f in 0..150 {
            let dx = (0.15 * (10.0 * f as f32 / 60.0).sin() / step).round() * step;
            let targets: Vec<SinewVec3> = start[..12].iter().map(|p| v3(p.x + dx, p.y, p.z)).collect();
            ok(sinew_body_set_pin_targets(cloth, idx.as_ptr(), idx.len(), targets.as_ptr(), targets.len()));
            ok(sinew_world_step(world, 1.0 / 60.0));
            let p = read_positions(cloth);
            shapes.push(p.iter().map(|q| [(q.x - p[0].x) as f64, (q.y - p[0].y) as f64, (q.z - p[0].z) as f64]).collect::<Vec<_>>());
        }
        ok(sinew_world_destroy(world));
        shapes
    };
    let (near, far) = (run([0.0, 0.0, 0.0]), run([5000.0, 0.0, 5000.0]));
    let worst = worst_apart(&near, &far);
    println!("moving over a sphere: shapes at most {:.2} mm apart over 150 frames", worst * 1e3);
    assert!(worst < 4e-3, "shapes differ by {:.2} mm", worst * 1e3);
}

/// A skinned cloth held by max distances and a backstop around a moving bone, 5 km out: the
/// skinned pose moves into the body's frame with it, and the cloth moves as at the origin
/// (relative to the bone, within 4 mm on every frame, and within its 3 cm of reach).
#[test]
fn a_skinned_cloth_5_km_out_moves_like_one_at_the_origin() {
    let run = |o: [f32; 3]| {
        let mut wd = world_desc();
        wd.thread_count = 1;
        let world = create_world(&wd);
        let step = 1.0 / 2048.0f32;
        let mut gd = grid_desc();
        (gd.columns, gd.rows, gd.spacing) = (8, 8, 100.0 * step);
        gd.origin = v3(o[0], o[1], o[2]);
        gd.pin_mode = SinewPinMode::SINEW_PIN_NONE as u32;
        let cloth = create_grid(world, &gd);
        skin_to_one_bone(cloth);
        ok(sinew_body_set_bone_matrices(cloth, &translation(o[0], o[1], o[2]), 1));
        let max = vec![0.03f32; 64];
        ok(sinew_body_set_max_distances(cloth, max.as_ptr(), 64));
        let (off, rad) = (vec![0.01f32; 64], vec![1.0f32; 64]);
        ok(sinew_body_set_backstops(cloth, off.as_ptr(), 64, rad.as_ptr(), 64));
        let mut shapes = Vec::new();
        for f in 0..120 {
            let t = f as f32 / 60.0;
            let (dx, dy) = ((0.2 * (3.0 * t).sin() / step).round() * step, (0.1 * (5.0 * t).cos() / step).round() * step);
            let bone = v3(o[0] + dx, o[1] + dy, o[2]);
            ok(sinew_body_set_bone_matrices(cloth, &translation(bone.x, bone.y, bone.z), 1));
            ok(sinew_world_step(world, 1.0 / 60.0));
            let p = read_positions(cloth);
            shapes.push(p.iter().map(|q| [(q.x - bone.x) as f64, (q.y - bone.y) as f64, (q.z - bone.z) as f64]).collect::<Vec<_>>());
        }
        ok(sinew_world_destroy(world));
        shapes
    };
    let (near, far) = (run([0.0, 0.0, 0.0]), run([5000.0, 0.0, 5000.0]));
    let worst = worst_apart(&near, &far);
    println!("skinned, around a moving bone: shapes at most {:.2} mm apart over 120 frames", worst * 1e3);
    assert!(worst < 4e-3, "shapes differ by {:.2} mm", worst * 1e3);
}

/// Two cloths paired for contact, one dropped onto the other, 5 km out: both step in one
/// frame, and the pair lies as at the origin (within 4 mm on every frame).
#[test]
fn paired_cloths_5_km_out_lie_like_ones_at_the_origin() {
    let run = |o: [f32; 3]| {
        let mut wd = world_desc();
        wd.thread_count = 1;
        let w = create_world(&wd);
        let step = 1.0 / 2048.0f32;
        let mut gd = grid_desc();
        (gd.columns, gd.rows, gd.spacing) = (10, 10, 100.0 * step);
        gd.pin_mode = SinewPinMode::SINEW_PIN_TOP_CORNERS as u32;
        gd.material.thickness = 0.01;
        gd.origin = v3(o[0], o[1], o[2]);
        let lower = create_grid(w, &gd);
        let corners = [0u32, 9, 90, 99];
        ok(sinew_body_pin(lower, corners.as_ptr(), 4));
        gd.pin_mode = SinewPinMode::SINEW_PIN_NONE as u32;
        (gd.columns, gd.rows) = (6, 6);
        gd.origin = v3(o[0], o[1] + 205.0 * step, o[2]);
        let upper = create_grid(w, &gd);
        ok(sinew_body_set_collision_pair(lower, upper, 1));
        let anchor = read_positions(lower)[0];
        let mut frames = Vec::new();
        for _ in 0..90 {
            ok(sinew_world_step(w, 1.0 / 60.0));
            let mut p = read_positions(lower);
            p.extend(read_positions(upper));
            frames.push(p.iter().map(|q| [(q.x - anchor.x) as f64, (q.y - anchor.y) as f64, (q.z - anchor.z) as f64]).collect::<Vec<_>>());
        }
        ok(sinew_world_destroy(w));
        frames
    };
    let (near, far) = (run([0.0, 0.0, 0.0]), run([5000.0, 0.0, 5000.0]));
    let worst = worst_apart(&near, &far);
    println!("paired: shapes at most {:.2} mm apart over 90 frames", worst * 1e3);
    assert!(worst < 4e-3, "shapes differ by {:.2} mm", worst * 1e3);
}

/// Far out, every kernel and thread count still gives the scalar reference's bits (the local
/// frame is entered and left outside the kernels).
#[test]
fn far_out_every_kernel_and_thread_count_gives_the_same_bits() {
    let run = |kernel: u32, threads: u32| {
        let mut wd = world_desc();
        wd.kernel = kernel;
        wd.thread_count = threads;
        let world = create_world(&wd);
        let mut bodies = Vec::new();
        for i in 0..3 {
            let mut gd = grid_desc();
            (gd.columns, gd.rows, gd.spacing) = (24, 20, 0.05);
            gd.origin = v3(5000.0 + 2.0 * i as f32, 10.0, -3000.0);
            gd.material.stretch_compliance = 1e-5;
            bodies.push(create_grid(world, &gd));
        }
        let mut cd = collider_desc();
        cd.radius = 0.3;
        cd.transform = translation(5000.0, 9.6, -3000.0);
        create_collider(world, &cd);
        for _ in 0..60 {
            ok(sinew_world_step(world, 1.0 / 60.0));
        }
        let all: Vec<SinewVec3> = bodies.iter().flat_map(|b| read_positions(*b)).collect();
        ok(sinew_world_destroy(world));
        all
    };
    let reference = run(SinewKernel::SINEW_KERNEL_SCALAR as u32, 1);
    assert!(reference.iter().all(|p| p.x.is_finite() && p.y.is_finite() && p.z.is_finite()));
    for (kernel, threads) in [(SinewKernel::SINEW_KERNEL_SSE2 as u32, 1), (SinewKernel::SINEW_KERNEL_AUTO as u32, 1), (SinewKernel::SINEW_KERNEL_AUTO as u32, 2), (SinewKernel::SINEW_KERNEL_SCALAR as u32, 8)] {
        assert_eq!(run(kernel, threads), reference, "kernel {kernel}, {threads} threads");
    }
}

/// The largest distance between corresponding points of two runs' shapes, over every frame (m).
fn worst_apart(near: &[Vec<[f64; 3]>], far: &[Vec<[f64; 3]>]) -> f64 {
    let mut worst = 0.0f64;
    for (a, b) in near.iter().zip(far) {
        for (p, q) in a.iter().zip(b) {
            worst = worst.max(((p[0] - q[0]).powi(2) + (p[1] - q[1]).powi(2) + (p[2] - q[2]).powi(2)).sqrt());
        }
    }
    worst
}

