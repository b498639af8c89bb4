//! Other Unixes: only the physical memory size is known portably, so the check is weaker
//! (it cannot see what other processes use).

pub fn available() -> Option<(u64, &'static str)> {
    // SAFETY: sysconf has no memory-safety preconditions.
    let (pages, page) = unsafe {
        (
            libc::sysconf(libc::_SC_PHYS_PAGES),
            libc::sysconf(libc::_SC_PAGESIZE),
        )
    };
    if pages <= 0 || page <= 0 {
        return None;
    }
    Some(((pages as u64).checked_mul(page as u64)?, "physical memory"))
}

pub fn address_space_used() -> Option<u64> {
    None
}

/// No portable limit on the number of mappings is known; a fragmented parent that exceeds
/// one fails when it is made, with the kernel's error.
pub fn max_mappings() -> Option<u64> {
    None
}
