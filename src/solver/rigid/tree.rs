//! A direct solve of a ragdoll's hard joint rows over its whole joint tree, in O(n) (Baraff
//! 1996, "Linear-Time Dynamics using Lagrange Multipliers"; the same elimination inside XPBD:
//! Deul, Kugelstadt, Weiler, Bender 2018, "Direct Position-Based Solver for Stiff Rods").
//!
//! **Why.** Solving each joint's rows as one block, joint after joint, makes each joint exact
//! on its own, but the joints of a chain are coupled through the bodies they share and a Gauss–Seidel sweep over
//! them converges like `(1 − m_light/m_heavy)^k`: at a 1:100 mass ratio one sweep per substep
//! leaves 0.15 of the link length of separation, and an impact (the contacts moving a few
//! bones by centimetres) is not closed in one sweep either. Solving every hard row of the
//! ragdoll at once closes all joints to linearisation error in one pass, whatever the masses.
//!
//! **The system.** Rows `C(x) = 0` of every joint (3 anchor rows, the fixed or hinge alignment
//! rows, violated hard limits as one-sided rows), linearised at the current pose: the
//! correction is `Δx = M⁻¹ Jᵀ λ` (per body `Δx = w·f`, `Δθ = I⁻¹_world τ`, the XPBD updates of
//! Müller et al. 2020 eqs. 2–7 for all rows at once, compliance 0) with
//! `(J M⁻¹ Jᵀ) λ = −C`. `J M⁻¹ Jᵀ` couples two joints when they share a body: for a tree of
//! bodies that is not a tree of joints (the joints at one body form a clique), but the
//! bipartite graph of bodies and joints is a tree, and eliminating it from the leaves costs
//! O(n) with no fill (Baraff §4–§7).
//!
//! **Elimination, leaves first, in the inverse-mass form.** Bodies are in the ragdoll's order,
//! parents before children, and joint `j` joins body `j` to its parent `p(j) < j`. Each body
//! keeps `A_b` (6 × 6), its *articulated inverse mass*: the response `Δx_b = A_b f + z_b` of
//! body `b` with the subtree of its already-eliminated children to a generalised impulse `f`
//! from outside that subtree, the children's rows satisfied; `z_b` is the motion the
//! subtree's own errors cause. Initially `A_b = M_b⁻¹`, `z_b = 0`. For `j = n−1 … 1`, with
//! child `c = j` complete (all its children have larger indices) and parent `p`:
//!
//! ```text
//!     G  = A_p J_pᵀ                          (6 × r)
//!     K  = J_c A_c J_cᵀ + J_p G              (r × r, Cholesky)
//!     e  = −C − J_c z_c − J_p z_p
//!     A_p ← A_p − G K⁻¹ Gᵀ,   z_p ← z_p + G K⁻¹ e        (Woodbury: joint j eliminated)
//! ```
//!
//! Then, for `j = 1 … n−1` (parents first), `λ_j = K⁻¹ (e − Gᵀ g_p)`, where `g_p` is the
//! impulse on `p` from every row eliminated at `p` after `j` (the children of `p` with smaller
//! indices and `p`'s own parent joint — exactly those already back-solved), and `g_p += J_pᵀ λ`,
//! `g_c += J_cᵀ λ`. Finally every body moves by `M⁻¹ g_b`. This form (rather than Baraff's
//! `[M Jᵀ; J 0]` with `M`) takes kinematic bodies without a special case: `M⁻¹ = 0` gives
//! `A = 0` and no motion, and a dynamic body between a kinematic parent and a kinematic child
//! (a loop through the ground) has a singular `K`, whose vanishing pivots the Cholesky skips
//! (those rows get `λ = 0`, the rest are exact). The sums run in f64: `A_p − G K⁻¹ Gᵀ` is a
//! difference of nearly equal terms where a joint pins a direction, and at 1:100 mass
//! ratios f32 lost the rows' last digits there.
//!
//! **Limits** are inequalities: after the solve, a violated hard limit row whose `λ` pulls
//! the bone into the limit is dropped and the tree solved again, once. **Newton**: the rows are linear at the pose they were built at; the remaining error
//! is second order in the correction (an impact's centimetres leave micrometres), and each
//! further pass (re-linearise, solve, apply) squares it. A tree whose rows are all below
//! round-off (2e-7 m, rad) is left alone, so a ragdoll at rest in its bind pose keeps every bit.
//!
//! **Held contacts** (the substep's last pass). The contacts' position pass leaves the
//! bones out of their obstacles; a last joint pass that then moves them freely pushes some
//! back in (a bone resting on the ground between two that do not pulls them down with it).
//! At rest that is a cycle in every substep: the next contact pass pushes out by ~0.1 mm, the
//! velocity pass takes the push's speed away with a pulling impulse that shrinks the
//! friction's bound, and what the joints moved sideways is never seen by the static
//! friction (it measures slip from the substep's start) — a humanoid lying on a plane slid
//! at 1.5 cm/s and never slept. So the caller may give rows [`HeldRow`] (a point of a body
//! and a world direction: the normal of a contact with a static obstacle) that the pass
//! must not move: each is a row on one body, a leaf of the bipartite tree, eliminated first
//! with zero error — `A_b ← A_b − (A_b j)(A_b j)ᵀ/(jᵀA_b j)`, a rank-one Woodbury update
//! per row (redundant rows skipped) — and the body then moves by its projected inverse mass
//! times the joints' impulses. Where the held rows lock both bodies of a joint along a row,
//! `K`'s pivot is round-off or nearly: pivots of joints at or above a held body are judged
//! against the same row with the plain inverse masses (`factor`'s `reference`) and skipped
//! below 1e-3 of it (with 1e-9 a pile of humanoids lying on their backs blew up: λ from a
//! near-zero pivot; 1e-1 slowed the humanoid's sleep to 9 s); a pass in which that happens
//! is solved again without its held rows, so that the joints close as before (at an impact
//! the contacts' push-back is then left to the next substep). On S4 that still leaves the
//! peak joint separation at 2.0 mm (0.29 mm without held rows) and the peak limit
//! violation at 4.3° (1.4°). Holding the
//! tangents too (sticking contacts) or contacts with other ragdolls' bones measured worse:
//! bodies locked in all six directions leave joints open (3 mm in the humanoid drop), and
//! in a pile the held bone–bone contacts set heads spinning.
//!
//! **Soft limits** are not in the tree: a tree pass first runs them as the Gauss–Seidel pass
//! does (their own compliant update, joint by joint), then solves the hard rows.
//!
//! **Cost**, per joint with `r` rows (r = 3…6, typically 5), in multiply–adds: `A_c J_cᵀ` and
//! `Gᵀ = J_p A_p` `2·36r`, `e` `12r`, `K` `6r(r+1)`, Cholesky `r³/6`, `Y = L⁻¹Gᵀ`
//! `3r(r−1)`, `A_p −= YᵀY` `21r`, `z_p` `6r`, back-substitution `18r + r²/2`: about 970 for
//! r = 5 (~1 900 flops, in f64), plus `M⁻¹` per body (~100) and the rows themselves (the same
//! as a per-joint block's, whose own solve was ~600 flops). Measured on S4 (40 humanoids, 8
//! substeps, 1 iteration: two joint passes per substep), every pass a tree solve instead of
//! a Gauss–Seidel block pass: 7 350–7 430 → 7 680–7 970 µs per step (+4.5–7 %; over the
//! first 2 s, the fall, where joints are most of the work, 3 900 → 5 100–5 300 µs, about
//! 2 µs more per humanoid pass, 0.2 µs per joint); a second linearisation of
//! the last pass (`LAST_PASS_NEWTON = 2` in `ragdoll`) costs +25 % more and takes S4's peak
//! joint separation from 1.2 to 0.03 mm. Workspace: ~1.3 KB per bone, allocated with the
//! ragdoll (an island's shared one grows once to its largest member); nothing is allocated
//! per step, and nothing is threaded (the order of operations is fixed).
//!
//! The rows are kept sparse ([`Row`]: an anchor row has 3 entries that are not zero by
//! construction, an angular row 3), and each joint is eliminated by a copy of the code for
//! its row count (`eliminate_joint::<M>`), so the loops over the rows unroll; the sums are
//! the dense ones in the same order (the skipped products are exact zeros), so the bits are
//! those of the dense form. On S4 (callgrind, 360 steps from the drop, one thread) that took
//! the elimination from 13.1 G to 8.5 G instructions, the whole run from 28.05 G to
//! 23.25 G, with the same final poses to the bit.
//!
//! **Figures** (defaults: 8 substeps × 1 iteration), Gauss–Seidel block passes → tree solve:
//! three-link chain 1:10:100 from horizontal, worst separation 9.4e-2 → 4.6e-6 of the link
//! length; humanoid dropped 1 m onto the ground, worst separation 4.4 → 0.024 mm;
//! `examples/ragdoll_chapter.c` (1 kg bones, hit and fall), 5.6 → 0.049 mm; S4, joint
//! separation at the end / peak 0.59 / 9.1 → 0.002 / 1.2 mm, limits 0.16° / 4.3° → 0.07° /
//! 2.4°.

use super::RigidBody;
use super::joint::{HardRows, Joint, bodies_of, hard_rows, is_active};
use crate::math::Vec3;

/// Rows per joint: 3 positional, up to 3 angular.
const R: usize = 6;

/// A joint's rows below this (m, rad) count as satisfied.
const ROUND_OFF: f32 = 2.0e-7;

type V6 = [f64; 6];
type M6 = [[f64; 6]; 6];

#[derive(Clone, Copy, Debug, Default)]
struct BodyWork {
    /// Articulated inverse mass (symmetric).
    a: M6,
    /// The body's own inverse mass with its held contact directions projected out (`M⁻¹`
    /// when it holds none), and whether it holds any.
    a0: M6,
    held: bool,
    /// `M⁻¹`, and whether the body or a body of its eliminated subtree holds a direction
    /// (its joints' pivots are then judged against `M⁻¹`, see `factor`).
    minv: M6,
    touched: bool,
    z: V6,
    /// Accumulated impulse.
    g: V6,
}

#[derive(Clone, Copy, Debug, Default)]
struct JointWork {
    /// Rows of the joint in this attempt (0: the joint is not in the tree).
    m: usize,
    /// Row Jacobians on the child and the parent (linear, angular), each with its three
    /// entries that are not zero by construction ([`Row`]).
    jc: [Row; R],
    jp: [Row; R],
    /// Violations, and whether a row is a one-sided limit; `kind` is where its λ is recorded
    /// (0 orientation, 1 and 2 limits, 3 position).
    c: V6,
    limit: [bool; R],
    kind: [u8; R],
    /// `Gᵀ` (r × 6; after the elimination `L⁻¹ Gᵀ`), the Cholesky factor `L` of `K`, skipped
    /// pivots, `e` (after the elimination `L⁻¹ e`), `λ`.
    gt: [V6; R],
    l: M6,
    skip: [bool; R],
    e: V6,
    lam: V6,
}

/// A direction a body's contact point must keep during a tree pass (see the module's notes,
/// *Held contacts*): body `body` (the ragdoll's index), the point in its body frame, a world
/// unit direction.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HeldRow {
    pub body: u32,
    pub r_local: Vec3,
    pub dir: Vec3,
}

/// Per-ragdoll workspace of the tree solve (see the module's notes).
#[derive(Clone, Debug, Default)]
pub struct TreeWork {
    bodies: Vec<BodyWork>,
    joints: Vec<JointWork>,
    /// The held contact rows of the next pass, sorted by body (reused; no allocation once
    /// grown to the most contacts a ragdoll had).
    pub held: Vec<HeldRow>,
}

impl TreeWork {
    pub fn with_bones(n: usize) -> TreeWork {
        TreeWork { bodies: vec![BodyWork::default(); n], joints: vec![JointWork::default(); n], held: Vec::new() }
    }

    /// Grows to `n` bones (no allocation once it is that large).
    pub fn reserve_bones(&mut self, n: usize) {
        if self.bodies.len() < n {
            self.bodies.resize(n, BodyWork::default());
            self.joints.resize(n, JointWork::default());
        }
    }
}

/// A row of a joint's Jacobian on one body: its three entries that are not zero by
/// construction, in index order — an anchor row along axis `i` is `(±eᵢ, ±r × eᵢ)`, whose
/// angular part is 0 along `i` too, and an angular row `(0, ±n)`. The products with the
/// other three entries are exact zeros, which do not change a sum, so every product with
/// a `Row` gives the bits of the dense six-entry product in the same order (up to the sign
/// of an all-zero result).
#[derive(Clone, Copy, Debug, Default)]
struct Row {
    idx: [usize; 3],
    val: [f64; 3],
}

impl Row {
    /// The anchor row along axis `i`: `sign·eᵢ` linear, `ang` angular (`ang[i]` = 0).
    fn anchor(i: usize, sign: f64, ang: Vec3) -> Row {
        let (j, k) = ((i + 1) % 3, (i + 2) % 3);
        let (lo, hi) = (j.min(k), j.max(k));
        Row { idx: [i, 3 + lo, 3 + hi], val: [sign, ang[lo] as f64, ang[hi] as f64] }
    }

    /// An angular row about `n`.
    fn angular(n: Vec3) -> Row {
        Row { idx: [3, 4, 5], val: [n.x as f64, n.y as f64, n.z as f64] }
    }

    /// `self · v`.
    #[inline]
    fn dot(&self, v: &V6) -> f64 {
        self.val[0] * v[self.idx[0]] + self.val[1] * v[self.idx[1]] + self.val[2] * v[self.idx[2]]
    }

    /// `A self` for symmetric `A`.
    #[inline]
    fn mul(&self, a: &M6) -> V6 {
        let mut o = [0.0; 6];
        for (o, row) in o.iter_mut().zip(a) {
            *o = row[self.idx[0]] * self.val[0] + row[self.idx[1]] * self.val[1] + row[self.idx[2]] * self.val[2];
        }
        o
    }

    /// `g += self · l`.
    #[inline]
    fn add_to(&self, g: &mut V6, l: f64) {
        for k in 0..3 {
            g[self.idx[k]] += self.val[k] * l;
        }
    }
}

#[inline]
fn v6(lin: Vec3, ang: Vec3) -> V6 {
    [lin.x as f64, lin.y as f64, lin.z as f64, ang.x as f64, ang.y as f64, ang.z as f64]
}

#[inline]
fn dot6(a: &V6, b: &V6) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3] + a[4] * b[4] + a[5] * b[5]
}

/// `A v` for symmetric `A`.
#[inline]
fn mul6(a: &M6, v: &V6) -> V6 {
    let mut o = [0.0; 6];
    for (i, row) in a.iter().enumerate() {
        o[i] = dot6(row, v);
    }
    o
}

/// `M⁻¹` of a body: `w·I` and the world inverse inertia.
fn inverse_mass(b: &RigidBody) -> M6 {
    let mut a = [[0.0; 6]; 6];
    let w = b.inv_mass as f64;
    for (i, row) in a.iter_mut().enumerate().take(3) {
        row[i] = w;
    }
    if b.inv_inertia != Vec3::ZERO {
        for (k, e) in Vec3::AXES.iter().enumerate() {
            let col = b.inv_inertia_world(*e);
            for i in 0..3 {
                a[3 + i][3 + k] = col[i] as f64;
            }
        }
        // Symmetric to the bit.
        for i in 0..3 {
            for k in 0..i {
                let s = 0.5 * (a[3 + i][3 + k] + a[3 + k][3 + i]);
                a[3 + i][3 + k] = s;
                a[3 + k][3 + i] = s;
            }
        }
    }
    a
}

/// A joint row at or above a held body whose pivot is below this fraction of the same
/// row's with the plain inverse masses counts as locked by the held directions (skipped).
const LOCKED: f64 = 1e-3;

/// Cholesky of the first `m` rows of `k` in place (lower); a pivot that vanishes (a direction
/// nothing can move in) is skipped: relative to the row's own diagonal, and below
/// [`LOCKED`] × `reference` (the row's diagonal with the bodies' plain inverse masses) when
/// given — where held contact directions (nearly) lock both bodies of a joint, its `K` is
/// round-off or close to it, not a stiffness to invert.
#[inline]
#[allow(clippy::needless_range_loop)]
fn factor(k: &mut M6, skip: &mut [bool; R], m: usize, reference: Option<&V6>) -> bool {
    let mut locked = false;
    for j in 0..m {
        let own = k[j][j];
        let diag = own.max(reference.map_or(0.0, |r| r[j]));
        let mut d = own;
        for p in 0..j {
            d -= k[j][p] * k[j][p];
        }
        let rel = reference.map_or(0.0, |r| r[j] * LOCKED);
        skip[j] = !(d > 1e-9 * diag.abs() && d > 1e-30 && d > rel);
        locked |= skip[j] && d > 1e-9 * diag.abs() && d > 1e-30;
        if skip[j] {
            k[j][j] = 1.0;
            for i in j + 1..m {
                k[i][j] = 0.0;
            }
            continue;
        }
        let l = d.sqrt();
        k[j][j] = l;
        for i in j + 1..m {
            let mut v = k[i][j];
            for p in 0..j {
                v -= k[i][p] * k[j][p];
            }
            k[i][j] = v / l;
        }
    }
    locked
}

/// `L⁻¹ b` (forward substitution) from `factor`'s result; skipped rows give 0.
#[inline]
#[allow(clippy::needless_range_loop)]
fn forward(l: &M6, skip: &[bool; R], m: usize, b: &V6) -> V6 {
    let mut y = [0.0; 6];
    for i in 0..m {
        if skip[i] {
            continue;
        }
        let mut v = b[i];
        for p in 0..i {
            v -= l[i][p] * y[p];
        }
        y[i] = v / l[i][i];
    }
    y
}

/// `L⁻ᵀ y` (backward substitution); skipped rows give 0.
#[inline]
#[allow(clippy::needless_range_loop)]
fn backward(l: &M6, skip: &[bool; R], m: usize, mut y: V6) -> V6 {
    for i in (0..m).rev() {
        if skip[i] {
            y[i] = 0.0;
            continue;
        }
        let mut v = y[i];
        for p in i + 1..m {
            v -= l[p][i] * y[p];
        }
        y[i] = v / l[i][i];
    }
    y
}

/// Fills joint `jw`'s rows from `r`, all active; returns whether any is above round-off.
fn load_rows(jw: &mut JointWork, r: &HardRows) -> bool {
    let mut m = 0;
    let mut big = false;
    for (i, e) in Vec3::AXES.iter().enumerate() {
        jw.jc[m] = Row::anchor(i, 1.0, r.rc.cross(*e));
        jw.jp[m] = Row::anchor(i, -1.0, -r.rp.cross(*e));
        jw.c[m] = r.d[i] as f64;
        jw.limit[m] = false;
        jw.kind[m] = 3;
        m += 1;
    }
    big |= r.d.length_squared() >= ROUND_OFF * ROUND_OFF;
    for (k, &(n, cv, limit)) in r.rows[..r.nr].iter().enumerate() {
        jw.jc[m] = Row::angular(n);
        jw.jp[m] = Row::angular(-n);
        jw.c[m] = cv as f64;
        jw.limit[m] = limit;
        jw.kind[m] = k.min(2) as u8;
        big |= cv.abs() >= ROUND_OFF;
        m += 1;
    }
    jw.m = m;
    big
}

/// Drops row `i` of a joint (a limit that pulls).
fn drop_row(jw: &mut JointWork, i: usize) {
    for k in i..jw.m - 1 {
        jw.jc[k] = jw.jc[k + 1];
        jw.jp[k] = jw.jp[k + 1];
        jw.c[k] = jw.c[k + 1];
        jw.limit[k] = jw.limit[k + 1];
        jw.kind[k] = jw.kind[k + 1];
    }
    jw.m -= 1;
}

/// `a ← a − (a j)(a j)ᵀ / (jᵀ a j)`: the inverse mass with direction `j` held (a rank-one
/// Woodbury update; skipped when `j` is already held, or nothing moves along it).
fn hold(a: &mut M6, j: &V6, scale: f64) {
    let u = mul6(a, j);
    let d = dot6(j, &u);
    if !(d > 1e-9 * scale && d > 1e-30) {
        return;
    }
    for p in 0..6 {
        for q in 0..=p {
            let v = a[p][q] - u[p] * u[q] / d;
            a[p][q] = v;
            a[q][p] = v;
        }
    }
}

/// `A ← A − Yᵀ Y`, `z ← z + Yᵀ y` for the `M` rows of `y` (`L⁻¹ Gᵀ`) and `y` (`L⁻¹ e`),
/// rows beyond `M` ignored. Each entry's sum runs over the rows in order from 0.0 and is
/// then subtracted once; `(Yᵀ Y)` is symmetric to the bit (the products commute), so the
/// whole square is taken (the compiler vectorises it) where only a triangle is needed.
#[inline]
fn downdate<const M: usize>(a: &mut M6, z: &mut V6, y: &[V6; R], e: &V6) {
    let mut s = [[0.0f64; 6]; 6];
    let mut t = [0.0f64; 6];
    for r in 0..M {
        for (sa, &ya) in s.iter_mut().zip(&y[r]) {
            for (sab, &yb) in sa.iter_mut().zip(&y[r]) {
                *sab += ya * yb;
            }
        }
        for (ta, &ya) in t.iter_mut().zip(&y[r]) {
            *ta += ya * e[r];
        }
    }
    for (ar, sr) in a.iter_mut().zip(&s) {
        for (v, d) in ar.iter_mut().zip(sr) {
            *v -= d;
        }
    }
    for (za, ta) in z.iter_mut().zip(&t) {
        *za += ta;
    }
}

/// Eliminates joint `jw` of `M` rows (child `bc` complete, parent `bp`; see the module's
/// notes); returns whether held directions locked a row. `M` a constant, so that the loops
/// over the rows unroll.
#[inline]
#[allow(clippy::needless_range_loop)]
fn eliminate_joint<const M: usize>(jw: &mut JointWork, bp: &mut BodyWork, bc: &BodyWork) -> bool {
    let m = M;
    // K = J_c A_c J_cᵀ + J_p A_p J_pᵀ, Gᵀ = J_p A_p, e = −C − J_c z_c − J_p z_p.
    let mut ac_jc = [[0.0; 6]; R];
    for r in 0..m {
        ac_jc[r] = jw.jc[r].mul(&bc.a);
        jw.gt[r] = jw.jp[r].mul(&bp.a);
        jw.e[r] = -jw.c[r] - jw.jc[r].dot(&bc.z) - jw.jp[r].dot(&bp.z);
    }
    for r in 0..m {
        for q in 0..=r {
            jw.l[r][q] = jw.jc[r].dot(&ac_jc[q]) + jw.jp[r].dot(&jw.gt[q]);
        }
    }
    let touched = bc.touched || bp.touched;
    let mut reference = [0.0; 6];
    if touched {
        for r in 0..m {
            reference[r] = jw.jc[r].dot(&jw.jc[r].mul(&bc.minv)) + jw.jp[r].dot(&jw.jp[r].mul(&bp.minv));
        }
        bp.touched = true;
    }
    let locked = factor(&mut jw.l, &mut jw.skip, m, touched.then_some(&reference));
    // With K = L Lᵀ and Y = L⁻¹ Gᵀ (r × 6): A_p ← A_p − Yᵀ Y, z_p ← z_p + Yᵀ L⁻¹ e.
    // `gt` is overwritten by Y, `e` by L⁻¹ e (what the back-substitution needs).
    let (l, skip) = (&jw.l, &jw.skip);
    for i in 0..m {
        if skip[i] {
            jw.gt[i] = [0.0; 6];
            continue;
        }
        let inv = 1.0 / l[i][i];
        let mut row = jw.gt[i];
        for p in 0..i {
            let lp = l[i][p];
            for a in 0..6 {
                row[a] -= lp * jw.gt[p][a];
            }
        }
        for v in row.iter_mut() {
            *v *= inv;
        }
        jw.gt[i] = row;
    }
    jw.e = forward(l, skip, m, &jw.e);
    downdate::<M>(&mut bp.a, &mut bp.z, &jw.gt, &jw.e);
    locked
}

/// Eliminates the tree and back-solves every joint's `λ` (see the module's notes).
#[allow(clippy::needless_range_loop)]
fn eliminate(bodies: &[RigidBody], joints: &[Joint], work: &mut TreeWork) -> bool {
    let mut locked = false;
    let n = joints.len();
    for (bw, b) in work.bodies[..n].iter_mut().zip(bodies) {
        bw.a = inverse_mass(b);
        bw.z = [0.0; 6];
        bw.g = [0.0; 6];
        bw.held = false;
        bw.touched = false;
    }
    // Held contact directions are rows on one body each: leaves of the tree, eliminated
    // first (with zero error: the point keeps where the contacts left it along them).
    for h in &work.held {
        let i = h.body as usize;
        if i >= n || bodies[i].inv_mass == 0.0 {
            continue;
        }
        let b = &bodies[i];
        let r = b.q * h.r_local;
        let j = v6(h.dir, r.cross(h.dir));
        let bw = &mut work.bodies[i];
        if !bw.held {
            bw.minv = bw.a;
        }
        let scale = dot6(&j, &mul6(&bw.minv, &j));
        hold(&mut bw.a, &j, scale);
        bw.held = true;
        bw.touched = true;
    }
    for (bw, b) in work.bodies[..n].iter_mut().zip(bodies) {
        if bw.held {
            bw.a0 = bw.a;
        } else if !work.held.is_empty() {
            bw.minv = inverse_mass(b);
        }
    }
    for j in (0..n).rev() {
        let jw = &mut work.joints[j];
        let m = jw.m;
        if m == 0 {
            continue;
        }
        let (p, c) = (joints[j].parent as usize, joints[j].child as usize);
        let (lo, hi) = work.bodies.split_at_mut(c);
        let (bp, bc) = (&mut lo[p], &hi[0]);
        locked |= match m {
            1 => eliminate_joint::<1>(jw, bp, bc),
            2 => eliminate_joint::<2>(jw, bp, bc),
            3 => eliminate_joint::<3>(jw, bp, bc),
            4 => eliminate_joint::<4>(jw, bp, bc),
            5 => eliminate_joint::<5>(jw, bp, bc),
            _ => eliminate_joint::<6>(jw, bp, bc),
        };
    }
    for j in 0..n {
        let jw = &mut work.joints[j];
        let m = jw.m;
        if m == 0 {
            continue;
        }
        let (p, c) = (joints[j].parent as usize, joints[j].child as usize);
        let (lo, hi) = work.bodies.split_at_mut(c);
        let (bp, bc) = (&mut lo[p], &mut hi[0]);
        let mut rhs = [0.0; 6];
        for r in 0..m {
            rhs[r] = jw.e[r] - dot6(&jw.gt[r], &bp.g);
        }
        // λ = K⁻¹ (e − G ᵀg) = L⁻ᵀ (L⁻¹e − Y g).
        jw.lam = backward(&jw.l, &jw.skip, m, rhs);
        for r in 0..m {
            let l = jw.lam[r];
            jw.jp[r].add_to(&mut bp.g, l);
            jw.jc[r].add_to(&mut bc.g, l);
        }
    }
    locked
}

/// One direct pass over a ragdoll's joint tree (see the module's notes), repeated `newton`
/// times (each re-linearised at the pose the last left). `bodies` and `joints` are one
/// ragdoll's (joint `j`'s child is body `j`, its parent a smaller index); `lambdas[j]` holds
/// joint `j`'s multipliers for the substep (orientation, limit 1, limit 2, position). Returns
/// whether anything moved.
pub fn solve_tree(bodies: &mut [RigidBody], joints: &[Joint], lambdas: &mut [[f32; 4]], work: &mut TreeWork, h: f32, newton: u32) -> bool {
    let n = joints.len();
    debug_assert!(work.bodies.len() >= n && bodies.len() >= n);
    // Soft limits first, joint by joint, as a Gauss–Seidel pass solves them.
    for (joint, lam) in joints.iter().zip(lambdas.iter_mut()) {
        if joint.limit_compliance > 0.0 && is_active(joint, bodies) {
            let (p, c) = bodies_of(bodies, joint);
            hard_rows(joint, p, c, lam, h, true);
        }
    }
    let mut moved = false;
    for _ in 0..newton.max(1) {
        let mut big = false;
        for (j, joint) in joints.iter().enumerate() {
            let jw = &mut work.joints[j];
            jw.m = 0;
            if !is_active(joint, bodies) {
                continue;
            }
            let (p, c) = bodies_of(bodies, joint);
            let r = hard_rows(joint, p, c, &mut lambdas[j], h, false);
            big |= load_rows(jw, &r);
        }
        if !big {
            break;
        }
        if eliminate(bodies, joints, work) {
            // Held contacts lock a joint: this pass is solved without them (joints exact,
            // as at an impact), the contacts' push-back left to the next substep.
            work.held.clear();
            eliminate(bodies, joints, work);
        }
        // A limit row that pulls is dropped, and the tree solved again (once).
        let mut again = false;
        for jw in work.joints[..n].iter_mut() {
            let mut i = 0;
            while i < jw.m {
                if jw.limit[i] && jw.lam[i] * jw.c[i] > 0.0 {
                    let last = i + 1 == jw.m;
                    drop_row(jw, i);
                    again = true;
                    if last {
                        break;
                    }
                    // Shifted λ no longer line up with the rows: re-check the rest after the
                    // re-solve only.
                    for k in i..jw.m {
                        jw.lam[k] = jw.lam[k + 1];
                    }
                    continue;
                }
                i += 1;
            }
        }
        if again {
            eliminate(bodies, joints, work);
        }
        for (j, jw) in work.joints[..n].iter().enumerate() {
            for r in 0..jw.m {
                lambdas[j][jw.kind[r] as usize] += jw.lam[r] as f32;
            }
        }
        for (b, bw) in bodies.iter_mut().zip(&work.bodies[..n]) {
            if bw.held {
                // The motion the joints' impulses give a body that holds contact directions.
                let d = mul6(&bw.a0, &bw.g);
                let lin = Vec3::new(d[0] as f32, d[1] as f32, d[2] as f32);
                let ang = Vec3::new(d[3] as f32, d[4] as f32, d[5] as f32);
                b.x += lin;
                if ang != Vec3::ZERO && b.inv_inertia != Vec3::ZERO {
                    b.rotate_by(ang);
                }
                continue;
            }
            let g = &bw.g;
            let lin = Vec3::new(g[0] as f32, g[1] as f32, g[2] as f32);
            let ang = Vec3::new(g[3] as f32, g[4] as f32, g[5] as f32);
            if lin != Vec3::ZERO && b.inv_mass != 0.0 {
                b.x += lin * b.inv_mass;
            }
            if ang != Vec3::ZERO && b.inv_inertia != Vec3::ZERO {
                b.apply_angular(ang);
            }
        }
        moved = true;
    }
    moved
}
