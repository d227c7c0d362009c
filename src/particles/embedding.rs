//! Render vertices embedded in a soft body's lattice (`crate::softbody::embed` builds them):
//! the readback of a soft body made from a render mesh.

use crate::math::Vec3;

/// Render vertices embedded in the simulation lattice.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Embedding {
    /// Per vertex: the 8 particles of its cube and their trilinear weights.
    pub particles: Vec<[u32; 8]>,
    pub weights: Vec<[f32; 8]>,
    /// Per vertex: the host's rest position, and the weights applied to the rest particles.
    pub rest: Vec<Vec3>,
    pub rest_interpolated: Vec<Vec3>,
}

impl Embedding {
    /// Vertex `v` over particle positions given by `at`.
    #[inline]
    pub fn position(&self, v: usize, at: impl Fn(usize) -> Vec3) -> Vec3 {
        let (p, w) = (&self.particles[v], &self.weights[v]);
        let mut sum = Vec3::ZERO;
        for k in 0..8 {
            sum += at(p[k] as usize) * w[k];
        }
        self.rest[v] + (sum - self.rest_interpolated[v])
    }

    pub fn len(&self) -> usize {
        self.rest.len()
    }

    pub fn is_empty(&self) -> bool {
        self.rest.is_empty()
    }

    /// The particle that weighs most in vertex `v`.
    pub fn main_particle(&self, v: usize) -> usize {
        let w = &self.weights[v];
        let k = (0..8).fold(0, |best, k| if w[k] > w[best] { k } else { best });
        self.particles[v][k] as usize
    }
}

