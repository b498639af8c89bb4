//! Parent memory for the benchmark: mapped in this process and touched page by page, so the
//! page tables a fork must copy are real, and unmapped again before the next size.

use std::io;
use std::ptr;

/// Touched anonymous memory owned by this process; unmapped on drop.
pub struct Ballast {
    base: *mut libc::c_void,
    len: usize,
}

impl Ballast {
    /// Maps `bytes` of private anonymous memory and writes one byte to every page of it.
    /// Zero bytes maps nothing.
    pub fn touched(bytes: u64) -> io::Result<Ballast> {
        let len = usize::try_from(bytes)
            .map_err(|_| io::Error::new(io::ErrorKind::InvalidInput, "size exceeds usize"))?;
        if len == 0 {
            return Ok(Ballast {
                base: ptr::null_mut(),
                len: 0,
            });
        }
        // SAFETY: a fresh private anonymous mapping; the result is checked below.
        let base = unsafe {
            libc::mmap(
                ptr::null_mut(),
                len,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANON,
                -1,
                0,
            )
        };
        if base == libc::MAP_FAILED {
            return Err(io::Error::last_os_error());
        }
        let ballast = Ballast { base, len };
        let page = page_size()?;
        let bytes = base.cast::<u8>();
        for offset in (0..len).step_by(page) {
            // SAFETY: `offset < len`, inside the mapping made above.
            unsafe { ptr::write_volatile(bytes.add(offset), 1) };
        }
        Ok(ballast)
    }
}

impl Drop for Ballast {
    fn drop(&mut self) {
        if self.len > 0 {
            // SAFETY: unmaps exactly the mapping this value owns. A failure (impossible for a
            // mapping we made) would only leave memory mapped until exit.
            unsafe { libc::munmap(self.base, self.len) };
        }
    }
}

/// The system page size.
pub fn page_size() -> io::Result<usize> {
    // SAFETY: sysconf has no memory-safety preconditions.
    let page = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
    if page <= 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(page as usize)
}
