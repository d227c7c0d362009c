//! Waking sleeping bodies (`particles::sleep`), once per host frame before its fixed steps:
//! each body checks what drives it (pins, skinned pose, root, gravity, wind), and the world
//! checks its colliders. Sleeping ragdolls wake the same way (gravity, colliders near them). A collider concerns a sleeping body when it moved this frame, or
//! appeared, disappeared, teleported or changed shape or layers since the last frame, on a
//! layer the body meets, and its bounds over the frame (before and after) reach the body's
//! bounds as it fell asleep; an unbounded one (a plane) always reaches. A collider that only
//! moved, and moved exactly as the sleeper's anchor carried the sleeper this frame (a vehicle's
//! floor under a character riding in it, `step::Anchor`), does not concern it.
//!
//! The last frame's colliders are kept in a reused buffer (no allocation once it has grown),
//! compared slot by slot; a sleeping body reads only this list and its own state, so waking
//! is deterministic for any thread count.

use super::World;
use crate::collider::Collider;
use crate::geometry::Pose;
use crate::math::Vec3;
use crate::step::Carry;

/// Bounds and layers of a collider that changed or moved this frame (`None`: unbounded), and
/// for one that only moved, its motion (`from`, `to`).
#[derive(Clone, Copy, Debug)]
pub(super) struct Disturbance {
    bounds: Option<(Vec3, Vec3)>,
    layers: u32,
    moved: Option<(Pose, Pose)>,
}

impl Disturbance {
    fn of(c: &Collider) -> Disturbance {
        Disturbance { bounds: c.swept_bounds(), layers: c.layers, moved: None }
    }

    fn reaches(&self, mask: u32, lo: Vec3, hi: Vec3) -> bool {
        self.layers & mask != 0
            && match self.bounds {
                None => true,
                Some((clo, chi)) => clo.cmple(hi).all() && chi.cmpge(lo).all(),
            }
    }

    /// Whether it concerns a sleeper carried this frame by `carry` (its anchor's,
    /// `step::Anchor`): a collider that only moved, and moved as the carry (to round-off: 1e-6
    /// of its coordinates' size, 1e-6 rad), moved with the sleeper and does not.
    fn concerns(&self, mask: u32, lo: Vec3, hi: Vec3, carry: Option<Carry>) -> bool {
        if !self.reaches(mask, lo, hi) {
            return false;
        }
        let (Some(c), Some((from, to))) = (carry, self.moved) else { return true };
        let carried = c.pose(&from);
        let size = carried.position.abs().max_element().max(to.position.abs().max_element()).max(1.0);
        let apart = (carried.position - to.position).abs().max_element() > 1e-6 * size;
        apart || (carried.rotation.inverse() * to.rotation).xyz().length() > 1e-6 || carried.scale != to.scale
    }
}

impl World {
    /// Wakes the sleeping bodies this frame concerns (see the module's notes), and
    /// remembers the colliders for the next frame.
    pub(super) fn wake_bodies(&mut self) {
        self.disturbances.clear();
        // At most two entries per collider of either frame: grows only with the collider count.
        self.disturbances.reserve(2 * (self.colliders.len() + self.last_colliders.len()));
        let mut n = 0;
        for (k, c) in self.colliders.values().enumerate() {
            let before = self.last_colliders.get(k);
            // Moved on from where it was, and nothing else changed: its motion is kept.
            let moved_on = before.is_some_and(|b| b.geometry == c.geometry && b.layers == c.layers && b.to == c.from && c.from != c.to);
            if moved_on {
                self.disturbances.push(Disturbance { moved: Some((c.from, c.to)), ..Disturbance::of(c) });
            } else if before != Some(c) {
                self.disturbances.push(Disturbance::of(c));
                if let Some(b) = before {
                    self.disturbances.push(Disturbance::of(b));
                }
            } else if c.from != c.to {
                self.disturbances.push(Disturbance { moved: Some((c.from, c.to)), ..Disturbance::of(c) });
            }
            n = k + 1;
        }
        for b in self.last_colliders.iter().skip(n) {
            self.disturbances.push(Disturbance::of(b));
        }
        self.last_colliders.clear();
        self.last_colliders.extend(self.colliders.values().cloned());
        let (gravity, wind) = (self.settings.gravity, self.wind.speed);
        let (disturbances, pairs) = (&self.disturbances, &self.pairs);
        for (slot, entry) in self.bodies.slots_mut().iter_mut().enumerate() {
            let Some((_, body)) = entry else { continue };
            body.wake_if_driven(gravity, wind);
            // Bodies in contact pairs step with their group: they never sleep.
            if pairs.involves(slot) {
                body.wake();
            }
            if body.is_asleep() {
                let (lo, hi, mask) = (body.sleep.lo, body.sleep.hi, body.material.collision_mask);
                let carry = body.anchor_carry();
                if disturbances.iter().any(|d| d.concerns(mask, lo, hi, carry)) {
                    body.wake();
                } else {
                    // Not stepped this frame: it runs no substeps.
                    body.last_substeps = 0;
                }
            }
        }
        let step = self.h() as f32;
        for r in self.ragdolls.values_mut() {
            r.wake_if_driven(gravity);
            if r.is_asleep() {
                let (lo, hi) = r.swept_bounds(step);
                let carry = r.anchor_carry().filter(|c| !c.is_none());
                if disturbances.iter().any(|d| d.concerns(r.desc().settings.collider_mask, lo, hi, carry)) {
                    r.wake();
                }
            }
        }
    }
}
