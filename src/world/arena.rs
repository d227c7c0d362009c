//! Generational handles and the slot arenas a world keeps its objects in.
//!
//! Every object the host keeps is a 64-bit handle, never a pointer (wasmtime's store
//! handles, rapier's arenas). The bits are
//!
//! ```text
//!  63..60  kind    (1 world, 2 body, 3 collider, 4 ragdoll; 0 is never issued, so a zeroed handle is invalid)
//!  59..48  world   slot of the owning world in the global registry (12 bits)
//!  47..28  slot    slot of the object inside its world (20 bits; 0 for a world)
//!  27..0   serial  creation serial, never 0, unique across the process until it wraps
//! ```
//!
//! A slot remembers the serial of the object living in it, so a handle to a destroyed
//! object, to an object of another world or of another kind never matches.

use std::sync::atomic::{AtomicU32, Ordering};

pub const KIND_WORLD: u64 = 1;
pub const KIND_BODY: u64 = 2;
pub const KIND_COLLIDER: u64 = 3;
pub const KIND_RAGDOLL: u64 = 4;

pub const MAX_WORLDS: usize = 1 << 12;
pub const MAX_SLOTS: usize = 1 << 20;
const SERIAL_MASK: u32 = (1 << 28) - 1;

static NEXT_SERIAL: AtomicU32 = AtomicU32::new(1);

/// A fresh serial for a new object: nonzero, 28 bits.
pub fn next_serial() -> u32 {
    loop {
        let s = NEXT_SERIAL.fetch_add(1, Ordering::Relaxed) & SERIAL_MASK;
        if s != 0 {
            return s;
        }
    }
}

/// The decoded fields of a handle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HandleBits {
    pub kind: u64,
    pub world: usize,
    pub slot: usize,
    pub serial: u32,
}

impl HandleBits {
    pub fn encode(self) -> u64 {
        (self.kind << 60) | ((self.world as u64) << 48) | ((self.slot as u64) << 28) | self.serial as u64
    }

    pub fn decode(raw: u64) -> HandleBits {
        HandleBits {
            kind: raw >> 60,
            world: ((raw >> 48) & 0xFFF) as usize,
            slot: ((raw >> 28) & 0xF_FFFF) as usize,
            serial: (raw & SERIAL_MASK as u64) as u32,
        }
    }
}

/// A slot arena whose entries are checked by serial.
pub struct Arena<T> {
    slots: Vec<Option<(u32, T)>>,
    free: Vec<usize>,
    limit: usize,
}

impl<T> Arena<T> {
    pub fn new(limit: usize) -> Self {
        Arena { slots: Vec::new(), free: Vec::new(), limit }
    }

    /// Inserts a value; returns its slot and serial, or `None` when the arena is full.
    pub fn insert(&mut self, value: T) -> Option<(usize, u32)> {
        let serial = next_serial();
        let slot = match self.free.pop() {
            Some(s) => s,
            None if self.slots.len() < self.limit => {
                self.slots.push(None);
                self.slots.len() - 1
            }
            None => return None,
        };
        self.slots[slot] = Some((serial, value));
        Some((slot, serial))
    }

    pub fn get(&self, slot: usize, serial: u32) -> Option<&T> {
        match self.slots.get(slot) {
            Some(Some((s, v))) if *s == serial => Some(v),
            _ => None,
        }
    }

    /// The live value in `slot`, whatever its serial.
    pub fn get_by_slot(&self, slot: usize) -> Option<&T> {
        self.slots.get(slot)?.as_ref().map(|(_, v)| v)
    }

    pub fn get_mut(&mut self, slot: usize, serial: u32) -> Option<&mut T> {
        match self.slots.get_mut(slot) {
            Some(Some((s, v))) if *s == serial => Some(v),
            _ => None,
        }
    }

    pub fn remove(&mut self, slot: usize, serial: u32) -> Option<T> {
        match self.slots.get(slot) {
            Some(Some((s, _))) if *s == serial => {
                let (_, v) = self.slots[slot].take()?;
                self.free.push(slot);
                Some(v)
            }
            _ => None,
        }
    }

    pub fn len(&self) -> usize {
        self.slots.len() - self.free.len()
    }

    /// Heap bytes the arena holds for its slots and free list (not the values' own).
    pub fn heap_bytes(&self) -> usize {
        self.slots.capacity() * std::mem::size_of::<Option<(u32, T)>>() + self.free.capacity() * std::mem::size_of::<usize>()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Live values in slot order (deterministic).
    pub fn values(&self) -> impl Iterator<Item = &T> {
        self.slots.iter().filter_map(|s| s.as_ref().map(|(_, v)| v))
    }

    /// Live values in slot order, mutable.
    pub fn values_mut(&mut self) -> impl Iterator<Item = &mut T> {
        self.slots.iter_mut().filter_map(|s| s.as_mut().map(|(_, v)| v))
    }

    /// The raw slots, for parallel iteration.
    pub fn slots_mut(&mut self) -> &mut [Option<(u32, T)>] {
        &mut self.slots
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encode_decode_round_trip() {
        let h = HandleBits { kind: KIND_BODY, world: 4095, slot: (1 << 20) - 1, serial: 12345 };
        assert_eq!(HandleBits::decode(h.encode()), h);
    }

    #[test]
    fn removed_slot_rejects_old_serial() {
        let mut a = Arena::new(4);
        let (slot, serial) = a.insert(7).unwrap();
        assert_eq!(a.remove(slot, serial), Some(7));
        assert!(a.get(slot, serial).is_none());
        let (slot2, serial2) = a.insert(8).unwrap();
        assert_eq!(slot2, slot);
        assert_ne!(serial2, serial);
        assert!(a.get(slot, serial).is_none());
        assert_eq!(a.remove(slot, serial), None);
    }
}
