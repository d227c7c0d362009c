//! Constraint kinds. Each is stored as a structure of arrays, sorted into batches.

pub mod dihedral;
pub mod distance;
pub mod distance_simd;
pub mod grid_simd;
pub mod membrane;
pub mod motion;
pub mod neo_hookean;
pub mod tether;
pub mod volume;
pub mod shape_match;
