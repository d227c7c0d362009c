//! The demo's third scene (chapter sections 1–4 with a cape): a humanoid-template ragdoll
//! (`sinew_ragdoll_create_humanoid`) walks, animated — every bone kinematic and moved each
//! frame by `sinew_ragdoll_set_targets` from a small walk cycle —, is hit in the back
//! (`sinew_ragdoll_set_kinematic(0)` and `sinew_ragdoll_apply_impulse` at the point hit, which
//! picks the nearest bone), falls forwards carrying the walk's momentum and comes to rest on
//! the floor. Its cape, a grid cloth, hangs from the middle-spine bone inside the step
//! (`sinew_body_attach_to_ragdoll`) and meets the bones as colliders
//! (`sinew_body_set_ragdoll_collision`), so it stays on the shoulders and drapes over the
//! fallen body. Writes `DIR/ragdoll.png` (six moments) and the scene's lines of the summary:
//! the worst joint separation during the fall, the cape's pin error, when the ragdoll slept.

use std::f32::consts::PI;
use std::time::Instant;

use glam::{Quat, Vec3};
use sinew::ffi::cloth::*;
use sinew::ffi::collider::*;
use sinew::ffi::ragdoll::*;
use sinew::ffi::types::*;
use sinew::ffi::world::*;

use super::{Camera, Canvas, CapsuleShape, GroundMap, PANEL_H, PANEL_W, Paint, Res, SS, background, check, draw_capsule, draw_sheet, fill_triangle_2d, gv, read, sv, tessellate_capsule};

const FRAMES: u32 = 330;
const HIT_FRAME: u32 = 70;
const WALK_SPEED: f32 = 1.4;
const CAPE_COLS: u32 = 9;
const CAPE_ROWS: u32 = 14;
const CAPE_SPACING: f32 = 0.05;
const PANELS: [(u32, &str); 6] = [(40, "ANIMATED"), (HIT_FRAME + 4, "HIT IN THE BACK"), (HIT_FRAME + 22, "FALLING"), (HIT_FRAME + 45, "DOWN"), (HIT_FRAME + 90, "SETTLING"), (FRAMES, "AT REST")];
const QUAT_IDENTITY: SinewQuat = SinewQuat { x: 0.0, y: 0.0, z: 0.0, w: 1.0 };
const BONES: usize = SinewHumanoidBone::SINEW_HUMANOID_BONE_COUNT as usize;

pub struct RagdollSnapshot {
    pub caption: String,
    shapes: Vec<BoneSolid>,
    cape: Vec<Vec3>,
    cape_normals: Vec<Vec3>,
    target: Vec3,
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

/// The walk cycle as local turns of the bones about their joints (in the bone's frame), for
/// the kinematic part: thighs swing about the character's right, knees bend back on the
/// forward swing, arms hang 40° down from the T-pose and swing against the legs.
fn walk_pose(bind: &[SinewBoneDesc], t: f32, root_shift: Vec3) -> ([SinewVec3; BONES], [SinewQuat; BONES]) {
    use SinewHumanoidBone::*;
    let phase = 2.0 * PI * 1.0 * t;
    let right = Vec3::X;
    let forward = Vec3::Z;
    let mut local = [Quat::IDENTITY; BONES];
    let about = |bone: SinewHumanoidBone, world_axis: Vec3, angle: f32| {
        let r = q(bind[bone as usize].rotation);
        Quat::from_axis_angle((r.inverse() * world_axis).normalize(), angle)
    };
    let swing = 0.45 * phase.sin();
    // A turn by −θ about the right sends a limb forward (Unity's sign; see the joint docs).
    local[SINEW_HUMANOID_LEFT_HIP as usize] = about(SINEW_HUMANOID_LEFT_HIP, right, -swing);
    local[SINEW_HUMANOID_RIGHT_HIP as usize] = about(SINEW_HUMANOID_RIGHT_HIP, right, swing);
    local[SINEW_HUMANOID_LEFT_KNEE as usize] = about(SINEW_HUMANOID_LEFT_KNEE, right, 0.7 * (phase + 0.8).sin().max(0.0));
    local[SINEW_HUMANOID_RIGHT_KNEE as usize] = about(SINEW_HUMANOID_RIGHT_KNEE, right, 0.7 * (phase + 0.8 + PI).sin().max(0.0));
    local[SINEW_HUMANOID_LEFT_ARM as usize] = about(SINEW_HUMANOID_LEFT_ARM, forward, 0.7) * about(SINEW_HUMANOID_LEFT_ARM, right, 0.35 * phase.sin());
    local[SINEW_HUMANOID_RIGHT_ARM as usize] = about(SINEW_HUMANOID_RIGHT_ARM, forward, -0.7) * about(SINEW_HUMANOID_RIGHT_ARM, right, -0.35 * phase.sin());
    local[SINEW_HUMANOID_LEFT_ELBOW as usize] = about(SINEW_HUMANOID_LEFT_ELBOW, Vec3::Y, -0.3);
    local[SINEW_HUMANOID_RIGHT_ELBOW as usize] = about(SINEW_HUMANOID_RIGHT_ELBOW, Vec3::Y, 0.3);
    // Forward kinematics from the bind pose: world = parent world · (parent bind⁻¹ · bind) · turn.
    let mut pos = [SinewVec3::default(); BONES];
    let mut rot = [QUAT_IDENTITY; BONES];
    let bob = Vec3::new(0.0, 0.02 * (2.0 * phase).cos(), 0.0);
    for i in 0..BONES {
        let (bp, br) = (gv(bind[i].position), q(bind[i].rotation));
        let (wp, wr) = if bind[i].parent < 0 {
            (bp + root_shift + bob, br * local[i])
        } else {
            let p = bind[i].parent as usize;
            let (pp, pr) = (gv(bind[p].position), q(bind[p].rotation));
            let rel_p = pr.inverse() * (bp - pp);
            let rel_r = pr.inverse() * br;
            let (wpp, wpr) = (gv(pos[p]), q(rot[p]));
            (wpp + wpr * rel_p, (wpr * rel_r * local[i]).normalize())
        };
        pos[i] = sv(wp);
        rot[i] = sq(wr);
    }
    (pos, rot)
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

    // The ragdoll: the humanoid template on the default 1.8 m rig, animated at first.
    let mut hb = std::mem::MaybeUninit::<SinewHumanoidBones>::uninit();
    check(sinew_humanoid_bones_default(hb.as_mut_ptr()), "sinew_humanoid_bones_default")?;
    let hb = unsafe { hb.assume_init() };
    let mut settings = std::mem::MaybeUninit::<SinewRagdollSettings>::uninit();
    check(sinew_ragdoll_settings_default(settings.as_mut_ptr()), "sinew_ragdoll_settings_default")?;
    let mut settings = unsafe { settings.assume_init() };
    settings.kinematic = 1;
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

    let mut snapshots = Vec::new();
    let (mut pos, mut rot) = ([SinewVec3::default(); BONES], [QUAT_IDENTITY; BONES]);
    let (mut worst_sep, mut worst_pin, mut hit_bone) = (0.0f32, 0.0f32, u32::MAX);
    let mut asleep_at = None;
    let mut step_us = Vec::new();
    for frame in 1..=FRAMES {
        let t = frame as f32 / 60.0;
        if frame < HIT_FRAME {
            let (tp, tr) = walk_pose(&bind, t, Vec3::new(0.0, 0.0, WALK_SPEED * t));
            check(sinew_ragdoll_set_targets(ragdoll, tp.as_ptr(), BONES, tr.as_ptr(), BONES), "sinew_ragdoll_set_targets")?;
        } else if frame == HIT_FRAME {
            // The chapter's Die(): physics takes over and the hit lands at the point struck.
            check(sinew_ragdoll_set_kinematic(ragdoll, 0), "sinew_ragdoll_set_kinematic")?;
            let chest = gv(pos[spine]) + q(rot[spine]) * Vec3::new(0.0, 0.2, -0.12);
            check(sinew_ragdoll_apply_impulse(ragdoll, sv(chest), sv(Vec3::new(0.0, 0.0, 22.0)), &mut hit_bone), "sinew_ragdoll_apply_impulse")?;
        }
        let t0 = Instant::now();
        check(sinew_world_step(world, 1.0 / 60.0), "sinew_world_step (ragdoll)")?;
        step_us.push(t0.elapsed().as_secs_f64() * 1e6);
        check(sinew_ragdoll_read_pose(ragdoll, pos.as_mut_ptr(), BONES, rot.as_mut_ptr(), BONES), "sinew_ragdoll_read_pose")?;
        if frame >= HIT_FRAME {
            worst_sep = worst_sep.max(joint_separation(&bind, &pos, &rot));
        }
        let x = read(cape, false, "cape")?;
        for (k, &v) in top_row.iter().enumerate() {
            let want = gv(pos[spine]) + q(rot[spine]) * gv(offsets[k]);
            worst_pin = worst_pin.max(x[v as usize].distance(want));
        }
        let mut asleep = 0u32;
        check(sinew_ragdoll_is_asleep(ragdoll, &mut asleep), "sinew_ragdoll_is_asleep")?;
        if asleep == 1 && asleep_at.is_none() {
            asleep_at = Some(t);
        }
        if let Some(&(_, caption)) = PANELS.iter().find(|(f, _)| *f == frame) {
            let shapes = (0..BONES).map(|i| solid(&bind[i], gv(pos[i]), q(rot[i]), i)).collect();
            let pelvis = gv(pos[SinewHumanoidBone::SINEW_HUMANOID_PELVIS as usize]);
            snapshots.push(RagdollSnapshot {
                caption: caption.to_string(),
                shapes,
                cape_normals: read(cape, true, "cape normals")?,
                cape: x,
                target: Vec3::new(pelvis.x, 0.6, pelvis.z),
            });
        }
    }
    step_us.sort_by(f64::total_cmp);
    let pelvis = gv(pos[SinewHumanoidBone::SINEW_HUMANOID_PELVIS as usize]);
    let summary = format!(
        "ragdoll            : humanoid template ({BONES} bones) + {}-particle cape on its spine bone, hit at frame {HIT_FRAME} (bone {hit_bone})\n\
         ragdoll joints     : worst separation during the fall {:.3} mm; cape pins off their bone by at most {:.2e} m\n\
         ragdoll at rest    : pelvis at ({:.2}, {:.2}, {:.2}) m, asleep {}\n\
         ragdoll step       : median {:.0} us per host frame (ragdoll + cape)\n",
        start.len(),
        worst_sep * 1000.0,
        worst_pin,
        pelvis.x,
        pelvis.y,
        pelvis.z,
        asleep_at.map_or("never (in 5.5 s)".to_string(), |t| format!("after {t:.2} s")),
        step_us[step_us.len() / 2],
    );
    check(sinew_world_destroy(world), "sinew_world_destroy (ragdoll)")?;
    if !pos.iter().all(|p| gv(*p).is_finite()) {
        return Err("a bone pose read back is not finite".into());
    }
    Ok(RagdollRun { snapshots, summary })
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
    canvas.downsample()
}
