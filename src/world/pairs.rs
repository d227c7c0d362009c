//! Contact between bodies: the pairs of bodies the host joined, and the group of them that
//! the stage driver steps in lockstep (`particles::stages::StepGroup`).
//!
//! Candidates are found once per fixed step, after every body's `BeginStep`: particle pairs
//! within the two thicknesses plus both bodies' step margins (cell grid,
//! `solver::contact::particle`), and particles against the other body's triangles
//! (`solver::contact::triangle`), both ways. Stage `PairContacts` resolves them every substep.

use crate::error::{Error, ErrorKind, Result};
use crate::particles::Body;
use crate::particles::stages::StepGroup;
use crate::solver::contact::particle::{self, CellScratch};
use crate::solver::contact::triangle::{self, TriContact};

/// A body as the world knows it: slot and serial.
pub type BodyId = (usize, u32);

/// The pairs of bodies in contact, and the reused buffers of their candidates.
#[derive(Default)]
pub struct Pairs {
    /// Sorted; each pair in slot order.
    list: Vec<[BodyId; 2]>,
    /// Candidate particle pairs per body pair for the current step.
    contacts: Vec<Vec<[u32; 2]>>,
    /// Candidate particle–triangle contacts per body pair, both ways.
    tri_contacts: Vec<[Vec<TriContact>; 2]>,
    /// Scratch pairs for finding triangle candidates.
    tri_pairs: Vec<[u32; 2]>,
    /// Per body pair, both ways: how deep behind the other body's triangles a particle is
    /// still pushed out (`triangle::resolve_triangles`: the other's longest edge for a closed
    /// surface, unbounded for an open one).
    depths: Vec<[f32; 2]>,
    scratch: CellScratch,
    /// The last step's search work: candidate pairs found (particle pairs and particle–triangle
    /// candidates), and particles whose search stopped at `MAX_PAIRS_PER_PARTICLE`.
    found: usize,
    capped: usize,
}

/// At most this many candidates per particle and search between two bodies, a safety net: a
/// paired body's thickness is bound to its spacing (`Body::check_self_collision`), and a
/// particle then meets up to a few hundred of the other body's (a lattice 5 cm apart, searched
/// within its longest edge, 10 cm, plus the thicknesses and the swept margins of a fall: 270
/// measured). Fast motion widens the search with the margins; beyond the cap the first found
/// are kept (deterministic) and the particle counted: `World::pair_contact_counts`.
pub const MAX_PAIRS_PER_PARTICLE: usize = 1024;

impl Pairs {
    /// The last step's search work between paired bodies: (candidates found, particles whose
    /// search stopped at [`MAX_PAIRS_PER_PARTICLE`]).
    pub fn work(&self) -> (usize, usize) {
        (self.found, self.capped)
    }

    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    /// Whether the body in `slot` is part of any pair.
    pub fn involves(&self, slot: usize) -> bool {
        self.list.iter().any(|p| p[0].0 == slot || p[1].0 == slot)
    }

    /// Turns contact between `a` and `b` on or off; `alive` tells whether a body exists.
    pub fn set(&mut self, a: BodyId, b: BodyId, enabled: bool, alive: impl Fn(BodyId) -> bool) -> Result<()> {
        if a == b {
            return Err(Error::invalid("a body paired with itself: use the material's self_collision instead"));
        }
        if !alive(a) || !alive(b) {
            return Err(Error::new(ErrorKind::InvalidHandle, "body of the pair is not in this world"));
        }
        let pair = if a < b { [a, b] } else { [b, a] };
        match (self.list.binary_search(&pair), enabled) {
            (Err(at), true) => self.list.insert(at, pair),
            (Ok(at), false) => {
                self.list.remove(at);
            }
            _ => {}
        }
        Ok(())
    }

    /// Forgets every pair of a removed body.
    pub fn remove_body(&mut self, id: BodyId) {
        self.list.retain(|p| p[0] != id && p[1] != id);
    }

    /// The slots of every body in a pair, sorted, into `out`.
    pub fn members(&self, out: &mut Vec<usize>) {
        out.clear();
        out.extend(self.list.iter().flat_map(|p| [p[0].0, p[1].0]));
        out.sort_unstable();
        out.dedup();
    }

    /// The paired bodies `members` (from [`Pairs::members`]) of `slots` as one step group.
    pub fn group<'a>(&'a mut self, slots: &'a mut [Option<(u32, Body)>], members: &'a [usize]) -> PairGroup<'a> {
        PairGroup { pairs: self, slots, members }
    }
}

/// Bodies joined by contact pairs, stepped together stage by stage.
pub struct PairGroup<'a> {
    pairs: &'a mut Pairs,
    slots: &'a mut [Option<(u32, Body)>],
    members: &'a [usize],
}

/// The bodies in slots `i` and `j` (`i != j`) at once.
fn two_bodies(slots: &mut [Option<(u32, Body)>], i: usize, j: usize) -> (&mut Body, &mut Body) {
    assert_ne!(i, j);
    let (a, b) = if i < j {
        let (lo, hi) = slots.split_at_mut(j);
        (&mut lo[i], &mut hi[0])
    } else {
        let (lo, hi) = slots.split_at_mut(i);
        (&mut hi[0], &mut lo[j])
    };
    (&mut a.as_mut().expect("paired body alive").1, &mut b.as_mut().expect("paired body alive").1)
}

/// The contact distance between two bodies' particles (m).
fn contact_distance(a: &Body, b: &Body) -> f32 {
    a.material.thickness * a.scale + b.material.thickness * b.scale
}

impl StepGroup for PairGroup<'_> {
    fn len(&self) -> usize {
        self.members.len()
    }

    fn body(&mut self, i: usize) -> &mut Body {
        &mut self.slots[self.members[i]].as_mut().expect("paired body alive").1
    }

    fn paired(&self) -> bool {
        true
    }

    fn find_contacts(&mut self) {
        let pairs = &mut *self.pairs;
        pairs.contacts.resize_with(pairs.list.len(), Vec::new);
        pairs.tri_contacts.resize_with(pairs.list.len(), Default::default);
        pairs.depths.resize(pairs.list.len(), [f32::INFINITY; 2]);
        (pairs.found, pairs.capped) = (0, 0);
        for (k, pair) in pairs.list.iter().enumerate() {
            let (a, b) = two_bodies(self.slots, pair[0].0, pair[1].0);
            let (a, b) = (&*a, &*b);
            let search = contact_distance(a, b) + a.step_margin + b.step_margin;
            // Against a closed surface (a soft body) the triangles are the contact, both ways:
            // particle spheres on particle spheres would roll the bodies off each other like
            // marbles (a jelly stacked on a jelly was pushed sideways by them).
            let surfaces = !a.topology.triangles.is_empty() && !b.topology.triangles.is_empty();
            if surfaces && (a.topology.closed || b.topology.closed) {
                pairs.contacts[k].clear();
            } else {
                pairs.capped += particle::find_pairs_capped(&a.x, &b.x, search, MAX_PAIRS_PER_PARTICLE, &mut pairs.scratch, &mut pairs.contacts[k]);
                pairs.found += pairs.contacts[k].len();
            }
            // Particle against the other body's triangles: a particle over the middle of a
            // triangle is up to an edge's length from its nearest vertex.
            for (dir, (p, q)) in [(a, b), (b, a)].into_iter().enumerate() {
                let edge = q.topology.constraints.rest.iter().fold(0.0f32, |m, r| m.max(*r)) * q.scale;
                pairs.depths[k][dir] = if q.topology.closed { edge } else { f32::INFINITY };
                pairs.capped += particle::find_pairs_capped(&p.x, &q.x, search + edge, MAX_PAIRS_PER_PARTICLE, &mut pairs.scratch, &mut pairs.tri_pairs);
                pairs.found += pairs.tri_pairs.len();
                triangle::triangle_candidates(&p.x, &q.x, &q.topology.triangles, &q.topology.adjacency, &pairs.tri_pairs, q.topology.closed, &mut pairs.tri_contacts[k][dir]);
            }
        }
    }

    fn resolve_contacts(&mut self) {
        let pairs = &*self.pairs;
        for (k, pair) in pairs.list.iter().enumerate() {
            let (a, b) = two_bodies(self.slots, pair[0].0, pair[1].0);
            let dist = contact_distance(a, b);
            particle::resolve_between(&mut a.x, &a.w, &mut b.x, &b.w, &pairs.contacts[k], dist);
            let [ab, ba] = &pairs.tri_contacts[k];
            let [dab, dba] = pairs.depths[k];
            // Against a closed surface (a soft body) with friction, the two materials' mean;
            // against an open one (cloth) without, as it always was.
            let mu = ((a.material.static_friction + b.material.static_friction) * 0.5, (a.material.kinetic_friction + b.material.kinetic_friction) * 0.5);
            if b.topology.closed {
                triangle::resolve_triangles_with_friction(&mut a.x, &a.x_prev, &a.w, &mut b.x, &b.x_prev, &b.w, &b.topology.triangles, ab, dist, dab, mu);
            } else {
                triangle::resolve_triangles(&mut a.x, &a.w, &mut b.x, &b.w, &b.topology.triangles, ab, dist, dab);
            }
            if a.topology.closed {
                triangle::resolve_triangles_with_friction(&mut b.x, &b.x_prev, &b.w, &mut a.x, &a.x_prev, &a.w, &a.topology.triangles, ba, dist, dba, mu);
            } else {
                triangle::resolve_triangles(&mut b.x, &b.w, &mut a.x, &a.w, &a.topology.triangles, ba, dist, dba);
            }
        }
    }
}
