//! The fuzz harnesses of Sinew, as a plain library: each `run_*` takes the bytes libFuzzer (or
//! a corpus file) gives and panics when Sinew breaks a promise. The libFuzzer targets in
//! `fuzz_targets/` only call these; `tests/replay.rs` calls them on every committed corpus
//! and regression input with the stable toolchain.
//!
//! - [`abi::run`] (`abi_calls`): a sequence of C ABI calls over every object kind.
//! - [`cook::run_mesh`] (`cook_mesh`): the cloth mesh cooker (welding, colouring) and the
//!   mesh collider.
//! - [`cook::run_soft`] (`cook_soft`): the tetrahedral, lattice and embedded soft-body cookers.
//! - [`desc::run`] (`descriptors`): every descriptor validator through its create call.

pub mod abi;
pub mod cook;
pub mod desc;
pub mod input;
pub mod state;

/// The harness of a target, by its name (the directory under `fuzz/corpus/`).
pub fn harness(target: &str) -> Option<fn(&[u8])> {
    match target {
        "abi_calls" => Some(abi::run),
        "cook_mesh" => Some(cook::run_mesh),
        "cook_soft" => Some(cook::run_soft),
        "descriptors" => Some(desc::run),
        _ => None,
    }
}

/// Every target's name.
pub const TARGETS: [&str; 4] = ["abi_calls", "cook_mesh", "cook_soft", "descriptors"];

/// CPU time (s, every thread of the process) past which one input is a hang: a finding.
pub const HANG_CPU_SECONDS: f64 = 1.0;

/// What the libFuzzer targets run: `run` on one input, which panics (a crash libFuzzer
/// keeps) when the input took more than [`HANG_CPU_SECONDS`] of CPU time. CPU time, not the
/// wall clock: on a shared machine an input of 5 ms ran past libFuzzer's `-timeout=1`
/// because its steps wait for the world's worker thread to be scheduled. The stable replay
/// does not call this (no test has a time bound).
pub fn fuzz_one(run: fn(&[u8]), data: &[u8]) {
    let start = process_cpu_seconds();
    run(data);
    let spent = process_cpu_seconds() - start;
    assert!(spent <= HANG_CPU_SECONDS, "a hang: this input took {spent:.2} s of CPU time (the bound is {HANG_CPU_SECONDS} s)");
}

/// The process's CPU time (s), every thread (Linux `CLOCK_PROCESS_CPUTIME_ID`).
fn process_cpu_seconds() -> f64 {
    #[repr(C)]
    struct Timespec {
        sec: i64,
        nsec: i64,
    }
    unsafe extern "C" {
        fn clock_gettime(clock: i32, ts: *mut Timespec) -> i32;
    }
    const CLOCK_PROCESS_CPUTIME_ID: i32 = 2;
    let mut ts = Timespec { sec: 0, nsec: 0 };
    // SAFETY: `ts` is a `struct timespec` of x86-64 Linux (two 64-bit fields), written by the call.
    let r = unsafe { clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &mut ts) };
    assert_eq!(r, 0, "clock_gettime(CLOCK_PROCESS_CPUTIME_ID) failed");
    ts.sec as f64 + ts.nsec as f64 * 1e-9
}
