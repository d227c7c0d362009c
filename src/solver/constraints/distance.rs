//! Distance constraints: `C(xa, xb) = |xb − xa| − r`.
//!
//! `∇_a C = −n`, `∇_b C = n` with `n = (xb − xa)/|xb − xa|`, so `Σw|∇C|² = wa + wb` and the
//! position corrections are `Δxa = −wa·Δλ·n`, `Δxb = wb·Δλ·n` (XPBD eq. 17). Structural,
//! shear and bend (the particle two over, as in the chapter) are all of this one kind; they
//! differ only in rest length and in the compliance their `kind` selects.
//!
//! Layout: structure of arrays, `a`, `b` (u32, 4 B each), `rest` (f32, 4 B), `kind` (u8):
//! 13 B per constraint, plus 4 B of multiplier per instance. Constraints are sorted into
//! [`Batch`]es; inside an `independent` batch no two constraints share a particle, so its
//! constraints can run in SIMD lanes or on several threads in any order with the same result.

use crate::math::{LENGTH_EPSILON, Vec3};
use crate::solver::xpbd;

/// Compliance classes, indexing the per-body compliance table.
pub const KIND_STRETCH: u8 = 0;
pub const KIND_SHEAR: u8 = 1;
pub const KIND_BEND: u8 = 2;
pub const KIND_COUNT: usize = 3;

/// A run `[start, end)` of constraints solved together.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Batch {
    pub start: u32,
    pub end: u32,
    /// No two constraints of the batch share a particle (a graph colour). When false the
    /// batch is a chain solved in order (Gauss–Seidel along a rope, as in the chapter).
    pub independent: bool,
}

/// Cooked distance constraints, shared by every instance of one design.
#[derive(Clone, Debug, Default)]
pub struct DistanceConstraints {
    pub a: Vec<u32>,
    pub b: Vec<u32>,
    /// Rest length (m).
    pub rest: Vec<f32>,
    pub kind: Vec<u8>,
    pub batches: Vec<Batch>,
}

impl DistanceConstraints {
    pub fn len(&self) -> usize {
        self.a.len()
    }

    pub fn is_empty(&self) -> bool {
        self.a.is_empty()
    }

    pub fn push(&mut self, a: u32, b: u32, rest: f32, kind: u8) {
        self.a.push(a);
        self.b.push(b);
        self.rest.push(rest);
        self.kind.push(kind);
    }

    /// Closes the constraints pushed since the last batch into a new batch.
    pub fn close_batch(&mut self, independent: bool) {
        let start = self.batches.last().map_or(0, |b| b.end);
        let end = self.a.len() as u32;
        if end > start {
            self.batches.push(Batch { start, end, independent });
        }
    }

    /// Largest `|length / (rest·scale) − 1|` over all constraints with a nonzero rest length.
    pub fn max_stretch(&self, x: &[Vec3], scale: f32) -> f32 {
        let mut worst = 0.0f32;
        for i in 0..self.len() {
            let rest = self.rest[i] * scale;
            if rest > LENGTH_EPSILON {
                let len = (x[self.b[i] as usize] - x[self.a[i] as usize]).length();
                worst = worst.max((len / rest - 1.0).abs());
            }
        }
        worst
    }
}

/// Particle storage the scalar projection reads and writes: `Vec3` positions beside inverse
/// masses, packed `[x y z w]`, or structure of arrays. One projection serves them all, so every
/// layout computes the same bits.
pub trait Particles {
    /// Position and inverse mass of particle `i`.
    fn get(&self, i: usize) -> (Vec3, f32);
    fn set(&mut self, i: usize, x: Vec3);
}

/// `Vec3` positions with their inverse masses.
pub struct Split<'a> {
    pub x: &'a mut [Vec3],
    pub w: &'a [f32],
}

impl Particles for Split<'_> {
    #[inline(always)]
    fn get(&self, i: usize) -> (Vec3, f32) {
        (self.x[i], self.w[i])
    }
    #[inline(always)]
    fn set(&mut self, i: usize, x: Vec3) {
        self.x[i] = x;
    }
}

/// Projects constraints `range` once, in order, one at a time: the reference kernel.
/// `alpha_tilde[kind]` is `α/h²` per class; rest lengths are multiplied by `rest_scale` (a
/// character scaled at run time). `lambda` holds the multipliers of `range` only (its first
/// element is constraint `range.start`'s), so threads can each own a disjoint part.
pub fn project<P: Particles + ?Sized>(p: &mut P, c: &DistanceConstraints, range: std::ops::Range<usize>, lambda: &mut [f32], alpha_tilde: &[f32; KIND_COUNT], rest_scale: f32) {
    let lambda = &mut lambda[..range.len()];
    let first = range.start;
    for i in range {
        let (ia, ib) = (c.a[i] as usize, c.b[i] as usize);
        let ((xa, wa), (xb, wb)) = (p.get(ia), p.get(ib));
        let d = xb - xa;
        let len = d.length();
        if len < LENGTH_EPSILON {
            continue;
        }
        let at = alpha_tilde[c.kind[i] as usize];
        // q = Δλ/|d|, so that Δx = ∓w·Δλ·d/|d| costs one division (the SIMD kernels do the same).
        let q = xpbd::delta_lambda_over(len - c.rest[i] * rest_scale, wa + wb, at, lambda[i - first], len);
        // λ only matters where α̃ ≠ 0 (it enters as α̃·λ), so rigid constraints skip it.
        if at != 0.0 {
            lambda[i - first] += q * len;
        }
        p.set(ia, xa - d * (wa * q));
        p.set(ib, xb + d * (wb * q));
    }
}

/// [`project`] on `Vec3` positions and inverse masses.
pub fn solve(
    x: &mut [Vec3],
    w: &[f32],
    c: &DistanceConstraints,
    range: std::ops::Range<usize>,
    lambda: &mut [f32],
    alpha_tilde: &[f32; KIND_COUNT],
    rest_scale: f32,
) {
    project(&mut Split { x, w }, c, range.clone(), &mut lambda[range], alpha_tilde, rest_scale);
}

/// Greedy graph colouring: reorders `c`'s constraints into independent batches. Each
/// constraint takes the lowest colour that neither of its particles has used yet; past 64
/// colours (a pathological mesh) the rest go into one trailing sequential batch.
pub fn colour(c: &DistanceConstraints, particle_count: usize) -> DistanceConstraints {
    let n = c.len();
    let mut used = vec![0u64; particle_count];
    let mut colour_of = vec![u32::MAX; n];
    for (i, colour) in colour_of.iter_mut().enumerate() {
        let (a, b) = (c.a[i] as usize, c.b[i] as usize);
        let free = !(used[a] | used[b]);
        if free != 0 {
            let col = free.trailing_zeros();
            *colour = col;
            used[a] |= 1 << col;
            used[b] |= 1 << col;
        }
    }
    let mut out = DistanceConstraints::default();
    let colours = colour_of.iter().filter(|&&c| c != u32::MAX).max().map_or(0, |m| m + 1);
    for col in 0..colours {
        for i in (0..n).filter(|&i| colour_of[i] == col) {
            out.push(c.a[i], c.b[i], c.rest[i], c.kind[i]);
        }
        out.close_batch(true);
    }
    for i in (0..n).filter(|&i| colour_of[i] == u32::MAX) {
        out.push(c.a[i], c.b[i], c.rest[i], c.kind[i]);
    }
    out.close_batch(false);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colouring_gives_independent_batches() {
        let mut c = DistanceConstraints::default();
        for i in 0..9u32 {
            c.push(i, i + 1, 1.0, KIND_STRETCH);
        }
        let coloured = colour(&c, 10);
        assert_eq!(coloured.len(), 9);
        for batch in &coloured.batches {
            assert!(batch.independent);
            let mut seen = std::collections::HashSet::new();
            for i in batch.start as usize..batch.end as usize {
                assert!(seen.insert(coloured.a[i]));
                assert!(seen.insert(coloured.b[i]));
            }
        }
        assert_eq!(coloured.batches.len(), 2);
    }

    #[test]
    fn projection_restores_rest_length() {
        let mut x = vec![Vec3::ZERO, Vec3::new(2.0, 0.0, 0.0)];
        let w = [1.0, 1.0];
        let mut c = DistanceConstraints::default();
        c.push(0, 1, 1.0, KIND_STRETCH);
        let mut lambda = [0.0];
        solve(&mut x, &w, &c, 0..1, &mut lambda, &[0.0; 3], 1.0);
        assert!(((x[1] - x[0]).length() - 1.0).abs() < 1e-6);
        assert!((x[0].x - 0.5).abs() < 1e-6 && (x[1].x - 1.5).abs() < 1e-6);
    }
}
