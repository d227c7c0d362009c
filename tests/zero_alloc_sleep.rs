//! Sleeping and waking allocate nothing per step: a drape that falls asleep on a sphere,
//! is woken by a collider moving next to it, falls asleep again, and so on, stepped and read
//! back through the C ABI under a counting allocator.

mod common;
use common::*;

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicUsize, Ordering};

struct Counting;

// Only this thread's allocations count: the one-thread world steps on the calling thread,
// while the worker pool's idle thread may still be starting up (and allocating) meanwhile.
thread_local! {
    static COUNTING: Cell<bool> = const { Cell::new(false) };
}
static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

fn counting() -> bool {
    COUNTING.try_with(Cell::get).unwrap_or(false)
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if counting() {
            ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        }
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if counting() {
            ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        }
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

#[test]
fn sleeping_and_waking_allocate_nothing() {
    let mut wd = world_desc();
    wd.thread_count = 1;
    wd.interpolate = 0;
    let w = create_world(&wd);
    let mut cd = collider_desc();
    cd.radius = 0.3;
    create_collider(w, &cd);
    cd.radius = 0.05;
    cd.transform = translation(0.0, 0.2, 0.5);
    let poker = create_collider(w, &cd);
    // A static mesh floor the drape's edges hang down to.
    let (fv, fi) = floor_mesh(3.0);
    create_mesh_collider(w, &fv, &fi, translation(0.0, -0.2, 0.0));
    let mut gd = grid_desc();
    (gd.columns, gd.rows, gd.spacing) = (12, 12, 0.05);
    gd.pin_mode = SinewPinMode::SINEW_PIN_NONE as u32;
    gd.origin = v3(0.0, 0.35, 0.0);
    gd.material.damping = 6.0;
    let cloth = create_grid(w, &gd);
    let mut d = dynamics();
    d.sleep_time = 0.25;
    d.sleep_threshold = 0.01;
    ok(sinew_body_set_dynamics(cloth, &d));
    let mut out = vec![SinewVec3::default(); 144];
    let (mut slept, mut woke) = (0, 0);
    let mut was = false;
    let mut frame = |f: usize, count: bool| {
        // Every 3 s the poker moves 1 mm near the drape's edge (within reach), waking it.
        let z = if (f / 180) % 2 == 0 { 0.3 } else { 0.301 };
        ok(sinew_collider_set_transform(poker, &translation(0.0, 0.2, z)));
        if count {
            COUNTING.set(true);
        }
        ok(sinew_world_step(w, 1.0 / 60.0));
        ok(sinew_body_read_positions(cloth, out.as_mut_ptr(), out.len()));
        let mut info = SinewBodyInfo::default();
        ok(sinew_body_get_info(cloth, &mut info));
        COUNTING.set(false);
        info.sleeping == 1
    };
    // The first second: the drape lands (buffers take their sizes).
    for f in 0..60 {
        frame(f, false);
    }
    ALLOCATIONS.store(0, Ordering::SeqCst);
    for f in 60..60 * 12 {
        let now = frame(f, true);
        slept += (now && !was) as u32;
        woke += (!now && was) as u32;
        was = now;
    }
    let n = ALLOCATIONS.load(Ordering::SeqCst);
    ok(sinew_world_destroy(w));
    assert!(slept >= 2 && woke >= 1, "the scene must sleep and wake (slept {slept}, woke {woke})");
    assert_eq!(n, 0, "{n} heap allocations while sleeping and waking");
}
