//! The demo's fourth scene (chapter section 9, soft bodies): two jelly cubes through the C ABI.
//!
//! 1. a jelly cube (`sinew_softbody_create_lattice`: 7 × 7 × 7 particles 5 cm apart, volume
//!    kept by its tetrahedra, one shape-matching cluster) is dropped from 1 m onto the floor
//!    (a plane collider): it squashes on impact, bulging sideways because its volume is kept,
//!    and springs back to its shape;
//! 2. at 2 s a second one is made 0.75 m above it, right over where the first was dropped and square to it, and
//!    paired with it (`sinew_body_set_collision_pair`): it lands on the first and both squash.
//!    Then it does not stay there: the pair contact pushes the two apart sideways and the top
//!    one slides off and comes to rest on the floor beside the first (the last panel's
//!    caption says which of the two happened; see the README).
//!
//! Writes `DIR/softbody.png` (eight moments, their surface triangles shaded with a 3D checker
//! of the lattice so that the squash reads) and the scene's lines of the summary: the worst
//! volume error of each cube (`sinew_softbody_get_volume`) during the run and at the end, the
//! deepest a particle's sphere went into the floor, the squash at each impact (the first
//! cube's height over its rest height), the largest winding number of a particle of one cube
//! about the other's surface (0 outside, 1 inside), and the time until both are at rest.

use std::time::Instant;

use glam::{Quat, Vec3};
use sinew::ffi::body::*;
use sinew::ffi::collider::*;
use sinew::ffi::softbody::*;
use sinew::ffi::types::*;
use sinew::ffi::world::*;

use super::{Camera, Canvas, GroundMap, PANEL_H, PANEL_W, Res, SS, background, body_info, check, fill_triangle_2d, read, read_indices, sv};

const FRAMES: u32 = 420;
/// Lattice points per axis and their spacing (m): a cube 0.3 m on a side.
const N: u32 = 7;
const SPACING: f32 = 0.05;
/// The first cube's lowest particle starts this high (m).
const DROP: f32 = 1.0;
/// The frame the second cube is made, and how high its centre starts above the first's top.
const SECOND_FRAME: u32 = 120;
const SECOND_LIFT: f32 = 0.75;
/// A particle moving slower than this over a frame counts as still (m/s).
const STILL: f32 = 0.01;

pub struct SoftSnapshot {
    pub caption: String,
    /// Positions of each cube present, and its colour.
    cubes: Vec<(Vec<Vec3>, Vec3)>,
    /// The cubes' surface triangles (`sinew_body_read_indices`; the same lattice for both).
    tris: Vec<[usize; 3]>,
}

pub struct SoftRun {
    pub snapshots: Vec<SoftSnapshot>,
    pub summary: String,
}

fn desc(origin: Vec3, orientation: Quat) -> Res<SinewSoftLatticeDesc> {
    let mut d = std::mem::MaybeUninit::<SinewSoftLatticeDesc>::uninit();
    check(sinew_soft_lattice_desc_default(d.as_mut_ptr()), "sinew_soft_lattice_desc_default")?;
    let mut d = unsafe { d.assume_init() };
    d.nx = N;
    d.ny = N;
    d.nz = N;
    d.spacing = SPACING;
    d.origin = sv(origin);
    d.orientation = SinewQuat { x: orientation.x, y: orientation.y, z: orientation.z, w: orientation.w };
    // A soft jelly: 2 g a particle (0.69 kg), soft edges, volume kept, weak shape matching.
    d.material.particle_mass = 0.002;
    d.material.stretch_compliance = 1e-2;
    d.material.shear_compliance = 1e-2;
    d.material.damping = 0.5;
    d.soft.volume_compliance = 0.0;
    d.soft.shape_stiffness = 0.05;
    Ok(d)
}

fn volume(body: SinewBody) -> Res<f32> {
    let (mut v, mut v0) = (0.0f32, 0.0f32);
    check(sinew_softbody_get_volume(body, &mut v, &mut v0), "sinew_softbody_get_volume")?;
    Ok(v / v0 - 1.0)
}

/// Winding number of the closed surface `tris` over `x` about `p` (solid angles over 4π).
fn winding(p: Vec3, x: &[Vec3], tris: &[[usize; 3]]) -> f32 {
    let mut total = 0.0f32;
    for t in tris {
        let [a, b, c] = t.map(|i| x[i] - p);
        let (la, lb, lc) = (a.length(), b.length(), c.length());
        let num = a.dot(b.cross(c));
        let den = la * lb * lc + a.dot(b) * lc + b.dot(c) * la + c.dot(a) * lb;
        total += 2.0 * num.atan2(den);
    }
    total / (4.0 * std::f32::consts::PI)
}

/// Largest winding number of a particle of `p` about the surface of `q` (inside its box).
fn deepest_inside(p: &[Vec3], q: &[Vec3], tris: &[[usize; 3]]) -> f32 {
    let (lo, hi) = q.iter().fold((Vec3::splat(f32::INFINITY), Vec3::splat(f32::NEG_INFINITY)), |(l, h), v| (l.min(*v), h.max(*v)));
    p.iter().filter(|x| x.cmpge(lo).all() && x.cmple(hi).all()).map(|x| winding(*x, q, tris)).fold(0.0, f32::max)
}

fn centre(x: &[Vec3]) -> Vec3 {
    x.iter().sum::<Vec3>() / x.len() as f32
}

fn height(x: &[Vec3]) -> f32 {
    let (lo, hi) = x.iter().fold((f32::INFINITY, f32::NEG_INFINITY), |(l, h), p| (l.min(p.y), h.max(p.y)));
    hi - lo
}

const GREEN: Vec3 = Vec3::new(0.30, 0.72, 0.22);
const RED: Vec3 = Vec3::new(0.90, 0.30, 0.22);

pub fn simulate_softbody() -> Res<SoftRun> {
    let mut wd = std::mem::MaybeUninit::<SinewWorldDesc>::uninit();
    check(sinew_world_desc_default(wd.as_mut_ptr()), "sinew_world_desc_default")?;
    let wd = unsafe { wd.assume_init() };
    let mut world = SinewWorld::default();
    check(sinew_world_create(&wd, &mut world), "sinew_world_create (soft bodies)")?;
    let mut cd = std::mem::MaybeUninit::<SinewColliderDesc>::uninit();
    check(sinew_collider_desc_default(cd.as_mut_ptr()), "sinew_collider_desc_default")?;
    let mut cd = unsafe { cd.assume_init() };
    cd.shape = SinewShape::SINEW_SHAPE_PLANE as u32;
    cd.transform = SinewMat4 { m: glam::Mat4::IDENTITY.to_cols_array() };
    let mut floor = SinewCollider::default();
    check(sinew_collider_create(world, &cd, &mut floor), "sinew_collider_create (floor)")?;

    let half = 0.5 * (N - 1) as f32 * SPACING;
    let da = desc(Vec3::new(0.0, DROP + half, 0.0), Quat::IDENTITY)?;
    let thickness = da.material.thickness;
    let mut a = SinewBody::default();
    check(sinew_softbody_create_lattice(world, &da, &mut a), "sinew_softbody_create_lattice (first)")?;
    let tris = read_indices(a)?;
    let rest_height = height(&read(a, false, "first jelly")?);
    let mut b = None::<SinewBody>;

    // Every frame's positions (both cubes are small), to pick the panels afterwards.
    let mut frames: Vec<(Vec<Vec3>, Option<Vec<Vec3>>)> = Vec::with_capacity(FRAMES as usize + 1);
    frames.push((read(a, false, "first jelly")?, None));
    let (mut deepest, mut inside) = (f32::NEG_INFINITY, 0.0f32);
    let (mut worst_a, mut worst_b) = (0.0f32, 0.0f32);
    let mut still_since = None::<u32>;
    let mut step_us = Vec::with_capacity(FRAMES as usize);
    for frame in 1..=FRAMES {
        if frame == SECOND_FRAME {
            let top = frames.last().expect("frames").0.iter().map(|p| p.y).fold(f32::NEG_INFINITY, f32::max);
            // Right above where the first was dropped (it lies within centimetres of it),
            // square to the world like the first.
            let db = desc(Vec3::new(0.0, top + SECOND_LIFT, 0.0), Quat::IDENTITY)?;
            let mut body = SinewBody::default();
            check(sinew_softbody_create_lattice(world, &db, &mut body), "sinew_softbody_create_lattice (second)")?;
            check(sinew_body_set_collision_pair(a, body, 1), "sinew_body_set_collision_pair")?;
            b = Some(body);
        }
        let t0 = Instant::now();
        check(sinew_world_step(world, super::DT), "sinew_world_step (soft bodies)")?;
        step_us.push(t0.elapsed().as_secs_f64() * 1e6);
        let xa = read(a, false, &format!("first jelly, frame {frame}"))?;
        let xb = match b {
            Some(body) => Some(read(body, false, &format!("second jelly, frame {frame}"))?),
            None => None,
        };
        worst_a = worst_a.max(volume(a)?.abs());
        if let Some(body) = b {
            worst_b = worst_b.max(volume(body)?.abs());
        }
        for x in std::iter::once(&xa).chain(xb.iter()) {
            deepest = x.iter().map(|p| thickness - p.y).fold(deepest, f32::max);
        }
        if let Some(xb) = &xb {
            inside = inside.max(deepest_inside(xb, &xa, &tris)).max(deepest_inside(&xa, xb, &tris));
        }
        // Still: every particle of both slower than `STILL` over the frame, after the second
        // one has landed (the first frame of a run of still frames to the end).
        let (pa, pb) = &frames[frames.len() - 1];
        let fast_a = xa.iter().zip(pa).map(|(p, q)| p.distance(*q) / super::DT).fold(0.0f32, f32::max);
        let fast_b = match (&xb, pb) {
            (Some(x), Some(q)) => x.iter().zip(q).map(|(p, q)| p.distance(*q) / super::DT).fold(0.0f32, f32::max),
            _ => f32::INFINITY,
        };
        if fast_a.max(fast_b) < STILL {
            still_since.get_or_insert(frame);
        } else {
            still_since = None;
        }
        frames.push((xa, xb));
    }
    let end_a = volume(a)?;
    let end_b = volume(b.expect("second jelly"))?;
    let (ia, ib) = (body_info(a)?, body_info(b.expect("second jelly"))?);
    if ia.recoveries + ib.recoveries > 0 {
        return Err(format!("the solver rolled back {} non-finite soft-body steps", ia.recoveries + ib.recoveries));
    }

    // Where they end: stacked if the second's lowest point is above the first's middle.
    let (end_a_x, end_b_x) = (&frames[FRAMES as usize].0, frames[FRAMES as usize].1.as_ref().expect("second jelly"));
    let low_b = end_b_x.iter().map(|p| p.y).fold(f32::INFINITY, f32::min);
    let stacked = low_b > 0.5 * height(end_a_x);
    let apart = (centre(end_b_x) - centre(end_a_x)) * Vec3::new(1.0, 0.0, 1.0);
    let drift = (centre(end_a_x) - centre(&frames[0].0)) * Vec3::new(1.0, 0.0, 1.0);

    // The panels.
    let squash = |range: std::ops::Range<u32>| -> (u32, f32) {
        range.map(|f| (f, height(&frames[f as usize].0) / rest_height)).fold((0, f32::INFINITY), |m, (f, h)| if h < m.1 { (f, h) } else { m })
    };
    let (first_hit, first_squash) = squash(10..SECOND_FRAME);
    let (second_hit, second_squash) = squash(SECOND_FRAME..SECOND_FRAME + 90);
    let ratio = |f: u32| height(&frames[f as usize].0) / rest_height;
    // The rebound: the tallest it gets in the half second after the impact.
    let spring = (first_hit..first_hit + 30).max_by(|&x, &y| ratio(x).total_cmp(&ratio(y))).expect("frames");
    let settled = SECOND_FRAME - 10;
    let falling = SECOND_FRAME + 10;
    // Off the first: the first frame after the landing with the second's centre beyond the
    // first's side (horizontally more than half an edge from the first's centre).
    let off = (second_hit..FRAMES).find(|&f| {
        let (xa, xb) = &frames[f as usize];
        ((centre(xb.as_ref().expect("second jelly")) - centre(xa)) * Vec3::new(1.0, 0.0, 1.0)).length() > half
    });
    let (middle_frame, middle_label) = match off {
        Some(f) => {
            // In the air (its lowest point clear of the first's top) or still in contact.
            let (xa, xb) = &frames[f as usize];
            let top = xa.iter().map(|p| p.y).fold(f32::NEG_INFINITY, f32::max);
            let low = xb.as_ref().expect("second jelly").iter().map(|p| p.y).fold(f32::INFINITY, f32::min);
            (f, if low > top + 4.0 * thickness { "THROWN UP AND SIDEWAYS".to_string() } else { "PUSHED SIDEWAYS, SLIDES OFF".to_string() })
        }
        None => (second_hit + 40, "SETTLING ON THE FIRST".to_string()),
    };
    let picks = [
        (12, "DROPPED FROM 1 M".to_string()),
        (first_hit, format!("IMPACT: SQUASHED TO {:.0} PCT", first_squash * 100.0)),
        (spring, format!("SPRINGS BACK ({:.0} PCT TALL)", ratio(spring) * 100.0)),
        (settled, format!("BACK IN SHAPE ({:.0} PCT)", ratio(settled) * 100.0)),
        (falling, "A SECOND ONE FALLS".to_string()),
        (second_hit, format!("LANDS ON THE FIRST ({:.0} PCT)", second_squash * 100.0)),
        (middle_frame, middle_label),
        (FRAMES, if stacked { "AT REST, STACKED".to_string() } else { "AT REST: THE TOP ONE SLID OFF".to_string() }),
    ];
    let snapshots = picks
        .iter()
        .map(|(f, label)| {
            let (xa, xb) = &frames[*f as usize];
            let mut cubes = vec![(xa.clone(), GREEN)];
            if let Some(x) = xb {
                cubes.push((x.clone(), RED));
            }
            SoftSnapshot { caption: format!("T={:.2}S {label}", *f as f32 / 60.0), cubes, tris: tris.clone() }
        })
        .collect();

    let mut sorted = step_us.clone();
    sorted.sort_by(f64::total_cmp);
    let rest = match still_since {
        Some(f) if f > second_hit => format!("{:.2} s (frame {f}; every particle below {STILL} m/s from then to the end)", f as f32 / 60.0),
        _ => format!("not within {:.1} s", FRAMES as f32 / 60.0),
    };
    let where_ = if stacked { "stacked, the second on the first" } else { "side by side on the floor: the second slid off the first" };
    let summary = format!(
        "soft bodies        : two jelly cubes of {N}x{N}x{N} particles {SPACING} m apart ({} particles, {} surface triangles each), the first dropped from {DROP} m, the second made above it at {:.2} s and paired with it\n\
         volume error       : worst |V/V0 - 1| first {:.3} %, second {:.3} % during the run; at the end {:.3} %, {:.3} %\n\
         floor penetration  : deepest particle sphere {:.2} mm below the floor (radius {thickness} m)\n\
         squash             : first cube {:.0} % of its height on landing (t = {:.2} s), {:.0} % when the second lands on it (t = {:.2} s)\n\
         where they end     : {where_} (centres {:.2} m apart horizontally); the first's centre moved {:.3} m sideways from below where it was dropped\n\
         interpenetration   : largest winding number of a particle about the other cube's surface {inside:.3} (1 = inside)\n\
         time to rest       : {rest}\n\
         soft time per step : {:.1} us median over {FRAMES} steps\n",
        ia.particle_count,
        tris.len(),
        SECOND_FRAME as f32 / 60.0,
        worst_a * 100.0,
        worst_b * 100.0,
        end_a * 100.0,
        end_b * 100.0,
        deepest.max(0.0) * 1e3,
        first_squash * 100.0,
        first_hit as f32 / 60.0,
        second_squash * 100.0,
        second_hit as f32 / 60.0,
        apart.length(),
        drift.length(),
        sorted[sorted.len() / 2],
    );
    check(sinew_body_destroy(b.expect("second jelly")), "sinew_body_destroy (second jelly)")?;
    check(sinew_body_destroy(a), "sinew_body_destroy (first jelly)")?;
    check(sinew_world_destroy(world), "sinew_world_destroy (soft bodies)")?;
    Ok(SoftRun { snapshots, summary })
}

/// Lattice coordinates of particle `(k·N + j)·N + i` (the lattice's order).
fn lattice_coords(v: usize) -> Vec3 {
    let n = N as usize;
    Vec3::new((v % n) as f32, ((v / n) % n) as f32, (v / (n * n)) as f32)
}

/// A closed surface, outward-wound: back faces culled, smooth normals from the faces, Lambert
/// with sky light and a glossy highlight, a 3D checker of 2 × 2 × 2 lattice cells.
fn draw_jelly(cam: &Camera, pos: &[Vec3], tris: &[[usize; 3]], tint: Vec3, canvas: &mut Canvas) {
    let mut normals = vec![Vec3::ZERO; pos.len()];
    for &[i, j, k] in tris {
        let n = (pos[j] - pos[i]).cross(pos[k] - pos[i]);
        normals[i] += n;
        normals[j] += n;
        normals[k] += n;
    }
    let proj: Vec<(f32, f32, f32, f32)> = pos.iter().map(|&p| cam.project(p)).collect();
    let l = cam.light;
    let (w, h) = (canvas.w, canvas.h);
    for &[i, j, k] in tris {
        let (p0, p1, p2) = (pos[i], pos[j], pos[k]);
        if (p1 - p0).cross(p2 - p0).dot(cam.eye - p0) <= 0.0 {
            continue;
        }
        let (a, b, c) = (proj[i], proj[j], proj[k]);
        let (u0, u1, u2) = (lattice_coords(i), lattice_coords(j), lattice_coords(k));
        let (n0, n1, n2) = (normals[i], normals[j], normals[k]);
        fill_triangle_2d((a.0, a.1), (b.0, b.1), (c.0, c.1), w, h, |x, y, [wa, wb, wc]| {
            let z = a.2 * wa + b.2 * wb + c.2 * wc;
            let n = (n0 * wa + n1 * wb + n2 * wc).normalize_or_zero();
            let diffuse = n.dot(l).max(0.0);
            let sky = 0.5 + 0.5 * n.y;
            let view = (cam.eye - (p0 * wa + p1 * wb + p2 * wc)).normalize();
            let spec = n.dot((l + view).normalize()).max(0.0).powi(40) * 0.35;
            let u = (u0 * wa + u1 * wb + u2 * wc + Vec3::splat(0.5)) / 2.0;
            let check = if (u.x.floor() + u.y.floor() + u.z.floor()) as i32 % 2 == 0 { 1.0 } else { 0.8 };
            let col = tint * check * (0.10 + 0.70 * diffuse + 0.20 * sky) + Vec3::splat(spec);
            canvas.plot(x, y, z, col);
        });
    }
}

pub fn render_softbody_panel(s: &SoftSnapshot) -> Vec<Vec3> {
    let (w, h) = (PANEL_W * SS, PANEL_H * SS);
    let cam = Camera::new(Vec3::new(1.35, 1.0, 1.95), Vec3::new(0.0, 0.52, 0.0), Vec3::new(0.55, 0.9, 0.45), w, h);
    let tris = &s.tris;
    let mut shadow = GroundMap::new((0.0, 0.0), 3.0, cam.light);
    for (x, _) in &s.cubes {
        for &[i, j, k] in tris {
            shadow.triangle(x[i], x[j], x[k]);
        }
    }
    let shadow = shadow.blur();
    let mut canvas = Canvas::new(w, h);
    background(&cam, &shadow, &[], None, &mut canvas);
    for (x, tint) in &s.cubes {
        draw_jelly(&cam, x, tris, *tint, &mut canvas);
    }
    canvas.downsample()
}
