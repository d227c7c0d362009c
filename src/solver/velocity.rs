//! Velocity update: `v ← (x − x_prev) / h` (XPBD, Algorithm 1, last line).

use crate::math::Vec3;

pub fn update(x: &[Vec3], x_prev: &[Vec3], v: &mut [Vec3], h: f32) {
    let inv_h = 1.0 / h;
    for i in 0..x.len() {
        v[i] = (x[i] - x_prev[i]) * inv_h;
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
