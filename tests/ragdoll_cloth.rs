//! Cloth on a ragdoll (issue 12): a cape pinned to a ragdoll's middle-spine bone, inside the
//! step, with the ragdoll's bone shapes as its colliders. Laws: the pinned vertices are where
//! the bone carries their offsets at every frame (rigid attachment), and no cloth particle is
//! inside a bone shape beyond the cloth's thickness (non-penetration), while the ragdoll falls
//! onto a floor and comes to rest.

use sinew::collider::Collider;
use sinew::geometry::{Pose, Shape};
use sinew::math::{Quat, Vec3};
use sinew::ragdoll::humanoid::{HumanoidBones, bone};
use sinew::world::{World, WorldSettings};

mod cape_common;
use cape_common::{COLUMNS, ROWS, THICKNESS, wear_cape};

struct Scene {
    world: World,
    ragdoll: (usize, u32),
    cape: (usize, u32),
    pinned: Vec<u32>,
    offsets: Vec<Vec3>,
}

/// A T-posed character at the origin, a cape hanging behind its back from shoulder height,
/// its top row pinned to the middle spine, a floor at y = 0.
fn scene() -> Scene {
    let mut world = World::new(WorldSettings { thread_count: 1, ..WorldSettings::default() }).unwrap();
    world.sequential = true;
    let floor = Pose { rotation: Quat::IDENTITY, position: Vec3::ZERO, scale: 1.0 };
    world.add_collider(Collider::new(Shape::Plane, u32::MAX, floor).unwrap()).unwrap();
    let h = HumanoidBones::standing(Vec3::new(0.0, 0.05, 0.0));
    let desc = h.ragdoll().unwrap();
    let ragdoll = world.create_ragdoll(&desc).unwrap();
    // The cape lies in the XY plane 0.14 m behind the spine: columns along +X, rows down.
    let cape = wear_cape(&mut world, &h, &desc, ragdoll);
    Scene { world, ragdoll, cape: cape.body, pinned: cape.pinned, offsets: cape.offsets }
}

#[test]
fn a_cape_stays_on_a_falling_ragdoll_and_drapes_outside_its_bones() {
    let mut s = scene();
    let n = (COLUMNS * ROWS) as usize;
    let mut x = vec![Vec3::ZERO; n];
    let bones = bone::COUNT;
    let (mut pos, mut rot) = (vec![Vec3::ZERO; bones], vec![Quat::IDENTITY; bones]);
    // Knock it backwards so that it falls onto its cape.
    s.world.ragdolls.get_mut(s.ragdoll.0, s.ragdoll.1).unwrap().apply_bone_impulse(bone::MIDDLE_SPINE, Vec3::new(0.0, 1.4, 0.0), Vec3::new(0.0, 0.0, -8.0)).unwrap();
    let (mut worst_pin, mut worst_depth, mut trapped_depth) = (0.0f32, 0.0f32, 0.0f32);
    for frame in 0..240 {
        s.world.step(1.0 / 60.0).unwrap();
        let alpha = s.world.alpha();
        let r = s.world.ragdolls.get(s.ragdoll.0, s.ragdoll.1).unwrap();
        r.read_pose(alpha, &mut pos, &mut rot).unwrap();
        s.world.bodies.get(s.cape.0, s.cape.1).unwrap().read_positions(alpha, &mut x);
        let spine = Pose { rotation: rot[bone::MIDDLE_SPINE], position: pos[bone::MIDDLE_SPINE], scale: 1.0 };
        for (k, &v) in s.pinned.iter().enumerate() {
            worst_pin = worst_pin.max((x[v as usize] - spine.to_world(s.offsets[k])).length());
        }
        // Non-penetration, once the cape has had a few frames to settle against the back.
        // Cloth trapped between a bone and the floor (within two thicknesses of it) cannot be
        // outside both with a one-way coupling; the floor wins there and it is counted apart.
        if frame >= 10 {
            for (shape, _, pose) in r.bone_shapes_in_step() {
                for (i, p) in x.iter().enumerate() {
                    if s.pinned.contains(&(i as u32)) {
                        continue;
                    }
                    let (d, _) = shape.distance(pose.to_local(*p));
                    if p.y > 2.0 * THICKNESS {
                        worst_depth = worst_depth.max(-d);
                    } else {
                        trapped_depth = trapped_depth.max(-d);
                    }
                }
            }
        }
        assert!(x.iter().all(|p| p.is_finite()), "frame {frame}");
    }
    // Pins hang 1 cm behind the spine's box and follow it wherever it lies; the free cloth
    // must stay above the floor.
    let lowest = x.iter().enumerate().filter(|(i, _)| !s.pinned.contains(&(*i as u32))).fold(f32::INFINITY, |m, (_, p)| m.min(p.y));
    let ragdoll_y = pos.iter().fold(f32::INFINITY, |m, p| m.min(p.y));
    println!("worst pin offset {worst_pin:.2e} m, worst depth inside a bone {worst_depth:.4} m (trapped against the floor {trapped_depth:.4} m), lowest cape point {lowest:.3} m, lowest bone origin {ragdoll_y:.3} m");
    assert!(worst_pin < 1e-4, "pinned vertices left their bone by {worst_pin} m");
    assert!(worst_depth < 0.005, "cloth {worst_depth} m inside a bone");
    assert!(trapped_depth < 1.5 * THICKNESS, "cloth trapped under a bone {trapped_depth} m inside it");
    // It fell: the spine, 1.2 m up at the start, lies near the floor.
    assert!(pos[bone::MIDDLE_SPINE].y < 0.45, "spine at {} m: the ragdoll did not fall", pos[bone::MIDDLE_SPINE].y);
    // Cloth trapped between a bone lying on it and the floor: the floor has the last word.
    assert!(lowest > -1e-3, "cape through the floor: {lowest}");
}

#[test]
fn removing_the_ragdoll_releases_the_cape() {
    let mut s = scene();
    for _ in 0..10 {
        s.world.step(1.0 / 60.0).unwrap();
    }
    let n = (COLUMNS * ROWS) as usize;
    let mut before = vec![Vec3::ZERO; n];
    s.world.bodies.get(s.cape.0, s.cape.1).unwrap().read_positions(1.0, &mut before);
    assert!(s.world.remove_ragdoll(s.ragdoll.0, s.ragdoll.1).is_some());
    for _ in 0..30 {
        s.world.step(1.0 / 60.0).unwrap();
    }
    let mut after = vec![Vec3::ZERO; n];
    let body = s.world.bodies.get(s.cape.0, s.cape.1).unwrap();
    body.read_positions(1.0, &mut after);
    for &v in &s.pinned {
        assert!(!body.is_pinned(v as usize), "vertex {v} still pinned");
        // Free fall for half a second: ½ g t² ≈ 1.2 m, less what the floor stops.
        assert!(after[v as usize].y < before[v as usize].y - 0.5, "vertex {v} did not fall: {} → {}", before[v as usize].y, after[v as usize].y);
    }
    assert!(body.collider_owners().is_empty());
}

#[test]
fn bad_links_are_refused_and_change_nothing() {
    let mut s = scene();
    let r = s.ragdoll;
    let c = s.cape;
    let e = s.world.attach_pins_to_ragdoll(c, r, &[0, 1], &[0], &[Vec3::ZERO; 2]).unwrap_err();
    assert!(e.message.contains("one bone and one offset per vertex"), "{}", e.message);
    let e = s.world.attach_pins_to_ragdoll(c, r, &[0], &[99], &[Vec3::ZERO]).unwrap_err();
    assert!(e.message.contains("out of range"), "{}", e.message);
    let e = s.world.attach_pins_to_ragdoll(c, r, &[0], &[0], &[Vec3::new(f32::NAN, 0.0, 0.0)]).unwrap_err();
    assert!(e.message.contains("not finite"), "{}", e.message);
    let e = s.world.attach_pins_to_ragdoll(c, r, &[9999], &[0], &[Vec3::ZERO]).unwrap_err();
    assert!(e.message.contains("out of range"), "{}", e.message);
    let e = s.world.attach_pins_to_ragdoll(c, (r.0, r.1 + 1), &[0], &[0], &[Vec3::ZERO]).unwrap_err();
    assert!(e.message.contains("ragdoll is not in this world"), "{}", e.message);
    let e = s.world.set_ragdoll_collision((c.0 + 7, c.1), r, true).unwrap_err();
    assert!(e.message.contains("body is not in this world"), "{}", e.message);
    // Nothing changed: only the top row is pinned, and the scene still steps.
    let body = s.world.bodies.get(c.0, c.1).unwrap();
    assert_eq!((0..(COLUMNS * ROWS) as usize).filter(|&p| body.is_pinned(p)).count(), COLUMNS as usize);
    s.world.step(1.0 / 60.0).unwrap();
}
