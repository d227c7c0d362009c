//! Finite but absurd values are refused at the call with their own message, instead of being
//! accepted and then freezing the body (every step rolled back while the step says OK).
//! Every refusal leaves the body as it was and the world stepping (issue 11, part 6).
//! The ranges are written once, in `src/error.rs`.

mod common;
use common::*;

struct Scene {
    world: SinewWorld,
    cloth: SinewBody,
    collider: SinewCollider,
}

fn scene() -> Scene {
    let mut wd = world_desc();
    wd.thread_count = 1;
    let world = create_world(&wd);
    let mut gd = grid_desc();
    (gd.columns, gd.rows, gd.spacing) = (6, 5, 0.1);
    let cloth = create_grid(world, &gd);
    skin_to_one_bone(cloth);
    ok(sinew_body_set_bone_matrices(cloth, &translation(0.0, 0.0, 0.0), 1));
    let mut cd = collider_desc();
    cd.transform = translation(0.0, -2.0, 0.0);
    let collider = create_collider(world, &cd);
    ok(sinew_world_step(world, 1.0 / 60.0));
    Scene { world, cloth, collider }
}

fn snapshot(b: SinewBody) -> (Vec<SinewVec3>, SinewBodyInfo, SinewMaterial, SinewDynamics) {
    let mut m = std::mem::MaybeUninit::uninit();
    ok(sinew_body_get_material(b, m.as_mut_ptr()));
    let mut d = dynamics();
    ok(sinew_body_get_dynamics(b, &mut d));
    (read_positions(b), body_info(b), unsafe { m.assume_init() }, d)
}

/// `call` must fail with `code` and a message naming it and `what`; the body is unchanged,
/// and the world keeps stepping it: it moves, stays finite, and no step had to recover it.
#[track_caller]
fn refused(s: &Scene, code: SinewResult, what: &str, call: impl FnOnce() -> SinewResult) {
    let before = snapshot(s.cloth);
    let got = call();
    let msg = last_error();
    assert_eq!(got, code, "{what}: {msg}");
    assert!(msg.starts_with(&format!("{code:?}")) && msg.contains(what), "message should name {code:?} and {what:?}: {msg:?}");
    assert_eq!(snapshot(s.cloth), before, "{what}: a refused call changed the body");
    for _ in 0..3 {
        ok(sinew_world_step(s.world, 1.0 / 60.0));
    }
    let after = read_positions(s.cloth);
    assert!(after.iter().all(|p| p.x.is_finite() && p.y.is_finite() && p.z.is_finite()), "{what}: non-finite state");
    assert_ne!(after, before.0, "{what}: the body no longer moves");
    assert_eq!(body_info(s.cloth).recoveries, 0, "{what}: a step had to recover the body");
}

fn grid_with(f: impl FnOnce(&mut SinewClothGridDesc)) -> SinewClothGridDesc {
    let mut gd = grid_desc();
    f(&mut gd);
    gd
}

#[test]
fn sizes_and_spacings_beyond_their_range_are_refused() {
    let s = scene();
    let mut out = SinewBody::default();
    for spacing in [7e12f32, 2.5e38, 1500.0] {
        let gd = grid_with(|g| g.spacing = spacing);
        refused(&s, SINEW_INVALID_ARGUMENT, "grid spacing", || sinew_cloth_create_grid(s.world, &gd, &mut out));
    }
    // Each spacing fine, the grid as a whole too far out.
    let gd = grid_with(|g| (g.columns, g.rows, g.spacing, g.origin) = (2000, 4, 900.0, v3(0.0, 0.0, 0.0)));
    refused(&s, SINEW_INVALID_ARGUMENT, "world's extent", || sinew_cloth_create_grid(s.world, &gd, &mut out));
    let mut md = std::mem::MaybeUninit::uninit();
    ok(sinew_cloth_mesh_desc_default(md.as_mut_ptr()));
    let mut md = unsafe { md.assume_init() };
    md.weld_distance = 4e9;
    refused(&s, SINEW_INVALID_ARGUMENT, "weld distance", || sinew_cloth_create_mesh(s.world, &md, &mut out));
    let mut cape = std::mem::MaybeUninit::uninit();
    ok(sinew_cloth_cape_desc_default(cape.as_mut_ptr()));
    let cape = unsafe { cape.assume_init() };
    let mut cd = cape;
    cd.width = 3e7;
    refused(&s, SINEW_INVALID_ARGUMENT, "cape width", || sinew_cloth_create_cape(s.world, &cd, &mut out));
    let mut cd = cape;
    cd.back_offset = -6e9;
    refused(&s, SINEW_INVALID_ARGUMENT, "cape back_offset", || sinew_cloth_create_cape(s.world, &cd, &mut out));
    let mut kd = std::mem::MaybeUninit::uninit();
    ok(sinew_cloth_skirt_desc_default(kd.as_mut_ptr()));
    let mut kd = unsafe { kd.assume_init() };
    kd.radius_bottom = 8e20;
    refused(&s, SINEW_INVALID_ARGUMENT, "skirt radius_bottom", || sinew_cloth_create_skirt(s.world, &kd, &mut out));
    let mut sd = std::mem::MaybeUninit::uninit();
    ok(sinew_strands_desc_default(sd.as_mut_ptr()));
    let strands = unsafe { sd.assume_init() };
    let mut sd = strands;
    sd.segment_length = 2e6;
    refused(&s, SINEW_INVALID_ARGUMENT, "segment_length", || sinew_strands_create(s.world, &sd, &mut out));
    // Given points, segment_length is not used — and still not NaN.
    let pts: Vec<SinewVec3> = (0..4).map(|i| v3(0.0, -0.03 * i as f32, 0.0)).collect();
    let mut sd = strands;
    (sd.points, sd.point_count, sd.particles_per_strand) = (pts.as_ptr(), pts.len(), 4);
    sd.segment_length = f32::NAN;
    refused(&s, SINEW_NON_FINITE, "segment_length", || sinew_strands_create(s.world, &sd, &mut out));
    sd.segment_length = 0.02;
    ok(sinew_strands_create(s.world, &sd, &mut out));
    let offsets = [0.01f32; 30];
    let mut radii = [0.5f32; 30];
    radii[7] = 3e12;
    refused(&s, SINEW_INVALID_ARGUMENT, "backstop", || sinew_body_set_backstops(s.cloth, offsets.as_ptr(), 30, radii.as_ptr(), 30));
    refused(&s, SINEW_INVALID_ARGUMENT, "tether scale", || sinew_body_set_tethers(s.cloth, SinewTetherMode::SINEW_TETHER_GEODESIC as u32, 4e30));
    let mut weights = vec![SinewBoneWeight { weight0: 1.0, ..Default::default() }; 30];
    (weights[3].weight0, weights[3].weight1) = (3e38, 3e38);
    refused(&s, SINEW_INVALID_ARGUMENT, "weights of vertex 3", || sinew_body_set_skinning(s.cloth, weights.as_ptr(), 30, std::ptr::null(), 0, 2));
    ok(sinew_world_destroy(s.world));
}

#[test]
fn positions_and_transforms_beyond_the_world_extent_are_refused() {
    let s = scene();
    let mut out = SinewBody::default();
    let gd = grid_with(|g| g.origin = v3(0.0, 2.5e7, 0.0));
    refused(&s, SINEW_INVALID_ARGUMENT, "grid origin", || sinew_cloth_create_grid(s.world, &gd, &mut out));
    let idx = [0u32, 3];
    let far = [v3(0.0, 0.0, 0.0), v3(4e9, 0.0, 0.0)];
    refused(&s, SINEW_INVALID_ARGUMENT, "pin target 1", || sinew_body_set_pin_targets(s.cloth, idx.as_ptr(), 2, far.as_ptr(), 2));
    let pts = [v3(0.0, 0.0, 0.0), v3(0.1, 0.0, 0.0), v3(0.2, -3e8, 0.0)];
    let mut rd = rope_desc();
    (rd.points, rd.point_count) = (pts.as_ptr(), 3);
    refused(&s, SINEW_INVALID_ARGUMENT, "rope point 2", || sinew_rope_create(s.world, &rd, &mut out));
    let mut md = mesh_desc();
    let quad = [v3(0.0, 0.0, 0.0), v3(1.0, 0.0, 0.0), v3(0.0, 0.0, 1.0), v3(1.0, 0.0, -1.2e7)];
    (md.positions, md.vertex_count) = (quad.as_ptr(), 4);
    refused(&s, SINEW_INVALID_ARGUMENT, "mesh position 3", || sinew_cloth_create_mesh(s.world, &md, &mut out));
    // A cape whose neck has one huge element, or a shoulder far away.
    let mut cape = std::mem::MaybeUninit::uninit();
    ok(sinew_cloth_cape_desc_default(cape.as_mut_ptr()));
    let cape = unsafe { cape.assume_init() };
    let mut cd = cape;
    cd.neck.m[5] = -7e25;
    refused(&s, SINEW_INVALID_ARGUMENT, "bone transform 1", || sinew_cloth_create_cape(s.world, &cd, &mut out));
    let mut cd = cape;
    cd.left_shoulder.m[12] = 3e8;
    refused(&s, SINEW_INVALID_ARGUMENT, "bone transform 0's translation", || sinew_cloth_create_cape(s.world, &cd, &mut out));
    // Root: one translation element, or a huge uniform scale.
    let mut root = translation(0.0, 0.0, 0.0);
    root.m[13] = 8e28;
    refused(&s, SINEW_INVALID_ARGUMENT, "translation", || sinew_body_set_root_transform(s.cloth, &root));
    let big = scale_translation(5e20, v3(0.0, 0.0, 0.0));
    refused(&s, SINEW_INVALID_ARGUMENT, "scale element", || sinew_body_set_root_transform(s.cloth, &big));
    // Bones, the explicit teleport, colliders and the camera.
    refused(&s, SINEW_INVALID_ARGUMENT, "bone matrix 0", || sinew_body_set_bone_matrices(s.cloth, &translation(0.0, 0.0, -2e7), 1));
    let mut bone = translation(0.0, 0.0, 0.0);
    bone.m[2] = 4e10;
    refused(&s, SINEW_INVALID_ARGUMENT, "bone matrix 0", || sinew_body_set_bone_matrices(s.cloth, &bone, 1));
    refused(&s, SINEW_INVALID_ARGUMENT, "teleport matrix", || sinew_body_teleport(s.cloth, &translation(2e7, 0.0, 0.0)));
    refused(&s, SINEW_INVALID_ARGUMENT, "translation", || sinew_collider_set_transform(s.collider, &translation(0.0, 5e6, 0.0)));
    refused(&s, SINEW_INVALID_ARGUMENT, "translation", || sinew_collider_teleport(s.collider, &translation(0.0, 0.0, 9e30)));
    let mut cd = collider_desc();
    cd.transform = translation(-3e9, 0.0, 0.0);
    refused(&s, SINEW_INVALID_ARGUMENT, "translation", || sinew_collider_create(s.world, &cd, &mut SinewCollider::default()));
    refused(&s, SINEW_INVALID_ARGUMENT, "camera position", || sinew_world_set_camera(s.world, v3(0.0, 1e9, 0.0)));
    // At the edge of the extent everything is still accepted.
    ok(sinew_world_set_camera(s.world, v3(0.0, 9e5, 0.0)));
    ok(sinew_world_destroy(s.world));
}

#[test]
fn gravity_materials_dynamics_and_wind_beyond_their_range_are_refused() {
    let s = scene();
    refused(&s, SINEW_INVALID_ARGUMENT, "gravity", || sinew_world_set_gravity(s.world, v3(0.0, -5e15, 0.0)));
    refused(&s, SINEW_INVALID_ARGUMENT, "gravity", || sinew_world_set_gravity(s.world, v3(2000.0, 0.0, 0.0)));
    let mut wd = world_desc();
    wd.gravity = v3(0.0, -3e4, 0.0);
    refused(&s, SINEW_INVALID_ARGUMENT, "gravity", || sinew_world_create(&wd, &mut SinewWorld::default()));
    ok(sinew_world_set_gravity(s.world, v3(0.0, -98.1, 0.0))); // 10 g is a game's business
    let mut m = std::mem::MaybeUninit::uninit();
    ok(sinew_material_default(m.as_mut_ptr()));
    let material = unsafe { m.assume_init() };
    for (name, set) in [
        ("gravity_scale", (|m: &mut SinewMaterial| m.gravity_scale = -1e30) as fn(&mut SinewMaterial)),
        ("stretch_compliance", |m| m.stretch_compliance = 1e35),
        ("bend_compliance", |m| m.bend_compliance = 3.3e38),
        ("static_friction", |m| m.static_friction = 1e22),
    ] {
        let mut m = material;
        set(&mut m);
        refused(&s, SINEW_INVALID_ARGUMENT, name, || sinew_body_set_material(s.cloth, &m));
    }
    let mut d = dynamics();
    d.drag = 1e25;
    refused(&s, SINEW_INVALID_ARGUMENT, "drag", || sinew_body_set_dynamics(s.cloth, &d));
    let mut d = dynamics();
    d.wind_scale = 6e9;
    refused(&s, SINEW_INVALID_ARGUMENT, "wind_scale", || sinew_body_set_dynamics(s.cloth, &d));
    let mut w = wind();
    w.speed = 5.0;
    w.turbulence = 1e20;
    refused(&s, SINEW_INVALID_ARGUMENT, "turbulence", || sinew_world_set_wind(s.world, &w));
    let mut w = wind();
    w.air_density = 7e30;
    refused(&s, SINEW_INVALID_ARGUMENT, "air_density", || sinew_world_set_wind(s.world, &w));
    ok(sinew_world_destroy(s.world));
}

#[test]
fn collider_fields_the_shape_does_not_use_are_still_checked() {
    let s = scene();
    let mut c = SinewCollider::default();
    let mut cd = collider_desc();
    cd.radius = 4e9;
    refused(&s, SINEW_INVALID_ARGUMENT, "sphere radius", || sinew_collider_create(s.world, &cd, &mut c));
    let mut cd = collider_desc();
    (cd.shape, cd.half_height) = (SinewShape::SINEW_SHAPE_CAPSULE as u32, 2e5);
    refused(&s, SINEW_INVALID_ARGUMENT, "half_height", || sinew_collider_create(s.world, &cd, &mut c));
    let mut cd = collider_desc();
    (cd.shape, cd.half_extents.y) = (SinewShape::SINEW_SHAPE_BOX as u32, 1e12);
    refused(&s, SINEW_INVALID_ARGUMENT, "half extents", || sinew_collider_create(s.world, &cd, &mut c));
    // NaN or infinity where the chosen shape does not look.
    let mut cd = collider_desc();
    (cd.shape, cd.radius) = (SinewShape::SINEW_SHAPE_CAPSULE as u32, f32::NAN);
    refused(&s, SINEW_NON_FINITE, "radius (unused", || sinew_collider_create(s.world, &cd, &mut c));
    let mut cd = collider_desc();
    (cd.shape, cd.radius1) = (SinewShape::SINEW_SHAPE_BOX as u32, f32::INFINITY);
    refused(&s, SINEW_NON_FINITE, "radius1 (unused", || sinew_collider_create(s.world, &cd, &mut c));
    let mut cd = collider_desc();
    (cd.shape, cd.half_extents.z) = (SinewShape::SINEW_SHAPE_PLANE as u32, f32::NAN);
    refused(&s, SINEW_NON_FINITE, "half_extents.z (unused", || sinew_collider_create(s.world, &cd, &mut c));
    let mut cd = collider_desc();
    cd.half_height = f32::NEG_INFINITY; // a sphere
    refused(&s, SINEW_NON_FINITE, "half_height (unused", || sinew_collider_create(s.world, &cd, &mut c));
    ok(sinew_world_destroy(s.world));
}
