//! Cloth on a ragdoll, in one call and inside the step: particle bodies whose pins follow a
//! ragdoll's bones, and that meet the ragdoll's bone shapes — a cape stays on a dying
//! character's shoulders and drapes over its body as it falls, with no host round trip.
//!
//! A body linked to a ragdoll steps in its company (`ragdolls`): the pins sit on their bones
//! at every substep and the contacts go both ways. This module keeps the links, and serves
//! the bodies outside a company — a body in the world's contact pairs, or a sleeping one —
//! the way it did before: each fixed step after the ragdolls' every driven pin gets its path
//! over the step from its bone's pose at the step's start and end
//! (`Body::drive_pin_over_step`), and the bone shapes of every ragdoll such a body collides
//! with join the step's collider frames, owned by the ragdoll (`ColliderFrame::owner` =
//! slot + 1) so that only those bodies meet them, swept from the step's start pose to its end
//! pose like any collider, one way.

use super::World;
use super::pairs::BodyId;
use crate::collider::ColliderFrame;
use crate::error::{Error, ErrorKind, Result, check_position_with};
use crate::math::{Vec3, is_finite3};
use crate::particles::stages::StepParams;

/// Pins of one body driven by bones of one ragdoll.
pub(crate) struct Attachment {
    pub body: BodyId,
    pub ragdoll: (usize, u32),
    pub vertices: Vec<u32>,
    pub bones: Vec<u32>,
    /// Offsets in the bone's frame (m).
    pub offsets: Vec<Vec3>,
}

/// The owner id of a ragdoll's bone colliders.
fn owner_of(ragdoll: (usize, u32)) -> u32 {
    ragdoll.0 as u32 + 1
}

impl World {
    fn check_link(&self, body: BodyId, ragdoll: (usize, u32)) -> Result<()> {
        if self.bodies.get(body.0, body.1).is_none() {
            return Err(Error::new(ErrorKind::InvalidHandle, "the body is not in this world (destroyed?)"));
        }
        if self.ragdolls.get(ragdoll.0, ragdoll.1).is_none() {
            return Err(Error::new(ErrorKind::InvalidHandle, "the ragdoll is not in this world (destroyed?)"));
        }
        Ok(())
    }

    /// Pins vertices of a particle body to bones of a ragdoll: vertex `vertices[i]` (host order)
    /// follows bone `bones[i]` at `offsets[i]` in the bone's frame, inside the step (no host
    /// round trip). A vertex attached again moves to its new bone; all or nothing: a bad entry
    /// refuses the whole call and changes nothing.
    pub fn attach_pins_to_ragdoll(&mut self, body: BodyId, ragdoll: (usize, u32), vertices: &[u32], bones: &[u32], offsets: &[Vec3]) -> Result<()> {
        self.check_link(body, ragdoll)?;
        if bones.len() != vertices.len() || offsets.len() != vertices.len() {
            return Err(Error::invalid(format!(
                "one bone and one offset per vertex: {} vertices, {} bones, {} offsets",
                vertices.len(),
                bones.len(),
                offsets.len()
            )));
        }
        let bone_count = self.ragdolls.get(ragdoll.0, ragdoll.1).map_or(0, |r| r.bone_count());
        if let Some((i, b)) = bones.iter().enumerate().find(|(_, b)| **b as usize >= bone_count) {
            return Err(Error::out_of_range(format!("bones[{i}] = {b} is out of range (the ragdoll has {bone_count} bones)")));
        }
        for (i, o) in offsets.iter().enumerate() {
            if !is_finite3(*o) {
                return Err(Error::non_finite(format!("offsets[{i}] is not finite")));
            }
            check_position_with(*o, || format!("offsets[{i}]"))?;
        }
        let b = self.bodies.get_mut(body.0, body.1).expect("checked above");
        b.pin(vertices)?;
        // Place the pins on their bones now, so that the first step starts from there.
        let r = self.ragdolls.get(ragdoll.0, ragdoll.1).expect("checked above");
        for k in 0..vertices.len() {
            let at = r.bone_pose_in_step(bones[k] as usize, 1.0).to_world(offsets[k]);
            b.show_driven_pin(vertices[k], at);
        }
        for a in self.attachments.iter_mut().filter(|a| a.body == body) {
            for k in (0..a.vertices.len()).rev() {
                if vertices.contains(&a.vertices[k]) {
                    a.vertices.swap_remove(k);
                    a.bones.swap_remove(k);
                    a.offsets.swap_remove(k);
                }
            }
        }
        self.attachments.retain(|a| !a.vertices.is_empty());
        match self.attachments.iter_mut().find(|a| a.body == body && a.ragdoll == ragdoll) {
            Some(a) => {
                a.vertices.extend_from_slice(vertices);
                a.bones.extend_from_slice(bones);
                a.offsets.extend_from_slice(offsets);
            }
            None => self.attachments.push(Attachment { body, ragdoll, vertices: vertices.to_vec(), bones: bones.to_vec(), offsets: offsets.to_vec() }),
        }
        Ok(())
    }

    /// Makes a ragdoll's bone shapes colliders of a particle body (swept across substeps), or
    /// stops it.
    pub fn set_ragdoll_collision(&mut self, body: BodyId, ragdoll: (usize, u32), enabled: bool) -> Result<()> {
        self.check_link(body, ragdoll)?;
        let owner = owner_of(ragdoll);
        self.bodies.get_mut(body.0, body.1).expect("checked above").set_collider_owner(owner, enabled);
        Ok(())
    }

    /// Drops every link of a removed body.
    pub(super) fn unlink_body(&mut self, body: BodyId) {
        self.attachments.retain(|a| a.body != body);
    }

    /// Releases the bodies a removed ragdoll carried: its pins are freed (the cloth falls),
    /// its bone colliders are no longer met.
    pub(super) fn unlink_ragdoll(&mut self, ragdoll: (usize, u32)) {
        let owner = owner_of(ragdoll);
        for a in self.attachments.iter().filter(|a| a.ragdoll == ragdoll) {
            if let Some(b) = self.bodies.get_mut(a.body.0, a.body.1) {
                // The vertices were checked when attached; unpinning them cannot fail.
                let _ = b.unpin(&a.vertices);
            }
        }
        self.attachments.retain(|a| a.ragdoll != ragdoll);
        for b in self.bodies.values_mut().filter(|b| b.collider_owners().contains(&owner)) {
            b.set_collider_owner(owner, false);
        }
    }

    /// After the ragdolls' part of fixed step `params`: drive the attached pins over the step
    /// and add the bone colliders bodies asked for to the step's collider frames.
    pub(super) fn follow_ragdolls(&mut self, params: &StepParams) {
        for a in &self.attachments {
            let (Some(r), Some(b)) = (self.ragdolls.get(a.ragdoll.0, a.ragdoll.1), self.bodies.get_mut(a.body.0, a.body.1)) else {
                continue;
            };
            if b.in_company {
                continue;
            }
            for k in 0..a.vertices.len() {
                let bone = a.bones[k] as usize;
                let from = r.bone_pose_in_step(bone, 0.0).to_world(a.offsets[k]);
                let to = r.bone_pose_in_step(bone, 1.0).to_world(a.offsets[k]);
                b.drive_pin_over_step(a.vertices[k], from, to, params.pin_t0, params.pin_t1);
            }
        }
        if self.bodies.values().all(|b| b.in_company || b.collider_owners().is_empty()) {
            return;
        }
        let world_colliders = self.collider_frames.len();
        for (slot, entry) in self.ragdolls.slots_mut().iter().enumerate() {
            let Some((serial, r)) = entry else { continue };
            let owner = owner_of((slot, *serial));
            if !self.bodies.values().any(|b| !b.in_company && b.collider_owners().contains(&owner)) {
                continue;
            }
            for (shape, from, to) in r.bone_shapes_in_step() {
                self.collider_frames.push(ColliderFrame::owned(shape, from, to, owner));
            }
        }
        // Bones first, the world's colliders last: cloth trapped between a bone lying on it
        // and the floor ends each substep on the floor's side (the bone, one-way, cannot be
        // pushed back; the cloth under it is hidden by it).
        let bones = self.collider_frames.len() - world_colliders;
        self.collider_frames.rotate_right(bones);
    }

    /// After the frame: attached pins are shown where their bones are at readback's `alpha`.
    pub(super) fn show_attached_pins(&mut self) {
        let alpha = self.alpha;
        for a in &self.attachments {
            let (Some(r), Some(b)) = (self.ragdolls.get(a.ragdoll.0, a.ragdoll.1), self.bodies.get_mut(a.body.0, a.body.1)) else {
                continue;
            };
            for k in 0..a.vertices.len() {
                b.show_driven_pin(a.vertices[k], r.bone_pose_in_step(a.bones[k] as usize, alpha).to_world(a.offsets[k]));
            }
        }
    }
}
