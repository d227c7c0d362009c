//! The benchmarks' yardstick (`benches/chapter`, the chapter's algorithm in plain Rust)
//! checked against the chapter itself, so a timing against it times the chapter's work.

#[path = "../benches/chapter/mod.rs"]
mod chapter;

use chapter::scenes;

/// Section 7's program must print the chapter's printed output, digit for digit.
#[test]
fn rope_prints_the_chapters_output() {
    assert_eq!(
        chapter::rope::main(),
        ["frame 0: tip = (2.5000, -0.0027)", "frame 1: tip = (2.5000, -0.0082)", "frame 2: tip = (2.4999, -0.0163)"]
    );
}

/// S1 in the reference: the pinned row stays put, the rest falls, nothing blows up.
#[test]
fn s1_cloth_hangs_from_its_pinned_row() {
    let scene = scenes::s1();
    let mut cloths = scenes::chapter(&scene);
    let start: Vec<_> = cloths[0].particles.iter().map(|p| p.pos).collect();
    for _ in 0..60 {
        scenes::chapter_step(&mut cloths);
    }
    let cloth = &cloths[0];
    let pinned = cloth.particles.iter().filter(|p| p.pinned).count();
    assert_eq!(pinned, scene.cols, "row 0 pinned, nothing else");
    for (i, (p, s)) in cloth.particles.iter().zip(&start).enumerate() {
        if p.pinned {
            assert_eq!(p.pos, *s, "pinned particle {i} moved");
        }
        assert!(p.pos.is_finite(), "particle {i} is not finite");
    }
    let mean_y = cloth.particles.iter().map(|p| p.pos.y).sum::<f32>() / cloth.particles.len() as f32;
    assert!(mean_y < 0.0, "cloth did not fall: mean y = {mean_y}");
}

/// The scene geometry of docs/benchmarks.md: flat in XZ, centred, row 0 (z minimal) pinned, and the
/// constraint counts of structural + shear + bend.
#[test]
fn s1_geometry_and_constraints_match_design() {
    let scene = scenes::s1();
    let cloth = &scenes::chapter(&scene)[0];
    let (c, r) = (scene.cols, scene.rows);
    assert_eq!(cloth.particles.len(), c * r);
    let p = |row: usize, col: usize| cloth.particles[row * c + col].pos;
    let s = scene.spacing;
    assert_eq!(p(0, 0), glam::Vec3::new(-31.5 * s, 0.0, -31.5 * s));
    assert_eq!(p(r - 1, c - 1), glam::Vec3::new(31.5 * s, 0.0, 31.5 * s));
    assert!(cloth.particles[..c].iter().all(|q| q.pinned && q.pos.z == p(0, 0).z));
    let structural = (c - 1) * r + c * (r - 1);
    let shear = 2 * (c - 1) * (r - 1);
    let bend = (c - 2) * r + c * (r - 2);
    assert_eq!(cloth.constraints.len(), structural + shear + bend);
    assert!(cloth.max_stretch() < 1e-5, "starts at rest, got {}", cloth.max_stretch());
}

/// Sinew's grid starts from the same particles, and both solvers count the same constraints.
#[test]
fn s1_reference_starts_where_sinew_starts() {
    use sinew::cloth::{GridPins, GridSpec, new_grid};
    let scene = scenes::s1();
    let cloth = &scenes::chapter(&scene)[0];
    let body = new_grid(&GridSpec {
        columns: scene.cols as u32,
        rows: scene.rows as u32,
        spacing: scene.spacing,
        origin: scene.origins[0],
        orientation: glam::Quat::IDENTITY,
        pins: GridPins::TopRow,
        material: Default::default(),
    })
    .unwrap();
    assert_eq!(body.topology().constraints.len(), cloth.constraints.len());
    for (i, (p, x)) in cloth.particles.iter().zip(body.positions()).enumerate() {
        assert!((p.pos - *x).length() < 1e-6, "particle {i}: reference {} vs sinew {}", p.pos, x);
        assert_eq!(p.pinned, body.inverse_masses()[i] == 0.0, "particle {i} pinned differently");
    }
}
