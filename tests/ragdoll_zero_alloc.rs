//! After the first steps, a ragdoll step allocates nothing: a humanoid alone (its own tree
//! workspace, sized at creation) and three humanoids dropped onto each other (an island: the
//! shared scratch, its tree workspace grown once to the largest member), on a plane.

mod ragdoll_common;
use ragdoll_common::*;
use sinew::collider::Collider;

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

struct Counting;

static COUNTING: AtomicBool = AtomicBool::new(false);
static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if COUNTING.load(Ordering::Relaxed) {
            ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        }
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if COUNTING.load(Ordering::Relaxed) {
            ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        }
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

#[test]
fn ragdoll_steps_allocate_nothing_alone_and_in_an_island() {
    let mut w = world(Vec3::new(0.0, -9.81, 0.0));
    w.add_collider(Collider::new(Shape::Plane, u32::MAX, Pose { rotation: Quat::IDENTITY, position: Vec3::ZERO, scale: 1.0 }).unwrap()).unwrap();
    let humanoid = |at: Vec3| sinew::ragdoll::humanoid::HumanoidBones::standing(at).ragdoll().unwrap();
    w.create_ragdoll(&humanoid(Vec3::new(-3.0, 1.0, 0.0))).unwrap();
    for k in 0..3 {
        w.create_ragdoll(&humanoid(Vec3::new(0.1 * k as f32, 1.0 + 0.6 * k as f32, 0.0))).unwrap();
    }
    for _ in 0..30 {
        w.step(1.0 / 60.0).unwrap();
    }
    ALLOCATIONS.store(0, Ordering::Relaxed);
    COUNTING.store(true, Ordering::Relaxed);
    for _ in 0..60 {
        w.step(1.0 / 60.0).unwrap();
    }
    COUNTING.store(false, Ordering::Relaxed);
    let n = ALLOCATIONS.load(Ordering::Relaxed);
    assert_eq!(n, 0, "{n} allocations in 60 ragdoll steps");
}
