//! Sinew: real-time cloth, ropes, hair, soft bodies and ragdolls for games, behind a C ABI.
//!
//! Layers, each calling only the one below:
//!
//! ```text
//! ffi/                the only extern "C": argument checks, handles, errors, panic guard
//! world               owns bodies; fixed-rate accumulator; substep loop, parallel over bodies
//! cloth, rope, body   settings (cooked, shared) and state per object kind
//! solver/             pure kernels over slices: integrate, constraints, velocity
//! math                glam
//! ```
//!
//! Rust programs may use [`world::World`] directly; hosts in other languages go through
//! `include/sinew.h`, generated from [`ffi`].

pub mod body;
pub mod cloth;
pub mod collider;
pub mod error;
pub mod ffi;
pub mod handle;
pub mod math;
pub mod rope;
pub mod skin;
pub mod solver;
pub mod strands;
pub mod wind;
pub mod world;
