//! Linear blend skinning of particles: the animated pose that pins, max distances,
//! backstops and the pose stiffness refer to.
//!
//! `s_i = Σ_k w_ik · M_b(ik) · B_b(ik) · r_i` with `M` the bone matrices of the frame (Unity's
//! `localToWorldMatrix`), `B` the bind poses (mapping a rest position into the bone's space;
//! when the host gives none, the inverse of the first matrices it sends), `r_i` the
//! particle's rest position as given at creation, and up to four weights per particle
//! (Unity's `BoneWeight`). The skinned pose is computed at the start and at the end of each
//! host frame and interpolated across its substeps.

use crate::error::{Error, Result, check_positions, check_transform_with};
use crate::math::{Mat4, Vec3, is_finite3};
use crate::solver::constraints::motion::PosePath;

/// Bones and weights of one particle.
pub type Influence = ([u16; 4], [f32; 4]);

/// Bones and weights of one host vertex as the host gives them (Unity's `BoneWeight`: bone
/// indices as `int`).
pub type HostInfluence = ([i32; 4], [f32; 4]);

#[derive(Clone, Debug)]
pub struct Skin {
    /// Per particle.
    pub influence: Vec<Influence>,
    /// Per bone; `None` until the first matrices arrive when the host gave no bind poses.
    pub bind: Option<Vec<Mat4>>,
    pub bone_count: usize,
    /// Rest positions (as created).
    pub rest: Vec<Vec3>,
    /// Skinned positions at the start and end of the host frame.
    pub from: Vec<Vec3>,
    pub to: Vec<Vec3>,
    /// Skinned, area-weighted unit normals at the end of the frame (for backstops).
    pub normal_to: Vec<Vec3>,
    pub normal_from: Vec<Vec3>,
    /// True once bone matrices were set.
    pub posed: bool,
    /// Scratch (reused every frame): bone × bind matrices, and the pose being computed.
    skinning: Vec<Mat4>,
    next: Vec<Vec3>,
}

impl Skin {
    /// Validates and normalises weights (they are made to sum to 1).
    pub fn new(influence: Vec<Influence>, bind: Option<Vec<Mat4>>, bone_count: usize, rest: Vec<Vec3>) -> Result<Skin> {
        debug_assert!((1..=u16::MAX as usize).contains(&bone_count), "checked by Body::set_skinning");
        if let Some(b) = &bind {
            if b.len() != bone_count {
                return Err(Error::invalid(format!("{} bind poses for {bone_count} bones", b.len())));
            }
            if b.iter().any(|m| !m.is_finite()) {
                return Err(Error::non_finite("a bind pose is not finite"));
            }
            for (k, m) in b.iter().enumerate() {
                check_transform_with(m, || format!("bind pose {k}"))?;
            }
        }
        let mut influence = influence;
        for (i, (bones, weights)) in influence.iter_mut().enumerate() {
            if weights.iter().any(|w| !w.is_finite()) {
                return Err(Error::non_finite(format!("a weight of vertex {i} is not finite")));
            }
            if weights.iter().any(|w| *w < 0.0) {
                return Err(Error::invalid(format!("weights of vertex {i} must be >= 0")));
            }
            let sum: f32 = weights.iter().sum();
            if sum <= 0.0 {
                return Err(Error::invalid(format!("weights of vertex {i} sum to 0")));
            }
            // Weights are relative, normalised here; a sum that overflows would zero them all.
            if sum > 1e6 {
                return Err(Error::invalid(format!("weights of vertex {i} must sum to at most 1e6 (got {sum})")));
            }
            for k in 0..4 {
                weights[k] /= sum;
                if weights[k] > 0.0 && bones[k] as usize >= bone_count {
                    return Err(Error::out_of_range(format!("vertex {i} uses bone {} of {bone_count}", bones[k])));
                }
                if weights[k] == 0.0 {
                    bones[k] = 0;
                }
            }
        }
        let n = rest.len();
        Ok(Skin {
            influence,
            bind,
            bone_count,
            from: rest.clone(),
            to: rest.clone(),
            normal_to: vec![Vec3::Y; n],
            normal_from: vec![Vec3::Y; n],
            rest,
            posed: false,
            skinning: Vec::new(),
            next: Vec::new(),
        })
    }

    /// Takes this frame's `count` bone matrices (`bone(k)`) and computes the skinned pose at
    /// the frame's end. On failure nothing changes. Allocates nothing after the first call.
    pub fn set_bones(&mut self, count: usize, bone: impl Fn(usize) -> Mat4, triangles: &[[u32; 3]]) -> Result<()> {
        if count != self.bone_count {
            return Err(Error::invalid(format!("{count} bone matrices for a skin of {} bones", self.bone_count)));
        }
        if (0..count).any(|k| !bone(k).is_finite()) {
            return Err(Error::non_finite("a bone matrix is not finite"));
        }
        for k in 0..count {
            check_transform_with(&bone(k), || format!("bone matrix {k}"))?;
        }
        let bind = self.bind.get_or_insert_with(|| (0..count).map(|k| bone(k).inverse()).collect());
        self.skinning.clear();
        self.skinning.extend((0..count).map(|k| bone(k) * bind[k]));
        self.next.clear();
        for (i, (ids, w)) in self.influence.iter().enumerate() {
            let r = self.rest[i];
            let mut p = Vec3::ZERO;
            for k in 0..4 {
                if w[k] > 0.0 {
                    p += self.skinning[ids[k] as usize].transform_point3(r) * w[k];
                }
            }
            self.next.push(p);
        }
        if !self.next.iter().all(|p| is_finite3(*p)) {
            return Err(Error::non_finite("the skinned pose is not finite (degenerate bind poses?)"));
        }
        check_positions(&self.next, "skinned position")?;
        std::mem::swap(&mut self.to, &mut self.next);
        self.normal_to.fill(Vec3::ZERO);
        for t in triangles {
            let [a, b, c] = t.map(|i| self.to[i as usize]);
            let n = (b - a).cross(c - a);
            for &i in t {
                self.normal_to[i as usize] += n;
            }
        }
        for n in &mut self.normal_to {
            *n = n.try_normalize().unwrap_or(Vec3::Y);
        }
        if !self.posed {
            // The first pose has no earlier frame to sweep from.
            self.from.copy_from_slice(&self.to);
            self.normal_from.copy_from_slice(&self.normal_to);
            self.posed = true;
        }
        Ok(())
    }

    /// The frame's end pose becomes the next frame's start.
    pub fn finish_frame(&mut self) {
        self.from.copy_from_slice(&self.to);
        self.normal_from.copy_from_slice(&self.normal_to);
    }

    /// The skinned pose over the frame, as the motion constraints take it.
    pub fn path(&self) -> PosePath<'_> {
        PosePath { from: &self.from, to: &self.to, normal_from: &self.normal_from, normal_to: &self.normal_to }
    }

    /// Adds particle `copy` as a duplicate of `orig` (tearing).
    pub fn duplicate(&mut self, orig: usize) {
        self.influence.push(self.influence[orig]);
        self.rest.push(self.rest[orig]);
        self.from.push(self.from[orig]);
        self.to.push(self.to[orig]);
        self.normal_from.push(self.normal_from[orig]);
        self.normal_to.push(self.normal_to[orig]);
    }
}
