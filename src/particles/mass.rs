//! Mass from density: a particle's mass as its share of the body's measure, so that a
//! material means the same at any resolution (docs/materials.md).
//!
//! With `Material::density > 0` each free particle weighs `density × share`, its share being:
//! - for a body with tetrahedra (a soft body), an equal part of their volume (density in
//!   kg/m³; equal, because shape matching takes the particles' plain mean as their centre of
//!   mass, which holds for equal masses only);
//! - else for a body with triangles (cloth, meshes, balloons), a third of each triangle it is a
//!   corner of (kg/m²);
//! - else (ropes, strands) half of each stretch link it ends (kg/m).
//!
//! The shares sum to the body's volume, area or length at rest, so its mass is exactly density
//! × that (up to rounding), unless a painted map scales them: a mesh's nonzero inverse masses
//! under a density are read as multipliers `1/(w × particle_mass)` of each particle's share
//! (`Body::mass_scale`; the Unity package's painted Mass Scale arrives that way). A particle
//! with no share (a vertex no triangle uses) keeps `particle_mass`. With `density = 0` every
//! particle weighs `particle_mass`, as before. Measures are taken at the rest shape times the
//! body's scale.

use super::Body;
use crate::error::{Error, Result};
use crate::solver::constraints::distance::KIND_STRETCH;
use super::Material;

/// The largest self-collision thickness, in mean rest edges (`Body::check_self_collision`).
pub const MAX_SELF_THICKNESS: f32 = 1.0;

/// What a particle may weigh (kg), from density as from `particle_mass`.
pub(crate) const MASS_RANGE: (f32, f32) = (1e-9, 1e9);
/// The range of a painted mass multiplier (a mesh's inverse masses under a density).
pub const MIN_MASS_SCALE: f32 = 1e-3;
pub const MAX_MASS_SCALE: f32 = 1e3;

impl Body {
    /// Each particle's mass at rest from the material (see the module docs): `out[i]` in kg.
    pub(crate) fn particle_masses(&self, out: &mut Vec<f32>) {
        let n = self.x.len();
        let m = &self.material;
        out.clear();
        out.resize(n, 0.0);
        if m.density > 0.0 {
            let rest = &self.topology.rest;
            let s = self.scale as f64;
            let mut share = vec![0.0f64; n];
            if let Some(soft) = self.soft.as_deref().filter(|s| !s.shape.tets.index.is_empty()) {
                // Shared equally: shape matching takes the particles' plain mean as the centre
                // of mass (`solver::constraints::shape_match`), which holds for equal masses.
                let volume: f64 = soft.shape.tets.rest.iter().map(|&v| v as f64 * s * s * s).sum();
                share.fill(volume / n as f64);
            } else if !self.topology.triangles.is_empty() {
                for t in &self.topology.triangles {
                    let [a, b, c] = t.map(|i| rest[i as usize].as_dvec3());
                    let area = 0.5 * (b - a).cross(c - a).length() * s * s;
                    for &i in t {
                        share[i as usize] += area / 3.0;
                    }
                }
            } else {
                let k = &self.topology.constraints;
                for j in 0..k.len() {
                    if k.kind[j] == KIND_STRETCH && k.a[j] != k.b[j] {
                        let half = 0.5 * k.rest[j] as f64 * s;
                        share[k.a[j] as usize] += half;
                        share[k.b[j] as usize] += half;
                    }
                }
            }
            let scale = |i: usize| self.mass_scale.as_ref().map_or(1.0, |s| s[i] as f64);
            for i in 0..n.min(share.len()) {
                out[i] = if share[i] > 0.0 { (m.density as f64 * share[i] * scale(i)) as f32 } else { m.particle_mass };
            }
        } else {
            out.fill(m.particle_mass);
        }
    }

    /// Sets every particle's free inverse mass from the material (pinned particles keep
    /// inverse mass 0 until unpinned). Refuses, changing nothing, a density that gives a
    /// particle a mass outside [`MASS_RANGE`].
    pub(crate) fn apply_masses(&mut self) -> Result<()> {
        let mut masses = Vec::new();
        self.particle_masses(&mut masses);
        if let Some((i, m)) = masses.iter().enumerate().find(|(_, m)| !(MASS_RANGE.0..=MASS_RANGE.1).contains(*m)) {
            return Err(Error::invalid(format!(
                "material.density = {} gives particle {i} a mass of {m} kg, outside [{}, {}] kg (the body is too fine or too coarse for it)",
                self.material.density, MASS_RANGE.0, MASS_RANGE.1
            )));
        }
        for (i, m) in masses.iter().enumerate() {
            self.w_free[i] = 1.0 / m;
            if !self.is_pinned(i) {
                self.w[i] = self.w_free[i];
            }
        }
        Ok(())
    }

    /// The body as its cooker built it, with what its material derives from its shape: the
    /// masses from the density (if any), the bending constraints from the bending stiffness
    /// and the membranes from the stretch stiffness (if any). The last step of every cooker,
    /// so that a density (or a self-collision thickness) out of range is refused where the
    /// body is made.
    pub(crate) fn finish_material(mut self) -> Result<Body> {
        self.check_self_collision(&self.material)?;
        if self.material.density > 0.0 {
            self.apply_masses()?;
        }
        self.prepare_triangle_energies();
        self.prepare_solid();
        Ok(self)
    }

    /// Builds the dihedral bending constraints when the material asks for a bending stiffness
    /// (`solver::constraints::dihedral`) and the membranes when it asks for a stretch
    /// stiffness (`solver::constraints::membrane`: the warp is the rest shape's X, a grid's
    /// rows), where the body has triangles (and, for membranes, no tetrahedra); drops them
    /// otherwise. Allocates only when one is switched on (a material change, a tear).
    pub(crate) fn prepare_triangle_energies(&mut self) {
        let triangles = !self.topology.triangles.is_empty();
        if self.material.bend_stiffness > 0.0 && triangles {
            if self.dihedral.is_none() {
                let d = crate::solver::constraints::dihedral::Dihedrals::build(&self.topology.rest, &self.topology.triangles);
                self.dihedral = (!d.is_empty()).then(|| Box::new(d));
            }
        } else {
            self.dihedral = None;
        }
        // A solid's surface is held by its interior: the membrane is for sheets (cloth, meshes,
        // a balloon's skin), not for bodies with tetrahedra.
        let sheet = self.soft.as_ref().is_none_or(|s| s.shape.tets.is_empty());
        if self.material.stretch_stiffness > 0.0 && triangles && sheet {
            if self.membrane.is_none() {
                let m = crate::solver::constraints::membrane::Membranes::build(&self.topology.rest, &self.topology.triangles, crate::math::Vec3::X);
                self.membrane = (!m.is_empty()).then(|| Box::new(m));
            }
        } else {
            self.membrane = None;
        }
    }

    /// Builds a soft body's Neo-Hookean tetrahedra (`solver::constraints::neo_hookean`) when
    /// the material has a Young's modulus and the body has tetrahedra; drops them otherwise.
    /// Kept while the modulus changes (its rest data does not depend on it).
    pub(crate) fn prepare_solid(&mut self) {
        let on = self.material.youngs_modulus > 0.0;
        let rest = &self.topology.rest;
        let Some(soft) = self.soft.as_deref_mut() else { return };
        if on && !soft.shape.tets.is_empty() {
            if soft.solids.is_none() {
                soft.solids = Some(Box::new(crate::solver::constraints::neo_hookean::Solids::build(rest, &soft.shape.tets.index)));
            }
        } else {
            soft.solids = None;
        }
    }

    /// Refuses a self-collision distance far beyond the body's spacing: particles keep
    /// `2 × thickness` apart, and the search meets every particle within that (and the
    /// triangles within it plus an edge), so its cost grows as (thickness / spacing)³. A soft
    /// body of 17,576 particles 8 mm apart stepped in 0.06 s without self-collision, 0.09 /
    /// 0.17 / 2.4 / 31 s with it at a thickness of 0.5 / 1 / 1.5 / 2.5 spacings. At most
    /// [`MAX_SELF_THICKNESS`] × the mean rest length of its stretch edges (a grid's or a
    /// lattice's spacing).
    ///
    /// The same bound holds for a body in a collision pair (`paired`): the search between two
    /// bodies meets the other's particles within the sum of their thicknesses (and its
    /// triangles within that plus an edge); at 10 m on 5 cm spacings every particle met the
    /// whole other body (tests/regression_pair_contact_cost_cliff.rs).
    pub(crate) fn check_self_collision(&self, m: &Material) -> Result<()> {
        if !(m.self_collision || self.paired) || m.thickness <= 0.0 {
            return Ok(());
        }
        let k = &self.topology.constraints;
        let (sum, count) = (0..k.len()).filter(|&i| k.kind[i] == KIND_STRETCH && k.rest[i] > 0.0).fold((0.0f64, 0usize), |(s, c), i| (s + k.rest[i] as f64, c + 1));
        if count == 0 {
            return Ok(());
        }
        let mean = (sum / count as f64) as f32;
        if m.thickness > MAX_SELF_THICKNESS * mean {
            return Err(Error::invalid(format!(
                "material.thickness {} m with {} must be at most {MAX_SELF_THICKNESS} × the body's mean edge ({mean} m): a contact distance of many spacings meets hundreds of particles each (its cost grows as (thickness / spacing)³); use a thinner thickness, a coarser body, or {}",
                m.thickness,
                if m.self_collision { "self_collision" } else { "a collision pair (sinew_body_set_collision_pair)" },
                if m.self_collision { "no self-collision" } else { "no collision pair" }
            )));
        }
        Ok(())
    }

    /// The body's total mass (kg): every particle's, pinned ones included.
    pub fn total_mass(&self) -> f32 {
        self.w_free.iter().map(|w| 1.0 / *w as f64).sum::<f64>() as f32
    }
}
