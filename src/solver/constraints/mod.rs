//! Constraint kinds. Each is stored as a structure of arrays, sorted into batches.

pub mod distance;
pub mod motion;
pub mod tether;
