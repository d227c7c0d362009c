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

/// The soft-body scene of the determinism and allocation tests, on a plane: a 5³ jelly with
/// clusters of 2³ cells; a 4³ jelly in linear mode with plasticity dropped onto it, the two
/// paired; a cube of 5 tetrahedra with a pinned corner; a cloth draped over the first jelly,
/// paired with it; and (`big`) a 9³ jelly with clusters of 3³ cells. Returns the bodies, the
/// soft ones first (jelly, jelly, cube[, big]), the cloth last.
pub fn soft_scene(w: SinewWorld, big: bool) -> Vec<SinewBody> {
    floor_plane(w);
    let a = create_lattice(w, &jelly_desc(5, 0.05, v3(0.0, 0.3, 0.0), 2));
    let mut bd = jelly_desc(4, 0.05, v3(0.03, 0.6, 0.02), 0);
    bd.all_neighbours = 0;
    bd.soft.shape_linear = 0.5;
    bd.soft.plastic_yield = 0.02;
    bd.soft.plastic_creep = 2.0;
    bd.soft.volume_compliance = 1e-6;
    let b = create_lattice(w, &bd);
    ok(sinew_body_set_collision_pair(a, b, 1));
    let cube = create_tet_cube(w, v3(1.0, 0.3, 0.0), 0.1);
    ok(sinew_body_pin(cube, [7u32].as_ptr(), 1));
    let mut bodies = vec![a, b, cube];
    if big {
        bodies.push(create_lattice(w, &jelly_desc(9, 0.04, v3(-1.2, 0.4, 0.3), 3)));
    }
    let mut gd = grid_desc();
    (gd.columns, gd.rows, gd.spacing) = (10, 10, 0.04);
    gd.origin = v3(0.0, 0.5, 0.0);
    gd.pin_mode = SinewPinMode::SINEW_PIN_NONE as u32;
    let cloth = create_grid(w, &gd);
    ok(sinew_body_set_collision_pair(cloth, a, 1));
    bodies.push(cloth);
    bodies
}

/// The scene's per-frame input for frame `f`: the cube's pinned corner circles.
pub fn soft_scene_frame(bodies: &[SinewBody], f: usize) {
    let t = f as f32 / 60.0;
    let target = v3(1.1 + 0.05 * (2.0 * t).cos(), 0.45 + 0.05 * (3.0 * t).sin(), 0.1);
    ok(sinew_body_set_pin_targets(bodies[2], [7u32].as_ptr(), 1, &target, 1));
}
