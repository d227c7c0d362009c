//! A particle body's dynamic state as one walk (`crate::state`): everything a step reads
//! that a step, the host's per-frame inputs or sleeping change — positions, velocities,
//! pins and their paths, the skinned pose's path, the root, the anchor, multipliers, the soft body's
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
        // Lengths and indices are checked as well as the checksum: a snapshot forged with a
        // valid checksum still cannot make the step index out of bounds.
        let carried = io.word(self.carry.len() as u32) as usize;
        if carried != 0 && carried != n {
            io.refuse(&|| format!("{carried} carried corrections for {n} particles"));
            return;
        }
        io.entries(&mut self.carry, carried);
        io.bool(&mut self.carried);
        let pins = io.word(self.pins.index.len() as u32) as usize;
        if pins > n {
            io.refuse(&|| format!("{pins} pins for {n} particles"));
            return;
        }
        io.expect(n as u32, "pin slots");
        for i in 0..n {
            let slot = io.word(self.pin_slot[i]);
            if slot != u32::MAX && slot as usize >= pins {
                io.refuse(&|| format!("particle {i} in pin slot {slot} of {pins}"));
            }
            if loads(io) {
                self.pin_slot[i] = slot;
            }
        }
        let p = &mut self.pins;
        if loads(io) {
            p.index.resize(pins, 0);
        }
        for k in 0..pins {
            let particle = io.word(p.index.get(k).copied().unwrap_or(0));
            if particle as usize >= n {
                io.refuse(&|| format!("pin {k} on particle {particle} of {n}"));
            }
            if loads(io) {
                p.index[k] = particle;
            }
        }
        for list in [&mut p.from, &mut p.to, &mut p.start, &mut p.end] {
            io.entries(list, pins);
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
        let has_root = io.flag(self.root.is_some());
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
        crate::step::Anchor::state_io(&mut self.anchor, io);
        io.expect(u32::from(self.soft.is_some()), "soft body");
        if let Some(s) = &mut self.soft {
            io.slice(&mut s.volume_lambda, "volume multipliers");
            io.slice(&mut s.clusters.rotation, "cluster rotations");
            io.slice(&mut s.clusters.plastic, "plastic strains");
            // Neo-Hookean multipliers only while the material has a Young's modulus (the
            // material must be the same where a snapshot is loaded): a default body's
            // snapshot is unchanged.
            if let Some(solids) = &mut s.solids {
                io.slice(&mut solids.lambda, "Neo-Hookean multipliers");
            }
        }
        io.f32(&mut self.scale);
        io.bool(&mut self.frozen);
        io.bool(&mut self.visible);
        let lod = io.word(self.lod_substeps.map_or(0, |s| s + 1));
        if lod > 65 {
            io.refuse(&|| format!("{} substeps of level of detail", lod - 1));
        }
        io.u32(&mut self.last_substeps);
        io.bool(&mut self.lane_step);
        io.u32(&mut self.recoveries);
        let pending = io.word(recovery_code(self.pending_recovery));
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

