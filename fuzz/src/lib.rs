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
