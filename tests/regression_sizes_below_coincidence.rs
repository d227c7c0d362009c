//! Regression (issue 30, documented ranges at their edges): sizes were documented as
//! `(0, 1000]` m, but the smallest positive ones made a body's particles coincide and were
//! refused with an unrelated message ("every triangle of the mesh is degenerate after
//! welding" for a cape 1e-45 m wide, "points 0 and 1 coincide" for a strand segment). Every
//! size checked by `error::check_length` is now `[1e-5, 1000]` m (`MIN_LENGTH`: ten times the
//! solver's coincidence distance), refused below with the size's own name, and the smallest
//! one is a body that steps.

mod common;

use common::*;

fn world() -> SinewWorld {
    let mut d = world_desc();
    d.thread_count = 1;
    create_world(&d)
}

fn cape_desc() -> SinewClothCapeDesc {
    let mut d = std::mem::MaybeUninit::uninit();
    ok(sinew_cloth_cape_desc_default(d.as_mut_ptr()));
    unsafe { d.assume_init() }
}

fn strands_desc() -> SinewStrandsDesc {
    let mut d = std::mem::MaybeUninit::uninit();
    ok(sinew_strands_desc_default(d.as_mut_ptr()));
    unsafe { d.assume_init() }
}

/// A creation call writing its handle.
type Create<'a> = dyn Fn(&mut SinewBody) -> SinewResult + 'a;

/// Steps the world and checks the body reads back finite.
fn steps_finite(w: SinewWorld, b: SinewBody) {
    for _ in 0..5 {
        ok(sinew_world_step(w, 1.0 / 60.0));
    }
    assert!(read_positions(b).iter().all(|p| p.x.is_finite() && p.y.is_finite() && p.z.is_finite()));
    assert_eq!(body_info(b).recoveries, 0);
}

#[test]
fn a_size_below_the_smallest_is_refused_by_its_name() {
    let w = world();
    let calls: [(&str, &Create); 4] = [
        ("cape width", &|out| sinew_cloth_create_cape(w, &SinewClothCapeDesc { width: f32::from_bits(1), ..cape_desc() }, out)),
        ("cape length", &|out| sinew_cloth_create_cape(w, &SinewClothCapeDesc { length: 1e-5f32.next_down(), ..cape_desc() }, out)),
        ("segment_length", &|out| sinew_strands_create(w, &SinewStrandsDesc { segment_length: f32::from_bits(1), ..strands_desc() }, out)),
        ("grid spacing", &|out| sinew_cloth_create_grid(w, &SinewClothGridDesc { spacing: 1e-5f32.next_down(), ..grid_desc() }, out)),
    ];
    for (name, call) in calls {
        let mut out = SinewBody::default();
        let r = call(&mut out);
        let m = last_error();
        assert_eq!(r, SINEW_INVALID_ARGUMENT, "{name}: {m}");
        assert!(m.contains(name) && m.contains("[1e-5, 1000] m"), "the refusal names {name} and its range: {m}");
        assert_eq!(out, SinewBody::default(), "{name}: a refused creation wrote a handle");
    }
    let mut stats = SinewWorldStats::default();
    ok(sinew_world_get_stats(w, &mut stats));
    assert_eq!(stats.body_count, 0);
    ok(sinew_world_destroy(w));
}

#[test]
fn the_smallest_sizes_make_bodies_that_step() {
    let w = world();
    let mut b = SinewBody::default();
    ok(sinew_cloth_create_cape(w, &SinewClothCapeDesc { width: 1e-5, length: 1e-5, columns: 3, rows: 3, ..cape_desc() }, &mut b));
    steps_finite(w, b);
    ok(sinew_strands_create(w, &SinewStrandsDesc { segment_length: 1e-5, ..strands_desc() }, &mut b));
    steps_finite(w, b);
    let mut gd = grid_desc();
    (gd.columns, gd.rows, gd.spacing) = (3, 3, 1e-5);
    ok(sinew_cloth_create_grid(w, &gd, &mut b));
    steps_finite(w, b);
    ok(sinew_world_destroy(w));
}
