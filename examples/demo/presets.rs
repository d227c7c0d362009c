//! The cloth presets side by side (docs/materials.md, "Presets"): five 0.5 m squares of cloth,
//! 21 × 21 particles 2.5 cm apart, one per preset (`sinew_material_preset`: silk, cotton,
//! denim, leather, a 1 mm rubber sheet), each dropped flat from 10 cm above a 0.12 m sphere and
//! left to drape over it for 3 s at the world's defaults (60 Hz, 8 substeps, 1 iteration).
//! Nothing but the material differs.
//!
//! Writes `DIR/presets.png` (one panel per preset, captioned with its areal density and bending
//! stiffness) and the scene's lines of the summary: each cloth's mass, how far its rim hangs
//! below the sphere's top (the drape), and its recoveries (none expected).

use glam::Vec3;
use sinew::ffi::body::*;
use sinew::ffi::cloth::*;
use sinew::ffi::collider::*;
use sinew::ffi::types::*;
use sinew::ffi::world::*;

use super::{CapsuleShape, Camera, Canvas, GroundMap, PANEL_H, PANEL_W, Paint, Res, SS, background, body_info, check, draw_capsule, draw_sheet, read, read_indices, sv};

const FRAMES: u32 = 180;
const N: u32 = 21;
const SPACING: f32 = 0.025;
const SPHERE_Y: f32 = 0.4;
const SPHERE_R: f32 = 0.12;
const DROP: f32 = 0.1;

const PRESETS: [(SinewMaterialPreset, &str, Vec3); 5] = [
    (SinewMaterialPreset::SINEW_MATERIAL_SILK, "SILK", Vec3::new(0.85, 0.75, 0.35)),
    (SinewMaterialPreset::SINEW_MATERIAL_COTTON, "COTTON", Vec3::new(0.85, 0.85, 0.82)),
    (SinewMaterialPreset::SINEW_MATERIAL_DENIM, "DENIM", Vec3::new(0.20, 0.30, 0.55)),
    (SinewMaterialPreset::SINEW_MATERIAL_LEATHER, "LEATHER", Vec3::new(0.45, 0.25, 0.12)),
    (SinewMaterialPreset::SINEW_MATERIAL_RUBBER_SHEET, "RUBBER SHEET", Vec3::new(0.15, 0.15, 0.16)),
];

pub struct PresetSnapshot {
    pub caption: String,
    cloth: Vec<Vec3>,
    normals: Vec<Vec3>,
    tris: Vec<[usize; 3]>,
    tint: Vec3,
}

pub struct PresetRun {
    pub snapshots: Vec<PresetSnapshot>,
    pub summary: String,
}

pub fn simulate_presets() -> Res<PresetRun> {
    let mut snapshots = Vec::new();
    let mut summary = format!(
        "cloth presets      : 0.5 m squares of {N}x{N} particles {SPACING} m apart dropped {DROP} m onto a {SPHERE_R} m sphere, {:.0} s at the world's defaults\n",
        FRAMES as f32 / 60.0
    );
    for (preset, name, tint) in PRESETS {
        let mut wd = std::mem::MaybeUninit::<SinewWorldDesc>::uninit();
        check(sinew_world_desc_default(wd.as_mut_ptr()), "sinew_world_desc_default")?;
        let wd = unsafe { wd.assume_init() };
        let mut world = SinewWorld::default();
        check(sinew_world_create(&wd, &mut world), "sinew_world_create (presets)")?;
        let mut cd = std::mem::MaybeUninit::<SinewColliderDesc>::uninit();
        check(sinew_collider_desc_default(cd.as_mut_ptr()), "sinew_collider_desc_default")?;
        let mut cd = unsafe { cd.assume_init() };
        cd.shape = SinewShape::SINEW_SHAPE_SPHERE as u32;
        cd.radius = SPHERE_R;
        cd.transform = SinewMat4 { m: glam::Mat4::from_translation(Vec3::new(0.0, SPHERE_Y, 0.0)).to_cols_array() };
        let mut sphere = SinewCollider::default();
        check(sinew_collider_create(world, &cd, &mut sphere), "sinew_collider_create (sphere)")?;
        cd.shape = SinewShape::SINEW_SHAPE_PLANE as u32;
        cd.transform = SinewMat4 { m: glam::Mat4::IDENTITY.to_cols_array() };
        let mut floor = SinewCollider::default();
        check(sinew_collider_create(world, &cd, &mut floor), "sinew_collider_create (floor)")?;

        let mut gd = std::mem::MaybeUninit::<SinewClothGridDesc>::uninit();
        check(sinew_cloth_grid_desc_default(gd.as_mut_ptr()), "sinew_cloth_grid_desc_default")?;
        let mut gd = unsafe { gd.assume_init() };
        gd.columns = N;
        gd.rows = N;
        gd.spacing = SPACING;
        gd.origin = sv(Vec3::new(0.0, SPHERE_Y + SPHERE_R + DROP, 0.0));
        gd.pin_mode = SinewPinMode::SINEW_PIN_NONE as u32;
        check(sinew_material_preset(preset as u32, &mut gd.material), "sinew_material_preset")?;
        let (density, bend) = (gd.material.density, gd.material.bend_stiffness);
        let mut cloth = SinewBody::default();
        check(sinew_cloth_create_grid(world, &gd, &mut cloth), "sinew_cloth_create_grid (preset)")?;
        for _ in 0..FRAMES {
            check(sinew_world_step(world, super::DT), "sinew_world_step (presets)")?;
        }
        let x = read(cloth, false, name)?;
        let normals = read(cloth, true, name)?;
        let tris = read_indices(cloth)?;
        let info = body_info(cloth)?;
        if info.recoveries > 0 {
            return Err(format!("{name}: the solver rolled back {} non-finite steps", info.recoveries));
        }
        let low = x.iter().map(|p| p.y).fold(f32::INFINITY, f32::min);
        summary += &format!(
            "  {:<13}    : {density} kg/m2, bend {bend:e} N m: {:.3} kg, lowest point {:.3} m below the sphere's top\n",
            name.to_lowercase(),
            info.mass,
            SPHERE_Y + SPHERE_R - low
        );
        snapshots.push(PresetSnapshot { caption: format!("{name} {density} KG/M2 {}", bend_label(bend)), cloth: x, normals, tris, tint });
        check(sinew_world_destroy(world), "sinew_world_destroy (presets)")?;
    }
    Ok(PresetRun { snapshots, summary })
}

/// "2E-6 N M" for 2e-6, "1.1E-4 N M" for 1.1e-4.
fn bend_label(b: f32) -> String {
    format!("{b:e} N M").to_uppercase()
}

pub fn render_preset_panel(s: &PresetSnapshot) -> Vec<Vec3> {
    let (w, h) = (PANEL_W * SS, PANEL_H * SS);
    let cam = Camera::new(Vec3::new(0.42, 0.62, 0.6), Vec3::new(0.0, 0.33, 0.0), Vec3::new(0.5, 0.9, 0.6), w, h);
    let mut shadow = GroundMap::new((0.0, 0.0), 2.0, cam.light);
    for &[i, j, k] in &s.tris {
        shadow.triangle(s.cloth[i], s.cloth[j], s.cloth[k]);
    }
    let shadow = shadow.blur();
    let mut canvas = Canvas::new(w, h);
    background(&cam, &shadow, &[], None, &mut canvas);
    let ball = CapsuleShape {
        c0: Vec3::new(0.0, SPHERE_Y, 0.0),
        c1: Vec3::new(0.0, SPHERE_Y, 0.0),
        r0: SPHERE_R,
        r1: SPHERE_R,
        frame: glam::Quat::IDENTITY,
        paint: Paint::Shirt,
    };
    draw_capsule(&cam, &ball, &mut canvas);
    let back = s.tint * 0.8 + Vec3::splat(0.1);
    draw_sheet(&cam, &s.cloth, &s.normals, &s.tris, 1.0, (N as usize, 2.0), (s.tint, back), &mut canvas);
    canvas.downsample()
}
