//! A one-thread world steps on the host's thread and starts its one worker only at its first
//! asynchronous step: creating, stepping and destroying such a world starts no thread (hosts
//! that give each of many small worlds one thread keep no parked thread per world), and the
//! worker, once started, gives the same bits as the host's thread.
//!
//! The threads are counted in /proc/self/task, so this file holds one test: no other test of
//! the same program starts or ends threads meanwhile.

#![cfg(target_os = "linux")]

mod common;
use common::*;

fn threads() -> usize {
    std::fs::read_dir("/proc/self/task").expect("/proc/self/task").count()
}

/// The thread count once it is `expected`, or as it is after 5 s: a joined thread can stay
/// listed in /proc/self/task for a moment after `pthread_join` returns (the kernel clears
/// the thread's id, which the join waits for, before it finishes the exit). A thread that
/// was never joined stays listed, and the assertion after this fails.
fn settled(expected: usize) -> usize {
    for _ in 0..5000 {
        if threads() == expected {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
    threads()
}

fn world(threads: u32) -> SinewWorld {
    let mut d = world_desc();
    d.thread_count = threads;
    create_world(&d)
}

fn stats(w: SinewWorld) -> SinewWorldStats {
    let mut s = SinewWorldStats::default();
    ok(sinew_world_get_stats(w, &mut s));
    s
}

#[test]
fn a_one_thread_world_starts_its_worker_at_its_first_asynchronous_step() {
    let base = threads();

    // Created, filled, stepped and destroyed without a thread.
    let sync = world(1);
    let a = create_grid(sync, &grid_desc());
    let start = read_positions(a);
    assert_eq!(stats(sync).thread_count, 1, "a one-thread world reports its one worker");
    for _ in 0..10 {
        ok(sinew_world_step(sync, 1.0 / 60.0));
    }
    assert_eq!(threads(), base, "a one-thread world started a thread without an asynchronous step");

    // The first asynchronous step starts the worker; later ones reuse it.
    let split = world(1);
    let b = create_grid(split, &grid_desc());
    for i in 0..10 {
        if i % 2 == 0 {
            ok(sinew_world_step(split, 1.0 / 60.0));
        } else {
            ok(sinew_world_step_begin(split, 1.0 / 60.0));
            ok(sinew_world_step_end(split));
            assert_eq!(threads(), base + 1, "asynchronous step {i}: one worker, started once");
        }
    }
    // The worker's steps and the host thread's give the same bits.
    let (pa, pb) = (read_positions(a), read_positions(b));
    assert!(pa.iter().zip(&pb).all(|(p, q)| p.x.to_bits() == q.x.to_bits() && p.y.to_bits() == q.y.to_bits() && p.z.to_bits() == q.z.to_bits()), "a one-thread world's steps differ between the host's thread and its worker");
    assert!(pa.iter().zip(&start).any(|(p, s)| dist(*p, *s) > 1e-3), "the cloth did not move: nothing was compared");

    ok(sinew_world_destroy(split));
    assert_eq!(settled(base), base, "destroying the world joins its worker");
    ok(sinew_world_destroy(sync));
    assert_eq!(settled(base), base);

    // Two threads or more start at creation, as before.
    let two = world(2);
    assert_eq!(threads(), base + 2, "a two-thread world starts both workers at creation");
    assert_eq!(stats(two).thread_count, 2);
    ok(sinew_world_destroy(two));
    assert_eq!(settled(base), base);
}
