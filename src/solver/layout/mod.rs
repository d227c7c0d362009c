//! Data layouts for the kernels: a body's state as structure of arrays for a whole substep
//! ([`soa`]), and the split of a grid's passes into two bands of rows for two threads
//! ([`bands`]), and the local frame of a body far from the origin ([`frame`]).

pub mod bands;
pub mod frame;
pub mod soa;
