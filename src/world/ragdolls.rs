//! Ragdolls in the world's fixed steps: they step first (the particle bodies then see their
//! bones' motion over the step), against the step's colliders (`ColliderFrame` → the rigid
//! contacts' `ObstacleShape`; bone colliders published for particle bodies are not among
//! them), and against each other.
//!
//! **Islands.** Ragdolls whose swept bounds over the step overlap are joined (union–find, the
//! lowest slot the root) into islands. A ragdoll alone steps on its own state, every such
//! ragdoll in parallel (rayon; they share nothing mutable). An island of several copies its
//! members' bodies, in slot order, into one reused buffer and is solved as one set of bodies
//! (joints per member, contacts across all), then copied back — the same operations in the
//! same order for any thread count, so the bits do not depend on it. A sleeping ragdoll that
//! an awake one's bounds reach is woken first.
//!
//! Nothing here allocates once the buffers have grown to the number of ragdolls and bones.

use rayon::prelude::*;

use super::World;
use crate::math::Vec3;
use crate::ragdoll::{Ragdoll, RagdollRecovery, RagdollStep, Scratch, run_step};
use crate::solver::rigid::contact::ObstacleShape;

/// A ragdoll that had to be put back on a finite state, reported by the `step` call it
/// happened in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RagdollEvent {
    pub ragdoll: (usize, u32),
    pub recovery: RagdollRecovery,
}

/// Reused buffers of the ragdolls' step.
#[derive(Default)]
pub(super) struct RagdollIslands {
    obstacles: Vec<ObstacleShape>,
    /// Per slot: swept bounds, awake, union–find parent.
    bounds: Vec<(Vec3, Vec3)>,
    awake: Vec<bool>,
    parent: Vec<u32>,
    /// Members of multi-ragdoll islands, grouped, and each island's start in it.
    members: Vec<u32>,
    starts: Vec<u32>,
    offsets: Vec<usize>,
    scratch: Scratch,
    pub(super) events: Vec<RagdollEvent>,
}

fn find(parent: &mut [u32], mut i: u32) -> u32 {
    while parent[i as usize] != i {
        let up = parent[parent[i as usize] as usize];
        parent[i as usize] = up;
        i = up;
    }
    i
}

fn overlap(a: &(Vec3, Vec3), b: &(Vec3, Vec3)) -> bool {
    a.0.cmple(b.1).all() && b.0.cmple(a.1).all()
}

impl World {
    /// One fixed step of every awake ragdoll (see the module's notes).
    pub(super) fn step_ragdolls(&mut self, p: &RagdollStep) {
        if self.ragdolls.is_empty() {
            return;
        }
        let isl = &mut self.ragdoll_islands;
        isl.obstacles.clear();
        for c in self.collider_frames.iter().filter(|c| c.owner == 0) {
            isl.obstacles.push(ObstacleShape { shape: c.shape, layers: c.layers, from: c.from, to: c.to });
        }
        let step = p.h * p.substeps as f32;
        let slots = self.ragdolls.slots_mut();
        let n = slots.len();
        isl.bounds.clear();
        isl.awake.clear();
        isl.parent.clear();
        for (i, entry) in slots.iter().enumerate() {
            let (b, awake) = match entry {
                Some((_, r)) => (r.swept_bounds(step), !r.is_asleep()),
                None => ((Vec3::ZERO, Vec3::ZERO), false),
            };
            isl.bounds.push(b);
            isl.awake.push(awake);
            isl.parent.push(i as u32);
        }
        // Wake sleepers an awake ragdoll reaches, then join overlapping awake ones.
        for i in 0..n {
            if slots[i].is_none() || isl.awake[i] {
                continue;
            }
            if (0..n).any(|j| isl.awake[j] && overlap(&isl.bounds[i], &isl.bounds[j]))
                && let Some((_, r)) = &mut slots[i]
            {
                r.wake();
                isl.awake[i] = true;
            }
        }
        let mut grouped = false;
        for i in 0..n {
            if !isl.awake[i] {
                continue;
            }
            for j in i + 1..n {
                if isl.awake[j] && overlap(&isl.bounds[i], &isl.bounds[j]) {
                    let (a, b) = (find(&mut isl.parent, i as u32), find(&mut isl.parent, j as u32));
                    if a != b {
                        isl.parent[a.max(b) as usize] = a.min(b);
                    }
                    grouped = true;
                }
            }
        }
        for i in 0..n {
            let r = find(&mut isl.parent, i as u32);
            isl.parent[i] = r;
        }
        // Lone ragdolls: an island of one is its own root and no other slot points to it.
        isl.members.clear();
        isl.starts.clear();
        if grouped {
            for root in 0..n {
                if !isl.awake[root] || isl.parent[root] != root as u32 {
                    continue;
                }
                let start = isl.members.len();
                isl.members.extend((root..n).filter(|&j| isl.awake[j] && isl.parent[j] == root as u32).map(|j| j as u32));
                if isl.members.len() - start > 1 {
                    isl.starts.push(start as u32);
                } else {
                    isl.members.truncate(start);
                }
            }
        }
        let (parent, awake, members, obstacles) = (&isl.parent, &isl.awake, &isl.members, &isl.obstacles);
        let lone = |i: usize| awake[i] && !members.contains(&(i as u32)) && parent[i] == i as u32;
        let step_one = |(i, entry): (usize, &mut Option<(u32, Ragdoll)>)| {
            if let Some((_, r)) = entry
                && lone(i)
            {
                r.step_alone(obstacles, p);
            }
        };
        if self.sequential {
            slots.iter_mut().enumerate().for_each(step_one);
        } else {
            slots.par_iter_mut().enumerate().for_each(step_one);
        }
        // Islands of several, one after another, in slot order.
        for k in 0..isl.starts.len() {
            let start = isl.starts[k] as usize;
            let end = isl.starts.get(k + 1).map_or(isl.members.len(), |&e| e as usize);
            let group = &isl.members[start..end];
            let sc = &mut isl.scratch;
            sc.bodies.clear();
            sc.shapes.clear();
            sc.owner.clear();
            isl.offsets.clear();
            for (m, &slot) in group.iter().enumerate() {
                let Some((_, r)) = &mut slots[slot as usize] else { continue };
                r.begin_step(p);
                isl.offsets.push(sc.bodies.len());
                sc.bodies.extend_from_slice(r.bodies());
                sc.shapes.extend_from_slice(r.shapes());
                sc.owner.extend((0..r.bone_count() as u32).map(|b| (m as u32, b)));
            }
            sc.lambdas.resize(sc.bodies.len(), [0.0; 4]);
            {
                let view: &[Option<(u32, Ragdoll)>] = slots;
                let offsets = &isl.offsets;
                let member = |m: usize| {
                    let r = &view[group[m] as usize].as_ref().expect("island members exist").1;
                    (&r.core, offsets[m])
                };
                run_step(group.len(), member, sc, obstacles, p);
            }
            for (m, &slot) in group.iter().enumerate() {
                let Some((_, r)) = &mut slots[slot as usize] else { continue };
                let off = isl.offsets[m];
                let count = r.bone_count();
                r.bodies_mut().copy_from_slice(&sc.bodies[off..off + count]);
                r.end_step(p);
            }
        }
    }

    /// The ragdolls that had to be put back on a finite state in the last `step` call.
    pub fn ragdoll_events(&self) -> &[RagdollEvent] {
        &self.ragdoll_islands.events
    }

    pub(super) fn collect_ragdoll_events(&mut self) {
        let events = &mut self.ragdoll_islands.events;
        events.clear();
        for (slot, entry) in self.ragdolls.slots_mut().iter_mut().enumerate() {
            if let Some((serial, r)) = entry
                && let Some(recovery) = r.take_recovery()
            {
                events.push(RagdollEvent { ragdoll: (slot, *serial), recovery });
            }
        }
    }
}
