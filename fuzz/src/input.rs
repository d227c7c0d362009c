//! Turning fuzz bytes into call arguments: counts, indices, floats of any bit pattern, and
//! descriptors (the library's defaults with some fields overwritten).
//!
//! Everything is drawn through `arbitrary::Unstructured`; once the bytes run out every draw
//! answers zero, so a sequence ends by itself.

use arbitrary::Unstructured;
use sinew::ffi::result::SinewResult;
use sinew::ffi::types::*;

pub struct Gen<'a> {
    u: Unstructured<'a>,
}

impl<'a> Gen<'a> {
    pub fn new(data: &'a [u8]) -> Self {
        Gen { u: Unstructured::new(data) }
    }

    pub fn is_empty(&self) -> bool {
        self.u.is_empty()
    }

    pub fn byte(&mut self) -> u8 {
        self.u.arbitrary().unwrap_or(0)
    }

    pub fn word(&mut self) -> u32 {
        self.u.arbitrary().unwrap_or(0)
    }

    pub fn bool(&mut self) -> bool {
        self.byte() & 1 == 1
    }

    /// Uniform in `[0, n)` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            return 0;
        }
        self.u.int_in_range(0..=n - 1).unwrap_or(0)
    }

    /// True with probability about `1/n`.
    pub fn one_in(&mut self, n: u8) -> bool {
        self.byte() % n.max(1) == 0
    }

    /// A float of any kind: raw bits, the IEEE specials, the extremes, subnormals, or a
    /// plain value within ±32.
    pub fn float(&mut self) -> f32 {
        match self.byte() % 20 {
            0 => f32::from_bits(self.word()),
            1 => f32::NAN,
            2 => f32::INFINITY,
            3 => f32::NEG_INFINITY,
            4 => f32::MAX,
            5 => -f32::MAX,
            6 => 1.0e30,
            7 => -1.0e30,
            8 => f32::MIN_POSITIVE,
            9 => 1.0e-40,
            10 => 0.0,
            11 => -0.0,
            12 => 1.0e6,
            13 => -1.0e6,
            14 => 1.0e3 * if self.bool() { 1.0 } else { -1.0 },
            15 => 1.0e-7,
            _ => (self.word() as i16) as f32 / 1024.0,
        }
    }

    /// `sane` most of the time, any float otherwise.
    pub fn mostly(&mut self, sane: f32) -> f32 {
        if self.one_in(6) { self.float() } else { sane }
    }

    /// A plain value in `[lo, hi]`.
    pub fn range(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * (self.word() >> 8) as f32 / (1u32 << 24) as f32
    }

    pub fn vec3(&mut self) -> SinewVec3 {
        SinewVec3 { x: self.float(), y: self.float(), z: self.float() }
    }

    /// A point within `r` of `centre`, now and then any vector.
    pub fn point(&mut self, centre: SinewVec3, r: f32) -> SinewVec3 {
        if self.one_in(10) {
            return self.vec3();
        }
        SinewVec3 { x: centre.x + self.range(-r, r), y: centre.y + self.range(-r, r), z: centre.z + self.range(-r, r) }
    }

    pub fn quat(&mut self) -> SinewQuat {
        match self.byte() % 4 {
            0 => SinewQuat { x: self.float(), y: self.float(), z: self.float(), w: self.float() },
            1 => {
                let (s, c) = (self.range(-3.2, 3.2) * 0.5).sin_cos();
                SinewQuat { x: s, y: 0.0, z: 0.0, w: c }
            }
            _ => SinewQuat { x: 0.0, y: 0.0, z: 0.0, w: 1.0 },
        }
    }

    /// A rigid transform near the origin, sometimes scaled or sheared, sometimes with any
    /// entry of any value.
    pub fn mat(&mut self) -> SinewMat4 {
        let (s, c) = self.range(-3.2, 3.2).sin_cos();
        let t = self.point(SinewVec3 { x: 0.0, y: 1.0, z: 0.0 }, 2.0);
        let mut m = SinewMat4 { m: [c, 0.0, -s, 0.0, 0.0, 1.0, 0.0, 0.0, s, 0.0, c, 0.0, t.x, t.y, t.z, 1.0] };
        for _ in 0..self.below(3) {
            let i = self.below(16);
            m.m[i] = self.float();
        }
        m
    }

    /// A count: usually small, sometimes zero or absurd.
    pub fn count(&mut self, typical: usize) -> usize {
        match self.byte() % 10 {
            0 => 0,
            1 => usize::MAX,
            2 => usize::MAX / 16,
            3 => 1 << 31,
            _ => self.below(typical + 1),
        }
    }

    /// A 32-bit word that is a float, a small integer or any bits: what a scrambled field
    /// of a descriptor gets.
    pub fn field_word(&mut self) -> u32 {
        match self.byte() % 4 {
            0 => self.float().to_bits(),
            1 => self.below(8) as u32,
            2 => self.word(),
            _ => [u32::MAX, 0x8000_0000, 64, 65, 256, 257, 1 << 20][self.below(7)],
        }
    }

    /// Overwrites up to `max` 4-byte fields of `v` with [`Gen::field_word`].
    pub fn scramble<T: Scramble>(&mut self, v: &mut T, max: usize) {
        let words = std::mem::size_of::<T>() / 4;
        let n = self.below(max + 1);
        let p = (v as *mut T).cast::<u32>();
        for _ in 0..n {
            let i = self.below(words);
            let w = self.field_word();
            // SAFETY: `T: Scramble` is made of 4-byte fields for which every bit pattern is
            // valid (f32, u32, i32, or halves of a u64 handle), and `i` is within it.
            unsafe { p.add(i).write_unaligned(w) };
        }
    }

    /// Indices below `n`, now and then one past the end or any value.
    pub fn indices(&mut self, n: usize, len: usize) -> Vec<u32> {
        (0..len)
            .map(|_| match self.byte() % 16 {
                0 => self.word(),
                1 => n as u32,
                _ => self.below(n.max(1)) as u32,
            })
            .collect()
    }
}

/// Structs made only of 4-byte fields that take any bit pattern (no pointers, no padding
/// that matters): what [`Gen::scramble`] may overwrite.
///
/// # Safety
/// Implement only for such types.
pub unsafe trait Scramble: Copy {}

// SAFETY: each is #[repr(C)] of f32, u32, i32 and (as two words) u64 handles only.
unsafe impl Scramble for SinewWorldDesc {}
unsafe impl Scramble for SinewMaterial {}
unsafe impl Scramble for SinewDynamics {}
unsafe impl Scramble for SinewLod {}
unsafe impl Scramble for SinewWind {}
unsafe impl Scramble for SinewColliderDesc {}
unsafe impl Scramble for SinewClothCapeDesc {}
unsafe impl Scramble for SinewClothSkirtDesc {}
unsafe impl Scramble for SinewBoneDesc {}
unsafe impl Scramble for SinewJointDesc {}
unsafe impl Scramble for SinewRagdollSettings {}
unsafe impl Scramble for SinewHumanoidBones {}
unsafe impl Scramble for SinewBoneWeight {}
unsafe impl Scramble for sinew::ffi::softbody::SinewSoftSettings {}
unsafe impl Scramble for sinew::ffi::softbody::SinewSoftLatticeDesc {}
unsafe impl Scramble for SinewMat4 {}

/// Bounds what a fuzzed world descriptor costs to step while keeping every refusal: a value
/// its check refuses (0 or past 64 substeps, past 256 iterations or threads, 0 or past 1000
/// steps per frame) stays as it is, an accepted one is folded onto the cheapest few (1–2
/// substeps and iterations, 1–2 steps per frame, `threads` worker threads). The solver runs
/// the same code at 2 substeps as at 64; only the input's cost grows with them.
pub fn cheap_world(d: &mut SinewWorldDesc, threads: u32) {
    if (1..=64).contains(&d.substeps) {
        d.substeps = 1 + (d.substeps - 1) % 2;
    }
    if (1..=256).contains(&d.iterations) {
        d.iterations = 1 + (d.iterations - 1) % 2;
    }
    if d.thread_count <= 256 {
        d.thread_count = threads;
    }
    if (1..=1000).contains(&d.max_steps_per_frame) {
        d.max_steps_per_frame = 1 + (d.max_steps_per_frame - 1) % 2;
    }
}

/// The calling thread's last error message.
pub fn last_error() -> String {
    let p = sinew::ffi::world::sinew_last_error_message();
    // SAFETY: the library returns a NUL-terminated string valid until the next failing call.
    unsafe { std::ffi::CStr::from_ptr(p) }.to_string_lossy().into_owned()
}

/// Asserts what holds for every call: no panic reached the boundary, and a failure says why.
#[track_caller]
pub fn check(r: SinewResult, what: &str) {
    assert!(r != SinewResult::SINEW_PANIC, "{what}: a panic reached the boundary: {}", last_error());
    if r != SinewResult::SINEW_OK {
        assert!(!last_error().is_empty(), "{what}: {r:?} without a message");
    }
}

/// Fills a descriptor through its `sinew_*_default` function.
pub fn default_of<T>(f: extern "C" fn(*mut T) -> SinewResult) -> T {
    let mut d = std::mem::MaybeUninit::uninit();
    assert_eq!(f(d.as_mut_ptr()), SinewResult::SINEW_OK, "{}", last_error());
    // SAFETY: the default function succeeded, so it wrote the whole value.
    unsafe { d.assume_init() }
}

/// A material to start from: the library's default or, one time in four, a preset
/// (`sinew_material_preset`) of any value: one no preset has is refused with
/// `SINEW_INVALID_ARGUMENT` and leaves the output as it was (the default).
pub fn base_material(g: &mut Gen) -> SinewMaterial {
    use sinew::ffi::body::{sinew_material_default, sinew_material_preset};
    let mut m = default_of(sinew_material_default);
    if g.one_in(4) {
        let before = m;
        let v = if g.bool() { g.below(12) as u32 } else { g.word() };
        let r = sinew_material_preset(v, &mut m);
        if SinewMaterialPreset::from_u32(v).is_some() {
            assert_eq!(r, SinewResult::SINEW_OK, "preset {v}: {}", last_error());
        } else {
            assert_eq!(r, SinewResult::SINEW_INVALID_ARGUMENT, "preset {v}");
            assert!(last_error().contains(&format!("unknown material preset {v}")), "{}", last_error());
            assert_eq!(m, before, "a refused preset wrote its output");
        }
    }
    m
}
