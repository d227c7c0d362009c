//! Thousands of random calls through the C ABI — valid, stale and made-up handles, random
//! counts, NaNs, huge and negative numbers — must never panic or crash: every call answers a
//! documented code, and the world keeps stepping with finite particles.

mod common;
use common::*;
mod soft_common;
use soft_common::*;
use sinew::ffi::getup::*;

/// xorshift64*: deterministic, so a failure replays.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    /// A float that is usually reasonable and sometimes hostile.
    fn float(&mut self) -> f32 {
        match self.below(12) {
            0 => f32::NAN,
            1 => f32::INFINITY,
            2 => -1.0e30,
            3 => 0.0,
            4 => -0.5,
            _ => (self.below(2000) as f32 - 1000.0) / 500.0,
        }
    }
    fn count(&mut self) -> usize {
        match self.below(8) {
            0 => 0,
            1 => usize::MAX / 3,
            2 => 1_000_000,
            _ => self.below(40) as usize,
        }
    }
    fn vec3(&mut self) -> SinewVec3 {
        v3(self.float(), self.float(), self.float())
    }
    fn mat(&mut self) -> SinewMat4 {
        let mut m = translation(self.float(), self.float(), self.float());
        if self.below(4) == 0 {
            m.m[self.below(16) as usize] = self.float();
        }
        m
    }
}

#[test]
fn random_calls_never_panic_and_the_world_keeps_stepping() {
    let mut soft = 0;
    for seed in 1..=24u64 {
        soft += run(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    }
    // Soft bodies were among the calls: created, stepped, read back, destroyed.
    println!("{soft} soft bodies created");
    assert!(soft >= 24, "only {soft} soft bodies were created");
}

/// Returns how many soft bodies it created.
fn run(seed: u64) -> usize {
    let mut rng = Rng(seed);
    let w = create_world(&world_desc());
    let mut bodies: Vec<SinewBody> = Vec::new();
    let mut colliders: Vec<SinewCollider> = Vec::new();
    let mut ragdolls: Vec<SinewRagdoll> = Vec::new();
    let quats = vec![SinewQuat { x: 0.0, y: 0.0, z: 0.0, w: 1.0 }; 64];
    let mut quat_out = vec![SinewQuat { x: 0.0, y: 0.0, z: 0.0, w: 1.0 }; 64];
    let mut mat_out = vec![translation(0.0, 0.0, 0.0); 64];
    let buf = vec![SinewVec3::default(); 64];
    let mut out = vec![SinewVec3::default(); 2048];
    let mut idx_out = vec![0u32; 8192];
    let idx: Vec<u32> = (0..64).map(|i| (i * 7 % 300) as u32).collect();
    let floats = vec![0.05f32; 64];
    let weights = vec![SinewBoneWeight { weight0: 1.0, ..Default::default() }; 64];
    let mats = vec![translation(0.0, 0.0, 0.0); 4];
    let mut live_soft: Vec<SinewBody> = Vec::new();
    let mut soft_created = 0;
    let mut panics = 0;
    // 4000 rounds; the suite's short sanitizer run asks for fewer (scripts/test.sh).
    let rounds: u32 = std::env::var("SINEW_RANDOM_CALL_ROUNDS").ok().and_then(|v| v.parse().ok()).unwrap_or(4000);
    for round in 0..rounds {
        // A body handle: live, destroyed, or made up.
        let body = match rng.below(6) {
            0 => SinewBody { id: rng.next() },
            _ if !bodies.is_empty() => bodies[rng.below(bodies.len() as u64) as usize],
            _ => SinewBody::default(),
        };
        let collider = if colliders.is_empty() || rng.below(5) == 0 { SinewCollider { id: rng.next() } } else { colliders[rng.below(colliders.len() as u64) as usize] };
        let ragdoll = match rng.below(6) {
            0 => SinewRagdoll { id: rng.next() },
            _ if !ragdolls.is_empty() => ragdolls[rng.below(ragdolls.len() as u64) as usize],
            _ => SinewRagdoll::default(),
        };
        let n = rng.count();
        let r = match rng.below(54) {
            0 => {
                let mut gd = grid_desc();
                // Now and then a grid large enough to share its step between two threads.
                let (c, r) = (rng.below(20), rng.below(20));
                (gd.columns, gd.rows) = if rng.below(8) == 0 { (32 + c as u32, 32 + r as u32) } else { (c as u32, r as u32) };
                gd.spacing = rng.float();
                gd.origin = rng.vec3();
                gd.pin_mode = rng.below(5) as u32;
                gd.pin_indices = idx.as_ptr();
                gd.pin_count = n.min(64);
                gd.material.thickness = rng.float();
                gd.material.self_collision = rng.below(2) as u32;
                let mut b = SinewBody::default();
                let r = sinew_cloth_create_grid(w, &gd, &mut b);
                if r == SINEW_OK {
                    bodies.push(b);
                }
                r
            }
            1 => {
                let pts: Vec<SinewVec3> = (0..rng.below(12)).map(|i| v3(i as f32 * 0.1, rng.float() * 0.01, 0.0)).collect();
                let mut rd = rope_desc();
                rd.points = pts.as_ptr();
                rd.point_count = pts.len();
                rd.pin_indices = idx.as_ptr();
                rd.pin_count = n.min(2);
                let mut b = SinewBody::default();
                let r = sinew_rope_create(w, &rd, &mut b);
                if r == SINEW_OK {
                    bodies.push(b);
                }
                r
            }
            2 => {
                let mut cd = collider_desc();
                cd.shape = rng.below(6) as u32;
                cd.radius = rng.float();
                cd.radius0 = rng.float();
                cd.radius1 = rng.float();
                cd.half_height = rng.float();
                cd.half_extents = rng.vec3();
                cd.transform = rng.mat();
                let mut c = SinewCollider::default();
                let r = sinew_collider_create(w, &cd, &mut c);
                if r == SINEW_OK {
                    colliders.push(c);
                }
                r
            }
            3 => sinew_body_destroy(body),
            4 => sinew_collider_destroy(collider),
            5 => sinew_collider_set_transform(collider, &rng.mat()),
            6 => sinew_body_set_pin_targets(body, idx.as_ptr(), n.min(64), buf.as_ptr(), if rng.below(2) == 0 { n.min(64) } else { rng.count().min(64) }),
            7 => sinew_body_pin(body, idx.as_ptr(), n.min(64)),
            8 => sinew_body_unpin(body, idx.as_ptr(), n.min(64)),
            9 => sinew_body_teleport(body, &rng.mat()),
            10 => sinew_body_read_positions(body, out.as_mut_ptr(), n.min(out.len())),
            11 => sinew_body_read_normals(body, out.as_mut_ptr(), n.min(out.len())),
            12 => sinew_body_read_indices(body, idx_out.as_mut_ptr(), n.min(idx_out.len())),
            13 => sinew_body_set_skinning(body, weights.as_ptr(), n.min(64), mats.as_ptr(), rng.below(3) as usize, rng.below(3) as u32),
            14 => sinew_body_set_bone_matrices(body, mats.as_ptr(), rng.below(5) as usize),
            15 => sinew_body_set_max_distances(body, floats.as_ptr(), n.min(64)),
            16 => sinew_body_set_tethers(body, rng.below(4) as u32, rng.float()),
            17 => {
                let mut d = dynamics();
                d.tear_threshold = rng.float().abs();
                d.teleport_distance = rng.float();
                d.max_speed = rng.float();
                sinew_body_set_dynamics(body, &d)
            }
            18 => sinew_body_set_root_transform(body, &rng.mat()),
            19 => {
                let mut l = lod();
                l.freeze_distance = rng.float();
                l.reduce_distance = rng.float();
                l.reduced_substeps = rng.below(70) as u32;
                sinew_body_set_lod(body, &l)
            }
            20 => {
                let mut wd = wind();
                wd.speed = rng.float() * 5.0;
                wd.direction = rng.vec3();
                sinew_world_set_wind(w, &wd)
            }
            21 => sinew_world_set_camera(w, rng.vec3()),
            22 => {
                let other = if bodies.is_empty() { body } else { bodies[rng.below(bodies.len() as u64) as usize] };
                sinew_body_set_collision_pair(body, other, rng.below(2) as u32)
            }
            23 => {
                // A mesh with random (sometimes out-of-range) indices and seams.
                let nv = rng.below(12) as usize;
                let pos: Vec<SinewVec3> = (0..nv).map(|i| v3((i % 4) as f32 * 0.1, 0.0, (i / 4) as f32 * 0.1 + rng.float() * 1e-3)).collect();
                let tri: Vec<u32> = (0..rng.below(5) * 3).map(|_| rng.below(nv as u64 + 2) as u32).collect();
                let mut md = mesh_desc();
                md.positions = pos.as_ptr();
                md.vertex_count = pos.len();
                md.indices = tri.as_ptr();
                md.index_count = tri.len();
                md.weld_distance = rng.float();
                let mut b = SinewBody::default();
                let r = sinew_cloth_create_mesh(w, &md, &mut b);
                if r == SINEW_OK {
                    bodies.push(b);
                }
                r
            }
            24 => {
                let roots = [rng.vec3(), rng.vec3()];
                let dirs = [rng.vec3(), v3(0.0, -1.0, 0.0)];
                let mut sd = std::mem::MaybeUninit::uninit();
                ok(sinew_strands_desc_default(sd.as_mut_ptr()));
                let mut sd = unsafe { sd.assume_init() };
                sd.roots = roots.as_ptr();
                sd.directions = dirs.as_ptr();
                let n = rng.below(3) as usize;
                sd.root_count = n;
                sd.direction_count = n;
                sd.particles_per_strand = rng.below(6) as u32;
                sd.segment_length = rng.float();
                sd.head = rng.mat();
                let mut b = SinewBody::default();
                let r = sinew_strands_create(w, &sd, &mut b);
                if r == SINEW_OK {
                    bodies.push(b);
                }
                r
            }
            25 => {
                let mut cd = std::mem::MaybeUninit::uninit();
                ok(sinew_cloth_cape_desc_default(cd.as_mut_ptr()));
                let mut cd = unsafe { cd.assume_init() };
                cd.columns = rng.below(8) as u32;
                cd.rows = rng.below(8) as u32;
                cd.left_shoulder = rng.mat();
                cd.right_shoulder = rng.mat();
                cd.neck = rng.mat();
                cd.width = rng.float();
                let mut b = SinewBody::default();
                let r = sinew_cloth_create_cape(w, &cd, &mut b);
                if r == SINEW_OK {
                    bodies.push(b);
                }
                r
            }
            26 => sinew_body_set_backstops(body, floats.as_ptr(), n.min(64), floats.as_ptr(), if rng.below(2) == 0 { n.min(64) } else { 3 }),
            27 => sinew_body_read_vertex_sources(body, idx_out.as_mut_ptr(), n.min(idx_out.len())),
            28 => sinew_body_reset_pose(body),
            29 => sinew_body_set_visible(body, rng.below(3) as u32),
            30 => {
                // An asynchronous step with calls in between: they must answer SINEW_BUSY.
                let r = sinew_world_step_begin(w, 1.0 / 60.0);
                if r == SINEW_OK {
                    let busy = sinew_body_read_positions(body, out.as_mut_ptr(), out.len());
                    assert!(busy == SINEW_BUSY || busy == SINEW_INVALID_HANDLE, "{busy:?} during an async step");
                    ok(sinew_world_step_end(w));
                }
                r
            }
            // Ragdolls: random bone lists (parents, shapes, joints, limits), the template, and
            // every per-bone call with random counts, indices and floats.
            31 => {
                let mut bones = chain_bones(rng.vec3(), rng.below(6) as usize);
                for b in bones.iter_mut() {
                    match rng.below(8) {
                        0 => b.parent = rng.below(8) as i32 - 2,
                        1 => b.shape = rng.below(6) as u32,
                        2 => b.joint.kind = rng.below(5) as u32,
                        3 => (b.joint.hinge_min, b.joint.hinge_max) = (rng.float() * 100.0, rng.float() * 100.0),
                        4 => b.joint.swing1 = rng.float() * 100.0,
                        5 => b.mass = rng.float(),
                        6 => b.rotation.w = rng.float(),
                        _ => b.radius0 = rng.float(),
                    }
                }
                let mut st = ragdoll_settings();
                st.kinematic = rng.below(2) as u32;
                st.friction = rng.float();
                let mut out = SinewRagdoll::default();
                let r = sinew_ragdoll_create(w, &st, bones.as_ptr(), if rng.below(8) == 0 { n.min(bones.len()) } else { bones.len() }, &mut out);
                if r == SINEW_OK {
                    ragdolls.push(out);
                }
                r
            }
            32 => {
                let mut h = std::mem::MaybeUninit::uninit();
                let r = sinew_humanoid_bones_default(h.as_mut_ptr());
                if r != SINEW_OK {
                    r
                } else {
                    let mut h: SinewHumanoidBones = unsafe { h.assume_init() };
                    if rng.below(3) == 0 {
                        h.head = rng.vec3();
                        h.total_mass = rng.float();
                    }
                    let mut out = SinewRagdoll::default();
                    let r = sinew_ragdoll_create_humanoid(w, &h, &ragdoll_settings(), &mut out);
                    if r == SINEW_OK {
                        ragdolls.push(out);
                    }
                    r
                }
            }
            33 => sinew_ragdoll_destroy(ragdoll),
            34 => match rng.below(3) {
                0 => sinew_ragdoll_set_kinematic(ragdoll, rng.below(3) as u32),
                1 => sinew_ragdoll_set_bone_kinematic(ragdoll, rng.below(14) as u32, rng.below(2) as u32),
                _ => sinew_ragdoll_is_bone_kinematic(ragdoll, rng.below(14) as u32, &mut 0),
            },
            35 => {
                let k = n.min(64);
                let pos: Vec<SinewVec3> = (0..k).map(|_| if rng.below(10) == 0 { rng.vec3() } else { v3(rng.float(), 1.0 + rng.float(), 0.0) }).collect();
                match rng.below(3) {
                    0 => sinew_ragdoll_set_targets(ragdoll, pos.as_ptr(), k, quats.as_ptr(), if rng.below(3) == 0 { rng.count().min(64) } else { k }),
                    1 => sinew_ragdoll_set_target_matrices(ragdoll, mats.as_ptr(), rng.below(5) as usize),
                    _ => sinew_ragdoll_set_pose(ragdoll, pos.as_ptr(), k, quats.as_ptr(), k, rng.below(2) as u32),
                }
            }
            36 => match rng.below(4) {
                0 => sinew_ragdoll_apply_impulse(ragdoll, rng.vec3(), rng.vec3(), &mut 0),
                1 => sinew_ragdoll_apply_bone_impulse(ragdoll, rng.below(14) as u32, rng.vec3(), rng.vec3()),
                2 => sinew_ragdoll_apply_explosion(ragdoll, rng.vec3(), rng.float(), rng.float()),
                _ => sinew_ragdoll_add_force(ragdoll, rng.below(14) as u32, rng.vec3(), rng.vec3()),
            },
            37 => match rng.below(3) {
                0 => sinew_ragdoll_read_pose(ragdoll, out.as_mut_ptr(), n.min(64), quat_out.as_mut_ptr(), rng.count().min(64)),
                1 => sinew_ragdoll_read_matrices(ragdoll, mat_out.as_mut_ptr(), n.min(64)),
                _ => sinew_ragdoll_read_velocities(ragdoll, out.as_mut_ptr(), n.min(64), out[64..].as_mut_ptr(), n.min(64)),
            },
            38 => match rng.below(6) {
                0 => sinew_ragdoll_is_asleep(ragdoll, &mut 0),
                1 => sinew_ragdoll_wake(ragdoll),
                2 => sinew_ragdoll_get_bone_count(ragdoll, &mut 0),
                3 => sinew_ragdoll_set_direct_joint_solve(ragdoll, rng.below(3) as u32),
                4 => sinew_ragdoll_get_direct_joint_solve(ragdoll, &mut 0),
                _ => sinew_ragdoll_set_bone_pair_collision(ragdoll, rng.below(14) as u32, rng.below(14) as u32, rng.below(2) as u32),
            },
            39 => {
                let k = n.min(64);
                let bones: Vec<u32> = (0..k).map(|_| rng.below(14) as u32).collect();
                if rng.below(2) == 0 {
                    sinew_body_attach_to_ragdoll(body, ragdoll, idx.as_ptr(), k, bones.as_ptr(), k, buf.as_ptr(), if rng.below(4) == 0 { rng.count().min(64) } else { k })
                } else {
                    sinew_body_set_ragdoll_collision(body, ragdoll, rng.below(2) as u32)
                }
            }
            40 => {
                // A static mesh collider: random vertices (sometimes hostile), indices
                // (sometimes out of range or degenerate), null buffers, shares and flags.
                let nv = rng.below(10) as usize;
                let pos: Vec<SinewVec3> = (0..nv).map(|_| if rng.below(6) == 0 { rng.vec3() } else { v3(rng.below(5) as f32 * 0.3 - 0.6, rng.below(3) as f32 * 0.1 - 0.3, rng.below(5) as f32 * 0.3 - 0.6) }).collect();
                let tri: Vec<u32> = (0..rng.below(7) * 3 + rng.below(4) / 3).map(|_| rng.below(nv as u64 + 1) as u32).collect();
                let mut md = mesh_collider_desc();
                md.vertices = if rng.below(8) == 0 { std::ptr::null() } else { pos.as_ptr() };
                md.vertex_count = if rng.below(8) == 0 { n } else { pos.len() };
                md.indices = if rng.below(8) == 0 { std::ptr::null() } else { tri.as_ptr() };
                md.index_count = if rng.below(8) == 0 { n } else { tri.len() };
                md.vertex_count = md.vertex_count.min(pos.len().max(if md.vertices.is_null() { usize::MAX } else { 0 }));
                md.index_count = md.index_count.min(tri.len().max(if md.indices.is_null() { usize::MAX } else { 0 }));
                md.skip_degenerate = rng.below(3) as u32;
                md.layers = rng.next() as u32;
                md.transform = rng.mat();
                if rng.below(4) == 0 {
                    md.share = collider;
                }
                let mut c = SinewCollider::default();
                let r = sinew_collider_create_mesh(w, &md, &mut c);
                if r == SINEW_OK {
                    colliders.push(c);
                }
                r
            }
            41 => match rng.below(3) {
                0 => sinew_collider_teleport(collider, &rng.mat()),
                1 => sinew_collider_set_layers(collider, rng.next() as u32),
                _ => sinew_collider_get_mesh_info(collider, &mut SinewColliderMeshInfo::default()),
            },
            // Powered ragdolls and getting up: strengths and weights in and out of [0, 1],
            // bone indices past the end, snapshots, blends of random poses and alphas.
            42 => {
                let bone = rng.below(14) as u32;
                let v = if rng.below(3) == 0 { rng.float() } else { rng.below(1001) as f32 / 1000.0 };
                match rng.below(6) {
                    0 => sinew_ragdoll_set_muscle_strength(ragdoll, bone, v),
                    1 => sinew_ragdoll_set_muscle_strength_all(ragdoll, v),
                    2 => sinew_ragdoll_set_pin_weight(ragdoll, bone, v),
                    3 => sinew_ragdoll_set_pin_weight_all(ragdoll, v),
                    4 => sinew_ragdoll_get_drive_state(ragdoll, bone, &mut SinewDriveState::default()),
                    _ => sinew_ragdoll_take_events(ragdoll, &mut 0),
                }
            }
            43 => {
                let k = n.min(64);
                let pos: Vec<SinewVec3> = (0..k).map(|_| if rng.below(10) == 0 { rng.vec3() } else { v3(rng.float(), 1.0 + rng.float(), 0.0) }).collect();
                let alpha = if rng.below(3) == 0 { rng.float() } else { rng.below(1001) as f32 / 1000.0 };
                let cap = if rng.below(3) == 0 { rng.count().min(64) } else { k };
                match rng.below(4) {
                    0 => sinew_ragdoll_capture_snapshot(ragdoll),
                    1 => sinew_ragdoll_read_snapshot(ragdoll, out.as_mut_ptr(), cap, quat_out.as_mut_ptr(), rng.count().min(64)),
                    2 => sinew_ragdoll_blend_from_snapshot(ragdoll, pos.as_ptr(), k, quats.as_ptr(), if rng.below(4) == 0 { rng.count().min(64) } else { k }, alpha, out.as_mut_ptr(), cap, quat_out.as_mut_ptr(), cap),
                    _ => sinew_pose_blend(buf.as_ptr(), quats.as_ptr(), pos.as_ptr(), quats.as_ptr(), k, alpha, out.as_mut_ptr(), quat_out.as_mut_ptr(), cap),
                }
            }
            44 => match rng.below(5) {
                0 => sinew_blend_alpha(rng.float(), rng.float(), &mut 0.0),
                1 => {
                    let mut q = std::mem::MaybeUninit::uninit();
                    ok(sinew_get_up_query_default(q.as_mut_ptr()));
                    let mut q: SinewGetUpQuery = unsafe { q.assume_init() };
                    match rng.below(4) {
                        0 => q.head = rng.below(14) as u32,
                        1 => q.up = rng.vec3(),
                        2 => q.bind_forward = rng.vec3(),
                        _ => {}
                    }
                    let mut info = std::mem::MaybeUninit::<SinewGetUpInfo>::uninit();
                    sinew_ragdoll_get_up_info(ragdoll, &q, info.as_mut_ptr())
                }
                2 => sinew_ragdoll_get_rest_time(ragdoll, &mut 0.0),
                3 => sinew_ragdoll_is_at_rest(ragdoll, rng.float(), &mut 0),
                _ => sinew_get_up_query_default(std::ptr::null_mut()),
            },
            // Soft bodies: small lattices (sometimes 0 or 1 along an axis, hostile spacings,
            // origins and orientations, clusters), tet meshes (random, sometimes
            // out-of-range or degenerate tetrahedra, counts not a multiple of 4), settings and
            // volume of any body. They join `bodies`, so every body call above meets them.
            // At most 4 live ones (the test stays fast): past that, one is destroyed instead.
            45 | 46 if live_soft.len() >= 4 => sinew_body_destroy(live_soft.swap_remove(rng.below(4) as usize)),
            45 => {
                let mut d = lattice_desc();
                (d.nx, d.ny, d.nz) = (rng.below(4) as u32, rng.below(4) as u32, rng.below(4) as u32);
                d.spacing = if rng.below(3) == 0 { rng.float() } else { 0.05 };
                d.origin = if rng.below(3) == 0 { rng.vec3() } else { v3(rng.float(), 1.0 + rng.float(), 0.0) };
                if rng.below(4) == 0 {
                    d.orientation = SinewQuat { x: rng.float(), y: 0.0, z: 0.0, w: rng.float() };
                }
                d.cluster_cells = rng.below(4) as u32;
                d.all_neighbours = rng.below(2) as u32;
                if rng.below(3) == 0 {
                    d.soft.shape_stiffness = rng.float();
                    d.soft.volume_compliance = rng.float();
                    d.soft.plastic_creep = rng.float();
                }
                let mut b = SinewBody::default();
                let r = sinew_softbody_create_lattice(w, if rng.below(20) == 0 { std::ptr::null() } else { &d }, &mut b);
                if r == SINEW_OK {
                    bodies.push(b);
                    live_soft.push(b);
                    soft_created += 1;
                }
                r
            }
            46 => {
                let mut p = cube_positions(v3(rng.float(), 1.0 + rng.float(), 0.0), 0.1);
                if rng.below(5) == 0 {
                    p[rng.below(8) as usize] = rng.vec3();
                }
                let mut t = CUBE_TETS.to_vec();
                if rng.below(3) == 0 {
                    let k = rng.below(20) as usize;
                    t[k] = rng.below(10) as u32;
                }
                let count = if rng.below(6) == 0 { rng.below(21) as usize } else { t.len() };
                let mut m = material();
                m.particle_mass = if rng.below(5) == 0 { rng.float() } else { 0.1 };
                let mut s = soft_settings();
                s.shape_stiffness = if rng.below(4) == 0 { rng.float() } else { 0.5 };
                let mut b = SinewBody::default();
                // The cube's surface, wound outward, for a render mesh or a balloon.
                const CUBE_TRIS: [u32; 36] = [0, 4, 6, 0, 6, 2, 1, 3, 7, 1, 7, 5, 0, 1, 5, 0, 5, 4, 2, 6, 7, 2, 7, 3, 0, 2, 3, 0, 3, 1, 4, 5, 7, 4, 7, 6];
                let mut tris = CUBE_TRIS;
                if rng.below(4) == 0 {
                    tris[rng.below(36) as usize] = rng.below(10) as u32;
                }
                let r = match rng.below(4) {
                    0 => {
                        let mut d = std::mem::MaybeUninit::uninit();
                        sinew_soft_mesh_desc_default(d.as_mut_ptr());
                        // SAFETY: just filled.
                        let mut d = unsafe { d.assume_init() };
                        (d.positions, d.vertex_count, d.indices, d.index_count) = (p.as_ptr(), 8, tris.as_ptr(), if rng.below(6) == 0 { rng.below(37) as usize } else { 36 });
                        d.resolution = rng.below(6) as u32;
                        d.soft = s;
                        sinew_softbody_create_from_mesh(w, &d, &mut b)
                    }
                    1 => {
                        let mut d = std::mem::MaybeUninit::uninit();
                        sinew_cloth_mesh_desc_default(d.as_mut_ptr());
                        // SAFETY: just filled.
                        let mut d = unsafe { d.assume_init() };
                        (d.positions, d.vertex_count, d.indices, d.index_count) = (p.as_ptr(), 8, tris.as_ptr(), 36);
                        s.pressure = if rng.below(3) == 0 { rng.float() } else { 20.0 };
                        sinew_softbody_create_balloon(w, &d, &s, &mut b)
                    }
                    _ => sinew_softbody_create_tets(w, p.as_ptr(), if rng.below(8) == 0 { rng.below(9) as usize } else { 8 }, t.as_ptr(), count, &m, &s, &mut b),
                };
                if r == SINEW_OK {
                    bodies.push(b);
                    live_soft.push(b);
                    soft_created += 1;
                }
                r
            }
            47 => match rng.below(4) {
                0 => {
                    let mut s = soft_settings();
                    match rng.below(4) {
                        0 => s.volume_compliance = rng.float(),
                        1 => s.shape_stiffness = rng.float(),
                        2 => s.shape_linear = rng.float(),
                        _ => (s.plastic_yield, s.plastic_creep, s.plastic_max) = (rng.float(), rng.float(), rng.float()),
                    }
                    s.chapter_stiffness = rng.below(3) as u32;
                    sinew_softbody_set_settings(body, &s)
                }
                1 => sinew_softbody_get_settings(body, &mut soft_settings()),
                2 => sinew_softbody_get_volume(body, &mut 0.0, &mut 0.0),
                _ => sinew_body_get_center_of_mass(body, &mut SinewVec3::default()),
            },
            // A material preset of any value (sometimes none with a null output) on any body.
            48 => {
                let v = if rng.below(2) == 0 { rng.below(12) as u32 } else { rng.next() as u32 };
                let mut m = std::mem::MaybeUninit::uninit();
                let r = sinew_material_preset(v, if rng.below(10) == 0 { std::ptr::null_mut() } else { m.as_mut_ptr() });
                if r == SINEW_OK { sinew_body_set_material(body, unsafe { m.assume_init_ref() }) } else { r }
            }
            _ => sinew_world_step(w, match rng.below(6) {
                0 => rng.float(),
                1 => 1.0,
                _ => 1.0 / 60.0,
            }),
        };
        if r == SINEW_PANIC {
            panics += 1;
            eprintln!("seed {seed:#x}, round {round}: SINEW_PANIC: {}", last_error());
        }
        if r != SINEW_OK {
            assert!(!last_error().is_empty(), "seed {seed:#x}, round {round}: failure {r:?} without a message");
        }
        // Every few rounds the world must still step, and every live body hold finite data.
        if round % 50 == 49 {
            ok(sinew_world_step(w, 1.0 / 60.0));
            for &b in &bodies {
                let mut n = 0usize;
                if sinew_body_get_vertex_count(b, &mut n) == SINEW_OK && n <= out.len() {
                    ok(sinew_body_read_positions(b, out.as_mut_ptr(), n));
                    assert!(out[..n].iter().all(|p| p.x.is_finite() && p.y.is_finite() && p.z.is_finite()), "seed {seed:#x}, round {round}: a body holds non-finite positions");
                }
            }
            for &rd in &ragdolls {
                let mut n = 0usize;
                if sinew_ragdoll_get_bone_count(rd, &mut n) == SINEW_OK && sinew_ragdoll_read_pose(rd, out.as_mut_ptr(), n, quat_out.as_mut_ptr(), n) == SINEW_OK {
                    assert!(out[..n].iter().all(|p| p.x.is_finite() && p.y.is_finite() && p.z.is_finite()), "seed {seed:#x}, round {round}: a ragdoll holds non-finite bones");
                }
                let mut st = SinewDriveState::default();
                if sinew_ragdoll_get_drive_state(rd, 0, &mut st) == SINEW_OK {
                    let all = [st.muscle_strength, st.pin_weight, st.effective_strength, st.effective_pin_weight, st.hit_loss];
                    assert!(all.iter().all(|v| (0.0..=1.0).contains(v)), "seed {seed:#x}, round {round}: a drive state outside [0, 1]: {st:?}");
                }
            }
        }
    }
    assert_eq!(panics, 0, "seed {seed:#x}: {panics} calls panicked inside the library");
    ok(sinew_world_destroy(w));
    soft_created
}
