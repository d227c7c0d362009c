//! Per-body and per-ragdoll step times (`sinew_body_get_step_time_ns`,
//! `sinew_ragdoll_get_step_time_ns`), for the Unity debug window. Wall time cannot be checked
//! against a number, so these check what the figure means: it is there for what was stepped,
//! 0 for what was not (frozen, created since), kept through a frame that ran no fixed step,
//! shared by particle count between bodies stepped together, and the calls' errors.

mod common;
use common::*;

fn body_ns(b: SinewBody) -> u64 {
    let mut ns = u64::MAX;
    ok(sinew_body_get_step_time_ns(b, &mut ns));
    ns
}

fn ragdoll_ns(r: SinewRagdoll) -> u64 {
    let mut ns = u64::MAX;
    ok(sinew_ragdoll_get_step_time_ns(r, &mut ns));
    ns
}

fn last_frame_steps(w: SinewWorld) -> u32 {
    let mut stats = std::mem::MaybeUninit::uninit();
    ok(sinew_world_get_stats(w, stats.as_mut_ptr()));
    unsafe { stats.assume_init() }.last_frame_steps
}

fn one_thread() -> SinewWorld {
    let mut wd = world_desc();
    wd.thread_count = 1;
    create_world(&wd)
}

#[test]
fn stepped_bodies_and_ragdolls_have_a_time_the_others_none() {
    let w = one_thread();
    let mut gd = grid_desc();
    (gd.columns, gd.rows) = (24, 24);
    let cloth = create_grid(w, &gd);
    let ragdoll = create_ragdoll(w, &ragdoll_settings(), &chain_bones(v3(3.0, 2.0, 0.0), 4));
    assert_eq!(body_ns(cloth), 0, "nothing stepped yet");
    assert_eq!(ragdoll_ns(ragdoll), 0, "nothing stepped yet");

    // Simulated time runs up to a fixed step ahead of host time: a short frame steps once,
    // the next short one not at all, and keeps the figures of the one before.
    ok(sinew_world_step(w, 1e-3));
    assert_eq!(last_frame_steps(w), 1);
    let (c, r) = (body_ns(cloth), ragdoll_ns(ragdoll));
    assert!(c > 0 && r > 0, "a stepped cloth and ragdoll took some time: {c} ns, {r} ns");
    ok(sinew_world_step(w, 1e-3));
    assert_eq!(last_frame_steps(w), 0);
    assert_eq!((body_ns(cloth), ragdoll_ns(ragdoll)), (c, r), "a frame with no fixed step keeps the figures");

    // A body created after the step, and a body frozen by LOD, took none.
    let late = create_grid(w, &gd);
    assert_eq!(body_ns(late), 0);
    let mut l = lod();
    l.freeze_when_invisible = 1;
    ok(sinew_body_set_lod(cloth, &l));
    ok(sinew_body_set_visible(cloth, 0));
    ok(sinew_world_step(w, 1.0 / 60.0));
    assert!(body_info(cloth).frozen == 1, "the invisible cloth is frozen");
    assert_eq!(body_ns(cloth), 0, "a frozen body is not stepped");
    assert!(body_ns(late) > 0, "the new cloth was stepped");
    ok(sinew_world_destroy(w));
}

#[test]
fn bodies_stepped_together_share_the_time_by_particle_count() {
    // Identical small grids with the same settings step side by side in SIMD lanes; each gets
    // the same share (timed alone, four bodies would not take the same nanoseconds).
    let w = one_thread();
    let mut gd = grid_desc();
    (gd.columns, gd.rows) = (8, 8);
    let grids: Vec<SinewBody> = (0..4)
        .map(|i| {
            gd.origin = v3(i as f32, 2.0, 0.0);
            create_grid(w, &gd)
        })
        .collect();
    ok(sinew_world_step(w, 1.0 / 60.0));
    let times: Vec<u64> = grids.iter().map(|&g| body_ns(g)).collect();
    assert!(times[0] > 0 && times.iter().all(|&t| t == times[0]), "equal shares: {times:?}");
    ok(sinew_world_destroy(w));

    // A grid and a rope paired for collision step in lockstep: shares in proportion to their
    // particle counts (to the nanosecond each share is rounded down to).
    let w = one_thread();
    (gd.columns, gd.rows) = (10, 10);
    gd.origin = v3(0.0, 1.0, 0.0);
    let grid = create_grid(w, &gd);
    let rope = hanging_chain(w, v3(0.0, 1.5, 0.0), 25, 0.04, 0.01, 0.0, 0.0);
    ok(sinew_body_set_collision_pair(grid, rope, 1));
    ok(sinew_world_step(w, 1.0 / 60.0));
    let (g, r) = (body_ns(grid) as u128, body_ns(rope) as u128);
    let (pg, pr) = (body_info(grid).particle_count as u128, body_info(rope).particle_count as u128);
    assert!(g > 0 && r > 0);
    assert!((g * pr).abs_diff(r * pg) <= pg + pr, "shares {g} and {r} ns for {pg} and {pr} particles");
    ok(sinew_world_destroy(w));
}

#[test]
fn the_calls_refuse_a_null_out_pointer_and_a_stale_handle() {
    let w = one_thread();
    let cloth = create_grid(w, &grid_desc());
    let ragdoll = create_ragdoll(w, &ragdoll_settings(), &chain_bones(v3(0.0, 2.0, 0.0), 2));
    assert_eq!(sinew_body_get_step_time_ns(cloth, std::ptr::null_mut()), SinewResult::SINEW_NULL_POINTER);
    assert!(last_error().contains("out_ns"), "{}", last_error());
    assert_eq!(sinew_ragdoll_get_step_time_ns(ragdoll, std::ptr::null_mut()), SinewResult::SINEW_NULL_POINTER);
    ok(sinew_body_destroy(cloth));
    ok(sinew_ragdoll_destroy(ragdoll));
    let mut ns = 7u64;
    assert_eq!(sinew_body_get_step_time_ns(cloth, &mut ns), SinewResult::SINEW_INVALID_HANDLE);
    assert_eq!(sinew_ragdoll_get_step_time_ns(ragdoll, &mut ns), SinewResult::SINEW_INVALID_HANDLE);
    assert_eq!(ns, 7, "a refused call writes nothing");
    ok(sinew_world_step(w, 1.0 / 60.0));
    ok(sinew_world_destroy(w));
}
