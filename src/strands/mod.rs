//! Hair strands: many short chains in one body, solved together (one body's batches hold
//! the constraints of every strand, so thousands of strands cost one body's overhead).
//!
//! Each strand has a stretch constraint per segment and bend constraints to the particles
//! two and three over; together with the pull towards the skinned rest pose
//! (`Dynamics::pose_stiffness`) they keep a strand's rest curvature, so a ponytail holds its
//! shape. The first two particles of a strand are pinned and follow the head bone, which also
//! holds the strand's direction at the root.

use std::sync::Arc;

use crate::particles::{Body, BodyKind, Dynamics, Material, Topology};
use crate::error::{Error, MAX_PARTICLES, Result, check_finite, check_length, check_positions, check_transform, try_filled};
use crate::math::{LENGTH_EPSILON, Mat4, Vec3, is_finite3};
use crate::solver::constraints::distance::{self, DistanceConstraints, KIND_BEND, KIND_STRETCH};

#[derive(Clone, Debug)]
pub struct StrandsSpec<'a> {
    /// `strand_count × particles_per_strand` points, strand after strand.
    pub points: &'a [Vec3],
    pub particles_per_strand: usize,
    /// The head bone's current transform: roots follow it (the bind pose is its inverse).
    pub head: Mat4,
    pub material: Material,
}

impl StrandsSpec<'_> {
    pub fn validate(&self) -> Result<()> {
        let n = self.points.len();
        let per = self.particles_per_strand;
        if per < 3 {
            return Err(Error::invalid(format!("a strand needs at least 3 particles (got {per})")));
        }
        if n == 0 || !n.is_multiple_of(per) {
            return Err(Error::invalid(format!("{n} points is not a whole number of strands of {per}")));
        }
        if n > MAX_PARTICLES {
            return Err(Error::too_large(format!("{n} strand particles; the limit per body is {MAX_PARTICLES}")));
        }
        check_positions(self.points, "strand point")?;
        for s in 0..n / per {
            let strand = &self.points[s * per..(s + 1) * per];
            if let Some(k) = strand.windows(2).position(|w| (w[1] - w[0]).length() < LENGTH_EPSILON) {
                return Err(Error::invalid(format!("strand {s}: points {k} and {} coincide", k + 1)));
            }
        }
        check_transform(&self.head, "head transform")?;
        if self.head.determinant().abs() < 1e-12 {
            return Err(Error::invalid("head transform is singular"));
        }
        self.material.validate()
    }
}

/// The default hair: one straight strand from the head bone's origin, hanging along −Y and
/// swept back a little along −Z (so strands made from the defaults exist and swing).
pub(crate) static DEFAULT_ROOTS: [Vec3; 1] = [Vec3::ZERO];
pub(crate) static DEFAULT_DIRECTIONS: [Vec3; 1] = [Vec3::new(0.0, -0.96, -0.28)];

/// Checks a strands description's `segment_length`: a size when the strands are straight
/// (`used`), else only finite — a value that is not used is still not NaN or infinite.
pub fn check_segment_length(segment_length: f32, used: bool) -> Result<()> {
    if used {
        check_length(segment_length, "segment_length")?;
    } else {
        check_finite(segment_length, "segment_length (unused when points are given)")?;
    }
    Ok(())
}

/// Checks straight strands' roots and directions before [`straight`] lays them out.
pub fn check_straight(roots: &[Vec3], directions: &[Vec3], per: usize, segment_length: f32) -> Result<()> {
    check_segment_length(segment_length, true)?;
    if roots.len().saturating_mul(per) > MAX_PARTICLES {
        return Err(Error::too_large(format!("{} strands of {per} is more than one body holds", roots.len())));
    }
    check_positions(roots, "strand root")?;
    if let Some(k) = directions.iter().position(|d| !is_finite3(*d)) {
        return Err(Error::non_finite(format!("strand direction {k} is not finite")));
    }
    Ok(())
}

/// Straight strands from `roots` along `directions`, `per` particles `segment` apart.
pub fn straight(roots: &[Vec3], directions: &[Vec3], per: usize, segment: f32) -> Result<Vec<Vec3>> {
    if directions.len() != roots.len() {
        return Err(Error::invalid(format!("desc.directions has {} entries for {} roots: give one direction per root", directions.len(), roots.len())));
    }
    check_straight(roots, directions, per, segment)?;
    let mut out = Vec::with_capacity(roots.len() * per);
    for (r, d) in roots.iter().zip(directions) {
        let d = d.normalize_or_zero();
        for i in 0..per {
            out.push(*r + d * (segment * i as f32));
        }
    }
    Ok(out)
}

pub fn new_strands(spec: &StrandsSpec) -> Result<Body> {
    spec.validate()?;
    let (p, per) = (spec.points, spec.particles_per_strand);
    let n = p.len();
    let mut k = DistanceConstraints::default();
    for s in 0..n / per {
        let base = s * per;
        for i in 0..per - 1 {
            let (a, b) = (base + i, base + i + 1);
            k.push(a as u32, b as u32, (p[b] - p[a]).length(), KIND_STRETCH);
        }
        for over in [2, 3] {
            for i in 0..per.saturating_sub(over) {
                let (a, b) = (base + i, base + i + over);
                k.push(a as u32, b as u32, (p[b] - p[a]).length(), KIND_BEND);
            }
        }
    }
    let constraints = distance::colour(&k, n);
    let topology = Topology { particle_count: n, constraints, rest: p.to_vec(), ..Topology::default() };
    let mut w = try_filled(n, 1.0 / spec.material.particle_mass, "inverse masses")?;
    for s in 0..n / per {
        w[s * per] = 0.0;
        w[s * per + 1] = 0.0;
    }
    let mut body = Body::new(BodyKind::Strands, Arc::new(topology), spec.material, p.to_vec(), w)?;
    let influence = vec![([0i32; 4], [1.0, 0.0, 0.0, 0.0]); n];
    body.set_skinning(&influence, Some(vec![spec.head.inverse()]), 1)?;
    body.set_bone_matrices(&[spec.head])?;
    body.set_dynamics(Dynamics { pose_stiffness: 2.0, ..Dynamics::default() })?;
    body.finish_material()
}
