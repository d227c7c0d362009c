//! Regression (issue 30): `sinew_softbody_create_from_mesh` took an open mesh (a cube with one
//! or two triangles missing) though the header says the surface must be closed, while
//! `sinew_softbody_create_balloon` refused the same mesh. An open mesh has no inside to fill
//! with the lattice. Now refused with `SINEW_INVALID_ARGUMENT`, naming an open edge, and the
//! world unchanged; a closed mesh with a doubled seam (vertices repeated at one position, as a
//! render mesh has them) is still taken.

mod common;
mod shapes_common;
mod soft_common;

use common::*;
use shapes_common::CUBE_QUADS;
use soft_common::*;

/// A cube `side` wide with each face's 4 corners its own vertices (24, as a render mesh with
/// hard edges has them), wound outward; `drop` triangles left out from the end.
fn cube(side: f32, drop: usize) -> (Vec<SinewVec3>, Vec<u32>) {
    let h = side / 2.0;
    let corner = |c: u32| v3(if c & 1 != 0 { h } else { -h }, 1.0 + if c & 2 != 0 { h } else { -h }, if c & 4 != 0 { h } else { -h });
    let mut p = Vec::new();
    let mut idx = Vec::new();
    for q in CUBE_QUADS {
        let base = p.len() as u32;
        p.extend(q.iter().map(|&c| corner(c)));
        idx.extend([base, base + 1, base + 2, base, base + 2, base + 3]);
    }
    idx.truncate(idx.len() - 3 * drop);
    (p, idx)
}

fn create(w: SinewWorld, p: &[SinewVec3], idx: &[u32]) -> (SinewResult, String) {
    let mut d = std::mem::MaybeUninit::uninit();
    ok(sinew_soft_mesh_desc_default(d.as_mut_ptr()));
    let mut d: SinewSoftMeshDesc = unsafe { d.assume_init() };
    d.positions = p.as_ptr();
    d.vertex_count = p.len();
    d.indices = idx.as_ptr();
    d.index_count = idx.len();
    d.resolution = 4;
    let mut b = SinewBody::default();
    let r = sinew_softbody_create_from_mesh(w, &d, &mut b);
    (r, if r == SinewResult::SINEW_OK { String::new() } else { last_error() })
}

#[test]
fn an_open_mesh_is_refused_and_a_closed_one_taken() {
    let w = create_world(&world_desc());
    for drop in [1usize, 2] {
        let (p, idx) = cube(0.2, drop);
        let (r, m) = create(w, &p, &idx);
        assert_eq!(r, SinewResult::SINEW_INVALID_ARGUMENT, "a cube missing {drop} triangle(s) was taken");
        assert!(m.contains("not closed"), "{m}");
    }
    let mut stats = std::mem::MaybeUninit::<SinewWorldStats>::uninit();
    ok(sinew_world_get_stats(w, stats.as_mut_ptr()));
    assert_eq!(unsafe { stats.assume_init() }.body_count, 0, "a refused mesh left a body");
    let (p, idx) = cube(0.2, 0);
    let (r, m) = create(w, &p, &idx);
    assert_eq!(r, SinewResult::SINEW_OK, "the closed cube with its corners repeated per face was refused: {m}");
    ok(sinew_world_step(w, 1.0 / 60.0));
    ok(sinew_world_destroy(w));
}
