//! The library's error type. `src/ffi/result.rs` maps each kind to its `SinewResult` code.

use std::fmt;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    NullPointer,
    InvalidHandle,
    InvalidArgument,
    OutOfRange,
    NonFinite,
    BufferTooSmall,
    Busy,
    Panic,
    TooLarge,
    OutOfMemory,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    pub kind: ErrorKind,
    pub message: String,
}

impl Error {
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> Error {
        Error { kind, message: message.into() }
    }
    pub fn invalid(message: impl Into<String>) -> Error {
        Error::new(ErrorKind::InvalidArgument, message)
    }
    pub fn out_of_range(message: impl Into<String>) -> Error {
        Error::new(ErrorKind::OutOfRange, message)
    }
    pub fn non_finite(message: impl Into<String>) -> Error {
        Error::new(ErrorKind::NonFinite, message)
    }
    pub fn too_large(message: impl Into<String>) -> Error {
        Error::new(ErrorKind::TooLarge, message)
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Error {}

pub type Result<T> = std::result::Result<T, Error>;

/// Largest particle count of one body: 2048 × 2048. Bigger requests are refused with
/// `TooLarge` before anything is allocated, so an absurd size is an error, not an abort.
pub const MAX_PARTICLES: usize = 1 << 22;

/// A vector of `n` copies of `value`, or `OutOfMemory` when the allocation fails.
pub fn try_filled<T: Clone>(n: usize, value: T, what: &str) -> Result<Vec<T>> {
    let mut v = Vec::new();
    v.try_reserve_exact(n)
        .map_err(|_| Error::new(ErrorKind::OutOfMemory, format!("out of memory allocating {n} {what}")))?;
    v.resize(n, value);
    Ok(v)
}

/// Checks a float parameter is finite, naming it in the error.
pub fn check_finite(value: f32, name: &str) -> Result<f32> {
    if value.is_finite() { Ok(value) } else { Err(Error::non_finite(format!("{name} is not finite ({value})"))) }
}

/// As [`check_finite`], the name made only on failure.
pub fn check_finite_with(value: f32, name: impl FnOnce() -> String) -> Result<f32> {
    if value.is_finite() { Ok(value) } else { check_finite(value, &name()) }
}

/// An error of a check on a part of something (`name` at the start of its message) as one of
/// the whole: `prefix` before the message, made only on failure.
pub fn within_part(prefix: impl FnOnce() -> String) -> impl FnOnce(Error) -> Error {
    move |e| Error::new(e.kind, format!("{}{}", prefix(), e.message))
}

/// Checks a float parameter is finite and `>= 0`.
pub fn check_non_negative(value: f32, name: &str) -> Result<f32> {
    check_finite(value, name)?;
    if value >= 0.0 { Ok(value) } else { Err(Error::invalid(format!("{name} must be >= 0 (got {value})"))) }
}

/// Checks a float parameter is finite and `> 0`.
pub fn check_positive(value: f32, name: &str) -> Result<f32> {
    check_finite(value, name)?;
    if value > 0.0 { Ok(value) } else { Err(Error::invalid(format!("{name} must be > 0 (got {value})"))) }
}

// The ranges of the host's float inputs, written once. A value beyond its range can only
// overflow, lose all precision or make the solver meaningless, so it is refused at the call
// (`InvalidArgument`, naming the value and the range) instead of freezing the body later.

/// The world's extent (m): every position or translation the host gives — pin targets,
/// origins, points, bone and collider transforms, the camera, the skinned pose — is within
/// ±1e6 m on each axis. At 1000 km an `f32` still resolves 6 cm; farther, a cloth cannot be
/// simulated at all, and products of such values overflow.
pub(crate) const MAX_COORDINATE: f32 = 1e6;
/// A step that leaves a coordinate beyond ±1e7 m (ten times the world's extent) or a speed
/// component beyond 1e7 m/s has overflowed, as a NaN has: it is rolled back and reported
/// (`Recovery::StepNotFinite`), so that no readback ever holds 1e25.
pub const MAX_STEP_VALUE: f32 = 1e7;
/// Largest size (m): grid spacings, garment widths and lengths, strand segments, collider
/// radii and half extents, backstop offsets and radii, weld distances. No cloth, rope or
/// collider is a kilometre across.
pub(crate) const MAX_LENGTH: f32 = 1e3;
/// Smallest size (m), for the same values as [`MAX_LENGTH`]: ten times the distance below
/// which the solver takes two particles as one (`math::LENGTH_EPSILON`), so a size in range
/// never makes a body's particles coincide. A hundredth of a millimetre.
pub(crate) const MIN_LENGTH: f32 = 1e-5;
/// Largest magnitude of an element of a transform's rotation-and-scale part (a uniform scale
/// up to 1000).
pub(crate) const MAX_SCALE: f32 = 1e3;
/// Largest gravity (m/s²): about 102 g.
pub(crate) const MAX_GRAVITY: f32 = 1e3;
/// Largest dimensionless factor (gravity scale, friction, drag, lift, wind scale, wind
/// turbulence and gust fractions).
pub(crate) const MAX_FACTOR: f32 = 100.0;
/// Largest compliance (m/N): far softer than any cloth; beyond it α/h² overflows at small
/// substeps.
pub(crate) const MAX_COMPLIANCE: f32 = 1e3;

/// How far from 1 the length of a host's rotation quaternion (or a rigid transform's scale)
/// may be: rotations are renormalised, and a quaternion farther from unit length is a bug of
/// the caller's, not round-off.
pub const UNIT_TOLERANCE: f32 = 1e-3;

/// Whether `x` (a quaternion's length, a transform's scale) is 1 within [`UNIT_TOLERANCE`].
pub fn is_unit(x: f32) -> bool {
    (x - 1.0).abs() <= UNIT_TOLERANCE
}

/// A host's rotation: finite and of unit length within [`UNIT_TOLERANCE`], renormalised; the
/// name is made only on failure.
pub fn check_rotation(q: glam::Quat, name: impl Fn() -> String) -> Result<glam::Quat> {
    if !q.is_finite() {
        return Err(Error::non_finite(format!("{} is not finite ({q})", name())));
    }
    let len = q.length();
    if !is_unit(len) {
        return Err(Error::invalid(format!("{} is not a unit quaternion (length {len})", name())));
    }
    Ok(q / len)
}

/// Checks a finite `value` with `|value| <= max`.
pub fn check_magnitude(value: f32, max: f32, name: &str) -> Result<f32> {
    check_finite(value, name)?;
    if value.abs() <= max { Ok(value) } else { Err(Error::invalid(format!("{name} must be within [-{max}, {max}] (got {value})"))) }
}

/// Checks `0 <= value <= max`, finite.
pub fn check_within(value: f32, max: f32, name: &str) -> Result<f32> {
    check_non_negative(value, name)?;
    if value <= max { Ok(value) } else { Err(Error::invalid(format!("{name} must be within [0, {max}] (got {value})"))) }
}

/// Checks a fraction, strength or weight: finite and within [0, 1].
pub fn check_unit(value: f32, name: &str) -> Result<f32> {
    check_finite(value, name)?;
    if (0.0..=1.0).contains(&value) { Ok(value) } else { Err(Error::invalid(format!("{name} must be within [0, 1] (got {value})"))) }
}

/// Checks a size: `MIN_LENGTH <= value <= MAX_LENGTH` m.
pub fn check_length(value: f32, name: &str) -> Result<f32> {
    check_finite(value, name)?;
    if (MIN_LENGTH..=MAX_LENGTH).contains(&value) {
        Ok(value)
    } else {
        Err(Error::invalid(format!("{name} must be within [{MIN_LENGTH:e}, {MAX_LENGTH}] m (got {value})")))
    }
}

/// Checks a position: finite and within the world's extent.
pub fn check_position(p: glam::Vec3, name: &str) -> Result<glam::Vec3> {
    position_problem(p, || name.to_string())?;
    Ok(p)
}

/// As [`check_position`], the name made only on failure (per-frame paths allocate nothing).
pub fn check_position_with(p: glam::Vec3, name: impl Fn() -> String) -> Result<glam::Vec3> {
    position_problem(p, name)?;
    Ok(p)
}

/// As [`check_position`], the name made only on failure (the per-frame paths allocate nothing).
fn position_problem(p: glam::Vec3, name: impl Fn() -> String) -> Result<()> {
    if !(p.x.is_finite() && p.y.is_finite() && p.z.is_finite()) {
        return Err(Error::non_finite(format!("{} is not finite ({p})", name())));
    }
    if p.abs().max_element() > MAX_COORDINATE {
        return Err(Error::invalid(format!("{} ({p}) is beyond the world's extent of ±{MAX_COORDINATE} m", name())));
    }
    Ok(())
}

/// Checks every position of a list (`name k` in the message).
pub fn check_positions(points: &[glam::Vec3], name: &str) -> Result<()> {
    for (k, p) in points.iter().enumerate() {
        position_problem(*p, || format!("{name} {k}"))?;
    }
    Ok(())
}

/// Checks a transform (column-major): finite, its translation within the world's extent and
/// every element of its rotation-and-scale part at most `MAX_SCALE`.
pub fn check_transform(m: &glam::Mat4, name: &str) -> Result<()> {
    check_transform_with(m, || name.to_string())
}

/// As [`check_transform`], the name made only on failure.
pub fn check_transform_with(m: &glam::Mat4, name: impl Fn() -> String) -> Result<()> {
    if !m.is_finite() {
        return Err(Error::non_finite(format!("{} is not finite", name())));
    }
    position_problem(m.w_axis.truncate(), || format!("{}'s translation", name()))?;
    let linear = [m.x_axis.truncate(), m.y_axis.truncate(), m.z_axis.truncate()];
    if let Some(big) = linear.iter().map(|c| c.abs().max_element()).find(|&e| e > MAX_SCALE) {
        return Err(Error::invalid(format!("{} has a rotation/scale element of magnitude {big}; at most {MAX_SCALE} is supported", name())));
    }
    Ok(())
}
