//! Regression (issue 30, "silent acceptances" and "the C layer checks a second time"): ranges
//! the header promised and the library refused, or values it took without a word. Each is now
//! checked once, in the core, at the header's figures, both edges:
//!
//! - `sinew_ragdoll_add_force`: ±1e7 N per component documented, 2e6 was refused (the core
//!   used the impulse's 1e6);
//! - `SinewHumanoidBones.total_mass`: documented (0, 1e6], 2e5 refused by the core's
//!   [1e-3, 1e5]; the header now says [1e-3, 1e5];
//! - `SinewBoneDesc.mass`: documented [0, 1e6], 1e-7 refused (0 or [1e-6, 1e6]: now said);
//! - `SinewBoneDesc.density`: a NaN or infinite density beside a mass was taken;
//! - gravity: the header said 100 g, the library takes up to 1000 m/s² (now said);
//! - a buffer capacity of 2^62 bytes was believed (save state).

mod common;

use common::*;
use sinew::ffi::snapshot::*;

fn world() -> SinewWorld {
    let mut d = world_desc();
    d.thread_count = 1;
    create_world(&d)
}

fn humanoid_bones() -> SinewHumanoidBones {
    let mut h = std::mem::MaybeUninit::uninit();
    ok(sinew_humanoid_bones_default(h.as_mut_ptr()));
    unsafe { h.assume_init() }
}

fn code(r: SinewResult) -> SinewResult {
    if r != SinewResult::SINEW_OK {
        let m = last_error();
        assert!(m.len() > 20, "a refusal says why: {m:?}");
    }
    r
}

#[test]
fn a_force_is_taken_up_to_the_documented_1e7_newtons() {
    let w = world();
    let mut r = SinewRagdoll::default();
    ok(sinew_ragdoll_create_humanoid(w, &humanoid_bones(), &ragdoll_settings(), &mut r));
    let at = v3(0.0, 1.0, 0.0);
    assert_eq!(code(sinew_ragdoll_add_force(r, 0, at, v3(2e6, 0.0, 0.0))), SinewResult::SINEW_OK);
    assert_eq!(code(sinew_ragdoll_add_force(r, 0, at, v3(0.0, -1e7, 0.0))), SinewResult::SINEW_OK);
    assert_eq!(code(sinew_ragdoll_add_force(r, 0, at, v3(0.0, 0.0, 1.01e7))), SinewResult::SINEW_INVALID_ARGUMENT);
    assert_eq!(code(sinew_ragdoll_add_force(r, 0, at, v3(f32::NAN, 0.0, 0.0))), SinewResult::SINEW_NON_FINITE);
    // The impulse keeps its 1e6 N·s, checked once.
    let mut bone = 0u32;
    assert_eq!(code(sinew_ragdoll_apply_impulse(r, at, v3(1e6, 0.0, 0.0), &mut bone)), SinewResult::SINEW_OK);
    assert_eq!(code(sinew_ragdoll_apply_impulse(r, at, v3(1.01e6, 0.0, 0.0), &mut bone)), SinewResult::SINEW_INVALID_ARGUMENT);
    ok(sinew_world_step(w, 1.0 / 60.0));
    ok(sinew_world_destroy(w));
}

#[test]
fn a_humanoid_takes_the_documented_total_mass_edges() {
    let w = world();
    let mut r = SinewRagdoll::default();
    for (mass, expect) in [(1e-3f32, SinewResult::SINEW_OK), (1e5, SinewResult::SINEW_OK), (9e-4, SinewResult::SINEW_INVALID_ARGUMENT), (1.01e5, SinewResult::SINEW_INVALID_ARGUMENT), (f32::INFINITY, SinewResult::SINEW_NON_FINITE)] {
        let h = SinewHumanoidBones { total_mass: mass, ..humanoid_bones() };
        assert_eq!(code(sinew_ragdoll_create_humanoid(w, &h, &ragdoll_settings(), &mut r)), expect, "total_mass {mass}");
    }
    ok(sinew_world_destroy(w));
}

#[test]
fn a_bone_takes_its_documented_mass_and_always_a_finite_density() {
    let w = world();
    let s = ragdoll_settings();
    let mut r = SinewRagdoll::default();
    for (mass, density, expect) in [
        (1e-6f32, 1000.0f32, SinewResult::SINEW_OK),
        (1e6, 1000.0, SinewResult::SINEW_OK),
        (0.0, 1e5, SinewResult::SINEW_OK),
        (1e-7, 1000.0, SinewResult::SINEW_INVALID_ARGUMENT),
        (1.0, f32::NAN, SinewResult::SINEW_NON_FINITE),
        (1.0, f32::INFINITY, SinewResult::SINEW_NON_FINITE),
        (1.0, 0.0, SinewResult::SINEW_INVALID_ARGUMENT),
    ] {
        let b = SinewBoneDesc { mass, density, ..bone_desc() };
        assert_eq!(code(sinew_ragdoll_create(w, &s, &b, 1, &mut r)), expect, "mass {mass}, density {density}");
    }
    ok(sinew_world_destroy(w));
}

#[test]
fn gravity_is_taken_up_to_1000() {
    let w = world();
    assert_eq!(code(sinew_world_set_gravity(w, v3(0.0, -1000.0, 0.0))), SinewResult::SINEW_OK);
    assert_eq!(code(sinew_world_set_gravity(w, v3(0.0, -1001.0, 0.0))), SinewResult::SINEW_INVALID_ARGUMENT);
    ok(sinew_world_destroy(w));
}

#[test]
fn a_buffer_larger_than_any_address_space_is_refused() {
    let w = world();
    let mut buf = [0u8; 16];
    let mut size = 0usize;
    assert_eq!(code(sinew_world_save_state(w, buf.as_mut_ptr(), 1 << 62, &mut size)), SinewResult::SINEW_TOO_LARGE);
    assert_eq!(buf, [0u8; 16], "a refused call writes nothing");
    ok(sinew_world_destroy(w));
}
