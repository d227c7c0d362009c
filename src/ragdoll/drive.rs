//! Powered ragdolls: muscles (joint motors) that turn each joint towards the animation's
//! local rotation, and pins that pull each bone towards its animated world pose
//! (PuppetMaster's *muscle weight* and *pin weight*), both in the ragdoll's own substeps.
//!
//! **Targets.** The host gives the animated pose of every bone each frame
//! ([`super::Ragdoll::set_bone_target`], the same targets kinematic bones follow). Over the
//! frame's fixed steps a driven bone's target moves along the host's path (lerp and slerp,
//! carried on at its velocity while simulated time runs ahead), like a pin of a cloth.
//!
//! **Muscle** of bone `c` with parent `p`: the error is the rotation vector
//! `C = rotvec(R_c (R_p q_t)⁻¹)` (world), `q_t = R̂_p⁻¹ R̂_c` the animated local rotation. It
//! is an XPBD angular constraint on the two bodies with a compliance that makes it a spring
//! of natural frequency `f` (`muscle_frequency`, Hz) and damping ratio `ζ` whatever the
//! bones' inertias (Jolt's spring settings): with `W = J_p⁻¹ + J_c⁻¹` (world, 3 × 3; `J` a
//! body's inertia about the joint's anchor, which the joint holds: parallel axes), the
//! compliance `α = W/(s ω²)` (`ω = 2πf`, `s` the bone's strength 0–1: stiffness
//! `k = s ω² W⁻¹` in N·m/rad) and XPBD damping (Macklin et al. 2016, eq. 26) with
//! `γ = 2ζ/(√s ω h)`, the update of the relative rotation `Θ = W λ` is
//!
//! ```text
//!     ΔΘ = (−C − κ Θ − γ ΔC) / (1 + γ + κ),   κ = 1/(s ω² h²),   Δλ = W⁻¹ ΔΘ
//! ```
//!
//! with `ΔC` the change of the error over the substep (against the target's own motion, so
//! a target turning at constant speed is followed without lag). The torque `λ/h²` is held
//! to `muscle_max_torque` (N·m): a muscle weaker than the load it carries gives way.
//!
//! **Pin** of bone `b` (weight `w` 0–1, frequency `pin_frequency`, ratio `pin_damping_ratio`):
//! the same update on one body for its centre of mass and its orientation against the
//! animated body frame, with `κ = 1/(w ω² h²)`, `γ = 2ζ/(√w ω h)`; the correction of a
//! body-only row is the same for any mass and inertia (the compliance is proportional to the
//! inverse mass), so every bone follows its animation with the same acceleration per metre
//! of error, `w ω²` (1/s²). At weight 1 and the default 20 Hz a bone hangs `g/ω²` = 0.6 mm
//! under its animated pose against gravity.
//!
//! **Hits** weaken both for a while: an impulse `J` on bone `b` sets the *loss* of every
//! bone `d` joints away to `min(1, hit_strength_loss · |J|/hit_full_impulse ·
//! hit_neighbour_falloff^d)` (if larger than it was): a punch weakens the bone hit and a
//! little around it, a blow several times `hit_full_impulse` lets go of the whole body,
//! which then loses its balance. A loss falls back to 0 linearly over `hit_recovery_time` s.
//! Strength and pin weight act multiplied by `1 − loss`.
//!
//! **Balance**: when the root's centre of mass is farther than `balance_distance` (m) from
//! its animated position at the end of a step, the ragdoll goes limp (every strength and pin
//! weight set to 0) and reports [`BALANCE_LOST`]; the host starts its get-up from there.
//!
//! Muscles and pins run in every joint pass before the tree solve of the hard joint rows
//! (`super::run_step`); a ragdoll with no strength and no pin weight skips them entirely and
//! steps bit for bit as a plain ragdoll. Nothing here allocates.

use super::{Core, Frame};
use crate::math::{Mat3, Quat, Vec3};
use crate::solver::rigid::RigidBody;

/// Event bit: the ragdoll lost its balance and went limp.
pub const BALANCE_LOST: u32 = 1;

/// Accumulated corrections of one bone's drives in a substep: the muscle's multiplier `λ`
/// and relative rotation `Θ`, the pin's linear and angular corrections.
pub(crate) type DriveAcc = [Vec3; 4];

/// Rotation vector (world) taking `b` to `a`: `rotvec(a b⁻¹)`, the short way.
#[inline]
fn rotation_error(a: Quat, b: Quat) -> Vec3 {
    let mut d = a * b.inverse();
    if d.w < 0.0 {
        d = -d;
    }
    let v = Vec3::new(d.x, d.y, d.z);
    let s = v.length();
    if s < 1e-12 {
        return v * 2.0;
    }
    v * (2.0 * s.atan2(d.w) / s)
}

/// Inverse inertia (world) of a body turning about the point at world offset `r` from its
/// centre of mass (parallel axes: `I + m (|r|² 1 − r rᵀ)`); zero for a kinematic body.
#[inline]
fn pivot_inv_inertia(b: &RigidBody, r: Vec3) -> Mat3 {
    if b.inv_mass == 0.0 || b.inv_inertia.min_element() <= 0.0 {
        return Mat3::ZERO;
    }
    let rot = Mat3::from_quat(b.q);
    let inertia = rot * Mat3::from_diagonal(Vec3::ONE / b.inv_inertia) * rot.transpose();
    let m = 1.0 / b.inv_mass;
    let parallel = Mat3::from_diagonal(Vec3::splat(r.length_squared())) - Mat3::from_cols(r * r.x, r * r.y, r * r.z);
    (inertia + parallel * m).inverse()
}

/// The muscle and pin strength of every bone now, after hits: `(strength, pin weight)`.
#[inline]
pub(crate) fn effective(core: &Core, i: usize) -> (f32, f32) {
    let keep = 1.0 - core.hit_loss[i];
    (core.muscle[i] * keep, core.pin[i] * keep)
}

impl Core {
    /// The animated body frame of bone `i` at fraction `f` of the host frame's path.
    pub(super) fn drive_target(&self, i: usize, f: f32) -> Frame {
        let p = self.drive_from[i].lerp(&self.drive_to[i], f);
        let local = &self.body_in_bone[i];
        Frame { x: p.to_world(local.position), q: (p.rotation * local.rotation).normalize() }
    }

    /// One pass of every muscle and pin of this ragdoll's `bodies` in a substep of `h` s that
    /// runs from fraction `f0` to `f1` of the host frame's path.
    pub(crate) fn drive(&self, bodies: &mut [RigidBody], acc: &mut [DriveAcc], f0: f32, f1: f32, h: f32) {
        let s = &self.settings;
        let (wm, wp) = (std::f32::consts::TAU * s.muscle_frequency, std::f32::consts::TAU * s.pin_frequency);
        let max_lambda = s.muscle_max_torque * h * h;
        for i in 0..bodies.len() {
            let (strength, pin) = effective(self, i);
            let (at1, at0) = (self.drive_target(i, f1), self.drive_target(i, f0));
            let parent = self.parent[i];
            if strength > 0.0 && parent >= 0 && wm > 0.0 {
                let p = parent as usize;
                if !(self.kinematic[i] && self.kinematic[p]) {
                    let (pt1, pt0) = (self.drive_target(p, f1), self.drive_target(p, f0));
                    // Target of the child's body frame relative to its parent's body frame.
                    let rel1 = pt1.q.inverse() * at1.q;
                    let rel0 = pt0.q.inverse() * at0.q;
                    let (bp, bc) = (bodies[p], bodies[i]);
                    let c = rotation_error(bc.q, bp.q * rel1);
                    let c0 = rotation_error(bc.prev_q, bp.prev_q * rel0);
                    // Each body turning about the joint's anchor (the joint holds it there):
                    // exact for a fixed parent, the response the tree solve then gives.
                    let joint = &self.joints[i];
                    let w = pivot_inv_inertia(&bp, bp.q * joint.anchor_parent) + pivot_inv_inertia(&bc, bc.q * joint.anchor_child);
                    if w.determinant().abs() > 1e-12 * w.x_axis.length().powi(3) {
                        let kappa = 1.0 / (strength * wm * wm * h * h);
                        let gamma = 2.0 * s.muscle_damping_ratio / (strength.sqrt() * wm * h);
                        let a = &mut acc[i];
                        let d_theta = (-c - kappa * a[1] - gamma * (c - c0)) / (1.0 + gamma + kappa);
                        let mut lambda = a[0] + w.inverse() * d_theta;
                        if lambda.length() > max_lambda {
                            lambda *= max_lambda / lambda.length();
                        }
                        let dl = lambda - a[0];
                        a[0] = lambda;
                        a[1] += w * dl;
                        bodies[i].apply_angular(dl);
                        bodies[p].apply_angular(-dl);
                    }
                }
            }
            if pin > 0.0 && wp > 0.0 && !self.kinematic[i] {
                let kappa = 1.0 / (pin * wp * wp * h * h);
                let gamma = 2.0 * s.pin_damping_ratio / (pin.sqrt() * wp * h);
                let b = &mut bodies[i];
                let a = &mut acc[i];
                let (c, c0) = (b.x - at1.x, b.prev_x - at0.x);
                let dx = (-c - kappa * a[2] - gamma * (c - c0)) / (1.0 + gamma + kappa);
                a[2] += dx;
                b.x += dx;
                let (c, c0) = (rotation_error(b.q, at1.q), rotation_error(b.prev_q, at0.q));
                let dq = (-c - kappa * a[3] - gamma * (c - c0)) / (1.0 + gamma + kappa);
                a[3] += dq;
                b.rotate_by(dq);
            }
        }
    }
}

/// The host's side of a powered ragdoll.
impl super::Ragdoll {
    fn update_driven(&mut self) {
        let was = self.core.driven;
        self.core.driven = self.core.muscle.iter().chain(&self.core.pin).any(|&v| v > 0.0);
        if self.core.driven && !was {
            // Until the next host frame's path: the targets as they stand.
            self.core.drive_from.copy_from_slice(&self.core.target_to);
            self.core.drive_to.copy_from_slice(&self.core.target_to);
        }
        if self.core.driven != was {
            self.wake();
        }
    }

    /// Muscle strength (0–1) of `bone`'s joint motor, or of every bone with `None`. 0 (the
    /// default) is a limp joint; 1 turns it to the animated local rotation at the ragdoll's
    /// `muscle_frequency`.
    pub fn set_muscle_strength(&mut self, bone: Option<usize>, strength: f32) -> crate::error::Result<()> {
        if let Some(b) = bone {
            self.check_bone(b)?;
        }
        let s = crate::error::check_unit(strength, "muscle strength")?;
        match bone {
            Some(b) => self.core.muscle[b] = s,
            None => self.core.muscle.iter_mut().for_each(|m| *m = s),
        }
        self.update_driven();
        Ok(())
    }

    /// Pin weight (0–1) pulling `bone` (or every bone with `None`) towards its animated world
    /// pose: 0 (the default) free, 1 following the animation within millimetres.
    pub fn set_pin_weight(&mut self, bone: Option<usize>, weight: f32) -> crate::error::Result<()> {
        if let Some(b) = bone {
            self.check_bone(b)?;
        }
        let w = crate::error::check_unit(weight, "pin weight")?;
        match bone {
            Some(b) => self.core.pin[b] = w,
            None => self.core.pin.iter_mut().for_each(|p| *p = w),
        }
        self.update_driven();
        Ok(())
    }

    /// The host's muscle strength and pin weight of `bone` (as set; a balance loss sets both to 0).
    pub fn muscle_strength(&self, bone: usize) -> crate::error::Result<f32> {
        self.check_bone(bone)?;
        Ok(self.core.muscle[bone])
    }

    pub fn pin_weight(&self, bone: usize) -> crate::error::Result<f32> {
        self.check_bone(bone)?;
        Ok(self.core.pin[bone])
    }

    /// The strength and pin weight acting on `bone` now, after hits, and its hit loss (0–1).
    pub fn drive_state(&self, bone: usize) -> crate::error::Result<(f32, f32, f32)> {
        self.check_bone(bone)?;
        let (s, p) = effective(&self.core, bone);
        Ok((s, p, self.core.hit_loss[bone]))
    }

    /// Event bits since the last call ([`BALANCE_LOST`]), cleared.
    pub fn take_events(&mut self) -> u32 {
        std::mem::take(&mut self.events)
    }

    /// Joints between bones `a` and `b` along the tree (`usize::MAX` if in different trees).
    fn tree_distance(&self, a: usize, b: usize) -> usize {
        let parent = &self.core.parent;
        let mut x = a as i32;
        let mut da = 0;
        while x >= 0 {
            let mut y = b as i32;
            let mut db = 0;
            while y >= 0 {
                if x == y {
                    return da + db;
                }
                y = parent[y as usize];
                db += 1;
            }
            x = parent[x as usize];
            da += 1;
        }
        usize::MAX
    }

    /// An impulse of `j` N·s on `bone` weakens it and its neighbours (module docs, *Hits*).
    pub(crate) fn hit(&mut self, bone: usize, j: f32) {
        let s = self.core.settings;
        if !(j > 0.0) {
            return;
        }
        let scale = if s.hit_full_impulse > 0.0 { j / s.hit_full_impulse } else { f32::INFINITY };
        let loss = s.hit_strength_loss * scale;
        if !(loss > 0.0) {
            return;
        }
        for i in 0..self.bone_count() {
            let d = self.tree_distance(bone, i);
            if d == usize::MAX {
                continue;
            }
            let l = (loss * s.hit_neighbour_falloff.powi(d.min(64) as i32)).min(1.0);
            let h = &mut self.core.hit_loss[i];
            *h = h.max(l);
        }
    }

    /// After a fixed step of `dt` s: hit losses recover, balance is checked.
    pub(crate) fn end_step_drive(&mut self, p: &super::StepParams, dt: f32) {
        let s = self.core.settings;
        let fall = if s.hit_recovery_time > 0.0 { dt / s.hit_recovery_time } else { 1.0 };
        self.core.hit_loss.iter_mut().for_each(|l| *l = (*l - fall).max(0.0));
        if !self.core.driven || s.balance_distance <= 0.0 {
            return;
        }
        let root = 0;
        if self.core.kinematic[root] {
            return;
        }
        let target = self.core.drive_target(root, p.pin_t1);
        if (self.scratch.bodies[root].x - target.x).length() > s.balance_distance {
            self.core.muscle.iter_mut().for_each(|m| *m = 0.0);
            self.core.pin.iter_mut().for_each(|m| *m = 0.0);
            self.core.driven = false;
            self.events |= BALANCE_LOST;
        }
    }
}
