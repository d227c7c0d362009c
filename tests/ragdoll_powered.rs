//! Powered ragdolls and getting up (World API), against laws: a muscle's step response is a
//! critically damped spring's, a muscle weaker than its load gives way and a stronger one
//! sags by load / stiffness, full pin weight reproduces an animation within millimetres, zero
//! strength is a plain ragdoll bit for bit, a hit's effect decays back to the animation, the
//! blend's endpoints are exact and the side a body lies on is told right.
mod ragdoll_common;
use ragdoll_common::*;
use sinew::collider::Collider;
use sinew::ragdoll::humanoid::{HumanoidBones, bone};
use sinew::ragdoll::{BALANCE_LOST, GetUpQuery, LyingSide};

const DT: f32 = 1.0 / 60.0;

/// A kinematic box (parent) and a capsule hanging from it on a hinge about X at the origin
/// (child: bone origin at the joint, shape 0.25 m below), mass 2 kg.
fn arm(settings: RagdollSettings, hang: Vec3) -> RagdollDesc {
    let hinge = JointDesc { kind: JointKind::Hinge { min: -170.0, max: 170.0 }, axis: Vec3::X, swing_axis: Vec3::Y, ..Default::default() };
    let root = bone(-1, Vec3::ZERO, Shape::Box { half_extents: Vec3::splat(0.05) }, 1.0, JointDesc::default());
    let mut child = bone(0, Vec3::ZERO, Shape::Capsule { half_height: 0.2, radius0: 0.04, radius1: 0.04 }, 2.0, hinge);
    child.shape_offset = hang * 0.25;
    child.shape_rotation = Quat::from_rotation_arc(Vec3::Y, hang);
    RagdollDesc { bones: vec![root, child], settings }
}

/// Angle (rad) of bone 1 about X.
fn hinge_angle(w: &World, r: (usize, u32)) -> f32 {
    let (_, q, _, _) = read(w, r);
    let q = if q[1].w < 0.0 { -q[1] } else { q[1] };
    2.0 * q.x.atan2(q.w)
}

#[test]
fn a_muscle_reaches_its_target_as_a_critically_damped_spring() {
    let f = 2.0;
    let settings = RagdollSettings { muscle_frequency: f, muscle_damping_ratio: 1.0, muscle_max_torque: 1e5, ..plain() };
    let mut w = world(Vec3::ZERO);
    let r = w.create_ragdoll(&arm(settings, -Vec3::Y)).unwrap();
    let target = 0.8f32;
    {
        let rd = w.ragdolls.get_mut(r.0, r.1).unwrap();
        rd.set_bone_kinematic(0, true).unwrap();
        rd.set_bone_target(1, pose(Vec3::ZERO, Quat::from_rotation_x(target))).unwrap();
    }
    // A step: the target is there from the first substep on (set in one frame, it would be
    // the animation moving there over that frame, which the damping follows).
    w.step(DT).unwrap();
    w.ragdolls.get_mut(r.0, r.1).unwrap().set_muscle_strength(Some(1), 1.0).unwrap();
    let omega = std::f32::consts::TAU * f;
    let (mut worst, mut t) = (0.0f32, 0.0f32);
    let settle = 5.83 / omega; // (1 + ωt)e^(−ωt) = 2 %
    let mut at_settle = f32::NAN;
    for _ in 0..180 {
        w.step(DT).unwrap();
        t += DT;
        let a = hinge_angle(&w, r);
        let law = target * (1.0 - (1.0 + omega * t) * (-omega * t).exp());
        worst = worst.max((a - law).abs());
        if at_settle.is_nan() && t >= settle {
            at_settle = a;
        }
    }
    let end = hinge_angle(&w, r);
    println!("muscle step response: worst deviation from the law {:.4} rad ({:.2} %), at the settling time {:.4} rad of {target}, end {end:.5}", worst, 100.0 * worst / target, at_settle);
    assert!(worst < 0.04 * target, "deviation {worst} rad from (1 − (1 + ωt)e^(−ωt))");
    assert!((at_settle - target).abs() < 0.04 * target, "at the settling time {at_settle} rad of {target}");
    assert!((end - target).abs() < 1e-3, "end {end}");
}

#[test]
fn a_muscle_holds_a_load_below_its_torque_and_gives_way_above() {
    // An arm held horizontal (+Z) against gravity: load torque m g d = 2 · 9.81 · 0.25.
    let load = 2.0 * 9.81 * 0.25;
    let run = |max_torque: f32| {
        let settings = RagdollSettings { muscle_frequency: 6.0, muscle_max_torque: max_torque, ..plain() };
        let mut w = world(Vec3::new(0.0, -9.81, 0.0));
        let r = w.create_ragdoll(&arm(settings, Vec3::Z)).unwrap();
        let rd = w.ragdolls.get_mut(r.0, r.1).unwrap();
        rd.set_bone_kinematic(0, true).unwrap();
        rd.set_muscle_strength(Some(1), 1.0).unwrap();
        let mut lowest = 0.0f32;
        for _ in 0..240 {
            w.step(DT).unwrap();
            lowest = lowest.max(hinge_angle(&w, r));
        }
        (hinge_angle(&w, r), lowest, w, r)
    };
    let (sag, _, w, r) = run(2.0 * load);
    // Static equilibrium: k θ = m g d cos θ with k = ω² J (J about the pivot).
    let rd = w.ragdolls.get(r.0, r.1).unwrap();
    let i = rd.bone_inertia(1).unwrap();
    let m = rd.bone_mass(1).unwrap();
    let j = i.x.max(i.z).min(i.x.max(i.y)) + m * 0.25 * 0.25;
    let k = (std::f32::consts::TAU * 6.0).powi(2) * j;
    let law = load * sag.cos() / k;
    println!("muscle under a load: sag {sag:.4} rad, static law {law:.4} rad (J = {j:.4} kg·m²)");
    assert!((sag - law).abs() < 0.1 * law, "sag {sag} against k θ = m g d cos θ: {law}");
    let (_, fell, _, _) = run(0.5 * load);
    println!("muscle at half the load's torque: swung down to {fell:.3} rad");
    assert!(fell > 1.2, "a muscle of half the load's torque should give way (lowest angle {fell} rad)");
}
