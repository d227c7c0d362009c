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
///
/// Without backstops, blocks of particles run on eight lanes ([`lanes`]): the same
/// operations on components, so the same bits as [`solve_scalar`].
pub fn solve(x: &mut [Vec3], w: &[f32], pose: &PosePath, limits: &MotionLimits, t: f32, scale: f32, pull: f32) {
    #[cfg(target_arch = "x86_64")]
    if limits.backstop_radius.is_empty() && std::arch::is_x86_feature_detected!("avx2") {
        let n = x.len().min(w.len()).min(pose.from.len()).min(pose.to.len());
        let max = if limits.max_distance.is_empty() { None } else { Some(&limits.max_distance[..n]) };
        // SAFETY: AVX2 is present.
        let done = unsafe { lanes::solve(&mut x[..n], &w[..n], &pose.from[..n], &pose.to[..n], max, t, scale, pull) };
        solve_range(x, w, pose, limits, t, scale, pull, done..x.len());
        return;
    }
    solve_range(x, w, pose, limits, t, scale, pull, 0..x.len());
}

/// [`solve`] one particle after another (the reference the lanes match).
pub fn solve_scalar(x: &mut [Vec3], w: &[f32], pose: &PosePath, limits: &MotionLimits, t: f32, scale: f32, pull: f32) {
    solve_range(x, w, pose, limits, t, scale, pull, 0..x.len());
}

#[allow(clippy::too_many_arguments)]
fn solve_range(x: &mut [Vec3], w: &[f32], pose: &PosePath, limits: &MotionLimits, t: f32, scale: f32, pull: f32, range: std::ops::Range<usize>) {
    let has_max = !limits.max_distance.is_empty();
    let has_back = !limits.backstop_radius.is_empty();
    for i in range {
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

/// [`solve`] without backstops on eight particles at a time, in blocks taken into components
/// on the stack; every branch is a lane mask, every lane does the scalar operations in
/// their order (glam's `lerp` is `a·(1 − t) + b·t`, its dot `(x·x + y·y) + z·z`).
#[cfg(target_arch = "x86_64")]
mod lanes {
    use crate::math::Vec3;
    use crate::solver::layout::soa::{from_components, to_components};
    use std::arch::x86_64::*;

    const BLOCK: usize = 64;

    /// Returns how many particles it did (whole groups of eight); the rest is for the scalar
    /// loop.
    ///
    /// # Safety
    /// AVX2 is present.
    #[target_feature(enable = "avx2")]
    #[allow(clippy::too_many_arguments)]
    pub unsafe fn solve(x: &mut [Vec3], w: &[f32], from: &[Vec3], to: &[Vec3], max: Option<&[f32]>, t: f32, scale: f32, pull: f32) -> usize {
        let n = x.len() - x.len() % 8;
        assert!(w.len() >= n && from.len() >= n && to.len() >= n && max.is_none_or(|m| m.len() >= n));
        let (t8, one_t, pull8, scale8, zero) = (_mm256_set1_ps(t), _mm256_set1_ps(1.0 - t), _mm256_set1_ps(pull), _mm256_set1_ps(scale), _mm256_setzero_ps());
        let mut first = 0;
        let (mut xs, mut fs, mut ts) = ([[0.0f32; BLOCK]; 3], [[0.0f32; BLOCK]; 3], [[0.0f32; BLOCK]; 3]);
        while first < n {
            let len = (n - first).min(BLOCK);
            let r = first..first + len;
            let [xx, xy, xz] = &mut xs;
            to_components(&x[r.clone()], xx, xy, xz);
            let [fx, fy, fz] = &mut fs;
            to_components(&from[r.clone()], fx, fy, fz);
            let [tx, ty, tz] = &mut ts;
            to_components(&to[r.clone()], tx, ty, tz);
            for k in (0..len).step_by(8) {
                let i = first + k;
                // SAFETY: k + 8 ≤ len ≤ BLOCK; i + 8 ≤ n, within `w` and `max` (asserted).
                unsafe {
                    let ld = |a: &[f32; BLOCK]| _mm256_loadu_ps(a.as_ptr().add(k));
                    let free = _mm256_cmp_ps::<_CMP_NEQ_OQ>(_mm256_loadu_ps(w.as_ptr().add(i)), zero);
                    let s = [0, 1, 2].map(|c| _mm256_add_ps(_mm256_mul_ps(ld(&fs[c]), one_t), _mm256_mul_ps(ld(&ts[c]), t8)));
                    let mut p = [0, 1, 2].map(|c| ld(&xs[c]));
                    if pull > 0.0 {
                        p = [0, 1, 2].map(|c| _mm256_add_ps(p[c], _mm256_mul_ps(_mm256_sub_ps(s[c], p[c]), pull8)));
                    }
                    if let Some(m) = max {
                        let lim = _mm256_mul_ps(_mm256_loadu_ps(m.as_ptr().add(i)), scale8);
                        let d = [0, 1, 2].map(|c| _mm256_sub_ps(p[c], s[c]));
                        let len2 = _mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(d[0], d[0]), _mm256_mul_ps(d[1], d[1])), _mm256_mul_ps(d[2], d[2]));
                        let over = _mm256_cmp_ps::<_CMP_GT_OQ>(len2, _mm256_mul_ps(lim, lim));
                        let f = _mm256_div_ps(lim, _mm256_sqrt_ps(len2));
                        p = [0, 1, 2].map(|c| _mm256_blendv_ps(p[c], _mm256_add_ps(s[c], _mm256_mul_ps(d[c], f)), over));
                    }
                    for (c, a) in xs.iter_mut().enumerate() {
                        let old = _mm256_loadu_ps(a.as_ptr().add(k));
                        _mm256_storeu_ps(a.as_mut_ptr().add(k), _mm256_blendv_ps(old, p[c], free));
                    }
                }
            }
            let [xx, xy, xz] = &xs;
            from_components(xx, xy, xz, &mut x[r]);
            first += len;
        }
        n
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The lanes give the scalar loop's bits: max distances that bind and that do not, no
    /// limit (infinity), pinned particles, the pull alone and with max distances, and a count
    /// of particles that leaves a part-block and a remainder for the scalar loop.
    #[test]
    fn lanes_match_the_scalar_loop_bit_for_bit() {
        let n = 64 * 2 + 21;
        let mut seed = 0x51ed27u32;
        let mut rnd = move || {
            seed ^= seed << 13;
            seed ^= seed >> 17;
            seed ^= seed << 5;
            seed as f32 / u32::MAX as f32 * 2.0 - 1.0
        };
        let from: Vec<Vec3> = (0..n).map(|_| Vec3::new(rnd(), rnd() + 1.0, rnd())).collect();
        let to: Vec<Vec3> = from.iter().map(|p| *p + Vec3::new(rnd(), rnd(), rnd()) * 0.05).collect();
        let x0: Vec<Vec3> = from.iter().map(|p| *p + Vec3::new(rnd(), rnd(), rnd()) * 0.6).collect();
        let w: Vec<f32> = (0..n).map(|i| if i % 7 == 0 { 0.0 } else { 1.0 }).collect();
        let normals = vec![Vec3::Y; n];
        let pose = PosePath { from: &from, to: &to, normal_from: &normals, normal_to: &normals };
        let max: Vec<f32> = (0..n).map(|i| if i % 5 == 0 { f32::INFINITY } else { 0.05 + 0.2 * (i % 3) as f32 }).collect();
        for (limits, pull) in [
            (MotionLimits { max_distance: max.clone(), ..MotionLimits::default() }, 0.0),
            (MotionLimits::default(), 0.3),
            (MotionLimits { max_distance: max.clone(), ..MotionLimits::default() }, 0.1),
        ] {
            let (mut a, mut b) = (x0.clone(), x0.clone());
            solve(&mut a, &w, &pose, &limits, 0.37, 1.2, pull);
            solve_scalar(&mut b, &w, &pose, &limits, 0.37, 1.2, pull);
            let moved = (0..n).filter(|&i| b[i] != x0[i]).count();
            assert!(moved > n / 2, "the cases must move particles ({moved} of {n})");
            for i in 0..n {
                assert_eq!(a[i].to_array().map(f32::to_bits), b[i].to_array().map(f32::to_bits), "particle {i}, pull {pull}");
            }
        }
    }
}
