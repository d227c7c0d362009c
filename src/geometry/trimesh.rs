//! A static triangle mesh for level geometry, with a bounding-volume hierarchy: plain data
//! and queries, no world knowledge. Colliders (`crate::collider`), the particle contact
//! kernel (`solver/contact/mesh.rs`) and (next) the rigid-body solver query it.
//!
//! **Orientation.** Each triangle `(a, b, c)` has the face normal `n = (b − a) × (c − a)`,
//! normalised: counter-clockwise seen from the front in right-handed coordinates (OpenGL),
//! which is the same formula as Unity's `Vector3.Cross(b − a, c − a)` for its clockwise front
//! faces in left-handed coordinates, so a Unity mesh's triangles pass as they are. The side the
//! normal points to is *outside*. Meshes for level geometry may be open (a floor, a
//! wall, a terrain patch); nothing assumes a closed surface. A contact only ever pushes towards
//! a triangle's front; a point well behind a triangle (farther than the contact's thickness) is
//! on the other side of an open surface, or inside a closed one, and is left alone, so nothing
//! is pulled through a wall from behind.
//!
//! **Validation** ([`TriMesh::new`]): at least one triangle, `indices.len()` a multiple of 3,
//! every index below the vertex count (`OutOfRange`), every vertex finite (`NonFinite`) and
//! within the world's extent, ±`MAX_COORDINATE`. A degenerate triangle (two equal indices, or
//! its smallest height below 1e-6 of its longest edge: no normal to speak of) is refused with
//! `InvalidArgument` naming its index, unless the mesh is built with
//! [`Degenerate::Skip`]; then it is left out of the hierarchy (it keeps its index, queries never
//! return it) and counted in [`TriMesh::skipped`].
//!
//! **Hierarchy.** Binned SAH (16 bins on the longest axis of the centroids' bounds) over the
//! triangles' bounding boxes, at most [`LEAF_SIZE`] triangles a leaf, falling back to a median
//! split by centroid (ties by triangle index) where no bin boundary separates them; the nodes
//! in one flat array in depth-first order (a node's first child follows it). The build is
//! sequential and uses only comparisons and sums in a fixed order: the same input gives the
//! same nodes. Depth is at most [`MAX_DEPTH`]: a node at that depth becomes a leaf whatever its
//! size (still correct, only slower to query; SAH on real meshes stays far shallower, and the
//! median fallback halves the count at each level). Queries traverse with a fixed-size stack of `MAX_DEPTH + 1` entries: no
//! allocation per query.
//!
//! **Queries** (all in the mesh's own coordinates):
//! - [`TriMesh::closest_point`]: the nearest point of the mesh within a distance, with the
//!   triangle's face normal and the distance signed by the side of that triangle's plane;
//! - [`TriMesh::for_each_triangle_overlapping`]: every triangle whose bounding box overlaps a
//!   box (for a rigid body's own narrow phase);
//! - [`TriMesh::sweep_sphere`]: the first time a sphere moving along a segment reaches the front
//!   of a triangle, so that a fast particle or bone does not pass through a thin wall.

use crate::error::{Error, ErrorKind, Result, check_positions};
use crate::math::Vec3;

/// Most triangles in a leaf.
pub const LEAF_SIZE: usize = 4;

/// The triangles a query may still test, and whether one ran out ([`TriMesh::closest_point_within`],
/// [`TriMesh::sweep_sphere_within`]). A query's cost grows with the triangles within its
/// radius: a particle radius as wide as the mesh meets every triangle, and a bound on the
/// tests is what keeps such a step's cost near that of a thin one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Work {
    /// Triangles tested so far.
    pub tests: u32,
    /// The most that may be tested.
    pub limit: u32,
    /// A query stopped at the limit.
    pub capped: bool,
}

impl Work {
    pub const fn new(limit: u32) -> Work {
        Work { tests: 0, limit, capped: false }
    }

    pub const fn unbounded() -> Work {
        Work::new(u32::MAX)
    }

    /// Counts one triangle test; false (and capped) when the limit is reached.
    #[inline]
    fn take(&mut self) -> bool {
        if self.tests >= self.limit {
            self.capped = true;
            return false;
        }
        self.tests += 1;
        true
    }
}

/// Deepest node (the root is at depth 0); the traversal stack holds `MAX_DEPTH + 1` nodes.
pub const MAX_DEPTH: usize = 40;
/// Most triangles of one mesh (16 M): larger meshes are refused with `TooLarge` before anything
/// is allocated.
pub const MAX_TRIANGLES: usize = 1 << 24;
/// A triangle whose smallest height is below this fraction of its longest edge is degenerate.
const DEGENERATE_RATIO: f32 = 1e-6;
/// SAH bins.
const BINS: usize = 16;

/// The default mesh of the C ABI's descriptor: a 2 m square floor of two triangles at y = 0,
/// facing +y (in static memory, so a descriptor can point at it).
pub static DEFAULT_VERTICES: [Vec3; 4] =
    [Vec3::new(-1.0, 0.0, -1.0), Vec3::new(-1.0, 0.0, 1.0), Vec3::new(1.0, 0.0, 1.0), Vec3::new(1.0, 0.0, -1.0)];
/// The default mesh's triangles (see [`DEFAULT_VERTICES`]).
pub static DEFAULT_INDICES: [u32; 6] = [0, 1, 2, 0, 2, 3];

/// What [`TriMesh::new`] does with a degenerate triangle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Degenerate {
    /// Refuse the mesh (`InvalidArgument`, naming the triangle).
    Refuse,
    /// Leave the triangle out (counted in [`TriMesh::skipped`]).
    Skip,
}

/// A node of the hierarchy: its bounds, and either two children (`count == 0`: the first is
/// the next node, the second is `index`) or `count` triangles from `order[index]`.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Node {
    lo: Vec3,
    hi: Vec3,
    index: u32,
    count: u32,
}

/// The nearest point of a mesh to a query point.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Hit {
    /// On the triangle.
    pub point: Vec3,
    /// The triangle's unit face normal (its front, "outside").
    pub normal: Vec3,
    /// `|p − point|`, negative when `p` is behind the triangle's plane.
    pub distance: f32,
    pub triangle: u32,
}

/// The first contact of a swept sphere with a mesh.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SweepHit {
    /// Fraction of the segment, in [0, 1].
    pub time: f32,
    /// The sphere's centre at that time.
    pub point: Vec3,
    /// The triangle's unit face normal.
    pub normal: Vec3,
    pub triangle: u32,
}

/// A cooked static triangle mesh: vertices, triangles, face normals and the hierarchy.
/// Immutable; share it by `Arc`.
#[derive(Clone, Debug, PartialEq)]
pub struct TriMesh {
    vertices: Vec<Vec3>,
    triangles: Vec<[u32; 3]>,
    normals: Vec<Vec3>,
    nodes: Vec<Node>,
    /// Triangle indices in leaf order.
    order: Vec<u32>,
    skipped: u32,
    depth: u32,
}

#[inline]
fn box_distance2(p: Vec3, lo: Vec3, hi: Vec3) -> f32 {
    let d = (lo - p).max(p - hi).max(Vec3::ZERO);
    d.dot(d)
}

/// Closest point of triangle `abc` to `p` (Ericson, "Real-Time Collision Detection", 5.1.5).
pub fn closest_on_triangle(p: Vec3, a: Vec3, b: Vec3, c: Vec3) -> Vec3 {
    let (ab, ac, ap) = (b - a, c - a, p - a);
    let (d1, d2) = (ab.dot(ap), ac.dot(ap));
    if d1 <= 0.0 && d2 <= 0.0 {
        return a;
    }
    let bp = p - b;
    let (d3, d4) = (ab.dot(bp), ac.dot(bp));
    if d3 >= 0.0 && d4 <= d3 {
        return b;
    }
    let vc = d1 * d4 - d3 * d2;
    if vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0 {
        return a + ab * (d1 / (d1 - d3));
    }
    let cp = p - c;
    let (d5, d6) = (ab.dot(cp), ac.dot(cp));
    if d6 >= 0.0 && d5 <= d6 {
        return c;
    }
    let vb = d5 * d2 - d1 * d6;
    if vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0 {
        return a + ac * (d2 / (d2 - d6));
    }
    let va = d3 * d6 - d5 * d4;
    if va <= 0.0 && (d4 - d3) >= 0.0 && (d5 - d6) >= 0.0 {
        return b + (c - b) * ((d4 - d3) / ((d4 - d3) + (d5 - d6)));
    }
    let denom = 1.0 / (va + vb + vc);
    a + ab * (vb * denom) + ac * (vc * denom)
}

/// Whether `q`, on the plane of `abc` (normal `n`), lies in the triangle, edges included with
/// a small tolerance (so a path through the edge two triangles share hits one of them).
#[inline]
fn inside(q: Vec3, a: Vec3, b: Vec3, c: Vec3, n: Vec3) -> bool {
    let tol = -1e-5 * (b - a).length_squared().max((c - a).length_squared());
    (b - a).cross(q - a).dot(n) >= tol && (c - b).cross(q - b).dot(n) >= tol && (a - c).cross(q - c).dot(n) >= tol
}

/// Ordering of candidate hits: nearer first, then the front side, then the lower index (so
/// the answer does not depend on the traversal order).
#[inline]
fn better(d2: f32, front: bool, tri: u32, best: &Option<(f32, bool, u32)>) -> bool {
    match *best {
        None => true,
        Some((bd2, bfront, btri)) => d2 < bd2 || (d2 == bd2 && (front && !bfront || front == bfront && tri < btri)),
    }
}

impl TriMesh {
    /// Cooks a mesh from `vertices` and a triangle list (3 indices a triangle); see the
    /// module's notes for the checks.
    pub fn new(vertices: &[Vec3], indices: &[u32], degenerate: Degenerate) -> Result<TriMesh> {
        if indices.is_empty() {
            return Err(Error::invalid("a mesh collider needs at least one triangle (the index list is empty)"));
        }
        if !indices.len().is_multiple_of(3) {
            return Err(Error::invalid(format!("the index count {} is not a multiple of 3 (a triangle list)", indices.len())));
        }
        let n = indices.len() / 3;
        if n > MAX_TRIANGLES {
            return Err(Error::too_large(format!("a mesh collider has at most {MAX_TRIANGLES} triangles (got {n})")));
        }
        if vertices.len() > u32::MAX as usize {
            return Err(Error::too_large(format!("a mesh collider has at most {} vertices (got {})", u32::MAX, vertices.len())));
        }
        if let Some((k, &i)) = indices.iter().enumerate().find(|&(_, &i)| i as usize >= vertices.len()) {
            return Err(Error::out_of_range(format!(
                "mesh index {k} (triangle {}) is {i}, out of range (vertex count {})",
                k / 3,
                vertices.len()
            )));
        }
        check_positions(vertices, "mesh vertex")?;
        let mut triangles = Vec::new();
        let mut normals = Vec::new();
        triangles.try_reserve_exact(n).and_then(|_| normals.try_reserve_exact(n)).map_err(|_| oom(n))?;
        let mut skipped = 0u32;
        let mut kept = Vec::new();
        kept.try_reserve_exact(n).map_err(|_| oom(n))?;
        for t in 0..n {
            let tri = [indices[3 * t], indices[3 * t + 1], indices[3 * t + 2]];
            let [a, b, c] = tri.map(|i| vertices[i as usize]);
            let cross = (b - a).cross(c - a);
            let area2 = cross.length();
            let longest = (b - a).length().max((c - b).length()).max((a - c).length());
            // Smallest height = 2·area / longest edge.
            let bad = tri[0] == tri[1] || tri[1] == tri[2] || tri[0] == tri[2] || area2 <= DEGENERATE_RATIO * longest * longest;
            triangles.push(tri);
            normals.push(if bad { Vec3::Y } else { cross / area2 });
            if bad {
                if degenerate == Degenerate::Refuse {
                    return Err(Error::invalid(format!(
                        "mesh triangle {t} (vertices {}, {}, {}) is degenerate: its area is {} m² for a longest edge of {longest} m \
                         (leave it out, or ask for degenerate triangles to be skipped)",
                        tri[0],
                        tri[1],
                        tri[2],
                        0.5 * area2
                    )));
                }
                skipped += 1;
            } else {
                kept.push(t as u32);
            }
        }
        if kept.is_empty() {
            return Err(Error::invalid(format!("every triangle of the mesh ({n}) is degenerate")));
        }
        let mut mesh = TriMesh { vertices: vertices.to_vec(), triangles, normals, nodes: Vec::new(), order: kept, skipped, depth: 0 };
        mesh.build();
        Ok(mesh)
    }

    /// The vertices (the mesh's own coordinates).
    pub fn vertices(&self) -> &[Vec3] {
        &self.vertices
    }

    /// Triangles, degenerate ones included (never returned by a query when skipped).
    pub fn triangle_count(&self) -> usize {
        self.triangles.len()
    }

    /// Corners of triangle `t`.
    #[inline]
    pub fn triangle(&self, t: u32) -> [Vec3; 3] {
        self.triangles[t as usize].map(|i| self.vertices[i as usize])
    }

    /// Vertex indices of triangle `t`.
    pub fn triangle_indices(&self, t: u32) -> [u32; 3] {
        self.triangles[t as usize]
    }

    /// Unit face normal of triangle `t` (its front).
    #[inline]
    pub fn normal(&self, t: u32) -> Vec3 {
        self.normals[t as usize]
    }

    /// Degenerate triangles left out.
    pub fn skipped(&self) -> u32 {
        self.skipped
    }

    /// Nodes of the hierarchy.
    pub fn node_count(&self) -> usize {
        self.nodes.len()
    }

    /// Depth of the deepest leaf (the root is 0); at most [`MAX_DEPTH`].
    pub fn depth(&self) -> u32 {
        self.depth
    }

    /// Bounds of every triangle the queries see.
    pub fn bounds(&self) -> (Vec3, Vec3) {
        (self.nodes[0].lo, self.nodes[0].hi)
    }

    /// Bytes of the cooked mesh.
    pub fn bytes(&self) -> usize {
        std::mem::size_of_val(&self.vertices[..])
            + std::mem::size_of_val(&self.triangles[..])
            + std::mem::size_of_val(&self.normals[..])
            + std::mem::size_of_val(&self.nodes[..])
            + std::mem::size_of_val(&self.order[..])
    }

    fn tri_bounds(&self, t: u32) -> (Vec3, Vec3) {
        let [a, b, c] = self.triangle(t);
        (a.min(b).min(c), a.max(b).max(c))
    }

    fn build(&mut self) {
        let n = self.order.len();
        let mut boxes = Vec::with_capacity(self.triangles.len());
        for t in 0..self.triangles.len() as u32 {
            let (lo, hi) = self.tri_bounds(t);
            boxes.push((lo, hi, (lo + hi) * 0.5));
        }
        let mut order = std::mem::take(&mut self.order);
        let mut nodes = Vec::with_capacity(2 * n.div_ceil(LEAF_SIZE));
        let mut depth = 0;
        split(&boxes, &mut order, 0, n, 0, &mut nodes, &mut depth);
        self.order = order;
        self.nodes = nodes;
        self.depth = depth as u32;
    }

    /// The nearest point of the mesh to `p` no farther than `max_distance`, or `None`. Ties go
    /// to a triangle `p` is in front of, then to the lower triangle index.
    pub fn closest_point(&self, p: Vec3, max_distance: f32) -> Option<Hit> {
        self.closest_point_within(p, max_distance, &mut Work::unbounded())
    }

    /// [`TriMesh::closest_point`] testing at most `work`'s remaining triangles: past them it
    /// stops with the nearest found so far and marks `work` capped (the search is nearest
    /// first, so that is only short of the answer when many triangles are about as near).
    pub fn closest_point_within(&self, p: Vec3, max_distance: f32, work: &mut Work) -> Option<Hit> {
        if max_distance.is_nan() || max_distance < 0.0 {
            return None;
        }
        let mut best: Option<(f32, bool, u32)> = None;
        let mut best_point = Vec3::ZERO;
        let mut limit = max_distance * max_distance;
        let mut stack = [0u32; MAX_DEPTH + 1];
        let mut top = 1;
        while top > 0 {
            top -= 1;
            let i = stack[top];
            let node = self.nodes[i as usize];
            if box_distance2(p, node.lo, node.hi) > limit {
                continue;
            }
            if node.count > 0 {
                for &t in &self.order[node.index as usize..(node.index + node.count) as usize] {
                    if !work.take() {
                        top = 0;
                        break;
                    }
                    let [a, b, c] = self.triangle(t);
                    let q = closest_on_triangle(p, a, b, c);
                    let d2 = (p - q).length_squared();
                    let front = (p - a).dot(self.normals[t as usize]) >= 0.0;
                    if d2 <= limit && better(d2, front, t, &best) {
                        best = Some((d2, front, t));
                        best_point = q;
                        limit = d2;
                    }
                }
            } else {
                // Nearer child last, so it is visited first.
                let (first, second) = (i + 1, node.index);
                let (n1, n2) = (self.nodes[first as usize], self.nodes[second as usize]);
                let (d1, d2) = (box_distance2(p, n1.lo, n1.hi), box_distance2(p, n2.lo, n2.hi));
                let (near, far) = if d1 <= d2 { (first, second) } else { (second, first) };
                stack[top] = far;
                stack[top + 1] = near;
                top += 2;
            }
        }
        best.map(|(d2, front, t)| {
            let d = d2.sqrt();
            Hit { point: best_point, normal: self.normals[t as usize], distance: if front { d } else { -d }, triangle: t }
        })
    }

    /// Calls `f` with every triangle whose bounding box overlaps the box `[lo, hi]`, in
    /// hierarchy order (deterministic; the same triangle once).
    pub fn for_each_triangle_overlapping(&self, lo: Vec3, hi: Vec3, mut f: impl FnMut(u32)) {
        let mut stack = [0u32; MAX_DEPTH + 1];
        let mut top = 1;
        while top > 0 {
            top -= 1;
            let i = stack[top];
            let node = self.nodes[i as usize];
            if !(node.lo.cmple(hi).all() && node.hi.cmpge(lo).all()) {
                continue;
            }
            if node.count > 0 {
                for &t in &self.order[node.index as usize..(node.index + node.count) as usize] {
                    let (tlo, thi) = self.tri_bounds(t);
                    if tlo.cmple(hi).all() && thi.cmpge(lo).all() {
                        f(t);
                    }
                }
            } else {
                stack[top] = node.index;
                stack[top + 1] = i + 1;
                top += 2;
            }
        }
    }

    /// The first time a sphere of `radius` whose centre moves from `a` to `b` reaches the
    /// front of a triangle while approaching it: the centre's path crosses the triangle's
    /// plane moved out by `radius` over the triangle, or crosses the triangle itself (the
    /// time is then where the moved-out plane is crossed, never before 0). A path that starts
    /// behind a triangle's plane (by more than rounding: 1e-6 of its distance from the
    /// triangle's first corner), or moves along or away from its front, does not hit it; nor
    /// does a sphere that only grazes an edge or a corner from the side (a caller that needs
    /// those tests the end with [`TriMesh::closest_point`]). Ties go to the lower index.
    pub fn sweep_sphere(&self, a: Vec3, b: Vec3, radius: f32) -> Option<SweepHit> {
        self.sweep_sphere_within(a, b, radius, &mut Work::unbounded())
    }

    /// [`TriMesh::sweep_sphere`] testing at most `work`'s remaining triangles: past them it
    /// stops, marks `work` capped and answers `None` (a first hit cannot be told without them
    /// all; the caller falls back on a test of the end).
    pub fn sweep_sphere_within(&self, a: Vec3, b: Vec3, radius: f32, work: &mut Work) -> Option<SweepHit> {
        let seg = b - a;
        let inv = Vec3::ONE / seg;
        let mut best: Option<(f32, u32)> = None;
        let mut stack = [0u32; MAX_DEPTH + 1];
        let mut top = 1;
        while top > 0 {
            top -= 1;
            let i = stack[top];
            let node = self.nodes[i as usize];
            // The whole segment, not only up to the best time so far: a path that crosses a
            // triangle at a grazing angle hits it at the time it crossed the moved-out plane,
            // which may be long before it entered the triangle's box.
            if !slab(a, inv, node.lo - Vec3::splat(radius), node.hi + Vec3::splat(radius), 1.0) {
                continue;
            }
            if node.count > 0 {
                for &t in &self.order[node.index as usize..(node.index + node.count) as usize] {
                    if !work.take() {
                        return None;
                    }
                    if let Some(time) = self.sweep_triangle(t, a, seg, radius)
                        && best.is_none_or(|(bt, btri)| time < bt || time == bt && t < btri)
                    {
                        best = Some((time, t));
                    }
                }
            } else {
                stack[top] = node.index;
                stack[top + 1] = i + 1;
                top += 2;
            }
        }
        best.map(|(time, t)| SweepHit { time, point: a + seg * time, normal: self.normals[t as usize], triangle: t })
    }

    /// [`TriMesh::sweep_sphere`] against triangle `t` alone.
    #[inline]
    fn sweep_triangle(&self, t: u32, a: Vec3, seg: Vec3, radius: f32) -> Option<f32> {
        let n = self.normals[t as usize];
        let sn = seg.dot(n);
        if sn >= 0.0 || sn.is_nan() {
            return None;
        }
        let [v0, v1, v2] = self.triangle(t);
        let s0 = (a - v0).dot(n);
        let s1 = s0 + sn;
        // Behind the plane beyond rounding (a start put on the plane may round to just behind).
        if s0 < -1e-6 * (a - v0).abs().max_element() || s1 >= radius {
            return None;
        }
        let time = if s0 > radius { ((s0 - radius) / -sn).min(1.0) } else { 0.0 };
        let s0 = s0.max(0.0);
        let p = a + seg * time;
        if inside(p - n * (p - v0).dot(n), v0, v1, v2, n) {
            return Some(time);
        }
        if s1 < 0.0 {
            let c = a + seg * (s0 / -sn).min(1.0);
            if inside(c - n * (c - v0).dot(n), v0, v1, v2, n) {
                return Some(time);
            }
        }
        None
    }

    /// Every triangle the queries see (a brute-force reference for tests and callers).
    pub fn active_triangles(&self) -> impl Iterator<Item = u32> + '_ {
        let mut all: Vec<u32> = self.order.clone();
        all.sort_unstable();
        all.into_iter()
    }
}

fn oom(n: usize) -> Error {
    Error::new(ErrorKind::OutOfMemory, format!("out of memory cooking a mesh of {n} triangles"))
}

/// Whether the segment `a + t·seg`, `t ∈ [0, tmax]` (`inv` = 1/seg per axis), meets the box.
#[inline]
fn slab(a: Vec3, inv: Vec3, lo: Vec3, hi: Vec3, tmax: f32) -> bool {
    let mut t0 = 0.0f32;
    let mut t1 = tmax;
    for k in 0..3 {
        if inv[k].is_infinite() {
            // Parallel to this pair of planes: inside their slab or never.
            if a[k] < lo[k] || a[k] > hi[k] {
                return false;
            }
            continue;
        }
        let (mut ta, mut tb) = ((lo[k] - a[k]) * inv[k], (hi[k] - a[k]) * inv[k]);
        if ta > tb {
            std::mem::swap(&mut ta, &mut tb);
        }
        t0 = t0.max(ta);
        t1 = t1.min(tb);
        if t0 > t1 {
            return false;
        }
    }
    true
}

/// Builds the node for `order[start..end]` at `depth` and its subtree, depth first.
fn split(boxes: &[(Vec3, Vec3, Vec3)], order: &mut [u32], start: usize, end: usize, depth: usize, nodes: &mut Vec<Node>, max_depth: &mut usize) {
    let (mut lo, mut hi) = (Vec3::splat(f32::INFINITY), Vec3::splat(f32::NEG_INFINITY));
    let (mut clo, mut chi) = (lo, hi);
    for &t in &order[start..end] {
        let (a, b, c) = boxes[t as usize];
        lo = lo.min(a);
        hi = hi.max(b);
        clo = clo.min(c);
        chi = chi.max(c);
    }
    let me = nodes.len();
    nodes.push(Node { lo, hi, index: start as u32, count: (end - start) as u32 });
    *max_depth = (*max_depth).max(depth);
    let count = end - start;
    if count <= LEAF_SIZE || depth >= MAX_DEPTH {
        return;
    }
    let extent = chi - clo;
    let axis = if extent.x >= extent.y && extent.x >= extent.z { 0 } else if extent.y >= extent.z { 1 } else { 2 };
    let mid = sah_split(boxes, &mut order[start..end], axis, clo[axis], extent[axis]).map(|m| start + m).unwrap_or_else(|| {
        // Median by centroid, ties by index.
        order[start..end].sort_unstable_by(|&p, &q| boxes[p as usize].2[axis].total_cmp(&boxes[q as usize].2[axis]).then(p.cmp(&q)));
        start + count / 2
    });
    split(boxes, order, start, mid, depth + 1, nodes, max_depth);
    let second = nodes.len() as u32;
    split(boxes, order, mid, end, depth + 1, nodes, max_depth);
    nodes[me].index = second;
    nodes[me].count = 0;
}

fn area(lo: Vec3, hi: Vec3) -> f32 {
    let d = (hi - lo).max(Vec3::ZERO);
    d.x * d.y + d.y * d.z + d.z * d.x
}

/// Partitions `order` at the best of the `BINS − 1` bin boundaries along `axis` by the surface
/// area heuristic; `None` when every centroid falls in one bin or no split beats a leaf's
/// cost by enough to matter (the caller then splits at the median).
fn sah_split(boxes: &[(Vec3, Vec3, Vec3)], order: &mut [u32], axis: usize, cmin: f32, extent: f32) -> Option<usize> {
    if extent <= 0.0 || extent.is_nan() {
        return None;
    }
    let bin_of = |t: u32| (((boxes[t as usize].2[axis] - cmin) / extent * BINS as f32) as usize).min(BINS - 1);
    let empty = (Vec3::splat(f32::INFINITY), Vec3::splat(f32::NEG_INFINITY));
    let mut bins = [(empty.0, empty.1, 0usize); BINS];
    for &t in order.iter() {
        let b = &mut bins[bin_of(t)];
        b.0 = b.0.min(boxes[t as usize].0);
        b.1 = b.1.max(boxes[t as usize].1);
        b.2 += 1;
    }
    // Costs of splitting after bin k: left area·count + right area·count.
    let mut left = [0.0f32; BINS];
    let (mut lo, mut hi, mut n) = (empty.0, empty.1, 0);
    for k in 0..BINS - 1 {
        lo = lo.min(bins[k].0);
        hi = hi.max(bins[k].1);
        n += bins[k].2;
        left[k] = if n > 0 { area(lo, hi) * n as f32 } else { f32::INFINITY };
    }
    let (mut lo, mut hi, mut n) = (empty.0, empty.1, 0);
    let mut best: Option<(f32, usize)> = None;
    for k in (0..BINS - 1).rev() {
        lo = lo.min(bins[k + 1].0);
        hi = hi.max(bins[k + 1].1);
        n += bins[k + 1].2;
        if n == 0 || n == order.len() {
            continue;
        }
        let cost = left[k] + area(lo, hi) * n as f32;
        if best.is_none_or(|(c, _)| cost <= c) {
            best = Some((cost, k));
        }
    }
    let (_, k) = best?;
    // Stable partition: bins 0..=k first.
    let mut i = 0;
    for j in 0..order.len() {
        if bin_of(order[j]) <= k {
            order.swap(i, j);
            i += 1;
        }
    }
    // Keep the order inside each side by index (deterministic and independent of the swaps).
    order[..i].sort_unstable();
    order[i..].sort_unstable();
    if i == 0 || i == order.len() { None } else { Some(i) }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Rng(u32);
    impl Rng {
        fn f(&mut self) -> f32 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 17;
            self.0 ^= self.0 << 5;
            self.0 as f32 / u32::MAX as f32
        }
        fn v(&mut self, s: f32) -> Vec3 {
            Vec3::new(self.f() * 2.0 - 1.0, self.f() * 2.0 - 1.0, self.f() * 2.0 - 1.0) * s
        }
    }

    /// A soup of random triangles of random sizes in a 10 m box, some of them clustered.
    fn random_mesh(seed: u32, n: usize) -> TriMesh {
        let mut r = Rng(seed);
        let mut v = Vec::new();
        let mut idx = Vec::new();
        for t in 0..n {
            let c = if t % 3 == 0 { r.v(0.5) } else { r.v(5.0) };
            let s = 0.05 + r.f() * 1.5;
            for _ in 0..3 {
                v.push(c + r.v(s));
            }
            idx.extend([3 * t as u32, 3 * t as u32 + 1, 3 * t as u32 + 2]);
        }
        TriMesh::new(&v, &idx, Degenerate::Skip).unwrap()
    }

    fn brute_closest(m: &TriMesh, p: Vec3, max: f32) -> Option<Hit> {
        let mut best = None;
        let mut out = None;
        for t in m.active_triangles() {
            let [a, b, c] = m.triangle(t);
            let q = closest_on_triangle(p, a, b, c);
            let d2 = (p - q).length_squared();
            let front = (p - a).dot(m.normal(t)) >= 0.0;
            if d2 <= max * max && better(d2, front, t, &best) {
                best = Some((d2, front, t));
                out = Some(Hit { point: q, normal: m.normal(t), distance: if front { d2.sqrt() } else { -d2.sqrt() }, triangle: t });
            }
        }
        out
    }

    /// A bounded query tests no more triangles than its limit and says when it stopped; one
    /// whose limit is never reached answers exactly as the unbounded one.
    #[test]
    fn bounded_queries_stop_at_their_limit_and_say_so() {
        let m = random_mesh(99, 300);
        let mut r = Rng(5);
        let (mut stopped, mut whole) = (0, 0);
        for _ in 0..200 {
            let (p, q) = (r.v(6.0), r.v(6.0));
            for radius in [0.1f32, 3.0, 20.0] {
                let mut w = Work::new(16);
                let near = m.closest_point_within(p, radius, &mut w);
                assert!(w.tests <= 16);
                let mut ws = Work::new(16);
                let hit = m.sweep_sphere_within(p, q, radius, &mut ws);
                assert!(ws.tests <= 16);
                if ws.capped {
                    assert!(hit.is_none(), "a stopped sweep tells no hit");
                    stopped += 1;
                } else {
                    assert_eq!(hit.map(|h| (h.time, h.triangle)), m.sweep_sphere(p, q, radius).map(|h| (h.time, h.triangle)));
                    whole += 1;
                }
                if !w.capped {
                    assert_eq!(near.map(|h| h.triangle), m.closest_point(p, radius).map(|h| h.triangle));
                }
            }
        }
        assert!(stopped > 0 && whole > 0, "{stopped} stopped, {whole} whole: the limit should be reached by some queries only");
    }

    #[test]
    fn closest_point_equals_brute_force_on_random_meshes() {
        for (seed, n) in [(1u32, 1usize), (7, 5), (99, 300), (12345, 2000)] {
            let m = random_mesh(seed, n);
            assert!(m.depth() as usize <= MAX_DEPTH);
            let mut r = Rng(seed ^ 0xdead_beef);
            let mut hits = 0;
            for k in 0..500 {
                let p = r.v(7.0);
                let max = if k % 2 == 0 { f32::INFINITY } else { r.f() * 2.0 };
                let want = brute_closest(&m, p, max);
                let got = m.closest_point(p, max);
                assert_eq!(got, want, "mesh {seed}/{n}, query {k} at {p} within {max}");
                hits += got.is_some() as usize;
            }
            assert!(hits > 250, "the queries must find triangles ({hits})");
        }
    }

    #[test]
    fn overlaps_equal_brute_force_on_random_meshes() {
        let mut total = 0;
        for (seed, n) in [(3u32, 10usize), (42, 1000)] {
            let m = random_mesh(seed, n);
            let mut r = Rng(seed + 17);
            for _ in 0..300 {
                let c = r.v(6.0);
                let e = Vec3::new(r.f(), r.f(), r.f()) * 1.5;
                let (lo, hi) = (c - e, c + e);
                let mut got = Vec::new();
                m.for_each_triangle_overlapping(lo, hi, |t| got.push(t));
                got.sort_unstable();
                let want: Vec<u32> = m
                    .active_triangles()
                    .filter(|&t| {
                        let (tlo, thi) = m.tri_bounds(t);
                        tlo.cmple(hi).all() && thi.cmpge(lo).all()
                    })
                    .collect();
                assert_eq!(got, want);
                total += got.len();
            }
        }
        assert!(total > 1000, "the boxes must overlap triangles ({total})");
    }

    #[test]
    fn sweep_equals_brute_force_on_random_meshes() {
        let m = random_mesh(5, 800);
        let mut r = Rng(77);
        let mut hits = 0;
        for _ in 0..500 {
            let (a, b) = (r.v(6.0), r.v(6.0));
            let radius = r.f() * 0.2;
            let mut want: Option<(f32, u32)> = None;
            for t in m.active_triangles() {
                if let Some(time) = m.sweep_triangle(t, a, b - a, radius)
                    && want.is_none_or(|(bt, btri)| time < bt || time == bt && t < btri)
                {
                    want = Some((time, t));
                }
            }
            let got = m.sweep_sphere(a, b, radius).map(|h| (h.time, h.triangle));
            assert_eq!(got, want);
            hits += got.is_some() as usize;
        }
        assert!(hits > 50, "segments must hit ({hits})");
    }

    #[test]
    fn closest_on_triangle_is_the_minimum_over_samples() {
        let mut r = Rng(2024);
        for _ in 0..200 {
            let (a, b, c, p) = (r.v(1.0), r.v(1.0), r.v(1.0), r.v(2.0));
            let q = closest_on_triangle(p, a, b, c);
            let mut best = f32::INFINITY;
            for i in 0..=60 {
                for j in 0..=60 - i {
                    let (u, v) = (i as f32 / 60.0, j as f32 / 60.0);
                    best = best.min((a + (b - a) * u + (c - a) * v - p).length());
                }
            }
            let d = (q - p).length();
            assert!(d <= best + 1e-5 && d >= best - 0.05, "{d} vs sampled {best}");
        }
    }

    #[test]
    fn build_is_deterministic_and_bounded_on_a_degenerate_layout() {
        // Every centroid the same: SAH cannot split, the median does.
        let mut v = Vec::new();
        let mut idx = Vec::new();
        for t in 0..1000u32 {
            let s = 1.0 + t as f32 * 0.001;
            v.extend([Vec3::new(-s, 0.0, -s), Vec3::new(0.0, 0.0, 2.0 * s), Vec3::new(s, 0.0, -s)]);
            idx.extend([3 * t, 3 * t + 1, 3 * t + 2]);
        }
        let a = TriMesh::new(&v, &idx, Degenerate::Refuse).unwrap();
        let b = TriMesh::new(&v, &idx, Degenerate::Refuse).unwrap();
        assert_eq!(a, b);
        assert!(a.depth() <= 10, "median splits halve: depth {}", a.depth());
        let h = a.closest_point(Vec3::new(0.0, 1.0, 0.0), 5.0).unwrap();
        assert_eq!((h.distance, h.triangle), (1.0, 0));
    }

    #[test]
    fn bad_meshes_are_refused_naming_the_problem() {
        let v = [Vec3::ZERO, Vec3::X, Vec3::Z, Vec3::new(2.0, 0.0, 0.0)];
        let e = TriMesh::new(&v, &[0, 1, 4], Degenerate::Refuse).unwrap_err();
        assert_eq!(e.kind, ErrorKind::OutOfRange);
        assert!(e.message.contains("index 2") && e.message.contains("vertex count 4"), "{}", e.message);
        let e = TriMesh::new(&v, &[], Degenerate::Refuse).unwrap_err();
        assert!(e.kind == ErrorKind::InvalidArgument && e.message.contains("at least one triangle"), "{}", e.message);
        let e = TriMesh::new(&v, &[0, 1], Degenerate::Refuse).unwrap_err();
        assert!(e.message.contains("multiple of 3"), "{}", e.message);
        // Triangle 1 is a sliver on a line.
        let e = TriMesh::new(&v, &[0, 2, 1, 0, 1, 3], Degenerate::Refuse).unwrap_err();
        assert!(e.kind == ErrorKind::InvalidArgument && e.message.contains("triangle 1 "), "{}", e.message);
        let m = TriMesh::new(&v, &[0, 2, 1, 0, 1, 3], Degenerate::Skip).unwrap();
        assert_eq!(m.skipped(), 1);
        assert_eq!(m.closest_point(Vec3::new(1.5, 0.0, 0.0), 10.0).unwrap().triangle, 0);
        let mut nan = v;
        nan[2].y = f32::NAN;
        assert_eq!(TriMesh::new(&nan, &[0, 2, 1], Degenerate::Refuse).unwrap_err().kind, ErrorKind::NonFinite);
        let mut far = v;
        far[1].x = 2e6;
        assert_eq!(TriMesh::new(&far, &[0, 2, 1], Degenerate::Refuse).unwrap_err().kind, ErrorKind::InvalidArgument);
    }

    #[test]
    fn sweep_stops_a_fast_point_on_the_front_of_a_thin_wall_and_ignores_the_back() {
        // A wall at x = 0 facing −x (towards the thrower).
        let v = [Vec3::new(0.0, -1.0, -1.0), Vec3::new(0.0, -1.0, 1.0), Vec3::new(0.0, 1.0, 1.0), Vec3::new(0.0, 1.0, -1.0)];
        let m = TriMesh::new(&v, &[0, 1, 2, 0, 2, 3], Degenerate::Refuse).unwrap();
        assert_eq!(m.normal(0), Vec3::NEG_X);
        let h = m.sweep_sphere(Vec3::new(-1.0, 0.0, 0.0), Vec3::new(1.0, 0.0, 0.0), 0.01).unwrap();
        assert!((h.point.x + 0.01).abs() < 1e-6, "{h:?}");
        // Through the shared edge (the diagonal) too.
        let h = m.sweep_sphere(Vec3::new(-1.0, 0.3, -0.3), Vec3::new(1.0, 0.3, -0.3), 0.0).unwrap();
        assert!(h.point.x.abs() < 1e-6, "{h:?}");
        // From behind: no hit.
        assert!(m.sweep_sphere(Vec3::new(1.0, 0.0, 0.0), Vec3::new(-1.0, 0.0, 0.0), 0.01).is_none());
        // Closest point behind is negative.
        assert_eq!(m.closest_point(Vec3::new(0.5, 0.0, 0.0), 1.0).unwrap().distance, -0.5);
    }
}
