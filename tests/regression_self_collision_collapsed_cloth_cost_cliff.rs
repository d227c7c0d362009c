//! Regression (issue 30, cost cliffs; found by the `abi_calls` fuzzer): a 40 × 40 cloth with
//! self-collision whose particles were all pinned to one point met every other particle in
//! its self-collision search, n²/2 = 1.28 million pairs (and 2.5 million particle–triangle
//! candidates): 86 ms for one step of 1,600 particles. Each particle's search now keeps at
//! most `MAX_SELF_PAIRS_PER_PARTICLE` (64) pairs per band, and the particles that reached it
//! are reported in `SinewWorldStats.capped_particles`. Counted, not timed.

mod common;
use common::*;

const CAP: usize = 64;

fn stats(w: SinewWorld) -> SinewWorldStats {
    let mut s = SinewWorldStats::default();
    ok(sinew_world_get_stats(w, &mut s));
    s
}

#[test]
fn a_cloth_pinned_to_one_point_searches_a_bounded_number_of_pairs() {
    let mut wd = world_desc();
    wd.thread_count = 1;
    let w = create_world(&wd);
    let mut gd = grid_desc();
    (gd.columns, gd.rows, gd.spacing) = (40, 40, 0.03);
    gd.pin_mode = SinewPinMode::SINEW_PIN_NONE as u32;
    gd.material.self_collision = 1;
    gd.material.thickness = 0.012;
    let cloth = create_grid(w, &gd);
    let n = 1600usize;
    // Falling flat, its contacts hold: nothing capped.
    ok(sinew_world_step(w, 1.0 / 60.0));
    assert_eq!(stats(w).capped_particles, 0);
    // Every particle pinned to one point.
    let all: Vec<u32> = (0..n as u32).collect();
    let point = vec![v3(0.1, 1.0, -0.2); n];
    ok(sinew_body_set_pin_targets(cloth, all.as_ptr(), n, point.as_ptr(), n));
    // (The first step teleports it there; the second searches from there.)
    ok(sinew_world_step(w, 1.0 / 60.0));
    ok(sinew_world_step(w, 1.0 / 60.0));
    assert!(read_positions(cloth).iter().all(|p| dist(*p, point[0]) < 1e-6), "the cloth is not at its one point");
    let (pairs, tris) = self_counts(cloth);
    let capped = stats(w).capped_particles as usize;
    println!("{n} particles at one point: {pairs} self pairs, {tris} particle-triangle candidates, {capped} particles capped");
    // Before the cap: n (n − 1) / 2 pairs. Now at most the cap per particle.
    assert!(pairs <= CAP * n, "{pairs} pairs for {n} particles");
    assert!(pairs < n * (n - 1) / 8, "{pairs} pairs: the search was not capped");
    // Each query finds the particles after it in the search's order, so every one but the
    // last 64 reaches the cap: exactly that many pairs and particles, reported.
    assert_eq!(pairs, CAP * (n - CAP) + CAP * (CAP - 1) / 2);
    assert!(capped >= n - CAP && capped <= n, "{capped} particles reported capped");
    // Released, the crumpled body keeps stepping within the bound, finite. (It stays
    // crumpled, with or without the cap: packed that tight, its constraints and contacts push
    // as much one way as the other.)
    ok(sinew_body_unpin(cloth, all.as_ptr(), n));
    let mut last = capped;
    for _ in 0..120 {
        ok(sinew_world_step(w, 1.0 / 60.0));
        let (pairs, _) = self_counts(cloth);
        assert!(pairs <= CAP * n, "{pairs} pairs for {n} particles");
        last = stats(w).capped_particles as usize;
    }
    assert!(read_positions(cloth).iter().all(|p| p.x.is_finite() && p.y.is_finite() && p.z.is_finite()));
    println!("after 2 s released: {last} particles capped");
    assert!(last <= n);
    ok(sinew_world_destroy(w));
}

/// The body's self-collision work in the last step, read from the core body behind the handle.
fn self_counts(body: SinewBody) -> (usize, usize) {
    sinew::ffi::registry::with_body(body, |b, _| Ok(b.self_contact_counts())).expect("live body")
}
