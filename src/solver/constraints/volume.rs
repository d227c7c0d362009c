//! Tetrahedral volume constraints by XPBD (Macklin, Müller, Chentanez 2016; the constraint of
//! Müller et al. 2020's soft bodies and of Jolt's `Volume` constraint).
//!
//! A tetrahedron `(a, b, c, d)` has signed volume `V = (b − a)·((c − a) × (d − a)) / 6`,
//! positive in its rest orientation. Its constraint is `C = V − V₀ s³` (`s` the body's
//! uniform scale) with gradients `∇_b V = (c − a) × (d − a)/6`, `∇_c V = (d − a) × (b − a)/6`,
//! `∇_d V = (b − a) × (c − a)/6`, `∇_a V = −(∇_b + ∇_c + ∇_d)`, and the one Lagrange update
//! `Δλ = (−C − α̃λ) / (Σ wᵢ|∇ᵢV|² + α̃)`, `xᵢ += wᵢ ∇ᵢV Δλ`, with `α̃ = α/h²` and the
//! compliance `α` in m³/(N·m) — 0 keeps every tetrahedron's volume. The gradients sum to
//! zero and the corrections are parallel to them weighted by inverse mass, so a pass moves no
//! centre of mass; an inverted tetrahedron (`V < 0`) is pushed back through zero to `V₀`,
//! not towards `−V₀`, so a crushed body recovers its orientation.

use crate::math::Vec3;

/// Cooked tetrahedra of one body design.
#[derive(Clone, Debug, Default)]
pub struct Tets {
    pub index: Vec<[u32; 4]>,
    /// Rest volumes (m³), positive.
    pub rest: Vec<f32>,
}

/// Signed volume of the tetrahedron `(a, b, c, d)`.
#[inline]
pub fn signed_volume(a: Vec3, b: Vec3, c: Vec3, d: Vec3) -> f32 {
    (b - a).dot((c - a).cross(d - a)) / 6.0
}

impl Tets {
    pub fn len(&self) -> usize {
        self.index.len()
    }

    pub fn is_empty(&self) -> bool {
        self.index.is_empty()
    }

    /// Sum of the signed volumes at positions `x` (m³).
    pub fn volume(&self, x: &[Vec3]) -> f32 {
        self.index.iter().map(|t| signed_volume(x[t[0] as usize], x[t[1] as usize], x[t[2] as usize], x[t[3] as usize])).sum()
    }

    /// Sum of the rest volumes (m³).
    pub fn rest_volume(&self) -> f32 {
        self.rest.iter().sum()
    }
}

/// One pass over every tetrahedron, in order (Gauss–Seidel), with multipliers `lambda`
/// (zeroed by the caller each substep) and `alpha_tilde = α/h²`; `scale` the body's scale.
pub fn solve(x: &mut [Vec3], w: &[f32], tets: &Tets, lambda: &mut [f32], alpha_tilde: f32, scale: f32) {
    let s3 = scale * scale * scale;
    for (k, t) in tets.index.iter().enumerate() {
        let [a, b, c, d] = t.map(|i| i as usize);
        let (xa, xb, xc, xd) = (x[a], x[b], x[c], x[d]);
        let gb = (xc - xa).cross(xd - xa) / 6.0;
        let gc = (xd - xa).cross(xb - xa) / 6.0;
        let gd = (xb - xa).cross(xc - xa) / 6.0;
        let ga = -(gb + gc + gd);
        let vol = (xb - xa).dot(gb);
        let c_val = vol - tets.rest[k] * s3;
        let den = w[a] * ga.length_squared() + w[b] * gb.length_squared() + w[c] * gc.length_squared() + w[d] * gd.length_squared() + alpha_tilde;
        if den <= 1e-30 {
            continue;
        }
        let dl = (-c_val - alpha_tilde * lambda[k]) / den;
        lambda[k] += dl;
        x[a] += ga * (w[a] * dl);
        x[b] += gb * (w[b] * dl);
        x[c] += gc * (w[c] * dl);
        x[d] += gd * (w[d] * dl);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_squeezed_tetrahedron_returns_to_its_volume_and_keeps_its_centre() {
        let rest = [Vec3::ZERO, Vec3::X, Vec3::Y, Vec3::Z];
        let tets = Tets { index: vec![[0, 1, 2, 3]], rest: vec![signed_volume(rest[0], rest[1], rest[2], rest[3])] };
        let mut x = rest.map(|p| p * Vec3::new(1.0, 0.5, 1.0)).to_vec();
        let w = [1.0, 2.0, 0.5, 1.0];
        let mass_centre = |x: &[Vec3]| x.iter().zip(w).map(|(p, w)| *p / w).sum::<Vec3>();
        let before = mass_centre(&x);
        let mut lambda = [0.0];
        for _ in 0..20 {
            solve(&mut x, &w, &tets, &mut lambda, 0.0, 1.0);
        }
        assert!((tets.volume(&x) - tets.rest[0]).abs() < 1e-6 * tets.rest[0], "volume {} of {}", tets.volume(&x), tets.rest[0]);
        assert!((mass_centre(&x) - before).length() < 1e-6);
    }

    #[test]
    fn an_inverted_tetrahedron_comes_back_the_right_way_round() {
        let rest = [Vec3::ZERO, Vec3::X, Vec3::Y, Vec3::Z];
        let tets = Tets { index: vec![[0, 1, 2, 3]], rest: vec![1.0 / 6.0] };
        let mut x = rest.to_vec();
        x[3] = Vec3::new(0.2, 0.2, -0.3);
        assert!(tets.volume(&x) < 0.0);
        let mut lambda = [0.0];
        for _ in 0..50 {
            solve(&mut x, &[1.0; 4], &tets, &mut lambda, 0.0, 1.0);
        }
        assert!((tets.volume(&x) - 1.0 / 6.0).abs() < 1e-5, "volume {}", tets.volume(&x));
    }
}
