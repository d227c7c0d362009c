//! A soft body from a closed render mesh, which is what a Unity user has: Sinew builds the
//! simulation volume itself — a lattice over the mesh's voxels — and embeds the render
//! vertices in it.
//!
//! **Voxels.** The mesh's bounds are cut into cubes of `longest side / resolution`; a cube
//! is kept when its centre is inside the mesh (winding number over the triangles above ½) or
//! the mesh's surface passes within half its diagonal of the centre (so every vertex lies in
//! or beside a kept cube). The kept cubes' corners are the particles, their edges and face
//! and body diagonals the distance constraints (axis edges as stretch, diagonals as shear),
//! 6 tetrahedra per cube the volume, the faces between kept and empty cubes the surface
//! (outward: other bodies collide with it), and shape matching runs over all particles or
//! in overlapping blocks as for a lattice. Cooking costs cubes × triangles point–triangle
//! distances (a 10 000-triangle mesh at resolution 16: a few tenths of a second, once).
//!
//! **Embedding.** Each render vertex keeps the 8 corners of its cube (the nearest kept one
//! if its own is empty) and trilinear weights; at readback it is at
//! `v₀ + Σ wᵢ xᵢ − Σ wᵢ xᵢ⁰` — its own rest position moved by the interpolated displacement,
//! so a volume at rest reads back exactly the mesh as given, bit for bit, and the weights'
//! rounding never shows. Normals come from the render triangles over those positions, in the
//! host's vertex order and count (seams included).

use std::sync::Arc;

use crate::error::{Error, MAX_PARTICLES, Result, check_positions};
use crate::math::{FastMap, Vec3};
use crate::particles::{Body, BodyKind, Material, Topology};
use crate::solver::constraints::distance::{self, DistanceConstraints, KIND_SHEAR, KIND_STRETCH};
use crate::solver::constraints::shape_match::Clusters;
use crate::solver::constraints::volume::{Tets, signed_volume};
use crate::solver::contact::triangle::VertexTriangles;

use super::{CUBE_TETS, Soft, SoftSettings, SoftShape, soft_dynamics};
pub use crate::particles::embedding::Embedding;

/// A closed render mesh to turn into a soft body.
#[derive(Clone, Debug)]
pub struct SoftMeshSpec<'a> {
    pub positions: &'a [Vec3],
    /// Triangle list (3 per triangle), wound either way consistently; closed.
    pub indices: &'a [u32],
    /// Cubes along the mesh's longest side, 1–64.
    pub resolution: u32,
    /// Shape-matching clusters: 0 one for the body, c: overlapping blocks of c³ cubes.
    pub cluster_cells: u32,
    pub material: Material,
    pub soft: SoftSettings,
}

/// Distance from `p` to triangle `(a, b, c)`.
fn point_triangle_distance(p: Vec3, a: Vec3, b: Vec3, c: Vec3) -> f32 {
    // Ericson, "Real-Time Collision Detection", §5.1.5 (closest point on a triangle).
    let (ab, ac, ap) = (b - a, c - a, p - a);
    let (d1, d2) = (ab.dot(ap), ac.dot(ap));
    if d1 <= 0.0 && d2 <= 0.0 {
        return ap.length();
    }
    let bp = p - b;
    let (d3, d4) = (ab.dot(bp), ac.dot(bp));
    if d3 >= 0.0 && d4 <= d3 {
        return bp.length();
    }
    let vc = d1 * d4 - d3 * d2;
    if vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0 {
        let v = d1 / (d1 - d3);
        return (p - (a + ab * v)).length();
    }
    let cp = p - c;
    let (d5, d6) = (ab.dot(cp), ac.dot(cp));
    if d6 >= 0.0 && d5 <= d6 {
        return cp.length();
    }
    let vb = d5 * d2 - d1 * d6;
    if vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0 {
        let w = d2 / (d2 - d6);
        return (p - (a + ac * w)).length();
    }
    let va = d3 * d6 - d5 * d4;
    if va <= 0.0 && (d4 - d3) >= 0.0 && (d5 - d6) >= 0.0 {
        let w = (d4 - d3) / ((d4 - d3) + (d5 - d6));
        return (p - (b + (c - b) * w)).length();
    }
    let denom = 1.0 / (va + vb + vc);
    let (v, w) = (vb * denom, vc * denom);
    (p - (a + ab * v + ac * w)).length()
}

/// Winding number of the triangles about `p` (solid angles over 4π; ±1 inside a closed
/// surface, its sign the winding's, 0 outside).
fn winding(p: Vec3, x: &[Vec3], tris: &[[u32; 3]]) -> f32 {
    let mut total = 0.0f64;
    for t in tris {
        let [a, b, c] = t.map(|i| (x[i as usize] - p).as_dvec3());
        let (la, lb, lc) = (a.length(), b.length(), c.length());
        let num = a.dot(b.cross(c));
        let den = la * lb * lc + a.dot(b) * lc + b.dot(c) * la + c.dot(a) * lb;
        total += 2.0 * num.atan2(den);
    }
    (total / (4.0 * std::f64::consts::PI)) as f32
}

/// Refuses a mesh that is not closed: every edge, between vertices welded by position (a
/// render mesh's seams repeat vertices; within 1e-5 of its `size`, its longest extent), must belong to exactly two triangles. An open mesh
/// has no inside, so the embedding's voxels would be guessed (a cube with one triangle
/// missing was accepted, though the header says closed, and a balloon refuses it).
fn check_closed(x: &[Vec3], tris: &[[u32; 3]], size: f32) -> Result<()> {
    // Welded within 1e-5 of the mesh's size: a seam's copies differ by a rounding (cos 2π).
    let (welded, _) = crate::cloth::weld(x, 1e-5 * size);
    let mut edges: FastMap<(u32, u32), u32> = FastMap::default();
    for t in tris {
        let w = t.map(|i| welded[i as usize]);
        // A triangle with two corners welded together (a UV sphere's pole) encloses nothing.
        if w[0] == w[1] || w[1] == w[2] || w[2] == w[0] {
            continue;
        }
        for k in 0..3 {
            let (a, b) = (w[k], w[(k + 1) % 3]);
            *edges.entry((a.min(b), a.max(b))).or_default() += 1;
        }
    }
    let mut open: Vec<_> = edges.iter().filter(|(_, n)| **n != 2).collect();
    open.sort();
    if let Some(((a, b), n)) = open.first() {
        return Err(Error::invalid(format!(
            "the mesh is not closed: {} of its {} edges (between vertices welded by position) belong to other than two triangles, the first ({a}, {b}) to {n}",
            open.len(),
            edges.len()
        )));
    }
    Ok(())
}

/// Builds the soft body of a closed render mesh (see the module docs).
pub fn mesh_body(spec: &SoftMeshSpec) -> Result<Body> {
    spec.material.validate()?;
    spec.soft.validate()?;
    check_positions(spec.positions, "mesh positions")?;
    let (x, idx) = (spec.positions, spec.indices);
    if x.len() < 4 || idx.len() < 12 {
        return Err(Error::invalid(format!("a closed mesh needs at least 4 vertices and 4 triangles (got {} vertices, {} indices)", x.len(), idx.len())));
    }
    if idx.len() % 3 != 0 {
        return Err(Error::invalid(format!("indices holds {} entries: 3 per triangle", idx.len())));
    }
    if let Some(&bad) = idx.iter().find(|&&i| i as usize >= x.len()) {
        return Err(Error::out_of_range(format!("index {bad} out of range ({} vertices)", x.len())));
    }
    if !(1..=64).contains(&spec.resolution) {
        return Err(Error::invalid(format!("resolution must be within [1, 64] cubes along the longest side (got {})", spec.resolution)));
    }
    if spec.cluster_cells > 1024 {
        return Err(Error::invalid(format!("cluster_cells must be at most 1024 (got {})", spec.cluster_cells)));
    }
    let tris: Vec<[u32; 3]> = idx.chunks_exact(3).map(|c| [c[0], c[1], c[2]]).collect();
    let (lo, hi) = x.iter().fold((Vec3::splat(f32::INFINITY), Vec3::splat(f32::NEG_INFINITY)), |(l, h), p| (l.min(*p), h.max(*p)));
    let extent = hi - lo;
    let longest = extent.max_element();
    check_closed(x, &tris, longest)?;
    if !(longest > 1e-6) {
        return Err(Error::invalid(format!("the mesh's bounds are degenerate ({extent})")));
    }
    let cell = longest / spec.resolution as f32;
    // Cubes along each axis, the lattice centred on the mesh's bounds.
    let dims = (extent / cell).ceil().max(Vec3::ONE);
    let (cx, cy, cz) = (dims.x as u32, dims.y as u32, dims.z as u32);
    let origin = (lo + hi) * 0.5 - Vec3::new(cx as f32, cy as f32, cz as f32) * (0.5 * cell);
    let cube = |i: u32, j: u32, k: u32| ((k * cy + j) * cx + i) as usize;
    let half_diagonal = 0.5 * cell * 3f32.sqrt();
    let mut kept = vec![false; (cx * cy * cz) as usize];
    for k in 0..cz {
        for j in 0..cy {
            for i in 0..cx {
                let centre = origin + (Vec3::new(i as f32, j as f32, k as f32) + Vec3::splat(0.5)) * cell;
                let near = tris.iter().any(|t| point_triangle_distance(centre, x[t[0] as usize], x[t[1] as usize], x[t[2] as usize]) <= half_diagonal);
                kept[cube(i, j, k)] = near || winding(centre, x, &tris).abs() > 0.5;
            }
        }
    }
    if !kept.contains(&true) {
        // Every triangle degenerate, or too far from every cube centre to keep one.
        return Err(Error::invalid("the mesh keeps no cube of the lattice: are its triangles degenerate?"));
    }
    // Particles: corners of kept cubes, numbered in lattice order.
    let (px, py, pz) = (cx + 1, cy + 1, cz + 1);
    let corner = |i: u32, j: u32, k: u32| ((k * py + j) * px + i) as usize;
    let mut number = vec![u32::MAX; (px * py * pz) as usize];
    let mut rest = Vec::new();
    for k in 0..cz {
        for j in 0..cy {
            for i in 0..cx {
                if !kept[cube(i, j, k)] {
                    continue;
                }
                for c in 0..8u32 {
                    let (a, b, d) = (i + (c & 1), j + ((c >> 1) & 1), k + ((c >> 2) & 1));
                    let slot = &mut number[corner(a, b, d)];
                    if *slot == u32::MAX {
                        *slot = 0; // numbered below, in lattice order
                    }
                }
            }
        }
    }
    for k in 0..pz {
        for j in 0..py {
            for i in 0..px {
                let slot = &mut number[corner(i, j, k)];
                if *slot != u32::MAX {
                    *slot = rest.len() as u32;
                    rest.push(origin + Vec3::new(i as f32, j as f32, k as f32) * cell);
                }
            }
        }
    }
    let n = rest.len();
    if n > MAX_PARTICLES {
        return Err(Error::too_large(format!("resolution {} gives {n} particles; the limit per body is {MAX_PARTICLES}", spec.resolution)));
    }
    let id = |c: usize, i: u32, j: u32, k: u32| number[corner(i + (c as u32 & 1), j + ((c as u32 >> 1) & 1), k + ((c as u32 >> 2) & 1))];
    // Constraints within kept cubes (each edge once), tetrahedra, surface faces.
    let mut edges = std::collections::BTreeSet::new();
    let mut tets = Tets::default();
    let mut surface = Vec::new();
    for k in 0..cz {
        for j in 0..cy {
            for i in 0..cx {
                if !kept[cube(i, j, k)] {
                    continue;
                }
                let c: [u32; 8] = std::array::from_fn(|q| id(q, i, j, k));
                for a in 0..8 {
                    for b in a + 1..8 {
                        edges.insert((c[a].min(c[b]), c[a].max(c[b]), (a ^ b).count_ones()));
                    }
                }
                for t in CUBE_TETS {
                    let mut q = t.map(|v| c[v]);
                    let p = q.map(|v| rest[v as usize]);
                    if signed_volume(p[0], p[1], p[2], p[3]) < 0.0 {
                        q.swap(2, 3);
                    }
                    let p = q.map(|v| rest[v as usize]);
                    tets.index.push(q);
                    tets.rest.push(signed_volume(p[0], p[1], p[2], p[3]));
                }
                // Faces towards empty (or outside) cubes: (axis, side) → the 4 corners.
                let empty = |di: i32, dj: i32, dk: i32| {
                    let (a, b, d) = (i as i32 + di, j as i32 + dj, k as i32 + dk);
                    a < 0 || b < 0 || d < 0 || a >= cx as i32 || b >= cy as i32 || d >= cz as i32 || !kept[cube(a as u32, b as u32, d as u32)]
                };
                let centre = origin + (Vec3::new(i as f32, j as f32, k as f32) + Vec3::splat(0.5)) * cell;
                let faces: [((i32, i32, i32), [usize; 4]); 6] = [
                    ((-1, 0, 0), [0, 2, 6, 4]),
                    ((1, 0, 0), [1, 3, 7, 5]),
                    ((0, -1, 0), [0, 1, 5, 4]),
                    ((0, 1, 0), [2, 3, 7, 6]),
                    ((0, 0, -1), [0, 1, 3, 2]),
                    ((0, 0, 1), [4, 5, 7, 6]),
                ];
                for ((di, dj, dk), q) in faces {
                    if !empty(di, dj, dk) {
                        continue;
                    }
                    let v = q.map(|s| c[s]);
                    let (a, b, cc) = (rest[v[0] as usize], rest[v[1] as usize], rest[v[2] as usize]);
                    let out = (b - a).cross(cc - a).dot((a + cc) * 0.5 - centre) >= 0.0;
                    if out {
                        surface.push([v[0], v[1], v[2]]);
                        surface.push([v[0], v[2], v[3]]);
                    } else {
                        surface.push([v[0], v[2], v[1]]);
                        surface.push([v[0], v[3], v[2]]);
                    }
                }
            }
        }
    }
    let mut k = DistanceConstraints::default();
    for &(a, b, bits) in &edges {
        k.push(a, b, rest[a as usize].distance(rest[b as usize]), if bits == 1 { KIND_STRETCH } else { KIND_SHEAR });
    }
    // Embedding: each vertex in its cube (or the nearest kept one).
    let mut emb = Embedding::default();
    let kept_centres: Vec<(u32, u32, u32)> =
        (0..cz).flat_map(|k| (0..cy).flat_map(move |j| (0..cx).map(move |i| (i, j, k)))).filter(|&(i, j, k)| kept[cube(i, j, k)]).collect();
    for v in x {
        let local = (*v - origin) / cell;
        let (mut i, mut j, mut kk) = (
            (local.x.floor() as i64).clamp(0, cx as i64 - 1) as u32,
            (local.y.floor() as i64).clamp(0, cy as i64 - 1) as u32,
            (local.z.floor() as i64).clamp(0, cz as i64 - 1) as u32,
        );
        if !kept[cube(i, j, kk)] {
            let centre_of = |c: &(u32, u32, u32)| origin + (Vec3::new(c.0 as f32, c.1 as f32, c.2 as f32) + Vec3::splat(0.5)) * cell;
            let nearest = kept_centres.iter().min_by(|a, b| centre_of(a).distance_squared(*v).total_cmp(&centre_of(b).distance_squared(*v))).expect("a kept cube");
            (i, j, kk) = *nearest;
        }
        let f = local - Vec3::new(i as f32, j as f32, kk as f32);
        let parts: [u32; 8] = std::array::from_fn(|q| id(q, i, j, kk));
        let weights: [f32; 8] = std::array::from_fn(|q| {
            let (bx, by, bz) = (q & 1, (q >> 1) & 1, (q >> 2) & 1);
            (if bx == 1 { f.x } else { 1.0 - f.x }) * (if by == 1 { f.y } else { 1.0 - f.y }) * (if bz == 1 { f.z } else { 1.0 - f.z })
        });
        let mut interpolated = Vec3::ZERO;
        for q in 0..8 {
            interpolated += rest[parts[q] as usize] * weights[q];
        }
        emb.particles.push(parts);
        emb.weights.push(weights);
        emb.rest.push(*v);
        emb.rest_interpolated.push(interpolated);
    }
    let clusters = if spec.cluster_cells == 0 {
        Clusters::build(&rest, &[(0..n as u32).collect()])
    } else {
        let c = spec.cluster_cells;
        let mut lists = Vec::new();
        for k0 in (0..cz).step_by(c as usize) {
            for j0 in (0..cy).step_by(c as usize) {
                for i0 in (0..cx).step_by(c as usize) {
                    let mut list: Vec<u32> = Vec::new();
                    for kk in k0..=(k0 + c).min(cz) {
                        for jj in j0..=(j0 + c).min(cy) {
                            for ii in i0..=(i0 + c).min(cx) {
                                let p = number[corner(ii, jj, kk)];
                                if p != u32::MAX {
                                    list.push(p);
                                }
                            }
                        }
                    }
                    if list.len() >= 4 {
                        lists.push(list);
                    }
                }
            }
        }
        Clusters::build(&rest, &lists)
    };
    let topology = Topology {
        particle_count: n,
        constraints: distance::colour(&k, n),
        render_triangles: tris,
        adjacency: VertexTriangles::build(n, &surface),
        triangles: surface,
        rest: rest.clone(),
        closed: true,
        embedding: Some(emb),
        ..Default::default()
    };
    let mut body = Body::new(BodyKind::SoftBody, Arc::new(topology), spec.material, rest, vec![1.0 / spec.material.particle_mass; n])?;
    let surface_volume = super::surface_volume(&body.topology.rest, &body.topology.triangles);
    body.soft = Some(Box::new(Soft::new(Arc::new(SoftShape { tets, clusters, surface_volume }), spec.soft)));
    body.dynamics = soft_dynamics();
    body.finish_material()
}
