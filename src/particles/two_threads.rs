//! A large grid body's fixed step on two threads: the stages of [`SUBSTEP`] with every pass
//! cut into two bands of rows, one per thread (`solver::layout::bands`).
//!
//! The passes of a substep come from [`SUBSTEP`]: consecutive stages that work particle by
//! particle (prediction, collider contacts, velocities) fuse into one banded pass, and the
//! constraint stage becomes `iterations × runs` grid runs, each cut into two chunks. A pass
//! waits only for the passes before it that touch the same rows (dependencies computed once
//! per grid and iteration count). Before the first substep each band moves its state to
//! structure of arrays, after the last it moves it back. The same operations as the
//! one-thread step, so the same bits. `Plan::TwoThreads` is chosen (`stages.rs`) only when
//! every active stage has such a version: no tethers, no skinning, no self-collision, no
//! contact pairs, colliders that are spheres which do not turn.

use super::Body;
use super::stages::{Stage, StepContext, StepParams, SUBSTEP};

/// One banded pass of a substep.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Pass {
    /// Particle-by-particle stages on the band's rows: prediction, and/or collider contacts
    /// and velocities.
    Local { predict: bool, finish: bool },
    /// Run `run` of the grid's constraint runs, in iteration `iteration`.
    Run { iteration: u32, run: usize },
}

impl Body {
    /// The passes of one substep on two threads, from [`SUBSTEP`], into `band_passes`.
    fn band_passes(&mut self, iterations: u32, runs: usize) {
        self.band_passes.clear();
        for stage in SUBSTEP {
            match stage {
                Stage::Predict | Stage::Colliders | Stage::Velocities => {
                    let predict = stage == Stage::Predict;
                    match self.band_passes.last_mut() {
                        Some(Pass::Local { predict: p, finish: f }) => {
                            *p |= predict;
                            *f |= !predict;
                        }
                        _ => self.band_passes.push(Pass::Local { predict, finish: !predict }),
                    }
                }
                Stage::Constraints => {
                    for iteration in 0..iterations {
                        self.band_passes.extend((0..runs).map(|run| Pass::Run { iteration, run }));
                    }
                }
                // The plan excludes bodies with contact pairs or self-collision.
                Stage::PairContacts | Stage::SelfContacts => {}
            }
        }
    }

    /// The whole fixed step on two threads (after `begin_step`, before `end_step`).
    pub(crate) fn step_in_two(&mut self, p: &StepParams, ctx: &StepContext) {
        #[cfg(not(target_arch = "x86_64"))]
        unreachable!("the two-thread plan needs the grid kernel: {p:?} {}", ctx.colliders.len());
        #[cfg(target_arch = "x86_64")]
        {
            use crate::solver::constraints::grid_simd;
            use crate::solver::layout::{bands, soa};
            use crate::solver::xpbd;

            // (An `Arc` clone, not the layout: no allocation per step.)
            let topology = self.topology.clone();
            let layout = topology.grid_kernel(p.kernel).expect("the two-thread plan is for grid bodies");
            let n = self.x.len();
            let isa = grid_simd::GridIsa::best();
            let (rows, cols, runs) = (layout.rows as usize, layout.columns as usize, layout.runs.len());
            self.band_passes(p.iterations, runs);
            let period = self.band_passes.len();
            let cut = |b: usize| (b * rows).div_ceil(2);
            let band_rows = |b: usize| (cut(b), cut(b + 1) - 1);
            let passes = &self.band_passes;
            let touched = |q: usize, b: usize| match passes[q] {
                Pass::Local { .. } => Some(band_rows(b)),
                Pass::Run { run, .. } => layout.runs[run].touched(rows, b, 2),
            };
            // The dependencies depend only on the grid and the number of iterations; and
            // whether a pass reaches into the other band's rows.
            if self.band_back.len() != period {
                self.band_back.resize(period, [None; 2]);
                let rows_of: Vec<[Option<(usize, usize)>; 2]> = (0..period).map(|q| [touched(q, 0), touched(q, 1)]).collect();
                bands::dependencies(|q, b| rows_of[q][b], &mut self.band_back);
                self.band_reach.clear();
                // Band 0 holds rows below `cut(1)`, band 1 the rest.
                self.band_reach.extend(rows_of.iter().map(|t| [t[0].is_some_and(|(_, hi)| hi >= cut(1)), t[1].is_some_and(|(lo, _)| lo < cut(1))]));
            }
            // The state moves to structure of arrays band by band, as the first pass, and back
            // as the last (see `solver::layout::soa`).
            self.soa.prepare(n);
            let (state, xs) = (self.soa.ptr(), self.soa.x.ptr());
            let vec3 = soa::Vec3State { x: soa::Vec3Ptr::new(&mut self.x), prev: soa::Vec3Ptr::new(&mut self.x_prev), v: soa::Vec3Ptr::new(&mut self.v), w: self.w.as_ptr() };
            let lambda = grid_simd::Multipliers::new(&mut self.lambda);
            let alpha_tilde = self.compliances().map(|c| xpbd::scaled_compliance(c, p.h));
            let gravity = p.gravity * self.material.gravity_scale;
            let contact = self.contact_params();
            let base = self.speed_limit_base();
            let (k, back, reach, passes) = (&self.topology.constraints, &self.band_back, &self.band_reach, &self.band_passes);
            let steps = 2 + p.substeps as usize * period;
            let task = |step: usize, b: usize| {
                let particles = cut(b) * cols..cut(b + 1) * cols;
                if step == 0 || step == steps - 1 {
                    // SAFETY: this band's particles, touched by nothing else meanwhile (the
                    // other band's passes that reach into them wait for this one, or this
                    // one waits for them); the arrays outlive the step.
                    unsafe {
                        if step == 0 {
                            state.take(particles, &vec3);
                        } else {
                            state.give(particles, &vec3);
                        }
                    }
                    return;
                }
                let (s, q) = ((step - 1) / period, (step - 1) % period);
                match passes[q] {
                    Pass::Local { predict, finish } => {
                        // SAFETY: the particles of this band's rows, which nothing else touches
                        // until this pass is done (`solver::layout::bands`); the state outlives
                        // the step.
                        let mut band = unsafe { state.band(particles) };
                        if predict {
                            let t = p.pin_time(s as u32);
                            band.integrate(gravity, &self.accel, self.material.damping, p.h);
                            band.drive_pins(&self.pins.index, &self.pins.start, &self.pins.end, t);
                        }
                        if finish {
                            let (t0, t1) = p.substep_span(s as u32);
                            for &c in &self.candidates {
                                let c = &ctx.colliders[c as usize];
                                let shape = c.shape().expect("the two-thread plan takes spheres only (`choose_plan`)");
                                band.collide(shape, &c.from.lerp(&c.to, t0), &c.from.lerp(&c.to, t1), &contact);
                            }
                            band.update_velocity(p.h);
                            if self.dynamics.max_speed > 0.0 {
                                band.limit_velocity(base, self.dynamics.max_speed);
                            }
                        }
                    }
                    Pass::Run { iteration, run } => {
                        let batch = k.batches[run];
                        // SAFETY: AVX checked by the plan; `k` is this untorn grid's own
                        // constraints; chunk `b` of this run touches only what `touched`
                        // says, and runs after everything that touches the same rows before it.
                        unsafe {
                            grid_simd::solve_run_chunk(isa, layout, layout.runs[run], xs, k, batch.start as usize..batch.end as usize, lambda.get(), &alpha_tilde, self.scale, iteration == 0, b, 2)
                        };
                    }
                }
            };
            // Steps: take, the substeps' passes, give. A pass whose latest dependency would
            // come before the first substep depends on the other band's take instead, when it
            // reaches into that band's rows; the give waits for everything of the other band.
            let depends = |step: usize, b: usize| {
                if step == 0 {
                    return None;
                }
                if step == steps - 1 {
                    return Some(1);
                }
                let inner = step - 1;
                match back[inner % period][b] {
                    Some(d) if inner >= d => Some(d),
                    _ if reach[inner % period][b] => Some(step),
                    _ => None,
                }
            };
            bands::run_in_two(steps, depends, task);
            // Given back by the last pass.
            self.soa.home = false;
        }
    }
}
