//! Bones against static triangle meshes (level geometry): a [`TriMesh`] placed by a pose
//! answers the contact kernel's closest-point query ([`StaticMesh`]) in world coordinates.
//!
//! A mesh for level geometry may be open, so only the front of a triangle (the side its
//! `(b − a) × (c − a)` normal points to) pushes, as for particles: a sample point behind the
//! nearest triangle's plane by less than the query distance (the sample's radius plus the
//! contact margin) is pushed back to the front; one deeper behind is left alone, so nothing is
//! dragged through a wall from behind.

use std::sync::Arc;

use super::contact::StaticMesh;
use crate::geometry::Pose;
use crate::geometry::trimesh::TriMesh;
use crate::math::Vec3;

/// A static mesh collider as a step's bodies meet it: the shared cooked mesh, its pose and
/// its layers (met when `layers & mask ≠ 0`).
#[derive(Clone, Debug)]
pub struct MeshObstacle {
    pub mesh: Arc<TriMesh>,
    pub pose: Pose,
    pub layers: u32,
}

/// A mesh where a collider put it (uniform scale allowed).
#[derive(Clone, Copy, Debug)]
pub struct PlacedMesh<'a> {
    pub mesh: &'a TriMesh,
    pub pose: Pose,
}

impl StaticMesh for PlacedMesh<'_> {
    fn closest_point(&self, p: Vec3, max_distance: f32) -> Option<(Vec3, Vec3)> {
        let scale = self.pose.scale.max(1e-6);
        let local = self.pose.to_local(p);
        let reach = max_distance / scale;
        let hit = self.mesh.closest_point(local, reach)?;
        if hit.distance < -reach {
            return None;
        }
        Some((self.pose.to_world(hit.point), (self.pose.rotation * hit.normal).normalize()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::trimesh::Degenerate;
    use crate::math::Quat;

    fn floor() -> TriMesh {
        let v = [Vec3::new(-2.0, 0.0, -2.0), Vec3::new(2.0, 0.0, -2.0), Vec3::new(2.0, 0.0, 2.0), Vec3::new(-2.0, 0.0, 2.0)];
        // Counter-clockwise seen from above: fronts face +Y.
        TriMesh::new(&v, &[0, 2, 1, 0, 3, 2], Degenerate::Refuse).unwrap()
    }

    #[test]
    fn a_placed_floor_answers_in_world_coordinates() {
        let mesh = floor();
        let pose = Pose { rotation: Quat::from_rotation_z(0.3), position: Vec3::new(1.0, 2.0, 3.0), scale: 2.0 };
        let placed = PlacedMesh { mesh: &mesh, pose };
        let up = pose.rotation * Vec3::Y;
        let p = pose.to_world(Vec3::new(0.5, 0.1, -0.25));
        let (q, n) = placed.closest_point(p, 1.0).unwrap();
        assert!((n - up).length() < 1e-5, "normal {n}");
        assert!((q - pose.to_world(Vec3::new(0.5, 0.0, -0.25))).length() < 1e-5);
        assert!(((p - q).dot(n) - 0.2).abs() < 1e-5, "scaled distance");
        // Out of reach, and deep behind: nothing.
        assert!(placed.closest_point(pose.to_world(Vec3::new(0.0, 1.0, 0.0)), 1.0).is_none());
        assert!(placed.closest_point(pose.to_world(Vec3::new(0.0, -0.8, 0.0)), 1.0).is_none());
        // Slightly behind: pushed to the front.
        let (_, n) = placed.closest_point(pose.to_world(Vec3::new(0.0, -0.05, 0.0)), 1.0).unwrap();
        assert!(n.dot(up) > 0.999);
    }
}
