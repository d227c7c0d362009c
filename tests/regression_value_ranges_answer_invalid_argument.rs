//! Regression (issue 30, documented codes): a joint limit beyond its documented degrees
//! (`hinge_*`, `swing1`/`swing2`, `*_twist`) and a `max_mass_ratio` outside [1, 10000]
//! answered `SINEW_OUT_OF_RANGE`, which the header keeps for an index outside an object's
//! range; every other value outside its documented range answers `SINEW_INVALID_ARGUMENT`.
//! They now do too, and a bone index past the end still answers `SINEW_OUT_OF_RANGE`.

mod common;

use common::*;

const HINGE: u32 = SinewJointKind::SINEW_JOINT_HINGE as u32;
const CONE: u32 = SinewJointKind::SINEW_JOINT_SWING_TWIST as u32;

fn create(w: SinewWorld, s: &SinewRagdollSettings, bones: &[SinewBoneDesc]) -> SinewResult {
    let mut r = SinewRagdoll::default();
    let got = sinew_ragdoll_create(w, s, bones.as_ptr(), bones.len(), &mut r);
    assert_eq!(got == SINEW_OK, r != SinewRagdoll::default(), "a handle is written exactly when the ragdoll is made");
    got
}

#[test]
fn a_limit_or_ratio_outside_its_range_is_an_invalid_argument() {
    let mut d = world_desc();
    d.thread_count = 1;
    let w = create_world(&d);
    let s = ragdoll_settings();
    let joint = |f: &dyn Fn(&mut SinewJointDesc)| {
        let mut b = chain_bones(v3(0.0, 2.0, 0.0), 2);
        f(&mut b[1].joint);
        b
    };
    let past_180 = 180f32.next_up();
    let cases = [
        ("hinge max", joint(&|j| (j.kind, j.hinge_max) = (HINGE, past_180))),
        ("hinge min", joint(&|j| (j.kind, j.hinge_min) = (HINGE, -past_180))),
        ("swing1", joint(&|j| (j.kind, j.swing1) = (CONE, 177f32.next_up()))),
        ("swing2", joint(&|j| (j.kind, j.swing2) = (CONE, -f32::from_bits(1)))),
        ("low_twist", joint(&|j| (j.kind, j.low_twist) = (CONE, -past_180))),
        ("high_twist", joint(&|j| (j.kind, j.high_twist) = (CONE, past_180))),
    ];
    for (name, bones) in &cases {
        assert_eq!(create(w, &s, bones), SINEW_INVALID_ARGUMENT, "{name}");
        let m = last_error();
        assert!(m.contains(name) && m.contains("degrees"), "the refusal names {name} and its unit: {m}");
    }
    for ratio in [1f32.next_down(), 1e4f32.next_up()] {
        let st = SinewRagdollSettings { max_mass_ratio: ratio, ..s };
        assert_eq!(create(w, &st, &chain_bones(v3(0.0, 2.0, 0.0), 2)), SINEW_INVALID_ARGUMENT, "max_mass_ratio {ratio}");
        assert!(last_error().contains("max_mass_ratio must be within [1, 10000]"), "{}", last_error());
    }
    // The edges are taken, and an index past the end keeps its own code.
    let edges = joint(&|j| (j.kind, j.swing1, j.swing2, j.low_twist, j.high_twist) = (CONE, 177.0, 0.0, -180.0, 180.0));
    assert_eq!(create(w, &SinewRagdollSettings { max_mass_ratio: 1e4, ..s }, &edges), SINEW_OK, "{}", last_error());
    let mut r = SinewRagdoll::default();
    ok(sinew_ragdoll_create(w, &s, chain_bones(v3(3.0, 2.0, 0.0), 2).as_ptr(), 2, &mut r));
    assert_eq!(sinew_ragdoll_set_bone_kinematic(r, 2, 1), SINEW_OUT_OF_RANGE);
    ok(sinew_world_step(w, 1.0 / 60.0));
    ok(sinew_world_destroy(w));
}
