//! Regression (issue 30, cost cliffs): a grid cloth of 9,600 particles with a thickness of
//! 10 m (the header's largest) took 1.76 s for one step. A particle's radius is the reach of
//! its contact queries against a mesh collider: 10 m over a level mesh reached every one of
//! its triangles in every query, each particle's sweep testing them all, every substep (a
//! 3,200-triangle floor: 0.7 s for the first step; 80,000 triangles: 21 s). Each query now
//! tests at most `contact::mesh::MAX_TESTS_PER_QUERY` triangles; past that the sweep gives way
//! to the test of where the particle ends, and the particles are counted in
//! `capped_particles`. Counted, not timed.

use std::sync::Arc;

use sinew::cloth::{GridPins, GridSpec};
use sinew::collider::Collider;
use sinew::geometry::Pose;
use sinew::geometry::trimesh::{Degenerate, TriMesh};
use sinew::math::{Quat, Vec3};
use sinew::particles::Material;
use sinew::solver::contact::mesh::MAX_TESTS_PER_QUERY;
use sinew::world::{World, WorldSettings};

/// A bumpy square floor `2·half` wide of `2·n²` triangles (fronts up).
fn floor(n: u32, half: f32) -> Arc<TriMesh> {
    let mut v = Vec::new();
    for j in 0..=n {
        for i in 0..=n {
            let bump = 0.02 * ((i * 7 + j * 3) % 5) as f32;
            v.push(Vec3::new(-half + 2.0 * half * i as f32 / n as f32, bump, -half + 2.0 * half * j as f32 / n as f32));
        }
    }
    let mut idx = Vec::new();
    for j in 0..n {
        for i in 0..n {
            let a = j * (n + 1) + i;
            let c = a + n + 1;
            idx.extend([a, c, a + 1, a + 1, c, c + 1]);
        }
    }
    Arc::new(TriMesh::new(&v, &idx, Degenerate::Refuse).unwrap())
}

/// A 48 × 32 cloth 2.5 cm apart at `height` over the floor, of `thickness`; the world, the
/// cloth and the floor.
fn scene(thickness: f32, height: f32) -> (World, (usize, u32), Arc<TriMesh>) {
    let mut w = World::new(WorldSettings { thread_count: 1, ..WorldSettings::default() }).unwrap();
    let mesh = floor(40, 3.0);
    w.add_collider(Collider::new_mesh(mesh.clone(), u32::MAX, Pose { rotation: Quat::IDENTITY, position: Vec3::ZERO, scale: 1.0 })).unwrap();
    let spec = GridSpec {
        columns: 48,
        rows: 32,
        spacing: 0.025,
        origin: Vec3::new(0.0, height, 0.0),
        orientation: Quat::IDENTITY,
        pins: GridPins::None,
        material: Material { thickness, ..Material::default() },
    };
    let id = w.create_grid(&spec).unwrap();
    (w, id, mesh)
}

#[test]
fn a_thickness_across_the_whole_mesh_costs_a_bounded_number_of_triangle_tests() {
    // The same cloth at the default thickness, lying on the floor: the work of resting contact.
    let (mut thin, id, _) = scene(0.01, 0.1);
    for _ in 0..30 {
        thin.step(1.0 / 60.0).unwrap();
    }
    let rest = thin.bodies.get(id.0, id.1).unwrap().mesh_contact_work();
    assert!(rest.queries > 0, "the thin cloth does not touch the floor: {rest:?}");
    assert_eq!(rest.capped, 0, "resting contact at 1 cm stopped at the cap: {rest:?}");
    assert_eq!(thin.stats().capped_particles, 0);
    let per_query_thin = rest.tests as f64 / rest.queries as f64;

    // 10 m thick, 0.5 m over the floor: every particle reaches every triangle.
    let (mut thick, id, mesh) = scene(10.0, 0.5);
    thick.step(1.0 / 60.0).unwrap();
    let b = thick.bodies.get(id.0, id.1).unwrap();
    let work = b.mesh_contact_work();
    let n = b.particle_count() as u64;
    let substeps = thick.settings.substeps as u64;
    println!(
        "{n} particles on {} triangles: at 1 cm resting, {} queries, {per_query_thin:.1} tests each; at 10 m, {} queries, {:.1} tests each, {} particles capped in a substep (was every triangle, {} per query)",
        mesh.triangle_count(),
        rest.queries,
        work.queries,
        work.tests as f64 / work.queries as f64,
        work.capped,
        mesh.triangle_count()
    );
    // Every particle reaches the mesh in the first substep (pushed out to 10 m, it is out of
    // reach after a substep or two).
    assert!(work.queries >= n && work.queries <= n * substeps, "{work:?} for {n} particles");
    // Three queries a particle (start, sweep, end), each at most the cap.
    assert!(work.tests <= work.queries * 3 * MAX_TESTS_PER_QUERY as u64, "{work:?}");
    // Without the cap the sweeps alone tested every triangle: 3,200 a query.
    assert!((work.tests as f64) < 0.1 * (work.queries * mesh.triangle_count() as u64) as f64, "{work:?}");
    // Reported.
    assert!(work.capped > 0 && thick.stats().capped_particles >= work.capped, "{work:?}, stats {}", thick.stats().capped_particles);
    // A few times resting contact's work per query, not a thousand.
    assert!(work.tests as f64 / work.queries as f64 <= 20.0 * per_query_thin, "{work:?} against {per_query_thin} tests a query at rest");

    // The contact still holds where the sweep gave way: no particle ends within its radius in
    // front of the mesh.
    let r = 10.0;
    let worst = b.positions().iter().filter_map(|p| mesh.closest_point(*p, r)).filter(|h| h.distance >= 0.0).map(|h| r - h.distance).fold(0.0f32, f32::max);
    assert!(worst < 1e-3 * r, "a particle ends {worst} m inside its radius of the mesh");
    assert!(b.positions().iter().all(|p| p.is_finite()));
}
