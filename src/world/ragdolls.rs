//! Ragdolls in the world's fixed steps, and the particle bodies in their company: ragdolls
//! step first, against the step's colliders (`ColliderFrame` → the rigid contacts'
//! `ObstacleShape`) and against each other; a particle body that collides with a ragdoll's
//! bones or hangs on them by pins steps *with* it, in the same substeps (a company, below).
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
//! **Companies.** A particle body *links* a ragdoll for the step when it is pinned to it
//! (`attach`) or collides with it (`set_ragdoll_collision`) and its swept bounds (its
//! particles' box grown by its fastest particle's travel, gravity's and its thickness) reach
//! one of the ragdoll's swept bones. Islands span families: the ragdolls a body links are
//! joined into one island, and the body steps in that island's company — taken out of the
//! world's arena for the step, in slot order. A body in the world's contact pairs is left
//! out (it steps with its pairs, meeting the bones one way, `attach`). A company is stepped
//! by the one stage driver (`particles::stages::step_after_begin`) with the island as its
//! rigid members; every substep:
//!
//! 1. the island's substep (`ragdoll::island_substep`): predict; the bones take the
//!    corrections the particles gave them in the substep before; joints, contacts,
//!    velocities;
//! 2. the pins are put where their bones now are, and each body's bones (those within its
//!    reach, found once per step) are set to this substep's motion, with their inverse mass
//!    and world inverse inertia;
//! 3. the particle bodies' stages; their bone contacts go both ways (`Body::bone_contacts`:
//!    the correction split by the particle's inverse mass and the bone's generalised inverse
//!    mass at the contact, the opposite impulse kept for the bone);
//! 4. after the last substep the bones take the last corrections with their velocity
//!    (`Δx/h`, `Δθ/h`) and the pins move with them, so that the step ends with the
//!    exchanged momentum in both and every pin on its bone.
//!
//! A body pinned to a ragdoll meets that ragdoll's bones one way, as colliders: a pin does
//! not pass the cloth's load to its bone, so a contact both ways would close a loop with no
//! reaction in it — the cloth pushes the bone, the pin holds the cloth — and the ragdoll
//! would propel itself (measured in S7 before this rule: humanoids lying on their capes slid
//! at 2.5 m/s after 10 s and never slept). It meets other ragdolls both ways.
//!
//! A correction taken into the next substep's prediction is solved with that substep's joints
//! and contacts: a jelly's weight on a bone lying on the floor is held by the floor in the
//! same substep. (Taken with its velocity after every substep instead, a jelly resting on a
//! lying humanoid kept trembling at 8 mm/s and neither ever slept; taken this way both sleep
//! at 4.1 s, `tests/ragdoll_company.rs`.)
//!
//! **Sleep.** An island with an awake member, or an awake body in its company, is awake. Its
//! bones step when a member was awake before the step or an awake body not pinned to the
//! ragdoll it reaches may strike it: its sleepers are woken, keeping the time they have been
//! still (a ragdoll merely touched, and still itself, falls asleep again at the end of the
//! step; one that is pushed starts counting anew). When the only awake bodies are pinned to
//! its ragdolls (a cape settling on a sleeping character), the bones sleep on, met as still
//! colliders, and the bodies settle on them (else the bones, stepped and put back to sleep
//! every step, kept the capes of S7 trembling above their sleep speed for good). A sleeping
//! body in an awake island wakes when a ragdoll it links was awake before the step;
//! otherwise it sleeps on and is not stepped. An island of sleepers costs nothing beyond its
//! bounds. With the fast pipeline the members of an island that touch each other (a contact
//! pressing in the last substep) fall asleep as one, once each has been still for its sleep
//! time: a pile stops together, and a neighbour within reach but not touching does not wait
//! for it (precise pipeline: each ragdoll on its own).
//!
//! Every awake island copies its members' bodies, in slot order, into its own reused buffers
//! and is solved as one set of bodies (joints per member, contacts across all) with its
//! company, every island in parallel (rayon; they share nothing mutable), then copied back.
//! The copies and the solve are the same operations in the same order for any thread count,
//! so the bits do not depend on it.
//!
//! Nothing here allocates once the buffers have grown to the number of ragdolls, bones,
//! links and islands.

use rayon::prelude::*;

use super::World;
use crate::collider::Geometry;
use crate::geometry::Pose;
use crate::math::{Mat3, Vec3};
use crate::particles::follow::BoneCollider;
use crate::particles::stages::{self, StepContext, StepGroup, StepParams};
use crate::particles::Body;
use crate::ragdoll::{Core, Ragdoll, RagdollRecovery, RigidSolver, Scratch, begin_island_step, island_substep};
use crate::solver::rigid::RigidBody;
use crate::solver::rigid::contact::{NO_BODY, ObstacleShape};
use crate::solver::rigid::contact_mesh::MeshObstacle;

/// A ragdoll that had to be put back on a finite state, reported by the `step` call it
/// happened in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RagdollEvent {
    pub ragdoll: (usize, u32),
    pub recovery: RagdollRecovery,
}

/// A pin of a company's body that follows a bone of the island.
#[derive(Clone, Copy, Debug)]
struct PinLink {
    /// Index of the body among the island's company.
    body: u32,
    vertex: u32,
    /// Index of the bone among the island's rigid bodies.
    bone: u32,
    /// The pin's place in the bone's body frame.
    offset: Vec3,
}

/// One island's reused buffers: its bodies, contacts and multipliers, where each member's
/// bodies start, and the particle bodies in its company.
#[derive(Default)]
struct Island {
    scratch: Scratch,
    offsets: Vec<usize>,
    /// Union–find over the members by the contacts that touch at the step's end (the fast
    /// pipeline's sleep: each group of touching members sleeps as one).
    touching: Vec<u32>,
    /// Wall time of the island's last solve, shared by its ragdolls by bone count.
    solve_time: std::time::Duration,
    /// The particle bodies that step in company with the island, taken out of the world's
    /// arena for the step: (slot, entry).
    company: Vec<(usize, Option<(u32, Body)>)>,
    pins: Vec<PinLink>,
    /// A ragdoll of the island was awake before the step: its bones step. Otherwise only its
    /// company's bodies are awake and the sleeping bones are met as still colliders (below).
    moving: bool,
    /// The world's colliders as the island sees them when all its ragdolls ride in one anchor
    /// that carried them this frame (`ragdoll::anchor`); `anchored` says they are in use.
    seen: Vec<ObstacleShape>,
    anchored: bool,
}

/// A particle body that meets a ragdoll this step: pinned to it, or colliding with it and
/// within reach.
#[derive(Clone, Copy, Debug)]
struct Link {
    body: u32,
    ragdoll: u32,
    /// The body hangs on the ragdoll by pins (it then meets its bones one way).
    pinned: bool,
}

/// Reused buffers of the ragdolls' step.
#[derive(Default)]
pub(super) struct RagdollIslands {
    obstacles: Vec<ObstacleShape>,
    meshes: Vec<MeshObstacle>,
    /// Per slot: awake, awake before the islands woke anyone, union–find parent.
    awake: Vec<bool>,
    was_awake: Vec<bool>,
    /// Per island root: a member was awake before the step.
    moving: Vec<bool>,
    parent: Vec<u32>,
    /// Every bone's swept bounds and its ragdoll's slot; the sweep's order; where each
    /// slot's bones start in `bones`.
    bones: Vec<(Vec3, Vec3, u32)>,
    order: Vec<u32>,
    bone_start: Vec<u32>,
    /// A particle body that meets a ragdoll this step, in body slot order.
    links: Vec<Link>,
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

fn union(parent: &mut [u32], a: u32, b: u32) {
    let (ra, rb) = (find(parent, a), find(parent, b));
    if ra != rb {
        parent[ra.max(rb) as usize] = ra.min(rb);
    }
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
                union(&mut self.parent, a.2, b.2);
            }
        }
    }

    /// Whether any bone of the ragdoll in `slot` may come within `bounds` this step.
    fn reaches(&self, slot: usize, bounds: (Vec3, Vec3)) -> bool {
        let (s, e) = (self.bone_start[slot] as usize, self.bone_start[slot + 1] as usize);
        self.bones[s..e].iter().any(|b| overlap((b.0, b.1), bounds))
    }
}

/// A particle body's bounds over the coming fixed step of `step` s: where its particles are,
/// grown by its fastest particle's travel, gravity's and its thickness.
fn swept_body_bounds(b: &Body, step: f32, gravity: Vec3) -> (Vec3, Vec3) {
    let (lo, hi) = b.bounds();
    let vmax = b.v.iter().fold(0.0f32, |m, v| m.max(v.length_squared())).sqrt();
    let g = (gravity * b.material.gravity_scale).length();
    let grow = Vec3::splat(vmax * step + 0.5 * g * step * step + b.material.thickness * b.scale + 0.01);
    (lo - grow, hi + grow)
}

/// Whether a rigid body's pose and mass properties are finite.
fn finite_body(b: &RigidBody) -> bool {
    crate::math::is_finite3(b.x) && b.q.is_finite() && b.inv_mass.is_finite() && crate::math::is_finite3(b.inv_inertia)
}

/// A rigid body's frame as a pose.
fn pose_of(b: &RigidBody) -> Pose {
    Pose { rotation: b.q, position: b.x, scale: 1.0 }
}

/// A rigid body's inverse inertia in world axes.
fn world_inv_inertia(b: &RigidBody) -> Mat3 {
    let r = Mat3::from_quat(b.q);
    r * Mat3::from_diagonal(b.inv_inertia) * r.transpose()
}

/// An island and the particle bodies in its company, stepped together by the one stage
/// driver (`particles::stages::step_after_begin`): in every substep the bones' substep first
/// (`ragdoll::island_substep`), then the particles' stages, the pins placed on their bones
/// and the bones met where the substep leaves them, then the bones take the particles'
/// impulses (`Body::bone_contacts`).
struct Company<'a, F> {
    count: usize,
    member: F,
    scratch: &'a mut Scratch,
    obstacles: &'a [ObstacleShape],
    meshes: &'a [MeshObstacle],
    p: StepParams,
    bodies: &'a mut [(usize, Option<(u32, Body)>)],
    pins: &'a [PinLink],
    /// The bones step (else they sleep, met as still colliders).
    moving: bool,
}

impl<'a, F: Fn(usize) -> (&'a Core, usize)> StepGroup for Company<'a, F> {
    fn len(&self) -> usize {
        self.bodies.len()
    }

    fn body(&mut self, i: usize) -> &mut Body {
        &mut self.bodies[i].1.as_mut().expect("a company's bodies exist").1
    }

    fn rigid_substeps(&self) -> u32 {
        self.p.substeps.max(1)
    }

    fn before_substep(&mut self, s: u32) {
        if !self.moving {
            return;
        }
        // The bones take last substep's corrections from the particles as part of this
        // substep's motion: the joints and contacts solve them with the rest (a jelly's
        // weight on a bone lying on the floor is held by the floor in the same substep).
        let bodies = &mut *self.bodies;
        island_substep(self.count, &self.member, self.scratch, self.obstacles, self.meshes, &self.p, s, |rigid| take_corrections(bodies, rigid, None));
        let rigid = &self.scratch.bodies;
        for (_, entry) in self.bodies.iter_mut() {
            let body = &mut entry.as_mut().expect("a company's bodies exist").1;
            for bone in &mut body.bones {
                let b = &rigid[bone.bone as usize];
                bone.p0 = bone.p1;
                // A bone that overflowed in the substep stays where it was last finite: its
                // ragdoll is rolled back at the step's end, and the NaN does not reach the body.
                if finite_body(b) {
                    bone.p1 = pose_of(b);
                    bone.inv_mass = b.inv_mass;
                    bone.inv_inertia = world_inv_inertia(b);
                }
            }
        }
        self.place_pins(false);
    }

    fn after_substep(&mut self, s: u32) {
        // The step's last corrections are taken now, with their velocity, so that the step
        // ends with the pair's momentum exchanged; the pins move with their bones.
        if self.moving && s + 1 == self.rigid_substeps() {
            take_corrections(self.bodies, &mut self.scratch.bodies, Some(self.p.h));
            self.place_pins(true);
        }
    }
}

impl<'a, F: Fn(usize) -> (&'a Core, usize)> Company<'a, F> {
    /// Every pin of the company where its bone is now (`moved`: on the particle itself, after
    /// the substep; else on the pin's path for the coming stages).
    fn place_pins(&mut self, moved: bool) {
        let rigid = &self.scratch.bodies;
        for pin in self.pins {
            let b = &rigid[pin.bone as usize];
            let at = b.x + b.q * pin.offset;
            if !crate::math::is_finite3(at) {
                continue;
            }
            let body = &mut self.bodies[pin.body as usize].1.as_mut().expect("a company's bodies exist").1;
            if moved {
                body.move_pinned(pin.vertex, at);
            } else {
                body.place_pin(pin.vertex, at);
            }
        }
    }
}

/// Applies to the rigid bodies `rigid` the corrections the company's `bodies` gave their
/// bones (and clears them): to the positions, and with `h` also to the velocities (`Δx/h`,
/// `Δθ/h`) when they are applied after the velocities were taken.
fn take_corrections(bodies: &mut [(usize, Option<(u32, Body)>)], rigid: &mut [RigidBody], h: Option<f32>) {
    for (_, entry) in bodies.iter_mut() {
        let body = &mut entry.as_mut().expect("a company's bodies exist").1;
        for bone in &mut body.bones {
            // (A one-way bone is never given a correction: `Body::bone_contacts`.)
            if bone.dx == Vec3::ZERO && bone.dtheta == Vec3::ZERO {
                continue;
            }
            let b = &mut rigid[bone.bone as usize];
            b.x += bone.dx;
            b.q = (b.q + crate::math::Quat::from_xyzw(bone.dtheta.x, bone.dtheta.y, bone.dtheta.z, 0.0) * b.q * 0.5).normalize();
            if let Some(h) = h {
                b.v += bone.dx / h;
                b.w += bone.dtheta / h;
            }
            bone.dx = Vec3::ZERO;
            bone.dtheta = Vec3::ZERO;
        }
    }
}

impl World {
    /// One fixed step of every awake ragdoll and of the particle bodies in their company
    /// (see the module's notes).
    pub(super) fn step_ragdolls(&mut self, p: &StepParams) {
        // Last step's companies are over.
        for b in self.bodies.values_mut() {
            b.in_company = false;
        }
        if self.ragdolls.is_empty() {
            return;
        }
        let isl = &mut self.ragdoll_islands;
        let step = p.h * p.substeps as f32;
        let slots = self.ragdolls.slots_mut();
        let n = slots.len();
        isl.awake.clear();
        isl.awake.extend(slots.iter().map(|e| e.as_ref().is_some_and(|(_, r)| !r.is_asleep())));
        let linked = !self.attachments.is_empty() || self.bodies.values().any(|b| !b.collider_owners().is_empty());
        if !isl.awake.contains(&true) && !linked {
            return;
        }
        isl.was_awake.clear();
        isl.was_awake.extend_from_slice(&isl.awake);
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
        isl.bone_start.clear();
        for (i, entry) in slots.iter().enumerate() {
            isl.bone_start.push(isl.bones.len() as u32);
            if let Some((_, r)) = entry {
                isl.bones.extend(r.swept_bone_bounds(step).map(|(lo, hi)| (lo, hi, i as u32)));
            }
        }
        isl.bone_start.push(isl.bones.len() as u32);
        isl.join_touching();
        // The particle bodies that meet ragdolls this step: pinned to one, or colliding with
        // one whose bones come within their reach. A body in the world's contact pairs steps
        // with its pairs instead (one way, `attach`); a frozen body is carried.
        isl.links.clear();
        // Room for every link there may be, once (a body coming into reach later does not
        // allocate in a step): one per attachment and per ragdoll a body collides with.
        let (most_links, most_pins) = if linked {
            let owners: usize = self.bodies.values().map(|b| b.collider_owners().len()).sum();
            (owners + self.attachments.len(), self.attachments.iter().map(|a| a.vertices.len()).sum())
        } else {
            (0, 0)
        };
        isl.links.reserve(most_links);
        if linked {
            for (bslot, entry) in self.bodies.slots_mut().iter().enumerate() {
                let Some((serial, b)) = entry else { continue };
                if b.frozen || self.pairs.involves(bslot) {
                    continue;
                }
                let id = (bslot, *serial);
                let first = isl.links.len();
                for a in self.attachments.iter().filter(|a| a.body == id) {
                    if slots.get(a.ragdoll.0).is_some_and(|e| e.as_ref().is_some_and(|(s, _)| *s == a.ragdoll.1)) {
                        isl.links.push(Link { body: bslot as u32, ragdoll: a.ragdoll.0 as u32, pinned: true });
                    }
                }
                if !b.collider_owners().is_empty() {
                    let bounds = swept_body_bounds(b, step, p.gravity);
                    for &owner in b.collider_owners() {
                        let r = owner as usize - 1;
                        if slots.get(r).is_none_or(|e| e.is_none()) || isl.links[first..].iter().any(|l| l.ragdoll == r as u32) || !isl.reaches(r, bounds) {
                            continue;
                        }
                        isl.links.push(Link { body: bslot as u32, ragdoll: r as u32, pinned: false });
                    }
                }
                for k in first + 1..isl.links.len() {
                    union(&mut isl.parent, isl.links[first].ragdoll, isl.links[k].ragdoll);
                }
            }
        }
        for i in 0..n {
            let r = find(&mut isl.parent, i as u32);
            isl.parent[i] = r;
        }
        // An island with an awake member, or an awake body in its company, is awake (its root
        // is marked), its sleepers woken.
        for i in 0..n {
            if isl.awake[i] {
                let root = isl.parent[i] as usize;
                isl.awake[root] = true;
            }
        }
        for l in &isl.links {
            if self.bodies.get_by_slot(l.body as usize).is_some_and(|b| !b.is_asleep()) {
                let root = isl.parent[l.ragdoll as usize] as usize;
                isl.awake[root] = true;
            }
        }
        if !(0..n).any(|i| isl.awake[isl.parent[i] as usize] && slots[i].is_some()) {
            return;
        }
        // A sleeping body in an awake island wakes when a bone it meets was awake (a bone
        // merely woken by it stays where it slept).
        for l in &isl.links {
            if isl.was_awake[l.ragdoll as usize]
                && let Some(b) = self.bodies.slots_mut()[l.body as usize].as_mut().map(|e| &mut e.1)
                && b.is_asleep()
            {
                b.wake();
            }
        }
        // The bones of an awake island step when a member was awake, or an awake body that
        // is not pinned to the ragdoll it reaches may strike it; otherwise (only bodies pinned
        // to them awake: a cape settling on a sleeping character) they sleep on, met as
        // still colliders, and the body settles on them.
        isl.moving.clear();
        isl.moving.resize(n, false);
        for i in 0..n {
            if isl.was_awake[i] {
                let root = isl.parent[i] as usize;
                isl.moving[root] = true;
            }
        }
        for l in &isl.links {
            if !l.pinned && self.bodies.get_by_slot(l.body as usize).is_some_and(|b| !b.is_asleep()) {
                let root = isl.parent[l.ragdoll as usize] as usize;
                isl.moving[root] = true;
            }
        }
        isl.members.clear();
        for (i, entry) in slots.iter_mut().enumerate() {
            let Some((_, r)) = entry else { continue };
            if !isl.awake[isl.parent[i] as usize] {
                continue;
            }
            if r.is_asleep() && isl.moving[isl.parent[i] as usize] {
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
        // Copy in, island by island: the members' bodies, then the company's particle bodies
        // (taken out of the arena for the step), the bones each meets and its pins.
        let body_slots = self.bodies.slots_mut();
        for (island, &(s, e)) in isl.islands.iter_mut().zip(&isl.ranges) {
            let sc = &mut island.scratch;
            sc.bodies.clear();
            sc.shapes.clear();
            sc.owner.clear();
            island.offsets.clear();
            let group = &isl.members[s as usize..e as usize];
            island.moving = isl.moving[parent[group[0] as usize] as usize];
            // All members carried alike by one anchor: the colliders seen through its carry.
            let carry = group.iter().map(|&m| slots[m as usize].as_ref().and_then(|(_, r)| r.anchor_carry())).reduce(|a, b| a.filter(|a| Some(*a) == b)).flatten();
            island.seen.clear();
            island.anchored = carry.is_some_and(|c| !c.is_none());
            if let Some(c) = carry.filter(|_| island.anchored) {
                let (c0, c1) = (c.seen_at(p.pose_t0), c.seen_at(p.pose_t1));
                island.seen.extend(isl.obstacles.iter().map(|o| ObstacleShape { from: c0.pose(&o.from), to: c1.pose(&o.to), ..*o }));
            }
            for (m, &slot) in group.iter().enumerate() {
                let Some((_, r)) = &mut slots[slot as usize] else { continue };
                if island.moving {
                    r.begin_step(p);
                }
                island.offsets.push(sc.bodies.len());
                sc.bodies.extend_from_slice(r.bodies());
                sc.shapes.extend_from_slice(r.shapes());
                sc.owner.extend((0..r.bone_count() as u32).map(|b| (m as u32, b)));
            }
            sc.lambdas.resize(sc.bodies.len(), [0.0; 4]);
            sc.drive.resize(sc.bodies.len(), [Vec3::ZERO; 4]);
            sc.limits.resize(sc.bodies.len(), [Vec3::ZERO; 2]);
            sc.contacts.reserve_for(sc.bodies.len());
            island.company.clear();
            island.pins.clear();
            island.company.reserve(most_links);
            island.pins.reserve(most_pins);
            let root = parent[group[0] as usize];
            let mut k = 0;
            while k < isl.links.len() {
                let bslot = isl.links[k].body;
                let end = k + isl.links[k..].iter().take_while(|l| l.body == bslot).count();
                let here = parent[isl.links[k].ragdoll as usize] == root;
                let links = &isl.links[k..end];
                k = end;
                let Some((serial, mut body)) = body_slots[bslot as usize].take() else { continue };
                if !here || body.is_asleep() {
                    body_slots[bslot as usize] = Some((serial, body));
                    continue;
                }
                let index = island.company.len() as u32;
                body.in_company = true;
                body.bones.clear();
                // Room for every bone it may meet, once: bones coming into reach later do
                // not allocate in a step.
                let reach: usize = links.iter().map(|l| slots[l.ragdoll as usize].as_ref().map_or(0, |(_, g)| g.bone_count())).sum();
                body.bones.reserve(reach);
                let bounds = swept_body_bounds(&body, step, p.gravity);
                for &Link { ragdoll: r, pinned, .. } in links {
                    let m = group.binary_search(&r).expect("a linked ragdoll is a member of its island");
                    let off = island.offsets[m];
                    let ragdoll = &slots[r as usize].as_ref().expect("island members exist").1;
                    // Pinned: one way; sleeping: a still collider.
                    let still = pinned || !island.moving;
                    if body.collider_owners().contains(&(r + 1)) {
                        let first = isl.bone_start[r as usize] as usize;
                        for bone in 0..ragdoll.bone_count() {
                            let bb = isl.bones[first + bone];
                            if !overlap((bb.0, bb.1), bounds) {
                                continue;
                            }
                            let rb = &sc.bodies[off + bone];
                            let pose = pose_of(rb);
                            body.bones.push(BoneCollider {
                                shape: sc.shapes[off + bone].shape,
                                p0: pose,
                                p1: pose,
                                inv_mass: rb.inv_mass,
                                inv_inertia: world_inv_inertia(rb),
                                bone: (off + bone) as u32,
                                one_way: still,
                                dx: Vec3::ZERO,
                                dtheta: Vec3::ZERO,
                            });
                        }
                    }
                    for a in self.attachments.iter().filter(|a| a.body == (bslot as usize, serial) && a.ragdoll.0 == r as usize) {
                        for j in 0..a.vertices.len() {
                            let bone = a.bones[j] as usize;
                            let offset = ragdoll.offset_in_body(bone, a.offsets[j]);
                            island.pins.push(PinLink { body: index, vertex: a.vertices[j], bone: (off + bone) as u32, offset });
                            // Over the step the pin moves as the bone would at its velocity
                            // (the body's reach for its broad phase); every substep then puts
                            // it where the bone is.
                            let rb = &sc.bodies[off + bone];
                            let from = rb.x + rb.q * offset;
                            let to = from + (rb.v + rb.w.cross(rb.q * offset)) * step;
                            body.drive_pin_over_step(a.vertices[j], from, to, p.pin_t0, p.pin_t1);
                        }
                    }
                }
                island.company.push((bslot as usize, Some((serial, body))));
            }
        }
        // Solve, every island in parallel.
        {
            let view: &[Option<(u32, Ragdoll)>] = slots;
            let (members, obstacles, meshes) = (&isl.members, &isl.obstacles, &isl.meshes);
            let ctx = StepContext { colliders: &self.collider_frames, wind: &self.wind };
            let solve = |(island, &(s, e)): (&mut Island, &(u32, u32))| {
                let group = &members[s as usize..e as usize];
                let obstacles: &[ObstacleShape] = if island.anchored { &island.seen } else { obstacles };
                let offsets = &island.offsets;
                let member = |m: usize| {
                    let r = &view[group[m] as usize].as_ref().expect("island members exist").1;
                    (&r.core, offsets[m])
                };
                let start = std::time::Instant::now();
                if island.moving {
                    begin_island_step(group.len(), member, &mut island.scratch, obstacles, meshes, p);
                }
                for (_, entry) in island.company.iter_mut() {
                    entry.as_mut().expect("a company's bodies exist").1.begin_step(p, &ctx, false, None);
                }
                let moving = island.moving;
                let mut company = Company { count: group.len(), member, scratch: &mut island.scratch, obstacles, meshes, p: *p, bodies: &mut island.company, pins: &island.pins, moving };
                stages::step_after_begin(&mut company, |_| *p, &ctx);
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
        let body_slots = self.bodies.slots_mut();
        for (island, &(s, e)) in isl.islands.iter_mut().zip(&isl.ranges) {
            let bones = island.scratch.bodies.len();
            let particles: usize = island.company.iter().map(|(_, e)| e.as_ref().map_or(0, |(_, b)| b.particle_count())).sum();
            let group = &isl.members[s as usize..e as usize];
            if island.moving {
                for (m, &slot) in group.iter().enumerate() {
                    let Some((_, r)) = &mut slots[slot as usize] else { continue };
                    let off = island.offsets[m];
                    let count = r.bone_count();
                    r.bodies_mut().copy_from_slice(&island.scratch.bodies[off..off + count]);
                    r.end_step(p);
                    r.charge_time(island.solve_time, bones + particles);
                }
            }
            for (slot, entry) in island.company.drain(..) {
                let (serial, mut body) = entry.expect("a company's bodies exist");
                body.bones.clear();
                body.charge_time(island.solve_time, bones + particles);
                body_slots[slot] = Some((serial, body));
            }
            // The fast pipeline sleeps by touching groups: the members that touch each other at
            // the step's end (a contact pressing, λₙ > 0, in the last substep) sleep as one —
            // a pile stops together — and a member near but not touching does not wait for
            // them (the proximity island joined a grid of lying ragdolls by their arms).
            if island.moving && p.rigid_solver == RigidSolver::Fast {
                let touching = &mut island.touching;
                touching.clear();
                touching.extend(0..group.len() as u32);
                let owner = &island.scratch.owner;
                for c in island.scratch.contacts.contacts() {
                    if c.b == NO_BODY || c.lambda_n <= 0.0 {
                        continue;
                    }
                    union(touching, owner[c.a as usize].0, owner[c.b as usize].0);
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
