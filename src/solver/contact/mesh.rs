//! Particle–mesh contact: particles against a static triangle mesh ([`TriMesh`]), swept over
//! the substep, with the friction of the other colliders (`shape.rs`, [`with_friction`]).
//!
//! In the mesh's frame (the start of the substep's path `x_prev` taken in at pose `P0`, the
//! predicted end `x` at `P1`, as for the other shapes), with `r` the particle radius:
//!
//! 1. A start within `r` of the mesh — in front of its nearest triangle, or behind it by less
//!    than `r` (resting contact, rounding, a push from another collider) — is first moved out
//!    to `r` in front of it, so a particle resting on a thin wall cannot leave through it.
//! 2. The path from there to the end is swept against the triangles' fronts
//!    ([`TriMesh::sweep_sphere`]): the first one it reaches `r` from while approaching it stops
//!    it there, and the end is projected back onto that contact plane (the tangential motion
//!    kept). A fast particle cannot pass through a wall between two substeps.
//! 3. Otherwise an end that finishes within `r` in front of the mesh (beside an edge, at a
//!    corner) is pushed out to `r` from its nearest point.
//!
//! Each query tests at most [`MAX_TESTS_PER_QUERY`] triangles. A particle radius as wide
//! as many of the mesh's triangles reaches them all (a 10 m thickness over a level mesh met
//! every one of its thousands of triangles in every query); past the bound the sweep gives
//! way to step 3 and the particle is counted (`SinewWorldStats.capped_particles`).
//!
//! Only fronts push: a particle deeper than `r` behind a triangle is on the far side of an
//! open surface (or inside a closed one) and is left alone, so nothing is dragged through a
//! wall from behind. A mesh collider is static, so the sticking contact is exactly still.

use super::shape::{ContactParams, with_friction};
use crate::geometry::trimesh::Work;
use crate::geometry::{Pose, TriMesh};
use crate::math::Vec3;

/// Triangles one query of a particle against a mesh may test. Contacts at a thickness up to
/// about a triangle's size test 3–20 (a cloth resting on level meshes of 3 and 15 cm
/// triangles at 1 cm: at most 20; at 10 cm on the 15 cm mesh, 32).
pub const MAX_TESTS_PER_QUERY: u32 = 64;

/// What one substep's mesh contacts cost: triangles tested, and the particles whose query
/// stopped at [`MAX_TESTS_PER_QUERY`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MeshWork {
    pub queries: u64,
    pub tests: u64,
    pub capped: u32,
}

/// Collides every free particle with a mesh at pose `p0` → `p1` over the substep (equal for a
/// static mesh). `bounds` are the mesh's world bounds over the step; particles farther from
/// them than their radius and `max_move` (how far any particle moves in the substep) are
/// rejected before any transform.
#[allow(clippy::too_many_arguments)]
pub fn collide(x: &mut [Vec3], x_prev: &[Vec3], w: &[f32], mesh: &TriMesh, p0: &Pose, p1: &Pose, bounds: (Vec3, Vec3), c: &ContactParams, max_move: f32) -> MeshWork {
    let grow = Vec3::splat(c.thickness + max_move);
    let (lo, hi) = (bounds.0 - grow, bounds.1 + grow);
    let mut work = MeshWork::default();
    for i in 0..x.len() {
        if w[i] == 0.0 || !(x[i].cmpge(lo).all() && x[i].cmple(hi).all()) {
            continue;
        }
        let mut q = [Work::new(MAX_TESTS_PER_QUERY); 3];
        let end = contact_within(x_prev[i], x[i], mesh, p0, p1, c, &mut q);
        work.queries += 1;
        work.tests += q.iter().map(|w| w.tests as u64).sum::<u64>();
        work.capped += u32::from(q.iter().any(|w| w.capped));
        if let Some(end) = end {
            x[i] = end;
        }
    }
    work
}

/// The direction from a mesh point `q` out to `p` (its face normal `n` when `p` is on it, or
/// behind it).
#[inline]
fn outward(p: Vec3, q: Vec3, n: Vec3, distance: f32) -> Vec3 {
    if distance > 0.0 { ((p - q) / distance).try_normalize().unwrap_or(n) } else { n }
}

/// The corrected end of one particle moving from `start` to `end`, or `None` when it does
/// not touch.
pub fn contact(start: Vec3, end: Vec3, mesh: &TriMesh, p0: &Pose, p1: &Pose, c: &ContactParams) -> Option<Vec3> {
    contact_within(start, end, mesh, p0, p1, c, &mut [Work::new(MAX_TESTS_PER_QUERY); 3])
}

/// [`contact`], its three queries (start, sweep, end) each bounded by its own `work`.
fn contact_within(start: Vec3, end: Vec3, mesh: &TriMesh, p0: &Pose, p1: &Pose, c: &ContactParams, work: &mut [Work; 3]) -> Option<Vec3> {
    let l0 = p0.to_local(start);
    let l1 = p1.to_local(end);
    let r = c.thickness / p1.scale;
    // 1. A start touching, or behind by less than r: out to r in front.
    let from = match mesh.closest_point_within(l0, r, &mut work[0]) {
        Some(h) if h.distance < r => h.point + outward(l0, h.point, h.normal, h.distance) * r,
        _ => l0,
    };
    // 2. The first front the path reaches (none told when the sweep ran out of tests).
    let (normal, depth) = if let Some(hit) = mesh.sweep_sphere_within(from, l1, r, &mut work[1]) {
        (hit.normal, (hit.point - l1).dot(hit.normal).max(0.0))
    } else {
        // 3. An end within r in front.
        let h = mesh.closest_point_within(l1, r, &mut work[2])?;
        if h.distance < 0.0 || h.distance >= r {
            return None;
        }
        (outward(l1, h.point, h.normal, h.distance), r - h.distance)
    };
    let fixed = l1 + normal * depth;
    let f = with_friction(fixed, l0, l1, normal, depth, c);
    Some(if f.stuck {
        let carry = p1.to_world(l0) - p0.to_world(l0);
        (start + carry) + p1.rotation * (f.off * p1.scale)
    } else {
        p1.to_world(f.fixed)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::trimesh::Degenerate;
    use crate::geometry::{Shape, trimesh::TriMesh};
    use crate::solver::contact::shape::collide_particle;

    fn floor() -> TriMesh {
        let v = [Vec3::new(-10.0, 0.0, -10.0), Vec3::new(-10.0, 0.0, 10.0), Vec3::new(10.0, 0.0, 10.0), Vec3::new(10.0, 0.0, -10.0)];
        TriMesh::new(&v, &[0, 1, 2, 0, 2, 3], Degenerate::Refuse).unwrap()
    }

    /// Two triangles at y = 0 give the plane's answer, with and without friction, for paths
    /// that land, slide, start inside the thickness, start just behind, or miss.
    #[test]
    fn a_flat_mesh_answers_like_the_plane() {
        let m = floor();
        assert_eq!(m.normal(0), Vec3::Y);
        let pose = Pose { position: Vec3::new(0.3, 1.0, -0.2), ..Pose::IDENTITY };
        for c in [
            ContactParams { thickness: 0.01, static_friction: 0.0, kinetic_friction: 0.0 },
            ContactParams { thickness: 0.02, static_friction: 0.5, kinetic_friction: 0.3 },
        ] {
            for (a, b) in [
                (Vec3::new(0.0, 1.5, 0.0), Vec3::new(0.4, 0.6, 0.1)),
                (Vec3::new(1.0, 1.005, 0.0), Vec3::new(1.3, 0.99, 0.2)),
                (Vec3::new(1.0, 0.995, 0.0), Vec3::new(1.001, 0.994, 0.0)),
                (Vec3::new(2.0, 1.3, 0.0), Vec3::new(2.1, 1.2, 0.0)),
                (Vec3::new(-2.0, 1.011, 3.0), Vec3::new(-2.0, 1.0109, 3.0)),
            ] {
                let want = collide_particle(a, b, &Shape::Plane, f32::INFINITY, &pose, &pose, &c);
                let got = contact(a, b, &m, &pose, &pose, &c);
                match (want, got) {
                    (None, None) => {}
                    (Some(p), Some(q)) => assert!((p - q).length() < 1e-6, "{a} → {b}: plane {p}, mesh {q}"),
                    _ => panic!("{a} → {b}: plane {want:?}, mesh {got:?}"),
                }
            }
        }
    }

    #[test]
    fn a_particle_deep_behind_an_open_floor_is_left_alone() {
        let m = floor();
        let c = ContactParams { thickness: 0.01, static_friction: 0.0, kinetic_friction: 0.0 };
        // Rising from below, ending just under the floor: not pulled through.
        assert_eq!(contact(Vec3::new(0.0, -0.5, 0.0), Vec3::new(0.0, -0.005, 0.0), &m, &Pose::IDENTITY, &Pose::IDENTITY, &c), None);
        // Passing up through it from behind: not stopped (single-sided).
        assert_eq!(contact(Vec3::new(0.0, -0.5, 0.0), Vec3::new(0.0, 0.5, 0.0), &m, &Pose::IDENTITY, &Pose::IDENTITY, &c), None);
        // Just behind (within the thickness): out to the front.
        let e = contact(Vec3::new(0.0, -0.004, 0.0), Vec3::new(0.0, -0.005, 0.0), &m, &Pose::IDENTITY, &Pose::IDENTITY, &c).unwrap();
        assert!((e.y - 0.01).abs() < 1e-6, "{e}");
    }

    #[test]
    fn a_fast_particle_stops_in_front_of_a_turned_scaled_thin_wall() {
        // A unit quad at z = 0 facing −z, turned and scaled into the world.
        let v = [Vec3::new(-1.0, -1.0, 0.0), Vec3::new(-1.0, 1.0, 0.0), Vec3::new(1.0, 1.0, 0.0), Vec3::new(1.0, -1.0, 0.0)];
        let m = TriMesh::new(&v, &[0, 1, 2, 0, 2, 3], Degenerate::Refuse).unwrap();
        assert_eq!(m.normal(0), Vec3::NEG_Z);
        let pose = Pose { rotation: glam::Quat::from_rotation_y(0.6), position: Vec3::new(3.0, 1.0, -2.0), scale: 2.0 };
        let c = ContactParams { thickness: 0.01, static_friction: 0.0, kinetic_friction: 0.0 };
        let normal = pose.rotation * Vec3::NEG_Z;
        // 200 m/s for 1/480 s, straight at the wall's centre from 0.3 m in front.
        let a = pose.position + normal * 0.3;
        let b = pose.position - normal * 0.117;
        let e = contact(a, b, &m, &pose, &pose, &c).unwrap();
        assert!(((e - pose.position).dot(normal) - 0.01).abs() < 1e-5, "{e}");
    }
}
