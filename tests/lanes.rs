//! Small grids stepped side by side in SIMD lanes (`particles::lanes`) give each body the bits
//! it gets stepped alone — and the scalar reference's: a scene of 19 cloths of 16 × 16 (two
//! full groups of eight and one of three), some with a stiffer or compliant material (another
//! group key), one near a sphere (its step has contacts: it leaves its group), one whose pins
//! the host moves, one torn off the shared topology's kernel by a lower LOD — all stepped 240
//! times with lanes, without, and with the scalar kernel; on one thread and on two.

use glam::{Mat4, Quat, Vec3};
use sinew::cloth::{GridPins, GridSpec};
use sinew::collider::Collider;
use sinew::geometry::{Pose, Shape};
use sinew::particles::{Lod, Material};
use sinew::solver::constraints::distance_simd::Kernel;
use sinew::world::{WorkerPool, World, WorldSettings};

const CLOTHS: usize = 19;

/// The allocation count covers every thread: the two tests must not overlap.
static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());
const STEPS: usize = 240;

fn scene(kernel: Kernel, lanes: bool) -> (World, Vec<(usize, u32)>) {
    let settings = WorldSettings { substeps: 8, iterations: 1, kernel, interpolate: false, ..WorldSettings::default() };
    let mut world = World::new(settings).expect("valid settings");
    world.lanes = lanes;
    let mut ids = Vec::new();
    for i in 0..CLOTHS {
        let mut material = Material { damping: 0.05, stretch_compliance: 0.0, shear_compliance: 0.0, bend_compliance: 0.0, ..Material::default() };
        if i == 4 || i == 12 {
            // Compliant: its own key; two of them, in different groups of eight.
            material.stretch_compliance = 1e-6;
            material.bend_compliance = 1e-3;
        }
        let spec = GridSpec {
            columns: 16,
            rows: 16,
            spacing: 0.05,
            origin: Vec3::new((i % 5) as f32 * 1.5, 0.0, (i / 5) as f32 * 1.5),
            orientation: Quat::IDENTITY,
            pins: GridPins::TopRow,
            material,
        };
        ids.push(world.create_grid(&spec).expect("valid grid"));
    }
    // A sphere under cloth 6: its steps have contacts, so it steps alone.
    let pose = Pose::from_matrix(&Mat4::from_translation(Vec3::new(1.5, -0.5, 1.5 + 0.2))).expect("pose");
    world.add_collider(Collider::new(Shape::Sphere { radius: 0.3 }, u32::MAX, pose).expect("sphere")).expect("collider");
    // Cloth 17 on 2 substeps beyond 1 m from a camera far away: another key.
    let (slot, serial) = ids[17];
    world.bodies.get_mut(slot, serial).expect("cloth").set_lod(Lod { reduce_distance: 1.0, reduced_substeps: 2, freeze_distance: 1e6, ..Lod::default() }).expect("lod");
    world.camera = Some(Vec3::new(100.0, 0.0, 0.0));
    (world, ids)
}

/// Every cloth's positions (bits) at the end, and how many bodies the last step ran in lanes.
fn run(kernel: Kernel, lanes: bool, threads: u32) -> (Vec<Vec<[u32; 3]>>, u32) {
    let (mut world, ids) = scene(kernel, lanes);
    let pool = WorkerPool::new(threads).expect("pool");
    pool.install(|| {
        for step in 0..STEPS {
            // The host drags cloth 9's pinned row sideways.
            let (slot, serial) = ids[9];
            let body = world.bodies.get_mut(slot, serial).expect("cloth");
            let pinned: Vec<u32> = (0..16).collect();
            let at = 0.3 * (step as f32 * 0.05).sin();
            let targets: Vec<Vec3> = (0..16).map(|c| Vec3::new(4.5 + (c as f32 - 7.5) * 0.05 + at, 0.0, 1.5 - 7.5 * 0.05)).collect();
            body.set_pin_targets(&pinned, &targets).expect("pins");
            world.step(1.0 / 60.0).expect("step");
        }
    });
    let x = ids
        .iter()
        .map(|&(slot, serial)| {
            let body = world.bodies.get(slot, serial).expect("cloth");
            let mut x = vec![Vec3::ZERO; body.particle_count()];
            body.read_positions(1.0, &mut x);
            x.iter().map(|p| p.to_array().map(f32::to_bits)).collect()
        })
        .collect();
    (x, world.stats().lane_bodies)
}

#[test]
fn grids_in_lanes_keep_the_bits_they_have_alone() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let (reference, none) = run(Kernel::Scalar, false, 1);
    assert_eq!(none, 0);
    // The scene moved: every cloth fell from the horizontal.
    for (i, cloth) in reference.iter().enumerate() {
        let lowest = cloth.iter().map(|p| f32::from_bits(p[1])).fold(f32::INFINITY, f32::min);
        assert!(lowest < -0.25, "cloth {i} hangs: its lowest point {lowest} m");
    }
    for (kernel, lanes, threads) in [(Kernel::Avx, false, 1), (Kernel::Avx, true, 1), (Kernel::Avx, true, 2)] {
        let (got, in_lanes) = run(kernel, lanes, threads);
        // Lanes on: the three groups minus cloth 6 (contacts), 9 (its pins: still a member),
        // 4, 12 (compliant: a key of their own) and 17 (LOD): 15 bodies in lanes.
        assert_eq!(in_lanes, if lanes { 15 } else { 0 }, "bodies in lanes");
        for i in 0..CLOTHS {
            assert!(got[i] == reference[i], "cloth {i}: kernel {kernel:?}, lanes {lanes}, {threads} threads: other bits than the scalar reference");
        }
    }
}

mod counting;
#[global_allocator]
static GLOBAL: counting::Counting = counting::Counting;

#[test]
fn grids_in_lanes_allocate_nothing_per_step() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    for threads in [1, 2] {
        let (mut world, ids) = scene(Kernel::Avx, true);
        let pool = WorkerPool::new(threads).expect("pool");
        let n = pool.install(|| {
            for _ in 0..30 {
                world.step(1.0 / 60.0).expect("warm-up step");
            }
            counting::start();
            for _ in 0..60 {
                world.step(1.0 / 60.0).expect("step");
            }
            counting::stop()
        });
        assert_eq!(n, 0, "{n} heap allocations in 60 steps on {threads} threads ({} cloths)", ids.len());
        // (Cloth 6 meets the sphere during these steps: a body leaving its group for a step
        // of its own allocates nothing either.)
        assert_eq!(world.stats().lane_bodies, 15, "the groups ran in lanes");
    }
}
