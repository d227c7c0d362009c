//! The fast kernels against the scalar reference on scene S1 of docs/benchmarks.md (64 × 64 cloth,
//! spacing 0.05 m, row 0 pinned, all constraints rigid, 10 substeps, 300 steps of 1/60 s):
//! within 1e-5 m — and in fact bit for bit, since they compute the same operations.

mod common;
use common::*;

fn s1(kernel: u32) -> Vec<SinewVec3> {
    let mut wd = world_desc();
    wd.kernel = kernel;
    wd.substeps = 10;
    wd.iterations = 1;
    wd.interpolate = 0;
    wd.thread_count = 1;
    let w = create_world(&wd);
    let mut gd = grid_desc();
    gd.columns = 64;
    gd.rows = 64;
    gd.spacing = 0.05;
    gd.material.bend_compliance = 0.0;
    gd.material.damping = 0.0;
    let cloth = create_grid(w, &gd);
    for _ in 0..300 {
        ok(sinew_world_step(w, 1.0 / 60.0));
    }
    let p = read_positions(cloth);
    ok(sinew_world_destroy(w));
    p
}

#[test]
fn fast_kernels_match_the_scalar_reference_on_s1() {
    let reference = s1(SinewKernel::SINEW_KERNEL_SCALAR as u32);
    for kernel in [SinewKernel::SINEW_KERNEL_SSE2 as u32, SinewKernel::SINEW_KERNEL_AUTO as u32] {
        let fast = s1(kernel);
        let worst = reference.iter().zip(&fast).map(|(a, b)| dist(*a, *b)).fold(0.0f32, f32::max);
        assert!(worst <= 1e-5, "kernel {kernel}: {worst} m from the scalar reference after 300 steps");
        assert_eq!(reference, fast, "kernel {kernel}: the same operations should give the same bits");
    }
    // The scene really moved: the free edge fell.
    assert!(reference.iter().map(|p| p.y).fold(f32::INFINITY, f32::min) < -1.0);
}
