//! `descriptors`: the validators of every descriptor and settings struct, each reached
//! through its ABI call with the library's defaults and many fields overwritten by any
//! value. A refused descriptor changes nothing (the world's hash is the same) and says why;
//! an accepted one gives an object, or settings, whose readbacks stay finite over three
//! steps; settings read back as they were set.

use sinew::ffi::body::*;
use sinew::ffi::character::*;
use sinew::ffi::cloth::*;
use sinew::ffi::collider::*;
use sinew::ffi::ragdoll::*;
use sinew::ffi::result::SinewResult::*;
use sinew::ffi::rope::*;
use sinew::ffi::softbody::*;
use sinew::ffi::strands::*;
use sinew::ffi::types::*;
use sinew::ffi::world::*;

use crate::input::{Gen, check, default_of};
use crate::state::{Live, check_normals, hash_world};

/// Runs one input: a world descriptor, then up to 8 descriptors of any kind.
pub fn run(data: &[u8]) {
    let mut g = Gen::new(data);
    let mut wd = default_of(sinew_world_desc_default);
    g.scramble(&mut wd, 6);
    // Valid but slow to start or step: one worker thread, the fewest substeps, iterations
    // and steps per frame (refused values stay).
    crate::input::cheap_world(&mut wd, 1);
    let mut w = SinewWorld::default();
    let r = sinew_world_create(&wd, &mut w);
    check(r, "sinew_world_create");
    if r != SINEW_OK {
        assert_eq!(w.id, 0, "a refused world_create wrote its output");
        // Still exercise the rest on a default world.
        let mut d = default_of(sinew_world_desc_default);
        crate::input::cheap_world(&mut d, 1);
        assert_eq!(sinew_world_create(&d, &mut w), SINEW_OK);
    }
    let mut live = Live::default();
    // What a host reads of the world now: after each step, the next descriptor's "before".
    let mut before = hash_world(w, &live);
    for _ in 0..8 {
        if g.is_empty() {
            break;
        }
        let kind = g.byte() % 16;
        let n = 1 + g.below(8);
        let mut body = SinewBody::default();
        let mut collider = SinewCollider::default();
        let mut ragdoll = SinewRagdoll::default();
        let trace = std::env::var_os("SINEW_FUZZ_TRACE").is_some();
        let (r, what) = match kind {
            0 => {
                let mut d = default_of(sinew_cloth_grid_desc_default);
                (d.columns, d.rows) = (4, 4);
                g.scramble(&mut d.material, n);
                d.spacing = g.mostly(0.05);
                d.origin = g.point(SinewVec3::default(), 2.0);
                d.orientation = g.quat();
                d.pin_mode = if g.one_in(4) { g.word() } else { g.below(5) as u32 };
                (sinew_cloth_create_grid(w, &d, &mut body), "cloth_create_grid")
            }
            1 => {
                let mut d = default_of(sinew_cloth_cape_desc_default);
                g.scramble(&mut d, n);
                (d.columns, d.rows) = (d.columns % 12, d.rows % 12);
                (sinew_cloth_create_cape(w, &d, &mut body), "cloth_create_cape")
            }
            2 => {
                let mut d = default_of(sinew_cloth_skirt_desc_default);
                g.scramble(&mut d, n);
                (d.columns, d.rows) = (d.columns % 16, d.rows % 10);
                (sinew_cloth_create_skirt(w, &d, &mut body), "cloth_create_skirt")
            }
            3 => {
                let pts = [SinewVec3 { x: 0.0, y: 2.0, z: 0.0 }, SinewVec3 { x: 0.1, y: 2.0, z: 0.0 }, SinewVec3 { x: 0.2, y: 2.0, z: 0.0 }];
                let mut d = default_of(sinew_rope_desc_default);
                (d.points, d.point_count) = (pts.as_ptr(), 3);
                g.scramble(&mut d.material, n);
                d.bend = if g.one_in(3) { g.word() } else { 1 };
                (sinew_rope_create(w, &d, &mut body), "rope_create")
            }
            4 => {
                let roots = [SinewVec3 { x: 0.0, y: 1.7, z: 0.0 }];
                let dirs = [SinewVec3 { x: 0.0, y: -1.0, z: 0.0 }];
                let mut d = default_of(sinew_strands_desc_default);
                (d.roots, d.root_count, d.directions, d.direction_count) = (roots.as_ptr(), 1, dirs.as_ptr(), 1);
                g.scramble(&mut d.material, n);
                g.scramble(&mut d.head, 2);
                d.mode = if g.one_in(3) { g.word() } else { d.mode };
                d.segment_length = g.mostly(0.05);
                d.particles_per_strand = if g.one_in(3) { g.word() % 64 } else { 6 };
                (sinew_strands_create(w, &d, &mut body), "strands_create")
            }
            5 => {
                let mut d = default_of(sinew_soft_lattice_desc_default);
                g.scramble(&mut d, n);
                (d.nx, d.ny, d.nz) = (d.nx % 6, d.ny % 6, d.nz % 6);
                (sinew_softbody_create_lattice(w, &d, &mut body), "softbody_create_lattice")
            }
            6 => {
                let mut d = default_of(sinew_collider_desc_default);
                g.scramble(&mut d, n);
                (sinew_collider_create(w, &d, &mut collider), "collider_create")
            }
            7 => {
                let mut s = default_of(sinew_ragdoll_settings_default);
                g.scramble(&mut s, n);
                if trace {
                    eprintln!("ragdoll settings {s:?}");
                }
                let h = default_of(sinew_humanoid_bones_default);
                (sinew_ragdoll_create_humanoid(w, &h, &s, &mut ragdoll), "ragdoll_create_humanoid (settings)")
            }
            8 => {
                let mut h = default_of(sinew_humanoid_bones_default);
                g.scramble(&mut h, n);
                if trace {
                    eprintln!("humanoid bones {h:?}");
                }
                (sinew_ragdoll_create_humanoid(w, &h, &default_of(sinew_ragdoll_settings_default), &mut ragdoll), "ragdoll_create_humanoid (bones)")
            }
            9 => {
                let mut bones = [default_of(sinew_bone_desc_default); 3];
                for (i, b) in bones.iter_mut().enumerate() {
                    b.parent = i as i32 - 1;
                    b.position = SinewVec3 { x: 0.0, y: 2.0 - 0.3 * i as f32, z: 0.0 };
                    b.joint.kind = if i == 0 { 0 } else { i as u32 };
                    g.scramble(b, n);
                    if trace {
                        eprintln!("bone {i} {b:?}");
                    }
                }
                (sinew_ragdoll_create(w, &default_of(sinew_ragdoll_settings_default), bones.as_ptr(), 3, &mut ragdoll), "ragdoll_create")
            }
            10 => {
                let mut hb = default_of(sinew_humanoid_bones_default);
                if g.bool() {
                    g.scramble(&mut hb, n);
                }
                let cap = g.below(16);
                let mut out = vec![default_of(sinew_bone_desc_default); cap];
                let r = sinew_humanoid_bone_descs(&hb, out.as_mut_ptr(), cap);
                if r == SINEW_OK {
                    for b in &out {
                        for f in [b.position.x, b.position.y, b.position.z, b.mass, b.radius, b.half_height] {
                            assert!(f.is_finite(), "humanoid_bone_descs gave {b:?}");
                        }
                    }
                }
                (r, "humanoid_bone_descs")
            }
            // Settings on an existing body: refused ones change nothing, accepted ones read back.
            _ => {
                if live.bodies.is_empty() {
                    let mut d = default_of(sinew_cloth_grid_desc_default);
                    (d.columns, d.rows) = (5, 5);
                    let mut b = SinewBody::default();
                    assert_eq!(sinew_cloth_create_grid(w, &d, &mut b), SINEW_OK);
                    live.bodies.push(b);
                    before = hash_world(w, &live);
                    continue;
                }
                let b = live.bodies[g.below(live.bodies.len())];
                match kind {
                    11 => {
                        let mut m = crate::input::base_material(&mut g);
                        g.scramble(&mut m, n);
                        let r = sinew_body_set_material(b, &m);
                        // A u32 flag of the ABI is true when nonzero, and reads back as 1.
                        m.self_collision = (m.self_collision != 0) as u32;
                        if r == SINEW_OK {
                            let mut back = default_of(sinew_material_default);
                            assert_eq!(sinew_body_get_material(b, &mut back), SINEW_OK);
                            assert_eq!(format!("{m:?}"), format!("{back:?}"), "a material reads back other than it was set");
                        }
                        (r, "body_set_material")
                    }
                    12 => {
                        let mut d = default_of(sinew_dynamics_default);
                        g.scramble(&mut d, n);
                        let r = sinew_body_set_dynamics(b, &d);
                        if r == SINEW_OK {
                            let mut back = default_of(sinew_dynamics_default);
                            assert_eq!(sinew_body_get_dynamics(b, &mut back), SINEW_OK);
                            assert_eq!(format!("{d:?}"), format!("{back:?}"), "dynamics read back other than they were set");
                        }
                        (r, "body_set_dynamics")
                    }
                    13 => {
                        let mut d = default_of(sinew_lod_default);
                        g.scramble(&mut d, n);
                        (sinew_body_set_lod(b, &d), "body_set_lod")
                    }
                    14 => {
                        let mut d = default_of(sinew_wind_default);
                        g.scramble(&mut d, n);
                        (sinew_world_set_wind(w, &d), "world_set_wind")
                    }
                    _ => {
                        let mut t = default_of(sinew_world_desc_default);
                        g.scramble(&mut t, 2);
                        let v = SinewVec3 { x: f32::from_bits(t.substeps), y: f32::from_bits(t.iterations), z: t.fixed_rate_hz };
                        if g.bool() { (sinew_world_set_gravity(w, v), "world_set_gravity") } else { (sinew_body_set_tethers(b, t.kernel, t.gravity.y), "body_set_tethers") }
                    }
                }
            }
        };
        check(r, what);
        if std::env::var_os("SINEW_FUZZ_TRACE").is_some() {
            eprintln!("{what} -> {r:?} {}", if r == SINEW_OK { String::new() } else { crate::input::last_error() });
        }
        if r == SINEW_OK {
            if body.id != 0 {
                live.bodies.push(body);
            }
            if collider.id != 0 {
                live.colliders.push(collider);
            }
            if ragdoll.id != 0 {
                live.ragdolls.push(ragdoll);
            }
        } else {
            assert!(body.id == 0 && collider.id == 0 && ragdoll.id == 0, "{what}: refused ({r:?}) but wrote its output handle");
            assert_eq!(before, hash_world(w, &live), "{what}: refused ({r:?}) but changed the world: {}", crate::input::last_error());
        }
        // A refused descriptor changed nothing, so `before` still holds. (Stepping between
        // creations is `abi_calls`' part: here every object is stepped three times at the end,
        // which keeps an input at a millisecond or so.)
        if r == SINEW_OK {
            before = hash_world(w, &live);
        }
    }
    for _ in 0..3 {
        check(sinew_world_step(w, 1.0 / 60.0), "sinew_world_step");
        hash_world(w, &live);
    }
    check_normals(&live);
    assert_eq!(sinew_world_destroy(w), SINEW_OK);
}
