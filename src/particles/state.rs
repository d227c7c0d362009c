//! A particle body's dynamic state as one walk (`crate::state`): everything a step reads
//! that a step, the host's per-frame inputs or sleeping change — positions, velocities,
//! pins and their paths, the skinned pose's path, the root, multipliers, the soft body's
//! cluster rotations and plastic strain, sleep, level of detail, recoveries. Not in it: the
//! cooked topology and the settings (material, dynamics, LOD distances, skin weights, motion
//! limits), which the host sets and which must be the same where a snapshot is loaded.

use super::{Body, Recovery, Root};
use crate::geometry::Pose;
use crate::math::Vec3;
use crate::state::{FNV_BASIS, Io, Mode, fnv1a};

fn loads<I: Io>(_: &I) -> bool {
    I::MODE == Mode::Load
}

/// A code for an optional recovery (0: none).
fn recovery_code(r: Option<Recovery>) -> u32 {
    r.map_or(0, |r| r as u32)
}

impl Body {
    /// What a snapshot must agree on with this body before its state can be loaded: the
    /// particle and constraint counts and a fingerprint of the constraints (a torn body's
    /// topology is its own).
    pub(crate) fn shape_fingerprint(&self) -> u32 {
        let k = &self.topology.constraints;
        let words = k.a.iter().chain(&k.b).copied();
        fnv1a(fnv1a(FNV_BASIS, [self.x.len() as u32, k.len() as u32].into_iter()), words)
    }

    /// Walks the body's dynamic state (the module's notes).
    pub(crate) fn state_io(&mut self, io: &mut impl Io) {
        let n = self.x.len();
        io.slice(&mut self.x, "particle positions");
        io.slice(&mut self.x_prev, "previous positions");
        io.slice(&mut self.v, "velocities");
        io.slice(&mut self.x_step_start, "step start positions");
        io.slice(&mut self.w, "inverse masses");
        io.slice(&mut self.w_free, "free inverse masses");
        io.slice(&mut self.lambda, "multipliers");
        io.list(&mut self.carry, n, "carried corrections");
        io.bool(&mut self.carried);
        io.slice(&mut self.pin_slot, "pin slots");
        let pins = &mut self.pins;
        io.list(&mut pins.index, n, "pins");
        for list in [&mut pins.from, &mut pins.to, &mut pins.start, &mut pins.end] {
            io.list(list, n, "pin paths");
        }
        io.expect(u32::from(self.skin.is_some()), "skinning set");
        if let Some(s) = &mut self.skin {
            io.expect(u32::from(s.bind.is_some()), "skin bind poses known");
            if let Some(b) = &mut s.bind {
                io.slice(b, "bind poses");
            }
            io.slice(&mut s.from, "skinned positions");
            io.slice(&mut s.to, "skinned targets");
            io.slice(&mut s.normal_from, "skinned normals");
            io.slice(&mut s.normal_to, "skinned target normals");
            io.bool(&mut s.posed);
        }
        io.expect(u32::from(self.tethers.is_some()), "tethers set");
        if let Some(t) = &mut self.tethers {
            io.f32(&mut t.scale);
        }
        // The root is plain data: loading gives or takes it as saved.
        let mut has_root = self.root.is_some();
        io.bool(&mut has_root);
        let mut root = self.root.unwrap_or(Root { from: Pose::IDENTITY, to: Pose::IDENTITY, velocity: Vec3::ZERO, base_scale: 1.0 });
        if has_root {
            io.val(&mut root.from);
            io.val(&mut root.to);
            io.val(&mut root.velocity);
            io.f32(&mut root.base_scale);
        }
        if loads(io) {
            self.root = has_root.then_some(root);
        }
        io.expect(u32::from(self.soft.is_some()), "soft body");
        if let Some(s) = &mut self.soft {
            io.slice(&mut s.volume_lambda, "volume multipliers");
            io.slice(&mut s.clusters.rotation, "cluster rotations");
            io.slice(&mut s.clusters.plastic, "plastic strains");
        }
        io.f32(&mut self.scale);
        io.bool(&mut self.frozen);
        io.bool(&mut self.visible);
        let mut lod = self.lod_substeps.map_or(0, |s| s + 1);
        io.u32(&mut lod);
        io.u32(&mut self.last_substeps);
        io.bool(&mut self.lane_step);
        io.u32(&mut self.recoveries);
        let mut pending = recovery_code(self.pending_recovery);
        io.u32(&mut pending);
        if pending > 2 {
            io.refuse(&|| format!("a recovery code of {pending}"));
        }
        self.sleep_io(io);
        if loads(io) {
            self.lod_substeps = lod.checked_sub(1);
            self.pending_recovery = match pending {
                1 => Some(Recovery::StepNotFinite),
                2 => Some(Recovery::StateNotFinite),
                _ => None,
            };
        }
    }
}

