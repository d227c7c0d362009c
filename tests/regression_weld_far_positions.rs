//! Regression: welding a mesh with very large (but finite) positions overflowed the weld
//! grid's cell arithmetic and came back as SINEW_PANIC.

mod common;
use common::*;

/// Issue 11 (range checks): positions beyond the world's extent (±1e6 m) are now refused at
/// the call, with SINEW_INVALID_ARGUMENT — never SINEW_PANIC; at the edge of the extent the
/// mesh is created and welds nothing.
#[test]
fn mesh_with_huge_finite_positions_is_created() {
    let w = create_world(&world_desc());
    let idx = [0u32, 1, 2, 0, 2, 3];
    let mut md = mesh_desc();
    let huge = [v3(0.0, 0.0, 0.0), v3(1e20, 0.0, 0.0), v3(0.0, 0.0, 1e20), v3(-1e20, 0.0, -1e20)];
    md.positions = huge.as_ptr();
    md.vertex_count = huge.len();
    md.indices = idx.as_ptr();
    md.index_count = idx.len();
    let mut b = SinewBody::default();
    assert_eq!(sinew_cloth_create_mesh(w, &md, &mut b), SINEW_INVALID_ARGUMENT, "{}", last_error());
    let pos = [v3(0.0, 0.0, 0.0), v3(9.9e5, 0.0, 0.0), v3(0.0, 0.0, 9.9e5), v3(-9.9e5, 0.0, -9.9e5)];
    md.positions = pos.as_ptr();
    ok(sinew_cloth_create_mesh(w, &md, &mut b));
    let mut info = SinewBodyInfo::default();
    ok(sinew_body_get_info(b, &mut info));
    assert_eq!(info.particle_count, 4, "no vertices are close enough to weld");
    ok(sinew_world_step(w, 1.0 / 60.0));
    ok(sinew_world_destroy(w));
}
