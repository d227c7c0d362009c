//! Snapshot and restore: the world's whole dynamic state in a caller's buffer, bit for bit,
//! so that a restored world continues exactly as the original would (rewinding, replays,
//! networked games that roll back). The format and its guarantees are in docs/snapshots.md.
//!
//! Layout, little-endian 32-bit words:
//!
//! ```text
//! header   magic "SNWS", format version, ABI version, total length in bytes
//! scope    0 the world, 1 one body, 2 one ragdoll ([`Scope`]; an object's snapshot is its
//!          serial, its entry below and its state)
//! objects  body count, ragdoll count, collider count; per body its slot, serial, kind,
//!          particle count, topology version and fingerprint; per ragdoll its slot, serial,
//!          bone count and skeleton fingerprint; per collider its slot and serial
//! world    time, the accumulator (ahead, since the last stepping frame), alpha, step
//!          counters, camera, the colliders as the last stepping frame saw them
//! state    every body's (`particles::state`), every ragdoll's (`ragdoll::state`), every
//!          collider's poses over the host frame
//! trailer  CRC-32 of everything before it
//! ```
//!
//! A load checks, in order: length, magic, format and ABI versions, the stated length, the
//! checksum, then the whole walk against this world (`state::Check`: same objects in the
//! same slots with the same kinds, counts and topologies; every length, index, flag and float
//! in range) — and only then writes (`Load`).
//! Each refusal names what differed, and changes nothing. Objects are matched by slot, not
//! serial (serials are process-wide, so a second world built by the same calls has the same
//! slots but other serials); the serials are in the snapshot for the host's information.
//! Saving and loading allocate nothing once the buffers they fill have grown (a pin list
//! longer than any before, the first load's collider list).

use super::World;
use crate::error::{Error, ErrorKind, Result};
use crate::state::{Check, Io, Load, Mode, Reader, Save, Size, crc32};

/// "SNWS" as a little-endian word.
pub const MAGIC: u32 = u32::from_le_bytes(*b"SNWS");
/// Version of the snapshot format; a snapshot of another version is refused. 2: bodies and
/// ragdolls hold their anchor (`step::Anchor::state_io`).
pub const FORMAT_VERSION: u32 = 2;
/// Header: magic, format version, ABI version, total length.
const HEADER: usize = 16;
const TRAILER: usize = 4;

/// What a snapshot holds: the whole world, or one object of it (its state only: the world's
/// time and the other objects stay as they are when it is loaded).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope {
    World,
    Body(usize, u32),
    Ragdoll(usize, u32),
}

impl Scope {
    fn code(self) -> u32 {
        match self {
            Scope::World => 0,
            Scope::Body(..) => 1,
            Scope::Ragdoll(..) => 2,
        }
    }
}

impl World {
    /// Checks an object scope names a live object.
    fn check_scope(&self, scope: Scope) -> Result<()> {
        let live = match scope {
            Scope::World => true,
            Scope::Body(slot, serial) => self.bodies.get(slot, serial).is_some(),
            Scope::Ragdoll(slot, serial) => self.ragdolls.get(slot, serial).is_some(),
        };
        if live { Ok(()) } else { Err(Error::new(ErrorKind::InvalidHandle, "the object is not in this world (destroyed?)")) }
    }

    /// Bytes [`World::save_state`] needs now (it changes with the objects and the pins).
    pub fn state_size(&mut self, scope: Scope) -> Result<usize> {
        self.check_scope(scope)?;
        let mut size = Size::default();
        self.state_io(&mut size, scope);
        Ok(HEADER + size.bytes + TRAILER)
    }

    /// Writes the world's dynamic state into `out` and returns its length; `BufferTooSmall`
    /// (naming the size needed) when `out` is shorter than [`World::state_size`], writing
    /// nothing.
    pub fn save_state(&mut self, scope: Scope, out: &mut [u8], abi_version: u32) -> Result<usize> {
        let n = self.state_size(scope)?;
        if out.len() < n {
            return Err(Error::new(ErrorKind::BufferTooSmall, format!("the snapshot needs {n} bytes, the buffer holds {}", out.len())));
        }
        let out = &mut out[..n];
        for (k, w) in [MAGIC, FORMAT_VERSION, abi_version, n as u32].into_iter().enumerate() {
            out[4 * k..4 * k + 4].copy_from_slice(&w.to_le_bytes());
        }
        let mut save = Save { out, at: HEADER, overflow: false };
        self.state_io(&mut save, scope);
        debug_assert!(!save.overflow && save.at == n - TRAILER, "the walk measured {} bytes and wrote {}", n - TRAILER, save.at);
        let crc = crc32(&out[..n - TRAILER]);
        out[n - TRAILER..].copy_from_slice(&crc.to_le_bytes());
        Ok(n)
    }

    /// Restores a state [`World::save_state`] wrote, of this world or of one built by the
    /// same calls (docs/snapshots.md says what must match). A truncated, corrupted or
    /// mismatched snapshot is refused with `InvalidArgument` naming the reason, and nothing
    /// changes.
    pub fn load_state(&mut self, scope: Scope, data: &[u8], abi_version: u32) -> Result<()> {
        self.check_scope(scope)?;
        let refuse = |why: String| Err(Error::invalid(format!("{why}; nothing was changed")));
        if data.len() < HEADER + TRAILER {
            return refuse(format!("a snapshot is at least {} bytes, this one {}", HEADER + TRAILER, data.len()));
        }
        let word = |k: usize| u32::from_le_bytes([data[4 * k], data[4 * k + 1], data[4 * k + 2], data[4 * k + 3]]);
        if word(0) != MAGIC {
            return refuse(format!("not a Sinew snapshot (magic {:#010x}, expected {MAGIC:#010x})", word(0)));
        }
        if word(1) != FORMAT_VERSION {
            return refuse(format!("snapshot format version {} (this library reads version {FORMAT_VERSION})", word(1)));
        }
        if word(2) != abi_version {
            return refuse(format!("the snapshot was written by a library of ABI version {} (this one is {abi_version})", word(2)));
        }
        if word(3) as usize != data.len() {
            return refuse(format!("the snapshot says it is {} bytes long, the buffer holds {} (truncated or padded?)", word(3), data.len()));
        }
        let n = data.len();
        let saved = u32::from_le_bytes([data[n - 4], data[n - 3], data[n - 2], data[n - 1]]);
        let crc = crc32(&data[..n - TRAILER]);
        if saved != crc {
            return refuse(format!("checksum mismatch (stored {saved:#010x}, computed {crc:#010x}): the snapshot is corrupted"));
        }
        let body = &data[..n - TRAILER];
        let mut check = Check::new(body, HEADER);
        self.state_io(&mut check, scope);
        check.result()?;
        if check.r.at != body.len() {
            return refuse(format!("the snapshot has {} bytes beyond this world's state", body.len() - check.r.at));
        }
        self.state_io(&mut Load { r: Reader { data: body, at: HEADER, short: false } }, scope);
        if scope == Scope::World {
            // What the last step reported belongs to the timeline left behind.
            self.events.clear();
            self.ragdoll_islands.events.clear();
        }
        Ok(())
    }

    /// Walks the world's state (the module's notes).
    fn state_io<I: Io>(&mut self, io: &mut I, scope: Scope) {
        io.expect(scope.code(), "what the snapshot holds (0 a world, 1 a body, 2 a ragdoll)");
        match scope {
            Scope::World => {}
            Scope::Body(slot, serial) => {
                let Some(b) = self.bodies.get_mut(slot, serial) else { return };
                io.word(serial);
                body_entry(io, b);
                b.state_io(io);
                return;
            }
            Scope::Ragdoll(slot, serial) => {
                let Some(r) = self.ragdolls.get_mut(slot, serial) else { return };
                io.word(serial);
                ragdoll_entry(io, r);
                r.state_io(io);
                return;
            }
        }
        io.expect(self.bodies.len() as u32, "body count");
        io.expect(self.ragdolls.len() as u32, "ragdoll count");
        io.expect(self.colliders.len() as u32, "collider count");
        for (slot, entry) in self.bodies.slots_mut().iter().enumerate() {
            if let Some((serial, b)) = entry {
                io.expect(slot as u32, "slot of a body");
                io.word(*serial);
                body_entry(io, b);
            }
        }
        for (slot, entry) in self.ragdolls.slots_mut().iter().enumerate() {
            if let Some((serial, r)) = entry {
                io.expect(slot as u32, "slot of a ragdoll");
                io.word(*serial);
                ragdoll_entry(io, r);
            }
        }
        for (slot, entry) in self.colliders.slots_mut().iter().enumerate() {
            if let Some((serial, _)) = entry {
                io.expect(slot as u32, "slot of a collider");
                io.word(*serial);
            }
        }
        io.f64(&mut self.time);
        io.f64(&mut self.ahead);
        io.f64(&mut self.since_steps);
        let alpha = f32::from_bits(io.word(self.alpha.to_bits()));
        if !(0.0..=1.0).contains(&alpha) {
            io.refuse(&|| format!("an interpolation factor of {alpha}"));
        }
        io.u64(&mut self.steps);
        io.u32(&mut self.last_frame_steps);
        let has_camera = io.flag(self.camera.is_some());
        let mut camera = self.camera.unwrap_or_default();
        if has_camera {
            io.val(&mut camera);
        }
        self.last_colliders_io(io);
        for b in self.bodies.values_mut() {
            b.state_io(io);
        }
        for r in self.ragdolls.values_mut() {
            r.state_io(io);
        }
        for c in self.colliders.values_mut() {
            io.val(&mut c.from);
            io.val(&mut c.to);
        }
        if I::MODE == Mode::Load {
            self.camera = has_camera.then_some(camera);
            self.alpha = alpha;
        }
    }

    /// The colliders as the last stepping frame saw them (`sleep`: what moved since wakes
    /// sleepers). Their shapes are this world's colliders' own: a snapshot remembers no more
    /// of them than the world has now.
    fn last_colliders_io<I: Io>(&mut self, io: &mut I) {
        let now = self.colliders.len();
        let n = io.word(self.last_colliders.len() as u32);
        if n as usize > now {
            io.refuse(&|| format!("the snapshot's last step saw {n} colliders, this world has {now} (save after a step, not between destroying a collider and the next step)"));
            return;
        }
        if I::MODE == Mode::Load {
            self.last_colliders.clear();
            self.last_colliders.extend(self.colliders.values().take(n as usize).cloned());
        }
        for k in 0..n as usize {
            match I::MODE {
                Mode::Check => {
                    let mut c = (0u32, (crate::geometry::Pose::IDENTITY, crate::geometry::Pose::IDENTITY));
                    io.val(&mut c);
                }
                _ => {
                    let c = &mut self.last_colliders[k];
                    io.u32(&mut c.layers);
                    io.val(&mut c.from);
                    io.val(&mut c.to);
                }
            }
        }
    }
}


/// What a body must agree on with a snapshot of it.
fn body_entry(io: &mut impl Io, b: &crate::particles::Body) {
    io.expect(b.kind as u32, "body kind");
    io.expect(b.particle_count() as u32, "body particle count (torn since?)");
    io.expect(b.topology_version, "body topology version (torn since?)");
    io.expect(b.shape_fingerprint(), "body topology fingerprint");
}

/// What a ragdoll must agree on with a snapshot of it.
fn ragdoll_entry(io: &mut impl Io, r: &crate::ragdoll::Ragdoll) {
    io.expect(r.bone_count() as u32, "ragdoll bone count");
    io.expect(r.parents_fingerprint(), "ragdoll skeleton fingerprint");
}
