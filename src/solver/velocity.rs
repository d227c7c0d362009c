//! Velocity update: `v ← (x − x_prev) / h` (XPBD, Algorithm 1, last line), in a form that
//! keeps what rounding took from the prediction.
//!
//! For a free particle (`w > 0`) `v` still holds the velocity `vᵢ` the prediction moved it
//! with, and `x_p = x_prev + vᵢ·h` (recomputed with the prediction's own operations, so the
//! same bits) is where the prediction put it. The update is `v ← vᵢ + (x − x_p) / h`: in exact
//! arithmetic the same as `(x − x_prev)/h`, but the predicted motion `vᵢ·h` is kept in full
//! instead of as the rounded difference of two nearly equal coordinates, and only the
//! corrections (constraints, contacts) are taken from positions. At rest with small
//! substeps `vᵢ·h ≈ g·h²` is about one ulp of a coordinate (1.7e-7 m at 64 substeps of
//! 120 Hz, against 1.2e-7 m for 1–2 m), so `(x − x_prev)/h` lost or gained up to half of
//! gravity in every substep, and a hanging chain carried the wrong weight (+23 % stretch at
//! 120 Hz × 64); kept in `v`, the part rounding withheld is applied in a later substep.
//! Pinned particles (`w = 0`) move on their path: `(x − x_prev)/h`.

use crate::math::Vec3;

pub fn update(x: &[Vec3], x_prev: &[Vec3], v: &mut [Vec3], w: &[f32], h: f32) {
    let inv_h = 1.0 / h;
    for i in 0..x.len() {
        v[i] = if w[i] > 0.0 {
            let predicted = x_prev[i] + v[i] * h;
            v[i] + (x[i] - predicted) * inv_h
        } else {
            (x[i] - x_prev[i]) * inv_h
        };
    }
}

/// Caps each free particle's speed relative to `base` (the root's velocity) at `max`.
pub fn limit(v: &mut [Vec3], w: &[f32], base: Vec3, max: f32) {
    let max2 = max * max;
    for i in 0..v.len() {
        if w[i] == 0.0 {
            continue;
        }
        let rel = v[i] - base;
        let s2 = rel.length_squared();
        if s2 > max2 {
            v[i] = base + rel * (max / s2.sqrt());
        }
    }
}

/// Adds to each free particle's velocity `carry / h`: the part of the substep's chain
/// corrections that rounding kept out of the positions (`distance::project_chain`), so the
/// velocity gets the corrections in full, `v = vᵢ + (x + carry − x_p)/h`.
pub fn add_carry(v: &mut [Vec3], carry: &[Vec3], w: &[f32], h: f32) {
    let inv_h = 1.0 / h;
    for i in 0..v.len().min(carry.len()) {
        if w[i] > 0.0 {
            v[i] += carry[i] * inv_h;
        }
    }
}
