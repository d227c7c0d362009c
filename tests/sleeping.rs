//! Sleeping (issue 11, part 4): a body at rest stops being stepped and wakes on anything
//! that concerns it, through the C ABI.

mod common;
use common::*;

fn info_sleeping(b: SinewBody) -> bool {
    body_info(b).sleeping == 1
}

fn set_sleep(b: SinewBody, threshold: f32, time: f32, damping: Option<f32>) {
    let mut d = dynamics();
    d.sleep_threshold = threshold;
    d.sleep_time = time;
    ok(sinew_body_set_dynamics(b, &d));
    if let Some(damping) = damping {
        let mut m = std::mem::MaybeUninit::uninit();
        ok(sinew_body_get_material(b, m.as_mut_ptr()));
        let mut m = unsafe { m.assume_init() };
        m.damping = damping;
        ok(sinew_body_set_material(b, &m));
    }
}

fn max_speed(a: &[SinewVec3], b: &[SinewVec3], dt: f32) -> f32 {
    a.iter().zip(b).map(|(p, q)| dist(*p, *q) / dt).fold(0.0, f32::max)
}

fn bits(p: &[SinewVec3]) -> Vec<u32> {
    p.iter().flat_map(|q| [q.x.to_bits(), q.y.to_bits(), q.z.to_bits()]).collect()
}

/// A 22 × 22 cloth (3.5 cm spacing) dropped over a collider, damping 3/s, sleeping below
/// 1 mm/s held for 0.5 s. Returns the frame it fell asleep at, the largest speed over the
/// 0.5 s before it, and the final positions.
fn drape(shape: u32, threads: u32) -> (usize, f32, Vec<SinewVec3>) {
    let mut wd = world_desc();
    wd.interpolate = 0;
    wd.thread_count = threads;
    let w = create_world(&wd);
    let mut cd = collider_desc();
    cd.shape = shape;
    cd.radius = 0.28;
    cd.half_extents = v3(0.22, 0.2, 0.26);
    cd.transform = translation(0.1, 0.5, -0.2);
    create_collider(w, &cd);
    let mut gd = grid_desc();
    (gd.columns, gd.rows, gd.spacing) = (22, 22, 0.035);
    gd.pin_mode = SinewPinMode::SINEW_PIN_NONE as u32;
    gd.origin = v3(0.11, 0.85, -0.19);
    let cloth = create_grid(w, &gd);
    set_sleep(cloth, 1e-3, 0.5, Some(3.0));
    let dt = 1.0 / 60.0;
    let mut prev = read_positions(cloth);
    let mut speeds = Vec::new();
    for f in 0..60 * 15 {
        ok(sinew_world_step(w, dt));
        let p = read_positions(cloth);
        speeds.push(max_speed(&prev, &p, dt));
        prev = p;
        if info_sleeping(cloth) {
            let before = speeds[speeds.len().saturating_sub(30)..].iter().cloned().fold(0.0, f32::max);
            // Asleep: not stepped at all — no substeps, the same bits frame after frame.
            for _ in 0..30 {
                ok(sinew_world_step(w, dt));
                assert!(info_sleeping(cloth), "it woke with nothing changed");
                assert_eq!(body_info(cloth).substeps, 0, "a sleeping body runs no substeps");
                assert_eq!(bits(&read_positions(cloth)), bits(&prev), "a sleeping body's readback changed");
            }
            ok(sinew_world_destroy(w));
            return (f, before, prev);
        }
    }
    panic!("the drape never fell asleep (speed over the last second {:e})", speeds[speeds.len() - 60..].iter().cloned().fold(0.0, f32::max));
}

#[test]
fn a_drape_on_a_sphere_comes_to_rest_and_sleeps() {
    let (frame, before, p) = drape(SinewShape::SINEW_SHAPE_SPHERE as u32, 1);
    assert!(before < 1e-3, "it slept while moving at {before} m/s");
    // It rests on the sphere (not vacuous): some particle on its surface.
    let on = p.iter().filter(|q| dist(**q, v3(0.1, 0.5, -0.2)) < 0.28 + 0.0101).count();
    assert!(on > 20, "only {on} particles rest on the sphere");
    println!("sphere drape asleep after {:.2} s", frame as f32 / 60.0);
}

#[test]
fn a_drape_on_a_box_comes_to_rest_and_sleeps() {
    let (frame, before, p) = drape(SinewShape::SINEW_SHAPE_BOX as u32, 1);
    assert!(before < 1e-3, "it slept while moving at {before} m/s");
    let on = p.iter().filter(|q| (q.y - (0.5 + 0.2 + 0.01)).abs() < 1e-3).count();
    assert!(on > 20, "only {on} particles rest on the box's top");
    println!("box drape asleep after {:.2} s", frame as f32 / 60.0);
}

/// Sleeping is deterministic: one, two and eight threads fall asleep at the same frame with the same bits.
#[test]
fn sleeping_is_the_same_for_any_thread_count() {
    let (f1, _, p1) = drape(SinewShape::SINEW_SHAPE_SPHERE as u32, 1);
    let (f2, _, p2) = drape(SinewShape::SINEW_SHAPE_SPHERE as u32, 2);
    assert_eq!(f1, f2, "fell asleep at different frames");
    assert_eq!(bits(&p1), bits(&p2), "different bits with two threads");
    let (f8, _, p8) = drape(SinewShape::SINEW_SHAPE_SPHERE as u32, 8);
    assert_eq!((f1, bits(&p1)), (f8, bits(&p8)), "eight threads differ from one");
}

/// A 9 × 8 cloth hanging from its two top corners, skinned to one bone, with a root
/// transform, a small sphere it leans on, another 4 cm in front of it (out of reach: its
/// bounds do not meet the cloth's) and a third 6 m away; damping 4/s. Stepped until it sleeps
/// (default threshold and time).
struct Scene {
    w: SinewWorld,
    cloth: SinewBody,
    touching: SinewCollider,
    near: SinewCollider,
    far: SinewCollider,
}

const CORNERS: [u32; 2] = [0, 8];

fn asleep() -> Scene {
    let mut wd = world_desc();
    wd.interpolate = 0;
    let w = create_world(&wd);
    let mut gd = grid_desc();
    (gd.columns, gd.rows, gd.spacing) = (9, 8, 0.05);
    // Hanging in the XY plane from row 0 at y = 1.
    let a = std::f32::consts::FRAC_PI_4;
    gd.orientation = SinewQuat { x: a.sin(), y: 0.0, z: 0.0, w: a.cos() };
    gd.origin = v3(0.0, 1.0 - 3.5 * 0.05, 0.0);
    gd.pin_mode = SinewPinMode::SINEW_PIN_TOP_CORNERS as u32;
    let cloth = create_grid(w, &gd);
    skin_to_one_bone(cloth);
    ok(sinew_body_set_bone_matrices(cloth, &translation(0.0, 0.0, 0.0), 1));
    ok(sinew_body_set_root_transform(cloth, &rotation_z(0.3, v3(0.5, 0.2, 0.1))));
    set_sleep(cloth, 0.005, 1.0, Some(4.0));
    // Half the root's motion carried: a root that does not move must leave the sleeping
    // body's bits alone too.
    let mut d = dynamics();
    d.world_velocity_scale = 0.5;
    ok(sinew_body_set_dynamics(cloth, &d));
    let mut cd = collider_desc();
    cd.radius = 0.03;
    cd.transform = translation(0.0, 0.85, 0.07);
    let near = create_collider(w, &cd);
    cd.transform = translation(6.0, 0.85, 0.0);
    let far = create_collider(w, &cd);
    cd.transform = translation(0.1, 0.75, 0.035);
    let touching = create_collider(w, &cd);
    for _ in 0..60 * 20 {
        ok(sinew_world_step(w, 1.0 / 60.0));
        if info_sleeping(cloth) {
            // It stays asleep while nothing changes, and while the host repeats itself:
            // the same pin targets, bone matrices and root transform every frame.
            let pins = [v3(-0.2, 1.0, 0.0), v3(0.2, 1.0, 0.0)];
            let still = bits(&read_positions(cloth));
            for _ in 0..30 {
                ok(sinew_body_set_bone_matrices(cloth, &translation(0.0, 0.0, 0.0), 1));
                ok(sinew_body_set_pin_targets(cloth, CORNERS.as_ptr(), 2, pins.as_ptr(), 2));
                ok(sinew_body_set_root_transform(cloth, &rotation_z(0.3, v3(0.5, 0.2, 0.1))));
                ok(sinew_collider_set_transform(near, &translation(0.0, 0.85, 0.07)));
                ok(sinew_world_step(w, 1.0 / 60.0));
                assert!(info_sleeping(cloth), "woke with nothing changed");
                assert_eq!(bits(&read_positions(cloth)), still, "moved while asleep");
            }
            return Scene { w, cloth, touching, near, far };
        }
    }
    panic!("the hanging cloth never fell asleep");
}

/// Runs `cause` on a sleeping scene, steps one frame, and tells whether the cloth woke.
fn wakes(cause: impl Fn(&Scene)) -> bool {
    let s = asleep();
    let before = read_positions(s.cloth);
    cause(&s);
    ok(sinew_world_step(s.w, 1.0 / 60.0));
    let woke = !info_sleeping(s.cloth);
    if woke {
        assert_ne!(body_info(s.cloth).substeps, 0, "awake, it must be stepped");
    } else {
        assert_eq!(bits(&read_positions(s.cloth)), bits(&before), "asleep, it must not move");
    }
    ok(sinew_world_destroy(s.w));
    woke
}

#[test]
fn wakes_when_a_pin_target_moves() {
    assert!(wakes(|s| {
        let t = [v3(-0.2, 1.0, 0.01), v3(0.2, 1.0, 0.0)];
        ok(sinew_body_set_pin_targets(s.cloth, CORNERS.as_ptr(), 2, t.as_ptr(), 2));
    }));
}

#[test]
fn wakes_when_the_bones_move() {
    assert!(wakes(|s| ok(sinew_body_set_bone_matrices(s.cloth, &translation(0.0, 0.0, 0.01), 1))));
}

#[test]
fn wakes_when_the_root_moves() {
    assert!(wakes(|s| ok(sinew_body_set_root_transform(s.cloth, &rotation_z(0.3, v3(0.51, 0.2, 0.1))))));
}

#[test]
fn wakes_when_a_collider_moves_within_reach() {
    assert!(wakes(|s| ok(sinew_collider_set_transform(s.near, &translation(0.0, 0.85, 0.035)))));
}

#[test]
fn stays_asleep_when_a_collider_moves_out_of_reach() {
    assert!(!wakes(|s| ok(sinew_collider_set_transform(s.near, &translation(0.0, 0.85, 0.08)))));
}

#[test]
fn stays_asleep_when_a_far_collider_moves() {
    assert!(!wakes(|s| ok(sinew_collider_set_transform(s.far, &translation(6.0, 0.9, 0.0)))));
}

#[test]
fn wakes_when_a_collider_near_it_teleports() {
    assert!(wakes(|s| ok(sinew_collider_teleport(s.far, &translation(-0.1, 0.8, 0.03)))));
}

#[test]
fn wakes_when_a_collider_appears_near_it() {
    assert!(wakes(|s| {
        let mut cd = collider_desc();
        cd.radius = 0.05;
        cd.transform = translation(0.0, 0.8, -0.04);
        create_collider(s.w, &cd);
    }));
}

#[test]
fn wakes_when_a_collider_it_touches_is_destroyed() {
    assert!(wakes(|s| ok(sinew_collider_destroy(s.touching))));
}

#[test]
fn wakes_when_the_wind_blows() {
    assert!(wakes(|s| {
        let mut wi = wind();
        wi.speed = 2.0;
        ok(sinew_world_set_wind(s.w, &wi));
    }));
}

#[test]
fn wakes_when_gravity_changes() {
    assert!(wakes(|s| ok(sinew_world_set_gravity(s.w, v3(0.0, -9.81, 0.5)))));
}

#[test]
fn wakes_when_the_material_changes() {
    assert!(wakes(|s| {
        let mut m = std::mem::MaybeUninit::uninit();
        ok(sinew_body_get_material(s.cloth, m.as_mut_ptr()));
        let mut m = unsafe { m.assume_init() };
        m.particle_mass *= 2.0;
        ok(sinew_body_set_material(s.cloth, &m));
    }));
}

#[test]
fn wakes_when_the_dynamics_change() {
    assert!(wakes(|s| {
        let mut d = dynamics();
        d.pose_stiffness = 1.0;
        ok(sinew_body_set_dynamics(s.cloth, &d));
    }));
}

#[test]
fn wakes_when_teleported() {
    assert!(wakes(|s| ok(sinew_body_teleport(s.cloth, &translation(0.0, 0.0, 0.5)))));
}

#[test]
fn wakes_when_its_pose_is_reset() {
    assert!(wakes(|s| ok(sinew_body_reset_pose(s.cloth))));
}

#[test]
fn wakes_when_unpinned() {
    assert!(wakes(|s| ok(sinew_body_unpin(s.cloth, CORNERS.as_ptr(), 1))));
}

#[test]
fn wakes_when_pinned() {
    assert!(wakes(|s| ok(sinew_body_pin(s.cloth, [40u32].as_ptr(), 1))));
}

#[test]
fn wakes_when_tethers_are_set() {
    assert!(wakes(|s| ok(sinew_body_set_tethers(s.cloth, SinewTetherMode::SINEW_TETHER_EUCLIDEAN as u32, 1.1))));
}

#[test]
fn wakes_when_max_distances_are_set() {
    assert!(wakes(|s| ok(sinew_body_set_max_distances(s.cloth, [0.5f32; 72].as_ptr(), 72))));
}

#[test]
fn wakes_when_backstops_are_set() {
    assert!(wakes(|s| ok(sinew_body_set_backstops(s.cloth, [0.0f32; 72].as_ptr(), 72, [0.1f32; 72].as_ptr(), 72))));
}

#[test]
fn wakes_when_skinning_is_set() {
    assert!(wakes(|s| skin_to_one_bone(s.cloth)));
}

/// Sleeping can be turned off: with a threshold of 0 the same cloth never sleeps.
#[test]
fn a_zero_threshold_never_sleeps() {
    let mut wd = world_desc();
    wd.interpolate = 0;
    let w = create_world(&wd);
    let mut gd = grid_desc();
    (gd.columns, gd.rows) = (6, 6);
    let cloth = create_grid(w, &gd);
    set_sleep(cloth, 0.0, 1.0, Some(5.0));
    for _ in 0..600 {
        ok(sinew_world_step(w, 1.0 / 60.0));
        assert!(!info_sleeping(cloth));
    }
    assert_eq!(body_info(cloth).substeps, 8);
    ok(sinew_world_destroy(w));
}

/// The defaults: a body sleeps after 1 s below 5 mm/s, and the C defaults say so.
#[test]
fn the_defaults_sleep_below_five_millimetres_per_second_for_a_second() {
    let d = dynamics();
    assert_eq!((d.sleep_threshold, d.sleep_time), (0.005, 1.0));
}
