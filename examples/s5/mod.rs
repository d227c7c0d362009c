//! Scenes S5 and S5-PILE (docs/benchmarks.md): 16 jelly cubes, each an 8 × 8 × 8 lattice
//! soft body 5 cm apart, dropped onto a plane — in a 4 × 4 grid 0.8 m apart (S5), or stacked
//! four high in four columns so that they fall onto each other (S5-PILE).
//!
//! One world at 60 Hz with its default substeps and iterations, the plane y = 0 as a collider,
//! the jellies as [`jelly`] describes them. Per scene and thread count it runs 60 warm-up
//! steps and `steps` timed ones (each step timed alone; the measurements below are taken
//! between steps, outside the timing) and prints one line:
//!
//! - `us_per_step`: the median of the timed steps (µs), `us_min`/`us_max` the fastest and
//!   slowest; `ns_per_particle_substep` the median over particles × substeps;
//! - `volume_err`: the worst `|V/V0 − 1|` of any cube over the last 60 steps (all the timed
//!   steps when there are fewer), V the volume its tetrahedra enclose;
//! - `penetration_mm`: the deepest any particle's sphere went below the plane over the whole
//!   run, warm-up included: the largest `thickness − y` (mm), 0 if none ever did;
//! - S5-PILE only, `winding_max`: the largest winding number of any particle of a cube about
//!   the closed surface of a cube it is paired with, over every step of the run (0 outside, 1
//!   deep inside; a particle counts only inside the other's bounding box, outside it the
//!   number is 0); and `winding_over_half`: how many (particle, step) pairs exceeded 0.5;
//! - `drift_m`: the largest horizontal distance (m) of a cube's centre of mass after the last
//!   step from where it started (a cube dropped flat onto a plane should land where it was;
//!   a stacked one should stay on its column);
//! - `us_max_step`: the step (counted from the drop, 0 the first) that took `us_max`;
//! - `asleep`: cubes asleep after the last step.

use std::time::Instant;

use sinew::collider::Collider;
use sinew::geometry::{Pose, Shape};
use sinew::math::{Quat, Vec3};
use sinew::particles::Material;
use sinew::softbody::{LatticeSpec, SoftSettings};
use sinew::world::{WorkerPool, World, WorldSettings};

pub const DT: f32 = 1.0 / 60.0;
pub const WARM_UP_STEPS: usize = 60;
/// Lattice points per axis, their spacing (m): a cube 0.35 m on a side.
pub const N: u32 = 8;
pub const SPACING: f32 = 0.05;
/// The grid: 4 × 4 cubes 0.8 m apart (centre to centre), centred on the origin.
pub const GRID: usize = 4;
pub const GRID_SPACING: f32 = 0.8;
/// Every cube's lowest particle starts this high (m) in S5, and the lowest cube of each
/// column in S5-PILE.
pub const DROP_HEIGHT: f32 = 1.0;
/// S5-PILE: 4 columns (a 2 × 2 grid 0.8 m apart) of 4 cubes each, their lowest particles
/// 0.5 m apart (a 0.15 m gap), cube k of a column turned k · 15° about the vertical and its
/// centre moved by (0.04, 0, 0.03) m when k is odd.
pub const PILE_COLUMNS: usize = 2;
pub const PILE_HEIGHT: usize = 4;
pub const PILE_STEP: f32 = 0.5;
pub const PILE_TURN_DEG: f32 = 15.0;
pub const PILE_OFFSET: Vec3 = Vec3::new(0.04, 0.0, 0.03);

/// The jelly: 2 g per particle (1.024 kg a cube), stretch and shear compliance 1e-4 m/N, every
/// tetrahedron's volume rigid (volume compliance 0), one global shape-matching cluster of
/// stiffness 0.3 per 1/60 s, damping 0.1 /s, particle radius (thickness) 0.01 m, friction
/// 0.5 static / 0.4 kinetic, distance constraints to all 26 neighbours.
pub fn jelly(origin: Vec3, orientation: Quat) -> LatticeSpec {
    LatticeSpec {
        nx: N,
        ny: N,
        nz: N,
        spacing: SPACING,
        origin,
        orientation,
        all_neighbours: true,
        cluster_cells: 0,
        material: Material {
            particle_mass: 0.002,
            stretch_compliance: 1e-4,
            shear_compliance: 1e-4,
            bend_compliance: 0.0,
            damping: 0.1,
            thickness: 0.01,
            ..Material::default()
        },
        soft: SoftSettings { volume_compliance: 0.0, shape_stiffness: 0.3, ..SoftSettings::default() },
    }
}

/// Half the cube's edge (m): the lattice's centre to its faces' particles.
fn half_edge() -> f32 {
    (N - 1) as f32 * SPACING / 2.0
}

/// Every cube of a scene (centre, orientation) and the pairs of cube indices that collide
/// with each other (none in S5; every two cubes of a column in S5-PILE).
pub fn layout(pile: bool) -> (Vec<(Vec3, Quat)>, Vec<(usize, usize)>) {
    let y0 = DROP_HEIGHT + half_edge();
    let mut cubes = Vec::new();
    let mut pairs = Vec::new();
    if !pile {
        for row in 0..GRID {
            for col in 0..GRID {
                let x = (col as f32 - (GRID - 1) as f32 / 2.0) * GRID_SPACING;
                let z = (row as f32 - (GRID - 1) as f32 / 2.0) * GRID_SPACING;
                cubes.push((Vec3::new(x, y0, z), Quat::IDENTITY));
            }
        }
    } else {
        for row in 0..PILE_COLUMNS {
            for col in 0..PILE_COLUMNS {
                let x = (col as f32 - (PILE_COLUMNS - 1) as f32 / 2.0) * GRID_SPACING;
                let z = (row as f32 - (PILE_COLUMNS - 1) as f32 / 2.0) * GRID_SPACING;
                let first = cubes.len();
                for k in 0..PILE_HEIGHT {
                    let offset = if k % 2 == 1 { PILE_OFFSET } else { Vec3::ZERO };
                    let turn = Quat::from_rotation_y((k as f32 * PILE_TURN_DEG).to_radians());
                    // A turn about the vertical keeps the lowest particle's height.
                    cubes.push((Vec3::new(x, y0 + k as f32 * PILE_STEP, z) + offset, turn));
                }
                for a in first..cubes.len() {
                    for b in a + 1..cubes.len() {
                        pairs.push((a, b));
                    }
                }
            }
        }
    }
    (cubes, pairs)
}

/// Winding number of the closed surface `tris` over `x` about `p` (Van Oosterom and
/// Strackee's solid angle per triangle over 4π): 1 inside, 0 outside.
pub fn winding(p: Vec3, x: &[Vec3], tris: &[[u32; 3]]) -> f32 {
    let mut total = 0.0f32;
    for t in tris {
        let [a, b, c] = t.map(|i| x[i as usize] - p);
        let (la, lb, lc) = (a.length(), b.length(), c.length());
        let num = a.dot(b.cross(c));
        let den = la * lb * lc + a.dot(b) * lc + b.dot(c) * la + c.dot(a) * lb;
        total += 2.0 * num.atan2(den);
    }
    total / (4.0 * std::f32::consts::PI)
}

pub struct Row {
    pub scene: &'static str,
    pub threads: u32,
    pub us_per_step: f64,
    pub us_min: f64,
    pub us_max: f64,
    pub ns_per_particle_substep: f64,
    pub volume_err: f32,
    pub penetration_mm: f32,
    /// S5-PILE: the largest winding number, and the (particle, step) samples above 0.5.
    pub winding: Option<(f32, usize)>,
    pub particles: usize,
    pub bodies: usize,
    pub pairs: usize,
    pub substeps: u32,
    pub iterations: u32,
    pub asleep: usize,
    pub steps: usize,
    pub drift_m: f32,
    pub us_max_step: usize,
}

impl Row {
    pub fn print(&self) {
        let w = match self.winding {
            Some((k, n)) => format!(" winding_max={k:.3} winding_over_half={n}"),
            None => String::new(),
        };
        println!(
            "scene={} solver=sinew threads={} us_per_step={:.1} substeps={} ns_per_particle_substep={:.2} volume_err={:.5} penetration_mm={:.3}{w} us_min={:.1} us_max={:.1} us_max_step={} drift_m={:.3} particles={} bodies={} pairs={} effort={}x{} asleep={} steps={}",
            self.scene, self.threads, self.us_per_step, self.substeps, self.ns_per_particle_substep, self.volume_err, self.penetration_mm, self.us_min, self.us_max, self.us_max_step, self.drift_m, self.particles, self.bodies, self.pairs, self.substeps, self.iterations, self.asleep, self.steps
        );
    }
}

/// World settings of S5: the defaults (60 Hz, default substeps and iterations), readback not
/// interpolated; the threads come from the `WorkerPool` the steps run in.
pub fn settings() -> WorldSettings {
    WorldSettings { fixed_rate_hz: 60.0, interpolate: false, ..WorldSettings::default() }
}

/// Builds the scene: the world, its cubes, the pairs (as cube indices).
pub fn build(pile: bool) -> (World, Vec<(usize, u32)>, Vec<(usize, usize)>) {
    let mut world = World::new(settings()).expect("valid world settings");
    let ground = Pose { rotation: Quat::IDENTITY, position: Vec3::ZERO, scale: 1.0 };
    world.add_collider(Collider::new(Shape::Plane, u32::MAX, ground).expect("plane")).expect("collider");
    let (cubes, pairs) = layout(pile);
    let ids: Vec<(usize, u32)> = cubes.iter().map(|&(c, q)| world.create_soft_lattice(&jelly(c, q)).expect("valid jelly")).collect();
    for &(a, b) in &pairs {
        world.set_body_pair(ids[a], ids[b], true).expect("pair");
    }
    (world, ids, pairs)
}

fn run_one(pile: bool, threads: u32, steps: usize) -> Row {
    let (mut world, ids, pairs) = build(pile);
    let thickness = jelly(Vec3::ZERO, Quat::IDENTITY).material.thickness;
    let pool = WorkerPool::new(threads).expect("worker pool");
    let total = WARM_UP_STEPS + steps;
    let mut times = Vec::with_capacity(steps);
    let (mut deepest, mut volume_err) = (0.0f32, 0.0f32);
    let (mut wind_max, mut wind_over) = (0.0f32, 0usize);
    let tris = world.bodies.get(ids[0].0, ids[0].1).expect("cube").topology().triangles.clone();
    let mut pos: Vec<Vec<Vec3>> = vec![Vec::new(); ids.len()];
    let start: Vec<Vec3> = ids.iter().map(|&(slot, serial)| world.bodies.get(slot, serial).expect("cube").center_of_mass()).collect();
    let (mut slowest, mut slowest_step) = (0.0f64, 0usize);
    pool.install(|| {
        for s in 0..total {
            let t = Instant::now();
            world.step(DT).expect("step");
            let us = t.elapsed().as_secs_f64() * 1e6;
            if s >= WARM_UP_STEPS {
                times.push(us);
                if us > slowest {
                    (slowest, slowest_step) = (us, s);
                }
            }
            // Measurements, outside the timing.
            for (k, &(slot, serial)) in ids.iter().enumerate() {
                let body = world.bodies.get(slot, serial).expect("cube");
                let x = body.positions();
                deepest = x.iter().map(|p| thickness - p.y).fold(deepest, f32::max);
                if s + 60.min(steps) >= total {
                    let (v, v0) = body.soft_volume().expect("a soft body");
                    volume_err = volume_err.max((v / v0 - 1.0).abs());
                }
                pos[k].clear();
                pos[k].extend_from_slice(x);
            }
            for &(a, b) in &pairs {
                for (p, q) in [(a, b), (b, a)] {
                    let (lo, hi) = pos[q].iter().fold((Vec3::splat(f32::INFINITY), Vec3::splat(f32::NEG_INFINITY)), |(l, h), v| (l.min(*v), h.max(*v)));
                    for x in &pos[p] {
                        if x.cmpge(lo).all() && x.cmple(hi).all() {
                            let k = winding(*x, &pos[q], &tris);
                            wind_max = wind_max.max(k);
                            wind_over += (k > 0.5) as usize;
                        }
                    }
                }
            }
        }
    });
    assert_eq!(world.stats().steps as usize, total, "one fixed step per 1/60 s frame");
    let st = world.stats();
    let particles = st.particle_count as usize;
    let substeps = world.settings.substeps;
    let iterations = world.settings.iterations;
    let asleep = ids.iter().filter(|&&(slot, serial)| world.bodies.get(slot, serial).expect("cube").is_asleep()).count();
    let drift_m = ids
        .iter()
        .zip(&start)
        .map(|(&(slot, serial), c0)| ((world.bodies.get(slot, serial).expect("cube").center_of_mass() - *c0) * Vec3::new(1.0, 0.0, 1.0)).length())
        .fold(0.0f32, f32::max);
    let mut sorted = times.clone();
    sorted.sort_by(f64::total_cmp);
    let n = sorted.len();
    let median = if n % 2 == 1 { sorted[n / 2] } else { 0.5 * (sorted[n / 2 - 1] + sorted[n / 2]) };
    Row {
        scene: if pile { "S5-PILE" } else { "S5" },
        threads,
        us_per_step: median,
        us_min: sorted[0],
        us_max: sorted[n - 1],
        ns_per_particle_substep: median * 1000.0 / (particles as f64 * substeps as f64),
        volume_err,
        penetration_mm: deepest.max(0.0) * 1e3,
        winding: pile.then_some((wind_max, wind_over)),
        particles,
        bodies: ids.len(),
        pairs: pairs.len(),
        substeps,
        iterations,
        asleep,
        steps,
        drift_m,
        us_max_step: slowest_step,
    }
}

/// Runs S5 (`pile` false) or S5-PILE at every thread count and prints its lines.
pub fn run(pile: bool, threads: &[u32], steps: usize) -> Vec<Row> {
    if !pile {
        kernels();
    }
    threads
        .iter()
        .map(|&t| {
            let row = run_one(pile, t, steps);
            row.print();
            row
        })
        .collect()
}

/// A markdown table of the S5 lines.
pub fn table(rows: &[Row]) {
    if rows.is_empty() {
        return;
    }
    println!();
    println!("| scene | threads | µs/step (median) | min–max | ns per particle-substep | volume error (last 60) | penetration (mm) | winding max | drift (m) | asleep |");
    println!("|---|---|---|---|---|---|---|---|---|---|");
    for r in rows {
        let w = r.winding.map_or("—".to_string(), |(k, n)| format!("{k:.3} ({n} > 0.5)"));
        println!(
            "| {} | {} | {:.1} | {:.1}–{:.1} | {:.2} | {:.5} | {:.3} | {w} | {:.3} | {}/{} |",
            r.scene, r.threads, r.us_per_step, r.us_min, r.us_max, r.ns_per_particle_substep, r.volume_err, r.penetration_mm, r.drift_m, r.asleep, r.bodies
        );
    }
}

/// Times the soft body's own kernels on one S5 cube's cooked data (its rest lattice squeezed
/// by 10 % in y and shifted), best of 30 runs of 8 passes, one thread, and prints one line:
/// `volume_ns_per_tet` (the volume kernel the step uses: the scalar reference, in the cooked
/// order), `shape_match_ns_per_particle` (one pass of the global cluster).
pub fn kernels() {
    use sinew::solver::constraints::{shape_match, volume};
    let spec = jelly(Vec3::ZERO, Quat::IDENTITY);
    let (topology, shape) = sinew::softbody::lattice_topology(&spec).expect("cube");
    let x0: Vec<Vec3> = topology.rest.iter().map(|p| *p * Vec3::new(1.0, 0.9, 1.0) + Vec3::new(0.3, 1.0, -0.2)).collect();
    let w = vec![1.0 / spec.material.particle_mass; x0.len()];
    let tets = &shape.tets;
    let best = |f: &mut dyn FnMut(&mut Vec<Vec3>)| {
        (0..30)
            .map(|_| {
                let mut x = x0.clone();
                let t = Instant::now();
                f(&mut x);
                std::hint::black_box(&x);
                t.elapsed().as_secs_f64() * 1e9 / 8.0
            })
            .fold(f64::INFINITY, f64::min)
    };
    let mut lambda = vec![0.0f32; tets.len()];
    let scalar = best(&mut |x| (0..8).for_each(|_| volume::solve(x, &w, tets, &mut lambda, 0.0, 1.0)));
    let mut state = shape_match::ClusterState::new(shape.clusters.len());
    let params = shape_match::MatchParams { stiffness: 0.05, beta: 0.0, yield_strain: 0.1, creep: 0.0, max_strain: 0.5, dt: DT / 8.0, scale: 1.0 };
    let matching = best(&mut |x| (0..8).for_each(|_| shape_match::solve(x, &w, &shape.clusters, &mut state, &params)));
    println!(
        "scene=S5-kernels solver=sinew threads=1 volume_ns_per_tet={:.2} shape_match_ns_per_particle={:.2} tets={} particles={}",
        scalar / tets.len() as f64,
        matching / x0.len() as f64,
        tets.len(),
        x0.len()
    );
}
