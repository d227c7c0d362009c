//! Scene S7 (docs/benchmarks.md): ragdolls, cloth and soft bodies in company. Eight humanoid
//! ragdolls on a static mesh floor (a 20 m × 20 m grid of 2 m squares, 200 triangles), two
//! rows of four 2 m apart, each wearing a cape (8 × 10 particles, 5 cm apart) pinned to its
//! middle spine and colliding with its bones; each is shoved so that it falls, and a jelly
//! (5 × 5 × 5 particles, 6 cm apart, 2.5 kg) is dropped from 1.2 m above its chest onto it.
//! The jellies collide with every ragdoll's bones, the capes with their own; the world is at
//! its defaults (8 substeps × 1 iteration at 60 Hz), readback not interpolated.
//!
//! A round builds the scene anew and runs 600 steps (10 s), each `World::step` timed alone;
//! between steps, outside the timing, it measures the deepest any free particle (cape or
//! jelly) is inside any bone beyond its thickness, and whether everything sleeps. One
//! unmeasured round, then `rounds` measured ones. Per thread count one line:
//! `us_per_step` (median over rounds of a round's mean), `us_min`/`us_max`, `us_first_2s`
//! (the same over the first 120 steps: falls and impacts), `penetration_mm` (the worst over
//! the rounds and steps), `sleep_s` (from when every ragdoll and body sleeps to the end; the
//! latest over the rounds, `none` if something is awake at the end).

use std::time::Instant;

use sinew::cloth::{GridPins, GridSpec};
use sinew::collider::Collider;
use sinew::geometry::trimesh::{Degenerate, TriMesh};
use sinew::geometry::Pose;
use sinew::math::{Quat, Vec3};
use sinew::particles::settings::Material;
use sinew::ragdoll::humanoid::{HumanoidBones, bone};
use sinew::softbody::LatticeSpec;
use sinew::world::{WorkerPool, World, WorldSettings};

pub const DT: f32 = 1.0 / 60.0;
const CHARACTERS: usize = 8;
const CAPE_COLUMNS: u32 = 8;
const CAPE_ROWS: u32 = 10;
const CAPE_SPACING: f32 = 0.05;
const THICKNESS: f32 = 0.01;

struct Scene {
    world: World,
    ragdolls: Vec<(usize, u32)>,
    /// Every particle body, and its pinned vertices (skipped by the penetration measure).
    bodies: Vec<((usize, u32), Vec<u32>)>,
}

fn floor() -> Collider {
    let (cells, size) = (10usize, 2.0f32);
    let half = cells as f32 * size / 2.0;
    let mut vertices = Vec::new();
    for i in 0..=cells {
        for k in 0..=cells {
            vertices.push(Vec3::new(i as f32 * size - half, 0.0, k as f32 * size - half));
        }
    }
    let mut indices = Vec::new();
    let at = |i: usize, k: usize| (i * (cells + 1) + k) as u32;
    for i in 0..cells {
        for k in 0..cells {
            indices.extend([at(i, k), at(i, k + 1), at(i + 1, k), at(i + 1, k), at(i, k + 1), at(i + 1, k + 1)]);
        }
    }
    let mesh = TriMesh::new(&vertices, &indices, Degenerate::Refuse).expect("floor mesh");
    Collider::new_mesh(std::sync::Arc::new(mesh), u32::MAX, Pose { rotation: Quat::IDENTITY, position: Vec3::ZERO, scale: 1.0 })
}

fn build() -> Scene {
    let mut world = World::new(WorldSettings { interpolate: false, ..WorldSettings::default() }).expect("world");
    world.add_collider(floor()).expect("floor");
    let mut ragdolls = Vec::new();
    let mut bodies = Vec::new();
    let mut jellies = Vec::new();
    for c in 0..CHARACTERS {
        let at = Vec3::new((c % 4) as f32 * 2.0 - 3.0, 0.02, (c / 4) as f32 * 2.0 - 1.0);
        let h = HumanoidBones::standing(at);
        let desc = h.ragdoll().expect("humanoid");
        let r = world.create_ragdoll(&desc).expect("ragdoll");
        let spine = desc.bones[bone::MIDDLE_SPINE].bind;
        let top = h.left_arm.y - 0.02;
        let spec = GridSpec {
            columns: CAPE_COLUMNS,
            rows: CAPE_ROWS,
            spacing: CAPE_SPACING,
            origin: Vec3::new(at.x, top - 0.5 * CAPE_SPACING * (CAPE_ROWS - 1) as f32, at.z - 0.14),
            orientation: Quat::from_rotation_x(std::f32::consts::FRAC_PI_2),
            pins: GridPins::None,
            material: Material { thickness: THICKNESS, ..Material::default() },
        };
        let cape = world.create_grid(&spec).expect("cape");
        let x = world.bodies.get(cape.0, cape.1).expect("cape").positions().to_vec();
        let pinned: Vec<u32> = (0..x.len() as u32).filter(|&v| (x[v as usize].y - top).abs() < 1e-4).collect();
        let offsets: Vec<Vec3> = pinned.iter().map(|&v| spine.to_local(x[v as usize])).collect();
        world.attach_pins_to_ragdoll(cape, r, &pinned, &vec![bone::MIDDLE_SPINE as u32; pinned.len()], &offsets).expect("pins");
        world.set_ragdoll_collision(cape, r, true).expect("cape collision");
        // A shove at the chest, alternately forwards and backwards (onto the cape).
        let push = if c % 2 == 0 { 4.0 } else { -4.0 };
        world.ragdolls.get_mut(r.0, r.1).expect("ragdoll").apply_bone_impulse(bone::MIDDLE_SPINE, spine.position, Vec3::new(0.0, 0.0, push)).expect("shove");
        let jelly = LatticeSpec {
            nx: 5,
            ny: 5,
            nz: 5,
            spacing: 0.06,
            origin: spine.position + Vec3::new(0.0, 1.2, 0.0),
            material: Material { particle_mass: 0.02, thickness: THICKNESS, bend_compliance: 0.0, ..Material::default() },
            ..LatticeSpec::default()
        };
        let j = world.create_soft_lattice(&jelly).expect("jelly");
        jellies.push(j);
        ragdolls.push(r);
        bodies.push((cape, pinned));
    }
    for &j in &jellies {
        for &r in &ragdolls {
            world.set_ragdoll_collision(j, r, true).expect("jelly collision");
        }
        bodies.push((j, Vec::new()));
    }
    Scene { world, ragdolls, bodies }
}

impl Scene {
    /// The deepest any free particle is inside any bone beyond its thickness (m).
    fn penetration(&self) -> f32 {
        let mut worst = 0.0f32;
        for &(id, ref pinned) in &self.bodies {
            let x = self.world.bodies.get(id.0, id.1).expect("body").positions();
            for &r in &self.ragdolls {
                let ragdoll = self.world.ragdolls.get(r.0, r.1).expect("ragdoll");
                for (shape, _, pose) in ragdoll.bone_shapes_in_step() {
                    let reach = shape.bounding_radius() + THICKNESS;
                    for (i, p) in x.iter().enumerate() {
                        if (*p - pose.position).length_squared() > reach * reach || pinned.contains(&(i as u32)) {
                            continue;
                        }
                        worst = worst.max(-shape.distance(pose.to_local(*p)).0 - THICKNESS);
                    }
                }
            }
        }
        worst
    }

    fn all_asleep(&self) -> bool {
        self.ragdolls.iter().all(|r| self.world.ragdolls.get(r.0, r.1).expect("ragdoll").is_asleep())
            && self.bodies.iter().all(|(id, _)| self.world.bodies.get(id.0, id.1).expect("body").is_asleep())
    }
}

struct Round {
    mean_us: f64,
    first_2s_us: f64,
    penetration: f32,
    sleep_s: Option<f32>,
}

fn round(pool: &WorkerPool, steps: usize) -> Round {
    let mut s = build();
    let first = steps.min(120);
    let (mut total, mut first_total, mut penetration, mut sleep_s) = (0.0f64, 0.0f64, 0.0f32, None);
    for i in 0..steps {
        let t = Instant::now();
        pool.install(|| s.world.step(DT)).expect("step");
        let us = t.elapsed().as_secs_f64() * 1e6;
        total += us;
        if i < first {
            first_total += us;
        }
        penetration = penetration.max(s.penetration());
        match (s.all_asleep(), sleep_s) {
            (true, None) => sleep_s = Some((i + 1) as f32 * DT),
            (false, _) => sleep_s = None,
            _ => {}
        }
    }
    Round { mean_us: total / steps as f64, first_2s_us: first_total / first as f64, penetration, sleep_s }
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// Runs S7 at each thread count and prints one line each.
pub fn run(threads: &[u32], steps: usize, rounds: usize) {
    for &t in threads {
        let pool = WorkerPool::new(t).expect("pool");
        round(&pool, steps.min(60));
        let rs: Vec<Round> = (0..rounds.max(1)).map(|_| round(&pool, steps)).collect();
        let means: Vec<f64> = rs.iter().map(|r| r.mean_us).collect();
        let (lo, hi) = means.iter().fold((f64::INFINITY, 0.0f64), |(a, b), &m| (a.min(m), b.max(m)));
        let pen = rs.iter().fold(0.0f32, |m, r| m.max(r.penetration));
        let sleep = if rs.iter().all(|r| r.sleep_s.is_some()) { format!("{:.2}", rs.iter().filter_map(|r| r.sleep_s).fold(0.0f32, f32::max)) } else { "none".into() };
        println!(
            "scene=S7 solver=sinew threads={t} us_per_step={:.0} us_min={lo:.0} us_max={hi:.0} us_first_2s={:.0} penetration_mm={:.2} sleep_s={sleep} rounds={}",
            median(means.clone()),
            median(rs.iter().map(|r| r.first_2s_us).collect()),
            pen * 1e3,
            rs.len()
        );
    }
}
