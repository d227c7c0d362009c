//! Maths aliases and the epsilons the solver shares.
//!
//! Particles use `glam::Vec3` (12 bytes, no padding) so that a slice of positions has the
//! same memory layout as `SinewVec3[]` in C and `Vector3[]` in Unity, and readback is a copy.

pub use glam::{Mat3, Mat4, Quat, Vec3};

/// Below this length (m) a constraint direction is undefined and the constraint is skipped.
pub const LENGTH_EPSILON: f32 = 1e-6;

/// Guard added to XPBD denominators, keeping `Σw + α̃` away from zero (two pinned particles).
pub const WEIGHT_EPSILON: f32 = 1e-12;

/// True when every component is finite.
#[inline]
pub fn is_finite3(v: Vec3) -> bool {
    v.x.is_finite() && v.y.is_finite() && v.z.is_finite()
}
