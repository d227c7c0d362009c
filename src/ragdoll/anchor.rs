//! The moving platform a ragdoll rides in ([`crate::step::Anchor`]; the particle body's is
//! `particles::anchor`, with the same rules): once per host frame before the fixed steps, in a
//! frame that steps, every bone — position, orientation, their previous values, the step's
//! start, the host's last targets and the sleep test's reference points — is carried rigidly by
//! the share `1 − inertia` of the anchor's motion, its linear and angular velocities turned
//! with it; a jump beyond the teleport distance carries it whole (less the ongoing motion it
//! feels) in any frame. An island whose ragdolls all ride in the same anchor sees the world's
//! colliders through the rest of the frame's carry (`world::ragdolls`), so a platform moving
//! with the anchor is still to a ragdoll of inertia 0. A ragdoll that feels the anchor wakes
//! when it moves; one that does not is carried asleep.

use super::{Frame, Ragdoll};
use crate::error::Result;
use crate::geometry::Pose;
use crate::step::{Anchor, Carry};

/// A ragdoll's teleport distance for its anchor (m): as a particle body's default
/// (`Dynamics::teleport_distance`), more than a vehicle moves in the longest frame the world
/// simulates (30 m/s × 1/15 s), less than any respawn or cut.
pub const ANCHOR_TELEPORT_DISTANCE: f32 = 2.0;

impl Ragdoll {
    /// Rides in the anchor at `pose` (rigid; where it is at the end of the next frame) with
    /// `inertia` in [0, 1]. The first call places the anchor without moving anything; a change
    /// of inertia wakes the ragdoll.
    pub fn set_anchor(&mut self, pose: Pose, inertia: f32) -> Result<()> {
        if Anchor::place(&mut self.anchor, pose, inertia)? {
            self.wake();
        }
        Ok(())
    }

    /// Leaves the anchor: from the next frame the ragdoll feels world motion only.
    pub fn clear_anchor(&mut self) {
        self.anchor = None;
        self.wake();
    }

    /// The anchor's transform (where the host last put it) and inertia, if any.
    pub fn anchor(&self) -> Option<(Pose, f32)> {
        self.anchor.map(|a| (a.to, a.inertia))
    }

    /// This frame's carry, through which the ragdoll's island sees colliders (identity without one).
    pub(crate) fn anchor_carry(&self) -> Option<Carry> {
        self.anchor.map(|a| a.carry)
    }

    /// Start of a host frame: carries the bones by the anchor's motion (see the module's docs).
    pub(crate) fn carry_with_anchor(&mut self, frame_time: f32, elapsed: f32, stepping: bool) {
        let Some(a) = &mut self.anchor else { return };
        let felt = a.inertia > 0.0;
        let Some(f) = a.begin_frame(ANCHOR_TELEPORT_DISTANCE, frame_time, elapsed, stepping) else { return };
        if felt && !f.whole.is_none() && !f.jump {
            self.wake();
        }
        let c = f.object;
        if c.is_none() {
            return;
        }
        let frame = |f: &mut Frame| *f = Frame { x: c.point(f.x), q: (c.rotation * f.q).normalize() };
        for b in &mut self.scratch.bodies {
            (b.x, b.prev_x) = (c.point(b.x), c.point(b.prev_x));
            (b.q, b.prev_q) = ((c.rotation * b.q).normalize(), (c.rotation * b.prev_q).normalize());
            b.v = c.rotation * b.v;
            b.w = c.rotation * b.w;
        }
        self.step_start.iter_mut().for_each(frame);
        self.core.path_from.iter_mut().for_each(frame);
        self.core.path_to.iter_mut().for_each(frame);
        self.core.target_from.iter_mut().for_each(|p| *p = c.pose(p));
        self.sleep_ref.iter_mut().flatten().for_each(|p| *p = c.point(*p));
    }
}
