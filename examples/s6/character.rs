//! One S6 character: the demo's capsule body (`examples/demo/main.rs`: its rig, parts and walk
//! cycle) walking round a circle in closed form, wearing a cape, a skirt and a ponytail.
//!
//! Everything is a function of time alone (no state carried from frame to frame), so a
//! character's inputs at frame k are the same in every run and at any thread count.

use std::f32::consts::{PI, TAU};

use sinew::cloth::generators::{CapeSpec, SkirtSpec};
use sinew::collider::Collider;
use sinew::geometry::{Pose, Shape};
use sinew::math::{Mat4, Quat, Vec3};
use sinew::particles::{Lod, Material};
use sinew::strands::StrandsSpec;
use sinew::world::World;

/// The walk: round a circle of this radius (m) about the character's grid point, at this
/// speed (m/s), counter-clockwise seen from above.
pub const CIRCLE_RADIUS: f32 = 0.5;
pub const WALK_SPEED: f32 = 1.0;
/// Seconds from standing to the walk's speed.
pub const RAMP: f32 = 1.0;

pub const CAPE_COLUMNS: u32 = 14;
pub const CAPE_ROWS: u32 = 20;
pub const SKIRT_COLUMNS: u32 = 24;
pub const SKIRT_ROWS: u32 = 10;
pub const HAIR_STRANDS: usize = 64;
pub const HAIR_PER_STRAND: usize = 12;

/// Where the character is and how it moves at one instant (the demo's `Motion`, walking only).
#[derive(Clone, Copy, Debug)]
pub struct Motion {
    pub position: Vec3,
    pub yaw: f32,
    /// Gait cycle angle (rad): the left leg is forward at π/2.
    pub phase: f32,
    /// How much of a gait there is (0 standing, 1 walking).
    pub gait: f32,
    /// Torso pitch forward (rad).
    pub lean: f32,
}

impl Motion {
    /// Character `index` at time `t` (s): on its circle about `centre`, each character starting
    /// at its own angle and gait phase (index · 2π·0.382, the golden angle, so no two march
    /// in step). It starts standing and reaches its walk over the first `RAMP` seconds
    /// (speed `WALK_SPEED · smoothstep(t / RAMP)`), as a character starts to walk: a cape
    /// made hanging from a standing body is not swept through by legs already mid-stride.
    pub fn at(centre: Vec3, index: usize, t: f32) -> Motion {
        let offset = index as f32 * TAU * 0.381_966;
        let u = (t / RAMP).clamp(0.0, 1.0);
        let ramp = u * u * (3.0 - 2.0 * u);
        // Distance walked: the integral of the speed, RAMP·(u³ − u⁴/2) over the ramp.
        let walked = WALK_SPEED * (RAMP * (u * u * u - 0.5 * u * u * u * u) + (t - RAMP).max(0.0));
        let angle = offset + walked / CIRCLE_RADIUS;
        let position = centre + Vec3::new(angle.cos(), 0.0, angle.sin()) * CIRCLE_RADIUS;
        // Counter-clockwise: heading along (−sin, 0, cos); the character faces +Z at yaw 0.
        let yaw = (-angle.sin()).atan2(angle.cos());
        // The demo's cadence, 0.75 + 0.14·speed strides per second, at the walk's speed.
        let phase = offset + TAU * (0.75 + 0.14 * WALK_SPEED) * t;
        let gait = (WALK_SPEED * ramp / 1.2).clamp(0.0, 1.0);
        Motion { position, yaw, phase, gait, lean: 0.04 * gait }
    }

    pub fn root(&self) -> Mat4 {
        Mat4::from_rotation_translation(Quat::from_rotation_y(self.yaw), self.position)
    }
}

/// Bone frames (rigid, world space); index 0 of a pair is the left side (+X in the
/// character's frame: it faces +Z with +Y up).
#[derive(Clone, Copy, Debug)]
pub struct Rig {
    pub pelvis: Mat4,
    pub chest: Mat4,
    pub neck: Mat4,
    pub head: Mat4,
    /// The shoulder joints without the arm's swing: the cape's shoulder bones.
    pub shoulder: [Mat4; 2],
    pub upper_arm: [Mat4; 2],
    pub forearm: [Mat4; 2],
    pub thigh: [Mat4; 2],
    pub shin: [Mat4; 2],
    pub foot: [Mat4; 2],
}

const HIP_HEIGHT: f32 = 0.97;
const THIGH: f32 = 0.44;
const SHIN: f32 = 0.44;
const UPPER_ARM: f32 = 0.28;
const FOREARM: f32 = 0.26;

fn tr(x: f32, y: f32, z: f32) -> Mat4 {
    Mat4::from_translation(Vec3::new(x, y, z))
}

fn rx(a: f32) -> Mat4 {
    Mat4::from_rotation_x(a)
}

/// The demo's `rig` at walking pace (its `run` share 0), with the pelvis kept for the skirt.
pub fn rig(m: &Motion) -> Rig {
    let (a, phi) = (m.gait, m.phase);
    let bob = a * 0.012 * (2.0 * phi).cos();
    let pelvis = m.root() * tr(0.0, HIP_HEIGHT + bob, 0.0) * Mat4::from_rotation_y(0.1 * a * phi.sin());
    let chest = pelvis * rx(m.lean) * Mat4::from_rotation_y(-0.16 * a * phi.sin());
    let neck = chest * tr(0.0, 0.47, 0.0);
    let head = neck * rx(-0.6 * m.lean) * tr(0.0, 0.1, 0.0) * rx(-0.2 * m.lean);
    let mut rig = Rig { pelvis, chest, neck, head, shoulder: [Mat4::IDENTITY; 2], upper_arm: [Mat4::IDENTITY; 2], forearm: [Mat4::IDENTITY; 2], thigh: [Mat4::IDENTITY; 2], shin: [Mat4::IDENTITY; 2], foot: [Mat4::IDENTITY; 2] };
    for s in 0..2 {
        let side = if s == 0 { 1.0 } else { -1.0 };
        let ph = phi + s as f32 * PI;
        let swing = 0.42 * a * ph.sin();
        let knee = a * (0.08 + 0.55 * ph.cos().max(0.0).powf(1.5));
        rig.thigh[s] = pelvis * tr(side * 0.1, -0.03, 0.0) * rx(-swing) * Mat4::from_rotation_z(side * 0.03);
        rig.shin[s] = rig.thigh[s] * tr(0.0, -THIGH, 0.0) * rx(knee);
        rig.foot[s] = rig.shin[s] * tr(0.0, -SHIN, 0.0) * rx(0.7 * (swing - knee - m.lean));
        rig.shoulder[s] = chest * tr(side * 0.2, 0.43, 0.0);
        let arm = 0.3 * a * ph.sin();
        rig.upper_arm[s] = rig.shoulder[s] * rx(arm) * Mat4::from_rotation_z(side * 0.07);
        rig.forearm[s] = rig.upper_arm[s] * tr(0.0, -UPPER_ARM, 0.0) * rx(-(0.12 + 0.15 * a));
    }
    // Plant the lower foot on the ground: the whole skeleton moves up or down to meet it.
    let lowest = FEET
        .iter()
        .map(|p| {
            let (c0, c1) = p.ends(&rig);
            (c0.y - p.r0).min(c1.y - p.r1)
        })
        .fold(f32::INFINITY, f32::min);
    let lift = Mat4::from_translation(Vec3::new(0.0, m.position.y - lowest, 0.0));
    for f in [&mut rig.pelvis, &mut rig.chest, &mut rig.neck, &mut rig.head] {
        *f = lift * *f;
    }
    for pair in [&mut rig.shoulder, &mut rig.upper_arm, &mut rig.forearm, &mut rig.thigh, &mut rig.shin, &mut rig.foot] {
        pair.iter_mut().for_each(|f| *f = lift * *f);
    }
    rig
}

#[derive(Clone, Copy, Debug)]
pub enum Bone {
    Chest,
    Neck,
    Head,
    UpperArm(usize),
    Forearm(usize),
    Thigh(usize),
    Shin(usize),
    Foot(usize),
}

impl Rig {
    fn frame(&self, b: Bone) -> Mat4 {
        match b {
            Bone::Chest => self.chest,
            Bone::Neck => self.neck,
            Bone::Head => self.head,
            Bone::UpperArm(s) => self.upper_arm[s],
            Bone::Forearm(s) => self.forearm[s],
            Bone::Thigh(s) => self.thigh[s],
            Bone::Shin(s) => self.shin[s],
            Bone::Foot(s) => self.foot[s],
        }
    }
}

/// A tapered capsule on a bone: along the bone's Y axis (its Z axis when `along_z`), centred
/// at `centre` in the bone's frame; `r0` at the −Y end, `r1` at +Y.
#[derive(Clone, Copy, Debug)]
pub struct Part {
    bone: Bone,
    centre: Vec3,
    along_z: bool,
    half_height: f32,
    r0: f32,
    r1: f32,
}

impl Part {
    const fn on(bone: Bone, centre: Vec3, half_height: f32, r0: f32, r1: f32) -> Part {
        Part { bone, centre, along_z: false, half_height, r0, r1 }
    }

    /// The collider's transform (rigid): the shape's local Y axis along the capsule.
    fn transform(&self, rig: &Rig) -> Mat4 {
        let axis = if self.along_z { rx(PI / 2.0) } else { Mat4::IDENTITY };
        rig.frame(self.bone) * Mat4::from_translation(self.centre) * axis
    }

    fn ends(&self, rig: &Rig) -> (Vec3, Vec3) {
        let m = self.transform(rig);
        (m.transform_point3(Vec3::new(0.0, -self.half_height, 0.0)), m.transform_point3(Vec3::new(0.0, self.half_height, 0.0)))
    }

    fn shape(&self) -> Shape {
        Shape::Capsule { half_height: self.half_height, radius0: self.r0, radius1: self.r1 }
    }
}

const FEET: [Part; 2] = [
    Part { along_z: true, ..Part::on(Bone::Foot(0), Vec3::new(0.0, -0.015, 0.055), 0.065, 0.042, 0.046) },
    Part { along_z: true, ..Part::on(Bone::Foot(1), Vec3::new(0.0, -0.015, 0.055), 0.065, 0.042, 0.046) },
];

/// A side's arm and leg (0 left, 1 right).
const fn limb_parts(s: usize) -> [Part; 4] {
    use Bone::*;
    [
        Part::on(UpperArm(s), Vec3::new(0.0, -UPPER_ARM / 2.0, 0.0), UPPER_ARM / 2.0, 0.043, 0.055),
        Part::on(Forearm(s), Vec3::new(0.0, -FOREARM / 2.0, 0.0), FOREARM / 2.0, 0.034, 0.042),
        Part::on(Thigh(s), Vec3::new(0.0, -THIGH / 2.0, 0.0), THIGH / 2.0, 0.056, 0.08),
        Part::on(Shin(s), Vec3::new(0.0, -SHIN / 2.0, 0.0), SHIN / 2.0, 0.043, 0.056),
    ]
}

/// The demo's 13 body parts, each a tapered capsule collider.
pub const PARTS: [Part; 13] = {
    use Bone::*;
    let [l0, l1, l2, l3] = limb_parts(0);
    let [r0, r1, r2, r3] = limb_parts(1);
    [
        Part::on(Chest, Vec3::new(0.0, 0.19, 0.0), 0.15, 0.12, 0.14),
        Part::on(Neck, Vec3::new(0.0, 0.02, 0.0), 0.04, 0.05, 0.045),
        Part::on(Head, Vec3::new(0.0, 0.1, 0.01), 0.025, 0.09, 0.1),
        l0, l1, l2, l3, r0, r1, r2, r3, FEET[0], FEET[1],
    ]
};

/// Where the ponytail is tied, in the head bone's frame.
const HAIR_TIE: Vec3 = Vec3::new(0.0, 0.165, -0.085);

/// The demo's ponytail in the head bone's frame: strands from a small disc at the tie, leaving
/// backwards and a little up, curving down and fanning out.
fn ponytail_local() -> Vec<Vec3> {
    let mut pts = Vec::with_capacity(HAIR_STRANDS * HAIR_PER_STRAND);
    let segment = 0.026;
    let golden = PI * (3.0 - 5f32.sqrt());
    for s in 0..HAIR_STRANDS {
        let rr = 0.022 * ((s as f32 + 0.5) / HAIR_STRANDS as f32).sqrt();
        let (sn, cs) = (s as f32 * golden).sin_cos();
        let (dx, dy) = (rr * cs, rr * sn);
        let mut p = HAIR_TIE + Vec3::new(dx, dy, 0.0);
        for i in 0..HAIR_PER_STRAND {
            pts.push(p);
            let u = i as f32 / (HAIR_PER_STRAND - 1) as f32;
            let beta = 0.44 - (0.44 + PI / 2.0) * u.powf(0.8);
            let spread = Vec3::new(dx, dy * 0.5, 0.0) * 1.6;
            p += (Vec3::new(0.0, beta.sin(), -beta.cos()) * segment) + spread * (segment / 0.1);
        }
    }
    pts
}

/// The hair material the C ABI's `sinew_strands_desc_default` gives (the Rust API has none of
/// its own): 1 g per particle, 5 mm thick, rigid bend, damping 1 /s.
fn strand_material() -> Material {
    Material { particle_mass: 0.001, thickness: 0.005, bend_compliance: 0.0, damping: 1.0, ..Material::default() }
}

/// Max distance from the skinned pose of a cloth vertex `f` of the way down (0 at the pinned
/// top row): `top + (bottom − top)·f`.
fn max_distances(columns: u32, rows: u32, top: f32, bottom: f32) -> Vec<f32> {
    (0..rows).flat_map(|r| (0..columns).map(move |_| top + (bottom - top) * r as f32 / (rows - 1) as f32)).collect()
}

pub type Id = (usize, u32);

/// A character's objects in the world.
pub struct Character {
    pub centre: Vec3,
    pub index: usize,
    pub colliders: [Id; 13],
    pub cape: Id,
    pub skirt: Id,
    pub hair: Id,
}

impl Character {
    /// Adds character `index` walking about `centre` to `world`, posed as at time 0.
    pub fn new(world: &mut World, centre: Vec3, index: usize, lod: Option<Lod>) -> Character {
        let rig0 = rig(&Motion::at(centre, index, 0.0));
        let colliders = PARTS.map(|p| {
            let pose = Pose::from_matrix(&p.transform(&rig0)).expect("rigid part transform");
            world.add_collider(Collider::new(p.shape(), 1, pose).expect("valid capsule")).expect("collider slot")
        });
        let cape = world
            .create_cape(&CapeSpec { columns: CAPE_COLUMNS, rows: CAPE_ROWS, width: 0.52, length: 0.95, back_offset: 0.16, bones: [rig0.shoulder[0], rig0.neck, rig0.shoulder[1]], material: Material::default() })
            .expect("cape");
        let skirt = world
            .create_skirt(&SkirtSpec { columns: SKIRT_COLUMNS, rows: SKIRT_ROWS, radius_top: 0.19, radius_bottom: 0.32, length: 0.45, waist: rig0.pelvis, material: Material::default() })
            .expect("skirt");
        let points: Vec<Vec3> = ponytail_local().iter().map(|p| rig0.head.transform_point3(*p)).collect();
        let hair = world.create_strands(&StrandsSpec { points: &points, particles_per_strand: HAIR_PER_STRAND, head: rig0.head, material: strand_material() }).expect("ponytail");
        fn body(world: &mut World, id: Id) -> &mut sinew::particles::Body {
            world.bodies.get_mut(id.0, id.1).expect("just made")
        }
        // The generators pin the top row and tether the rest; the hem may stray further from
        // the skinned pose than the collar.
        body(world, cape).set_max_distances(&max_distances(CAPE_COLUMNS, CAPE_ROWS, 0.02, 0.5)).expect("cape max distances");
        body(world, skirt).set_max_distances(&max_distances(SKIRT_COLUMNS, SKIRT_ROWS, 0.01, 0.2)).expect("skirt max distances");
        for id in [cape, skirt, hair] {
            let b = body(world, id);
            b.set_root(Pose::from_matrix(&Motion::at(centre, index, 0.0).root()).expect("rigid root"));
            if let Some(l) = lod {
                b.set_lod(l).expect("valid LOD");
            }
        }
        Character { centre, index, colliders, cape, skirt, hair }
    }

    /// The host's frame at time `t`: colliders, roots and bones where they are at its end.
    pub fn drive(&self, world: &mut World, t: f32) {
        let m = Motion::at(self.centre, self.index, t);
        let r = rig(&m);
        for (part, &(slot, serial)) in PARTS.iter().zip(&self.colliders) {
            let pose = Pose::from_matrix(&part.transform(&r)).expect("rigid part transform");
            world.colliders.get_mut(slot, serial).expect("collider").set_target(pose).expect("a capsule sweeps");
        }
        let root = Pose::from_matrix(&m.root()).expect("rigid root");
        let bones: [&[Mat4]; 3] = [&[r.shoulder[0], r.neck, r.shoulder[1]], &[r.pelvis], &[r.head]];
        for (id, bones) in [self.cape, self.skirt, self.hair].into_iter().zip(bones) {
            let b = world.bodies.get_mut(id.0, id.1).expect("body");
            b.set_root(root);
            b.set_bone_matrices(bones).expect("bone matrices");
        }
    }
}
