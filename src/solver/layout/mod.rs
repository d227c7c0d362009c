//! Data layouts for the kernels: a body's state as structure of arrays for a whole substep
//! ([`soa`]), and the split of a grid's passes into two bands of rows for two threads
//! ([`bands`]).

pub mod bands;
pub mod soa;
