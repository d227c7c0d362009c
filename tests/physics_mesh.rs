//! Static triangle-mesh colliders (issue 12) through the C ABI, checked against geometry and
//! against the analytic plane: a cloth rests on a two-triangle floor where it rests on a plane,
//! fast particles stop in front of a thin wall, a drape stays outside a tessellated sphere;
//! bad meshes give their code and message and leave the world stepping.

mod common;
use common::*;

fn world(substeps: u32) -> SinewWorld {
    let mut wd = world_desc();
    wd.substeps = substeps;
    wd.interpolate = 0;
    create_world(&wd)
}

/// A 12 × 12 cloth (5 cm spacing) dropped from 10 cm above a floor at y = 0.2, on a plane
/// collider or on a mesh of two 20 m triangles (moved up by its transform), for 2 s.
fn dropped_on_floor(mesh: bool, friction: f32) -> Vec<SinewVec3> {
    let w = world(8);
    if mesh {
        let (v, i) = floor_mesh(10.0);
        create_mesh_collider(w, &v, &i, translation(0.0, 0.2, 0.0));
    } else {
        let mut cd = collider_desc();
        cd.shape = SinewShape::SINEW_SHAPE_PLANE as u32;
        cd.transform = translation(0.0, 0.2, 0.0);
        create_collider(w, &cd);
    }
    let mut gd = grid_desc();
    (gd.columns, gd.rows, gd.spacing) = (12, 12, 0.05);
    gd.pin_mode = SinewPinMode::SINEW_PIN_NONE as u32;
    gd.origin = v3(0.13, 0.3, -0.21);
    gd.material.damping = 1.0;
    (gd.material.static_friction, gd.material.kinetic_friction) = (friction, friction);
    let cloth = create_grid(w, &gd);
    for _ in 0..120 {
        ok(sinew_world_step(w, 1.0 / 60.0));
    }
    let p = read_positions(cloth);
    ok(sinew_world_destroy(w));
    p
}

#[test]
fn a_cloth_rests_on_a_two_triangle_floor_where_it_rests_on_a_plane() {
    for friction in [0.0, 0.6] {
        let on_mesh = dropped_on_floor(true, friction);
        let on_plane = dropped_on_floor(false, friction);
        // Rest height: every particle one thickness (1 cm) above the floor.
        for (i, p) in on_mesh.iter().enumerate() {
            assert!((p.y - 0.21).abs() < 2e-4, "friction {friction}: particle {i} rests at y = {} (floor 0.2 + thickness 0.01)", p.y);
        }
        let apart = on_mesh.iter().zip(&on_plane).map(|(a, b)| dist(*a, *b)).fold(0.0f32, f32::max);
        assert!(apart < 1e-4, "friction {friction}: the mesh floor and the plane differ by {apart} m");
    }
}

/// Two particles (a two-point rope) driven to 100 m/s along +x, then free, at a wall at x = 0
/// facing them, one substep per 1/60 s step (1.7 m a substep): they stop `thickness` in front.
fn thrown_at_wall(vertices: &[SinewVec3], indices: &[u32], thickness: f32) -> f32 {
    let mut wd = world_desc();
    (wd.gravity, wd.substeps, wd.interpolate) = (v3(0.0, 0.0, 0.0), 1, 0);
    let w = create_world(&wd);
    let pts = [v3(-3.0, 0.0, 0.0), v3(-3.0, 0.1, 0.0)];
    let mut rd = rope_desc();
    (rd.points, rd.point_count, rd.bend) = (pts.as_ptr(), 2, 0);
    rd.material.damping = 0.0;
    rd.material.thickness = thickness;
    let rope = create_rope(w, &rd);
    create_mesh_collider(w, vertices, indices, SinewMat4::identity());
    let idx = [0u32, 1];
    let step = 100.0 / 60.0;
    let t = [v3(-3.0 + step, 0.0, 0.0), v3(-3.0 + step, 0.1, 0.0)];
    ok(sinew_body_set_pin_targets(rope, idx.as_ptr(), 2, t.as_ptr(), 2));
    ok(sinew_world_step(w, 1.0 / 60.0));
    ok(sinew_body_unpin(rope, idx.as_ptr(), 2));
    let mut farthest = f32::NEG_INFINITY;
    for _ in 0..10 {
        ok(sinew_world_step(w, 1.0 / 60.0));
        farthest = read_positions(rope).iter().map(|p| p.x).fold(farthest, f32::max);
    }
    let p = read_positions(rope);
    assert!((p[0].x + thickness).abs() < 1e-4, "it should rest on the near face: {:?}", p[0]);
    ok(sinew_world_destroy(w));
    farthest
}

#[test]
fn a_fast_particle_does_not_pass_through_a_thin_mesh_wall() {
    // One quad at x = 0 facing −x (an open wall).
    let quad = [v3(0.0, -1.0, -1.0), v3(0.0, -1.0, 1.0), v3(0.0, 1.0, 1.0), v3(0.0, 1.0, -1.0)];
    let quad_idx = [0u32, 1, 2, 0, 2, 3];
    for thickness in [0.0, 0.01] {
        let x = thrown_at_wall(&quad, &quad_idx, thickness);
        assert!(x <= -thickness + 1e-5, "thickness {thickness}: a particle reached x = {x} (wall at 0)");
    }
    // A closed 1 cm slab (12 triangles) from x = 0 to 0.01.
    let (v, i) = slab(0.0, 0.01);
    let x = thrown_at_wall(&v, &i, 0.005);
    assert!(x <= -0.005 + 1e-5, "a particle reached x = {x} (slab face at 0)");
}

/// A box from x = `x0` to `x1`, |y|, |z| ≤ 1, faces outwards.
fn slab(x0: f32, x1: f32) -> (Vec<SinewVec3>, Vec<u32>) {
    let v: Vec<SinewVec3> = (0..8).map(|k| v3(if k & 1 == 0 { x0 } else { x1 }, if k & 2 == 0 { -1.0 } else { 1.0 }, if k & 4 == 0 { -1.0 } else { 1.0 })).collect();
    // Quads (a, b, c, d) counter-clockwise from outside.
    let quads = [[0, 4, 6, 2], [1, 3, 7, 5], [0, 1, 5, 4], [2, 6, 7, 3], [0, 2, 3, 1], [4, 5, 7, 6]];
    let mut idx = Vec::new();
    for [a, b, c, d] in quads {
        idx.extend([a, b, c, a, c, d]);
    }
    (v, idx)
}

/// A 32 × 32 cloth dropped over a sphere of 1280 triangles (r = 0.5 m): no particle centre
/// comes closer to the centre than the faces' inscribed distance plus the thickness, and the
/// drape really lies on it.
#[test]
fn a_cloth_draped_on_a_tessellated_sphere_rests_outside_it() {
    let w = world(8);
    let (centre, radius) = (v3(0.02, -0.6, -0.03), 0.5f32);
    let (v, i) = sphere_mesh(centre, radius, 3);
    assert_eq!(i.len(), 3 * 1280);
    // The faces' planes are inside the sphere: the nearest is `inset` from the centre.
    let inset = i
        .chunks(3)
        .map(|t| {
            let [a, b, c] = [t[0], t[1], t[2]].map(|k| glam::Vec3::new(v[k as usize].x - centre.x, v[k as usize].y - centre.y, v[k as usize].z - centre.z));
            (b - a).cross(c - a).normalize().dot(a)
        })
        .fold(f32::INFINITY, f32::min);
    assert!(inset > 0.99 * radius && inset < radius);
    let collider = create_mesh_collider(w, &v, &i, SinewMat4::identity());
    let mut info = SinewColliderMeshInfo::default();
    ok(sinew_collider_get_mesh_info(collider, &mut info));
    assert_eq!((info.triangle_count, info.skipped_triangles, info.vertex_count), (1280, 0, v.len() as u32));
    assert!(info.depth <= 16, "a 1280-triangle hierarchy {} deep", info.depth);
    let mut gd = grid_desc();
    (gd.columns, gd.rows, gd.spacing) = (32, 32, 0.04);
    gd.pin_mode = SinewPinMode::SINEW_PIN_NONE as u32;
    gd.origin = v3(-0.62, 0.0, -0.62);
    gd.material.damping = 0.5;
    let thickness = gd.material.thickness;
    let cloth = create_grid(w, &gd);
    let mut closest = f32::INFINITY;
    for _ in 0..150 {
        ok(sinew_world_step(w, 1.0 / 60.0));
        closest = read_positions(cloth).iter().map(|q| dist(*q, centre)).fold(closest, f32::min);
    }
    assert!(closest >= inset + thickness - 1e-3, "a particle came within {closest} m of the centre (faces at {inset}, thickness {thickness})");
    assert!(closest > radius, "a particle came inside the sphere's radius: {closest}");
    assert!(closest < radius + thickness + 0.01, "closest approach {closest}: the cloth never reached the sphere");
    ok(sinew_world_destroy(w));
}

#[track_caller]
fn refused(r: SinewResult, code: SinewResult, words: &str) {
    assert_eq!(r, code, "{}", last_error());
    let m = last_error();
    assert!(m.starts_with(&format!("{code:?}")), "the message should start with the code: {m}");
    assert!(m.contains(words), "the message should say '{words}': {m}");
}

#[test]
fn bad_meshes_give_their_code_and_message_and_the_world_keeps_stepping() {
    let w = world(4);
    let mut gd = grid_desc();
    (gd.columns, gd.rows, gd.spacing) = (6, 6, 0.05);
    gd.pin_mode = SinewPinMode::SINEW_PIN_NONE as u32;
    let cloth = create_grid(w, &gd);
    let (v, i) = floor_mesh(1.0);
    let mut out = SinewCollider::default();
    let try_mesh = |f: &dyn Fn(&mut SinewColliderMeshDesc), out: *mut SinewCollider| {
        let mut d = mesh_collider_desc();
        (d.vertices, d.vertex_count, d.indices, d.index_count) = (v.as_ptr(), v.len(), i.as_ptr(), i.len());
        d.transform = translation(0.0, -0.5, 0.0);
        f(&mut d);
        sinew_collider_create_mesh(w, &d, out)
    };
    let bad_index = [0u32, 1, 2, 0, 2, 9];
    refused(try_mesh(&|d| d.indices = bad_index.as_ptr(), &mut out), SINEW_OUT_OF_RANGE, "mesh index 5 (triangle 1) is 9, out of range (vertex count 4)");
    let mut nan = v.clone();
    nan[2].y = f32::NAN;
    refused(try_mesh(&|d| d.vertices = nan.as_ptr(), &mut out), SINEW_NON_FINITE, "mesh vertex 2 is not finite");
    let mut far = v.clone();
    far[1].x = 3e6;
    refused(try_mesh(&|d| d.vertices = far.as_ptr(), &mut out), SINEW_INVALID_ARGUMENT, "mesh vertex 1");
    refused(try_mesh(&|d| d.vertices = std::ptr::null(), &mut out), SINEW_NULL_POINTER, "desc.vertices is null");
    refused(try_mesh(&|d| d.indices = std::ptr::null(), &mut out), SINEW_NULL_POINTER, "desc.indices is null");
    refused(try_mesh(&|d| (d.indices, d.index_count) = (std::ptr::null(), 0), &mut out), SINEW_INVALID_ARGUMENT, "at least one triangle");
    refused(try_mesh(&|d| d.index_count = 4, &mut out), SINEW_INVALID_ARGUMENT, "not a multiple of 3");
    let sliver = [0u32, 1, 2, 0, 0, 3];
    refused(try_mesh(&|d| d.indices = sliver.as_ptr(), &mut out), SINEW_INVALID_ARGUMENT, "mesh triangle 1 (vertices 0, 0, 3) is degenerate");
    refused(try_mesh(&|d| d.skip_degenerate = 7, &mut out), SINEW_INVALID_ARGUMENT, "skip_degenerate must be 0 or 1");
    let mut nan_t = translation(0.0, 0.0, 0.0);
    nan_t.m[13] = f32::NAN;
    refused(try_mesh(&|d| d.transform = nan_t, &mut out), SINEW_NON_FINITE, "transform");
    refused(sinew_collider_create_mesh(w, std::ptr::null(), &mut out), SINEW_NULL_POINTER, "desc is null");
    refused(try_mesh(&|_| {}, std::ptr::null_mut()), SINEW_NULL_POINTER, "out_collider is null");
    assert_eq!(out, SinewCollider::default(), "a refused call writes no handle");
    // Degenerate triangles skipped on request, and counted.
    ok(try_mesh(&|d| (d.indices, d.skip_degenerate) = (sliver.as_ptr(), 1), &mut out));
    let mut info = SinewColliderMeshInfo::default();
    ok(sinew_collider_get_mesh_info(out, &mut info));
    assert_eq!((info.triangle_count, info.skipped_triangles), (2, 1));
    ok(sinew_collider_destroy(out));
    ok(try_mesh(&|_| {}, &mut out));
    // Sharing: only a mesh collider, only with no vertices of its own.
    let sphere = create_collider(w, &collider_desc());
    refused(try_mesh(&|d| d.share = out, &mut SinewCollider::default()), SINEW_INVALID_ARGUMENT, "must be empty");
    let share = |src: SinewCollider, o: *mut SinewCollider| {
        try_mesh(&|d| (d.vertices, d.vertex_count, d.indices, d.index_count, d.share) = (std::ptr::null(), 0, std::ptr::null(), 0, src), o)
    };
    refused(share(sphere, &mut SinewCollider::default()), SINEW_INVALID_ARGUMENT, "not a mesh collider");
    refused(share(SinewCollider { id: 12345 }, &mut SinewCollider::default()), SINEW_INVALID_HANDLE, "collider");
    refused(sinew_collider_get_mesh_info(sphere, &mut info), SINEW_INVALID_ARGUMENT, "not a mesh collider");
    // A static mesh: no sweeping transform, teleports only.
    refused(sinew_collider_set_transform(out, &translation(0.0, 1.0, 0.0)), SINEW_INVALID_ARGUMENT, "static");
    ok(sinew_collider_teleport(out, &translation(0.0, -0.3, 0.0)));
    ok(sinew_collider_destroy(sphere));
    // The world steps, and the cloth lands on the mesh that was made.
    for _ in 0..90 {
        ok(sinew_world_step(w, 1.0 / 60.0));
    }
    let low = read_positions(cloth).iter().map(|p| p.y).fold(f32::INFINITY, f32::min);
    assert!((low - (-0.3 + gd.material.thickness)).abs() < 1e-3, "the cloth should rest on the teleported mesh: lowest y {low}");
    ok(sinew_world_destroy(w));
}

/// A 10 × 10 cloth dropped onto a mesh floor at y = 0 in world `w`; returns it.
fn cloth_over_floor(w: SinewWorld, mask: u32) -> SinewBody {
    let mut gd = grid_desc();
    (gd.columns, gd.rows, gd.spacing) = (10, 10, 0.05);
    gd.pin_mode = SinewPinMode::SINEW_PIN_NONE as u32;
    gd.origin = v3(-0.2, 0.1, -0.2);
    gd.material.damping = 2.0;
    gd.material.collision_mask = mask;
    create_grid(w, &gd)
}

fn lowest(b: SinewBody) -> f32 {
    read_positions(b).iter().map(|p| p.y).fold(f32::INFINITY, f32::min)
}

/// One cooked mesh shared by a collider of another world: the same bytes, and it still
/// holds the cloth after the world that cooked it is gone.
#[test]
fn a_cooked_mesh_is_shared_across_worlds() {
    let a = world(4);
    let (v, i) = sphere_mesh(v3(0.0, 0.0, 0.0), 1.0, 2);
    let source = create_mesh_collider(a, &v, &i, translation(0.0, 5.0, 0.0));
    let b = world(4);
    let mut d = mesh_collider_desc();
    (d.vertices, d.vertex_count, d.indices, d.index_count, d.share) = (std::ptr::null(), 0, std::ptr::null(), 0, source);
    // The shared sphere's top at y = 0 in world b.
    d.transform = translation(0.0, -1.0, 0.0);
    let mut shared = SinewCollider::default();
    ok(sinew_collider_create_mesh(b, &d, &mut shared));
    let (mut ia, mut ib) = (SinewColliderMeshInfo::default(), SinewColliderMeshInfo::default());
    ok(sinew_collider_get_mesh_info(source, &mut ia));
    ok(sinew_collider_get_mesh_info(shared, &mut ib));
    assert_eq!(ia, ib);
    ok(sinew_world_destroy(a));
    let cloth = cloth_over_floor(b, 1);
    for _ in 0..60 {
        ok(sinew_world_step(b, 1.0 / 60.0));
    }
    let top = read_positions(cloth).iter().map(|p| p.y).fold(f32::NEG_INFINITY, f32::max);
    assert!(top > -0.05, "the cloth should lie on the shared sphere's top (highest particle at {top})");
    ok(sinew_world_destroy(b));
}

/// Layers and masks as for the other colliders.
#[test]
fn mesh_colliders_follow_layers() {
    for (layers, holds) in [(1u32, true), (2, false)] {
        let w = world(4);
        let (v, i) = floor_mesh(2.0);
        let mut d = mesh_collider_desc();
        (d.vertices, d.vertex_count, d.indices, d.index_count, d.layers) = (v.as_ptr(), v.len(), i.as_ptr(), i.len(), layers);
        ok(sinew_collider_create_mesh(w, &d, &mut SinewCollider::default()));
        let cloth = cloth_over_floor(w, 1);
        for _ in 0..60 {
            ok(sinew_world_step(w, 1.0 / 60.0));
        }
        let low = lowest(cloth);
        assert_eq!(low > 0.0, holds, "layers {layers}: lowest particle at {low}");
        ok(sinew_world_destroy(w));
    }
}

/// A cloth resting on a static mesh falls asleep and stays asleep (the mesh never moves);
/// teleporting the mesh wakes it.
#[test]
fn a_static_mesh_lets_a_resting_cloth_sleep_and_a_teleport_wakes_it() {
    let w = world(8);
    let (v, i) = floor_mesh(2.0);
    let floor = create_mesh_collider(w, &v, &i, SinewMat4::identity());
    let cloth = cloth_over_floor(w, 1);
    let mut d = dynamics();
    (d.sleep_threshold, d.sleep_time) = (1e-3, 0.5);
    ok(sinew_body_set_dynamics(cloth, &d));
    let asleep = |b| body_info(b).sleeping == 1;
    let mut frames = 0;
    while !asleep(cloth) {
        ok(sinew_world_step(w, 1.0 / 60.0));
        frames += 1;
        assert!(frames < 600, "the cloth never fell asleep on the mesh");
    }
    let rest = read_positions(cloth);
    for _ in 0..120 {
        ok(sinew_world_step(w, 1.0 / 60.0));
        assert!(asleep(cloth), "a static mesh woke the cloth");
    }
    assert_eq!(read_positions(cloth).iter().map(|p| p.y.to_bits()).collect::<Vec<_>>(), rest.iter().map(|p| p.y.to_bits()).collect::<Vec<_>>());
    ok(sinew_collider_teleport(floor, &translation(0.0, -0.05, 0.0)));
    ok(sinew_world_step(w, 1.0 / 60.0));
    assert!(!asleep(cloth), "teleporting the mesh under the cloth must wake it");
    for _ in 0..60 {
        ok(sinew_world_step(w, 1.0 / 60.0));
    }
    let low = lowest(cloth);
    assert!((low - (-0.05 + 0.01)).abs() < 1e-3, "the cloth should follow the floor down: lowest at {low}");
    ok(sinew_world_destroy(w));
}
