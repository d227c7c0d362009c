//! Level of detail: each body's substeps and freezing, chosen once per host frame from the
//! camera distance to its bounds (where the root will take it this frame) and its
//! visibility. Bodies in contact pairs step at the world's rate, never reduced or frozen.

use super::World;
use crate::math::Vec3;

impl World {
    /// Chooses each body's level of detail from the camera distance and its visibility.
    pub(super) fn update_lod(&mut self) {
        let camera = self.camera;
        let pairs = &self.pairs;
        for (slot, entry) in self.bodies.slots_mut().iter_mut().enumerate() {
            let Some((_, body)) = entry else { continue };
            // Bodies paired for contact step together at the world's rate: no LOD for them.
            if pairs.involves(slot) {
                body.frozen = false;
                body.lod_substeps = None;
                continue;
            }
            let lod = body.lod;
            // Measured where the body will be this frame: a root that moves (or teleports)
            // takes the body along before the steps.
            let shift = body.root.map_or(Vec3::ZERO, |r| r.to.position - r.from.position);
            let distance = camera.map_or(0.0, |c| {
                let (lo, hi) = body.bounds();
                (c.clamp(lo + shift, hi + shift) - c).length()
            });
            let freeze = (!body.visible && lod.freeze_when_invisible) || (lod.freeze_distance > 0.0 && distance >= lod.freeze_distance);
            body.frozen = freeze;
            body.lod_substeps = if lod.reduce_distance > 0.0 && distance >= lod.reduce_distance { Some(lod.reduced_substeps) } else { None };
        }
    }
}
