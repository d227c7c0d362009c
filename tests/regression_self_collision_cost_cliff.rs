//! Regression (issue 30, cost cliffs): a soft body from a 0.2 m cube mesh at resolution 25
//! (17,576 particles 8 mm apart) with self-collision and a thickness of 0.02 m took 16.6 s
//! for one step (0.04 s without self-collision): particles keep 2 × thickness apart, so the
//! search met every particle within 4–13 cm, hundreds to thousands each. The thickness of a
//! self-colliding body is now at most its mean stretch edge (`Body::check_self_collision`),
//! refused with a reason at creation and in `set_material`. Counted, not timed: at the bound
//! the search finds a bounded number of contacts per particle.

mod shapes_common;
use shapes_common::closed_cube;

use sinew::math::Vec3;
use sinew::particles::Material;
use sinew::softbody::embed::SoftMeshSpec;
use sinew::softbody::SoftSettings;
use sinew::world::{World, WorldSettings};

#[test]
fn a_self_collision_thickness_of_many_spacings_is_refused() {
    let (p, idx) = closed_cube(0.2, Vec3::new(0.0, 1.0, 0.0));
    let mut w = World::new(WorldSettings { thread_count: 1, ..WorldSettings::default() }).unwrap();
    // Resolution 12: particles 1/60 m apart.
    let spacing = 0.2 / 12.0;
    let material = |thickness: f32, self_collision: bool| Material { thickness, self_collision, ..Material::default() };
    let spec = |m: Material| SoftMeshSpec { positions: &p, indices: &idx, resolution: 12, cluster_cells: 0, material: m, soft: SoftSettings::default() };
    // The finding's ratio, 2.5 spacings: refused, naming the bound.
    let e = w.create_soft_mesh(&spec(material(2.5 * spacing, true))).unwrap_err();
    assert!(e.message.contains("thickness") && e.message.contains("self_collision"), "{}", e.message);
    assert_eq!(w.stats().body_count, 0);
    // At the bound it is taken, and one step's search finds a bounded amount of work.
    let id = w.create_soft_mesh(&spec(material(spacing, true))).unwrap();
    w.step(1.0 / 60.0).unwrap();
    let b = w.bodies.get(id.0, id.1).unwrap();
    let n = b.particle_count();
    let (pairs, tris) = b.self_contact_counts();
    println!("{n} particles, thickness one spacing: {pairs} self pairs, {tris} particle-triangle contacts ({:.1} per particle)", (pairs + tris) as f32 / n as f32);
    assert!(pairs + tris <= 32 * n, "{pairs} pairs and {tris} triangle contacts for {n} particles");
    // Made thicker later: refused, the material as it was.
    let b = w.bodies.get_mut(id.0, id.1).unwrap();
    let before = *b.material();
    assert!(b.set_material(material(2.5 * spacing, true)).is_err());
    assert_eq!(*b.material(), before);
    // Without self-collision any thickness is taken (it only keeps colliders away).
    b.set_material(material(2.5 * spacing, false)).unwrap();
    w.step(1.0 / 60.0).unwrap();
    assert_eq!(w.bodies.get(id.0, id.1).unwrap().self_contact_counts(), (0, 0));
}
