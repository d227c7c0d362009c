//! Closed meshes the soft-body and balloon tests share (with `mod shapes_common;`).
#![allow(dead_code)]

use sinew::math::Vec3;

/// An icosphere: an icosahedron subdivided `levels` times, projected on the sphere, wound
/// outward.
pub fn icosphere(radius: f32, levels: u32) -> (Vec<Vec3>, Vec<u32>) {
    let t = (1.0 + 5f32.sqrt()) / 2.0;
    let mut p: Vec<Vec3> = [(-1.0, t, 0.0), (1.0, t, 0.0), (-1.0, -t, 0.0), (1.0, -t, 0.0), (0.0, -1.0, t), (0.0, 1.0, t), (0.0, -1.0, -t), (0.0, 1.0, -t), (t, 0.0, -1.0), (t, 0.0, 1.0), (-t, 0.0, -1.0), (-t, 0.0, 1.0)]
        .iter()
        .map(|&(x, y, z)| Vec3::new(x, y, z).normalize())
        .collect();
    let mut tris: Vec<[u32; 3]> = vec![
        [0, 11, 5], [0, 5, 1], [0, 1, 7], [0, 7, 10], [0, 10, 11], [1, 5, 9], [5, 11, 4], [11, 10, 2], [10, 7, 6], [7, 1, 8],
        [3, 9, 4], [3, 4, 2], [3, 2, 6], [3, 6, 8], [3, 8, 9], [4, 9, 5], [2, 4, 11], [6, 2, 10], [8, 6, 7], [9, 8, 1],
    ];
    for _ in 0..levels {
        let mut mid = std::collections::HashMap::new();
        let mut next = Vec::new();
        for t in &tris {
            let m: [u32; 3] = std::array::from_fn(|k| {
                let (a, b) = (t[k], t[(k + 1) % 3]);
                *mid.entry((a.min(b), a.max(b))).or_insert_with(|| {
                    p.push((p[a as usize] + p[b as usize]).normalize());
                    p.len() as u32 - 1
                })
            });
            next.extend([[t[0], m[0], m[2]], [t[1], m[1], m[0]], [t[2], m[2], m[1]], [m[0], m[1], m[2]]]);
        }
        tris = next;
    }
    (p.iter().map(|v| *v * radius).collect(), tris.into_iter().flatten().collect())
}

/// A closed cube `side` wide centred at `centre`, its 8 corners shared by its 12 triangles,
/// wound outward (corner c = i + 2j + 4k).
pub fn closed_cube(side: f32, centre: Vec3) -> (Vec<Vec3>, Vec<u32>) {
    let h = side / 2.0;
    let p = (0..8).map(|c| centre + Vec3::new(if c & 1 != 0 { h } else { -h }, if c & 2 != 0 { h } else { -h }, if c & 4 != 0 { h } else { -h })).collect();
    (p, CUBE_QUADS.iter().flat_map(|q| [q[0], q[1], q[2], q[0], q[2], q[3]]).collect())
}

/// The cube's faces as corner quads, counter-clockwise seen from outside.
pub const CUBE_QUADS: [[u32; 4]; 6] = [[0, 2, 3, 1], [4, 5, 7, 6], [0, 1, 5, 4], [2, 6, 7, 3], [0, 4, 6, 2], [1, 3, 7, 5]];
