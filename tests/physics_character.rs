//! Character cloth against its promises: skinned pins without spikes, tethers that never
//! stretch, teleports without jumps, run-time scale, wind, LOD freeze and resume, tearing,
//! pose limits, inertia, generators and hair.

mod common;
use common::*;

fn world(substeps: u32, iterations: u32) -> SinewWorld {
    let mut wd = world_desc();
    wd.substeps = substeps;
    wd.iterations = iterations;
    wd.interpolate = 0;
    wd.thread_count = 1;
    create_world(&wd)
}

/// A 12 × 12 grid hanging in the XY plane below y = 0, top row pinned.
fn hanging_grid(w: SinewWorld, columns: u32, rows: u32, spacing: f32) -> SinewBody {
    let mut gd = grid_desc();
    gd.columns = columns;
    gd.rows = rows;
    gd.spacing = spacing;
    let a = std::f32::consts::FRAC_PI_4; // +90° about X: rows run down −Y
    gd.orientation = SinewQuat { x: a.sin(), y: 0.0, z: 0.0, w: a.cos() };
    gd.origin = v3(0.0, -((rows - 1) as f32) * spacing * 0.5, 0.0);
    create_grid(w, &gd)
}

fn max_step(a: &[SinewVec3], b: &[SinewVec3]) -> f32 {
    a.iter().zip(b).map(|(p, q)| dist(*p, *q)).fold(0.0, f32::max)
}

#[test]
fn skinned_pins_follow_a_fast_bone_without_a_spike() {
    let w = world(8, 1);
    let cloth = hanging_grid(w, 12, 12, 0.05);
    skin_to_one_bone(cloth);
    let mut bone = translation(0.0, 0.0, 0.0);
    ok(sinew_body_set_bone_matrices(cloth, &bone, 1));
    for _ in 0..60 {
        ok(sinew_body_set_bone_matrices(cloth, &bone, 1));
        ok(sinew_world_step(w, 1.0 / 60.0));
    }
    let dt = 1.0f32 / 60.0;
    let speed = 10.0f32;
    let before = read_positions(cloth);
    bone.m[12] += speed * dt;
    ok(sinew_body_set_bone_matrices(cloth, &bone, 1));
    ok(sinew_world_step(w, dt));
    let after = read_positions(cloth);
    let fastest = max_step(&before, &after) / dt;
    assert!(fastest <= speed + 9.81 * dt + 1e-3, "a particle moved at {fastest} m/s behind a bone at {speed} m/s");
    for c in 0..12 {
        assert!((after[c].x - before[c].x - speed * dt).abs() < 1e-5, "pin {c} did not follow the bone");
    }
    ok(sinew_world_destroy(w));
}

#[test]
fn tethers_hold_every_particle_within_reach_at_one_iteration() {
    let run = |tethered: bool| {
        let w = world(1, 1);
        let (cols, rows, s) = (16u32, 24u32, 0.04f32);
        let cloth = hanging_grid(w, cols, rows, s);
        let mut g = grid_desc().material;
        g.particle_mass = 0.05;
        ok(sinew_body_set_material(cloth, &g));
        let scale = 1.0f32;
        if tethered {
            ok(sinew_body_set_tethers(cloth, SinewTetherMode::SINEW_TETHER_EUCLIDEAN as u32, scale));
        }
        let mut worst = 0.0f32;
        for _ in 0..120 {
            ok(sinew_world_step(w, 1.0 / 60.0));
            let p = read_positions(cloth);
            for r in 1..rows as usize {
                for c in 0..cols as usize {
                    // The nearest pinned particle at rest is the top of the same column.
                    let reach = r as f32 * s * scale;
                    worst = worst.max(dist(p[r * cols as usize + c], p[c]) - reach);
                }
            }
        }
        ok(sinew_world_destroy(w));
        worst
    };
    let with = run(true);
    assert!(with <= 1e-5, "a tethered particle got {with} m beyond its reach");
    let without = run(false);
    assert!(without > 0.01, "at one iteration an untethered cloth should stretch ({without} m): the test would be vacuous");
}

/// Runs a skinned cloth on a root walking at 1 m/s; in frame `jump` the root moves 100 m
/// (auto teleport) or the host teleports it (explicit). Returns the largest motion relative
/// to the root in the frame before and in the jump frame, and the largest speed after.
fn teleport_run(explicit: bool) -> (f32, f32) {
    let w = world(8, 1);
    let cloth = hanging_grid(w, 10, 10, 0.05);
    skin_to_one_bone(cloth);
    let mut d = dynamics();
    d.teleport_distance = if explicit { 0.0 } else { 5.0 };
    ok(sinew_body_set_dynamics(cloth, &d));
    let mut root = v3(0.0, 0.0, 0.0);
    let mut prev_rel: Option<Vec<SinewVec3>> = None;
    let (mut before, mut during) = (0.0, 0.0);
    for frame in 0..120 {
        let jump = frame == 90;
        root.x += 1.0 / 60.0;
        if jump {
            root.x += 100.0;
        }
        let m = translation(root.x, root.y, root.z);
        if explicit && jump {
            ok(sinew_body_teleport(cloth, &translation(100.0, 0.0, 0.0)));
        }
        ok(sinew_body_set_root_transform(cloth, &m));
        ok(sinew_body_set_bone_matrices(cloth, &m, 1));
        ok(sinew_world_step(w, 1.0 / 60.0));
        let rel: Vec<SinewVec3> = read_positions(cloth).iter().map(|p| v3(p.x - root.x, p.y - root.y, p.z - root.z)).collect();
        if let Some(prev) = &prev_rel {
            let moved = max_step(prev, &rel);
            if frame == 89 {
                before = moved;
            }
            if jump {
                during = moved;
            }
        }
        prev_rel = Some(rel);
    }
    ok(sinew_world_destroy(w));
    (before, during)
}

#[test]
fn teleporting_100_m_moves_nothing_relative_to_the_root() {
    for explicit in [false, true] {
        let (before, during) = teleport_run(explicit);
        assert!(
            during <= before * 1.1 + 1e-4,
            "explicit {explicit}: relative motion {during} m in the teleport frame vs {before} m the frame before"
        );
    }
}

#[test]
fn a_character_scaled_twice_hangs_the_same_shape_twice_as_big() {
    // A chain slung between two hands (a catenary): its shape is pure geometry, and the
    // chain is pinned through skinning to a root that is scaled at run time.
    let settle = |s: f32| {
        let w = world(8, 4);
        let pts: Vec<SinewVec3> = (0..21).map(|i| v3(-0.5 + i as f32 * 0.05, 0.0, 0.0)).collect();
        let pins = [0u32, 20];
        let mut rd = rope_desc();
        rd.points = pts.as_ptr();
        rd.point_count = pts.len();
        rd.pin_indices = pins.as_ptr();
        rd.pin_count = 2;
        rd.bend = 0;
        rd.material.damping = 2.0;
        let rope = create_rope(w, &rd);
        skin_to_one_bone(rope);
        let m1 = scale_translation(1.0, v3(0.0, 0.0, 0.0));
        ok(sinew_body_set_root_transform(rope, &m1));
        ok(sinew_body_set_bone_matrices(rope, &m1, 1));
        // The hands come together to 0.8 of the chain's length, then the character scales.
        for f in 0..360 {
            let pull = (f as f32 / 60.0).min(1.0) * 0.1;
            let k = if f < 90 { 1.0 } else { s };
            let hands = [v3(-0.5 + pull, 0.0, 0.0), v3(0.5 - pull, 0.0, 0.0)].map(|p| v3(p.x * k, p.y * k, p.z * k));
            let m = scale_translation(k, v3(0.0, 0.0, 0.0));
            ok(sinew_body_set_root_transform(rope, &m));
            ok(sinew_body_set_pin_targets(rope, pins.as_ptr(), 2, hands.as_ptr(), 2));
            ok(sinew_world_step(w, 1.0 / 60.0));
        }
        let p = read_positions(rope);
        ok(sinew_world_destroy(w));
        p
    };
    let one = settle(1.0);
    let two = settle(2.0);
    let size = 2.0 * 1.0;
    let worst = one.iter().zip(&two).map(|(a, b)| dist(v3(a.x * 2.0, a.y * 2.0, a.z * 2.0), *b)).fold(0.0f32, f32::max);
    assert!(worst <= 0.01 * size, "2x shape differs from the 1x shape scaled by {worst} m (1% of size is {})", 0.01 * size);
    let sag = one.iter().map(|p| p.y).fold(f32::INFINITY, f32::min);
    assert!(sag < -0.2, "the chain should sag ({sag})");
}

fn mean_deflection(speed: f32) -> (f32, f32) {
    let w = world(8, 1);
    let cloth = hanging_grid(w, 10, 10, 0.05);
    let mut wd = wind();
    wd.direction = v3(0.0, 0.0, 1.0);
    wd.speed = speed;
    ok(sinew_world_set_wind(w, &wd));
    let rest = read_positions(cloth);
    for _ in 0..180 {
        ok(sinew_world_step(w, 1.0 / 60.0));
    }
    // Average over a second: turbulence makes it move.
    let (mut z, mut x) = (0.0f32, 0.0f32);
    for _ in 0..60 {
        ok(sinew_world_step(w, 1.0 / 60.0));
        let p = read_positions(cloth);
        z += p.iter().zip(&rest).map(|(a, b)| a.z - b.z).sum::<f32>() / p.len() as f32;
        x += p.iter().zip(&rest).map(|(a, b)| (a.x - b.x).abs()).sum::<f32>() / p.len() as f32;
    }
    ok(sinew_world_destroy(w));
    (z / 60.0, x / 60.0)
}

#[test]
fn wind_deflects_downwind_more_with_speed_and_calm_air_not_at_all() {
    let (calm, _) = mean_deflection(0.0);
    assert!(calm.abs() < 1e-6, "calm air moved the cloth downwind by {calm} m");
    let mut last = 0.0;
    for speed in [2.0f32, 5.0, 10.0] {
        let (z, _) = mean_deflection(speed);
        assert!(z > last, "wind {speed} m/s: mean deflection {z} m, not more than {last} m");
        last = z;
    }
}

#[test]
fn a_frozen_body_keeps_its_pose_and_resumes_without_a_jump() {
    let w = world(8, 1);
    let cloth = hanging_grid(w, 10, 10, 0.05);
    // Swing it: push the pins sideways for a while.
    let idx: Vec<u32> = (0..10).collect();
    let mut top: Vec<SinewVec3> = read_positions(cloth)[..10].to_vec();
    for f in 0..40 {
        for t in top.iter_mut() {
            t.x += if f < 20 { 0.01 } else { 0.0 };
        }
        ok(sinew_body_set_pin_targets(cloth, idx.as_ptr(), 10, top.as_ptr(), 10));
        ok(sinew_world_step(w, 1.0 / 60.0));
    }
    let a = read_positions(cloth);
    ok(sinew_world_step(w, 1.0 / 60.0));
    let b = read_positions(cloth);
    let last_motion = max_step(&a, &b);
    assert!(last_motion > 1e-3, "the cloth should still swing");
    ok(sinew_body_set_visible(cloth, 0));
    for _ in 0..30 {
        ok(sinew_world_step(w, 1.0 / 60.0));
        assert_eq!(body_info(cloth).frozen, 1);
    }
    let held = read_positions(cloth);
    assert_eq!(held, b, "a frozen body keeps its pose");
    ok(sinew_body_set_visible(cloth, 1));
    ok(sinew_world_step(w, 1.0 / 60.0));
    let resumed = read_positions(cloth);
    let jump = max_step(&held, &resumed);
    assert!(jump <= last_motion + 1e-4, "resuming moved a particle {jump} m, more than a frame's motion {last_motion} m");
    assert_eq!(body_info(cloth).frozen, 0);
    ok(sinew_world_destroy(w));
}

#[test]
fn lod_reduces_substeps_and_freezes_by_camera_distance() {
    let w = world(8, 1);
    let cloth = hanging_grid(w, 6, 6, 0.05);
    let mut l = lod();
    l.reduce_distance = 10.0;
    l.reduced_substeps = 2;
    l.freeze_distance = 50.0;
    ok(sinew_body_set_lod(cloth, &l));
    for (camera, substeps, frozen) in [(1.0, 8, 0), (20.0, 2, 0), (100.0, 2, 1)] {
        ok(sinew_world_set_camera(w, v3(0.0, 0.0, camera)));
        ok(sinew_world_step(w, 1.0 / 60.0));
        let i = body_info(cloth);
        assert_eq!(i.frozen, frozen, "camera at {camera} m");
        if frozen == 0 {
            assert_eq!(i.substeps, substeps, "camera at {camera} m");
        }
    }
    ok(sinew_world_destroy(w));
}

#[test]
fn pulled_apart_a_cloth_tears_at_its_threshold_with_valid_indices() {
    let w = world(8, 1);
    let (cols, rows) = (10u32, 6u32);
    let mut gd = grid_desc();
    gd.columns = cols;
    gd.rows = rows;
    gd.spacing = 0.05;
    gd.pin_mode = SinewPinMode::SINEW_PIN_NONE as u32;
    gd.material.stretch_compliance = 1e-3;
    gd.material.shear_compliance = 1e-3;
    gd.material.bend_compliance = 1e-2;
    let cloth = create_grid(w, &gd);
    let left: Vec<u32> = (0..rows).map(|r| r * cols).collect();
    let right: Vec<u32> = (0..rows).map(|r| r * cols + cols - 1).collect();
    let start = read_positions(cloth);
    let threshold = 0.3f32;
    let mut d = dynamics();
    d.tear_threshold = threshold;
    ok(sinew_body_set_dynamics(cloth, &d));
    let mut first_tear = None;
    let mut stretch_before = 0.0f32;
    for f in 0..240 {
        let pull = f as f32 * 0.005;
        let lt: Vec<SinewVec3> = left.iter().map(|&i| v3(start[i as usize].x - pull, start[i as usize].y, start[i as usize].z)).collect();
        let rt: Vec<SinewVec3> = right.iter().map(|&i| v3(start[i as usize].x + pull, start[i as usize].y, start[i as usize].z)).collect();
        ok(sinew_body_set_pin_targets(cloth, left.as_ptr(), left.len(), lt.as_ptr(), lt.len()));
        ok(sinew_body_set_pin_targets(cloth, right.as_ptr(), right.len(), rt.as_ptr(), rt.len()));
        let mut s = 0.0;
        ok(sinew_body_get_max_stretch(cloth, &mut s));
        ok(sinew_world_step(w, 1.0 / 60.0));
        let info = body_info(cloth);
        if first_tear.is_none() && info.topology_version > 0 {
            first_tear = Some(f);
            stretch_before = s;
        }
        // Indices stay valid and positions finite, every frame.
        let mut n_idx = 0usize;
        ok(sinew_body_get_index_count(cloth, &mut n_idx));
        let mut idx = vec![0u32; n_idx];
        ok(sinew_body_read_indices(cloth, idx.as_mut_ptr(), n_idx));
        let p = read_positions(cloth);
        assert!(idx.iter().all(|&i| (i as usize) < p.len()), "dangling index at frame {f}");
        assert!(p.iter().all(|q| q.x.is_finite() && q.y.is_finite() && q.z.is_finite()), "NaN at frame {f}");
    }
    let f = first_tear.expect("the cloth never tore");
    assert!(stretch_before <= threshold + 0.05, "it tore only after the strain reached {stretch_before}");
    assert!(f > 0, "it tore before it was pulled");
    let info = body_info(cloth);
    assert!(info.vertex_count > cols * rows, "tearing duplicates vertices");
    // Torn in two: the halves follow their pins, 2.4 m apart, and nothing is strained far.
    let p = read_positions(cloth);
    assert!(dist(p[0], p[(cols - 1) as usize]) > 1.5);
    let mut s = 0.0;
    ok(sinew_body_get_max_stretch(cloth, &mut s));
    assert!(s < 1.0, "pieces should not stay stretched ({s})");
    ok(sinew_world_destroy(w));
}

#[test]
fn a_rope_pulled_past_its_threshold_snaps_in_two() {
    let w = world(8, 1);
    let pts: Vec<SinewVec3> = (0..11).map(|i| v3(i as f32 * 0.1, 0.0, 0.0)).collect();
    let pins = [0u32, 10];
    let mut rd = rope_desc();
    rd.points = pts.as_ptr();
    rd.point_count = pts.len();
    rd.pin_indices = pins.as_ptr();
    rd.pin_count = 2;
    rd.material.stretch_compliance = 1e-3;
    let rope = create_rope(w, &rd);
    let mut d = dynamics();
    d.tear_threshold = 0.5;
    ok(sinew_body_set_dynamics(rope, &d));
    for f in 0..120 {
        let end = [v3(1.0 + f as f32 * 0.02, 0.0, 0.0)];
        ok(sinew_body_set_pin_targets(rope, &pins[1], 1, end.as_ptr(), 1));
        ok(sinew_world_step(w, 1.0 / 60.0));
    }
    assert!(body_info(rope).topology_version > 0, "the rope never snapped");
    let p = read_positions(rope);
    // Two pieces hanging from their pins: both ends low, the gap wider than any link.
    let gap = p.windows(2).map(|q| dist(q[0], q[1])).fold(0.0f32, f32::max);
    assert!(gap > 0.5, "no gap between the pieces ({gap} m)");
    let mut s = 0.0;
    ok(sinew_body_get_max_stretch(rope, &mut s));
    assert!(s < 0.5, "remaining links stretched by {s}");
    ok(sinew_world_destroy(w));
}

#[test]
fn max_distance_and_backstop_bound_particles_around_the_skinned_pose() {
    let w = world(8, 1);
    let mut gd = grid_desc();
    gd.columns = 8;
    gd.rows = 8;
    gd.spacing = 0.05;
    gd.pin_mode = SinewPinMode::SINEW_PIN_NONE as u32;
    let cloth = create_grid(w, &gd);
    skin_to_one_bone(cloth);
    let bone = translation(0.0, 0.0, 0.0);
    ok(sinew_body_set_bone_matrices(cloth, &bone, 1));
    let skinned = read_positions(cloth);
    let max = vec![0.05f32; 64];
    ok(sinew_body_set_max_distances(cloth, max.as_ptr(), 64));
    // Backstop: a 1 m sphere whose top is 1 cm below each particle's skinned spot.
    let (off, rad) = (vec![0.01f32; 64], vec![1.0f32; 64]);
    ok(sinew_body_set_backstops(cloth, off.as_ptr(), 64, rad.as_ptr(), 64));
    for _ in 0..60 {
        ok(sinew_body_set_bone_matrices(cloth, &bone, 1));
        ok(sinew_world_step(w, 1.0 / 60.0));
        for (p, s) in read_positions(cloth).iter().zip(&skinned) {
            assert!(dist(*p, *s) <= 0.05 + 1e-5, "{} m from the skinned pose", dist(*p, *s));
            // The flat grid's skinned normal is +Y; the sphere centre is 1.01 m below.
            assert!(dist(*p, v3(s.x, s.y - 1.01, s.z)) >= 1.0 - 1e-5, "inside the backstop");
        }
    }
    let low = read_positions(cloth).iter().map(|p| p.y).fold(f32::INFINITY, f32::min);
    assert!(low < -0.009, "gravity should pull it down to the backstop ({low})");
    ok(sinew_world_destroy(w));
}

#[test]
fn world_velocity_scale_zero_carries_the_cloth_with_its_root() {
    let run = |wvs: f32, max_speed: f32| {
        let w = world(8, 1);
        let cloth = hanging_grid(w, 8, 8, 0.05);
        let mut d = dynamics();
        d.world_velocity_scale = wvs;
        d.max_speed = max_speed;
        ok(sinew_body_set_dynamics(cloth, &d));
        ok(sinew_body_set_root_transform(cloth, &translation(0.0, 0.0, 0.0)));
        for _ in 0..60 {
            ok(sinew_world_step(w, 1.0 / 60.0));
        }
        let before = read_positions(cloth);
        let idx: Vec<u32> = (0..8).collect();
        let mut fastest = 0.0f32;
        let mut prev = before.clone();
        for f in 1..=30 {
            let z = f as f32 * 0.1; // the root runs at 6 m/s along +Z, across the cloth
            ok(sinew_body_set_root_transform(cloth, &translation(0.0, 0.0, z)));
            let t: Vec<SinewVec3> = before[..8].iter().map(|p| v3(p.x, p.y, p.z + z)).collect();
            ok(sinew_body_set_pin_targets(cloth, idx.as_ptr(), 8, t.as_ptr(), 8));
            ok(sinew_world_step(w, 1.0 / 60.0));
            let now = read_positions(cloth);
            // Speed relative to the root, which moves at (0, 0, 6) m/s.
            let relative = |a: &SinewVec3, b: &SinewVec3| dist(v3((a.x - b.x) * 60.0, (a.y - b.y) * 60.0, (a.z - b.z) * 60.0 - 6.0), v3(0.0, 0.0, 0.0));
            fastest = fastest.max(now.iter().zip(&prev).skip(8).map(|(a, b)| relative(a, b)).fold(0.0, f32::max));
            prev = now;
        }
        let after = read_positions(cloth);
        ok(sinew_world_destroy(w));
        let lag = before.iter().zip(&after).map(|(a, b)| dist(v3(a.x, a.y, a.z + 3.0), *b)).fold(0.0f32, f32::max);
        (lag, fastest)
    };
    let (carried, _) = run(0.0, 0.0);
    assert!(carried < 1e-3, "with world_velocity_scale 0 the cloth should move rigidly with the root (lag {carried} m)");
    let (free, fastest) = run(1.0, 0.0);
    assert!(free > 0.05, "with world_velocity_scale 1 the cloth should lag ({free} m)");
    assert!(fastest > 3.0, "without a limit the cloth moves fast relative to the root ({fastest} m/s)");
    let (_, limited) = run(1.0, 2.0);
    // The limit caps velocities each substep; what the readback shows per frame also holds the
    // pins' pull through the constraints, so allow half the limit on top.
    assert!(limited < 3.0 && fastest > 6.0, "max_speed 2 m/s: relative speed {limited} m/s vs {fastest} m/s unlimited");
}

#[test]
fn cape_and_skirt_hang_from_their_bones_at_their_length() {
    let w = world(2, 1);
    let mut cd = std::mem::MaybeUninit::uninit();
    ok(sinew_cloth_cape_desc_default(cd.as_mut_ptr()));
    let mut cd = unsafe { cd.assume_init() };
    cd.left_shoulder = translation(-0.2, 1.5, 0.0);
    cd.neck = translation(0.0, 1.6, 0.0);
    cd.right_shoulder = translation(0.2, 1.5, 0.0);
    let mut cape = SinewBody::default();
    ok(sinew_cloth_create_cape(w, &cd, &mut cape));
    let mut sd = std::mem::MaybeUninit::uninit();
    ok(sinew_cloth_skirt_desc_default(sd.as_mut_ptr()));
    let mut sd = unsafe { sd.assume_init() };
    sd.waist = translation(0.0, 1.0, 0.0);
    let mut skirt = SinewBody::default();
    ok(sinew_cloth_create_skirt(w, &sd, &mut skirt));
    for f in 0..120 {
        let x = f as f32 * 0.01;
        let bones = [translation(x - 0.2, 1.5, 0.0), translation(x, 1.6, 0.0), translation(x + 0.2, 1.5, 0.0)];
        ok(sinew_body_set_bone_matrices(cape, bones.as_ptr(), 3));
        ok(sinew_body_set_bone_matrices(skirt, &translation(x, 1.0, 0.0), 1));
        ok(sinew_world_step(w, 1.0 / 60.0));
        // Tethers (on by default) hold the hems at their length even at 2 × 1 iterations.
        let cape_low = read_positions(cape).iter().map(|p| p.y).fold(f32::INFINITY, f32::min);
        let skirt_low = read_positions(skirt).iter().map(|p| p.y).fold(f32::INFINITY, f32::min);
        assert!(cape_low >= 1.5 - cd.length - 1e-3, "cape hem at {cape_low}");
        let slant = ((sd.radius_bottom - sd.radius_top).powi(2) + sd.length.powi(2)).sqrt();
        assert!(skirt_low >= 1.0 - slant - 1e-3, "skirt hem at {skirt_low}");
    }
    let top = read_positions(skirt)[0];
    assert!((top.x - (1.19 + sd.radius_top)).abs() < 1e-4 && (top.y - 1.0).abs() < 1e-4, "waist ring follows its bone: {top:?}");
    ok(sinew_world_destroy(w));
}

#[test]
fn a_curled_ponytail_keeps_its_shape_under_gravity() {
    let droop = |pose_stiffness: f32| {
        let w = world(8, 1);
        // Five strands arcing up and back from the head, like a tied ponytail.
        let mut pts = Vec::new();
        for s in 0..5 {
            for i in 0..12 {
                let a = i as f32 * 0.12;
                pts.push(v3(s as f32 * 0.01, 1.7 + 0.15 * a.sin(), -0.1 - 0.15 * (1.0 - a.cos()) - i as f32 * 0.005));
            }
        }
        let mut sd = std::mem::MaybeUninit::uninit();
        ok(sinew_strands_desc_default(sd.as_mut_ptr()));
        let mut sd = unsafe { sd.assume_init() };
        sd.mode = SinewStrandsMode::SINEW_STRANDS_POINTS as u32;
        sd.points = pts.as_ptr();
        sd.point_count = pts.len();
        sd.particles_per_strand = 12;
        let mut hair = SinewBody::default();
        ok(sinew_strands_create(w, &sd, &mut hair));
        let mut d = dynamics();
        ok(sinew_body_get_dynamics(hair, &mut d));
        d.pose_stiffness = pose_stiffness;
        ok(sinew_body_set_dynamics(hair, &d));
        for _ in 0..120 {
            ok(sinew_body_set_bone_matrices(hair, &translation(0.0, 0.0, 0.0), 1));
            ok(sinew_world_step(w, 1.0 / 60.0));
        }
        let p = read_positions(hair);
        ok(sinew_world_destroy(w));
        (0..5).map(|s| dist(p[s * 12 + 11], pts[s * 12 + 11])).fold(0.0f32, f32::max)
    };
    let held = droop(20.0);
    let limp = droop(0.0);
    assert!(held < 0.5 * limp, "with pose stiffness the tips moved {held} m, without {limp} m");
    assert!(held < 0.05, "the ponytail should hold its shape (tip moved {held} m)");
}

#[test]
fn bad_character_input_is_refused_and_leaves_the_body_unchanged() {
    let w = world(2, 1);
    let cloth = hanging_grid(w, 4, 4, 0.05);
    let before = read_positions(cloth);
    let short = [SinewBoneWeight { weight0: 1.0, ..Default::default() }; 3];
    assert_eq!(sinew_body_set_skinning(cloth, short.as_ptr(), 3, std::ptr::null(), 0, 1), SINEW_INVALID_ARGUMENT);
    let mut bad = vec![SinewBoneWeight { weight0: 1.0, ..Default::default() }; 16];
    bad[5].bone0 = 7;
    assert_eq!(sinew_body_set_skinning(cloth, bad.as_ptr(), 16, std::ptr::null(), 0, 2), SINEW_OUT_OF_RANGE);
    let m = [0.1f32; 16];
    assert_eq!(sinew_body_set_max_distances(cloth, m.as_ptr(), 16), SINEW_INVALID_ARGUMENT, "needs skinning");
    assert!(last_error().contains("skinning"));
    assert_eq!(sinew_body_set_bone_matrices(cloth, &translation(0.0, 0.0, 0.0), 1), SINEW_INVALID_ARGUMENT);
    skin_to_one_bone(cloth);
    let mut nan = translation(0.0, 0.0, 0.0);
    nan.m[3] = f32::NAN;
    assert_eq!(sinew_body_set_bone_matrices(cloth, &nan, 1), SINEW_NON_FINITE);
    let two = [translation(0.0, 0.0, 0.0); 2];
    assert_eq!(sinew_body_set_bone_matrices(cloth, two.as_ptr(), 2), SINEW_INVALID_ARGUMENT);
    assert_eq!(sinew_body_set_tethers(cloth, 9, 1.0), SINEW_INVALID_ARGUMENT);
    assert_eq!(sinew_body_set_tethers(cloth, SinewTetherMode::SINEW_TETHER_GEODESIC as u32, 0.5), SINEW_INVALID_ARGUMENT);
    assert_eq!(sinew_body_set_tethers(cloth, SinewTetherMode::SINEW_TETHER_GEODESIC as u32, f32::NAN), SINEW_NON_FINITE);
    let mut d = dynamics();
    d.world_velocity_scale = 2.0;
    assert_eq!(sinew_body_set_dynamics(cloth, &d), SINEW_INVALID_ARGUMENT);
    let mut d = dynamics();
    d.drag = f32::INFINITY;
    assert_eq!(sinew_body_set_dynamics(cloth, &d), SINEW_NON_FINITE);
    let mut l = lod();
    l.reduced_substeps = 0;
    assert_eq!(sinew_body_set_lod(cloth, &l), SINEW_INVALID_ARGUMENT);
    let mut wd = wind();
    wd.direction.x = f32::NAN;
    assert_eq!(sinew_world_set_wind(w, &wd), SINEW_NON_FINITE);
    let mut wd = wind();
    wd.speed = -1.0;
    assert_eq!(sinew_world_set_wind(w, &wd), SINEW_INVALID_ARGUMENT);
    assert_eq!(sinew_world_set_camera(w, v3(f32::INFINITY, 0.0, 0.0)), SINEW_NON_FINITE);
    let mut idx = [0u32; 4];
    assert_eq!(sinew_body_read_indices(cloth, idx.as_mut_ptr(), 4), SINEW_BUFFER_TOO_SMALL);
    let mut sd = std::mem::MaybeUninit::uninit();
    ok(sinew_strands_desc_default(sd.as_mut_ptr()));
    let mut sd = unsafe { sd.assume_init() };
    sd.particles_per_strand = 2;
    let roots = [v3(0.0, 0.0, 0.0)];
    sd.roots = roots.as_ptr();
    sd.directions = roots.as_ptr();
    sd.root_count = 1;
    sd.direction_count = 1;
    assert_eq!(sinew_strands_create(w, &sd, &mut SinewBody::default()), SINEW_INVALID_ARGUMENT);
    sd.particles_per_strand = 5;
    assert_eq!(sinew_strands_create(w, &sd, &mut SinewBody::default()), SINEW_INVALID_ARGUMENT, "zero direction: points coincide");
    sd.root_count = usize::MAX / 2;
    sd.direction_count = usize::MAX / 2;
    assert_eq!(sinew_strands_create(w, &sd, &mut SinewBody::default()), SINEW_TOO_LARGE);
    assert_eq!(read_positions(cloth), before, "failed calls changed the body");
    ok(sinew_world_step(w, 1.0 / 60.0));
    ok(sinew_world_destroy(w));
}

/// A flag of real fabric weight in steady wind (no turbulence, no gusts) leans downwind and
/// keeps moving — it flutters — where the same flag in calm air hangs still.
#[test]
fn a_flag_flutters_in_steady_wind() {
    let run = |speed: f32| {
        let w = world(8, 1);
        let flag = hanging_grid(w, 14, 10, 0.05);
        let rest = read_positions(flag);
        // A real flag's fabric, about 0.2 kg/m²: 0.5 g per 5 cm particle.
        let mut m = grid_desc().material;
        m.particle_mass = 0.0005;
        ok(sinew_body_set_material(flag, &m));
        let mut wd = wind();
        wd.direction = v3(0.0, 0.0, 1.0);
        wd.speed = speed;
        wd.turbulence = 0.0;
        wd.gust_strength = 0.0;
        ok(sinew_world_set_wind(w, &wd));
        for _ in 0..240 {
            ok(sinew_world_step(w, 1.0 / 60.0));
        }
        // Over the next second: how far it moves per frame, and how far downwind it is.
        let mut prev = read_positions(flag);
        let (mut moved, mut downwind) = (0.0f32, 0.0f32);
        for _ in 0..60 {
            ok(sinew_world_step(w, 1.0 / 60.0));
            let now = read_positions(flag);
            moved += now.iter().zip(&prev).map(|(a, b)| dist(*a, *b)).sum::<f32>() / now.len() as f32;
            downwind += now.iter().zip(&rest).map(|(a, b)| a.z - b.z).sum::<f32>() / now.len() as f32;
            prev = now;
        }
        ok(sinew_world_destroy(w));
        (moved / 60.0, downwind / 60.0)
    };
    let (flutter, lean) = run(8.0);
    let (still, none) = run(0.0);
    assert!(lean > 0.05, "the flag should lean downwind ({lean} m)");
    assert!(flutter > 3e-3, "in steady wind the flag should keep moving ({flutter} m per frame)");
    assert!(still < 1e-5 && none.abs() < 1e-6, "in calm air it hangs still ({still} m per frame, {none} m downwind)");
}
