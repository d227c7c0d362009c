//! Particle–particle contact: self-collision inside a body and contact between two bodies.
//!
//! Candidate pairs are found once per fixed step with a uniform grid (cells at least the
//! search distance wide over the bounds of the searched body, particles counting-sorted by
//! cell, so the result depends on no iteration order); each substep then pushes every
//! candidate pair that is closer than the contact distance `D` apart along the line between
//! them, split by inverse mass: `C = |xi − xj| − D ≥ 0`, the unilateral distance constraint
//! of PBD.

use crate::math::{LENGTH_EPSILON, Vec3};
use glam::Vec4;

/// Reused buffers for the cell grid: no allocation per step once warm.
///
/// Cells are numbered `(x · ny + y) · nz + z`, so the three cells `z − 1 ..= z + 1` of one
/// `(x, y)` column are one run of the sorted particles and a query reads 9 runs, not 27
/// cells. Particles are counting-sorted by cell (stable, so by index inside a cell), and
/// their positions (and rest positions) copied in that order coordinate by coordinate, so a
/// run is tested [`LANES`] candidates at a time.
#[derive(Clone, Debug, Default)]
pub struct CellScratch {
    cells: Cells,
    /// [`find_self_pairs`]: the pairs as found, near and far, by each of two halves of the
    /// sorted particles; and a count per particle for sorting them.
    found: [[Vec<[u32; 2]>; 2]; 2],
    count: Vec<u32>,
}

/// The particles sorted into a grid's cells.
#[derive(Clone, Debug, Default)]
struct Cells {
    /// Cell c holds the sorted particles `starts[c]..starts[c + 1]`.
    starts: Vec<u32>,
    /// Each particle's cell.
    cell: Vec<u32>,
    /// Particle indices in cell order; their positions `[x, y, z]` and rest positions, each
    /// padded by `LANES` (a run's last lanes read past its end, masked).
    order: Vec<u32>,
    at: [Vec<f32>; 3],
    rest: [Vec<f32>; 3],
    grid: Grid,
}

/// Candidates per distance test: 4 `f32`, one SSE register per coordinate (glam's `Vec4`).
/// (Runs are short, 4–25 particles: wider lanes would mostly test padding.)
const LANES: usize = 4;

/// A uniform grid over a box: cell `(⌊t.x⌋, ⌊t.y⌋, ⌊t.z⌋)`, `t = (p − lo) · inv`.
#[derive(Clone, Copy, Debug, Default)]
struct Grid {
    lo: Vec3,
    inv: f32,
    n: [i32; 3],
}

/// Cells per axis at most: it bounds the rounding of `t` to 2⁻⁸ of a cell, well inside the
/// 1/32 of a cell by which the cells are wider than the search distance (so two particles
/// closer than it are never two cells apart, however they round).
const MAX_CELLS_PER_AXIS: f64 = 16384.0;

/// Cells per particle at most (the grid coarsens beyond: wider cells, same pairs).
const CELLS_PER_PARTICLE: usize = 16;

/// The narrowest cell (m): its inverse stays a finite `f32`. A search distance of 1e-45 m (a
/// valid thickness) over particles that coincide gave an infinite inverse, so the grid put
/// its own particles at NaN and the step panicked (a fuzz finding).
const MIN_CELL: f64 = 1e-30;

impl Grid {
    /// A grid over `x` with cells at least `search` wide and at most `limit` of them, or
    /// `None` when the bounds are not finite.
    fn over(x: &[Vec3], search: f32, limit: usize) -> Option<Grid> {
        let (lo, hi) = x.iter().fold((Vec3::INFINITY, Vec3::NEG_INFINITY), |(lo, hi), p| (lo.min(*p), hi.max(*p)));
        if !lo.is_finite() || !hi.is_finite() {
            return None;
        }
        let extent = (hi - lo).to_array().map(f64::from);
        let mut cell = (f64::from(search) * (1.0 + 1.0 / 32.0)).max(MIN_CELL);
        loop {
            let n = extent.map(|e| (e / cell).floor() + 1.0);
            let total = n[0] * n[1] * n[2];
            if total <= limit as f64 && n.iter().all(|&k| k <= MAX_CELLS_PER_AXIS) {
                let inv = (1.0 / cell) as f32;
                return Some(Grid { lo, inv, n: n.map(|k| k as i32) });
            }
            let too_many = (total / limit as f64).cbrt().max(n.iter().fold(0.0f64, |m, &k| m.max(k)) / MAX_CELLS_PER_AXIS);
            cell *= too_many.max(1.0) * 1.01;
        }
    }

    /// The cell of `p`, each coordinate in `-1 ..= n` (outside the grid by at most a cell)
    /// or `None` when `p` is farther out than that.
    #[inline]
    fn coords(&self, p: Vec3) -> Option<[i32; 3]> {
        let t = ((p - self.lo) * self.inv).to_array();
        let mut c = [0; 3];
        for k in 0..3 {
            // Truncation is the floor for t + 1 ≥ 0 (NaN fails the test).
            if !(t[k] >= -1.0 && t[k] < (self.n[k] + 1) as f32) {
                return None;
            }
            c[k] = ((t[k] + 1.0) as i32 - 1).min(self.n[k]);
        }
        Some(c)
    }

    #[inline]
    fn index(&self, c: [i32; 3]) -> usize {
        ((c[0] * self.n[1] + c[1]) * self.n[2] + c[2]) as usize
    }

    fn cells(&self) -> usize {
        (self.n[0] * self.n[1] * self.n[2]) as usize
    }
}

impl Cells {
    /// Sorts `x` (and its `rest` positions) into cells at least `search` wide; false when
    /// there is no grid (empty or non-finite bounds).
    fn build(&mut self, x: &[Vec3], rest: Option<&[Vec3]>, search: f32) -> bool {
        let limit = CELLS_PER_PARTICLE * x.len() + 64;
        let Some(grid) = Grid::over(x, search, limit) else { return false };
        self.grid = grid;
        let cells = grid.cells();
        if self.starts.capacity() < limit + 1 {
            // The most cells any step of this body can need: reserved at once, so that
            // bounds that grow later do not allocate.
            self.starts.reserve(limit + 1 - self.starts.len());
        }
        self.starts.clear();
        self.starts.resize(cells + 1, 0);
        self.cell.clear();
        for p in x {
            let c = grid.coords(*p).expect("inside its own bounds").map(|k| k.max(0));
            let c = [c[0].min(grid.n[0] - 1), c[1].min(grid.n[1] - 1), c[2].min(grid.n[2] - 1)];
            let at = grid.index(c);
            self.cell.push(at as u32);
            self.starts[at + 1] += 1;
        }
        for c in 0..cells {
            self.starts[c + 1] += self.starts[c];
        }
        let padded = x.len() + LANES;
        self.order.clear();
        self.order.resize(padded, 0);
        for v in self.at.iter_mut().chain(&mut self.rest) {
            v.clear();
        }
        for v in &mut self.at {
            v.resize(padded, 0.0);
        }
        if rest.is_some() {
            for v in &mut self.rest {
                v.resize(padded, 0.0);
            }
        }
        // Filled from each cell's end backwards (starts[c + 1] counts down to starts[c]),
        // visiting particles last to first: stable, and no cursor array.
        for (i, p) in x.iter().enumerate().rev() {
            let at = self.cell[i] as usize + 1;
            self.starts[at] -= 1;
            let k = self.starts[at] as usize;
            self.order[k] = i as u32;
            for (c, v) in self.at.iter_mut().enumerate() {
                v[k] = p[c];
            }
            if let Some(r) = rest {
                for (c, v) in self.rest.iter_mut().enumerate() {
                    v[k] = r[i][c];
                }
            }
        }
        // (Now starts[c + 1] is the start of cell c: shift back by one.)
        self.starts.copy_within(1..=cells, 0);
        self.starts[cells] = x.len() as u32;
        true
    }

    /// The sorted range of the cells `(x, y, z − 1 ..= z + 1)` of a grid column, clipped to
    /// the grid; empty outside it.
    #[inline]
    fn run(&self, x: i32, y: i32, z: i32) -> std::ops::Range<usize> {
        let g = &self.grid;
        if x < 0 || x >= g.n[0] || y < 0 || y >= g.n[1] {
            return 0..0;
        }
        let (z0, z1) = ((z - 1).max(0), (z + 1).min(g.n[2] - 1));
        if z0 > z1 {
            return 0..0;
        }
        self.starts[g.index([x, y, z0])] as usize..self.starts[g.index([x, y, z1]) + 1] as usize
    }
}

/// Pairs `(i, j)` of particles of `xa` and `xb` closer than `search`; for a body against
/// itself pass `xb = None` (then `i < j`), and `rest` excludes pairs whose rest distance is
/// at most `exclude` (neighbours that touch at rest). Sorted, so the order is deterministic.
/// Non-finite positions find no pairs (none at all when they are in the searched body, whose
/// bounds they make non-finite: such a step is rolled back anyway, `Body::end_step`).
pub fn find_pairs(
    xa: &[Vec3],
    xb: Option<&[Vec3]>,
    search: f32,
    rest: Option<(&[Vec3], f32)>,
    scratch: &mut CellScratch,
    out: &mut Vec<[u32; 2]>,
) {
    search_pairs(xa, xb, search, rest, usize::MAX, scratch, out);
}

/// Pairs between two bodies, as [`find_pairs`], with at most `cap` per particle of `xa`: the
/// first found in cell order (deterministic), the search of that particle stopping there.
/// Returns how many particles reached the cap. A contact distance of many spacings (a
/// thickness of metres on a centimetre mesh) would otherwise pair every particle with the
/// whole other body, a step's cost growing as the product of the two counts.
pub fn find_pairs_capped(xa: &[Vec3], xb: &[Vec3], search: f32, cap: usize, scratch: &mut CellScratch, out: &mut Vec<[u32; 2]>) -> usize {
    search_pairs(xa, Some(xb), search, None, cap, scratch, out)
}

fn search_pairs(
    xa: &[Vec3],
    xb: Option<&[Vec3]>,
    search: f32,
    rest: Option<(&[Vec3], f32)>,
    cap: usize,
    scratch: &mut CellScratch,
    out: &mut Vec<[u32; 2]>,
) -> usize {
    out.clear();
    if search <= 0.0 || !search.is_finite() {
        return 0;
    }
    // Room for sixteen pairs per particle from the start, so the list does not grow (and
    // allocate) step after step as contacts come and go.
    let room = 16 * xa.len().min(xb.map_or(usize::MAX, <[Vec3]>::len));
    if out.capacity() < room {
        out.reserve(room - out.len());
    }
    let other = xb.unwrap_or(xa);
    let cells = &mut scratch.cells;
    if !cells.build(other, rest.map(|(r, _)| r), search) {
        return 0;
    }
    let s2 = search * search;
    let mut capped = 0;
    for (i, p) in xa.iter().enumerate() {
        let Some([cx, cy, cz]) = cells.grid.coords(*p) else { continue };
        // A body against itself: each pair once, from its lower index.
        let from = if xb.is_none() { i as u32 + 1 } else { 0 };
        let first = out.len();
        'scan: for dx in -1..=1 {
            for dy in -1..=1 {
                let run = cells.run(cx + dx, cy + dy, cz);
                let mut k = run.start;
                while k < run.end {
                    let lanes = match rest {
                        Some((r, ex)) => cells.lanes::<true>(k, *p, s2, r[i], ex * ex),
                        None => cells.lanes::<false>(k, *p, s2, Vec3::ZERO, 0.0),
                    };
                    let mut m = lanes & (u32::MAX >> (32 - (run.end - k).min(LANES)));
                    while m != 0 {
                        let j = cells.order[k + m.trailing_zeros() as usize];
                        if j >= from {
                            if out.len() - first == cap {
                                capped += 1;
                                break 'scan;
                            }
                            out.push([i as u32, j]);
                        }
                        m &= m - 1;
                    }
                    k += LANES;
                }
            }
        }
        // The runs come in cell order; a particle has a handful of pairs.
        out[first..].sort_unstable();
    }
    capped
}

impl Cells {
    /// Of the sorted particles `k .. k + LANES`, bit l set for each one closer than `√s2` to
    /// `p` and (`EXCLUDE`) whose rest position is farther than `√ex2` from `rp`: the scalar
    /// tests `(q − p)·(q − p) < s2` and `(rq − rp)·(rq − rp) > ex2`, lane by lane, with the
    /// same operations in the same order (so the same bits).
    #[inline]
    fn lanes<const EXCLUDE: bool>(&self, k: usize, p: Vec3, s2: f32, rp: Vec3, ex2: f32) -> u32 {
        let dist2 = |v: &[Vec<f32>; 3], p: Vec3| {
            let d = |c: usize| Vec4::from_slice(&v[c][k..k + LANES]) - Vec4::splat(p[c]);
            let (dx, dy, dz) = (d(0), d(1), d(2));
            dx * dx + dy * dy + dz * dz
        };
        let near = dist2(&self.at, p).cmplt(Vec4::splat(s2)).bitmask();
        if !EXCLUDE || near == 0 {
            return near;
        }
        near & dist2(&self.rest, rp).cmpgt(Vec4::splat(ex2)).bitmask()
    }
}

/// One search of [`find_self_pairs`]: pairs closer than `search` whose rest distance is more
/// than `exclude`.
#[derive(Clone, Copy, Debug)]
pub struct Band {
    pub search: f32,
    pub exclude: f32,
}

impl Band {
    /// `(search², exclude²)`; a search that is not positive and finite finds nothing.
    fn squares(self) -> (f32, f32) {
        let s2 = if self.search > 0.0 && self.search.is_finite() { self.search * self.search } else { f32::NEG_INFINITY };
        (s2, self.exclude * self.exclude)
    }
}

/// At most this many pairs per particle's query and band of a body's search against itself
/// ([`find_self_pairs`]), a bound on the work of one step. Particles of one body that are not
/// neighbours at rest keep `2 × thickness` apart, and the near band reaches at most three
/// times that (with the margin of fast motion), so a body whose contacts hold has at most
/// about 32 particles in it (spheres of that diameter packed in a ball of 3.5 of them); a
/// cloth folded over a sphere and crumpled by its fall (tests/determinism_self_collision.rs,
/// 1,600 particles) had at most 8 to 33 in the physics tests and up to 985 only once it had
/// pressed itself into a ball. A body collapsed to a point (every particle pinned to one
/// target) met all of its particles, n²/2 pairs: 1,600 particles took 86 ms a step. Beyond the
/// cap a query keeps the first found (its own cell's, then its neighbours', a deterministic
/// order) and is counted: `SinewWorldStats.capped_particles`.
pub const MAX_SELF_PAIRS_PER_PARTICLE: usize = 64;

/// A body against itself, two searches over one grid: into `near_out` the pairs `i < j` of
/// `find_pairs(x, None, near.search, Some((rest, near.exclude)))`, into `far_out` those of
/// `far` in both directions (`(i, j)` and `(j, i)`), both sorted. The same pairs as the
/// brute-force definition (tested) while no query reaches `cap`, each pair tested once: from
/// the particle whose cell comes first, its own cell's later particles and the 13 cells after
/// it (5 runs of the sorted particles). A query keeps at most `cap` pairs per band (the first
/// it finds); returns how many queries stopped at it. `split`: the queries in two halves, on
/// this thread and another of the rayon pool when one is free (the same lists).
#[allow(clippy::too_many_arguments)]
pub fn find_self_pairs(
    x: &[Vec3],
    rest: &[Vec3],
    near: Band,
    far: Option<Band>,
    cap: usize,
    split: bool,
    scratch: &mut CellScratch,
    near_out: &mut Vec<[u32; 2]>,
    far_out: &mut Vec<[u32; 2]>,
) -> usize {
    near_out.clear();
    far_out.clear();
    // Room for sixteen pairs per particle from the start (as `find_pairs`).
    let room = 16 * x.len();
    // (The far list holds each pair both ways; the second half's lists serve half the
    // queries.)
    let [first, second] = &mut scratch.found;
    for (v, want) in [(&mut *near_out, room), (&mut *far_out, 2 * room)].into_iter().chain(first.iter_mut().map(|v| (v, room))).chain(second.iter_mut().map(|v| (v, room / 2))) {
        v.clear();
        if v.capacity() < want {
            v.reserve(want);
        }
    }
    let squares = [near.squares(), far.map_or((f32::NEG_INFINITY, 0.0), Band::squares)];
    // The grid for the wider search (the other tests more candidates than it needs).
    let reach = [Some(near), far].into_iter().flatten().filter(|b| b.squares().0 > f32::NEG_INFINITY).fold(0.0f32, |m, b| m.max(b.search));
    let cells = &mut scratch.cells;
    if reach == 0.0 || !cells.build(x, Some(rest), reach) {
        return 0;
    }
    let cells = &*cells;
    let [first, second] = &mut scratch.found;
    let capped = if split && x.len() >= 2 {
        // Two halves of the sorted particles, cut at a cell's start; each half's queries
        // read the whole grid and write their own lists.
        let mid = cells.starts[cells.cell[cells.order[x.len() / 2] as usize] as usize] as usize;
        let (a, b) = rayon::join(|| cells.search_self(0..mid, squares, cap, first), || cells.search_self(mid..x.len(), squares, cap, second));
        a + b
    } else {
        cells.search_self(0..x.len(), squares, cap, first)
    };
    // The lists' order depends on the split; the sorted pairs do not.
    let (found, count) = (&scratch.found, &mut scratch.count);
    sort_pairs([&found[0][0], &found[1][0]], x.len(), false, count, near_out);
    sort_pairs([&found[0][1], &found[1][1]], x.len(), true, count, far_out);
    capped
}

impl Cells {
    /// The queries of the sorted particles `range` (whole cells) for [`find_self_pairs`], with
    /// the bands' `(search², exclude²)`: the pairs `(min, max)` into `found` (near, far), at
    /// most `cap` per query and band. Returns the queries that stopped at `cap`.
    fn search_self(&self, range: std::ops::Range<usize>, squares: [(f32, f32); 2], cap: usize, found: &mut [Vec<[u32; 2]>; 2]) -> usize {
        let [(near2, near_ex2), (far2, far_ex2)] = squares;
        let g = self.grid;
        let mut capped = 0;
        // (A band that finds nothing: `s2` not positive.)
        let searches = [near2 > 0.0, far2 > 0.0];
        let mut s = range.start;
        while s < range.end {
            let c = self.cell[self.order[s] as usize] as usize;
            let (cz, cy, cx) = ((c % g.n[2] as usize) as i32, (c / g.n[2] as usize % g.n[1] as usize) as i32, (c / (g.n[2] * g.n[1]) as usize) as i32);
            let cell_end = self.starts[c + 1] as usize;
            // The rest of the own column's run (this cell and the one above it), then the
            // columns after this one.
            let own_end = self.starts[g.index([cx, cy, (cz + 1).min(g.n[2] - 1)]) + 1] as usize;
            let runs = [self.run(cx, cy + 1, cz), self.run(cx + 1, cy - 1, cz), self.run(cx + 1, cy, cz), self.run(cx + 1, cy + 1, cz)];
            for q in s..cell_end {
                let i = self.order[q];
                let p = Vec3::new(self.at[0][q], self.at[1][q], self.at[2][q]);
                let rp = Vec3::new(self.rest[0][q], self.rest[1][q], self.rest[2][q]);
                let [r0, r1, r2, r3] = runs.clone();
                // Room left in each band; a band that is full takes no more pairs, and the
                // query stops when every band that searches is full.
                let mut room = [cap, cap];
                'scan: for run in [q + 1..own_end, r0, r1, r2, r3] {
                    let mut k = run.start;
                    while k < run.end {
                        let valid = u32::MAX >> (32 - (run.end - k).min(LANES));
                        let masks = self.lanes_two(k, p, rp, [near2, far2, near_ex2, far_ex2]).map(|m| m & valid);
                        for ((mut m, list), room) in masks.into_iter().zip(found.iter_mut()).zip(room.iter_mut()) {
                            while m != 0 && *room > 0 {
                                let j = self.order[k + m.trailing_zeros() as usize];
                                list.push([i.min(j), i.max(j)]);
                                *room -= 1;
                                m &= m - 1;
                            }
                        }
                        if (0..2).all(|b| room[b] == 0 || !searches[b]) {
                            break 'scan;
                        }
                        k += LANES;
                    }
                }
                capped += usize::from((0..2).any(|b| room[b] == 0 && searches[b]));
            }
            s = cell_end;
        }
        capped
    }
}

impl Cells {
    /// [`Cells::lanes`] for two bands at once, `[s2_near, s2_far, ex2_near, ex2_far]`: the
    /// masks `[near, far]`.
    #[inline]
    fn lanes_two(&self, k: usize, p: Vec3, rp: Vec3, [near2, far2, near_ex2, far_ex2]: [f32; 4]) -> [u32; 2] {
        let dist2 = |v: &[Vec<f32>; 3], p: Vec3| {
            let d = |c: usize| Vec4::from_slice(&v[c][k..k + LANES]) - Vec4::splat(p[c]);
            let (dx, dy, dz) = (d(0), d(1), d(2));
            dx * dx + dy * dy + dz * dz
        };
        let d2 = dist2(&self.at, p);
        let (near, far) = (d2.cmplt(Vec4::splat(near2)).bitmask(), d2.cmplt(Vec4::splat(far2)).bitmask());
        if near | far == 0 {
            return [0, 0];
        }
        let r2 = dist2(&self.rest, rp);
        [near & r2.cmpgt(Vec4::splat(near_ex2)).bitmask(), far & r2.cmpgt(Vec4::splat(far_ex2)).bitmask()]
    }
}

/// The pairs `i < j` of `parts` (any order; with `both` each also as `(j, i)`) sorted into `out`:
/// counted by first index, then each particle's few by second.
fn sort_pairs(parts: [&[[u32; 2]]; 2], n: usize, both: bool, count: &mut Vec<u32>, out: &mut Vec<[u32; 2]>) {
    out.clear();
    // (Sized even when there is nothing to sort, so that the first pairs do not allocate.)
    count.clear();
    count.resize(n + 1, 0);
    if parts.iter().all(|p| p.is_empty()) {
        return;
    }
    for &[i, j] in parts.iter().copied().flatten() {
        count[i as usize + 1] += 1;
        if both {
            count[j as usize + 1] += 1;
        }
    }
    for k in 0..n {
        count[k + 1] += count[k];
    }
    out.resize(count[n] as usize, [0, 0]);
    for &[i, j] in parts.iter().copied().flatten() {
        out[count[i as usize] as usize] = [i, j];
        count[i as usize] += 1;
        if both {
            out[count[j as usize] as usize] = [j, i];
            count[j as usize] += 1;
        }
    }
    // (count[k] is now the end of particle k's pairs.)
    let mut start = 0;
    for &end in &count[..n] {
        let end = end as usize;
        // (A particle has a handful: insertion sort.)
        for a in start + 1..end {
            let mut b = a;
            while b > start && out[b - 1][1] > out[b][1] {
                out.swap(b - 1, b);
                b -= 1;
            }
        }
        start = end;
    }
}

/// Pushes apart pairs of one body closer than `dist`.
pub fn resolve_self(x: &mut [Vec3], w: &[f32], pairs: &[[u32; 2]], dist: f32) {
    let apart2 = apart_squared(dist);
    for &[i, j] in pairs {
        let (i, j) = (i as usize, j as usize);
        // Most candidates are not in contact: skip those before the square root.
        if (x[j] - x[i]).length_squared() >= apart2 {
            continue;
        }
        if let Some(corr) = separation(x[i], w[i], x[j], w[j], dist) {
            x[i] -= corr * w[i];
            x[j] += corr * w[j];
        }
    }
}

/// [`resolve_self`] on positions as components (`x`, `y`, `z`, inverse masses `w`: the
/// structure-of-arrays layout, particle k at index k), with the same operations in the same
/// order, so the same bits.
pub fn resolve_self_components(x: &mut [f32], y: &mut [f32], z: &mut [f32], w: &[f32], pairs: &[[u32; 2]], dist: f32) {
    let apart2 = apart_squared(dist);
    for &[i, j] in pairs {
        let (i, j) = (i as usize, j as usize);
        let (xi, xj) = (Vec3::new(x[i], y[i], z[i]), Vec3::new(x[j], y[j], z[j]));
        if (xj - xi).length_squared() >= apart2 {
            continue;
        }
        if let Some(corr) = separation(xi, w[i], xj, w[j], dist) {
            let (a, b) = (xi - corr * w[i], xj + corr * w[j]);
            (x[i], y[i], z[i]) = (a.x, a.y, a.z);
            (x[j], y[j], z[j]) = (b.x, b.y, b.z);
        }
    }
}

/// Pushes apart pairs `(i in a, j in b)` closer than `dist`.
pub fn resolve_between(xa: &mut [Vec3], wa: &[f32], xb: &mut [Vec3], wb: &[f32], pairs: &[[u32; 2]], dist: f32) {
    let apart2 = apart_squared(dist);
    for &[i, j] in pairs {
        let (i, j) = (i as usize, j as usize);
        if (xb[j] - xa[i]).length_squared() >= apart2 {
            continue;
        }
        if let Some(corr) = separation(xa[i], wa[i], xb[j], wb[j], dist) {
            xa[i] -= corr * wa[i];
            xb[j] += corr * wb[j];
        }
    }
}

/// A squared distance at or beyond which `separation` surely returns `None`: above `dist²`
/// by more than the rounding of `dist · dist` and of the square root, so skipping a pair on
/// it changes no bit. (NaN, so that no pair is skipped, for a `dist` whose square would not
/// be a normal number.)
#[inline]
fn apart_squared(dist: f32) -> f32 {
    if dist > 1e-15 { dist * dist * (1.0 + 1.0 / 1_048_576.0) } else { f32::NAN }
}

/// The correction per unit inverse mass that moves `xi` and `xj` (inverse masses `wi`, `wj`)
/// `dist` apart along the line between them, or `None` when they already are (or coincide).
#[inline]
fn separation(xi: Vec3, wi: f32, xj: Vec3, wj: f32, dist: f32) -> Option<Vec3> {
    let ws = wi + wj;
    if ws == 0.0 {
        return None;
    }
    let d = xj - xi;
    let len = d.length();
    // Written so that a NaN distance (one side overflowed) is no contact: the other side is
    // left as it is (NaN containment, docs/reliability.md).
    if len.is_nan() || len >= dist || len < LENGTH_EPSILON {
        return None;
    }
    Some(d * ((dist - len) / (len * ws)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_capped_search_keeps_at_most_the_cap_per_particle_and_counts_them() {
        // Two clouds of 300 particles within 0.3 m, searched within 1 m: every particle is
        // near all 300 of the other.
        let cloud = |k: u32| (0..300).map(|i| Vec3::new((i % 7) as f32, (i % 11) as f32, (i % 13 + k) as f32) * 0.02).collect::<Vec<_>>();
        let (a, b) = (cloud(0), cloud(1));
        let mut out = Vec::new();
        let capped = find_pairs_capped(&a, &b, 1.0, 40, &mut CellScratch::default(), &mut out);
        assert_eq!(capped, 300);
        assert_eq!(out.len(), 300 * 40);
        for i in 0..300u32 {
            assert!(out[i as usize * 40..][..40].iter().all(|p| p[0] == i), "particle {i}'s pairs are not together");
        }
        // Above the count, the same pairs as the uncapped search.
        let mut all = Vec::new();
        assert_eq!(find_pairs_capped(&a, &b, 1.0, 300, &mut CellScratch::default(), &mut out), 0);
        find_pairs(&a, Some(&b), 1.0, None, &mut CellScratch::default(), &mut all);
        assert_eq!(out, all);
    }

    #[test]
    fn hash_finds_exactly_the_close_pairs() {
        let x: Vec<Vec3> = (0..200).map(|i| Vec3::new((i % 7) as f32 * 0.013, (i / 7 % 5) as f32 * 0.021, (i / 35) as f32 * 0.017)).collect();
        let mut pairs = Vec::new();
        find_pairs(&x, None, 0.03, None, &mut CellScratch::default(), &mut pairs);
        let mut brute = Vec::new();
        for i in 0..x.len() {
            for j in i + 1..x.len() {
                if (x[j] - x[i]).length_squared() < 0.03 * 0.03 {
                    brute.push([i as u32, j as u32]);
                }
            }
        }
        assert_eq!(pairs, brute);
    }

    /// The same against a brute-force search, with the rest-pose exclusion, between two
    /// bodies and inside one, on a cloud dense enough for many cells to share buckets.
    #[test]
    fn hash_matches_brute_force_with_exclusion_and_between_bodies() {
        let mut seed = 0x9e3779b9u32;
        let mut rnd = move || {
            seed ^= seed << 13;
            seed ^= seed >> 17;
            seed ^= seed << 5;
            seed as f32 / u32::MAX as f32
        };
        let a: Vec<Vec3> = (0..400).map(|_| Vec3::new(rnd(), rnd(), rnd() * 0.2)).collect();
        let b: Vec<Vec3> = (0..300).map(|_| Vec3::new(rnd(), rnd(), rnd() * 0.2)).collect();
        let rest: Vec<Vec3> = (0..400).map(|i| Vec3::new((i % 20) as f32 * 0.05, (i / 20) as f32 * 0.05, 0.0)).collect();
        let search = 0.09;
        for (xb, exclude) in [(None, None), (None, Some(0.11)), (Some(&b[..]), None)] {
            let mut pairs = Vec::new();
            find_pairs(&a, xb, search, exclude.map(|e| (&rest[..], e)), &mut CellScratch::default(), &mut pairs);
            let other = xb.unwrap_or(&a);
            let mut brute = Vec::new();
            for i in 0..a.len() {
                for j in 0..other.len() {
                    let wanted = (xb.is_some() || j > i)
                        && (other[j] - a[i]).length_squared() < search * search
                        && exclude.is_none_or(|e| (rest[j] - rest[i]).length_squared() > e * e);
                    if wanted {
                        brute.push([i as u32, j as u32]);
                    }
                }
            }
            assert!(brute.len() > 50, "the cloud must have pairs ({})", brute.len());
            assert_eq!(pairs, brute, "between bodies: {}, exclusion: {exclude:?}", xb.is_some());
        }
    }

    /// Brute force: pairs `i < j` closer than `search` with rest distance beyond `exclude`.
    fn brute_self(x: &[Vec3], rest: &[Vec3], b: Band) -> Vec<[u32; 2]> {
        let mut out = Vec::new();
        for i in 0..x.len() {
            for j in i + 1..x.len() {
                if (x[j] - x[i]).length_squared() < b.search * b.search && (rest[j] - rest[i]).length_squared() > b.exclude * b.exclude {
                    out.push([i as u32, j as u32]);
                }
            }
        }
        out
    }

    /// A cloud pressed into a point: each query keeps at most the cap per band, the first it
    /// finds, the same on one thread and split; the queries that reached it are counted.
    #[test]
    fn the_capped_self_search_keeps_at_most_the_cap_per_query() {
        let n = 300;
        let x: Vec<Vec3> = (0..n).map(|i| Vec3::new((i % 7) as f32, (i % 11) as f32, (i % 13) as f32) * 1e-4).collect();
        let rest: Vec<Vec3> = (0..n).map(|i| Vec3::new(i as f32, 0.0, 0.0)).collect();
        let (near, far) = (Band { search: 0.05, exclude: 0.5 }, Some(Band { search: 0.08, exclude: 0.5 }));
        let cap = 40;
        let (mut got_near, mut got_far) = (Vec::new(), Vec::new());
        let capped = find_self_pairs(&x, &rest, near, far, cap, false, &mut CellScratch::default(), &mut got_near, &mut got_far);
        // Every particle is near every other: each query reaches the cap but the last 40.
        assert_eq!(capped, n - cap);
        assert_eq!(got_near.len(), cap * (n - cap) + cap * (cap - 1) / 2);
        assert_eq!(got_far.len(), 2 * got_near.len());
        let (mut split_near, mut split_far) = (Vec::new(), Vec::new());
        let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().expect("pool");
        let split_capped = pool.install(|| find_self_pairs(&x, &rest, near, far, cap, true, &mut CellScratch::default(), &mut split_near, &mut split_far));
        assert_eq!((split_capped, &split_near, &split_far), (capped, &got_near, &got_far), "split in two");
        // Uncapped, the same search finds every pair.
        let capped = find_self_pairs(&x, &rest, near, far, usize::MAX, false, &mut CellScratch::default(), &mut got_near, &mut got_far);
        assert_eq!((capped, got_near.len()), (0, n * (n - 1) / 2));
    }

    /// Both searches of `find_self_pairs` against brute force (the far one in both
    /// directions), on clouds dense and sparse enough for runs of every length, on a folded
    /// cloth (the case self-collision is for), far from the origin, and on a cloud spread so
    /// wide that the grid coarsens; and against `find_pairs`.
    #[test]
    fn self_pairs_match_brute_force_in_both_bands() {
        let mut seed = 0x2545f491u32;
        let mut rnd = move || {
            seed ^= seed << 13;
            seed ^= seed >> 17;
            seed ^= seed << 5;
            seed as f32 / u32::MAX as f32
        };
        let cloth = |n: usize, fold: f32| -> Vec<Vec3> {
            // An n × n sheet of spacing 0.05 folded over at its middle row, `fold` apart.
            (0..n * n)
                .map(|k| {
                    let (r, c) = ((k / n) as f32, (k % n) as f32);
                    let half = (n / 2) as f32;
                    if r < half { Vec3::new(c * 0.05, 0.0, r * 0.05) } else { Vec3::new(c * 0.05, fold, (2.0 * half - 1.0 - r) * 0.05) }
                })
                .collect()
        };
        let flat = |n: usize| -> Vec<Vec3> { (0..n * n).map(|k| Vec3::new((k % n) as f32 * 0.05, 0.0, (k / n) as f32 * 0.05)).collect() };
        let mut cases: Vec<(Vec<Vec3>, Vec<Vec3>)> = Vec::new();
        let cloud: Vec<Vec3> = (0..500).map(|_| Vec3::new(rnd(), rnd(), rnd() * 0.3)).collect();
        let cloud_rest: Vec<Vec3> = (0..500).map(|_| Vec3::new(rnd(), rnd(), rnd())).collect();
        cases.push((cloud.clone(), cloud_rest));
        cases.push((cloth(24, 0.015), flat(24)));
        cases.push((cloth(24, 0.015).iter().map(|p| *p + Vec3::new(-20_000.0, 1_000.0, 7_000.5)).collect(), flat(24)));
        let wide: Vec<Vec3> = (0..300).map(|k| if k % 2 == 0 { Vec3::splat(rnd() * 0.2) } else { Vec3::splat(500.0) + Vec3::new(rnd(), rnd(), rnd()) * 0.2 }).collect();
        cases.push((wide.clone(), wide.iter().map(|p| *p * 3.0).collect()));
        for (x, rest) in &cases {
            for (near, far) in [
                (Band { search: 0.06, exclude: 0.02 }, Some(Band { search: 0.13, exclude: 0.141 })),
                (Band { search: 0.09, exclude: 0.0 }, Some(Band { search: 0.09, exclude: 0.11 })),
                (Band { search: 0.03, exclude: 0.01 }, None),
                (Band { search: 0.0, exclude: 0.01 }, Some(Band { search: 0.1, exclude: 0.06 })),
            ] {
                let (mut got_near, mut got_far) = (Vec::new(), Vec::new());
                assert_eq!(find_self_pairs(x, rest, near, far, usize::MAX, false, &mut CellScratch::default(), &mut got_near, &mut got_far), 0);
                // Split in two halves (on a pool of two threads): the same lists.
                let (mut split_near, mut split_far) = (Vec::new(), Vec::new());
                let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().expect("pool");
                pool.install(|| find_self_pairs(x, rest, near, far, usize::MAX, true, &mut CellScratch::default(), &mut split_near, &mut split_far));
                assert_eq!((&split_near, &split_far), (&got_near, &got_far), "split in two");
                let want_near = if near.search > 0.0 { brute_self(x, rest, near) } else { Vec::new() };
                assert_eq!(got_near, want_near, "near {near:?}");
                let mut want_far = far.map_or(Vec::new(), |f| brute_self(x, rest, f));
                want_far.extend(want_far.clone().iter().map(|&[i, j]| [j, i]));
                want_far.sort_unstable();
                assert_eq!(got_far, want_far, "far {far:?}");
                let mut by_find_pairs = Vec::new();
                find_pairs(x, None, near.search, Some((rest, near.exclude)), &mut CellScratch::default(), &mut by_find_pairs);
                assert_eq!(got_near, by_find_pairs);
            }
        }
        let total: usize = cases.iter().map(|(x, r)| brute_self(x, r, Band { search: 0.06, exclude: 0.02 }).len()).sum();
        assert!(total > 500, "the cases must have pairs ({total})");
    }

    /// The skip before the square root only skips pairs that `separation` leaves alone, at
    /// distances within a few ulps of the contact distance on either side.
    #[test]
    fn skipped_pairs_are_those_separation_leaves_alone() {
        let mut skipped = 0;
        for dist in [0.02f32, 0.013, 1.0, 3.7e-3, 250.0, 1e-14] {
            let apart2 = apart_squared(dist);
            let mut len = dist * (1.0 - 1e-6);
            while len < dist * (1.0 + 1e-6) {
                for d in [Vec3::new(len, 0.0, 0.0), Vec3::new(len, len, len) / 3f32.sqrt(), Vec3::new(0.6 * len, 0.8 * len, 0.0)] {
                    if d.length_squared() >= apart2 {
                        skipped += 1;
                        assert_eq!(separation(Vec3::ZERO, 1.0, d, 1.0, dist), None, "dist {dist}, d {d}");
                    }
                }
                len = f32::from_bits(len.to_bits() + 1);
            }
        }
        assert!(skipped > 100, "some pairs must be skipped ({skipped})");
    }

    /// The structure-of-arrays resolution gives the same bits as the `Vec3` one, on a
    /// crumpled cloud where many pairs touch (and chains of them share particles).
    #[test]
    fn resolving_on_components_gives_the_same_bits() {
        let mut seed = 0x1234_5678u32;
        let mut rnd = move || {
            seed ^= seed << 13;
            seed ^= seed >> 17;
            seed ^= seed << 5;
            seed as f32 / u32::MAX as f32
        };
        let mut x: Vec<Vec3> = (0..600).map(|_| Vec3::new(rnd(), rnd(), rnd()) * 0.3).collect();
        let w: Vec<f32> = (0..600).map(|k| if k % 17 == 0 { 0.0 } else { 0.5 + rnd() }).collect();
        let mut pairs = Vec::new();
        find_pairs(&x, None, 0.05, None, &mut CellScratch::default(), &mut pairs);
        let [mut cx, mut cy, mut cz] = [0, 1, 2].map(|c| x.iter().map(|p| p[c]).collect::<Vec<f32>>());
        let mut touching = 0;
        for _ in 0..4 {
            touching += pairs.iter().filter(|&&[i, j]| (x[j as usize] - x[i as usize]).length() < 0.04).count();
            resolve_self(&mut x, &w, &pairs, 0.04);
            resolve_self_components(&mut cx, &mut cy, &mut cz, &w, &pairs, 0.04);
        }
        assert!(touching > 200, "pairs must touch ({touching})");
        for (k, p) in x.iter().enumerate() {
            assert_eq!([p.x.to_bits(), p.y.to_bits(), p.z.to_bits()], [cx[k].to_bits(), cy[k].to_bits(), cz[k].to_bits()], "particle {k}");
        }
    }

    #[test]
    fn resolve_separates_to_the_contact_distance() {
        let mut x = vec![Vec3::ZERO, Vec3::new(0.01, 0.0, 0.0)];
        resolve_self(&mut x, &[1.0, 1.0], &[[0, 1]], 0.04);
        assert!(((x[1] - x[0]).length() - 0.04).abs() < 1e-6);
        assert!((x[0].x + 0.015).abs() < 1e-6);
    }
}

