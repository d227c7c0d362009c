//! The panic boundary and the argument-check helpers (rustls-ffi's `ffi_panic_boundary`,
//! `try_ref!`, `try_slice!`).
//!
//! Every pointer argument goes through one of these, never through an ad hoc check:
//!
//! | argument | helper | rule |
//! |---|---|---|
//! | `const T *` (one value) | [`try_ref!`] | null → `SINEW_NULL_POINTER` |
//! | `T *out` (one output) | [`try_out!`] → [`Out`] | null → `SINEW_NULL_POINTER`, checked before any work; written only on success |
//! | `const T *p, size_t n` (input slice) | [`try_slice!`] | null is accepted exactly when `n == 0` (an empty slice); null with `n > 0` → `SINEW_NULL_POINTER` |
//! | `T *out, size_t capacity` (output buffer) | [`try_out_buf!`] → [`OutBuf`] | the same null rule as an input slice, checked before any work; then [`OutBuf::take`]: `capacity` < the required count → `SINEW_BUFFER_TOO_SMALL` (so null with capacity 0 succeeds only when nothing is to be written) |
//!
//! A length no buffer can have (more than `isize::MAX` bytes) is `SINEW_TOO_LARGE`.

use std::panic::{AssertUnwindSafe, catch_unwind};

use crate::error::{Error, ErrorKind, Result};
use crate::ffi::result::{SinewResult, set_last_error};

/// Runs an export body: `Ok` → `SINEW_OK`; `Err` → its code, with the message stored for
/// `sinew_last_error_message`; a panic → `SINEW_PANIC`, never unwinding into the host.
pub fn run(f: impl FnOnce() -> Result<()>) -> SinewResult {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(Ok(())) => SinewResult::SINEW_OK,
        Ok(Err(e)) => {
            set_last_error(&e);
            e.kind.into()
        }
        Err(payload) => {
            let what = panic_text(&*payload);
            set_last_error(&Error::new(ErrorKind::Panic, format!("internal error caught at the API boundary: {what}")));
            SinewResult::SINEW_PANIC
        }
    }
}

/// Runs `f`, turning a panic into an `ErrorKind::Panic` error (for work on worker threads).
pub fn catch(f: impl FnOnce() -> Result<()>) -> Result<()> {
    catch_unwind(AssertUnwindSafe(f)).unwrap_or_else(|p| Err(Error::new(ErrorKind::Panic, format!("internal error in a worker: {}", panic_text(&*p)))))
}

fn panic_text(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown panic".into())
}

/// Runs an export that returns a value instead of a code; a panic gives `default`.
pub fn run_or<T>(default: T, f: impl FnOnce() -> T) -> T {
    catch_unwind(AssertUnwindSafe(f)).unwrap_or(default)
}

/// One export body inside the panic guard.
macro_rules! ffi_guard {
    ($body:block) => {
        $crate::ffi::guard::run(|| -> $crate::error::Result<()> { $body })
    };
}

/// `&T` from a pointer, or `SINEW_NULL_POINTER` naming the argument.
macro_rules! try_ref {
    ($ptr:expr, $name:literal) => {
        // SAFETY: the C contract: a non-null pointer points to a valid, initialised `T`.
        match unsafe { ($ptr).as_ref() } {
            Some(r) => r,
            None => return Err($crate::ffi::guard::null($name)),
        }
    };
}

/// Checks an out-pointer is non-null before any work is done; gives an [`Out`] to write at
/// the end.
macro_rules! try_out {
    ($ptr:expr, $name:literal) => {
        // SAFETY: the C contract: a non-null out-pointer points to writable memory for a `T`.
        unsafe { $crate::ffi::guard::Out::new($ptr, $name)? }
    };
}

/// `&[T]` from a pointer and a length (the input-slice rule of the module docs).
macro_rules! try_slice {
    ($ptr:expr, $len:expr, $name:literal) => {
        // SAFETY: the C contract: a non-null pointer points to `len` valid elements.
        unsafe { $crate::ffi::guard::slice($ptr, $len, $name)? }
    };
}

/// An output buffer from a pointer and its capacity (the output-buffer rule of the module
/// docs); call [`OutBuf::take`] with the required count.
macro_rules! try_out_buf {
    ($ptr:expr, $capacity:expr, $name:literal) => {
        // SAFETY: the C contract: a non-null pointer points to `capacity` writable elements.
        unsafe { $crate::ffi::guard::OutBuf::new($ptr, $capacity, $name)? }
    };
}

pub fn null(name: &str) -> Error {
    Error::new(ErrorKind::NullPointer, format!("{name} is null"))
}

/// The largest buffer a call believes (bytes): 2^52, more than any address space a host has
/// (48 bits of user space on x86-64 and AArch64, 52 with their largest pages tables). A
/// capacity of 2^62 bytes was taken on trust.
pub const MAX_BUFFER_BYTES: usize = 1 << 52;

fn check_len<T>(len: usize, name: &str) -> Result<()> {
    if len > MAX_BUFFER_BYTES / std::mem::size_of::<T>().max(1) {
        return Err(Error::too_large(format!("{name} length {len} is larger than any buffer can be (at most {MAX_BUFFER_BYTES} bytes)")));
    }
    Ok(())
}

/// The input-slice rule: null is an empty slice when `len == 0`, else `SINEW_NULL_POINTER`.
///
/// # Safety
///
/// When `ptr` is non-null and `len > 0`, it must point to `len` initialised `T` that stay
/// valid and unchanged for `'a` (the documented C contract of every buffer argument).
pub unsafe fn slice<'a, T>(ptr: *const T, len: usize, name: &str) -> Result<&'a [T]> {
    if len == 0 {
        return Ok(&[]);
    }
    if ptr.is_null() {
        return Err(null(name));
    }
    check_len::<T>(len, name)?;
    // SAFETY: non-null, `len` elements by the caller's promise, size checked above.
    Ok(unsafe { std::slice::from_raw_parts(ptr, len) })
}

/// A checked, non-null out-pointer: written once, at the end of a successful export.
pub struct Out<T> {
    ptr: *mut T,
}

impl<T> Out<T> {
    /// `SINEW_NULL_POINTER` for a null `ptr`.
    ///
    /// # Safety
    ///
    /// A non-null `ptr` must be valid for writing one `T` until the export returns.
    pub unsafe fn new(ptr: *mut T, name: &str) -> Result<Out<T>> {
        if ptr.is_null() {
            return Err(null(name));
        }
        Ok(Out { ptr })
    }

    /// Writes the output (the last thing an export does).
    pub fn write(self, value: T) {
        // SAFETY: non-null and writable, promised to `Out::new`.
        unsafe { self.ptr.write(value) }
    }
}

/// A checked output buffer of `capacity` elements (null only with capacity 0).
pub struct OutBuf<'a, T> {
    ptr: *mut T,
    capacity: usize,
    name: &'a str,
}

impl<'a, T> OutBuf<'a, T> {
    /// The null rule of input slices; `SINEW_TOO_LARGE` for an impossible capacity.
    ///
    /// # Safety
    ///
    /// A non-null `ptr` must be valid for writing `capacity` elements until the export returns.
    pub unsafe fn new(ptr: *mut T, capacity: usize, name: &'a str) -> Result<OutBuf<'a, T>> {
        if ptr.is_null() && capacity > 0 {
            return Err(null(name));
        }
        check_len::<T>(capacity, name)?;
        Ok(OutBuf { ptr, capacity, name })
    }

    /// The first `needed` elements to write, or `SINEW_BUFFER_TOO_SMALL` naming `what` (the
    /// unit of the count, e.g. "vertices").
    pub fn take(self, needed: usize, what: &str) -> Result<&'a mut [T]> {
        self.take_of(needed, "the body", what)
    }

    /// As [`OutBuf::take`], naming the object the count is of (e.g. "the ragdoll").
    pub fn take_of(self, needed: usize, of: &str, what: &str) -> Result<&'a mut [T]> {
        if self.capacity < needed {
            return Err(Error::new(
                ErrorKind::BufferTooSmall,
                format!("{} holds {} elements but {of} has {needed} {what}", self.name, self.capacity),
            ));
        }
        if needed == 0 {
            return Ok(&mut []);
        }
        // SAFETY: non-null (needed > 0 ≤ capacity, and null only with capacity 0), writable
        // for `capacity` ≥ `needed` elements by the promise to `OutBuf::new`.
        Ok(unsafe { std::slice::from_raw_parts_mut(self.ptr, needed) })
    }
}
