//! Mass and principal inertia of a bone's shape, in the shape's own frame (whose axes are
//! the principal axes of every supported shape).
//!
//! For density ρ (or a given mass `m`, which scales the moments of the same shape):
//!
//! - sphere of radius r: `V = 4/3 π r³`, `I = 2/5 m r²` about every axis;
//! - box of half extents (a, b, c): `V = 8abc`, `Iₓ = m (b² + c²)/3` (and cyclic);
//! - capsule along local Y (cylinder of length `H = 2h` and radius r, two hemispheres):
//!   with `m_c = ρ π r² H` and `m_s = ρ 4/3 π r³` (both hemispheres),
//!   `I_y = m_c r²/2 + m_s · 2r²/5`,
//!   `Iₓ = I_z = m_c (H²/12 + r²/4) + m_s (2r²/5 + H²/4 + 3Hr/8)`
//!   (each hemisphere's own moment `(83/320) m r²` moved by the parallel-axis theorem to its
//!   centroid `H/2 + 3r/8` from the centre). A tapered capsule (radii `r0 ≠ r1`) is taken as
//!   the capsule of the mean radius `(r0 + r1)/2`, centred on the shape's origin: its mass is
//!   within a few per cent for the tapers of limbs (r1/r0 ≥ 0.6) and the centre-of-mass shift
//!   toward the thick end is neglected, a deliberate approximation (documented in the bone
//!   description) that keeps the body frame on the shape frame.
//!
//! The result is scaled so that the mass is the given one: `I(m) = m · I(ρ)/m(ρ)`.

use crate::geometry::Shape;
use crate::math::Vec3;
use std::f32::consts::PI;

/// Volume (m³) of a bone shape (a plane has none: 0).
pub fn volume(shape: &Shape) -> f32 {
    match *shape {
        Shape::Sphere { radius } => 4.0 / 3.0 * PI * radius.powi(3),
        Shape::Box { half_extents: e } => 8.0 * e.x * e.y * e.z,
        Shape::Capsule { half_height, radius0, radius1 } => {
            let r = 0.5 * (radius0 + radius1);
            PI * r * r * 2.0 * half_height + 4.0 / 3.0 * PI * r.powi(3)
        }
        Shape::Plane => 0.0,
    }
}

/// Principal moments per unit mass (m²), in the shape's frame.
pub fn unit_inertia(shape: &Shape) -> Vec3 {
    match *shape {
        Shape::Sphere { radius } => Vec3::splat(0.4 * radius * radius),
        Shape::Box { half_extents: e } => {
            let e2 = e * e;
            Vec3::new(e2.y + e2.z, e2.x + e2.z, e2.x + e2.y) / 3.0
        }
        Shape::Capsule { half_height, radius0, radius1 } => {
            let r = 0.5 * (radius0 + radius1);
            let big_h = 2.0 * half_height;
            let mc = PI * r * r * big_h;
            let ms = 4.0 / 3.0 * PI * r.powi(3);
            let m = mc + ms;
            let iy = mc * r * r / 2.0 + ms * 0.4 * r * r;
            let ix = mc * (big_h * big_h / 12.0 + r * r / 4.0) + ms * (0.4 * r * r + big_h * big_h / 4.0 + 3.0 * big_h * r / 8.0);
            Vec3::new(ix, iy, ix) / m
        }
        Shape::Plane => Vec3::ZERO,
    }
}

/// Mass (kg) and principal inertia (kg·m²): `mass` if it is > 0, else `density × volume`.
pub fn mass_properties(shape: &Shape, mass: f32, density: f32) -> (f32, Vec3) {
    let m = if mass > 0.0 { mass } else { density * volume(shape) };
    (m, unit_inertia(shape) * m)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Monte-Carlo-free check: integrate the capsule's moments on a fine grid.
    #[test]
    fn capsule_inertia_matches_numerical_integration() {
        let (h, r) = (0.3f32, 0.1f32);
        let shape = Shape::Capsule { half_height: h, radius0: r, radius1: r };
        let n = 120;
        let (mut vol, mut ix, mut iy) = (0.0f64, 0.0f64, 0.0f64);
        let (lx, ly) = (r as f64, (h + r) as f64);
        let (dx, dy) = (2.0 * lx / n as f64, 2.0 * ly / n as f64);
        for i in 0..n {
            for j in 0..n {
                for k in 0..n {
                    let p = Vec3::new(
                        (-lx + (i as f64 + 0.5) * dx) as f32,
                        (-ly + (j as f64 + 0.5) * dy) as f32,
                        (-lx + (k as f64 + 0.5) * dx) as f32,
                    );
                    if shape.distance(p).0 <= 0.0 {
                        let dv = dx * dy * dx;
                        vol += dv;
                        ix += dv * (p.y as f64 * p.y as f64 + p.z as f64 * p.z as f64);
                        iy += dv * (p.x as f64 * p.x as f64 + p.z as f64 * p.z as f64);
                    }
                }
            }
        }
        let u = unit_inertia(&shape);
        assert!(((volume(&shape) as f64 - vol) / vol).abs() < 5e-3, "volume {} vs {vol}", volume(&shape));
        assert!(((u.x as f64 - ix / vol) / (ix / vol)).abs() < 1e-2, "Ix {} vs {}", u.x, ix / vol);
        assert!(((u.y as f64 - iy / vol) / (iy / vol)).abs() < 1e-2, "Iy {} vs {}", u.y, iy / vol);
    }

    #[test]
    fn box_and_sphere() {
        let (m, i) = mass_properties(&Shape::Box { half_extents: Vec3::new(0.5, 1.0, 1.5) }, 0.0, 2.0);
        assert!((m - 12.0).abs() < 1e-5);
        assert!((i - Vec3::new(12.0 * 3.25 / 3.0, 12.0 * 2.5 / 3.0, 12.0 * 1.25 / 3.0)).length() < 1e-4);
        let (m, i) = mass_properties(&Shape::Sphere { radius: 2.0 }, 3.0, 1.0);
        assert!(m == 3.0 && (i.x - 4.8).abs() < 1e-5);
    }
}
