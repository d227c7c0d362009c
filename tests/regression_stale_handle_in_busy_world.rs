//! Regression: a body handle of a destroyed world, used while a newer world in the same slot
//! was stepping asynchronously, answered SINEW_BUSY instead of SINEW_INVALID_HANDLE.

mod common;
use common::*;

#[test]
fn stale_body_of_a_reused_world_slot_is_invalid_even_while_busy() {
    let a = create_world(&world_desc());
    let old = create_grid(a, &grid_desc());
    ok(sinew_world_destroy(a));
    // Fill slots until one world reuses a's slot (the registry hands out freed slots first).
    let b = create_world(&world_desc());
    ok(sinew_world_step_begin(b, 1.0 / 60.0));
    let mut info = SinewBodyInfo::default();
    assert_eq!(sinew_body_get_info(old, &mut info), SINEW_INVALID_HANDLE, "{}", last_error());
    assert_eq!(sinew_body_destroy(old), SINEW_INVALID_HANDLE, "{}", last_error());
    ok(sinew_world_step_end(b));
    ok(sinew_world_destroy(b));
}
