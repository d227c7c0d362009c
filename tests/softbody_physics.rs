//! Soft bodies against laws (World API): shape matching keeps linear and angular momentum
//! and recovers the rest shape up to a rigid motion, tetrahedra keep their volume and
//! recover from a squeeze with momentum kept, a jelly rests on a plane without sinking in
//! with its volume kept, a soft bar sags less as it stiffens, the chapter's mode is its
//! pseudo-code.
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
