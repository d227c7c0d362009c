//! Every range the header documents, at its edges, through the C ABI (issue 30).
//!
//! The ranges are read from `include/sinew.h` itself (generated from `src/ffi`, and checked
//! against it by `cargo test -p xtask`): every scalar field of an input struct whose comment
//! says `in [a, b]`, `in (a, b]`, `in [a, ∞)` … is one documented range. The table below says
//! how to exercise each (which call takes the struct, from the library's default, and which
//! field to set); a documented range without a table entry, or an entry without a documented
//! range, fails the test, so the header and this test cannot drift apart. Range-like text in
//! another form (`≥ 2`, `1–64`, `[0, 1]` without `in`, `at most 5`) fails too: the header says
//! a field's range one way.
//!
//! For every range: both edges are accepted (an open end: the next float inside), the next
//! float (or integer) outside each finite end is refused with `SINEW_INVALID_ARGUMENT` and a
//! message, the refused call changes nothing (the world's counters, the target's positions
//! and settings read back), and the world steps on after every call.

mod common;

use std::collections::BTreeMap;

use common::*;
use sinew::ffi::getup::*;
use sinew::ffi::softbody::*;

const HEADER: &str = include_str!("../include/sinew.h");

/// Output structs: what they document is what the library reports, not what it accepts.
const OUTPUTS: &[&str] = &["SinewWorldStats", "SinewBodyInfo", "SinewGetUpInfo", "SinewDriveState", "SinewColliderMeshInfo", "SinewEvent"];

#[derive(Clone, Copy, Debug, PartialEq)]
enum Ty {
    F32,
    U32,
}

/// A documented interval; `hi` is `None` for ∞.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Range {
    lo: f64,
    lo_open: bool,
    hi: Option<f64>,
    hi_open: bool,
}

fn number(s: &str) -> Option<f64> {
    let s = s.trim().replace('−', "-");
    if s.is_empty() || !s.starts_with(|c: char| c.is_ascii_digit() || c == '-') {
        return None;
    }
    s.parse().ok()
}

/// The interval that starts at `text[open..]` (`[` or `(`), and where it ends, when it is one:
/// two numbers (the second may be ∞) between brackets.
fn interval(text: &str, open: usize) -> Option<(Range, usize)> {
    let rest = &text[open..];
    let close = rest.find([']', ')'])?;
    let inner = &rest[1..close];
    let (a, b) = inner.split_once(',')?;
    let lo = number(a)?;
    let hi = if b.trim() == "∞" { None } else { Some(number(b)?) };
    let r = Range { lo, lo_open: rest.starts_with('('), hi, hi_open: rest[close..].starts_with(')') };
    Some((r, open + close + 1))
}

/// The documented range of one field's comment, or an error saying what is wrong with it.
fn field_range(comment: &str) -> Result<Option<Range>, String> {
    let text = comment.split_whitespace().collect::<Vec<_>>().join(" ");
    let mut found = None;
    for (at, c) in text.char_indices() {
        if c != '[' && c != '(' {
            continue;
        }
        let Some((r, _)) = interval(&text, at) else { continue };
        let before = &text[..at];
        if before.ends_with(" outside ") {
            continue; // a statement about values refused elsewhere, not this field's range
        }
        if !(before.ends_with(" in ") || before == "in ") {
            return Err(format!("a range not in the `in [a, b]` form at {:?}", &text[at.saturating_sub(20)..]));
        }
        if found.replace(r).is_some() {
            return Err("two ranges in one field's comment".into());
        }
    }
    for legacy in ["≥", "≤", "at most 1", "at least 1", "within ["] {
        if text.contains(legacy) && found.is_none() {
            return Err(format!("a range written as {legacy:?}: write `in [a, b]`"));
        }
    }
    if found.is_none() && text.chars().collect::<Vec<_>>().windows(3).any(|w| w[0].is_ascii_digit() && w[1] == '–' && w[2].is_ascii_digit()) {
        return Err("a range written as `a–b`: write `in [a, b]`".into());
    }
    Ok(found)
}

/// Every `Struct.field` of an input struct with a documented range, and its type.
fn documented() -> BTreeMap<String, (Ty, Range)> {
    let mut out = BTreeMap::new();
    let mut bad = Vec::new();
    let mut current: Option<String> = None;
    let mut comment = String::new();
    let mut in_comment = false;
    for line in HEADER.lines() {
        let t = line.trim();
        if let Some(name) = t.strip_prefix("typedef struct ").and_then(|s| s.strip_suffix(" {")) {
            current = Some(name.to_string());
            comment.clear();
            continue;
        }
        if t.starts_with('}') {
            current = None;
            continue;
        }
        if t.starts_with("/*") {
            in_comment = true;
            comment.clear();
        }
        if in_comment {
            comment.push(' ');
            comment.push_str(t.trim_start_matches("/*").trim_end_matches("*/"));
            in_comment = !t.ends_with("*/");
            continue;
        }
        let Some(s) = current.as_deref() else { continue };
        if OUTPUTS.contains(&s) {
            continue;
        }
        let ty = if t.starts_with("float ") {
            Some(Ty::F32)
        } else if t.starts_with("uint32_t ") {
            Some(Ty::U32)
        } else {
            None
        };
        let field = t.split_whitespace().nth(1).map(|f| f.trim_end_matches(';').to_string());
        let text = std::mem::take(&mut comment);
        let (Some(ty), Some(field)) = (ty, field) else { continue };
        match field_range(&text) {
            Ok(Some(r)) => {
                out.insert(format!("{s}.{field}"), (ty, r));
            }
            Ok(None) => {}
            Err(e) => bad.push(format!("{s}.{field}: {e}")),
        }
    }
    assert!(bad.is_empty(), "ranges the header does not write as `in [a, b]`:\n{}", bad.join("\n"));
    out.extend(argument_ranges());
    out
}

/// Every `function.argument` whose function's comment says "`argument` … in [a, b]": the
/// interval's nearest backticked name before it is a scalar argument of the function.
fn argument_ranges() -> BTreeMap<String, (Ty, Range)> {
    let mut out = BTreeMap::new();
    let mut comment = String::new();
    let mut lines = HEADER.lines().peekable();
    while let Some(line) = lines.next() {
        let t = line.trim();
        if t.starts_with("/*") {
            comment.clear();
            let mut l = t;
            loop {
                comment.push(' ');
                comment.push_str(l.trim_start_matches("/*").trim_end_matches("*/"));
                if l.ends_with("*/") {
                    break;
                }
                l = lines.next().unwrap_or("*/").trim();
            }
            continue;
        }
        let Some(open) = t.find("sinew_").filter(|_| t.contains('(') && !t.starts_with("typedef")) else { continue };
        let mut decl = t.to_string();
        while !decl.contains(");") {
            decl.push(' ');
            decl.push_str(lines.next().unwrap_or(");").trim());
        }
        let name = &decl[open..decl.find('(').unwrap()];
        let params = &decl[decl.find('(').unwrap() + 1..decl.find(')').unwrap()];
        let scalar = |arg: &str| {
            params.split(',').map(str::trim).find_map(|p| match p.rsplit_once(' ') {
                Some(("float", a)) if a == arg => Some(Ty::F32),
                Some(("uint32_t", a)) if a == arg => Some(Ty::U32),
                _ => None,
            })
        };
        let text = std::mem::take(&mut comment).split_whitespace().collect::<Vec<_>>().join(" ");
        for (at, c) in text.char_indices() {
            if c != '[' && c != '(' || !text[..at].ends_with(" in ") {
                continue;
            }
            let Some((r, _)) = interval(&text, at) else { continue };
            let before = &text[..at];
            let Some(end) = before.rfind('`') else { continue };
            let Some(start) = before[..end].rfind('`') else { continue };
            let arg = &before[start + 1..end];
            if let Some(ty) = scalar(arg) {
                assert!(out.insert(format!("{name}.{arg}"), (ty, r)).is_none(), "{name}.{arg}: two ranges");
            }
        }
    }
    out
}

// ---- the calls that take each struct ----

fn filled<T>(f: extern "C" fn(*mut T) -> SinewResult) -> T {
    let mut d = std::mem::MaybeUninit::uninit();
    ok(f(d.as_mut_ptr()));
    unsafe { d.assume_init() }
}

fn small_world() -> SinewWorld {
    let mut d = world_desc();
    d.thread_count = 1;
    create_world(&d)
}

/// A small world with a 3 × 3 cloth hanging from its top row, stepped once.
fn cloth_scene() -> (SinewWorld, SinewBody) {
    let w = small_world();
    let mut gd = grid_desc();
    (gd.columns, gd.rows, gd.spacing) = (3, 3, 0.1);
    let b = create_grid(w, &gd);
    ok(sinew_world_step(w, 1.0 / 60.0));
    (w, b)
}

/// A small world with a 2 × 2 × 2 soft lattice, stepped once.
fn soft_scene() -> (SinewWorld, SinewBody) {
    let w = small_world();
    let mut d = filled(sinew_soft_lattice_desc_default);
    (d.nx, d.ny, d.nz) = (2, 2, 2);
    let mut b = SinewBody::default();
    ok(sinew_softbody_create_lattice(w, &d, &mut b));
    ok(sinew_world_step(w, 1.0 / 60.0));
    (w, b)
}

/// What a refused call must leave as it was: the world's counters, the body's positions,
/// material and dynamics (and soft settings, for a soft body).
fn state(w: SinewWorld, b: SinewBody) -> String {
    let mut stats = SinewWorldStats::default();
    ok(sinew_world_get_stats(w, &mut stats));
    let mut m = filled(sinew_material_default);
    ok(sinew_body_get_material(b, &mut m));
    let mut d = dynamics();
    ok(sinew_body_get_dynamics(b, &mut d));
    let mut soft = filled(sinew_soft_settings_default);
    let soft = (sinew_softbody_get_settings(b, &mut soft) == SINEW_OK).then_some(soft);
    format!("{stats:?} {:?} {m:?} {d:?} {soft:?} {:?}", read_positions(b), body_info(b))
}

thread_local! {
    /// The message of the last call under test (the checks after it make calls of their own).
    static MESSAGE: std::cell::RefCell<String> = const { std::cell::RefCell::new(String::new()) };
}

/// Runs `call` on the scene; when it is refused, nothing may have changed. Then the world
/// steps on, finite.
fn on_scene(key: &str, (w, b): (SinewWorld, SinewBody), call: impl FnOnce(SinewWorld, SinewBody) -> SinewResult) -> SinewResult {
    let before = state(w, b);
    let r = call(w, b);
    MESSAGE.with(|m| *m.borrow_mut() = last_error());
    if r != SINEW_OK {
        assert_eq!(state(w, b), before, "{key}: a refused call changed the world or its body");
    }
    for _ in 0..2 {
        assert_eq!(sinew_world_step(w, 1.0 / 60.0), SINEW_OK, "{key}: the world no longer steps: {}", last_error());
    }
    assert!(read_positions(b).iter().all(|p| p.x.is_finite() && p.y.is_finite() && p.z.is_finite()), "{key}: non-finite readback");
    sinew_world_destroy(w);
    r
}

/// A creation call in the cloth scene: refused, it writes no handle and adds nothing.
fn create<D: Copy, H: Default + PartialEq + std::fmt::Debug>(key: &str, base: D, set: &dyn Fn(&mut D, f64), v: f64, make: impl FnOnce(SinewWorld, &D, &mut H) -> SinewResult) -> SinewResult {
    let mut d = base;
    set(&mut d, v);
    on_scene(key, cloth_scene(), |w, _| {
        let mut h = H::default();
        let r = make(w, &d, &mut h);
        if r != SINEW_OK {
            assert_eq!(h, H::default(), "{key}: a refused creation wrote a handle");
        }
        r
    })
}

/// A setter on the scene's body, from what it reads back.
fn set_on<D: Copy>(key: &str, scene: (SinewWorld, SinewBody), set: &dyn Fn(&mut D, f64), v: f64, get: impl Fn(SinewBody) -> D, put: impl Fn(SinewWorld, SinewBody, &D) -> SinewResult) -> SinewResult {
    on_scene(key, scene, |w, b| {
        let mut d = get(b);
        set(&mut d, v);
        put(w, b, &d)
    })
}

/// How the test exercises one struct: apply the setter to the struct at value `v`, pass it to
/// its call, answer the call's result (having checked that a refusal changed nothing).
enum Via {
    WorldDesc(fn(&mut SinewWorldDesc, f64)),
    Material(fn(&mut SinewMaterial, f64)),
    Dynamics(fn(&mut SinewDynamics, f64)),
    Lod(fn(&mut SinewLod, f64)),
    Wind(fn(&mut SinewWind, f64)),
    Soft(fn(&mut SinewSoftSettings, f64)),
    Lattice(fn(&mut SinewSoftLatticeDesc, f64)),
    SoftMesh(fn(&mut SinewSoftMeshDesc, f64)),
    Grid(fn(&mut SinewClothGridDesc, f64)),
    Mesh(fn(&mut SinewClothMeshDesc, f64)),
    Cape(fn(&mut SinewClothCapeDesc, f64)),
    Skirt(fn(&mut SinewClothSkirtDesc, f64)),
    Strands(fn(&mut SinewStrandsDesc, f64)),
    Collider(fn(&mut SinewColliderDesc, f64)),
    Bone(fn(&mut SinewBoneDesc, f64)),
    Joint(fn(&mut SinewJointDesc, f64)),
    Ragdoll(fn(&mut SinewRagdollSettings, f64)),
    Humanoid(fn(&mut SinewHumanoidBones, f64)),
    /// A call on a cloth hanging from its top row (the body) in a small world.
    OnCloth(fn(SinewWorld, SinewBody, f32) -> SinewResult),
    /// A call on a humanoid ragdoll standing on nothing, with a snapshot taken.
    OnRagdoll(fn(SinewRagdoll, f32) -> SinewResult),
    /// A call that changes nothing but its outputs, given as a buffer it may write.
    Pure(fn(f32, &mut [f32]) -> SinewResult),
}

/// What a refused call on a ragdoll must leave: its pose and every bone's drive state.
fn ragdoll_state(r: SinewRagdoll) -> String {
    let n = bone_count(r);
    let (mut p, mut q) = (vec![v3(0.0, 0.0, 0.0); n], vec![QUAT_IDENTITY; n]);
    ok(sinew_ragdoll_read_pose(r, p.as_mut_ptr(), n, q.as_mut_ptr(), n));
    let drive: Vec<_> = (0..n as u32)
        .map(|b| {
            let mut d = SinewDriveState::default();
            ok(sinew_ragdoll_get_drive_state(r, b, &mut d));
            d
        })
        .collect();
    format!("{p:?} {q:?} {drive:?}")
}

/// The humanoid's bind pose, for the blends.
fn humanoid_pose() -> (Vec<SinewVec3>, Vec<SinewQuat>) {
    let n = SinewHumanoidBone::SINEW_HUMANOID_BONE_COUNT as usize;
    let mut descs = vec![bone_desc(); n];
    ok(sinew_humanoid_bone_descs(&filled(sinew_humanoid_bones_default), descs.as_mut_ptr(), n));
    (descs.iter().map(|d| d.position).collect(), descs.iter().map(|d| d.rotation).collect())
}

/// A closed box (8 vertices, 12 outward triangles) for soft bodies made from a mesh: a thin
/// bar 1 m × 2 cm × 2 cm, so that the finest resolution (64 cubes along its length) stays a
/// few hundred particles.
const CUBE: [SinewVec3; 8] = {
    const fn v(x: f32, y: f32, z: f32) -> SinewVec3 {
        SinewVec3 { x, y: y * 0.02, z: z * 0.02 }
    }
    [v(0., 0., 0.), v(1., 0., 0.), v(1., 1., 0.), v(0., 1., 0.), v(0., 0., 1.), v(1., 0., 1.), v(1., 1., 1.), v(0., 1., 1.)]
};
/// A square sheet 2.5 km across (two triangles).
const WIDE: [SinewVec3; 4] = [SinewVec3 { x: 0.0, y: 0.0, z: 0.0 }, SinewVec3 { x: 2500.0, y: 0.0, z: 0.0 }, SinewVec3 { x: 2500.0, y: 0.0, z: 2500.0 }, SinewVec3 { x: 0.0, y: 0.0, z: 2500.0 }];
const WIDE_TRIS: [u32; 6] = [0, 2, 1, 0, 3, 2];
const CUBE_TRIS: [u32; 36] = [0, 2, 1, 0, 3, 2, 4, 5, 6, 4, 6, 7, 0, 1, 5, 0, 5, 4, 3, 7, 6, 3, 6, 2, 0, 4, 7, 0, 7, 3, 1, 2, 6, 1, 6, 5];

impl Via {
    fn run(&self, key: &str, v: f64) -> SinewResult {
        match *self {
            Via::WorldDesc(set) => {
                let mut d = world_desc();
                d.thread_count = 1;
                set(&mut d, v);
                let mut w = SinewWorld::default();
                let r = sinew_world_create(&d, &mut w);
                let msg = last_error();
                if r == SINEW_OK {
                    on_scene(key, (w, { let mut gd = grid_desc(); (gd.columns, gd.rows) = (3, 3); create_grid(w, &gd) }), |_, _| SINEW_OK);
                } else {
                    assert_eq!(w, SinewWorld::default(), "{key}: a refused world wrote a handle");
                    on_scene(key, cloth_scene(), |_, _| SINEW_OK);
                }
                MESSAGE.with(|m| *m.borrow_mut() = msg);
                r
            }
            Via::Material(set) => set_on(key, cloth_scene(), &set, v, |b| { let mut m = filled(sinew_material_default); ok(sinew_body_get_material(b, &mut m)); m }, |_, b, m| sinew_body_set_material(b, m)),
            Via::Dynamics(set) => set_on(key, cloth_scene(), &set, v, |b| { let mut d = dynamics(); ok(sinew_body_get_dynamics(b, &mut d)); d }, |_, b, d| sinew_body_set_dynamics(b, d)),
            Via::Lod(set) => set_on(key, cloth_scene(), &set, v, |_| lod(), |_, b, l| sinew_body_set_lod(b, l)),
            Via::Wind(set) => set_on(key, cloth_scene(), &set, v, |_| wind(), |w, _, wd| sinew_world_set_wind(w, wd)),
            Via::Soft(set) => set_on(key, soft_scene(), &set, v, |b| { let mut s = filled(sinew_soft_settings_default); ok(sinew_softbody_get_settings(b, &mut s)); s }, |_, b, s| sinew_softbody_set_settings(b, s)),
            Via::Lattice(set) => {
                let mut base = filled(sinew_soft_lattice_desc_default);
                (base.nx, base.ny, base.nz) = (2, 2, 2);
                create(key, base, &set, v, |w, d, h: &mut SinewBody| sinew_softbody_create_lattice(w, d, h))
            }
            Via::SoftMesh(set) => {
                let mut base = filled(sinew_soft_mesh_desc_default);
                (base.positions, base.vertex_count, base.indices, base.index_count) = (CUBE.as_ptr(), CUBE.len(), CUBE_TRIS.as_ptr(), CUBE_TRIS.len());
                base.resolution = 2;
                create(key, base, &set, v, |w, d, h: &mut SinewBody| sinew_softbody_create_from_mesh(w, d, h))
            }
            Via::Grid(set) => {
                let mut base = grid_desc();
                (base.columns, base.rows) = (3, 3);
                create(key, base, &set, v, |w, d, h: &mut SinewBody| sinew_cloth_create_grid(w, d, h))
            }
            Via::Mesh(set) => {
                // Vertices 2.5 km apart: the largest weld distance then welds none of them.
                let mut base = mesh_desc();
                (base.positions, base.vertex_count, base.indices, base.index_count) = (WIDE.as_ptr(), WIDE.len(), WIDE_TRIS.as_ptr(), WIDE_TRIS.len());
                create(key, base, &set, v, |w, d, h: &mut SinewBody| sinew_cloth_create_mesh(w, d, h))
            }
            Via::Cape(set) => {
                let mut base = filled(sinew_cloth_cape_desc_default);
                (base.columns, base.rows) = (3, 3);
                create(key, base, &set, v, |w, d, h: &mut SinewBody| sinew_cloth_create_cape(w, d, h))
            }
            Via::Skirt(set) => {
                let mut base = filled(sinew_cloth_skirt_desc_default);
                (base.columns, base.rows) = (4, 3);
                create(key, base, &set, v, |w, d, h: &mut SinewBody| sinew_cloth_create_skirt(w, d, h))
            }
            Via::Strands(set) => create(key, filled(sinew_strands_desc_default), &set, v, |w, d, h: &mut SinewBody| sinew_strands_create(w, d, h)),
            Via::Collider(set) => create(key, collider_desc(), &set, v, |w, d, h: &mut SinewCollider| sinew_collider_create(w, d, h)),
            Via::Bone(set) => create(key, bone_desc(), &set, v, |w, d, h: &mut SinewRagdoll| sinew_ragdoll_create(w, &ragdoll_settings(), d, 1, h)),
            Via::Joint(set) => {
                let mut bones = chain_bones(v3(0.0, 2.0, 0.0), 2);
                bones[1].joint.kind = SinewJointKind::SINEW_JOINT_FREE as u32;
                let base = bones[1].joint;
                create(key, base, &set, v, |w, j, h: &mut SinewRagdoll| {
                    bones[1].joint = *j;
                    sinew_ragdoll_create(w, &ragdoll_settings(), bones.as_ptr(), bones.len(), h)
                })
            }
            Via::Ragdoll(set) => create(key, ragdoll_settings(), &set, v, |w, s, h: &mut SinewRagdoll| sinew_ragdoll_create(w, s, &bone_desc(), 1, h)),
            Via::OnCloth(call) => on_scene(key, cloth_scene(), |w, b| call(w, b, v as f32)),
            Via::OnRagdoll(call) => {
                let (w, b) = cloth_scene();
                let mut r = SinewRagdoll::default();
                ok(sinew_ragdoll_create_humanoid(w, &filled(sinew_humanoid_bones_default), &ragdoll_settings(), &mut r));
                ok(sinew_ragdoll_capture_snapshot(r));
                on_scene(key, (w, b), |_, _| {
                    let before = ragdoll_state(r);
                    let got = call(r, v as f32);
                    if got != SINEW_OK {
                        assert_eq!(ragdoll_state(r), before, "{key}: a refused call changed the ragdoll");
                    }
                    got
                })
            }
            Via::Pure(call) => {
                let mut out = [f32::NAN; 64];
                let got = call(v as f32, &mut out);
                if got != SINEW_OK {
                    assert!(out.iter().all(|x| x.is_nan()), "{key}: a refused call wrote its outputs");
                }
                MESSAGE.with(|m| *m.borrow_mut() = last_error());
                got
            }
            Via::Humanoid(set) => create(key, filled(sinew_humanoid_bones_default), &set, v, |w, hb, h: &mut SinewRagdoll| sinew_ragdoll_create_humanoid(w, hb, &ragdoll_settings(), h)),
        }
    }
}


const HINGE: u32 = SinewJointKind::SINEW_JOINT_HINGE as u32;
const CONE: u32 = SinewJointKind::SINEW_JOINT_SWING_TWIST as u32;
const SPHERE: u32 = SinewShape::SINEW_SHAPE_SPHERE as u32;
const CAPSULE: u32 = SinewShape::SINEW_SHAPE_CAPSULE as u32;

/// Every documented range and how to exercise it. A new bounded field needs its line here
/// (the test says which are missing).
fn table() -> Vec<(&'static str, Via)> {
    use Via::*;
    vec![
        ("SinewWorldDesc.fixed_rate_hz", WorldDesc(|d, v| d.fixed_rate_hz = v as _)),
        ("SinewWorldDesc.substeps", WorldDesc(|d, v| d.substeps = v as _)),
        ("SinewWorldDesc.iterations", WorldDesc(|d, v| d.iterations = v as _)),
        ("SinewWorldDesc.thread_count", WorldDesc(|d, v| d.thread_count = v as _)),
        ("SinewWorldDesc.max_steps_per_frame", WorldDesc(|d, v| d.max_steps_per_frame = v as _)),
        ("SinewWorldDesc.wake_ahead_us", WorldDesc(|d, v| d.wake_ahead_us = v as _)),
        ("SinewMaterial.particle_mass", Material(|d, v| d.particle_mass = v as _)),
        ("SinewMaterial.damping", Material(|d, v| d.damping = v as _)),
        ("SinewMaterial.gravity_scale", Material(|d, v| d.gravity_scale = v as _)),
        ("SinewMaterial.stretch_compliance", Material(|d, v| d.stretch_compliance = v as _)),
        ("SinewMaterial.shear_compliance", Material(|d, v| d.shear_compliance = v as _)),
        ("SinewMaterial.bend_compliance", Material(|d, v| d.bend_compliance = v as _)),
        ("SinewMaterial.thickness", Material(|d, v| d.thickness = v as _)),
        ("SinewMaterial.static_friction", Material(|d, v| d.static_friction = v as _)),
        ("SinewMaterial.kinetic_friction", Material(|d, v| d.kinetic_friction = v as _)),
        ("SinewMaterial.density", Material(|d, v| d.density = v as _)),
        ("SinewMaterial.bend_stiffness", Material(|d, v| d.bend_stiffness = v as _)),
        ("SinewMaterial.stretch_stiffness", Material(|d, v| d.stretch_stiffness = v as _)),
        ("SinewMaterial.shear_stiffness", Material(|d, v| d.shear_stiffness = v as _)),
        ("SinewMaterial.youngs_modulus", Material(|d, v| d.youngs_modulus = v as _)),
        ("SinewMaterial.poisson_ratio", Material(|d, v| d.poisson_ratio = v as _)),
        ("SinewDynamics.world_velocity_scale", Dynamics(|d, v| d.world_velocity_scale = v as _)),
        ("SinewDynamics.world_acceleration_scale", Dynamics(|d, v| d.world_acceleration_scale = v as _)),
        ("SinewDynamics.max_speed", Dynamics(|d, v| d.max_speed = v as _)),
        ("SinewDynamics.teleport_distance", Dynamics(|d, v| d.teleport_distance = v as _)),
        ("SinewDynamics.pose_stiffness", Dynamics(|d, v| d.pose_stiffness = v as _)),
        ("SinewDynamics.wind_scale", Dynamics(|d, v| d.wind_scale = v as _)),
        ("SinewDynamics.drag", Dynamics(|d, v| d.drag = v as _)),
        ("SinewDynamics.lift", Dynamics(|d, v| d.lift = v as _)),
        ("SinewDynamics.tear_threshold", Dynamics(|d, v| d.tear_threshold = v as _)),
        ("SinewDynamics.sleep_threshold", Dynamics(|d, v| d.sleep_threshold = v as _)),
        ("SinewDynamics.sleep_time", Dynamics(|d, v| d.sleep_time = v as _)),
        ("SinewLod.reduce_distance", Lod(|d, v| d.reduce_distance = v as _)),
        ("SinewLod.reduced_substeps", Lod(|d, v| d.reduced_substeps = v as _)),
        ("SinewLod.freeze_distance", Lod(|d, v| d.freeze_distance = v as _)),
        ("SinewWind.speed", Wind(|d, v| d.speed = v as _)),
        ("SinewWind.turbulence", Wind(|d, v| d.turbulence = v as _)),
        ("SinewWind.turbulence_scale", Wind(|d, v| d.turbulence_scale = v as _)),
        ("SinewWind.turbulence_frequency", Wind(|d, v| d.turbulence_frequency = v as _)),
        ("SinewWind.gust_strength", Wind(|d, v| d.gust_strength = v as _)),
        ("SinewWind.gust_frequency", Wind(|d, v| d.gust_frequency = v as _)),
        ("SinewWind.air_density", Wind(|d, v| d.air_density = v as _)),
        ("SinewSoftSettings.volume_compliance", Soft(|d, v| d.volume_compliance = v as _)),
        ("SinewSoftSettings.shape_stiffness", Soft(|d, v| d.shape_stiffness = v as _)),
        ("SinewSoftSettings.shape_linear", Soft(|d, v| d.shape_linear = v as _)),
        ("SinewSoftSettings.plastic_yield", Soft(|d, v| d.plastic_yield = v as _)),
        ("SinewSoftSettings.plastic_creep", Soft(|d, v| d.plastic_creep = v as _)),
        ("SinewSoftSettings.plastic_max", Soft(|d, v| d.plastic_max = v as _)),
        ("SinewSoftSettings.pressure", Soft(|d, v| d.pressure = v as _)),
        ("SinewSoftSettings.external_pressure", Soft(|d, v| d.external_pressure = v as _)),
        ("SinewSoftLatticeDesc.nx", Lattice(|d, v| d.nx = v as _)),
        ("SinewSoftLatticeDesc.ny", Lattice(|d, v| d.ny = v as _)),
        ("SinewSoftLatticeDesc.nz", Lattice(|d, v| d.nz = v as _)),
        ("SinewSoftLatticeDesc.spacing", Lattice(|d, v| d.spacing = v as _)),
        ("SinewSoftLatticeDesc.cluster_cells", Lattice(|d, v| d.cluster_cells = v as _)),
        ("SinewSoftMeshDesc.resolution", SoftMesh(|d, v| d.resolution = v as _)),
        ("SinewSoftMeshDesc.cluster_cells", SoftMesh(|d, v| d.cluster_cells = v as _)),
        ("SinewClothGridDesc.columns", Grid(|d, v| d.columns = v as _)),
        ("SinewClothGridDesc.rows", Grid(|d, v| d.rows = v as _)),
        ("SinewClothGridDesc.spacing", Grid(|d, v| d.spacing = v as _)),
        ("SinewClothMeshDesc.weld_distance", Mesh(|d, v| d.weld_distance = v as _)),
        ("SinewClothCapeDesc.columns", Cape(|d, v| d.columns = v as _)),
        ("SinewClothCapeDesc.rows", Cape(|d, v| d.rows = v as _)),
        ("SinewClothCapeDesc.width", Cape(|d, v| d.width = v as _)),
        ("SinewClothCapeDesc.length", Cape(|d, v| d.length = v as _)),
        ("SinewClothCapeDesc.back_offset", Cape(|d, v| d.back_offset = v as _)),
        ("SinewClothSkirtDesc.columns", Skirt(|d, v| d.columns = v as _)),
        ("SinewClothSkirtDesc.rows", Skirt(|d, v| d.rows = v as _)),
        ("SinewClothSkirtDesc.radius_top", Skirt(|d, v| d.radius_top = v as _)),
        ("SinewClothSkirtDesc.radius_bottom", Skirt(|d, v| d.radius_bottom = v as _)),
        ("SinewClothSkirtDesc.length", Skirt(|d, v| d.length = v as _)),
        ("SinewStrandsDesc.particles_per_strand", Strands(|d, v| d.particles_per_strand = v as _)),
        ("SinewStrandsDesc.segment_length", Strands(|d, v| d.segment_length = v as _)),
        ("SinewColliderDesc.radius", Collider(|d, v| (d.shape, d.radius) = (SPHERE, v as _))),
        ("SinewColliderDesc.half_height", Collider(|d, v| (d.shape, d.half_height) = (CAPSULE, v as _))),
        ("SinewColliderDesc.radius0", Collider(|d, v| (d.shape, d.radius0) = (CAPSULE, v as _))),
        ("SinewColliderDesc.radius1", Collider(|d, v| (d.shape, d.radius1) = (CAPSULE, v as _))),
        ("SinewBoneDesc.radius", Bone(|d, v| (d.shape, d.radius) = (SPHERE, v as _))),
        ("SinewBoneDesc.half_height", Bone(|d, v| (d.shape, d.half_height) = (CAPSULE, v as _))),
        ("SinewBoneDesc.radius0", Bone(|d, v| (d.shape, d.radius0) = (CAPSULE, v as _))),
        ("SinewBoneDesc.radius1", Bone(|d, v| (d.shape, d.radius1) = (CAPSULE, v as _))),
        ("SinewBoneDesc.mass", Bone(|d, v| d.mass = v as _)),
        ("SinewBoneDesc.density", Bone(|d, v| d.density = v as _)),
        // A limit's partner moves with it where the order (min ≤ max) would refuse the edge.
        ("SinewJointDesc.hinge_min", Joint(|d, v| (d.kind, d.hinge_min, d.hinge_max) = (HINGE, v as _, d.hinge_max.max(v as _)))),
        ("SinewJointDesc.hinge_max", Joint(|d, v| (d.kind, d.hinge_max, d.hinge_min) = (HINGE, v as _, d.hinge_min.min(v as _)))),
        ("SinewJointDesc.swing1", Joint(|d, v| (d.kind, d.swing1) = (CONE, v as _))),
        ("SinewJointDesc.swing2", Joint(|d, v| (d.kind, d.swing2) = (CONE, v as _))),
        ("SinewJointDesc.low_twist", Joint(|d, v| (d.kind, d.low_twist, d.high_twist) = (CONE, v as _, d.high_twist.max(v as _)))),
        ("SinewJointDesc.high_twist", Joint(|d, v| (d.kind, d.high_twist, d.low_twist) = (CONE, v as _, d.low_twist.min(v as _)))),
        ("SinewJointDesc.limit_spring", Joint(|d, v| (d.kind, d.limit_spring) = (CONE, v as _))),
        ("SinewJointDesc.limit_damper", Joint(|d, v| (d.kind, d.limit_damper) = (CONE, v as _))),
        ("SinewJointDesc.friction", Joint(|d, v| (d.kind, d.friction) = (CONE, v as _))),
        ("SinewRagdollSettings.max_mass_ratio", Ragdoll(|d, v| d.max_mass_ratio = v as _)),
        ("SinewRagdollSettings.friction", Ragdoll(|d, v| d.friction = v as _)),
        ("SinewRagdollSettings.restitution", Ragdoll(|d, v| d.restitution = v as _)),
        ("SinewRagdollSettings.linear_damping", Ragdoll(|d, v| d.linear_damping = v as _)),
        ("SinewRagdollSettings.angular_damping", Ragdoll(|d, v| d.angular_damping = v as _)),
        ("SinewRagdollSettings.sleep_threshold", Ragdoll(|d, v| d.sleep_threshold = v as _)),
        ("SinewRagdollSettings.sleep_time", Ragdoll(|d, v| d.sleep_time = v as _)),
        ("SinewRagdollSettings.muscle_frequency", Ragdoll(|d, v| d.muscle_frequency = v as _)),
        ("SinewRagdollSettings.muscle_damping_ratio", Ragdoll(|d, v| d.muscle_damping_ratio = v as _)),
        ("SinewRagdollSettings.muscle_max_torque", Ragdoll(|d, v| d.muscle_max_torque = v as _)),
        ("SinewRagdollSettings.pin_frequency", Ragdoll(|d, v| d.pin_frequency = v as _)),
        ("SinewRagdollSettings.pin_damping_ratio", Ragdoll(|d, v| d.pin_damping_ratio = v as _)),
        ("SinewRagdollSettings.hit_strength_loss", Ragdoll(|d, v| d.hit_strength_loss = v as _)),
        ("SinewRagdollSettings.hit_neighbour_falloff", Ragdoll(|d, v| d.hit_neighbour_falloff = v as _)),
        ("SinewRagdollSettings.hit_full_impulse", Ragdoll(|d, v| d.hit_full_impulse = v as _)),
        ("SinewRagdollSettings.hit_recovery_time", Ragdoll(|d, v| d.hit_recovery_time = v as _)),
        ("SinewRagdollSettings.balance_distance", Ragdoll(|d, v| d.balance_distance = v as _)),
        ("SinewRagdollSettings.rest_speed", Ragdoll(|d, v| d.rest_speed = v as _)),
        ("SinewHumanoidBones.total_mass", Humanoid(|d, v| d.total_mass = v as _)),
        // Function arguments.
        ("sinew_world_step.dt", OnCloth(|w, _, v| sinew_world_step(w, v))),
        ("sinew_body_set_tethers.scale", OnCloth(|_, b, v| sinew_body_set_tethers(b, SinewTetherMode::SINEW_TETHER_EUCLIDEAN as u32, v))),
        ("sinew_body_set_anchor.inertia", OnCloth(|_, b, v| sinew_body_set_anchor(b, &translation(0.0, 0.0, 0.0), v))),
        ("sinew_ragdoll_set_anchor.inertia", OnRagdoll(|r, v| sinew_ragdoll_set_anchor(r, &translation(0.0, 0.0, 0.0), v))),
        ("sinew_ragdoll_set_muscle_strength.strength", OnRagdoll(|r, v| sinew_ragdoll_set_muscle_strength(r, 1, v))),
        ("sinew_ragdoll_set_muscle_strength_all.strength", OnRagdoll(|r, v| sinew_ragdoll_set_muscle_strength_all(r, v))),
        ("sinew_ragdoll_set_pin_weight.weight", OnRagdoll(|r, v| sinew_ragdoll_set_pin_weight(r, 1, v))),
        ("sinew_ragdoll_set_pin_weight_all.weight", OnRagdoll(|r, v| sinew_ragdoll_set_pin_weight_all(r, v))),
        ("sinew_ragdoll_apply_explosion.impulse", OnRagdoll(|r, v| sinew_ragdoll_apply_explosion(r, v3(0.0, 1.0, 0.5), v, 2.0))),
        ("sinew_ragdoll_apply_explosion.radius", OnRagdoll(|r, v| sinew_ragdoll_apply_explosion(r, v3(0.0, 1.0, 0.5), 10.0, v))),
        ("sinew_ragdoll_blend_from_snapshot.alpha", OnRagdoll(|r, v| {
            let (p, q) = humanoid_pose();
            let n = p.len();
            let (mut op, mut oq) = (vec![v3(0.0, 0.0, 0.0); n], vec![QUAT_IDENTITY; n]);
            sinew_ragdoll_blend_from_snapshot(r, p.as_ptr(), n, q.as_ptr(), n, v, op.as_mut_ptr(), n, oq.as_mut_ptr(), n)
        })),
        ("sinew_pose_blend.alpha", Pure(|v, out| {
            let (p, q) = humanoid_pose();
            let n = 2;
            // SAFETY: 64 floats hold 2 positions (6) and 2 rotations (8).
            let (op, oq) = out.split_at_mut(6);
            sinew_pose_blend(p.as_ptr(), q.as_ptr(), p[1..].as_ptr(), q[1..].as_ptr(), n, v, op.as_mut_ptr().cast(), oq.as_mut_ptr().cast(), n)
        })),
        ("sinew_blend_alpha.blend_time", Pure(|v, out| sinew_blend_alpha(0.5, v, &mut out[0]))),
    ]
}

/// The values to try at each finite end: (value, accepted?). A closed end is accepted and the
/// next float (integer) outside refused; an open end is refused and the next float inside
/// accepted. An ∞ end has no edge.
fn probes(ty: Ty, r: Range) -> Vec<(f64, bool)> {
    let mut p = Vec::new();
    match ty {
        Ty::F32 => {
            let lo = r.lo as f32;
            let (inside, outside) = if r.lo_open { (lo.next_up(), lo) } else { (lo, lo.next_down()) };
            p.extend([(inside as f64, true), (outside as f64, false)]);
            if let Some(hi) = r.hi.map(|h| h as f32) {
                let (inside, outside) = if r.hi_open { (hi.next_down(), hi) } else { (hi, hi.next_up()) };
                p.extend([(inside as f64, true), (outside as f64, false)]);
            }
        }
        Ty::U32 => {
            assert!(!r.lo_open && (r.hi.is_none() || !r.hi_open), "an integer range is written closed: {r:?}");
            p.push((r.lo, true));
            if r.lo > 0.0 {
                p.push((r.lo - 1.0, false));
            }
            if let Some(hi) = r.hi {
                p.extend([(hi, true), (hi + 1.0, false)]);
            }
        }
    }
    p
}

#[test]
fn every_documented_range_is_honoured_at_its_edges() {
    let docs = documented();
    let table = table();
    let mut seen = std::collections::BTreeSet::new();
    for (key, _) in &table {
        assert!(seen.insert(*key), "{key} is in the table twice");
    }
    let missing: Vec<_> = docs.keys().filter(|k| !seen.contains(k.as_str())).collect();
    let stale: Vec<_> = seen.iter().filter(|k| !docs.contains_key(**k)).collect();
    assert!(missing.is_empty(), "documented ranges with no table entry (add one to `table()`): {missing:?}");
    assert!(stale.is_empty(), "table entries whose field documents no range (write `in [a, b]` in its doc): {stale:?}");
    let mut failures = Vec::new();
    let mut calls = 0;
    for (key, via) in &table {
        let (ty, r) = docs[*key];
        for (v, accept) in probes(ty, r) {
            calls += 1;
            let got = via.run(key, v);
            let msg = MESSAGE.with(|m| m.borrow().clone());
            if accept && got != SINEW_OK {
                failures.push(format!("{key} = {v:e} (documented {r:?}) was refused: {msg}"));
            } else if !accept && got != SINEW_INVALID_ARGUMENT {
                failures.push(format!("{key} = {v:e} (documented {r:?}) answered {got:?}, not SINEW_INVALID_ARGUMENT: {msg}"));
            } else if !accept && !msg.starts_with("SINEW_INVALID_ARGUMENT: ") {
                failures.push(format!("{key} = {v:e}: the message does not say why: {msg:?}"));
            }
        }
    }
    println!("{} documented ranges, {calls} calls at their edges", table.len());
    assert!(failures.is_empty(), "{} of {calls} edge calls disagree with the header:\n{}", failures.len(), failures.join("\n"));
}

/// The reader of the header finds the forms it must and refuses the ones it must not.
#[test]
fn the_range_reader_reads_every_form_and_refuses_the_others() {
    let r = |s: &str| field_range(s);
    assert_eq!(r(" Rate (Hz), in [1, 10000]. Default 60.").unwrap(), Some(Range { lo: 1.0, lo_open: false, hi: Some(1e4), hi_open: false }));
    assert_eq!(r(" Density (kg/m³), in (0, 1e5] (checked always)").unwrap(), Some(Range { lo: 0.0, lo_open: true, hi: Some(1e5), hi_open: false }));
    assert_eq!(r(" Limit, in [−180, 180] degrees").unwrap(), Some(Range { lo: -180.0, lo_open: false, hi: Some(180.0), hi_open: false }));
    assert_eq!(r(" Speed (m/s), in [0, ∞); 0 = no limit.").unwrap(), Some(Range { lo: 0.0, lo_open: false, hi: None, hi_open: true }));
    assert_eq!(r(" A C boolean (1/s) (`SinewKernel`). Default 1.").unwrap(), None);
    assert_eq!(r(" in [0, 1e6], a mass outside [1e-9, 1e9] kg is refused").unwrap().map(|x| x.hi), Some(Some(1e6)));
    for bad in [" Substeps, 1–64.", " ≥ 2.", " Friction, [0, 100].", " within [1e-6, 1e6]", " in [0, 1] and in [0, 2]"] {
        assert!(r(bad).is_err(), "{bad:?} should be refused");
    }
    assert!(documented().len() > 50, "the header's ranges were not found");
}
