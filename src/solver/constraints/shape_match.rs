//! Shape matching (Müller, Heidelberger, Teschner, Gross 2005, "Meshless Deformations Based
//! on Shape Matching"), the chapter's section 9 finished.
//!
//! A cluster is a set of particles with rest offsets `qᵢ` from their rest centre (equal
//! masses: a soft body's particles share one mass). Each pass: the centre `c = Σxᵢ/n`, the
//! moment matrix `A = Σ (xᵢ − c) qᵢᵀ`, its rotational part `R` (below), the goals
//! `gᵢ = c + R qᵢ` — the chapter's "centre of mass + rotation × rest offset" — and every free
//! particle moves `k` of the way there. Since `Σ qᵢ = 0` the moves sum to zero (the centre
//! of mass stays) and, `R` being the polar rotation of `A` (`A Rᵀ` symmetric), their moments
//! about the centre sum to zero: linear and angular momentum are kept for any `k`.
//!
//! **The rotation** is extracted as Müller, Bender, Chentanez, Macklin 2016 ("A Robust
//! Method to Extract the Rotational Part of Deformations") do: starting from the cluster's
//! last rotation, turn it by `ω = Σ rⱼ × aⱼ / (|Σ rⱼ · aⱼ| + ε)` (columns of `R` and `A`) until
//! `ω` vanishes. It needs no eigen- or singular-value decomposition, stays a rotation for
//! flat, collinear or inverted clusters (where `(AᵀA)^½` has no inverse), and converges in a
//! few turns from the last substep's rotation.
//!
//! **Linear mode** (the paper's §4.2): the goals use `β·Ã + (1 − β)·R` with
//! `Ã = A A_qq⁻¹ / det(A A_qq⁻¹)^⅓` (volume kept), `A_qq = Σ qᵢ qᵢᵀ`: a body that may shear
//! and stretch a little towards the match instead of only turning.
//!
//! **Plasticity** (the paper's §4.4, as Obi has it): `S = Rᵀ A A_qq⁻¹` is the cluster's
//! deformation in its own frame; where `‖S − 1‖` exceeds `yield`, the rest offsets take
//! `creep · dt` of it per second, `qᵢ ← (1 + creep·dt·(S − 1)) qᵢ` (volume kept), and stop
//! once the total deformation `‖P − 1‖` reaches `max` (`P` the accumulated plastic matrix).

use crate::math::{Mat3, Quat, Vec3};

/// Cooked clusters of one body design: particle lists (CSR) and their rest offsets.
#[derive(Clone, Debug, Default)]
pub struct Clusters {
    /// Cluster `k` is `particles[start[k]..start[k + 1]]`.
    pub start: Vec<u32>,
    pub particles: Vec<u32>,
    /// Rest offset from the cluster's rest centre, per entry of `particles`.
    pub rest: Vec<Vec3>,
    /// `A_qq⁻¹` per cluster (identity where `A_qq` is singular).
    pub aqq_inv: Vec<Mat3>,
}

impl Clusters {
    pub fn len(&self) -> usize {
        self.start.len().saturating_sub(1)
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Builds clusters from particle lists over rest positions `rest`.
    pub fn build(rest: &[Vec3], lists: &[Vec<u32>]) -> Clusters {
        let mut c = Clusters { start: vec![0], ..Default::default() };
        for list in lists {
            let centre = list.iter().map(|&i| rest[i as usize]).sum::<Vec3>() / list.len().max(1) as f32;
            let mut aqq = Mat3::ZERO;
            for &i in list {
                let q = rest[i as usize] - centre;
                c.particles.push(i);
                c.rest.push(q);
                aqq += outer(q, q);
            }
            c.aqq_inv.push(if aqq.determinant().abs() > 1e-18 { aqq.inverse() } else { Mat3::IDENTITY });
            c.start.push(c.particles.len() as u32);
        }
        c
    }
}

/// Per-instance state of the clusters: last rotations and plastic deformations.
#[derive(Clone, Debug, Default)]
pub struct ClusterState {
    pub rotation: Vec<Quat>,
    pub plastic: Vec<Mat3>,
    /// A pass's per-particle values (reused: grows once to the largest cluster).
    pub scratch: Vec<Vec3>,
}

impl ClusterState {
    pub fn new(n: usize) -> ClusterState {
        ClusterState { rotation: vec![Quat::IDENTITY; n], plastic: vec![Mat3::IDENTITY; n], scratch: Vec::new() }
    }
}

/// How the goals are formed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MatchParams {
    /// Fraction of the way to the goal per pass (already made per-substep by the caller).
    pub stiffness: f32,
    /// Linear mode's `β` (0: rigid goals).
    pub beta: f32,
    /// Plasticity: yield (‖S − 1‖), creep (1/s), max (‖P − 1‖); creep 0 is elastic.
    pub yield_strain: f32,
    pub creep: f32,
    pub max_strain: f32,
    /// Seconds this pass stands for (for the creep).
    pub dt: f32,
    /// The body's uniform scale.
    pub scale: f32,
}

#[inline]
fn outer(a: Vec3, b: Vec3) -> Mat3 {
    Mat3::from_cols(a * b.x, a * b.y, a * b.z)
}

/// The rotation of `a`'s polar decomposition, from `q` (the start, updated in place).
pub fn polar_rotation(a: &Mat3, q: &mut Quat, iterations: u32) {
    for _ in 0..iterations {
        let r = Mat3::from_quat(*q);
        let num = r.x_axis.cross(a.x_axis) + r.y_axis.cross(a.y_axis) + r.z_axis.cross(a.z_axis);
        let den = (r.x_axis.dot(a.x_axis) + r.y_axis.dot(a.y_axis) + r.z_axis.dot(a.z_axis)).abs() + 1e-9;
        let omega = num / den;
        let angle = omega.length();
        if angle < 1e-9 {
            break;
        }
        *q = (Quat::from_axis_angle(omega / angle, angle) * *q).normalize();
    }
}

/// Frobenius norm of `m − 1`.
#[inline]
fn strain(m: &Mat3) -> f32 {
    let d = *m - Mat3::IDENTITY;
    (d.x_axis.length_squared() + d.y_axis.length_squared() + d.z_axis.length_squared()).sqrt()
}

/// `m` scaled to determinant 1 (itself if that is not positive).
#[inline]
fn unit_volume(m: Mat3) -> Mat3 {
    let d = m.determinant();
    if d > 1e-12 { m * d.powf(-1.0 / 3.0) } else { m }
}

/// One pass over every cluster, in order: particles with `w > 0` move towards their goals.
pub fn solve(x: &mut [Vec3], w: &[f32], clusters: &Clusters, state: &mut ClusterState, p: &MatchParams) {
    for k in 0..clusters.len() {
        let range = clusters.start[k] as usize..clusters.start[k + 1] as usize;
        let n = range.len();
        if n == 0 {
            continue;
        }
        let idx = &clusters.particles[range.clone()];
        let rest = &clusters.rest[range];
        let plastic = state.plastic[k];
        let centre = idx.iter().map(|&i| x[i as usize]).sum::<Vec3>() / n as f32;
        let mut a = Mat3::ZERO;
        // Each particle's offset `plastic·q·scale` is taken once (kept in `scratch`), and
        // then its move towards the goal: the same values the formulas give each use.
        if state.scratch.len() < n {
            state.scratch.resize(n, Vec3::ZERO);
        }
        let offsets = &mut state.scratch[..n];
        for ((&i, q), o) in idx.iter().zip(rest).zip(offsets.iter_mut()) {
            *o = plastic * *q * p.scale;
            a += outer(x[i as usize] - centre, *o);
        }
        polar_rotation(&a, &mut state.rotation[k], 100);
        let r = Mat3::from_quat(state.rotation[k]);
        let goal_map = if p.beta > 0.0 {
            let lin = unit_volume(a * clusters.aqq_inv[k] * (1.0 / (p.scale * p.scale)));
            lin * p.beta + r * (1.0 - p.beta)
        } else {
            r
        };
        // The moves sum to zero in exact arithmetic (Σqᵢ = 0); in floats `Σqᵢ` is a few ulps,
        // the same every pass, and at 1/h a drift of the whole body. So the mean move of
        // the free particles is taken out: the moves sum to zero up to the rounding of the
        // sum, which does not add up.
        let (mut total, mut free) = (Vec3::ZERO, 0u32);
        for (&i, o) in idx.iter().zip(offsets.iter_mut()) {
            let i = i as usize;
            if w[i] > 0.0 {
                // From here on `o` is the particle's move.
                *o = (centre + goal_map * *o - x[i]) * p.stiffness;
                total += *o;
                free += 1;
            }
        }
        let mean = if free == n as u32 { total / n as f32 } else { Vec3::ZERO };
        for (&i, o) in idx.iter().zip(offsets.iter()) {
            let i = i as usize;
            if w[i] > 0.0 {
                x[i] += *o - mean;
            }
        }
        if p.creep > 0.0 {
            let s = r.transpose() * a * clusters.aqq_inv[k] * (1.0 / (p.scale * p.scale));
            let s = (s + s.transpose()) * 0.5;
            if strain(&s) > p.yield_strain && strain(&plastic) < p.max_strain {
                let step = Mat3::IDENTITY + (s - Mat3::IDENTITY) * (p.creep * p.dt).min(1.0);
                let mut next = unit_volume(step * plastic);
                let e = strain(&next);
                if e > p.max_strain {
                    next = unit_volume(Mat3::IDENTITY + (next - Mat3::IDENTITY) * (p.max_strain / e));
                }
                state.plastic[k] = next;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_polar_rotation_of_a_rotated_stretch_is_the_rotation() {
        let r = Quat::from_euler(glam::EulerRot::XYZ, 0.4, -1.1, 2.0);
        let s = Mat3::from_cols(Vec3::new(1.5, 0.1, 0.0), Vec3::new(0.1, 0.7, 0.05), Vec3::new(0.0, 0.05, 1.2));
        let a = Mat3::from_quat(r) * s;
        let mut q = Quat::IDENTITY;
        polar_rotation(&a, &mut q, 100);
        // (Compared as matrices: `angle_between` takes an arccosine near 1, good to ~1e-3 rad.)
        let d = Mat3::from_quat(q) - Mat3::from_quat(r);
        let err = d.x_axis.length() + d.y_axis.length() + d.z_axis.length();
        assert!(err < 1e-5, "{q:?} vs {r:?}: {err}");
        // A flat cluster (rank 2) still gives a rotation.
        let flat = Mat3::from_quat(r) * Mat3::from_cols(Vec3::X, Vec3::Y, Vec3::ZERO);
        let mut q = Quat::IDENTITY;
        polar_rotation(&flat, &mut q, 100);
        assert!((q.length() - 1.0).abs() < 1e-5);
        assert!((Mat3::from_quat(q) * Vec3::X - Mat3::from_quat(r) * Vec3::X).length() < 1e-3);
    }
}

#[cfg(test)]
mod momentum_tests {
    use super::*;

    #[test]
    fn a_pass_moves_no_centre_and_no_angular_momentum() {
        let mut seed = 7u32;
        let mut rnd = || {
            seed = seed.wrapping_mul(1664525).wrapping_add(1013904223);
            (seed >> 8) as f32 / (1u32 << 24) as f32 - 0.5
        };
        let rest: Vec<Vec3> = (0..60).map(|_| Vec3::new(rnd(), rnd(), rnd()) * 0.4).collect();
        let clusters = Clusters::build(&rest, &[(0..60).collect()]);
        let mut state = ClusterState::new(1);
        let overlapping = Clusters::build(&rest, &[(0..30).collect(), (20..50).collect(), (40..60).chain(0..5).collect()]);
        let mut ostate = ClusterState::new(3);
        for k in [0.1f32, 0.5, 1.0] {
            let mut x: Vec<Vec3> = rest.iter().map(|p| Quat::from_rotation_y(0.7) * *p * 1.1 + Vec3::new(rnd(), rnd(), rnd()) * 0.05 + Vec3::new(3.0, 1.0, -2.0)).collect();
            let before = x.clone();
            let params = MatchParams { stiffness: k, beta: 0.0, yield_strain: 0.1, creep: 0.0, max_strain: 0.5, dt: 1.0 / 480.0, scale: 1.0 };
            solve(&mut x, &[1.0; 60], &clusters, &mut state, &params);
            let moved: Vec3 = x.iter().zip(&before).map(|(a, b)| *a - *b).sum();
            let torque: Vec3 = x.iter().zip(&before).map(|(a, b)| b.cross(*a - *b)).sum();
            // Overlapping clusters, one after another: each keeps what it was given.
            let mut y = before.clone();
            let mut overlap_torque = 0.0f32;
            for c in 0..overlapping.len() {
                let one = Clusters {
                    start: vec![0, overlapping.start[c + 1] - overlapping.start[c]],
                    particles: overlapping.particles[overlapping.start[c] as usize..overlapping.start[c + 1] as usize].to_vec(),
                    rest: overlapping.rest[overlapping.start[c] as usize..overlapping.start[c + 1] as usize].to_vec(),
                    aqq_inv: vec![overlapping.aqq_inv[c]],
                };
                let mut st = ClusterState { rotation: vec![ostate.rotation[c]], plastic: vec![ostate.plastic[c]], scratch: Vec::new() };
                let y0 = y.clone();
                solve(&mut y, &[1.0; 60], &one, &mut st, &params);
                ostate.rotation[c] = st.rotation[0];
                let t: Vec3 = y.iter().zip(&y0).map(|(a, b)| b.cross(*a - *b)).sum();
                overlap_torque = overlap_torque.max(t.length());
            }
            // Float precision: positions of ~|x| carry ε|x| of rounding each, √n of them.
            let xmax = x.iter().map(|p| p.length()).fold(0.0f32, f32::max);
            let bound = 4.0 * f32::EPSILON * xmax * (x.len() as f32).sqrt();
            println!("k {k}: Σ moves {:.2e}, Σ x × move {:.2e} (float bound {bound:.2e})", moved.length(), torque.length());
            assert!(moved.length() < bound, "{moved}");
            assert!(torque.length() < bound * xmax, "{torque}");
            assert!(overlap_torque < bound * xmax, "a cluster of several: torque {overlap_torque}");
        }
    }
}
