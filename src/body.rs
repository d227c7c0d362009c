//! A simulated particle body (cloth, rope): shared cooked topology plus per-instance state.
//!
//! Settings vs state, after Jolt's `SoftBodySharedSettings` / `SoftBodyMotionProperties`
//! and NvCloth's `Fabric` / `Cloth`: [`Topology`] is immutable and `Arc`-shared, so many
//! instances of one design keep one copy; [`Body`] owns only particle state.
//!
//! Per-particle state layout (structure of arrays, 56 B per particle):
//! `x`, `x_prev`, `v`, `x_step_start` (12 B each), `w`, `w_free` (4 B each).

use std::sync::Arc;

use crate::error::{Error, Result, check_finite, check_non_negative, check_positive, try_filled};
use crate::math::{Mat4, Vec3, is_finite3};
use crate::solver::constraints::distance::{self, DistanceConstraints, KIND_BEND, KIND_COUNT, KIND_SHEAR, KIND_STRETCH};
use crate::collider::{Pose, Shape};
use crate::solver::collision::{self, ContactParams};
use crate::solver::particle_contact::{self, HashScratch};
use crate::solver::{integrate, velocity, xpbd};

/// What a body is; selects nothing in the solver, only what the host is told.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u32)]
pub enum BodyKind {
    Cloth = 1,
    Rope = 2,
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

/// Cooked, immutable topology of one body design.
#[derive(Debug, Default)]
pub struct Topology {
    pub particle_count: usize,
    pub constraints: DistanceConstraints,
    /// Triangles over particle indices, for normals (empty for ropes).
    pub triangles: Vec<[u32; 3]>,
    /// Host vertex → particle, for meshes whose seams were welded; `None` means identity.
    pub vertex_to_particle: Option<Vec<u32>>,
    /// Particle positions in the rest shape, up to a rigid motion (for self-collision:
    /// particles that touch at rest never collide).
    pub rest: Vec<Vec3>,
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
}

pub struct Body {
    pub kind: BodyKind,
    pub topology: Arc<Topology>,
    pub material: Material,
    pub x: Vec<Vec3>,
    pub x_prev: Vec<Vec3>,
    pub v: Vec<Vec3>,
    /// Positions at the start of the last fixed step, for interpolated readback.
    pub x_step_start: Vec<Vec3>,
    /// Inverse mass in use (0 when pinned).
    pub w: Vec<f32>,
    /// Inverse mass when not pinned.
    pub w_free: Vec<f32>,
    pub lambda: Vec<f32>,
    pub pins: Pins,
    /// Particle → slot in `pins`, `u32::MAX` when free.
    pin_slot: Vec<u32>,
    /// Times a non-finite state was detected and rolled back.
    pub recoveries: u32,
    /// Colliders (indices into the step's collider list) near this body during the step.
    candidates: Vec<u32>,
    /// Self-collision candidate pairs for the step.
    self_pairs: Vec<[u32; 2]>,
    scratch: HashScratch,
    /// Largest distance a particle can travel in the current fixed step (m), for broad phases.
    pub step_margin: f32,
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

impl Body {
    /// A body at `positions` with the given free inverse masses (0 entries start pinned).
    pub fn new(kind: BodyKind, topology: Arc<Topology>, material: Material, positions: Vec<Vec3>, w_free: Vec<f32>) -> Result<Body> {
        let n = topology.particle_count;
        debug_assert_eq!(positions.len(), n);
        let mut body = Body {
            kind,
            material,
            x_prev: positions.clone(),
            x_step_start: positions.clone(),
            v: try_filled(n, Vec3::ZERO, "velocities")?,
            w: w_free.clone(),
            lambda: try_filled(topology.constraints.len(), 0.0, "multipliers")?,
            pin_slot: try_filled(n, u32::MAX, "pin slots")?,
            pins: Pins::default(),
            x: positions,
            w_free,
            topology,
            recoveries: 0,
            candidates: Vec::new(),
            self_pairs: Vec::new(),
            scratch: HashScratch::default(),
            step_margin: 0.0,
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

    /// Maps host vertex indices to particles, all or nothing.
    fn particles_of(&self, vertices: &[u32]) -> Result<Vec<usize>> {
        vertices.iter().map(|&v| self.topology.particle_of(v)).collect()
    }

    /// Pins the given vertices where they are.
    pub fn pin(&mut self, vertices: &[u32]) -> Result<()> {
        for p in self.particles_of(vertices)? {
            self.pin_particle(p);
        }
        Ok(())
    }

    /// Releases the given vertices; they keep the velocity of their pin path.
    pub fn unpin(&mut self, vertices: &[u32]) -> Result<()> {
        for p in self.particles_of(vertices)? {
            self.unpin_particle(p);
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
        let particles = self.particles_of(vertices)?;
        for (p, t) in particles.into_iter().zip(targets) {
            self.pin_particle(p);
            self.pins.to[self.pin_slot[p] as usize] = *t;
        }
        Ok(())
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
        let moves = |p: &mut Vec3| *p = m.transform_point3(*p);
        self.x.iter_mut().for_each(moves);
        self.x_prev.iter_mut().for_each(moves);
        self.x_step_start.iter_mut().for_each(moves);
        self.pins.from.iter_mut().for_each(moves);
        self.pins.to.iter_mut().for_each(moves);
        self.v.iter_mut().for_each(|v| *v = r * *v);
        Ok(())
    }

    /// One fixed step of `p.substeps` substeps, alone (no contact with other bodies).
    pub fn step(&mut self, p: &StepParams, colliders: &[ColliderFrame]) {
        self.begin_step(p, colliders);
        for s in 0..p.substeps {
            self.predict(p, s);
            self.finish_substep(p, s, colliders);
        }
        self.end_step();
    }

    fn contact_params(&self) -> ContactParams {
        ContactParams {
            thickness: self.material.thickness,
            static_friction: self.material.static_friction,
            kinetic_friction: self.material.kinetic_friction,
        }
    }

    /// Start of a fixed step: remember the state, find the colliders and self-collision
    /// pairs this step can reach (broad phase, once per step).
    pub fn begin_step(&mut self, p: &StepParams, colliders: &[ColliderFrame]) {
        self.x_step_start.copy_from_slice(&self.x);
        let step_time = p.h * p.substeps as f32;
        let vmax = self.v.iter().fold(0.0f32, |m, v| m.max(v.length_squared())).sqrt();
        let g = (p.gravity * self.material.gravity_scale).length();
        let pin_motion = (0..self.pins.index.len())
            .map(|k| (self.pins.to[k] - self.pins.from[k]).length())
            .fold(0.0f32, f32::max);
        self.step_margin = vmax * step_time + 0.5 * g * step_time * step_time + pin_motion + self.material.thickness;
        self.candidates.clear();
        if !colliders.is_empty() {
            let (lo, hi) = self.bounds();
            let (lo, hi) = (lo - Vec3::splat(self.step_margin), hi + Vec3::splat(self.step_margin));
            for (k, c) in colliders.iter().enumerate() {
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
        if self.material.self_collision && self.material.thickness > 0.0 {
            let d = 2.0 * self.material.thickness;
            particle_contact::find_pairs(
                &self.x,
                None,
                d + 2.0 * self.step_margin,
                Some((&self.topology.rest, d)),
                &mut self.scratch,
                &mut self.self_pairs,
            );
        }
    }

    /// Substep `s`, first half: predict, drive pins, project constraints.
    pub fn predict(&mut self, p: &StepParams, s: u32) {
        let t = p.pin_t0 + (p.pin_t1 - p.pin_t0) * ((s + 1) as f32 / p.substeps as f32);
        let alpha_tilde = self.material.compliances().map(|c| xpbd::scaled_compliance(c, p.h));
        let gravity = p.gravity * self.material.gravity_scale;
        integrate::integrate(&mut self.x, &mut self.x_prev, &mut self.v, &self.w, gravity, self.material.damping, p.h);
        integrate::drive_pins(&mut self.x, &self.pins.index, &self.pins.from, &self.pins.to, t);
        self.lambda.fill(0.0);
        let k = &self.topology.constraints;
        for _ in 0..p.iterations {
            for batch in &k.batches {
                distance::solve(&mut self.x, &self.w, k, batch.start as usize..batch.end as usize, &mut self.lambda, &alpha_tilde);
            }
        }
    }

    /// Substep `s`, second half: self-collision, colliders (swept), velocities.
    pub fn finish_substep(&mut self, p: &StepParams, s: u32, colliders: &[ColliderFrame]) {
        if !self.self_pairs.is_empty() {
            particle_contact::resolve_self(&mut self.x, &self.w, &self.self_pairs, 2.0 * self.material.thickness);
        }
        let contact = self.contact_params();
        let (t0, t1) = (s as f32 / p.substeps as f32, (s + 1) as f32 / p.substeps as f32);
        for &k in &self.candidates {
            let c = &colliders[k as usize];
            let (p0, p1) = (c.from.lerp(&c.to, t0), c.from.lerp(&c.to, t1));
            collision::collide(&mut self.x, &self.x_prev, &self.w, &c.shape, &p0, &p1, &contact);
        }
        velocity::update(&self.x, &self.x_prev, &mut self.v, p.h);
    }

    /// End of a fixed step: roll back if the state became non-finite.
    pub fn end_step(&mut self) {
        if !self.x.iter().all(|x| is_finite3(*x)) || !self.v.iter().all(|v| is_finite3(*v)) {
            // An input the checks could not foresee blew the body up: roll back this step
            // and stop it, rather than hand the host NaNs.
            self.x.copy_from_slice(&self.x_step_start);
            self.x_prev.copy_from_slice(&self.x_step_start);
            self.v.fill(Vec3::ZERO);
            self.recoveries += 1;
        }
    }

    /// Called once per host frame after its fixed steps: pins start the next frame where they are.
    pub fn finish_frame(&mut self) {
        self.pins.from.copy_from_slice(&self.pins.to);
    }

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
    pub fn read_normals(&self, alpha: f32, out: &mut [Vec3]) -> Result<()> {
        let n = self.x.len();
        let mut acc = try_filled(n, Vec3::ZERO, "normals")?;
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

    /// Largest `|length/rest − 1|` over the body's constraints.
    pub fn max_stretch(&self) -> f32 {
        self.topology.constraints.max_stretch(&self.x)
    }
}
