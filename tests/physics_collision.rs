//! Collisions checked against geometry: particles never end inside shapes, fast motion does
//! not tunnel, friction follows the Coulomb cone, self- and inter-cloth contact keep
//! particles apart.

mod common;
use common::*;

fn world(substeps: u32, iterations: u32) -> SinewWorld {
    let mut wd = world_desc();
    wd.substeps = substeps;
    wd.iterations = iterations;
    wd.interpolate = 0;
    create_world(&wd)
}

/// S3 of docs/benchmarks.md (S1 + a static sphere r = 1 m at (0, −1.2, −0.9)) draped to rest: no
/// particle centre closer to the sphere centre than radius + thickness − 1 mm.
#[test]
fn s3_drape_rests_outside_the_sphere() {
    let w = world(10, 1);
    let mut gd = grid_desc();
    gd.columns = 64;
    gd.rows = 64;
    gd.spacing = 0.05;
    gd.material.bend_compliance = 0.0;
    gd.material.damping = 0.5;
    let thickness = gd.material.thickness;
    let cloth = create_grid(w, &gd);
    let mut cd = collider_desc();
    cd.radius = 1.0;
    cd.transform = translation(0.0, -1.2, -0.9);
    create_collider(w, &cd);
    let centre = v3(0.0, -1.2, -0.9);
    let mut closest = f32::INFINITY;
    for _ in 0..180 {
        ok(sinew_world_step(w, 1.0 / 60.0));
        let p = read_positions(cloth);
        closest = p.iter().map(|q| dist(*q, centre)).fold(closest, f32::min);
    }
    assert!(closest >= 1.0 + thickness - 1e-3, "a particle came within {closest} m of the centre");
    // The drape really touches the sphere (the test is not vacuous).
    assert!(closest < 1.0 + thickness + 0.01, "closest approach {closest}: the cloth never reached the sphere");
    ok(sinew_world_destroy(w));
}

/// Signed distance to a Y-axis capsule of radius `r`, half height `h`, centred at `c`.
fn capsule_distance(p: SinewVec3, c: SinewVec3, h: f32, r: f32) -> f32 {
    let y = (p.y - c.y).clamp(-h, h);
    dist(p, v3(c.x, c.y + y, c.z)) - r
}

/// A capsule (a limb) sweeping at 20 m/s through a hanging 32×32 cloth: no particle is inside
/// it at any step.
#[test]
fn fast_capsule_never_leaves_particles_inside() {
    let w = world(4, 2);
    let mut gd = grid_desc();
    gd.columns = 32;
    gd.rows = 32;
    gd.spacing = 0.05;
    // Hang in the XY plane: rotate the XZ grid by +90° about X (local +Z → world −Y), so
    // row 0 (pinned) is the top edge at y = 0.
    let a = std::f32::consts::FRAC_PI_4;
    gd.orientation = SinewQuat { x: a.sin(), y: 0.0, z: 0.0, w: a.cos() };
    gd.origin = v3(0.0, -0.775, 0.0);
    let cloth = create_grid(w, &gd);
    let top = read_positions(cloth)[0];
    assert!(top.y.abs() < 1e-5, "row 0 should be the top edge: {top:?}");
    for _ in 0..30 {
        ok(sinew_world_step(w, 1.0 / 60.0));
    }
    let (h, r) = (0.3f32, 0.08f32);
    let mut cd = collider_desc();
    cd.shape = SinewShape::SINEW_SHAPE_CAPSULE as u32;
    cd.half_height = h;
    cd.radius0 = r;
    cd.radius1 = r;
    let start = v3(0.0, -0.9, -1.0);
    cd.transform = translation(start.x, start.y, start.z);
    let capsule = create_collider(w, &cd);
    let speed = 20.0f32;
    let mut centre = start;
    let mut touched = false;
    for _ in 0..12 {
        centre.z += speed / 60.0;
        ok(sinew_collider_set_transform(capsule, &translation(centre.x, centre.y, centre.z)));
        ok(sinew_world_step(w, 1.0 / 60.0));
        for (i, p) in read_positions(cloth).iter().enumerate() {
            let d = capsule_distance(*p, centre, h, r);
            assert!(d >= -1e-4, "particle {i} is {d} m inside the capsule at {centre:?}");
            touched |= d < 0.02;
        }
    }
    assert!(touched, "the capsule never met the cloth");
    ok(sinew_world_destroy(w));
}

/// A particle at 100 m/s against a 1 cm box at dt 1/60 stops on the near side.
#[test]
fn fast_particle_does_not_tunnel_through_a_thin_box() {
    let mut wd = world_desc();
    wd.gravity = v3(0.0, 0.0, 0.0);
    wd.substeps = 1;
    wd.iterations = 1;
    wd.interpolate = 0;
    let w = create_world(&wd);
    let pts = [v3(-3.0, 0.0, 0.0), v3(-3.0, 0.1, 0.0)];
    let mut rd = rope_desc();
    rd.points = pts.as_ptr();
    rd.point_count = 2;
    rd.bend = 0;
    rd.material.damping = 0.0;
    rd.material.thickness = 0.0;
    let rope = create_rope(w, &rd);
    let mut cd = collider_desc();
    cd.shape = SinewShape::SINEW_SHAPE_BOX as u32;
    cd.half_extents = v3(0.005, 1.0, 1.0);
    create_collider(w, &cd);
    // One frame of pin drive gives both particles 100 m/s along +X, then they fly free.
    let idx = [0u32, 1];
    let step = 100.0 / 60.0;
    let t = [v3(-3.0 + step, 0.0, 0.0), v3(-3.0 + step, 0.1, 0.0)];
    ok(sinew_body_set_pin_targets(rope, idx.as_ptr(), 2, t.as_ptr(), 2));
    ok(sinew_world_step(w, 1.0 / 60.0));
    ok(sinew_body_unpin(rope, idx.as_ptr(), 2));
    for _ in 0..10 {
        ok(sinew_world_step(w, 1.0 / 60.0));
        for p in read_positions(rope) {
            assert!(p.x <= -0.005 + 1e-5, "the particle reached x = {} (box face at −0.005)", p.x);
        }
    }
    let p = read_positions(rope);
    assert!((p[0].x + 0.005).abs() < 1e-4, "it should rest on the near face: {:?}", p[0]);
    ok(sinew_world_destroy(w));
}

fn min_separation(p: &[SinewVec3], rest: &[SinewVec3], exclude: f32) -> f32 {
    let mut m = f32::INFINITY;
    for i in 0..p.len() {
        for j in i + 1..p.len() {
            if dist(rest[i], rest[j]) > exclude {
                m = m.min(dist(p[i], p[j]));
            }
        }
    }
    m
}

/// A cloth lying folded over itself (top layer 3 cm above the bottom, particles exactly
/// above each other) dropped on the floor: with self-collision it settles with particles at
/// least 0.9 × 2 × thickness apart; without, the layers pass into each other.
#[test]
fn self_collision_keeps_a_folded_cloth_apart() {
    let settle = |self_collision: u32| {
        let w = world(8, 1);
        let (cols, half_rows, s, gap) = (12usize, 8usize, 0.05f32, 0.03f32);
        let mut pos = Vec::new();
        for layer in 0..2 {
            for r in 0..half_rows {
                for c in 0..cols {
                    // The top layer runs back over the bottom one: row r of the top sits
                    // above row (half_rows − 1 − r) of the bottom.
                    let z = if layer == 0 { r as f32 * s } else { (half_rows - 1 - r) as f32 * s };
                    pos.push(v3(c as f32 * s, 0.1 + layer as f32 * gap, z));
                }
            }
        }
        let id = |layer: usize, r: usize, c: usize| (layer * half_rows * cols + r * cols + c) as u32;
        let mut idx = Vec::new();
        for layer in 0..2 {
            for r in 0..half_rows {
                for c in 0..cols {
                    let next_row = if r + 1 < half_rows { Some((layer, r + 1)) } else if layer == 0 { Some((1, 0)) } else { None };
                    if let (Some((l2, r2)), true) = (next_row, c + 1 < cols) {
                        idx.extend([id(layer, r, c), id(l2, r2, c), id(layer, r, c + 1)]);
                        idx.extend([id(layer, r, c + 1), id(l2, r2, c), id(l2, r2, c + 1)]);
                    }
                }
            }
        }
        let mut md = mesh_desc();
        md.positions = pos.as_ptr();
        md.vertex_count = pos.len();
        md.indices = idx.as_ptr();
        md.index_count = idx.len();
        md.material.self_collision = self_collision;
        md.material.thickness = 0.01;
        md.material.damping = 1.0;
        let mut body = SinewBody::default();
        ok(sinew_cloth_create_mesh(w, &md, &mut body));
        let mut floor = collider_desc();
        floor.shape = SinewShape::SINEW_SHAPE_PLANE as u32;
        create_collider(w, &floor);
        for _ in 0..120 {
            ok(sinew_world_step(w, 1.0 / 60.0));
        }
        let p = read_positions(body);
        ok(sinew_world_destroy(w));
        min_separation(&p, &pos, 0.02)
    };
    let with = settle(1);
    let without = settle(0);
    assert!(with >= 0.9 * 0.02, "with self-collision the closest particles are {with} m apart");
    assert!(without < 0.9 * 0.02, "without self-collision the layers should meet ({without} m): the test would be vacuous");
}

/// Cloth on a plane tilted 20°: with friction 0 it slides away, with friction 1 (tan 20° <
/// 1, inside the friction cone) it stays.
#[test]
fn friction_holds_inside_the_cone_and_not_without_it() {
    let slide = |friction: f32| {
        let w = world(4, 2);
        let angle = 20f32.to_radians();
        let mut plane = collider_desc();
        plane.shape = SinewShape::SINEW_SHAPE_PLANE as u32;
        plane.transform = rotation_z(angle, v3(0.0, 0.0, 0.0));
        create_collider(w, &plane);
        let mut gd = grid_desc();
        gd.columns = 8;
        gd.rows = 8;
        gd.spacing = 0.05;
        gd.pin_mode = SinewPinMode::SINEW_PIN_NONE as u32;
        gd.material.static_friction = friction;
        gd.material.kinetic_friction = friction;
        gd.material.damping = 0.0;
        // Lie on the plane, just touching it.
        let half = angle / 2.0;
        gd.orientation = SinewQuat { x: 0.0, y: 0.0, z: half.sin(), w: half.cos() };
        let n = v3(-angle.sin(), angle.cos(), 0.0);
        gd.origin = v3(n.x * gd.material.thickness, n.y * gd.material.thickness, 0.0);
        let cloth = create_grid(w, &gd);
        let before = read_positions(cloth);
        for _ in 0..60 {
            ok(sinew_world_step(w, 1.0 / 60.0));
        }
        let after = read_positions(cloth);
        ok(sinew_world_destroy(w));
        before.iter().zip(&after).map(|(a, b)| dist(*a, *b)).fold(0.0f32, f32::max)
    };
    let free = slide(0.0);
    let held = slide(1.0);
    // Frictionless: ½·g·sin θ·t² = 1.68 m in 1 s.
    assert!((free - 0.5 * 9.81 * 20f32.to_radians().sin()).abs() < 0.1, "frictionless slide {free} m");
    assert!(held < 0.005, "inside the friction cone it moved {held} m");
}

/// Layers and masks: a collider on layer 2 is ignored by a body that only meets layer 1.
#[test]
fn collision_layers_filter_colliders() {
    let fall = |layers: u32| {
        let w = world(2, 2);
        let mut floor = collider_desc();
        floor.shape = SinewShape::SINEW_SHAPE_PLANE as u32;
        floor.layers = layers;
        floor.transform = translation(0.0, -0.5, 0.0);
        create_collider(w, &floor);
        let mut gd = grid_desc();
        gd.columns = 4;
        gd.rows = 4;
        gd.pin_mode = SinewPinMode::SINEW_PIN_NONE as u32;
        gd.material.collision_mask = 1;
        let cloth = create_grid(w, &gd);
        for _ in 0..60 {
            ok(sinew_world_step(w, 1.0 / 60.0));
        }
        let low = read_positions(cloth).iter().map(|p| p.y).fold(f32::INFINITY, f32::min);
        ok(sinew_world_destroy(w));
        low
    };
    assert!(fall(1) > -0.5, "layer 1 floor must hold the cloth");
    assert!(fall(2) < -1.0, "layer 2 floor must be ignored");
}

/// Two cloths paired for contact: one dropped onto the other lies on it; unpaired it falls
/// through.
#[test]
fn paired_cloths_do_not_pass_through_each_other() {
    let gap_after = |paired: bool| {
        let w = world(8, 1);
        let mut gd = grid_desc();
        gd.columns = 10;
        gd.rows = 10;
        gd.spacing = 0.05;
        gd.pin_mode = SinewPinMode::SINEW_PIN_TOP_CORNERS as u32;
        gd.material.thickness = 0.01;
        let lower = create_grid(w, &gd);
        // Pin all four corners of the lower cloth so it forms a hammock.
        let corners = [0u32, 9, 90, 99];
        ok(sinew_body_pin(lower, corners.as_ptr(), 4));
        gd.pin_mode = SinewPinMode::SINEW_PIN_NONE as u32;
        gd.origin = v3(0.0, 0.1, 0.0);
        gd.columns = 6;
        gd.rows = 6;
        let upper = create_grid(w, &gd);
        if paired {
            ok(sinew_body_set_collision_pair(lower, upper, 1));
        }
        for _ in 0..90 {
            ok(sinew_world_step(w, 1.0 / 60.0));
        }
        let a = read_positions(lower);
        let b = read_positions(upper);
        ok(sinew_world_destroy(w));
        let lowest_upper = b.iter().map(|p| p.y).fold(f32::INFINITY, f32::min);
        let mut closest = f32::INFINITY;
        for p in &a {
            for q in &b {
                closest = closest.min(dist(*p, *q));
            }
        }
        (closest, lowest_upper)
    };
    let (closest, lowest_paired) = gap_after(true);
    assert!(closest >= 0.9 * 0.02, "paired cloths came {closest} m close");
    // It lies in the hammock: the hammock (0.45 m wide) sags less than its width.
    assert!(lowest_paired > -0.45, "paired, the upper cloth fell through the lower one (lowest y {lowest_paired})");
    let (_, lowest) = gap_after(false);
    assert!(lowest < -0.5, "unpaired, the upper cloth should fall through (lowest y {lowest})");
}

#[test]
fn bad_collider_input_is_refused_and_destroy_is_safe() {
    let w = world(2, 1);
    let mut gd = grid_desc();
    gd.columns = 4;
    gd.rows = 4;
    let cloth = create_grid(w, &gd);
    let mut out = SinewCollider::default();
    let mut bad = |f: &dyn Fn(&mut SinewColliderDesc), code: SinewResult| {
        let mut d = collider_desc();
        f(&mut d);
        assert_eq!(sinew_collider_create(w, &d, &mut out), code, "{}", last_error());
        assert_eq!(out.id, 0, "out written on failure");
    };
    bad(&|d| d.radius = 0.0, SINEW_INVALID_ARGUMENT);
    bad(&|d| d.radius = -1.0, SINEW_INVALID_ARGUMENT);
    bad(&|d| d.radius = f32::NAN, SINEW_NON_FINITE);
    bad(&|d| d.transform.m[13] = f32::NAN, SINEW_NON_FINITE);
    bad(&|d| d.shape = 42, SINEW_INVALID_ARGUMENT);
    bad(
        &|d| {
            d.shape = SinewShape::SINEW_SHAPE_CAPSULE as u32;
            d.radius0 = 0.0;
            d.radius1 = 0.0;
        },
        SINEW_INVALID_ARGUMENT,
    );
    bad(
        &|d| {
            d.shape = SinewShape::SINEW_SHAPE_BOX as u32;
            d.half_extents = v3(0.1, -0.1, 0.1);
        },
        SINEW_INVALID_ARGUMENT,
    );
    bad(&|d| d.transform.m[5] = 2.0, SINEW_INVALID_ARGUMENT);
    assert!(last_error().contains("non-uniform"), "{}", last_error());
    let c = create_collider(w, &collider_desc());
    let mut m = translation(0.0, 0.0, 0.0);
    m.m[0] = f32::INFINITY;
    assert_eq!(sinew_collider_set_transform(c, &m), SINEW_NON_FINITE);
    assert_eq!(sinew_collider_set_transform(c, std::ptr::null()), SINEW_NULL_POINTER);
    assert_eq!(sinew_collider_destroy(SinewCollider { id: cloth.id }), SINEW_INVALID_HANDLE, "a body handle is not a collider");
    ok(sinew_world_step(w, 1.0 / 60.0));
    ok(sinew_collider_destroy(c));
    assert_eq!(sinew_collider_destroy(c), SINEW_INVALID_HANDLE);
    assert_eq!(sinew_collider_set_transform(c, &translation(0.0, 0.0, 0.0)), SINEW_INVALID_HANDLE);
    ok(sinew_world_step(w, 1.0 / 60.0));
    assert_eq!(sinew_body_set_collision_pair(cloth, cloth, 1), SINEW_INVALID_ARGUMENT);
    ok(sinew_world_destroy(w));
}
