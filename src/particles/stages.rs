//! The stages of a particle body's fixed step — written once, here — and the constraint
//! groups.
//!
//! A fixed step of `h·substeps` seconds (Macklin et al. 2019, "Small Steps in Physics
//! Simulation", Algorithm 1; XPBD, Macklin et al. 2016):
//!
//! ```text
//! BeginStep                      remember the state; broad phase (colliders, self and pair
//!                                candidates) and wind forces, once per step; choose the plan;
//!                                far from the origin, enter a local frame (`layout::frame`)
//! per substep s, in SUBSTEP order:
//!   Predict                      v ← v·(1 − c·h) + h·(g + a), x_prev ← x, x ← x + h·v;
//!                                pinned particles on their path
//!   Constraints                  every group of GROUPS, in order: distance batches
//!                                `iterations` times, tethers, motion limits
//!   PairContacts                 particles and triangles of paired bodies (the world's)
//!   SelfContacts                 the body's own particles and triangles
//!   Colliders                    shapes swept over the substep, with friction
//!   Velocities                   v ← (x − x_prev)/h, kept as vᵢ + (x − (x_prev + h·vᵢ))/h
//!                                for free particles, plus a chain's carry; the speed limit
//! EndStep                        state back in `Vec3` arrays and world coordinates; roll
//!                                back (and report) a non-finite step;
//!                                tear what is strained past the threshold; measure whether
//!                                the body has come to rest (`sleep.rs`)
//! ```
//!
//! [`step`] (and [`step_after_begin`], its substeps) is the one driver, and holds the one
//! substep loop: a body alone, a group of bodies in contact (the world's pairs, stepped in
//! lockstep stage by stage), identical grids side by side in SIMD lanes (`lanes.rs`: the group
//! runs each stage for all its lanes, [`StepGroup::run_stage`]), a ragdoll island with the
//! particle bodies in its company (the world's `ragdolls`: the bones' substep in
//! [`StepGroup::before_substep`], their share of the contacts in
//! [`StepGroup::after_substep`]) and a large grid on two threads (whose passes
//! `two_threads.rs` derives from [`SUBSTEP`] and pipelines across the substeps without a
//! barrier between them) all go through it. A new constraint group is a
//! kernel in `solver/constraints` and an entry in [`GROUPS`]; a new stage is an entry in
//! [`SUBSTEP`] and in [`Body::run_stage`].
//!
//! The plan ([`Plan`]) is chosen once per step: `Vec3` arrays for everything, structure of
//! arrays (the grid kernel's layout) from the start of each substep until the first pass
//! with no such version, or structure of arrays on two threads. Every layout gives the same
//! bits; the plan only decides speed.

use super::Body;
pub use crate::step::StepParams;
use crate::collider::{ColliderFrame, Geometry};
use crate::geometry::{Pose, Shape};
use crate::error::MAX_STEP_VALUE;
use crate::math::{Quat, Vec3, all_within};
use crate::solver::aero::{self, AeroParams};
use crate::solver::constraints::distance::{self, KIND_BEND, KIND_STRETCH};
use crate::solver::constraints::distance_simd::{self, Kernel};
use crate::solver::constraints::grid_simd;
use crate::solver::constraints::{motion, neo_hookean, tether};
use crate::solver::contact::particle::Band;
use crate::solver::contact::{self, shape::{ContactParams, Swept}};
use crate::solver::layout::frame;
use crate::solver::{integrate, velocity, xpbd};
use crate::wind::Wind;

/// Particles from which a grid body shares its constraint passes with a second thread
/// (below it the waits between passes cost more than the second thread saves).
pub(crate) const SPLIT_PARTICLES: usize = 1024;



/// Everything the world shares with each body for one fixed step.
#[derive(Clone, Copy)]
pub struct StepContext<'a> {
    /// Every collider over this fixed step (a body keeps the indices of those near it).
    pub colliders: &'a [ColliderFrame],
    pub wind: &'a Wind,
}

/// A stage of a substep.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    Predict,
    Constraints,
    PairContacts,
    SelfContacts,
    Colliders,
    Velocities,
}

/// The stages of every substep, in order.
pub const SUBSTEP: [Stage; 6] = [Stage::Predict, Stage::Constraints, Stage::PairContacts, Stage::SelfContacts, Stage::Colliders, Stage::Velocities];

/// How a fixed step lays out the state for its passes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Plan {
    /// `Vec3` arrays for every pass.
    Vec3,
    /// Structure of arrays from each substep's prediction on; the state moves to the `Vec3`
    /// arrays at the first pass of the substep that has no such version, and back at the
    /// next prediction ([`Body::layout_for`]).
    Soa,
    /// Structure of arrays for the whole step, each pass cut into two bands of rows for two
    /// threads (`two_threads.rs`).
    TwoThreads,
}

/// The bodies one call of [`step`] advances together, and what passes between them.
pub trait StepGroup {
    fn len(&self) -> usize;
    fn body(&mut self, i: usize) -> &mut Body;
    /// The bodies touch each other (stage `PairContacts` has work).
    fn paired(&self) -> bool {
        false
    }
    /// After every body's `BeginStep`: find what the bodies may touch of each other this step.
    fn find_contacts(&mut self) {}
    /// Stage `PairContacts` of a substep, on `Vec3` state.
    fn resolve_contacts(&mut self) {}
    /// Substeps of the group's rigid members (the ragdolls of a world's company); 0 without.
    fn rigid_substeps(&self) -> u32 {
        0
    }
    /// Substep `s` of the group's rigid members, before the particles' stages of the same
    /// substep: they meet the bones where this substep leaves them, and pins that follow a
    /// bone are placed on it.
    fn before_substep(&mut self, _s: u32) {}
    /// After the particles' stages of substep `s`: what their contacts did to the bones.
    fn after_substep(&mut self, _s: u32) {}
    /// An executor of the group's own (SIMD lanes: `lanes.rs`): the group runs `stage` of
    /// substep `s` for all its bodies at once and says so; otherwise (false) every body runs
    /// its own.
    fn run_stage(&mut self, _stage: Stage, _s: u32) -> bool {
        false
    }
    /// Before the first substep and after the last: an executor's gather and scatter.
    fn before_substeps(&mut self) {}
    fn after_substeps(&mut self) {}
}

impl StepGroup for Body {
    fn len(&self) -> usize {
        1
    }
    fn body(&mut self, _: usize) -> &mut Body {
        self
    }
}

/// One fixed step of every body of `group` (each with its own `params(i)`: level of detail
/// may lower a lone body's substeps; bodies in contact share the world's).
pub fn step(group: &mut impl StepGroup, params: impl Fn(&Body) -> StepParams, ctx: &StepContext) {
    let start = std::time::Instant::now();
    let (n, paired) = (group.len(), group.paired());
    // Bodies in contact share one local frame when they are far from the origin (the first
    // body's; they touch, so it is near them all).
    let shared = if paired && n > 0 {
        let (lo, hi) = group.body(0).bounds();
        frame::origin_for((lo + hi) * 0.5)
    } else {
        None
    };
    for i in 0..n {
        let b = group.body(i);
        let p = params(b);
        b.begin_step(&p, ctx, paired, shared);
    }
    group.find_contacts();
    step_after_begin(group, &params, ctx);
    let elapsed = start.elapsed();
    let total: usize = (0..n).map(|i| group.body(i).particle_count()).sum();
    for i in 0..n {
        group.body(i).charge_time(elapsed, total);
    }
}

/// The rest of [`step`] once every body of `group` has begun its step: the substeps, then
/// `EndStep`.
pub(crate) fn step_after_begin(group: &mut impl StepGroup, params: impl Fn(&Body) -> StepParams, ctx: &StepContext) {
    let (n, paired) = (group.len(), group.paired());
    if n == 1 && group.body(0).plan == Plan::TwoThreads {
        let b = group.body(0);
        let p = params(b);
        b.step_in_two(&p, ctx);
    } else {
        let substeps = (0..n).map(|i| params(group.body(i)).substeps).max().unwrap_or(0).max(group.rigid_substeps());
        group.before_substeps();
        for s in 0..substeps {
            group.before_substep(s);
            for stage in SUBSTEP {
                if group.run_stage(stage, s) {
                    continue;
                }
                if stage == Stage::PairContacts {
                    if paired {
                        (0..n).for_each(|i| group.body(i).layout_for(false));
                        group.resolve_contacts();
                    }
                    continue;
                }
                for i in 0..n {
                    let b = group.body(i);
                    let p = params(b);
                    if s < p.substeps {
                        b.run_stage(stage, &p, s, ctx);
                    }
                }
            }
            group.after_substep(s);
        }
        group.after_substeps();
    }
    for i in 0..n {
        group.body(i).end_step();
    }
}

/// A group of constraints of a particle body, projected once per substep in [`GROUPS`] order
/// (its kernel may iterate inside).
pub(crate) trait ConstraintGroup: Sync {
    /// The body has constraints of this group to project this step.
    fn active(&self, b: &Body, p: &StepParams) -> bool;
    /// The group's kernel runs on the structure-of-arrays layout (else on `Vec3` arrays).
    fn on_soa(&self, b: &Body, p: &StepParams) -> bool;
    /// The group can run in two bands of rows (`two_threads.rs` knows how).
    fn in_bands(&self) -> bool {
        false
    }
    fn project(&self, b: &mut Body, p: &StepParams, s: u32);
    /// Particle `orig` was copied to the end (tearing): the group's per-particle data follows.
    fn duplicate_particle(&self, _b: &mut Body, _orig: usize) {}
    /// Bytes of the group's per-instance data (cooked, shared data is counted with the topology).
    fn instance_bytes(&self, _b: &Body) -> usize {
        0
    }
}

fn bytes<T>(v: &[T]) -> usize {
    std::mem::size_of_val(v)
}

/// Structural, shear and bend constraints (`solver::constraints::distance` and its SIMD
/// kernels), `iterations` times per substep.
struct DistanceGroup;
/// Long-range attachments to the pinned particles (`solver::constraints::tether`).
struct TetherGroup;
/// Pose stiffness, max distances and backstops to the skinned pose
/// (`solver::constraints::motion`).
struct MotionGroup;

/// A soft body's tetrahedral volumes (`solver::constraints::volume`).
struct VolumeGroup;
/// A soft body's shape matching (`solver::constraints::shape_match`).
struct ShapeMatchGroup;

/// The gas inside a soft body's closed surface (`softbody::apply_pressure`).
struct PressureGroup;

/// Bending by dihedral angles, when the material has a bending stiffness
/// (`solver::constraints::dihedral`).
struct DihedralGroup;

/// Membrane stretch and shear per triangle, when the material has a stretch stiffness
/// (`solver::constraints::membrane`).
struct MembraneGroup;

/// A soft body's tetrahedra as a Neo-Hookean solid, when the material has a Young's modulus
/// (`solver::constraints::neo_hookean`); it replaces the volumes, shape matching and the
/// distance constraints.
struct NeoHookeanGroup;

/// The constraint groups, in projection order.
pub(crate) const GROUPS: [&dyn ConstraintGroup; 9] = [&DistanceGroup, &MembraneGroup, &DihedralGroup, &PressureGroup, &NeoHookeanGroup, &VolumeGroup, &ShapeMatchGroup, &TetherGroup, &MotionGroup];

impl ConstraintGroup for MembraneGroup {
    fn active(&self, b: &Body, _: &StepParams) -> bool {
        b.membrane.is_some()
    }

    fn on_soa(&self, _: &Body, _: &StepParams) -> bool {
        false
    }

    fn project(&self, b: &mut Body, p: &StepParams, _s: u32) {
        let Some(m) = b.membrane.as_deref_mut() else { return };
        let (stretch, shear) = (b.material.stretch_stiffness, b.material.shear_stiffness);
        m.lambda.fill([0.0; 3]);
        for _ in 0..p.iterations {
            crate::solver::constraints::membrane::solve(&mut b.x, &b.w, m, stretch, shear, p.h, b.scale);
        }
    }

    fn instance_bytes(&self, b: &Body) -> usize {
        b.membrane.as_ref().map_or(0, |m| bytes(&m.index) + bytes(&m.weights) + bytes(&m.area) + bytes(&m.lambda))
    }
}

impl ConstraintGroup for NeoHookeanGroup {
    fn active(&self, b: &Body, _: &StepParams) -> bool {
        b.is_solid()
    }

    fn on_soa(&self, _: &Body, _: &StepParams) -> bool {
        false
    }

    fn project(&self, b: &mut Body, p: &StepParams, _s: u32) {
        let Some(soft) = b.soft.as_deref_mut() else { return };
        let Some(solids) = soft.solids.as_deref_mut() else { return };
        let params = neo_hookean::SolidParams::new(b.material.youngs_modulus, b.material.poisson_ratio, p.h, b.scale);
        solids.lambda.fill([0.0; 2]);
        let tets = &soft.shape.tets;
        for _ in 0..p.iterations {
            neo_hookean::solve(&mut b.x, &b.w, &tets.index, &tets.rest, solids, &params);
        }
    }

    fn instance_bytes(&self, b: &Body) -> usize {
        b.soft.as_ref().and_then(|s| s.solids.as_ref()).map_or(0, |n| bytes(&n.dm_inv) + bytes(&n.lambda))
    }
}

impl ConstraintGroup for DihedralGroup {
    fn active(&self, b: &Body, _: &StepParams) -> bool {
        b.dihedral.is_some()
    }

    fn on_soa(&self, _: &Body, _: &StepParams) -> bool {
        false
    }

    fn project(&self, b: &mut Body, p: &StepParams, _s: u32) {
        let Some(d) = b.dihedral.as_deref_mut() else { return };
        d.lambda.fill(0.0);
        for _ in 0..p.iterations {
            crate::solver::constraints::dihedral::solve(&mut b.x, &b.w, d, b.material.bend_stiffness, p.h);
        }
    }

    fn instance_bytes(&self, b: &Body) -> usize {
        b.dihedral.as_ref().map_or(0, |d| bytes(&d.index) + bytes(&d.rest) + bytes(&d.weight) + bytes(&d.lambda))
    }
}

impl ConstraintGroup for PressureGroup {
    fn active(&self, b: &Body, _: &StepParams) -> bool {
        b.soft.as_ref().is_some_and(|s| s.settings.pressure > 0.0 || s.settings.external_pressure > 0.0)
    }

    fn on_soa(&self, _: &Body, _: &StepParams) -> bool {
        false
    }

    fn project(&self, b: &mut Body, p: &StepParams, _s: u32) {
        let Some(soft) = b.soft.as_deref_mut() else { return };
        super::soft::apply_pressure(&mut b.x, &b.w, &b.topology.triangles, soft, p.h, b.scale);
    }
}

impl ConstraintGroup for VolumeGroup {
    fn active(&self, b: &Body, _: &StepParams) -> bool {
        b.soft.as_ref().is_some_and(|s| !s.shape.tets.is_empty() && s.solids.is_none())
    }

    fn on_soa(&self, _: &Body, _: &StepParams) -> bool {
        false
    }

    fn project(&self, b: &mut Body, p: &StepParams, _s: u32) {
        let Some(soft) = b.soft.as_deref_mut() else { return };
        let alpha_tilde = xpbd::scaled_compliance(soft.settings.volume_compliance, p.h);
        soft.volume_lambda.fill(0.0);
        for _ in 0..p.iterations {
            crate::solver::constraints::volume::solve(&mut b.x, &b.w, &soft.shape.tets, &mut soft.volume_lambda, alpha_tilde, b.scale);
        }
    }

    fn instance_bytes(&self, b: &Body) -> usize {
        b.soft.as_ref().map_or(0, |s| bytes(&s.volume_lambda) + bytes(&s.clusters.rotation) + bytes(&s.clusters.plastic))
    }
}

impl ConstraintGroup for ShapeMatchGroup {
    fn active(&self, b: &Body, _: &StepParams) -> bool {
        b.soft.as_ref().is_some_and(|s| s.settings.shape_stiffness > 0.0 && !s.shape.clusters.is_empty() && s.solids.is_none())
    }

    fn on_soa(&self, _: &Body, _: &StepParams) -> bool {
        false
    }

    fn project(&self, b: &mut Body, p: &StepParams, _s: u32) {
        let Some(soft) = b.soft.as_deref_mut() else { return };
        let params = soft.match_params(p.h, b.scale);
        crate::solver::constraints::shape_match::solve(&mut b.x, &b.w, &soft.shape.clusters, &mut soft.clusters, &params);
    }
}

impl ConstraintGroup for DistanceGroup {
    fn active(&self, b: &Body, _: &StepParams) -> bool {
        // A Neo-Hookean soft body's edges are all off (`Body::compliances`).
        !b.is_solid()
    }

    fn on_soa(&self, b: &Body, p: &StepParams) -> bool {
        b.topology.grid_kernel(p.kernel).is_some()
    }

    fn in_bands(&self) -> bool {
        true
    }

    fn project(&self, b: &mut Body, p: &StepParams, _s: u32) {
        let alpha_tilde = b.compliances().map(|c| xpbd::scaled_compliance(c, p.h));
        let on_grid = b.soa.home && b.topology.grid_kernel(p.kernel).is_some();
        if !on_grid {
            // Multipliers restart each substep (the grid kernel zeroes its own); rigid
            // constraints never touch theirs.
            if alpha_tilde.iter().any(|&a| a != 0.0) {
                b.lambda.fill(0.0);
            }
            // Batches solved in order keep their rounding in the carry.
            if b.topology.constraints.batches.iter().any(|batch| !batch.independent) {
                b.use_carry();
            }
        }
        let grid = if on_grid { b.topology.grid_kernel(p.kernel) } else { None };
        let k = &b.topology.constraints;
        if let Some(layout) = grid {
            // A large body shares its passes with a second thread, when the world has one.
            let split = p.parallel && b.x.len() >= SPLIT_PARTICLES && rayon::current_num_threads() > 1;
            #[cfg(target_arch = "x86_64")]
            {
                let isa = grid_simd::GridIsa::best();
                // SAFETY: AVX is supported (`grid_kernel` checked it) and `k` is this untorn
                // grid's own constraints; `soa` holds every particle.
                unsafe { grid_simd::solve_iterations(isa, layout, k, &mut b.soa.x, &mut b.lambda, &alpha_tilde, b.scale, p.iterations, split) };
            }
            #[cfg(not(target_arch = "x86_64"))]
            for _ in 0..p.iterations {
                for batch in &k.batches {
                    grid_simd::solve_soa(&mut b.soa.x, k, batch.start as usize..batch.end as usize, &mut b.lambda, &alpha_tilde, b.scale);
                }
            }
        } else if p.kernel == Kernel::Scalar || !k.batches.iter().any(|b| b.independent) {
            for _ in 0..p.iterations {
                for batch in &k.batches {
                    let range = batch.start as usize..batch.end as usize;
                    if batch.independent {
                        distance::solve(&mut b.x, &b.w, k, range, &mut b.lambda, &alpha_tilde, b.scale);
                    } else {
                        // In order, along the links' directions at the substep's start; a
                        // chain (rope, strand) of compliant constraints directly.
                        distance::solve_sequential(&mut b.x, &b.x_prev, &mut b.carry, &b.w, k, range, &mut b.lambda, &alpha_tilde, b.scale);
                    }
                }
            }
        } else {
            b.packed.clear();
            b.packed.extend(b.x.iter().zip(&b.w).map(|(x, w)| [x.x, x.y, x.z, *w]));
            for _ in 0..p.iterations {
                for batch in &k.batches {
                    let range = batch.start as usize..batch.end as usize;
                    if batch.independent {
                        // SAFETY: a topology's constraints index its own particles, and
                        // `packed` holds one entry per particle.
                        unsafe { distance_simd::solve_batch(p.kernel, &mut b.packed, k, range, &mut b.lambda, &alpha_tilde, b.scale) };
                    } else {
                        distance_simd::solve_packed_sequential(&mut b.packed, &b.x_prev, &mut b.carry, k, range, &mut b.lambda, &alpha_tilde, b.scale);
                    }
                }
            }
            for (x, q) in b.x.iter_mut().zip(&b.packed) {
                *x = Vec3::new(q[0], q[1], q[2]);
            }
        }
    }
}

impl ConstraintGroup for TetherGroup {
    fn active(&self, b: &Body, _: &StepParams) -> bool {
        b.tethers.is_some()
    }

    fn on_soa(&self, _: &Body, _: &StepParams) -> bool {
        false
    }

    fn project(&self, b: &mut Body, _: &StepParams, _s: u32) {
        if let Some(tethers) = &b.tethers {
            tether::solve(&mut b.x, &b.w, tethers, b.scale);
        }
    }

    fn duplicate_particle(&self, b: &mut Body, orig: usize) {
        if let Some(t) = &mut b.tethers {
            t.anchor.push(t.anchor[orig]);
            t.length.push(t.length[orig]);
        }
    }

    fn instance_bytes(&self, b: &Body) -> usize {
        b.tethers.as_ref().map_or(0, |t| bytes(&t.anchor) + bytes(&t.length))
    }
}

impl MotionGroup {
    /// The pose stiffness' pull over one substep: the same pull per second at any substep count.
    fn pull(b: &Body, p: &StepParams) -> f32 {
        1.0 - (-b.dynamics.pose_stiffness * p.h).exp()
    }
}

impl ConstraintGroup for MotionGroup {
    fn active(&self, b: &Body, p: &StepParams) -> bool {
        b.skin.as_ref().is_some_and(|skin| skin.posed && (Self::pull(b, p) > 0.0 || !b.limits.max_distance.is_empty() || !b.limits.backstop_radius.is_empty()))
    }

    fn on_soa(&self, _: &Body, _: &StepParams) -> bool {
        false
    }

    fn project(&self, b: &mut Body, p: &StepParams, s: u32) {
        let pull = Self::pull(b, p);
        if let Some(skin) = &b.skin {
            motion::solve(&mut b.x, &b.w, &skin.path(), &b.limits, p.pose_time(s), b.scale, pull);
        }
    }

    fn duplicate_particle(&self, b: &mut Body, orig: usize) {
        for list in [&mut b.limits.max_distance, &mut b.limits.backstop_offset, &mut b.limits.backstop_radius] {
            if !list.is_empty() {
                list.push(list[orig]);
            }
        }
    }

    fn instance_bytes(&self, b: &Body) -> usize {
        let l = &b.limits;
        bytes(&l.max_distance) + bytes(&l.backstop_offset) + bytes(&l.backstop_radius)
    }
}

impl Body {
    /// Readies the chain solve's carry (one zero per particle; sized again after a tear) and
    /// marks it in use, so this substep's velocities take it in.
    fn use_carry(&mut self) {
        if self.carry.len() != self.x.len() {
            self.carry.clear();
            self.carry.resize(self.x.len(), Vec3::ZERO);
        }
        self.carried = true;
    }

    /// The local frame and everything that moves with it: positions, start positions, the
    /// pins' paths and the skinned pose (`solver::layout::frame`).
    fn frame_state(&mut self) -> (&mut frame::LocalFrame, &mut [Vec3], &mut [Vec3], [&mut [Vec3]; 6]) {
        let (pose_from, pose_to) = match &mut self.skin {
            Some(skin) => (&mut skin.from[..], &mut skin.to[..]),
            None => (&mut [][..], &mut [][..]),
        };
        let pins = &mut self.pins;
        (&mut self.soa.frame, &mut self.x, &mut self.x_prev, [&mut pins.from, &mut pins.to, &mut pins.start, &mut pins.end, pose_from, pose_to])
    }

    pub(super) fn contact_params(&self) -> ContactParams {
        ContactParams {
            thickness: self.material.thickness * self.scale,
            static_friction: self.material.static_friction,
            kinetic_friction: self.material.kinetic_friction,
        }
    }

    /// Stage `BeginStep`: remember the state, find the colliders and self-collision pairs
    /// this step can reach (broad phase, once per step), the wind's forces, and the plan.
    /// `shared`: the local frame's origin of a group of paired bodies (see
    /// `solver::layout::frame`); a lone body finds its own.
    pub fn begin_step(&mut self, p: &StepParams, ctx: &StepContext, paired: bool, shared: Option<Vec3>) {
        self.x_step_start.copy_from_slice(&self.x);
        self.last_substeps = p.substeps;
        self.lane_step = false;
        let step_time = p.h * p.substeps as f32;
        let vmax = self.v.iter().fold(0.0f32, |m, v| m.max(v.length_squared())).sqrt();
        let g = (p.gravity * self.material.gravity_scale).length();
        let pin_motion = (0..self.pins.index.len())
            .map(|k| (self.pins.end[k] - self.pins.start[k]).length())
            .fold(0.0f32, f32::max);
        let thickness = self.material.thickness * self.scale;
        self.step_margin = vmax * step_time + 0.5 * g * step_time * step_time + pin_motion + thickness;
        self.candidates.clear();
        if self.candidates.capacity() < ctx.colliders.len() {
            self.candidates.reserve(ctx.colliders.len().next_power_of_two());
        }
        if !ctx.colliders.is_empty() {
            let (lo, hi) = self.bounds();
            // Colliders seen through the anchor's carry may be that much nearer.
            let seen = self.anchor_carry().map_or(0.0, |c| c.reach((lo + hi) * 0.5, (hi - lo).length() * 0.5));
            let margin = Vec3::splat(self.step_margin + seen);
            let (lo, hi) = (lo - margin, hi + margin);
            for (k, c) in ctx.colliders.iter().enumerate() {
                if c.layers & self.material.collision_mask == 0 || !self.meets_owner(c.owner) {
                    continue;
                }
                let near = match c.bounds {
                    None => true,
                    Some((clo, chi)) => clo.cmple(hi).all() && chi.cmpge(lo).all(),
                };
                if near {
                    self.candidates.push(k as u32);
                }
            }
        }
        self.self_pairs.clear();
        self.self_tris.clear();
        self.self_capped = 0;
        self.mesh_work = Default::default();
        if self.material.self_collision && thickness > 0.0 {
            let d = 2.0 * thickness;
            // What matters between two particles of one body is how fast they approach each
            // other: the spread of velocities about the mean, not the body's own speed.
            let n = self.v.len().max(1) as f32;
            let mean = self.v.iter().fold(Vec3::ZERO, |a, v| a + *v) / n;
            let spread = self.v.iter().fold(0.0f32, |m, v| m.max((*v - mean).length_squared())).sqrt();
            let margin = (2.0 * spread * step_time).min(2.0 * d);
            // Particles against the body's own triangles, away from their own neighbourhood
            // (rest distance beyond two edges), in both directions: a second search, over
            // the same grid.
            let far = (!self.topology.triangles.is_empty()).then(|| {
                let k = &self.topology.constraints;
                let edge = (0..k.len()).filter(|&i| k.kind[i] != KIND_BEND).fold(0.0f32, |m, i| m.max(k.rest[i]));
                Band { search: d + margin + edge * self.scale, exclude: 2.0 * edge }
            });
            let near = Band { search: d + margin, exclude: 2.0 * self.material.thickness };
            let split = p.parallel && self.x.len() >= SPLIT_PARTICLES && rayon::current_num_threads() > 1;
            let cap = contact::particle::MAX_SELF_PAIRS_PER_PARTICLE;
            self.self_capped = contact::particle::find_self_pairs(&self.x, &self.topology.rest, near, far, cap, split, &mut self.scratch, &mut self.self_pairs, &mut self.far_pairs);
            if far.is_some() {
                contact::triangle::triangle_candidates(&self.x, &self.x, &self.topology.triangles, &self.topology.adjacency, &self.far_pairs, false, &mut self.self_tris);
            }
        }
        self.accel.clear();
        let d = &self.dynamics;
        if ctx.wind.speed > 0.0 && d.wind_scale > 0.0 && (d.drag > 0.0 || d.lift > 0.0) {
            self.accel.resize(self.x.len(), Vec3::ZERO);
            let params = AeroParams { drag: d.drag, lift: d.lift, diameter: 2.0 * thickness, air_density: ctx.wind.air_density };
            let (wind, time, wind_scale) = (ctx.wind, p.time, d.wind_scale);
            let now = wind.at(time);
            let air = |at: Vec3| now.velocity(at) * wind_scale;
            let topo = &self.topology;
            if topo.triangles.is_empty() {
                let k = &topo.constraints;
                for i in 0..k.len() {
                    if k.kind[i] == KIND_STRETCH && k.a[i] != k.b[i] {
                        aero::segments(&self.x, &self.v, &self.w, &[(k.a[i], k.b[i])], air, &params, step_time, &mut self.accel);
                    }
                }
            } else {
                aero::triangles(&self.x, &self.v, &self.w, &topo.triangles, air, &params, step_time, &mut self.accel);
            }
        }
        // Far from the origin: step relative to an origin near the body (`solver::layout::frame`;
        // bodies in contact pairs in their group's).
        let (lo, hi) = self.bounds();
        let origin = if paired { shared } else { frame::origin_for((lo + hi) * 0.5) };
        self.plan = self.choose_plan(p, ctx, paired, origin.is_some());
        self.sleep_begin(step_time, p.gravity * self.material.gravity_scale, paired);
        if let Some(o) = origin {
            let (frame, x, x_prev, paths) = self.frame_state();
            frame.enter(o, x, x_prev, paths);
        }
    }

    /// The plan for this step (see [`Plan`]), and which substeps' collider contacts have a
    /// structure-of-arrays version.
    fn choose_plan(&mut self, p: &StepParams, ctx: &StepContext, paired: bool, far: bool) -> Plan {
        self.soa_colliders = 0;
        // Colliders seen through an anchor's carry are met on the `Vec3` arrays.
        let anchored = self.anchor_carry().is_some();
        for s in (0..p.substeps).filter(|_| !anchored) {
            let (t0, t1) = p.substep_span(s);
            let soa = self.candidates.iter().all(|&k| {
                let c = &ctx.colliders[k as usize];
                c.shape().is_some_and(|shape| contact::shape::collide_soa_supported(shape, &c.from.lerp(&c.to, t0), &c.from.lerp(&c.to, t1)))
            });
            self.soa_colliders |= u64::from(soa) << s;
        }
        let Some(layout) = self.topology.grid_kernel(p.kernel) else { return Plan::Vec3 };
        // Two threads: every pass has a banded version. Colliders are checked over the whole
        // step: spheres that do not turn.
        let spheres = self.candidates.iter().all(|&k| {
            let c = &ctx.colliders[k as usize];
            c.shape().is_some_and(|shape| contact::shape::collide_soa_supported(shape, &c.from, &c.to))
        });
        let banded_groups = GROUPS.iter().all(|g| g.in_bands() || !g.active(self, p));
        let two = cfg!(target_arch = "x86_64")
            && p.parallel
            && self.x.len() >= SPLIT_PARTICLES
            && rayon::current_num_threads() > 1
            && !paired
            && !self.in_company
            && !anchored
            // (The banded passes read colliders in world coordinates.)
            && !far
            && banded_groups
            // Skinned bodies read their pose between steps from `Vec3` arrays.
            && self.skin.is_none()
            && self.self_pairs.is_empty()
            && self.self_tris.is_empty()
            && spheres
            && layout.rows >= 4;
        if two { Plan::TwoThreads } else { Plan::Soa }
    }

    /// Moves the state to the `Vec3` arrays before a pass that has no structure-of-arrays
    /// version (`soa_capable` false); it stays there for the rest of the substep (and after
    /// the step). The only place the one-thread passes leave the structure-of-arrays layout;
    /// `predict` is the only place they enter it.
    pub(crate) fn layout_for(&mut self, soa_capable: bool) {
        if !soa_capable {
            self.soa.give(&mut self.x, &mut self.x_prev, &mut self.v);
        }
    }

    /// Runs one stage of substep `s` (the body's own stages; `PairContacts` is the world's).
    pub(crate) fn run_stage(&mut self, stage: Stage, p: &StepParams, s: u32, ctx: &StepContext) {
        match stage {
            Stage::Predict => self.predict(p, s),
            Stage::Constraints => {
                for group in GROUPS {
                    if group.active(self, p) {
                        let soa = group.on_soa(self, p);
                        self.layout_for(soa);
                        group.project(self, p, s);
                    }
                }
            }
            Stage::PairContacts => {}
            Stage::SelfContacts => self.self_contacts(),
            Stage::Colliders => self.colliders(p, s, ctx.colliders),
            Stage::Velocities => self.velocities(p),
        }
    }

    /// Stage `Predict`: integrate the free particles, drive the pinned ones along their path.
    fn predict(&mut self, p: &StepParams, s: u32) {
        let t = p.pin_time(s);
        let gravity = p.gravity * self.material.gravity_scale;
        if self.plan != Plan::Vec3 {
            // The grid kernel's layout holds the whole substep (see `solver::layout::soa`).
            self.soa.take(&self.x, &self.w, &self.x_prev, &self.v);
            let mut all = self.soa.all();
            all.integrate(gravity, &self.accel, self.material.damping, p.h);
            all.drive_pins(&self.pins.index, &self.pins.start, &self.pins.end, t);
        } else {
            integrate::integrate(&mut self.x, &mut self.x_prev, &mut self.v, &self.w, gravity, &self.accel, self.material.damping, p.h);
            integrate::drive_pins(&mut self.x, &self.pins.index, &self.pins.start, &self.pins.end, t);
        }
    }

    /// Stage `SelfContacts`: particles of the body against its own particles and triangles.
    fn self_contacts(&mut self) {
        if self.self_pairs.is_empty() && self.self_tris.is_empty() {
            return;
        }
        let dist = 2.0 * self.material.thickness * self.scale;
        if self.self_tris.is_empty() && self.soa.home {
            // Particle pairs only: resolved on the structure-of-arrays layout, which then
            // holds the rest of the substep (same bits as the `Vec3` arrays).
            let s = &mut self.soa.x;
            contact::particle::resolve_self_components(&mut s.x, &mut s.y, &mut s.z, &s.w, &self.self_pairs, dist);
            return;
        }
        self.layout_for(false);
        if !self.self_pairs.is_empty() {
            contact::particle::resolve_self(&mut self.x, &self.w, &self.self_pairs, dist);
        }
        if !self.self_tris.is_empty() {
            contact::triangle::resolve_triangles_self(&mut self.x, &self.w, &self.topology.triangles, &self.self_tris, dist);
        }
    }

    /// Stage `Colliders`: the colliders near the body, swept over substep `s`.
    fn colliders(&mut self, p: &StepParams, s: u32, colliders: &[ColliderFrame]) {
        // Bones first, the world's colliders last: cloth trapped between a bone lying on it
        // and the floor ends each substep on the floor's side.
        if !self.bones.is_empty() {
            self.layout_for(false);
            self.bone_contacts();
        }
        if self.candidates.is_empty() {
            return;
        }
        self.layout_for(self.soa_colliders & (1 << s) != 0);
        let (t0, t1) = p.substep_span(s);
        let contact = self.contact_params();
        let anchor = self.anchor_carry();
        // On `Vec3` arrays, runs of shapes go through `collide_many` together (the same bits
        // as one `collide` after another).
        const RUN: usize = 16;
        let idle = Pose { rotation: Quat::IDENTITY, position: Vec3::ZERO, scale: 1.0 };
        let mut run = [Swept { shape: &Shape::Plane, p0: idle, p1: idle }; RUN];
        let mut queued = 0;
        let mut substep_capped = 0;
        for (j, &k) in self.candidates.iter().enumerate() {
            let c = &colliders[k as usize];
            let (mut p0, mut p1) = (c.from.lerp(&c.to, t0), c.from.lerp(&c.to, t1));
            if let Some(carry) = anchor {
                // Seen from the body its anchor carried at the frame's start (`particles::anchor`).
                let at = |t: f32| p.pose_t0 + (p.pose_t1 - p.pose_t0) * t;
                (p0, p1) = (carry.seen_at(at(t0)).pose(&p0), carry.seen_at(at(t1)).pose(&p1));
            }
            if self.soa.frame.active {
                p0.position -= self.soa.frame.origin;
                p1.position -= self.soa.frame.origin;
            }
            match &c.geometry {
                Geometry::Shape(shape) if self.soa.home => self.soa.all().collide(shape, &p0, &p1, &contact),
                Geometry::Shape(shape) => {
                    run[queued] = Swept { shape, p0, p1 };
                    queued += 1;
                    let next_is_shape = self.candidates.get(j + 1).is_some_and(|&n| matches!(colliders[n as usize].geometry, Geometry::Shape(_)));
                    if queued == RUN || !next_is_shape {
                        contact::shape::collide_many(&mut self.x, &self.x_prev, &self.w, &run[..queued], &contact, self.step_margin);
                        queued = 0;
                    }
                }
                Geometry::Mesh(mesh) => {
                    // (Never on the structure-of-arrays layout: `choose_plan` saw to that.)
                    let (mut lo, mut hi) = c.bounds.expect("a mesh is bounded");
                    if self.soa.frame.active {
                        (lo, hi) = (lo - self.soa.frame.origin, hi - self.soa.frame.origin);
                    }
                    let work = contact::mesh::collide(&mut self.x, &self.x_prev, &self.w, mesh, &p0, &p1, (lo, hi), &contact, self.step_margin);
                    self.mesh_work.queries += work.queries;
                    self.mesh_work.tests += work.tests;
                    substep_capped += work.capped;
                }
            }
        }
        self.mesh_work.capped = self.mesh_work.capped.max(substep_capped);
    }

    /// Stage `Velocities`: velocities from the substep's motion, then the speed limit.
    fn velocities(&mut self, p: &StepParams) {
        if self.soa.home {
            self.soa.all().update_velocity(p.h);
        } else {
            velocity::update(&self.x, &self.x_prev, &mut self.v, &self.w, p.h);
        }
        if self.carried {
            // The chain corrections rounding withheld from the positions (`distance::project_chain`).
            if !self.soa.home {
                velocity::add_carry(&mut self.v, &self.carry, &self.w, p.h);
            }
            self.carry.fill(Vec3::ZERO);
            self.carried = false;
        }
        if self.dynamics.max_speed > 0.0 {
            let base = self.speed_limit_base();
            if self.soa.home {
                self.soa.all().limit_velocity(base, self.dynamics.max_speed);
            } else {
                velocity::limit(&mut self.v, &self.w, base, self.dynamics.max_speed);
            }
        }
    }

    /// The velocity the speed limit is measured from. The share of the root's motion carried
    /// rather than felt (1 − world_velocity_scale) never shows in the particles' velocities,
    /// so the reference is the rest of it.
    pub(super) fn speed_limit_base(&self) -> Vec3 {
        self.root.map_or(Vec3::ZERO, |r| r.velocity * self.dynamics.world_velocity_scale)
    }

    /// After a step that overflowed: what else the step reads and may have overflowed with
    /// the positions — inverse masses (rebuilt from the free ones and the pins; a free one that
    /// is not a positive finite number from the particle mass), multipliers, carried
    /// corrections, a soft body's cluster rotations and plastic strain (back to rest where
    /// not finite) — so that the next step starts clean instead of overflowing again.
    fn recover_step_inputs(&mut self) {
        let fallback = 1.0 / self.material.particle_mass;
        for i in 0..self.w.len() {
            if !(self.w_free[i].is_finite() && self.w_free[i] > 0.0) {
                self.w_free[i] = fallback;
            }
            self.w[i] = if self.is_pinned(i) { 0.0 } else { self.w_free[i] };
        }
        self.lambda.fill(0.0);
        self.carry.fill(Vec3::ZERO);
        self.carried = false;
        if let Some(soft) = self.soft.as_deref_mut() {
            soft.volume_lambda.fill(0.0);
            if let Some(solids) = soft.solids.as_deref_mut() {
                solids.lambda.fill([0.0; 2]);
            }
            let c = &mut soft.clusters;
            c.rotation.iter_mut().filter(|q| !q.is_finite()).for_each(|q| *q = Quat::IDENTITY);
            c.plastic.iter_mut().filter(|m| !m.is_finite()).for_each(|m| *m = glam::Mat3::IDENTITY);
        }
    }

    /// Stage `EndStep`: the state back in the `Vec3` arrays; a step that became non-finite,
    /// or left a coordinate or speed beyond `MAX_STEP_VALUE`, is rolled back; constraints
    /// strained past the threshold tear.
    pub(crate) fn end_step(&mut self) {
        self.layout_for(false);
        let (frame, x, x_prev, paths) = self.frame_state();
        frame.leave(x, x_prev, paths);
        if !all_within(&self.x, MAX_STEP_VALUE) || !all_within(&self.v, MAX_STEP_VALUE) {
            self.soa.frame.forget();
            // An input the checks could not foresee blew the body up: roll back this step
            // and stop it, rather than hand the host NaNs or 1e25.
            self.x.copy_from_slice(&self.x_step_start);
            self.x_prev.copy_from_slice(&self.x_step_start);
            self.v.fill(Vec3::ZERO);
            self.recover_step_inputs();
            self.recoveries += 1;
            self.pending_recovery = Some(super::Recovery::StepNotFinite);
            self.ensure_finite();
            self.sleep_disturbed();
            return;
        }
        // Soft bodies do not tear (their tetrahedra and clusters would need splitting too).
        if self.dynamics.tear_threshold > 0.0 && self.soft.is_none() {
            super::tear::tear_strained(self);
        }
        self.settle();
    }
}
