//! S4 in rapier3d (feature `rapier`), built from the same [`RagdollDesc`]s as Sinew's:
//!
//! - one dynamic body per bone at its bind pose, with one collider: `ball`, `capsule_y` (a
//!   tapered capsule takes the mean of its radii; the template's are not tapered) or
//!   `cuboid`, placed by the bone's shape offset and rotation; mass as given (or density ×
//!   volume), inertia from the shape (rapier's `ColliderBuilder::mass`); friction 0.6,
//!   restitution 0 (Sinew's defaults; the plane has the same, so any combine rule gives 0.6);
//!   linear and angular damping as the ragdoll's settings give them, 0.05 by default (rapier's damping removes h·c/(1 + h·c) of the velocity
//!   per step, about Sinew's fraction c per second);
//! - one impulse joint per non-`Free` bone, parent as body 1, child as body 2, frames as
//!   [`measure::frames`] computes them (X the axis, Y the swing axis): fixed → all six axes
//!   locked; hinge → `LOCKED_REVOLUTE_AXES` with `AngX` limited to [−max, −min] (rapier's
//!   angle is the turn about the axis, Unity's and `RagdollDesc`'s its opposite); swing-twist →
//!   `LOCKED_SPHERICAL_AXES` with `AngX` limited to [−high_twist, −low_twist] and `AngY`, `AngZ`
//!   to ±swing1, ±swing2 (rapier's closest equivalent of a cone: per-axis limits; an axis
//!   whose limit is 0, Unity's `swing2Limit`, is locked instead). Contacts between a joint's
//!   two bodies off (Sinew's default), every other pair collides;
//! - a fixed half-space y ≤ 0;
//! - rapier's sleeping with its defaults (0.05 m/s, 0.5 rad/s, 0.5 s), by island.
//!
//! Solver effort: `default` is rapier's `IntegrationParameters::default()` (4 solver
//! iterations, i.e. substeps, of 1 PGS iteration each, at 1/60 s); `matched` sets
//! `num_solver_iterations` to Sinew's substep count (8), the same number of solver passes per
//! step as Sinew's 8 substeps × 1 iteration.

use rapier3d::prelude::*;
use sinew::geometry::Shape;
use sinew::math::{Quat, Vec3};
use sinew::ragdoll::{JointKind, RagdollDesc};

use super::Solver;
use super::measure::{self, Errors, Frames};
use super::scene::DT;

/// Sinew's default bone friction; the plane gets the same.
pub const FRICTION: f32 = 0.6;

fn v(a: Vec3) -> Vector {
    Vector::new(a.x, a.y, a.z)
}

fn q(a: Quat) -> Rotation {
    Rotation::from_xyzw(a.x, a.y, a.z, a.w)
}

fn pose(p: Vec3, r: Quat) -> Pose {
    Pose::from_parts(v(p), q(r))
}

pub struct RapierS4 {
    world: PhysicsWorld,
    bodies: Vec<Vec<RigidBodyHandle>>,
    joints: Vec<Vec<Frames>>,
    positions: Vec<Vec3>,
    rotations: Vec<Quat>,
}

impl RapierS4 {
    /// `iterations`: rapier's `num_solver_iterations` (None: its default).
    pub fn new(descs: &[RagdollDesc], iterations: Option<usize>) -> RapierS4 {
        let mut world = PhysicsWorld::default();
        world.gravity = Vector::new(0.0, -9.81, 0.0);
        world.integration_parameters.dt = DT;
        if let Some(n) = iterations {
            world.integration_parameters.num_solver_iterations = n;
        }
        world.insert(RigidBodyBuilder::fixed(), ColliderBuilder::new(SharedShape::halfspace(Vector::Y)).friction(FRICTION).restitution(0.0));
        let mut bodies = Vec::with_capacity(descs.len());
        for d in descs {
            assert!(d.settings.self_collision && !d.settings.collide_parent_child, "the peer mirrors Sinew's default bone-pair collision only");
            let mut handles = Vec::with_capacity(d.bones.len());
            for b in &d.bones {
                let shape = match b.shape {
                    Shape::Sphere { radius } => ColliderBuilder::ball(radius),
                    Shape::Capsule { half_height, radius0, radius1 } => ColliderBuilder::capsule_y(half_height, 0.5 * (radius0 + radius1)),
                    Shape::Box { half_extents: e } => ColliderBuilder::cuboid(e.x, e.y, e.z),
                    Shape::Plane => unreachable!("bones are never planes"),
                };
                let shape = if b.mass > 0.0 { shape.mass(b.mass) } else { shape.density(b.density) };
                let collider = shape.position(pose(b.shape_offset, b.shape_rotation)).friction(FRICTION).restitution(0.0);
                let body = RigidBodyBuilder::dynamic()
                    .pose(pose(b.bind.position, b.bind.rotation))
                    .linear_damping(d.settings.linear_damping)
                    .angular_damping(d.settings.angular_damping);
                handles.push(world.insert(body, collider).0);
            }
            for f in measure::frames(d) {
                let locked = match f.kind {
                    JointKind::Fixed => JointAxesMask::LOCKED_FIXED_AXES,
                    JointKind::Hinge { .. } => JointAxesMask::LOCKED_REVOLUTE_AXES,
                    JointKind::SwingTwist { swing1, swing2, .. } => {
                        let mut m = JointAxesMask::LOCKED_SPHERICAL_AXES;
                        if swing1 == 0.0 {
                            m |= JointAxesMask::ANG_Y;
                        }
                        if swing2 == 0.0 {
                            m |= JointAxesMask::ANG_Z;
                        }
                        m
                    }
                    JointKind::Free => continue,
                };
                let mut j = GenericJointBuilder::new(locked)
                    .local_frame1(pose(f.anchor_p, f.frame_p))
                    .local_frame2(pose(f.anchor_c, f.frame_c))
                    .contacts_enabled(false);
                match f.kind {
                    // Unity's sign (`RagdollDesc`): the angle θ is a turn by −θ about the
                    // axis; rapier's angle is the turn itself.
                    JointKind::Hinge { min, max } => j = j.limits(JointAxis::AngX, [-max.to_radians(), -min.to_radians()]),
                    JointKind::SwingTwist { swing1, swing2, low_twist, high_twist } => {
                        j = j.limits(JointAxis::AngX, [-high_twist.to_radians(), -low_twist.to_radians()]);
                        if swing1 > 0.0 {
                            j = j.limits(JointAxis::AngY, [-swing1.to_radians(), swing1.to_radians()]);
                        }
                        if swing2 > 0.0 {
                            j = j.limits(JointAxis::AngZ, [-swing2.to_radians(), swing2.to_radians()]);
                        }
                    }
                    _ => {}
                }
                world.impulse_joints.insert(handles[f.parent], handles[f.child], j.build(), true);
            }
            bodies.push(handles);
        }
        let most = descs.iter().map(|d| d.bones.len()).max().unwrap_or(0);
        RapierS4 { world, bodies, joints: descs.iter().map(measure::frames).collect(), positions: vec![Vec3::ZERO; most], rotations: vec![Quat::IDENTITY; most] }
    }
}

impl Solver for RapierS4 {
    fn step(&mut self) {
        self.world.step();
    }

    fn errors(&mut self) -> Errors {
        let mut e = Errors::default();
        for (handles, joints) in self.bodies.iter().zip(&self.joints) {
            for (i, &h) in handles.iter().enumerate() {
                let p = self.world.bodies[h].position();
                self.positions[i] = Vec3::new(p.translation.x, p.translation.y, p.translation.z);
                self.rotations[i] = Quat::from_xyzw(p.rotation.x, p.rotation.y, p.rotation.z, p.rotation.w);
            }
            let n = handles.len();
            e = e.max(measure::errors(joints, &self.positions[..n], &self.rotations[..n]));
        }
        e
    }

    fn all_asleep(&self) -> bool {
        self.bodies.iter().flatten().all(|&h| self.world.bodies[h].is_sleeping())
    }
}
