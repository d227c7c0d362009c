//! Integration of rigid bodies over one substep, and their velocities from positions
//! (Müller et al. 2020, Algorithm 2, lines 3–8 and 11–15).
//!
//! Linear: `v ← (v + h·(g + F/m)) / (1 + h·d)`, `x_prev ← x`, `x ← x + h·v` (`d` a damping
//! rate in 1/s: about `1 − d` of the speed is left after a second; the implicit form is stable
//! for any `d ≥ 0`).
//!
//! Angular, with the gyroscopic term. The paper's explicit update
//! `ω ← ω + h I⁻¹(τ − ω × (Iω))` gains energy at every step (a free box spinning at 2 rad/s
//! gains 0.5 % in 10 s at h = 1/480 s, and its angular momentum turns by 0.3 %) and blows up
//! for thin limbs spun fast. Instead the angular momentum is kept exactly. The state `ω` is
//! the rate the orientation turned at over the last substep (the velocity pass derives it
//! from `Δq`), so it belongs to the substep's midpoint: `L = I(q_{−½}) ω` with `q_{−½}` the
//! orientation half a turn `hω/2` back. Since a rotation about ω leaves ω fixed,
//! `I(q_{−½}) ω = R(−hω/2) I(q) ω`. The new rate ω⁺ solves the implicit equation
//!
//! ```text
//!     R(+hω⁺/2) · I(q) · ω⁺ = L + h·τ          (L at the new midpoint = L at the old + h·τ)
//! ```
//!
//! by two Newton steps in the body frame (Jacobian `I − (h/2)[L]×`, exact residual): exact
//! conservation of `L` when τ = 0, time-symmetric (so no energy drift: the energy of the same
//! box stays within 1e-6), and unconditionally convergent for the spins a ragdoll meets.
//! [`end_angular_velocity`] gives the rate at the substep's end that this momentum implies,
//! `I(q)⁻¹ · L`, which is what readback reports.
//!
//! Orientation: `q ← normalize(q + h/2 (ω, 0) ⊗ q)`. Velocities from positions: with
//! `Δq = q · q_prev⁻¹` sign-fixed to `Δq.w ≥ 0`, `v = (x − x_prev)/h` and
//! `ω = 2 vec(Δq) / (h · Δq.w)` — the exact inverse of the orientation update (the paper's
//! `2 vec(Δq)/h` shrinks ω by `1/√(1 + h²ω²/4)` at every substep, 0.25 % over 10 s at 2 rad/s).
//!
//! **Round-off.** Computed that way, ω is a difference of two nearly equal unit quaternions:
//! `vec(Δq) ≈ hω/2` (3e-3 at 3 rad/s and h = 1/480 s) carries the quaternions' absolute
//! round-off (6e-8), a relative error of 2e-5 in ω at *every* substep — a random walk of the
//! angular momentum that reached 2.2e-3 in 10 s (4800 substeps) for a free box. So the
//! velocities are derived as the predicted ones plus what the constraints changed:
//! `v = v̂ + (x − x̂)/h`, and ω from `Δq = Δc ⊗ Δp` with `Δp = (hω̂/2, 1)` the prediction's
//! turn (known to full relative precision) and `Δc = q · q̂⁻¹` the constraints' (`x̂`, `q̂` the
//! predicted pose). It is the same formula in exact arithmetic; where no constraint acted the
//! velocities are the predicted ones bit for bit, and where one acted the round-off is that
//! of the correction, not of the whole turn. The free box then keeps L within ~1e-5 over 10 s
//! (two quaternion products more per body and substep where a constraint acted).

use super::RigidBody;
use crate::math::{Mat3, Quat, Vec3};

/// `v` turned about `w` by half of the turn `normalize(1 + (sign·hω/2, 0))` the orientation
/// update applies (angle `atan(h|ω|/2)`), by Rodrigues' formula with `cos`, `sin` from
/// `t = h|ω|/2` (`1/√(1+t²)`, `t/√(1+t²)`): a rotation whose scale is 1 to round-off whatever
/// the quaternions' norms.
#[inline]
fn half_turn(w: Vec3, h: f32, sign: f32, v: Vec3) -> Vec3 {
    let len = w.length();
    if len < 1e-20 {
        return v;
    }
    let k = w / len;
    let t = 0.5 * h * len;
    let c = 1.0 / (1.0 + t * t).sqrt();
    let sn = t * c * sign;
    v * c + k.cross(v) * sn + k * (k.dot(v) * (1.0 - c))
}

/// Rotation matrix of `q` normalised in f64: the turns to the body frame and back then cancel
/// to round-off. With `q * v` and `q.inverse() * v` (glam's formulas, exact only for a unit
/// quaternion) the pair scales by `|q|⁴`, and `q`'s norm after each update's normalisation
/// is off by a few 1e-8 with a bias: the angular momentum grew by 1e-4 in 480 substeps.
#[inline]
fn unit_rotation(q: Quat) -> Mat3 {
    Mat3::from_quat(q.as_dquat().normalize().as_quat())
}

/// Angular momentum (world, kg·m²/s) at the midpoint of the last substep: `R(−hω/2) I(q) ω`.
#[inline]
pub fn midpoint_momentum(b: &RigidBody, h: f32) -> Vec3 {
    if b.inv_inertia == Vec3::ZERO {
        return Vec3::ZERO;
    }
    let inertia = inertia_of(b);
    let r = unit_rotation(b.q);
    let iw = r * (inertia * (r.transpose() * b.w));
    half_turn(b.w, h, -1.0, iw)
}

/// Principal moments from the inverse ones (0 stays 0).
#[inline]
fn inertia_of(b: &RigidBody) -> Vec3 {
    let inv = |x: f32| if x > 0.0 { 1.0 / x } else { 0.0 };
    Vec3::new(inv(b.inv_inertia.x), inv(b.inv_inertia.y), inv(b.inv_inertia.z))
}

/// The angular velocity at the end of the last substep that its momentum implies.
#[inline]
pub fn end_angular_velocity(b: &RigidBody, h: f32) -> Vec3 {
    if b.inv_inertia == Vec3::ZERO || h <= 0.0 {
        return b.w;
    }
    b.inv_inertia_world(midpoint_momentum(b, h))
}

/// Solves `R(+hω/2) I ω = L` for ω (body frame, `inertia` the principal moments) by Newton
/// steps from `guess`.
#[inline]
fn solve_rate(inertia: Vec3, l: Vec3, guess: Vec3, h: f32) -> Vec3 {
    let mut w = guess;
    // Jacobian of g(ω) = I ω − R(−hω/2) L ≈ I ω − L + (h/2) ω × L: I − (h/2)[L]×.
    let lx = Mat3::from_cols(Vec3::new(0.0, l.z, -l.y), Vec3::new(-l.z, 0.0, l.x), Vec3::new(l.y, -l.x, 0.0));
    let j = Mat3::from_diagonal(inertia) - lx * (0.5 * h);
    let Some(jinv) = (j.determinant().abs() > 1e-30).then(|| j.inverse()) else {
        return guess;
    };
    for _ in 0..2 {
        let g = inertia * w - half_turn(w, h, -1.0, l);
        w -= jinv * g;
    }
    w
}

/// Predicts every dynamic body (inverse mass > 0) over a substep of `h` s: gravity `g`, the
/// per-body force and torque (`forces[i] = (F, τ)`, world; empty for none), damping rates
/// `linear_damping` / `angular_damping` (1/s). Bodies with inverse mass 0 are left alone.
pub fn integrate(bodies: &mut [RigidBody], forces: &[(Vec3, Vec3)], g: Vec3, linear_damping: f32, angular_damping: f32, h: f32) {
    predict(bodies, forces, g, linear_damping, angular_damping, h, |b, tau| {
        let l = midpoint_momentum(b, h) + tau * h;
        let inertia = inertia_of(b);
        let r = unit_rotation(b.q);
        let rt = r.transpose();
        let w_body = solve_rate(inertia, rt * l, rt * b.w, h);
        r * w_body
    });
}

/// [`integrate`] for the fast ragdoll pipeline: the same equations, with the rotation
/// matrix taken in f32 (no f64 renormalisation) and one Newton step of the implicit
/// angular update from the last rate (the rate changes little in a substep: the second step
/// of [`integrate`] corrects the square of that change).
pub fn integrate_fast(bodies: &mut [RigidBody], forces: &[(Vec3, Vec3)], g: Vec3, linear_damping: f32, angular_damping: f32, h: f32) {
    predict(bodies, forces, g, linear_damping, angular_damping, h, |b, tau| {
        let inertia = inertia_of(b);
        let r = Mat3::from_quat(b.q);
        let rt = r.transpose();
        let wb = rt * b.w;
        // Body-frame momentum at the new midpoint: R(−hω/2) I ω + h τ (a turn about ω is the
        // same in either frame).
        let l = half_turn(wb, h, -1.0, inertia * wb) + rt * (tau * h);
        let lx = Mat3::from_cols(Vec3::new(0.0, l.z, -l.y), Vec3::new(-l.z, 0.0, l.x), Vec3::new(l.y, -l.x, 0.0));
        let j = Mat3::from_diagonal(inertia) - lx * (0.5 * h);
        let det = j.determinant();
        let w_body = if det.abs() > 1e-30 { wb - j.inverse() * (inertia * wb - half_turn(wb, h, -1.0, l)) } else { wb };
        r * w_body
    });
}

/// The prediction both integrators share: linear motion, then the new angular rate from
/// `rate(body, τ)` (world, before damping) for a body that turns, then the orientation.
fn predict(bodies: &mut [RigidBody], forces: &[(Vec3, Vec3)], g: Vec3, linear_damping: f32, angular_damping: f32, h: f32, rate: impl Fn(&RigidBody, Vec3) -> Vec3) {
    for (i, b) in bodies.iter_mut().enumerate() {
        b.prev_x = b.x;
        b.prev_q = b.q;
        if b.inv_mass == 0.0 {
            // Not predicted: its velocity over the substep is all in where it is put.
            (b.pred_x, b.pred_q, b.v, b.w) = (b.x, b.q, Vec3::ZERO, Vec3::ZERO);
            continue;
        }
        let (f, tau) = forces.get(i).copied().unwrap_or((Vec3::ZERO, Vec3::ZERO));
        b.v = (b.v + (g + f * b.inv_mass) * h) / (1.0 + h * linear_damping);
        b.x += b.v * h;
        if b.inv_inertia != Vec3::ZERO {
            b.w = rate(b, tau) / (1.0 + h * angular_damping);
        }
        b.rotate_by(b.w * h);
        (b.pred_x, b.pred_q) = (b.x, b.q);
    }
}

/// Velocities from positions after the constraints (see the module's notes): the predicted
/// velocity plus what the constraints moved since the prediction,
/// `v = v̂ + (x − x̂)/h` and `ω` the rate of `Δc ⊗ Δp` (`Δc = q·q̂⁻¹` the constraints' turn,
/// `Δp = (hω̂/2, 1)` the prediction's) — in exact arithmetic the same as `(x − x_prev)/h` and
/// `rate_between(q_prev, q)`, but without their cancellation: an unconstrained body keeps its
/// predicted velocities bit for bit. (`v`, `w` must still hold the predicted velocities, and
/// the predicted pose `pred_x`, `pred_q`, as `integrate` leaves them; a body moved onto a path
/// after `integrate` has zero predicted velocities and `pred_* = prev_*`.)
pub fn velocities_from_positions(bodies: &mut [RigidBody], h: f32) {
    let inv_h = 1.0 / h;
    for b in bodies.iter_mut() {
        if b.x != b.pred_x {
            b.v += (b.x - b.pred_x) * inv_h;
        }
        if b.q != b.pred_q {
            let v = b.w * (0.5 * h);
            let mut dq = (b.q * b.pred_q.inverse()) * Quat::from_xyzw(v.x, v.y, v.z, 1.0);
            if dq.w < 0.0 {
                dq = -dq;
            }
            let w = dq.w.max(1e-3);
            b.w = Vec3::new(dq.x, dq.y, dq.z) * (2.0 / (h * w));
        }
    }
}

/// The angular velocity (world) that turns `from` into `to` in `h` s by the orientation update.
#[inline]
pub fn rate_between(from: Quat, to: Quat, h: f32) -> Vec3 {
    let mut dq = to * from.inverse();
    if dq.w < 0.0 {
        dq = -dq;
    }
    // Δq.w ≥ cos(90°) for any turn below π; a turn of π in one substep is beyond the model.
    let w = dq.w.max(1e-3);
    Vec3::new(dq.x, dq.y, dq.z) * (2.0 / (h * w))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rate_round_trips_through_the_orientation_update() {
        let mut b = RigidBody::new(Vec3::ZERO, Quat::from_rotation_x(0.4), 1.0, Vec3::ONE);
        let w = Vec3::new(3.0, -20.0, 7.0);
        let h = 1.0 / 480.0;
        let q0 = b.q;
        b.rotate_by(w * h);
        assert!((rate_between(q0, b.q, h) - w).length() < 1e-3 * w.length());
    }

    #[test]
    fn free_spin_keeps_momentum_in_one_substep_chain() {
        let mut b = [RigidBody::new(Vec3::ZERO, Quat::IDENTITY, 1.0, Vec3::new(1.0, 2.0, 3.0))];
        b[0].w = Vec3::new(0.1, 2.0, 0.1);
        let h = 1.0 / 480.0;
        let l0 = midpoint_momentum(&b[0], h);
        for _ in 0..480 {
            integrate(&mut b, &[], Vec3::ZERO, 0.0, 0.0, h);
            velocities_from_positions(&mut b, h);
        }
        let l1 = midpoint_momentum(&b[0], h);
        assert!((l1 - l0).length() < 1e-4 * l0.length(), "{l0} → {l1}");
    }
}
