//! A ustar writer, enough for npm-style tarballs and the C/C++ archive: regular files and
//! symbolic links, fixed owner and time so the same inputs give the same bytes.

use std::io::{self, Write};

/// Seconds since 1970 written into every entry (2020-01-01): a fixed time keeps the archive
/// reproducible, and tools warn about entries dated in the future or at zero.
const MTIME: u64 = 1_577_836_800;

pub enum Entry<'a> {
    File { path: &'a str, data: &'a [u8], executable: bool },
    Symlink { path: &'a str, target: &'a str },
}

pub struct Writer<W: Write> {
    out: W,
}

impl<W: Write> Writer<W> {
    pub fn new(out: W) -> Self {
        Writer { out }
    }

    pub fn append(&mut self, entry: &Entry) -> io::Result<()> {
        let (path, size, mode, kind, link) = match *entry {
            Entry::File { path, data, executable } => (path, data.len() as u64, if executable { 0o755 } else { 0o644 }, b'0', ""),
            Entry::Symlink { path, target } => (path, 0, 0o777, b'2', target),
        };
        let header = header(path, size, mode, kind, link)?;
        self.out.write_all(&header)?;
        if let Entry::File { data, .. } = entry {
            self.out.write_all(data)?;
            let pad = (512 - data.len() % 512) % 512;
            self.out.write_all(&[0; 512][..pad])?;
        }
        Ok(())
    }

    /// The two zero blocks that end an archive; returns the inner writer.
    pub fn finish(mut self) -> io::Result<W> {
        self.out.write_all(&[0; 1024])?;
        Ok(self.out)
    }
}

fn header(path: &str, size: u64, mode: u32, kind: u8, link: &str) -> io::Result<[u8; 512]> {
    let invalid = |what: String| io::Error::new(io::ErrorKind::InvalidInput, what);
    let mut h = [0u8; 512];
    let (prefix, name) = split_path(path).ok_or_else(|| invalid(format!("{path}: too long for a ustar name")))?;
    if link.len() > 100 {
        return Err(invalid(format!("{link}: too long for a ustar link")));
    }
    h[..name.len()].copy_from_slice(name.as_bytes());
    octal(&mut h[100..108], mode as u64);
    octal(&mut h[108..116], 0); // uid
    octal(&mut h[116..124], 0); // gid
    octal(&mut h[124..136], size);
    octal(&mut h[136..148], MTIME);
    h[156] = kind;
    h[157..157 + link.len()].copy_from_slice(link.as_bytes());
    h[257..263].copy_from_slice(b"ustar\0");
    h[263..265].copy_from_slice(b"00");
    h[345..345 + prefix.len()].copy_from_slice(prefix.as_bytes());
    // The checksum is computed with its own field as eight spaces.
    h[148..156].fill(b' ');
    let sum: u32 = h.iter().map(|&b| b as u32).sum();
    let digits = format!("{sum:06o}\0 ");
    h[148..156].copy_from_slice(digits.as_bytes());
    Ok(h)
}

/// ustar keeps names of up to 100 bytes, and longer ones as a prefix of up to 155 bytes, a
/// slash, and the rest.
fn split_path(path: &str) -> Option<(&str, &str)> {
    if path.len() <= 100 {
        return Some(("", path));
    }
    path.char_indices()
        .filter(|&(i, c)| c == '/' && i <= 155 && path.len() - i - 1 <= 100)
        .map(|(i, _)| (&path[..i], &path[i + 1..]))
        .next()
}

/// NUL-terminated, zero-padded octal filling the field.
fn octal(field: &mut [u8], value: u64) {
    let digits = format!("{value:0width$o}", width = field.len() - 1);
    field[..digits.len()].copy_from_slice(digits.as_bytes());
    field[digits.len()] = 0;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_entry_is_a_header_and_its_padded_data() {
        let mut w = Writer::new(Vec::new());
        w.append(&Entry::File { path: "package/a.txt", data: b"hello", executable: false }).unwrap();
        let bytes = w.finish().unwrap();
        assert_eq!(bytes.len(), 512 + 512 + 1024);
        assert_eq!(&bytes[..13], b"package/a.txt");
        assert_eq!(&bytes[124..136], b"00000000005\0");
        assert_eq!(&bytes[512..517], b"hello");
        // The checksum: the header's bytes summed with the field as spaces.
        let mut h = bytes[..512].to_vec();
        let stored = u32::from_str_radix(std::str::from_utf8(&h[148..154]).unwrap(), 8).unwrap();
        h[148..156].fill(b' ');
        assert_eq!(stored, h.iter().map(|&b| b as u32).sum::<u32>());
    }

    #[test]
    fn long_paths_use_the_prefix_field() {
        let long = format!("package/{}/file.meta", "d".repeat(120));
        let (prefix, name) = split_path(&long).unwrap();
        assert_eq!(format!("{prefix}/{name}"), long);
        assert!(name.len() <= 100 && prefix.len() <= 155);
        assert!(split_path(&"x".repeat(300)).is_none());
    }
}
