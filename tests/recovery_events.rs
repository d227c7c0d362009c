//! A body the step has to put back on a finite state is reported: `SinewWorldStats.
//! recovered_bodies` and `sinew_world_read_events` say which body and why, once, and the
//! world keeps stepping (issue 11: "the step says so"). The state is poisoned through the
//! debug build's `sinew_debug_poison_body`, as an overflow would.

mod common;
use common::*;

fn stats(w: SinewWorld) -> SinewWorldStats {
    let mut s = std::mem::MaybeUninit::uninit();
    ok(sinew_world_get_stats(w, s.as_mut_ptr()));
    unsafe { s.assume_init() }
}

#[test]
fn a_quiet_world_reports_nothing() {
    let w = create_world(&world_desc());
    let _cloth = create_grid(w, &grid_desc());
    for _ in 0..30 {
        ok(sinew_world_step(w, 1.0 / 60.0));
        assert_eq!(stats(w).recovered_bodies, 0);
        assert!(events(w).is_empty());
    }
    // Reading into no buffer is fine when there is nothing to read.
    ok(sinew_world_read_events(w, std::ptr::null_mut(), 0));
    ok(sinew_world_destroy(w));
}

#[cfg(feature = "debug-panic")]
#[test]
fn a_recovered_body_is_reported_once_with_its_reason() {
    let w = create_world(&world_desc());
    let cloth = create_grid(w, &grid_desc());
    let other = create_grid(w, &grid_desc());
    for _ in 0..10 {
        ok(sinew_world_step(w, 1.0 / 60.0));
    }
    ok(sinew_debug_poison_body(cloth));
    ok(sinew_world_step(w, 1.0 / 60.0));
    assert_eq!(stats(w).recovered_bodies, 1);
    let e = events(w);
    assert_eq!(e.len(), 1);
    assert_eq!(e[0].body, cloth, "the event names the poisoned body, not {:?}", other);
    assert_eq!(e[0].kind, SinewEventKind::SINEW_EVENT_BODY_RECOVERED as u32);
    assert_eq!(e[0].reason, SinewRecoveryReason::SINEW_RECOVERY_STATE_NOT_FINITE as u32);
    // A buffer too small for the events is refused, not half written.
    let mut none: [SinewEvent; 0] = [];
    assert_eq!(sinew_world_read_events(w, none.as_mut_ptr(), 0), SINEW_BUFFER_TOO_SMALL);
    // The body reads back finite and keeps stepping; the next step reports nothing.
    let p = read_positions(cloth);
    assert!(p.iter().all(|v| v.x.is_finite() && v.y.is_finite() && v.z.is_finite()));
    ok(sinew_world_step(w, 1.0 / 60.0));
    assert_eq!(stats(w).recovered_bodies, 0);
    assert!(events(w).is_empty());
    let mut info = std::mem::MaybeUninit::uninit();
    ok(sinew_body_get_info(cloth, info.as_mut_ptr()));
    assert!(unsafe { info.assume_init() }.recoveries >= 1);
    ok(sinew_world_destroy(w));
}
