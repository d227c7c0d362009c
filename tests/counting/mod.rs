//! A global allocator that counts heap allocations and reallocations (on every thread) while
//! counting is on. A zero-allocation test installs it:
//!
//! ```ignore
//! mod counting;
//! #[global_allocator]
//! static GLOBAL: counting::Counting = counting::Counting;
//! ```
//!
//! then brackets the frames it measures with [`start`] (allocations on every thread: a world
//! steps on its worker threads) or [`start_here`] (on the calling thread only: kernels called
//! directly, so that the test harness's own threads cannot be counted) and [`stop`].

#![allow(dead_code)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

pub struct Counting;

static COUNTING: AtomicBool = AtomicBool::new(false);
static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

thread_local! {
    static HERE: Cell<bool> = const { Cell::new(false) };
}

fn counting() -> bool {
    COUNTING.load(Ordering::Relaxed) || HERE.with(Cell::get)
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

/// Starts counting from zero.
pub fn start() {
    ALLOCATIONS.store(0, Ordering::SeqCst);
    COUNTING.store(true, Ordering::SeqCst);
}

/// Starts counting from zero, on the calling thread only.
pub fn start_here() {
    ALLOCATIONS.store(0, Ordering::SeqCst);
    HERE.with(|h| h.set(true));
}

/// Stops counting; the allocations since [`start`] or [`start_here`].
pub fn stop() -> usize {
    COUNTING.store(false, Ordering::SeqCst);
    HERE.with(|h| h.set(false));
    ALLOCATIONS.load(Ordering::SeqCst)
}
