//! A character's bodies frozen by LOD keep their shape and come back without a jump: a
//! skinned cape (three bones on the chest), a skinned ponytail (the head) and a grid whose
//! top row the host pins to targets on the chest, all on a root that walks round a circle
//! while the chest bobs, sways and leans relative to it. The camera goes far (every body
//! freezes) for two seconds of the walk, then comes back. The same scene with the camera
//! always near is the reference: while frozen and after coming back, no body is stretched
//! more than the reference's worst plus 0.01, and no particle moves in one frame further
//! than the reference's fastest particle plus 1 cm. Freezing, being carried and resuming
//! allocate nothing (a counting allocator over the steps).

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::f32::consts::TAU;
use std::sync::atomic::{AtomicUsize, Ordering};

use glam::{Mat4, Quat, Vec3};
use sinew::cloth::generators::CapeSpec;
use sinew::cloth::{GridPins, GridSpec};
use sinew::geometry::Pose;
use sinew::particles::{Lod, Material};
use sinew::strands::StrandsSpec;
use sinew::world::{World, WorldSettings};

struct Counting;

// Only this thread's allocations inside `World::step` count.
thread_local! {
    static COUNTING: Cell<bool> = const { Cell::new(false) };
}
static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if COUNTING.try_with(Cell::get).unwrap_or(false) {
            ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        }
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if COUNTING.try_with(Cell::get).unwrap_or(false) {
            ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        }
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

const DT: f32 = 1.0 / 60.0;
const WARM: usize = 60;
const FROZEN: usize = 120;
const AFTER: usize = 120;
const NEAR: Vec3 = Vec3::new(0.0, 1.5, 0.0);
const FAR: Vec3 = Vec3::new(100.0, 1.5, 0.0);
const GRID_COLUMNS: u32 = 8;

/// The root at time `t`: round a circle of 0.5 m at 1 m/s, facing along the walk.
fn root(t: f32) -> Mat4 {
    let angle = t / 0.5;
    Mat4::from_rotation_translation(Quat::from_rotation_y(-angle), Vec3::new(angle.cos(), 0.0, angle.sin()) * 0.5)
}

/// The chest: above the root, bobbing, swaying and leaning with the gait (a rigid motion
/// relative to the root, as a walk's).
fn chest(t: f32) -> Mat4 {
    let phase = TAU * 0.9 * t;
    root(t)
        * Mat4::from_translation(Vec3::new(0.0, 1.2 + 0.02 * (2.0 * phase).cos(), 0.0))
        * Mat4::from_rotation_y(0.2 * phase.sin())
        * Mat4::from_rotation_x(0.1 + 0.05 * phase.cos())
}

fn bones(t: f32) -> [Mat4; 4] {
    let c = chest(t);
    let tr = |x: f32, y: f32| c * Mat4::from_translation(Vec3::new(x, y, 0.0));
    [tr(0.2, 0.3), tr(0.0, 0.35), tr(-0.2, 0.3), tr(0.0, 0.45)]
}

/// The grid's pinned row in the chest's frame.
fn grid_pins(t: f32) -> Vec<Vec3> {
    let c = chest(t);
    (0..GRID_COLUMNS).map(|i| c.transform_point3(Vec3::new((i as f32 - 3.5) * 0.05, 0.1, 0.15))).collect()
}

struct Scene {
    world: World,
    ids: [(usize, u32); 3],
}

fn scene() -> Scene {
    let settings = WorldSettings { substeps: 8, iterations: 2, interpolate: false, ..WorldSettings::default() };
    let mut world = World::new(settings).expect("settings");
    // On the calling thread, so that the counting allocator sees the whole step.
    world.sequential = true;
    let [l, neck, r, head] = bones(0.0);
    let cape = world
        .create_cape(&CapeSpec { columns: 10, rows: 14, width: 0.5, length: 0.8, back_offset: 0.16, bones: [l, neck, r], material: Material::default() })
        .expect("cape");
    let points: Vec<Vec3> = (0..16)
        .flat_map(|s| {
            let x = (s as f32 - 7.5) * 0.01;
            (0..10).map(move |i| head.transform_point3(Vec3::new(x, 0.1 - 0.03 * i as f32, -0.1 - 0.01 * i as f32)))
        })
        .collect();
    let hair = world
        .create_strands(&StrandsSpec { points: &points, particles_per_strand: 10, head, material: Material { particle_mass: 0.001, thickness: 0.005, bend_compliance: 0.0, damping: 1.0, ..Material::default() } })
        .expect("strands");
    // The grid hangs from its pinned row, in the chest's XY plane.
    let c = chest(0.0);
    let spec = GridSpec {
        columns: GRID_COLUMNS,
        rows: 8,
        spacing: 0.05,
        origin: c.transform_point3(Vec3::new(0.0, 0.1 - 3.5 * 0.05, 0.15)),
        orientation: Quat::from_mat4(&c) * Quat::from_rotation_x(TAU / 4.0),
        pins: GridPins::TopRow,
        material: Material::default(),
    };
    let grid = world.create_grid(&spec).expect("grid");
    let ids = [cape, hair, grid];
    for &(slot, serial) in &ids {
        let b = world.bodies.get_mut(slot, serial).expect("body");
        b.set_root(Pose::from_matrix(&root(0.0)).expect("root"));
        b.set_lod(Lod { freeze_distance: 20.0, ..Lod::default() }).expect("lod");
    }
    world.camera = Some(NEAR);
    Scene { world, ids }
}

/// Per frame: each body's largest stretch, whether it is frozen, and the furthest any of
/// its particles moved (readback) in the frame; and how many allocations the steps after
/// the first made.
fn run(freeze: bool) -> (Vec<[(f32, bool, f32); 3]>, usize) {
    let mut s = scene();
    let mut last: Vec<Vec<Vec3>> = s.ids.iter().map(|&(slot, serial)| read(&s.world, slot, serial)).collect();
    // The grid's pinned row is row 0 of the grid.
    let pinned: Vec<u32> = (0..GRID_COLUMNS).collect();
    let mut frames = Vec::new();
    for f in 0..WARM + FROZEN + AFTER {
        let t = (f + 1) as f32 * DT;
        s.world.camera = Some(if freeze && (WARM..WARM + FROZEN).contains(&f) { FAR } else { NEAR });
        let [l, neck, r, head] = bones(t);
        let inputs: [&[Mat4]; 2] = [&[l, neck, r], &[head]];
        for (&(slot, serial), bones) in s.ids.iter().zip(inputs) {
            let b = s.world.bodies.get_mut(slot, serial).expect("body");
            b.set_root(Pose::from_matrix(&root(t)).expect("root"));
            b.set_bone_matrices(bones).expect("bones");
        }
        let (slot, serial) = s.ids[2];
        let b = s.world.bodies.get_mut(slot, serial).expect("grid");
        b.set_root(Pose::from_matrix(&root(t)).expect("root"));
        b.set_pin_targets(&pinned, &grid_pins(t)).expect("pins");
        COUNTING.with(|c| c.set(f > 0));
        s.world.step(DT).expect("step");
        COUNTING.with(|c| c.set(false));
        let mut row = [(0.0, false, 0.0); 3];
        for (k, &(slot, serial)) in s.ids.iter().enumerate() {
            let x = read(&s.world, slot, serial);
            let moved = x.iter().zip(&last[k]).map(|(a, b)| (*a - *b).length()).fold(0.0, f32::max);
            let b = s.world.bodies.get(slot, serial).expect("body");
            row[k] = (b.max_stretch(), b.is_frozen(), moved);
            last[k] = x;
        }
        frames.push(row);
    }
    (frames, ALLOCATIONS.swap(0, Ordering::Relaxed))
}

fn read(world: &World, slot: usize, serial: u32) -> Vec<Vec3> {
    let b = world.bodies.get(slot, serial).expect("body");
    let mut x = vec![Vec3::ZERO; b.particle_count()];
    b.read_positions(1.0, &mut x);
    x
}

#[test]
fn frozen_character_bodies_keep_their_shape_and_resume_without_a_jump() {
    let (reference, _) = run(false);
    let (frozen, allocations) = run(true);
    assert_eq!(allocations, 0, "freezing, being carried and resuming allocate nothing per step");
    for (k, name) in ["cape", "ponytail", "pinned grid"].into_iter().enumerate() {
        let worst = |frames: &[[(f32, bool, f32); 3]], pick: fn(&(f32, bool, f32)) -> f32| frames.iter().map(|r| pick(&r[k])).fold(0.0, f32::max);
        let stretch = worst(&reference[WARM..], |r| r.0);
        let fastest = worst(&reference[WARM..], |r| r.2);
        assert!(reference.iter().all(|r| !r[k].1), "{name}: the reference never freezes");
        assert!(frozen[WARM..WARM + FROZEN].iter().all(|r| r[k].1), "{name}: frozen while the camera is far");
        assert!(frozen[WARM + FROZEN..].iter().all(|r| !r[k].1), "{name}: back when the camera is near");
        let while_frozen = worst(&frozen[WARM..WARM + FROZEN], |r| r.0);
        let after = worst(&frozen[WARM + FROZEN..], |r| r.0);
        let jump = worst(&frozen[WARM..], |r| r.2);
        eprintln!("{name}: reference stretch {stretch:.4}, fastest {fastest:.4} m/frame; frozen stretch {while_frozen:.4}, after {after:.4}, fastest {jump:.4} m/frame");
        assert!(while_frozen <= stretch + 0.01, "{name}: stretch {while_frozen} while frozen, {stretch} never frozen");
        assert!(after <= stretch + 0.01, "{name}: stretch {after} after unfreezing, {stretch} never frozen");
        assert!(jump <= fastest + 0.01, "{name}: a particle moved {jump} m in a frame, at most {fastest} m never frozen");
    }
}
