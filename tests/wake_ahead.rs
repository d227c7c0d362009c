//! Waking the workers ahead of a frame's step (`WorkerPool::set_wake_ahead`): the steps give
//! the one-thread bits, allocate nothing of their own, and the workers are woken at most once
//! per step and never once the steps stop.

mod counting;

#[global_allocator]
static GLOBAL: counting::Counting = counting::Counting;

use std::time::Duration;

use sinew::cloth::{GridPins, GridSpec};
use sinew::math::{Quat, Vec3};
use sinew::particles::Material;
use sinew::world::{SUGGESTED_WAKE_AHEAD_US, WorkerPool, World, WorldSettings};

/// A grid large enough to share its step between two threads (`particles::two_threads`).
fn world(threads: u32) -> (World, WorkerPool) {
    let mut world = World::new(WorldSettings { thread_count: threads, wake_ahead_us: SUGGESTED_WAKE_AHEAD_US, ..WorldSettings::default() }).unwrap();
    let spec = GridSpec { columns: 40, rows: 30, spacing: 0.03, origin: Vec3::ZERO, orientation: Quat::IDENTITY, pins: GridPins::TopRow, material: Material::default() };
    world.create_grid(&spec).unwrap();
    let mut pool = WorkerPool::new(threads).unwrap();
    pool.set_wake_ahead(Duration::from_micros(world.settings.wake_ahead_us as u64)).unwrap();
    world.sequential = threads == 1;
    (world, pool)
}

fn step(world: &mut World, pool: &WorkerPool) {
    if world.sequential {
        world.step(1.0 / 60.0).unwrap();
    } else {
        pool.install(|| world.step(1.0 / 60.0)).unwrap();
    }
}

fn bits(world: &World) -> Vec<[u32; 3]> {
    world.bodies.values().flat_map(|b| b.positions().iter().map(|p| p.to_array().map(f32::to_bits))).collect()
}

// One test function: the allocation count covers every thread, so nothing else may run
// beside the paced steps.
#[test]
fn wake_ahead() {
    paced_steps_on_two_threads_give_the_one_thread_bits_and_allocate_nothing();
    without_wake_ahead_the_workers_are_never_spun();
    wake_ahead_is_off_by_default_and_bounded();
}

fn paced_steps_on_two_threads_give_the_one_thread_bits_and_allocate_nothing() {
    let (mut one, pool_one) = world(1);
    let (mut two, pool_two) = world(2);
    const FRAMES: usize = 40;
    for f in 0..FRAMES {
        step(&mut one, &pool_one);
        // Paced: far enough apart (4 ms, more than four times the wake-ahead time) that the
        // pacer wakes the workers ahead of the next step.
        std::thread::sleep(Duration::from_millis(4));
        if f >= 5 {
            counting::start();
        }
        step(&mut two, &pool_two);
        let n = counting::stop();
        // Rayon's job queue takes a new 63-slot block now and then; the pacer's hand-off is a
        // second job per frame. Anything per frame would be far more.
        assert!(n <= 1, "frame {f}: {n} heap allocations");
    }
    assert_eq!(bits(&one), bits(&two), "two paced threads differ from one");
    let spins = pool_two.spins();
    assert!(spins <= FRAMES as u64, "{spins} spins for {FRAMES} steps");
    // No steps: at most one more spin (a spin is for the step after the latest one, once),
    // then none. On a loaded machine that one may come late: it is waited for (up to 2 s)
    // before the count must stand still.
    let waited = std::time::Instant::now();
    while pool_two.spins() == spins && waited.elapsed() < Duration::from_secs(2) {
        std::thread::sleep(Duration::from_millis(5));
    }
    let after = pool_two.spins();
    assert!(after <= spins + 1, "{after} spins after the last step (was {spins})");
    std::thread::sleep(Duration::from_millis(100));
    assert_eq!(pool_two.spins(), after, "the workers were woken with no step coming");
    println!("{spins} spins over {FRAMES} paced steps");
}

fn without_wake_ahead_the_workers_are_never_spun() {
    let (mut two, mut pool) = world(2);
    pool.set_wake_ahead(Duration::ZERO).unwrap();
    for _ in 0..10 {
        step(&mut two, &pool);
        std::thread::sleep(Duration::from_millis(4));
    }
    assert_eq!(pool.spins(), 0);
}

fn wake_ahead_is_off_by_default_and_bounded() {
    assert_eq!(WorldSettings::default().wake_ahead_us, 0);
    let at = |us: u32| World::new(WorldSettings { wake_ahead_us: us, ..WorldSettings::default() }).is_ok();
    assert!(at(10_000));
    assert!(!at(10_001), "more than 10 ms ahead is refused");
}
