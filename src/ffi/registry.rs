//! The process-wide registry of worlds, and handle lookup.
//!
//! Each world lives in a [`WorldCell`]: its worker pool, the world behind a mutex, and a
//! `busy` flag set from `sinew_world_step_begin` to `sinew_world_step_end`. While busy,
//! every call that would read or change the world answers `SINEW_BUSY` instead of waiting
//! or racing.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};

use crate::particles::Body;
use crate::error::{Error, ErrorKind, Result};
use crate::collider::Collider;
use crate::ffi::types::{SinewBody, SinewCollider, SinewRagdoll, SinewWorld};
use crate::ragdoll::Ragdoll;
use crate::world::arena::{Arena, HandleBits, KIND_BODY, KIND_COLLIDER, KIND_RAGDOLL, KIND_WORLD, MAX_WORLDS};
use crate::world::{WorkerPool, World};

pub struct WorldCell {
    pub pool: WorkerPool,
    pub world: Mutex<World>,
    pub busy: AtomicBool,
    /// The asynchronous step's outcome, handed from the worker to `sinew_world_step_end`.
    pub pending: Arc<Handoff>,
    pub slot: usize,
    /// The world's creation serial. Serials only grow, so an object handle with a smaller
    /// serial belongs to an earlier world that lived in the same slot.
    pub serial: u32,
}

impl WorldCell {
    /// Locks the world, or `SINEW_BUSY` during an asynchronous step. A world whose lock was
    /// poisoned by a caught panic stays usable: its state is plain particle data.
    pub fn lock(&self) -> Result<MutexGuard<'_, World>> {
        if self.busy.load(Ordering::Acquire) {
            return Err(Error::new(ErrorKind::Busy, "the world is stepping (sinew_world_step_begin); call sinew_world_step_end first"));
        }
        Ok(self.world.lock().unwrap_or_else(|e| e.into_inner()))
    }
}

/// Where the worker running an asynchronous step leaves its result for the host. A mutex and a
/// condition variable made with the world: a channel per step would allocate every step, and
/// its wait registers the host's thread with std (48 bytes valgrind reports as possibly lost
/// in a C host that never ends its threads through Rust).
#[derive(Default)]
pub struct Handoff {
    outcome: Mutex<Outcome>,
    done: Condvar,
}

#[derive(Default)]
enum Outcome {
    #[default]
    Idle,
    Running,
    Finished(Result<()>),
}

impl Handoff {
    /// A step starts: `wait` now blocks until `finish`.
    pub fn start(&self) {
        *self.outcome.lock().unwrap_or_else(|e| e.into_inner()) = Outcome::Running;
    }

    /// The worker's result.
    pub fn finish(&self, r: Result<()>) {
        *self.outcome.lock().unwrap_or_else(|e| e.into_inner()) = Outcome::Finished(r);
        self.done.notify_all();
    }

    /// Waits for the started step's result; `None` when no step was started.
    pub fn wait(&self) -> Option<Result<()>> {
        let mut o = self.outcome.lock().unwrap_or_else(|e| e.into_inner());
        loop {
            match std::mem::take(&mut *o) {
                Outcome::Idle => return None,
                Outcome::Finished(r) => return Some(r),
                Outcome::Running => {
                    *o = Outcome::Running;
                    o = self.done.wait(o).unwrap_or_else(|e| e.into_inner());
                }
            }
        }
    }
}

static WORLDS: Mutex<Option<Arena<Arc<WorldCell>>>> = Mutex::new(None);

fn registry() -> MutexGuard<'static, Option<Arena<Arc<WorldCell>>>> {
    let mut g = WORLDS.lock().unwrap_or_else(|e| e.into_inner());
    if g.is_none() {
        *g = Some(Arena::new(MAX_WORLDS));
    }
    g
}

fn invalid(what: &str, raw: u64) -> Error {
    Error::new(ErrorKind::InvalidHandle, format!("{what} handle {raw:#x} is not valid (never created, destroyed, of another kind, or of a destroyed world)"))
}

/// Registers a world; returns its handle.
pub fn insert_world(world: World, pool: WorkerPool) -> Result<SinewWorld> {
    let mut reg = registry();
    let arena = reg.as_mut().expect("initialised");
    // Find the slot first so the cell knows it; the arena reuses freed slots.
    let cell = Arc::new(WorldCell { pool, world: Mutex::new(world), busy: AtomicBool::new(false), pending: Arc::default(), slot: 0, serial: 0 });
    let (slot, serial) = arena
        .insert(cell)
        .ok_or_else(|| Error::too_large(format!("at most {MAX_WORLDS} worlds can exist at once")))?;
    let cell = arena.get_mut(slot, serial).expect("just inserted");
    let unshared = Arc::get_mut(cell).expect("unshared");
    unshared.slot = slot;
    unshared.serial = serial;
    Ok(SinewWorld { id: HandleBits { kind: KIND_WORLD, world: slot, slot: 0, serial }.encode() })
}

/// The cell of a world handle.
pub fn world(handle: SinewWorld) -> Result<Arc<WorldCell>> {
    let h = HandleBits::decode(handle.id);
    if h.kind != KIND_WORLD || h.slot != 0 {
        return Err(invalid("world", handle.id));
    }
    let reg = registry();
    reg.as_ref().and_then(|a| a.get(h.world, h.serial)).cloned().ok_or_else(|| invalid("world", handle.id))
}

/// Removes a world from the registry (refused while it is stepping). The world and its
/// threads are dropped by the caller, outside the registry lock.
pub fn remove_world(handle: SinewWorld) -> Result<Arc<WorldCell>> {
    let h = HandleBits::decode(handle.id);
    if h.kind != KIND_WORLD || h.slot != 0 {
        return Err(invalid("world", handle.id));
    }
    let mut reg = registry();
    let arena = reg.as_mut().expect("initialised");
    let cell = arena.get(h.world, h.serial).ok_or_else(|| invalid("world", handle.id))?;
    if cell.busy.load(Ordering::Acquire) {
        return Err(Error::new(ErrorKind::Busy, "the world is stepping; call sinew_world_step_end before destroying it"));
    }
    let cell = arena.remove(h.world, h.serial).expect("checked above");
    // With no world left, free the registry itself: a host may unload the library now, and
    // a library's statics are never dropped. Serials are process-wide, so no later handle
    // repeats an earlier one.
    if arena.is_empty() {
        *reg = None;
    }
    Ok(cell)
}

/// Heap bytes the registry itself holds (0 once the last world is destroyed).
pub fn registry_bytes() -> usize {
    WORLDS.lock().unwrap_or_else(|e| e.into_inner()).as_ref().map_or(0, |a| a.heap_bytes())
}

/// Handle of body `(slot, serial)` of the world in `cell`.
pub fn body_handle(cell: &WorldCell, slot: usize, serial: u32) -> SinewBody {
    SinewBody { id: HandleBits { kind: KIND_BODY, world: cell.slot, slot, serial }.encode() }
}

/// Handle of collider `(slot, serial)` of the world in `cell`.
pub fn collider_handle(cell: &WorldCell, slot: usize, serial: u32) -> SinewCollider {
    SinewCollider { id: HandleBits { kind: KIND_COLLIDER, world: cell.slot, slot, serial }.encode() }
}

/// Handle of ragdoll `(slot, serial)` of the world in `cell`.
pub fn ragdoll_handle(cell: &WorldCell, slot: usize, serial: u32) -> SinewRagdoll {
    SinewRagdoll { id: HandleBits { kind: KIND_RAGDOLL, world: cell.slot, slot, serial }.encode() }
}

/// The world cell owning an object handle of `kind`, and the object's (slot, serial).
fn owner(raw: u64, kind: u64, what: &str) -> Result<(Arc<WorldCell>, usize, u32)> {
    let h = HandleBits::decode(raw);
    if h.kind != kind {
        return Err(invalid(what, raw));
    }
    let cell = {
        let reg = registry();
        reg.as_ref().and_then(|a| a.get_by_slot(h.world)).cloned()
    };
    let cell = cell.filter(|c| h.serial > c.serial).ok_or_else(|| invalid(what, raw))?;
    Ok((cell, h.slot, h.serial))
}

/// The world cell owning a body handle, and the body's (slot, serial).
pub fn body_owner(handle: SinewBody) -> Result<(Arc<WorldCell>, usize, u32)> {
    owner(handle.id, KIND_BODY, "body")
}

/// The world cell owning a collider handle, and the collider's (slot, serial).
pub fn collider_owner(handle: SinewCollider) -> Result<(Arc<WorldCell>, usize, u32)> {
    owner(handle.id, KIND_COLLIDER, "collider")
}

/// The world cell owning a ragdoll handle, and the ragdoll's (slot, serial).
pub fn ragdoll_owner(handle: SinewRagdoll) -> Result<(Arc<WorldCell>, usize, u32)> {
    owner(handle.id, KIND_RAGDOLL, "ragdoll")
}

/// Runs `f` on the ragdoll behind `handle` with its world locked; `f` also gets the world's
/// readback interpolation factor.
pub fn with_ragdoll<R>(handle: SinewRagdoll, f: impl FnOnce(&mut Ragdoll, f32) -> Result<R>) -> Result<R> {
    let (cell, slot, serial) = ragdoll_owner(handle)?;
    let mut world = cell.lock()?;
    let alpha = world.alpha();
    let r = world.ragdolls.get_mut(slot, serial).ok_or_else(|| invalid("ragdoll", handle.id))?;
    f(r, alpha)
}

/// Runs `f` on the body behind `handle` with its world locked; `f` also gets the world's
/// readback interpolation factor.
pub fn with_body<R>(handle: SinewBody, f: impl FnOnce(&mut Body, f32) -> Result<R>) -> Result<R> {
    let (cell, slot, serial) = body_owner(handle)?;
    let mut world = cell.lock()?;
    let alpha = world.alpha();
    let body = world.bodies.get_mut(slot, serial).ok_or_else(|| invalid("body", handle.id))?;
    f(body, alpha)
}

/// Runs `f` on the collider behind `handle` with its world locked.
pub fn with_collider<R>(handle: SinewCollider, f: impl FnOnce(&mut Collider) -> Result<R>) -> Result<R> {
    let (cell, slot, serial) = collider_owner(handle)?;
    let mut world = cell.lock()?;
    let c = world.colliders.get_mut(slot, serial).ok_or_else(|| invalid("collider", handle.id))?;
    f(c)
}

/// An error for a handle that decoded but names no live object.
pub fn stale(what: &str, raw: u64) -> Error {
    invalid(what, raw)
}
