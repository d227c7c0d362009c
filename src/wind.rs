//! The world's wind: a mean flow with gusts and turbulence from smooth space-time noise.
//!
//! `u(p, t) = d·U·(1 + g·n₁(t·f_g)) + U·τ·(n₂, n₃, n₄)(p/L + t·f_t)` where `d` is the
//! direction, `U` the speed, `g` the gust strength, `τ` the turbulence fraction, `L` the size
//! of turbulent eddies and `f` their frequencies. `nₖ` are value noises in [−1, 1] with
//! smoothstep interpolation over an integer lattice (4D: space and time), hashed from the
//! lattice coordinates only, so the field is the same for any thread count.

use crate::error::{Error, MAX_FACTOR, MAX_LENGTH, Result, check_non_negative, check_positive, check_within};
use crate::math::{Vec3, is_finite3};

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Wind {
    /// Direction the wind blows towards (normalised on set; zero for calm air).
    pub direction: Vec3,
    /// Mean speed (m/s).
    pub speed: f32,
    /// Turbulent velocity as a fraction of `speed`.
    pub turbulence: f32,
    /// Size of turbulent eddies (m).
    pub turbulence_scale: f32,
    /// How fast turbulence changes (Hz).
    pub turbulence_frequency: f32,
    /// Gust amplitude as a fraction of `speed`.
    pub gust_strength: f32,
    /// Gust frequency (Hz).
    pub gust_frequency: f32,
    /// Air density (kg/m³).
    pub air_density: f32,
}

impl Default for Wind {
    fn default() -> Self {
        Wind {
            direction: Vec3::X,
            speed: 0.0,
            turbulence: 0.3,
            turbulence_scale: 1.0,
            turbulence_frequency: 0.5,
            gust_strength: 0.3,
            gust_frequency: 0.2,
            air_density: 1.2,
        }
    }
}

/// The largest wind speed (m/s).
pub const MAX_WIND_SPEED: f32 = 1000.0;
/// The largest turbulence and gust frequency (Hz).
pub const MAX_WIND_FREQUENCY: f32 = 1e3;
/// The largest turbulence scale (m): a thousand times the largest size.
pub const MAX_TURBULENCE_SCALE: f32 = 1e3 * MAX_LENGTH;
/// The largest air density (kg/m³): water is 1000; a thousand times air's at most.
pub const MAX_AIR_DENSITY: f32 = 1e3;

impl Wind {
    pub fn validate(&mut self) -> Result<()> {
        if !is_finite3(self.direction) {
            return Err(Error::non_finite("wind direction is not finite"));
        }
        self.direction = self.direction.normalize_or_zero();
        check_non_negative(self.speed, "wind speed")?;
        if self.speed > 0.0 && self.direction == Vec3::ZERO {
            return Err(Error::invalid("wind direction must be nonzero when the speed is above 0"));
        }
        if self.speed > MAX_WIND_SPEED {
            return Err(Error::invalid(format!("wind speed must be at most {MAX_WIND_SPEED} m/s (got {})", self.speed)));
        }
        check_within(self.turbulence, MAX_FACTOR, "wind turbulence")?;
        check_positive(self.turbulence_scale, "wind turbulence_scale")?;
        check_within(self.turbulence_scale, MAX_TURBULENCE_SCALE, "wind turbulence_scale")?;
        check_within(self.turbulence_frequency, MAX_WIND_FREQUENCY, "wind turbulence_frequency")?;
        check_within(self.gust_strength, MAX_FACTOR, "wind gust_strength")?;
        check_within(self.gust_frequency, MAX_WIND_FREQUENCY, "wind gust_frequency")?;
        check_within(self.air_density, MAX_AIR_DENSITY, "wind air_density")?;
        Ok(())
    }

    /// Wind velocity (m/s) at `p` and time `t` (s).
    pub fn velocity(&self, p: Vec3, t: f32) -> Vec3 {
        self.at(t).velocity(p)
    }

    /// The wind at time `t` (s), to read at many points: the gust, the same everywhere, is
    /// computed once.
    pub fn at(&self, t: f32) -> WindAt {
        if self.speed == 0.0 {
            return WindAt { mean: Vec3::ZERO, turbulent: false, turbulence: 0.0, scale: 1.0, time: 0.0 };
        }
        let gust = 1.0 + self.gust_strength * noise4(0.0, 0.0, 0.0, t * self.gust_frequency, 0);
        WindAt {
            mean: self.direction * (self.speed * gust),
            turbulent: self.turbulence > 0.0,
            turbulence: self.speed * self.turbulence,
            scale: self.turbulence_scale,
            time: t * self.turbulence_frequency,
        }
    }
}

/// The wind at one time ([`Wind::at`]).
#[derive(Clone, Copy, Debug)]
pub struct WindAt {
    /// The gusting mean flow (m/s).
    mean: Vec3,
    /// Whether there is turbulence; its amplitude (m/s), length scale (m) and noise time.
    turbulent: bool,
    turbulence: f32,
    scale: f32,
    time: f32,
}

impl WindAt {
    /// Wind velocity (m/s) at `p`: the same bits as [`Wind::velocity`] at this time.
    #[inline]
    pub fn velocity(&self, p: Vec3) -> Vec3 {
        let mut u = self.mean;
        if self.turbulent {
            let q = p / self.scale;
            let [x, y, z] = noise4_three(q.x, q.y, q.z, self.time, [1, 2, 3]);
            u += Vec3::new(x, y, z) * self.turbulence;
        }
        u
    }
}

#[inline]
fn hash(x: i32, y: i32, z: i32, w: i32, seed: u32) -> f32 {
    finish_hash(lattice_hash(x, y, z, w) ^ seed.wrapping_mul(0x27d4_eb2d))
}

/// The seed-free part of [`hash`] at a lattice point.
#[inline]
fn lattice_hash(x: i32, y: i32, z: i32, w: i32) -> u32 {
    (x as u32).wrapping_mul(0x8da6_b343) ^ (y as u32).wrapping_mul(0xd816_3841) ^ (z as u32).wrapping_mul(0xcb1a_b31f) ^ (w as u32).wrapping_mul(0x1656_67b1)
}

#[inline]
fn finish_hash(mut h: u32) -> f32 {
    h ^= h >> 15;
    h = h.wrapping_mul(0x2c1b_3c6d);
    h ^= h >> 12;
    h = h.wrapping_mul(0x297a_2d39);
    h ^= h >> 15;
    (h as f32 / u32::MAX as f32) * 2.0 - 1.0
}

#[inline]
fn smooth(t: f32) -> f32 {
    t * t * (3.0 - 2.0 * t)
}

/// Value noise in [−1, 1] over (x, y, z, w), smooth in every coordinate.
pub fn noise4(x: f32, y: f32, z: f32, w: f32, seed: u32) -> f32 {
    let (fx, fy, fz, fw) = (x.floor(), y.floor(), z.floor(), w.floor());
    let (ix, iy, iz, iw) = (fx as i32, fy as i32, fz as i32, fw as i32);
    let (tx, ty, tz, tw) = (smooth(x - fx), smooth(y - fy), smooth(z - fz), smooth(w - fw));
    let mut acc = 0.0;
    for corner in 0..16 {
        let (dx, dy, dz, dw) = (corner & 1, (corner >> 1) & 1, (corner >> 2) & 1, (corner >> 3) & 1);
        let weight = (if dx == 1 { tx } else { 1.0 - tx })
            * (if dy == 1 { ty } else { 1.0 - ty })
            * (if dz == 1 { tz } else { 1.0 - tz })
            * (if dw == 1 { tw } else { 1.0 - tw });
        acc += weight * hash(ix.wrapping_add(dx), iy.wrapping_add(dy), iz.wrapping_add(dz), iw.wrapping_add(dw), seed);
    }
    acc
}

/// [`noise4`] at one point for three seeds, the corners' weights and lattice hashes shared:
/// the same bits as three calls.
#[inline]
fn noise4_three(x: f32, y: f32, z: f32, w: f32, seeds: [u32; 3]) -> [f32; 3] {
    let (fx, fy, fz, fw) = (x.floor(), y.floor(), z.floor(), w.floor());
    let (ix, iy, iz, iw) = (fx as i32, fy as i32, fz as i32, fw as i32);
    let (tx, ty, tz, tw) = (smooth(x - fx), smooth(y - fy), smooth(z - fz), smooth(w - fw));
    let salt = seeds.map(|s| s.wrapping_mul(0x27d4_eb2d));
    let mut acc = [0.0f32; 3];
    for corner in 0..16 {
        let (dx, dy, dz, dw) = (corner & 1, (corner >> 1) & 1, (corner >> 2) & 1, (corner >> 3) & 1);
        let weight = (if dx == 1 { tx } else { 1.0 - tx })
            * (if dy == 1 { ty } else { 1.0 - ty })
            * (if dz == 1 { tz } else { 1.0 - tz })
            * (if dw == 1 { tw } else { 1.0 - tw });
        let h = lattice_hash(ix.wrapping_add(dx), iy.wrapping_add(dy), iz.wrapping_add(dz), iw.wrapping_add(dw));
        for k in 0..3 {
            acc[k] += weight * finish_hash(h ^ salt[k]);
        }
    }
    acc
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn noise_is_bounded_and_continuous() {
        let mut prev = noise4(0.0, 0.3, 0.7, 0.0, 5);
        for k in 1..2000 {
            let t = k as f32 * 0.001;
            let n = noise4(t, 0.3, 0.7, t * 0.5, 5);
            assert!((-1.0..=1.0).contains(&n));
            assert!((n - prev).abs() < 0.01, "jump at {t}");
            prev = n;
        }
    }

    /// The three-seed noise and the wind read at one time give the bits of the one-seed
    /// noise and of `velocity` (the step reads the wind through them).
    #[test]
    fn shared_corners_give_the_same_bits() {
        let w = Wind { speed: 7.0, turbulence: 0.4, gust_strength: 0.3, ..Wind::default() };
        for k in 0..500 {
            let (x, y, z, t) = (k as f32 * 0.37 - 90.0, (k % 17) as f32 * -1.3, (k % 5) as f32 * 0.011, k as f32 * 0.05);
            let three = noise4_three(x, y, z, t, [1, 2, 3]);
            assert_eq!(three.map(f32::to_bits), [1, 2, 3].map(|s| noise4(x, y, z, t, s).to_bits()));
            let p = Vec3::new(x, y, z);
            let (a, b) = (w.velocity(p, t), w.at(t).velocity(p));
            let reference = {
                let gust = 1.0 + w.gust_strength * noise4(0.0, 0.0, 0.0, t * w.gust_frequency, 0);
                let q = p / w.turbulence_scale;
                let s = t * w.turbulence_frequency;
                w.direction * (w.speed * gust) + Vec3::new(noise4(q.x, q.y, q.z, s, 1), noise4(q.x, q.y, q.z, s, 2), noise4(q.x, q.y, q.z, s, 3)) * (w.speed * w.turbulence)
            };
            assert_eq!(a.to_array().map(f32::to_bits), reference.to_array().map(f32::to_bits));
            assert_eq!(b.to_array().map(f32::to_bits), reference.to_array().map(f32::to_bits));
        }
    }

    #[test]
    fn calm_air_is_still() {
        let w = Wind::default();
        assert_eq!(w.velocity(Vec3::new(1.0, 2.0, 3.0), 4.0), Vec3::ZERO);
    }
}
