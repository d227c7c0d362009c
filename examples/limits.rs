//! The grid kernel against this CPU's limits (docs/performance.md, "Near the machine's
//! limit"): the throughput of the operations a projection is made of, measured, and the
//! kernel's own time per projection in the same run.
//!
//! ```text
//! cargo run --release --example limits [-- COLUMNS]     (default 64)
//! ```
//!
//! Each operation runs in a loop of independent chains (12 registers, so that throughput is
//! measured, not latency), and once as a single chain (its latency). Best of 30 trials, in
//! ns per instruction. Every 256-bit figure is measured twice: compiled for AVX2 (16
//! registers) and for AVX-512VL (32 registers, the same 8-lane instructions), as the grid
//! kernel is; the 512-bit square root and division are given for comparison. The clock is
//! estimated from the latency of a dependent `vaddps` (3 cycles on the cores this runs on;
//! an estimate, printed as such). One line `scene=LIMITS …` per figure, then the kernel's
//! runs (as `examples/grid_kernel.rs`) and the bounds per projection.

use std::hint::black_box;
use std::time::Instant;

#[cfg(target_arch = "x86_64")]
use std::arch::x86_64::*;

use sinew::cloth::grid_topology;
use sinew::math::Vec3;
use sinew::solver::constraints::grid_simd;
use sinew::solver::layout::soa::Soa;

/// Independent chains per loop iteration, iterations per trial, trials.
const CHAINS: usize = 12;
const ITERS: usize = 20_000;
const TRIALS: usize = 30;

fn best_of<R>(trials: usize, mut f: impl FnMut() -> R) -> f64 {
    let mut best = f64::MAX;
    for _ in 0..trials {
        let t = Instant::now();
        black_box(f());
        best = best.min(t.elapsed().as_secs_f64());
    }
    best
}

/// One measured figure: ns per instruction (per pair where `per` says so).
fn line(name: &str, isa: &str, ns: f64, ghz: Option<f64>) {
    let cycles = ghz.map_or(String::new(), |g| format!(" cycles={:.2}", ns * g));
    println!("scene=LIMITS op={name} isa={isa} ns={ns:.3}{cycles}");
}

#[cfg(target_arch = "x86_64")]
mod ops {
    use super::*;

    /// The bodies of the measured loops, generic over the ISA they are compiled for.
    macro_rules! kernels {
        ($m:ident, $features:literal) => {
            pub mod $m {
                use super::*;

                /// `CHAINS` independent square roots per iteration (`chains` = 1: latency).
                #[target_feature(enable = $features)]
                pub unsafe fn sqrt(chains: usize) -> __m256 {
                    let mut v = [_mm256_set1_ps(1.7); CHAINS];
                    if chains == 1 {
                        for _ in 0..ITERS * CHAINS {
                            v[0] = _mm256_sqrt_ps(v[0]);
                        }
                    } else {
                        for _ in 0..ITERS {
                            for r in v.iter_mut() {
                                *r = _mm256_sqrt_ps(*r);
                            }
                        }
                    }
                    v.iter().fold(_mm256_setzero_ps(), |a, &b| _mm256_add_ps(a, b))
                }

                /// Divisions `k / v` (values alternate between two finite numbers).
                #[target_feature(enable = $features)]
                pub unsafe fn div(chains: usize) -> __m256 {
                    let k = _mm256_set1_ps(black_box(1.3));
                    let mut v = [_mm256_set1_ps(1.7); CHAINS];
                    if chains == 1 {
                        for _ in 0..ITERS * CHAINS {
                            v[0] = _mm256_div_ps(k, v[0]);
                        }
                    } else {
                        for _ in 0..ITERS {
                            for r in v.iter_mut() {
                                *r = _mm256_div_ps(k, *r);
                            }
                        }
                    }
                    v.iter().fold(_mm256_setzero_ps(), |a, &b| _mm256_add_ps(a, b))
                }

                /// One square root and one division per chain: what a group projects with.
                #[target_feature(enable = $features)]
                pub unsafe fn sqrt_div() -> __m256 {
                    let k = _mm256_set1_ps(black_box(1.3));
                    let mut s = [_mm256_set1_ps(1.7); CHAINS / 2];
                    let mut d = [_mm256_set1_ps(1.7); CHAINS / 2];
                    for _ in 0..ITERS * 2 {
                        for i in 0..CHAINS / 2 {
                            s[i] = _mm256_sqrt_ps(s[i]);
                            d[i] = _mm256_div_ps(k, d[i]);
                        }
                    }
                    s.iter().chain(&d).fold(_mm256_setzero_ps(), |a, &b| _mm256_add_ps(a, b))
                }

                /// Additions; `chains` = 1 gives the latency the clock is estimated from.
                #[target_feature(enable = $features)]
                pub unsafe fn add(chains: usize) -> __m256 {
                    let k = _mm256_set1_ps(black_box(1e-7));
                    let mut v = [_mm256_set1_ps(1.0); CHAINS];
                    if chains == 1 {
                        for _ in 0..ITERS * CHAINS {
                            v[0] = _mm256_add_ps(v[0], k);
                        }
                    } else {
                        for _ in 0..ITERS {
                            for r in v.iter_mut() {
                                *r = _mm256_add_ps(*r, k);
                            }
                        }
                    }
                    v.iter().fold(_mm256_setzero_ps(), |a, &b| _mm256_add_ps(a, b))
                }

                /// 256-bit loads from a buffer in L1 (12 per iteration, each into its own sum
                /// every 4th, so that the additions do not bound it).
                #[target_feature(enable = $features)]
                pub unsafe fn load(buf: &[f32]) -> __m256 {
                    assert!(buf.len() >= 608);
                    let p = buf.as_ptr();
                    let mut acc = [_mm256_setzero_ps(); 4];
                    for it in 0..ITERS {
                        let base = (it * 8) & 511;
                        let mut v = [_mm256_setzero_ps(); CHAINS];
                        for (i, r) in v.iter_mut().enumerate() {
                            // SAFETY: `base + 8 * CHAINS <= 608 <= buf.len()`.
                            *r = unsafe { _mm256_loadu_ps(p.add(base + 8 * i)) };
                        }
                        for (i, a) in acc.iter_mut().enumerate() {
                            *a = _mm256_add_ps(*a, _mm256_max_ps(_mm256_max_ps(v[i], v[i + 4]), v[i + 8]));
                        }
                    }
                    acc.iter().fold(_mm256_setzero_ps(), |a, &b| _mm256_add_ps(a, b))
                }

                /// 256-bit stores to a buffer in L1, 12 per iteration.
                #[target_feature(enable = $features)]
                pub unsafe fn store(buf: &mut [f32]) {
                    assert!(buf.len() >= 608);
                    let p = buf.as_mut_ptr();
                    let v = _mm256_set1_ps(black_box(2.0));
                    for it in 0..ITERS {
                        let base = (it * 8) & 511;
                        for i in 0..CHAINS {
                            // SAFETY: as in `load`.
                            unsafe { _mm256_storeu_ps(p.add(base + 8 * i), v) };
                        }
                    }
                }
            }
        };
    }

    /// The arithmetic of one projection of 8 lanes (`grid_simd`'s `project`, rigid, every
    /// lane valid), on positions `p` = [xa, ya, za, xb, yb, zb] held in registers.
    #[inline]
    #[target_feature(enable = "avx2,fma,avx512f,avx512vl")]
    pub unsafe fn project(p: &mut [__m256; 6], wa: __m256, wb: __m256, rest: __m256) {
        let (dx, dy, dz) = (_mm256_sub_ps(p[3], p[0]), _mm256_sub_ps(p[4], p[1]), _mm256_sub_ps(p[5], p[2]));
        let len = _mm256_sqrt_ps(_mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(dx, dx), _mm256_mul_ps(dy, dy)), _mm256_mul_ps(dz, dz)));
        let zero = _mm256_setzero_ps();
        let valid = _mm256_cmp_ps::<_CMP_GE_OQ>(len, _mm256_set1_ps(1e-9));
        let cval = _mm256_sub_ps(len, rest);
        let denom = _mm256_add_ps(_mm256_add_ps(wa, wb), zero);
        let num = _mm256_sub_ps(zero, cval);
        let ok = _mm256_and_ps(valid, _mm256_cmp_ps::<_CMP_GT_OQ>(denom, _mm256_set1_ps(1e-9)));
        let q = _mm256_and_ps(_mm256_div_ps(num, _mm256_mul_ps(denom, len)), ok);
        let (sa, sb) = (_mm256_mul_ps(wa, q), _mm256_mul_ps(wb, q));
        p[0] = _mm256_sub_ps(p[0], _mm256_mul_ps(dx, sa));
        p[1] = _mm256_sub_ps(p[1], _mm256_mul_ps(dy, sa));
        p[2] = _mm256_sub_ps(p[2], _mm256_mul_ps(dz, sa));
        p[3] = _mm256_add_ps(p[3], _mm256_mul_ps(dx, sb));
        p[4] = _mm256_add_ps(p[4], _mm256_mul_ps(dy, sb));
        p[5] = _mm256_add_ps(p[5], _mm256_mul_ps(dz, sb));
    }

    /// `G` independent groups projected over and over (each on its own result: one chain per
    /// group), no memory: the arithmetic's latency (`G` = 1) and how far interleaving hides it.
    #[target_feature(enable = "avx2,fma,avx512f,avx512vl")]
    pub unsafe fn projections<const G: usize>(iters: usize) -> __m256 {
        let (wa, wb, rest) = (_mm256_set1_ps(black_box(1.0)), _mm256_set1_ps(black_box(1.0)), _mm256_set1_ps(black_box(0.05)));
        let mut g = [[_mm256_setzero_ps(); 6]; G];
        for (i, p) in g.iter_mut().enumerate() {
            p[3] = _mm256_set1_ps(0.051 + i as f32 * 1e-4);
            p[4] = _mm256_set1_ps(0.002);
        }
        for _ in 0..iters {
            for p in g.iter_mut() {
                unsafe { project(p, wa, wb, rest) };
            }
        }
        g.iter().fold(_mm256_setzero_ps(), |a, p| _mm256_add_ps(a, p[3]))
    }

    kernels!(avx2, "avx2,fma");
    kernels!(avx512vl, "avx2,fma,avx512f,avx512vl");

    /// 512-bit square roots and divisions, independent chains.
    #[target_feature(enable = "avx512f")]
    pub unsafe fn sqrt_div_512() -> (__m512, __m512) {
        let k = _mm512_set1_ps(black_box(1.3));
        let mut s = [_mm512_set1_ps(1.7); CHAINS / 2];
        let mut d = [_mm512_set1_ps(1.7); CHAINS / 2];
        for _ in 0..ITERS * 2 {
            for i in 0..CHAINS / 2 {
                s[i] = _mm512_sqrt_ps(s[i]);
                d[i] = _mm512_div_ps(k, d[i]);
            }
        }
        (s.iter().fold(_mm512_setzero_ps(), |a, &b| _mm512_add_ps(a, b)), d.iter().fold(_mm512_setzero_ps(), |a, &b| _mm512_add_ps(a, b)))
    }
}

/// The grid kernel: ns per projection, run by run and over a whole iteration (best of 60).
fn kernel(n: u32) -> (f64, Vec<(String, usize, f64)>) {
    let topo = grid_topology(n, n, 0.05).expect("valid grid");
    let layout = topo.grid.clone().expect("grids carry their layout");
    let k = &topo.constraints;
    let count = topo.particle_count;
    // Slightly disturbed rest positions, the first row pinned (as S1).
    let x: Vec<Vec3> = (0..count).map(|i| topo.rest[i] + Vec3::new((i as f32 * 0.37).sin(), (i as f32 * 0.11).cos(), (i as f32 * 0.23).sin()) * 0.003).collect();
    let w: Vec<f32> = (0..count).map(|i| if i < n as usize { 0.0 } else { 1.0 }).collect();
    let mut soa = Soa::default();
    soa.load(&x, &w);
    let mut lambda = vec![0.0f32; k.len()];
    let rigid = [0.0f32; 3];
    let mut runs = Vec::new();
    for (b, run) in k.batches.iter().zip(&layout.runs) {
        let range = b.start as usize..b.end as usize;
        // SAFETY: AVX checked by the caller; `k` is this grid's own constraints.
        let t = best_of(60, || {
            for _ in 0..40 {
                unsafe { grid_simd::solve_run(&layout, *run, &mut soa, k, range.clone(), &mut lambda, &rigid, 1.0) }
            }
        }) / 40.0;
        runs.push((format!("{run:?}"), range.len(), t * 1e9 / range.len() as f64));
    }
    let t = best_of(60, || {
        for _ in 0..40 {
            for (b, run) in k.batches.iter().zip(&layout.runs) {
                // SAFETY: as above.
                unsafe { grid_simd::solve_run(&layout, *run, &mut soa, k, b.start as usize..b.end as usize, &mut lambda, &rigid, 1.0) };
            }
        }
    }) / 40.0;
    (t * 1e9 / k.len() as f64, runs)
}

#[cfg(target_arch = "x86_64")]
fn main() {
    let n: u32 = std::env::args().nth(1).map_or(64, |s| s.parse().expect("COLUMNS is a number"));
    if !(is_x86_feature_detected!("avx2") && is_x86_feature_detected!("fma") && grid_simd::supported()) {
        eprintln!("this CPU has no AVX2: nothing to measure");
        return;
    }
    let avx512 = is_x86_feature_detected!("avx512f") && is_x86_feature_detected!("avx512vl");
    let per = |t: f64, ops: usize| t * 1e9 / ops as f64;
    let total = ITERS * CHAINS;
    // SAFETY (every call below): the features each function enables were detected above.
    let lat_add = per(best_of(TRIALS, || black_box(unsafe { ops::avx2::add(1) })), total);
    let ghz = 3.0 / lat_add;
    println!("scene=LIMITS op=clock ghz_estimate={ghz:.2} (3-cycle vaddps latency {lat_add:.3} ns)");
    let mut isas: Vec<&str> = vec!["avx2"];
    if avx512 {
        isas.push("avx512vl");
    }
    let mut pair_ns = Vec::new();
    let mut load_ns = f64::MAX;
    let mut store_ns = f64::MAX;
    // 64-byte aligned, so that no access splits a cache line.
    let mut backing = vec![1.0f32; 1024 + 16];
    let skip = backing.as_ptr().align_offset(64);
    let buf = &mut backing[skip..skip + 1024];
    for isa in isas {
        let v = isa == "avx512vl";
        macro_rules! call {
            ($f:ident $(, $a:expr)*) => {
                if v { unsafe { ops::avx512vl::$f($($a),*) } } else { unsafe { ops::avx2::$f($($a),*) } }
            };
        }
        line("vsqrtps_ymm_throughput", isa, per(best_of(TRIALS, || black_box(call!(sqrt, CHAINS))), total), Some(ghz));
        line("vsqrtps_ymm_latency", isa, per(best_of(TRIALS, || black_box(call!(sqrt, 1))), total), Some(ghz));
        line("vdivps_ymm_throughput", isa, per(best_of(TRIALS, || black_box(call!(div, CHAINS))), total), Some(ghz));
        line("vdivps_ymm_latency", isa, per(best_of(TRIALS, || black_box(call!(div, 1))), total), Some(ghz));
        let pair = per(best_of(TRIALS, || black_box(call!(sqrt_div))), total);
        line("sqrt+div_ymm_pair_throughput", isa, pair, Some(ghz));
        pair_ns.push((isa, pair));
        line("vaddps_ymm_throughput", isa, per(best_of(TRIALS, || black_box(call!(add, CHAINS))), total), Some(ghz));
        let l = per(best_of(TRIALS, || black_box(call!(load, buf))), total);
        line("load_ymm_throughput", isa, l, Some(ghz));
        let s = per(best_of(TRIALS, || call!(store, buf)), total);
        line("store_ymm_throughput", isa, s, Some(ghz));
        black_box(&*buf);
        load_ns = load_ns.min(l);
        store_ns = store_ns.min(s);
    }
    if avx512 {
        line("sqrt+div_zmm_pair_throughput", "avx512f", per(best_of(TRIALS, || black_box(unsafe { ops::sqrt_div_512() })), total), Some(ghz));
    }
    if avx512 {
        // Projections per second with 1, 2, 4 and 8 independent groups in flight.
        let model = |g: usize| {
            let iters = ITERS * 4 / g;
            let t = best_of(TRIALS, || {
                // SAFETY: AVX-512VL detected above.
                black_box(unsafe {
                    match g {
                        1 => ops::projections::<1>(iters),
                        2 => ops::projections::<2>(iters),
                        4 => ops::projections::<4>(iters),
                        _ => ops::projections::<8>(iters),
                    }
                });
            });
            t * 1e9 / (iters * g * 8) as f64
        };
        for g in [1, 2, 4, 8] {
            let ns = model(g);
            println!("scene=LIMITS op=projection_in_registers groups_in_flight={g} ns_per_projection={ns:.3} cycles_per_group={:.1}", ns * 8.0 * ghz);
        }
    }
    let (iteration, runs) = kernel(n);
    for (run, len, ns) in &runs {
        println!("scene=LIMITS op=kernel run={run} constraints={len} ns_per_projection={ns:.3}");
    }
    println!("scene=LIMITS op=kernel run=iteration grid={n}x{n} ns_per_projection={iteration:.3} isa={:?}", grid_simd::GridIsa::best());
    // Bounds per projection: a group of 8 takes one square root and one division; a
    // contiguous group loads 9 vectors (x, y, z, w of both ends, the rest lengths) and
    // stores 6, a strided one as many (its shuffles are ALU work).
    let pair = pair_ns.iter().map(|p| p.1).fold(f64::MAX, f64::min);
    let sqrt_div_bound = pair / 8.0;
    let memory_bound = (9.0 * load_ns).max(6.0 * store_ns) / 8.0;
    println!(
        "scene=LIMITS op=bounds ns_per_projection={iteration:.3} sqrt_div_bound={sqrt_div_bound:.3} load_store_bound={memory_bound:.3} kernel_over_sqrt_div={:.2} kernel_over_load_store={:.2}",
        iteration / sqrt_div_bound,
        iteration / memory_bound
    );
}

#[cfg(not(target_arch = "x86_64"))]
fn main() {
    eprintln!("the limits measured here are x86_64's");
}
