//! What a host describes: bones (parent, bind pose, shape, mass, joint) and the ragdoll's
//! shared settings. Angles are in degrees and axes follow Unity's joints, so numbers copy
//! across from a `HingeJoint` or a `CharacterJoint`:
//!
//! | Sinew (`JointDesc`)          | Unity `HingeJoint`       | Unity `CharacterJoint`            |
//! |------------------------------|--------------------------|-----------------------------------|
//! | `anchor` (bone's frame)      | `anchor`                 | `anchor`                          |
//! | `axis` (bone's frame)        | `axis`                   | `axis` (the twist axis)           |
//! | `swing_axis` (bone's frame)  | —                        | `swingAxis` (swing 1 turns about it) |
//! | `Hinge { min, max }`         | `limits.min`, `limits.max` | —                               |
//! | `SwingTwist { swing1, … }`   | —                        | `swing1Limit`, `swing2Limit`, `lowTwistLimit`, `highTwistLimit` |
//!
//! A joint belongs to the child bone and joins it to its parent; the parent's side of the
//! joint frame is taken from the bind pose, so every joint is exactly satisfied, and every
//! angle is zero, in the bind pose.
//!
//! **Angle signs are Unity's.** A hinge or twist angle `θ` about `axis` means the child has
//! turned by `−θ` about `axis` from the bind pose relative to its parent (its rotation
//! relative to the parent is `Quat::from_axis_angle(axis, −θ)`, glam's and Unity's
//! quaternion formulas being the same). That is the sign Unity's joints report: the Ragdoll
//! Wizard's knee, a twist axis along the character's right with limits `[−80°, 0°]`, lets the
//! shin swing backwards, and its hip `[−20°, 70°]` lets the thigh swing 70° forwards. Swing
//! limits are half-angles (no sign).

use crate::error::{Error, MAX_FACTOR, Result, check_finite, check_non_negative, check_position, check_within, is_unit, within_part};
use crate::geometry::{Pose, Shape};
use crate::math::{Quat, Vec3, is_finite3};

/// Most bones in one ragdoll.
pub const MAX_BONES: usize = 256;

// The ranges of a ragdoll's description, named once: `validate` checks them and the header
// states them (tests/documented_ranges.rs passes both edges of each through the C ABI).

/// Hinge and twist limits are within ±this (degrees).
pub const MAX_JOINT_ANGLE: f32 = 180.0;
/// Swing half-angles are within [0, this] (degrees): a cone of 180° has no axis left.
pub const MAX_SWING_ANGLE: f32 = 177.0;
/// Largest limit spring (N·m/rad), limit damper (N·m·s/rad) and joint friction (N·m).
pub const MAX_JOINT_STRENGTH: f32 = 1e9;
/// A bone's mass (kg) is 0 (from its density) or within [`MIN_BONE_MASS`, `MAX_BONE_MASS`]:
/// below, its inverse inertia is past `f32`.
pub const MIN_BONE_MASS: f32 = 1e-6;
pub const MAX_BONE_MASS: f32 = 1e6;
/// A bone's density (kg/m³) is within (0, this].
pub const MAX_BONE_DENSITY: f32 = 1e5;
/// `RagdollSettings::max_mass_ratio` is within [1, this].
pub const MAX_MASS_RATIO: f32 = 1e4;
/// Largest muscle and pin natural frequency (Hz) and damping ratio.
pub const MAX_DRIVE_FREQUENCY: f32 = 1e3;
pub const MAX_DAMPING_RATIO: f32 = 1e3;
/// Largest muscle torque (N·m).
pub const MAX_MUSCLE_TORQUE: f32 = 1e7;
/// Largest `hit_full_impulse` (N·s).
pub const MAX_HIT_IMPULSE: f32 = 1e6;
/// Largest duration (s): `sleep_time`, `hit_recovery_time`.
pub const MAX_DURATION: f32 = 1e6;
/// Largest `rest_speed` (m/s).
pub const MAX_REST_SPEED: f32 = 1e3;

/// The joint that holds a bone to its parent.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum JointKind {
    /// No joint: the bone moves freely (the root, or a loose part).
    Free,
    /// Welded to the parent.
    Fixed,
    /// Turns about `axis` only, between `min` and `max` degrees (elbow, knee).
    Hinge { min: f32, max: f32 },
    /// Swing-twist ("cone"): the bone's `axis` stays in an elliptical cone of half-angles
    /// `swing1` (turning about `swing_axis`) and `swing2` (about `axis × swing_axis`), and
    /// twists about it between `low_twist` and `high_twist` degrees (shoulder, hip, spine).
    SwingTwist { swing1: f32, swing2: f32, low_twist: f32, high_twist: f32 },
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct JointDesc {
    pub kind: JointKind,
    /// Where the joint is, in the bone's frame (m). Usually the origin: the bone's pivot.
    pub anchor: Vec3,
    /// The hinge or twist axis, in the bone's frame (normalised on creation).
    pub axis: Vec3,
    /// The swing-1 axis, in the bone's frame (made perpendicular to `axis` on creation).
    pub swing_axis: Vec3,
    /// Limit softness: a spring (N·m/rad) and damper (N·m·s/rad) instead of a hard stop.
    /// 0 and 0 give a hard limit.
    pub limit_spring: f32,
    pub limit_damper: f32,
    /// Joint friction: a torque (N·m) the joint resists turning with.
    pub friction: f32,
}

impl Default for JointDesc {
    fn default() -> Self {
        JointDesc {
            kind: JointKind::Free,
            anchor: Vec3::ZERO,
            axis: Vec3::X,
            swing_axis: Vec3::Y,
            limit_spring: 0.0,
            limit_damper: 0.0,
            friction: 0.0,
        }
    }
}

/// One bone.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BoneDesc {
    /// Index of the parent bone, or −1 for a root. Parents come before their children.
    pub parent: i32,
    /// The bone's world transform in the bind pose (scale 1).
    pub bind: Pose,
    /// The bone's collision shape (sphere, capsule or box; a capsule's axis is its local Y).
    pub shape: Shape,
    /// The shape's placement in the bone's frame.
    pub shape_offset: Vec3,
    pub shape_rotation: Quat,
    /// kg; 0 takes the mass from `density` and the shape's volume.
    pub mass: f32,
    /// kg/m³, used when `mass` is 0. Default 1000 (water, about a body's).
    pub density: f32,
    pub joint: JointDesc,
}

impl Default for BoneDesc {
    fn default() -> Self {
        BoneDesc {
            parent: -1,
            bind: Pose { rotation: Quat::IDENTITY, position: Vec3::ZERO, scale: 1.0 },
            shape: Shape::Capsule { half_height: 0.1, radius0: 0.05, radius1: 0.05 },
            shape_offset: Vec3::ZERO,
            shape_rotation: Quat::IDENTITY,
            mass: 1.0,
            density: 1000.0,
            joint: JointDesc::default(),
        }
    }
}

/// Settings shared by every bone of a ragdoll.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RagdollSettings {
    /// Even out mass ratios along the chain (Jolt's `Stabilize`): a child is at least
    /// `1/max_mass_ratio` and at most `max_mass_ratio` times its parent's mass, and inertia
    /// is raised to a solid capsule's of the bone's length. On by default.
    pub stabilize: bool,
    /// Default 5.
    pub max_mass_ratio: f32,
    /// Bones of the ragdoll collide with each other (not with their parent or children).
    /// Default on.
    pub self_collision: bool,
    /// Parents collide with their children too. Default off.
    pub collide_parent_child: bool,
    /// Coulomb friction coefficient of the bones' contacts. Default 0.6.
    pub friction: f32,
    /// Restitution (0 = no bounce, 1 = elastic). Default 0.
    pub restitution: f32,
    /// Fraction of linear / angular velocity removed per second. Default 0.05 / 0.05.
    pub linear_damping: f32,
    pub angular_damping: f32,
    /// Collider layers the bones meet (`collider.layers & mask != 0`). Default all.
    pub collider_mask: u32,
    /// The ragdoll sleeps once every bone has stayed slower than `sleep_threshold` (m/s, and
    /// rad/s × bone size) for `sleep_time` seconds. Default 0.02 m/s, 0.5 s.
    pub sleep_threshold: f32,
    pub sleep_time: f32,
    /// Start kinematic (animated) instead of dynamic.
    pub kinematic: bool,
    /// Powered ragdoll (`ragdoll::drive`): each joint's muscle is a spring of this natural
    /// frequency (Hz) at strength 1, whatever the bones' inertias, with this damping ratio
    /// and at most this torque (N·m). Default 4 Hz, 1 (critical), 400 N·m.
    pub muscle_frequency: f32,
    pub muscle_damping_ratio: f32,
    pub muscle_max_torque: f32,
    /// Pins to the animated world pose at pin weight 1: natural frequency (Hz) and damping
    /// ratio. Default 20 Hz (a bone hangs 0.6 mm under its pose against gravity), 1.
    pub pin_frequency: f32,
    pub pin_damping_ratio: f32,
    /// Hit reactions: an impulse of `hit_full_impulse` N·s on a bone takes
    /// `hit_strength_loss` (0–1) of its muscle strength and pin weight (a larger one
    /// proportionally more, up to all), its neighbours lose `hit_neighbour_falloff` of that
    /// per joint away, and the loss recovers linearly over `hit_recovery_time` s. Default
    /// 0.8, 0.5, 20 N·s, 1.5 s.
    pub hit_strength_loss: f32,
    pub hit_neighbour_falloff: f32,
    pub hit_full_impulse: f32,
    pub hit_recovery_time: f32,
    /// A driven ragdoll whose root is farther than this (m) from its animated position goes
    /// limp and reports that it lost its balance. 0: never. Default 0.4 m.
    pub balance_distance: f32,
    /// The "at rest" clock runs while every bone is slower than this (m/s, and rad/s × bone
    /// size). Default 0.05 m/s.
    pub rest_speed: f32,
}

impl Default for RagdollSettings {
    fn default() -> Self {
        RagdollSettings {
            stabilize: true,
            max_mass_ratio: 5.0,
            self_collision: true,
            collide_parent_child: false,
            friction: 0.6,
            restitution: 0.0,
            linear_damping: 0.05,
            angular_damping: 0.05,
            collider_mask: u32::MAX,
            sleep_threshold: 0.02,
            sleep_time: 0.5,
            kinematic: false,
            muscle_frequency: 4.0,
            muscle_damping_ratio: 1.0,
            muscle_max_torque: 400.0,
            pin_frequency: 20.0,
            pin_damping_ratio: 1.0,
            hit_strength_loss: 0.8,
            hit_neighbour_falloff: 0.5,
            hit_full_impulse: 20.0,
            hit_recovery_time: 1.5,
            balance_distance: 0.4,
            rest_speed: 0.05,
        }
    }
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct RagdollDesc {
    pub bones: Vec<BoneDesc>,
    pub settings: RagdollSettings,
}

impl JointDesc {
    fn validate(&self, bone: usize) -> Result<()> {
        let at = |what: &str| format!("bone {bone}: joint {what}");
        for (v, name) in [(self.anchor, "anchor"), (self.axis, "axis"), (self.swing_axis, "swing_axis")] {
            if !is_finite3(v) {
                return Err(Error::non_finite(format!("{} is not finite", at(name))));
            }
        }
        // (The checks below name the field; `part` puts the bone and joint before it, only
        // when one fails.)
        let part = || within_part(|| format!("bone {bone}: joint "));
        check_position(self.anchor, "anchor").map_err(part())?;
        if self.axis.length() < 1e-6 {
            return Err(Error::invalid(format!("{} has zero length", at("axis"))));
        }
        if self.axis.normalize().cross(self.swing_axis).length() < 1e-6 {
            return Err(Error::invalid(format!("{} is zero or parallel to the axis", at("swing_axis"))));
        }
        check_within(self.limit_spring, MAX_JOINT_STRENGTH, "limit_spring (N·m/rad)").map_err(part())?;
        check_within(self.limit_damper, MAX_JOINT_STRENGTH, "limit_damper (N·m·s/rad)").map_err(part())?;
        check_within(self.friction, MAX_JOINT_STRENGTH, "friction (N·m)").map_err(part())?;
        let angle = |v: f32, lo: f32, hi: f32, name: &str| -> Result<()> {
            check_finite(v, name).map_err(part())?;
            if !(lo..=hi).contains(&v) {
                return Err(Error::invalid(format!("{} must be within [{lo}, {hi}] degrees (got {v})", at(name))));
            }
            Ok(())
        };
        match self.kind {
            JointKind::Free | JointKind::Fixed => {}
            JointKind::Hinge { min, max } => {
                angle(min, -MAX_JOINT_ANGLE, MAX_JOINT_ANGLE, "hinge min")?;
                angle(max, -MAX_JOINT_ANGLE, MAX_JOINT_ANGLE, "hinge max")?;
                if min > max {
                    return Err(Error::invalid(format!("{}: min {min} is above max {max}", at("hinge limits"))));
                }
            }
            JointKind::SwingTwist { swing1, swing2, low_twist, high_twist } => {
                angle(swing1, 0.0, MAX_SWING_ANGLE, "swing1")?;
                angle(swing2, 0.0, MAX_SWING_ANGLE, "swing2")?;
                angle(low_twist, -MAX_JOINT_ANGLE, MAX_JOINT_ANGLE, "low_twist")?;
                angle(high_twist, -MAX_JOINT_ANGLE, MAX_JOINT_ANGLE, "high_twist")?;
                if low_twist > high_twist {
                    return Err(Error::invalid(format!("{}: low_twist {low_twist} is above high_twist {high_twist}", at("twist limits"))));
                }
            }
        }
        Ok(())
    }
}

impl BoneDesc {
    fn validate(&self, bone: usize) -> Result<()> {
        let at = |what: &str| format!("bone {bone}: {what}");
        if self.parent < -1 || self.parent >= bone as i32 {
            return Err(Error::out_of_range(format!(
                "{} must be −1 or the index of an earlier bone (got {})",
                at("parent"),
                self.parent
            )));
        }
        let b = &self.bind;
        if !is_finite3(b.position) || !b.rotation.is_finite() || !b.scale.is_finite() {
            return Err(Error::non_finite(at("bind pose is not finite")));
        }
        let part = || within_part(|| format!("bone {bone}: "));
        check_position(b.position, "bind position").map_err(part())?;
        if !is_unit(b.rotation.length()) {
            return Err(Error::invalid(format!("{} is not a unit quaternion (length {})", at("bind rotation"), b.rotation.length())));
        }
        if !is_unit(b.scale) {
            return Err(Error::invalid(format!("{} must be 1 (got {}): bones are rigid", at("bind scale"), b.scale)));
        }
        match self.shape {
            Shape::Plane => return Err(Error::invalid(at("a bone's shape must be a sphere, capsule or box (got a plane)"))),
            s => s.validate().map_err(|e| Error::new(e.kind, at(&e.message)))?,
        }
        if !is_finite3(self.shape_offset) || !self.shape_rotation.is_finite() {
            return Err(Error::non_finite(at("shape offset or rotation is not finite")));
        }
        check_position(self.shape_offset, "shape_offset").map_err(part())?;
        if !is_unit(self.shape_rotation.length()) {
            return Err(Error::invalid(format!("{} is not a unit quaternion", at("shape_rotation"))));
        }
        check_within(self.mass, MAX_BONE_MASS, "mass (kg)").map_err(part())?;
        // 0 takes the mass from the density; a nonzero one below 1e-6 kg has an inverse
        // inertia past f32.
        if self.mass != 0.0 && self.mass < MIN_BONE_MASS {
            return Err(Error::invalid(format!("{} must be 0 (from density) or within [{MIN_BONE_MASS:e}, {MAX_BONE_MASS:e}] kg (got {})", at("mass"), self.mass)));
        }
        // Checked whether it is used or not: a NaN density beside a mass is a bad input too,
        // and would be used the moment the host clears the mass.
        check_finite(self.density, "density").map_err(part())?;
        if !(self.density > 0.0 && self.density <= MAX_BONE_DENSITY) {
            return Err(Error::invalid(format!("{} must be within (0, {MAX_BONE_DENSITY:e}] kg/m³ (got {})", at("density"), self.density)));
        }
        self.joint.validate(bone)?;
        if self.parent < 0 && !matches!(self.joint.kind, JointKind::Free) {
            return Err(Error::invalid(at("a root bone (parent −1) has no joint; its joint kind must be Free")));
        }
        Ok(())
    }
}

impl RagdollSettings {
    pub fn validate(&self) -> Result<()> {
        check_finite(self.max_mass_ratio, "max_mass_ratio")?;
        if !(1.0..=MAX_MASS_RATIO).contains(&self.max_mass_ratio) {
            return Err(Error::invalid(format!("max_mass_ratio must be within [1, {MAX_MASS_RATIO}] (got {})", self.max_mass_ratio)));
        }
        check_within(self.friction, MAX_FACTOR, "friction")?;
        check_within(self.restitution, 1.0, "restitution")?;
        check_within(self.linear_damping, 1.0, "linear_damping")?;
        check_within(self.angular_damping, 1.0, "angular_damping")?;
        check_non_negative(self.sleep_threshold, "sleep_threshold")?;
        check_within(self.sleep_time, MAX_DURATION, "sleep_time (s)")?;
        check_within(self.muscle_frequency, MAX_DRIVE_FREQUENCY, "muscle_frequency (Hz)")?;
        check_within(self.muscle_damping_ratio, MAX_DAMPING_RATIO, "muscle_damping_ratio")?;
        check_within(self.muscle_max_torque, MAX_MUSCLE_TORQUE, "muscle_max_torque (N·m)")?;
        check_within(self.pin_frequency, MAX_DRIVE_FREQUENCY, "pin_frequency (Hz)")?;
        check_within(self.pin_damping_ratio, MAX_DAMPING_RATIO, "pin_damping_ratio")?;
        check_within(self.hit_strength_loss, 1.0, "hit_strength_loss")?;
        check_within(self.hit_neighbour_falloff, 1.0, "hit_neighbour_falloff")?;
        check_within(self.hit_full_impulse, MAX_HIT_IMPULSE, "hit_full_impulse (N·s)")?;
        check_within(self.hit_recovery_time, MAX_DURATION, "hit_recovery_time (s)")?;
        check_within(self.balance_distance, crate::error::MAX_LENGTH, "balance_distance (m)")?;
        check_within(self.rest_speed, MAX_REST_SPEED, "rest_speed (m/s)")?;
        Ok(())
    }
}

impl RagdollDesc {
    /// Places the ragdoll at `root`, a rigid transform (scale 1: [`Pose::from_rigid_matrix`]):
    /// every bone's bind pose becomes `root ∘ bind`. Joints, shapes and anchors are in the
    /// bones' frames, so they move with them; the ragdoll is the same ragdoll, turned and
    /// moved. A root that takes a bone beyond the world's extent is refused when the ragdoll
    /// is validated (naming the bone).
    pub fn place_at(&mut self, root: &Pose) -> Result<()> {
        if !is_finite3(root.position) || !root.rotation.is_finite() {
            return Err(Error::non_finite("root transform is not finite"));
        }
        if (root.scale - 1.0).abs() > 1e-3 || (root.rotation.length() - 1.0).abs() > 1e-3 {
            return Err(Error::invalid(format!("root transform must be rigid (a unit rotation, scale 1; got scale {})", root.scale)));
        }
        let root = Pose { rotation: root.rotation.normalize(), scale: 1.0, ..*root };
        for b in &mut self.bones {
            b.bind = root.compose(&b.bind);
        }
        Ok(())
    }

    pub fn validate(&self) -> Result<()> {
        if self.bones.is_empty() {
            return Err(Error::invalid("a ragdoll needs at least one bone (got 0)"));
        }
        if self.bones.len() > MAX_BONES {
            return Err(Error::too_large(format!("a ragdoll holds at most {MAX_BONES} bones (got {})", self.bones.len())));
        }
        for (i, b) in self.bones.iter().enumerate() {
            b.validate(i)?;
        }
        self.settings.validate()
    }
}
