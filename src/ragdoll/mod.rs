//! Ragdolls: rigid bones joined by joints, the second family of objects a world steps
//! (chapter sections 1–4). A ragdoll is built from a bone list ([`RagdollDesc`]) or from a
//! humanoid's bone positions ([`humanoid`]); its bones are stepped by the rigid-body kernels
//! of `solver/rigid` in the world's fixed steps and substeps.
//!
//! **Frames.** Each bone has its *bone frame* (the host's transform: the bind pose, targets,
//! readback) and a *body frame*, the frame of its collision shape (`shape_offset`,
//! `shape_rotation` in the bone frame), whose origin is the centre of mass and whose axes are
//! the shape's principal axes (`solver::rigid::mass`). The solver moves body frames;
//! `bone = body ∘ (offset, rotation)⁻¹`.
//!
//! **Mass.** `mass`, or `density × volume`; with `settings.stabilize` (on by default) every
//! child's mass is clamped to `[m_parent/r, m_parent·r]` (`r = max_mass_ratio`, parents
//! first, inertia scaled along) and each principal moment is raised to at least `1/r` of the
//! bone's largest (a thin limb's twist moment), which is what keeps long chains and big
//! ratios converging with few iterations (Jolt's `Ragdoll::Stabilize` does the same).
//!
//! **Two pipelines** ([`RigidSolver`], the world's `rigid_solver`). Both step one ragdoll,
//! or an island of touching ones solved together (see the world), in the world's substeps.
//!
//! *Fast* (the default; XPBD with small steps, Müller et al. 2020, as Box2D v3 and avian do
//! with substeps): the contacts are found **once per fixed step**, where the bones are at its
//! start, every feature within reach of the bones' motion over the step (speculative
//! contacts; `rigid::contact`, `Contacts::collect_step`; a round shape's contact anchored at
//! its core, so a normal correction never turns a sphere or a capsule about its axis). Per
//! substep: predict (`integrate_fast`) and place kinematic bones; the world inverse inertias
//! once (`Contacts::set_substep_inertia`); `max(iterations, 2)` passes of one Gauss–Seidel
//! sweep of the joints (`rigid::joint::solve_joints`, root first: per joint soft limits, hard
//! limits and alignment, then the anchors), muscles and pins, and one sweep of the contacts
//! (normal, then static friction) — the contacts last, so what they push out stays out;
//! velocities from positions; the joints' velocity pass (`joint_velocities`: anchors and
//! alignment at `J v = 0`, the limits the pass corrected held, with the stop's friction);
//! the contacts' velocity pass (no bounce: one sweep; restitution: up to 8, so that a
//! capsule landing flat shares the bounce between its ends); joint friction. Contacts have
//! rolling resistance ([`ROLLING_RESISTANCE`]). A ragdoll whose bone-to-parent mass ratio
//! exceeds [`DIRECT_SOLVE_MASS_RATIO`] is solved by the direct tree solve instead of the
//! Gauss–Seidel sweep (`rigid::tree`; one sweep converges like `(1 − m_light/m_heavy)^k`
//! along a chain). Ragdolls that touch sleep as one: a pile stops when every member is still.
//!
//! *Precise* (the pipeline before): contacts found in every substep and swept to
//! convergence (up to 8 + 8 sweeps), every joint pass the direct tree solve, a last joint
//! pass holding the contacts' normals (`rigid::tree`, *Held contacts*). Joints within
//! micrometres, at 5–7 times the cost on S4 (docs/performance.md, *Ragdolls: two
//! pipelines*), piles that did not come to rest, and each ragdoll sleeps on its own.
//!
//! **Rest** (humanoid template dropped 1 m onto a plane, defaults, fast pipeline): below
//! 1e-3 m/s before it sleeps at 3.0 s, joints within 3.9 mm at the landing's peak and 0.14 mm
//! at rest; a pile of four asleep at 8.6 s (`tests/ragdoll_contact.rs`). Each fix that got
//! there, measured: one pass per substep left 3–10 mm/s at rest (the joints' pass pulling a
//! bone down and the contacts' pushing it back, each leaving the other's error to the next
//! substep, whose velocities kept it); alternating the joints' order between substeps set
//! up an oscillation at the substep rate; contact points kept as material points for the
//! whole step spun spheres in piles; heads lying at the rim of their neck's cone circled
//! along it at 5–12 rad/s until the stop had friction.
//!
//! **Kinematic bones** follow the host's targets like pins: over a host frame's fixed steps a
//! bone moves from where it is to its target (carried on at its velocity while simulated time
//! runs ahead, the world's `pose_t1`), position lerp and rotation slerp at every substep, so
//! the velocity the substeps derive is the animation's: switching to dynamic carries it on.
//! A kinematic bone has zero inverse mass: joints and contacts move only what touches it.
//!
//! **Readback** interpolates between the last two fixed steps by the world's `alpha`, like
//! particles, except for a bone not moved since `set_pose`: that reads back the pose it was
//! given bit for bit (a recording replays exactly; through the body frame it would round by
//! a few ULP); [`Ragdoll::bone_pose_in_step`] is the same motion for the particle bodies that
//! follow a bone. **Sleep**: once every bone has stayed under `sleep_threshold` (m/s, and
//! rad/s × the bone's size) for `sleep_time` s the ragdoll stops (velocities zeroed, state
//! kept bit for bit) until something wakes it: an impulse or force, `set_pose`, a kinematic
//! switch, a kinematic bone's target moving, gravity changing, a collider moving near it, an
//! awake ragdoll reaching it. **Recovery**: a step that leaves a bone non-finite is rolled
//! back and the ragdoll stopped, and the world reports it ([`crate::world::World::ragdoll_events`]).
//!
//! Nothing here allocates after creation.

mod anchor;
pub mod desc;
pub mod drive;
pub mod getup;
pub mod humanoid;
mod state;

pub use desc::{BoneDesc, JointDesc, JointKind, MAX_BONES, RagdollDesc, RagdollSettings};
pub use drive::BALANCE_LOST;
pub use getup::{GetUpInfo, GetUpQuery, LyingSide, blend_alpha, blend_poses, check_alpha};

use crate::error::{Error, ErrorKind, Result, check_finite, check_non_negative, check_position, check_position_with, MAX_STEP_VALUE};
use crate::geometry::Pose;
use crate::math::{Mat3, Mat4, Quat, Vec3, is_finite3, within};
use crate::solver::rigid::contact::{BodyShape, ContactMaterial, Contacts, NO_BODY, ObstacleShape};
use crate::solver::rigid::contact_mesh::{MeshObstacle, PlacedMesh};
use crate::solver::rigid::integrate::{end_angular_velocity, integrate, integrate_fast, velocities_from_positions};
use crate::solver::rigid::joint::{Joint, JointError, JointLimits, joint_friction, joint_velocities, solve_joints};
use crate::solver::rigid::tree::{HeldRow, TreeWork, solve_tree};
use crate::solver::rigid::{RigidBody, mass::mass_properties};

/// A rigid pose (body frame) as the solver keeps it.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Frame {
    x: Vec3,
    q: Quat,
}

impl Frame {
    fn of(b: &RigidBody) -> Frame {
        Frame { x: b.x, q: b.q }
    }
    fn lerp(&self, o: &Frame, t: f32) -> Frame {
        if t <= 0.0 {
            return *self;
        }
        if t >= 1.0 {
            return *o;
        }
        Frame { x: self.x.lerp(o.x, t), q: self.q.slerp(o.q, t).normalize() }
    }
}

/// One fixed step as a ragdoll sees it: the world's step parameters (the kinematic bones'
/// path over the host frame is the pins' fraction, `pin_t0` → `pin_t1`).
pub use crate::step::{RigidSolver, StepParams};

/// What the solver reads of a ragdoll during a step (nothing here changes in it).
#[derive(Clone, Debug)]
pub(crate) struct Core {
    settings: RagdollSettings,
    /// Joint of bone `j` (child `j`; roots `Free`).
    joints: Vec<Joint>,
    /// The body frame in the bone frame.
    body_in_bone: Vec<Pose>,
    /// Dynamic inverse mass and inertia (restored when a bone turns dynamic).
    inv_mass: Vec<f32>,
    inv_inertia: Vec<Vec3>,
    /// Bone size (m) for the angular sleep threshold.
    size: Vec<f32>,
    kinematic: Vec<bool>,
    /// Kinematic bones' path over the host frame (body frames).
    path_from: Vec<Frame>,
    path_to: Vec<Frame>,
    /// Host targets (bone frames): the last frame's and this frame's.
    target_from: Vec<Pose>,
    target_to: Vec<Pose>,
    /// Force and torque about the centre of mass (world) over the next host frame.
    forces: Vec<(Vec3, Vec3)>,
    /// Bit `a·n + b` set: bones `a` and `b` collide.
    pairs: Vec<u64>,
    /// Parent of every bone (−1 for a root).
    parent: Vec<i32>,
    /// Powered ragdoll (`drive`): the host's muscle strength and pin weight per bone (0–1),
    /// the loss after hits (0–1), the animated pose's path over the host frame (bone frames),
    /// and whether any strength or pin weight is above 0.
    muscle: Vec<f32>,
    pin: Vec<f32>,
    hit_loss: Vec<f32>,
    drive_from: Vec<Pose>,
    drive_to: Vec<Pose>,
    driven: bool,
    /// Solve the joints by the direct tree solve (`rigid::tree`) instead of the Gauss–Seidel
    /// pass: exact at any mass ratio, several times the cost (module docs). Off by default.
    direct_joints: bool,
}

impl Core {
    fn bone_count(&self) -> usize {
        self.joints.len()
    }

    /// Whether bones `a` and `b` may collide.
    pub(crate) fn collides(&self, a: usize, b: usize) -> bool {
        let k = a * self.bone_count() + b;
        self.pairs[k / 64] >> (k % 64) & 1 != 0
    }

    fn set_pair(&mut self, a: usize, b: usize, on: bool) {
        let n = self.bone_count();
        for k in [a * n + b, b * n + a] {
            if on {
                self.pairs[k / 64] |= 1 << (k % 64);
            } else {
                self.pairs[k / 64] &= !(1 << (k % 64));
            }
        }
    }

    /// Prediction of substep `s`: dynamic bones integrated, kinematic bones on their path at
    /// fraction `f` of the host frame's.
    fn predict(&self, bodies: &mut [RigidBody], f: f32, p: &StepParams) {
        let s = &self.settings;
        integrate(bodies, &self.forces, p.gravity, s.linear_damping, s.angular_damping, p.h);
        self.place_kinematic(bodies, f);
    }

    /// [`Core::predict`] of the fast pipeline (`rigid::integrate::integrate_fast`).
    fn predict_fast(&self, bodies: &mut [RigidBody], f: f32, p: &StepParams) {
        let s = &self.settings;
        integrate_fast(bodies, &self.forces, p.gravity, s.linear_damping, s.angular_damping, p.h);
        self.place_kinematic(bodies, f);
    }

    /// Kinematic bones on their path at fraction `f` of the host frame's.
    fn place_kinematic(&self, bodies: &mut [RigidBody], f: f32) {
        for (i, b) in bodies.iter_mut().enumerate() {
            if self.kinematic[i] {
                let at = self.path_from[i].lerp(&self.path_to[i], f);
                b.x = at.x;
                b.q = at.q;
            }
        }
    }
}

/// What the solver changes during a step: the bodies, the joints' multipliers, the contacts.
/// A ragdoll stepping alone uses its own; an island of ragdolls copies theirs into one.
#[derive(Clone, Debug, Default)]
pub(crate) struct Scratch {
    pub(crate) bodies: Vec<RigidBody>,
    pub(crate) shapes: Vec<BodyShape>,
    pub(crate) lambdas: Vec<[f32; 4]>,
    /// (member, bone) of every body.
    pub(crate) owner: Vec<(u32, u32)>,
    pub(crate) contacts: Contacts,
    /// The tree solve's workspace, for one ragdoll at a time (an island's members are solved
    /// one after another): sized at creation, grown once for an island's largest member.
    pub(crate) tree: TreeWork,
    /// Muscles' and pins' corrections in the substep (`drive`).
    pub(crate) drive: Vec<drive::DriveAcc>,
    /// Per joint (child bone), the hard limit axes the fast pipeline's position pass
    /// corrected in the substep (`rigid::joint::solve_joints`).
    pub(crate) limits: Vec<[Vec3; 2]>,
    /// The island's contact material and collider layers this step (`begin_island_step`).
    pub(crate) material: ContactMaterial,
    pub(crate) mask: u32,
}

/// The start of a fixed step of `count` ragdolls whose bodies lie in `scratch` one after
/// another (`member(m)` gives member `m`'s core and the index of its first body): the
/// island's contact material, and with the fast pipeline its contacts for the whole step.
/// Substep `s` is then [`island_substep`], called by the world's one stage driver
/// (`particles::stages::step_after_begin`) in the same substeps as the particle bodies.
pub(crate) fn begin_island_step<'a>(count: usize, member: impl Fn(usize) -> (&'a Core, usize), scratch: &mut Scratch, obstacles: &[ObstacleShape], meshes: &[MeshObstacle], p: &StepParams) {
    let Scratch { bodies, shapes, owner, contacts, tree, material, mask, .. } = scratch;
    let (island_mask, friction, restitution) = island_material(count, &member);
    *mask = island_mask;
    let fast = p.rigid_solver == RigidSolver::Fast;
    *material = ContactMaterial { friction, restitution, rolling: if fast { ROLLING_RESISTANCE } else { 0.0 } };
    let direct = !fast || (0..count).any(|m| member(m).0.direct_joints);
    if direct {
        let largest = (0..count).map(|m| member(m).0.bone_count()).max().unwrap_or(0);
        tree.reserve_bones(largest);
    }
    if !fast {
        contacts.set_substep_inertia(bodies, false);
        contacts.position_iterations = crate::solver::rigid::contact::ITERATIONS;
        contacts.velocity_iterations = crate::solver::rigid::contact::ITERATIONS;
        return;
    }
    let pair = |i: usize, j: usize| {
        let ((mi, bi), (mj, bj)) = (owner[i], owner[j]);
        mi != mj || member(mi as usize).0.collides(bi as usize, bj as usize)
    };
    let n = p.substeps.max(1);
    // The contacts of the whole step, found once where the bones are now: every feature
    // within reach of the bones' motion over the step (speculative; module docs).
    let step = p.h * n as f32;
    let fall = 0.5 * p.gravity.length() * step * step;
    let sweep = |i: usize| {
        let (b, s) = (&bodies[i], &shapes[i]);
        let reach = s.local.position.length() + s.shape.bounding_radius() * s.local.scale;
        let (mi, bi) = owner[i];
        let (core, _) = member(mi as usize);
        if core.kinematic[bi as usize] {
            let at = Frame::of(b).lerp(&core.path_to[bi as usize], p.pin_t1.clamp(0.0, 1.0));
            return (at.x - b.x).length() + b.q.angle_between(at.q) * reach;
        }
        (b.v.length() * step + fall) + b.w.length() * step * reach
    };
    contacts.position_iterations = CONTACT_POSITION_SWEEPS;
    // Several velocity sweeps share a bounce's impulse over a manifold (a capsule landing flat
    // on its two ends rebounds without spin); without restitution one sweep stops the approach.
    contacts.velocity_iterations = if restitution > 0.0 { CONTACT_VELOCITY_SWEEPS } else { 1 };
    contacts.collect_step(bodies, shapes, obstacles, island_mask, pair, sweep);
    for m in meshes.iter().filter(|m| m.layers & island_mask != 0) {
        contacts.collect_mesh(bodies, shapes, &PlacedMesh { mesh: &m.mesh, pose: m.pose });
    }
}

/// Substep `s` of the fixed step [`begin_island_step`] began (module docs, *Two pipelines*).
/// `after_predict` moves the predicted bodies before any constraint sees them: the
/// corrections the particle bodies in the island's company gave the bones in the substep
/// before (the world's companies), solved with the joints and contacts of this one.
#[allow(clippy::too_many_arguments)]
pub(crate) fn island_substep<'a>(count: usize, member: impl Fn(usize) -> (&'a Core, usize), scratch: &mut Scratch, obstacles: &[ObstacleShape], meshes: &[MeshObstacle], p: &StepParams, s: u32, after_predict: impl FnOnce(&mut [RigidBody])) {
    match p.rigid_solver {
        RigidSolver::Precise => substep_precise(count, member, scratch, obstacles, meshes, p, s, after_predict),
        RigidSolver::Fast => substep_fast(count, member, scratch, p, s, after_predict),
    }
}

/// Substep `s` of `n`: its start and end as fractions of the fixed step, and where they fall
/// on the kinematic bones' path over the host frame.
fn substep_times(p: &StepParams, s: u32, n: u32) -> (f32, f32, f32, f32) {
    let (t0, t1) = (s as f32 / n as f32, (s + 1) as f32 / n as f32);
    (t0, t1, p.pin_t0 + (p.pin_t1 - p.pin_t0) * t0, p.pin_t0 + (p.pin_t1 - p.pin_t0) * t1)
}

/// Every member's prediction of the substep ending at `f` on the kinematic path.
fn predict_members<'a>(count: usize, member: &impl Fn(usize) -> (&'a Core, usize), bodies: &mut [RigidBody], f: f32, p: &StepParams, fast: bool) {
    for m in 0..count {
        let (core, off) = member(m);
        let bones = &mut bodies[off..off + core.bone_count()];
        if fast {
            core.predict_fast(bones, f, p);
        } else {
            core.predict(bones, f, p);
        }
    }
}

/// What an island's contacts use: every member's collider layers, the mean friction, the
/// largest restitution.
fn island_material<'a>(count: usize, member: &impl Fn(usize) -> (&'a Core, usize)) -> (u32, f32, f32) {
    let (mut mask, mut friction, mut restitution) = (0u32, 0.0f32, 0.0f32);
    for m in 0..count {
        let s = &member(m).0.settings;
        mask |= s.collider_mask;
        friction += s.friction / count as f32;
        restitution = restitution.max(s.restitution);
    }
    (mask, friction, restitution)
}

/// A substep of [`RigidSolver::Fast`] (module docs, *Two pipelines*).
fn substep_fast<'a>(count: usize, member: impl Fn(usize) -> (&'a Core, usize), scratch: &mut Scratch, p: &StepParams, s: u32, after_predict: impl FnOnce(&mut [RigidBody])) {
    let Scratch { bodies, lambdas, contacts, tree, drive, limits, material, .. } = scratch;
    let material = *material;
    let n = p.substeps.max(1);
    let passes = p.iterations.max(FAST_MIN_ITERATIONS);
    let (t0, t1, f0, f) = substep_times(p, s, n);
    predict_members(count, &member, bodies, f, p, true);
    after_predict(bodies);
    contacts.begin_substep(bodies, t0, t1);
    contacts.set_substep_inertia(bodies, true);
    lambdas.iter_mut().for_each(|l| *l = [0.0; 4]);
    drive.iter_mut().for_each(|d| *d = [Vec3::ZERO; 4]);
    limits.iter_mut().for_each(|l| *l = [Vec3::ZERO; 2]);
    for _ in 0..passes {
        for m in 0..count {
            let (core, off) = member(m);
            let r = off..off + core.bone_count();
            if core.direct_joints {
                solve_tree(&mut bodies[r.clone()], &core.joints, &mut lambdas[r.clone()], tree, p.h, 1);
            } else {
                solve_joints(&mut bodies[r.clone()], &contacts.substep_inertia()[r.clone()], &core.joints, &mut lambdas[r.clone()], &mut limits[r.clone()], p.h);
            }
            // Muscles and pins after the joints: they see what the substep's load did to
            // the joints' angles.
            if core.driven {
                core.drive(&mut bodies[r.clone()], &mut drive[r], f0, f, p.h);
            }
        }
        // The contacts have the last word: what they push out stays out, and what they
        // leave of a joint open the next pass closes.
        contacts.solve_positions(bodies, material, p.h);
    }
    velocities_from_positions(bodies, p.h);
    for m in 0..count {
        let (core, off) = member(m);
        if !core.direct_joints {
            let r = off..off + core.bone_count();
            joint_velocities(&mut bodies[r.clone()], &contacts.substep_inertia()[r.clone()], &core.joints, &limits[r], p.h);
        }
    }
    contacts.solve_velocities(bodies, material, p.gravity, p.h);
    for m in 0..count {
        let (core, off) = member(m);
        joint_friction(&mut bodies[off..off + core.bone_count()], &core.joints, p.h);
    }
}

/// Joint and contact passes per substep of the fast pipeline, at least (the world's
/// `iterations` if more): with one, a humanoid lying on the ground kept 3–10 mm/s at rest —
/// the joints' pass pulling a bone down and the contacts' pushing it back, each substep
/// leaving the other's error for the next — and piles never slept; with two it rests at
/// 0.4 mm/s (docs/performance.md, *Ragdolls: two pipelines*).
const FAST_MIN_ITERATIONS: u32 = 2;

/// A substep of [`RigidSolver::Precise`]: the step as it was before the fast pipeline
/// (module docs).
#[allow(clippy::too_many_arguments)]
fn substep_precise<'a>(count: usize, member: impl Fn(usize) -> (&'a Core, usize), scratch: &mut Scratch, obstacles: &[ObstacleShape], meshes: &[MeshObstacle], p: &StepParams, s: u32, after_predict: impl FnOnce(&mut [RigidBody])) {
    let Scratch { bodies, shapes, lambdas, owner, contacts, tree, drive, material, mask, .. } = scratch;
    let (material, mask) = (*material, *mask);
    let pair = |i: usize, j: usize| {
        let ((mi, bi), (mj, bj)) = (owner[i], owner[j]);
        mi != mj || member(mi as usize).0.collides(bi as usize, bj as usize)
    };
    let n = p.substeps.max(1);
    let (t0, t1, f0, f) = substep_times(p, s, n);
    predict_members(count, &member, bodies, f, p, false);
    after_predict(bodies);
    contacts.collect(bodies, shapes, obstacles, mask, pair, t0, t1);
    for m in meshes.iter().filter(|m| m.layers & mask != 0) {
        contacts.collect_mesh(bodies, shapes, &PlacedMesh { mesh: &m.mesh, pose: m.pose });
    }
    lambdas.iter_mut().for_each(|l| *l = [0.0; 4]);
    drive.iter_mut().for_each(|d| *d = [Vec3::ZERO; 4]);
    for _ in 0..p.iterations.max(1) {
        for m in 0..count {
            let (core, off) = member(m);
            let r = off..off + core.bone_count();
            solve_tree(&mut bodies[r.clone()], &core.joints, &mut lambdas[r.clone()], tree, p.h, 1);
            // Muscles and pins after the joints: they see what the substep's load did to
            // the joints' angles (before, a damped muscle held 16 % less than its
            // stiffness says); the last joint pass then closes what they opened.
            if core.driven {
                core.drive(&mut bodies[r.clone()], &mut drive[r], f0, f, p.h);
            }
        }
        contacts.solve_positions(bodies, material, p.h);
    }
    // The joints have the last word: what the contacts moved at an impact is pulled back
    // together before the velocities are taken (a contact left a little open is closed
    // by the next substep's contacts). Each joint pass is the direct tree solve: every
    // joint of the ragdoll together, exact up to linearisation whatever the mass ratios.
    for m in 0..count {
        let (core, off) = member(m);
        let r = off..off + core.bone_count();
        held_rows(contacts, r.clone(), &mut tree.held);
        solve_tree(&mut bodies[r.clone()], &core.joints, &mut lambdas[r], tree, p.h, LAST_PASS_NEWTON);
        tree.held.clear();
    }
    velocities_from_positions(bodies, p.h);
    contacts.solve_velocities(bodies, material, p.gravity, p.h);
    for m in 0..count {
        let (core, off) = member(m);
        joint_friction(&mut bodies[off..off + core.bone_count()], &core.joints, p.h);
    }
}

/// The contact directions member bodies `range` hold in the substep's last tree pass: the
/// normal of every contact with an obstacle (a collider: it does not move in the pass) still
/// active after the position pass (`λₙ > 0`). Tangents are not held, nor contacts with other
/// bodies: holding those measured worse (module docs, *Rest*).
fn held_rows(contacts: &Contacts, range: std::ops::Range<usize>, out: &mut Vec<HeldRow>) {
    out.clear();
    for c in contacts.contacts() {
        if c.lambda_n <= 0.0 || c.b != NO_BODY || !range.contains(&(c.a as usize)) {
            continue;
        }
        out.push(HeldRow { body: c.a - range.start as u32, r_local: c.ra, dir: c.n });
    }
}

/// Linearisations of the substep's last tree pass. One leaves the linearisation error of
/// an impact's corrections (0.02–0.05 mm in the humanoid drop and the chapter program); two
/// square it (1.6 µm and 0.007 mm) but cost 25 % more on S4 (see `solver::rigid::tree`).
const LAST_PASS_NEWTON: u32 = 1;

/// Above this mass ratio between a bone and its parent the fast pipeline solves the
/// ragdoll's joints by the direct tree solve (`rigid::tree`) instead of Gauss–Seidel. A
/// three-link chain falling from horizontal opens at its peak by 1.0 / 1.7 / 6.6 / 20 % of a
/// link at ratios 2 / 3 / 5 / 10 by Gauss–Seidel (8 substeps × 2 passes), by 5e-6 solved
/// directly, at several times the cost; the humanoid template's largest ratio is 2.5.
pub const DIRECT_SOLVE_MASS_RATIO: f32 = 4.0;

/// Rolling resistance of the bones' contacts (`ContactMaterial::rolling`): a bone rolls on
/// a slope steeper than about 6° (`tan θ > 0.1`) and comes to rest on a flatter one instead
/// of rolling about its long axis forever.
pub(crate) const ROLLING_RESISTANCE: f32 = 0.1;

/// Most sweeps of the contacts' position and velocity passes per iteration (each stops early
/// once converged: `Contacts::position_tolerance`, `velocity_tolerance`).
const CONTACT_POSITION_SWEEPS: u32 = 1;
const CONTACT_VELOCITY_SWEEPS: u32 = 8;

/// Something a ragdoll's step had to repair.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u32)]
pub enum RagdollRecovery {
    /// A step produced a non-finite state, or a position or speed beyond ±1e7 (m, m/s): it
    /// was rolled back and the ragdoll stopped.
    StepNotFinite = 1,
}

/// A ragdoll in a world.
pub struct Ragdoll {
    desc: RagdollDesc,
    pub(crate) core: Core,
    pub(crate) scratch: Scratch,
    /// Body frames at the start of the last fixed step.
    step_start: Vec<Frame>,
    /// Substep length of the last step (s), for the momentum readback.
    last_h: f32,
    asleep: bool,
    /// Time every bone has been slow (s).
    still: f32,
    /// Fast pipeline: where each bone's centre of mass and two points at its bounding radius
    /// (on its body frame's X and Y axes) were when a bone last left its sleep spheres.
    sleep_ref: Vec<[Vec3; 3]>,
    /// Gravity when it fell asleep (waking when it changes).
    sleep_gravity: Vec3,
    pending_recovery: Option<RagdollRecovery>,
    /// Bone poses where physics let go (`getup`).
    snapshot: Vec<Pose>,
    /// Per bone, the pose `set_pose` was last given (as given) and the body frame it put the
    /// bone at: readback returns that pose bit for bit while the bone's last two fixed-step
    /// frames are still that frame (a recording replays exactly; the frame-to-bone conversion
    /// would otherwise round the pose by a few ULP). Not part of the saved state: it is keyed
    /// on the frame, so it is never wrong, only absent.
    posed: Vec<Option<(Frame, Pose)>>,
    /// Time every bone has been slower than `rest_speed` (s).
    rest_time: f32,
    /// Unread event bits (`drive::BALANCE_LOST`).
    events: u32,
    /// Wall time of the ragdoll's share of the last host frame that ran fixed steps (ns); see
    /// [`Ragdoll::step_time_ns`].
    pub(crate) step_ns: u64,
    /// The moving platform the ragdoll rides in (`anchor`).
    anchor: Option<crate::step::Anchor>,
}

/// A host pose for a bone: finite, in the world, a unit rotation (renormalised), scale 1.
fn check_bone_pose(p: &Pose, bone: usize, what: &str) -> Result<Pose> {
    if !is_finite3(p.position) || !p.rotation.is_finite() || !p.scale.is_finite() {
        return Err(Error::non_finite(format!("{what} of bone {bone} is not finite")));
    }
    check_position_with(p.position, || format!("{what} of bone {bone}"))?;
    if !crate::error::is_unit(p.rotation.length()) {
        return Err(Error::invalid(format!("{what} of bone {bone}: rotation is not a unit quaternion (length {})", p.rotation.length())));
    }
    if !crate::error::is_unit(p.scale) {
        return Err(Error::invalid(format!("{what} of bone {bone}: scale must be 1 (got {}): bones are rigid", p.scale)));
    }
    Ok(Pose { rotation: p.rotation.normalize(), position: p.position, scale: 1.0 })
}

fn check_vector(v: Vec3, name: &str, max: f32) -> Result<Vec3> {
    if !is_finite3(v) {
        return Err(Error::non_finite(format!("{name} is not finite ({v})")));
    }
    if v.abs().max_element() > max {
        return Err(Error::invalid(format!("{name} ({v}) must be within ±{max} on each axis")));
    }
    Ok(v)
}

/// Largest impulse (N·s) a call accepts, per component (and for an explosion's magnitude):
/// 100 kg at 10 km/s.
pub const MAX_IMPULSE: f32 = 1e6;
/// Largest force component (N) `add_force` accepts.
pub const MAX_FORCE: f32 = 1e7;

impl Ragdoll {
    /// Builds a ragdoll in its bind pose, at rest.
    pub fn new(desc: &RagdollDesc) -> Result<Ragdoll> {
        desc.validate()?;
        let n = desc.bones.len();
        let s = desc.settings;
        let mut body_in_bone = Vec::with_capacity(n);
        let mut bodies = Vec::with_capacity(n);
        let mut masses = Vec::with_capacity(n);
        let mut inertias: Vec<Vec3> = Vec::with_capacity(n);
        let mut size = Vec::with_capacity(n);
        for (i, b) in desc.bones.iter().enumerate() {
            let local = Pose { rotation: b.shape_rotation.normalize(), position: b.shape_offset, scale: 1.0 };
            let (mut m, mut inertia) = mass_properties(&b.shape, b.mass, b.density);
            if !(m > 0.0 && m.is_finite()) {
                return Err(Error::invalid(format!("bone {i}: mass {m} kg from its density and shape is not positive")));
            }
            if s.stabilize && b.parent >= 0 {
                let mp: f32 = masses[b.parent as usize];
                let clamped = m.clamp(mp / s.max_mass_ratio, mp * s.max_mass_ratio);
                inertia *= clamped / m;
                m = clamped;
            }
            if s.stabilize {
                inertia = inertia.max(Vec3::splat(inertia.max_element() / s.max_mass_ratio));
            }
            let bind = Pose { rotation: b.bind.rotation.normalize(), position: b.bind.position, scale: 1.0 };
            let x = bind.to_world(local.position);
            let q = (bind.rotation * local.rotation).normalize();
            bodies.push(RigidBody::new(x, q, m, inertia));
            masses.push(m);
            inertias.push(inertia);
            body_in_bone.push(local);
            size.push(b.shape.bounding_radius().max(1e-3));
        }
        let mut joints = Vec::with_capacity(n);
        for (i, b) in desc.bones.iter().enumerate() {
            let j = &b.joint;
            let axis = j.axis.normalize();
            let swing = (j.swing_axis - axis * j.swing_axis.dot(axis)).normalize();
            let frame_bone = Quat::from_mat3(&Mat3::from_cols(axis, swing, axis.cross(swing))).normalize();
            let local = body_in_bone[i];
            let frame_child = (local.rotation.inverse() * frame_bone).normalize();
            let anchor_child = local.rotation.inverse() * (j.anchor - local.position);
            let (parent, frame_parent, anchor_parent) = if b.parent >= 0 {
                let p = b.parent as usize;
                let (bc, bp) = (&bodies[i], &bodies[p]);
                let world_frame = bc.q * frame_child;
                let world_anchor = bc.x + bc.q * anchor_child;
                (p as u32, (bp.q.inverse() * world_frame).normalize(), bp.q.inverse() * (world_anchor - bp.x))
            } else {
                (0, Quat::IDENTITY, Vec3::ZERO)
            };
            // Unity's signs: an angle θ is a turn by −θ about the axis (see `desc`).
            let r = |deg: f32| deg.to_radians();
            let limits = match j.kind {
                JointKind::Free => JointLimits::Free,
                _ if b.parent < 0 => JointLimits::Free,
                JointKind::Fixed => JointLimits::Fixed,
                JointKind::Hinge { min, max } => JointLimits::Hinge { min: -r(max), max: -r(min) },
                JointKind::SwingTwist { swing1, swing2, low_twist, high_twist } => {
                    JointLimits::SwingTwist { swing1: r(swing1), swing2: r(swing2), low_twist: -r(high_twist), high_twist: -r(low_twist) }
                }
            };
            joints.push(Joint {
                parent,
                child: i as u32,
                limits,
                anchor_child,
                anchor_parent,
                frame_child,
                frame_parent,
                limit_compliance: if j.limit_spring > 0.0 { 1.0 / j.limit_spring } else { 0.0 },
                limit_damper: j.limit_damper,
                friction: j.friction,
                limit_test: [0.0; 5],
            }
            .with_limit_test());
        }
        let binds: Vec<Pose> = desc.bones.iter().map(|b| Pose { rotation: b.bind.rotation.normalize(), position: b.bind.position, scale: 1.0 }).collect();
        let frames: Vec<Frame> = bodies.iter().map(Frame::of).collect();
        let mut core = Core {
            settings: s,
            joints,
            body_in_bone,
            inv_mass: bodies.iter().map(|b| b.inv_mass).collect(),
            inv_inertia: bodies.iter().map(|b| b.inv_inertia).collect(),
            size,
            kinematic: vec![false; n],
            path_from: frames.clone(),
            path_to: frames.clone(),
            target_from: binds.clone(),
            target_to: binds.clone(),
            forces: vec![(Vec3::ZERO, Vec3::ZERO); n],
            pairs: vec![0; (n * n).div_ceil(64)],
            parent: desc.bones.iter().map(|b| b.parent).collect(),
            muscle: vec![0.0; n],
            pin: vec![0.0; n],
            hit_loss: vec![0.0; n],
            drive_from: binds.clone(),
            drive_to: binds.clone(),
            driven: false,
            direct_joints: false,
        };
        if s.self_collision {
            for a in 0..n {
                for b in a + 1..n {
                    let adjacent = desc.bones[b].parent == a as i32;
                    core.set_pair(a, b, !adjacent || s.collide_parent_child);
                }
            }
        }
        let shapes = desc
            .bones
            .iter()
            .map(|b| BodyShape { shape: b.shape, local: Pose { rotation: Quat::IDENTITY, position: Vec3::ZERO, scale: 1.0 } })
            .collect();
        let scratch = Scratch { bodies, shapes, lambdas: vec![[0.0; 4]; n], owner: (0..n as u32).map(|i| (0, i)).collect(),
            contacts: Contacts::default(),
            tree: TreeWork::with_bones(n),
            drive: vec![[Vec3::ZERO; 4]; n],
            limits: vec![[Vec3::ZERO; 2]; n],
            material: ContactMaterial::default(),
            mask: 0,
        };
        let mut r = Ragdoll {
            desc: desc.clone(),
            core,
            scratch,
            step_start: frames,
            last_h: 0.0,
            asleep: false,
            still: 0.0,
            sleep_ref: vec![[Vec3::ZERO; 3]; n],
            sleep_gravity: Vec3::ZERO,
            pending_recovery: None,
            snapshot: binds,
            posed: vec![None; n],
            rest_time: 0.0,
            events: 0,
            step_ns: 0,
            anchor: None,
        };
        // The fast pipeline's joint pass: Gauss–Seidel converges slowly along a chain of
        // unequal masses, so a ragdoll with a larger ratio between a bone and its parent
        // than `DIRECT_SOLVE_MASS_RATIO` (after stabilisation) is solved directly.
        let ratio = (1..n)
            .filter(|&i| r.core.parent[i] >= 0)
            .map(|i| {
                let (a, b) = (r.core.inv_mass[i], r.core.inv_mass[r.core.parent[i] as usize]);
                if a > 0.0 && b > 0.0 { (a / b).max(b / a) } else { 1.0 }
            })
            .fold(1.0f32, f32::max);
        r.core.direct_joints = ratio > DIRECT_SOLVE_MASS_RATIO;
        if s.kinematic {
            r.set_kinematic(true);
        }
        Ok(r)
    }

    pub fn bone_count(&self) -> usize {
        self.desc.bones.len()
    }

    /// The description it was built from (after the world's adjustments: stabilised masses
    /// are not written back here).
    pub fn desc(&self) -> &RagdollDesc {
        &self.desc
    }

    fn check_bone(&self, bone: usize) -> Result<()> {
        if bone >= self.bone_count() {
            return Err(Error::out_of_range(format!("bone {bone} is out of range (the ragdoll has {} bones)", self.bone_count())));
        }
        Ok(())
    }

    fn check_len(&self, len: usize, what: &str) -> Result<()> {
        if len < self.bone_count() {
            let kind = if what.contains("buffer") { ErrorKind::BufferTooSmall } else { ErrorKind::InvalidArgument };
            return Err(Error::new(kind, format!("{what} holds {len} entries; the ragdoll has {} bones", self.bone_count())));
        }
        Ok(())
    }

    /// The current bone pose of `bone` (bone frame).
    fn bone_of(&self, bone: usize, f: &Frame) -> Pose {
        let local = &self.core.body_in_bone[bone];
        let rotation = (f.q * local.rotation.inverse()).normalize();
        Pose { rotation, position: f.x - rotation * local.position, scale: 1.0 }
    }

    /// The body frame of `bone` at bone pose `p`.
    fn body_at(&self, bone: usize, p: &Pose) -> Frame {
        let local = &self.core.body_in_bone[bone];
        Frame { x: p.to_world(local.position), q: (p.rotation * local.rotation).normalize() }
    }

    /// Mass (kg) of `bone` as simulated (after stabilisation), whether or not it is kinematic.
    pub fn bone_mass(&self, bone: usize) -> Result<f32> {
        self.check_bone(bone)?;
        Ok(1.0 / self.core.inv_mass[bone])
    }

    /// Principal moments of inertia (kg·m²) of `bone` in its shape's frame, as simulated.
    pub fn bone_inertia(&self, bone: usize) -> Result<Vec3> {
        self.check_bone(bone)?;
        Ok(Vec3::ONE / self.core.inv_inertia[bone])
    }

    /// Centre of mass (world) of `bone` now.
    pub fn bone_center_of_mass(&self, bone: usize) -> Result<Vec3> {
        self.check_bone(bone)?;
        Ok(self.scratch.bodies[bone].x)
    }

    /// How far bone `bone`'s joint to its parent is from satisfied now: anchor separation (m)
    /// and the angle (rad) by which it leaves its limits (0 for a root).
    pub fn joint_error(&self, bone: usize) -> Result<JointError> {
        self.check_bone(bone)?;
        Ok(self.core.joints[bone].error(&self.scratch.bodies))
    }

    /// The joint's angles now (rad, Unity's signs): the twist (a hinge's angle) and the swing
    /// rotation's components about swing-1 and swing-2.
    pub fn joint_angles(&self, bone: usize) -> Result<(f32, f32, f32)> {
        self.check_bone(bone)?;
        let a = self.core.joints[bone].angles(&self.scratch.bodies);
        Ok((-a.twist, a.swing1, a.swing2))
    }

    /// Makes every bone kinematic (animated) or dynamic (physics).
    /// Turning kinematic takes the get-up snapshot first (`getup`): the bones where physics
    /// lets go of them.
    pub fn set_kinematic(&mut self, kinematic: bool) {
        if kinematic && self.core.kinematic.iter().any(|k| !k) {
            self.capture_snapshot();
        }
        for i in 0..self.bone_count() {
            self.switch(i, kinematic);
        }
    }

    fn switch(&mut self, i: usize, kinematic: bool) {
        if self.core.kinematic[i] == kinematic {
            return;
        }
        self.wake();
        self.core.kinematic[i] = kinematic;
        let b = &mut self.scratch.bodies[i];
        if kinematic {
            b.inv_mass = 0.0;
            b.inv_inertia = Vec3::ZERO;
            // Held where it is until the host gives targets.
            let here = Frame::of(b);
            self.core.path_from[i] = here;
            self.core.path_to[i] = here;
            let pose = self.bone_of(i, &here);
            self.core.target_from[i] = pose;
            self.core.target_to[i] = pose;
        } else {
            b.inv_mass = self.core.inv_mass[i];
            b.inv_inertia = self.core.inv_inertia[i];
        }
    }

    /// Makes one bone kinematic or dynamic (a partial ragdoll).
    pub fn set_bone_kinematic(&mut self, bone: usize, kinematic: bool) -> Result<()> {
        self.check_bone(bone)?;
        self.switch(bone, kinematic);
        Ok(())
    }

    pub fn is_bone_kinematic(&self, bone: usize) -> Result<bool> {
        self.check_bone(bone)?;
        Ok(self.core.kinematic[bone])
    }

    /// Where the host's animation puts every bone at the end of this host frame (bone world
    /// transforms, scale 1); kinematic bones move there across the frame's substeps and their
    /// velocity is tracked, dynamic bones ignore it. `poses.len()` must be the bone count.
    pub fn set_targets(&mut self, poses: &[Pose]) -> Result<()> {
        if poses.len() != self.bone_count() {
            return Err(Error::invalid(format!("set_targets needs {} poses (one per bone), got {}", self.bone_count(), poses.len())));
        }
        for (i, p) in poses.iter().enumerate() {
            check_bone_pose(p, i, "target")?;
        }
        for (i, p) in poses.iter().enumerate() {
            self.set_target(i, check_bone_pose(p, i, "target")?);
        }
        Ok(())
    }

    fn set_target(&mut self, i: usize, p: Pose) {
        if (self.core.kinematic[i] || self.core.driven) && self.core.target_to[i] != p {
            self.wake();
        }
        self.core.target_to[i] = p;
    }

    pub fn set_bone_target(&mut self, bone: usize, pose: Pose) -> Result<()> {
        self.check_bone(bone)?;
        let p = check_bone_pose(&pose, bone, "target")?;
        self.set_target(bone, p);
        Ok(())
    }

    /// Teleports every bone to `poses` (bone world transforms); velocities are kept or zeroed.
    /// Kinematic bones are held there (their targets become these poses). Until a bone moves,
    /// [`Ragdoll::read_pose`] returns its pose exactly as given here (the rotation not
    /// renormalised), at any `alpha`.
    pub fn set_pose(&mut self, poses: &[Pose], keep_velocity: bool) -> Result<()> {
        if poses.len() != self.bone_count() {
            return Err(Error::invalid(format!("set_pose needs {} poses (one per bone), got {}", self.bone_count(), poses.len())));
        }
        for (i, p) in poses.iter().enumerate() {
            check_bone_pose(p, i, "pose")?;
        }
        self.wake();
        for (i, p) in poses.iter().enumerate() {
            let p = check_bone_pose(p, i, "pose")?;
            let f = self.body_at(i, &p);
            let b = &mut self.scratch.bodies[i];
            (b.x, b.q, b.prev_x, b.prev_q) = (f.x, f.q, f.x, f.q);
            if !keep_velocity {
                b.v = Vec3::ZERO;
                b.w = Vec3::ZERO;
            }
            self.step_start[i] = f;
            self.core.path_from[i] = f;
            self.core.path_to[i] = f;
            self.core.target_from[i] = p;
            self.core.target_to[i] = p;
            self.posed[i] = Some((f, Pose { scale: 1.0, ..poses[i] }));
        }
        Ok(())
    }

    /// Applies `impulse` (N·s) at world `point` to the bone whose shape's surface is nearest to
    /// it; returns that bone.
    pub fn apply_impulse(&mut self, point: Vec3, impulse: Vec3) -> Result<usize> {
        check_position(point, "impulse point")?;
        check_vector(impulse, "impulse", MAX_IMPULSE)?;
        let bone = (0..self.bone_count())
            .map(|i| (i, self.surface_distance(i, point)))
            .fold((0, f32::INFINITY), |best, c| if c.1 < best.1 { c } else { best })
            .0;
        self.apply_bone_impulse(bone, point, impulse)?;
        Ok(bone)
    }

    /// Signed distance from `point` to bone `i`'s shape surface now.
    fn surface_distance(&self, i: usize, point: Vec3) -> f32 {
        let b = &self.scratch.bodies[i];
        self.desc.bones[i].shape.distance(b.q.inverse() * (point - b.x)).0
    }

    /// Applies `impulse` (N·s) at world `point` to `bone`. A kinematic bone follows its
    /// animation: an impulse on it is refused (make it dynamic first).
    pub fn apply_bone_impulse(&mut self, bone: usize, point: Vec3, impulse: Vec3) -> Result<()> {
        self.check_bone(bone)?;
        check_position(point, "impulse point")?;
        check_vector(impulse, "impulse", MAX_IMPULSE)?;
        if self.core.kinematic[bone] {
            return Err(Error::invalid(format!("bone {bone} is kinematic: an impulse cannot move it (make it dynamic first)")));
        }
        self.wake();
        let b = &mut self.scratch.bodies[bone];
        b.v += impulse * b.inv_mass;
        b.w += b.inv_inertia_world((point - b.x).cross(impulse));
        self.hit(bone, impulse.length());
        Ok(())
    }

    /// A radial impulse from `centre`: each bone within `radius` gets `impulse·(1 − d/radius)`
    /// (N·s) away from the centre at its centre of mass (d: distance to its surface, 0 inside
    /// it). Kinematic bones are skipped (they follow their animation).
    pub fn apply_explosion(&mut self, centre: Vec3, impulse: f32, radius: f32) -> Result<()> {
        check_position(centre, "explosion centre")?;
        check_finite(impulse, "explosion impulse")?;
        if impulse.abs() > MAX_IMPULSE {
            return Err(Error::invalid(format!("explosion impulse must be within ±{MAX_IMPULSE} N·s (got {impulse})")));
        }
        check_finite(radius, "explosion radius")?;
        if !(radius > 0.0 && radius <= crate::error::MAX_LENGTH) {
            return Err(Error::invalid(format!("explosion radius must be within (0, {}] m (got {radius})", crate::error::MAX_LENGTH)));
        }
        let mut woke = false;
        for i in 0..self.bone_count() {
            if self.core.kinematic[i] {
                continue;
            }
            let d = self.surface_distance(i, centre).max(0.0);
            if d >= radius {
                continue;
            }
            let b = &mut self.scratch.bodies[i];
            let away = b.x - centre;
            let dir = if away.length() > 1e-6 { away.normalize() } else { Vec3::Y };
            let j = impulse * (1.0 - d / radius);
            b.v += dir * (j * b.inv_mass);
            woke = true;
            self.hit(i, j.abs());
        }
        if woke {
            self.wake();
        }
        Ok(())
    }

    /// A force (N) at world `point` on `bone`, applied over the fixed steps of the next host
    /// frame (then cleared). Forces add up.
    pub fn add_force(&mut self, bone: usize, point: Vec3, force: Vec3) -> Result<()> {
        self.check_bone(bone)?;
        check_position(point, "force point")?;
        check_vector(force, "force", MAX_FORCE)?;
        self.wake();
        let x = self.scratch.bodies[bone].x;
        let f = &mut self.core.forces[bone];
        f.0 += force;
        f.1 += (point - x).cross(force);
        Ok(())
    }

    /// Body frame of bone `i` at `alpha` between the last two fixed steps.
    fn frame_at(&self, i: usize, alpha: f32) -> Frame {
        self.step_start[i].lerp(&Frame::of(&self.scratch.bodies[i]), alpha)
    }

    /// Bone pose of bone `i` at `alpha`: the pose `set_pose` was given while both of the last
    /// two fixed-step frames are still the frame it set (any interpolation between them is
    /// that frame), else the interpolated frame's bone pose.
    fn pose_at(&self, i: usize, alpha: f32) -> Pose {
        match self.posed[i] {
            Some((f, p)) if self.step_start[i] == f && Frame::of(&self.scratch.bodies[i]) == f => p,
            _ => self.bone_of(i, &self.frame_at(i, alpha)),
        }
    }

    /// Bone world positions and rotations, interpolated by `alpha` between the last two
    /// fixed steps (a bone not moved since `set_pose`: that pose, bit for bit). Each buffer
    /// must hold `bone_count` entries.
    pub fn read_pose(&self, alpha: f32, positions: &mut [Vec3], rotations: &mut [Quat]) -> Result<()> {
        check_non_negative(alpha, "alpha")?;
        self.check_len(positions.len(), "positions buffer")?;
        self.check_len(rotations.len(), "rotations buffer")?;
        for i in 0..self.bone_count() {
            let p = self.pose_at(i, alpha);
            positions[i] = p.position;
            rotations[i] = p.rotation;
        }
        Ok(())
    }

    /// Bone world transforms as column-major matrices (Unity's `Matrix4x4` layout).
    pub fn read_matrices(&self, alpha: f32, out: &mut [Mat4]) -> Result<()> {
        check_non_negative(alpha, "alpha")?;
        self.check_len(out.len(), "matrices buffer")?;
        for (i, o) in out.iter_mut().enumerate().take(self.bone_count()) {
            let p = self.pose_at(i, alpha);
            *o = Mat4::from_rotation_translation(p.rotation, p.position);
        }
        Ok(())
    }

    /// Linear (m/s, of the bone's origin) and angular (rad/s) velocities at the end of the
    /// last fixed step (the angular one from the bone's angular momentum, see
    /// `solver::rigid::integrate`).
    pub fn read_velocities(&self, linear: &mut [Vec3], angular: &mut [Vec3]) -> Result<()> {
        self.check_len(linear.len(), "linear velocity buffer")?;
        self.check_len(angular.len(), "angular velocity buffer")?;
        for i in 0..self.bone_count() {
            let b = &self.scratch.bodies[i];
            let w = if self.core.kinematic[i] { b.w } else { end_angular_velocity(b, self.last_h) };
            let origin = self.bone_of(i, &Frame::of(b)).position;
            linear[i] = b.v + w.cross(origin - b.x);
            angular[i] = w;
        }
        Ok(())
    }

    /// The contacts of the last substep (diagnostics).
    #[doc(hidden)]
    pub fn last_contacts(&self) -> &[crate::solver::rigid::contact::Contact] {
        self.scratch.contacts.contacts()
    }

    /// Wall time (ns) of the ragdoll's solve in the last host frame that ran fixed steps:
    /// ragdolls that touch are solved together as an island, whose time they share by bone
    /// count. 0 for a ragdoll asleep or created since. A measurement for profiling, never an
    /// input to the simulation.
    pub fn step_time_ns(&self) -> u64 {
        self.step_ns
    }

    /// Adds the ragdoll's share of `elapsed`, the time of an island of `total` bones.
    pub(crate) fn charge_time(&mut self, elapsed: std::time::Duration, total: usize) {
        let share = if total == 0 { 0 } else { elapsed.as_nanos() * self.bone_count() as u128 / total as u128 };
        self.step_ns = self.step_ns.saturating_add(u64::try_from(share).unwrap_or(u64::MAX));
    }

    pub fn is_asleep(&self) -> bool {
        self.asleep
    }

    pub fn wake(&mut self) {
        self.asleep = false;
        self.still = 0.0;
    }

    /// Makes the next step overflow inside itself, as an extreme input would: a dynamic
    /// bone's inverse mass becomes infinite, so its first joint or contact correction is
    /// `0 · ∞ = NaN` mid-substep (tests of NaN containment, `tests/nan_containment.rs`).
    #[cfg(feature = "debug-panic")]
    pub fn poison_in_step_for_tests(&mut self) {
        if let Some(b) = self.scratch.bodies.iter_mut().find(|b| b.inv_mass > 0.0) {
            b.inv_mass = f32::INFINITY;
        }
        self.wake();
    }

    /// Wakes a sleeper that an awake ragdoll may touch, keeping the time it has been still:
    /// if it stays still it falls asleep again at the end of the step (world islands).
    pub(crate) fn wake_by_contact(&mut self) {
        self.asleep = false;
    }

    /// Bone `bone`'s world transform at fraction `t` of the last fixed step (0: its start, 1:
    /// its end; position lerp, rotation slerp): the motion a particle body outside the
    /// ragdoll's company sees (the world's `attach`), and readback's. An out-of-range bone
    /// gives the root's.
    pub fn bone_pose_in_step(&self, bone: usize, t: f32) -> Pose {
        let i = if bone < self.bone_count() { bone } else { 0 };
        self.bone_of(i, &self.frame_at(i, t))
    }

    /// A point given in `bone`'s bone frame, in its body frame (the frame the solver moves).
    pub(crate) fn offset_in_body(&self, bone: usize, offset: Vec3) -> Vec3 {
        let local = &self.core.body_in_bone[bone];
        local.rotation.inverse() * (offset - local.position)
    }

    /// Every bone's collision shape with its world pose (the shape's, offset included) at the
    /// start and end of the last fixed step.
    pub fn bone_shapes_in_step(&self) -> impl Iterator<Item = (crate::geometry::Shape, Pose, Pose)> + '_ {
        let pose = |f: Frame| Pose { rotation: f.q, position: f.x, scale: 1.0 };
        (0..self.bone_count()).map(move |i| (self.desc.bones[i].shape, pose(self.step_start[i]), pose(Frame::of(&self.scratch.bodies[i]))))
    }

    /// Solves the joints by the direct tree solve (exact at any mass ratio) instead of the
    /// Gauss–Seidel pass. Chosen at creation: on when a bone's mass differs from its parent's
    /// by more than [`DIRECT_SOLVE_MASS_RATIO`].
    pub fn set_direct_joint_solve(&mut self, on: bool) {
        self.core.direct_joints = on;
        self.wake();
    }

    /// Turns collision between two bones of this ragdoll on or off.
    pub fn set_bone_pair_collision(&mut self, a: usize, b: usize, enabled: bool) -> Result<()> {
        self.check_bone(a)?;
        self.check_bone(b)?;
        if a == b {
            return Err(Error::invalid(format!("a bone does not collide with itself (both bones are {a})")));
        }
        self.core.set_pair(a, b, enabled);
        self.wake();
        Ok(())
    }

    /// Whether the joints are solved directly ([`Ragdoll::set_direct_joint_solve`]).
    pub fn direct_joint_solve(&self) -> bool {
        self.core.direct_joints
    }

    /// Whether two bones collide.
    pub fn bone_pair_collision(&self, a: usize, b: usize) -> Result<bool> {
        self.check_bone(a)?;
        self.check_bone(b)?;
        Ok(a != b && self.core.collides(a, b))
    }

    /// The recovery of the last step, once.
    pub fn take_recovery(&mut self) -> Option<RagdollRecovery> {
        self.pending_recovery.take()
    }
}

/// The world's side: a host frame's start and end, a fixed step's, sleep, bounds.
impl Ragdoll {
    /// Start of a host frame that runs fixed steps: kinematic bones get their path, from
    /// where they are to their target carried on to `pose_t1` of the frame.
    pub(crate) fn begin_frame(&mut self, pose_t0: f32, pose_t1: f32) {
        if self.core.driven {
            for i in 0..self.bone_count() {
                let (from, to) = (self.core.target_from[i], self.core.target_to[i]);
                self.core.drive_from[i] = from.extrapolate(&to, pose_t0);
                self.core.drive_to[i] = from.extrapolate(&to, pose_t1);
            }
        }
        for i in 0..self.bone_count() {
            if !self.core.kinematic[i] {
                continue;
            }
            let target = self.core.target_from[i].extrapolate(&self.core.target_to[i], pose_t1);
            self.core.path_from[i] = Frame::of(&self.scratch.bodies[i]);
            self.core.path_to[i] = self.body_at(i, &target);
        }
    }

    /// End of a host frame that ran fixed steps: forces are spent, targets become the last.
    pub(crate) fn finish_frame(&mut self) {
        self.core.forces.iter_mut().for_each(|f| *f = (Vec3::ZERO, Vec3::ZERO));
        self.core.target_from.copy_from_slice(&self.core.target_to);
    }

    /// Before a fixed step (alone or in an island): remember where it starts.
    pub(crate) fn begin_step(&mut self, p: &StepParams) {
        for (s, b) in self.step_start.iter_mut().zip(&self.scratch.bodies) {
            *s = Frame::of(b);
        }
        self.last_h = p.h;
    }

    /// After a fixed step: roll back a non-finite or overflowed state; count time at rest and sleep.
    pub(crate) fn end_step(&mut self, p: &StepParams) {
        // A NaN, or a position, speed or spin beyond MAX_STEP_VALUE: the step overflowed.
        let bound = MAX_STEP_VALUE;
        let finite = self.scratch.bodies.iter().all(|b| within(b.x, bound) && b.q.is_finite() && within(b.v, bound) && within(b.w, bound));
        if !finite {
            for (i, (b, s)) in self.scratch.bodies.iter_mut().zip(&self.step_start).enumerate() {
                (b.x, b.q, b.prev_x, b.prev_q) = (s.x, s.q, s.x, s.q);
                b.v = Vec3::ZERO;
                b.w = Vec3::ZERO;
                // The mass properties as the bone's mode has them, in case they overflowed too.
                let dynamic = !self.core.kinematic[i];
                b.inv_mass = if dynamic { self.core.inv_mass[i] } else { 0.0 };
                b.inv_inertia = if dynamic { self.core.inv_inertia[i] } else { Vec3::ZERO };
            }
            self.pending_recovery = Some(RagdollRecovery::StepNotFinite);
            self.still = 0.0;
            return;
        }
        let dt = p.h * p.substeps as f32;
        self.end_step_drive(p, dt);
        let slower = |thr: f32| self.scratch.bodies.iter().zip(&self.core.size).all(|(b, &size)| b.v.length() < thr && b.w.length() * size < thr);
        self.rest_time = if slower(self.core.settings.rest_speed) { self.rest_time + dt } else { 0.0 };
        let thr = self.core.settings.sleep_threshold;
        let slow = slower(thr);
        // Fast pipeline, either test: slow, or trembling in place within the threshold's travel.
        let slow = match p.rigid_solver {
            RigidSolver::Precise => slow,
            RigidSolver::Fast => self.within_sleep_spheres(thr * self.core.settings.sleep_time) || slow,
        };
        let moving_target = (0..self.bone_count()).any(|i| self.core.kinematic[i] && self.core.path_from[i] != self.core.path_to[i])
            || (self.core.driven && self.core.drive_from != self.core.drive_to);
        if slow && !moving_target && self.core.forces.iter().all(|f| f.0 == Vec3::ZERO && f.1 == Vec3::ZERO) {
            self.still += p.h * p.substeps as f32;
            // The fast pipeline puts touching ragdolls to sleep together (`World`'s islands).
            if p.rigid_solver == RigidSolver::Precise && self.ready_to_sleep() {
                self.fall_asleep(p.gravity);
            }
        } else {
            self.still = 0.0;
        }
    }

    /// The fast pipeline's test of rest (Jolt's sleep test spheres): whether every bone's
    /// centre of mass and two points at its bounding radius (any turn moves one of them) are
    /// still within `radius` (m; `sleep_threshold × sleep_time`) of where they were when the
    /// window began; if not, the window begins anew here. A bone trembling in place by less
    /// than that rests; one creeping at the threshold speed leaves its spheres within
    /// `sleep_time`. (Instantaneous speeds never settled in a pile of five: bones trembled
    /// at 1–5 cm/s about fixed places.)
    fn within_sleep_spheres(&mut self, radius: f32) -> bool {
        let desc = &self.desc;
        let points = |i: usize, b: &RigidBody| {
            let reach = desc.bones[i].shape.bounding_radius();
            [b.x, b.x + b.q * Vec3::X * reach, b.x + b.q * Vec3::Y * reach]
        };
        let inside = self.scratch.bodies.iter().enumerate().all(|(i, b)| {
            let (now, was) = (points(i, b), &self.sleep_ref[i]);
            (0..3).all(|k| (now[k] - was[k]).length() <= radius)
        });
        if !inside {
            for (i, b) in self.scratch.bodies.iter().enumerate() {
                self.sleep_ref[i] = points(i, b);
            }
        }
        inside
    }

    /// Whether every bone has been slow for `sleep_time`.
    pub(crate) fn ready_to_sleep(&self) -> bool {
        self.still >= self.core.settings.sleep_time
    }

    /// Stops the ragdoll: velocities zeroed, state kept bit for bit until something wakes it.
    pub(crate) fn fall_asleep(&mut self, gravity: Vec3) {
        self.asleep = true;
        self.sleep_gravity = gravity;
        for b in &mut self.scratch.bodies {
            b.v = Vec3::ZERO;
            b.w = Vec3::ZERO;
        }
        // Readback shows the resting state, not a last interpolation.
        for (s, b) in self.step_start.iter_mut().zip(&self.scratch.bodies) {
            *s = Frame::of(b);
        }
    }

    /// Wakes a sleeping ragdoll whose gravity changed.
    pub(crate) fn wake_if_driven(&mut self, gravity: Vec3) {
        if self.asleep && gravity != self.sleep_gravity {
            self.wake();
        }
    }

    /// World bounds of the bones over the next fixed step of `step` s (swept by their speed).
    pub(crate) fn swept_bounds(&self, step: f32) -> (Vec3, Vec3) {
        self.swept_bone_bounds(step).fold((Vec3::splat(f32::INFINITY), Vec3::splat(f32::NEG_INFINITY)), |(lo, hi), (l, h)| (lo.min(l), hi.max(h)))
    }

    /// Each bone's world bounds over the next fixed step of `step` s: the box around its
    /// shape as it is now, grown by its speed (the turn at its bounding radius) over the step
    /// and 1 cm; a kinematic bone's bounding sphere along its path.
    pub(crate) fn swept_bone_bounds(&self, step: f32) -> impl Iterator<Item = (Vec3, Vec3)> + '_ {
        self.scratch.bodies.iter().enumerate().map(move |(i, b)| {
            let shape = &self.desc.bones[i].shape;
            let r = shape.bounding_radius();
            let sweep = Vec3::splat((b.v.length() + b.w.length() * r) * step + 0.01);
            if self.core.kinematic[i] {
                let end = self.core.path_to[i].x;
                let reach = Vec3::splat(r) + sweep;
                return (b.x.min(end) - reach, b.x.max(end) + reach);
            }
            let half = match *shape {
                crate::geometry::Shape::Capsule { half_height, radius0, radius1 } => (b.q * Vec3::Y).abs() * half_height + Vec3::splat(radius0.max(radius1)),
                crate::geometry::Shape::Box { half_extents: e } => (b.q * Vec3::X).abs() * e.x + (b.q * Vec3::Y).abs() * e.y + (b.q * Vec3::Z).abs() * e.z,
                _ => Vec3::splat(r),
            };
            (b.x - half - sweep, b.x + half + sweep)
        })
    }

    pub(crate) fn bodies(&self) -> &[RigidBody] {
        &self.scratch.bodies
    }

    pub(crate) fn bodies_mut(&mut self) -> &mut [RigidBody] {
        &mut self.scratch.bodies
    }

    pub(crate) fn shapes(&self) -> &[BodyShape] {
        &self.scratch.shapes
    }
}
