//! Found by the `abi_calls` fuzz target (fuzz/corpus/abi_calls/regression-inverse-mass-below-range):
//! a mesh's per-vertex inverse masses were checked against [0, 1e9] 1/kg only, so a tiny
//! nonzero one (a subnormal such as 1e-40) was accepted: a particle of 1e40 kg, past f32
//! (the material's masses are bounded to [1e-9, 1e9] kg), and the body's centre of mass read
//! back NaN (inf / inf). An inverse mass must now be 0 (immovable) or within [1e-9, 1e9].

mod common;
use common::*;
use sinew::ffi::softbody::sinew_body_get_center_of_mass;

fn square(w: SinewWorld, inv: &[f32; 4]) -> (SinewResult, SinewBody) {
    // A 1 m square at height 2, welded nowhere.
    let pos = [v3(0.0, 2.0, 0.0), v3(1.0, 2.0, 0.0), v3(0.0, 2.0, 1.0), v3(1.0, 2.0, 1.0)];
    let idx = [0u32, 2, 1, 1, 2, 3];
    let mut d = mesh_desc();
    (d.positions, d.vertex_count, d.indices, d.index_count) = (pos.as_ptr(), 4, idx.as_ptr(), 6);
    (d.inverse_masses, d.inverse_mass_count) = (inv.as_ptr(), 4);
    d.weld_distance = 0.0;
    let mut b = SinewBody::default();
    (sinew_cloth_create_mesh(w, &d, &mut b), b)
}

#[test]
fn an_inverse_mass_below_the_mass_range_is_refused() {
    let w = create_world(&world_desc());
    for tiny in [1e-40f32, f32::MIN_POSITIVE, 1e-10] {
        let (r, b) = square(w, &[1.0, tiny, 1.0, 1.0]);
        assert_eq!(r, SINEW_INVALID_ARGUMENT, "inverse mass {tiny:e} was accepted");
        assert!(last_error().contains("inverse mass 1"), "{}", last_error());
        assert_eq!(b.id, 0, "a refused create wrote its output");
    }
    // The edges of the range are accepted, and the centre of mass is the mass-weighted mean:
    // masses 1e9, 1, 1, 1 kg at (0,0), (1,0), (0,1), (1,1) in x, z (0 is immovable and is not
    // one of them here).
    let (r, b) = square(w, &[1e-9, 1.0, 1.0, 1.0]);
    ok(r);
    let mut c = v3(f32::NAN, f32::NAN, f32::NAN);
    ok(sinew_body_get_center_of_mass(b, &mut c));
    let expect = 2.0 / (1e9 + 3.0);
    assert!((c.x - expect).abs() < 1e-6 && (c.z - expect).abs() < 1e-6 && (c.y - 2.0).abs() < 1e-6, "centre of mass {c:?}, expected ({expect}, 2, {expect})");
    let (r, _) = square(w, &[0.0, 1e9, 0.0, 1.0]);
    ok(r);
    for _ in 0..10 {
        ok(sinew_world_step(w, 1.0 / 60.0));
    }
    ok(sinew_body_get_center_of_mass(b, &mut c));
    assert!(c.x.is_finite() && c.y.is_finite() && c.z.is_finite(), "centre of mass {c:?} after steps");
    ok(sinew_world_destroy(w));
}
