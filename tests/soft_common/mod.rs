//! Shared helpers of the soft-body tests through the C ABI (with `mod common;`).
#![allow(dead_code)]

use crate::common::*;
pub use sinew::ffi::softbody::*;

pub fn soft_settings() -> SinewSoftSettings {
    let mut s = std::mem::MaybeUninit::uninit();
    ok(sinew_soft_settings_default(s.as_mut_ptr()));
    unsafe { s.assume_init() }
}

pub fn lattice_desc() -> SinewSoftLatticeDesc {
    let mut d = std::mem::MaybeUninit::uninit();
    ok(sinew_soft_lattice_desc_default(d.as_mut_ptr()));
    unsafe { d.assume_init() }
}

pub fn material() -> SinewMaterial {
    let mut m = std::mem::MaybeUninit::uninit();
    ok(sinew_material_default(m.as_mut_ptr()));
    unsafe { m.assume_init() }
}

/// A jelly: `n³` particles `spacing` apart centred at `at`, 1 kg, soft edges, shape matching
/// 0.3, `clusters` (0: one global cluster).
pub fn jelly_desc(n: u32, spacing: f32, at: SinewVec3, clusters: u32) -> SinewSoftLatticeDesc {
    let mut d = lattice_desc();
    (d.nx, d.ny, d.nz, d.spacing, d.origin, d.cluster_cells) = (n, n, n, spacing, at, clusters);
    d.material.particle_mass = 1.0 / (n * n * n) as f32;
    d.material.stretch_compliance = 1e-4;
    d.material.shear_compliance = 1e-4;
    d.material.damping = 0.1;
    d.soft.shape_stiffness = 0.3;
    d
}

pub fn create_lattice(w: SinewWorld, d: &SinewSoftLatticeDesc) -> SinewBody {
    let mut b = SinewBody::default();
    ok(sinew_softbody_create_lattice(w, d, &mut b));
    b
}

/// The 5 tetrahedra of a cube (corner c = i + 2j + 4k): one per odd corner and the central one.
pub const CUBE_TETS: [u32; 20] = [0, 1, 2, 4, 3, 1, 2, 7, 5, 1, 4, 7, 6, 2, 4, 7, 1, 2, 4, 7];

/// The corners of a cube of `side` with its lowest corner at `at`.
pub fn cube_positions(at: SinewVec3, side: f32) -> Vec<SinewVec3> {
    (0..8).map(|c| v3(at.x + side * (c & 1) as f32, at.y + side * ((c >> 1) & 1) as f32, at.z + side * ((c >> 2) & 1) as f32)).collect()
}

/// A tet-mesh cube of 5 tetrahedra, 1 kg, shape matching 0.3.
pub fn create_tet_cube(w: SinewWorld, at: SinewVec3, side: f32) -> SinewBody {
    let p = cube_positions(at, side);
    let mut m = material();
    m.particle_mass = 0.125;
    m.stretch_compliance = 1e-4;
    m.damping = 0.1;
    m.bend_compliance = 0.0;
    let mut s = soft_settings();
    s.shape_stiffness = 0.3;
    let mut b = SinewBody::default();
    ok(sinew_softbody_create_tets(w, p.as_ptr(), p.len(), CUBE_TETS.as_ptr(), CUBE_TETS.len(), &m, &s, &mut b));
    b
}

/// A plane collider through the origin, normal +Y.
pub fn floor_plane(w: SinewWorld) -> SinewCollider {
    let mut cd = collider_desc();
    cd.shape = SinewShape::SINEW_SHAPE_PLANE as u32;
    cd.transform = translation(0.0, 0.0, 0.0);
    create_collider(w, &cd)
}

pub fn volume(b: SinewBody) -> (f32, f32) {
    let (mut v, mut r) = (0.0f32, 0.0f32);
    ok(sinew_softbody_get_volume(b, &mut v, &mut r));
    (v, r)
}

pub fn world_stats(w: SinewWorld) -> SinewWorldStats {
    let mut s = SinewWorldStats::default();
    ok(sinew_world_get_stats(w, &mut s));
    s
}
