//! The distance kernel for grid cloth, with no gathers.
//!
//! A grid's twelve batches are regular (see `cloth::grid_topology`): along a row, the
//! constraints of one batch touch particles at fixed strides. With particles stored as
//! structure of arrays (`px`, `py`, `pz`, `pw`, row-major), eight constraints read their
//! particles with plain vector loads:
//!
//! - vertical structural and bend: `a` = 8 consecutive particles, `b` the 8 one or two rows
//!   below — no shuffle at all;
//! - horizontal structural: a block of 16 particles of one row, `a` its even slots and `b` its
//!   odd ones (one shuffle each way per component);
//! - shear: the even (or odd) slots of a 16-particle block of row `r`, against the odd (or
//!   even) slots of the block below;
//! - horizontal bend: slots `{0,1,4,5,…}` against `{2,3,6,7,…}` of one block.
//!
//! The projection is exactly the scalar kernel's (same operations, same order, no fused
//! multiply-add), so the result is bit-identical; only the memory traffic changes. Blocks
//! stay inside their rows, and the parts a group only reads are written back unchanged;
//! what does not fill a group is done by the scalar kernel on the same arrays.

use crate::math::{LENGTH_EPSILON, Vec3};
use crate::solver::constraints::distance::{self, DistanceConstraints, KIND_COUNT, Particles};

/// What one batch of a grid is, in the order `grid_topology` cooks them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GridRun {
    /// `(r, c)–(r, c+1)`, `c ≡ parity (mod 2)`.
    Horizontal(u32),
    /// `(r, c)–(r+1, c)`, `r ≡ parity (mod 2)`.
    Vertical(u32),
    /// `(r, c)–(r+1, c+1)`, `c ≡ parity`.
    ShearDown(u32),
    /// `(r, c+1)–(r+1, c)`, `c ≡ parity`.
    ShearUp(u32),
    /// `(r, c)–(r, c+2)`, `⌊c/2⌋ ≡ phase`.
    BendH(u32),
    /// `(r, c)–(r+2, c)`, `⌊r/2⌋ ≡ phase`.
    BendV(u32),
}

/// The grid a topology was cooked from; `runs[i]` describes `batches[i]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GridLayout {
    pub columns: u32,
    pub rows: u32,
    pub runs: Vec<GridRun>,
}

/// Slots after the last particle a group may touch (a 16-block plus a row offset's worth
/// is never needed past the end: blocks start at most at the last particle).
const PAD: usize = 32;

/// Particles as structure of arrays (the grid kernel's layout, 16 B per particle).
#[derive(Clone, Debug, Default)]
pub struct Soa {
    pub x: Vec<f32>,
    pub y: Vec<f32>,
    pub z: Vec<f32>,
    pub w: Vec<f32>,
}

impl Soa {
    pub fn load(&mut self, x: &[Vec3], w: &[f32]) {
        for v in [&mut self.x, &mut self.y, &mut self.z, &mut self.w] {
            v.clear();
        }
        self.x.extend(x.iter().map(|p| p.x));
        self.y.extend(x.iter().map(|p| p.y));
        self.z.extend(x.iter().map(|p| p.z));
        self.w.extend_from_slice(w);
        // Padding: a group at the end of the last row may read (and write back unchanged)
        // slots past the last particle.
        for v in [&mut self.x, &mut self.y, &mut self.z, &mut self.w] {
            v.extend_from_slice(&[0.0; PAD]);
        }
    }

    /// Number of particles (without padding).
    pub fn len(&self) -> usize {
        self.x.len().saturating_sub(PAD)
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub fn store(&self, x: &mut [Vec3]) {
        for (i, p) in x.iter_mut().enumerate() {
            *p = Vec3::new(self.x[i], self.y[i], self.z[i]);
        }
    }
}

impl Particles for Soa {
    #[inline(always)]
    fn get(&self, i: usize) -> (Vec3, f32) {
        (Vec3::new(self.x[i], self.y[i], self.z[i]), self.w[i])
    }
    #[inline(always)]
    fn set(&mut self, i: usize, p: Vec3) {
        (self.x[i], self.y[i], self.z[i]) = (p.x, p.y, p.z);
    }
}

/// The scalar kernel on structure-of-arrays particles (the tails of the grid kernel).
pub fn solve_soa(p: &mut Soa, c: &DistanceConstraints, range: std::ops::Range<usize>, lambda: &mut [f32], at: &[f32; KIND_COUNT], rest_scale: f32) {
    distance::project(p, c, range, lambda, at, rest_scale);
}

/// Whether the CPU runs the grid kernel (AVX).
pub fn supported() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("avx")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// Projects batch `batch` (described by `run`) of a `layout` grid once.
///
/// # Safety
/// The CPU must support AVX ([`supported`]); `c` must be the constraints `grid_topology`
/// cooked for `layout` (untorn), `p` must hold `columns × rows` particles.
#[cfg(target_arch = "x86_64")]
#[allow(clippy::too_many_arguments)]
pub unsafe fn solve_run(
    layout: &GridLayout,
    run: GridRun,
    p: &mut Soa,
    c: &DistanceConstraints,
    range: std::ops::Range<usize>,
    lambda: &mut [f32],
    at: &[f32; KIND_COUNT],
    rest_scale: f32,
) {
    unsafe { avx::solve_run(layout, run, p, c, range, lambda, at, rest_scale) }
}

#[cfg(target_arch = "x86_64")]
mod avx {
    use super::*;
    use crate::math::WEIGHT_EPSILON;
    use std::arch::x86_64::*;

    /// Where a group of 8 constraints' particles sit, relative to its first `a` (`a0`).
    #[derive(Clone, Copy)]
    enum Shape {
        /// `a` = 8 consecutive particles, `b` = the 8 at `a0 + offset`.
        Contiguous { offset: usize },
        /// In the 16-block at `a0`: `a` = even slots, `b` = odd slots.
        EvenOdd,
        /// `a` = even slots of the 16-block at `a0`; `b` = the odd (`b_odd`) or even slots of
        /// the 16-block at `a0 + offset`, in the next row.
        Cross { offset: usize, b_odd: bool },
        /// In the 16-block at `a0`: `a` = slots {0,1,4,5,…}, `b` = {2,3,6,7,…}.
        Pairs,
    }

    impl Shape {
        /// Particle of lane-order constraint `j` (0..8) of a group starting at `a0`.
        fn a(self, a0: usize, j: usize) -> usize {
            match self {
                Shape::Contiguous { .. } => a0 + j,
                Shape::EvenOdd | Shape::Cross { .. } => a0 + 2 * j,
                Shape::Pairs => a0 + 4 * (j / 2) + j % 2,
            }
        }

        /// (first, length) of the blocks a group at `a0` reads and writes.
        fn blocks(self, a0: usize) -> [(usize, usize); 2] {
            match self {
                Shape::Contiguous { offset } => [(a0, 8), (a0 + offset, 8)],
                Shape::EvenOdd | Shape::Pairs => [(a0, 16), (a0, 16)],
                Shape::Cross { offset, .. } => [(a0, 16), (a0 + offset, 16)],
            }
        }
    }

    #[target_feature(enable = "avx")]
    #[allow(clippy::too_many_arguments)]
    pub unsafe fn solve_run(
        layout: &GridLayout,
        run: GridRun,
        p: &mut Soa,
        c: &DistanceConstraints,
        range: std::ops::Range<usize>,
        lambda: &mut [f32],
        at: &[f32; KIND_COUNT],
        rest_scale: f32,
    ) {
        let (cols, rows) = (layout.columns as usize, layout.rows as usize);
        let mut k = range.start;
        let count = |from: usize, to: usize| if to > from { (to - from).div_ceil(2) } else { 0 };
        let bend_h = (0..cols.saturating_sub(2)).filter(|col| (col / 2) % 2 == 0).count();
        let bend_h1 = cols.saturating_sub(2) - bend_h;
        // One row of the run: its first `a` at column `col`, `n` constraints.
        let mut emit = |row: usize, col: usize, n: usize, shape: Shape| {
            unsafe { segment(p, c, cols, row * cols + col, k, n, shape, lambda, at, rest_scale) };
            k += n;
        };
        match run {
            GridRun::Horizontal(par) => (0..rows).for_each(|r| emit(r, par as usize, count(par as usize, cols - 1), Shape::EvenOdd)),
            GridRun::Vertical(par) => (par as usize..rows - 1).step_by(2).for_each(|r| emit(r, 0, cols, Shape::Contiguous { offset: cols })),
            GridRun::ShearDown(par) => {
                (0..rows - 1).for_each(|r| emit(r, par as usize, count(par as usize, cols - 1), Shape::Cross { offset: cols, b_odd: true }))
            }
            GridRun::ShearUp(par) => {
                (0..rows - 1).for_each(|r| emit(r, par as usize + 1, count(par as usize, cols - 1), Shape::Cross { offset: cols - 1, b_odd: false }))
            }
            GridRun::BendH(phase) => {
                let n = if phase == 0 { bend_h } else { bend_h1 };
                (0..rows).for_each(|r| emit(r, 2 * phase as usize, n, Shape::Pairs))
            }
            GridRun::BendV(phase) => (0..rows.saturating_sub(2))
                .filter(|r| (r / 2) % 2 == phase as usize)
                .for_each(|r| emit(r, 0, cols, Shape::Contiguous { offset: 2 * cols })),
        }
        debug_assert_eq!(k, range.end, "the run's constraints and the batch disagree");
    }

    /// One row's share of a run: constraints `[k, k + n)`, the first `a` at particle `a0`.
    /// The last group may be partial: its unused lanes are masked off.
    #[target_feature(enable = "avx")]
    #[allow(clippy::too_many_arguments)]
    unsafe fn segment(p: &mut Soa, c: &DistanceConstraints, cols: usize, a0: usize, k: usize, n: usize, shape: Shape, lambda: &mut [f32], at: &[f32; KIND_COUNT], rest_scale: f32) {
        let _ = cols;
        let disjoint = |x: (usize, usize), y: (usize, usize)| x.0 + x.1 <= y.0 || y.0 + y.1 <= x.0;
        let mut done = 0;
        while done + 16 <= n {
            let (g0, g1) = (shape.a(a0, done), shape.a(a0, done + 8));
            let [a_0, b_0] = shape.blocks(g0);
            let [a_1, b_1] = shape.blocks(g1);
            let own_ok = |a: (usize, usize), b: (usize, usize)| a == b || disjoint(a, b);
            let cross_ok = disjoint(a_0, a_1) && disjoint(a_0, b_1) && disjoint(b_0, a_1) && disjoint(b_0, b_1);
            if !(own_ok(a_0, b_0) && own_ok(a_1, b_1) && cross_ok && b_1.0 + b_1.1 <= p.x.len()) {
                break;
            }
            unsafe { group_pair(p, c, shape, g0, g1, k + done, lambda, at, rest_scale) };
            done += 16;
        }
        while done < n {
            let lanes = (n - done).min(8);
            let g0 = shape.a(a0, done);
            let [(a_first, a_len), (b_first, b_len)] = shape.blocks(g0);
            // The a and b blocks must be one block or not overlap (they can only on grids
            // narrower than a block); the padding keeps every read inside the arrays.
            let same = a_first == b_first;
            let apart = a_first + a_len <= b_first || b_first + b_len <= a_first;
            // A cross block one slot short of the a block's end (shear on a 16-wide grid)
            // overlaps it in the a block's last, odd slot only: that slot is written back
            // unchanged from the a block and then, correctly, from the b block (stored last).
            let benign = matches!(shape, Shape::Cross { .. }) && b_first == a_first + a_len - 1;
            if !(same || apart || benign) || b_first + b_len > p.x.len() {
                break;
            }
            debug_assert!((0..lanes).all(|j| c.a[k + done + j] as usize == shape.a(a0, done + j)));
            unsafe { group(p, c, shape, g0, k + done, lanes, lambda, at, rest_scale) };
            done += lanes;
        }
        solve_soa(p, c, k + done..k + n, lambda, at, rest_scale);
    }

    /// Lane order [0,1,4,5,2,3,6,7] ↔ constraint order, for the strided shapes (an involution).
    #[inline]
    #[target_feature(enable = "avx")]
    unsafe fn swap_middle(v: __m256) -> __m256 {
        let (lo, hi) = (_mm256_castps256_ps128(v), _mm256_extractf128_ps::<1>(v));
        _mm256_set_m128(_mm_movehl_ps(hi, lo), _mm_movelh_ps(lo, hi))
    }

    /// x, y, z, w of a group's `a` and `b` particles, lanes in the shape's order.
    struct Lanes {
        a: [__m256; 4],
        b: [__m256; 4],
        /// Slots of the blocks that are read but not part of this batch, for write-back.
        keep: [[__m256; 2]; 3],
    }

    #[inline]
    #[target_feature(enable = "avx")]
    unsafe fn load(p: &Soa, shape: Shape, a0: usize) -> Lanes {
        unsafe {
            let arrays = [p.x.as_ptr(), p.y.as_ptr(), p.z.as_ptr(), p.w.as_ptr()];
            let z = _mm256_setzero_ps();
            let mut l = Lanes { a: [z; 4], b: [z; 4], keep: [[z; 2]; 3] };
            for (comp, base) in arrays.into_iter().enumerate() {
                let at = |i: usize| _mm256_loadu_ps(base.add(i));
                match shape {
                    Shape::Contiguous { offset } => {
                        l.a[comp] = at(a0);
                        l.b[comp] = at(a0 + offset);
                    }
                    Shape::EvenOdd => {
                        let (v0, v1) = (at(a0), at(a0 + 8));
                        l.a[comp] = _mm256_shuffle_ps::<0x88>(v0, v1);
                        l.b[comp] = _mm256_shuffle_ps::<0xDD>(v0, v1);
                    }
                    Shape::Cross { offset, b_odd } => {
                        let (x0, x1) = (at(a0), at(a0 + 8));
                        let (y0, y1) = (at(a0 + offset), at(a0 + offset + 8));
                        l.a[comp] = _mm256_shuffle_ps::<0x88>(x0, x1);
                        let (y_even, y_odd) = (_mm256_shuffle_ps::<0x88>(y0, y1), _mm256_shuffle_ps::<0xDD>(y0, y1));
                        l.b[comp] = if b_odd { y_odd } else { y_even };
                        if comp < 3 {
                            l.keep[comp] = [_mm256_shuffle_ps::<0xDD>(x0, x1), if b_odd { y_even } else { y_odd }];
                        }
                    }
                    Shape::Pairs => {
                        let (v0, v1) = (at(a0), at(a0 + 8));
                        l.a[comp] = _mm256_shuffle_ps::<0x44>(v0, v1);
                        l.b[comp] = _mm256_shuffle_ps::<0xEE>(v0, v1);
                    }
                }
            }
            l
        }
    }

    #[inline]
    #[target_feature(enable = "avx")]
    unsafe fn store(p: &mut Soa, shape: Shape, a0: usize, l: &Lanes) {
        unsafe {
            let arrays = [p.x.as_mut_ptr(), p.y.as_mut_ptr(), p.z.as_mut_ptr()];
            for (comp, base) in arrays.into_iter().enumerate() {
                let put = |i: usize, v: __m256| _mm256_storeu_ps(base.add(i), v);
                let (a, b) = (l.a[comp], l.b[comp]);
                match shape {
                    Shape::Contiguous { offset } => {
                        put(a0, a);
                        put(a0 + offset, b);
                    }
                    Shape::EvenOdd => {
                        put(a0, _mm256_unpacklo_ps(a, b));
                        put(a0 + 8, _mm256_unpackhi_ps(a, b));
                    }
                    Shape::Cross { offset, b_odd } => {
                        let [x_odd, y_other] = l.keep[comp];
                        put(a0, _mm256_unpacklo_ps(a, x_odd));
                        put(a0 + 8, _mm256_unpackhi_ps(a, x_odd));
                        let (even, odd) = if b_odd { (y_other, b) } else { (b, y_other) };
                        put(a0 + offset, _mm256_unpacklo_ps(even, odd));
                        put(a0 + offset + 8, _mm256_unpackhi_ps(even, odd));
                    }
                    Shape::Pairs => {
                        put(a0, _mm256_shuffle_ps::<0x44>(a, b));
                        put(a0 + 8, _mm256_shuffle_ps::<0xEE>(a, b));
                    }
                }
            }
        }
    }

    /// Projects constraints `[k, k + lanes)` whose particles sit as `shape` says, from `a0`.
    #[target_feature(enable = "avx")]
    #[allow(clippy::too_many_arguments)]
    unsafe fn group(p: &mut Soa, c: &DistanceConstraints, shape: Shape, a0: usize, k: usize, lanes: usize, lambda: &mut [f32], at: &[f32; KIND_COUNT], rest_scale: f32) {
        unsafe {
            let mut l = load(p, shape, a0);
            project(&mut l, c, shape, k, lanes, lambda, at, rest_scale);
            store(p, shape, a0, &l);
        }
    }

    /// Two full groups whose blocks do not overlap, interleaved: one group's square root
    /// and division wait on long latencies that the other's work fills.
    #[target_feature(enable = "avx")]
    #[allow(clippy::too_many_arguments)]
    unsafe fn group_pair(p: &mut Soa, c: &DistanceConstraints, shape: Shape, a0: usize, a1: usize, k: usize, lambda: &mut [f32], at: &[f32; KIND_COUNT], rest_scale: f32) {
        unsafe {
            let mut l0 = load(p, shape, a0);
            let mut l1 = load(p, shape, a1);
            project(&mut l0, c, shape, k, 8, lambda, at, rest_scale);
            project(&mut l1, c, shape, k + 8, 8, lambda, at, rest_scale);
            store(p, shape, a0, &l0);
            store(p, shape, a1, &l1);
        }
    }

    /// The scalar kernel's projection, in lanes, on loaded particles.
    #[inline]
    #[target_feature(enable = "avx")]
    #[allow(clippy::too_many_arguments)]
    unsafe fn project(l: &mut Lanes, c: &DistanceConstraints, shape: Shape, k: usize, lanes: usize, lambda: &mut [f32], at: &[f32; KIND_COUNT], rest_scale: f32) {
        unsafe {
            let permuted = !matches!(shape, Shape::Contiguous { .. });
            let order = |v: __m256| if permuted { swap_middle(v) } else { v };
            // Lane j (in constraint order) is used when j < lanes.
            let used: [i32; 8] = std::array::from_fn(|j| if j < lanes { -1 } else { 0 });
            let used = _mm256_loadu_si256(used.as_ptr() as *const __m256i);
            let used_ps = _mm256_castsi256_ps(used);
            let [xa, ya, za, wa] = l.a;
            let [xb, yb, zb, wb] = l.b;
            let (dx, dy, dz) = (_mm256_sub_ps(xb, xa), _mm256_sub_ps(yb, ya), _mm256_sub_ps(zb, za));
            let len = _mm256_sqrt_ps(_mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(dx, dx), _mm256_mul_ps(dy, dy)), _mm256_mul_ps(dz, dz)));
            let zero = _mm256_setzero_ps();
            let valid = _mm256_and_ps(_mm256_cmp_ps::<_CMP_GE_OQ>(len, _mm256_set1_ps(LENGTH_EPSILON)), order(used_ps));
            let rest = _mm256_mul_ps(order(_mm256_maskload_ps(c.rest.as_ptr().add(k), used)), _mm256_set1_ps(rest_scale));
            let cval = _mm256_sub_ps(len, rest);
            // A grid batch holds one constraint class.
            let at_k = at[c.kind[k] as usize];
            let at_v = _mm256_set1_ps(at_k);
            let lam = if at_k != 0.0 { order(_mm256_maskload_ps(lambda.as_ptr().add(k), used)) } else { zero };
            let denom = _mm256_add_ps(_mm256_add_ps(wa, wb), at_v);
            let num = _mm256_sub_ps(_mm256_sub_ps(zero, cval), _mm256_mul_ps(at_v, lam));
            let ok = _mm256_and_ps(valid, _mm256_cmp_ps::<_CMP_GT_OQ>(denom, _mm256_set1_ps(WEIGHT_EPSILON)));
            let q = _mm256_and_ps(_mm256_div_ps(num, _mm256_mul_ps(denom, len)), ok);
            if at_k != 0.0 {
                let new_lam = _mm256_blendv_ps(lam, _mm256_add_ps(lam, _mm256_mul_ps(q, len)), valid);
                _mm256_maskstore_ps(lambda.as_mut_ptr().add(k), used, order(new_lam));
            }
            let (sa, sb) = (_mm256_mul_ps(wa, q), _mm256_mul_ps(wb, q));
            let moved = [
                _mm256_sub_ps(xa, _mm256_mul_ps(dx, sa)),
                _mm256_sub_ps(ya, _mm256_mul_ps(dy, sa)),
                _mm256_sub_ps(za, _mm256_mul_ps(dz, sa)),
                _mm256_add_ps(xb, _mm256_mul_ps(dx, sb)),
                _mm256_add_ps(yb, _mm256_mul_ps(dy, sb)),
                _mm256_add_ps(zb, _mm256_mul_ps(dz, sb)),
            ];
            if _mm256_movemask_ps(valid) == 0xFF {
                // Every lane projects (the common case): no blending needed.
                [l.a[0], l.a[1], l.a[2], l.b[0], l.b[1], l.b[2]] = moved;
            } else {
                // Lanes the scalar kernel would skip keep their exact bits.
                let old = [xa, ya, za, xb, yb, zb];
                let new: [__m256; 6] = std::array::from_fn(|i| _mm256_blendv_ps(old[i], moved[i], valid));
                [l.a[0], l.a[1], l.a[2], l.b[0], l.b[1], l.b[2]] = new;
            }
        }
    }
}

#[cfg(all(test, target_arch = "x86_64"))]
mod tests {
    use super::*;
    use crate::cloth::grid_topology;
    use crate::solver::constraints::distance;

    /// Every grid run, on grids of awkward sizes, gives the scalar kernel's bits.
    #[test]
    fn grid_kernel_matches_the_scalar_kernel_bit_for_bit() {
        if !supported() {
            return;
        }
        for (cols, rows) in [(2, 2), (3, 5), (16, 3), (16, 16), (15, 7), (17, 17), (33, 9), (64, 6)] {
            let topo = grid_topology(cols, rows, 0.1).unwrap();
            let layout = topo.grid.clone().expect("grids carry their layout");
            assert_eq!(layout.runs.len(), topo.constraints.batches.len());
            let k = &topo.constraints;
            let n = topo.particle_count;
            let x0: Vec<Vec3> = (0..n).map(|i| topo.rest[i] + Vec3::new((i as f32 * 0.37).sin(), (i as f32 * 0.11).cos(), (i as f32 * 0.23).sin()) * 0.03).collect();
            let mut w: Vec<f32> = (0..n).map(|i| 1.0 + (i % 3) as f32).collect();
            w[n / 2] = 0.0;
            for at in [[0.0f32; 3], [1e-3, 0.0, 3e-2]] {
                let mut xs = x0.clone();
                let mut lam_s = vec![0.01f32; k.len()];
                let mut soa = Soa::default();
                soa.load(&x0, &w);
                let mut lam = lam_s.clone();
                for (b, run) in k.batches.iter().zip(&layout.runs) {
                    let r = b.start as usize..b.end as usize;
                    distance::solve(&mut xs, &w, k, r.clone(), &mut lam_s, &at, 1.2);
                    // SAFETY: AVX checked above; the constraints are the grid's own.
                    unsafe { solve_run(&layout, *run, &mut soa, k, r, &mut lam, &at, 1.2) };
                }
                let mut out = vec![Vec3::ZERO; n];
                soa.store(&mut out);
                for i in 0..n {
                    assert_eq!(out[i].to_array().map(f32::to_bits), xs[i].to_array().map(f32::to_bits), "{cols}x{rows} particle {i}");
                }
                for i in 0..k.len() {
                    if at[k.kind[i] as usize] != 0.0 {
                        assert_eq!(lam[i].to_bits(), lam_s[i].to_bits(), "{cols}x{rows} lambda {i}");
                    }
                }
            }
        }
    }
}
