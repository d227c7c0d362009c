//! Colliders: spheres, tapered capsules, planes and oriented boxes (see [`crate::geometry`])
//! that the host moves each frame from its bones.
//!
//! A collider remembers where it was at the start of the host frame (`from`) and where the
//! host put it (`to`); during the frame's substeps it moves between them (position lerp,
//! rotation slerp), so a limb that moves 30 cm in a frame sweeps through the cloth instead
//! of jumping across it.

use crate::error::Result;
use crate::geometry::{Pose, Shape};
use crate::math::Vec3;

#[derive(Clone, Debug, PartialEq)]
pub struct Collider {
    pub shape: Shape,
    /// Bit mask of the layers this collider is on; a body meets it when `layers & mask != 0`.
    pub layers: u32,
    /// Pose at the start of the current host frame.
    pub from: Pose,
    /// Pose the host set for the end of the frame.
    pub to: Pose,
}

impl Collider {
    pub fn new(shape: Shape, layers: u32, pose: Pose) -> Result<Collider> {
        shape.validate()?;
        Ok(Collider { shape, layers, from: pose, to: pose })
    }

    /// Conservative world-space bounds of the collider over the whole frame, or `None` for
    /// an unbounded shape.
    pub fn swept_bounds(&self) -> Option<(Vec3, Vec3)> {
        let r = self.shape.bounding_radius();
        if !r.is_finite() {
            return None;
        }
        let (a, b) = (self.from.position, self.to.position);
        let ra = r * self.from.scale;
        let rb = r * self.to.scale;
        Some((a.min(b) - Vec3::splat(ra.max(rb)), a.max(b) + Vec3::splat(ra.max(rb))))
    }
}

/// A collider as one fixed step sees it.
#[derive(Clone, Copy, Debug)]
pub struct ColliderFrame {
    pub shape: Shape,
    pub layers: u32,
    /// Pose at the start and end of the fixed step.
    pub from: Pose,
    pub to: Pose,
    /// World bounds over the step, `None` for unbounded shapes.
    pub bounds: Option<(Vec3, Vec3)>,
    /// Who the shape belongs to: 0 for the world's colliders (every body meets them, by
    /// layer), otherwise the object whose shape it is (a ragdoll's bone), met only by bodies
    /// that asked for it.
    pub owner: u32,
}

impl ColliderFrame {
    /// A shape of object `owner` moving from `from` to `to` over the fixed step.
    pub fn owned(shape: Shape, from: Pose, to: Pose, owner: u32) -> ColliderFrame {
        let step = Collider { shape, layers: u32::MAX, from, to };
        ColliderFrame { shape, layers: u32::MAX, from, to, bounds: step.swept_bounds(), owner }
    }

    /// The collider over the fixed step `[t0, t1]` on its motion from `from` (0) to `to` (1),
    /// carried on at its velocity beyond 1 (simulated time ahead of host time).
    pub fn of(c: &Collider, t0: f32, t1: f32) -> ColliderFrame {
        let (from, to) = (c.from.extrapolate(&c.to, t0), c.from.extrapolate(&c.to, t1));
        let step = Collider { shape: c.shape, layers: c.layers, from, to };
        ColliderFrame { shape: c.shape, layers: c.layers, from, to, bounds: step.swept_bounds(), owner: 0 }
    }
}
