//! Joints between rigid bodies by XPBD (Müller et al. 2020, §3.3–3.4 and Algorithm 3).
//!
//! A joint joins a child body to its parent. Its frame is fixed in each: anchors `r_c`, `r_p`
//! and rotations `F_c`, `F_p` (body frame → joint frame, whose X is the hinge or twist axis,
//! Y the swing-1 axis and Z = X × Y the swing-2 axis). Both sides are taken from the bind
//! pose, so the bind pose violates nothing and has every angle zero. The relative rotation
//! is `q_rel = (q_p F_p)⁻¹ (q_c F_c)`, the child's joint frame seen from the parent's.
//!
//! The hard rows of a joint (built by `hard_rows`; `super::tree` solves every joint's rows of
//! a ragdoll together):
//!
//! - 3 positional rows: the anchors' separation `d = p_c − p_p` along world X, Y, Z;
//! - the orientation rows. Fixed: the rotation vector of `(q_c F_c)(q_p F_p)⁻¹` on world X,
//!   Y, Z. Hinge: the turn taking the child's axis `a_c` onto the parent's `a_p` (angle
//!   `atan2(|a_p × a_c|, a_p·a_c)` about `a_p × a_c`) on the parent's two axes ⊥ `a_p`;
//! - the violated hard limits, as inequality rows. Hinge: the angle about the axis
//!   `θ = 2 atan2(q_rel.x, q_rel.w)` beyond `[min, max]` (positive when the child turns about
//!   `axis` by `Quat::from_axis_angle(axis, θ)` from its parent — the numbers of Unity's
//!   `HingeJoint.angle` for the same quaternions), about `a_c`. Swing-twist:
//!   `q_rel = swing · twist` with `twist` about X; the swing's rotation vector `(φ_y, φ_z)`
//!   outside the ellipse `(φ_y/swing1)² + (φ_z/swing2)² ≤ 1` by its radial excess (a cone
//!   whose half-angle is under 0.1° on one axis is a box clamp on each, so a 0 locks that
//!   axis), and the twist `2 atan2(x, w)` beyond `[low_twist, high_twist]` about the child's
//!   axis.
//!
//! With row Jacobians `J` (a positional row along `e` at offsets `r`: linear `±e`, angular
//! `±r × e`; an angular row about `n`: `±n`) and the bodies' inverse masses and world inverse
//! inertias `M⁻¹`, the multipliers solve `(J M⁻¹ Jᵀ) λ = −C` and the bodies move by
//! `M⁻¹ Jᵀ λ` — the paper's updates (eqs. 2–7) for all rows at once. Solving the rows one
//! after another (angular, then limits, then position) undid each other: for a capsule on a
//! pivot 80 % of the positional correction is a turn, which re-opened the limit just closed,
//! and one pass per substep left 0.035 rad (hinge) and 0.05 rad (cone) of violation at an
//! impact. A limit row is an inequality: if its `λ` would pull the bone into the limit, the
//! row is dropped and the system solved again (at most once). Solving each joint's rows as
//! one block, joint after joint (Gauss–Seidel across joints), did not converge along chains:
//! 9.4e-2 of the link length at a 1:100 mass ratio in `tests/ragdoll_physics.rs`'s chain,
//! hence the direct tree solve over all joints (`super::tree`).
//!
//! **Soft limits** (solved after, on their own, not in the block): a limit spring `k` (N·m/rad) is the compliance `α = 1/k`, and a damper
//! `b` (N·m·s/rad) enters as XPBD damping (Macklin et al. 2016, eq. 26):
//! `Δλ = (−C − α̃λ − γ·ΔC) / ((1 + γ) w + α̃)` with `α̃ = α/h²`, `γ = α·b/h` and `ΔC` the
//! change of the violation over the substep. `k = 0` is a hard limit (the damper unused).
//!
//! **Joint friction** (N·m), after the velocity pass: the relative angular velocity (about the
//! hinge axis for a hinge) is removed by an angular impulse of at most `friction · h`.
//!
//! Multipliers `λ` live for one substep; the caller zeroes them before its passes. Several
//! passes per substep (`iterations`) converge long chains and big mass ratios; the world's
//! `iterations` setting gives them.

use super::contact::{push_positional, push_velocity, weight};
use super::{RigidBody, angular};
use crate::math::{Mat3, Quat, Vec3};

/// Below this a cone half-angle (rad) counts as locked (box clamp).
const LOCKED: f32 = 1.0e-3;

/// What a joint constrains, angles in radians.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum JointLimits {
    /// Nothing (a free body listed among jointed ones).
    Free,
    Fixed,
    Hinge { min: f32, max: f32 },
    SwingTwist { swing1: f32, swing2: f32, low_twist: f32, high_twist: f32 },
}

/// A joint between `parent < child` (indices into the body slice).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Joint {
    pub parent: u32,
    pub child: u32,
    pub limits: JointLimits,
    /// Anchors in each body's frame (m).
    pub anchor_child: Vec3,
    pub anchor_parent: Vec3,
    /// Body frame → joint frame (X axis, Y swing-1, Z swing-2), in each body.
    pub frame_child: Quat,
    pub frame_parent: Quat,
    /// Limit compliance `1/k` (rad/(N·m)), 0 for hard limits; damper (N·m·s/rad).
    pub limit_compliance: f32,
    pub limit_damper: f32,
    /// Friction torque (N·m).
    pub friction: f32,
    /// The fast pass's cheap limit test ([`Joint::limit_test`]): cos and sin of half the
    /// lower and upper twist (hinge) limits, and the squared sine of half the smaller swing
    /// limit.
    pub(crate) limit_test: [f32; 5],
}

/// How far a joint is from satisfied.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct JointError {
    /// Distance between the two anchors (m).
    pub separation: f32,
    /// Largest angle (rad) by which the orientation leaves what the joint allows: the limits,
    /// the hinge's axis alignment, a fixed joint's whole rotation.
    pub angle: f32,
}

/// The angles of a joint's relative rotation (rad).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct JointAngles {
    /// Twist about the axis (a hinge's angle).
    pub twist: f32,
    /// Swing rotation vector components about swing-1 and swing-2.
    pub swing1: f32,
    pub swing2: f32,
}

/// Two bodies of a slice, `p < c`.
#[inline]
fn pair_mut(bodies: &mut [RigidBody], p: usize, c: usize) -> (&mut RigidBody, &mut RigidBody) {
    debug_assert!(p < c);
    let (lo, hi) = bodies.split_at_mut(c);
    (&mut lo[p], &mut hi[0])
}

/// Angle and unit axis of a rotation (sign-fixed to the short way).
#[inline]
fn rotation_vector(q: Quat) -> (f32, Vec3) {
    let q = if q.w < 0.0 { -q } else { q };
    let v = Vec3::new(q.x, q.y, q.z);
    let s = v.length();
    if s < 1e-9 {
        return (0.0, Vec3::X);
    }
    (2.0 * s.atan2(q.w), v / s)
}

/// A hinge's misalignment: `a_p × a_c` of the two frames' axes (X), its length `sin θ`, and
/// the angle `θ` between the axes.
#[inline]
fn misalignment(qp: Quat, qc: Quat) -> (Vec3, f32, f32) {
    let (ap, ac) = (qp * Vec3::X, qc * Vec3::X);
    let cr = ap.cross(ac);
    let s = cr.length();
    (cr, s, s.atan2(ap.dot(ac)))
}

impl Joint {
    /// `limit_test` for this joint's limits; call once the limits are set.
    pub fn with_limit_test(mut self) -> Joint {
        let half = |a: f32| {
            let h = (0.5 * a).clamp(-1.5, 1.5);
            (h.cos(), h.sin())
        };
        let ((cl, sl), (ch, sh), swing) = match self.limits {
            JointLimits::Hinge { min, max } => (half(min), half(max), 0.0),
            JointLimits::SwingTwist { swing1, swing2, low_twist, high_twist } => {
                let s = (0.5 * swing1.min(swing2)).clamp(0.0, 1.5).sin();
                (half(low_twist), half(high_twist), s * s)
            }
            _ => ((1.0, 0.0), (1.0, 0.0), 0.0),
        };
        self.limit_test = [cl, sl, ch, sh, swing];
        self
    }

    /// Whether a limit may be reached, by a test on the relative rotation's components that
    /// takes no angle: the twist `θ = 2 atan2(x, w)` (`w ≥ 0`) is beyond `[lo, hi]` exactly
    /// when `x cos(lo/2) − w sin(lo/2) < 0` or `x cos(hi/2) − w sin(hi/2) > 0`, and the swing
    /// angle `φ` (with `sin(φ/2) = √(y² + z²)`, whatever the twist) can leave its ellipse only
    /// beyond the smaller half-axis. A false `true` costs the exact test, never a limit.
    #[inline]
    fn may_reach_limit(&self, qp: Quat, qc: Quat) -> bool {
        let mut rel = qp.inverse() * qc;
        if rel.w < 0.0 {
            rel = -rel;
        }
        let [cl, sl, ch, sh, swing] = self.limit_test;
        let twist = rel.x * cl - rel.w * sl < 0.0 || rel.x * ch - rel.w * sh > 0.0;
        match self.limits {
            JointLimits::Hinge { .. } => twist,
            JointLimits::SwingTwist { .. } => twist || rel.y * rel.y + rel.z * rel.z >= swing,
            _ => false,
        }
    }

    #[inline]
    fn frames(&self, parent: &RigidBody, child: &RigidBody) -> (Quat, Quat) {
        (parent.q * self.frame_parent, child.q * self.frame_child)
    }

    /// Twist and swing of `q_rel`.
    #[inline]
    fn decompose(qp: Quat, qc: Quat) -> (f32, Vec3, f32) {
        let mut rel = qp.inverse() * qc;
        if rel.w < 0.0 {
            rel = -rel;
        }
        let tl = (rel.x * rel.x + rel.w * rel.w).sqrt();
        let twist = if tl > 1e-9 { Quat::from_xyzw(rel.x / tl, 0.0, 0.0, rel.w / tl) } else { Quat::IDENTITY };
        let twist_angle = 2.0 * twist.x.atan2(twist.w);
        let mut swing = rel * twist.inverse();
        if swing.w < 0.0 {
            swing = -swing;
        }
        let sv = Vec3::new(0.0, swing.y, swing.z);
        let s = sv.length();
        let (dir, phi) = if s > 1e-9 { (sv / s, 2.0 * s.atan2(swing.w)) } else { (Vec3::Y, 0.0) };
        (twist_angle, dir, phi)
    }

    /// The joint's angles now.
    pub fn angles(&self, bodies: &[RigidBody]) -> JointAngles {
        let (p, c) = (&bodies[self.parent as usize], &bodies[self.child as usize]);
        let (qp, qc) = self.frames(p, c);
        let (twist, dir, phi) = Self::decompose(qp, qc);
        JointAngles { twist, swing1: phi * dir.y, swing2: phi * dir.z }
    }

    /// Anchor separation and angular violation now.
    pub fn error(&self, bodies: &[RigidBody]) -> JointError {
        let (p, c) = (&bodies[self.parent as usize], &bodies[self.child as usize]);
        let separation = ((p.x + p.q * self.anchor_parent) - (c.x + c.q * self.anchor_child)).length();
        let (qp, qc) = self.frames(p, c);
        let over = |v: f32, lo: f32, hi: f32| (lo - v).max(v - hi).max(0.0);
        let angle = match self.limits {
            JointLimits::Free => 0.0,
            JointLimits::Fixed => rotation_vector(qc * qp.inverse()).0,
            JointLimits::Hinge { min, max } => {
                let (_, _, align) = misalignment(qp, qc);
                let (twist, _, _) = Self::decompose(qp, qc);
                align.max(over(twist, min, max))
            }
            JointLimits::SwingTwist { swing1, swing2, low_twist, high_twist } => {
                let (twist, dir, phi) = Self::decompose(qp, qc);
                let (fy, fz) = (phi * dir.y, phi * dir.z);
                let swing_over = if swing1 > LOCKED && swing2 > LOCKED {
                    let e = ((fy / swing1).powi(2) + (fz / swing2).powi(2)).sqrt();
                    if e > 1.0 { phi * (1.0 - 1.0 / e) } else { 0.0 }
                } else {
                    over(fy, -swing1, swing1).max(over(fz, -swing2, swing2))
                };
                swing_over.max(over(twist, low_twist, high_twist))
            }
        };
        JointError { separation, angle }
    }
}

/// A limit's angular update: hard (`α = 0`) or soft with damping (see the module's notes).
/// `c` is the violation now, `c_start` the same quantity at the substep's start.
#[allow(clippy::too_many_arguments)]
#[inline]
fn limit_update(p: &mut RigidBody, c_body: &mut RigidBody, n: Vec3, c: f32, c_start: f32, joint: &Joint, lambda: &mut f32, h: f32) {
    if joint.limit_compliance == 0.0 {
        angular(c_body, Some(p), n, c, 0.0, lambda, h);
        return;
    }
    let wa = c_body.angular_weight(n);
    let wb = p.angular_weight(n);
    let at = joint.limit_compliance / (h * h);
    let gamma = joint.limit_compliance * joint.limit_damper / h;
    let den = (1.0 + gamma) * (wa + wb) + at;
    if den <= crate::math::WEIGHT_EPSILON {
        return;
    }
    let dl = (-c - at * *lambda - gamma * (c - c_start)) / den;
    *lambda += dl;
    c_body.apply_angular(n * dl);
    p.apply_angular(-n * dl);
}

/// A joint's hard rows at the current pose, as the tree solve takes them:
/// anchor offsets `rp`, `rc` (world), the anchors' separation `d = p_c − p_p`, and up to
/// three angular rows `(world axis n, violation, inequality)`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct HardRows {
    pub rp: Vec3,
    pub rc: Vec3,
    pub d: Vec3,
    pub rows: [(Vec3, f32, bool); 3],
    pub nr: usize,
}

/// Builds joint `joint`'s hard rows on `p`, `c` now. With `soft`, a violated soft limit is
/// solved on the spot (before the positional rows are taken); without, soft limits are left
/// alone.
pub(crate) fn hard_rows(joint: &Joint, p: &mut RigidBody, c: &mut RigidBody, lam: &mut [f32; 4], h: f32, soft: bool) -> HardRows {
    let hard = joint.limit_compliance == 0.0;
    // Angular rows (world axis, violation, inequality) of the block.
    let mut rows = [(Vec3::ZERO, 0.0f32, false); 3];
    let mut nr = 0;
    let (qp, qc) = joint.frames(p, c);
    match joint.limits {
        JointLimits::Free => {}
        JointLimits::Fixed => {
            let (angle, axis) = rotation_vector(qc * qp.inverse());
            let v = axis * angle;
            for (k, e) in Vec3::AXES.iter().enumerate() {
                rows[k] = (*e, v.dot(*e), false);
            }
            nr = 3;
        }
        JointLimits::Hinge { min, max } => {
            let ac = qc * Vec3::X;
            let (cr, s, angle) = misalignment(qp, qc);
            // The turn taking a_c onto a_p, as a rotation vector on two axes ⊥ a_p.
            let v = if s > 1e-9 { cr * (angle / s) } else { Vec3::ZERO };
            let (b1, b2) = (qp * Vec3::Y, qp * Vec3::Z);
            rows[0] = (b1, v.dot(b1), false);
            rows[1] = (b2, v.dot(b2), false);
            nr = 2;
            let (theta, _, _) = Joint::decompose(qp, qc);
            let viol = if theta < min { theta - min } else if theta > max { theta - max } else { 0.0 };
            if viol != 0.0 {
                if hard {
                    rows[2] = (ac, viol, true);
                    nr = 3;
                } else if soft {
                    let (qp0, qc0) = (p.prev_q * joint.frame_parent, c.prev_q * joint.frame_child);
                    let (theta0, _, _) = Joint::decompose(qp0, qc0);
                    let v0 = if theta < min { theta0 - min } else { theta0 - max };
                    limit_update(p, c, ac, viol, v0, joint, &mut lam[1], h);
                }
            }
        }
        JointLimits::SwingTwist { swing1, swing2, low_twist, high_twist } => {
            let (twist, dir, phi) = Joint::decompose(qp, qc);
            let (fy, fz) = (phi * dir.y, phi * dir.z);
            let target = if swing1 > LOCKED && swing2 > LOCKED {
                let e = ((fy / swing1).powi(2) + (fz / swing2).powi(2)).sqrt();
                if e > 1.0 { Some((fy / e, fz / e)) } else { None }
            } else {
                let (ty, tz) = (fy.clamp(-swing1, swing1), fz.clamp(-swing2, swing2));
                (ty != fy || tz != fz).then_some((ty, tz))
            };
            let twist_viol = if twist < low_twist {
                twist - low_twist
            } else if twist > high_twist {
                twist - high_twist
            } else {
                0.0
            };
            let (pq0, cq0) = (p.prev_q, c.prev_q);
            let start = || Joint::decompose(pq0 * joint.frame_parent, cq0 * joint.frame_child);
            if let Some((ty, tz)) = target {
                let excess = Vec3::new(0.0, fy - ty, fz - tz);
                let e = excess.length();
                if e > 1e-9 {
                    let n_local = excess / e;
                    if hard {
                        rows[nr] = (qp * n_local, e, true);
                        nr += 1;
                    } else if soft {
                        let (_, dir0, phi0) = start();
                        let s0 = (Vec3::new(0.0, phi0 * dir0.y, phi0 * dir0.z) - Vec3::new(0.0, ty, tz)).dot(n_local);
                        limit_update(p, c, qp * n_local, e, s0, joint, &mut lam[1], h);
                    }
                }
            }
            if twist_viol != 0.0 {
                if hard {
                    rows[nr] = (qc * Vec3::X, twist_viol, true);
                    nr += 1;
                } else if soft {
                    let (twist0, _, _) = start();
                    let v0 = if twist < low_twist { twist0 - low_twist } else { twist0 - high_twist };
                    let (qp, qc) = joint.frames(p, c);
                    let (tn, _, _) = Joint::decompose(qp, qc);
                    let vn = if twist < low_twist { tn - low_twist } else { tn - high_twist };
                    limit_update(p, c, qc * Vec3::X, vn, v0, joint, &mut lam[2], h);
                }
            }
        }
    }
    let (rp, rc) = (p.q * joint.anchor_parent, c.q * joint.anchor_child);
    let d = (c.x + rc) - (p.x + rp);
    HardRows { rp, rc, d, rows, nr }
}

/// One Gauss–Seidel pass over `joints` (XPBD, Müller et al. 2020 §3.3–3.4), root first: per
/// joint its soft limits, then its hard angular rows — the equality rows (a hinge's
/// alignment, a fixed joint's whole turn) as one update about their combined rotation
/// vector, each violated hard limit as its own — and last the anchors, one positional update
/// along their separation. `iw[i]` is body `i`'s world inverse inertia for the substep
/// (`Contacts::set_substep_inertia`); `lambdas[j]` is joint `j`'s.
///
/// `limits[j]` collects the axes of joint `j`'s hard limits that this pass had to correct
/// (up to two, the rest zero; the caller zeroes them each substep) for [`joint_velocities`].
pub fn solve_joints(bodies: &mut [RigidBody], iw: &[Mat3], joints: &[Joint], lambdas: &mut [[f32; 4]], limits: &mut [[Vec3; 2]], h: f32) {
    for ((joint, lam), held) in joints.iter().zip(lambdas.iter_mut()).zip(limits.iter_mut()) {
        if !is_active(joint, bodies) {
            continue;
        }
        let (pi, ci) = (joint.parent as usize, joint.child as usize);
        let (ip, ic) = (&iw[pi], &iw[ci]);
        let (p, c) = pair_mut(bodies, pi, ci);
        let (qp, qc) = joint.frames(p, c);
        let rows = if joint.may_reach_limit(qp, qc) || matches!(joint.limits, JointLimits::Fixed) {
            hard_rows(joint, p, c, lam, h, true)
        } else {
            // Within its limits: a swing-twist joint has no angular row, a hinge its
            // alignment only (as `hard_rows` builds it).
            let mut rows = [(Vec3::ZERO, 0.0f32, false); 3];
            let mut nr = 0;
            if let JointLimits::Hinge { .. } = joint.limits {
                let (cr, s, angle) = misalignment(qp, qc);
                rows[0] = if s > 1e-9 { (cr / s, angle, false) } else { (Vec3::X, 0.0, false) };
                nr = 1;
            }
            HardRows { rp: Vec3::ZERO, rc: Vec3::ZERO, d: Vec3::ZERO, rows, nr }
        };
        let mut equal = Vec3::ZERO;
        for &(axis, viol, inequality) in &rows.rows[..rows.nr] {
            if inequality {
                let dl = turn_apart(c, ic, p, ip, axis, viol).abs();
                // The limit's axis, scaled by the angular impulse it took (kg·m²·rad).
                if dl > MIN_STOP_LOAD
                    && let Some(slot) = held.iter_mut().find(|a| **a == Vec3::ZERO || a.dot(axis) > 0.99 * a.length())
                {
                    *slot = axis * (slot.length() + dl);
                }
            } else {
                equal += axis * viol;
            }
        }
        let turn = equal.length();
        if turn > 1e-9 {
            turn_apart(c, ic, p, ip, equal / turn, turn);
        }
        join_anchors(joint, c, ic, p, ip, lam);
    }
}

/// The anchors' positional update: one Lagrange update along their separation, compliance 0
/// (`Δλ = −C / Σw`).
#[inline]
fn join_anchors(joint: &Joint, c: &mut RigidBody, ic: &Mat3, p: &mut RigidBody, ip: &Mat3, lam: &mut [f32; 4]) {
    let (rp, rc) = (p.q * joint.anchor_parent, c.q * joint.anchor_child);
    let d = (c.x + rc) - (p.x + rp);
    let len = d.length();
    if len > 1e-9 {
        let n = d / len;
        let w = weight(c, ic, rc, n) + weight(p, ip, rp, n);
        if w > crate::math::WEIGHT_EPSILON {
            let dl = -len / w;
            lam[0] += dl;
            push_positional(c, ic, n * dl, rc);
            push_positional(p, ip, -n * dl, rp);
        }
    }
}

/// A hard angular update: turns `c` about unit `n` by `−angle` relative to `p` (each by its
/// share of the generalised inverse masses `nᵀ I⁻¹ n`).
#[inline]
fn turn_apart(c: &mut RigidBody, ic: &Mat3, p: &mut RigidBody, ip: &Mat3, n: Vec3, angle: f32) -> f32 {
    let w = n.dot(*ic * n) + n.dot(*ip * n);
    if w <= crate::math::WEIGHT_EPSILON {
        return 0.0;
    }
    let dl = -angle / w;
    c.rotate_by(*ic * (n * dl));
    p.rotate_by(*ip * (n * -dl));
    dl
}

/// Friction of a joint's stop: a limit the position pass held against a load resists the
/// relative turn along it (round the rim of a swing cone, or a twist against a swing stop)
/// with an angular impulse of at most this times the stop's own, as a contact's friction
/// does. Without it a head lying at the edge of its neck's cone kept circling along the rim
/// at 5–12 rad/s in piles (nothing else takes energy from that motion).
pub const LIMIT_FRICTION: f32 = 0.5;

/// A stop that took less angular impulse than this (kg·m²·rad) is not held: its axis would
/// be lost to round-off.
const MIN_STOP_LOAD: f32 = 1e-12;

/// The joints' velocity pass, after the velocities are taken from positions: each joint's
/// anchors get the same velocity, and a fixed joint's (a hinge's, off its axis) bodies the
/// same angular velocity — one impulse per joint along the relative velocity, as the contacts'
/// velocity pass does for theirs. A position pass that closes an error left by the last
/// substep moves its bodies, and the velocities taken from positions would keep that motion
/// (`error / h`: 0.5 mm left is 0.24 m/s at 480 Hz): bones lying on the ground, which the
/// contacts push back after the joints pull them, would never come to rest. The constraint
/// `J v = 0` is what the joint means at velocity level, so the pass takes nothing from a
/// motion the joint allows. `iw` as for [`solve_joints`].
///
/// A hard limit the position pass corrected (`limits`, from [`solve_joints`]) is held like a
/// resting contact: the relative angular velocity about its axis goes to 0 — a limit pushed
/// by a contact's friction (a head twisted against the bone it lies on) otherwise kept the
/// velocity of each correction and turned back and forth at 10 rad/s.
pub fn joint_velocities(bodies: &mut [RigidBody], iw: &[Mat3], joints: &[Joint], limits: &[[Vec3; 2]], h: f32) {
    for (joint, held) in joints.iter().zip(limits) {
        if !is_active(joint, bodies) {
            continue;
        }
        let (pi, ci) = (joint.parent as usize, joint.child as usize);
        let (ip, ic) = (&iw[pi], &iw[ci]);
        let (p, c) = pair_mut(bodies, pi, ci);
        // Angular first: a hinge's off-axis or a fixed joint's whole relative spin.
        let spin = match joint.limits {
            JointLimits::Fixed => c.w - p.w,
            JointLimits::Hinge { .. } => {
                let axis = p.q * (joint.frame_parent * Vec3::X);
                let rel = c.w - p.w;
                rel - axis * rel.dot(axis)
            }
            _ => Vec3::ZERO,
        };
        for &stop in held.iter().take_while(|a| **a != Vec3::ZERO) {
            let load = stop.length();
            if !(load > MIN_STOP_LOAD) {
                continue;
            }
            let axis = stop / load;
            let rel = (c.w - p.w).dot(axis);
            let w = axis.dot(*ic * axis) + axis.dot(*ip * axis);
            if w <= crate::math::WEIGHT_EPSILON {
                continue;
            }
            let jn = rel / w;
            c.w -= *ic * (axis * jn);
            p.w += *ip * (axis * jn);
            // The stop's friction against the turn along it.
            let slide = c.w - p.w;
            let slide = slide - axis * slide.dot(axis);
            let speed = slide.length();
            if speed > 1e-9 {
                let u = slide / speed;
                let wt = u.dot(*ic * u) + u.dot(*ip * u);
                if wt > crate::math::WEIGHT_EPSILON {
                    let jt = (speed / wt).min(LIMIT_FRICTION * (load / h + jn.abs()));
                    c.w -= *ic * (u * jt);
                    p.w += *ip * (u * jt);
                }
            }
        }
        let speed = spin.length();
        if speed > 1e-9 {
            let u = spin / speed;
            let w = u.dot(*ic * u) + u.dot(*ip * u);
            if w > crate::math::WEIGHT_EPSILON {
                let j = u * (speed / w);
                c.w -= *ic * j;
                p.w += *ip * j;
            }
        }
        let (rp, rc) = (p.q * joint.anchor_parent, c.q * joint.anchor_child);
        let dv = c.point_velocity(rc) - p.point_velocity(rp);
        let speed = dv.length();
        if speed > 1e-9 {
            let u = dv / speed;
            let w = weight(c, ic, rc, u) + weight(p, ip, rp, u);
            if w > crate::math::WEIGHT_EPSILON {
                let imp = u * (-speed / w);
                push_velocity(c, ic, imp, rc);
                push_velocity(p, ip, -imp, rp);
            }
        }
    }
}

/// Whether a joint moves anything: not `Free`, and one of its bodies dynamic.
#[inline]
pub(crate) fn is_active(joint: &Joint, bodies: &[RigidBody]) -> bool {
    if matches!(joint.limits, JointLimits::Free) {
        return false;
    }
    let (p, c) = (&bodies[joint.parent as usize], &bodies[joint.child as usize]);
    !(p.inv_mass == 0.0 && c.inv_mass == 0.0 && p.inv_inertia == Vec3::ZERO && c.inv_inertia == Vec3::ZERO)
}

/// Two bodies of a slice, `p < c` (for the tree solve).
#[inline]
pub(crate) fn bodies_of<'a>(bodies: &'a mut [RigidBody], joint: &Joint) -> (&'a mut RigidBody, &'a mut RigidBody) {
    pair_mut(bodies, joint.parent as usize, joint.child as usize)
}

/// Joint friction after the velocity pass: each joint's relative angular velocity (about the
/// axis for a hinge) loses up to `friction · h` of angular impulse.
pub fn joint_friction(bodies: &mut [RigidBody], joints: &[Joint], h: f32) {
    for joint in joints {
        if joint.friction <= 0.0 || matches!(joint.limits, JointLimits::Free | JointLimits::Fixed) {
            continue;
        }
        let (p, c) = pair_mut(bodies, joint.parent as usize, joint.child as usize);
        let mut rel = c.w - p.w;
        if let JointLimits::Hinge { .. } = joint.limits {
            let axis = c.q * joint.frame_child * Vec3::X;
            rel = axis * rel.dot(axis);
        }
        let speed = rel.length();
        if speed < 1e-9 {
            continue;
        }
        let n = rel / speed;
        let w = c.angular_weight(n) + p.angular_weight(n);
        if w <= crate::math::WEIGHT_EPSILON {
            continue;
        }
        let impulse = (speed / w).min(joint.friction * h);
        c.w -= c.inv_inertia_world(n * impulse);
        p.w += p.inv_inertia_world(n * impulse);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The fast pass skips the exact limit rows where `may_reach_limit` says no: it must never
    /// say no where the exact rows find a violated limit (random relative rotations, a cone
    /// and twist range and a hinge range of Unity's kind).
    #[test]
    fn the_cheap_limit_test_never_misses_a_limit() {
        let mut seed = 1u32;
        let mut rnd = || {
            seed = seed.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            (seed >> 8) as f32 / (1u32 << 24) as f32 * 2.0 - 1.0
        };
        let (mut reached, mut missed) = (0, 0);
        for k in 0..20_000 {
            let limits = match k % 3 {
                0 => JointLimits::SwingTwist { swing1: 0.5, swing2: 0.8, low_twist: -0.3, high_twist: 0.6 },
                1 => JointLimits::SwingTwist { swing1: 0.0, swing2: 0.4, low_twist: 0.0, high_twist: 0.0 },
                _ => JointLimits::Hinge { min: 0.0, max: 1.4 },
            };
            let frame = Quat::from_xyzw(rnd(), rnd(), rnd(), rnd()).normalize();
            let j = Joint { parent: 0, child: 1, limits, anchor_child: Vec3::ZERO, anchor_parent: Vec3::ZERO, frame_child: frame, frame_parent: frame, limit_compliance: 0.0, limit_damper: 0.0, friction: 0.0, limit_test: [0.0; 5] }.with_limit_test();
            let qp = Quat::from_xyzw(rnd(), rnd(), rnd(), rnd()).normalize();
            // Relative turns of every size, most within a radian.
            let turn = Quat::from_scaled_axis(Vec3::new(rnd(), rnd(), rnd()) * (0.3 + rnd().abs()));
            let mut bodies = [RigidBody::new(Vec3::ZERO, qp, 1.0, Vec3::ONE), RigidBody::new(Vec3::ZERO, qp * turn, 1.0, Vec3::ONE)];
            let (p, c) = pair_mut(&mut bodies, 0, 1);
            let rows = hard_rows(&j, p, c, &mut [0.0; 4], 1.0 / 480.0, false);
            let (qp, qc) = j.frames(p, c);
            if rows.rows[..rows.nr].iter().any(|r| r.2) {
                reached += 1;
                missed += usize::from(!j.may_reach_limit(qp, qc));
            }
        }
        assert!(reached > 1000, "the sample reaches the limits {reached} times");
        assert_eq!(missed, 0, "{missed} of {reached} violated limits missed");
    }
}
