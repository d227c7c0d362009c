//! Pure kernels over slices: no objects, no allocation, no knowledge of the C ABI.
//!
//! One substep, in this fixed order (Macklin et al. 2019, "Small Steps in Physics
//! Simulation", Algorithm 1):
//!
//! 1. [`integrate::integrate`]: `v ← (v + h·g)·d`, `x_prev ← x`, `x ← x + h·v` for free particles;
//! 2. [`integrate::drive_pins`]: pinned particles are placed on their target path;
//! 3. [`constraints::distance::solve`]: each constraint batch, `iterations` times;
//! 4. [`velocity::update`]: `v ← (x − x_prev) / h`.
//!
//! With compliance 0, one substep and K iterations this is exactly the Verlet + relaxation
//! loop of the chapter's sections 7–8 (Jakobsen's "Advanced Character Physics").
//!
//! Grid bodies run the same passes on structure-of-arrays state ([`soa`]) with the grid
//! kernel ([`constraints::grid_simd`]), and large ones split each pass into two bands of rows
//! for two threads ([`bands`]); every variant gives the scalar passes' bits.

pub mod aero;
pub mod bands;
pub mod collision;
pub mod constraints;
pub mod particle_contact;
pub mod integrate;
pub mod soa;
pub mod velocity;
pub mod xpbd;
