//! A zip writer for the C/C++ archives of Windows targets, where a `.zip` is what Explorer
//! opens: deflated entries with CRC-32 (both from flate2), no extra fields, every entry dated
//! 1980-01-01 00:00 (zip's epoch), so the same tree gives the same bytes on every machine.
//! Files only: a tree with symbolic links goes into a tar instead.

use std::io::{self, Write};

/// Writes entries in the order given, then the central directory at `finish`.
pub struct Writer<W: Write> {
    out: W,
    offset: u64,
    central: Vec<u8>,
    entries: u16,
}

const LOCAL: u32 = 0x0403_4b50;
const CENTRAL: u32 = 0x0201_4b50;
const END: u32 = 0x0605_4b50;
/// 1980-01-01 in MS-DOS date form (day 1, month 1, year 0 = 1980); time 00:00:00.
const DOS_DATE: u16 = (1 << 5) | 1;
/// Names are UTF-8 (general purpose flag bit 11).
const UTF8: u16 = 1 << 11;
const DEFLATE: u16 = 8;

impl<W: Write> Writer<W> {
    pub fn new(out: W) -> Self {
        Writer { out, offset: 0, central: Vec::new(), entries: 0 }
    }

    /// One file, `mode` its Unix permissions (kept for unzip on Unix).
    pub fn append(&mut self, path: &str, data: &[u8], mode: u32) -> io::Result<()> {
        let too_big = || io::Error::new(io::ErrorKind::InvalidInput, format!("{path}: too large for a zip without Zip64"));
        let mut crc = flate2::Crc::new();
        crc.update(data);
        let mut deflate = flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::best());
        deflate.write_all(data)?;
        let packed = deflate.finish()?;
        let size = u32::try_from(data.len()).map_err(|_| too_big())?;
        let packed_size = u32::try_from(packed.len()).map_err(|_| too_big())?;
        let offset = u32::try_from(self.offset).map_err(|_| too_big())?;
        let name = path.as_bytes();
        let name_len = u16::try_from(name.len()).map_err(|_| too_big())?;
        self.entries = self.entries.checked_add(1).ok_or_else(too_big)?;

        let mut local = Vec::with_capacity(30 + name.len());
        put32(&mut local, LOCAL);
        put16(&mut local, 20); // version needed: 2.0 (deflate)
        put16(&mut local, UTF8);
        put16(&mut local, DEFLATE);
        put16(&mut local, 0); // time
        put16(&mut local, DOS_DATE);
        put32(&mut local, crc.sum());
        put32(&mut local, packed_size);
        put32(&mut local, size);
        put16(&mut local, name_len);
        put16(&mut local, 0); // no extra field
        local.extend_from_slice(name);
        self.out.write_all(&local)?;
        self.out.write_all(&packed)?;
        self.offset += (local.len() + packed.len()) as u64;

        let c = &mut self.central;
        put32(c, CENTRAL);
        put16(c, (3 << 8) | 20); // made by: Unix, 2.0 (so the mode below is read)
        put16(c, 20);
        put16(c, UTF8);
        put16(c, DEFLATE);
        put16(c, 0);
        put16(c, DOS_DATE);
        put32(c, crc.sum());
        put32(c, packed_size);
        put32(c, size);
        put16(c, name_len);
        put16(c, 0); // extra
        put16(c, 0); // comment
        put16(c, 0); // disk
        put16(c, 0); // internal attributes
        put32(c, (0o100_000 | (mode & 0o777)) << 16); // a regular file with its permissions
        put32(c, offset);
        c.extend_from_slice(name);
        Ok(())
    }

    /// The central directory and its end record; gives the writer back.
    pub fn finish(mut self) -> io::Result<W> {
        let too_big = || io::Error::new(io::ErrorKind::InvalidInput, "archive too large for a zip without Zip64");
        let size = u32::try_from(self.central.len()).map_err(|_| too_big())?;
        let offset = u32::try_from(self.offset).map_err(|_| too_big())?;
        self.out.write_all(&self.central)?;
        let mut end = Vec::with_capacity(22);
        put32(&mut end, END);
        put16(&mut end, 0);
        put16(&mut end, 0);
        put16(&mut end, self.entries);
        put16(&mut end, self.entries);
        put32(&mut end, size);
        put32(&mut end, offset);
        put16(&mut end, 0); // comment
        self.out.write_all(&end)?;
        Ok(self.out)
    }
}

fn put16(v: &mut Vec<u8>, x: u16) {
    v.extend_from_slice(&x.to_le_bytes());
}

fn put32(v: &mut Vec<u8>, x: u32) {
    v.extend_from_slice(&x.to_le_bytes());
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;

    fn u16_at(b: &[u8], at: usize) -> u16 {
        u16::from_le_bytes([b[at], b[at + 1]])
    }

    fn u32_at(b: &[u8], at: usize) -> u32 {
        u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
    }

    #[test]
    fn entries_inflate_back_and_the_directory_finds_them() {
        let text = b"sinew sinew sinew sinew sinew".repeat(20);
        let mut w = Writer::new(Vec::new());
        w.append("top/include/sinew.h", &text, 0o644).unwrap();
        w.append("top/bin/sinew.dll", b"MZ", 0o755).unwrap();
        let zip = w.finish().unwrap();

        // The end record names 2 entries and where the directory starts.
        let end = zip.len() - 22;
        assert_eq!(u32_at(&zip, end), END);
        assert_eq!(u16_at(&zip, end + 10), 2);
        let dir = u32_at(&zip, end + 16) as usize;
        assert_eq!(u32_at(&zip, dir), CENTRAL);
        assert_eq!(u32_at(&zip, dir + 38) >> 16, 0o100_644);
        let first = u32_at(&zip, dir + 42) as usize;
        assert_eq!(first, 0);

        // The first local entry: name, then the deflated data, which inflates to the text.
        assert_eq!(u32_at(&zip, 0), LOCAL);
        let packed = u32_at(&zip, 18) as usize;
        let name_len = u16_at(&zip, 26) as usize;
        assert_eq!(&zip[30..30 + name_len], b"top/include/sinew.h");
        let data = &zip[30 + name_len..30 + name_len + packed];
        let mut back = Vec::new();
        flate2::read::DeflateDecoder::new(data).read_to_end(&mut back).unwrap();
        assert_eq!(back, text);
        let mut crc = flate2::Crc::new();
        crc.update(&text);
        assert_eq!(u32_at(&zip, 14), crc.sum());
    }
}
