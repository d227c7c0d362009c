//! Rigid contacts against the laws they must obey, stepped by a hand-written XPBD substep
//! loop (Müller et al. 2020, Algorithm 2) around the contact kernels: prediction with gravity,
//! `Contacts::collect`, `solve_positions`, velocities from the motion, `solve_velocities`.
//! Substep h = 1/480 s (60 Hz × 8) unless a test says otherwise.

use sinew::geometry::{Pose, Shape};
use sinew::math::{Quat, Vec3};
use sinew::solver::rigid::RigidBody;
use sinew::solver::rigid::contact::{
    BodyShape, ContactMaterial, Contacts, ObstacleShape, StaticMesh,
};

const H: f32 = 1.0 / 480.0;
const G: Vec3 = Vec3::new(0.0, -9.81, 0.0);

fn pose(position: Vec3, rotation: Quat) -> Pose {
    Pose {
        rotation,
        position,
        scale: 1.0,
    }
}

fn at(position: Vec3) -> Pose {
    pose(position, Quat::IDENTITY)
}

fn body_shape(shape: Shape) -> BodyShape {
    BodyShape {
        shape,
        local: at(Vec3::ZERO),
    }
}

fn still(shape: Shape, p: Pose) -> ObstacleShape {
    ObstacleShape {
        shape,
        layers: 1,
        from: p,
        to: p,
    }
}

fn ground() -> ObstacleShape {
    still(Shape::Plane, at(Vec3::ZERO))
}

fn sphere(c: Vec3, r: f32, m: f32) -> (RigidBody, BodyShape) {
    (
        RigidBody::new(c, Quat::IDENTITY, m, Vec3::splat(0.4 * m * r * r)),
        body_shape(Shape::Sphere { radius: r }),
    )
}

/// A capsule (axis along its local Y) with solid-cylinder-plus-caps inertia (approximate).
fn capsule(c: Vec3, q: Quat, half: f32, r: f32, m: f32) -> (RigidBody, BodyShape) {
    let l = 2.0 * half + 2.0 * r;
    let axial = 0.5 * m * r * r;
    let across = m * (3.0 * r * r + l * l) / 12.0;
    (
        RigidBody::new(c, q, m, Vec3::new(across, axial, across)),
        body_shape(Shape::Capsule {
            half_height: half,
            radius0: r,
            radius1: r,
        }),
    )
}

fn cuboid(c: Vec3, q: Quat, e: Vec3, m: f32) -> (RigidBody, BodyShape) {
    let s = e * 2.0;
    let i = Vec3::new(
        s.y * s.y + s.z * s.z,
        s.x * s.x + s.z * s.z,
        s.x * s.x + s.y * s.y,
    ) * (m / 12.0);
    (
        RigidBody::new(c, q, m, i),
        body_shape(Shape::Box { half_extents: e }),
    )
}

fn dynamic(b: &RigidBody) -> bool {
    b.inv_mass > 0.0
}

struct Scene {
    bodies: Vec<RigidBody>,
    shapes: Vec<BodyShape>,
    obstacles: Vec<ObstacleShape>,
    contacts: Contacts,
    material: ContactMaterial,
    gravity: Vec3,
    h: f32,
    /// Substeps per fixed step (for the obstacles' fractions t0, t1).
    substeps: usize,
    substep: usize,
}

impl Scene {
    fn new(
        parts: Vec<(RigidBody, BodyShape)>,
        obstacles: Vec<ObstacleShape>,
        friction: f32,
        restitution: f32,
    ) -> Scene {
        let (bodies, shapes) = parts.into_iter().unzip();
        Scene {
            bodies,
            shapes,
            obstacles,
            contacts: Contacts::new(),
            material: ContactMaterial {
                friction,
                restitution,
                rolling: 0.0,
            },
            gravity: G,
            h: H,
            substeps: 8,
            substep: 0,
        }
    }

    /// One substep (Algorithm 2 of the paper, contacts only). `kinematic(i, t)` gives the
    /// pose of kinematic body `i` at time `t` (s) if it is driven.
    fn step(&mut self) {
        let h = self.h;
        for b in self.bodies.iter_mut() {
            b.prev_x = b.x;
            b.prev_q = b.q;
            if dynamic(b) {
                b.v += self.gravity * h;
            }
            b.x += b.v * h;
            b.rotate_by(b.w * h);
        }
        let s = self.substep % self.substeps;
        let (t0, t1) = (
            s as f32 / self.substeps as f32,
            (s + 1) as f32 / self.substeps as f32,
        );
        self.contacts.collect(
            &self.bodies,
            &self.shapes,
            &self.obstacles,
            !0,
            |_, _| true,
            t0,
            t1,
        );
        self.contacts
            .solve_positions(&mut self.bodies, self.material, h);
        for b in self.bodies.iter_mut() {
            b.v = (b.x - b.prev_x) / h;
            let mut dq = b.q * b.prev_q.inverse();
            if dq.w < 0.0 {
                dq = -dq;
            }
            b.w = Vec3::new(dq.x, dq.y, dq.z) * (2.0 / h);
        }
        self.contacts
            .solve_velocities(&mut self.bodies, self.material, self.gravity, h);
        self.substep += 1;
        if self.substep.is_multiple_of(self.substeps) {
            for o in self.obstacles.iter_mut() {
                o.from = o.to;
            }
        }
    }

    fn run(&mut self, seconds: f32) {
        for _ in 0..(seconds / self.h).round() as usize {
            self.step();
        }
    }
}

/// Lowest point of a body's shape below the plane y = 0 (m, > 0 when penetrating).
fn penetration(b: &RigidBody, s: &BodyShape) -> f32 {
    let q = b.q * s.local.rotation;
    let c = b.x + b.q * s.local.position;
    let low = match s.shape {
        Shape::Sphere { radius } => c.y - radius,
        Shape::Capsule {
            half_height,
            radius0,
            radius1,
        } => {
            let a = (c + q * Vec3::new(0.0, -half_height, 0.0)).y - radius0;
            let b = (c + q * Vec3::new(0.0, half_height, 0.0)).y - radius1;
            a.min(b)
        }
        Shape::Box { half_extents: e } => (0..8)
            .map(|k| {
                let sg = |bit: usize| if k & (1 << bit) != 0 { 1.0 } else { -1.0 };
                (c + q * Vec3::new(sg(0) * e.x, sg(1) * e.y, sg(2) * e.z)).y
            })
            .fold(f32::INFINITY, f32::min),
        Shape::Plane => unreachable!(),
    };
    -low
}

#[test]
fn sphere_and_capsule_dropped_on_a_plane_come_to_rest() {
    let lying = Quat::from_rotation_z(std::f32::consts::FRAC_PI_2);
    for part in [
        sphere(Vec3::new(0.0, 0.5, 0.0), 0.1, 2.0),
        capsule(Vec3::new(0.0, 0.5, 0.0), lying, 0.2, 0.06, 3.0),
        capsule(
            Vec3::new(0.0, 0.6, 0.0),
            Quat::from_rotation_z(1.0),
            0.2,
            0.06,
            3.0,
        ),
    ] {
        let mut s = Scene::new(vec![part], vec![ground()], 0.5, 0.3);
        s.run(3.0);
        let b = s.bodies[0];
        let mut worst_speed = 0.0f32;
        let mut worst_pen = 0.0f32;
        for _ in 0..480 {
            s.step();
            let b = s.bodies[0];
            worst_speed = worst_speed.max(b.v.length());
            worst_pen = worst_pen.max(penetration(&b, &s.shapes[0]));
        }
        println!(
            "{:?}: speed {worst_speed:.2e} m/s, penetration {:.3} mm, w {:.2e}",
            s.shapes[0].shape,
            worst_pen * 1e3,
            b.w.length()
        );
        assert!(worst_speed < 1e-3, "speed {worst_speed}");
        assert!(worst_pen < 1e-3, "penetration {worst_pen}");
        assert!(b.w.length() < 1e-2, "angular speed {}", b.w.length());
    }
}

/// Highest height of the centre after the first bounce of a body dropped from `drop` (m
/// of fall before touching).
fn rebound(part: (RigidBody, BodyShape), rest_height: f32, e: f32) -> (f32, f32) {
    let mut s = Scene::new(vec![part], vec![ground()], 0.0, e);
    let drop = s.bodies[0].x.y - rest_height;
    let mut bounced = false;
    let mut top = f32::NEG_INFINITY;
    for _ in 0..(3.0 / H) as usize {
        s.step();
        let b = s.bodies[0];
        if !bounced && b.v.y > 0.0 {
            bounced = true;
        }
        if bounced {
            top = top.max(b.x.y);
            if b.v.y < 0.0 {
                break;
            }
        }
    }
    (drop, top - rest_height)
}

#[test]
fn restitution_rebound_height_is_e_squared_times_the_drop() {
    for e in [0.5f32, 0.8] {
        let (d, up) = rebound(sphere(Vec3::new(0.0, 1.1, 0.0), 0.1, 1.0), 0.1, e);
        let err = (up / (e * e * d) - 1.0).abs();
        println!(
            "sphere e={e}: rebound {up:.4} m vs e²h {:.4} m ({:.2} %)",
            e * e * d,
            err * 100.0
        );
        assert!(err < 0.03, "sphere e={e}: {up} vs {}", e * e * d);
        let lying = Quat::from_rotation_z(std::f32::consts::FRAC_PI_2);
        let (d, up) = rebound(
            capsule(Vec3::new(0.0, 1.06, 0.0), lying, 0.2, 0.06, 1.0),
            0.06,
            e,
        );
        let err = (up / (e * e * d) - 1.0).abs();
        println!(
            "capsule e={e}: rebound {up:.4} m vs e²h {:.4} m ({:.2} %)",
            e * e * d,
            err * 100.0
        );
        assert!(err < 0.03, "capsule e={e}: {up} vs {}", e * e * d);
    }
}

/// A box resting on a slope of angle `theta` (a plane turned about z), released at rest.
fn slope(theta: f32, mu: f32) -> Scene {
    let q = Quat::from_rotation_z(theta);
    let e = Vec3::new(0.2, 0.1, 0.15);
    let c = q * Vec3::new(0.0, e.y, 0.0);
    Scene::new(
        vec![cuboid(c, q, e, 2.0)],
        vec![still(Shape::Plane, pose(Vec3::ZERO, q))],
        mu,
        0.0,
    )
}

#[test]
fn box_on_a_slope_sticks_below_the_friction_angle() {
    let mu = 0.5f32;
    let limit = mu.atan();
    for theta in [0.3 * limit, 0.8 * limit, 0.95 * limit] {
        let mut s = slope(theta, mu);
        s.run(0.1);
        let start = s.bodies[0].x;
        s.run(2.0);
        let creep = (s.bodies[0].x - start).length();
        println!(
            "slope {:.1}° (limit {:.1}°): creep {:.3e} m over 2 s",
            theta.to_degrees(),
            limit.to_degrees(),
            creep
        );
        assert!(creep < 1e-3, "creep {creep} at {theta}");
    }
}

#[test]
fn box_on_a_slope_slides_above_it_with_the_coulomb_acceleration() {
    let mu = 0.5f32;
    for theta in [mu.atan() + 0.1, 0.7, 0.9] {
        let mut s = slope(theta, mu);
        let down = Quat::from_rotation_z(theta) * Vec3::NEG_X;
        s.run(0.2);
        let v0 = s.bodies[0].v.dot(down);
        s.run(1.0);
        let v1 = s.bodies[0].v.dot(down);
        let a = v1 - v0;
        let expect = 9.81 * (theta.sin() - mu * theta.cos());
        let err = (a / expect - 1.0).abs();
        println!(
            "slope {:.1}°: a = {a:.4} m/s² vs g(sin θ − μ cos θ) = {expect:.4} ({:.2} %)",
            theta.to_degrees(),
            err * 100.0
        );
        assert!(err < 0.02, "{a} vs {expect}");
        // It slides flat: the box does not tip or lift.
        let n = Quat::from_rotation_z(theta) * Vec3::Y;
        assert!((s.bodies[0].x.dot(n) - 0.1).abs() < 1e-3);
    }
}

#[test]
fn box_resting_flat_neither_rocks_nor_drifts() {
    let e = Vec3::new(0.3, 0.1, 0.2);
    let mut s = Scene::new(
        vec![cuboid(
            Vec3::new(0.0, 0.1 + 0.02, 0.0),
            Quat::IDENTITY,
            e,
            5.0,
        )],
        vec![ground()],
        0.6,
        0.2,
    );
    s.run(0.5);
    let start = s.bodies[0].x;
    let mut worst_w = 0.0f32;
    let mut worst_tilt = 0.0f32;
    for _ in 0..(5.0 / H) as usize {
        s.step();
        let b = s.bodies[0];
        worst_w = worst_w.max(b.w.length());
        worst_tilt = worst_tilt.max((b.q * Vec3::Y).angle_between(Vec3::Y));
    }
    let drift = (s.bodies[0].x - start).length();
    println!(
        "flat box over 5 s: drift {drift:.2e} m, |ω| ≤ {worst_w:.2e} rad/s, tilt ≤ {worst_tilt:.2e} rad"
    );
    assert!(drift < 1e-3 && worst_w < 1e-3 && worst_tilt < 1e-3);
    assert!(penetration(&s.bodies[0], &s.shapes[0]) < 1e-3);
}

#[test]
fn fast_sphere_does_not_pass_through_a_thin_box() {
    // A 2 cm wall at x = 1; spheres and a capsule at 50 m/s (10 cm per substep), no gravity.
    let wall = still(
        Shape::Box {
            half_extents: Vec3::new(0.01, 1.0, 1.0),
        },
        at(Vec3::new(1.0, 0.0, 0.0)),
    );
    for (part, r) in [
        (sphere(Vec3::ZERO, 0.02, 0.5), 0.02),
        (sphere(Vec3::new(0.0, 0.3, 0.1), 0.005, 0.1), 0.005),
        (
            capsule(Vec3::ZERO, Quat::from_rotation_z(0.4), 0.1, 0.01, 0.5),
            0.01,
        ),
    ] {
        for speed in [50.0f32, 200.0] {
            let mut p = part;
            p.0.v = Vec3::new(speed, 0.0, 0.0);
            let mut s = Scene::new(vec![p], vec![wall], 0.3, 0.0);
            s.gravity = Vec3::ZERO;
            let mut worst = f32::NEG_INFINITY;
            for _ in 0..200 {
                s.step();
                // The shape's farthest point along x (its end spheres' or its sphere's).
                let b = s.bodies[0];
                let reach = match s.shapes[0].shape {
                    Shape::Capsule { half_height, .. } => (b.q * Vec3::Y * half_height).x.abs() + r,
                    _ => r,
                };
                worst = worst.max(b.x.x + reach);
            }
            println!("{speed} m/s, radius {r}: farthest point x {worst:.5} (wall face at 0.99)");
            assert!(worst <= 0.99 + 1e-3, "passed into the wall: {worst}");
            assert!(s.bodies[0].x.x < 1.0);
        }
    }
}

#[test]
fn capsules_spawned_half_overlapping_separate_at_a_bounded_speed() {
    // Two parallel capsules (radius 5 cm) with centres 5 cm apart: 50 % of the sum of radii.
    let lying = Quat::from_rotation_z(std::f32::consts::FRAC_PI_2);
    let a = capsule(Vec3::new(0.0, 0.0, 0.0), lying, 0.2, 0.05, 2.0);
    let b = capsule(Vec3::new(0.0, 0.05, 0.0), lying, 0.2, 0.05, 2.0);
    for bound in [3.0f32, 1.0] {
        let mut s = Scene::new(vec![a, b], vec![], 0.5, 0.5);
        s.gravity = Vec3::ZERO;
        s.contacts.max_depenetration_speed = bound;
        let mut worst = 0.0f32;
        let mut steps = 0;
        for k in 0..(1.0 / H) as usize {
            s.step();
            let rel = (s.bodies[1].v - s.bodies[0].v).length();
            worst = worst.max(rel);
            worst = worst
                .max(s.bodies[0].v.length())
                .max(s.bodies[1].v.length());
            if steps == 0 && (s.bodies[1].x - s.bodies[0].x).length() >= 0.1 - 1e-4 {
                steps = k + 1;
            }
        }
        let gap = (s.bodies[1].x - s.bodies[0].x).length() - 0.1;
        println!(
            "bound {bound} m/s: worst speed {worst:.4} m/s, separated after {steps} substeps, final gap {gap:.2e} m"
        );
        assert!(worst <= bound * 1.001, "speed {worst} above {bound}");
        assert!(gap > -1e-4, "still overlapping by {gap}");
        // The depenetration takes at least (overlap / bound) — it is not a jump.
        assert!(steps as f32 * H >= 0.05 / bound * 0.99);
    }
}

#[test]
fn kinematic_body_pushes_a_dynamic_one_and_is_not_pushed() {
    // A kinematic box moving at 1.5 m/s along x on the ground pushes a dynamic box resting there.
    let e = Vec3::splat(0.1);
    let mut pusher = cuboid(Vec3::new(-0.5, 0.1, 0.0), Quat::IDENTITY, e, 0.0);
    pusher.0.inv_inertia = Vec3::ZERO;
    let pushed = cuboid(Vec3::new(0.0, 0.1, 0.0), Quat::IDENTITY, e, 1.0);
    let mut s = Scene::new(vec![pusher, pushed], vec![ground()], 0.3, 0.0);
    let speed = 1.5f32;
    let mut worst_overlap = 0.0f32;
    for k in 1..=(2.0 / H) as usize {
        // The host moves the kinematic body along its path; its velocity is the path's.
        let x = Vec3::new(-0.5 + speed * k as f32 * H, 0.1, 0.0);
        s.bodies[0].v = (x - s.bodies[0].x) / H;
        s.step();
        assert_eq!(s.bodies[0].x, x, "the kinematic body left its path");
        assert_eq!(s.bodies[0].q, Quat::IDENTITY);
        worst_overlap = worst_overlap.max(0.2 - (s.bodies[1].x.x - s.bodies[0].x.x));
    }
    let (k, d) = (s.bodies[0], s.bodies[1]);
    println!(
        "pushed box: v = {:.4} m/s (pusher {speed}), worst overlap {:.3} mm, ahead by {:.4} m",
        d.v.x,
        worst_overlap * 1e3,
        d.x.x - k.x.x
    );
    assert!(worst_overlap < 1e-3);
    assert!(
        d.x.x > 1.0,
        "the dynamic box was not pushed along ({})",
        d.x.x
    );
    assert!((d.v.x - speed).abs() < 0.05, "pushed at {} m/s", d.v.x);
}

#[test]
fn three_boxes_stacked_stay_stacked_for_five_seconds() {
    let e = Vec3::new(0.25, 0.1, 0.2);
    let parts = (0..3)
        .map(|k| {
            cuboid(
                Vec3::new(0.0, 0.1 + 0.2 * k as f32, 0.0),
                Quat::IDENTITY,
                e,
                3.0,
            )
        })
        .collect();
    let mut s = Scene::new(parts, vec![ground()], 0.6, 0.0);
    s.run(0.5);
    let start: Vec<Vec3> = s.bodies.iter().map(|b| b.x).collect();
    let mut worst_tilt = 0.0f32;
    for _ in 0..(5.0 / H) as usize {
        s.step();
        for b in &s.bodies {
            worst_tilt = worst_tilt.max((b.q * Vec3::Y).angle_between(Vec3::Y));
        }
    }
    for (k, b) in s.bodies.iter().enumerate() {
        let drift = b.x - start[k];
        let expect_y = 0.1 + 0.2 * k as f32;
        println!(
            "box {k}: drift {:.2e} m, height {:.5} (stacked {expect_y:.5}), speed {:.2e}",
            drift.length(),
            b.x.y,
            b.v.length()
        );
        // Stacked: no box slides off or topples. (Measured: the top box creeps ~1.6 mm over the
        // 5 s — the residual of 8 symmetric Gauss–Seidel sweeps over the 12 coupled contacts.)
        assert!(
            Vec3::new(drift.x, 0.0, drift.z).length() < 5e-3,
            "box {k} slid {drift}"
        );
        assert!((b.x.y - expect_y).abs() < 2e-3, "box {k} at {}", b.x.y);
        assert!(b.v.length() < 1e-2);
    }
    println!("worst tilt {worst_tilt:.2e} rad");
    assert!(worst_tilt < 1e-2);
}

#[test]
fn layers_and_the_pair_filter_select_contacts() {
    let (b, sh) = sphere(Vec3::new(0.0, 0.05, 0.0), 0.1, 1.0);
    let mut floor = ground();
    floor.layers = 0b10;
    let mut c = Contacts::new();
    c.collect(&[b], &[sh], &[floor], 0b01, |_, _| true, 0.0, 0.125);
    assert!(c.is_empty());
    c.collect(&[b], &[sh], &[floor], 0b11, |_, _| true, 0.0, 0.125);
    assert_eq!(c.len(), 1);
    let (b2, sh2) = sphere(Vec3::new(0.15, 0.05, 0.0), 0.1, 1.0);
    c.collect(&[b, b2], &[sh, sh2], &[], !0, |_, _| false, 0.0, 0.125);
    assert!(c.is_empty());
    c.collect(
        &[b, b2],
        &[sh, sh2],
        &[],
        !0,
        |i, j| (i, j) == (0, 1),
        0.0,
        0.125,
    );
    assert_eq!(c.len(), 1);
    assert_eq!((c.contacts()[0].a, c.contacts()[0].b), (0, 1));
    assert!((c.contacts()[0].gap0 + 0.05).abs() < 1e-5);
}

/// A flat mesh y = 0 (one infinite "triangle"), standing in for a triangle mesh's BVH.
struct Floor;

impl StaticMesh for Floor {
    fn closest_point(&self, p: Vec3, max_distance: f32) -> Option<(Vec3, Vec3)> {
        (p.y.abs() < max_distance).then(|| (Vec3::new(p.x, 0.0, p.z), Vec3::Y))
    }
}

#[test]
fn mesh_hook_holds_a_box_and_a_capsule() {
    let lying = Quat::from_rotation_z(std::f32::consts::FRAC_PI_2);
    for part in [
        cuboid(
            Vec3::new(0.0, 0.3, 0.0),
            Quat::from_rotation_x(0.3),
            Vec3::splat(0.1),
            1.0,
        ),
        capsule(Vec3::new(0.0, 0.3, 0.0), lying, 0.2, 0.05, 1.0),
    ] {
        let mut s = Scene::new(vec![part], vec![], 0.5, 0.0);
        for _ in 0..(2.0 / H) as usize {
            let h = s.h;
            for b in s.bodies.iter_mut() {
                b.prev_x = b.x;
                b.prev_q = b.q;
                b.v += G * h;
                b.x += b.v * h;
                b.rotate_by(b.w * h);
            }
            s.contacts
                .collect(&s.bodies, &s.shapes, &[], !0, |_, _| true, 0.0, 1.0);
            s.contacts.collect_mesh(&s.bodies, &s.shapes, &Floor);
            s.contacts.solve_positions(&mut s.bodies, s.material, h);
            for b in s.bodies.iter_mut() {
                b.v = (b.x - b.prev_x) / h;
                let mut dq = b.q * b.prev_q.inverse();
                if dq.w < 0.0 {
                    dq = -dq;
                }
                b.w = Vec3::new(dq.x, dq.y, dq.z) * (2.0 / h);
            }
            s.contacts.solve_velocities(&mut s.bodies, s.material, G, h);
        }
        let b = s.bodies[0];
        let pen = penetration(&b, &s.shapes[0]);
        println!(
            "{:?} on the mesh: speed {:.2e}, penetration {:.3} mm",
            s.shapes[0].shape,
            b.v.length(),
            pen * 1e3
        );
        assert!(b.v.length() < 1e-3 && pen < 1e-3);
    }
}
