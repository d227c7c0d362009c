//! The humanoid template: the 11 bodies of Unity's Ragdoll Wizard, built from a rig's bone
//! positions, so a host with a humanoid rig gets a sensible ragdoll from one call and can
//! edit any bone of the description before creating it.
//!
//! Bodies, parents, masses and limits are the wizard's (its defaults for a 20 kg total):
//!
//! | bone           | parent       | shape                       | mass share | joint (Unity signs, degrees)                 |
//! |----------------|--------------|-----------------------------|-----------:|----------------------------------------------|
//! | pelvis         | —            | box (hips to middle spine)  | 2.5 / 16   | free (the root)                              |
//! | left/right hip | pelvis       | capsule hip → knee          | 1.5 / 16   | swing-twist, twist [−20, 70] about right, swing 30 |
//! | left/right knee| hip          | capsule knee → foot         | 1.5 / 16   | hinge [−80, 0] about right                   |
//! | left/right arm | middle spine | capsule shoulder → elbow    | 1.0 / 16   | swing-twist, twist [−70, 10] about up, swing 50 |
//! | left/right elbow | arm        | capsule elbow → hand        | 1.0 / 16   | hinge [−90, 0] about forward                 |
//! | middle spine   | pelvis       | box (middle spine to shoulders) | 2.5 / 16 | swing-twist, twist [−20, 20] about right, swing 10 |
//! | head           | middle spine | sphere above the head bone  | 1.0 / 16   | swing-twist, twist [−40, 25] about right, swing 25 |
//!
//! Where the wizard falls short, the template does not copy it: `swing2` is the wizard's
//! swing limit too (the wizard leaves it at 0, which locks the second swing axis); the left
//! side's axes are the right side's mirrored (the wizard uses the same world axes for both
//! sides, so its left arm and left elbow bend the opposite way to its right ones); capsule
//! radii (the wizard's `radiusScale` × limb length) are capped at 0.45 × the hip or shoulder
//! spacing so that no two bones that may collide start overlapping.
//!
//! Each bone's frame has its origin at the joint and its local Y along the limb (the
//! character's up for pelvis, spine and head), with X and Z the character's right and
//! forward carried by the shortest turn from up to the limb.

use super::desc::{BoneDesc, JointDesc, JointKind, RagdollDesc, RagdollSettings};
use crate::error::{Error, Result, check_position_with};
use crate::geometry::{Pose, Shape};
use crate::math::{Mat3, Quat, Vec3, is_finite3};

/// World positions of a humanoid rig's bones (the Ragdoll Wizard's slots), in the bind pose.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HumanoidBones {
    pub pelvis: Vec3,
    pub left_hip: Vec3,
    pub left_knee: Vec3,
    pub left_foot: Vec3,
    pub right_hip: Vec3,
    pub right_knee: Vec3,
    pub right_foot: Vec3,
    pub left_arm: Vec3,
    pub left_elbow: Vec3,
    pub left_hand: Vec3,
    pub right_arm: Vec3,
    pub right_elbow: Vec3,
    pub right_hand: Vec3,
    pub middle_spine: Vec3,
    pub head: Vec3,
    /// The character's up and forward directions (world). Default +Y and +Z; its right is
    /// `up × forward` (+X), as Unity's.
    pub up: Vec3,
    pub forward: Vec3,
    /// Total mass (kg). The wizard's default is 20.
    pub total_mass: f32,
}

/// Bone indices of the template's ragdoll, in order (parents before children).
pub mod bone {
    pub const PELVIS: usize = 0;
    pub const LEFT_HIP: usize = 1;
    pub const LEFT_KNEE: usize = 2;
    pub const RIGHT_HIP: usize = 3;
    pub const RIGHT_KNEE: usize = 4;
    pub const MIDDLE_SPINE: usize = 5;
    pub const HEAD: usize = 6;
    pub const LEFT_ARM: usize = 7;
    pub const LEFT_ELBOW: usize = 8;
    pub const RIGHT_ARM: usize = 9;
    pub const RIGHT_ELBOW: usize = 10;
    pub const COUNT: usize = 11;
}

/// The wizard's mass weights per bone, in [`bone`] order (they sum to 16).
const MASS_WEIGHTS: [f32; bone::COUNT] = [2.5, 1.5, 1.5, 1.5, 1.5, 2.5, 1.0, 1.0, 1.0, 1.0, 1.0];

impl HumanoidBones {
    /// A 1.8 m character in T-pose with its feet at `position`, facing +Z, 20 kg.
    pub fn standing(position: Vec3) -> HumanoidBones {
        let p = |x: f32, y: f32| position + Vec3::new(x, y, 0.0);
        HumanoidBones {
            pelvis: p(0.0, 1.0),
            left_hip: p(-0.1, 0.95),
            left_knee: p(-0.1, 0.52),
            left_foot: p(-0.1, 0.08),
            right_hip: p(0.1, 0.95),
            right_knee: p(0.1, 0.52),
            right_foot: p(0.1, 0.08),
            left_arm: p(-0.2, 1.45),
            left_elbow: p(-0.48, 1.45),
            left_hand: p(-0.74, 1.45),
            right_arm: p(0.2, 1.45),
            right_elbow: p(0.48, 1.45),
            right_hand: p(0.74, 1.45),
            middle_spine: p(0.0, 1.2),
            head: p(0.0, 1.55),
            up: Vec3::Y,
            forward: Vec3::Z,
            total_mass: 20.0,
        }
    }

    fn points(&self) -> [(Vec3, &'static str); 15] {
        [
            (self.pelvis, "pelvis"),
            (self.left_hip, "left_hip"),
            (self.left_knee, "left_knee"),
            (self.left_foot, "left_foot"),
            (self.right_hip, "right_hip"),
            (self.right_knee, "right_knee"),
            (self.right_foot, "right_foot"),
            (self.left_arm, "left_arm"),
            (self.left_elbow, "left_elbow"),
            (self.left_hand, "left_hand"),
            (self.right_arm, "right_arm"),
            (self.right_elbow, "right_elbow"),
            (self.right_hand, "right_hand"),
            (self.middle_spine, "middle_spine"),
            (self.head, "head"),
        ]
    }

    fn validate(&self) -> Result<()> {
        for (p, name) in self.points() {
            if !is_finite3(p) {
                return Err(Error::non_finite(format!("humanoid {name} position is not finite")));
            }
            check_position_with(p, || format!("humanoid {name} position"))?;
        }
        for (v, name) in [(self.up, "up"), (self.forward, "forward")] {
            if !is_finite3(v) {
                return Err(Error::non_finite(format!("humanoid {name} direction is not finite ({v})")));
            }
            if !(v.length() >= 1e-6 && v.length() <= crate::error::MAX_LENGTH) {
                return Err(Error::invalid(format!("humanoid {name} direction must have a length in [1e-6, {}] (got {v})", crate::error::MAX_LENGTH)));
            }
        }
        if self.up.normalize().cross(self.forward.normalize()).length() < 0.1 {
            return Err(Error::invalid("humanoid up and forward are (nearly) parallel"));
        }
        crate::error::check_finite(self.total_mass, "humanoid total_mass")?;
        // From 1 g: the lightest bone then keeps a mass whose inverse (and its inertia's) is
        // finite; 1e-38 kg was accepted and its bones' velocities read back NaN.
        if !(self.total_mass >= 1e-3 && self.total_mass <= 1e5) {
            return Err(Error::invalid(format!("humanoid total_mass must be within [1e-3, 1e5] kg (got {})", self.total_mass)));
        }
        let limbs = [
            (self.left_hip, self.left_knee, "left_hip → left_knee"),
            (self.left_knee, self.left_foot, "left_knee → left_foot"),
            (self.right_hip, self.right_knee, "right_hip → right_knee"),
            (self.right_knee, self.right_foot, "right_knee → right_foot"),
            (self.left_arm, self.left_elbow, "left_arm → left_elbow"),
            (self.left_elbow, self.left_hand, "left_elbow → left_hand"),
            (self.right_arm, self.right_elbow, "right_arm → right_elbow"),
            (self.right_elbow, self.right_hand, "right_elbow → right_hand"),
            (self.pelvis, self.middle_spine, "pelvis → middle_spine"),
            (self.middle_spine, self.head, "middle_spine → head"),
            (self.left_hip, self.right_hip, "left_hip → right_hip"),
            (self.left_arm, self.right_arm, "left_arm → right_arm"),
        ];
        for (a, b, name) in limbs {
            if a.distance(b) < 1e-3 {
                return Err(Error::invalid(format!("humanoid {name} is shorter than 1 mm: bones must be apart")));
            }
        }
        Ok(())
    }

    /// The ragdoll description (11 bones in [`bone`] order), editable before it is created.
    pub fn ragdoll(&self) -> Result<RagdollDesc> {
        self.validate()?;
        let up = self.up.normalize();
        // Forward made perpendicular to up; right = up × forward (Unity's +X for +Y, +Z).
        let forward = (self.forward - up * self.forward.dot(up)).normalize();
        let right = up.cross(forward);
        let basis = Quat::from_mat3(&Mat3::from_cols(right, up, forward)).normalize();
        // The frame of a bone from `a` towards `b`: local Y along the limb.
        let along = |dir: Vec3| -> Quat {
            let d = dir.normalize();
            let turn = if d.dot(up) < -0.9999 { Quat::from_axis_angle(right, std::f32::consts::PI) } else { Quat::from_rotation_arc(up, d) };
            (turn * basis).normalize()
        };
        let hip_gap = self.left_hip.distance(self.right_hip);
        let shoulder_gap = self.left_arm.distance(self.right_arm);
        let mass_of = |i: usize| self.total_mass * MASS_WEIGHTS[i] / MASS_WEIGHTS.iter().sum::<f32>();

        let mut bones = Vec::with_capacity(bone::COUNT);
        let frame = |pos: Vec3, rot: Quat| Pose { rotation: rot, position: pos, scale: 1.0 };
        // A limb: capsule from the joint `a` to the next joint `b` (Unity's capsule height is
        // the whole length, caps included).
        let limb = |index: usize, parent: usize, a: Vec3, b: Vec3, radius_scale: f32, gap: f32, joint: JointDesc| -> BoneDesc {
            let rot = along(b - a);
            let length = a.distance(b);
            let radius = (radius_scale * length).min(0.45 * gap).min(0.5 * length);
            BoneDesc {
                parent: parent as i32,
                bind: frame(a, rot),
                shape: Shape::Capsule { half_height: (0.5 * length - radius).max(0.0), radius0: radius, radius1: radius },
                shape_offset: Vec3::new(0.0, 0.5 * length, 0.0),
                shape_rotation: Quat::IDENTITY,
                mass: mass_of(index),
                density: 1000.0,
                joint: JointDesc { anchor: Vec3::ZERO, ..joint },
            }
        };
        // A joint whose world axes are given; stored in the bone's frame.
        let joint = |rot: Quat, kind: JointKind, axis: Vec3, swing: Vec3| JointDesc {
            kind,
            axis: (rot.inverse() * axis).normalize(),
            swing_axis: (rot.inverse() * swing).normalize(),
            ..JointDesc::default()
        };
        let swing_twist = |low: f32, high: f32, swing: f32| JointKind::SwingTwist { swing1: swing, swing2: swing, low_twist: low, high_twist: high };

        // Pelvis: a box from the hips' height to the middle spine, as wide as the hips.
        let pelvis_rot = basis;
        let pelvis_low = (self.left_hip + self.right_hip) * 0.5;
        let pelvis_top = self.middle_spine;
        let pelvis_height = (pelvis_top - pelvis_low).dot(up).abs().max(0.05);
        let pelvis_centre = (pelvis_low + pelvis_top) * 0.5;
        let pelvis_half = Vec3::new(0.5 * hip_gap + 0.05, 0.5 * pelvis_height, 0.3 * hip_gap + 0.04);
        bones.push(BoneDesc {
            parent: -1,
            bind: frame(self.pelvis, pelvis_rot),
            shape: Shape::Box { half_extents: pelvis_half },
            shape_offset: pelvis_rot.inverse() * (pelvis_centre - self.pelvis),
            shape_rotation: Quat::IDENTITY,
            mass: mass_of(bone::PELVIS),
            density: 1000.0,
            joint: JointDesc::default(),
        });
        // Legs (the wizard's hips and knees): axes along the character's right on both sides.
        for (hip, knee, foot, hip_index) in
            [(self.left_hip, self.left_knee, self.left_foot, bone::LEFT_HIP), (self.right_hip, self.right_knee, self.right_foot, bone::RIGHT_HIP)]
        {
            let thigh_rot = along(knee - hip);
            bones.push(limb(hip_index, bone::PELVIS, hip, knee, 0.3, hip_gap, joint(thigh_rot, swing_twist(-20.0, 70.0, 30.0), right, forward)));
            let shin_rot = along(foot - knee);
            bones.push(limb(hip_index + 1, hip_index, knee, foot, 0.25, hip_gap, joint(shin_rot, JointKind::Hinge { min: -80.0, max: 0.0 }, right, forward)));
        }
        // Middle spine: a box from the middle spine to the shoulders, as wide as the shoulders.
        let spine_rot = along(self.head - self.middle_spine);
        let shoulders = (self.left_arm + self.right_arm) * 0.5;
        let spine_height = (shoulders - self.middle_spine).dot(up).abs().max(0.05);
        let spine_centre = self.middle_spine + up * (0.5 * spine_height);
        bones.push(BoneDesc {
            parent: bone::PELVIS as i32,
            bind: frame(self.middle_spine, spine_rot),
            shape: Shape::Box { half_extents: Vec3::new(0.5 * shoulder_gap - 0.02, 0.5 * spine_height, 0.25 * shoulder_gap + 0.03) },
            shape_offset: spine_rot.inverse() * (spine_centre - self.middle_spine),
            shape_rotation: spine_rot.inverse() * pelvis_rot,
            mass: mass_of(bone::MIDDLE_SPINE),
            density: 1000.0,
            joint: joint(spine_rot, swing_twist(-20.0, 20.0, 10.0), right, forward),
        });
        // Head: a sphere a quarter of the shoulders' width in radius, resting on the head bone.
        let head_rot = spine_rot;
        let head_radius = 0.25 * shoulder_gap;
        bones.push(BoneDesc {
            parent: bone::MIDDLE_SPINE as i32,
            bind: frame(self.head, head_rot),
            shape: Shape::Sphere { radius: head_radius },
            shape_offset: Vec3::new(0.0, head_radius, 0.0),
            shape_rotation: Quat::IDENTITY,
            mass: mass_of(bone::HEAD),
            density: 1000.0,
            joint: joint(head_rot, swing_twist(-40.0, 25.0, 25.0), right, forward),
        });
        // Arms: the right side's axes are the wizard's (twist about up, elbow about forward);
        // the left side's are their mirror image (a rotation mirrored across the body's
        // mid-plane turns the other way about the mirrored axis).
        for (arm, elbow, hand, arm_index, side) in [
            (self.left_arm, self.left_elbow, self.left_hand, bone::LEFT_ARM, -1.0f32),
            (self.right_arm, self.right_elbow, self.right_hand, bone::RIGHT_ARM, 1.0),
        ] {
            let upper_rot = along(elbow - arm);
            bones.push(limb(arm_index, bone::MIDDLE_SPINE, arm, elbow, 0.25, shoulder_gap, joint(upper_rot, swing_twist(-70.0, 10.0, 50.0), up * side, forward)));
            let fore_rot = along(hand - elbow);
            bones.push(limb(arm_index + 1, arm_index, elbow, hand, 0.2, shoulder_gap, joint(fore_rot, JointKind::Hinge { min: -90.0, max: 0.0 }, forward * side, up)));
        }
        debug_assert_eq!(bones.len(), bone::COUNT);
        Ok(RagdollDesc { bones, settings: RagdollSettings::default() })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn template_is_valid_with_the_wizards_masses() {
        let desc = HumanoidBones::standing(Vec3::new(3.0, 0.0, -2.0)).ragdoll().unwrap();
        desc.validate().unwrap();
        assert_eq!(desc.bones.len(), bone::COUNT);
        let total: f32 = desc.bones.iter().map(|b| b.mass).sum();
        assert!((total - 20.0).abs() < 1e-4, "total mass {total}");
        // The wizard's 2.5 : 1.5 : 1 weights, scaled to 20 kg.
        assert!((desc.bones[bone::PELVIS].mass - 3.125).abs() < 1e-5);
        assert!((desc.bones[bone::LEFT_KNEE].mass - 1.875).abs() < 1e-5);
        assert!((desc.bones[bone::HEAD].mass - 1.25).abs() < 1e-5);
        for (i, b) in desc.bones.iter().enumerate() {
            assert!(b.parent < i as i32);
        }
    }

    /// Each limb's frame has local Y along the limb, and its capsule spans joint to joint.
    #[test]
    fn limbs_run_joint_to_joint() {
        let h = HumanoidBones::standing(Vec3::ZERO);
        let desc = h.ragdoll().unwrap();
        for (i, a, b) in [(bone::LEFT_HIP, h.left_hip, h.left_knee), (bone::RIGHT_KNEE, h.right_knee, h.right_foot), (bone::LEFT_ELBOW, h.left_elbow, h.left_hand), (bone::RIGHT_ARM, h.right_arm, h.right_elbow)] {
            let d = &desc.bones[i];
            let y = d.bind.rotation * Vec3::Y;
            assert!(y.dot((b - a).normalize()) > 0.9999, "bone {i}");
            let Shape::Capsule { half_height, radius0, .. } = d.shape else { panic!() };
            let centre = d.bind.to_world(d.shape_offset);
            assert!((centre - (a + b) * 0.5).length() < 1e-5);
            assert!((2.0 * (half_height + radius0) - a.distance(b)).abs() < 1e-5, "bone {i}");
        }
    }

    /// The left side is the right side's mirror image: mirrored across the body's mid-plane, a
    /// left joint's world axis (after the mirror's sign) equals the right one's.
    #[test]
    fn left_axes_mirror_the_right() {
        let desc = HumanoidBones::standing(Vec3::ZERO).ragdoll().unwrap();
        let mirror = |v: Vec3| Vec3::new(-v.x, v.y, v.z);
        for (l, r) in [(bone::LEFT_HIP, bone::RIGHT_HIP), (bone::LEFT_KNEE, bone::RIGHT_KNEE), (bone::LEFT_ARM, bone::RIGHT_ARM), (bone::LEFT_ELBOW, bone::RIGHT_ELBOW)] {
            let world = |i: usize| desc.bones[i].bind.rotation * desc.bones[i].joint.axis;
            // A rotation about a mirrored by M is a rotation about −M·a.
            assert!((-mirror(world(l)) - world(r)).length() < 1e-5, "bones {l}, {r}: {} vs {}", world(l), world(r));
            assert_eq!(desc.bones[l].joint.kind, desc.bones[r].joint.kind);
        }
        // The right side is the wizard's: knee about +right, arm twist about +up.
        assert!((desc.bones[bone::RIGHT_KNEE].bind.rotation * desc.bones[bone::RIGHT_KNEE].joint.axis - Vec3::X).length() < 1e-5);
        assert!((desc.bones[bone::RIGHT_ARM].bind.rotation * desc.bones[bone::RIGHT_ARM].joint.axis - Vec3::Y).length() < 1e-5);
    }

    /// No two bones that may collide (neither parent nor child of the other) overlap in the
    /// bind pose, checked on points sampled over each shape's surface.
    #[test]
    fn non_adjacent_bones_start_apart() {
        let desc = HumanoidBones::standing(Vec3::ZERO).ragdoll().unwrap();
        let world_shape = |i: usize| {
            let b = &desc.bones[i];
            let pose = Pose { rotation: b.bind.rotation * b.shape_rotation, position: b.bind.to_world(b.shape_offset), scale: 1.0 };
            (b.shape, pose)
        };
        let n = desc.bones.len();
        for i in 0..n {
            for j in 0..n {
                let adjacent = i == j || desc.bones[i].parent == j as i32 || desc.bones[j].parent == i as i32;
                if adjacent {
                    continue;
                }
                let (si, pi) = world_shape(i);
                let (sj, pj) = world_shape(j);
                // Points on a sphere of i's bounding radius pulled onto i's surface by its distance.
                for k in 0..400 {
                    let t = k as f32 * 2.399_963; // golden angle
                    let z = 1.0 - 2.0 * (k as f32 + 0.5) / 400.0;
                    let r = (1.0 - z * z).sqrt();
                    let dir = Vec3::new(r * t.cos(), z, r * t.sin());
                    let mut p = dir * si.bounding_radius();
                    for _ in 0..8 {
                        let (d, nrm) = si.distance(p);
                        p -= nrm * d;
                    }
                    let (dj, _) = sj.distance(pj.to_local(pi.to_world(p)));
                    assert!(dj > 0.0, "bones {i} and {j} overlap at the bind pose (depth {dj})");
                }
            }
        }
    }

    #[test]
    fn degenerate_rigs_are_refused_with_the_bone_named() {
        let mut h = HumanoidBones::standing(Vec3::ZERO);
        h.left_knee = h.left_hip;
        let e = h.ragdoll().unwrap_err();
        assert!(e.message.contains("left_hip → left_knee"), "{}", e.message);
        let mut h = HumanoidBones::standing(Vec3::ZERO);
        h.head.y = f32::NAN;
        assert!(h.ragdoll().unwrap_err().message.contains("head"));
        let mut h = HumanoidBones::standing(Vec3::ZERO);
        h.forward = h.up;
        assert!(h.ragdoll().is_err());
        let mut h = HumanoidBones::standing(Vec3::ZERO);
        h.total_mass = 0.0;
        assert!(h.ragdoll().unwrap_err().message.contains("total_mass"));
    }
}
