//! The chapter's algorithm, kept as the yardstick Sinew is timed against.
//!
//! The chapter (docs/design.md, "The chapter"), sections 7 and 8, translated line for line
//! into plain Rust: the C++ Verlet rope ([`rope`]) and the C# `VerletCloth` ([`VerletCloth`]).
//! Verlet step `x' = x + (x − x_prev) + g·dt²`, then `iterations` passes over the constraint
//! list in build order, each constraint moved by the chapter's `moveA`/`moveB` pinned logic.
//! No SIMD, no batching, no tuning — and nothing added that would slow it down.
//!
//! Two changes, both required by docs/benchmarks.md's conventions and marked where they happen:
//! the grid lies flat in the XZ plane centred on its position (the chapter hangs it in XY
//! below the position), and `BuildConstraints` also adds shear and bend constraints, each
//! kind in a per-particle loop like the chapter's, after the chapter's own loop. The chapter
//! keeps three arrays (`pos`, `prevPos`, `pinned`); here one array of particle structs holds
//! the same three fields.
//!
//! Included by `benches/scenes.rs`, `examples/bench.rs` and `tests/chapter_reference.rs`
//! through `#[path]`, so each uses only part of it.
#![allow(dead_code)]
// Index loops on purpose: they are the chapter's `for (int i = 0; i < N; i++)`.
#![allow(clippy::needless_range_loop)]

use glam::Vec3;

/// Section 7: the Verlet rope, as the chapter's C++ program.
pub mod rope {
    pub const N: usize = 6; // number of particles in the rope
    pub const REST: f32 = 0.5; // rest length of each segment
    pub const GRAVITY: f32 = -9.8;
    pub const DT: f32 = 1.0 / 60.0;

    #[derive(Clone, Copy, Debug, Default)]
    pub struct Particle {
        pub x: f32,
        pub y: f32,
        pub px: f32, // previous position (this is what makes it Verlet)
        pub py: f32,
        pub pinned: bool,
    }

    pub fn init_rope() -> [Particle; N] {
        let mut rope = [Particle::default(); N];
        for i in 0..N {
            rope[i].x = i as f32 * REST;
            rope[i].y = 0.0;
            rope[i].px = rope[i].x; // starts at rest, implied velocity 0
            rope[i].py = rope[i].y;
            rope[i].pinned = i == 0; // pin only the first particle
        }
        rope
    }

    pub fn integrate(rope: &mut [Particle; N]) {
        for i in 0..N {
            let p = &mut rope[i];
            if p.pinned {
                continue;
            }
            let new_x = 2.0 * p.x - p.px; // no horizontal force
            let new_y = 2.0 * p.y - p.py + GRAVITY * DT * DT; // Verlet step from ch 2.5
            p.px = p.x;
            p.py = p.y;
            p.x = new_x;
            p.y = new_y;
        }
    }

    pub fn satisfy_constraint(a: &mut Particle, b: &mut Particle, rest: f32) {
        let (dx, dy) = (b.x - a.x, b.y - a.y);
        let dist = (dx * dx + dy * dy).sqrt();
        if dist < 1e-6 {
            return;
        }
        let diff = (dist - rest) / dist;
        let move_a = if a.pinned { 0.0 } else if b.pinned { 1.0 } else { 0.5 };
        let move_b = if b.pinned { 0.0 } else if a.pinned { 1.0 } else { 0.5 };
        a.x += dx * move_a * diff;
        a.y += dy * move_a * diff;
        b.x -= dx * move_b * diff;
        b.y -= dy * move_b * diff;
    }

    pub fn relax_constraints(rope: &mut [Particle; N], iterations: usize) {
        for _ in 0..iterations {
            for i in 0..N - 1 {
                let (head, tail) = rope.split_at_mut(i + 1);
                satisfy_constraint(&mut head[i], &mut tail[0], REST);
            }
        }
    }

    /// The chapter's `main`: returns the lines it prints.
    pub fn main() -> Vec<String> {
        let mut rope = init_rope();
        let mut out = Vec::new();
        for frame in 0..3 {
            integrate(&mut rope);
            relax_constraints(&mut rope, 5); // a handful of passes to settle every segment
            out.push(format!("frame {frame}: tip = ({:.4}, {:.4})", rope[N - 1].x, rope[N - 1].y));
        }
        out
    }
}

/// Section 8's particle: the chapter's `pos[i]`, `prevPos[i]`, `pinned[i]` side by side.
#[derive(Clone, Copy, Debug)]
pub struct Particle {
    pub pos: Vec3,
    pub prev_pos: Vec3,
    pub pinned: bool,
}

/// `struct Constraint { public int a, b; public float restLength; }` — 12 bytes, as in C#.
#[derive(Clone, Copy, Debug)]
pub struct Constraint {
    pub a: u32,
    pub b: u32,
    pub rest: f32,
}

/// Section 8's `VerletCloth`.
pub struct VerletCloth {
    pub cols: usize,
    pub rows: usize,
    pub spacing: f32,
    pub solver_iterations: usize,
    pub gravity: Vec3,
    pub particles: Vec<Particle>,
    pub constraints: Vec<Constraint>,
}

impl VerletCloth {
    /// `Start()`, with the transform's position passed in.
    pub fn new(position: Vec3, cols: usize, rows: usize, spacing: f32, solver_iterations: usize, gravity: Vec3) -> VerletCloth {
        let count = cols * rows;
        let mut particles = Vec::with_capacity(count);
        // docs/benchmarks.md: flat in XZ, centred on the position (the chapter: (x·s, −y·s, 0)
        // below it).
        let half = Vec3::new((cols - 1) as f32, 0.0, (rows - 1) as f32) * 0.5;
        for y in 0..rows {
            for x in 0..cols {
                let pos = position + (Vec3::new(x as f32, 0.0, y as f32) - half) * spacing;
                particles.push(Particle {
                    pos,
                    prev_pos: pos,    // starts at rest, implied velocity 0
                    pinned: y == 0, // pin the whole top row -- e.g. a cape's collar
                });
            }
        }
        let mut cloth = VerletCloth { cols, rows, spacing, solver_iterations, gravity, particles, constraints: Vec::new() };
        cloth.build_constraints();
        cloth
    }

    /// The chapter's loop (horizontal, vertical per particle), then shear and bend added in
    /// loops of the same style, one after the other. Interleaving all six kinds in the one
    /// loop was tried and left out: every constraint then touches the particle the previous
    /// one just moved, and the serial dependency makes the yardstick about 1.9× slower on S1
    /// — a slowdown the chapter's code does not have.
    fn build_constraints(&mut self) {
        let (cols, rows, spacing) = (self.cols, self.rows, self.spacing);
        let mut list = Vec::new();
        let c = |a: usize, b: usize, rest: f32| Constraint { a: a as u32, b: b as u32, rest };
        for y in 0..rows {
            for x in 0..cols {
                let i = y * cols + x;
                if x < cols - 1 {
                    list.push(c(i, i + 1, spacing)); // horizontal
                }
                if y < rows - 1 {
                    list.push(c(i, i + cols, spacing)); // vertical
                }
            }
        }
        // Added for docs/benchmarks.md's scenes. Shear, section 6: "one cell over in both axes".
        let diagonal = spacing * std::f32::consts::SQRT_2;
        for y in 0..rows {
            for x in 0..cols {
                let i = y * cols + x;
                if x < cols - 1 && y < rows - 1 {
                    list.push(c(i, i + cols + 1, diagonal)); // down-right
                }
                if x > 0 && y < rows - 1 {
                    list.push(c(i, i + cols - 1, diagonal)); // down-left
                }
            }
        }
        // Bend, section 6: "two cells over in a straight line".
        for y in 0..rows {
            for x in 0..cols {
                let i = y * cols + x;
                if x < cols - 2 {
                    list.push(c(i, i + 2, 2.0 * spacing)); // horizontal
                }
                if y < rows - 2 {
                    list.push(c(i, i + 2 * cols, 2.0 * spacing)); // vertical
                }
            }
        }
        self.constraints = list;
    }

    /// `Update()` with the frame time passed in.
    pub fn update(&mut self, delta_time: f32) {
        let dt = delta_time.min(1.0 / 30.0); // clamp -- same idea as ch 2.5's accumulator clamp
        self.integrate(dt);
        for _ in 0..self.solver_iterations {
            self.satisfy_constraints();
        }
    }

    fn integrate(&mut self, dt: f32) {
        for i in 0..self.particles.len() {
            if self.particles[i].pinned {
                continue;
            }
            let current = self.particles[i].pos;
            let velocity = current - self.particles[i].prev_pos; // implied velocity, Verlet-style
            let next = current + velocity + self.gravity * dt * dt;
            self.particles[i].prev_pos = current;
            self.particles[i].pos = next;
        }
    }

    fn satisfy_constraints(&mut self) {
        let pos = &mut self.particles;
        for c in &self.constraints {
            let (a, b) = (c.a as usize, c.b as usize);
            let delta = pos[b].pos - pos[a].pos;
            let dist = delta.length();
            if dist < 1e-6 {
                continue;
            }
            let diff = (dist - c.rest) / dist;
            let move_a = if pos[a].pinned { 0.0 } else if pos[b].pinned { 1.0 } else { 0.5 };
            let move_b = if pos[b].pinned { 0.0 } else if pos[a].pinned { 1.0 } else { 0.5 };
            pos[a].pos += delta * move_a * diff;
            pos[b].pos -= delta * move_b * diff;
        }
    }

    /// Largest `|length/rest − 1|` over the constraint list (as `Body::max_stretch`).
    pub fn max_stretch(&self) -> f32 {
        let mut worst = 0.0f32;
        for c in &self.constraints {
            if c.rest > 1e-6 {
                let len = (self.particles[c.b as usize].pos - self.particles[c.a as usize].pos).length();
                worst = worst.max((len / c.rest - 1.0).abs());
            }
        }
        worst
    }
}

/// The scenes of docs/benchmarks.md, as data both solvers build from.
pub mod scenes {
    use glam::{Mat4, Quat, Vec3};
    use sinew::particles::{Lod, Material};
    use sinew::cloth::{GridPins, GridSpec};
    use sinew::collider::Collider;
    use sinew::geometry::{Pose, Shape};
    use sinew::world::{World, WorldSettings};

    pub const GRAVITY: Vec3 = Vec3::new(0.0, -9.81, 0.0);
    pub const DT: f32 = 1.0 / 60.0;
    pub const WARM_UP_STEPS: usize = 60;
    pub const MEASURED_STEPS: usize = 300;

    #[derive(Clone, Debug)]
    pub struct Scene {
        pub name: &'static str,
        pub cols: usize,
        pub rows: usize,
        pub spacing: f32,
        /// Centre of each cloth (m).
        pub origins: Vec<Vec3>,
        /// Iteration budget per 1/60 s step.
        pub iterations: usize,
        /// Sinew's substeps × iterations that keep its stretch over the last 60 steps at or
        /// below NvCloth's on this scene (measured in the performance issue: S1 0.082, S2
        /// 0.011, S3 0.108 — docs/performance.md), chosen by sweeping the bench's `--split`.
        pub split: (u32, u32),
        /// A static sphere collider (centre, radius in m). The chapter has no collisions, so
        /// a scene with one runs in Sinew only.
        pub sphere: Option<(Vec3, f32)>,
        /// Level of detail by camera distance. The chapter has none, so a scene with it runs
        /// in Sinew only.
        pub lod: Option<LodSpec>,
        /// Self-collision on (Sinew only; the chapter has none).
        pub self_collision: bool,
    }

    /// Where the camera is, and the distances (m, from the camera to a cloth's bounds) beyond
    /// which a cloth runs `reduced_substeps` substeps per step, or freezes in its pose.
    #[derive(Clone, Copy, Debug)]
    pub struct LodSpec {
        pub camera: Vec3,
        pub reduce_distance: f32,
        pub reduced_substeps: u32,
        pub freeze_distance: f32,
    }

    /// S1: one 64×64 cloth, spacing 0.05 m, centred on the origin; 10 iterations.
    pub fn s1() -> Scene {
        Scene { name: "S1", cols: 64, rows: 64, spacing: 0.05, origins: vec![Vec3::ZERO], iterations: 10, split: (9, 1), sphere: None, lod: None, self_collision: false }
    }

    /// S3: S1 and a static sphere of radius 1 m at (0, −1.2, −0.9); 10 iterations.
    pub fn s3() -> Scene {
        Scene { name: "S3", sphere: Some((Vec3::new(0.0, -1.2, -0.9), 1.0)), split: (13, 1), ..s1() }
    }

    /// S1-self: S1 with self-collision on (particle radius 0.01 m), to price it.
    pub fn s1_self() -> Scene {
        Scene { name: "S1-self", self_collision: true, ..s1() }
    }

    /// S2: 64 cloths of 16×16, spacing 0.05 m, centres on an 8×8 grid 1.5 m apart in the XZ
    /// plane, centred on the origin (x, z ∈ {−5.25, −3.75, …, 5.25}); 8 iterations.
    pub fn s2() -> Scene {
        let mut origins = Vec::with_capacity(64);
        for j in 0..8 {
            for i in 0..8 {
                origins.push(Vec3::new((i as f32 - 3.5) * 1.5, 0.0, (j as f32 - 3.5) * 1.5));
            }
        }
        Scene { name: "S2", cols: 16, rows: 16, spacing: 0.05, origins, iterations: 8, split: (6, 2), sphere: None, lod: None, self_collision: false }
    }

    /// S2-LOD: S2 seen from a camera at a corner of the grid, (−6, 0, −6), level with the
    /// pins; a cloth runs 2 substeps (instead of 8) beyond 4 m and freezes beyond 9 m. Its
    /// yardstick is the chapter's S2: the same cloths, all simulated.
    pub fn s2_lod() -> Scene {
        let lod = LodSpec { camera: Vec3::new(-6.0, 0.0, -6.0), reduce_distance: 4.0, reduced_substeps: 2, freeze_distance: 9.0 };
        Scene { name: "S2-LOD", lod: Some(lod), ..s2() }
    }

    /// The scene in Sinew: K substeps × 1 iteration or any split, rigid, no damping; the worker
    /// threads come from the `WorkerPool` the steps run in.
    pub fn sinew_world(scene: &Scene, substeps: u32, iterations: u32) -> World {
        let settings = WorldSettings {
            gravity: GRAVITY,
            fixed_rate_hz: 60.0,
            substeps,
            iterations,
            interpolate: false,
            // Threads come from the WorkerPool the steps run in.
            ..WorldSettings::default()
        };
        let mut world = World::new(settings).expect("valid world settings");
        let material = Material {
            damping: 0.0,
            stretch_compliance: 0.0,
            shear_compliance: 0.0,
            bend_compliance: 0.0,
            self_collision: scene.self_collision,
            ..Material::default()
        };
        for &origin in &scene.origins {
            let spec = GridSpec {
                columns: scene.cols as u32,
                rows: scene.rows as u32,
                spacing: scene.spacing,
                origin,
                orientation: Quat::IDENTITY,
                pins: GridPins::TopRow,
                material,
            };
            let (slot, serial) = world.create_grid(&spec).expect("valid grid");
            if let Some(l) = scene.lod {
                let lod = Lod { reduce_distance: l.reduce_distance, reduced_substeps: l.reduced_substeps, freeze_distance: l.freeze_distance, ..Lod::default() };
                world.bodies.get_mut(slot, serial).expect("new grid").set_lod(lod).expect("valid LOD");
            }
        }
        if let Some(l) = scene.lod {
            world.camera = Some(l.camera);
        }
        if let Some((centre, radius)) = scene.sphere {
            let pose = Pose::from_matrix(&Mat4::from_translation(centre)).expect("valid pose");
            let sphere = Collider::new(Shape::Sphere { radius }, u32::MAX, pose).expect("valid sphere");
            world.add_collider(sphere).expect("collider");
        }
        world
    }

    /// The scene in the chapter's solver: one `VerletCloth` per cloth, updated in turn.
    pub fn chapter(scene: &Scene) -> Vec<super::VerletCloth> {
        assert!(scene.sphere.is_none(), "the chapter's solver has no colliders ({})", scene.name);
        assert!(scene.lod.is_none(), "the chapter's solver has no level of detail ({})", scene.name);
        assert!(!scene.self_collision, "the chapter's solver has no self-collision ({})", scene.name);
        scene
            .origins
            .iter()
            .map(|&o| super::VerletCloth::new(o, scene.cols, scene.rows, scene.spacing, scene.iterations, GRAVITY))
            .collect()
    }

    pub fn chapter_step(cloths: &mut [super::VerletCloth]) {
        for c in cloths.iter_mut() {
            c.update(DT);
        }
    }

    pub fn chapter_max_stretch(cloths: &[super::VerletCloth]) -> f32 {
        cloths.iter().map(super::VerletCloth::max_stretch).fold(0.0, f32::max)
    }
}
