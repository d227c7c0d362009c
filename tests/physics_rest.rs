//! At rest is at rest (issue 11, part 4): static friction that really sticks — no creep on
//! a slope below the friction angle, sliding above it — through the C ABI.

mod common;
use common::*;

/// A 9 × 7 cloth with linear damping `damping` (1/s) dropped from `gap` above a plane tilted `deg` degrees, left one second to
/// land, then watched for `secs` seconds: the largest displacement of any particle.
fn slope_creep(deg: f32, mu_s: f32, mu_k: f32, damping: f32, gap: f32, secs: usize) -> f32 {
    let mut wd = world_desc();
    wd.interpolate = 0;
    let w = create_world(&wd);
    let angle = deg.to_radians();
    let mut plane = collider_desc();
    plane.shape = SinewShape::SINEW_SHAPE_PLANE as u32;
    plane.transform = rotation_z(angle, v3(0.0, 0.0, 0.0));
    create_collider(w, &plane);
    let mut gd = grid_desc();
    (gd.columns, gd.rows, gd.spacing) = (9, 7, 0.04);
    gd.pin_mode = SinewPinMode::SINEW_PIN_NONE as u32;
    gd.material.static_friction = mu_s;
    gd.material.kinetic_friction = mu_k;
    gd.material.thickness = 0.008;
    gd.material.damping = damping;
    let half = angle / 2.0;
    gd.orientation = SinewQuat { x: 0.0, y: 0.0, z: half.sin(), w: half.cos() };
    let n = v3(-angle.sin(), angle.cos(), 0.0);
    let lift = gd.material.thickness + gap;
    gd.origin = v3(n.x * lift, n.y * lift, 0.0);
    let cloth = create_grid(w, &gd);
    for _ in 0..60 {
        ok(sinew_world_step(w, 1.0 / 60.0));
    }
    let before = read_positions(cloth);
    for _ in 0..secs * 60 {
        ok(sinew_world_step(w, 1.0 / 60.0));
    }
    let after = read_positions(cloth);
    ok(sinew_world_destroy(w));
    before.iter().zip(&after).map(|(a, b)| dist(*a, *b)).fold(0.0f32, f32::max)
}

/// Resting on a 15° slope (default damping) with μs = 0.6, μk = 0.5 (tan 15° = 0.27, well inside the cone):
/// over 5 s no particle moves by a micrometre (before: 25 µm). (Before: a creep of ~1e-5 m/s, the rounding of
/// the trip into the plane's frame and back repeated the same way every substep.)
#[test]
fn cloth_resting_on_a_gentle_slope_does_not_creep() {
    let moved = slope_creep(15.0, 0.6, 0.5, 0.3, 0.001, 5);
    assert!(moved < 1e-6, "the cloth crept {moved} m in 5 s on a slope inside the friction cone");
}

/// Dropped (undamped) 2 mm onto a 24° slope with μs = 0.5, μk = 0.4: tan 24° = 0.445 lies between μk and
/// μs, so a cloth that lands sticks and stays. (Before: the landing's friction was bounded by
/// the depth past the surface only, not by the whole approach the contact stopped, so it
/// started to slide and, μk being below tan θ, never stopped: metres in 4 s.)
#[test]
fn cloth_dropped_on_a_slope_below_the_friction_angle_sticks() {
    let moved = slope_creep(24.0, 0.5, 0.4, 0.0, 0.002, 4);
    assert!(moved < 1e-5, "the cloth slid {moved} m in 4 s below the friction angle (tan 24° < μs = 0.5)");
}

/// Above the friction angle it slides (undamped): 32° with μs = 0.5, μk = 0.4 accelerates at
/// g·(sin θ − μk·cos θ) = 1.87 m/s².
#[test]
fn cloth_on_a_slope_above_the_friction_angle_slides() {
    let moved = slope_creep(32.0, 0.5, 0.4, 0.0, 0.0, 4);
    let a = 9.81 * (32f32.to_radians().sin() - 0.4 * 32f32.to_radians().cos());
    // Moving for 1 s already (v = a), then 4 s more: a·(1·4 + 4²/2) = 12·a.
    let want = 12.0 * a;
    assert!((moved - want).abs() < 0.05 * want, "slid {moved} m, Coulomb says {want} m");
}

/// No jitter from contact: a cloth lying on a floor tilted 10° (μs 0.5), sleeping turned
/// off so every step runs, is bit for bit still from the second second on — stuck contacts
/// keep no velocity and their place on the collider. (Before: its particles kept moving by
/// rounding: 1.2e-7 m in the first frame watched, ~7e-6 m/s.)
#[test]
fn a_cloth_lying_on_a_floor_is_exactly_still_while_awake() {
    let mut wd = world_desc();
    wd.interpolate = 0;
    let w = create_world(&wd);
    let angle = 10f32.to_radians();
    let mut plane = collider_desc();
    plane.shape = SinewShape::SINEW_SHAPE_PLANE as u32;
    plane.transform = rotation_z(angle, v3(0.0, 0.0, 0.0));
    create_collider(w, &plane);
    let mut gd = grid_desc();
    (gd.columns, gd.rows, gd.spacing) = (12, 10, 0.03);
    gd.pin_mode = SinewPinMode::SINEW_PIN_NONE as u32;
    let half = angle / 2.0;
    gd.orientation = SinewQuat { x: 0.0, y: 0.0, z: half.sin(), w: half.cos() };
    let lift = gd.material.thickness + 0.003;
    gd.origin = v3(-angle.sin() * lift, angle.cos() * lift, 0.0);
    let cloth = create_grid(w, &gd);
    let mut d = dynamics();
    d.sleep_threshold = 0.0;
    ok(sinew_body_set_dynamics(cloth, &d));
    for _ in 0..60 {
        ok(sinew_world_step(w, 1.0 / 60.0));
    }
    let rest = read_positions(cloth);
    for f in 0..120 {
        ok(sinew_world_step(w, 1.0 / 60.0));
        let p = read_positions(cloth);
        let moved = rest.iter().zip(&p).map(|(a, b)| dist(*a, *b)).fold(0.0f32, f32::max);
        assert!(p == rest, "frame {f}: a particle moved {moved} m while lying still");
    }
    assert_eq!(body_info(cloth).substeps, 8, "it must have been stepped");
    ok(sinew_world_destroy(w));
}
