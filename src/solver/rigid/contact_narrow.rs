//! Narrow phase of the rigid contacts: closest features between two placed shapes, as
//! contact points `pa` (on the body, shape A), `pb` (on the other shape B), the normal `n`
//! from B towards A and the signed gap `g = (pa − pb)·n` (< 0: overlap). Every test runs in
//! world space on shapes placed at the start-of-substep poses; a feature is reported when
//! `g < margin` (speculative contacts: the margin covers the substep's motion).
//!
//! - **Round shapes** (sphere, tapered capsule) are a core segment `a → b` with a radius
//!   varying linearly from `ra` to `rb`; a sphere is a segment of zero length.
//! - **round–plane**: the gap `(c(t) − p)·n − r(t)` is linear in `t`, so its minimum over the
//!   segment is at an end; both ends within the margin give two contacts (a capsule lying
//!   down rests on two points and does not rock). Exact for tapered capsules.
//! - **round–round**: segment–segment closest points (Ericson, "Real-Time Collision
//!   Detection" §5.1.9) with the radii at those points; nearly parallel segments (under about
//!   0.6°) give the two ends of their overlap instead, so that parallel capsules rest on a
//!   line and not on one wandering point.
//! - **round–box**: the box's signed distance is convex, so `φ(t) = sdf(c(t)) − r(t)` is
//!   convex along the segment and a golden-section search finds its global minimum; the two
//!   ends are reported too (a capsule flat on a box face rests on both), and the interior
//!   minimum only when it is clearly lower than both ends (a capsule across an edge).
//! - **box–plane**: the eight vertices.
//! - **box–box**: the separating-axis test over the 15 axes (three face normals of each box
//!   and the nine edge cross products; face axes preferred unless an edge axis separates
//!   clearly more) gives the normal; the contact points are then found by *projection and
//!   clipping*: every edge of A near the contact is projected along `n` onto B's supporting
//!   plane and clipped against B (Liang–Barsky against B's slabs), and the same for B's
//!   edges onto A's plane. The clipped ends are the contact manifold — face–face (the
//!   corners of the overlap polygon, up to eight for two squares turned 45°), edge–face (two
//!   points) and edge–edge (one point, where the projected edge crosses B's edge) all come
//!   out of the one routine. Points closer than a tolerance are merged.
//!
//! Nothing here allocates: features are pushed into the caller's reused buffer.

use crate::geometry::{Pose, Shape};
use crate::math::{Quat, Vec3};

/// One contact point pair; see the module docs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Feature {
    pub pa: Vec3,
    pub pb: Vec3,
    pub n: Vec3,
    pub gap: f32,
}

/// A shape placed in the world (its pose and scale applied).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Placed {
    /// Core segment `a → b`, radius `ra` at `a` and `rb` at `b` (a sphere: `a == b`).
    Round { a: Vec3, b: Vec3, ra: f32, rb: f32 },
    /// Centre, unit axes (the box's local X, Y, Z in the world) and half extents.
    Box { c: Vec3, axes: [Vec3; 3], e: Vec3 },
    /// A point on the plane and its unit normal (solid below).
    Plane { p: Vec3, n: Vec3 },
}

impl Placed {
    pub fn new(shape: &Shape, pose: &Pose) -> Placed {
        let s = pose.scale;
        match *shape {
            Shape::Sphere { radius } => Placed::Round {
                a: pose.position,
                b: pose.position,
                ra: radius * s,
                rb: radius * s,
            },
            Shape::Capsule {
                half_height,
                radius0,
                radius1,
            } => Placed::Round {
                a: pose.to_world(Vec3::new(0.0, -half_height, 0.0)),
                b: pose.to_world(Vec3::new(0.0, half_height, 0.0)),
                ra: radius0 * s,
                rb: radius1 * s,
            },
            Shape::Box { half_extents } => Placed::Box {
                c: pose.position,
                axes: axes(pose.rotation),
                e: half_extents * s,
            },
            Shape::Plane => Placed::Plane {
                p: pose.position,
                n: (pose.rotation * Vec3::Y).normalize(),
            },
        }
    }
}

fn axes(q: Quat) -> [Vec3; 3] {
    [q * Vec3::X, q * Vec3::Y, q * Vec3::Z]
}

/// Pushes the features between body shape `a` and shape `b` (a body's or an obstacle's)
/// with gap below `margin` into `out`. A plane as `a` gives nothing (bodies are not planes).
pub fn collide(a: &Placed, b: &Placed, margin: f32, out: &mut Vec<Feature>) {
    match (*a, *b) {
        (
            Placed::Round {
                a: a0,
                b: a1,
                ra,
                rb,
            },
            Placed::Plane { p, n },
        ) => round_plane(a0, a1, ra, rb, p, n, margin, out),
        (
            Placed::Round {
                a: a0,
                b: a1,
                ra,
                rb,
            },
            Placed::Round {
                a: b0,
                b: b1,
                ra: sa,
                rb: sb,
            },
        ) => round_round([a0, a1], [ra, rb], [b0, b1], [sa, sb], margin, out),
        (
            Placed::Round {
                a: a0,
                b: a1,
                ra,
                rb,
            },
            Placed::Box { c, axes, e },
        ) => round_box([a0, a1], [ra, rb], &BoxW { c, axes, e }, margin, false, out),
        (Placed::Box { c, axes, e }, Placed::Plane { p, n }) => {
            box_plane(&BoxW { c, axes, e }, p, n, margin, out)
        }
        (
            Placed::Box { c, axes, e },
            Placed::Round {
                a: b0,
                b: b1,
                ra,
                rb,
            },
        ) => round_box([b0, b1], [ra, rb], &BoxW { c, axes, e }, margin, true, out),
        (
            Placed::Box { c, axes, e },
            Placed::Box {
                c: c2,
                axes: axes2,
                e: e2,
            },
        ) => box_box(
            &BoxW { c, axes, e },
            &BoxW {
                c: c2,
                axes: axes2,
                e: e2,
            },
            margin,
            out,
        ),
        (Placed::Plane { .. }, _) => {}
    }
}

#[allow(clippy::too_many_arguments)]
fn round_plane(
    a: Vec3,
    b: Vec3,
    ra: f32,
    rb: f32,
    p: Vec3,
    n: Vec3,
    margin: f32,
    out: &mut Vec<Feature>,
) {
    let mut end = |c: Vec3, r: f32| {
        let h = (c - p).dot(n);
        let gap = h - r;
        if gap < margin {
            out.push(Feature {
                pa: c - n * r,
                pb: c - n * h,
                n,
                gap,
            });
        }
    };
    end(a, ra);
    if a != b {
        end(b, rb);
    }
}

/// Parameters `(s, t)` of the closest points of segments `p1 + s·d1` and `p2 + t·d2`
/// (Ericson §5.1.9, with the degenerate cases).
pub fn closest_segments(p1: Vec3, q1: Vec3, p2: Vec3, q2: Vec3) -> (f32, f32) {
    let d1 = q1 - p1;
    let d2 = q2 - p2;
    let r = p1 - p2;
    let a = d1.length_squared();
    let e = d2.length_squared();
    let f = d2.dot(r);
    const EPS: f32 = 1e-12;
    if a <= EPS && e <= EPS {
        return (0.0, 0.0);
    }
    if a <= EPS {
        return (0.0, (f / e).clamp(0.0, 1.0));
    }
    let c = d1.dot(r);
    if e <= EPS {
        return ((-c / a).clamp(0.0, 1.0), 0.0);
    }
    let b = d1.dot(d2);
    let denom = a * e - b * b;
    let mut s = if denom > EPS * a * e {
        ((b * f - c * e) / denom).clamp(0.0, 1.0)
    } else {
        0.0
    };
    let mut t = (b * s + f) / e;
    if t < 0.0 {
        t = 0.0;
        s = (-c / a).clamp(0.0, 1.0);
    } else if t > 1.0 {
        t = 1.0;
        s = ((b - c) / a).clamp(0.0, 1.0);
    }
    (s, t)
}

/// Parameter of the point of segment `a → b` closest to `p`.
pub fn closest_on_segment(p: Vec3, a: Vec3, b: Vec3) -> f32 {
    let d = b - a;
    let l2 = d.length_squared();
    if l2 <= 1e-12 {
        0.0
    } else {
        ((p - a).dot(d) / l2).clamp(0.0, 1.0)
    }
}

/// A contact between two spheres (centres `ca`, `cb`, radii `ra`, `rb`).
fn sphere_pair(
    ca: Vec3,
    ra: f32,
    cb: Vec3,
    rb: f32,
    fallback: Vec3,
    margin: f32,
    out: &mut Vec<Feature>,
) {
    let d = ca - cb;
    let dist = d.length();
    let n = if dist > 1e-9 { d / dist } else { fallback };
    let gap = dist - ra - rb;
    if gap < margin {
        out.push(Feature {
            pa: ca - n * ra,
            pb: cb + n * rb,
            n,
            gap,
        });
    }
}

fn round_round(
    a: [Vec3; 2],
    ra: [f32; 2],
    b: [Vec3; 2],
    rb: [f32; 2],
    margin: f32,
    out: &mut Vec<Feature>,
) {
    let da = a[1] - a[0];
    let db = b[1] - b[0];
    let (la2, lb2) = (da.length_squared(), db.length_squared());
    let fallback = if la2 > 1e-12 {
        da.any_orthonormal_vector()
    } else if lb2 > 1e-12 {
        db.any_orthonormal_vector()
    } else {
        Vec3::Y
    };
    let lerp = |r: [f32; 2], t: f32| r[0] + (r[1] - r[0]) * t;
    if la2 > 1e-12 && lb2 > 1e-12 && da.cross(db).length_squared() <= 1e-4 * la2 * lb2 {
        // Nearly parallel: the two ends of the overlap of B's projection on A.
        let s0 = (b[0] - a[0]).dot(da) / la2;
        let s1 = (b[1] - a[0]).dot(da) / la2;
        let (lo, hi) = (s0.min(s1).max(0.0), s0.max(s1).min(1.0));
        if (hi - lo) * la2.sqrt() > 1e-3 * (ra[0] + ra[1]).max(1e-4) {
            for s in [lo, hi] {
                let ca = a[0] + da * s;
                let t = closest_on_segment(ca, b[0], b[1]);
                sphere_pair(
                    ca,
                    lerp(ra, s),
                    b[0] + db * t,
                    lerp(rb, t),
                    fallback,
                    margin,
                    out,
                );
            }
            return;
        }
    }
    let (s, t) = closest_segments(a[0], a[1], b[0], b[1]);
    sphere_pair(
        a[0] + da * s,
        lerp(ra, s),
        b[0] + db * t,
        lerp(rb, t),
        fallback,
        margin,
        out,
    );
}

/// A box in the world.
#[derive(Clone, Copy, Debug)]
struct BoxW {
    c: Vec3,
    axes: [Vec3; 3],
    e: Vec3,
}

impl BoxW {
    fn to_local(self, p: Vec3) -> Vec3 {
        let d = p - self.c;
        Vec3::new(
            d.dot(self.axes[0]),
            d.dot(self.axes[1]),
            d.dot(self.axes[2]),
        )
    }

    fn dir_to_world(&self, v: Vec3) -> Vec3 {
        self.axes[0] * v.x + self.axes[1] * v.y + self.axes[2] * v.z
    }

    /// Signed distance and outward normal (world) at world point `p`.
    fn sdf(&self, p: Vec3) -> (f32, Vec3) {
        let (d, n) = Shape::Box {
            half_extents: self.e,
        }
        .distance(self.to_local(p));
        (d, self.dir_to_world(n))
    }

    /// Vertex `i` (bit k set: + along axis k).
    fn vertex(&self, i: usize) -> Vec3 {
        let s = |k: usize| if i & (1 << k) != 0 { 1.0 } else { -1.0 };
        self.c
            + self.axes[0] * (s(0) * self.e.x)
            + self.axes[1] * (s(1) * self.e.y)
            + self.axes[2] * (s(2) * self.e.z)
    }

    fn vertices(&self) -> [Vec3; 8] {
        std::array::from_fn(|i| self.vertex(i))
    }

    /// Half the box's extent along unit `l`.
    fn radius_along(&self, l: Vec3) -> f32 {
        self.e.x * self.axes[0].dot(l).abs()
            + self.e.y * self.axes[1].dot(l).abs()
            + self.e.z * self.axes[2].dot(l).abs()
    }

    /// The part `[t0, t1]` of segment `p → q` inside the box grown by `tol` (Liang–Barsky).
    fn clip(&self, p: Vec3, q: Vec3, tol: f32) -> Option<(f32, f32)> {
        let (lp, lq) = (self.to_local(p), self.to_local(q));
        let (mut t0, mut t1) = (0.0f32, 1.0f32);
        for k in 0..3 {
            let (o, d, e) = (lp[k], lq[k] - lp[k], self.e[k] + tol);
            if d.abs() < 1e-12 {
                if o.abs() > e {
                    return None;
                }
                continue;
            }
            let (mut ta, mut tb) = ((-e - o) / d, (e - o) / d);
            if ta > tb {
                std::mem::swap(&mut ta, &mut tb);
            }
            t0 = t0.max(ta);
            t1 = t1.min(tb);
            if t0 > t1 {
                return None;
            }
        }
        Some((t0, t1))
    }
}

/// The 12 edges of a box as vertex index pairs.
const EDGES: [(usize, usize); 12] = [
    (0, 1),
    (2, 3),
    (4, 5),
    (6, 7),
    (0, 2),
    (1, 3),
    (4, 6),
    (5, 7),
    (0, 4),
    (1, 5),
    (2, 6),
    (3, 7),
];

/// Golden-section iterations of the round–box search (interval shrinks to 0.618³⁰ ≈ 5e-7).
const GOLDEN_STEPS: usize = 30;

fn round_box(
    a: [Vec3; 2],
    r: [f32; 2],
    bx: &BoxW,
    margin: f32,
    flip: bool,
    out: &mut Vec<Feature>,
) {
    let phi = |t: f32| {
        let c = a[0].lerp(a[1], t);
        let rad = r[0] + (r[1] - r[0]) * t;
        let (d, n) = bx.sdf(c);
        (d - rad, c, rad, d, n)
    };
    let mut emit = |(gap, c, rad, d, n): (f32, Vec3, f32, f32, Vec3)| {
        if gap < margin {
            let (pa, pb) = (c - n * rad, c - n * d);
            out.push(if flip {
                Feature {
                    pa: pb,
                    pb: pa,
                    n: -n,
                    gap,
                }
            } else {
                Feature { pa, pb, n, gap }
            });
        }
    };
    let f0 = phi(0.0);
    if a[0] == a[1] {
        emit(f0);
        return;
    }
    let f1 = phi(1.0);
    // Golden-section search for the minimum of the convex φ on [0, 1].
    let g = 0.5 * (5f32.sqrt() - 1.0);
    let (mut lo, mut hi) = (0.0f32, 1.0f32);
    let (mut x1, mut x2) = (hi - g * (hi - lo), lo + g * (hi - lo));
    let (mut y1, mut y2) = (phi(x1).0, phi(x2).0);
    for _ in 0..GOLDEN_STEPS {
        if y1 <= y2 {
            hi = x2;
            x2 = x1;
            y2 = y1;
            x1 = hi - g * (hi - lo);
            y1 = phi(x1).0;
        } else {
            lo = x1;
            x1 = x2;
            y1 = y2;
            x2 = lo + g * (hi - lo);
            y2 = phi(x2).0;
        }
    }
    let tm = 0.5 * (lo + hi);
    let fm = phi(tm);
    let len = (a[1] - a[0]).length();
    let clearly_lower = fm.0 < f0.0.min(f1.0) - 1e-4 * (1.0 + len);
    emit(f0);
    emit(f1);
    if clearly_lower && tm * len > 0.02 * len && (1.0 - tm) * len > 0.02 * len {
        emit(fm);
    }
}

fn box_plane(bx: &BoxW, p: Vec3, n: Vec3, margin: f32, out: &mut Vec<Feature>) {
    for v in bx.vertices() {
        let gap = (v - p).dot(n);
        if gap < margin {
            out.push(Feature {
                pa: v,
                pb: v - n * gap,
                n,
                gap,
            });
        }
    }
}

fn box_box(a: &BoxW, b: &BoxW, margin: f32, out: &mut Vec<Feature>) {
    let d = a.c - b.c;
    // Separating-axis test: the axis of largest separation (least overlap), oriented B → A.
    let sep = |l: Vec3| {
        let l = if l.dot(d) < 0.0 { -l } else { l };
        (l.dot(d) - a.radius_along(l) - b.radius_along(l), l)
    };
    let mut best = sep(a.axes[0]);
    for l in [a.axes[1], a.axes[2], b.axes[0], b.axes[1], b.axes[2]] {
        let s = sep(l);
        if s.0 > best.0 {
            best = s;
        }
    }
    let face_best = best.0;
    for i in 0..3 {
        for j in 0..3 {
            let l = a.axes[i].cross(b.axes[j]);
            let len2 = l.length_squared();
            if len2 < 1e-6 {
                continue;
            }
            let s = sep(l / len2.sqrt());
            // An edge axis wins only when it separates clearly more than every face axis
            // (face contacts are the stable manifolds).
            if s.0 > best.0 && s.0 > face_best + 1e-4 + 0.05 * face_best.abs() {
                best = s;
            }
        }
    }
    let (gap_sat, n) = best;
    if gap_sat >= margin {
        return;
    }
    let size = a.e.max_element().max(b.e.max_element());
    let clip_tol = 1e-5 * (1.0 + size);
    let merge_tol = 1e-4 + 1e-3 * a.e.min_element().min(b.e.min_element());
    let start = out.len();
    // A's edges onto B's supporting plane along n, clipped against B.
    let b_plane = n.dot(b.c) + b.radius_along(n);
    project_edges(
        a, b, n, b_plane, margin, clip_tol, merge_tol, false, start, out,
    );
    // B's edges onto A's supporting plane along −n, clipped against A.
    let a_plane = -(n.dot(a.c) - a.radius_along(n));
    project_edges(
        b, a, -n, a_plane, margin, clip_tol, merge_tol, true, start, out,
    );
}

/// Projects the edges of `own` near the plane `x·m = plane` along `m` onto it, clips them
/// against `other` and pushes the clipped ends (flipped to B → A orientation when `own` is B).
#[allow(clippy::too_many_arguments)]
fn project_edges(
    own: &BoxW,
    other: &BoxW,
    m: Vec3,
    plane: f32,
    margin: f32,
    clip_tol: f32,
    merge_tol: f32,
    flip: bool,
    start: usize,
    out: &mut Vec<Feature>,
) {
    let v = own.vertices();
    let g: [f32; 8] = std::array::from_fn(|i| v[i].dot(m) - plane);
    for &(i, j) in &EDGES {
        if g[i].min(g[j]) >= margin {
            continue;
        }
        let (pi, pj) = (v[i] - m * g[i], v[j] - m * g[j]);
        let Some((t0, t1)) = other.clip(pi, pj, clip_tol) else {
            continue;
        };
        for t in [t0, t1] {
            let gap = g[i] + (g[j] - g[i]) * t;
            if gap >= margin {
                continue;
            }
            let (p_own, p_other) = (v[i].lerp(v[j], t), pi.lerp(pj, t));
            let f = if flip {
                Feature {
                    pa: p_other,
                    pb: p_own,
                    n: -m,
                    gap,
                }
            } else {
                Feature {
                    pa: p_own,
                    pb: p_other,
                    n: m,
                    gap,
                }
            };
            if !out[start..]
                .iter()
                .any(|o| (o.pa - f.pa).length_squared() < merge_tol * merge_tol)
            {
                out.push(f);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn boxed(c: Vec3, q: Quat, e: Vec3) -> Placed {
        Placed::new(
            &Shape::Box { half_extents: e },
            &Pose {
                rotation: q,
                position: c,
                scale: 1.0,
            },
        )
    }

    fn run(a: &Placed, b: &Placed, margin: f32) -> Vec<Feature> {
        let mut out = Vec::new();
        collide(a, b, margin, &mut out);
        out
    }

    fn consistent(f: &Feature) {
        assert!(((f.pa - f.pb).dot(f.n) - f.gap).abs() < 1e-5, "{f:?}");
        assert!((f.n.length() - 1.0).abs() < 1e-5);
    }

    #[test]
    fn aligned_boxes_face_to_face_give_the_four_corners_of_the_overlap() {
        let e = Vec3::splat(0.5);
        for (ea, dx) in [
            (Vec3::splat(0.5), 0.0),
            (Vec3::splat(0.3), 0.1),
            (Vec3::splat(0.5), 0.2),
        ] {
            let a = boxed(Vec3::new(dx, 0.5 + ea.y - 0.01, 0.0), Quat::IDENTITY, ea);
            let b = boxed(Vec3::ZERO, Quat::IDENTITY, e);
            let f = run(&a, &b, 0.001);
            assert_eq!(f.len(), 4, "{f:?}");
            for c in &f {
                consistent(c);
                assert!((c.n - Vec3::Y).length() < 1e-6);
                assert!((c.gap + 0.01).abs() < 1e-5);
            }
        }
    }

    #[test]
    fn squares_turned_45_degrees_touch_at_the_octagon() {
        let e = Vec3::splat(0.5);
        let a = boxed(
            Vec3::new(0.0, 0.999, 0.0),
            Quat::from_rotation_y(std::f32::consts::FRAC_PI_4),
            e,
        );
        let b = boxed(Vec3::ZERO, Quat::IDENTITY, e);
        let f = run(&a, &b, 0.01);
        assert_eq!(f.len(), 8, "{f:?}");
        for c in &f {
            consistent(c);
            assert!((c.gap + 0.001).abs() < 1e-5);
            // Every point lies on the boundary of both squares' footprints.
            let l = c.pb;
            assert!(l.x.abs() <= 0.5 + 1e-4 && l.z.abs() <= 0.5 + 1e-4);
        }
    }

    #[test]
    fn crossed_edges_give_one_point_at_their_distance() {
        // A box balanced on an edge above another box's edge, the edges crossed at 90°.
        let e = Vec3::splat(0.5);
        let r = std::f32::consts::FRAC_PI_4;
        let b = boxed(Vec3::ZERO, Quat::from_rotation_z(r), e);
        let gap = 0.02;
        let h = 2.0 * 0.5 * 2f32.sqrt() + gap;
        let a = boxed(Vec3::new(0.0, h, 0.0), Quat::from_rotation_x(r), e);
        let f = run(&a, &b, 0.05);
        assert_eq!(f.len(), 1, "{f:?}");
        consistent(&f[0]);
        assert!(
            (f[0].gap - gap).abs() < 1e-4 && (f[0].n - Vec3::Y).length() < 1e-3,
            "{f:?}"
        );
    }

    #[test]
    fn capsule_lying_on_a_box_rests_on_both_ends_and_crossing_an_edge_on_the_edge() {
        let bx = boxed(Vec3::ZERO, Quat::IDENTITY, Vec3::new(1.0, 0.5, 1.0));
        let cap = |q: Quat, c: Vec3| {
            Placed::new(
                &Shape::Capsule {
                    half_height: 0.3,
                    radius0: 0.1,
                    radius1: 0.1,
                },
                &Pose {
                    rotation: q,
                    position: c,
                    scale: 1.0,
                },
            )
        };
        let lying = cap(
            Quat::from_rotation_z(std::f32::consts::FRAC_PI_2),
            Vec3::new(0.0, 0.6, 0.0),
        );
        let f = run(&lying, &bx, 0.01);
        assert_eq!(f.len(), 2);
        for c in &f {
            consistent(c);
            assert!(c.gap.abs() < 1e-5 && (c.n - Vec3::Y).length() < 1e-5);
        }
        // Tilted over the box's edge at x = 1: the closest point is on the edge, inside.
        let tilted = cap(Quat::from_rotation_z(1.2), Vec3::new(1.0, 0.7, 0.0));
        let f = run(&tilted, &bx, 1.0);
        let brute = (0..=2000)
            .map(|k| {
                let t = k as f32 / 2000.0;
                let Placed::Round { a, b, ra, .. } = tilted else {
                    unreachable!()
                };
                Shape::Box {
                    half_extents: Vec3::new(1.0, 0.5, 1.0),
                }
                .distance(a.lerp(b, t))
                .0 - ra
            })
            .fold(f32::INFINITY, f32::min);
        let got = f.iter().map(|c| c.gap).fold(f32::INFINITY, f32::min);
        assert!((got - brute).abs() < 1e-4, "{got} vs {brute}");
    }

    #[test]
    fn tapered_capsule_on_a_plane_matches_the_shape_distance() {
        let shape = Shape::Capsule {
            half_height: 0.4,
            radius0: 0.15,
            radius1: 0.05,
        };
        let pose = Pose {
            rotation: Quat::from_rotation_z(0.7),
            position: Vec3::new(0.0, 0.3, 0.0),
            scale: 1.0,
        };
        let plane = Placed::Plane {
            p: Vec3::ZERO,
            n: Vec3::Y,
        };
        let f = run(&Placed::new(&shape, &pose), &plane, 1.0);
        let got = f.iter().map(|c| c.gap).fold(f32::INFINITY, f32::min);
        // Brute force: the round cone is the union of spheres along its axis with linearly
        // varying radius; its lowest point is the lowest of theirs.
        let mut lowest = f32::INFINITY;
        for k in 0..=20000 {
            let t = k as f32 / 20000.0;
            let c = pose.to_world(Vec3::new(0.0, -0.4 + 0.8 * t, 0.0));
            lowest = lowest.min(c.y - (0.15 + (0.05 - 0.15) * t));
        }
        assert!((got - lowest).abs() < 1e-5, "{got} vs {lowest}");
    }

    #[test]
    fn parallel_capsules_touch_along_their_overlap() {
        let cap = |c: Vec3| {
            Placed::new(
                &Shape::Capsule {
                    half_height: 0.3,
                    radius0: 0.1,
                    radius1: 0.1,
                },
                &Pose {
                    rotation: Quat::IDENTITY,
                    position: c,
                    scale: 1.0,
                },
            )
        };
        let f = run(&cap(Vec3::new(0.15, 0.2, 0.0)), &cap(Vec3::ZERO), 0.01);
        assert_eq!(f.len(), 2);
        let ys: Vec<f32> = f.iter().map(|c| c.pa.y).collect();
        assert!(
            (ys[0] - (-0.1)).abs() < 1e-5 && (ys[1] - 0.3).abs() < 1e-5,
            "{ys:?}"
        );
        for c in &f {
            consistent(c);
            assert!((c.gap + 0.05).abs() < 1e-5);
        }
    }
}
