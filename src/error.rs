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
