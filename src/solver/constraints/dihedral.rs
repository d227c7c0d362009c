//! Bending as a bending energy: the dihedral angle across every edge shared by two triangles
//! (Bridson, Marino, Fedkiw 2003, "Simulation of Clothing with Folds and Wrinkles", §4.2, for
//! the angle's gradient; Grinspun, Hirani, Desbrun, Schröder 2003, "Discrete Shells", for its
//! stiffness). Unlike a distance constraint to the particle two over, it only resists a fold:
//! it changes no length.
//!
//! Labels as Bridson's: triangles `(x1, x3, x4)` and `(x2, x4, x3)` share the edge `x3–x4`;
//! `N1 = (x1 − x3) × (x1 − x4)`, `N2 = (x2 − x4) × (x2 − x3)`, `E = x4 − x3`. The angle is
//! `θ = atan2((n̂1 × n̂2)·Ê, n̂1·n̂2)` (0 flat, signed), and its gradient with respect to
//! `x1 … x4` is `u1 = |E| N1/|N1|²`, `u2 = |E| N2/|N2|²`,
//! `u3 = (x1 − x4)·Ê N1/|N1|² + (x2 − x4)·Ê N2/|N2|²`,
//! `u4 = −(x1 − x3)·Ê N1/|N1|² − (x2 − x3)·Ê N2/|N2|²` (they sum to zero: a bend moves no
//! centre of mass), up to the sign [`GRADIENT_SIGN`] a unit test checks against finite
//! differences.
//!
//! **Stiffness.** The energy per edge is the discrete shell's, `½ kₑ (θ − θ̄)²` with
//! `kₑ = c D |ē|²/Āₑ` (`Āₑ` the two triangles' rest area, `D` the bending stiffness in N·m):
//! `|ē|²/Āₑ` makes it the same at any resolution. `c` is set so that `D` means what a strip
//! test of a fabric measures (Kawabata's bending rigidity): a strip clamped at one end, its
//! sides free, droops `q L⁴/(8 D)` under a load `q` per area. Measured with `c = 3` (the
//! discrete shells' weight) on a clamped 0.3 m × 0.12 m plate converged in iterations
//! (`tests/materials.rs`): 5.55 / 4.75 / 4.56 mm at 6 / 3 / 1.5 cm spacing, converging as the
//! square of the spacing to 4.50 mm, 2.21 times stiffer than the law's 9.93 mm; so
//! `c = 3 / 2.21` ([`STRIP_WEIGHT`]). (Bent along one axis with its sides held, the same
//! energy is 2.67 times `½ D κ²` per area on a square grid's triangles and on equilateral
//! ones alike: the free sides' cross-curvature takes the rest.) Each edge is one XPBD
//! constraint `C = θ − θ̄` of compliance `1/kₑ`, projected Gauss–Seidel in the cooked order.

use crate::math::{FastMap, Vec3};

/// The sign that makes `u1 … u4` the gradient of `θ` as [`angle`] measures it.
pub const GRADIENT_SIGN: f32 = -1.0;

/// `c` of the stiffness `kₑ = c D |ē|²/Āₑ` (module docs: calibrated on a free strip).
pub const STRIP_WEIGHT: f32 = 3.0 / 2.21;

/// The bending constraints of a body: per shared edge its four particles (`x1, x2` the
/// opposite corners, `x3, x4` the edge), rest angle and weight `c |ē|²/Āₑ` (dimensionless:
/// times `D` it is the edge's stiffness in N·m/rad).
#[derive(Clone, Debug, Default)]
pub struct Dihedrals {
    pub index: Vec<[u32; 4]>,
    pub rest: Vec<f32>,
    pub weight: Vec<f32>,
    pub lambda: Vec<f32>,
}

/// The signed dihedral angle across edge `x3–x4` (module docs), in (−π, π].
#[inline]
pub fn angle(x1: Vec3, x2: Vec3, x3: Vec3, x4: Vec3) -> f32 {
    let n1 = (x1 - x3).cross(x1 - x4);
    let n2 = (x2 - x4).cross(x2 - x3);
    let e = x4 - x3;
    let (l1, l2, le) = (n1.length(), n2.length(), e.length());
    if l1 <= 0.0 || l2 <= 0.0 || le <= 0.0 {
        return 0.0;
    }
    let (n1, n2) = (n1 / l1, n2 / l2);
    n1.cross(n2).dot(e / le).atan2(n1.dot(n2))
}

/// `∇θ` for the four particles, or `None` for a degenerate pair of triangles.
#[inline]
fn gradient(x1: Vec3, x2: Vec3, x3: Vec3, x4: Vec3) -> Option<[Vec3; 4]> {
    let n1 = (x1 - x3).cross(x1 - x4);
    let n2 = (x2 - x4).cross(x2 - x3);
    let e = x4 - x3;
    let (q1, q2, le) = (n1.length_squared(), n2.length_squared(), e.length());
    if !(q1 > 1e-20 && q2 > 1e-20 && le > 1e-10) {
        return None;
    }
    let eh = e / le;
    let (a, b) = (n1 / q1, n2 / q2);
    let u1 = a * le;
    let u2 = b * le;
    let u3 = a * (x1 - x4).dot(eh) + b * (x2 - x4).dot(eh);
    let u4 = -(a * (x1 - x3).dot(eh)) - b * (x2 - x3).dot(eh);
    Some([u1, u2, u3, u4].map(|u| u * GRADIENT_SIGN))
}

impl Dihedrals {
    /// One constraint per edge shared by exactly two of `triangles`, at the rest shape `rest`
    /// (edges of three or more triangles, and degenerate pairs, are left out).
    pub fn build(rest: &[Vec3], triangles: &[[u32; 3]]) -> Dihedrals {
        // Each edge, as (low, high), and the triangles' third corners on it.
        let mut edges: FastMap<(u32, u32), Vec<(u32, u32, u32)>> = FastMap::default();
        let mut order = Vec::new();
        for t in triangles {
            for k in 0..3 {
                let (a, b, c) = (t[k], t[(k + 1) % 3], t[(k + 2) % 3]);
                let key = (a.min(b), a.max(b));
                let list = edges.entry(key).or_default();
                if list.is_empty() {
                    order.push(key);
                }
                // (edge start, edge end as the triangle winds it, third corner)
                list.push((a, b, c));
            }
        }
        let mut d = Dihedrals::default();
        for key in order {
            let list = &edges[&key];
            if list.len() != 2 {
                continue;
            }
            // Triangle (x1, x3, x4) winds x3 → x4 as (a, b) with x1 = c; the other winds the edge
            // the opposite way, (x2, x4, x3).
            let (x3, x4, x1) = list[0];
            let x2 = list[1].2;
            let p = [x1, x2, x3, x4].map(|i| rest[i as usize]);
            let area = 0.5 * ((p[0] - p[2]).cross(p[0] - p[3]).length() + (p[1] - p[3]).cross(p[1] - p[2]).length());
            let len2 = (p[3] - p[2]).length_squared();
            if !(area > 1e-14) || gradient(p[0], p[1], p[2], p[3]).is_none() {
                continue;
            }
            d.index.push([x1, x2, x3, x4]);
            d.rest.push(angle(p[0], p[1], p[2], p[3]));
            d.weight.push(STRIP_WEIGHT * len2 / area);
        }
        d.lambda = vec![0.0; d.index.len()];
        d
    }

    pub fn len(&self) -> usize {
        self.index.len()
    }

    pub fn is_empty(&self) -> bool {
        self.index.is_empty()
    }
}

/// One Gauss–Seidel pass over every bending constraint of `d` (multipliers accumulate in
/// `d.lambda`; zero them at each substep's start): bending stiffness `stiffness` (N·m), substep
/// `h`. A body's scale changes neither the angles nor the weights (lengths squared over areas).
pub fn solve(x: &mut [Vec3], w: &[f32], d: &mut Dihedrals, stiffness: f32, h: f32) {
    for k in 0..d.index.len() {
        let [i1, i2, i3, i4] = d.index[k].map(|i| i as usize);
        let (x1, x2, x3, x4) = (x[i1], x[i2], x[i3], x[i4]);
        let Some(u) = gradient(x1, x2, x3, x4) else { continue };
        let mut c = angle(x1, x2, x3, x4) - d.rest[k];
        // The shortest way round.
        if c > std::f32::consts::PI {
            c -= std::f32::consts::TAU;
        } else if c < -std::f32::consts::PI {
            c += std::f32::consts::TAU;
        }
        let ws = [w[i1], w[i2], w[i3], w[i4]];
        let denom: f32 = (0..4).map(|j| ws[j] * u[j].length_squared()).sum();
        let alpha_tilde = 1.0 / (stiffness * d.weight[k] * h * h);
        let dl = crate::solver::xpbd::delta_lambda(c, denom, alpha_tilde, d.lambda[k]);
        if !dl.is_finite() {
            continue;
        }
        d.lambda[k] += dl;
        for (j, &i) in [i1, i2, i3, i4].iter().enumerate() {
            x[i] += u[j] * (ws[j] * dl);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The gradient is the angle's, checked against central differences on folded pairs.
    #[test]
    fn the_gradient_is_the_angles() {
        let cases = [
            [Vec3::new(0.3, 0.1, 1.0), Vec3::new(-0.2, 0.4, -1.0), Vec3::new(0.0, 0.0, 0.0), Vec3::new(0.0, 1.0, 0.0)],
            [Vec3::new(1.0, 0.5, 0.2), Vec3::new(-1.0, 0.2, 0.3), Vec3::new(0.1, -0.2, 0.0), Vec3::new(0.0, 1.1, 0.1)],
            [Vec3::new(0.0, 0.5, 1.0), Vec3::new(0.0, 0.5, -1.0), Vec3::new(0.0, 0.0, 0.0), Vec3::new(0.0, 1.0, 0.0)],
        ];
        for (n, p) in cases.iter().enumerate() {
            let g = gradient(p[0], p[1], p[2], p[3]).unwrap();
            for j in 0..4 {
                for axis in 0..3 {
                    let eps = 1e-3;
                    let mut plus = *p;
                    let mut minus = *p;
                    plus[j][axis] += eps;
                    minus[j][axis] -= eps;
                    let fd = (angle(plus[0], plus[1], plus[2], plus[3]) - angle(minus[0], minus[1], minus[2], minus[3])) / (2.0 * eps);
                    assert!((fd - g[j][axis]).abs() < 2e-3 * (1.0 + fd.abs()), "case {n}, particle {j}, axis {axis}: analytic {} vs {fd}", g[j][axis]);
                }
            }
        }
    }

    #[test]
    fn a_flat_pair_has_angle_zero_and_a_fold_its_sign() {
        let (x3, x4) = (Vec3::ZERO, Vec3::Y);
        assert!(angle(Vec3::X, -Vec3::X, x3, x4).abs() < 1e-6);
        let up = angle(Vec3::new(1.0, 0.5, 0.2), Vec3::new(-1.0, 0.5, 0.2), x3, x4);
        let down = angle(Vec3::new(1.0, 0.5, -0.2), Vec3::new(-1.0, 0.5, -0.2), x3, x4);
        assert!(up.abs() > 0.1 && (up + down).abs() < 1e-6, "{up} {down}");
    }
}
