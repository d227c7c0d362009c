//! Shapes and poses: plain data shared by colliders, (next) ragdoll bones and the kernels;
//! [`trimesh`], the static triangle mesh with its hierarchy and queries.
//!
//! Every shape is described by its signed distance `φ(p)` in local space and the unit
//! gradient `∇φ` (the outward normal). The swept contact test in `solver/contact/shape.rs`
//! needs only these two, so one routine serves all shapes.
//!
//! Tapered capsule ("round cone"): spheres A (centre `(0, −h, 0)`, radius `r0`) and B
//! (`(0, h, 0)`, `r1`) and the cone tangent to both. In the plane of the axis, with `u`
//! along the axis from A and `v` the distance from it, the cone's outward normal is
//! `n = (s, c)` with `s = (r0 − r1)/2h`, `c = √(1 − s²)` (the tangent points `A + r0·n`,
//! `B + r1·n` lie on one line ⟂ n). A point is closest to the side when
//! `0 ≤ u·c − v·s ≤ 2h·c`, to sphere A below that range and to sphere B above it; the side
//! distance is `u·s + v·c − r0`.
//!
//! A [`Pose`] is a rigid transform with a uniform scale; [`Pose::lerp`] moves between two
//! (position lerp, rotation slerp), which is how a shape sweeps across a substep.

pub mod trimesh;

pub use trimesh::TriMesh;

use crate::error::{Error, MAX_LENGTH, Result, check_finite, check_finite_with, check_length, check_transform, check_within};
use crate::math::{Mat4, Quat, Vec3, is_finite3};

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Shape {
    /// Radius (m).
    Sphere { radius: f32 },
    /// Segment from `(0, −half_height, 0)` to `(0, half_height, 0)`, radius `radius0` at
    /// the first end and `radius1` at the second.
    Capsule { half_height: f32, radius0: f32, radius1: f32 },
    /// The half-space below the local XZ plane is solid; its normal is local +Y.
    Plane,
    /// Oriented box with these half extents (m).
    Box { half_extents: Vec3 },
}

impl Shape {
    pub fn validate(&self) -> Result<()> {
        match *self {
            Shape::Sphere { radius } => {
                check_length(radius, "sphere radius")?;
            }
            Shape::Capsule { half_height, radius0, radius1 } => {
                check_finite(half_height, "capsule half_height")?;
                check_finite(radius0, "capsule radius0")?;
                check_finite(radius1, "capsule radius1")?;
                if half_height < 0.0 || radius0 < 0.0 || radius1 < 0.0 {
                    return Err(Error::invalid(format!(
                        "capsule sizes must be >= 0 (half_height {half_height}, radius0 {radius0}, radius1 {radius1})"
                    )));
                }
                check_within(half_height, MAX_LENGTH, "capsule half_height")?;
                check_within(radius0, MAX_LENGTH, "capsule radius0")?;
                check_within(radius1, MAX_LENGTH, "capsule radius1")?;
                if radius0 == 0.0 && radius1 == 0.0 {
                    return Err(Error::invalid("a capsule needs at least one radius > 0 (both are 0)"));
                }
            }
            Shape::Plane => {}
            Shape::Box { half_extents: e } => {
                if !is_finite3(e) {
                    return Err(Error::non_finite("box half extents are not finite"));
                }
                if e.min_element() <= 0.0 {
                    return Err(Error::invalid(format!("box half extents must be > 0 (got {e})")));
                }
                if e.max_element() > MAX_LENGTH {
                    return Err(Error::invalid(format!("box half extents must be at most {MAX_LENGTH} m (got {e})")));
                }
            }
        }
        Ok(())
    }

    /// Signed distance and outward unit normal at local point `p`.
    #[inline]
    pub fn distance(&self, p: Vec3) -> (f32, Vec3) {
        match *self {
            Shape::Sphere { radius } => {
                let len = p.length();
                let n = if len > 1e-12 { p / len } else { Vec3::Y };
                (len - radius, n)
            }
            Shape::Capsule { half_height, radius0, radius1 } => capsule_distance(p, half_height, radius0, radius1),
            Shape::Plane => (p.y, Vec3::Y),
            Shape::Box { half_extents } => box_distance(p, half_extents),
        }
    }

    /// Radius of a sphere about the local origin containing the shape (∞ for a plane).
    pub fn bounding_radius(&self) -> f32 {
        match *self {
            Shape::Sphere { radius } => radius,
            Shape::Capsule { half_height, radius0, radius1 } => half_height + radius0.max(radius1),
            Shape::Plane => f32::INFINITY,
            Shape::Box { half_extents } => half_extents.length(),
        }
    }
}

fn capsule_distance(p: Vec3, h: f32, r0: f32, r1: f32) -> (f32, Vec3) {
    let a = Vec3::new(0.0, -h, 0.0);
    let b = Vec3::new(0.0, h, 0.0);
    let to_sphere = |centre: Vec3, r: f32| {
        let d = p - centre;
        let len = d.length();
        (len - r, if len > 1e-12 { d / len } else { Vec3::Y })
    };
    let l = 2.0 * h;
    // One sphere swallows the other (or the segment is a point): the bigger sphere is the shape.
    if l <= (r0 - r1).abs() {
        return if r0 >= r1 { to_sphere(a, r0) } else { to_sphere(b, r1) };
    }
    let s = (r0 - r1) / l;
    let c = (1.0 - s * s).sqrt();
    let u = p.y + h;
    let radial = Vec3::new(p.x, 0.0, p.z);
    let v = radial.length();
    let along = u * c - v * s;
    if along < 0.0 {
        to_sphere(a, r0)
    } else if along > l * c {
        to_sphere(b, r1)
    } else {
        let dir = if v > 1e-12 { radial / v } else { Vec3::X };
        (u * s + v * c - r0, Vec3::Y * s + dir * c)
    }
}

fn box_distance(p: Vec3, e: Vec3) -> (f32, Vec3) {
    let q = p.abs() - e;
    let outside = q.max(Vec3::ZERO);
    let out_len = outside.length();
    if out_len > 0.0 {
        return (out_len, (outside / out_len) * p.signum());
    }
    // Inside: the nearest face is the one with the largest (least negative) q.
    let (d, n) = if q.x >= q.y && q.x >= q.z {
        (q.x, Vec3::X * p.x.signum())
    } else if q.y >= q.z {
        (q.y, Vec3::Y * p.y.signum())
    } else {
        (q.z, Vec3::Z * p.z.signum())
    };
    (d, n)
}

/// Which shape a [`ShapeDesc`] describes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ShapeKind {
    Sphere,
    Capsule,
    Plane,
    Box,
}

/// Every size a host's collider description carries, whichever shape it chooses (the C
/// ABI's `SinewColliderDesc`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ShapeDesc {
    pub kind: ShapeKind,
    pub radius: f32,
    pub half_height: f32,
    pub radius0: f32,
    pub radius1: f32,
    pub half_extents: Vec3,
}

impl ShapeDesc {
    /// The shape, validated; the sizes the shape does not use must still be finite (a NaN
    /// left in an unused field is a bug of the host's, reported rather than ignored).
    pub fn shape(&self) -> Result<Shape> {
        let unused = |v: f32, name: &str| check_finite_with(v, || format!("{name} (unused by this shape)")).map(drop);
        let e = self.half_extents;
        let shape = match self.kind {
            ShapeKind::Sphere => Shape::Sphere { radius: self.radius },
            ShapeKind::Capsule => Shape::Capsule { half_height: self.half_height, radius0: self.radius0, radius1: self.radius1 },
            ShapeKind::Plane => Shape::Plane,
            ShapeKind::Box => Shape::Box { half_extents: e },
        };
        if self.kind != ShapeKind::Sphere {
            unused(self.radius, "radius")?;
        }
        if self.kind != ShapeKind::Capsule {
            unused(self.half_height, "half_height")?;
            unused(self.radius0, "radius0")?;
            unused(self.radius1, "radius1")?;
        }
        if self.kind != ShapeKind::Box {
            for (v, name) in [(e.x, "half_extents.x"), (e.y, "half_extents.y"), (e.z, "half_extents.z")] {
                unused(v, name)?;
            }
        }
        shape.validate()?;
        Ok(shape)
    }
}

/// A rigid transform with uniform scale.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pose {
    pub rotation: Quat,
    pub position: Vec3,
    pub scale: f32,
}

impl Pose {
    pub(crate) const IDENTITY: Pose = Pose { rotation: Quat::IDENTITY, position: Vec3::ZERO, scale: 1.0 };

    /// Decomposes a column-major matrix; refuses shear, non-uniform or negative scale, a
    /// translation beyond the world's extent and a scale beyond 1000.
    pub fn from_matrix(m: &Mat4) -> Result<Pose> {
        if !m.to_cols_array().iter().all(|v| v.is_finite()) {
            return Err(Error::non_finite("transform is not finite"));
        }
        check_transform(m, "transform")?;
        let row3 = m.row(3);
        if row3 != glam::Vec4::new(0.0, 0.0, 0.0, 1.0) {
            return Err(Error::invalid("transform has a projective row; it must be rotation, uniform scale and translation"));
        }
        let (sx, sy, sz) = (m.x_axis.truncate().length(), m.y_axis.truncate().length(), m.z_axis.truncate().length());
        let scale = (sx + sy + sz) / 3.0;
        if scale <= 1e-6 {
            return Err(Error::invalid("transform has zero scale"));
        }
        if (sx - scale).abs() > 1e-3 * scale || (sy - scale).abs() > 1e-3 * scale || (sz - scale).abs() > 1e-3 * scale {
            return Err(Error::invalid(format!(
                "transform has non-uniform scale ({sx}, {sy}, {sz}); only uniform scale is supported"
            )));
        }
        let r = glam::Mat3::from_cols(m.x_axis.truncate() / scale, m.y_axis.truncate() / scale, m.z_axis.truncate() / scale);
        let ortho = (r.x_axis.dot(r.y_axis)).abs().max(r.y_axis.dot(r.z_axis).abs()).max(r.x_axis.dot(r.z_axis).abs());
        if ortho > 1e-3 || r.determinant() < 0.0 {
            return Err(Error::invalid("transform is sheared or mirrored; it must be rotation, uniform scale and translation"));
        }
        Ok(Pose { rotation: Quat::from_mat3(&r).normalize(), position: m.w_axis.truncate(), scale })
    }

    /// A rigid transform (rotation and translation) from a column-major matrix: as
    /// [`Pose::from_matrix`], and a scale other than 1 (beyond 1e-3) refused, the message
    /// naming `what` and its scale. For the transforms that place or carry rigid things —
    /// a ragdoll's root, a moving platform's anchor — where a scale has no meaning.
    pub fn from_rigid_matrix(m: &Mat4, what: &str) -> Result<Pose> {
        let pose = Pose::from_matrix(m).map_err(|e| Error::new(e.kind, format!("{what}: {}", e.message)))?;
        if (pose.scale - 1.0).abs() > 1e-3 {
            return Err(Error::invalid(format!(
                "{what} has scale {}; it must be rigid (rotation and translation, scale 1)",
                pose.scale
            )));
        }
        Ok(Pose { scale: 1.0, ..pose })
    }

    /// `self ∘ inner`: `inner` applied first, then `self` (`p ↦ self(inner(p))`), scales multiplied.
    #[inline]
    pub fn compose(&self, inner: &Pose) -> Pose {
        Pose { rotation: (self.rotation * inner.rotation).normalize(), position: self.to_world(inner.position), scale: self.scale * inner.scale }
    }

    /// World → local.
    #[inline]
    pub fn to_local(&self, p: Vec3) -> Vec3 {
        self.rotation.inverse() * (p - self.position) / self.scale
    }

    /// Local → world.
    #[inline]
    pub fn to_world(&self, p: Vec3) -> Vec3 {
        self.rotation * (p * self.scale) + self.position
    }

    /// The pose a fraction `t` of the way to `other`.
    pub fn lerp(&self, other: &Pose, t: f32) -> Pose {
        if t <= 0.0 {
            return *self;
        }
        if t >= 1.0 {
            return *other;
        }
        Pose {
            rotation: self.rotation.slerp(other.rotation, t),
            position: self.position.lerp(other.position, t),
            scale: self.scale + (other.scale - self.scale) * t,
        }
    }
}

impl Pose {
    /// The pose at `t` on the motion from `self` (t = 0) to `other` (t = 1), carried on at the
    /// same linear and angular velocity beyond 1 (position, rotation about the same axis,
    /// scale; the scale never below a tenth of `other`'s).
    pub fn extrapolate(&self, other: &Pose, t: f32) -> Pose {
        if t <= 1.0 || self == other {
            return self.lerp(other, t);
        }
        let mut turn = other.rotation * self.rotation.inverse();
        if turn.w < 0.0 {
            turn = -turn;
        }
        let (axis, angle) = turn.to_axis_angle();
        let extra = Quat::from_axis_angle(axis, angle * (t - 1.0));
        Pose {
            rotation: (extra * other.rotation).normalize(),
            position: self.position.lerp(other.position, t),
            scale: (self.scale + (other.scale - self.scale) * t).max(0.1 * other.scale),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sphere_and_box_distances() {
        let s = Shape::Sphere { radius: 1.0 };
        assert_eq!(s.distance(Vec3::new(0.0, 3.0, 0.0)), (2.0, Vec3::Y));
        let b = Shape::Box { half_extents: Vec3::new(1.0, 2.0, 3.0) };
        let (d, n) = b.distance(Vec3::new(0.0, 2.5, 0.0));
        assert!((d - 0.5).abs() < 1e-6 && n == Vec3::Y);
        let (d, n) = b.distance(Vec3::new(0.9, 0.0, 0.0));
        assert!((d + 0.1).abs() < 1e-6 && n == Vec3::X);
    }

    #[test]
    fn capsule_with_equal_radii_is_distance_to_segment() {
        let c = Shape::Capsule { half_height: 1.0, radius0: 0.5, radius1: 0.5 };
        let (d, n) = c.distance(Vec3::new(2.0, 0.3, 0.0));
        assert!((d - 1.5).abs() < 1e-6 && (n - Vec3::X).length() < 1e-6);
        let (d, _) = c.distance(Vec3::new(0.0, 3.0, 0.0));
        assert!((d - 1.5).abs() < 1e-6);
    }

    #[test]
    fn tapered_capsule_matches_brute_force_over_its_spheres() {
        // The round cone is the union of spheres along the axis with linearly varying radius;
        // its distance is the min over that family.
        let (h, r0, r1) = (0.6f32, 0.3f32, 0.1f32);
        let shape = Shape::Capsule { half_height: h, radius0: r0, radius1: r1 };
        for &p in &[Vec3::new(0.5, 0.0, 0.1), Vec3::new(0.2, -1.0, 0.0), Vec3::new(0.0, 0.9, 0.3), Vec3::new(-0.4, 0.4, -0.2)] {
            let mut best = f32::INFINITY;
            for k in 0..=20000 {
                let t = k as f32 / 20000.0;
                let c = Vec3::new(0.0, -h + 2.0 * h * t, 0.0);
                best = best.min((p - c).length() - (r0 + (r1 - r0) * t));
            }
            let (d, n) = shape.distance(p);
            assert!((d - best).abs() < 1e-4, "at {p}: {d} vs {best}");
            assert!((n.length() - 1.0).abs() < 1e-5);
        }
    }

    #[test]
    fn pose_refuses_non_uniform_scale() {
        let m = Mat4::from_scale(Vec3::new(1.0, 2.0, 1.0));
        assert!(Pose::from_matrix(&m).is_err());
        let m = Mat4::from_scale_rotation_translation(Vec3::splat(2.0), Quat::from_rotation_y(0.7), Vec3::new(1.0, 2.0, 3.0));
        let p = Pose::from_matrix(&m).unwrap();
        let x = Vec3::new(0.3, -0.2, 0.5);
        assert!((p.to_world(p.to_local(x)) - x).length() < 1e-5);
        assert!((p.to_world(x) - m.transform_point3(x)).length() < 1e-5);
    }
}
