//! Rope: a polyline of particles, each joined to the next (chapter section 7), and
//! optionally to the one two over for bending stiffness.
//!
//! A rope is a chain: its constraints form sequential batches solved in order, first to
//! last — the chapter's relaxation order, which on a chain converges faster than any
//! colouring. Ropes parallelise across bodies, not inside one.

use std::sync::Arc;

use crate::particles::{Body, BodyKind, Material, Topology};
use crate::error::{Error, MAX_PARTICLES, Result, check_positions, try_filled};
use crate::math::{LENGTH_EPSILON, Vec3};
use crate::solver::constraints::distance::{DistanceConstraints, KIND_BEND, KIND_STRETCH};

#[derive(Clone, Debug)]
pub struct RopeSpec<'a> {
    pub points: &'a [Vec3],
    pub pins: &'a [u32],
    /// Add a constraint from each particle to the one two over (bending stiffness).
    pub bend: bool,
    pub material: Material,
}

/// The default rope: 1 m along +X from the origin in ten 0.1 m links, nothing pinned (a host
/// that gives its own points and no pins gets no pins).
pub(crate) static DEFAULT_ROPE_POINTS: [Vec3; 11] = {
    let mut p = [Vec3::ZERO; 11];
    let mut i = 0;
    while i < 11 {
        p[i] = Vec3::new(0.1 * i as f32, 0.0, 0.0);
        i += 1;
    }
    p
};
impl Default for RopeSpec<'static> {
    fn default() -> Self {
        RopeSpec { points: &DEFAULT_ROPE_POINTS, pins: &[], bend: true, material: Material::default() }
    }
}

impl RopeSpec<'_> {
    pub fn validate(&self) -> Result<()> {
        let n = self.points.len();
        if n < 2 {
            return Err(Error::invalid(format!("a rope needs at least 2 points (got {n})")));
        }
        if n > MAX_PARTICLES {
            return Err(Error::too_large(format!("{n} rope points; the limit per body is {MAX_PARTICLES}")));
        }
        check_positions(self.points, "rope point")?;
        if let Some(k) = self.points.windows(2).position(|w| (w[1] - w[0]).length() < LENGTH_EPSILON) {
            return Err(Error::invalid(format!("rope points {k} and {} coincide", k + 1)));
        }
        if let Some(&bad) = self.pins.iter().find(|&&i| i as usize >= n) {
            return Err(Error::out_of_range(format!("pin index {bad} out of range (rope has {n} points)")));
        }
        self.material.validate()
    }
}

pub fn new_rope(spec: &RopeSpec) -> Result<Body> {
    spec.validate()?;
    let p = spec.points;
    let n = p.len();
    let mut k = DistanceConstraints::default();
    for i in 0..n - 1 {
        k.push(i as u32, i as u32 + 1, (p[i + 1] - p[i]).length(), KIND_STRETCH);
    }
    k.close_batch(false);
    if spec.bend {
        for i in 0..n.saturating_sub(2) {
            k.push(i as u32, i as u32 + 2, (p[i + 2] - p[i]).length(), KIND_BEND);
        }
        k.close_batch(false);
    }
    let topology = Topology { particle_count: n, constraints: k, rest: p.to_vec(), ..Topology::default() };
    let mut w = try_filled(n, 1.0 / spec.material.particle_mass, "inverse masses")?;
    spec.pins.iter().for_each(|&i| w[i as usize] = 0.0);
    Body::new(BodyKind::Rope, Arc::new(topology), spec.material, p.to_vec(), w)?.finish_material()
}
