//! A body's local frame for one fixed step, for bodies far from the world's origin.
//!
//! float32 coordinates near 5000 m are 4.9e-4 m apart; a substep's motion at rest (g·h²,
//! 4.3e-5 m at 60 Hz × 8) and a cloth's stretch are far below that, so a body simulated in
//! world coordinates out there snaps to a 0.5 mm grid and its constraints fight the grid
//! (0.5 mm per substep is 0.23 m/s of jitter). A body whose centre is at least [`FAR`] from
//! the origin is stepped relative to an origin `o` near it (its centre, in whole metres):
//! positions, start positions, pin paths and the skinned pose are moved by `−o` at the start of the step
//! (exact: a difference of nearby floats) and back at its end, colliders' poses per substep.
//!
//! Moving back rounds to world float32. What the rounding took is kept per particle (the
//! residual) and given back at the next step's start, provided the particle's world position
//! is still the one written (bit for bit): so between steps the body keeps its local
//! precision, and what the host reads is the world position rounded once. A position changed
//! between steps (the host set it, a teleport, root motion) starts from its world value.
//!
//! Bodies near the origin never use it (their bits are the ones they always had).

use crate::math::Vec3;

/// Distance (m, largest coordinate of the body's centre) from which a body steps in a local
/// frame: at 64 m a float32 step is 7.6e-6 m.
pub(crate) const FAR: f32 = 64.0;

/// The local frame of a body and the precision its positions keep between steps.
#[derive(Clone, Debug, Default)]
pub struct LocalFrame {
    /// The frame's origin this step (zero when the body steps in world coordinates).
    pub origin: Vec3,
    /// The frame is in use this step.
    pub active: bool,
    /// True position minus the world position written at the last step's end, per particle.
    residual: Vec<Vec3>,
    /// The world positions written at the last step's end.
    written: Vec<Vec3>,
}

/// The origin a body centred at `centre` steps around, if it is far: the centre in whole
/// metres (exactly representable, so moving by it is exact near the body).
pub fn origin_for(centre: Vec3) -> Option<Vec3> {
    (centre.abs().max_element() >= FAR && centre.is_finite()).then(|| centre.round())
}

impl LocalFrame {
    /// Moves the state into the frame at `origin`: `x` (with the residual kept from the last
    /// step where `x` is still what that step wrote), `x_prev` and the `paths` (pins', the
    /// skinned pose's: positions the step reads).
    pub fn enter<const N: usize>(&mut self, origin: Vec3, x: &mut [Vec3], x_prev: &mut [Vec3], paths: [&mut [Vec3]; N]) {
        if self.residual.len() != x.len() {
            self.residual.clear();
            self.residual.resize(x.len(), Vec3::ZERO);
            self.written.clear();
            self.written.resize(x.len(), Vec3::NAN);
        }
        for ((p, written), residual) in x.iter_mut().zip(&self.written).zip(&self.residual) {
            let kept = p.to_array().map(f32::to_bits) == written.to_array().map(f32::to_bits);
            let local = *p - origin;
            *p = if kept { local + *residual } else { local };
        }
        for p in x_prev.iter_mut().chain(paths.into_iter().flat_map(|s| s.iter_mut())) {
            *p -= origin;
        }
        self.origin = origin;
        self.active = true;
    }

    /// Moves the state back to world coordinates, keeping what rounding took from `x`.
    pub fn leave<const N: usize>(&mut self, x: &mut [Vec3], x_prev: &mut [Vec3], paths: [&mut [Vec3]; N]) {
        if !self.active {
            return;
        }
        let o = self.origin;
        for ((p, written), residual) in x.iter_mut().zip(&mut self.written).zip(&mut self.residual) {
            let local = *p;
            let world = local + o;
            *residual = local - (world - o);
            *written = world;
            *p = world;
        }
        for p in x_prev.iter_mut().chain(paths.into_iter().flat_map(|s| s.iter_mut())) {
            *p += o;
        }
        self.active = false;
    }

    /// Forgets the residuals (the state was replaced).
    pub fn forget(&mut self) {
        self.written.iter_mut().for_each(|w| *w = Vec3::NAN);
    }

    /// Bytes held.
    pub fn bytes(&self) -> usize {
        (self.residual.capacity() + self.written.capacity()) * std::mem::size_of::<Vec3>()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A position 5 km out keeps sub-ulp motion across steps: moving by 1e-5 m a hundred
    /// times moves it by 1e-3 m (bit for bit as if it stayed local), where world float32 would
    /// not move at all.
    #[test]
    fn sub_ulp_motion_accumulates_across_steps() {
        let mut f = LocalFrame::default();
        let start = Vec3::new(5000.25, 1.0, -5000.5);
        let mut x = vec![start];
        let o = origin_for(start).unwrap();
        for _ in 0..100 {
            f.enter(o, &mut x, &mut [], [&mut [], &mut []]);
            x[0].x += 1e-5;
            f.leave(&mut x, &mut [], [&mut [], &mut []]);
        }
        f.enter(o, &mut x, &mut [], [&mut [], &mut []]);
        // Exactly what the same motion gives when it never leaves the frame.
        let mut local = start.x - o.x;
        for _ in 0..100 {
            local += 1e-5;
        }
        assert_eq!(x[0].x, local);
        assert!((local - 0.251).abs() < 3e-6);
        assert!(origin_for(Vec3::new(3.0, -20.0, 63.0)).is_none());
    }
}
