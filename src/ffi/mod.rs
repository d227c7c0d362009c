//! The C ABI. The only module with `extern "C"`; every export runs inside
//! [`guard::run`], checks its arguments with the helpers of [`guard`], and answers a
//! [`result::SinewResult`].
//!
//! Conventions (after rustls-ffi and wasmtime's C API): `sinew_<type>_<verb>` names;
//! outputs are trailing out-pointers, written only on success; a buffer pointer is always
//! followed by its length; handles, never pointers, for what the host keeps.

// The exports are safe `extern "C"` functions by design: the C caller cannot see `unsafe`,
// and every pointer goes through the null and length checks of `guard` before use.
#![allow(clippy::not_unsafe_ptr_arg_deref)]

#[macro_use]
pub mod guard;
pub mod body;
pub mod character;
pub mod cloth;
pub mod collider;
pub mod registry;
pub mod result;
pub mod rope;
pub mod strands;
pub mod types;
pub mod world;

/// Version of the C ABI. Bumped on any incompatible change; wrappers compare it at load.
pub const SINEW_ABI_VERSION: u32 = 4;
