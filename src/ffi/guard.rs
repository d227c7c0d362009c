//! The panic boundary and the argument-check helpers (rustls-ffi's `ffi_panic_boundary`,
//! `try_ref!`, `try_slice!`).

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
        match unsafe { ($ptr).as_ref() } {
            Some(r) => r,
            None => return Err($crate::ffi::guard::null($name)),
        }
    };
}

/// Checks an out-pointer is non-null before any work is done; gives a `*mut T` to write at the end.
macro_rules! try_out {
    ($ptr:expr, $name:literal) => {{
        let p = $ptr;
        if p.is_null() {
            return Err($crate::ffi::guard::null($name));
        }
        p
    }};
}

/// `&[T]` from a pointer and a length. A zero length accepts a null pointer.
macro_rules! try_slice {
    ($ptr:expr, $len:expr, $name:literal) => {
        $crate::ffi::guard::slice($ptr, $len, $name)?
    };
}

/// `&mut [T]` from a pointer and a length.
macro_rules! try_slice_mut {
    ($ptr:expr, $len:expr, $name:literal) => {
        $crate::ffi::guard::slice_mut($ptr, $len, $name)?
    };
}

pub fn null(name: &str) -> Error {
    Error::new(ErrorKind::NullPointer, format!("{name} is null"))
}

fn check_len<T>(len: usize, name: &str) -> Result<()> {
    if len > isize::MAX as usize / std::mem::size_of::<T>().max(1) {
        return Err(Error::too_large(format!("{name} length {len} is larger than any buffer can be")));
    }
    Ok(())
}

pub fn slice<'a, T>(ptr: *const T, len: usize, name: &str) -> Result<&'a [T]> {
    if len == 0 {
        return Ok(&[]);
    }
    if ptr.is_null() {
        return Err(null(name));
    }
    check_len::<T>(len, name)?;
    // SAFETY: the caller promises `len` valid elements at `ptr` (the documented contract).
    Ok(unsafe { std::slice::from_raw_parts(ptr, len) })
}

pub fn slice_mut<'a, T>(ptr: *mut T, len: usize, name: &str) -> Result<&'a mut [T]> {
    if len == 0 {
        return Ok(&mut []);
    }
    if ptr.is_null() {
        return Err(null(name));
    }
    check_len::<T>(len, name)?;
    // SAFETY: as above, for writable memory.
    Ok(unsafe { std::slice::from_raw_parts_mut(ptr, len) })
}

/// Writes an output, the last thing an export does.
pub fn write<T>(out: *mut T, value: T) {
    // SAFETY: `out` was checked non-null by `try_out!` at the start of the export.
    unsafe { out.write(value) }
}
