//! S4's joint errors, one definition for every solver: from bone poses and the
//! [`RagdollDesc`]'s joint frames, nothing solver-specific.
//!
//! A joint belongs to the child bone c. Its frame in c's frame: origin `anchor`, X the axis,
//! Y the swing axis made perpendicular to X, Z = X × Y. The parent p's side of the frame is
//! where that frame lies in p's frame in the bind pose, so every error below is 0 there.
//!
//! - **Separation**: |(x_c + q_c·anchor_c) − (x_p + q_p·anchor_p)|, the distance between the
//!   anchor as the child and as the parent carry it (m).
//! - **Limit violation**: the relative rotation of the two sides' frames,
//!   q = (q_p·F_p)⁻¹ (q_c·F_c), split as q = swing · twist, twist about X (the angle
//!   θ = −2·atan2(q.x, q.w): Unity's sign, as `RagdollDesc` takes it — a child turned by −θ
//!   about the axis is at angle θ) and swing about an axis in the YZ plane (angle s, its Y and Z
//!   parts s_y, s_z: the turn about the swing axis and about the third axis). Then:
//!   fixed: the whole angle of q; hinge: how far θ lies outside [min, max], or the swing s
//!   (a hinge turns about its axis only), whichever is larger; swing-twist: how far θ lies
//!   outside [low_twist, high_twist], or the angular distance from (s_y, s_z) to the ellipse of
//!   half-axes (swing1, swing2), whichever is larger (with Unity's `swing2Limit` 0 the
//!   ellipse is the segment |s_y| ≤ swing1, s_z = 0). Free joints have no error.

use sinew::math::{Quat, Vec3};
use sinew::ragdoll::{JointKind, RagdollDesc};

use super::scene::joint_basis;

/// One joint's frames, from the bind pose.
#[derive(Clone, Copy, Debug)]
pub struct Frames {
    pub child: usize,
    pub parent: usize,
    pub kind: JointKind,
    /// The anchor in the child's and in the parent's frame.
    pub anchor_c: Vec3,
    pub anchor_p: Vec3,
    /// The joint frame's rotation in the child's and in the parent's frame.
    pub frame_c: Quat,
    pub frame_p: Quat,
}

/// Every joint of a ragdoll (bones with a parent and a joint other than `Free`).
pub fn frames(desc: &RagdollDesc) -> Vec<Frames> {
    let mut out = Vec::new();
    for (c, b) in desc.bones.iter().enumerate() {
        if b.parent < 0 || matches!(b.joint.kind, JointKind::Free) {
            continue;
        }
        let p = b.parent as usize;
        let (bc, bp) = (b.bind, desc.bones[p].bind);
        let frame_c = joint_basis(&b.joint);
        let anchor_world = bc.position + bc.rotation * b.joint.anchor;
        out.push(Frames {
            child: c,
            parent: p,
            kind: b.joint.kind,
            anchor_c: b.joint.anchor,
            anchor_p: bp.rotation.inverse() * (anchor_world - bp.position),
            frame_c,
            frame_p: (bp.rotation.inverse() * bc.rotation * frame_c).normalize(),
        });
    }
    out
}

/// The worst errors over some joints.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Errors {
    /// m.
    pub separation: f32,
    /// rad.
    pub limit: f32,
    /// rad, per axis as rapier limits a joint ([`axes_violation`]).
    pub limit_axes: f32,
}

impl Errors {
    pub fn max(self, o: Errors) -> Errors {
        Errors { separation: self.separation.max(o.separation), limit: self.limit.max(o.limit), limit_axes: self.limit_axes.max(o.limit_axes) }
    }
}

/// The worst separation and limit violation over `joints`, for bone poses `positions`,
/// `rotations` (world, the bones' frames).
pub fn errors(joints: &[Frames], positions: &[Vec3], rotations: &[Quat]) -> Errors {
    let mut e = Errors::default();
    for j in joints {
        let (xc, qc, xp, qp) = (positions[j.child], rotations[j.child], positions[j.parent], rotations[j.parent]);
        let sep = ((xc + qc * j.anchor_c) - (xp + qp * j.anchor_p)).length();
        let q = (qp * j.frame_p).inverse() * (qc * j.frame_c);
        e = e.max(Errors { separation: sep, limit: violation(j.kind, q), limit_axes: axes_violation(j.kind, q) });
    }
    e
}

/// Twist about X (rad, Unity's sign: a turn by −θ is the angle θ) and the swing's parts
/// about Y and Z (rad; limits on them are symmetric, so their sign does not matter) of a
/// relative rotation.
pub fn swing_twist(q: Quat) -> (f32, f32, f32) {
    let q = if q.w < 0.0 { -q } else { q };
    let n = (q.w * q.w + q.x * q.x).sqrt();
    if n < 1e-9 {
        // Swung by half a turn: the twist is undefined; call it 0.
        return (0.0, std::f32::consts::PI * q.y.signum(), 0.0);
    }
    let twist = Quat::from_xyzw(q.x / n, 0.0, 0.0, q.w / n);
    let swing = q * twist.inverse();
    let theta = -2.0 * q.x.atan2(q.w);
    let yz = (swing.y * swing.y + swing.z * swing.z).sqrt();
    let s = 2.0 * yz.atan2(swing.w.abs());
    let sign = if swing.w < 0.0 { -1.0 } else { 1.0 };
    if yz < 1e-12 { (theta, 0.0, 0.0) } else { (theta, sign * s * swing.y / yz, sign * s * swing.z / yz) }
}

fn outside(v: f32, lo: f32, hi: f32) -> f32 {
    (lo - v).max(v - hi).max(0.0)
}

/// How far the relative rotation `q` of a joint's frames lies outside what the joint allows (rad).
pub fn violation(kind: JointKind, q: Quat) -> f32 {
    let (theta, sy, sz) = swing_twist(q);
    match kind {
        JointKind::Free => 0.0,
        JointKind::Fixed => {
            let q = if q.w < 0.0 { -q } else { q };
            2.0 * q.xyz().length().atan2(q.w)
        }
        JointKind::Hinge { min, max } => outside(theta, min.to_radians(), max.to_radians()).max((sy * sy + sz * sz).sqrt()),
        JointKind::SwingTwist { swing1, swing2, low_twist, high_twist } => {
            outside(theta, low_twist.to_radians(), high_twist.to_radians()).max(ellipse_distance(sy, sz, swing1.to_radians(), swing2.to_radians()))
        }
    }
}

/// The same limits read per axis, as rapier's `JointAxis::AngX/AngY/AngZ` limits define them:
/// angle_i = 2·atan2(q_i, q_w) of the relative rotation (rapier's `recentered_angle` at a
/// range centred on 0), X (its sign turned to Unity's) against the hinge or twist range,
/// Y against ±swing1, Z against ±swing2 (0 for a hinge); the largest excess (rad). This is
/// what the peer is asked to hold; it differs from the cone and twist above once a joint
/// both twists and swings (a swing-twist with `swing2` 0 may swing about Z by up to
/// swing·tan(twist/2) and still hold every axis).
pub fn axes_violation(kind: JointKind, q: Quat) -> f32 {
    let q = if q.w < 0.0 { -q } else { q };
    let a = |c: f32| 2.0 * c.atan2(q.w);
    let (x, y, z) = (-a(q.x), a(q.y), a(q.z));
    match kind {
        JointKind::Free => 0.0,
        JointKind::Fixed => x.abs().max(y.abs()).max(z.abs()),
        JointKind::Hinge { min, max } => outside(x, min.to_radians(), max.to_radians()).max(y.abs()).max(z.abs()),
        JointKind::SwingTwist { swing1, swing2, low_twist, high_twist } => {
            let (s1, s2) = (swing1.to_radians(), swing2.to_radians());
            outside(x, low_twist.to_radians(), high_twist.to_radians()).max(outside(y, -s1, s1)).max(outside(z, -s2, s2))
        }
    }
}

/// Distance from (x, y) to the filled ellipse of half-axes a (along x) and b (along y).
pub fn ellipse_distance(x: f32, y: f32, a: f32, b: f32) -> f32 {
    let (x, y) = (x.abs(), y.abs());
    if b < 1e-6 || a < 1e-6 {
        return (x - a).max(0.0).hypot((y - b).max(0.0));
    }
    if (x / a).powi(2) + (y / b).powi(2) <= 1.0 {
        return 0.0;
    }
    // The nearest point of the first quadrant's arc (a cos t, b sin t): a dense scan, then a
    // golden-section search in the scan's best cell.
    let d = |t: f32| (a * t.cos() - x).hypot(b * t.sin() - y);
    const N: usize = 256;
    let cell = std::f32::consts::FRAC_PI_2 / N as f32;
    let best = (0..=N).min_by(|&i, &j| d(i as f32 * cell).total_cmp(&d(j as f32 * cell))).unwrap_or(0);
    let (mut lo, mut hi) = (best.saturating_sub(1) as f32 * cell, (best + 1).min(N) as f32 * cell);
    let g = 0.618_034_f32;
    for _ in 0..40 {
        let (m1, m2) = (hi - g * (hi - lo), lo + g * (hi - lo));
        if d(m1) < d(m2) { hi = m2 } else { lo = m1 }
    }
    d(0.5 * (lo + hi))
}

/// Checks of the definitions above on rotations whose answers are known.
pub fn self_check() {
    let near = |a: f32, b: f32| (a - b).abs() < 1e-4;
    let (t, y, z) = swing_twist(Quat::from_rotation_x(-0.3));
    assert!(near(t, 0.3) && near(y, 0.0) && near(z, 0.0));
    let (t, y, z) = swing_twist(Quat::from_rotation_y(0.4) * Quat::from_rotation_x(0.2));
    assert!(near(t, -0.2) && near(y, 0.4) && near(z, 0.0), "{t} {y} {z}");
    let (_, y, z) = swing_twist(Quat::from_rotation_z(-0.5));
    assert!(near(y, 0.0) && near(z, -0.5));
    let cone = JointKind::SwingTwist { swing1: 30.0, swing2: 0.0, low_twist: -20.0, high_twist: 70.0 };
    assert!(near(violation(cone, Quat::from_rotation_y(40f32.to_radians())), 10f32.to_radians()));
    assert!(near(violation(cone, Quat::from_rotation_z(0.1)), 0.1));
    assert!(near(violation(cone, Quat::from_rotation_x(0.5)), 0.5 - 20f32.to_radians()));
    assert!(near(violation(cone, Quat::from_rotation_x(-1.2)), 0.0));
    // The knee: limits [−80°, 0°] let the child turn by up to +80° about the axis.
    let hinge = JointKind::Hinge { min: -80.0, max: 0.0 };
    assert!(near(violation(hinge, Quat::from_rotation_x(1.0)), 0.0));
    assert!(near(violation(hinge, Quat::from_rotation_x(-0.2)), 0.2));
    assert!(near(axes_violation(hinge, Quat::from_rotation_x(-0.2)), 0.2));
    assert!(near(axes_violation(hinge, Quat::from_rotation_x(1.0)), 0.0));
    assert!(near(ellipse_distance(2.0, 0.0, 1.0, 0.5), 1.0));
    assert!(near(ellipse_distance(0.0, 1.0, 1.0, 0.5), 0.5));
    assert!(near(ellipse_distance(0.3, 0.2, 1.0, 0.5), 0.0));
}
