//! The SIMD constraint kernels on cooked grids of awkward sizes, against the scalar kernel,
//! bit for bit. They live with the cooker because they need its grids; the kernels in
//! `solver/` take plain constraint arrays.

use super::grid_topology;
use crate::math::Vec3;
use crate::solver::constraints::distance;
use crate::solver::constraints::distance_simd::{Kernel, Packed, solve_batch};
#[cfg(target_arch = "x86_64")]
use crate::solver::constraints::grid_simd::{GridIsa, solve_run_chunk, supported};
#[cfg(target_arch = "x86_64")]
use crate::solver::layout::soa::Soa;

/// Every kernel gives the scalar reference's bits on a crumpled grid, with and without
/// compliance, including a disabled (a == b) constraint and a pinned particle.
#[test]
fn simd_kernels_match_the_scalar_kernel_bit_for_bit() {
    let topo = grid_topology(13, 11, 0.1).unwrap();
    let mut k = topo.constraints.clone();
    k.b[5] = k.a[5];
    let n = topo.particle_count;
    let x0: Vec<Vec3> = (0..n).map(|i| topo.rest[i] + Vec3::new((i as f32 * 0.37).sin(), (i as f32 * 0.11).cos(), (i as f32 * 0.23).sin()) * 0.03).collect();
    let mut w: Vec<f32> = (0..n).map(|i| 1.0 + (i % 3) as f32).collect();
    w[7] = 0.0;
    for at in [[0.0f32; 3], [0.0, 1e-3, 3e-2]] {
        let mut xs = x0.clone();
        let mut lam_s = vec![0.01f32; k.len()];
        for b in &k.batches {
            distance::solve(&mut xs, &w, &k, b.start as usize..b.end as usize, &mut lam_s, &at, 1.3);
        }
        for kernel in [Kernel::Scalar, Kernel::Sse2, Kernel::detect()] {
            let mut p: Vec<Packed> = x0.iter().zip(&w).map(|(x, w)| [x.x, x.y, x.z, *w]).collect();
            let mut lam = vec![0.01f32; k.len()];
            for b in &k.batches {
                // SAFETY: the grid's indices are its own particles'.
                unsafe { solve_batch(kernel, &mut p, &k, b.start as usize..b.end as usize, &mut lam, &at, 1.3) };
            }
            for i in 0..n {
                assert_eq!([p[i][0], p[i][1], p[i][2]].map(f32::to_bits), [xs[i].x, xs[i].y, xs[i].z].map(f32::to_bits), "{kernel:?} particle {i}");
            }
            assert_eq!(lam.iter().map(|v| v.to_bits()).collect::<Vec<_>>(), lam_s.iter().map(|v| v.to_bits()).collect::<Vec<_>>(), "{kernel:?}");
        }
    }
}

#[cfg(target_arch = "x86_64")]
/// Every grid run, on grids of awkward sizes, gives the scalar kernel's bits.
#[test]
fn grid_kernel_matches_the_scalar_kernel_bit_for_bit() {
    if !supported() {
        return;
    }
    for (cols, rows) in [(2, 2), (3, 5), (9, 9), (16, 3), (16, 16), (15, 7), (17, 17), (20, 20), (24, 5), (31, 4), (33, 9), (40, 3), (64, 6)] {
        let topo = grid_topology(cols, rows, 0.1).unwrap();
        let layout = topo.grid.clone().expect("grids carry their layout");
        assert_eq!(layout.runs.len(), topo.constraints.batches.len());
        let k = &topo.constraints;
        let n = topo.particle_count;
        let x0: Vec<Vec3> = (0..n).map(|i| topo.rest[i] + Vec3::new((i as f32 * 0.37).sin(), (i as f32 * 0.11).cos(), (i as f32 * 0.23).sin()) * 0.03).collect();
        let mut w: Vec<f32> = (0..n).map(|i| 1.0 + (i % 3) as f32).collect();
        w[n / 2] = 0.0;
        let isas = [GridIsa::Avx, GridIsa::Avx512].into_iter().filter(|&isa| isa == GridIsa::Avx || GridIsa::detect() == Some(GridIsa::Avx512));
        let cases = isas.flat_map(|isa| [(isa, [0.0f32; 3], false), (isa, [1e-3, 0.0, 3e-2], false), (isa, [1e-3, 0.0, 3e-2], true)]);
        for (isa, at, fresh) in cases {
            let mut xs = x0.clone();
            let mut lam_s = vec![0.01f32; k.len()];
            let mut soa = Soa::default();
            soa.load(&x0, &w);
            let mut lam = lam_s.clone();
            for (b, run) in k.batches.iter().zip(&layout.runs) {
                let r = b.start as usize..b.end as usize;
                // `fresh`: the kernel starts these multipliers from zero.
                if fresh {
                    lam_s[r.clone()].fill(0.0);
                }
                distance::solve(&mut xs, &w, k, r.clone(), &mut lam_s, &at, 1.2);
                // SAFETY: AVX checked above; the constraints are the grid's own.
                // Any number of chunks, done in any order, gives the whole run's bits.
                let chunks = 1 + (r.start / 7) % 4;
                for chunk in (0..chunks).rev() {
                    unsafe { solve_run_chunk(isa, &layout, *run, soa.ptr(), k, r.clone(), lam.as_mut_ptr(), &at, 1.2, fresh, chunk, chunks) };
                }
            }
            let mut out = vec![Vec3::ZERO; n];
            soa.store(&mut out);
            for i in 0..n {
                assert_eq!(out[i].to_array().map(f32::to_bits), xs[i].to_array().map(f32::to_bits), "{isa:?} {cols}x{rows} particle {i}");
            }
            for i in 0..k.len() {
                if at[k.kind[i] as usize] != 0.0 {
                    assert_eq!(lam[i].to_bits(), lam_s[i].to_bits(), "{isa:?} {cols}x{rows} lambda {i}");
                }
            }
        }
    }
}
