//! Ragdolls give the same bits for 1, 2 and 8 threads: lone ones stepped in parallel, an
//! island of overlapping ones solved together, a pile landing on a floor, and a cape on a
//! ragdoll's spine meeting its bones.

mod ragdoll_common;
use ragdoll_common::*;
use sinew::cloth::{GridPins, GridSpec};
use sinew::collider::Collider;
use sinew::particles::settings::Material;
use sinew::ragdoll::humanoid::bone;
use sinew::world::WorkerPool;

fn run(threads: u32, powered: bool) -> u64 {
    let mut w = World::new(WorldSettings { thread_count: threads, ..Default::default() }).unwrap();
    let mut ids = Vec::new();
    let floor = Pose { rotation: Quat::IDENTITY, position: Vec3::new(0.0, -0.5, 0.0), scale: 1.0 };
    w.add_collider(Collider::new(Shape::Plane, u32::MAX, floor).unwrap()).unwrap();
    for k in 0..8 {
        // Four apart, two overlapping (an island), two piled up (falling onto each other).
        let at = match k {
            0..4 => Vec3::new(k as f32 * 3.0, 0.0, 0.0),
            4 | 5 => Vec3::new(20.0 + 0.3 * k as f32, 0.0, 0.0),
            _ => Vec3::new(-6.0 + 0.1 * k as f32, 2.0 * (k - 6) as f32, 0.0),
        };
        let desc = sinew::ragdoll::humanoid::HumanoidBones::standing(at).ragdoll().unwrap();
        ids.push(w.create_ragdoll(&desc).unwrap());
    }
    // A cape on the first one's spine, meeting its bones.
    let spec = GridSpec {
        columns: 8,
        rows: 8,
        spacing: 0.05,
        origin: Vec3::new(0.0, 1.25, -0.15),
        orientation: Quat::from_rotation_x(std::f32::consts::FRAC_PI_2),
        pins: GridPins::None,
        material: Material::default(),
    };
    let cape = w.create_grid(&spec).unwrap();
    let spine = w.ragdolls.get(ids[0].0, ids[0].1).unwrap().desc().bones[bone::MIDDLE_SPINE].bind;
    let mut x = vec![Vec3::ZERO; 64];
    w.bodies.get(cape.0, cape.1).unwrap().read_positions(1.0, &mut x);
    let top: Vec<u32> = (0..8).collect();
    let offsets: Vec<Vec3> = top.iter().map(|&v| spine.to_local(x[v as usize])).collect();
    w.attach_pins_to_ragdoll(cape, ids[0], &top, &[bone::MIDDLE_SPINE as u32; 8], &offsets).unwrap();
    w.set_ragdoll_collision(cape, ids[0], true).unwrap();
    if powered {
        // The overlapping two (one island) powered, following a swaying pose; one of the pile
        // pinned by its pelvis only.
        for (k, pin) in [(4, 0.6), (5, 1.0), (7, 0.0)] {
            let rd = w.ragdolls.get_mut(ids[k].0, ids[k].1).unwrap();
            rd.set_muscle_strength(None, 1.0).unwrap();
            rd.set_pin_weight(None, pin).unwrap();
            rd.set_pin_weight(Some(bone::PELVIS), 1.0).unwrap();
        }
    }
    let pool = WorkerPool::new(threads).unwrap();
    let mut h = 0xcbf29ce484222325u64;
    for f in 0..90 {
        if powered {
            for k in [4, 5, 7] {
                let rd = w.ragdolls.get_mut(ids[k].0, ids[k].1).unwrap();
                let sway = Quat::from_rotation_z(0.3 * (f as f32 * 0.1).sin());
                let poses: Vec<Pose> = rd.desc().bones.iter().map(|b| Pose { rotation: (sway * b.bind.rotation).normalize(), position: sway * b.bind.position, scale: 1.0 }).collect();
                rd.set_targets(&poses).unwrap();
            }
        }
        if f == 10 {
            for (k, r) in ids.iter().enumerate() {
                let rd = w.ragdolls.get_mut(r.0, r.1).unwrap();
                rd.apply_impulse(Vec3::new(k as f32 * 3.0, 1.2, 0.3), Vec3::new(5.0, 2.0, -3.0)).unwrap();
            }
        }
        pool.install(|| w.step(1.0 / 60.0)).unwrap();
    }
    w.bodies.get(cape.0, cape.1).unwrap().read_positions(1.0, &mut x);
    for v in x.iter().flat_map(|p| [p.x, p.y, p.z]) {
        for b in v.to_bits().to_le_bytes() {
            h = (h ^ b as u64).wrapping_mul(0x100000001b3);
        }
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
    let h1 = run(1, false);
    assert_eq!(h1, run(2, false), "2 threads differ from 1");
    assert_eq!(h1, run(8, false), "8 threads differ from 1");
}

#[test]
fn powered_ragdolls_give_the_same_bits_for_one_two_and_eight_threads() {
    let h1 = run(1, true);
    assert_ne!(h1, run(1, false), "the powered run drives something");
    assert_eq!(h1, run(2, true), "2 threads differ from 1");
    assert_eq!(h1, run(8, true), "8 threads differ from 1");
}
