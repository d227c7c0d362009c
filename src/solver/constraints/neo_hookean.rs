//! Solids by Young's modulus and Poisson's ratio: a stable Neo-Hookean material on the
//! tetrahedra of a soft body, as two XPBD constraints per tetrahedron (Macklin & Müller 2021,
//! "A Constraint-based Formulation of Stable Neo-Hookean Materials"; the energy is Smith,
//! de Goes, Kim 2018's "Stable Neo-Hookean Flesh Simulation" without its log term).
//!
//! **Deformation.** A tetrahedron `(a, b, c, d)` has the edge matrix `Ds = [b − a, c − a,
//! d − a]` (columns) now and `Dm` at rest; its deformation gradient is `F = Ds Dm⁻¹ / s`
//! (`s` the body's uniform scale: a body scaled by `s` is at rest at `Ds = s Dm`), and its
//! rest volume `V₀ s³`. `Dm⁻¹` and `V₀` are cooked from the rest positions
//! ([`Solids::build`]).
//!
//! **Energy.** Per unit rest volume `Ψ = μ/2 (tr FᵀF − 3) + λ/2 (det F − γ)²` with
//! `γ = 1 + μ/λ`, so that the rest shape (`F = I`) is free of stress (`∂Ψ/∂F = μF +
//! λ(J − γ) cof F = (μ − μ) I = 0`) and an inverted tetrahedron (`det F < 0`) is pushed back
//! through zero towards `γ`, not to `−γ`: the energy has no second minimum when inside out.
//! The two terms are the two constraints, each of XPBD energy `½ C²/α`:
//!
//! - deviatoric `C_D = √(tr FᵀF)`, compliance `α_D = 1/(μ V₀ s³)`; `∂C_D/∂F = F / C_D`;
//! - hydrostatic `C_H = det F − γ`, compliance `α_H = 1/(λ V₀ s³)`; `∂C_H/∂F = cof F =
//!   [f₁ × f₂, f₂ × f₀, f₀ × f₁]` (`fᵢ` the columns of `F`).
//!
//! The particles' gradients are `[∇_b, ∇_c, ∇_d] = (∂C/∂F) (Dm⁻¹/s)ᵀ` and `∇_a = −(∇_b +
//! ∇_c + ∇_d)`: they sum to zero and the corrections are `wᵢ ∇ᵢ Δλ`, so a pass moves no
//! centre of mass (internal forces; `tests/neo_hookean.rs` spins a free cube and keeps its
//! momentum to round-off). Both constraints of a tetrahedron are solved together, the 2 × 2
//! system of Macklin & Müller's §5 (`[∇C_D·W∇C_D + α̃_D, ∇C_D·W∇C_H; ·, ∇C_H·W∇C_H + α̃_H]
//! [Δλ_D, Δλ_H] = [−C_D − α̃_D λ_D, −C_H − α̃_H λ_H]`, `α̃ = α/h²`), then the next tetrahedron
//! (Gauss–Seidel), the multipliers restarting at each substep like every other group's.
//! Why coupled: at the rest shape the two gradients are parallel and the two constraints pull
//! against each other with large multipliers (`C_D = √3` balanced by `C_H = −μ/λ`); solved
//! one after the other, projection alone (no inertia) stops where their corrections cancel,
//! short of the rest shape (`det F` 0.991, `tr FᵀF` 3.09 for a 0.1 m tetrahedron of 1 kg
//! corners at E = 1e5 Pa, 1/60 s), while the coupled solve reaches it (`tests` below). In the
//! dynamic tests the two agree: the hanging bar's sections within 0.3 % of each other, the
//! crushed block 96.34 % of its volume either way.
//!
//! **Stiffness and the substep.** The solve is a Gauss–Newton step per tetrahedron; it holds
//! while the substep resolves the material, `w |∇C|² ≲ α̃` — a pressure wave of speed
//! `√((λ + μ)/ρ)` crosses well under a cell per substep. Far beyond (the tetrahedron above at
//! E = 1e6 Pa, where `w |∇C_D|²/α̃_D ≈ 2`) projection alone oscillates instead of settling;
//! below the bound a crushed block of ν = 0.49 keeps its volume to the law (docs/materials.md,
//! "Substeps"; 96.3 % at `c h = d/5`, 86 % at `c h = 0.8 d`).
//!
//! **Cost.** One 3 × 3 product for `F`, its cofactor and two gradient products, a 2 × 2 solve
//! per tetrahedron and pass. Measured once (release, one thread, a shared 2-core machine): an
//! 11³ lattice of 6000 tetrahedra, 8 substeps × 1 pass, steps a frame in 5.4 ms as a
//! Neo-Hookean solid against 3.7 ms with what it replaces (volume constraints, shape
//! matching, distance constraints to all 26 neighbours): at most 113 ns per tetrahedron and
//! pass, every other stage of the step included.
//!
//! **Lamé parameters.** From Young's modulus `E` and Poisson's ratio `ν` the textbook
//! `μ = E/(2(1 + ν))`, `λ_L = Eν/((1 + ν)(1 − 2ν))`; the energy's `λ` is `λ_L + μ`
//! ([`lame`]). Expanded about the rest shape, the energy above is linear elasticity with
//! Lamé parameters `μ` and `λ − μ` (the `−μ (J − 1)` inside the hydrostatic term takes `μ`
//! off): so `λ = λ_L + μ` makes `E` and `ν` mean what they mean for small strains — a bar's
//! initial slope of stress over stretch is `E` — and keeps `ν = 0` finite (`λ_L = 0` would
//! make `γ` infinite). Smith et al. 2018 (§3.4) reparametrize the same way.
//!
//! **Uniaxial tension** (the law `tests/neo_hookean.rs` checks): `F = diag(σ, τ, τ)`, the
//! lateral stress `μτ + λ(J − γ)στ = 0` gives `τ² = (γσ − μ/λ)/σ²` and the nominal stress
//! (force over rest area) `P(σ) = μ (σ − τ²/σ) = μ (σ − (γσ − μ/λ)/σ³)` ([`uniaxial_stress`]),
//! of slope `μ(3λ − μ)/λ = E` at `σ = 1`.

use crate::math::Vec3;
use glam::Mat3;

/// The Lamé parameters `(μ, λ)` of the energy (module docs) for Young's modulus `e` (Pa) and
/// Poisson's ratio `nu` (< 0.5): `μ = E/(2(1 + ν))`, `λ = Eν/((1 + ν)(1 − 2ν)) + μ`.
pub fn lame(e: f32, nu: f32) -> (f32, f32) {
    let (e, nu) = (e as f64, nu as f64);
    let mu = e / (2.0 * (1.0 + nu));
    let lambda = e * nu / ((1.0 + nu) * (1.0 - 2.0 * nu)) + mu;
    (mu as f32, lambda as f32)
}

/// Nominal stress (Pa, force over rest area) of the material pulled along one axis to
/// stretch `sigma`, free across it (module docs). Zero at `sigma = 1`, slope `E` there.
pub fn uniaxial_stress(e: f64, nu: f64, sigma: f64) -> f64 {
    let mu = e / (2.0 * (1.0 + nu));
    let lambda = e * nu / ((1.0 + nu) * (1.0 - 2.0 * nu)) + mu;
    let gamma = 1.0 + mu / lambda;
    mu * (sigma - (gamma * sigma - mu / lambda) / sigma.powi(3))
}

/// A body's Neo-Hookean tetrahedra (per instance: built when its material asks for it):
/// per tetrahedron `Dm⁻¹` at rest and the two multipliers `[λ_D, λ_H]`.
#[derive(Clone, Debug, Default)]
pub struct Solids {
    pub dm_inv: Vec<Mat3>,
    pub lambda: Vec<[f32; 2]>,
}

impl Solids {
    /// `Dm⁻¹` of every tetrahedron of `index` at the rest positions `rest` (all positive:
    /// the cookers store them so).
    pub fn build(rest: &[Vec3], index: &[[u32; 4]]) -> Solids {
        let dm_inv = index
            .iter()
            .map(|t| {
                let [a, b, c, d] = t.map(|i| rest[i as usize]);
                Mat3::from_cols(b - a, c - a, d - a).inverse()
            })
            .collect();
        Solids { dm_inv, lambda: vec![[0.0; 2]; index.len()] }
    }

    pub fn len(&self) -> usize {
        self.dm_inv.len()
    }

    pub fn is_empty(&self) -> bool {
        self.dm_inv.is_empty()
    }
}

/// The material of one pass: Lamé parameters (Pa), `γ`, the substep and the body's scale.
#[derive(Clone, Copy, Debug)]
pub struct SolidParams {
    pub mu: f32,
    pub lambda: f32,
    pub h: f32,
    pub scale: f32,
    /// Both constraints of a tetrahedron as one 2 × 2 system (else one after the other).
    pub coupled: bool,
}

impl SolidParams {
    pub fn new(youngs_modulus: f32, poisson_ratio: f32, h: f32, scale: f32) -> SolidParams {
        let (mu, lambda) = lame(youngs_modulus, poisson_ratio);
        SolidParams { mu, lambda, h, scale, coupled: true }
    }
}

#[inline]
fn cofactor(f: Mat3) -> Mat3 {
    Mat3::from_cols(f.y_axis.cross(f.z_axis), f.z_axis.cross(f.x_axis), f.x_axis.cross(f.y_axis))
}

/// The particles' gradients `[∇_a, ∇_b, ∇_c, ∇_d]` from `∂C/∂F` and `Q = Dm⁻¹/s`.
#[inline]
fn gradients(dc_df: Mat3, q: Mat3) -> [Vec3; 4] {
    let g = dc_df * q.transpose();
    [-(g.x_axis + g.y_axis + g.z_axis), g.x_axis, g.y_axis, g.z_axis]
}

/// One Gauss–Seidel pass over every tetrahedron of `index` (the soft shape's, in order) with
/// `solids`' rest data and multipliers (zeroed by the caller each substep).
pub fn solve(x: &mut [Vec3], w: &[f32], index: &[[u32; 4]], rest_volume: &[f32], solids: &mut Solids, p: &SolidParams) {
    let s3 = p.scale * p.scale * p.scale;
    let (inv_mu, inv_lambda) = (1.0 / p.mu, 1.0 / p.lambda);
    let gamma = 1.0 + p.mu / p.lambda;
    let h2 = p.h * p.h;
    for (k, t) in index.iter().enumerate() {
        let ids = t.map(|i| i as usize);
        let ws = ids.map(|i| w[i]);
        if ws == [0.0; 4] {
            continue;
        }
        let q = solids.dm_inv[k] * (1.0 / p.scale);
        let volume = rest_volume[k] * s3;
        let (alpha_d, alpha_h) = (inv_mu / (volume * h2), inv_lambda / (volume * h2));
        let f = |x: &[Vec3]| {
            let xa = x[ids[0]];
            Mat3::from_cols(x[ids[1]] - xa, x[ids[2]] - xa, x[ids[3]] - xa) * q
        };
        let weigh = |g: &[Vec3; 4], u: &[Vec3; 4]| (0..4).map(|j| ws[j] * g[j].dot(u[j])).sum::<f32>();
        let lam = &mut solids.lambda[k];
        if p.coupled {
            let fm = f(x);
            let c_d = (fm.x_axis.length_squared() + fm.y_axis.length_squared() + fm.z_axis.length_squared()).sqrt();
            if !(c_d > 1e-9) {
                continue;
            }
            let gd = gradients(fm * (1.0 / c_d), q);
            let gh = gradients(cofactor(fm), q);
            let c_h = fm.determinant() - gamma;
            let (a11, a12, a22) = (weigh(&gd, &gd) + alpha_d, weigh(&gd, &gh), weigh(&gh, &gh) + alpha_h);
            let (r1, r2) = (-c_d - alpha_d * lam[0], -c_h - alpha_h * lam[1]);
            let det = a11 * a22 - a12 * a12;
            if !(det > 0.0) {
                continue;
            }
            let dl_d = (r1 * a22 - a12 * r2) / det;
            let dl_h = (a11 * r2 - a12 * r1) / det;
            lam[0] += dl_d;
            lam[1] += dl_h;
            for j in 0..4 {
                x[ids[j]] += (gd[j] * dl_d + gh[j] * dl_h) * ws[j];
            }
        } else {
            let fm = f(x);
            let c_d = (fm.x_axis.length_squared() + fm.y_axis.length_squared() + fm.z_axis.length_squared()).sqrt();
            if c_d > 1e-9 {
                let gd = gradients(fm * (1.0 / c_d), q);
                let dl = crate::solver::xpbd::delta_lambda(c_d, weigh(&gd, &gd), alpha_d, lam[0]);
                lam[0] += dl;
                for j in 0..4 {
                    x[ids[j]] += gd[j] * (ws[j] * dl);
                }
            }
            let fm = f(x);
            let gh = gradients(cofactor(fm), q);
            // (Nothing moves when no corner can: the update is then 0.)
            let dl = crate::solver::xpbd::delta_lambda(fm.determinant() - gamma, weigh(&gh, &gh), alpha_h, lam[1]);
            lam[1] += dl;
            for j in 0..4 {
                x[ids[j]] += gh[j] * (ws[j] * dl);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tet() -> ([Vec3; 4], Solids, f32) {
        let rest = [Vec3::ZERO, Vec3::new(0.1, 0.0, 0.0), Vec3::new(0.0, 0.1, 0.0), Vec3::new(0.0, 0.0, 0.1)];
        let s = Solids::build(&rest, &[[0, 1, 2, 3]]);
        (rest, s, 0.1f32.powi(3) / 6.0)
    }

    /// `∂C/∂x` through `F` agrees with central differences of `C(x)`, for both constraints.
    #[test]
    fn the_gradients_are_the_constraints() {
        let (rest, s, _) = tet();
        let q = s.dm_inv[0] * (1.0 / 1.3);
        let x = [Vec3::new(0.01, -0.02, 0.0), Vec3::new(0.12, 0.01, 0.02), Vec3::new(-0.01, 0.09, 0.03), Vec3::new(0.02, 0.0, 0.13)];
        let _ = rest;
        let fm = |x: &[Vec3; 4]| Mat3::from_cols(x[1] - x[0], x[2] - x[0], x[3] - x[0]) * q;
        let cd = |x: &[Vec3; 4]| {
            let f = fm(x);
            (f.x_axis.length_squared() + f.y_axis.length_squared() + f.z_axis.length_squared()).sqrt()
        };
        let ch = |x: &[Vec3; 4]| fm(x).determinant();
        let f = fm(&x);
        let gd = gradients(f * (1.0 / cd(&x)), q);
        let gh = gradients(cofactor(f), q);
        for (g, c) in [(gd, &cd as &dyn Fn(&[Vec3; 4]) -> f32), (gh, &ch)] {
            assert!((g[0] + g[1] + g[2] + g[3]).length() < 1e-3 * g[1].length(), "gradients sum to {}", g[0] + g[1] + g[2] + g[3]);
            for j in 0..4 {
                for axis in 0..3 {
                    let eps = 1e-4;
                    let (mut plus, mut minus) = (x, x);
                    plus[j][axis] += eps;
                    minus[j][axis] -= eps;
                    let fd = (c(&plus) - c(&minus)) / (2.0 * eps);
                    assert!((fd - g[j][axis]).abs() < 2e-2 * (1.0 + fd.abs()), "particle {j} axis {axis}: {} vs {fd}", g[j][axis]);
                }
            }
        }
    }

    #[test]
    fn rest_is_free_of_stress_and_the_uniaxial_slope_is_e() {
        let (rest, mut s, v) = tet();
        let mut x = rest.to_vec();
        for coupled in [true, false] {
            let p = SolidParams { coupled, ..SolidParams::new(1e5, 0.3, 1e-3, 1.0) };
            for _ in 0..10 {
                solve(&mut x, &[1.0; 4], &[[0, 1, 2, 3]], &[v], &mut s, &p);
            }
            for (a, b) in x.iter().zip(&rest) {
                assert!((*a - *b).length() < 1e-6, "{a} moved from {b}");
            }
        }
        for nu in [0.0, 0.3, 0.49] {
            let e = 1e4;
            let slope = (uniaxial_stress(e, nu, 1.0 + 1e-6) - uniaxial_stress(e, nu, 1.0 - 1e-6)) / 2e-6;
            assert!((slope / e - 1.0).abs() < 1e-4, "ν = {nu}: slope {slope}");
        }
    }

    /// Inside out, the tetrahedron comes back to its rest shape, the right way round, and
    /// its centre of mass stays where it was (both constraints coupled; one after the other
    /// it comes back the right way round, short of the rest shape).
    #[test]
    fn an_inverted_tetrahedron_recovers() {
        for coupled in [true, false] {
            let (rest, mut s, v) = tet();
            let mut x = rest.to_vec();
            x[3] = Vec3::new(0.02, 0.02, -0.05);
            let w = [1.0, 2.0, 0.5, 1.0];
            let centre = |x: &[Vec3]| x.iter().zip(w).map(|(p, w)| *p / w).sum::<Vec3>();
            let before = centre(&x);
            // Projection alone (no inertia), 1 kg particles on a 0.1 m tetrahedron.
            let p = SolidParams { coupled, ..SolidParams::new(1e5, 0.3, 1.0 / 60.0, 1.0) };
            for _ in 0..500 {
                s.lambda.fill([0.0; 2]);
                solve(&mut x, &w, &[[0, 1, 2, 3]], &[v], &mut s, &p);
            }
            let f = Mat3::from_cols(x[1] - x[0], x[2] - x[0], x[3] - x[0]) * s.dm_inv[0];
            // Back at a rotation of the rest shape: FᵀF = I.
            let c = f.transpose() * f;
            if coupled {
                assert!((f.determinant() - 1.0).abs() < 1e-4 && (c - Mat3::IDENTITY).abs_diff_eq(Mat3::ZERO, 1e-3), "F = {f}");
            } else {
                // One after the other, the pass stops short of the rest shape where the two
                // constraints' corrections cancel (det F 0.991, tr FᵀF 3.09 here).
                assert!(f.determinant() > 0.95 && (c.diagonal().element_sum() - 3.0).abs() < 0.2, "one after the other: F = {f}");
            }
            assert!((centre(&x) - before).length() < 1e-5, "the centre moved by {}", (centre(&x) - before).length());
        }
    }
}
