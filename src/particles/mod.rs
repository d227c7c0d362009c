//! A simulated particle body (cloth, rope): shared cooked topology plus per-instance state.
//!
//! Settings vs state, after Jolt's `SoftBodySharedSettings` / `SoftBodyMotionProperties`
//! and NvCloth's `Fabric` / `Cloth`: [`Topology`] is immutable and `Arc`-shared, so many
//! instances of one design keep one copy; [`Body`] owns only particle state.
//!
//! Per-particle state layout between steps (56 B per particle): `x`, `x_prev`, `v`,
//! `x_step_start` (12 B each), `w`, `w_free` (4 B each). During a step a grid body keeps
//! positions, start positions and velocities as one array per component instead (see
//! `solver::soa`), and a large one shares its passes with a second thread (`step_in_two`).

pub mod skin;
pub mod tear;

use std::sync::Arc;

use crate::error::{Error, Result, check_finite, check_non_negative, check_positive, try_filled};
use crate::math::{Mat4, Quat, Vec3, all_finite, is_finite3};
use crate::solver::constraints::distance::{self, DistanceConstraints, KIND_BEND, KIND_COUNT, KIND_SHEAR, KIND_STRETCH};
use crate::geometry::{Pose, Shape};
use crate::particles::skin::{Influence, Skin};
use crate::solver::aero::{self, AeroParams};
use crate::solver::contact::shape::ContactParams;
use crate::solver::constraints::distance_simd::{self, Kernel, Packed};
use crate::solver::constraints::grid_simd::{self, GridLayout};
use crate::solver::constraints::motion::{self, MotionLimits};
use crate::solver::constraints::tether::{self, Tethers};
use crate::solver::contact::{self, particle::HashScratch, triangle::{TriContact, VertexTriangles}};
use crate::solver::layout::soa::SoaState;
use crate::solver::{integrate, velocity, xpbd};
use crate::wind::Wind;

/// What a body is; selects nothing in the solver, only what the host is told.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u32)]
pub enum BodyKind {
    Cloth = 1,
    Rope = 2,
    Strands = 3,
}

/// Per-body material, changeable at run time.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Material {
    /// Mass of one particle (kg).
    pub particle_mass: f32,
    /// Linear velocity damping rate (1/s).
    pub damping: f32,
    /// Multiplies the world's gravity.
    pub gravity_scale: f32,
    /// Compliance (m/N) of structural / stretch constraints; 0 is rigid.
    pub stretch_compliance: f32,
    /// Compliance (m/N) of shear (diagonal) constraints.
    pub shear_compliance: f32,
    /// Compliance (m/N) of bend constraints (distance to the particle two over, or across
    /// each pair of adjacent triangles of a mesh).
    pub bend_compliance: f32,
    /// Particle radius for collisions (m).
    pub thickness: f32,
    /// Coulomb friction against colliders: a contact sticks while tangential motion is
    /// below `static_friction` × normal correction, else loses `kinetic_friction` × it.
    pub static_friction: f32,
    pub kinetic_friction: f32,
    /// The body meets colliders whose `layers & collision_mask != 0`.
    pub collision_mask: u32,
    /// Particles of this body keep `2 × thickness` apart from each other.
    pub self_collision: bool,
}

impl Default for Material {
    fn default() -> Self {
        Material {
            particle_mass: 0.01,
            damping: 0.3,
            gravity_scale: 1.0,
            stretch_compliance: 0.0,
            shear_compliance: 0.0,
            bend_compliance: 1e-3,
            thickness: 0.01,
            static_friction: 0.5,
            kinetic_friction: 0.4,
            collision_mask: u32::MAX,
            self_collision: false,
        }
    }
}

impl Material {
    pub fn validate(&self) -> Result<()> {
        check_positive(self.particle_mass, "material.particle_mass")?;
        if self.particle_mass < 1e-9 || self.particle_mass > 1e9 {
            return Err(Error::invalid(format!(
                "material.particle_mass must be within [1e-9, 1e9] kg (got {})",
                self.particle_mass
            )));
        }
        check_non_negative(self.damping, "material.damping")?;
        check_finite(self.gravity_scale, "material.gravity_scale")?;
        check_non_negative(self.stretch_compliance, "material.stretch_compliance")?;
        check_non_negative(self.shear_compliance, "material.shear_compliance")?;
        check_non_negative(self.bend_compliance, "material.bend_compliance")?;
        check_non_negative(self.thickness, "material.thickness")?;
        if self.thickness > 10.0 {
            return Err(Error::invalid(format!("material.thickness must be at most 10 m (got {})", self.thickness)));
        }
        check_non_negative(self.static_friction, "material.static_friction")?;
        check_non_negative(self.kinetic_friction, "material.kinetic_friction")?;
        Ok(())
    }

    fn compliances(&self) -> [f32; KIND_COUNT] {
        let mut c = [0.0; KIND_COUNT];
        c[KIND_STRETCH as usize] = self.stretch_compliance;
        c[KIND_SHEAR as usize] = self.shear_compliance;
        c[KIND_BEND as usize] = self.bend_compliance;
        c
    }
}

/// Cooked topology of one body design: immutable and shared until a body tears, when that
/// body takes its own copy.
#[derive(Clone, Debug, Default)]
pub struct Topology {
    pub particle_count: usize,
    pub constraints: DistanceConstraints,
    /// Triangles over particle indices, for normals and aerodynamics (empty for ropes).
    pub triangles: Vec<[u32; 3]>,
    /// The same triangles over host vertex indices (what `sinew_body_read_indices` returns).
    pub render_triangles: Vec<[u32; 3]>,
    /// Host vertex → particle, for meshes whose seams were welded; `None` means identity.
    pub vertex_to_particle: Option<Vec<u32>>,
    /// Host vertex → the original vertex it was copied from when the cloth tore (identity
    /// until then), so the host can copy UVs to new vertices.
    pub vertex_source: Option<Vec<u32>>,
    /// Particle positions in the rest shape, up to a rigid motion (for self-collision:
    /// particles that touch at rest never collide; and tether lengths).
    pub rest: Vec<Vec3>,
    /// For an untorn grid: its shape and what each batch is, for the gather-free kernel.
    pub grid: Option<GridLayout>,
    /// Particle → triangles, for particle–triangle contact.
    pub adjacency: VertexTriangles,
}

impl Topology {
    /// Number of vertices the host sees (its own count for a welded mesh).
    pub fn vertex_count(&self) -> usize {
        self.vertex_to_particle.as_ref().map_or(self.particle_count, |m| m.len())
    }

    /// Maps a host vertex index to a particle index.
    pub fn particle_of(&self, vertex: u32) -> Result<usize> {
        let n = self.vertex_count();
        if vertex as usize >= n {
            return Err(Error::out_of_range(format!("vertex index {vertex} out of range (count {n})")));
        }
        Ok(self.vertex_to_particle.as_ref().map_or(vertex as usize, |m| m[vertex as usize] as usize))
    }
}

/// Pinned particles and the path each follows during the current host frame.
#[derive(Clone, Debug, Default)]
pub struct Pins {
    pub index: Vec<u32>,
    /// Where the pin was at the start of the frame.
    pub from: Vec<Vec3>,
    /// Where the host wants it at the end of the frame.
    pub to: Vec<Vec3>,
}

/// What one fixed step needs to know.
#[derive(Clone, Copy, Debug)]
pub struct StepParams {
    /// Substep length (s).
    pub h: f32,
    pub substeps: u32,
    pub iterations: u32,
    pub gravity: Vec3,
    /// Fraction of the frame's pin path done at the start / end of this fixed step.
    pub pin_t0: f32,
    pub pin_t1: f32,
    /// Simulated time at the start of the step (s), for the wind field.
    pub time: f32,
    /// Kernel for independent constraint batches.
    pub kernel: Kernel,
    /// The world runs on more than one thread: a large body may split its own passes.
    pub parallel: bool,
}

/// Particles from which a grid body shares its constraint passes with a second thread
/// (below it the waits between passes cost more than the second thread saves).
pub(crate) const SPLIT_PARTICLES: usize = 1024;

impl StepParams {
    /// The same step divided into `substeps` substeps.
    pub fn with_substeps(&self, substeps: u32) -> StepParams {
        let step = self.h * self.substeps as f32;
        StepParams { h: step / substeps as f32, substeps, ..*self }
    }

    /// Where the pins are on their frame's path at the end of substep `s`.
    fn pin_time(&self, s: u32) -> f32 {
        self.pin_t0 + (self.pin_t1 - self.pin_t0) * ((s + 1) as f32 / self.substeps as f32)
    }

    /// Start and end of substep `s` as fractions of the fixed step (for colliders' poses).
    fn substep_span(&self, s: u32) -> (f32, f32) {
        (s as f32 / self.substeps as f32, (s + 1) as f32 / self.substeps as f32)
    }
}

impl Topology {
    /// The grid layout, when the grid kernel runs this topology with kernel `kernel`.
    fn grid_kernel(&self, kernel: Kernel) -> Option<&GridLayout> {
        self.grid.as_ref().filter(|_| kernel == Kernel::Avx && grid_simd::supported())
    }
}

/// How a body responds to its character's motion, the wind, and strain (run-time settings).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Dynamics {
    /// How much of the root's motion the particles feel as world motion: 1 = fully (the
    /// cloth is left behind), 0 = none (the cloth is carried rigidly with the root).
    pub world_velocity_scale: f32,
    /// How much of the root's change of velocity the particles feel: 1 = all (inertial lag),
    /// 0 = none (they take the root's velocity change at once).
    pub world_acceleration_scale: f32,
    /// Largest particle speed relative to the root (m/s); 0 = no limit.
    pub max_speed: f32,
    /// A root moving farther than this in one frame teleports the body with it (m); 0 = never.
    pub teleport_distance: f32,
    /// Pull of free particles towards the skinned pose (1/s); 0 = none.
    pub pose_stiffness: f32,
    /// Multiplies the world wind for this body.
    pub wind_scale: f32,
    /// Aerodynamic drag coefficient (triangles and segments).
    pub drag: f32,
    /// Aerodynamic lift coefficient (triangles).
    pub lift: f32,
    /// A stretch or shear constraint strained beyond `1 + tear_threshold` tears; 0 = never.
    pub tear_threshold: f32,
}

impl Default for Dynamics {
    fn default() -> Self {
        Dynamics {
            world_velocity_scale: 1.0,
            world_acceleration_scale: 1.0,
            max_speed: 0.0,
            teleport_distance: 0.0,
            pose_stiffness: 0.0,
            wind_scale: 1.0,
            drag: 1.0,
            lift: 0.3,
            tear_threshold: 0.0,
        }
    }
}

impl Dynamics {
    pub fn validate(&self) -> Result<()> {
        for (v, name) in [
            (self.world_velocity_scale, "world_velocity_scale"),
            (self.world_acceleration_scale, "world_acceleration_scale"),
        ] {
            check_finite(v, name)?;
            if !(0.0..=1.0).contains(&v) {
                return Err(Error::invalid(format!("{name} must be within [0, 1] (got {v})")));
            }
        }
        check_non_negative(self.max_speed, "max_speed")?;
        check_non_negative(self.teleport_distance, "teleport_distance")?;
        check_non_negative(self.pose_stiffness, "pose_stiffness")?;
        check_non_negative(self.wind_scale, "wind_scale")?;
        check_non_negative(self.drag, "drag")?;
        check_non_negative(self.lift, "lift")?;
        check_non_negative(self.tear_threshold, "tear_threshold")?;
        Ok(())
    }
}

/// Level of detail by camera distance.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Lod {
    /// Beyond this distance (m) the body runs `reduced_substeps`; 0 = never.
    pub reduce_distance: f32,
    pub reduced_substeps: u32,
    /// Beyond this distance (m) the body is frozen; 0 = never.
    pub freeze_distance: f32,
    /// Freeze while the host says the body is not visible.
    pub freeze_when_invisible: bool,
}

impl Default for Lod {
    fn default() -> Self {
        Lod { reduce_distance: 0.0, reduced_substeps: 2, freeze_distance: 0.0, freeze_when_invisible: true }
    }
}

impl Lod {
    pub fn validate(&self) -> Result<()> {
        check_non_negative(self.reduce_distance, "lod reduce_distance")?;
        check_non_negative(self.freeze_distance, "lod freeze_distance")?;
        if !(1..=64).contains(&self.reduced_substeps) {
            return Err(Error::invalid(format!("lod reduced_substeps must be within [1, 64] (got {})", self.reduced_substeps)));
        }
        Ok(())
    }
}

/// The body's root (the character's transform) over the current frame.
#[derive(Clone, Copy, Debug)]
pub struct Root {
    pub from: Pose,
    pub to: Pose,
    /// Root velocity over the last simulated frame (m/s).
    pub velocity: Vec3,
    /// Scale of the root when it was first set: the body's size as created.
    pub base_scale: f32,
}

pub struct Body {
    pub kind: BodyKind,
    pub topology: Arc<Topology>,
    pub material: Material,
    pub dynamics: Dynamics,
    pub lod: Lod,
    pub x: Vec<Vec3>,
    pub x_prev: Vec<Vec3>,
    pub v: Vec<Vec3>,
    /// Positions at the start of the last fixed step, for interpolated readback.
    pub x_step_start: Vec<Vec3>,
    /// Positions as created (the rest pose skinning refers to).
    pub created: Vec<Vec3>,
    /// Inverse mass in use (0 when pinned).
    pub w: Vec<f32>,
    /// Inverse mass when not pinned.
    pub w_free: Vec<f32>,
    pub lambda: Vec<f32>,
    pub pins: Pins,
    /// Particle → slot in `pins`, `u32::MAX` when free.
    pin_slot: Vec<u32>,
    pub skin: Option<Skin>,
    pub limits: MotionLimits,
    pub tethers: Option<Tethers>,
    pub root: Option<Root>,
    /// Size factor from the root's scale (1 as created).
    pub scale: f32,
    /// Set by the world each frame from the LOD settings.
    pub frozen: bool,
    pub visible: bool,
    /// Substeps this body runs per fixed step (from LOD).
    pub lod_substeps: Option<u32>,
    /// Substeps of the body's last fixed step.
    pub last_substeps: u32,
    /// Bumped whenever the host's index buffer must be read again (tearing).
    pub topology_version: u32,
    /// Times a non-finite state was detected and rolled back.
    pub recoveries: u32,
    /// Colliders (indices into the step's collider list) near this body during the step.
    candidates: Vec<u32>,
    /// Self-collision candidate pairs for the step.
    self_pairs: Vec<[u32; 2]>,
    /// Self-collision particle–triangle candidates for the step, and scratch pairs for them.
    self_tris: Vec<TriContact>,
    far_pairs: Vec<[u32; 2]>,
    scratch: HashScratch,
    /// External accelerations (wind) for the current step.
    accel: Vec<Vec3>,
    /// Scratch for normals.
    normal_acc: Vec<Vec3>,
    /// Positions and inverse masses packed for the SIMD kernels (16 B per particle).
    packed: Vec<Packed>,
    /// The state as structure of arrays, for grid bodies during a step (see `solver::soa`).
    soa: SoaState,
    /// Largest distance a particle can travel in the current fixed step (m), for broad phases.
    pub step_margin: f32,
    /// Dependencies between the passes of a step on two threads (see `step_in_two`), and
    /// which passes reach into the other band's rows.
    band_back: Vec<[Option<usize>; 2]>,
    band_reach: Vec<[bool; 2]>,
}

/// A collider as one fixed step sees it.
#[derive(Clone, Copy, Debug)]
pub struct ColliderFrame {
    pub shape: Shape,
    pub layers: u32,
    /// Pose at the start and end of the fixed step.
    pub from: Pose,
    pub to: Pose,
    /// World bounds over the step, `None` for unbounded shapes.
    pub bounds: Option<(Vec3, Vec3)>,
}

/// Everything the world shares with each body for one fixed step.
#[derive(Clone, Copy)]
pub struct StepContext<'a> {
    pub colliders: &'a [ColliderFrame],
    pub wind: &'a Wind,
}

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
            pin_slot: try_filled(n, u32::MAX, "pin slots")?,
            pins: Pins::default(),
            x: positions,
            w_free,
            topology,
            skin: None,
            limits: MotionLimits::default(),
            tethers: None,
            root: None,
            scale: 1.0,
            frozen: false,
            visible: true,
            lod_substeps: None,
            last_substeps: 0,
            topology_version: 0,
            recoveries: 0,
            candidates: Vec::new(),
            self_pairs: Vec::new(),
            self_tris: Vec::new(),
            far_pairs: Vec::new(),
            scratch: HashScratch::default(),
            accel: Vec::new(),
            normal_acc: Vec::new(),
            packed: Vec::new(),
            soa: SoaState::default(),
            step_margin: 0.0,
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

    pub fn pinned_count(&self) -> usize {
        self.pins.index.len()
    }

    /// Changes the material; free inverse masses follow the new particle mass.
    pub fn set_material(&mut self, m: Material) -> Result<()> {
        m.validate()?;
        let scale = self.material.particle_mass / m.particle_mass;
        for i in 0..self.w_free.len() {
            self.w_free[i] *= scale;
            if self.pin_slot[i] == u32::MAX {
                self.w[i] = self.w_free[i];
            }
        }
        self.material = m;
        Ok(())
    }

    pub fn set_dynamics(&mut self, d: Dynamics) -> Result<()> {
        d.validate()?;
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
            self.pin_slot[p] = self.pins.index.len() as u32;
            self.pins.index.push(p as u32);
            self.pins.from.push(self.x[p]);
            self.pins.to.push(self.x[p]);
            self.w[p] = 0.0;
            self.v[p] = Vec3::ZERO;
        }
    }

    fn unpin_particle(&mut self, p: usize) {
        let slot = self.pin_slot[p];
        if slot == u32::MAX {
            return;
        }
        let slot = slot as usize;
        self.pins.index.swap_remove(slot);
        self.pins.from.swap_remove(slot);
        self.pins.to.swap_remove(slot);
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
        if let Some(k) = targets.iter().position(|t| !is_finite3(*t)) {
            return Err(Error::non_finite(format!("pin target {k} is not finite")));
        }
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
        for list in [&mut self.x, &mut self.x_prev, &mut self.x_step_start, &mut self.pins.from] {
            list.iter_mut().for_each(|p| *p = f(*p));
        }
        if targets {
            self.pins.to.iter_mut().for_each(|p| *p = f(*p));
        }
    }

    /// Moves the whole body rigidly by `m`, velocities rotated with it, so nothing flies off.
    pub fn teleport(&mut self, m: &Mat4) -> Result<()> {
        let r = glam::Mat3::from_mat4(*m);
        for (i, col) in [r.x_axis, r.y_axis, r.z_axis].iter().enumerate() {
            if (col.length() - 1.0).abs() > 1e-3 || !is_finite3(*col) {
                return Err(Error::invalid(format!("teleport matrix column {i} is not a unit vector: the transform must be rigid")));
            }
        }
        if (r.x_axis.dot(r.y_axis)).abs() > 1e-3 || (r.y_axis.dot(r.z_axis)).abs() > 1e-3 || (r.x_axis.dot(r.z_axis)).abs() > 1e-3 || r.determinant() < 0.0 {
            return Err(Error::invalid("teleport matrix is not a rotation plus translation"));
        }
        self.move_all(true, |p| m.transform_point3(p));
        self.v.iter_mut().for_each(|v| *v = r * *v);
        self.ensure_finite();
        if let Some(root) = &mut self.root {
            root.from = Pose { rotation: Quat::from_mat3(&r) * root.from.rotation, position: m.transform_point3(root.from.position), ..root.from };
        }
        Ok(())
    }

    // ---- skinning and the animated pose ---------------------------------------------------

    /// Sets skinning: per host vertex, four bone indices and weights; optional bind poses
    /// (one per bone). Every particle takes the influences of its first vertex.
    pub fn set_skinning(&mut self, per_vertex: &[Influence], bind: Option<Vec<Mat4>>, bone_count: usize) -> Result<()> {
        let nv = self.topology.vertex_count();
        if per_vertex.len() != nv {
            return Err(Error::invalid(format!("{} bone weights for a body of {nv} vertices", per_vertex.len())));
        }
        let mut per_particle = vec![([0u16; 4], [0.0f32; 4]); self.x.len()];
        let mut seen = vec![false; self.x.len()];
        for (v, inf) in per_vertex.iter().enumerate() {
            let p = self.particle(v as u32);
            if !seen[p] {
                per_particle[p] = *inf;
                seen[p] = true;
            }
        }
        self.skin = Some(Skin::new(per_particle, bind, bone_count, self.created.clone())?);
        Ok(())
    }

    /// This frame's bone matrices: the skinned pose moves there by the end of the next step.
    /// Pinned particles follow their skinned position. The first pose places the whole body
    /// on the skinned pose, so a character spawned anywhere starts without a jump.
    pub fn set_bone_matrices(&mut self, bones: &[Mat4]) -> Result<()> {
        self.set_bone_matrices_with(bones.len(), |k| bones[k])
    }

    /// As [`Body::set_bone_matrices`], with the matrices given by `bone(k)` (no copy).
    pub fn set_bone_matrices_with(&mut self, count: usize, bone: impl Fn(usize) -> Mat4) -> Result<()> {
        let skin = self.skin.as_mut().ok_or_else(|| Error::invalid("the body has no skinning: call sinew_body_set_skinning first"))?;
        let first = !skin.posed;
        skin.set_bones(count, bone, &self.topology.triangles)?;
        if first {
            self.reset_to_pose();
        } else {
            let skin = self.skin.as_ref().expect("checked");
            for k in 0..self.pins.index.len() {
                self.pins.to[k] = skin.to[self.pins.index[k] as usize];
            }
        }
        Ok(())
    }

    /// Puts every particle on the skinned pose (or where it was created, without skinning),
    /// at rest.
    pub fn reset_to_pose(&mut self) {
        let target: &[Vec3] = match &self.skin {
            Some(s) if s.posed => &s.to,
            _ => &self.created,
        };
        self.x.copy_from_slice(target);
        self.x_prev.copy_from_slice(target);
        self.x_step_start.copy_from_slice(target);
        self.v.fill(Vec3::ZERO);
        for k in 0..self.pins.index.len() {
            let p = target[self.pins.index[k] as usize];
            self.pins.from[k] = p;
            self.pins.to[k] = p;
        }
        if let Some(s) = &mut self.skin {
            s.finish_frame();
        }
    }

    /// Per host vertex max distances from the skinned pose (m). 0 pins the vertex to the
    /// skinned pose; `f32::INFINITY` or any negative value means no limit. Empty clears.
    pub fn set_max_distances(&mut self, per_vertex: &[f32]) -> Result<()> {
        if per_vertex.is_empty() {
            self.limits.max_distance.clear();
            return Ok(());
        }
        self.require_skin_and_len(per_vertex.len())?;
        if per_vertex.iter().any(|d| d.is_nan()) {
            return Err(Error::non_finite("a max distance is NaN"));
        }
        let mut per_particle = vec![f32::INFINITY; self.x.len()];
        for (v, &d) in per_vertex.iter().enumerate() {
            let p = self.particle(v as u32);
            let d = if d < 0.0 { f32::INFINITY } else { d };
            per_particle[p] = per_particle[p].min(d);
        }
        for (p, &d) in per_particle.iter().enumerate() {
            if d == 0.0 {
                let to = self.skin.as_ref().expect("checked").to[p];
                self.pin_particle(p);
                self.pins.to[self.pin_slot[p] as usize] = to;
            }
        }
        self.limits.max_distance = per_particle;
        Ok(())
    }

    /// Per host vertex backstops: a sphere of `radius` placed `offset + radius` behind the
    /// skinned position along the skinned normal that the particle cannot enter. Empty clears.
    pub fn set_backstops(&mut self, offsets: &[f32], radii: &[f32]) -> Result<()> {
        if offsets.len() != radii.len() {
            return Err(Error::invalid(format!("{} backstop offsets but {} radii", offsets.len(), radii.len())));
        }
        if offsets.is_empty() {
            self.limits.backstop_offset.clear();
            self.limits.backstop_radius.clear();
            return Ok(());
        }
        self.require_skin_and_len(offsets.len())?;
        if offsets.iter().chain(radii).any(|d| !d.is_finite()) {
            return Err(Error::non_finite("a backstop offset or radius is not finite"));
        }
        if radii.iter().any(|r| *r < 0.0) {
            return Err(Error::invalid("backstop radii must be >= 0"));
        }
        let n = self.x.len();
        let (mut off, mut rad) = (vec![0.0; n], vec![0.0; n]);
        for v in 0..offsets.len() {
            let p = self.particle(v as u32);
            off[p] = offsets[v];
            rad[p] = radii[v];
        }
        self.limits.backstop_offset = off;
        self.limits.backstop_radius = rad;
        Ok(())
    }

    fn require_skin_and_len(&self, len: usize) -> Result<()> {
        if self.skin.is_none() {
            return Err(Error::invalid("the body has no skinning: call sinew_body_set_skinning first"));
        }
        let nv = self.topology.vertex_count();
        if len != nv {
            return Err(Error::invalid(format!("{len} values for a body of {nv} vertices")));
        }
        Ok(())
    }

    /// Tethers each free particle to a pinned one: `geodesic` along the cloth, else straight.
    /// `scale` is how far beyond its rest distance a particle may go (1 = not at all).
    /// `None` removes them.
    pub fn set_tethers(&mut self, mode: Option<bool>, scale: f32) -> Result<()> {
        let Some(geodesic) = mode else {
            self.tethers = None;
            return Ok(());
        };
        check_finite(scale, "tether scale")?;
        if scale < 1.0 {
            return Err(Error::invalid(format!("tether scale must be >= 1 (got {scale})")));
        }
        let pinned: Vec<bool> = (0..self.x.len()).map(|p| self.is_pinned(p)).collect();
        if !pinned.iter().any(|&p| p) {
            return Err(Error::invalid("tethers need at least one pinned particle"));
        }
        let rest = &self.created;
        self.tethers = Some(if geodesic {
            tether::geodesic(rest, &pinned, &self.topology.constraints, scale)
        } else {
            tether::euclidean(rest, &pinned, scale)
        });
        Ok(())
    }

    // ---- root, inertia, teleport ----------------------------------------------------------

    /// Sets where the character's root is at the end of the next step.
    pub fn set_root(&mut self, pose: Pose) {
        match &mut self.root {
            Some(r) => r.to = pose,
            None => self.root = Some(Root { from: pose, to: pose, velocity: Vec3::ZERO, base_scale: pose.scale }),
        }
    }

    /// Start of a host frame that runs `frame_time` seconds of fixed steps: the root's
    /// motion is applied (teleport, inertia, scale) before the steps.
    pub fn begin_frame(&mut self, frame_time: f32) {
        self.apply_root_motion(frame_time);
        self.ensure_finite();
    }

    fn apply_root_motion(&mut self, frame_time: f32) {
        let Some(root) = self.root else { return };
        let (mut from, to) = (root.from, root.to);
        self.scale = to.scale / root.base_scale;
        // A change of size is not motion: the body grows or shrinks about the root at once,
        // keeping its shape (rest lengths follow `self.scale`).
        let ratio = to.scale / from.scale;
        if ratio != 1.0 {
            let centre = from.position;
            self.move_all(false, |p| centre + (p - centre) * ratio);
            self.v.iter_mut().for_each(|v| *v *= ratio);
            from.scale = to.scale;
        }
        let rotation = to.rotation * from.rotation.inverse();
        let teleport = self.dynamics.teleport_distance > 0.0 && (to.position - from.position).length() > self.dynamics.teleport_distance;
        if teleport || self.frozen {
            // Carried rigidly: relative to the root nothing moves, velocities turn with it.
            // A teleport keeps the root's ongoing velocity: only the jump beyond it is carried.
            let expected = if teleport { root.velocity * frame_time } else { Vec3::ZERO };
            let jump_to = Pose { position: to.position - expected, ..to };
            // The host has already placed the pins' targets for this frame.
            self.move_all(false, |p| jump_to.to_world(from.to_local(p)));
            self.v.iter_mut().for_each(|v| *v = rotation * *v);
            if let Some(s) = &mut self.skin {
                s.from.copy_from_slice(&s.to);
                s.normal_from.copy_from_slice(&s.normal_to);
            }
            if teleport {
                if let Some(r) = &mut self.root {
                    r.from = to;
                }
                return;
            }
        } else {
            // The share of the root's motion the particles do not feel as world motion is
            // applied as a carry at the start of the frame, pins' start points included, so
            // free and pinned particles stay consistent during the substeps.
            let keep = 1.0 - self.dynamics.world_velocity_scale;
            if keep > 0.0 {
                let shift = |p: Vec3| p + (to.to_world(from.to_local(p)) - p) * keep;
                self.move_all(false, shift);
                self.v.iter_mut().for_each(|v| *v = v.lerp(rotation * *v, keep));
            }
        }
        let velocity = if frame_time > 0.0 { (to.position - from.position) / frame_time } else { root.velocity };
        let gain = 1.0 - self.dynamics.world_acceleration_scale;
        if gain > 0.0 && !self.frozen {
            let dv = (velocity - root.velocity) * gain;
            for i in 0..self.v.len() {
                if self.w[i] > 0.0 {
                    self.v[i] += dv;
                }
            }
        }
        if let Some(r) = &mut self.root {
            r.velocity = velocity;
        }
    }

    /// Last line of defence: if any position or velocity is not finite (finite but absurd
    /// inputs — a root at 1e30 m scaled by 1e10 — can overflow), the body is put back on its
    /// pose at rest, so the host never reads NaN or infinity.
    pub fn ensure_finite(&mut self) {
        if [&self.x, &self.v, &self.x_step_start, &self.pins.from, &self.pins.to].into_iter().all(|v| all_finite(v)) {
            return;
        }
        self.recoveries += 1;
        self.reset_to_pose();
        if let Some(r) = &mut self.root {
            r.from = r.to;
            r.velocity = Vec3::ZERO;
        }
    }

    /// Called once per host frame after its fixed steps: everything starts the next frame
    /// where it is.
    pub fn finish_frame(&mut self) {
        self.pins.from.copy_from_slice(&self.pins.to);
        if let Some(s) = &mut self.skin {
            s.finish_frame();
        }
        if let Some(r) = &mut self.root {
            r.from = r.to;
        }
    }

    /// A frozen body skips the frame: pinned particles sit on their targets, nothing moves.
    pub fn hold_frozen(&mut self) {
        for k in 0..self.pins.index.len() {
            let p = self.pins.index[k] as usize;
            self.x[p] = self.pins.to[k];
            self.x_prev[p] = self.pins.to[k];
            self.x_step_start[p] = self.pins.to[k];
        }
        self.v.fill(Vec3::ZERO);
        self.x_step_start.copy_from_slice(&self.x);
    }

    // ---- the step -------------------------------------------------------------------------

    /// One fixed step of `p.substeps` substeps, alone (no contact with other bodies).
    pub fn step(&mut self, p: &StepParams, ctx: &StepContext) {
        self.begin_step(p, ctx);
        if self.step_in_two(p, ctx) {
            self.end_step(p);
            return;
        }
        for s in 0..p.substeps {
            self.predict(p, s);
            self.finish_substep(p, s, ctx.colliders);
        }
        self.end_step(p);
    }

    /// The whole step of a large grid body on two threads, when the world has them and
    /// every pass of the body's step has a structure-of-arrays version (no tethers, no
    /// skinning, no self-collision, colliders that are spheres which do not turn). Each pass
    /// is cut into two bands of rows, one per thread (see `solver::bands`): prediction, the
    /// constraint runs, and contact-and-velocities. The same operations as the one-thread
    /// step, so the same bits. Returns whether it took the step.
    fn step_in_two(&mut self, p: &StepParams, ctx: &StepContext) -> bool {
        // (An `Arc` clone, not the layout: no allocation per step.)
        let topology = self.topology.clone();
        let Some(layout) = topology.grid_kernel(p.kernel) else { return false };
        let n = self.x.len();
        let spheres = self.candidates.iter().all(|&k| {
            let c = &ctx.colliders[k as usize];
            contact::shape::collide_soa_supported(&c.shape, &c.from, &c.to)
        });
        if !(p.parallel && n >= SPLIT_PARTICLES && rayon::current_num_threads() > 1)
            || self.tethers.is_some()
            || self.skin.is_some()
            || !self.self_pairs.is_empty()
            || !self.self_tris.is_empty()
            || !spheres
            || layout.rows < 4
        {
            return false;
        }
        #[cfg(not(target_arch = "x86_64"))]
        return false;
        #[cfg(target_arch = "x86_64")]
        {
            let isa = grid_simd::GridIsa::best();
            let (rows, cols, runs) = (layout.rows as usize, layout.columns as usize, layout.runs.len());
            // One substep: prediction, `iterations × runs` constraint runs, then contacts and
            // velocities; the pattern repeats every substep.
            let period = 2 + p.iterations as usize * runs;
            let cut = |b: usize| (b * rows).div_ceil(2);
            let band_rows = |b: usize| (cut(b), cut(b + 1) - 1);
            let touched = |q: usize, b: usize| if q == 0 || q == period - 1 { Some(band_rows(b)) } else { layout.runs[(q - 1) % runs].touched(rows, b, 2) };
            // The dependencies depend only on the grid and the number of iterations; and
            // whether a pattern step reaches into the other band's rows.
            if self.band_back.len() != period {
                self.band_back.resize(period, [None; 2]);
                let rows_of: Vec<[Option<(usize, usize)>; 2]> = (0..period).map(|q| [touched(q, 0), touched(q, 1)]).collect();
                crate::solver::layout::bands::dependencies(|q, b| rows_of[q][b], &mut self.band_back);
                self.band_reach.clear();
                // Band 0 holds rows below `cut(1)`, band 1 the rest.
                self.band_reach.extend(rows_of.iter().map(|t| [t[0].is_some_and(|(_, hi)| hi >= cut(1)), t[1].is_some_and(|(lo, _)| lo < cut(1))]));
            }
            // The state moves to structure of arrays band by band, as the first pass, and back
            // as the last (see `solver::soa`).
            self.soa.prepare(n);
            let (state, xs) = (self.soa.ptr(), self.soa.x.ptr());
            let vec3 = crate::solver::layout::soa::Vec3State {
                x: crate::solver::layout::soa::Vec3Ptr::new(&mut self.x),
                prev: crate::solver::layout::soa::Vec3Ptr::new(&mut self.x_prev),
                v: crate::solver::layout::soa::Vec3Ptr::new(&mut self.v),
                w: self.w.as_ptr(),
            };
            let lambda = grid_simd::Multipliers::new(&mut self.lambda);
            let alpha_tilde = self.material.compliances().map(|c| xpbd::scaled_compliance(c, p.h));
            let gravity = p.gravity * self.material.gravity_scale;
            let contact = self.contact_params();
            let base = self.speed_limit_base();
            let (k, back, reach) = (&self.topology.constraints, &self.band_back, &self.band_reach);
            let steps = 2 + p.substeps as usize * period;
            let task = |step: usize, b: usize| {
                let particles = cut(b) * cols..cut(b + 1) * cols;
                if step == 0 || step == steps - 1 {
                    // SAFETY: this band's particles, touched by nothing else meanwhile (the
                    // other band's passes that reach into them wait for this one, or this
                    // one waits for them); the arrays outlive the step.
                    unsafe {
                        if step == 0 {
                            state.take(particles, &vec3);
                        } else {
                            state.give(particles, &vec3);
                        }
                    }
                    return;
                }
                let (s, q) = ((step - 1) / period, (step - 1) % period);
                if q == 0 || q == period - 1 {
                    // SAFETY: the particles of this band's rows, which nothing else touches
                    // until this pass is done (`solver::bands`); the state outlives the step.
                    let mut band = unsafe { state.band(particles) };
                    if q == 0 {
                        let t = p.pin_time(s as u32);
                        band.integrate(gravity, &self.accel, self.material.damping, p.h);
                        band.drive_pins(&self.pins.index, &self.pins.from, &self.pins.to, t);
                    } else {
                        let (t0, t1) = p.substep_span(s as u32);
                        for &c in &self.candidates {
                            let c = &ctx.colliders[c as usize];
                            band.collide(&c.shape, &c.from.lerp(&c.to, t0), &c.from.lerp(&c.to, t1), &contact);
                        }
                        band.update_velocity(p.h);
                        if self.dynamics.max_speed > 0.0 {
                            band.limit_velocity(base, self.dynamics.max_speed);
                        }
                    }
                } else {
                    let (iteration, r) = ((q - 1) / runs, (q - 1) % runs);
                    let batch = k.batches[r];
                    // SAFETY: AVX checked above; `k` is this untorn grid's own constraints;
                    // chunk `b` of this run touches only what `touched` says, and runs after
                    // everything that touches the same rows before it.
                    unsafe {
                        grid_simd::solve_run_chunk(isa, layout, layout.runs[r], xs, k, batch.start as usize..batch.end as usize, lambda.get(), &alpha_tilde, self.scale, iteration == 0, b, 2)
                    };
                }
            };
            // Steps: take, the substeps' passes, give. A pass whose latest dependency would
            // come before the first substep depends on the other band's take instead, when it
            // reaches into that band's rows; the give waits for everything of the other band.
            let depends = |step: usize, b: usize| {
                if step == 0 {
                    return None;
                }
                if step == steps - 1 {
                    return Some(1);
                }
                let inner = step - 1;
                match back[inner % period][b] {
                    Some(d) if inner >= d => Some(d),
                    _ if reach[inner % period][b] => Some(step),
                    _ => None,
                }
            };
            crate::solver::layout::bands::run_in_two(steps, depends, task);
            // Given back by the last pass.
            self.soa.home = false;
            true
        }
    }

    fn contact_params(&self) -> ContactParams {
        ContactParams {
            thickness: self.material.thickness * self.scale,
            static_friction: self.material.static_friction,
            kinetic_friction: self.material.kinetic_friction,
        }
    }

    /// Start of a fixed step: remember the state, find the colliders and self-collision
    /// pairs this step can reach (broad phase, once per step), and the wind's forces.
    pub fn begin_step(&mut self, p: &StepParams, ctx: &StepContext) {
        self.x_step_start.copy_from_slice(&self.x);
        self.last_substeps = p.substeps;
        let step_time = p.h * p.substeps as f32;
        let vmax = self.v.iter().fold(0.0f32, |m, v| m.max(v.length_squared())).sqrt();
        let g = (p.gravity * self.material.gravity_scale).length();
        let pin_motion = (0..self.pins.index.len())
            .map(|k| (self.pins.to[k] - self.pins.from[k]).length())
            .fold(0.0f32, f32::max);
        let thickness = self.material.thickness * self.scale;
        self.step_margin = vmax * step_time + 0.5 * g * step_time * step_time + pin_motion + thickness;
        self.candidates.clear();
        if self.candidates.capacity() < ctx.colliders.len() {
            self.candidates.reserve(ctx.colliders.len().next_power_of_two());
        }
        if !ctx.colliders.is_empty() {
            let (lo, hi) = self.bounds();
            let (lo, hi) = (lo - Vec3::splat(self.step_margin), hi + Vec3::splat(self.step_margin));
            for (k, c) in ctx.colliders.iter().enumerate() {
                if c.layers & self.material.collision_mask == 0 {
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
        if self.material.self_collision && thickness > 0.0 {
            let d = 2.0 * thickness;
            // What matters between two particles of one body is how fast they approach each
            // other: the spread of velocities about the mean, not the body's own speed.
            let n = self.v.len().max(1) as f32;
            let mean = self.v.iter().fold(Vec3::ZERO, |a, v| a + *v) / n;
            let spread = self.v.iter().fold(0.0f32, |m, v| m.max((*v - mean).length_squared())).sqrt();
            let margin = (2.0 * spread * step_time).min(2.0 * d);
            contact::particle::find_pairs(
                &self.x,
                None,
                d + margin,
                Some((&self.topology.rest, 2.0 * self.material.thickness)),
                &mut self.scratch,
                &mut self.self_pairs,
            );
            if !self.topology.triangles.is_empty() {
                // Particles against the body's own triangles, away from their own
                // neighbourhood (rest distance beyond two edges), in both directions.
                let k = &self.topology.constraints;
                let edge = (0..k.len()).filter(|&i| k.kind[i] != KIND_BEND).fold(0.0f32, |m, i| m.max(k.rest[i]));
                contact::particle::find_pairs(
                    &self.x,
                    None,
                    d + margin + edge * self.scale,
                    Some((&self.topology.rest, 2.0 * edge)),
                    &mut self.scratch,
                    &mut self.far_pairs,
                );
                let n = self.far_pairs.len();
                for k in 0..n {
                    let [i, j] = self.far_pairs[k];
                    self.far_pairs.push([j, i]);
                }
                self.far_pairs.sort_unstable();
                contact::triangle::triangle_candidates(&self.x, &self.x, &self.topology.triangles, &self.topology.adjacency, &self.far_pairs, &mut self.self_tris);
            }
        }
        self.accel.clear();
        let d = &self.dynamics;
        if ctx.wind.speed > 0.0 && d.wind_scale > 0.0 && (d.drag > 0.0 || d.lift > 0.0) {
            self.accel.resize(self.x.len(), Vec3::ZERO);
            let params = AeroParams { drag: d.drag, lift: d.lift, diameter: 2.0 * thickness, air_density: ctx.wind.air_density };
            let (wind, time, wind_scale) = (ctx.wind, p.time, d.wind_scale);
            let air = |at: Vec3| wind.velocity(at, time) * wind_scale;
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
    }

    /// Substep `s`, first half: predict, drive pins, project constraints and the limits that
    /// keep particles near the animated pose.
    pub fn predict(&mut self, p: &StepParams, s: u32) {
        let t = p.pin_time(s);
        let alpha_tilde = self.material.compliances().map(|c| xpbd::scaled_compliance(c, p.h));
        let gravity = p.gravity * self.material.gravity_scale;
        let grid = self.topology.grid_kernel(p.kernel);
        if grid.is_some() {
            // The grid kernel's layout holds the whole substep (see `solver::soa`).
            self.soa.take(&self.x, &self.w, &self.x_prev, &self.v);
            let mut all = self.soa.all();
            all.integrate(gravity, &self.accel, self.material.damping, p.h);
            all.drive_pins(&self.pins.index, &self.pins.from, &self.pins.to, t);
        } else {
            integrate::integrate(&mut self.x, &mut self.x_prev, &mut self.v, &self.w, gravity, &self.accel, self.material.damping, p.h);
            integrate::drive_pins(&mut self.x, &self.pins.index, &self.pins.from, &self.pins.to, t);
        }
        // Multipliers restart each substep (the grid kernel zeroes its own); rigid
        // constraints never touch theirs.
        if grid.is_none() && alpha_tilde.iter().any(|&a| a != 0.0) {
            self.lambda.fill(0.0);
        }
        let k = &self.topology.constraints;
        if let Some(layout) = grid {
            // A large body shares its passes with a second thread, when the world has one.
            let split = p.parallel && self.x.len() >= SPLIT_PARTICLES && rayon::current_num_threads() > 1;
            #[cfg(target_arch = "x86_64")]
            {
                let isa = grid_simd::GridIsa::best();
                // SAFETY: AVX is supported (checked above) and `k` is this untorn grid's own
                // constraints; `soa` holds every particle.
                unsafe { grid_simd::solve_iterations(isa, layout, k, &mut self.soa.x, &mut self.lambda, &alpha_tilde, self.scale, p.iterations, split) };
            }
            #[cfg(not(target_arch = "x86_64"))]
            for _ in 0..p.iterations {
                for batch in &k.batches {
                    grid_simd::solve_soa(&mut self.soa.x, k, batch.start as usize..batch.end as usize, &mut self.lambda, &alpha_tilde, self.scale);
                }
            }
        } else if p.kernel == Kernel::Scalar || !k.batches.iter().any(|b| b.independent) {
            for _ in 0..p.iterations {
                for batch in &k.batches {
                    distance::solve(&mut self.x, &self.w, k, batch.start as usize..batch.end as usize, &mut self.lambda, &alpha_tilde, self.scale);
                }
            }
        } else {
            self.packed.clear();
            self.packed.extend(self.x.iter().zip(&self.w).map(|(x, w)| [x.x, x.y, x.z, *w]));
            for _ in 0..p.iterations {
                for batch in &k.batches {
                    let range = batch.start as usize..batch.end as usize;
                    if batch.independent {
                        // SAFETY: a topology's constraints index its own particles, and
                        // `packed` holds one entry per particle.
                        unsafe { distance_simd::solve_batch(p.kernel, &mut self.packed, k, range, &mut self.lambda, &alpha_tilde, self.scale) };
                    } else {
                        distance_simd::solve_packed(&mut self.packed, k, range, &mut self.lambda, &alpha_tilde, self.scale);
                    }
                }
            }
            for (x, q) in self.x.iter_mut().zip(&self.packed) {
                *x = Vec3::new(q[0], q[1], q[2]);
            }
        }
        if self.tethers.is_some() || self.skin.is_some() {
            self.use_vec3_state();
        }
        if let Some(tethers) = &self.tethers {
            tether::solve(&mut self.x, &self.w, tethers, self.scale);
        }
        if let Some(skin) = &self.skin {
            let pull = 1.0 - (-self.dynamics.pose_stiffness * p.h).exp();
            if skin.posed && (pull > 0.0 || !self.limits.max_distance.is_empty() || !self.limits.backstop_radius.is_empty()) {
                motion::solve(&mut self.x, &self.w, &skin.path(), &self.limits, t, self.scale, pull);
            }
        }
    }

    /// Substep `s`, second half: self-collision, colliders (swept), velocities, speed limit.
    pub fn finish_substep(&mut self, p: &StepParams, s: u32, colliders: &[ColliderFrame]) {
        let (t0, t1) = p.substep_span(s);
        let pose = |c: &ColliderFrame| (c.from.lerp(&c.to, t0), c.from.lerp(&c.to, t1));
        let soa_contacts = self.candidates.iter().all(|&k| {
            let (p0, p1) = pose(&colliders[k as usize]);
            contact::shape::collide_soa_supported(&colliders[k as usize].shape, &p0, &p1)
        });
        if !self.self_pairs.is_empty() || !self.self_tris.is_empty() || !soa_contacts {
            self.use_vec3_state();
        }
        if !self.self_pairs.is_empty() {
            contact::particle::resolve_self(&mut self.x, &self.w, &self.self_pairs, 2.0 * self.material.thickness * self.scale);
        }
        if !self.self_tris.is_empty() {
            contact::triangle::resolve_triangles_self(&mut self.x, &self.w, &self.topology.triangles, &self.self_tris, 2.0 * self.material.thickness * self.scale);
        }
        let contact = self.contact_params();
        for &k in &self.candidates {
            let c = &colliders[k as usize];
            let (p0, p1) = pose(c);
            if self.soa.home {
                self.soa.all().collide(&c.shape, &p0, &p1, &contact);
            } else {
                contact::shape::collide(&mut self.x, &self.x_prev, &self.w, &c.shape, &p0, &p1, &contact, self.step_margin);
            }
        }
        if self.soa.home {
            self.soa.all().update_velocity(p.h);
        } else {
            velocity::update(&self.x, &self.x_prev, &mut self.v, p.h);
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
    fn speed_limit_base(&self) -> Vec3 {
        self.root.map_or(Vec3::ZERO, |r| r.velocity * self.dynamics.world_velocity_scale)
    }

    /// Brings the state back to `x`, `x_prev` and `v` if the step holds it as structure of
    /// arrays: the layout between steps, and for passes (here or in the world) that work on
    /// `Vec3` arrays.
    pub fn use_vec3_state(&mut self) {
        self.soa.give(&mut self.x, &mut self.x_prev, &mut self.v);
    }

    /// End of a fixed step: tear what is strained past the threshold; roll back if the state
    /// became non-finite.
    pub fn end_step(&mut self, _p: &StepParams) {
        self.use_vec3_state();
        if !all_finite(&self.x) || !all_finite(&self.v) {
            // An input the checks could not foresee blew the body up: roll back this step
            // and stop it, rather than hand the host NaNs.
            self.x.copy_from_slice(&self.x_step_start);
            self.x_prev.copy_from_slice(&self.x_step_start);
            self.v.fill(Vec3::ZERO);
            self.recoveries += 1;
            self.ensure_finite();
            return;
        }
        if self.dynamics.tear_threshold > 0.0 {
            crate::particles::tear::tear_strained(self);
        }
    }

    // ---- readback -------------------------------------------------------------------------

    /// Particle position `i` interpolated between the last two fixed steps.
    #[inline]
    fn render_position(&self, i: usize, alpha: f32) -> Vec3 {
        if alpha >= 1.0 { self.x[i] } else { self.x_step_start[i].lerp(self.x[i], alpha) }
    }

    /// Host-vertex positions, interpolated by `alpha`, into `out` (at least `vertex_count` long).
    pub fn read_positions(&self, alpha: f32, out: &mut [Vec3]) {
        match &self.topology.vertex_to_particle {
            Some(map) => {
                for (o, &p) in out.iter_mut().zip(map) {
                    *o = self.render_position(p as usize, alpha);
                }
            }
            None => {
                for (i, o) in out.iter_mut().take(self.x.len()).enumerate() {
                    *o = self.render_position(i, alpha);
                }
            }
        }
    }

    /// Area-weighted vertex normals (unit length; +Y for a vertex in no triangle).
    pub fn read_normals(&mut self, alpha: f32, out: &mut [Vec3]) -> Result<()> {
        let mut acc = std::mem::take(&mut self.normal_acc);
        acc.clear();
        acc.try_reserve(self.x.len()).map_err(|_| Error::new(crate::error::ErrorKind::OutOfMemory, "out of memory for normals"))?;
        acc.resize(self.x.len(), Vec3::ZERO);
        for t in &self.topology.triangles {
            let [a, b, c] = t.map(|i| self.render_position(i as usize, alpha));
            // |cross| is twice the area, so the sum is area weighted.
            let face = (b - a).cross(c - a);
            for &i in t {
                acc[i as usize] += face;
            }
        }
        let unit = |v: Vec3| v.try_normalize().unwrap_or(Vec3::Y);
        match &self.topology.vertex_to_particle {
            Some(map) => {
                for (o, &p) in out.iter_mut().zip(map) {
                    *o = unit(acc[p as usize]);
                }
            }
            None => {
                for (o, a) in out.iter_mut().zip(&acc) {
                    *o = unit(*a);
                }
            }
        }
        self.normal_acc = acc;
        Ok(())
    }

    /// Axis-aligned bounds of the current particles.
    pub fn bounds(&self) -> (Vec3, Vec3) {
        let mut lo = Vec3::splat(f32::INFINITY);
        let mut hi = Vec3::splat(f32::NEG_INFINITY);
        for p in &self.x {
            lo = lo.min(*p);
            hi = hi.max(*p);
        }
        (lo, hi)
    }

    /// Largest `|length/(rest·scale) − 1|` over the body's constraints.
    pub fn max_stretch(&self) -> f32 {
        self.topology.constraints.max_stretch(&self.x, self.scale)
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
            + self.soa.bytes()
            + bytes(&self.accel)
            + bytes(&self.normal_acc);
        let k = &self.topology.constraints;
        let constraints = bytes(&k.a) + bytes(&k.b) + bytes(&k.rest) + bytes(&k.kind) + bytes(&self.lambda);
        (particles, constraints)
    }

    // ---- growth (tearing) -----------------------------------------------------------------

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
        self.pin_slot.push(u32::MAX);
        if let Some(s) = &mut self.skin {
            s.duplicate(p);
        }
        for list in [&mut self.limits.max_distance, &mut self.limits.backstop_offset, &mut self.limits.backstop_radius] {
            if !list.is_empty() {
                list.push(list[p]);
            }
        }
        if let Some(t) = &mut self.tethers {
            t.anchor.push(t.anchor[p]);
            t.length.push(t.length[p]);
        }
        if !self.accel.is_empty() {
            self.accel.push(Vec3::ZERO);
        }
        q
    }
}
