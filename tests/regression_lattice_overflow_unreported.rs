//! Regression (issue 30): a lattice soft body overflowed in a random call sequence — 40,000
//! particles near 2e21 m after 13 recoveries — and was never recovered again: the step's
//! check caught only NaN and infinity, so a finite 2e21 went back to the host as a position.
//! A step that leaves a coordinate or a speed beyond ±1e7 (m, m/s; ten times the world's
//! extent) now counts as overflowed, like a NaN: it is rolled back, the body stopped, and
//! `SINEW_RECOVERY_STEP_NOT_FINITE` reported.
//!
//! Reproduced here with the one accepted input that reaches such values without a solver
//! fault: a fall that never ends, at the documented largest gravity (1000 m/s²), which passes
//! 1e7 m after √(2·1e7/1000) = 141 s. Every object kind that falls — a rope, a lattice jelly
//! and a humanoid ragdoll — must read back within ±1e7 m on every frame, with the recovery
//! counted and (for bodies) named in an event.

mod common;
mod soft_common;

use common::*;
use soft_common::*;

const BOUND: f32 = 1e7;
const FRAME: f32 = 4.0 / 60.0;
/// 150 s of falling at four fixed steps a frame: past 141 s.
const FRAMES: usize = 2250;

fn falling_world() -> SinewWorld {
    let mut wd = world_desc();
    wd.thread_count = 1;
    wd.substeps = 2;
    wd.max_steps_per_frame = 4;
    wd.gravity = v3(0.0, -1000.0, 0.0);
    create_world(&wd)
}

fn farthest(points: &[SinewVec3]) -> f32 {
    points.iter().map(|p| p.x.abs().max(p.y.abs()).max(p.z.abs())).fold(0.0, |a, b| if b.is_nan() || a.is_nan() { f32::NAN } else { a.max(b) })
}

#[test]
fn bodies_falling_past_the_bound_are_recovered_and_reported() {
    let w = falling_world();
    let points: Vec<SinewVec3> = (0..11).map(|i| v3(i as f32 * 0.1, 0.0, 0.0)).collect();
    let mut rd = rope_desc();
    rd.points = points.as_ptr();
    rd.point_count = points.len();
    rd.pin_count = 0;
    // Undamped: a free fall, not one that reaches a terminal speed.
    rd.material.damping = 0.0;
    let rope = create_rope(w, &rd);
    let mut jd = jelly_desc(3, 0.2, v3(3.0, 0.0, 0.0), 1);
    jd.material.damping = 0.0;
    let jelly = create_lattice(w, &jd);
    let mut reported = Vec::new();
    let mut worst = 0.0f32;
    for frame in 0..FRAMES {
        // Every frame steps: a recovery never makes the world refuse the next one.
        ok(sinew_world_step(w, FRAME));
        for b in [rope, jelly] {
            let far = farthest(&read_positions(b));
            assert!(far <= BOUND, "frame {frame}: a body reads back {far} m from the origin");
            worst = worst.max(far);
        }
        for e in events(w) {
            assert_eq!(e.kind, SinewEventKind::SINEW_EVENT_BODY_RECOVERED as u32);
            assert_eq!(e.reason, SinewRecoveryReason::SINEW_RECOVERY_STEP_NOT_FINITE as u32, "frame {frame}");
            if !reported.contains(&e.body.id) {
                println!("frame {frame} ({:.1} s): body {:#x} recovered, the farthest point {worst:.4e} m", frame as f32 * FRAME, e.body.id);
                reported.push(e.body.id);
            }
        }
    }
    assert!(reported.contains(&rope.id), "the rope was never reported (farthest point {worst} m)");
    assert!(reported.contains(&jelly.id), "the jelly was never reported (farthest point {worst} m)");
    // Stopped where the step was rolled back: near the bound, not anywhere short of it.
    assert!(worst > 0.9 * BOUND, "the bodies stopped at {worst} m");
    ok(sinew_world_destroy(w));
}

#[test]
fn a_ragdoll_falling_past_the_bound_is_recovered_and_counted() {
    let w = falling_world();
    let mut hb = std::mem::MaybeUninit::uninit();
    ok(sinew_humanoid_bones_default(hb.as_mut_ptr()));
    let hb: SinewHumanoidBones = unsafe { hb.assume_init() };
    let mut rs = std::mem::MaybeUninit::uninit();
    ok(sinew_ragdoll_settings_default(rs.as_mut_ptr()));
    let mut rs: SinewRagdollSettings = unsafe { rs.assume_init() };
    (rs.linear_damping, rs.angular_damping) = (0.0, 0.0);
    let mut r = SinewRagdoll::default();
    ok(sinew_ragdoll_create_humanoid(w, &hb, &rs, &mut r));
    let n = SinewHumanoidBone::SINEW_HUMANOID_BONE_COUNT as usize;
    let (mut p, mut q) = (vec![v3(0.0, 0.0, 0.0); n], vec![SinewQuat { x: 0.0, y: 0.0, z: 0.0, w: 1.0 }; n]);
    let (mut recovered, mut worst) = (0u32, 0.0f32);
    for frame in 0..FRAMES {
        ok(sinew_world_step(w, FRAME));
        ok(sinew_ragdoll_read_pose(r, p.as_mut_ptr(), n, q.as_mut_ptr(), n));
        let far = farthest(&p);
        assert!(far <= BOUND, "frame {frame}: a bone reads back {far} m from the origin");
        worst = worst.max(far);
        let st = world_stats(w);
        if st.recovered_ragdolls > 0 && recovered == 0 {
            println!("frame {frame} ({:.1} s): ragdoll recovered, the farthest bone {worst:.4e} m", frame as f32 * FRAME);
        }
        recovered += st.recovered_ragdolls;
    }
    assert!(recovered > 0, "the ragdoll was never recovered (farthest bone {worst} m)");
    assert!(worst > 0.9 * BOUND, "the ragdoll stopped at {worst} m");
    ok(sinew_world_destroy(w));
}
