//! Regression: a grid body whose substep leaves the structure-of-arrays layout for a pass
//! (tethers here) and then meets a sphere swept its particles from stale start positions —
//! the start positions stayed in the other layout — so the AVX path no longer gave the
//! scalar reference's bits. Found by the C client's kernel check (`tests/c/character.c`).

mod common;
use common::*;

fn run(kernel: u32, tethers: bool, sphere: bool) -> Vec<SinewVec3> {
    let mut wd = world_desc();
    (wd.substeps, wd.iterations, wd.thread_count, wd.interpolate, wd.kernel) = (4, 2, 2, 0, kernel);
    let w = create_world(&wd);
    let mut gd = grid_desc();
    (gd.columns, gd.rows, gd.spacing, gd.pin_mode) = (20, 20, 0.04, SinewPinMode::SINEW_PIN_TOP_CORNERS as u32);
    gd.material.stretch_compliance = 1e-6;
    let cloth = create_grid(w, &gd);
    if tethers {
        ok(sinew_body_set_tethers(cloth, SinewTetherMode::SINEW_TETHER_GEODESIC as u32, 1.1));
    }
    if sphere {
        let mut cd = collider_desc();
        cd.radius = 0.2;
        cd.transform = translation(0.05, -0.3, 0.1);
        create_collider(w, &cd);
    }
    for _ in 0..90 {
        ok(sinew_world_step(w, 1.0 / 60.0));
    }
    let x = read_positions(cloth);
    ok(sinew_world_destroy(w));
    x
}

fn bits(x: &[SinewVec3]) -> Vec<[u32; 3]> {
    x.iter().map(|p| [p.x.to_bits(), p.y.to_bits(), p.z.to_bits()]).collect()
}

#[test]
fn tethers_then_a_sphere_give_the_scalar_bits() {
    for (tethers, sphere) in [(true, true), (true, false), (false, true)] {
        let reference = run(SinewKernel::SINEW_KERNEL_SCALAR as u32, tethers, sphere);
        if sphere {
            // The cloth reached the sphere (radius 0.2 + particle radius): the contact ran.
            let on = reference.iter().filter(|p| dist(**p, v3(0.05, -0.3, 0.1)) < 0.22).count();
            assert!(on > 5, "the cloth must touch the sphere ({on})");
        }
        assert_eq!(bits(&run(SinewKernel::SINEW_KERNEL_AUTO as u32, tethers, sphere)), bits(&reference), "tethers {tethers}, sphere {sphere}");
    }
}
