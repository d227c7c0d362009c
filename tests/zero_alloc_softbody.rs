//! After warm-up, a step with soft bodies allocates nothing: a jelly with block clusters, a
//! jelly in linear mode with plasticity paired with it (dropped onto it, and lifted off and
//! dropped again every second), a tet-mesh cube with a dragged pin, a cloth paired with the
//! first jelly, all on a plane and kept awake; with the soft-body calls every frame
//! (settings changed back and forth, volume, centre of mass) and readback of positions,
//! normals and indices — through the C ABI, at one and two threads.

mod common;
use common::*;
mod soft_common;
use soft_common::*;

mod counting;

#[global_allocator]
static GLOBAL: counting::Counting = counting::Counting;

struct Buffers {
    x: Vec<SinewVec3>,
    n: Vec<SinewVec3>,
    idx: Vec<u32>,
}

fn frame(bodies: &[SinewBody], w: SinewWorld, f: usize, settings: &[SinewSoftSettings; 2], buf: &mut Buffers) {
    soft_scene_frame(bodies, f);
    ok(sinew_softbody_set_settings(bodies[0], &settings[(f / 30) % 2]));
    if f % 60 == 59 {
        ok(sinew_body_teleport(bodies[1], &translation(0.0, 0.15, 0.0)));
    }
    ok(sinew_world_step(w, 1.0 / 60.0));
    for &b in bodies {
        let mut count = 0usize;
        ok(sinew_body_get_vertex_count(b, &mut count));
        ok(sinew_body_read_positions(b, buf.x.as_mut_ptr(), count));
        ok(sinew_body_read_normals(b, buf.n.as_mut_ptr(), count));
        ok(sinew_body_get_index_count(b, &mut count));
        ok(sinew_body_read_indices(b, buf.idx.as_mut_ptr(), count));
        let mut c = SinewVec3::default();
        ok(sinew_body_get_center_of_mass(b, &mut c));
    }
    for &b in &bodies[..3] {
        let (mut v, mut r) = (0.0f32, 0.0f32);
        ok(sinew_softbody_get_volume(b, &mut v, &mut r));
        let mut s = std::mem::MaybeUninit::uninit();
        ok(sinew_softbody_get_settings(b, s.as_mut_ptr()));
    }
}

#[test]
fn soft_body_steps_allocate_nothing_after_warm_up() {
    for threads in [1u32, 2] {
        let mut wd = world_desc();
        wd.thread_count = threads;
        let w = create_world(&wd);
        let bodies = soft_scene(w, false);
        // Kept awake: every stage runs every frame.
        let mut dy = dynamics();
        dy.sleep_threshold = 0.0;
        dy.drag = 0.0;
        dy.lift = 0.0;
        for &b in &bodies {
            ok(sinew_body_set_dynamics(b, &dy));
        }
        let mut soft = soft_settings();
        soft.shape_stiffness = 0.3;
        let mut stiffer = soft;
        (stiffer.shape_stiffness, stiffer.shape_linear, stiffer.plastic_creep) = (0.6, 0.2, 1.0);
        let settings = [soft, stiffer];
        let mut buf = Buffers { x: vec![SinewVec3::default(); 256], n: vec![SinewVec3::default(); 256], idx: vec![0; 4096] };
        // Warm-up: everything lands, the lifted jelly falls back a few times, the contact
        // buffers reach their most.
        for f in 0..300 {
            frame(&bodies, w, f, &settings, &mut buf);
        }
        counting::start();
        for f in 300..480 {
            frame(&bodies, w, f, &settings, &mut buf);
        }
        let n = counting::stop();
        let (v, r) = volume(bodies[0]);
        println!("{threads} thread(s): {n} heap allocations in 180 frames; jelly volume {:.4} of rest", v / r);
        assert!(buf.x.iter().all(|p| p.x.is_finite() && p.y.is_finite() && p.z.is_finite()));
        ok(sinew_world_destroy(w));
        if threads == 1 {
            assert_eq!(n, 0, "one thread: {n} heap allocations in 180 frames");
        } else {
            // rayon's job queue takes a new block now and then (see tests/zero_alloc.rs).
            assert!(n <= 180 / 32, "{threads} threads: {n} heap allocations in 180 frames");
        }
    }
}
