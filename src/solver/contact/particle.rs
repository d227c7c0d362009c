//! Particle–particle contact: self-collision inside a body and contact between two bodies.
//!
//! Candidate pairs are found once per fixed step with a spatial hash (cells of the search
//! distance, particles sorted by cell key, so the result does not depend on any hash
//! iteration order); each substep then pushes every candidate pair that is closer than the
//! contact distance `D` apart along the line between them, split by inverse mass:
//! `C = |xi − xj| − D ≥ 0`, the unilateral distance constraint of PBD.

use crate::math::{LENGTH_EPSILON, Vec3};

/// Reused buffers for the spatial hash: no allocation per step once warm.
///
/// Cells of the search distance are hashed into a power-of-two table; particles are
/// counting-sorted by bucket (stable, so by index inside a bucket). A query visits the 27
/// buckets around a point; cells that share a bucket only cost extra distance tests.
#[derive(Clone, Debug, Default)]
pub struct HashScratch {
    /// Bucket b holds `entries[starts[b]..starts[b + 1]]`.
    starts: Vec<u32>,
    cursor: Vec<u32>,
    entries: Vec<u32>,
    mask: u64,
}

#[inline]
fn cell_of(p: Vec3, inv_cell: f32) -> (i32, i32, i32) {
    ((p.x * inv_cell).floor() as i32, (p.y * inv_cell).floor() as i32, (p.z * inv_cell).floor() as i32)
}

#[inline]
fn key(c: (i32, i32, i32)) -> u64 {
    // Distinct large odd multipliers, folded so the low bits mix all three coordinates.
    let h = (c.0 as u32 as u64).wrapping_mul(0x9E37_79B1_85EB_CA87)
        ^ (c.1 as u32 as u64).wrapping_mul(0xC2B2_AE3D_27D4_EB4F)
        ^ (c.2 as u32 as u64).wrapping_mul(0x1656_67B1_9E37_79F9);
    h ^ (h >> 29)
}

impl HashScratch {
    fn build(&mut self, x: &[Vec3], inv_cell: f32) {
        let size = (2 * x.len()).next_power_of_two().max(16);
        self.mask = size as u64 - 1;
        self.starts.clear();
        self.starts.resize(size + 1, 0);
        for p in x {
            self.starts[(key(cell_of(*p, inv_cell)) & self.mask) as usize + 1] += 1;
        }
        for b in 0..size {
            self.starts[b + 1] += self.starts[b];
        }
        self.cursor.clear();
        self.cursor.extend_from_slice(&self.starts[..size]);
        self.entries.clear();
        self.entries.resize(x.len(), 0);
        for (i, p) in x.iter().enumerate() {
            let b = (key(cell_of(*p, inv_cell)) & self.mask) as usize;
            self.entries[self.cursor[b] as usize] = i as u32;
            self.cursor[b] += 1;
        }
    }

    fn in_cell(&self, k: u64) -> &[u32] {
        let b = (k & self.mask) as usize;
        &self.entries[self.starts[b] as usize..self.starts[b + 1] as usize]
    }
}

/// Pairs `(i, j)` of particles of `xa` and `xb` closer than `search`; for a body against
/// itself pass `xb = None` (then `i < j`), and `rest` excludes pairs whose rest distance is
/// at most `exclude` (neighbours that touch at rest). Sorted, so the order is deterministic.
pub fn find_pairs(
    xa: &[Vec3],
    xb: Option<&[Vec3]>,
    search: f32,
    rest: Option<(&[Vec3], f32)>,
    scratch: &mut HashScratch,
    out: &mut Vec<[u32; 2]>,
) {
    out.clear();
    if search <= 0.0 || !search.is_finite() {
        return;
    }
    // Room for sixteen pairs per particle from the start, so the list does not grow (and
    // allocate) step after step as contacts come and go.
    let room = 16 * xa.len().min(xb.map_or(usize::MAX, <[Vec3]>::len));
    if out.capacity() < room {
        out.reserve(room - out.len());
    }
    let inv_cell = 1.0 / search;
    let other = xb.unwrap_or(xa);
    scratch.build(other, inv_cell);
    let s2 = search * search;
    let close = |i: usize, j: usize| {
        (other[j] - xa[i]).length_squared() < s2 && rest.is_none_or(|(r, ex)| (r[j] - r[i]).length_squared() > ex * ex)
    };
    for (i, p) in xa.iter().enumerate() {
        let (cx, cy, cz) = cell_of(*p, inv_cell);
        let cell = |(dx, dy, dz): (i32, i32, i32)| scratch.in_cell(key((cx.wrapping_add(dx), cy.wrapping_add(dy), cz.wrapping_add(dz))));
        if xb.is_some() {
            for d in NEIGHBOURS {
                out.extend(cell(d).iter().filter(|&&j| close(i, j as usize)).map(|&j| [i as u32, j]));
            }
        } else {
            // A body against itself: each unordered pair once, from the particle whose cell
            // comes first — its own cell (j > i) and the 13 cells after it. (Cells that share
            // a bucket may show a pair twice or in the other order: normalised and deduplicated
            // below.)
            out.extend(cell((0, 0, 0)).iter().filter(|&&j| j as usize > i && close(i, j as usize)).map(|&j| [i as u32, j]));
            for &d in &NEIGHBOURS[14..] {
                out.extend(cell(d).iter().filter(|&&j| j as usize != i && close(i, j as usize)).map(|&j| [(i as u32).min(j), (i as u32).max(j)]));
            }
        }
    }
    out.sort_unstable();
    out.dedup();
}

/// The 27 cells around a cell, in lexicographic order of `(dx, dy, dz)`: the cell itself is
/// `[13]`, the 13 after it are `[14..]`.
const NEIGHBOURS: [(i32, i32, i32); 27] = {
    let mut n = [(0, 0, 0); 27];
    let mut k = 0;
    while k < 27 {
        n[k] = (k as i32 / 9 - 1, k as i32 / 3 % 3 - 1, k as i32 % 3 - 1);
        k += 1;
    }
    n
};

/// Pushes apart pairs of one body closer than `dist`.
pub fn resolve_self(x: &mut [Vec3], w: &[f32], pairs: &[[u32; 2]], dist: f32) {
    for &[i, j] in pairs {
        let (i, j) = (i as usize, j as usize);
        if let Some(corr) = separation(x[i], w[i], x[j], w[j], dist) {
            x[i] -= corr * w[i];
            x[j] += corr * w[j];
        }
    }
}

/// Pushes apart pairs `(i in a, j in b)` closer than `dist`.
pub fn resolve_between(xa: &mut [Vec3], wa: &[f32], xb: &mut [Vec3], wb: &[f32], pairs: &[[u32; 2]], dist: f32) {
    for &[i, j] in pairs {
        let (i, j) = (i as usize, j as usize);
        if let Some(corr) = separation(xa[i], wa[i], xb[j], wb[j], dist) {
            xa[i] -= corr * wa[i];
            xb[j] += corr * wb[j];
        }
    }
}

/// The correction per unit inverse mass that moves `xi` and `xj` (inverse masses `wi`, `wj`)
/// `dist` apart along the line between them, or `None` when they already are (or coincide).
#[inline]
fn separation(xi: Vec3, wi: f32, xj: Vec3, wj: f32, dist: f32) -> Option<Vec3> {
    let ws = wi + wj;
    if ws == 0.0 {
        return None;
    }
    let d = xj - xi;
    let len = d.length();
    if len >= dist || len < LENGTH_EPSILON {
        return None;
    }
    Some(d * ((dist - len) / (len * ws)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hash_finds_exactly_the_close_pairs() {
        let x: Vec<Vec3> = (0..200).map(|i| Vec3::new((i % 7) as f32 * 0.013, (i / 7 % 5) as f32 * 0.021, (i / 35) as f32 * 0.017)).collect();
        let mut pairs = Vec::new();
        find_pairs(&x, None, 0.03, None, &mut HashScratch::default(), &mut pairs);
        let mut brute = Vec::new();
        for i in 0..x.len() {
            for j in i + 1..x.len() {
                if (x[j] - x[i]).length_squared() < 0.03 * 0.03 {
                    brute.push([i as u32, j as u32]);
                }
            }
        }
        assert_eq!(pairs, brute);
    }

    /// The same against a brute-force search, with the rest-pose exclusion, between two
    /// bodies and inside one, on a cloud dense enough for many cells to share buckets.
    #[test]
    fn hash_matches_brute_force_with_exclusion_and_between_bodies() {
        let mut seed = 0x9e3779b9u32;
        let mut rnd = move || {
            seed ^= seed << 13;
            seed ^= seed >> 17;
            seed ^= seed << 5;
            seed as f32 / u32::MAX as f32
        };
        let a: Vec<Vec3> = (0..400).map(|_| Vec3::new(rnd(), rnd(), rnd() * 0.2)).collect();
        let b: Vec<Vec3> = (0..300).map(|_| Vec3::new(rnd(), rnd(), rnd() * 0.2)).collect();
        let rest: Vec<Vec3> = (0..400).map(|i| Vec3::new((i % 20) as f32 * 0.05, (i / 20) as f32 * 0.05, 0.0)).collect();
        let search = 0.09;
        for (xb, exclude) in [(None, None), (None, Some(0.11)), (Some(&b[..]), None)] {
            let mut pairs = Vec::new();
            find_pairs(&a, xb, search, exclude.map(|e| (&rest[..], e)), &mut HashScratch::default(), &mut pairs);
            let other = xb.unwrap_or(&a);
            let mut brute = Vec::new();
            for i in 0..a.len() {
                for j in 0..other.len() {
                    let wanted = (xb.is_some() || j > i)
                        && (other[j] - a[i]).length_squared() < search * search
                        && exclude.is_none_or(|e| (rest[j] - rest[i]).length_squared() > e * e);
                    if wanted {
                        brute.push([i as u32, j as u32]);
                    }
                }
            }
            assert!(brute.len() > 50, "the cloud must have pairs ({})", brute.len());
            assert_eq!(pairs, brute, "between bodies: {}, exclusion: {exclude:?}", xb.is_some());
        }
    }

    #[test]
    fn resolve_separates_to_the_contact_distance() {
        let mut x = vec![Vec3::ZERO, Vec3::new(0.01, 0.0, 0.0)];
        resolve_self(&mut x, &[1.0, 1.0], &[[0, 1]], 0.04);
        assert!(((x[1] - x[0]).length() - 0.04).abs() < 1e-6);
        assert!((x[0].x + 0.015).abs() < 1e-6);
    }
}

