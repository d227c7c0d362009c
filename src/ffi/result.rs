//! Result codes and the per-thread last error message.

use std::cell::RefCell;
use std::ffi::{CString, c_char};

use crate::error::{Error, ErrorKind};

/// What every fallible `sinew_` function returns.
#[repr(C)]
#[allow(non_camel_case_types)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SinewResult {
    SINEW_OK = 0,
    /// A required pointer argument was null.
    SINEW_NULL_POINTER = 1,
    /// A handle is zero, destroyed, of another kind, or of a world that no longer exists.
    SINEW_INVALID_HANDLE = 2,
    /// An argument is outside its documented domain (a length, a count, a setting).
    SINEW_INVALID_ARGUMENT = 3,
    /// An index is outside the object's range.
    SINEW_OUT_OF_RANGE = 4,
    /// A float input is NaN or infinite.
    SINEW_NON_FINITE = 5,
    /// An output buffer is shorter than the data.
    SINEW_BUFFER_TOO_SMALL = 6,
    /// The world is stepping asynchronously; call `sinew_world_step_end` first.
    SINEW_BUSY = 7,
    /// An internal error was caught at the boundary; the world is still usable.
    SINEW_PANIC = 8,
    /// A size beyond what the library supports (e.g. a 100000 × 100000 grid, or a buffer
    /// capacity above 2^52 bytes, more than any address space).
    SINEW_TOO_LARGE = 9,
    /// Memory for the request could not be allocated.
    SINEW_OUT_OF_MEMORY = 10,
}

impl From<ErrorKind> for SinewResult {
    fn from(k: ErrorKind) -> Self {
        match k {
            ErrorKind::NullPointer => SinewResult::SINEW_NULL_POINTER,
            ErrorKind::InvalidHandle => SinewResult::SINEW_INVALID_HANDLE,
            ErrorKind::InvalidArgument => SinewResult::SINEW_INVALID_ARGUMENT,
            ErrorKind::OutOfRange => SinewResult::SINEW_OUT_OF_RANGE,
            ErrorKind::NonFinite => SinewResult::SINEW_NON_FINITE,
            ErrorKind::BufferTooSmall => SinewResult::SINEW_BUFFER_TOO_SMALL,
            ErrorKind::Busy => SinewResult::SINEW_BUSY,
            ErrorKind::Panic => SinewResult::SINEW_PANIC,
            ErrorKind::TooLarge => SinewResult::SINEW_TOO_LARGE,
            ErrorKind::OutOfMemory => SinewResult::SINEW_OUT_OF_MEMORY,
        }
    }
}

thread_local! {
    static LAST_ERROR: RefCell<CString> = RefCell::new(CString::default());
}

/// Records `e` as this thread's last error.
pub fn set_last_error(e: &Error) {
    let text = format!("{}: {}", code_name(e.kind.into()), e.message).replace('\0', " ");
    let c = CString::new(text).unwrap_or_default();
    LAST_ERROR.with(|slot| *slot.borrow_mut() = c);
}

/// The symbolic name of a code, as it appears in the header.
pub fn code_name(r: SinewResult) -> &'static str {
    match r {
        SinewResult::SINEW_OK => "SINEW_OK",
        SinewResult::SINEW_NULL_POINTER => "SINEW_NULL_POINTER",
        SinewResult::SINEW_INVALID_HANDLE => "SINEW_INVALID_HANDLE",
        SinewResult::SINEW_INVALID_ARGUMENT => "SINEW_INVALID_ARGUMENT",
        SinewResult::SINEW_OUT_OF_RANGE => "SINEW_OUT_OF_RANGE",
        SinewResult::SINEW_NON_FINITE => "SINEW_NON_FINITE",
        SinewResult::SINEW_BUFFER_TOO_SMALL => "SINEW_BUFFER_TOO_SMALL",
        SinewResult::SINEW_BUSY => "SINEW_BUSY",
        SinewResult::SINEW_PANIC => "SINEW_PANIC",
        SinewResult::SINEW_TOO_LARGE => "SINEW_TOO_LARGE",
        SinewResult::SINEW_OUT_OF_MEMORY => "SINEW_OUT_OF_MEMORY",
    }
}

/// Pointer to this thread's last error message (UTF-8, NUL-terminated; empty when no call
/// on this thread has failed). Valid until the next failing call on this thread.
pub fn last_error_ptr() -> *const c_char {
    LAST_ERROR.with(|slot| slot.borrow().as_ptr())
}
