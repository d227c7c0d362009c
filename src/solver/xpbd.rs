//! The one XPBD Lagrange multiplier update every constraint goes through.
//!
//! Macklin, Müller & Chentanez 2016, "XPBD: Position-Based Simulation of Compliant
//! Constrained Dynamics", eq. 18 with the damping term left out:
//!
//! ```text
//!   Δλ = (−C − α̃·λ) / (Σᵢ wᵢ·|∇ᵢC|² + α̃),      α̃ = α / h²
//! ```
//!
//! `α` is the compliance (inverse stiffness, m/N for a distance constraint), `h` the
//! substep, `λ` the multiplier accumulated over the iterations of this substep. With α = 0
//! this is the plain PBD projection.

use crate::math::WEIGHT_EPSILON;

/// `Δλ` for a constraint with value `c`, generalised inverse mass `w_sum` (Σ w|∇C|²),
/// scaled compliance `alpha_tilde` and multiplier `lambda` so far. Zero when nothing can
/// move (both ends pinned and α = 0).
#[inline(always)]
pub fn delta_lambda(c: f32, w_sum: f32, alpha_tilde: f32, lambda: f32) -> f32 {
    let denom = w_sum + alpha_tilde;
    if denom <= WEIGHT_EPSILON {
        return 0.0;
    }
    (-c - alpha_tilde * lambda) / denom
}

/// `Δλ / len`, computed with one division as `(−C − α̃·λ) / ((Σw + α̃)·len)`: the position
/// update `Δx = w·Δλ·d/len` then needs no second division. Zero when nothing can move.
#[inline(always)]
pub fn delta_lambda_over(c: f32, w_sum: f32, alpha_tilde: f32, lambda: f32, len: f32) -> f32 {
    let denom = w_sum + alpha_tilde;
    if denom <= WEIGHT_EPSILON {
        return 0.0;
    }
    (-c - alpha_tilde * lambda) / (denom * len)
}

/// `α̃ = α / h²`.
#[inline]
pub fn scaled_compliance(compliance: f32, h: f32) -> f32 {
    compliance / (h * h)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rigid_constraint_is_fully_corrected() {
        // Two free unit masses, constraint violated by 0.1: Δλ = −0.1 / 2.
        assert_eq!(delta_lambda(0.1, 2.0, 0.0, 0.0), -0.05);
    }

    #[test]
    fn two_pinned_ends_give_zero() {
        assert_eq!(delta_lambda(0.3, 0.0, 0.0, 0.0), 0.0);
    }

    #[test]
    fn compliance_softens_the_correction() {
        let rigid = delta_lambda(0.1, 1.0, 0.0, 0.0).abs();
        let soft = delta_lambda(0.1, 1.0, 1.0, 0.0).abs();
        assert!(soft < rigid);
        assert!((soft - 0.05).abs() < 1e-7);
    }
}
