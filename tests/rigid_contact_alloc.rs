//! Once its buffers are warm, the rigid contact kernels allocate nothing: collection (broad
//! and narrow phase, body pairs and obstacles, the mesh hook) and both passes.

use sinew::geometry::{Pose, Shape};
use sinew::math::{Quat, Vec3};
use sinew::solver::rigid::RigidBody;
use sinew::solver::rigid::contact::{
    BodyShape, ContactMaterial, Contacts, ObstacleShape, StaticMesh,
};
mod counting;

#[global_allocator]
static GLOBAL: counting::Counting = counting::Counting;

struct Floor;
impl StaticMesh for Floor {
    fn closest_point(&self, p: Vec3, max_distance: f32) -> Option<(Vec3, Vec3)> {
        (p.y.abs() < max_distance).then(|| (Vec3::new(p.x, 0.0, p.z), Vec3::Y))
    }
}

#[test]
fn contacts_allocate_nothing_once_warm() {
    let at = |p: Vec3| Pose {
        rotation: Quat::IDENTITY,
        position: p,
        scale: 1.0,
    };
    let shapes = [
        BodyShape {
            shape: Shape::Box {
                half_extents: Vec3::splat(0.1),
            },
            local: at(Vec3::ZERO),
        },
        BodyShape {
            shape: Shape::Box {
                half_extents: Vec3::splat(0.1),
            },
            local: at(Vec3::ZERO),
        },
        BodyShape {
            shape: Shape::Capsule {
                half_height: 0.2,
                radius0: 0.05,
                radius1: 0.04,
            },
            local: at(Vec3::ZERO),
        },
        BodyShape {
            shape: Shape::Sphere { radius: 0.08 },
            local: at(Vec3::new(0.0, 0.02, 0.0)),
        },
    ];
    let mut bodies = [
        RigidBody::new(
            Vec3::new(0.0, 0.1, 0.0),
            Quat::IDENTITY,
            1.0,
            Vec3::splat(0.01),
        ),
        RigidBody::new(
            Vec3::new(0.05, 0.3, 0.0),
            Quat::from_rotation_y(0.3),
            1.0,
            Vec3::splat(0.01),
        ),
        RigidBody::new(
            Vec3::new(0.0, 0.45, 0.0),
            Quat::from_rotation_z(1.5),
            1.0,
            Vec3::new(0.02, 0.01, 0.02),
        ),
        RigidBody::new(
            Vec3::new(0.3, 0.2, 0.0),
            Quat::IDENTITY,
            1.0,
            Vec3::splat(0.004),
        ),
    ];
    let wall = Pose {
        rotation: Quat::IDENTITY,
        position: Vec3::new(0.5, 0.0, 0.0),
        scale: 1.0,
    };
    let obstacles = [
        ObstacleShape {
            shape: Shape::Plane,
            layers: 1,
            from: at(Vec3::ZERO),
            to: at(Vec3::ZERO),
        },
        ObstacleShape {
            shape: Shape::Box {
                half_extents: Vec3::new(0.01, 1.0, 1.0),
            },
            layers: 1,
            from: wall,
            to: wall,
        },
    ];
    let material = ContactMaterial {
        friction: 0.5,
        restitution: 0.3,
        rolling: 0.0,
    };
    let (h, g) = (1.0 / 480.0, Vec3::new(0.0, -9.81, 0.0));
    let mut contacts = Contacts::new();
    let step = |bodies: &mut [RigidBody], contacts: &mut Contacts| {
        for b in bodies.iter_mut() {
            b.prev_x = b.x;
            b.prev_q = b.q;
            b.v += g * h;
            b.x += b.v * h;
        }
        contacts.collect(bodies, &shapes, &obstacles, !0, |_, _| true, 0.0, 0.125);
        contacts.collect_mesh(bodies, &shapes, &Floor);
        contacts.solve_positions(bodies, material, h);
        for b in bodies.iter_mut() {
            b.v = (b.x - b.prev_x) / h;
        }
        contacts.solve_velocities(bodies, material, g, h);
    };
    for _ in 0..200 {
        step(&mut bodies, &mut contacts);
    }
    assert!(
        contacts.len() > 8,
        "the scene has contacts ({})",
        contacts.len()
    );
    let most = contacts.len();
    // Deterministic scene: the warm buffers hold every later substep's contacts. The kernels
    // run on this thread: only its allocations count.
    counting::start_here();
    for _ in 0..500 {
        step(&mut bodies, &mut contacts);
    }
    let n = counting::stop();
    println!("{n} allocations over 500 substeps with ~{most} contacts");
    assert_eq!(n, 0);
}
