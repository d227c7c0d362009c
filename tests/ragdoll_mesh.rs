//! Bones against static triangle-mesh colliders (level geometry), through the World API: a
//! capsule bone rests on a two-triangle mesh floor where it rests on a plane at the same
//! place; a humanoid dropped onto a mesh floor stays on it; a fast bone thrown at a
//! single-sided mesh wall stops in front of it.

mod ragdoll_common;
use ragdoll_common::*;
use sinew::collider::Collider;
use sinew::geometry::trimesh::{Degenerate, TriMesh};
use sinew::ragdoll::humanoid::HumanoidBones;
use std::sync::Arc;

const DT: f32 = 1.0 / 60.0;

/// A square of side 2·`half` in the XZ plane, fronts facing +Y.
fn floor_mesh(half: f32) -> Arc<TriMesh> {
    let v = [Vec3::new(-half, 0.0, -half), Vec3::new(-half, 0.0, half), Vec3::new(half, 0.0, half), Vec3::new(half, 0.0, -half)];
    Arc::new(TriMesh::new(&v, &[0, 1, 2, 0, 2, 3], Degenerate::Refuse).unwrap())
}

fn at(p: Vec3) -> Pose {
    Pose { rotation: Quat::IDENTITY, position: p, scale: 1.0 }
}

/// A capsule bone lying along X, dropped from 0.5 m; its resting height after 3 s.
fn resting_height(mesh: bool) -> f32 {
    let mut w = world(Vec3::new(0.0, -9.81, 0.0));
    if mesh {
        w.add_collider(Collider::new_mesh(floor_mesh(3.0), u32::MAX, at(Vec3::new(0.0, 0.2, 0.0)))).unwrap();
    } else {
        w.add_collider(Collider::new(Shape::Plane, u32::MAX, at(Vec3::new(0.0, 0.2, 0.0))).unwrap()).unwrap();
    }
    let mut b = bone(-1, Vec3::new(0.3, 0.7, -0.4), Shape::Capsule { half_height: 0.15, radius0: 0.05, radius1: 0.05 }, 1.0, JointDesc::default());
    b.shape_rotation = Quat::from_rotation_z(std::f32::consts::FRAC_PI_2);
    let r = w.create_ragdoll(&RagdollDesc { bones: vec![b], settings: RagdollSettings::default() }).unwrap();
    for _ in 0..180 {
        w.step(DT).unwrap();
    }
    read(&w, r).0[0].y
}

#[test]
fn a_bone_rests_on_a_mesh_floor_as_on_a_plane() {
    let (on_mesh, on_plane) = (resting_height(true), resting_height(false));
    println!("capsule centre at rest: mesh {on_mesh:.6} m, plane {on_plane:.6} m");
    // Resting on its side: the centre one radius above the floor at y = 0.2.
    assert!((on_plane - 0.25).abs() < 1e-3, "on the plane at {on_plane}");
    assert!((on_mesh - on_plane).abs() < 1e-3, "on the mesh at {on_mesh}, on the plane at {on_plane}");
}

#[test]
fn a_humanoid_dropped_on_a_mesh_floor_stays_on_it() {
    let mut w = world(Vec3::new(0.0, -9.81, 0.0));
    w.add_collider(Collider::new_mesh(floor_mesh(4.0), u32::MAX, at(Vec3::ZERO))).unwrap();
    let desc = HumanoidBones::standing(Vec3::new(0.0, 1.0, 0.0)).ragdoll().unwrap();
    let r = w.create_ragdoll(&desc).unwrap();
    let mut lowest = f32::INFINITY;
    for _ in 0..240 {
        w.step(DT).unwrap();
        let rd = w.ragdolls.get(r.0, r.1).unwrap();
        for (shape, _, pose) in rd.bone_shapes_in_step() {
            // The shape's lowest point: the support point along −Y.
            let mut p = pose.position - Vec3::Y * shape.bounding_radius();
            for _ in 0..6 {
                let (d, n) = shape.distance(pose.to_local(p));
                p -= pose.rotation * n * d;
            }
            lowest = lowest.min(p.y);
        }
    }
    let (p, ..) = read(&w, r);
    println!("lowest bone point over the fall {lowest:.4} m; pelvis at {:.3} m", p[0].y);
    assert!(lowest > -0.01, "a bone went {lowest} m through the mesh floor");
    assert!(p[0].y < 0.4, "the ragdoll did not fall (pelvis at {})", p[0].y);
}

#[test]
fn a_fast_bone_stops_in_front_of_a_thin_mesh_wall() {
    let mut w = world(Vec3::ZERO);
    // A wall in the YZ plane at x = 1, its front facing −X (towards the ball).
    let v = [Vec3::new(1.0, -1.0, -1.0), Vec3::new(1.0, 1.0, -1.0), Vec3::new(1.0, 1.0, 1.0), Vec3::new(1.0, -1.0, 1.0)];
    let wall = Arc::new(TriMesh::new(&v, &[0, 2, 1, 0, 3, 2], Degenerate::Refuse).unwrap());
    let front = wall.normal(0);
    assert!(front.x < -0.99, "the wall's front faces the ball ({front})");
    w.add_collider(Collider::new_mesh(wall, u32::MAX, at(Vec3::ZERO))).unwrap();
    let b = bone(-1, Vec3::ZERO, Shape::Sphere { radius: 0.05 }, 1.0, JointDesc::default());
    let r = w.create_ragdoll(&RagdollDesc { bones: vec![b], settings: RagdollSettings { restitution: 0.0, ..plain() } }).unwrap();
    w.ragdolls.get_mut(r.0, r.1).unwrap().apply_bone_impulse(0, Vec3::ZERO, Vec3::new(30.0, 0.0, 0.0)).unwrap();
    let mut furthest = f32::NEG_INFINITY;
    for _ in 0..30 {
        w.step(DT).unwrap();
        furthest = furthest.max(read(&w, r).0[0].x);
    }
    println!("30 m/s ball: furthest centre x {furthest:.4} (wall at 1, radius 0.05)");
    assert!(furthest < 1.0 - 0.05 + 2e-3, "the ball reached {furthest}: through the wall");
}
