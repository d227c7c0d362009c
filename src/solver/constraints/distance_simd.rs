//! The distance kernel in SIMD lanes, for independent batches.
//!
//! Particles are packed as `[x, y, z, w]` (16 B, inverse mass in `w`, as NvCloth does), so a
//! particle is one 128-bit load. Eight constraints (AVX) or four (SSE2) are processed at once:
//! their particles are loaded and transposed into `x`, `y`, `z`, `w` vectors, projected with
//! exactly the operations of the scalar kernel in [`super::distance::solve`], in the same
//! order and without fused multiply-adds, then transposed back and stored. Inside an
//! independent batch no two constraints share a particle, so lanes never conflict, and the
//! result is bit-identical to the scalar kernel on the same batch.
//!
//! Layout: `packed` 16 B per particle; constraints as in `distance.rs` (a, b, rest, kind:
//! 13 B) plus their multiplier (4 B).

use crate::math::{LENGTH_EPSILON, Vec3, WEIGHT_EPSILON};
use crate::solver::constraints::distance::{self, DistanceConstraints, KIND_COUNT, Particles};

/// `x, y, z` and inverse mass of one particle.
pub type Packed = [f32; 4];

/// Which kernel projects independent batches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kernel {
    /// One constraint at a time on `Vec3` positions: the reference.
    Scalar,
    /// Four lanes, SSE2 (every x86-64 CPU).
    Sse2,
    /// Eight lanes, AVX.
    Avx,
}

impl Kernel {
    /// Whether this CPU runs the kernel.
    pub fn supported(self) -> bool {
        match self {
            Kernel::Scalar => true,
            #[cfg(target_arch = "x86_64")]
            Kernel::Sse2 => true,
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx => std::arch::is_x86_feature_detected!("avx"),
            #[cfg(not(target_arch = "x86_64"))]
            _ => false,
        }
    }

    /// The fastest kernel this CPU runs.
    pub fn detect() -> Kernel {
        #[cfg(target_arch = "x86_64")]
        {
            if std::arch::is_x86_feature_detected!("avx") {
                return Kernel::Avx;
            }
            Kernel::Sse2
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            Kernel::Scalar
        }
    }
}

impl Particles for [Packed] {
    #[inline(always)]
    fn get(&self, i: usize) -> (Vec3, f32) {
        let q = self[i];
        (Vec3::new(q[0], q[1], q[2]), q[3])
    }
    #[inline(always)]
    fn set(&mut self, i: usize, x: Vec3) {
        self[i][..3].copy_from_slice(&x.to_array());
    }
}

/// The scalar kernel on packed particles: the tail of a SIMD batch, and chains.
pub fn solve_packed(p: &mut [Packed], c: &DistanceConstraints, range: std::ops::Range<usize>, lambda: &mut [f32], at: &[f32; KIND_COUNT], rest_scale: f32) {
    distance::project(p, c, range.clone(), &mut lambda[range], at, rest_scale);
}

/// A batch that is not independent, on packed particles, `prev` the positions the substep
/// started from ([`distance::project_sequential`]: a compliant chain is solved directly,
/// anything else in order).
#[allow(clippy::too_many_arguments)]
pub fn solve_packed_sequential(p: &mut [Packed], prev: &[Vec3], carry: &mut [Vec3], c: &DistanceConstraints, range: std::ops::Range<usize>, lambda: &mut [f32], at: &[f32; KIND_COUNT], rest_scale: f32) {
    distance::project_sequential(p, prev, carry, c, range.clone(), &mut lambda[range], at, rest_scale);
}

/// Projects the independent batch `range` with `kernel`.
///
/// # Safety
/// Every particle index of the constraints in `range` must be `< p.len()` (a `Topology`
/// guarantees it for its own particles), and `range` must lie within `c` and `lambda`.
pub unsafe fn solve_batch(kernel: Kernel, p: &mut [Packed], c: &DistanceConstraints, range: std::ops::Range<usize>, lambda: &mut [f32], at: &[f32; KIND_COUNT], rest_scale: f32) {
    debug_assert!(range.end <= c.len() && range.end <= lambda.len());
    debug_assert!(c.a[range.clone()].iter().chain(&c.b[range.clone()]).all(|&i| (i as usize) < p.len()));
    match kernel {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: AVX was detected by `Kernel::detect` (or checked by the caller that chose
        // it); indices are the caller's promise.
        Kernel::Avx => unsafe { x86::solve_avx(p, c, range, lambda, at, rest_scale) },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: SSE2 is part of x86-64; indices are the caller's promise.
        Kernel::Sse2 => unsafe { x86::solve_sse2(p, c, range, lambda, at, rest_scale) },
        _ => solve_packed(p, c, range, lambda, at, rest_scale),
    }
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    use super::*;
    use std::arch::x86_64::*;

    /// Eight constraints' particles, loaded and transposed.
    struct Group {
        ia: [usize; 8],
        ib: [usize; 8],
        xa: __m256,
        ya: __m256,
        za: __m256,
        wa: __m256,
        xb: __m256,
        yb: __m256,
        zb: __m256,
        wb: __m256,
        dx: __m256,
        dy: __m256,
        dz: __m256,
    }

    #[inline]
    #[target_feature(enable = "avx")]
    unsafe fn gather(base: *const f32, c: &DistanceConstraints, i: usize) -> Group {
        unsafe {
            let ia: [usize; 8] = std::array::from_fn(|k| *c.a.get_unchecked(i + k) as usize);
            let ib: [usize; 8] = std::array::from_fn(|k| *c.b.get_unchecked(i + k) as usize);
            let load = |j: usize| _mm_loadu_ps(base.add(4 * j));
            let (xa, ya, za, wa) = transpose_in([load(ia[0]), load(ia[1]), load(ia[2]), load(ia[3]), load(ia[4]), load(ia[5]), load(ia[6]), load(ia[7])]);
            let (xb, yb, zb, wb) = transpose_in([load(ib[0]), load(ib[1]), load(ib[2]), load(ib[3]), load(ib[4]), load(ib[5]), load(ib[6]), load(ib[7])]);
            let (dx, dy, dz) = (_mm256_sub_ps(xb, xa), _mm256_sub_ps(yb, ya), _mm256_sub_ps(zb, za));
            Group { ia, ib, xa, ya, za, wa, xb, yb, zb, wb, dx, dy, dz }
        }
    }

    /// `|d|` per lane, as the scalar kernel: `sqrt((x·x + y·y) + z·z)`.
    #[inline]
    #[target_feature(enable = "avx")]
    unsafe fn length(g: &Group) -> __m256 {
        _mm256_sqrt_ps(_mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(g.dx, g.dx), _mm256_mul_ps(g.dy, g.dy)), _mm256_mul_ps(g.dz, g.dz)))
    }

    /// Applies `q = Δλ/|d|` to the group's particles (lanes not `valid` unchanged) and stores them.
    #[inline]
    #[target_feature(enable = "avx")]
    unsafe fn scatter(base: *mut f32, g: &Group, q: __m256, valid: __m256) {
        unsafe {
            let sa = _mm256_mul_ps(g.wa, q);
            let sb = _mm256_mul_ps(g.wb, q);
            let xa2 = _mm256_blendv_ps(g.xa, _mm256_sub_ps(g.xa, _mm256_mul_ps(g.dx, sa)), valid);
            let ya2 = _mm256_blendv_ps(g.ya, _mm256_sub_ps(g.ya, _mm256_mul_ps(g.dy, sa)), valid);
            let za2 = _mm256_blendv_ps(g.za, _mm256_sub_ps(g.za, _mm256_mul_ps(g.dz, sa)), valid);
            let xb2 = _mm256_blendv_ps(g.xb, _mm256_add_ps(g.xb, _mm256_mul_ps(g.dx, sb)), valid);
            let yb2 = _mm256_blendv_ps(g.yb, _mm256_add_ps(g.yb, _mm256_mul_ps(g.dy, sb)), valid);
            let zb2 = _mm256_blendv_ps(g.zb, _mm256_add_ps(g.zb, _mm256_mul_ps(g.dz, sb)), valid);
            let out_a = transpose_out(xa2, ya2, za2, g.wa);
            let out_b = transpose_out(xb2, yb2, zb2, g.wb);
            for k in 0..8 {
                _mm_storeu_ps(base.add(4 * g.ia[k]), out_a[k]);
                _mm_storeu_ps(base.add(4 * g.ib[k]), out_b[k]);
            }
        }
    }

    #[target_feature(enable = "avx")]
    pub unsafe fn solve_avx(p: &mut [Packed], c: &DistanceConstraints, range: std::ops::Range<usize>, lambda: &mut [f32], at: &[f32; KIND_COUNT], rest_scale: f32) {
        let base = p.as_mut_ptr() as *mut f32;
        let mut i = range.start;
        let eps = _mm256_set1_ps(LENGTH_EPSILON);
        let weps = _mm256_set1_ps(WEIGHT_EPSILON);
        let scale = _mm256_set1_ps(rest_scale);
        let zero = _mm256_setzero_ps();
        let rigid = at.iter().all(|&a| a == 0.0);
        unsafe {
            if rigid {
                // α̃ = 0 for every class: λ cannot influence positions, so it is not tracked.
                // Two groups at a time: their square roots and divisions overlap.
                while i + 16 <= range.end {
                    let (g0, g1) = (gather(base, c, i), gather(base, c, i + 8));
                    let (l0, l1) = (length(&g0), length(&g1));
                    let r0 = _mm256_mul_ps(_mm256_loadu_ps(c.rest.as_ptr().add(i)), scale);
                    let r1 = _mm256_mul_ps(_mm256_loadu_ps(c.rest.as_ptr().add(i + 8)), scale);
                    let (d0, d1) = (_mm256_add_ps(_mm256_add_ps(g0.wa, g0.wb), zero), _mm256_add_ps(_mm256_add_ps(g1.wa, g1.wb), zero));
                    let n0 = _mm256_sub_ps(_mm256_sub_ps(zero, _mm256_sub_ps(l0, r0)), zero);
                    let n1 = _mm256_sub_ps(_mm256_sub_ps(zero, _mm256_sub_ps(l1, r1)), zero);
                    let v0 = _mm256_cmp_ps::<_CMP_GE_OQ>(l0, eps);
                    let v1 = _mm256_cmp_ps::<_CMP_GE_OQ>(l1, eps);
                    let ok0 = _mm256_and_ps(v0, _mm256_cmp_ps::<_CMP_GT_OQ>(d0, weps));
                    let ok1 = _mm256_and_ps(v1, _mm256_cmp_ps::<_CMP_GT_OQ>(d1, weps));
                    let q0 = _mm256_and_ps(_mm256_div_ps(n0, _mm256_mul_ps(d0, l0)), ok0);
                    let q1 = _mm256_and_ps(_mm256_div_ps(n1, _mm256_mul_ps(d1, l1)), ok1);
                    scatter(base, &g0, q0, v0);
                    scatter(base, &g1, q1, v1);
                    i += 16;
                }
            }
            while i + 8 <= range.end {
                let g = gather(base, c, i);
                let len = length(&g);
                let valid = _mm256_cmp_ps::<_CMP_GE_OQ>(len, eps);
                let rest = _mm256_mul_ps(_mm256_loadu_ps(c.rest.as_ptr().add(i)), scale);
                let cval = _mm256_sub_ps(len, rest);
                let kinds: [f32; 8] = std::array::from_fn(|k| at[*c.kind.get_unchecked(i + k) as usize]);
                let at_v = _mm256_loadu_ps(kinds.as_ptr());
                let lam = _mm256_loadu_ps(lambda.as_ptr().add(i));
                let denom = _mm256_add_ps(_mm256_add_ps(g.wa, g.wb), at_v);
                let num = _mm256_sub_ps(_mm256_sub_ps(zero, cval), _mm256_mul_ps(at_v, lam));
                // Lanes with too small a denominator get Δλ = 0, as the scalar kernel's guard.
                let ok = _mm256_and_ps(valid, _mm256_cmp_ps::<_CMP_GT_OQ>(denom, weps));
                let q = _mm256_and_ps(_mm256_div_ps(num, _mm256_mul_ps(denom, len)), ok);
                let new_lam = _mm256_add_ps(lam, _mm256_mul_ps(q, len));
                let tracked = _mm256_and_ps(valid, _mm256_cmp_ps::<_CMP_NEQ_OQ>(at_v, zero));
                _mm256_storeu_ps(lambda.as_mut_ptr().add(i), _mm256_blendv_ps(lam, new_lam, tracked));
                scatter(base, &g, q, valid);
                i += 8;
            }
        }
        solve_packed(p, c, i..range.end, lambda, at, rest_scale);
    }

    /// Eight particles `[x y z w]` → vectors of x, y, z, w (lane k = particle k).
    #[inline]
    #[target_feature(enable = "avx")]
    unsafe fn transpose_in(r: [__m128; 8]) -> (__m256, __m256, __m256, __m256) {
            let r0 = _mm256_set_m128(r[4], r[0]);
            let r1 = _mm256_set_m128(r[5], r[1]);
            let r2 = _mm256_set_m128(r[6], r[2]);
            let r3 = _mm256_set_m128(r[7], r[3]);
            let t0 = _mm256_unpacklo_ps(r0, r1);
            let t1 = _mm256_unpackhi_ps(r0, r1);
            let t2 = _mm256_unpacklo_ps(r2, r3);
            let t3 = _mm256_unpackhi_ps(r2, r3);
            (_mm256_shuffle_ps::<0x44>(t0, t2), _mm256_shuffle_ps::<0xEE>(t0, t2), _mm256_shuffle_ps::<0x44>(t1, t3), _mm256_shuffle_ps::<0xEE>(t1, t3))
    }

    /// The inverse of [`transpose_in`].
    #[inline]
    #[target_feature(enable = "avx")]
    unsafe fn transpose_out(x: __m256, y: __m256, z: __m256, w: __m256) -> [__m128; 8] {
            let u0 = _mm256_unpacklo_ps(x, y);
            let u1 = _mm256_unpackhi_ps(x, y);
            let u2 = _mm256_unpacklo_ps(z, w);
            let u3 = _mm256_unpackhi_ps(z, w);
            let q0 = _mm256_shuffle_ps::<0x44>(u0, u2);
            let q1 = _mm256_shuffle_ps::<0xEE>(u0, u2);
            let q2 = _mm256_shuffle_ps::<0x44>(u1, u3);
            let q3 = _mm256_shuffle_ps::<0xEE>(u1, u3);
            [
                _mm256_castps256_ps128(q0),
                _mm256_castps256_ps128(q1),
                _mm256_castps256_ps128(q2),
                _mm256_castps256_ps128(q3),
                _mm256_extractf128_ps::<1>(q0),
                _mm256_extractf128_ps::<1>(q1),
                _mm256_extractf128_ps::<1>(q2),
                _mm256_extractf128_ps::<1>(q3),
            ]
    }

    #[target_feature(enable = "sse2")]
    pub unsafe fn solve_sse2(p: &mut [Packed], c: &DistanceConstraints, range: std::ops::Range<usize>, lambda: &mut [f32], at: &[f32; KIND_COUNT], rest_scale: f32) {
        let base = p.as_mut_ptr() as *mut f32;
        let mut i = range.start;
        let eps = _mm_set1_ps(LENGTH_EPSILON);
        let weps = _mm_set1_ps(WEIGHT_EPSILON);
        let scale = _mm_set1_ps(rest_scale);
        let zero = _mm_setzero_ps();
        let select = |mask: __m128, new: __m128, old: __m128| _mm_or_ps(_mm_and_ps(mask, new), _mm_andnot_ps(mask, old));
        unsafe {
            while i + 4 <= range.end {
                let ia: [usize; 4] = std::array::from_fn(|k| *c.a.get_unchecked(i + k) as usize);
                let ib: [usize; 4] = std::array::from_fn(|k| *c.b.get_unchecked(i + k) as usize);
                let load = |j: usize| _mm_loadu_ps(base.add(4 * j));
                let (xa, ya, za, wa) = transpose4(load(ia[0]), load(ia[1]), load(ia[2]), load(ia[3]));
                let (xb, yb, zb, wb) = transpose4(load(ib[0]), load(ib[1]), load(ib[2]), load(ib[3]));
                let dx = _mm_sub_ps(xb, xa);
                let dy = _mm_sub_ps(yb, ya);
                let dz = _mm_sub_ps(zb, za);
                let len = _mm_sqrt_ps(_mm_add_ps(_mm_add_ps(_mm_mul_ps(dx, dx), _mm_mul_ps(dy, dy)), _mm_mul_ps(dz, dz)));
                let valid = _mm_cmpge_ps(len, eps);
                let kinds: [f32; 4] = std::array::from_fn(|k| at[*c.kind.get_unchecked(i + k) as usize]);
                let at_v = _mm_loadu_ps(kinds.as_ptr());
                let lam = _mm_loadu_ps(lambda.as_ptr().add(i));
                let rest = _mm_mul_ps(_mm_loadu_ps(c.rest.as_ptr().add(i)), scale);
                let cval = _mm_sub_ps(len, rest);
                let denom = _mm_add_ps(_mm_add_ps(wa, wb), at_v);
                let num = _mm_sub_ps(_mm_sub_ps(zero, cval), _mm_mul_ps(at_v, lam));
                let ok = _mm_and_ps(valid, _mm_cmpgt_ps(denom, weps));
                let q = _mm_and_ps(_mm_div_ps(num, _mm_mul_ps(denom, len)), ok);
                let tracked = _mm_and_ps(valid, _mm_cmpneq_ps(at_v, zero));
                _mm_storeu_ps(lambda.as_mut_ptr().add(i), select(tracked, _mm_add_ps(lam, _mm_mul_ps(q, len)), lam));
                let sa = _mm_mul_ps(wa, q);
                let sb = _mm_mul_ps(wb, q);
                let xa2 = select(valid, _mm_sub_ps(xa, _mm_mul_ps(dx, sa)), xa);
                let ya2 = select(valid, _mm_sub_ps(ya, _mm_mul_ps(dy, sa)), ya);
                let za2 = select(valid, _mm_sub_ps(za, _mm_mul_ps(dz, sa)), za);
                let xb2 = select(valid, _mm_add_ps(xb, _mm_mul_ps(dx, sb)), xb);
                let yb2 = select(valid, _mm_add_ps(yb, _mm_mul_ps(dy, sb)), yb);
                let zb2 = select(valid, _mm_add_ps(zb, _mm_mul_ps(dz, sb)), zb);
                let (a0, a1, a2, a3) = transpose4(xa2, ya2, za2, wa);
                let (b0, b1, b2, b3) = transpose4(xb2, yb2, zb2, wb);
                for (k, v) in [a0, a1, a2, a3].into_iter().enumerate() {
                    _mm_storeu_ps(base.add(4 * ia[k]), v);
                }
                for (k, v) in [b0, b1, b2, b3].into_iter().enumerate() {
                    _mm_storeu_ps(base.add(4 * ib[k]), v);
                }
                i += 4;
            }
        }
        solve_packed(p, c, i..range.end, lambda, at, rest_scale);
    }

    /// 4 × 4 transpose (rows ↔ columns).
    #[inline(always)]
    unsafe fn transpose4(r0: __m128, r1: __m128, r2: __m128, r3: __m128) -> (__m128, __m128, __m128, __m128) {
        unsafe {
            let t0 = _mm_unpacklo_ps(r0, r1);
            let t1 = _mm_unpacklo_ps(r2, r3);
            let t2 = _mm_unpackhi_ps(r0, r1);
            let t3 = _mm_unpackhi_ps(r2, r3);
            (_mm_movelh_ps(t0, t1), _mm_movehl_ps(t1, t0), _mm_movelh_ps(t2, t3), _mm_movehl_ps(t3, t2))
        }
    }
}
