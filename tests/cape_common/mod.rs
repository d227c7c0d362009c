//! A cape on a humanoid ragdoll, for the tests of cloth on ragdolls: an 8 × 10 grid 5 cm
//! apart hanging in the XY plane 0.14 m behind the spine from 2 cm below the arms, its top row
//! pinned to the middle spine, colliding with the ragdoll's bones.

#![allow(dead_code)]

use sinew::cloth::{GridPins, GridSpec};
use sinew::math::{Quat, Vec3};
use sinew::particles::settings::Material;
use sinew::ragdoll::RagdollDesc;
use sinew::ragdoll::humanoid::{HumanoidBones, bone};
use sinew::world::World;

pub const COLUMNS: u32 = 8;
pub const ROWS: u32 = 10;
pub const SPACING: f32 = 0.05;
pub const THICKNESS: f32 = 0.01;

pub struct Cape {
    pub body: (usize, u32),
    /// The pinned vertices (the top row) and their offsets in the middle spine's bone frame.
    pub pinned: Vec<u32>,
    pub offsets: Vec<Vec3>,
}

/// Dresses ragdoll `ragdoll` (built from `desc`, the template of `h`) in a cape.
pub fn wear_cape(w: &mut World, h: &HumanoidBones, desc: &RagdollDesc, ragdoll: (usize, u32)) -> Cape {
    let top = h.left_arm.y - 0.02;
    let spec = GridSpec {
        columns: COLUMNS,
        rows: ROWS,
        spacing: SPACING,
        origin: Vec3::new(0.0, top - 0.5 * SPACING * (ROWS - 1) as f32, -0.14),
        // Local XZ plane turned so that +Z (rows) points down.
        orientation: Quat::from_rotation_x(std::f32::consts::FRAC_PI_2),
        pins: GridPins::None,
        material: Material { thickness: THICKNESS, ..Material::default() },
    };
    let body = w.create_grid(&spec).unwrap();
    let spine = desc.bones[bone::MIDDLE_SPINE].bind;
    let mut x = vec![Vec3::ZERO; (COLUMNS * ROWS) as usize];
    w.bodies.get(body.0, body.1).unwrap().read_positions(1.0, &mut x);
    let pinned: Vec<u32> = (0..COLUMNS).filter(|&c| (x[c as usize].y - top).abs() < 1e-4).collect();
    assert_eq!(pinned.len(), COLUMNS as usize, "the grid's row 0 is its top edge");
    let offsets: Vec<Vec3> = pinned.iter().map(|&v| spine.to_local(x[v as usize])).collect();
    let bones = vec![bone::MIDDLE_SPINE as u32; pinned.len()];
    w.attach_pins_to_ragdoll(body, ragdoll, &pinned, &bones, &offsets).unwrap();
    w.set_ragdoll_collision(body, ragdoll, true).unwrap();
    Cape { body, pinned, offsets }
}
