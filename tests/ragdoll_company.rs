//! Ragdolls and particle bodies in company (issue 25): a body that collides with a ragdoll's
//! bones, or hangs on them by pins, steps in the same substeps as the ragdoll, and the
//! contacts go both ways. Laws: total linear momentum is kept when a jelly or a rope strikes
//! a free ragdoll (gravity off, no damping: the contact is an internal force of the pair);
//! a jelly landing on a lying humanoid moves it and neither passes into the other; pins sit
//! on their bone at every step's end; every pile comes to rest.

use sinew::collider::Collider;
use sinew::geometry::{Pose, Shape};
use sinew::math::{Quat, Vec3};
use sinew::particles::settings::Material;
use sinew::ragdoll::humanoid::{HumanoidBones, bone};
use sinew::ragdoll::{BoneDesc, RagdollDesc, RagdollSettings};
use sinew::rope::RopeSpec;
use sinew::softbody::LatticeSpec;
use sinew::world::{World, WorldSettings};

mod cape_common;
use cape_common::{Cape, THICKNESS, wear_cape};

fn world(gravity: Vec3) -> World {
    let mut w = World::new(WorldSettings { thread_count: 1, gravity, ..WorldSettings::default() }).unwrap();
    w.sequential = true;
    w
}

fn floor(w: &mut World) {
    let pose = Pose { rotation: Quat::IDENTITY, position: Vec3::ZERO, scale: 1.0 };
    w.add_collider(Collider::new(Shape::Plane, u32::MAX, pose).unwrap()).unwrap();
}

/// Linear momentum of a particle body (kg·m/s): its free particles' mass times velocity.
fn body_momentum(w: &World, id: (usize, u32)) -> Vec3 {
    let b = w.bodies.get(id.0, id.1).unwrap();
    b.particle_velocities().iter().zip(b.inverse_masses()).filter(|(_, w)| **w > 0.0).fold(Vec3::ZERO, |p, (v, w)| p + *v / *w)
}

/// Linear momentum of a ragdoll (kg·m/s): each bone's mass times its centre of mass' velocity.
fn ragdoll_momentum(w: &World, id: (usize, u32)) -> Vec3 {
    let r = w.ragdolls.get(id.0, id.1).unwrap();
    let n = r.bone_count();
    let (mut lin, mut ang) = (vec![Vec3::ZERO; n], vec![Vec3::ZERO; n]);
    let (mut pos, mut rot) = (vec![Vec3::ZERO; n], vec![Quat::IDENTITY; n]);
    r.read_velocities(&mut lin, &mut ang).unwrap();
    r.read_pose(1.0, &mut pos, &mut rot).unwrap();
    (0..n).fold(Vec3::ZERO, |p, i| {
        let com = r.bone_center_of_mass(i).unwrap();
        p + (lin[i] + ang[i].cross(com - pos[i])) * r.bone_mass(i).unwrap()
    })
}

fn undamped() -> RagdollSettings {
    RagdollSettings { linear_damping: 0.0, angular_damping: 0.0, ..RagdollSettings::default() }
}

fn jelly(origin: Vec3, particle_mass: f32) -> LatticeSpec {
    LatticeSpec { origin, material: Material { particle_mass, damping: 0.0, thickness: 0.01, bend_compliance: 0.0, ..Material::default() }, ..LatticeSpec::default() }
}

/// Checks the pair's momentum before and after, and that the struck ragdoll took a share.
fn assert_momentum_kept(w: &mut World, body: (usize, u32), ragdoll: (usize, u32), frames: usize) {
    let before = body_momentum(w, body) + ragdoll_momentum(w, ragdoll);
    for _ in 0..frames {
        w.step(1.0 / 60.0).unwrap();
    }
    let (pb, pr) = (body_momentum(w, body), ragdoll_momentum(w, ragdoll));
    let after = pb + pr;
    let drift = (after - before).length() / before.length();
    println!("momentum before {before}, after {after} (body {pb}, ragdoll {pr}): relative drift {drift:.2e}");
    assert!(drift <= 1e-4, "the pair's momentum changed by {drift:.2e} of itself");
    assert!(pr.length() > 0.05 * before.length(), "the ragdoll took only {pr} of {before}: it was not struck");
}

#[test]
fn a_jelly_thrown_at_a_free_ragdoll_keeps_the_pairs_momentum() {
    let mut w = world(Vec3::ZERO);
    // The chest near the origin: f32 positions round a bone's velocity, taken from its
    // motion over a 1/480 s substep, by about ulp(x)/h (3e-5 m/s at 1 m), which is the
    // f32 representation's error, not the contact's.
    let mut desc = HumanoidBones::standing(Vec3::new(0.0, -1.2, 0.0)).ragdoll().unwrap();
    desc.settings = undamped();
    let r = w.create_ragdoll(&desc).unwrap();
    // A 0.15 m jelly of 64 × 0.05 kg, thrown at the chest at 6 m/s from 0.6 m in front.
    let chest = desc.bones[bone::MIDDLE_SPINE].bind.position;
    let j = w.create_soft_lattice(&jelly(chest + Vec3::new(0.0, 0.0, 0.6), 0.05)).unwrap();
    w.set_ragdoll_collision(j, r, true).unwrap();
    let n = w.bodies.get(j.0, j.1).unwrap().particle_count();
    w.bodies.get_mut(j.0, j.1).unwrap().set_velocities(&vec![Vec3::new(0.0, 0.0, -6.0); n]).unwrap();
    assert_momentum_kept(&mut w, j, r, 20);
}

#[test]
fn a_rope_swung_into_a_free_box_keeps_the_pairs_momentum() {
    let mut w = world(Vec3::ZERO);
    // A single-bone ragdoll: a free 0.3 m box of 2 kg.
    let bone = BoneDesc { shape: Shape::Box { half_extents: Vec3::splat(0.15) }, mass: 2.0, bind: Pose { rotation: Quat::IDENTITY, position: Vec3::new(0.0, 0.0, 0.0), scale: 1.0 }, ..BoneDesc::default() };
    let r = w.create_ragdoll(&RagdollDesc { bones: vec![bone], settings: undamped() }).unwrap();
    // A free 1 m rope of 21 × 0.02 kg, 0.5 m in front of the box, spinning about its middle
    // at 8 rad/s while it moves towards the box at 2 m/s: its end sweeps into the box.
    let points: Vec<Vec3> = (0..21).map(|i| Vec3::new(-0.5 + 0.05 * i as f32, 0.0, 0.5)).collect();
    let rope = w.create_rope(&RopeSpec { points: &points, pins: &[], bend: false, material: Material { particle_mass: 0.02, damping: 0.0, thickness: 0.01, ..Material::default() } }).unwrap();
    w.set_ragdoll_collision(rope, r, true).unwrap();
    let v: Vec<Vec3> = points.iter().map(|p| Vec3::new(0.0, 0.0, -2.0) + Vec3::new(0.0, 8.0, 0.0).cross(*p - Vec3::new(0.0, 0.0, 0.5))).collect();
    w.bodies.get_mut(rope.0, rope.1).unwrap().set_velocities(&v).unwrap();
    assert_momentum_kept(&mut w, rope, r, 30);
}

/// Deepest point of `points` inside any bone of ragdoll `r` (m; 0 when all are outside).
fn deepest_in_bones(w: &World, r: (usize, u32), points: &[Vec3], skip: &[u32]) -> f32 {
    let ragdoll = w.ragdolls.get(r.0, r.1).unwrap();
    let mut worst = 0.0f32;
    for (shape, _, pose) in ragdoll.bone_shapes_in_step() {
        for (i, p) in points.iter().enumerate() {
            if !skip.contains(&(i as u32)) {
                worst = worst.max(-shape.distance(pose.to_local(*p)).0);
            }
        }
    }
    worst
}

#[test]
fn a_jelly_dropped_on_a_lying_humanoid_moves_it_and_both_come_to_rest() {
    let mut w = world(Vec3::new(0.0, -9.81, 0.0));
    floor(&mut w);
    // A humanoid lying on its back: the standing bind pose turned a quarter about X.
    let h = HumanoidBones::standing(Vec3::ZERO);
    let mut desc = h.ragdoll().unwrap();
    let lay = Quat::from_rotation_x(-std::f32::consts::FRAC_PI_2);
    for b in &mut desc.bones {
        b.bind = Pose { rotation: (lay * b.bind.rotation).normalize(), position: lay * b.bind.position + Vec3::new(0.0, 0.16, 0.0), scale: 1.0 };
    }
    let r = w.create_ragdoll(&desc).unwrap();
    for _ in 0..240 {
        w.step(1.0 / 60.0).unwrap();
    }
    assert!(w.ragdolls.get(r.0, r.1).unwrap().is_asleep(), "the lying humanoid did not settle before the jelly");
    let n = bone::COUNT;
    let (mut rest, mut rot) = (vec![Vec3::ZERO; n], vec![Quat::IDENTITY; n]);
    w.ragdolls.get(r.0, r.1).unwrap().read_pose(1.0, &mut rest, &mut rot).unwrap();
    // A 0.3 m jelly of 216 × 0.02 kg (4.3 kg) dropped from 0.5 m above the chest.
    let chest = rest[bone::MIDDLE_SPINE];
    let spec = LatticeSpec { nx: 6, ny: 6, nz: 6, spacing: 0.06, ..jelly(chest + Vec3::new(0.0, 0.55, 0.0), 0.02) };
    let j = w.create_soft_lattice(&spec).unwrap();
    w.set_ragdoll_collision(j, r, true).unwrap();
    let thickness = spec.material.thickness;
    let count = w.bodies.get(j.0, j.1).unwrap().particle_count();
    let mut x = vec![Vec3::ZERO; count];
    let (mut pos, mut moved, mut deepest, mut slept) = (vec![Vec3::ZERO; n], 0.0f32, 0.0f32, None);
    for frame in 0..600 {
        w.step(1.0 / 60.0).unwrap();
        x.copy_from_slice(w.bodies.get(j.0, j.1).unwrap().positions());
        deepest = deepest.max(deepest_in_bones(&w, r, &x, &[]));
        let ragdoll = w.ragdolls.get(r.0, r.1).unwrap();
        ragdoll.read_pose(1.0, &mut pos, &mut rot).unwrap();
        moved = moved.max(pos.iter().zip(&rest).fold(0.0f32, |m, (a, b)| m.max((*a - *b).length())));
        if slept.is_none() && ragdoll.is_asleep() && w.bodies.get(j.0, j.1).unwrap().is_asleep() && frame > 30 {
            slept = Some(frame as f32 / 60.0);
        }
    }
    let centre = x.iter().fold(Vec3::ZERO, |a, p| a + *p) / count as f32;
    println!("bones moved up to {:.1} mm, jelly at most {deepest:.4} m inside a bone, both asleep at {slept:?} s, jelly centre {centre}", moved * 1e3);
    assert!(moved > 1e-3, "the humanoid did not move under the jelly ({moved} m)");
    assert!(deepest <= thickness, "a jelly particle {deepest} m inside a bone (thickness {thickness})");
    assert!(slept.is_some(), "the jelly and the humanoid did not both come to rest in 10 s");
    // On the chest its centre is half its height (0.15 m) above the chest's top; on the
    // floor beside the body, 0.15 m above the floor.
    assert!(centre.y > chest.y + 0.15, "the jelly did not stay on the humanoid: centre {centre}, chest {chest}");
}

#[test]
fn a_cape_on_a_spinning_falling_ragdoll_keeps_its_pins_on_the_bone() {
    let mut w = world(Vec3::new(0.0, -9.81, 0.0));
    floor(&mut w);
    let h = HumanoidBones::standing(Vec3::new(0.0, 0.3, 0.0));
    let desc = h.ragdoll().unwrap();
    let r = w.create_ragdoll(&desc).unwrap();
    let spine = desc.bones[bone::MIDDLE_SPINE].bind;
    let Cape { body: cape, pinned, offsets } = wear_cape(&mut w, &h, &desc, r);
    // A spin about the vertical (12 rad/s on the pelvis' side) and a shove: it falls turning.
    let ragdoll = w.ragdolls.get_mut(r.0, r.1).unwrap();
    ragdoll.apply_bone_impulse(bone::MIDDLE_SPINE, spine.position + Vec3::new(0.3, 0.0, 0.0), Vec3::new(0.0, 0.0, 25.0)).unwrap();
    ragdoll.apply_bone_impulse(bone::MIDDLE_SPINE, spine.position + Vec3::new(-0.3, 0.0, 0.0), Vec3::new(0.0, 0.0, -25.0)).unwrap();
    ragdoll.apply_bone_impulse(bone::MIDDLE_SPINE, spine.position + Vec3::new(0.0, 0.3, 0.0), Vec3::new(6.0, 0.0, 0.0)).unwrap();
    let n = bone::COUNT;
    let (mut pos, mut rot) = (vec![Vec3::ZERO; n], vec![Quat::IDENTITY; n]);
    let (mut worst_pin, mut deepest, mut turned) = (0.0f32, 0.0f32, 0.0f32);
    for frame in 0..180 {
        w.step(1.0 / 60.0).unwrap();
        let x = w.bodies.get(cape.0, cape.1).unwrap().positions().to_vec();
        let ragdoll = w.ragdolls.get(r.0, r.1).unwrap();
        ragdoll.read_pose(1.0, &mut pos, &mut rot).unwrap();
        let bone_now = Pose { rotation: rot[bone::MIDDLE_SPINE], position: pos[bone::MIDDLE_SPINE], scale: 1.0 };
        for (k, &v) in pinned.iter().enumerate() {
            worst_pin = worst_pin.max((x[v as usize] - bone_now.to_world(offsets[k])).length());
        }
        turned = turned.max(rot[bone::MIDDLE_SPINE].angle_between(spine.rotation));
        if frame >= 5 {
            deepest = deepest.max(deepest_in_bones(&w, r, &x, &pinned));
        }
    }
    println!("pins at most {worst_pin:.2e} m from their bone, cape at most {deepest:.4} m inside a bone, spine turned up to {:.0} deg", turned.to_degrees());
    assert!(turned > 1.0, "the ragdoll did not spin ({turned} rad)");
    assert!(worst_pin <= 1e-5, "a pin left its bone by {worst_pin} m");
    assert!(deepest <= THICKNESS, "cape {deepest} m inside a bone (thickness {THICKNESS})");
}

