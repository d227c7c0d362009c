//! Every `*_default` descriptor works as passed: an object created from the untouched
//! default exists, steps and stays finite (issue 11, part 7).

mod common;
use common::*;

fn filled<T>(f: extern "C" fn(*mut T) -> SinewResult) -> T {
    let mut d = std::mem::MaybeUninit::uninit();
    ok(f(d.as_mut_ptr()));
    unsafe { d.assume_init() }
}

#[track_caller]
fn created(what: &str, r: SinewResult) {
    assert_eq!(r, SINEW_OK, "creating a {what} from its untouched default: {}", last_error());
}

#[test]
fn an_object_made_from_each_default_descriptor_steps() {
    let world = create_world(&filled(sinew_world_desc_default));
    let mut bodies = Vec::new();
    let mut b = SinewBody::default();
    created("grid", sinew_cloth_create_grid(world, &filled(sinew_cloth_grid_desc_default), &mut b));
    bodies.push(("grid", b));
    created("mesh", sinew_cloth_create_mesh(world, &filled(sinew_cloth_mesh_desc_default), &mut b));
    bodies.push(("mesh", b));
    created("rope", sinew_rope_create(world, &filled(sinew_rope_desc_default), &mut b));
    bodies.push(("rope", b));
    created("strands", sinew_strands_create(world, &filled(sinew_strands_desc_default), &mut b));
    bodies.push(("strands", b));
    created("cape", sinew_cloth_create_cape(world, &filled(sinew_cloth_cape_desc_default), &mut b));
    bodies.push(("cape", b));
    created("skirt", sinew_cloth_create_skirt(world, &filled(sinew_cloth_skirt_desc_default), &mut b));
    bodies.push(("skirt", b));
    // The collider default is a sphere; every other shape from the same untouched sizes.
    for shape in [(SinewShape::SINEW_SHAPE_SPHERE as u32), SinewShape::SINEW_SHAPE_CAPSULE as u32, (SinewShape::SINEW_SHAPE_PLANE as u32), (SinewShape::SINEW_SHAPE_BOX as u32)] {
        let mut d = filled(sinew_collider_desc_default);
        if shape != (SinewShape::SINEW_SHAPE_SPHERE as u32) {
            d.shape = shape;
        }
        let mut c = SinewCollider::default();
        created(&format!("collider of shape {shape}"), sinew_collider_create(world, &d, &mut c));
    }
    // The mesh collider default: a 2 m floor of two triangles (static memory).
    let mut mesh = SinewCollider::default();
    created("mesh collider", sinew_collider_create_mesh(world, &filled(sinew_collider_mesh_desc_default), &mut mesh));
    let mut info = SinewColliderMeshInfo::default();
    ok(sinew_collider_get_mesh_info(mesh, &mut info));
    assert_eq!((info.vertex_count, info.triangle_count, info.skipped_triangles), (4, 2, 0));
    // The per-body and per-world settings' defaults are accepted as they are.
    let (material, dynamics, lod, wind) =
        (filled(sinew_material_default), filled(sinew_dynamics_default), filled(sinew_lod_default), filled(sinew_wind_default));
    ok(sinew_world_set_wind(world, &wind));
    for (name, body) in &bodies {
        assert_eq!(sinew_body_set_material(*body, &material), SINEW_OK, "{name}: default material: {}", last_error());
        assert_eq!(sinew_body_set_dynamics(*body, &dynamics), SINEW_OK, "{name}: default dynamics: {}", last_error());
        assert_eq!(sinew_body_set_lod(*body, &lod), SINEW_OK, "{name}: default lod: {}", last_error());
    }
    let start: Vec<Vec<SinewVec3>> = bodies.iter().map(|(_, b)| read_positions(*b)).collect();
    for _ in 0..30 {
        ok(sinew_world_step(world, 1.0 / 60.0));
    }
    let mut st = SinewWorldStats::default();
    ok(sinew_world_get_stats(world, &mut st));
    assert_eq!((st.steps, st.body_count), (30, bodies.len() as u32));
    for ((name, body), start) in bodies.iter().zip(&start) {
        let p = read_positions(*body);
        assert!(!p.is_empty(), "{name}: no vertices");
        assert!(p.iter().all(|q| q.x.is_finite() && q.y.is_finite() && q.z.is_finite()), "{name}: non-finite positions");
        assert_eq!(body_info(*body).recoveries, 0, "{name}: the step had to recover the body");
        // The flat grid, the mesh and the rope fall; the garments and the
        // hair are made hanging from their bones, at rest.
        if ["grid", "mesh", "rope"].contains(name) {
            let moved = p.iter().zip(start).map(|(a, b)| dist(*a, *b)).fold(0.0f32, f32::max);
            assert!(moved > 1e-2, "{name}: nothing moved in half a second of gravity ({moved} m)");
        }
    }
    ok(sinew_world_destroy(world));
}
