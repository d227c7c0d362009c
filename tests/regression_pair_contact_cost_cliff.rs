//! Regression (issue 30, cost cliffs): the contact search between two paired bodies looks for
//! the other body's particles within the sum of their thicknesses (and, for the triangles, an
//! edge more). The header accepts a thickness up to 10 m — it keeps colliders away — and at
//! many spacings every particle met the whole other body: a step's work grew as the product
//! of the two particle counts (here 4 candidates per particle became 512, then the cap).
//! A body in a collision pair now keeps its thickness within its mean edge, as a
//! self-colliding one does: the pair, or a thicker material on a paired body, is refused with
//! a reason. Behind that, the search between bodies keeps at most `MAX_PAIRS_PER_PARTICLE`
//! candidates per particle (fast motion widens it too) and counts the particles that reached
//! it (`World::pair_contact_counts`). Counted, not timed.

use sinew::cloth::{GridPins, GridSpec};
use sinew::math::{Quat, Vec3};
use sinew::particles::Material;
use sinew::softbody::LatticeSpec;
use sinew::world::{World, WorldSettings};

/// A jelly (9³ particles 5 cm apart) with a grid cloth (24 × 24, 5 cm) lying on it and a
/// second jelly resting on the cloth, all paired, each of the given thickness; returns the
/// world after 30 frames, the particle count, and the search work (found, capped) of every
/// frame.
fn company(thickness: f32) -> Result<(World, usize, Vec<(usize, usize)>), String> {
    let mut w = World::new(WorldSettings { thread_count: 1, ..WorldSettings::default() }).unwrap();
    let m = Material { thickness, ..Material::default() };
    let jelly = |y: f32| LatticeSpec { nx: 9, ny: 9, nz: 9, spacing: 0.05, origin: Vec3::new(0.0, y, 0.0), material: m, ..LatticeSpec::default() };
    let low = w.create_soft_lattice(&jelly(0.5)).unwrap();
    let high = w.create_soft_lattice(&jelly(1.0)).unwrap();
    let cloth = w
        .create_grid(&GridSpec { columns: 24, rows: 24, spacing: 0.05, origin: Vec3::new(0.0, 0.75, 0.0), orientation: Quat::IDENTITY, pins: GridPins::None, material: m })
        .unwrap();
    for (a, b) in [(low, cloth), (cloth, high), (low, high)] {
        w.set_body_pair(a, b, true).map_err(|e| e.message)?;
    }
    let n = 2 * 9 * 9 * 9 + 24 * 24;
    let mut work = Vec::new();
    for _ in 0..30 {
        w.step(1.0 / 60.0).unwrap();
        work.push(w.pair_contact_counts());
    }
    Ok((w, n, work))
}

#[test]
fn a_paired_body_thicker_than_its_spacing_is_refused_and_the_search_stays_bounded() {
    // 10 m (the header's largest thickness) on bodies 5 cm apart: the pair is refused.
    let e = company(10.0).err().expect("a pair of 10 m thick bodies was taken");
    assert!(e.contains("thickness") && e.contains("collision pair"), "{e}");
    // At the default (1 cm) and at the bound (one spacing), taken; nothing reaches the cap, and
    // at the bound the search does a few times the default's work, not the product's.
    let mut peaks = Vec::new();
    for thickness in [0.01f32, 0.05] {
        let (w, n, work) = company(thickness).unwrap();
        let peak = work.iter().map(|w| w.0).max().unwrap();
        let capped = work.iter().map(|w| w.1).max().unwrap();
        println!("thickness {thickness} m, {n} particles in three pairs: at most {peak} candidates a step ({:.1} per particle), {capped} capped", peak as f32 / n as f32);
        assert_eq!(capped, 0, "thickness {thickness}: the search reached the cap");
        for b in w.bodies.values() {
            assert!(b.positions().iter().all(|p| p.is_finite()));
        }
        peaks.push(peak);
    }
    assert!(peaks[1] <= 8 * peaks[0], "at the bound {} candidates, {}× the default's {}", peaks[1], peaks[1] / peaks[0], peaks[0]);
    // Without the bound: every particle of each pair against every particle of the other.
    let product = 2 * (729 * 576 + 576 * 729 + 729 * 729);
    assert!(peaks[1] < product, "{} candidates against the product {product}", peaks[1]);
}

#[test]
fn a_paired_body_cannot_be_made_thicker_afterwards() {
    let mut w = World::new(WorldSettings { thread_count: 1, ..WorldSettings::default() }).unwrap();
    let spec = |y: f32| LatticeSpec { nx: 4, ny: 4, nz: 4, spacing: 0.05, origin: Vec3::new(0.0, y, 0.0), ..LatticeSpec::default() };
    let (a, b) = (w.create_soft_lattice(&spec(0.5)).unwrap(), w.create_soft_lattice(&spec(1.0)).unwrap());
    let thick = Material { thickness: 10.0, ..Material::default() };
    // Unpaired, a thick material is taken (it keeps colliders away, at no search cost).
    w.bodies.get_mut(a.0, a.1).unwrap().set_material(thick).unwrap();
    assert!(w.set_body_pair(a, b, true).is_err(), "a 10 m thick body was paired");
    w.bodies.get_mut(a.0, a.1).unwrap().set_material(Material::default()).unwrap();
    w.set_body_pair(a, b, true).unwrap();
    let before = *w.bodies.get(a.0, a.1).unwrap().material();
    let e = w.bodies.get_mut(a.0, a.1).unwrap().set_material(thick).unwrap_err();
    assert!(e.message.contains("collision pair"), "{}", e.message);
    assert_eq!(*w.bodies.get(a.0, a.1).unwrap().material(), before, "a refused material changed the body");
    // Unpaired again (the pair off, or the partner destroyed): taken.
    w.set_body_pair(a, b, false).unwrap();
    w.bodies.get_mut(a.0, a.1).unwrap().set_material(thick).unwrap();
    w.bodies.get_mut(a.0, a.1).unwrap().set_material(Material::default()).unwrap();
    w.set_body_pair(a, b, true).unwrap();
    w.remove_body(b.0, b.1).unwrap();
    w.bodies.get_mut(a.0, a.1).unwrap().set_material(thick).unwrap();
}
