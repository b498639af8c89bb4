//! Linux: `MemAvailable` from /proc/meminfo and VmSize from /proc/self/statm.

use super::super::ballast::page_size;

pub fn available() -> Option<(u64, &'static str)> {
    let meminfo = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = meminfo.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some((kib.checked_mul(1024)?, "MemAvailable"))
}

pub fn address_space_used() -> Option<u64> {
    let statm = std::fs::read_to_string("/proc/self/statm").ok()?;
    let pages: u64 = statm.split_whitespace().next()?.parse().ok()?;
    pages.checked_mul(page_size().ok()? as u64)
}
