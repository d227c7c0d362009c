//! The world: owns every body, advances them at a fixed internal rate.
//!
//! Time: the host passes its frame `dt`. The world runs whole fixed steps of
//! `h = 1/fixed_rate_hz` until simulated time has caught up with host time (it may run up to
//! one step ahead), then readback interpolates between the last two fixed states by
//! `alpha = 1 − ahead/h`. So a 1/144 s or a 1/30 s host frame gives the motion of 1/60 s
//! steps, and a frame exactly one step long shows the newest state (`alpha = 1`).
//!
//! A host frame: level of detail ([`lod`]), each body's `begin_frame` (root motion), then
//! the fixed steps, then `finish_frame`. A fixed step: the colliders' poses over the step
//! (`ColliderFrame`), then the one stage driver (`particles::stages::step`) for every lone
//! body in parallel (rayon; bodies share nothing mutable, so the result is bit-identical for
//! any thread count), then for the group of bodies joined by contact pairs ([`pairs`]) in
//! lockstep. A second family of objects (rigid bodies with joints) steps first, island by
//! island in parallel, through the same stage driver: each island with the particle bodies
//! that collide with its bones or hang on them (its company, `ragdolls`), in the same
//! substeps, the contacts both ways. The bodies outside a company that still meet bones (a
//! body in contact pairs) see them as colliders swept over the step (`attach`).
//!
//! Modules: [`arena`] (generational slots and handle bits), [`pairs`], `lod`, `sleep` (waking
//! sleeping bodies), `pool` (the worker threads, joined on drop).

pub mod arena;
mod attach;
mod lod;
pub mod pairs;
mod pool;
#[cfg(test)]
mod preset_tests;
mod ragdolls;
mod sleep;
mod snapshot;

use std::collections::HashMap;
use std::sync::{Arc, Weak};

use rayon::prelude::*;

pub use pool::WorkerPool;
pub use ragdolls::RagdollEvent;
pub use snapshot::{FORMAT_VERSION as SNAPSHOT_FORMAT_VERSION, MAGIC as SNAPSHOT_MAGIC, Scope};

use crate::cloth::{self, GridKey, GridSpec, MeshSpec};
use crate::collider::{Collider, ColliderFrame};
use crate::error::{Error, MAX_GRAVITY, Result, check_finite, check_non_negative, check_position};
use crate::math::{Vec3, is_finite3};
use crate::particles::stages::{self, StepContext, StepParams};
use crate::particles::lanes::{self, LANES, LaneScratch};
use crate::particles::{Body, Topology};
use crate::ragdoll::{Ragdoll, RagdollDesc};
use crate::rope::{self, RopeSpec};
use crate::solver::constraints::distance_simd::Kernel;
use crate::wind::Wind;
use arena::{Arena, MAX_SLOTS};
use pairs::{BodyId, Pairs};

/// How far past the host's latest input (as a multiple of the time it took to get there
/// from the previous stepping frame) the fixed steps may carry it on: a 240 Hz host on a
/// 60 Hz world needs up to 3; beyond that a jittery frame time would amplify noise.
pub(crate) const MAX_INPUT_EXTRAPOLATION: f64 = 4.0;

/// `WorldSettings::wake_ahead_us` by default: off. Waking ahead costs polling on every
/// worker each frame, and on the only machine measured (a loaded 2-core VM, docs/performance.md,
/// "Frame-paced stepping") its gain was not consistent; [`SUGGESTED_WAKE_AHEAD_US`] to opt in.
pub const DEFAULT_WAKE_AHEAD_US: u32 = 0;
/// A wake-ahead time for a host that opts in: the wake-up it hides was tens of µs where
/// measured; the rest is room for the host's frame-time jitter.
pub const SUGGESTED_WAKE_AHEAD_US: u32 = 500;
/// Beyond 10 ms a 60 Hz game would busy-wait most of its frame.
pub const MAX_WAKE_AHEAD_US: u32 = 10_000;
/// The fixed step rate (Hz) is within [`MIN_FIXED_RATE_HZ`, `MAX_FIXED_RATE_HZ`].
pub const MIN_FIXED_RATE_HZ: f32 = 1.0;
pub const MAX_FIXED_RATE_HZ: f32 = 10_000.0;
/// Substeps per fixed step (the world's and a body's LOD) are within [1, this].
pub const MAX_SUBSTEPS: u32 = crate::particles::MAX_SUBSTEPS;
/// Constraint passes per substep are within [1, this].
pub const MAX_ITERATIONS: u32 = 256;
/// Worker threads are at most this (0: one per core).
pub const MAX_THREADS: u32 = 256;
/// Fixed steps one host step may take are within [1, this].
pub const MAX_STEPS_PER_FRAME: u32 = 1000;

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WorldSettings {
    /// m/s².
    pub gravity: Vec3,
    /// Internal step rate (Hz), independent of the host's frame rate.
    pub fixed_rate_hz: f32,
    /// Substeps per fixed step. Default 8 (a 1/480 s substep at the default 60 Hz).
    pub substeps: u32,
    /// Constraint passes per substep. Default 1. Ropes and strands (chains of compliant
    /// links) are solved directly, so their compliance holds at any count: a hanging chain
    /// of 5–40 particles stretches α·m·g·N(N+1)/2 within 2 % at 30–120 Hz with 8 × 1
    /// (`tests/compliance_at_defaults.rs`). Cloth is projected by colour batches, one
    /// Gauss–Seidel pass per iteration, and stretches by about h²/(α·m) more than its
    /// compliance says with one (h the substep, m the particle mass): within 2 % where
    /// α·m ≥ 50·h², i.e. 2.2e-4 kg·m/N at 60 Hz × 8 (8.7e-4 at 30 Hz, 5.4e-5 at 120 Hz). For a
    /// stiffer compliant cloth raise this: a 16-row strip of 0.01 kg particles at 1e-3 m/N and
    /// 60 Hz is +40 % with 1 iteration, +7 % with 2, +0.3 % with 4. (Rigid cloth, α = 0, is
    /// measured by its max stretch instead; see docs/performance.md.)
    pub iterations: u32,
    /// Worker threads; 0 picks the machine's core count.
    pub thread_count: u32,
    /// At most this many fixed steps per host frame; the rest of a long frame is dropped
    /// (slow motion instead of a spiral of death).
    pub max_steps_per_frame: u32,
    /// Interpolate readback between fixed steps.
    pub interpolate: bool,
    /// Kernel for independent constraint batches; every kernel gives the same bits.
    pub kernel: Kernel,
    /// With two worker threads or more: wake them this long (µs) before the next step is
    /// expected, so that a host stepping once per frame does not pay their wake-up in the
    /// step (`pool`: the [`WorkerPool`] the world steps in applies it). Costs about this much
    /// busy-waiting per worker per frame; 0 (the default) turns it off.
    pub wake_ahead_us: u32,
    /// How ragdolls are solved (`ragdoll::RigidSolver`): fast (the default) or precise.
    pub rigid_solver: crate::ragdoll::RigidSolver,
}

impl Default for WorldSettings {
    fn default() -> Self {
        WorldSettings {
            gravity: Vec3::new(0.0, -9.81, 0.0),
            fixed_rate_hz: 60.0,
            // Small steps: at equal cost, substeps converge better than iterations.
            substeps: 8,
            iterations: 1,
            thread_count: 0,
            max_steps_per_frame: 4,
            interpolate: true,
            kernel: Kernel::detect(),
            wake_ahead_us: DEFAULT_WAKE_AHEAD_US,
            rigid_solver: crate::ragdoll::RigidSolver::Fast,
        }
    }
}

impl WorldSettings {
    pub fn validate(&self) -> Result<()> {
        check_gravity(self.gravity)?;
        check_finite(self.fixed_rate_hz, "fixed_rate_hz")?;
        if !(MIN_FIXED_RATE_HZ..=MAX_FIXED_RATE_HZ).contains(&self.fixed_rate_hz) {
            return Err(Error::invalid(format!("fixed_rate_hz must be within [{MIN_FIXED_RATE_HZ}, {MAX_FIXED_RATE_HZ}] (got {})", self.fixed_rate_hz)));
        }
        if !(1..=MAX_SUBSTEPS).contains(&self.substeps) {
            return Err(Error::invalid(format!("substeps must be within [1, {MAX_SUBSTEPS}] (got {})", self.substeps)));
        }
        if !(1..=MAX_ITERATIONS).contains(&self.iterations) {
            return Err(Error::invalid(format!("iterations must be within [1, {MAX_ITERATIONS}] (got {})", self.iterations)));
        }
        if self.thread_count > MAX_THREADS {
            return Err(Error::invalid(format!("thread_count must be at most {MAX_THREADS} (got {})", self.thread_count)));
        }
        if !(1..=MAX_STEPS_PER_FRAME).contains(&self.max_steps_per_frame) {
            return Err(Error::invalid(format!("max_steps_per_frame must be within [1, {MAX_STEPS_PER_FRAME}] (got {})", self.max_steps_per_frame)));
        }
        if self.wake_ahead_us > MAX_WAKE_AHEAD_US {
            return Err(Error::invalid(format!("wake_ahead_us must be at most {MAX_WAKE_AHEAD_US} (got {})", self.wake_ahead_us)));
        }
        if !self.kernel.supported() {
            return Err(Error::invalid(format!("this CPU cannot run the {:?} kernel", self.kernel)));
        }
        Ok(())
    }
}

/// Gravity: finite, at most `MAX_GRAVITY` (1000 m/s²) in magnitude.
fn check_gravity(g: Vec3) -> Result<()> {
    if !is_finite3(g) {
        return Err(Error::non_finite("gravity is not finite"));
    }
    if g.length() > MAX_GRAVITY {
        return Err(Error::invalid(format!("gravity must be at most {MAX_GRAVITY} m/s² in magnitude (got {g})")));
    }
    Ok(())
}

/// Counters a host can show or test against.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct WorldStats {
    pub body_count: u32,
    pub particle_count: u32,
    pub constraint_count: u32,
    /// Fixed steps taken since creation.
    pub steps: u64,
    /// Fixed steps taken by the last `step` call.
    pub last_frame_steps: u32,
    /// Readback interpolation factor in [0, 1].
    pub alpha: f32,
    /// Bodies the last `step` call had to put back on a finite state (see [`World::events`]).
    pub recovered_bodies: u32,
    /// Ragdolls and their bones.
    pub ragdoll_count: u32,
    pub bone_count: u32,
    /// Ragdolls the last `step` call had to put back on a finite state
    /// (see [`World::ragdoll_events`]).
    pub recovered_ragdolls: u32,
    /// Bodies the last fixed step ran side by side in SIMD lanes (identical small grids;
    /// `particles::lanes`).
    pub lane_bodies: u32,
    /// Particles whose contact search stopped at its cap in the last fixed step: against
    /// their own body (`contact::particle::MAX_SELF_PAIRS_PER_PARTICLE`) and against a paired
    /// body (`pairs::MAX_PAIRS_PER_PARTICLE`).
    pub capped_particles: u32,
}

/// Something the host should know about a body, reported by the `step` call it happened in
/// (or the first one after it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Event {
    pub body: BodyId,
    pub recovery: crate::particles::Recovery,
}

pub struct World {
    pub settings: WorldSettings,
    pub bodies: Arena<Body>,
    /// Ragdolls (rigid bones and joints), stepped in the same fixed steps and substeps.
    pub ragdolls: Arena<Ragdoll>,
    /// Simulated time minus host time (s), in [0, h).
    ahead: f64,
    /// Host time since the last frame that ran fixed steps (s): how long the host's inputs
    /// took to move from where the bodies' `from` holds them to `to`.
    since_steps: f64,
    alpha: f32,
    steps: u64,
    last_frame_steps: u32,
    grid_cache: HashMap<GridKey, Weak<Topology>>,
    pub colliders: Arena<Collider>,
    /// The colliders as the current fixed step sees them (reused buffer).
    collider_frames: Vec<ColliderFrame>,
    /// Pairs of bodies that collide with each other, and their candidates' buffers.
    pairs: Pairs,
    /// Slots of bodies in collision pairs (reused buffer).
    paired: Vec<usize>,
    /// Step bodies one after another on the calling thread (a one-thread world): no rayon,
    /// no thread hop, no allocation.
    pub sequential: bool,
    /// Step identical small grids side by side, one per SIMD lane (`particles::lanes`; the
    /// same bits as stepping them alone — off only to test that).
    pub lanes: bool,
    /// The lane groups' arrays, one per group of [`lanes::LANES`] slots (reused).
    lane_scratch: Vec<LaneScratch>,
    pub wind: Wind,
    /// Simulated time (s).
    pub time: f64,
    /// For LOD; `None` until the host sets it.
    pub camera: Option<Vec3>,
    /// The colliders as the last host frame left them, and this frame's changes (`sleep`).
    last_colliders: Vec<Collider>,
    disturbances: Vec<sleep::Disturbance>,
    /// What the last `step` call has to report (reused buffer).
    events: Vec<Event>,
    /// Pins of particle bodies that follow ragdoll bones (`attach`).
    attachments: Vec<attach::Attachment>,
    /// The ragdolls' step buffers and events (`ragdolls`).
    ragdoll_islands: ragdolls::RagdollIslands,
}

impl World {
    pub fn new(settings: WorldSettings) -> Result<World> {
        settings.validate()?;
        Ok(World {
            settings,
            bodies: Arena::new(MAX_SLOTS),
            ragdolls: Arena::new(MAX_SLOTS),
            ahead: 0.0,
            since_steps: 0.0,
            alpha: 1.0,
            steps: 0,
            last_frame_steps: 0,
            grid_cache: HashMap::new(),
            colliders: Arena::new(MAX_SLOTS),
            collider_frames: Vec::new(),
            pairs: Pairs::default(),
            events: Vec::new(),
            paired: Vec::new(),
            sequential: false,
            lanes: true,
            lane_scratch: Vec::new(),
            wind: Wind::default(),
            time: 0.0,
            camera: None,
            last_colliders: Vec::new(),
            disturbances: Vec::new(),
            attachments: Vec::new(),
            ragdoll_islands: Default::default(),
        })
    }

    /// Changes gravity (m/s²) from the next step on; refused beyond 1000 m/s² in magnitude.
    pub fn set_gravity(&mut self, g: Vec3) -> Result<()> {
        check_gravity(g)?;
        self.settings.gravity = g;
        Ok(())
    }

    /// Where the camera is, for level of detail; refused beyond the world's extent.
    pub fn set_camera(&mut self, p: Vec3) -> Result<()> {
        self.camera = Some(check_position(p, "camera position")?);
        Ok(())
    }

    /// Fixed step length (s).
    pub fn h(&self) -> f64 {
        1.0 / self.settings.fixed_rate_hz as f64
    }

    /// Checks a host frame's length: finite and >= 0 (s). `step` checks it; a host starting an
    /// asynchronous step checks it before the step starts.
    pub fn check_dt(dt: f32) -> Result<()> {
        check_non_negative(dt, "dt").map(|_| ())
    }

    /// Sets the wind field for the next steps.
    pub fn set_wind(&mut self, mut wind: Wind) -> Result<()> {
        wind.validate()?;
        self.wind = wind;
        Ok(())
    }

    /// Readback interpolation factor.
    pub fn alpha(&self) -> f32 {
        self.alpha
    }

    pub fn add_body(&mut self, body: Body) -> Result<(usize, u32)> {
        self.bodies
            .insert(body)
            .ok_or_else(|| Error::too_large(format!("a world holds at most {MAX_SLOTS} bodies")))
    }

    /// A grid cloth; grids of the same size and spacing share one cooked topology.
    pub fn create_grid(&mut self, spec: &GridSpec) -> Result<(usize, u32)> {
        spec.validate()?;
        let key = spec.key();
        let topo = match self.grid_cache.get(&key).and_then(Weak::upgrade) {
            Some(t) => t,
            None => {
                let t = Arc::new(cloth::grid_topology(spec.columns, spec.rows, spec.spacing)?);
                self.grid_cache.retain(|_, w| w.strong_count() > 0);
                self.grid_cache.insert(key, Arc::downgrade(&t));
                t
            }
        };
        let body = cloth::grid_body(spec, topo)?;
        self.add_body(body)
    }

    pub fn create_mesh(&mut self, spec: &MeshSpec) -> Result<(usize, u32)> {
        let body = cloth::mesh_body(spec)?;
        self.add_body(body)
    }

    pub fn create_rope(&mut self, spec: &RopeSpec) -> Result<(usize, u32)> {
        let body = rope::new_rope(spec)?;
        self.add_body(body)
    }

    /// A soft body from a lattice (the chapter's jelly).
    pub fn create_soft_lattice(&mut self, spec: &crate::softbody::LatticeSpec) -> Result<(usize, u32)> {
        let body = crate::softbody::lattice_body(spec)?;
        self.add_body(body)
    }

    /// A soft body from a closed render mesh: a lattice over its voxels, the vertices embedded.
    pub fn create_soft_mesh(&mut self, spec: &crate::softbody::embed::SoftMeshSpec) -> Result<(usize, u32)> {
        let body = crate::softbody::embed::mesh_body(spec)?;
        self.add_body(body)
    }

    /// A balloon: a closed mesh surface holding a gas.
    pub fn create_balloon(&mut self, mesh: &cloth::MeshSpec, soft: crate::softbody::SoftSettings) -> Result<(usize, u32)> {
        let body = crate::softbody::balloon_body(mesh, soft)?;
        self.add_body(body)
    }

    /// A soft body from a tetrahedral mesh.
    pub fn create_soft_tets(&mut self, positions: &[Vec3], tets: &[[u32; 4]], material: crate::particles::Material, soft: crate::softbody::SoftSettings) -> Result<(usize, u32)> {
        let body = crate::softbody::tet_body(positions, tets, material, soft)?;
        self.add_body(body)
    }

    pub fn create_strands(&mut self, spec: &crate::strands::StrandsSpec) -> Result<(usize, u32)> {
        let body = crate::strands::new_strands(spec)?;
        self.add_body(body)
    }

    pub fn create_cape(&mut self, spec: &cloth::generators::CapeSpec) -> Result<(usize, u32)> {
        let body = cloth::generators::cape(spec)?;
        self.add_body(body)
    }

    pub fn create_skirt(&mut self, spec: &cloth::generators::SkirtSpec) -> Result<(usize, u32)> {
        let body = cloth::generators::skirt(spec)?;
        self.add_body(body)
    }

    /// A ragdoll in its bind pose, at rest.
    pub fn create_ragdoll(&mut self, desc: &RagdollDesc) -> Result<(usize, u32)> {
        let r = Ragdoll::new(desc)?;
        self.ragdolls
            .insert(r)
            .ok_or_else(|| Error::too_large(format!("a world holds at most {MAX_SLOTS} ragdolls")))
    }

    /// Removes a ragdoll; particle bodies attached to it (pins, bone colliders) are released.
    pub fn remove_ragdoll(&mut self, slot: usize, serial: u32) -> Option<Ragdoll> {
        let r = self.ragdolls.remove(slot, serial)?;
        self.unlink_ragdoll((slot, serial));
        Some(r)
    }

    /// Removes a body and any collision pairs it was part of.
    pub fn remove_body(&mut self, slot: usize, serial: u32) -> Option<Body> {
        let body = self.bodies.remove(slot, serial)?;
        self.pairs.remove_body((slot, serial));
        self.mark_paired();
        self.unlink_body((slot, serial));
        Some(body)
    }

    /// Turns particle contact between two different bodies on or off.
    /// A body in a pair keeps its thickness within its spacing (`Body::check_self_collision`):
    /// a pair with a thicker body is refused, naming it.
    pub fn set_body_pair(&mut self, a: BodyId, b: BodyId, enabled: bool) -> Result<()> {
        if enabled {
            for id in [a, b] {
                if let Some(body) = self.bodies.get_mut(id.0, id.1) {
                    let was = std::mem::replace(&mut body.paired, true);
                    let checked = body.check_self_collision(&body.material);
                    body.paired = was;
                    checked?;
                }
            }
        }
        let bodies = &self.bodies;
        self.pairs.set(a, b, enabled, |(slot, serial)| bodies.get(slot, serial).is_some())?;
        self.mark_paired();
        Ok(())
    }

    /// Each body's `paired` flag from the pair list.
    fn mark_paired(&mut self) {
        for (slot, (_, body)) in self.bodies.slots_mut().iter_mut().enumerate().filter_map(|(i, e)| e.as_mut().map(|e| (i, e))) {
            body.paired = self.pairs.involves(slot);
        }
    }

    pub fn add_collider(&mut self, c: Collider) -> Result<(usize, u32)> {
        self.colliders
            .insert(c)
            .ok_or_else(|| Error::too_large(format!("a world holds at most {MAX_SLOTS} colliders")))
    }

    /// Fills `collider_frames` with the colliders' poses over the fixed step `[t0, t1]` of the frame.
    fn prepare_colliders(&mut self, t0: f32, t1: f32) {
        self.collider_frames.clear();
        for c in self.colliders.values() {
            self.collider_frames.push(ColliderFrame::of(c, t0, t1));
        }
    }

    /// One fixed step of every body, through the one stage driver (`particles::stages::step`):
    /// bodies on their own in parallel, each with its level of detail; then each group of
    /// bodies joined by collision pairs in lockstep, stage by stage, at the world's rate.
    fn fixed_step(&mut self, params: &StepParams) {
        // Ragdolls and their companies stepped just before (`step_ragdolls`); the bodies
        // outside a company that meet bones follow them over the step.
        self.follow_ragdolls(params);
        self.pairs.members(&mut self.paired);
        let paired = &self.paired;
        let ctx = StepContext { colliders: &self.collider_frames, wind: &self.wind };
        let own = |b: &Body| b.lod_substeps.map_or(*params, |n| params.with_substeps(n));
        let step_one = |(slot, entry): (usize, &mut Option<(u32, Body)>)| {
            if let Some((_, body)) = entry
                && lanes::steps_alone(body, slot, paired)
            {
                stages::step(body, own, &ctx);
            }
        };
        let slots = self.bodies.slots_mut();
        if self.lanes {
            // Slots in groups of eight: bodies of one group that share a grid and its
            // settings step side by side in lanes, the others alone.
            let groups = slots.len().div_ceil(LANES);
            if self.lane_scratch.len() < groups {
                self.lane_scratch.resize_with(groups, LaneScratch::default);
            }
            let sequential = self.sequential;
            let step_group = |(g, (group, scratch)): (usize, (&mut [Option<(u32, Body)>], &mut LaneScratch))| {
                lanes::step_slots(g * LANES, group, scratch, paired, &own, &ctx, sequential);
            };
            let scratch = &mut self.lane_scratch[..groups];
            if sequential {
                slots.chunks_mut(LANES).zip(scratch.iter_mut()).enumerate().for_each(step_group);
            } else {
                slots.par_chunks_mut(LANES).zip(scratch.par_iter_mut()).enumerate().for_each(step_group);
            }
        } else if self.sequential {
            slots.iter_mut().enumerate().for_each(step_one);
        } else {
            slots.par_iter_mut().enumerate().for_each(step_one);
        }
        if !self.pairs.is_empty() {
            let mut group = self.pairs.group(self.bodies.slots_mut(), &self.paired);
            stages::step(&mut group, |_| *params, &ctx);
        }
    }

    /// Advances host time by `dt` seconds. Must be called inside the world's pool (or any
    /// rayon context) for parallelism; the result does not depend on the thread count.
    pub fn step(&mut self, dt: f32) -> Result<()> {
        Self::check_dt(dt)?;
        let h = self.h();
        // Tolerance: a host frame within 0.1% of a whole number of steps counts as whole.
        let tol = 1e-3 * h;
        self.ahead -= dt as f64;
        self.since_steps += dt as f64;
        let behind = self.ahead;
        let mut k = 0u32;
        while self.ahead < -tol {
            if k == self.settings.max_steps_per_frame {
                self.ahead = 0.0;
                break;
            }
            self.ahead += h;
            k += 1;
        }
        if self.ahead.abs() <= tol {
            self.ahead = 0.0;
        }
        // Where the steps fall on the path of the host's inputs, from the last frame that
        // stepped (0) to this one (1): they start where simulated time stood and end where it
        // will stand, up to a step ahead of host time — there the inputs are carried on at
        // their velocity (pins, skinned pose, colliders), so that they are where the host
        // will put them when its time catches up. Capped at `MAX_INPUT_EXTRAPOLATION`.
        let span = self.since_steps;
        let (pose_t0, pose_t1) = if k > 0 {
            self.since_steps = 0.0;
            (((1.0 + behind / span).max(0.0)) as f32, (1.0 + (self.ahead / span).min(MAX_INPUT_EXTRAPOLATION)) as f32)
        } else {
            (0.0, 1.0)
        };
        // A jump of a body's inputs (pins, skinned pose) teleports it in the frame the host
        // made it, stepped or not, so readback never shows the pins torn from the cloth.
        // First the anchors (a vehicle's motion, before the inputs that move with it are
        // compared with last frame's), then a jump of the inputs.
        let frame_time = (k as f64 * h) as f32;
        let teleport = |entry: &mut Option<(u32, Body)>| {
            if let Some((_, body)) = entry {
                body.carry_with_anchor(frame_time, span as f32, k > 0);
                body.teleport_with_inputs(span as f32);
            }
        };
        for r in self.ragdolls.values_mut() {
            r.carry_with_anchor(frame_time, span as f32, k > 0);
        }
        if self.sequential {
            self.bodies.slots_mut().iter_mut().for_each(teleport);
        } else {
            self.bodies.slots_mut().par_iter_mut().for_each(teleport);
        }
        if k > 0 {
            // Step times are those of this frame's fixed steps.
            self.bodies.values_mut().for_each(|b| b.step_ns = 0);
            self.ragdolls.values_mut().for_each(|r| r.step_ns = 0);
            self.wake_bodies();
            self.update_lod();
            self.ragdolls.values_mut().for_each(|r| r.begin_frame(pose_t0, pose_t1));
            let begin = |entry: &mut Option<(u32, Body)>| {
                // A sleeping body's root did not move (it would have woken): nothing to apply,
                // and its state is left bit for bit as it is.
                if let Some((_, body)) = entry
                    && !body.is_asleep()
                {
                    // A frozen body is carried with its pins there and not stepped.
                    body.begin_frame(frame_time, pose_t1);
                }
            };
            if self.sequential {
                self.bodies.slots_mut().iter_mut().for_each(begin);
            } else {
                self.bodies.slots_mut().par_iter_mut().for_each(begin);
            }
        }
        for i in 0..k {
            let s = &self.settings;
            let params = StepParams {
                h: (h / s.substeps as f64) as f32,
                substeps: s.substeps,
                iterations: s.iterations,
                gravity: s.gravity,
                pin_t0: i as f32 / k as f32,
                pin_t1: (i + 1) as f32 / k as f32,
                pose_t0: pose_t0 + (pose_t1 - pose_t0) * (i as f32 / k as f32),
                pose_t1: pose_t0 + (pose_t1 - pose_t0) * ((i + 1) as f32 / k as f32),
                time: self.time as f32,
                kernel: s.kernel,
                parallel: !self.sequential,
                rigid_solver: s.rigid_solver,
            };
            self.prepare_colliders(params.pose_t0, params.pose_t1);
            self.step_ragdolls(&params);
            self.fixed_step(&params);
            self.time += h;
        }
        if k > 0 {
            self.bodies.values_mut().for_each(Body::finish_frame);
            self.ragdolls.values_mut().for_each(Ragdoll::finish_frame);
            self.colliders.values_mut().for_each(|c| c.from = c.to);
        }
        self.collect_events();
        self.collect_ragdoll_events();
        self.steps += k as u64;
        self.last_frame_steps = k;
        self.alpha = if self.settings.interpolate { (1.0 - self.ahead / h).clamp(0.0, 1.0) as f32 } else { 1.0 };
        if !self.attachments.is_empty() {
            self.show_attached_pins();
        }
        Ok(())
    }

    /// The events of the last `step` call: bodies that had to be put back on a finite state.
    pub fn events(&self) -> &[Event] {
        &self.events
    }

    /// Collects the bodies' unreported recoveries as this step's events.
    fn collect_events(&mut self) {
        self.events.clear();
        for (slot, entry) in self.bodies.slots_mut().iter_mut().enumerate() {
            if let Some((serial, body)) = entry
                && let Some(recovery) = body.take_recovery()
            {
                self.events.push(Event { body: (slot, *serial), recovery });
            }
        }
    }

    /// The last fixed step's contact search between paired bodies: (candidates found,
    /// particles whose search stopped at `pairs::MAX_PAIRS_PER_PARTICLE`).
    pub fn pair_contact_counts(&self) -> (usize, usize) {
        self.pairs.work()
    }

    pub fn stats(&self) -> WorldStats {
        let mut st = WorldStats { steps: self.steps, last_frame_steps: self.last_frame_steps, alpha: self.alpha, recovered_bodies: self.events.len() as u32, ..Default::default() };
        for b in self.bodies.values() {
            st.body_count += 1;
            st.particle_count += b.particle_count() as u32;
            st.constraint_count += b.topology.constraints.len() as u32;
            st.lane_bodies += u32::from(b.lane_step);
            st.capped_particles += b.self_capped() as u32 + b.mesh_contact_work().capped;
        }
        st.capped_particles += self.pairs.work().1 as u32;
        for r in self.ragdolls.values() {
            st.ragdoll_count += 1;
            st.bone_count += r.bone_count() as u32;
        }
        st.recovered_ragdolls = self.ragdoll_islands.events.len() as u32;
        st
    }
}
