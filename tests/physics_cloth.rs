//! Physics checks against analytic answers and invariants (docs/validation.md), through
//! the C ABI.

mod common;
use common::*;

fn still_world(substeps: u32, iterations: u32) -> SinewWorld {
    let mut wd = world_desc();
    wd.substeps = substeps;
    wd.iterations = iterations;
    wd.interpolate = 0;
    wd.thread_count = 1;
    create_world(&wd)
}

/// Symplectic Euler free fall: after N substeps of h from rest, y = −g·h²·N(N+1)/2, which is
/// ½gt² + ½g·h·t exactly (docs/validation.md: "off from ½gt² by exactly g·h·t/2").
#[test]
fn free_fall_matches_symplectic_euler() {
    let world = still_world(4, 1);
    let pts = [v3(0.0, 0.0, 0.0), v3(0.5, 0.0, 0.0)];
    let mut rd = rope_desc();
    rd.points = pts.as_ptr();
    rd.point_count = 2;
    rd.bend = 0;
    rd.material.damping = 0.0;
    let rope = create_rope(world, &rd);
    let frames = 30;
    for _ in 0..frames {
        ok(sinew_world_step(world, 1.0 / 60.0));
    }
    let p = read_positions(rope);
    let h = 1.0f64 / 60.0 / 4.0;
    let n = (frames * 4) as f64;
    let t = n * h;
    let expected = -(0.5 * 9.81 * t * t + 0.5 * 9.81 * h * t);
    for q in &p {
        assert!((q.y as f64 - expected).abs() < 2e-4, "y {} expected {expected}", q.y);
    }
    assert!((dist(p[0], p[1]) - 0.5).abs() < 1e-5);
    ok(sinew_world_destroy(world));
}

/// Without gravity a moving body keeps its velocity: teleport-free check via a rope given
/// velocity by a pin path, released, then coasting.
#[test]
fn without_gravity_a_released_body_coasts() {
    let mut wd = world_desc();
    wd.gravity = v3(0.0, 0.0, 0.0);
    wd.substeps = 2;
    wd.iterations = 2;
    wd.interpolate = 0;
    let world = create_world(&wd);
    let pts = [v3(0.0, 0.0, 0.0), v3(0.5, 0.0, 0.0)];
    let mut rd = rope_desc();
    rd.points = pts.as_ptr();
    rd.point_count = 2;
    rd.bend = 0;
    rd.material.damping = 0.0;
    let rope = create_rope(world, &rd);
    // Drive both particles at 1 m/s along +Z for one frame, then release them.
    let idx = [0u32, 1];
    let dz = 1.0 / 60.0;
    let targets = [v3(0.0, 0.0, dz), v3(0.5, 0.0, dz)];
    ok(sinew_body_set_pin_targets(rope, idx.as_ptr(), 2, targets.as_ptr(), 2));
    ok(sinew_world_step(world, 1.0 / 60.0));
    ok(sinew_body_unpin(rope, idx.as_ptr(), 2));
    let before = read_positions(rope);
    for _ in 0..60 {
        ok(sinew_world_step(world, 1.0 / 60.0));
    }
    let after = read_positions(rope);
    for (a, b) in before.iter().zip(&after) {
        assert!((b.z - a.z - 1.0).abs() < 1e-4, "moved {} in 1 s, expected 1 m", b.z - a.z);
        assert!((b.x - a.x).abs() < 1e-6 && (b.y - a.y).abs() < 1e-6);
    }
    ok(sinew_world_destroy(world));
}

/// XPBD with compliance α = 1/k is implicit Euler for a spring, step for step, whatever the
/// iteration count (docs/validation.md, after Jolt's DistanceConstraintTests).
#[test]
fn compliant_distance_constraint_is_implicit_euler() {
    for iterations in [1u32, 4] {
        let mut wd = world_desc();
        wd.gravity = v3(0.0, 0.0, 0.0);
        wd.substeps = 1;
        wd.iterations = iterations;
        wd.interpolate = 0;
        let world = create_world(&wd);
        let (m, k, rest) = (0.5f64, 200.0f64, 1.0f64);
        let x0 = 0.2f64;
        let pts = [v3(0.0, 0.0, 0.0), v3((rest + x0) as f32, 0.0, 0.0)];
        let pins = [0u32];
        let mut rd = rope_desc();
        rd.points = pts.as_ptr();
        rd.point_count = 2;
        rd.pin_indices = pins.as_ptr();
        rd.pin_count = 1;
        rd.bend = 0;
        rd.material.damping = 0.0;
        rd.material.particle_mass = m as f32;
        rd.material.stretch_compliance = (1.0 / k) as f32;
        let rope = create_rope(world, &rd);
        // The rest length is the initial distance. Drag the free particle 5 cm outwards with
        // a pin for one frame, then release it: x = 0.05 beyond rest, v = 0.05/h.
        let h = 1.0f64 / 60.0;
        let idx = [1u32];
        let target = [v3((rest + x0) as f32 + 0.05, 0.0, 0.0)];
        ok(sinew_body_set_pin_targets(rope, idx.as_ptr(), 1, target.as_ptr(), 1));
        ok(sinew_world_step(world, h as f32));
        ok(sinew_body_unpin(rope, idx.as_ptr(), 1));
        let mut x = 0.05f64;
        let mut v = 0.05 / h;
        let rest_len = rest + x0;
        for step in 0..120 {
            ok(sinew_world_step(world, h as f32));
            v = (v - h * k / m * x) / (1.0 + h * h * k / m);
            x += h * v;
            let p = read_positions(rope);
            let got = p[1].x as f64 - rest_len;
            assert!((got - x).abs() < 1e-4, "iterations {iterations}, step {step}: x {got} vs implicit Euler {x}");
        }
        ok(sinew_world_destroy(world));
    }
}

/// Chain settled stretch with n substeps × 1 iteration vs 1 substep × n iterations at equal
/// cost: small steps stretch less (Macklin et al. 2019).
#[test]
fn substeps_beat_iterations_at_equal_cost() {
    let stretch_for = |substeps: u32, iterations: u32| {
        let world = still_world(substeps, iterations);
        let pts: Vec<SinewVec3> = (0..30).map(|i| v3(i as f32 * 0.1, 0.0, 0.0)).collect();
        let pins = [0u32];
        let mut rd = rope_desc();
        rd.points = pts.as_ptr();
        rd.point_count = pts.len();
        rd.pin_indices = pins.as_ptr();
        rd.pin_count = 1;
        rd.bend = 0;
        let rope = create_rope(world, &rd);
        for _ in 0..120 {
            ok(sinew_world_step(world, 1.0 / 60.0));
        }
        let mut s = 0.0;
        ok(sinew_body_get_max_stretch(rope, &mut s));
        ok(sinew_world_destroy(world));
        s
    };
    let small_steps = stretch_for(8, 1);
    let iterations = stretch_for(1, 8);
    assert!(small_steps < iterations, "8x1 stretch {small_steps} should be below 1x8 stretch {iterations}");
}

fn hanging_cloth(dt: f32, seconds: f32) -> Vec<SinewVec3> {
    let mut wd = world_desc();
    wd.substeps = 4;
    wd.iterations = 2;
    wd.interpolate = 1;
    let world = create_world(&wd);
    let mut gd = grid_desc();
    gd.columns = 12;
    gd.rows = 12;
    gd.spacing = 0.05;
    let cloth = create_grid(world, &gd);
    let frames = (seconds / dt).round() as usize;
    for _ in 0..frames {
        ok(sinew_world_step(world, dt));
    }
    let p = read_positions(cloth);
    ok(sinew_world_destroy(world));
    p
}

/// Host frames of 1/30 and 1/60 s run the same fixed steps, bit for bit; with 1/144 s frames
/// the world interpolates between the same steps, and at t = 2 s all three agree.
#[test]
fn host_frame_rate_does_not_change_the_motion() {
    let a = hanging_cloth(1.0 / 60.0, 2.0);
    let b = hanging_cloth(1.0 / 30.0, 2.0);
    let c = hanging_cloth(1.0 / 144.0, 2.0);
    assert_eq!(a, b, "1/30 s frames must run exactly the 1/60 s steps");
    let worst = a.iter().zip(&c).map(|(p, q)| dist(*p, *q)).fold(0.0f32, f32::max);
    assert!(worst < 1e-3, "1/144 s frames differ by {worst} m at t = 2 s");
}

/// Area-weighted normals of a flat grid are the plane's normal.
#[test]
fn flat_grid_normals_point_up() {
    let world = still_world(1, 1);
    let mut gd = grid_desc();
    gd.columns = 5;
    gd.rows = 4;
    let cloth = create_grid(world, &gd);
    let mut n = vec![SinewVec3::default(); 20];
    ok(sinew_body_read_normals(cloth, n.as_mut_ptr(), n.len()));
    for v in n {
        assert!((v.y - 1.0).abs() < 1e-6 && v.x.abs() < 1e-6 && v.z.abs() < 1e-6, "{v:?}");
    }
    ok(sinew_world_destroy(world));
}

/// A pinned row dragged sideways at 10 m/s: no particle moves faster than the pins plus
/// what gravity adds in a frame (the chapter's section 8 warning about spikes).
#[test]
fn moving_pins_create_no_velocity_spike() {
    let world = still_world(4, 2);
    let mut gd = grid_desc();
    gd.columns = 10;
    gd.rows = 10;
    gd.spacing = 0.05;
    let cloth = create_grid(world, &gd);
    for _ in 0..60 {
        ok(sinew_world_step(world, 1.0 / 60.0));
    }
    let idx: Vec<u32> = (0..10).collect();
    let mut targets: Vec<SinewVec3> = read_positions(cloth)[..10].to_vec();
    let dt = 1.0f32 / 60.0;
    let speed = 10.0f32;
    let mut prev = read_positions(cloth);
    for frame in 0..30 {
        for t in targets.iter_mut() {
            t.x += speed * dt;
        }
        ok(sinew_body_set_pin_targets(cloth, idx.as_ptr(), idx.len(), targets.as_ptr(), targets.len()));
        ok(sinew_world_step(world, dt));
        let now = read_positions(cloth);
        // In the frame the motion starts, nothing may outrun the pins by more than gravity
        // adds. (Later frames are not bounded by the pin speed: a jerked cloth whips.)
        if frame == 0 {
            for (i, (a, b)) in prev.iter().zip(&now).enumerate() {
                let v = dist(*a, *b) / dt;
                assert!(v <= speed + 9.81 * dt + 1e-3, "particle {i} moved at {v} m/s with pins at {speed} m/s");
            }
        }
        for k in 0..10 {
            assert!(dist(now[k], targets[k]) < 1e-6, "pin {k} is not on its target");
        }
        prev = now;
    }
    ok(sinew_world_destroy(world));
}

/// Teleport by 100 m and a quarter turn: the shape moves rigidly and the velocities come
/// along (rotated), so the next frame's motion is the rotated motion, with no spike.
#[test]
fn teleport_moves_rigidly_and_keeps_velocity() {
    let world = still_world(4, 2);
    let mut gd = grid_desc();
    gd.columns = 8;
    gd.rows = 8;
    let cloth = create_grid(world, &gd);
    for _ in 0..20 {
        ok(sinew_world_step(world, 1.0 / 60.0));
    }
    let before = read_positions(cloth);
    // Rotation of 90° about Y, then translation (100, 0, 0); column-major.
    let m = SinewMat4 { m: [0.0, 0.0, -1.0, 0.0, 0.0, 1.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 100.0, 0.0, 0.0, 1.0] };
    let apply = |p: SinewVec3| v3(p.z + 100.0, p.y, -p.x);
    ok(sinew_body_teleport(cloth, &m));
    let moved = read_positions(cloth);
    for (a, b) in before.iter().zip(&moved) {
        assert!(dist(apply(*a), *b) < 1e-4);
    }
    // Reference: the same cloth not teleported, stepped once; its motion rotated must equal
    // the teleported cloth's motion.
    let world2 = still_world(4, 2);
    let cloth2 = create_grid(world2, &gd);
    for _ in 0..21 {
        ok(sinew_world_step(world2, 1.0 / 60.0));
    }
    ok(sinew_world_step(world, 1.0 / 60.0));
    let after = read_positions(cloth);
    let reference = read_positions(cloth2);
    for (a, b) in reference.iter().zip(&after) {
        // Gravity does not rotate with the body, but this turn is about Y, so it commutes.
        assert!(dist(apply(*a), *b) < 1e-3, "{:?} vs {:?}", apply(*a), b);
    }
    ok(sinew_world_destroy(world));
    ok(sinew_world_destroy(world2));
}

/// A render mesh split at a UV seam: welded into shared particles, read back in the host's
/// count and order, seam duplicates identical.
#[test]
fn mesh_seams_are_welded_and_read_back_in_host_order() {
    let world = still_world(4, 2);
    // Two quads side by side; the middle edge's vertices are duplicated (a UV seam).
    let pos = [
        v3(0.0, 0.0, 0.0), v3(0.5, 0.0, 0.0), v3(0.0, 0.0, 0.5), v3(0.5, 0.0, 0.5), // left quad
        v3(0.5, 0.0, 0.0), v3(1.0, 0.0, 0.0), v3(0.5, 0.0, 0.5), v3(1.0, 0.0, 0.5), // right quad
    ];
    let idx = [0u32, 2, 1, 1, 2, 3, 4, 6, 5, 5, 6, 7];
    let inv = [0.0f32, 100.0, 100.0, 100.0, 100.0, 0.0, 100.0, 100.0];
    let mut md = mesh_desc();
    md.positions = pos.as_ptr();
    md.vertex_count = pos.len();
    md.indices = idx.as_ptr();
    md.index_count = idx.len();
    md.inverse_masses = inv.as_ptr();
    md.inverse_mass_count = inv.len();
    let mut body = SinewBody::default();
    ok(sinew_cloth_create_mesh(world, &md, &mut body));
    let mut info = SinewBodyInfo::default();
    ok(sinew_body_get_info(body, &mut info));
    assert_eq!((info.particle_count, info.vertex_count, info.pinned_count), (6, 8, 2));
    for _ in 0..60 {
        ok(sinew_world_step(world, 1.0 / 60.0));
    }
    let p = read_positions(body);
    assert_eq!(p.len(), 8);
    assert_eq!(p[1], p[4]);
    assert_eq!(p[3], p[6]);
    assert_eq!(p[0], pos[0]);
    assert_eq!(p[5], pos[5]);
    assert!(p[3].y < -0.05, "free corner should have fallen: {:?}", p[3]);
    ok(sinew_world_destroy(world));
}
