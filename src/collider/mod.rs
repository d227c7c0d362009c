//! Colliders: spheres, tapered capsules, planes and oriented boxes (see [`crate::geometry`])
//! that the host moves each frame from its bones, and static triangle meshes
//! ([`TriMesh`]) for level geometry.
//!
//! A collider remembers where it was at the start of the host frame (`from`) and where the
//! host put it (`to`); during the frame's substeps it moves between them (position lerp,
//! rotation slerp), so a limb that moves 30 cm in a frame sweeps through the cloth instead
//! of jumping across it.
//!
//! A mesh collider is static: its pose is fixed at creation and changes only by a teleport
//! (`from = to`, nothing between is touched); [`Collider::set_target`] refuses it. So it never
//! moves during a step, and it never wakes a sleeping body except when it appears,
//! disappears, is teleported or changes layers. Its cooked mesh is shared by `Arc`: any
//! number of colliders, in any number of worlds, may point at one copy.

use std::sync::Arc;

use crate::error::{Error, Result};
use crate::geometry::{Pose, Shape, TriMesh};
use crate::math::Vec3;

/// What a collider is: an analytic shape, or a static triangle mesh.
#[derive(Clone, Debug)]
pub enum Geometry {
    Shape(Shape),
    Mesh(Arc<TriMesh>),
}

impl PartialEq for Geometry {
    /// Shapes by value; meshes by identity (the same cooked copy).
    fn eq(&self, other: &Geometry) -> bool {
        match (self, other) {
            (Geometry::Shape(a), Geometry::Shape(b)) => a == b,
            (Geometry::Mesh(a), Geometry::Mesh(b)) => Arc::ptr_eq(a, b),
            _ => false,
        }
    }
}

impl Geometry {
    /// The analytic shape, `None` for a mesh.
    #[inline]
    pub fn shape(&self) -> Option<&Shape> {
        match self {
            Geometry::Shape(s) => Some(s),
            Geometry::Mesh(_) => None,
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Collider {
    pub geometry: Geometry,
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
        Ok(Collider { geometry: Geometry::Shape(shape), layers, from: pose, to: pose })
    }

    /// A static mesh collider at `pose` (see the module's notes).
    pub fn new_mesh(mesh: Arc<TriMesh>, layers: u32, pose: Pose) -> Collider {
        Collider { geometry: Geometry::Mesh(mesh), layers, from: pose, to: pose }
    }

    /// Whether the collider only moves by teleport (a mesh).
    pub fn is_static(&self) -> bool {
        matches!(self.geometry, Geometry::Mesh(_))
    }

    /// Where the collider is at the end of the next frame (it sweeps there); refused for a
    /// static collider.
    pub fn set_target(&mut self, pose: Pose) -> Result<()> {
        if self.is_static() {
            return Err(Error::invalid(
                "a mesh collider is static: it cannot sweep to a new transform; move it with sinew_collider_teleport",
            ));
        }
        self.to = pose;
        Ok(())
    }

    /// Moves the collider without sweeping (nothing between is touched).
    pub fn teleport(&mut self, pose: Pose) {
        self.from = pose;
        self.to = pose;
    }

    /// Conservative world-space bounds of the collider over the whole frame, or `None` for
    /// an unbounded shape.
    pub fn swept_bounds(&self) -> Option<(Vec3, Vec3)> {
        swept_bounds(&self.geometry, &self.from, &self.to)
    }
}

fn swept_bounds(geometry: &Geometry, from: &Pose, to: &Pose) -> Option<(Vec3, Vec3)> {
    match geometry {
        Geometry::Shape(shape) => {
            let r = shape.bounding_radius();
            if !r.is_finite() {
                return None;
            }
            let (a, b) = (from.position, to.position);
            let ra = r * from.scale;
            let rb = r * to.scale;
            Some((a.min(b) - Vec3::splat(ra.max(rb)), a.max(b) + Vec3::splat(ra.max(rb))))
        }
        Geometry::Mesh(mesh) => {
            let (mlo, mhi) = mesh.bounds();
            let (mut lo, mut hi) = (Vec3::splat(f32::INFINITY), Vec3::splat(f32::NEG_INFINITY));
            for pose in [from, to] {
                for k in 0..8 {
                    let corner = Vec3::new(
                        if k & 1 == 0 { mlo.x } else { mhi.x },
                        if k & 2 == 0 { mlo.y } else { mhi.y },
                        if k & 4 == 0 { mlo.z } else { mhi.z },
                    );
                    let w = pose.to_world(corner);
                    lo = lo.min(w);
                    hi = hi.max(w);
                }
            }
            // The rotation's rounding, at the scale of the box.
            let slack = Vec3::splat(1e-5 * (hi - lo).max_element().max(lo.abs().max_element()).max(hi.abs().max_element()));
            Some((lo - slack, hi + slack))
        }
    }
}

/// A collider as one fixed step sees it.
#[derive(Clone, Debug)]
pub struct ColliderFrame {
    pub geometry: Geometry,
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
        let geometry = Geometry::Shape(shape);
        let bounds = swept_bounds(&geometry, &from, &to);
        ColliderFrame { geometry, layers: u32::MAX, from, to, bounds, owner }
    }

    /// The collider over the fixed step `[t0, t1]` on its motion from `from` (0) to `to` (1),
    /// carried on at its velocity beyond 1 (simulated time ahead of host time).
    pub fn of(c: &Collider, t0: f32, t1: f32) -> ColliderFrame {
        let (from, to) = (c.from.extrapolate(&c.to, t0), c.from.extrapolate(&c.to, t1));
        ColliderFrame { geometry: c.geometry.clone(), layers: c.layers, from, to, bounds: swept_bounds(&c.geometry, &from, &to), owner: 0 }
    }

    /// The analytic shape, `None` for a mesh.
    #[inline]
    pub fn shape(&self) -> Option<&Shape> {
        self.geometry.shape()
    }
}
