//! Sinew: real-time cloth, ropes, hair, soft bodies and ragdolls for games, behind a C ABI.
//!
//! Layers, each calling only the ones below it (checked by `scripts/check-layers.sh`):
//!
//! ```text
//! ffi/                   the only extern "C": conversion, handles, errors, panic guard
//! world/                 owns every object; fixed-rate accumulator; the stage driver; pairs,
//!                        LOD, worker threads
//! cloth/ rope/ strands/  cookers: build particle topologies and bodies from descriptions
//! particles/             the particle body they share: state, settings, topology as
//!                        constraint groups, character driving, tearing, readback, stages
//! ragdoll/               rigid bones and joints: descriptions, the humanoid template, the
//!                        ragdoll object (kinematic/dynamic bones, impulses, pose readback)
//! collider/ wind         host-moved shapes; the wind field
//! solver/                pure kernels over slices: integrate, constraints, contacts,
//!                        velocities, layouts
//! geometry/              shapes and poses (plain data)
//! math, error            glam aliases and epsilons; errors and checks
//! ```
//!
//! Rust programs may use [`world::World`] directly; hosts in other languages go through
//! `include/sinew.h`, generated from [`ffi`].

pub mod cloth;
pub mod collider;
pub mod error;
pub mod ffi;
pub mod geometry;
pub mod math;
pub mod particles;
pub mod ragdoll;
pub mod rope;
pub mod softbody;
pub mod solver;
pub mod state;
pub mod step;
pub mod strands;
pub mod wind;
pub mod world;
