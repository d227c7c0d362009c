//! Prediction step: symplectic Euler on velocities, then positions.
//!
//! `v ← v·d + h·(g + aᵢ)`, `x_prev ← x`, `x ← x + h·v` for every particle with `w > 0`,
//! where `aᵢ` is an external acceleration (wind; none when the slice is empty) and
//! `d = max(0, 1 − c·h)` applies a linear damping rate `c` (1/s) to the velocity. Damping
//! acts on the velocity only, never on this substep's impulse of gravity: a body held at rest
//! feels all of its weight at any damping (with `(v + h·g)·d` it felt `(1 − c·h)` of it, so
//! a hanging chain stretched 8 % too little at c = 20/s and 240 substeps/s). Pinned particles
//! (`w = 0`) keep their position here; [`drive_pins`] places them.

use crate::math::Vec3;

#[allow(clippy::too_many_arguments)]
pub fn integrate(x: &mut [Vec3], x_prev: &mut [Vec3], v: &mut [Vec3], w: &[f32], gravity: Vec3, accel: &[Vec3], damping: f32, h: f32) {
    let d = (1.0 - damping * h).max(0.0);
    let dv = gravity * h;
    x_prev.copy_from_slice(x);
    if accel.is_empty() {
        for i in 0..x.len() {
            if w[i] > 0.0 {
                let vi = v[i] * d + dv;
                v[i] = vi;
                x[i] += vi * h;
            }
        }
    } else {
        for i in 0..x.len() {
            if w[i] > 0.0 {
                let vi = v[i] * d + (dv + accel[i] * h);
                v[i] = vi;
                x[i] += vi * h;
            }
        }
    }
}

/// Places each pinned particle `index[k]` at `from[k] + (to[k] − from[k])·t`. Because its
/// previous position was on the same path, its velocity is the path's, never a spike
/// (the chapter's section 8 warning).
pub fn drive_pins(x: &mut [Vec3], index: &[u32], from: &[Vec3], to: &[Vec3], t: f32) {
    for k in 0..index.len() {
        x[index[k] as usize] = if t >= 1.0 { to[k] } else { from[k] + (to[k] - from[k]) * t };
    }
}
