//! A jump of the pins' targets or of the skinned pose is a teleport, like a jump of the root:
//! the cloth arrives with its shape and the jump gives it no speed — at the default
//! `teleport_distance` (issue 11, part 5).

mod common;
use common::*;

const COLUMNS: u32 = 10;
const ROWS: u32 = 10;
const SPACING: f32 = 0.05;

/// Column-major: rotation by `angle` about +Y, then translation `t`.
fn rotation_y(angle: f32, t: SinewVec3) -> SinewMat4 {
    let (s, c) = angle.sin_cos();
    SinewMat4 { m: [c, 0.0, -s, 0.0, 0.0, 1.0, 0.0, 0.0, s, 0.0, c, 0.0, t.x, t.y, t.z, 1.0] }
}

fn mul(a: &SinewMat4, b: &SinewMat4) -> SinewMat4 {
    let mut m = [0.0f32; 16];
    for c in 0..4 {
        for r in 0..4 {
            m[c * 4 + r] = (0..4).map(|k| a.m[k * 4 + r] * b.m[c * 4 + k]).sum();
        }
    }
    SinewMat4 { m }
}

fn apply(m: &SinewMat4, p: SinewVec3) -> SinewVec3 {
    let m = &m.m;
    v3(m[0] * p.x + m[4] * p.y + m[8] * p.z + m[12], m[1] * p.x + m[5] * p.y + m[9] * p.z + m[13], m[2] * p.x + m[6] * p.y + m[10] * p.z + m[14])
}

struct Jump {
    /// Largest distance from where the jump carries the cloth of the frame before (m).
    shape_error: f32,
    /// Fastest particle over the jump frame and the half second after (m/s), the jump itself
    /// taken out in the jump frame, and over the half second before it.
    speed_after: f32,
    speed_before: f32,
}

/// The body walks at 1 m/s along its +X for a second (host at `host_hz`), then its pins (or
/// its bone) jump by 12 m and turn 90° about the vertical, and it walks on, along its own +X.
fn run(host_hz: f32, skinned: bool, jump_frame: usize) -> Jump {
    let mut wd = world_desc();
    wd.thread_count = 1;
    let w = create_world(&wd);
    let mut gd = grid_desc();
    (gd.columns, gd.rows, gd.spacing) = (COLUMNS, ROWS, SPACING);
    let a = std::f32::consts::FRAC_PI_4;
    gd.orientation = SinewQuat { x: a.sin(), y: 0.0, z: 0.0, w: a.cos() };
    gd.origin = v3(0.0, -((ROWS - 1) as f32) * SPACING * 0.5, 0.0);
    let cloth = create_grid(w, &gd); // the dynamics stay the library's defaults
    let rest = read_positions(cloth);
    let pins: Vec<u32> = (0..COLUMNS).collect();
    if skinned {
        skin_to_one_bone(cloth);
        ok(sinew_body_set_bone_matrices(cloth, &translation(0.0, 0.0, 0.0), 1));
    }
    let dt = 1.0 / host_hz;
    let frames = (1.5 * host_hz) as usize;
    let mut out = Jump { shape_error: 0.0, speed_after: 0.0, speed_before: 0.0 };
    let jump = rotation_y(std::f32::consts::FRAC_PI_2, v3(12.0, 0.5, -3.0));
    let mut prev = rest.clone();
    for f in 1..=frames {
        let walked = v3(f as f32 * dt, 0.0, 0.0);
        let walk = translation(walked.x, 0.0, 0.0);
        let pose = if f >= jump_frame { mul(&jump, &walk) } else { walk };
        if skinned {
            ok(sinew_body_set_bone_matrices(cloth, &pose, 1));
        } else {
            let targets: Vec<SinewVec3> = pins.iter().map(|&i| apply(&pose, rest[i as usize])).collect();
            ok(sinew_body_set_pin_targets(cloth, pins.as_ptr(), pins.len(), targets.as_ptr(), targets.len()));
        }
        ok(sinew_world_step(w, dt));
        let now = read_positions(cloth);
        if f == jump_frame {
            // Where the jump takes the previous frame's cloth: undo the last pose, apply this.
            let carried: Vec<SinewVec3> = prev.iter().map(|p| apply(&jump, *p)).collect();
            out.shape_error = now.iter().zip(&carried).map(|(a, b)| dist(*a, *b)).fold(0.0, f32::max);
            let speed = now.iter().zip(&carried).map(|(a, b)| dist(*a, *b) / dt).fold(0.0, f32::max);
            out.speed_after = out.speed_after.max(speed);
        } else if f + (host_hz / 2.0) as usize >= jump_frame {
            let speed = now.iter().zip(&prev).map(|(a, b)| dist(*a, *b) / dt).fold(0.0, f32::max);
            if f < jump_frame {
                out.speed_before = out.speed_before.max(speed);
            } else if f <= jump_frame + (host_hz / 2.0) as usize {
                out.speed_after = out.speed_after.max(speed);
            }
        }
        prev = now;
    }
    assert_eq!(body_info(cloth).recoveries, 0);
    ok(sinew_world_destroy(w));
    out
}

#[test]
fn the_default_teleport_distance_is_a_few_metres() {
    let d = dynamics();
    assert!(d.teleport_distance >= 1.0 && d.teleport_distance <= 5.0, "default teleport_distance {} m", d.teleport_distance);
}

#[test]
fn a_jump_of_pin_targets_or_bones_carries_the_cloth_with_its_shape() {
    let mut failures = Vec::new();
    let mut report = String::new();
    for skinned in [false, true] {
        // At 144 Hz one jump lands in a frame that runs a fixed step and the other in one
        // that does not: either way the readback of that very frame shows the cloth carried.
        for (host_hz, jump_frame) in [(60.0f32, 60), (144.0, 144), (144.0, 145)] {
            let r = run(host_hz, skinned, jump_frame);
            let line = format!("skinned {skinned:5} host {host_hz:3} Hz, jump in frame {jump_frame}: shape error {:.4} m, speed before {:.3} m/s, after {:.3} m/s\n", r.shape_error, r.speed_before, r.speed_after);
            report.push_str(&line);
            // The cloth walks at 1 m/s and swings a little; the jump frame holds one frame of
            // that motion and the walk goes on without a kick.
            if r.shape_error > r.speed_before / host_hz + 0.005 {
                failures.push(format!("the cloth did not arrive with its shape: {line}"));
            }
            if r.speed_after > r.speed_before + 0.5 {
                failures.push(format!("the jump gave the cloth speed: {line}"));
            }
        }
    }
    println!("{report}");
    assert!(failures.is_empty(), "{}\nall runs:\n{report}", failures.join("\n"));
}
