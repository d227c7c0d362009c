//! After the first steps, a large self-colliding cloth allocates nothing: its pair search
//! (the cell grid, both searches, and on two threads the halves and their lists) reuses
//! its buffers while the cloth falls, folds onto a floor and its bounds and pairs change.

mod common;
use common::*;

mod counting;

#[global_allocator]
static GLOBAL: counting::Counting = counting::Counting;

#[test]
fn a_large_self_colliding_cloth_allocates_nothing_after_the_first_steps() {
    for threads in [1u32, 2] {
        let mut wd = world_desc();
        wd.thread_count = threads;
        let w = create_world(&wd);
        // 48 × 40 = 1920 particles: past the size at which the search is shared by two threads.
        let mut gd = grid_desc();
        (gd.columns, gd.rows, gd.spacing) = (48, 40, 0.03);
        gd.pin_mode = SinewPinMode::SINEW_PIN_NONE as u32;
        gd.origin = v3(0.0, 0.4, 0.0);
        gd.material.self_collision = 1;
        let cloth = create_grid(w, &gd);
        let mut floor = collider_desc();
        floor.shape = SinewShape::SINEW_SHAPE_PLANE as u32;
        create_collider(w, &floor);
        let mut sphere = collider_desc();
        sphere.shape = SinewShape::SINEW_SHAPE_SPHERE as u32;
        sphere.radius0 = 0.2;
        sphere.transform = translation(0.3, 0.2, 0.0);
        create_collider(w, &sphere);
        let mut out = vec![SinewVec3::default(); 48 * 40];
        for _ in 0..5 {
            ok(sinew_world_step(w, 1.0 / 60.0));
        }
        counting::start();
        for _ in 0..120 {
            ok(sinew_world_step(w, 1.0 / 60.0));
            ok(sinew_body_read_positions(cloth, out.as_mut_ptr(), out.len()));
        }
        let n = counting::stop();
        // The cloth must have come down onto the sphere and the floor (else nothing changed).
        let lowest = out.iter().fold(f32::INFINITY, |m, p| m.min(p.y));
        ok(sinew_world_destroy(w));
        assert!(lowest < 0.05, "the cloth should reach the floor (lowest particle at {lowest} m)");
        if threads == 1 {
            assert_eq!(n, 0, "one thread: {n} heap allocations in 120 steps");
        } else {
            // As tests/zero_alloc.rs: rayon's job queue takes a new block now and then.
            assert!(n <= 120 / 32, "{threads} threads: {n} heap allocations in 120 steps");
        }
    }
}
