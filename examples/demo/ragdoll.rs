//! The demo's third scene (chapter sections 1–5 with a cape: issue 13's whole cycle): a
//! humanoid-template ragdoll (`sinew_ragdoll_create_humanoid`) with a cape
//!
//! 1. **walks, powered**: its bones are dynamic and follow a small walk cycle through muscle
//!    strength 1 and pin weight 1 (`sinew_ragdoll_set_muscle_strength_all`,
//!    `sinew_ragdoll_set_pin_weight_all`; the walk's pose given every frame with
//!    `sinew_ragdoll_set_targets`). The walk keeps to the template's joint limits (elbows bend
//!    about their hinge, thighs swing at most 20° back), so the pins hold every bone within a
//!    millimetre of it;
//! 2. **is hit** on the upper back (`sinew_ragdoll_apply_impulse` at the point struck, which
//!    picks the nearest bone and weakens it and its neighbours; `sinew_ragdoll_get_drive_state`
//!    reads what is left). Pinned, a body never loses its balance: what the hit leaves of the
//!    pins (at 20 Hz) holds the pelvis within centimetres of the walk even for 150 N·s. So the
//!    host lets go of the pins as the hit lands; the weakened muscles keep the pose and the
//!    body pitches forwards, carrying the walk's momentum;
//! 3. **falls**: once its pelvis is `balance_distance` off the walk the library makes it limp
//!    and reports `SINEW_RAGDOLL_EVENT_BALANCE_LOST` (`sinew_ragdoll_take_events`); were the
//!    event not to come, the host would go limp itself after `BALANCE_WAIT` frames;
//! 4. **comes to rest** (`sinew_ragdoll_is_at_rest`, every bone slow for `REST_HOLD` s);
//! 5. **gets up**: `sinew_ragdoll_get_up_info` tells the side it lies on, which clip to play
//!    (from the front or the back) and where the clip's root goes; the ragdoll turns
//!    kinematic (`sinew_ragdoll_set_kinematic(1)`, which takes the snapshot) and for
//!    `BLEND_TIME` s the targets are `sinew_ragdoll_blend_from_snapshot` of a procedural
//!    get-up clip (keys below: lying on the side reported → hands and knees → crouch →
//!    standing, rooted at `root_position`/`root_rotation` and lifted onto the ground) by
//!    `sinew_blend_alpha`, then the clip alone;
//! 6. **stands**, animated again.
//!
//! Its cape, a grid cloth, hangs from the middle-spine bone inside the step
//! (`sinew_body_attach_to_ragdoll`) and meets the bones as colliders
//! (`sinew_body_set_ragdoll_collision`), so it stays on the shoulders through the walk, the
//! fall and the get-up. Writes `DIR/ragdoll.png` (the six moments, the hit drawn as an arrow)
//! and the scene's lines of the summary: the pins' error while walking, the bone hit, the
//! frame of the balance loss, the time to rest, the side and clip, the blend's first alpha
//! and how far its first frame is from the snapshot, the worst joint separation during the
//! fall, the cape's pin error.

use std::f32::consts::PI;
use std::time::Instant;

use glam::{Quat, Vec3};
use sinew::ffi::cloth::*;
use sinew::ffi::collider::*;
use sinew::ffi::getup::*;
use sinew::ffi::ragdoll::*;
use sinew::ffi::types::*;
use sinew::ffi::world::*;

use super::{Camera, Canvas, CapsuleShape, GroundMap, PANEL_H, PANEL_W, Paint, Res, SS, background, check, draw_capsule, draw_sheet, draw_stick, fill_triangle_2d, gv, read, sv, tessellate_capsule};

const MAX_FRAMES: u32 = 600;
const HIT_FRAME: u32 = 70;
/// The hit (N·s, forwards).
const HIT_IMPULSE: f32 = 30.0;
/// Frames after the hit the host waits for the balance loss before going limp itself.
const BALANCE_WAIT: u32 = 90;
/// Seconds every bone stays slow before the ragdoll counts as at rest.
const REST_HOLD: f32 = 0.5;
/// The get-up blend from the snapshot (s).
const BLEND_TIME: f32 = 0.6;
/// Frames from rest at the walk's start not counted in its pin error.
const WARM_UP: u32 = 15;
/// Panels: frame of the walk, frames after the hit, after going limp, after the get-up's
/// start, and standing frames after the clip's end.
const WALK_PANEL: u32 = 50;
const HIT_PANEL: u32 = 3;
/// The falling moment: the first limp frame with the head this low (m).
const FALL_PANEL_HEAD: f32 = 0.9;
const GET_UP_PANEL: u32 = 66;
const STAND_FRAMES: u32 = 20;
const WALK_SPEED: f32 = 1.4;
const CAPE_COLS: u32 = 9;
const CAPE_ROWS: u32 = 14;
const CAPE_SPACING: f32 = 0.05;
const QUAT_IDENTITY: SinewQuat = SinewQuat { x: 0.0, y: 0.0, z: 0.0, w: 1.0 };
const BONES: usize = SinewHumanoidBone::SINEW_HUMANOID_BONE_COUNT as usize;

pub struct RagdollSnapshot {
    pub caption: String,
    shapes: Vec<BoneSolid>,
    cape: Vec<Vec3>,
    cape_normals: Vec<Vec3>,
    target: Vec3,
    /// Where the hit landed and its direction, drawn as an arrow.
    hit: Option<(Vec3, Vec3)>,
}

pub struct RagdollRun {
    pub snapshots: Vec<RagdollSnapshot>,
    pub summary: String,
}

/// A bone's solid for the renderer.
#[derive(Clone, Copy)]
enum BoneSolid {
    Round(CapsuleShape),
    Box { centre: Vec3, rotation: Quat, half: Vec3, paint: Paint },
}

fn q(r: SinewQuat) -> Quat {
    Quat::from_xyzw(r.x, r.y, r.z, r.w)
}

fn sq(r: Quat) -> SinewQuat {
    SinewQuat { x: r.x, y: r.y, z: r.z, w: r.w }
}

fn paint_of(bone: usize) -> Paint {
    use SinewHumanoidBone::*;
    match bone as u32 {
        b if b == SINEW_HUMANOID_HEAD as u32 => Paint::Head,
        b if b == SINEW_HUMANOID_MIDDLE_SPINE as u32 || b == SINEW_HUMANOID_LEFT_ARM as u32 || b == SINEW_HUMANOID_RIGHT_ARM as u32 => Paint::Shirt,
        b if b == SINEW_HUMANOID_LEFT_ELBOW as u32 || b == SINEW_HUMANOID_RIGHT_ELBOW as u32 => Paint::Skin,
        _ => Paint::Trousers,
    }
}

/// The bone's shape in the world, from its pose.
fn solid(d: &SinewBoneDesc, position: Vec3, rotation: Quat, bone: usize) -> BoneSolid {
    let rot = rotation * q(d.shape_rotation);
    let centre = position + rotation * gv(d.shape_offset);
    let paint = paint_of(bone);
    if d.shape == SinewShape::SINEW_SHAPE_BOX as u32 {
        return BoneSolid::Box { centre, rotation: rot, half: gv(d.half_extents), paint };
    }
    let (h, r0, r1) = if d.shape == SinewShape::SINEW_SHAPE_SPHERE as u32 { (0.0, d.radius, d.radius) } else { (d.half_height, d.radius0, d.radius1) };
    BoneSolid::Round(CapsuleShape { c0: centre + rot * Vec3::new(0.0, -h, 0.0), c1: centre + rot * Vec3::new(0.0, h, 0.0), r0, r1, frame: rot, paint })
}

/// The bone poses of a character pose given as *turns*: each bone's rotation about its
/// joint, in the character's axes as the bind pose holds them (right +X, up +Y, forward +Z),
/// carried down the chain; the pelvis goes to `root` and the whole body is turned by `body`
/// about it. A turn by −θ about the right sends a limb forward (Unity's sign; see the joint
/// docs), +θ bends a knee or tips the spine forward.
fn pose_from_turns(bind: &[SinewBoneDesc], turns: &[Quat; BONES], root: Vec3, body: Quat) -> ([SinewVec3; BONES], [SinewQuat; BONES]) {
    let mut pos = [SinewVec3::default(); BONES];
    let mut rot = [QUAT_IDENTITY; BONES];
    // carried[i]: the product of the turns from the body's turn down to bone i.
    let mut carried = [Quat::IDENTITY; BONES];
    for i in 0..BONES {
        let (bp, br) = (gv(bind[i].position), q(bind[i].rotation));
        let (wp, c) = if bind[i].parent < 0 {
            (root, body * turns[i])
        } else {
            let p = bind[i].parent as usize;
            let pp = gv(bind[p].position);
            (gv(pos[p]) + carried[p] * (bp - pp), (carried[p] * turns[i]).normalize())
        };
        carried[i] = c;
        pos[i] = sv(wp);
        rot[i] = sq((c * br).normalize());
    }
    (pos, rot)
}

/// The walk cycle at `t` s: thighs swing about the character's right, knees bend back on the
/// forward swing, arms hang 40° down from the T-pose and swing against the legs; the pelvis
/// bobs and moves by `root_shift`.
fn walk_pose(bind: &[SinewBoneDesc], t: f32, root_shift: Vec3) -> ([SinewVec3; BONES], [SinewQuat; BONES]) {
    use SinewHumanoidBone::*;
    let phase = 2.0 * PI * 1.0 * t;
    let mut turns = [Quat::IDENTITY; BONES];
    // Within the hips' limits (Unity's twist [−20°, 70°]: 20° back at most).
    let swing = 0.36 * phase.sin();
    turns[SINEW_HUMANOID_LEFT_HIP as usize] = Quat::from_rotation_x(-(0.07 + swing));
    turns[SINEW_HUMANOID_RIGHT_HIP as usize] = Quat::from_rotation_x(-(0.07 - swing));
    turns[SINEW_HUMANOID_LEFT_KNEE as usize] = Quat::from_rotation_x(0.7 * (phase + 0.8).sin().max(0.0));
    turns[SINEW_HUMANOID_RIGHT_KNEE as usize] = Quat::from_rotation_x(0.7 * (phase + 0.8 + PI).sin().max(0.0));
    let arm_swing = 0.35 * phase.sin();
    turns[SINEW_HUMANOID_LEFT_ARM as usize] = Quat::from_rotation_x(arm_swing) * Quat::from_rotation_z(0.7);
    turns[SINEW_HUMANOID_RIGHT_ARM as usize] = Quat::from_rotation_x(-arm_swing) * Quat::from_rotation_z(-0.7);
    // The elbows are hinges about the character's forward (the wizard's): bent a little.
    turns[SINEW_HUMANOID_LEFT_ELBOW as usize] = Quat::from_rotation_z(-ELBOW_WALK);
    turns[SINEW_HUMANOID_RIGHT_ELBOW as usize] = Quat::from_rotation_z(ELBOW_WALK);
    let bob = Vec3::new(0.0, 0.02 * (2.0 * phase).cos(), 0.0);
    pose_from_turns(bind, &turns, gv(bind[SinewHumanoidBone::SINEW_HUMANOID_PELVIS as usize].position) + root_shift + bob, Quat::IDENTITY)
}

/// One key of the get-up clip: the body's pitch about the character's right (+90° lying
/// face down with the head forward, −90° on the back with the head behind) and its roll
/// about its own long axis (for a body on its side), then the joints: hip flexion (thigh
/// forwards), knee bend, spine and head bend forwards, the arms lowered from the T-pose and
/// swung forwards, the elbows bent.
#[derive(Clone, Copy)]
struct Key {
    t: f32,
    pitch: f32,
    roll: f32,
    hip: f32,
    knee: f32,
    spine: f32,
    head: f32,
    arm_down: f32,
    arm_forward: f32,
    elbow: f32,
}

impl Key {
    fn lerp(&self, o: &Key, a: f32) -> Key {
        let l = |x: f32, y: f32| x + (y - x) * a;
        Key {
            t: l(self.t, o.t),
            pitch: l(self.pitch, o.pitch),
            roll: l(self.roll, o.roll),
            hip: l(self.hip, o.hip),
            knee: l(self.knee, o.knee),
            spine: l(self.spine, o.spine),
            head: l(self.head, o.head),
            arm_down: l(self.arm_down, o.arm_down),
            arm_forward: l(self.arm_forward, o.arm_forward),
            elbow: l(self.elbow, o.elbow),
        }
    }
}

/// A key at `t` s from its angles in degrees: `[pitch, hip, knee, spine, head, arm_down,
/// arm_forward, elbow]`.
const fn key(t: f32, a: [f32; 8]) -> Key {
    let d = PI / 180.0;
    Key { t, pitch: a[0] * d, roll: 0.0, hip: a[1] * d, knee: a[2] * d, spine: a[3] * d, head: a[4] * d, arm_down: a[5] * d, arm_forward: a[6] * d, elbow: a[7] * d }
}

/// Getting up from the front (the chapter's `GetUpFront`): lying face down, push up on the
/// arms, onto hands and knees, into a crouch, standing.
const GET_UP_FRONT: [Key; 5] = [
    key(0.0, [90.0, 0.0, 0.0, 0.0, 0.0, 75.0, 0.0, 10.0]),
    key(0.45, [72.0, 15.0, 25.0, -10.0, -20.0, 85.0, 65.0, 20.0]),
    key(0.95, [80.0, 85.0, 95.0, 0.0, -15.0, 88.0, 80.0, 5.0]),
    key(1.45, [35.0, 100.0, 100.0, 10.0, -5.0, 75.0, 35.0, 20.0]),
    key(1.95, [0.0, 0.0, 0.0, 0.0, 0.0, 75.0, 0.0, 15.0]),
];

/// Getting up from the back: lying face up, sit up leaning on the arms, tuck the legs and
/// roll forwards into a crouch, standing.
const GET_UP_BACK: [Key; 5] = [
    key(0.0, [-90.0, 0.0, 0.0, 0.0, 0.0, 75.0, 0.0, 10.0]),
    key(0.5, [-25.0, 70.0, 50.0, 10.0, 0.0, 70.0, -35.0, 10.0]),
    key(1.0, [25.0, 110.0, 115.0, 15.0, 0.0, 70.0, 50.0, 20.0]),
    key(1.5, [25.0, 100.0, 100.0, 10.0, -5.0, 75.0, 35.0, 20.0]),
    key(1.95, [0.0, 0.0, 0.0, 0.0, 0.0, 75.0, 0.0, 15.0]),
];

const GET_UP_TIME: f32 = 1.95;
const ELBOW_WALK: f32 = 0.3;

/// The lowest point of a bone's solid (m, world y).
fn lowest(s: &BoneSolid) -> f32 {
    match *s {
        BoneSolid::Round(c) => (c.c0.y - c.r0).min(c.c1.y - c.r1),
        BoneSolid::Box { centre, rotation, half, .. } => {
            centre.y - (0..3).map(|k| (rotation * Vec3::AXES[k]).y.abs() * half[k]).sum::<f32>()
        }
    }
}

/// The get-up clip at `t` s (keys eased in between), rooted at the clip's root from
/// `sinew_ragdoll_get_up_info` (position on the ground, turn about up): the pelvis stays
/// above the root and the pose is lifted so its lowest point touches the ground. `roll`
/// turns the first key onto the side the body lies on.
fn get_up_pose(bind: &[SinewBoneDesc], clip: &[Key], roll: f32, t: f32, root: Vec3, root_rotation: Quat) -> ([SinewVec3; BONES], [SinewQuat; BONES]) {
    use SinewHumanoidBone::*;
    let mut first = clip[0];
    first.roll = roll;
    let t = t.clamp(0.0, clip[clip.len() - 1].t);
    let k = (1..clip.len()).find(|&k| t <= clip[k].t).unwrap_or(clip.len() - 1);
    let a = if k == 1 { &first } else { &clip[k - 1] };
    let b = &clip[k];
    let u = ((t - a.t) / (b.t - a.t)).clamp(0.0, 1.0);
    let p = a.lerp(b, u * u * (3.0 - 2.0 * u));
    let mut turns = [Quat::IDENTITY; BONES];
    turns[SINEW_HUMANOID_LEFT_HIP as usize] = Quat::from_rotation_x(-p.hip);
    turns[SINEW_HUMANOID_RIGHT_HIP as usize] = Quat::from_rotation_x(-p.hip);
    turns[SINEW_HUMANOID_LEFT_KNEE as usize] = Quat::from_rotation_x(p.knee);
    turns[SINEW_HUMANOID_RIGHT_KNEE as usize] = Quat::from_rotation_x(p.knee);
    turns[SINEW_HUMANOID_MIDDLE_SPINE as usize] = Quat::from_rotation_x(p.spine);
    turns[SINEW_HUMANOID_HEAD as usize] = Quat::from_rotation_x(p.head);
    turns[SINEW_HUMANOID_LEFT_ARM as usize] = Quat::from_rotation_x(-p.arm_forward) * Quat::from_rotation_z(p.arm_down);
    turns[SINEW_HUMANOID_RIGHT_ARM as usize] = Quat::from_rotation_x(-p.arm_forward) * Quat::from_rotation_z(-p.arm_down);
    turns[SINEW_HUMANOID_LEFT_ELBOW as usize] = Quat::from_rotation_z(-p.elbow);
    turns[SINEW_HUMANOID_RIGHT_ELBOW as usize] = Quat::from_rotation_z(p.elbow);
    let body = root_rotation * Quat::from_rotation_x(p.pitch) * Quat::from_rotation_y(p.roll);
    let (pos, rot) = pose_from_turns(bind, &turns, root, body);
    let low = (0..BONES).map(|i| lowest(&solid(&bind[i], gv(pos[i]), q(rot[i]), i))).fold(f32::INFINITY, f32::min);
    pose_from_turns(bind, &turns, root + Vec3::Y * (root.y - low + 0.002), body)
}

/// Largest distance (m) between a joint's two anchors: the child's, and the parent's as the
/// bind pose placed it.
fn joint_separation(bind: &[SinewBoneDesc], pos: &[SinewVec3], rot: &[SinewQuat]) -> f32 {
    let mut worst = 0.0f32;
    for i in 0..bind.len() {
        let p = bind[i].parent;
        if p < 0 {
            continue;
        }
        let p = p as usize;
        let anchor = gv(bind[i].joint.anchor);
        let bind_world = gv(bind[i].position) + q(bind[i].rotation) * anchor;
        let in_parent = q(bind[p].rotation).inverse() * (bind_world - gv(bind[p].position));
        let child = gv(pos[i]) + q(rot[i]) * anchor;
        let parent = gv(pos[p]) + q(rot[p]) * in_parent;
        worst = worst.max(child.distance(parent));
    }
    worst
}

fn cape_triangles() -> Vec<[usize; 3]> {
    let c = CAPE_COLS as usize;
    let mut tris = Vec::new();
    for r in 0..CAPE_ROWS as usize - 1 {
        for k in 0..c - 1 {
            let a = r * c + k;
            tris.push([a, a + c, a + 1]);
            tris.push([a + 1, a + c, a + c + 1]);
        }
    }
    tris
}

pub fn simulate_ragdoll() -> Res<RagdollRun> {
    let mut wd = std::mem::MaybeUninit::<SinewWorldDesc>::uninit();
    check(sinew_world_desc_default(wd.as_mut_ptr()), "sinew_world_desc_default")?;
    let wd = unsafe { wd.assume_init() };
    let mut world = SinewWorld::default();
    check(sinew_world_create(&wd, &mut world), "sinew_world_create (ragdoll)")?;

    let mut cd = std::mem::MaybeUninit::<SinewColliderDesc>::uninit();
    check(sinew_collider_desc_default(cd.as_mut_ptr()), "sinew_collider_desc_default")?;
    let mut cd = unsafe { cd.assume_init() };
    cd.shape = SinewShape::SINEW_SHAPE_PLANE as u32;
    cd.transform = SinewMat4 { m: glam::Mat4::IDENTITY.to_cols_array() };
    let mut floor = SinewCollider::default();
    check(sinew_collider_create(world, &cd, &mut floor), "sinew_collider_create (floor)")?;

    // The ragdoll: the humanoid template on the default 1.8 m rig, its bones dynamic.
    let mut hb = std::mem::MaybeUninit::<SinewHumanoidBones>::uninit();
    check(sinew_humanoid_bones_default(hb.as_mut_ptr()), "sinew_humanoid_bones_default")?;
    let hb = unsafe { hb.assume_init() };
    let mut settings = std::mem::MaybeUninit::<SinewRagdollSettings>::uninit();
    check(sinew_ragdoll_settings_default(settings.as_mut_ptr()), "sinew_ragdoll_settings_default")?;
    let settings = unsafe { settings.assume_init() };
    let mut bind = {
        let mut d = std::mem::MaybeUninit::<SinewBoneDesc>::uninit();
        check(sinew_bone_desc_default(d.as_mut_ptr()), "sinew_bone_desc_default")?;
        vec![unsafe { d.assume_init() }; BONES]
    };
    check(sinew_humanoid_bone_descs(&hb, bind.as_mut_ptr(), BONES), "sinew_humanoid_bone_descs")?;
    let mut ragdoll = SinewRagdoll::default();
    check(sinew_ragdoll_create_humanoid(world, &hb, &settings, &mut ragdoll), "sinew_ragdoll_create_humanoid")?;

    // The cape: a grid hanging 0.14 m behind the spine from just below the shoulders, its
    // top row on the middle-spine bone.
    let spine = SinewHumanoidBone::SINEW_HUMANOID_MIDDLE_SPINE as usize;
    let top = gv(hb.left_arm).y - 0.03;
    let mut gd = std::mem::MaybeUninit::<SinewClothGridDesc>::uninit();
    check(sinew_cloth_grid_desc_default(gd.as_mut_ptr()), "sinew_cloth_grid_desc_default")?;
    let mut gd = unsafe { gd.assume_init() };
    let h = std::f32::consts::FRAC_1_SQRT_2;
    gd.columns = CAPE_COLS;
    gd.rows = CAPE_ROWS;
    gd.spacing = CAPE_SPACING;
    gd.origin = sv(Vec3::new(0.0, top - 0.5 * CAPE_SPACING * (CAPE_ROWS - 1) as f32, -0.15));
    gd.orientation = SinewQuat { x: h, y: 0.0, z: 0.0, w: h };
    gd.pin_mode = SinewPinMode::SINEW_PIN_NONE as u32;
    gd.material.thickness = 0.012;
    gd.material.bend_compliance = 0.01;
    gd.material.damping = 0.6;
    let mut cape = SinewBody::default();
    check(sinew_cloth_create_grid(world, &gd, &mut cape), "sinew_cloth_create_grid (cape)")?;
    let start = read(cape, false, "cape")?;
    let top_row: Vec<u32> = (0..start.len() as u32).filter(|&v| (start[v as usize].y - top).abs() < 1e-4).collect();
    if top_row.len() != CAPE_COLS as usize {
        return Err(format!("the cape's top row has {} vertices, not {CAPE_COLS}", top_row.len()));
    }
    let (sp, sr) = (gv(bind[spine].position), q(bind[spine].rotation));
    let offsets: Vec<SinewVec3> = top_row.iter().map(|&v| sv(sr.inverse() * (start[v as usize] - sp))).collect();
    let bones = vec![spine as u32; top_row.len()];
    check(
        sinew_body_attach_to_ragdoll(cape, ragdoll, top_row.as_ptr(), top_row.len(), bones.as_ptr(), bones.len(), offsets.as_ptr(), offsets.len()),
        "sinew_body_attach_to_ragdoll",
    )?;
    check(sinew_body_set_ragdoll_collision(cape, ragdoll, 1), "sinew_body_set_ragdoll_collision")?;

    // Powered from the first frame: dynamic bones in the walk's first pose, every muscle at
    // strength 1 and every pin at weight 1; the walk's pose is the target of every frame.
    let (p0, r0) = walk_pose(&bind, 0.0, Vec3::ZERO);
    check(sinew_ragdoll_set_pose(ragdoll, p0.as_ptr(), BONES, r0.as_ptr(), BONES, 0), "sinew_ragdoll_set_pose")?;
    check(sinew_ragdoll_set_targets(ragdoll, p0.as_ptr(), BONES, r0.as_ptr(), BONES), "sinew_ragdoll_set_targets")?;
    check(sinew_ragdoll_set_muscle_strength_all(ragdoll, 1.0), "sinew_ragdoll_set_muscle_strength_all")?;
    check(sinew_ragdoll_set_pin_weight_all(ragdoll, 1.0), "sinew_ragdoll_set_pin_weight_all")?;
    let mut query = std::mem::MaybeUninit::<SinewGetUpQuery>::uninit();
    check(sinew_get_up_query_default(query.as_mut_ptr()), "sinew_get_up_query_default")?;
    let query = unsafe { query.assume_init() };
    let pelvis_bone = SinewHumanoidBone::SINEW_HUMANOID_PELVIS as usize;

    let mut snapshots = Vec::new();
    let (mut pos, mut rot) = ([SinewVec3::default(); BONES], [QUAT_IDENTITY; BONES]);
    let (mut target_pos, mut target_rot) = (p0, r0);
    let (mut worst_sep, mut worst_pin, mut hit_bone) = (0.0f32, 0.0f32, u32::MAX);
    let (mut walk_err, mut walk_err_start, mut walk_turn) = (0.0f32, 0.0f32, 0.0f32);
    let mut hit_state = SinewDriveState::default();
    let mut pelvis_off = 0.0f32;
    let mut phase = Phase::Walking;
    let (mut limp_at, mut balance_at, mut rest_at, mut up_at) = (None::<u32>, None::<u32>, None::<u32>, None::<u32>);
    let mut info = None::<SinewGetUpInfo>;
    let mut hit_point = Vec3::ZERO;
    let mut fall_panel = None::<u32>;
    let (mut clip, mut roll, mut side_name) = (&GET_UP_FRONT[..], 0.0f32, "");
    let (mut first_alpha, mut first_blend_diff, mut first_read_diff) = (f32::NAN, (f32::NAN, f32::NAN), (f32::NAN, f32::NAN));
    let mut snap = ([SinewVec3::default(); BONES], [QUAT_IDENTITY; BONES]);
    let mut step_us = Vec::new();
    let mut frame = 0u32;
    while frame < MAX_FRAMES {
        frame += 1;
        let t = frame as f32 / 60.0;
        match phase {
            Phase::Walking | Phase::Hit => {
                // The host's animation: the walk cycle, given to the muscles and pins.
                (target_pos, target_rot) = walk_pose(&bind, t, Vec3::new(0.0, 0.0, WALK_SPEED * t));
                check(sinew_ragdoll_set_targets(ragdoll, target_pos.as_ptr(), BONES, target_rot.as_ptr(), BONES), "sinew_ragdoll_set_targets")?;
            }
            Phase::Limp => {}
            Phase::GettingUp(start) | Phase::Standing(start) => {
                // The chapter's get-up: the clip plays from the snapshot's moment; for BLEND_TIME
                // its pose is blended from the snapshot, and the blend is the bones' target.
                let tg = (frame - start) as f32 / 60.0;
                let i = info.expect("get-up info");
                let (cp, cr) = get_up_pose(&bind, clip, roll, tg, gv(i.root_position), q(i.root_rotation));
                let mut alpha = 0.0f32;
                check(sinew_blend_alpha(tg, BLEND_TIME, &mut alpha), "sinew_blend_alpha")?;
                check(
                    sinew_ragdoll_blend_from_snapshot(ragdoll, cp.as_ptr(), BONES, cr.as_ptr(), BONES, alpha, target_pos.as_mut_ptr(), BONES, target_rot.as_mut_ptr(), BONES),
                    "sinew_ragdoll_blend_from_snapshot",
                )?;
                if frame == start {
                    first_alpha = alpha;
                    first_blend_diff = pose_difference((&target_pos, &target_rot), (&snap.0, &snap.1));
                }
                check(sinew_ragdoll_set_targets(ragdoll, target_pos.as_ptr(), BONES, target_rot.as_ptr(), BONES), "sinew_ragdoll_set_targets")?;
                if matches!(phase, Phase::GettingUp(_)) && tg >= GET_UP_TIME {
                    phase = Phase::Standing(start);
                    up_at = Some(frame);
                }
            }
        }
        if frame == HIT_FRAME {
            // The hit: an impulse forwards at a point on the upper back; the bone nearest to
            // it (and, less, its neighbours) loses muscle strength and pin weight.
            hit_point = gv(pos[spine]) + q(rot[spine]) * Vec3::new(0.0, 0.18, -0.13);
            check(sinew_ragdoll_apply_impulse(ragdoll, sv(hit_point), sv(Vec3::Z * HIT_IMPULSE), &mut hit_bone), "sinew_ragdoll_apply_impulse")?;
            check(sinew_ragdoll_get_drive_state(ragdoll, hit_bone, &mut hit_state), "sinew_ragdoll_get_drive_state")?;
            // Pinned, the body never loses its balance (the pins that are left hold the pelvis
            // within centimetres of the walk, whatever the hit): the host lets go of the pins
            // as the hit lands. The muscles, weakened by the hit, keep the pose; the body
            // topples until the library reports the balance loss and goes limp.
            check(sinew_ragdoll_set_pin_weight_all(ragdoll, 0.0), "sinew_ragdoll_set_pin_weight_all")?;
            phase = Phase::Hit;
        }
        let t0 = Instant::now();
        check(sinew_world_step(world, 1.0 / 60.0), "sinew_world_step (ragdoll)")?;
        step_us.push(t0.elapsed().as_secs_f64() * 1e6);
        check(sinew_ragdoll_read_pose(ragdoll, pos.as_mut_ptr(), BONES, rot.as_mut_ptr(), BONES), "sinew_ragdoll_read_pose")?;
        let mut events = 0u32;
        check(sinew_ragdoll_take_events(ragdoll, &mut events), "sinew_ragdoll_take_events")?;
        match phase {
            Phase::Walking => {
                let (e, r) = pose_difference((&pos, &rot), (&target_pos, &target_rot));
                if frame > WARM_UP {
                    walk_err = walk_err.max(e);
                    walk_turn = walk_turn.max(r);
                } else {
                    walk_err_start = walk_err_start.max(e);
                }
            }
            Phase::Hit => {
                pelvis_off = pelvis_off.max(gv(pos[pelvis_bone]).distance(gv(target_pos[pelvis_bone])));
                if events & SinewRagdollEvent::SINEW_RAGDOLL_EVENT_BALANCE_LOST as u32 != 0 {
                    balance_at = Some(frame);
                    limp_at = Some(frame);
                    phase = Phase::Limp;
                } else if frame >= HIT_FRAME + BALANCE_WAIT {
                    // No balance loss: the host lets go itself.
                    check(sinew_ragdoll_set_muscle_strength_all(ragdoll, 0.0), "sinew_ragdoll_set_muscle_strength_all")?;
                    check(sinew_ragdoll_set_pin_weight_all(ragdoll, 0.0), "sinew_ragdoll_set_pin_weight_all")?;
                    limp_at = Some(frame);
                    phase = Phase::Limp;
                }
            }
            Phase::Limp => {
                let mut at_rest = 0u32;
                check(sinew_ragdoll_is_at_rest(ragdoll, REST_HOLD, &mut at_rest), "sinew_ragdoll_is_at_rest")?;
                if at_rest == 1 {
                    rest_at = Some(frame);
                    let mut gi = std::mem::MaybeUninit::<SinewGetUpInfo>::uninit();
                    check(sinew_ragdoll_get_up_info(ragdoll, &query, gi.as_mut_ptr()), "sinew_ragdoll_get_up_info")?;
                    let gi = unsafe { gi.assume_init() };
                    use SinewLyingSide::*;
                    let side = [SINEW_LYING_FACE_UP, SINEW_LYING_FACE_DOWN, SINEW_LYING_LEFT_SIDE, SINEW_LYING_RIGHT_SIDE].into_iter().find(|s| *s as u32 == gi.side);
                    side_name = match side {
                        Some(SINEW_LYING_FACE_UP) => "FACE UP",
                        Some(SINEW_LYING_FACE_DOWN) => "FACE DOWN",
                        Some(SINEW_LYING_LEFT_SIDE) => "LEFT SIDE",
                        Some(SINEW_LYING_RIGHT_SIDE) => "RIGHT SIDE",
                        None => return Err(format!("sinew_ragdoll_get_up_info gave side {}", gi.side)),
                    };
                    clip = if gi.from_front == 1 { &GET_UP_FRONT[..] } else { &GET_UP_BACK[..] };
                    // On a side, the clip's first key is rolled onto it: the right faces up
                    // lying on the left side.
                    roll = match side {
                        Some(SINEW_LYING_LEFT_SIDE | SINEW_LYING_RIGHT_SIDE) => {
                            let want_up = side == Some(SINEW_LYING_LEFT_SIDE);
                            let body = |r: f32| q(gi.root_rotation) * Quat::from_rotation_x(clip[0].pitch) * Quat::from_rotation_y(r);
                            if ((body(0.5 * PI) * Vec3::X).y > 0.0) == want_up { 0.5 * PI } else { -0.5 * PI }
                        }
                        _ => 0.0,
                    };
                    info = Some(gi);
                    // Physics lets go: kinematic again, which takes the snapshot.
                    check(sinew_ragdoll_set_kinematic(ragdoll, 1), "sinew_ragdoll_set_kinematic")?;
                    check(sinew_ragdoll_read_snapshot(ragdoll, snap.0.as_mut_ptr(), BONES, snap.1.as_mut_ptr(), BONES), "sinew_ragdoll_read_snapshot")?;
                    phase = Phase::GettingUp(frame + 1);
                }
            }
            Phase::GettingUp(start) if frame == start => first_read_diff = pose_difference((&pos, &rot), (&snap.0, &snap.1)),
            _ => {}
        }
        if frame >= HIT_FRAME && rest_at.is_none() {
            worst_sep = worst_sep.max(joint_separation(&bind, &pos, &rot));
        }
        let x = read(cape, false, "cape")?;
        for (k, &v) in top_row.iter().enumerate() {
            let want = gv(pos[spine]) + q(rot[spine]) * gv(offsets[k]);
            worst_pin = worst_pin.max(x[v as usize].distance(want));
        }
        let caption = if frame == WALK_PANEL {
            Some("WALKING (POWERED)".to_string())
        } else if frame == HIT_FRAME + HIT_PANEL {
            Some("HIT".to_string())
        } else if limp_at.is_some() && fall_panel.is_none() && gv(pos[SinewHumanoidBone::SINEW_HUMANOID_HEAD as usize]).y < FALL_PANEL_HEAD {
            fall_panel = Some(frame);
            Some("FALLING".to_string())
        } else if rest_at == Some(frame) {
            Some("AT REST".to_string())
        } else if matches!(phase, Phase::GettingUp(s) if frame == s + GET_UP_PANEL) {
            Some(format!("GETTING UP ({side_name})"))
        } else if up_at.is_some_and(|u| frame == u + STAND_FRAMES) {
            Some("STANDING".to_string())
        } else {
            None
        };
        if let Some(caption) = caption {
            let shapes = (0..BONES).map(|i| solid(&bind[i], gv(pos[i]), q(rot[i]), i)).collect();
            let pelvis = gv(pos[pelvis_bone]);
            let hit = (frame == HIT_FRAME + HIT_PANEL).then_some((hit_point, Vec3::Z));
            snapshots.push(RagdollSnapshot { caption, shapes, cape_normals: read(cape, true, "cape normals")?, cape: x, target: Vec3::new(pelvis.x, 0.6, pelvis.z), hit });
        }
        if up_at.is_some_and(|u| frame >= u + STAND_FRAMES) {
            break;
        }
    }
    if snapshots.len() != 6 {
        return Err(format!("the ragdoll scene ended at frame {frame} with {} of its 6 moments (limp {limp_at:?}, at rest {rest_at:?}, standing {up_at:?})", snapshots.len()));
    }
    step_us.sort_by(f64::total_cmp);
    let (limp, rest, i) = (limp_at.unwrap_or(0), rest_at.unwrap_or(0), info.expect("get-up info"));
    let bone_name = BONE_NAMES.get(hit_bone as usize).copied().unwrap_or("?");
    let balance = match balance_at {
        Some(f) => format!("SINEW_RAGDOLL_EVENT_BALANCE_LOST at frame {f}, {:.0} ms after the hit (the pelvis {:.1} m off the walk): limp", (f - HIT_FRAME) as f32 * 1000.0 / 60.0, settings.balance_distance),
        None => format!("no SINEW_RAGDOLL_EVENT_BALANCE_LOST within {BALANCE_WAIT} frames (pelvis at most {pelvis_off:.3} m off the walk): the host went limp at frame {limp}"),
    };
    let rp = gv(i.root_position);
    let summary = format!(
        "ragdoll            : humanoid template ({BONES} bones) + {}-particle cape on its spine bone: walks powered, is hit, falls, rests, gets up ({frame} frames)\n\
         ragdoll walking    : dynamic, muscle strength 1 and pin weight 1 on the walk: bones within {:.1} mm, {:.2} deg of it (frames {}-{}; {:.1} mm in the first {WARM_UP}, from rest)\n\
         ragdoll hit        : {HIT_IMPULSE} N*s forwards on the upper back at frame {HIT_FRAME}: bone {hit_bone} ({bone_name}), left {:.2} of its strength and pin (hit loss {:.2}); the host lets go of the pins\n\
         ragdoll balance    : {balance}\n\
         ragdoll at rest    : sinew_ragdoll_is_at_rest({REST_HOLD} s) at frame {rest}, {:.2} s after going limp\n\
         ragdoll get up     : lying {} (front_up {:.2}): the clip from the {}, rooted at ({:.2}, {:.2}, {:.2}) m, heading ({:.2}, {:.2}, {:.2}); kinematic, snapshot taken\n\
         ragdoll blend      : {BLEND_TIME} s from the snapshot; alpha {:.3} at its first frame, whose blend is the snapshot within {:.1e} m, {:.1e} rad (bones read back {:.1e} m, {:.1e} rad)\n\
         ragdoll joints     : worst separation during the fall {:.3} mm; cape pins off their bone by at most {:.2e} m\n\
         ragdoll step       : median {:.0} us per host frame (ragdoll + cape)\n",
        start.len(),
        walk_err * 1000.0,
        walk_turn.to_degrees(),
        WARM_UP + 1,
        HIT_FRAME - 1,
        walk_err_start * 1000.0,
        hit_state.effective_pin_weight,
        hit_state.hit_loss,
        (rest - limp) as f32 / 60.0,
        side_name.to_lowercase(),
        i.front_up,
        if i.from_front == 1 { "front" } else { "back" },
        rp.x,
        rp.y,
        rp.z,
        i.heading.x,
        i.heading.y,
        i.heading.z,
        first_alpha,
        first_blend_diff.0,
        first_blend_diff.1,
        first_read_diff.0,
        first_read_diff.1,
        worst_sep * 1000.0,
        worst_pin,
        step_us[step_us.len() / 2],
    );
    check(sinew_world_destroy(world), "sinew_world_destroy (ragdoll)")?;
    if !pos.iter().all(|p| gv(*p).is_finite()) {
        return Err("a bone pose read back is not finite".into());
    }
    Ok(RagdollRun { snapshots, summary })
}

#[derive(Clone, Copy, PartialEq)]
enum Phase {
    Walking,
    Hit,
    Limp,
    /// Since the frame given.
    GettingUp(u32),
    Standing(u32),
}

const BONE_NAMES: [&str; BONES] = ["pelvis", "left hip", "left knee", "right hip", "right knee", "middle spine", "head", "left arm", "left elbow", "right arm", "right elbow"];

/// The angle (rad) between two rotations (exact near 0, unlike an arc cosine).
fn angle(a: Quat, b: Quat) -> f32 {
    let d = a * b.inverse();
    2.0 * Vec3::new(d.x, d.y, d.z).length().atan2(d.w.abs())
}

/// Largest distance (m) between the bones' positions and largest angle (rad) between their
/// rotations in two poses.
fn pose_difference(a: (&[SinewVec3; BONES], &[SinewQuat; BONES]), b: (&[SinewVec3; BONES], &[SinewQuat; BONES])) -> (f32, f32) {
    let mut d = (0.0f32, 0.0f32);
    for i in 0..BONES {
        d.0 = d.0.max(gv(a.0[i]).distance(gv(b.0[i])));
        d.1 = d.1.max(angle(q(a.1[i]), q(b.1[i])));
    }
    d
}

/// A box as a shaded solid with flat faces.
fn draw_box(cam: &Camera, centre: Vec3, rotation: Quat, half: Vec3, paint: Paint, canvas: &mut Canvas) {
    let l = cam.light;
    let (w, h) = (canvas.w, canvas.h);
    for axis in 0..3 {
        for sign in [-1.0f32, 1.0] {
            let mut n = Vec3::ZERO;
            n[axis] = sign;
            let (u, v) = ((axis + 1) % 3, (axis + 2) % 3);
            let corner = |a: f32, b: f32| {
                let mut p = n * half[axis];
                p[u] = a * half[u];
                p[v] = b * half[v];
                centre + rotation * p
            };
            let quad = [corner(-1.0, -1.0), corner(1.0, -1.0), corner(1.0, 1.0), corner(-1.0, 1.0)];
            let wn = rotation * n;
            if wn.dot(cam.eye - quad[0]) <= 0.0 {
                continue;
            }
            let base = paint.color(n);
            let col = base * (0.16 + 0.1 * (0.5 + 0.5 * wn.y) + 0.74 * wn.dot(l).max(0.0));
            let proj = quad.map(|p| cam.project(p));
            if proj.iter().any(|q| q.3 <= 0.05) {
                continue;
            }
            for [i, j, k] in [[0, 1, 2], [0, 2, 3]] {
                let (a, b, c) = (proj[i], proj[j], proj[k]);
                fill_triangle_2d((a.0, a.1), (b.0, b.1), (c.0, c.1), w, h, |x, y, [wa, wb, wc]| {
                    canvas.plot(x, y, a.2 * wa + b.2 * wb + c.2 * wc, col);
                });
            }
        }
    }
}

pub fn render_ragdoll_panel(s: &RagdollSnapshot) -> Vec<Vec3> {
    let (w, h) = (PANEL_W * SS, PANEL_H * SS);
    let eye = s.target + Vec3::new(2.4, 1.7, -2.6);
    let cam = Camera::new(eye, s.target, Vec3::new(0.5, 0.9, -0.6), w, h);
    let mut shadow = GroundMap::new((s.target.x, s.target.z), 3.0, cam.light);
    for shape in &s.shapes {
        match *shape {
            BoneSolid::Round(c) => {
                let mesh = tessellate_capsule(&c);
                for r in 0..mesh.pos.len() / mesh.ring - 1 {
                    for k in 0..mesh.ring - 1 {
                        let (a, b) = (r * mesh.ring + k, (r + 1) * mesh.ring + k);
                        shadow.triangle(mesh.pos[a], mesh.pos[b], mesh.pos[a + 1]);
                        shadow.triangle(mesh.pos[a + 1], mesh.pos[b], mesh.pos[b + 1]);
                    }
                }
            }
            BoneSolid::Box { centre, rotation, half, .. } => {
                let c = |x: f32, y: f32, z: f32| centre + rotation * (half * Vec3::new(x, y, z));
                for (a, b, cc, d) in [(c(-1., -1., -1.), c(1., -1., -1.), c(1., 1., 1.), c(-1., 1., 1.)), (c(-1., -1., 1.), c(1., -1., 1.), c(1., 1., -1.), c(-1., 1., -1.))] {
                    shadow.triangle(a, b, cc);
                    shadow.triangle(a, cc, d);
                }
            }
        }
    }
    let tris = cape_triangles();
    for &[i, j, k] in &tris {
        shadow.triangle(s.cape[i], s.cape[j], s.cape[k]);
    }
    let shadow = shadow.blur();
    let mut canvas = Canvas::new(w, h);
    background(&cam, &shadow, &[], None, &mut canvas);
    for shape in &s.shapes {
        match *shape {
            BoneSolid::Round(c) => draw_capsule(&cam, &c, &mut canvas),
            BoneSolid::Box { centre, rotation, half, paint } => draw_box(&cam, centre, rotation, half, paint, &mut canvas),
        }
    }
    let tints = (Vec3::new(0.10, 0.35, 0.20), Vec3::new(0.85, 0.78, 0.45));
    draw_sheet(&cam, &s.cape, &s.cape_normals, &tris, 1.0, (CAPE_COLS as usize, 2.0), tints, &mut canvas);
    if let Some((at, dir)) = s.hit {
        // The hit: an arrow ending a little short of the point struck.
        let red = Vec3::new(0.85, 0.12, 0.08);
        let tip = at - dir * 0.05;
        let side = dir.cross(Vec3::Y).normalize_or(Vec3::X);
        draw_stick(&cam, tip - dir * 0.45, tip - dir * 0.08, 0.014, red, &mut canvas);
        for k in [-1.0f32, 1.0] {
            draw_stick(&cam, tip, tip - dir * 0.12 + side * (0.07 * k), 0.012, red, &mut canvas);
            draw_stick(&cam, tip, tip - dir * 0.12 + Vec3::Y * (0.07 * k), 0.012, red, &mut canvas);
        }
    }
    canvas.downsample()
}
