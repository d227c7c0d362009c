//! Contacts, projected after the constraint groups of each substep: particles against
//! shapes (colliders, swept over the substep), against static triangle meshes, against other
//! particles, and against triangles.

pub mod mesh;
pub mod particle;
pub mod shape;
pub mod triangle;
