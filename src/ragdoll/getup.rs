//! Getting up (chapter section 5): the pose snapshot, the blend from it to the animation,
//! which side is up, where the get-up clip's root goes, and when the ragdoll is at rest.
//!
//! The chapter's recipe: when the ragdoll has come to rest, snapshot every bone's world
//! position and rotation, switch the animator back on with a get-up clip chosen by the side
//! the body lies on, and for `blendTime` seconds write `Lerp(snapshot, animated, α)` and
//! `Slerp(snapshot, animated, α)` into every bone, `α = t / blendTime`. Here:
//!
//! - [`super::Ragdoll::capture_snapshot`] (also taken by `set_kinematic(true)`: the moment
//!   physics lets go) keeps the bones where the last fixed step left them;
//! - [`blend_poses`] and [`super::Ragdoll::blend_from_snapshot`] write the blend into caller
//!   buffers: at `α = 0` exactly the snapshot, at `α = 1` exactly the animated pose (the
//!   endpoints are returned, not computed); [`blend_alpha`] is the time-based `α`;
//! - [`super::Ragdoll::get_up_info`] tells face up, face down or on which side, from the
//!   pelvis's and the chest's *front* axes (the character's forward at the bind pose carried
//!   by each bone) averaged and compared with the world's up — the chapter tests one axis's
//!   sign, which flips at random when a body lies on its side; here a side is reported as
//!   such and the clip is chosen by the larger of the two components. It also places the
//!   get-up clip's root: the pelvis projected along up onto the ground under the body (the
//!   lowest point of the bones' shapes), turned about up so that the clip's forward points
//!   from the pelvis towards the head for a body lying face down (it pushes up and stands
//!   facing that way) and towards the feet for one lying face up (it sits up facing them);
//! - [`super::Ragdoll::rest_time`]: how long every bone has been slower than `rest_speed`.

use crate::error::{Error, Result, check_finite};
use crate::geometry::{Pose, Shape};
use crate::math::{Quat, Vec3, is_finite3};

/// Which way a ragdoll lies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u32)]
pub enum LyingSide {
    /// On its back: the front faces up (play a get-up-from-back clip).
    FaceUp = 1,
    /// On its front: the front faces the ground (get up from the front).
    FaceDown = 2,
    /// On its left side (its left arm on the ground).
    LeftSide = 3,
    RightSide = 4,
}

/// What [`super::Ragdoll::get_up_info`] needs to know about the character.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GetUpQuery {
    /// Bones standing for the pelvis, the chest and the head (the humanoid template's
    /// `PELVIS`, `MIDDLE_SPINE`, `HEAD` by default).
    pub pelvis: usize,
    pub chest: usize,
    pub head: usize,
    /// The world's up now (default +Y).
    pub up: Vec3,
    /// The character's forward and up in the bind pose (world; default +Z and +Y, Unity's).
    pub bind_forward: Vec3,
    pub bind_up: Vec3,
}

impl Default for GetUpQuery {
    fn default() -> Self {
        use super::humanoid::bone;
        GetUpQuery { pelvis: bone::PELVIS, chest: bone::MIDDLE_SPINE, head: bone::HEAD, up: Vec3::Y, bind_forward: Vec3::Z, bind_up: Vec3::Y }
    }
}

/// The answer: the side, the clip, and where the clip's root goes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GetUpInfo {
    pub side: LyingSide,
    /// Play the get-up-from-front clip (the chapter's `GetUpFront`): the front is nearer
    /// the ground than the back. On a side, the nearer of the two.
    pub from_front: bool,
    /// The averaged front axis's component along up (−1 face down … 1 face up).
    pub front_up: f32,
    /// The clip's root: the pelvis on the ground, turned about up (see the module docs).
    pub root_position: Vec3,
    pub root_rotation: Quat,
    /// Unit direction from the pelvis to the head in the ground plane.
    pub heading: Vec3,
}

/// `α` of a blend that started `time` s ago and lasts `blend_time` s (the chapter's
/// `t / blendTime`, held to [0, 1]; a zero blend time is 1 at once).
pub fn blend_alpha(time: f32, blend_time: f32) -> Result<f32> {
    check_finite(time, "time")?;
    check_finite(blend_time, "blend_time")?;
    if blend_time < 0.0 {
        return Err(Error::invalid(format!("blend_time must be >= 0 s (got {blend_time})")));
    }
    if blend_time == 0.0 {
        return Ok(1.0);
    }
    Ok((time / blend_time).clamp(0.0, 1.0))
}

/// Checks a blend's `alpha`: 0 the first pose, 1 the second, in [0, 1].
pub fn check_alpha(alpha: f32) -> Result<f32> {
    crate::error::check_unit(alpha, "alpha")
}

/// One bone's blend: position lerp, rotation slerp (the short way), endpoints exact.
#[inline]
pub fn blend_pose(from: (Vec3, Quat), to: (Vec3, Quat), alpha: f32) -> (Vec3, Quat) {
    if alpha <= 0.0 {
        return from;
    }
    if alpha >= 1.0 {
        return to;
    }
    (from.0 * (1.0 - alpha) + to.0 * alpha, from.1.normalize().slerp(to.1.normalize(), alpha).normalize())
}

/// Blends every bone from `from` to `to` by `alpha` into `out` (all the same length).
pub fn blend_poses(from_pos: &[Vec3], from_rot: &[Quat], to_pos: &[Vec3], to_rot: &[Quat], alpha: f32, out_pos: &mut [Vec3], out_rot: &mut [Quat]) -> Result<()> {
    check_alpha(alpha)?;
    let n = from_pos.len();
    for (len, what) in [(from_rot.len(), "from rotations"), (to_pos.len(), "to positions"), (to_rot.len(), "to rotations")] {
        if len != n {
            return Err(Error::invalid(format!("{what} hold {len} entries; the from positions hold {n}")));
        }
    }
    for (len, what) in [(out_pos.len(), "out positions"), (out_rot.len(), "out rotations")] {
        if len < n {
            return Err(Error::new(crate::error::ErrorKind::BufferTooSmall, format!("{what} buffer holds {len} entries; {n} bones are blended")));
        }
    }
    check_pose_list(to_pos, to_rot, "to")?;
    check_pose_list(from_pos, from_rot, "from")?;
    for i in 0..n {
        (out_pos[i], out_rot[i]) = blend_pose((from_pos[i], from_rot[i]), (to_pos[i], to_rot[i]), alpha);
    }
    Ok(())
}

/// Finite positions and unit rotations.
pub(crate) fn check_pose_list(pos: &[Vec3], rot: &[Quat], what: &str) -> Result<()> {
    for (i, (p, q)) in pos.iter().zip(rot).enumerate() {
        if !is_finite3(*p) || !q.is_finite() {
            return Err(Error::non_finite(format!("{what} pose of bone {i} is not finite")));
        }
        if !crate::error::is_unit(q.length()) {
            return Err(Error::invalid(format!("{what} rotation of bone {i} is not a unit quaternion (length {})", q.length())));
        }
    }
    Ok(())
}

/// Lowest point of `shape` at world `pose` along `up` (its support in `−up`), as `· up`.
pub(crate) fn lowest_along(shape: &Shape, pose: &Pose, up: Vec3) -> f32 {
    let c = pose.position.dot(up);
    match *shape {
        Shape::Sphere { radius } => c - radius,
        Shape::Capsule { half_height, radius0, radius1 } => {
            let a = (pose.rotation * Vec3::Y).dot(up) * half_height;
            (c - a - radius0).min(c + a - radius1)
        }
        Shape::Box { half_extents: e } => {
            let r = pose.rotation;
            c - (r * Vec3::X).dot(up).abs() * e.x - (r * Vec3::Y).dot(up).abs() * e.y - (r * Vec3::Z).dot(up).abs() * e.z
        }
        Shape::Plane => c,
    }
}

/// The unit vector `v` less its component along unit `n`, or `None` when that is ~0.
pub(crate) fn in_plane(v: Vec3, n: Vec3) -> Option<Vec3> {
    let p = v - n * v.dot(n);
    (p.length() > 1e-4).then(|| p.normalize())
}

/// The turn about unit `up` taking `from` onto `to` (both in the plane ⊥ `up`).
pub(crate) fn yaw_between(from: Vec3, to: Vec3, up: Vec3) -> Quat {
    let angle = from.cross(to).dot(up).atan2(from.dot(to));
    Quat::from_axis_angle(up, angle)
}

/// The host's side of getting up.
impl super::Ragdoll {
    /// Takes the get-up snapshot now: every bone where the last fixed step left it.
    pub fn capture_snapshot(&mut self) {
        for i in 0..self.bone_count() {
            let f = super::Frame::of(&self.scratch.bodies[i]);
            self.snapshot[i] = self.bone_of(i, &f);
        }
    }

    /// The snapshot's bone positions and rotations (buffers of `bone_count` entries).
    pub fn read_snapshot(&self, positions: &mut [Vec3], rotations: &mut [Quat]) -> Result<()> {
        self.check_len(positions.len(), "positions buffer")?;
        self.check_len(rotations.len(), "rotations buffer")?;
        for (i, p) in self.snapshot.iter().enumerate() {
            positions[i] = p.position;
            rotations[i] = p.rotation;
        }
        Ok(())
    }

    /// The chapter's blend from the snapshot to the animated pose `anim_*` by `alpha` (0–1)
    /// into `out_*` (each `bone_count` entries): exactly the snapshot at 0, exactly the
    /// animated pose at 1.
    pub fn blend_from_snapshot(&self, anim_pos: &[Vec3], anim_rot: &[Quat], alpha: f32, out_pos: &mut [Vec3], out_rot: &mut [Quat]) -> Result<()> {
        check_alpha(alpha)?;
        let n = self.bone_count();
        for (len, what) in [(anim_pos.len(), "animated positions"), (anim_rot.len(), "animated rotations")] {
            if len != n {
                return Err(Error::invalid(format!("{what} hold {len} entries; the ragdoll has {n} bones")));
            }
        }
        self.check_len(out_pos.len(), "out positions buffer")?;
        self.check_len(out_rot.len(), "out rotations buffer")?;
        check_pose_list(anim_pos, anim_rot, "animated")?;
        for (i, s) in self.snapshot.iter().enumerate() {
            (out_pos[i], out_rot[i]) = blend_pose((s.position, s.rotation), (anim_pos[i], anim_rot[i]), alpha);
        }
        Ok(())
    }

    /// How long (s) every bone has been slower than the settings' `rest_speed`, up to the
    /// last fixed step it was stepped in (a sleeping ragdoll keeps the time it fell asleep
    /// with; it is at rest).
    pub fn rest_time(&self) -> f32 {
        self.rest_time
    }

    /// At rest for at least `seconds` (or asleep).
    pub fn is_at_rest(&self, seconds: f32) -> Result<bool> {
        check_finite(seconds, "seconds")?;
        if seconds < 0.0 {
            return Err(Error::invalid(format!("seconds must be >= 0 (got {seconds})")));
        }
        Ok(self.is_asleep() || self.rest_time >= seconds)
    }

    /// Which side the ragdoll lies on and where its get-up clip's root goes (module docs).
    pub fn get_up_info(&self, q: &GetUpQuery) -> Result<GetUpInfo> {
        for (b, what) in [(q.pelvis, "pelvis"), (q.chest, "chest"), (q.head, "head")] {
            if b >= self.bone_count() {
                return Err(Error::out_of_range(format!("{what} bone {b} is out of range (the ragdoll has {} bones)", self.bone_count())));
            }
        }
        if q.pelvis == q.head {
            return Err(Error::invalid(format!("the pelvis and the head must be different bones (both are {})", q.pelvis)));
        }
        let unit = |v: Vec3, what: &str| -> Result<Vec3> {
            if !is_finite3(v) {
                return Err(Error::non_finite(format!("{what} is not finite ({v})")));
            }
            if !(v.length() > 1e-6 && v.length() <= crate::error::MAX_LENGTH) {
                return Err(Error::invalid(format!("{what} must have a length in (0, {}] (got {v})", crate::error::MAX_LENGTH)));
            }
            Ok(v.normalize())
        };
        let up = unit(q.up, "up")?;
        let bind_forward = unit(q.bind_forward, "bind_forward")?;
        let bind_up = unit(q.bind_up, "bind_up")?;
        let Some(bind_forward) = in_plane(bind_forward, bind_up) else {
            return Err(Error::invalid(format!("bind_forward {} is parallel to bind_up {}", q.bind_forward, q.bind_up)));
        };
        let bind_right = bind_up.cross(bind_forward);
        // The pelvis's and the chest's front (and right) now: the bind-pose axes carried by
        // each bone's turn since the bind pose.
        let now = |b: usize| self.bone_of(b, &super::Frame::of(&self.scratch.bodies[b]));
        let turn = |b: usize| (now(b).rotation * self.desc.bones[b].bind.rotation.normalize().inverse()).normalize();
        let (tp, tc) = (turn(q.pelvis), turn(q.chest));
        let front = (tp * bind_forward + tc * bind_forward).normalize_or(tp * bind_forward);
        let right = (tp * bind_right + tc * bind_right).normalize_or(tp * bind_right);
        let (fu, ru) = (front.dot(up), right.dot(up));
        let side = if fu.abs() >= ru.abs() {
            if fu >= 0.0 { LyingSide::FaceUp } else { LyingSide::FaceDown }
        } else if ru > 0.0 {
            // The right side faces up: lying on the left.
            LyingSide::LeftSide
        } else {
            LyingSide::RightSide
        };
        let from_front = fu < 0.0;
        // The ground under the body: the lowest point of the bones' shapes.
        let ground = self
            .bone_shapes_in_step()
            .map(|(shape, _, end)| lowest_along(&shape, &end, up))
            .fold(f32::INFINITY, f32::min);
        let pelvis = now(q.pelvis).position;
        let root_position = pelvis - up * (pelvis.dot(up) - ground);
        let head = now(q.head).position;
        let heading = in_plane(head - pelvis, up).or_else(|| in_plane(tp * bind_up, up)).unwrap_or_else(|| in_plane(Vec3::Z, up).unwrap_or(Vec3::X));
        let facing = if from_front { heading } else { -heading };
        let forward_flat = in_plane(bind_forward, up).unwrap_or(facing);
        let root_rotation = yaw_between(forward_flat, facing, up);
        Ok(GetUpInfo { side, from_front, front_up: fu, root_position, root_rotation, heading })
    }
}
