//! Particle–triangle contact: a particle of one body against the triangles of another (or
//! of its own body, away from its neighbourhood), so cloth cannot pass through cloth
//! between particles.
//!
//! Candidates come from particle pairs ([`super::particle::find_pairs`]) and the triangles
//! around the nearer particle; each keeps the side of the triangle the particle was on at
//! the start of the step. Each substep, with `n̂` the triangle's unit normal, `h` the
//! particle's height above its plane and `b` the barycentric coordinates of its projection,
//! the unilateral constraint `C = side·h − D ≥ 0` is projected with generalised inverse mass
//! `w_x + Σ b_k² w_k` (PBD's point–triangle constraint).

use crate::math::Vec3;

/// A particle of one body against a triangle of another, with the side of the triangle the
/// particle was on at the start of the step (+1 along the normal, −1 against it).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TriContact {
    pub particle: u32,
    pub triangle: u32,
    pub side: f32,
}

/// Vertex → triangles adjacency (compressed rows).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct VertexTriangles {
    pub offsets: Vec<u32>,
    pub list: Vec<u32>,
}

impl VertexTriangles {
    pub fn build(particles: usize, triangles: &[[u32; 3]]) -> VertexTriangles {
        let mut count = vec![0u32; particles + 1];
        for t in triangles {
            for &v in t {
                count[v as usize + 1] += 1;
            }
        }
        for i in 0..particles {
            count[i + 1] += count[i];
        }
        let mut fill = count.clone();
        let mut list = vec![0u32; triangles.len() * 3];
        for (k, t) in triangles.iter().enumerate() {
            for &v in t {
                list[fill[v as usize] as usize] = k as u32;
                fill[v as usize] += 1;
            }
        }
        VertexTriangles { offsets: count, list }
    }

    /// Triangles around particle `v` (none for a body without triangles, e.g. a rope).
    pub fn of(&self, v: usize) -> &[u32] {
        match (self.offsets.get(v), self.offsets.get(v + 1)) {
            (Some(&a), Some(&b)) => &self.list[a as usize..b as usize],
            _ => &[],
        }
    }
}

/// Candidate (particle of `xa`, triangle of `tris_b`) contacts: the triangles around the two
/// `b` particles nearest each particle among `pairs` (from [`find_pairs`], sorted by
/// particle), each with the side the particle is on now. Sorted and deduplicated; at most 12
/// per particle. With `outward` (the triangles bound a closed volume, wound outward: a soft
/// body), every contact keeps the particle outside (+1) whichever side it is on now: another
/// body's particle is never meant to be inside a volume, and one that got in is pushed out
/// rather than held there.
pub fn triangle_candidates(xa: &[Vec3], xb: &[Vec3], tris_b: &[[u32; 3]], adj_b: &VertexTriangles, pairs: &[[u32; 2]], outward: bool, out: &mut Vec<TriContact>) {
    out.clear();
    let room = 12 * xa.len();
    if out.capacity() < room {
        out.reserve(room);
    }
    let mut k = 0;
    while k < pairs.len() {
        let i = pairs[k][0];
        let p = xa[i as usize];
        // The two nearest b particles of particle i.
        let mut best = [(f32::INFINITY, u32::MAX); 2];
        while k < pairs.len() && pairs[k][0] == i {
            let j = pairs[k][1];
            k += 1;
            // Only particles on the surface lead to triangles (a soft body's inner particles
            // have none: nearest to a particle that got inside, they would give it nothing).
            if adj_b.of(j as usize).is_empty() {
                continue;
            }
            let d = (xb[j as usize] - p).length_squared();
            if d < best[0].0 {
                best = [(d, j), best[0]];
            } else if d < best[1].0 {
                best[1] = (d, j);
            }
        }
        let first = out.len();
        for (_, j) in best.into_iter().filter(|b| b.1 != u32::MAX) {
            for &t in adj_b.of(j as usize) {
                if out[first..].iter().any(|c| c.triangle == t) {
                    continue;
                }
                let [a, b, c] = tris_b[t as usize].map(|v| xb[v as usize]);
                let n = (b - a).cross(c - a);
                let side = if outward || (p - a).dot(n) >= 0.0 { 1.0 } else { -1.0 };
                out.push(TriContact { particle: i, triangle: t, side });
            }
        }
    }
}

/// Keeps each candidate particle at least `dist` from its triangle on the side it started
/// on (Bridson-style point–triangle repulsion as a PBD constraint
/// `C = (x − q)·n̂·side − dist ≥ 0`, `q = Σ bₖ tₖ` the closest point, gradients `n̂` for the
/// particle and `−bₖ·n̂` for the triangle's vertices). Only contacts whose closest point is
/// inside the triangle act; edges and corners are left to the particle pairs.
/// `max_depth`: a particle farther than this behind a triangle's plane is left alone by that
/// triangle (for a closed surface, whose contacts push outward from either side: one deep
/// inside is nearer another face, and pushing it out through this one would throw it through
/// the body); `f32::INFINITY` for open surfaces.
#[allow(clippy::too_many_arguments)]
pub fn resolve_triangles(xa: &mut [Vec3], wa: &[f32], xb: &mut [Vec3], wb: &[f32], tris_b: &[[u32; 3]], contacts: &[TriContact], dist: f32, max_depth: f32) {
    for c in contacts {
        let i = c.particle as usize;
        let t = tris_b[c.triangle as usize].map(|v| v as usize);
        if let Some((dp, dt)) = point_triangle(xa[i], wa[i], t.map(|v| xb[v]), t.map(|v| wb[v]), c.side, dist, max_depth) {
            xa[i] += dp;
            for k in 0..3 {
                xb[t[k]] += dt[k];
            }
        }
    }
}

/// As [`resolve_triangles`] for a body against its own triangles (self-collision).
pub fn resolve_triangles_self(x: &mut [Vec3], w: &[f32], tris: &[[u32; 3]], contacts: &[TriContact], dist: f32) {
    for c in contacts {
        let i = c.particle as usize;
        let t = tris[c.triangle as usize].map(|v| v as usize);
        if t.contains(&i) {
            continue;
        }
        if let Some((dp, dt)) = point_triangle(x[i], w[i], t.map(|v| x[v]), t.map(|v| w[v]), c.side, dist, f32::INFINITY) {
            x[i] += dp;
            for k in 0..3 {
                x[t[k]] += dt[k];
            }
        }
    }
}

/// [`resolve_triangles`] against a closed surface (a soft body), with Coulomb friction: after
/// the normal correction `λₙ` (generalised, as the constraint's multiplier), the particle's
/// motion over the substep relative to the triangle's point under it (`x − x_prev` less
/// `Σ bₖ (tₖ − tₖ_prev)`), its tangential part `t` with generalised inverse mass `W`: while
/// `|t|/W ≤ μs λₙ` it is taken out (the particle sticks to the surface), else `μk λₙ` of it.
/// Stacked jellies stay stacked instead of sliding off each other's tops.
#[allow(clippy::too_many_arguments)]
pub fn resolve_triangles_with_friction(
    xa: &mut [Vec3],
    xa_prev: &[Vec3],
    wa: &[f32],
    xb: &mut [Vec3],
    xb_prev: &[Vec3],
    wb: &[f32],
    tris_b: &[[u32; 3]],
    contacts: &[TriContact],
    dist: f32,
    max_depth: f32,
    (mu_s, mu_k): (f32, f32),
) {
    for c in contacts {
        let i = c.particle as usize;
        let t = tris_b[c.triangle as usize].map(|v| v as usize);
        let p = t.map(|v| xb[v]);
        let wp = t.map(|v| wb[v]);
        let Some((dp, dt)) = point_triangle(xa[i], wa[i], p, wp, c.side, dist, max_depth) else { continue };
        xa[i] += dp;
        for k in 0..3 {
            xb[t[k]] += dt[k];
        }
        if mu_s <= 0.0 && mu_k <= 0.0 {
            continue;
        }
        // The contact's normal, barycentric coordinates and multiplier, again at the new positions.
        let q = t.map(|v| xb[v]);
        let cross = (q[1] - q[0]).cross(q[2] - q[0]);
        let area2 = cross.length_squared();
        if area2.is_nan() || area2 < 1e-16 {
            continue;
        }
        let n = cross / area2.sqrt();
        let proj = xa[i] - n * (xa[i] - q[0]).dot(n) - q[0];
        let b1 = proj.cross(q[2] - q[0]).dot(cross) / area2;
        let b2 = (q[1] - q[0]).cross(proj).dot(cross) / area2;
        let b = [1.0 - b1 - b2, b1, b2];
        let w_sum = wa[i] + b[0] * b[0] * wp[0] + b[1] * b[1] * wp[1] + b[2] * b[2] * wp[2];
        if w_sum <= 0.0 || wa[i] <= 0.0 {
            continue;
        }
        let lambda_n = dp.length() / wa[i];
        let surface_motion: Vec3 = (0..3).map(|k| (xb[t[k]] - xb_prev[t[k]]) * b[k]).sum();
        let rel = (xa[i] - xa_prev[i]) - surface_motion;
        let tangential = rel - n * rel.dot(n);
        let len = tangential.length();
        if len.is_nan() || len < 1e-12 {
            continue;
        }
        let needed = len / w_sum;
        let take = if needed <= mu_s * lambda_n { needed } else { (mu_k * lambda_n).min(needed) };
        let dir = tangential / len;
        xa[i] -= dir * (take * wa[i]);
        for k in 0..3 {
            xb[t[k]] += dir * (take * b[k] * wp[k]);
        }
    }
}

/// The corrections of one point–triangle contact, or `None` when it does not act.
#[inline]
fn point_triangle(x: Vec3, wx: f32, p: [Vec3; 3], wp: [f32; 3], side: f32, dist: f32, max_depth: f32) -> Option<(Vec3, [Vec3; 3])> {
    let (e1, e2) = (p[1] - p[0], p[2] - p[0]);
    let cross = e1.cross(e2);
    let area2 = cross.length_squared();
    // The comparisons are written so that NaN (one side overflowed) is no contact: the other
    // side is left as it is (NaN containment, docs/reliability.md).
    if area2.is_nan() || area2 < 1e-16 {
        return None;
    }
    let n = cross / area2.sqrt();
    let h = (x - p[0]).dot(n);
    // Barycentric coordinates of the projection of x onto the triangle's plane.
    let proj = x - n * h - p[0];
    let b1 = proj.cross(e2).dot(cross) / area2;
    let b2 = e1.cross(proj).dot(cross) / area2;
    let b = [1.0 - b1 - b2, b1, b2];
    if b.iter().any(|&v| v < 0.0) {
        return None;
    }
    let c_val = h * side - dist;
    if c_val.is_nan() || c_val >= 0.0 || h * side < -max_depth {
        return None;
    }
    let w_sum = wx + b[0] * b[0] * wp[0] + b[1] * b[1] * wp[1] + b[2] * b[2] * wp[2];
    if w_sum <= 0.0 {
        return None;
    }
    let s = -c_val / w_sum;
    let dir = n * side;
    Some((dir * (s * wx), std::array::from_fn(|k| -dir * (s * b[k] * wp[k]))))
}

#[cfg(test)]
mod triangle_tests {
    use super::*;

    #[test]
    fn a_particle_below_a_triangle_is_pushed_back_below() {
        let mut xa = vec![Vec3::new(0.2, 0.01, 0.2)];
        let mut xb = vec![Vec3::ZERO, Vec3::new(1.0, 0.0, 0.0), Vec3::new(0.0, 0.0, 1.0)];
        let tris = [[0u32, 2, 1]]; // normal +Y
        let contacts = [TriContact { particle: 0, triangle: 0, side: -1.0 }];
        resolve_triangles(&mut xa, &[1.0], &mut xb, &[0.0, 0.0, 0.0], &tris, &contacts, 0.02, f32::INFINITY);
        assert!((xa[0].y + 0.02).abs() < 1e-6, "{}", xa[0]);
        let adj = VertexTriangles::build(3, &tris);
        assert_eq!(adj.of(1), &[0]);
    }
}
