//! One curtain material at two resolutions (docs/materials.md): two curtains 1 m wide and
//! 1.5 m tall, hung from their top rows side by side in one world, both cotton by the units
//! (`sinew_material_preset(SINEW_MATERIAL_COTTON)`: 0.15 kg/m², membrane 20000 N/m stretch
//! and 56 N/m shear, bending 1e-5 N·m) with geodesic tethers, one at 5 cm spacing (21 × 31
//! particles), one at 2.5 cm (41 × 61), in a steady 3 m/s wind for 4 s at the world's
//! defaults. Nothing but the spacing differs: they should weigh, hang and blow the same.
//!
//! Writes `DIR/units.png` (one panel, the coarse curtain on the left, its check squares 10 cm
//! at both spacings) and the scene's lines of the summary: each curtain's mass, how far it
//! hangs and how far the wind blows its bottom edge; the run fails if the two differ by more
//! than 5 % or a curtain was recovered.

use glam::Vec3;
use sinew::ffi::body::*;
use sinew::ffi::character::*;
use sinew::ffi::cloth::*;
use sinew::ffi::types::*;
use sinew::ffi::world::*;

use super::{Camera, Canvas, GroundMap, PANEL_H, PANEL_W, Res, SS, background, body_info, check, draw_sheet, read, read_indices, sv};

const FRAMES: u32 = 240;
const WIDTH: f32 = 1.0;
const HEIGHT: f32 = 1.5;
const ROD_Y: f32 = 1.8;
const GAP: f32 = 0.7;
const WIND: f32 = 1.5;
const SPACINGS: [f32; 2] = [0.05, 0.025];
const TINT: Vec3 = Vec3::new(0.80, 0.78, 0.70);

struct Curtain {
    spacing: f32,
    columns: usize,
    x: Vec<Vec3>,
    normals: Vec<Vec3>,
    tris: Vec<[usize; 3]>,
}

pub struct UnitsSnapshot {
    pub caption: String,
    curtains: Vec<Curtain>,
}

pub struct UnitsRun {
    pub snapshots: Vec<UnitsSnapshot>,
    pub summary: String,
}

pub fn simulate_units() -> Res<UnitsRun> {
    let mut wd = std::mem::MaybeUninit::<SinewWorldDesc>::uninit();
    check(sinew_world_desc_default(wd.as_mut_ptr()), "sinew_world_desc_default")?;
    let wd = unsafe { wd.assume_init() };
    let mut world = SinewWorld::default();
    check(sinew_world_create(&wd, &mut world), "sinew_world_create (units)")?;
    let mut wind = std::mem::MaybeUninit::<SinewWind>::uninit();
    check(sinew_wind_default(wind.as_mut_ptr()), "sinew_wind_default")?;
    let mut wind = unsafe { wind.assume_init() };
    wind.direction = sv(Vec3::Z);
    wind.speed = WIND;
    wind.turbulence = 0.0;
    wind.gust_strength = 0.0;
    check(sinew_world_set_wind(world, &wind), "sinew_world_set_wind")?;

    let mut material = std::mem::MaybeUninit::<SinewMaterial>::uninit();
    check(sinew_material_preset(SinewMaterialPreset::SINEW_MATERIAL_COTTON as u32, material.as_mut_ptr()), "sinew_material_preset")?;
    let material = unsafe { material.assume_init() };
    // The tethers let the cloth stretch as much as its weight stretches the material
    // (ρ g L / k, 0.01 %), no more: one pass per substep would otherwise leave the finer
    // curtain hanging longer than its material (docs/materials.md, "How many passes").
    let tether_scale = 1.0 + material.density * 9.81 * HEIGHT / material.stretch_stiffness;

    let mut bodies = Vec::new();
    for (k, spacing) in SPACINGS.into_iter().enumerate() {
        let mut gd = std::mem::MaybeUninit::<SinewClothGridDesc>::uninit();
        check(sinew_cloth_grid_desc_default(gd.as_mut_ptr()), "sinew_cloth_grid_desc_default")?;
        let mut gd = unsafe { gd.assume_init() };
        gd.columns = (WIDTH / spacing).round() as u32 + 1;
        gd.rows = (HEIGHT / spacing).round() as u32 + 1;
        gd.spacing = spacing;
        let side = if k == 0 { -GAP } else { GAP };
        gd.origin = sv(Vec3::new(side, ROD_Y - HEIGHT / 2.0, 0.0));
        // Rows along −Y: the grid's local XZ plane turned upright.
        let h = std::f32::consts::FRAC_1_SQRT_2;
        gd.orientation = SinewQuat { x: h, y: 0.0, z: 0.0, w: h };
        gd.pin_mode = SinewPinMode::SINEW_PIN_TOP_ROW as u32;
        gd.material = material;
        let mut cloth = SinewBody::default();
        check(sinew_cloth_create_grid(world, &gd, &mut cloth), "sinew_cloth_create_grid (units)")?;
        check(sinew_body_set_tethers(cloth, SinewTetherMode::SINEW_TETHER_GEODESIC as u32, tether_scale), "sinew_body_set_tethers")?;
        bodies.push((cloth, spacing, gd.columns as usize));
    }
    for _ in 0..FRAMES {
        check(sinew_world_step(world, super::DT), "sinew_world_step (units)")?;
    }

    let mut summary = format!(
        "curtain in units   : cotton (0.15 kg/m2, 20000 N/m, 1e-5 N m) {WIDTH} x {HEIGHT} m in a {WIND} m/s wind, {:.0} s, at {} and {} m spacing\n",
        FRAMES as f32 / 60.0,
        SPACINGS[0],
        SPACINGS[1]
    );
    let mut curtains = Vec::new();
    let mut figures = Vec::new();
    for (cloth, spacing, columns) in bodies {
        let x = read(cloth, false, "units curtain")?;
        let normals = read(cloth, true, "units curtain")?;
        let tris = read_indices(cloth)?;
        let info = body_info(cloth)?;
        if info.recoveries > 0 {
            return Err(format!("the {spacing} m curtain was rolled back {} times", info.recoveries));
        }
        let bottom = &x[x.len() - columns..];
        let mean = bottom.iter().fold(Vec3::ZERO, |a, p| a + *p) / columns as f32;
        let (hang, blown) = (ROD_Y - mean.y, mean.z);
        summary += &format!("  at {spacing:<6} m      : {:.3} kg, bottom edge {hang:.3} m below the rod, blown {blown:.3} m downwind\n", info.mass);
        figures.push((info.mass, hang, blown));
        curtains.push(Curtain { spacing, columns, x, normals, tris });
    }
    let apart = |a: f32, b: f32| (a - b).abs() / a.abs().max(b.abs());
    let (coarse, fine) = (figures[0], figures[1]);
    summary += &format!(
        "  apart            : mass {:.2} %, hang {:.2} %, wind {:.2} %\n",
        100.0 * apart(coarse.0, fine.0),
        100.0 * apart(coarse.1, fine.1),
        100.0 * apart(coarse.2, fine.2)
    );
    if apart(coarse.1, fine.1) > 0.05 || apart(coarse.2, fine.2) > 0.05 || apart(coarse.0, fine.0) > 1e-4 {
        return Err(format!("the two resolutions differ: {coarse:?} vs {fine:?} (mass, hang, wind)"));
    }
    check(sinew_world_destroy(world), "sinew_world_destroy (units)")?;
    let caption = format!("COTTON IN UNITS: {} CM | {} CM", SPACINGS[0] * 100.0, SPACINGS[1] * 100.0);
    Ok(UnitsRun { snapshots: vec![UnitsSnapshot { caption, curtains }], summary })
}

pub fn render_units_panel(s: &UnitsSnapshot) -> Vec<Vec3> {
    let (w, h) = (PANEL_W * SS, PANEL_H * SS);
    let cam = Camera::new(Vec3::new(0.0, 2.4, 3.4), Vec3::new(0.0, 1.0, 0.4), Vec3::new(0.5, 0.9, 0.6), w, h);
    let mut shadow = GroundMap::new((0.0, 0.5), 4.0, cam.light);
    for c in &s.curtains {
        for &[i, j, k] in &c.tris {
            shadow.triangle(c.x[i], c.x[j], c.x[k]);
        }
    }
    let shadow = shadow.blur();
    let mut canvas = Canvas::new(w, h);
    background(&cam, &shadow, &[], None, &mut canvas);
    for c in &s.curtains {
        let back = TINT * 0.8 + Vec3::splat(0.1);
        // Check squares 10 cm on a side at either spacing.
        draw_sheet(&cam, &c.x, &c.normals, &c.tris, 1.0, (c.columns, 0.1 / c.spacing), (TINT, back), &mut canvas);
    }
    canvas.downsample()
}
