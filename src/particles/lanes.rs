//! Identical small grids stepped side by side, one grid per SIMD lane.
//!
//! A crowd's cloths, a field of flags, S2's 64 cloths: many bodies cooked from one grid
//! topology, with the same settings. Alone, each runs the gather-free grid kernel, whose rows
//! of a 16-wide grid fill its eight lanes badly (a row of a batch is one or two groups) and
//! whose per-row set-up costs more than the projections of a short row. Side by side, up to
//! eight such bodies share one structure of arrays in which particle `i` of lane `k` sits at
//! `8·i + k`: a constraint `(a, b)` of the shared topology is then eight projections, one per
//! body, read with two plain vector loads per component, whatever the grid's width. The
//! prediction and the velocities run on the same arrays element by element.
//!
//! Each lane does exactly what its body's own step would do — the same operations on the
//! same values in the same order (the grid kernel's projection, `soa::Band`'s prediction and
//! velocities) — so a body's bits do not depend on whether it ran in a lane, on which lane,
//! or on its neighbours: tested against bodies stepped alone. Only bodies whose step has
//! nothing else (no colliders near, no self-collision, no wind, no tethers or skinned pose, no
//! speed limit, the one-thread structure-of-arrays plan) run in lanes; the others step alone.

use super::stages::{self, Plan, Stage, StepContext, StepParams};
use super::{Body, Topology};
use crate::math::Vec3;
use crate::solver::constraints::distance::DistanceConstraints;
use crate::solver::layout::soa::Band;
use crate::solver::xpbd;
use rayon::prelude::*;

/// Bodies per group: the grid kernel's eight AVX lanes.
pub const LANES: usize = 8;

/// The arrays one group steps in (reused from step to step), each starting on a 32-byte
/// boundary: a particle's eight lanes are one aligned vector, so no load or store of the
/// kernel straddles two cache lines.
#[derive(Debug, Default)]
pub struct LaneScratch {
    x: [Aligned; 3],
    w: Aligned,
    prev: [Aligned; 3],
    v: [Aligned; 3],
    /// Multipliers, `8·constraint + lane` (compliant constraints only).
    lambda: Aligned,
}

impl LaneScratch {
    fn resize(&mut self, particles: usize, constraints: usize) {
        let n = particles * LANES;
        for a in self.x.iter_mut().chain(self.prev.iter_mut()).chain(self.v.iter_mut()) {
            a.resize(n);
        }
        self.w.resize(n);
        self.lambda.resize(constraints * LANES);
    }
}

/// `len` floats from the first 32-byte boundary of `buf`.
#[derive(Debug, Default)]
struct Aligned {
    buf: Vec<f32>,
    start: usize,
    len: usize,
}

impl Aligned {
    /// Sizes the array for `n` floats (zeroed when it changes size).
    fn resize(&mut self, n: usize) {
        if self.len == n && !self.buf.is_empty() {
            return;
        }
        self.buf.clear();
        self.buf.resize(n + LANES, 0.0);
        let misalign = self.buf.as_ptr() as usize % 32;
        self.start = ((32 - misalign) % 32) / std::mem::size_of::<f32>();
        self.len = n;
    }
}

impl std::ops::Deref for Aligned {
    type Target = [f32];
    fn deref(&self) -> &[f32] {
        &self.buf[self.start..self.start + self.len]
    }
}

impl std::ops::DerefMut for Aligned {
    fn deref_mut(&mut self) -> &mut [f32] {
        &mut self.buf[self.start..self.start + self.len]
    }
}

/// What bodies must share to step in one group (compared before their steps begin).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct LaneKey {
    topology: *const Topology,
    substeps: u32,
    iterations: u32,
    h: u32,
    compliances: [u32; crate::solver::constraints::distance::KIND_COUNT],
    damping: u32,
    gravity: [u32; 3],
}

/// The body's key if it may step in a group at all: a grid whose constraints the grid kernel
/// takes, with no constraint group but distances and nothing that reads a body's own data in
/// a pass (tethers, skinned pose, soft-body groups, the speed limit).
pub(crate) fn key(b: &Body, p: &StepParams) -> Option<LaneKey> {
    if !cfg!(target_arch = "x86_64") || b.topology.grid_kernel(p.kernel).is_none() {
        return None;
    }
    let plain = b.skin.is_none() && b.tethers.is_none() && b.soft.is_none() && b.dynamics.max_speed == 0.0 && b.root.is_none() && b.anchor.is_none();
    // (At least one substep: its prediction sets the start positions the group never gathers.)
    if !plain || p.substeps == 0 || b.x.len() >= stages::SPLIT_PARTICLES || b.x.len() != b.topology.particle_count {
        return None;
    }
    let gravity = p.gravity * b.material.gravity_scale;
    Some(LaneKey {
        topology: std::sync::Arc::as_ptr(&b.topology),
        substeps: p.substeps,
        iterations: p.iterations,
        h: p.h.to_bits(),
        compliances: b.compliances().map(f32::to_bits),
        damping: b.material.damping.to_bits(),
        gravity: gravity.to_array().map(f32::to_bits),
    })
}

/// After `begin_step`: this step has nothing but prediction, distances and velocities, on the
/// one-thread structure-of-arrays plan.
fn plain_step(b: &Body, p: &StepParams) -> bool {
    b.plan == Plan::Soa
        && b.candidates.is_empty()
        && b.self_pairs.is_empty()
        && b.self_tris.is_empty()
        && b.accel.is_empty()
        && !b.soa.home
        && stages::GROUPS.iter().skip(1).all(|g| !g.active(b, p))
}

/// Whether the body in `slot` takes a fixed step of its own: not one of the world's pairs
/// (`paired`, sorted: they step as a group), neither frozen nor asleep.
pub(crate) fn steps_alone(body: &Body, slot: usize, paired: &[usize]) -> bool {
    paired.binary_search(&slot).is_err() && !body.frozen && !body.is_asleep() && !body.in_company
}

/// One fixed step of the lone bodies in `slots` (slot numbers from `first`; those in
/// `paired`, sorted, are the world's pairs', and frozen and sleeping bodies do not step): the
/// bodies that share the first such body's [`key`] as one group, each of the others alone (in
/// parallel unless `sequential`).
#[allow(clippy::too_many_arguments)]
pub(crate) fn step_slots(
    first: usize,
    slots: &mut [Option<(u32, Body)>],
    scratch: &mut LaneScratch,
    paired: &[usize],
    params: &(impl Fn(&Body) -> StepParams + Sync),
    ctx: &StepContext,
    sequential: bool,
) {
    debug_assert!(slots.len() <= LANES);
    let mut group: [Option<&mut Body>; LANES] = Default::default();
    let mut alone: [Option<&mut Body>; LANES] = Default::default();
    let (mut n, mut group_key) = (0, None);
    for (j, entry) in slots.iter_mut().enumerate() {
        let Some((_, body)) = entry else { continue };
        if !steps_alone(body, first + j, paired) {
            continue;
        }
        let k = key(body, &params(body));
        if k.is_some() && (group_key.is_none() || group_key == k) {
            group_key = k;
            group[n] = Some(body);
            n += 1;
        } else {
            alone[j] = Some(body);
        }
    }
    if n == 1 {
        // One body is no group: it steps alone (its own slot in `alone` is free).
        let free = alone.iter().position(Option::is_none).expect("its slot");
        alone[free] = group[0].take();
        n = 0;
    }
    let step_alone = |b: &mut Option<&mut Body>| {
        if let Some(b) = b {
            stages::step(&mut **b, params, ctx);
        }
    };
    let mut step_group = || {
        if n > 0 {
            step(&mut group[..n], params, ctx, scratch);
        }
    };
    if sequential {
        step_group();
        alone.iter_mut().for_each(step_alone);
    } else {
        rayon::join(step_group, || alone.par_iter_mut().for_each(step_alone));
    }
}

/// One fixed step of `bodies` (each with the same [`key`]), its time shared among them by
/// particle count ([`Body::step_time_ns`]).
fn step(bodies: &mut [Option<&mut Body>], params: impl Fn(&Body) -> StepParams, ctx: &StepContext, scratch: &mut LaneScratch) {
    let start = std::time::Instant::now();
    step_members(bodies, params, ctx, scratch);
    let elapsed = start.elapsed();
    let total: usize = bodies.iter().flatten().map(|b| b.particle_count()).sum();
    for b in bodies.iter_mut().flatten() {
        b.charge_time(elapsed, total);
    }
}

/// The step of [`step`]: begun one by one, then those whose step is plain side by side in
/// lanes, the others alone; ended one by one.
fn step_members(bodies: &mut [Option<&mut Body>], params: impl Fn(&Body) -> StepParams, ctx: &StepContext, scratch: &mut LaneScratch) {
    let mut in_lanes = [false; LANES];
    for (i, b) in bodies.iter_mut().enumerate() {
        let b = b.as_deref_mut().expect("a member");
        let p = params(b);
        b.begin_step(&p, ctx, false, None);
        in_lanes[i] = plain_step(b, &p);
    }
    if in_lanes.iter().filter(|&&l| l).count() < 2 {
        in_lanes = [false; LANES];
    }
    let mut lanes: [Option<&mut Body>; LANES] = Default::default();
    let mut n = 0;
    for (i, b) in bodies.iter_mut().enumerate() {
        let b = b.as_deref_mut().expect("a member");
        if in_lanes[i] {
            lanes[n] = Some(b);
            n += 1;
        } else {
            stages::step_after_begin(b, &params, ctx);
        }
    }
    if n == 0 {
        return;
    }
    let lanes = &mut lanes[..n];
    let p = params(lanes[0].as_deref().expect("a lane"));
    for b in lanes.iter_mut().flatten() {
        b.lane_step = true;
    }
    // The one stage driver runs the substeps; the group runs each stage for every lane at once.
    let mut group = LaneGroup::new(lanes, p, scratch);
    stages::step_after_begin(&mut group, |_| p, ctx);
}

/// Up to eight bodies of one [`key`] with plain steps, stepped by the one stage driver
/// (`stages::step_after_begin`) with the group as the executor of every stage: gathered into
/// the lanes before the first substep, predicted, projected and given their velocities lane
/// by lane in each, scattered back after the last.
struct LaneGroup<'a, 'b> {
    lanes: &'a mut [Option<&'b mut Body>],
    p: StepParams,
    s: &'a mut LaneScratch,
    topology: std::sync::Arc<Topology>,
    np: usize,
    gravity: Vec3,
    damping: f32,
    alpha_tilde: [f32; crate::solver::constraints::distance::KIND_COUNT],
    scale: [f32; LANES],
}

impl<'a, 'b> LaneGroup<'a, 'b> {
    fn new(lanes: &'a mut [Option<&'b mut Body>], p: StepParams, s: &'a mut LaneScratch) -> LaneGroup<'a, 'b> {
        let first = lanes[0].as_deref().expect("a lane");
        let topology = first.topology.clone();
        let np = topology.particle_count;
        let gravity = p.gravity * first.material.gravity_scale;
        let damping = first.material.damping;
        let alpha_tilde = first.compliances().map(|c| xpbd::scaled_compliance(c, p.h));
        LaneGroup { lanes, p, s, topology, np, gravity, damping, alpha_tilde, scale: [0.0; LANES] }
    }
}

impl stages::StepGroup for LaneGroup<'_, '_> {
    fn len(&self) -> usize {
        self.lanes.len()
    }

    fn body(&mut self, i: usize) -> &mut Body {
        self.lanes[i].as_deref_mut().expect("a lane")
    }

    /// Gather: every lane's state into the group's arrays.
    fn before_substeps(&mut self) {
        let (np, s) = (self.np, &mut *self.s);
        s.resize(np, self.topology.constraints.len());
        let first = self.lanes[0].as_deref().expect("a lane");
        // Unused lanes carry lane 0's values: they compute what it computes and are never read.
        let mut from: [&Body; LANES] = [first; LANES];
        for (lane, b) in self.lanes.iter().enumerate() {
            from[lane] = b.as_deref().expect("a lane");
        }
        for lane in 0..LANES {
            self.scale[lane] = from[lane].scale;
            assert!(from[lane].x.len() == np && from[lane].x_prev.len() == np && from[lane].v.len() == np && from[lane].w.len() == np);
        }
        let n = np * LANES;
        // (Not the start positions: every substep's prediction begins by setting them to
        // the positions.)
        let [x0, x1, x2] = &mut s.x;
        let [v0, v1, v2] = &mut s.v;
        let out = [&mut x0[..n], &mut x1[..n], &mut x2[..n], &mut v0[..n], &mut v1[..n], &mut v2[..n], &mut s.w[..n]];
        let out = out.map(|a| a.as_mut_ptr());
        for (lane, b) in from.iter().enumerate() {
            let (x, v, w) = (&b.x[..np], &b.v[..np], &b.w[..np]);
            for i in 0..np {
                let j = i * LANES + lane;
                let values = [x[i].x, x[i].y, x[i].z, v[i].x, v[i].y, v[i].z, w[i]];
                for (o, value) in out.iter().zip(values) {
                    // SAFETY: `j < 8 · np = n`, the length of every array of `out`.
                    unsafe { *o.add(j) = value };
                }
            }
        }
    }

    fn run_stage(&mut self, stage: Stage, sub: u32) -> bool {
        let s = &mut *self.s;
        match stage {
            Stage::Predict => {
                let t = self.p.pin_time(sub);
                {
                    let [x0, x1, x2] = &mut s.x;
                    let [p0, p1, p2] = &mut s.prev;
                    let [v0, v1, v2] = &mut s.v;
                    let mut band = Band { x: [x0, x1, x2].map(|a| &mut a[..]), w: &s.w, prev: [p0, p1, p2].map(|a| &mut a[..]), v: [v0, v1, v2].map(|a| &mut a[..]), first: 0 };
                    band.integrate(self.gravity, &[], self.damping, self.p.h);
                }
                for (lane, b) in self.lanes.iter().enumerate() {
                    let b = b.as_deref().expect("a lane");
                    let pins = &b.pins;
                    for q in 0..pins.index.len() {
                        let i = pins.index[q] as usize * LANES + lane;
                        let at = if t >= 1.0 { pins.end[q] } else { pins.start[q] + (pins.end[q] - pins.start[q]) * t };
                        (s.x[0][i], s.x[1][i], s.x[2][i]) = (at.x, at.y, at.z);
                    }
                }
            }
            Stage::Constraints => project(s, &self.topology.constraints, self.p.iterations, &self.alpha_tilde, &self.scale),
            // A plain step has no contacts (`plain_step`).
            Stage::PairContacts | Stage::SelfContacts | Stage::Colliders => {}
            Stage::Velocities => {
                let [x0, x1, x2] = &mut s.x;
                let [p0, p1, p2] = &mut s.prev;
                let [v0, v1, v2] = &mut s.v;
                Band { x: [x0, x1, x2].map(|a| &mut a[..]), w: &s.w, prev: [p0, p1, p2].map(|a| &mut a[..]), v: [v0, v1, v2].map(|a| &mut a[..]), first: 0 }.update_velocity(self.p.h);
            }
        }
        true
    }

    /// Scatter: the group's arrays back into every lane's state.
    fn after_substeps(&mut self) {
        let (np, s) = (self.np, &*self.s);
        let n = np * LANES;
        let [x0, x1, x2] = &s.x;
        let [p0, p1, p2] = &s.prev;
        let [v0, v1, v2] = &s.v;
        let from = [&x0[..n], &x1[..n], &x2[..n], &p0[..n], &p1[..n], &p2[..n], &v0[..n], &v1[..n], &v2[..n]].map(|a| a.as_ptr());
        for (lane, b) in self.lanes.iter_mut().enumerate() {
            let b = b.as_deref_mut().expect("a lane");
            b.soa.size_for(np);
            let (x, prev, v) = (&mut b.x[..np], &mut b.x_prev[..np], &mut b.v[..np]);
            for i in 0..np {
                // SAFETY: `i · 8 + lane < 8 · np = n`, the length of every array of `from`.
                let at = |a: usize| unsafe { *from[a].add(i * LANES + lane) };
                x[i] = Vec3::new(at(0), at(1), at(2));
                prev[i] = Vec3::new(at(3), at(4), at(5));
                v[i] = Vec3::new(at(6), at(7), at(8));
            }
        }
    }
}

/// `iterations` passes over every batch, multipliers starting from zero.
fn project(s: &mut LaneScratch, k: &DistanceConstraints, iterations: u32, alpha_tilde: &[f32; crate::solver::constraints::distance::KIND_COUNT], scale: &[f32; LANES]) {
    #[cfg(target_arch = "x86_64")]
    for it in 0..iterations {
        for batch in &k.batches {
            let range = batch.start as usize..batch.end as usize;
            if range.is_empty() {
                continue;
            }
            // A grid batch holds one constraint class: one compliance for the whole batch.
            let at = alpha_tilde[k.kind[range.start] as usize];
            // SAFETY: `key` admitted only grids the grid kernel takes (AVX present); the
            // arrays hold `8 ·` every particle and constraint of `k`.
            unsafe { kernel::batch(s, k, range, at, scale, it == 0) };
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (s, k, iterations, alpha_tilde, scale);
}

#[cfg(target_arch = "x86_64")]
mod kernel {
    use super::{LANES, LaneScratch};
    use crate::math::{LENGTH_EPSILON, WEIGHT_EPSILON};
    use crate::solver::constraints::distance::DistanceConstraints;
    use crate::solver::constraints::grid_simd::GridIsa;
    use std::arch::x86_64::*;

    /// Constraints `range` of one batch, each for the eight lanes: the grid kernel's
    /// projection (`grid_simd`), operation for operation; compiled for AVX-512VL too (still
    /// eight lanes, the same bits), whose 32 registers hold it without spills.
    ///
    /// # Safety
    /// AVX (and AVX-512VL if `GridIsa::best` says so) is present; `k`'s constraints index
    /// particles of the arrays (`8 ·` particles long), `lambda` holds `8 ·` constraints.
    pub(super) unsafe fn batch(s: &mut LaneScratch, k: &DistanceConstraints, range: std::ops::Range<usize>, at: f32, scale: &[f32; LANES], fresh: bool) {
        assert!(range.end <= k.len() && s.lambda.len() >= k.len() * LANES);
        let [x, y, z] = &mut s.x;
        let p = Ptrs { x: x.as_mut_ptr(), y: y.as_mut_ptr(), z: z.as_mut_ptr(), w: s.w.as_ptr(), lambda: s.lambda.as_mut_ptr() };
        let avx512 = GridIsa::best() == GridIsa::Avx512;
        // SAFETY: the caller's guarantees.
        unsafe {
            match (avx512, at != 0.0) {
                (false, false) => batch_avx::<false>(p, k, range, at, scale, fresh),
                (false, true) => batch_avx::<true>(p, k, range, at, scale, fresh),
                (true, false) => batch_avx512::<false>(p, k, range, at, scale, fresh),
                (true, true) => batch_avx512::<true>(p, k, range, at, scale, fresh),
            }
        }
    }

    #[derive(Clone, Copy)]
    struct Ptrs {
        x: *mut f32,
        y: *mut f32,
        z: *mut f32,
        w: *const f32,
        lambda: *mut f32,
    }

    #[target_feature(enable = "avx")]
    unsafe fn batch_avx<const C: bool>(p: Ptrs, k: &DistanceConstraints, range: std::ops::Range<usize>, at: f32, scale: &[f32; LANES], fresh: bool) {
        unsafe { batch_of::<C>(p, k, range, at, scale, fresh) }
    }

    #[target_feature(enable = "avx,avx512f,avx512vl")]
    unsafe fn batch_avx512<const C: bool>(p: Ptrs, k: &DistanceConstraints, range: std::ops::Range<usize>, at: f32, scale: &[f32; LANES], fresh: bool) {
        unsafe { batch_of::<C>(p, k, range, at, scale, fresh) }
    }

    /// `C`: the batch is compliant (`at` ≠ 0), its multipliers matter.
    #[inline(always)]
    unsafe fn batch_of<const C: bool>(p: Ptrs, k: &DistanceConstraints, range: std::ops::Range<usize>, at: f32, scale: &[f32; LANES], fresh: bool) {
        unsafe {
            let scale = _mm256_loadu_ps(scale.as_ptr());
            let at_v = _mm256_set1_ps(at);
            let zero = _mm256_setzero_ps();
            let (eps_len, eps_w) = (_mm256_set1_ps(LENGTH_EPSILON), _mm256_set1_ps(WEIGHT_EPSILON));
            let (ka, kb, rest) = (k.a.as_ptr(), k.b.as_ptr(), k.rest.as_ptr());
            for i in range {
                // SAFETY: `i` is a constraint of `k` (asserted by the caller's range check).
                let (a, b) = (*ka.add(i) as usize * LANES, *kb.add(i) as usize * LANES);
                let (xa, ya, za, wa) = (_mm256_loadu_ps(p.x.add(a)), _mm256_loadu_ps(p.y.add(a)), _mm256_loadu_ps(p.z.add(a)), _mm256_loadu_ps(p.w.add(a)));
                let (xb, yb, zb, wb) = (_mm256_loadu_ps(p.x.add(b)), _mm256_loadu_ps(p.y.add(b)), _mm256_loadu_ps(p.z.add(b)), _mm256_loadu_ps(p.w.add(b)));
                let (dx, dy, dz) = (_mm256_sub_ps(xb, xa), _mm256_sub_ps(yb, ya), _mm256_sub_ps(zb, za));
                let len = _mm256_sqrt_ps(_mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(dx, dx), _mm256_mul_ps(dy, dy)), _mm256_mul_ps(dz, dz)));
                let valid = _mm256_cmp_ps::<_CMP_GE_OQ>(len, eps_len);
                let cval = _mm256_sub_ps(len, _mm256_mul_ps(_mm256_set1_ps(*rest.add(i)), scale));
                let lam = if C && !fresh { _mm256_loadu_ps(p.lambda.add(i * LANES)) } else { zero };
                // Rigid (`at` = 0): `(wa + wb) + 0` and `(0 − c) − 0·0` are exactly `wa + wb`
                // (never −0: weights are ≥ 0) and `0 − c`, so they are left out.
                let denom = if C { _mm256_add_ps(_mm256_add_ps(wa, wb), at_v) } else { _mm256_add_ps(wa, wb) };
                let num = if C { _mm256_sub_ps(_mm256_sub_ps(zero, cval), _mm256_mul_ps(at_v, lam)) } else { _mm256_sub_ps(zero, cval) };
                let ok = _mm256_and_ps(valid, _mm256_cmp_ps::<_CMP_GT_OQ>(denom, eps_w));
                let q = _mm256_and_ps(_mm256_div_ps(num, _mm256_mul_ps(denom, len)), ok);
                if C {
                    let new_lam = _mm256_blendv_ps(lam, _mm256_add_ps(lam, _mm256_mul_ps(q, len)), valid);
                    _mm256_storeu_ps(p.lambda.add(i * LANES), new_lam);
                }
                let (sa, sb) = (_mm256_mul_ps(wa, q), _mm256_mul_ps(wb, q));
                let mut new = [
                    _mm256_sub_ps(xa, _mm256_mul_ps(dx, sa)),
                    _mm256_sub_ps(ya, _mm256_mul_ps(dy, sa)),
                    _mm256_sub_ps(za, _mm256_mul_ps(dz, sa)),
                    _mm256_add_ps(xb, _mm256_mul_ps(dx, sb)),
                    _mm256_add_ps(yb, _mm256_mul_ps(dy, sb)),
                    _mm256_add_ps(zb, _mm256_mul_ps(dz, sb)),
                ];
                if _mm256_movemask_ps(valid) != 0xFF {
                    // Lanes the scalar kernel would skip keep their exact bits.
                    let old = [xa, ya, za, xb, yb, zb];
                    for c in 0..6 {
                        new[c] = _mm256_blendv_ps(old[c], new[c], valid);
                    }
                }
                _mm256_storeu_ps(p.x.add(a), new[0]);
                _mm256_storeu_ps(p.y.add(a), new[1]);
                _mm256_storeu_ps(p.z.add(a), new[2]);
                _mm256_storeu_ps(p.x.add(b), new[3]);
                _mm256_storeu_ps(p.y.add(b), new[4]);
                _mm256_storeu_ps(p.z.add(b), new[5]);
            }
        }
    }
}
