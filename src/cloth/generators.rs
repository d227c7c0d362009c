//! Garment generators: a cape hanging from the shoulders and a skirt around the waist.
//! Both are meshes with their top edge pinned and skinned, tethered (geodesic) so they hang
//! at their length instead of stretching.

use crate::particles::{Body, Material};
use crate::cloth::{MeshSpec, mesh_body};
use crate::error::{Error, MAX_LENGTH, Result, check_length, check_magnitude, check_transform_with};
use crate::math::{Mat4, Vec3};

/// A cape: `columns × rows`, `width` wide and `length` long, hanging from the line between
/// the left and right shoulder, `back_offset` behind the neck. Bones: left shoulder, neck,
/// right shoulder (their current transforms; the bind poses are their inverses).
#[derive(Clone, Debug)]
pub struct CapeSpec {
    pub columns: u32,
    pub rows: u32,
    pub width: f32,
    pub length: f32,
    pub back_offset: f32,
    pub bones: [Mat4; 3],
    pub material: Material,
}

/// A 12 × 16 cape, 0.5 m wide and 0.9 m long, on the shoulders of a standing adult facing +Z:
/// left shoulder at (−0.18, 1.45, 0), neck at (0, 1.55, 0), right shoulder at (0.18, 1.45, 0)
/// (Unity's axes: +X is the character's right). Bones must be apart for the cape to know its
/// width's direction, so the default places them where a character's are.
impl Default for CapeSpec {
    fn default() -> Self {
        CapeSpec {
            columns: 12,
            rows: 16,
            width: 0.5,
            length: 0.9,
            back_offset: 0.08,
            bones: [
                Mat4::from_translation(Vec3::new(-0.18, 1.45, 0.0)),
                Mat4::from_translation(Vec3::new(0.0, 1.55, 0.0)),
                Mat4::from_translation(Vec3::new(0.18, 1.45, 0.0)),
            ],
            material: Material::default(),
        }
    }
}

/// A skirt: a ring of `columns` around the waist bone's local Y axis, `rows` down it, from
/// `radius_top` at the waist to `radius_bottom` at `length` below.
#[derive(Clone, Debug)]
pub struct SkirtSpec {
    pub columns: u32,
    pub rows: u32,
    pub radius_top: f32,
    pub radius_bottom: f32,
    pub length: f32,
    pub waist: Mat4,
    pub material: Material,
}

fn check_grid(columns: u32, rows: u32, min_columns: u32) -> Result<()> {
    if columns < min_columns || rows < 2 {
        return Err(Error::invalid(format!("need at least {min_columns} columns and 2 rows (got {columns} x {rows})")));
    }
    if columns as u64 * rows as u64 > crate::error::MAX_PARTICLES as u64 {
        return Err(Error::too_large(format!("{columns} x {rows} particles is more than one body holds")));
    }
    Ok(())
}

fn check_bones(bones: &[Mat4]) -> Result<()> {
    for (k, m) in bones.iter().enumerate() {
        check_transform_with(m, || format!("bone transform {k}"))?;
    }
    if bones.iter().any(|m| m.determinant().abs() < 1e-12) {
        return Err(Error::invalid("a bone transform is singular"));
    }
    Ok(())
}

/// Triangles of a `columns × rows` sheet (`wrap`: column `columns−1` joins column 0).
fn sheet(columns: u32, rows: u32, wrap: bool) -> Vec<u32> {
    let id = |r: u32, c: u32| r * columns + c % columns;
    let mut idx = Vec::new();
    let last = if wrap { columns } else { columns - 1 };
    for r in 0..rows - 1 {
        for c in 0..last {
            idx.extend([id(r, c), id(r + 1, c), id(r, c + 1)]);
            idx.extend([id(r, c + 1), id(r + 1, c), id(r + 1, c + 1)]);
        }
    }
    idx
}

/// Builds the mesh body, skins every particle like the top of its column, pins the top
/// row, tethers the rest.
fn finish(positions: &[Vec3], columns: u32, indices: &[u32], material: Material, weights: &[([u16; 4], [f32; 4])], bones: &[Mat4]) -> Result<Body> {
    let mut inv = vec![1.0 / material.particle_mass; positions.len()];
    inv[..columns as usize].fill(0.0);
    let spec = MeshSpec { positions, indices, inverse_masses: &inv, weld_distance: 0.0, material };
    let mut body = mesh_body(&spec)?;
    let per_vertex: Vec<_> = (0..positions.len()).map(|v| weights[v % columns as usize]).map(|(b, w)| (b.map(i32::from), w)).collect();
    body.set_skinning(&per_vertex, Some(bones.iter().map(|m| m.inverse()).collect()), bones.len() as u32)?;
    body.set_bone_matrices(bones)?;
    body.set_tethers(Some(true), 1.0)?;
    Ok(body)
}

pub fn cape(spec: &CapeSpec) -> Result<Body> {
    check_grid(spec.columns, spec.rows, 2)?;
    check_length(spec.width, "cape width")?;
    check_length(spec.length, "cape length")?;
    check_magnitude(spec.back_offset, MAX_LENGTH, "cape back_offset")?;
    check_bones(&spec.bones)?;
    let [left, neck, right] = spec.bones.map(|m| m.w_axis.truncate());
    let across = (right - left).normalize_or_zero();
    if across == Vec3::ZERO {
        return Err(Error::invalid("left and right shoulders coincide"));
    }
    // Behind the character: away from the neck's forward (+Z) axis, flattened to horizontal.
    let forward = spec.bones[1].z_axis.truncate();
    let back = -(forward - across * forward.dot(across)).normalize_or(Vec3::Z);
    let mid = (left + right) * 0.5;
    let top_centre = Vec3::new(mid.x, neck.y.min(mid.y), mid.z) + back * spec.back_offset;
    let (c, r) = (spec.columns, spec.rows);
    let mut positions = Vec::with_capacity((c * r) as usize);
    for row in 0..r {
        for col in 0..c {
            let u = col as f32 / (c - 1) as f32;
            let down = spec.length * row as f32 / (r - 1) as f32;
            positions.push(top_centre + across * ((u - 0.5) * spec.width) - Vec3::Y * down);
        }
    }
    let weights: Vec<_> = (0..c)
        .map(|col| {
            let u = col as f32 / (c - 1) as f32;
            let l = (1.0 - 2.0 * u).max(0.0);
            let rt = (2.0 * u - 1.0).max(0.0);
            ([0u16, 1, 2, 0], [l, 1.0 - l - rt, rt, 0.0])
        })
        .collect();
    finish(&positions, c, &sheet(c, r, false), spec.material, &weights, &spec.bones)?.finish_material()
}

pub fn skirt(spec: &SkirtSpec) -> Result<Body> {
    check_grid(spec.columns, spec.rows, 3)?;
    check_length(spec.radius_top, "skirt radius_top")?;
    check_length(spec.radius_bottom, "skirt radius_bottom")?;
    check_length(spec.length, "skirt length")?;
    check_bones(&[spec.waist])?;
    let (c, r) = (spec.columns, spec.rows);
    let mut positions = Vec::with_capacity((c * r) as usize);
    for row in 0..r {
        let f = row as f32 / (r - 1) as f32;
        let radius = spec.radius_top + (spec.radius_bottom - spec.radius_top) * f;
        for col in 0..c {
            let a = std::f32::consts::TAU * col as f32 / c as f32;
            let local = Vec3::new(radius * a.cos(), -spec.length * f, radius * a.sin());
            positions.push(spec.waist.transform_point3(local));
        }
    }
    let weights = vec![([0u16; 4], [1.0, 0.0, 0.0, 0.0]); c as usize];
    finish(&positions, c, &sheet(c, r, true), spec.material, &weights, &[spec.waist])?.finish_material()
}
