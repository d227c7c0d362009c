//! Tearing: a stretch or shear constraint strained past the body's threshold splits the
//! cloth there.
//!
//! Cloth tears by splitting a particle (after Müller et al. 2007's vertex splitting, as Obi
//! does): for a torn edge `(a, b)`, a copy `a'` of `a` takes every triangle and constraint
//! around `a` that lies ahead of it along `n = (x_b − x_a)/|x_b − x_a|` (centroid or other end
//! with `(p − x_a)·n > 0`), so the crack runs across the pull. Host vertices are split with
//! their particles, new ones appended at the end, and the topology version is bumped so the
//! host reads the index buffer again. An independent batch stays independent: before the
//! split `a` appeared at most once per batch, afterwards that one constraint uses `a` or `a'`.
//!
//! A rope (no triangles) snaps: its torn segment and the bend constraints across it are
//! disabled (a constraint `(i, i)` with rest 0 is skipped by every kernel).

use std::sync::Arc;

use crate::particles::{Body, Topology};
use crate::math::Vec3;
use crate::solver::constraints::distance::KIND_BEND;

/// At most this many tears per fixed step, the most strained first, so one step cannot
/// shred a whole cloth (and the cost stays bounded).
const MAX_TEARS_PER_STEP: usize = 8;

/// Tears the constraints of `body` strained beyond its threshold.
pub fn tear_strained(body: &mut Body) {
    let threshold = body.dynamics.tear_threshold;
    let k = &body.topology.constraints;
    let mut worst: [(f32, usize); MAX_TEARS_PER_STEP] = [(0.0, usize::MAX); MAX_TEARS_PER_STEP];
    for i in 0..k.len() {
        if k.kind[i] == KIND_BEND || k.a[i] == k.b[i] {
            continue;
        }
        let rest = k.rest[i] * body.scale;
        if rest <= 0.0 {
            continue;
        }
        let strain = (body.x[k.b[i] as usize] - body.x[k.a[i] as usize]).length() / rest - 1.0;
        if strain > threshold && strain > worst[MAX_TEARS_PER_STEP - 1].0 {
            worst[MAX_TEARS_PER_STEP - 1] = (strain, i);
            worst.sort_by(|x, y| y.0.total_cmp(&x.0).then(x.1.cmp(&y.1)));
        }
    }
    let mut torn = false;
    for &(_, i) in worst.iter().filter(|w| w.1 != usize::MAX) {
        torn |= tear(body, i);
    }
    if torn {
        // The grid's regular batches no longer describe the torn topology.
        let topo = Arc::make_mut(&mut body.topology);
        topo.grid = None;
        topo.adjacency = crate::solver::contact::triangle::VertexTriangles::build(topo.particle_count, &topo.triangles);
        body.topology_version = body.topology_version.wrapping_add(1);
        // Tethers would tie pieces that are no longer connected: drop them.
        body.tethers = None;
        // Bending and membranes across the tear would too: rebuilt over the torn triangles.
        body.dihedral = None;
        body.membrane = None;
        body.prepare_triangle_energies();
    }
}

/// Tears constraint `i`; true if the topology changed.
fn tear(body: &mut Body, i: usize) -> bool {
    let (a, b) = {
        let k = &body.topology.constraints;
        (k.a[i] as usize, k.b[i] as usize)
    };
    if a == b {
        return false;
    }
    if body.topology.triangles.is_empty() {
        snap(Arc::make_mut(&mut body.topology), a, b);
        return true;
    }
    // Split a free end; if both are pinned, only the constraint goes.
    let (p, other) = if !body.is_pinned(a) {
        (a, b)
    } else if !body.is_pinned(b) {
        (b, a)
    } else {
        disable(Arc::make_mut(&mut body.topology), i);
        return true;
    };
    let n = (body.x[other] - body.x[p]).normalize_or_zero();
    if n == Vec3::ZERO {
        return false;
    }
    let xp = body.x[p];
    let ahead = |q: Vec3| (q - xp).dot(n) > 0.0;
    // Which triangles around p move to the copy?
    let topo = &body.topology;
    let moving: Vec<usize> = (0..topo.triangles.len())
        .filter(|&t| {
            let tri = topo.triangles[t];
            tri.contains(&(p as u32)) && ahead((body.x[tri[0] as usize] + body.x[tri[1] as usize] + body.x[tri[2] as usize]) / 3.0)
        })
        .collect();
    let around = topo.triangles.iter().filter(|t| t.contains(&(p as u32))).count();
    if moving.is_empty() || moving.len() == around {
        // The crack line does not separate anything at p: just drop the constraint.
        disable(Arc::make_mut(&mut body.topology), i);
        return true;
    }
    let q = body.duplicate_particle(p);
    let x = body.x.clone();
    let topo = Arc::make_mut(&mut body.topology);
    // Host vertices: make the identity explicit the first time (counted before the copy).
    let nv = topo.vertex_count();
    topo.particle_count += 1;
    topo.rest.push(topo.rest[p]);
    let map = topo.vertex_to_particle.get_or_insert_with(|| (0..nv as u32).collect());
    let source = topo.vertex_source.get_or_insert_with(|| (0..nv as u32).collect());
    let mut new_vertex: Vec<(u32, u32)> = Vec::new(); // old host vertex → its copy
    for &t in &moving {
        for c in 0..3 {
            if topo.triangles[t][c] as usize == p {
                topo.triangles[t][c] = q as u32;
                let v = topo.render_triangles[t][c];
                let copy = match new_vertex.iter().find(|(old, _)| *old == v) {
                    Some(&(_, c)) => c,
                    None => {
                        let c = map.len() as u32;
                        map.push(q as u32);
                        source.push(source[v as usize]);
                        new_vertex.push((v, c));
                        c
                    }
                };
                topo.render_triangles[t][c] = copy;
            }
        }
    }
    // Constraints around p whose other end lies ahead follow the copy.
    let k = &mut topo.constraints;
    for c in 0..k.len() {
        if k.a[c] == k.b[c] {
            continue;
        }
        if k.a[c] as usize == p && ahead(x[k.b[c] as usize]) {
            k.a[c] = q as u32;
        } else if k.b[c] as usize == p && ahead(x[k.a[c] as usize]) {
            k.b[c] = q as u32;
        }
    }
    true
}

fn disable(topo: &mut Topology, i: usize) {
    let k = &mut topo.constraints;
    k.b[i] = k.a[i];
    k.rest[i] = 0.0;
}

/// A rope snaps between `a` and `b`: every constraint spanning the cut goes.
fn snap(topo: &mut Topology, a: usize, b: usize) {
    let (lo, hi) = (a.min(b) as u32, a.max(b) as u32);
    for i in 0..topo.constraints.len() {
        let k = &topo.constraints;
        let (s, e) = (k.a[i].min(k.b[i]), k.a[i].max(k.b[i]));
        if s != e && s <= lo && e >= hi {
            disable(topo, i);
        }
    }
}
