//! Found by the `cook_soft` fuzz target (fuzz/corpus/cook_soft/regression-tet-repeats-a-corner):
//! a tetrahedron with a repeated corner ([8, 11, 4, 11], on positions 1e-7 m apart) passed the
//! degeneracy check, because the triple product of two equal edges rounds to about 1e-28 m³
//! in f32, above the check's 1e-12 · extent³ (1e-33 m³); the body was created with a distance
//! constraint joining particle 11 to itself. A tetrahedron that repeats a corner is now refused
//! with SINEW_INVALID_ARGUMENT, as the header says of a degenerate one, and nothing is created.

mod common;
use common::*;
mod soft_common;
use soft_common::*;

fn positions() -> [SinewVec3; 12] {
    [
        v3(0.0, 0.0, 0.0),
        v3(5.850861e-8, -9.90033e-8, 1.18164065e-8),
        v3(0.0, 0.0, 0.0),
        v3(7.5e-8, 0.0, 0.0),
        v3(1e-7, 0.0, 0.0),
        v3(0.0, 0.0, 2.5e-8),
        v3(2.5e-8, 0.0, 2.5e-8),
        v3(5e-8, 0.0, 2.5e-8),
        v3(7.5e-8, 0.0, 2.5e-8),
        v3(1e-7, 0.0, 2.5e-8),
        v3(0.0, 0.0, 0.0),
        v3(5.850861e-8, -9.90033e-8, 1.18164065e-8),
    ]
}

#[test]
fn a_tet_that_repeats_a_corner_is_refused() {
    let w = create_world(&world_desc());
    let p = positions();
    let (m, s) = (material(), soft_settings());
    for tet in [[8u32, 11, 4, 11], [8, 8, 4, 11], [11, 4, 11, 11]] {
        let mut b = SinewBody::default();
        let r = sinew_softbody_create_tets(w, p.as_ptr(), p.len(), tet.as_ptr(), 4, &m, &s, &mut b);
        assert_eq!(r, SINEW_INVALID_ARGUMENT, "{tet:?}: {}", last_error());
        assert!(last_error().contains("repeats a corner"), "{}", last_error());
        assert_eq!(b.id, 0, "a refused create wrote its output");
    }
    let mut stats = SinewWorldStats::default();
    ok(sinew_world_get_stats(w, &mut stats));
    assert_eq!(stats.body_count, 0);
    // Four distinct corners of the same positions (vertex 11 off the plane y = 0 of the
    // others) make a tetrahedron, accepted, and it steps.
    let tet = [8u32, 11, 4, 9];
    let mut b = SinewBody::default();
    ok(sinew_softbody_create_tets(w, p.as_ptr(), p.len(), tet.as_ptr(), 4, &m, &s, &mut b));
    ok(sinew_world_step(w, 1.0 / 60.0));
    ok(sinew_world_destroy(w));
}
