//! `abi_calls`: the bytes decode into up to [`MAX_CALLS`] C ABI calls over every object kind
//! — worlds (one and two threads), cloths (grid, mesh, cape, skirt), ropes, strands, soft
//! bodies (lattice, tets, embedded mesh, balloon), ragdolls (bone lists and the humanoid
//! template), colliders (shapes and meshes) — creating, destroying, setting (descriptor
//! fields and floats of any bit pattern), stepping (synchronously and through
//! `step_begin`/`step_end`), and reading back into buffers of any length, with live, stale,
//! foreign and made-up handles. After every call it asserts:
//!
//! 1. no panic reached the boundary (`SINEW_PANIC` is a bug), and a failure has a message;
//! 2. everything a host can read is finite (`state::hash_world` reads it all, and
//!    `state::check_normals` the normals before a world is destroyed);
//! 3. a refused call, and any read, left every world unchanged (the same hash before and
//!    after), and wrote nothing into its output buffer.

use sinew::ffi::body::*;
use sinew::ffi::character::*;
use sinew::ffi::cloth::*;
use sinew::ffi::collider::*;
use sinew::ffi::getup::*;
use sinew::ffi::ragdoll::*;
use sinew::ffi::result::SinewResult::{self, *};
use sinew::ffi::rope::*;
use sinew::ffi::softbody::*;
use sinew::ffi::strands::*;
use sinew::ffi::types::*;
use sinew::ffi::world::*;

use crate::input::{Gen, check, default_of};
use crate::state::{Live, check_normals, hash_world};

/// Calls per input: enough for scenes that step, few enough that one input runs in
/// milliseconds.
pub const MAX_CALLS: usize = 24;
/// Worlds alive at once.
const MAX_WORLDS: usize = 2;
/// Objects per world: keeps each step small.
const MAX_OBJECTS: usize = 4;
/// Steps (`world_step`, `step_begin`) per input; past it a step becomes a stats read, so no
/// input steps more than this many frames of at most two fixed steps of two substeps.
pub const MAX_STEPS: usize = 3;

/// What the output buffers hold before a call: a call that fails must leave it so.
const SENTINEL: u32 = 0x7fc0_dead;

struct World {
    handle: SinewWorld,
    live: Live,
    busy: bool,
    /// Worker threads (1, or 2 in one world of 32).
    threads: u32,
}

#[derive(Default)]
struct Harness {
    worlds: Vec<World>,
    stale_worlds: Vec<SinewWorld>,
    stale_bodies: Vec<SinewBody>,
    stale_colliders: Vec<SinewCollider>,
    stale_ragdolls: Vec<SinewRagdoll>,
    /// Steps taken so far (see [`MAX_STEPS`]).
    steps: usize,
    /// The worlds' hashes after the last call when it changed nothing (a refusal or a read),
    /// so that the next call starts from them instead of reading every world again.
    known: Option<Vec<Option<u64>>>,
}

/// Runs one input.
pub fn run(data: &[u8]) {
    let mut g = Gen::new(data);
    let mut h = Harness::default();
    let mut calls = 0;
    while !g.is_empty() && calls < MAX_CALLS {
        h.call(&mut g, calls);
        calls += 1;
    }
    h.finish();
}

/// `SINEW_FUZZ_TRACE=1` prints every call and its result (to replay a failing input).
fn trace() -> bool {
    static TRACE: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *TRACE.get_or_init(|| std::env::var_os("SINEW_FUZZ_TRACE").is_some())
}

/// Whether a successful call may change what a host reads.
#[derive(PartialEq)]
enum Kind {
    Changes,
    Reads,
}

fn sentinel_vec3(n: usize) -> Vec<SinewVec3> {
    let s = f32::from_bits(SENTINEL);
    vec![SinewVec3 { x: s, y: s, z: s }; n]
}

fn untouched(v: &[SinewVec3]) -> bool {
    v.iter().all(|p| p.x.to_bits() == SENTINEL && p.y.to_bits() == SENTINEL && p.z.to_bits() == SENTINEL)
}

fn finite(v: &[SinewVec3]) -> bool {
    v.iter().all(|p| p.x.is_finite() && p.y.is_finite() && p.z.is_finite())
}

impl Harness {
    fn hashes(&self) -> Vec<Option<u64>> {
        self.worlds.iter().map(|w| if w.busy { None } else { Some(hash_world(w.handle, &w.live)) }).collect()
    }

    fn call(&mut self, g: &mut Gen, n: usize) {
        let op = if self.worlds.is_empty() { 0 } else { g.byte() % 64 };
        let before = self.known.take().unwrap_or_else(|| self.hashes());
        let count_before = self.worlds.len();
        let (r, kind, what) = self.op(g, op);
        if trace() {
            eprintln!("call {n}: {what} -> {r:?} {}", if r == SINEW_OK { String::new() } else { crate::input::last_error() });
        }
        check(r, &format!("call {n} ({what})"));
        // A refused call, or a read, changed nothing in any world (worlds created or
        // destroyed by the call are not compared).
        if (r != SINEW_OK || kind == Kind::Reads) && self.worlds.len() == count_before {
            let after = self.hashes();
            for (i, (b, a)) in before.iter().zip(&after).enumerate() {
                if let (Some(b), Some(a)) = (b, a) {
                    assert_eq!(b, a, "call {n} ({what}) answered {r:?} but changed world {i}: {}", crate::input::last_error());
                }
            }
            // Nothing changed, and nothing happens between two calls.
            self.known = Some(after);
        }
    }

    fn finish(&mut self) {
        for w in self.worlds.drain(..) {
            if w.busy {
                assert_eq!(sinew_world_step_end(w.handle), SINEW_OK, "step_end at the end: {}", crate::input::last_error());
            }
            hash_world(w.handle, &w.live);
            check_normals(&w.live);
            assert_eq!(sinew_world_destroy(w.handle), SINEW_OK, "world_destroy at the end: {}", crate::input::last_error());
        }
    }

    fn world(&self, g: &mut Gen) -> (usize, SinewWorld) {
        let i = g.below(self.worlds.len());
        match g.byte() % 16 {
            0 if !self.stale_worlds.is_empty() => (i, self.stale_worlds[g.below(self.stale_worlds.len())]),
            1 => (i, SinewWorld { id: g.word() as u64 | (g.word() as u64) << 32 }),
            _ => (i, self.worlds[i].handle),
        }
    }

    fn body(&self, g: &mut Gen, wi: usize) -> SinewBody {
        let own = &self.worlds[wi].live.bodies;
        match g.byte() % 16 {
            0 if !self.stale_bodies.is_empty() => self.stale_bodies[g.below(self.stale_bodies.len())],
            1 => SinewBody { id: g.word() as u64 | (g.word() as u64) << 32 },
            2 => SinewBody::default(),
            3 if self.worlds.len() > 1 && !self.worlds[1 - wi].live.bodies.is_empty() => {
                let other = &self.worlds[1 - wi].live.bodies;
                other[g.below(other.len())]
            }
            _ if !own.is_empty() => own[g.below(own.len())],
            _ => SinewBody::default(),
        }
    }

    fn collider(&self, g: &mut Gen, wi: usize) -> SinewCollider {
        let own = &self.worlds[wi].live.colliders;
        match g.byte() % 16 {
            0 if !self.stale_colliders.is_empty() => self.stale_colliders[g.below(self.stale_colliders.len())],
            1 => SinewCollider { id: g.word() as u64 | (g.word() as u64) << 32 },
            _ if !own.is_empty() => own[g.below(own.len())],
            _ => SinewCollider::default(),
        }
    }

    fn ragdoll(&self, g: &mut Gen, wi: usize) -> SinewRagdoll {
        let own = &self.worlds[wi].live.ragdolls;
        match g.byte() % 16 {
            0 if !self.stale_ragdolls.is_empty() => self.stale_ragdolls[g.below(self.stale_ragdolls.len())],
            1 => SinewRagdoll { id: g.word() as u64 | (g.word() as u64) << 32 },
            3 if self.worlds.len() > 1 && !self.worlds[1 - wi].live.ragdolls.is_empty() => {
                let other = &self.worlds[1 - wi].live.ragdolls;
                other[g.below(other.len())]
            }
            _ if !own.is_empty() => own[g.below(own.len())],
            _ => SinewRagdoll::default(),
        }
    }

    fn live_of(&mut self, w: SinewWorld) -> &mut Live {
        &mut self.worlds.iter_mut().find(|x| x.handle == w).expect("an object was created in a world the harness does not know").live
    }

    fn full(&self, wi: usize) -> bool {
        let l = &self.worlds[wi].live;
        l.bodies.len() + l.colliders.len() + l.ragdolls.len() >= MAX_OBJECTS
    }

    /// Records a body created in world `wi` (when the call succeeded).
    fn add_body(&mut self, wi: usize, world: SinewWorld, r: SinewResult, b: SinewBody) {
        if r == SINEW_OK {
            let w = self.worlds.iter_mut().find(|w| w.handle == world).expect("a body was created in a world the harness does not know");
            w.live.bodies.push(b);
        }
        let _ = wi;
    }

    fn material(g: &mut Gen) -> SinewMaterial {
        let mut m = crate::input::base_material(g);
        if g.one_in(3) {
            g.scramble(&mut m, 3);
        }
        m
    }

    fn soft(g: &mut Gen) -> SinewSoftSettings {
        let mut s = default_of(sinew_soft_settings_default);
        if g.one_in(3) {
            g.scramble(&mut s, 3);
        }
        s
    }

    fn op(&mut self, g: &mut Gen, op: u8) -> (SinewResult, Kind, &'static str) {
        use Kind::*;
        if op == 0 || op == 1 {
            return self.world_op(g, op);
        }
        let (wi, w) = self.world(g);
        if op == 2 || op == 3 || op >= 58 {
            if self.steps >= MAX_STEPS {
                let mut s = SinewWorldStats::default();
                return (sinew_world_get_stats(w, &mut s), Kind::Reads, "world_get_stats (step budget)");
            }
            self.steps += 1;
        }
        let creating = (7..=21).contains(&op);
        if creating && self.full(wi) {
            // Past the object budget a create becomes a destroy.
            let live = &mut self.worlds[wi].live;
            if let Some(b) = live.bodies.pop() {
                self.stale_bodies.push(b);
                return (sinew_body_destroy(b), Changes, "body_destroy (budget)");
            }
            if let Some(c) = live.colliders.pop() {
                self.stale_colliders.push(c);
                return (sinew_collider_destroy(c), Changes, "collider_destroy (budget)");
            }
            let rd = live.ragdolls.pop().unwrap();
            self.stale_ragdolls.push(rd);
            return (sinew_ragdoll_destroy(rd), Changes, "ragdoll_destroy (budget)");
        }
        match op {
            2 => {
                let dt = match g.byte() % 8 {
                    0 => g.float(),
                    1 => 1.0 / 30.0,
                    2 => 1.0 / 144.0,
                    _ => 1.0 / 60.0,
                };
                (sinew_world_step(w, dt), Changes, "world_step")
            }
            3 => {
                let dt = if g.one_in(6) { g.float() } else { 1.0 / 60.0 };
                let r = sinew_world_step_begin(w, dt);
                if r == SINEW_OK {
                    self.worlds.iter_mut().find(|x| x.handle == w).expect("step_begin on an unknown world succeeded").busy = true;
                }
                (r, Changes, "world_step_begin")
            }
            4 => {
                let r = sinew_world_step_end(w);
                if r == SINEW_OK {
                    self.worlds.iter_mut().find(|x| x.handle == w).expect("step_end on an unknown world succeeded").busy = false;
                }
                (r, Changes, "world_step_end")
            }
            5 => match g.byte() % 3 {
                0 => (sinew_world_set_gravity(w, SinewVec3 { x: g.mostly(0.0), y: g.mostly(-9.81), z: g.mostly(0.0) }), Changes, "world_set_gravity"),
                1 => (sinew_world_set_camera(w, g.vec3()), Changes, "world_set_camera"),
                _ => {
                    let mut d = default_of(sinew_wind_default);
                    d.speed = g.range(0.0, 10.0);
                    g.scramble(&mut d, 4);
                    (sinew_world_set_wind(w, if g.one_in(16) { std::ptr::null() } else { &d }), Changes, "world_set_wind")
                }
            },
            6 => {
                let cap = g.below(40);
                let mut ev = vec![SinewEvent { body: SinewBody { id: SENTINEL as u64 }, kind: SENTINEL, reason: SENTINEL }; cap];
                let r = if g.one_in(2) {
                    let len = if g.one_in(4) { g.below(cap + 1) } else { cap };
                    sinew_world_read_events(w, if g.one_in(16) { std::ptr::null_mut() } else { ev.as_mut_ptr() }, len)
                } else {
                    let mut s = SinewWorldStats::default();
                    sinew_world_get_stats(w, &mut s)
                };
                if r != SINEW_OK {
                    assert!(ev.iter().all(|e| e.kind == SENTINEL), "a refused read_events wrote into the buffer");
                }
                (r, Changes, "world_read_events/get_stats")
            }
            7 => {
                let mut d = default_of(sinew_cloth_grid_desc_default);
                (d.columns, d.rows) = match g.byte() % 10 {
                    0 => (g.word(), g.word()),
                    // Over 1024 particles (1,056 to 1,320), in a two-thread world: the split
                    // step's two halves. In a one-thread world the same rows over a few: the
                    // SIMD kernels' multi-register rows, at a tenth of the particles.
                    1 if self.worlds[wi].threads > 1 => (33 + g.below(8) as u32, 32 + g.below(2) as u32),
                    1 => (33 + g.below(8) as u32, 2 + g.below(4) as u32),
                    _ => (g.below(12) as u32, g.below(12) as u32),
                };
                // Past the limit is refused at once; a big grid within it only makes the input slow.
                if (d.columns as u64) * (d.rows as u64) <= 1 << 22 {
                    (d.columns, d.rows) = (d.columns.min(40), d.rows.min(40));
                }
                d.spacing = g.mostly(0.05);
                d.origin = g.point(SinewVec3 { x: 0.0, y: 1.0, z: 0.0 }, 1.0);
                d.orientation = g.quat();
                d.pin_mode = g.below(6) as u32;
                let k = g.below(6);
                let pins = g.indices((d.columns as usize).saturating_mul(d.rows as usize), k);
                d.pin_indices = if g.one_in(10) { std::ptr::null() } else { pins.as_ptr() };
                d.pin_count = if g.one_in(10) { g.count(8) } else { pins.len() }.min(if d.pin_indices.is_null() { usize::MAX } else { pins.len() });
                d.material = Self::material(g);
                let mut b = SinewBody::default();
                let r = sinew_cloth_create_grid(w, &d, &mut b);
                self.add_body(wi, w, r, b);
                (r, Changes, "cloth_create_grid")
            }
            8 | 16 => {
                // A render mesh: a small sheet with seams (duplicated vertices), jitter,
                // hostile positions and indices.
                let cols = 2 + g.below(4);
                let nv = cols * (2 + g.below(3));
                let mut pos: Vec<SinewVec3> = (0..nv).map(|i| SinewVec3 { x: (i % cols) as f32 * 0.1, y: 1.0, z: (i / cols) as f32 * 0.1 }).collect();
                for _ in 0..g.below(4) {
                    let (a, b) = (g.below(nv), g.below(nv));
                    pos[a] = if g.one_in(3) { g.vec3() } else { pos[b] };
                }
                let mut tri = Vec::new();
                for r in 0..nv / cols - 1 {
                    for c in 0..cols - 1 {
                        let i = (r * cols + c) as u32;
                        tri.extend_from_slice(&[i, i + cols as u32, i + 1, i + 1, i + cols as u32, i + cols as u32 + 1]);
                    }
                }
                for _ in 0..g.below(3) {
                    let k = g.below(tri.len());
                    tri[k] = g.indices(nv, 1)[0];
                }
                let inv: Vec<f32> = (0..nv).map(|_| if g.one_in(4) { 0.0 } else { g.mostly(1.0) }).collect();
                let mut d = default_of(sinew_cloth_mesh_desc_default);
                d.positions = pos.as_ptr();
                d.vertex_count = if g.one_in(12) { g.below(nv + 1) } else { nv };
                d.indices = tri.as_ptr();
                d.index_count = if g.one_in(12) { g.below(tri.len() + 1) } else { tri.len() };
                if g.one_in(3) {
                    d.inverse_masses = inv.as_ptr();
                    d.inverse_mass_count = if g.one_in(4) { g.below(nv + 1) } else { nv };
                }
                d.weld_distance = g.mostly(1e-4);
                d.material = Self::material(g);
                let mut b = SinewBody::default();
                if op == 8 {
                    let r = sinew_cloth_create_mesh(w, &d, &mut b);
                    self.add_body(wi, w, r, b);
                    (r, Changes, "cloth_create_mesh")
                } else {
                    let s = Self::soft(g);
                    let r = sinew_softbody_create_balloon(w, &d, &s, &mut b);
                    self.add_body(wi, w, r, b);
                    (r, Changes, "softbody_create_balloon")
                }
            }
            9 => {
                let mut d = default_of(sinew_cloth_cape_desc_default);
                g.scramble(&mut d, 3);
                // Any size up to the library's limit is valid; a big one only makes the input slow.
                d.columns = if g.one_in(8) { d.columns } else { d.columns % 10 };
                d.rows = if g.one_in(8) { d.rows } else { d.rows % 10 };
                (d.columns, d.rows) = (d.columns.min(12), d.rows.min(12));
                let mut b = SinewBody::default();
                let r = sinew_cloth_create_cape(w, &d, &mut b);
                self.add_body(wi, w, r, b);
                (r, Changes, "cloth_create_cape")
            }
            10 => {
                let mut d = default_of(sinew_cloth_skirt_desc_default);
                g.scramble(&mut d, 3);
                d.columns = if g.one_in(8) { d.columns } else { d.columns % 12 };
                d.rows = if g.one_in(8) { d.rows } else { d.rows % 8 };
                (d.columns, d.rows) = (d.columns.min(12), d.rows.min(12));
                let mut b = SinewBody::default();
                let r = sinew_cloth_create_skirt(w, &d, &mut b);
                self.add_body(wi, w, r, b);
                (r, Changes, "cloth_create_skirt")
            }
            11 => {
                let n = g.below(16);
                let top = g.point(SinewVec3 { x: 0.0, y: 2.0, z: 0.0 }, 1.0);
                let pts: Vec<SinewVec3> = (0..n).map(|i| if g.one_in(12) { g.vec3() } else { SinewVec3 { x: top.x + 0.1 * i as f32, y: top.y, z: top.z } }).collect();
                let k = g.below(3);
                let pins = g.indices(n, k);
                let mut d = default_of(sinew_rope_desc_default);
                d.points = pts.as_ptr();
                d.point_count = pts.len();
                d.pin_indices = pins.as_ptr();
                d.pin_count = pins.len();
                d.bend = g.below(3) as u32;
                d.material = Self::material(g);
                let mut b = SinewBody::default();
                let r = sinew_rope_create(w, if g.one_in(20) { std::ptr::null() } else { &d }, &mut b);
                self.add_body(wi, w, r, b);
                (r, Changes, "rope_create")
            }
            12 => {
                let n = g.below(4);
                let roots: Vec<SinewVec3> = (0..n).map(|_| g.point(SinewVec3 { x: 0.0, y: 1.7, z: 0.0 }, 0.1)).collect();
                let dirs: Vec<SinewVec3> = (0..n).map(|_| if g.one_in(5) { g.vec3() } else { SinewVec3 { x: 0.0, y: -1.0, z: 0.0 } }).collect();
                let mut d = default_of(sinew_strands_desc_default);
                d.mode = g.below(3) as u32;
                d.roots = roots.as_ptr();
                d.root_count = n;
                d.directions = dirs.as_ptr();
                d.direction_count = if g.one_in(6) { g.below(n + 1) } else { n };
                d.points = roots.as_ptr();
                d.point_count = if g.one_in(2) { n } else { 0 };
                d.particles_per_strand = match g.byte() % 8 {
                    0 => match g.word() {
                        w if w > 1 << 22 => w,
                        w => w % 64,
                    },
                    _ => g.below(8) as u32,
                };
                d.segment_length = g.mostly(0.05);
                d.head = g.mat();
                d.material = Self::material(g);
                let mut b = SinewBody::default();
                let r = sinew_strands_create(w, &d, &mut b);
                self.add_body(wi, w, r, b);
                (r, Changes, "strands_create")
            }
            13 => {
                let mut d = default_of(sinew_soft_lattice_desc_default);
                (d.nx, d.ny, d.nz) = (g.below(5) as u32, g.below(5) as u32, g.below(5) as u32);
                d.spacing = g.mostly(0.05);
                d.origin = g.point(SinewVec3 { x: 0.0, y: 1.0, z: 0.0 }, 1.0);
                d.orientation = g.quat();
                d.cluster_cells = g.below(4) as u32;
                d.all_neighbours = g.below(3) as u32;
                d.soft = Self::soft(g);
                d.material = Self::material(g);
                if g.one_in(4) {
                    g.scramble(&mut d, 2);
                    // The scramble may have grown the lattice past what a step can afford.
                    (d.nx, d.ny, d.nz) = (d.nx % 9, d.ny % 9, d.nz % 9);
                }
                let mut b = SinewBody::default();
                let r = sinew_softbody_create_lattice(w, &d, &mut b);
                self.add_body(wi, w, r, b);
                (r, Changes, "softbody_create_lattice")
            }
            14 => {
                const CUBE_TETS: [u32; 20] = [0, 1, 2, 4, 3, 1, 2, 7, 5, 1, 4, 7, 6, 2, 4, 7, 1, 2, 4, 7];
                let at = g.point(SinewVec3 { x: 0.0, y: 1.0, z: 0.0 }, 1.0);
                let side = g.mostly(0.1);
                let mut p: Vec<SinewVec3> = (0..8).map(|c| SinewVec3 { x: at.x + side * (c & 1) as f32, y: at.y + side * ((c >> 1) & 1) as f32, z: at.z + side * ((c >> 2) & 1) as f32 }).collect();
                if g.one_in(4) {
                    let k = g.below(8);
                    p[k] = g.vec3();
                }
                let mut t = CUBE_TETS.to_vec();
                for _ in 0..g.below(3) {
                    let k = g.below(20);
                    t[k] = g.indices(8, 1)[0];
                }
                let tc = if g.one_in(6) { g.below(21) } else { 20 };
                let pc = if g.one_in(8) { g.below(9) } else { 8 };
                let (m, s) = (Self::material(g), Self::soft(g));
                let mut b = SinewBody::default();
                let r = sinew_softbody_create_tets(w, p.as_ptr(), pc, t.as_ptr(), tc, &m, &s, &mut b);
                self.add_body(wi, w, r, b);
                (r, Changes, "softbody_create_tets")
            }
            15 => {
                const CUBE_TRIS: [u32; 36] = [0, 4, 6, 0, 6, 2, 1, 3, 7, 1, 7, 5, 0, 1, 5, 0, 5, 4, 2, 6, 7, 2, 7, 3, 0, 2, 3, 0, 3, 1, 4, 5, 7, 4, 7, 6];
                let at = g.point(SinewVec3 { x: 0.0, y: 1.0, z: 0.0 }, 1.0);
                let side = g.mostly(0.2);
                let mut p: Vec<SinewVec3> = (0..8).map(|c| SinewVec3 { x: at.x + side * (c & 1) as f32, y: at.y + side * ((c >> 1) & 1) as f32, z: at.z + side * ((c >> 2) & 1) as f32 }).collect();
                if g.one_in(5) {
                    let k = g.below(8);
                    p[k] = g.vec3();
                }
                let mut t = CUBE_TRIS;
                if g.one_in(4) {
                    let k = g.below(36);
                    t[k] = g.indices(8, 1)[0];
                }
                let mut d = default_of(sinew_soft_mesh_desc_default);
                d.positions = p.as_ptr();
                d.vertex_count = 8;
                d.indices = t.as_ptr();
                d.index_count = if g.one_in(6) { g.below(37) } else { 36 };
                d.resolution = g.below(4) as u32;
                d.cluster_cells = g.below(3) as u32;
                d.material = Self::material(g);
                d.soft = Self::soft(g);
                let mut b = SinewBody::default();
                let r = sinew_softbody_create_from_mesh(w, &d, &mut b);
                self.add_body(wi, w, r, b);
                (r, Changes, "softbody_create_from_mesh")
            }
            17 => {
                let mut d = default_of(sinew_collider_desc_default);
                d.shape = g.below(7) as u32;
                d.radius = g.mostly(0.3);
                d.half_height = g.mostly(0.3);
                d.radius0 = g.mostly(0.2);
                d.radius1 = g.mostly(0.1);
                d.half_extents = SinewVec3 { x: g.mostly(0.5), y: g.mostly(0.1), z: g.mostly(0.5) };
                d.transform = g.mat();
                g.scramble(&mut d, 2);
                let mut c = SinewCollider::default();
                let r = sinew_collider_create(w, &d, &mut c);
                if r == SINEW_OK {
                    self.live_of(w).colliders.push(c);
                }
                (r, Changes, "collider_create")
            }
            18 => {
                let nv = g.below(10);
                let pos: Vec<SinewVec3> = (0..nv).map(|_| if g.one_in(6) { g.vec3() } else { SinewVec3 { x: g.below(5) as f32 * 0.3 - 0.6, y: g.below(3) as f32 * 0.1, z: g.below(5) as f32 * 0.3 - 0.6 } }).collect();
                let k = g.below(8) * 3 + g.below(4) / 3;
                let tri = g.indices(nv, k);
                let mut d = default_of(sinew_collider_mesh_desc_default);
                d.vertices = if g.one_in(10) { std::ptr::null() } else { pos.as_ptr() };
                d.vertex_count = if d.vertices.is_null() { g.count(10) } else { pos.len() };
                d.indices = if g.one_in(10) { std::ptr::null() } else { tri.as_ptr() };
                d.index_count = if d.indices.is_null() { g.count(10) } else if g.one_in(6) { g.below(tri.len() + 1) } else { tri.len() };
                d.skip_degenerate = g.below(3) as u32;
                d.layers = g.field_word();
                d.transform = g.mat();
                if g.one_in(4) {
                    d.share = self.collider(g, wi);
                }
                let mut c = SinewCollider::default();
                let r = sinew_collider_create_mesh(w, &d, &mut c);
                if r == SINEW_OK {
                    self.live_of(w).colliders.push(c);
                }
                (r, Changes, "collider_create_mesh")
            }
            19 | 20 => {
                // Ragdolls: a chain of bones with fields of any value, or the humanoid.
                let settings = {
                    let mut s = default_of(sinew_ragdoll_settings_default);
                    s.kinematic = g.below(3) as u32;
                    g.scramble(&mut s, 2);
                    s
                };
                let mut rd = SinewRagdoll::default();
                let r = if op == 19 {
                    let n = g.below(7);
                    let top = g.point(SinewVec3 { x: 0.0, y: 2.0, z: 0.0 }, 1.0);
                    let bones: Vec<SinewBoneDesc> = (0..n)
                        .map(|i| {
                            let mut b = default_of(sinew_bone_desc_default);
                            b.parent = i as i32 - 1;
                            b.position = SinewVec3 { x: top.x, y: top.y - 0.3 * i as f32, z: top.z };
                            b.shape_offset = SinewVec3 { x: 0.0, y: -0.15, z: 0.0 };
                            b.joint.kind = if i == 0 { 0 } else { 1 + g.below(3) as u32 };
                            if g.one_in(3) {
                                g.scramble(&mut b, 3);
                            }
                            b
                        })
                        .collect();
                    let count = if g.one_in(10) { g.count(8).min(bones.len()) } else { bones.len() };
                    sinew_ragdoll_create(w, &settings, if g.one_in(16) { std::ptr::null() } else { bones.as_ptr() }, count, &mut rd)
                } else {
                    let mut hb = default_of(sinew_humanoid_bones_default);
                    if g.one_in(2) {
                        g.scramble(&mut hb, 3);
                    }
                    sinew_ragdoll_create_humanoid(w, &hb, &settings, &mut rd)
                };
                if r == SINEW_OK {
                    self.live_of(w).ragdolls.push(rd);
                }
                (r, Changes, "ragdoll_create")
            }
            21 => {
                // Character helpers: skinning, bone matrices, tethers, max distances.
                let b = self.body(g, wi);
                let mut nv = 0usize;
                let _ = sinew_body_get_vertex_count(b, &mut nv);
                let nv = nv.min(512);
                let bones = 1 + g.below(4);
                let weights: Vec<SinewBoneWeight> = (0..nv)
                    .map(|_| {
                        let mut wt = SinewBoneWeight { weight0: 1.0, bone0: g.below(bones) as i32, ..Default::default() };
                        if g.one_in(8) {
                            g.scramble(&mut wt, 2);
                        }
                        wt
                    })
                    .collect();
                let mats: Vec<SinewMat4> = (0..bones).map(|_| g.mat()).collect();
                let wc = if g.one_in(6) { g.below(nv + 1) } else { nv };
                let mc = if g.one_in(3) { 0 } else { g.below(bones + 1) };
                (sinew_body_set_skinning(b, weights.as_ptr(), wc, mats.as_ptr(), mc, if g.one_in(6) { g.word() } else { bones as u32 }), Changes, "body_set_skinning")
            }
            _ => self.object_op(g, op, wi, w),
        }
    }

    fn world_op(&mut self, g: &mut Gen, op: u8) -> (SinewResult, Kind, &'static str) {
        if op == 0 {
            if self.worlds.len() >= MAX_WORLDS {
                let w = self.worlds.remove(g.below(self.worlds.len()));
                if w.busy {
                    // Destroying a stepping world must be refused or wait; either way, end it.
                    let r = sinew_world_destroy(w.handle);
                    check(r, "world_destroy while stepping");
                    if r == SINEW_OK {
                        self.retire(w);
                        return (r, Kind::Changes, "world_destroy (busy)");
                    }
                    assert_eq!(sinew_world_step_end(w.handle), SINEW_OK, "{}", crate::input::last_error());
                }
                check_normals(&w.live);
                let r = sinew_world_destroy(w.handle);
                assert_eq!(r, SINEW_OK, "world_destroy: {}", crate::input::last_error());
                self.retire(w);
                return (r, Kind::Changes, "world_destroy (budget)");
            }
            let mut d = default_of(sinew_world_desc_default);
            if g.one_in(3) {
                g.scramble(&mut d, 3);
            }
            // One worker thread (one core per fuzzer), two in one world of 32 so that the
            // split steps stay covered; the fewest substeps and steps per frame (valid counts
            // only cost time, refused ones stay).
            let threads = if g.one_in(32) { 2 } else { 1 };
            crate::input::cheap_world(&mut d, threads);
            let mut w = SinewWorld::default();
            let r = sinew_world_create(if g.one_in(20) { std::ptr::null() } else { &d }, &mut w);
            if r == SINEW_OK {
                self.worlds.push(World { handle: w, live: Live::default(), busy: false, threads });
            }
            return (r, Kind::Changes, "world_create");
        }
        // Destroy: a live world (its objects become stale), a stale one or a made-up one.
        match g.byte() % 4 {
            0 if !self.stale_worlds.is_empty() => (sinew_world_destroy(self.stale_worlds[g.below(self.stale_worlds.len())]), Kind::Changes, "world_destroy (stale)"),
            1 => (sinew_world_destroy(SinewWorld { id: g.word() as u64 }), Kind::Changes, "world_destroy (made up)"),
            _ => {
                let i = g.below(self.worlds.len());
                if !self.worlds[i].busy {
                    check_normals(&self.worlds[i].live);
                }
                let r = sinew_world_destroy(self.worlds[i].handle);
                if r == SINEW_OK {
                    let w = self.worlds.remove(i);
                    self.retire(w);
                }
                (r, Kind::Changes, "world_destroy")
            }
        }
    }

    fn retire(&mut self, w: World) {
        self.stale_worlds.push(w.handle);
        self.stale_bodies.extend(w.live.bodies);
        self.stale_colliders.extend(w.live.colliders);
        self.stale_ragdolls.extend(w.live.ragdolls);
    }

    fn object_op(&mut self, g: &mut Gen, op: u8, wi: usize, _w: SinewWorld) -> (SinewResult, Kind, &'static str) {
        use Kind::*;
        let b = self.body(g, wi);
        let mut nv = 0usize;
        let _ = sinew_body_get_vertex_count(b, &mut nv);
        let nv = nv.min(4096);
        match op {
            22 => {
                let r = sinew_body_destroy(b);
                if r == SINEW_OK {
                    for w in &mut self.worlds {
                        w.live.bodies.retain(|&x| x != b);
                    }
                    self.stale_bodies.push(b);
                }
                (r, Changes, "body_destroy")
            }
            23 => {
                let k = g.below(6);
                let idx = g.indices(nv, k);
                let null = g.one_in(12);
                let len = if null { g.count(4) } else { idx.len() };
                let p = if null { std::ptr::null() } else { idx.as_ptr() };
                if g.bool() { (sinew_body_pin(b, p, len), Changes, "body_pin") } else { (sinew_body_unpin(b, p, len), Changes, "body_unpin") }
            }
            24 => {
                let k = g.below(6);
                let idx = g.indices(nv, k);
                let pos: Vec<SinewVec3> = (0..idx.len()).map(|_| g.point(SinewVec3 { x: 0.0, y: 1.0, z: 0.0 }, 1.0)).collect();
                let pc = if g.one_in(5) { g.below(pos.len() + 1) } else { pos.len() };
                (sinew_body_set_pin_targets(b, idx.as_ptr(), idx.len(), pos.as_ptr(), pc), Changes, "body_set_pin_targets")
            }
            25 => {
                let m = g.mat();
                (sinew_body_teleport(b, if g.one_in(16) { std::ptr::null() } else { &m }), Changes, "body_teleport")
            }
            26 | 27 => {
                let alloc = g.below(nv + 8);
                let len = if g.one_in(4) { g.below(alloc + 1) } else { alloc };
                let mut buf = sentinel_vec3(alloc);
                let null = g.one_in(16);
                let p = if null { std::ptr::null_mut() } else { buf.as_mut_ptr() };
                let len = if null { g.count(8) } else { len };
                let (r, what) = if op == 26 { (sinew_body_read_positions(b, p, len), "body_read_positions") } else { (sinew_body_read_normals(b, p, len), "body_read_normals") };
                if r == SINEW_OK {
                    assert!(finite(&buf[..nv.min(alloc)]), "{what}: a non-finite value");
                } else {
                    assert!(untouched(&buf), "{what}: refused ({r:?}) but wrote into the buffer");
                }
                (r, Reads, what)
            }
            28 => {
                let alloc = g.below(nv * 6 + 8);
                let len = if g.one_in(4) { g.below(alloc + 1) } else { alloc };
                let mut buf = vec![SENTINEL; alloc];
                let (r, what) = if g.bool() { (sinew_body_read_indices(b, buf.as_mut_ptr(), len), "body_read_indices") } else { (sinew_body_read_vertex_sources(b, buf.as_mut_ptr(), len), "body_read_vertex_sources") };
                if r != SINEW_OK {
                    assert!(buf.iter().all(|&x| x == SENTINEL), "{what}: refused ({r:?}) but wrote into the buffer");
                }
                (r, Reads, what)
            }
            29 => {
                let mut s = 0.0f32;
                let (mut lo, mut hi) = (SinewVec3::default(), SinewVec3::default());
                let mut info = SinewBodyInfo::default();
                match g.byte() % 3 {
                    0 => {
                        let r = sinew_body_get_max_stretch(b, &mut s);
                        if r == SINEW_OK {
                            assert!(s.is_finite(), "body_get_max_stretch: {s}");
                        }
                        (r, Reads, "body_get_max_stretch")
                    }
                    1 => (sinew_body_get_bounds(b, &mut lo, if g.one_in(8) { std::ptr::null_mut() } else { &mut hi }), Reads, "body_get_bounds"),
                    _ => (sinew_body_get_info(b, &mut info), Reads, "body_get_info"),
                }
            }
            30 => {
                let n = g.below(5);
                let mats: Vec<SinewMat4> = (0..n).map(|_| g.mat()).collect();
                (sinew_body_set_bone_matrices(b, mats.as_ptr(), n), Changes, "body_set_bone_matrices")
            }
            31 => (sinew_body_reset_pose(b), Changes, "body_reset_pose"),
            32 => {
                let d: Vec<f32> = (0..nv).map(|_| g.mostly(0.1)).collect();
                let c = if g.one_in(5) { g.below(nv + 1) } else { nv };
                (sinew_body_set_max_distances(b, d.as_ptr(), c), Changes, "body_set_max_distances")
            }
            33 => {
                let o: Vec<f32> = (0..nv).map(|_| g.mostly(0.0)).collect();
                let rr: Vec<f32> = (0..nv).map(|_| g.mostly(0.5)).collect();
                let (a, c) = (if g.one_in(5) { g.below(nv + 1) } else { nv }, if g.one_in(5) { g.below(nv + 1) } else { nv });
                (sinew_body_set_backstops(b, o.as_ptr(), a, rr.as_ptr(), c), Changes, "body_set_backstops")
            }
            34 => (sinew_body_set_tethers(b, g.below(5) as u32, g.mostly(1.0)), Changes, "body_set_tethers"),
            35 => {
                let mut d = default_of(sinew_dynamics_default);
                d.tear_threshold = if g.one_in(3) { g.range(0.0, 3.0) } else { d.tear_threshold };
                g.scramble(&mut d, 3);
                (sinew_body_set_dynamics(b, &d), Changes, "body_set_dynamics")
            }
            36 => {
                let m = g.mat();
                (sinew_body_set_root_transform(b, &m), Changes, "body_set_root_transform")
            }
            37 => {
                let mut d = default_of(sinew_lod_default);
                d.reduce_distance = g.range(0.0, 20.0);
                d.freeze_distance = g.range(0.0, 40.0);
                d.reduced_substeps = g.below(5) as u32;
                d.freeze_when_invisible = g.below(2) as u32;
                g.scramble(&mut d, 2);
                (sinew_body_set_lod(b, &d), Changes, "body_set_lod")
            }
            38 => (sinew_body_set_visible(b, g.below(3) as u32), Changes, "body_set_visible"),
            39 => {
                let m = Self::material(g);
                (sinew_body_set_material(b, if g.one_in(16) { std::ptr::null() } else { &m }), Changes, "body_set_material")
            }
            40 => {
                let other = self.body(g, wi);
                (sinew_body_set_collision_pair(b, other, g.below(3) as u32), Changes, "body_set_collision_pair")
            }
            41 => {
                let rd = self.ragdoll(g, wi);
                let k = g.below(5);
                let verts = g.indices(nv, k);
                let bones = g.indices(11, k);
                let offs: Vec<SinewVec3> = (0..k).map(|_| g.point(SinewVec3::default(), 0.1)).collect();
                if g.bool() {
                    let oc = if g.one_in(4) { g.below(k + 1) } else { k };
                    (sinew_body_attach_to_ragdoll(b, rd, verts.as_ptr(), k, bones.as_ptr(), if g.one_in(5) { g.below(k + 1) } else { k }, offs.as_ptr(), oc), Changes, "body_attach_to_ragdoll")
                } else {
                    (sinew_body_set_ragdoll_collision(b, rd, g.below(3) as u32), Changes, "body_set_ragdoll_collision")
                }
            }
            42 => {
                let s = Self::soft(g);
                (sinew_softbody_set_settings(b, &s), Changes, "softbody_set_settings")
            }
            43 => {
                let (mut v, mut rv) = (0.0f32, 0.0f32);
                let mut c = SinewVec3::default();
                if g.bool() {
                    let r = sinew_softbody_get_volume(b, &mut v, &mut rv);
                    if r == SINEW_OK {
                        assert!(v.is_finite() && rv.is_finite(), "softbody_get_volume: {v} {rv}");
                    }
                    (r, Reads, "softbody_get_volume")
                } else {
                    (sinew_body_get_center_of_mass(b, &mut c), Reads, "body_get_center_of_mass")
                }
            }
            44 | 45 => {
                let c = self.collider(g, wi);
                match g.byte() % 5 {
                    0 => {
                        let r = sinew_collider_destroy(c);
                        if r == SINEW_OK {
                            for w in &mut self.worlds {
                                w.live.colliders.retain(|&x| x != c);
                            }
                            self.stale_colliders.push(c);
                        }
                        (r, Changes, "collider_destroy")
                    }
                    1 => {
                        let m = g.mat();
                        (sinew_collider_set_transform(c, &m), Changes, "collider_set_transform")
                    }
                    2 => {
                        let m = g.mat();
                        (sinew_collider_teleport(c, &m), Changes, "collider_teleport")
                    }
                    3 => (sinew_collider_set_layers(c, g.field_word()), Changes, "collider_set_layers"),
                    _ => (sinew_collider_get_mesh_info(c, &mut SinewColliderMeshInfo::default()), Reads, "collider_get_mesh_info"),
                }
            }
            _ => self.ragdoll_op(g, op, wi),
        }
    }

    fn ragdoll_op(&mut self, g: &mut Gen, op: u8, wi: usize) -> (SinewResult, Kind, &'static str) {
        use Kind::*;
        let rd = self.ragdoll(g, wi);
        let mut nb = 0usize;
        let _ = sinew_ragdoll_get_bone_count(rd, &mut nb);
        let bone = if g.one_in(6) { g.word() } else { g.below(nb + 1) as u32 };
        match op {
            46 => {
                let r = sinew_ragdoll_destroy(rd);
                if r == SINEW_OK {
                    for w in &mut self.worlds {
                        w.live.ragdolls.retain(|&x| x != rd);
                    }
                    self.stale_ragdolls.push(rd);
                }
                (r, Changes, "ragdoll_destroy")
            }
            47 => match g.byte() % 3 {
                0 => (sinew_ragdoll_set_kinematic(rd, g.below(3) as u32), Changes, "ragdoll_set_kinematic"),
                1 => (sinew_ragdoll_set_bone_kinematic(rd, bone, g.below(3) as u32), Changes, "ragdoll_set_bone_kinematic"),
                _ => (sinew_ragdoll_is_bone_kinematic(rd, bone, &mut 0), Reads, "ragdoll_is_bone_kinematic"),
            },
            48 | 49 => {
                let k = if g.one_in(5) { g.below(nb + 2) } else { nb };
                let pos: Vec<SinewVec3> = (0..k).map(|i| g.point(SinewVec3 { x: 0.0, y: 2.0 - 0.3 * i as f32, z: 0.0 }, 0.2)).collect();
                let rot: Vec<SinewQuat> = (0..k).map(|_| g.quat()).collect();
                let rc = if g.one_in(5) { g.below(k + 1) } else { k };
                match g.byte() % 3 {
                    0 => (sinew_ragdoll_set_targets(rd, pos.as_ptr(), k, rot.as_ptr(), rc), Changes, "ragdoll_set_targets"),
                    1 => {
                        let mats: Vec<SinewMat4> = (0..k).map(|_| g.mat()).collect();
                        (sinew_ragdoll_set_target_matrices(rd, mats.as_ptr(), k), Changes, "ragdoll_set_target_matrices")
                    }
                    _ => (sinew_ragdoll_set_pose(rd, pos.as_ptr(), k, rot.as_ptr(), rc, g.below(3) as u32), Changes, "ragdoll_set_pose"),
                }
            }
            50 => {
                let (p, i) = (g.point(SinewVec3 { x: 0.0, y: 1.5, z: 0.0 }, 1.0), SinewVec3 { x: g.mostly(5.0), y: g.mostly(0.0), z: g.mostly(0.0) });
                match g.byte() % 4 {
                    0 => (sinew_ragdoll_apply_impulse(rd, p, i, &mut 0), Changes, "ragdoll_apply_impulse"),
                    1 => (sinew_ragdoll_apply_bone_impulse(rd, bone, p, i), Changes, "ragdoll_apply_bone_impulse"),
                    2 => (sinew_ragdoll_apply_explosion(rd, p, g.mostly(20.0), g.mostly(2.0)), Changes, "ragdoll_apply_explosion"),
                    _ => (sinew_ragdoll_add_force(rd, bone, p, i), Changes, "ragdoll_add_force"),
                }
            }
            51 => {
                let alloc = g.below(nb + 3);
                let len = if g.one_in(4) { g.below(alloc + 1) } else { alloc };
                let mut pos = sentinel_vec3(alloc);
                let mut ang = sentinel_vec3(alloc);
                let mut rot = vec![SinewQuat { x: 0.0, y: 0.0, z: 0.0, w: 1.0 }; alloc];
                let mut mats = vec![SinewMat4 { m: [0.0; 16] }; alloc];
                let (r, what) = match g.byte() % 3 {
                    0 => (sinew_ragdoll_read_pose(rd, pos.as_mut_ptr(), len, rot.as_mut_ptr(), if g.one_in(4) { g.below(alloc + 1) } else { len }), "ragdoll_read_pose"),
                    1 => (sinew_ragdoll_read_velocities(rd, pos.as_mut_ptr(), len, ang.as_mut_ptr(), len), "ragdoll_read_velocities"),
                    _ => {
                        let r = sinew_ragdoll_read_matrices(rd, mats.as_mut_ptr(), len);
                        if r == SINEW_OK {
                            assert!(mats[..nb.min(alloc)].iter().all(|m| m.m.iter().all(|v| v.is_finite())), "ragdoll_read_matrices: a non-finite entry");
                        }
                        (r, "ragdoll_read_matrices")
                    }
                };
                if what == "ragdoll_read_matrices" {
                    if r != SINEW_OK {
                        assert!(mats.iter().all(|m| m.m.iter().all(|v| v.to_bits() == 0)), "{what}: refused ({r:?}) but wrote into the buffer");
                    }
                } else if r == SINEW_OK {
                    let written: Vec<SinewVec3> = ang.iter().filter(|p| p.x.to_bits() != SENTINEL).copied().collect();
                    assert!(finite(&pos[..nb.min(alloc)]) && finite(&written), "{what}: a non-finite value");
                } else {
                    assert!(untouched(&pos), "{what}: refused ({r:?}) but wrote into the buffer");
                }
                (r, Reads, what)
            }
            52 => match g.byte() % 6 {
                0 => (sinew_ragdoll_is_asleep(rd, &mut 0), Reads, "ragdoll_is_asleep"),
                1 => (sinew_ragdoll_wake(rd), Changes, "ragdoll_wake"),
                2 => (sinew_ragdoll_get_bone_count(rd, &mut 0), Reads, "ragdoll_get_bone_count"),
                3 => (sinew_ragdoll_set_direct_joint_solve(rd, g.below(3) as u32), Changes, "ragdoll_set_direct_joint_solve"),
                4 => (sinew_ragdoll_get_direct_joint_solve(rd, &mut 0), Reads, "ragdoll_get_direct_joint_solve"),
                _ => (sinew_ragdoll_set_bone_pair_collision(rd, bone, g.below(nb + 1) as u32, g.below(3) as u32), Changes, "ragdoll_set_bone_pair_collision"),
            },
            53 | 54 => {
                let v = if g.one_in(3) { g.float() } else { g.range(0.0, 1.0) };
                match g.byte() % 6 {
                    0 => (sinew_ragdoll_set_muscle_strength(rd, bone, v), Changes, "ragdoll_set_muscle_strength"),
                    1 => (sinew_ragdoll_set_muscle_strength_all(rd, v), Changes, "ragdoll_set_muscle_strength_all"),
                    2 => (sinew_ragdoll_set_pin_weight(rd, bone, v), Changes, "ragdoll_set_pin_weight"),
                    3 => (sinew_ragdoll_set_pin_weight_all(rd, v), Changes, "ragdoll_set_pin_weight_all"),
                    4 => (sinew_ragdoll_get_drive_state(rd, bone, &mut SinewDriveState::default()), Reads, "ragdoll_get_drive_state"),
                    _ => (sinew_ragdoll_take_events(rd, &mut 0), Changes, "ragdoll_take_events"),
                }
            }
            55 | 56 => {
                let k = if g.one_in(5) { g.below(nb + 2) } else { nb };
                let pos: Vec<SinewVec3> = (0..k).map(|i| g.point(SinewVec3 { x: 0.0, y: 1.0 - 0.2 * i as f32, z: 0.0 }, 0.3)).collect();
                let rot: Vec<SinewQuat> = (0..k).map(|_| g.quat()).collect();
                let alpha = if g.one_in(3) { g.float() } else { g.range(0.0, 1.0) };
                let cap = if g.one_in(4) { g.below(k + 1) } else { k };
                let mut out_p = sentinel_vec3(k);
                let mut out_q = vec![SinewQuat { x: 0.0, y: 0.0, z: 0.0, w: 1.0 }; k];
                let (r, kind, what) = match g.byte() % 4 {
                    0 => (sinew_ragdoll_capture_snapshot(rd), Changes, "ragdoll_capture_snapshot"),
                    1 => (sinew_ragdoll_read_snapshot(rd, out_p.as_mut_ptr(), cap, out_q.as_mut_ptr(), if g.one_in(4) { g.below(k + 1) } else { cap }), Reads, "ragdoll_read_snapshot"),
                    2 => (sinew_ragdoll_blend_from_snapshot(rd, pos.as_ptr(), k, rot.as_ptr(), if g.one_in(4) { g.below(k + 1) } else { k }, alpha, out_p.as_mut_ptr(), cap, out_q.as_mut_ptr(), cap), Reads, "ragdoll_blend_from_snapshot"),
                    _ => {
                        let from: Vec<SinewVec3> = (0..k).map(|_| g.point(SinewVec3::default(), 1.0)).collect();
                        (sinew_pose_blend(from.as_ptr(), rot.as_ptr(), pos.as_ptr(), rot.as_ptr(), k, alpha, out_p.as_mut_ptr(), out_q.as_mut_ptr(), cap), Reads, "pose_blend")
                    }
                };
                if r == SINEW_OK && what != "ragdoll_capture_snapshot" {
                    let written: Vec<SinewVec3> = out_p.iter().filter(|p| p.x.to_bits() != SENTINEL).copied().collect();
                    assert!(finite(&written), "{what}: a non-finite value");
                    assert!(out_q.iter().all(|q| q.x.is_finite() && q.y.is_finite() && q.z.is_finite() && q.w.is_finite()), "{what}: a non-finite rotation");
                } else if r != SINEW_OK {
                    assert!(untouched(&out_p), "{what}: refused ({r:?}) but wrote into the buffer");
                }
                (r, kind, what)
            }
            57 => match g.byte() % 4 {
                0 => {
                    let mut a = 0.0f32;
                    let r = sinew_blend_alpha(g.float(), g.float(), &mut a);
                    if r == SINEW_OK {
                        assert!((0.0..=1.0).contains(&a), "sinew_blend_alpha gave {a}");
                    }
                    (r, Reads, "blend_alpha")
                }
                1 => {
                    let mut q = default_of(sinew_get_up_query_default);
                    match g.byte() % 4 {
                        0 => q.head = g.below(nb + 2) as u32,
                        1 => q.up = g.vec3(),
                        2 => q.bind_forward = g.vec3(),
                        _ => {}
                    }
                    let mut info = std::mem::MaybeUninit::<SinewGetUpInfo>::uninit();
                    (sinew_ragdoll_get_up_info(rd, &q, info.as_mut_ptr()), Reads, "ragdoll_get_up_info")
                }
                2 => (sinew_ragdoll_get_rest_time(rd, &mut 0.0), Reads, "ragdoll_get_rest_time"),
                _ => (sinew_ragdoll_is_at_rest(rd, g.float(), &mut 0), Reads, "ragdoll_is_at_rest"),
            },
            // The rest of the byte range: steps, so that most sequences move something.
            _ => (sinew_world_step(self.worlds[wi].handle, 1.0 / 60.0), Changes, "world_step"),
        }
    }
}
