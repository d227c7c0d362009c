//! Pure kernels over slices: math and geometry only — no object kinds, no world, no C ABI.
//!
//! A particle body's substep runs these in a fixed order (Macklin et al. 2019, "Small Steps
//! in Physics Simulation", Algorithm 1; the order itself is written once, in
//! `particles/stages.rs`):
//!
//! 1. [`integrate`]: `v ← v·d + h·g + h·a`, `x_prev ← x`, `x ← x + h·v` for free particles;
//!    pinned particles are placed on their target path;
//! 2. [`constraints`]: each constraint group — distance batches `iterations` times, then
//!    tethers and motion limits — through the one Lagrange update of [`xpbd`];
//! 3. [`contact`]: particles against other bodies' particles and triangles, their own, and
//!    colliders' shapes swept over the substep;
//! 4. [`velocity`]: `v ← (x − x_prev) / h` (in a form that keeps the prediction's motion
//!    from rounding), then the speed limit.
//!
//! [`aero`] turns air velocities into accelerations once per fixed step. With compliance 0,
//! one substep and K iterations this is the Verlet + relaxation loop of the chapter's
//! sections 7–8 (Jakobsen's "Advanced Character Physics"); a rope's links move along their
//! start-of-substep directions, which keeps a pendulum's energy and the chapter's printed
//! rope. A body far from the origin steps in a local frame ([`layout::frame`]).
//!
//! Grid bodies run the same passes on structure-of-arrays state ([`layout::soa`]) with the
//! grid kernel ([`constraints::grid_simd`]), and large ones split each pass into two bands
//! of rows for two threads ([`layout::bands`]); every variant gives the scalar passes' bits.
//! Kernels allocate only when a caller's buffer must grow (never once warm).

pub mod aero;
pub mod constraints;
pub mod contact;
pub mod integrate;
pub mod layout;
pub mod rigid;
pub mod velocity;
pub mod xpbd;
