//! Maths aliases and the epsilons the solver shares.
//!
//! Particles use `glam::Vec3` (12 bytes, no padding) so that a slice of positions has the
//! same memory layout as `SinewVec3[]` in C and `Vector3[]` in Unity, and readback is a copy.

pub use glam::{Mat3, Mat4, Quat, Vec3};

/// Below this length (m) a constraint direction is undefined and the constraint is skipped.
pub const LENGTH_EPSILON: f32 = 1e-6;

/// Guard added to XPBD denominators, keeping `Σw + α̃` away from zero (two pinned particles).
pub const WEIGHT_EPSILON: f32 = 1e-12;

/// Whether every component of every vector is finite (no NaN, no infinity), in one pass
/// the compiler vectorises: the exponent bits of each `f32` are tested, no branch per value.
pub fn all_finite(v: &[Vec3]) -> bool {
    // SAFETY: glam's `Vec3` is `#[repr(C)]` with three `f32` fields and no padding.
    let f = unsafe { std::slice::from_raw_parts(v.as_ptr().cast::<f32>(), v.len() * 3) };
    const EXP: u32 = 0x7f80_0000;
    let bad = |x: &f32| (x.to_bits() & EXP) == EXP;
    let mut chunks = f.chunks_exact(8);
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::*;
        // SSE2 is part of x86_64. An exponent of all ones is a NaN or an infinity.
        // SAFETY: each chunk holds 8 floats; unaligned loads.
        unsafe {
            let exp = _mm_set1_epi32(EXP as i32);
            let mut any = _mm_setzero_si128();
            for c in &mut chunks {
                let lo = _mm_and_si128(_mm_loadu_si128(c.as_ptr().cast()), exp);
                let hi = _mm_and_si128(_mm_loadu_si128(c.as_ptr().add(4).cast()), exp);
                any = _mm_or_si128(any, _mm_or_si128(_mm_cmpeq_epi32(lo, exp), _mm_cmpeq_epi32(hi, exp)));
            }
            if _mm_movemask_epi8(any) != 0 {
                return false;
            }
        }
    }
    chunks.all(|c| !c.iter().any(bad)) && !chunks.remainder().iter().any(bad)
}

/// Whether every component of every vector is within ±`bound` (a NaN or an infinity is not),
/// in one pass: the magnitude bits of an `f32` order as the magnitudes do, and a NaN's or an
/// infinity's are above every finite bound's.
pub fn all_within(v: &[Vec3], bound: f32) -> bool {
    // SAFETY: glam's `Vec3` is `#[repr(C)]` with three `f32` fields and no padding.
    let f = unsafe { std::slice::from_raw_parts(v.as_ptr().cast::<f32>(), v.len() * 3) };
    const MAGNITUDE: u32 = 0x7fff_ffff;
    let limit = bound.abs().to_bits();
    let bad = |x: &f32| (x.to_bits() & MAGNITUDE) > limit;
    let mut chunks = f.chunks_exact(8);
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::*;
        // SSE2 is part of x86_64. Magnitude bits are below 2^31: a signed compare orders them.
        // SAFETY: each chunk holds 8 floats; unaligned loads.
        unsafe {
            let mask = _mm_set1_epi32(MAGNITUDE as i32);
            let top = _mm_set1_epi32(limit as i32);
            let mut any = _mm_setzero_si128();
            for c in &mut chunks {
                let lo = _mm_and_si128(_mm_loadu_si128(c.as_ptr().cast()), mask);
                let hi = _mm_and_si128(_mm_loadu_si128(c.as_ptr().add(4).cast()), mask);
                any = _mm_or_si128(any, _mm_or_si128(_mm_cmpgt_epi32(lo, top), _mm_cmpgt_epi32(hi, top)));
            }
            if _mm_movemask_epi8(any) != 0 {
                return false;
            }
        }
    }
    chunks.all(|c| !c.iter().any(bad)) && !chunks.remainder().iter().any(bad)
}

/// Whether every component of `v` is within ±`bound` (a NaN is not).
pub fn within(v: Vec3, bound: f32) -> bool {
    v.x.abs() <= bound && v.y.abs() <= bound && v.z.abs() <= bound
}

pub fn is_finite3(v: Vec3) -> bool {
    v.x.is_finite() && v.y.is_finite() && v.z.is_finite()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn all_within_finds_any_value_beyond_the_bound() {
        let mut v = vec![Vec3::new(1.0, -2.0, 9.9e6); 300];
        assert!(all_within(&v, 1e7));
        assert!(all_within(&[], 1e7));
        for bad in [f32::NAN, -f32::NAN, f32::INFINITY, f32::NEG_INFINITY, 1.0001e7, -1.0001e7, 3e38] {
            for (i, c) in [(0, 0), (85, 1), (299, 2)] {
                let keep = v[i];
                v[i][c] = bad;
                assert!(!all_within(&v, 1e7), "{bad} at {i}.{c} not found");
                v[i] = keep;
            }
        }
        assert!(all_within(&[Vec3::splat(-1e7)], 1e7), "the bound itself is within");
        assert!(within(Vec3::new(1e7, -1e7, 0.0), 1e7) && !within(Vec3::new(0.0, f32::NAN, 0.0), 1e7) && !within(Vec3::X * 2e7, 1e7));
    }

    #[test]
    fn all_finite_finds_any_nan_or_infinity() {
        let mut v = vec![Vec3::new(1.0, -2.0, 3e38); 300];
        assert!(all_finite(&v));
        assert!(all_finite(&[]));
        for bad in [f32::NAN, f32::INFINITY, f32::NEG_INFINITY] {
            for (i, c) in [(0, 0), (85, 1), (299, 2)] {
                let keep = v[i];
                v[i][c] = bad;
                assert!(!all_finite(&v), "{bad} at {i}.{c}");
                v[i] = keep;
            }
        }
        // Subnormals and the largest finite values are finite.
        v[7] = Vec3::new(f32::MIN_POSITIVE / 2.0, f32::MAX, f32::MIN);
        assert!(all_finite(&v));
    }
}

/// A `HashMap` with [`FastHasher`]: the cookers' maps of edges, cells and pairs.
pub type FastMap<K, V> = std::collections::HashMap<K, V, std::hash::BuildHasherDefault<FastHasher>>;
/// A `HashSet` with [`FastHasher`].
pub type FastSet<K> = std::collections::HashSet<K, std::hash::BuildHasherDefault<FastHasher>>;

/// A fixed multiply–rotate hash of integer keys (edges, grid cells, pairs) for the cookers'
/// maps. Std's default (SipHash, seeded per process) resists keys chosen to collide, which
/// maps built once from the host's own mesh do not need, and cost 6 % of the instructions of
/// the fuzzer's corpus (cooking capes, meshes and bends). No result depends on a map's
/// iteration order (the cookers keep their own insertion order or sort), so the hasher
/// changes no result.
#[derive(Clone, Copy, Default)]
pub struct FastHasher(u64);

impl FastHasher {
    #[inline]
    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(0x517c_c1b7_2722_0a95);
    }
}

impl std::hash::Hasher for FastHasher {
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            self.add(u64::from_le_bytes(c.try_into().expect("8 bytes")));
        }
        for &b in chunks.remainder() {
            self.add(u64::from(b));
        }
    }
    #[inline]
    fn write_u8(&mut self, n: u8) {
        self.add(u64::from(n));
    }
    #[inline]
    fn write_u32(&mut self, n: u32) {
        self.add(u64::from(n));
    }
    #[inline]
    fn write_u64(&mut self, n: u64) {
        self.add(n);
    }
    #[inline]
    fn write_i64(&mut self, n: i64) {
        self.add(n as u64);
    }
    #[inline]
    fn write_usize(&mut self, n: usize) {
        self.add(n as u64);
    }
    #[inline]
    fn finish(&self) -> u64 {
        // The multiply leaves its best bits on top; the table indexes by the low ones.
        self.0.rotate_left(26)
    }
}
