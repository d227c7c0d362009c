//! Contacts of rigid bodies: bone shapes against static or moving shapes and against each
//! other. SKELETON: being written — until then no contacts are found.

use super::RigidBody;
use crate::geometry::{Pose, Shape};

/// A body's collision shape, placed in its body frame (centre-of-mass frame).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BodyShape {
    pub shape: Shape,
    pub local: Pose,
}

/// A shape the bodies collide with but do not move (a collider, a kinematic bone of another
/// object), with its pose at the start and end of the fixed step.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ObstacleShape {
    pub shape: Shape,
    pub layers: u32,
    pub from: Pose,
    pub to: Pose,
}

/// Material of the bodies' contacts.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ContactMaterial {
    pub friction: f32,
    pub restitution: f32,
}

/// The contacts of one group of bodies (reusable buffers: no allocation once warm).
#[derive(Clone, Debug, Default)]
pub struct Contacts {}

impl Contacts {
    /// Finds the contacts of the substep running from fraction `t0` to `t1` of the fixed step.
    /// `pair(i, j)` says whether bodies `i < j` may collide; `mask` filters obstacles by layer.
    #[allow(clippy::too_many_arguments)]
    pub fn collect(
        &mut self,
        _bodies: &[RigidBody],
        _shapes: &[BodyShape],
        _obstacles: &[ObstacleShape],
        _mask: u32,
        _pair: impl Fn(usize, usize) -> bool,
        _t0: f32,
        _t1: f32,
    ) {
    }

    /// Position pass: non-penetration and static friction (XPBD, paper §3.5).
    pub fn solve_positions(&mut self, _bodies: &mut [RigidBody], _material: ContactMaterial, _h: f32) {}

    /// Velocity pass after `v ← Δx/h`: restitution and dynamic friction (paper §3.6).
    pub fn solve_velocities(&mut self, _bodies: &mut [RigidBody], _material: ContactMaterial, _gravity: crate::math::Vec3, _h: f32) {}

    pub fn len(&self) -> usize {
        0
    }

    pub fn is_empty(&self) -> bool {
        true
    }
}
