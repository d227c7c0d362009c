//! `sinew_world_*` (with its descriptors' defaults `sinew_world_desc_default` and
//! `sinew_wind_default`), and the library-wide `sinew_abi_version`,
//! `sinew_last_error_message` and (feature `debug-panic`) `sinew_debug_trigger_panic`.

use std::ffi::c_char;
use std::sync::atomic::Ordering;

use crate::error::{Error, ErrorKind};

use crate::wind::Wind;
use crate::world::{WorkerPool, World, WorldSettings};

use crate::ffi::SINEW_ABI_VERSION;
use crate::ffi::guard;
use crate::ffi::registry;
use crate::ffi::result::{self, SinewResult};
use crate::ffi::types::{SinewEvent, SinewEventKind, SinewRecoveryReason, SinewVec3, SinewWind, SinewWorld, SinewWorldDesc, SinewWorldStats};
use crate::particles::Recovery;

/// The ABI version this library implements (`SINEW_ABI_VERSION` of its header).
#[unsafe(no_mangle)]
pub extern "C" fn sinew_abi_version() -> u32 {
    SINEW_ABI_VERSION
}

/// The calling thread's last error: UTF-8, NUL-terminated, starting with the code's name.
/// Empty when no call on this thread has failed. Owned by Sinew; valid until the next
/// failing call on this thread.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_last_error_message() -> *const c_char {
    guard::run_or(c"".as_ptr(), result::last_error_ptr)
}

/// Fills `out_desc` with the default world settings.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_world_desc_default(out_desc: *mut SinewWorldDesc) -> SinewResult {
    ffi_guard!({
        let out = try_out!(out_desc, "out_desc");
        out.write(WorldSettings::default().into());
        Ok(())
    })
}

/// Creates a world and its worker threads.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_world_create(desc: *const SinewWorldDesc, out_world: *mut SinewWorld) -> SinewResult {
    ffi_guard!({
        let desc = try_ref!(desc, "desc");
        let out = try_out!(out_world, "out_world");
        let settings = WorldSettings::try_from(*desc)?;
        let mut world = World::new(settings)?;
        let mut pool = WorkerPool::new(settings.thread_count)?;
        pool.set_wake_ahead(std::time::Duration::from_micros(settings.wake_ahead_us as u64))?;
        world.sequential = pool.thread_count() == 1;
        out.write(registry::insert_world(world, pool)?);
        Ok(())
    })
}

/// Destroys a world, its bodies, and joins its worker threads. Its handle and its bodies'
/// handles become invalid. `SINEW_BUSY` during an asynchronous step.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_world_destroy(world: SinewWorld) -> SinewResult {
    ffi_guard!({
        let cell = registry::remove_world(world)?;
        drop(cell);
        Ok(())
    })
}

/// Advances the world by the host's frame time `dt` (s) in [0, ∞), running whole fixed steps.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_world_step(world: SinewWorld, dt: f32) -> SinewResult {
    ffi_guard!({
        let cell = registry::world(world)?;
        let mut guard = cell.lock()?;
        let w: &mut World = &mut guard;
        if w.sequential { w.step(dt) } else { cell.pool.install(|| w.step(dt)) }
    })
}

/// Starts `sinew_world_step(world, dt)` on Sinew's worker threads and returns at once.
/// A one-thread world starts its worker at its first call (the error says so if it cannot).
/// Until `sinew_world_step_end`, calls that read or change the world answer `SINEW_BUSY`.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_world_step_begin(world: SinewWorld, dt: f32) -> SinewResult {
    ffi_guard!({
        let cell = registry::world(world)?;
        // Before the asynchronous step starts: its own check would only report on step_end.
        World::check_dt(dt)?;
        // A one-thread world starts its worker at its first asynchronous step.
        cell.pool.start()?;
        if cell.busy.compare_exchange(false, true, Ordering::AcqRel, Ordering::Acquire).is_err() {
            return Err(Error::new(ErrorKind::Busy, "a step is already in progress; call sinew_world_step_end first"));
        }
        cell.pending.start();
        let (job, pending) = (cell.clone(), cell.pending.clone());
        cell.pool.spawn(move || {
            let r = guard::catch(|| job.world.lock().unwrap_or_else(|e| e.into_inner()).step(dt));
            // Release the cell before signalling, so the host's destroy never runs on a worker.
            drop(job);
            pending.finish(r);
        });
        Ok(())
    })
}

/// Waits for the step started by `sinew_world_step_begin` and returns its result.
/// `SINEW_INVALID_ARGUMENT` when no step was started.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_world_step_end(world: SinewWorld) -> SinewResult {
    ffi_guard!({
        let cell = registry::world(world)?;
        let r = cell.pending.wait().ok_or_else(|| Error::invalid("no step in progress: call sinew_world_step_begin first"))?;
        cell.busy.store(false, Ordering::Release);
        r
    })
}

/// Reads the world's counters.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_world_get_stats(world: SinewWorld, out_stats: *mut SinewWorldStats) -> SinewResult {
    ffi_guard!({
        let cell = registry::world(world)?;
        let out = try_out!(out_stats, "out_stats");
        let w = cell.lock()?;
        let mut stats: SinewWorldStats = w.stats().into();
        stats.thread_count = cell.pool.thread_count() as u32;
        out.write(stats);
        Ok(())
    })
}

/// Number of events the last `sinew_world_step` reported (`SinewWorldStats.recovered_bodies`
/// counts the same).
#[unsafe(no_mangle)]
pub extern "C" fn sinew_world_get_event_count(world: SinewWorld, out_count: *mut usize) -> SinewResult {
    ffi_guard!({
        let cell = registry::world(world)?;
        let out = try_out!(out_count, "out_count");
        let n = cell.lock()?.events().len();
        out.write(n);
        Ok(())
    })
}

/// Copies the events of the last `sinew_world_step` (which body, what, why) into
/// `out_events`; `capacity` must be at least `sinew_world_get_event_count`. A body that had to
/// be recovered is reported by the step in which it happened (or the first one after a call
/// that caused it), once.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_world_read_events(world: SinewWorld, out_events: *mut SinewEvent, capacity: usize) -> SinewResult {
    ffi_guard!({
        let cell = registry::world(world)?;
        let buf = try_out_buf!(out_events, capacity, "out_events");
        let w = cell.lock()?;
        let events = w.events();
        let out = buf.take(events.len(), "events")?;
        for (o, e) in out.iter_mut().zip(events) {
            let reason = match e.recovery {
                Recovery::StepNotFinite => SinewRecoveryReason::SINEW_RECOVERY_STEP_NOT_FINITE,
                Recovery::StateNotFinite => SinewRecoveryReason::SINEW_RECOVERY_STATE_NOT_FINITE,
            };
            *o = SinewEvent { body: registry::body_handle(&cell, e.body.0, e.body.1), kind: SinewEventKind::SINEW_EVENT_BODY_RECOVERED as u32, reason: reason as u32 };
        }
        Ok(())
    })
}

/// Changes gravity (m/s²) from the next step on; refused beyond 1000 m/s² in magnitude.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_world_set_gravity(world: SinewWorld, gravity: SinewVec3) -> SinewResult {
    ffi_guard!({
        let cell = registry::world(world)?;
        cell.lock()?.set_gravity(gravity.into())
    })
}

/// The camera position LOD distances are measured from.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_world_set_camera(world: SinewWorld, position: SinewVec3) -> SinewResult {
    ffi_guard!({
        let cell = registry::world(world)?;
        cell.lock()?.set_camera(position.into())
    })
}

/// Fills `out` with calm air (speed 0) and default turbulence and gusts.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_wind_default(out: *mut SinewWind) -> SinewResult {
    ffi_guard!({
        let out = try_out!(out, "out");
        out.write(Wind::default().into());
        Ok(())
    })
}

/// Sets the world's wind.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_world_set_wind(world: SinewWorld, wind: *const SinewWind) -> SinewResult {
    ffi_guard!({
        let cell = registry::world(world)?;
        let w = try_ref!(wind, "wind");
        cell.lock()?.set_wind((*w).into())
    })
}

/// Only in libraries built with the cargo feature `debug-panic` (declared when
/// `SINEW_DEBUG_PANIC` is defined). Writes NaN into the body's first particle, as an overflow
/// would, so hosts and tests can check that the next step recovers it and reports it
/// (`sinew_world_read_events`).
#[cfg(feature = "debug-panic")]
#[unsafe(no_mangle)]
pub extern "C" fn sinew_debug_poison_body(body: crate::ffi::types::SinewBody) -> SinewResult {
    ffi_guard!({
        registry::with_body(body, |b, _| {
            b.poison_for_tests();
            Ok(())
        })
    })
}

/// Only in libraries built with the cargo feature `debug-panic` (declared when
/// `SINEW_DEBUG_PANIC` is defined). Always fails with `SINEW_PANIC`: raises a panic inside
/// the boundary so hosts and tests can check that it is caught and that the library keeps
/// working.
#[cfg(feature = "debug-panic")]
#[unsafe(no_mangle)]
pub extern "C" fn sinew_debug_trigger_panic() -> SinewResult {
    ffi_guard!({ panic!("deliberate panic from sinew_debug_trigger_panic") })
}
