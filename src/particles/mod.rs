//! The particle body that cloth, ropes and strands (and next, soft bodies) share: a shared
//! cooked [`Topology`] plus per-instance state.
//!
//! Settings vs state, after Jolt's `SoftBodySharedSettings` / `SoftBodyMotionProperties`
//! and NvCloth's `Fabric` / `Cloth`: the topology is `Arc`-shared, so many instances of one
//! design keep one copy (a body that tears takes its own); [`Body`] owns its particle state,
//! its settings ([`settings`]), its pins and its character driving ([`character`]).
//!
//! Per-particle state between steps: `x`, `x_prev`, `v`, `x_step_start`, `created` (12 B
//! each), `w`, `w_free`, `pin_slot` (4 B each) — 72 B — plus what the features in use add
//! (skinning, limits, tethers, wind accelerations, SIMD scratch; [`Body::memory`] counts it
//! all). During a step a grid body keeps positions, start positions and velocities as one
//! array per component instead (`solver::layout::soa`), and a large one shares its passes
//! with a second thread (`two_threads.rs`). The stages of a step are in [`stages`].
//!
//! The modules: [`settings`], [`topology`], [`stages`] (the one stage order and its
//! constraint groups), `two_threads` (the same stages in two bands of rows), [`character`],
//! [`skin`], [`tear`], [`readback`], [`sleep`].

pub mod anchor;
pub mod character;
pub(crate) mod follow;
mod mass;
pub use mass::{MAX_MASS_SCALE, MAX_SELF_THICKNESS, MIN_MASS_SCALE};
pub mod presets;
pub mod readback;
pub mod settings;
pub mod skin;
pub mod sleep;
pub mod soft;
pub mod embedding;
pub(crate) mod lanes;
pub mod stages;
mod state;
pub mod tear;
pub mod topology;
mod two_threads;

use std::sync::Arc;

pub use character::Root;
pub use presets::{MaterialPreset, PresetBody};
pub use settings::{Dynamics, Lod, MAX_SUBSTEPS, Material};
pub use stages::{StepContext, StepParams};
pub use topology::Topology;

use crate::error::{Error, Result, check_positions, check_transform, try_filled};
use crate::geometry::Pose;
use crate::math::{Mat4, Quat, Vec3, is_finite3};
use crate::particles::skin::Skin;
use crate::solver::constraints::distance_simd::Packed;
use crate::solver::constraints::motion::MotionLimits;
use crate::solver::constraints::tether::Tethers;
use crate::solver::contact::particle::CellScratch;
use crate::solver::contact::triangle::TriContact;
use crate::solver::layout::soa::SoaState;

/// Why a body was put back on a finite state (reported once, in the world's events).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u32)]
pub enum Recovery {
    /// A step produced a non-finite state, or a coordinate or speed beyond ±1e7 (m, m/s): the
    /// step was rolled back and the body stopped.
    StepNotFinite = 1,
    /// The body's state or inputs overflowed (e.g. extreme but accepted inputs): it was put
    /// back on its pose at rest.
    StateNotFinite = 2,
}

/// What a body is; selects nothing in the solver, only what the host is told.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u32)]
pub enum BodyKind {
    Cloth = 1,
    Rope = 2,
    Strands = 3,
    SoftBody = 4,
}

/// Pinned particles, the targets the host gave them and the path each follows during the
/// fixed steps of the current host frame.
///
/// Simulated time runs up to one fixed step ahead of host time (see `world`), so the path of
/// a frame's steps ends where the target will be at the end of the last step: `to` carried
/// on at the target's velocity since the last frame that stepped (`from` → `to`). It starts
/// where the pin is (`start`), so the pin's velocity never jumps. Readback shows a pinned
/// vertex at `to`, the target the host set for this frame, at any host rate.
#[derive(Clone, Debug, Default)]
pub struct Pins {
    pub index: Vec<u32>,
    /// The target as of the last host frame that ran fixed steps.
    pub from: Vec<Vec3>,
    /// The target the host set for this frame.
    pub to: Vec<Vec3>,
    /// Where this frame's fixed steps take the pin: from `start` (where it is) to `end`.
    pub start: Vec<Vec3>,
    pub end: Vec<Vec3>,
}

pub struct Body {
    pub(crate) kind: BodyKind,
    pub(crate) topology: Arc<Topology>,
    pub(crate) material: Material,
    pub(crate) dynamics: Dynamics,
    pub(crate) lod: Lod,
    pub(crate) x: Vec<Vec3>,
    pub(crate) x_prev: Vec<Vec3>,
    pub(crate) v: Vec<Vec3>,
    /// Positions at the start of the last fixed step, for interpolated readback.
    pub(crate) x_step_start: Vec<Vec3>,
    /// Positions as created (the rest pose skinning refers to).
    pub(crate) created: Vec<Vec3>,
    /// Inverse mass in use (0 when pinned).
    pub(crate) w: Vec<f32>,
    /// Inverse mass when not pinned.
    pub(crate) w_free: Vec<f32>,
    pub(crate) lambda: Vec<f32>,
    /// Per particle, the part of this substep's chain corrections that rounding to the
    /// positions withheld (the exact position is `x + carry`; see
    /// [`distance::project_chain`](crate::solver::constraints::distance::project_chain)).
    /// Zero between substeps (the velocity update takes it); empty until a chain needs it.
    pub(crate) carry: Vec<Vec3>,
    /// `carry` holds something this substep.
    pub(crate) carried: bool,
    pub(crate) pins: Pins,
    /// Particle → slot in `pins`, `u32::MAX` when free.
    pin_slot: Vec<u32>,
    pub(crate) skin: Option<Skin>,
    pub(crate) limits: MotionLimits,
    pub(crate) tethers: Option<Tethers>,
    pub(crate) root: Option<Root>,
    /// The moving platform the body rides in (`particles::anchor`).
    pub(crate) anchor: Option<crate::step::Anchor>,
    /// A soft body's volume constraints and shape matching (`softbody`).
    pub(crate) soft: Option<Box<soft::Soft>>,
    /// Size factor from the root's scale (1 as created).
    pub(crate) scale: f32,
    /// Set by the world each frame from the LOD settings.
    pub(crate) frozen: bool,
    pub(crate) visible: bool,
    /// Substeps this body runs per fixed step (from LOD).
    pub(crate) lod_substeps: Option<u32>,
    /// Substeps of the body's last fixed step.
    pub(crate) last_substeps: u32,
    /// Wall time of the body's share of the last host frame that ran fixed steps (ns); see
    /// [`Body::step_time_ns`].
    pub(crate) step_ns: u64,
    /// The last fixed step ran this body side by side with others in SIMD lanes (`lanes`).
    pub(crate) lane_step: bool,
    /// Bumped whenever the host's index buffer must be read again (tearing).
    pub(crate) topology_version: u32,
    /// Times a non-finite state was detected and rolled back.
    pub(crate) recoveries: u32,
    /// The last recovery not yet reported (see [`Body::take_recovery`]).
    pending_recovery: Option<Recovery>,
    /// In a collision pair with another body (kept by the world): its thickness is then bound
    /// to its spacing, as a self-colliding body's (`check_self_collision`).
    pub(crate) paired: bool,
    /// Sleeping state ([`sleep`]).
    pub(crate) sleep: sleep::Sleep,
    /// Colliders (indices into the step's collider list) near this body during the step.
    candidates: Vec<u32>,
    /// Self-collision candidate pairs for the step.
    self_pairs: Vec<[u32; 2]>,
    /// Particles whose self-collision query stopped at
    /// `contact::particle::MAX_SELF_PAIRS_PER_PARTICLE` in the last step.
    self_capped: usize,
    /// The last step's contacts with mesh colliders: queries and triangle tests over its
    /// substeps, and the most particles of one substep whose query stopped at
    /// `contact::mesh::MAX_TESTS_PER_QUERY`.
    mesh_work: crate::solver::contact::mesh::MeshWork,
    /// Self-collision particle–triangle candidates for the step, and scratch pairs for them.
    self_tris: Vec<TriContact>,
    far_pairs: Vec<[u32; 2]>,
    scratch: CellScratch,
    /// External accelerations (wind) for the current step.
    accel: Vec<Vec3>,
    /// Scratch for normals.
    normal_acc: Vec<Vec3>,
    /// Positions and inverse masses packed for the SIMD kernels (16 B per particle).
    packed: Vec<Packed>,
    /// The state as structure of arrays, for grid bodies during a step (`solver::layout::soa`).
    soa: SoaState,
    /// How this fixed step's stages lay out the state, chosen in `begin_step`.
    plan: stages::Plan,
    /// Substeps (bit `s`) whose collider contacts all have a structure-of-arrays version.
    soa_colliders: u64,
    /// Other objects whose colliders this body meets (`follow`): ragdolls' bone shapes.
    pub(crate) collider_owners: Vec<u32>,
    /// The bones this body meets both ways in the current fixed step, stepping in company
    /// with their ragdolls (`follow`); empty otherwise.
    pub(crate) bones: Vec<follow::BoneCollider>,
    /// The body steps in company with ragdolls this fixed step (one plan on one thread).
    pub(crate) in_company: bool,
    /// Bending by dihedral angles, when the material has a bending stiffness (`mass.rs`).
    pub(crate) dihedral: Option<Box<crate::solver::constraints::dihedral::Dihedrals>>,
    /// Membrane strain energy per triangle, when the material has a stretch stiffness
    /// (`mass.rs`).
    pub(crate) membrane: Option<Box<crate::solver::constraints::membrane::Membranes>>,
    /// A painted multiplier of each particle's mass share under a density (`mass.rs`).
    pub(crate) mass_scale: Option<Vec<f32>>,
    /// Largest distance a particle can travel in the current fixed step (m), for broad phases.
    pub(crate) step_margin: f32,
    /// A step on two threads (`two_threads.rs`): the passes of one substep, the dependencies
    /// between them, and which passes reach into the other band's rows.
    band_passes: Vec<two_threads::Pass>,
    band_back: Vec<[Option<usize>; 2]>,
    band_reach: Vec<[bool; 2]>,
}

/// A distance constraint class's compliance where another energy replaces it (m/N): the
/// distance bend under dihedral bending, all three classes under the membrane and on a
/// Neo-Hookean soft body. Its multiplier update is 0 to within f32 (`α̃ = α/h²` stays finite
/// for any substep the world accepts).
const DISTANCE_OFF: f32 = 1e30;

impl Body {
    /// A body at `positions` with the given free inverse masses (0 entries start pinned).
    pub fn new(kind: BodyKind, topology: Arc<Topology>, material: Material, positions: Vec<Vec3>, w_free: Vec<f32>) -> Result<Body> {
        let n = topology.particle_count;
        debug_assert_eq!(positions.len(), n);
        let mut body = Body {
            kind,
            material,
            dynamics: Dynamics::default(),
            lod: Lod::default(),
            x_prev: positions.clone(),
            x_step_start: positions.clone(),
            created: positions.clone(),
            v: try_filled(n, Vec3::ZERO, "velocities")?,
            w: w_free.clone(),
            lambda: try_filled(topology.constraints.len(), 0.0, "multipliers")?,
            carry: Vec::new(),
            carried: false,
            pin_slot: try_filled(n, u32::MAX, "pin slots")?,
            pins: Pins::default(),
            x: positions,
            w_free,
            topology,
            skin: None,
            limits: MotionLimits::default(),
            tethers: None,
            root: None,
            anchor: None,
            soft: None,
            scale: 1.0,
            frozen: false,
            visible: true,
            lod_substeps: None,
            last_substeps: 0,
            step_ns: 0,
            lane_step: false,
            topology_version: 0,
            recoveries: 0,
            pending_recovery: None,
            paired: false,
            sleep: sleep::Sleep::default(),
            candidates: Vec::new(),
            self_pairs: Vec::new(),
            self_capped: 0,
            mesh_work: Default::default(),
            self_tris: Vec::new(),
            far_pairs: Vec::new(),
            scratch: CellScratch::default(),
            accel: Vec::new(),
            normal_acc: Vec::new(),
            packed: Vec::new(),
            soa: SoaState::default(),
            plan: stages::Plan::Vec3,
            soa_colliders: 0,
            collider_owners: Vec::new(),
            bones: Vec::new(),
            in_company: false,
            dihedral: None,
            membrane: None,
            mass_scale: None,
            step_margin: 0.0,
            band_passes: Vec::new(),
            band_back: Vec::new(),
            band_reach: Vec::new(),
        };
        for i in 0..n {
            if body.w_free[i] == 0.0 {
                body.w_free[i] = 1.0 / material.particle_mass;
                body.pin_particle(i);
            }
        }
        Ok(body)
    }

    pub fn particle_count(&self) -> usize {
        self.x.len()
    }

    /// Particle velocities after the last fixed step (m/s).
    pub fn particle_velocities(&self) -> &[Vec3] {
        &self.v
    }

    /// Moves every particle to `x` (one per particle, within the world; pinned particles stay
    /// on their pins), keeping velocities: a deformed state to start from. Wakes the body.
    pub fn set_positions(&mut self, x: &[Vec3]) -> Result<()> {
        if x.len() != self.x.len() {
            return Err(Error::invalid(format!("set_positions needs {} positions (one per particle), got {}", self.x.len(), x.len())));
        }
        check_positions(x, "positions")?;
        for i in 0..x.len() {
            if self.pin_slot[i] == u32::MAX {
                self.x[i] = x[i];
                self.x_prev[i] = x[i];
                self.x_step_start[i] = x[i];
            }
        }
        self.wake();
        Ok(())
    }

    /// Sets every particle's velocity (m/s; one per particle, finite, at most 1e4 m/s per
    /// axis); pinned particles keep following their pins. Wakes the body.
    pub fn set_velocities(&mut self, v: &[Vec3]) -> Result<()> {
        if v.len() != self.x.len() {
            return Err(Error::invalid(format!("set_velocities needs {} velocities (one per particle), got {}", self.x.len(), v.len())));
        }
        if let Some(i) = v.iter().position(|u| !is_finite3(*u)) {
            return Err(Error::non_finite(format!("velocity {i} is not finite")));
        }
        if let Some(i) = v.iter().position(|u| u.abs().max_element() > 1e4) {
            return Err(Error::invalid(format!("velocity {i} ({}) must be within ±1e4 m/s on each axis", v[i])));
        }
        self.v.copy_from_slice(v);
        self.wake();
        Ok(())
    }

    /// The cooked topology this body runs (shared with every body of its design until it tears).
    pub fn topology(&self) -> &Arc<Topology> {
        &self.topology
    }

    /// The work the last step's self-collision search found: particle pairs, and particle–
    /// triangle contacts with the body's own surface (0, 0 without self-collision).
    pub fn self_contact_counts(&self) -> (usize, usize) {
        (self.self_pairs.len(), self.self_tris.len())
    }

    /// Particles whose self-collision search stopped at
    /// [`MAX_SELF_PAIRS_PER_PARTICLE`](crate::solver::contact::particle::MAX_SELF_PAIRS_PER_PARTICLE)
    /// pairs in the last step (0 while the body's contacts hold).
    pub fn self_capped(&self) -> usize {
        self.self_capped
    }

    /// The work of the last step's contacts with mesh colliders: particle queries and
    /// triangle tests over its substeps, and the most particles of one substep whose query
    /// stopped at [`MAX_TESTS_PER_QUERY`](crate::solver::contact::mesh::MAX_TESTS_PER_QUERY)
    /// triangles (0 unless the body's thickness reaches across many of a mesh's triangles).
    pub fn mesh_contact_work(&self) -> crate::solver::contact::mesh::MeshWork {
        self.mesh_work
    }

    /// Particle positions after the last fixed step (m).
    pub fn positions(&self) -> &[Vec3] {
        &self.x
    }

    /// Particle inverse masses in use (1/kg; 0 when pinned).
    pub fn inverse_masses(&self) -> &[f32] {
        &self.w
    }

    /// Puts NaN into the state, as an overflow would (the ABI's debug build tests recovery
    /// with it).
    #[cfg(feature = "debug-panic")]
    pub fn poison_for_tests(&mut self) {
        if let Some(x) = self.x.first_mut() {
            *x = Vec3::NAN;
        }
        self.wake();
    }

    /// Makes the next step overflow inside itself, as an extreme input would: the first free
    /// particle's inverse mass becomes infinite, so its first constraint correction is
    /// `0 · ∞ = NaN` mid-substep (tests of NaN containment, `tests/nan_containment.rs`).
    #[cfg(feature = "debug-panic")]
    pub fn poison_in_step_for_tests(&mut self) {
        if let Some(i) = self.w.iter().position(|&w| w > 0.0) {
            self.w[i] = f32::INFINITY;
        }
        self.wake();
    }

    /// The recovery since the last call, if any (the world turns it into an event).
    pub fn take_recovery(&mut self) -> Option<Recovery> {
        self.pending_recovery.take()
    }

    /// Wall time (ns) the body's fixed steps took in the last host frame that ran any: a body
    /// stepped alone is timed alone; bodies stepped together (side by side in SIMD lanes, or
    /// in lockstep as a collision pair) share their group's time by particle count. Includes
    /// the body's collisions and its part of the step's set-up; not the world's broad phase,
    /// the ragdolls or the host's calls. 0 for a body frozen, asleep or created since. A
    /// measurement for profiling, never an input to the simulation.
    pub fn step_time_ns(&self) -> u64 {
        self.step_ns
    }

    /// Adds the body's share of `elapsed`, the time of a step of bodies of `total` particles
    /// in all, by its particle count ([`Body::step_time_ns`]).
    pub(crate) fn charge_time(&mut self, elapsed: std::time::Duration, total: usize) {
        let ns = elapsed.as_nanos();
        let share = if total == 0 { 0 } else { ns * self.particle_count() as u128 / total as u128 };
        self.step_ns = self.step_ns.saturating_add(u64::try_from(share).unwrap_or(u64::MAX));
    }

    /// Frozen by level of detail this frame.
    pub fn is_frozen(&self) -> bool {
        self.frozen
    }

    /// Substeps level of detail gives this body per fixed step (`None`: the world's).
    pub fn lod_substeps(&self) -> Option<u32> {
        self.lod_substeps
    }

    pub fn pinned_count(&self) -> usize {
        self.pins.index.len()
    }

    pub fn material(&self) -> &Material {
        &self.material
    }

    /// Changes the material; free inverse masses follow the new particle mass, or with a
    /// density the body's measure (`mass`). A density that gives a particle a mass out of
    /// range is refused and changes nothing.
    pub fn set_material(&mut self, m: Material) -> Result<()> {
        m.validate()?;
        self.check_self_collision(&m)?;
        let changed = m != self.material;
        if m.density > 0.0 || self.material.density > 0.0 {
            let old = self.material;
            self.material = m;
            if let Err(e) = self.apply_masses() {
                self.material = old;
                return Err(e);
            }
        } else {
            let scale = self.material.particle_mass / m.particle_mass;
            for i in 0..self.w_free.len() {
                self.w_free[i] *= scale;
                if self.pin_slot[i] == u32::MAX {
                    self.w[i] = self.w_free[i];
                }
            }
        }
        self.material = m;
        self.prepare_triangle_energies();
        self.prepare_solid();
        if changed {
            self.wake();
        }
        Ok(())
    }

    /// Compliance per distance constraint class, as the step uses it: the material's, except
    /// that a class is off (a compliance too large to act) where another energy replaces
    /// it: the distance bend under dihedral bending, all three under the membrane (whose
    /// bending is then `bend_stiffness` alone) and on a soft body whose tetrahedra are a
    /// Neo-Hookean solid (a rigid edge would override its elasticity; the group does not run
    /// then).
    pub(crate) fn compliances(&self) -> [f32; crate::solver::constraints::distance::KIND_COUNT] {
        use crate::solver::constraints::distance::{KIND_BEND, KIND_SHEAR, KIND_STRETCH};
        let mut c = self.material.compliances();
        if self.is_solid() {
            return [DISTANCE_OFF; crate::solver::constraints::distance::KIND_COUNT];
        }
        if self.dihedral.is_some() || self.membrane.is_some() {
            c[KIND_BEND as usize] = DISTANCE_OFF;
        }
        if self.membrane.is_some() {
            c[KIND_STRETCH as usize] = DISTANCE_OFF;
            c[KIND_SHEAR as usize] = DISTANCE_OFF;
        }
        c
    }

    /// A soft body whose tetrahedra are a Neo-Hookean solid (the material's Young's modulus
    /// above 0): no volume constraints, shape matching or distance constraints run.
    pub(crate) fn is_solid(&self) -> bool {
        self.soft.as_ref().is_some_and(|s| s.solids.is_some())
    }

    pub fn set_dynamics(&mut self, d: Dynamics) -> Result<()> {
        d.validate()?;
        if d != self.dynamics {
            self.wake();
        }
        self.dynamics = d;
        Ok(())
    }

    pub fn set_lod(&mut self, l: Lod) -> Result<()> {
        l.validate()?;
        self.lod = l;
        Ok(())
    }

    fn pin_particle(&mut self, p: usize) {
        if self.pin_slot[p] == u32::MAX {
            self.wake();
            self.pin_slot[p] = self.pins.index.len() as u32;
            self.pins.index.push(p as u32);
            self.pins.from.push(self.x[p]);
            self.pins.to.push(self.x[p]);
            self.pins.start.push(self.x[p]);
            self.pins.end.push(self.x[p]);
            self.w[p] = 0.0;
            self.v[p] = Vec3::ZERO;
        }
    }

    fn unpin_particle(&mut self, p: usize) {
        let slot = self.pin_slot[p];
        if slot == u32::MAX {
            return;
        }
        self.wake();
        let slot = slot as usize;
        self.pins.index.swap_remove(slot);
        self.pins.from.swap_remove(slot);
        self.pins.to.swap_remove(slot);
        self.pins.start.swap_remove(slot);
        self.pins.end.swap_remove(slot);
        if slot < self.pins.index.len() {
            self.pin_slot[self.pins.index[slot] as usize] = slot as u32;
        }
        self.pin_slot[p] = u32::MAX;
        self.w[p] = self.w_free[p];
    }

    pub fn is_pinned(&self, p: usize) -> bool {
        self.pin_slot[p] != u32::MAX
    }

    /// Checks every host vertex index, so a call either applies fully or not at all.
    fn check_vertices(&self, vertices: &[u32]) -> Result<()> {
        let n = self.topology.vertex_count();
        match vertices.iter().find(|&&v| v as usize >= n) {
            Some(v) => Err(Error::out_of_range(format!("vertex index {v} out of range (count {n})"))),
            None => Ok(()),
        }
    }

    #[inline]
    fn particle(&self, vertex: u32) -> usize {
        if let Some(e) = &self.topology.embedding {
            return e.main_particle(vertex as usize);
        }
        self.topology.vertex_to_particle.as_ref().map_or(vertex as usize, |m| m[vertex as usize] as usize)
    }

    /// Pins the given vertices where they are.
    pub fn pin(&mut self, vertices: &[u32]) -> Result<()> {
        self.check_vertices(vertices)?;
        for &v in vertices {
            self.pin_particle(self.particle(v));
        }
        Ok(())
    }

    /// Releases the given vertices; they keep the velocity of their pin path.
    pub fn unpin(&mut self, vertices: &[u32]) -> Result<()> {
        self.check_vertices(vertices)?;
        for &v in vertices {
            self.unpin_particle(self.particle(v));
        }
        Ok(())
    }

    /// Sets where pinned vertices should be at the end of the next step; a vertex not yet
    /// pinned becomes pinned. Validates everything before changing anything.
    pub fn set_pin_targets(&mut self, vertices: &[u32], targets: &[Vec3]) -> Result<()> {
        if vertices.len() != targets.len() {
            return Err(Error::invalid(format!(
                "pin target count {} differs from index count {}",
                targets.len(),
                vertices.len()
            )));
        }
        check_positions(targets, "pin target")?;
        self.check_vertices(vertices)?;
        for (&v, t) in vertices.iter().zip(targets) {
            let p = self.particle(v);
            self.pin_particle(p);
            self.pins.to[self.pin_slot[p] as usize] = *t;
        }
        Ok(())
    }

    /// Applies `f` to every position the body keeps: state, pin paths (their targets too
    /// when `targets`).
    fn move_all(&mut self, targets: bool, f: impl Fn(Vec3) -> Vec3) {
        for list in [&mut self.x, &mut self.x_prev, &mut self.x_step_start, &mut self.pins.from, &mut self.pins.start, &mut self.pins.end] {
            list.iter_mut().for_each(|p| *p = f(*p));
        }
        if targets {
            self.pins.to.iter_mut().for_each(|p| *p = f(*p));
        }
    }

    /// Moves the whole body rigidly by `m`, velocities rotated with it, so nothing flies off.
    pub fn teleport(&mut self, m: &Mat4) -> Result<()> {
        check_transform(m, "teleport matrix")?;
        let r = glam::Mat3::from_mat4(*m);
        for (i, col) in [r.x_axis, r.y_axis, r.z_axis].iter().enumerate() {
            if (col.length() - 1.0).abs() > 1e-3 || !is_finite3(*col) {
                return Err(Error::invalid(format!("teleport matrix column {i} is not a unit vector: the transform must be rigid")));
            }
        }
        if (r.x_axis.dot(r.y_axis)).abs() > 1e-3 || (r.y_axis.dot(r.z_axis)).abs() > 1e-3 || (r.x_axis.dot(r.z_axis)).abs() > 1e-3 || r.determinant() < 0.0 {
            return Err(Error::invalid("teleport matrix is not a rotation plus translation"));
        }
        self.wake();
        self.move_all(true, |p| m.transform_point3(p));
        self.v.iter_mut().for_each(|v| *v = r * *v);
        self.ensure_finite();
        if let Some(root) = &mut self.root {
            root.from = Pose { rotation: Quat::from_mat3(&r) * root.from.rotation, position: m.transform_point3(root.from.position), ..root.from };
        }
        Ok(())
    }

    /// Bytes held by this body's particle state, and by its constraints (the cooked, shared
    /// arrays plus this instance's multipliers), from the buffers' capacities.
    pub fn memory(&self) -> (usize, usize) {
        fn bytes<T>(v: &Vec<T>) -> usize {
            v.capacity() * std::mem::size_of::<T>()
        }
        let particles = bytes(&self.x)
            + bytes(&self.x_prev)
            + bytes(&self.v)
            + bytes(&self.x_step_start)
            + bytes(&self.created)
            + bytes(&self.w)
            + bytes(&self.w_free)
            + bytes(&self.pin_slot)
            + bytes(&self.packed)
            + bytes(&self.carry)
            + self.soa.bytes()
            + bytes(&self.accel)
            + bytes(&self.normal_acc);
        let k = &self.topology.constraints;
        let constraints = bytes(&k.a) + bytes(&k.b) + bytes(&k.rest) + bytes(&k.kind) + bytes(&self.lambda) + stages::GROUPS.iter().map(|g| g.instance_bytes(self)).sum::<usize>();
        (particles, constraints)
    }

    /// Appends a copy of particle `p` (state, mass, skin, limits, tether); returns its index.
    pub fn duplicate_particle(&mut self, p: usize) -> usize {
        let q = self.x.len();
        self.x.push(self.x[p]);
        self.x_prev.push(self.x_prev[p]);
        self.v.push(self.v[p]);
        self.x_step_start.push(self.x_step_start[p]);
        self.created.push(self.created[p]);
        self.w.push(self.w_free[p]);
        self.w_free.push(self.w_free[p]);
        if let Some(scale) = self.mass_scale.as_mut() {
            scale.push(scale[p]);
        }
        self.pin_slot.push(u32::MAX);
        if let Some(s) = &mut self.skin {
            s.duplicate(p);
        }
        for group in stages::GROUPS {
            group.duplicate_particle(self, p);
        }
        if !self.accel.is_empty() {
            self.accel.push(Vec3::ZERO);
        }
        q
    }
}
