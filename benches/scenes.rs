//! Criterion benches of docs/benchmarks.md's scenes: `S1/sinew`, `S1/chapter`, `S2/sinew`,
//! `S2/chapter`, `S2-LOD/sinew`, `S3/sinew`, each one 1/60 s step of a scene warmed up by 60
//! steps (the chapter has no collisions and no level of detail, so S3 and S2-LOD have no
//! chapter bench: compare them with `S1/chapter` and `S2/chapter`). S2-LOD is S2 seen from a
//! camera at a corner of the grid, with far cloths on 2 substeps and farther ones frozen.
//!
//! `sinew` runs the scene's iteration budget K as K substeps × 1 iteration, rigid, no
//! damping, on a one-thread worker pool (the chapter's solver is single-threaded);
//! `chapter` is the chapter's algorithm in plain Rust (`benches/chapter`). The scene keeps
//! moving while criterion samples it; both solvers cost the same at every step of a swing.
//! `cargo run --release --example bench` gives the full table (threads, stretch, ratios).
//!
//! ```text
//! cargo bench -p sinew-benches [-- S1/sinew]
//! ```
//!
//! (benches/ is its own workspace package, so that criterion is not a dependency of the library.)

#[path = "chapter/mod.rs"]
mod chapter;

use std::hint::black_box;
use std::time::{Duration, Instant};

use chapter::scenes::{self, Scene};
use criterion::{Criterion, criterion_group, criterion_main};
use sinew::world::WorkerPool;


fn bench_scene(c: &mut Criterion, scene: &Scene) {
    let mut group = c.benchmark_group(scene.name);
    group.sample_size(10).warm_up_time(Duration::from_secs(1)).measurement_time(Duration::from_secs(4));

    let pool = WorkerPool::new(1).expect("worker pool");
    let mut world = scenes::sinew_world(scene, scene.iterations as u32, 1);
    pool.install(|| {
        for _ in 0..scenes::WARM_UP_STEPS {
            world.step(scenes::DT).expect("step");
        }
    });
    group.bench_function("sinew", |b| {
        // Time inside the pool, so no sample pays for the hand-off to the worker thread.
        b.iter_custom(|iters| {
            pool.install(|| {
                let t = Instant::now();
                for _ in 0..iters {
                    world.step(black_box(scenes::DT)).expect("step");
                }
                t.elapsed()
            })
        })
    });
    black_box(&world.bodies);

    if scene.sphere.is_none() && scene.lod.is_none() {
        let mut cloths = scenes::chapter(scene);
        for _ in 0..scenes::WARM_UP_STEPS {
            scenes::chapter_step(&mut cloths);
        }
        group.bench_function("chapter", |b| b.iter(|| scenes::chapter_step(black_box(&mut cloths))));
    }
    group.finish();
}

fn scenes_bench(c: &mut Criterion) {
    bench_scene(c, &scenes::s1());
    bench_scene(c, &scenes::s2());
    bench_scene(c, &scenes::s2_lod());
    bench_scene(c, &scenes::s3());
}

criterion_group!(benches, scenes_bench);
criterion_main!(benches);
