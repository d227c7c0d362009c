//! The C ABI. The only module with `extern "C"`; every export runs inside
//! [`guard::run`], checks its arguments with the helpers of [`guard`], and answers a
//! [`result::SinewResult`].
//!
//! Conventions (after rustls-ffi and wasmtime's C API): `sinew_<type>_<verb>` names;
//! outputs are trailing out-pointers, written only on success; a buffer pointer is always
//! followed by its length; handles, never pointers, for what the host keeps.

// The exports are safe `extern "C"` functions by design: the C caller cannot see `unsafe`,
// and every pointer goes through the null and length checks of `guard` (its unsafe helpers,
// called only through its macros) before use.
#![allow(clippy::not_unsafe_ptr_arg_deref)]

#[macro_use]
pub mod guard;
pub mod getup;
pub mod body;
pub mod character;
pub mod cloth;
pub mod collider;
pub mod ragdoll;
pub mod registry;
pub mod result;
pub mod rope;
pub mod snapshot;
pub mod softbody;
pub mod strands;
pub mod types;
pub mod world;

/// Version of the C ABI. Bumped on any incompatible change; wrappers compare it at load.
///
/// cbindgen emits no Rust constants (they would bring the core's along, see `cbindgen.toml`),
/// so the header's `#define SINEW_ABI_VERSION` is written in `cbindgen.toml`'s
/// `after_includes`; bump both (`tests/ffi_contract.rs` checks they agree).
pub const SINEW_ABI_VERSION: u32 = 11;
