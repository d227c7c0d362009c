//! The world: owns every body, advances them at a fixed internal rate.
//!
//! Time: the host passes its frame `dt`. The world runs whole fixed steps of
//! `h = 1/fixed_rate_hz` until simulated time has caught up with host time (it may run up to
//! one step ahead), then readback interpolates between the last two fixed states by
//! `alpha = 1 − ahead/h`. So a 1/144 s or a 1/30 s host frame gives the motion of 1/60 s
//! steps, and a frame exactly one step long shows the newest state (`alpha = 1`).
//!
//! Each fixed step runs `substeps` substeps of `iterations` constraint passes each, over all
//! bodies in parallel (rayon). Bodies share nothing mutable, so the result is bit-identical
//! for any thread count.

pub mod arena;

use std::collections::HashMap;
use std::sync::{Arc, Mutex, Weak};
use std::thread::JoinHandle;

use rayon::prelude::*;

use crate::particles::{Body, ColliderFrame, StepContext, StepParams, Topology};
use crate::wind::Wind;
use crate::collider::Collider;
use crate::solver::contact::{self, particle::HashScratch, triangle::TriContact};
use crate::cloth::{self, GridKey, GridSpec, MeshSpec};
use crate::error::{Error, Result, check_finite, check_non_negative};
use crate::world::arena::{Arena, MAX_SLOTS};
use crate::math::{Vec3, is_finite3};
use crate::rope::{self, RopeSpec};
use crate::solver::constraints::distance_simd::Kernel;

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WorldSettings {
    /// m/s².
    pub gravity: Vec3,
    /// Internal step rate (Hz), independent of the host's frame rate.
    pub fixed_rate_hz: f32,
    /// Substeps per fixed step.
    pub substeps: u32,
    /// Constraint passes per substep.
    pub iterations: u32,
    /// Worker threads; 0 picks the machine's core count.
    pub thread_count: u32,
    /// At most this many fixed steps per host frame; the rest of a long frame is dropped
    /// (slow motion instead of a spiral of death).
    pub max_steps_per_frame: u32,
    /// Interpolate readback between fixed steps.
    pub interpolate: bool,
    /// Kernel for independent constraint batches; every kernel gives the same bits.
    pub kernel: Kernel,
}

impl Default for WorldSettings {
    fn default() -> Self {
        WorldSettings {
            gravity: Vec3::new(0.0, -9.81, 0.0),
            fixed_rate_hz: 60.0,
            // Small steps: at equal cost, substeps converge better than iterations.
            substeps: 8,
            iterations: 1,
            thread_count: 0,
            max_steps_per_frame: 4,
            interpolate: true,
            kernel: Kernel::detect(),
        }
    }
}

impl WorldSettings {
    pub fn validate(&self) -> Result<()> {
        if !is_finite3(self.gravity) {
            return Err(Error::non_finite("gravity is not finite"));
        }
        check_finite(self.fixed_rate_hz, "fixed_rate_hz")?;
        if !(1.0..=10_000.0).contains(&self.fixed_rate_hz) {
            return Err(Error::invalid(format!("fixed_rate_hz must be within [1, 10000] (got {})", self.fixed_rate_hz)));
        }
        if !(1..=64).contains(&self.substeps) {
            return Err(Error::invalid(format!("substeps must be within [1, 64] (got {})", self.substeps)));
        }
        if !(1..=256).contains(&self.iterations) {
            return Err(Error::invalid(format!("iterations must be within [1, 256] (got {})", self.iterations)));
        }
        if self.thread_count > 256 {
            return Err(Error::invalid(format!("thread_count must be at most 256 (got {})", self.thread_count)));
        }
        if !(1..=1000).contains(&self.max_steps_per_frame) {
            return Err(Error::invalid(format!("max_steps_per_frame must be within [1, 1000] (got {})", self.max_steps_per_frame)));
        }
        if !self.kernel.supported() {
            return Err(Error::invalid(format!("this CPU cannot run the {:?} kernel", self.kernel)));
        }
        Ok(())
    }
}

/// Counters a host can show or test against.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct WorldStats {
    pub body_count: u32,
    pub particle_count: u32,
    pub constraint_count: u32,
    /// Fixed steps taken since creation.
    pub steps: u64,
    /// Fixed steps taken by the last `step` call.
    pub last_frame_steps: u32,
    /// Readback interpolation factor in [0, 1].
    pub alpha: f32,
}

/// A rayon pool whose threads are joined when it is dropped: a host may unload the plugin
/// right after destroying the last world.
pub struct WorkerPool {
    pool: Option<rayon::ThreadPool>,
    threads: Arc<Mutex<Vec<JoinHandle<()>>>>,
}

impl WorkerPool {
    pub fn new(thread_count: u32) -> Result<WorkerPool> {
        let n = if thread_count == 0 {
            std::thread::available_parallelism().map_or(1, |n| n.get())
        } else {
            thread_count as usize
        };
        let threads = Arc::new(Mutex::new(Vec::new()));
        let sink = threads.clone();
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .thread_name(|i| format!("sinew-worker-{i}"))
            .spawn_handler(move |t| {
                let handle = std::thread::Builder::new().name(t.name().unwrap_or("sinew-worker").to_owned()).spawn(move || t.run())?;
                sink.lock().unwrap_or_else(|e| e.into_inner()).push(handle);
                Ok(())
            })
            .build()
            .map_err(|e| Error::invalid(format!("could not start {n} worker threads: {e}")))?;
        Ok(WorkerPool { pool: Some(pool), threads })
    }

    pub fn thread_count(&self) -> usize {
        self.pool.as_ref().map_or(0, |p| p.current_num_threads())
    }

    /// Runs `f` inside the pool, so rayon calls in it use these threads.
    pub fn install<R: Send>(&self, f: impl FnOnce() -> R + Send) -> R {
        self.pool.as_ref().expect("pool alive until drop").install(f)
    }

    /// Runs `f` on a pool thread without waiting.
    pub fn spawn(&self, f: impl FnOnce() + Send + 'static) {
        self.pool.as_ref().expect("pool alive until drop").spawn(f)
    }
}

impl Drop for WorkerPool {
    fn drop(&mut self) {
        drop(self.pool.take());
        if rayon::current_thread_index().is_some() {
            return; // never join a pool from one of its own threads
        }
        let handles = std::mem::take(&mut *self.threads.lock().unwrap_or_else(|e| e.into_inner()));
        for h in handles {
            let _ = h.join();
        }
    }
}

pub struct World {
    pub settings: WorldSettings,
    pub bodies: Arena<Body>,
    /// Simulated time minus host time (s), in [0, h).
    ahead: f64,
    alpha: f32,
    steps: u64,
    last_frame_steps: u32,
    grid_cache: HashMap<GridKey, Weak<Topology>>,
    pub colliders: Arena<Collider>,
    /// The colliders as the current fixed step sees them (reused buffer).
    collider_frames: Vec<ColliderFrame>,
    /// Pairs of bodies (slot, serial) that collide with each other, sorted.
    body_pairs: Vec<[(usize, u32); 2]>,
    /// Candidate particle pairs per body pair for the current step (reused buffers).
    pair_contacts: Vec<Vec<[u32; 2]>>,
    /// Candidate particle–triangle contacts per body pair, both ways (reused buffers).
    tri_contacts: Vec<[Vec<TriContact>; 2]>,
    /// Scratch pairs for finding triangle candidates.
    tri_pairs: Vec<[u32; 2]>,
    pair_scratch: HashScratch,
    /// Slots of bodies in collision pairs (reused buffer).
    paired: Vec<usize>,
    /// Step bodies one after another on the calling thread (a one-thread world): no rayon,
    /// no thread hop, no allocation.
    pub sequential: bool,
    pub wind: Wind,
    /// Simulated time (s).
    pub time: f64,
    /// For LOD; `None` until the host sets it.
    pub camera: Option<Vec3>,
}

/// `&mut v[i]` and `&mut v[j]` at once (`i != j`).
fn two_mut<T>(v: &mut [T], i: usize, j: usize) -> (&mut T, &mut T) {
    assert_ne!(i, j);
    if i < j {
        let (a, b) = v.split_at_mut(j);
        (&mut a[i], &mut b[0])
    } else {
        let (a, b) = v.split_at_mut(i);
        (&mut b[0], &mut a[j])
    }
}

impl World {
    pub fn new(settings: WorldSettings) -> Result<World> {
        settings.validate()?;
        Ok(World {
            settings,
            bodies: Arena::new(MAX_SLOTS),
            ahead: 0.0,
            alpha: 1.0,
            steps: 0,
            last_frame_steps: 0,
            grid_cache: HashMap::new(),
            colliders: Arena::new(MAX_SLOTS),
            collider_frames: Vec::new(),
            body_pairs: Vec::new(),
            pair_contacts: Vec::new(),
            tri_contacts: Vec::new(),
            tri_pairs: Vec::new(),
            pair_scratch: HashScratch::default(),
            paired: Vec::new(),
            sequential: false,
            wind: Wind::default(),
            time: 0.0,
            camera: None,
        })
    }

    /// Fixed step length (s).
    pub fn h(&self) -> f64 {
        1.0 / self.settings.fixed_rate_hz as f64
    }

    /// Readback interpolation factor.
    pub fn alpha(&self) -> f32 {
        self.alpha
    }

    pub fn add_body(&mut self, body: Body) -> Result<(usize, u32)> {
        self.bodies
            .insert(body)
            .ok_or_else(|| Error::too_large(format!("a world holds at most {MAX_SLOTS} bodies")))
    }

    /// A grid cloth; grids of the same size and spacing share one cooked topology.
    pub fn create_grid(&mut self, spec: &GridSpec) -> Result<(usize, u32)> {
        spec.validate()?;
        let key = spec.key();
        let topo = match self.grid_cache.get(&key).and_then(Weak::upgrade) {
            Some(t) => t,
            None => {
                let t = Arc::new(cloth::grid_topology(spec.columns, spec.rows, spec.spacing)?);
                self.grid_cache.retain(|_, w| w.strong_count() > 0);
                self.grid_cache.insert(key, Arc::downgrade(&t));
                t
            }
        };
        let body = cloth::grid_body(spec, topo)?;
        self.add_body(body)
    }

    pub fn create_mesh(&mut self, spec: &MeshSpec) -> Result<(usize, u32)> {
        let body = cloth::mesh_body(spec)?;
        self.add_body(body)
    }

    pub fn create_rope(&mut self, spec: &RopeSpec) -> Result<(usize, u32)> {
        let body = rope::new_rope(spec)?;
        self.add_body(body)
    }

    pub fn create_strands(&mut self, spec: &crate::strands::StrandsSpec) -> Result<(usize, u32)> {
        let body = crate::strands::new_strands(spec)?;
        self.add_body(body)
    }

    pub fn create_cape(&mut self, spec: &cloth::generators::CapeSpec) -> Result<(usize, u32)> {
        let body = cloth::generators::cape(spec)?;
        self.add_body(body)
    }

    pub fn create_skirt(&mut self, spec: &cloth::generators::SkirtSpec) -> Result<(usize, u32)> {
        let body = cloth::generators::skirt(spec)?;
        self.add_body(body)
    }

    /// Removes a body and any collision pairs it was part of.
    pub fn remove_body(&mut self, slot: usize, serial: u32) -> Option<Body> {
        let body = self.bodies.remove(slot, serial)?;
        self.body_pairs.retain(|p| p[0] != (slot, serial) && p[1] != (slot, serial));
        Some(body)
    }

    /// Turns particle contact between two different bodies on or off.
    pub fn set_body_pair(&mut self, a: (usize, u32), b: (usize, u32), enabled: bool) -> Result<()> {
        if a == b {
            return Err(Error::invalid("a body paired with itself: use the material's self_collision instead"));
        }
        if self.bodies.get(a.0, a.1).is_none() || self.bodies.get(b.0, b.1).is_none() {
            return Err(Error::new(crate::error::ErrorKind::InvalidHandle, "body of the pair is not in this world"));
        }
        let pair = if a < b { [a, b] } else { [b, a] };
        match (self.body_pairs.binary_search(&pair), enabled) {
            (Err(at), true) => self.body_pairs.insert(at, pair),
            (Ok(at), false) => {
                self.body_pairs.remove(at);
            }
            _ => {}
        }
        Ok(())
    }

    pub fn add_collider(&mut self, c: Collider) -> Result<(usize, u32)> {
        self.colliders
            .insert(c)
            .ok_or_else(|| Error::too_large(format!("a world holds at most {MAX_SLOTS} colliders")))
    }

    /// Fills `collider_frames` with the colliders' poses over the fixed step `[t0, t1]` of the frame.
    fn prepare_colliders(&mut self, t0: f32, t1: f32) {
        self.collider_frames.clear();
        for c in self.colliders.values() {
            let (from, to) = (c.from.lerp(&c.to, t0), c.from.lerp(&c.to, t1));
            let step = Collider { shape: c.shape, layers: c.layers, from, to };
            self.collider_frames.push(ColliderFrame { shape: c.shape, layers: c.layers, from, to, bounds: step.swept_bounds() });
        }
    }

    /// One fixed step of every body: bodies on their own in parallel, then each group of
    /// bodies joined by collision pairs in lockstep, substep by substep.
    fn fixed_step(&mut self, params: &StepParams) {
        self.paired.clear();
        self.paired.extend(self.body_pairs.iter().flat_map(|p| [p[0].0, p[1].0]));
        self.paired.sort_unstable();
        self.paired.dedup();
        let paired = &self.paired;
        let ctx = StepContext { colliders: &self.collider_frames, wind: &self.wind };
        let step_one = |(slot, entry): (usize, &mut Option<(u32, Body)>)| {
            if let Some((_, body)) = entry
                && paired.binary_search(&slot).is_err()
                && !body.frozen
            {
                let own = body.lod_substeps.map_or(*params, |n| params.with_substeps(n));
                body.step(&own, &ctx);
            }
        };
        if self.sequential {
            self.bodies.slots_mut().iter_mut().enumerate().for_each(step_one);
        } else {
            self.bodies.slots_mut().par_iter_mut().enumerate().for_each(step_one);
        }
        if self.body_pairs.is_empty() {
            return;
        }
        let group = &self.paired;
        let slots = self.bodies.slots_mut();
        fn body(slots: &mut [Option<(u32, Body)>], i: usize) -> &mut Body {
            &mut slots[i].as_mut().expect("paired body alive").1
        }
        for &i in group {
            body(slots, i).begin_step(params, &ctx);
        }
        self.pair_contacts.resize_with(self.body_pairs.len(), Vec::new);
        self.tri_contacts.resize_with(self.body_pairs.len(), Default::default);
        for (k, pair) in self.body_pairs.iter().enumerate() {
            let (ea, eb) = two_mut(slots, pair[0].0, pair[1].0);
            let (a, b) = (&ea.as_ref().expect("alive").1, &eb.as_ref().expect("alive").1);
            let dist = a.material.thickness * a.scale + b.material.thickness * b.scale;
            let search = dist + a.step_margin + b.step_margin;
            contact::particle::find_pairs(&a.x, Some(&b.x), search, None, &mut self.pair_scratch, &mut self.pair_contacts[k]);
            // Particle against the other body's triangles: a particle over the middle of a
            // triangle is up to an edge's length from its nearest vertex.
            for (dir, (p, q)) in [(a, b), (b, a)].into_iter().enumerate() {
                let edge = q.topology.constraints.rest.iter().fold(0.0f32, |m, r| m.max(*r)) * q.scale;
                contact::particle::find_pairs(&p.x, Some(&q.x), search + edge, None, &mut self.pair_scratch, &mut self.tri_pairs);
                contact::triangle::triangle_candidates(&p.x, &q.x, &q.topology.triangles, &q.topology.adjacency, &self.tri_pairs, &mut self.tri_contacts[k][dir]);
            }
        }
        for s in 0..params.substeps {
            for &i in group {
                body(slots, i).predict(params, s);
            }
            for (k, pair) in self.body_pairs.iter().enumerate() {
                let (ea, eb) = two_mut(slots, pair[0].0, pair[1].0);
                let (a, b) = (&mut ea.as_mut().expect("alive").1, &mut eb.as_mut().expect("alive").1);
                a.use_vec3_state();
                b.use_vec3_state();
                let dist = a.material.thickness * a.scale + b.material.thickness * b.scale;
                contact::particle::resolve_between(&mut a.x, &a.w, &mut b.x, &b.w, &self.pair_contacts[k], dist);
                let [ab, ba] = &self.tri_contacts[k];
                contact::triangle::resolve_triangles(&mut a.x, &a.w, &mut b.x, &b.w, &b.topology.triangles, ab, dist);
                contact::triangle::resolve_triangles(&mut b.x, &b.w, &mut a.x, &a.w, &a.topology.triangles, ba, dist);
            }
            for &i in group {
                body(slots, i).finish_substep(params, s, ctx.colliders);
            }
        }
        for &i in group {
            body(slots, i).end_step(params);
        }
    }

    /// Advances host time by `dt` seconds. Must be called inside the world's pool (or any
    /// rayon context) for parallelism; the result does not depend on the thread count.
    pub fn step(&mut self, dt: f32) -> Result<()> {
        check_non_negative(dt, "dt")?;
        let h = self.h();
        // Tolerance: a host frame within 0.1% of a whole number of steps counts as whole.
        let tol = 1e-3 * h;
        self.ahead -= dt as f64;
        let mut k = 0u32;
        while self.ahead < -tol {
            if k == self.settings.max_steps_per_frame {
                self.ahead = 0.0;
                break;
            }
            self.ahead += h;
            k += 1;
        }
        if self.ahead.abs() <= tol {
            self.ahead = 0.0;
        }
        if k > 0 {
            self.update_lod();
            let frame_time = (k as f64 * h) as f32;
            let begin = |entry: &mut Option<(u32, Body)>| {
                if let Some((_, body)) = entry {
                    body.begin_frame(frame_time);
                    if body.frozen {
                        body.hold_frozen();
                    }
                }
            };
            if self.sequential {
                self.bodies.slots_mut().iter_mut().for_each(begin);
            } else {
                self.bodies.slots_mut().par_iter_mut().for_each(begin);
            }
        }
        for i in 0..k {
            let s = &self.settings;
            let params = StepParams {
                h: (h / s.substeps as f64) as f32,
                substeps: s.substeps,
                iterations: s.iterations,
                gravity: s.gravity,
                pin_t0: i as f32 / k as f32,
                pin_t1: (i + 1) as f32 / k as f32,
                time: self.time as f32,
                kernel: s.kernel,
                parallel: !self.sequential,
            };
            self.prepare_colliders(params.pin_t0, params.pin_t1);
            self.fixed_step(&params);
            self.time += h;
        }
        if k > 0 {
            self.bodies.values_mut().for_each(Body::finish_frame);
            self.colliders.values_mut().for_each(|c| c.from = c.to);
        }
        self.steps += k as u64;
        self.last_frame_steps = k;
        self.alpha = if self.settings.interpolate { (1.0 - self.ahead / h).clamp(0.0, 1.0) as f32 } else { 1.0 };
        Ok(())
    }

    /// Chooses each body's level of detail from the camera distance and its visibility.
    fn update_lod(&mut self) {
        let camera = self.camera;
        let pairs = &self.body_pairs;
        for (slot, entry) in self.bodies.slots_mut().iter_mut().enumerate() {
            let Some((_, body)) = entry else { continue };
            // Bodies paired for contact step together at the world's rate: no LOD for them.
            if pairs.iter().any(|p| p[0].0 == slot || p[1].0 == slot) {
                body.frozen = false;
                body.lod_substeps = None;
                continue;
            }
            let lod = body.lod;
            // Measured where the body will be this frame: a root that moves (or teleports)
            // takes the body along before the steps.
            let shift = body.root.map_or(Vec3::ZERO, |r| r.to.position - r.from.position);
            let distance = camera.map_or(0.0, |c| {
                let (lo, hi) = body.bounds();
                (c.clamp(lo + shift, hi + shift) - c).length()
            });
            let freeze = (!body.visible && lod.freeze_when_invisible) || (lod.freeze_distance > 0.0 && distance >= lod.freeze_distance);
            body.frozen = freeze;
            body.lod_substeps = if lod.reduce_distance > 0.0 && distance >= lod.reduce_distance { Some(lod.reduced_substeps) } else { None };
        }
    }

    pub fn stats(&self) -> WorldStats {
        let mut st = WorldStats { steps: self.steps, last_frame_steps: self.last_frame_steps, alpha: self.alpha, ..Default::default() };
        for b in self.bodies.values() {
            st.body_count += 1;
            st.particle_count += b.particle_count() as u32;
            st.constraint_count += b.topology.constraints.len() as u32;
        }
        st
    }
}
