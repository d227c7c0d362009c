//! Particle–collider contact, swept over the substep.
//!
//! The test runs in the collider's own frame. A particle's start of substep `x_prev` is
//! taken into the collider's frame at the start of the substep (pose `P0`), its predicted
//! end `x` into the frame at the end (`P1`), so the segment `l0 → l1` is the particle's path
//! relative to the collider: a limb moving at 20 m/s and a particle moving at 100 m/s are
//! the same problem. Along that segment the first point where the signed distance reaches
//! the particle radius `r` is found by sphere tracing (the distance is 1-Lipschitz, so each
//! advance by `φ − r` is safe). If the path reaches the surface, the end point is projected
//! back onto the contact plane, so the particle stops on the near side; a particle that
//! starts inside is pushed out along the normal.
//!
//! Friction is position-based Coulomb (Macklin et al. 2014, "Unified Particle Physics for
//! Real-Time Applications", eq. 24–25): with `d` the normal correction and `Δt` the
//! tangential motion relative to the collider, the contact sticks when `|Δt| < μs·d` and
//! otherwise loses `μk·d` of it. `d` is the normal motion the contact takes away over the
//! substep — the particle's approach along the normal (`(l0 − l1)·n`: a particle landing from
//! above is stopped over its whole approach, not only over the part past the surface) or
//! the push-out, whichever is larger — since that is the normal impulse `h·Δvₙ` the Coulomb
//! bound `|Δvₜ| ≤ μ·|Δvₙ|` refers to. A contact that sticks keeps the particle's place on the
//! collider, computed in world space: its start carried by the collider's motion plus the
//! normal correction, so that on a still collider it does not move at all (going through
//! the collider's frame and back rounds the position a little, the same way every substep:
//! a creep).

use crate::geometry::{Pose, Shape};
use crate::math::Vec3;

/// Contact settings of one body.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ContactParams {
    /// Particle radius (m).
    pub thickness: f32,
    pub static_friction: f32,
    pub kinetic_friction: f32,
}

/// Sphere-tracing steps before the test falls back to the end point alone.
const TRACE_STEPS: usize = 32;

/// Collides every free particle with one collider moving from `p0` to `p1` over the substep.
///
/// `max_move` bounds how far any particle moves in the substep (m): particles farther from
/// the collider than its reach plus the motion of both are rejected before any transform.
#[allow(clippy::too_many_arguments)]
pub fn collide(x: &mut [Vec3], x_prev: &[Vec3], w: &[f32], shape: &Shape, p0: &Pose, p1: &Pose, c: &ContactParams, max_move: f32) {
    if let Shape::Sphere { radius } = *shape
        && collide_soa_supported(shape, p0, p1)
    {
        collide_sphere(x, x_prev, w, radius, p0, p1, c);
        return;
    }
    let reach = shape.bounding_radius();
    let near = reach * p1.scale + c.thickness + max_move + (p1.position - p0.position).length() + reach * (p1.scale - p0.scale).abs();
    let near2 = if reach.is_finite() { near * near } else { f32::INFINITY };
    for i in 0..x.len() {
        if w[i] == 0.0 || (x[i] - p1.position).length_squared() > near2 {
            continue;
        }
        if let Some(end) = contact(x_prev[i], x[i], shape, p0, p1, c) {
            x[i] = end;
        }
    }
}

/// One collider of [`collide_many`]: its shape and its poses at the start and end of the
/// substep.
#[derive(Clone, Copy, Debug)]
pub struct Swept<'a> {
    pub shape: &'a Shape,
    pub p0: Pose,
    pub p1: Pose,
}

/// How [`collide_many`] tells the particles that may touch a collider from the rest: the
/// bounding-sphere test of [`collide`] (its `near2`), then for a capsule [`CapsuleReject`].
struct Filter {
    centre: Vec3,
    near2: f32,
    capsule: Option<CapsuleReject>,
}

impl Filter {
    fn new(s: &Swept, c: &ContactParams, max_move: f32) -> Filter {
        let (shape, p0, p1) = (s.shape, &s.p0, &s.p1);
        let reach = shape.bounding_radius();
        let near = reach * p1.scale + c.thickness + max_move + (p1.position - p0.position).length() + reach * (p1.scale - p0.scale).abs();
        let near2 = if reach.is_finite() { near * near } else { f32::INFINITY };
        Filter { centre: p1.position, near2, capsule: CapsuleReject::new(shape, p0, p1, c) }
    }

    /// Whether [`contact`] may find a contact for a free particle moving from `start` to `end`
    /// (false: it certainly does not, or [`collide`] would not ask it).
    #[inline]
    fn may_touch(&self, start: Vec3, end: Vec3) -> bool {
        (end - self.centre).length_squared() <= self.near2 && !self.capsule.as_ref().is_some_and(|f| f.rejects(start, end))
    }

    /// Every point of the box `lo..hi` is beyond the bounding sphere: [`collide`] would ask
    /// none of the particles ending in it. The box's distance is the smallest any point's can
    /// be, less a relative 1e-4 (far beyond the rounding of the particles' own test).
    #[inline]
    fn misses_box(&self, lo: Vec3, hi: Vec3) -> bool {
        let gap = (lo - self.centre).max(self.centre - hi).max(Vec3::ZERO);
        gap.length_squared() > self.near2 * (1.0 + 1e-4) + 1e-12
    }
}

/// Particles per block of [`collide_many`]: their components sit on the stack.
const BLOCK: usize = 64;

/// [`collide`] with each collider of `colliders` in turn — the same bits — for bodies whose
/// particles are `Vec3` arrays. Each particle meets the colliders in the same order, so the
/// loops may be turned round: a block of particles is taken into components once and meets
/// every collider, eight lanes testing which particles may touch (the [`Filter`]) before any
/// goes through the scalar [`contact`]; a contact writes the block's copy too, so the next
/// collider sees where the particle is now. A sphere that does not turn keeps its own path
/// ([`MovingSphere`]).
#[allow(clippy::too_many_arguments)]
pub fn collide_many(x: &mut [Vec3], x_prev: &[Vec3], w: &[f32], colliders: &[Swept], c: &ContactParams, max_move: f32) {
    /// Colliders whose filters are built at once.
    const GROUP: usize = 16;
    for group in colliders.chunks(GROUP) {
        let mut filters: [Option<Filter>; GROUP] = [const { None }; GROUP];
        for (f, s) in filters.iter_mut().zip(group) {
            let sphere = matches!(s.shape, Shape::Sphere { .. }) && collide_soa_supported(s.shape, &s.p0, &s.p1);
            *f = (!sphere).then(|| Filter::new(s, c, max_move));
        }
        let n = x.len().min(x_prev.len()).min(w.len());
        let mut block = Block::default();
        let mut first = 0;
        while first < n {
            let last = (first + BLOCK).min(n);
            collide_block(&mut x[first..last], &x_prev[first..last], &w[first..last], group, &filters[..group.len()], c, &mut block);
            first = last;
        }
    }
}

/// [`collide_many`] on one block of at most [`BLOCK`] particles (`block` its scratch).
fn collide_block(x: &mut [Vec3], x_prev: &[Vec3], w: &[f32], group: &[Swept], filters: &[Option<Filter>], c: &ContactParams, block: &mut Block) {
    let n = x.len();
    (block.filled, block.lo, block.hi) = (false, Vec3::INFINITY, Vec3::NEG_INFINITY);
    for p in x.iter() {
        block.lo = block.lo.min(*p);
        block.hi = block.hi.max(*p);
    }
    for (s, filter) in group.iter().zip(filters) {
        let Some(filter) = filter else {
            let Shape::Sphere { radius } = *s.shape else { unreachable!("only spheres go without a filter") };
            let sphere = MovingSphere::new(radius, &s.p0, &s.p1, c);
            for i in 0..n {
                if w[i] != 0.0
                    && let Some(end) = sphere.contact(x_prev[i], x[i])
                {
                    x[i] = end;
                    block.set_end(i, end);
                }
            }
            continue;
        };
        let touch = |i: usize, x: &mut [Vec3], block: &mut Block| {
            if let Some(end) = contact(x_prev[i], x[i], s.shape, &s.p0, &s.p1, c) {
                x[i] = end;
                block.set_end(i, end);
            }
        };
        if filter.misses_box(block.lo, block.hi) {
            continue;
        }
        let mut i = 0;
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx") {
            i = n - n % 8;
            // Taken into components when a collider first comes near the block.
            if !block.filled {
                block.fill(&x[..i], &x_prev[..i]);
            }
            // SAFETY: AVX is present; `i ≤ n ≤ BLOCK`, `w` holds `n`.
            let mut mask = unsafe { lanes::may_touch(block, &w[..i], filter) };
            while mask != 0 {
                let k = mask.trailing_zeros() as usize;
                mask &= mask - 1;
                touch(k, x, block);
            }
        }
        for i in i..n {
            if w[i] != 0.0 && filter.may_touch(x_prev[i], x[i]) {
                touch(i, x, block);
            }
        }
    }
}

/// A block's particles as components, ends (current positions) and starts, once `filled`
/// (the lane groups' particles only; the rest stay `Vec3`); the box that holds the ends.
struct Block {
    end: [[f32; BLOCK]; 3],
    start: [[f32; BLOCK]; 3],
    filled: bool,
    lo: Vec3,
    hi: Vec3,
}

impl Default for Block {
    fn default() -> Self {
        Block { end: [[0.0; BLOCK]; 3], start: [[0.0; BLOCK]; 3], filled: false, lo: Vec3::INFINITY, hi: Vec3::NEG_INFINITY }
    }
}

impl Block {
    fn fill(&mut self, x: &[Vec3], x_prev: &[Vec3]) {
        for (i, (e, s)) in x.iter().zip(x_prev).enumerate() {
            (self.end[0][i], self.end[1][i], self.end[2][i]) = (e.x, e.y, e.z);
            (self.start[0][i], self.start[1][i], self.start[2][i]) = (s.x, s.y, s.z);
        }
        self.filled = true;
    }

    #[inline]
    fn set_end(&mut self, i: usize, p: Vec3) {
        if self.filled && i < BLOCK {
            (self.end[0][i], self.end[1][i], self.end[2][i]) = (p.x, p.y, p.z);
        }
        self.lo = self.lo.min(p);
        self.hi = self.hi.max(p);
    }
}

/// A test that proves, in world space and without a transform, that a particle cannot touch
/// a capsule over the substep — so [`contact`] would return `None` for it and may be skipped
/// (same bits). Most particles within a limb's bounding sphere are a few centimetres from
/// its surface; the sphere cannot tell them apart, this test can.
///
/// [`contact`] finds a contact only where its local path `l(t) = l0 + t·(l1 − l0)` (`l0` the
/// start in the frame at `p0`, `l1` the end in the frame at `p1`) comes within `r + tol` of
/// the shape (`r` the particle radius, `tol` the trace's tolerance, both local). Carried to
/// the world by `p1`, that path is `W(t)`, with `W(1) = x` and `W(0) = T(x_prev)`, `T` the
/// collider's motion over the substep (`p1 ∘ p0⁻¹`); distances scale by `s1`. As the
/// distance is 1-Lipschitz, every point of the path is at least `φ(x) − |T(x_prev) − x|` from
/// the shape at `p1`, where
///
/// - `φ(x) ≥ |x − segment| − r_max·s1`: the tapered capsule lies inside the straight one of
///   its larger radius about the same segment;
/// - `|T(y) − x| ≤ |y − x| + |c1 − c0| + k·|y − c0|`, with `T(y) − y = (ρQ − I)(y − c0) + (c1 − c0)`,
///   `ρ = s1/s0`, `Q` the rotation over the substep and `‖ρQ − I‖ ≤ |ρ − 1| + 2·sin(θ/2) = k`
///   (`sin(θ/2)` the length of `Q`'s vector part).
///
/// A particle is skipped when that lower bound exceeds `(r + tol)·s1` by a margin (0.1 mm and
/// a relative 1e-5 of the sizes involved) far above the rounding of either computation.
struct CapsuleReject {
    a: Vec3,
    axis: Vec3,
    inv_axis2: f32,
    c0: Vec3,
    k: f32,
    /// `r_max·s1 + (r + tol)·s1 + |c1 − c0| + margin`.
    base: f32,
}

impl CapsuleReject {
    fn new(shape: &Shape, p0: &Pose, p1: &Pose, c: &ContactParams) -> Option<CapsuleReject> {
        let Shape::Capsule { half_height, radius0, radius1 } = *shape else { return None };
        let a = p1.to_world(Vec3::new(0.0, -half_height, 0.0));
        let b = p1.to_world(Vec3::new(0.0, half_height, 0.0));
        let axis = b - a;
        let axis2 = axis.length_squared();
        let turn = p1.rotation * p0.rotation.inverse();
        let k = (p1.scale / p0.scale - 1.0).abs() + 2.0 * Vec3::new(turn.x, turn.y, turn.z).length() * 1.001;
        let size = (half_height + radius0.max(radius1)) * p1.scale + p1.position.abs().max_element();
        let margin = 1e-4 + 1e-5 * size;
        let base = radius0.max(radius1) * p1.scale + c.thickness + 1e-6 + (p1.position - p0.position).length() + margin;
        let usable = axis2 > 0.0 && [base, k, axis2].iter().all(|v| v.is_finite());
        usable.then(|| CapsuleReject { a, axis, inv_axis2: 1.0 / axis2, c0: p0.position, k, base })
    }

    /// The particle moving from `start` to `end` cannot touch the capsule.
    #[inline]
    fn rejects(&self, start: Vec3, end: Vec3) -> bool {
        let q = end - self.a;
        let t = (q.dot(self.axis) * self.inv_axis2).clamp(0.0, 1.0);
        let off = q - self.axis * t;
        let reach = self.base + (end - start).length() + self.k * (start - self.c0).length();
        off.length_squared() > reach * reach
    }
}

/// [`collide`] for a sphere that does not turn over the substep: [`contact`]'s analytic sphere
/// case, written out so that the particles that cannot touch (most of them) cost a few
/// multiplications and compares, no square root and no division.
///
/// In the sphere's frame (centre at the origin, its scale divided out) the particle's path
/// runs from `l0` to `l1`; `ρ` is the sphere radius plus the particle radius. A start inside
/// is first pushed out to the surface along its ray (`from`); the path `from + t·seg` enters
/// the inflated sphere where `|from + t·seg| = ρ`, at the smaller root of
/// `a·t² + 2b·t + cc = 0` (`a = seg·seg`, `b = from·seg`, `cc = from·from − ρ²`).
fn collide_sphere(x: &mut [Vec3], x_prev: &[Vec3], w: &[f32], radius: f32, p0: &Pose, p1: &Pose, c: &ContactParams) {
    let sphere = MovingSphere::new(radius, p0, p1, c);
    for i in 0..x.len() {
        if w[i] != 0.0
            && let Some(end) = sphere.contact(x_prev[i], x[i])
        {
            x[i] = end;
        }
    }
}

/// [`collide`] for particles `range` stored as structure of arrays (`x`, `y`, `z` positions,
/// `prev` the substep's start positions, `w` inverse masses), when `collide_soa_supported`:
/// the same operations as on `Vec3` arrays, so the same bits.
#[allow(clippy::too_many_arguments)]
pub fn collide_soa(pos: [&mut [f32]; 3], prev: [&[f32]; 3], w: &[f32], range: std::ops::Range<usize>, shape: &Shape, p0: &Pose, p1: &Pose, c: &ContactParams) {
    let Shape::Sphere { radius } = *shape else {
        debug_assert!(false, "collide_soa takes spheres only");
        return;
    };
    let sphere = MovingSphere::new(radius, p0, p1, c);
    let [x, y, z] = pos;
    let mut range = range;
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx") {
        // SAFETY: AVX is present.
        range.start = unsafe { lanes::sphere([&mut *x, &mut *y, &mut *z], prev, w, range.clone(), &sphere) };
    }
    for i in range {
        if w[i] != 0.0
            && let Some(end) = sphere.contact(Vec3::new(prev[0][i], prev[1][i], prev[2][i]), Vec3::new(x[i], y[i], z[i]))
        {
            (x[i], y[i], z[i]) = (end.x, end.y, end.z);
        }
    }
}

/// Whether [`collide_soa`] handles this collider over this substep (a sphere that does not
/// turn): the other cases need the `Vec3` arrays.
pub fn collide_soa_supported(shape: &Shape, p0: &Pose, p1: &Pose) -> bool {
    matches!(shape, Shape::Sphere { .. }) && p0.rotation == p1.rotation
}

/// A sphere moving from pose `p0` to `p1` over the substep, and one body's contact settings.
struct MovingSphere<'a> {
    p0: &'a Pose,
    p1: &'a Pose,
    inv0: f32,
    inv1: f32,
    /// Sphere radius plus particle radius, in the sphere's frame; its square and inverse.
    rho: f32,
    rho2: f32,
    inv_rho: f32,
    c: &'a ContactParams,
    /// The sphere moves or grows over the substep (else a sticking contact is not carried).
    moving: bool,
}

impl<'a> MovingSphere<'a> {
    fn new(radius: f32, p0: &'a Pose, p1: &'a Pose, c: &'a ContactParams) -> Self {
        let rho = radius + c.thickness / p1.scale;
        MovingSphere { p0, p1, inv0: 1.0 / p0.scale, inv1: 1.0 / p1.scale, rho, rho2: rho * rho, inv_rho: 1.0 / rho, c, moving: p0.position != p1.position || p0.scale != p1.scale }
    }

    /// The corrected end of a particle moving from `start` to `end`, or `None` when it does
    /// not touch.
    #[inline]
    fn contact(&self, start: Vec3, end: Vec3) -> Option<Vec3> {
        let (rho, rho2) = (self.rho, self.rho2);
        let l0 = (start - self.p0.position) * self.inv0;
        let l1 = (end - self.p1.position) * self.inv1;
        let d0sq = l0.length_squared();
        let l1sq = l1.length_squared();
        let inside0 = d0sq < rho2;
        if !inside0 {
            // Outside at the start: no contact unless the end is inside, or the path's
            // closest approach to the centre lies strictly between its ends and inside
            // (`|l0|² − b²/a < ρ²`, multiplied through by `a`).
            let seg = l1 - l0;
            let (a, b) = (seg.length_squared(), l0.dot(seg));
            if l1sq >= rho2 && (b >= 0.0 || b <= -a || a * d0sq - b * b >= a * rho2) {
                return None;
            }
        }
        let from = if inside0 {
            let len = d0sq.sqrt();
            let n = if len > 1e-12 { l0 * (1.0 / len) } else { Vec3::Y };
            l0 + n * (rho - len)
        } else {
            l0
        };
        let seg = l1 - from;
        let a = seg.length_squared();
        let b = from.dot(seg);
        let cc = from.length_squared() - rho2;
        let disc = b * b - a * cc;
        let mut hit = None;
        if a > 0.0 && disc >= 0.0 {
            let t = (-b - disc.sqrt()) / a;
            if (0.0..=1.0).contains(&t) {
                // On the inflated sphere: |p| = ρ.
                let p = from + seg * t;
                hit = Some((p, p * self.inv_rho));
            }
        }
        let (normal, depth) = match hit {
            // Stop on the contact plane; keep the tangential part of the motion.
            Some((p, n)) => (n, (p - l1).dot(n).max(0.0)),
            None => {
                // A start inside: push the end out.
                if l1sq >= rho2 {
                    return None;
                }
                let len = l1sq.sqrt();
                (if len > 1e-12 { l1 * (1.0 / len) } else { Vec3::Y }, rho - len)
            }
        };
        let f = with_friction(l1 + normal * depth, l0, l1, normal, depth, self.c);
        let (p0, p1) = (self.p0, self.p1);
        Some(if f.stuck {
            let base = if self.moving { start + ((l0 * p1.scale + p1.position) - (l0 * p0.scale + p0.position)) } else { start };
            base + f.off * p1.scale
        } else {
            f.fixed * p1.scale + p1.position
        })
    }
}

/// What friction leaves of a contact, in the collider's frame.
pub(super) struct Friction {
    /// The corrected end (a contact that slides).
    pub(super) fixed: Vec3,
    /// The contact sticks: the particle keeps its place on the collider, moved only along
    /// the normal by `off`.
    pub(super) stuck: bool,
    pub(super) off: Vec3,
}

/// Position-based Coulomb friction on a contact that moved the particle `depth` along
/// `normal` to `fixed`, on its path from `l0` to the predicted `l1` (all in the collider's
/// frame). A contact that slides ends at `fixed` less the kinetic loss. A contact that
/// sticks keeps its place on the collider: the callers carry its world start with the
/// collider and add the normal motion `off`, in world space, so that a particle resting on a
/// still collider stays exactly where it is (going through the collider's frame and back
/// would round it a little further, the same way, every substep: a creep).
#[inline]
pub(super) fn with_friction(fixed: Vec3, l0: Vec3, l1: Vec3, normal: Vec3, depth: f32, c: &ContactParams) -> Friction {
    let moved = fixed - l0;
    let along = moved.dot(normal);
    let off = normal * along;
    let tangential = moved - off;
    let slide2 = tangential.length_squared();
    // The normal motion the contact stops: the approach, or the push-out if larger.
    let approach = (l0 - l1).dot(normal);
    let press = if approach > depth { approach } else { depth };
    let hold = c.static_friction * press;
    if slide2 < hold * hold || slide2 == 0.0 {
        return Friction { fixed, stuck: true, off };
    }
    let fixed = fixed - tangential * (c.kinetic_friction * press / slide2.sqrt()).min(1.0);
    Friction { fixed, stuck: false, off }
}

/// A collider's frame over one substep. A shape that does not turn during the substep and
/// does not care about its orientation (a sphere) skips the rotation: the relative path and
/// the distances are the same without it.
struct Frame<'a> {
    pose: &'a Pose,
    rotate: bool,
}

impl Frame<'_> {
    #[inline]
    fn to_local(&self, p: Vec3) -> Vec3 {
        if self.rotate { self.pose.to_local(p) } else { (p - self.pose.position) / self.pose.scale }
    }

    #[inline]
    fn to_world(&self, p: Vec3) -> Vec3 {
        if self.rotate { self.pose.to_world(p) } else { p * self.pose.scale + self.pose.position }
    }

    /// A displacement, local → world.
    #[inline]
    fn vector_to_world(&self, v: Vec3) -> Vec3 {
        if self.rotate { self.pose.rotation * (v * self.pose.scale) } else { v * self.pose.scale }
    }
}

/// First parameter `t ∈ [0, 1]` where `l0 + t·seg` reaches distance `r` from `shape`, with
/// the contact point and normal, for a path that starts outside. Analytic for spheres and
/// planes; sphere tracing (the distance is 1-Lipschitz) for the rest.
#[inline]
fn first_contact(shape: &Shape, l0: Vec3, seg: Vec3, r: f32, tol: f32) -> Option<(Vec3, Vec3)> {
    match *shape {
        Shape::Sphere { radius } => {
            let rho = radius + r;
            let a = seg.dot(seg);
            let b = l0.dot(seg);
            let cc = l0.dot(l0) - rho * rho;
            let disc = b * b - a * cc;
            if a <= 0.0 || disc < 0.0 {
                return None;
            }
            let t = (-b - disc.sqrt()) / a;
            if !(0.0..=1.0).contains(&t) {
                return None;
            }
            let p = l0 + seg * t;
            Some((p, p.try_normalize().unwrap_or(Vec3::Y)))
        }
        Shape::Plane => {
            let end = l0.y + seg.y;
            if end >= r || seg.y >= 0.0 {
                return None;
            }
            let t = ((l0.y - r) / -seg.y).clamp(0.0, 1.0);
            Some((l0 + seg * t, Vec3::Y))
        }
        _ => {
            let len = seg.length();
            let mut t = 0.0f32;
            for _ in 0..TRACE_STEPS {
                let p = l0 + seg * t;
                let (d, n) = shape.distance(p);
                let gap = d - r;
                if gap <= tol {
                    return Some((p, n));
                }
                if len <= 0.0 {
                    return None;
                }
                t += gap / len;
                if t >= 1.0 {
                    return None;
                }
            }
            None
        }
    }
}

/// The corrected end position of one particle, or `None` when it does not touch.
#[inline]
pub fn collide_particle(start: Vec3, end: Vec3, shape: &Shape, reach: f32, p0: &Pose, p1: &Pose, c: &ContactParams) -> Option<Vec3> {
    if reach.is_finite() {
        // World-space rejection before any transform: the particle cannot get within reach
        // of the collider's end pose farther than it and the collider move.
        let slack = (end - start).length() + (p1.position - p0.position).length() + reach * (p1.scale - p0.scale).abs();
        let near = reach * p1.scale + c.thickness + slack;
        if (end - p1.position).length_squared() > near * near {
            return None;
        }
    }
    contact(start, end, shape, p0, p1, c)
}

/// [`collide_particle`] after the rejection test.
#[inline]
fn contact(start: Vec3, end: Vec3, shape: &Shape, p0: &Pose, p1: &Pose, c: &ContactParams) -> Option<Vec3> {
    let rotate = !(matches!(shape, Shape::Sphere { .. }) && p0.rotation == p1.rotation);
    let (f0, f1) = (Frame { pose: p0, rotate }, Frame { pose: p1, rotate });
    let l0 = f0.to_local(start);
    let l1 = f1.to_local(end);
    let r = c.thickness / p1.scale;
    // A path that starts touching or slightly inside (resting contact, rounding) is traced
    // from its start pushed out to the surface, so a particle resting on a thin wall still
    // cannot leave through it.
    let (d0, n0) = shape.distance(l0);
    let from = if d0 < r { l0 + n0 * (r - d0) } else { l0 };
    let contact = first_contact(shape, from, l1 - from, r, 1e-6 / p1.scale);
    let mut fixed = l1;
    // The normal and how far the end was pushed along it.
    let (normal, depth) = if let Some((p, n)) = contact {
        // Stop on the contact plane; keep the tangential part of the motion. Every shape is
        // convex, so a point on a tangent plane of the inflated shape is outside it.
        let depth = (p - l1).dot(n).max(0.0);
        fixed += n * depth;
        (n, depth)
    } else {
        // A start inside, or a trace that ran out of steps: push the end out.
        let (d1, n1) = shape.distance(fixed);
        if d1 >= r {
            return None;
        }
        fixed += n1 * (r - d1);
        (n1, r - d1)
    };
    let f = with_friction(fixed, l0, l1, normal, depth, c);
    Some(if f.stuck {
        let carry = f1.to_world(l0) - f0.to_world(l0);
        (start + carry) + f1.vector_to_world(f.off)
    } else {
        f1.to_world(f.fixed)
    })
}

/// [`MovingSphere::contact`] on eight particles at a time: every branch becomes a lane
/// mask, each lane computes exactly the scalar operations (same bits).
#[cfg(target_arch = "x86_64")]
mod lanes {
    use super::MovingSphere;
    use std::arch::x86_64::*;

    #[derive(Clone, Copy)]
    struct V3 {
        x: __m256,
        y: __m256,
        z: __m256,
    }

    // SAFETY (every function here): called only from `sphere`, which has AVX.
    #[inline(always)]
    fn splat(v: glam::Vec3) -> V3 {
        unsafe { V3 { x: _mm256_set1_ps(v.x), y: _mm256_set1_ps(v.y), z: _mm256_set1_ps(v.z) } }
    }
    #[inline(always)]
    fn add(a: V3, b: V3) -> V3 {
        unsafe { V3 { x: _mm256_add_ps(a.x, b.x), y: _mm256_add_ps(a.y, b.y), z: _mm256_add_ps(a.z, b.z) } }
    }
    #[inline(always)]
    fn sub(a: V3, b: V3) -> V3 {
        unsafe { V3 { x: _mm256_sub_ps(a.x, b.x), y: _mm256_sub_ps(a.y, b.y), z: _mm256_sub_ps(a.z, b.z) } }
    }
    #[inline(always)]
    fn scale(a: V3, k: __m256) -> V3 {
        unsafe { V3 { x: _mm256_mul_ps(a.x, k), y: _mm256_mul_ps(a.y, k), z: _mm256_mul_ps(a.z, k) } }
    }
    /// `(a.x·b.x + a.y·b.y) + a.z·b.z`, glam's order.
    #[inline(always)]
    fn dot(a: V3, b: V3) -> __m256 {
        unsafe { _mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(a.x, b.x), _mm256_mul_ps(a.y, b.y)), _mm256_mul_ps(a.z, b.z)) }
    }
    /// `m ? a : b` per lane.
    #[inline(always)]
    fn select(m: __m256, a: V3, b: V3) -> V3 {
        unsafe { V3 { x: _mm256_blendv_ps(b.x, a.x, m), y: _mm256_blendv_ps(b.y, a.y, m), z: _mm256_blendv_ps(b.z, a.z, m) } }
    }

    /// [`Filter::may_touch`](super::Filter::may_touch) on the first `w.len()` particles of
    /// `block` (a multiple of 8; `w` their inverse masses), lane for lane the same operations (same bits), as a bit mask (bit
    /// k: particle k, free and maybe touching).
    ///
    /// # Safety
    /// AVX is present.
    #[target_feature(enable = "avx")]
    pub unsafe fn may_touch(block: &super::Block, w: &[f32], f: &super::Filter) -> u64 {
        let n = w.len();
        assert!(n <= super::BLOCK && n % 8 == 0 && block.filled);
        let (zero, one) = (_mm256_setzero_ps(), _mm256_set1_ps(1.0));
        let (centre, near2) = (splat(f.centre), _mm256_set1_ps(f.near2));
        let capsule = f.capsule.as_ref().map(|r| (splat(r.a), splat(r.axis), _mm256_set1_ps(r.inv_axis2), splat(r.c0), _mm256_set1_ps(r.k), _mm256_set1_ps(r.base)));
        let mut mask = 0u64;
        for i in (0..n).step_by(8) {
            // SAFETY: i + 8 ≤ n ≤ BLOCK.
            let load = |a: &[f32; super::BLOCK]| unsafe { _mm256_loadu_ps(a.as_ptr().add(i)) };
            let end = V3 { x: load(&block.end[0]), y: load(&block.end[1]), z: load(&block.end[2]) };
            // SAFETY: as `load`.
            let free = _mm256_cmp_ps::<_CMP_NEQ_OQ>(unsafe { _mm256_loadu_ps(w.as_ptr().add(i)) }, zero);
            let d = sub(end, centre);
            let mut keep = _mm256_and_ps(free, _mm256_cmp_ps::<_CMP_LE_OQ>(dot(d, d), near2));
            if _mm256_movemask_ps(keep) == 0 {
                continue;
            }
            if let Some((a, axis, inv_axis2, c0, k, base)) = capsule {
                let start = V3 { x: load(&block.start[0]), y: load(&block.start[1]), z: load(&block.start[2]) };
                let q = sub(end, a);
                let t = _mm256_max_ps(_mm256_min_ps(_mm256_mul_ps(dot(q, axis), inv_axis2), one), zero);
                let off = sub(q, scale(axis, t));
                let moved = sub(end, start);
                let lever = sub(start, c0);
                let reach = _mm256_add_ps(_mm256_add_ps(base, _mm256_sqrt_ps(dot(moved, moved))), _mm256_mul_ps(k, _mm256_sqrt_ps(dot(lever, lever))));
                keep = _mm256_andnot_ps(_mm256_cmp_ps::<_CMP_GT_OQ>(dot(off, off), _mm256_mul_ps(reach, reach)), keep);
            }
            mask |= (_mm256_movemask_ps(keep) as u64) << i;
        }
        mask
    }

    /// Particles `range` in groups of 8; returns where the groups stopped (the rest is for
    /// the scalar loop).
    #[target_feature(enable = "avx")]
    pub unsafe fn sphere(pos: [&mut [f32]; 3], prev: [&[f32]; 3], w: &[f32], range: std::ops::Range<usize>, s: &MovingSphere) -> usize {
        let [x, y, z] = pos;
        let n = range.end.min(x.len()).min(y.len()).min(z.len()).min(w.len()).min(prev.iter().map(|p| p.len()).min().unwrap_or(0));
        let set = |v: f32| _mm256_set1_ps(v);
        let (zero, one) = (_mm256_setzero_ps(), set(1.0));
        let (c0, c1) = (splat(s.p0.position), splat(s.p1.position));
        let scale0 = set(s.p0.scale);
        let (inv0, inv1, rho, rho2, inv_rho) = (set(s.inv0), set(s.inv1), set(s.rho), set(s.rho2), set(s.inv_rho));
        let (tiny, up) = (set(1e-12), splat(glam::Vec3::Y));
        let (mu_s, mu_k, scale1) = (set(s.c.static_friction), set(s.c.kinetic_friction), set(s.p1.scale));
        let mut i = range.start;
        while i + 8 <= n {
            // SAFETY: i + 8 ≤ n, within every slice.
            let load = |a: &[f32]| unsafe { _mm256_loadu_ps(a.as_ptr().add(i)) };
            let start = V3 { x: load(prev[0]), y: load(prev[1]), z: load(prev[2]) };
            let end = V3 { x: load(x), y: load(y), z: load(z) };
            let free = _mm256_cmp_ps::<_CMP_NEQ_UQ>(load(w), zero);
            let l0 = scale(sub(start, c0), inv0);
            let l1 = scale(sub(end, c1), inv1);
            let d0sq = dot(l0, l0);
            let l1sq = dot(l1, l1);
            let inside0 = _mm256_cmp_ps::<_CMP_LT_OQ>(d0sq, rho2);
            let end_out = _mm256_cmp_ps::<_CMP_GE_OQ>(l1sq, rho2);
            // The cheap rejection of a start outside (see `contact`).
            let seg0 = sub(l1, l0);
            let (a0, b0) = (dot(seg0, seg0), dot(l0, seg0));
            let miss = _mm256_or_ps(
                _mm256_or_ps(_mm256_cmp_ps::<_CMP_GE_OQ>(b0, zero), _mm256_cmp_ps::<_CMP_LE_OQ>(b0, _mm256_sub_ps(zero, a0))),
                _mm256_cmp_ps::<_CMP_GE_OQ>(_mm256_sub_ps(_mm256_mul_ps(a0, d0sq), _mm256_mul_ps(b0, b0)), _mm256_mul_ps(a0, rho2)),
            );
            let rejected = _mm256_andnot_ps(inside0, _mm256_and_ps(end_out, miss));
            let active = _mm256_andnot_ps(rejected, free);
            if _mm256_movemask_ps(active) == 0 {
                i += 8;
                continue;
            }
            // Push a start inside out along its ray.
            let len0 = _mm256_sqrt_ps(d0sq);
            let n0 = select(_mm256_cmp_ps::<_CMP_GT_OQ>(len0, tiny), scale(l0, _mm256_div_ps(one, len0)), up);
            let from = select(inside0, add(l0, scale(n0, _mm256_sub_ps(rho, len0))), l0);
            let seg = sub(l1, from);
            let a = dot(seg, seg);
            let b = dot(from, seg);
            let cc = _mm256_sub_ps(dot(from, from), rho2);
            let disc = _mm256_sub_ps(_mm256_mul_ps(b, b), _mm256_mul_ps(a, cc));
            let neg_b = _mm256_xor_ps(b, _mm256_set1_ps(-0.0));
            let t = _mm256_div_ps(_mm256_sub_ps(neg_b, _mm256_sqrt_ps(disc)), a);
            let roots = _mm256_and_ps(_mm256_cmp_ps::<_CMP_GT_OQ>(a, zero), _mm256_cmp_ps::<_CMP_GE_OQ>(disc, zero));
            let hit = _mm256_and_ps(roots, _mm256_and_ps(_mm256_cmp_ps::<_CMP_GE_OQ>(t, zero), _mm256_cmp_ps::<_CMP_LE_OQ>(t, one)));
            let p = add(from, scale(seg, t));
            let n_hit = scale(p, inv_rho);
            let depth_hit = _mm256_max_ps(dot(sub(p, l1), n_hit), zero);
            // No entry found: push the end out (if it is inside).
            let len1 = _mm256_sqrt_ps(l1sq);
            let n_end = select(_mm256_cmp_ps::<_CMP_GT_OQ>(len1, tiny), scale(l1, _mm256_div_ps(one, len1)), up);
            let depth_end = _mm256_sub_ps(rho, len1);
            let touch = _mm256_and_ps(active, _mm256_or_ps(hit, _mm256_cmp_ps::<_CMP_NGE_UQ>(l1sq, rho2)));
            if _mm256_movemask_ps(touch) == 0 {
                i += 8;
                continue;
            }
            let normal = select(hit, n_hit, n_end);
            let depth = _mm256_blendv_ps(depth_end, depth_hit, hit);
            let fixed = add(l1, scale(normal, depth));
            // Friction (see `with_friction`).
            let moved = sub(fixed, l0);
            let along = dot(moved, normal);
            let off = scale(normal, along);
            let tangential = sub(moved, off);
            let slide2 = dot(tangential, tangential);
            let approach = dot(sub(l0, l1), normal);
            let press = _mm256_blendv_ps(depth, approach, _mm256_cmp_ps::<_CMP_GT_OQ>(approach, depth));
            let hold = _mm256_mul_ps(mu_s, press);
            let sticks = _mm256_or_ps(_mm256_cmp_ps::<_CMP_LT_OQ>(slide2, _mm256_mul_ps(hold, hold)), _mm256_cmp_ps::<_CMP_EQ_OQ>(slide2, zero));
            let kinetic = _mm256_min_ps(_mm256_div_ps(_mm256_mul_ps(mu_k, press), _mm256_sqrt_ps(slide2)), one);
            // Sliding: through the collider's frame; sticking: carried with it (see `contact`).
            let slid_end = add(scale(sub(fixed, scale(tangential, kinetic)), scale1), c1);
            let base = if s.moving { add(start, sub(add(scale(l0, scale1), c1), add(scale(l0, scale0), c0))) } else { start };
            let stuck_end = add(base, scale(off, scale1));
            let out = select(touch, select(sticks, stuck_end, slid_end), end);
            // SAFETY: as the loads.
            unsafe {
                _mm256_storeu_ps(x.as_mut_ptr().add(i), out.x);
                _mm256_storeu_ps(y.as_mut_ptr().add(i), out.y);
                _mm256_storeu_ps(z.as_mut_ptr().add(i), out.z);
            }
            i += 8;
        }
        i
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::Quat;

    const NO_FRICTION: ContactParams = ContactParams { thickness: 0.0, static_friction: 0.0, kinetic_friction: 0.0 };

    /// The eight-lane sphere contact gives the scalar one's bits, for paths that miss, graze,
    /// enter, start inside, rest on the surface, sit at the centre, are pinned, or stand still,
    /// against a moving sphere and a still one.
    #[test]
    fn sphere_lanes_match_the_scalar_contact_bit_for_bit() {
        let p0 = Pose { position: Vec3::new(0.1, -0.2, 0.05), scale: 1.5, ..Pose::IDENTITY };
        sphere_lanes_match(p0, Pose { position: Vec3::new(0.12, -0.2, 0.0), scale: 1.5, ..Pose::IDENTITY });
        sphere_lanes_match(p0, p0);
    }

    fn sphere_lanes_match(p0: Pose, p1: Pose) {
        let c = ContactParams { thickness: 0.01, static_friction: 0.6, kinetic_friction: 0.4 };
        let radius = 0.4;
        let n = 203;
        let mut seed = 0x2545f491u32;
        let mut rnd = move || {
            seed ^= seed << 13;
            seed ^= seed >> 17;
            seed ^= seed << 5;
            seed as f32 / u32::MAX as f32 * 2.0 - 1.0
        };
        let (mut start, mut end) = (Vec::new(), Vec::new());
        for i in 0..n {
            let a = Vec3::new(rnd(), rnd(), rnd()) * 0.9 + p0.position;
            let b = match i % 7 {
                0 => a,                                                  // still
                1 => a + Vec3::new(rnd(), rnd(), rnd()) * 0.02,          // small step
                2 => p1.position + (a - p0.position).normalize() * 0.61, // on the surface
                3 => p1.position,                                        // at the centre
                _ => a + Vec3::new(rnd(), rnd(), rnd()) * 0.5,           // long path
            };
            start.push(if i % 11 == 3 { p0.position } else { a });
            end.push(b);
        }
        let w: Vec<f32> = (0..n).map(|i| if i % 13 == 0 { 0.0 } else { 1.0 }).collect();
        let split = |v: &[Vec3]| [0, 1, 2].map(|k| v.iter().map(|p| p[k]).collect::<Vec<f32>>());
        let prev = split(&start);
        let mut soa = split(&end);
        let [x, y, z] = &mut soa;
        collide_soa([x, y, z], [&prev[0], &prev[1], &prev[2]], &w, 0..n, &Shape::Sphere { radius }, &p0, &p1, &c);
        let sphere = MovingSphere::new(radius, &p0, &p1, &c);
        let mut touched = 0;
        for i in 0..n {
            let want = if w[i] != 0.0 { sphere.contact(start[i], end[i]) } else { None };
            touched += want.is_some() as usize;
            let want = want.unwrap_or(end[i]);
            assert_eq!([soa[0][i], soa[1][i], soa[2][i]].map(f32::to_bits), want.to_array().map(f32::to_bits), "particle {i}");
        }
        assert!(touched > n / 4, "the cases must include contacts ({touched})");
    }

    /// `collide` on a tapered capsule, with its rejection test, gives the bits of `contact` on
    /// every particle (the reference: no test but the bounding sphere's), for a capsule that
    /// moves, turns and grows over the substep, and for one that stands still; the clouds
    /// hold contacts, particles the test skips and particles it must not skip.
    #[test]
    fn capsule_filter_skips_only_particles_that_cannot_touch() {
        let p0 = Pose { rotation: Quat::from_rotation_z(0.3), position: Vec3::new(0.1, 0.9, -0.2), scale: 1.0 };
        let turned = Pose { rotation: Quat::from_rotation_z(0.34) * Quat::from_rotation_x(0.05), position: Vec3::new(0.104, 0.897, -0.2), scale: 1.02 };
        for (p1, shape) in [
            (turned, Shape::Capsule { half_height: 0.22, radius0: 0.056, radius1: 0.08 }),
            (p0, Shape::Capsule { half_height: 0.15, radius0: 0.12, radius1: 0.14 }),
            // One sphere swallows the other: the shape is the larger sphere.
            (turned, Shape::Capsule { half_height: 0.01, radius0: 0.05, radius1: 0.09 }),
        ] {
            capsule_rejection_matches(&shape, p0, p1);
        }
    }

    fn capsule_rejection_matches(shape: &Shape, p0: Pose, p1: Pose) {
        let c = ContactParams { thickness: 0.012, static_friction: 0.5, kinetic_friction: 0.4 };
        let mut seed = 0x9e3779b9u32;
        let mut rnd = move || {
            seed ^= seed << 13;
            seed ^= seed >> 17;
            seed ^= seed << 5;
            seed as f32 / u32::MAX as f32 * 2.0 - 1.0
        };
        let n = 4000;
        let reach = shape.bounding_radius();
        let (mut start, mut end) = (Vec::new(), Vec::new());
        for i in 0..n {
            // Within the bounding sphere (where the reference tests every particle), many of
            // them a few millimetres from the surface.
            let a = p0.position + Vec3::new(rnd(), rnd(), rnd()) * (reach + 0.05);
            let step = match i % 4 {
                0 => Vec3::ZERO,
                1 => Vec3::new(rnd(), rnd(), rnd()) * 0.003,
                2 => Vec3::new(rnd(), rnd(), rnd()) * 0.02,
                _ => Vec3::new(rnd(), rnd(), rnd()) * 0.1,
            };
            start.push(a);
            end.push(a + step);
        }
        let w: Vec<f32> = (0..n).map(|i| if i % 17 == 0 { 0.0 } else { 1.0 }).collect();
        let mut x = end.clone();
        let max_move = 0.2;
        collide_many(&mut x, &start, &w, &[Swept { shape, p0, p1 }], &c, max_move);
        let far = CapsuleReject::new(shape, &p0, &p1, &c).expect("a capsule");
        let (mut touched, mut skipped) = (0, 0);
        for i in 0..n {
            let want = if w[i] != 0.0 { contact(start[i], end[i], shape, &p0, &p1, &c) } else { None };
            touched += want.is_some() as usize;
            skipped += (w[i] != 0.0 && far.rejects(start[i], end[i])) as usize;
            assert_eq!(x[i].to_array().map(f32::to_bits), want.unwrap_or(end[i]).to_array().map(f32::to_bits), "particle {i}");
        }
        assert!(touched > n / 40 && skipped > n / 4 && touched + skipped < n * 95 / 100, "contacts {touched}, skipped {skipped} of {n}");
    }

    /// `collide_many` gives the bits of one `collide` after another, on particles that meet
    /// several of its colliders in one substep (capsules that overlap, a turning box, a still
    /// sphere, a moving one, one far from every particle, more colliders than one group holds)
    /// and a count of particles that leaves a part-block and a part-lane group.
    #[test]
    fn collide_many_matches_collide_one_after_another() {
        let c = ContactParams { thickness: 0.01, static_friction: 0.5, kinetic_friction: 0.4 };
        let at = |x: f32, y: f32, z: f32, turn: f32| Pose { rotation: Quat::from_rotation_z(turn) * Quat::from_rotation_x(0.5 * turn), position: Vec3::new(x, y, z), scale: 1.0 };
        let shapes = [
            Shape::Capsule { half_height: 0.2, radius0: 0.05, radius1: 0.08 },
            Shape::Box { half_extents: Vec3::new(0.1, 0.05, 0.2) },
            Shape::Sphere { radius: 0.15 },
            Shape::Capsule { half_height: 0.15, radius0: 0.12, radius1: 0.1 },
        ];
        let mut colliders = Vec::new();
        for k in 0..19 {
            let f = k as f32 * 0.05;
            let (p0, mut p1) = (at(0.1 * f, 0.05 * f, -0.1 * f, f), at(0.1 * f + 0.01, 0.05 * f, -0.1 * f, f + 0.03));
            if k == 2 {
                p1 = p0; // a still sphere: `MovingSphere`'s own path
            }
            colliders.push(Swept { shape: &shapes[k % 4], p0, p1 });
        }
        // Far from every particle: its blocks are skipped whole.
        colliders.insert(5, Swept { shape: &shapes[0], p0: at(3.0, 0.0, 0.0, 0.1), p1: at(3.0, 0.01, 0.0, 0.12) });
        let mut seed = 0x1234567u32;
        let mut rnd = move || {
            seed ^= seed << 13;
            seed ^= seed >> 17;
            seed ^= seed << 5;
            seed as f32 / u32::MAX as f32 * 2.0 - 1.0
        };
        let n = 2 * BLOCK + 13;
        let start: Vec<Vec3> = (0..n).map(|_| Vec3::new(rnd() * 0.2 + 0.05, rnd() * 0.2, rnd() * 0.2 - 0.05)).collect();
        let end: Vec<Vec3> = start.iter().map(|&a| a + Vec3::new(rnd(), rnd(), rnd()) * 0.03).collect();
        let w: Vec<f32> = (0..n).map(|i| if i % 9 == 4 { 0.0 } else { 1.0 }).collect();
        let mut want = end.clone();
        for s in &colliders {
            collide(&mut want, &start, &w, s.shape, &s.p0, &s.p1, &c, 0.05);
        }
        let mut got = end.clone();
        collide_many(&mut got, &start, &w, &colliders, &c, 0.05);
        let moved = (0..n).filter(|&i| want[i] != end[i]).count();
        assert!(moved > n / 4, "the cases must hold contacts ({moved} of {n})");
        for i in 0..n {
            assert_eq!(got[i].to_array().map(f32::to_bits), want[i].to_array().map(f32::to_bits), "particle {i}");
        }
    }

    #[test]
    fn fast_particle_stops_on_the_near_side_of_a_thin_box() {
        let shape = Shape::Box { half_extents: Vec3::new(0.005, 1.0, 1.0) };
        // 100 m/s for 1/60 s: from x = −1 to x = +0.67, straight through a 1 cm slab.
        let end = collide_particle(Vec3::new(-1.0, 0.0, 0.0), Vec3::new(0.6667, 0.0, 0.0), &shape, shape.bounding_radius(), &Pose::IDENTITY, &Pose::IDENTITY, &NO_FRICTION).unwrap();
        assert!((end.x + 0.005).abs() < 1e-5, "{end}");
    }

    #[test]
    fn moving_sphere_sweeps_a_resting_particle_away() {
        let shape = Shape::Sphere { radius: 0.1 };
        let p0 = Pose { position: Vec3::new(-0.5, 0.0, 0.0), ..Pose::IDENTITY };
        let p1 = Pose { position: Vec3::new(0.5, 0.0, 0.0), ..Pose::IDENTITY };
        // The sphere passes straight through a particle at rest at the origin.
        let end = collide_particle(Vec3::ZERO, Vec3::ZERO, &shape, 0.1, &p0, &p1, &NO_FRICTION).unwrap();
        // It is pushed ahead of the sphere, onto its leading point.
        assert!((end - Vec3::new(0.6, 0.0, 0.0)).length() < 1e-5, "{end}");
    }

    #[test]
    fn static_friction_holds_below_the_cone() {
        let shape = Shape::Plane;
        let c = ContactParams { thickness: 0.0, static_friction: 1.0, kinetic_friction: 0.8 };
        // Moves 1 mm sideways while pressing 2 mm in: sticks.
        let end = collide_particle(Vec3::new(0.0, 0.0, 0.0), Vec3::new(0.001, -0.002, 0.0), &shape, f32::INFINITY, &Pose::IDENTITY, &Pose::IDENTITY, &c).unwrap();
        assert!(end.length() < 1e-7, "{end}");
    }
}
