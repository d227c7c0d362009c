//! Soft bodies through the C ABI (Rust): every `sinew_softbody_*` call's error paths with
//! their codes and messages, and that a refused call changes nothing — no body created, no
//! handle written, the settings of the body as they were, the world's counts the same; then
//! that the `sinew_body_*` calls (readback of positions, normals and the surface, pins,
//! teleport, pairs, destroy) work on soft bodies.

mod common;
use common::*;
mod soft_common;
use soft_common::*;

const NAN: f32 = f32::NAN;

#[track_caller]
fn refused(r: SinewResult, code: SinewResult, text: &str) {
    assert_eq!(r, code, "expected {code:?}, got {r:?}: {}", last_error());
    let msg = last_error();
    assert!(msg.starts_with(&format!("{code:?}: ")), "message {msg:?} does not start with the code");
    assert!(msg.contains(text), "message {msg:?} does not mention {text:?}");
    println!("{code:?} -> {msg}");
}

/// A lattice refused with `code`: no handle written, no body created, no particle added.
#[track_caller]
fn lattice_refused(w: SinewWorld, d: &SinewSoftLatticeDesc, code: SinewResult, text: &str) {
    let before = world_stats(w);
    let mut out = SinewBody { id: 0xdead };
    refused(sinew_softbody_create_lattice(w, d, &mut out), code, text);
    assert_eq!(out.id, 0xdead, "a handle was written on failure");
    let after = world_stats(w);
    assert_eq!((after.body_count, after.particle_count, after.constraint_count), (before.body_count, before.particle_count, before.constraint_count), "a refused lattice changed the world");
}

#[track_caller]
fn tets_refused(w: SinewWorld, p: &[SinewVec3], idx: &[u32], m: &SinewMaterial, s: &SinewSoftSettings, code: SinewResult, text: &str) {
    let before = world_stats(w);
    let mut out = SinewBody { id: 0xdead };
    refused(sinew_softbody_create_tets(w, p.as_ptr(), p.len(), idx.as_ptr(), idx.len(), m, s, &mut out), code, text);
    assert_eq!(out.id, 0xdead, "a handle was written on failure");
    let after = world_stats(w);
    assert_eq!((after.body_count, after.particle_count), (before.body_count, before.particle_count), "a refused tet mesh changed the world");
}

fn get_settings(b: SinewBody) -> SinewSoftSettings {
    let mut s = SinewSoftSettings { volume_compliance: -1.0, shape_stiffness: -1.0, chapter_stiffness: 9, shape_linear: -1.0, plastic_yield: -1.0, plastic_creep: -1.0, plastic_max: -1.0, pressure: -1.0, external_pressure: -1.0 };
    ok(sinew_softbody_get_settings(b, &mut s));
    s
}

#[test]
fn defaults_are_documented() {
    let s = soft_settings();
    assert_eq!(s, SinewSoftSettings { volume_compliance: 0.0, shape_stiffness: 0.5, chapter_stiffness: 0, shape_linear: 0.0, plastic_yield: 0.1, plastic_creep: 0.0, plastic_max: 0.5, pressure: 0.0, external_pressure: 0.0 });
    let d = lattice_desc();
    assert_eq!((d.nx, d.ny, d.nz, d.spacing, d.all_neighbours, d.cluster_cells), (4, 4, 4, 0.05, 1, 0));
    assert_eq!((d.origin.x, d.origin.y, d.origin.z, d.orientation.w), (0.0, 0.0, 0.0, 1.0));
    assert_eq!(d.material.bend_compliance, 0.0);
    assert_eq!(d.soft, s);
    refused(sinew_soft_settings_default(std::ptr::null_mut()), SINEW_NULL_POINTER, "out_settings");
    refused(sinew_soft_lattice_desc_default(std::ptr::null_mut()), SINEW_NULL_POINTER, "out_desc");
}

#[test]
fn lattice_errors_create_nothing() {
    let mut wd = world_desc();
    wd.thread_count = 1;
    let w = create_world(&wd);
    let good = lattice_desc();
    let jelly = create_lattice(w, &good);
    assert_eq!(body_info(jelly).kind, SinewBodyKind::SINEW_BODY_SOFT as u32);
    let mut out = SinewBody::default();
    refused(sinew_softbody_create_lattice(w, std::ptr::null(), &mut out), SINEW_NULL_POINTER, "desc");
    refused(sinew_softbody_create_lattice(w, &good, std::ptr::null_mut()), SINEW_NULL_POINTER, "out_body");
    refused(sinew_softbody_create_lattice(SinewWorld::default(), &good, &mut out), SINEW_INVALID_HANDLE, "world handle");
    assert_eq!(world_stats(w).body_count, 1);

    let cases: Vec<(Box<dyn Fn(&mut SinewSoftLatticeDesc)>, SinewResult, &str)> = vec![
        (Box::new(|d| d.nx = 0), SINEW_INVALID_ARGUMENT, "at least 2"),
        (Box::new(|d| d.nz = 1), SINEW_INVALID_ARGUMENT, "at least 2"),
        (Box::new(|d| (d.nx, d.ny, d.nz) = (1, 1, 1)), SINEW_INVALID_ARGUMENT, "1 x 1 x 1"),
        (Box::new(|d| (d.nx, d.ny, d.nz) = (u32::MAX, u32::MAX, 2)), SINEW_TOO_LARGE, "limit per body"),
        (Box::new(|d| d.spacing = NAN), SINEW_NON_FINITE, "spacing"),
        (Box::new(|d| d.spacing = f32::INFINITY), SINEW_NON_FINITE, "spacing"),
        (Box::new(|d| d.spacing = 0.0), SINEW_INVALID_ARGUMENT, "spacing"),
        (Box::new(|d| d.spacing = 5e3), SINEW_INVALID_ARGUMENT, "spacing"),
        (Box::new(|d| d.orientation = SinewQuat { x: 0.0, y: 0.0, z: 0.0, w: 0.5 }), SINEW_INVALID_ARGUMENT, "unit quaternion"),
        (Box::new(|d| d.orientation = SinewQuat { x: 0.0, y: 0.0, z: 0.0, w: 0.0 }), SINEW_INVALID_ARGUMENT, "unit quaternion"),
        (Box::new(|d| d.orientation.z = NAN), SINEW_NON_FINITE, "orientation"),
        (Box::new(|d| d.origin.y = NAN), SINEW_NON_FINITE, "origin"),
        (Box::new(|d| d.origin.y = 2e6), SINEW_INVALID_ARGUMENT, "origin"),
        (Box::new(|d| d.cluster_cells = 1025), SINEW_INVALID_ARGUMENT, "cluster_cells"),
        (Box::new(|d| d.material.particle_mass = 0.0), SINEW_INVALID_ARGUMENT, "particle_mass"),
        (Box::new(|d| d.material.thickness = NAN), SINEW_NON_FINITE, "thickness"),
        (Box::new(|d| d.soft.volume_compliance = 1e4), SINEW_INVALID_ARGUMENT, "volume_compliance"),
        (Box::new(|d| d.soft.shape_stiffness = 1.0001), SINEW_INVALID_ARGUMENT, "shape_stiffness"),
        (Box::new(|d| d.soft.shape_linear = -0.1), SINEW_INVALID_ARGUMENT, "shape_linear"),
        (Box::new(|d| d.soft.plastic_max = NAN), SINEW_NON_FINITE, "plastic_max"),
    ];
    for (edit, code, text) in &cases {
        let mut d = good;
        edit(&mut d);
        lattice_refused(w, &d, *code, text);
        ok(sinew_world_step(w, 1.0 / 60.0));
    }
    // The edges of the ranges are accepted.
    let mut d = good;
    (d.nx, d.ny, d.nz) = (2, 2, 2);
    d.soft = SinewSoftSettings { volume_compliance: 1e3, shape_stiffness: 1.0, chapter_stiffness: 1, shape_linear: 1.0, plastic_yield: 0.0, plastic_creep: 1e3, plastic_max: 1e3, pressure: 1e7, external_pressure: 1e7 };
    let tiny = create_lattice(w, &d);
    assert_eq!(body_info(tiny).particle_count, 8);
    assert_eq!(get_settings(tiny), d.soft);
    assert_eq!(world_stats(w).body_count, 2);
    ok(sinew_world_destroy(w));
}

#[test]
fn tet_mesh_errors_name_the_tetrahedron_and_create_nothing() {
    let mut wd = world_desc();
    wd.thread_count = 1;
    let w = create_world(&wd);
    let p = cube_positions(v3(0.0, 1.0, 0.0), 0.1);
    let (m, s) = (material(), soft_settings());
    let cube = create_tet_cube(w, v3(0.0, 1.0, 0.0), 0.1);
    let (v, r) = volume(cube);
    assert!((r - 1e-3).abs() < 1e-8 && (v - r).abs() < 1e-8, "the cube's volume {v} of {r}");
    let before = world_stats(w);
    let mut out = SinewBody { id: 0xdead };
    let t = &CUBE_TETS;
    refused(sinew_softbody_create_tets(w, std::ptr::null(), 8, t.as_ptr(), 20, &m, &s, &mut out), SINEW_NULL_POINTER, "positions");
    refused(sinew_softbody_create_tets(w, p.as_ptr(), 8, std::ptr::null(), 20, &m, &s, &mut out), SINEW_NULL_POINTER, "indices");
    refused(sinew_softbody_create_tets(w, p.as_ptr(), 8, t.as_ptr(), 20, std::ptr::null(), &s, &mut out), SINEW_NULL_POINTER, "material");
    refused(sinew_softbody_create_tets(w, p.as_ptr(), 8, t.as_ptr(), 20, &m, std::ptr::null(), &mut out), SINEW_NULL_POINTER, "settings");
    refused(sinew_softbody_create_tets(w, p.as_ptr(), 8, t.as_ptr(), 20, &m, &s, std::ptr::null_mut()), SINEW_NULL_POINTER, "out_body");
    refused(sinew_softbody_create_tets(SinewWorld { id: 12345 }, p.as_ptr(), 8, t.as_ptr(), 20, &m, &s, &mut out), SINEW_INVALID_HANDLE, "world handle");
    refused(sinew_softbody_create_tets(w, p.as_ptr(), 8, t.as_ptr(), usize::MAX / 2, &m, &s, &mut out), SINEW_TOO_LARGE, "indices");
    assert_eq!(out.id, 0xdead);
    assert_eq!(world_stats(w).body_count, before.body_count);

    // Each tetrahedron in turn out of range, then degenerate: the message names it.
    for k in 0..5 {
        let mut idx = CUBE_TETS;
        idx[4 * k + 3] = 8 + k as u32;
        tets_refused(w, &p, &idx, &m, &s, SINEW_OUT_OF_RANGE, &format!("tetrahedron {k} has index {}", 8 + k));
        let mut idx = CUBE_TETS;
        idx[4 * k + 1] = idx[4 * k];
        tets_refused(w, &p, &idx, &m, &s, SINEW_INVALID_ARGUMENT, &format!("tetrahedron {k} "));
        assert!(last_error().contains("degenerate"));
    }
    // Flat: four corners of one face.
    let mut idx = CUBE_TETS;
    idx[8..12].copy_from_slice(&[0, 1, 4, 5]);
    tets_refused(w, &p, &idx, &m, &s, SINEW_INVALID_ARGUMENT, "tetrahedron 2 ([0, 1, 4, 5]) is degenerate");
    // Nearly flat (1e-7 of the cube's side off the plane): still refused, as documented (volume
    // below 1e-12 of the bounding box).
    let mut q = p.clone();
    q.push(v3(0.05, 1.0 + 1e-8, 0.05));
    let mut idx = CUBE_TETS.to_vec();
    idx.extend_from_slice(&[0, 1, 4, 8]);
    tets_refused(w, &q, &idx, &m, &s, SINEW_INVALID_ARGUMENT, "tetrahedron 5");
    // Counts.
    for count in [1usize, 2, 3, 5, 19] {
        tets_refused(w, &p, &CUBE_TETS[..count], &m, &s, SINEW_INVALID_ARGUMENT, "4 per tetrahedron");
    }
    tets_refused(w, &p, &[], &m, &s, SINEW_INVALID_ARGUMENT, "1 tetrahedron");
    tets_refused(w, &p[..3], &[0, 1, 2, 0], &m, &s, SINEW_INVALID_ARGUMENT, "at least 4 positions");
    // Positions, material, settings.
    let mut bad = p.clone();
    bad[6].x = NAN;
    tets_refused(w, &bad, &CUBE_TETS, &m, &s, SINEW_NON_FINITE, "positions 6");
    bad[6].x = -3e6;
    tets_refused(w, &bad, &CUBE_TETS, &m, &s, SINEW_INVALID_ARGUMENT, "positions 6");
    let mut bm = m;
    bm.damping = NAN;
    tets_refused(w, &p, &CUBE_TETS, &bm, &s, SINEW_NON_FINITE, "damping");
    let mut bs = s;
    bs.shape_stiffness = 2.0;
    tets_refused(w, &p, &CUBE_TETS, &m, &bs, SINEW_INVALID_ARGUMENT, "shape_stiffness");
    bs = s;
    bs.plastic_creep = NAN;
    tets_refused(w, &p, &CUBE_TETS, &m, &bs, SINEW_NON_FINITE, "plastic_creep");
    // One tetrahedron is enough; unreferenced positions are allowed.
    let mut one = SinewBody::default();
    ok(sinew_softbody_create_tets(w, p.as_ptr(), 8, [0u32, 1, 2, 4].as_ptr(), 4, &m, &s, &mut one));
    let (v, r) = volume(one);
    assert!((r - 1e-3 / 6.0).abs() < 1e-9 && (v - r).abs() < 1e-9);
    assert_eq!(body_info(one).triangle_count, 4);
    // The 4 positions no tetrahedron uses are particles too (free ones): read back finite,
    // their normals finite.
    ok(sinew_world_step(w, 1.0 / 60.0));
    let mut normals = vec![v3(NAN, NAN, NAN); 8];
    ok(sinew_body_read_normals(one, normals.as_mut_ptr(), 8));
    let x = read_positions(one);
    assert_eq!(x.len(), 8);
    println!("one tetrahedron of 8 positions: normals {normals:?}");
    assert!(x.iter().chain(&normals).all(|p| p.x.is_finite() && p.y.is_finite() && p.z.is_finite()), "non-finite readback: {x:?} {normals:?}");
    ok(sinew_world_destroy(w));
}

#[test]
fn refused_settings_change_nothing_and_the_soft_calls_refuse_other_bodies() {
    let mut wd = world_desc();
    wd.thread_count = 1;
    let w = create_world(&wd);
    let jelly = create_lattice(w, &jelly_desc(4, 0.05, v3(0.0, 1.0, 0.0), 0));
    let cloth = create_grid(w, &grid_desc());
    let pts = [v3(3.0, 1.0, 0.0), v3(3.1, 1.0, 0.0)];
    let mut rd = rope_desc();
    rd.points = pts.as_ptr();
    rd.point_count = pts.len();
    let rope = create_rope(w, &rd);
    let set = get_settings(jelly);
    for (edit, code, text) in [
        ((|s: &mut SinewSoftSettings| s.volume_compliance = -1e-9) as fn(&mut SinewSoftSettings), SINEW_INVALID_ARGUMENT, "volume_compliance"),
        (|s| s.volume_compliance = 1000.5, SINEW_INVALID_ARGUMENT, "volume_compliance"),
        (|s| s.shape_stiffness = 1.5, SINEW_INVALID_ARGUMENT, "shape_stiffness"),
        (|s| s.shape_linear = 2.0, SINEW_INVALID_ARGUMENT, "shape_linear"),
        (|s| s.plastic_yield = 1e4, SINEW_INVALID_ARGUMENT, "plastic_yield"),
        (|s| s.plastic_creep = -1.0, SINEW_INVALID_ARGUMENT, "plastic_creep"),
        (|s| s.plastic_max = 1e5, SINEW_INVALID_ARGUMENT, "plastic_max"),
        (|s| s.volume_compliance = NAN, SINEW_NON_FINITE, "volume_compliance"),
        (|s| s.shape_stiffness = NAN, SINEW_NON_FINITE, "shape_stiffness"),
        (|s| s.shape_linear = f32::INFINITY, SINEW_NON_FINITE, "shape_linear"),
        (|s| s.plastic_yield = f32::NEG_INFINITY, SINEW_NON_FINITE, "plastic_yield"),
        (|s| s.plastic_creep = NAN, SINEW_NON_FINITE, "plastic_creep"),
        (|s| s.plastic_max = NAN, SINEW_NON_FINITE, "plastic_max"),
        // Valid fields beside an invalid one: none applied.
        (|s| (s.shape_stiffness, s.chapter_stiffness, s.plastic_max) = (0.9, 1, NAN), SINEW_NON_FINITE, "plastic_max"),
    ] {
        let mut s = set;
        edit(&mut s);
        refused(sinew_softbody_set_settings(jelly, &s), code, text);
        assert_eq!(get_settings(jelly), set, "a refused set_settings changed the settings");
    }
    refused(sinew_softbody_set_settings(jelly, std::ptr::null()), SINEW_NULL_POINTER, "settings");
    refused(sinew_softbody_get_settings(jelly, std::ptr::null_mut()), SINEW_NULL_POINTER, "out_settings");
    let (mut v, mut r) = (-1.0f32, -1.0f32);
    refused(sinew_softbody_get_volume(jelly, std::ptr::null_mut(), &mut r), SINEW_NULL_POINTER, "out_volume");
    refused(sinew_softbody_get_volume(jelly, &mut v, std::ptr::null_mut()), SINEW_NULL_POINTER, "out_rest_volume");
    assert_eq!((v, r), (-1.0, -1.0), "written on failure");
    refused(sinew_body_get_center_of_mass(jelly, std::ptr::null_mut()), SINEW_NULL_POINTER, "out_center");
    // A cloth and a rope are not soft bodies: nothing read, nothing written.
    for other in [cloth, rope] {
        refused(sinew_softbody_get_volume(other, &mut v, &mut r), SINEW_INVALID_ARGUMENT, "not a soft body");
        assert_eq!((v, r), (-1.0, -1.0));
        refused(sinew_softbody_set_settings(other, &set), SINEW_INVALID_ARGUMENT, "not a soft body");
        let mut got = SinewSoftSettings { volume_compliance: 7.0, ..set };
        refused(sinew_softbody_get_settings(other, &mut got), SINEW_INVALID_ARGUMENT, "not a soft body");
        assert_eq!(got.volume_compliance, 7.0);
        let mut c = v3(9.0, 9.0, 9.0);
        ok(sinew_body_get_center_of_mass(other, &mut c));
        assert!(c.x.is_finite() && c.x != 9.0);
    }
    // A valid change is taken whole and read back; the body wakes and steps with it.
    let new = SinewSoftSettings { volume_compliance: 1e-5, shape_stiffness: 0.7, chapter_stiffness: 1, shape_linear: 0.3, plastic_yield: 0.2, plastic_creep: 1.0, plastic_max: 0.4, pressure: 25.0, external_pressure: 5.0 };
    ok(sinew_softbody_set_settings(jelly, &new));
    assert_eq!(get_settings(jelly), new);
    for _ in 0..10 {
        ok(sinew_world_step(w, 1.0 / 60.0));
    }
    // Stale and made-up handles.
    ok(sinew_body_destroy(jelly));
    for h in [jelly, SinewBody::default(), SinewBody { id: u64::MAX }] {
        refused(sinew_softbody_get_volume(h, &mut v, &mut r), SINEW_INVALID_HANDLE, "body handle");
        refused(sinew_softbody_set_settings(h, &set), SINEW_INVALID_HANDLE, "body handle");
        refused(sinew_softbody_get_settings(h, &mut SinewSoftSettings { ..set }), SINEW_INVALID_HANDLE, "body handle");
        refused(sinew_body_get_center_of_mass(h, &mut SinewVec3::default()), SINEW_INVALID_HANDLE, "body handle");
    }
    // A destroyed world's body.
    ok(sinew_world_destroy(w));
    refused(sinew_softbody_get_volume(rope, &mut v, &mut r), SINEW_INVALID_HANDLE, "body handle");
    let mut out = SinewBody::default();
    refused(sinew_softbody_create_lattice(w, &lattice_desc(), &mut out), SINEW_INVALID_HANDLE, "world handle");
}

#[test]
fn body_calls_work_on_soft_bodies() {
    let mut wd = world_desc();
    wd.thread_count = 1;
    let w = create_world(&wd);
    floor_plane(w);
    let n = 5u32;
    let jelly = create_lattice(w, &jelly_desc(n, 0.05, v3(0.0, 0.5, 0.0), 2));
    let cube = create_tet_cube(w, v3(0.3, 0.5, 0.0), 0.1);
    let info = body_info(jelly);
    assert_eq!((info.kind, info.particle_count, info.vertex_count), (SinewBodyKind::SINEW_BODY_SOFT as u32, n * n * n, n * n * n));
    // The surface: 2 triangles per boundary cell face, wound outward.
    let mut count = 0usize;
    ok(sinew_body_get_index_count(jelly, &mut count));
    assert_eq!(count, 3 * 2 * 6 * ((n - 1) * (n - 1)) as usize);
    let mut idx = vec![0u32; count];
    ok(sinew_body_read_indices(jelly, idx.as_mut_ptr(), count));
    let x = read_positions(jelly);
    let centre = x.iter().fold(v3(0.0, 0.0, 0.0), |a, p| v3(a.x + p.x, a.y + p.y, a.z + p.z));
    let centre = v3(centre.x / x.len() as f32, centre.y / x.len() as f32, centre.z / x.len() as f32);
    for t in idx.chunks_exact(3) {
        let [a, b, c] = [x[t[0] as usize], x[t[1] as usize], x[t[2] as usize]];
        let (e1, e2) = (v3(b.x - a.x, b.y - a.y, b.z - a.z), v3(c.x - a.x, c.y - a.y, c.z - a.z));
        let nrm = v3(e1.y * e2.z - e1.z * e2.y, e1.z * e2.x - e1.x * e2.z, e1.x * e2.y - e1.y * e2.x);
        let out = v3(a.x - centre.x, a.y - centre.y, a.z - centre.z);
        assert!(nrm.x * out.x + nrm.y * out.y + nrm.z * out.z > 0.0, "triangle {t:?} is wound inward");
    }
    // Pins, pin targets, teleport, a pair, sleep: the ordinary body calls.
    ok(sinew_body_set_collision_pair(jelly, cube, 1));
    ok(sinew_body_pin(cube, [3u32].as_ptr(), 1));
    let target = v3(0.5, 0.8, 0.0);
    ok(sinew_body_set_pin_targets(cube, [3u32].as_ptr(), 1, &target, 1));
    ok(sinew_body_teleport(jelly, &translation(0.0, 0.1, 0.0)));
    let mut normals = vec![SinewVec3::default(); x.len()];
    for _ in 0..120 {
        ok(sinew_world_step(w, 1.0 / 60.0));
    }
    ok(sinew_body_read_normals(jelly, normals.as_mut_ptr(), normals.len()));
    let cx = read_positions(cube);
    assert!(dist(cx[3], target) < 1e-3, "the pinned corner reached its target: {:?}", cx[3]);
    assert!(read_positions(jelly).iter().all(|p| p.y > -1e-3), "the jelly is above the floor");
    let (v, r) = volume(jelly);
    assert!((v / r - 1.0).abs() < 0.01, "jelly volume {v} of {r}");
    let mut c = SinewVec3::default();
    ok(sinew_body_get_center_of_mass(jelly, &mut c));
    assert!(c.y > 0.08 && c.y < 0.14, "the jelly rests on the floor, its centre at {c:?}");
    // Destroyed: the world's counts drop back.
    let before = world_stats(w);
    ok(sinew_body_destroy(jelly));
    let after = world_stats(w);
    assert_eq!((after.body_count, after.particle_count), (before.body_count - 1, before.particle_count - n * n * n));
    refused(sinew_body_read_positions(jelly, normals.as_mut_ptr(), normals.len()), SINEW_INVALID_HANDLE, "body handle");
    ok(sinew_world_destroy(w));
}
