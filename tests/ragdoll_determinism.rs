//! Ragdolls give the same bits for 1, 2 and 8 threads: lone ones stepped in parallel and an
//! island of overlapping ones solved together.

mod ragdoll_common;
use ragdoll_common::*;
use sinew::world::WorkerPool;

fn run(threads: u32) -> u64 {
    let mut w = World::new(WorldSettings { thread_count: threads, ..Default::default() }).unwrap();
    let mut ids = Vec::new();
    for k in 0..6 {
        // Four apart, two overlapping (an island).
        let at = if k < 4 { Vec3::new(k as f32 * 3.0, 0.0, 0.0) } else { Vec3::new(20.0 + 0.3 * k as f32, 0.0, 0.0) };
        let desc = sinew::ragdoll::humanoid::HumanoidBones::standing(at).ragdoll().unwrap();
        ids.push(w.create_ragdoll(&desc).unwrap());
    }
    let pool = WorkerPool::new(threads).unwrap();
    let mut h = 0xcbf29ce484222325u64;
    for f in 0..60 {
        if f == 10 {
            for (k, r) in ids.iter().enumerate() {
                let rd = w.ragdolls.get_mut(r.0, r.1).unwrap();
                rd.apply_impulse(Vec3::new(k as f32 * 3.0, 1.2, 0.3), Vec3::new(5.0, 2.0, -3.0)).unwrap();
            }
        }
        pool.install(|| w.step(1.0 / 60.0)).unwrap();
    }
    for r in &ids {
        let (p, q, _, _) = read(&w, *r);
        for v in p.iter().flat_map(|p| [p.x, p.y, p.z]).chain(q.iter().flat_map(|q| [q.x, q.y, q.z, q.w])) {
            assert!(v.is_finite());
            for b in v.to_bits().to_le_bytes() {
                h = (h ^ b as u64).wrapping_mul(0x100000001b3);
            }
        }
    }
    h
}

#[test]
fn one_two_and_eight_threads_give_the_same_bits() {
    let h1 = run(1);
    assert_eq!(h1, run(2), "2 threads differ from 1");
    assert_eq!(h1, run(8), "8 threads differ from 1");
}
