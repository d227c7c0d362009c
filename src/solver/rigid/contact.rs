//! Contacts of rigid bodies: bone shapes against static or moving shapes (obstacles) and
//! against each other, solved by XPBD (Müller et al. 2020, §3.5 positions, §3.6 velocities).
//!
//! # The substep
//!
//! Per substep of length `h` the caller runs
//!
//! 1. the prediction `v ← v + h·g`, `x ← x + h·v`, `q ← q + ½h(ω,0)⊗q` (keeping the start
//!    in `prev_x`, `prev_q`);
//! 2. [`Contacts::collect`] — after the prediction, so that `x − prev_x` is the substep's
//!    motion and `v` the pre-solve velocity;
//! 3. joints and [`Contacts::solve_positions`];
//! 4. `v ← (x − prev_x)/h`, `ω ← 2·vec(q·prev_q⁻¹)/h`;
//! 5. [`Contacts::solve_velocities`].
//!
//! # Collection: speculative contacts at the start of the substep
//!
//! The narrow phase ([`super::contact_narrow`]) runs on the shapes at the **start** of the
//! substep (`prev_x`, `prev_q`; obstacles at fraction `t0` of their motion from `from` to
//! `to`), and reports every feature whose gap is below a margin
//!
//! `margin = skin + sweepₐ + sweep_b`, `sweep = |x − prev_x| + θ·(|offset| + R)`,
//!
//! where `θ` is the angle the body turns over the substep and `R` its shape's bounding
//! radius (for an obstacle: the motion of its pose between `t0` and `t1` at the body's
//! distance). The contact keeps its two points in the frames of their owners (the body
//! frame; for an obstacle the world points at `t0` and `t1`), its normal `n` (from B to A; an
//! obstacle's turned with it to `t1`) and the start gap `g₀`. Since the normal is taken
//! before the motion, a sphere crossing a 2 cm box at 50 m/s (10 cm per substep) meets the
//! face it is coming from, with a positive `g₀` that the motion makes negative — it stops on
//! the near side. (The classic speculative contact: a contact with a positive gap does
//! nothing until the motion closes it.)
//!
//! Body pairs: a sweep-and-prune over bounding spheres (centre, radius grown by the sweep)
//! along x, in a deterministic order (sorted by the interval's start, ties by index), then
//! `i < j`, `pair(i, j)`, the sphere test, and the narrow phase. Obstacles: the layer test
//! `layers & mask ≠ 0`, a sphere (plane: half-space) test, the narrow phase. A kinematic body
//! (`inv_mass = 0`) meets obstacles and other kinematic bodies not at all.
//!
//! # Once per step
//!
//! [`Contacts::collect_step`] runs the same narrow phase once per fixed step, on the shapes
//! where the bodies are at its start, with a margin that covers the whole step's motion
//! (`sweep(i)`: the caller's bound, `|v|·T + ½|g|T² + |ω|·T·reach` for a ragdoll's bone). The
//! contact keeps its anchors and normal for the step; [`Contacts::begin_substep`] then takes,
//! after each substep's prediction, the gap at the substep's start and the obstacle's points
//! at the substep's ends. A round shape's contact (sphere, capsule) is anchored at the point
//! of its core under the contact, with its radius ([`Contact::arm_a`]): the contact point is
//! the core point less the radius along `n`, whatever the shape turned since the step began.
//! Static friction measures the slip of the material point that was at the contact at the
//! substep's start. The positions and velocities below are the same.
//!
//! # Positions (paper §3.5)
//!
//! Per contact, with `pₐ = xₐ + qₐ·rₐ`, `p_b` likewise (an obstacle's point at `t1`), the gap
//! `g = (pₐ − p_b)·n` must reach the target `g* = min(0, g₀ + v_dep·h)`: zero for a contact
//! that starts apart or touching, and for one that starts overlapping a depenetration of at
//! most `v_dep·h` per substep (`v_dep` = [`Contacts::max_depenetration_speed`], 3 m/s by
//! default): bones spawned inside each other or inside a wall come out at a bounded speed
//! instead of exploding. With `c = g − g* < 0` the one Lagrange update with compliance 0
//! is `Δλₙ = −c/(w̃ₐ + w̃_b)`, `w̃ᵢ = 1/mᵢ + (rᵢ×n)ᵀIᵢ⁻¹(rᵢ×n)`, applied as the positional
//! impulse `Δλₙ·n` at `pₐ` (and `−Δλₙ·n` at `p_b`); `λₙ` sums over the substep's passes.
//!
//! A contact that a later correction has over-pushed gives part of its `λₙ` back (down to 0:
//! `Δλₙ = max(−c/w̃, −λₙ)`, projected Gauss–Seidel), so the load of a manifold is shared as
//! it should be and the friction bounds below use the right `λₙ`.
//!
//! Static friction, after all the normal corrections of the sweep (so each contact sees its
//! whole share of the load): the relative motion of the contact points over the substep
//! `Δp = (pₐ − p̄ₐ) − (p_b − p̄_b)` (`p̄` at the start of the substep: `prev_x + prev_q·r`, an
//! obstacle's point at `t0`), its tangential part `Δp_t = Δp − (Δp·n)n`, and the positional
//! impulse `−Δp_t/(w̃ₐ + w̃_b)` that removes it. The paper applies it only when `λ_t < μ·λₙ`;
//! with a manifold solved one point at a time that rule fails — each corner of a box
//! carries a quarter of the load but first sees the whole body's slip, so no corner ever
//! sticks. Here the accumulated tangential impulse `λ_t` (a vector) is instead projected
//! onto the cone `|λ_t| ≤ μ·λₙ`: within it the slip is removed entirely (the contact sticks,
//! no creep below the friction angle), beyond it the contact takes `μ·λₙ` of it — Coulomb's
//! kinetic friction at position level — and the velocity pass adds only what is left.
//!
//! The contacts are swept up to [`Contacts::position_iterations`] times per call (8 by
//! default), every other sweep backwards (symmetric Gauss–Seidel: the order of a manifold's
//! points does not bias it, so a box resting flat neither rocks nor drifts). The sweeps stop
//! early once one corrects no gap or slip by more than [`Contacts::position_tolerance`]
//! (1e-7 m by default) beyond the f32 rounding of the position it acts at (a few ulps of its
//! largest coordinate). Fewer fixed sweeps were measured against the laws in
//! `tests/rigid_contact.rs`: with 4 or 6 a box creeps down a slope below the friction angle,
//! a body at 50–200 m/s reaches into a 2 cm wall, and (with 4) the three-box stack fails; a
//! tolerance of 2e-6 m lets the slope creep and a resting box drift, 1e-6 m is on the edge
//! (the cape test of `tests/ragdoll_cloth.rs` squeezes its cloth 0.5 µm past its thickness).
//!
//! Each pass takes every body's world inverse inertia `R·diag(I⁻¹)·Rᵀ` once, at its start
//! (one matrix–vector product per use instead of two quaternion rotations); within the
//! position pass the corrections' turns are left out of it (they are of the order of the
//! substep's correction, and the velocity pass turns nothing).
//!
//! # Velocities (paper §3.6)
//!
//! For each contact active in the position pass (`λₙ > 0`), with `v` the relative velocity of
//! the contact points (an obstacle's point velocity is `(p_b(t1) − p_b(t0))/h`), `vₙ = n·v`,
//! `v_t = v − n vₙ`, and `ṽₙ` the normal velocity before the solve (stored at collection):
//!
//! - restitution: `vₙ ← −e·ṽₙ` for an approach (`ṽₙ < 0`), `vₙ ← 0` otherwise, with `e = 0`
//!   when `|ṽₙ| ≤ 2|g|h` (a body resting under gravity approaches by `|g|h` every substep,
//!   and must not bounce on it: no jitter). Applied as the impulse `(target − vₙ)/(w̃ₐ + w̃_b)`
//!   along n. It also takes away the velocity a depenetration gave (a bounded push, not a
//!   launch).
//! - dynamic friction: the accumulated friction impulse `P_t` (against `v_t`, the impulse
//!   `|v_t|/(w̃ₐ + w̃_b)` stops it) is kept within what Coulomb leaves after the position
//!   pass: `|P_t| ≤ μ·(λₙ/h + Pₙ) − |λ_t|/h`, with `λₙ/h + Pₙ` the contact's whole normal
//!   impulse over the substep (positions and velocities). The paper writes
//!   `Δv = −v̂_t·min(hμ|fₙ|, |v_t|)` with `fₙ = λₙ/h²`; as impulses the bound holds for any
//!   masses and lever arms. A box sliding on a slope accelerates at `g(sin θ − μ cos θ)`.
//!
//! Swept up to [`Contacts::velocity_iterations`] times (8 by default, alternating
//! direction), stopping once a sweep changes no contact's velocity by more than
//! [`Contacts::velocity_tolerance`] (1e-3 m/s): a capsule landing flat on its two end
//! contacts bounces without spin only when both reach their target together (two fixed
//! sweeps fail the restitution test).
//!
//! The material's one `friction` coefficient is both the static and the dynamic `μ`.
//!
//! # Kinematic bodies
//!
//! Bodies with `inv_mass = 0` and `inv_inertia = 0` have zero generalised inverse mass: the
//! updates move only the dynamic side, so a kinematic bone pushes a dynamic one and is not
//! pushed back. Its velocity (tracked by its owner) enters the relative velocity.
//!
//! # Static triangle meshes
//!
//! [`StaticMesh`] is the hook for level geometry: any type with a closest-point query (the
//! BVH of `geometry/trimesh.rs` when it lands) gives contacts through
//! [`Contacts::collect_mesh`], which samples each body shape's support points (a sphere's
//! centre, a capsule's two ends and middle, a box's eight vertices and its centre) and asks
//! the mesh for the closest surface point within radius + margin. Call it after `collect`;
//! the contacts join the same list and passes.
//!
//! Nothing allocates once the buffers have grown to the largest contact count seen.

use super::RigidBody;
use super::contact_narrow::{self, Feature, Placed};
use crate::geometry::{Pose, Shape};
use crate::math::{Mat3, Quat, Vec3};

/// A body's collision shape, placed in its body frame (centre-of-mass frame).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BodyShape {
    pub shape: Shape,
    pub local: Pose,
}

/// A shape the bodies collide with but do not move (a collider, a kinematic bone of another
/// object), with its pose at the start and end of the fixed step.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ObstacleShape {
    pub shape: Shape,
    pub layers: u32,
    pub from: Pose,
    pub to: Pose,
}

/// Material of the bodies' contacts.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ContactMaterial {
    pub friction: f32,
    pub restitution: f32,
    /// Rolling resistance (dimensionless): a contact resists the relative turn of its two
    /// sides with a torque of at most `rolling · Fₙ · ρ`, `ρ` the distance from body A's
    /// centre to the contact plane (a rolling sphere's radius). 0: none.
    pub rolling: f32,
}

/// Marks a contact whose other side is an obstacle (or a mesh), not a body.
pub const NO_BODY: u32 = u32::MAX;

/// One contact point; see the module docs for the meaning of each field.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Contact {
    /// Body A (the one pushed along `n`).
    pub a: u32,
    /// Body B, or [`NO_BODY`] for an obstacle.
    pub b: u32,
    /// Contact point on A in A's body frame.
    pub ra: Vec3,
    /// Contact point on B in B's body frame (bodies only).
    pub rb: Vec3,
    /// With contacts found once per step ([`Contacts::collect_step`]): the radius of a round
    /// shape (sphere, capsule) at the contact, A's and B's, whose `ra` / `rb` are then the
    /// point of its core (centre or axis) under the contact; 0 otherwise. See
    /// [`Contact::arm_a`].
    pub rad_a: f32,
    pub rad_b: f32,
    /// The obstacle's contact point (world) at the start and end of the substep.
    pub pb0: Vec3,
    pub pb1: Vec3,
    /// The same at the start and end of the span the contact was collected for (the substep,
    /// or with [`Contacts::collect_step`] the fixed step).
    pub pw0: Vec3,
    pub pw1: Vec3,
    /// Unit normal from B to A (world).
    pub n: Vec3,
    /// Gap at the start of the substep (m; < 0: overlap).
    pub gap0: f32,
    /// `n·(vₐ(pₐ) − v_b(p_b))` of the bodies at collection (an obstacle's motion is taken
    /// off in the velocity pass, where `h` is known).
    pub vn_bodies: f32,
    /// Normal multiplier and tangential positional impulse of the substep (kg·m).
    pub lambda_n: f32,
    pub lambda_t: Vec3,
    /// Normal impulse (N·s, along n) and friction impulse (N·s) of the velocity pass.
    pub impulse_n: f32,
    pub impulse_t: Vec3,
}

impl Contact {
    /// The contact point's offset from A's centre now: `q·ra`, or for a round shape found
    /// once per step its core point less its radius along `n` (the point of the surface that
    /// faces B whatever the shape has turned since: a sphere spinning on a contact keeps
    /// its contact under its centre, so a normal correction never turns it; a material point
    /// kept for the whole step would have carried the contact off round its surface, and
    /// the corrections at it spun spheres and capsules in a pile ever faster).
    #[inline]
    pub fn arm_a(&self, a: &RigidBody) -> Vec3 {
        if self.rad_a == 0.0 { a.q * self.ra } else { a.q * self.ra - self.n * self.rad_a }
    }

    /// B's, as [`Contact::arm_a`].
    #[inline]
    pub fn arm_b(&self, b: &RigidBody) -> Vec3 {
        if self.rad_b == 0.0 { b.q * self.rb } else { b.q * self.rb + self.n * self.rad_b }
    }

    /// How far A's material point at the contact moved over the substep (static friction's
    /// slip): for a round shape the surface point under the contact at the substep's start,
    /// carried by the body's turn since.
    #[inline]
    fn moved_a(&self, a: &RigidBody, arm: Vec3) -> Vec3 {
        if self.rad_a == 0.0 {
            a.x + arm - (a.prev_x + a.prev_q * self.ra)
        } else {
            let rim = self.n * self.rad_a;
            (a.x + a.q * self.ra - (a.q * a.prev_q.inverse()) * rim) - (a.prev_x + a.prev_q * self.ra - rim)
        }
    }

    /// B's, as [`Contact::moved_a`].
    #[inline]
    fn moved_b(&self, b: &RigidBody, arm: Vec3) -> Vec3 {
        if self.rad_b == 0.0 {
            b.x + arm - (b.prev_x + b.prev_q * self.rb)
        } else {
            let rim = -self.n * self.rad_b;
            (b.x + b.q * self.rb - (b.q * b.prev_q.inverse()) * rim) - (b.prev_x + b.prev_q * self.rb - rim)
        }
    }
}

/// A static surface the bodies collide with through a closest-point query (a triangle mesh's
/// BVH). See the module docs.
pub trait StaticMesh {
    /// The point of the surface closest to `p` if it is nearer than `max_distance`, with the
    /// surface's outward unit normal there (for a closed mesh, the side `p` is on counts as
    /// outside unless the mesh knows better).
    fn closest_point(&self, p: Vec3, max_distance: f32) -> Option<(Vec3, Vec3)>;
}

#[derive(Clone, Copy, Debug)]
struct Bound {
    /// The body's pose the narrow phase ran at.
    x0: Vec3,
    q0: Quat,
    /// Shape centre at the start of the substep.
    c: Vec3,
    /// Bounding radius.
    r: f32,
    /// How far any point of the shape moves over the substep (bound).
    sweep: f32,
    placed: Placed,
    kinematic: bool,
}

/// The contacts of one group of bodies (reusable buffers: no allocation once warm).
#[derive(Clone, Debug)]
pub struct Contacts {
    list: Vec<Contact>,
    bounds: Vec<Bound>,
    order: Vec<u32>,
    scratch: Vec<Feature>,
    /// Every body's world inverse inertia for the pass being solved.
    inv_inertia: Vec<Mat3>,
    /// Set by [`Contacts::collect_step`]: round shapes' contacts anchored at their core
    /// ([`Contact::arm_a`]).
    round_anchors: bool,
    /// Set by [`Contacts::set_substep_inertia`]: the passes use `inv_inertia` as given for
    /// the whole substep instead of taking it anew.
    substep_inertia: bool,
    /// Largest speed (m/s) at which an overlap present at the start of a substep is
    /// removed (3 m/s by default).
    pub max_depenetration_speed: f32,
    /// Contacts are collected within this distance (m) beyond the substep's motion (5 mm by
    /// default): resting contacts stay in the list from substep to substep.
    pub skin: f32,
    /// Most Gauss–Seidel sweeps over the contacts per `solve_positions` call (8 by default).
    pub position_iterations: u32,
    /// Most Gauss–Seidel sweeps over the contacts per `solve_velocities` call (8 by default).
    pub velocity_iterations: u32,
    /// The position sweeps stop early once a sweep corrects no gap or slip by more than
    /// this (m) beyond the rounding of the position (module docs; 1e-7 m by default).
    pub position_tolerance: f32,
    /// The velocity sweeps stop early once a sweep changes no contact's velocity by more
    /// than this (m/s; 1e-3 by default).
    pub velocity_tolerance: f32,
}

impl Default for Contacts {
    fn default() -> Contacts {
        Contacts::new()
    }
}

/// Default [`Contacts::max_depenetration_speed`] (m/s).
pub const MAX_DEPENETRATION_SPEED: f32 = 3.0;
/// Default [`Contacts::skin`] (m).
pub const SKIN: f32 = 0.005;
/// Default [`Contacts::position_iterations`] and [`Contacts::velocity_iterations`].
pub const ITERATIONS: u32 = 8;
/// Default [`Contacts::position_tolerance`] (m).
pub const POSITION_TOLERANCE: f32 = 1e-7;
/// Default [`Contacts::velocity_tolerance`] (m/s).
pub const VELOCITY_TOLERANCE: f32 = 1e-3;

fn is_kinematic(b: &RigidBody) -> bool {
    b.inv_mass == 0.0 && b.inv_inertia == Vec3::ZERO
}

/// Angle (rad) of the rotation from `a` to `b`.
fn turn_angle(a: Quat, b: Quat) -> f32 {
    let d = b * a.inverse();
    2.0 * Vec3::new(d.x, d.y, d.z).length().min(1.0).asin()
}

/// The shape's world pose for a body at `x`, `q`.
fn shape_pose(s: &BodyShape, x: Vec3, q: Quat) -> Pose {
    Pose {
        rotation: q * s.local.rotation,
        position: x + q * s.local.position,
        scale: s.local.scale,
    }
}

/// Two distinct bodies of a slice, mutably.
fn two(bodies: &mut [RigidBody], a: usize, b: usize) -> (&mut RigidBody, &mut RigidBody) {
    debug_assert!(a != b);
    if a < b {
        let (l, r) = bodies.split_at_mut(b);
        (&mut l[a], &mut r[0])
    } else {
        let (l, r) = bodies.split_at_mut(a);
        (&mut r[0], &mut l[b])
    }
}

/// `out[i]` ← body `i`'s world inverse inertia `R·diag(I⁻¹)·Rᵀ` (one matrix–vector product
/// per use instead of two quaternion rotations).
fn world_inverse_inertia(bodies: &[RigidBody], out: &mut Vec<Mat3>) {
    out.clear();
    out.extend(bodies.iter().map(|b| {
        let r = Mat3::from_quat(b.q);
        r * Mat3::from_diagonal(b.inv_inertia) * r.transpose()
    }));
}

/// The rounding of a position at world point `x` in f32 (a few ulps of its largest
/// coordinate): a correction that small is noise, not a residual, for the stopping rule.
#[inline]
fn resolution(x: Vec3) -> f32 {
    4.0 * f32::EPSILON * x.abs().max_element()
}

/// Generalised inverse mass along unit `n` at world offset `r`, with world inverse inertia `iw`.
#[inline]
pub(crate) fn weight(b: &RigidBody, iw: &Mat3, r: Vec3, n: Vec3) -> f32 {
    let rn = r.cross(n);
    b.inv_mass + rn.dot(*iw * rn)
}

/// Positional impulse `p` at world offset `r` (as `RigidBody::apply_positional`).
#[inline]
pub(crate) fn push_positional(b: &mut RigidBody, iw: &Mat3, p: Vec3, r: Vec3) {
    b.x += p * b.inv_mass;
    b.rotate_by(*iw * r.cross(p));
}

/// Velocity impulse `p` at world offset `r`.
#[inline]
pub(crate) fn push_velocity(b: &mut RigidBody, iw: &Mat3, p: Vec3, r: Vec3) {
    b.v += p * b.inv_mass;
    b.w += *iw * r.cross(p);
}

impl Contacts {
    /// Room for the contacts of `bodies` bodies lying in a pile (up to 16 points each, a
    /// box on a box and on the floor) and for the features of one pair, so that a pile
    /// settling after warm-up does not grow the buffers inside a step.
    pub(crate) fn reserve_for(&mut self, bodies: usize) {
        self.list.reserve((16 * bodies).saturating_sub(self.list.len()));
        self.scratch.reserve(16usize.saturating_sub(self.scratch.len()));
    }

    pub fn new() -> Contacts {
        Contacts {
            list: Vec::new(),
            bounds: Vec::new(),
            order: Vec::new(),
            scratch: Vec::new(),
            inv_inertia: Vec::new(),
            substep_inertia: false,
            round_anchors: false,
            max_depenetration_speed: MAX_DEPENETRATION_SPEED,
            skin: SKIN,
            position_iterations: ITERATIONS,
            velocity_iterations: ITERATIONS,
            position_tolerance: POSITION_TOLERANCE,
            velocity_tolerance: VELOCITY_TOLERANCE,
        }
    }

    /// The contacts of the current substep.
    pub fn contacts(&self) -> &[Contact] {
        &self.list
    }

    /// Finds the contacts of the substep running from fraction `t0` to `t1` of the fixed step.
    /// `pair(i, j)` says whether bodies `i < j` may collide; `mask` filters obstacles by layer.
    /// `shapes[i]` is body `i`'s shape. Call after the prediction (module docs).
    #[allow(clippy::too_many_arguments)]
    pub fn collect(
        &mut self,
        bodies: &[RigidBody],
        shapes: &[BodyShape],
        obstacles: &[ObstacleShape],
        mask: u32,
        pair: impl Fn(usize, usize) -> bool,
        t0: f32,
        t1: f32,
    ) {
        let sweep = |i: usize| {
            let (b, s) = (&bodies[i], &shapes[i]);
            let r = s.shape.bounding_radius() * s.local.scale;
            (b.x - b.prev_x).length() + turn_angle(b.prev_q, b.q) * (s.local.position.length() + r)
        };
        self.round_anchors = false;
        self.collect_from(bodies, shapes, obstacles, mask, pair, |b| (b.prev_x, b.prev_q), sweep, t0, t1);
    }

    /// Finds the contacts of a whole fixed step once, before its first substep (module docs,
    /// *Once per step*): the shapes where the bodies are now, every feature within
    /// `skin + sweep(i) + sweep(j)`, `sweep(i)` a bound on how far any point of body `i` moves
    /// over the step; obstacles over their whole motion (`from` → `to`). Each substep then
    /// calls [`Contacts::begin_substep`].
    #[allow(clippy::too_many_arguments)]
    pub fn collect_step(
        &mut self,
        bodies: &[RigidBody],
        shapes: &[BodyShape],
        obstacles: &[ObstacleShape],
        mask: u32,
        pair: impl Fn(usize, usize) -> bool,
        sweep: impl Fn(usize) -> f32,
    ) {
        self.round_anchors = true;
        self.collect_from(bodies, shapes, obstacles, mask, pair, |b| (b.x, b.q), sweep, 0.0, 1.0);
    }

    /// A contact point `p` of a body placed at `x0`, `q0` as its anchor in the body frame
    /// and radius ([`Contact::rad_a`]): with round anchors and a round shape, the point of
    /// its core under `p` (`side` = 1 for A, whose surface faces B along −n; −1 for B) and
    /// the distance from it to `p` along n; otherwise `p` itself and 0.
    #[inline]
    fn anchor(&self, placed: &Placed, x0: Vec3, q0: Quat, p: Vec3, n: Vec3, side: f32) -> (Vec3, f32) {
        if self.round_anchors
            && let Placed::Round { a, b, .. } = *placed
        {
            let core = a.lerp(b, contact_narrow::closest_on_segment(p, a, b));
            let rad = (core - p).dot(n) * side;
            if rad > 0.0 {
                return (q0.inverse() * (core - x0), rad);
            }
        }
        (q0.inverse() * (p - x0), 0.0)
    }

    /// The narrow phase of [`Contacts::collect`] and [`Contacts::collect_step`]: every shape
    /// placed at `start(body)`, moving by at most `sweep(i)`, obstacles from `t0` to `t1`.
    #[allow(clippy::too_many_arguments)]
    fn collect_from(
        &mut self,
        bodies: &[RigidBody],
        shapes: &[BodyShape],
        obstacles: &[ObstacleShape],
        mask: u32,
        pair: impl Fn(usize, usize) -> bool,
        start: impl Fn(&RigidBody) -> (Vec3, Quat),
        sweep: impl Fn(usize) -> f32,
        t0: f32,
        t1: f32,
    ) {
        debug_assert_eq!(bodies.len(), shapes.len(), "one shape per body");
        let n = bodies.len().min(shapes.len());
        self.list.clear();
        self.bounds.clear();
        for (i, (b, s)) in bodies[..n].iter().zip(&shapes[..n]).enumerate() {
            let (x0, q0) = start(b);
            let pose = shape_pose(s, x0, q0);
            let r = s.shape.bounding_radius() * s.local.scale;
            let sweep = sweep(i);
            self.bounds.push(Bound {
                x0,
                q0,
                c: pose.position,
                r,
                sweep,
                placed: Placed::new(&s.shape, &pose),
                kinematic: is_kinematic(b),
            });
        }

        // Bodies against obstacles.
        for o in obstacles {
            if o.layers & mask == 0 {
                continue;
            }
            let (o0, o1) = (o.from.lerp(&o.to, t0), o.from.lerp(&o.to, t1));
            let placed = Placed::new(&o.shape, &o0);
            let o_turn = turn_angle(o0.rotation, o1.rotation);
            let o_move = (o1.position - o0.position).length();
            let o_grow = (o1.scale - o0.scale).abs() / o0.scale.max(1e-6);
            let o_r = o.shape.bounding_radius() * o0.scale;
            #[allow(clippy::needless_range_loop)] // i indexes bounds, bodies and the contacts
            for i in 0..n {
                let bd = self.bounds[i];
                if bd.kinematic {
                    continue;
                }
                let dist = (bd.c - o0.position).length();
                let margin = self.skin + bd.sweep + o_move + (o_turn + o_grow) * (dist + bd.r);
                let far = match placed {
                    Placed::Plane { p, n } => (bd.c - p).dot(n) - bd.r > margin,
                    _ => dist > bd.r + o_r + margin,
                };
                if far {
                    continue;
                }
                self.scratch.clear();
                contact_narrow::collide(&bd.placed, &placed, margin, &mut self.scratch);
                let body = &bodies[i];
                let turn = o1.rotation * o0.rotation.inverse();
                for f in &self.scratch {
                    let (ra, rad_a) = self.anchor(&bd.placed, bd.x0, bd.q0, f.pa, f.n, 1.0);
                    let pb1 = o1.to_world(o0.to_local(f.pb));
                    let nn = (turn * f.n).normalize();
                    let vn_bodies = nn.dot(body.point_velocity(body.q * ra));
                    self.list.push(Contact {
                        a: i as u32,
                        b: NO_BODY,
                        ra,
                        rb: Vec3::ZERO,
                        rad_a,
                        rad_b: 0.0,
                        pb0: f.pb,
                        pb1,
                        pw0: f.pb,
                        pw1: pb1,
                        n: nn,
                        gap0: f.gap,
                        vn_bodies,
                        lambda_n: 0.0,
                        lambda_t: Vec3::ZERO,
                        impulse_n: 0.0,
                        impulse_t: Vec3::ZERO,
                    });
                }
            }
        }

        // Body pairs: sweep and prune along x.
        self.order.clear();
        self.order.extend(0..n as u32);
        let lo = |b: &Bound| b.c.x - b.r - b.sweep;
        let bounds = &self.bounds;
        self.order.sort_unstable_by(|&i, &j| {
            lo(&bounds[i as usize])
                .total_cmp(&lo(&bounds[j as usize]))
                .then(i.cmp(&j))
        });
        for ii in 0..n {
            let i = self.order[ii] as usize;
            let bi = self.bounds[i];
            let hi = bi.c.x + bi.r + bi.sweep + self.skin;
            for jj in ii + 1..n {
                let j = self.order[jj] as usize;
                let bj = self.bounds[j];
                if lo(&bj) > hi {
                    break;
                }
                if bi.kinematic && bj.kinematic {
                    continue;
                }
                let (a, b) = if i < j { (i, j) } else { (j, i) };
                if !pair(a, b) {
                    continue;
                }
                let (ba, bb) = (self.bounds[a], self.bounds[b]);
                let margin = self.skin + ba.sweep + bb.sweep;
                if (ba.c - bb.c).length() > ba.r + bb.r + margin {
                    continue;
                }
                self.scratch.clear();
                contact_narrow::collide(&ba.placed, &bb.placed, margin, &mut self.scratch);
                let (body_a, body_b) = (&bodies[a], &bodies[b]);
                for f in &self.scratch {
                    let (ra, rad_a) = self.anchor(&ba.placed, ba.x0, ba.q0, f.pa, f.n, 1.0);
                    let (rb, rad_b) = self.anchor(&bb.placed, bb.x0, bb.q0, f.pb, f.n, -1.0);
                    let vn_bodies = f.n.dot(
                        body_a.point_velocity(body_a.q * ra) - body_b.point_velocity(body_b.q * rb),
                    );
                    self.list.push(Contact {
                        a: a as u32,
                        b: b as u32,
                        ra,
                        rb,
                        rad_a,
                        rad_b,
                        pb0: Vec3::ZERO,
                        pb1: Vec3::ZERO,
                        pw0: Vec3::ZERO,
                        pw1: Vec3::ZERO,
                        n: f.n,
                        gap0: f.gap,
                        vn_bodies,
                        lambda_n: 0.0,
                        lambda_t: Vec3::ZERO,
                        impulse_n: 0.0,
                        impulse_t: Vec3::ZERO,
                    });
                }
            }
        }
    }

    /// Adds the contacts of the bodies against a static mesh (layer-filtered by the caller);
    /// call after [`Contacts::collect`] in the same substep. See the module docs.
    pub fn collect_mesh(
        &mut self,
        bodies: &[RigidBody],
        shapes: &[BodyShape],
        mesh: &impl StaticMesh,
    ) {
        let n = bodies.len().min(shapes.len()).min(self.bounds.len());
        for i in 0..n {
            let bd = self.bounds[i];
            if bd.kinematic {
                continue;
            }
            let margin = self.skin + bd.sweep;
            let body = &bodies[i];
            // Support samples: (centre, radius) pairs.
            let mut samples = [(Vec3::ZERO, 0.0f32); 9];
            let count = match bd.placed {
                Placed::Round { a, b, ra, rb } => {
                    samples[0] = (a, ra);
                    if a == b {
                        1
                    } else {
                        samples[1] = (b, rb);
                        samples[2] = (a.lerp(b, 0.5), 0.5 * (ra + rb));
                        3
                    }
                }
                Placed::Box { .. } => {
                    let Shape::Box { half_extents } = shapes[i].shape else {
                        continue;
                    };
                    let pose = shape_pose(&shapes[i], bd.x0, bd.q0);
                    for (k, s) in samples.iter_mut().enumerate().take(8) {
                        let sign = |bit: usize| if k & (1 << bit) != 0 { 1.0 } else { -1.0 };
                        *s = (
                            pose.to_world(Vec3::new(sign(0), sign(1), sign(2)) * half_extents),
                            0.0,
                        );
                    }
                    samples[8] = (pose.position, 0.0);
                    9
                }
                Placed::Plane { .. } => 0,
            };
            for &(c, r) in &samples[..count] {
                let Some((p, nrm)) = mesh.closest_point(c, r + margin) else {
                    continue;
                };
                let h = (c - p).dot(nrm);
                let gap = h - r;
                if gap >= margin {
                    continue;
                }
                let pa = c - nrm * r;
                let (ra, rad_a) = if self.round_anchors && r > 0.0 { (bd.q0.inverse() * (c - bd.x0), r) } else { (bd.q0.inverse() * (pa - bd.x0), 0.0) };
                self.list.push(Contact {
                    a: i as u32,
                    b: NO_BODY,
                    ra,
                    rb: Vec3::ZERO,
                    rad_a,
                    rad_b: 0.0,
                    pb0: p,
                    pb1: p,
                    pw0: p,
                    pw1: p,
                    n: nrm,
                    gap0: gap,
                    vn_bodies: nrm.dot(body.point_velocity(body.q * ra)),
                    lambda_n: 0.0,
                    lambda_t: Vec3::ZERO,
                    impulse_n: 0.0,
                    impulse_t: Vec3::ZERO,
                });
            }
        }
    }

    /// Position pass: non-penetration and static friction (XPBD, paper §3.5).
    pub fn solve_positions(&mut self, bodies: &mut [RigidBody], material: ContactMaterial, h: f32) {
        // Symmetric Gauss–Seidel: every other sweep runs backwards, so that the order of the
        // contacts does not bias a resting manifold one way (no drift, no rocking).
        if self.list.is_empty() {
            return;
        }
        // The turns of one substep's corrections are small: the world inertia is taken once,
        // at the start of the pass.
        if !self.substep_inertia {
            world_inverse_inertia(bodies, &mut self.inv_inertia);
        }
        for iteration in 0..self.position_iterations.max(1) {
            let moved = self.position_sweep(bodies, material, h, iteration % 2 == 1);
            if moved <= self.position_tolerance {
                break;
            }
        }
    }

    /// One sweep of the position pass: every normal, then every static friction.
    fn position_sweep(
        &mut self,
        bodies: &mut [RigidBody],
        material: ContactMaterial,
        h: f32,
        backward: bool,
    ) -> f32 {
        // The largest correction of the sweep (m): `|Δλ|·w̃`, the distance it moved a gap
        // or a slip.
        let mut corrected = 0.0f32;
        let dep = self.max_depenetration_speed.max(0.0) * h;
        for k in 0..self.list.len() {
            let idx = if backward { self.list.len() - 1 - k } else { k };
            let c = &mut self.list[idx];
            let target = (c.gap0 + dep).min(0.0);
            let a = c.a as usize;
            if c.b == NO_BODY {
                let body = &mut bodies[a];
                let r = c.arm_a(body);
                let g = (body.x + r - c.pb1).dot(c.n);
                let err = g - target;
                if err >= 0.0 && c.lambda_n <= 0.0 {
                    continue;
                }
                let iw = &self.inv_inertia[a];
                let w = weight(body, iw, r, c.n);
                if w <= crate::math::WEIGHT_EPSILON {
                    continue;
                }
                let dl = (-err / w).max(-c.lambda_n);
                corrected = corrected.max(dl.abs() * w - resolution(body.x));
                c.lambda_n += dl;
                push_positional(body, iw, c.n * dl, r);
            } else {
                let (ba, bb) = two(bodies, a, c.b as usize);
                let (r1, r2) = (c.arm_a(ba), c.arm_b(bb));
                let g = (ba.x + r1 - bb.x - r2).dot(c.n);
                let err = g - target;
                if err >= 0.0 && c.lambda_n <= 0.0 {
                    continue;
                }
                let (ia, ib) = (&self.inv_inertia[a], &self.inv_inertia[c.b as usize]);
                let w = weight(ba, ia, r1, c.n) + weight(bb, ib, r2, c.n);
                if w <= crate::math::WEIGHT_EPSILON {
                    continue;
                }
                // A body that overflowed (NaN, or an infinite inverse mass) moves no other body:
                // NaN containment (docs/reliability.md). Finite values always pass.
                if !(err.is_finite() && w.is_finite() && (r1 + r2).is_finite()) {
                    continue;
                }
                let dl = (-err / w).max(-c.lambda_n);
                corrected = corrected.max(dl.abs() * w - resolution(ba.x.abs().max(bb.x.abs())));
                c.lambda_n += dl;
                push_positional(ba, ia, c.n * dl, r1);
                push_positional(bb, ib, -c.n * dl, r2);
            }
        }
        let mu = material.friction.max(0.0);
        if mu == 0.0 {
            return corrected;
        }
        for k in 0..self.list.len() {
            let idx = if backward { self.list.len() - 1 - k } else { k };
            let c = &mut self.list[idx];
            if c.lambda_n <= 0.0 {
                continue;
            }
            let a = c.a as usize;
            if c.b == NO_BODY {
                let body = &mut bodies[a];
                let r = c.arm_a(body);
                let moved = c.moved_a(body, r) - (c.pb1 - c.pb0);
                let dt = moved - c.n * moved.dot(c.n);
                let len = dt.length();
                if len < 1e-9 {
                    continue;
                }
                let t = dt / len;
                let iw = &self.inv_inertia[a];
                let w = weight(body, iw, r, t);
                if w <= crate::math::WEIGHT_EPSILON {
                    continue;
                }
                let p = project_cone(c.lambda_t - t * (len / w), mu * c.lambda_n) - c.lambda_t;
                corrected = corrected.max(p.length() * w - resolution(body.x));
                c.lambda_t += p;
                push_positional(body, iw, p, r);
            } else {
                let (ba, bb) = two(bodies, a, c.b as usize);
                let (r1, r2) = (c.arm_a(ba), c.arm_b(bb));
                let moved = c.moved_a(ba, r1) - c.moved_b(bb, r2);
                let dt = moved - c.n * moved.dot(c.n);
                let len = dt.length();
                if len < 1e-9 {
                    continue;
                }
                let t = dt / len;
                let (ia, ib) = (&self.inv_inertia[a], &self.inv_inertia[c.b as usize]);
                let w = weight(ba, ia, r1, t) + weight(bb, ib, r2, t);
                if w <= crate::math::WEIGHT_EPSILON {
                    continue;
                }
                if !(len.is_finite() && w.is_finite() && (r1 + r2).is_finite()) {
                    continue;
                }
                let p = project_cone(c.lambda_t - t * (len / w), mu * c.lambda_n) - c.lambda_t;
                corrected = corrected.max(p.length() * w - resolution(ba.x.abs().max(bb.x.abs())));
                c.lambda_t += p;
                push_positional(ba, ia, p, r1);
                push_positional(bb, ib, -p, r2);
            }
        }
        corrected
    }

    /// Velocity pass after `v ← Δx/h`: restitution and dynamic friction (paper §3.6).
    pub fn solve_velocities(
        &mut self,
        bodies: &mut [RigidBody],
        material: ContactMaterial,
        gravity: Vec3,
        h: f32,
    ) {
        for c in self.list.iter_mut() {
            c.impulse_n = 0.0;
            c.impulse_t = Vec3::ZERO;
        }
        self.velocity_sweeps(bodies, material, gravity, h);
    }

    /// The sweeps of [`Contacts::solve_velocities`], once its impulses are reset.
    fn velocity_sweeps(
        &mut self,
        bodies: &mut [RigidBody],
        material: ContactMaterial,
        gravity: Vec3,
        h: f32,
    ) {
        if h <= 0.0 || self.list.is_empty() {
            return;
        }
        // Nothing turns in the velocity pass: the world inertia is exact for it.
        if !self.substep_inertia {
            world_inverse_inertia(bodies, &mut self.inv_inertia);
        }
        let rest_speed = 2.0 * gravity.length() * h;
        let mu = material.friction.max(0.0);
        for iteration in 0..self.velocity_iterations.max(1) {
            // The largest velocity change of the sweep (m/s).
            let mut changed = 0.0f32;
            for k in 0..self.list.len() {
                let idx = if iteration % 2 == 1 {
                    self.list.len() - 1 - k
                } else {
                    k
                };
                let c = &mut self.list[idx];
                if c.lambda_n <= 0.0 {
                    continue;
                }
                let a = c.a as usize;
                let n = c.n;
                // Both sides as (body, offset, velocity of the other side's point).
                let (ba, mut bb, r1, r2, vo) = if c.b == NO_BODY {
                    let body = &mut bodies[a];
                    let r = c.arm_a(body);
                    (body, None, r, Vec3::ZERO, (c.pb1 - c.pb0) / h)
                } else {
                    let (ba, bb) = two(bodies, a, c.b as usize);
                    let (r1, r2) = (c.arm_a(ba), c.arm_b(bb));
                    (ba, Some(bb), r1, r2, Vec3::ZERO)
                };
                let rel = |ba: &RigidBody, bb: &Option<&mut RigidBody>| {
                    ba.point_velocity(r1) - bb.as_ref().map_or(vo, |b| b.point_velocity(r2))
                };
                let ia = &self.inv_inertia[a];
                let ib = self.inv_inertia.get(c.b as usize).unwrap_or(ia);
                let weight = |ba: &RigidBody, bb: &Option<&mut RigidBody>, d: Vec3| {
                    weight(ba, ia, r1, d) + bb.as_ref().map_or(0.0, |b| weight(b, ib, r2, d))
                };
                let vn_before = c.vn_bodies - n.dot(vo);
                let target = normal_target(vn_before, material.restitution, rest_speed);
                // Restitution (or rest): the normal velocity to its target.
                let w = weight(ba, &bb, n);
                if w <= crate::math::WEIGHT_EPSILON {
                    continue;
                }
                let dp = (target - n.dot(rel(ba, &bb))) / w;
                // As in the position pass: an overflowed side pushes nothing.
                if !dp.is_finite() {
                    continue;
                }
                changed = changed.max(dp.abs() * w);
                c.impulse_n += dp;
                push_velocity(ba, ia, n * dp, r1);
                if let Some(b) = bb.as_mut() {
                    push_velocity(b, ib, -n * dp, r2);
                }
                if material.rolling > 0.0 {
                    // Rolling resistance: the relative turn of the two sides (rolling and
                    // spinning on the contact) loses up to `rolling · ρ · Pₙ` of angular
                    // impulse, `Pₙ` the contact's normal impulse over the substep.
                    let rel_w = ba.w - bb.as_ref().map_or(Vec3::ZERO, |b| b.w);
                    let speed = rel_w.length();
                    if speed > 1e-9 {
                        let u = rel_w / speed;
                        let wr = u.dot(*ia * u) + bb.as_ref().map_or(0.0, |_| u.dot(*ib * u));
                        let bound = material.rolling * r1.dot(n).abs() * (c.lambda_n / h + c.impulse_n).max(0.0);
                        if wr > crate::math::WEIGHT_EPSILON && bound.is_finite() {
                            let j = (speed / wr).min(bound);
                            ba.w -= *ia * (u * j);
                            if let Some(b) = bb.as_mut() {
                                b.w += *ib * (u * j);
                            }
                        }
                    }
                }
                if mu == 0.0 {
                    continue;
                }
                // Dynamic friction: the accumulated friction impulse within the Coulomb bound
                // of the contact's whole normal impulse over the substep.
                let v = rel(ba, &bb);
                let vt = v - n * v.dot(n);
                let len = vt.length();
                if len <= 1e-9 {
                    continue;
                }
                let t = vt / len;
                let wt = weight(ba, &bb, t);
                if wt <= crate::math::WEIGHT_EPSILON {
                    continue;
                }
                let bound =
                    (mu * (c.lambda_n / h + c.impulse_n) - c.lambda_t.length() / h).max(0.0);
                let mut total = c.impulse_t - t * (len / wt);
                let tl = total.length();
                if tl > bound {
                    total *= bound / tl;
                }
                let p = total - c.impulse_t;
                if !p.is_finite() {
                    continue;
                }
                changed = changed.max(p.length() * wt);
                c.impulse_t = total;
                push_velocity(ba, ia, p, r1);
                if let Some(b) = bb.as_mut() {
                    push_velocity(b, ib, -p, r2);
                }
            }
            if changed <= self.velocity_tolerance {
                break;
            }
        }
    }

    /// Prepares the contacts of [`Contacts::collect_step`] for the substep running from
    /// fraction `t0` to `t1` of the fixed step, after the prediction: the obstacles' points
    /// at the substep's ends, each contact's gap at the substep's start (`prev_x`, `prev_q`)
    /// and its normal velocity as predicted; the multipliers and impulses back to 0.
    pub fn begin_substep(&mut self, bodies: &[RigidBody], t0: f32, t1: f32) {
        for c in self.list.iter_mut() {
            let a = &bodies[c.a as usize];
            let pa0 = a.prev_x + a.prev_q * c.ra - c.n * c.rad_a;
            let va = a.point_velocity(c.arm_a(a));
            if c.b == NO_BODY {
                c.pb0 = c.pw0.lerp(c.pw1, t0);
                c.pb1 = c.pw0.lerp(c.pw1, t1);
                c.gap0 = (pa0 - c.pb0).dot(c.n);
                c.vn_bodies = c.n.dot(va);
            } else {
                let b = &bodies[c.b as usize];
                c.gap0 = (pa0 - (b.prev_x + b.prev_q * c.rb + c.n * c.rad_b)).dot(c.n);
                c.vn_bodies = c.n.dot(va - b.point_velocity(c.arm_b(b)));
            }
            c.lambda_n = 0.0;
            c.lambda_t = Vec3::ZERO;
            c.impulse_n = 0.0;
            c.impulse_t = Vec3::ZERO;
        }
    }

    /// Takes every body's world inverse inertia now, after the substep's prediction, and
    /// keeps it for the substep's passes (contacts, and the joints through
    /// [`Contacts::substep_inertia`]): the turns of a substep's corrections are small, and the
    /// passes then multiply by a matrix instead of turning each vector into the body frame and
    /// back. Off again with `false`.
    pub fn set_substep_inertia(&mut self, bodies: &[RigidBody], on: bool) {
        self.substep_inertia = on;
        if on {
            world_inverse_inertia(bodies, &mut self.inv_inertia);
        }
    }

    /// The world inverse inertias [`Contacts::set_substep_inertia`] took.
    pub fn substep_inertia(&self) -> &[Mat3] {
        &self.inv_inertia
    }

    pub fn len(&self) -> usize {
        self.list.len()
    }

    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }
}

/// `v` shortened to length `limit` if longer (the friction cone).
#[inline]
fn project_cone(v: Vec3, limit: f32) -> Vec3 {
    let l = v.length();
    if l > limit {
        v * (limit.max(0.0) / l)
    } else {
        v
    }
}

/// The normal velocity a contact leaves (paper eq. 34): `−e·ṽₙ` for an approach faster than
/// the rest threshold, else 0.
#[inline]
fn normal_target(vn_before: f32, restitution: f32, rest_speed: f32) -> f32 {
    if vn_before < 0.0 && -vn_before > rest_speed {
        -restitution.max(0.0) * vn_before
    } else {
        0.0
    }
}
