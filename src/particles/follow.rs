//! Pins driven from inside the world's step (a cape's neck pinned to a ragdoll's chest bone)
//! and colliders owned by another object (that ragdoll's bone shapes).
//!
//! A driven pin is an ordinary pin whose path the world rewrites before each fixed step:
//! the pin path runs linearly over the host frame in the frame fraction `t` (see `Pins`), so
//! to move from `a` at the step's start (`t0`) to `b` at its end (`t1`) the path's ends are
//! put at `start = a − (b − a)·t0/(t1 − t0)` and `end = start + (b − a)/(t1 − t0)`.

use super::Body;
use crate::geometry::{Pose, Shape};
use crate::math::{Mat3, Vec3};
use crate::solver::contact::shape::collide_particle;

/// A bone a body meets both ways in a fixed step it takes in company with the bone's ragdoll
/// (the world's companies): the bone's shape where the current substep starts and ends, its
/// inverse mass and world inverse inertia, and the correction the body's particles give it
/// in the substep.
#[derive(Clone, Copy, Debug)]
pub(crate) struct BoneCollider {
    pub shape: Shape,
    /// The bone's body frame (centre of mass, principal axes; the shape's frame) at the
    /// substep's start and end, world coordinates.
    pub p0: Pose,
    pub p1: Pose,
    pub inv_mass: f32,
    pub inv_inertia: Mat3,
    /// The bone's index among its company's rigid bodies.
    pub bone: u32,
    /// The contact is one way: the bone moves the particles as a collider does and takes
    /// nothing back. So are the bones of a sleeping ragdoll that only the bodies pinned to it
    /// meet (a cape settling on a sleeping character), and the bones of a ragdoll the body
    /// hangs on by pins: a pin does not pass the cloth's load
    /// to its bone, so a contact both ways would close a loop with no reaction in it — the
    /// cloth pushes the bone, the pin holds the cloth, and the ragdoll propels itself (in
    /// S7, humanoids lying on their capes slid at 2.5 m/s after 10 s).
    pub one_way: bool,
    /// This substep's correction of the bone: translation (m) and rotation vector (rad).
    pub dx: Vec3,
    pub dtheta: Vec3,
}

impl Body {
    /// Moves pinned vertex `vertex` from `a` (at frame fraction `t0`) to `b` (at `t1`) over
    /// the coming fixed step. A vertex that is no longer pinned is left alone (the host
    /// unpinned it). Wakes the body when the pin moves.
    pub fn drive_pin_over_step(&mut self, vertex: u32, a: Vec3, b: Vec3, t0: f32, t1: f32) {
        let p = self.particle(vertex);
        let slot = self.pin_slot[p];
        if slot == u32::MAX {
            return;
        }
        let k = slot as usize;
        let span = (t1 - t0).max(1e-6);
        let rate = (b - a) / span;
        let start = a - rate * t0;
        self.pins.start[k] = start;
        self.pins.end[k] = start + rate;
        if a != b && self.is_asleep() {
            self.wake();
        }
    }

    /// Puts pinned vertex `vertex` at `at` (world) for the coming substeps: the company's
    /// pins, placed on their bone at every substep. A vertex that is no longer pinned is left
    /// alone.
    pub(crate) fn place_pin(&mut self, vertex: u32, at: Vec3) {
        let slot = self.pin_slot[self.particle(vertex)];
        if slot == u32::MAX {
            return;
        }
        let at = if self.soa.frame.active { at - self.soa.frame.origin } else { at };
        self.pins.start[slot as usize] = at;
        self.pins.end[slot as usize] = at;
    }

    /// Moves pinned vertex `vertex` itself to `at` (world), where its bone went after the
    /// substep's stages (the company's last corrections).
    pub(crate) fn move_pinned(&mut self, vertex: u32, at: Vec3) {
        let p = self.particle(vertex);
        if self.pin_slot[p] == u32::MAX {
            return;
        }
        self.place_pin(vertex, at);
        self.layout_for(false);
        self.x[p] = if self.soa.frame.active { at - self.soa.frame.origin } else { at };
    }

    /// The contacts of the substep's particles with the bones of `bones`, both ways: each
    /// particle that a bone's swept shape reaches is moved by its share of the correction
    /// `d` the bone would give it if it could not move (`solver::contact::shape`, friction
    /// included), the share being the particle's inverse mass against the bone's generalised
    /// inverse mass at the contact point, `w_b = 1/m + (r × n)ᵀ I⁻¹ (r × n)` along `n = d/|d|`;
    /// the bone takes the opposite impulse `−d/(w_p + w_b)` at the point (`dx`, `dtheta`,
    /// applied by the world after the substep). The particle's and the bone's momentum
    /// change by equal and opposite amounts. A kinematic bone (`w_b = 0`) moves the particle
    /// the whole way, as a collider does.
    pub(super) fn bone_contacts(&mut self) {
        let c = self.contact_params();
        let origin = if self.soa.frame.active { self.soa.frame.origin } else { Vec3::ZERO };
        let (x, x_prev, w) = (&mut self.x, &self.x_prev, &self.w);
        for bone in &mut self.bones {
            let (mut p0, mut p1) = (bone.p0, bone.p1);
            p0.position -= origin;
            p1.position -= origin;
            let reach = bone.shape.bounding_radius();
            for i in 0..x.len() {
                let wp = w[i];
                if wp == 0.0 {
                    continue;
                }
                let Some(fixed) = collide_particle(x_prev[i], x[i], &bone.shape, reach, &p0, &p1, &c) else { continue };
                let d = fixed - x[i];
                let len = d.length();
                // A particle that overflowed gives its bone nothing (its body is rolled back
                // at the step's end; the ragdoll is not).
                if !(len > 0.0 && len.is_finite()) {
                    continue;
                }
                if bone.one_way {
                    x[i] += d;
                    continue;
                }
                let n = d / len;
                let arm = fixed - n * c.thickness - p1.position;
                let rn = arm.cross(n);
                let k = 1.0 / (wp + bone.inv_mass + rn.dot(bone.inv_inertia * rn));
                x[i] += d * (wp * k);
                let impulse = -d * k;
                bone.dx += impulse * bone.inv_mass;
                bone.dtheta += bone.inv_inertia * arm.cross(impulse);
            }
        }
    }

    /// Where a driven pin is shown by readback (and held while the body is frozen or asleep).
    pub fn show_driven_pin(&mut self, vertex: u32, at: Vec3) {
        let p = self.particle(vertex);
        let slot = self.pin_slot[p];
        if slot != u32::MAX {
            self.pins.to[slot as usize] = at;
        }
    }

    /// Meets the colliders of `owner` (another object's shapes, e.g. a ragdoll's bones) as
    /// well as the world's, or stops meeting them; owner 0 is the world, always met.
    pub fn set_collider_owner(&mut self, owner: u32, enabled: bool) {
        let had = self.collider_owners.contains(&owner);
        if enabled && !had {
            self.collider_owners.push(owner);
        } else if !enabled && had {
            self.collider_owners.retain(|&o| o != owner);
        }
        self.wake();
    }

    pub fn collider_owners(&self) -> &[u32] {
        &self.collider_owners
    }

    /// Whether the body meets a collider of `owner`.
    #[inline]
    pub fn meets_owner(&self, owner: u32) -> bool {
        owner == 0 || self.collider_owners.contains(&owner)
    }
}
