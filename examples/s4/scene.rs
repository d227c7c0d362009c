//! S4's content, as docs/benchmarks.md defines it: 32 humanoid-template ragdolls in a 4 × 8
//! grid and a pile of 8, every one a [`RagdollDesc`] in world space that both solvers build
//! the same bodies and joints from.

use sinew::geometry::{Pose, Shape};
use sinew::math::{Mat3, Quat, Vec3};
use sinew::ragdoll::humanoid::HumanoidBones;
use sinew::ragdoll::{BoneDesc, JointDesc, JointKind, RagdollDesc, RagdollSettings};

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

/// Which template built the ragdolls.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Template {
    /// `HumanoidBones::standing(..).ragdoll()`: the library's 11-bone Ragdoll Wizard template.
    Sinew,
    /// The bench's own stand-in with the same wizard layout (masses, shapes, limits of
    /// docs/benchmarks.md), used only while the library's template is not written
    /// (`todo!`), so that the peer can be measured meanwhile.
    StandIn,
}

impl Template {
    pub fn name(self) -> &'static str {
        match self {
            Template::Sinew => "humanoid",
            Template::StandIn => "stand-in",
        }
    }
}

/// The template ragdoll standing at the origin (facing +Z, 1.8 m), and which one it is.
pub fn template() -> (RagdollDesc, Template) {
    let prev = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let made = std::panic::catch_unwind(|| HumanoidBones::standing(Vec3::ZERO).ragdoll());
    std::panic::set_hook(prev);
    match made {
        Ok(desc) => (desc.expect("the humanoid template is a valid ragdoll"), Template::Sinew),
        Err(payload) if super::is_todo(&payload) => (stand_in(), Template::StandIn),
        Err(payload) => std::panic::resume_unwind(payload),
    }
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

/// The stand-in: a 1.8 m character standing on the origin, facing +Z (right is +X), arms
/// held out (T-pose), with the Ragdoll Wizard's bodies, masses (20 kg in all), collider
/// sizes and joint axes and limits (docs/benchmarks.md, S4). Bone frames are the world
/// axes; Unity's `worldRight`, `worldUp`, `worldForward` are +X, +Y, +Z.
pub fn stand_in() -> RagdollDesc {
    let pose = |p: Vec3| Pose { rotation: Quat::IDENTITY, position: p, scale: 1.0 };
    // A capsule from the bone's origin to `end`, radius `scale` × length (the wizard's).
    let capsule = |from: Vec3, to: Vec3, scale: f32| {
        let len = (to - from).length();
        let r = scale * len;
        let shape = Shape::Capsule { half_height: (0.5 * len - r).max(0.0), radius0: r, radius1: r };
        (shape, 0.5 * (to - from), Quat::from_rotation_arc(Vec3::Y, (to - from) / len))
    };
    let bone = |parent: i32, at: Vec3, (shape, offset, rot): (Shape, Vec3, Quat), mass: f32, joint: JointDesc| BoneDesc {
        parent,
        bind: pose(at),
        shape,
        shape_offset: offset,
        shape_rotation: rot,
        mass,
        density: 1000.0,
        joint,
    };
    let twist = |axis: Vec3, swing_axis: Vec3, low: f32, high: f32, swing1: f32| JointDesc {
        kind: JointKind::SwingTwist { swing1, swing2: 0.0, low_twist: low, high_twist: high },
        axis,
        swing_axis,
        ..JointDesc::default()
    };
    let hinge = |axis: Vec3, swing_axis: Vec3, min: f32, max: f32| JointDesc { kind: JointKind::Hinge { min, max }, axis, swing_axis, ..JointDesc::default() };
    let (pelvis, spine, neck) = (Vec3::new(0.0, 1.0, 0.0), Vec3::new(0.0, 1.22, 0.0), Vec3::new(0.0, 1.55, 0.0));
    let mut bones = vec![
        bone(-1, pelvis, (Shape::Box { half_extents: Vec3::new(0.16, 0.11, 0.1) }, Vec3::new(0.0, 0.0, 0.0), Quat::IDENTITY), 3.125, JointDesc::default()),
        bone(0, spine, (Shape::Box { half_extents: Vec3::new(0.17, 0.14, 0.1) }, Vec3::new(0.0, 0.14, 0.0), Quat::IDENTITY), 3.125, twist(Vec3::X, Vec3::Z, -20.0, 20.0, 10.0)),
        bone(1, neck, (Shape::Sphere { radius: 0.1 }, Vec3::new(0.0, 0.12, 0.0), Quat::IDENTITY), 1.25, twist(Vec3::X, Vec3::Z, -40.0, 25.0, 25.0)),
    ];
    for side in [-1.0f32, 1.0] {
        let (hip, knee, foot) = (Vec3::new(0.14 * side, 0.92, 0.0), Vec3::new(0.14 * side, 0.5, 0.0), Vec3::new(0.14 * side, 0.06, 0.0));
        let h = bones.len() as i32;
        bones.push(bone(0, hip, capsule(hip, knee, 0.3), 1.875, twist(Vec3::X, Vec3::Z, -20.0, 70.0, 30.0)));
        bones.push(bone(h, knee, capsule(knee, foot, 0.25), 1.875, hinge(Vec3::X, Vec3::Z, -80.0, 0.0)));
    }
    for side in [-1.0f32, 1.0] {
        let (arm, elbow, hand) = (Vec3::new(0.22 * side, 1.45, 0.0), Vec3::new(0.5 * side, 1.45, 0.0), Vec3::new(0.76 * side, 1.45, 0.0));
        let a = bones.len() as i32;
        bones.push(bone(1, arm, capsule(arm, elbow, 0.25), 1.25, twist(Vec3::Y, Vec3::Z, -70.0, 10.0, 50.0)));
        bones.push(bone(a, elbow, capsule(elbow, hand, 0.2), 1.25, hinge(Vec3::Z, Vec3::Y, -90.0, 0.0)));
    }
    let desc = RagdollDesc { bones, settings: RagdollSettings::default() };
    desc.validate().expect("the stand-in is a valid ragdoll");
    desc
}

/// The joint frame's rotation in the bone's frame: X the (hinge or twist) axis, Y the swing
/// axis made perpendicular to it, Z = X × Y.
pub fn joint_basis(j: &JointDesc) -> Quat {
    let x = j.axis.normalize();
    let y = (j.swing_axis - x * x.dot(j.swing_axis)).normalize();
    Quat::from_mat3(&Mat3::from_cols(x, y, x.cross(y))).normalize()
}
