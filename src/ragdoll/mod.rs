//! Ragdolls: rigid bones joined by joints, the second family of objects a world steps
//! (chapter sections 1–4). A ragdoll is built from a bone list ([`RagdollDesc`]) or from a
//! humanoid's bone positions ([`humanoid`]); its bones are stepped by the rigid-body kernels
//! of `solver/rigid` in the world's fixed steps and substeps.
//!
//! Every bone is kinematic (moved by the host's animation, like a pin) or dynamic (moved by
//! physics), switchable at any time and per bone. Bone poses are read back interpolated like
//! particle positions.
//!
//! SKELETON: the API below is the contract; the bodies marked `todo!` are being written.

pub mod desc;
pub mod humanoid;

pub use desc::{BoneDesc, JointDesc, JointKind, MAX_BONES, RagdollDesc, RagdollSettings};

use crate::error::Result;
use crate::geometry::Pose;
use crate::math::{Mat4, Quat, Vec3};

/// A ragdoll in a world.
pub struct Ragdoll {
    desc: RagdollDesc,
}

impl Ragdoll {
    /// Builds a ragdoll in its bind pose, at rest.
    pub fn new(desc: &RagdollDesc) -> Result<Ragdoll> {
        desc.validate()?;
        Ok(Ragdoll { desc: desc.clone() })
    }

    pub fn bone_count(&self) -> usize {
        self.desc.bones.len()
    }

    /// The description it was built from (after the world's adjustments: stabilised masses
    /// are not written back here).
    pub fn desc(&self) -> &RagdollDesc {
        &self.desc
    }

    /// Makes every bone kinematic (animated) or dynamic (physics).
    pub fn set_kinematic(&mut self, _kinematic: bool) {
        todo!()
    }

    /// Makes one bone kinematic or dynamic (a partial ragdoll).
    pub fn set_bone_kinematic(&mut self, _bone: usize, _kinematic: bool) -> Result<()> {
        todo!()
    }

    pub fn is_bone_kinematic(&self, _bone: usize) -> Result<bool> {
        todo!()
    }

    /// Where the host's animation puts every bone at the end of this host frame (bone world
    /// transforms, scale 1); kinematic bones move there across the frame's substeps and their
    /// velocity is tracked, dynamic bones ignore it. `poses.len()` must be the bone count.
    pub fn set_targets(&mut self, _poses: &[Pose]) -> Result<()> {
        todo!()
    }

    pub fn set_bone_target(&mut self, _bone: usize, _pose: Pose) -> Result<()> {
        todo!()
    }

    /// Teleports every bone to `poses` (bone world transforms); velocities are kept or zeroed.
    pub fn set_pose(&mut self, _poses: &[Pose], _keep_velocity: bool) -> Result<()> {
        todo!()
    }

    /// Applies `impulse` (N·s) at world `point` to the bone whose shape's surface is nearest to
    /// it; returns that bone.
    pub fn apply_impulse(&mut self, _point: Vec3, _impulse: Vec3) -> Result<usize> {
        todo!()
    }

    /// Applies `impulse` (N·s) at world `point` to `bone`.
    pub fn apply_bone_impulse(&mut self, _bone: usize, _point: Vec3, _impulse: Vec3) -> Result<()> {
        todo!()
    }

    /// A radial impulse from `centre`: each bone within `radius` gets `impulse·(1 − d/radius)`
    /// (N·s) away from the centre at its centre of mass (d: distance to its surface).
    pub fn apply_explosion(&mut self, _centre: Vec3, _impulse: f32, _radius: f32) -> Result<()> {
        todo!()
    }

    /// A force (N) at world `point` on `bone`, applied over the fixed steps of the next host
    /// frame (then cleared).
    pub fn add_force(&mut self, _bone: usize, _point: Vec3, _force: Vec3) -> Result<()> {
        todo!()
    }

    /// Bone world positions and rotations, interpolated by `alpha` between the last two
    /// fixed steps. Each buffer must hold `bone_count` entries.
    pub fn read_pose(&self, _alpha: f32, _positions: &mut [Vec3], _rotations: &mut [Quat]) -> Result<()> {
        todo!()
    }

    /// Bone world transforms as column-major matrices (Unity's `Matrix4x4` layout).
    pub fn read_matrices(&self, _alpha: f32, _out: &mut [Mat4]) -> Result<()> {
        todo!()
    }

    /// Linear (m/s, of the bone's origin) and angular (rad/s) velocities.
    pub fn read_velocities(&self, _linear: &mut [Vec3], _angular: &mut [Vec3]) -> Result<()> {
        todo!()
    }

    pub fn is_asleep(&self) -> bool {
        todo!()
    }

    pub fn wake(&mut self) {
        todo!()
    }

    /// Bone `bone`'s world transform at fraction `t` of the last fixed step (0: its start, 1:
    /// its end; position lerp, rotation slerp). The world steps ragdolls before particle
    /// bodies, so during a fixed step this is the motion the particles see (pins that follow
    /// a bone, bone colliders).
    pub fn bone_pose_in_step(&self, _bone: usize, _t: f32) -> Pose {
        todo!()
    }

    /// Every bone's collision shape with its world pose (the shape's, offset included) at the
    /// start and end of the last fixed step.
    pub fn bone_shapes_in_step(&self) -> impl Iterator<Item = (crate::geometry::Shape, Pose, Pose)> + '_ {
        std::iter::from_fn(|| todo!())
    }

    /// Turns collision between two bones of this ragdoll on or off.
    pub fn set_bone_pair_collision(&mut self, _a: usize, _b: usize, _enabled: bool) -> Result<()> {
        todo!()
    }
}
