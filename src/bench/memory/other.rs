//! Other Unixes: only the physical memory size is known portably (`physical_memory` in
//! mod.rs), so the check is weaker (it cannot see what other processes use).

pub fn available() -> Option<(u64, &'static str)> {
    None
}

pub fn address_space_used() -> Option<u64> {
    None
}

/// No portable limit on the number of mappings is known; a fragmented parent that exceeds
/// one fails when it is made, with the kernel's error.
pub fn max_mappings() -> Option<u64> {
    None
}
