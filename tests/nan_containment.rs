//! NaN containment (docs/reliability.md, "NaN containment"): a body or ragdoll whose state
//! goes non-finite inside a step is put back on its state at the start of that step, at rest,
//! and reported once; it never touches the others — bodies and ragdolls it does not interact
//! with step to exactly the bits of a world without it, and those it does interact with (a
//! collision pair, a ragdoll island, a cape pinned to the ragdoll) are never given the NaN
//! (they are not rolled back with it) and stay finite and bounded — and the world keeps
//! stepping, the recovered object with it.
//!
//! The NaN is made inside the step, as an overflow would be: the debug build's
//! `poison_in_step_for_tests` gives one particle (one bone) an infinite inverse mass, so its
//! first correction is 0 · ∞ = NaN in the middle of a substep. (Through the C ABI no finite
//! input found does this — docs/reliability.md lists what was tried.)
#![cfg(feature = "debug-panic")]

use sinew::cloth::{GridPins, GridSpec};
use sinew::math::{Mat4, Quat, Vec3};
use sinew::particles::{Material, Recovery};
use sinew::ragdoll::humanoid::HumanoidBones;
use sinew::ragdoll::RagdollRecovery;
use sinew::world::{WorkerPool, World, WorldSettings};

const DT: f32 = 1.0 / 60.0;

type Id = (usize, u32);

#[derive(Clone, Copy, Debug, PartialEq)]
enum Kind {
    Cloth,
    Rope,
    Strands,
    Soft,
    Ragdoll,
}

struct Stepper {
    world: World,
    pool: WorkerPool,
}

impl Stepper {
    fn new(threads: u32) -> Stepper {
        let mut world = World::new(WorldSettings { thread_count: threads, ..Default::default() }).unwrap();
        world.sequential = threads == 1;
        Stepper { world, pool: WorkerPool::new(threads).unwrap() }
    }

    fn step(&mut self) {
        let w = &mut self.world;
        if w.sequential { w.step(DT).unwrap() } else { self.pool.install(|| w.step(DT)).unwrap() }
    }
}

fn grid(origin: Vec3, pins: GridPins) -> GridSpec {
    GridSpec { columns: 8, rows: 8, spacing: 0.05, origin, orientation: Quat::IDENTITY, pins, material: Material::default() }
}

fn create(w: &mut World, kind: Kind, at: Vec3) -> Id {
    match kind {
        Kind::Cloth => w.create_grid(&grid(at, GridPins::TopRow)).unwrap(),
        Kind::Rope => {
            let points: Vec<Vec3> = (0..12).map(|i| at + Vec3::new(0.05 * i as f32, 0.0, 0.0)).collect();
            w.create_rope(&sinew::rope::RopeSpec { points: &points, pins: &[0], ..Default::default() }).unwrap()
        }
        Kind::Strands => {
            let points: Vec<Vec3> = (0..3).flat_map(|s| (0..6).map(move |i| at + Vec3::new(0.05 * s as f32, -0.03 * i as f32, 0.0))).collect();
            w.create_strands(&sinew::strands::StrandsSpec { points: &points, particles_per_strand: 6, head: Mat4::IDENTITY, material: Material::default() }).unwrap()
        }
        Kind::Soft => w.create_soft_lattice(&sinew::softbody::LatticeSpec { origin: at, ..Default::default() }).unwrap(),
        Kind::Ragdoll => w.create_ragdoll(&HumanoidBones::standing(at).ragdoll().unwrap()).unwrap(),
    }
}

const KINDS: [Kind; 5] = [Kind::Cloth, Kind::Rope, Kind::Strands, Kind::Soft, Kind::Ragdoll];

/// One object of every kind, 2 m apart, none touching another; a floor.
fn others(w: &mut World) -> Vec<(Kind, Id)> {
    let floor = sinew::collider::Collider::new(sinew::geometry::Shape::Plane, u32::MAX, sinew::geometry::Pose { rotation: Quat::IDENTITY, position: Vec3::ZERO, scale: 1.0 }).unwrap();
    w.add_collider(floor).unwrap();
    KINDS.iter().enumerate().map(|(i, &k)| (k, create(w, k, Vec3::new(2.0 * i as f32, 1.0, 0.0)))).collect()
}

fn poison(w: &mut World, kind: Kind, id: Id) {
    match kind {
        Kind::Ragdoll => w.ragdolls.get_mut(id.0, id.1).unwrap().poison_in_step_for_tests(),
        _ => w.bodies.get_mut(id.0, id.1).unwrap().poison_in_step_for_tests(),
    }
}

/// The bits of an object's state as the host reads it (positions; a ragdoll's pose).
fn bits(w: &World, kind: Kind, id: Id) -> Vec<u32> {
    match kind {
        Kind::Ragdoll => {
            let r = w.ragdolls.get(id.0, id.1).unwrap();
            let n = r.bone_count();
            let (mut p, mut q) = (vec![Vec3::ZERO; n], vec![Quat::IDENTITY; n]);
            r.read_pose(1.0, &mut p, &mut q).unwrap();
            p.iter().flat_map(|v| v.to_array()).chain(q.iter().flat_map(|v| v.to_array())).map(f32::to_bits).collect()
        }
        _ => w.bodies.get(id.0, id.1).unwrap().positions().iter().flat_map(|v| v.to_array()).map(f32::to_bits).collect(),
    }
}

fn finite_within(w: &World, kind: Kind, id: Id, bound: f32) -> bool {
    bits(w, kind, id).iter().all(|&b| f32::from_bits(b).is_finite() && f32::from_bits(b).abs() <= bound)
}

/// `(bodies, ragdolls)` recovered by the last step, with their reasons.
fn recovered(w: &World) -> (Vec<(Id, Recovery)>, Vec<(Id, RagdollRecovery)>) {
    (w.events().iter().map(|e| (e.body, e.recovery)).collect(), w.ragdoll_events().iter().map(|e| (e.ragdoll, e.recovery)).collect())
}

#[test]
fn a_body_of_any_kind_that_overflows_is_rolled_back_reported_and_touches_no_other() {
    for threads in [1, 2] {
        // The reference: the other objects alone.
        let mut clean = Stepper::new(threads);
        let good = others(&mut clean.world);
        let mut reference = Vec::new();
        for _ in 0..90 {
            clean.step();
            reference.push(good.iter().map(|&(k, id)| bits(&clean.world, k, id)).collect::<Vec<_>>());
        }
        for bad_kind in KINDS {
            let mut s = Stepper::new(threads);
            let good_here = others(&mut s.world);
            let slots = |v: &[(Kind, Id)]| v.iter().map(|&(k, (slot, _))| (k, slot)).collect::<Vec<_>>();
            assert_eq!(slots(&good_here), slots(&good), "the same slots as the reference");
            let bad = create(&mut s.world, bad_kind, Vec3::new(0.0, 1.0, 6.0));
            let mut reports = 0;
            for f in 0..90 {
                let before = bits(&s.world, bad_kind, bad);
                if f == 30 {
                    poison(&mut s.world, bad_kind, bad);
                }
                s.step();
                let (bodies, ragdolls) = recovered(&s.world);
                if f == 30 {
                    match bad_kind {
                        Kind::Ragdoll => assert_eq!(ragdolls, vec![(bad, RagdollRecovery::StepNotFinite)], "{bad_kind:?}: the ragdoll is reported"),
                        _ => assert_eq!(bodies, vec![(bad, Recovery::StepNotFinite)], "{bad_kind:?}: the body is reported"),
                    }
                    assert_eq!(bits(&s.world, bad_kind, bad), before, "{bad_kind:?}: put back on its state at the start of the step");
                } else {
                    reports += bodies.len() + ragdolls.len();
                }
                assert!(finite_within(&s.world, bad_kind, bad, 100.0), "{bad_kind:?}, frame {f}: the bad object reads back finite");
                for (k, &(kind, id)) in good_here.iter().enumerate() {
                    assert!(bits(&s.world, kind, id) == reference[f][k], "{threads} thread(s): a {bad_kind:?} that overflowed changed the {kind:?} (frame {f})");
                }
            }
            assert_eq!(reports, 0, "{bad_kind:?}: reported once, then it steps again without a recovery");
            let moved = {
                let a = bits(&s.world, bad_kind, bad);
                s.step();
                a != bits(&s.world, bad_kind, bad)
            };
            assert!(moved || bad_kind == Kind::Ragdoll, "{bad_kind:?}: the recovered body steps again (it was not frozen)");
        }
    }
}

#[test]
fn grids_stepped_side_by_side_in_simd_lanes_keep_their_bits_when_one_overflows() {
    // Eight identical grids step in one lane group (`particles::lanes`): one overflowing
    // lane leaves the other seven as they are without it.
    let run = |poisoned: bool| {
        let mut s = Stepper::new(1);
        let ids: Vec<Id> = (0..8).map(|i| s.world.create_grid(&grid(Vec3::new(i as f32, 1.0, 0.0), GridPins::TopRow)).unwrap()).collect();
        let mut lanes = 0;
        for f in 0..60 {
            if f == 20 && poisoned {
                s.world.bodies.get_mut(ids[3].0, ids[3].1).unwrap().poison_in_step_for_tests();
            }
            s.step();
            lanes = lanes.max(s.world.stats().lane_bodies);
            if f == 20 && poisoned {
                assert_eq!(recovered(&s.world).0, vec![(ids[3], Recovery::StepNotFinite)]);
            }
        }
        let out: Vec<Vec<u32>> = ids.iter().map(|&id| bits(&s.world, Kind::Cloth, id)).collect();
        (out, lanes)
    };
    let (clean, lanes) = run(false);
    let (dirty, _) = run(true);
    assert_eq!(lanes, 8, "the eight grids step in lanes");
    for i in (0..8).filter(|&i| i != 3) {
        assert!(dirty[i] == clean[i], "grid {i} beside the overflowing lane changed");
    }
    assert!(dirty[3].iter().all(|&b| f32::from_bits(b).is_finite()));
}

/// Largest |coordinate| of an object.
fn reach(w: &World, kind: Kind, id: Id) -> f32 {
    bits(w, kind, id).iter().map(|&b| f32::from_bits(b).abs()).fold(0.0, f32::max)
}

#[test]
fn an_object_that_overflows_against_another_leaves_it_finite_and_bounded() {
    // Where they interact the other object cannot keep the bits of a world without the bad
    // one (it was touching it); it stays finite, near where it was, and keeps stepping.
    struct Case {
        name: &'static str,
        setup: fn(&mut World) -> ((Kind, Id), (Kind, Id)),
        /// The other object does not feel the bad one: its bits must be those of a twin
        /// world where nothing overflowed.
        one_way: bool,
    }
    let cases = [
        Case {
            name: "two paired soft bodies, one resting on the other",
            setup: |w| {
                let a = create(w, Kind::Soft, Vec3::new(0.0, 0.1, 0.0));
                let b = create(w, Kind::Soft, Vec3::new(0.02, 0.3, 0.0));
                w.set_body_pair(a, b, true).unwrap();
                ((Kind::Soft, b), (Kind::Soft, a))
            },
            one_way: false,
        },
        Case {
            name: "a cloth paired with a rope lying across it",
            setup: |w| {
                let a = w.create_grid(&grid(Vec3::new(0.0, 1.0, 0.0), GridPins::TopRow)).unwrap();
                let b = create(w, Kind::Rope, Vec3::new(-0.2, 1.02, 0.1));
                w.set_body_pair(a, b, true).unwrap();
                ((Kind::Cloth, a), (Kind::Rope, b))
            },
            one_way: false,
        },
        Case {
            name: "two ragdolls in one island",
            setup: |w| {
                let a = create(w, Kind::Ragdoll, Vec3::new(0.0, 0.0, 0.0));
                let b = create(w, Kind::Ragdoll, Vec3::new(0.1, 0.3, 0.05));
                ((Kind::Ragdoll, b), (Kind::Ragdoll, a))
            },
            one_way: false,
        },
        Case {
            name: "a ragdoll wearing a cape (pinned to its spine, colliding with its bones)",
            setup: |w| {
                let r = create(w, Kind::Ragdoll, Vec3::new(0.0, 0.0, 0.0));
                let cape = w.create_grid(&grid(Vec3::new(0.0, 1.2, -0.25), GridPins::None)).unwrap();
                w.attach_pins_to_ragdoll(cape, r, &[0, 7], &[2, 2], &[Vec3::new(-0.15, 0.1, -0.15), Vec3::new(0.15, 0.1, -0.15)]).unwrap();
                w.set_ragdoll_collision(cape, r, true).unwrap();
                ((Kind::Ragdoll, r), (Kind::Cloth, cape))
            },
            one_way: false,
        },
        Case {
            name: "a jelly that overflows on a ragdoll's head (colliding with its bones, both ways)",
            setup: |w| {
                let r = create(w, Kind::Ragdoll, Vec3::new(0.0, 0.0, 0.0));
                let jelly = create(w, Kind::Soft, Vec3::new(0.0, 1.9, 0.0));
                w.set_ragdoll_collision(jelly, r, true).unwrap();
                ((Kind::Soft, jelly), (Kind::Ragdoll, r))
            },
            one_way: false,
        },
        Case {
            name: "a cape that overflows on a ragdoll (the coupling is one way: the ragdoll is not touched)",
            setup: |w| {
                let r = create(w, Kind::Ragdoll, Vec3::new(0.0, 0.0, 0.0));
                let cape = w.create_grid(&grid(Vec3::new(0.0, 1.2, -0.25), GridPins::None)).unwrap();
                w.attach_pins_to_ragdoll(cape, r, &[0, 7], &[2, 2], &[Vec3::new(-0.15, 0.1, -0.15), Vec3::new(0.15, 0.1, -0.15)]).unwrap();
                w.set_ragdoll_collision(cape, r, true).unwrap();
                ((Kind::Cloth, cape), (Kind::Ragdoll, r))
            },
            one_way: true,
        },
    ];
    for case in &cases {
        for threads in [1, 2] {
            let build = || {
                let mut s = Stepper::new(threads);
                let floor = sinew::collider::Collider::new(sinew::geometry::Shape::Plane, u32::MAX, sinew::geometry::Pose { rotation: Quat::IDENTITY, position: Vec3::ZERO, scale: 1.0 }).unwrap();
                s.world.add_collider(floor).unwrap();
                let ids = (case.setup)(&mut s.world);
                (s, ids)
            };
            let (mut s, ((bad_kind, bad), (other_kind, other))) = build();
            let (mut twin, (_, (_, twin_other))) = build();
            for _ in 0..20 {
                s.step();
                twin.step();
            }
            let start = reach(&s.world, other_kind, other);
            poison(&mut s.world, bad_kind, bad);
            s.step();
            twin.step();
            let (bodies, ragdolls) = recovered(&s.world);
            let reported = match bad_kind {
                Kind::Ragdoll => ragdolls.iter().any(|&(id, _)| id == bad),
                _ => bodies.iter().any(|&(id, _)| id == bad),
            };
            assert!(reported, "{}: the overflowing object is reported ({bodies:?}, {ragdolls:?})", case.name);
            let other_reported = bodies.iter().any(|&(id, _)| id == other) || ragdolls.iter().any(|&(id, _)| id == other);
            assert!(!other_reported, "{}: the NaN did not reach the other object (it was not rolled back with the bad one)", case.name);
            let mut later = 0;
            let mut touched = false;
            for _ in 0..120 {
                s.step();
                twin.step();
                touched |= bits(&s.world, other_kind, other) != bits(&twin.world, other_kind, twin_other);
                assert!(!(case.one_way && touched), "{}: the other object changed", case.name);
                let (b, r) = recovered(&s.world);
                later += b.len() + r.len();
                assert!(finite_within(&s.world, other_kind, other, start + 5.0), "{}: the other object is finite and within 5 m of where it was", case.name);
                assert!(finite_within(&s.world, bad_kind, bad, start + 5.0), "{}: the recovered object is finite", case.name);
            }
            assert_eq!(later, 0, "{}: nothing is recovered again in the 2 s after", case.name);
            println!("{} ({threads} thread(s)): the other object {}", case.name, if touched { "differs from the twin world's (it interacts), finite and bounded" } else { "has the twin world's bits" });
        }
    }
}
