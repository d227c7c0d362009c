//! Ragdolls in the world's fixed steps: they step first (the particle bodies then see their
//! bones' motion over the step), against the step's colliders (`ColliderFrame` → the rigid
//! contacts' `ObstacleShape`; bone colliders published for particle bodies are not among
//! them), and against each other.
//!
//! **Islands.** Two ragdolls belong to one island when a bone of one and a bone of the other
//! can touch during the step: their bones' swept bounds (each bone's bounding sphere grown by
//! its motion over the step, [`Ragdoll::swept_bone_bounds`]) overlap. The overlaps come from a
//! sort-and-sweep over every bone of every ragdoll along the axis on which the bones spread
//! most (sorted by the bound's start, ties by index: a deterministic order), and the islands
//! from a union–find over the ragdolls (the lowest slot the root). Bounds of whole ragdolls
//! would not do: a T-posed humanoid spans about as much as the spacing of a crowd, so every
//! ragdoll's box overlaps its neighbours' and a grid of them chains into one island.
//!
//! An island with an awake member is awake: its sleepers are woken, keeping the time they
//! have been still (a ragdoll merely touched by an awake one, and still itself, falls asleep
//! again at the end of the step; one that is pushed starts counting anew). An island of
//! sleepers costs nothing beyond its bounds. With the fast pipeline the members of an island
//! that touch each other (a contact pressing in the last substep) fall asleep as one, once
//! each has been still for its sleep time: a pile stops together, and a neighbour within
//! reach but not touching does not wait for it (precise pipeline: each ragdoll on its own).
//!
//! Every awake island copies its members' bodies, in slot order, into its own reused buffers
//! and is solved as one set of bodies (joints per member, contacts across all;
//! `ragdoll::run_step`), every island in parallel (rayon; they share nothing mutable), then
//! copied back. The copies and the solve are the same operations in the same order for any
//! thread count, so the bits do not depend on it.
//!
//! Nothing here allocates once the buffers have grown to the number of ragdolls, bones and
//! islands.

use rayon::prelude::*;

use super::World;
use crate::math::Vec3;
use crate::ragdoll::{Ragdoll, RagdollRecovery, RagdollStep, RigidSolver, Scratch, run_step};
use crate::collider::Geometry;
use crate::solver::rigid::contact::{NO_BODY, ObstacleShape};
use crate::solver::rigid::contact_mesh::MeshObstacle;

/// A ragdoll that had to be put back on a finite state, reported by the `step` call it
/// happened in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RagdollEvent {
    pub ragdoll: (usize, u32),
    pub recovery: RagdollRecovery,
}

/// One island's reused buffers: its bodies, contacts and multipliers, and where each
/// member's bodies start.
#[derive(Default)]
struct Island {
    scratch: Scratch,
    offsets: Vec<usize>,
    /// Union–find over the members by the contacts that touch at the step's end (the fast
    /// pipeline's sleep: each group of touching members sleeps as one).
    touching: Vec<u32>,
    /// Wall time of the island's last solve, shared by its ragdolls by bone count.
    solve_time: std::time::Duration,
}

/// Reused buffers of the ragdolls' step.
#[derive(Default)]
pub(super) struct RagdollIslands {
    obstacles: Vec<ObstacleShape>,
    meshes: Vec<MeshObstacle>,
    /// Per slot: awake, union–find parent.
    awake: Vec<bool>,
    parent: Vec<u32>,
    /// Every bone's swept bounds and its ragdoll's slot; the sweep's order.
    bones: Vec<(Vec3, Vec3, u32)>,
    order: Vec<u32>,
    /// Members of awake islands, grouped by island (slot order within), and each island's
    /// range in it.
    members: Vec<u32>,
    ranges: Vec<(u32, u32)>,
    /// One per awake island (the pool only grows).
    islands: Vec<Island>,
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

fn overlap(a: (Vec3, Vec3), b: (Vec3, Vec3)) -> bool {
    a.0.cmple(b.1).all() && b.0.cmple(a.1).all()
}

impl RagdollIslands {
    /// Joins the ragdolls whose bones' bounds overlap (sort-and-sweep; module docs).
    fn join_touching(&mut self) {
        let bones = &self.bones;
        if bones.is_empty() {
            return;
        }
        // The axis along which the bones' centres spread most.
        let (mut lo, mut hi) = (Vec3::splat(f32::INFINITY), Vec3::splat(f32::NEG_INFINITY));
        for b in bones {
            let c = 0.5 * (b.0 + b.1);
            lo = lo.min(c);
            hi = hi.max(c);
        }
        let spread = hi - lo;
        let axis = if spread.x >= spread.y && spread.x >= spread.z {
            0
        } else if spread.y >= spread.z {
            1
        } else {
            2
        };
        self.order.clear();
        self.order.extend(0..bones.len() as u32);
        self.order.sort_unstable_by(|&i, &j| bones[i as usize].0[axis].total_cmp(&bones[j as usize].0[axis]).then(i.cmp(&j)));
        for ii in 0..self.order.len() {
            let a = bones[self.order[ii] as usize];
            for &j in &self.order[ii + 1..] {
                let b = bones[j as usize];
                if b.0[axis] > a.1[axis] {
                    break;
                }
                if a.2 == b.2 || !overlap((a.0, a.1), (b.0, b.1)) {
                    continue;
                }
                let (ra, rb) = (find(&mut self.parent, a.2), find(&mut self.parent, b.2));
                if ra != rb {
                    self.parent[ra.max(rb) as usize] = ra.min(rb);
                }
            }
        }
    }
}

impl World {
    /// One fixed step of every awake ragdoll (see the module's notes).
    pub(super) fn step_ragdolls(&mut self, p: &RagdollStep) {
        if self.ragdolls.is_empty() {
            return;
        }
        let isl = &mut self.ragdoll_islands;
        let step = p.h * p.substeps as f32;
        let slots = self.ragdolls.slots_mut();
        let n = slots.len();
        isl.awake.clear();
        isl.awake.extend(slots.iter().map(|e| e.as_ref().is_some_and(|(_, r)| !r.is_asleep())));
        if !isl.awake.contains(&true) {
            return;
        }
        isl.obstacles.clear();
        isl.meshes.clear();
        // Analytic shapes as obstacles; static meshes through `Contacts::collect_mesh`.
        for c in self.collider_frames.iter().filter(|c| c.owner == 0) {
            match &c.geometry {
                Geometry::Shape(shape) => isl.obstacles.push(ObstacleShape { shape: *shape, layers: c.layers, from: c.from, to: c.to }),
                Geometry::Mesh(mesh) => isl.meshes.push(MeshObstacle { mesh: mesh.clone(), pose: c.to, layers: c.layers }),
            }
        }
        isl.parent.clear();
        isl.parent.extend(0..n as u32);
        isl.bones.clear();
        for (i, entry) in slots.iter().enumerate() {
            if let Some((_, r)) = entry {
                isl.bones.extend(r.swept_bone_bounds(step).map(|(lo, hi)| (lo, hi, i as u32)));
            }
        }
        isl.join_touching();
        for i in 0..n {
            let r = find(&mut isl.parent, i as u32);
            isl.parent[i] = r;
        }
        // An island with an awake member is awake (its root is marked), its sleepers woken.
        for i in 0..n {
            if isl.awake[i] {
                let root = isl.parent[i] as usize;
                isl.awake[root] = true;
            }
        }
        isl.members.clear();
        for (i, entry) in slots.iter_mut().enumerate() {
            let Some((_, r)) = entry else { continue };
            if !isl.awake[isl.parent[i] as usize] {
                continue;
            }
            if r.is_asleep() {
                r.wake_by_contact();
            }
            isl.members.push(i as u32);
        }
        let parent = &isl.parent;
        isl.members.sort_unstable_by_key(|&i| (parent[i as usize], i));
        isl.ranges.clear();
        let mut start = 0;
        for k in 1..=isl.members.len() {
            if k == isl.members.len() || parent[isl.members[k] as usize] != parent[isl.members[start] as usize] {
                isl.ranges.push((start as u32, k as u32));
                start = k;
            }
        }
        let count = isl.ranges.len();
        if isl.islands.len() < count {
            isl.islands.resize_with(count, Island::default);
        }
        // Copy in, island by island.
        for (island, &(s, e)) in isl.islands.iter_mut().zip(&isl.ranges) {
            let sc = &mut island.scratch;
            sc.bodies.clear();
            sc.shapes.clear();
            sc.owner.clear();
            island.offsets.clear();
            for (m, &slot) in isl.members[s as usize..e as usize].iter().enumerate() {
                let Some((_, r)) = &mut slots[slot as usize] else { continue };
                r.begin_step(p);
                island.offsets.push(sc.bodies.len());
                sc.bodies.extend_from_slice(r.bodies());
                sc.shapes.extend_from_slice(r.shapes());
                sc.owner.extend((0..r.bone_count() as u32).map(|b| (m as u32, b)));
            }
            sc.lambdas.resize(sc.bodies.len(), [0.0; 4]);
            sc.drive.resize(sc.bodies.len(), [Vec3::ZERO; 4]);
            sc.limits.resize(sc.bodies.len(), [Vec3::ZERO; 2]);
        }
        // Solve, every island in parallel.
        {
            let view: &[Option<(u32, Ragdoll)>] = slots;
            let (members, obstacles, meshes) = (&isl.members, &isl.obstacles, &isl.meshes);
            let solve = |(island, &(s, e)): (&mut Island, &(u32, u32))| {
                let group = &members[s as usize..e as usize];
                let offsets = &island.offsets;
                let member = |m: usize| {
                    let r = &view[group[m] as usize].as_ref().expect("island members exist").1;
                    (&r.core, offsets[m])
                };
                let start = std::time::Instant::now();
                run_step(group.len(), member, &mut island.scratch, obstacles, meshes, p);
                island.solve_time = start.elapsed();
            };
            let islands = &mut isl.islands[..count];
            if self.sequential {
                islands.iter_mut().zip(&isl.ranges).for_each(solve);
            } else {
                islands.par_iter_mut().zip(isl.ranges.par_iter()).for_each(solve);
            }
        }
        // Copy back.
        for (island, &(s, e)) in isl.islands.iter_mut().zip(&isl.ranges) {
            let bones = island.scratch.bodies.len();
            for (m, &slot) in isl.members[s as usize..e as usize].iter().enumerate() {
                let Some((_, r)) = &mut slots[slot as usize] else { continue };
                let off = island.offsets[m];
                let count = r.bone_count();
                r.bodies_mut().copy_from_slice(&island.scratch.bodies[off..off + count]);
                r.end_step(p);
                r.charge_time(island.solve_time, bones);
            }
            // The fast pipeline sleeps by touching groups: the members that touch each other at
            // the step's end (a contact pressing, λₙ > 0, in the last substep) sleep as one —
            // a pile stops together — and a member near but not touching does not wait for
            // them (the proximity island joined a grid of lying ragdolls by their arms).
            if p.solver == RigidSolver::Fast {
                let group = &isl.members[s as usize..e as usize];
                let touching = &mut island.touching;
                touching.clear();
                touching.extend(0..group.len() as u32);
                let owner = &island.scratch.owner;
                for c in island.scratch.contacts.contacts() {
                    if c.b == NO_BODY || c.lambda_n <= 0.0 {
                        continue;
                    }
                    let (ra, rb) = (find(touching, owner[c.a as usize].0), find(touching, owner[c.b as usize].0));
                    if ra != rb {
                        touching[ra.max(rb) as usize] = ra.min(rb);
                    }
                }
                for m in 0..group.len() {
                    let root = find(touching, m as u32);
                    touching[m] = root;
                }
                for m in 0..group.len() {
                    if touching[m] != m as u32 {
                        continue;
                    }
                    let members = || (0..group.len()).filter(|&k| touching[k] == m as u32).map(|k| group[k] as usize);
                    if members().all(|slot| slots[slot].as_ref().is_none_or(|(_, r)| r.ready_to_sleep())) {
                        for slot in members() {
                            if let Some((_, r)) = &mut slots[slot] {
                                r.fall_asleep(p.gravity);
                            }
                        }
                    }
                }
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
