//! Neo-Hookean soft bodies through the C ABI: after warm-up, their steps allocate nothing,
//! with the material changed between frames from one Young's modulus to another (its
//! per-body state is built when the modulus is first set, never per step).

mod common;
use common::*;
mod soft_common;
use soft_common::*;

mod counting;

#[global_allocator]
static GLOBAL: counting::Counting = counting::Counting;

fn solid_jelly(w: SinewWorld, e: f32, at: SinewVec3) -> SinewBody {
    let mut d = jelly_desc(5, 0.025, at, 0);
    d.material.density = 1000.0;
    d.material.youngs_modulus = e;
    d.material.poisson_ratio = 0.45;
    create_lattice(w, &d)
}

fn get_material(b: SinewBody) -> SinewMaterial {
    let mut m = std::mem::MaybeUninit::uninit();
    ok(sinew_body_get_material(b, m.as_mut_ptr()));
    unsafe { m.assume_init() }
}

#[test]
fn neo_hookean_steps_allocate_nothing_after_warm_up() {
    let mut wd = world_desc();
    wd.thread_count = 1;
    let w = create_world(&wd);
    floor_plane(w);
    let a = solid_jelly(w, 2e4, v3(0.0, 0.1, 0.0));
    // A second jelly created plain and made a solid at run time, dropped onto the first.
    let b = solid_jelly(w, 0.0, v3(0.01, 0.3, 0.0));
    let mut m = get_material(b);
    m.youngs_modulus = 1e4;
    ok(sinew_body_set_material(b, &m));
    ok(sinew_body_set_collision_pair(a, b, 1));
    let mut dy = dynamics();
    dy.sleep_threshold = 0.0;
    for body in [a, b] {
        ok(sinew_body_set_dynamics(body, &dy));
    }
    let moduli = [get_material(a), SinewMaterial { youngs_modulus: 4e4, ..get_material(a) }];
    let mut x = vec![SinewVec3::default(); 125];
    // The material changes outside the counted calls: `set_material` with a density computes
    // the masses again (and allocates for it); the steps must not.
    let mut frame = |f: usize, count: bool| {
        ok(sinew_body_set_material(a, &moduli[f % 2]));
        if count {
            counting::start();
        }
        ok(sinew_world_step(w, 1.0 / 60.0));
        ok(sinew_body_read_positions(b, x.as_mut_ptr(), 125));
        if count { counting::stop() } else { 0 }
    };
    for f in 0..120 {
        frame(f, false);
    }
    let n: usize = (120..240).map(|f| frame(f, true)).sum();
    let (va, ra) = volume(a);
    let (vb, rb) = volume(b);
    println!("{n} heap allocations in 120 frames; volumes {:.4} and {:.4} of rest", va / ra, vb / rb);
    assert!(x.iter().all(|p| p.x.is_finite() && p.y.is_finite() && p.z.is_finite()));
    assert!((va / ra - 1.0).abs() < 0.05 && (vb / rb - 1.0).abs() < 0.05, "volumes {va}/{ra}, {vb}/{rb}");
    ok(sinew_world_destroy(w));
    assert_eq!(n, 0, "{n} heap allocations in 120 frames");
}
