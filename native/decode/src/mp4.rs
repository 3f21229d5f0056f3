//! MP4/M4A files whose index (the `moov` atom) follows their audio (`mdat`): ffmpeg's default
//! (without `-movflags +faststart`). Such a file cannot be decoded as it arrives, so it is
//! read whole, up to a bound, and decoded from memory (seekable). A file with its index first,
//! and anything that is not MP4, streams as it arrives. Only the top-level atom headers before
//! the first `moov` or `mdat` are looked at here; symphonia reads the rest.

use std::io::{self, Read};

/// What the start of a stream says about its MP4 layout.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layout {
    /// Not MP4, or MP4 with its index first (or too odd to tell: symphonia says what is wrong).
    Streams,
    /// MP4 with its audio before its index: must be read whole.
    IndexLast,
}

/// Longest atom skipped while looking for `moov` or `mdat` (`ftyp`, `free`, `wide` are tiny).
const MAX_SKIPPED_ATOM: u64 = 1 << 20;

/// Reads from `input` into `head` until it holds `len` bytes or the input ends.
fn fill<R: Read>(input: &mut R, head: &mut Vec<u8>, len: usize) -> io::Result<()> {
    let mut buf = [0u8; 4096];
    while head.len() < len {
        let n = input.read(&mut buf[..(len - head.len()).min(4096)])?;
        if n == 0 {
            break;
        }
        head.extend_from_slice(&buf[..n]);
    }
    Ok(())
}

/// Reads the start of `input` until its layout is known; returns it with the bytes read (which
/// the decoder reads first).
pub fn sniff<R: Read>(input: &mut R) -> io::Result<(Layout, Vec<u8>)> {
    let mut head = Vec::new();
    fill(input, &mut head, 8)?;
    if head.len() < 8 || &head[4..8] != b"ftyp" {
        return Ok((Layout::Streams, head));
    }
    let mut at = 0usize;
    loop {
        fill(input, &mut head, at + 16)?;
        if head.len() < at + 8 {
            return Ok((Layout::Streams, head));
        }
        let word = |i: usize| u32::from_be_bytes([head[i], head[i + 1], head[i + 2], head[i + 3]]);
        match &head[at + 4..at + 8] {
            b"moov" => return Ok((Layout::Streams, head)),
            b"mdat" => return Ok((Layout::IndexLast, head)),
            _ => {}
        }
        let size = match word(at) {
            1 if head.len() >= at + 16 => u64::from(word(at + 8)) << 32 | u64::from(word(at + 12)),
            n => u64::from(n),
        };
        if !(8..=MAX_SKIPPED_ATOM).contains(&size) {
            return Ok((Layout::Streams, head));
        }
        at += size as usize;
        fill(input, &mut head, at)?;
    }
}

/// Reads the rest of `input` after `head`, failing once the whole would exceed `max` bytes.
pub fn read_whole<R: Read>(input: &mut R, mut head: Vec<u8>, max: usize) -> io::Result<Vec<u8>> {
    let mut buf = [0u8; 16384];
    loop {
        let n = input.read(&mut buf)?;
        if n == 0 {
            return Ok(head);
        }
        if head.len() + n > max {
            return Err(io::Error::new(io::ErrorKind::FileTooLarge, "too large"));
        }
        head.extend_from_slice(&buf[..n]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn atom(kind: &[u8; 4], body: usize) -> Vec<u8> {
        let mut a = ((body + 8) as u32).to_be_bytes().to_vec();
        a.extend_from_slice(kind);
        a.resize(body + 8, 0);
        a
    }

    #[test]
    fn tells_index_first_from_index_last() {
        let late = [
            atom(b"ftyp", 12),
            atom(b"free", 0),
            atom(b"mdat", 100),
            atom(b"moov", 50),
        ]
        .concat();
        let (layout, head) = sniff(&mut &late[..]).unwrap();
        assert_eq!(layout, Layout::IndexLast);
        assert!(late.starts_with(&head));
        let whole = read_whole(&mut &late[head.len()..], head.clone(), 1000).unwrap();
        assert_eq!(whole, late);
        assert!(read_whole(&mut &late[head.len()..], head, 100).is_err());
        let first = [atom(b"ftyp", 12), atom(b"moov", 50), atom(b"mdat", 100)].concat();
        assert_eq!(sniff(&mut &first[..]).unwrap().0, Layout::Streams);
        let mp3 = b"ID3\x04\0\0\0\0\0\0 and more";
        let (layout, head) = sniff(&mut &mp3[..]).unwrap();
        assert_eq!((layout, &head[..]), (Layout::Streams, &mp3[..8]));
        assert_eq!(
            sniff(&mut &b"ab"[..]).unwrap(),
            (Layout::Streams, b"ab".to_vec())
        );
    }
}
