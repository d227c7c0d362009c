//! After the first steps, a step allocates nothing: cloth with colliders, self-collision,
//! paired contact, wind, tethers, skinning and pins, a rope and hair, stepped and read back
//! through the C ABI.

mod common;
use common::*;

mod counting;

#[global_allocator]
static GLOBAL: counting::Counting = counting::Counting;

fn scene(threads: u32) -> (SinewWorld, Vec<SinewBody>, SinewCollider) {
    let mut wd = world_desc();
    wd.thread_count = threads;
    let w = create_world(&wd);
    let mut bodies = Vec::new();
    let mut gd = grid_desc();
    gd.columns = 24;
    gd.rows = 24;
    gd.spacing = 0.05;
    gd.material.self_collision = 1;
    let cloth = create_grid(w, &gd);
    skin_to_one_bone(cloth);
    ok(sinew_body_set_bone_matrices(cloth, &translation(0.0, 0.0, 0.0), 1));
    ok(sinew_body_set_tethers(cloth, SinewTetherMode::SINEW_TETHER_GEODESIC as u32, 1.05));
    let mut d = dynamics();
    d.pose_stiffness = 0.5;
    d.max_speed = 20.0;
    ok(sinew_body_set_dynamics(cloth, &d));
    bodies.push(cloth);
    let mut other = grid_desc();
    other.origin = v3(0.0, -0.3, 0.0);
    other.pin_mode = SinewPinMode::SINEW_PIN_TOP_CORNERS as u32;
    let second = create_grid(w, &other);
    ok(sinew_body_set_collision_pair(cloth, second, 1));
    bodies.push(second);
    // A large grid on its own, away from the capsule: with two threads it shares its step
    // between them (row bands).
    let mut big = grid_desc();
    (big.columns, big.rows, big.spacing) = (40, 30, 0.03);
    big.origin = v3(3.0, 0.0, 0.0);
    bodies.push(create_grid(w, &big));
    let pts: Vec<SinewVec3> = (0..20).map(|i| v3(1.0 + i as f32 * 0.05, 0.0, 0.0)).collect();
    let pins = [0u32];
    let mut rd = rope_desc();
    rd.points = pts.as_ptr();
    rd.point_count = pts.len();
    rd.pin_indices = pins.as_ptr();
    rd.pin_count = 1;
    bodies.push(create_rope(w, &rd));
    let roots = [v3(0.0, 1.7, 0.0), v3(0.02, 1.7, 0.0)];
    let dirs = [v3(0.0, -1.0, -0.2), v3(0.0, -1.0, -0.2)];
    let mut sd = std::mem::MaybeUninit::uninit();
    ok(sinew_strands_desc_default(sd.as_mut_ptr()));
    let mut sd = unsafe { sd.assume_init() };
    sd.roots = roots.as_ptr();
    sd.directions = dirs.as_ptr();
    sd.root_count = 2;
    sd.direction_count = 2;
    let mut hair = SinewBody::default();
    ok(sinew_strands_create(w, &sd, &mut hair));
    bodies.push(hair);
    let mut cd = collider_desc();
    cd.shape = SinewShape::SINEW_SHAPE_CAPSULE as u32;
    cd.radius0 = 0.1;
    cd.radius1 = 0.05;
    cd.transform = translation(0.0, -0.6, 0.2);
    let capsule = create_collider(w, &cd);
    // Level geometry under everything: a mesh floor the hanging cloths, rope and hair reach,
    // and a tessellated sphere mesh beside the large grid.
    let (fv, fi) = floor_mesh(6.0);
    create_mesh_collider(w, &fv, &fi, translation(0.0, -0.9, 0.0));
    let (sv, si) = sphere_mesh(v3(3.6, -0.5, 0.45), 0.3, 2);
    create_mesh_collider(w, &sv, &si, SinewMat4::identity());
    let mut wnd = wind();
    wnd.speed = 5.0;
    ok(sinew_world_set_wind(w, &wnd));
    (w, bodies, capsule)
}

fn frame(w: SinewWorld, bodies: &[SinewBody], capsule: SinewCollider, f: usize, out: &mut [SinewVec3], normals: &mut [SinewVec3]) {
    let t = f as f32 / 60.0;
    let bone = translation(0.1 * t.sin(), 0.0, 0.0);
    ok(sinew_body_set_bone_matrices(bodies[0], &bone, 1));
    ok(sinew_body_set_root_transform(bodies[0], &bone));
    ok(sinew_body_set_bone_matrices(bodies[4], &bone, 1));
    ok(sinew_collider_set_transform(capsule, &translation(0.3 * t.cos(), -0.6, 0.2)));
    let pin = [0u32];
    let target = [v3(1.0, 0.1 * t.sin(), 0.0)];
    ok(sinew_body_set_pin_targets(bodies[3], pin.as_ptr(), 1, target.as_ptr(), 1));
    // Moving platforms: the skinned, paired cloth and the rope ride in a turning, moving anchor.
    let anchor = rotation_z(0.05 * t.sin(), v3(0.2 * t, 0.0, 0.0));
    ok(sinew_body_set_anchor(bodies[0], &anchor, 0.3));
    ok(sinew_body_set_anchor(bodies[3], &anchor, 0.0));
    ok(sinew_world_step(w, 1.0 / 60.0));
    ok(sinew_body_read_positions(bodies[0], out.as_mut_ptr(), out.len()));
    ok(sinew_body_read_normals(bodies[0], normals.as_mut_ptr(), normals.len()));
}

#[test]
fn steps_allocate_nothing_after_the_first() {
    for threads in [1u32, 2] {
        let (w, bodies, capsule) = scene(threads);
        let mut out = vec![SinewVec3::default(); 24 * 24];
        let mut normals = out.clone();
        for f in 0..5 {
            frame(w, &bodies, capsule, f, &mut out, &mut normals);
        }
        counting::start();
        for f in 5..125 {
            frame(w, &bodies, capsule, f, &mut out, &mut normals);
        }
        let n = counting::stop();
        ok(sinew_world_destroy(w));
        if threads == 1 {
            assert_eq!(n, 0, "one thread: {n} heap allocations in 120 frames");
        } else {
            // With worker threads each step is handed to rayon's pool, whose job queue takes a
            // new 63-slot block now and then (crossbeam's injector); Sinew's own code allocates
            // nothing, as the one-thread run shows. Bound the pool's share.
            assert!(n <= 120 / 32, "{threads} threads: {n} heap allocations in 120 frames");
        }
    }
}
