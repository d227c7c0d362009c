//! Found by the `descriptors` fuzz target (fuzz/corpus/descriptors/regression-tiny-ragdoll-mass):
//! a humanoid template with `total_mass` 1.0876171e-38 kg (positive, finite, so accepted) made
//! bones whose masses are subnormal; their inverse masses and inertias overflow and after two
//! steps `sinew_ragdoll_read_velocities` read back NaN. The humanoid's total mass must now be
//! within [1e-3, 1e5] kg, and a bone's nonzero mass within [1e-6, 1e6] kg.

mod common;
use common::*;

fn humanoid() -> SinewHumanoidBones {
    let mut h = std::mem::MaybeUninit::uninit();
    ok(sinew_humanoid_bones_default(h.as_mut_ptr()));
    // SAFETY: just filled.
    unsafe { h.assume_init() }
}

#[test]
fn a_ragdoll_of_subnormal_mass_is_refused() {
    let w = create_world(&world_desc());
    for m in [1.0876171e-38f32, 1e-30, 9e-4] {
        let mut h = humanoid();
        h.total_mass = m;
        let mut r = SinewRagdoll::default();
        assert_eq!(sinew_ragdoll_create_humanoid(w, &h, &ragdoll_settings(), &mut r), SINEW_INVALID_ARGUMENT, "total_mass {m:e} was accepted");
        assert!(last_error().contains("total_mass"), "{}", last_error());
        assert_eq!(r.id, 0);
    }
    let mut bones = chain_bones(v3(0.0, 2.0, 0.0), 3);
    bones[1].mass = 1e-30;
    let mut r = SinewRagdoll::default();
    assert_eq!(sinew_ragdoll_create(w, &ragdoll_settings(), bones.as_ptr(), 3, &mut r), SINEW_INVALID_ARGUMENT);
    assert!(last_error().contains("mass"), "{}", last_error());
    // The edge of the range is accepted and stays finite.
    let mut h = humanoid();
    h.total_mass = 1e-3;
    let mut r = SinewRagdoll::default();
    ok(sinew_ragdoll_create_humanoid(w, &h, &ragdoll_settings(), &mut r));
    for _ in 0..60 {
        ok(sinew_world_step(w, 1.0 / 60.0));
    }
    let n = bone_count(r);
    let (mut lin, mut ang) = (vec![SinewVec3::default(); n], vec![SinewVec3::default(); n]);
    ok(sinew_ragdoll_read_velocities(r, lin.as_mut_ptr(), n, ang.as_mut_ptr(), n));
    assert!(lin.iter().chain(&ang).all(|v| v.x.is_finite() && v.y.is_finite() && v.z.is_finite()), "non-finite velocities: {lin:?} {ang:?}");
    ok(sinew_world_destroy(w));
}
