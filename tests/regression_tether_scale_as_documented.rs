//! Regression (issue 30, documented ranges): `sinew_body_set_tethers` documented its `scale`
//! as "≥ 1", and the library refused anything above 100 (`MAX_FACTOR`). The header now says
//! `scale` in [1, 100], the range the core checks; both edges are taken and the next float
//! outside each is refused with `SINEW_INVALID_ARGUMENT`, the cloth still stepping.

mod common;

use common::*;

#[test]
fn the_tether_scale_is_taken_over_its_documented_range() {
    let header = include_str!("../include/sinew.h");
    assert!(header.contains("`scale` in [1, 100]"), "the header states the tether scale's range");
    let mut d = world_desc();
    d.thread_count = 1;
    let w = create_world(&d);
    let mut gd = grid_desc();
    (gd.columns, gd.rows) = (4, 4);
    let b = create_grid(w, &gd);
    let euclidean = SinewTetherMode::SINEW_TETHER_EUCLIDEAN as u32;
    for (scale, want) in [(1.0f32, SINEW_OK), (100.0, SINEW_OK), (1f32.next_down(), SINEW_INVALID_ARGUMENT), (100f32.next_up(), SINEW_INVALID_ARGUMENT)] {
        assert_eq!(sinew_body_set_tethers(b, euclidean, scale), want, "scale {scale}: {}", last_error());
        ok(sinew_world_step(w, 1.0 / 60.0));
    }
    assert!(last_error().contains("tether scale"), "{}", last_error());
    assert_eq!(body_info(b).recoveries, 0);
    ok(sinew_world_destroy(w));
}
