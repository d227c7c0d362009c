//! A ragdoll's dynamic state as one walk (`crate::state`): its bones' rigid bodies (poses,
//! velocities, the substep's previous and predicted poses, inverse mass and inertia as the
//! kinematic switches left them), the kinematic flags, the paths and targets of the host
//! frame, forces, bone-pair collision, the powered ragdoll's strengths, pins, hit losses and
//! drive paths, the get-up snapshot, sleep and rest timers, unread events, the anchor. Not in it: the
//! description and settings, which must be the same where a snapshot is loaded.

use super::{Frame, Ragdoll, RagdollRecovery};
use crate::state::{FNV_BASIS, Io, Mode, Pod, fnv1a};

impl Pod for Frame {
    fn io(&mut self, io: &mut impl Io) {
        io.val(&mut self.x);
        io.val(&mut self.q);
    }
}

impl Ragdoll {
    /// A fingerprint of the skeleton (every bone's parent), which a snapshot must agree on.
    pub(crate) fn parents_fingerprint(&self) -> u32 {
        fnv1a(FNV_BASIS, self.core.parent.iter().map(|&p| p as u32))
    }

    /// Walks the ragdoll's dynamic state (the module's notes).
    pub(crate) fn state_io<I: Io>(&mut self, io: &mut I) {
        let n = self.bone_count();
        io.expect(n as u32, "ragdoll bone count");
        io.slice(&mut self.scratch.bodies, "bone bodies");
        let c = &mut self.core;
        io.slice(&mut c.inv_mass, "bone inverse masses");
        io.slice(&mut c.inv_inertia, "bone inverse inertias");
        io.slice(&mut c.kinematic, "kinematic flags");
        io.slice(&mut c.path_from, "kinematic paths");
        io.slice(&mut c.path_to, "kinematic paths");
        io.slice(&mut c.target_from, "bone targets");
        io.slice(&mut c.target_to, "bone targets");
        io.slice(&mut c.forces, "bone forces");
        io.slice(&mut c.pairs, "bone pair collision");
        io.slice(&mut c.muscle, "muscle strengths");
        io.slice(&mut c.pin, "pin weights");
        io.slice(&mut c.hit_loss, "hit losses");
        io.slice(&mut c.drive_from, "drive paths");
        io.slice(&mut c.drive_to, "drive paths");
        io.bool(&mut c.driven);
        io.slice(&mut self.step_start, "step start poses");
        io.f32(&mut self.last_h);
        io.bool(&mut self.asleep);
        io.f32(&mut self.still);
        io.val(&mut self.sleep_gravity);
        let pending = io.word(self.pending_recovery.map_or(0, |r| r as u32));
        if pending > 1 {
            io.refuse(&|| format!("a ragdoll recovery code of {pending}"));
        }
        io.slice(&mut self.snapshot, "get-up snapshot");
        io.f32(&mut self.rest_time);
        io.u32(&mut self.events);
        crate::step::Anchor::state_io(&mut self.anchor, io);
        if I::MODE == Mode::Load {
            self.pending_recovery = (pending == 1).then_some(RagdollRecovery::StepNotFinite);
        }
    }
}
