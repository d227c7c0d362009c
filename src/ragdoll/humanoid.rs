//! The humanoid template: the 11 bodies of Unity's Ragdoll Wizard from a rig's bone positions.
//! SKELETON: being written.

use super::RagdollDesc;
use crate::error::Result;
use crate::math::Vec3;

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
    /// The character's up and forward directions (world). Default +Y and +Z.
    pub up: Vec3,
    pub forward: Vec3,
    /// Total mass (kg). The wizard's default is 20.
    pub total_mass: f32,
}

/// Bone indices of the template's ragdoll, in order.
pub mod bone {
    pub const PELVIS: usize = 0;
    pub const LEFT_HIP: usize = 1;
    pub const LEFT_KNEE: usize = 2;
    pub const RIGHT_HIP: usize = 3;
    pub const RIGHT_KNEE: usize = 4;
    pub const LEFT_ARM: usize = 5;
    pub const LEFT_ELBOW: usize = 6;
    pub const RIGHT_ARM: usize = 7;
    pub const RIGHT_ELBOW: usize = 8;
    pub const MIDDLE_SPINE: usize = 9;
    pub const HEAD: usize = 10;
    pub const COUNT: usize = 11;
}

impl HumanoidBones {
    /// A 1.8 m character standing at the origin, facing +Z.
    pub fn standing(position: Vec3) -> HumanoidBones {
        let _ = position;
        todo!()
    }

    /// The ragdoll description (11 bones), editable before it is created.
    pub fn ragdoll(&self) -> Result<RagdollDesc> {
        todo!()
    }
}
