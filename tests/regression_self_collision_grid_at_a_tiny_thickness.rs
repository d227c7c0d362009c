//! Regression (fuzz, `cook_soft`, 1.5M executions): a self-colliding body whose particles
//! coincide (a lattice of 1e-5 m spacing 1e6 m from the origin, where `f32` positions are
//! 0.06 m apart) with a thickness of 1e-45 m (valid: thickness is in [0, 1]) panicked in its
//! first step: the self-collision grid's cells were as narrow as the search distance, the
//! cell scale 1/1e-45 overflowed to infinity, and the grid put its own particles at NaN
//! ("inside its own bounds", `SINEW_PANIC`). Cells are now at least 1e-30 m wide (wider cells
//! find the same pairs).

mod common;
use common::*;
mod soft_common;
use soft_common::*;

#[test]
fn a_self_colliding_body_of_coincident_particles_and_a_tiny_thickness_steps() {
    for (origin, thickness) in [(-1e6f32, 1e-45f32), (-1e6, f32::MIN_POSITIVE), (0.0, 1e-45)] {
        let w = create_world(&world_desc());
        let mut d = lattice_desc();
        (d.nx, d.ny, d.nz) = (3, 3, 2);
        d.spacing = 1.0560034e-5;
        d.origin = v3(origin, origin, origin);
        d.material.thickness = thickness;
        d.material.self_collision = 1;
        let b = create_lattice(w, &d);
        for frame in 0..10 {
            let r = sinew_world_step(w, 1.0 / 60.0);
            assert_eq!(r, SINEW_OK, "origin {origin}, thickness {thickness:e}, frame {frame}: {}", last_error());
        }
        let p = read_positions(b);
        assert!(p.iter().all(|q| q.x.is_finite() && q.y.is_finite() && q.z.is_finite()), "a readback is not finite");
        ok(sinew_world_destroy(w));
    }
}
