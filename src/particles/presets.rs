//! Material presets in physical units: one table that the C ABI (`sinew_material_preset`),
//! the C++ and C# wrappers and the Unity package all read, so a "denim" is the same denim
//! everywhere. docs/materials.md shows the table and how each host uses it.
//!
//! Every value is in the unit of its [`Material`] field: `density` in kg/m² for the fabrics,
//! kg/m for the rope and hair, kg/m³ for the solids; `bend_stiffness` in N·m;
//! `stretch_stiffness` and `shear_stiffness` in N/m; `youngs_modulus` in Pa. The fields a
//! preset does not name keep [`Material::default`]'s values (the compliances, the particle
//! mass that weighs particles with no share, the collision mask, self-collision off).
//!
//! Conversions used in the comments below: Kawabata's (KES-F) bending rigidity B,
//! 1 gf·cm²/cm = 9.807e-5 N·m; its shear rigidity G, 1 gf/(cm·degree) = 56.2 N/m per radian;
//! a plate's bending stiffness D = E t³ / (12 (1 − ν²)); a sheet's membrane stiffness E·t.

use crate::particles::settings::Material;

/// A material preset (`SinewMaterialPreset` in C, with the same values in the same order).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u32)]
pub enum MaterialPreset {
    /// Light silk (habotai, charmeuse): a cloth.
    Silk = 0,
    /// Cotton shirting: a cloth.
    Cotton = 1,
    /// Denim (about 12 oz): a cloth.
    Denim = 2,
    /// Garment leather, about 1.2 mm: a cloth.
    Leather = 3,
    /// A 1 mm sheet of soft rubber: a cloth.
    RubberSheet = 4,
    /// A 10 mm rope: a rope.
    Rope = 5,
    /// Hair, one simulated strand standing for a bundle about 1 mm across: strands.
    Hair = 6,
    /// Gelatin jelly: a soft body.
    Jelly = 7,
    /// Soft rubber: a soft body.
    Rubber = 8,
    /// Soft tissue (fat and relaxed muscle): a soft body.
    Flesh = 9,
}

/// What a preset's `density` is per: the kind of body it is meant for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PresetBody {
    /// Cloth grids and meshes, capes, skirts, balloons: density in kg/m².
    Cloth,
    /// Ropes and strands: density in kg/m.
    Line,
    /// Soft bodies: density in kg/m³.
    Solid,
}

impl MaterialPreset {
    /// Every preset, in the order of their values.
    pub const ALL: [MaterialPreset; 10] = [
        MaterialPreset::Silk,
        MaterialPreset::Cotton,
        MaterialPreset::Denim,
        MaterialPreset::Leather,
        MaterialPreset::RubberSheet,
        MaterialPreset::Rope,
        MaterialPreset::Hair,
        MaterialPreset::Jelly,
        MaterialPreset::Rubber,
        MaterialPreset::Flesh,
    ];

    /// The preset of value `v`, or `None`.
    pub fn from_u32(v: u32) -> Option<MaterialPreset> {
        MaterialPreset::ALL.get(v as usize).copied()
    }

    /// Its name in lower case ("rubber sheet").
    pub fn name(self) -> &'static str {
        match self {
            MaterialPreset::Silk => "silk",
            MaterialPreset::Cotton => "cotton",
            MaterialPreset::Denim => "denim",
            MaterialPreset::Leather => "leather",
            MaterialPreset::RubberSheet => "rubber sheet",
            MaterialPreset::Rope => "rope",
            MaterialPreset::Hair => "hair",
            MaterialPreset::Jelly => "jelly",
            MaterialPreset::Rubber => "rubber",
            MaterialPreset::Flesh => "flesh",
        }
    }

    /// The kind of body the preset is for (what its density is per).
    pub fn body(self) -> PresetBody {
        match self {
            MaterialPreset::Silk | MaterialPreset::Cotton | MaterialPreset::Denim | MaterialPreset::Leather | MaterialPreset::RubberSheet => {
                PresetBody::Cloth
            }
            MaterialPreset::Rope | MaterialPreset::Hair => PresetBody::Line,
            MaterialPreset::Jelly | MaterialPreset::Rubber | MaterialPreset::Flesh => PresetBody::Solid,
        }
    }
}

impl Material {
    /// The material of `preset`, in physical units (see the table's comments for each
    /// value's source). It validates ([`Material::validate`]); change any field after.
    pub fn preset(preset: MaterialPreset) -> Material {
        let d = Material::default();
        match preset {
            // Areal density: habotai and charmeuse silks weigh 30–70 g/m². Bending: Kawabata B
            // of silk fabrics about 0.01–0.03 gf·cm²/cm (1–3e-6 N·m). Membrane: a light weave
            // about 5 kN/m along its threads at small strain; shear: Kawabata G about
            // 0.5 gf/(cm·deg) (28 N/m). Silk on silk slides easily (μ about 0.2).
            MaterialPreset::Silk => Material {
                density: 0.05,
                bend_stiffness: 2e-6,
                stretch_stiffness: 5e3,
                shear_stiffness: 28.0,
                thickness: 0.003,
                damping: 0.25,
                static_friction: 0.2,
                kinetic_friction: 0.15,
                ..d
            },
            // Areal density: shirting and poplin 110–180 g/m². Bending: Kawabata B of cotton
            // shirtings 0.05–0.15 gf·cm²/cm (0.5–1.5e-5 N·m). Membrane about 20 kN/m; shear:
            // G about 1 gf/(cm·deg) (56 N/m). Cotton on cotton μ about 0.5.
            MaterialPreset::Cotton => Material {
                density: 0.15,
                bend_stiffness: 1e-5,
                stretch_stiffness: 2e4,
                shear_stiffness: 56.0,
                thickness: 0.005,
                damping: 0.3,
                static_friction: 0.5,
                kinetic_friction: 0.4,
                ..d
            },
            // Areal density: 12 oz/yd² denim is 407 g/m². Bending: Kawabata B of denims
            // 0.5–1.5 gf·cm²/cm (0.5–1.5e-4 N·m). Membrane about 50 kN/m; shear: G about
            // 2.7 gf/(cm·deg) (150 N/m), a tight twill.
            MaterialPreset::Denim => Material {
                density: 0.4,
                bend_stiffness: 1e-4,
                stretch_stiffness: 5e4,
                shear_stiffness: 150.0,
                thickness: 0.006,
                damping: 0.4,
                static_friction: 0.6,
                kinetic_friction: 0.5,
                ..d
            },
            // Areal density: 1.2 mm garment leather at about 850 kg/m³ is 1.0 kg/m². Leather
            // is a felt of fibres, not a weave: Young's modulus about 25 MPa at small strain,
            // so E·t ≈ 3e4 N/m, shear about E·t / 3 = 1e4 N/m, and D = E t³ / (12 (1 − ν²))
            // ≈ 4e-3 N·m at ν 0.3 — taken as 1e-3 N·m, since a garment leather is softened
            // (and the stiffer value needs many solver passes to show, docs/materials.md).
            MaterialPreset::Leather => Material {
                density: 1.0,
                bend_stiffness: 1e-3,
                stretch_stiffness: 3e4,
                shear_stiffness: 1e4,
                thickness: 0.008,
                damping: 0.5,
                static_friction: 0.6,
                kinetic_friction: 0.5,
                ..d
            },
            // A 1 mm sheet of soft rubber (E = 1 MPa, ν = 0.49, 1200 kg/m³): 1.2 kg/m²,
            // E·t = 1000 N/m, shear G·t = E t / (2 (1 + ν)) = 336 N/m,
            // D = E t³ / (12 (1 − ν²)) = 1.1e-4 N·m. Rubber grips (μ about 0.9).
            MaterialPreset::RubberSheet => Material {
                density: 1.2,
                bend_stiffness: 1.1e-4,
                stretch_stiffness: 1e3,
                shear_stiffness: 336.0,
                thickness: 0.005,
                damping: 0.2,
                static_friction: 0.9,
                kinetic_friction: 0.8,
                ..d
            },
            // A 10 mm kernmantle rope weighs 60–75 g/m: 0.07 kg/m; its radius, 5 mm, is the
            // collision thickness. Ropes keep their distance constraints (a compliance per
            // link, not a physical stiffness): stretch 0 (a static rope stretches a few %
            // at most), the default bend compliance.
            MaterialPreset::Rope => Material {
                density: 0.07,
                thickness: 0.005,
                damping: 0.3,
                static_friction: 0.6,
                kinetic_friction: 0.5,
                ..d
            },
            // A hair is 50–100 µm across at about 1300 kg/m³ (5e-6 kg/m for 70 µm); one
            // simulated strand stands for a bundle about 1 mm across, about 200 hairs:
            // 200 × 5e-6 = 1e-3 kg/m. The rest is the strands' default material
            // (`sinew_strands_desc_default`: rigid distance bend, damping 1/s, 5 mm
            // thickness); hair's cuticle slides easily (μ about 0.3).
            MaterialPreset::Hair => Material {
                density: 1e-3,
                bend_compliance: 0.0,
                thickness: 0.005,
                damping: 1.0,
                static_friction: 0.3,
                kinetic_friction: 0.25,
                ..d
            },
            // Gelatin desserts: about 1050 kg/m³, Young's modulus 1–10 kPa (5 kPa), nearly
            // incompressible (ν 0.49, the largest accepted). Lightly damped, so it wobbles.
            MaterialPreset::Jelly => Material {
                density: 1050.0,
                youngs_modulus: 5e3,
                poisson_ratio: 0.49,
                thickness: 0.01,
                damping: 0.3,
                static_friction: 0.4,
                kinetic_friction: 0.3,
                ..d
            },
            // Soft natural rubber: about 1100 kg/m³, Young's modulus about 1 MPa, ν 0.49.
            MaterialPreset::Rubber => Material {
                density: 1100.0,
                youngs_modulus: 1e6,
                poisson_ratio: 0.49,
                thickness: 0.01,
                damping: 0.5,
                static_friction: 0.9,
                kinetic_friction: 0.8,
                ..d
            },
            // Soft tissue: about 1060 kg/m³; fat and relaxed muscle measure 1–100 kPa
            // (3e4 Pa), ν about 0.45. Heavily damped: flesh does not ring.
            MaterialPreset::Flesh => Material {
                density: 1060.0,
                youngs_modulus: 3e4,
                poisson_ratio: 0.45,
                thickness: 0.01,
                damping: 1.0,
                static_friction: 0.6,
                kinetic_friction: 0.5,
                ..d
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_preset_validates_and_numbers_in_order() {
        for (i, p) in MaterialPreset::ALL.iter().enumerate() {
            assert_eq!(*p as u32, i as u32);
            assert_eq!(MaterialPreset::from_u32(i as u32), Some(*p));
            let m = Material::preset(*p);
            m.validate().unwrap_or_else(|e| panic!("{}: {e:?}", p.name()));
            assert!(m.density > 0.0, "{} has a density", p.name());
            match p.body() {
                PresetBody::Cloth => assert!(m.bend_stiffness > 0.0 && m.stretch_stiffness > 0.0 && m.shear_stiffness > 0.0),
                PresetBody::Line => assert_eq!((m.bend_stiffness, m.stretch_stiffness, m.youngs_modulus), (0.0, 0.0, 0.0)),
                PresetBody::Solid => assert!(m.youngs_modulus > 0.0 && m.density > 900.0),
            }
        }
        assert_eq!(MaterialPreset::from_u32(10), None);
        assert_eq!(MaterialPreset::from_u32(u32::MAX), None);
    }

    #[test]
    fn fabric_order_is_physical() {
        // Heavier and stiffer from silk to leather.
        let f: Vec<Material> = [MaterialPreset::Silk, MaterialPreset::Cotton, MaterialPreset::Denim, MaterialPreset::Leather]
            .map(Material::preset)
            .to_vec();
        for w in f.windows(2) {
            assert!(w[0].density < w[1].density && w[0].bend_stiffness < w[1].bend_stiffness);
        }
    }
}
