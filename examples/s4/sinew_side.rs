//! S4 in Sinew: one world at 60 Hz with its default substeps and iterations (8 × 1), the
//! ragdolls as created from their descriptions (default settings: stabilised masses,
//! self-collision, friction 0.6, no restitution, damping 0.05/s, sleeping after 0.5 s below
//! 0.02 m/s), and a plane collider at y = 0.

use sinew::collider::Collider;
use sinew::geometry::{Pose, Shape};
use sinew::math::{Quat, Vec3};
use sinew::ragdoll::RagdollDesc;
use sinew::world::{World, WorldSettings};

use super::measure::{self, Errors, Frames};
use super::scene::DT;
use super::{Round, Solver};

pub struct SinewS4 {
    world: World,
    ragdolls: Vec<(usize, u32)>,
    joints: Vec<Vec<Frames>>,
    positions: Vec<Vec3>,
    rotations: Vec<Quat>,
}

/// World settings of S4: the defaults, 60 Hz, readback not interpolated (each step is one
/// 1/60 s frame).
pub fn settings() -> WorldSettings {
    WorldSettings { fixed_rate_hz: 60.0, interpolate: false, ..WorldSettings::default() }
}

impl SinewS4 {
    pub fn new(descs: &[RagdollDesc]) -> SinewS4 {
        let mut world = World::new(settings()).expect("valid world settings");
        let ground = Pose { rotation: Quat::IDENTITY, position: Vec3::ZERO, scale: 1.0 };
        world.add_collider(Collider::new(Shape::Plane, u32::MAX, ground).expect("plane")).expect("collider");
        let ragdolls = descs.iter().map(|d| world.create_ragdoll(d).expect("valid ragdoll")).collect();
        let most = descs.iter().map(|d| d.bones.len()).max().unwrap_or(0);
        SinewS4 { world, ragdolls, joints: descs.iter().map(measure::frames).collect(), positions: vec![Vec3::ZERO; most], rotations: vec![Quat::IDENTITY; most] }
    }
}

impl SinewS4 {
    /// S4 stepped by the given ragdoll pipeline.
    pub fn with_solver(descs: &[RagdollDesc], solver: sinew::ragdoll::RigidSolver) -> SinewS4 {
        let mut s = SinewS4::new(descs);
        s.world.settings.rigid_solver = solver;
        s
    }

    /// S4 with every ragdoll powered: muscles at strength 1 towards the bind pose (the
    /// targets as created), pins off — what a powered ragdoll adds to a plain one's step.
    pub fn new_powered(descs: &[RagdollDesc]) -> SinewS4 {
        let mut s = SinewS4::new(descs);
        for &(slot, serial) in &s.ragdolls {
            s.world.ragdolls.get_mut(slot, serial).expect("ragdoll").set_muscle_strength(None, 1.0).expect("strength");
        }
        s
    }
}

#[allow(dead_code)] // used by examples/s4_profile.rs, not by the bench
impl SinewS4 {
    /// How many ragdolls sleep now.
    pub fn asleep_count(&self) -> usize {
        self.ragdolls.iter().filter(|&&(slot, serial)| self.world.ragdolls.get(slot, serial).expect("ragdoll").is_asleep()).count()
    }

    /// A hash (FNV-1a) of every bone's pose bits: two builds that give it equal computed
    /// the same run.
    pub fn pose_hash(&mut self) -> u64 {
        let mut h = 0xcbf29ce484222325u64;
        for &(slot, serial) in &self.ragdolls {
            let r = self.world.ragdolls.get(slot, serial).expect("ragdoll");
            let n = r.bone_count();
            r.read_pose(1.0, &mut self.positions[..n], &mut self.rotations[..n]).expect("read pose");
            let bits = self.positions[..n].iter().flat_map(|p| p.to_array()).chain(self.rotations[..n].iter().flat_map(|q| q.to_array()));
            for v in bits {
                for b in v.to_bits().to_le_bytes() {
                    h = (h ^ b as u64).wrapping_mul(0x100000001b3);
                }
            }
        }
        h
    }

    /// The fastest bone speed (m/s) of every ragdoll.
    pub fn fastest_bones(&self) -> Vec<f32> {
        self.ragdolls
            .iter()
            .map(|&(slot, serial)| {
                let r = self.world.ragdolls.get(slot, serial).expect("ragdoll");
                let n = r.bone_count();
                let (mut lin, mut ang) = (vec![Vec3::ZERO; n], vec![Vec3::ZERO; n]);
                r.read_velocities(&mut lin, &mut ang).expect("velocities");
                lin.iter().map(|v| v.length()).fold(0.0, f32::max)
            })
            .collect()
    }
}

impl Solver for SinewS4 {
    fn step(&mut self) {
        self.world.step(DT).expect("step");
    }

    fn errors(&mut self) -> Errors {
        let mut e = Errors::default();
        for (&(slot, serial), joints) in self.ragdolls.iter().zip(&self.joints) {
            let r = self.world.ragdolls.get(slot, serial).expect("ragdoll");
            let n = r.bone_count();
            r.read_pose(1.0, &mut self.positions[..n], &mut self.rotations[..n]).expect("read pose");
            e = e.max(measure::errors(joints, &self.positions[..n], &self.rotations[..n]));
        }
        e
    }

    fn all_asleep(&self) -> bool {
        self.ragdolls.iter().all(|&(slot, serial)| self.world.ragdolls.get(slot, serial).expect("ragdoll").is_asleep())
    }
}

/// Checks that the run took one fixed step per frame.
pub fn check(round: &Round, s: &SinewS4) {
    assert_eq!(s.world.stats().steps as usize, round.steps, "one fixed step per 1/60 s frame");
}
