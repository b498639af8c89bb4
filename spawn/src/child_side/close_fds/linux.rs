//! Linux: `close_range(2)` (5.9+) by system call (glibc before 2.34 and musl have no wrapper),
//! else the fds `/proc/self/fd` lists, read with `getdents64` into a stack buffer.

use std::os::fd::RawFd;

use super::super::calls;

/// Closes `lo..=hi`; false if the kernel (or a seccomp filter) refuses `close_range`.
pub(super) unsafe fn close_gap(lo: RawFd, hi: RawFd) -> bool {
    let (Ok(lo), Ok(hi)) = (libc::c_uint::try_from(lo), libc::c_uint::try_from(hi)) else {
        return false;
    };
    libc::syscall(libc::SYS_close_range, lo, hi, 0 as libc::c_uint) == 0
}

/// The fixed part of a `linux_dirent64`: inode, offset, record length, type; the name follows.
const NAME_OFFSET: usize = 19;
const RECLEN_OFFSET: usize = 16;

/// Closes every fd from 3 up that `/proc/self/fd` lists and `keep` does not; false if the
/// directory cannot be opened (no `/proc`).
pub(super) unsafe fn close_listed(keep: &[RawFd]) -> bool {
    let Ok(dir) = calls::open_dir(c"/proc/self/fd".as_ptr()) else {
        return false;
    };
    // u64s so the records are 8-byte aligned, as the kernel writes them.
    let mut buf = [0u64; 256];
    let size = std::mem::size_of_val(&buf);
    loop {
        let n = libc::syscall(libc::SYS_getdents64, dir, buf.as_mut_ptr(), size);
        let Ok(n) = usize::try_from(n) else { break };
        if n == 0 {
            break;
        }
        let bytes = std::slice::from_raw_parts(buf.as_ptr().cast::<u8>(), n.min(size));
        let mut at = 0;
        while let Some(record) = bytes.get(at..) {
            let Some(len) = record_len(record) else { break };
            if let Some(fd) = record.get(NAME_OFFSET..len).and_then(parse_fd) {
                if fd > 2 && fd != dir && keep.binary_search(&fd).is_err() {
                    calls::close(fd);
                }
            }
            at = at.saturating_add(len);
        }
    }
    calls::close(dir);
    true
}

/// The length of the record at the start of `record`, if it is whole and non-empty.
fn record_len(record: &[u8]) -> Option<usize> {
    let lo = *record.get(RECLEN_OFFSET)?;
    let hi = *record.get(RECLEN_OFFSET + 1)?;
    let len = usize::from(u16::from_ne_bytes([lo, hi]));
    (len > NAME_OFFSET && len <= record.len()).then_some(len)
}

/// A NUL-terminated decimal fd number (`.` and `..` give `None`).
fn parse_fd(name: &[u8]) -> Option<RawFd> {
    let mut fd: RawFd = 0;
    let mut digits = 0;
    for &b in name.iter().take_while(|&&b| b != 0) {
        if !b.is_ascii_digit() {
            return None;
        }
        fd = fd.checked_mul(10)?.checked_add(RawFd::from(b - b'0'))?;
        digits += 1;
    }
    (digits > 0).then_some(fd)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    #[rstest]
    #[case(b"17\0\0\0", Some(17))]
    #[case(b"0\0", Some(0))]
    #[case(b".\0", None)]
    #[case(b"..\0", None)]
    #[case(b"\0", None)]
    #[case(b"99999999999\0", None)]
    fn fd_names_parse(#[case] name: &[u8], #[case] want: Option<RawFd>) {
        assert_eq!(parse_fd(name), want);
    }
}
