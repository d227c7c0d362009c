//! Rigid bodies by XPBD (Müller, Macklin, Chentanez, Jeschke, Kim 2020, "Detailed Rigid Body
//! Simulation with Extended Position Based Dynamics").
//!
//! State of a body: position `x` of its centre of mass, orientation `q` (unit quaternion,
//! body → world), velocity `v`, angular velocity `ω` (world), inverse mass `w = 1/m` and the
//! inverse of the principal inertia `I⁻¹ = diag(…)` in the body frame.
//!
//! A positional correction `Δx = λ·n` at world offsets `r₁, r₂` from the two centres (the
//! paper's eqs. 2–4): the generalised inverse masses `wᵢ = 1/mᵢ + (rᵢ × n)ᵀ Iᵢ⁻¹ (rᵢ × n)`,
//! the one Lagrange update `Δλ = (−c − α̃·λ) / (w₁ + w₂ + α̃)` with `α̃ = α/h²`, and the
//! body updates `x ± w·p`, `q ± ½ (I⁻¹ (r × p)) ⊗ q` with `p = Δλ·n`. An angular
//! correction (eqs. 5–7) turns by `Δλ` about axis `n` with `wᵢ = nᵀ Iᵢ⁻¹ n`.
//!
//! Kernels: [`integrate`] (prediction with the gyroscopic term, velocities from positions),
//! [`joint`] (fixed, hinge and swing-twist joints with limits, friction), [`tree`] (the direct
//! solve of a ragdoll's hard joint rows over its whole tree), [`mass`] (mass and
//! inertia from a shape), `contact` (bodies against shapes and each other).

pub mod contact;
pub mod contact_mesh;
pub mod contact_narrow;
pub mod integrate;
pub mod joint;
pub mod mass;
pub mod tree;

use crate::math::{Quat, Vec3};

/// One rigid body's state (kernels take slices of these).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RigidBody {
    /// Centre of mass (world, m).
    pub x: Vec3,
    /// Orientation, body → world.
    pub q: Quat,
    /// m/s.
    pub v: Vec3,
    /// rad/s, world.
    pub w: Vec3,
    /// State at the start of the substep.
    pub prev_x: Vec3,
    pub prev_q: Quat,
    /// Where the substep's prediction put the body, before any constraint moved it (set by
    /// `integrate`; `prev_*` for a body it does not move). `v`, `w` hold the predicted
    /// velocities until the velocities are derived (see `integrate`).
    pub pred_x: Vec3,
    pub pred_q: Quat,
    /// 1/kg; 0 for a kinematic or static body.
    pub inv_mass: f32,
    /// Inverse principal moments (1/(kg·m²)), body frame; zero for a kinematic body.
    pub inv_inertia: Vec3,
}

impl RigidBody {
    pub fn new(x: Vec3, q: Quat, mass: f32, inertia: Vec3) -> RigidBody {
        let inv = |m: f32| if m > 0.0 { 1.0 / m } else { 0.0 };
        RigidBody {
            x,
            q,
            v: Vec3::ZERO,
            w: Vec3::ZERO,
            prev_x: x,
            prev_q: q,
            pred_x: x,
            pred_q: q,
            inv_mass: inv(mass),
            inv_inertia: Vec3::new(inv(inertia.x), inv(inertia.y), inv(inertia.z)),
        }
    }

    /// `I⁻¹·v` for a world vector `v`.
    #[inline]
    pub fn inv_inertia_world(&self, v: Vec3) -> Vec3 {
        self.q * (self.inv_inertia * (self.q.inverse() * v))
    }

    /// Generalised inverse mass for a positional correction along unit `n` at world offset `r`.
    #[inline]
    pub fn positional_weight(&self, r: Vec3, n: Vec3) -> f32 {
        let rn = r.cross(n);
        self.inv_mass + rn.dot(self.inv_inertia_world(rn))
    }

    /// Generalised inverse mass for an angular correction about unit `n`.
    #[inline]
    pub fn angular_weight(&self, n: Vec3) -> f32 {
        n.dot(self.inv_inertia_world(n))
    }

    /// Applies positional impulse `p` (kg·m) at world offset `r` (sign included).
    #[inline]
    pub fn apply_positional(&mut self, p: Vec3, r: Vec3) {
        self.x += p * self.inv_mass;
        self.rotate_by(self.inv_inertia_world(r.cross(p)));
    }

    /// Applies angular impulse `p` (kg·m²·rad): turns by `I⁻¹·p`.
    #[inline]
    pub fn apply_angular(&mut self, p: Vec3) {
        self.rotate_by(self.inv_inertia_world(p));
    }

    /// `q ← normalize(q + ½ (θ, 0) ⊗ q)` for a small world rotation vector `θ`.
    #[inline]
    pub fn rotate_by(&mut self, theta: Vec3) {
        let dq = Quat::from_xyzw(theta.x, theta.y, theta.z, 0.0) * self.q;
        self.q = Quat::from_xyzw(
            self.q.x + 0.5 * dq.x,
            self.q.y + 0.5 * dq.y,
            self.q.z + 0.5 * dq.z,
            self.q.w + 0.5 * dq.w,
        )
        .normalize();
    }

    /// Velocity of the body's material point at world offset `r` from its centre.
    #[inline]
    pub fn point_velocity(&self, r: Vec3) -> Vec3 {
        self.v + self.w.cross(r)
    }
}

/// One positional XPBD update between `a` and (optionally) `b`: moves the points at world
/// offsets `ra`, `rb` so that the constraint `c` along unit `n` (from b's point to a's) goes
/// to zero with compliance `alpha` (m/N) in a substep of `h` s; `lambda` accumulates the
/// multiplier over the substep. Returns `Δλ`.
#[inline]
#[allow(clippy::too_many_arguments)]
pub fn positional(a: &mut RigidBody, b: Option<&mut RigidBody>, ra: Vec3, rb: Vec3, n: Vec3, c: f32, alpha: f32, lambda: &mut f32, h: f32) -> f32 {
    let wa = a.positional_weight(ra, n);
    let wb = b.as_ref().map_or(0.0, |b| b.positional_weight(rb, n));
    let at = alpha / (h * h);
    let den = wa + wb + at;
    if den <= crate::math::WEIGHT_EPSILON {
        return 0.0;
    }
    let dl = (-c - at * *lambda) / den;
    *lambda += dl;
    let p = n * dl;
    a.apply_positional(p, ra);
    if let Some(b) = b {
        b.apply_positional(-p, rb);
    }
    dl
}

/// One angular XPBD update: turns `a` (and `b` the other way) about unit `n` to remove the
/// angle `c` (rad) with compliance `alpha` (rad/(N·m)); returns `Δλ`.
#[inline]
#[allow(clippy::too_many_arguments)]
pub fn angular(a: &mut RigidBody, b: Option<&mut RigidBody>, n: Vec3, c: f32, alpha: f32, lambda: &mut f32, h: f32) -> f32 {
    let wa = a.angular_weight(n);
    let wb = b.as_ref().map_or(0.0, |b| b.angular_weight(n));
    let at = alpha / (h * h);
    let den = wa + wb + at;
    if den <= crate::math::WEIGHT_EPSILON {
        return 0.0;
    }
    let dl = (-c - at * *lambda) / den;
    *lambda += dl;
    let p = n * dl;
    a.apply_angular(p);
    if let Some(b) = b {
        b.apply_angular(-p);
    }
    dl
}
