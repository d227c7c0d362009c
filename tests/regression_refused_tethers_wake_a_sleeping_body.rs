//! Regression (fuzz, `abi_calls`, 243k executions): `sinew_body_set_tethers` woke the body
//! before checking its arguments, so a refused call (no pinned particle, a scale out of
//! range, a NaN) changed the world: a sleeping body woke up. A refused call changes nothing.

mod common;
use common::*;

fn sleeping(b: SinewBody) -> bool {
    body_info(b).sleeping == 1
}

fn bits(p: &[SinewVec3]) -> Vec<u32> {
    p.iter().flat_map(|q| [q.x.to_bits(), q.y.to_bits(), q.z.to_bits()]).collect()
}

#[test]
fn refused_tethers_leave_a_sleeping_body_asleep() {
    let w = create_world(&world_desc());
    let mut floor = collider_desc();
    floor.shape = SinewShape::SINEW_SHAPE_PLANE as u32;
    create_collider(w, &floor);
    // An unpinned 6 × 6 cloth dropped 5 cm onto the floor, damped, sleeping below 1 mm/s held
    // for 0.2 s.
    let mut gd = grid_desc();
    (gd.columns, gd.rows, gd.spacing) = (6, 6, 0.05);
    gd.pin_mode = SinewPinMode::SINEW_PIN_NONE as u32;
    gd.origin = v3(0.0, 0.05, 0.0);
    gd.material.damping = 3.0;
    let cloth = create_grid(w, &gd);
    let mut d = dynamics();
    (d.sleep_threshold, d.sleep_time) = (1e-3, 0.2);
    ok(sinew_body_set_dynamics(cloth, &d));
    let mut frames = 0;
    while !sleeping(cloth) {
        ok(sinew_world_step(w, 1.0 / 60.0));
        frames += 1;
        assert!(frames < 60 * 20, "the cloth never fell asleep");
    }
    let at_rest = bits(&read_positions(cloth));

    let euclidean = SinewTetherMode::SINEW_TETHER_EUCLIDEAN as u32;
    let geodesic = SinewTetherMode::SINEW_TETHER_GEODESIC as u32;
    for (mode, scale, code, says) in [
        (euclidean, 1.1, SINEW_INVALID_ARGUMENT, "at least one pinned particle"),
        (geodesic, 1.1, SINEW_INVALID_ARGUMENT, "at least one pinned particle"),
        (euclidean, 0.5, SINEW_INVALID_ARGUMENT, "tether scale"),
        (geodesic, f32::NAN, SINEW_NON_FINITE, "tether scale"),
        (7, 1.1, SINEW_INVALID_ARGUMENT, ""),
    ] {
        assert_eq!(sinew_body_set_tethers(cloth, mode, scale), code, "mode {mode}, scale {scale}: {}", last_error());
        assert!(last_error().contains(says), "mode {mode}, scale {scale}: {}", last_error());
        assert!(sleeping(cloth), "a refused set_tethers (mode {mode}, scale {scale}) woke the body");
        ok(sinew_world_step(w, 1.0 / 60.0));
        assert!(sleeping(cloth), "asleep a frame after the refused call (mode {mode}, scale {scale})");
        assert_eq!(bits(&read_positions(cloth)), at_rest, "the sleeping cloth moved");
    }
    // An accepted call concerns the body: removing tethers wakes it, as every setter does.
    ok(sinew_body_set_tethers(cloth, SinewTetherMode::SINEW_TETHER_NONE as u32, 1.0));
    assert!(!sleeping(cloth), "an accepted set_tethers leaves the body asleep");
    ok(sinew_world_destroy(w));
}
