//! What one fixed step of the world is, for every family of objects stepped in it (particle
//! bodies, ragdolls): the family-neutral layer below both (`particles::stages`, the one stage
//! driver, and `ragdoll`'s island substeps read it).

use crate::error::{Error, Result, check_finite, check_position};
use crate::geometry::Pose;
use crate::math::{Quat, Vec3, is_finite3};
use crate::state::{Io, Mode, Pod};
use crate::solver::constraints::distance_simd::Kernel;

/// What one fixed step needs to know.
#[derive(Clone, Copy, Debug)]
pub struct StepParams {
    /// Substep length (s).
    pub h: f32,
    pub substeps: u32,
    pub iterations: u32,
    pub gravity: Vec3,
    /// Fraction of the frame's pin path (`Pins::start` → `Pins::end`) done at the start / end
    /// of this fixed step.
    pub pin_t0: f32,
    pub pin_t1: f32,
    /// Where this fixed step starts / ends on the path of the host's inputs (skinned pose,
    /// colliders): 0 at the last host frame that stepped, 1 at this frame, beyond 1 while
    /// simulated time runs ahead of host time (the inputs carried on at their velocity).
    pub pose_t0: f32,
    pub pose_t1: f32,
    /// Simulated time at the start of the step (s), for the wind field.
    pub time: f32,
    /// Kernel for independent constraint batches.
    pub kernel: Kernel,
    /// The world runs on more than one thread: a large body may split its own passes.
    pub parallel: bool,
    /// How the ragdolls' bones are solved (`ragdoll::RigidSolver`).
    pub rigid_solver: RigidSolver,
}

impl StepParams {
    /// The same step divided into `substeps` substeps.
    pub fn with_substeps(&self, substeps: u32) -> StepParams {
        let step = self.h * self.substeps as f32;
        StepParams { h: step / substeps as f32, substeps, ..*self }
    }

    /// Where the pins are on their frame's path at the end of substep `s`.
    pub fn pin_time(&self, s: u32) -> f32 {
        self.pin_t0 + (self.pin_t1 - self.pin_t0) * ((s + 1) as f32 / self.substeps as f32)
    }

    /// Where the host's inputs (the skinned pose) are at the end of substep `s`.
    pub fn pose_time(&self, s: u32) -> f32 {
        self.pose_t0 + (self.pose_t1 - self.pose_t0) * ((s + 1) as f32 / self.substeps as f32)
    }

    /// Start and end of substep `s` as fractions of the fixed step (for colliders' poses).
    pub fn substep_span(&self, s: u32) -> (f32, f32) {
        (s as f32 / self.substeps as f32, (s + 1) as f32 / self.substeps as f32)
    }
}

/// How the world steps its ragdolls (`ragdoll`'s module docs: *Two pipelines*).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum RigidSolver {
    /// Contacts found in every substep and swept to convergence, the joints' direct tree solve
    /// once per iteration and once more last, with the contacts' normals held.
    Precise,
    /// Contacts found once per fixed step, one Gauss–Seidel pass of the joints (or the tree
    /// solve, per ragdoll) and of the contacts per iteration, the joints' velocity pass,
    /// rolling resistance.
    #[default]
    Fast,
}


/// A rigid map `p ↦ rotation·(p − pivot) + pivot + shift`: how far an anchor carries what rides
/// in it over one host frame (or a share of that).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Carry {
    pub rotation: Quat,
    pub pivot: Vec3,
    pub shift: Vec3,
}

impl Carry {
    /// No motion.
    pub const NONE: Carry = Carry { rotation: Quat::IDENTITY, pivot: Vec3::ZERO, shift: Vec3::ZERO };

    /// The rigid motion that takes pose `from` onto pose `to` (`to ∘ from⁻¹`), about `from`'s origin.
    pub fn between(from: &Pose, to: &Pose) -> Carry {
        let mut rotation = (to.rotation * from.rotation.inverse()).normalize();
        if rotation.w < 0.0 {
            rotation = -rotation;
        }
        Carry { rotation, pivot: from.position, shift: to.position - from.position }
    }

    #[inline]
    pub fn point(&self, p: Vec3) -> Vec3 {
        self.rotation * (p - self.pivot) + self.pivot + self.shift
    }

    /// A pose carried: its position moved, its rotation turned.
    #[inline]
    pub fn pose(&self, p: &Pose) -> Pose {
        Pose { rotation: (self.rotation * p.rotation).normalize(), position: self.point(p.position), ..*p }
    }

    /// The share `u` in [0, 1] of this motion: the rotation slerped from none by `u` about the
    /// same pivot, the shift scaled by `u` (0: none, 1: all of it).
    pub fn share(&self, u: f32) -> Carry {
        if u >= 1.0 {
            return *self;
        }
        if u <= 0.0 {
            return Carry::NONE;
        }
        Carry { rotation: Quat::IDENTITY.slerp(self.rotation, u).normalize(), pivot: self.pivot, shift: self.shift * u }
    }

    pub fn is_none(&self) -> bool {
        self.rotation == Quat::IDENTITY && self.shift == Vec3::ZERO
    }

    /// How an input that moves with the anchor over the frame — a collider in the vehicle —
    /// looks at input fraction `t` (0: last frame, 1: this frame) to what was carried by this
    /// motion at the frame's start: its remaining share `1 − t` applied to it, so that a
    /// collider fixed in the anchor stays where the carried body found it.
    pub fn seen_at(&self, t: f32) -> Carry {
        self.share(1.0 - t)
    }

    /// The largest distance this motion moves a point within `radius` of `centre` (m), bounded
    /// from above: the shift plus the turn's chord at the farthest point from the pivot.
    pub fn reach(&self, centre: Vec3, radius: f32) -> f32 {
        let angle = 2.0 * self.rotation.xyz().length().min(1.0).asin();
        self.shift.length() + angle * ((centre - self.pivot).length() + radius)
    }
}

/// The largest `Anchor::inertia`: the anchor's motion felt in full (world physics).
pub const MAX_ANCHOR_INERTIA: f32 = 1.0;

/// A moving platform an object rides in — a vehicle, an elevator, a ship's deck (Magica Cloth
/// 2's "anchor"): the host moves its transform every frame, and the object feels its motion
/// only as much as `inertia` says. Each frame that steps, everything the object keeps (positions,
/// previous positions, velocities, its inputs' start points) is carried rigidly by the share
/// `1 − inertia` of the anchor's motion over the frame, at the frame's start (where the root's
/// motion is applied), and colliders are seen through the rest of that carry
/// ([`Carry::seen_at`]), so a collider moving with the anchor is still to an object with
/// inertia 0. In a vehicle accelerating at `a`, an object hanging from pins fixed in it
/// feels `inertia · a`: a cape hangs at `atan(inertia · a / g)` from the vertical.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Anchor {
    /// Where the anchor was when the object was last carried.
    pub from: Pose,
    /// Where the host has put it.
    pub to: Pose,
    /// The anchor's velocity over the last frame that carried (m/s); `None` before the first.
    pub velocity: Option<Vec3>,
    /// The share of the anchor's motion felt as world motion, in [0, 1]: 0 carries the object
    /// rigidly with the anchor (as if the vehicle stood still), 1 is plain world physics.
    pub inertia: f32,
    /// This frame's carry of the object (identity when none), through which its colliders are seen.
    pub carry: Carry,
}

/// What an anchor does to its object in one host frame ([`Anchor::begin_frame`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AnchorFrame {
    /// How the object is carried now.
    pub object: Carry,
    /// The anchor's whole motion (the root of a character riding in it is carried by this, so
    /// that its own inertia is taken relative to the anchor).
    pub whole: Carry,
    /// The anchor jumped beyond the teleport distance: carried whole, without a jolt.
    pub jump: bool,
    /// The anchor's velocity, first known this frame (m/s): a root's velocity becomes relative
    /// to it.
    pub first_velocity: Option<Vec3>,
}

impl Pod for Carry {
    fn io(&mut self, io: &mut impl Io) {
        io.val(&mut self.rotation);
        io.val(&mut self.pivot);
        io.val(&mut self.shift);
    }
}

impl Anchor {
    /// Walks the anchor an object holds in `slot` as snapshot state (`crate::state`): the
    /// host's last two poses, the anchor's velocity, the inertia and the frame's carry — what
    /// the next frame's carry is computed from, so that a loaded object rides on exactly as
    /// it did. Loading gives or takes the anchor as saved, like the root; an inertia outside
    /// [0, 1] is refused.
    pub(crate) fn state_io<I: Io>(slot: &mut Option<Anchor>, io: &mut I) {
        let held = io.flag(slot.is_some());
        let mut a = slot.unwrap_or(Anchor::new(Pose::IDENTITY, MAX_ANCHOR_INERTIA));
        if held {
            io.val(&mut a.from);
            io.val(&mut a.to);
            let moving = io.flag(a.velocity.is_some());
            let mut v = a.velocity.unwrap_or(Vec3::ZERO);
            if moving {
                io.val(&mut v);
            }
            let inertia = f32::from_bits(io.word(a.inertia.to_bits()));
            if !(0.0..=MAX_ANCHOR_INERTIA).contains(&inertia) {
                io.refuse(&|| format!("an anchor inertia of {inertia}"));
            }
            io.val(&mut a.carry);
            (a.velocity, a.inertia) = (moving.then_some(v), inertia);
        }
        if I::MODE == Mode::Load {
            *slot = held.then_some(a);
        }
    }

    /// Places the anchor an object holds in `slot` at `pose` with `inertia`, checked (the
    /// first call creates it without moving anything); returns whether the object must wake
    /// (a new anchor, or another inertia).
    pub fn place(slot: &mut Option<Anchor>, pose: Pose, inertia: f32) -> Result<bool> {
        Self::check(&pose, inertia)?;
        let wake = slot.as_ref().is_none_or(|a| a.inertia != inertia);
        match slot {
            Some(a) => a.set(pose, inertia),
            None => *slot = Some(Anchor::new(pose, inertia)),
        }
        Ok(wake)
    }

    /// Checks `inertia` (finite, within [0, 1]) and the pose (finite, rigid, within the world).
    pub fn check(pose: &Pose, inertia: f32) -> Result<()> {
        if !is_finite3(pose.position) || !pose.rotation.is_finite() || !pose.scale.is_finite() {
            return Err(Error::non_finite("anchor transform is not finite"));
        }
        check_position(pose.position, "anchor position")?;
        if (pose.scale - 1.0).abs() > 1e-3 || (pose.rotation.length() - 1.0).abs() > 1e-3 {
            return Err(Error::invalid(format!("anchor transform must be rigid (a unit rotation, scale 1; got scale {})", pose.scale)));
        }
        check_finite(inertia, "anchor inertia")?;
        if !(0.0..=MAX_ANCHOR_INERTIA).contains(&inertia) {
            return Err(Error::invalid(format!("anchor inertia must be within [0, 1] (got {inertia})")));
        }
        Ok(())
    }

    /// A new anchor at `pose`, not moving yet.
    pub fn new(pose: Pose, inertia: f32) -> Anchor {
        let pose = Pose { rotation: pose.rotation.normalize(), scale: 1.0, ..pose };
        Anchor { from: pose, to: pose, velocity: None, inertia, carry: Carry::NONE }
    }

    /// Where the anchor is at the end of the next frame, and its inertia.
    pub fn set(&mut self, pose: Pose, inertia: f32) {
        self.to = Pose { rotation: pose.rotation.normalize(), scale: 1.0, ..pose };
        self.inertia = inertia;
    }

    /// The anchor's motion since the object was last carried, to apply at the start of a host
    /// frame: in a frame that steps (`frame_time` of fixed steps), the share `1 − inertia`;
    /// in any frame, a jump farther than `teleport_distance` (m, 0: never) whole, less the
    /// share of its ongoing motion the object feels by its own velocity (`inertia ×` its
    /// velocity × `elapsed`, the host time since the last frame that stepped), so a teleport
    /// moves the object without a jolt. `None` when nothing moves the object this frame.
    pub fn begin_frame(&mut self, teleport_distance: f32, frame_time: f32, elapsed: f32, stepping: bool) -> Option<AnchorFrame> {
        self.carry = Carry::NONE;
        let whole = Carry::between(&self.from, &self.to);
        let jump = teleport_distance > 0.0 && whole.shift.length() > teleport_distance;
        if !jump && !stepping {
            return None;
        }
        let mut first_velocity = None;
        let object = if jump {
            let ongoing = self.velocity.unwrap_or(Vec3::ZERO) * (self.inertia * elapsed);
            Carry { shift: whole.shift - ongoing, ..whole }
        } else {
            let velocity = if frame_time > 0.0 { whole.shift / frame_time } else { Vec3::ZERO };
            if self.velocity.is_none() {
                first_velocity = Some(velocity);
            }
            self.velocity = Some(velocity);
            let carry = whole.share(1.0 - self.inertia);
            self.carry = carry;
            carry
        };
        self.from = self.to;
        Some(AnchorFrame { object, whole, jump, first_velocity })
    }
}
