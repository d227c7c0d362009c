//! S4's content, as docs/benchmarks.md defines it: 32 humanoid-template ragdolls in a 4 × 8
//! grid and a pile of 8, every one a [`RagdollDesc`] in world space that both solvers build
//! the same bodies and joints from.

use sinew::geometry::Shape;
use sinew::math::{Mat3, Quat, Vec3};
use sinew::ragdoll::humanoid::HumanoidBones;
use sinew::ragdoll::{BoneDesc, JointDesc, RagdollDesc};

/// One fixed step (60 Hz) and the steps of one round (10 s).
pub const DT: f32 = 1.0 / 60.0;
pub const STEPS: usize = 600;
/// Measured rounds (each a fresh scene run for `STEPS` steps), after one unmeasured round.
pub const ROUNDS: usize = 5;

/// The grid: 4 columns along X by 8 rows along Z, 1.5 m apart, centred on the origin.
pub const GRID_COLUMNS: usize = 4;
pub const GRID_ROWS: usize = 8;
pub const GRID_SPACING: f32 = 1.5;
/// Every ragdoll's lowest shape point starts this high above the plane y = 0 (m).
pub const DROP_HEIGHT: f32 = 1.0;
/// The pile: 8 ragdolls lying on their backs above (6, ·, 0), their lowest points 0.5 m
/// apart (the first at `DROP_HEIGHT`), each turned 90° about the vertical from the one below.
pub const PILE_COUNT: usize = 8;
pub const PILE_CENTRE: Vec3 = Vec3::new(6.0, 0.0, 0.0);
pub const PILE_SPACING: f32 = 0.5;

/// The template ragdoll: `HumanoidBones::standing` at the origin (feet there, facing +Z,
/// 1.8 m, T-pose), as `ragdoll()` describes it.
pub fn template() -> RagdollDesc {
    HumanoidBones::standing(Vec3::ZERO).ragdoll().expect("the humanoid template is a valid ragdoll")
}

/// Every ragdoll of S4 in world space: the 32 of the grid (row-major, X fastest), then the 8
/// of the pile from the bottom up.
pub fn ragdolls(template: &RagdollDesc) -> Vec<RagdollDesc> {
    let mut out = Vec::with_capacity(GRID_COLUMNS * GRID_ROWS + PILE_COUNT);
    let (lo, hi) = bounds(template);
    let centre = 0.5 * (lo + hi);
    for row in 0..GRID_ROWS {
        for col in 0..GRID_COLUMNS {
            let x = (col as f32 - (GRID_COLUMNS - 1) as f32 / 2.0) * GRID_SPACING;
            let z = (row as f32 - (GRID_ROWS - 1) as f32 / 2.0) * GRID_SPACING;
            // Standing as built, centred over (x, z), lowest point at the drop height.
            out.push(moved(template, Quat::IDENTITY, centre, Vec3::new(x, DROP_HEIGHT + centre.y - lo.y, z)));
        }
    }
    // Lying on its back: the standing template pitched −90° about X (up → −Z, forward → up).
    let lying = Quat::from_rotation_x(-std::f32::consts::FRAC_PI_2);
    let mut below_top = f32::NEG_INFINITY;
    for k in 0..PILE_COUNT {
        let turn = Quat::from_rotation_y(k as f32 * std::f32::consts::FRAC_PI_2);
        let r = turn * lying;
        let placed = moved(template, r, centre, PILE_CENTRE);
        let (l, h) = bounds(&placed);
        let lift = DROP_HEIGHT + PILE_SPACING * k as f32 - l.y;
        let placed = moved(&placed, Quat::IDENTITY, Vec3::ZERO, Vec3::new(PILE_CENTRE.x - 0.5 * (l.x + h.x), lift, PILE_CENTRE.z - 0.5 * (l.z + h.z)));
        let (l, h) = bounds(&placed);
        assert!(l.y > below_top, "S4's pile: a lying ragdoll is thicker than the 0.5 m spacing ({} m)", h.y - l.y);
        below_top = h.y;
        out.push(placed);
    }
    out
}

/// `desc` turned by `rotation` about `pivot`, then with `pivot` moved to `to`.
pub fn moved(desc: &RagdollDesc, rotation: Quat, pivot: Vec3, to: Vec3) -> RagdollDesc {
    let mut d = desc.clone();
    for b in &mut d.bones {
        b.bind.position = to + rotation * (b.bind.position - pivot);
        b.bind.rotation = (rotation * b.bind.rotation).normalize();
    }
    d
}

/// The world pose of a bone's shape in the bone pose `bone`.
pub fn shape_pose(b: &BoneDesc, bone_position: Vec3, bone_rotation: Quat) -> (Vec3, Quat) {
    (bone_position + bone_rotation * b.shape_offset, bone_rotation * b.shape_rotation)
}

/// How far the shape reaches along the unit direction `d` (support function), in world space.
fn support(shape: &Shape, position: Vec3, rotation: Quat, d: Vec3) -> f32 {
    let local = rotation.inverse() * d;
    position.dot(d)
        + match *shape {
            Shape::Sphere { radius } => radius,
            Shape::Capsule { half_height, radius0, radius1 } => (-half_height * local.y + radius0).max(half_height * local.y + radius1),
            Shape::Box { half_extents: e } => e.x * local.x.abs() + e.y * local.y.abs() + e.z * local.z.abs(),
            Shape::Plane => f32::INFINITY,
        }
}

/// World bounds of a ragdoll's shapes in its bind pose.
pub fn bounds(desc: &RagdollDesc) -> (Vec3, Vec3) {
    let (mut lo, mut hi) = (Vec3::splat(f32::INFINITY), Vec3::splat(f32::NEG_INFINITY));
    for b in &desc.bones {
        let (p, q) = shape_pose(b, b.bind.position, b.bind.rotation);
        for (i, axis) in [Vec3::X, Vec3::Y, Vec3::Z].into_iter().enumerate() {
            hi[i] = hi[i].max(support(&b.shape, p, q, axis));
            lo[i] = lo[i].min(-support(&b.shape, p, q, -axis));
        }
    }
    (lo, hi)
}

/// The joint frame's rotation in the bone's frame: X the (hinge or twist) axis, Y the swing
/// axis made perpendicular to it, Z = X × Y.
pub fn joint_basis(j: &JointDesc) -> Quat {
    let x = j.axis.normalize();
    let y = (j.swing_axis - x * x.dot(j.swing_axis)).normalize();
    Quat::from_mat3(&Mat3::from_cols(x, y, x.cross(y))).normalize()
}
