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
use super::skin::{HostInfluence, Skin};
use crate::error::{Error, MAX_FACTOR, MAX_LENGTH, Result, check_finite};
use crate::geometry::Pose;
use crate::math::{Mat4, Quat, Vec3, all_finite};
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
    /// (one per bone). Every particle takes the influences of its first vertex. Every bone
    /// index, weighted or not, must name one of the `bone_count` bones.
    pub fn set_skinning(&mut self, host: &[HostInfluence], bind: Option<Vec<Mat4>>, bone_count: u32) -> Result<()> {
        if bone_count == 0 || bone_count > u16::MAX as u32 {
            return Err(Error::invalid(format!("bone_count must be within [1, 65535] (got {bone_count})")));
        }
        let mut per_vertex = Vec::new();
        per_vertex.try_reserve_exact(host.len()).map_err(|_| Error::new(crate::error::ErrorKind::OutOfMemory, "out of memory for bone weights"))?;
        for (i, (bones, weights)) in host.iter().enumerate() {
            if let Some(b) = bones.iter().find(|&&b| b < 0 || b as u32 >= bone_count) {
                return Err(Error::out_of_range(format!("vertex {i} names bone {b} of {bone_count}")));
            }
            per_vertex.push((bones.map(|b| b as u16), *weights));
        }
        let bone_count = bone_count as usize;
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
            self.pins.start[k] = p;
            self.pins.end[k] = p;
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
        if let Some(d) = offsets.iter().chain(radii).find(|d| d.abs() > MAX_LENGTH) {
            return Err(Error::invalid(format!("backstop offsets and radii must be within ±{MAX_LENGTH} m (got {d})")));
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
    /// A refused call changes nothing (the body stays asleep if it was).
    pub fn set_tethers(&mut self, mode: Option<bool>, scale: f32) -> Result<()> {
        let tethers = match mode {
            None => None,
            Some(geodesic) => {
                check_finite(scale, "tether scale")?;
                if !(1.0..=MAX_FACTOR).contains(&scale) {
                    return Err(Error::invalid(format!("tether scale must be >= 1 and at most {MAX_FACTOR} (got {scale})")));
                }
                let pinned: Vec<bool> = (0..self.x.len()).map(|p| self.is_pinned(p)).collect();
                if !pinned.iter().any(|&p| p) {
                    return Err(Error::invalid("tethers need at least one pinned particle"));
                }
                let rest = &self.created;
                Some(if geodesic { tether::geodesic(rest, &pinned, &self.topology.constraints, scale) } else { tether::euclidean(rest, &pinned, scale) })
            }
        };
        self.wake();
        self.tethers = tethers;
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
    /// motion is applied (teleport, inertia, scale) before the steps, then the pins' paths
    /// are laid out. `pose_end` is where the steps end on the path of the host's inputs
    /// (`StepParams::pose_t1` of the frame's last step): the pins' paths end at their target
    /// carried on that far, from where they are now, so the pins move without a jump in
    /// velocity and are where the host will want them when host time reaches simulated time.
    /// A frozen body (LOD) is carried rigidly with its root and pins instead
    /// ([`Body::carry_frozen`]) and skips the frame's steps.
    pub fn begin_frame(&mut self, frame_time: f32, pose_end: f32) {
        let root_carry = self.apply_root_motion(frame_time);
        if self.frozen {
            self.carry_frozen(root_carry, frame_time);
        }
        self.plan_pin_paths(pose_end);
        self.ensure_finite();
    }

    fn plan_pin_paths(&mut self, pose_end: f32) {
        let pins = &mut self.pins;
        for k in 0..pins.index.len() {
            pins.start[k] = self.x[pins.index[k] as usize];
            pins.end[k] = if pose_end == 1.0 { pins.to[k] } else { pins.from[k] + (pins.to[k] - pins.from[k]) * pose_end };
        }
    }

    /// Applies the root's motion over the frame; for a frozen body, returns the rigid motion
    /// of the root `(rotation, from, to)` (`p ↦ rotation·(p − from) + to`) that
    /// [`Body::carry_frozen`] still has to carry it by.
    fn apply_root_motion(&mut self, frame_time: f32) -> Option<(Quat, Vec3, Vec3)> {
        let root = self.root?;
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
        let mut frozen_carry = None;
        if teleport || self.frozen {
            if teleport {
                // Carried rigidly: relative to the root nothing moves, velocities turn with
                // it. A teleport keeps the root's ongoing velocity: only the jump beyond it is
                // carried. The host has already placed the pins' targets for this frame.
                let jump_to = Pose { position: to.position - root.velocity * frame_time, ..to };
                self.move_all(false, |p| jump_to.to_world(from.to_local(p)));
                self.v.iter_mut().for_each(|v| *v = rotation * *v);
            } else {
                frozen_carry = Some((rotation, from.position, to.position));
            }
            if let Some(s) = &mut self.skin {
                s.from.copy_from_slice(&s.to);
                s.normal_from.copy_from_slice(&s.normal_to);
            }
            if teleport {
                if let Some(r) = &mut self.root {
                    r.from = to;
                }
                return None;
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
        frozen_carry
    }

    /// A jump of the host's inputs beyond `teleport_distance` since the last frame that
    /// stepped — the skinned pose's, or the pins' targets' — is a teleport, like a jump of the
    /// root: the body is carried rigidly with it (the rotation and translation that best fit
    /// the inputs' jump, Horn's quaternion method), its velocities turned with it, and the
    /// jump gives no velocity to pins or pose (their start points are carried too). A jump is the centroid of the inputs moving that far, so
    /// pinning one vertex of many to a far hand is a grab, not a teleport. Like a root's
    /// teleport it keeps the ongoing motion: `elapsed` is the host time since the last frame
    /// that stepped, and the motion the body had (its pinned particles' mean velocity, or all
    /// its particles' without pins) over that time is not carried but left to the steps.
    /// Returns whether the body teleported.
    pub fn teleport_with_inputs(&mut self, elapsed: f32) -> bool {
        let d = self.dynamics.teleport_distance;
        if d <= 0.0 {
            return false;
        }
        let skin = self.skin.as_ref().filter(|s| s.posed).map(|s| (s.from.as_slice(), s.to.as_slice()));
        let pins = Some((self.pins.from.as_slice(), self.pins.to.as_slice())).filter(|(f, _)| !f.is_empty());
        let Some(carry) = [skin, pins].into_iter().flatten().find_map(|(from, to)| rigid_jump(from, to, d)) else {
            return false;
        };
        let (rotation, from_centre, to_centre) = carry;
        let moving: &[u32] = &self.pins.index;
        let mean = if moving.is_empty() {
            self.v.iter().fold(Vec3::ZERO, |a, v| a + *v) / self.v.len().max(1) as f32
        } else {
            moving.iter().fold(Vec3::ZERO, |a, &p| a + self.v[p as usize]) / moving.len() as f32
        };
        let to_centre = to_centre - rotation * (mean * elapsed);
        let carry = |p: Vec3| rotation * (p - from_centre) + to_centre;
        // Everything the body keeps moves with the jump, the inputs' start points too: what
        // remains from them to this frame's inputs is their motion apart from the jump.
        self.move_all(false, carry);
        self.v.iter_mut().for_each(|v| *v = rotation * *v);
        if let Some(s) = &mut self.skin {
            s.from.iter_mut().for_each(|p| *p = carry(*p));
            s.normal_from.iter_mut().for_each(|n| *n = rotation * *n);
        }
        if let Some(r) = &mut self.root {
            r.from = Pose { rotation: rotation * r.from.rotation, position: rotation * (r.from.position - from_centre) + to_centre, ..r.from };
        }
        self.ensure_finite();
        true
    }

    /// Last line of defence: if any position or velocity is not finite (finite but absurd
    /// inputs — a root at 1e30 m scaled by 1e10 — can overflow), the body is put back on its
    /// pose at rest, so the host never reads NaN or infinity.
    pub fn ensure_finite(&mut self) {
        if [&self.x, &self.v, &self.x_step_start, &self.pins.from, &self.pins.to, &self.pins.end].into_iter().all(|v| all_finite(v)) {
            return;
        }
        self.recoveries += 1;
        self.pending_recovery.get_or_insert(super::Recovery::StateNotFinite);
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

    /// A frozen body skips the frame's steps and is carried rigidly, so that no constraint
    /// changes length: by the root's motion over the frame (`root`, from
    /// [`Body::apply_root_motion`]), then by the rotation and translation that best take its
    /// pinned particles onto their targets (Horn's fit, from where they are now, so errors do
    /// not add up from frame to frame). A pin stays where the carry puts it — on its target
    /// when the targets move rigidly, as a bone's do — and readback shows it on its target.
    /// The velocities are those of the carried motion (the share of the root's that the body
    /// feels as world motion, `world_velocity_scale`, as when it is stepped), so the body
    /// resumes as if it had moved with the character all along.
    fn carry_frozen(&mut self, root: Option<(Quat, Vec3, Vec3)>, frame_time: f32) {
        let (rotation, from, to) = root.unwrap_or((Quat::IDENTITY, Vec3::ZERO, Vec3::ZERO));
        let by_root = |p: Vec3| if root.is_some() { rotation * (p - from) + to } else { p };
        let pins = &self.pins;
        let n = pins.index.len();
        let pinned = |k: usize| by_root(self.x[pins.index[k] as usize]);
        let on_targets = (0..n).all(|k| pinned(k) == pins.to[k]);
        let (fit, fit_from, fit_to) = if on_targets {
            (Quat::IDENTITY, Vec3::ZERO, Vec3::ZERO)
        } else {
            let (cf, ct) = (centroid(n, pinned), centroid(n, |k| pins.to[k]));
            (horn_rotation(n, pinned, |k| pins.to[k], cf, ct, [1.0, 0.0, 0.0, 0.0]), cf.as_vec3(), ct.as_vec3())
        };
        let by_pins = |p: Vec3| if on_targets { p } else { fit * (p - fit_from) + fit_to };
        let felt = self.dynamics.world_velocity_scale;
        let rate = if frame_time > 0.0 { 1.0 / frame_time } else { 0.0 };
        for i in 0..self.x.len() {
            let start = self.x[i];
            let carried = by_root(start);
            let end = by_pins(carried);
            self.v[i] = ((carried - start) * felt + (end - carried)) * rate;
            self.x[i] = end;
        }
        self.x_prev.copy_from_slice(&self.x);
        self.x_step_start.copy_from_slice(&self.x);
        self.pins.from.iter_mut().for_each(|p| *p = by_pins(by_root(*p)));
    }
}

/// The mean of `n` points `p(0) … p(n − 1)`, in f64.
fn centroid(n: usize, p: impl Fn(usize) -> Vec3) -> glam::DVec3 {
    (0..n).fold(glam::DVec3::ZERO, |a, k| a + p(k).as_dvec3()) / n as f64
}

/// The rigid motion `p ↦ rotation·(p − from_centre) + to_centre` that best maps `from` onto
/// `to` (least squares; Horn 1987, "Closed-form solution of absolute orientation using unit
/// quaternions"), when their centroids are more than `distance` apart; else `None`.
fn rigid_jump(from: &[Vec3], to: &[Vec3], distance: f32) -> Option<(Quat, Vec3, Vec3)> {
    let n = from.len();
    let (cf, ct) = (centroid(n, |k| from[k]), centroid(n, |k| to[k]));
    if !((ct - cf).length() > distance as f64) {
        return None;
    }
    // From near the identity: where the fit leaves a rotation free (one or two pins), it
    // stays near no rotation.
    let rotation = horn_rotation(n, |k| from[k], |k| to[k], cf, ct, [1.0, 1e-3, 2e-3, 3e-3]);
    Some((rotation, cf.as_vec3(), ct.as_vec3()))
}

/// The rotation that best maps the points `from(k)` about their centroid `cf` onto `to(k)`
/// about `ct` (least squares, Horn's quaternion method), by power iteration from `start`
/// (w, x, y, z): a rotation the points leave free stays as `start` has it.
fn horn_rotation(n: usize, from: impl Fn(usize) -> Vec3, to: impl Fn(usize) -> Vec3, cf: glam::DVec3, ct: glam::DVec3, start: [f64; 4]) -> Quat {
    // Cross-covariance of the centred point sets, then Horn's symmetric 4 × 4 matrix, whose
    // eigenvector of the largest eigenvalue is the rotation (w, x, y, z).
    let mut s = [[0.0f64; 3]; 3];
    let mut bound = 0.0;
    for k in 0..n {
        let (a, b) = (from(k).as_dvec3() - cf, to(k).as_dvec3() - ct);
        for (i, ai) in a.to_array().into_iter().enumerate() {
            for (j, bj) in b.to_array().into_iter().enumerate() {
                s[i][j] += ai * bj;
            }
        }
        bound += a.length() * b.length();
    }
    let [[xx, xy, xz], [yx, yy, yz], [zx, zy, zz]] = s;
    let m = [
        [xx + yy + zz, yz - zy, zx - xz, xy - yx],
        [yz - zy, xx - yy - zz, xy + yx, zx + xz],
        [zx - xz, xy + yx, -xx + yy - zz, yz + zy],
        [xy - yx, zx + xz, yz + zy, -xx - yy + zz],
    ];
    // Power iteration on m + bound·I (its eigenvalues are then >= 0).
    let mut q = start;
    for _ in 0..200 {
        let mut next = [0.0; 4];
        for i in 0..4 {
            next[i] = bound * q[i] + (0..4).map(|j| m[i][j] * q[j]).sum::<f64>();
        }
        let len = next.iter().map(|v| v * v).sum::<f64>().sqrt();
        if !(len > 0.0) {
            break;
        }
        q = next.map(|v| v / len);
    }
    Quat::from_xyzw(q[1] as f32, q[2] as f32, q[3] as f32, q[0] as f32).normalize()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rigid_jump_recovers_a_rotation_and_translation() {
        let pts: Vec<Vec3> = (0..10).map(|i| Vec3::new(i as f32 * 0.05 - 0.2, 0.1 * (i % 3) as f32, 0.02 * i as f32)).collect();
        let r = Quat::from_rotation_y(std::f32::consts::FRAC_PI_2);
        let t = Vec3::new(12.0, 0.5, -3.0);
        let moved: Vec<Vec3> = pts.iter().map(|p| r * *p + t).collect();
        let (q, cf, ct) = rigid_jump(&pts, &moved, 2.0).expect("a jump");
        for (p, m) in pts.iter().zip(&moved) {
            assert!((q * (*p - cf) + ct - *m).length() < 1e-4, "{q:?}");
        }
        assert!(rigid_jump(&pts, &pts, 2.0).is_none());
    }
}
