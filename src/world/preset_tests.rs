//! Every cloth preset (`particles::presets`) on a small grid cloth: it weighs its areal
//! density times its area, and a second of steps hanging from two corners stays finite with
//! no recovery, sagging between the corners.

use crate::cloth::{GridPins, GridSpec};
use crate::math::{Quat, Vec3};
use crate::particles::{Material, MaterialPreset, PresetBody};
use crate::world::{World, WorldSettings};

#[test]
fn every_cloth_preset_steps_finitely_on_a_grid() {
    let mut w = World::new(WorldSettings { thread_count: 1, ..WorldSettings::default() }).unwrap();
    w.sequential = true;
    let mut ids = Vec::new();
    for (k, p) in MaterialPreset::ALL.into_iter().filter(|p| p.body() == PresetBody::Cloth).enumerate() {
        let m = Material::preset(p);
        // 0.5 m × 0.5 m at 5 cm, upright, 1 m apart.
        let spec = GridSpec {
            columns: 11,
            rows: 11,
            spacing: 0.05,
            origin: Vec3::new(k as f32, 1.5, 0.0),
            orientation: Quat::from_rotation_x(std::f32::consts::FRAC_PI_2),
            pins: GridPins::TopCorners,
            material: m,
        };
        let id = w.create_grid(&spec).unwrap();
        let mass = w.bodies.get(id.0, id.1).unwrap().total_mass();
        assert!((mass - 0.25 * m.density).abs() <= 1e-5 * m.density, "{}: {mass} kg", p.name());
        ids.push((p, id));
    }
    for _ in 0..60 {
        w.step(1.0 / 60.0).unwrap();
    }
    for (p, id) in ids {
        let b = w.bodies.get(id.0, id.1).unwrap();
        assert_eq!(b.recoveries, 0, "{} was recovered", p.name());
        assert!(b.positions().iter().all(|x| x.is_finite()), "{} is not finite", p.name());
        // It sagged between its two pinned corners: its mean height fell below the start's 1.5 m.
        let mean = b.positions().iter().map(|x| x.y).sum::<f32>() / b.positions().len() as f32;
        assert!(mean < 1.5 - 1e-3, "{}: mean height {mean} m", p.name());
    }
}
