//! Found by the `cook_soft` fuzz target (fuzz/corpus/cook_soft/regression-soft-mesh-keeps-no-cube):
//! a "closed mesh" for `sinew_softbody_create_from_mesh` whose every triangle is one vertex
//! repeated, at the corner of the mesh's bounds, kept no cube of the lattice (no cube centre
//! within half a diagonal of a triangle, no winding), and the embedding's search for the
//! nearest kept cube panicked: SINEW_PANIC at the boundary. Such a mesh is now refused with
//! SINEW_INVALID_ARGUMENT, and nothing is created.

mod common;
use common::*;
mod soft_common;
use soft_common::*;

#[test]
fn a_mesh_that_keeps_no_cube_is_refused() {
    let w = create_world(&world_desc());
    let s = 0.08872895f32;
    let far = 19.074219f32;
    let positions = [v3(0.0, 0.0, 0.0), v3(s, 0.0, 0.0), v3(2.0 * s, 0.0, 0.0), v3(3.0 * s, 0.0, 0.0), v3(far, far, far), v3(0.0, 0.0, s), v3(s, 0.0, s), v3(2.0 * s, 0.0, s)];
    let indices = [4u32; 24];
    let mut d = std::mem::MaybeUninit::uninit();
    ok(sinew_soft_mesh_desc_default(d.as_mut_ptr()));
    // SAFETY: just filled.
    let mut d = unsafe { d.assume_init() };
    (d.positions, d.vertex_count, d.indices, d.index_count) = (positions.as_ptr(), positions.len(), indices.as_ptr(), indices.len());
    (d.resolution, d.cluster_cells) = (6, 1);
    let mut b = SinewBody::default();
    let r = sinew_softbody_create_from_mesh(w, &d, &mut b);
    assert_eq!(r, SINEW_INVALID_ARGUMENT, "{}", last_error());
    assert!(last_error().contains("keeps no cube"), "{}", last_error());
    assert_eq!(b.id, 0, "a refused create wrote its output");
    let mut stats = SinewWorldStats::default();
    ok(sinew_world_get_stats(w, &mut stats));
    assert_eq!(stats.body_count, 0);
    // The same vertices with a closed surface (the tetrahedron over vertices 0, 1, 5, 4)
    // are accepted.
    let tet = [0u32, 5, 1, 0, 1, 4, 1, 5, 4, 0, 4, 5];
    (d.indices, d.index_count) = (tet.as_ptr(), tet.len());
    ok(sinew_softbody_create_from_mesh(w, &d, &mut b));
    ok(sinew_world_step(w, 1.0 / 60.0));
    ok(sinew_world_destroy(w));
}
