//! Aerodynamic forces from the wind (NvCloth's drag and lift per triangle, segment drag for
//! ropes and strands).
//!
//! For a triangle of area `A`, unit normal `n̂` and velocity relative to the air `v`
//! (`v = v_tri − u_wind`), with `v_n = v·n̂` and `ρ` the air density:
//!
//! - drag  `F_d = −½ ρ C_d A |v_n| v_n n̂` (pressure on the face; none edge-on);
//! - lift  `F_l = −½ ρ C_l A v_n |v_t| t̂ ⟂`, perpendicular to `v` in the plane of `v` and
//!   `n̂`, zero face-on and edge-on: what makes a flag flutter instead of only lean.
//!
//! A segment of length `L` and diameter `D` takes `F = −½ ρ C_d D L |v_⊥| v_⊥` on the part of
//! `v` across it. Each force is shared equally by its vertices and becomes an acceleration
//! `w·F`; the velocity change per step is capped at the relative speed, so strong wind can
//! push cloth up to the wind's speed but never beyond (no explosion).

use crate::math::Vec3;

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AeroParams {
    pub drag: f32,
    pub lift: f32,
    /// Air density `ρ` (kg/m³).
    pub air_density: f32,
    /// Segment diameter for ropes (m).
    pub diameter: f32,
}

fn cap(a: Vec3, rel_speed: f32, step: f32) -> Vec3 {
    let dv = a.length() * step;
    if dv > rel_speed && dv > 0.0 { a * (rel_speed / dv) } else { a }
}

/// Accumulates per-particle accelerations from triangle aerodynamics into `acc`; `air(p)` is
/// the air's velocity at point `p` (m/s), `step` the time the accelerations act for (s).
#[allow(clippy::too_many_arguments)]
pub fn triangles(x: &[Vec3], v: &[Vec3], w: &[f32], tris: &[[u32; 3]], air: impl Fn(Vec3) -> Vec3, p: &AeroParams, step: f32, acc: &mut [Vec3]) {
    let half_rho = 0.5 * p.air_density;
    for t in tris {
        let [a, b, c] = t.map(|i| i as usize);
        let centre = (x[a] + x[b] + x[c]) / 3.0;
        let air = air(centre);
        let rel = (v[a] + v[b] + v[c]) / 3.0 - air;
        let cross = (x[b] - x[a]).cross(x[c] - x[a]);
        let twice_area = cross.length();
        if twice_area < 1e-12 {
            continue;
        }
        let n = cross / twice_area;
        let area = 0.5 * twice_area;
        let vn = rel.dot(n);
        let tangential = rel - n * vn;
        let mut f = n * (-half_rho * p.drag * area * vn.abs() * vn);
        let vt = tangential.length();
        if p.lift != 0.0 && vt > 1e-6 {
            // Perpendicular to `rel`, in the plane of `rel` and `n`.
            let perp = (n * vt * vt - tangential * vn).normalize_or_zero();
            f -= perp * (half_rho * p.lift * area * vn * vt);
        }
        let share = f / 3.0;
        let speed = rel.length();
        for i in [a, b, c] {
            acc[i] += cap(share * w[i], speed, step);
        }
    }
}

/// Accumulates per-particle accelerations from drag on the segments `(a, b)` of `pairs`;
/// `air` as for [`triangles`].
#[allow(clippy::too_many_arguments)]
pub fn segments(x: &[Vec3], v: &[Vec3], w: &[f32], pairs: &[(u32, u32)], air: impl Fn(Vec3) -> Vec3, p: &AeroParams, step: f32, acc: &mut [Vec3]) {
    let half_rho = 0.5 * p.air_density;
    for &(a, b) in pairs {
        let (a, b) = (a as usize, b as usize);
        let d = x[b] - x[a];
        let len = d.length();
        if len < 1e-9 {
            continue;
        }
        let dir = d / len;
        let centre = (x[a] + x[b]) * 0.5;
        let rel = (v[a] + v[b]) * 0.5 - air(centre);
        let across = rel - dir * rel.dot(dir);
        let f = across * (-half_rho * p.drag * p.diameter * len * across.length());
        let share = f * 0.5;
        let speed = rel.length();
        for i in [a, b] {
            acc[i] += cap(share * w[i], speed, step);
        }
    }
}
