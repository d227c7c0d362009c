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

/// The largest plastic yield, creep rate (1/s) and permanent deformation.
pub const MAX_PLASTIC: f32 = 1e3;
/// The largest gas pressure, inside or outside (Pa): a hundred atmospheres.
pub const MAX_PRESSURE: f32 = 1e7;

impl SoftSettings {
    pub fn validate(&self) -> Result<()> {
        check_within(self.volume_compliance, MAX_COMPLIANCE, "volume_compliance")?;
        check_within(self.shape_stiffness, 1.0, "shape_stiffness")?;
        check_within(self.shape_linear, 1.0, "shape_linear")?;
        check_within(self.plastic_yield, MAX_PLASTIC, "plastic_yield")?;
        check_within(self.plastic_creep, MAX_PLASTIC, "plastic_creep (1/s)")?;
        check_within(self.plastic_max, MAX_PLASTIC, "plastic_max")?;
        check_within(self.pressure, MAX_PRESSURE, "pressure (Pa)")?;
        check_within(self.external_pressure, MAX_PRESSURE, "external_pressure (Pa)")?;
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
    /// Scratch for the gas's gradients, one per particle (`apply_pressure`).
    pub(crate) pressure_grad: Vec<Vec3>,
}

/// Cooked volume data of one soft-body design.
#[derive(Clone, Debug, Default)]
pub struct SoftShape {
    pub tets: Tets,
    pub clusters: Clusters,
    /// Volume enclosed by the surface triangles at rest (m³), for the gas.
    pub surface_volume: f32,
}

/// Volume enclosed by outward-wound closed triangles at positions `x` (m³), summed about
/// the particles' mean so that it does not lose its digits far from the origin.
pub fn surface_volume(x: &[Vec3], triangles: &[[u32; 3]]) -> f32 {
    let c = centre(x);
    let v: f64 = triangles
        .iter()
        .map(|t| {
            let [a, b, d] = t.map(|i| x[i as usize] - c);
            a.dot(b.cross(d)) as f64
        })
        .sum();
    (v / 6.0) as f32
}

/// The particles' plain mean (summed in f64).
fn centre(x: &[Vec3]) -> Vec3 {
    if x.is_empty() {
        return Vec3::ZERO;
    }
    let s = x.iter().fold(glam::DVec3::ZERO, |a, p| a + p.as_dvec3());
    (s / x.len() as f64).as_vec3()
}

/// The largest change of the enclosed volume one substep of the gas may make, as a fraction
/// of the volume: the implicit step below cannot overshoot the gas's own law, but its
/// volume change is linearised (`ΔV ≈ s W`), which a large step on a coarse surface outgrows.
const MAX_GAS_STEP: f64 = 0.25;

/// One implicit step of the gas's pressure on the surface over a substep of `h` s.
///
/// The gas is ideal and isothermal, `p(V) = pressure · V₀ s³ / V` (`s` the body's scale),
/// and pushes the surface with `p(V) − external_pressure` along `∇V` (each particle's
/// area-weighted normal, a third of each of its triangles). Every particle moves along it,
/// `Δxᵢ = σ wᵢ ∇ᵢV`, which changes the volume by `σ W` (`W = Σ wᵢ |∇ᵢV|²`, to first
/// order); `σ` is the step at the *end* volume (implicit Euler), `σ = h² (p(V + σW) −
/// p_ext)`, the positive root of `W σ² + (V + h² p_ext W) σ − h² (P₀V₀ − p_ext V) = 0`. An
/// explicit step (`σ = h² (p(V) − p_ext)`) overshoots when the gas is stiff against the
/// particles' masses — one substep of 2708 Pa in a 0.2 m cube of 8 particles of 10 g threw
/// its corners to 6e25 m — while the implicit step stops where the gas's pressure would have
/// fallen to its load; its volume change is also bounded by [`MAX_GAS_STEP`].
///
/// The gradients are taken about the particles' mean, once for all triangles before any
/// particle moves: they sum to zero and `Σ xᵢ × ∇ᵢV = 0` (the volume does not change under a
/// translation or a rotation), so the gas changes neither momentum nor angular momentum,
/// wherever the body is. (Updating particles triangle by triangle, with absolute positions,
/// made a balloon 10 m from the origin push itself 1.3e12 m in 10 s.)
pub(crate) fn apply_pressure(x: &mut [Vec3], w: &[f32], triangles: &[[u32; 3]], soft: &mut Soft, h: f32, scale: f32) {
    let n = x.len();
    if soft.pressure_grad.len() != n {
        // Once, at the first substep of a body with gas.
        soft.pressure_grad.resize(n, Vec3::ZERO);
    }
    let grad = &mut soft.pressure_grad;
    grad.fill(Vec3::ZERO);
    let c = centre(x);
    let mut v = 0.0f64;
    for t in triangles {
        let [a, b, d] = t.map(|i| i as usize);
        let (xa, xb, xd) = (x[a] - c, x[b] - c, x[d] - c);
        let bd = xb.cross(xd);
        v += xa.dot(bd) as f64;
        grad[a] += bd;
        grad[b] += xd.cross(xa);
        grad[d] += xa.cross(xb);
    }
    let v = v / 6.0;
    let big_w: f64 = (0..n).map(|i| w[i] as f64 * (grad[i] / 6.0).length_squared() as f64).sum();
    if !(v > 1e-12) || !(big_w > 0.0) || !big_w.is_finite() {
        return;
    }
    let st = &soft.settings;
    let v0 = soft.shape.surface_volume as f64 * (scale as f64).powi(3);
    let (h2, pe) = ((h as f64) * (h as f64), st.external_pressure as f64);
    let b = v + h2 * pe * big_w;
    let cc = h2 * (st.pressure as f64 * v0 - pe * v);
    let disc = (v - h2 * pe * big_w).powi(2) + 4.0 * big_w * h2 * st.pressure as f64 * v0;
    // The positive root, in the form that does not cancel (b > 0).
    let sigma = (2.0 * cc / (b + disc.sqrt())).clamp(-MAX_GAS_STEP * v / big_w, MAX_GAS_STEP * v / big_w);
    if !sigma.is_finite() {
        return;
    }
    let k = (sigma / 6.0) as f32;
    for i in 0..n {
        x[i] += grad[i] * (k * w[i]);
    }
}

impl Soft {
    pub fn new(shape: Arc<SoftShape>, settings: SoftSettings) -> Soft {
        Soft { volume_lambda: vec![0.0; shape.tets.len()], clusters: ClusterState::new(shape.clusters.len()), solids: None, pressure_grad: Vec::new(), shape, settings }
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

#[cfg(test)]
mod gas_tests {
    use super::*;

    /// The gas moves no centre of mass and turns nothing: on a lopsided octahedron of unequal
    /// masses far from the origin, one step changes `Σ m x` and `Σ m x × x` by round-off only.
    #[test]
    fn the_gas_is_an_internal_force() {
        for at in [Vec3::ZERO, Vec3::new(10.0, -3.0, 7.0)] {
            let mut x = vec![Vec3::new(0.3, 0.01, 0.02), Vec3::new(-0.2, 0.0, 0.01), Vec3::new(0.0, 0.25, -0.03), Vec3::new(0.02, -0.3, 0.0), Vec3::new(0.01, 0.0, 0.22), Vec3::new(0.0, 0.02, -0.27)];
            for p in x.iter_mut() {
                *p += at;
            }
            let tris: Vec<[u32; 3]> = vec![[0, 2, 4], [2, 1, 4], [1, 3, 4], [3, 0, 4], [2, 0, 5], [1, 2, 5], [3, 1, 5], [0, 3, 5]];
            let w = [1.0f32, 2.0, 0.5, 1.5, 1.0, 3.0];
            let v0 = surface_volume(&x, &tris);
            assert!(v0 > 0.0, "wound inward: {v0}");
            let shape = Arc::new(SoftShape { surface_volume: v0, ..SoftShape::default() });
            let mut soft = Soft::new(shape, SoftSettings { pressure: 5000.0, ..SoftSettings::default() });
            let before = x.clone();
            apply_pressure(&mut x, &w, &tris, &mut soft, 1.0 / 480.0, 1.0);
            let (mut p, mut l) = (glam::DVec3::ZERO, glam::DVec3::ZERO);
            let mut moved = 0.0f64;
            for i in 0..6 {
                let d = (x[i] - before[i]).as_dvec3();
                let m = 1.0 / w[i] as f64;
                p += d * m;
                l += (before[i].as_dvec3() - at.as_dvec3()).cross(d) * m;
                moved += d.length();
            }
            assert!(moved > 1e-6, "the gas moved nothing");
            // Round-off: the positions' own (an ulp of |at| per particle), and 1e-6 of the motion.
            let ulp = (at.length() * f32::EPSILON) as f64;
            let total: f64 = w.iter().map(|w| 1.0 / *w as f64).sum();
            assert!(p.length() < 1e-6 * moved + 2.0 * ulp * total, "at {at}: Σ m Δx = {p} for a motion of {moved}");
            assert!(l.length() < 1e-6 * moved + 2.0 * ulp * total, "at {at}: Σ m x × Δx = {l} for a motion of {moved}");
        }
    }
}
