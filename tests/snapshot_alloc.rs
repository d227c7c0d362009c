//! Saving into and loading from a caller's buffer allocate nothing once warmed up: a world
//! with a pinned cloth whose pins move, a rope, a ragdoll and colliders, stepped, saved and
//! rewound every frame, under the counting allocator (all threads).

mod common;
use common::*;
mod counting;
use sinew::ffi::snapshot::*;

#[global_allocator]
static GLOBAL: counting::Counting = counting::Counting;

#[test]
fn save_and_load_allocate_nothing_after_warm_up() {
    for threads in [1, 2] {
        scene(threads);
    }
}

/// One thread: whole frames (inputs, step, save, load) allocate nothing. Two threads: the
/// saves and loads allocate nothing (the step hands work to rayon, whose job queue takes a
/// block now and then: tests/zero_alloc.rs).
fn scene(threads: u32) {
    let mut wd = world_desc();
    wd.thread_count = threads;
    let w = create_world(&wd);
    let cloth = create_grid(w, &grid_desc());
    let pts: Vec<SinewVec3> = (0..10).map(|i| v3(1.0 + i as f32 * 0.1, 1.0, 0.0)).collect();
    let mut rd = rope_desc();
    rd.points = pts.as_ptr();
    rd.point_count = pts.len();
    create_rope(w, &rd);
    create_ragdoll(w, &ragdoll_settings(), &chain_bones(v3(-1.0, 1.0, 0.0), 4));
    let mut floor = collider_desc();
    floor.shape = SinewShape::SINEW_SHAPE_PLANE as u32;
    create_collider(w, &floor);
    let ball = create_collider(w, &collider_desc());
    // The first step gives the rope its buffer of carried corrections: the size grows once.
    ok(sinew_world_step(w, 1.0 / 60.0));
    let mut n = 0usize;
    ok(sinew_world_save_state(w, std::ptr::null_mut(), 0, &mut n));
    let mut buf = vec![0u8; n];
    let mut older = vec![0u8; n];
    let idx = [0u32, 1, 2];
    let whole = threads == 1;
    let mut counted = 0usize;
    let mut frame = |f: u32, buf: &mut Vec<u8>, older: &mut Vec<u8>, count: bool| {
        let t = f as f32 / 60.0;
        let targets = [v3(-0.5 + 0.1 * t.sin(), 0.0, -0.5), v3(-0.4, 0.0, -0.5), v3(-0.3, 0.0, -0.5)];
        ok(sinew_body_set_pin_targets(cloth, idx.as_ptr(), 3, targets.as_ptr(), 3));
        ok(sinew_collider_set_transform(ball, &translation(0.2 * t.sin(), 0.3, 0.0)));
        ok(sinew_world_step(w, 1.0 / 60.0));
        if count && !whole {
            counting::start();
        }
        let mut written = 0usize;
        ok(sinew_world_save_state(w, buf.as_mut_ptr(), buf.len(), &mut written));
        assert_eq!(written, buf.len(), "the size stays the same");
        // Every fourth frame rewinds to the snapshot of the frame before.
        if f % 4 == 3 {
            ok(sinew_world_load_state(w, older.as_ptr(), older.len()));
        }
        if count && !whole {
            counted += counting::stop();
        }
        std::mem::swap(buf, older);
    };
    for f in 0..40 {
        frame(f, &mut buf, &mut older, false);
    }
    if whole {
        counting::start();
    }
    for f in 40..140 {
        frame(f, &mut buf, &mut older, true);
    }
    if whole {
        counted = counting::stop();
    }
    assert_eq!(counted, 0, "{threads} thread(s): 100 frames of step, save and load allocated {counted} times");
    ok(sinew_world_destroy(w));
}
