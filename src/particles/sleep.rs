//! Sleeping: a body whose particles all stay slower than `Dynamics::sleep_threshold` (m/s)
//! for `Dynamics::sleep_time` seconds of simulated time stops being stepped — the world skips
//! its stages, so it costs nothing, and its readback stays bit for bit where it fell asleep —
//! until something that concerns it changes (Unity Cloth's `sleepThreshold`).
//!
//! - **Measured** at the end of each fixed step (`Body::settle`, the hook in `end_step`): a
//!   particle's speed is its displacement over the step divided by the step's length, pinned
//!   particles included (a moving pin keeps its body awake). A body may sleep only when it
//!   steps alone (not in a contact pair), feels no wind and was not rolled back.
//! - **Falling asleep** zeroes the velocities and makes the step's start equal its end, so
//!   interpolated readback shows the final state at any `alpha`.
//! - **Waking**, on what the host does: a call that changes the body itself wakes it at once
//!   ([`Body::wake`]: material, dynamics, pin / unpin, teleport, reset, skinning, tethers, max
//!   distances, backstops); what moves it is checked once per host frame before the fixed
//!   steps ([`Body::wake_if_driven`]: pin targets, skinned pose or root different from last
//!   frame's, gravity different from when it fell asleep, wind on it), and the world checks
//!   colliders that moved, appeared, disappeared or changed layers against the bounds the
//!   body had when it fell asleep (`world::sleep`).

use super::Body;
use crate::math::Vec3;

/// A body's sleeping state.
#[derive(Clone, Copy, Debug, Default)]
pub struct Sleep {
    /// The body is asleep: the world does not step it.
    pub(crate) asleep: bool,
    /// Simulated time every particle has stayed below the threshold (s).
    still: f32,
    /// Whether this step may count towards sleeping (set in `begin_step`).
    may_sleep: bool,
    /// Length of the current fixed step (s).
    step_time: f32,
    /// Gravity the body felt in its last step (m/s², with its gravity scale).
    gravity: Vec3,
    /// Bounds of the particles when the body fell asleep, grown by the particle radius (m).
    pub(crate) lo: Vec3,
    pub(crate) hi: Vec3,
}

impl Body {
    /// Walks the sleeping state (`particles::state`).
    pub(super) fn sleep_io(&mut self, io: &mut impl crate::state::Io) {
        let s = &mut self.sleep;
        io.bool(&mut s.asleep);
        io.f32(&mut s.still);
        io.bool(&mut s.may_sleep);
        io.f32(&mut s.step_time);
        io.val(&mut s.gravity);
        io.val(&mut s.lo);
        io.val(&mut s.hi);
    }

    /// Asleep: not stepped until something wakes it.
    pub fn is_asleep(&self) -> bool {
        self.sleep.asleep
    }

    /// Wakes the body (anything the host changes on it); it needs `sleep_time` of stillness
    /// again before it sleeps.
    pub fn wake(&mut self) {
        self.sleep.asleep = false;
        self.sleep.still = 0.0;
    }

    /// Hook of `BeginStep`: what this step may count for sleeping.
    pub(super) fn sleep_begin(&mut self, step_time: f32, gravity: Vec3, paired: bool) {
        self.sleep.step_time = step_time;
        self.sleep.gravity = gravity;
        self.sleep.may_sleep = !paired && self.accel.is_empty();
    }

    /// Hook of `EndStep`: a step that had to be rolled back does not count as still.
    pub(super) fn sleep_disturbed(&mut self) {
        self.sleep.still = 0.0;
    }

    /// Hook of `EndStep`: measures the step's largest particle speed and puts the body to
    /// sleep after `sleep_time` below `sleep_threshold`.
    pub(super) fn settle(&mut self) {
        let (threshold, time) = (self.dynamics.sleep_threshold, self.dynamics.sleep_time);
        if !self.sleep.may_sleep || threshold <= 0.0 || time <= 0.0 {
            self.sleep.still = 0.0;
            return;
        }
        let reach = threshold * self.sleep.step_time;
        let reach2 = reach * reach;
        let moving = self.x.iter().zip(&self.x_step_start).any(|(a, b)| (*a - *b).length_squared() > reach2);
        if moving {
            self.sleep.still = 0.0;
            return;
        }
        self.sleep.still += self.sleep.step_time;
        if self.sleep.still >= time {
            self.fall_asleep();
        }
    }

    fn fall_asleep(&mut self) {
        self.sleep.asleep = true;
        self.v.fill(Vec3::ZERO);
        self.x_prev.copy_from_slice(&self.x);
        self.x_step_start.copy_from_slice(&self.x);
        let (lo, hi) = self.bounds();
        let r = Vec3::splat(self.material.thickness * self.scale);
        (self.sleep.lo, self.sleep.hi) = (lo - r, hi + r);
    }

    /// Once per host frame, before its fixed steps: wakes a sleeping body that the host
    /// drives this frame — pin targets, skinned pose or root moved since last frame, gravity
    /// changed (`gravity` is the world's), or wind blows on it.
    pub fn wake_if_driven(&mut self, gravity: Vec3, wind_speed: f32) {
        if !self.sleep.asleep {
            return;
        }
        let d = &self.dynamics;
        let wind = wind_speed > 0.0 && d.wind_scale > 0.0 && (d.drag > 0.0 || d.lift > 0.0);
        // In an anchor the inputs' start points were carried with it: what moved is what
        // moved relative to the anchor, beyond the carry's round-off.
        let anchored = self.anchor.is_some();
        let moved = |a: &Vec3, b: &Vec3| if anchored { !near(*a, *b) } else { a != b };
        let pins = self.pins.from.iter().zip(&self.pins.to).any(|(a, b)| moved(a, b));
        let skin = self.skin.as_ref().is_some_and(|s| s.posed && s.from.iter().zip(&s.to).any(|(a, b)| moved(a, b)));
        let root = self.root.is_some_and(|r| {
            if anchored {
                !near(r.from.position, r.to.position) || (r.from.rotation.inverse() * r.to.rotation).xyz().length() > 1e-6 || r.from.scale != r.to.scale
            } else {
                r.from != r.to
            }
        });
        if wind || pins || skin || root || gravity * self.material.gravity_scale != self.sleep.gravity {
            self.wake();
        }
    }
}

/// Equal to the round-off of a rigid carry: within 1e-6 of the larger coordinate's size
/// (8 float steps), at least 1e-6 m.
fn near(a: Vec3, b: Vec3) -> bool {
    let size = a.abs().max_element().max(b.abs().max_element()).max(1.0);
    (a - b).abs().max_element() <= 1e-6 * size
}
