//! The cookers: `cook_mesh` (cloth mesh welding and colouring, the mesh collider's tree) and
//! `cook_soft` (tetrahedral meshes, lattices, render meshes embedded in a lattice,
//! balloons). Each input is cooked twice, through the Rust cooker and through the C ABI,
//! which must agree on accepting it (the rule is written once, in the core); an accepted
//! input must give a topology whose invariants hold:
//!
//! - every constraint joins two different particles that exist, with a finite rest length;
//! - the batches cover the constraints in order, and an independent batch (a graph colour)
//!   has no particle twice;
//! - every triangle refers to particles (and render triangles to vertices) that exist;
//! - welding: every vertex is within the weld distance of its particle, and two particles
//!   are never within it of each other;
//! - an embedded vertex sits where the host put it while the body is at rest;
//! - a few steps later everything a host reads is finite.

use sinew::ffi::body::*;
use sinew::ffi::cloth::*;
use sinew::ffi::collider::*;
use sinew::ffi::result::SinewResult::{self, *};
use sinew::ffi::softbody::*;
use sinew::ffi::types::*;
use sinew::ffi::world::*;
use sinew::math::Vec3;
use sinew::particles::{Body, Material};

use crate::input::{Gen, check, default_of};
use crate::state::{Live, check_normals, hash_world};

fn v(p: SinewVec3) -> Vec3 {
    Vec3::new(p.x, p.y, p.z)
}

/// Positions for a cooker: a jittered sheet or cube with duplicated (seam) vertices, or any
/// floats at all.
fn positions(g: &mut Gen, max: usize) -> Vec<SinewVec3> {
    let n = g.below(max + 1);
    let scale = if g.one_in(8) { g.float() } else { g.range(0.01, 2.0) };
    let mut p: Vec<SinewVec3> = (0..n)
        .map(|i| match g.byte() % 16 {
            0 => g.vec3(),
            1 | 2 => SinewVec3 { x: g.range(-1.0, 1.0) * scale, y: g.range(-1.0, 1.0) * scale, z: g.range(-1.0, 1.0) * scale },
            _ => SinewVec3 { x: (i % 5) as f32 * scale * 0.25, y: ((i / 25) % 5) as f32 * scale * 0.25, z: ((i / 5) % 5) as f32 * scale * 0.25 },
        })
        .collect();
    for _ in 0..g.below(n / 2 + 1) {
        // Seams: a vertex copied, exactly or within a hair.
        let (a, b) = (g.below(n), g.below(n));
        if n > 0 {
            p[a] = p[b];
            if g.one_in(3) {
                p[a].x += g.range(-1e-4, 1e-4);
            }
        }
    }
    p
}

/// A triangle list over `n` vertices: fans and strips, with out-of-range and repeated
/// indices now and then.
fn triangles(g: &mut Gen, n: usize, max: usize) -> Vec<u32> {
    let t = g.below(max + 1);
    let mut idx = Vec::with_capacity(t * 3);
    for k in 0..t {
        if g.one_in(4) {
            idx.extend(g.indices(n, 3));
        } else {
            let a = (k % n.max(1)) as u32;
            let (b, c) = ((a + 1) % n.max(1) as u32, (a + 5) % n.max(1) as u32);
            idx.extend_from_slice(&[a, b, c]);
        }
    }
    if g.one_in(10) && !idx.is_empty() {
        idx.pop();
    }
    idx
}

fn material(g: &mut Gen) -> SinewMaterial {
    let mut m = crate::input::base_material(g);
    if g.one_in(4) {
        g.scramble(&mut m, 2);
    }
    m
}

fn to_material(m: &SinewMaterial) -> Material {
    Material {
        particle_mass: m.particle_mass,
        damping: m.damping,
        gravity_scale: m.gravity_scale,
        stretch_compliance: m.stretch_compliance,
        shear_compliance: m.shear_compliance,
        bend_compliance: m.bend_compliance,
        thickness: m.thickness,
        static_friction: m.static_friction,
        kinetic_friction: m.kinetic_friction,
        collision_mask: m.collision_mask,
        self_collision: m.self_collision != 0,
        density: m.density,
        bend_stiffness: m.bend_stiffness,
        stretch_stiffness: m.stretch_stiffness,
        shear_stiffness: m.shear_stiffness,
        youngs_modulus: m.youngs_modulus,
        poisson_ratio: m.poisson_ratio,
    }
}

/// The invariants of a cooked body's topology (module docs).
pub fn check_topology(body: &Body, what: &str) {
    let t = body.topology();
    let n = t.particle_count;
    assert_eq!(body.positions().len(), n, "{what}: {} positions for {n} particles", body.positions().len());
    assert!(body.positions().iter().all(|p| p.is_finite()), "{what}: a non-finite particle");
    assert!(body.inverse_masses().iter().all(|w| w.is_finite() && *w >= 0.0), "{what}: an inverse mass out of range");
    let c = &t.constraints;
    assert!(c.a.len() == c.b.len() && c.a.len() == c.rest.len(), "{what}: constraint arrays differ in length");
    for i in 0..c.len() {
        let (a, b) = (c.a[i] as usize, c.b[i] as usize);
        assert!(a < n && b < n && a != b, "{what}: constraint {i} joins {a} and {b} of {n} particles");
        assert!(c.rest[i].is_finite() && c.rest[i] >= 0.0, "{what}: constraint {i} has rest length {}", c.rest[i]);
    }
    let mut next = 0u32;
    let mut seen = vec![u32::MAX; n];
    for (k, batch) in c.batches.iter().enumerate() {
        assert_eq!(batch.start, next, "{what}: batch {k} starts at {} after {next}", batch.start);
        assert!(batch.end >= batch.start && batch.end as usize <= c.len(), "{what}: batch {k} is [{}, {})", batch.start, batch.end);
        if batch.independent {
            for i in batch.start..batch.end {
                for p in [c.a[i as usize], c.b[i as usize]] {
                    assert!(seen[p as usize] != k as u32, "{what}: particle {p} appears twice in independent batch {k}");
                    seen[p as usize] = k as u32;
                }
            }
        }
        next = batch.end;
    }
    assert_eq!(next as usize, c.len(), "{what}: the batches cover {next} of {} constraints", c.len());
    for tri in &t.triangles {
        assert!(tri.iter().all(|&p| (p as usize) < n), "{what}: triangle {tri:?} past {n} particles");
    }
    let vc = t.vertex_count();
    for tri in &t.render_triangles {
        assert!(tri.iter().all(|&p| (p as usize) < vc), "{what}: render triangle {tri:?} past {vc} vertices");
    }
    if let Some(map) = &t.vertex_to_particle {
        assert!(map.iter().all(|&p| (p as usize) < n), "{what}: a vertex maps past {n} particles");
    }
    if let Some(e) = &t.embedding {
        for vtx in 0..e.len() {
            assert!(e.particles[vtx].iter().all(|&p| (p as usize) < n), "{what}: vertex {vtx} embedded in a particle past {n}");
            assert!(e.weights[vtx].iter().all(|w| w.is_finite()), "{what}: vertex {vtx} has a non-finite weight");
            let at = e.position(vtx, |i| body.positions()[i]);
            let err = (at - e.rest[vtx]).length();
            assert!(err <= 1e-4 * (1.0 + e.rest[vtx].length()), "{what}: embedded vertex {vtx} is {err} m from where the host put it");
        }
    }
}

/// The body's readbacks through the ABI, after a few steps in `world`.
fn step_and_read(world: SinewWorld, b: SinewBody, steps: usize) {
    let live = Live { bodies: vec![b], ..Default::default() };
    hash_world(world, &live);
    check_normals(&live);
    for _ in 0..steps {
        check(sinew_world_step(world, 1.0 / 60.0), "sinew_world_step");
        hash_world(world, &live);
        check_normals(&live);
    }
}

fn agree(rust: bool, abi: SinewResult, what: &str) {
    check(abi, what);
    assert_eq!(rust, abi == SINEW_OK, "{what}: the Rust cooker {} but the ABI answered {abi:?} ({})", if rust { "accepted" } else { "refused" }, crate::input::last_error());
}

fn with_world(f: impl FnOnce(SinewWorld)) {
    let mut w = SinewWorld::default();
    let mut d = default_of(sinew_world_desc_default);
    crate::input::cheap_world(&mut d, 1);
    assert_eq!(sinew_world_create(&d, &mut w), SINEW_OK);
    f(w);
    assert_eq!(sinew_world_destroy(w), SINEW_OK);
}

/// `cook_mesh`: one render mesh through the cloth cooker and the mesh collider.
pub fn run_mesh(data: &[u8]) {
    let mut g = Gen::new(data);
    let pos = positions(&mut g, 40);
    let idx = triangles(&mut g, pos.len(), 48);
    let weld = match g.byte() % 6 {
        0 => g.float(),
        1 => g.range(0.0, 0.5),
        _ => 1e-4,
    };
    let inv: Vec<f32> = if g.one_in(3) { (0..pos.len() + g.below(2)).map(|_| if g.one_in(3) { 0.0 } else { g.mostly(100.0) }).collect() } else { Vec::new() };
    let m = material(&mut g);
    let p3: Vec<Vec3> = pos.iter().map(|&p| v(p)).collect();
    let spec = sinew::cloth::MeshSpec { positions: &p3, indices: &idx, inverse_masses: &inv, weld_distance: weld, material: to_material(&m) };
    let cooked = sinew::cloth::mesh_body(&spec);
    if let Ok(body) = &cooked {
        check_topology(body, "cloth mesh");
        let t = body.topology();
        let map = t.vertex_to_particle.as_ref().expect("a mesh cloth maps its vertices");
        for (vtx, &p) in map.iter().enumerate() {
            let d = (p3[vtx] - body.positions()[p as usize]).length();
            assert!(d <= weld, "vertex {vtx} is {d} m from its particle, past the weld distance {weld}");
        }
        if t.particle_count <= 64 {
            for i in 0..t.particle_count {
                for j in i + 1..t.particle_count {
                    let d = (body.positions()[i] - body.positions()[j]).length();
                    assert!(d > weld, "particles {i} and {j} are {d} m apart, within the weld distance {weld}");
                }
            }
        }
    }
    with_world(|w| {
        let mut d = default_of(sinew_cloth_mesh_desc_default);
        (d.positions, d.vertex_count, d.indices, d.index_count) = (pos.as_ptr(), pos.len(), idx.as_ptr(), idx.len());
        (d.inverse_masses, d.inverse_mass_count) = (inv.as_ptr(), inv.len());
        d.weld_distance = weld;
        d.material = m;
        let mut b = SinewBody::default();
        let r = sinew_cloth_create_mesh(w, &d, &mut b);
        agree(cooked.is_ok(), r, "sinew_cloth_create_mesh");
        if r == SINEW_OK {
            let mut out = vec![SinewVec3::default(); pos.len()];
            assert_eq!(sinew_body_read_positions(b, out.as_mut_ptr(), out.len()), SINEW_OK);
            for (vtx, (a, b)) in out.iter().zip(&pos).enumerate() {
                let d = (v(*a) - v(*b)).length();
                assert!(d <= weld, "vertex {vtx} reads {d} m from where the host put it (weld distance {weld})");
            }
            step_and_read(w, b, 3);
        }
        // The same mesh as a static collider.
        let mut cd = default_of(sinew_collider_mesh_desc_default);
        (cd.vertices, cd.vertex_count, cd.indices, cd.index_count) = (pos.as_ptr(), pos.len(), idx.as_ptr(), idx.len());
        cd.skip_degenerate = g.below(2) as u32;
        let mut c = SinewCollider::default();
        let r = sinew_collider_create_mesh(w, &cd, &mut c);
        check(r, "sinew_collider_create_mesh");
        if r == SINEW_OK {
            let mut info = SinewColliderMeshInfo::default();
            assert_eq!(sinew_collider_get_mesh_info(c, &mut info), SINEW_OK);
            assert!(info.triangle_count as usize == idx.len() / 3 && info.skipped_triangles <= info.triangle_count, "{} triangles given, collider: {info:?}", idx.len() / 3);
            for (k, p) in pos.iter().enumerate() {
                let inside = [(p.x, info.bounds_min.x, info.bounds_max.x), (p.y, info.bounds_min.y, info.bounds_max.y), (p.z, info.bounds_min.z, info.bounds_max.z)];
                let used = idx.contains(&(k as u32));
                if used && info.skipped_triangles == 0 {
                    assert!(inside.iter().all(|(x, lo, hi)| lo <= x && x <= hi), "vertex {p:?} outside the collider's bounds {info:?}");
                }
            }
            assert_eq!(sinew_collider_destroy(c), SINEW_OK);
        }
    });
}

const CUBE_TRIS: [u32; 36] = [0, 4, 6, 0, 6, 2, 1, 3, 7, 1, 7, 5, 0, 1, 5, 0, 5, 4, 2, 6, 7, 2, 7, 3, 0, 2, 3, 0, 3, 1, 4, 5, 7, 4, 7, 6];

fn soft_settings(g: &mut Gen) -> SinewSoftSettings {
    let mut s = default_of(sinew_soft_settings_default);
    if g.one_in(4) {
        g.scramble(&mut s, 2);
    }
    s
}

fn to_soft(s: &SinewSoftSettings) -> sinew::softbody::SoftSettings {
    sinew::softbody::SoftSettings {
        volume_compliance: s.volume_compliance,
        shape_stiffness: s.shape_stiffness,
        chapter_stiffness: s.chapter_stiffness != 0,
        shape_linear: s.shape_linear,
        plastic_yield: s.plastic_yield,
        plastic_creep: s.plastic_creep,
        plastic_max: s.plastic_max,
        pressure: s.pressure,
        external_pressure: s.external_pressure,
    }
}

/// `cook_soft`: one input through a soft-body cooker (tets, lattice, embedded mesh).
pub fn run_soft(data: &[u8]) {
    let mut g = Gen::new(data);
    let kind = g.byte() % 3;
    let (m, s) = (material(&mut g), soft_settings(&mut g));
    with_world(|w| {
        let mut b = SinewBody::default();
        let (rust, r, what) = match kind {
            0 => {
                let pos = positions(&mut g, 27);
                let tets = {
                    let t = g.below(20);
                    let mut idx = g.indices(pos.len(), t * 4);
                    if g.one_in(8) {
                        idx.pop();
                    }
                    idx
                };
                if std::env::var_os("SINEW_FUZZ_TRACE").is_some() {
                    eprintln!("tets: positions {pos:?}\nindices {tets:?}");
                }
                let p3: Vec<Vec3> = pos.iter().map(|&p| v(p)).collect();
                let quads: Vec<[u32; 4]> = tets.chunks_exact(4).map(|c| [c[0], c[1], c[2], c[3]]).collect();
                let rust = if tets.len() % 4 == 0 {
                    let cooked = sinew::softbody::tet_body(&p3, &quads, to_material(&m), to_soft(&s));
                    if let Ok(body) = &cooked {
                        check_topology(body, "tet body");
                    }
                    Some(cooked.is_ok())
                } else {
                    None
                };
                let r = sinew_softbody_create_tets(w, pos.as_ptr(), pos.len(), tets.as_ptr(), tets.len(), &m, &s, &mut b);
                (rust, r, "sinew_softbody_create_tets")
            }
            1 => {
                let mut d = default_of(sinew_soft_lattice_desc_default);
                (d.nx, d.ny, d.nz) = (g.below(6) as u32, g.below(6) as u32, g.below(6) as u32);
                d.spacing = g.mostly(0.05);
                d.origin = g.point(SinewVec3 { x: 0.0, y: 1.0, z: 0.0 }, 1.0);
                d.orientation = g.quat();
                d.cluster_cells = g.below(5) as u32;
                d.all_neighbours = g.below(2) as u32;
                (d.material, d.soft) = (m, s);
                let spec = sinew::softbody::LatticeSpec {
                    nx: d.nx,
                    ny: d.ny,
                    nz: d.nz,
                    spacing: d.spacing,
                    origin: v(d.origin),
                    orientation: sinew::math::Quat::from_xyzw(d.orientation.x, d.orientation.y, d.orientation.z, d.orientation.w),
                    all_neighbours: d.all_neighbours != 0,
                    cluster_cells: d.cluster_cells,
                    material: to_material(&m),
                    soft: to_soft(&s),
                };
                if std::env::var_os("SINEW_FUZZ_TRACE").is_some() {
                    eprintln!("lattice: {d:?}");
                }
                let cooked = sinew::softbody::lattice_body(&spec);
                if let Ok(body) = &cooked {
                    check_topology(body, "lattice body");
                }
                (Some(cooked.is_ok()), sinew_softbody_create_lattice(w, &d, &mut b), "sinew_softbody_create_lattice")
            }
            _ => {
                // A closed mesh: a cube's surface, moved, scaled, with a corner anywhere, or
                // any triangles over any positions.
                let mut pos = if g.one_in(4) { positions(&mut g, 16) } else {
                    let side = g.mostly(0.3);
                    let at = g.point(SinewVec3 { x: 0.0, y: 1.0, z: 0.0 }, 1.0);
                    (0..8).map(|c| SinewVec3 { x: at.x + side * (c & 1) as f32, y: at.y + side * ((c >> 1) & 1) as f32, z: at.z + side * ((c >> 2) & 1) as f32 }).collect()
                };
                if g.one_in(4) && !pos.is_empty() {
                    let k = g.below(pos.len());
                    pos[k] = g.vec3();
                }
                let idx = if pos.len() == 8 && !g.one_in(4) { CUBE_TRIS.to_vec() } else { triangles(&mut g, pos.len(), 16) };
                // Up to 64 is valid, but a lattice of 64³ cubes takes tens of seconds to cook
                // and step: past 8 (512 cubes) only the refusals are tried.
                let resolution = match g.byte() % 8 {
                    0 => match g.word() {
                        w if w > 64 => w,
                        w => w % 9,
                    },
                    _ => g.below(7) as u32,
                };
                let clusters = g.below(3) as u32;
                if std::env::var_os("SINEW_FUZZ_TRACE").is_some() {
                    eprintln!("soft mesh: positions {pos:?}\nindices {idx:?}\nresolution {resolution}, clusters {clusters}");
                }
                let p3: Vec<Vec3> = pos.iter().map(|&p| v(p)).collect();
                let spec = sinew::softbody::embed::SoftMeshSpec { positions: &p3, indices: &idx, resolution, cluster_cells: clusters, material: to_material(&m), soft: to_soft(&s) };
                let cooked = sinew::softbody::embed::mesh_body(&spec);
                if let Ok(body) = &cooked {
                    check_topology(body, "embedded mesh body");
                }
                let mut d = default_of(sinew_soft_mesh_desc_default);
                (d.positions, d.vertex_count, d.indices, d.index_count) = (pos.as_ptr(), pos.len(), idx.as_ptr(), idx.len());
                (d.resolution, d.cluster_cells, d.material, d.soft) = (resolution, clusters, m, s);
                (Some(cooked.is_ok()), sinew_softbody_create_from_mesh(w, &d, &mut b), "sinew_softbody_create_from_mesh")
            }
        };
        match rust {
            Some(ok) => agree(ok, r, what),
            None => check(r, what),
        }
        if r == SINEW_OK {
            step_and_read(w, b, 3);
        }
    });
}
