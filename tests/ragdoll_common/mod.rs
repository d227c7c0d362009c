//! Shared helpers of the ragdoll tests (Rust World API).
#![allow(dead_code, unused_imports)]

pub use sinew::geometry::{Pose, Shape};
pub use sinew::math::{Quat, Vec3};
pub use sinew::ragdoll::{BoneDesc, JointDesc, JointKind, RagdollDesc, RagdollSettings};
pub use sinew::world::{World, WorldSettings};

pub fn pose(position: Vec3, rotation: Quat) -> Pose {
    Pose { rotation, position, scale: 1.0 }
}

pub fn world(gravity: Vec3) -> World {
    let mut w = World::new(WorldSettings { gravity, thread_count: 1, ..Default::default() }).unwrap();
    w.sequential = true;
    w
}

/// Settings without damping or stabilisation (the laws tested hold for the bodies as given).
pub fn plain() -> RagdollSettings {
    RagdollSettings { stabilize: false, linear_damping: 0.0, angular_damping: 0.0, sleep_threshold: 0.0, ..Default::default() }
}

pub fn bone(parent: i32, at: Vec3, shape: Shape, mass: f32, joint: JointDesc) -> BoneDesc {
    BoneDesc { parent, bind: pose(at, Quat::IDENTITY), shape, mass, joint, ..Default::default() }
}

/// Body-frame orientation and position of bone `i` at the end of the last step (the tests'
/// shapes have no offset or rotation, so bone frame = body frame).
pub fn read(w: &World, r: (usize, u32)) -> (Vec<Vec3>, Vec<Quat>, Vec<Vec3>, Vec<Vec3>) {
    let rd = w.ragdolls.get(r.0, r.1).unwrap();
    let n = rd.bone_count();
    let (mut p, mut q, mut v, mut a) = (vec![Vec3::ZERO; n], vec![Quat::IDENTITY; n], vec![Vec3::ZERO; n], vec![Vec3::ZERO; n]);
    rd.read_pose(1.0, &mut p, &mut q).unwrap();
    rd.read_velocities(&mut v, &mut a).unwrap();
    (p, q, v, a)
}
