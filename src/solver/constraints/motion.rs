//! Constraints to the animated (skinned) pose: Unity Cloth's `maxDistance` and
//! `collisionSphereDistance`, NvCloth's motion and separation constraints.
//!
//! - Max distance: `|xᵢ − sᵢ| ≤ dᵢ` around the skinned position `sᵢ`.
//! - Backstop: `xᵢ` stays outside a sphere of radius `Rᵢ` centred `Rᵢ + bᵢ` behind `sᵢ`
//!   along the skinned normal `nᵢ`, so the cloth cannot sink into the body it covers.
//! - Pose stiffness `k` (1/s): each substep moves a free particle the fraction
//!   `1 − e^(−k·h)` of the way to `sᵢ`, the same pull per second at any substep count.

use crate::math::Vec3;

/// The animated pose over the host frame: per particle its skinned position and unit normal
/// at the start (`from`) and end (`to`) of the frame. At frame fraction `t` the pose is
/// their linear interpolation (the normal renormalised).
#[derive(Clone, Copy, Debug)]
pub struct PosePath<'a> {
    pub from: &'a [Vec3],
    pub to: &'a [Vec3],
    pub normal_from: &'a [Vec3],
    pub normal_to: &'a [Vec3],
}

impl PosePath<'_> {
    #[inline]
    pub fn at(&self, i: usize, t: f32) -> Vec3 {
        self.from[i].lerp(self.to[i], t)
    }

    #[inline]
    pub fn normal_at(&self, i: usize, t: f32) -> Vec3 {
        self.normal_from[i].lerp(self.normal_to[i], t).try_normalize().unwrap_or(Vec3::Y)
    }
}

/// Per-particle limits (host values, unscaled); `f32::INFINITY` / radius 0 mean none.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MotionLimits {
    pub max_distance: Vec<f32>,
    pub backstop_offset: Vec<f32>,
    pub backstop_radius: Vec<f32>,
}

/// Projects the limits of every free particle towards `pose` at frame fraction `t`; `scale`
/// multiplies the host's distances, `pull` is the pose stiffness' fraction for this substep.
pub fn solve(x: &mut [Vec3], w: &[f32], pose: &PosePath, limits: &MotionLimits, t: f32, scale: f32, pull: f32) {
    let has_max = !limits.max_distance.is_empty();
    let has_back = !limits.backstop_radius.is_empty();
    for i in 0..x.len() {
        if w[i] == 0.0 {
            continue;
        }
        let s = pose.at(i, t);
        if pull > 0.0 {
            x[i] += (s - x[i]) * pull;
        }
        if has_max {
            let max = limits.max_distance[i] * scale;
            let d = x[i] - s;
            let len2 = d.length_squared();
            if len2 > max * max {
                x[i] = s + d * (max / len2.sqrt());
            }
        }
        if has_back {
            let r = limits.backstop_radius[i] * scale;
            if r > 0.0 {
                let centre = s - pose.normal_at(i, t) * (r + limits.backstop_offset[i] * scale);
                let d = x[i] - centre;
                let len = d.length();
                if len < r {
                    x[i] = if len > 1e-9 { centre + d * (r / len) } else { centre + pose.normal_at(i, t) * r };
                }
            }
        }
    }
}
