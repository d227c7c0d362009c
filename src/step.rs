//! What one fixed step of the world is, for every family of objects stepped in it (particle
//! bodies, ragdolls): the family-neutral layer below both (`particles::stages`, the one stage
//! driver, and `ragdoll`'s island substeps read it).

use crate::math::Vec3;
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

