//! Pins driven from inside the world's step (a cape's neck pinned to a ragdoll's chest bone)
//! and colliders owned by another object (that ragdoll's bone shapes).
//!
//! A driven pin is an ordinary pin whose path the world rewrites before each fixed step:
//! the pin path runs linearly over the host frame in the frame fraction `t` (see `Pins`), so
//! to move from `a` at the step's start (`t0`) to `b` at its end (`t1`) the path's ends are
//! put at `start = a − (b − a)·t0/(t1 − t0)` and `end = start + (b − a)/(t1 − t0)`.

use super::Body;
use crate::math::Vec3;

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
