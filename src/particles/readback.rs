//! What the host reads back: positions interpolated between the last two fixed steps
//! (`x_step_start → x` by the world's `alpha`) with pinned vertices on this frame's targets,
//! area-weighted normals, bounds and the largest stretch — in the host's own vertex order and
//! count for welded meshes.

use super::Body;
use crate::error::{Error, ErrorKind, Result};
use crate::math::Vec3;

impl Body {
    /// Particle position `i` interpolated between the last two fixed steps; a pinned
    /// particle is where the host put it for this frame (simulated time may be ahead of the
    /// host's, and its pin path carried on past the target: see `Pins`).
    #[inline]
    fn render_position(&self, i: usize, alpha: f32) -> Vec3 {
        let slot = self.pin_slot[i];
        if slot != u32::MAX {
            self.pins.to[slot as usize]
        } else if alpha >= 1.0 {
            self.x[i]
        } else {
            self.x_step_start[i].lerp(self.x[i], alpha)
        }
    }

    /// Host-vertex positions, interpolated by `alpha`, into `out` (at least `vertex_count` long).
    pub fn read_positions(&self, alpha: f32, out: &mut [Vec3]) {
        if let Some(e) = &self.topology.embedding {
            for (v, o) in out.iter_mut().enumerate().take(e.len()) {
                *o = e.position(v, |i| self.render_position(i, alpha));
            }
            return;
        }
        match &self.topology.vertex_to_particle {
            Some(map) => {
                for (o, &p) in out.iter_mut().zip(map) {
                    *o = self.render_position(p as usize, alpha);
                }
            }
            None => {
                for (i, o) in out.iter_mut().take(self.x.len()).enumerate() {
                    *o = self.render_position(i, alpha);
                }
            }
        }
    }

    /// Area-weighted vertex normals (unit length; +Y for a vertex in no triangle).
    pub fn read_normals(&mut self, alpha: f32, out: &mut [Vec3]) -> Result<()> {
        if self.topology.embedding.is_some() {
            return self.read_embedded_normals(alpha, out);
        }
        let mut acc = std::mem::take(&mut self.normal_acc);
        acc.clear();
        acc.try_reserve(self.x.len()).map_err(|_| Error::new(ErrorKind::OutOfMemory, "out of memory for normals"))?;
        acc.resize(self.x.len(), Vec3::ZERO);
        for t in &self.topology.triangles {
            let [a, b, c] = t.map(|i| self.render_position(i as usize, alpha));
            // |cross| is twice the area, so the sum is area weighted.
            let face = (b - a).cross(c - a);
            for &i in t {
                acc[i as usize] += face;
            }
        }
        let unit = |v: Vec3| v.try_normalize().unwrap_or(Vec3::Y);
        match &self.topology.vertex_to_particle {
            Some(map) => {
                for (o, &p) in out.iter_mut().zip(map) {
                    *o = unit(acc[p as usize]);
                }
            }
            None => {
                for (o, a) in out.iter_mut().zip(&acc) {
                    *o = unit(*a);
                }
            }
        }
        self.normal_acc = acc;
        Ok(())
    }

    /// Normals of an embedded render mesh: area weighted over its own triangles, at the
    /// embedded positions (scratch: `normal_acc` holds the positions, then the sums).
    fn read_embedded_normals(&mut self, alpha: f32, out: &mut [Vec3]) -> Result<()> {
        let Some(e) = self.topology.embedding.as_ref() else { return Ok(()) };
        let nv = e.len();
        let mut acc = std::mem::take(&mut self.normal_acc);
        acc.clear();
        acc.try_reserve(2 * nv).map_err(|_| Error::new(ErrorKind::OutOfMemory, "out of memory for normals"))?;
        for v in 0..nv {
            acc.push(e.position(v, |i| self.render_position(i, alpha)));
        }
        acc.resize(2 * nv, Vec3::ZERO);
        let (pos, sum) = acc.split_at_mut(nv);
        for t in &self.topology.render_triangles {
            let [a, b, c] = t.map(|i| pos[i as usize]);
            let face = (b - a).cross(c - a);
            for &i in t {
                sum[i as usize] += face;
            }
        }
        for (o, s) in out.iter_mut().zip(sum.iter()) {
            *o = s.try_normalize().unwrap_or(Vec3::Y);
        }
        self.normal_acc = acc;
        Ok(())
    }

    /// Axis-aligned bounds of the current particles.
    pub fn bounds(&self) -> (Vec3, Vec3) {
        let mut lo = Vec3::splat(f32::INFINITY);
        let mut hi = Vec3::splat(f32::NEG_INFINITY);
        for p in &self.x {
            lo = lo.min(*p);
            hi = hi.max(*p);
        }
        (lo, hi)
    }

    /// Largest `|length/(rest·scale) − 1|` over the body's constraints.
    pub fn max_stretch(&self) -> f32 {
        self.topology.constraints.max_stretch(&self.x, self.scale)
    }
}
