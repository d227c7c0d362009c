//! Saving and restoring dynamic state bit for bit (`world::snapshot` puts the format
//! together; docs/snapshots.md describes it).
//!
//! Each object writes its state once, as a walk over its fields through an [`Io`]; the same
//! walk measures it ([`Size`]), saves it ([`Save`]), checks a buffer against the object
//! without changing anything ([`Check`]) and loads it ([`Load`]). So the four can never
//! disagree about the layout, and a load runs only after a check of the whole buffer passed:
//! a refused buffer leaves everything as it was.
//!
//! Every value is a little-endian 32-bit word (a float as its bits), so what is restored is
//! exactly what was saved. A length is a word too: a fixed one (particles, bones) must equal
//! the object's own, a variable one (pins) be at most a stated bound.

use crate::error::{Error, ErrorKind};
use crate::geometry::Pose;
use crate::math::{Mat3, Mat4, Quat, Vec3};
use crate::solver::rigid::RigidBody;

/// What a walk does with the values it visits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    Size,
    Save,
    Check,
    Load,
}

/// One walk over an object's state (see the module's notes).
pub trait Io {
    const MODE: Mode;

    /// Visits one word: returns the word saved (`Check`, `Load`) or `w` itself.
    fn word(&mut self, w: u32) -> u32;

    /// Records why the buffer does not fit the object (`Check`; the first reason wins).
    fn refuse(&mut self, _why: &dyn Fn() -> String) {}

    /// Visits a value that must be the same in the buffer as in the object (a count, a flag
    /// of structure): a difference refuses the buffer, saying `what`.
    fn expect(&mut self, v: u32, what: &str) {
        let saved = self.word(v);
        if saved != v {
            self.refuse(&|| format!("{what}: the snapshot has {saved}, here {v}"));
        }
    }

    fn u32(&mut self, v: &mut u32) {
        let w = self.word(*v);
        if Self::MODE == Mode::Load {
            *v = w;
        }
    }

    /// A float. Every float of a state is finite (the step puts back whatever is not), so a
    /// snapshot holding NaN or infinity is refused: a loaded state is always finite.
    fn f32(&mut self, v: &mut f32) {
        let w = self.word(v.to_bits());
        if !f32::from_bits(w).is_finite() {
            self.refuse(&|| format!("a value is not finite ({})", f32::from_bits(w)));
        }
        if Self::MODE == Mode::Load {
            *v = f32::from_bits(w);
        }
    }

    fn bool(&mut self, v: &mut bool) {
        let w = self.word(u32::from(*v));
        if w > 1 {
            self.refuse(&|| format!("a flag holds {w}"));
        }
        if Self::MODE == Mode::Load {
            *v = w == 1;
        }
    }

    /// A flag that decides what follows (whether an optional part is there): the saved one
    /// when reading, so that a check and a load walk the buffer alike.
    fn flag(&mut self, v: bool) -> bool {
        let w = self.word(u32::from(v));
        if w > 1 {
            self.refuse(&|| format!("a flag holds {w}"));
        }
        w == 1
    }

    fn f64(&mut self, v: &mut f64) {
        let bits = v.to_bits();
        let lo = self.word(bits as u32);
        let hi = self.word((bits >> 32) as u32);
        let saved = f64::from_bits(u64::from(lo) | (u64::from(hi) << 32));
        if !saved.is_finite() {
            self.refuse(&|| format!("a value is not finite ({saved})"));
        }
        if Self::MODE == Mode::Load {
            *v = saved;
        }
    }

    fn u64(&mut self, v: &mut u64) {
        let lo = self.word(*v as u32);
        let hi = self.word((*v >> 32) as u32);
        if Self::MODE == Mode::Load {
            *v = u64::from(lo) | (u64::from(hi) << 32);
        }
    }

    fn val<T: Pod>(&mut self, v: &mut T)
    where
        Self: Sized,
    {
        v.io(self);
    }

    /// A slice whose length the object fixes (one entry per particle, bone, …).
    fn slice<T: Pod>(&mut self, v: &mut [T], what: &str)
    where
        Self: Sized,
    {
        let n = self.word(v.len() as u32);
        if n as usize != v.len() {
            self.refuse(&|| format!("{what}: the snapshot has {n}, here {}", v.len()));
            return;
        }
        v.iter_mut().for_each(|x| x.io(self));
    }

    /// `n` entries of a list whose length is state (read before, e.g. the pin count):
    /// loading resizes the list to `n`, reusing its buffer (it allocates only to grow past the
    /// largest length it has held); checking reads them without keeping them.
    fn entries<T: Pod + Default>(&mut self, v: &mut Vec<T>, n: usize)
    where
        Self: Sized,
    {
        match Self::MODE {
            Mode::Size | Mode::Save => v.iter_mut().for_each(|x| x.io(self)),
            Mode::Check => {
                for _ in 0..n {
                    T::default().io(self);
                }
            }
            Mode::Load => {
                v.clear();
                v.resize(n, T::default());
                v.iter_mut().for_each(|x| x.io(self));
            }
        }
    }
}

/// A value made of words.
pub trait Pod: Clone {
    fn io(&mut self, io: &mut impl Io);
}

impl Pod for u32 {
    fn io(&mut self, io: &mut impl Io) {
        io.u32(self);
    }
}

impl Pod for f32 {
    fn io(&mut self, io: &mut impl Io) {
        io.f32(self);
    }
}

impl Pod for bool {
    fn io(&mut self, io: &mut impl Io) {
        io.bool(self);
    }
}

impl Pod for u64 {
    fn io(&mut self, io: &mut impl Io) {
        io.u64(self);
    }
}

impl Pod for Vec3 {
    fn io(&mut self, io: &mut impl Io) {
        io.f32(&mut self.x);
        io.f32(&mut self.y);
        io.f32(&mut self.z);
    }
}

/// `N` floats: the saved ones when reading (each refused unless finite), else `own`.
fn floats<const N: usize>(io: &mut impl Io, own: [f32; N]) -> [f32; N] {
    own.map(|x| {
        let v = f32::from_bits(io.word(x.to_bits()));
        if !v.is_finite() {
            io.refuse(&|| format!("a value is not finite ({v})"));
        }
        v
    })
}

/// Every rotation of a state is a unit quaternion; a snapshot with another is refused (a zero
/// one would be NaN at its first use).
impl Pod for Quat {
    fn io(&mut self, io: &mut impl Io) {
        let a = floats(io, self.to_array());
        let q = Quat::from_array(a);
        if !crate::error::is_unit(q.length()) {
            io.refuse(&|| format!("a rotation is not a unit quaternion ({q})"));
        }
        if io_loads(io) {
            *self = q;
        }
    }
}

impl Pod for Mat3 {
    fn io(&mut self, io: &mut impl Io) {
        let mut a = self.to_cols_array();
        a.iter_mut().for_each(|x| io.f32(x));
        if io_loads(io) {
            *self = Mat3::from_cols_array(&a);
        }
    }
}

impl Pod for Mat4 {
    fn io(&mut self, io: &mut impl Io) {
        let mut a = self.to_cols_array();
        a.iter_mut().for_each(|x| io.f32(x));
        if io_loads(io) {
            *self = Mat4::from_cols_array(&a);
        }
    }
}

impl Pod for Pose {
    fn io(&mut self, io: &mut impl Io) {
        self.rotation.io(io);
        self.position.io(io);
        io.f32(&mut self.scale);
    }
}

impl<T: Pod, const N: usize> Pod for [T; N] {
    fn io(&mut self, io: &mut impl Io) {
        self.iter_mut().for_each(|x| x.io(io));
    }
}

impl<A: Pod, B: Pod> Pod for (A, B) {
    fn io(&mut self, io: &mut impl Io) {
        self.0.io(io);
        self.1.io(io);
    }
}

impl Pod for RigidBody {
    fn io(&mut self, io: &mut impl Io) {
        let RigidBody { x, q, v, w, prev_x, prev_q, pred_x, pred_q, inv_mass, inv_inertia } = self;
        x.io(io);
        q.io(io);
        v.io(io);
        w.io(io);
        prev_x.io(io);
        prev_q.io(io);
        pred_x.io(io);
        pred_q.io(io);
        io.f32(inv_mass);
        inv_inertia.io(io);
    }
}

fn io_loads<I: Io>(_: &I) -> bool {
    I::MODE == Mode::Load
}

/// Counts the bytes a walk visits.
#[derive(Default)]
pub struct Size {
    pub bytes: usize,
}

impl Io for Size {
    const MODE: Mode = Mode::Size;
    fn word(&mut self, w: u32) -> u32 {
        self.bytes += 4;
        w
    }
}

/// Writes the words into a buffer measured first (a word past its end is not written, and
/// `overflow` says so).
pub struct Save<'a> {
    pub out: &'a mut [u8],
    pub at: usize,
    pub overflow: bool,
}

impl Io for Save<'_> {
    const MODE: Mode = Mode::Save;
    fn word(&mut self, w: u32) -> u32 {
        match self.out.get_mut(self.at..self.at + 4) {
            Some(dst) => dst.copy_from_slice(&w.to_le_bytes()),
            None => self.overflow = true,
        }
        self.at += 4;
        w
    }
}

/// Reads words from a buffer.
pub struct Reader<'a> {
    pub data: &'a [u8],
    pub at: usize,
    /// A read went past the end (it gave 0).
    pub short: bool,
}

impl Reader<'_> {
    fn next(&mut self) -> u32 {
        match self.data.get(self.at..self.at + 4) {
            Some(b) => {
                self.at += 4;
                u32::from_le_bytes([b[0], b[1], b[2], b[3]])
            }
            None => {
                self.short = true;
                0
            }
        }
    }
}

/// Reads a buffer against the object without changing it; `refused` holds the first reason
/// it does not fit.
pub struct Check<'a> {
    pub r: Reader<'a>,
    pub refused: Option<String>,
}

impl<'a> Check<'a> {
    pub fn new(data: &'a [u8], at: usize) -> Check<'a> {
        Check { r: Reader { data, at, short: false }, refused: None }
    }

    /// The reason the buffer was refused, as the error the caller gets.
    pub fn result(&self) -> crate::error::Result<()> {
        if let Some(why) = &self.refused {
            return Err(Error::new(ErrorKind::InvalidArgument, format!("the snapshot does not fit: {why}; nothing was changed")));
        }
        if self.r.short {
            return Err(Error::invalid("the snapshot ends before its state does (truncated?); nothing was changed"));
        }
        Ok(())
    }
}

impl Io for Check<'_> {
    const MODE: Mode = Mode::Check;
    fn word(&mut self, _: u32) -> u32 {
        self.r.next()
    }
    fn refuse(&mut self, why: &dyn Fn() -> String) {
        if self.refused.is_none() {
            self.refused = Some(why());
        }
    }
}

/// Writes a checked buffer's words into the object.
pub struct Load<'a> {
    pub r: Reader<'a>,
}

impl Io for Load<'_> {
    const MODE: Mode = Mode::Load;
    fn word(&mut self, _: u32) -> u32 {
        self.r.next()
    }
}

/// CRC-32 (IEEE 802.3, reflected, polynomial 0xEDB88320), as zlib and PNG compute it: it
/// detects every error burst of up to 32 bits, so any one changed byte.
pub fn crc32(data: &[u8]) -> u32 {
    const TABLE: [u32; 256] = {
        let mut t = [0u32; 256];
        let mut i = 0;
        while i < 256 {
            let mut c = i as u32;
            let mut k = 0;
            while k < 8 {
                c = if c & 1 != 0 { 0xEDB8_8320 ^ (c >> 1) } else { c >> 1 };
                k += 1;
            }
            t[i] = c;
            i += 1;
        }
        t
    };
    let mut c = !0u32;
    for &b in data {
        c = TABLE[((c ^ b as u32) & 0xFF) as usize] ^ (c >> 8);
    }
    !c
}

/// FNV-1a over words: a fingerprint of cooked data (a torn body's topology).
pub fn fnv1a(h: u32, words: impl Iterator<Item = u32>) -> u32 {
    let mut h = h;
    for w in words {
        for b in w.to_le_bytes() {
            h = (h ^ b as u32).wrapping_mul(0x0100_0193);
        }
    }
    h
}

/// FNV-1a's offset basis.
pub const FNV_BASIS: u32 = 0x811C_9DC5;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crc32_matches_the_standard_check_value() {
        // The check value of every CRC-32/ISO-HDLC implementation.
        assert_eq!(crc32(b"123456789"), 0xCBF4_3926);
        assert_eq!(crc32(b""), 0);
    }

    #[test]
    fn a_walk_saves_checks_and_loads_the_same_words() {
        let mut a = (Vec3::new(1.0, -0.0, f32::MIN_POSITIVE), Quat::from_xyzw(0.1, 0.2, 0.3, 0.9).normalize());
        let mut size = Size::default();
        a.io(&mut size);
        let mut buf = vec![0u8; size.bytes];
        let mut save = Save { out: &mut buf, at: 0, overflow: false };
        a.io(&mut save);
        assert!(!save.overflow);
        let mut b = (Vec3::ZERO, Quat::IDENTITY);
        let mut check = Check::new(&buf, 0);
        b.io(&mut check);
        assert!(check.result().is_ok());
        assert_eq!(b, (Vec3::ZERO, Quat::IDENTITY), "a check changes nothing");
        b.io(&mut Load { r: Reader { data: &buf, at: 0, short: false } });
        assert_eq!(b.0.y.to_bits(), (-0.0f32).to_bits());
        assert_eq!(b, a);
    }

    #[test]
    fn a_check_refuses_non_finite_values_and_rotations_that_are_not_unit() {
        for bad in [(Vec3::new(f32::NAN, 0.0, 0.0), Quat::IDENTITY), (Vec3::ZERO, Quat::from_xyzw(0.0, 0.0, 0.0, 0.5))] {
            let mut v = bad;
            let mut buf = vec![0u8; 28];
            v.io(&mut Save { out: &mut buf, at: 0, overflow: false });
            let mut check = Check::new(&buf, 0);
            (Vec3::ZERO, Quat::IDENTITY).io(&mut check);
            assert!(check.result().is_err(), "{bad:?} was accepted");
        }
    }
}
