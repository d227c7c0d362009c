//! `sinew_world_save_state` / `sinew_world_load_state` and the per-object forms for bodies
//! and ragdolls: snapshots of dynamic state in the caller's buffer (`world::snapshot`;
//! docs/snapshots.md).
//!
//! Saving is the two-call pattern: a null buffer with capacity 0 asks for the size
//! (`SINEW_OK`, `*out_size` = bytes needed); a buffer too small gets
//! `SINEW_BUFFER_TOO_SMALL` and, as the one output written on a failure, the size needed in
//! `*out_size`, with nothing written into the buffer.

use crate::error::Result;
use crate::ffi::SINEW_ABI_VERSION;
use crate::ffi::registry;
use crate::ffi::result::SinewResult;
use crate::ffi::types::{SinewBody, SinewRagdoll, SinewWorld};
use crate::world::{Scope, World};

/// Saves `scope` of `world` into the caller's buffer (the module's notes).
fn save(world: &mut World, scope: Scope, out_buffer: *mut u8, capacity: usize, out_size: *mut usize) -> Result<()> {
    let size = try_out!(out_size, "out_size");
    let buf = try_out_buf!(out_buffer, capacity, "out_buffer");
    let n = world.state_size(scope)?;
    if out_buffer.is_null() {
        size.write(n);
        return Ok(());
    }
    match buf.take_of(n, "the snapshot", "bytes") {
        Ok(out) => {
            world.save_state(scope, out, SINEW_ABI_VERSION)?;
            size.write(n);
            Ok(())
        }
        Err(e) => {
            size.write(n);
            Err(e)
        }
    }
}

/// Loads `scope` of `world` from the caller's bytes.
fn load(world: &mut World, scope: Scope, data: *const u8, length: usize) -> Result<()> {
    let data = try_slice!(data, length, "data");
    world.load_state(scope, data, SINEW_ABI_VERSION)
}

/// Saves the world's whole dynamic state (every body, ragdoll and collider, time and the
/// fixed-step accumulator) into `out_buffer` and writes its length to `*out_size`. A null
/// `out_buffer` with `capacity` 0 only reports the size needed; a smaller buffer gets
/// `SINEW_BUFFER_TOO_SMALL` with the size needed in `*out_size` and nothing written into it.
/// `SINEW_BUSY` during an asynchronous step.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_world_save_state(world: SinewWorld, out_buffer: *mut u8, capacity: usize, out_size: *mut usize) -> SinewResult {
    ffi_guard!({
        let cell = registry::world(world)?;
        let mut w = cell.lock()?;
        save(&mut w, Scope::World, out_buffer, capacity, out_size)
    })
}

/// Restores a state `sinew_world_save_state` wrote, of this world or of one built by the
/// same calls in the same order (docs/snapshots.md). The world then continues exactly as the
/// one saved did. A truncated, corrupted, foreign or mismatched snapshot (other objects,
/// particle counts, a body torn since) is refused with `SINEW_INVALID_ARGUMENT` and a message
/// naming the difference, and nothing changes. `SINEW_BUSY` during an asynchronous step.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_world_load_state(world: SinewWorld, data: *const u8, length: usize) -> SinewResult {
    ffi_guard!({
        let cell = registry::world(world)?;
        let mut w = cell.lock()?;
        load(&mut w, Scope::World, data, length)
    })
}

/// Saves one body's dynamic state (as `sinew_world_save_state`, for this body alone).
#[unsafe(no_mangle)]
pub extern "C" fn sinew_body_save_state(body: SinewBody, out_buffer: *mut u8, capacity: usize, out_size: *mut usize) -> SinewResult {
    ffi_guard!({
        let (cell, slot, serial) = registry::body_owner(body)?;
        let mut w = cell.lock()?;
        live(w.bodies.get(slot, serial).is_some(), "body", body.id)?;
        save(&mut w, Scope::Body(slot, serial), out_buffer, capacity, out_size)
    })
}

/// Restores one body's state from `sinew_body_save_state` of this body or of the body
/// created by the same call in a world built the same way; the rest of the world is left as
/// it is. Refused, changing nothing, as `sinew_world_load_state`.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_body_load_state(body: SinewBody, data: *const u8, length: usize) -> SinewResult {
    ffi_guard!({
        let (cell, slot, serial) = registry::body_owner(body)?;
        let mut w = cell.lock()?;
        live(w.bodies.get(slot, serial).is_some(), "body", body.id)?;
        load(&mut w, Scope::Body(slot, serial), data, length)
    })
}

/// Saves one ragdoll's dynamic state (as `sinew_world_save_state`, for this ragdoll alone).
#[unsafe(no_mangle)]
pub extern "C" fn sinew_ragdoll_save_state(ragdoll: SinewRagdoll, out_buffer: *mut u8, capacity: usize, out_size: *mut usize) -> SinewResult {
    ffi_guard!({
        let (cell, slot, serial) = registry::ragdoll_owner(ragdoll)?;
        let mut w = cell.lock()?;
        live(w.ragdolls.get(slot, serial).is_some(), "ragdoll", ragdoll.id)?;
        save(&mut w, Scope::Ragdoll(slot, serial), out_buffer, capacity, out_size)
    })
}

/// Restores one ragdoll's state from `sinew_ragdoll_save_state`; the rest of the world is
/// left as it is. Refused, changing nothing, as `sinew_world_load_state`.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_ragdoll_load_state(ragdoll: SinewRagdoll, data: *const u8, length: usize) -> SinewResult {
    ffi_guard!({
        let (cell, slot, serial) = registry::ragdoll_owner(ragdoll)?;
        let mut w = cell.lock()?;
        live(w.ragdolls.get(slot, serial).is_some(), "ragdoll", ragdoll.id)?;
        load(&mut w, Scope::Ragdoll(slot, serial), data, length)
    })
}

fn live(alive: bool, what: &str, raw: u64) -> Result<()> {
    if alive { Ok(()) } else { Err(registry::stale(what, raw)) }
}
