//! Soft bodies against laws (World API): shape matching keeps linear and angular momentum
//! and recovers the rest shape up to a rigid motion, tetrahedra keep their volume and
//! recover from a squeeze with momentum kept, a jelly rests on a plane without sinking in
//! with its volume kept, a soft bar sags less as it stiffens, the chapter's mode is its
//! pseudo-code.
mod shapes_common;
use shapes_common::icosphere;

use sinew::collider::Collider;
use sinew::geometry::{Pose, Shape};
use sinew::math::{Quat, Vec3};
use sinew::particles::{Dynamics, Material};
use sinew::softbody::{LatticeSpec, SoftSettings};
use sinew::world::{World, WorldSettings};

const DT: f32 = 1.0 / 60.0;

fn world(gravity: Vec3) -> World {
    let mut w = World::new(WorldSettings { gravity, thread_count: 1, ..Default::default() }).unwrap();
    w.sequential = true;
    w
}

fn no_damping() -> Material {
    Material { damping: 0.0, bend_compliance: 0.0, ..Material::default() }
}

fn positions(w: &World, b: (usize, u32)) -> Vec<Vec3> {
    let body = w.bodies.get(b.0, b.1).unwrap();
    let mut x = vec![Vec3::ZERO; body.particle_count()];
    body.read_positions(1.0, &mut x);
    x
}

/// Linear and angular momentum (about the origin) of a body's equal-mass particles.
fn momenta(w: &World, b: (usize, u32), m: f32) -> (Vec3, Vec3) {
    let body = w.bodies.get(b.0, b.1).unwrap();
    let (mut p, mut l) = (Vec3::ZERO, Vec3::ZERO);
    for (x, v) in body.positions().iter().zip(body.particle_velocities()) {
        p += *v * m;
        l += x.cross(*v * m);
    }
    (p, l)
}

/// A lattice with shape matching only (the distance and volume constraints made ~free:
/// compliance 1000), random particle velocities, no gravity, no damping, no sleep.
fn spinning_jelly(stiffness: f32, clusters: u32) -> (World, (usize, u32), LatticeSpec) {
    let spec = LatticeSpec {
        nx: 5,
        ny: 4,
        nz: 3,
        spacing: 0.1,
        cluster_cells: clusters,
        material: Material { stretch_compliance: 1e3, shear_compliance: 1e3, ..no_damping() },
        soft: SoftSettings { shape_stiffness: stiffness, volume_compliance: 1e3, ..Default::default() },
        ..Default::default()
    };
    let mut w = world(Vec3::ZERO);
    let b = w.create_soft_lattice(&spec).unwrap();
    let body = w.bodies.get_mut(b.0, b.1).unwrap();
    body.set_dynamics(Dynamics { sleep_threshold: 0.0, drag: 0.0, lift: 0.0, ..Default::default() }).unwrap();
    let mut seed = 12345u32;
    let mut rnd = || {
        seed = seed.wrapping_mul(1664525).wrapping_add(1013904223);
        (seed >> 8) as f32 / (1u32 << 24) as f32 - 0.5
    };
    let v: Vec<Vec3> = (0..body.particle_count()).map(|_| Vec3::new(rnd(), rnd(), rnd()) * 2.0).collect();
    body.set_velocities(&v).unwrap();
    (w, b, spec)
}

#[test]
fn shape_matching_keeps_linear_and_angular_momentum() {
    for stiffness in [0.1, 0.5, 1.0] {
        for clusters in [0, 2] {
            let (mut w, b, spec) = spinning_jelly(stiffness, clusters);
            let m = spec.material.particle_mass;
            let (p0, l0) = momenta(&w, b, m);
            let frames = 30;
            for _ in 0..frames {
                w.step(DT).unwrap();
            }
            let (p1, l1) = momenta(&w, b, m);
            // Float precision: every update of a position rounds it by up to ε|x|/2, which the
            // velocity update divides by h. Over the updates of a substep (each particle's
            // distance constraints, tetrahedra and clusters) and N substeps they add up as a
            // random walk: m·ε·|x|·√(updates·N)/h; twice that is the bound.
            let body = w.bodies.get(b.0, b.1).unwrap();
            let xmax = body.positions().iter().map(|x| x.length()).fold(0.0f32, f32::max);
            let soft = body.soft().unwrap();
            let updates = body.particle_count() + 2 * body.topology().constraints.len() + 4 * soft.shape.tets.len() + soft.shape.clusters.particles.len();
            let (substeps, h) = ((frames * 8) as f32, DT / 8.0);
            let bound = 2.0 * m * f32::EPSILON * xmax * (updates as f32 * substeps).sqrt() / h;
            println!(
                "stiffness {stiffness}, clusters {clusters}: |Δp| {:.2e} of {:.2e}, |ΔL| {:.2e} of {:.2e} (float bound {bound:.2e}, ×|x| {:.2e})",
                (p1 - p0).length(),
                p0.length(),
                (l1 - l0).length(),
                l0.length(),
                bound * xmax
            );
            assert!((p1 - p0).length() < bound, "linear momentum {p0} → {p1}");
            // Each pass keeps Σ x × Δx = 0 to float precision (the kernel's own test,
            // `shape_match::momentum_tests`); the angular momentum of the trajectory,
            // Σ m x × (x − x_prev)/h, moves by Σ x_prev × Δx / h per pass: second order in the
            // substep, and with violent internal motion (±1 m/s between neighbours 0.1 m
            // apart) it stays within a few per cent over half a second.
            assert!((l1 - l0).length() < 0.03 * l0.length(), "angular momentum {l0} → {l1}");
            // And the internal motion is gone (or going): it is a soft body, not a gas.
            let v = body.particle_velocities();
            let spread = v.iter().map(|u| (*u - p1 / (m * body.particle_count() as f32)).length()).fold(0.0f32, f32::max);
            assert!(spread < 2.0, "particles still fly apart at {spread} m/s");
        }
    }
}

#[test]
fn full_stiffness_recovers_the_rest_shape_in_one_step_up_to_a_rigid_motion() {
    // The chapter's mode at stiffness 1: one substep puts every particle on its goal.
    let spec = LatticeSpec {
        nx: 4,
        ny: 3,
        nz: 3,
        spacing: 0.1,
        material: Material { stretch_compliance: 1e3, shear_compliance: 1e3, ..no_damping() },
        soft: SoftSettings { shape_stiffness: 1.0, chapter_stiffness: true, volume_compliance: 1e3, ..Default::default() },
        ..Default::default()
    };
    let mut w = World::new(WorldSettings { gravity: Vec3::ZERO, thread_count: 1, substeps: 1, ..Default::default() }).unwrap();
    w.sequential = true;
    let b = w.create_soft_lattice(&spec).unwrap();
    let rest = spec.positions();
    // Deform it: a shear, a squash and noise, then a turn and a shift.
    let turn = Quat::from_rotation_z(0.6) * Quat::from_rotation_x(-0.3);
    let deformed: Vec<Vec3> = rest
        .iter()
        .enumerate()
        .map(|(i, p)| turn * Vec3::new(p.x + 0.4 * p.y, 0.7 * p.y, p.z * 1.2 + 0.01 * (i as f32 * 1.7).sin()) + Vec3::new(0.3, 0.2, -0.1))
        .collect();
    w.bodies.get_mut(b.0, b.1).unwrap().set_positions(&deformed).unwrap();
    w.step(DT).unwrap();
    let x = positions(&w, b);
    // Best rigid fit of the result to the rest shape: it is the rest shape exactly.
    let (cx, cr) = (x.iter().sum::<Vec3>() / x.len() as f32, rest.iter().sum::<Vec3>() / rest.len() as f32);
    let mut worst = 0.0f32;
    for i in 0..x.len() {
        for j in 0..x.len() {
            let d = (x[i] - x[j]).length() - (rest[i] - rest[j]).length();
            worst = worst.max(d.abs());
        }
    }
    println!("after one substep at stiffness 1: worst pairwise distance error {worst:.2e} m (centre {cx} vs rest {cr})");
    assert!(worst < 1e-5, "not the rest shape: {worst} m");
}

fn floor(w: &mut World) {
    w.add_collider(Collider::new(Shape::Plane, u32::MAX, Pose { rotation: Quat::IDENTITY, position: Vec3::ZERO, scale: 1.0 }).unwrap()).unwrap();
}

/// A jelly cube: `n³` particles `spacing` apart, 1 kg, soft edges, shape matching 0.3.
fn jelly(n: u32, spacing: f32, at: Vec3) -> LatticeSpec {
    let particles = (n * n * n) as f32;
    LatticeSpec {
        nx: n,
        ny: n,
        nz: n,
        spacing,
        origin: at,
        material: Material { particle_mass: 1.0 / particles, stretch_compliance: 1e-4, shear_compliance: 1e-4, damping: 0.1, ..Material::default() },
        soft: SoftSettings { shape_stiffness: 0.3, ..Default::default() },
        ..Default::default()
    }
}

#[test]
fn a_squeezed_body_returns_to_its_rest_volume_with_its_momentum() {
    let spec = LatticeSpec { material: Material { stretch_compliance: 1e-2, shear_compliance: 1e-2, ..no_damping() }, soft: SoftSettings { shape_stiffness: 0.0, ..Default::default() }, ..jelly(5, 0.05, Vec3::ZERO) };
    let mut w = world(Vec3::ZERO);
    let b = w.create_soft_lattice(&spec).unwrap();
    let body = w.bodies.get_mut(b.0, b.1).unwrap();
    let (_, rest) = body.soft_volume().unwrap();
    // Squashed to half its height (half its volume), at rest.
    let squashed: Vec<Vec3> = body.positions().iter().map(|p| Vec3::new(p.x, 0.5 * p.y, p.z)).collect();
    body.set_positions(&squashed).unwrap();
    let (v0, _) = body.soft_volume().unwrap();
    let c0 = body.center_of_mass();
    let m = spec.material.particle_mass;
    let (p0, _) = momenta(&w, b, m);
    w.step(DT).unwrap();
    let body = w.bodies.get(b.0, b.1).unwrap();
    let (v1, _) = body.soft_volume().unwrap();
    let (p1, _) = momenta(&w, b, m);
    println!("squeezed to {:.3} of the rest volume: {:.5} after one step; centre moved {:.2e} m; |Δp| {:.2e}", v0 / rest, v1 / rest, (body.center_of_mass() - c0).length(), (p1 - p0).length());
    assert!((v0 / rest - 0.5).abs() < 1e-3);
    assert!((v1 / rest - 1.0).abs() < 0.01, "volume {v1} of {rest} after a step");
    assert!((body.center_of_mass() - c0).length() < 1e-5, "the centre of mass moved");
    assert!((p1 - p0).length() < 1e-5, "momentum {p0} → {p1}");
}

#[test]
fn a_jelly_dropped_on_a_plane_comes_to_rest_on_it_with_its_volume() {
    let spec = jelly(6, 0.05, Vec3::new(0.0, 0.6, 0.0));
    let mut w = world(Vec3::new(0.0, -9.81, 0.0));
    floor(&mut w);
    let b = w.create_soft_lattice(&spec).unwrap();
    let thickness = spec.material.thickness;
    let (mut deepest, mut worst_volume, mut rest_at) = (0.0f32, 0.0f32, None);
    for f in 0..240 {
        w.step(DT).unwrap();
        let body = w.bodies.get(b.0, b.1).unwrap();
        let low = body.positions().iter().map(|p| p.y).fold(f32::INFINITY, f32::min);
        deepest = deepest.max(thickness - low);
        let (v, v0) = body.soft_volume().unwrap();
        if f > 60 {
            worst_volume = worst_volume.max((v / v0 - 1.0).abs());
        }
        let fastest = body.particle_velocities().iter().map(|v| v.length()).fold(0.0f32, f32::max);
        if rest_at.is_none() && f > 30 && (fastest < 1e-3 || body.is_asleep()) {
            rest_at = Some(f);
        }
    }
    println!("jelly 6³ dropped 0.5 m: deepest penetration {:.2} mm (particle radius {thickness} m), worst volume error after landing {:.3} %, at rest at frame {rest_at:?}", deepest * 1e3, worst_volume * 100.0);
    assert!(deepest < 1e-3, "sank {deepest} m into the floor");
    assert!(worst_volume < 0.01, "volume off by {worst_volume}");
    assert!(rest_at.is_some(), "never came to rest");
}

/// Winding number of the closed surface `tris` over `x` about point `p` (Van Oosterom and
/// Strackee's solid angle per triangle, summed over 4π): 1 inside, 0 outside.
fn winding(p: Vec3, x: &[Vec3], tris: &[[u32; 3]]) -> f32 {
    let mut total = 0.0f32;
    for t in tris {
        let [a, b, c] = t.map(|i| x[i as usize] - p);
        let (la, lb, lc) = (a.length(), b.length(), c.length());
        let num = a.dot(b.cross(c));
        let den = la * lb * lc + a.dot(b) * lc + b.dot(c) * la + c.dot(a) * lb;
        total += 2.0 * num.atan2(den);
    }
    total / (4.0 * std::f32::consts::PI)
}

#[test]
fn two_jellies_dropped_on_each_other_do_not_interpenetrate() {
    let mut w = world(Vec3::new(0.0, -9.81, 0.0));
    floor(&mut w);
    let a = w.create_soft_lattice(&jelly(5, 0.05, Vec3::new(0.0, 0.2, 0.0))).unwrap();
    let b = w.create_soft_lattice(&jelly(5, 0.05, Vec3::new(0.04, 0.6, 0.02))).unwrap();
    w.set_body_pair(a, b, true).unwrap();
    let tris = w.bodies.get(a.0, a.1).unwrap().topology().triangles.clone();
    // The measure itself: a's own centre is inside a, a point beside it is not.
    let pa0 = positions(&w, a);
    let centre = pa0.iter().sum::<Vec3>() / pa0.len() as f32;
    assert!((winding(centre, &pa0, &tris) - 1.0).abs() < 1e-3 && winding(centre + Vec3::X, &pa0, &tris).abs() < 1e-3);
    let (mut inside, mut deepest_frame) = (0.0f32, None);
    let mut touched = false;
    for f in 0..180 {
        w.step(DT).unwrap();
        let (pa, pb) = (positions(&w, a), positions(&w, b));
        // Every particle of the upper one against the lower one's surface, and back.
        for (p, q, tq) in [(&pb, &pa, &tris), (&pa, &pb, &tris)] {
            for x in p.iter() {
                let k = winding(*x, q, tq);
                if k > inside {
                    inside = k;
                    deepest_frame = Some(f);
                }
            }
        }
        let top_a = pa.iter().map(|p| p.y).fold(f32::NEG_INFINITY, f32::max);
        let low_b = pb.iter().map(|p| p.y).fold(f32::INFINITY, f32::min);
        touched |= low_b - top_a < 0.03;
    }
    println!("two jellies dropped on each other: largest winding number of a particle in the other {inside:.3} (frame {deepest_frame:?}); they touched: {touched}");
    assert!(touched, "the upper jelly never reached the lower one");
    assert!(inside < 0.5, "a particle got inside the other jelly (winding number {inside})");
}

#[test]
fn a_soft_bar_sags_less_as_it_stiffens_and_as_a_cantilever_does() {
    // A bar 12 × 3 × 3 particles 5 cm apart, its first two layers pinned, under gravity.
    let sag = |compliance: f32| {
        let spec = LatticeSpec {
            nx: 12,
            ny: 3,
            nz: 3,
            spacing: 0.05,
            origin: Vec3::new(0.0, 1.0, 0.0),
            material: Material { particle_mass: 0.01, stretch_compliance: compliance, shear_compliance: compliance, damping: 2.0, gravity_scale: 0.05, ..Material::default() },
            // The distance lattice alone: volumes free (rigid tetrahedra would hold the bar by
            // themselves: bending changes their volumes).
            soft: SoftSettings { shape_stiffness: 0.0, volume_compliance: 1e3, ..Default::default() },
            ..Default::default()
        };
        // Enough substeps and iterations for the stiff bars to converge (at the defaults the
        // solver's own softness sets a floor on the sag).
        let mut w = World::new(WorldSettings { gravity: Vec3::new(0.0, -9.81, 0.0), thread_count: 1, substeps: 32, iterations: 8, ..Default::default() }).unwrap();
        w.sequential = true;
        let b = w.create_soft_lattice(&spec).unwrap();
        let fixed: Vec<u32> = (0..spec.nz).flat_map(|k| (0..spec.ny).flat_map(move |j| (0..2).map(move |i| (k * 3 + j) * 12 + i))).collect();
        w.bodies.get_mut(b.0, b.1).unwrap().pin(&fixed).unwrap();
        for _ in 0..300 {
            w.step(DT).unwrap();
        }
        let x = positions(&w, b);
        let tip: f32 = (0..9).map(|q| x[(q * 12 + 11) as usize].y).sum::<f32>() / 9.0;
        1.0 - tip
    };
    let sags: Vec<(f32, f32)> = [1e-2, 1e-3, 1e-4, 1e-5].iter().map(|&c| (c, sag(c))).collect();
    println!("bar tip sag by compliance: {sags:?}");
    for pair in sags.windows(2) {
        assert!(pair[1].1 < pair[0].1, "stiffer sagged more: {pair:?}");
    }
    // At small deflection (a twentieth of g: a few millimetres) a cantilever's tip sag is
    // linear in the load over the stiffness: ten times stiffer, a tenth of the sag. The
    // solver adds a floor of its own (each substep leaves ~g·h² per link uncorrected: it
    // is what the stiffest bars show), small against α·m·g while α ≫ h²/m = 2.7e-5 here.
    let ratio = sags[0].1 / sags[1].1;
    println!("tenfold stiffness (1e-2 → 1e-3 m/N): sag ratio {ratio:.2}");
    assert!((ratio / 10.0 - 1.0).abs() < 0.15, "sag ratio {ratio} for a tenfold stiffness");
}

/// A UV sphere as a render mesh: `rings × segments` with the seam's vertices doubled (as a
/// Unity sphere has them), wound outward.
fn uv_sphere(radius: f32, rings: u32, segments: u32, centre: Vec3) -> (Vec<Vec3>, Vec<u32>) {
    let mut p = Vec::new();
    for r in 0..=rings {
        let theta = std::f32::consts::PI * r as f32 / rings as f32;
        for s in 0..=segments {
            let phi = std::f32::consts::TAU * s as f32 / segments as f32;
            p.push(centre + Vec3::new(theta.sin() * phi.cos(), theta.cos(), theta.sin() * phi.sin()) * radius);
        }
    }
    let row = segments + 1;
    let mut idx = Vec::new();
    for r in 0..rings {
        for s in 0..segments {
            let (a, b, c, d) = (r * row + s, r * row + s + 1, (r + 1) * row + s, (r + 1) * row + s + 1);
            idx.extend_from_slice(&[a, b, c, b, d, c]);
        }
    }
    (p, idx)
}

#[test]
fn a_render_mesh_embedded_at_rest_reads_back_exactly_as_given() {
    use sinew::softbody::embed::SoftMeshSpec;
    let (p, idx) = uv_sphere(0.2, 12, 16, Vec3::new(0.3, 1.0, -0.2));
    let mut w = world(Vec3::ZERO);
    let spec = SoftMeshSpec { positions: &p, indices: &idx, resolution: 6, cluster_cells: 0, material: jelly(4, 0.05, Vec3::ZERO).material, soft: SoftSettings::default() };
    let b = w.create_soft_mesh(&spec).unwrap();
    let body = w.bodies.get_mut(b.0, b.1).unwrap();
    assert_eq!(body.topology().vertex_count(), p.len());
    let mut out = vec![Vec3::ZERO; p.len()];
    body.read_positions(1.0, &mut out);
    assert_eq!(out, p, "at rest the mesh reads back as given, bit for bit");
    // A second of stepping without gravity: the lattice stays at rest up to its constraints'
    // rounding, and so does the mesh.
    for _ in 0..60 {
        w.step(DT).unwrap();
    }
    let body = w.bodies.get_mut(b.0, b.1).unwrap();
    body.read_positions(1.0, &mut out);
    let drift = out.iter().zip(&p).map(|(a, b)| a.distance(*b)).fold(0.0f32, f32::max);
    assert!(drift < 1e-5, "the mesh drifted {drift} m at rest");
    // Normals from the host's triangles: outward on a sphere.
    let mut n = vec![Vec3::ZERO; p.len()];
    body.read_normals(1.0, &mut n).unwrap();
    // The mesh's own area-weighted normals, computed here from its triangles.
    let mut own = vec![Vec3::ZERO; p.len()];
    for t in idx.chunks_exact(3) {
        let face = (p[t[1] as usize] - p[t[0] as usize]).cross(p[t[2] as usize] - p[t[0] as usize]);
        for &v in t {
            own[v as usize] += face;
        }
    }
    let worst = own.iter().zip(&n).map(|(o, n)| n.dot(o.try_normalize().unwrap_or(Vec3::Y))).fold(1.0f32, f32::min);
    println!("embedded sphere ({} vertices, {} particles): read back exactly; after 1 s at rest within {drift:.1e} m; worst normal·(the mesh's own normal) {worst:.6}", p.len(), body.particle_count());
    assert!(worst > 0.9999, "normals {worst}");
    // Bad meshes are refused.
    let bad = SoftMeshSpec { resolution: 0, ..spec.clone() };
    assert!(w.create_soft_mesh(&bad).is_err());
    let short = [0u32, 1, 2, 3];
    assert!(w.create_soft_mesh(&SoftMeshSpec { indices: &short, ..spec.clone() }).is_err());
    let far = [0u32, 1, 9999, 0, 1, 2, 0, 2, 3, 1, 2, 3];
    assert!(w.create_soft_mesh(&SoftMeshSpec { indices: &far, ..spec.clone() }).is_err());
}

#[test]
fn an_embedded_jelly_falls_rests_and_keeps_its_mesh_above_the_floor() {
    use sinew::softbody::embed::SoftMeshSpec;
    let (p, idx) = uv_sphere(0.15, 10, 14, Vec3::new(0.0, 0.6, 0.0));
    let mut w = world(Vec3::new(0.0, -9.81, 0.0));
    floor(&mut w);
    let spec = SoftMeshSpec { positions: &p, indices: &idx, resolution: 5, cluster_cells: 0, material: jelly(4, 0.05, Vec3::ZERO).material, soft: SoftSettings { shape_stiffness: 0.3, ..Default::default() } };
    let b = w.create_soft_mesh(&spec).unwrap();
    let mut lowest = f32::INFINITY;
    let mut out = vec![Vec3::ZERO; p.len()];
    for _ in 0..180 {
        w.step(DT).unwrap();
        w.bodies.get(b.0, b.1).unwrap().read_positions(1.0, &mut out);
        lowest = lowest.min(out.iter().map(|v| v.y).fold(f32::INFINITY, f32::min));
    }
    let body = w.bodies.get(b.0, b.1).unwrap();
    let (v, v0) = body.soft_volume().unwrap();
    let c = body.center_of_mass();
    println!("embedded sphere dropped 0.45 m: lowest render vertex {:.2} mm above the floor, volume {:.3} % off, centre at {c}", lowest * 1e3, (v / v0 - 1.0) * 100.0);
    assert!(lowest > -1e-3, "the render mesh went {lowest} m into the floor");
    assert!((v / v0 - 1.0).abs() < 0.01);
    assert!(c.y < 0.3, "it fell (centre {c})");
}

/// The rotation of `a`'s polar decomposition computed independently of the library: in f64,
/// `R = A (AᵀA)^(−½)` through a Jacobi eigendecomposition of `AᵀA`.
fn polar_reference(a: [[f64; 3]; 3]) -> [[f64; 3]; 3] {
    let mul = |x: &[[f64; 3]; 3], y: &[[f64; 3]; 3]| {
        let mut r = [[0.0; 3]; 3];
        for i in 0..3 {
            for j in 0..3 {
                r[i][j] = (0..3).map(|k| x[i][k] * y[k][j]).sum();
            }
        }
        r
    };
    let t = |x: &[[f64; 3]; 3]| std::array::from_fn::<[f64; 3], 3, _>(|i| std::array::from_fn(|j| x[j][i]));
    let mut m = mul(&t(&a), &a);
    let mut v = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]];
    for _ in 0..50 {
        for (p, q) in [(0, 1), (0, 2), (1, 2)] {
            if m[p][q].abs() < 1e-300 {
                continue;
            }
            let theta = (m[q][q] - m[p][p]) / (2.0 * m[p][q]);
            let tt = theta.signum() / (theta.abs() + (theta * theta + 1.0).sqrt());
            let (c, s) = (1.0 / (tt * tt + 1.0).sqrt(), tt / (tt * tt + 1.0).sqrt());
            let mut j = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]];
            j[p][p] = c;
            j[q][q] = c;
            j[p][q] = s;
            j[q][p] = -s;
            m = mul(&t(&j), &mul(&m, &j));
            v = mul(&v, &j);
        }
    }
    let inv_sqrt: [[f64; 3]; 3] = std::array::from_fn(|i| std::array::from_fn(|j| if i == j { 1.0 / m[i][i].sqrt() } else { 0.0 }));
    mul(&a, &mul(&v, &mul(&inv_sqrt, &t(&v))))
}

#[test]
fn the_chapter_mode_is_its_pseudo_code() {
    // One substep, one iteration, the chapter's mode: every particle moves `stiffness` of
    // the way to centre of mass + R × rest offset, R the best-fit rotation. Distance and
    // volume constraints made ~free (compliance 1000, and 1 kg particles: they move the
    // particles by ~w·C·h²/α ≈ 1e-8 m) so that the step is the matching.
    let k = 0.3f32;
    let spec = LatticeSpec {
        nx: 4,
        ny: 3,
        nz: 3,
        spacing: 0.1,
        material: Material { particle_mass: 1.0, stretch_compliance: 1e3, shear_compliance: 1e3, ..no_damping() },
        soft: SoftSettings { shape_stiffness: k, chapter_stiffness: true, volume_compliance: 1e3, ..Default::default() },
        ..Default::default()
    };
    let mut w = World::new(WorldSettings { gravity: Vec3::ZERO, thread_count: 1, substeps: 1, iterations: 1, ..Default::default() }).unwrap();
    w.sequential = true;
    let b = w.create_soft_lattice(&spec).unwrap();
    let rest = spec.positions();
    let turn = Quat::from_rotation_y(0.8) * Quat::from_rotation_z(0.25);
    let x0: Vec<Vec3> = rest.iter().enumerate().map(|(i, p)| turn * Vec3::new(1.1 * p.x + 0.3 * p.y, 0.8 * p.y, p.z + 0.02 * (i as f32).cos()) + Vec3::new(0.5, 0.0, 0.2)).collect();
    w.bodies.get_mut(b.0, b.1).unwrap().set_positions(&x0).unwrap();
    w.step(DT).unwrap();
    let got = positions(&w, b);
    // The direct computation, in f64.
    let n = x0.len() as f64;
    let c: [f64; 3] = std::array::from_fn(|d| x0.iter().map(|p| p[d] as f64).sum::<f64>() / n);
    let rc: [f64; 3] = std::array::from_fn(|d| rest.iter().map(|p| p[d] as f64).sum::<f64>() / n);
    let mut a = [[0.0f64; 3]; 3];
    for (p, q) in x0.iter().zip(&rest) {
        for i in 0..3 {
            for j in 0..3 {
                a[i][j] += (p[i] as f64 - c[i]) * (q[j] as f64 - rc[j]);
            }
        }
    }
    let r = polar_reference(a);
    let mut worst = 0.0f64;
    for (i, (p, q)) in x0.iter().zip(&rest).enumerate() {
        let off: [f64; 3] = std::array::from_fn(|d| q[d] as f64 - rc[d]);
        for d in 0..3 {
            let goal = c[d] + (0..3).map(|e| r[d][e] * off[e]).sum::<f64>();
            let expect = p[d] as f64 + (goal - p[d] as f64) * k as f64;
            worst = worst.max((expect - got[i][d] as f64).abs());
        }
    }
    println!("the chapter's mode against its pseudo-code computed directly (f64, Jacobi polar): worst difference {worst:.2e} m");
    assert!(worst < 5e-7, "{worst} m from the pseudo-code");
}

#[test]
fn a_body_deformed_past_its_yield_keeps_the_deformation_its_plasticity_allows() {
    let run = |creep: f32| {
        let spec = LatticeSpec {
            nx: 4,
            ny: 4,
            nz: 4,
            spacing: 0.1,
            material: Material { stretch_compliance: 1e3, shear_compliance: 1e3, damping: 2.0, ..no_damping() },
            soft: SoftSettings { shape_stiffness: 0.3, volume_compliance: 1e3, plastic_yield: 0.05, plastic_creep: creep, plastic_max: 0.2, ..Default::default() },
            ..Default::default()
        };
        let mut w = world(Vec3::ZERO);
        let b = w.create_soft_lattice(&spec).unwrap();
        let rest = spec.positions();
        // Stretched to 1.5 along X (volume kept): far past the yield.
        let s = 1.5f32;
        let stretched: Vec<Vec3> = rest.iter().map(|p| Vec3::new(p.x * s, p.y / s.sqrt(), p.z / s.sqrt())).collect();
        w.bodies.get_mut(b.0, b.1).unwrap().set_positions(&stretched).unwrap();
        for _ in 0..240 {
            w.step(DT).unwrap();
        }
        // The shape it settled in: its extent along X against the rest's.
        let x = positions(&w, b);
        let extent = |v: &[Vec3]| v.iter().map(|p| p.x).fold(f32::NEG_INFINITY, f32::max) - v.iter().map(|p| p.x).fold(f32::INFINITY, f32::min);
        extent(&x) / extent(&rest)
    };
    let elastic = run(0.0);
    let plastic = run(50.0);
    // A volume-keeping stretch diag(λ, λ^-½, λ^-½) with ‖P − 1‖_F = max: the largest λ it allows.
    let max = 0.2f32;
    let lambda = (1.0f32..2.0).step_by_f32(1e-4).find(|&l| ((l - 1.0).powi(2) + 2.0 * (l.powf(-0.5) - 1.0).powi(2)).sqrt() >= max).unwrap();
    println!("stretched 1.5× and let go: elastic returns to {elastic:.4}× its length, plastic (creep 50/s, max 0.2) keeps {plastic:.4}× (the max allows {lambda:.4}×)");
    assert!((elastic - 1.0).abs() < 0.01, "an elastic body comes back: {elastic}");
    assert!(plastic > 1.05, "a plastic body keeps some of the stretch: {plastic}");
    assert!((plastic - lambda).abs() < 0.03, "the permanent stretch {plastic} against the most plastic_max allows, {lambda}");
}

trait StepBy {
    fn step_by_f32(self, step: f32) -> Box<dyn Iterator<Item = f32>>;
}

impl StepBy for std::ops::Range<f32> {
    fn step_by_f32(self, step: f32) -> Box<dyn Iterator<Item = f32>> {
        let (start, end) = (self.start, self.end);
        Box::new((0..).map(move |k| start + k as f32 * step).take_while(move |&v| v < end))
    }
}

/// A 5³ jelly under a box lid pressed down to `fraction` of its height, held, lifted, in a world
/// of `substeps`: the smallest tetrahedron over the run (of its rest volume) and the volume
/// after (of rest).
fn crush(fraction: f32, substeps: u32) -> (f32, f32) {
    let spec = jelly(5, 0.05, Vec3::new(0.0, 0.11, 0.0));
    let mut w = World::new(WorldSettings { gravity: Vec3::new(0.0, -9.81, 0.0), thread_count: 1, substeps, ..Default::default() }).unwrap();
    w.sequential = true;
    floor(&mut w);
    let b = w.create_soft_lattice(&spec).unwrap();
    let lid = |y: f32| Pose { rotation: Quat::IDENTITY, position: Vec3::new(0.0, y + 0.1, 0.0), scale: 1.0 };
    let c = w.add_collider(Collider::new(Shape::Box { half_extents: Vec3::new(0.5, 0.1, 0.5) }, u32::MAX, lid(0.4)).unwrap()).unwrap();
    let (top, squeezed) = (0.4f32, 0.2 * fraction + 0.01);
    let mut smallest = f32::INFINITY;
    for f in 0..300 {
        let y = if f < 60 { top - (top - squeezed) * f as f32 / 60.0 } else if f < 150 { squeezed } else { squeezed + (top - squeezed) * ((f - 150) as f32 / 30.0).min(1.0) };
        w.colliders.get_mut(c.0, c.1).unwrap().set_target(lid(y)).unwrap();
        w.step(DT).unwrap();
        let body = w.bodies.get(b.0, b.1).unwrap();
        let x = body.positions();
        for t in &body.soft().unwrap().shape.tets.index {
            let [a, bb, cc, d] = t.map(|i| x[i as usize]);
            smallest = smallest.min(sinew::solver::constraints::volume::signed_volume(a, bb, cc, d));
        }
    }
    let body = w.bodies.get(b.0, b.1).unwrap();
    let (v, v0) = body.soft_volume().unwrap();
    (smallest / body.soft().unwrap().shape.tets.rest[0], v / v0)
}

#[test]
fn a_jelly_crushed_by_a_box_never_inverts_and_recovers() {
    // At the defaults (8 substeps) to 60 % of its height; to 50 % with 16 substeps (at 8 some
    // tetrahedra invert for a while, −0.56 of their rest volume, and come back). Further down
    // it does not hold: to 40 % even 32 substeps leave −0.004 (the inversion-robust material is
    // not built).
    for (fraction, substeps) in [(0.6f32, 8u32), (0.5, 16)] {
        let (smallest, after) = crush(fraction, substeps);
        println!("crushed to {:.0} % of its height ({substeps} substeps) and released: smallest tetrahedron {smallest:.3} of its rest volume, volume after {after:.4} of rest", fraction * 100.0);
        assert!(smallest > 0.0, "a tetrahedron inverted ({smallest} of its rest volume)");
        assert!((after - 1.0).abs() < 0.01, "volume {after} of rest after release");
    }
}

#[test]
fn a_balloon_inflates_and_deflates_as_an_ideal_gas_in_an_elastic_skin() {
    let (p, idx) = icosphere(0.2, 2);
    let alpha = 2e-2f32;
    let material = Material { stretch_compliance: alpha, bend_compliance: 1e3, damping: 3.0, ..no_damping() };
    // Uniformly scaled by s, the gas (p₀/s³ at s³V₀) against the outside and the skin's
    // energy Σ (s − 1)² l₀² / 2α balance where (p₀/s − p_ext s²) · 3V₀α / Σl₀² = s − 1.
    let v0: f32 = idx.chunks_exact(3).map(|t| p[t[0] as usize].dot(p[t[1] as usize].cross(p[t[2] as usize])) / 6.0).sum();
    let mut edges = std::collections::BTreeSet::new();
    for t in idx.chunks_exact(3) {
        for k in 0..3 {
            let (a, b) = (t[k], t[(k + 1) % 3]);
            edges.insert((a.min(b), a.max(b)));
        }
    }
    let l2: f32 = edges.iter().map(|&(a, b)| p[a as usize].distance_squared(p[b as usize])).sum();
    let predicted = |p0: f32, pe: f32| {
        let (mut lo, mut hi) = (0.3f32, 3.0f32);
        for _ in 0..60 {
            let s = 0.5 * (lo + hi);
            let f = (p0 / s - pe * s * s) * 3.0 * v0 * alpha / l2 - (s - 1.0);
            if f > 0.0 { lo = s } else { hi = s }
        }
        0.5 * (lo + hi)
    };
    for (p0, pe, name) in [(20.0f32, 0.0f32, "inflated"), (40.0, 0.0, "inflated more"), (40.0, 20.0, "inflated against the outside"), (100.0, 300.0, "under-inflated")] {
        // Enough substeps and iterations that the skin's springs converge (at the defaults the
        // solver's own softness, ~w·h²/α, adds to the stretch).
        let mut w = World::new(WorldSettings { gravity: Vec3::ZERO, thread_count: 1, substeps: 16, iterations: 4, ..Default::default() }).unwrap();
        w.sequential = true;
        let mesh = sinew::cloth::MeshSpec { positions: &p, indices: &idx, inverse_masses: &[], weld_distance: 1e-6, material };
        let b = w.create_balloon(&mesh, SoftSettings { pressure: p0, external_pressure: pe, shape_stiffness: 0.0, ..Default::default() }).unwrap();
        for _ in 0..600 {
            w.step(DT).unwrap();
        }
        let (v, rest) = w.bodies.get(b.0, b.1).unwrap().soft_volume().unwrap();
        let s = (v / rest).cbrt();
        if pe > p0 {
            // Squeezed by the outside, the skin folds rather than shortening its edges: it
            // carries nothing, and the gas alone balances the outside, p₀V₀/V = p_ext.
            let law = p0 / pe;
            println!("balloon {name} (p₀ {p0} Pa, outside {pe} Pa): V/V₀ {:.4}, the gas law p₀/p_ext {law:.4}", v / rest);
            assert!((v / rest / law - 1.0).abs() < 0.03, "{name}: V/V₀ {} against {law}", v / rest);
        } else {
            let law = predicted(p0, pe);
            println!("balloon {name} (p₀ {p0} Pa, outside {pe} Pa): scale {s:.4}, the ideal gas against the skin {law:.4}");
            assert!(((s - 1.0) / (law - 1.0) - 1.0).abs() < 0.05, "{name}: scale {s} against {law}");
        }
    }
}

#[test]
fn a_jelly_dropped_on_a_ragdoll_rests_on_its_bones() {
    use sinew::ragdoll::humanoid::HumanoidBones;
    let mut w = world(Vec3::new(0.0, -9.81, 0.0));
    floor(&mut w);
    // A humanoid lying on its back on the floor, at rest (kinematic: it is the ground here).
    let desc = HumanoidBones::standing(Vec3::new(0.0, 1.0, 0.0)).ragdoll().unwrap();
    let turn = Quat::from_rotation_x(-std::f32::consts::FRAC_PI_2);
    let c = desc.bones[0].bind.position;
    let lying: Vec<Pose> = desc.bones.iter().map(|b| Pose { rotation: (turn * b.bind.rotation).normalize(), position: turn * (b.bind.position - c) + Vec3::new(0.0, 0.12, 0.0), scale: 1.0 }).collect();
    let r = w.create_ragdoll(&desc).unwrap();
    {
        let rd = w.ragdolls.get_mut(r.0, r.1).unwrap();
        rd.set_pose(&lying, false).unwrap();
        rd.set_kinematic(true);
    }
    // A jelly above its chest, meeting its bones.
    let chest = w.ragdolls.get(r.0, r.1).unwrap().bone_center_of_mass(sinew::ragdoll::humanoid::bone::MIDDLE_SPINE).unwrap();
    let b = w.create_soft_lattice(&jelly(5, 0.04, chest + Vec3::new(0.0, 0.5, 0.0))).unwrap();
    w.set_ragdoll_collision(b, r, true).unwrap();
    for _ in 0..180 {
        w.step(DT).unwrap();
    }
    // Every jelly particle outside every bone (by the particle's radius, a millimetre's slack).
    let x = positions(&w, b);
    let thickness = jelly(5, 0.04, Vec3::ZERO).material.thickness;
    let rd = w.ragdolls.get(r.0, r.1).unwrap();
    let mut deepest = f32::INFINITY;
    for (shape, _, pose) in rd.bone_shapes_in_step() {
        for p in &x {
            let local = pose.rotation.inverse() * (*p - pose.position);
            deepest = deepest.min(shape.distance(local).0 - thickness);
        }
    }
    let low = x.iter().map(|p| p.y).fold(f32::INFINITY, f32::min);
    println!("jelly dropped on a lying ragdoll's chest: nearest particle {:.2} mm from a bone's surface (after its radius), lowest at y = {low:.3} m", deepest * 1e3);
    assert!(deepest > -1e-3, "a particle {deepest} m inside a bone");
    assert!(low > 0.1, "the jelly fell past the body onto the floor (lowest {low} m)");
}

#[test]
fn a_soft_bar_folded_over_a_rod_keeps_its_halves_apart_with_self_collision() {
    // A long thin soft bar (30 × 2 × 3 particles, 4 cm apart) dropped across a thin rod: it
    // folds over it and its two halves hang against each other. With self-collision no two
    // particles far apart in the rest shape come closer than twice the particle radius.
    let run = |self_collision: bool| {
        let mut w = world(Vec3::new(0.0, -9.81, 0.0));
        floor(&mut w);
        let rod = Pose { rotation: Quat::from_rotation_x(std::f32::consts::FRAC_PI_2), position: Vec3::new(0.0, 0.5, 0.0), scale: 1.0 };
        w.add_collider(Collider::new(Shape::Capsule { half_height: 0.5, radius0: 0.02, radius1: 0.02 }, u32::MAX, rod).unwrap()).unwrap();
        let spec = LatticeSpec {
            nx: 30,
            ny: 2,
            nz: 3,
            spacing: 0.04,
            origin: Vec3::new(0.0, 0.6, 0.0),
            cluster_cells: 2,
            material: Material { particle_mass: 0.005, stretch_compliance: 1e-3, shear_compliance: 1e-3, damping: 1.0, thickness: 0.01, self_collision, ..Material::default() },
            soft: SoftSettings { volume_compliance: 1e-3, shape_stiffness: 0.02, ..Default::default() },
            ..Default::default()
        };
        let b = w.create_soft_lattice(&spec).unwrap();
        let rest = spec.positions();
        let mut closest = f32::INFINITY;
        for _ in 0..240 {
            w.step(DT).unwrap();
            let x = positions(&w, b);
            for i in 0..x.len() {
                for j in i + 1..x.len() {
                    if rest[i].distance(rest[j]) > 0.2 {
                        closest = closest.min(x[i].distance(x[j]));
                    }
                }
            }
        }
        let x = positions(&w, b);
        let width = x.iter().map(|p| p.x).fold(f32::NEG_INFINITY, f32::max) - x.iter().map(|p| p.x).fold(f32::INFINITY, f32::min);
        (closest, width)
    };
    let (with, width) = run(true);
    let (without, _) = run(false);
    println!("soft bar folded over a rod: closest far-apart particles {:.1} mm with self-collision, {:.1} mm without; folded to {width:.3} m wide (1.16 m long)", with * 1e3, without * 1e3);
    assert!(width < 0.6, "the bar did not fold over the rod (width {width} m of its 1.16 m)");
    assert!(with >= 2.0 * 0.01 - 1e-4, "with self-collision its halves came {with} m close");
    assert!(without < 2.0 * 0.01, "without, the halves should meet closer than the contact distance ({without} m): else the test shows nothing");
}

#[test]
fn a_jelly_set_on_another_stays_on_it_with_friction_between_them() {
    // The lower jelly on the floor, the upper set down 3 cm above it, 4 cm off centre. With
    // the materials' friction (0.5 / 0.4) the top stays put; without, any slope of the lower
    // one's top lets it slide off (pair contacts had no friction before).
    let run = |friction: f32| {
        let mut w = world(Vec3::new(0.0, -9.81, 0.0));
        floor(&mut w);
        let mut low = jelly(6, 0.05, Vec3::new(0.0, 0.135, 0.0));
        let mut high = jelly(6, 0.05, Vec3::new(0.04, 0.135 + 0.25 + 0.03 + 0.02, 0.0));
        for s in [&mut low, &mut high] {
            s.material.static_friction = friction;
            s.material.kinetic_friction = 0.8 * friction;
            s.material.damping = 1.0;
        }
        let a = w.create_soft_lattice(&low).unwrap();
        let b = w.create_soft_lattice(&high).unwrap();
        w.set_body_pair(a, b, true).unwrap();
        for _ in 0..300 {
            w.step(DT).unwrap();
        }
        let (ca, cb) = (w.bodies.get(a.0, a.1).unwrap().center_of_mass(), w.bodies.get(b.0, b.1).unwrap().center_of_mass());
        (Vec3::new(cb.x - ca.x, 0.0, cb.z - ca.z).length(), cb.y - ca.y)
    };
    let (off, up) = run(0.5);
    let (off0, up0) = run(0.0);
    println!("a jelly set on another, 5 s: with friction 0.5 the top is {:.1} mm off the lower's centre, {:.3} m above it; frictionless {:.1} mm off, {:.3} m above", off * 1e3, up, off0 * 1e3, up0);
    assert!(up > 0.2, "the top jelly fell off ({up} m above the lower)");
    assert!(off < 0.06, "the top jelly slid {off} m off centre (it was set 0.04 m off)");
    assert!(up0 < 0.2, "without friction the top should slide off (it stayed {up0} m above): else the test shows nothing");
}
