//! Membrane stiffness in N/m: a strain energy per triangle, along the cloth's threads
//! (Baraff & Witkin 1998, "Large Steps in Cloth Simulation", §4.2, written as XPBD
//! constraints). A woven fabric is stiff along its two thread directions (warp and weft)
//! and soft in the shear between them; that is what a tensile and a shear test of a fabric
//! measure (Kawabata's evaluation system), and what `Material::stretch_stiffness` and
//! `shear_stiffness` mean.
//!
//! **Why triangles, not edge springs (measured).** An edge spring's stiffness can be scaled
//! by the area it stands for, but the scale differs for edges on a border (half the area)
//! and with the mesh's pattern, the diagonals add to the tensile stiffness whatever is asked
//! of shear, and the grid kernels solve one compliance per constraint class, so a per-edge
//! one would cost every cloth. Side by side on a 0.1 m × 1 m strip hanging under its own
//! weight (0.5 kg/m², 100 N/m, solved to convergence at 8 substeps × 32 passes), against the
//! law `ρ g L²/(2k)` at 10 / 5 / 2.5 / 1.25 cm: edge springs of compliance `1/k` (diagonals
//! 0.1 m/N) −52 / −37 / −26 / −17 % (too stiff, and differently at every spacing); these
//! triangles −0.06 / +0.11 / −0.08 / −0.11 %. A triangle's energy is its own area times a
//! density, the same at any resolution, on a border and on any triangulation.
//!
//! **The constraints.** A triangle's rest shape is laid out in its plane with `û` the warp
//! (the thread direction the cooker gives, projected into the triangle) and `v̂ = n̂ × û`. With
//! the rest edges `Dm = [p₁ − p₀, p₂ − p₀]` in those 2D coordinates, the deformation gradient
//! is `F = [x₁ − x₀, x₂ − x₀] Dm⁻¹` (3 × 2), its columns `F_u = Σ cₖ xₖ` and `F_v = Σ dₖ xₖ`
//! (`c₁, c₂` the first column of `Dm⁻¹`, `d₁, d₂` the second, `c₀ = −c₁ − c₂`, `d₀ = −d₁ − d₂`:
//! the weights sum to zero, so no constraint moves the centre of mass). Three constraints:
//!
//! - warp `C_u = |F_u| − 1`, gradient `∇ₖ = cₖ F̂_u`, weft `C_v = |F_v| − 1`, `∇ₖ = dₖ F̂_v`:
//!   energy `½ k A C²` each with `k = stretch_stiffness` and `A` the rest area, so a tension
//!   `T` per unit width stretches the cloth by `T / k` along a thread (no Poisson coupling, as
//!   a woven fabric has little);
//! - shear `C_s = asin(F̂_u · F̂_v)`, the shear angle (π/2 less the angle between the
//!   threads), `∇ₖ = (cₖ g_u + dₖ g_v)/sin` with `g_u = (F̂_v − cos F̂_u)/|F_u|`, `g_v =
//!   (F̂_u − cos F̂_v)/|F_v|`: energy `½ G A C_s²` with `G = shear_stiffness` in N/m per
//!   radian. An angle's gradient never vanishes, so its step `C/|∇C|` stays bounded when a
//!   crumpled triangle's threads fold onto each other. The products' forms are not: with
//!   `C_s = F_u · F_v` (Baraff–Witkin's) or the cosine, a 2 m curtain at 2.5 cm in a 5 m/s
//!   wind overflowed for stretch and shear stiffness of 2000 and 20 N/m and above; with the
//!   angle it stays finite for every pair tried up to 2e4 and 2e3 N/m.
//!
//! Each is one XPBD update `Δλ = (−C − α̃λ)/(Σ wₖ|∇ₖ|² + α̃)`, `α̃ = 1/(k A h²)`, projected
//! Gauss–Seidel in the cooked order. A body's uniform scale `s` scales `Dm` by `s` and `A` by
//! `s²`. A strip of width `w` hanging from its top edge under its own weight (areal density
//! `ρ`) stretches by `ρ g L²/(2k)` — also exactly for the lumped masses of any row count —
//! which `tests/materials.rs` checks at three spacings.
//!
//! **Convergence.** The law holds where the solve has converged. One Gauss–Seidel pass per
//! substep `Δt` leaves a chain of `N` elements hanging from a pin longer than its material
//! by about `N² Δt² g / 2`, whatever its stiffness (each element is solved against its
//! neighbours' gravity-predicted positions). On the strip at the default 8 substeps × 1
//! pass: +7 / +24 / +108 / +552 % at 10 / 5 / 2.5 / 1.25 cm; at 16 × 8: −0.10 / −0.06 /
//! −0.22 / −1.07 %. Distance constraints have the same remainder, smaller where the distance
//! bend ties particles two apart (a 2 m curtain hangs 2.8 cm long at 2.5 cm, the membrane
//! 15–20 cm). Tethers (long-range attachments) remove it for a pinned cloth at any
//! resolution; more passes or substeps remove it for any (docs/materials.md).

use crate::math::Vec3;

/// The membrane constraints of a body: per triangle its particles, the weights `c₁ c₂ d₁ d₂`
/// of `F`'s columns (1/m) and its rest area (m²), and three multipliers.
#[derive(Clone, Debug, Default)]
pub struct Membranes {
    pub index: Vec<[u32; 3]>,
    pub weights: Vec<[f32; 4]>,
    pub area: Vec<f32>,
    pub lambda: Vec<[f32; 3]>,
}

impl Membranes {
    /// One element per non-degenerate triangle of `triangles` at the rest shape `rest`, with
    /// the warp `warp` projected into each triangle (where it is nearly along the normal, the
    /// triangle's first edge).
    pub fn build(rest: &[Vec3], triangles: &[[u32; 3]], warp: Vec3) -> Membranes {
        let mut m = Membranes::default();
        for t in triangles {
            let [p0, p1, p2] = t.map(|i| rest[i as usize]);
            let (e1, e2) = (p1 - p0, p2 - p0);
            let n = e1.cross(e2);
            let area = 0.5 * n.length();
            if !(area > 1e-14) {
                continue;
            }
            let n = n.normalize();
            let mut u = warp - n * warp.dot(n);
            if u.length_squared() < 1e-4 * warp.length_squared().max(1e-30) {
                u = e1;
            }
            let u = u.normalize();
            let v = n.cross(u);
            // Dm = [[a, b], [c, d]] with columns the edges' (u, v) coordinates.
            let (a, c) = (e1.dot(u), e1.dot(v));
            let (b, d) = (e2.dot(u), e2.dot(v));
            let det = a * d - b * c;
            if !(det.abs() > 1e-14) {
                continue;
            }
            // Dm⁻¹ = [[d, −b], [−c, a]] / det: first column (c₁, c₂), second (d₁, d₂).
            m.index.push(*t);
            m.weights.push([d / det, -c / det, -b / det, a / det]);
            m.area.push(area);
        }
        m.lambda = vec![[0.0; 3]; m.index.len()];
        m
    }

    pub fn len(&self) -> usize {
        self.index.len()
    }

    pub fn is_empty(&self) -> bool {
        self.index.is_empty()
    }
}

/// One XPBD update of the constraint `c` with gradients `g` on particles `i`; returns the
/// multiplier's increment (0 where it is not finite: a degenerate or overflowing element).
#[inline(always)]
fn update(x: &mut [Vec3], w: [f32; 3], i: [usize; 3], g: [Vec3; 3], c: f32, alpha_tilde: f32, lambda: &mut f32) {
    let w_sum = w[0] * g[0].length_squared() + w[1] * g[1].length_squared() + w[2] * g[2].length_squared();
    let dl = crate::solver::xpbd::delta_lambda(c, w_sum, alpha_tilde, *lambda);
    if !dl.is_finite() {
        return;
    }

    *lambda += dl;
    for k in 0..3 {
        x[i[k]] += g[k] * (w[k] * dl);
    }
}

/// One Gauss–Seidel pass over every triangle of `m` (multipliers accumulate in `m.lambda`;
/// zero them at each substep's start): stretch and shear stiffness in N/m, substep `h`,
/// the body's uniform scale `scale`.
pub fn solve(x: &mut [Vec3], w: &[f32], m: &mut Membranes, stretch: f32, shear: f32, h: f32, scale: f32) {
    let inv_scale = 1.0 / scale;
    let area_scale = scale * scale;
    let h2 = h * h;
    for k in 0..m.index.len() {
        let i = m.index[k].map(|i| i as usize);
        let ws = [w[i[0]], w[i[1]], w[i[2]]];
        let [c1, c2, d1, d2] = m.weights[k].map(|q| q * inv_scale);
        let cw = [-c1 - c2, c1, c2];
        let dw = [-d1 - d2, d1, d2];
        let area = m.area[k] * area_scale;
        let lambda = &mut m.lambda[k];
        if stretch > 0.0 {
            let alpha_tilde = 1.0 / (stretch * area * h2);
            for (axis, q) in [cw, dw].into_iter().enumerate() {
                let f = x[i[0]] * q[0] + x[i[1]] * q[1] + x[i[2]] * q[2];
                let len = f.length();
                if !(len > 1e-12) {
                    continue;
                }
                let n = f / len;
                update(x, ws, i, [n * q[0], n * q[1], n * q[2]], len - 1.0, alpha_tilde, &mut lambda[axis]);
            }
        }
        if shear > 0.0 {
            let alpha_tilde = 1.0 / (shear * area * h2);
            let fu = x[i[0]] * cw[0] + x[i[1]] * cw[1] + x[i[2]] * cw[2];
            let fv = x[i[0]] * dw[0] + x[i[1]] * dw[1] + x[i[2]] * dw[2];
            let (lu, lv) = (fu.length(), fv.length());
            if !(lu > 1e-12 && lv > 1e-12) {
                continue;
            }
            let (nu, nv) = (fu / lu, fv / lv);
            let cos = nu.dot(nv).clamp(-1.0, 1.0);
            let sin = (1.0 - cos * cos).max(1e-12).sqrt();
            let gu = (nv - nu * cos) / (lu * sin);
            let gv = (nu - nv * cos) / (lv * sin);
            let g = [gu * cw[0] + gv * dw[0], gu * cw[1] + gv * dw[1], gu * cw[2] + gv * dw[2]];
            update(x, ws, i, g, cos.asin(), alpha_tilde, &mut lambda[2]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strains(x: &[Vec3], m: &Membranes, k: usize) -> (f32, f32, f32) {
        let i = m.index[k].map(|i| i as usize);
        let [c1, c2, d1, d2] = m.weights[k];
        let fu = x[i[0]] * (-c1 - c2) + x[i[1]] * c1 + x[i[2]] * c2;
        let fv = x[i[0]] * (-d1 - d2) + x[i[1]] * d1 + x[i[2]] * d2;
        (fu.length() - 1.0, fv.length() - 1.0, fu.dot(fv))
    }

    /// At rest every constraint is 0; stretched along the warp by 10 %, only the warp's
    /// constraint reads 0.1; sheared by moving the top along the warp, only shear reads (here
    /// as the cosine between the threads, the sine of the shear angle).
    #[test]
    fn the_deformation_gradient_reads_the_threads() {
        let rest = [Vec3::ZERO, Vec3::new(0.3, 0.0, 0.0), Vec3::new(0.1, 0.0, 0.2)];
        let m = Membranes::build(&rest, &[[0, 1, 2]], Vec3::X);
        let (u, v, s) = strains(&rest, &m, 0);
        assert!(u.abs() < 1e-6 && v.abs() < 1e-6 && s.abs() < 1e-6, "{u} {v} {s}");
        let stretched = rest.map(|p| Vec3::new(p.x * 1.1, p.y, p.z));
        let (u, v, s) = strains(&stretched, &m, 0);
        assert!((u - 0.1).abs() < 1e-5 && v.abs() < 1e-6 && s.abs() < 1e-6, "{u} {v} {s}");
        let sheared = rest.map(|p| Vec3::new(p.x + 0.05 * p.z, p.y, p.z));
        let (_, _, s) = strains(&sheared, &m, 0);
        // F_u = (1, 0, 0), F_v = ±(0.05, 0, 1): the cosine between them is the shear.
        assert!((s.abs() - 0.05).abs() < 1e-5, "{s}");
    }

    /// The warp is projected into a tilted triangle, and the weights sum to zero.
    #[test]
    fn weights_sum_to_zero_on_any_triangle() {
        let rest = [Vec3::new(0.1, 0.2, 0.3), Vec3::new(0.5, -0.1, 0.4), Vec3::new(0.2, 0.6, -0.2)];
        let m = Membranes::build(&rest, &[[0, 1, 2]], Vec3::X);
        let (u, v, s) = strains(&rest, &m, 0);
        assert!(u.abs() < 1e-5 && v.abs() < 1e-5 && s.abs() < 1e-5, "{u} {v} {s}");
    }

    /// A stretched, sheared triangle of unequal masses relaxes without moving its centre of
    /// mass (internal forces).
    #[test]
    fn a_solve_moves_no_centre_of_mass() {
        let rest = [Vec3::ZERO, Vec3::new(0.3, 0.0, 0.0), Vec3::new(0.1, 0.0, 0.2)];
        let mut m = Membranes::build(&rest, &[[0, 1, 2]], Vec3::X);
        let mut x = [Vec3::new(0.01, 0.02, 0.0), Vec3::new(0.4, 0.0, 0.05), Vec3::new(0.2, 0.03, 0.25)];
        let w = [1.0, 0.5, 2.0];
        let com = |x: &[Vec3]| (0..3).map(|k| x[k] / w[k]).fold(Vec3::ZERO, |a, b| a + b);
        let before = com(&x);
        // Substeps without inertia: the multipliers start from 0 each time.
        for _ in 0..200 {
            m.lambda.fill([0.0; 3]);
            solve(&mut x, &w, &mut m, 1e3, 1e2, 1.0 / 60.0, 1.0);
        }
        assert!((com(&x) - before).length() < 1e-5, "{:?} → {:?}", before, com(&x));
        let (u, v, s) = strains(&x, &m, 0);
        assert!(u.abs() < 0.02 && v.abs() < 0.02 && s.abs() < 0.05, "{u} {v} {s}");
    }

    /// The shear angle's gradient as `solve` forms it, against central differences.
    #[test]
    fn the_shear_gradient_is_the_angles() {
        let rest = [Vec3::ZERO, Vec3::new(0.3, 0.0, 0.0), Vec3::new(0.1, 0.0, 0.2)];
        let m = Membranes::build(&rest, &[[0, 1, 2]], Vec3::X);
        let [c1, c2, d1, d2] = m.weights[0];
        let (cw, dw) = ([-c1 - c2, c1, c2], [-d1 - d2, d1, d2]);
        let angle = |x: &[Vec3; 3]| {
            let fu = x[0] * cw[0] + x[1] * cw[1] + x[2] * cw[2];
            let fv = x[0] * dw[0] + x[1] * dw[1] + x[2] * dw[2];
            fu.normalize().dot(fv.normalize()).asin()
        };
        let x = [Vec3::new(0.01, 0.02, -0.01), Vec3::new(0.33, 0.05, 0.04), Vec3::new(0.18, -0.03, 0.21)];
        let fu = x[0] * cw[0] + x[1] * cw[1] + x[2] * cw[2];
        let fv = x[0] * dw[0] + x[1] * dw[1] + x[2] * dw[2];
        let (lu, lv) = (fu.length(), fv.length());
        let (nu, nv) = (fu / lu, fv / lv);
        let cos = nu.dot(nv);
        let sin = (1.0 - cos * cos).sqrt();
        let (gu, gv) = ((nv - nu * cos) / (lu * sin), (nu - nv * cos) / (lv * sin));
        for k in 0..3 {
            let g = gu * cw[k] + gv * dw[k];
            for axis in 0..3 {
                let eps = 1e-3;
                let (mut plus, mut minus) = (x, x);
                plus[k][axis] += eps;
                minus[k][axis] -= eps;
                let fd = (angle(&plus) - angle(&minus)) / (2.0 * eps);
                assert!((fd - g[axis]).abs() < 2e-3 * (1.0 + fd.abs()), "particle {k}, axis {axis}: {} vs {fd}", g[axis]);
            }
        }
    }
}
