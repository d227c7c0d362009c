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
//!
//! **Displacement form of the chain solve** ([`project_chain`], issue 11). A hanging chain's
//! weight is carried by corrections of about g·h² per particle and substep (1.7e-7 m at
//! 120 Hz × 64), made of two link corrections of k·g·h² and −(k−1)·g·h² that nearly cancel.
//! Applied to float32 positions near 1–2 m each is rounded to the position's ulp (1.2e-7 m):
//! the force a position can express is quantised to m·ulp/h² (0.07 N on 0.01 kg against a
//! weight of 0.098 N), and at rest the rounding falls the same way every substep, so the
//! velocity update `(x − x_p)/h` saw a biased weight and the rest stretch left the law as
//! substeps grew (the chain of 15 particles: −2.0 % at 120 Hz × 64, 0.0 % at 8). The
//! chain therefore keeps the substep's motion apart from the positions: the exact position of
//! a particle is `x + carry`, a correction `dx` goes into `carry + dx` (exact to the ulp of the
//! motion, ~1e-14 m, not of the position), the position takes that rounded
//! (`x_new = x + (carry + dx)`) and the carry keeps the remainder `(carry + dx) − (x_new − x)`
//! (`nudge`; `x_new − x` is exact for a motion small against `x`). Constraints read lengths
//! as `(xb − xa) + (carry_b − carry_a)`, so no pass subtracts the nearly equal coordinates
//! that lost the corrections, and the velocity update adds `carry/h`
//! (`solver::velocity::add_carry`), so the velocity gets every correction whole. The carry is
//! dropped after the velocity update: the position is then off by at most half an ulp, a
//! position error that does not bias the force. Only chains use it (the sequential batches of
//! ropes and strands); the colour batches, SIMD and grid kernels are unchanged, and the packed
//! and `Vec3` layouts share this one code, so they keep giving the same bits.

use crate::math::{LENGTH_EPSILON, Vec3, WEIGHT_EPSILON};
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

/// Constraints per piece of a chain solved directly by [`project_chain`]; a longer chain is
/// solved piece after piece (each piece sees the pieces before it moved: Gauss–Seidel between
/// pieces, direct inside one). On the stack: 5.5 KiB.
pub(crate) const CHAIN_PIECE: usize = 128;

/// Whether constraints `range` are chains: each constraint's particles in increasing order,
/// each constraint's first particle at or after the previous one's last. Then a particle is
/// shared only by neighbours (`b[k] == a[k + 1]`, a link) and `J·W·Jᵀ` is tridiagonal. A rope
/// or a strand's stretch constraints are; its bend constraints (`i, i + 2`) are not.
pub fn is_chain(c: &DistanceConstraints, range: std::ops::Range<usize>) -> bool {
    let mut last = 0u32;
    for i in range.clone() {
        if c.a[i] >= c.b[i] || (i > range.start && c.a[i] < last) {
            return false;
        }
        last = c.b[i];
    }
    true
}

/// The direction a sequential projection moves a constraint's particles along: the
/// constraint's direction at the substep's start `d0` (SHAKE), unless the link turned by more
/// than 25° since (then its current direction `d`, as PBD: moved along a direction that far
/// from its gradient, a link's correction overshoots and its neighbours' grow). Returns (direction vector, its
/// length, cos of the angle between them; the update is along `dir/len`).
#[inline(always)]
fn start_direction(d: Vec3, len: f32, d0: Vec3) -> (Vec3, f32, f32) {
    let len0 = d0.length();
    if len0 >= LENGTH_EPSILON {
        let cos = d.dot(d0) / (len * len0);
        if cos >= 0.9 {
            return (d0, len0, cos);
        }
    }
    (d, len, 1.0)
}

/// Projects a batch that is not independent, in order, moving each constraint's particles
/// along its direction at the substep's start (`prev`, the positions the substep started
/// from) — SHAKE's direction rather than PBD's direction at the predicted positions: PBD's
/// loses energy at first order in h (an undamped pendulum released at 90° lost 2.1° of
/// amplitude per period at 20 substeps of 60 Hz), SHAKE's keeps it (docs/validation.md). A
/// chain ([`is_chain`]) of compliant constraints is solved directly ([`project_chain`]),
/// anything else one constraint at a time.
#[allow(clippy::too_many_arguments)]
pub fn project_sequential<P: Particles + ?Sized>(p: &mut P, prev: &[Vec3], carry: &mut [Vec3], c: &DistanceConstraints, range: std::ops::Range<usize>, lambda: &mut [f32], alpha_tilde: &[f32; KIND_COUNT], rest_scale: f32) {
    let compliant = range.clone().all(|i| alpha_tilde[c.kind[i] as usize] > 0.0);
    let first = range.start;
    if compliant && !range.is_empty() && is_chain(c, range.clone()) {
        let mut start = first;
        while start < range.end {
            let end = (start + CHAIN_PIECE).min(range.end);
            let piece = &mut lambda[start - first..end - first];
            if !project_chain(p, prev, carry, c, start..end, piece, alpha_tilde, rest_scale) {
                project_each(p, prev, c, start..end, piece, alpha_tilde, rest_scale);
            }
            start = end;
        }
        return;
    }
    project_each(p, prev, c, range, lambda, alpha_tilde, rest_scale);
}

/// [`project_sequential`]'s one-constraint-at-a-time projection; `lambda` holds the
/// multipliers of `range` only.
fn project_each<P: Particles + ?Sized>(p: &mut P, prev: &[Vec3], c: &DistanceConstraints, range: std::ops::Range<usize>, lambda: &mut [f32], alpha_tilde: &[f32; KIND_COUNT], rest_scale: f32) {
    let first = range.start;
    let lambda = &mut lambda[..range.len()];
    for i in range {
        let (ia, ib) = (c.a[i] as usize, c.b[i] as usize);
        let ((xa, wa), (xb, wb)) = (p.get(ia), p.get(ib));
        let d = xb - xa;
        let len = d.length();
        if len < LENGTH_EPSILON {
            continue;
        }
        let (dir, dir_len, cos) = start_direction(d, len, prev[ib] - prev[ia]);
        let at = alpha_tilde[c.kind[i] as usize];
        let dl = xpbd::delta_lambda(len - c.rest[i] * rest_scale, (wa + wb) * cos, at, lambda[i - first]);
        if at != 0.0 {
            lambda[i - first] += dl;
        }
        let q = dl / dir_len;
        p.set(ia, xa - dir * (wa * q));
        p.set(ib, xb + dir * (wb * q));
    }
}

/// One Newton step on a chain of compliant constraints `range` (at most [`CHAIN_PIECE`],
/// [`is_chain`]), all multipliers at once, each link's particles moving along its direction
/// at the substep's start (as [`project_sequential`]): the tridiagonal system
/// `(J(x)·W·J(x_prev)ᵀ + α̃)·Δλ = −C − α̃·λ` solved exactly (Thomas algorithm), then
/// `Δx = W·J(x_prev)ᵀ·Δλ`. Gauss–Seidel with one pass per substep leaves a chain at rest
/// stretched by `g·h²·(N−k)` more per link `k` than the compliance says (each link is
/// projected before the links below it pull on it again); the direct solve has the
/// compliance law as its fixed point at any substep and iteration count. `lambda` holds the
/// multipliers of `range` only.
///
/// One linear step is only as good as the linearisation: when it leaves the piece's largest
/// residual `|C + α̃·λ|` larger than it found it (a strongly bent chain pulled far within the
/// substep: a pin jumped, a rope whipped), the piece is put back as it was and the function
/// returns false, for the caller to project it one constraint at a time, which copes with any
/// strain.
#[allow(clippy::too_many_arguments)]
pub fn project_chain<P: Particles + ?Sized>(p: &mut P, prev: &[Vec3], carry: &mut [Vec3], c: &DistanceConstraints, range: std::ops::Range<usize>, lambda: &mut [f32], alpha_tilde: &[f32; KIND_COUNT], rest_scale: f32) -> bool {
    let n = range.len();
    assert!(n <= CHAIN_PIECE && lambda.len() >= n);
    let first = range.start;
    // Link k's current direction `n_k` (its gradient) and the direction it moves along `m_k`
    // (its substep-start direction): A[k][k] = (w_a + w_b)·n_k·m_k + α̃, and through the
    // particle s shared with link k−1, A[k][k−1] = −w_s·n_k·m_{k−1}, A[k−1][k] = −w_s·n_{k−1}·m_k.
    // Forward elimination: `cp[k] = A[k][k+1] / piv[k]`, `dp[k] = (r[k] − A[k][k−1]·dp[k−1]) / piv[k]`.
    // With start directions the system is not symmetric; should a pivot come out below a
    // quarter of its diagonal (links turned far within the substep), the piece is solved
    // along the current directions instead (PBD's symmetric positive definite system, whose
    // pivots never fall below α̃).
    let mut cp = [0.0f32; CHAIN_PIECE];
    let mut dp = [0.0f32; CHAIN_PIECE];
    let unit = |v: Vec3, l: f32| if l >= LENGTH_EPSILON { v / l } else { Vec3::ZERO };
    let direction = |shake: bool, d: Vec3, len: f32, d0: Vec3| if shake { start_direction(d, len, d0) } else { (d, len, 1.0) };
    // The piece as it was (each link's two particles) and its largest residual.
    let mut saved = [Vec3::ZERO; 2 * CHAIN_PIECE];
    let mut saved_carry = [Vec3::ZERO; 2 * CHAIN_PIECE];
    let mut saved_lambda = [0.0f32; CHAIN_PIECE];
    let mut residual = 0.0f32;
    let mut shake = true;
    loop {
        let (mut n_prev, mut m_prev, mut piv_prev) = (Vec3::ZERO, Vec3::ZERO, 0.0f32);
        let mut weak = false;
        for k in 0..n {
            let i = first + k;
            let (ia, ib) = (c.a[i] as usize, c.b[i] as usize);
            let ((xa, wa), (xb, wb)) = (p.get(ia), p.get(ib));
            let d = (xb - xa) + (carry[ib] - carry[ia]);
            let len = d.length();
            let at = alpha_tilde[c.kind[i] as usize];
            let rest = c.rest[i] * rest_scale;
            let (nk, mk, diag, rhs) = if len < LENGTH_EPSILON {
                (Vec3::ZERO, Vec3::ZERO, 1.0, 0.0)
            } else {
                let (dir, dir_len, cos) = direction(shake, d, len, prev[ib] - prev[ia]);
                (unit(d, len), unit(dir, dir_len), (wa + wb) * cos + at, -(len - rest) - at * lambda[k])
            };
            if shake {
                residual = residual.max(rhs.abs());
                saved[2 * k] = xa;
                saved[2 * k + 1] = xb;
                saved_carry[2 * k] = carry[ia];
                saved_carry[2 * k + 1] = carry[ib];
                saved_lambda[k] = lambda[k];
            }
            let linked = k > 0 && c.b[i - 1] == c.a[i];
            let (low, up) = if linked { (-wa * nk.dot(m_prev), -wa * n_prev.dot(mk)) } else { (0.0, 0.0) };
            if k > 0 {
                cp[k - 1] = if piv_prev > WEIGHT_EPSILON { up / piv_prev } else { 0.0 };
            }
            let piv = diag - low * if k > 0 { cp[k - 1] } else { 0.0 };
            weak |= piv < 0.25 * diag;
            dp[k] = if piv > WEIGHT_EPSILON { (rhs - low * if k > 0 { dp[k - 1] } else { 0.0 }) / piv } else { 0.0 };
            (n_prev, m_prev, piv_prev) = (nk, mk, piv);
        }
        if !(shake && weak) {
            break;
        }
        shake = false;
    }
    // Back substitution: Δλ[k] = dp[k] − cp[k]·Δλ[k+1] (into `dp`).
    for k in (0..n.saturating_sub(1)).rev() {
        dp[k] -= cp[k] * dp[k + 1];
    }
    // Corrections, first to last, along each link's direction of the forward pass (the shared
    // particle's position before this pass is carried from the link before).
    // Each correction goes through `nudge`: into the particle's carry first, then as much of
    // the carry as the position's float32 step can hold into the position (module doc above
    // `nudge`).
    let mut carried: Option<(Vec3, Vec3)> = None;
    for k in 0..n {
        let i = first + k;
        let (ia, ib) = (c.a[i] as usize, c.b[i] as usize);
        let ((xa_now, wa), (xb, wb)) = (p.get(ia), p.get(ib));
        let (xa, ca) = match carried {
            Some(x) if k > 0 && c.b[i - 1] == c.a[i] => x,
            _ => (xa_now, carry[ia]),
        };
        carried = Some((xb, carry[ib]));
        let d = (xb - xa) + (carry[ib] - ca);
        let len = d.length();
        if len < LENGTH_EPSILON {
            continue;
        }
        let (dir, dir_len, _) = direction(shake, d, len, prev[ib] - prev[ia]);
        let dl = dp[k];
        lambda[k] += dl;
        let q = dl / dir_len;
        nudge(p, carry, ia, xa_now, -(dir * (wa * q)));
        nudge(p, carry, ib, xb, dir * (wb * q));
    }
    let after = (0..n).fold(0.0f32, |m, k| {
        let i = first + k;
        let (ia, ib) = (c.a[i] as usize, c.b[i] as usize);
        let len = ((p.get(ib).0 - p.get(ia).0) + (carry[ib] - carry[ia])).length();
        m.max((len - c.rest[i] * rest_scale + alpha_tilde[c.kind[i] as usize] * lambda[k]).abs())
    });
    if after > residual {
        for k in 0..n {
            let i = first + k;
            p.set(c.a[i] as usize, saved[2 * k]);
            p.set(c.b[i] as usize, saved[2 * k + 1]);
            lambda[k] = saved_lambda[k];
        }
        // Restored last to first, so a shared particle gets the carry it had before the pass.
        for k in (0..n).rev() {
            let i = first + k;
            carry[c.b[i] as usize] = saved_carry[2 * k + 1];
            carry[c.a[i] as usize] = saved_carry[2 * k];
        }
        return false;
    }
    true
}

/// Moves particle `i`, at `x` (its stored position), by `dx` in displacement form: the
/// exact position is `x + carry[i]`, so `carry[i] + dx` is the particle's pending motion; the
/// position takes it rounded to its float32 step and `carry[i]` keeps what rounding left out
/// (`x_new − x` is exact for a motion small against `x`, so the carry is exact to the ulp of
/// the motion, not of the position).
#[inline(always)]
fn nudge<P: Particles + ?Sized>(p: &mut P, carry: &mut [Vec3], i: usize, x: Vec3, dx: Vec3) {
    let pending = carry[i] + dx;
    let moved = x + pending;
    p.set(i, moved);
    carry[i] = pending - (moved - x);
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

/// [`project_sequential`] on `Vec3` positions and inverse masses (a batch that is not
/// independent), `x_prev` the positions the substep started from.
#[allow(clippy::too_many_arguments)]
pub fn solve_sequential(x: &mut [Vec3], x_prev: &[Vec3], carry: &mut [Vec3], w: &[f32], c: &DistanceConstraints, range: std::ops::Range<usize>, lambda: &mut [f32], alpha_tilde: &[f32; KIND_COUNT], rest_scale: f32) {
    project_sequential(&mut Split { x, w }, x_prev, carry, c, range.clone(), &mut lambda[range], alpha_tilde, rest_scale);
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

    /// The direct chain solve is where Gauss–Seidel converges: one `project_chain` against
    /// 2000 passes of `project` on a compliant chain stretched by 1–3.4 % with a pinned top.
    #[test]
    fn chain_solve_is_converged_gauss_seidel() {
        let n = 12;
        // Straight (all gradients along one line), so the problem is linear and its solution
        // unique: a bent chain's final positions depend on the path the corrections took.
        let x0: Vec<Vec3> = (0..=n).map(|i| Vec3::new(0.03, -0.11, 0.02).normalize() * (0.1 * (1.01 * i as f32 + 0.001 * (i * i) as f32))).collect();
        let mut w = vec![50.0f32; n + 1];
        w[0] = 0.0;
        let mut c = DistanceConstraints::default();
        for i in 0..n as u32 {
            c.push(i, i + 1, 0.1, KIND_STRETCH);
        }
        c.close_batch(false);
        assert!(is_chain(&c, 0..n));
        let at = [4.0, 0.0, 0.0];
        let (mut xd, mut ld) = (x0.clone(), vec![0.0; n]);
        // The substep started from `x0`: on a straight chain start and current directions agree.
        solve_sequential(&mut xd, &x0, &mut vec![Vec3::ZERO; n + 1], &w, &c, 0..n, &mut ld, &at, 1.0);
        // One Newton step is exact for the linearised system; converge the nonlinear one.
        for _ in 0..20 {
            solve_sequential(&mut xd, &x0, &mut vec![Vec3::ZERO; n + 1], &w, &c, 0..n, &mut ld, &at, 1.0);
        }
        let (mut xg, mut lg) = (x0.clone(), vec![0.0; n]);
        for _ in 0..2000 {
            solve(&mut xg, &w, &c, 0..n, &mut lg, &at, 1.0);
        }
        for i in 0..=n {
            assert!((xd[i] - xg[i]).length() < 1e-5, "particle {i}: {:?} vs {:?}", xd[i], xg[i]);
        }
        for k in 0..n {
            assert!((ld[k] - lg[k]).abs() < 1e-4 * lg[k].abs().max(1e-4), "link {k}: {} vs {}", ld[k], lg[k]);
        }
    }

    /// Links that turned within the substep — by 10° and 20° (start directions kept) and by
    /// 40° (current directions) — still give a finite solve that shortens every violation,
    /// for a strain of 2 % (solved directly) and of 30 % (one constraint at a time).
    #[test]
    fn chain_solve_survives_links_that_turned_within_the_substep() {
        let n = 10;
        for (rise, turn) in [(0.02f32, 0.0f32), (0.02, 10.0), (0.02, 20.0), (0.02, 40.0), (0.083, 20.0)] {
            let run = (0.1f32 * (1.0 + if rise > 0.05 { 0.3 } else { 0.02 })).powi(2) - rise * rise;
            let x: Vec<Vec3> = (0..=n).map(|i| Vec3::new(run.sqrt() * i as f32, rise * (i % 2) as f32, 0.0)).collect();
            // The substep started with every link turned by `turn` degrees, alternately up and down.
            let mut start = vec![x[0]];
            for k in 0..n {
                let sign = if k % 2 == 0 { 1.0 } else { -1.0 };
                let q = glam::Quat::from_rotation_z(sign * turn.to_radians());
                start.push(start[k] + q * (x[k + 1] - x[k]));
            }
            let mut w = vec![30.0f32; n + 1];
            w[0] = 0.0;
            let mut c = DistanceConstraints::default();
            for i in 0..n as u32 {
                c.push(i, i + 1, 0.1, KIND_STRETCH);
            }
            let violation = |x: &[Vec3]| (0..n).map(|k| ((x[k + 1] - x[k]).length() - 0.1).abs()).fold(0.0f32, f32::max);
            let (mut y, before) = (x.clone(), violation(&x));
            let mut lam = vec![0.0; n];
            for _ in 0..3 {
                solve_sequential(&mut y, &start, &mut vec![Vec3::ZERO; n + 1], &w, &c, 0..n, &mut lam, &[1e-3, 0.0, 0.0], 1.0);
            }
            assert!(y.iter().all(|p| p.is_finite()));
            assert!(violation(&y) < 0.5 * before, "strain {rise}, turned {turn}°: {} vs {before}", violation(&y));
        }
    }

    /// Bend pairs (i, i + 2) and colour batches are not chains; rigid chains keep the
    /// one-at-a-time projection (the chapter's relaxation), which moves particles as PBD when
    /// the links have not turned since the substep's start.
    #[test]
    fn only_compliant_chains_are_solved_directly() {
        let mut c = DistanceConstraints::default();
        for i in 0..6u32 {
            c.push(i, i + 2, 0.2, KIND_BEND);
        }
        assert!(!is_chain(&c, 0..6));
        let mut r = DistanceConstraints::default();
        for i in 0..6u32 {
            r.push(i, i + 1, 0.1, KIND_STRETCH);
        }
        let x0: Vec<Vec3> = (0..7).map(|i| Vec3::new(0.0, -0.12 * i as f32, 0.0)).collect();
        let w = [0.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0];
        let (mut a, mut b) = (x0.clone(), x0.clone());
        solve(&mut a, &w, &r, 0..6, &mut [0.0; 6], &[0.0; 3], 1.0);
        let start: Vec<Vec3> = (0..7).map(|i| Vec3::new(0.0, -0.1 * i as f32, 0.0)).collect();
        solve_sequential(&mut b, &start, &mut [Vec3::ZERO; 7], &w, &r, 0..6, &mut [0.0; 6], &[0.0; 3], 1.0);
        for (p, q) in a.iter().zip(&b) {
            assert!((*p - *q).length() < 1e-6, "{p:?} vs {q:?}");
        }
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
