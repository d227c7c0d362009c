//! The distance kernel for grid cloth, with no gathers.
//!
//! A grid's twelve batches are regular (see `cloth::grid_topology`): along a row, the
//! constraints of one batch touch particles at fixed strides. With particles stored as
//! structure of arrays (`px`, `py`, `pz`, `pw`, row-major), eight constraints read their
//! particles with plain vector loads:
//!
//! - vertical structural and bend, and shear: `a` = 8 consecutive particles of a row, `b` the
//!   8 at a fixed offset in the row below (one or two rows, ± one column) — no shuffle at all;
//! - horizontal structural: a block of 16 particles of one row, `a` its even slots and `b` its
//!   odd ones (one shuffle each way per component);
//! - horizontal bend: slots `{0,1,4,5,…}` against `{2,3,6,7,…}` of one block.
//!
//! The projection is exactly the scalar kernel's (same operations, same order, no fused
//! multiply-add), so the result is bit-identical; only the memory traffic changes. Parts of a
//! block a group only reads are written back unchanged; what does not fill a group is done by
//! the scalar kernel on the same arrays.
//!
//! The same code is compiled twice: for AVX, and for AVX-512VL, whose 32 vector registers
//! hold two groups in flight without spilling (the instructions stay 8 lanes wide, so the
//! bits are the same).

use crate::math::{LENGTH_EPSILON, Vec3};
use crate::solver::constraints::distance::{self, DistanceConstraints, KIND_COUNT, Particles};
use crate::solver::layout::soa::Soa;

/// What one batch of a grid is, in the order `grid_topology` cooks them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GridRun {
    /// `(r, c)–(r, c+1)`, `c ≡ parity (mod 2)`.
    Horizontal(u32),
    /// `(r, c)–(r+1, c)`, `r ≡ parity (mod 2)`.
    Vertical(u32),
    /// `(r, c)–(r+1, c+1)`, `r ≡ parity (mod 2)`.
    ShearDown(u32),
    /// `(r, c+1)–(r+1, c)`, `r ≡ parity (mod 2)`.
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

impl GridRun {
    /// How many rows below its own a row of the run reaches: 0 along rows, 1 or 2 across.
    pub fn reach(self) -> usize {
        match self {
            GridRun::Horizontal(_) | GridRun::BendH(_) => 0,
            GridRun::Vertical(_) | GridRun::ShearDown(_) | GridRun::ShearUp(_) => 1,
            GridRun::BendV(_) => 2,
        }
    }

    /// The grid rows whose constraints the run holds (each row's first `a`), in cook order.
    pub fn rows(self, rows: usize) -> impl Iterator<Item = usize> {
        (0..self.row_count(rows)).map(move |i| self.row_at(i))
    }

    /// How many rows the run holds (see [`GridRun::rows`]).
    pub fn row_count(self, rows: usize) -> usize {
        match self {
            GridRun::Horizontal(_) | GridRun::BendH(_) => rows,
            GridRun::Vertical(par) | GridRun::ShearDown(par) | GridRun::ShearUp(par) => rows.saturating_sub(1 + par as usize).div_ceil(2),
            GridRun::BendV(phase) => {
                // Rows 4m + 2·phase and 4m + 2·phase + 1 below `rows − 2`.
                let below = rows.saturating_sub(2);
                2 * (below / 4) + (below % 4).saturating_sub(2 * phase as usize).min(2)
            }
        }
    }

    /// The run's `index`-th row (see [`GridRun::rows`]).
    #[inline]
    pub fn row_at(self, index: usize) -> usize {
        match self {
            GridRun::Horizontal(_) | GridRun::BendH(_) => index,
            GridRun::Vertical(par) | GridRun::ShearDown(par) | GridRun::ShearUp(par) => par as usize + 2 * index,
            GridRun::BendV(phase) => 4 * (index / 2) + 2 * phase as usize + index % 2,
        }
    }

    /// The run rows `r` of chunk `chunk` (of `chunks`, cut at grid rows `⌈rows·i/chunks⌉`):
    /// those whose lowest touched row `r + reach` lies in the chunk's grid rows.
    pub fn chunk_rows(self, rows: usize, chunk: usize, chunks: usize) -> std::ops::Range<usize> {
        let cut = |i: usize| if i >= chunks { usize::MAX } else { (i * rows).div_ceil(chunks) };
        let reach = self.reach();
        let (lo, hi) = (cut(chunk), cut(chunk + 1));
        lo.saturating_sub(reach)..hi.saturating_sub(reach)
    }

    /// Grid rows (first, last) that chunk `chunk` of `chunks` of this run may touch, `None`
    /// when it holds no row. The last chunk may also touch the row after its last (the
    /// lanes a partial group reads and writes back); the others never do.
    pub fn touched(self, rows: usize, chunk: usize, chunks: usize) -> Option<(usize, usize)> {
        let band = self.chunk_rows(rows, chunk, chunks);
        let mut mine = self.rows(rows).filter(|r| band.contains(r));
        let lo = mine.next()?;
        let hi = mine.last().unwrap_or(lo) + self.reach() + usize::from(chunk + 1 == chunks);
        Some((lo, hi))
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

/// A `Soa`'s arrays as raw pointers, for kernels that share one body between threads: each
/// thread touches only particles (and multipliers) of its own rows, so no two threads ever
/// access the same element in one pass.
#[derive(Clone, Copy, Debug)]
pub struct SoaPtr {
    x: *mut f32,
    y: *mut f32,
    z: *mut f32,
    w: *mut f32,
    /// Length of each array, padding included.
    len: usize,
}

// SAFETY: the pointers are only dereferenced by the kernels, whose callers guarantee that
// concurrent uses touch disjoint elements (see `SoaPtr`).
unsafe impl Send for SoaPtr {}
unsafe impl Sync for SoaPtr {}

impl Soa {
    /// Raw view of the arrays; valid while `self` is neither moved nor resized.
    pub fn ptr(&mut self) -> SoaPtr {
        SoaPtr { x: self.x.as_mut_ptr(), y: self.y.as_mut_ptr(), z: self.z.as_mut_ptr(), w: self.w.as_mut_ptr(), len: self.x.len() }
    }
}

impl Particles for SoaPtr {
    #[inline(always)]
    fn get(&self, i: usize) -> (Vec3, f32) {
        assert!(i < self.len);
        // SAFETY: in bounds; see `SoaPtr` for exclusivity.
        unsafe { (Vec3::new(*self.x.add(i), *self.y.add(i), *self.z.add(i)), *self.w.add(i)) }
    }
    #[inline(always)]
    fn set(&mut self, i: usize, p: Vec3) {
        assert!(i < self.len);
        // SAFETY: as for `get`.
        unsafe { (*self.x.add(i), *self.y.add(i), *self.z.add(i)) = (p.x, p.y, p.z) };
    }
}

/// The scalar kernel on structure-of-arrays particles (where the grid kernel does not run).
pub fn solve_soa(p: &mut Soa, c: &DistanceConstraints, range: std::ops::Range<usize>, lambda: &mut [f32], at: &[f32; KIND_COUNT], rest_scale: f32) {
    distance::project(p, c, range.clone(), &mut lambda[range], at, rest_scale);
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

/// The instruction sets the grid kernel is compiled for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GridIsa {
    /// AVX: 16 vector registers.
    Avx,
    /// AVX-512F + VL: the same 8-lane code with 32 vector registers.
    Avx512,
}

impl GridIsa {
    /// The best this CPU runs, for callers that checked [`supported`] (AVX at least).
    pub fn best() -> GridIsa {
        GridIsa::detect().unwrap_or(GridIsa::Avx)
    }

    /// The best this CPU runs (`None` without AVX).
    pub fn detect() -> Option<GridIsa> {
        #[cfg(target_arch = "x86_64")]
        {
            if std::arch::is_x86_feature_detected!("avx512f") && std::arch::is_x86_feature_detected!("avx512vl") {
                return Some(GridIsa::Avx512);
            }
            if std::arch::is_x86_feature_detected!("avx") {
                return Some(GridIsa::Avx);
            }
        }
        None
    }
}

/// Projects batch `batch` (described by `run`) of a `layout` grid once, with the best
/// instruction set this CPU has.
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
    let isa = GridIsa::best();
    assert!(range.end <= lambda.len());
    // SAFETY: one chunk, on this thread: nothing else touches `p` or `lambda`.
    unsafe { solve_run_chunk(isa, layout, run, p.ptr(), c, range, lambda.as_mut_ptr(), at, rest_scale, false, 0, 1) }
}

/// Chunk `chunk` of `chunks` of a run (`fresh`: its multipliers start from zero, the first
/// pass of a substep): the run's rows whose lowest touched row lies in grid rows
/// `⌈rows·chunk/chunks⌉..⌈rows·(chunk+1)/chunks⌉` ([`GridRun::chunk_rows`]). The constraints of
/// one batch share no particle, and a chunk's vector groups never reach past its own rows'
/// particles into a later chunk's, so the chunks of one run may go on different threads at
/// once. Any split gives the same bits as the whole run.
///
/// # Safety
/// As [`solve_run`]; the CPU must support `isa`; `p` and `lambda` (the multipliers of every
/// constraint of `c`) must be valid, and while this runs nothing else may touch the rows
/// [`GridRun::touched`] gives for this chunk, nor its constraints' multipliers.
#[cfg(target_arch = "x86_64")]
#[allow(clippy::too_many_arguments)]
pub unsafe fn solve_run_chunk(
    isa: GridIsa,
    layout: &GridLayout,
    run: GridRun,
    p: SoaPtr,
    c: &DistanceConstraints,
    range: std::ops::Range<usize>,
    lambda: *mut f32,
    at: &[f32; KIND_COUNT],
    rest_scale: f32,
    fresh: bool,
    chunk: usize,
    chunks: usize,
) {
    if range.is_empty() || chunk >= chunks {
        return;
    }
    debug_assert!(range.end <= c.len());
    // A grid batch holds one constraint class: one compliance for the whole run.
    let at_k = at[c.kind[range.start] as usize];
    let pass = kernel::Pass { c, lambda, at_k, rest_scale, fresh };
    unsafe {
        match isa {
            GridIsa::Avx => kernel::rows_avx(layout, run, p, pass, range, chunk, chunks),
            GridIsa::Avx512 => kernel::rows_avx512(layout, run, p, pass, range, chunk, chunks),
        }
    }
}

/// `iterations` passes over every batch of a `layout` grid, multipliers starting from zero;
/// with `split`, each run is cut at the middle row into two chunks done by this thread and
/// one more (see `solver::bands`).
///
/// # Safety
/// As [`solve_run_chunk`] (AVX, and AVX-512 for that `isa`; `c` cooked for `layout`).
#[cfg(target_arch = "x86_64")]
#[allow(clippy::too_many_arguments)]
pub unsafe fn solve_iterations(
    isa: GridIsa,
    layout: &GridLayout,
    c: &DistanceConstraints,
    p: &mut Soa,
    lambda: &mut [f32],
    at: &[f32; KIND_COUNT],
    rest_scale: f32,
    iterations: u32,
    split: bool,
) {
    assert!(lambda.len() >= c.len() && layout.runs.len() == c.batches.len());
    let (view, runs, rows) = (p.ptr(), layout.runs.len(), layout.rows as usize);
    let lambda = Multipliers::new(lambda);
    let one = |step: usize, chunk: usize, chunks: usize| {
        let (b, run) = (c.batches[step % runs], layout.runs[step % runs]);
        // SAFETY: the caller's guarantees; chunks of one run touch disjoint elements, and a
        // chunk runs only after everything it depends on (below).
        unsafe { solve_run_chunk(isa, layout, run, view, c, b.start as usize..b.end as usize, lambda.get(), at, rest_scale, step < runs, chunk, chunks) };
    };
    let steps = iterations as usize * runs;
    const MAX_RUNS: usize = 16;
    if !split || runs > MAX_RUNS {
        (0..steps).for_each(|step| one(step, 0, 1));
        return;
    }
    let mut back = [[None; 2]; MAX_RUNS];
    let back = &mut back[..runs];
    crate::solver::layout::bands::dependencies(|q, j| layout.runs[q].touched(rows, j, 2), back);
    crate::solver::layout::bands::run_in_two(steps, |step, j| back[step % runs][j], |step, j| one(step, j, 2));
}

/// Multipliers as a raw pointer, shared by the threads of one body's passes (each chunk
/// writes only its own constraints' multipliers).
#[derive(Clone, Copy, Debug)]
pub struct Multipliers(*mut f32);

impl Multipliers {
    pub fn new(lambda: &mut [f32]) -> Multipliers {
        Multipliers(lambda.as_mut_ptr())
    }

    pub fn get(self) -> *mut f32 {
        self.0
    }
}

// SAFETY: each chunk writes only its own constraints' multipliers.
unsafe impl Send for Multipliers {}
unsafe impl Sync for Multipliers {}

#[cfg(target_arch = "x86_64")]
mod kernel {
    use super::*;
    use crate::math::WEIGHT_EPSILON;
    use std::arch::x86_64::*;

    // Where a group of 8 constraints' particles sit, relative to its first `a` (`a0`): the
    // shape is a const parameter, so each run's loop is compiled for its own loads and stores.
    /// `a` = 8 consecutive particles, `b` = the 8 at `a0 + offset`.
    const CONTIGUOUS: u8 = 0;
    /// In the 16-block at `a0`: `a` = even slots, `b` = odd slots.
    const EVEN_ODD: u8 = 1;
    /// In the 16-block at `a0`: `a` = slots {0,1,4,5,…}, `b` = {2,3,6,7,…}.
    const PAIRS: u8 = 2;

    /// Particle of lane-order constraint `j` of a row starting at `a0`.
    #[inline(always)]
    fn a_of<const S: u8>(a0: usize, j: usize) -> usize {
        match S {
            CONTIGUOUS => a0 + j,
            EVEN_ODD => a0 + 2 * j,
            _ => a0 + 4 * (j / 2) + j % 2,
        }
    }

    /// (first, length) of the `a` and `b` blocks a group at `a0` reads and writes.
    #[inline(always)]
    fn blocks<const S: u8>(a0: usize, offset: usize) -> [(usize, usize); 2] {
        match S {
            CONTIGUOUS => [(a0, 8), (a0 + offset, 8)],
            _ => [(a0, 16), (a0, 16)],
        }
    }

    fn disjoint(x: (usize, usize), y: (usize, usize)) -> bool {
        x.0 + x.1 <= y.0 || y.0 + y.1 <= x.0
    }

    /// Whether one group at `a0` may run: its `a` and `b` blocks are one block or apart (they
    /// overlap only on grids narrower than a block), and every access stays in the arrays
    /// (the padding sees to that at the end of the last row).
    fn group_fits<const S: u8>(a0: usize, offset: usize, len: usize) -> bool {
        let [a, b] = blocks::<S>(a0, offset);
        (a == b || disjoint(a, b)) && a.0 + a.1 <= len && b.0 + b.1 <= len
    }

    /// Whether two groups at `g0` and `g1` may be loaded together: each fits alone, and no
    /// block of one touches a block of the other.
    fn pair_fits<const S: u8>(g0: usize, g1: usize, offset: usize, len: usize) -> bool {
        let [a0, b0] = blocks::<S>(g0, offset);
        let [a1, b1] = blocks::<S>(g1, offset);
        group_fits::<S>(g0, offset, len) && group_fits::<S>(g1, offset, len) && [a1, b1].iter().all(|&x| disjoint(a0, x) && disjoint(b0, x))
    }

    /// What every group of one run shares.
    pub struct Pass<'a> {
        pub c: &'a DistanceConstraints,
        /// The multipliers of every constraint of `c`.
        pub lambda: *mut f32,
        pub at_k: f32,
        pub rest_scale: f32,
        /// The multipliers start from zero (whatever the array holds).
        pub fresh: bool,
    }

    #[target_feature(enable = "avx")]
    pub unsafe fn rows_avx(layout: &GridLayout, run: GridRun, p: SoaPtr, pass: Pass, range: std::ops::Range<usize>, chunk: usize, chunks: usize) {
        unsafe { rows(layout, run, p, pass, range, chunk, chunks) }
    }

    #[target_feature(enable = "avx,avx512f,avx512vl")]
    pub unsafe fn rows_avx512(layout: &GridLayout, run: GridRun, p: SoaPtr, pass: Pass, range: std::ops::Range<usize>, chunk: usize, chunks: usize) {
        unsafe { rows(layout, run, p, pass, range, chunk, chunks) }
    }

    /// The rows of one run (of one chunk of it).
    #[inline(always)]
    unsafe fn rows(layout: &GridLayout, run: GridRun, p: SoaPtr, pass: Pass, range: std::ops::Range<usize>, chunk: usize, chunks: usize) {
        unsafe {
            if pass.at_k != 0.0 {
                rows_of::<true>(layout, run, p, pass, range, chunk, chunks)
            } else {
                rows_of::<false>(layout, run, p, pass, range, chunk, chunks)
            }
        }
    }

    /// `C`: the run's constraints are compliant (they keep multipliers).
    #[inline(always)]
    unsafe fn rows_of<const C: bool>(layout: &GridLayout, run: GridRun, mut p: SoaPtr, mut pass: Pass, range: std::ops::Range<usize>, chunk: usize, chunks: usize) {
        let (cols, rows) = (layout.columns as usize, layout.rows as usize);
        let (p, pass) = (&mut p, &mut pass);
        let len = p.len;
        let count = |from: usize, to: usize| if to > from { (to - from).div_ceil(2) } else { 0 };
        // The rows of a run, each: its first `a` at particle `a0 = r·cols + first`, `n`
        // constraints. (Loops, not a closure: a closure would not inherit the caller's target
        // features.)
        macro_rules! rows {
            ($shape:ident, $first:expr, $offset:expr, $n:expr) => {{
                let (first, offset, n) = ($first, $offset, $n);
                let count = run.row_count(rows);
                debug_assert_eq!(count * n, range.len(), "the run's constraints and the batch disagree");
                // The run's rows (by index) that fall in this chunk's band.
                let band = run.chunk_rows(rows, chunk, chunks);
                let mut lo = 0;
                while lo < count && run.row_at(lo) < band.start {
                    lo += 1;
                }
                let mut hi = if band.end >= rows { count } else { lo };
                while hi < count && run.row_at(hi) < band.end {
                    hi += 1;
                }
                if lo < hi {
                    let (r0, r1) = (run.row_at(lo), run.row_at(hi - 1));
                    let plan = Plan::new::<$shape>(r0 * cols + first, r1 * cols + first, offset, n, len);
                    // A partial group reads (and writes back) lanes past its row's last
                    // constraint, which may be the next chunk's particles: not in a chunk's
                    // last row when another chunk follows.
                    let last = if hi < count { Plan { partial: false, ..plan } } else { plan };
                    for index in lo..hi {
                        let plan = if index + 1 == hi { last } else { plan };
                        unsafe { segment::<$shape, C>(p, pass, run.row_at(index) * cols + first, offset, range.start + index * n, n, plan) };
                    }
                }
            }};
        }
        match run {
            GridRun::Horizontal(par) => rows!(EVEN_ODD, par as usize, 0, count(par as usize, cols - 1)),
            GridRun::Vertical(_) => rows!(CONTIGUOUS, 0, cols, cols),
            GridRun::ShearDown(_) => rows!(CONTIGUOUS, 0, cols + 1, cols - 1),
            GridRun::ShearUp(_) => rows!(CONTIGUOUS, 1, cols - 1, cols - 1),
            GridRun::BendH(phase) => {
                // Columns `c < cols − 2` with ⌊c/2⌋ ≡ 0 (mod 2): two of every four.
                let m = cols.saturating_sub(2);
                let bend_h = 2 * (m / 4) + (m % 4).min(2);
                let n = if phase == 0 { bend_h } else { m - bend_h };
                rows!(PAIRS, 2 * phase as usize, 0, n)
            }
            GridRun::BendV(_) => rows!(CONTIGUOUS, 0, 2 * cols, cols),
        }
    }

    /// What a run's rows may do with vector groups. Every row of a run has the same geometry
    /// (only its start moves), so the first row decides whether blocks overlap and the last
    /// whether they stay inside the arrays.
    #[derive(Clone, Copy)]
    struct Plan {
        /// Full groups may go two at a time.
        pairs: bool,
        /// Full groups may run.
        groups: bool,
        /// A partial group may run (with its unused lanes masked off).
        partial: bool,
    }

    impl Plan {
        fn new<const S: u8>(first_a0: usize, last_a0: usize, offset: usize, n: usize, len: usize) -> Plan {
            if n == 0 {
                return Plan { pairs: false, groups: false, partial: false };
            }
            let pairs = n / 16;
            let pair_at = |a0: usize, j: usize| pair_fits::<S>(a_of::<S>(a0, j), a_of::<S>(a0, j + 8), offset, len);
            let pairs = pairs > 0 && pair_at(first_a0, 0) && pair_at(last_a0, 16 * (pairs - 1));
            // Groups start at multiples of 8 whether or not pairs ran before them.
            let last_group = (n - 1) / 8 * 8;
            let groups = group_fits::<S>(a_of::<S>(first_a0, 0), offset, len) && group_fits::<S>(a_of::<S>(last_a0, last_group), offset, len);
            Plan { pairs, groups, partial: groups }
        }
    }

    /// One row's share of a run: constraints `[k, k + n)`, the first `a` at particle `a0`.
    /// Full groups go two at a time; the last group may be partial, its unused lanes masked
    /// off; what no group can take is done by the scalar kernel on the same arrays.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    unsafe fn segment<const S: u8, const C: bool>(p: &mut SoaPtr, pass: &mut Pass, a0: usize, offset: usize, k: usize, n: usize, plan: Plan) {
        let mut done = 0;
        if plan.pairs {
            while done + 16 <= n {
                unsafe { group_pair::<S, C>(p, pass, a_of::<S>(a0, done), a_of::<S>(a0, done + 8), offset, k + done) };
                done += 16;
            }
        }
        // (Pairs of constraints sit in fours: the last group must start on a pair.)
        if plan.groups && n >= 8 && (S != PAIRS || n.is_multiple_of(2)) {
            // The last group ends on the row's last constraint, overlapping the one before:
            // no lane past the row, so rows do not wait on each other's stores.
            let left = n - done;
            if left > 8 && left < 16 {
                let (k0, k1) = (k + done, k + n - 8);
                unsafe { group_tail_pair::<S, C>(p, pass, a_of::<S>(a0, done), a_of::<S>(a0, n - 8), offset, k0, k1, 16 - left) };
                done = n;
            } else if left > 0 && left < 8 {
                unsafe { group_shifted::<S, C>(p, pass, a_of::<S>(a0, n - 8), offset, k + n - 8, 8 - left) };
                done = n;
            }
        }
        if plan.groups {
            while done < n && (done + 8 <= n || plan.partial) {
                let lanes = (n - done).min(8);
                debug_assert!((0..lanes).all(|j| pass.c.a[k + done + j] as usize == a_of::<S>(a0, done + j)));
                unsafe { group::<S, C>(p, pass, a_of::<S>(a0, done), offset, k + done, lanes) };
                done += lanes;
            }
        }
        if done < n {
            // SAFETY: constraints `[k + done, k + n)` are this row's: their multipliers are
            // touched by nothing else meanwhile.
            let lambda = unsafe { std::slice::from_raw_parts_mut(pass.lambda.add(k + done), n - done) };
            if pass.fresh {
                lambda.fill(0.0);
            }
            distance::project(p, pass.c, k + done..k + n, lambda, &[pass.at_k; KIND_COUNT], pass.rest_scale);
        }
    }

    /// Lane order [0,1,4,5,2,3,6,7] ↔ constraint order, for the strided shapes (an involution).
    #[inline(always)]
    unsafe fn swap_middle(v: __m256) -> __m256 {
        unsafe {
            let (lo, hi) = (_mm256_castps256_ps128(v), _mm256_extractf128_ps::<1>(v));
            _mm256_set_m128(_mm_movehl_ps(hi, lo), _mm_movelh_ps(lo, hi))
        }
    }

    /// x, y, z, w of a group's `a` and `b` particles, lanes in the shape's order.
    struct Lanes {
        a: [__m256; 4],
        b: [__m256; 4],
    }

    #[inline(always)]
    unsafe fn load<const S: u8>(p: &SoaPtr, a0: usize, offset: usize) -> Lanes {
        unsafe {
            let arrays = [p.x, p.y, p.z, p.w];
            let z = _mm256_setzero_ps();
            let mut l = Lanes { a: [z; 4], b: [z; 4] };
            for (comp, base) in arrays.into_iter().enumerate() {
                // SAFETY: the caller checked the blocks lie inside the arrays.
                let at = |i: usize| _mm256_loadu_ps(base.add(i));
                match S {
                    CONTIGUOUS => {
                        l.a[comp] = at(a0);
                        l.b[comp] = at(a0 + offset);
                    }
                    EVEN_ODD => {
                        let (v0, v1) = (at(a0), at(a0 + 8));
                        l.a[comp] = _mm256_shuffle_ps::<0x88>(v0, v1);
                        l.b[comp] = _mm256_shuffle_ps::<0xDD>(v0, v1);
                    }
                    _ => {
                        let (v0, v1) = (at(a0), at(a0 + 8));
                        l.a[comp] = _mm256_shuffle_ps::<0x44>(v0, v1);
                        l.b[comp] = _mm256_shuffle_ps::<0xEE>(v0, v1);
                    }
                }
            }
            l
        }
    }

    #[inline(always)]
    unsafe fn store<const S: u8>(p: &mut SoaPtr, a0: usize, offset: usize, l: &Lanes) {
        unsafe {
            let arrays = [p.x, p.y, p.z];
            for (comp, base) in arrays.into_iter().enumerate() {
                // SAFETY: the caller checked the blocks lie inside the arrays.
                let put = |i: usize, v: __m256| _mm256_storeu_ps(base.add(i), v);
                let (a, b) = (l.a[comp], l.b[comp]);
                match S {
                    CONTIGUOUS => {
                        put(a0, a);
                        put(a0 + offset, b);
                    }
                    EVEN_ODD => {
                        put(a0, _mm256_unpacklo_ps(a, b));
                        put(a0 + 8, _mm256_unpackhi_ps(a, b));
                    }
                    _ => {
                        put(a0, _mm256_shuffle_ps::<0x44>(a, b));
                        put(a0 + 8, _mm256_shuffle_ps::<0xEE>(a, b));
                    }
                }
            }
        }
    }

    /// Lane masks: `MASKS[8 - n..]` enables the first `n` lanes.
    static MASKS: [i32; 16] = [-1, -1, -1, -1, -1, -1, -1, -1, 0, 0, 0, 0, 0, 0, 0, 0];
    /// `LAST[8 - n..]` enables lanes `n..8`.
    static LAST: [i32; 16] = [0, 0, 0, 0, 0, 0, 0, 0, -1, -1, -1, -1, -1, -1, -1, -1];

    /// The last group of a row whose earlier groups took its first `skip` lanes' constraints:
    /// the group ends on the row's last constraint (nothing is read or written past the row),
    /// its first `skip` lanes masked off. Those lanes' particles belong to the group before,
    /// already stored: they are read back and written unchanged.
    #[inline(always)]
    unsafe fn group_shifted<const S: u8, const C: bool>(p: &mut SoaPtr, pass: &mut Pass, a0: usize, offset: usize, k: usize, skip: usize) {
        unsafe {
            let mut l = load::<S>(p, a0, offset);
            let used = _mm256_loadu_si256(LAST.as_ptr().add(8 - skip) as *const __m256i);
            project::<S, C, false>(&mut l, pass, k, used);
            store::<S>(p, a0, offset, &l);
        }
    }

    /// A full group at `a0` and the row's last group at `a1`, which overlaps it by `skip`
    /// lanes (masked off in the second), interleaved. Both are loaded before either is
    /// stored, so the second is stored first: where they overlap, the first group's results
    /// are written last and stay.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    unsafe fn group_tail_pair<const S: u8, const C: bool>(p: &mut SoaPtr, pass: &mut Pass, a0: usize, a1: usize, offset: usize, k0: usize, k1: usize, skip: usize) {
        unsafe {
            let mut l0 = load::<S>(p, a0, offset);
            let mut l1 = load::<S>(p, a1, offset);
            let used = _mm256_loadu_si256(LAST.as_ptr().add(8 - skip) as *const __m256i);
            project::<S, C, true>(&mut l0, pass, k0, _mm256_setzero_si256());
            project::<S, C, false>(&mut l1, pass, k1, used);
            store::<S>(p, a1, offset, &l1);
            store::<S>(p, a0, offset, &l0);
        }
    }

    /// Projects constraints `[k, k + lanes)` of one group at `a0`.
    #[inline(always)]
    unsafe fn group<const S: u8, const C: bool>(p: &mut SoaPtr, pass: &mut Pass, a0: usize, offset: usize, k: usize, lanes: usize) {
        unsafe {
            let mut l = load::<S>(p, a0, offset);
            if lanes == 8 {
                project::<S, C, true>(&mut l, pass, k, _mm256_setzero_si256());
            } else {
                let used = _mm256_loadu_si256(MASKS.as_ptr().add(8 - lanes) as *const __m256i);
                project::<S, C, false>(&mut l, pass, k, used);
            }
            store::<S>(p, a0, offset, &l);
        }
    }

    /// Two full groups whose blocks do not overlap, interleaved: one group's square root
    /// and division wait on long latencies that the other's work fills.
    #[inline(always)]
    unsafe fn group_pair<const S: u8, const C: bool>(p: &mut SoaPtr, pass: &mut Pass, a0: usize, a1: usize, offset: usize, k: usize) {
        unsafe {
            let mut l0 = load::<S>(p, a0, offset);
            let mut l1 = load::<S>(p, a1, offset);
            let none = _mm256_setzero_si256();
            project::<S, C, true>(&mut l0, pass, k, none);
            project::<S, C, true>(&mut l1, pass, k + 8, none);
            store::<S>(p, a0, offset, &l0);
            store::<S>(p, a1, offset, &l1);
        }
    }

    /// The scalar kernel's projection, in lanes, on loaded particles: constraints
    /// `[k, k + 8)`, or only the lanes `used` enables when not `FULL`.
    #[inline(always)]
    unsafe fn project<const S: u8, const C: bool, const FULL: bool>(l: &mut Lanes, pass: &mut Pass, k: usize, used: __m256i) {
        unsafe {
            let order = |v: __m256| if S == CONTIGUOUS { v } else { swap_middle(v) };
            // SAFETY: `[k, k + 8)` (or its used lanes) are constraints of this batch.
            let read = |v: *const f32| if FULL { _mm256_loadu_ps(v) } else { _mm256_maskload_ps(v, used) };
            let [xa, ya, za, wa] = l.a;
            let [xb, yb, zb, wb] = l.b;
            let (dx, dy, dz) = (_mm256_sub_ps(xb, xa), _mm256_sub_ps(yb, ya), _mm256_sub_ps(zb, za));
            let len = _mm256_sqrt_ps(_mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(dx, dx), _mm256_mul_ps(dy, dy)), _mm256_mul_ps(dz, dz)));
            let zero = _mm256_setzero_ps();
            let mut valid = _mm256_cmp_ps::<_CMP_GE_OQ>(len, _mm256_set1_ps(LENGTH_EPSILON));
            if !FULL {
                valid = _mm256_and_ps(valid, order(_mm256_castsi256_ps(used)));
            }
            let rest = _mm256_mul_ps(order(read(pass.c.rest.as_ptr().add(k))), _mm256_set1_ps(pass.rest_scale));
            let cval = _mm256_sub_ps(len, rest);
            let at_v = _mm256_set1_ps(pass.at_k);
            let lam = if C && !pass.fresh { order(read(pass.lambda.add(k))) } else { zero };
            let denom = _mm256_add_ps(_mm256_add_ps(wa, wb), at_v);
            let num = _mm256_sub_ps(_mm256_sub_ps(zero, cval), _mm256_mul_ps(at_v, lam));
            let ok = _mm256_and_ps(valid, _mm256_cmp_ps::<_CMP_GT_OQ>(denom, _mm256_set1_ps(WEIGHT_EPSILON)));
            let q = _mm256_and_ps(_mm256_div_ps(num, _mm256_mul_ps(denom, len)), ok);
            if C {
                let new_lam = order(_mm256_blendv_ps(lam, _mm256_add_ps(lam, _mm256_mul_ps(q, len)), valid));
                let out = pass.lambda.add(k);
                if FULL {
                    _mm256_storeu_ps(out, new_lam)
                } else {
                    _mm256_maskstore_ps(out, used, new_lam)
                }
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
            let new = if _mm256_movemask_ps(valid) == 0xFF {
                // Every lane projects (the common case): no blending needed.
                moved
            } else {
                // Lanes the scalar kernel would skip keep their exact bits.
                let old = [xa, ya, za, xb, yb, zb];
                let blend = |i: usize| _mm256_blendv_ps(old[i], moved[i], valid);
                [blend(0), blend(1), blend(2), blend(3), blend(4), blend(5)]
            };
            [l.a[0], l.a[1], l.a[2], l.b[0], l.b[1], l.b[2]] = new;
        }
    }
}
