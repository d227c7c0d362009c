//! Long-range attachments (Kim, Chentanez & Müller 2012, "Long Range Attachments — A Method
//! to Simulate Inextensible Clothing in Computer Games").
//!
//! Each free particle `i` is tied to one pinned anchor `a(i)` with the length `Lᵢ` it has from
//! it at rest — the straight-line distance (Euclidean) or the shortest path over the
//! cloth's stretch edges (geodesic). Per substep `|xᵢ − x_a| ≤ s·Lᵢ` is enforced by moving
//! `xᵢ` alone (the anchor is pinned): a unilateral constraint that never pulls, only stops
//! stretching, so at one iteration a skirt hangs at its length.

use std::collections::BinaryHeap;

use crate::math::Vec3;
use crate::solver::constraints::distance::{DistanceConstraints, KIND_BEND};

pub const NO_ANCHOR: u32 = u32::MAX;

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Tethers {
    /// Anchor particle per particle, `NO_ANCHOR` for none.
    pub anchor: Vec<u32>,
    /// Rest length to the anchor (m, unscaled).
    pub length: Vec<f32>,
    /// Multiplies the rest lengths (1 = no stretch allowed).
    pub scale: f32,
}

/// Tethers to the nearest pinned particle by straight-line rest distance.
pub fn euclidean(rest: &[Vec3], pinned: &[bool], scale: f32) -> Tethers {
    let anchors: Vec<usize> = (0..rest.len()).filter(|&i| pinned[i]).collect();
    let mut t = Tethers { anchor: vec![NO_ANCHOR; rest.len()], length: vec![0.0; rest.len()], scale };
    if anchors.is_empty() {
        return t;
    }
    for i in 0..rest.len() {
        if pinned[i] {
            continue;
        }
        let (best, d) = anchors
            .iter()
            .map(|&a| (a, (rest[i] - rest[a]).length()))
            .fold((NO_ANCHOR as usize, f32::INFINITY), |b, c| if c.1 < b.1 { c } else { b });
        t.anchor[i] = best as u32;
        t.length[i] = d;
    }
    t
}

#[derive(PartialEq)]
struct Item(f32, u32, u32); // (distance, particle, anchor)
impl Eq for Item {}
impl PartialOrd for Item {
    fn partial_cmp(&self, o: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(o))
    }
}
impl Ord for Item {
    fn cmp(&self, o: &Self) -> std::cmp::Ordering {
        // Min-heap on distance; ties broken by index so the result is deterministic.
        o.0.total_cmp(&self.0).then(o.1.cmp(&self.1)).then(o.2.cmp(&self.2))
    }
}

/// Tethers along the cloth: multi-source Dijkstra from all pinned particles over the
/// stretch and shear edges, lengths measured in the rest shape.
pub fn geodesic(rest: &[Vec3], pinned: &[bool], edges: &DistanceConstraints, scale: f32) -> Tethers {
    let n = rest.len();
    let mut adj: Vec<Vec<u32>> = vec![Vec::new(); n];
    for k in 0..edges.len() {
        if edges.kind[k] != KIND_BEND {
            let (a, b) = (edges.a[k], edges.b[k]);
            adj[a as usize].push(b);
            adj[b as usize].push(a);
        }
    }
    let mut dist = vec![f32::INFINITY; n];
    let mut anchor = vec![NO_ANCHOR; n];
    let mut heap = BinaryHeap::new();
    for i in 0..n {
        if pinned[i] {
            dist[i] = 0.0;
            anchor[i] = i as u32;
            heap.push(Item(0.0, i as u32, i as u32));
        }
    }
    while let Some(Item(d, i, a)) = heap.pop() {
        if d > dist[i as usize] {
            continue;
        }
        for &j in &adj[i as usize] {
            let nd = d + (rest[j as usize] - rest[i as usize]).length();
            if nd < dist[j as usize] {
                dist[j as usize] = nd;
                anchor[j as usize] = a;
                heap.push(Item(nd, j, a));
            }
        }
    }
    let mut t = Tethers { anchor, length: dist, scale };
    for ((anchor, length), &pin) in t.anchor.iter_mut().zip(&mut t.length).zip(pinned) {
        if pin || !length.is_finite() {
            *anchor = NO_ANCHOR;
            *length = 0.0;
        }
    }
    t
}

/// Projects every tether once; `length_scale` is the body's current size factor.
pub fn solve(x: &mut [Vec3], w: &[f32], t: &Tethers, length_scale: f32) {
    let s = t.scale * length_scale;
    for i in 0..x.len() {
        let a = t.anchor[i];
        if a == NO_ANCHOR || w[i] == 0.0 {
            continue;
        }
        let d = x[i] - x[a as usize];
        let max = t.length[i] * s;
        let len2 = d.length_squared();
        if len2 > max * max {
            x[i] = x[a as usize] + d * (max / len2.sqrt());
        }
    }
}
