//! Velocity update: `v ← (x − x_prev) / h` (XPBD, Algorithm 1, last line).

use crate::math::Vec3;

pub fn update(x: &[Vec3], x_prev: &[Vec3], v: &mut [Vec3], h: f32) {
    let inv_h = 1.0 / h;
    for i in 0..x.len() {
        v[i] = (x[i] - x_prev[i]) * inv_h;
    }
}
