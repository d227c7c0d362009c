//! Tetrahedral volume constraints by XPBD (Macklin, Müller, Chentanez 2016; the constraint of
//! Müller et al. 2020's soft bodies and of Jolt's `Volume` constraint).
//!
//! A tetrahedron `(a, b, c, d)` has signed volume `V = (b − a)·((c − a) × (d − a)) / 6`,
//! positive in its rest orientation. Its constraint is `C = V − V₀ s³` (`s` the body's
//! uniform scale) with gradients `∇_b V = (c − a) × (d − a)/6`, `∇_c V = (d − a) × (b − a)/6`,
//! `∇_d V = (b − a) × (c − a)/6`, `∇_a V = −(∇_b + ∇_c + ∇_d)`, and the one Lagrange update
//! `Δλ = (−C − α̃λ) / (Σ wᵢ|∇ᵢV|² + α̃)`, `xᵢ += wᵢ ∇ᵢV Δλ`, with `α̃ = α/h²` and the
//! compliance `α` in m³/(N·m) — 0 keeps every tetrahedron's volume. The gradients sum to
//! zero and the corrections are parallel to them weighted by inverse mass, so a pass moves no
//! centre of mass; an inverted tetrahedron (`V < 0`) is pushed back through zero to `V₀`,
//! not towards `−V₀`, so a crushed body recovers its orientation.

use crate::math::Vec3;

/// Cooked tetrahedra of one body design.
#[derive(Clone, Debug, Default)]
pub struct Tets {
    pub index: Vec<[u32; 4]>,
    /// Rest volumes (m³), positive.
    pub rest: Vec<f32>,
    /// After [`Tets::colour`]: batch `k` is tetrahedra `batches[k]..batches[k + 1]`, no two
    /// of a batch sharing a particle (empty: one batch of all, in order).
    pub batches: Vec<u32>,
}

/// Signed volume of the tetrahedron `(a, b, c, d)`.
#[inline]
pub fn signed_volume(a: Vec3, b: Vec3, c: Vec3, d: Vec3) -> f32 {
    (b - a).dot((c - a).cross(d - a)) / 6.0
}

impl Tets {
    pub fn len(&self) -> usize {
        self.index.len()
    }

    pub fn is_empty(&self) -> bool {
        self.index.is_empty()
    }

    /// Sum of the signed volumes at positions `x` (m³).
    pub fn volume(&self, x: &[Vec3]) -> f32 {
        self.index.iter().map(|t| signed_volume(x[t[0] as usize], x[t[1] as usize], x[t[2] as usize], x[t[3] as usize])).sum()
    }

    /// Sum of the rest volumes (m³).
    pub fn rest_volume(&self) -> f32 {
        self.rest.iter().sum()
    }

    /// Reorders the tetrahedra into the batches `class` gives (one class per tetrahedron;
    /// batches in class order, tetrahedra in their cooked order within one). The caller
    /// vouches that no two tetrahedra of a class share a particle (a lattice: one tetrahedron
    /// of its cube's six in cubes of one parity, see `softbody`).
    pub fn batch_by(&mut self, class: &[u32]) {
        assert_eq!(class.len(), self.len(), "one class per tetrahedron");
        let mut order: Vec<usize> = (0..self.len()).collect();
        order.sort_by_key(|&k| (class[k], k));
        self.index = order.iter().map(|&k| self.index[k]).collect();
        self.rest = order.iter().map(|&k| self.rest[k]).collect();
        self.batches = vec![0];
        for k in 1..=order.len() {
            if k == order.len() || class[order[k]] != class[order[k - 1]] {
                self.batches.push(k as u32);
            }
        }
    }

    /// Reorders the tetrahedra into independent batches (graph colours: no two tetrahedra
    /// of a batch share a particle), batches in colour order, tetrahedra in their cooked
    /// order within a batch; `particles` bounds the indices. Greedy: each tetrahedron takes
    /// the lowest colour none of its particles has yet, so a lattice's 24 tetrahedra per
    /// particle give about as many batches.
    pub fn colour(&mut self, particles: usize) {
        let mut used: Vec<Vec<bool>> = vec![Vec::new(); particles];
        let mut colour = Vec::with_capacity(self.len());
        for t in &self.index {
            let mut c = 0;
            while t.iter().any(|&i| used[i as usize].get(c).copied().unwrap_or(false)) {
                c += 1;
            }
            for &i in t {
                let u = &mut used[i as usize];
                if u.len() <= c {
                    u.resize(c + 1, false);
                }
                u[c] = true;
            }
            colour.push(c);
        }
        let count = colour.iter().max().map_or(0, |c| c + 1);
        let mut order: Vec<usize> = (0..self.len()).collect();
        order.sort_by_key(|&k| (colour[k], k));
        self.index = order.iter().map(|&k| self.index[k]).collect();
        self.rest = order.iter().map(|&k| self.rest[k]).collect();
        self.batches = vec![0];
        for c in 0..count {
            let end = self.batches[c] as usize + colour.iter().filter(|&&k| k == c).count();
            self.batches.push(end as u32);
        }
    }
}

/// One pass over every tetrahedron, in order (Gauss–Seidel), with multipliers `lambda`
/// (zeroed by the caller each substep) and `alpha_tilde = α/h²`; `scale` the body's scale.
/// The scalar reference of [`solve_batches`].
pub fn solve(x: &mut [Vec3], w: &[f32], tets: &Tets, lambda: &mut [f32], alpha_tilde: f32, scale: f32) {
    let s3 = scale * scale * scale;
    for k in 0..tets.len() {
        project(x, w, tets, k, lambda, alpha_tilde, s3);
    }
}

/// The one update of tetrahedron `k` (`s3` the cube of the body's scale).
#[inline(always)]
fn project(x: &mut [Vec3], w: &[f32], tets: &Tets, k: usize, lambda: &mut [f32], alpha_tilde: f32, s3: f32) {
    let [a, b, c, d] = tets.index[k].map(|i| i as usize);
    let (xa, xb, xc, xd) = (x[a], x[b], x[c], x[d]);
    let gb = (xc - xa).cross(xd - xa) / 6.0;
    let gc = (xd - xa).cross(xb - xa) / 6.0;
    let gd = (xb - xa).cross(xc - xa) / 6.0;
    let ga = -(gb + gc + gd);
    let vol = (xb - xa).dot(gb);
    let c_val = vol - tets.rest[k] * s3;
    let den = w[a] * ga.length_squared() + w[b] * gb.length_squared() + w[c] * gc.length_squared() + w[d] * gd.length_squared() + alpha_tilde;
    if den <= 1e-30 {
        return;
    }
    let dl = (-c_val - alpha_tilde * lambda[k]) / den;
    lambda[k] += dl;
    x[a] += ga * (w[a] * dl);
    x[b] += gb * (w[b] * dl);
    x[c] += gc * (w[c] * dl);
    x[d] += gd * (w[d] * dl);
}

/// [`solve`] with eight tetrahedra of a batch at a time (AVX) where `avx` is set and the
/// tetrahedra are coloured ([`Tets::colour`]); the same operations in the same order per
/// tetrahedron, and the tetrahedra of a batch share no particle, so the bits are the scalar
/// reference's (tested).
pub fn solve_batches(avx: bool, x: &mut [Vec3], w: &[f32], tets: &Tets, lambda: &mut [f32], alpha_tilde: f32, scale: f32) {
    #[cfg(target_arch = "x86_64")]
    if avx && !tets.batches.is_empty() && std::arch::is_x86_feature_detected!("avx") {
        // SAFETY: AVX was detected (every index is bounds-checked inside).
        unsafe { x86::solve_avx(x, w, tets, lambda, alpha_tilde, scale) };
        return;
    }
    let _ = avx;
    solve(x, w, tets, lambda, alpha_tilde, scale);
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    use super::{Tets, project};
    use crate::math::Vec3;
    use std::arch::x86_64::*;

    /// Eight lanes of a 3-vector.
    #[derive(Clone, Copy)]
    struct V3 {
        x: __m256,
        y: __m256,
        z: __m256,
    }

    #[target_feature(enable = "avx")]
    fn sub(a: V3, b: V3) -> V3 {
        V3 { x: _mm256_sub_ps(a.x, b.x), y: _mm256_sub_ps(a.y, b.y), z: _mm256_sub_ps(a.z, b.z) }
    }

    #[target_feature(enable = "avx")]
    fn add(a: V3, b: V3) -> V3 {
        V3 { x: _mm256_add_ps(a.x, b.x), y: _mm256_add_ps(a.y, b.y), z: _mm256_add_ps(a.z, b.z) }
    }

    /// `a × b` as glam's `Vec3::cross` computes it.
    #[target_feature(enable = "avx")]
    fn cross(a: V3, b: V3) -> V3 {
        V3 {
            x: _mm256_sub_ps(_mm256_mul_ps(a.y, b.z), _mm256_mul_ps(b.y, a.z)),
            y: _mm256_sub_ps(_mm256_mul_ps(a.z, b.x), _mm256_mul_ps(b.z, a.x)),
            z: _mm256_sub_ps(_mm256_mul_ps(a.x, b.y), _mm256_mul_ps(b.x, a.y)),
        }
    }

    #[target_feature(enable = "avx")]
    fn div(a: V3, s: __m256) -> V3 {
        V3 { x: _mm256_div_ps(a.x, s), y: _mm256_div_ps(a.y, s), z: _mm256_div_ps(a.z, s) }
    }

    #[target_feature(enable = "avx")]
    fn dot(a: V3, b: V3) -> __m256 {
        _mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(a.x, b.x), _mm256_mul_ps(a.y, b.y)), _mm256_mul_ps(a.z, b.z))
    }

    /// `x + g·s` per component.
    #[target_feature(enable = "avx")]
    fn step(x: V3, g: V3, s: __m256) -> V3 {
        V3 { x: _mm256_add_ps(x.x, _mm256_mul_ps(g.x, s)), y: _mm256_add_ps(x.y, _mm256_mul_ps(g.y, s)), z: _mm256_add_ps(x.z, _mm256_mul_ps(g.z, s)) }
    }

    #[target_feature(enable = "avx")]
    fn store(v: __m256) -> [f32; 8] {
        let mut o = [0.0f32; 8];
        // SAFETY: `o` holds eight floats.
        unsafe { _mm256_storeu_ps(o.as_mut_ptr(), v) };
        o
    }

    /// Eight lanes: field `$f` of `*$p.add($ix[l])` (unchecked: the caller's indices).
    macro_rules! gather {
        ($p:expr, $ix:expr, $($f:tt)*) => {
            _mm256_setr_ps(
                (*$p.add($ix[0]))$($f)*, (*$p.add($ix[1]))$($f)*, (*$p.add($ix[2]))$($f)*, (*$p.add($ix[3]))$($f)*,
                (*$p.add($ix[4]))$($f)*, (*$p.add($ix[5]))$($f)*, (*$p.add($ix[6]))$($f)*, (*$p.add($ix[7]))$($f)*,
            )
        };
    }

    /// The eight particles `ix` (unchecked).
    #[target_feature(enable = "avx")]
    unsafe fn load(xp: *const Vec3, ix: &[usize; 8]) -> V3 {
        unsafe { V3 { x: gather!(xp, ix, .x), y: gather!(xp, ix, .y), z: gather!(xp, ix, .z) } }
    }

    /// Particles `ix` (unchecked) at `p + g·s`, where `skip` is clear (else kept at `p`).
    #[target_feature(enable = "avx")]
    unsafe fn put(xp: *mut Vec3, ix: &[usize; 8], p: V3, g: V3, s: __m256, skip: __m256) {
        let m = step(p, g, s);
        let (mx, my, mz) = (store(_mm256_blendv_ps(m.x, p.x, skip)), store(_mm256_blendv_ps(m.y, p.y, skip)), store(_mm256_blendv_ps(m.z, p.z, skip)));
        for l in 0..8 {
            unsafe { *xp.add(ix[l]) = Vec3::new(mx[l], my[l], mz[l]) };
        }
    }

    /// Every batch in groups of eight, the rest of a batch one at a time.
    #[target_feature(enable = "avx")]
    pub(super) fn solve_avx(x: &mut [Vec3], w: &[f32], tets: &Tets, lambda: &mut [f32], alpha_tilde: f32, scale: f32) {
        let s3 = scale * scale * scale;
        let (six, at, s3v, tiny) = (_mm256_set1_ps(6.0), _mm256_set1_ps(alpha_tilde), _mm256_set1_ps(s3), _mm256_set1_ps(1e-30));
        let sign = _mm256_set1_ps(-0.0);
        let n = x.len().min(w.len());
        assert!(lambda.len() >= tets.len() && tets.rest.len() >= tets.len(), "one multiplier and rest volume per tetrahedron");
        for pair in tets.batches.windows(2) {
            let (start, end) = (pair[0] as usize, pair[1] as usize);
            let mut k = start;
            while k + 8 <= end {
                // Vertex v of lane l is particle ix[v][l].
                let mut ix = [[0usize; 8]; 4];
                let mut hi = 0u32;
                let group = &tets.index[k..k + 8];
                for l in 0..8 {
                    let t = group[l];
                    hi = hi.max(t[0]).max(t[1]).max(t[2]).max(t[3]);
                    ix[0][l] = t[0] as usize;
                    ix[1][l] = t[1] as usize;
                    ix[2][l] = t[2] as usize;
                    ix[3][l] = t[3] as usize;
                }
                assert!((hi as usize) < n, "a tetrahedron's index is out of range");
                let (xp, wp) = (x.as_mut_ptr(), w.as_ptr());
                // SAFETY (every unchecked access below): the indices are below `n`, the
                // lengths of `x` and `w`, and `k + 8 <= len` for `rest` and `lambda`.
                let (xa, xb, xc, xd) = unsafe { (load(xp, &ix[0]), load(xp, &ix[1]), load(xp, &ix[2]), load(xp, &ix[3])) };
                let wv = unsafe { [gather!(wp, ix[0],), gather!(wp, ix[1],), gather!(wp, ix[2],), gather!(wp, ix[3],)] };
                let (e1, e2, e3) = (sub(xb, xa), sub(xc, xa), sub(xd, xa));
                let gb = div(cross(e2, e3), six);
                let gc = div(cross(e3, e1), six);
                let gd = div(cross(e1, e2), six);
                let sum = add(add(gb, gc), gd);
                let ga = V3 { x: _mm256_xor_ps(sum.x, sign), y: _mm256_xor_ps(sum.y, sign), z: _mm256_xor_ps(sum.z, sign) };
                let vol = dot(e1, gb);
                let rest = unsafe { _mm256_loadu_ps(tets.rest.as_ptr().add(k)) };
                let c = _mm256_sub_ps(vol, _mm256_mul_ps(rest, s3v));
                let mut den = _mm256_mul_ps(wv[0], dot(ga, ga));
                den = _mm256_add_ps(den, _mm256_mul_ps(wv[1], dot(gb, gb)));
                den = _mm256_add_ps(den, _mm256_mul_ps(wv[2], dot(gc, gc)));
                den = _mm256_add_ps(den, _mm256_mul_ps(wv[3], dot(gd, gd)));
                den = _mm256_add_ps(den, at);
                // Skipped where `den <= 1e-30` (ordered: a NaN is not skipped, as in `solve`).
                let skip = _mm256_cmp_ps::<_CMP_LE_OQ>(den, tiny);
                let lp = unsafe { lambda.as_mut_ptr().add(k) };
                let l0 = unsafe { _mm256_loadu_ps(lp) };
                let dl = _mm256_div_ps(_mm256_sub_ps(_mm256_xor_ps(c, sign), _mm256_mul_ps(at, l0)), den);
                // Skipped lanes keep their multiplier and positions (blended back).
                unsafe { _mm256_storeu_ps(lp, _mm256_blendv_ps(_mm256_add_ps(l0, dl), l0, skip)) };
                unsafe {
                    put(xp, &ix[0], xa, ga, _mm256_mul_ps(wv[0], dl), skip);
                    put(xp, &ix[1], xb, gb, _mm256_mul_ps(wv[1], dl), skip);
                    put(xp, &ix[2], xc, gc, _mm256_mul_ps(wv[2], dl), skip);
                    put(xp, &ix[3], xd, gd, _mm256_mul_ps(wv[3], dl), skip);
                }
                k += 8;
            }
            for k in k..end {
                project(x, w, tets, k, lambda, alpha_tilde, s3);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_squeezed_tetrahedron_returns_to_its_volume_and_keeps_its_centre() {
        let rest = [Vec3::ZERO, Vec3::X, Vec3::Y, Vec3::Z];
        let tets = Tets { index: vec![[0, 1, 2, 3]], rest: vec![signed_volume(rest[0], rest[1], rest[2], rest[3])], ..Tets::default() };
        let mut x = rest.map(|p| p * Vec3::new(1.0, 0.5, 1.0)).to_vec();
        let w = [1.0, 2.0, 0.5, 1.0];
        let mass_centre = |x: &[Vec3]| x.iter().zip(w).map(|(p, w)| *p / w).sum::<Vec3>();
        let before = mass_centre(&x);
        let mut lambda = [0.0];
        for _ in 0..20 {
            solve(&mut x, &w, &tets, &mut lambda, 0.0, 1.0);
        }
        assert!((tets.volume(&x) - tets.rest[0]).abs() < 1e-6 * tets.rest[0], "volume {} of {}", tets.volume(&x), tets.rest[0]);
        assert!((mass_centre(&x) - before).length() < 1e-6);
    }

    #[test]
    fn an_inverted_tetrahedron_comes_back_the_right_way_round() {
        let rest = [Vec3::ZERO, Vec3::X, Vec3::Y, Vec3::Z];
        let tets = Tets { index: vec![[0, 1, 2, 3]], rest: vec![1.0 / 6.0], ..Tets::default() };
        let mut x = rest.to_vec();
        x[3] = Vec3::new(0.2, 0.2, -0.3);
        assert!(tets.volume(&x) < 0.0);
        let mut lambda = [0.0];
        for _ in 0..50 {
            solve(&mut x, &[1.0; 4], &tets, &mut lambda, 0.0, 1.0);
        }
        assert!((tets.volume(&x) - 1.0 / 6.0).abs() < 1e-5, "volume {}", tets.volume(&x));
    }
}

#[cfg(test)]
mod batch_tests {
    use super::*;

    /// A 5 × 4 × 6 lattice of cubes cut into 6 tetrahedra each, shuffled and squeezed.
    fn crumpled() -> (Vec<Vec3>, Vec<f32>, Tets) {
        let (nx, ny, nz) = (6usize, 5usize, 7usize);
        let id = |i: usize, j: usize, k: usize| (i + nx * (j + ny * k)) as u32;
        let mut seed = 12345u32;
        let mut rnd = || {
            seed = seed.wrapping_mul(1664525).wrapping_add(1013904223);
            (seed >> 8) as f32 / (1u32 << 24) as f32 - 0.5
        };
        let mut rest = Vec::new();
        for k in 0..nz {
            for j in 0..ny {
                for i in 0..nx {
                    rest.push(Vec3::new(i as f32, j as f32, k as f32) * 0.05);
                }
            }
        }
        let mut tets = Tets::default();
        const CUBE: [[usize; 4]; 6] = [[0, 1, 3, 7], [0, 3, 2, 7], [0, 2, 6, 7], [0, 6, 4, 7], [0, 4, 5, 7], [0, 5, 1, 7]];
        for k in 0..nz - 1 {
            for j in 0..ny - 1 {
                for i in 0..nx - 1 {
                    let corner = |c: usize| id(i + (c & 1), j + ((c >> 1) & 1), k + ((c >> 2) & 1));
                    for t in CUBE {
                        let mut idx = t.map(corner);
                        let p = idx.map(|v| rest[v as usize]);
                        let mut vol = signed_volume(p[0], p[1], p[2], p[3]);
                        if vol < 0.0 {
                            idx.swap(2, 3);
                            vol = -vol;
                        }
                        tets.index.push(idx);
                        tets.rest.push(vol);
                    }
                }
            }
        }
        let x = rest.iter().map(|p| *p * Vec3::new(1.0, 0.6, 1.1) + Vec3::new(rnd(), rnd(), rnd()) * 0.02 + Vec3::new(3.0, 0.5, -1.0)).collect();
        let w = (0..rest.len()).map(|i| if i % 17 == 0 { 0.0 } else { 400.0 + 100.0 * rnd() }).collect();
        (x, w, tets)
    }

    #[test]
    fn colouring_keeps_every_tetrahedron_once_and_no_batch_shares_a_particle() {
        let (x, _, mut tets) = crumpled();
        let before: std::collections::BTreeSet<_> = tets.index.iter().zip(&tets.rest).map(|(t, r)| (*t, r.to_bits())).collect();
        tets.colour(x.len());
        let after: std::collections::BTreeSet<_> = tets.index.iter().zip(&tets.rest).map(|(t, r)| (*t, r.to_bits())).collect();
        assert_eq!(before, after, "the same tetrahedra with the same rest volumes");
        assert_eq!(tets.index.len(), before.len());
        assert_eq!((tets.batches[0], *tets.batches.last().unwrap() as usize), (0, tets.len()));
        for pair in tets.batches.windows(2) {
            let mut seen = std::collections::BTreeSet::new();
            for t in &tets.index[pair[0] as usize..pair[1] as usize] {
                for &i in t {
                    assert!(seen.insert(i), "particle {i} twice in batch {pair:?}");
                }
            }
        }
        println!("{} tetrahedra in {} batches", tets.len(), tets.batches.len() - 1);
        assert!(tets.batches.len() - 1 <= 40, "{} batches", tets.batches.len() - 1);
    }

    #[test]
    fn batches_of_eight_give_the_scalar_bits() {
        let (x0, w, mut tets) = crumpled();
        tets.colour(x0.len());
        for (alpha, scale) in [(0.0, 1.0), (1e-7, 1.3)] {
            let (mut xs, mut xv) = (x0.clone(), x0.clone());
            let (mut ls, mut lv) = (vec![0.0; tets.len()], vec![0.0; tets.len()]);
            for _ in 0..5 {
                solve(&mut xs, &w, &tets, &mut ls, alpha, scale);
                solve_batches(true, &mut xv, &w, &tets, &mut lv, alpha, scale);
            }
            assert!(xs.iter().zip(&x0).any(|(a, b)| a != b), "the passes moved something");
            for (i, (a, b)) in xs.iter().zip(&xv).enumerate() {
                assert_eq!(a.to_array().map(f32::to_bits), b.to_array().map(f32::to_bits), "particle {i}");
            }
            assert_eq!(ls.iter().map(|l| l.to_bits()).collect::<Vec<_>>(), lv.iter().map(|l| l.to_bits()).collect::<Vec<_>>());
        }
    }
}
