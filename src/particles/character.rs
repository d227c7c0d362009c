//! Character driving: what makes a body follow an animated character.
//!
//! - Skinning ([`skin`](super::skin)): the animated pose that pins, max distances, backstops
//!   and the pose stiffness refer to, from the host's bone matrices each frame.
//! - Max distances and backstops (Unity Cloth's `maxDistance` and `collisionSphereDistance`),
//!   projected by `solver::constraints::motion`.
//! - Tethers (long-range attachments to the pinned particles), `solver::constraints::tether`.
//! - Root motion: the character's transform over the frame. The share of its motion the
//!   particles feel as world motion (`world_velocity_scale`) and of its change of velocity
//!   (`world_acceleration_scale`) is applied at the start of the frame; a jump beyond
//!   `teleport_distance` carries the body rigidly; a change of scale resizes it about the root.
//!
//! Frame boundaries: [`Body::begin_frame`] before a host frame's fixed steps,
//! [`Body::finish_frame`] after them; [`Body::ensure_finite`] puts a body that overflowed back
//! on its pose at rest, so the host never reads NaN.

use super::Body;
use super::skin::{Influence, Skin};
use crate::error::{Error, Result, check_finite};
use crate::geometry::Pose;
use crate::math::{Mat4, Vec3, all_finite};
use crate::solver::constraints::tether;

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

impl Body {
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
        self.wake();
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
        self.wake();
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
        self.wake();
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
        self.wake();
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
        self.wake();
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
}
