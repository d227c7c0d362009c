//! A soft body's part of a particle body (the types the pipeline runs; `crate::softbody`
//! builds soft bodies): its settings, cooked tetrahedra and clusters, their per-instance
//! state, the gas in its closed surface, and the queries on it.

use std::sync::Arc;

use super::Body;
use crate::error::{Error, Result, check_within, MAX_COMPLIANCE};
use crate::math::Vec3;
use crate::solver::constraints::neo_hookean::Solids;
use crate::solver::constraints::shape_match::{ClusterState, Clusters, MatchParams};
use crate::solver::constraints::volume::Tets;

/// Soft-body settings, changeable at run time.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SoftSettings {
    /// Compliance of the tetrahedra's volume constraints (m³/(N·m)); 0 keeps every volume.
    pub volume_compliance: f32,
    /// Shape matching: fraction of the way to the goal per 1/60 s, 0–1 (0: off).
    pub shape_stiffness: f32,
    /// Apply `shape_stiffness` per substep, as the chapter does, instead of per 1/60 s.
    pub chapter_stiffness: bool,
    /// Linear mode's β (0–1): goals from the best linear map instead of the rotation alone.
    pub shape_linear: f32,
    /// Plasticity: the deformation (‖S − 1‖) beyond which the rest shape creeps, the creep
    /// rate (1/s; 0: elastic) and the largest permanent deformation.
    pub plastic_yield: f32,
    pub plastic_creep: f32,
    pub plastic_max: f32,
    /// Gas inside the closed surface (a balloon): its pressure at the rest volume (Pa); the
    /// gas is ideal and isothermal, `p = pressure · V₀ / V`. 0: no gas. The surface feels
    /// `p − external_pressure` (Pa) on each triangle, along its outward normal.
    pub pressure: f32,
    pub external_pressure: f32,
}

impl Default for SoftSettings {
    fn default() -> Self {
        SoftSettings {
            volume_compliance: 0.0,
            shape_stiffness: 0.5,
            chapter_stiffness: false,
            shape_linear: 0.0,
            plastic_yield: 0.1,
            plastic_creep: 0.0,
            plastic_max: 0.5,
            pressure: 0.0,
            external_pressure: 0.0,
        }
    }
}

impl SoftSettings {
    pub fn validate(&self) -> Result<()> {
        check_within(self.volume_compliance, MAX_COMPLIANCE, "volume_compliance")?;
        check_within(self.shape_stiffness, 1.0, "shape_stiffness")?;
        check_within(self.shape_linear, 1.0, "shape_linear")?;
        check_within(self.plastic_yield, 1e3, "plastic_yield")?;
        check_within(self.plastic_creep, 1e3, "plastic_creep (1/s)")?;
        check_within(self.plastic_max, 1e3, "plastic_max")?;
        check_within(self.pressure, 1e7, "pressure (Pa)")?;
        check_within(self.external_pressure, 1e7, "external_pressure (Pa)")?;
        Ok(())
    }
}

/// What a soft body adds to a particle body: its cooked tetrahedra and clusters (shared by
/// every instance of the design) and their per-instance state.
#[derive(Clone, Debug)]
pub struct Soft {
    pub shape: Arc<SoftShape>,
    pub settings: SoftSettings,
    pub(crate) volume_lambda: Vec<f32>,
    pub(crate) clusters: ClusterState,
    /// The tetrahedra as a Neo-Hookean solid, while the material has a Young's modulus
    /// (`solver::constraints::neo_hookean`; built by `Body::prepare_solid`).
    pub(crate) solids: Option<Box<Solids>>,
}

/// Cooked volume data of one soft-body design.
#[derive(Clone, Debug, Default)]
pub struct SoftShape {
    pub tets: Tets,
    pub clusters: Clusters,
    /// Volume enclosed by the surface triangles at rest (m³), for the gas.
    pub surface_volume: f32,
}

/// Volume enclosed by outward-wound closed triangles at positions `x` (m³).
pub fn surface_volume(x: &[Vec3], triangles: &[[u32; 3]]) -> f32 {
    triangles.iter().map(|t| x[t[0] as usize].dot(x[t[1] as usize].cross(x[t[2] as usize])) / 6.0).sum()
}

/// One pass of the gas's pressure on the surface over a substep of `h` s: each particle
/// moves `h² w p ∇V` (the pressure's impulse, `∇ᵢV` the area-weighted normal over 3 of its
/// triangles), with `p = pressure·V₀ s³/V − external_pressure`.
pub(crate) fn apply_pressure(x: &mut [Vec3], w: &[f32], triangles: &[[u32; 3]], soft: &Soft, h: f32, scale: f32) {
    let s = &soft.settings;
    let v = surface_volume(x, triangles);
    let v0 = soft.shape.surface_volume * scale * scale * scale;
    if !(v > 1e-12) {
        return;
    }
    let p = s.pressure * v0 / v - s.external_pressure;
    let k = h * h * p / 6.0;
    for t in triangles {
        let [a, b, c] = t.map(|i| i as usize);
        let (xa, xb, xc) = (x[a], x[b], x[c]);
        x[a] += xb.cross(xc) * (k * w[a]);
        x[b] += xc.cross(xa) * (k * w[b]);
        x[c] += xa.cross(xb) * (k * w[c]);
    }
}

impl Soft {
    pub fn new(shape: Arc<SoftShape>, settings: SoftSettings) -> Soft {
        Soft { volume_lambda: vec![0.0; shape.tets.len()], clusters: ClusterState::new(shape.clusters.len()), solids: None, shape, settings }
    }

    /// Shape matching's parameters for a substep of `h` s.
    pub(crate) fn match_params(&self, h: f32, scale: f32) -> MatchParams {
        let s = &self.settings;
        let stiffness = if s.chapter_stiffness { s.shape_stiffness } else { 1.0 - (1.0 - s.shape_stiffness).powf(60.0 * h) };
        MatchParams { stiffness, beta: s.shape_linear, yield_strain: s.plastic_yield, creep: s.plastic_creep, max_strain: s.plastic_max, dt: h, scale }
    }
}

impl Body {
    /// The soft part of a soft body.
    pub fn soft(&self) -> Option<&Soft> {
        self.soft.as_deref()
    }

    /// Replaces a soft body's settings (whole or not at all).
    pub fn set_soft_settings(&mut self, s: SoftSettings) -> Result<()> {
        s.validate()?;
        let Some(soft) = self.soft.as_deref_mut() else {
            return Err(Error::invalid("not a soft body: soft settings apply to soft bodies only"));
        };
        soft.settings = s;
        self.wake();
        Ok(())
    }

    /// Volume enclosed by the tetrahedra now (m³), and at rest (scaled by the body's scale);
    /// A balloon (no tetrahedra): the volume its surface encloses.
    pub fn soft_volume(&self) -> Option<(f32, f32)> {
        let s = self.soft.as_deref()?;
        if s.shape.tets.is_empty() {
            return Some((surface_volume(&self.x, &self.topology.triangles), s.shape.surface_volume * self.scale.powi(3)));
        }
        Some((s.shape.tets.volume(&self.x), s.shape.tets.rest_volume() * self.scale.powi(3)))
    }

    /// Centre of mass of the particles now (m).
    pub fn center_of_mass(&self) -> Vec3 {
        let (mut sum, mut mass) = (Vec3::ZERO, 0.0f32);
        for (x, w) in self.x.iter().zip(&self.w_free) {
            sum += *x / *w;
            mass += 1.0 / *w;
        }
        sum / mass.max(1e-30)
    }
}
