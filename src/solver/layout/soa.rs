//! A body's particle state as structure of arrays, for the whole substep.
//!
//! The grid kernel works on positions as four arrays (`x`, `y`, `z`, `w`). Converting the
//! body's `Vec3` arrays to that layout and back around every constraint pass costs as much
//! as a few constraint iterations, so a grid body keeps its whole state — positions, the
//! substep's start positions and velocities — in this layout from the start of a fixed step
//! to its end, and the substep's other passes (prediction, pins, velocities, sphere
//! contact) run on it too. A pass that has no such version asks for the `Vec3` arrays; the
//! state moves there — all of it: a `Vec3` pass's substep ends with `Vec3` velocities — and
//! back only then ([`SoaState::home`]).
//!
//! Every pass here does exactly the operations of its `Vec3` counterpart, component by
//! component in the same order, so both layouts give the same bits.

use crate::math::Vec3;

/// Positions, start-of-substep positions and velocities as structure of arrays.
#[derive(Clone, Debug, Default)]
pub struct SoaState {
    /// Positions and inverse masses (padded for the grid kernel).
    pub x: Soa,
    /// Positions at the start of the substep, per component.
    pub prev: [Vec<f32>; 3],
    /// Velocities, per component.
    pub v: [Vec<f32>; 3],
    /// This layout holds the current state (the body's `Vec3` arrays are stale).
    pub home: bool,
    /// The body's local frame when it is far from the origin (whatever the layout).
    pub frame: super::frame::LocalFrame,
}

fn split(a: &[Vec3], out: &mut [Vec<f32>; 3]) {
    let [x, y, z] = out;
    for v in [&mut *x, &mut *y, &mut *z] {
        v.resize(a.len(), 0.0);
    }
    to_components(a, x, y, z);
}

fn join(a: &[Vec<f32>; 3], out: &mut [Vec3]) {
    from_components(&a[0], &a[1], &a[2], out);
}

/// `a` as three arrays of components (each at least as long as `a`).
pub fn to_components(a: &[Vec3], x: &mut [f32], y: &mut [f32], z: &mut [f32]) {
    let n = a.len();
    assert!(x.len() >= n && y.len() >= n && z.len() >= n);
    let mut i = 0;
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: AVX2 is present; the lengths are checked above.
        i = unsafe { lanes::to_components(a, x, y, z) };
    }
    for i in i..n {
        (x[i], y[i], z[i]) = (a[i].x, a[i].y, a[i].z);
    }
}

/// Three arrays of components (each at least as long as `a`) back into `a`.
pub fn from_components(x: &[f32], y: &[f32], z: &[f32], a: &mut [Vec3]) {
    let n = a.len();
    assert!(x.len() >= n && y.len() >= n && z.len() >= n);
    let mut i = 0;
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: AVX2 is present; the lengths are checked above.
        i = unsafe { lanes::from_components(x, y, z, a) };
    }
    for i in i..n {
        a[i] = Vec3::new(x[i], y[i], z[i]);
    }
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
        let n = x.len();
        self.resize(n);
        to_components(x, &mut self.x, &mut self.y, &mut self.z);
        self.w[..n].copy_from_slice(&w[..n]);
    }

    /// Sizes the arrays for `n` particles, leaving the particles' values to be written in
    /// place. Padding (zeroed): a group at the end of the last row may read (and write back
    /// unchanged) slots past the last particle.
    pub fn resize(&mut self, n: usize) {
        for v in [&mut self.x, &mut self.y, &mut self.z, &mut self.w] {
            v.resize(n + PAD, 0.0);
            v[n..].fill(0.0);
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
        from_components(&self.x, &self.y, &self.z, x);
    }
}


impl SoaState {
    /// Takes the state (positions, inverse masses, start positions, velocities) into this
    /// layout, unless already here.
    pub fn take(&mut self, x: &[Vec3], w: &[f32], x_prev: &[Vec3], v: &[Vec3]) {
        if !self.home {
            self.x.load(x, w);
            split(x_prev, &mut self.prev);
            split(v, &mut self.v);
            self.home = true;
        }
    }

    /// Gives the state back to the `Vec3` arrays, if it is here.
    pub fn give(&mut self, x: &mut [Vec3], x_prev: &mut [Vec3], v: &mut [Vec3]) {
        if self.home {
            self.x.store(x);
            join(&self.prev, x_prev);
            join(&self.v, v);
            self.home = false;
        }
    }

    /// The whole state as one band.
    pub fn all(&mut self) -> Band<'_> {
        debug_assert!(self.home);
        let n = self.x.len();
        // SAFETY: `&mut self` is exclusive; `0..n` is in bounds.
        unsafe { self.ptr().band(0..n) }
    }

    /// Sizes the arrays for `n` particles and marks the state as here, its values to be
    /// written band by band ([`SoaStatePtr::take`]) before anything reads them.
    pub fn prepare(&mut self, n: usize) {
        self.x.resize(n);
        for v in self.prev.iter_mut().chain(self.v.iter_mut()) {
            v.resize(n, 0.0);
        }
        self.home = true;
    }

    /// Sizes the arrays for `n` particles without taking the state: a body stepped in lanes
    /// (`particles::lanes`) keeps them ready for a step of its own, which then allocates nothing.
    pub fn size_for(&mut self, n: usize) {
        self.x.resize(n);
        for v in self.prev.iter_mut().chain(self.v.iter_mut()) {
            v.resize(n, 0.0);
        }
    }

    /// Raw view, for passes shared between threads (see [`SoaStatePtr::band`]).
    pub fn ptr(&mut self) -> SoaStatePtr {
        let [px, py, pz] = &mut self.prev;
        let [vx, vy, vz] = &mut self.v;
        SoaStatePtr {
            x: [self.x.x.as_mut_ptr(), self.x.y.as_mut_ptr(), self.x.z.as_mut_ptr()],
            w: self.x.w.as_mut_ptr(),
            prev: [px.as_mut_ptr(), py.as_mut_ptr(), pz.as_mut_ptr()],
            v: [vx.as_mut_ptr(), vy.as_mut_ptr(), vz.as_mut_ptr()],
            n: self.x.len().min(px.len()),
        }
    }

    /// Bytes held.
    pub fn bytes(&self) -> usize {
        let f = |v: &Vec<f32>| v.capacity() * 4;
        [&self.x.x, &self.x.y, &self.x.z, &self.x.w].into_iter().map(f).sum::<usize>() + self.prev.iter().chain(&self.v).map(f).sum::<usize>() + self.frame.bytes()
    }
}

/// A [`SoaState`]'s arrays as raw pointers, shared by the threads of one body's step.
#[derive(Clone, Copy, Debug)]
pub struct SoaStatePtr {
    x: [*mut f32; 3],
    w: *mut f32,
    prev: [*mut f32; 3],
    v: [*mut f32; 3],
    n: usize,
}

// SAFETY: dereferenced only through `band`, whose callers keep concurrent bands disjoint.
unsafe impl Send for SoaStatePtr {}
unsafe impl Sync for SoaStatePtr {}

impl SoaStatePtr {
    /// Takes particles `range` of `state` into this layout ([`SoaState::take`] for one band).
    ///
    /// # Safety
    /// As [`band`](Self::band), and `state` holds at least `range.end` particles.
    pub unsafe fn take(&self, range: std::ops::Range<usize>, state: &Vec3State) {
        assert!(range.start <= range.end && range.end <= self.n);
        // SAFETY: in bounds (above); this band's own inverse masses, written before any
        // slice of them exists.
        unsafe { std::ptr::copy_nonoverlapping(state.w.add(range.start), self.w.add(range.start), range.len()) };
        // SAFETY: the caller's promise.
        let mut b = unsafe { self.band(range.clone()) };
        // SAFETY: the caller's promise; `range` is checked by `band`.
        let (x, prev, v) = unsafe { (state.x.get(range.clone()), state.prev.get(range.clone()), state.v.get(range.clone())) };
        let [bx, by, bz] = &mut b.x;
        to_components(x, bx, by, bz);
        let [px, py, pz] = &mut b.prev;
        to_components(prev, px, py, pz);
        let [vx, vy, vz] = &mut b.v;
        to_components(v, vx, vy, vz);
    }

    /// Gives particles `range` back to `state` (positions, start positions, velocities).
    ///
    /// # Safety
    /// As [`take`](Self::take).
    pub unsafe fn give(&self, range: std::ops::Range<usize>, state: &Vec3State) {
        // SAFETY: the caller's promise.
        let b = unsafe { self.band(range.clone()) };
        // SAFETY: the caller's promise.
        let (x, prev, v) = unsafe { (state.x.get_mut(range.clone()), state.prev.get_mut(range.clone()), state.v.get_mut(range)) };
        from_components(b.x[0], b.x[1], b.x[2], x);
        from_components(b.prev[0], b.prev[1], b.prev[2], prev);
        from_components(b.v[0], b.v[1], b.v[2], v);
    }

    /// Particles `range` as slices.
    ///
    /// # Safety
    /// The state must outlive the band, and while it lives nothing else may touch these
    /// particles' positions, start positions or velocities (inverse masses are only read).
    pub unsafe fn band<'a>(self, range: std::ops::Range<usize>) -> Band<'a> {
        assert!(range.start <= range.end && range.end <= self.n);
        let len = range.len();
        // SAFETY: in bounds (above); exclusivity is the caller's promise.
        unsafe {
            let part = |p: *mut f32| std::slice::from_raw_parts_mut(p.add(range.start), len);
            Band {
                x: self.x.map(part),
                w: std::slice::from_raw_parts(self.w.add(range.start), len),
                prev: self.prev.map(part),
                v: self.v.map(part),
                first: range.start,
            }
        }
    }
}

/// A body's `Vec3` state (positions, start positions, velocities, inverse masses) as raw
/// pointers, for [`SoaStatePtr::take`] and [`SoaStatePtr::give`] by bands.
#[derive(Clone, Copy, Debug)]
pub struct Vec3State {
    pub x: Vec3Ptr,
    pub prev: Vec3Ptr,
    pub v: Vec3Ptr,
    pub w: *const f32,
}

// SAFETY: used only through `take` and `give`, on disjoint bands.
unsafe impl Send for Vec3State {}
unsafe impl Sync for Vec3State {}

/// A `Vec3` array as a raw pointer and length.
#[derive(Clone, Copy, Debug)]
pub struct Vec3Ptr(*mut Vec3, usize);

impl Vec3Ptr {
    pub fn new(v: &mut [Vec3]) -> Vec3Ptr {
        Vec3Ptr(v.as_mut_ptr(), v.len())
    }

    /// # Safety
    /// The array outlives the slice and nothing writes `range` meanwhile.
    unsafe fn get<'a>(self, range: std::ops::Range<usize>) -> &'a [Vec3] {
        assert!(range.start <= range.end && range.end <= self.1);
        // SAFETY: in bounds; the caller's promise.
        unsafe { std::slice::from_raw_parts(self.0.add(range.start), range.len()) }
    }

    /// # Safety
    /// The array outlives the slice and nothing else touches `range` meanwhile.
    #[allow(clippy::mut_from_ref)]
    unsafe fn get_mut<'a>(self, range: std::ops::Range<usize>) -> &'a mut [Vec3] {
        assert!(range.start <= range.end && range.end <= self.1);
        // SAFETY: in bounds; the caller's promise.
        unsafe { std::slice::from_raw_parts_mut(self.0.add(range.start), range.len()) }
    }
}

/// Consecutive particles of a [`SoaState`], from particle `first`.
pub struct Band<'a> {
    pub x: [&'a mut [f32]; 3],
    pub w: &'a [f32],
    pub prev: [&'a mut [f32]; 3],
    pub v: [&'a mut [f32]; 3],
    pub first: usize,
}

impl Band<'_> {
    /// [`integrate::integrate`](super::integrate::integrate) on this layout; `accel` is the
    /// whole body's (or empty).
    pub fn integrate(&mut self, gravity: Vec3, accel: &[Vec3], damping: f32, h: f32) {
        let d = (1.0 - damping * h).max(0.0);
        let dv = gravity * h;
        let accel = if accel.is_empty() { accel } else { &accel[self.first..self.first + self.w.len()] };
        for c in 0..3 {
            let (x, prev, v, w) = (&mut *self.x[c], &mut *self.prev[c], &mut *self.v[c], self.w);
            let dvc = dv[c];
            #[cfg(target_arch = "x86_64")]
            if accel.is_empty() && std::arch::is_x86_feature_detected!("avx") {
                // SAFETY: AVX is present.
                unsafe { lanes::integrate(x, prev, v, w, dvc, d, h) };
                continue;
            }
            prev.copy_from_slice(x);
            if accel.is_empty() {
                for i in 0..x.len() {
                    let vi = v[i] * d + dvc;
                    if w[i] > 0.0 {
                        v[i] = vi;
                        x[i] += vi * h;
                    }
                }
            } else {
                for i in 0..x.len() {
                    let vi = v[i] * d + (dvc + accel[i][c] * h);
                    if w[i] > 0.0 {
                        v[i] = vi;
                        x[i] += vi * h;
                    }
                }
            }
        }
    }

    /// [`integrate::drive_pins`](super::integrate::drive_pins) for the pins in this band.
    pub fn drive_pins(&mut self, index: &[u32], from: &[Vec3], to: &[Vec3], t: f32) {
        let end = self.first + self.w.len();
        for k in 0..index.len() {
            let i = index[k] as usize;
            if (self.first..end).contains(&i) {
                let p = if t >= 1.0 { to[k] } else { from[k] + (to[k] - from[k]) * t };
                let i = i - self.first;
                (self.x[0][i], self.x[1][i], self.x[2][i]) = (p.x, p.y, p.z);
            }
        }
    }

    /// [`collision::collide`](crate::solver::contact::shape::collide) for a collider
    /// [`collide_soa_supported`](crate::solver::contact::shape::collide_soa_supported) takes.
    pub fn collide(&mut self, shape: &crate::geometry::Shape, p0: &crate::geometry::Pose, p1: &crate::geometry::Pose, c: &crate::solver::contact::shape::ContactParams) {
        let [x, y, z] = &mut self.x;
        let [px, py, pz] = &self.prev;
        crate::solver::contact::shape::collide_soa([x, y, z], [px, py, pz], self.w, 0..self.w.len(), shape, p0, p1, c);
    }

    /// [`velocity::update`](super::velocity::update) on this layout.
    pub fn update_velocity(&mut self, h: f32) {
        let inv_h = 1.0 / h;
        for c in 0..3 {
            let (x, prev, v, w) = (&*self.x[c], &*self.prev[c], &mut *self.v[c], self.w);
            #[cfg(target_arch = "x86_64")]
            if std::arch::is_x86_feature_detected!("avx") {
                // SAFETY: AVX is present.
                unsafe { lanes::update_velocity(x, prev, v, w, inv_h, h) };
                continue;
            }
            for i in 0..x.len() {
                v[i] = if w[i] > 0.0 {
                    let predicted = prev[i] + v[i] * h;
                    v[i] + (x[i] - predicted) * inv_h
                } else {
                    (x[i] - prev[i]) * inv_h
                };
            }
        }
    }

    /// [`velocity::limit`](super::velocity::limit) on this layout.
    pub fn limit_velocity(&mut self, base: Vec3, max: f32) {
        let max2 = max * max;
        let [vx, vy, vz] = &mut self.v;
        for i in 0..vx.len() {
            if self.w[i] == 0.0 {
                continue;
            }
            let rel = Vec3::new(vx[i], vy[i], vz[i]) - base;
            let s2 = rel.length_squared();
            if s2 > max2 {
                let v = base + rel * (max / s2.sqrt());
                (vx[i], vy[i], vz[i]) = (v.x, v.y, v.z);
            }
        }
    }
}

/// The per-component loops eight particles at a time (the compiler does not vectorise the
/// selects of pinned particles on its own); the same operations as the scalar loops.
#[cfg(target_arch = "x86_64")]
mod lanes {
    use std::arch::x86_64::*;

    /// One component of `integrate` without external accelerations (`prev` ← `x` too).
    #[target_feature(enable = "avx")]
    pub unsafe fn integrate(x: &mut [f32], prev: &mut [f32], v: &mut [f32], w: &[f32], dv: f32, d: f32, h: f32) {
        let n = x.len().min(prev.len()).min(v.len()).min(w.len());
        let (dv8, d8, h8, zero) = (_mm256_set1_ps(dv), _mm256_set1_ps(d), _mm256_set1_ps(h), _mm256_setzero_ps());
        let mut i = 0;
        while i + 8 <= n {
            // SAFETY: i + 8 ≤ n, the length of every slice.
            unsafe {
                let (xp, vp) = (x.as_mut_ptr().add(i), v.as_mut_ptr().add(i));
                let (xv, vv, wv) = (_mm256_loadu_ps(xp), _mm256_loadu_ps(vp), _mm256_loadu_ps(w.as_ptr().add(i)));
                _mm256_storeu_ps(prev.as_mut_ptr().add(i), xv);
                let vi = _mm256_add_ps(_mm256_mul_ps(vv, d8), dv8);
                let free = _mm256_cmp_ps::<_CMP_GT_OQ>(wv, zero);
                _mm256_storeu_ps(vp, _mm256_blendv_ps(vv, vi, free));
                _mm256_storeu_ps(xp, _mm256_blendv_ps(xv, _mm256_add_ps(xv, _mm256_mul_ps(vi, h8)), free));
            }
            i += 8;
        }
        for i in i..n {
            prev[i] = x[i];
            let vi = v[i] * d + dv;
            if w[i] > 0.0 {
                v[i] = vi;
                x[i] += vi * h;
            }
        }
    }

    // Eight `Vec3`s are 24 floats in three registers; component `c` of particle `k` is float
    // `3k + c`. Two blends gather a component's eight values into one register, out of
    // order, and one permutation puts them in order (and the reverse for the way back).
    const X_FROM: [i32; 8] = [0, 3, 6, 1, 4, 7, 2, 5];
    const Y_FROM: [i32; 8] = [1, 4, 7, 2, 5, 0, 3, 6];
    const Z_FROM: [i32; 8] = [2, 5, 0, 3, 6, 1, 4, 7];
    const X_TO: [i32; 8] = [0, 3, 6, 1, 4, 7, 2, 5];
    const Y_TO: [i32; 8] = [5, 0, 3, 6, 1, 4, 7, 2];
    const Z_TO: [i32; 8] = [2, 5, 0, 3, 6, 1, 4, 7];

    /// Whole groups of 8 of [`to_components`](super::to_components); returns how far it got.
    #[target_feature(enable = "avx2")]
    pub unsafe fn to_components(a: &[glam::Vec3], x: &mut [f32], y: &mut [f32], z: &mut [f32]) -> usize {
        let idx = |t: [i32; 8]| unsafe { _mm256_loadu_si256(t.as_ptr().cast()) };
        let (ix, iy, iz) = (idx(X_FROM), idx(Y_FROM), idx(Z_FROM));
        let f = a.as_ptr().cast::<f32>();
        let mut i = 0;
        while i + 8 <= a.len() {
            // SAFETY: 8 `Vec3`s (`repr(C)`, 24 floats) from `i`; the caller checked the outputs.
            unsafe {
                let (a0, a1, a2) = (_mm256_loadu_ps(f.add(3 * i)), _mm256_loadu_ps(f.add(3 * i + 8)), _mm256_loadu_ps(f.add(3 * i + 16)));
                let cx = _mm256_blend_ps::<0x24>(_mm256_blend_ps::<0x92>(a0, a1), a2);
                let cy = _mm256_blend_ps::<0x49>(_mm256_blend_ps::<0x24>(a0, a1), a2);
                let cz = _mm256_blend_ps::<0x92>(_mm256_blend_ps::<0x49>(a0, a1), a2);
                _mm256_storeu_ps(x.as_mut_ptr().add(i), _mm256_permutevar8x32_ps(cx, ix));
                _mm256_storeu_ps(y.as_mut_ptr().add(i), _mm256_permutevar8x32_ps(cy, iy));
                _mm256_storeu_ps(z.as_mut_ptr().add(i), _mm256_permutevar8x32_ps(cz, iz));
            }
            i += 8;
        }
        i
    }

    /// Whole groups of 8 of [`from_components`](super::from_components).
    #[target_feature(enable = "avx2")]
    pub unsafe fn from_components(x: &[f32], y: &[f32], z: &[f32], a: &mut [glam::Vec3]) -> usize {
        let idx = |t: [i32; 8]| unsafe { _mm256_loadu_si256(t.as_ptr().cast()) };
        let (ix, iy, iz) = (idx(X_TO), idx(Y_TO), idx(Z_TO));
        let f = a.as_mut_ptr().cast::<f32>();
        let mut i = 0;
        while i + 8 <= a.len() {
            // SAFETY: as `to_components`.
            unsafe {
                let cx = _mm256_permutevar8x32_ps(_mm256_loadu_ps(x.as_ptr().add(i)), ix);
                let cy = _mm256_permutevar8x32_ps(_mm256_loadu_ps(y.as_ptr().add(i)), iy);
                let cz = _mm256_permutevar8x32_ps(_mm256_loadu_ps(z.as_ptr().add(i)), iz);
                _mm256_storeu_ps(f.add(3 * i), _mm256_blend_ps::<0x24>(_mm256_blend_ps::<0x92>(cx, cy), cz));
                _mm256_storeu_ps(f.add(3 * i + 8), _mm256_blend_ps::<0x49>(_mm256_blend_ps::<0x24>(cx, cy), cz));
                _mm256_storeu_ps(f.add(3 * i + 16), _mm256_blend_ps::<0x92>(_mm256_blend_ps::<0x49>(cx, cy), cz));
            }
            i += 8;
        }
        i
    }

    /// One component of `update_velocity`.
    #[target_feature(enable = "avx")]
    pub unsafe fn update_velocity(x: &[f32], prev: &[f32], v: &mut [f32], w: &[f32], inv_h: f32, h: f32) {
        let n = x.len().min(prev.len()).min(v.len()).min(w.len());
        let (k, h8, zero) = (_mm256_set1_ps(inv_h), _mm256_set1_ps(h), _mm256_setzero_ps());
        let mut i = 0;
        while i + 8 <= n {
            // SAFETY: i + 8 ≤ n, the length of every slice.
            unsafe {
                let (xv, pv, vv) = (_mm256_loadu_ps(x.as_ptr().add(i)), _mm256_loadu_ps(prev.as_ptr().add(i)), _mm256_loadu_ps(v.as_ptr().add(i)));
                let pinned = _mm256_mul_ps(_mm256_sub_ps(xv, pv), k);
                let predicted = _mm256_add_ps(pv, _mm256_mul_ps(vv, h8));
                let free = _mm256_add_ps(vv, _mm256_mul_ps(_mm256_sub_ps(xv, predicted), k));
                let is_free = _mm256_cmp_ps::<_CMP_GT_OQ>(_mm256_loadu_ps(w.as_ptr().add(i)), zero);
                _mm256_storeu_ps(v.as_mut_ptr().add(i), _mm256_blendv_ps(pinned, free, is_free));
            }
            i += 8;
        }
        for i in i..n {
            v[i] = if w[i] > 0.0 {
                let predicted = prev[i] + v[i] * h;
                v[i] + (x[i] - predicted) * inv_h
            } else {
                (x[i] - prev[i]) * inv_h
            };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::{integrate, velocity};

    /// Components out and back give the same vectors, for lengths around the groups of 8.
    #[test]
    fn components_round_trip() {
        for n in [0, 1, 7, 8, 9, 16, 23, 64, 67] {
            let a: Vec<Vec3> = (0..n).map(|i| Vec3::new(i as f32, -(i as f32) - 0.5, i as f32 * 3.0 + 0.25)).collect();
            let (mut x, mut y, mut z) = (vec![0.0; n], vec![0.0; n], vec![0.0; n]);
            to_components(&a, &mut x, &mut y, &mut z);
            for i in 0..n {
                assert_eq!((x[i], y[i], z[i]), (a[i].x, a[i].y, a[i].z), "n={n} i={i}");
            }
            let mut b = vec![Vec3::ZERO; n];
            from_components(&x, &y, &z, &mut b);
            assert_eq!(a, b, "n={n}");
        }
    }

    /// Each pass gives its `Vec3` counterpart's bits.
    #[test]
    fn passes_match_the_vec3_passes_bit_for_bit() {
        let n = 37;
        let x0: Vec<Vec3> = (0..n).map(|i| Vec3::new((i as f32 * 0.7).sin(), i as f32 * 0.01, (i as f32 * 0.3).cos())).collect();
        let v0: Vec<Vec3> = (0..n).map(|i| Vec3::new((i as f32 * 0.2).cos(), -(i as f32) * 0.1, 0.3)).collect();
        let w: Vec<f32> = (0..n).map(|i| if i % 5 == 0 { 0.0 } else { 1.0 }).collect();
        let accel: Vec<Vec3> = (0..n).map(|i| Vec3::new(0.5, i as f32 * 0.02, -0.1)).collect();
        for acc in [&[][..], &accel[..]] {
            let (mut x, mut xp, mut v) = (x0.clone(), x0.clone(), v0.clone());
            let mut s = SoaState::default();
            s.take(&x, &w, &xp, &v);
            let g = Vec3::new(0.0, -9.81, 0.0);
            integrate::integrate(&mut x, &mut xp, &mut v, &w, g, acc, 0.3, 1.0 / 480.0);
            s.all().integrate(g, acc, 0.3, 1.0 / 480.0);
            let (index, from, to) = ([0u32, 5], [Vec3::ONE, Vec3::X], [Vec3::Y, Vec3::Z]);
            integrate::drive_pins(&mut x, &index, &from, &to, 0.25);
            s.all().drive_pins(&index, &from, &to, 0.25);
            for p in x.iter_mut() {
                *p += Vec3::splat(0.001);
            }
            for i in 0..n {
                s.x.x[i] += 0.001;
                s.x.y[i] += 0.001;
                s.x.z[i] += 0.001;
            }
            velocity::update(&x, &xp, &mut v, &w, 1.0 / 480.0);
            s.all().update_velocity(1.0 / 480.0);
            velocity::limit(&mut v, &w, Vec3::X, 0.4);
            s.all().limit_velocity(Vec3::X, 0.4);
            let (mut x2, mut xp2, mut v2) = (vec![Vec3::ZERO; n], vec![Vec3::ZERO; n], vec![Vec3::ZERO; n]);
            s.give(&mut x2, &mut xp2, &mut v2);
            let bits = |a: &[Vec3]| a.iter().flat_map(|p| p.to_array().map(f32::to_bits)).collect::<Vec<_>>();
            assert_eq!(bits(&x2), bits(&x));
            assert_eq!(bits(&xp2), bits(&xp));
            assert_eq!(bits(&v2), bits(&v));
            assert!(!s.home);
        }
    }
}
