//! The moving platform a body rides in (a vehicle, an elevator; Magica Cloth 2's "anchor",
//! [`crate::step::Anchor`]): the host moves the anchor's transform each frame, and the body
//! feels its motion only by the share `inertia`.
//!
//! Applied where the root's motion is, once per host frame before the fixed steps
//! ([`Body::carry_with_anchor`], called by the world before the inputs' teleport check):
//! - in a frame that steps, everything the body keeps — positions, previous positions, step
//!   start, its pins' and skinned pose's start points — is carried rigidly by the share
//!   `1 − inertia` of the anchor's motion since it was last carried (the rotation slerped, the
//!   translation scaled, about the anchor's origin) and its velocities turned with it; so the
//!   body's own velocities hold only the share `inertia` of the anchor's motion;
//! - a jump of the anchor beyond `Dynamics::teleport_distance` carries the body whole, less
//!   the ongoing motion the body already feels, in the frame the host made it, stepped or not;
//! - the root's start is carried by the anchor's whole motion and its velocity turned, so that
//!   `world_velocity_scale` and `world_acceleration_scale` act on the root's motion relative
//!   to the anchor (the first frame an anchor moves, the root's velocity becomes relative to
//!   it at once, not by a kick);
//! - colliders are seen through the rest of the frame's carry (`Carry::seen_at` at each
//!   substep's input fraction, in the colliders stage), so a collider the host moves with the
//!   anchor is still to a body of inertia 0 and moves by the share `inertia` to any other;
//! - sleeping: a body that feels the anchor (inertia > 0) wakes when it moves; one that does
//!   not is carried asleep, its sleep bounds with it, and the inputs it is woken by (pin
//!   targets, skinned pose, root) are compared after the carry, to round-off; a collider that
//!   moved as the carry did does not wake it (`world::sleep`).

use super::Body;
use crate::error::Result;
use crate::geometry::Pose;
use crate::step::{Anchor, Carry};

impl Body {
    /// Rides in the anchor at `pose` (rigid; where it is at the end of the next frame) with
    /// `inertia` in [0, 1]. The first call places the anchor without moving anything; a change
    /// of inertia wakes the body.
    pub fn set_anchor(&mut self, pose: Pose, inertia: f32) -> Result<()> {
        if Anchor::place(&mut self.anchor, pose, inertia)? {
            self.wake();
        }
        Ok(())
    }

    /// Leaves the anchor: from the next frame the body feels world motion only. The root's
    /// velocity becomes a world velocity again (the anchor's last velocity added).
    pub fn clear_anchor(&mut self) {
        if let Some(a) = self.anchor.take()
            && let (Some(r), Some(v)) = (&mut self.root, a.velocity)
        {
            r.velocity += v;
        }
        self.wake();
    }

    /// The anchor's transform (where the host last put it) and inertia, if any.
    pub fn anchor(&self) -> Option<(Pose, f32)> {
        self.anchor.map(|a| (a.to, a.inertia))
    }

    /// Start of a host frame, before the inputs' teleport check: carries the body by the
    /// anchor's motion (see the module's docs). `frame_time`: the frame's fixed steps (s);
    /// `elapsed`: host time since the last frame that stepped (s); `stepping`: the frame runs
    /// fixed steps.
    pub fn carry_with_anchor(&mut self, frame_time: f32, elapsed: f32, stepping: bool) {
        let teleport = self.dynamics.teleport_distance;
        let Some(a) = &mut self.anchor else { return };
        let felt = a.inertia > 0.0;
        let Some(f) = a.begin_frame(teleport, frame_time, elapsed, stepping) else { return };
        if felt && !f.whole.is_none() && !f.jump {
            self.wake();
        }
        if let Some(r) = &mut self.root {
            r.from = f.whole.pose(&r.from);
            r.velocity = f.whole.rotation * r.velocity - f.first_velocity.unwrap_or_default();
        }
        let c = f.object;
        if c.is_none() {
            return;
        }
        self.move_all(false, |p| c.point(p));
        self.v.iter_mut().for_each(|v| *v = c.rotation * *v);
        if let Some(s) = &mut self.skin {
            s.from.iter_mut().for_each(|p| *p = c.point(*p));
            s.normal_from.iter_mut().for_each(|n| *n = c.rotation * *n);
        }
        if self.is_asleep() {
            let (lo, hi) = self.bounds();
            let r = crate::math::Vec3::splat(self.material.thickness * self.scale);
            (self.sleep.lo, self.sleep.hi) = (lo - r, hi + r);
        }
        self.ensure_finite();
    }

    /// This frame's carry, through which colliders are seen (`None` without one).
    #[inline]
    pub(crate) fn anchor_carry(&self) -> Option<Carry> {
        self.anchor.map(|a| a.carry).filter(|c| !c.is_none())
    }
}
